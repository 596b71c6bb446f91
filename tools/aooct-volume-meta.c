/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: a volume file's metadata (see aooct-volume-meta.h). */
#include <string.h>

#include "aooct-volume-meta.h"

/* The element settings a reader needs to know how the images were made:
 * attribute name, element, property (left out where the chain has no
 * such element). */
static const struct
{
  const gchar *attr, *factory, *prop;
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

/* One property as an attribute: numbers as int64 or double, booleans as
 * 0/1, enums by their nick, strings as they are (NULL: left out). */
static gboolean
write_property (AooctHdf5Volume * v, const gchar * attr, GObject * obj,
    GParamSpec * spec, GError ** error)
{
  GValue value = G_VALUE_INIT;
  GType t = G_PARAM_SPEC_VALUE_TYPE (spec);
  gboolean ok = TRUE;

  g_value_init (&value, t);
  g_object_get_property (obj, spec->name, &value);
  if (G_TYPE_IS_ENUM (t)) {
    GEnumValue *e = g_enum_get_value (G_ENUM_CLASS (g_type_class_peek (t)),
        g_value_get_enum (&value));

    ok = aooct_hdf5_volume_set_string (v, attr, e ? e->value_nick : "", error);
  } else if (t == G_TYPE_STRING) {
    if (g_value_get_string (&value))
      ok = aooct_hdf5_volume_set_string (v, attr,
          g_value_get_string (&value), error);
  } else if (t == G_TYPE_DOUBLE) {
    ok = aooct_hdf5_volume_set_double (v, attr, g_value_get_double (&value),
        error);
  } else if (t == G_TYPE_BOOLEAN) {
    ok = aooct_hdf5_volume_set_int (v, attr, g_value_get_boolean (&value),
        error);
  } else if (t == G_TYPE_INT) {
    ok = aooct_hdf5_volume_set_int (v, attr, g_value_get_int (&value), error);
  }
  g_value_unset (&value);
  return ok;
}

static gboolean
write_settings (AooctHdf5Volume * v, GstElement * pipeline, GError ** error)
{
  gsize i;
  gboolean ok = TRUE;

  for (i = 0; ok && i < G_N_ELEMENTS (settings); i++) {
    GstElement *e = aooct_volume_meta_find (pipeline, settings[i].factory);
    GParamSpec *spec;

    if (!e)
      continue;
    spec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        settings[i].prop);
    if (spec)
      ok = write_property (v, settings[i].attr, G_OBJECT (e), spec, error);
    gst_object_unref (e);
  }
  return ok;
}

/* the calibration file's text, so that the volume stays readable when the
 * file is gone or changed */
static gboolean
write_calibration (AooctHdf5Volume * v, GstElement * pipeline, GError ** error)
{
  GstElement *kmap = aooct_volume_meta_find (pipeline, "aooctkmap");
  gchar *file = NULL, *text = NULL;
  gsize len = 0;
  gboolean ok = TRUE;

  if (kmap)
    g_object_get (kmap, "wavelength-file", &file, NULL);
  if (file && file[0]) {
    ok = g_file_get_contents (file, &text, &len, error)
        && aooct_hdf5_volume_add_text (v, "wavelength_file_contents", text,
        len, error);
  }
  g_free (text);
  g_free (file);
  gst_clear_object (&kmap);
  return ok;
}

gboolean
aooct_volume_meta_write (AooctHdf5Volume * v, GstElement * pipeline,
    const AooctGeometry * geom, gint crop_start, gint crop_end,
    gdouble um_per_row, GError ** error)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "aooct");
  gboolean ok;

  ok = aooct_hdf5_volume_set_string (v, "dimensions",
      "bscan, depth, aline (C order; MATLAB h5read: aline, depth, bscan)",
      error);
  if (ok && geom) {
    ok = aooct_hdf5_volume_set_int (v, "raw_samples", geom->raw_samples, error)
        && aooct_hdf5_volume_set_int (v, "pad_size", geom->pad_size, error)
        && aooct_hdf5_volume_set_int (v, "samples", geom->samples, error)
        && aooct_hdf5_volume_set_int (v, "pad_factor", geom->pad_factor, error)
        && aooct_hdf5_volume_set_int (v, "pad_offset", geom->pad_offset, error)
        && aooct_hdf5_volume_set_int (v, "alines", geom->alines, error)
        && aooct_hdf5_volume_set_int (v, "full_range", geom->full_range, error)
        && aooct_hdf5_volume_set_int (v, "crop_start", crop_start, error)
        && aooct_hdf5_volume_set_int (v, "crop_end", crop_end, error);
  }
  /* the lateral scale is the scanner's, which the chain never learns */
  if (ok)
    ok = aooct_hdf5_volume_set_double (v, "depth_um_per_pixel", um_per_row,
        error)
        && aooct_hdf5_volume_set_double (v, "first_row_um",
        um_per_row * crop_start, error)
        && aooct_hdf5_volume_set_string (v, "depth_scale", um_per_row > 0 ?
        "micrometres in air per row (divide by the group index for tissue)"
        : "unknown (no calibration in the chain)", error)
        && aooct_hdf5_volume_set_string (v, "lateral_scale",
        "unknown (the scanner's; not known to the chain)", error);
  if (ok)
    ok = write_settings (v, pipeline, error)
        && write_calibration (v, pipeline, error);
  if (ok)
    ok = aooct_hdf5_volume_set_string (v, "plugin_version",
        plugin ? gst_plugin_get_version (plugin) : "unknown", error);
  gst_clear_object (&plugin);
  return ok;
}
