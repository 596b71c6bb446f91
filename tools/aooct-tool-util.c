/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: shared helpers (aooct-tool-util.h). */
#include "aooct-tool-util.h"

#include <locale.h>

#include "aooct-npy.h"
#include "aooct-open.h"
#include "aooct-raw-format.h"

gboolean
aooct_tool_parse_options (const gchar * program, GOptionContext * ctx,
    gint * argc, gchar *** argv)
{
  GError *error = NULL;

  /* without it GLib converts every message to ASCII: "'?'" for quotes,
   * "?" for each byte of a non-ASCII file name */
  setlocale (LC_ALL, "");
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &error)) {
    g_printerr ("%s: %s\n", program, error->message);
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

GstElement *
aooct_tool_make (const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (!e)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "no element %s (is the aooct plugin on GST_PLUGIN_PATH?)", factory);
  return e;
}

gboolean
aooct_tool_set_int (GstElement * element, const gchar * prop, gint value,
    const gchar * option, GError ** error)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (element),
      prop);
  GParamSpecInt *pi;

  g_return_val_if_fail (ps && G_IS_PARAM_SPEC_INT (ps), FALSE);
  pi = G_PARAM_SPEC_INT (ps);
  if (value < pi->minimum || value > pi->maximum) {
    GstElementFactory *f = gst_element_get_factory (element);

    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--%s %d: must be %d..%d (%s %s)", option, value, pi->minimum,
        pi->maximum, f ? GST_OBJECT_NAME (f) : GST_OBJECT_NAME (element), prop);
    return FALSE;
  }
  g_object_set (element, prop, value, NULL);
  return TRUE;
}

GstElement *
aooct_tool_append (GstBin * bin, GstElement * prev, const gchar * factory,
    GError ** error)
{
  GstElement *e = aooct_tool_make (factory, error);

  if (!e)
    return NULL;
  gst_bin_add (bin, e);
  if (prev && !gst_element_link (prev, e)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "cannot link %s to %s", GST_OBJECT_NAME (prev), factory);
    return NULL;
  }
  return e;
}

GOptionEntry *
aooct_tool_raw_file_entries (AooctToolRawFile * rf, gboolean short_names)
{
  const GOptionEntry entries[] = {
    {"samples", short_names ? 'n' : 0, 0, G_OPTION_ARG_INT, &rf->samples,
          "Samples per A-line N (camera pixels; a .npy file: its last axis)",
        "N"},
    {"alines", short_names ? 'm' : 0, 0, G_OPTION_ARG_INT, &rf->alines,
          "A-lines per B-scan M (a .npy file: its next-to-last axis)",
        "M"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &rf->format,
          "Raw sample format: gray16-le (default), gray8, packed mono12p, "
          "mono12packed, mono10p, or float32-le (a .npy file: its dtype)",
        "FORMAT"},
    {"header-bytes", 0, 0, G_OPTION_ARG_INT64, &rf->header_bytes,
        "Bytes of a file header before the first B-scan, skipped "
          "(aooctfilesrc header-bytes)", "B"},
    {"frame-stride", 0, 0, G_OPTION_ARG_INT64, &rf->frame_stride,
          "Bytes from one B-scan's start to the next, the B-scan included "
          "(skips per-B-scan headers or trailers; 0: the B-scan's size)",
        "S"},
    {NULL}
  };

  return g_memdup2 (entries, sizeof (entries));
}

gboolean
aooct_tool_raw_file_check (const AooctToolRawFile * rf, const gchar * path,
    GError ** error)
{
  AooctRawFormat format = AOOCT_RAW_GRAY16_LE;

  if (rf->format && !aooct_raw_format_from_string (rf->format, &format)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--format must be gray16-le, gray8, mono12p, mono12packed, mono10p "
        "or float32-le, not %s", rf->format);
    return FALSE;
  }
  if (rf->header_bytes < 0 || rf->frame_stride < 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--header-bytes %" G_GINT64_FORMAT " --frame-stride %"
        G_GINT64_FORMAT ": byte counts cannot be negative", rf->header_bytes,
        rf->frame_stride);
    return FALSE;
  }
  /* a directory or a FIFO named as such (and a FIFO never opened: it would
   * block until a writer comes) */
  if (!aooct_file_check_regular (path, "raw file", NULL, error))
    return FALSE;
  /* a .npy file says its own geometry; aooctfilesrc checks any given */
  if (aooct_npy_path_is_npy (path))
    return TRUE;
  /* aooctfilesrc takes 0 as "not set": the tools' own bounds */
  if (rf->samples < 2 || rf->samples > 65536 || rf->alines < 1) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--samples %d --alines %d: give N of 2..65536 samples per A-line "
        "and M >= 1 A-lines per B-scan (only a .npy file needs neither)",
        rf->samples, rf->alines);
    return FALSE;
  }
  if (!aooct_raw_check_width (format, rf->samples, error)) {
    g_prefix_error (error, "--samples=%d: ", rf->samples);
    (*error)->domain = G_OPTION_ERROR;
    (*error)->code = G_OPTION_ERROR_BAD_VALUE;
    return FALSE;
  }
  return TRUE;
}

void
aooct_tool_raw_file_apply (const AooctToolRawFile * rf, GstElement * filesrc,
    const gchar * path)
{
  g_object_set (filesrc, "location", path, "header-bytes",
      (guint64) rf->header_bytes, "frame-stride", (guint64) rf->frame_stride,
      NULL);
  if (aooct_npy_path_is_npy (path)) {
    /* the array's own geometry and dtype; any given must agree (the
     * element says so) */
    g_object_set (filesrc, "width", MAX (rf->samples, 0), "height",
        MAX (rf->alines, 0), NULL);
    return;
  }
  g_object_set (filesrc, "width", rf->samples, "height", rf->alines, NULL);
  if (rf->format) {
    AooctRawFormat format;

    /* aooctfilesrc's own spelling of any the tools accept */
    if (aooct_raw_format_from_string (rf->format, &format))
      gst_util_set_object_arg (G_OBJECT (filesrc), "format",
          aooct_raw_format_nick (format));
  }
}

GstElement *
aooct_tool_parse_launchv (gchar ** args, const gchar * const *tail,
    GError ** error)
{
  GPtrArray *argv = g_ptr_array_new ();
  GstElement *pipeline;
  guint i;

  for (i = 0; args && args[i]; i++)
    g_ptr_array_add (argv, args[i]);
  for (i = 0; tail && tail[i]; i++)
    g_ptr_array_add (argv, (gpointer) tail[i]);
  g_ptr_array_add (argv, NULL);
  pipeline = gst_parse_launchv ((const gchar **) argv->pdata, error);
  g_ptr_array_unref (argv);
  return pipeline;
}
