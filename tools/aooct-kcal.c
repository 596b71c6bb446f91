/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-calibrate's mathematics (aooct-kcal.h). */
#include <math.h>
#include <string.h>

#include "aooct-error.h"
#include "aooct-kcal.h"

/* cos and sin of 2 pi k / len for k = 0 .. len-1 */
static void
twiddles (gint len, gdouble * c, gdouble * s)
{
  gint k;

  for (k = 0; k < len; k++) {
    c[k] = cos (2.0 * G_PI * k / len);
    s[k] = sin (2.0 * G_PI * k / len);
  }
}

/* Tukey window, alpha 0.5: 1 over the middle half, cosine tapers over a
 * quarter at each end */
static gdouble
taper (gint p, gint n)
{
  const gdouble a = 0.5, t = p / (gdouble) (n - 1);

  if (t < a / 2)
    return 0.5 - 0.5 * cos (2.0 * G_PI * t / a);
  if (t > 1.0 - a / 2)
    return 0.5 - 0.5 * cos (2.0 * G_PI * (1.0 - t) / a);
  return 1.0;
}

gboolean
aooct_kcal_fringe (const gdouble * x, gint n, gint min_bin,
    AooctKcalFringe * fr, GError ** error)
{
  gdouble *c = g_new (gdouble, n), *s = g_new (gdouble, n);
  gdouble *d = g_new (gdouble, n);
  gdouble *xr = g_new0 (gdouble, n / 2 + 1), *xi = g_new0 (gdouble, n / 2 + 1);
  gdouble mean = 0.0, best = -1.0, emax = -1.0;
  gint m, p, start = 0;

  memset (fr, 0, sizeof (*fr));
  for (p = 0; p < n; p++)
    mean += x[p] / n;
  /* tapered: the DFT sees the spectrum as periodic, and the step between
   * its two ends would leak into the band, bending the phase there (on
   * a strongly chirped fringe by 0.03 rad RMS instead of 0.002) */
  for (p = 0; p < n; p++)
    d[p] = (x[p] - mean) * taper (p, n);
  twiddles (n, c, s);
  /* X[m] = sum_p d[p] exp(-2 pi j m p / n), m = 0 .. n/2 */
  for (m = 0; m <= n / 2; m++) {
    for (p = 0; p < n; p++) {
      gint k = (gint) (((gint64) m * p) % n);

      xr[m] += d[p] * c[k];
      xi[m] -= d[p] * s[k];
    }
  }
  for (m = MAX (min_bin, 1); m < n / 2; m++) {
    gdouble a = xr[m] * xr[m] + xi[m] * xi[m];

    if (a > best) {
      best = a;
      fr->peak = m;
    }
  }
  /* the strongest bin at the lower end: rising towards DC, not a fringe */
  if (fr->peak <= MAX (min_bin, 1)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "no fringe: the spectrum's strongest component above DC is at the "
        "lowest bin searched (%d cycles across the %d pixels); the mirror is "
        "too close to zero delay or the background does not match",
        MAX (min_bin, 1), n);
    goto fail;
  }
  /* the band: the fringe's bins down to -30 dB of its peak and 2 more,
   * wide enough for the chirp of an uncalibrated spectrometer (it grows
   * with the depth), within peak/4 .. 2 peak: clear of DC and of the
   * Nyquist end */
  {
    const gdouble thr = 1e-3 * best;
    const gint lo_min = MAX (1, fr->peak / 4);
    const gint hi_max = MIN (n / 2 - 1, 2 * fr->peak);

    fr->band_lo = fr->band_hi = fr->peak;
    while (fr->band_lo > lo_min && xr[fr->band_lo - 1] * xr[fr->band_lo - 1] +
        xi[fr->band_lo - 1] * xi[fr->band_lo - 1] > thr)
      fr->band_lo--;
    while (fr->band_hi < hi_max && xr[fr->band_hi + 1] * xr[fr->band_hi + 1] +
        xi[fr->band_hi + 1] * xi[fr->band_hi + 1] > thr)
      fr->band_hi++;
    /* and at least +-peak/2: a narrow fringe's side lobes (of the taper,
     * of the spectrum's shape) carry its phase at the ends */
    fr->band_lo = MAX (lo_min, MIN (fr->band_lo - 2, fr->peak - fr->peak / 2));
    fr->band_hi = MIN (hi_max, MAX (fr->band_hi + 2, fr->peak + fr->peak / 2));
  }

  fr->phase = g_new (gdouble, n);
  fr->envelope = g_new (gdouble, n);
  for (p = 0; p < n; p++) {
    gdouble re = 0.0, im = 0.0;

    for (m = fr->band_lo; m <= fr->band_hi; m++) {
      gint k = (gint) (((gint64) m * p) % n);

      /* (xr + j xi) (c + j s) */
      re += xr[m] * c[k] - xi[m] * s[k];
      im += xr[m] * s[k] + xi[m] * c[k];
    }
    re *= 2.0 / n;
    im *= 2.0 / n;
    fr->envelope[p] = hypot (re, im);
    fr->phase[p] = atan2 (im, re);
    if (fr->envelope[p] > emax) {
      emax = fr->envelope[p];
      start = p;
    }
  }
  /* unwrap outward from the strongest pixel, where the phase is surest */
  for (p = start + 1; p < n; p++)
    fr->phase[p] = fr->phase[p - 1] + remainder (fr->phase[p] -
        fr->phase[p - 1], 2.0 * G_PI);
  for (p = start - 1; p >= 0; p--)
    fr->phase[p] = fr->phase[p + 1] + remainder (fr->phase[p] -
        fr->phase[p + 1], 2.0 * G_PI);
  g_free (c);
  g_free (s);
  g_free (d);
  g_free (xr);
  g_free (xi);
  return TRUE;

fail:
  g_free (c);
  g_free (s);
  g_free (d);
  g_free (xr);
  g_free (xi);
  return FALSE;
}

void
aooct_kcal_fringe_clear (AooctKcalFringe * fr)
{
  g_clear_pointer (&fr->phase, g_free);
  g_clear_pointer (&fr->envelope, g_free);
}

gdouble
aooct_kcal_polyval (const gdouble * c, gint order, gdouble x)
{
  gdouble v = 0.0;
  gint k;

  for (k = order; k >= 0; k--)
    v = v * x + c[k];
  return v;
}

gboolean
aooct_kcal_polyfit (const gdouble * x, const gdouble * y, const gdouble * w,
    gint n, gint order, gdouble * c)
{
  const gint d = order + 1;
  gdouble a[AOOCT_KCAL_MAX_ORDER + 1][AOOCT_KCAL_MAX_ORDER + 2];
  gint i, r, k, col;

  g_return_val_if_fail (order >= 0 && order <= AOOCT_KCAL_MAX_ORDER, FALSE);
  memset (a, 0, sizeof (a));
  /* the normal equations; x is kept in [-1, 1] by the callers, where
   * monomials up to order 9 stay well enough conditioned in double */
  for (i = 0; i < n; i++) {
    gdouble pw[2 * AOOCT_KCAL_MAX_ORDER + 1];

    pw[0] = w[i];
    for (k = 1; k <= 2 * order; k++)
      pw[k] = pw[k - 1] * x[i];
    for (r = 0; r < d; r++) {
      for (col = 0; col < d; col++)
        a[r][col] += pw[r + col];
      a[r][d] += pw[r] * y[i];
    }
  }
  /* Gaussian elimination with partial pivoting */
  for (col = 0; col < d; col++) {
    gint piv = col;

    for (r = col + 1; r < d; r++)
      if (fabs (a[r][col]) > fabs (a[piv][col]))
        piv = r;
    if (a[piv][col] == 0.0 || !isfinite (a[piv][col]))
      return FALSE;
    if (piv != col)
      for (k = 0; k <= d; k++) {
        gdouble t = a[col][k];
        a[col][k] = a[piv][k];
        a[piv][k] = t;
      }
    for (r = col + 1; r < d; r++) {
      gdouble f = a[r][col] / a[col][col];

      for (k = col; k <= d; k++)
        a[r][k] -= f * a[col][k];
    }
  }
  for (r = d - 1; r >= 0; r--) {
    gdouble v = a[r][d];

    for (k = r + 1; k < d; k++)
      v -= a[r][k] * c[k];
    c[r] = v / a[r][r];
  }
  return TRUE;
}

gdouble
aooct_kcal_rms (const gdouble * x, const gdouble * y, const gdouble * w,
    gint n, const gdouble * c, gint order)
{
  gdouble sw = 0.0, sr = 0.0;
  gint i;

  for (i = 0; i < n; i++) {
    gdouble r = y[i] - aooct_kcal_polyval (c, order, x[i]);

    sw += w[i];
    sr += w[i] * r * r;
  }
  return sw > 0.0 ? sqrt (sr / sw) : 0.0;
}

gdouble
aooct_kcal_invert (const gdouble * t, gint n, gdouble v)
{
  gint lo = 0, hi = n - 1;

  if (v <= t[0])
    return 0.0;
  if (v >= t[n - 1])
    return n - 1;
  while (hi - lo > 1) {
    gint mid = (lo + hi) / 2;

    if (t[mid] <= v)
      lo = mid;
    else
      hi = mid;
  }
  return lo + (v - t[lo]) / (t[hi] - t[lo]);
}

gdouble
aooct_kcal_fwhm (const gdouble * re, const gdouble * im, gint n, gint lo,
    gint hi, gint over, gdouble * peak)
{
  const gint len = n * over, count = (hi - lo) * over + 1;
  gdouble *c = g_new (gdouble, len), *s = g_new (gdouble, len);
  gdouble *pw = g_new (gdouble, count), half, left, right;
  gint q, p, top = 0;

  twiddles (len, c, s);
  for (q = 0; q < count; q++) {
    /* frequency lo + q / over bins: exp(-2 pi j (lo over + q) p / len) */
    gint64 f = (gint64) lo * over + q;
    gdouble xr = 0.0, xi = 0.0;

    for (p = 0; p < n; p++) {
      gint k = (gint) ((f * p) % len);
      gdouble a = re[p], b = im ? im[p] : 0.0;

      /* (a + j b) (c - j s) */
      xr += a * c[k] + b * s[k];
      xi += b * c[k] - a * s[k];
    }
    pw[q] = xr * xr + xi * xi;
    if (pw[q] > pw[top])
      top = q;
  }
  half = pw[top] / 2.0;
  for (q = top; q > 0 && pw[q] > half; q--);
  left = pw[q] > half ? q : q + (half - pw[q]) / (pw[q + 1] - pw[q]);
  for (p = top; p < count - 1 && pw[p] > half; p++);
  right = pw[p] > half ? p : p - (half - pw[p]) / (pw[p - 1] - pw[p]);
  *peak = lo + top / (gdouble) over;
  g_free (c);
  g_free (s);
  g_free (pw);
  return (right - left) / over;
}
