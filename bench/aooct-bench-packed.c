/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench --packed: raw B-scans in a camera's packed formats (see
 * aooct-bench-packed.h) and the chain timed on them. */
#include <gst/video/video.h>

#include "aooct-bench-packed.h"
#include "aooct-bench.h"

GstSample *
aooct_bench_packed_sample (GstSample * raw, AooctRawFormat format)
{
  GstCaps *caps = gst_caps_copy (gst_sample_get_caps (raw));
  GstStructure *s = gst_caps_get_structure (caps, 0);
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *out;
  GstMapInfo map;
  GstSample *res;
  GError *error = NULL;
  guint16 *row16;
  gint w, h, r, i;
  gsize row;

  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (raw))
      || GST_VIDEO_INFO_FORMAT (&info) != GST_VIDEO_FORMAT_GRAY16_LE
      || !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (raw),
          GST_MAP_READ)) {
    g_printerr ("packed rows: the captured frame is not GRAY16_LE\n");
    gst_caps_unref (caps);
    return NULL;
  }
  w = GST_VIDEO_INFO_WIDTH (&info);
  h = GST_VIDEO_INFO_HEIGHT (&info);
  if (!aooct_raw_check_width (format, w, &error)) {
    g_printerr ("packed rows: %s\n", error->message);
    g_error_free (error);
    gst_video_frame_unmap (&frame);
    gst_caps_unref (caps);
    return NULL;
  }
  row = aooct_raw_row_bytes (format, w);
  out = gst_buffer_new_allocate (NULL, row * h, NULL);
  gst_buffer_map (out, &map, GST_MAP_WRITE);
  row16 = g_new (guint16, w);
  for (r = 0; r < h; r++) {
    const guint8 *in = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (i = 0; i < w; i++) {
      guint v = GST_READ_UINT16_LE (in + 2 * i);

      /* 12-bit samples; a 10-bit camera has two bits fewer */
      v = MIN (v, 4095u);
      row16[i] = format == AOOCT_RAW_MONO10P ? v >> 2 : v;
    }
    aooct_raw_pack_row (format, row16, w, map.data + (gsize) r * row);
  }
  g_free (row16);
  gst_buffer_unmap (out, &map);
  gst_video_frame_unmap (&frame);
  gst_structure_set_name (s, "video/x-aooct-packed");
  gst_structure_set (s, "format", G_TYPE_STRING,
      aooct_raw_format_name (format), NULL);
  /* what video/x-raw has and the packed caps do not */
  gst_structure_remove_fields (s, "colorimetry", "chroma-site",
      "interlace-mode", "pixel-aspect-ratio", "multiview-mode",
      "multiview-flags", NULL);
  res = gst_sample_new (out, caps, NULL, NULL);
  gst_buffer_unref (out);
  gst_caps_unref (caps);
  return res;
}

/* Packed input (--packed): the whole chain of @shape on its raw B-scans as
 * GRAY16_LE and packed as each packed format, in page-locked memory on
 * CUDA (the pool aooctdcsub proposes: the upload moves the packed bytes),
 * GRAY8 images in system memory; on one streaming thread and on three. */
void
aooct_bench_packed_rows (Bench * b, const Shape * shape)
{
  GString *table = b->table;
  FILE *out = b->out;
  static const AooctRawFormat formats[] = { AOOCT_RAW_GRAY16_LE,
    AOOCT_RAW_MONO12P, AOOCT_RAW_MONO12PACKED, AOOCT_RAW_MONO10P
  };
  GstSample *raw = capture_input (shape, 0);
  gchar *chains[2] = { chain_desc (shape, 0, N_STAGES - 1),
    chain_queued_desc (shape)
  };
  Feed feed = on_cuda ()? FEED_PINNED : FEED_SYSTEM;
  guint f, c;

  emit (table, out, "## %s, packed input: %d samples x %d A-lines, %d "
      "B-scans per buffer, raw B-scans in %s, GRAY8 image in system "
      "memory\n\n| raw samples | threads | bytes per A-line | ms per B-scan "
      "| A-lines/s | latency median / max, ms per buffer |\n"
      "|---|---:|---:|---:|---:|---:|\n", shape->name, shape->samples,
      shape->alines, shape->per_buffer, feed == FEED_PINNED ?
      "page-locked memory (the pool aooctdcsub proposes)" :
      "ordinary system memory");
  for (c = 0; c < G_N_ELEMENTS (chains); c++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstSample *in = formats[f] == AOOCT_RAW_GRAY16_LE ?
          gst_sample_ref (raw) : aooct_bench_packed_sample (raw, formats[f]);
      Timing t = { -1, 0, 0, 0, NULL };
      gdouble ms;

      if (in)
        t = time_chain (chains[c], "video/x-raw,format=GRAY8", in, b->buffers,
            feed, FALSE);
      ms = t.ms / shape->per_buffer;
      if (t.ms <= 0)
        emit (table, out, "| %s | %d | %" G_GSIZE_FORMAT " | failed (see "
            "the messages above) | | |\n", aooct_raw_format_name
            (formats[f]), c ? 3 : 1, aooct_raw_row_bytes (formats[f],
                shape->samples));
      else
        emit (table, out, "| %s | %d | %" G_GSIZE_FORMAT " | %.4f | %.3g | "
            "%.3f / %.3f |\n", aooct_raw_format_name (formats[f]), c ? 3 : 1,
            aooct_raw_row_bytes (formats[f], shape->samples), ms,
            shape->alines / (ms / 1e3), t.lat_med_ms, t.lat_max_ms);
      g_free (t.host);
      if (in)
        gst_sample_unref (in);
    }
  emit (table, out, "\n");
  g_free (chains[0]);
  g_free (chains[1]);
  gst_sample_unref (raw);
}
