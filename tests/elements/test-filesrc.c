/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctfilesrc, the raw B-scan file source: the same frames as
 * filesrc ! rawvideoparse (odd widths, several B-scans per buffer, several
 * reading threads), the same images through the chain, seeks, duration,
 * and a clear error for each kind of bad input. */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-caps.h"
#include "aooct-cuda-test-util.h"

/* A raw file of @frames B-scans of @width x @height random samples (12-bit
 * for gray16-le); returns its path (g_free, unlink). */
static gchar *
write_raw (gint width, gint height, gint bpp, gint frames, GRand * rand,
    GBytes ** contents)
{
  gsize n = (gsize) width * height * frames, i;
  guint8 *data = g_malloc (n * bpp);
  gchar *path = NULL;
  GError *err = NULL;
  gint fd = g_file_open_tmp ("aooct-filesrc-XXXXXX.raw", &path, &err);

  fail_unless (fd >= 0, "cannot create a temporary file: %s",
      err ? err->message : "?");
  close (fd);
  for (i = 0; i < n; i++) {
    if (bpp == 2) {
      guint16 v = g_rand_int_range (rand, 0, 4096);
      data[2 * i] = v & 0xff;
      data[2 * i + 1] = v >> 8;
    } else {
      data[i] = g_rand_int_range (rand, 0, 256);
    }
  }
  fail_unless (g_file_set_contents (path, (gchar *) data, n * bpp, &err),
      "cannot write %s: %s", path, err ? err->message : "?");
  if (contents)
    *contents = g_bytes_new_take (data, n * bpp);
  else
    g_free (data);
  return path;
}

typedef struct
{
  GByteArray *raw;              /* every buffer's bytes, one after another */
  GByteArray *pixels;           /* the visible samples, rows packed */
  GArray *pts;                  /* GstClockTime of each buffer */
  gint stride;                  /* of the last buffer */
} Frames;

static void
frames_free (Frames * f)
{
  g_byte_array_unref (f->raw);
  g_byte_array_unref (f->pixels);
  g_array_unref (f->pts);
}

/* Runs @launch (ending in "appsink name=sink") to EOS, collecting every
 * buffer; fails the test on an error. */
static Frames
collect (const gchar * launch)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err);
  GstElement *sink;
  Frames f = { g_byte_array_new (), g_byte_array_new (),
    g_array_new (FALSE, FALSE, sizeof (GstClockTime)), 0
  };
  GstSample *s;

  fail_unless (p != NULL, "cannot parse '%s': %s", launch,
      err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  g_object_set (sink, "sync", FALSE, NULL);
  fail_if (gst_element_set_state (p, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "'%s' does not start", launch);
  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstBuffer *b = gst_sample_get_buffer (s);
    GstVideoInfo info;
    GstVideoFrame frame;
    GstMapInfo map;
    GstClockTime pts = GST_BUFFER_PTS (b);
    gint r;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    g_byte_array_append (f.raw, map.data, map.size);
    gst_buffer_unmap (b, &map);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
    if (gst_video_frame_map (&frame, &info, b, GST_MAP_READ)) {
      gint row = GST_VIDEO_FRAME_COMP_WIDTH (&frame, 0) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0);
      f.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
      for (r = 0; r < GST_VIDEO_FRAME_HEIGHT (&frame); r++)
        g_byte_array_append (f.pixels, (guint8 *)
            GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) + r * f.stride, row);
      gst_video_frame_unmap (&frame);
    } else {
      g_byte_array_append (f.pixels, (const guint8 *) "", 0);
    }
    g_array_append_val (f.pts, pts);
    gst_sample_unref (s);
  }
  {
    GstBus *bus = gst_element_get_bus (p);
    GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (m) {
      gst_message_parse_error (m, &err, NULL);
      fail ("'%s' failed: %s", launch, err->message);
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  return f;
}

/* Every buffer of aooctfilesrc against filesrc ! rawvideoparse and against
 * the file itself: byte for byte where the rows need no padding, sample for
 * sample (and zero padding) where they do. */
GST_START_TEST (test_same_as_rawvideoparse)
{
  struct
  {
    const gchar *format;
    gint bpp, width, height, frames, bscans, threads;
  } cases[] = {
    {"gray16-le", 2, 64, 8, 5, 1, 0},
    {"gray16-le", 2, 832, 24, 7, 3, 2},
    {"gray16-le", 2, 33, 5, 4, 1, 3},   /* odd: rows 66 -> 68 bytes */
    {"gray16-le", 2, 1501, 9, 6, 2, 4},
    {"gray8", 1, 33, 7, 3, 1, 1},       /* odd: rows 33 -> 36 bytes */
    {"gray8", 1, 1024, 10, 2, 1, 2},
    {"gray16-le", 2, 2048, 300, 3, 1, 4},       /* 1.2 MB: 4 chunks */
  };
  GRand *rand = aooct_test_rand_new ();
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gint w = cases[c].width, h = cases[c].height, k = cases[c].bscans;
    gint packed = w * cases[c].bpp;
    GBytes *file;
    gchar *path = write_raw (w, h, cases[c].bpp, cases[c].frames, rand,
        &file);
    gchar *ours = g_strdup_printf ("aooctfilesrc location=%s format=%s "
        "width=%d height=%d bscans-per-buffer=%d threads=%d framerate=50/1 "
        "! appsink name=sink", path, cases[c].format, w, h, k,
        cases[c].threads);
    /* rawvideoparse pads rows to 4 bytes unless told the file's stride */
    gchar *theirs = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
        "format=%s width=%d height=%d framerate=%d/1 plane-strides=\"<%d>\" "
        "! appsink name=sink", path, cases[c].format, w, h * k, 50 / k,
        packed);
    Frames a = collect (ours), b = collect (theirs);
    gint stride = (packed + 3) / 4 * 4, r, i;
    gsize size;
    const guint8 *fdata = g_bytes_get_data (file, &size);

    GST_INFO ("case %u: %s %dx%d x%d", c, cases[c].format, w, h, k);
    fail_unless_equals_int (a.pts->len, cases[c].frames / k);
    fail_unless_equals_int (a.pts->len, b.pts->len);
    fail_unless_equals_int (a.stride, stride);
    /* the visible samples: the file's, in order */
    fail_unless_equals_int (a.pixels->len, (a.pts->len * k) * h * packed);
    fail_unless (memcmp (a.pixels->data, fdata, a.pixels->len) == 0,
        "case %u: samples differ from the file", c);
    fail_unless_equals_int (a.pixels->len, b.pixels->len);
    fail_unless (memcmp (a.pixels->data, b.pixels->data, a.pixels->len) == 0,
        "case %u: samples differ from rawvideoparse's", c);
    if (stride == packed) {
      fail_unless_equals_int (a.raw->len, b.raw->len);
      fail_unless (memcmp (a.raw->data, b.raw->data, a.raw->len) == 0,
          "case %u: buffers differ from rawvideoparse's", c);
    } else {
      gint bad = 0;
      fail_unless_equals_int (a.raw->len, a.pts->len * k * h * stride);
      for (r = 0; r < (gint) a.pts->len * k * h; r++)
        for (i = packed; i < stride; i++)
          bad += a.raw->data[(gsize) r * stride + i] != 0;
      fail_unless_equals_int (bad, 0);
    }
    /* timestamps: K frame periods per buffer at 50 B-scans/s */
    for (i = 0; i < (gint) a.pts->len; i++)
      fail_unless_equals_uint64 (g_array_index (a.pts, GstClockTime, i),
          (GstClockTime) i * k * GST_SECOND / 50);
    frames_free (&a);
    frames_free (&b);
    g_bytes_unref (file);
    g_unlink (path);
    g_free (path);
    g_free (ours);
    g_free (theirs);
  }
  g_rand_free (rand);
}

GST_END_TEST;

#define CHAIN "aooctdcsub alines-per-bscan=40 backend=%s ! " \
  "aooctpad size=512 factor=2 backend=%s ! aooctkmap " \
  "wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" backend=%s ! " \
  "aooctdisp a2=8 a3=-2 backend=%s ! aooctfft backend=%s ! " \
  "aooctnorm backend=%s ! appsink name=sink"

/* The whole chain gives the same images from either source, for an odd
 * width too (rawvideoparse told the packed row length), on the CPU and on
 * whatever backend=auto picks: with a GPU, aooctfilesrc's buffers come
 * from aooctdcsub's page-locked pool and are uploaded in place. */
GST_START_TEST (test_same_images_through_chain)
{
  const gchar *backends[] = { "cpu", "auto" };
  GRand *rand = aooct_test_rand_new ();
  gchar *path = write_raw (301, 40, 2, 6, rand, NULL);
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    const gchar *bk = backends[b];
    gchar *tail = g_strdup_printf (CHAIN, bk, bk, bk, bk, bk, bk);
    gchar *ours = g_strdup_printf ("aooctfilesrc location=%s width=301 "
        "height=40 bscans-per-buffer=2 ! %s", path, tail);
    gchar *theirs = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
        "format=gray16-le width=301 height=80 framerate=50/1 "
        "plane-strides=\"<602>\" ! %s", path, tail);
    Frames x = collect (ours), y = collect (theirs);

    fail_unless_equals_int (x.pts->len, 3);
    fail_unless_equals_int (x.pixels->len, y.pixels->len);
    fail_unless (x.pixels->len > 0);
    fail_unless (memcmp (x.pixels->data, y.pixels->data, x.pixels->len) == 0,
        "backend %s: the images differ", bk);
    frames_free (&x);
    frames_free (&y);
    g_free (ours);
    g_free (theirs);
    g_free (tail);
  }
  g_unlink (path);
  g_free (path);
  g_rand_free (rand);
}

GST_END_TEST;

/* The first buffer after a seek to @start_ms (and, with @stop_ms >= 0, the
 * number of buffers up to @stop_ms) from a file of 10 B-scans 64 x 4 at
 * 100/1 whose B-scan i has every sample i. */
static void
check_seek (gint bscans, gint start_ms, gint stop_ms, gint expect_first,
    gint expect_count)
{
  gchar *path = NULL;
  GError *err = NULL;
  gint fd = g_file_open_tmp ("aooct-filesrc-XXXXXX.raw", &path, &err);
  guint16 data[10][4][64];
  gchar *launch;
  GstElement *p, *sink;
  GstSample *s;
  gint i, j, n = 0;
  gint64 dur = -1;

  close (fd);
  for (i = 0; i < 10; i++)
    for (j = 0; j < 4 * 64; j++)
      data[i][j / 64][j % 64] = GUINT16_TO_LE (i);
  fail_unless (g_file_set_contents (path, (gchar *) data, sizeof (data), NULL));
  launch = g_strdup_printf ("aooctfilesrc location=%s width=64 height=4 "
      "bscans-per-buffer=%d ! appsink name=sink sync=false", path, bscans);
  p = gst_parse_launch (launch, NULL);
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  fail_unless (gst_element_set_state (p, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_query_duration (p, GST_FORMAT_TIME, &dur));
  fail_unless_equals_int64 (dur, (10 / bscans * bscans) * 10 * GST_MSECOND);
  fail_unless (gst_element_seek (p, 1.0, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET,
          start_ms * GST_MSECOND, stop_ms >= 0 ? GST_SEEK_TYPE_SET :
          GST_SEEK_TYPE_NONE, stop_ms >= 0 ? stop_ms * GST_MSECOND : -1));
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstBuffer *b = gst_sample_get_buffer (s);
    GstMapInfo map;

    if (n == 0) {
      fail_unless_equals_uint64 (GST_BUFFER_PTS (b),
          (guint64) expect_first * 10 * GST_MSECOND);
      fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
      fail_unless_equals_int (GST_READ_UINT16_LE (map.data), expect_first);
      fail_unless_equals_int (GST_READ_UINT16_LE (map.data + map.size - 2),
          expect_first + bscans - 1);
      gst_buffer_unmap (b, &map);
    }
    n++;
    gst_sample_unref (s);
  }
  fail_unless_equals_int (n, expect_count);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_unlink (path);
  g_free (path);
  g_free (launch);
}

GST_START_TEST (test_seek)
{
  /* to B-scan 7 of 10: 7, 8, 9 */
  check_seek (1, 70, -1, 7, 3);
  /* between B-scans: the one whose period holds the position */
  check_seek (1, 45, -1, 4, 6);
  /* with a stop: B-scans 2, 3, 4 */
  check_seek (1, 20, 50, 2, 3);
  /* two per buffer: the buffer holding B-scan 7 is 6+7, then 8+9 */
  check_seek (2, 70, -1, 6, 2);
  /* 3 per buffer: 3 buffers (B-scan 9 left out), from 3+4+5 */
  check_seek (3, 30, -1, 3, 2);
}

GST_END_TEST;

/* issue 33 item 2: open() of a FIFO without a writer blocked the state
 * change for ever (not even Ctrl-C stopped gst-launch).  Every path that is
 * not a regular file is an error that says what it is, at once; the
 * calibration readers get the same paths in aooct_test_for_each_bad_file()
 * (tests of dcsub, kmap, disp, calib). */
static void
check_not_regular (const gchar * path, const AooctTestBadFile * bad,
    gpointer user_data)
{
  const gchar *props = user_data;
  gchar *l = g_strdup_printf ("aooctfilesrc location=%s width=64 height=4 "
      "%s ! fakesink", path, props);
  gint64 t0 = g_get_monotonic_time ();

  aooct_test_expect_pipeline_error (l, path, "not a regular file", bad->what,
      NULL);
  fail_unless (g_get_monotonic_time () - t0 < 10 * G_USEC_PER_SEC,
      "%s: took %" G_GINT64_FORMAT " us", l, g_get_monotonic_time () - t0);
  g_free (l);
}

GST_START_TEST (test_not_regular_files)
{
  aooct_test_for_each_special_file (check_not_regular, (gpointer) "");
  /* reading in place maps the file: the same checks before */
  aooct_test_for_each_special_file (check_not_regular,
      (gpointer) "map-file=true");
}

GST_END_TEST;

/* issue 33 item 13: a product of properties too large for the buffers
 * that carry it said "not-negotiated" or "could not link".  Each says what
 * overflowed: the source's frame (height x bscans-per-buffer rows: more
 * than an int, or more than GstVideoInfo takes), and downstream the
 * elements' buffers (aooctdcsub's float samples, aooctpad's size x
 * factor), on sparse files of the size each needs. */
static gchar *
sparse_file (guint64 bytes)
{
  gchar *path = aooct_test_write_temp ("");

  fail_unless (truncate (path, (off_t) bytes) == 0, "truncate %s", path);
  return path;
}

GST_START_TEST (test_sizes_that_overflow)
{
  const struct
  {
    guint64 file_bytes;
    const gchar *launch;        /* %s: the file */
    const gchar *want[3];
  } cases[] = {
    /* 2^31 rows: not an int (the case, alone and linked to dcsub) */
    {1ull << 32, "aooctfilesrc location=%s format=gray8 width=2 "
          "height=65536 bscans-per-buffer=32768 ! fakesink",
          {"height=65536 x bscans-per-buffer=32768", "2147483648 A-lines",
            "lower the B-scans per buffer"}},
    {1ull << 32, "aooctfilesrc location=%s format=gray8 width=2 "
          "height=65536 bscans-per-buffer=32768 ! aooctdcsub "
          "alines-per-bscan=65536 ! fakesink",
          {"height=65536 x bscans-per-buffer=32768", "2147483648 A-lines",
            NULL}},
    /* 2^30 rows of 2 bytes: an int, but more than GstVideoInfo takes */
    {1ull << 32, "aooctfilesrc location=%s format=gray8 width=2 "
          "height=65536 bscans-per-buffer=16384 ! fakesink",
        {"height=65536 x bscans-per-buffer=16384", "larger than GStreamer's "
                "video frames", NULL}},
    /* a frame that fits, whose float samples do not */
    {1ull << 30, "aooctfilesrc location=%s width=2048 height=65536 "
          "bscans-per-buffer=4 ! aooctdcsub alines-per-bscan=65536 ! "
          "fakesink", {"aooctdcsub", "2048 x 65536 x 4", "larger than 2 GiB"}},
    /* aooctpad's size x factor */
    {1ull << 28, "aooctfilesrc location=%s width=2048 height=65536 ! "
          "aooctdcsub ! aooctpad size=2048 factor=8 ! fakesink",
        {"aooctpad", "16384 x 65536 x 1", "larger than 2 GiB"}},
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    gchar *path = sparse_file (cases[k].file_bytes);
    gchar **parts = g_strsplit (cases[k].launch, "%s", 2);
    gchar *launch = g_strjoinv (path, parts);
    gchar *text = aooct_test_run_pipeline (launch, 60);
    guint i;

    fail_unless (text != NULL, "%s: no error", launch);
    for (i = 0; i < G_N_ELEMENTS (cases[k].want) && cases[k].want[i]; i++)
      fail_unless (strstr (text, cases[k].want[i]) != NULL,
          "case %u: the error '%s' does not say '%s'", k, text,
          cases[k].want[i]);
    fail_if (strstr (text, "not-negotiated") != NULL, "%s", text);
    g_free (text);
    g_free (launch);
    g_strfreev (parts);
    g_unlink (path);
    g_free (path);
  }
}

GST_END_TEST;

/* issue 33 item 14: bscans-per-buffer=3 without aooctdcsub
 * alines-per-bscan made images three times as wide: the source knows the
 * count and says it in its caps (field "bscans", docs/caps.md), aooctdcsub
 * takes it as its default, and a property that contradicts it is a
 * warning.  Runs @launch (ending in "appsink name=sink") to EOS: every
 * output byte, the last caps, the first WARNING's text (or NULL). */
static GByteArray *
run_dcsub (const gchar * launch, GstCaps ** caps, gchar ** warning)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err);
  GstElement *sink;
  GByteArray *out = g_byte_array_new ();
  GstSample *smp;
  GstBus *bus;
  GstMessage *m;

  fail_unless (p != NULL, "cannot parse '%s': %s", launch,
      err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  g_object_set (sink, "sync", FALSE, NULL);
  fail_if (gst_element_set_state (p, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "'%s' does not start", launch);
  *caps = NULL;
  while ((smp = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstMapInfo map;

    fail_unless (gst_buffer_map (gst_sample_get_buffer (smp), &map,
            GST_MAP_READ));
    g_byte_array_append (out, map.data, map.size);
    gst_buffer_unmap (gst_sample_get_buffer (smp), &map);
    gst_caps_replace (caps, gst_sample_get_caps (smp));
    gst_sample_unref (smp);
  }
  bus = gst_element_get_bus (p);
  *warning = NULL;
  /* (popping one type drops the others: both at once) */
  while ((m = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &err, NULL);
      fail ("'%s' failed: %s", launch, err->message);
    }
    gst_message_parse_warning (m, &err, NULL);
    if (*warning == NULL)
      *warning = g_strdup (err->message);
    g_clear_error (&err);
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  fail_unless (*caps != NULL, "'%s': no output", launch);
  return out;
}

static void
assert_alines_bscans (GstCaps * caps, gint alines, gint bscans)
{
  AooctGeometry g;
  GError *err = NULL;

  fail_unless (aooct_caps_to_geometry (caps, &g, &err), "%s",
      err ? err->message : "?");
  fail_unless (g.alines == alines && g.bscans == bscans, "%d A-lines x %d "
      "B-scans per buffer, expected %d x %d", g.alines, g.bscans, alines,
      bscans);
}

GST_START_TEST (test_bscans_in_caps)
{
  GRand *rand = aooct_test_rand_new ();
  /* 6 B-scans of 5 A-lines of 64 samples: two buffers of 3 */
  gchar *path = write_raw (64, 5, 2, 6, rand, NULL);
  const gchar *src = "aooctfilesrc width=64 height=5 bscans-per-buffer=3";
  gchar *l;
  GByteArray *by_caps, *by_prop, *one;
  GstCaps *caps;
  gchar *warning;

  /* the count from the caps: the same buffers as with the property */
  l = g_strdup_printf ("%s location=%s ! aooctdcsub backend=%s ! appsink "
      "name=sink", src, path, aooct_test_backend);
  by_caps = run_dcsub (l, &caps, &warning);
  assert_alines_bscans (caps, 5, 3);
  fail_unless (warning == NULL, "%s", warning);
  gst_caps_unref (caps);
  g_free (l);
  l = g_strdup_printf ("%s location=%s ! aooctdcsub backend=%s "
      "alines-per-bscan=5 ! appsink name=sink", src, path, aooct_test_backend);
  by_prop = run_dcsub (l, &caps, &warning);
  assert_alines_bscans (caps, 5, 3);
  fail_unless (warning == NULL, "%s", warning);
  gst_caps_unref (caps);
  g_free (l);
  fail_unless (by_caps->len == by_prop->len
      && memcmp (by_caps->data, by_prop->data, by_caps->len) == 0);
  /* ... and as one B-scan per buffer (the DC mean per B-scan) */
  l = g_strdup_printf ("aooctfilesrc width=64 height=5 location=%s ! "
      "aooctdcsub backend=%s ! appsink name=sink", path, aooct_test_backend);
  one = run_dcsub (l, &caps, &warning);
  assert_alines_bscans (caps, 5, 1);
  gst_caps_unref (caps);
  g_free (l);
  fail_unless (one->len == by_caps->len
      && memcmp (one->data, by_caps->data, one->len) == 0);
  /* a property that contradicts the caps: as set, with a warning */
  l = g_strdup_printf ("%s location=%s ! aooctdcsub backend=%s "
      "alines-per-bscan=15 ! appsink name=sink", src, path, aooct_test_backend);
  g_byte_array_unref (run_dcsub (l, &caps, &warning));
  assert_alines_bscans (caps, 15, 1);
  fail_unless (warning != NULL && strstr (warning, "alines-per-bscan=15")
      && strstr (warning, "3 B-scan(s) of 5 A-lines"), "%s",
      GST_STR_NULL (warning));
  g_free (warning);
  gst_caps_unref (caps);
  g_free (l);
  /* the camera simulator says one B-scan per frame */
  {
    GstElement *p = gst_parse_launch ("aooctsrc name=src num-buffers=1 "
        "samples=64 alines=8 ! fakesink", NULL);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "src");
    GstPad *pad = gst_element_get_static_pad (sink, "src");
    GstCaps *c = gst_pad_query_caps (pad, NULL);
    gint b = 0;

    c = gst_caps_fixate (c);
    fail_unless (gst_structure_get_int (gst_caps_get_structure (c, 0),
            "bscans", &b) && b == 1, "aooctsrc: %s", gst_caps_to_string (c));
    gst_caps_unref (c);
    gst_object_unref (pad);
    gst_object_unref (sink);
    gst_object_unref (p);
  }
  g_byte_array_unref (by_caps);
  g_byte_array_unref (by_prop);
  g_byte_array_unref (one);
  g_unlink (path);
  g_free (path);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_bad_input)
{
  GRand *rand = aooct_test_rand_new ();
  gchar *path = write_raw (64, 4, 2, 3, rand, NULL);    /* 1536 bytes */
  gchar *dir = g_dir_make_tmp ("aooct-filesrc-XXXXXX", NULL);
  gchar *l;

  aooct_test_expect_pipeline_error ("aooctfilesrc width=64 height=4 ! fakesink",
      "location", NULL);
  aooct_test_expect_pipeline_error
      ("aooctfilesrc location=/nonexistent/aooct.raw width=64 "
      "height=4 ! fakesink", "/nonexistent/aooct.raw", NULL);
  l = g_strdup_printf ("aooctfilesrc location=%s height=4 ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "width", NULL);
  g_free (l);
  /* 1536 bytes are one B-scan of 100 x 4 x 2 bytes and 736 left over:
   * read, the rest a warning (tests/test-file-formats.c checks it) */
  l = g_strdup_printf ("aooctfilesrc location=%s width=100 height=4 ! "
      "fakesink", path);
  fail_unless (aooct_test_run_pipeline (l, 30) == NULL);
  g_free (l);
  /* ... but not one of 1000 x 4 x 2 bytes */
  l = g_strdup_printf ("aooctfilesrc location=%s width=1000 height=4 ! "
      "fakesink", path);
  aooct_test_expect_pipeline_error (l, "less than one B-scan",
      "8000 bytes", NULL);
  g_free (l);
  /* (format is an enum of the raw formats: format=rgb does not parse) */
  l = g_strdup_printf ("aooctfilesrc location=%s width=63 height=4 "
      "format=mono12p ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "width 63", "multiple of 2", NULL);
  g_free (l);
  /* 1536 bytes are not one B-scan of 400 A-lines of 64 x 1.25 bytes */
  l = g_strdup_printf ("aooctfilesrc location=%s width=64 height=400 "
      "format=mono10p ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "less than one B-scan",
      "32000 bytes", "mono10p", NULL);
  g_free (l);
  l = g_strdup_printf ("aooctfilesrc location=%s width=64 height=4 "
      "bscans-per-buffer=4 ! fakesink", path);
  aooct_test_expect_pipeline_error (l, "3 B-scan", "bscans-per-buffer=4", NULL);
  g_free (l);
  l = g_strdup_printf ("aooctfilesrc location=%s width=64 height=4 ! "
      "fakesink", dir);
  aooct_test_expect_pipeline_error (l, "not a regular file", NULL);
  g_free (l);
  /* the right geometry runs */
  l = g_strdup_printf ("aooctfilesrc location=%s width=64 height=4 ! "
      "fakesink", path);
  fail_unless (aooct_test_run_pipeline (l, 30) == NULL);
  g_free (l);
  g_unlink (path);
  g_rmdir (dir);
  g_free (dir);
  g_free (path);
  g_rand_free (rand);
}

GST_END_TEST;

/* A file cut short while it is read (another program truncating it) is
 * an error naming the file, not a short or garbage buffer. */
GST_START_TEST (test_truncated_while_playing)
{
  GRand *rand = aooct_test_rand_new ();
  gchar *path = write_raw (64, 4, 2, 10, rand, NULL);
  gchar *launch = g_strdup_printf ("aooctfilesrc location=%s width=64 "
      "height=4 ! appsink name=sink sync=false max-buffers=1", path);
  GstElement *p = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m;
  GstSample *s;
  GError *err = NULL;
  gint n = 0;

  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  s = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  fail_unless (s != NULL);
  gst_sample_unref (s);
  /* B-scans 1-4 may be read already (one queued in the sink, one being
   * pushed, two read ahead: start_prefetch in gstaooctfilesrc.c) */
  fail_unless (truncate (path, 2 * 64 * 4 * 2) == 0);
  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    gsize size = gst_buffer_get_size (gst_sample_get_buffer (s));

    fail_unless_equals_int (size, 64 * 4 * 2);
    gst_sample_unref (s);
    n++;
  }
  fail_unless (n <= 4, "%d more B-scans after the file was cut to 2", n);
  m = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error after the file was cut short");
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, path) != NULL
      && strstr (err->message, "truncated") != NULL, "unclear error: %s",
      err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_unlink (path);
  g_free (path);
  g_free (launch);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
filesrc_suite (void)
{
  Suite *s = suite_create ("aooctfilesrc");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_same_as_rawvideoparse);
  tcase_add_test (tc, test_same_images_through_chain);
  tcase_add_test (tc, test_seek);
  tcase_add_test (tc, test_bad_input);
  tcase_add_test (tc, test_not_regular_files);
  tcase_add_test (tc, test_sizes_that_overflow);
  tcase_add_test (tc, test_bscans_in_caps);
  tcase_add_test (tc, test_truncated_while_playing);
  /* windows of the mapped file read by the GPU in place:
   * test-filesrc-cuda.c */
  if (cuda)
    aooct_test_add_cuda_tests (cuda);
  return s;
}

GST_CHECK_MAIN (filesrc);
