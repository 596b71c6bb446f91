/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: self-checks of the float64 reference (tests/reference), so
 * that the accuracy tests built on it compare against something
 * trustworthy.  Each check is a property the spec implies, computed by
 * other means than the reference's own code path. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-ref64.h"

static double
max_abs (const double *a, int n)
{
  double m = 0;
  int i;

  for (i = 0; i < n; i++)
    m = MAX (m, fabs (a[i]));
  return m;
}

/* z[f*i] must equal y[i] when y has no Nyquist component, and y[i] +
 * (-1)^i Y[P1/2] / P1 when it has one (the bin is copied, not halved). */
GST_START_TEST (test_pad_reproduces_samples)
{
  GRand *rand = aooct_test_rand_new ();
  AooctRefParams p;
  AooctRefGrid g;
  double *x, *z, *y, nyq, scale;
  int pass, i;

  aooct_ref_params_init (&p, 301, 1, 1);
  p.pad_size = 512;
  p.pad_factor = 4;
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  fail_unless_equals_int (g.o, 105);
  fail_unless_equals_int (g.p2, 2048);
  fail_unless_equals_int (g.j0, 420);
  fail_unless_equals_int (g.j1, 4 * (105 + 300));

  x = g_new (double, p.n);
  y = g_new0 (double, g.p1);
  z = g_new (double, g.p2);
  for (pass = 0; pass < 2; pass++) {
    for (i = 0; i < p.n; i++)
      x[i] = 1000 * exp (-pow ((i - 150) / 80.0, 2)) * cos (0.9 * i)
          + g_rand_double_range (rand, -50, 50);
    nyq = 0;
    for (i = 0; i < p.n; i++)
      nyq += ((g.o + i) % 2 ? -1 : 1) * x[i];
    if (pass == 0) {
      /* remove the Nyquist component of y */
      for (i = 0; i < p.n; i++)
        x[i] -= ((g.o + i) % 2 ? -1 : 1) * nyq / p.n;
      nyq = 0;
    }
    memset (y, 0, sizeof (double) * g.p1);
    for (i = 0; i < p.n; i++)
      y[g.o + i] = x[i];
    aooct_ref_pad (&g, x, z);
    scale = max_abs (y, g.p1);
    for (i = 0; i < g.p1; i++) {
      double expect = y[i] + (i % 2 ? -1 : 1) * nyq / g.p1;
      if (g.f * i < g.j0 || g.f * i > g.j1)
        expect = 0;
      fail_unless (fabs (z[g.f * i] - expect) <= 1e-12 * scale,
          "pass %d: z[%d] = %.17g, expected %.17g", pass, g.f * i,
          z[g.f * i], expect);
    }
    for (i = 0; i < g.p2; i++)
      if (i < g.j0 || i > g.j1)
        fail_unless (z[i] == 0, "margin sample %d = %g", i, z[i]);
    /* the in-between samples are interpolated, not zero */
    fail_unless (fabs (z[g.j0 + 4 * 150 + 2]) > 1.0);
  }
  g_free (x);
  g_free (y);
  g_free (z);
  g_rand_free (rand);
}

GST_END_TEST;

/* A signal periodic in P1 (N = P1, no margin inside) is interpolated
 * exactly at every fractional position. */
GST_START_TEST (test_pad_bandlimited)
{
  AooctRefParams p;
  AooctRefGrid g;
  double x[256], *z;
  int i;

  aooct_ref_params_init (&p, 256, 1, 1);
  p.pad_size = 256;
  p.pad_factor = 2;
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  for (i = 0; i < 256; i++)
    x[i] = cos (2 * G_PI * 5 * i / 256.0 + 0.3)
        + 0.5 * sin (2 * G_PI * 17 * i / 256.0);
  z = g_new (double, g.p2);
  aooct_ref_pad (&g, x, z);
  for (i = 0; i < g.p2; i++) {
    double t = i / 2.0;
    double expect = i > g.j1 ? 0 : cos (2 * G_PI * 5 * t / 256.0 + 0.3)
        + 0.5 * sin (2 * G_PI * 17 * t / 256.0);
    fail_unless (fabs (z[i] - expect) < 1e-12, "z[%d] = %.15g, want %.15g",
        i, z[i], expect);
  }
  g_free (z);
}

GST_END_TEST;

/* The spec's examples of padding sizes. */
GST_START_TEST (test_grid_sizes)
{
  AooctRefParams p;
  AooctRefGrid g;
  GError *err = NULL;

  aooct_ref_params_init (&p, 832, 1, 1);
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  fail_unless (g.p1 == 2048 && g.p2 == 4096 && g.o == 608);
  aooct_ref_params_init (&p, 2500, 1, 1);
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  fail_unless (g.p1 == 4096 && g.p2 == 8192);
  p.pad_size = 3000;
  fail_if (aooct_ref_grid (&p, &g, &err));
  g_clear_error (&err);
  p.pad = FALSE;
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  fail_unless (g.p1 == 2500 && g.p2 == 2500 && g.o == 0 && g.f == 1
      && g.j0 == 0 && g.j1 == 2499);
}

GST_END_TEST;

/* Wavelengths that are already k-linear: the resampling is the identity
 * wherever a sample sits on a raw pixel. */
GST_START_TEST (test_kmap_identity)
{
  GRand *rand = aooct_test_rand_new ();
  const int n = 200;
  double lam[200], k0 = 2 * G_PI / 880.0, k1 = 2 * G_PI / 800.0;
  AooctRefParams p;
  AooctRefGrid g;
  double *z, *out;
  int i, pass;

  for (i = 0; i < n; i++)
    lam[i] = 2 * G_PI / (k0 + i * (k1 - k0) / (n - 1));
  for (pass = 0; pass < 2; pass++) {
    aooct_ref_params_init (&p, n, 1, 1);
    p.kmap = AOOCT_REF_KMAP_TABLE;
    p.wavelengths = lam;
    p.pad = pass == 1;
    p.pad_size = 256;
    p.pad_factor = 2;
    fail_unless (aooct_ref_check (&p, NULL));
    fail_unless (aooct_ref_grid (&p, &g, NULL));
    z = g_new0 (double, g.p2);
    out = g_new (double, g.p2);
    for (i = g.j0; i <= g.j1; i++)
      z[i] = g_rand_double_range (rand, -1000, 1000);
    aooct_ref_kmap (&p, &g, z, out);
    for (i = 0; i < g.p2; i++) {
      if (i < g.j0 || i > g.j1)
        fail_unless (out[i] == 0);
      else if ((i - g.j0) % g.f == 0)
        fail_unless (fabs (out[i] - z[i]) < 1e-8, "pass %d sample %d: %g vs "
            "%g", pass, i, out[i], z[i]);
    }
    g_free (z);
    g_free (out);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Peak height of |X| over bins 1 .. P2/2 - 1, and where it is. */
static double
peak (const double *X, int p2, int *at)
{
  double best = -1;
  int i;

  *at = 0;
  for (i = 1; i < p2 / 2; i++) {
    double a = hypot (X[2 * i], X[2 * i + 1]);
    if (a > best) {
      best = a;
      *at = i;
    }
  }
  return best;
}

/* A fringe that is a pure tone in k (a single reflector, non-linear
 * wavelength polynomial) lands, after pad + kmap + FFT, on the bin the
 * k-grid predicts, with nearly the full height; without kmap it does
 * not. */
GST_START_TEST (test_tone_lands_on_bin)
{
  const int n = 1024, q = 300;
  AooctRefParams p;
  AooctRefGrid g;
  double x[1024], *z, *k, *c, k0, k1, h_k, h_skip;
  int i, at, at_skip;

  aooct_ref_params_init (&p, n, 1, 1);
  p.dc_mode = AOOCT_REF_DC_NONE;
  p.kmap = AOOCT_REF_KMAP_COEFFS;
  p.coeffs[0] = 800;
  p.coeffs[1] = 0.06;
  p.coeffs[2] = 2e-5;
  p.n_coeffs = 3;
  fail_unless (aooct_ref_check (&p, NULL));
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  k0 = 2 * G_PI / aooct_ref_lambda (&p, 0);
  k1 = 2 * G_PI / aooct_ref_lambda (&p, n - 1);
  for (i = 0; i < n; i++) {
    double kn = 2 * G_PI / aooct_ref_lambda (&p, i);
    x[i] = cos (2 * G_PI * q * (kn - k0) / (k1 - k0) * (g.j1 - g.j0) / g.p2);
  }
  z = g_new (double, g.p2);
  k = g_new (double, g.p2);
  c = g_new (double, 2 * g.p2);
  aooct_ref_pad (&g, x, z);
  aooct_ref_kmap (&p, &g, z, k);
  aooct_ref_disp (&p, &g, k, c);
  aooct_ref_fft (AOOCT_REF_WINDOW_NONE, &g, c, c);
  h_k = peak (c, g.p2, &at);
  fail_unless_equals_int (at, q);
  fail_unless (h_k > 0.45 * (g.j1 - g.j0), "peak %g of %d", h_k,
      (g.j1 - g.j0) / 2);

  p.kmap = AOOCT_REF_KMAP_SKIP;
  aooct_ref_kmap (&p, &g, z, k);
  aooct_ref_disp (&p, &g, k, c);
  aooct_ref_fft (AOOCT_REF_WINDOW_NONE, &g, c, c);
  h_skip = peak (c, g.p2, &at_skip);
  fail_unless (h_skip < 0.5 * h_k, "without kmap the peak is %g vs %g",
      h_skip, h_k);
  g_free (z);
  g_free (k);
  g_free (c);
}

GST_END_TEST;

/* The a2/a3 weights follow u = -1 .. 1 over the data region, and a2
 * compensates a quadratic phase in k: the peak becomes sharp again. */
GST_START_TEST (test_dispersion)
{
  const int n = 1000, q = 200;
  const double a2 = 30, a3 = -7;
  AooctRefParams p;
  AooctRefGrid g;
  double *x, *c, *w, h_comp, h_none, full;
  int i, at;

  aooct_ref_params_init (&p, n, 1, 1);
  p.pad_size = 1024;
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  p.disp = AOOCT_REF_DISP_COEFFS;
  p.a2 = a2;
  p.a3 = a3;
  w = g_new (double, 2 * g.p2);
  aooct_ref_disp_weights (&p, &g, w);
  fail_unless (fabs (w[2 * g.j0] - cos (a2 - a3)) < 1e-12);
  fail_unless (fabs (w[2 * g.j0 + 1] - sin (a2 - a3)) < 1e-12);
  fail_unless (fabs (w[2 * g.j1] - cos (a2 + a3)) < 1e-12);
  fail_unless (fabs (w[2 * g.j1 + 1] - sin (a2 + a3)) < 1e-12);
  i = (g.j0 + g.j1) / 2;
  fail_unless (fabs (w[2 * i] - 1) < 1e-12 && fabs (w[2 * i + 1]) < 1e-12);

  /* a chirped fringe on the k-linear grid: cos (w i + a2 u^2) */
  x = g_new0 (double, g.p2);
  c = g_new (double, 2 * g.p2);
  for (i = g.j0; i <= g.j1; i++) {
    double u = 2.0 * (i - g.j0) / (g.j1 - g.j0) - 1;
    x[i] = cos (2 * G_PI * q * (i - g.j0) / (double) g.p2 + a2 * u * u);
  }
  p.a2 = -a2;
  p.a3 = 0;
  aooct_ref_disp (&p, &g, x, c);
  aooct_ref_fft (AOOCT_REF_WINDOW_NONE, &g, c, c);
  h_comp = peak (c, g.p2, &at);
  full = (g.j1 - g.j0) / 2.0;
  fail_unless_equals_int (at, q);
  fail_unless (h_comp > 0.95 * full, "compensated peak %g of %g", h_comp, full);
  p.disp = AOOCT_REF_DISP_NONE;
  aooct_ref_disp (&p, &g, x, c);
  aooct_ref_fft (AOOCT_REF_WINDOW_NONE, &g, c, c);
  h_none = peak (c, g.p2, &at);
  fail_unless (h_none < 0.3 * full, "uncompensated peak %g of %g", h_none,
      full);
  g_free (x);
  g_free (c);
  g_free (w);
}

GST_END_TEST;

GST_START_TEST (test_windows)
{
  AooctRefParams p;
  AooctRefGrid g;
  double *w;
  int mid;

  aooct_ref_params_init (&p, 101, 1, 1);
  p.pad_size = 128;
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  mid = (g.j0 + g.j1) / 2;
  w = g_new (double, g.p2);

  aooct_ref_window (AOOCT_REF_WINDOW_HANN, &g, w);
  fail_unless (fabs (w[g.j0]) < 1e-15 && fabs (w[g.j1]) < 1e-15);
  fail_unless (fabs (w[mid] - 1) < 1e-15);
  fail_unless (w[g.j0 - 1] == 0 && w[g.j1 + 1] == 0);
  aooct_ref_window (AOOCT_REF_WINDOW_HAMMING, &g, w);
  fail_unless (fabs (w[g.j0] - 0.08) < 1e-15 && fabs (w[mid] - 1) < 1e-15);
  aooct_ref_window (AOOCT_REF_WINDOW_BLACKMAN, &g, w);
  fail_unless (fabs (w[g.j1]) < 1e-15 && fabs (w[mid] - 1) < 1e-15);
  aooct_ref_window (AOOCT_REF_WINDOW_GAUSSIAN, &g, w);
  fail_unless (fabs (w[g.j0] - exp (-3.125)) < 1e-15);
  fail_unless (fabs (w[mid] - 1) < 1e-15);
  fail_unless (w[0] == 0);
  aooct_ref_window (AOOCT_REF_WINDOW_NONE, &g, w);
  fail_unless (w[0] == 1 && w[mid] == 1);
  {
    double *h = g_new (double, g.p2);
    int i;

    /* Tukey alpha 1 is Hann; alpha 0.5 is flat over the middle half */
    aooct_ref_window (AOOCT_REF_WINDOW_HANN, &g, h);
    aooct_ref_window_full (AOOCT_REF_WINDOW_TUKEY, 1, &g, w);
    for (i = 0; i < g.p2; i++)
      fail_unless (fabs (w[i] - h[i]) < 1e-15);
    aooct_ref_window (AOOCT_REF_WINDOW_TUKEY, &g, w);
    fail_unless (w[mid] == 1 && w[g.j0 + (g.j1 - g.j0) / 4 + 1] == 1);
    fail_unless (w[g.j0] == 0 && w[g.j1 + 1] == 0);
    g_free (h);
  }
  /* Kaiser: 1 in the middle, 1 / I0 (beta) at the ends (I0 (8) and I0 (3)
   * from tables: 427.5641157218048, 4.880792585865024) */
  aooct_ref_window (AOOCT_REF_WINDOW_KAISER, &g, w);
  fail_unless (fabs (w[mid] - 1) < 1e-15);
  fail_unless (fabs (w[g.j0] - 1 / 427.5641157218048) < 1e-15);
  aooct_ref_window_full (AOOCT_REF_WINDOW_KAISER, 3, &g, w);
  fail_unless (fabs (w[g.j1] - 1 / 4.880792585865024) < 1e-14);
  g_free (w);
}

GST_END_TEST;

/* FFTW against a naive DFT, with a window */
GST_START_TEST (test_fft_is_dft)
{
  GRand *rand = aooct_test_rand_new ();
  AooctRefGrid g;
  double c[2 * 96], X[2 * 96], win[96];
  int i, k;

  aooct_ref_grid_raw (96, &g);
  for (i = 0; i < 2 * 96; i++)
    c[i] = g_rand_double_range (rand, -1, 1);
  aooct_ref_fft (AOOCT_REF_WINDOW_BLACKMAN, &g, c, X);
  aooct_ref_window (AOOCT_REF_WINDOW_BLACKMAN, &g, win);
  for (k = 0; k < 96; k++) {
    double re = 0, im = 0;
    for (i = 0; i < 96; i++) {
      double a = -2 * G_PI * (double) k * i / 96;
      re += win[i] * (c[2 * i] * cos (a) - c[2 * i + 1] * sin (a));
      im += win[i] * (c[2 * i] * sin (a) + c[2 * i + 1] * cos (a));
    }
    fail_unless (fabs (X[2 * k] - re) < 1e-12 && fabs (X[2 * k + 1] - im)
        < 1e-12, "bin %d", k);
  }
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_dcsub)
{
  GRand *rand = aooct_test_rand_new ();
  AooctRefParams p;
  double x[5 * 7], orig[5 * 7], bg[7];
  int m, n;

  aooct_ref_params_init (&p, 7, 5, 1);
  for (n = 0; n < 35; n++)
    orig[n] = x[n] = g_rand_int_range (rand, 0, 4096);
  aooct_ref_dcsub (&p, x);
  for (n = 0; n < 7; n++) {
    double s = 0, mean = 0;
    for (m = 0; m < 5; m++) {
      s += x[m * 7 + n];
      mean += orig[m * 7 + n] / 5;
    }
    fail_unless (fabs (s) < 1e-9);
    fail_unless (fabs (x[n] - (orig[n] - mean)) < 1e-9);
  }
  for (n = 0; n < 7; n++)
    bg[n] = g_rand_double_range (rand, 0, 100);
  memcpy (x, orig, sizeof (x));
  p.dc_mode = AOOCT_REF_DC_BACKGROUND;
  p.background = bg;
  aooct_ref_dcsub (&p, x);
  for (n = 0; n < 35; n++)
    fail_unless (x[n] == orig[n] - bg[n % 7]);
  g_rand_free (rand);
}

GST_END_TEST;

/* Hand-computed grey levels: exact .5 boundaries, clamping, hi == lo. */
GST_START_TEST (test_norm_hand_values)
{
  /* (re, im) pairs; I = re^2 + im^2 = 2, 4, 5, 10, 13, 512, 0, 800 */
  const double in[][2] = { {1, 1}, {2, 0}, {2, 1}, {3, 1}, {3, 2},
  {16, 16}, {0, 0}, {20, 20}
  };
  /* manual range [2, 2 + 2 Q]: t = (I - 2) / 2 exactly, so 5 and 13 sit on
   * .5 boundaries (round up), 0 clamps to 0 and 800 to Q in 8 bit */
  const guint8 want8[] = { 0, 1, 2, 4, 6, 255, 0, 255 };
  const guint16 want16[] = { 0, 1, 2, 4, 6, 255, 0, 399 };
  AooctRefParams p;
  AooctRefGrid g;
  double depth[8 * 2 * 8], lo, hi;
  guint8 out8[8];
  guint16 out16[8];
  int m;

  /* 8 A-lines of 8 complex samples; only depth bin 2 is shown */
  memset (depth, 0, sizeof (depth));
  for (m = 0; m < 8; m++) {
    depth[m * 16 + 4] = in[m][0];
    depth[m * 16 + 5] = in[m][1];
  }
  aooct_ref_params_init (&p, 8, 8, 1);
  aooct_ref_grid_raw (8, &g);
  p.crop_start = 2;
  p.crop_end = 3;
  p.log = FALSE;
  p.auto_range = FALSE;
  p.range_min = 2;
  p.range_max = 2 + 2 * 255.0;
  fail_unless (aooct_ref_check (&p, NULL));
  aooct_ref_norm (&p, &g, depth, 0, out8, sizeof (out8), &lo, &hi);
  fail_unless (lo == 2 && hi == 512);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (out8[m], want8[m]);

  p.bits = 16;
  p.range_max = 2 + 2 * 65535.0;
  aooct_ref_norm (&p, &g, depth, 0, out16, sizeof (out16), NULL, NULL);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (out16[m], want16[m]);

  /* linear auto: lo = 0, hi = 800 */
  p.bits = 8;
  p.auto_range = TRUE;
  aooct_ref_norm (&p, &g, depth, 0, out8, sizeof (out8), &lo, &hi);
  fail_unless (lo == 0 && hi == 800);
  fail_unless_equals_int (out8[3], 3);  /* 10 * 255 / 800 = 3.19 */
  fail_unless_equals_int (out8[5], 163);        /* 163.2 */
  fail_unless_equals_int (out8[7], 255);

  /* log, auto: hi = 10 log10 (800) and 60 dB below it */
  p.log = TRUE;
  aooct_ref_norm (&p, &g, depth, 0, out8, sizeof (out8), &lo, &hi);
  fail_unless (fabs (hi - 10 * log10 (800)) < 1e-12);
  fail_unless (fabs (lo - (hi - 60)) < 1e-12);
  for (m = 0; m < 8; m++) {
    double i = in[m][0] * in[m][0] + in[m][1] * in[m][1];
    double v = (10 * log10 (MAX (i, 1e-30)) - lo) / 60;
    fail_unless_equals_int (out8[m], (int) floor (255 * CLAMP (v, 0, 1) + 0.5));
  }
  fail_unless_equals_int (out8[6], 0);  /* -300 dB clamps to black */
  fail_unless_equals_int (out8[7], 255);
  /* I = 2 is 10 log10 (400) dB below the maximum: 255 (60 - 26.02) / 60 */
  fail_unless_equals_int (out8[0], 144);

  /* hi == lo: constant data gives 0, linear and log with range 0 */
  for (m = 0; m < 8; m++) {
    depth[m * 16 + 4] = 3;
    depth[m * 16 + 5] = 4;
  }
  p.dynamic_range = 0;
  aooct_ref_norm (&p, &g, depth, 0, out8, sizeof (out8), &lo, &hi);
  fail_unless (lo == hi);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (out8[m], 0);
  p.log = FALSE;
  aooct_ref_norm (&p, &g, depth, 0, out8, sizeof (out8), &lo, &hi);
  fail_unless (lo == 25 && hi == 25);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (out8[m], 0);
}

GST_END_TEST;

/* The whole chain on a synthetic B-scan: one reflector whose fringe has q
 * cycles over the N pixels (k-linear source) shows as the brightest row
 * q * P1 / N in every column, and DC subtraction removes the common
 * spectrum. */
GST_START_TEST (test_chain_reflector)
{
  GRand *rand = aooct_test_rand_new ();
  const int n = 1024, m_alines = 16, bscans = 2, q = 100;
  AooctRefParams p;
  AooctRefGrid g;
  guint16 *raw = g_new (guint16, n * m_alines * bscans);
  guint8 *img;
  int b, m, i, r, rows, best;
  GError *err = NULL;

  for (b = 0; b < bscans; b++)
    for (m = 0; m < m_alines; m++) {
      double phi = g_rand_double_range (rand, 0, 2 * G_PI);
      for (i = 0; i < n; i++) {
        double env = exp (-pow ((i - n / 2.0) / (n / 3.0), 2));
        raw[(b * m_alines + m) * n + i] = (guint16) (1000 + 2000 * env +
            (400 + 100 * b) * env * cos (2 * G_PI * q * i / n + phi) +
            g_rand_double_range (rand, 0, 5));
      }
    }
  aooct_ref_params_init (&p, n, m_alines, bscans);
  p.window = AOOCT_REF_WINDOW_HANN;
  fail_unless (aooct_ref_grid (&p, &g, NULL));
  fail_unless_equals_int (g.p1, 2048);
  rows = g.p1 / 2;
  img = g_new (guint8, rows * m_alines * bscans);
  fail_unless (aooct_ref_process (&p, raw, img, m_alines, &err),
      "%s", err ? err->message : "");
  for (b = 0; b < bscans; b++) {
    guint8 brightest = 0;
    for (m = 0; m < m_alines; m++) {
      best = 0;
      for (r = 0; r < rows; r++)
        if (img[(b * rows + r) * m_alines + m] >
            img[(b * rows + best) * m_alines + m])
          best = r;
      fail_unless_equals_int (best, q * g.p1 / n);
      /* the B-scan's maximum is 255; after the mean A-line is removed the
       * reflector is within a few dB of it in every A-line */
      fail_unless (img[(b * rows + best) * m_alines + m] > 200);
      brightest = MAX (brightest, img[(b * rows + best) * m_alines + m]);
    }
    fail_unless_equals_int (brightest, 255);
  }
  g_free (img);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_checks)
{
  const struct
  {
    double c[4];
    int n;
    gboolean ok;
  } polys[] = {
    {{800, 0.05, 0, 0}, 2, TRUE},
    {{880, -0.05, 0, 0}, 2, TRUE},      /* decreasing is valid */
    {{800, 0, 0, 0}, 1, FALSE}, /* constant */
    {{800, 0.1, -1e-4, 0}, 3, FALSE},   /* turns at p = 500 < 1023 */
    {{800, 0.1, -4.8e-5, 0}, 3, TRUE},  /* turns beyond 1023 */
    {{-10, 0.05, 0, 0}, 2, FALSE},      /* negative at p = 0 */
    {{800, 0.1, -3e-4, 2e-7}, 4, FALSE},        /* derivative dips below 0 inside */
    {{800, 0.1, 0, 1e-9}, 4, TRUE},
    {{800, NAN, 0, 0}, 2, FALSE},
  };
  AooctRefParams p;
  double lam[1024];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (polys); i++) {
    GError *err = NULL;
    aooct_ref_params_init (&p, 1024, 4, 1);
    p.kmap = AOOCT_REF_KMAP_COEFFS;
    memcpy (p.coeffs, polys[i].c, sizeof (p.coeffs));
    p.n_coeffs = polys[i].n;
    fail_unless (aooct_ref_check (&p, &err) == polys[i].ok, "poly %u: %s",
        i, err ? err->message : "accepted");
    g_clear_error (&err);
  }
  aooct_ref_params_init (&p, 1024, 4, 1);
  p.kmap = AOOCT_REF_KMAP_TABLE;
  p.wavelengths = lam;
  for (i = 0; i < 1024; i++)
    lam[i] = 900 - 0.1 * i;
  fail_unless (aooct_ref_check (&p, NULL));
  lam[500] = lam[499];
  fail_if (aooct_ref_check (&p, NULL));

  aooct_ref_params_init (&p, 1024, 4, 1);
  p.crop_start = 1024;          /* = P1 / 2 */
  fail_if (aooct_ref_check (&p, NULL));
  p.crop_end = 4097;
  fail_if (aooct_ref_check (&p, NULL));
  p.crop_end = 4096;
  fail_unless (aooct_ref_check (&p, NULL));
  p.auto_range = FALSE;
  p.range_min = p.range_max = 3;
  fail_if (aooct_ref_check (&p, NULL));
}

GST_END_TEST;

GST_START_TEST (test_phase_file)
{
  gchar *path = aooct_test_write_temp ("# phases\n0.5\n1 2\n-3\n0 1\n");
  double *w = aooct_ref_read_phase_file (path, 4, NULL);
  GError *err = NULL;

  fail_unless (w != NULL);
  fail_unless (w[0] == cos (0.5) && w[1] == sin (0.5));
  fail_unless (w[2] == 1 && w[3] == 2);
  fail_unless (w[4] == cos (-3.0) && w[5] == sin (-3.0));
  fail_unless (w[6] == 0 && w[7] == 1);
  g_free (w);
  fail_unless (aooct_ref_read_phase_file (path, 5, &err) == NULL);
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

static Suite *
ref64_suite (void)
{
  Suite *s = suite_create ("aooct-ref64");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pad_reproduces_samples);
  tcase_add_test (tc, test_pad_bandlimited);
  tcase_add_test (tc, test_grid_sizes);
  tcase_add_test (tc, test_kmap_identity);
  tcase_add_test (tc, test_tone_lands_on_bin);
  tcase_add_test (tc, test_dispersion);
  tcase_add_test (tc, test_windows);
  tcase_add_test (tc, test_fft_is_dft);
  tcase_add_test (tc, test_dcsub);
  tcase_add_test (tc, test_norm_hand_values);
  tcase_add_test (tc, test_chain_reflector);
  tcase_add_test (tc, test_checks);
  tcase_add_test (tc, test_phase_file);
  return s;
}

GST_CHECK_MAIN (ref64);
