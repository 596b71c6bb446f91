/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: host memory onto the GPU for a CUDA-backend element: page-locked
 * staging, page-locked input read in place, the device planes uploads
 * alternate between, and the device plane of host-memory output (see
 * aooct-cuda-element.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-cuda-element.h"
#include "aooct-copy-rows.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-host-memory.h"
#include "aooct-cuda-pool.h"
#include "aooct-error.h"

#define GST_CAT_DEFAULT aooct_cuda_element_debug

/* Drops the references to in-place input whose copy has completed (no
 * host wait), so that upstream gets its buffers back early.  Context
 * current. */
static gboolean
release_finished_inputs (AooctCudaBackend * ce, GError ** error)
{
  guint i;

  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++) {
    gboolean done = TRUE;

    if (ce->in_held[i] == NULL)
      continue;
    if (!aooct_cuda_event_done (ce->in_held_done[i], &done, error))
      return FALSE;
    if (done)
      gst_clear_buffer (&ce->in_held[i]);
  }
  return TRUE;
}

/* After the stream has been synchronised (teardown, stop, new caps): every
 * copy has completed, whatever a failed check said. */
void
aooct_cuda_upload_forget_inputs (AooctCudaBackend * ce)
{
  guint i;

  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++)
    gst_clear_buffer (&ce->in_held[i]);
  ce->in_held_next = 0;
  gst_clear_object (&ce->in_hold_pool);
}

/* The device plane is sized on first use for the negotiated caps and
 * kept: no allocation per buffer.  The staging slots are allocated on
 * first use too (ensure_staging): input that is page-locked already never
 * needs them. */
/* Streams idle (or lost). */
static void
free_input_planes (AooctCudaBackend * ce)
{
  guint p;

  for (p = 0; p < AOOCT_CUDA_INPUT_PLANES; p++) {
    g_clear_pointer (&ce->in_dev[p], aooct_cuda_free);
    g_clear_pointer (&ce->in_dev_ready[p], aooct_cuda_event_free);
    g_clear_pointer (&ce->in_dev_free[p], aooct_cuda_event_free);
  }
  ce->in_size = 0;
  ce->in_plane = 0;
  ce->in_reading = -1;
}

static gboolean
ensure_input (AooctCudaBackend * ce, gsize size, GError ** error)
{
  guint i, p;

  if (ce->in_size == size)
    return TRUE;
  if (ce->in_size != 0) {
    /* caps changed without a teardown: start over */
    aooct_cuda_stream_sync (ce->stream, NULL);
    aooct_cuda_stream_sync (ce->copy_stream, NULL);
    aooct_cuda_upload_forget_inputs (ce);
    for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++)
      g_clear_pointer (&ce->in_staging[i], aooct_cuda_free_host);
    free_input_planes (ce);
  }
  if (ce->copy_stream == NULL
      && !aooct_cuda_stream_new (&ce->copy_stream, error))
    return FALSE;
  for (p = 0; p < AOOCT_CUDA_INPUT_PLANES; p++)
    if (!aooct_cuda_malloc (size, &ce->in_dev[p], error)
        || !aooct_cuda_event_new (&ce->in_dev_ready[p], error)
        || !aooct_cuda_event_new (&ce->in_dev_free[p], error)) {
      free_input_planes (ce);
      return FALSE;
    }
  ce->in_size = size;
  return TRUE;
}

static gboolean
ensure_staging (AooctCudaBackend * ce, guint slot, GError ** error)
{
  return (ce->in_staging[slot] != NULL
      || aooct_cuda_malloc_host (ce->in_size, &ce->in_staging[slot], error))
      && (ce->in_staging_free[slot] != NULL
      || aooct_cuda_event_new (&ce->in_staging_free[slot], error));
}

/* Through staging: the host copy of this buffer overlaps the upload and
 * kernels of the previous one, which use the other slot. */
static gboolean
upload_staged (AooctCudaBackend * ce, const AooctPlane * host, gsize rows,
    gsize dev_stride, gpointer dev, GError ** error)
{
  gsize size = rows * dev_stride;
  guint slot = ce->in_slot;

  /* The slot's previous upload must have left it before we refill it
   * (a never-recorded event counts as done). */
  ce->in_slot = (slot + 1) % AOOCT_CUDA_STAGING_SLOTS;
  if (!ensure_staging (ce, slot, error)
      || !aooct_cuda_event_sync (ce->in_staging_free[slot], error))
    return FALSE;
  aooct_copy_rows (ce->in_staging[slot], dev_stride, host->data,
      host->stride, rows);
  return aooct_cuda_upload_async (dev, ce->in_staging[slot], size,
      ce->copy_stream, error)
      && aooct_cuda_event_record (ce->in_staging_free[slot], ce->copy_stream,
      error);
}

/* How many in-place input buffers we may hold: upstream must still be able
 * to acquire the next frame from @buf's pool while we hold them (a pool of
 * at most one buffer makes the upload synchronous).  The pool's config is
 * read once per pool. */
static guint
hold_limit (AooctCudaBackend * ce, GstBuffer * buf)
{
  GstBufferPool *pool = buf->pool;

  if (pool == NULL)
    return AOOCT_CUDA_INPUT_HOLD;
  if (pool != ce->in_hold_pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint max = 0;

    gst_buffer_pool_config_get_params (config, NULL, NULL, NULL, &max);
    gst_structure_free (config);
    gst_object_replace ((GstObject **) & ce->in_hold_pool,
        GST_OBJECT_CAST (pool));
    ce->in_hold_limit = max == 0 ? AOOCT_CUDA_INPUT_HOLD :
        MIN (AOOCT_CUDA_INPUT_HOLD, max - 1);
  }
  return ce->in_hold_limit;
}

/* In place from page-locked @buf: one asynchronous copy and no host copy.
 * @buf is referenced until the copy has completed, so that its pool
 * cannot hand it out for the next frame while the copy still reads it. */
static gboolean
upload_in_place (AooctCudaBackend * ce, GstBuffer * buf,
    const AooctPlane * host, gsize size, gpointer dev, GError ** error)
{
  guint slot = ce->in_held_next, limit, held = 0, i;

  /* the slot's buffer from AOOCT_CUDA_INPUT_HOLD frames ago */
  if (ce->in_held[slot]) {
    if (!aooct_cuda_event_sync (ce->in_held_done[slot], error))
      return FALSE;
    gst_clear_buffer (&ce->in_held[slot]);
  }
  if (ce->in_held_done[slot] == NULL
      && !aooct_cuda_event_new (&ce->in_held_done[slot], error))
    return FALSE;
  ce->in_held[slot] = gst_buffer_ref (buf);
  ce->in_held_next = (slot + 1) % AOOCT_CUDA_INPUT_HOLD;
  if (!aooct_cuda_upload_async (dev, host->data, size, ce->copy_stream, error)
      || !aooct_cuda_event_record (ce->in_held_done[slot], ce->copy_stream,
          error)) {
    /* the copy may be enqueued: never let the buffer go before it ran */
    aooct_cuda_stream_sync (ce->copy_stream, NULL);
    gst_clear_buffer (&ce->in_held[slot]);
    return FALSE;
  }

  /* within the pool's limit, the oldest first (the slots after this one,
   * in ring order, end with this one) */
  limit = hold_limit (ce, buf);
  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++)
    held += ce->in_held[i] != NULL;
  for (i = 1; i <= AOOCT_CUDA_INPUT_HOLD && held > limit; i++) {
    guint s = (slot + i) % AOOCT_CUDA_INPUT_HOLD;

    if (ce->in_held[s] == NULL)
      continue;
    if (!aooct_cuda_event_sync (ce->in_held_done[s], error))
      return FALSE;
    gst_clear_buffer (&ce->in_held[s]);
    held--;
  }
  return TRUE;
}

gboolean
aooct_cuda_upload_buffer (AooctCudaBackend * ce, GstBuffer * hold,
    const AooctPlane * host, gsize rows, gsize dev_stride, AooctPlane * dev,
    GError ** error)
{
  gsize size = rows * dev_stride;
  guint p;
  gboolean ok;

  if (!ensure_input (ce, size, error)
      || !release_finished_inputs (ce, error))
    return FALSE;
  p = ce->in_plane;
  /* the plane's last readers (the kernels of two frames ago) first */
  if (!aooct_cuda_stream_wait (ce->copy_stream, ce->in_dev_free[p], error))
    return FALSE;
  if (hold)
    ok = upload_in_place (ce, hold, host, size, ce->in_dev[p], error);
  else
    ok = upload_staged (ce, host, rows, dev_stride, ce->in_dev[p], error);
  /* our kernels after the upload */
  if (!ok || !aooct_cuda_event_record (ce->in_dev_ready[p], ce->copy_stream,
          error)
      || !aooct_cuda_stream_wait (ce->stream, ce->in_dev_ready[p], error))
    return FALSE;
  ce->in_plane = (p + 1) % AOOCT_CUDA_INPUT_PLANES;
  ce->in_reading = (gint) p;
  dev->data = ce->in_dev[p];
  dev->stride = dev_stride;
  return TRUE;
}

gboolean
aooct_cuda_upload_done (AooctCudaBackend * ce, GError ** error)
{
  gint p = ce->in_reading;

  if (p < 0)
    return TRUE;
  ce->in_reading = -1;
  return aooct_cuda_event_record (ce->in_dev_free[p], ce->stream, error);
}

GstBufferPool *
aooct_cuda_upload_host_pool_new (AooctCudaBackend * ce, GstCaps * caps,
    guint size, guint min, GError ** error)
{
  GstBufferPool *pool = aooct_cuda_buffer_pool_new_page_locked (ce->context);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, 0);
  if (!gst_buffer_pool_set_config (pool, config)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot configure a pool of page-locked input buffers of %u bytes",
        size);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
aooct_cuda_upload_output_plane (AooctCudaBackend * ce, gsize rows,
    gsize dev_stride, AooctPlane * dev, GError ** error)
{
  gsize size = rows * dev_stride;

  if (ce->out_size != size) {
    aooct_cuda_stream_sync (ce->stream, NULL);
    g_clear_pointer (&ce->out_dev, aooct_cuda_free);
    ce->out_size = 0;
    if (!aooct_cuda_malloc (size, &ce->out_dev, error))
      return FALSE;
    ce->out_size = size;
  }
  dev->data = ce->out_dev;
  dev->stride = dev_stride;
  return TRUE;
}

void
aooct_cuda_upload_release_planes (AooctCudaBackend * ce)
{
  guint i;

  for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++) {
    aooct_cuda_free_host (ce->in_staging[i]);
    aooct_cuda_event_free (ce->in_staging_free[i]);
    ce->in_staging[i] = NULL;
    ce->in_staging_free[i] = NULL;
  }
  /* the stream is idle: every in-place copy has completed */
  aooct_cuda_upload_forget_inputs (ce);
  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++)
    g_clear_pointer (&ce->in_held_done[i], aooct_cuda_event_free);
  aooct_cuda_event_free (ce->in_foreign);
  ce->in_foreign = NULL;
  free_input_planes (ce);
  aooct_cuda_free (ce->out_dev);
  ce->out_dev = NULL;
  ce->out_size = 0;
  ce->in_slot = 0;
}
