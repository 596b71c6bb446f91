/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the buffers of a raw file, fetched ahead by a reader and a
 * registrar (aooct-file-prefetch.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "aooct-file-prefetch.h"
#ifdef HAVE_CUDA
#include "aooct-cuda.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda-host-memory.h"
#else
/* without CUDA no window is ever registered: the context fields stay NULL
 * and are only cleared */
typedef GstObject GstCudaContext;
#endif

GST_DEBUG_CATEGORY_STATIC (aooct_prefetch_debug);
#define GST_CAT_DEFAULT aooct_prefetch_debug

/* a window is worth its registration call from about this size on (the
 * call costs some 0.2 ms, 32 MB take 2 ms at 18 GB/s) */
#define WINDOW_BYTES (32 * 1024 * 1024)
/* how long a producer waits before it asks the pool again when no buffer
 * was free (or the pool flushed) */
#define RETRY_US 1000

/* The file mapped read-only, unmapped with its last window. */
typedef struct
{
  gint ref;
  guint8 *base;
  gsize len;
} Mapping;

/* A range of the mapping, page-locked while any of its records is held. */
typedef struct
{
  gint ref;
  Mapping *mapping;
  guint8 *start;
  gsize len;
  GstCudaContext *context;
} Window;

typedef struct
{
  gboolean ready;               /* else claimed, being fetched */
  GstBuffer *buf;               /* the reader's */
  Window *window;               /* the registrar's (one reference) */
  GError *error;                /* the reader's failure */
} Slot;

struct _AooctFilePrefetch
{
  GMutex lock;
  GCond cond;

  AooctFileReader *reader;
  gsize record_bytes;
  guint64 n_records;
  guint ahead;
  AooctFilePrefetchAlloc alloc;
  gpointer user_data;

  /* under the lock */
  guint64 next;                 /* the record taken next */
  guint generation;             /* bumped by a seek */
  gboolean flushing, stopping;
  GHashTable *slots;            /* record index -> Slot, claimed or ready */
  guint64 n_read, n_in_place;

  GThread *reader_thread;

  /* the registrar (CUDA builds, after add_windows) */
  GThread *window_thread;
  Mapping *mapping;
  GstAllocator *host_allocator;
  GstCudaContext *context;
  guint window_records;         /* records per window */
  gboolean windows_failed;
};

#define KEY(i) GSIZE_TO_POINTER ((gsize) (i))

static void
mapping_unref (Mapping * m)
{
  if (m && g_atomic_int_dec_and_test (&m->ref)) {
    munmap (m->base, m->len);
    g_free (m);
  }
}

static void
window_unref (gpointer data)
{
  Window *w = data;

  if (w == NULL || !g_atomic_int_dec_and_test (&w->ref))
    return;
#ifdef HAVE_CUDA
  {
    GError *error = NULL;

    if (aooct_cuda_context_push (w->context, "unregistering a window of a "
            "mapped file", &error)) {
      aooct_cuda_host_unregister (w->start);
      aooct_cuda_context_pop ();
    } else {
      GST_ERROR ("%s", error->message);
      g_error_free (error);
    }
  }
#endif
  gst_clear_object (&w->context);
  mapping_unref (w->mapping);
  g_free (w);
}

static void
slot_free (gpointer data)
{
  Slot *s = data;

  gst_clear_buffer (&s->buf);
  window_unref (s->window);
  g_clear_error (&s->error);
  g_free (s);
}

/* the lowest record nobody has claimed, at or after the next one */
static guint64
lowest_unclaimed (AooctFilePrefetch * self)
{
  guint64 i = self->next;

  while (i < self->n_records && g_hash_table_contains (self->slots, KEY (i)))
    i++;
  return i;
}

/* Waits on the condition for at most @us (a producer retrying). */
static void
wait_a_little (AooctFilePrefetch * self, gint64 us)
{
  g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () + us);
}

static gpointer
reader_loop (gpointer data)
{
  AooctFilePrefetch *self = data;

  g_mutex_lock (&self->lock);
  while (!self->stopping) {
    guint64 i = lowest_unclaimed (self);
    guint gen = self->generation;
    GstBuffer *buf = NULL;
    GstFlowReturn ret;
    GError *error = NULL;
    GstMapInfo map;
    Slot *slot;

    if (self->flushing || i >= self->n_records || i >= self->next + self->ahead) {
      g_cond_wait (&self->cond, &self->lock);
      continue;
    }
    slot = g_new0 (Slot, 1);
    g_hash_table_insert (self->slots, KEY (i), slot);
    g_mutex_unlock (&self->lock);

    ret = self->alloc (self->user_data, &buf);
    if (ret == GST_FLOW_OK) {
      if (gst_buffer_get_size (buf) < self->record_bytes
          || !gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
        g_set_error (&error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
            "cannot write a record of %" G_GSIZE_FORMAT " bytes into a "
            "buffer of %" G_GSIZE_FORMAT, self->record_bytes,
            gst_buffer_get_size (buf));
      } else {
        aooct_file_reader_start (self->reader, i * self->record_bytes,
            map.data, self->record_bytes);
        aooct_file_reader_wait (self->reader, &error);
        gst_buffer_unmap (buf, &map);
      }
    }

    g_mutex_lock (&self->lock);
    if (gen != self->generation || self->stopping) {
      /* a seek freed the slot */
      gst_clear_buffer (&buf);
      g_clear_error (&error);
      continue;
    }
    if (ret == GST_FLOW_EOS || ret == GST_FLOW_FLUSHING) {
      /* no buffer free now, or the pool flushes: give the record back */
      g_hash_table_remove (self->slots, KEY (i));
      wait_a_little (self, RETRY_US);
      continue;
    }
    if (ret != GST_FLOW_OK && error == NULL)
      g_set_error (&error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "cannot get a buffer to read record %" G_GUINT64_FORMAT " into (%s)",
          i, gst_flow_get_name (ret));
    slot->ready = TRUE;
    if (error) {
      gst_clear_buffer (&buf);
      slot->error = error;
    } else {
      slot->buf = buf;
    }
    g_cond_broadcast (&self->cond);
  }
  g_mutex_unlock (&self->lock);
  return NULL;
}

AooctFilePrefetch *
aooct_file_prefetch_new (AooctFileReader * reader, gsize record_bytes,
    guint64 n_records, guint ahead, AooctFilePrefetchAlloc alloc,
    gpointer user_data)
{
  AooctFilePrefetch *self = g_new0 (AooctFilePrefetch, 1);

  GST_DEBUG_CATEGORY_INIT (aooct_prefetch_debug, "aooctprefetch", 0,
      "aooct raw file prefetch");
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->reader = reader;
  self->record_bytes = record_bytes;
  self->n_records = n_records;
  self->ahead = MAX (ahead, 1);
  self->alloc = alloc;
  self->user_data = user_data;
  self->slots = g_hash_table_new_full (NULL, NULL, NULL, slot_free);
  self->reader_thread = g_thread_new ("aooct-prefetch", reader_loop, self);
  return self;
}

#ifdef HAVE_CUDA
/* The next window to register: records [*first, *end), aligned to the
 * window size (so that windows start and end on page boundaries), inside
 * the look-ahead and claimed by nobody.  FALSE when there is none now. */
static gboolean
next_window (AooctFilePrefetch * self, guint64 * first, guint64 * end)
{
  guint64 k = self->window_records;
  guint64 w = (lowest_unclaimed (self) + k - 1) / k * k, i;

  for (; w < self->n_records; w += k) {
    guint64 e = MIN (w + k, self->n_records);

    if (e > self->next + self->ahead)
      return FALSE;
    for (i = w; i < e; i++)
      if (g_hash_table_contains (self->slots, KEY (i)))
        break;
    if (i == e) {
      *first = w;
      *end = e;
      return TRUE;
    }
  }
  return FALSE;
}

static gpointer
window_loop (gpointer data)
{
  AooctFilePrefetch *self = data;

  g_mutex_lock (&self->lock);
  while (!self->stopping && !self->windows_failed) {
    guint64 first, end, i;
    guint gen = self->generation;
    gsize page = sysconf (_SC_PAGESIZE), off, len;
    GError *error = NULL;
    gboolean ok;
    Window *w;

    if (self->flushing || !next_window (self, &first, &end)) {
      g_cond_wait (&self->cond, &self->lock);
      continue;
    }
    for (i = first; i < end; i++)
      g_hash_table_insert (self->slots, KEY (i), g_new0 (Slot, 1));
    g_mutex_unlock (&self->lock);

    /* window starts are page-aligned (window_records); the end of the
     * file's last window rounds up into the mapping's last page */
    off = (gsize) (first * self->record_bytes);
    len = (gsize) ((end - first) * self->record_bytes);
    len = (len + page - 1) / page * page;
    ok = aooct_cuda_context_push (self->context, "registering a window of a "
        "mapped file", &error);
    if (ok) {
      ok = aooct_cuda_host_register_read_only (self->mapping->base + off, len,
          &error);
      aooct_cuda_context_pop ();
    }
    g_mutex_lock (&self->lock);
    if (!ok) {
      /* e.g. a kernel that does not pin file pages: the reader does all */
      GST_WARNING ("page-locking the mapped file failed, reading with "
          "threads only: %s", error->message);
      g_clear_error (&error);
      self->windows_failed = TRUE;
      if (gen == self->generation)
        for (i = first; i < end; i++)
          g_hash_table_remove (self->slots, KEY (i));
      g_cond_broadcast (&self->cond);
      break;
    }
    w = g_new0 (Window, 1);
    w->ref = 1;
    w->start = self->mapping->base + off;
    w->len = len;
    w->context = gst_object_ref (self->context);
    g_atomic_int_inc (&self->mapping->ref);
    w->mapping = self->mapping;
    if (gen == self->generation && !self->stopping) {
      for (i = first; i < end; i++) {
        Slot *s = g_hash_table_lookup (self->slots, KEY (i));

        g_atomic_int_inc (&w->ref);
        s->window = w;
        s->ready = TRUE;
      }
      g_cond_broadcast (&self->cond);
    }
    /* the slots hold it now (or a seek came between) */
    g_mutex_unlock (&self->lock);
    window_unref (w);
    g_mutex_lock (&self->lock);
  }
  g_mutex_unlock (&self->lock);
  return NULL;
}
#endif

gboolean
aooct_file_prefetch_add_windows (AooctFilePrefetch * self, const gchar * path,
    GstAllocator * host_allocator, gsize ahead_bytes, GError ** error)
{
#ifdef HAVE_CUDA
  gsize page = sysconf (_SC_PAGESIZE);
  guint64 k0, size = (guint64) self->record_bytes * self->n_records;
  gsize len = (size + page - 1) / page * page;
  void *base;
  gint fd;

  g_return_val_if_fail (self->window_thread == NULL, FALSE);
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s: cannot open to map: %s", path, g_strerror (errno));
    return FALSE;
  }
  base = mmap (NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  if (base == MAP_FAILED) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s: cannot map %" G_GSIZE_FORMAT " bytes: %s", path, len,
        g_strerror (errno));
    return FALSE;
  }
  madvise (base, len, MADV_SEQUENTIAL);
  self->mapping = g_new0 (Mapping, 1);
  self->mapping->ref = 1;
  self->mapping->base = base;
  self->mapping->len = len;
  self->host_allocator = gst_object_ref (host_allocator);
  self->context = aooct_cuda_host_allocator_get_context (host_allocator);
  /* the fewest records whose bytes are a whole number of pages, then as
   * many of those as make a window of WINDOW_BYTES */
  k0 = page / MIN (self->record_bytes & (~self->record_bytes + 1), page);
  self->window_records = (guint) MAX (k0, (WINDOW_BYTES / self->record_bytes
          + k0 - 1) / k0 * k0);
  g_mutex_lock (&self->lock);
  /* three windows ahead: one being registered, one ready, one taken */
  self->ahead = MAX (self->ahead, MIN (3 * self->window_records,
          MAX (ahead_bytes / self->record_bytes, self->window_records)));
  g_mutex_unlock (&self->lock);
  GST_DEBUG ("%s: windows of %u records of %" G_GSIZE_FORMAT " bytes, %u "
      "records ahead", path, self->window_records, self->record_bytes,
      self->ahead);
  self->window_thread = g_thread_new ("aooct-register", window_loop, self);
  return TRUE;
#else
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "%s: reading in place needs a CUDA build", path);
  return FALSE;
#endif
}

GstFlowReturn
aooct_file_prefetch_take (AooctFilePrefetch * self, guint64 index,
    GstBuffer ** buf, gboolean * in_place, GError ** error)
{
  Slot *slot;

  g_mutex_lock (&self->lock);
  if (index != self->next) {
    g_mutex_unlock (&self->lock);
    aooct_file_prefetch_seek (self, index);
    g_mutex_lock (&self->lock);
  }
  while (!self->flushing && ((slot = g_hash_table_lookup (self->slots,
                  KEY (index))) == NULL || !slot->ready))
    g_cond_wait (&self->cond, &self->lock);
  if (self->flushing) {
    g_mutex_unlock (&self->lock);
    return GST_FLOW_FLUSHING;
  }
  g_hash_table_steal (self->slots, KEY (index));
  self->next = index + 1;
  if (slot->window)
    self->n_in_place++;
  else if (slot->buf)
    self->n_read++;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  *in_place = FALSE;
  if (slot->error) {
    g_propagate_error (error, slot->error);
    slot->error = NULL;
    slot_free (slot);
    return GST_FLOW_ERROR;
  }
  if (slot->buf) {
    *buf = slot->buf;
    slot->buf = NULL;
  }
#ifdef HAVE_CUDA
  else {
    guint8 *data = self->mapping->base + index * self->record_bytes;

    *buf = gst_buffer_new ();
    /* the memory keeps the slot's window reference */
    gst_buffer_append_memory (*buf,
        aooct_cuda_host_memory_wrap (self->host_allocator, data,
            self->record_bytes, slot->window, window_unref));
    slot->window = NULL;
    *in_place = TRUE;
  }
#endif
  slot_free (slot);
  return GST_FLOW_OK;
}

void
aooct_file_prefetch_seek (AooctFilePrefetch * self, guint64 index)
{
  g_mutex_lock (&self->lock);
  self->generation++;
  g_hash_table_remove_all (self->slots);
  self->next = index;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

void
aooct_file_prefetch_set_flushing (AooctFilePrefetch * self, gboolean flushing)
{
  g_mutex_lock (&self->lock);
  self->flushing = flushing;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

void
aooct_file_prefetch_counts (AooctFilePrefetch * self, guint64 * read,
    guint64 * in_place)
{
  g_mutex_lock (&self->lock);
  *read = self->n_read;
  *in_place = self->n_in_place;
  g_mutex_unlock (&self->lock);
}

void
aooct_file_prefetch_free (AooctFilePrefetch * self)
{
  if (self == NULL)
    return;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_thread_join (self->reader_thread);
  if (self->window_thread)
    g_thread_join (self->window_thread);
  g_hash_table_destroy (self->slots);
  mapping_unref (self->mapping);
  gst_clear_object (&self->host_allocator);
  gst_clear_object (&self->context);
  g_cond_clear (&self->cond);
  g_mutex_clear (&self->lock);
  g_free (self);
}
