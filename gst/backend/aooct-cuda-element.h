/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: inside the CUDA backend (the base class sees only
 * aooct-cuda-backend.h): the backend's state, and what its files give
 * each other.
 *
 *   aooct-cuda-backend.c  the face: open/close, events, pools, the output
 *                         task that empties the output ring
 *   aooct-cuda-element.c  context, stream, GPU timing
 *   aooct-cuda-buffer.c   one buffer on the GPU (AooctCudaBuffer), the
 *                         step as a CUDA graph, outputs off the ring
 *   aooct-cuda-upload.c   host memory onto the GPU (staging, page-locked
 *                         input in place, device planes), host pool
 *   aooct-cuda-video.c    libgstcuda GstCudaMemory video in and out
 *   aooct-output-ring.c   outputs whose GPU work may still run (its own
 *                         object and lock)
 *   aooct-copy-rows.c     row copies into and out of page-locked staging
 *
 * Holds an element's GstCudaContext (shared with every CUDA element of the
 * pipeline through the GstContext mechanism), its CUDA stream, and the
 * staging needed when a buffer on a CUDA-backend element is in system
 * memory: the first element's camera frames, a CPU-only neighbour, or a
 * video/x-raw output.  Staging is page-locked, allocated once per caps and
 * reused; uploads are asynchronous copies on the element's stream. */
#ifndef __AOOCT_CUDA_ELEMENT_H__
#define __AOOCT_CUDA_ELEMENT_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include "aooct-cuda.h"
#include "aooct-output-ring.h"
#include "aooct-cuda-types.h"
#include "aooct-cuda-memory.h"

G_BEGIN_DECLS
GST_DEBUG_CATEGORY_EXTERN (aooct_cuda_element_debug);

#define AOOCT_CUDA_STAGING_SLOTS 2
/* Device planes that uploads alternate between (see in_dev below). */
#define AOOCT_CUDA_INPUT_PLANES 2
/* (AOOCT_CUDA_INPUT_HOLD, aooct-cuda-types.h: input buffers in
 * page-locked memory that are uploaded in place, without staging, and
 * whose copy may still be running: the backend holds a reference to at
 * most this many, fewer where the buffers' pool is smaller, as it would
 * fill as many staging slots.) */
/* GPU-time measurements of the CUDA plan's execute in flight at most (the oldest
 * is waited for when more would be). */
#define AOOCT_CUDA_TIMING_SLOTS 16
struct _AooctCudaBackend
{
  GstCudaContext *context;
  AooctCudaStream stream;

  /* host-memory input: a ring of page-locked slots, so that the host copy
   * of buffer i+1 overlaps the upload and kernels of buffer i */
  gpointer in_staging[AOOCT_CUDA_STAGING_SLOTS];
  AooctCudaEvent in_staging_free[AOOCT_CUDA_STAGING_SLOTS];
  guint in_slot;
  gsize in_size;

  /* Uploads run on a stream of their own into device planes used in turn,
   * so that the upload of the next frame goes on while the kernels of this
   * one still wait (for an output buffer that downstream has not released
   * yet): the copy engine stays busy, as with the copy and compute streams
   * of the thesis and of Jian et al.  A plane's upload waits for the
   * kernels that read it last (in_dev_free, recorded on `stream`), and the
   * kernels for their upload (in_dev_ready, recorded on copy_stream). */
  AooctCudaStream copy_stream;
  gpointer in_dev[AOOCT_CUDA_INPUT_PLANES];
  AooctCudaEvent in_dev_ready[AOOCT_CUDA_INPUT_PLANES];
  AooctCudaEvent in_dev_free[AOOCT_CUDA_INPUT_PLANES];
  guint in_plane;               /* the plane of the next upload */
  gint in_reading;              /* the plane of the buffer being processed,
                                 * or -1 */

  /* page-locked input (aooct-cuda-host-memory.h) uploaded in place: a
   * reference to each buffer whose copy may still run, with an event
   * recorded after the copy, dropped once that event has completed (at
   * the latest when the slot is reused, or at teardown); and how many the
   * pool of the last such buffer lets us hold */
  GstBuffer *in_held[AOOCT_CUDA_INPUT_HOLD];
  AooctCudaEvent in_held_done[AOOCT_CUDA_INPUT_HOLD];
  guint in_held_next;
  GstBufferPool *in_hold_pool;
  guint in_hold_limit;

  /* orders our stream with the stream of a GstCudaMemory input */
  AooctCudaEvent in_foreign;

  /* GstCudaMemory video output (GStreamer >= 1.24): the GstCudaStream our
   * pool gives its memory, so that nvcodec consumers order themselves after
   * our work on the GPU (docs/cuda-memory.md); the event that orders it
   * with our stream both ways; the stream of the output being made, or
   * NULL (memory without a stream: 1.22, or none could be made) */
  struct _GstCudaStream *out_gst_stream;
  AooctCudaEvent out_order;
  struct CUstream_st *out_mem_stream;

  /* host-memory output: one device plane (the stream orders the next
   * B-scan's kernels after this one's download) */
  gpointer out_dev;
  gsize out_size;
  /* the outputs in flight (aooct-output-ring.h) */
  AooctOutputRing *ring;

  /* the CUDA plan's execute as one CUDA graph per buffer (cuda-graphs=true and
   * a class that allows it): the instantiated graph, updated per buffer;
   * captures that failed in a row (after a few, no more tries) */
  gboolean graphs;
  struct _AooctCudaGraph *graph;
  guint graph_failures;

  /* GPU time of the CUDA core (CUDA events with timing), when enabled */
  gboolean timing;
  AooctCudaEvent t_start[AOOCT_CUDA_TIMING_SLOTS];
  AooctCudaEvent t_end[AOOCT_CUDA_TIMING_SLOTS];
  guint t_next, t_pending;
  GMutex stats_lock;
  AooctCudaStats stats;

  /* the element served (aooct-cuda-backend.h); the output being made
   * goes through the ring (images leave the GPU here) or not; the
   * negotiated output, for the output task (set with each output) */
  AooctCudaBackendHost host;
  AooctOutputDesc out;
};

/* (aooct-cuda-element.c) At open: checks the device, finds or creates
 * the shared context and creates the stream, with the priority @stage
 * steps above the lowest.  FALSE with the reason when CUDA cannot be
 * used. */
gboolean aooct_cuda_element_open (AooctCudaBackend * ce, GstElement * element,
    gint device_id, gint stage, GError ** error);
/* The element's context current on this thread, and not. */
gboolean aooct_cuda_element_push (AooctCudaBackend * ce, GError ** error);
void aooct_cuda_element_pop (AooctCudaBackend * ce);

/* (aooct-cuda-upload.c) What release() frees of the input side: staging,
 * held input, device planes, the output plane. */
void aooct_cuda_upload_release_planes (AooctCudaBackend * ce);
/* Drops the references to page-locked input read in place (their copies
 * have completed, or the context is lost). */
void aooct_cuda_upload_forget_inputs (AooctCudaBackend * ce);

/* Enqueues the upload of @rows rows of @host (host->stride apart, mapped
 * by the caller) into the next device plane, with rows @dev_stride apart;
 * @dev receives the device plane.  @hold: the buffer @host was mapped
 * from, when the copy may read it in place (one page-locked memory of
 * aooct-cuda-host-memory.h holding the plane with rows @dev_stride
 * apart): it is referenced until the copy has completed.  NULL: the rows
 * are copied into a page-locked staging slot first.  Context current. */
gboolean aooct_cuda_upload_buffer (AooctCudaBackend * ce, GstBuffer * hold,
    const AooctPlane * host, gsize rows, gsize dev_stride, AooctPlane * dev,
    GError ** error);

/* After the work reading the plane of the last upload is enqueued on the
 * element's stream (or given up): the plane may take a later upload once
 * that work has run.  Nothing when no upload is being read. */
gboolean aooct_cuda_upload_done (AooctCudaBackend * ce,
    GError ** error);

/* A pool of page-locked host memory on the element's context for frames
 * of @caps (video/x-raw in system memory), @size bytes each, at least
 * @min buffers, for the element to propose upstream: frames written into
 * it are uploaded without staging. */
GstBufferPool *aooct_cuda_upload_host_pool_new (AooctCudaBackend * ce,
    GstCaps * caps, guint size, guint min, GError ** error);

/* A device plane of @rows rows @dev_stride apart for host-memory output. */
gboolean aooct_cuda_upload_output_plane (AooctCudaBackend * ce, gsize rows,
    gsize dev_stride, AooctPlane * dev, GError ** error);

/* Libgstcuda memory output (nvcodec): arms the output ring's tail with
 * the end of the GPU work, or (>= 1.24, the memory carries a stream) makes
 * the memory's stream wait for it and arms the tail as complete
 * (aooct-output-ring.h; see "Video output" below). */
gboolean aooct_cuda_video_mark_output (AooctCudaBackend * ce, GError ** error);

/* (aooct-cuda-buffer.c) One buffer on the GPU: @inbuf onto the GPU (in
 * place where it is device memory on our context), the step's core on
 * device planes, @outbuf's image into the output ring where it leaves the
 * GPU.  A group passes one buffer only (gst_aooct_filter_collect /
 * _emit): the other plane is {NULL, 0}.  Pushes the context around it.
 * FALSE with @error set (the caller posts it). */
gboolean aooct_cuda_buffer_transform (AooctCudaBackend * ce,
    const AooctCudaBuffer * b, GstBuffer * inbuf, GstBuffer * outbuf,
    GError ** error);
/* (aooct-cuda-buffer.c) Takes the oldest output of the ring once its GPU
 * work is complete, its staged image copied into it (@out describes it);
 * the ring's slot is dropped in any case. */
gboolean aooct_cuda_buffer_take_output (AooctCudaBackend * ce,
    const AooctOutputDesc * out, GstBuffer ** buf, GError ** error);

/* (aooct-cuda-element.c) GPU time of the CUDA core: enable (at open;
 * resets the statistics),
 * record around it, collect finished measurements (with @wait: all). */
void aooct_cuda_element_set_timing (AooctCudaBackend * ce, gboolean timing);
gboolean aooct_cuda_element_timing_begin (AooctCudaBackend * ce, GError ** error);
gboolean aooct_cuda_element_timing_end (AooctCudaBackend * ce, GError ** error);
gboolean aooct_cuda_element_timing_collect (AooctCudaBackend * ce,
    gboolean wait, GError ** error);
void aooct_cuda_element_get_stats (AooctCudaBackend * ce, AooctCudaStats * stats);
/* Waits for the GPU timing still in flight (at EOS). */
void aooct_cuda_element_finish_timing (AooctCudaBackend * ce);

/* Video output in libgstcuda's own GstCudaMemory, for nvcodec elements
 * (cudaconvert, cudadownload, the NVENC encoders), which take nothing else
 * on their memory:CUDAMemory pads.  In GStreamer 1.22 that memory carries
 * no stream: the data must be complete when the buffer is pushed, so the
 * output ring waits for the element's stream before pushing it.  From
 * 1.24 on the pool gives its memory a stream of ours: the memory's stream
 * is made to wait for our work (mark_output), GStreamer's own
 * GST_CUDA_MEMORY_TRANSFER_NEED_SYNC flag stays set, and the buffer is
 * pushed at once; a consumer on that stream is ordered on the GPU, any
 * other calls gst_cuda_memory_sync() (1.24's rule). */

/* A GstCudaBufferPool on the shared context for @caps (video/x-raw in
 * memory:CUDAMemory); @size receives its buffer size (pitched planes, so
 * larger than the caps' plain size).  >= 1.24: its memory carries the
 * stream of a GstCudaBufferPool that downstream proposed in @query (may
 * be NULL), else one of ours. */
GstBufferPool *aooct_cuda_video_pool_new (AooctCudaBackend * ce,
    GstCaps * caps, GstQuery * query, guint min, guint max, guint * size,
    GError ** error);

/* Maps @buf, which must hold one GstCudaMemory on the element's context,
 * for writing on the device (GST_MAP_CUDA): @frame's plane pointers are
 * device pointers, with the memory's own plane offsets and strides.  If the
 * memory carries a stream (>= 1.24), our stream first waits for the work
 * enqueued on it (a consumer's reads of the buffer's last use), and
 * mark_output orders that stream after our writes. */
gboolean aooct_cuda_video_map_output (AooctCudaBackend * ce,
    GstBuffer * buf, GstVideoFrame * frame, GError ** error);

/* Enqueues setting the chroma planes of @frame (8-bit YUV, mapped by
 * aooct_cuda_video_map_output) to 128, so that the luma plane
 * shows as a grey image; nothing for other formats. */
gboolean aooct_cuda_video_neutral_chroma (AooctCudaBackend * ce,
    const GstVideoFrame * frame, GError ** error);

/* Video input in libgstcuda's GstCudaMemory, read in place on the device.
 * Ordering (docs/cuda-memory.md): memory without a CUDA stream (GStreamer
 * 1.22, or a 1.24 producer that set none) is complete when pushed, and
 * our stream is waited for before the buffer is released, since its
 * producer may then reuse it; memory with a stream (1.24) is ordered on
 * the GPU both ways, with an event and no host wait. */
typedef struct
{
  GstVideoFrame frame;
  gboolean mapped;              /* in place: frame mapped with GST_MAP_CUDA */
  struct CUstream_st *stream;   /* the memory's stream, NULL if none */
  /* not mapped, but a GstCudaMemory: the layout of its frame (pitched
   * planes), to read it with on the host; else NULL */
  const GstVideoInfo *layout;
} AooctCudaVideoInput;

/* If @in_place (caps in memory:CUDAMemory) and @buf holds one
 * GstCudaMemory on the element's context whose frame is @caps_info's,
 * maps it for reading on the device and makes the element's stream wait
 * for its producer: @vin->mapped is then TRUE and @plane is plane 0
 * (device pointer, the memory's stride).  Otherwise @vin->mapped is FALSE
 * and the caller reads @buf on the host, with @vin->layout where it is a
 * GstCudaMemory.  FALSE on an error (a frame of another format or size,
 * a failed map). */
gboolean aooct_cuda_video_map_input (AooctCudaBackend * ce,
    GstBuffer * buf, const GstVideoInfo * caps_info, gboolean in_place,
    AooctCudaVideoInput * vin, AooctPlane * plane, GError ** error);

/* After the work reading @vin is enqueued: orders its release after that
 * work (see above) and unmaps it.  Nothing when it was not mapped. */
gboolean aooct_cuda_video_unmap_input (AooctCudaBackend * ce,
    AooctCudaVideoInput * vin, GError ** error);

/* (aooct-cuda-input.c) A buffer's input onto the GPU, whichever memory
 * it is in: aooct device memory on our context (in place, ordered by the
 * rule of aooct-cuda-memory.h), libgstcuda video memory on our context (in
 * place, see above), host memory (uploaded: in place from page-locked
 * memory with the device's rows, else through staging).  What the end of
 * the buffer's work must undo is kept here. */
typedef struct
{
  AooctCudaMemory *mem;         /* our device memory read in place */
  AooctCudaVideoInput video;    /* libgstcuda memory mapped in place */
  /* ours alone: the step may overwrite it (run->in_disposable) */
  gboolean disposable;
} AooctCudaInput;

/* @inbuf onto the GPU as @in (@rows rows, @dev_stride apart where the
 * backend lays them out).  FALSE with @error; then only
 * aooct_cuda_video_unmap_input (@input->video) is left to do. */
gboolean aooct_cuda_input_begin (AooctCudaBackend * ce,
    const AooctCudaBuffer * b, GstBuffer * inbuf, gsize rows,
    gsize dev_stride, AooctCudaInput * input, AooctPlane * in,
    GError ** error);
/* After the work reading the input is enqueued: the end of the device
 * memory's access, the video memory's release (see above). */
gboolean aooct_cuda_input_end (AooctCudaBackend * ce, AooctCudaInput * input,
    GError ** error);

G_END_DECLS
#endif /* __AOOCT_CUDA_ELEMENT_H__ */
