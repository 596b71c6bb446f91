/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctgain, the example step of docs/architecture.md ("Add a
 * step"), from its test-only plugin (examples/gain/): random samples times
 * the gain against float64 with the geometry unchanged, a change of the
 * gain while PLAYING, values outside the property's range refused, and the
 * element behind aooctdcsub of the aooct plugin in one pipeline. */
#include <math.h>

#include "aooct-test-util.h"
#include "aooct-test-frames.h"
#include "aooct-test-depth.h"

#define RAW16_CAPS "video/x-raw,format=GRAY16_LE,width=%d,height=%d,framerate=10/1"

/* @n floats of every sign over twelve decades (1e-6 .. 1e6), and a few
 * zeros. */
static gfloat *
random_floats (GRand * rand, gsize n)
{
  gfloat *x = g_new (gfloat, n);
  gsize i;

  for (i = 0; i < n; i++) {
    gdouble v = pow (10, g_rand_double_range (rand, -6, 6));
    x[i] = g_rand_int_range (rand, 0, 100) == 0 ? 0.0f :
        (gfloat) (g_rand_boolean (rand) ? v : -v);
  }
  return x;
}

/* @y against @gain times @x in float64.  A float32 product is the exact
 * product (which float64 holds) rounded once: within half a float32 ulp,
 * 2^-24 of its size. */
static void
check_gain (const gfloat * x, const gfloat * y, gsize n, gfloat gain)
{
  gsize i;

  for (i = 0; i < n; i++) {
    gdouble want = (gdouble) gain * x[i];

    fail_unless (fabs (y[i] - want) <= ldexp (fabs (want), -24),
        "sample %" G_GSIZE_FORMAT ": %.9g, expected %.17g (gain %.9g times "
        "%.9g)", i, y[i], want, gain, x[i]);
  }
}

/* One buffer of @g's random samples through aooctgain with a random gain:
 * gain times them, and the caps out are the caps in. */
static void
gain_case (GRand * rand, const AooctGeometry * g)
{
  gsize n = aooct_geometry_buffer_bytes (g) / sizeof (gfloat);
  gfloat gain = (gfloat) g_rand_double_range (rand, 0.01, 100);
  gchar *launch = g_strdup_printf ("aooctgain gain=%.9g", gain);
  GstHarness *h = aooct_test_harness_new (launch);
  gfloat *x = random_floats (rand, n);
  gfloat *y = aooct_test_push_pull (h, aooct_geometry_to_caps (g), x,
      n * sizeof (gfloat), n * sizeof (gfloat));

  check_gain (x, y, n, gain);
  aooct_test_assert_caps (h, g);
  gst_harness_teardown (h);
  g_free (launch);
  g_free (x);
  g_free (y);
}

/* Real spectra and complex depth profiles, several B-scans per buffer. */
GST_START_TEST (test_gain_against_float64)
{
  const AooctTestDepthGeom depth = { 8, 2, 832, 2048, 2 };
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry g;

  aooct_test_geometry (&g, 832, 16, 3, 0, 0);
  gain_case (rand, &g);
  aooct_test_depth_geometry (&depth, &g);
  gain_case (rand, &g);
  g_rand_free (rand);
}

GST_END_TEST;

/* gain set while PLAYING applies from the next buffer on: 2, then 0.25,
 * then 0 (every sample 0). */
GST_START_TEST (test_gain_live_change)
{
  const gfloat gains[] = { 2.0f, 0.25f, 0.0f };
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = aooct_test_harness_new ("aooctgain gain=2");
  GstElement *gain = aooct_test_element (h, "aooctgain");
  AooctGeometry g;
  GstState state;
  gsize n;
  guint c;

  aooct_test_geometry (&g, 512, 4, 1, 0, 0);
  n = aooct_geometry_buffer_bytes (&g) / sizeof (gfloat);
  gst_harness_set_src_caps (h, aooct_geometry_to_caps (&g));
  for (c = 0; c < G_N_ELEMENTS (gains); c++) {
    gfloat *x = random_floats (rand, n);
    gfloat *y;

    if (c > 0) {
      fail_unless_equals_int (gst_element_get_state (gain, &state, NULL, 0),
          GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (state, GST_STATE_PLAYING);
      g_object_set (gain, "gain", gains[c], NULL);
    }
    y = aooct_test_push_pull (h, NULL, x, n * sizeof (gfloat),
        n * sizeof (gfloat));
    check_gain (x, y, n, gains[c]);
    g_free (x);
    g_free (y);
  }
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* Negative, too large and NaN gains are refused by the GParamSpec; the
 * gain stays as it was. */
GST_START_TEST (test_gain_range)
{
  GstElement *gain = gst_element_factory_make ("aooctgain", NULL);
  const gfloat bad[] = { -1.0f, -1e-6f, 1000.5f, 1e30f, NAN };
  gfloat got;
  guint i;

  fail_unless (gain != NULL, "aooctgain not found (examples/gain/)");
  g_object_set (gain, "gain", 3.5f, NULL);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    AOOCT_ASSERT_REFUSED (g_object_set (gain, "gain", bad[i], NULL));
    g_object_get (gain, "gain", &got, NULL);
    fail_unless (got == 3.5f, "gain=%g changed the gain to %g", bad[i], got);
  }
  /* the ends of the range are gains */
  g_object_set (gain, "gain", 0.0f, NULL);
  g_object_set (gain, "gain", 1000.0f, NULL);
  g_object_get (gain, "gain", &got, NULL);
  fail_unless_equals_float (got, 1000.0f);
  gst_object_unref (gain);
}

GST_END_TEST;

/* Behind aooctdcsub (the aooct plugin, whose base class the example's
 * plugin links): gain times what aooctdcsub alone gives, the same raw
 * frames in. */
GST_START_TEST (test_gain_after_dcsub)
{
  const gint n = 832, alines = 16, bscans = 2;
  const gfloat gain = 7.25f;
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = aooct_test_make_spectra (rand, n, alines, bscans, 4095);
  gsize in_bytes = (gsize) n * alines * bscans * sizeof (guint16);
  gsize count = (gsize) n * alines * bscans;
  GstHarness *plain = aooct_test_harness_new ("aooctdcsub alines-per-bscan=16");
  GstHarness *gained = aooct_test_harness_new
      ("aooctdcsub alines-per-bscan=16 ! aooctgain gain=7.25");
  gfloat *x, *y;

  aooct_test_set_caps_printf (plain, RAW16_CAPS, n, alines * bscans);
  aooct_test_set_caps_printf (gained, RAW16_CAPS, n, alines * bscans);
  x = aooct_test_push_pull (plain, NULL, raw, in_bytes,
      count * sizeof (gfloat));
  y = aooct_test_push_pull (gained, NULL, raw, in_bytes,
      count * sizeof (gfloat));
  check_gain (x, y, count, gain);
  gst_harness_teardown (plain);
  gst_harness_teardown (gained);
  g_free (raw);
  g_free (x);
  g_free (y);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
gain_suite (void)
{
  Suite *s = suite_create ("aooctgain");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_gain_against_float64);
  tcase_add_test (tc, test_gain_live_change);
  tcase_add_test (tc, test_gain_range);
  tcase_add_test (tc, test_gain_after_dcsub);
  return s;
}

GST_CHECK_MAIN (gain);
