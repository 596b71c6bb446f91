/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: reading a byte range of a file with several threads at once
 * (see aooct-file-reader.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "aooct-file-reader.h"
#include "aooct-open.h"

#define MAX_AUTO_THREADS 8
#define CHUNK_ALIGN 4096

struct _AooctFileReader
{
  gchar *path;
  gint fd;
  guint64 size;
  guint n_threads;
  GThread **threads;

  GMutex lock;
  GCond work_cond;              /* a read was started, or quit */
  GCond done_cond;              /* the last chunk of a read is done */
  gboolean quit;

  /* the read under way, under lock */
  guint64 offset;
  guint8 *dest;
  gsize len, chunk;
  guint n_chunks, next_chunk, pending;
  GError *error;                /* the first chunk's failure */
};

/* pread()s [@off, @off + @len) into @dst; FALSE with @error on failure. */
static gboolean
read_range (AooctFileReader * r, guint64 off, guint8 * dst, gsize len,
    GError ** error)
{
  while (len > 0) {
    ssize_t n = pread (r->fd, dst, len, (off_t) off);

    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      gint e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
          "%s: reading %" G_GSIZE_FORMAT " bytes at byte %" G_GUINT64_FORMAT
          " failed: %s", r->path, len, off, g_strerror (e));
      return FALSE;
    }
    if (n == 0) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO,
          "%s: the file ended at byte %" G_GUINT64_FORMAT " (it had %"
          G_GUINT64_FORMAT " bytes when opened: was it truncated?)",
          r->path, off, r->size);
      return FALSE;
    }
    dst += n;
    off += n;
    len -= n;
  }
  return TRUE;
}

static gpointer
worker (gpointer data)
{
  AooctFileReader *r = data;

  g_mutex_lock (&r->lock);
  for (;;) {
    guint i;
    gsize start, len;
    GError *err = NULL;
    gboolean ok;

    while (!r->quit && r->next_chunk >= r->n_chunks)
      g_cond_wait (&r->work_cond, &r->lock);
    if (r->quit)
      break;
    i = r->next_chunk++;
    start = (gsize) i *r->chunk;
    len = MIN (r->chunk, r->len - start);
    g_mutex_unlock (&r->lock);

    ok = read_range (r, r->offset + start, r->dest + start, len, &err);

    g_mutex_lock (&r->lock);
    if (!ok) {
      if (r->error == NULL)
        r->error = err;
      else
        g_error_free (err);
    }
    if (--r->pending == 0)
      g_cond_signal (&r->done_cond);
  }
  g_mutex_unlock (&r->lock);
  return NULL;
}

AooctFileReader *
aooct_file_reader_open (const gchar * path, guint threads, GError ** error)
{
  AooctFileReader *r;
  struct stat st;
  gint fd;
  guint i;

  /* never blocks: a FIFO, socket, device or directory is an error */
  fd = aooct_open_regular (path, "aooctfilesrc reads a raw file of frames",
      &st, error);
  if (fd < 0)
    return NULL;
#ifdef POSIX_FADV_SEQUENTIAL
  /* a file not in the page cache: let the kernel read ahead generously */
  posix_fadvise (fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif

  r = g_new0 (AooctFileReader, 1);
  r->path = g_strdup (path);
  r->fd = fd;
  r->size = st.st_size;
  if (threads == 0)
    threads = CLAMP (g_get_num_processors (), 1, MAX_AUTO_THREADS);
  r->n_threads = threads;
  g_mutex_init (&r->lock);
  g_cond_init (&r->work_cond);
  g_cond_init (&r->done_cond);
  r->threads = g_new0 (GThread *, threads);
  for (i = 0; i < threads; i++)
    r->threads[i] = g_thread_new ("aooct-read", worker, r);
  return r;
}

gint
aooct_file_reader_fd (AooctFileReader * r)
{
  return r->fd;
}

guint64
aooct_file_reader_size (AooctFileReader * r)
{
  return r->size;
}

void
aooct_file_reader_start (AooctFileReader * r, guint64 offset, guint8 * dest,
    gsize len)
{
  guint n;

  g_mutex_lock (&r->lock);
  g_warn_if_fail (r->pending == 0);
  /* as many chunks as threads, none under the minimum, page aligned */
  n = CLAMP (len / AOOCT_FILE_READER_MIN_CHUNK, 1, r->n_threads);
  r->chunk = (len + n - 1) / n;
  r->chunk = (r->chunk + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
  r->offset = offset;
  r->dest = dest;
  r->len = len;
  r->n_chunks = len ? (len + r->chunk - 1) / r->chunk : 0;
  r->next_chunk = 0;
  r->pending = r->n_chunks;
  if (r->n_chunks == 1)
    g_cond_signal (&r->work_cond);
  else if (r->n_chunks > 1)
    g_cond_broadcast (&r->work_cond);
  g_mutex_unlock (&r->lock);
}

gboolean
aooct_file_reader_wait (AooctFileReader * r, GError ** error)
{
  GError *err;

  g_mutex_lock (&r->lock);
  while (r->pending > 0)
    g_cond_wait (&r->done_cond, &r->lock);
  r->n_chunks = r->next_chunk = 0;
  err = r->error;
  r->error = NULL;
  g_mutex_unlock (&r->lock);
  if (err) {
    g_propagate_error (error, err);
    return FALSE;
  }
  return TRUE;
}

void
aooct_file_reader_close (AooctFileReader * r)
{
  guint i;

  if (r == NULL)
    return;
  aooct_file_reader_wait (r, NULL);
  g_mutex_lock (&r->lock);
  r->quit = TRUE;
  g_cond_broadcast (&r->work_cond);
  g_mutex_unlock (&r->lock);
  for (i = 0; i < r->n_threads; i++)
    g_thread_join (r->threads[i]);
  g_free (r->threads);
  close (r->fd);
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->work_cond);
  g_cond_clear (&r->done_cond);
  g_free (r->path);
  g_free (r);
}
