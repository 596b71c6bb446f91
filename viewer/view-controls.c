/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: controls made from element properties.
 *
 * Each control is built at run time from the property's GParamSpec of the
 * installed element (range, default, enum values from its GEnumClass), so a
 * newer aooct with more window functions or interpolation modes shows them
 * without a change here, and a property the installed element lacks gets
 * no control at all (view_control_new returns NULL). */
#include "view-controls.h"
#include "view-settings.h"

#include <gst/gst.h>
#include <stdlib.h>

typedef struct
{
  gchar *group, *key;
  GParamSpec *pspec;
  GtkWidget *input;
  ViewControlChanged changed;
  gpointer user_data;
  gboolean quiet;               /* set by view_control_set_value (notify=FALSE) */
} Control;

static void
control_free (gpointer data)
{
  Control *c = data;

  g_free (c->group);
  g_free (c->key);
  g_param_spec_unref (c->pspec);
  g_free (c);
}

static Control *
get (GtkWidget * w)
{
  return g_object_get_data (G_OBJECT (w), "view-control");
}

GParamSpec *
view_control_find_pspec (const gchar * factory, const gchar * property)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  GType t;
  GObjectClass *klass;
  GParamSpec *ps = NULL;

  if (!f)
    return NULL;
  /* loading the feature registers the element type */
  f = GST_ELEMENT_FACTORY (gst_plugin_feature_load (GST_PLUGIN_FEATURE (f)));
  if (f && (t = gst_element_factory_get_element_type (f))) {
    klass = g_type_class_ref (t);
    ps = g_object_class_find_property (klass, property);
    if (ps && !(ps->flags & G_PARAM_WRITABLE))
      ps = NULL;
    g_type_class_unref (klass);
  }
  if (f)
    gst_object_unref (f);
  return ps;
}

gchar *
view_control_get_value (GtkWidget * w)
{
  Control *c = get (w);
  GType vt = G_PARAM_SPEC_VALUE_TYPE (c->pspec);

  if (G_IS_PARAM_SPEC_ENUM (c->pspec))
    return g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (c->input)));
  if (vt == G_TYPE_BOOLEAN)
    return g_strdup (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON
            (c->input)) ? "true" : "false");
  if (vt == G_TYPE_STRING)
    return g_strdup (gtk_entry_get_text (GTK_ENTRY (c->input)));
  if (vt == G_TYPE_DOUBLE || vt == G_TYPE_FLOAT) {
    gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

    return g_strdup (g_ascii_dtostr (buf, sizeof buf,
            gtk_spin_button_get_value (GTK_SPIN_BUTTON (c->input))));
  }
  return g_strdup_printf ("%" G_GINT64_FORMAT,
      (gint64) gtk_spin_button_get_value (GTK_SPIN_BUTTON (c->input)));
}

static void
on_changed (GtkWidget * input, GtkWidget * w)
{
  Control *c = get (w);
  gchar *v;

  if (c->quiet)
    return;
  v = view_control_get_value (w);
  c->changed (w, c->group, c->key, v, c->user_data);
  g_free (v);
}

void
view_control_set_value (GtkWidget * w, const gchar * value, gboolean notify)
{
  Control *c = get (w);
  GType vt = G_PARAM_SPEC_VALUE_TYPE (c->pspec);
  GValue v = G_VALUE_INIT;

  c->quiet = !notify;
  if (G_IS_PARAM_SPEC_ENUM (c->pspec)) {
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (c->input), value);
  } else if (vt == G_TYPE_BOOLEAN) {
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (c->input),
        g_ascii_strcasecmp (value, "true") == 0 || g_str_equal (value, "1"));
  } else if (vt == G_TYPE_STRING) {
    gtk_entry_set_text (GTK_ENTRY (c->input), value ? value : "");
    /* an entry reports on activate only: make a scripted set count */
    if (notify)
      on_changed (c->input, w);
  } else {
    g_value_init (&v, G_TYPE_DOUBLE);
    if (gst_value_deserialize (&v, value))
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (c->input),
          g_value_get_double (&v));
    g_value_unset (&v);
  }
  c->quiet = FALSE;
}

const gchar *
view_control_group (GtkWidget * w)
{
  return get (w)->group;
}

const gchar *
view_control_key (GtkWidget * w)
{
  return get (w)->key;
}

static GtkWidget *
make_input (const ViewControlSpec * spec, GParamSpec * ps)
{
  GType vt = G_PARAM_SPEC_VALUE_TYPE (ps);
  gdouble lo = spec->min, hi = spec->max, step = spec->step ? spec->step : 1;
  GtkWidget *w;

  if (G_IS_PARAM_SPEC_ENUM (ps)) {
    GEnumClass *ec = G_PARAM_SPEC_ENUM (ps)->enum_class;
    guint i;

    w = gtk_combo_box_text_new ();
    for (i = 0; i < ec->n_values; i++)
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (w),
          ec->values[i].value_nick, ec->values[i].value_nick);
    gtk_widget_set_tooltip_text (w, g_param_spec_get_blurb (ps));
    return w;
  }
  if (vt == G_TYPE_BOOLEAN)
    return gtk_check_button_new ();
  if (vt == G_TYPE_STRING)
    return gtk_entry_new ();
  /* numbers: the property's range clipped to what is sensible to show */
  if (G_IS_PARAM_SPEC_DOUBLE (ps)) {
    lo = MAX (lo, G_PARAM_SPEC_DOUBLE (ps)->minimum);
    hi = MIN (hi, G_PARAM_SPEC_DOUBLE (ps)->maximum);
  } else if (G_IS_PARAM_SPEC_INT (ps)) {
    lo = MAX (lo, G_PARAM_SPEC_INT (ps)->minimum);
    hi = MIN (hi, G_PARAM_SPEC_INT (ps)->maximum);
  } else if (G_IS_PARAM_SPEC_UINT (ps)) {
    lo = MAX (lo, G_PARAM_SPEC_UINT (ps)->minimum);
    hi = MIN (hi, G_PARAM_SPEC_UINT (ps)->maximum);
  } else if (G_IS_PARAM_SPEC_INT64 (ps)) {
    lo = MAX (lo, G_PARAM_SPEC_INT64 (ps)->minimum);
    hi = MIN (hi, G_PARAM_SPEC_INT64 (ps)->maximum);
  } else if (!G_IS_PARAM_SPEC_FLOAT (ps)) {
    return NULL;                /* a type no control is made for */
  }
  w = gtk_spin_button_new_with_range (lo, hi, step);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (w), spec->digits);
  return w;
}

static gchar *
default_string (GParamSpec * ps)
{
  const GValue *dv = g_param_spec_get_default_value (ps);

  return view_value_to_string (dv);
}

GtkWidget *
view_control_new_for_pspec (const ViewControlSpec * spec, GParamSpec * ps,
    const gchar * initial, ViewControlChanged changed, gpointer user_data)
{
  GtkWidget *row, *label, *input;
  Control *c;
  gchar *def;

  if (!ps || !(input = make_input (spec, ps)))
    return NULL;
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  label = gtk_label_new (spec->label ? spec->label : spec->key);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_pack_start (GTK_BOX (row), label, TRUE, TRUE, 0);
  gtk_box_pack_end (GTK_BOX (row), input, FALSE, FALSE, 0);
  gtk_widget_set_tooltip_text (row, g_param_spec_get_blurb (ps));

  c = g_new0 (Control, 1);
  c->group = g_strdup (spec->group);
  c->key = g_strdup (spec->key);
  c->pspec = g_param_spec_ref (ps);
  c->input = input;
  c->changed = changed;
  c->user_data = user_data;
  g_object_set_data_full (G_OBJECT (row), "view-control", c, control_free);

  def = default_string (ps);
  view_control_set_value (row, initial ? initial : def, FALSE);
  g_free (def);

  if (GTK_IS_COMBO_BOX (input))
    g_signal_connect (input, "changed", G_CALLBACK (on_changed), row);
  else if (GTK_IS_TOGGLE_BUTTON (input))
    g_signal_connect (input, "toggled", G_CALLBACK (on_changed), row);
  else if (GTK_IS_SPIN_BUTTON (input))
    g_signal_connect (input, "value-changed", G_CALLBACK (on_changed), row);
  else
    g_signal_connect (input, "activate", G_CALLBACK (on_changed), row);
  return row;
}

GtkWidget *
view_control_new (const ViewControlSpec * spec, const gchar * initial,
    ViewControlChanged changed, gpointer user_data)
{
  return view_control_new_for_pspec (spec,
      view_control_find_pspec (spec->group, spec->key), initial, changed,
      user_data);
}

/* An enum control's choices (the nicks of the property's GEnumClass, in
 * order); NULL for other controls. */
gchar **
view_control_choices (GtkWidget * w)
{
  Control *c = get (w);
  GEnumClass *ec;
  GStrvBuilder *b;
  guint i;
  gchar **out;

  if (!G_IS_PARAM_SPEC_ENUM (c->pspec))
    return NULL;
  ec = G_PARAM_SPEC_ENUM (c->pspec)->enum_class;
  b = g_strv_builder_new ();
  for (i = 0; i < ec->n_values; i++)
    g_strv_builder_add (b, ec->values[i].value_nick);
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/* The element's action signals that take no argument (such as an
 * automatic dispersion estimate): each becomes a button. */
gchar **
view_control_action_signals (const gchar * factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  GPtrArray *names = g_ptr_array_new ();
  GType t;

  if (f) {
    f = GST_ELEMENT_FACTORY (gst_plugin_feature_load (GST_PLUGIN_FEATURE (f)));
    for (t = f ? gst_element_factory_get_element_type (f) : 0;
        t && t != GST_TYPE_ELEMENT; t = g_type_parent (t)) {
      guint n, i, *ids = g_signal_list_ids (t, &n);

      for (i = 0; i < n; i++) {
        GSignalQuery q;

        g_signal_query (ids[i], &q);
        if ((q.signal_flags & G_SIGNAL_ACTION) && q.n_params == 0)
          g_ptr_array_add (names, g_strdup (q.signal_name));
      }
      g_free (ids);
    }
    if (f)
      gst_object_unref (f);
  }
  g_ptr_array_add (names, NULL);
  return (gchar **) g_ptr_array_free (names, FALSE);
}
