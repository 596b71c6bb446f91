/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what the raw-frame sources share (see aooct-src-util.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-src-util.h"
#include "aooct-error.h"

GstCaps *
aooct_src_video_caps (GstVideoFormat format, gint width, gint height,
    gint bscans, gint fps_n, gint fps_d)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, fps_n, fps_d,
      /* camera pixels: no physical ratio known; square, so that
       * videoscale keeps the frame's shape (issue 33 item 6) */
      "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      AOOCT_SRC_BSCANS_FIELD, G_TYPE_INT, bscans, NULL);
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
aooct_src_check_frame (GstVideoFormat format, gint width, gint height,
    guint bscans, const gchar * height_name, const gchar * bscans_name,
    GError ** error)
{
  guint64 rows = (guint64) height * bscans;
  gchar *product = bscans_name ? g_strdup_printf ("%s=%d x %s=%u", height_name,
      height, bscans_name, bscans) : g_strdup_printf ("%s=%d", height_name,
      height);
  const gchar *hint = bscans_name ? ": lower the B-scans per buffer" : "";
  GstVideoInfo info;
  gboolean ok = TRUE;

  if (rows > G_MAXINT) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "%s = %" G_GUINT64_FORMAT " A-lines is more than one video frame "
        "can have (its height is at most %d)%s", product, rows, G_MAXINT, hint);
    ok = FALSE;
  } else if (!gst_video_info_set_format (&info, format, width, (guint) rows)) {
    /* GstVideoInfo's own bound (in 1.22: rows padded to 128 pixels times
     * the height must stay under 4 GiB / bytes per pixel): what it refuses
     * no caps of ours can carry */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "a video frame of %d samples x %" G_GUINT64_FORMAT " A-lines (%s) "
        "is larger than GStreamer's video frames can be (about 4 GiB with "
        "rows padded to 128 pixels)%s", width, rows, product, hint);
    ok = FALSE;
  }
  g_free (product);
  return ok;
}

gboolean
aooct_src_set_video_caps (GstBaseSrc * src, GstVideoInfo * info, GstCaps * caps)
{
  if (!gst_video_info_from_caps (info, caps)) {
    gchar *s = gst_caps_to_string (caps);

    GST_ELEMENT_ERROR (src, CORE, NEGOTIATION, ("cannot use the caps %s", s),
        (NULL));
    g_free (s);
    return FALSE;
  }
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

GstStateChangeReturn
aooct_src_change_state (GstElement * element, GstStateChange transition,
    GstElementClass * parent_class, gboolean (*open) (GstBaseSrc * src),
    void (*close) (GstBaseSrc * src))
{
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && !open (GST_BASE_SRC (element)))
    return GST_STATE_CHANGE_FAILURE;
  ret = parent_class->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && ret == GST_STATE_CHANGE_FAILURE)
    close (GST_BASE_SRC (element));
  return ret;
}
