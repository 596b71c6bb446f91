/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: en-face projection and volume rendering (see
 * aooct-cpu-views.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-views.h"
#include "aooct-omp.h"
#include "aooct-norm-range.h"
#include "aooct-error.h"

/* Index of crop row @r in an A-line: a negative (full-range, spec section
 * 9) depth bin is FFT bin P2 + bin. */
#define VIEW_BIN(p, r) \
  ((p)->crop_start + (r) + ((p)->crop_start + (r) < 0 ? (p)->samples : 0))

static inline void
put_pixel (guint8 * row, gint c, gboolean rgba, guint8 g)
{
  if (rgba) {
    row[4 * c] = row[4 * c + 1] = row[4 * c + 2] = g;
    row[4 * c + 3] = 255;
  } else {
    row[c] = g;
  }
}

/* layer=brightest (spec 13, "Layers"): per B-scan z_B, then z_l[m], then
 * the slab's mean or maximum relative to z_l[m] */
static void
enface_collect_layer (const AooctViewParams * p,
    AooctEnfaceProjection projection, gboolean log_mode, const gfloat * in,
    gint first, gint count, gfloat * e, gint * z_l, gdouble * scratch)
{
  const AooctLayerParams *lp = &p->lp;
  gint b, m;

  for (b = 0; b < count; b++) {
    const gfloat *x = in + 2 * (gsize) b * p->alines * p->samples;
    const gint z_b = aooct_layer_profile_peak (lp, x, p->alines);

    aooct_layer_follow (lp, x, p->alines, z_b, z_l, scratch);
#pragma omp parallel for schedule(static) if ((gint64) p->alines * (p->slab_end - p->slab_start) >= AOOCT_CPU_PARALLEL_MIN)
    for (m = 0; m < p->alines; m++) {
      const gfloat *c = x + 2 * (gsize) m * p->samples;
      const gint lo = MAX (z_l[m] + p->slab_start, lp->bin_lo);
      const gint hi = MIN (z_l[m] + p->slab_end, lp->bin_hi);
      gdouble sum = 0.0;
      gfloat mx = -INFINITY, v;
      gint z;

      for (z = lo; z < hi; z++) {
        const gint i = aooct_layer_index (lp, z);
        const gfloat iz = aooct_norm_intensity (c[2 * i], c[2 * i + 1]);

        sum += iz;
        mx = iz > mx ? iz : mx;
      }
      if (hi <= lo)
        v = 0.0f;               /* an empty slab */
      else if (projection == AOOCT_ENFACE_MAX)
        v = mx;
      else
        v = (gfloat) (sum / (hi - lo));
      e[(gsize) (first + b) * p->alines + m] = log_mode ? aooct_norm_db (v) : v;
    }
  }
}

static void
enface_collect (const AooctViewParams * p,
    AooctEnfaceProjection projection, gboolean log_mode, const gfloat * in,
    gint first, gint count, gfloat * e)
{
  const gint total = count * p->alines;
  gint t;

#pragma omp parallel for schedule(static) if ((gint64) total * p->rows >= AOOCT_CPU_PARALLEL_MIN)
  for (t = 0; t < total; t++) {
    const gfloat *c = in + 2 * ((gsize) t * p->samples);
    gdouble sum = 0.0;
    gfloat mx = -INFINITY, v;
    gint r;

    if (projection == AOOCT_ENFACE_MAX) {
      for (r = 0; r < p->rows; r++) {
        gfloat i =
            aooct_norm_intensity (c[2 * VIEW_BIN (p, r)], c[2 * VIEW_BIN (p,
                    r) + 1]);
        mx = i > mx ? i : mx;
      }
      v = mx;
    } else {
      /* in double: the float64 reference's mean to the last bit of float */
      for (r = 0; r < p->rows; r++)
        sum +=
            aooct_norm_intensity (c[2 * VIEW_BIN (p, r)], c[2 * VIEW_BIN (p,
                    r) + 1]);
      v = (gfloat) (sum / p->rows);
    }
    e[(gsize) first * p->alines + t] = log_mode ? aooct_norm_db (v) : v;
  }
}

void
aooct_cpu_views_minmax (const gfloat * v, gsize n, gfloat * vmin_out,
    gfloat * vmax_out)
{
  gfloat vmin = INFINITY, vmax = -INFINITY;
  gsize i;

  for (i = 0; i < n; i++) {
    vmin = v[i] < vmin ? v[i] : vmin;
    vmax = v[i] > vmax ? v[i] : vmax;
  }
  *vmin_out = vmin;
  *vmax_out = vmax;
}

static void
volume_range (const AooctNormSettings * s, const gfloat * v, gsize n,
    gfloat * lo, gfloat * scale)
{
  gfloat vmin, vmax;
  gdouble dlo, dhi, dscale;

  aooct_cpu_views_minmax (v, n, &vmin, &vmax);
  aooct_norm_range (s, vmin, vmax, &dlo, &dhi, &dscale);
  *lo = (gfloat) dlo;
  *scale = (gfloat) dscale;
}

static void
enface_emit (const AooctViewParams * p,
    const AooctNormSettings * s, const gfloat * e, gint filled, guint8 * out,
    gsize out_stride)
{
  gfloat lo, scale;
  gint v, m;

  volume_range (s, e, (gsize) filled * p->alines, &lo, &scale);
  for (v = 0; v < p->volume; v++) {
    guint8 *row = out + (gsize) v * out_stride;

    for (m = 0; m < p->alines; m++)
      put_pixel (row, m, p->rgba, v < filled ?
          (guint8) aooct_norm_grey (e[(gsize) v * p->alines + m], lo, scale,
              255.0f) : 0);
  }
}

static void
render_collect (const AooctViewParams * p, gboolean log_mode,
    const gfloat * in, gint first, gint count, gfloat * vol)
{
  const gint total = count * p->alines;
  gint t;

#pragma omp parallel for schedule(static) if ((gint64) total * p->rows >= AOOCT_CPU_PARALLEL_MIN)
  for (t = 0; t < total; t++) {
    const gfloat *c = in + 2 * ((gsize) t * p->samples);
    gfloat *o = vol + ((gsize) first * p->alines + t) * p->rows;
    gint r;

    for (r = 0; r < p->rows; r++) {
      gfloat i =
          aooct_norm_intensity (c[2 * VIEW_BIN (p, r)], c[2 * VIEW_BIN (p,
                  r) + 1]);
      o[r] = log_mode ? aooct_norm_db (i) : i;
    }
  }
}

static void
render_emit (const AooctViewParams * p,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * cam, const gfloat * vol, gint filled,
    guint8 * out, gsize out_stride)
{
  gfloat lo, scale, unit;
  gint j;

  volume_range (s, vol, (gsize) filled * p->alines * p->rows, &lo, &scale);
  unit = scale / 255.0f;
#pragma omp parallel for schedule(dynamic, 4)
  for (j = 0; j < cam->height; j++) {
    guint8 *row = out + (gsize) j * out_stride;
    gint i;

    for (i = 0; i < cam->width; i++) {
      gfloat ray[3], best = -INFINITY, colour = 0.0f, alpha = 0.0f;
      gboolean hit = FALSE;
      guint8 g;
      gint k;

      aooct_render_ray (cam, i, j, ray);
      for (k = 0; k < cam->samples; k++) {
        long long idx = aooct_render_voxel (cam, ray, k, filled);

        if (idx < 0)
          continue;
        hit = TRUE;
        if (mode == AOOCT_RENDER_MIP) {
          best = vol[idx] > best ? vol[idx] : best;
        } else if (!aooct_render_composite_step ((vol[idx] - lo) * unit,
                &colour, &alpha)) {
          break;
        }
      }
      if (!hit)
        g = 0;
      else if (mode == AOOCT_RENDER_MIP)
        g = (guint8) aooct_norm_grey (best, lo, scale, 255.0f);
      else
        g = (guint8) aooct_norm_grey (colour, 0.0f, 255.0f, 255.0f);
      put_pixel (row, i, p->rgba, g);
    }
  }
}

/* ---- the plans: the values of one volume and what they are made with */

struct _AooctCpuEnfacePlan
{
  AooctViewParams p;
  AooctEnfaceProjection projection;
  gfloat *e;                    /* V x M values */
  gint *z_l;                    /* layer=brightest: the layer per A-line */
  gdouble *scratch;             /* ... and the finder's prefix sums */
};

struct _AooctCpuRenderPlan
{
  AooctViewParams p;
  gfloat *vol;                  /* V x M x rows values */
};

AooctCpuEnfacePlan *
aooct_cpu_enface_plan_new (const AooctViewParams * p, GError ** error)
{
  AooctCpuEnfacePlan *plan = g_new0 (AooctCpuEnfacePlan, 1);

  plan->p = *p;
  plan->projection = p->projection;
  plan->e = g_try_malloc ((gsize) p->volume * p->alines * sizeof (gfloat));
  if (plan->e == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot allocate the en-face image of %d x %d values", p->alines,
        p->volume);
    g_free (plan);
    return NULL;
  }
  if (p->layer == AOOCT_ENFACE_LAYER_BRIGHTEST) {
    plan->z_l = g_new (gint, p->alines);
    plan->scratch = g_new (gdouble, (gsize) (2 * p->lp.range + 1) *
        (p->alines + 1));
  }
  return plan;
}

void
aooct_cpu_enface_execute_collect (AooctCpuEnfacePlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count)
{
  if (plan->p.layer == AOOCT_ENFACE_LAYER_BRIGHTEST)
    enface_collect_layer (&plan->p, plan->projection, log_mode, in, first,
        count, plan->e, plan->z_l, plan->scratch);
  else
    enface_collect (&plan->p, plan->projection, log_mode, in, first, count,
        plan->e);
}

void
aooct_cpu_enface_execute_emit (AooctCpuEnfacePlan * plan,
    const AooctNormSettings * s, gint filled, guint8 * out, gsize out_stride)
{
  enface_emit (&plan->p, s, plan->e, filled, out, out_stride);
}

void
aooct_cpu_enface_plan_free (AooctCpuEnfacePlan * plan)
{
  if (plan == NULL)
    return;
  g_free (plan->e);
  g_free (plan->z_l);
  g_free (plan->scratch);
  g_free (plan);
}

AooctCpuRenderPlan *
aooct_cpu_render_plan_new (const AooctViewParams * p, GError ** error)
{
  AooctCpuRenderPlan *plan = g_new0 (AooctCpuRenderPlan, 1);
  const gsize bytes = (gsize) p->volume * p->alines * p->rows * sizeof (gfloat);

  plan->p = *p;
  plan->vol = g_try_malloc (bytes);
  if (plan->vol == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot allocate a volume of %d x %d x %d values (%" G_GSIZE_FORMAT
        " bytes): lower bscans-per-volume or crop the depth", p->alines,
        p->volume, p->rows, bytes);
    g_free (plan);
    return NULL;
  }
  return plan;
}

void
aooct_cpu_render_execute_collect (AooctCpuRenderPlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count)
{
  render_collect (&plan->p, log_mode, in, first, count, plan->vol);
}

void
aooct_cpu_render_execute_emit (AooctCpuRenderPlan * plan,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, gint filled, guint8 * out,
    gsize out_stride)
{
  render_emit (&plan->p, s, mode, camera, plan->vol, filled, out, out_stride);
}

void
aooct_cpu_render_plan_free (AooctCpuRenderPlan * plan)
{
  if (plan == NULL)
    return;
  g_free (plan->vol);
  g_free (plan);
}
