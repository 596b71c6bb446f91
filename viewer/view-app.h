/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the program's state, shared by the window (aooct-view.c)
 * and the script (view-script.c).  view-app.c is what the script reaches
 * of the window, so that the window calls the script and not the other
 * way round. */
#ifndef VIEW_APP_H
#define VIEW_APP_H

#include "view-pipeline.h"
#include "view-record.h"

G_BEGIN_DECLS

typedef struct _ViewApp ViewApp;

struct _ViewApp
{
  GtkApplication *gtk;
  GtkWidget *window, *views, *status, *stats, *launch;
  GtkWidget *view_pages[VIEW_N_VIEWS];
  GtkWidget *flow_page;         /* the Doppler and angiogram panes */
  /* the AO-OCT tabs (view-aooct.c): pages, plots, their text lines */
  GtkWidget *reg_page, *reg_plot, *reg_label;
  GtkWidget *org_page, *org_plot, *org_label;
  guint reg_rejected;
  GKeyFile *settings;
  ViewPipeline *pipeline;
  GHashTable *controls;         /* "group/key" -> control row */
  GHashTable *buttons;          /* name -> GtkButton */
  ViewRecording *recordings[2]; /* processed, raw */
  gchar *status_text;
  gboolean status_is_error;
  guint64 last_alines, last_frames;
  gint64 last_time;
  /* options */
  gchar *sink, *script, *settings_file;
  gint exit_code;
  /* what the window does on Save and Open (aooct-view.c sets them), and
   * the script asks for through view_app_save() / view_app_load() */
  gboolean (*save) (ViewApp * app, const gchar * path, GError ** error);
  gboolean (*load) (ViewApp * app, const gchar * path, GError ** error);
};

void view_app_status (const gchar * message, gboolean is_error,
    gpointer app);
gboolean view_app_start (ViewApp * app);
gboolean view_app_save (ViewApp * app, const gchar * path, GError ** error);
gboolean view_app_load (ViewApp * app, const gchar * path, GError ** error);
GtkWidget *view_app_control (ViewApp * app, const gchar * group,
    const gchar * key);
gboolean view_app_record (ViewApp * app, gboolean on, GError ** error);
/* The notebook page that shows view @kind (the Flow page for both of its
 * panes). */
GtkWidget *view_app_page (ViewApp * app, ViewKind kind);

G_END_DECLS
#endif
