/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: writer for the spec's text calibration files (the background
 * aooct-background records, aooctsrc's calibration-file, aooctcs's
 * mask-output-file).
 *
 * What it writes the elements always read: the header becomes comment
 * lines whatever it holds (a line break in it starts a new '#' line
 * instead of ending the comment), and the whole text is parsed with the
 * elements' own reader (aooct-textfile.h) before anything is written, so
 * that a file that would be refused is never written.  The file replaces
 * @path at once (a temporary file beside it, renamed); errors name @path,
 * never the temporary file. */
#ifndef __AOOCT_TEXTWRITE_H__
#define __AOOCT_TEXTWRITE_H__

#include <glib.h>

G_BEGIN_DECLS
/* Appends @text as comment lines: "# " and each of its lines (split at LF,
 * CRLF and CR, as the reader splits them). */
void aooct_text_append_comment (GString * out, const gchar * text);

/* Writes @len bytes of @data to @path through a temporary file beside it,
 * renamed over @path: @path is the old file or the new one, never a part.
 * FALSE with @error (AOOCT_ERROR_FILE) "cannot write PATH: REASON", never
 * naming the temporary file (which is removed). */
gboolean aooct_file_replace (const gchar * path, const gchar * data,
    gsize len, GError ** error);

/* Writes @text (comments and records, as aooct_text_append_comment() and
 * the caller made it) to @path after checking that aooct_text_parse()
 * takes it with @min_values..@max_values numbers per record and, with
 * @expected > 0, exactly that many records.  FALSE with @error
 * (AOOCT_ERROR_FILE) naming @path when it would not be read back or cannot
 * be written. */
gboolean aooct_text_write (const gchar * path, const GString * text,
    gint min_values, gint max_values, gsize expected, GError ** error);

G_END_DECLS
#endif /* __AOOCT_TEXTWRITE_H__ */
