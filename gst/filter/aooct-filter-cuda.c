/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter on the CUDA backend, what of it takes the filter:
 * the GstBaseTransform vfuncs of the output ring (generate_output: the
 * streaming thread only enqueues a buffer's GPU work; the src task that
 * pushes outputs from the ring, aooct-output-ring.h, as their GPU work
 * completes), the ring around events and state changes, and, in test
 * builds only, the fault request (see aooct-filter-private.h).  One
 * buffer's way on the GPU is the backend's, which does not know the
 * filter (aooct_cuda_element_transform, aooct-cuda-buffer.c).  Built only
 * with CUDA. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-cuda-element.h"
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
 * (tests/base/test-cuda-faults.c), which must show that real faults of these
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

gint
aooct_filter_cuda_fault (GstAooctFilter * self)
{
#ifdef AOOCT_FAULT_INJECTION
  if (G_UNLIKELY (self->priv->fault != AOOCT_CUDA_FAULT_NONE)
      && self->priv->stats.buffers == self->priv->fault_at)
    return self->priv->fault;
#endif
  return 0;
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
  AooctOutputDesc out;

  aooct_filter_output_desc (self, &out);
  return aooct_cuda_element_take_output (self->priv->cuda, &out, buf, error);
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
