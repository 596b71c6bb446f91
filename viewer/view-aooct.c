/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the Registration and ORG tabs (view-aooct.h).  Both plot
 * what their element posts per B-scan (aooct-registration: dz, dx,
 * correlation, rejected; aooct-org: mean, std, valid), so the numbers a
 * user sees are the element's own, as a script or a trace file gets
 * them. */
#include "view-aooct.h"
#include "view-plot.h"

#include <math.h>

/* B-scans the plots keep: a few seconds of a fast camera */
#define PLOT_HISTORY 2000

static gboolean
have (const gchar * factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);

  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* A numeric field of any type as a double (NaN when absent) */
static gdouble
field (const GstStructure * s, const gchar * name)
{
  const GValue *v = gst_structure_get_value (s, name);
  GValue d = G_VALUE_INIT;
  gdouble r = NAN;

  if (!v)
    return NAN;
  g_value_init (&d, G_TYPE_DOUBLE);
  if (G_VALUE_HOLDS_BOOLEAN (v))
    r = g_value_get_boolean (v) ? 1 : 0;
  else if (g_value_transform (v, &d))
    r = g_value_get_double (&d);
  g_value_unset (&d);
  return r;
}

static GtkWidget *
page_with_plot (GtkWidget * top, GtkWidget * plot, GtkWidget * label)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  if (top)
    gtk_box_pack_start (GTK_BOX (page), top, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (page), plot, top == NULL, TRUE, 0);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_box_pack_start (GTK_BOX (page), label, FALSE, FALSE, 2);
  return page;
}

void
view_aooct_add_pages (ViewApp * app)
{
  if (have ("aooctregister")) {
    static const gchar *const names[] = { "depth dz (bins)",
      "lateral dx (A-lines)"
    };

    app->reg_plot = view_plot_new ("Registration: shift of each B-scan "
        "against the reference", "pixels", 2, names, PLOT_HISTORY);
    app->reg_label = gtk_label_new ("Switch registration on (left, "
        "Registration) to see the shifts.");
    app->reg_page = page_with_plot (NULL, app->reg_plot, app->reg_label);
    gtk_notebook_append_page (GTK_NOTEBOOK (app->views), app->reg_page,
        gtk_label_new ("Registration"));
  }
  if (have ("aooctorg")) {
    static const gchar *const names[] = { "mean over valid A-lines" };

    app->org_plot = view_plot_new ("Optoretinogram: OPL change of layer 2 "
        "against layer 1 (band: std over A-lines)", "nm / rad", 1, names,
        PLOT_HISTORY);
    gtk_widget_set_size_request (app->org_plot, 320, 220);
    app->org_label = gtk_label_new ("The kymograph (top): one row per "
        "B-scan, newest at the bottom, grey 128 = no change.");
    app->org_page = page_with_plot (app->view_pages[VIEW_ORG], app->org_plot,
        app->org_label);
    gtk_notebook_append_page (GTK_NOTEBOOK (app->views), app->org_page,
        gtk_label_new ("ORG"));
  }
}

void
view_aooct_clear (ViewApp * app)
{
  if (app->reg_plot)
    view_plot_clear (app->reg_plot);
  if (app->org_plot)
    view_plot_clear (app->org_plot);
  app->reg_rejected = 0;
}

void
view_aooct_message (const GstStructure * s, gpointer data)
{
  ViewApp *app = data;
  gchar *text;

  if (gst_structure_has_name (s, "aooct-registration") && app->reg_plot) {
    gdouble b = field (s, "bscan"), rejected = field (s, "rejected");
    gdouble v[2] = { field (s, "dz"), field (s, "dx") };

    /* a rejected estimate was not applied: a gap, counted */
    if (rejected > 0) {
      v[0] = v[1] = NAN;
      app->reg_rejected++;
    }
    view_plot_add (app->reg_plot, b, v, NULL);
    text = g_strdup_printf ("B-scan %.0f: dz %+.3f bins, dx %+.3f A-lines, "
        "correlation %.3f%s; %u rejected since start", b,
        field (s, "dz"), field (s, "dx"), field (s, "correlation"),
        rejected > 0 ? " (rejected)" : "", app->reg_rejected);
    gtk_label_set_text (GTK_LABEL (app->reg_label), text);
    g_free (text);
  } else if (gst_structure_has_name (s, "aooct-org") && app->org_plot) {
    gdouble b = field (s, "bscan"), mean = field (s, "mean");
    gdouble sd = field (s, "std");

    view_plot_add (app->org_plot, b, &mean, &sd);
    text = g_strdup_printf ("B-scan %.0f: mean %.2f, std %.2f over %.0f "
        "valid A-lines (nm; radians when the wavelength is 0)", b, mean, sd,
        field (s, "valid"));
    gtk_label_set_text (GTK_LABEL (app->org_label), text);
    g_free (text);
  }
}

GtkWidget *
view_aooct_page (ViewApp * app, const gchar * name)
{
  if (g_str_equal (name, "registration"))
    return app->reg_page;
  if (g_str_equal (name, "org"))
    return app->org_page;
  return NULL;
}

GtkWidget *
view_aooct_plot (ViewApp * app, const gchar * name)
{
  if (g_str_equal (name, "registration"))
    return app->reg_plot;
  if (g_str_equal (name, "org"))
    return app->org_plot;
  return NULL;
}
