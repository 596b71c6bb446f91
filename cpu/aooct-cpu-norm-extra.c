/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: aooctnorm's averaging and bilateral filter (see
 * aooct-cpu-norm-extra.h). */
#include <math.h>

#include "aooct-cpu-norm-extra.h"
#include "aooct-omp.h"
#include "aooct-norm-range.h"

struct _AooctCpuNormExtraPlan
{
  AooctNormExtraParams p;
  gfloat *ring;                 /* avg_bscans slots of rows x width I */
  gint pos, count;
  gfloat *val;                  /* rows x width values (I or L) */
};

AooctCpuNormExtraPlan *
aooct_cpu_norm_extra_plan_new (const AooctNormExtraParams * p)
{
  AooctCpuNormExtraPlan *x = g_new0 (AooctCpuNormExtraPlan, 1);
  const gsize image = (gsize) p->rows * p->width;

  x->p = *p;
  x->ring = g_new (gfloat, image * p->avg_bscans);
  x->val = g_new (gfloat, image);
  return x;
}

void
aooct_cpu_norm_extra_plan_free (AooctCpuNormExtraPlan * x)
{
  if (x == NULL)
    return;
  g_free (x->ring);
  g_free (x->val);
  g_free (x);
}

void
aooct_cpu_norm_extra_reset (AooctCpuNormExtraPlan * x)
{
  x->pos = 0;
  x->count = 0;
}

/* One B-scan: its A-line-averaged I into the ring, the B-scan average as
 * values into x->val (display orientation), their range. */
static void
values (AooctCpuNormExtraPlan * x, gboolean log_mode, const gfloat * in,
    gfloat * vmin_out, gfloat * vmax_out)
{
  const AooctNormExtraParams *p = &x->p;
  const gsize image = (gsize) p->rows * p->width;
  gfloat *slot = x->ring + (gsize) x->pos * image;
  gfloat vmin = INFINITY, vmax = -INFINITY;
  gint c, k;

#pragma omp parallel for schedule(static)
  for (c = 0; c < p->width; c++) {
    const gint m0 = c * p->avg_alines, m1 = MIN (m0 + p->avg_alines, p->alines);
    gint r, m;

    for (r = 0; r < p->rows; r++) {
      /* a negative (full-range) depth bin is FFT bin P2 + bin */
      const gint bin = p->crop_start + r + (p->crop_start + r < 0 ?
          p->samples : 0);
      gdouble sum = 0.0;

      for (m = m0; m < m1; m++) {
        const gfloat *a = in + 2 * ((gsize) m * p->samples + bin);
        sum += aooct_norm_intensity (a[0], a[1]);
      }
      slot[(gsize) r * p->width + c] = (gfloat) (sum / (m1 - m0));
    }
  }
  x->count = MIN (x->count + 1, p->avg_bscans);
  for (k = 0; k < (gint) image; k++) {
    gdouble sum = 0.0;
    gfloat v;
    gint s;

    for (s = 0; s < x->count; s++)
      sum += x->ring[(gsize) ((x->pos - s + p->avg_bscans) % p->avg_bscans)
          * image + k];
    v = (gfloat) (sum / x->count);
    v = log_mode ? aooct_norm_db (v) : v;
    x->val[k] = v;
    vmin = v < vmin ? v : vmin;
    vmax = v > vmax ? v : vmax;
  }
  x->pos = (x->pos + 1) % p->avg_bscans;
  *vmin_out = vmin;
  *vmax_out = vmax;
}

void
aooct_cpu_norm_extra_execute (AooctCpuNormExtraPlan * x,
    const AooctNormSettings * s, const gfloat * in, guint8 * out,
    gsize out_stride)
{
  const AooctNormExtraParams *p = &x->p;
  const gfloat q = s->bits == 16 ? 65535.0f : 255.0f;
  const gint radius = aooct_norm_extra_radius (p->sigma_space);
  const gfloat inv_2ss = p->sigma_space > 0 ?
      (gfloat) (1.0 / (2.0 * p->sigma_space * p->sigma_space)) : 0.0f;
  const gfloat inv_2sr =
      (gfloat) (1.0 / (2.0 * p->sigma_range * p->sigma_range));
  gint b;

  for (b = 0; b < p->bscans; b++) {
    const gfloat *bin = in + 2 * (gsize) b * p->alines * p->samples;
    guint8 *bout = out + (gsize) b * p->rows * out_stride;
    gfloat vmin, vmax, lo, scale, inv;
    gdouble dlo, dhi, dscale;
    gint r;

    values (x, s->log, bin, &vmin, &vmax);
    aooct_norm_range (s, vmin, vmax, &dlo, &dhi, &dscale);
    lo = (gfloat) dlo;
    scale = (gfloat) dscale;
    inv = (gfloat) (dscale / q);
#pragma omp parallel for schedule(static)
    for (r = 0; r < p->rows; r++) {
      guint8 *row = bout + (gsize) r * out_stride;
      gint c;

      for (c = 0; c < p->width; c++) {
        gfloat g;

        if (p->sigma_space > 0)
          g = aooct_norm_extra_bilateral (x->val, p->rows, p->width,
              p->width, r, c, radius, inv_2ss, inv_2sr, lo, inv) * q + 0.5f;
        else
          g = aooct_norm_grey (x->val[(gsize) r * p->width + c], lo, scale, q);
        if (s->bits == 16)
          ((guint16 *) row)[c] = GUINT16_TO_LE ((guint16) g);
        else
          row[c] = (guint8) g;
      }
    }
  }
}
