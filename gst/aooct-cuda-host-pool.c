/* aooct: buffer pool of page-locked host memory (see aooct-cuda-host-pool.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-cuda-host-pool.h"
#include "aooct-cuda-host-memory.h"

GST_DEBUG_CATEGORY_STATIC (aooct_cuda_host_pool_debug);
#define GST_CAT_DEFAULT aooct_cuda_host_pool_debug

struct _AooctCudaHostPool
{
  GstBufferPool parent;

  GstAllocator *allocator;
  guint size;
  GstAllocationParams params;
};

#define aooct_cuda_host_pool_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (AooctCudaHostPool, aooct_cuda_host_pool,
    GST_TYPE_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (aooct_cuda_host_pool_debug, "aooctcudahostpool",
        0, "aooct page-locked host buffer pool"));

static gboolean
aooct_cuda_host_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  AooctCudaHostPool *self = AOOCT_CUDA_HOST_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || size == 0) {
    GST_WARNING_OBJECT (pool, "invalid config (no buffer size)");
    return FALSE;
  }
  self->size = size;
  /* upstream's alignment, prefix and padding, but always our allocator */
  gst_allocation_params_init (&self->params);
  gst_buffer_pool_config_get_allocator (config, NULL, &self->params);
  gst_buffer_pool_config_set_allocator (config, self->allocator, &self->params);
  return GST_BUFFER_POOL_CLASS (parent_class)->set_config (pool, config);
}

static GstFlowReturn
aooct_cuda_host_pool_alloc (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  AooctCudaHostPool *self = AOOCT_CUDA_HOST_POOL (pool);
  GstMemory *mem = gst_allocator_alloc (self->allocator, self->size,
      &self->params);

  if (mem == NULL) {
    /* the allocator logged the CUDA error */
    GST_ERROR_OBJECT (pool, "cannot allocate %u bytes of page-locked memory",
        self->size);
    return GST_FLOW_ERROR;
  }
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  return GST_FLOW_OK;
}

static void
aooct_cuda_host_pool_finalize (GObject * object)
{
  AooctCudaHostPool *self = AOOCT_CUDA_HOST_POOL (object);

  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
aooct_cuda_host_pool_class_init (AooctCudaHostPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = aooct_cuda_host_pool_finalize;
  pool_class->set_config = aooct_cuda_host_pool_set_config;
  pool_class->alloc_buffer = aooct_cuda_host_pool_alloc;
}

static void
aooct_cuda_host_pool_init (AooctCudaHostPool * self)
{
}

GstBufferPool *
aooct_cuda_host_pool_new (GstCudaContext * context)
{
  AooctCudaHostPool *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (AOOCT_TYPE_CUDA_HOST_POOL, NULL);
  gst_object_ref_sink (self);
  self->allocator = aooct_cuda_host_allocator_new (context);
  return GST_BUFFER_POOL_CAST (self);
}
