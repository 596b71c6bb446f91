/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * aooct-background: records the mean raw spectrum of N frames into the
 * background file that `aooctdcsub mode=background background-file=`
 * reads (spec section 2, docs/calibration-files.md).
 *
 *   aooct-background [--frames=N] --output=FILE SOURCE...
 *   aooct-background [--frames=N] --output=FILE [--samples=N --alines=M]
 *       [--format=F] [--header-bytes=B] [--frame-stride=S] RAWFILE
 *
 * SOURCE is a gst-launch-1.0 description (its arguments taken as
 * gst-launch-1.0 takes them: one argument, one token, so that a path
 * with a space, quoted in the shell, stays one value) that produces raw
 * frames, as
 * aooctdcsub takes them (video/x-raw GRAY16_LE or GRAY8, or packed 12/10-bit
 * samples in video/x-aooct-packed, docs/caps.md; width = samples per
 * A-line, height = A-lines per frame), for example a camera with the
 * sample arm blocked:
 *
 *   aooct-background --frames=200 --output=background.txt \
 *       aravissrc ! video/x-raw,format=GRAY16_LE,width=2048,height=1000
 *
 * or a raw file recorded that way:
 *
 *   aooct-background --output=background.txt aooctfilesrc location=bg.raw \
 *       format=gray16-le width=832 height=240
 *
 * or one of packed 12-bit samples:
 *
 *   aooct-background --output=background.txt aooctfilesrc \
 *       location=bg.raw format=mono12p width=2048 height=1000
 *
 * or, the same as the second, with the raw-file options every tool takes
 * (aooct-tool-util.h: a header, per-B-scan gaps, a NumPy .npy array that
 * needs no geometry) when SOURCE is a single existing file:
 *
 *   aooct-background --output=background.txt --samples=832 --alines=240 \
 *       bg.raw
 *   aooct-background --output=background.txt dark.npy
 *
 * aooct-background appends an appsink to SOURCE, takes the first N frames
 * (all of them when the stream ends earlier, with a note), sums every
 * A-line of them in double precision and writes the mean, one value per
 * line in camera counts, with a comment header saying what it is.  The
 * file has exactly `width` records, so aooctdcsub accepts it for the same
 * camera geometry; the mean of many frames also averages the camera noise
 * down (by sqrt of the number of A-lines).
 *
 * The file is written only when aooctdcsub's own reader takes it (checked
 * on the text before it is written: a line break in SOURCE becomes a new
 * comment line), and replaces FILE at once; messages name FILE, never a
 * temporary file.
 *
 * Exit status: 0 when the file is written, 1 on a pipeline error, a
 * stream without frames or a write error, 2 on a usage error. */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "aooct-textwrite.h"
#include "aooct-tool-util.h"

#include "aooct-raw-format.h"

/* what the appsink takes: the raw caps aooctdcsub takes */
#define RAW_CAPS "video/x-raw,format={GRAY16_LE,GRAY8}; " \
  "video/x-aooct-packed,format={mono12p,mono12packed,mono10p}; " \
  "video/x-aooct-float,format=F32LE"

typedef struct
{
  gdouble *sum;                 /* width values */
  gint width;
  guint64 alines, frames;
  gchar *format;
} Mean;

/* Adds every row of a frame of @h rows of @w samples in @format, @stride
 * bytes apart, to @m; FALSE (with a message) when its geometry differs
 * from the first frame's. */
static gboolean
accumulate (Mean * m, const guint8 * data, gsize stride, gint w, gint h,
    AooctRawFormat format, GError ** error)
{
  gfloat *row;
  gsize bad_row;
  gint r, c, bad_col;
  gfloat bad;

  if (m->sum == NULL) {
    m->width = w;
    m->sum = g_new0 (gdouble, w);
    m->format = g_strdup (aooct_raw_format_name (format));
  } else if (w != m->width) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "frame %" G_GUINT64_FORMAT " is %d samples wide, the first was %d",
        m->frames, w, m->width);
    return FALSE;
  }
  /* float spectra must be finite (spec section 0), as aooctdcsub says */
  if (format == AOOCT_RAW_FLOAT32 && aooct_raw_find_nonfinite (data, stride,
          w, h, &bad_row, &bad_col, &bad)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "frame %" G_GUINT64_FORMAT ", A-line %" G_GSIZE_FORMAT ", sample %d "
        "is %g: float spectra must be finite", m->frames, bad_row, bad_col,
        bad);
    return FALSE;
  }
  row = g_new (gfloat, w);
  for (r = 0; r < h; r++) {
    aooct_raw_row_to_float (format, data + (gsize) r * stride, w, row);
    for (c = 0; c < w; c++)
      m->sum[c] += row[c];
  }
  g_free (row);
  m->alines += h;
  m->frames++;
  return TRUE;
}

/* A video frame as GStreamer lays it out (its GstVideoMeta honoured), or
 * a packed or float one: its rows one after the other */
static gboolean
add_sample (Mean * m, GstSample * s, GError ** error)
{
  GstCaps *caps = gst_sample_get_caps (s);
  GstStructure *st = gst_caps_get_structure (caps, 0);
  GstBuffer *buf = gst_sample_get_buffer (s);
  AooctRawFormat format;
  gboolean ok;

  if (gst_structure_has_name (st, "video/x-aooct-packed")
      || gst_structure_has_name (st, "video/x-aooct-float")) {
    GstMapInfo map;
    gint w = 0, h = 0;
    gsize row;

    if (!aooct_raw_format_from_string (gst_structure_get_string (st,
                "format"), &format) || !gst_structure_get_int (st, "width",
            &w) || !gst_structure_get_int (st, "height", &h)
        || !aooct_raw_check_width (format, w, error)) {
      if (error && *error == NULL)
        g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
            "frame %" G_GUINT64_FORMAT ": cannot read its caps", m->frames);
      return FALSE;
    }
    row = aooct_raw_row_bytes (format, w);
    if (!gst_buffer_map (buf, &map, GST_MAP_READ))
      return FALSE;
    ok = map.size == row * h;
    if (!ok)
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "frame %" G_GUINT64_FORMAT " has %" G_GSIZE_FORMAT " bytes, but %d "
          "rows of %d %s samples are %" G_GSIZE_FORMAT, m->frames, map.size,
          h, w, aooct_raw_format_name (format), row * h);
    else
      ok = accumulate (m, map.data, row, w, h, format, error);
    gst_buffer_unmap (buf, &map);
  } else {
    GstVideoInfo info;
    GstVideoFrame frame;

    if (!gst_video_info_from_caps (&info, caps)
        || !gst_video_frame_map (&frame, &info, buf, GST_MAP_READ)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "cannot read frame %" G_GUINT64_FORMAT, m->frames);
      return FALSE;
    }
    format = GST_VIDEO_FRAME_FORMAT (&frame) == GST_VIDEO_FORMAT_GRAY16_LE ?
        AOOCT_RAW_GRAY16_LE : AOOCT_RAW_GRAY8;
    ok = accumulate (m, GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
        GST_VIDEO_FRAME_WIDTH (&frame), GST_VIDEO_FRAME_HEIGHT (&frame),
        format, error);
    gst_video_frame_unmap (&frame);
  }
  return ok;
}

/* The file, written only when aooctdcsub's reader takes it (the source
 * description in the header may hold line breaks: each line its own
 * comment) */
static gboolean
write_mean (const Mean * m, const gchar * path, const gchar * source,
    GError ** error)
{
  GString *s = g_string_new (NULL);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  gchar *header;
  gboolean ok;
  gint c;

  header = g_strdup_printf ("aooct background spectrum: mean of %"
      G_GUINT64_FORMAT " A-lines (%" G_GUINT64_FORMAT " frames, %s) of\n"
      "%s\n%d values, camera counts, for aooctdcsub mode=background",
      m->alines, m->frames, m->format, source, m->width);
  aooct_text_append_comment (s, header);
  g_free (header);
  for (c = 0; c < m->width; c++) {
    /* C locale whatever the user's locale, as the parser expects */
    g_string_append (s, g_ascii_formatd (buf, sizeof (buf), "%.9g",
            m->sum[c] / (gdouble) m->alines));
    g_string_append_c (s, '\n');
  }
  /* aooctdcsub reads exactly one number per camera pixel */
  ok = aooct_text_write (path, s, 1, 1, m->width, error);
  g_string_free (s, TRUE);
  return ok;
}

/* The error or EOS that ended the stream early: FALSE after an error
 * (printed), TRUE after EOS. */
static gboolean
check_bus (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gboolean ok = TRUE;

  if (msg) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("aooct-background: %s: %s\n", GST_OBJECT_NAME (msg->src),
        err->message);
    if (dbg)
      g_printerr ("  (%s)\n", dbg);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
    ok = FALSE;
  }
  gst_object_unref (bus);
  return ok;
}

int
main (int argc, char **argv)
{
  gint frames = 100;
  gchar *output = NULL;
  gchar **rest = NULL;
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &frames,
        "Frames to average (default 100)", "N"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
        "Background file to write (required)", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL,
        "SOURCE..."},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  static const gchar *const sink_tokens[] = { "!", "appsink",
    "name=aooct_background_sink", "caps=\"" RAW_CAPS "\"", "sync=false",
    "max-buffers=4", NULL
  };
  gchar *source;
  GstElement *pipeline;
  GstAppSink *sink;
  Mean m = { NULL, 0, 0, 0, NULL };
  gint status = 0;
  AooctToolRawFile rf = { 0, };
  GOptionEntry *raw_entries = aooct_tool_raw_file_entries (&rf, FALSE);
  gboolean file;

  ctx = g_option_context_new ("- record the mean raw spectrum of N "
      "frames as an aooctdcsub background file");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx, raw_entries, NULL);
  g_free (raw_entries);
  if (!aooct_tool_parse_options ("aooct-background", ctx, &argc, &argv))
    return 2;
  g_option_context_free (ctx);
  if (frames < 1) {
    g_printerr ("aooct-background: --frames %d: must be >= 1\n", frames);
    return 2;
  }
  if (output == NULL || rest == NULL) {
    g_printerr ("aooct-background: usage: aooct-background [--frames=N >= 1] "
        "--output=FILE SOURCE... (a gst-launch-1.0 description of the "
        "camera or raw file) or aooct-background [--frames=N >= 1] "
        "--output=FILE " AOOCT_TOOL_RAW_FILE_USAGE " RAWFILE\n");
    return 2;
  }

  source = g_strjoinv (" ", rest);
  /* one existing file: read by aooctfilesrc with the raw-file options */
  file = rest[1] == NULL && g_file_test (rest[0], G_FILE_TEST_EXISTS);
  if (file && !aooct_tool_raw_file_check (&rf, rest[0], &error)) {
    g_printerr ("aooct-background: %s\n", error->message);
    return error->domain == G_OPTION_ERROR ? 2 : 1;
  }
  /* GRAY16_LE, GRAY8, packed or float frames as the source gives them; no
   * conversion.  One argument, one token, as gst-launch-1.0 takes them (a
   * path with a space stays one value).  A missing element is an error
   * here even where gst_parse_launchv() returns what it could build */
  if (file) {
    gchar *filesrc[] = { (gchar *) "aooctfilesrc",
      (gchar *) "name=aooct_background_src", NULL
    };

    pipeline = aooct_tool_parse_launchv (filesrc, sink_tokens, &error);
  } else {
    pipeline = aooct_tool_parse_launchv (rest, sink_tokens, &error);
  }
  if (pipeline == NULL || error != NULL || !GST_IS_BIN (pipeline)) {
    g_printerr ("aooct-background: SOURCE: %s\n", error ? error->message :
        "not a pipeline description");
    return 2;
  }
  if (file) {
    /* the file name as a property, never through the description */
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline),
        "aooct_background_src");

    aooct_tool_raw_file_apply (&rf, src, rest[0]);
    gst_object_unref (src);
  }
  sink = GST_APP_SINK (gst_bin_get_by_name (GST_BIN (pipeline),
          "aooct_background_sink"));
  if (sink == NULL) {
    g_printerr ("aooct-background: SOURCE: cannot append an appsink\n");
    return 2;
  }
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    check_bus (pipeline);
    g_printerr ("aooct-background: cannot start the pipeline\n");
    return 1;
  }

  while (m.frames < (guint64) frames) {
    GstSample *s = gst_app_sink_pull_sample (sink);
    gboolean ok;

    if (s == NULL) {
      if (!check_bus (pipeline))
        status = 1;
      else if (m.frames > 0)
        g_printerr ("aooct-background: the stream ended after %"
            G_GUINT64_FORMAT " of %d frames: averaging those\n", m.frames,
            frames);
      break;
    }
    ok = add_sample (&m, s, &error);
    if (!ok) {
      g_printerr ("aooct-background: %s\n", error->message);
      g_clear_error (&error);
      status = 1;
    }
    gst_sample_unref (s);
    if (status)
      break;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

  if (status == 0 && m.frames == 0) {
    g_printerr ("aooct-background: the source gave no frames\n");
    status = 1;
  }
  if (status == 0) {
    if (write_mean (&m, output, source, &error)) {
      gchar *quoted = g_shell_quote (output);

      /* quoted only where the shell needs it */
      g_print ("aooct-background: %s: mean of %" G_GUINT64_FORMAT
          " A-lines in %" G_GUINT64_FORMAT " frames, %d samples; use "
          "aooctdcsub mode=background background-file=%s\n", output,
          m.alines, m.frames, m.width, strpbrk (output, " \t\n'\"\\$`!*?[]"
              "{}()<>|&;~#") ? quoted : output);
      g_free (quoted);
    } else {
      g_printerr ("aooct-background: %s\n", error->message);
      g_clear_error (&error);
      status = 1;
    }
  }

  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (m.sum);
  g_free (m.format);
  g_free (source);
  g_strfreev (rest);
  g_free (output);
  g_free (rf.format);
  return status;
}
