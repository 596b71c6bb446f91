/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: raw B-scans in a camera's packed formats (see
 * aooct-bench-packed.h). */
#include <gst/video/video.h>

#include "aooct-bench-packed.h"

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
