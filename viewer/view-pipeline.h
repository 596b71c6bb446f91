/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the pipeline, built from the settings. */
#ifndef VIEW_PIPELINE_H
#define VIEW_PIPELINE_H

#include <gtk/gtk.h>
#include <gst/gst.h>

G_BEGIN_DECLS

typedef enum
{
  VIEW_BSCAN,
  VIEW_ENFACE,
  VIEW_VOLUME,
  VIEW_DOPPLER,                 /* the Flow view's two panes */
  VIEW_ANGIO,
  VIEW_ORG,                     /* the ORG tab's kymograph (aooctorg) */
  VIEW_N_VIEWS
} ViewKind;

/* A view's name in messages and scripts ("bscan", "enface", "volume",
 * "doppler", "angio", "org"), and its element (NULL for the B-scan). */
const gchar *view_kind_name (ViewKind kind);
const gchar *view_kind_factory (ViewKind kind);

typedef struct _ViewPipeline ViewPipeline;

/* Called on the main thread for every error, warning and state note. */
typedef void (*ViewStatusFunc) (const gchar * message, gboolean is_error,
    gpointer user_data);

ViewPipeline *view_pipeline_new (const gchar * sink_factory,
    ViewStatusFunc status, gpointer user_data);
/* Called on the main thread with the structure of every element message
 * of the aooct elements (aooct-registration, aooct-org, ...). */
typedef void (*ViewMessageFunc) (const GstStructure * s, gpointer user_data);
void view_pipeline_set_message_func (ViewPipeline * vp, ViewMessageFunc func);
void view_pipeline_free (ViewPipeline * vp);

gboolean view_pipeline_build (ViewPipeline * vp, GKeyFile * settings,
    GError ** error);
void view_pipeline_play (ViewPipeline * vp);
void view_pipeline_stop (ViewPipeline * vp);

GtkWidget *view_pipeline_widget (ViewPipeline * vp, ViewKind kind);
GstElement *view_pipeline_element (ViewPipeline * vp, const gchar * factory);
GstElement *view_pipeline_get (ViewPipeline * vp);
GstElement *view_pipeline_tee (ViewPipeline * vp, gboolean raw);

typedef enum
{
  VIEW_SET_LIVE,                /* set on the running element */
  VIEW_SET_REBUILD,             /* read at start: rebuild the pipeline */
  VIEW_SET_NO_ELEMENT,          /* not in the running pipeline */
} ViewSetResult;

ViewSetResult view_pipeline_set_property (ViewPipeline * vp,
    const gchar * factory, const gchar * property, const gchar * value);

guint64 view_pipeline_frames (ViewPipeline * vp);
void view_pipeline_counts (ViewPipeline * vp, guint64 * frames,
    guint64 * alines);
GstSample *view_pipeline_last_frame (ViewPipeline * vp);
gchar *view_pipeline_device (ViewPipeline * vp);
gboolean view_have_factory (const gchar * factory);

G_END_DECLS
#endif
