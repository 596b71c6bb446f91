/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: the small plain-C API the elements use.
 *
 * Everything here runs on the CUDA context that is current on the calling
 * thread (the elements push their GstCudaContext around every call, so the
 * runtime API works on the pipeline's shared context, not on a primary
 * context of its own).  Every CUDA and cuFFT call is checked: a failure
 * returns FALSE with an AOOCT_ERROR_FAILED GError that names the operation
 * and carries the CUDA error name and string, e.g.
 * "cudaMalloc of 33554432 bytes failed: cudaErrorMemoryAllocation (out of
 * memory)".
 *
 * Stream handles are CUstream (struct CUstream_st *, which the runtime calls
 * cudaStream_t); events likewise CUevent.  The header declares the structs
 * only, so that it builds without CUDA headers.
 *
 * Each step's CUDA core lives in aooct-cuda-STEP.{h,cu}: an object made
 * for a geometry (its device tables and scratch), a process function
 * taking device pointers and a stream, which enqueues the step's kernels
 * (static in that .cu) and cuFFT executions on the stream and returns
 * without synchronising, and a free function.  The launch shape the
 * pointwise kernels share is aooct-cuda-launch.cuh; the kernels of the
 * fused pass before the FFT are aooct-cuda-steps.cu, launched by
 * aooct-cuda-prep.cu. */
#ifndef __AOOCT_CUDA_H__
#define __AOOCT_CUDA_H__

#include <glib.h>

G_BEGIN_DECLS

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st *AooctCudaStream;
typedef struct CUevent_st *AooctCudaEvent;

/* Device memory (cudaMalloc) and page-locked host memory (cudaMallocHost).
 * The free functions accept NULL; a failure there has nobody to report to
 * and is logged with g_warning. */
gboolean aooct_cuda_malloc (gsize size, gpointer * dptr, GError ** error);
void aooct_cuda_free (gpointer dptr);

/* Forgets an error that an earlier call on this thread (ours or the
 * application's) left as the runtime's "last error", so that the next
 * kernel-launch check does not report it as its own. */
void aooct_cuda_clear_stale_error (void);
gboolean aooct_cuda_malloc_host (gsize size, gpointer * hptr, GError ** error);
void aooct_cuda_free_host (gpointer hptr);
/* Page-locks @size bytes of host memory the caller mapped (a read-only
 * file mapping: the DMA reads the page cache in place) for every context
 * (cudaHostRegisterPortable | cudaHostRegisterReadOnly); undo with
 * aooct_cuda_host_unregister before unmapping. */
gboolean aooct_cuda_host_register_read_only (gpointer hptr, gsize size,
    GError ** error);
void aooct_cuda_host_unregister (gpointer hptr);
/* Page-locked host memory that every CUDA context treats as page-locked
 * (cudaHostAlloc with cudaHostAllocPortable): buffers handed to other
 * elements, which may run on another context.  Free with
 * aooct_cuda_free_host. */
gboolean aooct_cuda_malloc_host_portable (gsize size, gpointer * hptr,
    GError ** error);

/* A non-blocking stream (does not synchronise with the legacy stream). */
gboolean aooct_cuda_stream_new (AooctCudaStream * stream, GError ** error);
/* As aooct_cuda_stream_new(), with a priority @rank steps above the
 * lowest (0: the lowest, the default's; clamped to the device's highest):
 * where kernels of several streams wait, the GPU starts the blocks of the
 * higher one first. */
gboolean aooct_cuda_stream_new_ranked (AooctCudaStream * stream, int rank,
    GError ** error);
void aooct_cuda_stream_free (AooctCudaStream stream);
gboolean aooct_cuda_stream_sync (AooctCudaStream stream, GError ** error);

/* Events without timing, for ordering work between streams. */
gboolean aooct_cuda_event_new (AooctCudaEvent * event, GError ** error);
void aooct_cuda_event_free (AooctCudaEvent event);
gboolean aooct_cuda_event_record (AooctCudaEvent event,
    AooctCudaStream stream, GError ** error);
/* Work enqueued on @stream after this waits for @event (no host wait). */
gboolean aooct_cuda_stream_wait (AooctCudaStream stream,
    AooctCudaEvent event, GError ** error);
gboolean aooct_cuda_event_sync (AooctCudaEvent event, GError ** error);
/* Whether the work before @event's last record has finished (a
 * never-recorded event counts as finished); no host wait. */
gboolean aooct_cuda_event_done (AooctCudaEvent event, gboolean * done,
    GError ** error);

/* Events that keep a GPU timestamp, for measuring (CUDA events with
 * timing): the milliseconds of GPU time between two recorded events, both
 * finished (see aooct_cuda_event_done). */
gboolean aooct_cuda_timing_event_new (AooctCudaEvent * event,
    GError ** error);
gboolean aooct_cuda_event_elapsed_ms (AooctCudaEvent start,
    AooctCudaEvent end, gfloat * ms, GError ** error);

/* Copies.  The _async variants enqueue on @stream; their host side must be
 * page-locked (aooct_cuda_malloc_host) for the copy to be asynchronous and
 * must stay untouched until the stream has passed the copy. */
gboolean aooct_cuda_upload_async (gpointer dst, gconstpointer src,
    gsize size, AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_download_async (gpointer dst, gconstpointer src,
    gsize size, AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_memset_async (gpointer dst, gint value, gsize size,
    AooctCudaStream stream, GError ** error);
/* @rows rows of @width bytes, @pitch bytes apart, set to @value. */
gboolean aooct_cuda_memset_2d_async (gpointer dst, gsize pitch, gint value,
    gsize width, gsize rows, AooctCudaStream stream, GError ** error);
/* Synchronous upload of a table (setup time only): done on return. */
gboolean aooct_cuda_upload (gpointer dst, gconstpointer src, gsize size,
    GError ** error);
/* The same into new device memory *@dptr (at least 1 byte; free with
 * aooct_cuda_free, also on failure). */
gboolean aooct_cuda_upload_new (gpointer * dptr, gconstpointer src,
    gsize size, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_H__ */
