/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: recording a stream to a file while the pipeline plays. */
#ifndef VIEW_RECORD_H
#define VIEW_RECORD_H

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _ViewRecording ViewRecording;

ViewRecording *view_record_start (GstElement * pipeline, GstElement * tee,
    const gchar * location, gboolean matroska, GError ** error);
void view_record_stop (ViewRecording * rec, gboolean wait);
guint64 view_record_bytes (ViewRecording * rec);

G_END_DECLS
#endif
