/* aooct: buffer pool of aooct CUDA memory (one device block per buffer,
 * allocated when the pool starts, reused afterwards: no allocation per
 * buffer in steady state). */
#ifndef __AOOCT_CUDA_POOL_H__
#define __AOOCT_CUDA_POOL_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define AOOCT_TYPE_CUDA_BUFFER_POOL (aooct_cuda_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (AooctCudaBufferPool, aooct_cuda_buffer_pool, AOOCT,
    CUDA_BUFFER_POOL, GstBufferPool);

GstBufferPool *aooct_cuda_buffer_pool_new (GstCudaContext * context);

/* Why the last allocation of @pool failed (CUDA's message), or NULL;
 * GstBufferPool itself only reports GST_FLOW_ERROR, and the user must learn
 * that device memory ran out. */
GError *aooct_cuda_buffer_pool_take_error (GstBufferPool * pool);

G_END_DECLS

#endif /* __AOOCT_CUDA_POOL_H__ */
