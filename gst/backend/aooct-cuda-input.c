/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: a buffer's input onto the GPU, whichever memory it is in, in one
 * place (see AooctCudaInput in aooct-cuda-element.h): aooct device memory
 * on our context and libgstcuda video memory on our context are read in
 * place; host memory is mapped once, uploaded (straight from it where it
 * is page-locked with the device's row layout, else through staging) and
 * unmapped before the step runs. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-cuda-element.h"
#include "aooct-cuda-host-memory.h"
#include "aooct-cuda-memory.h"
#include "aooct-error.h"

#define GST_CAT_DEFAULT aooct_cuda_element_debug

/* Host memory: mapped as the rows of its layout (@cuda_layout, the
 * GstCudaMemory's own, when it is libgstcuda memory read through the
 * host; else the one of the size check), uploaded into the next device plane, unmapped.  The copy
 * reads @inbuf in place when it is one page-locked memory of
 * aooct-cuda-host-memory.h holding the plane with the device's rows (the
 * pool aooctdcsub proposes upstream); page-locked memory does not move,
 * so the address stays valid after the unmap, and the upload holds the
 * buffer until the copy has completed. */
static gboolean
upload_from_host (AooctCudaBackend * ce, const AooctCudaBuffer * b,
    GstBuffer * inbuf, const GstVideoInfo * cuda_layout, gsize rows,
    gsize dev_stride, AooctPlane * in, GError ** error)
{
  const AooctInputDesc *id = b->in;
  const GstVideoInfo *layout = cuda_layout ? cuda_layout : b->in_layout;
  GstVideoFrame frame;
  GstMapInfo map;
  AooctPlane host;
  gboolean in_place, up;

  if (id->cuda_memory)
    GST_DEBUG_OBJECT (ce->host.element, "input in CUDA memory that cannot be "
        "used in place (another CUDA context, or not one device block): "
        "reading it through system memory");
  if (!aooct_filter_map_plane (inbuf, id->video, layout, id->geom,
          GST_MAP_READ, &frame, &map, &host)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input buffer for reading");
    return FALSE;
  }
  in_place = gst_buffer_n_memory (inbuf) == 1 && host.stride == dev_stride
      && aooct_cuda_host_memory_holds (gst_buffer_peek_memory (inbuf, 0),
      host.data, rows * dev_stride);
  up = aooct_cuda_upload_buffer (ce, in_place ? inbuf : NULL, &host, rows,
      dev_stride, in, error);
  aooct_filter_unmap_plane (id->video, inbuf, &frame, &map);
  return up;
}

gboolean
aooct_cuda_input_begin (AooctCudaBackend * ce, const AooctCudaBuffer * b,
    GstBuffer * inbuf, gsize rows, gsize dev_stride, AooctCudaInput * input,
    AooctPlane * in, GError ** error)
{
  const AooctInputDesc *id = b->in;

  memset (input, 0, sizeof (*input));
  input->mem = aooct_cuda_memory_of_buffer (inbuf, ce->context);
  if (input->mem) {
    GstVideoMeta *meta = id->video ? gst_buffer_get_video_meta (inbuf) : NULL;

    if (!aooct_cuda_memory_begin_access (input->mem, ce->stream, error))
      return FALSE;
    /* ours alone: the step may use it as scratch (aooctpad's R2C) */
    input->disposable = gst_buffer_is_writable (inbuf)
        && gst_buffer_is_all_memory_writable (inbuf);
    /* video frames in our memory: the caps' layout unless a meta says */
    in->data = (guint8 *) input->mem->dptr + (meta ? meta->offset[0] : 0);
    in->stride = meta ? (gsize) meta->stride[0] : dev_stride;
    return TRUE;
  }
  if (id->video) {
    /* in place where the caps say memory:CUDAMemory */
    if (!aooct_cuda_video_map_input (ce, inbuf, id->vinfo, id->cuda_memory,
            &input->video, in, error))
      return FALSE;
    if (input->video.mapped)
      return TRUE;
  }
  return upload_from_host (ce, b, inbuf, input->video.layout, rows,
      dev_stride, in, error);
}

gboolean
aooct_cuda_input_end (AooctCudaBackend * ce, AooctCudaInput * input,
    GError ** error)
{
  if (input->mem && !aooct_cuda_memory_end_access (input->mem, ce->stream,
          input->disposable, error))
    return FALSE;
  return aooct_cuda_video_unmap_input (ce, &input->video, error);
}
