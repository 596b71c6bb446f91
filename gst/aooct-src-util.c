/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what the raw-frame sources share (see aooct-src-util.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-src-util.h"

GstCaps *
aooct_src_video_caps (GstVideoFormat format, gint width, gint height,
    gint fps_n, gint fps_d)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, fps_n, fps_d, NULL);
}

GstCaps *
aooct_src_filter_caps (GstCaps * caps, GstCaps * filter)
{
  GstCaps *res;

  if (filter == NULL)
    return caps;
  res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return res;
}

gboolean
aooct_src_set_video_caps (GstBaseSrc * src, GstVideoInfo * info, GstCaps * caps)
{
  if (!gst_video_info_from_caps (info, caps))
    return FALSE;
  gst_base_src_set_blocksize (src, GST_VIDEO_INFO_SIZE (info));
  return TRUE;
}

GstClockTime
aooct_src_frame_time (gint fps_n, gint fps_d, guint64 n)
{
  if (fps_n <= 0)
    return n == 0 ? 0 : GST_CLOCK_TIME_NONE;
  return gst_util_uint64_scale (n, (guint64) fps_d * GST_SECOND, fps_n);
}
