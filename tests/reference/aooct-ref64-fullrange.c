/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of complex full range (see
 * aooct-ref64-fullrange.h). */
#include <math.h>
#include <string.h>
#include <fftw3.h>

#include "aooct-ref64-fullrange.h"

/* forward (sign -1) or backward (+1) unscaled complex DFT of length @len */
static void
dft (double *v, int len, int sign)
{
  fftw_plan plan = fftw_plan_dft_1d (len, (fftw_complex *) v,
      (fftw_complex *) v, sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD,
      FFTW_ESTIMATE);

  fftw_execute (plan);
  fftw_destroy_plan (plan);
}

void
aooct_ref_fullrange (AooctRefSideband sideband, int m, int n,
    const double *x, double *a)
{
  double *col = g_new (double, 2 * (size_t) m);
  double *h = g_new (double, m);
  int q, i, s;

  /* H of the upper sideband; the lower's H[q] = upper H[M - q], q >= 1 */
  for (q = 0; q < m; q++) {
    double hu = q == 0 ? 1 : (2 * q < m ? 2 : (2 * q == m ? 1 : 0));
    h[q] = hu;
  }
  if (sideband == AOOCT_REF_SIDEBAND_LOWER) {
    double *hl = g_new (double, m);
    for (q = 0; q < m; q++)
      hl[q] = q == 0 ? h[0] : h[m - q];
    memcpy (h, hl, sizeof (double) * m);
    g_free (hl);
  }
  for (i = 0; i < n; i++) {
    for (s = 0; s < m; s++) {
      col[2 * s] = x[(size_t) s * n + i];
      col[2 * s + 1] = 0;
    }
    dft (col, m, -1);
    for (q = 0; q < m; q++) {
      col[2 * q] *= h[q];
      col[2 * q + 1] *= h[q];
    }
    dft (col, m, +1);
    for (s = 0; s < m; s++) {
      a[2 * ((size_t) s * n + i)] = col[2 * s] / m;
      a[2 * ((size_t) s * n + i) + 1] = col[2 * s + 1] / m;
    }
  }
  g_free (col);
  g_free (h);
}

void
aooct_ref_pad_complex (const AooctRefGrid * g, const double *x, double *z)
{
  double *y = g_new0 (double, 2 * (size_t) g->p1);
  double *Z = g_new0 (double, 2 * (size_t) g->p2);
  int k, i;

  memcpy (y + 2 * g->o, x, sizeof (double) * 2 * g->n);
  dft (y, g->p1, -1);
  for (k = 0; k <= g->p1 / 2; k++) {
    Z[2 * k] = y[2 * k];
    Z[2 * k + 1] = y[2 * k + 1];
  }
  for (k = g->p1 / 2; k <= g->p1 - 1; k++) {
    Z[2 * (g->p2 - g->p1 + k)] = y[2 * k];
    Z[2 * (g->p2 - g->p1 + k) + 1] = y[2 * k + 1];
  }
  dft (Z, g->p2, +1);
  for (i = 0; i < g->p2; i++) {
    gboolean inside = i >= g->j0 && i <= g->j1;
    z[2 * i] = inside ? Z[2 * i] / g->p1 : 0;
    z[2 * i + 1] = inside ? Z[2 * i + 1] / g->p1 : 0;
  }
  g_free (y);
  g_free (Z);
}

void
aooct_ref_kmap_complex (const AooctRefParams * p, const AooctRefGrid * g,
    const double *z, double *out)
{
  double *re = g_new (double, g->p2), *im = g_new (double, g->p2);
  double *ro = g_new (double, g->p2), *io = g_new (double, g->p2);
  int i;

  for (i = 0; i < g->p2; i++) {
    re[i] = z[2 * i];
    im[i] = z[2 * i + 1];
  }
  aooct_ref_kmap (p, g, re, ro);
  aooct_ref_kmap (p, g, im, io);
  for (i = 0; i < g->p2; i++) {
    out[2 * i] = ro[i];
    out[2 * i + 1] = io[i];
  }
  g_free (re);
  g_free (im);
  g_free (ro);
  g_free (io);
}

void
aooct_ref_disp_complex (const AooctRefParams * p, const AooctRefGrid * g,
    const double *z, double *c)
{
  double *w = g_new (double, 2 * (size_t) g->p2);
  int i;

  aooct_ref_disp_weights (p, g, w);
  for (i = 0; i < g->p2; i++) {
    double zr = z[2 * i], zi = z[2 * i + 1];
    c[2 * i] = zr * w[2 * i] - zi * w[2 * i + 1];
    c[2 * i + 1] = zr * w[2 * i + 1] + zi * w[2 * i];
  }
  g_free (w);
}

gboolean
aooct_ref_crop_signed (const AooctRefParams * p, const AooctRefGrid * g,
    int *start, int *end, GError ** error)
{
  int e = p->crop_end == 0 ? g->p1 / 2 : p->crop_end;
  int s = p->crop_start == 0 && p->crop_end == 0 ? -(g->p1 / 2) : p->crop_start;

  if (s < -(g->p2 / 2) || e > g->p2 - g->p2 / 2 || s >= e) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "reference: signed crop [%d, %d) outside [%d, %d]", s, e,
        -(g->p2 / 2), g->p2 - g->p2 / 2);
    return FALSE;
  }
  *start = s;
  *end = e;
  return TRUE;
}

/* @p with the crop that aooct_ref_check() understands (the signed crop is
 * checked by aooct_ref_crop_signed()) */
static void
unsigned_params (const AooctRefParams * p, AooctRefParams * u)
{
  *u = *p;
  u->crop_start = 0;
  u->crop_end = 0;
}

gboolean
aooct_ref_fullrange_depth (const AooctRefParams * p,
    AooctRefSideband sideband, const guint16 * raw, double *depth,
    GError ** error)
{
  AooctRefParams u;
  AooctRefGrid g;
  double *x, *a, *z, *k;
  int b, m, n, s, e;

  unsigned_params (p, &u);
  if (!aooct_ref_check (&u, error) || !aooct_ref_grid (p, &g, error)
      || !aooct_ref_crop_signed (p, &g, &s, &e, error))
    return FALSE;
  x = g_new (double, (size_t) p->m * p->n);
  a = g_new (double, 2 * (size_t) p->m * p->n);
  z = g_new0 (double, 2 * (size_t) g.p2);
  k = g_new (double, 2 * (size_t) g.p2);
  for (b = 0; b < p->bscans; b++) {
    const guint16 *rb = raw + (size_t) b * p->m * p->n;

    for (m = 0; m < p->m; m++)
      for (n = 0; n < p->n; n++)
        x[(size_t) m * p->n + n] = rb[(size_t) m * p->n + n];
    aooct_ref_dcsub (p, x);
    aooct_ref_fullrange (sideband, p->m, p->n, x, a);
    for (m = 0; m < p->m; m++) {
      double *c = depth + 2 * (size_t) g.p2 * ((size_t) b * p->m + m);

      if (p->pad)
        aooct_ref_pad_complex (&g, a + 2 * (size_t) m * p->n, z);
      else
        memcpy (z, a + 2 * (size_t) m * p->n, sizeof (double) * 2 * p->n);
      aooct_ref_kmap_complex (p, &g, z, k);
      aooct_ref_disp_complex (p, &g, k, c);
      aooct_ref_fft (p->window, &g, c, c);
    }
  }
  g_free (x);
  g_free (a);
  g_free (z);
  g_free (k);
  return TRUE;
}

void
aooct_ref_norm_signed (const AooctRefParams * p, const AooctRefGrid * g,
    const double *depth, void *out, size_t out_stride)
{
  AooctRefParams u = *p;
  AooctRefGrid rg = *g;
  double *rolled;
  int s, e, rows, m, r;

  if (!aooct_ref_crop_signed (p, g, &s, &e, NULL))
    g_error ("aooct_ref_norm_signed: impossible crop");
  rows = e - s;
  /* the signed bins in display order, then section 7 on them as an
   * unsigned crop of all rows */
  rolled = g_new (double, 2 * (size_t) rows * p->m);
  for (m = 0; m < p->m; m++)
    for (r = 0; r < rows; r++) {
      int bin = s + r < 0 ? s + r + g->p2 : s + r;
      rolled[2 * ((size_t) m * rows + r)] =
          depth[2 * ((size_t) m * g->p2 + bin)];
      rolled[2 * ((size_t) m * rows + r) + 1] =
          depth[2 * ((size_t) m * g->p2 + bin) + 1];
    }
  u.crop_start = 0;
  u.crop_end = rows;
  rg.p2 = rows;
  aooct_ref_norm (&u, &rg, rolled, 2 * (size_t) rows, out, out_stride, NULL,
      NULL);
  g_free (rolled);
}

gboolean
aooct_ref_fullrange_process (const AooctRefParams * p,
    AooctRefSideband sideband, const guint16 * raw, void *out,
    size_t out_stride, GError ** error)
{
  AooctRefGrid g;
  double *depth;
  int b, s, e;

  if (!aooct_ref_grid (p, &g, error)
      || !aooct_ref_crop_signed (p, &g, &s, &e, error))
    return FALSE;
  depth = g_new (double, 2 * (size_t) g.p2 * p->m * p->bscans);
  if (!aooct_ref_fullrange_depth (p, sideband, raw, depth, error)) {
    g_free (depth);
    return FALSE;
  }
  for (b = 0; b < p->bscans; b++)
    aooct_ref_norm_signed (p, &g, depth + 2 * (size_t) g.p2 * p->m * b,
        (guint8 *) out + (size_t) b * (e - s) * out_stride, out_stride);
  g_free (depth);
  return TRUE;
}
