/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: buffer pools of aooct CUDA memory, one block per buffer,
 * allocated when the pool fills and reused afterwards (no allocation per
 * buffer in steady state).  Two kinds, one class:
 *
 *  - device memory (aooct-cuda-memory.h): the output pools of the elements
 *    and what aooctdcsub proposes for CUDA-memory input;
 *  - page-locked host memory (aooct-cuda-host-memory.h): what aooctdcsub
 *    on CUDA proposes upstream for video/x-raw in system memory, so that a
 *    source writing into it saves the staging copy.  Such a pool always
 *    allocates from its own allocator, whatever upstream puts into the
 *    config (GstBaseSrc puts the query's, none here): the memory type is
 *    its whole point.  It carries the option
 *    AOOCT_BUFFER_POOL_OPTION_PAGE_LOCKED, by which applications and the
 *    tests recognise it among the proposed pools. */
#ifndef __AOOCT_CUDA_POOL_H__
#define __AOOCT_CUDA_POOL_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define AOOCT_BUFFER_POOL_OPTION_PAGE_LOCKED "AooctBufferPoolOptionPageLocked"

#define AOOCT_TYPE_CUDA_BUFFER_POOL (aooct_cuda_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (AooctCudaBufferPool, aooct_cuda_buffer_pool, AOOCT,
    CUDA_BUFFER_POOL, GstBufferPool);

/* device memory on @context */
GstBufferPool *aooct_cuda_buffer_pool_new (GstCudaContext * context);
/* page-locked host memory registered with @context */
GstBufferPool *aooct_cuda_buffer_pool_new_page_locked (GstCudaContext *
    context);

/* Why the last allocation of @pool failed (CUDA's message), or NULL;
 * GstBufferPool itself only reports GST_FLOW_ERROR, and the user must learn
 * that device memory ran out. */
GError *aooct_cuda_buffer_pool_take_error (GstBufferPool * pool);

/* The page-locked host allocator of a pool made by
 * aooct_cuda_buffer_pool_new_page_locked (a new reference), else NULL. */
GstAllocator *aooct_cuda_buffer_pool_get_host_allocator (GstBufferPool *
    pool);

G_END_DECLS

#endif /* __AOOCT_CUDA_POOL_H__ */
