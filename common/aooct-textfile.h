/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: reader for the spec's text calibration files.
 *
 * One record per line, one or two numbers in C locale separated by spaces or
 * tabs; '#' starts a comment to the end of the line; blank lines are
 * ignored; lines end at LF, CRLF or a lone CR, and a leading UTF-8
 * byte-order mark is skipped.  Numbers must be finite and within the
 * float32 range (the pipeline computes in float32).  Every problem is
 * reported with the file name and line number, and bytes that are not
 * printable ASCII are quoted as \xNN. */
#ifndef __AOOCT_TEXTFILE_H__
#define __AOOCT_TEXTFILE_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gdouble v[2];
  gint n_values;                /* 1 or 2 */
  gint line;                    /* 1-based line number in the file */
} AooctRecord;

/* Parses @len bytes of @data (need not be NUL-terminated).  Each record must
 * hold @min_values..@max_values finite numbers.  With @expected > 0 exactly
 * that many records are required.  @name is used in error messages.
 * Returns a newly allocated array (free with g_free) or NULL with @error
 * set (AOOCT_ERROR_FILE). */
AooctRecord *aooct_text_parse (const gchar * name, const gchar * data,
    gsize len, gint min_values, gint max_values, gsize expected,
    gsize * n_records, GError ** error);

/* @len bytes of @p (at most @max, then "...") for a message: printable
 * ASCII as it is, every other byte (and the backslash) as \xNN.  g_free. */
gchar *aooct_text_quote (const gchar * p, gsize len, gsize max);

/* Files larger than this are refused before they are read: a calibration
 * of the largest grid (2^20 records of two numbers) is far smaller. */
#define AOOCT_TEXT_MAX_BYTES (64 << 20)

/* Reads the whole of @path into @data (NUL-terminated, g_free), @len bytes:
 * only a regular file (aooct_open_regular(): a FIFO is refused without
 * blocking) of at most AOOCT_TEXT_MAX_BYTES. */
gboolean aooct_text_read_file (const gchar * path, gchar ** data, gsize * len,
    GError ** error);

/* Reads @path and parses it like aooct_text_parse().  Only a regular file
 * of at most AOOCT_TEXT_MAX_BYTES is read (a FIFO, a device or a huge file
 * is refused without blocking or reading it). */
AooctRecord *aooct_text_read (const gchar * path, gint min_values,
    gint max_values, gsize expected, gsize * n_records, GError ** error);

/* Convenience: exactly @expected single-number records into a new array of
 * doubles. */
gdouble *aooct_text_read_values (const gchar * path, gsize expected,
    GError ** error);

G_END_DECLS

#endif /* __AOOCT_TEXTFILE_H__ */
