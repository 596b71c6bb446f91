/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float32 spectra (spec section 0, docs/caps.md "Float
 * input") through aooctdcsub on each backend: integer-valued floats bit
 * for bit against the same samples as GRAY16_LE on the CPU (every mode,
 * several B-scans, flyback, rows whose floats are not 4-byte aligned),
 * fractional floats against the float64 reference (and, on CUDA, bit for
 * bit against the CPU), a non-finite sample an error naming its B-scan,
 * A-line and sample, and caps that are not ours refused with the reason.
 * The "cuda" tcase is skipped without a CUDA device. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"
#include "aooct-ref64.h"
#include "aooct-raw-format.h"

#define FLOAT_CAPS "video/x-aooct-float,format=F32LE,width=%d,height=%d," \
  "framerate=10/1"
#define RAW16_CAPS "video/x-raw,format=GRAY16_LE,width=%d,height=%d," \
  "framerate=10/1"

static GstCaps *
caps_printf (const gchar * format, ...)
{
  va_list args;
  gchar *str;
  GstCaps *caps;

  va_start (args, format);
  str = g_strdup_vprintf (format, args);
  va_end (args);
  caps = gst_caps_from_string (str);
  fail_unless (caps != NULL, "%s", str);
  g_free (str);
  return caps;
}

/* aooctdcsub with @props on @backend: @bytes under @caps in, the floats
 * out (g_free) */
static gfloat *
dcsub (const gchar * backend, GstCaps * caps, const gchar * props,
    gconstpointer bytes, gsize size, gsize out_count)
{
  gchar *launch = g_strdup_printf ("aooctdcsub backend=%s %s", backend, props);
  GstHarness *h = aooct_test_harness_new (launch);
  gfloat *out = aooct_test_push_pull (h, caps, bytes, size,
      out_count * sizeof (gfloat));

  gst_harness_teardown (h);
  g_free (launch);
  return out;
}

/* the kept A-lines of @props (flyback) */
static gint
kept_alines (gint alines, const gchar * props)
{
  const gchar *s;
  gint kept = alines;

  if ((s = strstr (props, "skip-alines-start=")))
    kept -= atoi (s + strlen ("skip-alines-start="));
  if ((s = strstr (props, "skip-alines-end=")))
    kept -= atoi (s + strlen ("skip-alines-end="));
  return kept;
}

static void
assert_same_floats (const gfloat * got, const gfloat * ref, gsize count,
    gint n, const gchar * what)
{
  gsize i;

  if (memcmp (got, ref, count * sizeof (gfloat)) != 0)
    for (i = 0; i < count; i++)
      if (memcmp (&got[i], &ref[i], sizeof (gfloat)) != 0)
        fail ("%s: A-line %" G_GSIZE_FORMAT " sample %" G_GSIZE_FORMAT
            ": %.9g, expected %.9g", what, i / n, i % n, got[i], ref[i]);
}

/* Integer-valued floats: the image of the same samples as GRAY16_LE, bit
 * for bit (spec section 0) */
static void
compare_with_gray16 (gint n, gint alines, gint bscans, const gchar * props)
{
  GRand *rand = aooct_test_rand_new ();
  gsize rows = (gsize) alines * bscans, count, i;
  guint16 *raw = aooct_test_make_spectra (rand, n, alines, bscans, 65535);
  gfloat *floats = g_new (gfloat, rows * n), *ref, *got;
  gchar *p = g_strdup_printf ("alines-per-bscan=%d %s", alines, props);
  gchar *what;

  for (i = 0; i < rows * n; i++)
    floats[i] = raw[i];
  count = (gsize) n *kept_alines (alines, props) * bscans;
  /* (GRAY16_LE rows of an even width are not padded) */
  ref = dcsub ("cpu", caps_printf (RAW16_CAPS, n, (gint) rows), p, raw,
      rows * n * 2, count);
  got = dcsub (aooct_test_backend, caps_printf (FLOAT_CAPS, n, (gint) rows),
      p, floats, rows * n * 4, count);
  what = g_strdup_printf ("%s float32 %dx%d x%d %s, against GRAY16_LE",
      aooct_test_backend, n, alines, bscans, props);
  g_print ("%s\n", what);
  assert_same_floats (got, ref, count, n, what);
  g_free (what);
  g_free (got);
  g_free (ref);
  g_free (p);
  g_free (floats);
  g_free (raw);
  g_rand_free (rand);
}

GST_START_TEST (test_float_as_gray16)
{
  gint n = 834;
  GRand *rand = aooct_test_rand_new ();
  gchar *path = aooct_test_write_background (rand, n), *props;

  compare_with_gray16 (1024, 100, 3, "");
  compare_with_gray16 (1022, 65, 2, "");
  compare_with_gray16 (2, 9, 2, "");
  props = g_strdup_printf ("mode=background background-file=%s", path);
  compare_with_gray16 (n, 40, 2, props);
  compare_with_gray16 (n, 40, 2, "mode=none");
  compare_with_gray16 (n, 40, 3, "skip-alines-start=3 skip-alines-end=2");
  compare_with_gray16 (n, 40, 3, "mode=rolling-mean rolling-bscans=2");
  g_unlink (path);
  g_free (path);
  g_free (props);
  g_rand_free (rand);
}

GST_END_TEST;

/* Fractional floats of a realistic spectrum (the camera model's counts
 * plus a fraction and a scale, as Python labs store normalised spectra)
 * against the float64 reference of section 2; on CUDA bit for bit against
 * the CPU too (the same sums in the same order) */
GST_START_TEST (test_float_fractional)
{
  const gint n = 1000, alines = 128, bscans = 3;
  GRand *rand = aooct_test_rand_new ();
  gsize rows = (gsize) alines * bscans, count = rows * n, i;
  guint16 *raw = aooct_test_make_spectra (rand, n, alines, bscans, 4095);
  gfloat *floats = g_new (gfloat, count), *got;
  gdouble *x = g_new (gdouble, count), max_err = 0;
  gchar *props = g_strdup_printf ("alines-per-bscan=%d", alines);
  AooctRefParams p;
  gint b;

  for (i = 0; i < count; i++) {
    floats[i] = (gfloat) ((raw[i] + g_rand_double (rand)) * 1.7e-3);
    x[i] = floats[i];
  }
  aooct_ref_params_init (&p, n, alines, bscans);
  for (b = 0; b < bscans; b++)
    aooct_ref_dcsub (&p, x + (gsize) b * alines * n);
  got = dcsub (aooct_test_backend, caps_printf (FLOAT_CAPS, n, (gint) rows),
      props, floats, count * 4, count);
  for (i = 0; i < count; i++)
    max_err = MAX (max_err, fabs (got[i] - x[i]));
  g_print ("%s: float32 fractional spectra, max |error| %.3g against "
      "float64 (values up to %.3g)\n", aooct_test_backend, max_err,
      4096 * 1.7e-3);
  /* x - mean in float: one rounding of each (values below 8: 2^-21) */
  fail_unless (max_err < 2e-6, "max error %g", max_err);
  if (g_str_equal (aooct_test_backend, "cuda")) {
    gfloat *cpu = dcsub ("cpu", caps_printf (FLOAT_CAPS, n, (gint) rows),
        props, floats, count * 4, count);

    assert_same_floats (got, cpu, count, n, "float32 fractional, CUDA "
        "against the CPU");
    g_free (cpu);
  }
  g_free (props);
  g_free (got);
  g_free (x);
  g_free (floats);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* A NaN or infinity is an element error that names the B-scan (of the
 * stream, where the buffer's offset says where it starts), the A-line and
 * the sample, in every mode and with flyback skipped */
static void
expect_non_finite (gfloat value, const gchar * props, guint64 offset,
    const gchar * first, ...)
{
  const gint n = 64, alines = 10, bscans = 3;
  gsize rows = (gsize) alines * bscans, i;
  gfloat *floats = g_new (gfloat, rows * n);
  gchar *launch = g_strdup_printf ("aooctdcsub backend=%s alines-per-bscan=%d "
      "%s", aooct_test_backend, alines, props);
  GstHarness *h = aooct_test_harness_new (launch);
  GstBuffer *buf;
  GError *err = NULL;
  GstMessage *msg;
  GstBus *bus;
  va_list args;
  const gchar *s;

  for (i = 0; i < rows * n; i++)
    floats[i] = (gfloat) (100 + i % 17);
  /* B-scan 1, A-line 6, sample 37; a later one too (the first is named) */
  floats[(1 * alines + 6) * n + 37] = value;
  floats[(2 * alines + 1) * n + 3] = value;
  gst_harness_set_src_caps (h, caps_printf (FLOAT_CAPS, n, (gint) rows));
  buf = aooct_test_buffer_new (floats, rows * n * 4);
  GST_BUFFER_OFFSET (buf) = offset;
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  bus = gst_element_get_bus (h->element);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for a non-finite sample (%s)", props);
  gst_message_parse_error (msg, &err, NULL);
  g_print ("%s: %s\n", aooct_test_backend, err->message);
  va_start (args, first);
  for (s = first; s; s = va_arg (args, const gchar *))
      fail_unless (strstr (err->message, s) != NULL, "'%s' not in: %s", s,
        err->message);
  va_end (args);
  g_error_free (err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (launch);
  g_free (floats);
}

GST_START_TEST (test_float_non_finite)
{
  expect_non_finite (NAN, "", GST_BUFFER_OFFSET_NONE,
      "B-scan 1 of the buffer", "A-line 6", "sample 37", "nan", "finite", NULL);
  expect_non_finite (INFINITY, "mode=none", 30, "B-scan 31 of the stream",
      "A-line 6", "sample 37", "inf", NULL);
  expect_non_finite (-INFINITY, "mode=rolling-mean", 0, "B-scan 1 of the "
      "stream", "A-line 6", "sample 37", "-inf", NULL);
  /* flyback: the A-line is still counted in the B-scan as it came */
  expect_non_finite (NAN, "skip-alines-start=2", GST_BUFFER_OFFSET_NONE,
      "B-scan 1 of the buffer", "A-line 6", "sample 37", NULL);
}

GST_END_TEST;

GST_START_TEST (test_float_bad_caps)
{
  gchar *launch = g_strdup_printf ("aooctdcsub backend=%s",
      aooct_test_backend);
  GstHarness *h;

  aooct_test_expect_error (launch, gst_caps_from_string
      ("video/x-aooct-float,format=F64LE,width=64,height=4,framerate=10/1"),
      "F64LE", "F32LE", NULL);
  aooct_test_expect_error (launch, gst_caps_from_string
      ("video/x-aooct-float,format=mono12p,width=64,height=4,"
          "framerate=10/1"), "mono12p", NULL);
  /* 16-bit rows under float caps: half the bytes */
  h = aooct_test_harness_new (launch);
  aooct_test_push_expect_error (h, caps_printf (FLOAT_CAPS, 64, 4),
      64 * 4 * 2, "1024", "too short", NULL);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_END_TEST;

static void
add_tests (TCase * tc, gboolean cuda)
{
  tcase_add_test (tc, test_float_as_gray16);
  tcase_add_test (tc, test_float_fractional);
  tcase_add_test (tc, test_float_non_finite);
  tcase_add_test (tc, test_float_bad_caps);
}

static Suite *
float_suite (void)
{
  return aooct_test_suite_per_backend ("float", add_tests);
}

GST_CHECK_MAIN (float);
