/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctpad against a float64 implementation of spec
 * section 3 (zero-padding by FFT interpolation). */
#include <math.h>
#include <string.h>
#include <fftw3.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"

/* The raw grid aooctpad takes. */
static GstCaps *
raw_caps (gint n, gint alines, gint bscans)
{
  AooctGeometry g;

  aooct_test_geometry (&g, n, alines, bscans, 0, 0);
  return aooct_geometry_to_caps (&g);
}

/* DC-subtracted spectra as aooctdcsub delivers them: a few reflector
 * fringes (random depth, amplitude, phase per A-line) under the source
 * envelope, plus, unless @band_limited, camera noise.  The noise and the
 * Gaussian envelope, which does not reach 0 at the sensor's ends, put
 * energy into the Nyquist bin, which makes the "copied, not halved" detail
 * of the spec visible.  The band-limited ones have a sin^2 envelope that
 * goes smoothly to 0 and fringes below 0.3 cycles per sample: their
 * Nyquist bin is ~1e-7 of the signal. */
static gfloat *
make_fringes (GRand * rand, gint n, gint rows, gboolean band_limited)
{
  gfloat *x = g_new (gfloat, (gsize) n * rows);
  gint m, i, r;

  for (m = 0; m < rows; m++) {
    gdouble depth[3], amp[3], phase[3];
    for (r = 0; r < 3; r++) {
      depth[r] = g_rand_double_range (rand, 0.02, 0.3); /* cycles/sample */
      amp[r] = g_rand_double_range (rand, 50, 400);
      phase[r] = g_rand_double_range (rand, 0, 2 * G_PI);
    }
    for (i = 0; i < n; i++) {
      gdouble env = band_limited ? pow (sin (G_PI * i / (n - 1)), 2) :
          exp (-pow ((i - 0.5 * n) / (0.3 * n), 2));
      gdouble v = 0;
      for (r = 0; r < 3; r++)
        v += amp[r] * env * cos (2 * G_PI * depth[r] * i + phase[r]);
      if (!band_limited)
        v += g_rand_double_range (rand, -20, 20);
      x[(gsize) m * n + i] = (gfloat) v;
    }
  }
  return x;
}

typedef struct
{
  gint n, p1, p2, o, f;
} PadGeom;

/* The spec's formula in float64: y centred at o in P1, real FFT, bins
 * 0..P1/2 copied (Nyquist not halved), zeros to P2/2, inverse of length
 * P2, 1/P1, margins 0. */
static void
reference_pad (const PadGeom * g, const gfloat * x, gint rows, gdouble * z)
{
  gdouble *y = fftw_malloc (sizeof (gdouble) * g->p1);
  fftw_complex *spec = fftw_malloc (sizeof (fftw_complex) * (g->p2 / 2 + 1));
  gdouble *out = fftw_malloc (sizeof (gdouble) * g->p2);
  fftw_plan r2c = fftw_plan_dft_r2c_1d (g->p1, y, spec, FFTW_ESTIMATE);
  fftw_plan c2r = fftw_plan_dft_c2r_1d (g->p2, spec, out, FFTW_ESTIMATE);
  gint m, i, j0 = g->f * g->o, j1 = g->f * (g->o + g->n - 1);

  for (m = 0; m < rows; m++) {
    memset (y, 0, sizeof (gdouble) * g->p1);
    for (i = 0; i < g->n; i++)
      y[g->o + i] = x[(gsize) m * g->n + i];
    fftw_execute (r2c);
    for (i = g->p1 / 2 + 1; i <= g->p2 / 2; i++)
      spec[i][0] = spec[i][1] = 0;
    fftw_execute (c2r);
    for (i = 0; i < g->p2; i++)
      z[(gsize) m * g->p2 + i] = (i < j0 || i > j1) ? 0 : out[i] / g->p1;
  }
  fftw_destroy_plan (r2c);
  fftw_destroy_plan (c2r);
  fftw_free (y);
  fftw_free (spec);
  fftw_free (out);
}

/* Pads @rows A-lines through aooctpad with @props; returns the output
 * (g_free) after checking the caps against @g. */
static gfloat *
run_pad (const gchar * props, const PadGeom * g, const gfloat * x,
    gint alines, gint bscans)
{
  gchar *launch = g_strdup_printf ("aooctpad %s", props);
  GstHarness *h = aooct_test_harness_new (launch);
  gsize rows = (gsize) alines * bscans;
  AooctGeometry out;
  gfloat *z;

  z = aooct_test_push_pull (h, raw_caps (g->n, alines, bscans), x,
      rows * g->n * sizeof (gfloat), rows * g->p2 * sizeof (gfloat));
  aooct_test_geometry_grid (&out, g->n, alines, bscans, g->p1, g->p2, g->o,
      g->f);
  aooct_test_assert_caps (h, &out);
  gst_harness_teardown (h);
  g_free (launch);
  return z;
}

/* Output against the float64 formula: within float32 FFT rounding,
 * relative to the largest sample of each A-line; margins exactly 0. */
static void
check_against_reference (const PadGeom * g, const gfloat * x,
    const gfloat * z, gint rows)
{
  gdouble *ref = g_new (gdouble, (gsize) rows * g->p2);
  gint m, j, j0 = g->f * g->o, j1 = g->f * (g->o + g->n - 1);
  gdouble worst = 0;

  reference_pad (g, x, rows, ref);
  for (m = 0; m < rows; m++) {
    const gfloat *zm = z + (gsize) m * g->p2;
    const gdouble *rm = ref + (gsize) m * g->p2;
    gdouble peak = 0;

    for (j = 0; j < g->p2; j++)
      peak = MAX (peak, fabs (rm[j]));
    fail_unless (peak > 10, "test spectra too weak");
    for (j = 0; j < g->p2; j++) {
      gdouble err = fabs (zm[j] - rm[j]) / peak;
      if (j < j0 || j > j1)
        fail_unless (zm[j] == 0.0f, "A-line %d margin sample %d is %g, not 0",
            m, j, zm[j]);
      fail_unless (err < 2e-6, "A-line %d sample %d: %.9g, expected %.9g "
          "(relative error %.3g)", m, j, zm[j], rm[j], err);
      worst = MAX (worst, err);
    }
  }
  GST_INFO ("N %d P1 %d P2 %d: worst relative error %.3g", g->n, g->p1, g->p2,
      worst);
  g_free (ref);
}

static void
pad_case (const gchar * props, const PadGeom * g, gint alines, gint bscans)
{
  GRand *rand = aooct_test_rand_new ();
  gint rows = alines * bscans;
  gfloat *x = make_fringes (rand, g->n, rows, FALSE);
  gfloat *z = run_pad (props, g, x, alines, bscans);

  check_against_reference (g, x, z, rows);
  g_free (x);
  g_free (z);
  g_rand_free (rand);
}

/* The thesis shape, several B-scans per buffer. */
GST_START_TEST (test_pad_thesis_shape)
{
  PadGeom g = { 832, 2048, 4096, 608, 2 };
  pad_case ("", &g, 20, 3);
}

GST_END_TEST;

GST_START_TEST (test_pad_odd_n_factor4)
{
  PadGeom g = { 1500, 2048, 8192, 274, 4 };
  pad_case ("factor=4", &g, 9, 1);
}

GST_END_TEST;

GST_START_TEST (test_pad_factor1)
{
  PadGeom g = { 832, 2048, 2048, 608, 1 };
  pad_case ("factor=1", &g, 10, 2);
}

GST_END_TEST;

GST_START_TEST (test_pad_explicit_size)
{
  PadGeom g = { 832, 4096, 8192, 1632, 2 };
  pad_case ("size=4096", &g, 7, 1);
}

GST_END_TEST;

/* N = 2048 fills P1 (o = 0): no left margin, the data region ends at
 * f * 2047; and the spec's second example, N = 2500. */
GST_START_TEST (test_pad_edge_geometries)
{
  PadGeom full = { 2048, 2048, 4096, 0, 2 };
  PadGeom big = { 2500, 4096, 8192, 798, 2 };
  PadGeom tiny = { 5, 8, 16, 1, 2 };
  pad_case ("", &full, 5, 1);
  pad_case ("", &big, 5, 1);
  pad_case ("size=8", &tiny, 3, 1);
}

GST_END_TEST;

/* Interpolation keeps the measured samples: z[f * (o + n)] == x[n] +
 * (-1)^(o + n) Y[P1/2] / P1 (the Nyquist bin, copied rather than halved,
 * counts twice at f > 1; exactly x[n] for f = 1), so == x[n] for
 * band-limited spectra. */
static void
check_reproduction (gint f, gboolean band_limited)
{
  GRand *rand = aooct_test_rand_new ();
  const gint n = 832, rows = 12;
  gfloat *x = make_fringes (rand, n, rows, band_limited);
  PadGeom g = { n, 2048, 2048 * f, 608, f };
  gchar *props = g_strdup_printf ("factor=%d", f);
  gfloat *z = run_pad (props, &g, x, rows, 1);
  gdouble most_nyquist = 0;
  gint m, i;

  for (m = 0; m < rows; m++) {
    gdouble peak = 0, nyquist = 0;
    for (i = 0; i < n; i++) {
      peak = MAX (peak, fabs (x[m * n + i]));
      nyquist += ((g.o + i) % 2 ? -1.0 : 1.0) * x[m * n + i];
    }
    if (band_limited)
      fail_unless (fabs (nyquist) / g.p1 < 1e-6 * peak);
    most_nyquist = MAX (most_nyquist, fabs (nyquist) / g.p1 / peak);
    for (i = 0; i < n; i++) {
      gfloat got = z[(gsize) m * g.p2 + g.f * (g.o + i)];
      gdouble want = x[m * n + i];
      if (f > 1)
        want += ((g.o + i) % 2 ? -1.0 : 1.0) * nyquist / g.p1;
      fail_unless (fabs (got - want) < 2e-6 * peak, "factor %d A-line %d "
          "raw sample %d: %.7g, expected %.7g (input %.7g)", g.f, m, i, got,
          want, x[m * n + i]);
    }
    for (i = 0; i < g.p2; i++)
      if (i < g.f * g.o || i > g.f * (g.o + n - 1))
        fail_unless (z[(gsize) m * g.p2 + i] == 0.0f);
  }
  /* the test must be able to tell a halved Nyquist bin from a copied one */
  fail_unless (band_limited || most_nyquist > 2e-5,
      "test spectra have too little Nyquist energy (%g)", most_nyquist);
  g_free (z);
  g_free (props);
  g_free (x);
  g_rand_free (rand);
}

GST_START_TEST (test_pad_reproduces_input)
{
  const gint factors[] = { 1, 2, 4, 8 };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (factors); c++) {
    check_reproduction (factors[c], TRUE);
    check_reproduction (factors[c], FALSE);
  }
}

GST_END_TEST;

GST_START_TEST (test_pad_bad_properties)
{
  aooct_test_expect_error ("aooctpad size=1000", raw_caps (832, 4, 1),
      "size=1000", "power of two", NULL);
  aooct_test_expect_error ("aooctpad size=512", raw_caps (832, 4, 1),
      "size=512", ">= the 832 samples", NULL);
  aooct_test_expect_error ("aooctpad factor=3", raw_caps (832, 4, 1),
      "factor=3", "power of two", NULL);
  aooct_test_expect_error ("aooctpad factor=48", raw_caps (832, 4, 1),
      "factor=48", "power of two", NULL);
  aooct_test_expect_error ("aooctpad size=1048576 factor=2", raw_caps (832, 4,
          1), "size 1048576 x factor 2", "exceeds", NULL);
}

GST_END_TEST;

/* aooctpad works on the raw grid only: a second aooctpad, complex or depth
 * input cannot be padded. */
GST_START_TEST (test_pad_rejects_wrong_input)
{
  AooctGeometry g;

  aooct_test_geometry_grid (&g, 832, 4, 1, 2048, 4096, 608, 2);
  aooct_test_expect_error ("aooctpad", aooct_geometry_to_caps (&g),
      "un-padded real spectral", "pad-factor=2", NULL);
  aooct_test_geometry_grid (&g, 832, 4, 1, 2048, 2048, 608, 1);
  aooct_test_expect_error ("aooctpad", aooct_geometry_to_caps (&g),
      "un-padded real spectral", "samples=2048", NULL);
  aooct_test_geometry (&g, 832, 4, 1, 0, 0);
  g.sample_type = AOOCT_SAMPLE_COMPLEX;
  aooct_test_expect_error ("aooctpad", aooct_geometry_to_caps (&g),
      "un-padded real spectral", "sample-type=complex", NULL);
  g.domain = AOOCT_DOMAIN_DEPTH;
  aooct_test_expect_error ("aooctpad", aooct_geometry_to_caps (&g),
      "un-padded real spectral", "domain=depth", NULL);
}

GST_END_TEST;

static Suite *
pad_suite (void)
{
  Suite *s = suite_create ("aooctpad");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_pad_thesis_shape);
  tcase_add_test (tc, test_pad_odd_n_factor4);
  tcase_add_test (tc, test_pad_factor1);
  tcase_add_test (tc, test_pad_explicit_size);
  tcase_add_test (tc, test_pad_edge_geometries);
  tcase_add_test (tc, test_pad_reproduces_input);
  tcase_add_test (tc, test_pad_bad_properties);
  tcase_add_test (tc, test_pad_rejects_wrong_input);
  /* CUDA against the CPU: test-pad-cuda.c */
  if (cuda) {
    aooct_test_add_cuda_tests (cuda);
  }
  return s;
}

GST_CHECK_MAIN (pad);
