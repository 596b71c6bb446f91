/* aooct: the CUDA half of GstAooctFilter (private to the base class).
 *
 * Holds an element's GstCudaContext (shared with every CUDA element of the
 * pipeline through the GstContext mechanism), its CUDA stream, and the
 * staging needed when a buffer on a CUDA-backend element is in system
 * memory: the first element's camera frames, a CPU-only neighbour, or a
 * video/x-raw output.  Staging is page-locked, allocated once per caps and
 * reused; uploads are asynchronous copies on the element's stream. */
#ifndef __AOOCT_CUDA_FILTER_H__
#define __AOOCT_CUDA_FILTER_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include "aooct-cuda.h"
#include "gstaooctfilter.h"

G_BEGIN_DECLS

#define AOOCT_CUDA_STAGING_SLOTS 2

typedef struct
{
  GstCudaContext *context;
  AooctCudaStream stream;

  /* host-memory input: a ring of page-locked slots, so that the host copy
   * of buffer i+1 overlaps the upload and kernels of buffer i */
  gpointer in_staging[AOOCT_CUDA_STAGING_SLOTS];
  AooctCudaEvent in_staging_free[AOOCT_CUDA_STAGING_SLOTS];
  guint in_slot;
  gpointer in_dev;
  gsize in_size;

  /* orders our stream with the stream of a GstCudaMemory input */
  AooctCudaEvent in_foreign;

  /* host-memory output */
  gpointer out_dev;
  gpointer out_staging;
  gsize out_size;
} AooctCudaFilter;

AooctCudaFilter *aooct_cuda_filter_new (void);
void aooct_cuda_filter_free (AooctCudaFilter * cf);

/* GstContext sharing: the element's set_context and context query. */
void aooct_cuda_filter_set_context (AooctCudaFilter * cf, GstElement * element,
    GstContext * context, gint device_id);
gboolean aooct_cuda_filter_handle_query (AooctCudaFilter * cf,
    GstElement * element, GstQuery * query);

/* At start: checks the device, finds or creates the shared context and
 * creates the stream.  FALSE with the reason when CUDA cannot be used. */
gboolean aooct_cuda_filter_open (AooctCudaFilter * cf, GstElement * element,
    gint device_id, GError ** error);
/* Waits for the stream, frees staging, stream and context. */
void aooct_cuda_filter_close (AooctCudaFilter * cf);

gboolean aooct_cuda_filter_push (AooctCudaFilter * cf, GError ** error);
void aooct_cuda_filter_pop (AooctCudaFilter * cf);

/* Frees the staging (context current; stream synchronised first). */
void aooct_cuda_filter_release_staging (AooctCudaFilter * cf);

/* Enqueues the upload of @rows rows of @host (host->stride apart) into
 * device memory with rows @dev_stride apart; @dev receives the device
 * plane.  Context current. */
gboolean aooct_cuda_filter_upload (AooctCudaFilter * cf,
    const AooctPlane * host, gsize rows, gsize dev_stride, AooctPlane * dev,
    GError ** error);

/* A device plane of @rows rows @dev_stride apart for host-memory output. */
gboolean aooct_cuda_filter_output_plane (AooctCudaFilter * cf, gsize rows,
    gsize dev_stride, AooctPlane * dev, GError ** error);

/* Downloads @dev (from aooct_cuda_filter_output_plane) into @host and
 * waits for it. */
gboolean aooct_cuda_filter_download (AooctCudaFilter * cf,
    const AooctPlane * dev, gsize rows, AooctPlane * host, GError ** error);

/* Video output in libgstcuda's own GstCudaMemory, for nvcodec elements
 * (cudaconvert, cudadownload, the NVENC encoders), which take nothing else
 * on their memory:CUDAMemory pads.  In GStreamer 1.22 that memory carries
 * no stream: the data must be complete when the buffer is pushed, so the
 * base class waits for the element's stream after writing it. */

/* A GstCudaBufferPool on the shared context for @caps (video/x-raw in
 * memory:CUDAMemory); @size receives its buffer size (pitched planes, so
 * larger than the caps' plain size). */
GstBufferPool *aooct_cuda_filter_video_pool_new (AooctCudaFilter * cf,
    GstCaps * caps, guint min, guint max, guint * size, GError ** error);

/* Maps @buf, which must hold one GstCudaMemory on the element's context,
 * for writing on the device (GST_MAP_CUDA): @frame's plane pointers are
 * device pointers, with the memory's own plane offsets and strides. */
gboolean aooct_cuda_filter_map_video_output (AooctCudaFilter * cf,
    GstBuffer * buf, GstVideoFrame * frame, GError ** error);

/* Enqueues setting the chroma planes of @frame (8-bit YUV, mapped by
 * aooct_cuda_filter_map_video_output) to 128, so that the luma plane
 * shows as a grey image; nothing for other formats. */
gboolean aooct_cuda_filter_neutral_chroma (AooctCudaFilter * cf,
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
} AooctCudaVideoInput;

/* The layout of @buf's frames: the GstVideoInfo of its GstCudaMemory when
 * it holds one (pitched planes), else @caps_info. */
const GstVideoInfo *aooct_cuda_filter_video_layout (GstBuffer * buf,
    const GstVideoInfo * caps_info);

/* If @buf holds one GstCudaMemory on the element's context whose frame
 * is @caps_info's, maps it for reading on the device and makes the
 * element's stream wait for its producer: @vin->mapped is then TRUE and
 * @plane is plane 0 (device pointer, the memory's stride).  Otherwise
 * @vin->mapped is FALSE and the caller reads @buf on the host.  FALSE
 * on an error (a frame of another format or size, a failed map). */
gboolean aooct_cuda_filter_map_video_input (AooctCudaFilter * cf,
    GstBuffer * buf, const GstVideoInfo * caps_info, AooctCudaVideoInput * vin,
    AooctPlane * plane, GError ** error);

/* After the work reading @vin is enqueued: orders its release after that
 * work (see above) and unmaps it.  Nothing when it was not mapped. */
gboolean aooct_cuda_filter_unmap_video_input (AooctCudaFilter * cf,
    AooctCudaVideoInput * vin, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_FILTER_H__ */
