/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: what the base class negotiates, with or without a GPU
 * (aooctdcsub as the element): backend=auto|cpu|cuda and cuda-device-id
 * (without a device, cuda must fail with a clear error and auto must run
 * on the CPU; with one, auto must pick CUDA), which memory the video
 * input negotiates, the error for input in CUDA memory on the CPU, and
 * which pool the element proposes for system-memory input on each
 * backend.
 *
 * One tcase, "backend", that runs everywhere (meson: negotiation; and
 * negotiation-hidden with CUDA_VISIBLE_DEVICES empty, so that the GPU
 * machine checks the no-device answers too). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"
#include "aooct-test-pipeline.h"
#include "aooct-synth.h"
#include <unistd.h>
#include <gst/video/video.h>


/* a usable CUDA device (probed once, before any test forks) */
static gboolean have_gpu;



static gfloat *
run_harness (const gchar * launch, const guint16 * raw, gint n, gint rows,
    gboolean * cuda_caps)
{
  GstHarness *h = aooct_test_harness_new (launch);
  GstBuffer *out;
  GstMapInfo map;
  gfloat *res;

  gst_harness_set_src_caps_str (h, g_strdup_printf ("video/x-raw,format="
          "GRAY16_LE,width=%d,height=%d,framerate=0/1", n, rows));
  out = gst_harness_push_and_pull (h, aooct_test_make_frame (raw, n, rows, 2,
          aooct_test_frame_stride (n, 2)));
  fail_unless (out != NULL, "%s produced nothing", launch);
  *cuda_caps = aooct_test_caps_have_cuda_feature (h->sinkpad);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  res = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return res;
}

GST_START_TEST (test_auto_backend)
{
  const gint n = 211, rows = 40;
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = aooct_test_make_spectra (rand, n, rows, 1, 4095);
  gboolean cuda_cpu, cuda_auto, cuda_auto99;
  gfloat *cpu = run_harness ("aooctdcsub backend=cpu", raw, n, rows,
      &cuda_cpu);
  gfloat *autob = run_harness ("aooctdcsub", raw, n, rows, &cuda_auto);
  /* a device id that does not exist: auto still works, on the CPU */
  gfloat *auto99 = run_harness ("aooctdcsub cuda-device-id=99", raw, n, rows,
      &cuda_auto99);

  fail_if (cuda_cpu, "backend=cpu negotiated CUDA memory");
  fail_if (cuda_auto99, "cuda-device-id=99 negotiated CUDA memory");
  fail_unless_equals_int (cuda_auto, have_gpu);
  aooct_test_check_dc_reference (raw, cpu, n, rows, 1);
  /* auto, on whatever it picked, gives the CPU's floats */
  if (!have_gpu)
    fail_unless (memcmp (cpu, autob, sizeof (gfloat) * n * rows) == 0);
  aooct_test_check_dc_same (cpu, autob, (gsize) n * rows, raw);
  fail_unless (memcmp (cpu, auto99, sizeof (gfloat) * n * rows) == 0);
  g_free (cpu);
  g_free (autob);
  g_free (auto99);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

#define FORCED_LAUNCH \
  "videotestsrc num-buffers=2 ! video/x-raw,format=GRAY16_LE,width=65," \
  "height=16 ! aooctdcsub backend=cuda %s ! fakesink"

GST_START_TEST (test_forced_cuda)
{
  gchar *launch = g_strdup_printf (FORCED_LAUNCH, "");
  gchar *error = aooct_test_run_pipeline (launch, 20);

  if (have_gpu) {
    fail_unless (error == NULL, "backend=cuda failed with a GPU: %s", error);
  } else {
    /* a clear error: what was asked, why it cannot be, what to do */
    fail_unless (error != NULL, "backend=cuda ran without a usable GPU");
    g_print ("backend=cuda without GPU: %s\n", error);
    fail_unless (strstr (error, "backend=cuda") != NULL, "%s", error);
    fail_unless (strstr (error, "backend=cpu or auto") != NULL, "%s", error);
#ifdef HAVE_CUDA
    fail_unless (strstr (error, "CUDA") != NULL, "%s", error);
#else
    fail_unless (strstr (error, "no CUDA backend") != NULL, "%s", error);
#endif
  }
  g_free (error);
  g_free (launch);

  launch = g_strdup_printf (FORCED_LAUNCH, "cuda-device-id=99");
  error = aooct_test_run_pipeline (launch, 20);
  fail_unless (error != NULL, "cuda-device-id=99 ran");
  g_print ("backend=cuda cuda-device-id=99: %s\n", error);
  fail_unless (strstr (error, "backend=cuda") != NULL, "%s", error);
  if (have_gpu)
    fail_unless (strstr (error, "cuda-device-id=99") != NULL, "%s", error);
  g_free (error);
  g_free (launch);
}

GST_END_TEST;


#define CAPS_TAIL "format=GRAY16_LE,width=65,height=16,framerate=0/1"

/* The caps aooctdcsub @launch offers an upstream that can give both
 * memories (the order is the upstream's preference: CUDA first). */
static GstCaps *
offered_caps (const gchar * launch)
{
  GstHarness *h = aooct_test_harness_new (launch);
  GstCaps *filter =
      gst_caps_from_string ("video/x-raw(" AOOCT_TEST_CUDA_FEATURE "), "
      CAPS_TAIL "; video/x-raw, " CAPS_TAIL);
  GstCaps *caps = gst_pad_peer_query_caps (h->srcpad, filter);

  gst_caps_unref (filter);
  gst_harness_teardown (h);
  return caps;
}

static gboolean
first_is_cuda (GstCaps * caps)
{
  fail_if (gst_caps_is_empty (caps));
  return gst_caps_features_contains (gst_caps_get_features (caps, 0),
      AOOCT_TEST_CUDA_FEATURE);
}

/* Video input memory: CUDA memory when upstream offers it and the element
 * runs on CUDA; system memory from a plain source; CUDA memory on the CPU
 * is refused with a message that says why. */
GST_START_TEST (test_input_memory_negotiation)
{
  GstCaps *caps;
  GstElement *pipeline, *dcsub;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;

  caps = offered_caps ("aooctdcsub backend=cpu");
  /* check's printf is the C library's: caps as text */
  fail_if (first_is_cuda (caps), "backend=cpu offers CUDA memory: %s",
      gst_caps_to_string (caps));
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  gst_caps_unref (caps);
  caps = offered_caps ("aooctdcsub");
  fail_unless_equals_int (first_is_cuda (caps), have_gpu);
  gst_caps_unref (caps);

  /* a camera-like source: system memory, whatever the backend */
  pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=GRAY16_LE,width=65,height=16 ! "
      "aooctdcsub name=d ! fakesink", &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  dcsub = gst_bin_get_by_name (GST_BIN (pipeline), "d");
  pad = gst_element_get_static_pad (dcsub, "sink");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "videotestsrc ! aooctdcsub did not reach EOS");
  gst_message_unref (msg);
  caps = gst_pad_get_current_caps (pad);
  fail_unless (caps != NULL);
  fail_if (first_is_cuda (caps), "a system-memory source negotiated %s",
      gst_caps_to_string (caps));
  gst_caps_unref (caps);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (dcsub);
  gst_object_unref (bus);
  gst_object_unref (pipeline);

  /* an upstream that gives CUDA memory only, to an element on the CPU */
  aooct_test_expect_error ("aooctdcsub backend=cpu",
      gst_caps_from_string ("video/x-raw(" AOOCT_TEST_CUDA_FEATURE "), "
          CAPS_TAIL), "CUDA memory", "runs on the CPU", "backend=cpu",
      "system memory", NULL);
  if (!have_gpu)
    aooct_test_expect_error ("aooctdcsub",
        gst_caps_from_string ("video/x-raw(" AOOCT_TEST_CUDA_FEATURE "), "
            CAPS_TAIL), "CUDA memory", "runs on the CPU", "backend=auto", NULL);
}

GST_END_TEST;

/* Which pool aooctdcsub proposes for frames in system memory: the
 * page-locked one only on CUDA; on the CPU (backend=cpu, or auto without a
 * device) none of that memory, and frames from whatever upstream allocates
 * go through as before. */
GST_START_TEST (test_pinned_pool_offer)
{
  const gint n = 129, rows = 24;
  const gchar *caps = "video/x-raw,format=GRAY16_LE,width=129,height=24,"
      "framerate=0/1";
  const gchar *launches[] = { "aooctdcsub backend=cpu", "aooctdcsub" };
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = aooct_test_make_spectra (rand, n, rows, 1, 4095);
  gfloat *expect = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (launches); i++) {
    GstHarness *h = aooct_test_harness_new (launches[i]);
    gboolean on_cuda = i == 1 && have_gpu;
    GstBufferPool *pool;
    GstBuffer *in, *out;
    GstMapInfo map;
    guint size = 0;

    gst_harness_set_src_caps_str (h, g_strdup (caps));
    pool = aooct_test_proposed_host_pool (h, caps, &size);
    g_print ("%s: page-locked pool %s\n", launches[i], pool ? "proposed" :
        "not proposed");
    fail_unless_equals_int (pool != NULL, on_cuda);
    if (pool) {
      fail_unless_equals_int (size, aooct_test_frame_stride (n, 2) * rows);
      aooct_test_start_pool (pool, caps, size, 0);
      in = aooct_test_frame_in_pool (pool, AOOCT_TEST_HOST_MEMORY_TYPE, raw, n,
          rows, 2, aooct_test_frame_stride (n, 2));
    } else {
      in = aooct_test_make_frame (raw, n, rows, 2, aooct_test_frame_stride (n,
              2));
    }
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s produced nothing", launches[i]);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless_equals_int (map.size, n * rows * sizeof (gfloat));
    if (expect == NULL) {
      expect = g_memdup2 (map.data, map.size);
      aooct_test_check_dc_reference (raw, expect, n, rows, 1);
    } else {
      aooct_test_check_dc_same (expect, (const gfloat *) map.data,
          (gsize) n * rows, raw);
    }
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    if (pool) {
      fail_unless (gst_buffer_pool_set_active (pool, FALSE));
      gst_object_unref (pool);
    }
  }
  g_free (expect);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* issue 33 item 6: raw video without pixel-aspect-ratio fixated through
 * videoscale to 1/2147483647, and views.sh's en-face pane came out black.
 * Every raw video caps aooct gives (the sources' camera frames, aooctnorm,
 * the views, aooctbin; on CUDA also the CUDA-memory, NV12/I420/RGBA
 * variants, which the element's src pad lists here) says square pixels. */
static void
assert_square (GstCaps * caps, const gchar * what)
{
  guint i;

  fail_unless (caps != NULL && gst_caps_get_size (caps) > 0, "%s: no caps",
      what);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *st = gst_caps_get_structure (caps, i);
    gint n = 0, d = 0;

    if (!gst_structure_has_name (st, "video/x-raw"))
      continue;
    fail_unless (gst_structure_get_fraction (st, "pixel-aspect-ratio", &n,
            &d) && n == 1 && d == 1, "%s: %s", what,
        gst_structure_to_string (st));
  }
}

#define PAR_CHAIN "aooctdcsub ! aooctpad ! aooctkmap wavelength-coeffs=\"" \
  AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS "\" ! aooctdisp ! aooctfft"
#define PAR_SRC "aooctsrc num-buffers=8 alines=64 " \
  "bscans-per-volume=4"

GST_START_TEST (test_pixel_aspect_ratio)
{
  gchar *raw = aooct_test_write_temp ("");
  gchar *file_src = g_strdup_printf ("aooctfilesrc location=%s width=832 "
      "height=64", raw);
  const gchar *cases[][2] = {
    {PAR_SRC, NULL},
    {NULL, NULL},               /* aooctfilesrc, below */
    {PAR_SRC " ! " PAR_CHAIN " ! aooctnorm name=v", "v"},
    {PAR_SRC " ! " PAR_CHAIN " ! aooctenface name=v bscans-per-volume=4",
        "v"},
    {PAR_SRC " ! " PAR_CHAIN " ! aooctrender name=v bscans-per-volume=4",
        "v"},
    {PAR_SRC " ! aooctbin name=v wavelength-coeffs=\""
          AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS "\"", "v"},
  };
  guint k;

  fail_unless (truncate (raw, 832 * 64 * 2 * 2) == 0);
  cases[1][0] = file_src;
  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    gchar *launch =
        g_strdup_printf ("%s ! appsink name=out sync=false wait-on-eos=false",
        cases[k][0]);
    GstElement *p = aooct_test_run_to_eos (launch, "auto", 60);
    GList *samples = aooct_test_pull_all (p, "out");

    fail_unless (samples != NULL, "%s: no output", launch);
    assert_square (gst_sample_get_caps (samples->data), launch);
    if (cases[k][1]) {
      GstElement *v = gst_bin_get_by_name (GST_BIN (p), cases[k][1]);
      GstPad *pad = gst_element_get_static_pad (v, "src");
      GstCaps *all = gst_pad_query_caps (pad, NULL);

      /* every variant the element offers (CUDA memory on CUDA) */
      assert_square (all, launch);
      gst_caps_unref (all);
      gst_object_unref (pad);
      gst_object_unref (v);
    }
    g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
    g_free (launch);
  }
  g_unlink (raw);
  g_free (raw);
  g_free (file_src);
}

GST_END_TEST;

/* views.sh's pane: each image through videoscale into a 400 x 400
 * square with borders keeps its shape (square pixels): the picture fills
 * the centred rectangle of the image's aspect ratio and nothing outside
 * it (with 1/2147483647 it was squeezed to nothing: a black pane). */
GST_START_TEST (test_videoscale_image)
{
  const gchar *views[] = { "aooctnorm", "aooctenface bscans-per-volume=4",
    "aooctrender bscans-per-volume=4"
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (views); k++) {
    gchar *launch = g_strdup_printf (PAR_SRC " ! " PAR_CHAIN " ! %s name=v "
        "! videoconvert ! videoscale add-borders=true ! video/x-raw,"
        "width=400,height=400,pixel-aspect-ratio=1/1 ! videoconvert ! "
        "video/x-raw,format=GRAY8 ! appsink name=out sync=false "
        "wait-on-eos=false", views[k]);
    GstElement *p = aooct_test_run_to_eos (launch, "auto", 60);
    GList *samples = aooct_test_pull_all (p, "out"), *l;
    GstElement *v = gst_bin_get_by_name (GST_BIN (p), "v");
    GstPad *pad = gst_element_get_static_pad (v, "src");
    GstCaps *caps = gst_pad_get_current_caps (pad);
    GstStructure *st = gst_caps_get_structure (caps, 0);
    gint w = 0, h = 0, x0, x1, y0, y1;

    fail_unless (gst_structure_get_int (st, "width", &w)
        && gst_structure_get_int (st, "height", &h));
    /* the picture's rectangle in the square, +-2 pixels of rounding */
    if (w >= h) {
      x0 = 0;
      x1 = 400;
      y0 = (400 - 400 * h / w) / 2;
      y1 = 400 - y0;
    } else {
      y0 = 0;
      y1 = 400;
      x0 = (400 - 400 * w / h) / 2;
      x1 = 400 - x0;
    }
    fail_unless (samples != NULL, "%s: no output", launch);
    for (l = samples; l; l = l->next) {
      GstVideoInfo info;
      GstVideoFrame frame;
      guint inside = 0, outside = 0;
      gint r, c;

      fail_unless (gst_video_info_from_caps (&info,
              gst_sample_get_caps (l->data)));
      fail_unless (gst_video_frame_map (&frame, &info,
              gst_sample_get_buffer (l->data), GST_MAP_READ));
      for (r = 0; r < 400; r++)
        for (c = 0; c < 400; c++) {
          guint val = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
                  0))[r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + c];

          if (r >= y0 + 2 && r < y1 - 2 && c >= x0 + 2 && c < x1 - 2)
            inside += val > 64;
          else if (r < y0 - 2 || r >= y1 + 2 || c < x0 - 2 || c >= x1 + 2)
            outside += val > 16;
        }
      gst_video_frame_unmap (&frame);
      /* a picture (5 % of its rectangle bright), and borders */
      fail_unless (inside * 20 > (guint) ((y1 - y0) * (x1 - x0))
          && outside == 0, "%s: the %dx%d image in [%d, %d) x [%d, %d): "
          "%u bright pixels inside, %u not black outside", launch, w, h,
          x0, x1, y0, y1, inside, outside);
    }
    gst_caps_unref (caps);
    gst_object_unref (pad);
    gst_object_unref (v);
    g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
    g_free (launch);
  }
}

GST_END_TEST;

static Suite *
negotiation_suite (void)
{
  Suite *s = suite_create ("aooct-negotiation");
  TCase *tc = tcase_create ("backend");
  gchar *why = NULL;

  have_gpu = aooct_test_cuda_available (&why);
  g_print ("CUDA device: %s\n", have_gpu ? "yes" : why);
  g_free (why);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_auto_backend);
  tcase_add_test (tc, test_forced_cuda);
  tcase_add_test (tc, test_input_memory_negotiation);
  tcase_add_test (tc, test_pinned_pool_offer);
  tcase_add_test (tc, test_pixel_aspect_ratio);
  tcase_add_test (tc, test_videoscale_image);
  return s;
}

GST_CHECK_MAIN (negotiation);
