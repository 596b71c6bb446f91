/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: angiography (see aooct-cpu-angio.h). */
#include <math.h>

#include "aooct-cpu-angio.h"
#include "aooct-cpu-flow-image.h"
#include "aooct-flow-pixel.h"
#include "aooct-omp.h"

struct _AooctCpuAngioPlan
{
  AooctFlowParams p;
  gfloat *store;                /* N x M x rows intensities, A-line major */
  gfloat *ratio;                /* M x rows: per-pixel ratio */
  gfloat *imean;                /* M x rows: mean I over the repeats */
  gfloat *value;                /* M x rows: D (decorrelation) */
  gfloat *iw;                   /* M x rows: window-mean I */
  gdouble *sv;                  /* M x rows: speckle variance */
};

typedef struct
{
  const AooctCpuAngioPlan *a;
  const gfloat *iw;
  gdouble limit;                /* aooct_flow_mask_limit() */
  AooctAngioMethod method;
  gdouble scale;                /* v = value / scale; 0: black */
} Image;

AooctCpuAngioPlan *
aooct_cpu_angio_plan_new (const AooctFlowParams * p)
{
  AooctCpuAngioPlan *a = g_new0 (AooctCpuAngioPlan, 1);
  const gsize n = (gsize) p->alines * p->rows;

  a->p = *p;
  a->store = g_new0 (gfloat, n * p->repeats);
  a->ratio = g_new (gfloat, n);
  a->imean = g_new (gfloat, n);
  a->value = g_new (gfloat, n);
  a->iw = g_new (gfloat, n);
  a->sv = g_new (gdouble, n);
  return a;
}

void
aooct_cpu_angio_plan_free (AooctCpuAngioPlan * a)
{
  if (a == NULL)
    return;
  g_free (a->store);
  g_free (a->ratio);
  g_free (a->imean);
  g_free (a->value);
  g_free (a->iw);
  g_free (a->sv);
  g_free (a);
}

void
aooct_cpu_angio_execute_collect (AooctCpuAngioPlan * a, const gfloat * in,
    gint first, gint count)
{
  const AooctFlowParams *p = &a->p;
  const gint rows = p->rows;
  const gint lines = count * p->alines;
  gint l;

#pragma omp parallel for schedule(static) if ((gint64) rows * lines >= AOOCT_CPU_PARALLEL_MIN)
  for (l = 0; l < lines; l++) {
    const gfloat *x = in + 2 * (gsize) l * p->samples;
    /* A-line l of the input is A-line l % M of repeat first + l / M */
    gfloat *o = a->store + ((gsize) first * p->alines + l) * rows;
    gint r;

    for (r = 0; r < rows; r++) {
      const gint b = 2 * aooct_flow_bin (p->crop_start, p->samples, r);

      o[r] = x[b] * x[b] + x[b + 1] * x[b + 1];
    }
  }
}

static guint32
pixel (gconstpointer data, gint m, gint r)
{
  const Image *im = data;
  const AooctCpuAngioPlan *a = im->a;
  const gsize i = (gsize) m * a->p.rows + r;
  const gdouble q = a->p.format == AOOCT_FLOW_GRAY16 ? 65535.0 : 255.0;
  gdouble v;
  guint32 g;

  if (aooct_flow_masked (im->iw[i], im->limit) || im->scale <= 0)
    v = 0;
  else if (im->method == AOOCT_ANGIO_SPECKLE_VARIANCE)
    v = a->sv[i] / im->scale;
  else
    v = a->value[i] / im->scale;
  g = aooct_flow_angio_grey (v, q);
  return a->p.format == AOOCT_FLOW_RGBA ?
      g | (g << 8) | (g << 16) | (255u << 24) : g;
}

void
aooct_cpu_angio_execute_emit (AooctCpuAngioPlan * a,
    const AooctAngioSettings * s, guint8 * out, gsize out_stride)
{
  const AooctFlowParams *p = &a->p;
  const gint rows = p->rows, alines = p->alines;
  const gsize n = (gsize) alines * rows;
  const gboolean sv = s->method == AOOCT_ANGIO_SPECKLE_VARIANCE;
  Image im = { a, sv ? a->imean : a->iw, 0, s->method, 0 };
  gint m;

#pragma omp parallel for schedule(static) if ((gint64) n >= AOOCT_CPU_PARALLEL_MIN)
  for (m = 0; m < alines; m++) {
    gint r;

    for (r = 0; r < rows; r++) {
      const gsize i = (gsize) m * rows + r;

      if (sv)
        aooct_flow_sv_pixel (a->store + i, n, p->repeats, &a->sv[i],
            &a->imean[i]);
      else
        aooct_flow_decorr_pixel (a->store + i, n, p->repeats, &a->ratio[i],
            &a->imean[i]);
    }
  }
  if (!sv) {
#pragma omp parallel for schedule(static) if ((gint64) n >= AOOCT_CPU_PARALLEL_MIN)
    for (m = 0; m < alines; m++) {
      gint r;

      for (r = 0; r < rows; r++)
        aooct_flow_decorr_window (a->ratio, a->imean, alines, rows,
            s->aline_window, s->depth_window, m, r,
            &a->value[(gsize) m * rows + r], &a->iw[(gsize) m * rows + r]);
    }
  }
  im.limit = aooct_flow_mask_limit (aooct_cpu_flow_max (im.iw, n),
      aooct_flow_mask_factor (s->threshold));
  if (!sv) {
    im.scale = s->decorrelation_max;
  } else if (s->variance_max > 0) {
    im.scale = s->variance_max;
  } else {
    /* the largest SV of the unmasked pixels (0: a black image) */
    gdouble best = 0;
    gsize i;

    for (i = 0; i < n; i++)
      if (!aooct_flow_masked (im.iw[i], im.limit) && a->sv[i] > best)
        best = a->sv[i];
    im.scale = best;
  }
  aooct_cpu_flow_write (p->format, alines, rows, pixel, &im, out, out_stride);
}
