/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: device memory for application/x-aooct buffers on a GstCudaContext.
 *
 * libgstcuda's own GstCudaMemory is tied to a GstVideoInfo, its 1.22
 * allocator rejects GRAY formats (it asserts) and its 1.24 one changed
 * signature, so aooct buffers carry memory of their own type
 * ("aooct.cuda.memory"): one linear cudaMalloc block of the buffer's size on
 * the pipeline's shared GstCudaContext.  Caps: application/x-aooct with the
 * memory:CUDAMemory feature.
 *
 * Synchronisation rule (docs/cuda-memory.md): each memory carries one CUDA
 * event marking the end of the last GPU work enqueued on it, read or write.
 * Every element that touches the memory on the GPU calls
 * aooct_cuda_memory_begin_access() (its stream waits for that event: the
 * previous producer or reader is ordered before it, with no host wait),
 * enqueues its work, and calls aooct_cuda_memory_end_access() (the event is
 * re-recorded on its stream).  A host map waits for the event, so a generic
 * sink that maps the buffer reads finished data.  Hence a producer's work is
 * either complete or ordered before any consumer touches the memory, and a
 * pooled memory is never overwritten while a reader still uses it.
 *
 * Mapping without GST_MAP_CUDA gives a host copy (downloaded on demand into
 * page-locked memory kept with the GstMemory); a host write is uploaded
 * before the next GPU access.  Mapping with AOOCT_MAP_CUDA gives the device
 * pointer (after a pending host write is uploaded) but no ordering: use the
 * access functions. */
#ifndef __AOOCT_CUDA_MEMORY_H__
#define __AOOCT_CUDA_MEMORY_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

#include "aooct-cuda.h"

G_BEGIN_DECLS

#define AOOCT_CUDA_MEMORY_TYPE "aooct.cuda.memory"

/* The caps feature of buffers in this memory (the same string as
 * GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY). */
#define AOOCT_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"

/* Same bit as libgstcuda's GST_MAP_CUDA: map the device pointer. */
#define AOOCT_MAP_CUDA ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))

typedef struct _AooctCudaMemory AooctCudaMemory;

struct _AooctCudaMemory
{
  GstMemory mem;

  GstCudaContext *context;
  gpointer dptr;                /* device block of mem.maxsize bytes */

  /*< private >*/
  GMutex lock;
  AooctCudaEvent last_access;   /* end of the last GPU work on dptr */
  gboolean accessed;            /* last_access has been recorded */
  guint64 records;              /* times last_access has been recorded */
  /* the stream that last began an access, and how many records it found:
   * its end_access need not wait again if there has been none since */
  AooctCudaStream began_on;
  guint64 began_at;
  gpointer host;                /* page-locked host copy, on first map */
  gboolean host_valid;          /* host holds what dptr holds */
  gboolean host_dirty;          /* host was written: upload before use */
};

void aooct_cuda_memory_init_once (void);

gboolean aooct_is_cuda_memory (GstMemory * mem);

/* A new memory of @size bytes on @context (which must be current or
 * pushable from this thread). */
GstMemory *aooct_cuda_memory_alloc (GstCudaContext * context, gsize size,
    GError ** error);

/* The single AooctCudaMemory of @buffer on @context, or NULL when the
 * buffer holds anything else (then map it on the host). */
AooctCudaMemory *aooct_cuda_memory_of_buffer (GstBuffer * buffer,
    GstCudaContext * context);

/* The synchronisation rule (see above); @context current.  @wrote: the
 * work enqueued since begin_access wrote the memory. */
gboolean aooct_cuda_memory_begin_access (AooctCudaMemory * mem,
    AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_memory_end_access (AooctCudaMemory * mem,
    AooctCudaStream stream, gboolean wrote, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_MEMORY_H__ */
