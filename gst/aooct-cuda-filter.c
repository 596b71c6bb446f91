/* aooct: the CUDA half of GstAooctFilter (see aooct-cuda-filter.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#ifdef HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif

#include "aooct-cuda-filter.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-host-memory.h"
#include "aooct-cuda-pool.h"
#include "aooct-cuda-graph.h"
#include "aooct-error.h"

GST_DEBUG_CATEGORY_STATIC (aooct_cuda_filter_debug);
#define GST_CAT_DEFAULT aooct_cuda_filter_debug

static void forget_held_inputs (AooctCudaFilter * cf);
static void free_input_planes (AooctCudaFilter * cf);

AooctCudaFilter *
aooct_cuda_filter_new (void)
{
  AooctCudaFilter *cf;

  aooct_cuda_memory_init_once ();
  GST_DEBUG_CATEGORY_GET (aooct_cuda_filter_debug, "aooctfilter");
  cf = g_new0 (AooctCudaFilter, 1);
  cf->in_reading = -1;
  g_mutex_init (&cf->stats_lock);
  g_mutex_init (&cf->ring_lock);
  g_cond_init (&cf->ring_cond);
  return cf;
}

void
aooct_cuda_filter_free (AooctCudaFilter * cf)
{
  if (cf == NULL)
    return;
  aooct_cuda_filter_close (cf);
  g_mutex_clear (&cf->stats_lock);
  g_mutex_clear (&cf->ring_lock);
  g_cond_clear (&cf->ring_cond);
  g_free (cf);
}

void
aooct_cuda_filter_set_context (AooctCudaFilter * cf, GstElement * element,
    GstContext * context, gint device_id)
{
  gst_cuda_handle_set_context (element, context, device_id, &cf->context);
}

gboolean
aooct_cuda_filter_handle_query (AooctCudaFilter * cf, GstElement * element,
    GstQuery * query)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (element, query, cf->context);
}

gboolean
aooct_cuda_filter_open (AooctCudaFilter * cf, GstElement * element,
    gint device_id, GError ** error)
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
  if (!gst_cuda_ensure_element_context (element, device_id, &cf->context)) {
    why = aooct_cuda_context_failure (device_id);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot create a CUDA context on device %d: %s", MAX (device_id, 0),
        why);
    g_free (why);
    return FALSE;
  }
  if (!aooct_cuda_filter_push (cf, error))
    return FALSE;
  ok = aooct_cuda_stream_new (&cf->stream, error);
  aooct_cuda_context_pop ();
  return ok;
}

gboolean
aooct_cuda_filter_push (AooctCudaFilter * cf, GError ** error)
{
  return aooct_cuda_context_push (cf->context, "this element's GPU work",
      error);
}

void
aooct_cuda_filter_pop (AooctCudaFilter * cf)
{
  aooct_cuda_context_pop ();
}

void
aooct_cuda_filter_release_staging (AooctCudaFilter * cf)
{
  guint i;

  if (cf->stream)
    aooct_cuda_stream_sync (cf->stream, NULL);
  if (cf->copy_stream)
    aooct_cuda_stream_sync (cf->copy_stream, NULL);
  aooct_cuda_filter_ring_clear (cf);
  for (i = 0; i < AOOCT_CUDA_OUTPUT_DEPTH; i++) {
    g_clear_pointer (&cf->ring_staging[i], aooct_cuda_free_host);
    g_clear_pointer (&cf->ring_done[i], aooct_cuda_event_free);
  }
  cf->ring_staging_size = 0;
  /* the stream is idle: no launch of the graph is in flight */
  g_clear_pointer (&cf->graph, aooct_cuda_graph_free);
  cf->graph_failures = 0;
  for (i = 0; i < AOOCT_CUDA_TIMING_SLOTS; i++) {
    g_clear_pointer (&cf->t_start[i], aooct_cuda_event_free);
    g_clear_pointer (&cf->t_end[i], aooct_cuda_event_free);
  }
  cf->t_next = cf->t_pending = 0;
  for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++) {
    aooct_cuda_free_host (cf->in_staging[i]);
    aooct_cuda_event_free (cf->in_staging_free[i]);
    cf->in_staging[i] = NULL;
    cf->in_staging_free[i] = NULL;
  }
  /* the stream is idle: every in-place copy has completed */
  forget_held_inputs (cf);
  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++)
    g_clear_pointer (&cf->in_held_done[i], aooct_cuda_event_free);
  aooct_cuda_event_free (cf->in_foreign);
  cf->in_foreign = NULL;
  aooct_cuda_event_free (cf->out_order);
  cf->out_order = NULL;
  cf->out_mem_stream = NULL;
  free_input_planes (cf);
  aooct_cuda_free (cf->out_dev);
  cf->out_dev = NULL;
  cf->out_size = 0;
  cf->in_slot = 0;
}

void
aooct_cuda_filter_close (AooctCudaFilter * cf)
{
  if (cf->context && gst_cuda_context_push (cf->context)) {
    aooct_cuda_filter_release_staging (cf);
    aooct_cuda_stream_free (cf->stream);
    aooct_cuda_stream_free (cf->copy_stream);
    aooct_cuda_context_pop ();
  }
  /* (done above unless the context was lost) */
  forget_held_inputs (cf);
  cf->stream = cf->copy_stream = NULL;
#ifdef HAVE_GST_CUDA_STREAM
  /* the pools' memory holds references of its own */
  gst_clear_cuda_stream (&cf->out_gst_stream);
#endif
  gst_clear_object (&cf->context);
}

/* Rows @first .. @last - 1. */
static void
copy_row_range (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize first, gsize last)
{
  gsize r, n = MIN (dst_stride, src_stride);

  if (dst_stride == src_stride) {
    memcpy (dst + first * dst_stride, src + first * src_stride,
        (last - first) * dst_stride);
    return;
  }
  for (r = first; r < last; r++)
    memcpy (dst + r * dst_stride, src + r * src_stride, n);
}

/* Copies into and out of page-locked staging.  One core's memcpy (about
 * 7 GB/s measured on the H100 host) would bound the whole chain for
 * B-scans of megabytes (the upload itself runs at 55 GB/s), so large
 * copies are split over up to COPY_THREADS cores. */
#define PARALLEL_COPY_BYTES ((gsize) 1 << 20)
#define COPY_THREADS 8

static void
copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize rows)
{
#ifdef _OPENMP
  if (rows * MIN (dst_stride, src_stride) >= PARALLEL_COPY_BYTES
      && rows >= COPY_THREADS) {
    gint c, n = MIN (COPY_THREADS, omp_get_num_procs ());

#pragma omp parallel for schedule(static) num_threads(n)
    for (c = 0; c < n; c++)
      copy_row_range (dst, dst_stride, src, src_stride, rows * c / n,
          rows * (c + 1) / n);
    return;
  }
#endif
  copy_row_range (dst, dst_stride, src, src_stride, 0, rows);
}

/* Drops the references to in-place input whose copy has completed (no
 * host wait), so that upstream gets its buffers back early.  Context
 * current. */
static gboolean
release_finished_inputs (AooctCudaFilter * cf, GError ** error)
{
  guint i;

  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++) {
    gboolean done = TRUE;

    if (cf->in_held[i] == NULL)
      continue;
    if (!aooct_cuda_event_done (cf->in_held_done[i], &done, error))
      return FALSE;
    if (done)
      gst_clear_buffer (&cf->in_held[i]);
  }
  return TRUE;
}

/* After the stream has been synchronised (teardown, stop, new caps): every
 * copy has completed, whatever a failed check said. */
static void
forget_held_inputs (AooctCudaFilter * cf)
{
  guint i;

  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++)
    gst_clear_buffer (&cf->in_held[i]);
  cf->in_held_next = 0;
  gst_clear_object (&cf->in_hold_pool);
}

/* The device plane is sized on first use for the negotiated caps and
 * kept: no allocation per buffer.  The staging slots are allocated on
 * first use too (ensure_staging): input that is page-locked already never
 * needs them. */
/* Streams idle (or lost). */
static void
free_input_planes (AooctCudaFilter * cf)
{
  guint p;

  for (p = 0; p < AOOCT_CUDA_INPUT_PLANES; p++) {
    g_clear_pointer (&cf->in_dev[p], aooct_cuda_free);
    g_clear_pointer (&cf->in_dev_ready[p], aooct_cuda_event_free);
    g_clear_pointer (&cf->in_dev_free[p], aooct_cuda_event_free);
  }
  cf->in_size = 0;
  cf->in_plane = 0;
  cf->in_reading = -1;
}

static gboolean
ensure_input (AooctCudaFilter * cf, gsize size, GError ** error)
{
  guint i, p;

  if (cf->in_size == size)
    return TRUE;
  if (cf->in_size != 0) {
    /* caps changed without a teardown: start over */
    aooct_cuda_stream_sync (cf->stream, NULL);
    aooct_cuda_stream_sync (cf->copy_stream, NULL);
    forget_held_inputs (cf);
    for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++)
      g_clear_pointer (&cf->in_staging[i], aooct_cuda_free_host);
    free_input_planes (cf);
  }
  if (cf->copy_stream == NULL
      && !aooct_cuda_stream_new (&cf->copy_stream, error))
    return FALSE;
  for (p = 0; p < AOOCT_CUDA_INPUT_PLANES; p++)
    if (!aooct_cuda_malloc (size, &cf->in_dev[p], error)
        || !aooct_cuda_event_new (&cf->in_dev_ready[p], error)
        || !aooct_cuda_event_new (&cf->in_dev_free[p], error)) {
      free_input_planes (cf);
      return FALSE;
    }
  cf->in_size = size;
  return TRUE;
}

static gboolean
ensure_staging (AooctCudaFilter * cf, guint slot, GError ** error)
{
  return (cf->in_staging[slot] != NULL
      || aooct_cuda_malloc_host (cf->in_size, &cf->in_staging[slot], error))
      && (cf->in_staging_free[slot] != NULL
      || aooct_cuda_event_new (&cf->in_staging_free[slot], error));
}

/* Through staging: the host copy of this buffer overlaps the upload and
 * kernels of the previous one, which use the other slot. */
static gboolean
upload_staged (AooctCudaFilter * cf, const AooctPlane * host, gsize rows,
    gsize dev_stride, gpointer dev, GError ** error)
{
  gsize size = rows * dev_stride;
  guint slot = cf->in_slot;

  /* The slot's previous upload must have left it before we refill it
   * (a never-recorded event counts as done). */
  cf->in_slot = (slot + 1) % AOOCT_CUDA_STAGING_SLOTS;
  if (!ensure_staging (cf, slot, error)
      || !aooct_cuda_event_sync (cf->in_staging_free[slot], error))
    return FALSE;
  copy_rows (cf->in_staging[slot], dev_stride, host->data, host->stride, rows);
  return aooct_cuda_upload_async (dev, cf->in_staging[slot], size,
      cf->copy_stream, error)
      && aooct_cuda_event_record (cf->in_staging_free[slot], cf->copy_stream,
      error);
}

/* How many in-place input buffers we may hold: upstream must still be able
 * to acquire the next frame from @buf's pool while we hold them (a pool of
 * at most one buffer makes the upload synchronous).  The pool's config is
 * read once per pool. */
static guint
hold_limit (AooctCudaFilter * cf, GstBuffer * buf)
{
  GstBufferPool *pool = buf->pool;

  if (pool == NULL)
    return AOOCT_CUDA_INPUT_HOLD;
  if (pool != cf->in_hold_pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint max = 0;

    gst_buffer_pool_config_get_params (config, NULL, NULL, NULL, &max);
    gst_structure_free (config);
    gst_object_replace ((GstObject **) & cf->in_hold_pool,
        GST_OBJECT_CAST (pool));
    cf->in_hold_limit = max == 0 ? AOOCT_CUDA_INPUT_HOLD :
        MIN (AOOCT_CUDA_INPUT_HOLD, max - 1);
  }
  return cf->in_hold_limit;
}

/* In place from page-locked @buf: one asynchronous copy and no host copy.
 * @buf is referenced until the copy has completed, so that its pool
 * cannot hand it out for the next frame while the copy still reads it. */
static gboolean
upload_in_place (AooctCudaFilter * cf, GstBuffer * buf,
    const AooctPlane * host, gsize size, gpointer dev, GError ** error)
{
  guint slot = cf->in_held_next, limit, held = 0, i;

  /* the slot's buffer from AOOCT_CUDA_INPUT_HOLD frames ago */
  if (cf->in_held[slot]) {
    if (!aooct_cuda_event_sync (cf->in_held_done[slot], error))
      return FALSE;
    gst_clear_buffer (&cf->in_held[slot]);
  }
  if (cf->in_held_done[slot] == NULL
      && !aooct_cuda_event_new (&cf->in_held_done[slot], error))
    return FALSE;
  cf->in_held[slot] = gst_buffer_ref (buf);
  cf->in_held_next = (slot + 1) % AOOCT_CUDA_INPUT_HOLD;
  if (!aooct_cuda_upload_async (dev, host->data, size, cf->copy_stream, error)
      || !aooct_cuda_event_record (cf->in_held_done[slot], cf->copy_stream,
          error)) {
    /* the copy may be enqueued: never let the buffer go before it ran */
    aooct_cuda_stream_sync (cf->copy_stream, NULL);
    gst_clear_buffer (&cf->in_held[slot]);
    return FALSE;
  }

  /* within the pool's limit, the oldest first (the slots after this one,
   * in ring order, end with this one) */
  limit = hold_limit (cf, buf);
  for (i = 0; i < AOOCT_CUDA_INPUT_HOLD; i++)
    held += cf->in_held[i] != NULL;
  for (i = 1; i <= AOOCT_CUDA_INPUT_HOLD && held > limit; i++) {
    guint s = (slot + i) % AOOCT_CUDA_INPUT_HOLD;

    if (cf->in_held[s] == NULL)
      continue;
    if (!aooct_cuda_event_sync (cf->in_held_done[s], error))
      return FALSE;
    gst_clear_buffer (&cf->in_held[s]);
    held--;
  }
  return TRUE;
}

/* @buf can be read in place: one page-locked memory (the pool aooctdcsub
 * proposes) holding the plane, its rows laid out as on the device. */
static gboolean
in_place_input (GstBuffer * buf, const AooctPlane * host, gsize dev_stride,
    gsize size)
{
  return buf != NULL && gst_buffer_n_memory (buf) == 1
      && host->stride == dev_stride
      && aooct_cuda_host_memory_holds (gst_buffer_peek_memory (buf, 0),
      host->data, size);
}

gboolean
aooct_cuda_filter_upload (AooctCudaFilter * cf, GstBuffer * buf,
    const AooctPlane * host, gsize rows, gsize dev_stride, AooctPlane * dev,
    GError ** error)
{
  gsize size = rows * dev_stride;
  guint p;
  gboolean ok;

  if (!ensure_input (cf, size, error)
      || !release_finished_inputs (cf, error))
    return FALSE;
  p = cf->in_plane;
  /* the plane's last readers (the kernels of two frames ago) first */
  if (!aooct_cuda_stream_wait (cf->copy_stream, cf->in_dev_free[p], error))
    return FALSE;
  if (in_place_input (buf, host, dev_stride, size))
    ok = upload_in_place (cf, buf, host, size, cf->in_dev[p], error);
  else
    ok = upload_staged (cf, host, rows, dev_stride, cf->in_dev[p], error);
  /* our kernels after the upload */
  if (!ok || !aooct_cuda_event_record (cf->in_dev_ready[p], cf->copy_stream,
          error)
      || !aooct_cuda_stream_wait (cf->stream, cf->in_dev_ready[p], error))
    return FALSE;
  cf->in_plane = (p + 1) % AOOCT_CUDA_INPUT_PLANES;
  cf->in_reading = (gint) p;
  dev->data = cf->in_dev[p];
  dev->stride = dev_stride;
  return TRUE;
}

gboolean
aooct_cuda_filter_upload_done (AooctCudaFilter * cf, GError ** error)
{
  gint p = cf->in_reading;

  if (p < 0)
    return TRUE;
  cf->in_reading = -1;
  return aooct_cuda_event_record (cf->in_dev_free[p], cf->stream, error);
}

GstBufferPool *
aooct_cuda_filter_host_pool_new (AooctCudaFilter * cf, GstCaps * caps,
    guint size, guint min, GError ** error)
{
  GstBufferPool *pool = aooct_cuda_buffer_pool_new_page_locked (cf->context);
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
aooct_cuda_filter_output_plane (AooctCudaFilter * cf, gsize rows,
    gsize dev_stride, AooctPlane * dev, GError ** error)
{
  gsize size = rows * dev_stride;

  if (cf->out_size != size) {
    aooct_cuda_stream_sync (cf->stream, NULL);
    g_clear_pointer (&cf->out_dev, aooct_cuda_free);
    cf->out_size = 0;
    if (!aooct_cuda_malloc (size, &cf->out_dev, error))
      return FALSE;
    cf->out_size = size;
  }
  dev->data = cf->out_dev;
  dev->stride = dev_stride;
  return TRUE;
}

/* The slot's event, created on first use. */
static gboolean
ring_event (AooctCudaFilter * cf, guint slot, GError ** error)
{
  return cf->ring_done[slot] != NULL
      || aooct_cuda_event_new (&cf->ring_done[slot], error);
}

gboolean
aooct_cuda_filter_download_async (AooctCudaFilter * cf,
    const AooctPlane * dev, gsize rows, GError ** error)
{
  gsize size = rows * dev->stride;
  guint slot = cf->ring_tail, i;

  if (cf->ring_staging_size != size) {
    /* first buffer of these caps (outputs of other caps were drained) */
    for (i = 0; i < AOOCT_CUDA_OUTPUT_DEPTH; i++)
      g_clear_pointer (&cf->ring_staging[i], aooct_cuda_free_host);
    cf->ring_staging_size = 0;
    for (i = 0; i < AOOCT_CUDA_OUTPUT_DEPTH; i++)
      if (!aooct_cuda_malloc_host (size, &cf->ring_staging[i], error))
        return FALSE;
    cf->ring_staging_size = size;
  }
  if (!ring_event (cf, slot, error)
      || !aooct_cuda_download_async (cf->ring_staging[slot], dev->data, size,
          cf->stream, error)
      || !aooct_cuda_event_record (cf->ring_done[slot], cf->stream, error))
    return FALSE;
  cf->armed.gpu = TRUE;
  cf->armed.staged = TRUE;
  cf->armed.rows = rows;
  cf->armed.dev_stride = dev->stride;
  return TRUE;
}

gboolean
aooct_cuda_filter_mark_output (AooctCudaFilter * cf, GError ** error)
{
  guint slot = cf->ring_tail;

  if (cf->out_mem_stream) {
    /* >= 1.24: the memory's stream runs after our writes, and its
     * NEED_SYNC flag (set by the GST_MAP_CUDA write map) tells a consumer
     * on another stream to gst_cuda_memory_sync(): no host wait here, the
     * buffer goes out as soon as the ring reaches it */
    gboolean ok = aooct_cuda_event_record (cf->out_order, cf->stream, error)
        && aooct_cuda_stream_wait (cf->out_mem_stream, cf->out_order, error);

    cf->out_mem_stream = NULL;
    if (!ok)
      return FALSE;
    cf->armed.gpu = FALSE;
    cf->armed.staged = FALSE;
    return TRUE;
  }
  if (!ring_event (cf, slot, error)
      || !aooct_cuda_event_record (cf->ring_done[slot], cf->stream, error))
    return FALSE;
  cf->armed.gpu = TRUE;
  cf->armed.staged = FALSE;
  return TRUE;
}

void
aooct_cuda_filter_ring_add (AooctCudaFilter * cf, GstBuffer * buf)
{
  AooctCudaOutput *o = &cf->ring[cf->ring_tail];

  *o = cf->armed;
  o->buf = buf;
  memset (&cf->armed, 0, sizeof (cf->armed));
  cf->ring_tail = (cf->ring_tail + 1) % AOOCT_CUDA_OUTPUT_DEPTH;
}

void
aooct_cuda_filter_ring_disarm (AooctCudaFilter * cf)
{
  memset (&cf->armed, 0, sizeof (cf->armed));
}

gboolean
aooct_cuda_filter_ring_wait_head (AooctCudaFilter * cf,
    AooctCudaOutput ** out, gconstpointer * staging, GError ** error)
{
  AooctCudaOutput *o = &cf->ring[cf->ring_head];

  *out = o;
  *staging = o->staged ? cf->ring_staging[cf->ring_head] : NULL;
  return !o->gpu || aooct_cuda_event_sync (cf->ring_done[cf->ring_head], error);
}

void
aooct_cuda_filter_copy_staged (const AooctCudaOutput * out,
    gconstpointer staging, const AooctPlane * host)
{
  copy_rows (host->data, host->stride, staging, out->dev_stride, out->rows);
}

void
aooct_cuda_filter_ring_drop_head (AooctCudaFilter * cf)
{
  AooctCudaOutput *o = &cf->ring[cf->ring_head];

  gst_clear_buffer (&o->buf);
  memset (o, 0, sizeof (*o));
  cf->ring_head = (cf->ring_head + 1) % AOOCT_CUDA_OUTPUT_DEPTH;
}

void
aooct_cuda_filter_ring_clear (AooctCudaFilter * cf)
{
  guint i;

  for (i = 0; i < AOOCT_CUDA_OUTPUT_DEPTH; i++) {
    gst_clear_buffer (&cf->ring[i].buf);
    memset (&cf->ring[i], 0, sizeof (cf->ring[i]));
  }
  cf->ring_head = cf->ring_tail = cf->ring_count = 0;
  memset (&cf->armed, 0, sizeof (cf->armed));
}

void
aooct_cuda_filter_set_timing (AooctCudaFilter * cf, gboolean timing)
{
  cf->timing = timing;
  g_mutex_lock (&cf->stats_lock);
  memset (&cf->stats, 0, sizeof (cf->stats));
  g_mutex_unlock (&cf->stats_lock);
}

gboolean
aooct_cuda_filter_timing_begin (AooctCudaFilter * cf, GError ** error)
{
  guint slot = cf->t_next;

  if (!cf->timing)
    return TRUE;
  /* the GPU is this many buffers behind: make room (rarely waits) */
  if (cf->t_pending == AOOCT_CUDA_TIMING_SLOTS
      && !aooct_cuda_event_sync (cf->t_end[(slot + AOOCT_CUDA_TIMING_SLOTS -
                  cf->t_pending) % AOOCT_CUDA_TIMING_SLOTS], error))
    return FALSE;
  if (!aooct_cuda_filter_timing_collect (cf, FALSE, error))
    return FALSE;
  if ((cf->t_start[slot] == NULL
          && !aooct_cuda_timing_event_new (&cf->t_start[slot], error))
      || (cf->t_end[slot] == NULL
          && !aooct_cuda_timing_event_new (&cf->t_end[slot], error)))
    return FALSE;
  return aooct_cuda_event_record (cf->t_start[slot], cf->stream, error);
}

gboolean
aooct_cuda_filter_timing_end (AooctCudaFilter * cf, GError ** error)
{
  if (!cf->timing)
    return TRUE;
  if (!aooct_cuda_event_record (cf->t_end[cf->t_next], cf->stream, error))
    return FALSE;
  cf->t_next = (cf->t_next + 1) % AOOCT_CUDA_TIMING_SLOTS;
  cf->t_pending++;
  return TRUE;
}

gboolean
aooct_cuda_filter_timing_collect (AooctCudaFilter * cf, gboolean wait,
    GError ** error)
{
  while (cf->t_pending > 0) {
    guint slot = (cf->t_next + AOOCT_CUDA_TIMING_SLOTS - cf->t_pending) %
        AOOCT_CUDA_TIMING_SLOTS;
    gboolean done = TRUE;
    gfloat ms;

    if (wait) {
      if (!aooct_cuda_event_sync (cf->t_end[slot], error))
        return FALSE;
    } else if (!aooct_cuda_event_done (cf->t_end[slot], &done, error)) {
      return FALSE;
    }
    if (!done)
      break;
    if (!aooct_cuda_event_elapsed_ms (cf->t_start[slot], cf->t_end[slot],
            &ms, error))
      return FALSE;
    cf->t_pending--;
    g_mutex_lock (&cf->stats_lock);
    cf->stats.timed++;
    cf->stats.gpu_ms += ms;
    cf->stats.gpu_ms_max = MAX (cf->stats.gpu_ms_max, ms);
    g_mutex_unlock (&cf->stats_lock);
  }
  return TRUE;
}

void
aooct_cuda_filter_get_stats (AooctCudaFilter * cf, AooctCudaStats * stats)
{
  g_mutex_lock (&cf->stats_lock);
  *stats = cf->stats;
  g_mutex_unlock (&cf->stats_lock);
}

#ifdef HAVE_GST_CUDA_STREAM
/* The stream of the first GstCudaBufferPool on our context that
 * downstream proposed with one (nvcodec elements propose their own
 * stream, so that upstream writes on it and they need no sync), or NULL. */
static GstCudaStream *
proposed_cuda_stream (AooctCudaFilter * cf, GstQuery * query)
{
  guint i, n = query ? gst_query_get_n_allocation_pools (query) : 0;
  GstCudaStream *stream = NULL;

  for (i = 0; i < n && stream == NULL; i++) {
    GstBufferPool *pool = NULL;
    GstStructure *config;

    gst_query_parse_nth_allocation_pool (query, i, &pool, NULL, NULL, NULL);
    if (pool && GST_IS_CUDA_BUFFER_POOL (pool)
        && GST_CUDA_BUFFER_POOL (pool)->context == cf->context) {
      config = gst_buffer_pool_get_config (pool);
      stream = gst_buffer_pool_config_get_cuda_stream (config);
      gst_structure_free (config);
      if (stream && stream->context != cf->context)
        gst_clear_cuda_stream (&stream);
    }
    if (pool)
      gst_object_unref (pool);
  }
  return stream;
}
#endif

GstBufferPool *
aooct_cuda_filter_video_pool_new (AooctCudaFilter * cf, GstCaps * caps,
    GstQuery * query, guint min, guint max, guint * size, GError ** error)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "cannot parse the CUDA video caps %" GST_PTR_FORMAT, caps);
    return NULL;
  }
  /* the 1.22 pool finds its allocator by name: register it first */
  gst_cuda_memory_init_once ();
  pool = gst_cuda_buffer_pool_new (cf->context);
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
    GstCudaStream *stream = proposed_cuda_stream (cf, query);

    if (stream == NULL) {
      if (cf->out_gst_stream == NULL)
        cf->out_gst_stream = gst_cuda_stream_new (cf->context);
      if (cf->out_gst_stream)
        stream = gst_cuda_stream_ref (cf->out_gst_stream);
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
aooct_cuda_filter_map_video_output (AooctCudaFilter * cf, GstBuffer * buf,
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
  if (cmem->context != cf->context) {
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
  cf->out_mem_stream = NULL;
#ifdef HAVE_GST_CUDA_STREAM
  {
    GstCudaStream *stream = gst_cuda_memory_get_stream (cmem);
    struct CUstream_st *handle = stream ?
        (struct CUstream_st *) gst_cuda_stream_get_handle (stream) : NULL;

    /* A consumer on the memory's stream may have enqueued reads of this
     * buffer's last use without waiting for them before releasing it (the
     * rule lets it): our writes wait for them on the GPU. */
    if (handle && handle != cf->stream) {
      if ((cf->out_order == NULL
              && !aooct_cuda_event_new (&cf->out_order, error))
          || !aooct_cuda_event_record (cf->out_order, handle, error)
          || !aooct_cuda_stream_wait (cf->stream, cf->out_order, error)) {
        gst_video_frame_unmap (frame);
        return FALSE;
      }
      cf->out_mem_stream = handle;
    }
  }
#endif
  return TRUE;
}

gboolean
aooct_cuda_filter_neutral_chroma (AooctCudaFilter * cf,
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
            GST_VIDEO_FRAME_COMP_HEIGHT (frame, c), cf->stream, error))
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

const GstVideoInfo *
aooct_cuda_filter_video_layout (GstBuffer * buf, const GstVideoInfo * caps_info)
{
  GstCudaMemory *cmem = single_cuda_memory (buf);

  return cmem ? &cmem->info : caps_info;
}

gboolean
aooct_cuda_filter_map_video_input (AooctCudaFilter * cf, GstBuffer * buf,
    const GstVideoInfo * caps_info, AooctCudaVideoInput * vin,
    AooctPlane * plane, GError ** error)
{
  GstCudaMemory *cmem = single_cuda_memory (buf);
  const GstVideoInfo *mi;

  memset (vin, 0, sizeof (*vin));
  if (cmem == NULL)
    return TRUE;
  if (cmem->context != cf->context) {
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
    if ((cf->in_foreign == NULL
            && !aooct_cuda_event_new (&cf->in_foreign, error))
        || !aooct_cuda_event_record (cf->in_foreign, vin->stream, error)
        || !aooct_cuda_stream_wait (cf->stream, cf->in_foreign, error)) {
      aooct_cuda_filter_unmap_video_input (cf, vin, NULL);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean
aooct_cuda_filter_unmap_video_input (AooctCudaFilter * cf,
    AooctCudaVideoInput * vin, GError ** error)
{
  gboolean ok;

  if (!vin->mapped)
    return TRUE;
  if (vin->stream) {
    /* whatever the producer enqueues next on its stream (a rewrite of
     * this pooled memory) waits for our reads */
    ok = aooct_cuda_event_record (cf->in_foreign, cf->stream, error)
        && aooct_cuda_stream_wait (vin->stream, cf->in_foreign, error);
  } else {
    /* nothing orders the producer after us once the buffer is released */
    ok = aooct_cuda_stream_sync (cf->stream, error);
  }
  gst_video_frame_unmap (&vin->frame);
  vin->mapped = FALSE;
  return ok;
}
