/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: en-face projection and volume rendering (see
 * aooct-cpu-views.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-views.h"
#include "aooct-omp.h"
#include "aooct-norm-range.h"

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

void
aooct_cpu_enface_collect (const AooctViewParams * p,
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

void
aooct_cpu_enface_emit (const AooctViewParams * p,
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

void
aooct_cpu_render_collect (const AooctViewParams * p, gboolean log_mode,
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

void
aooct_cpu_render_emit (const AooctViewParams * p,
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
