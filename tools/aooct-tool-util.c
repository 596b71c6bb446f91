/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: shared helpers (aooct-tool-util.h). */
#include "aooct-tool-util.h"

#include <locale.h>

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
