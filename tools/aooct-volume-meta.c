/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: a volume file's metadata (see aooct-volume-meta.h). */
#include <string.h>

#include "aooct-volume-meta.h"
#include "aooct-caps.h"
#include "aooct-norm.h"

/* The element settings a reader needs to know how the images were made:
 * item name, element, property (left out where the chain has no such
 * element). */
static const struct
{
  const gchar *name, *factory, *prop;
} settings[] = {
  {"wavelength_file", "aooctkmap", "wavelength-file"},
  {"wavelength_coeffs", "aooctkmap", "wavelength-coeffs"},
  {"interpolation", "aooctkmap", "interpolation"},
  {"a2", "aooctdisp", "a2"},
  {"a3", "aooctdisp", "a3"},
  {"phase_file", "aooctdisp", "phase-file"},
  {"window", "aooctfft", "window"},
  {"window_parameter", "aooctfft", "window-parameter"},
  {"dc_mode", "aooctdcsub", "mode"},
  {"background_file", "aooctdcsub", "background-file"},
  {"log", "aooctnorm", "log"},
  {"auto_range", "aooctnorm", "auto-range"},
  {"dynamic_range", "aooctnorm", "dynamic-range"},
  {"range_min", "aooctnorm", "range-min"},
  {"range_max", "aooctnorm", "range-max"},
};

static gint
made_by (const GValue * item, const gchar * factory)
{
  GstElement *e = g_value_get_object (item);
  GstElementFactory *f = gst_element_get_factory (e);

  return f && strcmp (GST_OBJECT_NAME (f), factory) == 0 ? 0 : 1;
}

GstElement *
aooct_volume_meta_find (GstElement * pipeline, const gchar * factory)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  GValue found = G_VALUE_INIT;
  GstElement *e = NULL;

  if (gst_iterator_find_custom (it, (GCompareFunc) made_by, &found,
          (gpointer) factory)) {
    e = g_value_dup_object (&found);
    g_value_unset (&found);
  }
  gst_iterator_free (it);
  return e;
}

gboolean
aooct_volume_meta_describe_norm (GstElement * pipeline, AooctGeometry * geom,
    gint * start, gint * end, gdouble * um)
{
  GstElement *norm = aooct_volume_meta_find (pipeline, "aooctnorm");
  GstPad *pad = norm ? gst_element_get_static_pad (norm, "sink") : NULL;
  GstCaps *caps = pad ? gst_pad_get_current_caps (pad) : NULL;
  gint crop_start = 0, crop_end = 0;
  gboolean ok = caps && aooct_caps_to_geometry (caps, geom, NULL);

  if (ok) {
    g_object_get (norm, "crop-start", &crop_start, "crop-end", &crop_end,
        "depth-per-row", um, NULL);
    ok = aooct_norm_resolve_crop (geom, crop_start, crop_end, start, end, NULL);
  }
  gst_clear_caps (&caps);
  gst_clear_object (&pad);
  gst_clear_object (&norm);
  return ok;
}

static void
free_item (gpointer data)
{
  AooctVolumeMeta *m = data;

  g_value_unset (&m->value);
  g_free (m);
}

static GValue *
meta_add (GPtrArray * meta, const gchar * name, GType type)
{
  AooctVolumeMeta *m = g_new0 (AooctVolumeMeta, 1);

  m->name = name;
  g_value_init (&m->value, type);
  g_ptr_array_add (meta, m);
  return &m->value;
}

static void
add_int (GPtrArray * meta, const gchar * name, gint64 v)
{
  g_value_set_int64 (meta_add (meta, name, G_TYPE_INT64), v);
}

static void
add_double (GPtrArray * meta, const gchar * name, gdouble v)
{
  g_value_set_double (meta_add (meta, name, G_TYPE_DOUBLE), v);
}

static void
add_string (GPtrArray * meta, const gchar * name, const gchar * v)
{
  g_value_set_string (meta_add (meta, name, G_TYPE_STRING), v);
}

/* One property as an item: numbers as int64 or double, booleans as 0/1,
 * enums by their nick, strings as they are (NULL: left out). */
static void
add_property (GPtrArray * meta, const gchar * name, GObject * obj,
    GParamSpec * spec)
{
  GValue value = G_VALUE_INIT;
  GType t = G_PARAM_SPEC_VALUE_TYPE (spec);

  g_value_init (&value, t);
  g_object_get_property (obj, spec->name, &value);
  if (G_TYPE_IS_ENUM (t)) {
    GEnumValue *e = g_enum_get_value (G_ENUM_CLASS (g_type_class_peek (t)),
        g_value_get_enum (&value));

    add_string (meta, name, e ? e->value_nick : "");
  } else if (t == G_TYPE_STRING) {
    const gchar *v = g_value_get_string (&value);

    /* a file the chain read, as an absolute path: the volume is read
     * elsewhere, later, from another folder */
    if (v && v[0] && g_str_has_suffix (spec->name, "-file")) {
      gchar *abs = g_canonicalize_filename (v, NULL);

      add_string (meta, name, abs);
      g_free (abs);
    } else if (v) {
      add_string (meta, name, v);
    }
  } else if (t == G_TYPE_DOUBLE) {
    add_double (meta, name, g_value_get_double (&value));
  } else if (t == G_TYPE_BOOLEAN) {
    add_int (meta, name, g_value_get_boolean (&value));
  } else if (t == G_TYPE_INT) {
    add_int (meta, name, g_value_get_int (&value));
  }
  g_value_unset (&value);
}

GPtrArray *
aooct_volume_meta_collect (GstElement * pipeline, const AooctGeometry * geom,
    gint crop_start, gint crop_end, gdouble um_per_row, const gchar * values,
    const gchar * units)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "aooct");
  GPtrArray *meta = g_ptr_array_new_with_free_func (free_item);
  gsize i;

  add_string (meta, "dimensions",
      "bscan, depth, aline (C order; MATLAB h5read: aline, depth, bscan)");
  add_string (meta, "values", values);
  add_string (meta, "units", units);
  if (geom) {
    add_int (meta, "raw_samples", geom->raw_samples);
    add_int (meta, "pad_size", geom->pad_size);
    add_int (meta, "samples", geom->samples);
    add_int (meta, "pad_factor", geom->pad_factor);
    add_int (meta, "pad_offset", geom->pad_offset);
    add_int (meta, "alines", geom->alines);
    add_int (meta, "full_range", geom->full_range);
    add_int (meta, "crop_start", crop_start);
    add_int (meta, "crop_end", crop_end);
  }
  /* the lateral scale is the scanner's, which the chain never learns */
  add_double (meta, "depth_um_per_pixel", um_per_row);
  add_double (meta, "first_row_um", um_per_row * crop_start);
  add_string (meta, "depth_scale", um_per_row > 0 ?
      "micrometres in air per row (divide by the group index for tissue)" :
      "unknown (no calibration in the chain)");
  add_string (meta, "lateral_scale",
      "unknown (the scanner's; not known to the chain)");
  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    GstElement *e = aooct_volume_meta_find (pipeline, settings[i].factory);
    GParamSpec *spec;

    if (!e)
      continue;
    spec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        settings[i].prop);
    if (spec)
      add_property (meta, settings[i].name, G_OBJECT (e), spec);
    gst_object_unref (e);
  }
  add_string (meta, "plugin_version",
      plugin ? gst_plugin_get_version (plugin) : "unknown");
  gst_clear_object (&plugin);
  return meta;
}

gchar *
aooct_volume_meta_to_text (GPtrArray * meta)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; i < meta->len; i++) {
    const AooctVolumeMeta *m = g_ptr_array_index (meta, i);
    gchar num[G_ASCII_DTOSTR_BUF_SIZE];

    g_string_append_printf (out, "aooct_%s=", m->name);
    if (G_VALUE_HOLDS_INT64 (&m->value)) {
      g_string_append_printf (out, "%" G_GINT64_FORMAT,
          g_value_get_int64 (&m->value));
    } else if (G_VALUE_HOLDS_DOUBLE (&m->value)) {
      g_string_append (out, g_ascii_formatd (num, sizeof (num), "%.17g",
              g_value_get_double (&m->value)));
    } else {
      const gchar *s = g_value_get_string (&m->value);

      /* one line per item */
      for (; *s; s++)
        g_string_append_c (out, *s == '\n' || *s == '\r' ? ' ' : *s);
    }
    g_string_append_c (out, '\n');
  }
  return g_string_free (out, FALSE);
}

gchar *
aooct_volume_meta_calibration_file (GstElement * pipeline)
{
  GstElement *kmap = aooct_volume_meta_find (pipeline, "aooctkmap");
  gchar *file = NULL;

  if (kmap)
    g_object_get (kmap, "wavelength-file", &file, NULL);
  gst_clear_object (&kmap);
  if (file && !file[0])
    g_clear_pointer (&file, g_free);
  return file;
}
