/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: opening a user's path for reading, never blocking on it.
 *
 * open() of a FIFO without a writer blocks until one comes, and no state
 * change (not even Ctrl-C in gst-launch) can interrupt it; a directory
 * opens and reads as an error; a device reads forever.  Every file a user
 * names (aooctfilesrc's location, the calibration, background, phase and
 * mask files) is opened here: the path is looked at first (stat: nothing
 * is opened that is not a regular file, as opening a device can act on
 * it), then opened with O_NONBLOCK and looked at again (fstat: the path
 * may have been replaced in between). */
#ifndef __AOOCT_OPEN_H__
#define __AOOCT_OPEN_H__

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

/* What @mode is, for a message: "a FIFO", "a directory", "a socket"... */
const gchar *aooct_file_type_name (mode_t mode);

/* Opens @path read-only (close-on-exec, blocking mode restored) when it is
 * a regular file and fills @st (may be NULL).  Otherwise returns -1 with
 * @error set (AOOCT_ERROR_FILE): "PATH: not a regular file (it is a FIFO ...);
 * @expected", or "PATH: cannot read: REASON". */
gint aooct_open_regular (const gchar * path, const gchar * expected,
    struct stat *st, GError ** error);

/* Only checks (stat) that @path is a regular file, for a caller that hands
 * the path on to a GStreamer element or opens it later itself; @what
 * names it in the message ("raw file"); @size, if not NULL, gets its size. */
gboolean aooct_file_check_regular (const gchar * path, const gchar * what,
    guint64 * size, GError ** error);

G_END_DECLS

#endif /* __AOOCT_OPEN_H__ */
