/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctfft against a float64 windowed DFT (spec section 6). */
#include <math.h>
#include <string.h>
#include <fftw3.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-window.h"

typedef struct
{
  gint n, p1, p2, o, f;         /* N, P1, P2, o, f */
  gboolean complex_in;
  gint alines, bscans;
} FftGeom;

#define J0(g) ((g)->f * (g)->o)
#define J1(g) ((g)->f * ((g)->o + (g)->n - 1))
#define ROWS(g) ((g)->alines * (g)->bscans)
#define IN_FLOATS(g) ((gsize) ROWS (g) * (g)->p2 * ((g)->complex_in ? 2 : 1))

/* The thesis geometry after aooctpad: N 832, P1 2048, P2 4096, o 608. */
static const FftGeom thesis = { 832, 2048, 4096, 608, 2, TRUE, 16, 3 };

/* The geometry of @g's input (spectral, k-linear). */
static void
in_geometry (const FftGeom * g, AooctGeometry * geom)
{
  aooct_test_geometry_grid (geom, g->n, g->alines, g->bscans, g->p1, g->p2,
      g->o, g->f);
  geom->k_linear = TRUE;
  if (g->complex_in)
    geom->sample_type = AOOCT_SAMPLE_COMPLEX;
}

static GstCaps *
in_caps (const FftGeom * g)
{
  AooctGeometry geom;

  in_geometry (g, &geom);
  return aooct_geometry_to_caps (&geom);
}

/* I0 by its integral (1/pi) int_0^pi exp (x cos theta) d theta: the
 * trapezoid rule on a smooth periodic integrand converges exponentially,
 * and it is a different route from aooct-window.c's power series. */
static gdouble
bessel_i0_integral (gdouble x)
{
  const gint n = 4000;
  gdouble sum = 0.5 * (exp (x) + exp (-x));
  gint i;

  for (i = 1; i < n; i++)
    sum += exp (x * cos (M_PI * i / n));
  return sum / n;
}

/* The spec's windows, written out here independently of aooct-window.c.
 * @name is "window" or "window window-parameter=P" (a launch fragment). */
static gdouble
window_formula (const gchar * name, gdouble t)
{
  const gchar *param = strstr (name, "window-parameter=");
  gdouble p = param ? g_ascii_strtod (param + 17, NULL) : 0;

  if (g_str_has_prefix (name, "gaussian"))
    return exp (-0.5 * pow ((2 * t - 1) / (p ? p : 0.4), 2));
  if (g_str_has_prefix (name, "tukey")) {
    gdouble a = p ? p : 0.5;
    if (t < a / 2)
      return 0.5 - 0.5 * cos (2 * M_PI * t / a);
    if (t > 1 - a / 2)
      return 0.5 - 0.5 * cos (2 * M_PI * (1 - t) / a);
    return 1.0;
  }
  if (g_str_has_prefix (name, "kaiser")) {
    gdouble b = p ? p : 8;
    return bessel_i0_integral (b * sqrt (MAX (0, 1 - pow (2 * t - 1, 2)))) /
        bessel_i0_integral (b);
  }
  if (g_str_equal (name, "hann"))
    return 0.5 - 0.5 * cos (2 * M_PI * t);
  if (g_str_equal (name, "hamming"))
    return 0.54 - 0.46 * cos (2 * M_PI * t);
  if (g_str_equal (name, "blackman"))
    return 0.42 - 0.5 * cos (2 * M_PI * t) + 0.08 * cos (4 * M_PI * t);
  g_assert (g_str_equal (name, "none"));
  return 1.0;
}

static gdouble
window_at (const FftGeom * g, const gchar * name, gint i)
{
  if (g_str_equal (name, "none"))
    return 1.0;
  if (i < J0 (g) || i > J1 (g))
    return 0.0;
  return window_formula (name, (gdouble) (i - J0 (g)) / (J1 (g) - J0 (g)));
}

/* Processed spectra as they reach aooctfft: fringes of a few reflectors
 * under a Gaussian envelope in the data region, a dispersion-like chirp
 * for complex input, zeros in the margins (as aooctkmap leaves them)
 * unless @margin_junk, which fills them with large values that a window
 * must remove. */
static gfloat *
make_input (GRand * rand, const FftGeom * g, gboolean margin_junk)
{
  gfloat *x = g_new (gfloat, IN_FLOATS (g));
  const gint comps = g->complex_in ? 2 : 1;
  gint m, i, r;

  for (m = 0; m < ROWS (g); m++) {
    gdouble depth[3], amp[3], phase[3];
    for (r = 0; r < 3; r++) {
      depth[r] = g_rand_double_range (rand, 0.005, 0.2);
      amp[r] = g_rand_double_range (rand, 50, 400);
      phase[r] = g_rand_double_range (rand, 0, 2 * M_PI);
    }
    for (i = 0; i < g->p2; i++) {
      gfloat *v = x + ((gsize) m * g->p2 + i) * comps;
      gdouble u = (gdouble) (i - J0 (g)) / (J1 (g) - J0 (g)), re = 0, im = 0;
      if (i < J0 (g) || i > J1 (g)) {
        v[0] = margin_junk ? g_rand_double_range (rand, -1e4, 1e4) : 0;
        if (comps == 2)
          v[1] = margin_junk ? g_rand_double_range (rand, -1e4, 1e4) : 0;
        continue;
      }
      for (r = 0; r < 3; r++) {
        gdouble arg = 2 * M_PI * depth[r] * i + phase[r] + 8 * pow (u - 0.5,
            2);
        gdouble env = exp (-pow ((u - 0.5) / 0.3, 2));
        re += amp[r] * env * cos (arg);
        im += amp[r] * env * sin (arg);
      }
      re += g_rand_double_range (rand, -10, 10);
      v[0] = re;
      if (comps == 2)
        v[1] = im + g_rand_double_range (rand, -10, 10);
    }
  }
  return x;
}

/* float64 reference: the window (formula) times the input, then the
 * unnormalised forward DFT of length P2 (FFTW double). */
static gdouble *
reference_fft (const FftGeom * g, const gfloat * x, const gchar * window)
{
  fftw_complex *in = fftw_malloc (sizeof (fftw_complex) * g->p2);
  fftw_complex *out = fftw_malloc (sizeof (fftw_complex) * g->p2);
  fftw_plan plan = fftw_plan_dft_1d (g->p2, in, out, FFTW_FORWARD,
      FFTW_ESTIMATE);
  gdouble *ref = g_new (gdouble, (gsize) ROWS (g) * g->p2 * 2);
  gint m, i;

  for (m = 0; m < ROWS (g); m++) {
    for (i = 0; i < g->p2; i++) {
      gsize idx = (gsize) m * g->p2 + i;
      gdouble w = window_at (g, window, i);
      in[i][0] = w * (g->complex_in ? x[2 * idx] : x[idx]);
      in[i][1] = g->complex_in ? w * x[2 * idx + 1] : 0.0;
    }
    fftw_execute (plan);
    memcpy (ref + (gsize) m * g->p2 * 2, out, sizeof (fftw_complex) * g->p2);
  }
  fftw_destroy_plan (plan);
  fftw_free (in);
  fftw_free (out);
  return ref;
}

/* Within float32 FFT rounding: the error of a whole A-line relative to
 * its spectrum (L2, the FFT's natural error bound, ~eps log2 P2), and no
 * single bin off by more than a small fraction of the spectrum's rms (a
 * misplaced or wrongly scaled bin). */
static void
check_output (const FftGeom * g, const gfloat * out, const gdouble * ref,
    const gchar * what)
{
  gint m, k;
  gdouble worst_l2 = 0, worst_bin = 0;

  for (m = 0; m < ROWS (g); m++) {
    const gfloat *o = out + (gsize) m * g->p2 * 2;
    const gdouble *r = ref + (gsize) m * g->p2 * 2;
    gdouble norm2 = 0, err2 = 0, rms;

    for (k = 0; k < 2 * g->p2; k++) {
      norm2 += r[k] * r[k];
      err2 += (o[k] - r[k]) * (o[k] - r[k]);
    }
    rms = sqrt (norm2 / g->p2);
    fail_unless (rms > 1, "%s: test input too weak", what);
    for (k = 0; k < g->p2; k++) {
      gdouble err = hypot (o[2 * k] - r[2 * k], o[2 * k + 1] - r[2 * k + 1]);
      fail_unless (err < 5e-5 * rms, "%s: A-line %d bin %d: %g%+gj, "
          "expected %g%+gj (error %.3g of the rms)", what, m, k, o[2 * k],
          o[2 * k + 1], r[2 * k], r[2 * k + 1], err / rms);
      worst_bin = MAX (worst_bin, err / rms);
    }
    fail_unless (sqrt (err2 / norm2) < 2e-6, "%s: A-line %d: relative L2 "
        "error %.3g", what, m, sqrt (err2 / norm2));
    worst_l2 = MAX (worst_l2, sqrt (err2 / norm2));
  }
  GST_INFO ("%s: worst relative L2 error %.3g, worst bin %.3g of the rms",
      what, worst_l2, worst_bin);
}

/* Depth-domain complex on the same grid. */
static void
check_out_caps (GstHarness * h, const FftGeom * g)
{
  AooctGeometry out;

  in_geometry (g, &out);
  out.domain = AOOCT_DOMAIN_DEPTH;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  aooct_test_assert_caps (h, &out);
}

static gfloat *
push_pull (GstHarness * h, const FftGeom * g, const gfloat * x)
{
  return aooct_test_push_pull (h, NULL, x, IN_FLOATS (g) * sizeof (gfloat),
      (gsize) ROWS (g) * g->p2 * 2 * sizeof (gfloat));
}

static void
fft_case (const FftGeom * g, const gchar * window, gboolean margin_junk)
{
  GRand *rand = aooct_test_rand_new ();
  gfloat *x = make_input (rand, g, margin_junk);
  gchar *launch = g_strdup_printf ("aooctfft window=%s", window);
  GstHarness *h = aooct_test_harness_new (launch);
  gchar *what = g_strdup_printf ("%s %s input, window %s%s", launch,
      g->complex_in ? "complex" : "real", window,
      margin_junk ? ", junk in margins" : "");
  gdouble *ref = reference_fft (g, x, window);
  gfloat *out;

  gst_harness_set_src_caps (h, in_caps (g));
  out = push_pull (h, g, x);
  check_out_caps (h, g);
  check_output (g, out, ref, what);
  gst_harness_teardown (h);
  g_free (out);
  g_free (ref);
  g_free (what);
  g_free (launch);
  g_free (x);
  g_rand_free (rand);
}

GST_START_TEST (test_fft_complex_thesis)
{
  fft_case (&thesis, "none", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_fft_real_input)
{
  FftGeom g = thesis;
  g.complex_in = FALSE;
  g.bscans = 1;
  fft_case (&g, "none", FALSE);
  /* unpadded raw grid, odd size: not a power of two for FFTW */
  g.n = g.p1 = g.p2 = 1500;
  g.o = 0;
  g.f = 1;
  fft_case (&g, "none", FALSE);
}

GST_END_TEST;

/* Every window against its formula, with large values in the margins that
 * the window must zero. */
GST_START_TEST (test_fft_windows)
{
  const gchar *windows[] = { "hann", "hamming", "blackman", "gaussian",
    "gaussian window-parameter=0.25", "tukey", "tukey window-parameter=0.2",
    "tukey window-parameter=1", "kaiser", "kaiser window-parameter=3.5"
  };
  FftGeom g = thesis;
  guint i;

  g.bscans = 1;
  for (i = 0; i < G_N_ELEMENTS (windows); i++) {
    g.complex_in = TRUE;
    fft_case (&g, windows[i], TRUE);
    g.complex_in = FALSE;
    fft_case (&g, windows[i], TRUE);
  }
}

GST_END_TEST;

/* The table itself: the formula at t = (i - j0) / (j1 - j0), 0 outside. */
GST_START_TEST (test_window_tables)
{
  const struct
  {
    AooctWindow w;
    gdouble parameter;
    const gchar *name;
  } windows[] = {
    {AOOCT_WINDOW_HANN, 0, "hann"}, {AOOCT_WINDOW_HAMMING, 0, "hamming"},
    {AOOCT_WINDOW_BLACKMAN, 0, "blackman"},
    {AOOCT_WINDOW_GAUSSIAN, 0, "gaussian"},
    {AOOCT_WINDOW_GAUSSIAN, 0.7, "gaussian window-parameter=0.7"},
    {AOOCT_WINDOW_TUKEY, 0, "tukey"},
    {AOOCT_WINDOW_TUKEY, 0.1, "tukey window-parameter=0.1"},
    {AOOCT_WINDOW_KAISER, 0, "kaiser"},
    {AOOCT_WINDOW_KAISER, 14, "kaiser window-parameter=14"},
  };
  FftGeom g = thesis;
  guint c;
  gint i;

  fail_unless (aooct_window_table_new (AOOCT_WINDOW_NONE, g.p2, J0 (&g),
          J1 (&g)) == NULL);
  for (c = 0; c < G_N_ELEMENTS (windows); c++) {
    gfloat *t = aooct_window_table_new_full (windows[c].w,
        windows[c].parameter, g.p2, J0 (&g), J1 (&g));
    for (i = 0; i < g.p2; i++)
      fail_unless (fabs (t[i] - window_at (&g, windows[c].name, i)) < 1e-7,
          "%s[%d] = %.9g, expected %.9g", windows[c].name, i, t[i],
          window_at (&g, windows[c].name, i));
    /* symmetric about the centre of the data region */
    fail_unless (fabs (t[J0 (&g) + 100] - t[J1 (&g) - 100]) < 1e-7);
    g_free (t);
  }
}

GST_END_TEST;

/* A tone lands on its bin: exp (2 pi j k0 i / P2) gives P2 at bin k0 and
 * ~0 elsewhere; cos gives P2/2 at k0 and at P2 - k0. */
GST_START_TEST (test_fft_tone)
{
  FftGeom g = { 64, 64, 64, 0, 1, TRUE, 2, 1 };
  const gint k0 = 5;
  gfloat *x = g_new (gfloat, 2 * 64 * 2);
  GstHarness *h;
  gfloat *out;
  gint i, k;

  for (i = 0; i < 64; i++) {
    x[2 * i] = cos (2 * M_PI * k0 * i / 64.0);
    x[2 * i + 1] = sin (2 * M_PI * k0 * i / 64.0);
    x[128 + 2 * i] = cos (2 * M_PI * k0 * i / 64.0);
    x[128 + 2 * i + 1] = 0;
  }
  h = aooct_test_harness_new ("aooctfft");
  gst_harness_set_src_caps (h, in_caps (&g));
  out = push_pull (h, &g, x);
  for (k = 0; k < 64; k++) {
    gdouble mag0 = hypot (out[2 * k], out[2 * k + 1]);
    gdouble mag1 = hypot (out[128 + 2 * k], out[128 + 2 * k + 1]);
    fail_unless (fabs (mag0 - (k == k0 ? 64 : 0)) < 1e-4, "bin %d: %g", k,
        mag0);
    fail_unless (fabs (mag1 - (k == k0 || k == 64 - k0 ? 32 : 0)) < 1e-4,
        "bin %d: %g", k, mag1);
  }
  /* the sign convention: exp (-2 pi j m i / L), so the peak is real */
  fail_unless (fabs (out[2 * k0] - 64) < 1e-4);
  gst_harness_teardown (h);
  g_free (out);
  g_free (x);
}

GST_END_TEST;

/* The special cases the spec names: Tukey alpha 1 is Hann; alpha 0 (set
 * as a tiny alpha, since 0 means the default) tends to no window; the
 * window at fractional t (for steps that evaluate it between samples). */
GST_START_TEST (test_window_special_cases)
{
  gint i;

  for (i = 0; i <= 1000; i++) {
    gdouble t = i / 1000.0;
    fail_unless (fabs (aooct_window_eval (AOOCT_WINDOW_TUKEY, 1, t) -
            aooct_window_eval (AOOCT_WINDOW_HANN, 0, t)) < 1e-15);
    if (t > 1e-6 && t < 1 - 1e-6)
      fail_unless (aooct_window_eval (AOOCT_WINDOW_TUKEY, 1e-9, t) == 1.0);
  }
  fail_unless (fabs (aooct_window_eval (AOOCT_WINDOW_KAISER, 0, 0.37) -
          window_formula ("kaiser", 0.37)) < 1e-12);
  fail_unless (fabs (aooct_window_eval (AOOCT_WINDOW_GAUSSIAN, 0.3, 0.123) -
          window_formula ("gaussian window-parameter=0.3", 0.123)) < 1e-15);
  fail_unless (aooct_window_eval (AOOCT_WINDOW_NONE, 0, 3) == 1.0);
  fail_unless (fabs (aooct_bessel_i0 (1.0) - 1.2660658777520082) < 1e-15);
}

GST_END_TEST;

/* A window-parameter the window cannot take is an error that names it. */
GST_START_TEST (test_fft_bad_window_parameter)
{
  FftGeom g = thesis;

  aooct_test_expect_error ("aooctfft window=tukey window-parameter=1.5",
      in_caps (&g), "window-parameter=1.5", "tukey", "[0, 1]", NULL);
}

GST_END_TEST;

/* The window is mutable while playing: a change applies at the next
 * buffer, with the same caps. */
GST_START_TEST (test_fft_window_change_while_playing)
{
  GRand *rand = aooct_test_rand_new ();
  FftGeom g = thesis;
  GstHarness *h = aooct_test_harness_new ("aooctfft");
  GstElement *fft = aooct_test_element (h, "aooctfft");
  gfloat *x, *out;
  gdouble *ref;

  g.bscans = 1;
  x = make_input (rand, &g, TRUE);
  gst_harness_set_src_caps (h, in_caps (&g));
  fail_unless_equals_int (GST_STATE (h->element), GST_STATE_PLAYING);

  out = push_pull (h, &g, x);
  ref = reference_fft (&g, x, "none");
  check_output (&g, out, ref, "before the change (none)");
  g_free (out);
  g_free (ref);

  gst_util_set_object_arg (G_OBJECT (fft), "window", "blackman");
  out = push_pull (h, &g, x);
  ref = reference_fft (&g, x, "blackman");
  check_output (&g, out, ref, "after the change (blackman)");
  g_free (out);
  g_free (ref);

  /* the parameter alone, then with it */
  gst_util_set_object_arg (G_OBJECT (fft), "window", "kaiser");
  out = push_pull (h, &g, x);
  ref = reference_fft (&g, x, "kaiser");
  check_output (&g, out, ref, "kaiser (beta 8)");
  g_free (out);
  g_free (ref);
  gst_util_set_object_arg (G_OBJECT (fft), "window-parameter", "2.5");
  out = push_pull (h, &g, x);
  ref = reference_fft (&g, x, "kaiser window-parameter=2.5");
  check_output (&g, out, ref, "kaiser, window-parameter 2.5");
  g_free (out);
  g_free (ref);

  gst_util_set_object_arg (G_OBJECT (fft), "window", "none");
  out = push_pull (h, &g, x);
  ref = reference_fft (&g, x, "none");
  check_output (&g, out, ref, "back to none");
  g_free (out);
  g_free (ref);

  gst_harness_teardown (h);
  g_free (x);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_fft_rejects_depth_input)
{
  FftGeom g = thesis;
  AooctGeometry geom;

  in_geometry (&g, &geom);
  geom.domain = AOOCT_DOMAIN_DEPTH;
  aooct_test_expect_error ("aooctfft", aooct_geometry_to_caps (&geom),
      "aooctfft needs spectral input", "domain=depth", NULL);
}

GST_END_TEST;

/* The two elements negotiate in a real chain, several B-scans per frame. */
GST_START_TEST (test_chain_negotiates)
{
  gchar *err = aooct_test_run_pipeline ("videotestsrc num-buffers=3 "
      "pattern=snow ! video/x-raw,format=GRAY16_LE,width=832,height=480 ! "
      "aooctdcsub alines-per-bscan=240 ! aooctpad ! aooctfft window=hann ! "
      "application/x-aooct,domain=depth,samples=4096,bscans=2 ! fakesink",
      60);

  fail_unless (err == NULL, "chain failed: %s", err);
}

GST_END_TEST;

static Suite *
fft_suite (void)
{
  Suite *s = suite_create ("aooctfft");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_fft_complex_thesis);
  tcase_add_test (tc, test_fft_real_input);
  tcase_add_test (tc, test_fft_windows);
  tcase_add_test (tc, test_window_tables);
  tcase_add_test (tc, test_window_special_cases);
  tcase_add_test (tc, test_fft_bad_window_parameter);
  tcase_add_test (tc, test_fft_tone);
  tcase_add_test (tc, test_fft_window_change_while_playing);
  tcase_add_test (tc, test_fft_rejects_depth_input);
  tcase_add_test (tc, test_chain_negotiates);
  /* CUDA against the CPU: test-fft-cuda.c */
  if (cuda) {
    aooct_test_add_cuda_tests (cuda);
  }
  return s;
}

GST_CHECK_MAIN (fft);
