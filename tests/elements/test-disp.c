/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctdisp against the spec (section 5), float64
 * expectations built here. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-caps.h"
#include "aooct-ref64.h"

/* aooctdisp works on k-linear spectra. */
static void
make_geometry (AooctGeometry * g, gint n, gint alines, gint bscans, gint factor)
{
  aooct_test_geometry (g, n, alines, bscans, 0, factor);
  g->k_linear = TRUE;
}

static GObject *
disp_of (GstHarness * h)
{
  return G_OBJECT (aooct_test_element (h, "aooctdisp"));
}

static gfloat *
random_spectra (GRand * rand, const AooctGeometry * g)
{
  gfloat *x = g_new (gfloat, aooct_test_total_samples (g));
  gsize i;

  for (i = 0; i < aooct_test_total_samples (g); i++)
    x[i] = 800 * cos (0.37 * (i % g->samples)) + g_rand_double_range (rand,
        -50, 50);
  return x;
}

/* Pushes @x and checks the complex output against x[i] * (re[i] + j im[i])
 * with the float64 weights @re/@im (P2 each); checks the caps too. */
static void
push_and_check (GstHarness * h, const AooctGeometry * g, const gfloat * x,
    const gdouble * re, const gdouble * im)
{
  const gsize total = aooct_test_total_samples (g);
  gfloat *out = aooct_test_push_pull (h, NULL, x, total * sizeof (gfloat),
      total * 2 * sizeof (gfloat));
  AooctGeometry og = *g;
  gsize k;

  /* only the sample type changes */
  og.sample_type = AOOCT_SAMPLE_COMPLEX;
  aooct_test_assert_caps (h, &og);

  for (k = 0; k < total; k++) {
    const gfloat *c = out + 2 * k;
    gint i = k % g->samples;
    gdouble er = x[k] * re[i], ei = x[k] * im[i];
    /* float32 weight and product: a few ulp of |x| */
    gdouble tol = 3e-7 * fabs (x[k]) * MAX (1.0, hypot (re[i], im[i]));

    fail_unless (fabs (c[0] - er) <= tol && fabs (c[1] - ei) <= tol,
        "sample %d of row %d: (%.9g, %.9g), expected (%.9g, %.9g)", i,
        (gint) (k / g->samples), c[0], c[1], er, ei);
  }
  g_free (out);
}

static void
coeff_weights (const AooctGeometry * g, gdouble a2, gdouble a3, gdouble * re,
    gdouble * im)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  gint i;

  for (i = 0; i < g->samples; i++) {
    gdouble u = 2.0 * (i - j0) / (j1 - j0) - 1.0;
    gdouble phi = a2 * u * u + a3 * u * u * u;
    re[i] = cos (phi);
    im[i] = sin (phi);
  }
}

GST_START_TEST (test_coefficients_and_change_while_playing)
{
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = aooct_test_harness_new ("aooctdisp");
  AooctGeometry g;
  gdouble *re, *im, a2, a3;
  gfloat *x;
  gint round;

  make_geometry (&g, 500, 6, 2, 2);
  re = g_new (gdouble, g.samples);
  im = g_new (gdouble, g.samples);
  gst_harness_set_src_caps (h, aooct_geometry_to_caps (&g));

  /* default: w = 1, only the conversion to complex */
  x = random_spectra (rand, &g);
  coeff_weights (&g, 0, 0, re, im);
  push_and_check (h, &g, x, re, im);
  g_free (x);

  /* a2/a3 set while PLAYING apply from the next buffer on */
  for (round = 0; round < 3; round++) {
    a2 = g_rand_double_range (rand, -60, 60);
    a3 = g_rand_double_range (rand, -30, 30);
    g_object_set (disp_of (h), "a2", a2, "a3", a3, NULL);
    fail_unless_equals_int (GST_STATE (disp_of (h)), GST_STATE_PLAYING);
    x = random_spectra (rand, &g);
    coeff_weights (&g, a2, a3, re, im);
    push_and_check (h, &g, x, re, im);
    /* unchanged properties: same weights for the following buffer */
    push_and_check (h, &g, x, re, im);
    g_free (x);
  }
  fail_if (aooct_test_pop_error (h) != NULL);
  gst_harness_teardown (h);
  g_free (re);
  g_free (im);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_phase_file_mixed_records)
{
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = aooct_test_harness_new ("aooctdisp");
  GString *text = g_string_new ("# dispersion weights, one per sample\n");
  AooctGeometry g;
  gdouble *re, *im;
  gfloat *x;
  gchar *path;
  gint i, n_phase = 0;

  make_geometry (&g, 200, 4, 1, 0);
  re = g_new (gdouble, g.samples);
  im = g_new (gdouble, g.samples);
  for (i = 0; i < g.samples; i++) {
    if (g_rand_boolean (rand)) {
      gdouble phi = g_rand_double_range (rand, -10, 10);
      re[i] = cos (phi);
      im[i] = sin (phi);
      g_string_append_printf (text, "%.17g\n", phi);
      n_phase++;
    } else {
      re[i] = g_rand_double_range (rand, -1.5, 1.5);
      im[i] = g_rand_double_range (rand, -1.5, 1.5);
      g_string_append_printf (text, "  %.17g\t%.17g  # re im\r\n", re[i],
          im[i]);
    }
    if (i % 50 == 7)
      g_string_append (text, "\n");
  }
  fail_unless (n_phase > 10 && n_phase < g.samples - 10);
  path = aooct_test_write_temp (text->str);
  g_object_set (disp_of (h), "phase-file", path, NULL);
  gst_harness_set_src_caps (h, aooct_geometry_to_caps (&g));
  x = random_spectra (rand, &g);
  push_and_check (h, &g, x, re, im);

  /* a2 set while a phase file is in use (half of a switch from the file
   * to a2/a3, as one g_object_set() makes it): the stream goes on with
   * the file's weights, no error (issue 19, item 7) */
  g_object_set (disp_of (h), "a2", 1.5, NULL);
  push_and_check (h, &g, x, re, im);
  fail_unless (aooct_test_pop_error (h) == NULL);
  fail_unless (aooct_test_pop_warning (h) == NULL);
  /* still both at the next buffer: not half a change but a mistake, which
   * a warning names; the file's weights stay */
  push_and_check (h, &g, x, re, im);
  aooct_test_assert_warning (h, "phase-file", path, "a2=1.5",
      "last consistent settings", NULL);
  fail_unless (aooct_test_pop_error (h) == NULL);
  /* the switch completed: a2's weights from the next buffer */
  g_object_set (disp_of (h), "phase-file", NULL, NULL);
  coeff_weights (&g, 1.5, 0.0, re, im);
  push_and_check (h, &g, x, re, im);
  fail_unless (aooct_test_pop_error (h) == NULL);
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);

  gst_harness_teardown (h);
  g_unlink (path);
  g_free (path);
  g_free (x);
  g_free (re);
  g_free (im);
  g_string_free (text, TRUE);
  g_rand_free (rand);
}

GST_END_TEST;

/* Pushes one buffer into aooctdisp with @file, @a2, @a3 and expects an
 * element error mentioning @what1 and @what2. */
static void
expect_error (const AooctGeometry * g, const gchar * file, gdouble a2,
    gdouble a3, const gchar * what1, const gchar * what2)
{
  GstHarness *h = aooct_test_harness_new ("aooctdisp");

  g_object_set (disp_of (h), "phase-file", file, "a2", a2, "a3", a3, NULL);
  aooct_test_push_expect_error (h, aooct_geometry_to_caps (g),
      aooct_geometry_buffer_bytes (g), what1, what2, NULL);
  gst_harness_teardown (h);
}

static void
expect_file_error (const gchar * path, const AooctTestBadFile * bad,
    gpointer geom)
{
  GstHarness *h = aooct_test_harness_new ("aooctdisp");

  g_object_set (disp_of (h), "phase-file", path, NULL);
  aooct_test_push_expect_error (h, aooct_geometry_to_caps (geom),
      aooct_geometry_buffer_bytes (geom), "phase-file", path, bad->line,
      bad->what, NULL);
  gst_harness_teardown (h);
}

GST_START_TEST (test_errors)
{
  const AooctTestBadFile files[] = {
    {"0.1\n0.2 0.3 0.4\n0.3\n0.4\n", ":2:", "more than 2"},
  };
  AooctGeometry g;
  GParamSpec *pspec;
  GValue v = G_VALUE_INIT;
  GstElement *e;
  guint k;

  make_geometry (&g, 4, 2, 1, 0);
  aooct_test_for_each_bad_file (files, G_N_ELEMENTS (files),
      expect_file_error, &g);
  {
    gchar *path = aooct_test_write_temp ("0\n0\n0\n0\n");
    expect_error (&g, path, 0, -2, "phase-file", "a3=-2");
    g_unlink (path);
    g_free (path);
  }
  g.sample_type = AOOCT_SAMPLE_COMPLEX;
  expect_error (&g, NULL, 0, 0, "aooctdisp", "spectral real");
  g.sample_type = AOOCT_SAMPLE_REAL;
  g.domain = AOOCT_DOMAIN_DEPTH;
  expect_error (&g, NULL, 0, 0, "aooctdisp", "domain=depth");

  /* NaN, infinities and out-of-range values are refused by the property */
  e = gst_element_factory_make ("aooctdisp", NULL);
  fail_unless (e != NULL);
  g_value_init (&v, G_TYPE_DOUBLE);
  for (k = 0; k < 2; k++) {
    pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        k ? "a3" : "a2");
    g_value_set_double (&v, NAN);
    fail_if (g_param_value_is_valid (pspec, &v));
    g_value_set_double (&v, INFINITY);
    fail_if (g_param_value_is_valid (pspec, &v));
    g_value_set_double (&v, -2e6);
    fail_if (g_param_value_is_valid (pspec, &v));
    g_value_set_double (&v, -123.5);
    fail_unless (g_param_value_is_valid (pspec, &v));
  }
  g_value_unset (&v);
  gst_object_unref (e);
}

GST_END_TEST;

/* The float64 reference's weights (tests/reference) for @p on @g's grid. */
static void
ref_weights (const AooctGeometry * g, AooctRefParams * p, gdouble * re,
    gdouble * im)
{
  AooctRefGrid grid;
  gdouble *w = g_new (gdouble, 2 * g->samples);
  gint i;

  p->pad_factor = g->pad_factor;
  p->pad_size = g->pad_size;
  fail_unless (aooct_ref_grid (p, &grid, NULL));
  fail_unless_equals_int (grid.p2, g->samples);
  aooct_ref_disp_weights (p, &grid, w);
  for (i = 0; i < g->samples; i++) {
    re[i] = w[2 * i];
    im[i] = w[2 * i + 1];
  }
  g_free (w);
}

/* a2 .. a5 (spec section 5, extended by u^4 and u^5) and a phase file of
 * N records on the camera pixels, interpolated onto two different padded
 * grids (the same file for both), against the float64 reference; a4 and
 * a5 tuned while PLAYING; estimate=true refuses a4/a5 it cannot measure. */
GST_START_TEST (test_higher_orders_and_camera_grid)
{
  GRand *rand = aooct_test_rand_new ();
  const gint n = 700;
  AooctRefParams p;
  AooctGeometry g;
  gdouble *re, *im, *phases = g_new (gdouble, n), c[3];
  GString *text = g_string_new ("# phase per camera pixel, wrapped\n");
  gchar *path;
  gfloat *x;
  gint round, i, factor;

  for (factor = 1; factor <= 4; factor *= 4) {
    GstHarness *h = aooct_test_harness_new ("aooctdisp");

    make_geometry (&g, n, 5, 2, factor);
    re = g_new (gdouble, g.samples);
    im = g_new (gdouble, g.samples);
    gst_harness_set_src_caps (h, aooct_geometry_to_caps (&g));
    for (round = 0; round < 2; round++) {
      aooct_ref_params_init (&p, n, 5, 2);
      p.disp = AOOCT_REF_DISP_COEFFS;
      p.a2 = g_rand_double_range (rand, -40, 40);
      p.a3 = g_rand_double_range (rand, -20, 20);
      p.a4 = g_rand_double_range (rand, -20, 20);
      p.a5 = g_rand_double_range (rand, -10, 10);
      g_object_set (disp_of (h), "a2", p.a2, "a3", p.a3, "a4", p.a4, "a5",
          p.a5, NULL);
      ref_weights (&g, &p, re, im);
      x = random_spectra (rand, &g);
      push_and_check (h, &g, x, re, im);
      g_free (x);
    }
    /* a camera-grid file: a smooth random phase of some 80 rad, written
     * wrapped into (-pi, pi] */
    for (i = 0; i < 3; i++)
      c[i] = g_rand_double_range (rand, -30, 30);
    g_string_truncate (text, 0);
    for (i = 0; i < n; i++) {
      gdouble u = 2.0 * i / (n - 1) - 1;

      phases[i] = c[0] * u + c[1] * u * u + c[2] * u * u * u;
      g_string_append_printf (text, "%.17g\n", remainder (phases[i], 2 * G_PI));
    }
    path = aooct_test_write_temp (text->str);
    g_object_set (disp_of (h), "a2", 0.0, "a3", 0.0, "a4", 0.0, "a5", 0.0,
        "phase-file", path, NULL);
    aooct_ref_params_init (&p, n, 5, 2);
    p.disp = AOOCT_REF_DISP_CAMERA;
    p.camera_phases = phases;
    ref_weights (&g, &p, re, im);
    x = random_spectra (rand, &g);
    push_and_check (h, &g, x, re, im);
    /* said explicitly: the same */
    gst_util_set_object_arg (disp_of (h), "phase-file-grid", "camera");
    push_and_check (h, &g, x, re, im);
    /* N records read as P2 (factor 4: they differ): an error naming both */
    if (factor > 1) {
      gst_util_set_object_arg (disp_of (h), "phase-file-grid", "padded");
      fail_unless (gst_harness_push (h, aooct_test_buffer_new (x,
                  aooct_geometry_buffer_bytes (&g))) != GST_FLOW_OK);
      aooct_test_assert_error (h, "phase-file-grid=padded", path, NULL);
    }
    g_free (x);
    gst_harness_teardown (h);
    g_unlink (path);
    g_free (path);
    g_free (re);
    g_free (im);
  }

  /* estimate=true with a4/a5 set: refused, naming them */
  {
    GstHarness *h = aooct_test_harness_new ("aooctdisp");

    make_geometry (&g, 256, 64, 1, 2);
    g_object_set (disp_of (h), "a4", 2.0, "estimate", TRUE, NULL);
    aooct_test_push_expect_error (h, aooct_geometry_to_caps (&g),
        aooct_geometry_buffer_bytes (&g), "estimate", "a4=2", NULL);
    gst_harness_teardown (h);
  }
  g_free (phases);
  g_string_free (text, TRUE);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
disp_suite (void)
{
  Suite *s = suite_create ("aooctdisp");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_coefficients_and_change_while_playing);
  tcase_add_test (tc, test_phase_file_mixed_records);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_higher_orders_and_camera_grid);
  /* CUDA against the CPU: test-disp-cuda.c */
  if (cuda) {
    aooct_test_add_cuda_tests (cuda);
  }
  return s;
}

GST_CHECK_MAIN (disp);
