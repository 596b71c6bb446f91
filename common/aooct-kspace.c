/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: k-space tables for aooctkmap's interpolation modes (see
 * aooct-kspace.h). */
#include <math.h>
#include <string.h>

#include "aooct-kspace.h"
#include "aooct-error.h"
#include "aooct-window.h"
#include "aooct-kmap-table.h"

/* ---- kernels ---------------------------------------------------------- */

gdouble
aooct_kernel_keys (gdouble x)
{
  gdouble a = fabs (x);

  if (a <= 1.0)
    return 1.5 * a * a * a - 2.5 * a * a + 1.0;
  if (a < 2.0)
    return -0.5 * a * a * a + 2.5 * a * a - 4.0 * a + 2.0;
  return 0.0;
}

gdouble
aooct_kernel_bspline (gdouble x)
{
  gdouble a = fabs (x);

  if (a < 1.0)
    return 2.0 / 3.0 - a * a + a * a * a / 2.0;
  if (a < 2.0)
    return (2.0 - a) * (2.0 - a) * (2.0 - a) / 6.0;
  return 0.0;
}

static gdouble
sinc (gdouble x)
{
  return x == 0.0 ? 1.0 : sin (G_PI * x) / (G_PI * x);
}

gdouble
aooct_kernel_lanczos8 (gdouble x)
{
  if (x == 0.0)
    return 1.0;
  if (fabs (x) < 8.0)
    return sinc (x) * sinc (x / 8.0);
  return 0.0;
}

/* ---- B-spline prefilter ----------------------------------------------- */

/* Row r (0..n-1, local to the data region) of the spec's system
 * z = M b: M[r][r] = 4/6, neighbours 1/6, and 2/6 towards the inside at
 * the two ends (mirror extension). */
static void
bspline_row (gint n, gint r, gdouble * sub, gdouble * diag, gdouble * sup)
{
  *diag = 4.0 / 6.0;
  *sub = r > 0 ? (r == n - 1 ? 2.0 / 6.0 : 1.0 / 6.0) : 0.0;
  *sup = r < n - 1 ? (r == 0 ? 2.0 / 6.0 : 1.0 / 6.0) : 0.0;
}

/* band[r * (2K+1) + K + d] = (M^-1)[r][r + d] for |d| <= K: column c of
 * M^-1 solved on the rows within 3K of c (the rest contributes below
 * 0.268^(2K) relative), by the Thomas algorithm. */
static gdouble *
bspline_inverse_band (gint n)
{
  const gint K = AOOCT_BSPLINE_PREFILTER_REACH, span = 2 * K + 1;
  gdouble *band = g_new0 (gdouble, (gsize) n * span);
  gint cap = 6 * K + 1;
  gdouble *cp = g_new (gdouble, cap), *dp = g_new (gdouble, cap);
  gdouble *x = g_new (gdouble, cap);
  gint c;

  for (c = 0; c < n; c++) {
    gint a = MAX (0, c - 3 * K), b = MIN (n - 1, c + 3 * K), len = b - a + 1;
    gint r;

    /* forward sweep of M[a..b][a..b] x = e_c */
    for (r = 0; r < len; r++) {
      gdouble sub, diag, sup, rhs = (a + r == c) ? 1.0 : 0.0, den;

      bspline_row (n, a + r, &sub, &diag, &sup);
      if (r == 0) {
        den = diag;
        cp[r] = sup / den;
        dp[r] = rhs / den;
      } else {
        den = diag - sub * cp[r - 1];
        cp[r] = sup / den;
        dp[r] = (rhs - sub * dp[r - 1]) / den;
      }
    }
    x[len - 1] = dp[len - 1];
    for (r = len - 2; r >= 0; r--)
      x[r] = dp[r] - cp[r] * x[r + 1];
    for (r = MAX (a, c - K); r <= MIN (b, c + K); r++)
      band[(gsize) r * span + K + (c - r)] = x[r - a];
  }
  g_free (cp);
  g_free (dp);
  g_free (x);
  return band;
}

/* ---- FIR tables ------------------------------------------------------- */

static gint
mode_taps (AooctInterp mode)
{
  switch (mode) {
    case AOOCT_INTERP_CUBIC:
      return 4;
    case AOOCT_INTERP_LANCZOS:
      return 16;
    case AOOCT_INTERP_BSPLINE:
      return AOOCT_KMAP_FIR_MAX_TAPS;
    default:
      g_return_val_if_reached (0);
  }
}

AooctKmapFir *
aooct_kmap_fir_new (const AooctKmapTable * kmap, AooctInterp mode)
{
  const gint j0 = kmap->start, j1 = kmap->end, n = j1 - j0 + 1;
  const gint P = kmap->samples, K = AOOCT_BSPLINE_PREFILTER_REACH;
  const gint span = 2 * K + 1;
  gint taps = MIN (mode_taps (mode), n);
  AooctKmapFir *fir = g_new0 (AooctKmapFir, 1);
  gdouble *acc = g_new0 (gdouble, n), *band = NULL;
  gint i;

  fir->samples = P;
  fir->start = j0;
  fir->end = j1;
  fir->taps = taps;
  fir->first = g_new0 (gint32, P);
  fir->weight = g_new0 (gfloat, (gsize) taps * P);
  if (mode == AOOCT_INTERP_BSPLINE)
    band = bspline_inverse_band (n);

  for (i = j0; i <= j1; i++) {
    const gint l = kmap->index[i] - j0; /* local */
    const gdouble t = kmap->frac_d[i];
    gint lo = n, hi = -1, q, k, first;

    /* dense weights over the data region, folded at its ends */
#define ADD(idx, wgt) G_STMT_START { gint _k = (idx); \
      acc[_k] += (wgt); lo = MIN (lo, _k); hi = MAX (hi, _k); } G_STMT_END
    switch (mode) {
      case AOOCT_INTERP_CUBIC:
        for (q = -1; q <= 2; q++)
          ADD (CLAMP (l + q, 0, n - 1), aooct_kernel_keys (t - q));
        break;
      case AOOCT_INTERP_LANCZOS:
        for (q = -7; q <= 8; q++)
          ADD (CLAMP (l + q, 0, n - 1), aooct_kernel_lanczos8 (t - q));
        break;
      case AOOCT_INTERP_BSPLINE:
        for (q = -1; q <= 2; q++) {
          gint e = l + q, d;
          gdouble beta = aooct_kernel_bspline (t - q);

          /* mirror extension e(j0 - q) = j0 + q, e(j1 + q) = j1 - q */
          if (e < 0)
            e = -e;
          if (e > n - 1)
            e = 2 * (n - 1) - e;
          e = CLAMP (e, 0, n - 1);
          for (d = -K; d <= K; d++) {
            if (e + d < 0 || e + d > n - 1)
              continue;
            ADD (e + d, beta * band[(gsize) e * span + K + d]);
          }
        }
        break;
      default:
        g_assert_not_reached ();
    }
#undef ADD
    first = CLAMP (lo, 0, n - taps);
    g_assert (hi - first < taps);
    fir->first[i] = first + j0;
    for (k = 0; k < taps; k++) {
      fir->weight[(gsize) k * P + i] = (gfloat) acc[first + k];
      acc[first + k] = 0.0;
    }
    for (k = lo; k <= hi; k++)
      acc[k] = 0.0;
  }
  g_free (band);
  g_free (acc);
  return fir;
}

void
aooct_kmap_fir_free (AooctKmapFir * fir)
{
  if (fir == NULL)
    return;
  g_free (fir->first);
  g_free (fir->weight);
  g_free (fir);
}

/* ---- positions -------------------------------------------------------- */

gdouble *
aooct_kspace_positions_new (const AooctWavelength * cal,
    const AooctGeometry * g, GError ** error)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  const gint len = j1 - j0 + 1;
  gdouble k0, k1, *s;
  gint j;

  g_return_val_if_fail (cal->n == g->raw_samples, NULL);
  k0 = 2.0 * G_PI / cal->lambda[0];
  k1 = 2.0 * G_PI / cal->lambda[cal->n - 1];
  s = g_new (gdouble, len);
  for (j = 0; j < len; j++) {
    gdouble lam = aooct_wavelength_at (cal,
        (gdouble) (j + j0) / g->pad_factor - g->pad_offset);

    s[j] = j0 + (2.0 * G_PI / lam - k0) * (j1 - j0) / (k1 - k0);
    if (!isfinite (s[j]) || s[j] < j0 - 0.5 || s[j] > j1 + 0.5
        || (j > 0 && s[j] <= s[j - 1])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "the wavelength calibration gives no usable k positions (sample %d "
          "at %.9g on a grid %d..%d): it spans too wide a range or is too "
          "flat in double precision", j + j0, s[j], j0, j1);
      g_free (s);
      return NULL;
    }
  }
  /* exact ends (rounding of the expression) */
  s[0] = j0;
  s[len - 1] = j1;
  return s;
}

AooctKmapTable *
aooct_kmap_table_new_identity (const AooctGeometry * g)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  AooctKmapTable *t = g_new0 (AooctKmapTable, 1);
  gint i;

  t->samples = g->samples;
  t->start = j0;
  t->end = j1;
  t->index = g_new (gint32, g->samples);
  t->frac = g_new0 (gfloat, g->samples);
  t->frac_d = g_new0 (gdouble, g->samples);
  for (i = 0; i < g->samples; i++)
    t->index[i] = i < j0 || i > j1 ? -1 : MIN (i, j1 - 1);
  t->frac[j1] = 1.0f;
  t->frac_d[j1] = 1.0;
  return t;
}

gfloat *
aooct_disp_weights_new_at (const AooctGeometry * g, const gdouble * s,
    const gdouble a[AOOCT_DISP_N_COEFFS], GError ** error)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  gfloat *w;
  gint j;

  if (!aooct_disp_check_coeffs (a, error))
    return NULL;
  w = g_new0 (gfloat, 2 * (gsize) g->samples);
  for (j = j0; j <= j1; j++) {
    gdouble u = 2.0 * (s[j - j0] - j0) / (gdouble) (j1 - j0) - 1.0;
    gdouble phi = aooct_disp_phase_poly (a, u);

    w[2 * j] = (gfloat) cos (phi);
    w[2 * j + 1] = (gfloat) sin (phi);
  }
  return w;
}

gfloat *
aooct_window_table_new_at (AooctWindow window, gdouble parameter,
    const AooctGeometry * g, const gdouble * s)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  gfloat *table;
  gint j;

  if (window == AOOCT_WINDOW_NONE)
    return NULL;
  table = g_new0 (gfloat, g->samples);
  /* the common window function at the fractional t_j, so that every
   * window of aooct-window.c works here */
  for (j = j0; j <= j1; j++)
    table[j] = (gfloat) aooct_window_eval (window, parameter,
        (s[j - j0] - j0) / (gdouble) (j1 - j0));
  return table;
}

/* ---- NUDFT ------------------------------------------------------------ */

/* exp(-2 pi i m s / P) with the phase reduced exactly enough: m s is
 * formed in double and reduced modulo P before scaling. */
static inline void
cexpi_bin (gint64 m, gdouble s, gint p, gdouble * re, gdouble * im)
{
  gdouble ph = fmod ((gdouble) m * s, (gdouble) p);

  ph = -2.0 * G_PI * ph / p;
  *re = cos (ph);
  *im = sin (ph);
}

/* The frequency of output bin @m of @p: m itself (section 8), or on
 * full-range spectra (section 9, caps full-range=true) the signed depth
 * bin that bin m stands for, m - P for m >= P - floor (P/2).  On complex
 * spectra the negative depths need it: at positions off the even grid,
 * exp(-2 pi i (P + b) s_j / P) is not exp(-2 pi i b s_j / P), and bin P + b
 * would hold a smeared image of depth b instead of its peak. */
static gint64
nonuniform_frequency (const AooctGeometry * g, gint m, gint p)
{
  return g->full_range && m >= p - p / 2 ? (gint64) m - p : m;
}

gfloat *
aooct_nudft_matrix_new (const AooctGeometry * g, const gdouble * s)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  const gint nd = j1 - j0 + 1, p = g->samples;
  gfloat *a = g_new (gfloat, 2 * (gsize) p * nd);
  gint m, j;

  for (m = 0; m < p; m++)
    for (j = 0; j < nd; j++) {
      gdouble re, im;

      cexpi_bin (nonuniform_frequency (g, m, p), s[j], p, &re, &im);
      a[2 * ((gsize) m * nd + j)] = (gfloat) re;
      a[2 * ((gsize) m * nd + j) + 1] = (gfloat) im;
    }
  return a;
}

/* ---- NUFFT ------------------------------------------------------------ */

static gdouble
kb_beta (gdouble r, gint w)
{
  return G_PI * sqrt ((gdouble) w * w / (r * r) * (r - 0.5) * (r - 0.5) - 0.8);
}

gdouble
aooct_nufft_kernel_value (AooctNufftKernel kernel, gdouble r, gint w, gdouble x)
{
  if (fabs (x) > w / 2.0)
    return 0.0;
  if (kernel == AOOCT_NUFFT_KAISER_BESSEL) {
    gdouble a = 2.0 * x / w;

    return aooct_bessel_i0 (kb_beta (r, w) * sqrt (MAX (0.0, 1.0 - a * a)));
  }
  return exp (-2.0 * G_PI * x * x * (r - 0.5) / (r * w));
}

/* Fourier transform of the kernel, int g(x) exp(-2 pi i nu x) dx:
 * analytic for Kaiser-Bessel, Gauss-Legendre quadrature (per panel) for
 * the truncated Gaussian. */
static gdouble
kernel_ft (AooctNufftKernel kernel, gdouble r, gint w, gdouble nu)
{
  if (kernel == AOOCT_NUFFT_KAISER_BESSEL) {
    gdouble b = kb_beta (r, w), z = G_PI * w * nu, d = b * b - z * z;

    if (d > 1e-12) {
      d = sqrt (d);
      return w * sinh (d) / d;
    } else if (d < -1e-12) {
      d = sqrt (-d);
      return w * sin (d) / d;
    }
    return w;
  } else {
    /* 5-point Gauss-Legendre on 64 panels: the integrand is smooth */
    static const gdouble xg[5] = { -0.9061798459386640, -0.5384693101056831,
      0.0, 0.5384693101056831, 0.9061798459386640
    };
    static const gdouble wg[5] = { 0.2369268850561891, 0.4786286704993665,
      0.5688888888888889, 0.4786286704993665, 0.2369268850561891
    };
    const gint panels = 64;
    const gdouble a = -w / 2.0, h = (gdouble) w / panels;
    gdouble sum = 0.0;
    gint pn, k;

    for (pn = 0; pn < panels; pn++) {
      gdouble c = a + (pn + 0.5) * h;

      for (k = 0; k < 5; k++) {
        gdouble x = c + 0.5 * h * xg[k];

        sum += wg[k] * 0.5 * h * aooct_nufft_kernel_value (kernel, r, w, x)
            * cos (2.0 * G_PI * nu * x);
      }
    }
    return sum;
  }
}

AooctNufftPlan *
aooct_nufft_plan_new (const AooctGeometry * g, const gdouble * s,
    AooctNufftKernel kernel, gdouble r, gint w, GError ** error)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  const gint nd = j1 - j0 + 1, p = g->samples;
  /* the shift that brings the output bins' frequencies into the grid's
   * [-P/2, P/2): already there on full-range spectra */
  const gint h = g->full_range ? 0 : p / 2;
  gdouble qd = r * p;
  AooctNufftPlan *plan;
  gint32 *count;
  gint q, j, n, m, e, pass;

  if (!(r >= AOOCT_NUFFT_MIN_OVERSAMPLING && r <= AOOCT_NUFFT_MAX_OVERSAMPLING)
      || w < AOOCT_NUFFT_MIN_WIDTH || w > AOOCT_NUFFT_MAX_WIDTH) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "nufft-oversampling=%g must be in %g..%g and nufft-width=%d in "
        "%d..%d", r, AOOCT_NUFFT_MIN_OVERSAMPLING,
        AOOCT_NUFFT_MAX_OVERSAMPLING, w, AOOCT_NUFFT_MIN_WIDTH,
        AOOCT_NUFFT_MAX_WIDTH);
    return NULL;
  }
  if (qd != floor (qd) || qd > G_MAXINT32 / 4) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "nufft-oversampling=%g times the %d samples per A-line is %g, not "
        "an integer: the oversampled grid needs a whole number of points "
        "(choose R so that R * %d is one)", r, p, qd, p);
    return NULL;
  }
  q = (gint) qd;
  if (q <= w) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "the oversampled grid of %d points is not wider than nufft-width=%d",
        q, w);
    return NULL;
  }

  plan = g_new0 (AooctNufftPlan, 1);
  plan->samples = p;
  plan->start = j0;
  plan->end = j1;
  plan->grid = q;
  plan->row = g_new0 (gint32, q + 1);
  count = g_new0 (gint32, q);

  /* the grid points n within W/2 of x_j = R s_j, wrapped modulo Q: the
   * first pass counts them per grid point, the second fills the rows */
  for (pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      for (n = 0; n < q; n++)
        plan->row[n + 1] = plan->row[n] + count[n];
      plan->entries = plan->row[q];
      plan->col = g_new (gint32, MAX (plan->entries, 1));
      plan->weight = g_new (gfloat, 2 * (gsize) MAX (plan->entries, 1));
      memset (count, 0, sizeof (gint32) * q);
    }
    for (j = 0; j < nd; j++) {
      gdouble x = r * s[j], re = 1.0, im = 0.0;
      gint64 a = (gint64) ceil (x - w / 2.0), b = (gint64) floor (x + w / 2.0);
      gint64 nn;

      if (pass == 1 && h != 0)
        cexpi_bin (h, s[j], p, &re, &im);
      for (nn = a; nn <= b; nn++) {
        n = (gint) (((nn % q) + q) % q);
        if (pass == 0) {
          count[n]++;
        } else {
          gdouble gv = aooct_nufft_kernel_value (kernel, r, w, nn - x);

          e = plan->row[n] + count[n]++;
          plan->col[e] = j + j0;
          plan->weight[2 * e] = (gfloat) (gv * re);
          plan->weight[2 * e + 1] = (gfloat) (gv * im);
        }
      }
    }
  }
  g_free (count);

  plan->bin = g_new (gint32, p);
  plan->deapod = g_new (gfloat, p);
  for (m = 0; m < p; m++) {
    gint f = g->full_range ? (gint) nonuniform_frequency (g, m, p) : m - h;

    plan->bin[m] = f < 0 ? f + q : f;
    plan->deapod[m] = (gfloat) (1.0 / kernel_ft (kernel, r, w,
            (gdouble) f / q));
  }
  return plan;
}

void
aooct_nufft_plan_free (AooctNufftPlan * plan)
{
  if (plan == NULL)
    return;
  g_free (plan->row);
  g_free (plan->col);
  g_free (plan->weight);
  g_free (plan->bin);
  g_free (plan->deapod);
  g_free (plan);
}
