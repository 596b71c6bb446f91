/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 11 (see
 * aooct-ref64-views.h). */
#include <math.h>
#include <string.h>

#include "aooct-ref64-views.h"

void
aooct_ref_views_dcsub (int n, int m, int bscans, const guint16 * raw,
    int skip_start, int skip_end, AooctRefViewsDc mode, int k, double *out)
{
  const int mm = m - skip_start - skip_end;
  double *sums = g_new0 (double, (size_t) bscans * n);  /* per B-scan */
  int b, a, i, j;

  for (b = 0; b < bscans; b++) {
    double *o = out + (size_t) b * mm * n;

    for (a = 0; a < mm; a++)
      for (i = 0; i < n; i++) {
        double x = raw[((size_t) b * m + skip_start + a) * n + i];
        o[(size_t) a * n + i] = x;
        sums[(size_t) b * n + i] += x;
      }
    if (mode == AOOCT_REF_VIEWS_DC_NONE)
      continue;
    for (i = 0; i < n; i++) {
      /* K' = min (K, B-scans so far) B-scans: this one and the ones before */
      int kk = mode == AOOCT_REF_VIEWS_DC_ROLLING ? MIN (k, b + 1) : 1;
      double mean = 0;

      for (j = 0; j < kk; j++)
        mean += sums[(size_t) (b - j) * n + i];
      mean /= (double) kk *mm;
      for (a = 0; a < mm; a++)
        o[(size_t) a * n + i] -= mean;
    }
  }
  g_free (sums);
}

static double
intensity (const double *c)
{
  return c[0] * c[0] + c[1] * c[1];
}

static double
to_value (const AooctRefImage * p, double i)
{
  return p->log ? 10 * log10 (MAX (i, 1e-30)) : i;
}

static void
range_of (const AooctRefImage * p, const double *v, size_t n, double *lo,
    double *hi)
{
  double vmin = INFINITY, vmax = -INFINITY;
  size_t i;

  for (i = 0; i < n; i++) {
    vmin = MIN (vmin, v[i]);
    vmax = MAX (vmax, v[i]);
  }
  if (!p->auto_range) {
    *lo = p->range_min;
    *hi = p->range_max;
  } else if (p->log && p->dynamic_range > 0) {
    *hi = vmax;
    *lo = vmax - p->dynamic_range;
  } else {
    *lo = vmin;
    *hi = vmax;
  }
}

/* section 7's pixel: floor (q v + 1/2), v clamped to [0, 1] */
static double
grey (double value, double lo, double hi, double q)
{
  double t = hi == lo ? 0 : (value - lo) * q / (hi - lo);

  t = t < 0 ? 0 : t > q ? q : t;
  return floor (t + 0.5);
}

static void
put (void *row, int c, int bits, double g)
{
  if (bits == 16)
    ((guint16 *) row)[c] = (guint16) g;
  else
    ((guint8 *) row)[c] = (guint8) g;
}

void
aooct_ref_views_norm (const AooctRefImage * p, int kb, int ka,
    double sigma_s, double sigma_r, const double *depth, int bscans,
    void *out, size_t out_stride)
{
  const int rows = p->crop_end - p->crop_start;
  const int w = (p->m + ka - 1) / ka;
  const size_t image = (size_t) rows * w;
  const double q = p->bits == 16 ? 65535.0 : 255.0;
  double *own = g_new (double, image * bscans); /* A-line-averaged I */
  double *val = g_new (double, image), *v = g_new (double, image);
  int b, r, c, j, rr, cc;

  for (b = 0; b < bscans; b++) {
    const double *d = depth + 2 * (size_t) b * p->m * p->p2;
    double *o = own + (size_t) b * image;
    double lo, hi;
    int kk = MIN (kb, b + 1);

    for (r = 0; r < rows; r++)
      for (c = 0; c < w; c++) {
        int m0 = c * ka, m1 = MIN (c * ka + ka, p->m), m;
        double s = 0;

        for (m = m0; m < m1; m++)
          s += intensity (d + 2 * ((size_t) m * p->p2 + p->crop_start + r));
        o[(size_t) r * w + c] = s / (m1 - m0);
      }
    for (j = 0; j < (int) image; j++) {
      double s = 0;
      int t;

      for (t = 0; t < kk; t++)
        s += own[(size_t) (b - t) * image + j];
      val[j] = to_value (p, s / kk);
    }
    range_of (p, val, image, &lo, &hi);
    for (r = 0; r < rows; r++) {
      void *row = (guint8 *) out + ((size_t) b * rows + r) * out_stride;

      for (c = 0; c < w; c++) {
        double x = val[(size_t) r * w + c];

        if (sigma_s <= 0) {
          put (row, c, p->bits, grey (x, lo, hi, q));
          continue;
        }
        v[(size_t) r * w + c] = hi == lo ? 0 :
            MIN (MAX ((x - lo) / (hi - lo), 0.0), 1.0);
      }
    }
    if (sigma_s > 0) {
      const int rad = (int) ceil (2 * sigma_s);

      for (r = 0; r < rows; r++) {
        void *row = (guint8 *) out + ((size_t) b * rows + r) * out_stride;

        for (c = 0; c < w; c++) {
          double v0 = v[(size_t) r * w + c], num = 0, den = 0;

          for (rr = MAX (r - rad, 0); rr <= MIN (r + rad, rows - 1); rr++)
            for (cc = MAX (c - rad, 0); cc <= MIN (c + rad, w - 1); cc++) {
              double v1 = v[(size_t) rr * w + cc];
              double wt = exp (-((rr - r) * (rr - r) + (cc - c) * (cc - c)) /
                  (2 * sigma_s * sigma_s) - (v1 - v0) * (v1 - v0) /
                  (2 * sigma_r * sigma_r));
              num += wt * v1;
              den += wt;
            }
          put (row, c, p->bits, floor (q * num / den + 0.5));
        }
      }
    }
  }
  g_free (own);
  g_free (val);
  g_free (v);
}

void
aooct_ref_views_enface (const AooctRefImage * p, gboolean max,
    const double *depth, int filled, int volume, guint8 * out,
    size_t out_stride)
{
  const int rows = p->crop_end - p->crop_start;
  double *e = g_new (double, (size_t) filled * p->m);
  int v, m, r;

  for (v = 0; v < filled; v++)
    for (m = 0; m < p->m; m++) {
      const double *a = depth + 2 * (((size_t) v * p->m + m) * p->p2 +
          p->crop_start);
      double acc = max ? -INFINITY : 0;

      for (r = 0; r < rows; r++)
        acc = max ? MAX (acc, intensity (a + 2 * r)) : acc +
            intensity (a + 2 * r);
      e[(size_t) v * p->m + m] = max ? acc : acc / rows;
    }
  aooct_ref_views_enface_image (p, e, filled, volume, out, out_stride);
  g_free (e);
}

void
aooct_ref_views_enface_image (const AooctRefImage * p, const double *e,
    int filled, int volume, guint8 * out, size_t out_stride)
{
  double *val = g_new (double, (size_t) filled * p->m);
  double lo, hi;
  int v, m;

  for (v = 0; v < filled * p->m; v++)
    val[v] = to_value (p, e[v]);
  range_of (p, val, (size_t) filled * p->m, &lo, &hi);
  for (v = 0; v < volume; v++)
    for (m = 0; m < p->m; m++)
      out[(size_t) v * out_stride + m] = v < filled ?
          (guint8) grey (val[(size_t) v * p->m + m], lo, hi, 255.0) : 0;
  g_free (val);
}

void
aooct_ref_views_mip_bscan_axis (const AooctRefImage * p,
    const double *depth, int filled, guint8 * out, size_t out_stride)
{
  const int rows = p->crop_end - p->crop_start;
  const size_t n = (size_t) filled * p->m * rows;
  double *vals = g_new (double, n);
  double lo, hi;
  int v, m, r;

  for (v = 0; v < filled; v++)
    for (m = 0; m < p->m; m++)
      for (r = 0; r < rows; r++)
        vals[((size_t) v * p->m + m) * rows + r] = to_value (p,
            intensity (depth + 2 * (((size_t) v * p->m + m) * p->p2 +
                    p->crop_start + r)));
  range_of (p, vals, n, &lo, &hi);
  for (r = 0; r < rows; r++)
    for (m = 0; m < p->m; m++) {
      double g = 0;

      for (v = 0; v < filled; v++)
        g = MAX (g, grey (vals[((size_t) v * p->m + m) * rows + r], lo, hi,
                255.0));
      out[(size_t) r * out_stride + m] = (guint8) g;
    }
  g_free (vals);
}
