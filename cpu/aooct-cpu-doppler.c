/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: phase-resolved Doppler (see aooct-cpu-doppler.h). */
#include <math.h>

#include "aooct-cpu-doppler.h"
#include "aooct-cpu-flow-image.h"
#include "aooct-flow-pixel.h"
#include "aooct-omp.h"

struct _AooctCpuDopplerPlan
{
  AooctFlowParams p;
  gfloat *c;                    /* M x rows complex sums, A-line major */
  gfloat *iw;                   /* M x rows mean intensities */
  gfloat *bulk;                 /* M complex column sums */
  gfloat *depth;                /* (M - 1) x rows depth sums: re, im, I */
  gint *count;                  /* rows: bins in the depth window of row r */
};

/* what the pixel function reads */
typedef struct
{
  const AooctCpuDopplerPlan *d;
  gdouble limit;                /* aooct_flow_mask_limit() */
} Image;

AooctCpuDopplerPlan *
aooct_cpu_doppler_plan_new (const AooctFlowParams * p)
{
  AooctCpuDopplerPlan *d = g_new0 (AooctCpuDopplerPlan, 1);
  const gsize n = (gsize) p->alines * p->rows;

  d->p = *p;
  d->c = g_new (gfloat, 2 * n);
  d->iw = g_new (gfloat, n);
  d->bulk = g_new (gfloat, 2 * (gsize) p->alines);
  d->depth = g_new (gfloat, 3 * (gsize) MAX (p->alines - 1, 1) * p->rows);
  d->count = g_new (gint, p->rows);
  return d;
}

void
aooct_cpu_doppler_plan_free (AooctCpuDopplerPlan * d)
{
  if (d == NULL)
    return;
  g_free (d->c);
  g_free (d->iw);
  g_free (d->bulk);
  g_free (d->depth);
  g_free (d->count);
  g_free (d);
}

/* B[m] = the sum of the unmasked C[m][z], in the order a CUDA warp sums
 * it (lane l takes rows l, l + 32, ...; then lanes l and l + off for off
 * = 16, 8, 4, 2, 1), so that both backends get the same bits. */
static void
column_bulk (const AooctCpuDopplerPlan * d, gint m, gdouble limit, gfloat * b)
{
  const gint rows = d->p.rows;
  const gfloat *c = d->c + 2 * (gsize) m * rows;
  const gfloat *iw = d->iw + (gsize) m * rows;
  gfloat lr[32] = { 0 }, li[32] = { 0 };
  gint r, off, l;

  for (r = 0; r < rows; r++)
    if (!aooct_flow_masked (iw[r], limit)) {
      lr[r % 32] += c[2 * r];
      li[r % 32] += c[2 * r + 1];
    }
  for (off = 16; off > 0; off /= 2)
    for (l = 0; l < off; l++) {
      lr[l] += lr[l + off];
      li[l] += li[l + off];
    }
  b[0] = lr[0];
  b[1] = li[0];
}

static guint32
pixel (gconstpointer data, gint m, gint r)
{
  const Image *im = data;
  const AooctCpuDopplerPlan *d = im->d;
  const gsize i = (gsize) m * d->p.rows + r;
  const gint masked = aooct_flow_masked (d->iw[i], im->limit);
  const gdouble dphi = aooct_flow_dphi (d->c[2 * i], d->c[2 * i + 1], masked);

  switch (d->p.format) {
    case AOOCT_FLOW_RGBA:
      return aooct_flow_doppler_rgba (dphi);
    case AOOCT_FLOW_GRAY16:
      return aooct_flow_doppler_grey (dphi, 65535.0);
    default:
      return aooct_flow_doppler_grey (dphi, 255.0);
  }
}

static void
one_bscan (AooctCpuDopplerPlan * d, const AooctDopplerSettings * s,
    const gfloat * x, guint8 * out, gsize out_stride)
{
  const AooctFlowParams *p = &d->p;
  const gint rows = p->rows, alines = p->alines;
  /* the pairs (a, a + L) of the B-scan */
  const gint pairs = alines - s->lag;
  Image im = { d, 0 };
  gint m, a;

  /* the depth sums of every pair of A-lines (a, a + L) and row, once;
   * then each pixel adds those of its window, a ascending, as the CUDA
   * kernel does (aooct_flow_doppler_sums): the same bits */
#pragma omp parallel for schedule(static) if ((gint64) rows * pairs >= AOOCT_CPU_PARALLEL_MIN / 8)
  for (a = 0; a < pairs; a++) {
    gfloat *o = d->depth + 3 * (gsize) a * rows;
    gint r, n;

    for (r = 0; r < rows; r++) {
      n = aooct_flow_doppler_depth (x, p->samples, p->crop_start, rows,
          s->lag, s->depth_window, a, r, &o[3 * r], &o[3 * r + 1],
          &o[3 * r + 2]);
      if (a == 0)
        d->count[r] = n;
    }
  }
#pragma omp parallel for schedule(static) if ((gint64) rows * alines >= AOOCT_CPU_PARALLEL_MIN / 8)
  for (m = 0; m < alines; m++) {
    gfloat *c = d->c + 2 * (gsize) m * rows, *iw = d->iw + (gsize) m *rows;
    gint alo, ahi, r, k;

    aooct_flow_doppler_alines (alines, s->lag, s->aline_window, m, &alo, &ahi);
    for (r = 0; r < rows; r++)
      c[2 * r] = c[2 * r + 1] = iw[r] = 0.0f;
    for (k = alo; k <= ahi; k++) {
      const gfloat *o = d->depth + 3 * (gsize) k * rows;

      for (r = 0; r < rows; r++) {
        c[2 * r] += o[3 * r];
        c[2 * r + 1] += o[3 * r + 1];
        iw[r] += o[3 * r + 2];
      }
    }
    /* iw holds the sum of I so far */
    for (r = 0; r < rows; r++)
      aooct_flow_doppler_finish (iw[r], ahi >= alo ? (ahi - alo + 1) *
          d->count[r] : 0, &iw[r]);
  }
  im.limit = aooct_flow_mask_limit (aooct_cpu_flow_max (d->iw,
          (gsize) alines * rows), aooct_flow_mask_factor (s->threshold));
  if (s->bulk_correction) {
#pragma omp parallel for schedule(static) if ((gint64) rows * alines >= AOOCT_CPU_PARALLEL_MIN)
    for (m = 0; m < alines; m++) {
      gfloat *b = d->bulk + 2 * m;
      gint r;

      column_bulk (d, m, im.limit, b);
      if (b[0] == 0.0f && b[1] == 0.0f)
        continue;
      for (r = 0; r < rows; r++) {
        gfloat *c = d->c + 2 * ((gsize) m * rows + r);

        aooct_flow_bulk_apply (b[0], b[1], &c[0], &c[1]);
      }
    }
  }
  aooct_cpu_flow_write (p->format, alines, rows, pixel, &im, out, out_stride);
}

void
aooct_cpu_doppler_execute (AooctCpuDopplerPlan * d,
    const AooctDopplerSettings * s, const gfloat * in, guint8 * out,
    gsize out_stride)
{
  gint b;

  for (b = 0; b < d->p.bscans; b++)
    one_bscan (d, s, in + 2 * (gsize) b * d->p.alines * d->p.samples,
        out + (gsize) b * d->p.rows * out_stride, out_stride);
}
