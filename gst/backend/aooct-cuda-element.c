/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the CUDA side of one processing element: its context, streams,
 * staging and GPU timing (see aooct-cuda-element.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudautils.h>
#ifdef HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif

#include "aooct-cuda-element.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-graph.h"
#include "aooct-error.h"

GST_DEBUG_CATEGORY (aooct_cuda_element_debug);
#define GST_CAT_DEFAULT aooct_cuda_element_debug

AooctCudaElement *
aooct_cuda_element_new (void)
{
  AooctCudaElement *ce;

  aooct_cuda_memory_init_once ();
  GST_DEBUG_CATEGORY_GET (aooct_cuda_element_debug, "aooctfilter");
  ce = g_new0 (AooctCudaElement, 1);
  ce->in_reading = -1;
  g_mutex_init (&ce->stats_lock);
  ce->ring = aooct_output_ring_new ();
  return ce;
}

void
aooct_cuda_element_free (AooctCudaElement * ce)
{
  if (ce == NULL)
    return;
  aooct_cuda_element_close (ce);
  g_mutex_clear (&ce->stats_lock);
  aooct_output_ring_free (ce->ring);
  g_free (ce);
}

void
aooct_cuda_element_set_context (AooctCudaElement * ce, GstElement * element,
    GstContext * context, gint device_id)
{
  gst_cuda_handle_set_context (element, context, device_id, &ce->context);
}

gboolean
aooct_cuda_element_handle_query (AooctCudaElement * ce, GstElement * element,
    GstQuery * query)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (element, query, ce->context);
}

gboolean
aooct_cuda_element_open (AooctCudaElement * ce, GstElement * element,
    gint device_id, gint stage, GError ** error)
{
  gchar *why = NULL;
  gboolean ok;

  if (!aooct_cuda_device_usable (device_id, &why)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "no usable CUDA device: %s", why);
    g_free (why);
    return FALSE;
  }
  /* Asks neighbours and the application for a context of the device (a
   * neighbour aooct or nvcodec element may already hold one), else creates
   * one and announces it, so that the pipeline shares one per device. */
  if (!gst_cuda_ensure_element_context (element, device_id, &ce->context)) {
    why = aooct_cuda_context_failure (device_id);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot create a CUDA context on device %d: %s", MAX (device_id, 0),
        why);
    g_free (why);
    return FALSE;
  }
  if (!aooct_cuda_element_push (ce, error))
    return FALSE;
  ok = aooct_cuda_stream_new_ranked (&ce->stream, stage, error);
  aooct_cuda_context_pop ();
  return ok;
}

gboolean
aooct_cuda_element_push (AooctCudaElement * ce, GError ** error)
{
  return aooct_cuda_context_push (ce->context, "this element's GPU work",
      error);
}

void
aooct_cuda_element_pop (AooctCudaElement * ce)
{
  aooct_cuda_context_pop ();
}

void
aooct_cuda_element_release_staging (AooctCudaElement * ce)
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
aooct_cuda_element_close (AooctCudaElement * ce)
{
  if (ce->context && gst_cuda_context_push (ce->context)) {
    aooct_cuda_element_release_staging (ce);
    aooct_cuda_stream_free (ce->stream);
    aooct_cuda_stream_free (ce->copy_stream);
    aooct_cuda_context_pop ();
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

void
aooct_cuda_element_set_timing (AooctCudaElement * ce, gboolean timing)
{
  ce->timing = timing;
  g_mutex_lock (&ce->stats_lock);
  memset (&ce->stats, 0, sizeof (ce->stats));
  g_mutex_unlock (&ce->stats_lock);
}

gboolean
aooct_cuda_element_timing_begin (AooctCudaElement * ce, GError ** error)
{
  guint slot = ce->t_next;

  if (!ce->timing)
    return TRUE;
  /* the GPU is this many buffers behind: make room (rarely waits) */
  if (ce->t_pending == AOOCT_CUDA_TIMING_SLOTS
      && !aooct_cuda_event_sync (ce->t_end[(slot + AOOCT_CUDA_TIMING_SLOTS -
                  ce->t_pending) % AOOCT_CUDA_TIMING_SLOTS], error))
    return FALSE;
  if (!aooct_cuda_element_timing_collect (ce, FALSE, error))
    return FALSE;
  if ((ce->t_start[slot] == NULL
          && !aooct_cuda_timing_event_new (&ce->t_start[slot], error))
      || (ce->t_end[slot] == NULL
          && !aooct_cuda_timing_event_new (&ce->t_end[slot], error)))
    return FALSE;
  return aooct_cuda_event_record (ce->t_start[slot], ce->stream, error);
}

gboolean
aooct_cuda_element_timing_end (AooctCudaElement * ce, GError ** error)
{
  if (!ce->timing)
    return TRUE;
  if (!aooct_cuda_event_record (ce->t_end[ce->t_next], ce->stream, error))
    return FALSE;
  ce->t_next = (ce->t_next + 1) % AOOCT_CUDA_TIMING_SLOTS;
  ce->t_pending++;
  return TRUE;
}

gboolean
aooct_cuda_element_timing_collect (AooctCudaElement * ce, gboolean wait,
    GError ** error)
{
  while (ce->t_pending > 0) {
    guint slot = (ce->t_next + AOOCT_CUDA_TIMING_SLOTS - ce->t_pending) %
        AOOCT_CUDA_TIMING_SLOTS;
    gboolean done = TRUE;
    gfloat ms;

    if (wait) {
      if (!aooct_cuda_event_sync (ce->t_end[slot], error))
        return FALSE;
    } else if (!aooct_cuda_event_done (ce->t_end[slot], &done, error)) {
      return FALSE;
    }
    if (!done)
      break;
    if (!aooct_cuda_event_elapsed_ms (ce->t_start[slot], ce->t_end[slot],
            &ms, error))
      return FALSE;
    ce->t_pending--;
    g_mutex_lock (&ce->stats_lock);
    ce->stats.timed++;
    ce->stats.gpu_ms += ms;
    ce->stats.gpu_ms_max = MAX (ce->stats.gpu_ms_max, ms);
    g_mutex_unlock (&ce->stats_lock);
  }
  return TRUE;
}

void
aooct_cuda_element_finish_timing (AooctCudaElement * ce)
{
  if (aooct_cuda_element_push (ce, NULL)) {
    aooct_cuda_element_timing_collect (ce, TRUE, NULL);
    aooct_cuda_element_pop (ce);
  }
}

void
aooct_cuda_element_discard_outputs (AooctCudaElement * ce)
{
  if (aooct_cuda_element_push (ce, NULL)) {
    /* a download may still write a slot; the ring starts over */
    aooct_cuda_stream_sync (ce->stream, NULL);
    aooct_cuda_element_pop (ce);
  }
  aooct_output_ring_discard (ce->ring);
}

void
aooct_cuda_element_get_stats (AooctCudaElement * ce, AooctCudaStats * stats)
{
  g_mutex_lock (&ce->stats_lock);
  *stats = ce->stats;
  g_mutex_unlock (&ce->stats_lock);
}
