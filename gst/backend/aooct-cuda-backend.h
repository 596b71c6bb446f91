/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the CUDA backend of GstAooctFilter, as the base class sees it:
 * one opaque object and the calls below, nothing else (docs/architecture.md,
 * "The base class in layers").  Everything behind it is the backend's own
 * (gst/backend/aooct-cuda-*.c, aooct-output-ring.c): the element's CUDA
 * context and streams, staging, uploads, GstCudaMemory in and out, the
 * output ring, and the output task that pushes the ring's images on the
 * element's src pad as their GPU work completes.
 *
 *   lifetime     new / free, share_context (GstContext, before start too)
 *   running      open / close (start, stop), with_context (the step's
 *                plan made, drained and freed on the GPU's terms)
 *   one buffer   transform
 *   its output   wait_space, then output (into the ring for the task,
 *                or back to the caller to push)
 *   the stream   sync (drain, EOS, flushes, state changes, new caps)
 *   figures      get_stats
 *   memory       pool_new, pool_error, holds
 *
 * Built only with CUDA; the base class includes it under HAVE_CUDA. */
#ifndef __AOOCT_CUDA_BACKEND_H__
#define __AOOCT_CUDA_BACKEND_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "aooct-cuda-types.h"

G_BEGIN_DECLS

AooctCudaBackend *aooct_cuda_backend_new (const AooctCudaBackendHost * host);
void aooct_cuda_backend_free (AooctCudaBackend * be);

/* GstContext sharing, for the element's set_context (@context) and its
 * context query (@query, TRUE when answered); either may be NULL. */
gboolean aooct_cuda_backend_share_context (AooctCudaBackend * be,
    gint device_id, GstContext * context, GstQuery * query);

/* At start: checks the device, finds or creates the pipeline's shared
 * context for it, creates the streams.  FALSE with the reason when CUDA
 * cannot be used (the backend is then closed). */
gboolean aooct_cuda_backend_open (AooctCudaBackend * be,
    const AooctCudaOpen * settings, GError ** error);
/* At stop: waits for the GPU, frees everything of the run; the context
 * goes with free(). */
void aooct_cuda_backend_close (AooctCudaBackend * be);

/* Runs @func (@data, @error) with the backend's CUDA context current on
 * this thread: the step's plan_new, plan_free and drain (aooct-step.h)
 * allocate, free and wait on the GPU.  FALSE with the reason where the
 * context cannot be made current (@func not run), else what @func
 * returned. */
typedef gboolean (*AooctCudaContextFunc) (gpointer data, GError ** error);
gboolean aooct_cuda_backend_with_context (AooctCudaBackend * be,
    AooctCudaContextFunc func, gpointer data, GError ** error);

/* One buffer on the GPU: @inbuf onto the GPU (in place where it is
 * device memory on our context), the step's core on device planes,
 * @outbuf's image on its way off the GPU.  A group passes one buffer
 * only (gst_aooct_filter_collect / _emit).  FALSE with @error set (the
 * caller posts it). */
gboolean aooct_cuda_backend_transform (AooctCudaBackend * be,
    const AooctCudaBuffer * b, GstBuffer * inbuf, GstBuffer * outbuf,
    GError ** error);

/* Before an output of @out is made: where images leave the GPU here,
 * waits while the output ring is full.  GST_FLOW_OK, FLUSHING, or the
 * output task's last failed push. */
GstFlowReturn aooct_cuda_backend_wait_space (AooctCudaBackend * be,
    const AooctOutputDesc * out);
/* The output that transform made with @ret (@made, taken): where its data
 * leave the GPU, into the ring for the output task (started here; *@direct
 * NULL); else, complete, in *@direct for the caller to push.  On a failed
 * @ret, what transform armed is forgotten and @ret returned. */
GstFlowReturn aooct_cuda_backend_output (AooctCudaBackend * be,
    const AooctOutputDesc * out, GstFlowReturn ret, GstBuffer * made,
    GstBuffer ** direct);

/* The output task around the stream's events and the state changes. */
typedef enum
{
  /* a serialized event or query, new caps, a group's next image: the
   * outputs in flight leave first */
  AOOCT_CUDA_SYNC_DRAIN,
  /* EOS: drain, then the GPU timing still in flight */
  AOOCT_CUDA_SYNC_EOS,
  /* flush-start, before it goes downstream: every wait wakes */
  AOOCT_CUDA_SYNC_FLUSH_START,
  /* ... after it went downstream (which unblocks a push): the output task
   * paused */
  AOOCT_CUDA_SYNC_FLUSH_FORWARDED,
  /* flush-stop: the outputs in flight dropped, waits work again */
  AOOCT_CUDA_SYNC_FLUSH_STOP,
  /* READY to PAUSED: waits work */
  AOOCT_CUDA_SYNC_ACTIVATE,
  /* PAUSED to READY, before the pads deactivate: every wait wakes, the
   * output task stopped */
  AOOCT_CUDA_SYNC_DEACTIVATE,
  /* new caps (after a drain), before the plan of the old ones is freed:
   * the GPU work that may read it has completed, and what was sized for
   * those caps (staging, planes, kept CUDA graphs) is freed */
  AOOCT_CUDA_SYNC_RELEASE,
} AooctCudaSync;

void aooct_cuda_backend_sync (AooctCudaBackend * be, AooctCudaSync what);

void aooct_cuda_backend_get_stats (AooctCudaBackend * be,
    AooctCudaStats * stats);

/* The pools the backend makes for the element's ALLOCATION queries, each
 * configured for @caps, @size bytes, @min and @max buffers. */
typedef enum
{
  /* aooct device memory on our context (memory:CUDAMemory outputs, and
   * video frames written on the GPU upstream) */
  AOOCT_CUDA_POOL_DEVICE,
  /* page-locked host memory, downloaded into straight (host outputs) */
  AOOCT_CUDA_POOL_HOST_OUTPUT,
  /* page-locked host memory for frames uploaded in place (proposed
   * upstream of a video element); @min at least what the backend holds */
  AOOCT_CUDA_POOL_HOST_INPUT,
  /* libgstcuda GstCudaMemory for nvcodec (video outputs); @query: a
   * GstCudaBufferPool downstream proposed may lend its stream; *@size
   * is the pitched size */
  AOOCT_CUDA_POOL_VIDEO,
} AooctCudaPool;

/* NULL with @error where it cannot be made or configured.  @size: in,
 * the buffer size; out, the pool's (pitched for VIDEO). */
GstBufferPool *aooct_cuda_backend_pool_new (AooctCudaBackend * be,
    AooctCudaPool kind, GstCaps * caps, GstQuery * query, guint * size,
    guint min, guint max, GError ** error);
/* Why a pool of ours could not allocate (taken), or NULL. */
GError *aooct_cuda_backend_pool_error (GstBufferPool * pool);
/* @buf is one block of aooct device memory on the backend's context
 * (used in place, or carrying a deferred step). */
gboolean aooct_cuda_backend_holds (AooctCudaBackend * be, GstBuffer * buf);

G_END_DECLS
#endif /* __AOOCT_CUDA_BACKEND_H__ */
