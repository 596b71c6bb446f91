/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctdcsub against its definition (spec sections 1 and 2). */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"

#define RAW16_CAPS "video/x-raw,format=GRAY16_LE,width=%d,height=%d,framerate=10/1"
#define RAW8_CAPS "video/x-raw,format=GRAY8,width=%d,height=%d,framerate=10/1"

GST_START_TEST (test_mean_removed_per_bscan)
{
  const gint n = 832, alines = 60, bscans = 3;
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = aooct_test_make_spectra (rand, n, alines, bscans, 4095);
  GstHarness *h = aooct_test_harness_new ("aooctdcsub alines-per-bscan=60");
  GstBuffer *out;
  GstMapInfo map;
  GstCaps *caps;
  gint b;

  aooct_test_set_caps_printf (h, RAW16_CAPS, n, alines * bscans);
  /* make B-scans differ in level so a mean across B-scans would be wrong */
  for (b = 0; b < bscans; b++)
    for (gsize i = 0; i < (gsize) alines * n; i++)
      raw[(gsize) b * alines * n + i] += 300 * b;
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (raw,
          (gsize) n * alines * bscans * 2));
  fail_unless (out != NULL);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  {
    GstStructure *s = gst_caps_get_structure (caps, 0);
    gint v;
    fail_unless (gst_structure_has_name (s, "application/x-aooct"));
    fail_unless_equals_string (gst_structure_get_string (s, "domain"),
        "spectral");
    fail_unless_equals_string (gst_structure_get_string (s, "sample-type"),
        "real");
    fail_unless (gst_structure_get_int (s, "samples", &v) && v == n);
    fail_unless (gst_structure_get_int (s, "alines", &v) && v == alines);
    fail_unless (gst_structure_get_int (s, "bscans", &v) && v == bscans);
  }
  gst_caps_unref (caps);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, (gsize) n * alines * bscans * 4);
  aooct_test_check_dc_reference (raw, (const gfloat *) map.data, n, alines,
      bscans);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* GRAY8 with an odd width has padded rows (stride rounded up to 4). */
GST_START_TEST (test_gray8_stride)
{
  const gint n = 33, alines = 7, stride = 36;
  GRand *rand = aooct_test_rand_new ();
  guint8 *raw = g_new0 (guint8, stride * alines);
  guint16 *ref = g_new (guint16, n * alines);
  GstHarness *h = aooct_test_harness_new ("aooctdcsub");
  GstBuffer *out;
  GstMapInfo map;
  gint m, i;

  for (m = 0; m < alines; m++) {
    for (i = 0; i < n; i++) {
      raw[m * stride + i] = g_rand_int_range (rand, 0, 256);
      ref[m * n + i] = raw[m * stride + i];
    }
    for (; i < stride; i++)
      raw[m * stride + i] = 0xEE;       /* padding must be ignored */
  }
  aooct_test_set_caps_printf (h, RAW8_CAPS, n, alines);
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (raw,
          stride * alines));
  fail_unless (out != NULL);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  aooct_test_check_dc_reference (ref, (const gfloat *) map.data, n, alines, 1);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (raw);
  g_free (ref);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_background_and_none)
{
  const gint n = 16, alines = 4;
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = aooct_test_make_spectra (rand, n, alines, 1, 4095);
  GString *text = g_string_new ("# background spectrum\n");
  gdouble bg[16];
  gchar *path, *launch;
  GstHarness *h;
  GstBuffer *out;
  GstMapInfo map;
  gint i, m;

  for (i = 0; i < n; i++) {
    bg[i] = g_rand_double_range (rand, 100, 2000);
    g_string_append_printf (text, "%.17g%s\n", bg[i], i == 3 ? "  # note" :
        (i == 5 ? "\r" : ""));
    if (i == 7)
      g_string_append (text, "\n   \t\n");
  }
  path = aooct_test_write_temp (text->str);

  launch = g_strdup_printf ("aooctdcsub mode=background background-file=%s",
      path);
  h = aooct_test_harness_new (launch);
  aooct_test_set_caps_printf (h, RAW16_CAPS, n, alines);
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (raw,
          n * alines * 2));
  fail_unless (out != NULL);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (m = 0; m < alines; m++)
    for (i = 0; i < n; i++)
      fail_unless (fabs (((gfloat *) map.data)[m * n + i] -
              (raw[m * n + i] - bg[i])) < 1e-3);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (launch);

  h = aooct_test_harness_new ("aooctdcsub mode=none");
  aooct_test_set_caps_printf (h, RAW16_CAPS, n, alines);
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (raw,
          n * alines * 2));
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (i = 0; i < n * alines; i++)
    fail_unless_equals_float (((gfloat *) map.data)[i], (gfloat) raw[i]);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  g_unlink (path);
  g_free (path);
  g_string_free (text, TRUE);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

#define BG_CAPS "video/x-raw,format=GRAY16_LE,width=4,height=2,framerate=0/1"

static void
expect_background_error (const gchar * path, const AooctTestBadFile * bad,
    gpointer unused)
{
  gchar *launch =
      g_strdup_printf ("aooctdcsub mode=background background-file=%s", path);

  aooct_test_expect_error (launch, gst_caps_from_string (BG_CAPS),
      "background-file", path, bad->line, bad->what, NULL);
  g_free (launch);
}

GST_START_TEST (test_bad_background_files)
{
  const AooctTestBadFile extra[] = {
    {"1\n2 2\n3\n4\n", ":2:", "more than 1"},
  };

  aooct_test_for_each_bad_file (extra, G_N_ELEMENTS (extra),
      expect_background_error, NULL);
  aooct_test_expect_error ("aooctdcsub mode=background",
      gst_caps_from_string (BG_CAPS), "background-file", NULL);
  aooct_test_expect_error ("aooctdcsub alines-per-bscan=3",
      gst_caps_from_string ("video/x-raw,format=GRAY16_LE,width=4,height=4,"
          "framerate=0/1"), "multiple", "alines-per-bscan=3", NULL);
}

GST_END_TEST;

GST_START_TEST (test_short_and_long_buffers)
{
  const gint n = 64, alines = 8;
  guint16 raw[64 * 8 + 10] = { 0 };
  gsize sizes[] = { n * alines * 2 - 2, n * alines * 2 + 20 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    GstHarness *h = aooct_test_harness_new ("aooctdcsub");
    aooct_test_set_caps_printf (h, RAW16_CAPS, n, alines);
    fail_unless_equals_int (gst_harness_push (h, aooct_test_buffer_new (raw,
                sizes[i])), GST_FLOW_ERROR);
    aooct_test_assert_error (h, "bytes", i == 0 ? "too short" : "too long",
        NULL);
    fail_unless_equals_int (gst_harness_buffers_received (h), 0);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
dcsub_suite (void)
{
  Suite *s = suite_create ("aooctdcsub");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_mean_removed_per_bscan);
  tcase_add_test (tc, test_gray8_stride);
  tcase_add_test (tc, test_background_and_none);
  tcase_add_test (tc, test_bad_background_files);
  tcase_add_test (tc, test_short_and_long_buffers);
  /* CUDA against the CPU: test-dcsub-cuda.c */
  if (cuda) {
    aooct_test_add_cuda_tests (cuda);
  }
  return s;
}

GST_CHECK_MAIN (dcsub);
