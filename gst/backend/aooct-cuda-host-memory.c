/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: page-locked host memory (see aooct-cuda-host-memory.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-cuda-host-memory.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda.h"

GST_DEBUG_CATEGORY_STATIC (aooct_cuda_host_debug);
#define GST_CAT_DEFAULT aooct_cuda_host_debug

struct _AooctCudaHostAllocator
{
  GstAllocator parent;

  GstCudaContext *context;
};

typedef struct
{
  GstMemory mem;

  gpointer block;               /* cudaHostAlloc'd; NULL in a shared part */
  guint8 *data;                 /* start of the mem.maxsize bytes */
  /* memory the caller page-locked (aooct_cuda_host_memory_wrap): called
   * when it is freed, instead of freeing a block */
  gpointer user_data;
  GDestroyNotify notify;
} AooctCudaHostMemory;

#define aooct_cuda_host_allocator_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (AooctCudaHostAllocator, aooct_cuda_host_allocator,
    GST_TYPE_ALLOCATOR,
    GST_DEBUG_CATEGORY_INIT (aooct_cuda_host_debug, "aooctcudahost", 0,
        "aooct page-locked host memory"));

static GstMemory *
aooct_cuda_host_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  AooctCudaHostAllocator *self = AOOCT_CUDA_HOST_ALLOCATOR (allocator);
  AooctCudaHostMemory *hmem;
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = params->prefix + size + params->padding;
  gpointer block = NULL;
  GError *error = NULL;
  guint8 *data;
  gboolean ok;

  /* cudaHostAlloc returns page-aligned blocks; room for larger masks */
  if (!aooct_cuda_device_push_context (self->context,
          "allocating page-locked input memory", &error)) {
    GST_ERROR_OBJECT (self, "%s", error->message);
    g_error_free (error);
    return NULL;
  }
  ok = aooct_cuda_malloc_host_portable (maxsize + align, &block, &error);
  aooct_cuda_device_pop_context ();
  if (!ok) {
    GST_ERROR_OBJECT (self, "%s", error->message);
    g_error_free (error);
    return NULL;
  }
  data = block;
  if (((guintptr) data & align) != 0)
    data += align + 1 - ((guintptr) data & align);

  hmem = g_new0 (AooctCudaHostMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (hmem), params->flags, allocator, NULL,
      maxsize, align, params->prefix, size);
  hmem->block = block;
  hmem->data = data;
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (data + params->prefix + size, 0, params->padding);
  return GST_MEMORY_CAST (hmem);
}

static void
aooct_cuda_host_free (GstAllocator * allocator, GstMemory * mem)
{
  AooctCudaHostAllocator *self = AOOCT_CUDA_HOST_ALLOCATOR (allocator);
  AooctCudaHostMemory *hmem = (AooctCudaHostMemory *) mem;
  GError *error = NULL;

  /* a shared part (mem.parent set) frees nothing: its parent does */
  if (hmem->block) {
    /* the block was allocated on this context: free it there, from
     * whatever thread drops the last reference */
    if (aooct_cuda_device_push_context (self->context,
            "freeing page-locked input memory", &error)) {
      aooct_cuda_free_host (hmem->block);
      aooct_cuda_device_pop_context ();
    } else {
      GST_ERROR_OBJECT (self, "%s; leaking %" G_GSIZE_FORMAT " bytes",
          error->message, mem->maxsize);
      g_error_free (error);
    }
  }
  if (hmem->notify)
    hmem->notify (hmem->user_data);
  g_free (hmem);
}

static gpointer
aooct_cuda_host_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  return ((AooctCudaHostMemory *) mem)->data;
}

static void
aooct_cuda_host_unmap (GstMemory * mem)
{
}

/* A part of the memory sharing its block (gst_buffer_copy_region, a
 * sub-buffer): still page-locked, so still uploaded without staging. */
static GstMemory *
aooct_cuda_host_share (GstMemory * mem, gssize offset, gssize size)
{
  AooctCudaHostMemory *hmem = (AooctCudaHostMemory *) mem, *sub;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  sub = g_new0 (AooctCudaHostMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      mem->allocator, parent, mem->maxsize, mem->align, mem->offset + offset,
      size);
  sub->data = hmem->data;
  return GST_MEMORY_CAST (sub);
}

static gboolean
aooct_cuda_host_is_span (GstMemory * mem1, GstMemory * mem2, gsize * offset)
{
  AooctCudaHostMemory *a = (AooctCudaHostMemory *) mem1;
  AooctCudaHostMemory *b = (AooctCudaHostMemory *) mem2;

  if (offset)
    *offset = mem1->offset - (mem1->parent ? mem1->parent->offset : 0);
  return a->data == b->data && mem1->offset + mem1->size == mem2->offset;
}

static void
aooct_cuda_host_allocator_finalize (GObject * object)
{
  AooctCudaHostAllocator *self = AOOCT_CUDA_HOST_ALLOCATOR (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
aooct_cuda_host_allocator_class_init (AooctCudaHostAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->finalize = aooct_cuda_host_allocator_finalize;
  allocator_class->alloc = aooct_cuda_host_alloc;
  allocator_class->free = aooct_cuda_host_free;
}

static void
aooct_cuda_host_allocator_init (AooctCudaHostAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = AOOCT_CUDA_HOST_MEMORY_TYPE;
  allocator->mem_map = aooct_cuda_host_map;
  allocator->mem_unmap = aooct_cuda_host_unmap;
  allocator->mem_share = aooct_cuda_host_share;
  allocator->mem_is_span = aooct_cuda_host_is_span;
  /* mem_copy: GstAllocator's fallback (a system-memory copy) */
}

GstAllocator *
aooct_cuda_host_allocator_new (GstCudaContext * context)
{
  AooctCudaHostAllocator *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (AOOCT_TYPE_CUDA_HOST_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
aooct_cuda_host_memory_holds (GstMemory * mem, gconstpointer data, gsize size)
{
  AooctCudaHostMemory *hmem = (AooctCudaHostMemory *) mem;
  const guint8 *p = data;

  if (mem == NULL || !AOOCT_IS_CUDA_HOST_ALLOCATOR (mem->allocator))
    return FALSE;
  return p >= hmem->data && size <= mem->maxsize
      && (gsize) (p - hmem->data) <= mem->maxsize - size;
}

GstMemory *
aooct_cuda_host_memory_wrap (GstAllocator * allocator, gpointer data,
    gsize size, gpointer user_data, GDestroyNotify notify)
{
  AooctCudaHostMemory *hmem;

  g_return_val_if_fail (AOOCT_IS_CUDA_HOST_ALLOCATOR (allocator), NULL);
  hmem = g_new0 (AooctCudaHostMemory, 1);
  /* read-only: the bytes are a file's page cache, mapped PROT_READ */
  gst_memory_init (GST_MEMORY_CAST (hmem), GST_MEMORY_FLAG_READONLY |
      GST_MEMORY_FLAG_NO_SHARE, allocator, NULL, size, 0, 0, size);
  hmem->data = data;
  hmem->user_data = user_data;
  hmem->notify = notify;
  return GST_MEMORY_CAST (hmem);
}

GstCudaContext *
aooct_cuda_host_allocator_get_context (GstAllocator * allocator)
{
  g_return_val_if_fail (AOOCT_IS_CUDA_HOST_ALLOCATOR (allocator), NULL);
  return gst_object_ref (AOOCT_CUDA_HOST_ALLOCATOR (allocator)->context);
}
