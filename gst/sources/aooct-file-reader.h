/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: reading a byte range of a file with several threads at once.
 *
 * One thread's read() from the page cache runs at a few GB/s (the kernel
 * copies the pages into the destination on the reading core); a raw B-scan
 * stream of 2048-sample A-lines at 10 M A-lines/s is 40 GB/s.  The reader
 * splits each range into chunks of at least AOOCT_FILE_READER_MIN_CHUNK
 * bytes and lets a set of worker threads pread() them in parallel, straight
 * into the destination (a page-locked pool buffer, so nothing copies the
 * bytes again before the upload).  A read is started and waited for
 * separately, so the caller can read ahead into the next buffer while the
 * current one travels downstream.
 */
#ifndef __AOOCT_FILE_READER_H__
#define __AOOCT_FILE_READER_H__

#include <glib.h>

G_BEGIN_DECLS

/* below this a chunk is not worth a thread's wake-up */
#define AOOCT_FILE_READER_MIN_CHUNK (256 * 1024)

typedef struct _AooctFileReader AooctFileReader;

/* Opens @path for reading with @threads workers (0: one per core, at most
 * 8).  Only a regular file, opened without blocking (aooct_open_regular).
 * NULL with @error set (AOOCT_ERROR_FILE, naming the file) on failure. */
AooctFileReader *aooct_file_reader_open (const gchar * path, guint threads,
    GError ** error);

/* The open file's descriptor (the reader keeps it): to map the file that
 * was checked, not whatever the path names now. */
gint aooct_file_reader_fd (AooctFileReader * reader);

/* The file's size in bytes at open. */
guint64 aooct_file_reader_size (AooctFileReader * reader);

/* Starts reading @len bytes at @offset into @dest and returns at once.
 * At most one read is under way at a time: wait for it first. */
void aooct_file_reader_start (AooctFileReader * reader, guint64 offset,
    guint8 * dest, gsize len);

/* Waits for the read started last; FALSE with @error set if any part of it
 * failed or the file ended early.  TRUE at once when none was started. */
gboolean aooct_file_reader_wait (AooctFileReader * reader, GError ** error);

/* Waits for a read under way, stops the workers and closes the file. */
void aooct_file_reader_close (AooctFileReader * reader);

G_END_DECLS

#endif /* __AOOCT_FILE_READER_H__ */
