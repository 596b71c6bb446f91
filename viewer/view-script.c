/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view --script FILE: user actions, one per line, run in order while
 * the window is up.  They go through the controls and buttons themselves
 * (a "set" changes the widget, whose handler does what a user's change
 * does), so a test of the script is a test of the program.
 *
 *   set GROUP KEY VALUE      a control (GROUP: element or "source")
 *   click BUTTON             open, play, record, save-image
 *   wait-frames N            until N more B-scans were shown (30 s at most)
 *   wait-ms N
 *   dump-frame FILE          the newest B-scan as PGM; prints its number
 *   save FILE / load FILE    the settings, as the Save/Load buttons do
 *   show bscan|enface|volume|flow|registration|org   switch to that tab
 *   screenshot FILE          the window as PNG; fails if the video shown
 *                            (the current tab's) is blank (the
 *                            Registration tab: if its plot has no curve)
 *   expect-status TEXT       the status line says TEXT within 10 s
 *   expect-property ELEMENT KEY VALUE   the running element's property
 *   expect-stats TEXT        the statistics (A-lines/s, B-scans/s, where
 *                            the chain runs) say TEXT within 10 s
 *   expect-running           B-scans are flowing (within 10 s)
 *   expect-control GROUP KEY yes|no     whether the window has that control
 *   expect-choices GROUP KEY A,B,...    an enum control's choices, in order
 *   expect-view enface|volume|doppler|angio yes|no   whether that view
 *                            is there (doppler, angio: the Flow tab's panes)
 *   expect-plot registration|org N   that tab's plot holds at least N
 *                            points (within 20 s)
 *   quit
 *
 * Blank lines and lines starting with '#' are skipped.  The program exits
 * 1 when a step fails (and says which), 0 after quit. */
#include "view-script.h"
#include "view-aooct.h"
#include "view-plot.h"
#include "view-controls.h"
#include "view-settings.h"
#include "view-snapshot.h"
#include "aooct-textfile.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  ViewApp *app;
  gchar **lines;
  gint pc;
  gint64 deadline;              /* of the waiting step, or 0 */
  guint64 frames_target;
} Script;

static void
finish (Script * s, gint code)
{
  ViewApp *app = s->app;

  app->exit_code = code;
  g_strfreev (s->lines);
  g_free (s);
  g_application_quit (G_APPLICATION (app->gtk));
}

static gboolean
fail (Script * s, const gchar * line, const gchar * why)
{
  g_printerr ("aooct-view script: line %d '%s' failed: %s\n", s->pc + 1,
      line, why);
  finish (s, 1);
  return G_SOURCE_REMOVE;
}

static ViewKind
view_kind (const gchar * name)
{
  gint k;

  if (g_str_equal (name, "flow"))
    return VIEW_DOPPLER;
  for (k = 0; k < VIEW_N_VIEWS; k++)
    if (g_str_equal (name, view_kind_name (k)))
      return k;
  return VIEW_BSCAN;
}

/* TRUE: the step is done; FALSE: call again later (a wait). */
static gboolean
step (Script * s, gchar ** a, gint n, const gchar * line, gchar ** why)
{
  ViewApp *app = s->app;
  GError *err = NULL;
  gint64 now = g_get_monotonic_time ();

#define ARGS(k) if (n != (k)) { *why = g_strdup ("wrong number of arguments"); return TRUE; }
#define WAIT(sec) do { if (!s->deadline) s->deadline = now + (sec) * G_USEC_PER_SEC; \
    else if (now > s->deadline) { *why = g_strdup ("timed out"); return TRUE; } } while (0)

  if (g_str_equal (a[0], "set")) {
    GtkWidget *c;
    gchar *v;

    if (n < 4) {
      *why = g_strdup ("set GROUP KEY VALUE");
      return TRUE;
    }
    if (!(c = view_app_control (app, a[1], a[2]))) {
      *why = g_strdup_printf ("no control for %s %s", a[1], a[2]);
      return TRUE;
    }
    v = g_strjoinv (" ", a + 3);
    view_control_set_value (c, v, TRUE);
    g_free (v);
  } else if (g_str_equal (a[0], "click")) {
    GtkWidget *b;

    ARGS (2);
    if (!(b = g_hash_table_lookup (app->buttons, a[1]))) {
      *why = g_strdup_printf ("no button '%s'", a[1]);
      return TRUE;
    }
    if (GTK_IS_TOGGLE_BUTTON (b))
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (b),
          !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (b)));
    else
      gtk_button_clicked (GTK_BUTTON (b));
  } else if (g_str_equal (a[0], "wait-frames")) {
    ARGS (2);
    if (!s->deadline)
      s->frames_target = view_pipeline_frames (app->pipeline) + atoi (a[1]);
    if (view_pipeline_frames (app->pipeline) >= s->frames_target)
      return TRUE;
    WAIT (30);
    return FALSE;
  } else if (g_str_equal (a[0], "wait-ms")) {
    ARGS (2);
    if (!s->deadline)
      s->deadline = now + atoi (a[1]) * (gint64) 1000;
    return now >= s->deadline;
  } else if (g_str_equal (a[0], "expect-running")) {
    ARGS (1);
    if (!s->deadline)
      s->frames_target = view_pipeline_frames (app->pipeline) + 2;
    if (view_pipeline_frames (app->pipeline) >= s->frames_target)
      return TRUE;
    WAIT (10);
    return FALSE;
  } else if (g_str_equal (a[0], "dump-frame")) {
    GstSample *f = view_pipeline_last_frame (app->pipeline);

    ARGS (2);
    if (!view_snapshot_frame (f, a[1], &err)) {
      *why = g_strdup (err->message);
    } else {
      GstBuffer *b = gst_sample_get_buffer (f);

      g_print ("aooct-view script: frame %" G_GUINT64_FORMAT " to %s\n",
          GST_BUFFER_OFFSET (b), a[1]);
    }
    if (f)
      gst_sample_unref (f);
  } else if (g_str_equal (a[0], "save")) {
    ARGS (2);
    if (!view_app_save (app, a[1], &err))
      *why = g_strdup (err->message);
  } else if (g_str_equal (a[0], "load")) {
    ARGS (2);
    if (!view_app_load (app, a[1], &err))
      *why = g_strdup (err->message);
  } else if (g_str_equal (a[0], "show")) {
    gint page;

    ARGS (2);
    page = gtk_notebook_page_num (GTK_NOTEBOOK (app->views),
        view_aooct_page (app, a[1]) ? view_aooct_page (app, a[1]) :
        view_app_page (app, view_kind (a[1])));
    if (page < 0)
      *why = g_strdup_printf ("no %s view", a[1]);
    else
      gtk_notebook_set_current_page (GTK_NOTEBOOK (app->views), page);
  } else if (g_str_equal (a[0], "screenshot")) {
    gboolean shot = FALSE;
    gint k;

    ARGS (2);
    /* the video of the tab in front (each pane of the Flow tab) */
    for (k = 0; k < VIEW_N_VIEWS && err == NULL; k++)
      if (gtk_notebook_page_num (GTK_NOTEBOOK (app->views),
              view_app_page (app, k)) ==
          gtk_notebook_get_current_page (GTK_NOTEBOOK (app->views))) {
        view_snapshot_window (app->window, view_pipeline_widget (app->pipeline,
                k), a[1], &err);
        shot = TRUE;
      }
    /* the Registration tab: its plot, not a video */
    if (!shot && app->reg_page
        && gtk_notebook_page_num (GTK_NOTEBOOK (app->views), app->reg_page)
        == gtk_notebook_get_current_page (GTK_NOTEBOOK (app->views))) {
      view_snapshot_plot (app->window, app->reg_plot, a[1], &err);
      shot = TRUE;
    }
    if (!shot)
      view_snapshot_window (app->window, NULL, a[1], &err);
    if (err)
      *why = g_strdup (err->message);
  } else if (g_str_equal (a[0], "expect-status")) {
    gchar *want;

    if (n < 2) {
      *why = g_strdup ("expect-status TEXT");
      return TRUE;
    }
    want = g_strjoinv (" ", a + 1);
    if (app->status_text && strstr (app->status_text, want)) {
      g_print ("aooct-view script: status: %s\n", app->status_text);
      g_free (want);
      return TRUE;
    }
    g_free (want);
    if (s->deadline && now > s->deadline) {
      *why = g_strdup_printf ("the status line says '%s'",
          app->status_text ? app->status_text : "");
      return TRUE;
    }
    WAIT (10);
    return FALSE;
  } else if (g_str_equal (a[0], "expect-stats")) {
    gchar *want;
    const gchar *have = gtk_label_get_text (GTK_LABEL (app->stats));

    if (n < 2) {
      *why = g_strdup ("expect-stats TEXT");
      return TRUE;
    }
    want = g_strjoinv (" ", a + 1);
    if (strstr (have, want)) {
      g_print ("aooct-view script: stats: %s\n", have);
      g_free (want);
      return TRUE;
    }
    g_free (want);
    if (s->deadline && now > s->deadline) {
      *why = g_strdup_printf ("the statistics say '%s'", have);
      return TRUE;
    }
    WAIT (10);
    return FALSE;
  } else if (g_str_equal (a[0], "expect-property")) {
    GstElement *e;
    GParamSpec *ps;
    GValue v = G_VALUE_INIT;
    gchar *got;

    ARGS (4);
    e = view_pipeline_element (app->pipeline, a[1]);
    if (!e || !(ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
                a[2]))) {
      *why = g_strdup_printf ("no running %s with property %s", a[1], a[2]);
      return TRUE;
    }
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (e), a[2], &v);
    got = view_value_to_string (&v);
    g_value_unset (&v);
    if (g_strcmp0 (got, a[3]) != 0)
      *why = g_strdup_printf ("%s %s is %s", a[1], a[2], got);
    g_free (got);
  } else if (g_str_equal (a[0], "expect-control")) {
    gboolean has;

    ARGS (4);
    has = view_app_control (app, a[1], a[2]) != NULL;
    if (has != g_str_equal (a[3], "yes"))
      *why = g_strdup_printf ("the control %s %s is %s", a[1], a[2],
          has ? "there" : "missing");
  } else if (g_str_equal (a[0], "expect-choices")) {
    GtkWidget *c;
    gchar **ch, *got;

    ARGS (4);
    if (!(c = view_app_control (app, a[1], a[2]))
        || !(ch = view_control_choices (c))) {
      *why = g_strdup_printf ("no choice control for %s %s", a[1], a[2]);
      return TRUE;
    }
    got = g_strjoinv (",", ch);
    if (!g_str_equal (got, a[3]))
      *why = g_strdup_printf ("the choices are %s", got);
    g_free (got);
    g_strfreev (ch);
  } else if (g_str_equal (a[0], "expect-view")) {
    ViewKind k = view_kind (a[1]);
    gboolean shown;

    ARGS (3);
    shown = gtk_notebook_page_num (GTK_NOTEBOOK (app->views),
        view_app_page (app, k)) >= 0
        && view_pipeline_widget (app->pipeline, k) != NULL;
    if (shown != g_str_equal (a[2], "yes"))
      *why = g_strdup_printf ("the %s view is %s", a[1],
          shown ? "shown" : "not shown");
  } else if (g_str_equal (a[0], "expect-plot")) {
    GtkWidget *plot;

    ARGS (3);
    if (!(plot = view_aooct_plot (app, a[1]))) {
      *why = g_strdup_printf ("no %s plot", a[1]);
      return TRUE;
    }
    if (view_plot_count (plot) >= (guint) atoi (a[2])) {
      g_print ("aooct-view script: the %s plot holds %u points\n", a[1],
          view_plot_count (plot));
      return TRUE;
    }
    if (s->deadline && now > s->deadline) {
      *why = g_strdup_printf ("the %s plot holds %u points", a[1],
          view_plot_count (plot));
      return TRUE;
    }
    WAIT (20);
    return FALSE;
  } else if (g_str_equal (a[0], "quit")) {
    s->pc = -1;
  } else {
    *why = g_strdup_printf ("unknown command '%s'", a[0]);
  }
  if (err)
    g_error_free (err);
  return TRUE;
#undef ARGS
#undef WAIT
}

static gboolean
tick (gpointer data)
{
  Script *s = data;
  gchar **a, *why = NULL, *line;
  gboolean done;

  while (s->lines[s->pc]) {
    line = g_strstrip (s->lines[s->pc]);
    if (!*line || *line == '#') {
      s->pc++;
      continue;
    }
    if (!g_shell_parse_argv (line, NULL, &a, NULL))
      return fail (s, line, "cannot parse the line");
    if (!s->deadline)
      g_print ("aooct-view script: %s\n", line);
    done = step (s, a, g_strv_length (a), line, &why);
    g_strfreev (a);
    if (why) {
      gboolean r = fail (s, line, why);

      g_free (why);
      return r;
    }
    if (!done)
      return G_SOURCE_CONTINUE;
    s->deadline = 0;
    if (s->pc < 0) {
      finish (s, 0);
      return G_SOURCE_REMOVE;
    }
    s->pc++;
    /* one step per tick: let the window draw and the bus deliver */
    return G_SOURCE_CONTINUE;
  }
  finish (s, 0);
  return G_SOURCE_REMOVE;
}

gboolean
view_script_run (ViewApp * app, const gchar * path, GError ** error)
{
  gchar *text;
  Script *s;
  gsize len;

  /* a FIFO or device named as the script is refused, not read for ever */
  if (!aooct_text_read_file (path, &text, &len, error))
    return FALSE;
  s = g_new0 (Script, 1);
  s->app = app;
  s->lines = g_strsplit (text, "\n", -1);
  g_free (text);
  g_timeout_add (50, tick, s);
  return TRUE;
}
