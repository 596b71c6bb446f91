/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: inside the CUDA backend, the lowest part: the element's CUDA
 * context and stream, and the GPU timing of its step (see
 * aooct-cuda-element.h).  The backend's face is aooct-cuda-backend.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudautils.h>

#include "aooct-cuda-element.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda-memory.h"
#include "aooct-error.h"

GST_DEBUG_CATEGORY (aooct_cuda_element_debug);
#define GST_CAT_DEFAULT aooct_cuda_element_debug

gboolean
aooct_cuda_element_open (AooctCudaBackend * ce, GstElement * element,
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
    why = aooct_cuda_device_context_failure (device_id);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot create a CUDA context on device %d: %s", MAX (device_id, 0),
        why);
    g_free (why);
    return FALSE;
  }
  if (!aooct_cuda_element_push (ce, error))
    return FALSE;
  ok = aooct_cuda_stream_new_ranked (&ce->stream, stage, error);
  aooct_cuda_device_pop_context ();
  return ok;
}

gboolean
aooct_cuda_element_push (AooctCudaBackend * ce, GError ** error)
{
  return aooct_cuda_device_push_context (ce->context, "this element's GPU work",
      error);
}

void
aooct_cuda_element_pop (AooctCudaBackend * ce)
{
  aooct_cuda_device_pop_context ();
}

void
aooct_cuda_element_set_timing (AooctCudaBackend * ce, gboolean timing)
{
  ce->timing = timing;
  g_mutex_lock (&ce->stats_lock);
  memset (&ce->stats, 0, sizeof (ce->stats));
  g_mutex_unlock (&ce->stats_lock);
}

gboolean
aooct_cuda_element_timing_begin (AooctCudaBackend * ce, GError ** error)
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
aooct_cuda_element_timing_end (AooctCudaBackend * ce, GError ** error)
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
aooct_cuda_element_timing_collect (AooctCudaBackend * ce, gboolean wait,
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
aooct_cuda_element_finish_timing (AooctCudaBackend * ce)
{
  if (aooct_cuda_element_push (ce, NULL)) {
    aooct_cuda_element_timing_collect (ce, TRUE, NULL);
    aooct_cuda_element_pop (ce);
  }
}

void
aooct_cuda_element_get_stats (AooctCudaBackend * ce, AooctCudaStats * stats)
{
  g_mutex_lock (&ce->stats_lock);
  *stats = ce->stats;
  g_mutex_unlock (&ce->stats_lock);
}
