/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: page-locked host memory for frames entering aooctdcsub on CUDA.
 *
 * Ordinary system memory to everyone who maps it (READ and WRITE give the
 * same host pointer, no copy), but allocated with cudaHostAlloc (portable:
 * page-locked for every CUDA context), so that aooctdcsub uploads a frame
 * from it with one asynchronous copy, without the host copy into its
 * staging.  aooctdcsub proposes a pool of it upstream for video/x-raw in
 * system memory (aooct-cuda-pool.h); the element keeps a reference
 * to every such input buffer until its copy has completed (see
 * aooct-cuda-element.h and docs/cuda-memory.md).
 *
 * The allocator keeps the GstCudaContext it allocates on and makes it
 * current to allocate and to free, so memory may outlive the element that
 * proposed it (an upstream pool is freed when upstream stops). */
#ifndef __AOOCT_CUDA_HOST_MEMORY_H__
#define __AOOCT_CUDA_HOST_MEMORY_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define AOOCT_CUDA_HOST_MEMORY_TYPE "aooct.cuda.host"

#define AOOCT_TYPE_CUDA_HOST_ALLOCATOR (aooct_cuda_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (AooctCudaHostAllocator, aooct_cuda_host_allocator,
    AOOCT, CUDA_HOST_ALLOCATOR, GstAllocator);

/* An allocator of page-locked memory on @context. */
GstAllocator *aooct_cuda_host_allocator_new (GstCudaContext * context);

/* TRUE when @mem is page-locked memory of this type and the @size bytes
 * at @data lie inside it (e.g. the mapped plane of a frame in it). */
gboolean aooct_cuda_host_memory_holds (GstMemory * mem, gconstpointer data,
    gsize size);

/* Memory of @allocator's type over @size bytes at @data that the caller has
 * page-locked itself (a window of a file mapping registered with
 * aooct_cuda_host_register_read_only: aooctfilesrc), so that
 * aooct_cuda_host_memory_holds() accepts it and aooctdcsub uploads it in
 * place.  Read-only (GST_MEMORY_FLAG_READONLY); @notify (@user_data) runs
 * when the memory is freed. */
GstMemory *aooct_cuda_host_memory_wrap (GstAllocator * allocator,
    gpointer data, gsize size, gpointer user_data, GDestroyNotify notify);

/* The context @allocator allocates on (a new reference). */
GstCudaContext *aooct_cuda_host_allocator_get_context (GstAllocator *
    allocator);

G_END_DECLS

#endif /* __AOOCT_CUDA_HOST_MEMORY_H__ */
