/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's pools on CUDA, from the query and the element's
 * CUDA backend passed in (no filter; see aooct-filter-allocation.h): the
 * pools it decides downstream (libgstcuda memory for nvcodec, page-locked
 * memory for host output) and proposes upstream (page-locked memory for
 * frames uploaded in place).  The allocation vfuncs that read the
 * element's state (the deferral decision, the output buffer of each
 * input, the metas announced) are in gstaooctfilter.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-allocation.h"

#ifdef HAVE_CUDA

/* Buffer counts for a pool of ours from downstream's proposal: at least
 * 2 (one in flight downstream while the next is being written). */
static void
query_pool_limits (GstQuery * query, guint * min, guint * max)
{
  *min = *max = 0;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, min, max);
  *min = MAX (*min, 2);
  if (*max != 0)
    *max = MAX (*max, *min);
}

/* Puts @pool first in @query, in place of downstream's proposal. */
void
aooct_filter_allocation_use_pool (GstQuery * query, GstBufferPool * pool,
    guint size, guint min, guint max)
{
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
}

/* Video in memory:CUDAMemory: always a GstCudaBufferPool of our own on the
 * shared context, so that every output buffer is libgstcuda memory of the
 * layout we map (a pool proposed downstream could be another kind). */
gboolean
aooct_filter_allocation_cuda_video (AooctCudaBackend * be, GstQuery * query,
    GError ** error)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  guint size = 0, min, max;

  gst_query_parse_allocation (query, &caps, NULL);
  query_pool_limits (query, &min, &max);
  pool = aooct_cuda_backend_pool_new (be, AOOCT_CUDA_POOL_VIDEO, caps, query,
      &size, min, max, error);
  if (pool == NULL)
    return FALSE;
  aooct_filter_allocation_use_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* Our device memory for output buffers of @size bytes, with the limits
 * of @query; NULL where the pool refuses the configuration. */
GstBufferPool *
aooct_filter_allocation_device (AooctCudaBackend * be, GstQuery * query,
    guint size, guint * min, guint * max)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  GError *error = NULL;

  gst_query_parse_allocation (query, &caps, NULL);
  query_pool_limits (query, min, max);
  pool = aooct_cuda_backend_pool_new (be, AOOCT_CUDA_POOL_DEVICE, caps, NULL,
      &size, *min, *max, &error);
  g_clear_error (&error);
  return pool;
}

/* Host-memory output on CUDA where downstream proposes no pool of its own
 * (appsink, fakesink, an encoder, a file): a pool of page-locked memory,
 * so that each image is downloaded straight into its buffer instead of
 * through staging and a host copy (download_output in
 * aooct-cuda-buffer.c).  FALSE where that pool cannot be configured: then
 * GstBaseTransform's default, and the images go through staging. */
gboolean
aooct_filter_allocation_page_locked (AooctCudaBackend * be, GstQuery * query,
    guint size, GError ** error)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  guint min, max;

  gst_query_parse_allocation (query, &caps, NULL);
  query_pool_limits (query, &min, &max);
  pool = aooct_cuda_backend_pool_new (be, AOOCT_CUDA_POOL_HOST_OUTPUT, caps,
      NULL, &size, min, max, error);
  if (pool == NULL)
    return FALSE;
  aooct_filter_allocation_use_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* For a sink_is_video element on CUDA whose input comes from the host
 * (aooctdcsub): a pool of page-locked host memory on the element's CUDA
 * context for frames of @caps, @size bytes each, proposed upstream in
 * @query besides what propose_allocation_metas() answered.  An upstream
 * that writes its frames into it (a camera source or an application
 * acquiring buffers from it) spares the element the host copy into its
 * staging: such a frame is uploaded with one asynchronous copy straight
 * from it, and the buffer is held until that copy has completed
 * (docs/cuda-memory.md).  Only the pool, not its allocator as an
 * allocation parameter: an upstream that allocates without a pool would
 * pay for one cudaHostAlloc per frame.  FALSE (nothing proposed; upstream
 * allocates as it likes) when the pool cannot be made, with @error. */
gboolean
aooct_filter_allocation_upload_pool (AooctCudaBackend * be, GstQuery * query,
    GstCaps * caps, guint size, GError ** error)
{
  GstBufferPool *pool;

  /* one frame being written upstream, one being uploaded, and the ones
   * whose copies may still run */
  pool = aooct_cuda_backend_pool_new (be, AOOCT_CUDA_POOL_HOST_INPUT, caps,
      NULL, &size, AOOCT_CUDA_INPUT_HOLD + 2, 0, error);
  if (pool == NULL)
    return FALSE;
  /* first, where upstream (GstBaseSrc) looks: a pool downstream answered
   * for our input caps, before it decided its own allocation, is nothing
   * upstream should use */
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  gst_query_add_allocation_pool (query, pool, size, AOOCT_CUDA_INPUT_HOLD + 2,
      0);
  gst_object_unref (pool);
  return TRUE;
}
#endif
