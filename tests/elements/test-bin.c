/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctbin, the whole chain as one element, on each backend
 * (its properties once, on "cpu"). */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>

#include <gst/base/gstbasetransform.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-pipeline.h"

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
    /* gpus: the bin's own (branches, tested below) */
    if (own[k]->owner_type != GST_TYPE_OBJECT &&
        own[k]->owner_type != GST_TYPE_BIN && !g_str_equal (own[k]->name,
            "gpus")) {
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

/* gpus=0,1: a branch per entry (branch0, branch1), each pinned to its
 * device; what was set on the bin before is kept, what is set after goes
 * to every branch; a bad list makes the start fail. */
GST_START_TEST (test_gpus_property)
{
  GstElement *bin = gst_element_factory_make ("aooctbin", NULL);
  gdouble a2 = 0;
  gint dev = -1, crop = 0, k;
  gchar *gpus = NULL;

  g_object_set (bin, "a2", 3.25, NULL);
  g_object_set (bin, "gpus", "0,1", NULL);
  g_object_set (bin, "crop-start", 7, NULL);
  g_object_get (bin, "gpus", &gpus, NULL);
  fail_unless_equals_string (gpus, "0,1");
  g_free (gpus);
  for (k = 0; k < 2; k++) {
    gchar *path = g_strdup_printf ("branch%d::disp::a2", k);
    GValue v = G_VALUE_INIT;

    fail_unless (gst_child_proxy_lookup (GST_CHILD_PROXY (bin), path, NULL,
            NULL), "no %s", path);
    gst_child_proxy_get_property (GST_CHILD_PROXY (bin), path, &v);
    fail_unless (g_value_get_double (&v) == 3.25, "%s", path);
    g_value_unset (&v);
    g_free (path);
    path = g_strdup_printf ("branch%d::norm::crop-start", k);
    gst_child_proxy_get (GST_CHILD_PROXY (bin), path, &crop, NULL);
    fail_unless_equals_int (crop, 7);
    g_free (path);
    path = g_strdup_printf ("branch%d::fft::cuda-device-id", k);
    gst_child_proxy_get (GST_CHILD_PROXY (bin), path, &dev, NULL);
    fail_unless_equals_int (dev, k);
    g_free (path);
  }
  g_object_get (bin, "a2", &a2, NULL);
  fail_unless (a2 == 3.25);
  /* back to one chain, settings kept */
  g_object_set (bin, "gpus", "", NULL);
  fail_if (gst_child_proxy_lookup (GST_CHILD_PROXY (bin), "branch0::disp::a2",
          NULL, NULL));
  g_object_get (bin, "a2", &a2, "crop-start", &crop, NULL);
  fail_unless (a2 == 3.25);
  fail_unless_equals_int (crop, 7);
  /* one GPU, twice: a chain in the bin itself replaces the one there (of
   * the same element names; this aborted on the GPU host) */
  for (k = 0; k < 2; k++) {
    g_object_set (bin, "gpus", "1", NULL);
    gst_child_proxy_get (GST_CHILD_PROXY (bin), "fft::cuda-device-id", &dev,
        NULL);
    fail_unless_equals_int (dev, 1);
    g_object_get (bin, "a2", &a2, NULL);
    fail_unless (a2 == 3.25);
    fail_unless_equals_int (GST_BIN_NUMCHILDREN (bin), 6);
  }
  /* a bad list: the chains stay, and the start fails (test_gpus_invalid) */
  g_object_set (bin, "gpus", "0,one", NULL);
  g_object_get (bin, "gpus", &gpus, NULL);
  fail_unless_equals_string (gpus, "1");
  g_free (gpus);
  fail_unless_equals_int (gst_element_set_state (bin, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  /* a good one again: it starts */
  g_object_set (bin, "gpus", "1", NULL);
  fail_unless_equals_int (gst_element_set_state (bin, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (bin, GST_STATE_NULL);
  gst_object_unref (bin);
}

GST_END_TEST;

/* gpus may change in READY too (nothing runs yet): the new branches
 * follow the pipeline up and the stream runs through them to EOS. */
GST_START_TEST (test_gpus_in_ready)
{
  GstElement *p = gst_parse_launch ("aooctsrc num-buffers=4 samples=128 "
      "alines=64 wavelength-coeffs=780,1 ! aooctbin name=b backend=cpu "
      "wavelength-coeffs=780,1 ! fakesink", NULL);
  GstElement *bin = gst_bin_get_by_name (GST_BIN (p), "b");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;

  fail_unless_equals_int (gst_element_set_state (p, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (bin, "gpus", "0,0", NULL);
  fail_unless (gst_child_proxy_lookup (GST_CHILD_PROXY (bin),
          "branch1::disp::a2", NULL, NULL));
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "no EOS through branches made in READY");
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (bin);
  gst_object_unref (p);
}

GST_END_TEST;

/* gpus changes only while stopped: running, a change is a warning and
 * the branches stay. */
GST_START_TEST (test_gpus_while_running)
{
  GstHarness *h = aooct_test_harness_new ("aooctbin backend=cpu gpus=0,0 "
      PROPS);
  GstElement *bin = aooct_test_element (h, "aooctbin");
  gchar *gpus = NULL;

  gst_harness_play (h);
  g_object_set (bin, "gpus", "0", NULL);
  aooct_test_assert_warning (h, "gpus", "stopped", NULL);
  g_object_get (bin, "gpus", &gpus, NULL);
  fail_unless_equals_string (gpus, "0,0");
  fail_unless (gst_child_proxy_lookup (GST_CHILD_PROXY (bin),
          "branch1::disp::a2", NULL, NULL));
  g_free (gpus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* the thesis geometry: 832 x 240 padded 2048 -> 4096 */
#define THESIS_SRC "aooctsrc samples=832 alines=240 seed=17 num-buffers=10 " \
  "center-wavelength=800 bandwidth=20"
#define THESIS_PROPS "size=2048 factor=2 " \
  "wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" a2=8 a3=-2 window=hann"

/* Every image of appsink "out" after @launch ran (GBytes list). */
static GList *
images_of (const gchar * launch)
{
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 200);
  GList *samples = aooct_test_pull_all (p, "out"), *l, *bytes = NULL;

  for (l = samples; l; l = l->next) {
    GstBuffer *b = gst_sample_get_buffer (l->data);
    GstMapInfo map;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    bytes = g_list_append (bytes, g_bytes_new (map.data, map.size));
    gst_buffer_unmap (b, &map);
  }
  g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return bytes;
}

static void
assert_same_images (GList * a, GList * b, const gchar * what)
{
  guint i = 0;

  fail_unless_equals_int (g_list_length (a), g_list_length (b));
  for (; a && b; a = a->next, b = b->next, i++)
    fail_unless (g_bytes_equal (a->data, b->data), "%s: image %u differs",
        what, i);
}

/* Two branches (gpus=0,0: both on device 0 where there is CUDA) give the
 * images of one chain, byte for byte, in order, on the thesis phantom. */
GST_START_TEST (test_branches_same_images)
{
  gchar *one = g_strdup_printf (THESIS_SRC " ! aooctbin backend=%s "
      THESIS_PROPS " ! appsink name=out sync=false wait-on-eos=false",
      aooct_test_backend);
  gchar *two =
      g_strdup_printf (THESIS_SRC " ! aooctbin backend=%s gpus=0,0 "
      THESIS_PROPS " ! appsink name=out sync=false wait-on-eos=false",
      aooct_test_backend);
  GList *a = images_of (one), *b = images_of (two);

  fail_unless_equals_int (g_list_length (a), 10);
  assert_same_images (a, b, "gpus=0,0 against one chain");
  g_list_free_full (a, (GDestroyNotify) g_bytes_unref);
  g_list_free_full (b, (GDestroyNotify) g_bytes_unref);
  g_free (one);
  g_free (two);
}

GST_END_TEST;

/* The volume views come after the merge: aooctsplit ! (dcsub ... fft) x 2
 * ! aooctmerge ! aooctenface gives the en-face image of one chain. */
GST_START_TEST (test_views_after_merge)
{
  const gchar *chain = "aooctdcsub ! aooctpad size=2048 factor=2 ! "
      "aooctkmap wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" ! aooctdisp "
      "a2=8 a3=-2 ! aooctfft";
  gchar *v = g_strdup_printf ("aooctenface backend=%s bscans-per-volume=5",
      aooct_test_backend);
  gchar *one = g_strdup_printf (THESIS_SRC " ! %s ! %s ! appsink name=out "
      "sync=false wait-on-eos=false", chain, v);
  gchar *two = g_strdup_printf (THESIS_SRC " ! aooctsplit name=s "
      "aooctmerge name=m ! %s ! appsink name=out sync=false wait-on-eos=false "
      "s. ! queue ! %s ! m.  s. ! queue ! %s ! m.", v, chain, chain);
  GList *a = images_of (one), *b = images_of (two);

  fail_unless_equals_int (g_list_length (a), 2);
  assert_same_images (a, b, "en face after aooctmerge");
  g_list_free_full (a, (GDestroyNotify) g_bytes_unref);
  g_list_free_full (b, (GDestroyNotify) g_bytes_unref);
  g_free (v);
  g_free (one);
  g_free (two);
}

GST_END_TEST;

/* Or the distribution by volume: aooctsplit buffers-per-branch=5 hands
 * each branch whole volumes of 5 B-scans, aooctenface runs in the
 * branches, and aooctmerge puts the images back in volume order: those of
 * one chain. */
GST_START_TEST (test_views_in_branches)
{
  const gchar *src = "aooctsrc samples=832 alines=240 seed=19 "
      "num-buffers=20 center-wavelength=800 bandwidth=20";
  gchar *chain = g_strdup_printf ("aooctdcsub ! aooctpad size=2048 factor=2 "
      "! aooctkmap wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" ! aooctdisp "
      "a2=8 a3=-2 ! aooctfft ! aooctenface backend=%s bscans-per-volume=5",
      aooct_test_backend);
  gchar *one = g_strdup_printf ("%s ! %s ! appsink name=out sync=false "
      "wait-on-eos=false", src, chain);
  gchar *two = g_strdup_printf ("%s ! aooctsplit name=s buffers-per-branch=5 "
      "aooctmerge name=m ! appsink name=out sync=false wait-on-eos=false "
      "s. ! queue ! %s ! m.  s. ! queue ! %s ! m.", src, chain, chain);
  GList *a = images_of (one), *b = images_of (two);

  fail_unless_equals_int (g_list_length (a), 4);
  assert_same_images (a, b, "en face in the branches, by volume");
  g_list_free_full (a, (GDestroyNotify) g_bytes_unref);
  g_list_free_full (b, (GDestroyNotify) g_bytes_unref);
  g_free (chain);
  g_free (one);
  g_free (two);
}

GST_END_TEST;

/* The images of @launch (appsink "out") after a flushing seek to
 * @seek_ms, as bytes (GBytes list). */
static GList *
images_after_seek (const gchar * launch, gint seek_ms)
{
  GstElement *p = gst_parse_launch (launch, NULL);
  GList *images;

  fail_unless (p != NULL, "%s", launch);
  images = aooct_test_play_images (p, "out", seek_ms);
  gst_object_unref (p);
  return images;
}

/* A raw file through two branches, from the start and after a flushing
 * seek into it (B-scans in flight in both branches are flushed): the
 * images of one chain from the same B-scan on, none lost or twice. */
GST_START_TEST (test_branches_seek)
{
  const gint w = 1024, h = 64, n = 30;
  guint16 *data = g_new (guint16, (gsize) w * h * n);
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("aooct-bin-seek-XXXXXX.raw", &path, NULL);
  gint i, seek_ms[] = { 0, 120 };

  fail_unless (fd >= 0);
  close (fd);
  for (i = 0; i < w * h * n; i++)
    data[i] = GUINT16_TO_LE ((i * 7 + (i / w) * 13) % 4096);
  fail_unless (g_file_set_contents (path, (const gchar *) data,
          (gssize) w * h * n * 2, NULL));
  for (i = 0; i < 2; i++) {
    gchar *one = g_strdup_printf ("aooctfilesrc location=%s width=%d "
        "height=%d framerate=100/1 ! aooctbin backend=%s "
        "wavelength-coeffs=\"785,0.054\" a2=8 ! appsink name=out sync=false",
        path, w, h, aooct_test_backend);
    gchar *two = g_strdup_printf ("aooctfilesrc location=%s width=%d "
        "height=%d framerate=100/1 ! aooctbin backend=%s gpus=0,0 "
        "wavelength-coeffs=\"785,0.054\" a2=8 ! appsink name=out sync=false",
        path, w, h, aooct_test_backend);
    GList *a = images_after_seek (one, seek_ms[i]);
    GList *b = images_after_seek (two, seek_ms[i]);

    fail_unless_equals_int (g_list_length (a), i == 0 ? n : n - 12);
    assert_same_images (a, b, "two branches after a seek");
    g_list_free_full (a, (GDestroyNotify) g_bytes_unref);
    g_list_free_full (b, (GDestroyNotify) g_bytes_unref);
    g_free (one);
    g_free (two);
  }
  g_unlink (path);
  g_free (path);
  g_free (data);
}

GST_END_TEST;

/* A change made on the bin while the branches run takes effect from the
 * same B-scan on every branch: 4 B-scans pushed (still in the branches),
 * a2, a3, window and the display range changed, 4 more; the 8 images are
 * those of one chain changed between the 4th and the 5th. */
GST_START_TEST (test_branches_live_change)
{
  const gchar *be = aooct_test_backend;
  GstHarness *src = aooct_test_harness_new ("aooctsrc seed=11 alines=48");
  gchar *d1 = g_strdup_printf ("aooctbin backend=%s " PROPS, be);
  gchar *d2 = g_strdup_printf ("aooctbin backend=%s gpus=0,0 " PROPS, be);
  GstHarness *one = aooct_test_harness_new (d1);
  GstHarness *two = aooct_test_harness_new (d2);
  GBytes *a[8], *b[8];
  GstBuffer *raw[8];
  gint i;

  gst_harness_play (src);
  for (i = 0; i < 8; i++)
    raw[i] = camera_bscan (src);
  gst_harness_set_src_caps (one, gst_pad_get_current_caps (src->sinkpad));
  gst_harness_set_src_caps (two, gst_pad_get_current_caps (src->sinkpad));
  gst_harness_set_sink_caps_str (one, "video/x-raw,format=GRAY8");
  gst_harness_set_sink_caps_str (two, "video/x-raw,format=GRAY8");

  for (i = 0; i < 8; i++) {
    if (i == 4) {
      g_object_set (aooct_test_element (one, "aooctbin"), "a2", 8.0, "a3",
          -2.0, "dynamic-range", 30.0, NULL);
      gst_util_set_object_arg (G_OBJECT (aooct_test_element (one,
                  "aooctbin")), "window", "blackman");
      g_object_set (aooct_test_element (two, "aooctbin"), "a2", 8.0, "a3",
          -2.0, "dynamic-range", 30.0, NULL);
      gst_util_set_object_arg (G_OBJECT (aooct_test_element (two,
                  "aooctbin")), "window", "blackman");
    }
    a[i] = push_pull_bytes (one, raw[i]);
    /* no pull: the branches hold several B-scans at the change */
    fail_unless_equals_int (gst_harness_push (two, gst_buffer_ref (raw[i])),
        GST_FLOW_OK);
  }
  for (i = 0; i < 8; i++) {
    GstBuffer *out = gst_harness_pull (two);
    GstMapInfo map;

    fail_unless (out != NULL);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    b[i] = g_bytes_new (map.data, map.size);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
  }
  fail_if (g_bytes_equal (a[3], a[4]) && g_bytes_equal (a[2], a[5]),
      "the change had no effect");
  for (i = 0; i < 8; i++) {
    fail_unless (g_bytes_equal (a[i], b[i]), "B-scan %d differs from one "
        "chain changed between the 4th and the 5th", i);
    g_bytes_unref (a[i]);
    g_bytes_unref (b[i]);
    gst_buffer_unref (raw[i]);
  }
  gst_harness_teardown (src);
  gst_harness_teardown (one);
  gst_harness_teardown (two);
  g_free (d1);
  g_free (d2);
}

GST_END_TEST;

/* An error in a branch reaches the application naming the branch and its
 * device, with the step's message. */
GST_START_TEST (test_error_from_branch)
{
  gchar *launch = g_strdup_printf ("aooctsrc num-buffers=2 ! aooctbin "
      "backend=%s gpus=0,0 wavelength-file=/nonexistent/cal.txt ! fakesink",
      aooct_test_backend);
  gchar *err = aooct_test_run_pipeline (launch, 20);

  g_free (launch);
  fail_unless (err != NULL, "a missing calibration file was accepted");
  fail_unless (strstr (err, "/nonexistent/cal.txt") != NULL, "%s", err);
  fail_unless (strstr (err, "(cuda-device-id=0)") != NULL, "%s", err);
  fail_unless (strstr (err, "branch 0 ") || strstr (err, "branch 1 "), "%s",
      err);
  g_free (err);
}

GST_END_TEST;

/* ---- stateful settings in branches (issue 41) ---------------------------
 * Every setting that makes an element's output depend on more than the
 * buffer in hand, inside the branches of a pair: either the images of
 * one chain (groups and volumes handed whole to a branch), or an element
 * error naming the setting; never other images, silently. */

/* a small camera: 128 samples from 780 nm, 1 nm apart; 24 B-scans */
#define SMALL_SRC "aooctsrc samples=128 alines=64 seed=7 " \
  "wavelength-coeffs=780,1 num-buffers=24"
#define SMALL_DEPTH "aooctdcsub ! aooctkmap wavelength-coeffs=780,1 ! " \
  "aooctdisp a2=8 ! aooctfft"

/* @one and @two give the same images, at least one */
static void
assert_same_runs (const gchar * one, const gchar * two, const gchar * what)
{
  GList *a = images_of (one), *b = images_of (two);

  fail_unless (g_list_length (a) > 0, "%s", one);
  assert_same_images (a, b, what);
  g_list_free_full (a, (GDestroyNotify) g_bytes_unref);
  g_list_free_full (b, (GDestroyNotify) g_bytes_unref);
}

/* SMALL_SRC ! @chain ! appsink, and the same with @chain in two branches
 * of aooctsplit buffers-per-branch=@bpb: with @error NULL, the same
 * images (at least one); else the pair stops with an error containing
 * @error and the name of @what. */
static void
check_in_branches (const gchar * chain, guint bpb, const gchar * error)
{
  gchar *c = aooct_test_with_backend (chain, aooct_test_backend);
  gchar *one = g_strdup_printf (SMALL_SRC " ! %s ! appsink name=out "
      "sync=false wait-on-eos=false", c);
  gchar *two = g_strdup_printf (SMALL_SRC " ! aooctsplit name=s "
      "buffers-per-branch=%u aooctmerge name=m ! appsink name=out sync=false "
      "wait-on-eos=false  s. ! queue ! %s ! m.  s. ! queue ! %s ! m.", bpb, c,
      c);

  if (error == NULL) {
    assert_same_runs (one, two, chain);
  } else {
    gchar *err = aooct_test_run_pipeline (two, 60);

    fail_unless (err != NULL, "%s: accepted in branches: %s", chain, two);
    fail_unless (strstr (err, error) != NULL, "%s: %s", chain, err);
    fail_unless (strstr (err, "aooctsplit") != NULL, "%s: %s", chain, err);
    g_free (err);
    /* one branch of a pair is one chain: accepted */
    g_free (two);
    two = g_strdup_printf (SMALL_SRC " ! aooctsplit name=s aooctmerge "
        "name=m ! appsink name=out sync=false wait-on-eos=false  s. ! queue "
        "! %s ! m.", c);
    assert_same_runs (one, two, "one branch");
  }
  g_free (c);
  g_free (one);
  g_free (two);
}

/* The settings that need every B-scan in order: refused in branches, by
 * the element (a bare pair) and by aooctbin gpus= before it starts. */
GST_START_TEST (test_branches_refuse_history)
{
  static const struct
  {
    const gchar *chain, *bin, *named;
  } cases[] = {
    {"aooctdcsub mode=rolling-mean rolling-bscans=4 ! aooctkmap "
          "wavelength-coeffs=780,1 ! aooctdisp a2=8 ! aooctfft ! aooctnorm",
        "mode=rolling-mean rolling-bscans=4", "rolling-mean"},
    {SMALL_DEPTH " ! aooctnorm average-bscans=3", "average-bscans=3",
        "average-bscans=3"},
    {"aooctdcsub ! aooctkmap wavelength-coeffs=780,1 ! aooctdisp "
          "estimate=true ! aooctfft ! aooctnorm", "estimate=true",
        "estimate=true"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *launch = g_strdup_printf (SMALL_SRC " ! aooctbin backend=%s "
        "gpus=0,0 wavelength-coeffs=780,1 %s ! fakesink", aooct_test_backend,
        cases[i].bin);
    gchar *err;

    check_in_branches (cases[i].chain, 1, cases[i].named);
    check_in_branches (cases[i].chain, 0, cases[i].named);
    /* with whole volumes per branch too: the state spans them */
    check_in_branches (cases[i].chain, 6, cases[i].named);
    err = aooct_test_run_pipeline (launch, 60);
    fail_unless (err != NULL, "accepted: %s", launch);
    fail_unless (strstr (err, cases[i].named) != NULL, "%s", err);
    fail_unless (strstr (err, "gpus=0,0") != NULL, "%s", err);
    g_free (err);
    g_free (launch);
  }
}

GST_END_TEST;

/* The re-estimate signal (estimate=false) holds a2/a3 from one B-scan
 * too: in branches, each would estimate on its own; refused. */
GST_START_TEST (test_branches_refuse_re_estimate)
{
  gchar *chain = aooct_test_with_backend ("aooctdcsub ! aooctkmap "
      "wavelength-coeffs=780,1 ! aooctdisp name=dK ! aooctfft ! aooctnorm",
      aooct_test_backend);
  GString *launch = g_string_new (SMALL_SRC " ! aooctsplit name=s "
      "aooctmerge name=m ! fakesink ");
  GstElement *p;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gint k;

  for (k = 0; k < 2; k++) {
    gchar *c = g_strdup (chain), *d = strstr (c, "name=dK");

    d[6] = '0' + k;
    g_string_append_printf (launch, " s. ! queue ! %s ! m.", c);
    g_free (c);
  }
  p = gst_parse_launch (launch->str, NULL);
  fail_unless (p != NULL, "%s", launch->str);
  for (k = 0; k < 2; k++) {
    gchar *name = g_strdup_printf ("d%d", k);
    GstElement *d = gst_bin_get_by_name (GST_BIN (p), name);

    g_signal_emit_by_name (d, "re-estimate");
    gst_object_unref (d);
    g_free (name);
  }
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "re-estimate in branches accepted");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "re-estimate") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_string_free (launch, TRUE);
  g_free (chain);
}

GST_END_TEST;

/* The elements that make one image of a group of B-scans: a group split
 * over branches is refused naming its property; groups handed whole to
 * a branch (buffers-per-branch a multiple of the group) give the images
 * of one chain.  aooctdoppler and the default aooctnorm work per B-scan:
 * any split gives one chain's images. */
GST_START_TEST (test_branches_groups)
{
  /* aooctangio: repeats=4 */
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=4", 1, "repeats=4");
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=4", 2, "repeats=4");
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=4", 4, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=4", 8, NULL);
  /* the volume views: bscans-per-volume=6 */
  check_in_branches (SMALL_DEPTH " ! aooctenface bscans-per-volume=6", 4,
      "bscans-per-volume=6");
  check_in_branches (SMALL_DEPTH " ! aooctenface bscans-per-volume=6", 6, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctrender bscans-per-volume=6", 3,
      "bscans-per-volume=6");
  check_in_branches (SMALL_DEPTH " ! aooctrender bscans-per-volume=6", 12,
      NULL);
  /* aooctflowenface: volumes of 3 angiograms of 2 repeats (6 B-scans) */
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=2 ! aooctflowenface "
      "bscans-per-volume=3", 2, "bscans-per-volume=3");
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=2 ! aooctflowenface "
      "bscans-per-volume=3", 6, NULL);
  /* buffers-per-branch=0 (the default): aooctsplit asks the branches and
   * hands each whole groups */
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=4", 0, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctenface bscans-per-volume=6", 0, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctrender bscans-per-volume=6", 0, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctangio repeats=2 ! aooctflowenface "
      "bscans-per-volume=3", 0, NULL);
  /* per B-scan */
  check_in_branches (SMALL_DEPTH " ! aooctdoppler", 0, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctdoppler", 1, NULL);
  check_in_branches (SMALL_DEPTH " ! aooctnorm", 1, NULL);
}

GST_END_TEST;

/* gpus that is not a list of device numbers: the start fails with an
 * error naming the entry, not one chain run as if nothing were wrong. */
GST_START_TEST (test_gpus_invalid)
{
  const gchar *bad[] = { "abc", "0,,1", "1,x", "99999999999999999999", "-1",
    "64"
  };
  const gchar *token[] = { "\"abc\"", "\"\"", "\"x\"",
    "\"99999999999999999999\"", "\"-1\"", "\"64\""
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *launch = g_strdup_printf ("aooctsrc num-buffers=2 ! aooctbin "
        "backend=cpu gpus=%s ! fakesink", bad[i]);

    aooct_test_expect_pipeline_error (launch, "gpus=", token[i],
        "not a CUDA device number", NULL);
    g_free (launch);
  }
}

GST_END_TEST;

static void
add_tests (TCase * tc, gboolean cuda)
{
  if (!cuda) {
    tcase_add_test (tc, test_properties_proxied);
    tcase_add_test (tc, test_properties_forwarded);
    tcase_add_test (tc, test_gpus_property);
    tcase_add_test (tc, test_gpus_while_running);
    tcase_add_test (tc, test_gpus_invalid);
    tcase_add_test (tc, test_gpus_in_ready);
  }
  tcase_add_test (tc, test_same_as_chain);
  tcase_add_test (tc, test_error_from_step);
  tcase_add_test (tc, test_branches_same_images);
  tcase_add_test (tc, test_views_after_merge);
  tcase_add_test (tc, test_views_in_branches);
  tcase_add_test (tc, test_branches_seek);
  tcase_add_test (tc, test_branches_live_change);
  tcase_add_test (tc, test_error_from_branch);
  tcase_add_test (tc, test_branches_refuse_history);
  tcase_add_test (tc, test_branches_groups);
  tcase_add_test (tc, test_branches_refuse_re_estimate);
}

static Suite *
aooctbin_suite (void)
{
  return aooct_test_suite_per_backend ("aooctbin", add_tests);
}

GST_CHECK_MAIN (aooctbin);
