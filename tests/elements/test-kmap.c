/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctkmap against the spec (section 4), with float64
 * expectations built here, independently of common/aooct-calib. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <fftw3.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-caps.h"

/* ---- helpers ---------------------------------------------------------- */

/* Pushes @in through @h (caps from @g) and returns a copy of the output. */
static gfloat *
push_pull (GstHarness * h, const AooctGeometry * g, const gfloat * in)
{
  return aooct_test_push_pull (h, aooct_geometry_to_caps (g), in,
      aooct_geometry_buffer_bytes (g), aooct_geometry_buffer_bytes (g));
}

static GObject *
kmap_of (GstHarness * h)
{
  return G_OBJECT (aooct_test_element (h, "aooctkmap"));
}

/* aooctkmap only marks its output k-linear. */
static void
assert_k_linear_caps (GstHarness * h, const AooctGeometry * g)
{
  AooctGeometry out = *g;

  out.k_linear = TRUE;
  aooct_test_assert_caps (h, &out);
}

/* lambda(p) as the spec defines it: polynomial, or linear between the
 * values of a file */
typedef struct
{
  gint n;
  const gdouble *table;         /* N values, or NULL */
  gdouble c[4];
} RefCal;

static gdouble
ref_lambda (const RefCal * rc, gdouble p)
{
  gint i;

  if (rc->table == NULL)
    return rc->c[0] + rc->c[1] * p + rc->c[2] * p * p + rc->c[3] * p * p * p;
  i = (gint) floor (p);
  if (i >= rc->n - 1)
    return rc->table[rc->n - 1];
  return rc->table[i] + (p - i) * (rc->table[i + 1] - rc->table[i]);
}

/* The spec's linear lambda-to-k resampling of one A-line in float64:
 * bracket by bisection over the sampled wavelengths. */
static void
ref_kmap (const RefCal * rc, const AooctGeometry * g, const gfloat * z,
    gdouble * out)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  gdouble *lam = g_new (gdouble, g->samples);
  gdouble k0 = 2 * G_PI / ref_lambda (rc, 0);
  gdouble k1 = 2 * G_PI / ref_lambda (rc, rc->n - 1);
  gint i, dir;

  for (i = j0; i <= j1; i++)
    lam[i] = ref_lambda (rc, (gdouble) i / g->pad_factor - g->pad_offset);
  dir = lam[j1] > lam[j0] ? 1 : -1;
  for (i = 0; i < g->samples; i++) {
    gdouble lp;
    gint lo = j0, hi = j1 - 1;

    if (i < j0 || i > j1) {
      out[i] = 0;
      continue;
    }
    lp = 2 * G_PI / (k0 + (i - j0) * (k1 - k0) / (j1 - j0));
    /* largest l in [j0, j1-1] with lambda_l at or before lambda'_i */
    while (lo < hi) {
      gint mid = (lo + hi + 1) / 2;
      if ((lp - lam[mid]) * dir >= 0)
        lo = mid;
      else
        hi = mid - 1;
    }
    out[i] = z[lo] + ((gdouble) z[lo + 1] - z[lo]) * (lp - lam[lo]) /
        (lam[lo + 1] - lam[lo]);
  }
  g_free (lam);
}

/* Realistic OCT fringes: a few reflectors (cosines in k(p)) of random
 * depth and strength, plus noise, at every sample of the data region;
 * random garbage in the margins (kmap must zero them). */
static gfloat *
make_fringes (GRand * rand, const RefCal * rc, const AooctGeometry * g)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  gfloat *z = g_new (gfloat, aooct_test_total_samples (g));
  gsize row;
  gint i, r;

  for (row = 0; row < (gsize) g->alines * g->bscans; row++) {
    gdouble depth[3], amp[3], phase[3];
    gfloat *a = z + row * g->samples;

    for (r = 0; r < 3; r++) {
      /* depth in nm: up to ~1/3 of the sensor's depth range */
      depth[r] = g_rand_double_range (rand, 2e4, 4e5);
      amp[r] = g_rand_double_range (rand, 50, 800);
      phase[r] = g_rand_double_range (rand, 0, 2 * G_PI);
    }
    for (i = 0; i < g->samples; i++) {
      gdouble p = (gdouble) i / g->pad_factor - g->pad_offset, v = 0;

      if (i < j0 || i > j1) {
        a[i] = g_rand_double_range (rand, -1000, 1000);
        continue;
      }
      for (r = 0; r < 3; r++)
        v += amp[r] * cos (2 * (2 * G_PI / ref_lambda (rc, p)) * depth[r] +
            phase[r]);
      a[i] = v + g_rand_double_range (rand, -5, 5);
    }
  }
  return z;
}

static gdouble
max_abs (const gfloat * z, gsize n)
{
  gdouble m = 0;
  gsize i;

  for (i = 0; i < n; i++)
    m = MAX (m, fabs (z[i]));
  return m;
}

/* Runs aooctkmap with (@file or @coeffs) on @g and compares every sample
 * with the float64 reference; margins must be exactly 0. */
static void
check_against_reference (GRand * rand, const RefCal * rc, const gchar * file,
    const gchar * coeffs, const AooctGeometry * g)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  GstHarness *h = aooct_test_harness_new ("aooctkmap");
  gfloat *z = make_fringes (rand, rc, g), *out;
  gdouble *ref = g_new (gdouble, g->samples), tol, worst = 0;
  gsize row;
  gint i;

  g_object_set (kmap_of (h), "wavelength-file", file, "wavelength-coeffs",
      coeffs, NULL);
  out = push_pull (h, g, z);
  assert_k_linear_caps (h, g);
  /* float32 data and fraction: rounding of t (6e-8 of z[l+1] - z[l]) and
   * of three float operations, a few ulp of the signal's scale */
  tol = 4e-7 * max_abs (z, aooct_test_total_samples (g));
  for (row = 0; row < (gsize) g->alines * g->bscans; row++) {
    const gfloat *o = out + row * g->samples;

    ref_kmap (rc, g, z + row * g->samples, ref);
    for (i = 0; i < g->samples; i++) {
      if (i < j0 || i > j1) {
        fail_unless (o[i] == 0.0f, "margin sample %d of row %d is %g", i,
            (gint) row, o[i]);
        continue;
      }
      worst = MAX (worst, fabs (o[i] - ref[i]));
      fail_unless (fabs (o[i] - ref[i]) <= tol, "%s%s f=%d row %d sample %d:"
          " %.9g, float64 reference %.9g", file ? file : "", coeffs ? coeffs :
          "", g->pad_factor, (gint) row, i, o[i], ref[i]);
    }
  }
  GST_INFO ("%s f=%d: max error %g (tolerance %g)", file ? file : coeffs,
      g->pad_factor, worst, tol);
  gst_harness_teardown (h);
  g_free (z);
  g_free (out);
  g_free (ref);
}

/* ---- tests ------------------------------------------------------------ */

/* lambda(p) = 2 pi / (K0 + p dK) is already linear in k: kmap must give
 * back its input, on the raw grid and on a padded grid. */
GST_START_TEST (test_identity_on_k_linear_calibration)
{
  GRand *rand = aooct_test_rand_new ();
  const gint n = 600;
  const gdouble ka = 2 * G_PI / 900.0, kb = 2 * G_PI / 800.0;
  gdouble *lam = g_new (gdouble, n);
  RefCal rc = { n, lam, {0} };
  gchar *path;
  gint f, i, p;

  for (p = 0; p < n; p++)
    lam[p] = 2 * G_PI / (ka + p * (kb - ka) / (n - 1));
  path = aooct_test_write_values ("wavelength per raw pixel, nm", lam, n);

  for (f = 0; f <= 2; f += 2) {
    AooctGeometry g;
    GstHarness *h = aooct_test_harness_new ("aooctkmap");
    gfloat *z, *out;
    gdouble scale, worst_pix = 0, worst = 0;
    gint j0, j1;
    gsize row;

    aooct_test_geometry (&g, n, 5, 1, 0, f);
    j0 = aooct_geometry_data_start (&g);
    j1 = aooct_geometry_data_end (&g);
    z = make_fringes (rand, &rc, &g);
    scale = max_abs (z, aooct_test_total_samples (&g));
    g_object_set (kmap_of (h), "wavelength-file", path, NULL);
    out = push_pull (h, &g, z);
    for (row = 0; row < (gsize) g.alines; row++) {
      for (i = 0; i < g.samples; i++) {
        gsize k = row * g.samples + i;
        gdouble d = fabs (out[k] - z[k]);

        if (i < j0 || i > j1) {
          fail_unless (out[k] == 0.0f);
        } else if ((i - j0) % MAX (f, 1) == 0) {
          /* on a raw pixel: identity up to float32 rounding */
          worst_pix = MAX (worst_pix, d);
          fail_unless (d <= 1e-6 * scale, "f=%d sample %d: %.9g != %.9g", f,
              i, out[k], z[k]);
        } else {
          /* between pixels, lambda is linear in p (the file's model) while
           * 2 pi / k is not: a few 1e-5 pixel of shift */
          worst = MAX (worst, d);
          fail_unless (d <= 1e-3 * scale, "f=%d sample %d: %.9g != %.9g", f,
              i, out[k], z[k]);
        }
      }
    }
    GST_INFO ("f=%d: worst at pixels %g, between %g, scale %g", f, worst_pix,
        worst, scale);
    gst_harness_teardown (h);
    g_free (z);
    g_free (out);

    /* and exactly what the float64 reference of the spec gives */
    aooct_test_geometry (&g, n, 3, 2, 0, f);
    check_against_reference (rand, &rc, path, NULL, &g);
  }
  g_unlink (path);
  g_free (path);
  g_free (lam);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_nonlinear_against_reference)
{
  GRand *rand = aooct_test_rand_new ();
  const gint n = 700 + g_rand_int_range (rand, 0, 200);
  struct
  {
    const gchar *coeffs;
    gdouble c[4];
  } polys[] = {
    {"800,0.08,-2e-6", {800, 0.08, -2e-6, 0}},
    {"880, -0.07, -3e-6, 1e-10", {880, -0.07, -3e-6, 1e-10}},
  };
  gdouble *lam = g_new (gdouble, n);
  AooctGeometry g;
  guint k;
  gint f, p, dir;

  for (k = 0; k < G_N_ELEMENTS (polys); k++) {
    RefCal rc = { n, NULL, {0}
    };
    memcpy (rc.c, polys[k].c, sizeof (rc.c));
    for (f = 0; f <= 4; f += 2) {
      aooct_test_geometry (&g, n, 6, 2, 0, f);
      check_against_reference (rand, &rc, NULL, polys[k].coeffs, &g);
    }
  }
  /* measured-looking files: a smooth curve with a random ripple,
   * increasing and decreasing */
  for (dir = 1; dir >= -1; dir -= 2) {
    RefCal rc = { n, lam, {0}
    };
    gchar *path;

    for (p = 0; p < n; p++)
      lam[p] = (dir > 0 ? 790 : 890) + dir * (0.1 * p - 8e-6 * p * p) +
          0.01 * g_rand_double_range (rand, -1, 1);
    path = aooct_test_write_values ("wavelength per raw pixel, nm", lam, n);
    for (f = 0; f <= 2; f += 2) {
      aooct_test_geometry (&g, n, 6, 2, 0, f);
      check_against_reference (rand, &rc, path, NULL, &g);
    }
    g_unlink (path);
    g_free (path);
  }
  g_free (lam);
  g_rand_free (rand);
}

GST_END_TEST;

/* Fraction of the power of a real A-line (bins 1 .. L/2) within +-2 bins of
 * its peak, by a float64 FFT; also returns the peak bin. */
static gdouble
peak_concentration (const gfloat * x, gint len, gint * peak)
{
  gdouble *in = fftw_alloc_real (len);
  fftw_complex *spec = fftw_alloc_complex (len / 2 + 1);
  fftw_plan plan = fftw_plan_dft_r2c_1d (len, in, spec, FFTW_ESTIMATE);
  gdouble total = 0, near = 0, best = -1;
  gint m;

  for (m = 0; m < len; m++)
    in[m] = x[m];
  fftw_execute (plan);
  for (m = 1; m <= len / 2; m++) {
    gdouble pw = spec[m][0] * spec[m][0] + spec[m][1] * spec[m][1];
    total += pw;
    if (pw > best) {
      best = pw;
      *peak = m;
    }
  }
  for (m = MAX (1, *peak - 2); m <= MIN (len / 2, *peak + 2); m++)
    near += spec[m][0] * spec[m][0] + spec[m][1] * spec[m][1];
  fftw_destroy_plan (plan);
  fftw_free (in);
  fftw_free (spec);
  return near / total;
}

/* A single reflector sampled on a grating spectrometer's grid (non-linear
 * in k) is a chirp; after kmap it is one sharp FFT peak at the expected
 * bin. */
GST_START_TEST (test_tone_becomes_sharp_peak)
{
  const gint n = 1024, bins[] = { 40, 100, 200 };
  /* lambda nearly linear in p, as for a grating: k(p) is a chirp */
  const gdouble c[4] = { 800, 0.08, -1e-5, 0 };
  const gchar *coeffs = "800,0.08,-1e-5";
  RefCal rc = { n, NULL, {c[0], c[1], c[2], c[3]} };
  AooctGeometry g;
  GstHarness *h = aooct_test_harness_new ("aooctkmap");
  gfloat *z, *out;
  gdouble k0 = 2 * G_PI / ref_lambda (&rc, 0);
  gdouble dk = (2 * G_PI / ref_lambda (&rc, n - 1) - k0) / (n - 1);
  gint r, p;

  aooct_test_geometry (&g, n, G_N_ELEMENTS (bins), 1, 0, 0);
  z = g_new (gfloat, aooct_test_total_samples (&g));
  for (r = 0; r < (gint) G_N_ELEMENTS (bins); r++) {
    /* depth z0 whose fringe 2 k z0 advances by 2 pi bins[r] / N per
     * k-linear sample */
    gdouble z0 = G_PI * bins[r] / (n * fabs (dk));
    for (p = 0; p < n; p++)
      z[r * n + p] = 1000 * cos (2 * (2 * G_PI / ref_lambda (&rc, p)) * z0);
  }
  g_object_set (kmap_of (h), "wavelength-coeffs", coeffs, NULL);
  out = push_pull (h, &g, z);
  for (r = 0; r < (gint) G_N_ELEMENTS (bins); r++) {
    gint peak_in = 0, peak_out = 0;
    gdouble before = peak_concentration (z + r * n, n, &peak_in);
    gdouble after = peak_concentration (out + r * n, n, &peak_out);

    GST_INFO ("bin %d: power within +-2 bins of the peak %.4f before kmap "
        "(peak %d), %.4f after (peak %d)", bins[r], before, peak_in, after,
        peak_out);
    fail_unless_equals_int (peak_out, bins[r]);
    fail_unless (after > 0.99, "bin %d: only %.4f of the power in the peak "
        "after kmap", bins[r], after);
    fail_unless (before < 0.5, "bin %d: the chirp is already sharp (%.4f); "
        "the test proves nothing", bins[r], before);
  }
  gst_harness_teardown (h);
  g_free (z);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_passthrough)
{
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry g;
  gint round;

  aooct_test_geometry (&g, 300, 4, 1, 0, 2);
  for (round = 0; round < 2; round++) {
    GstHarness *h = aooct_test_harness_new ("aooctkmap");
    gsize bytes = aooct_test_total_samples (&g) * sizeof (gfloat), i;
    gfloat *z = g_new (gfloat, aooct_test_total_samples (&g));
    GstBuffer *in, *out;

    for (i = 0; i < aooct_test_total_samples (&g); i++)
      z[i] = g_rand_double_range (rand, -1000, 1000);
    /* round 0: passthrough=true on non-k-linear input;
     * round 1: k-linear input; neither needs a calibration */
    if (round == 0)
      g_object_set (kmap_of (h), "passthrough", TRUE, NULL);
    g.k_linear = round == 1;
    gst_harness_set_src_caps (h, aooct_geometry_to_caps (&g));
    in = aooct_test_buffer_new (z, bytes);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless (gst_buffer_memcmp (out, 0, z, bytes) == 0);
    fail_unless_equals_int (gst_buffer_get_size (out), bytes);
    assert_k_linear_caps (h, &g);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    fail_if (aooct_test_pop_error (h) != NULL);
    gst_harness_teardown (h);
    g_free (z);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Sets @file / @coeffs, pushes one buffer on an N-sample raw grid and
 * expects an element error mentioning @what1 and @what2. */
static void
expect_error (gint n, const gchar * file, const gchar * coeffs,
    const gchar * what1, const gchar * what2)
{
  GstHarness *h = aooct_test_harness_new ("aooctkmap");
  AooctGeometry g;

  aooct_test_geometry (&g, n, 2, 1, 0, 0);
  g_object_set (kmap_of (h), "wavelength-file", file, "wavelength-coeffs",
      coeffs, NULL);
  aooct_test_push_expect_error (h, aooct_geometry_to_caps (&g),
      aooct_geometry_buffer_bytes (&g), what1, what2, NULL);
  gst_harness_teardown (h);
}

static void
expect_file_error (const gchar * path, const AooctTestBadFile * bad,
    gpointer unused)
{
  GstHarness *h = aooct_test_harness_new ("aooctkmap");
  AooctGeometry g;

  aooct_test_geometry (&g, 4, 2, 1, 0, 0);
  g_object_set (kmap_of (h), "wavelength-file", path, NULL);
  aooct_test_push_expect_error (h, aooct_geometry_to_caps (&g),
      aooct_geometry_buffer_bytes (&g), "wavelength-file", path, bad->line,
      bad->what, NULL);
  gst_harness_teardown (h);
}

GST_START_TEST (test_bad_calibrations)
{
  const AooctTestBadFile files[] = {
    {"800\n802\n801\n803\n", ":3:", "strictly increasing"},
    {"0\n801\n802\n803\n", ":1:", "not positive"},
  };
  struct
  {
    const gchar *coeffs;
    const gchar *what;
  } coeffs[] = {
    {"800,0.1,0,0,1", "has 5 coefficients"},
    {"800,x", "not a number"},
    {"800,inf", "not finite"},
    {"800,1,-0.01", "not strictly monotonic"},  /* turns at p = 50 */
    {"800", "constant"},
    {"10,-1", "not positive"},
    {"1e306,1e306,1e306,1e306", "not finite"},
  };
  guint k;

  aooct_test_for_each_bad_file (files, G_N_ELEMENTS (files),
      expect_file_error, NULL);
  for (k = 0; k < G_N_ELEMENTS (coeffs); k++)
    expect_error (64, NULL, coeffs[k].coeffs, "wavelength-coeffs",
        coeffs[k].what);
  expect_error (64, NULL, NULL, "neither", "wavelength-file");
  expect_error (64, "", "", "neither", "wavelength-coeffs");
  expect_error (64, "/tmp/x.txt", "800,0.1", "both", "wavelength-coeffs");
}

GST_END_TEST;

GST_START_TEST (test_wrong_input)
{
  GstHarness *h = aooct_test_harness_new ("aooctkmap");
  AooctGeometry g;

  aooct_test_geometry (&g, 64, 2, 1, 0, 0);
  g.sample_type = AOOCT_SAMPLE_COMPLEX;
  g_object_set (kmap_of (h), "wavelength-coeffs", "800,0.1", NULL);
  aooct_test_push_expect_error (h, aooct_geometry_to_caps (&g),
      aooct_geometry_buffer_bytes (&g), "aooctkmap", "spectral real",
      "sample-type=complex", NULL);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
kmap_suite (void)
{
  Suite *s = suite_create ("aooctkmap");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_identity_on_k_linear_calibration);
  tcase_add_test (tc, test_nonlinear_against_reference);
  tcase_add_test (tc, test_tone_becomes_sharp_peak);
  tcase_add_test (tc, test_passthrough);
  tcase_add_test (tc, test_bad_calibrations);
  tcase_add_test (tc, test_wrong_input);
  /* CUDA against the CPU: test-kmap-cuda.c */
  if (cuda) {
    aooct_test_add_cuda_tests (cuda);
  }
  return s;
}

GST_CHECK_MAIN (kmap);
