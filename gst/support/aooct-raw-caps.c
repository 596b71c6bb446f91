/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: caps of raw camera rows (see aooct-raw-caps.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-raw-caps.h"
#include "aooct-src-util.h"

GstCaps *
aooct_raw_caps_new (AooctRawFormat format, gint width, gint height,
    gint bscans, gint fps_n, gint fps_d)
{
  if (aooct_raw_format_is_video (format))
    return aooct_src_video_caps (format == AOOCT_RAW_GRAY8 ?
        GST_VIDEO_FORMAT_GRAY8 : GST_VIDEO_FORMAT_GRAY16_LE, width, height,
        bscans, fps_n, fps_d);
  return gst_caps_new_simple (format == AOOCT_RAW_FLOAT32 ?
      AOOCT_FLOAT_CAPS_NAME : AOOCT_PACKED_CAPS_NAME,
      "format", G_TYPE_STRING, aooct_raw_format_name (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, fps_n, fps_d,
      AOOCT_SRC_BSCANS_FIELD, G_TYPE_INT, bscans, NULL);
}

gboolean
aooct_raw_structure_is_own (const GstStructure * s)
{
  return gst_structure_has_name (s, AOOCT_PACKED_CAPS_NAME)
      || gst_structure_has_name (s, AOOCT_FLOAT_CAPS_NAME);
}

GstVideoFormat
aooct_raw_format_video_layout (AooctRawFormat format, gint width,
    gint * layout_width)
{
  *layout_width = (gint) aooct_raw_row_bytes (format, width);
  switch (format) {
    case AOOCT_RAW_GRAY16_LE:
      *layout_width = width;
      return GST_VIDEO_FORMAT_GRAY16_LE;
    default:
      return GST_VIDEO_FORMAT_GRAY8;
  }
}

void
aooct_raw_packed_video_info (GstVideoInfo * info, AooctRawFormat format,
    gint width, gint height, gint fps_n, gint fps_d)
{
  gsize row = aooct_raw_row_bytes (format, width);

  gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, (guint) row,
      (guint) height);
  GST_VIDEO_INFO_PLANE_STRIDE (info, 0) = (gint) row;
  GST_VIDEO_INFO_SIZE (info) = row * height;
  GST_VIDEO_INFO_FPS_N (info) = fps_n;
  GST_VIDEO_INFO_FPS_D (info) = fps_d;
}

gboolean
aooct_raw_caps_video_info (const GstCaps * caps, GstVideoInfo * info,
    AooctRawFormat * format)
{
  const GstStructure *s;
  gint width, height, fps_n = 0, fps_d = 1;

  if (!gst_caps_is_fixed (caps))
    return FALSE;
  s = gst_caps_get_structure (caps, 0);
  if (!aooct_raw_structure_is_own (s)) {
    if (!gst_video_info_from_caps (info, caps))
      return FALSE;
    *format = GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY8 ?
        AOOCT_RAW_GRAY8 : AOOCT_RAW_GRAY16_LE;
    return TRUE;
  }
  if (!aooct_raw_format_from_string (gst_structure_get_string (s, "format"),
          format) || aooct_raw_format_is_video (*format)
      || (*format == AOOCT_RAW_FLOAT32) !=
      gst_structure_has_name (s, AOOCT_FLOAT_CAPS_NAME)
      || !gst_structure_get_int (s, "width", &width)
      || !gst_structure_get_int (s, "height", &height)
      || width < 1 || height < 1
      || width % aooct_raw_format_unit (*format) != 0)
    return FALSE;
  gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d);
  aooct_raw_packed_video_info (info, *format, width, height, fps_n, fps_d);
  return TRUE;
}

/* the packed and float formats' values: past any GstVideoFormat */
#define PACKED_ENUM_BASE 0x10000

GType
gst_aooct_raw_format_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_VIDEO_FORMAT_GRAY16_LE, "16-bit little-endian", "gray16-le"},
    {GST_VIDEO_FORMAT_GRAY8, "8-bit", "gray8"},
    {PACKED_ENUM_BASE + AOOCT_RAW_MONO12P, "12-bit packed, GenICam Mono12p",
        "mono12p"},
    {PACKED_ENUM_BASE + AOOCT_RAW_MONO12PACKED, "12-bit packed, GigE Vision "
          "Mono12Packed", "mono12packed"},
    {PACKED_ENUM_BASE + AOOCT_RAW_MONO10P, "10-bit packed, GenICam Mono10p",
        "mono10p"},
    {PACKED_ENUM_BASE + AOOCT_RAW_FLOAT32, "32-bit float, little-endian",
        "float32-le"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctRawFormat", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

AooctRawFormat
aooct_raw_format_from_enum (gint value)
{
  if (value == GST_VIDEO_FORMAT_GRAY8)
    return AOOCT_RAW_GRAY8;
  if (value == GST_VIDEO_FORMAT_GRAY16_LE)
    return AOOCT_RAW_GRAY16_LE;
  return (AooctRawFormat) (value - PACKED_ENUM_BASE);
}

gint
aooct_raw_format_to_enum (AooctRawFormat format)
{
  switch (format) {
    case AOOCT_RAW_GRAY8:
      return GST_VIDEO_FORMAT_GRAY8;
    case AOOCT_RAW_GRAY16_LE:
      return GST_VIDEO_FORMAT_GRAY16_LE;
    default:
      return PACKED_ENUM_BASE + format;
  }
}
