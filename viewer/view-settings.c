/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the settings, kept as a GKeyFile.
 *
 * The group "source" says where the raw spectra come from (kind=synthetic,
 * file or aravis, and the file's or camera's geometry); every other group
 * is named after an element factory and holds that element's properties as
 * gst-launch-1.0 would write them (enum nicks, C-locale numbers).  The same
 * key file therefore gives the pipeline the program builds and the
 * gst-launch-1.0 line it prints: there is no second description. */
#include "view-settings.h"
#include "aooct-npy.h"

#include <string.h>

const gchar *const view_chain_factories[] = {
  "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp", "aooctfft",
  "aooctregister", "aooctnorm", NULL
};

static gboolean
registration_on (GKeyFile * kf)
{
  GstElementFactory *f;

  if (!g_key_file_get_boolean (kf, VIEW_REGISTRATION, "enabled", NULL))
    return FALSE;
  if (!(f = gst_element_factory_find ("aooctregister")))
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

gboolean
view_settings_in_chain (GKeyFile * kf, const gchar * factory)
{
  return !g_str_equal (factory, "aooctregister") || registration_on (kf);
}

gboolean
view_settings_depth_end (GKeyFile * kf, const gchar * factory)
{
  return g_str_equal (factory, registration_on (kf) ? "aooctregister" :
      "aooctfft");
}

/* aooctsrc's own spectrometer calibration (its wavelength-coeffs default),
 * so that the synthetic camera's spectra are resampled correctly. */
#define SYNTHETIC_COEFFS "785,0.125,1e-05,-2e-09"

GKeyFile *
view_settings_new_default (void)
{
  GKeyFile *kf = g_key_file_new ();

  g_key_file_set_string (kf, VIEW_SOURCE, "kind", "synthetic");
  g_key_file_set_string (kf, VIEW_SOURCE, "format", "gray16-le");
  g_key_file_set_string (kf, VIEW_SOURCE, "width", "832");
  g_key_file_set_string (kf, VIEW_SOURCE, "height", "240");
  g_key_file_set_string (kf, VIEW_SOURCE, "framerate", "100/1");
  /* a live camera: B-scans come at its frame rate, as in the lab */
  g_key_file_set_string (kf, "aooctsrc", "is-live", "true");
  g_key_file_set_string (kf, "aooctkmap", "wavelength-coeffs",
      SYNTHETIC_COEFFS);
  g_key_file_set_string (kf, "aooctnorm", "dynamic-range", "50");
  return kf;
}

gboolean
view_settings_load (GKeyFile * kf, const gchar * path, GError ** error)
{
  GKeyFile *loaded = g_key_file_new ();
  gchar **groups, **keys;
  gint i, j;

  if (!g_key_file_load_from_file (loaded, path, G_KEY_FILE_KEEP_COMMENTS,
          error)) {
    g_key_file_free (loaded);
    return FALSE;
  }
  if (!g_key_file_has_group (loaded, VIEW_SOURCE)) {
    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
        "%s: no [%s] group: not an aooct-view settings file", path,
        VIEW_SOURCE);
    g_key_file_free (loaded);
    return FALSE;
  }
  /* replace everything: a loaded file is the whole state */
  groups = g_key_file_get_groups (kf, NULL);
  for (i = 0; groups[i]; i++)
    g_key_file_remove_group (kf, groups[i], NULL);
  g_strfreev (groups);
  groups = g_key_file_get_groups (loaded, NULL);
  for (i = 0; groups[i]; i++) {
    keys = g_key_file_get_keys (loaded, groups[i], NULL, NULL);
    for (j = 0; keys && keys[j]; j++) {
      gchar *v = g_key_file_get_string (loaded, groups[i], keys[j], NULL);

      if (v)
        g_key_file_set_string (kf, groups[i], keys[j], v);
      g_free (v);
    }
    g_strfreev (keys);
  }
  g_strfreev (groups);
  g_key_file_free (loaded);
  return TRUE;
}

gboolean
view_settings_save (GKeyFile * kf, const gchar * path, GError ** error)
{
  gchar *line = view_settings_launch_line (kf);
  gchar *comment = g_strdup_printf (" aooct-view settings; the same "
      "pipeline as a command:\n %s", line);
  gboolean ok;

  /* the launch line rides along as the file's leading comment */
  g_key_file_set_comment (kf, NULL, NULL, comment, NULL);
  ok = g_key_file_save_to_file (kf, path, error);
  g_free (comment);
  g_free (line);
  return ok;
}

ViewSourceKind
view_settings_source_kind (GKeyFile * kf)
{
  gchar *kind = g_key_file_get_string (kf, VIEW_SOURCE, "kind", NULL);
  ViewSourceKind k = VIEW_SOURCE_SYNTHETIC;

  if (g_strcmp0 (kind, "file") == 0)
    k = VIEW_SOURCE_FILE;
  else if (g_strcmp0 (kind, "aravis") == 0)
    k = VIEW_SOURCE_ARAVIS;
  g_free (kind);
  return k;
}

gchar *
view_settings_get (GKeyFile * kf, const gchar * group, const gchar * key)
{
  return g_key_file_get_string (kf, group, key, NULL);
}

/* An empty value removes the key: the element keeps its default. */
void
view_settings_set (GKeyFile * kf, const gchar * group, const gchar * key,
    const gchar * value)
{
  if (value && *value)
    g_key_file_set_string (kf, group, key, value);
  else
    g_key_file_remove_key (kf, group, key, NULL);
}

gboolean
view_settings_set_arg (GObject * object, const gchar * key,
    const gchar * value, GError ** error)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (object),
      key);
  GValue v = G_VALUE_INIT;
  gboolean ok;

  if (!ps) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "%s has no property '%s'", G_OBJECT_TYPE_NAME (object), key);
    return FALSE;
  }
  /* a string (a file name above all) as it is: gst_value_deserialize()
   * would take a leading quote for gst_parse quoting and unescape it */
  if (G_PARAM_SPEC_VALUE_TYPE (ps) == G_TYPE_STRING) {
    g_object_set (object, key, value, NULL);
    return TRUE;
  }
  g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (ps));
  ok = gst_value_deserialize (&v, value) && !g_param_value_validate (ps, &v);
  if (ok)
    g_object_set_property (object, key, &v);
  else
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "%s=%s: not a value %s takes (%s)", key, value,
        G_OBJECT_TYPE_NAME (object), g_param_spec_get_blurb (ps));
  g_value_unset (&v);
  return ok;
}

/* Every key of the group to the element's property of that name, as
 * gst-launch-1.0 sets it; keys the element does not have (a settings file
 * from a newer aooct) and values it does not take are skipped with a
 * warning. */
void
view_settings_apply (GKeyFile * kf, const gchar * group, GstElement * element)
{
  gchar **keys = g_key_file_get_keys (kf, group, NULL, NULL);
  gint i;

  for (i = 0; keys && keys[i]; i++) {
    gchar *v = g_key_file_get_string (kf, group, keys[i], NULL);
    GError *err = NULL;

    if (!view_settings_set_arg (G_OBJECT (element), keys[i], v ? v : "", &err)) {
      g_warning ("aooct-view: [%s] %s (ignored)", group, err->message);
      g_error_free (err);
    }
    g_free (v);
  }
  g_strfreev (keys);
}

static gboolean
needs_quotes (const gchar * v)
{
  for (; *v; v++)
    if (!g_ascii_isalnum (*v) && !strchr ("._+-/:", *v))
      return TRUE;
  return FALSE;
}

/* shell: for the printed command line; otherwise gst_parse syntax */
static void
append_prop (GString * s, const gchar * key, const gchar * v, gboolean shell)
{
  g_string_append_printf (s, " %s=", key);
  if (!needs_quotes (v)) {
    g_string_append (s, v);
  } else if (shell) {
    gchar *q = g_shell_quote (v);

    g_string_append (s, q);
    g_free (q);
  } else {
    g_string_append_c (s, '"');
    for (; *v; v++) {
      if (*v == '"' || *v == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *v);
    }
    g_string_append_c (s, '"');
  }
}

static void
append_group (GString * s, GKeyFile * kf, const gchar * group, gboolean shell)
{
  gchar **keys = g_key_file_get_keys (kf, group, NULL, NULL);
  gint i;

  for (i = 0; keys && keys[i]; i++) {
    gchar *v = g_key_file_get_string (kf, group, keys[i], NULL);

    append_prop (s, keys[i], v ? v : "", shell);
    g_free (v);
  }
  g_strfreev (keys);
}

/* the raw file is a NumPy array (its header says the geometry) */
static gboolean
source_is_npy (GKeyFile * kf)
{
  gchar *loc = g_key_file_get_string (kf, VIEW_SOURCE, "location", NULL);
  gboolean npy = loc && *loc && aooct_npy_path_is_npy (loc);

  g_free (loc);
  return npy;
}

static gchar *
source_part (GKeyFile * kf, gboolean shell)
{
  GString *s = g_string_new (NULL);
  gchar *v[7];
  const gchar *k[] = { "location", "format", "width", "height", "framerate",
    "header-bytes", "frame-stride"
  };
  gint i;

  for (i = 0; i < 7; i++)
    v[i] = g_key_file_get_string (kf, VIEW_SOURCE, k[i], NULL);
  /* rawvideoparse's own defaults (I420, 320 x 240, 25/1) never fit OCT
   * spectra: unset keys mean 16-bit grey at 100 frames/s */
  if (!v[1] || !*v[1]) {
    g_free (v[1]);
    v[1] = g_strdup ("gray16-le");
  }
  if (!v[4] || !*v[4]) {
    g_free (v[4]);
    v[4] = g_strdup ("100/1");
  }
  switch (view_settings_source_kind (kf)) {
    case VIEW_SOURCE_SYNTHETIC:
      g_string_append (s, "aooctsrc");
      append_group (s, kf, "aooctsrc", shell);
      break;
    case VIEW_SOURCE_FILE:
      /* aooctfilesrc: the spec's packed rows for any width and format
       * (filesrc ! rawvideoparse would expect GStreamer's 4-byte aligned
       * rows in the file: wrong rows for GRAY8 with a width not a multiple
       * of 4) */
      g_string_append (s, "aooctfilesrc");
      append_prop (s, "location", v[0] ? v[0] : "", shell);
      for (i = 1; i < 7; i++)
        if (v[i] && (i < 5 || *v[i])
            && !(i < 4 && source_is_npy (kf)))
          append_prop (s, k[i], v[i], shell);
      break;
    case VIEW_SOURCE_ARAVIS:{
      gchar *cam = g_key_file_get_string (kf, VIEW_SOURCE, "camera", NULL);
      g_string_append (s, "aravissrc");
      if (cam && *cam)
        append_prop (s, "camera-name", cam, shell);
      /* the caps choose the camera's pixel format and region; a caps
       * link needs an element after it, which a bin description ends
       * without: there, a capsfilter */
      g_string_append_printf (s, shell ? " ! video/x-raw,format=%s,width=%s,"
          "height=%s" : " ! capsfilter caps=\"video/x-raw,format=%s,"
          "width=%s,height=%s\"", g_strcmp0 (v[1], "gray8") == 0 ? "GRAY8" :
          "GRAY16_LE", v[2] ? v[2] : "512", v[3] ? v[3] : "256");
      g_free (cam);
      break;
    }
  }
  for (i = 0; i < 7; i++)
    g_free (v[i]);
  return g_string_free (s, FALSE);
}

/* The source as the status line shows it (gst_parse syntax). */
gchar *
view_settings_source_description (GKeyFile * kf)
{
  return source_part (kf, FALSE);
}

/* @key of [source] to @e's @prop; an unset key keeps @fallback (or the
 * element's default when NULL) */
static gboolean
set_source_key (GKeyFile * kf, const gchar * key, GstElement * e,
    const gchar * prop, const gchar * fallback, GError ** error)
{
  gchar *v = g_key_file_get_string (kf, VIEW_SOURCE, key, NULL);
  gboolean ok = TRUE;

  if ((v && *v) || fallback)
    ok = view_settings_set_arg (G_OBJECT (e), prop, v && *v ? v : fallback,
        error);
  g_free (v);
  return ok;
}

/* aravissrc ! capsfilter: the caps choose the camera's pixel format and
 * region */
static GstElement *
build_aravis (GKeyFile * kf, GstBin * bin, GError ** error)
{
  GstElement *src = gst_element_factory_make ("aravissrc", NULL);
  GstElement *filter = gst_element_factory_make ("capsfilter", NULL);
  gint w = view_settings_get_int (kf, "width", 512);
  gint h = view_settings_get_int (kf, "height", 256);
  GstCaps *caps;
  gchar *fmt;

  if (!src || !filter) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "no element aravissrc (Debian: gstreamer1.0-aravis)");
    gst_clear_object (&src);
    gst_clear_object (&filter);
    return NULL;
  }
  fmt = g_key_file_get_string (kf, VIEW_SOURCE, "format", NULL);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      g_strcmp0 (fmt, "gray8") == 0 ? "GRAY8" : "GRAY16_LE", "width",
      G_TYPE_INT, w, "height", G_TYPE_INT, h, NULL);
  g_free (fmt);
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (bin, src, filter, NULL);
  if (!set_source_key (kf, "camera", src, "camera-name", NULL, error)
      || !gst_element_link (src, filter)) {
    if (error && !*error)
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          "cannot link aravissrc to its caps");
    return NULL;
  }
  return filter;
}

GstElement *
view_settings_source_build (GKeyFile * kf, GError ** error)
{
  GstElement *bin = gst_bin_new ("source"), *src = NULL, *last = NULL;
  GstPad *pad;
  gboolean ok = TRUE;

  switch (view_settings_source_kind (kf)) {
    case VIEW_SOURCE_SYNTHETIC:
      if ((src = last = gst_element_factory_make ("aooctsrc", NULL))) {
        gst_bin_add (GST_BIN (bin), src);
        view_settings_apply (kf, "aooctsrc", src);
      }
      break;
    case VIEW_SOURCE_FILE:
      /* every value a property of the element: a file name reaches it as
       * it is (spaces, quotes, non-ASCII) */
      if ((src = last = gst_element_factory_make ("aooctfilesrc", NULL))) {
        gboolean npy = source_is_npy (kf);

        gst_bin_add (GST_BIN (bin), src);
        /* a .npy array: its own geometry and dtype */
        ok = set_source_key (kf, "location", src, "location", "", error)
            && (npy || (set_source_key (kf, "format", src, "format",
                    "gray16-le", error)
                && set_source_key (kf, "width", src, "width", NULL, error)
                && set_source_key (kf, "height", src, "height", NULL, error)))
            && set_source_key (kf, "framerate", src, "framerate", "100/1",
            error)
            && set_source_key (kf, "header-bytes", src, "header-bytes", NULL,
            error)
            && set_source_key (kf, "frame-stride", src, "frame-stride", NULL,
            error);
      }
      break;
    case VIEW_SOURCE_ARAVIS:
      src = last = build_aravis (kf, GST_BIN (bin), error);
      ok = last != NULL;
      break;
  }
  if (ok && !src) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "no element %s (is the aooct plugin on GST_PLUGIN_PATH?)",
        view_settings_source_kind (kf) == VIEW_SOURCE_FILE ? "aooctfilesrc" :
        "aooctsrc");
    ok = FALSE;
  }
  if (!ok) {
    gst_object_unref (bin);
    return NULL;
  }
  pad = gst_element_get_static_pad (last, "src");
  gst_element_add_pad (bin, gst_ghost_pad_new ("src", pad));
  gst_object_unref (pad);
  return bin;
}

gint
view_settings_get_int (GKeyFile * kf, const gchar * key, gint fallback)
{
  gchar *v = g_key_file_get_string (kf, VIEW_SOURCE, key, NULL);
  gint64 n = fallback;

  /* the whole value a number, or -1: "832x" is no more 832 than "abc" */
  if (v && *v && !g_ascii_string_to_signed (v, 10, G_MININT, G_MAXINT, &n,
          NULL))
    n = -1;
  g_free (v);
  return (gint) n;
}

guint64
view_settings_get_uint64 (GKeyFile * kf, const gchar * key, guint64 fallback)
{
  gchar *v = g_key_file_get_string (kf, VIEW_SOURCE, key, NULL);
  guint64 n = fallback;

  if (v && *v && !g_ascii_string_to_unsigned (v, 10, 0, G_MAXUINT64, &n, NULL))
    n = fallback;
  g_free (v);
  return n;
}

gchar *
view_settings_launch_line (GKeyFile * kf)
{
  GString *s = g_string_new ("gst-launch-1.0 ");
  gchar *src = source_part (kf, TRUE);
  gint i;

  g_string_append (s, src);
  g_free (src);
  for (i = 0; view_chain_factories[i]; i++) {
    if (!view_settings_in_chain (kf, view_chain_factories[i]))
      continue;
    g_string_append_printf (s, " ! %s", view_chain_factories[i]);
    append_group (s, kf, view_chain_factories[i], TRUE);
  }
  g_string_append (s, " ! video/x-raw,format=GRAY8 ! videoconvert"
      " ! autovideosink");
  return g_string_free (s, FALSE);
}

gchar *
view_value_to_string (const GValue * value)
{
  if (G_VALUE_HOLDS_ENUM (value)) {
    GEnumClass *ec = g_type_class_ref (G_VALUE_TYPE (value));
    GEnumValue *ev = g_enum_get_value (ec, g_value_get_enum (value));
    gchar *s = g_strdup (ev ? ev->value_nick : "");

    g_type_class_unref (ec);
    return s;
  }
  if (G_VALUE_HOLDS_BOOLEAN (value))
    return g_strdup (g_value_get_boolean (value) ? "true" : "false");
  if (G_VALUE_HOLDS_DOUBLE (value)) {
    gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

    return g_strdup (g_ascii_dtostr (buf, sizeof buf,
            g_value_get_double (value)));
  }
  if (G_VALUE_HOLDS_STRING (value))
    return g_value_dup_string (value);
  return gst_value_serialize (value);
}
