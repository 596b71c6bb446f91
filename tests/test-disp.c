/* aooct tests: aooctdisp against the spec (section 5), float64
 * expectations built here. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-caps.h"

static void
make_geometry (AooctGeometry * g, gint n, gint alines, gint bscans, gint factor)
{
  gint p1 = n, p2 = n, o = 0;

  aooct_geometry_init_raw (g, n, alines, bscans, 10, 1);
  g->k_linear = TRUE;
  if (factor > 0) {
    fail_unless (aooct_pad_sizes (n, 0, factor, &p1, &p2, &o, NULL));
    g->samples = p2;
    g->pad_size = p1;
    g->pad_offset = o;
    g->pad_factor = factor;
  }
  fail_unless (aooct_geometry_validate (g, NULL));
}

/* The element inside the harness's bin (the bin keeps it alive). */
static GObject *
element_of (GstHarness * h)
{
  GstElement *e = gst_harness_find_element (h, "aooctdisp");

  fail_unless (e != NULL);
  gst_object_unref (e);
  return G_OBJECT (e);
}

static gsize
total_samples (const AooctGeometry * g)
{
  return (gsize) g->samples * g->alines * g->bscans;
}

static gfloat *
random_spectra (GRand * rand, const AooctGeometry * g)
{
  gfloat *x = g_new (gfloat, total_samples (g));
  gsize i;

  for (i = 0; i < total_samples (g); i++)
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
  GstBuffer *out = gst_harness_push_and_pull (h, aooct_test_buffer_new (x,
          total_samples (g) * sizeof (gfloat)));
  GstCaps *caps;
  AooctGeometry og;
  GstMapInfo map;
  gsize k;

  fail_unless (out != NULL);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (aooct_caps_to_geometry (caps, &og, NULL));
  gst_caps_unref (caps);
  fail_unless (og.sample_type == AOOCT_SAMPLE_COMPLEX);
  og.sample_type = AOOCT_SAMPLE_REAL;
  fail_unless (aooct_geometry_equal (&og, g, NULL));

  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, total_samples (g) * 8);
  for (k = 0; k < total_samples (g); k++) {
    const gfloat *c = (const gfloat *) map.data + 2 * k;
    gint i = k % g->samples;
    gdouble er = x[k] * re[i], ei = x[k] * im[i];
    /* float32 weight and product: a few ulp of |x| */
    gdouble tol = 3e-7 * fabs (x[k]) * MAX (1.0, hypot (re[i], im[i]));

    fail_unless (fabs (c[0] - er) <= tol && fabs (c[1] - ei) <= tol,
        "sample %d of row %d: (%.9g, %.9g), expected (%.9g, %.9g)", i,
        (gint) (k / g->samples), c[0], c[1], er, ei);
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
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
    g_object_set (element_of (h), "a2", a2, "a3", a3, NULL);
    fail_unless_equals_int (GST_STATE (element_of (h)), GST_STATE_PLAYING);
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
  g_object_set (element_of (h), "phase-file", path, NULL);
  gst_harness_set_src_caps (h, aooct_geometry_to_caps (&g));
  x = random_spectra (rand, &g);
  push_and_check (h, &g, x, re, im);

  /* a2 set while a phase file is in use: an error at the next buffer */
  g_object_set (element_of (h), "a2", 1.5, NULL);
  fail_unless (gst_harness_push (h, aooct_test_buffer_new (x,
              total_samples (&g) * 4)) != GST_FLOW_OK);
  aooct_test_assert_error (h, "phase-file", path, "a2=1.5", NULL);
  /* and again at the one after: no silent fallback to the old weights */
  fail_unless (gst_harness_push (h, aooct_test_buffer_new (x,
              total_samples (&g) * 4)) != GST_FLOW_OK);
  aooct_test_assert_error (h, "phase-file", NULL);
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);

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

/* Pushes one buffer into aooctdisp configured by @setup_props and expects
 * an element error mentioning @what1 and @what2. */
static void
expect_error (const AooctGeometry * g, const gchar * file, gdouble a2,
    gdouble a3, const gchar * what1, const gchar * what2)
{
  GstHarness *h = aooct_test_harness_new ("aooctdisp");
  gfloat *x = g_new0 (gfloat, total_samples (g) * 2);

  g_object_set (element_of (h), "phase-file", file, "a2", a2, "a3", a3, NULL);
  gst_harness_set_src_caps (h, aooct_geometry_to_caps (g));
  fail_unless (gst_harness_push (h, aooct_test_buffer_new (x,
              total_samples (g) * aooct_geometry_sample_bytes (g))) !=
      GST_FLOW_OK);
  aooct_test_assert_error (h, what1, what2, NULL);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  gst_harness_teardown (h);
  g_free (x);
}

GST_START_TEST (test_errors)
{
  struct
  {
    const gchar *text;
    const gchar *what1, *what2;
  } files[] = {
    {"", "empty", NULL},
    {"0.1\n0.2\n", ":2:", "too few"},
    {"0.1\n0.2\n0.3\n0.4\n0.5\n", ":5:", "too many"},
    {"0.1\n0.2 0.3 0.4\n0.3\n0.4\n", ":2:", "more than 2"},
    {"0.1\nphi\n0.3\n0.4\n", ":2:", "not a number"},
    {"0.1\n0.2\n1 nan\n0.4\n", ":3:", "not finite"},
  };
  AooctGeometry g;
  GParamSpec *pspec;
  GValue v = G_VALUE_INIT;
  GstElement *e;
  guint k;

  make_geometry (&g, 4, 2, 1, 0);
  for (k = 0; k < G_N_ELEMENTS (files); k++) {
    gchar *path = aooct_test_write_temp (files[k].text);
    expect_error (&g, path, 0, 0, path, files[k].what1);
    if (files[k].what2)
      expect_error (&g, path, 0, 0, "phase-file", files[k].what2);
    g_unlink (path);
    g_free (path);
  }
  expect_error (&g, "/nonexistent/phase.txt", 0, 0, "/nonexistent/phase.txt",
      "cannot read");
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

static Suite *
disp_suite (void)
{
  Suite *s = suite_create ("aooctdisp");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_coefficients_and_change_while_playing);
  tcase_add_test (tc, test_phase_file_mixed_records);
  tcase_add_test (tc, test_errors);
  return s;
}

GST_CHECK_MAIN (disp);
