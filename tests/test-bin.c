/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctbin, the whole chain as one element, on each backend
 * (its properties once, on "cpu"). */
#include <string.h>

#include <gst/base/gstbasetransform.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"

static const gchar *steps[] = { "aooctdcsub", "aooctpad", "aooctkmap",
  "aooctdisp", "aooctfft", "aooctnorm"
};

static const gchar *children[] = { "dcsub", "pad", "kmap", "disp", "fft",
  "norm"
};

#define MUTABILITY (GST_PARAM_MUTABLE_READY | GST_PARAM_MUTABLE_PAUSED | \
    GST_PARAM_MUTABLE_PLAYING | G_PARAM_READWRITE)

static void
assert_same_range (GParamSpec * a, GParamSpec * b)
{
  GType t = G_PARAM_SPEC_TYPE (a);

  if (t == G_TYPE_PARAM_INT) {
    fail_unless_equals_int (G_PARAM_SPEC_INT (a)->minimum,
        G_PARAM_SPEC_INT (b)->minimum);
    fail_unless_equals_int (G_PARAM_SPEC_INT (a)->maximum,
        G_PARAM_SPEC_INT (b)->maximum);
  } else if (t == G_TYPE_PARAM_UINT) {
    fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (a)->minimum,
        G_PARAM_SPEC_UINT (b)->minimum);
    fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (a)->maximum,
        G_PARAM_SPEC_UINT (b)->maximum);
  } else if (t == G_TYPE_PARAM_DOUBLE) {
    fail_unless (G_PARAM_SPEC_DOUBLE (a)->minimum ==
        G_PARAM_SPEC_DOUBLE (b)->minimum);
    fail_unless (G_PARAM_SPEC_DOUBLE (a)->maximum ==
        G_PARAM_SPEC_DOUBLE (b)->maximum);
  }
}

/* Every property of every step is on the bin with the same name, type,
 * range, default, blurb and mutability; nothing else is added. */
GST_START_TEST (test_properties_proxied)
{
  GstElement *bin = gst_element_factory_make ("aooctbin", NULL);
  GObjectClass *bin_class;
  GParamSpec **own;
  guint n_own, i, k, proxied = 0, expected = 0;
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);

  fail_unless (bin != NULL);
  bin_class = G_OBJECT_GET_CLASS (bin);
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstElement *e = gst_element_factory_make (steps[i], NULL);
    GObjectClass *c = G_OBJECT_GET_CLASS (e);
    GParamSpec **props;
    guint n;

    props = g_object_class_list_properties (c, &n);
    for (k = 0; k < n; k++) {
      GParamSpec *p = props[k], *b;

      /* read-only statistics (stats) are per element: children only */
      if (p->owner_type == GST_TYPE_OBJECT ||
          p->owner_type == GST_TYPE_BASE_TRANSFORM ||
          (p->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE)
        continue;
      b = g_object_class_find_property (bin_class, p->name);
      fail_unless (b != NULL, "%s's %s is not a property of aooctbin",
          steps[i], p->name);
      fail_unless_equals_string (g_type_name (G_PARAM_SPEC_TYPE (b)),
          g_type_name (G_PARAM_SPEC_TYPE (p)));
      fail_unless (G_PARAM_SPEC_VALUE_TYPE (b) == G_PARAM_SPEC_VALUE_TYPE (p));
      fail_unless_equals_string (g_param_spec_get_blurb (b),
          g_param_spec_get_blurb (p));
      fail_unless_equals_int (b->flags & MUTABILITY, p->flags & MUTABILITY);
      fail_unless (g_param_values_cmp (p, g_param_spec_get_default_value (p),
              g_param_spec_get_default_value (b)) == 0,
          "default of %s differs", p->name);
      assert_same_range (p, b);
      if (!g_hash_table_contains (seen, p->name)) {
        g_hash_table_add (seen, (gpointer) p->name);
        expected++;
      }
    }
    g_free (props);
    gst_object_unref (e);
  }
  own = g_object_class_list_properties (bin_class, &n_own);
  for (k = 0; k < n_own; k++)
    if (own[k]->owner_type != GST_TYPE_OBJECT &&
        own[k]->owner_type != GST_TYPE_BIN) {
      fail_unless (g_hash_table_contains (seen, own[k]->name),
          "aooctbin has %s, which no step has", own[k]->name);
      proxied++;
    }
  fail_unless_equals_int (proxied, expected);
  /* 20 step properties plus backend and cuda-device-id (README table) */
  fail_unless (proxied >= 22, "only %u properties proxied", proxied);
  g_free (own);
  g_hash_table_unref (seen);
  gst_object_unref (bin);
}

GST_END_TEST;

/* A value set on the bin reaches the step that owns it (backend: all of
 * them), and the bin reads back what the step holds. */
GST_START_TEST (test_properties_forwarded)
{
  GstElement *bin = gst_element_factory_make ("aooctbin", NULL);
  GstElement *disp, *norm;
  gdouble a2 = 0;
  gint crop = 0;
  guint i;

  fail_unless (bin != NULL);
  g_object_set (bin, "a2", 3.25, "crop-start", 7, NULL);
  gst_util_set_object_arg (G_OBJECT (bin), "backend", "cpu");
  gst_util_set_object_arg (G_OBJECT (bin), "window", "hann");
  disp = gst_bin_get_by_name (GST_BIN (bin), "disp");
  norm = gst_bin_get_by_name (GST_BIN (bin), "norm");
  g_object_get (disp, "a2", &a2, NULL);
  fail_unless (a2 == 3.25);
  g_object_get (norm, "crop-start", &crop, NULL);
  fail_unless_equals_int (crop, 7);
  for (i = 0; i < G_N_ELEMENTS (children); i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (bin), children[i]);
    gint backend = -1;

    fail_unless (e != NULL, "no child %s", children[i]);
    g_object_get (e, "backend", &backend, NULL);
    fail_unless_equals_int (backend, 1);        /* cpu */
    gst_object_unref (e);
  }
  g_object_set (disp, "a3", -1.5, NULL);
  g_object_get (bin, "a3", &a2, NULL);
  fail_unless (a2 == -1.5);
  gst_object_unref (disp);
  gst_object_unref (norm);
  gst_object_unref (bin);
}

GST_END_TEST;

#define PROPS "wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" size=2048 " \
  "factor=2 crop-start=20 crop-end=700 dynamic-range=45 window=hann"

static GstBuffer *
camera_bscan (GstHarness * src)
{
  GstBuffer *b = gst_harness_pull (src);

  fail_unless (b != NULL);
  return b;
}

static GBytes *
push_pull_bytes (GstHarness * h, GstBuffer * in)
{
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  GstMapInfo map;
  GBytes *bytes;

  fail_unless (out != NULL, "no output buffer");
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  bytes = g_bytes_new (map.data, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  return bytes;
}

/* aooctbin gives byte for byte what the six elements give on the same
 * backend, also after a2/a3 and the display range are changed while
 * playing (on the bin, respectively on the elements).  On CUDA this is the
 * bin's steps sharing one CUDA context and deferring kmap and disp into
 * the fused pass, as the separate elements do. */
GST_START_TEST (test_same_as_chain)
{
  const gchar *be = aooct_test_backend;
  GstHarness *src = aooct_test_harness_new ("aooctsrc seed=11 alines=48");
  gchar *bin_desc = g_strdup_printf ("aooctbin backend=%s " PROPS, be);
  gchar *chain_desc = g_strdup_printf ("aooctdcsub backend=%s "
      "! aooctpad backend=%s size=2048 factor=2 ! aooctkmap backend=%s "
      "wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" ! aooctdisp backend=%s "
      "! aooctfft backend=%s window=hann ! aooctnorm backend=%s "
      "crop-start=20 crop-end=700 dynamic-range=45", be, be, be, be, be, be);
  GstHarness *bin = aooct_test_harness_new (bin_desc);
  GstHarness *chain = aooct_test_harness_new (chain_desc);
  GstElement *disp, *norm;
  GstBuffer *raw[2];
  GBytes *a, *b, *before;
  gint i;

  gst_harness_play (src);
  for (i = 0; i < 2; i++)
    raw[i] = camera_bscan (src);
  gst_harness_set_src_caps (bin, gst_pad_get_current_caps (src->sinkpad));
  gst_harness_set_src_caps (chain, gst_pad_get_current_caps (src->sinkpad));
  /* images in system memory on either backend */
  gst_harness_set_sink_caps_str (bin, "video/x-raw,format=GRAY8");
  gst_harness_set_sink_caps_str (chain, "video/x-raw,format=GRAY8");

  a = push_pull_bytes (bin, raw[0]);
  b = push_pull_bytes (chain, raw[0]);
  fail_unless_equals_int (g_bytes_get_size (a), 48 * 680);
  fail_unless (g_bytes_equal (a, b), "aooctbin differs from the chain");
  g_bytes_unref (a);
  g_bytes_unref (b);
  before = push_pull_bytes (bin, raw[1]);

  /* live changes: on the bin by name, on the chain on its elements */
  g_object_set (aooct_test_element (bin, "aooctbin"), "a2", 8.0, "a3", -2.0,
      "dynamic-range", 30.0, NULL);
  disp = aooct_test_element (chain, "aooctdisp");
  norm = aooct_test_element (chain, "aooctnorm");
  g_object_set (disp, "a2", 8.0, "a3", -2.0, NULL);
  g_object_set (norm, "dynamic-range", 30.0, NULL);
  a = push_pull_bytes (bin, raw[1]);
  b = push_pull_bytes (chain, raw[1]);
  fail_unless (g_bytes_equal (a, b), "after the change aooctbin differs");
  fail_if (g_bytes_equal (a, before), "the change had no effect");

  g_bytes_unref (a);
  g_bytes_unref (b);
  g_bytes_unref (before);
  for (i = 0; i < 2; i++)
    gst_buffer_unref (raw[i]);
  gst_harness_teardown (src);
  gst_harness_teardown (bin);
  gst_harness_teardown (chain);
  g_free (bin_desc);
  g_free (chain_desc);
}

GST_END_TEST;

/* An error inside the bin reaches the application with the step's name
 * and the message. */
GST_START_TEST (test_error_from_step)
{
  gchar *launch = g_strdup_printf ("aooctsrc num-buffers=1 ! aooctbin "
      "backend=%s wavelength-file=/nonexistent/cal.txt ! fakesink",
      aooct_test_backend);
  gchar *err = aooct_test_run_pipeline (launch, 20);

  g_free (launch);

  fail_unless (err != NULL, "a missing calibration file was accepted");
  fail_unless (strstr (err, "/nonexistent/cal.txt") != NULL, "%s", err);
  g_free (err);
}

GST_END_TEST;

static void
add_tests (TCase * tc, gboolean cuda)
{
  if (!cuda) {
    tcase_add_test (tc, test_properties_proxied);
    tcase_add_test (tc, test_properties_forwarded);
  }
  tcase_add_test (tc, test_same_as_chain);
  tcase_add_test (tc, test_error_from_step);
}

static Suite *
aooctbin_suite (void)
{
  return aooct_test_suite_per_backend ("aooctbin", add_tests);
}

GST_CHECK_MAIN (aooctbin);
