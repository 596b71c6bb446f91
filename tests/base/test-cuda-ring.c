/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: on CUDA, outputs that leave the GPU (aooctnorm's GRAY8
 * images) are pushed by the element's src task once their download has
 * completed, while the streaming thread already enqueues the next B-scans
 * (see gst/filter/gstaooctfilter.c, the output ring).  This checks that the
 * pipelining keeps exactly one image per B-scan, in input order, with the
 * input's timestamps, duration and offsets; that EOS leaves only after
 * every image; and that a flush (as a flushing seek sends) drops what was
 * in flight and the stream goes on correctly after it.  Each image is
 * compared with the CPU path's image of the same B-scan (one grey level,
 * as in test-norm-cuda.c: log10f may differ by an ulp), and the B-scans
 * differ from one another, so an image out of order would not match.
 * Exits 77 (meson: skipped) without a usable CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-synth.h"
#include "aooct-cuda-host-memory.h"

#define SAMPLES 512
#define ALINES 64
#define FRAMES 12
#define FRAME_NS (10 * GST_MSECOND)


/* B-scans: the synthetic camera's frame plus fresh noise per frame. */
static GstBuffer *frames[FRAMES];
static GstCaps *frame_caps;

static void
make_frames (void)
{
  GstElement *p;
  GstElement *sink;
  GstSample *sample;
  GstMapInfo map;
  GRand *rand = aooct_test_rand_new ();
  gchar *desc = g_strdup_printf ("aooctsrc samples=%d alines=%d "
      "num-buffers=1 ! appsink name=sink", SAMPLES, ALINES);
  gint i;
  gsize k;

  p = gst_parse_launch (desc, NULL);
  fail_unless (p != NULL);
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  fail_unless (sample != NULL);
  frame_caps = gst_caps_copy (gst_sample_get_caps (sample));
  fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
          GST_MAP_READ));
  for (i = 0; i < FRAMES; i++) {
    GstMapInfo out;
    const guint16 *src = (const guint16 *) map.data;
    guint16 *dst;

    frames[i] = gst_buffer_new_allocate (NULL, map.size, NULL);
    fail_unless (gst_buffer_map (frames[i], &out, GST_MAP_WRITE));
    dst = (guint16 *) out.data;
    for (k = 0; k < map.size / 2; k++) {
      gint v = src[k] + g_rand_int_range (rand, -400, 401);
      dst[k] = CLAMP (v, 0, 65535);
    }
    gst_buffer_unmap (frames[i], &out);
  }
  gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  gst_sample_unref (sample);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  g_rand_free (rand);
}

static void
free_frames (void)
{
  gint i;

  for (i = 0; i < FRAMES; i++)
    gst_clear_buffer (&frames[i]);
  gst_clear_caps (&frame_caps);
}

static GstHarness *
chain_harness (const gchar * backend)
{
  gchar *desc = g_strdup_printf ("aooctdcsub backend=%s ! "
      "aooctkmap wavelength-coeffs=\"%s\" backend=%s ! "
      "aooctdisp a2=%g a3=%g backend=%s ! aooctfft backend=%s ! "
      "aooctnorm backend=%s", backend, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      backend, AOOCT_SYNTH_DEFAULT_DISPERSION_A2,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A3, backend, backend, backend);
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_src_caps (h, gst_caps_copy (frame_caps));
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
  return h;
}

static GstBuffer *
stamped (gint frame, GstClockTime pts, guint64 offset)
{
  GstBuffer *b = gst_buffer_copy (frames[frame]);

  GST_BUFFER_PTS (b) = pts;
  GST_BUFFER_DURATION (b) = FRAME_NS;
  GST_BUFFER_OFFSET (b) = offset;
  GST_BUFFER_OFFSET_END (b) = offset + 1;
  return b;
}

/* Largest grey-level difference between two GRAY8 images of @caps. */
static gint
max_diff (GstBuffer * a, GstBuffer * b, GstCaps * caps)
{
  GstVideoInfo vinfo;
  GstVideoFrame fa, fb;
  gint x, y, worst = 0;

  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  fail_unless (gst_video_frame_map (&fa, &vinfo, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &vinfo, b, GST_MAP_READ));
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (&vinfo); y++) {
    const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0);
    const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0);

    for (x = 0; x < GST_VIDEO_INFO_WIDTH (&vinfo); x++)
      worst = MAX (worst, ABS ((gint) ra[x] - (gint) rb[x]));
  }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
  return worst;
}

/* The CPU path's image of every frame. */
static GstBuffer *reference[FRAMES];
static GstCaps *image_caps;

static void
make_reference (void)
{
  GstHarness *h = chain_harness ("cpu");
  gint i;

  gst_harness_play (h);
  for (i = 0; i < FRAMES; i++) {
    fail_unless_equals_int (gst_harness_push (h, stamped (i, i * FRAME_NS,
                i)), GST_FLOW_OK);
    reference[i] = gst_harness_pull (h);
    fail_unless (reference[i] != NULL);
  }
  image_caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (image_caps != NULL);
  gst_harness_teardown (h);
  /* the frames must give different images, else order is not tested */
  for (i = 1; i < FRAMES; i++)
    fail_unless (max_diff (reference[i], reference[i - 1], image_caps) > 2,
        "frames %d and %d give the same image", i - 1, i);
}

static void
free_reference (void)
{
  gint i;

  for (i = 0; i < FRAMES; i++)
    gst_clear_buffer (&reference[i]);
  gst_clear_caps (&image_caps);
}

static void
check_image (GstBuffer * out, gint frame, GstClockTime pts, guint64 offset)
{
  gint d;

  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), FRAME_NS);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), offset);
  d = max_diff (out, reference[frame], image_caps);
  fail_unless (d <= 1, "image of frame %d (pts %" GST_TIME_FORMAT ") is %d "
      "grey levels off the CPU image", frame, GST_TIME_ARGS (pts), d);
}

static gboolean
event_is_eos (GstEvent * e)
{
  return GST_EVENT_TYPE (e) == GST_EVENT_EOS;
}

/* Pulls events until EOS; returns the buffers received by then. */
static guint
buffers_at_eos (GstHarness * h)
{
  GstEvent *e;

  while ((e = gst_harness_pull_event (h)) != NULL) {
    gboolean eos = event_is_eos (e);

    gst_event_unref (e);
    if (eos)
      return gst_harness_buffers_received (h);
  }
  fail ("no EOS");
  return 0;
}

/* Many B-scans pushed back to back, then EOS: all images, in order, with
 * their timestamps, before the EOS. */
GST_START_TEST (test_order_and_eos)
{
  GstHarness *h = chain_harness ("cuda");
  gint round, i;

  gst_harness_play (h);
  for (round = 0; round < 3; round++)
    for (i = 0; i < FRAMES; i++)
      fail_unless_equals_int (gst_harness_push (h, stamped (i,
                  (round * FRAMES + i) * FRAME_NS, round * FRAMES + i)),
          GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (buffers_at_eos (h), 3 * FRAMES);
  for (round = 0; round < 3; round++)
    for (i = 0; i < FRAMES; i++) {
      GstBuffer *out = gst_harness_try_pull (h);

      fail_unless (out != NULL);
      check_image (out, i, (round * FRAMES + i) * FRAME_NS, round * FRAMES + i);
      gst_buffer_unref (out);
    }
  fail_unless (gst_harness_try_pull (h) == NULL);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* One B-scan at a time, as a slow live camera gives them: each image comes
 * without the next B-scan having to arrive. */
GST_START_TEST (test_one_at_a_time)
{
  GstHarness *h = chain_harness ("cuda");
  gint i;

  gst_harness_play (h);
  for (i = 0; i < FRAMES; i++) {
    GstBuffer *out;

    fail_unless_equals_int (gst_harness_push (h, stamped (i, i * FRAME_NS,
                i)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "no image for frame %d", i);
    check_image (out, i, i * FRAME_NS, i);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Downstream proposes no pool (the harness's sink, like appsink, fakesink
 * or filesink): each image is downloaded straight into its output buffer,
 * page-locked memory of aooctnorm's own pool, without the staging copy
 * (aooct-filter-allocation.c, aooct_filter_allocation_page_locked).  A silent
 * fall back to staging would still give the right images, only slower:
 * this is what catches it. */
GST_START_TEST (test_direct_download)
{
  GstHarness *h = chain_harness ("cuda");
  gint i;

  gst_harness_play (h);
  for (i = 0; i < FRAMES; i++)
    fail_unless_equals_int (gst_harness_push (h, stamped (i, i * FRAME_NS,
                i)), GST_FLOW_OK);
  for (i = 0; i < FRAMES; i++) {
    GstBuffer *out = gst_harness_pull (h);
    GstMemory *mem;

    fail_unless (out != NULL, "no image for frame %d", i);
    fail_unless_equals_int (gst_buffer_n_memory (out), 1);
    mem = gst_buffer_peek_memory (out, 0);
    fail_unless (gst_memory_is_type (mem, AOOCT_CUDA_HOST_MEMORY_TYPE),
        "image %d is in %s memory, not in aooctnorm's page-locked pool: "
        "it went through staging", i, mem->allocator ?
        mem->allocator->mem_type : "unknown");
    check_image (out, i, i * FRAME_NS, i);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A flush in the middle (what a flushing seek does): whatever came out
 * before is an in-order prefix, what was in flight is dropped, and every
 * B-scan after the flush comes out, in order, with its timestamps. */
GST_START_TEST (test_flush)
{
  GstHarness *h = chain_harness ("cuda");
  GstSegment segment;
  GstBuffer *out;
  guint before, n, i;

  gst_harness_play (h);
  for (i = 0; i < FRAMES; i++)
    fail_unless_equals_int (gst_harness_push (h, stamped (i, i * FRAME_NS,
                i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = 100 * FRAME_NS;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  before = gst_harness_buffers_received (h);
  fail_unless (before <= FRAMES);
  /* after the flush: the frames in reverse order, new timestamps */
  for (i = 0; i < FRAMES; i++)
    fail_unless_equals_int (gst_harness_push (h, stamped (FRAMES - 1 - i,
                (100 + i) * FRAME_NS, 100 + i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  n = buffers_at_eos (h);
  fail_unless (n == before + FRAMES, "%u images before the flush, %u at EOS",
      before, n);
  /* the harness keeps what arrived before the flush: a prefix */
  for (i = 0; i < n - FRAMES; i++) {
    out = gst_harness_try_pull (h);
    fail_unless (out != NULL);
    check_image (out, i, i * FRAME_NS, i);
    gst_buffer_unref (out);
  }
  for (i = 0; i < FRAMES; i++) {
    out = gst_harness_try_pull (h);
    fail_unless (out != NULL);
    check_image (out, FRAMES - 1 - i, (100 + i) * FRAME_NS, 100 + i);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_try_pull (h) == NULL);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Stopping with images in flight neither hangs nor leaks. */
GST_START_TEST (test_stop_in_flight)
{
  gint round, i;

  for (round = 0; round < 5; round++) {
    GstHarness *h = chain_harness ("cuda");

    gst_harness_play (h);
    for (i = 0; i < FRAMES; i++)
      fail_unless_equals_int (gst_harness_push (h, stamped (i, i * FRAME_NS,
                  i)), GST_FLOW_OK);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static void
setup (void)
{
  make_frames ();
  make_reference ();
}

static void
teardown (void)
{
  free_reference ();
  free_frames ();
}

static Suite *
ring_suite (void)
{
  Suite *s = suite_create ("aooct-cuda-ring");
  TCase *tc = tcase_create ("ring");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  /* in each test's child: check's asserts work there, and this process
   * never initialises CUDA (the CPU references do not touch it) */
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_order_and_eos);
  tcase_add_test (tc, test_one_at_a_time);
  tcase_add_test (tc, test_direct_download);
  tcase_add_test (tc, test_flush);
  tcase_add_test (tc, test_stop_in_flight);
  return s;
}

/* every test needs a device: skipped (exit 77) without one */
static Suite *
cuda_ring_suite (void)
{
  aooct_test_require_cuda ();
  return ring_suite ();
}

GST_CHECK_MAIN (cuda_ring);
