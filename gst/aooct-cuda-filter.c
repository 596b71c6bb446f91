/* aooct: the CUDA half of GstAooctFilter (see aooct-cuda-filter.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudautils.h>

#include "aooct-cuda-filter.h"
#include "aooct-cuda-device.h"
#include "aooct-cuda-memory.h"
#include "aooct-error.h"

AooctCudaFilter *
aooct_cuda_filter_new (void)
{
  aooct_cuda_memory_init_once ();
  return g_new0 (AooctCudaFilter, 1);
}

void
aooct_cuda_filter_free (AooctCudaFilter * cf)
{
  if (cf == NULL)
    return;
  aooct_cuda_filter_close (cf);
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
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot create a CUDA context on device %d", MAX (device_id, 0));
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
  for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++) {
    aooct_cuda_free_host (cf->in_staging[i]);
    aooct_cuda_event_free (cf->in_staging_free[i]);
    cf->in_staging[i] = NULL;
    cf->in_staging_free[i] = NULL;
  }
  aooct_cuda_free (cf->in_dev);
  aooct_cuda_free (cf->out_dev);
  aooct_cuda_free_host (cf->out_staging);
  cf->in_dev = cf->out_dev = cf->out_staging = NULL;
  cf->in_size = cf->out_size = 0;
  cf->in_slot = 0;
}

void
aooct_cuda_filter_close (AooctCudaFilter * cf)
{
  if (cf->context && gst_cuda_context_push (cf->context)) {
    aooct_cuda_filter_release_staging (cf);
    aooct_cuda_stream_free (cf->stream);
    aooct_cuda_context_pop ();
  }
  cf->stream = NULL;
  gst_clear_object (&cf->context);
}

static void
copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize rows)
{
  gsize r, n = MIN (dst_stride, src_stride);

  if (dst_stride == src_stride) {
    memcpy (dst, src, rows * dst_stride);
    return;
  }
  for (r = 0; r < rows; r++)
    memcpy (dst + r * dst_stride, src + r * src_stride, n);
}

/* Staging is sized on first use for the negotiated caps and kept: no
 * allocation per buffer. */
static gboolean
ensure_input (AooctCudaFilter * cf, gsize size, GError ** error)
{
  guint i;

  if (cf->in_size == size)
    return TRUE;
  if (cf->in_size != 0) {
    /* caps changed without a teardown: start over */
    aooct_cuda_stream_sync (cf->stream, NULL);
    for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++)
      g_clear_pointer (&cf->in_staging[i], aooct_cuda_free_host);
    g_clear_pointer (&cf->in_dev, aooct_cuda_free);
    cf->in_size = 0;
  }
  for (i = 0; i < AOOCT_CUDA_STAGING_SLOTS; i++) {
    if (!aooct_cuda_malloc_host (size, &cf->in_staging[i], error))
      return FALSE;
    if (cf->in_staging_free[i] == NULL
        && !aooct_cuda_event_new (&cf->in_staging_free[i], error))
      return FALSE;
  }
  if (!aooct_cuda_malloc (size, &cf->in_dev, error))
    return FALSE;
  cf->in_size = size;
  return TRUE;
}

gboolean
aooct_cuda_filter_upload (AooctCudaFilter * cf, const AooctPlane * host,
    gsize rows, gsize dev_stride, AooctPlane * dev, GError ** error)
{
  gsize size = rows * dev_stride;
  guint slot;

  if (!ensure_input (cf, size, error))
    return FALSE;
  /* The slot's previous upload must have left it before we refill it
   * (a never-recorded event counts as done). */
  slot = cf->in_slot;
  cf->in_slot = (slot + 1) % AOOCT_CUDA_STAGING_SLOTS;
  if (!aooct_cuda_event_sync (cf->in_staging_free[slot], error))
    return FALSE;
  copy_rows (cf->in_staging[slot], dev_stride, host->data, host->stride, rows);
  if (!aooct_cuda_upload_async (cf->in_dev, cf->in_staging[slot], size,
          cf->stream, error)
      || !aooct_cuda_event_record (cf->in_staging_free[slot], cf->stream,
          error))
    return FALSE;
  dev->data = cf->in_dev;
  dev->stride = dev_stride;
  return TRUE;
}

gboolean
aooct_cuda_filter_output_plane (AooctCudaFilter * cf, gsize rows,
    gsize dev_stride, AooctPlane * dev, GError ** error)
{
  gsize size = rows * dev_stride;

  if (cf->out_size != size) {
    aooct_cuda_stream_sync (cf->stream, NULL);
    g_clear_pointer (&cf->out_dev, aooct_cuda_free);
    g_clear_pointer (&cf->out_staging, aooct_cuda_free_host);
    cf->out_size = 0;
    if (!aooct_cuda_malloc (size, &cf->out_dev, error)
        || !aooct_cuda_malloc_host (size, &cf->out_staging, error))
      return FALSE;
    cf->out_size = size;
  }
  dev->data = cf->out_dev;
  dev->stride = dev_stride;
  return TRUE;
}

gboolean
aooct_cuda_filter_download (AooctCudaFilter * cf, const AooctPlane * dev,
    gsize rows, AooctPlane * host, GError ** error)
{
  if (!aooct_cuda_download_async (cf->out_staging, dev->data,
          rows * dev->stride, cf->stream, error)
      || !aooct_cuda_stream_sync (cf->stream, error))
    return FALSE;
  copy_rows (host->data, host->stride, cf->out_staging, dev->stride, rows);
  return TRUE;
}
