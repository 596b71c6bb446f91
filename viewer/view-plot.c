/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: a scrolling line plot (view-plot.h).  The points are a ring
 * kept on the widget; drawing scales the y axis to what is in view, so a
 * trace of a few nanometres and shifts of several pixels both fill it. */
#include "view-plot.h"

#include <math.h>

typedef struct
{
  gchar *title, *unit;
  gchar *names[VIEW_PLOT_MAX_SERIES];
  guint n_series, history;
  /* ring of history points: x, values per series, band of series 0 */
  gdouble *x, *y, *band;
  guint head, count;
} ViewPlot;

static const gdouble colours[VIEW_PLOT_MAX_SERIES][3] = {
  {0.10, 0.45, 0.85}, {0.85, 0.30, 0.10}, {0.20, 0.65, 0.25},
};

static void
plot_free (gpointer data)
{
  ViewPlot *p = data;
  guint i;

  g_free (p->title);
  g_free (p->unit);
  for (i = 0; i < p->n_series; i++)
    g_free (p->names[i]);
  g_free (p->x);
  g_free (p->y);
  g_free (p->band);
  g_free (p);
}

static ViewPlot *
get_plot (GtkWidget * w)
{
  return g_object_get_data (G_OBJECT (w), "view-plot");
}

/* Index of the i-th oldest point in the ring */
static guint
at (const ViewPlot * p, guint i)
{
  return (p->head + p->history - p->count + i) % p->history;
}

static gboolean
on_draw (GtkWidget * w, cairo_t * cr, gpointer data)
{
  ViewPlot *p = data;
  const gdouble left = 60, right = 10, top = 22, bottom = 24;
  gdouble width = gtk_widget_get_allocated_width (w);
  gdouble height = gtk_widget_get_allocated_height (w);
  gdouble ymin = INFINITY, ymax = -INFINITY, x0, x1, pw, ph;
  gchar label[64];
  guint i, s;
  gboolean pen;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
      CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);
  cairo_move_to (cr, left, 14);
  cairo_show_text (cr, p->title);
  /* the legend after the title */
  {
    cairo_text_extents_t te;
    gdouble lx;

    cairo_text_extents (cr, p->title, &te);
    lx = left + te.x_advance + 16;
    for (s = 0; s < p->n_series; s++) {
      cairo_set_source_rgb (cr, colours[s][0], colours[s][1], colours[s][2]);
      cairo_rectangle (cr, lx, 6, 14, 3);
      cairo_fill (cr);
      cairo_move_to (cr, lx + 18, 14);
      cairo_show_text (cr, p->names[s]);
      cairo_text_extents (cr, p->names[s], &te);
      lx += 18 + te.x_advance + 14;
    }
  }
  pw = width - left - right;
  ph = height - top - bottom;
  if (pw < 10 || ph < 10)
    return FALSE;
  cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, left + 0.5, top + 0.5, pw, ph);
  cairo_stroke (cr);
  if (p->count == 0)
    return FALSE;

  for (i = 0; i < p->count; i++) {
    guint k = at (p, i);

    for (s = 0; s < p->n_series; s++) {
      gdouble v = p->y[k * p->n_series + s];
      gdouble b = s == 0 && isfinite (p->band[k]) ? p->band[k] : 0;

      if (!isfinite (v))
        continue;
      ymin = MIN (ymin, v - b);
      ymax = MAX (ymax, v + b);
    }
  }
  if (!isfinite (ymin)) {
    ymin = -1;
    ymax = 1;
  }
  if (ymax - ymin < 1e-9) {
    ymin -= 0.5;
    ymax += 0.5;
  } else {
    gdouble pad = 0.05 * (ymax - ymin);

    ymin -= pad;
    ymax += pad;
  }
  x0 = p->x[at (p, 0)];
  x1 = p->x[at (p, p->count - 1)];
  if (x1 <= x0)
    x1 = x0 + 1;
#define PX(xv) (left + ((xv) - x0) / (x1 - x0) * pw)
#define PY(yv) (top + ph - ((yv) - ymin) / (ymax - ymin) * ph)

  /* zero line and the y range's labels */
  cairo_set_source_rgb (cr, 0.75, 0.75, 0.75);
  if (ymin < 0 && ymax > 0) {
    cairo_move_to (cr, left, PY (0));
    cairo_line_to (cr, left + pw, PY (0));
    cairo_stroke (cr);
  }
  cairo_set_source_rgb (cr, 0, 0, 0);
  g_snprintf (label, sizeof label, "%.4g", ymax);
  cairo_move_to (cr, 4, top + 10);
  cairo_show_text (cr, label);
  g_snprintf (label, sizeof label, "%.4g", ymin);
  cairo_move_to (cr, 4, top + ph);
  cairo_show_text (cr, label);
  cairo_move_to (cr, 4, top + ph / 2 + 4);
  cairo_show_text (cr, p->unit);
  g_snprintf (label, sizeof label, "B-scan %.0f", x0);
  cairo_move_to (cr, left, height - 6);
  cairo_show_text (cr, label);
  g_snprintf (label, sizeof label, "%.0f", x1);
  cairo_move_to (cr, left + pw - 40, height - 6);
  cairo_show_text (cr, label);

  /* the band of series 0 (mean +- std) */
  cairo_set_source_rgba (cr, colours[0][0], colours[0][1], colours[0][2], 0.2);
  for (i = 0; i + 1 < p->count; i++) {
    guint a = at (p, i), b = at (p, i + 1);
    gdouble va = p->y[a * p->n_series], vb = p->y[b * p->n_series];

    if (!isfinite (va) || !isfinite (vb) || !isfinite (p->band[a])
        || !isfinite (p->band[b]))
      continue;
    cairo_move_to (cr, PX (p->x[a]), PY (va + p->band[a]));
    cairo_line_to (cr, PX (p->x[b]), PY (vb + p->band[b]));
    cairo_line_to (cr, PX (p->x[b]), PY (vb - p->band[b]));
    cairo_line_to (cr, PX (p->x[a]), PY (va - p->band[a]));
    cairo_close_path (cr);
    cairo_fill (cr);
  }
  cairo_set_line_width (cr, 1.5);
  for (s = 0; s < p->n_series; s++) {
    cairo_set_source_rgb (cr, colours[s][0], colours[s][1], colours[s][2]);
    pen = FALSE;
    for (i = 0; i < p->count; i++) {
      guint k = at (p, i);
      gdouble v = p->y[k * p->n_series + s];

      if (!isfinite (v)) {
        pen = FALSE;
        continue;
      }
      if (pen)
        cairo_line_to (cr, PX (p->x[k]), PY (v));
      else
        cairo_move_to (cr, PX (p->x[k]), PY (v));
      pen = TRUE;
    }
    cairo_stroke (cr);
  }
#undef PX
#undef PY
  return FALSE;
}

GtkWidget *
view_plot_new (const gchar * title, const gchar * unit, guint n_series,
    const gchar * const *names, guint history)
{
  GtkWidget *w = gtk_drawing_area_new ();
  ViewPlot *p = g_new0 (ViewPlot, 1);
  guint s;

  g_return_val_if_fail (n_series >= 1 && n_series <= VIEW_PLOT_MAX_SERIES,
      NULL);
  p->title = g_strdup (title);
  p->unit = g_strdup (unit);
  p->n_series = n_series;
  for (s = 0; s < n_series; s++)
    p->names[s] = g_strdup (names[s]);
  p->history = MAX (history, 2);
  p->x = g_new (gdouble, p->history);
  p->y = g_new (gdouble, (gsize) p->history * n_series);
  p->band = g_new (gdouble, p->history);
  g_object_set_data_full (G_OBJECT (w), "view-plot", p, plot_free);
  g_signal_connect (w, "draw", G_CALLBACK (on_draw), p);
  gtk_widget_set_size_request (w, 320, 160);
  return w;
}

void
view_plot_add (GtkWidget * w, gdouble x, const gdouble * values,
    const gdouble * band)
{
  ViewPlot *p = get_plot (w);
  guint s;

  g_return_if_fail (p != NULL);
  p->x[p->head] = x;
  for (s = 0; s < p->n_series; s++)
    p->y[p->head * p->n_series + s] = values[s];
  p->band[p->head] = band ? *band : NAN;
  p->head = (p->head + 1) % p->history;
  if (p->count < p->history)
    p->count++;
  gtk_widget_queue_draw (w);
}

void
view_plot_clear (GtkWidget * w)
{
  ViewPlot *p = get_plot (w);

  g_return_if_fail (p != NULL);
  p->head = p->count = 0;
  gtk_widget_queue_draw (w);
}

guint
view_plot_count (GtkWidget * w)
{
  ViewPlot *p = get_plot (w);

  return p ? p->count : 0;
}
