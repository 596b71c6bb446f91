/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference implementation of the spec (see
 * aooct-ref64.h).  Deliberately naive: no tables shared with the cores, FFT
 * plans made per call, one A-line at a time. */
#include <math.h>
#include <string.h>
#include <fftw3.h>

#include "aooct-ref64.h"
#include "aooct-error.h"
#include "aooct-textfile.h"

#define REF_ERROR(error, ...) \
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS, __VA_ARGS__)

void
aooct_ref_params_init (AooctRefParams * p, int n, int m, int bscans)
{
  memset (p, 0, sizeof (*p));
  p->n = n;
  p->m = m;
  p->bscans = bscans;
  p->dc_mode = AOOCT_REF_DC_BSCAN_MEAN;
  p->pad = TRUE;
  p->pad_size = 0;
  p->pad_factor = 2;
  p->kmap = AOOCT_REF_KMAP_SKIP;
  p->disp = AOOCT_REF_DISP_NONE;
  p->window = AOOCT_REF_WINDOW_NONE;
  p->window_parameter = 0;
  p->log = TRUE;
  p->dynamic_range = 60.0;
  p->auto_range = TRUE;
  p->range_min = 0.0;
  p->range_max = 100.0;
  p->bits = 8;
}

static gboolean
power_of_two (int v)
{
  return v > 0 && (v & (v - 1)) == 0;
}

void
aooct_ref_grid_raw (int n, AooctRefGrid * g)
{
  g->n = n;
  g->o = 0;
  g->f = 1;
  g->p1 = g->p2 = n;
  g->j0 = 0;
  g->j1 = n - 1;
}

gboolean
aooct_ref_grid (const AooctRefParams * p, AooctRefGrid * g, GError ** error)
{
  int p1;

  if (p->n < 2) {
    REF_ERROR (error, "N=%d: need at least 2 samples", p->n);
    return FALSE;
  }
  if (!p->pad) {
    aooct_ref_grid_raw (p->n, g);
    return TRUE;
  }
  if (!power_of_two (p->pad_factor)) {
    REF_ERROR (error, "pad factor %d is not a power of two >= 1",
        p->pad_factor);
    return FALSE;
  }
  if (p->pad_size == 0) {
    p1 = 2048;
    while (p1 < p->n)
      p1 *= 2;
  } else if (!power_of_two (p->pad_size) || p->pad_size < p->n) {
    REF_ERROR (error, "pad size %d is not a power of two >= N=%d",
        p->pad_size, p->n);
    return FALSE;
  } else {
    p1 = p->pad_size;
  }
  g->n = p->n;
  g->p1 = p1;
  g->f = p->pad_factor;
  g->p2 = p1 * p->pad_factor;
  g->o = (p1 - p->n) / 2;
  g->j0 = g->f * g->o;
  g->j1 = g->f * (g->o + p->n - 1);
  return TRUE;
}

/* ---- calibration ---- */

static double
poly (const AooctRefParams * p, double x)
{
  double v = 0;
  int i;

  for (i = p->n_coeffs - 1; i >= 0; i--)
    v = v * x + p->coeffs[i];
  return v;
}

/* d lambda / dp of the polynomial */
static double
dpoly (const AooctRefParams * p, double x)
{
  double c1 = p->n_coeffs > 1 ? p->coeffs[1] : 0;
  double c2 = p->n_coeffs > 2 ? p->coeffs[2] : 0;
  double c3 = p->n_coeffs > 3 ? p->coeffs[3] : 0;

  return c1 + 2 * c2 * x + 3 * c3 * x * x;
}

double
aooct_ref_lambda (const AooctRefParams * p, double pix)
{
  int a;
  double t;

  if (p->kmap == AOOCT_REF_KMAP_COEFFS)
    return poly (p, pix);
  /* table: linear interpolation between neighbouring pixels */
  a = (int) floor (pix);
  if (a < 0)
    a = 0;
  if (a >= p->n - 1)
    return p->wavelengths[p->n - 1];
  t = pix - a;
  return p->wavelengths[a] + t * (p->wavelengths[a + 1] - p->wavelengths[a]);
}

static gboolean
check_kmap (const AooctRefParams * p, GError ** error)
{
  int i;

  if (p->kmap == AOOCT_REF_KMAP_TABLE) {
    int sign;

    if (p->wavelengths == NULL) {
      REF_ERROR (error, "kmap table without wavelengths");
      return FALSE;
    }
    for (i = 0; i < p->n; i++)
      if (!isfinite (p->wavelengths[i]) || p->wavelengths[i] <= 0) {
        REF_ERROR (error, "wavelength %d = %g is not finite and positive", i,
            p->wavelengths[i]);
        return FALSE;
      }
    sign = p->wavelengths[1] > p->wavelengths[0] ? 1 : -1;
    for (i = 0; i + 1 < p->n; i++)
      if (sign * (p->wavelengths[i + 1] - p->wavelengths[i]) <= 0) {
        REF_ERROR (error, "wavelengths not strictly monotonic at %d", i);
        return FALSE;
      }
  } else if (p->kmap == AOOCT_REF_KMAP_COEFFS) {
    double b = p->n - 1, c2, c3, dmin, dmax, d;

    if (p->n_coeffs < 1 || p->n_coeffs > 4) {
      REF_ERROR (error, "%d wavelength coefficients (1..4)", p->n_coeffs);
      return FALSE;
    }
    for (i = 0; i < p->n_coeffs; i++)
      if (!isfinite (p->coeffs[i])) {
        REF_ERROR (error, "coefficient c%d is not finite", i);
        return FALSE;
      }
    /* strictly monotonic on [0, b] <=> the derivative (a quadratic) does
     * not take both signs there and is not identically 0; its extremes
     * are at the ends or the vertex */
    dmin = MIN (dpoly (p, 0), dpoly (p, b));
    dmax = MAX (dpoly (p, 0), dpoly (p, b));
    c2 = p->n_coeffs > 2 ? p->coeffs[2] : 0;
    c3 = p->n_coeffs > 3 ? p->coeffs[3] : 0;
    if (c3 != 0) {
      double xv = -c2 / (3 * c3);
      if (xv > 0 && xv < b) {
        d = dpoly (p, xv);
        dmin = MIN (dmin, d);
        dmax = MAX (dmax, d);
      }
    }
    if ((dmin < 0 && dmax > 0) || (dmin == 0 && dmax == 0)) {
      REF_ERROR (error, "wavelength polynomial not strictly monotonic on "
          "[0, %d]", p->n - 1);
      return FALSE;
    }
    /* monotonic: the minimum is at an end */
    if (!(poly (p, 0) > 0) || !(poly (p, b) > 0)) {
      REF_ERROR (error, "wavelength polynomial not positive on [0, %d]",
          p->n - 1);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean
aooct_ref_crop (const AooctRefParams * p, const AooctRefGrid * g, int *start,
    int *end, GError ** error)
{
  int e = p->crop_end == 0 ? g->p1 / 2 : p->crop_end;

  if (p->crop_start < 0 || p->crop_start >= e || e > g->p2) {
    REF_ERROR (error, "crop [%d, %d) impossible with P1=%d P2=%d",
        p->crop_start, e, g->p1, g->p2);
    return FALSE;
  }
  *start = p->crop_start;
  *end = e;
  return TRUE;
}

gboolean
aooct_ref_check (const AooctRefParams * p, GError ** error)
{
  AooctRefGrid g;
  int s, e;

  if (p->m < 1 || p->bscans < 1) {
    REF_ERROR (error, "M=%d and B-scans=%d must be >= 1", p->m, p->bscans);
    return FALSE;
  }
  if (!aooct_ref_grid (p, &g, error))
    return FALSE;
  if (p->dc_mode == AOOCT_REF_DC_BACKGROUND && p->background == NULL) {
    REF_ERROR (error, "background mode without background");
    return FALSE;
  }
  if (!check_kmap (p, error))
    return FALSE;
  if (p->disp == AOOCT_REF_DISP_WEIGHTS && p->weights == NULL) {
    REF_ERROR (error, "dispersion weights missing");
    return FALSE;
  }
  if (p->disp == AOOCT_REF_DISP_WEIGHTS && p->kmap != AOOCT_REF_KMAP_SKIP
      && (p->interp == AOOCT_REF_INTERP_NUDFT
          || p->interp == AOOCT_REF_INTERP_NUFFT)) {
    REF_ERROR (error, "a phase file is on the even-k grid: not with nudft");
    return FALSE;
  }
  if (p->disp == AOOCT_REF_DISP_COEFFS && (!isfinite (p->a2)
          || !isfinite (p->a3) || !isfinite (p->a4) || !isfinite (p->a5))) {
    REF_ERROR (error, "a2 .. a5 not finite");
    return FALSE;
  }
  if (p->disp == AOOCT_REF_DISP_CAMERA && (p->camera_phases == NULL
          || (p->kmap != AOOCT_REF_KMAP_SKIP
              && (p->interp == AOOCT_REF_INTERP_NUDFT
                  || p->interp == AOOCT_REF_INTERP_NUFFT)))) {
    REF_ERROR (error, "camera phases missing, or with nudft");
    return FALSE;
  }
  if (!aooct_ref_crop (p, &g, &s, &e, error))
    return FALSE;
  if (!isfinite (p->dynamic_range) || p->dynamic_range < 0) {
    REF_ERROR (error, "dynamic range %g", p->dynamic_range);
    return FALSE;
  }
  if (!p->auto_range && !(isfinite (p->range_min) && isfinite (p->range_max)
          && p->range_max > p->range_min)) {
    REF_ERROR (error, "manual range %g..%g", p->range_min, p->range_max);
    return FALSE;
  }
  if (p->bits != 8 && p->bits != 16) {
    REF_ERROR (error, "bits=%d", p->bits);
    return FALSE;
  }
  return TRUE;
}

/* ---- steps ---- */

void
aooct_ref_dcsub (const AooctRefParams * p, double *x)
{
  int m, n;

  if (p->dc_mode == AOOCT_REF_DC_NONE)
    return;
  for (n = 0; n < p->n; n++) {
    double d;

    if (p->dc_mode == AOOCT_REF_DC_BACKGROUND) {
      d = p->background[n];
    } else {
      d = 0;
      for (m = 0; m < p->m; m++)
        d += x[(size_t) m * p->n + n];
      d /= p->m;
    }
    for (m = 0; m < p->m; m++)
      x[(size_t) m * p->n + n] -= d;
  }
}

void
aooct_ref_pad (const AooctRefGrid * g, const double *x, double *z)
{
  double *y = fftw_alloc_real (g->p1);
  double *zz = fftw_alloc_real (g->p2);
  fftw_complex *Y = fftw_alloc_complex (g->p1 / 2 + 1);
  fftw_complex *Z = fftw_alloc_complex (g->p2 / 2 + 1);
  fftw_plan fwd = fftw_plan_dft_r2c_1d (g->p1, y, Y, FFTW_ESTIMATE);
  fftw_plan inv = fftw_plan_dft_c2r_1d (g->p2, Z, zz, FFTW_ESTIMATE);
  int i, k;

  for (i = 0; i < g->p1; i++)
    y[i] = 0;
  for (i = 0; i < g->n; i++)
    y[g->o + i] = x[i];
  fftw_execute (fwd);
  for (k = 0; k <= g->p2 / 2; k++) {
    /* the Nyquist bin k = P1/2 is copied, not halved */
    Z[k][0] = k <= g->p1 / 2 ? Y[k][0] : 0;
    Z[k][1] = k <= g->p1 / 2 ? Y[k][1] : 0;
  }
  fftw_execute (inv);
  for (i = 0; i < g->p2; i++)
    z[i] = (i < g->j0 || i > g->j1) ? 0 : zz[i] / g->p1;

  fftw_destroy_plan (fwd);
  fftw_destroy_plan (inv);
  fftw_free (y);
  fftw_free (zz);
  fftw_free (Y);
  fftw_free (Z);
}

/* ---- interpolation modes, straight from section 4 ---- */

static int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* mirror extension of the B-spline: e(j0 - q) = j0 + q, e(j1 + q) = j1 - q */
static int
mirror (int v, int j0, int j1)
{
  if (v < j0)
    v = 2 * j0 - v;
  if (v > j1)
    v = 2 * j1 - v;
  return clampi (v, j0, j1);
}

static double
ref_keys (double x)
{
  double a = fabs (x);
  if (a <= 1)
    return 1.5 * a * a * a - 2.5 * a * a + 1;
  if (a < 2)
    return -0.5 * a * a * a + 2.5 * a * a - 4 * a + 2;
  return 0;
}

static double
ref_beta (double x)
{
  double a = fabs (x);
  if (a < 1)
    return 2.0 / 3.0 - a * a + a * a * a / 2;
  if (a < 2)
    return (2 - a) * (2 - a) * (2 - a) / 6;
  return 0;
}

static double
ref_sinc (double x)
{
  return x == 0 ? 1 : sin (G_PI * x) / (G_PI * x);
}

static double
ref_lanczos (double x)
{
  if (x == 0)
    return 1;
  return fabs (x) < 8 ? ref_sinc (x) * ref_sinc (x / 8) : 0;
}

/* b of the spec: z[j] = (b[e(j-1)] + 4 b[j] + b[e(j+1)]) / 6 on [j0, j1],
 * solved exactly (Gaussian elimination of the tridiagonal system). */
static double *
bspline_coeffs (const double *z, int j0, int j1, int p2)
{
  int n = j1 - j0 + 1, r;
  double *sub = g_new0 (double, n), *dia = g_new0 (double, n);
  double *sup = g_new0 (double, n), *rhs = g_new0 (double, n);
  double *b = g_new0 (double, p2);

  for (r = 0; r < n; r++) {
    dia[r] = 4.0 / 6;
    /* b[e(j-1)] and b[e(j+1)]: at the ends both are the inner neighbour */
    if (r > 0)
      sub[r] += 1.0 / 6;
    else if (n > 1)
      sup[r] += 1.0 / 6;
    if (r < n - 1)
      sup[r] += 1.0 / 6;
    else if (n > 1)
      sub[r] += 1.0 / 6;
    rhs[r] = z[j0 + r];
  }
  for (r = 1; r < n; r++) {
    double f = sub[r] / dia[r - 1];
    dia[r] -= f * sup[r - 1];
    rhs[r] -= f * rhs[r - 1];
  }
  b[j0 + n - 1] = rhs[n - 1] / dia[n - 1];
  for (r = n - 2; r >= 0; r--)
    b[j0 + r] = (rhs[r] - sup[r] * b[j0 + r + 1]) / dia[r];
  g_free (sub);
  g_free (dia);
  g_free (sup);
  g_free (rhs);
  return b;
}

/* out at s = l + t from @z (or the B-spline coefficients) */
static double
interp_at (AooctRefInterp mode, const double *z, int j0, int j1, int l,
    double t)
{
  double v = 0;
  int q;

  switch (mode) {
    case AOOCT_REF_INTERP_CUBIC:
      for (q = -1; q <= 2; q++)
        v += z[clampi (l + q, j0, j1)] * ref_keys (t - q);
      return v;
    case AOOCT_REF_INTERP_BSPLINE:
      for (q = -1; q <= 2; q++)
        v += z[mirror (l + q, j0, j1)] * ref_beta (t - q);
      return v;
    case AOOCT_REF_INTERP_LANCZOS:
      for (q = -7; q <= 8; q++)
        v += z[clampi (l + q, j0, j1)] * ref_lanczos (t - q);
      return v;
    default:
      return z[l] + (z[l + 1] - z[l]) * t;
  }
}

void
aooct_ref_positions (const AooctRefParams * p, const AooctRefGrid * g,
    double *s)
{
  double k0 = 2 * G_PI / aooct_ref_lambda (p, 0);
  double k1 = 2 * G_PI / aooct_ref_lambda (p, p->n - 1);
  int j;

  for (j = g->j0; j <= g->j1; j++) {
    double kj = 2 * G_PI / aooct_ref_lambda (p, (double) j / g->f - g->o);
    s[j - g->j0] = g->j0 + (kj - k0) * (g->j1 - g->j0) / (k1 - k0);
  }
}

/* I0 by its power series (every term positive) */
static double
ref_i0 (double x)
{
  double term = 1, sum = 1;
  int k;

  for (k = 1; k < 500 && term > 1e-18 * sum; k++) {
    term *= (x / (2 * k)) * (x / (2 * k));
    sum += term;
  }
  return sum;
}

/* Section 6's windows at t (also between samples), @parameter as
 * window-parameter (0 = s 0.4, alpha 0.5, beta 8) */
static double
window_value (AooctRefWindow window, double parameter, double t)
{
  switch (window) {
    case AOOCT_REF_WINDOW_HANN:
      return 0.5 - 0.5 * cos (2 * G_PI * t);
    case AOOCT_REF_WINDOW_HAMMING:
      return 0.54 - 0.46 * cos (2 * G_PI * t);
    case AOOCT_REF_WINDOW_BLACKMAN:
      return 0.42 - 0.5 * cos (2 * G_PI * t) + 0.08 * cos (4 * G_PI * t);
    case AOOCT_REF_WINDOW_GAUSSIAN:
      return exp (-0.5 * pow ((2 * t - 1) / (parameter ? parameter : 0.4), 2));
    case AOOCT_REF_WINDOW_TUKEY:{
      double a = parameter ? parameter : 0.5;
      return t < a / 2 ? 0.5 - 0.5 * cos (2 * G_PI * t / a) :
          t > 1 - a / 2 ? 0.5 - 0.5 * cos (2 * G_PI * (1 - t) / a) : 1;
    }
    case AOOCT_REF_WINDOW_KAISER:{
      double b = parameter ? parameter : 8;
      return ref_i0 (b * sqrt (fmax (0, 1 - pow (2 * t - 1, 2)))) / ref_i0 (b);
    }
    default:
      return 1;
  }
}

void
aooct_ref_nudft (const AooctRefParams * p, const AooctRefGrid * g,
    const double *s, const double *z, gboolean complex_z, double *X)
{
  aooct_ref_nudft_bins (p, g, s, z, complex_z, FALSE, X);
}

void
aooct_ref_nudft_bins (const AooctRefParams * p, const AooctRefGrid * g,
    const double *s, const double *z, gboolean complex_z,
    gboolean signed_bins, double *X)
{
  int nd = g->j1 - g->j0 + 1, j, m;
  double *c = g_new (double, 2 * (size_t) nd);

  for (j = 0; j < nd; j++) {
    double u = 2 * (s[j] - g->j0) / (g->j1 - g->j0) - 1;
    double t = (s[j] - g->j0) / (g->j1 - g->j0);
    double wr = 1, wi = 0, win =
        window_value (p->window, p->window_parameter, t);
    double zr = complex_z ? z[2 * (g->j0 + j)] : z[g->j0 + j];
    double zi = complex_z ? z[2 * (g->j0 + j) + 1] : 0;

    if (p->disp == AOOCT_REF_DISP_COEFFS) {
      double phi = p->a2 * pow (u, 2) + p->a3 * pow (u, 3) +
          p->a4 * pow (u, 4) + p->a5 * pow (u, 5);
      wr = cos (phi);
      wi = sin (phi);
    }
    c[2 * j] = (zr * wr - zi * wi) * win;
    c[2 * j + 1] = (zr * wi + zi * wr) * win;
  }
  for (m = 0; m < g->p2; m++) {
    double re = 0, im = 0;

    for (j = 0; j < nd; j++) {
      /* m s_j reduced modulo P2 before the angle, for accuracy */
      double f = signed_bins && m >= g->p2 - g->p2 / 2 ? m - g->p2 : m;
      double ph = -2 * G_PI * fmod (f * s[j], g->p2) / g->p2;
      double cr = cos (ph), ci = sin (ph);
      re += c[2 * j] * cr - c[2 * j + 1] * ci;
      im += c[2 * j] * ci + c[2 * j + 1] * cr;
    }
    X[2 * m] = re;
    X[2 * m + 1] = im;
  }
  g_free (c);
}

void
aooct_ref_kmap (const AooctRefParams * p, const AooctRefGrid * g,
    const double *z, double *out)
{
  const int j0 = g->j0, j1 = g->j1;
  double *lam, k0, k1, *bs = NULL;
  int i, up;

  if (p->kmap == AOOCT_REF_KMAP_SKIP) {
    memcpy (out, z, sizeof (double) * g->p2);
    return;
  }
  if (p->interp == AOOCT_REF_INTERP_BSPLINE)
    bs = bspline_coeffs (z, j0, j1, g->p2);
  lam = g_new (double, g->p2);
  for (i = j0; i <= j1; i++)
    lam[i] = aooct_ref_lambda (p, (double) i / g->f - g->o);
  k0 = 2 * G_PI / aooct_ref_lambda (p, 0);
  k1 = 2 * G_PI / aooct_ref_lambda (p, p->n - 1);
  up = lam[j1] > lam[j0];

  for (i = 0; i < g->p2; i++) {
    double kt, lt;
    int lo, hi, l;

    if (i < j0 || i > j1) {
      out[i] = 0;
      continue;
    }
    kt = k0 + (double) (i - j0) * (k1 - k0) / (j1 - j0);
    lt = 2 * G_PI / kt;
    /* largest l in [j0, j1 - 1] with lam[l] at or before lt (in the
     * direction of the calibration); j0 if lt is before all of them */
    lo = j0;
    hi = j1 - 1;
    while (lo < hi) {
      int mid = lo + (hi - lo + 1) / 2;
      if (up ? lam[mid] <= lt : lam[mid] >= lt)
        lo = mid;
      else
        hi = mid - 1;
    }
    l = lo;
    if (bs)
      out[i] = interp_at (p->interp, bs, j0, j1, l,
          (lt - lam[l]) / (lam[l + 1] - lam[l]));
    else
      out[i] = interp_at (p->interp, z, j0, j1, l,
          (lt - lam[l]) / (lam[l + 1] - lam[l]));
  }
  g_free (lam);
  g_free (bs);
}

void
aooct_ref_disp_weights (const AooctRefParams * p, const AooctRefGrid * g,
    double *w)
{
  int i;

  for (i = 0; i < g->p2; i++) {
    if (p->disp == AOOCT_REF_DISP_WEIGHTS) {
      w[2 * i] = p->weights[2 * i];
      w[2 * i + 1] = p->weights[2 * i + 1];
    } else if (p->disp == AOOCT_REF_DISP_COEFFS) {
      double u = 2.0 * (i - g->j0) / (g->j1 - g->j0) - 1.0;
      double phi = p->a2 * pow (u, 2) + p->a3 * pow (u, 3) +
          p->a4 * pow (u, 4) + p->a5 * pow (u, 5);
      w[2 * i] = cos (phi);
      w[2 * i + 1] = sin (phi);
    } else if (p->disp == AOOCT_REF_DISP_CAMERA) {
      /* sample i at camera position (i - j0) / f (clamped to the data
       * region); between pixels the phase moves along the shorter arc */
      int ii = i < g->j0 ? g->j0 : (i > g->j1 ? g->j1 : i);
      double pos = (double) (ii - g->j0) / g->f, phi;
      int k = (int) floor (pos);
      double t = pos - k;

      if (k >= g->n - 1) {
        phi = p->camera_phases[g->n - 1];
      } else {
        double d = p->camera_phases[k + 1] - p->camera_phases[k];

        d -= 2 * G_PI * floor (d / (2 * G_PI) + 0.5);
        phi = p->camera_phases[k] + t * d;
      }
      w[2 * i] = cos (phi);
      w[2 * i + 1] = sin (phi);
    } else {
      w[2 * i] = 1;
      w[2 * i + 1] = 0;
    }
  }
}

void
aooct_ref_disp (const AooctRefParams * p, const AooctRefGrid * g,
    const double *x, double *c)
{
  double *w = g_new (double, 2 * (size_t) g->p2);
  int i;

  aooct_ref_disp_weights (p, g, w);
  for (i = 0; i < g->p2; i++) {
    c[2 * i] = x[i] * w[2 * i];
    c[2 * i + 1] = x[i] * w[2 * i + 1];
  }
  g_free (w);
}

void
aooct_ref_window_full (AooctRefWindow window, double parameter,
    const AooctRefGrid * g, double *win)
{
  int i;

  for (i = 0; i < g->p2; i++) {
    double t = (double) (i - g->j0) / (g->j1 - g->j0);

    if (window == AOOCT_REF_WINDOW_NONE)
      win[i] = 1;
    else if (i < g->j0 || i > g->j1)
      win[i] = 0;
    else
      win[i] = window_value (window, parameter, t);
  }
}

void
aooct_ref_window (AooctRefWindow window, const AooctRefGrid * g, double *win)
{
  aooct_ref_window_full (window, 0, g, win);
}

static void
ref_fft_param (AooctRefWindow window, double parameter,
    const AooctRefGrid * g, const double *c, double *X)
{
  fftw_complex *a = fftw_alloc_complex (g->p2);
  fftw_complex *b = fftw_alloc_complex (g->p2);
  fftw_plan plan = fftw_plan_dft_1d (g->p2, a, b, FFTW_FORWARD,
      FFTW_ESTIMATE);
  double *win = g_new (double, g->p2);
  int i;

  aooct_ref_window_full (window, parameter, g, win);
  for (i = 0; i < g->p2; i++) {
    a[i][0] = c[2 * i] * win[i];
    a[i][1] = c[2 * i + 1] * win[i];
  }
  fftw_execute (plan);
  for (i = 0; i < g->p2; i++) {
    X[2 * i] = b[i][0];
    X[2 * i + 1] = b[i][1];
  }
  g_free (win);
  fftw_destroy_plan (plan);
  fftw_free (a);
  fftw_free (b);
}

void
aooct_ref_fft (AooctRefWindow window, const AooctRefGrid * g, const double *c,
    double *X)
{
  ref_fft_param (window, 0, g, c, X);
}

static double
norm_value (const AooctRefParams * p, const double *c)
{
  double in = c[0] * c[0] + c[1] * c[1];

  return p->log ? 10.0 * log10 (MAX (in, 1e-30)) : in;
}

void
aooct_ref_norm (const AooctRefParams * p, const AooctRefGrid * g,
    const double *depth, size_t depth_stride, void *out, size_t out_stride,
    double *lo_out, double *hi_out)
{
  const double q = p->bits == 16 ? 65535.0 : 255.0;
  double vmin = INFINITY, vmax = -INFINITY, lo, hi;
  int start, end, r, m;

  if (depth_stride == 0)
    depth_stride = 2 * (size_t) g->p2;
  if (!aooct_ref_crop (p, g, &start, &end, NULL))
    g_error ("aooct_ref_norm: impossible crop");

  for (m = 0; m < p->m; m++)
    for (r = start; r < end; r++) {
      double v = norm_value (p, depth + m * depth_stride + 2 * r);
      vmin = MIN (vmin, v);
      vmax = MAX (vmax, v);
    }
  if (!p->auto_range) {
    lo = p->range_min;
    hi = p->range_max;
  } else if (p->log) {
    hi = vmax;
    lo = p->dynamic_range == 0 ? vmin : vmax - p->dynamic_range;
  } else {
    lo = vmin;
    hi = vmax;
  }
  if (lo_out)
    *lo_out = lo;
  if (hi_out)
    *hi_out = hi;

  for (r = start; r < end; r++) {
    guint8 *row = (guint8 *) out + (size_t) (r - start) * out_stride;

    for (m = 0; m < p->m; m++) {
      double v = norm_value (p, depth + m * depth_stride + 2 * r);
      double t = hi == lo ? 0 : (v - lo) * q / (hi - lo);
      double px;

      t = t < 0 ? 0 : (t > q ? q : t);
      px = floor (t + 0.5);
      if (p->bits == 16)
        ((guint16 *) row)[m] = (guint16) px;
      else
        row[m] = (guint8) px;
    }
  }
}

/* ---- the chain ---- */

gboolean
aooct_ref_depth (const AooctRefParams * p, const guint16 * raw,
    double *depth, GError ** error)
{
  AooctRefGrid g;
  double *x, *z, *k, *pos = NULL;
  int b, m, n;

  if (!aooct_ref_check (p, error) || !aooct_ref_grid (p, &g, error))
    return FALSE;
  x = g_new (double, (size_t) p->m * p->n);
  z = g_new (double, g.p2);
  k = g_new (double, g.p2);
  if (p->kmap != AOOCT_REF_KMAP_SKIP && (p->interp == AOOCT_REF_INTERP_NUDFT
          || p->interp == AOOCT_REF_INTERP_NUFFT)) {
    pos = g_new (double, g.j1 - g.j0 + 1);
    aooct_ref_positions (p, &g, pos);
  }
  for (b = 0; b < p->bscans; b++) {
    const guint16 *rb = raw + (size_t) b * p->m * p->n;

    for (m = 0; m < p->m; m++)
      for (n = 0; n < p->n; n++)
        x[(size_t) m * p->n + n] = rb[(size_t) m * p->n + n];
    aooct_ref_dcsub (p, x);
    for (m = 0; m < p->m; m++) {
      double *c = depth + 2 * (size_t) g.p2 * ((size_t) b * p->m + m);

      if (p->pad)
        aooct_ref_pad (&g, x + (size_t) m * p->n, z);
      else
        memcpy (z, x + (size_t) m * p->n, sizeof (double) * p->n);
      if (pos) {
        aooct_ref_nudft (p, &g, pos, z, FALSE, c);
        continue;
      }
      aooct_ref_kmap (p, &g, z, k);
      aooct_ref_disp (p, &g, k, c);
      ref_fft_param (p->window, p->window_parameter, &g, c, c);
    }
  }
  g_free (x);
  g_free (z);
  g_free (k);
  g_free (pos);
  return TRUE;
}

gboolean
aooct_ref_process (const AooctRefParams * p, const guint16 * raw, void *out,
    size_t out_stride, GError ** error)
{
  AooctRefGrid g;
  double *depth;
  int b, start, end;

  if (!aooct_ref_check (p, error) || !aooct_ref_grid (p, &g, error)
      || !aooct_ref_crop (p, &g, &start, &end, error))
    return FALSE;
  depth = g_new (double, 2 * (size_t) g.p2 * p->m * p->bscans);
  if (!aooct_ref_depth (p, raw, depth, error)) {
    g_free (depth);
    return FALSE;
  }
  for (b = 0; b < p->bscans; b++)
    aooct_ref_norm (p, &g, depth + 2 * (size_t) g.p2 * p->m * b, 0,
        (guint8 *) out + (size_t) b * (end - start) * out_stride, out_stride,
        NULL, NULL);
  g_free (depth);
  return TRUE;
}

double *
aooct_ref_read_phase_file (const char *path, int p2, GError ** error)
{
  gsize n_rec, i;
  AooctRecord *rec = aooct_text_read (path, 1, 2, p2, &n_rec, error);
  double *w;

  if (rec == NULL)
    return NULL;
  w = g_new (double, 2 * (size_t) p2);
  for (i = 0; i < n_rec; i++) {
    if (rec[i].n_values == 1) {
      w[2 * i] = cos (rec[i].v[0]);
      w[2 * i + 1] = sin (rec[i].v[0]);
    } else {
      w[2 * i] = rec[i].v[0];
      w[2 * i + 1] = rec[i].v[1];
    }
  }
  g_free (rec);
  return w;
}
