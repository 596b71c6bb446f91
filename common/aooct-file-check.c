/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: is a path a regular file (aooct-file-check.h). */
#include "aooct-file-check.h"
#include "aooct-error.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

const gchar *
aooct_file_kind (guint mode)
{
  if (S_ISREG (mode))
    return "a regular file";
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "of unknown type";
}

gboolean
aooct_file_check_regular (const gchar * path, const gchar * what,
    guint64 * size, GError ** error)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0) {
    gint e = errno;

    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s %s: %s", what,
        path, g_strerror (e));
    return FALSE;
  }
  if (!S_ISREG (st.st_mode)) {
    /* a FIFO would block open() until a writer comes, a device may never
     * end: neither is a recorded file */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s %s: not a regular "
        "file (%s)", what, path, aooct_file_kind (st.st_mode));
    return FALSE;
  }
  if (size)
    *size = (guint64) st.st_size;
  return TRUE;
}
