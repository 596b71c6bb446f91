/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: what a hostile user or a new lab found (issue 19), on each
 * backend: tcases "cpu" and "cuda" (meson: hostile, hostile-cuda; exit 77,
 * meson: skipped, where no CUDA device is usable).  Raw files with tightly packed rows of
 * an odd width, GstVideoMeta that points past its buffer, an error that
 * comes back after a recovery, extreme but valid display ranges, row
 * padding of GRAY8 / GRAY16 images, negotiation failures that must name
 * their cause, a calibration count blamed on the input width, and
 * settings that do nothing (warnings).  The calibration-file cases (FIFO,
 * devices, huge files, byte-order mark, old Mac line ends, values beyond
 * float32) run through every reader in the element tests
 * (aooct_test_for_each_bad_file); live pairs changed half-way in
 * test-norm.c and test-disp.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"
#include "aooct-cuda-test-util.h"

/* "ELEMENT backend=BACKEND PROPS": g_free */
static gchar *
el (const gchar * element, const gchar * props)
{
  return g_strdup_printf ("%s backend=%s %s", element, aooct_test_backend,
      props ? props : "");
}

static GstHarness *
harness_el (const gchar * element, const gchar * props)
{
  gchar *l = el (element, props);
  GstHarness *h = aooct_test_harness_new (l);

  g_free (l);
  return h;
}

/* Random 12-bit spectra, @n x @rows samples of @bytes each, packed. */
static guint8 *
random_raw (GRand * rand, gint n, gint rows, gint bytes)
{
  guint8 *raw = g_malloc ((gsize) n * rows * bytes);
  gsize i;

  for (i = 0; i < (gsize) n * rows; i++) {
    guint v = (guint) g_rand_int_range (rand, 0, bytes == 1 ? 256 : 4096);

    if (bytes == 1) {
      raw[i] = (guint8) v;
    } else {
      raw[2 * i] = (guint8) (v & 0xff);
      raw[2 * i + 1] = (guint8) (v >> 8);
    }
  }
  return raw;
}

static gdouble
raw_at (const guint8 * raw, gint bytes, gsize i)
{
  return bytes == 1 ? raw[i] : raw[2 * i] + 256.0 * raw[2 * i + 1];
}

/* aooctdcsub's output for one B-scan of packed @raw: x - mean A-line */
static void
check_dcsub (const gfloat * out, const guint8 * raw, gint n, gint rows,
    gint bytes)
{
  gint i, m;

  for (i = 0; i < n; i++) {
    gdouble mean = 0;

    for (m = 0; m < rows; m++)
      mean += raw_at (raw, bytes, (gsize) m * n + i);
    mean /= rows;
    for (m = 0; m < rows; m++) {
      gdouble want = raw_at (raw, bytes, (gsize) m * n + i) - mean;
      gfloat got = out[(gsize) m * n + i];

      fail_unless (fabs (got - want) <= 1e-3, "A-line %d sample %d: %g, "
          "expected %g", m, i, got, want);
    }
  }
}

/* ---- item 5: tightly packed rows of an odd width --------------------- */

/* A raw file in the spec's layout (rows packed, no padding) of a width
 * whose rows GStreamer pads to 4 bytes, read as the docs say:
 * rawvideoparse plane-strides=<row bytes>. */
GST_START_TEST (test_packed_rows_from_file)
{
  const struct
  {
    const gchar *format;
    gint n, bytes;
  } cases[] = {
    {"gray8", 1250, 1}, {"gray8", 83, 1}, {"gray16-le", 833, 2},
    {"gray16-le", 101, 2},
  };
  GRand *rand = aooct_test_rand_new ();
  const gint rows = 16, frames = 3;
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    const gint n = cases[k].n, bytes = cases[k].bytes;
    const gsize frame = (gsize) n * rows * bytes;
    guint8 *raw = random_raw (rand, n, rows * frames, bytes);
    gchar *path = NULL, *launch, *dc = el ("aooctdcsub", NULL);
    GstElement *pipeline;
    GstAppSink *sink;
    gint fd = g_file_open_tmp ("aooct-packed-XXXXXX.raw", &path, NULL);
    gint f;

    fail_unless (fd >= 0);
    close (fd);
    fail_unless (g_file_set_contents (path, (gchar *) raw, frame * frames,
            NULL));
    launch = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
        "format=%s width=%d height=%d framerate=10/1 plane-strides=<%d> ! "
        "%s ! appsink name=sink sync=false", path, cases[k].format, n, rows,
        n * bytes, dc);
    pipeline = gst_parse_launch (launch, NULL);
    fail_unless (pipeline != NULL, "%s", launch);
    sink = GST_APP_SINK (gst_bin_get_by_name (GST_BIN (pipeline), "sink"));
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    for (f = 0; f < frames; f++) {
      GstSample *sample = gst_app_sink_try_pull_sample (sink, 30 * GST_SECOND);
      GstMapInfo map;

      if (sample == NULL) {
        GstBus *bus = gst_element_get_bus (pipeline);
        GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
        GError *err = NULL;

        if (msg)
          gst_message_parse_error (msg, &err, NULL);
        fail ("%s N=%d: no frame %d: %s", cases[k].format, n, f,
            err ? err->message : "timeout");
      }
      fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
              GST_MAP_READ));
      fail_unless_equals_int (map.size, (gsize) n * rows * sizeof (gfloat));
      check_dcsub ((const gfloat *) map.data, raw + f * frame, n, rows, bytes);
      gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
      gst_sample_unref (sample);
    }
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (pipeline);
    g_unlink (path);
    g_free (path);
    g_free (launch);
    g_free (dc);
    g_free (raw);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* The same buffers pushed directly (no GstVideoMeta); a size that is
 * neither padded nor packed rows names both. */
GST_START_TEST (test_packed_rows_direct)
{
  GRand *rand = aooct_test_rand_new ();
  const gint n = 37, rows = 5;
  guint8 *raw = random_raw (rand, n, rows, 2);
  GstHarness *h = harness_el ("aooctdcsub", NULL);
  gfloat *out;

  aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=%d,"
      "height=%d,framerate=10/1", n, rows);
  out = aooct_test_push_pull (h, NULL, raw, (gsize) n * rows * 2,
      (gsize) n * rows * sizeof (gfloat));
  check_dcsub (out, raw, n, rows, 2);
  g_free (out);
  gst_harness_teardown (h);

  h = harness_el ("aooctdcsub", NULL);
  aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=%d,"
      "height=%d,framerate=10/1", n, rows);
  fail_unless_equals_int (gst_harness_push (h, aooct_test_buffer_new (raw,
              (gsize) n * rows * 2 - 2)), GST_FLOW_ERROR);
  aooct_test_assert_error (h, "370 with tightly packed rows", "too short",
      NULL);
  gst_harness_teardown (h);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- item 6: GstVideoMeta that points past the buffer ---------------- */

GST_START_TEST (test_video_meta_bounds)
{
  const gint n = 64, rows = 8;
  const struct
  {
    gsize size, offset;
    gint stride, width;
    const gchar *what;
  } bad[] = {
    {64 * 8 * 2, 0, 4096, 64, "past the end"},
    {64 * 8 * 2, 1000, 128, 64, "past the end"},
    {64 * 8 * 2, 2, 128, 64, "past the end"},
    {64 * 8 * 2, 0, 100, 64, "less than a row"},
    {64 * 8 * 2, 0, -128, 64, "less than a row"},
    {64 * 8 * 2, 0, 128, 32, "describes a GRAY16_LE 32x8 frame"},
  };
  GRand *rand = aooct_test_rand_new ();
  guint8 *raw = random_raw (rand, n, rows, 2), *padded;
  guint k;
  gint m;

  for (k = 0; k < G_N_ELEMENTS (bad); k++) {
    GstHarness *h = harness_el ("aooctdcsub", NULL);
    GstBuffer *buf = gst_buffer_new_allocate (NULL, bad[k].size, NULL);
    gsize offsets[GST_VIDEO_MAX_PLANES] = { bad[k].offset };
    gint strides[GST_VIDEO_MAX_PLANES] = { bad[k].stride };

    gst_buffer_fill (buf, 0, raw, MIN (bad[k].size, (gsize) n * rows * 2));
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_GRAY16_LE, bad[k].width, rows, 1, offsets, strides);
    aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=%d,"
        "height=%d,framerate=10/1", n, rows);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
    aooct_test_assert_error (h, "GstVideoMeta", bad[k].what, NULL);
    fail_unless_equals_int (gst_harness_buffers_received (h), 0);
    gst_harness_teardown (h);
  }

  /* a valid meta with rows 160 bytes apart, the last one unpadded */
  {
    const gint stride = 160;
    const gsize size = (gsize) stride * (rows - 1) + n * 2;
    GstHarness *h = harness_el ("aooctdcsub", NULL);
    GstBuffer *buf, *out;
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride };
    GstMapInfo map;

    padded = g_malloc0 (size);
    for (m = 0; m < rows; m++)
      memcpy (padded + (gsize) m * stride, raw + (gsize) m * n * 2, n * 2);
    buf = aooct_test_buffer_new (padded, size);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_GRAY16_LE, n, rows, 1, offsets, strides);
    aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=%d,"
        "height=%d,framerate=10/1", n, rows);
    out = gst_harness_push_and_pull (h, buf);
    fail_unless (out != NULL);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    check_dcsub ((const gfloat *) map.data, raw, n, rows, 2);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (padded);
  }
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- item 8: an error after a recovery is posted again --------------- */

GST_START_TEST (test_error_after_recovery)
{
  const gint n = 64, rows = 8;
  GRand *rand = aooct_test_rand_new ();
  guint8 *raw = random_raw (rand, n, rows, 2);
  GstHarness *h = harness_el ("aooctdcsub", NULL);
  gint round;

  aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=%d,"
      "height=%d,framerate=10/1", n, rows);
  for (round = 0; round < 3; round++) {
    GstBuffer *out;

    fail_unless_equals_int (gst_harness_push (h, aooct_test_buffer_new (raw,
                (gsize) n * rows)), GST_FLOW_ERROR);
    /* the reason every time, not only the first */
    aooct_test_assert_error (h, "buffer too short", NULL);
    if (round == 1) {
      /* recovery by a flushing seek */
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
      {
        GstSegment seg;

        gst_segment_init (&seg, GST_FORMAT_TIME);
        fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
      }
    } else {
      /* recovery by a good buffer */
      out = gst_harness_push_and_pull (h, aooct_test_buffer_new (raw,
              (gsize) n * rows * 2));
      fail_unless (out != NULL);
      gst_buffer_unref (out);
    }
  }
  /* a repeat without recovery in between stays one message (upstream
   * retries a refused negotiation the same way) */
  fail_unless_equals_int (gst_harness_push (h, aooct_test_buffer_new (raw,
              (gsize) n * rows)), GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_push (h, aooct_test_buffer_new (raw,
              (gsize) n * rows)), GST_FLOW_ERROR);
  aooct_test_assert_error (h, "buffer too short", NULL);
  fail_unless (aooct_test_pop_error (h) == NULL);
  gst_harness_teardown (h);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- items 10 and 11: extreme ranges, row padding -------------------- */

/* The image of @props on one buffer of @g (@bits 8 or 16), as the buffer
 * with its row stride (the padding included). */
static GstBuffer *
norm_image (const AooctTestDepthGeom * g, const gfloat * data,
    const gchar * props, gint bits, GstVideoInfo * vinfo)
{
  GstHarness *h = harness_el ("aooctnorm", props);
  gsize size = 2 * sizeof (gfloat) * g->f * g->p1 * g->m * g->bscans;
  GstBuffer *out;
  GstCaps *caps;

  gst_harness_set_sink_caps_str (h, bits == 8 ? "video/x-raw,format=GRAY8" :
      "video/x-raw,format=GRAY16_LE");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (g));
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data, size));
  fail_unless (out != NULL, "%s: %s", props, aooct_test_pop_error (h));
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (vinfo, caps));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  return out;
}

/* every pixel of the image within [lo, hi]; the padding of each row 0 */
static void
check_levels (GstBuffer * buf, const GstVideoInfo * vinfo, guint lo, guint hi,
    const gchar * what)
{
  const gint w = GST_VIDEO_INFO_WIDTH (vinfo), hgt =
      GST_VIDEO_INFO_HEIGHT (vinfo);
  const gint stride = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 0);
  const gint bpp = GST_VIDEO_INFO_COMP_PSTRIDE (vinfo, 0);
  GstMapInfo map;
  gint r, c;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (map.size >= (gsize) stride * hgt);
  for (r = 0; r < hgt; r++) {
    const guint8 *row = map.data + (gsize) r * stride;

    for (c = 0; c < w; c++) {
      guint v = bpp == 1 ? row[c] : row[2 * c] + 256u * row[2 * c + 1];

      fail_unless (v >= lo && v <= hi, "%s: pixel (%d, %d) = %u, expected "
          "%u..%u", what, r, c, v, lo, hi);
    }
    for (c = w * bpp; c < stride; c++)
      fail_unless (row[c] == 0, "%s: row %d padding byte %d is 0x%02x, not "
          "written", what, r, c - w * bpp, row[c]);
  }
  gst_buffer_unmap (buf, &map);
}

GST_START_TEST (test_extreme_ranges)
{
  GRand *rand = aooct_test_rand_new ();
  /* 13 A-lines: GRAY8 rows of 13 bytes, GRAY16 rows of 26, both padded */
  const AooctTestDepthGeom g = { 13, 2, 50, 64, 2 };
  gfloat *data = aooct_test_make_depth (rand, &g, 1e3);
  const struct
  {
    const gchar *props;
    gdouble lo, hi;             /* expected level as a fraction of q */
  } cases[] = {
    /* white by the spec: lo = max - 1e308, every value near the top */
    {"dynamic-range=1e308", 1.0, 1.0},
    {"dynamic-range=1e300 log=true", 1.0, 1.0},
    /* about mid-grey: 0.5 +- nothing a float value can move */
    {"auto-range=false range-min=-1e300 range-max=1e300", 0.5, 0.5},
    {"auto-range=false range-min=-1e300 range-max=1e300 log=false", 0.5,
        0.5},
    /* h - l overflows double; halved it does not */
    {"auto-range=false range-min=-1.7e308 range-max=1.7e308", 0.5, 0.5},
    /* beyond float32 at one end only: dB values are far below 1e39 */
    {"auto-range=false range-min=-1e39 range-max=1e39", 0.5, 0.5},
    {"auto-range=false range-min=1e39 range-max=2e39", 0.0, 0.0},
    {"auto-range=false range-min=-2e39 range-max=-1e39", 1.0, 1.0},
  };
  guint k;
  gint bits;

  for (bits = 8; bits <= 16; bits += 8) {
    const gdouble q = bits == 8 ? 255.0 : 65535.0;

    for (k = 0; k < G_N_ELEMENTS (cases); k++) {
      GstVideoInfo vinfo;
      GstBuffer *img = norm_image (&g, data, cases[k].props, bits, &vinfo);
      guint lo = (guint) floor (cases[k].lo * q), hi =
          (guint) ceil (cases[k].hi * q + 0.5);

      hi = MIN (hi, (guint) q);
      check_levels (img, &vinfo, lo, hi, cases[k].props);
      gst_buffer_unref (img);
    }
  }
  g_free (data);
  g_rand_free (rand);
}

GST_END_TEST;

/* Item 11: ordinary images of widths whose rows are padded: the padding
 * is written (0), so the same input gives the same bytes every time. */
GST_START_TEST (test_row_padding)
{
  GRand *rand = aooct_test_rand_new ();
  const gint widths[] = { 13, 14, 15, 17 };
  guint k;
  gint bits;

  for (k = 0; k < G_N_ELEMENTS (widths); k++) {
    const AooctTestDepthGeom g = { widths[k], 1, 50, 64, 2 };
    gfloat *data = aooct_test_make_depth (rand, &g, 1e3);

    for (bits = 8; bits <= 16; bits += 8) {
      GstVideoInfo vinfo;
      GstBuffer *a = norm_image (&g, data, "", bits, &vinfo);
      GstBuffer *b = norm_image (&g, data, "", bits, &vinfo);

      check_levels (a, &vinfo, 0, bits == 8 ? 255 : 65535, "default");
      {
        GstMapInfo ma;

        fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
        fail_unless (gst_buffer_memcmp (b, 0, ma.data, ma.size) == 0,
            "width %d, %d bits: two runs differ", widths[k], bits);
        gst_buffer_unmap (a, &ma);
      }
      gst_buffer_unref (a);
      gst_buffer_unref (b);
    }
    g_free (data);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- item 12: negotiation failures name their cause ------------------ */

GST_START_TEST (test_negotiation_messages)
{
  GRand *rand = aooct_test_rand_new ();
  guint8 *raw = random_raw (rand, 64, 8 * 4, 2);
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("aooct-neg-XXXXXX.raw", &path, NULL);
  gchar *dc = el ("aooctdcsub", NULL), *pad = el ("aooctpad", NULL);
  gchar *chain = g_strdup_printf ("%s ! %s ! aooctkmap backend=%s "
      "wavelength-coeffs=800,0.1 ! aooctdisp backend=%s ! aooctfft "
      "backend=%s ! aooctnorm backend=%s", dc, pad, aooct_test_backend,
      aooct_test_backend,
      aooct_test_backend, aooct_test_backend);
  const struct
  {
    const gchar *source;        /* %s: the raw file */
    const gchar *tail;          /* after the chain, before fakesink */
    const gchar *want[3];
  } cases[] = {
    /* big-endian samples */
    {"filesrc location=%s ! rawvideoparse format=gray16-be width=64 "
          "height=8", "", {"aooctdcsub", "GRAY16_BE", "videoconvert"}},
    /* a forgotten format= (rawvideoparse's default is I420) */
    {"filesrc location=%s ! rawvideoparse width=64 height=8", "",
        {"aooctdcsub", "I420", "format=gray16-le"}},
    /* width 1 */
    {"filesrc location=%s ! rawvideoparse format=gray16-le width=1 "
          "height=8", "", {"aooctdcsub", "width 1", "samples per A-line"}},
    /* a colour format */
    {"filesrc location=%s ! rawvideoparse format=rgb width=64 height=8", "",
        {"aooctdcsub", "RGB", "videoconvert"}},
    /* downstream wants another image size */
    {"filesrc location=%s ! rawvideoparse format=gray16-le width=64 "
          "height=8", "! video/x-raw,width=100",
        {"aooctnorm", "width=100", "produces width=8"}},
    /* ... or another depth crop, on an aooct pad */
    {"filesrc location=%s ! rawvideoparse format=gray16-le width=64 "
          "height=8", "! video/x-raw,height=7",
        {"aooctnorm", "height=7", "produces height=1024"}},
  };
  guint k;

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, (gchar *) raw, 64 * 8 * 4 * 2, NULL));
  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    /* the file's path for "%s" (not a printf format: -Wformat-nonliteral) */
    gchar **parts = g_strsplit (cases[k].source, "%s", 2);
    gchar *src = g_strjoinv (path, parts);
    gchar *launch = g_strdup_printf ("%s ! %s %s ! fakesink", src, chain,
        cases[k].tail);
    gchar *text = aooct_test_run_pipeline (launch, 60);
    guint i;

    fail_unless (text != NULL, "%s: no error", launch);
    for (i = 0; i < G_N_ELEMENTS (cases[k].want) && cases[k].want[i]; i++)
      fail_unless (strstr (text, cases[k].want[i]) != NULL,
          "case %u: the first error '%s' does not name '%s'", k, text,
          cases[k].want[i]);
    fail_if (strstr (text, "not-negotiated") != NULL, "%s", text);
    g_free (text);
    g_free (launch);
    g_free (src);
    g_strfreev (parts);
  }
  /* an aooct field that downstream fixes otherwise */
  {
    gchar *launch = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
        "format=gray16-le width=64 height=8 ! %s ! application/x-aooct,"
        "samples=100 ! fakesink", path, dc);
    gchar *text = aooct_test_run_pipeline (launch, 60);

    fail_unless (text != NULL && strstr (text, "samples=100") != NULL
        && strstr (text, "produces samples=64") != NULL, "%s",
        GST_STR_NULL (text));
    g_free (text);
    g_free (launch);
  }
  g_unlink (path);
  g_free (path);
  g_free (chain);
  g_free (dc);
  g_free (pad);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- item 13: a count that the input's width decides ------------------ */

GST_START_TEST (test_count_names_width)
{
  gchar *cal = aooct_test_write_temp ("800\n801\n802\n803\n");
  gchar *props;
  GstHarness *h;
  gchar *text;

  /* 6 samples wide, a calibration of 4: blame the width too */
  props = g_strdup_printf ("wavelength-file=%s", cal);
  h = harness_el ("aooctkmap", props);
  g_free (props);
  aooct_test_set_caps_printf (h, "application/x-aooct,domain=spectral,"
      "sample-type=real,samples=6,alines=2,bscans=1,raw-samples=6,"
      "pad-offset=0,pad-factor=1,pad-size=6,k-linear=false," "framerate=10/1");
  fail_unless (gst_harness_push (h, gst_buffer_new_allocate (NULL, 48,
              NULL)) != GST_FLOW_OK);
  aooct_test_assert_error (h, "the input is 6 samples wide", "too few", NULL);
  gst_harness_teardown (h);

  props = g_strdup_printf ("mode=background background-file=%s", cal);
  h = harness_el ("aooctdcsub", props);
  g_free (props);
  aooct_test_set_caps_printf (h, "video/x-raw,format=GRAY16_LE,width=3,"
      "height=2,framerate=10/1");
  fail_unless (gst_harness_push (h, gst_buffer_new_allocate (NULL, 16,
              NULL)) != GST_FLOW_OK);
  aooct_test_assert_error (h, "the input is 3 samples wide", "too many", NULL);
  gst_harness_teardown (h);

  props = g_strdup_printf ("phase-file=%s", cal);
  h = harness_el ("aooctdisp", props);
  g_free (props);
  aooct_test_set_caps_printf (h, "application/x-aooct,domain=spectral,"
      "sample-type=real,samples=8,alines=2,bscans=1,raw-samples=3,"
      "pad-offset=1,pad-factor=2,pad-size=4,k-linear=true," "framerate=10/1");
  fail_unless (gst_harness_push (h, gst_buffer_new_allocate (NULL, 64,
              NULL)) != GST_FLOW_OK);
  aooct_test_assert_error (h, "8 samples after aooctpad", "too few", NULL);
  gst_harness_teardown (h);

  /* with coefficients any width "fits": the geometry in use is on the
   * bus */
  h = harness_el ("aooctkmap", "wavelength-coeffs=800,0.1");
  aooct_test_set_caps_printf (h, "application/x-aooct,domain=spectral,"
      "sample-type=real,samples=6,alines=2,bscans=1,raw-samples=6,"
      "pad-offset=0,pad-factor=1,pad-size=6,k-linear=false," "framerate=10/1");
  gst_buffer_unref (gst_harness_push_and_pull (h,
          gst_buffer_new_allocate (NULL, 48, NULL)));
  text = aooct_test_pop_info (h);
  fail_unless (text != NULL && strstr (text, "6 raw samples") != NULL
      && strstr (text, "2 A-lines per B-scan") != NULL
      && strstr (text, "800.5 nm at pixel 5") != NULL, "%s",
      GST_STR_NULL (text));
  g_free (text);
  gst_harness_teardown (h);

  g_unlink (cal);
  g_free (cal);
}

GST_END_TEST;

/* ---- item 14: settings that do nothing ------------------------------- */

#define RAW_CAPS "video/x-raw,format=GRAY16_LE,width=4,height=2,framerate=10/1"
#define SPECTRAL_CAPS "application/x-aooct,domain=spectral," \
  "sample-type=real,samples=6,alines=2,bscans=1,raw-samples=6," \
  "pad-offset=0,pad-factor=1,pad-size=6,k-linear=false,framerate=10/1"

/* one buffer through @element with @props on @caps; asserts a warning
 * naming every NULL-terminated substring, and that the data went on */
static void
expect_warning (const gchar * element, const gchar * props,
    const gchar * caps, gsize in_size, const gchar * first, ...)
{
  GstHarness *h = harness_el (element, props);
  gchar *text;
  const gchar *sub;
  va_list args;

  gst_harness_set_src_caps_str (h, caps);
  gst_buffer_unref (gst_harness_push_and_pull (h,
          gst_buffer_new_allocate (NULL, in_size, NULL)));
  text = aooct_test_pop_warning (h);
  fail_unless (text != NULL, "%s %s: no warning", element, props);
  va_start (args, first);
  for (sub = first; sub; sub = va_arg (args, const gchar *))
      fail_unless (strstr (text, sub) != NULL, "warning '%s' lacks '%s'", text,
        sub);
  va_end (args);
  fail_unless (aooct_test_pop_error (h) == NULL);
  g_free (text);
  gst_harness_teardown (h);
}

GST_START_TEST (test_settings_that_do_nothing)
{
  gchar *bg = aooct_test_write_temp ("1\n2\n3\n4\n");
  gchar *props;
  GstHarness *h;
  GstElement *e;
  gchar *text;

  props = g_strdup_printf ("background-file=%s", bg);
  expect_warning ("aooctdcsub", props, RAW_CAPS, 16, "background-file",
      "ignored", "mode=bscan-mean", "mode=background", NULL);
  g_free (props);
  props = g_strdup_printf ("mode=none background-file=%s", bg);
  expect_warning ("aooctdcsub", props, RAW_CAPS, 16, "background-file",
      "mode=none", NULL);
  g_free (props);
  expect_warning ("aooctkmap", "passthrough=true wavelength-coeffs=800,0.1",
      SPECTRAL_CAPS, 48, "passthrough=true", "wavelength-coeffs", "ignored",
      NULL);
  props = g_strdup_printf ("passthrough=true wavelength-file=%s", bg);
  expect_warning ("aooctkmap", props, SPECTRAL_CAPS, 48, "wavelength-file",
      NULL);
  g_free (props);

  /* READY-only properties changed while PLAYING, on several elements */
  h = harness_el ("aooctkmap", "wavelength-coeffs=800,0.1");
  gst_harness_set_src_caps_str (h, SPECTRAL_CAPS);
  gst_buffer_unref (gst_harness_push_and_pull (h,
          gst_buffer_new_allocate (NULL, 48, NULL)));
  g_free (aooct_test_pop_info (h));
  e = aooct_test_element (h, "aooctkmap");
  g_object_set (e, "wavelength-coeffs", "790,0.2", NULL);
  aooct_test_assert_warning (h, "wavelength-coeffs", "PLAYING",
      "next negotiation", NULL);
  g_object_set (e, "backend", 1, NULL);
  aooct_test_assert_warning (h, "backend", NULL);
  /* live ones do not warn */
  gst_harness_teardown (h);

  h = harness_el ("aooctdcsub", NULL);
  gst_harness_set_src_caps_str (h, RAW_CAPS);
  gst_buffer_unref (gst_harness_push_and_pull (h,
          gst_buffer_new_allocate (NULL, 16, NULL)));
  g_object_set (aooct_test_element (h, "aooctdcsub"), "mode", 2, NULL);
  aooct_test_assert_warning (h, "mode", "PLAYING", NULL);
  gst_harness_teardown (h);

  {
    const AooctTestDepthGeom g = { 4, 1, 6, 8, 1 };
    gsize size = 2 * sizeof (gfloat) * g.f * g.p1 * g.m * g.bscans;
    GRand *rand = aooct_test_rand_new ();
    gfloat *data = aooct_test_make_depth (rand, &g, 1e3);
    GstBuffer *out;

    h = harness_el ("aooctnorm", NULL);
    gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
    out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data, size));
    gst_buffer_unref (out);
    e = aooct_test_element (h, "aooctnorm");
    g_object_set (e, "crop-end", 3, NULL);
    aooct_test_assert_warning (h, "crop-end", "PLAYING", NULL);
    g_object_set (e, "range-min", -5.0, "log", FALSE, NULL);
    fail_unless ((text = aooct_test_pop_warning (h)) == NULL, "%s", text);
    gst_harness_teardown (h);

    /* manual range without auto-range=false, dynamic range without log */
    h = harness_el ("aooctnorm", "range-min=10 range-max=20");
    gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
    gst_buffer_unref (gst_harness_push_and_pull (h,
            aooct_test_buffer_new (data, size)));
    aooct_test_assert_warning (h, "range-min=10", "auto-range=false", NULL);
    gst_harness_teardown (h);
    h = harness_el ("aooctnorm", "log=false dynamic-range=30");
    gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
    gst_buffer_unref (gst_harness_push_and_pull (h,
            aooct_test_buffer_new (data, size)));
    aooct_test_assert_warning (h, "dynamic-range=30", "log=false", NULL);
    gst_harness_teardown (h);
    /* and the defaults say nothing */
    h = harness_el ("aooctnorm", NULL);
    gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
    gst_buffer_unref (gst_harness_push_and_pull (h,
            aooct_test_buffer_new (data, size)));
    fail_unless ((text = aooct_test_pop_warning (h)) == NULL, "%s", text);
    gst_harness_teardown (h);
    g_free (data);
    g_rand_free (rand);
  }
  /* the same on the source element, which is no aooct filter */
  {
    GstElement *pipeline = gst_parse_launch ("aooctsrc name=src alines=8 ! "
        "fakesink sync=false", NULL);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg;
    GError *err = NULL;

    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
    fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
            30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
    g_object_set (src, "samples", 1024, NULL);
    msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING,
        "no warning for aooctsrc samples changed while PLAYING");
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, "samples") != NULL
        && strstr (err->message, "PLAYING") != NULL, "%s", err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (src);
    gst_object_unref (pipeline);
  }
  g_unlink (bg);
  g_free (bg);
}

GST_END_TEST;

/* ---- issue 33 item 12: caps in error messages ------------------------ */

/* GST_PTR_FORMAT given to GLib's printf (g_set_error) printed "caps
 * 0x7f...\aA"; the caps must come out as text.  Caps that the template
 * accepts but GstVideoInfo cannot parse (alternate fields need the
 * format:Interlaced feature) reach the base class's "cannot parse input
 * caps"; scripts/checks/check-printf-formats.py (meson test printf-formats) finds
 * every other such use in the tree. */
GST_START_TEST (test_caps_in_error_text)
{
  gchar *dc = el ("aooctdcsub", NULL);

  aooct_test_expect_error (dc, gst_caps_from_string ("video/x-raw,"
          "format=GRAY16_LE,width=64,height=8,framerate=10/1,"
          "interlace-mode=alternate"), "cannot parse input caps",
      "video/x-raw", "interlace-mode=(string)alternate", NULL);
  g_free (dc);
}

GST_END_TEST;

static void
add_hostile_tests (TCase * tc, gboolean cuda)
{
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_packed_rows_from_file);
  tcase_add_test (tc, test_packed_rows_direct);
  tcase_add_test (tc, test_video_meta_bounds);
  tcase_add_test (tc, test_error_after_recovery);
  tcase_add_test (tc, test_extreme_ranges);
  tcase_add_test (tc, test_row_padding);
  tcase_add_test (tc, test_negotiation_messages);
  tcase_add_test (tc, test_count_names_width);
  tcase_add_test (tc, test_settings_that_do_nothing);
  tcase_add_test (tc, test_caps_in_error_text);
}

static Suite *
hostile_suite (void)
{
  return aooct_test_suite_per_backend ("aooct-hostile", add_hostile_tests);
}

GST_CHECK_MAIN (hostile);
