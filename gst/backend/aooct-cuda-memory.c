/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: device memory on a GstCudaContext (see aooct-cuda-memory.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-cuda-memory.h"
#include "aooct-cuda-device.h"

GST_DEBUG_CATEGORY_STATIC (aooct_cuda_memory_debug);
#define GST_CAT_DEFAULT aooct_cuda_memory_debug

#define AOOCT_TYPE_CUDA_ALLOCATOR (aooct_cuda_allocator_get_type ())
G_DECLARE_FINAL_TYPE (AooctCudaAllocator, aooct_cuda_allocator, AOOCT,
    CUDA_ALLOCATOR, GstAllocator);

struct _AooctCudaAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE (AooctCudaAllocator, aooct_cuda_allocator, GST_TYPE_ALLOCATOR);

static GstAllocator *the_allocator;

static void
log_error (GError * error)
{
  GST_ERROR ("%s", error->message);
  g_error_free (error);
}

/* Page-locked host copy, allocated on the first host map and kept with the
 * memory (pooled memories therefore allocate it once). */
static gboolean
ensure_host (AooctCudaMemory * cmem, GError ** error)
{
  if (cmem->host)
    return TRUE;
  return aooct_cuda_malloc_host (cmem->mem.maxsize, &cmem->host, error);
}

/* Called with the lock held and the context current. */
static gboolean
wait_idle (AooctCudaMemory * cmem, GError ** error)
{
  return !cmem->accessed || aooct_cuda_event_sync (cmem->last_access, error);
}

static gboolean
upload_host_now (AooctCudaMemory * cmem, GError ** error)
{
  if (!cmem->host_dirty)
    return TRUE;
  if (!wait_idle (cmem, error)
      || !aooct_cuda_upload_async (cmem->dptr, cmem->host, cmem->mem.maxsize,
          NULL, error)
      || !aooct_cuda_stream_sync (NULL, error))
    return FALSE;
  cmem->host_dirty = FALSE;
  return TRUE;
}

static gpointer
map_host (AooctCudaMemory * cmem, GstMapFlags flags, GError ** error)
{
  /* Whatever the GPU still does with this memory finishes first: a host
   * reader sees the producer's result, a host writer cannot race a
   * pending upload or reader. */
  if (!wait_idle (cmem, error) || !ensure_host (cmem, error))
    return NULL;
  if (!cmem->host_valid) {
    if (!aooct_cuda_download_async (cmem->host, cmem->dptr,
            cmem->mem.maxsize, NULL, error)
        || !aooct_cuda_stream_sync (NULL, error))
      return NULL;
    cmem->host_valid = TRUE;
  }
  if (flags & GST_MAP_WRITE)
    cmem->host_dirty = TRUE;
  return cmem->host;
}

static gpointer
aooct_cuda_memory_map (GstMemory * mem, GstMapInfo * info, gsize maxsize)
{
  AooctCudaMemory *cmem = (AooctCudaMemory *) mem;
  GError *error = NULL;
  gpointer ret = NULL;

  g_mutex_lock (&cmem->lock);
  if (!aooct_cuda_device_push_context (cmem->context, "mapping a buffer",
          &error))
    goto out;
  if (info->flags & AOOCT_MAP_CUDA) {
    if (upload_host_now (cmem, &error)) {
      if (info->flags & GST_MAP_WRITE)
        cmem->host_valid = FALSE;
      ret = cmem->dptr;
    }
  } else {
    ret = map_host (cmem, info->flags, &error);
  }
  aooct_cuda_device_pop_context ();
out:
  g_mutex_unlock (&cmem->lock);
  if (error)
    log_error (error);
  return ret;
}

static void
aooct_cuda_memory_unmap (GstMemory * mem, GstMapInfo * info)
{
}

static GstMemory *
aooct_cuda_memory_copy (GstMemory * mem, gssize offset, gssize size)
{
  AooctCudaMemory *src = (AooctCudaMemory *) mem, *dst;
  GstMemory *copy;
  GstMapInfo map;
  GError *error = NULL;

  if (size == -1)
    size = mem->size > (gsize) offset ? mem->size - offset : 0;
  copy = aooct_cuda_memory_alloc (src->context, size, &error);
  if (copy == NULL) {
    log_error (error);
    return NULL;
  }
  if (!gst_memory_map (mem, &map, GST_MAP_READ)) {
    gst_memory_unref (copy);
    return NULL;
  }
  /* through the host: copies are rare (nothing in an aooct chain makes
   * them), and this keeps them independent of any element's stream */
  dst = (AooctCudaMemory *) copy;
  if (!aooct_cuda_device_push_context (dst->context, "copying a buffer",
          &error)) {
    gst_memory_unmap (mem, &map);
    gst_memory_unref (copy);
    log_error (error);
    return NULL;
  }
  if (ensure_host (dst, &error)) {
    memcpy (dst->host, map.data + offset, size);
    dst->host_valid = TRUE;
    dst->host_dirty = TRUE;
  }
  aooct_cuda_device_pop_context ();
  gst_memory_unmap (mem, &map);
  if (error) {
    gst_memory_unref (copy);
    log_error (error);
    return NULL;
  }
  return copy;
}

static GstMemory *
aooct_cuda_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  /* sub-ranges of a device block are not supported: gst_buffer_copy of a
   * region then falls back to a copy */
  return NULL;
}

static GstMemory *
aooct_cuda_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  g_critical ("aooct CUDA memory needs a CUDA context: use "
      "aooct_cuda_memory_alloc()");
  return NULL;
}

static void
aooct_cuda_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  AooctCudaMemory *cmem = (AooctCudaMemory *) mem;

  if (gst_cuda_context_push (cmem->context)) {
    /* cudaFree waits for work on the block; the event goes after it */
    aooct_cuda_free (cmem->dptr);
    aooct_cuda_event_free (cmem->last_access);
    aooct_cuda_free_host (cmem->host);
    aooct_cuda_device_pop_context ();
  } else {
    GST_ERROR ("cannot make the CUDA context current: leaking %"
        G_GSIZE_FORMAT " bytes of device memory", mem->maxsize);
  }
  gst_object_unref (cmem->context);
  g_mutex_clear (&cmem->lock);
  g_free (cmem);
}

static void
aooct_cuda_allocator_class_init (AooctCudaAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = aooct_cuda_allocator_alloc;
  allocator_class->free = aooct_cuda_allocator_free;
}

static void
aooct_cuda_allocator_init (AooctCudaAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = AOOCT_CUDA_MEMORY_TYPE;
  alloc->mem_map_full = aooct_cuda_memory_map;
  alloc->mem_unmap_full = aooct_cuda_memory_unmap;
  alloc->mem_copy = aooct_cuda_memory_copy;
  alloc->mem_share = aooct_cuda_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

void
aooct_cuda_memory_init_once (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (aooct_cuda_memory_debug, "aooctcudamemory", 0,
        "aooct CUDA device memory");
    the_allocator = g_object_new (AOOCT_TYPE_CUDA_ALLOCATOR, NULL);
    gst_object_ref_sink (the_allocator);
    GST_OBJECT_FLAG_SET (the_allocator, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    gst_allocator_register (AOOCT_CUDA_MEMORY_TYPE,
        gst_object_ref (the_allocator));
    g_once_init_leave (&done, 1);
  }
}

gboolean
aooct_is_cuda_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && AOOCT_IS_CUDA_ALLOCATOR (mem->allocator);
}

GstMemory *
aooct_cuda_memory_alloc (GstCudaContext * context, gsize size, GError ** error)
{
  AooctCudaMemory *cmem;
  gboolean ok;

  aooct_cuda_memory_init_once ();
  if (!aooct_cuda_device_push_context (context, "allocating a buffer", error))
    return NULL;
  cmem = g_new0 (AooctCudaMemory, 1);
  ok = aooct_cuda_malloc (size, &cmem->dptr, error)
      && aooct_cuda_event_new (&cmem->last_access, error);
  if (!ok) {
    aooct_cuda_free (cmem->dptr);
    aooct_cuda_device_pop_context ();
    g_free (cmem);
    return NULL;
  }
  aooct_cuda_device_pop_context ();
  g_mutex_init (&cmem->lock);
  cmem->context = gst_object_ref (context);
  /* Not GST_MEMORY_FLAG_NO_SHARE: with it, gst_buffer_copy() (appsrc
   * users, gst_buffer_make_writable) deep-copies the memory, which here
   * means a cudaMalloc, a download, a synchronous upload and a cudaFree
   * per buffer.  Without it a copy shares the block (read-only, GStreamer's
   * copy-on-write applies); sub-ranges still copy (share returns NULL). */
  gst_memory_init (GST_MEMORY_CAST (cmem), 0, the_allocator, NULL, size, 0, 0,
      size);
  return GST_MEMORY_CAST (cmem);
}

AooctCudaMemory *
aooct_cuda_memory_of_buffer (GstBuffer * buffer, GstCudaContext * context)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!aooct_is_cuda_memory (mem) || mem->offset != 0)
    return NULL;
  /* another device's memory goes through the host (correct, not fast) */
  if (((AooctCudaMemory *) mem)->context != context)
    return NULL;
  return (AooctCudaMemory *) mem;
}

gboolean
aooct_cuda_memory_begin_access (AooctCudaMemory * cmem,
    AooctCudaStream stream, GError ** error)
{
  gboolean ok;

  g_mutex_lock (&cmem->lock);
  ok = upload_host_now (cmem, error) && (!cmem->accessed
      || aooct_cuda_stream_wait (stream, cmem->last_access, error));
  if (ok) {
    cmem->began_on = stream;
    cmem->began_at = cmem->records;
  }
  g_mutex_unlock (&cmem->lock);
  return ok;
}

gboolean
aooct_cuda_memory_end_access (AooctCudaMemory * cmem, AooctCudaStream stream,
    gboolean wrote, GError ** error)
{
  gboolean ok;

  /* Waiting again chains this record after any access that another
   * thread recorded since our begin_access (two readers behind a tee):
   * the event then stands for all of them, and a producer that reuses the
   * memory waits for every reader.  Where nobody began an access or
   * recorded since ours (a plain chain: always), our stream already waits
   * for what the event holds, and the second wait is skipped (one CUDA
   * call less per memory and element on the streaming thread). */
  g_mutex_lock (&cmem->lock);
  ok = (!cmem->accessed || (cmem->began_on == stream
          && cmem->began_at == cmem->records)
      || aooct_cuda_stream_wait (stream, cmem->last_access, error))
      && aooct_cuda_event_record (cmem->last_access, stream, error);
  if (ok) {
    cmem->accessed = TRUE;
    cmem->records++;
  }
  cmem->began_on = NULL;
  if (wrote)
    cmem->host_valid = FALSE;
  g_mutex_unlock (&cmem->lock);
  return ok;
}
