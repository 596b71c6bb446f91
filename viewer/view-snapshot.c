/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: a processed B-scan to a PGM file (the exact GRAY8 pixels
 * aooctnorm produced), and the window to a PNG. */
#include "view-snapshot.h"

#include <gst/video/video.h>
#include <errno.h>
#include <stdio.h>

gboolean
view_snapshot_frame (GstSample * sample, const gchar * path, GError ** error)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  FILE *f;
  gint r;
  gboolean ok = TRUE;

  if (!sample || !gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
      || GST_VIDEO_INFO_FORMAT (&info) != GST_VIDEO_FORMAT_GRAY8) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "no GRAY8 B-scan shown yet");
    return FALSE;
  }
  if (!gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "cannot read the B-scan");
    return FALSE;
  }
  if (!(f = fopen (path, "wb"))) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: %s", path,
        g_strerror (errno));
    gst_video_frame_unmap (&frame);
    return FALSE;
  }
  fprintf (f, "P5\n%d %d\n255\n", info.width, info.height);
  for (r = 0; r < info.height && ok; r++)
    ok = fwrite ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), 1, info.width,
        f) == (gsize) info.width;
  ok = fclose (f) == 0 && ok;
  gst_video_frame_unmap (&frame);
  if (!ok)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: write "
        "failed", path);
  return ok;
}

/* The window's pixels as the X server has them (what the user sees, the
 * video widget with its current frame, GL or not) to a PNG.  FALSE (with
 * the reason) when the video area shows nothing: fewer than 16 grey levels
 * over it, or two thirds of it one level. */
gboolean
view_snapshot_window (GtkWidget * window, GtkWidget * video,
    const gchar * path, GError ** error)
{
  GdkWindow *gw = gtk_widget_get_window (window);
  GdkPixbuf *pb;
  gint x, y, vx, vy, w, h, n, stride, levels = 0, top = 0;
  guint hist[256] = { 0 };
  const guint8 *px;
  guint64 total = 0;
  GtkAllocation a;

  if (!gw || !gtk_widget_get_mapped (window)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "the window is not shown");
    return FALSE;
  }
  if (!video || !gtk_widget_get_mapped (video)
      || !gtk_widget_translate_coordinates (video, window, 0, 0, &vx, &vy)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "no video area in the window");
    return FALSE;
  }
  /* everything drawn so far has reached the server */
  gdk_display_sync (gdk_window_get_display (gw));
  w = gdk_window_get_width (gw);
  h = gdk_window_get_height (gw);
  pb = gdk_pixbuf_get_from_window (gw, 0, 0, w, h);
  if (!pb) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "cannot read the window's pixels");
    return FALSE;
  }
  if (!gdk_pixbuf_save (pb, path, "png", error, "compression", "9", NULL)) {
    g_object_unref (pb);
    return FALSE;
  }
  gtk_widget_get_allocation (video, &a);
  n = gdk_pixbuf_get_n_channels (pb);
  stride = gdk_pixbuf_get_rowstride (pb);
  px = gdk_pixbuf_read_pixels (pb);
  for (y = MAX (vy, 0); y < MIN (vy + a.height, h); y++)
    for (x = MAX (vx, 0); x < MIN (vx + a.width, w); x++) {
      const guint8 *p = px + (gsize) y * stride + (gsize) x * n;

      hist[(p[0] * 77 + p[1] * 150 + p[2] * 29) >> 8]++;
      total++;
    }
  g_object_unref (pb);
  for (x = 0; x < 256; x++) {
    levels += hist[x] > total / 10000;
    top = MAX (top, (gint) hist[x]);
  }
  if (total == 0 || levels < 16 || (guint64) top > total / 3 * 2) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "the video area (%d x %d) shows nothing: %d grey levels, the "
        "commonest covers %.0f%%", a.width, a.height, levels,
        total ? 100.0 * top / total : 100.0);
    return FALSE;
  }
  return TRUE;
}

/* The window to a PNG, as view_snapshot_window; FALSE (with the reason)
 * when @plot (a view-plot.c widget) shows no curve: fewer than 0.1 % of its
 * pixels in colour (its background, frame and text are grey). */
gboolean
view_snapshot_plot (GtkWidget * window, GtkWidget * plot, const gchar * path,
    GError ** error)
{
  GdkWindow *gw = gtk_widget_get_window (window);
  GdkPixbuf *pb;
  gint x, y, vx, vy, w, h, n, stride;
  guint64 total = 0, coloured = 0;
  const guint8 *px;
  GtkAllocation a;

  if (!gw || !plot || !gtk_widget_get_mapped (plot)
      || !gtk_widget_translate_coordinates (plot, window, 0, 0, &vx, &vy)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "no plot shown in the window");
    return FALSE;
  }
  gdk_display_sync (gdk_window_get_display (gw));
  w = gdk_window_get_width (gw);
  h = gdk_window_get_height (gw);
  if (!(pb = gdk_pixbuf_get_from_window (gw, 0, 0, w, h))) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "cannot read the window's pixels");
    return FALSE;
  }
  if (!gdk_pixbuf_save (pb, path, "png", error, "compression", "9", NULL)) {
    g_object_unref (pb);
    return FALSE;
  }
  gtk_widget_get_allocation (plot, &a);
  n = gdk_pixbuf_get_n_channels (pb);
  stride = gdk_pixbuf_get_rowstride (pb);
  px = gdk_pixbuf_read_pixels (pb);
  for (y = MAX (vy, 0); y < MIN (vy + a.height, h); y++)
    for (x = MAX (vx, 0); x < MIN (vx + a.width, w); x++) {
      const guint8 *p = px + (gsize) y * stride + (gsize) x * n;

      coloured += MAX (MAX (p[0], p[1]), p[2]) - MIN (MIN (p[0], p[1]),
          p[2]) > 60;
      total++;
    }
  g_object_unref (pb);
  if (total == 0 || coloured * 1000 < total) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "the plot (%d x %d) shows no curve: %" G_GUINT64_FORMAT " pixels in "
        "colour", a.width, a.height, coloured);
    return FALSE;
  }
  return TRUE;
}
