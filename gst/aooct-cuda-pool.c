/* aooct: buffer pool of aooct CUDA memory (see aooct-cuda-pool.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-cuda-pool.h"
#include "aooct-cuda-memory.h"

GST_DEBUG_CATEGORY_STATIC (aooct_cuda_pool_debug);
#define GST_CAT_DEFAULT aooct_cuda_pool_debug

struct _AooctCudaBufferPool
{
  GstBufferPool parent;

  GstCudaContext *context;
  guint size;
  GError *last_error;           /* of alloc_buffer, under the object lock */
};

#define aooct_cuda_buffer_pool_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (AooctCudaBufferPool, aooct_cuda_buffer_pool,
    GST_TYPE_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (aooct_cuda_pool_debug, "aooctcudapool", 0,
        "aooct CUDA buffer pool"));

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
  return GST_BUFFER_POOL_CLASS (parent_class)->set_config (pool, config);
}

static GstFlowReturn
aooct_cuda_buffer_pool_alloc (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  AooctCudaBufferPool *self = AOOCT_CUDA_BUFFER_POOL (pool);
  GError *error = NULL;
  GstMemory *mem = aooct_cuda_memory_alloc (self->context, self->size,
      &error);

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
  g_clear_error (&self->last_error);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
aooct_cuda_buffer_pool_class_init (AooctCudaBufferPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = aooct_cuda_buffer_pool_finalize;
  pool_class->set_config = aooct_cuda_buffer_pool_set_config;
  pool_class->alloc_buffer = aooct_cuda_buffer_pool_alloc;
}

static void
aooct_cuda_buffer_pool_init (AooctCudaBufferPool * self)
{
}

GstBufferPool *
aooct_cuda_buffer_pool_new (GstCudaContext * context)
{
  AooctCudaBufferPool *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (AOOCT_TYPE_CUDA_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_BUFFER_POOL_CAST (self);
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
