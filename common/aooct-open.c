/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: opening a user's path for reading, never blocking on it
 * (aooct-open.h says why). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "aooct-open.h"
#include "aooct-error.h"

const gchar *
aooct_file_type_name (mode_t mode)
{
  if (S_ISREG (mode))
    return "a regular file";
  if (S_ISFIFO (mode))
    return "a FIFO (named pipe)";
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "of an unknown type";
}

static gboolean
check_regular (const gchar * path, const struct stat *st,
    const gchar * expected, GError ** error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
      "%s: not a regular file (it is %s); %s", path,
      aooct_file_type_name (st->st_mode), expected);
  return FALSE;
}

gint
aooct_open_regular (const gchar * path, const gchar * expected,
    struct stat *st, GError ** error)
{
  struct stat before, after;
  gint fd, flags, e;

  if (g_stat (path, &before) != 0) {
    e = errno;
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s: cannot read: %s",
        path, g_strerror (e));
    return -1;
  }
  if (!check_regular (path, &before, expected, error))
    return -1;
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0) {
    e = errno;
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s: cannot read: %s",
        path, g_strerror (e));
    return -1;
  }
  if (fstat (fd, &after) != 0) {
    e = errno;
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s: cannot read: %s",
        path, g_strerror (e));
    close (fd);
    return -1;
  }
  if (!check_regular (path, &after, expected, error)) {
    close (fd);
    return -1;
  }
  /* O_NONBLOCK was for the open only; reads of a regular file ignore it,
   * but the descriptor is given to code that does not expect it */
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  if (st)
    *st = after;
  return fd;
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
        "file (it is %s)", what, path, aooct_file_type_name (st.st_mode));
    return FALSE;
  }
  if (size)
    *size = (guint64) st.st_size;
  return TRUE;
}
