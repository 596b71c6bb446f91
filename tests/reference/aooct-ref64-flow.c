/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 12 (see
 * aooct-ref64-flow.h). */
#include <math.h>
#include <string.h>

#include "aooct-ref64-flow.h"

/* X at image row @r (signed bin crop_start + r) of A-line @a */
static const double *
sample (const AooctRefFlowImage * p, const double *depth, int a, int r)
{
  int b = p->crop_start + r;

  if (b < 0)
    b += p->p2;
  return depth + 2 * ((size_t) a * p->p2 + b);
}

static double
db (double i)
{
  return 10 * log10 (MAX (i, 1e-30));
}

/* the mask of spec 12 over @iw (rows x m, row major): @masked gets 1 where
 * masked, @undecidable where 10 log10 I_w is within 0.02 dB of H - T */
static void
mask (int n, const double *iw, double threshold, guint8 * masked,
    guint8 * undecidable)
{
  double h = -INFINITY;
  int i;

  for (i = 0; i < n; i++)
    h = MAX (h, db (iw[i]));
  for (i = 0; i < n; i++) {
    masked[i] = threshold > 0 && db (iw[i]) < h - threshold;
    if (undecidable && threshold > 0 && fabs (db (iw[i]) - (h - threshold))
        <= 0.02)
      undecidable[i] = 1;
  }
}

static void
put (const AooctRefFlowImage * p, void *out, size_t out_stride, int r,
    int m, unsigned grey, unsigned red, unsigned green, unsigned blue)
{
  guint8 *row = (guint8 *) out + (size_t) r * out_stride;

  if (p->bits == 16) {
    ((guint16 *) row)[m] = GUINT16_TO_LE (grey);
  } else if (p->bits == 32) {
    row[4 * m] = red;
    row[4 * m + 1] = green;
    row[4 * m + 2] = blue;
    row[4 * m + 3] = 255;
  } else {
    row[m] = grey;
  }
}

void
aooct_ref_flow_doppler (const AooctRefFlowImage * p, int lag, int wm,
    int wz, double threshold, gboolean bulk, const double *depth,
    void *out, size_t out_stride, guint8 * undecidable)
{
  const int rows = p->crop_end - p->crop_start, m_ = p->m, n = rows * m_;
  double *cre = g_new0 (double, n), *cim = g_new0 (double, n);
  double *iw = g_new0 (double, n);
  guint8 *masked = g_new0 (guint8, n);
  const double q = p->bits == 16 ? 65535 : 255;
  int m, r, a, d;

  if (undecidable)
    memset (undecidable, 0, n);
  for (r = 0; r < rows; r++)
    for (m = 0; m < m_; m++) {
      const int i = r * m_ + m, a0 = m - wm / 2;
      double sum_i = 0;
      int pairs = 0;

      for (a = a0; a < a0 + wm; a++) {
        if (a < 0 || a + lag > m_ - 1)
          continue;
        for (d = r - (wz - 1) / 2; d <= r + (wz - 1) / 2; d++) {
          const double *x0, *x1;

          if (d < 0 || d >= rows)
            continue;
          x0 = sample (p, depth, a, d);
          x1 = sample (p, depth, a + lag, d);
          /* x1 conj (x0) */
          cre[i] += x1[0] * x0[0] + x1[1] * x0[1];
          cim[i] += x1[1] * x0[0] - x1[0] * x0[1];
          sum_i += x0[0] * x0[0] + x0[1] * x0[1] + x1[0] * x1[0] +
              x1[1] * x1[1];
          pairs++;
        }
      }
      iw[i] = pairs ? sum_i / (2.0 * pairs) : 0;
    }
  mask (n, iw, threshold, masked, undecidable);
  if (bulk)
    for (m = 0; m < m_; m++) {
      double br = 0, bi = 0, bn;

      for (r = 0; r < rows; r++)
        if (!masked[r * m_ + m]) {
          br += cre[r * m_ + m];
          bi += cim[r * m_ + m];
        }
      bn = hypot (br, bi);
      if (bn == 0)
        continue;
      for (r = 0; r < rows; r++) {
        const int i = r * m_ + m;
        const double cr = cre[i], ci = cim[i];

        /* C conj (B) / |B| */
        cre[i] = (cr * br + ci * bi) / bn;
        cim[i] = (ci * br - cr * bi) / bn;
      }
    }
  for (r = 0; r < rows; r++)
    for (m = 0; m < m_; m++) {
      const int i = r * m_ + m;
      double dphi = 0;

      if (!masked[i] && (cre[i] != 0 || cim[i] != 0)) {
        dphi = atan2 (cim[i], cre[i]);
        if (dphi == -G_PI)
          dphi = G_PI;
      }
      if (undecidable && G_PI - fabs (dphi) <= 0.01)
        undecidable[i] = 1;
      put (p, out, out_stride, r, m,
          (unsigned) MIN (q, floor (q / 2 * (1 + dphi / G_PI) + 0.5)),
          (unsigned) floor (255 * MAX (dphi, 0) / G_PI + 0.5), 0,
          (unsigned) floor (255 * MAX (-dphi, 0) / G_PI + 0.5));
    }
  g_free (cre);
  g_free (cim);
  g_free (iw);
  g_free (masked);
}

void
aooct_ref_flow_angio (const AooctRefFlowImage * p, int repeats,
    gboolean sv, int wm, int wz, double threshold, double decorrelation_max,
    double variance_max, const double *depth, void *out, size_t out_stride,
    guint8 * undecidable)
{
  const int rows = p->crop_end - p->crop_start, m_ = p->m, n = rows * m_;
  const size_t bscan = 2 * (size_t) m_ * p->p2;
  double *value = g_new0 (double, n), *iw = g_new0 (double, n);
  guint8 *masked = g_new0 (guint8, n);
  const double q = p->bits == 16 ? 65535 : 255;
  double scale;
  int m, r, a, d, k, best = -1;

  if (undecidable)
    memset (undecidable, 0, n);
  for (r = 0; r < rows; r++)
    for (m = 0; m < m_; m++) {
      const int i = r * m_ + m;

      if (sv) {
        /* no window */
        double l[64], mean = 0, var = 0, isum = 0;

        for (k = 0; k < repeats; k++) {
          const double *x = sample (p, depth + k * bscan, m, r);
          const double in = x[0] * x[0] + x[1] * x[1];

          l[k] = db (in);
          mean += l[k];
          isum += in;
        }
        mean /= repeats;
        for (k = 0; k < repeats; k++)
          var += (l[k] - mean) * (l[k] - mean);
        value[i] = var / repeats;
        iw[i] = isum / repeats;
      } else {
        const int a0 = m - wm / 2;
        double dsum = 0, isum = 0;
        int count = 0;

        for (a = a0; a < a0 + wm; a++)
          for (d = r - (wz - 1) / 2; d <= r + (wz - 1) / 2; d++) {
            if (a < 0 || a >= m_ || d < 0 || d >= rows)
              continue;
            count++;
            for (k = 0; k < repeats; k++) {
              const double *x = sample (p, depth + k * bscan, a, d);
              isum += x[0] * x[0] + x[1] * x[1];
            }
          }
        /* D = 1 - (1/(N-1)) sum_n (1/K) sum_window term */
        for (k = 0; k + 1 < repeats; k++) {
          double s = 0;

          for (a = a0; a < a0 + wm; a++)
            for (d = r - (wz - 1) / 2; d <= r + (wz - 1) / 2; d++) {
              const double *x0, *x1;
              double a0v, a1v, den;

              if (a < 0 || a >= m_ || d < 0 || d >= rows)
                continue;
              x0 = sample (p, depth + k * bscan, a, d);
              x1 = sample (p, depth + (k + 1) * bscan, a, d);
              a0v = hypot (x0[0], x0[1]);
              a1v = hypot (x1[0], x1[1]);
              den = 0.5 * (a0v * a0v + a1v * a1v);
              s += den > 0 ? a0v * a1v / den : 1;
            }
          dsum += s / count;
        }
        value[i] = 1 - dsum / (repeats - 1);
        iw[i] = isum / ((double) count * repeats);
      }
    }
  mask (n, iw, threshold, masked, undecidable);
  if (!sv) {
    scale = decorrelation_max;
  } else if (variance_max > 0) {
    scale = variance_max;
  } else {
    scale = 0;
    for (k = 0; k < n; k++)
      if (!masked[k] && value[k] > scale) {
        scale = value[k];
        best = k;
      }
    /* the maximum at an undecidable pixel: the whole image is */
    if (undecidable && best >= 0 && undecidable[best])
      memset (undecidable, 1, n);
  }
  for (r = 0; r < rows; r++)
    for (m = 0; m < m_; m++) {
      const int i = r * m_ + m;
      double v = masked[i] || scale <= 0 ? 0 : value[i] / scale;
      unsigned g = (unsigned) floor (q * CLAMP (v, 0, 1) + 0.5);

      put (p, out, out_stride, r, m, g, g, g, g);
    }
  g_free (value);
  g_free (iw);
  g_free (masked);
}
