/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * aooct CPU core: dispersion estimation (see aooct-cpu-disp-estimate.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-disp-estimate.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-omp.h"

typedef struct
{
  gint p2, j0, n;               /* FFT size, data region start and length */
  gint zlo, zhi;                /* depth bins of the metric */
  gint alines;
  gfloat *x;                    /* alines x n: the data regions */
  gdouble *u2, *u3;             /* n: u^2, u^3 */
  gfloat *w;                    /* 2 n: the weights being tried */
  gdouble alpha;                /* u^3's part along u^2 (see cubic_alpha) */
  gint n_threads;
  fftwf_complex **in, **out;    /* per thread, p2 each */
  fftwf_plan plan;
  gint evaluations;
} Estimator;

void
aooct_disp_estimate_params_init (AooctDispEstimateParams * p)
{
  p->a2_max = AOOCT_DISP_ESTIMATE_A2_MAX;
  p->a3_max = AOOCT_DISP_ESTIMATE_A3_MAX;
  p->max_alines = AOOCT_DISP_ESTIMATE_ALINES;
}

/* S (a2, a3): the mean inverse participation ratio of the profiles */
static gdouble
sharpness (Estimator * e, gdouble a2, gdouble a3)
{
  gdouble total = 0;
  gint i, m;

  for (i = 0; i < e->n; i++) {
    gdouble phi = a2 * e->u2[i] + a3 * e->u3[i];
    e->w[2 * i] = (gfloat) cos (phi);
    e->w[2 * i + 1] = (gfloat) sin (phi);
  }
#pragma omp parallel for schedule(static) reduction(+:total) num_threads(e->n_threads)
  for (m = 0; m < e->alines; m++) {
    gint t = aooct_cpu_thread_index ();
    fftwf_complex *in = e->in[t] + e->j0, *out = e->out[t];
    const gfloat *x = e->x + (gsize) m * e->n;
    gdouble s1 = 0, s2 = 0;
    gint k, z;

    for (k = 0; k < e->n; k++) {
      in[k][0] = x[k] * e->w[2 * k];
      in[k][1] = x[k] * e->w[2 * k + 1];
    }
    fftwf_execute_dft (e->plan, e->in[t], out);
    for (z = e->zlo; z < e->zhi; z++) {
      gdouble v = (gdouble) out[z][0] * out[z][0] +
          (gdouble) out[z][1] * out[z][1];
      s1 += v;
      s2 += v * v;
    }
    if (s1 > 0)
      total += s2 / (s1 * s1);
  }
  e->evaluations++;
  return total / e->alines;
}

/* S in the search's coordinates: c2 = a2 + alpha a3 (the quadratic phase
 * the spectrum's weight sees) and c3 = a3 (what is left of the cubic
 * phase once its part along u^2 is taken out) */
static gdouble
sharpness_c (Estimator * e, gboolean vary_c2, gdouble v, gdouble fixed)
{
  gdouble c2 = vary_c2 ? v : fixed, c3 = vary_c2 ? fixed : v;

  return sharpness (e, c2 - e->alpha * c3, c3);
}

/* alpha of u^3 = gamma + beta u + alpha u^2 + (a rest orthogonal to 1, u,
 * u^2) in the inner product weighted by the spectra's mean power over u.
 * Where the spectrum's weight is not centred on u = 0, a cubic phase
 * a3 u^3 is mostly the quadratic phase alpha a3 u^2 plus a shift, and S
 * is a valley running diagonally in (a2, a3): searched one coefficient
 * after the other, a2 and a3 stop short of its top (2 to 4 rad for a
 * mismatch of (20, 10) on the synthetic retina).  In (c2, c3) the two
 * are nearly independent. */
static gdouble
cubic_alpha (const Estimator * e)
{
  gdouble g[3][4] = { {0} }, f;
  gint i, j, k, m;

  for (i = 0; i < e->n; i++) {
    gdouble u = 2.0 * i / (gdouble) (e->n - 1) - 1.0, w = 0, pw[7];

    for (m = 0; m < e->alines; m++) {
      gdouble x = e->x[(gsize) m * e->n + i];
      w += x * x;
    }
    pw[0] = w;
    for (k = 1; k < 7; k++)
      pw[k] = pw[k - 1] * u;
    /* normal equations of the weighted fit of u^3 by 1, u, u^2 */
    for (j = 0; j < 3; j++) {
      for (k = 0; k < 3; k++)
        g[j][k] += pw[j + k];
      g[j][3] += pw[j + 3];
    }
  }
  /* Gaussian elimination with partial pivoting (3 x 3) */
  for (j = 0; j < 3; j++) {
    gint p = j;

    for (k = j + 1; k < 3; k++)
      if (fabs (g[k][j]) > fabs (g[p][j]))
        p = k;
    for (k = 0; k < 4; k++) {
      f = g[j][k];
      g[j][k] = g[p][k];
      g[p][k] = f;
    }
    if (g[j][j] == 0)
      return 0;                 /* no power at all: plain a2, a3 */
    for (k = j + 1; k < 3; k++) {
      f = g[k][j] / g[j][j];
      for (i = j; i < 4; i++)
        g[k][i] -= f * g[j][i];
    }
  }
  /* back substitution: only the u^2 coefficient, the last unknown */
  return g[2][3] / g[2][2];
}

/* The best of a grid lo, lo + step, ..., hi of one coordinate */
static gdouble
grid (Estimator * e, gboolean vary_c2, gdouble fixed, gdouble lo, gdouble hi,
    gdouble step)
{
  gdouble best = lo, best_s = -1, v;

  for (v = lo; v <= hi + 1e-9; v += step) {
    gdouble s = sharpness_c (e, vary_c2, v, fixed);
    if (s > best_s) {
      best_s = s;
      best = v;
    }
  }
  return best;
}

/* Golden-section search for the maximum of S over one coefficient in
 * [lo, hi], to @tol */
static gdouble
golden (Estimator * e, gboolean vary_c2, gdouble fixed, gdouble lo, gdouble hi,
    gdouble tol)
{
  const gdouble r = 0.5 * (sqrt (5.0) - 1.0);
  gdouble a = lo, b = hi, c = b - r * (b - a), d = a + r * (b - a);
  gdouble fc = sharpness_c (e, vary_c2, c, fixed);
  gdouble fd = sharpness_c (e, vary_c2, d, fixed);

  while (b - a > tol) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - r * (b - a);
      fc = sharpness_c (e, vary_c2, c, fixed);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + r * (b - a);
      fd = sharpness_c (e, vary_c2, d, fixed);
    }
  }
  return 0.5 * (a + b);
}

static void
estimator_free (Estimator * e)
{
  gint t;

  if (e->plan) {
    aooct_fftw_lock ();
    fftwf_destroy_plan (e->plan);
    aooct_fftw_unlock ();
  }
  for (t = 0; t < e->n_threads; t++) {
    if (e->in)
      fftwf_free (e->in[t]);
    if (e->out)
      fftwf_free (e->out[t]);
  }
  g_free (e->in);
  g_free (e->out);
  g_free (e->x);
  g_free (e->u2);
  g_free (e->u3);
  g_free (e->w);
}

gboolean
aooct_cpu_disp_estimate (const gfloat * spectra, gint rows,
    const AooctGeometry * g, const AooctDispEstimateParams * p,
    AooctDispEstimate * result, GError ** error)
{
  const gdouble a2_step = 1.5, a3_step = 1.0;
  Estimator e = { 0, };
  gint j1 = aooct_geometry_data_end (g), i, m, t, round;
  gdouble a2, a3, c2, c3;

  e.p2 = g->samples;
  e.j0 = aooct_geometry_data_start (g);
  e.n = j1 - e.j0 + 1;
  e.zhi = MIN (g->pad_size / 2, e.p2);
  e.zlo = MAX (2, g->pad_size / 64);
  if (rows < 1 || e.n < 4 || e.zhi - e.zlo < 4) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "dispersion estimation needs A-lines with at least 4 measured "
        "samples and depth bins (got %d A-lines, %d samples, depth bins "
        "%d..%d)", rows, e.n, e.zlo, e.zhi);
    return FALSE;
  }
  e.alines = MIN (rows, MAX (1, p->max_alines));
  e.n_threads = MAX (1, aooct_cpu_threads ());
  e.x = g_new (gfloat, (gsize) e.alines * e.n);
  for (m = 0; m < e.alines; m++) {
    /* evenly spaced, the first and last included */
    gint r = e.alines > 1 ? (gint) ((gint64) m * (rows - 1) / (e.alines - 1))
        : 0;
    memcpy (e.x + (gsize) m * e.n, spectra + (gsize) r * e.p2 + e.j0,
        e.n * sizeof (gfloat));
  }
  e.u2 = g_new (gdouble, e.n);
  e.u3 = g_new (gdouble, e.n);
  e.w = g_new (gfloat, 2 * e.n);
  for (i = 0; i < e.n; i++) {
    /* aooctdisp's u: -1 .. 1 over the data region */
    gdouble u = 2.0 * i / (gdouble) (e.n - 1) - 1.0;
    e.u2[i] = u * u;
    e.u3[i] = u * u * u;
  }
  e.in = g_new0 (fftwf_complex *, e.n_threads);
  e.out = g_new0 (fftwf_complex *, e.n_threads);
  for (t = 0; t < e.n_threads; t++) {
    e.in[t] = fftwf_malloc (sizeof (fftwf_complex) * e.p2);
    e.out[t] = fftwf_malloc (sizeof (fftwf_complex) * e.p2);
    if (!e.in[t] || !e.out[t]) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "out of memory for dispersion estimation");
      estimator_free (&e);
      return FALSE;
    }
    /* the margins stay zero, as aooctkmap leaves them */
    memset (e.in[t], 0, sizeof (fftwf_complex) * e.p2);
  }
  aooct_fftw_lock ();
  e.plan = fftwf_plan_dft_1d (e.p2, e.in[0], e.out[0], FFTW_FORWARD,
      AOOCT_CPU_PLAN_FLAGS | FFTW_PRESERVE_INPUT);
  aooct_fftw_unlock ();
  if (e.plan == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "FFTW cannot plan a complex FFT of %d samples", e.p2);
    estimator_free (&e);
    return FALSE;
  }

  result->sharpness_none = sharpness (&e, 0, 0);
  e.alpha = cubic_alpha (&e);
  /* c2 first (with c3 = 0: c2 is a2), then c3, then both refined in turn
   * until neither moves by more than the tolerance (at most 4 rounds) */
  c2 = grid (&e, TRUE, 0, -p->a2_max, p->a2_max, a2_step);
  c2 = golden (&e, TRUE, 0, c2 - a2_step, c2 + a2_step, 0.05);
  c3 = grid (&e, FALSE, c2, -p->a3_max, p->a3_max, a3_step);
  c3 = golden (&e, FALSE, c2, c3 - a3_step, c3 + a3_step, 0.05);
  for (round = 0; round < 4; round++) {
    gdouble o2 = c2, o3 = c3;

    c2 = golden (&e, TRUE, c3, c2 - a2_step / 2, c2 + a2_step / 2, 0.01);
    c3 = golden (&e, FALSE, c2, c3 - a3_step / 2, c3 + a3_step / 2, 0.01);
    if (fabs (c2 - o2) < 0.02 && fabs (c3 - o3) < 0.02)
      break;
  }
  a2 = c2 - e.alpha * c3;
  a3 = c3;

  result->a2 = a2;
  result->a3 = a3;
  result->sharpness = sharpness (&e, a2, a3);
  result->evaluations = e.evaluations;
  result->alines = e.alines;
  estimator_free (&e);
  return TRUE;
}
