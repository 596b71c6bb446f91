/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: a scrolling line plot of per-B-scan values (the
 * registration's shifts, the optoretinogram's trace), drawn with cairo. */
#ifndef VIEW_PLOT_H
#define VIEW_PLOT_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VIEW_PLOT_MAX_SERIES 3

/* A plot of @n_series series (at most VIEW_PLOT_MAX_SERIES) named @names,
 * the last @history points of each, with the y axis labelled @unit.  The
 * widget owns its points; it is freed with the widget. */
GtkWidget *view_plot_new (const gchar * title, const gchar * unit,
    guint n_series, const gchar * const *names, guint history);

/* One point per series at @x (the B-scan number); a NaN value is a gap.
 * @band, when not NULL, is a half-width drawn as a shaded band around
 * series 0 (the trace's standard deviation). */
void view_plot_add (GtkWidget * plot, gdouble x, const gdouble * values,
    const gdouble * band);
void view_plot_clear (GtkWidget * plot);

/* How many points the plot holds (tests read it through the script). */
guint view_plot_count (GtkWidget * plot);

G_END_DECLS
#endif
