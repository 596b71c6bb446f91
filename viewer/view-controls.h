/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: one control per element property, made from its GParamSpec. */
#ifndef VIEW_CONTROLS_H
#define VIEW_CONTROLS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A control's value changed (by the user, or by a script through the same
 * widget): value as gst-launch-1.0 writes it. */
typedef void (*ViewControlChanged) (GtkWidget * control, const gchar * group,
    const gchar * key, const gchar * value, gpointer user_data);

/* How a numeric control is shown: the property's own range is clipped to
 * [min, max]; step and digits for the spin button. */
typedef struct
{
  const gchar *group;           /* element factory (or any settings group) */
  const gchar *key;             /* property name */
  const gchar *label;
  gdouble min, max, step;
  gint digits;
} ViewControlSpec;

GtkWidget *view_control_new (const ViewControlSpec * spec,
    const gchar * initial, ViewControlChanged changed, gpointer user_data);
GtkWidget *view_control_new_for_pspec (const ViewControlSpec * spec,
    GParamSpec * pspec, const gchar * initial, ViewControlChanged changed,
    gpointer user_data);
GParamSpec *view_control_find_pspec (const gchar * factory,
    const gchar * property);
void view_control_set_value (GtkWidget * control, const gchar * value,
    gboolean notify);
gchar *view_control_get_value (GtkWidget * control);
const gchar *view_control_group (GtkWidget * control);
const gchar *view_control_key (GtkWidget * control);
gchar **view_control_action_signals (const gchar * factory);
gchar **view_control_choices (GtkWidget * control);

G_END_DECLS
#endif
