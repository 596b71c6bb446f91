/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the CUDA backend's face (aooct-cuda-backend.h): its lifetime,
 * the output task that pushes the ring's images on the element's src pad
 * as their GPU work completes, the ring around the stream's events and
 * state changes, and the pools.  One buffer's way on the GPU is
 * aooct-cuda-buffer.c's; the context, stream and timing
 * aooct-cuda-element.c's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudautils.h>
#ifdef HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif

#include "aooct-cuda-backend.h"
#include "aooct-cuda-element.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda-graph.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-pool.h"
#include "aooct-error.h"

#define GST_CAT_DEFAULT aooct_cuda_element_debug

AooctCudaBackend *
aooct_cuda_backend_new (const AooctCudaBackendHost * host)
{
  AooctCudaBackend *ce;

  aooct_cuda_memory_init_once ();
  GST_DEBUG_CATEGORY_GET (aooct_cuda_element_debug, "aooctfilter");
  ce = g_new0 (AooctCudaBackend, 1);
  ce->host = *host;
  ce->in_reading = -1;
  g_mutex_init (&ce->stats_lock);
  ce->ring = aooct_output_ring_new ();
  return ce;
}

void
aooct_cuda_backend_free (AooctCudaBackend * ce)
{
  if (ce == NULL)
    return;
  aooct_cuda_backend_close (ce);
  gst_clear_object (&ce->context);
  g_mutex_clear (&ce->stats_lock);
  aooct_output_ring_free (ce->ring);
  g_free (ce);
}

gboolean
aooct_cuda_backend_share_context (AooctCudaBackend * ce, gint device_id,
    GstContext * context, GstQuery * query)
{
  if (context)
    gst_cuda_handle_set_context (ce->host.element, context, device_id,
        &ce->context);
  return query && GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (ce->host.element, query, ce->context);
}

gboolean
aooct_cuda_backend_open (AooctCudaBackend * ce, const AooctCudaOpen * settings,
    GError ** error)
{
  if (!aooct_cuda_element_open (ce, ce->host.element, settings->device_id,
          settings->stage, error)) {
    aooct_cuda_backend_close (ce);
    return FALSE;
  }
  ce->graphs = settings->graphs;
  aooct_cuda_element_set_timing (ce, settings->timing);
  return TRUE;
}

gboolean
aooct_cuda_backend_with_context (AooctCudaBackend * ce,
    AooctCudaContextFunc func, gpointer data, GError ** error)
{
  gboolean ok;

  if (!aooct_cuda_element_push (ce, error))
    return FALSE;
  ok = func (data, error);
  aooct_cuda_element_pop (ce);
  return ok;
}

/* What was sized for the caps, freed (context current; the streams are
 * synchronised first): at new caps and at close. */
static void
release (AooctCudaBackend * ce)
{
  guint i;

  if (ce->stream)
    aooct_cuda_stream_sync (ce->stream, NULL);
  if (ce->copy_stream)
    aooct_cuda_stream_sync (ce->copy_stream, NULL);
  aooct_output_ring_release (ce->ring);
  /* the stream is idle: no launch of the graph is in flight */
  g_clear_pointer (&ce->graph, aooct_cuda_graph_free);
  ce->graph_failures = 0;
  for (i = 0; i < AOOCT_CUDA_TIMING_SLOTS; i++) {
    g_clear_pointer (&ce->t_start[i], aooct_cuda_event_free);
    g_clear_pointer (&ce->t_end[i], aooct_cuda_event_free);
  }
  ce->t_next = ce->t_pending = 0;
  aooct_cuda_event_free (ce->out_order);
  ce->out_order = NULL;
  ce->out_mem_stream = NULL;
  aooct_cuda_upload_release_planes (ce);
}

void
aooct_cuda_backend_close (AooctCudaBackend * ce)
{
  if (ce->context && gst_cuda_context_push (ce->context)) {
    release (ce);
    aooct_cuda_stream_free (ce->stream);
    aooct_cuda_stream_free (ce->copy_stream);
    aooct_cuda_device_pop_context ();
  }
  /* (done above unless the context was lost) */
  aooct_cuda_upload_forget_inputs (ce);
  ce->stream = ce->copy_stream = NULL;
#ifdef HAVE_GST_CUDA_STREAM
  /* the pools' memory holds references of its own */
  gst_clear_cuda_stream (&ce->out_gst_stream);
#endif
  gst_clear_object (&ce->context);
}

gboolean
aooct_cuda_backend_transform (AooctCudaBackend * ce, const AooctCudaBuffer * b,
    GstBuffer * inbuf, GstBuffer * outbuf, GError ** error)
{
  return aooct_cuda_buffer_transform (ce, b, inbuf, outbuf, error);
}

/* ---- the output task */

/* Where the data leaves the GPU here (host-memory output, libgstcuda
 * memory for nvcodec), outputs go through the ring and the output task. */
static gboolean
ring_mode (const AooctOutputDesc * out)
{
  return out->video || !out->cuda_memory;
}

/* The output task: pushes the outputs of the ring in order as their GPU
 * work completes, so that the streaming thread only enqueues work and an
 * image leaves as soon as it is ready, without waiting for the next
 * B-scan. */
static void
output_loop (gpointer user_data)
{
  AooctCudaBackend *ce = user_data;
  GstFlowReturn ret;
  GstBuffer *buf;
  GError *error = NULL;

  if (!aooct_output_ring_wait_output (ce->ring)) {
    gst_pad_pause_task (ce->host.srcpad);
    return;
  }
  if (aooct_cuda_buffer_take_output (ce, &ce->out, &buf, &error)) {
    ret = gst_pad_push (ce->host.srcpad, buf);
  } else {
    ce->host.post_error (ce->host.element, error);
    g_clear_error (&error);
    ret = GST_FLOW_ERROR;
  }
  aooct_output_ring_output_done (ce->ring, ret);
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (ce->host.element, "pausing the output task: %s",
        gst_flow_get_name (ret));
    gst_pad_pause_task (ce->host.srcpad);
  }
}

GstFlowReturn
aooct_cuda_backend_wait_space (AooctCudaBackend * ce,
    const AooctOutputDesc * out)
{
  return ring_mode (out) ? aooct_output_ring_wait_space (ce->ring) :
      GST_FLOW_OK;
}

GstFlowReturn
aooct_cuda_backend_output (AooctCudaBackend * ce, const AooctOutputDesc * out,
    GstFlowReturn ret, GstBuffer * made, GstBuffer ** direct)
{
  GError *error = NULL;

  *direct = NULL;
  if (ret != GST_FLOW_OK || made == NULL) {
    aooct_output_ring_disarm (ce->ring);
    gst_clear_buffer (&made);
    return ret;
  }
  if (!aooct_output_ring_armed_gpu (ce->ring) && !ring_mode (out)) {
    *direct = made;
    return GST_FLOW_OK;
  }
  /* (the task reads it for the outputs added from here on; new caps
   * drain the ring first) */
  ce->out = *out;
  aooct_output_ring_add (ce->ring, made);
  if (ring_mode (out)) {
    if (!gst_pad_start_task (ce->host.srcpad, output_loop, ce, NULL)) {
      GST_ELEMENT_ERROR (ce->host.element, CORE, THREAD,
          ("cannot start the output task"), (NULL));
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }
  /* an output that leaves the GPU where the caps say device memory (a
   * foreign buffer): finished here */
  if (!aooct_cuda_buffer_take_output (ce, out, direct, &error)) {
    ce->host.post_error (ce->host.element, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* At a flush: waits for the GPU work still writing the output ring, which
 * then drops its outputs. */
static void
discard_outputs (AooctCudaBackend * ce)
{
  if (aooct_cuda_element_push (ce, NULL)) {
    /* a download may still write a slot; the ring starts over */
    aooct_cuda_stream_sync (ce->stream, NULL);
    aooct_cuda_element_pop (ce);
  }
  aooct_output_ring_discard (ce->ring);
}

void
aooct_cuda_backend_sync (AooctCudaBackend * ce, AooctCudaSync what)
{
  switch (what) {
    case AOOCT_CUDA_SYNC_DRAIN:
      aooct_output_ring_drain (ce->ring);
      break;
    case AOOCT_CUDA_SYNC_EOS:
      aooct_output_ring_drain (ce->ring);
      aooct_cuda_element_finish_timing (ce);
      break;
    case AOOCT_CUDA_SYNC_FLUSH_START:
      aooct_output_ring_set_flushing (ce->ring, TRUE);
      break;
    case AOOCT_CUDA_SYNC_FLUSH_FORWARDED:
      gst_pad_pause_task (ce->host.srcpad);
      break;
    case AOOCT_CUDA_SYNC_FLUSH_STOP:
      discard_outputs (ce);
      aooct_output_ring_set_flushing (ce->ring, FALSE);
      break;
    case AOOCT_CUDA_SYNC_ACTIVATE:
      aooct_output_ring_set_flushing (ce->ring, FALSE);
      break;
    case AOOCT_CUDA_SYNC_DEACTIVATE:
      /* the task may be waiting for work with the src pad's stream lock
       * held; flushing also ends a drain an allocation query may be in */
      aooct_output_ring_set_flushing (ce->ring, TRUE);
      gst_pad_stop_task (ce->host.srcpad);
      break;
    case AOOCT_CUDA_SYNC_RELEASE:{
      GError *error = NULL;

      if (aooct_cuda_element_push (ce, &error)) {
        release (ce);
        aooct_cuda_element_pop (ce);
      } else {
        GST_ERROR_OBJECT (ce->host.element, "%s", error->message);
        g_clear_error (&error);
      }
      break;
    }
  }
}

void
aooct_cuda_backend_get_stats (AooctCudaBackend * ce, AooctCudaStats * stats)
{
  aooct_cuda_element_get_stats (ce, stats);
}

/* ---- memory */

/* @pool (taken) configured for @caps, @size, @min, @max; NULL with
 * @error where it refuses. */
static GstBufferPool *
configure (GstBufferPool * pool, GstCaps * caps, guint size, guint min,
    guint max, GError ** error)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gchar *what;

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_buffer_pool_set_config (pool, config))
    return pool;
  what = caps ? gst_caps_to_string (caps) : g_strdup ("any caps");
  gst_object_unref (pool);
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
      "cannot configure a CUDA buffer pool of %u-byte buffers for %s", size,
      what);
  g_free (what);
  return NULL;
}

GstBufferPool *
aooct_cuda_backend_pool_new (AooctCudaBackend * ce, AooctCudaPool kind,
    GstCaps * caps, GstQuery * query, guint * size, guint min, guint max,
    GError ** error)
{
  switch (kind) {
    case AOOCT_CUDA_POOL_DEVICE:
      return configure (aooct_cuda_buffer_pool_new (ce->context), caps,
          *size, min, max, error);
    case AOOCT_CUDA_POOL_HOST_OUTPUT:
      return configure (aooct_cuda_buffer_pool_new_page_locked (ce->context),
          caps, *size, min, max, error);
    case AOOCT_CUDA_POOL_HOST_INPUT:
      return aooct_cuda_upload_host_pool_new (ce, caps, *size, min, error);
    case AOOCT_CUDA_POOL_VIDEO:
      return aooct_cuda_video_pool_new (ce, caps, query, min, max, size, error);
  }
  g_return_val_if_reached (NULL);
}

GError *
aooct_cuda_backend_pool_error (GstBufferPool * pool)
{
  return aooct_cuda_buffer_pool_take_error (pool);
}

gboolean
aooct_cuda_backend_holds (AooctCudaBackend * ce, GstBuffer * buf)
{
  return aooct_cuda_memory_of_buffer (buf, ce->context) != NULL;
}
