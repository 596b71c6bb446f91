/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: is a path a regular file?  For the tools and the viewer, which
 * must say "a FIFO" or "a directory" instead of "no such file" or a size
 * of 0 bytes, and must not block opening a FIFO that has no writer. */
#ifndef __AOOCT_FILE_CHECK_H__
#define __AOOCT_FILE_CHECK_H__

#include <glib.h>

G_BEGIN_DECLS
/* What kind of file a stat() mode says, for a message: "a FIFO",
 * "a directory", "a character device", ..., "a regular file". */
const gchar *aooct_file_kind (guint mode);

/* TRUE when @path is a regular file (following links), with its size in
 * @size (may be NULL).  Otherwise FALSE with @error (AOOCT_ERROR_FILE):
 * "WHAT PATH: no such file or directory" (the system's reason) or "WHAT
 * PATH: not a regular file (a FIFO)".  Only stat(): nothing is opened. */
gboolean aooct_file_check_regular (const gchar * path, const gchar * what,
    guint64 * size, GError ** error);

G_END_DECLS
#endif /* __AOOCT_FILE_CHECK_H__ */
