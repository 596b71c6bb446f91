/* aooct: buffer pool of page-locked host memory (aooct-cuda-host-memory.h),
 * the pool aooctdcsub on CUDA proposes upstream for video/x-raw in system
 * memory.  One block per buffer, allocated when the pool fills and reused
 * afterwards.  The pool always allocates from its own allocator, whatever
 * allocator upstream puts into the config (GstBaseSrc puts the one of the
 * query's allocation params, none here): its whole point is the memory
 * type. */
#ifndef __AOOCT_CUDA_HOST_POOL_H__
#define __AOOCT_CUDA_HOST_POOL_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define AOOCT_TYPE_CUDA_HOST_POOL (aooct_cuda_host_pool_get_type ())
G_DECLARE_FINAL_TYPE (AooctCudaHostPool, aooct_cuda_host_pool, AOOCT,
    CUDA_HOST_POOL, GstBufferPool);

GstBufferPool *aooct_cuda_host_pool_new (GstCudaContext * context);

G_END_DECLS

#endif /* __AOOCT_CUDA_HOST_POOL_H__ */
