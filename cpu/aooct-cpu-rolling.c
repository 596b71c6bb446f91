/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: rolling background (see aooct-cpu-rolling.h). */
#include "aooct-cpu-rolling.h"

void
aooct_cpu_rolling_bscan (AooctRolling * r, gfloat * x, gint alines)
{
  const gint n = r->samples;
  gdouble *slot = r->ring + (gsize) r->pos * n;
  gint m, i, s;

  for (i = 0; i < n; i++)
    slot[i] = 0.0;
  for (m = 0; m < alines; m++) {
    const gfloat *row = x + (gsize) m * n;
    for (i = 0; i < n; i++)
      slot[i] += row[i];
  }
  r->pos = (r->pos + 1) % r->k;
  r->count = MIN (r->count + 1, r->k);
  for (i = 0; i < n; i++) {
    gdouble sum = 0.0;
    gfloat mean;

    for (s = 0; s < r->count; s++)
      sum += r->ring[(gsize) s * n + i];
    mean = (gfloat) (sum / ((gdouble) r->count * alines));
    for (m = 0; m < alines; m++)
      x[(gsize) m * n + i] -= mean;
  }
}
