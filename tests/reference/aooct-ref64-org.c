/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 13, layers and aooctorg
 * (see aooct-ref64-org.h). */
#include <math.h>
#include <string.h>

#include "aooct-ref64-org.h"

#define TIE 1e-5

static int
bin_lo (const AooctRefLayer * l)
{
  return l->full_range ? -(l->p2 / 2) : 0;
}

static int
bin_hi (const AooctRefLayer * l)
{
  return l->full_range ? l->p2 - l->p2 / 2 : l->p2;
}

/* I of signed bin @z of A-line @a of the B-scan @x */
static double
inten (const AooctRefLayer * l, const double *x, int a, int z)
{
  const double *c = x + 2 * ((size_t) a * l->p2 + (z < 0 ? z + l->p2 : z));

  return c[0] * c[0] + c[1] * c[1];
}

/* S[m][z]: the mean over the A-lines m - h .. m + h inside the B-scan */
static double
smoothed (const AooctRefLayer * l, const double *x, int m, int z)
{
  const int h = l->smooth / 2;
  double s = 0;
  int a, n = 0;

  for (a = m - h; a <= m + h; a++)
    if (a >= 0 && a < l->m) {
      s += inten (l, x, a, z);
      n++;
    }
  return s / n;
}

/* first argmax of f over [lo, hi]; *tie when the runner-up is within TIE
 * (relative) of the best */
typedef double (*Score) (const AooctRefLayer * l, const double *x, int m,
    int z);

static int
argmax (const AooctRefLayer * l, const double *x, int m, int lo, int hi,
    Score f, gboolean * tie)
{
  double best = -1, second = -1;
  int z, zb = G_MININT;

  for (z = lo; z <= hi; z++) {
    double v = f (l, x, m, z);

    if (v > best) {
      second = best;
      best = v;
      zb = z;
    } else if (v > second) {
      second = v;
    }
  }
  *tie = second >= 0 && best - second <= TIE * best;
  return zb;
}

static double
profile (const AooctRefLayer * l, const double *x, int m_unused, int z)
{
  double s = 0;
  int a;

  for (a = 0; a < l->m; a++)
    s += inten (l, x, a, z);
  return s / l->m;
}

/* z_l of every A-line of one B-scan; @tie per A-line (all when z_B was a
 * near-tie) */
static void
find_layer (const AooctRefLayer * l, const double *x, int *zl, guint8 * tie)
{
  gboolean tb, t;
  const int zb = argmax (l, x, 0, l->search_start, l->search_end - 1,
      profile, &tb);
  int m;

  for (m = 0; m < l->m; m++) {
    zl[m] = argmax (l, x, m, MAX (l->search_start, zb - l->range),
        MIN (l->search_end - 1, zb + l->range), smoothed, &t);
    tie[m] = t || tb;
  }
}

gboolean
aooct_ref_org_layer_enface (const AooctRefImage * img,
    const AooctRefLayer * l, gboolean max, int slab_start, int slab_end,
    const double *depth, int filled, int volume, guint8 * out,
    size_t out_stride, guint8 * uncertain)
{
  double *e = g_new (double, (size_t) filled * l->m);
  int *zl = g_new (int, l->m);
  int v, m, z, imin = 0, imax = 0;
  gboolean rests = FALSE;

  for (v = 0; v < filled; v++) {
    const double *x = depth + 2 * (size_t) v * l->m * l->p2;

    find_layer (l, x, zl, uncertain + (size_t) v * l->m);
    for (m = 0; m < l->m; m++) {
      double acc = max ? -INFINITY : 0;
      int n = 0;

      for (z = zl[m] + slab_start; z < zl[m] + slab_end; z++)
        if (z >= bin_lo (l) && z < bin_hi (l)) {
          acc = max ? MAX (acc, inten (l, x, m, z)) : acc + inten (l, x, m, z);
          n++;
        }
      e[(size_t) v * l->m + m] = n == 0 ? 0 : max ? acc : acc / n;
    }
  }
  for (v = 0; v < filled * l->m; v++) {
    if (e[v] < e[imin])
      imin = v;
    if (e[v] > e[imax])
      imax = v;
  }
  /* the range: the maximum (log with a dynamic range) or both ends */
  rests = uncertain[imax] || (!(img->log && img->dynamic_range > 0)
      && uncertain[imin]);
  aooct_ref_views_enface_image (img, e, filled, volume, out, out_stride);
  g_free (zl);
  g_free (e);
  return rests;
}

/* ---- aooctorg ---- */

static double
wrap (double a)
{
  while (a > G_PI)
    a -= 2 * G_PI;
  while (a <= -G_PI)
    a += 2 * G_PI;
  return a;
}

static void
put (void *img, size_t i, int bits, unsigned g)
{
  if (bits == 16)
    ((guint16 *) img)[i] = (guint16) g;
  else
    ((guint8 *) img)[i] = (guint8) g;
}

static unsigned
grey (const AooctRefOrg * p, double dopl)
{
  const double half = p->bits == 16 ? 32767.5 : 127.5;
  const double top = p->bits == 16 ? 65535 : 255;
  double g = floor (half * (1 + dopl / p->opl_range) + 0.5);

  return (unsigned) CLAMP (g, 1, top);
}

void
aooct_ref_org_run (const AooctRefOrg * p, const double *depth, int bscans,
    int new_baseline_at, AooctRefOrgTrace * trace, void *kymo,
    guint8 * uncertain)
{
  const AooctRefLayer *l = &p->l;
  const int M = l->m, w = p->depth_window / 2;
  int *z1 = g_new (int, M), *sep = g_new0 (int, M);
  gboolean *has = g_new0 (gboolean, M), *started = g_new0 (gboolean, M);
  guint8 *tie = g_new (guint8, M), *touched = g_new0 (guint8, M);
  double *qr = g_new0 (double, M), *qi = g_new0 (double, M);
  double *u = g_new0 (double, M), *prev = g_new0 (double, M);
  double *pr = g_new (double, M), *pi_ = g_new (double, M);
  double *l1 = g_new (double, M), *l2 = g_new (double, M);
  double *hist = g_new (double, (size_t) bscans * M);   /* dOPL, NaN */
  int b, m, n = 0;

  for (b = 0; b < bscans; b++) {
    const double *x = depth + 2 * (size_t) b * M * l->p2;
    double max1 = -INFINITY, max2 = -INFINITY, sum = 0, sum2 = 0;
    int arg1 = -1, arg2 = -1, valid = 0, r;

    if (b == new_baseline_at)
      n = 0;
    find_layer (l, x, z1, tie);
    if (n == 0) {
      memset (touched, 0, M);
      for (m = 0; m < M; m++) {
        gboolean t;
        int lo = MAX (z1[m] + p->second_min, p->crop_start);
        int hi = MIN (z1[m] + p->second_max, p->crop_end - 1);
        int z2 = lo <= hi ? argmax (l, x, m, lo, hi, smoothed, &t) : 0;

        has[m] = lo <= hi;
        sep[m] = z2 - z1[m];
        qr[m] = qi[m] = 0;
        started[m] = FALSE;
        if (has[m] && t)
          touched[m] = 1;
      }
    }
    for (m = 0; m < M; m++) {
      const int za = z1[m], zc = z1[m] + sep[m];
      double i1 = 0, i2 = 0, re = 0, im = 0;
      int d;

      if (tie[m])
        touched[m] = 1;
      if (!has[m])
        continue;
      for (d = -w; d <= w; d++) {
        gboolean in1 = za + d >= bin_lo (l) && za + d < bin_hi (l);
        gboolean in2 = zc + d >= bin_lo (l) && zc + d < bin_hi (l);

        if (in1)
          i1 += inten (l, x, m, za + d);
        if (in2)
          i2 += inten (l, x, m, zc + d);
        if (in1 && in2) {
          const double *a = x + 2 * ((size_t) m * l->p2 + (za + d < 0 ?
                  za + d + l->p2 : za + d));
          const double *c = x + 2 * ((size_t) m * l->p2 + (zc + d < 0 ?
                  zc + d + l->p2 : zc + d));
          /* X2 conj (X1) */
          re += c[0] * a[0] + c[1] * a[1];
          im += c[1] * a[0] - c[0] * a[1];
        }
      }
      pr[m] = re;
      pi_[m] = im;
      l1[m] = 10 * log10 (MAX (i1, 1e-30));
      l2[m] = 10 * log10 (MAX (i2, 1e-30));
      if (l1[m] > max1) {
        max1 = l1[m];
        arg1 = m;
      }
      if (l2[m] > max2) {
        max2 = l2[m];
        arg2 = m;
      }
    }
    for (m = 0; m < M; m++) {
      double psi;
      gboolean ok;

      hist[(size_t) b * M + m] = NAN;
      if (!has[m] || (pr[m] == 0 && pi_[m] == 0))
        continue;
      if (p->threshold > 0) {
        /* a threshold from a near-tie A-line, or a test within 0.02 dB */
        if ((arg1 >= 0 && tie[arg1]) || (arg2 >= 0 && tie[arg2])
            || fabs (l1[m] - (max1 - p->threshold)) < 0.02
            || fabs (l2[m] - (max2 - p->threshold)) < 0.02)
          touched[m] = 1;
        ok = l1[m] >= max1 - p->threshold && l2[m] >= max2 - p->threshold;
        if (!ok)
          continue;
      }
      if (n < p->baseline) {
        double a = hypot (pr[m], pi_[m]);

        qr[m] += pr[m] / a;
        qi[m] += pi_[m] / a;
      }
      if (qr[m] == 0 && qi[m] == 0)
        continue;
      psi = atan2 (pi_[m] * qr[m] - pr[m] * qi[m],
          pr[m] * qr[m] + pi_[m] * qi[m]);
      if (psi <= -G_PI)
        psi = G_PI;
      if (!started[m]) {
        u[m] = psi;
        started[m] = TRUE;
      } else {
        double step = psi - prev[m];

        if (fabs (fabs (wrap (step)) - G_PI) < 0.01)
          touched[m] = 1;
        u[m] += wrap (step);
      }
      prev[m] = psi;
      hist[(size_t) b * M + m] = p->scale * u[m];
      sum += p->scale * u[m];
      valid++;
    }
    trace[b].valid = valid;
    trace[b].mean = valid ? sum / valid : NAN;
    for (m = 0; m < M; m++)
      if (!isnan (hist[(size_t) b * M + m]))
        sum2 += pow (hist[(size_t) b * M + m] - trace[b].mean, 2);
    trace[b].std = valid ? sqrt (sum2 / valid) : NAN;
    memcpy (uncertain + (size_t) b * M, touched, M);
    /* the kymograph: row r shows B-scan b - (history - 1 - r) */
    for (r = 0; r < p->history; r++) {
      const int k = b - (p->history - 1 - r);

      for (m = 0; m < M; m++) {
        const double v = k >= 0 ? hist[(size_t) k * M + m] : NAN;

        put (kymo, ((size_t) b * p->history + r) * M + m, p->bits,
            isnan (v) ? 0 : grey (p, v));
      }
    }
    n++;
  }
  g_free (z1);
  g_free (sep);
  g_free (has);
  g_free (started);
  g_free (tie);
  g_free (touched);
  g_free (qr);
  g_free (qi);
  g_free (u);
  g_free (prev);
  g_free (pr);
  g_free (pi_);
  g_free (l1);
  g_free (l2);
  g_free (hist);
}
