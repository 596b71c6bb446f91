/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter on the CUDA backend: one buffer on the GPU (the
 * context pushed around it; device memory used in place, host memory
 * uploaded and downloaded through page-locked staging), the src task that
 * pushes outputs from the output ring (aooct-output-ring.h) as their GPU
 * work completes, and, in test builds only, fault injection (see
 * aooct-filter-private.h).  Built only with CUDA. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-filter-private.h"
#include "aooct-error.h"
#include "aooct-cuda-element.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-host-memory.h"
#ifdef AOOCT_FAULT_INJECTION
#include "aooct-cuda-fault.h"
#endif

#define GST_CAT_DEFAULT gst_aooct_filter_debug
#define parent_class aooct_filter_parent_class

#ifdef AOOCT_FAULT_INJECTION
/* Only in builds configured with -Dfault-injection=true (the test suite's
 * and CI's; never a shipped build, where none of this is compiled):
 * AOOCT_CUDA_FAULT=ELEMENT:KIND[:N] makes the element named ELEMENT (its
 * name or its factory's) cause a CUDA or cuFFT fault of KIND (launch,
 * kernel, cufft: cuda/aooct-cuda-fault.h) after its GPU work on its N-th
 * buffer (default 1) since start.  For the robustness tests
 * (tests/test-cuda-faults.c), which must show that real faults of these
 * kinds end in a clear element error; it does nothing unless set. */
static void
read_fault_request (GstAooctFilter * self)
{
  const gchar *spec = g_getenv ("AOOCT_CUDA_FAULT");
  GstElementFactory *factory = gst_element_get_factory (GST_ELEMENT (self));
  gchar **parts;

  self->priv->fault = AOOCT_CUDA_FAULT_NONE;
  if (spec == NULL || *spec == '\0')
    return;
  parts = g_strsplit (spec, ":", 3);
  if (g_strv_length (parts) >= 2
      && (g_strcmp0 (parts[0], GST_OBJECT_NAME (self)) == 0 || (factory
              && g_strcmp0 (parts[0],
                  GST_OBJECT_NAME (GST_OBJECT (factory))) == 0))) {
    self->priv->fault = aooct_cuda_fault_from_string (parts[1]);
    self->priv->fault_at = parts[2] ? g_ascii_strtoull (parts[2], NULL, 10) : 1;
    GST_WARNING_OBJECT (self, "AOOCT_CUDA_FAULT: will make a '%s' fault "
        "after buffer %" G_GUINT64_FORMAT, parts[1], self->priv->fault_at);
  }
  g_strfreev (parts);
}
#endif

void
aooct_filter_cuda_started (GstAooctFilter * self)
{
#ifdef AOOCT_FAULT_INJECTION
  read_fault_request (self);
#endif
}

/* Rows and device row stride of the input / output plane (A-lines for
 * application/x-aooct, video rows for video/x-raw). */
static void
plane_layout (gboolean video, const GstVideoInfo * vinfo,
    const AooctGeometry * geom, gsize * rows, gsize * stride)
{
  if (video) {
    *rows = GST_VIDEO_INFO_HEIGHT (vinfo);
    *stride = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 0);
  } else {
    *rows = aooct_geometry_total_alines (geom);
    *stride = aooct_geometry_aline_bytes (geom);
  }
}

/* The image of @dev into host memory: straight into @outbuf where it is
 * one page-locked memory with the device plane's layout (our pool,
 * aooct-filter-allocation.c), else into the ring's staging, from which
 * the src task copies it into @outbuf.  The direct way saves that copy
 * (1 MB per 2048 x 1000 B-scan: about 100 us of one core, which bounded
 * one B-scan per buffer: docs/performance.md). */
static gboolean
download_output (GstAooctFilter * self, GstBuffer * outbuf,
    const AooctPlane * dev, gsize rows, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaElement *ce = self->priv->cuda;
  GstVideoFrame frame;
  GstMapInfo map;
  AooctPlane host;
  gpointer direct = NULL;

  if (gst_buffer_n_memory (outbuf) == 1
      && aooct_filter_map_plane (outbuf, klass->src_is_video,
          &self->out_vinfo, &self->out_geom, GST_MAP_WRITE, &frame, &map,
          &host)) {
    if (host.stride == dev->stride
        && aooct_cuda_host_memory_holds (gst_buffer_peek_memory (outbuf, 0),
            host.data, rows * host.stride))
      direct = host.data;
    /* page-locked memory does not move and mapping it copies nothing: its
     * address stays valid for the download, which the src task waits for
     * before the buffer leaves (aooct-cuda-host-memory.h) */
    aooct_filter_unmap_plane (klass->src_is_video, outbuf, &frame, &map);
  }
  if (direct)
    return aooct_output_ring_download_into (ce->ring, dev, rows, direct,
        ce->stream, error);
  return aooct_output_ring_download (ce->ring, dev, rows, ce->stream, error);
}

/* One buffer on the GPU.  Memory of ours on our context is used in place,
 * ordered by the rule of aooct-cuda-memory.h, and so is video input in
 * libgstcuda's GstCudaMemory on our context (aooct-cuda-element.h says how
 * it is ordered); anything else is mapped on the host and goes through
 * page-locked staging. */
gboolean
aooct_filter_cuda_transform (GstAooctFilter * self, GstBuffer * inbuf,
    GstBuffer * outbuf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaElement *ce = self->priv->cuda;
  AooctCudaMemory *in_mem = inbuf ?
      aooct_cuda_buffer_get_memory (inbuf, ce->context) : NULL;
  AooctCudaMemory *out_mem = outbuf ?
      aooct_cuda_buffer_get_memory (outbuf, ce->context) : NULL;
  gboolean out_video_cuda = outbuf && klass->src_is_video
      && self->out_cuda_memory;
  GstVideoFrame frame, out_frame;
  gboolean out_frame_mapped = FALSE;
  AooctCudaVideoInput vin;
  GstMapInfo map;
  AooctPlane in, out, host;
  gsize in_rows, in_stride, out_rows, out_stride;
  gboolean ok = FALSE;

  memset (&vin, 0, sizeof (vin));

  plane_layout (klass->sink_is_video, &self->in_vinfo, &self->in_geom,
      &in_rows, &in_stride);
  if (aooct_pending_meta_data_is_real (self->priv->pending))
    in_stride /= 2;
  plane_layout (klass->src_is_video, &self->out_vinfo, &self->out_geom,
      &out_rows, &out_stride);
  if (!aooct_cuda_element_push (ce, error))
    return FALSE;
  aooct_cuda_clear_stale_error ();

  if (inbuf == NULL) {
    /* a group making its image (gst_aooct_filter_emit) */
    in.data = NULL;
    in.stride = 0;
  } else if (in_mem) {
    GstVideoMeta *meta = klass->sink_is_video ?
        gst_buffer_get_video_meta (inbuf) : NULL;

    if (!aooct_cuda_memory_begin_access (in_mem, ce->stream, error))
      goto done;
    /* ours alone: the step may use it as scratch (aooctpad's R2C) */
    self->priv->in_disposable = gst_buffer_is_writable (inbuf)
        && gst_buffer_is_all_memory_writable (inbuf);
    /* video frames in our memory: the caps' layout unless a meta says */
    in.data = (guint8 *) in_mem->dptr + (meta ? meta->offset[0] : 0);
    in.stride = meta ? (gsize) meta->stride[0] : in_stride;
  } else if (klass->sink_is_video && self->in_cuda_memory
      && !aooct_cuda_element_map_video_input (ce, inbuf, &self->in_vinfo,
          &vin, &in, error)) {
    goto done;
  } else if (!vin.mapped) {
    gboolean up;

    if (self->in_cuda_memory)
      GST_DEBUG_OBJECT (self, "input in CUDA memory that cannot be used in "
          "place (another CUDA context, or not one device block): reading "
          "it through system memory");
    if (!aooct_filter_map_plane (inbuf, klass->sink_is_video,
            klass->sink_is_video ?
            aooct_cuda_element_video_layout (inbuf,
                &self->priv->in_layout) : NULL, &self->in_geom, GST_MAP_READ,
            &frame, &map, &host)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "cannot map the input buffer for reading");
      goto done;
    }
    up = aooct_cuda_element_upload (ce, inbuf, &host, in_rows, in_stride, &in,
        error);
    aooct_filter_unmap_plane (klass->sink_is_video, inbuf, &frame, &map);
    if (!up)
      goto done;
  }

  if (outbuf == NULL) {
    /* a group taking B-scans in (gst_aooct_filter_collect) */
    out.data = NULL;
    out.stride = 0;
  } else if (out_video_cuda) {
    /* libgstcuda memory for nvcodec: plane 0 to the element, the chroma
     * of a YUV format neutral */
    if (!aooct_cuda_element_map_video_output (ce, outbuf, &out_frame, error))
      goto done;
    out_frame_mapped = TRUE;
    out.data = GST_VIDEO_FRAME_PLANE_DATA (&out_frame, 0);
    out.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, 0);
    if (!aooct_cuda_element_neutral_chroma (ce, &out_frame, error))
      goto done;
  } else if (out_mem) {
    if (!aooct_cuda_memory_begin_access (out_mem, ce->stream, error))
      goto done;
    out.data = out_mem->dptr;
    out.stride = out_stride;
    if (klass->leaves_pending && self->priv->downstream_absorbs
        && gst_buffer_is_writable (outbuf))
      self->priv->out_pending = aooct_buffer_ensure_pending_meta (outbuf);
  } else if (!aooct_cuda_element_output_plane (ce, out_rows, out_stride, &out,
          error)) {
    goto done;
  }

  if (!aooct_cuda_element_timing_begin (ce, error)
      || !aooct_filter_step_process_cuda (self, &in, &out, error)
      || !aooct_cuda_element_timing_end (ce, error)
      || !aooct_cuda_element_upload_done (ce, error))
    goto done;
#ifdef AOOCT_FAULT_INJECTION
  if (G_UNLIKELY (self->priv->fault != AOOCT_CUDA_FAULT_NONE)
      && self->priv->stat_buffers == self->priv->fault_at
      && !aooct_cuda_fault_inject (self->priv->fault, ce->stream, error))
    goto done;
#endif

  /* Where the data leaves the GPU, the host does not wait here: the
   * output goes into the ring (generate_output) and is pushed once its
   * download or GPU work has completed. */
  if (outbuf == NULL) {
    /* nothing leaves the GPU */
  } else if (out_video_cuda) {
    /* GStreamer 1.22's GstCudaMemory has no stream and nvcodec elements
     * use their own: the frame must be complete before it is pushed; from
     * 1.24 on the memory's stream carries the order instead */
    if (!aooct_cuda_element_mark_output (ce, error))
      goto done;
  } else if (out_mem) {
    if (!aooct_cuda_memory_end_access (out_mem, ce->stream, TRUE, error))
      goto done;
  } else if (!download_output (self, outbuf, &out, out_rows, error)) {
    goto done;
  }
  if (in_mem && !aooct_cuda_memory_end_access (in_mem, ce->stream,
          self->priv->in_disposable, error))
    goto done;
  if (!aooct_cuda_element_unmap_video_input (ce, &vin, error))
    goto done;
  ok = TRUE;

done:
  /* after a failure too: the next upload must still wait for whatever of
   * this buffer's work was enqueued */
  aooct_cuda_element_upload_done (ce, NULL);
  self->priv->out_pending = NULL;
  self->priv->in_disposable = FALSE;
  if (out_frame_mapped)
    gst_video_frame_unmap (&out_frame);
  aooct_cuda_element_unmap_video_input (ce, &vin, NULL);
  aooct_cuda_element_pop (ce);
  return ok;
}

/* Where the data leaves the GPU here (host-memory output, libgstcuda
 * memory for nvcodec), outputs go through the ring and the src task. */
static gboolean
ring_mode (GstAooctFilter * self)
{
  return aooct_filter_cuda_active (self)
      && (GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video
      || !self->out_cuda_memory);
}

/* Takes the oldest output of the ring once its GPU work is complete, its
 * staged image copied into it. */
static gboolean
take_head (GstAooctFilter * self, GstBuffer ** buf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaElement *ce = self->priv->cuda;
  AooctOutputRingSlot *out;
  gconstpointer staging = NULL;
  GstVideoFrame frame;
  GstMapInfo map;
  AooctPlane host;
  gboolean ok;

  *buf = NULL;
  ok = aooct_cuda_element_push (ce, error);
  if (ok) {
    ok = aooct_output_ring_wait_head (ce->ring, &out, &staging, error);
    aooct_cuda_element_pop (ce);
  }
  if (ok && staging) {
    /* the slot is not reused before drop_head */
    if (aooct_filter_map_plane (out->buf, klass->src_is_video,
            &self->out_vinfo, &self->out_geom, GST_MAP_WRITE, &frame, &map,
            &host)) {
      aooct_output_ring_copy_staged (out, staging, &host);
      aooct_filter_unmap_plane (klass->src_is_video, out->buf, &frame, &map);
    } else {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "cannot map the output buffer for writing");
      ok = FALSE;
    }
  }
  if (ok) {
    *buf = out->buf;
    out->buf = NULL;
  }
  aooct_output_ring_drop_head (ce->ring);
  return ok;
}

/* The src task: pushes the outputs of the ring in order as their GPU work
 * completes, so that the streaming thread only enqueues work and an image
 * leaves as soon as it is ready, without waiting for the next B-scan. */
static void
ring_loop (gpointer user_data)
{
  GstAooctFilter *self = user_data;
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  AooctCudaElement *ce = self->priv->cuda;
  GstFlowReturn ret;
  GstBuffer *buf;
  GError *error = NULL;

  if (!aooct_output_ring_wait_output (ce->ring)) {
    gst_pad_pause_task (bt->srcpad);
    return;
  }
  if (take_head (self, &buf, &error)) {
    ret = gst_pad_push (bt->srcpad, buf);
  } else {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    ret = GST_FLOW_ERROR;
  }
  aooct_output_ring_output_done (ce->ring, ret);
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "pausing the output task: %s",
        gst_flow_get_name (ret));
    gst_pad_pause_task (bt->srcpad);
  }
}

void
aooct_filter_cuda_drain (GstAooctFilter * self)
{
  if (aooct_filter_cuda_active (self))
    aooct_output_ring_drain (self->priv->cuda->ring);
}

void
aooct_filter_cuda_set_flushing (GstAooctFilter * self, gboolean flushing)
{
  aooct_output_ring_set_flushing (self->priv->cuda->ring, flushing);
}

void
aooct_filter_cuda_discard (GstAooctFilter * self)
{
  AooctCudaElement *ce = self->priv->cuda;

  if (!aooct_filter_cuda_active (self))
    return;
  if (aooct_cuda_element_push (ce, NULL)) {
    /* a download may still write a slot; the ring starts over */
    aooct_cuda_stream_sync (ce->stream, NULL);
    aooct_cuda_element_pop (ce);
  }
  aooct_output_ring_discard (ce->ring);
}

void
aooct_filter_cuda_collect_timing (GstAooctFilter * self)
{
  AooctCudaElement *ce = self->priv->cuda;

  if (aooct_cuda_element_push (ce, NULL)) {
    aooct_cuda_element_timing_collect (ce, TRUE, NULL);
    aooct_cuda_element_pop (ce);
  }
}

GstFlowReturn
aooct_filter_cuda_wait_space (GstAooctFilter * self)
{
  return ring_mode (self) ? aooct_output_ring_wait_space (self->priv->
      cuda->ring) : GST_FLOW_OK;
}

/* An output made on the GPU (@made, taken) on its way downstream: where
 * its data leave the GPU, into the ring for the src task (started here);
 * complete already (device memory for the next element): in *@direct for
 * the caller to push; an output that leaves the GPU where the caps say
 * device memory (a foreign buffer): finished here, in *@direct. */
static GstFlowReturn
queue_output (GstAooctFilter * self, GstBuffer * made, GstBuffer ** direct)
{
  AooctCudaElement *ce = self->priv->cuda;
  GError *error = NULL;

  *direct = NULL;
  if (!aooct_output_ring_armed_gpu (ce->ring) && !ring_mode (self)) {
    *direct = made;
    return GST_FLOW_OK;
  }
  aooct_output_ring_add (ce->ring, made);
  if (ring_mode (self)) {
    if (!gst_pad_start_task (GST_BASE_TRANSFORM_SRC_PAD (self), ring_loop,
            self, NULL)) {
      GST_ELEMENT_ERROR (self, CORE, THREAD,
          ("cannot start the output task"), (NULL));
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }
  if (!take_head (self, direct, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

GstFlowReturn
aooct_filter_cuda_hand_over (GstAooctFilter * self, GstFlowReturn ret,
    GstBuffer * out)
{
  GstBuffer *direct = NULL;

  if (ret != GST_FLOW_OK) {
    aooct_output_ring_disarm (self->priv->cuda->ring);
    gst_buffer_unref (out);
    return ret;
  }
  ret = queue_output (self, out, &direct);
  if (direct)
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), direct);
  return ret;
}

/* On CUDA, where the data leaves the GPU here, the streaming thread only
 * enqueues the GPU work of a buffer and puts the output into a short ring
 * (waiting only while the ring is full); the src task pushes the outputs
 * in input order once their download (or, for libgstcuda memory, their
 * GPU work) has completed.  Exactly one output per input, in order, with
 * the timestamps and flags basetransform set before transform. */
static GstFlowReturn
generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GstFlowReturn ret;
  GstBuffer *made = NULL;

  if (!aooct_filter_cuda_active (self) || bt->queued_buf == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt,
        outbuf);

  *outbuf = NULL;
  ret = aooct_filter_cuda_wait_space (self);
  if (ret != GST_FLOW_OK) {
    gst_clear_buffer (&bt->queued_buf);
    return ret;
  }
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, &made);
  if (made == NULL || ret != GST_FLOW_OK) {
    gst_clear_buffer (&made);
    aooct_output_ring_disarm (self->priv->cuda->ring);
    return ret;
  }
  return queue_output (self, made, outbuf);
}

/* A downstream renegotiation sends new caps from the streaming thread
 * before set_caps: the outputs of the old caps leave first. */
static GstFlowReturn
submit_input_buffer (GstBaseTransform * bt, gboolean is_discont,
    GstBuffer * input)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);

  if (aooct_filter_cuda_active (self) && gst_pad_needs_reconfigure (bt->srcpad))
    aooct_filter_cuda_drain (self);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (bt,
      is_discont, input);
}

void
aooct_filter_cuda_class_init (GstAooctFilterClass * klass)
{
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  bt_class->generate_output = GST_DEBUG_FUNCPTR (generate_output);
  bt_class->submit_input_buffer = GST_DEBUG_FUNCPTR (submit_input_buffer);
}
