/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the buffers of a raw file, fetched ahead by reader threads or
 * handed out in place from the page-locked file (aooct-file-prefetch.h). */
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
/* without CUDA the file is never page-locked: the context fields stay NULL
 * and are only cleared */
typedef GstObject GstCudaContext;
#endif

GST_DEBUG_CATEGORY_STATIC (aooct_prefetch_debug);
#define GST_CAT_DEFAULT aooct_prefetch_debug

/* how long a producer waits before it asks the pool again when no buffer
 * was free (or the pool flushed) */
#define RETRY_US 1000

/* The file mapped read-only. */
typedef struct
{
  gint ref;
  guint8 *base;
  gsize len;
} Mapping;

/* The page-locked mapping, unregistered and unmapped when the prefetch and
 * every buffer of it downstream are gone. */
typedef struct
{
  gint ref;
  Mapping *mapping;
  GstCudaContext *context;
} Locked;

typedef struct
{
  gboolean ready;               /* else claimed, being fetched */
  GstBuffer *buf;               /* the reader's */
  GError *error;                /* the reader's failure */
} Slot;

struct _AooctFilePrefetch
{
  GMutex lock;
  GCond cond;

  AooctFileReader *reader;
  AooctFileLayout layout;
  gsize record_bytes;           /* layout.frames x layout.frame_bytes */
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

  /* CUDA builds, after aooct_file_prefetch_lock_file */
  GstAllocator *host_allocator;
  Locked *locked;               /* one reference; NULL: readers only */
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
locked_unref (gpointer data)
{
  Locked *l = data;

  if (l == NULL || !g_atomic_int_dec_and_test (&l->ref))
    return;
#ifdef HAVE_CUDA
  {
    GError *error = NULL;

    if (aooct_cuda_device_push_context (l->context,
            "unregistering a page-locked " "file", &error)) {
      aooct_cuda_host_unregister (l->mapping->base);
      aooct_cuda_device_pop_context ();
    } else {
      GST_ERROR ("%s", error->message);
      g_error_free (error);
    }
  }
#endif
  gst_clear_object (&l->context);
  mapping_unref (l->mapping);
  g_free (l);
}

static void
slot_free (gpointer data)
{
  Slot *s = data;

  gst_clear_buffer (&s->buf);
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

/* The file offset of the first byte of record @i */
static guint64
record_offset (const AooctFileLayout * l, guint64 i)
{
  return l->offset + i * l->frames * l->frame_stride;
}

/* Whether a record's B-scans lie one after the other in the file */
static gboolean
records_contiguous (const AooctFileLayout * l)
{
  return l->frame_stride == l->frame_bytes || l->frames == 1;
}

/* Record @i into @dest: one read of its bytes where its B-scans follow
 * each other in the file, else one read per B-scan (each still split
 * across the reader's threads) */
static void
read_record (AooctFilePrefetch * self, guint64 i, guint8 * dest,
    GError ** error)
{
  const AooctFileLayout *l = &self->layout;
  guint k;

  if (records_contiguous (l)) {
    aooct_file_reader_start (self->reader, record_offset (l, i), dest,
        self->record_bytes);
    aooct_file_reader_wait (self->reader, error);
    return;
  }
  for (k = 0; k < l->frames; k++) {
    aooct_file_reader_start (self->reader, record_offset (l, i) +
        k * l->frame_stride, dest + (gsize) k * l->frame_bytes, l->frame_bytes);
    if (!aooct_file_reader_wait (self->reader, error))
      return;
  }
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

    if (self->flushing || self->locked || i >= self->n_records
        || i >= self->next + self->ahead) {
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
        read_record (self, i, map.data, &error);
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
aooct_file_prefetch_new (AooctFileReader * reader,
    const AooctFileLayout * layout, guint64 n_records, guint ahead,
    AooctFilePrefetchAlloc alloc, gpointer user_data)
{
  AooctFilePrefetch *self = g_new0 (AooctFilePrefetch, 1);

  GST_DEBUG_CATEGORY_INIT (aooct_prefetch_debug, "aooctprefetch", 0,
      "aooct raw file prefetch");
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->reader = reader;
  self->layout = *layout;
  self->record_bytes = (gsize) layout->frames * layout->frame_bytes;
  self->n_records = n_records;
  self->ahead = MAX (ahead, 1);
  self->alloc = alloc;
  self->user_data = user_data;
  self->slots = g_hash_table_new_full (NULL, NULL, NULL, slot_free);
  self->reader_thread = g_thread_new ("aooct-prefetch", reader_loop, self);
  return self;
}

#ifdef HAVE_CUDA
/* The share of the mapping's pages in the page cache (mincore), 0 .. 1. */
static gdouble
resident_share (const Mapping * m, gsize page)
{
  gsize pages = m->len / page, i, in = 0;
  guchar *vec = g_try_malloc (MAX (pages, 1));

  if (vec == NULL || mincore (m->base, m->len, vec) != 0) {
    g_free (vec);
    return 0;
  }
  for (i = 0; i < pages; i++)
    in += vec[i] & 1;
  g_free (vec);
  return pages ? (gdouble) in / pages : 0;
}
#endif

gboolean
aooct_file_prefetch_lock_file (AooctFilePrefetch * self, const gchar * path,
    GstAllocator * host_allocator, guint64 max_bytes, GError ** error)
{
#ifdef HAVE_CUDA
  const AooctFileLayout *lay = &self->layout;
  gsize page = sysconf (_SC_PAGESIZE);
  /* from the file's start (a mapping starts on a page) to the last
   * B-scan's end */
  guint64 size = lay->offset + (self->n_records * lay->frames - 1) *
      lay->frame_stride + lay->frame_bytes;
  gsize len = (size + page - 1) / page * page;
  GstCudaContext *context;
  Mapping *m;
  Locked *l;
  gdouble in_cache;
  gint64 t0;
  void *base;
  gint fd;

  g_return_val_if_fail (self->locked == NULL, FALSE);
  if (!records_contiguous (lay)) {
    /* a buffer would have to gather its B-scans from several places of
     * the file, which the upload of one contiguous buffer cannot */
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "%s: the %u B-scans of a buffer are %" G_GUINT64_FORMAT " bytes "
        "apart in the file, not one after the other", path, lay->frames,
        lay->frame_stride);
    return FALSE;
  }
  if (len > max_bytes) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "%s: %" G_GSIZE_FORMAT " MiB, more than the %" G_GUINT64_FORMAT
        " MiB that may be page-locked", path, len >> 20, max_bytes >> 20);
    return FALSE;
  }
  /* the reader's descriptor: the file that was checked to be a regular
   * file at open, not whatever @path names now (a FIFO would block) */
  fd = aooct_file_reader_fd (self->reader);
  base = mmap (NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "%s: cannot map %" G_GSIZE_FORMAT " bytes: %s", path, len,
        g_strerror (errno));
    return FALSE;
  }
  m = g_new0 (Mapping, 1);
  m->ref = 1;
  m->base = base;
  m->len = len;
  /* a file that is not in the page cache would be read whole from the
   * disk before the first buffer: the readers keep pace with the disk */
  in_cache = resident_share (m, page);
  if (in_cache < 0.9) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_BUSY,
        "%s: %.0f %% of it in the page cache", path, 100 * in_cache);
    mapping_unref (m);
    return FALSE;
  }
  /* now, before any buffer flows: a registration holds the driver for
   * milliseconds per 32 MB, which stalled every element's CUDA calls when
   * parts of the file were registered while the chain ran */
  context = aooct_cuda_host_allocator_get_context (host_allocator);
  t0 = g_get_monotonic_time ();
  if (!aooct_cuda_device_push_context (context, "page-locking a mapped file",
          error)) {
    gst_object_unref (context);
    mapping_unref (m);
    return FALSE;
  }
  if (!aooct_cuda_host_register_read_only (base, len, error)) {
    aooct_cuda_device_pop_context ();
    gst_object_unref (context);
    mapping_unref (m);
    return FALSE;
  }
  aooct_cuda_device_pop_context ();
  GST_DEBUG ("%s: %" G_GSIZE_FORMAT " bytes page-locked in %.1f ms", path,
      len, (g_get_monotonic_time () - t0) / 1e3);
  l = g_new0 (Locked, 1);
  l->ref = 1;
  l->mapping = m;
  l->context = context;
  g_mutex_lock (&self->lock);
  self->host_allocator = gst_object_ref (host_allocator);
  self->locked = l;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
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
                  KEY (index))) == NULL || !slot->ready)) {
#ifdef HAVE_CUDA
    if (slot == NULL && self->locked) {
      /* the file is page-locked: a record of it, in place (the memory
       * keeps a reference) */
      self->next = index + 1;
      self->n_in_place++;
      g_atomic_int_inc (&self->locked->ref);
      *buf = gst_buffer_new ();
      gst_buffer_append_memory (*buf,
          aooct_cuda_host_memory_wrap (self->host_allocator,
              self->locked->mapping->base + record_offset (&self->layout,
                  index), self->record_bytes, self->locked, locked_unref));
      *in_place = TRUE;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      return GST_FLOW_OK;
    }
#endif
    g_cond_wait (&self->cond, &self->lock);
  }
  if (self->flushing) {
    g_mutex_unlock (&self->lock);
    return GST_FLOW_FLUSHING;
  }
  g_hash_table_steal (self->slots, KEY (index));
  self->next = index + 1;
  if (slot->buf)
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
  *buf = slot->buf;
  slot->buf = NULL;
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
  g_hash_table_destroy (self->slots);
  /* buffers still downstream keep the file page-locked until they go */
  locked_unref (self->locked);
  gst_clear_object (&self->host_allocator);
  g_cond_clear (&self->cond);
  g_mutex_clear (&self->lock);
  g_free (self);
}
