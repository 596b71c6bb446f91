/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the output ring of a CUDA-backend element (see
 * aooct-output-ring.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-output-ring.h"
#include "aooct-copy-rows.h"

struct _AooctOutputRing
{
  /* one page-locked staging slot and one event per output in flight */
  gpointer staging[AOOCT_OUTPUT_RING_DEPTH];
  AooctCudaEvent done[AOOCT_OUTPUT_RING_DEPTH];
  gsize staging_size;
  AooctOutputRingSlot slot[AOOCT_OUTPUT_RING_DEPTH];
  guint head, tail;             /* src task's / streaming thread's */
  /* set by download / arm_event / arm_complete for the buffer being made */
  AooctOutputRingSlot armed;

  GMutex lock;
  GCond cond;                   /* count, busy, ret or flushing changed */
  guint count;                  /* outputs in the ring */
  gboolean flushing;            /* flush or stop: nobody waits any more */
  gboolean busy;                /* the src task is pushing an output */
  GstFlowReturn ret;            /* the src task's last push, if not OK */
};

AooctOutputRing *
aooct_output_ring_new (void)
{
  AooctOutputRing *ring = g_new0 (AooctOutputRing, 1);

  g_mutex_init (&ring->lock);
  g_cond_init (&ring->cond);
  return ring;
}

/* Drops the buffers of every slot and what was armed; the caller holds
 * the lock or nobody else uses the ring. */
static void
clear_slots (AooctOutputRing * ring)
{
  guint i;

  for (i = 0; i < AOOCT_OUTPUT_RING_DEPTH; i++) {
    gst_clear_buffer (&ring->slot[i].buf);
    memset (&ring->slot[i], 0, sizeof (ring->slot[i]));
  }
  ring->head = ring->tail = ring->count = 0;
  memset (&ring->armed, 0, sizeof (ring->armed));
}

void
aooct_output_ring_release (AooctOutputRing * ring)
{
  guint i;

  g_mutex_lock (&ring->lock);
  clear_slots (ring);
  g_mutex_unlock (&ring->lock);
  for (i = 0; i < AOOCT_OUTPUT_RING_DEPTH; i++) {
    g_clear_pointer (&ring->staging[i], aooct_cuda_free_host);
    g_clear_pointer (&ring->done[i], aooct_cuda_event_free);
  }
  ring->staging_size = 0;
}

void
aooct_output_ring_free (AooctOutputRing * ring)
{
  if (ring == NULL)
    return;
  /* staging and events went with the context (release, at close) */
  clear_slots (ring);
  g_mutex_clear (&ring->lock);
  g_cond_clear (&ring->cond);
  g_free (ring);
}

/* The slot's event, created on first use. */
static gboolean
slot_event (AooctOutputRing * ring, guint slot, GError ** error)
{
  return ring->done[slot] != NULL
      || aooct_cuda_event_new (&ring->done[slot], error);
}

/* Arms the tail slot: enqueues the download of @size bytes from @dev into
 * @host (@host NULL: none, only the event) and records the slot's event
 * after it on @stream; @staged: @host is the slot's staging. */
static gboolean
arm (AooctOutputRing * ring, gpointer host, gconstpointer dev, gsize size,
    gboolean staged, AooctCudaStream stream, GError ** error)
{
  guint slot = ring->tail;

  if (!slot_event (ring, slot, error)
      || (host != NULL
          && !aooct_cuda_download_async (host, dev, size, stream, error))
      || !aooct_cuda_event_record (ring->done[slot], stream, error))
    return FALSE;
  ring->armed.gpu = TRUE;
  ring->armed.staged = staged;
  return TRUE;
}

gboolean
aooct_output_ring_download (AooctOutputRing * ring, const AooctPlane * dev,
    gsize rows, AooctCudaStream stream, GError ** error)
{
  gsize size = rows * dev->stride;
  guint slot = ring->tail, i;

  if (ring->staging_size != size) {
    /* first buffer of these caps (outputs of other caps were drained) */
    for (i = 0; i < AOOCT_OUTPUT_RING_DEPTH; i++)
      g_clear_pointer (&ring->staging[i], aooct_cuda_free_host);
    ring->staging_size = 0;
    for (i = 0; i < AOOCT_OUTPUT_RING_DEPTH; i++)
      if (!aooct_cuda_malloc_host (size, &ring->staging[i], error))
        return FALSE;
    ring->staging_size = size;
  }
  if (!arm (ring, ring->staging[slot], dev->data, size, TRUE, stream, error))
    return FALSE;
  ring->armed.rows = rows;
  ring->armed.dev_stride = dev->stride;
  return TRUE;
}

gboolean
aooct_output_ring_download_into (AooctOutputRing * ring,
    const AooctPlane * dev, gsize rows, gpointer host, AooctCudaStream stream,
    GError ** error)
{
  return arm (ring, host, dev->data, rows * dev->stride, FALSE, stream, error);
}

gboolean
aooct_output_ring_arm_event (AooctOutputRing * ring, AooctCudaStream stream,
    GError ** error)
{
  return arm (ring, NULL, NULL, 0, FALSE, stream, error);
}

void
aooct_output_ring_arm_complete (AooctOutputRing * ring)
{
  ring->armed.gpu = FALSE;
  ring->armed.staged = FALSE;
}

gboolean
aooct_output_ring_armed_gpu (AooctOutputRing * ring)
{
  return ring->armed.gpu;
}

void
aooct_output_ring_disarm (AooctOutputRing * ring)
{
  memset (&ring->armed, 0, sizeof (ring->armed));
}

GstFlowReturn
aooct_output_ring_wait_space (AooctOutputRing * ring)
{
  GstFlowReturn ret;

  g_mutex_lock (&ring->lock);
  while (ring->count == AOOCT_OUTPUT_RING_DEPTH && !ring->flushing
      && ring->ret == GST_FLOW_OK)
    g_cond_wait (&ring->cond, &ring->lock);
  ret = ring->flushing ? GST_FLOW_FLUSHING : ring->ret;
  g_mutex_unlock (&ring->lock);
  return ret;
}

void
aooct_output_ring_add (AooctOutputRing * ring, GstBuffer * buf)
{
  AooctOutputRingSlot *o = &ring->slot[ring->tail];

  *o = ring->armed;
  o->buf = buf;
  memset (&ring->armed, 0, sizeof (ring->armed));
  ring->tail = (ring->tail + 1) % AOOCT_OUTPUT_RING_DEPTH;
  g_mutex_lock (&ring->lock);
  ring->count++;
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
}

gboolean
aooct_output_ring_wait_output (AooctOutputRing * ring)
{
  gboolean ok;

  g_mutex_lock (&ring->lock);
  while (ring->count == 0 && !ring->flushing)
    g_cond_wait (&ring->cond, &ring->lock);
  ok = !ring->flushing;
  if (ok)
    ring->busy = TRUE;
  g_mutex_unlock (&ring->lock);
  return ok;
}

void
aooct_output_ring_output_done (AooctOutputRing * ring, GstFlowReturn ret)
{
  g_mutex_lock (&ring->lock);
  ring->busy = FALSE;
  /* upstream gets it with its next buffer, as from a plain chain */
  if (ret != GST_FLOW_OK && ring->ret == GST_FLOW_OK)
    ring->ret = ret;
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
}

gboolean
aooct_output_ring_wait_head (AooctOutputRing * ring,
    AooctOutputRingSlot ** out, gconstpointer * staging, GError ** error)
{
  AooctOutputRingSlot *o = &ring->slot[ring->head];

  *out = o;
  *staging = o->staged ? ring->staging[ring->head] : NULL;
  return !o->gpu || aooct_cuda_event_sync (ring->done[ring->head], error);
}

void
aooct_output_ring_copy_staged (const AooctOutputRingSlot * out,
    gconstpointer staging, const AooctPlane * host)
{
  aooct_copy_rows (host->data, host->stride, staging,
      out->dev_stride, out->rows);
}

void
aooct_output_ring_drop_head (AooctOutputRing * ring)
{
  AooctOutputRingSlot *o = &ring->slot[ring->head];

  gst_clear_buffer (&o->buf);
  memset (o, 0, sizeof (*o));
  ring->head = (ring->head + 1) % AOOCT_OUTPUT_RING_DEPTH;
  g_mutex_lock (&ring->lock);
  ring->count--;
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
}

void
aooct_output_ring_drain (AooctOutputRing * ring)
{
  g_mutex_lock (&ring->lock);
  while ((ring->count > 0 || ring->busy) && !ring->flushing
      && ring->ret == GST_FLOW_OK)
    g_cond_wait (&ring->cond, &ring->lock);
  g_mutex_unlock (&ring->lock);
}

void
aooct_output_ring_set_flushing (AooctOutputRing * ring, gboolean flushing)
{
  g_mutex_lock (&ring->lock);
  ring->flushing = flushing;
  if (!flushing)
    ring->ret = GST_FLOW_OK;
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
}

void
aooct_output_ring_discard (AooctOutputRing * ring)
{
  g_mutex_lock (&ring->lock);
  clear_slots (ring);
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
}
