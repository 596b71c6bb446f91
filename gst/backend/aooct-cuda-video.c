/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: video in libgstcuda's GstCudaMemory for a CUDA-backend element:
 * output for nvcodec elements (its pool, mapping, neutral chroma, the
 * order of its stream) and input read in place (see
 * aooct-cuda-element.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#ifdef HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif

#include "aooct-caps.h"
#include "aooct-cuda-element.h"
#include "aooct-cuda-memory.h"
#include "aooct-error.h"

#define GST_CAT_DEFAULT aooct_cuda_element_debug

#ifdef HAVE_GST_CUDA_STREAM
/* The stream of the first GstCudaBufferPool on our context that
 * downstream proposed with one (nvcodec elements propose their own
 * stream, so that upstream writes on it and they need no sync), or NULL. */
static GstCudaStream *
proposed_cuda_stream (AooctCudaBackend * ce, GstQuery * query)
{
  guint i, n = query ? gst_query_get_n_allocation_pools (query) : 0;
  GstCudaStream *stream = NULL;

  for (i = 0; i < n && stream == NULL; i++) {
    GstBufferPool *pool = NULL;
    GstStructure *config;

    gst_query_parse_nth_allocation_pool (query, i, &pool, NULL, NULL, NULL);
    if (pool && GST_IS_CUDA_BUFFER_POOL (pool)
        && GST_CUDA_BUFFER_POOL (pool)->context == ce->context) {
      config = gst_buffer_pool_get_config (pool);
      stream = gst_buffer_pool_config_get_cuda_stream (config);
      gst_structure_free (config);
      if (stream && stream->context != ce->context)
        gst_clear_cuda_stream (&stream);
    }
    if (pool)
      gst_object_unref (pool);
  }
  return stream;
}
#endif

GstBufferPool *
aooct_cuda_video_pool_new (AooctCudaBackend * ce, GstCaps * caps,
    GstQuery * query, guint min, guint max, guint * size, GError ** error)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    aooct_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "cannot parse the CUDA video caps %" GST_PTR_FORMAT, caps);
    return NULL;
  }
  /* the 1.22 pool finds its allocator by name: register it first */
  gst_cuda_memory_init_once ();
  pool = gst_cuda_buffer_pool_new (ce->context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps,
      (guint) GST_VIDEO_INFO_SIZE (&info), min, max);
#ifdef HAVE_GST_CUDA_STREAM
  {
    /* >= 1.24: the memory carries a stream, which orders the consumers
     * after our work on the GPU (mark_output): downstream's own where it
     * proposed one (it then needs no sync at all), else one of ours;
     * without any (none could be made) the output is complete when
     * pushed, as with 1.22 */
    GstCudaStream *stream = proposed_cuda_stream (ce, query);

    if (stream == NULL) {
      if (ce->out_gst_stream == NULL)
        ce->out_gst_stream = gst_cuda_stream_new (ce->context);
      if (ce->out_gst_stream)
        stream = gst_cuda_stream_ref (ce->out_gst_stream);
    } else {
      GST_DEBUG ("writing the CUDA video output on downstream's stream");
    }
    if (stream)
      gst_buffer_pool_config_set_cuda_stream (config, stream);
    else
      GST_WARNING ("cannot create a GstCudaStream: the CUDA video output is "
          "synchronised on the host instead");
    gst_clear_cuda_stream (&stream);
  }
#endif
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot configure a CUDA video buffer pool for %s %dx%d",
        GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
        GST_VIDEO_INFO_HEIGHT (&info));
    gst_object_unref (pool);
    return NULL;
  }
  /* the pool sets the size of its pitched layout */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

gboolean
aooct_cuda_video_map_output (AooctCudaBackend * ce, GstBuffer * buf,
    GstVideoFrame * frame, GError ** error)
{
  GstMemory *mem = gst_buffer_n_memory (buf) == 1 ?
      gst_buffer_peek_memory (buf, 0) : NULL;
  GstCudaMemory *cmem;

  if (mem == NULL || !gst_is_cuda_memory (mem)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "the output buffer for memory:CUDAMemory caps does not hold one "
        "GstCudaMemory");
    return FALSE;
  }
  cmem = GST_CUDA_MEMORY_CAST (mem);
  if (cmem->context != ce->context) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "the output GstCudaMemory belongs to another CUDA context than the "
        "pipeline's shared one");
    return FALSE;
  }
  /* the memory's own layout (pitch, plane offsets), not the caps' */
  if (!gst_video_frame_map (frame, &cmem->info, buf,
          GST_MAP_WRITE | GST_MAP_CUDA)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot map the output GstCudaMemory on the device");
    return FALSE;
  }
  ce->out_mem_stream = NULL;
#ifdef HAVE_GST_CUDA_STREAM
  {
    GstCudaStream *stream = gst_cuda_memory_get_stream (cmem);
    struct CUstream_st *handle = stream ?
        (struct CUstream_st *) gst_cuda_stream_get_handle (stream) : NULL;

    /* A consumer on the memory's stream may have enqueued reads of this
     * buffer's last use without waiting for them before releasing it (the
     * rule lets it): our writes wait for them on the GPU. */
    if (handle && handle != ce->stream) {
      if ((ce->out_order == NULL
              && !aooct_cuda_event_new (&ce->out_order, error))
          || !aooct_cuda_event_record (ce->out_order, handle, error)
          || !aooct_cuda_stream_wait (ce->stream, ce->out_order, error)) {
        gst_video_frame_unmap (frame);
        return FALSE;
      }
      ce->out_mem_stream = handle;
    }
  }
#endif
  return TRUE;
}

gboolean
aooct_cuda_video_neutral_chroma (AooctCudaBackend * ce,
    const GstVideoFrame * frame, GError ** error)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint plane, c;

  if (!GST_VIDEO_FORMAT_INFO_IS_YUV (finfo))
    return TRUE;
  g_return_val_if_fail (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) == 8, FALSE);
  for (plane = 1; plane < GST_VIDEO_FRAME_N_PLANES (frame); plane++) {
    /* the plane's width in bytes and height, from its first component */
    for (c = 1; c < GST_VIDEO_FRAME_N_COMPONENTS (frame); c++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == plane)
        break;
    if (!aooct_cuda_memset_2d_async (GST_VIDEO_FRAME_PLANE_DATA (frame,
                plane), GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane), 128,
            (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, c) *
            GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c),
            GST_VIDEO_FRAME_COMP_HEIGHT (frame, c), ce->stream, error))
      return FALSE;
  }
  return TRUE;
}

static GstCudaMemory *
single_cuda_memory (GstBuffer * buf)
{
  GstMemory *mem = gst_buffer_n_memory (buf) == 1 ?
      gst_buffer_peek_memory (buf, 0) : NULL;

  return mem && gst_is_cuda_memory (mem) ? GST_CUDA_MEMORY_CAST (mem) : NULL;
}

gboolean
aooct_cuda_video_map_input (AooctCudaBackend * ce, GstBuffer * buf,
    const GstVideoInfo * caps_info, gboolean in_place,
    AooctCudaVideoInput * vin, AooctPlane * plane, GError ** error)
{
  GstCudaMemory *cmem = single_cuda_memory (buf);
  const GstVideoInfo *mi;

  memset (vin, 0, sizeof (*vin));
  if (cmem == NULL)
    return TRUE;
  /* read through the host: the memory's own layout (pitched rows) */
  vin->layout = &cmem->info;
  if (!in_place)
    return TRUE;
  if (cmem->context != ce->context) {
    /* correct, not fast: libgstcuda downloads it for the host map */
    GST_DEBUG ("input GstCudaMemory belongs to another CUDA context than "
        "the pipeline's shared one: reading it through system memory");
    return TRUE;
  }
  mi = &cmem->info;
  if (GST_VIDEO_INFO_FORMAT (mi) != GST_VIDEO_INFO_FORMAT (caps_info)
      || GST_VIDEO_INFO_WIDTH (mi) != GST_VIDEO_INFO_WIDTH (caps_info)
      || GST_VIDEO_INFO_HEIGHT (mi) != GST_VIDEO_INFO_HEIGHT (caps_info)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input GstCudaMemory holds a %s %dx%d frame but the caps say "
        "%s %dx%d", GST_VIDEO_INFO_NAME (mi), GST_VIDEO_INFO_WIDTH (mi),
        GST_VIDEO_INFO_HEIGHT (mi), GST_VIDEO_INFO_NAME (caps_info),
        GST_VIDEO_INFO_WIDTH (caps_info), GST_VIDEO_INFO_HEIGHT (caps_info));
    return FALSE;
  }
  /* the memory's own layout (pitch), not the caps' default strides */
  if (!gst_video_frame_map (&vin->frame, mi, buf, GST_MAP_READ | GST_MAP_CUDA)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input GstCudaMemory on the device");
    return FALSE;
  }
  vin->mapped = TRUE;
  plane->data = GST_VIDEO_FRAME_PLANE_DATA (&vin->frame, 0);
  plane->stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vin->frame, 0);
#ifdef HAVE_GST_CUDA_STREAM
  {
    GstCudaStream *stream = gst_cuda_memory_get_stream (cmem);

    if (stream)
      vin->stream = (struct CUstream_st *) gst_cuda_stream_get_handle (stream);
  }
#endif
  if (vin->stream) {
    /* the producer's work on its stream, up to now, before ours */
    if ((ce->in_foreign == NULL
            && !aooct_cuda_event_new (&ce->in_foreign, error))
        || !aooct_cuda_event_record (ce->in_foreign, vin->stream, error)
        || !aooct_cuda_stream_wait (ce->stream, ce->in_foreign, error)) {
      aooct_cuda_video_unmap_input (ce, vin, NULL);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean
aooct_cuda_video_unmap_input (AooctCudaBackend * ce,
    AooctCudaVideoInput * vin, GError ** error)
{
  gboolean ok;

  if (!vin->mapped)
    return TRUE;
  if (vin->stream) {
    /* whatever the producer enqueues next on its stream (a rewrite of
     * this pooled memory) waits for our reads */
    ok = aooct_cuda_event_record (ce->in_foreign, ce->stream, error)
        && aooct_cuda_stream_wait (vin->stream, ce->in_foreign, error);
  } else {
    /* nothing orders the producer after us once the buffer is released */
    ok = aooct_cuda_stream_sync (ce->stream, error);
  }
  gst_video_frame_unmap (&vin->frame);
  vin->mapped = FALSE;
  return ok;
}

gboolean
aooct_cuda_video_mark_output (AooctCudaBackend * ce, GError ** error)
{
  if (ce->out_mem_stream) {
    /* >= 1.24: the memory's stream runs after our writes, and its
     * NEED_SYNC flag (set by the GST_MAP_CUDA write map) tells a consumer
     * on another stream to gst_cuda_memory_sync(): no host wait here, the
     * buffer goes out as soon as the ring reaches it */
    gboolean ok = aooct_cuda_event_record (ce->out_order, ce->stream, error)
        && aooct_cuda_stream_wait (ce->out_mem_stream, ce->out_order, error);

    ce->out_mem_stream = NULL;
    if (!ok)
      return FALSE;
    aooct_output_ring_arm_complete (ce->ring);
    return TRUE;
  }
  return aooct_output_ring_arm_event (ce->ring, ce->stream, error);
}
