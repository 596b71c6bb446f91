/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: buffer pools of aooct CUDA memory (see aooct-cuda-pool.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-cuda-pool.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-host-memory.h"
#include "aooct-error.h"

GST_DEBUG_CATEGORY_STATIC (aooct_cuda_pool_debug);
#define GST_CAT_DEFAULT aooct_cuda_pool_debug

struct _AooctCudaBufferPool
{
  GstBufferPool parent;

  GstCudaContext *context;
  /* page-locked host memory from this allocator; NULL: device memory */
  GstAllocator *host_allocator;
  GstAllocationParams params;   /* of the host allocations */
  guint size;
  GError *last_error;           /* of alloc_buffer, under the object lock */
};

#define aooct_cuda_buffer_pool_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (AooctCudaBufferPool, aooct_cuda_buffer_pool,
    GST_TYPE_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (aooct_cuda_pool_debug, "aooctcudapool", 0,
        "aooct CUDA buffer pool"));

static const gchar **
aooct_cuda_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *page_locked[] = {
    AOOCT_BUFFER_POOL_OPTION_PAGE_LOCKED, NULL
  };
  static const gchar *none[] = { NULL };

  return AOOCT_CUDA_BUFFER_POOL (pool)->host_allocator ? page_locked : none;
}

static gboolean
aooct_cuda_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  AooctCudaBufferPool *self = AOOCT_CUDA_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || size == 0) {
    GST_WARNING_OBJECT (pool, "invalid config (no buffer size)");
    return FALSE;
  }
  self->size = size;
  if (self->host_allocator) {
    /* upstream's alignment, prefix and padding, but always our allocator */
    gst_allocation_params_init (&self->params);
    gst_buffer_pool_config_get_allocator (config, NULL, &self->params);
    gst_buffer_pool_config_set_allocator (config, self->host_allocator,
        &self->params);
  }
  return GST_BUFFER_POOL_CLASS (parent_class)->set_config (pool, config);
}

static GstFlowReturn
aooct_cuda_buffer_pool_alloc (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  AooctCudaBufferPool *self = AOOCT_CUDA_BUFFER_POOL (pool);
  GError *error = NULL;
  GstMemory *mem;

  if (self->host_allocator) {
    mem = gst_allocator_alloc (self->host_allocator, self->size, &self->params);
    if (mem == NULL)            /* the allocator logged CUDA's error */
      g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "cannot allocate %u bytes of page-locked memory", self->size);
  } else {
    mem = aooct_cuda_memory_alloc (self->context, self->size, &error);
  }
  if (mem == NULL) {
    GST_ERROR_OBJECT (pool, "%s", error->message);
    GST_OBJECT_LOCK (self);
    g_clear_error (&self->last_error);
    self->last_error = error;
    GST_OBJECT_UNLOCK (self);
    return GST_FLOW_ERROR;
  }
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  return GST_FLOW_OK;
}

static void
aooct_cuda_buffer_pool_finalize (GObject * object)
{
  AooctCudaBufferPool *self = AOOCT_CUDA_BUFFER_POOL (object);

  gst_clear_object (&self->context);
  gst_clear_object (&self->host_allocator);
  g_clear_error (&self->last_error);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
aooct_cuda_buffer_pool_class_init (AooctCudaBufferPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = aooct_cuda_buffer_pool_finalize;
  pool_class->get_options = aooct_cuda_buffer_pool_get_options;
  pool_class->set_config = aooct_cuda_buffer_pool_set_config;
  pool_class->alloc_buffer = aooct_cuda_buffer_pool_alloc;
}

static void
aooct_cuda_buffer_pool_init (AooctCudaBufferPool * self)
{
}

static GstBufferPool *
pool_new (GstCudaContext * context, gboolean page_locked)
{
  AooctCudaBufferPool *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (AOOCT_TYPE_CUDA_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  if (page_locked)
    self->host_allocator = aooct_cuda_host_allocator_new (context);
  return GST_BUFFER_POOL_CAST (self);
}

GstBufferPool *
aooct_cuda_buffer_pool_new (GstCudaContext * context)
{
  return pool_new (context, FALSE);
}

GstBufferPool *
aooct_cuda_buffer_pool_new_page_locked (GstCudaContext * context)
{
  return pool_new (context, TRUE);
}

GError *
aooct_cuda_buffer_pool_take_error (GstBufferPool * pool)
{
  AooctCudaBufferPool *self;
  GError *error;

  if (!AOOCT_IS_CUDA_BUFFER_POOL (pool))
    return NULL;
  self = AOOCT_CUDA_BUFFER_POOL (pool);
  GST_OBJECT_LOCK (self);
  error = self->last_error;
  self->last_error = NULL;
  GST_OBJECT_UNLOCK (self);
  return error;
}

GstAllocator *
aooct_cuda_buffer_pool_get_host_allocator (GstBufferPool * pool)
{
  AooctCudaBufferPool *self;

  if (!AOOCT_IS_CUDA_BUFFER_POOL (pool))
    return NULL;
  self = AOOCT_CUDA_BUFFER_POOL (pool);
  return self->host_allocator ? gst_object_ref (self->host_allocator) : NULL;
}
