/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: what aooct-background, aooct-dispersion and aooct-stack
 * share.  A user's file name or number goes into an element as a property
 * of an element object, never through a pipeline string (where quoting,
 * escaping and non-ASCII bytes would change it). */
#ifndef __AOOCT_TOOL_UTIL_H__
#define __AOOCT_TOOL_UTIL_H__

#include <gst/gst.h>

G_BEGIN_DECLS
/* setlocale (LC_ALL, "") and gst's option group: GLib's and GStreamer's
 * messages in the user's language and character set (quotes and non-ASCII
 * file names as they are, not '?').  Parses the options; FALSE with the
 * message printed after "PROGRAM: " on a usage error. */
    gboolean aooct_tool_parse_options (const gchar * program,
    GOptionContext * ctx, gint * argc, gchar *** argv);

/* A new element of @factory, or NULL with @error naming the factory and
 * the likely cause (the aooct plugin not on GST_PLUGIN_PATH). */
GstElement *aooct_tool_make (const gchar * factory, GError ** error);

/* Sets the integer property @prop of @element to @value when it is within
 * the property's range; otherwise FALSE with @error "--OPTION VALUE: must
 * be MIN..MAX (ELEMENT PROP)".  (g_object_set() would only print a
 * warning and keep the default.) */
gboolean aooct_tool_set_int (GstElement * element, const gchar * prop,
    gint value, const gchar * option, GError ** error);

/* Appends the element of @factory to @bin after @prev (linked; NULL for
 * the first); NULL with @error when it cannot be made or linked. */
GstElement *aooct_tool_append (GstBin * bin, GstElement * prev,
    const gchar * factory, GError ** error);

/* The pipeline of @args, the user's gst-launch-1.0 description as its
 * arguments came (one argument, one token: a value with a space, such as
 * location=/data/scan 1.raw, stays one value), followed by @tail (the
 * tool's own tokens, e.g. "!", "appsink", "name=..."; NULL-terminated).
 * gst_parse_launchv(), as gst-launch-1.0 itself: the arguments are never
 * joined into one string that the parser would split again. */
GstElement *aooct_tool_parse_launchv (gchar ** args,
    const gchar * const *tail, GError ** error);

G_END_DECLS
#endif /* __AOOCT_TOOL_UTIL_H__ */
