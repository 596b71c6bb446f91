/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU: what the flow cores share (see aooct-cpu-flow-image.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-flow-image.h"
#include "aooct-omp.h"

gfloat
aooct_cpu_flow_max (const gfloat * v, gsize n)
{
  gfloat best = -INFINITY;
  gsize i;

  for (i = 0; i < n; i++)
    best = v[i] > best ? v[i] : best;
  return best;
}

void
aooct_cpu_flow_write (AooctFlowFormat format, gint alines, gint rows,
    AooctCpuFlowPixel pixel, gconstpointer data, guint8 * out, gsize out_stride)
{
  const gsize bpp = format == AOOCT_FLOW_GRAY16 ? 2 :
      format == AOOCT_FLOW_RGBA ? 4 : 1;
  const gsize row_bytes = bpp * alines;
  gint r;

#pragma omp parallel for schedule(static) if ((gint64) rows * alines >= AOOCT_CPU_PARALLEL_MIN)
  for (r = 0; r < rows; r++) {
    guint8 *row = out + (gsize) r * out_stride;
    gint m;

    if (out_stride > row_bytes)
      memset (row + row_bytes, 0, out_stride - row_bytes);
    for (m = 0; m < alines; m++) {
      guint32 v = pixel (data, m, r);

      if (format == AOOCT_FLOW_GRAY16) {
        guint16 g = GUINT16_TO_LE ((guint16) v);
        memcpy (row + 2 * (gsize) m, &g, 2);
      } else if (format == AOOCT_FLOW_RGBA) {
        guint32 w = GUINT32_TO_LE (v);
        memcpy (row + 4 * (gsize) m, &w, 4);
      } else {
        row[m] = (guint8) v;
      }
    }
  }
}
