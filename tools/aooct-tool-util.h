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

/* A raw file as every tool reads it: through aooctfilesrc, with the same
 * options (docs/howto.md, "Files with headers, trailers and NumPy
 * arrays"): --samples N and --alines M (its width and height; not needed
 * for a .npy file), --format, --header-bytes, --frame-stride. */
typedef struct
{
  gint samples, alines;
  gchar *format;
  gint64 header_bytes, frame_stride;
} AooctToolRawFile;

/* The options, pointing into @rf (zeroed by the caller), to add to a
 * tool's main entries with g_option_context_add_main_entries(); with
 * @short_names -n and -m for --samples and --alines.  g_free() the
 * array. */
GOptionEntry *aooct_tool_raw_file_entries (AooctToolRawFile * rf,
    gboolean short_names);

/* The options' usage text: "[--samples=N --alines=M] [--format=...]
 * [--header-bytes=B] [--frame-stride=S]" */
#define AOOCT_TOOL_RAW_FILE_USAGE "--samples=N --alines=M (not for a .npy " \
  "file) [--format=gray16-le|gray8|mono12p|mono12packed|mono10p|" \
  "float32-le] [--header-bytes=B] [--frame-stride=S]"

/* Checks the options for the file @path: a regular file; a .npy file
 * (by its magic bytes or name) needs no geometry, any other N of 2..65536
 * and M >= 1 and a known format that allows N; --header-bytes and
 * --frame-stride not negative.  FALSE with @error: G_OPTION_ERROR for a
 * usage error (exit status 2), else a file error (1). */
gboolean aooct_tool_raw_file_check (const AooctToolRawFile * rf,
    const gchar * path, GError ** error);

/* Sets @filesrc (an aooctfilesrc) to read @path as @rf says. */
void aooct_tool_raw_file_apply (const AooctToolRawFile * rf,
    GstElement * filesrc, const gchar * path);
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
