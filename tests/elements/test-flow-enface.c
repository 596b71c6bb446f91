/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctflowenface, the en-face image of a volume of flow
 * images: each image's slab projected into one row (maximum, rounded
 * mean), GRAY8 and GRAY16, the timestamp and rate of a volume, a partial
 * volume at EOS and before new caps, a flush in the middle of a volume, a
 * volume size changed while playing, a slab that does not fit. */
#include <string.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"

#define W 7                     /* width of the test images (odd: padded
                                 * GRAY8 rows) */
#define H 9

static GstHarness *
enface_harness (const gchar * props, const gchar * format, gint fps_n)
{
  gchar *launch = g_strdup_printf ("aooctflowenface %s", props);
  GstHarness *h = aooct_test_harness_new (launch);

  aooct_test_set_caps_printf (h, "video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=%d/1", format, W, H, fps_n);
  g_free (launch);
  return h;
}

/* An image of random grey levels, its rows padded as GStreamer pads
 * them; @img receives the values (H x W) */
static GstBuffer *
make_image (GRand * rand, gboolean wide, guint * img, GstClockTime pts)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  gint r, c;

  gst_video_info_set_format (&info, wide ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8, W, H);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (r = 0; r < H; r++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (c = 0; c < W; c++) {
      guint v = g_rand_int_range (rand, 0, wide ? 65536 : 256);

      img[r * W + c] = v;
      if (wide)
        GST_WRITE_UINT16_LE (row + 2 * c, v);
      else
        row[c] = v;
    }
  }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 10;
  return buf;
}

/* Pixel (row v, column c) of @out, an en-face image of @height rows */
static guint
pixel (GstBuffer * out, gboolean wide, gint height, gint v, gint c)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  guint8 *row;
  guint val;

  gst_video_info_set_format (&info, wide ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_GRAY8, W, height);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
      (gsize) v *GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  val = wide ? GST_READ_UINT16_LE (row + 2 * c) : row[c];
  gst_video_frame_unmap (&frame);
  return val;
}

/* What row @v of the en-face image must hold, from image @img */
static guint
expect (const guint * img, gint c, gint from, gint to, gboolean mean)
{
  guint64 sum = 0;
  guint max = 0;
  gint r;

  for (r = from; r < to; r++) {
    sum += img[r * W + c];
    max = MAX (max, img[r * W + c]);
  }
  /* round half up: sum / n + 0.5, floored */
  return mean ? (guint) ((sum + (to - from) / 2.0) / (to - from)) : max;
}

static void
check_projection (const gchar * format, const gchar * props, gint from,
    gint to, gboolean mean)
{
  gboolean wide = g_str_equal (format, "GRAY16_LE");
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = enface_harness (props, format, 10);
  guint img[3][H * W];
  GstBuffer *out;
  GstCaps *caps;
  GstStructure *st;
  gint v, c, fn, fd, height;

  for (v = 0; v < 3; v++) {
    fail_unless_equals_int (gst_harness_push (h, make_image (rand, wide,
                img[v], GST_SECOND + v * GST_SECOND / 10)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_received (h), v == 2);
  }
  out = gst_harness_pull (h);
  caps = gst_pad_get_current_caps (h->sinkpad);
  st = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (st, "height", &height));
  fail_unless_equals_int (height, 3);
  fail_unless (gst_structure_get_fraction (st, "framerate", &fn, &fd));
  fail_unless (fn * 3 == 10 * fd, "framerate %d/%d", fn, fd);
  fail_unless_equals_string (gst_structure_get_string (st, "format"), format);
  gst_caps_unref (caps);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_SECOND);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), 3 * GST_SECOND / 10);
  for (v = 0; v < 3; v++)
    for (c = 0; c < W; c++)
      fail_unless_equals_int (pixel (out, wide, 3, v, c),
          expect (img[v], c, from, to, mean));
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_START_TEST (test_projection)
{
  check_projection ("GRAY8", "bscans-per-volume=3", 0, H, FALSE);
  check_projection ("GRAY8", "bscans-per-volume=3 crop-start=2 crop-end=7 "
      "projection=mean", 2, 7, TRUE);
  check_projection ("GRAY16_LE", "bscans-per-volume=3 crop-start=4", 4, H,
      FALSE);
  check_projection ("GRAY16_LE", "bscans-per-volume=3 crop-end=5 "
      "projection=mean", 0, 5, TRUE);
  /* one row: the row itself */
  check_projection ("GRAY8", "bscans-per-volume=3 crop-start=3 crop-end=4 "
      "projection=mean", 3, 4, TRUE);
}

GST_END_TEST;

/* The last GAP event @h received is at @start, of no duration: the
 * pending image's timestamp (aooct-gap.h) */
static void
expect_gap (GstHarness * h, GstClockTime start)
{
  GstEvent *ev;
  GstClockTime ts = GST_CLOCK_TIME_NONE, dur = 0;

  while ((ev = gst_harness_try_pull_event (h))) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_GAP)
      gst_event_parse_gap (ev, &ts, &dur);
    gst_event_unref (ev);
  }
  fail_unless_equals_uint64 (ts, start);
  fail_unless_equals_uint64 (dur, 0);
}

/* EOS after 2 of 4 images: the volume comes out, rows 2 and 3 black */
GST_START_TEST (test_partial_at_eos)
{
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = enface_harness ("bscans-per-volume=4", "GRAY8", 10);
  guint img[H * W];
  GstBuffer *out;
  gint v, c;

  for (v = 0; v < 2; v++)
    gst_harness_push (h, make_image (rand, FALSE, img, v * GST_SECOND));
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  /* while the volume fills, GAPs (start, 0) at its start (aooct-gap.h) */
  expect_gap (h, 0);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  out = gst_harness_pull (h);
  for (c = 0; c < W; c++) {
    fail_unless_equals_int (pixel (out, FALSE, 4, 1, c), expect (img, c, 0,
            H, FALSE));
    fail_unless_equals_int (pixel (out, FALSE, 4, 2, c), 0);
    fail_unless_equals_int (pixel (out, FALSE, 4, 3, c), 0);
  }
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* A flush in the middle of a volume drops it: the next volume starts
 * over at row 0; new caps push the partial volume of the old ones. */
GST_START_TEST (test_flush_and_new_caps)
{
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = enface_harness ("bscans-per-volume=2", "GRAY8", 10);
  guint img[H * W], img2[H * W];
  GstSegment segment;
  GstBuffer *out;
  gint c;

  gst_harness_push (h, make_image (rand, FALSE, img, 0));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  gst_harness_push (h, make_image (rand, FALSE, img2, GST_SECOND));
  gst_harness_push (h, make_image (rand, FALSE, img, 2 * GST_SECOND));
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  out = gst_harness_pull (h);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_SECOND);
  for (c = 0; c < W; c++)
    fail_unless_equals_int (pixel (out, FALSE, 2, 0, c), expect (img2, c, 0,
            H, FALSE));
  gst_buffer_unref (out);

  /* one image, then GRAY16 caps: the GRAY8 volume comes out partial */
  gst_harness_push (h, make_image (rand, FALSE, img, 3 * GST_SECOND));
  aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=%d,"
      "height=%d,framerate=10/1", W, H);
  out = gst_harness_pull (h);
  for (c = 0; c < W; c++) {
    fail_unless_equals_int (pixel (out, FALSE, 2, 0, c), expect (img, c, 0,
            H, FALSE));
    fail_unless_equals_int (pixel (out, FALSE, 2, 1, c), 0);
  }
  gst_buffer_unref (out);
  gst_harness_push (h, make_image (rand, TRUE, img, 4 * GST_SECOND));
  gst_harness_push (h, make_image (rand, TRUE, img2, 5 * GST_SECOND));
  out = gst_harness_pull (h);
  for (c = 0; c < W; c++)
    fail_unless_equals_int (pixel (out, TRUE, 2, 1, c), expect (img2, c, 0,
            H, FALSE));
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* bscans-per-volume changed while playing: the next volume has the new
 * height, announced in new caps */
GST_START_TEST (test_volume_change_while_playing)
{
  GRand *rand = aooct_test_rand_new ();
  GstHarness *h = enface_harness ("bscans-per-volume=2", "GRAY8", 12);
  GstElement *enface;
  guint img[H * W];
  GstBuffer *out;
  GstCaps *caps;
  gint height, i;

  gst_harness_push (h, make_image (rand, FALSE, img, 0));
  /* the volume under way keeps its size */
  enface = gst_harness_find_element (h, "aooctflowenface");
  g_object_set (enface, "bscans-per-volume", 3, NULL);
  gst_object_unref (enface);
  gst_harness_push (h, make_image (rand, FALSE, img, GST_SECOND));
  gst_buffer_unref (gst_harness_pull (h));
  for (i = 0; i < 3; i++)
    gst_harness_push (h, make_image (rand, FALSE, img, (2 + i) * GST_SECOND));
  out = gst_harness_pull (h);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          "height", &height));
  fail_unless_equals_int (height, 3);
  fail_unless_equals_int (gst_buffer_get_size (out), 3 * GST_ROUND_UP_4 (W));
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_rand_free (rand);
}

GST_END_TEST;

/* A slab outside the images is an error that names both properties and
 * the image height */
GST_START_TEST (test_crop_errors)
{
  const gchar *bad[] = { "crop-end=10", "crop-start=9", "crop-start=5 "
        "crop-end=5", "crop-start=6 crop-end=3"
  };
  GRand *rand = aooct_test_rand_new ();
  guint img[H * W];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstHarness *h = enface_harness (bad[i], "GRAY8", 10);

    fail_unless_equals_int (gst_harness_push (h, make_image (rand, FALSE, img,
                0)), GST_FLOW_ERROR);
    aooct_test_assert_error (h, "crop-start", "crop-end", "9 rows", NULL);
    gst_harness_teardown (h);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
flow_enface_suite (void)
{
  Suite *s = suite_create ("aooctflowenface");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_projection);
  tcase_add_test (tc, test_partial_at_eos);
  tcase_add_test (tc, test_flush_and_new_caps);
  tcase_add_test (tc, test_volume_change_while_playing);
  tcase_add_test (tc, test_crop_errors);
  return s;
}

GST_CHECK_MAIN (flow_enface);
