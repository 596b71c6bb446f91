/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: B-scans and the window to image files. */
#ifndef VIEW_SNAPSHOT_H
#define VIEW_SNAPSHOT_H

#include <gtk/gtk.h>
#include <gst/gst.h>

G_BEGIN_DECLS

gboolean view_snapshot_frame (GstSample * sample, const gchar * path,
    GError ** error);
gboolean view_snapshot_window (GtkWidget * window, GtkWidget * video,
    const gchar * path, GError ** error);
gboolean view_snapshot_plot (GtkWidget * window, GtkWidget * plot,
    const gchar * path, GError ** error);

G_END_DECLS
#endif
