/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: tune the aooct chain and watch the result live.
 *
 * The window shows the B-scan (and, where aooctenface / aooctrender are
 * installed, the en-face and volume views) of a pipeline made of the same
 * elements a user writes with gst-launch-1.0 (view-pipeline.c), from the
 * synthetic camera (default), a raw file or an Aravis camera.  Every
 * control on the left is one element property (view-controls.c), made from
 * the installed element's GParamSpec; a change goes to the running element
 * where the element takes it while playing (a2/a3, range, window, ...);
 * one read at start (crop, FFT size, backend, source) builds the pipeline
 * anew.  The settings are a key file (view-settings.c)
 * whose leading comment, and the line under the controls, is the same
 * pipeline as a gst-launch-1.0 command.  Recording: view-record.c.
 *
 *   aooct-view                                 synthetic camera
 *   aooct-view --raw F --width W --height H --calibration C
 *       [--format F] [--header-bytes B] [--frame-stride S]
 *   aooct-view --raw F.npy --calibration C
 *   aooct-view --camera NAME --width W --height H --calibration C
 *   aooct-view --settings FILE                 a saved state
 *   aooct-view --script FILE                   scripted actions (tests) */
#include "view-app.h"
#include "view-aooct.h"
#include "view-layout.h"
#include "view-source.h"
#include "view-controls.h"
#include "view-script.h"
#include "view-settings.h"
#include "view-snapshot.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>


static void
update_launch (ViewApp * app)
{
  gchar *line = view_settings_launch_line (app->settings);

  gtk_label_set_text (GTK_LABEL (app->launch), line);
  g_free (line);
}

static void
set_control_quietly (ViewApp * app, const gchar * group, const gchar * key,
    const gchar * value)
{
  GtkWidget *c = view_app_control (app, group, key);

  if (c)
    view_control_set_value (c, value, FALSE);
}

/* Every control's change ends here: the settings, then the element. */
static void
on_control_changed (GtkWidget * control, const gchar * group,
    const gchar * key, const gchar * value, gpointer data)
{
  ViewApp *app = data;
  gint i;

  if (g_str_equal (group, VIEW_CHAIN)) {
    /* the backend of every step at once; a new backend allocates
     * everything anew, so the chain is built again */
    for (i = 0; view_chain_factories[i]; i++)
      if (view_control_find_pspec (view_chain_factories[i], key))
        view_settings_set (app->settings, view_chain_factories[i], key, value);
    update_launch (app);
    view_app_start (app);
    return;
  }
  view_settings_set (app->settings, group, key, value);
  /* one calibration at a time: the elements refuse both */
  if (g_str_equal (group, "aooctkmap") && value && *value
      && (g_str_equal (key, "wavelength-file")
          || g_str_equal (key, "wavelength-coeffs"))) {
    const gchar *other = g_str_equal (key, "wavelength-file") ?
        "wavelength-coeffs" : "wavelength-file";

    view_settings_set (app->settings, group, other, NULL);
    set_control_quietly (app, group, other, "");
  }
  update_launch (app);
  if (g_str_equal (group, VIEW_VIEWS)
      || g_str_equal (group, VIEW_REGISTRATION))
    view_app_start (app);       /* branches or aooctregister in or out */
  else if (view_layout_is_deferred (group, key))
    view_app_status ("source changed: press Open to use it", FALSE, app);
  else if (view_pipeline_set_property (app->pipeline, group, key, value) ==
      VIEW_SET_REBUILD)
    view_app_start (app);
}

/* ---------- element -> control (automatic estimates) ------------------- */

typedef struct
{
  ViewApp *app;
  GtkWidget *control;
  GstElement *element;
} Notify;

/* Shows a value the running element set itself (an automatic estimate
 * of a2/a3), in the control and the settings.  Only for properties the
 * element takes while playing; a value equal to what the settings say (or
 * to the default where they say nothing) changes nothing. */
static void
sync_control (ViewApp * app, GtkWidget * control)
{
  const gchar *group = view_control_group (control);
  const gchar *key = view_control_key (control);
  GstElement *e = view_pipeline_element (app->pipeline, group);
  GParamSpec *ps;
  GValue v = G_VALUE_INIT;
  gchar *now, *was;

  if (!e || !(ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
              key)) || !(ps->flags & G_PARAM_READABLE)
      || !(ps->flags & GST_PARAM_MUTABLE_PLAYING))
    return;
  g_value_init (&v, ps->value_type);
  g_object_get_property (G_OBJECT (e), key, &v);
  now = view_value_to_string (&v);
  g_value_unset (&v);
  was = view_settings_get (app->settings, group, key);
  if (!was)
    was = view_value_to_string (g_param_spec_get_default_value (ps));
  if (now && g_strcmp0 (was, now) != 0) {
    view_settings_set (app->settings, group, key, now);
    view_control_set_value (control, now, FALSE);
    update_launch (app);
  }
  g_free (was);
  g_free (now);
}

static gboolean
apply_notify (gpointer data)
{
  Notify *n = data;

  /* still the running element (not one of a pipeline since rebuilt) */
  if (view_pipeline_element (n->app->pipeline,
          view_control_group (n->control)) == n->element)
    sync_control (n->app, n->control);
  gst_object_unref (n->element);
  g_object_unref (n->control);
  g_free (n);
  return G_SOURCE_REMOVE;
}

static void
on_element_notify (GObject * element, GParamSpec * ps, gpointer data)
{
  Notify *n = g_new0 (Notify, 1);

  n->app = g_object_get_data (G_OBJECT (data), "view-app");
  n->control = g_object_ref (data);
  n->element = gst_object_ref (element);
  /* elements notify from their streaming threads */
  g_idle_add (apply_notify, n);
}

static void
watch_elements (ViewApp * app)
{
  GHashTableIter it;
  gpointer k, c;

  g_hash_table_iter_init (&it, app->controls);
  while (g_hash_table_iter_next (&it, &k, &c)) {
    GstElement *e = view_pipeline_element (app->pipeline,
        view_control_group (c));
    gchar *sig;

    if (!e)
      continue;
    sig = g_strdup_printf ("notify::%s", view_control_key (c));
    g_signal_connect_object (e, sig, G_CALLBACK (on_element_notify), c, 0);
    g_free (sig);
  }
}

/* ---------- starting, saving, loading ---------------------------------- */

void
view_app_status (const gchar * message, gboolean is_error, gpointer data)
{
  ViewApp *app = data;
  gchar *markup;

  g_free (app->status_text);
  app->status_text = g_strdup (message);
  app->status_is_error = is_error;
  markup = g_markup_printf_escaped (is_error ?
      "<span foreground='#c01c28'><b>%s</b></span>" : "%s", message);
  gtk_label_set_markup (GTK_LABEL (app->status), markup);
  g_free (markup);
  if (is_error)
    g_printerr ("aooct-view: %s\n", message);
}

static void
place_views (ViewApp * app)
{
  gint k;

  for (k = 0; k < VIEW_N_VIEWS; k++) {
    GtkWidget *w = view_pipeline_widget (app->pipeline, k);
    GList *old = gtk_container_get_children (GTK_CONTAINER
        (app->view_pages[k])), *l;

    for (l = old; l; l = l->next)
      gtk_container_remove (GTK_CONTAINER (app->view_pages[k]), l->data);
    g_list_free (old);
    if (w) {
      gtk_box_pack_start (GTK_BOX (app->view_pages[k]), w, TRUE, TRUE, 0);
      gtk_widget_show (w);
    }
  }
}

static void
stop_recordings (ViewApp * app)
{
  gint i;

  for (i = 0; i < 2; i++)
    if (app->recordings[i]) {
      view_record_stop (app->recordings[i], TRUE);
      app->recordings[i] = NULL;
    }
  if (g_hash_table_lookup (app->buttons, "record"))
    gtk_toggle_button_set_active (g_hash_table_lookup (app->buttons,
            "record"), FALSE);
}

/* (Re)builds the whole pipeline from the settings: at start, on Open, on a
 * new backend and after loading settings. */
gboolean
view_app_start (ViewApp * app)
{
  GError *err = NULL;
  gchar *desc;

  stop_recordings (app);
  view_aooct_clear (app);
  if (!view_pipeline_build (app->pipeline, app->settings, &err)) {
    place_views (app);
    view_app_status (err->message, TRUE, app);
    g_error_free (err);
    return FALSE;
  }
  place_views (app);
  watch_elements (app);
  view_pipeline_play (app->pipeline);
  desc = view_settings_source_description (app->settings);
  view_app_status (desc, FALSE, app);
  g_free (desc);
  app->last_time = 0;
  return TRUE;
}

static gboolean
app_save (ViewApp * app, const gchar * path, GError ** error)
{
  gchar *m, *line;

  if (!view_settings_save (app->settings, path, error))
    return FALSE;
  m = g_strdup_printf ("settings saved to %s", path);
  view_app_status (m, FALSE, app);
  g_free (m);
  /* the same pipeline, for a terminal or a script */
  line = view_settings_launch_line (app->settings);
  g_print ("%s\n", line);
  g_free (line);
  return TRUE;
}

static void
refresh_controls (ViewApp * app)
{
  GHashTableIter it;
  gpointer k, c;

  g_hash_table_iter_init (&it, app->controls);
  while (g_hash_table_iter_next (&it, &k, &c)) {
    const gchar *group = view_control_group (c);
    gchar *v = view_settings_get (app->settings,
        view_layout_settings_group (group), view_control_key (c));

    if (!v)                     /* not in the file: the default */
      v = view_value_to_string (g_param_spec_get_default_value
          (view_layout_pspec (group, view_control_key (c))));
    view_control_set_value (c, v ? v : "", FALSE);
    g_free (v);
  }
}

static gboolean
app_load (ViewApp * app, const gchar * path, GError ** error)
{
  gchar *m;

  if (!view_settings_load (app->settings, path, error))
    return FALSE;
  refresh_controls (app);
  update_launch (app);
  view_app_start (app);
  m = g_strdup_printf ("settings loaded from %s", path);
  if (!app->status_is_error)
    view_app_status (m, FALSE, app);
  g_free (m);
  return TRUE;
}

gboolean
view_app_record (ViewApp * app, gboolean on, GError ** error)
{
  gchar *loc, *raw;
  GstElement *p = view_pipeline_get (app->pipeline);

  if (!on) {
    stop_recordings (app);
    return TRUE;
  }
  loc = view_settings_get (app->settings, "record", "location");
  raw = view_settings_get (app->settings, "record", "raw-location");
  if (!loc || !*loc) {
    g_free (loc);
    loc = g_strdup ("aooct-view.mkv");
  }
  app->recordings[0] = view_record_start (p, view_pipeline_tee
      (app->pipeline, FALSE), loc, TRUE, error);
  if (app->recordings[0] && raw && *raw) {
    app->recordings[1] = view_record_start (p, view_pipeline_tee
        (app->pipeline, TRUE), raw, FALSE, error);
    if (!app->recordings[1]) {
      view_record_stop (app->recordings[0], TRUE);
      app->recordings[0] = NULL;
    }
  }
  if (app->recordings[0]) {
    gchar *m = g_strdup_printf ("recording to %s%s%s", loc,
        raw && *raw ? " and raw frames to " : "", raw && *raw ? raw : "");

    view_app_status (m, FALSE, app);
    g_free (m);
  }
  g_free (loc);
  g_free (raw);
  return app->recordings[0] != NULL;
}

/* ---------- the window ---------------------------------------------------- */

static void
on_open (GtkButton * b, ViewApp * app)
{
  view_app_start (app);
}

static void
on_record (GtkToggleButton * b, ViewApp * app)
{
  GError *err = NULL;
  gboolean on = gtk_toggle_button_get_active (b);

  if (on == (app->recordings[0] != NULL))
    return;
  if (!view_app_record (app, on, &err)) {
    view_app_status (err->message, TRUE, app);
    g_error_free (err);
    gtk_toggle_button_set_active (b, FALSE);
  } else if (!on) {
    view_app_status ("recording stopped", FALSE, app);
  }
}

static void
on_action (GtkButton * b, ViewApp * app)
{
  const gchar *sig = g_object_get_data (G_OBJECT (b), "signal");
  GstElement *e = view_pipeline_element (app->pipeline,
      g_object_get_data (G_OBJECT (b), "element"));
  GSignalQuery q;

  if (!e) {
    view_app_status ("nothing is playing", TRUE, app);
    return;
  }
  g_signal_query (g_signal_lookup (sig, G_OBJECT_TYPE (e)), &q);
  if (q.return_type == G_TYPE_BOOLEAN) {
    gboolean ok = FALSE;

    g_signal_emit_by_name (e, sig, &ok);
    if (!ok)
      view_app_status ("the estimate did not succeed (see the log)", TRUE, app);
  } else {
    g_signal_emit_by_name (e, sig);
  }
}

static void
file_dialog (ViewApp * app, gboolean save)
{
  GtkWidget *d = gtk_file_chooser_dialog_new (save ? "Save settings" :
      "Load settings", GTK_WINDOW (app->window), save ?
      GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
      "_Cancel", GTK_RESPONSE_CANCEL, save ? "_Save" : "_Open",
      GTK_RESPONSE_ACCEPT, NULL);

  if (save) {
    gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (d), TRUE);
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d), "aooct-view.ini");
  }
  if (gtk_dialog_run (GTK_DIALOG (d)) == GTK_RESPONSE_ACCEPT) {
    gchar *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (d));
    GError *err = NULL;

    if (!(save ? view_app_save (app, path, &err) : view_app_load (app, path,
                &err))) {
      view_app_status (err->message, TRUE, app);
      g_error_free (err);
    }
    g_free (path);
  }
  gtk_widget_destroy (d);
}

static void
on_save (GtkButton * b, ViewApp * app)
{
  file_dialog (app, TRUE);
}

static void
on_load (GtkButton * b, ViewApp * app)
{
  file_dialog (app, FALSE);
}

static void
on_browse (GtkButton * b, GtkWidget * control)
{
  GtkWidget *d = gtk_file_chooser_dialog_new ("Choose a file",
      GTK_WINDOW (gtk_widget_get_toplevel (GTK_WIDGET (b))),
      g_str_equal (view_control_group (control), "record") ?
      GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
      "_Cancel", GTK_RESPONSE_CANCEL, "_Choose", GTK_RESPONSE_ACCEPT, NULL);

  if (gtk_dialog_run (GTK_DIALOG (d)) == GTK_RESPONSE_ACCEPT) {
    gchar *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (d));

    view_control_set_value (control, path, TRUE);
    g_free (path);
  }
  gtk_widget_destroy (d);
}

static GtkWidget *
add_button (ViewApp * app, GtkWidget * box, const gchar * name,
    const gchar * label, gboolean toggle, GCallback cb)
{
  GtkWidget *b = toggle ? gtk_toggle_button_new_with_label (label) :
      gtk_button_new_with_label (label);

  g_signal_connect (b, toggle ? "toggled" : "clicked", cb, app);
  gtk_box_pack_start (GTK_BOX (box), b, FALSE, FALSE, 0);
  g_hash_table_insert (app->buttons, g_strdup (name), b);
  return b;
}

/* A titled section of controls; NULL when none of its properties exists
 * in the installed elements (the section is then not shown). */
static GtkWidget *
add_section (ViewApp * app, GtkWidget * column, const gchar * title,
    const ViewControlSpec * specs)
{
  GtkWidget *frame = gtk_frame_new (title);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gint i, n = 0;

  gtk_container_set_border_width (GTK_CONTAINER (box), 6);
  gtk_container_add (GTK_CONTAINER (frame), box);
  for (i = 0; specs[i].group; i++) {
    const gchar *g = specs[i].group;
    gchar *initial = view_settings_get (app->settings,
        view_layout_settings_group (g), specs[i].key);
    GParamSpec *ps = view_layout_pspec (g, specs[i].key);
    GtkWidget *c = view_control_new_for_pspec (&specs[i], ps, initial,
        on_control_changed, app);

    g_free (initial);
    if (!c)
      continue;                 /* not in the installed element */
    g_object_set_data (G_OBJECT (c), "view-app", app);
    g_hash_table_insert (app->controls, g_strdup_printf ("%s/%s", g,
            specs[i].key), c);
    if (G_PARAM_SPEC_VALUE_TYPE (ps) == G_TYPE_STRING
        && !g_str_equal (specs[i].key, "framerate")
        && !g_str_equal (specs[i].key, "camera")
        && !g_str_equal (specs[i].key, "wavelength-coeffs")) {
      GtkWidget *b = gtk_button_new_with_label ("...");

      g_signal_connect (b, "clicked", G_CALLBACK (on_browse), c);
      gtk_box_pack_end (GTK_BOX (c), b, FALSE, FALSE, 0);
    }
    gtk_box_pack_start (GTK_BOX (box), c, FALSE, FALSE, 0);
    n++;
  }
  gtk_box_pack_start (GTK_BOX (column), frame, FALSE, FALSE, 0);
  if (n == 0) {
    gtk_widget_set_no_show_all (frame, TRUE);
    gtk_widget_hide (frame);
  }
  return box;
}

static gboolean
on_stats (gpointer data)
{
  ViewApp *app = data;
  gint64 now = g_get_monotonic_time ();
  guint64 al, fr;
  gchar *dev, *text;
  gdouble dt;
  GHashTableIter it;
  gpointer k, c;

  view_pipeline_counts (app->pipeline, &fr, &al);
  if (app->last_time && now > app->last_time && al >= app->last_alines) {
    dt = (now - app->last_time) / 1e6;
    dev = view_pipeline_device (app->pipeline);
    text = g_strdup_printf ("%.0f A-lines/s   %.1f B-scans/s   %s",
        (al - app->last_alines) / dt, (fr - app->last_frames) / dt, dev);
    gtk_label_set_text (GTK_LABEL (app->stats), text);
    g_free (text);
    g_free (dev);
  }
  /* elements that change a property without notifying it */
  g_hash_table_iter_init (&it, app->controls);
  while (g_hash_table_iter_next (&it, &k, &c))
    sync_control (app, c);
  app->last_time = now;
  app->last_alines = al;
  app->last_frames = fr;
  return G_SOURCE_CONTINUE;
}

static void
build_window (ViewApp * app)
{
  GtkWidget *paned, *scroll, *column, *box, *right, *bar, *row;
  static const gchar *const titles[] = { "B-scan", "En-face", "Volume" };
  gint n_flow = 0;
  gchar **sigs;
  gint i;

  app->window = gtk_application_window_new (app->gtk);
  gtk_window_set_title (GTK_WINDOW (app->window), "aooct-view");
  gtk_window_set_default_size (GTK_WINDOW (app->window), 1180, 760);
  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_container_add (GTK_CONTAINER (app->window), paned);

  scroll = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll),
      GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroll, 380, -1);
  column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_container_set_border_width (GTK_CONTAINER (column), 6);
  gtk_container_add (GTK_CONTAINER (scroll), column);
  gtk_paned_pack1 (GTK_PANED (paned), scroll, FALSE, FALSE);

  /* what is tuned most comes first; the source is set once */
  box = add_section (app, column, "Dispersion", view_dispersion_specs);
  /* action signals (an automatic estimate) become buttons */
  sigs = view_control_action_signals ("aooctdisp");
  for (i = 0; sigs[i]; i++) {
    GtkWidget *b = add_button (app, box, sigs[i], sigs[i], FALSE,
        G_CALLBACK (on_action));

    g_object_set_data_full (G_OBJECT (b), "signal", g_strdup (sigs[i]), g_free);
    g_object_set_data (G_OBJECT (b), "element", (gpointer) "aooctdisp");
  }
  g_strfreev (sigs);
  add_section (app, column, "Display range and crop", view_display_specs);
  add_section (app, column, "Spectrum and backend", view_spectrum_specs);
  add_section (app, column, "Averaging and filter", view_averaging_specs);
  add_section (app, column, "En-face and volume views", view_views_specs);
  add_section (app, column, "Flow: Doppler and angiography", view_flow_specs);
  add_section (app, column, "Registration (eye motion)",
      view_registration_specs);
  add_section (app, column, "Optoretinography (ORG tab)", view_org_specs);
  box = add_section (app, column, "Source", view_source_specs);
  add_button (app, box, "open", "Open", FALSE, G_CALLBACK (on_open));
  box = add_section (app, column, "Record", view_record_specs);
  add_button (app, box, "record", "Record", TRUE, G_CALLBACK (on_record));
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_pack_start (GTK_BOX (column), gtk_label_new ("Settings"), FALSE,
      FALSE, 0);
  gtk_box_pack_start (GTK_BOX (column), row, FALSE, FALSE, 0);
  add_button (app, row, "save-settings", "Save...", FALSE,
      G_CALLBACK (on_save));
  add_button (app, row, "load-settings", "Load...", FALSE,
      G_CALLBACK (on_load));
  app->launch = gtk_label_new (NULL);
  gtk_label_set_line_wrap (GTK_LABEL (app->launch), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (app->launch), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (app->launch), TRUE);
  gtk_label_set_xalign (GTK_LABEL (app->launch), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (app->launch), 50);
  gtk_box_pack_start (GTK_BOX (column), app->launch, FALSE, FALSE, 0);
  g_object_unref (g_object_ref_sink (box));

  right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_paned_pack2 (GTK_PANED (paned), right, TRUE, FALSE);
  app->views = gtk_notebook_new ();
  gtk_box_pack_start (GTK_BOX (right), app->views, TRUE, TRUE, 0);
  /* the Flow page: Doppler and angiogram side by side */
  app->flow_page = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_box_set_homogeneous (GTK_BOX (app->flow_page), TRUE);
  for (i = 0; i < VIEW_N_VIEWS; i++) {
    const gchar *f = view_kind_factory (i);

    app->view_pages[i] = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    /* the views of elements that are installed */
    if (f && !view_have_factory (f))
      g_object_ref_sink (app->view_pages[i]);
    else if (i == VIEW_ORG)
      continue;                 /* in the ORG tab, view_aooct_add_pages */
    else if (i == VIEW_DOPPLER || i == VIEW_ANGIO) {
      gtk_box_pack_start (GTK_BOX (app->flow_page), app->view_pages[i], TRUE,
          TRUE, 0);
      n_flow++;
    } else
      gtk_notebook_append_page (GTK_NOTEBOOK (app->views),
          app->view_pages[i], gtk_label_new (titles[i]));
  }
  if (n_flow > 0)
    gtk_notebook_append_page (GTK_NOTEBOOK (app->views), app->flow_page,
        gtk_label_new ("Flow"));
  else
    g_object_ref_sink (app->flow_page);
  view_aooct_add_pages (app);
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  app->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (app->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (app->status), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (app->status), TRUE);
  app->stats = gtk_label_new ("-");
  gtk_box_pack_start (GTK_BOX (bar), app->status, TRUE, TRUE, 0);
  gtk_box_pack_end (GTK_BOX (bar), app->stats, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (right), bar, FALSE, FALSE, 0);
  update_launch (app);
  g_timeout_add_seconds (1, on_stats, app);
}

static void
on_activate (GtkApplication * gtk, ViewApp * app)
{
  GError *err = NULL;

  if (app->window) {
    gtk_window_present (GTK_WINDOW (app->window));
    return;
  }
  build_window (app);
  gtk_widget_show_all (app->window);
  view_app_start (app);
  if (app->script && !view_script_run (app, app->script, &err)) {
    g_printerr ("aooct-view: %s\n", err->message);
    g_error_free (err);
    app->exit_code = 2;
    g_application_quit (G_APPLICATION (gtk));
  }
}

static void
on_shutdown (GtkApplication * gtk, ViewApp * app)
{
  stop_recordings (app);
  view_pipeline_stop (app->pipeline);
}

int
main (int argc, char **argv)
{
  ViewApp app = {.save = app_save,.load = app_load };
  gchar *raw = NULL, *camera = NULL, *calibration = NULL, *format = NULL;
  AooctRawFormat raw_format;
  /* -1: not given */
  gint64 header_bytes = -1, frame_stride = -1;
  /* G_MININT: not given (0 and negative numbers are refused) */
  gint width = G_MININT, height = G_MININT, rc;
  GOptionEntry entries[] = {
    {"raw", 0, 0, G_OPTION_ARG_FILENAME, &raw, "Open a raw file", "FILE"},
    {"camera", 0, 0, G_OPTION_ARG_STRING, &camera,
        "Open an Aravis camera (\"\" for the first)", "NAME"},
    {"width", 0, 0, G_OPTION_ARG_INT, &width,
        "Samples per A-line (raw file, camera)", "N"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height,
        "A-lines per frame (raw file, camera)", "M"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format,
        "Raw pixel format: gray16-le (default), gray8, packed mono12p, "
          "mono12packed, mono10p, or float32-le (docs/caps.md; a .npy "
          "file: its dtype)", "F"},
    {"header-bytes", 0, 0, G_OPTION_ARG_INT64, &header_bytes,
        "Raw file: bytes of a file header before the first frame, "
          "skipped (aooctfilesrc header-bytes)", "B"},
    {"frame-stride", 0, 0, G_OPTION_ARG_INT64, &frame_stride,
        "Raw file: bytes from one frame's start to the next, the frame "
          "included (skips per-frame headers or trailers)", "S"},
    {"calibration", 0, 0, G_OPTION_ARG_FILENAME, &calibration,
        "Spectrometer calibration: N wavelengths in nm (aooctkmap "
          "wavelength-file)", "FILE"},
    {"settings", 0, 0, G_OPTION_ARG_FILENAME, &app.settings_file,
        "Start from saved settings", "FILE"},
    {"sink", 0, 0, G_OPTION_ARG_STRING, &app.sink,
        "Video sink: gtksink (default) or gtkglsink", "SINK"},
    {"script", 0, 0, G_OPTION_ARG_FILENAME, &app.script,
        "Run scripted actions (tests; see viewer/view-script.c)", "FILE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- tune and watch aooct live");
  GError *err = NULL;
  gchar buf[16];

  /* GLib's messages in the user's language and character set (GTK would
   * set it only once its option group is parsed) */
  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  g_option_context_add_group (ctx, gtk_get_option_group (TRUE));
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("aooct-view: %s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  /* every number refused when it cannot be a frame's, never replaced by a
   * default */
  if (width != G_MININT && (width < 2 || width > 65536)) {
    g_printerr ("aooct-view: --width %d: samples per A-line must be "
        "2..65536\n", width);
    return 2;
  }
  if (height != G_MININT && height < 1) {
    g_printerr ("aooct-view: --height %d: A-lines per frame must be >= 1\n",
        height);
    return 2;
  }
  if (format && !view_source_raw_format (format, &raw_format)) {
    g_printerr ("aooct-view: --format %s: gray16-le, gray8, packed "
        "mono12p, mono12packed, mono10p, or float32-le\n", format);
    return 2;
  }
  if (header_bytes < -1 || frame_stride < -1) {
    g_printerr ("aooct-view: --header-bytes %" G_GINT64_FORMAT
        " --frame-stride %" G_GINT64_FORMAT ": byte counts cannot be "
        "negative\n", header_bytes, frame_stride);
    return 2;
  }

  app.settings = view_settings_new_default ();
  if (app.settings_file && !view_settings_load (app.settings,
          app.settings_file, &err)) {
    g_printerr ("aooct-view: %s\n", err->message);
    return 2;
  }
  if (raw || camera) {
    view_settings_set (app.settings, VIEW_SOURCE, "kind", raw ? "file" :
        "aravis");
    view_settings_set (app.settings, VIEW_SOURCE, raw ? "location" :
        "camera", raw ? raw : camera);
    /* a real spectrometer: its own calibration or none (named then) */
    view_settings_set (app.settings, "aooctkmap", "wavelength-coeffs", NULL);
  }
  if (width != G_MININT)
    view_settings_set (app.settings, VIEW_SOURCE, "width",
        g_ascii_dtostr (buf, sizeof buf, width));
  if (height != G_MININT)
    view_settings_set (app.settings, VIEW_SOURCE, "height",
        g_ascii_dtostr (buf, sizeof buf, height));
  if (format)
    view_settings_set (app.settings, VIEW_SOURCE, "format", format);
  if (header_bytes >= 0) {
    gchar *v = g_strdup_printf ("%" G_GINT64_FORMAT, header_bytes);

    view_settings_set (app.settings, VIEW_SOURCE, "header-bytes", v);
    g_free (v);
  }
  if (frame_stride >= 0) {
    gchar *v = g_strdup_printf ("%" G_GINT64_FORMAT, frame_stride);

    view_settings_set (app.settings, VIEW_SOURCE, "frame-stride", v);
    g_free (v);
  }
  if (calibration) {
    view_settings_set (app.settings, "aooctkmap", "wavelength-coeffs", NULL);
    view_settings_set (app.settings, "aooctkmap", "wavelength-file",
        calibration);
  }

  app.controls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  app.buttons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  app.pipeline = view_pipeline_new (app.sink, view_app_status, &app);
  view_pipeline_set_message_func (app.pipeline, view_aooct_message);
  app.gtk = gtk_application_new ("org.aooct.View", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app.gtk, "activate", G_CALLBACK (on_activate), &app);
  g_signal_connect (app.gtk, "shutdown", G_CALLBACK (on_shutdown), &app);
  rc = g_application_run (G_APPLICATION (app.gtk), 1, argv);
  view_pipeline_free (app.pipeline);
  g_object_unref (app.gtk);
  g_key_file_free (app.settings);
  g_hash_table_unref (app.controls);
  g_hash_table_unref (app.buttons);
  g_free (app.status_text);
  g_free (app.sink);
  g_free (app.script);
  g_free (app.settings_file);
  g_free (raw);
  g_free (camera);
  g_free (calibration);
  g_free (format);
  return rc ? rc : app.exit_code;
}
