/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the ring of the rolling background (see aooct-rolling.h). */
#include "aooct-rolling.h"

AooctRolling *
aooct_rolling_new (gint samples, gint k)
{
  AooctRolling *r = g_new0 (AooctRolling, 1);

  r->samples = samples;
  r->k = k;
  r->ring = g_new0 (gdouble, (gsize) samples * k);
  return r;
}

void
aooct_rolling_free (AooctRolling * r)
{
  if (r == NULL)
    return;
  g_free (r->ring);
  g_free (r);
}

void
aooct_rolling_reset (AooctRolling * r)
{
  r->pos = 0;
  r->count = 0;
}
