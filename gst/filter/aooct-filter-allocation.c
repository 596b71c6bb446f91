/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's pools on CUDA, from the query and the element's
 * CUDA side passed in (no filter; see aooct-filter-allocation.h): the
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
#include "aooct-cuda-memory.h"
#include "aooct-cuda-pool.h"

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
aooct_filter_allocation_cuda_video (AooctCudaElement * ce, GstQuery * query,
    GError ** error)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  guint size = 0, min, max;

  gst_query_parse_allocation (query, &caps, NULL);
  query_pool_limits (query, &min, &max);
  pool = aooct_cuda_video_pool_new (ce, caps, query, min, max, &size, error);
  if (pool == NULL)
    return FALSE;
  aooct_filter_allocation_use_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

/* @pool (taken) configured for our output buffers with the limits of
 * @query; NULL where it refuses the configuration. */
GstBufferPool *
aooct_filter_allocation_configure (GstQuery * query, GstBufferPool * pool,
    guint size, guint * min, guint * max)
{
  GstCaps *caps = NULL;
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_query_parse_allocation (query, &caps, NULL);
  query_pool_limits (query, min, max);
  gst_buffer_pool_config_set_params (config, caps, size, *min, *max);
  if (gst_buffer_pool_set_config (pool, config))
    return pool;
  gst_object_unref (pool);
  return NULL;
}

/* Host-memory output on CUDA where downstream proposes no pool of its own
 * (appsink, fakesink, an encoder, a file): a pool of page-locked memory,
 * so that each image is downloaded straight into its buffer instead of
 * through staging and a host copy (download_output in
 * aooct-cuda-buffer.c).  FALSE where that pool cannot be configured: then
 * GstBaseTransform's default, and the images go through staging. */
gboolean
aooct_filter_allocation_page_locked (AooctCudaElement * ce, GstQuery * query,
    guint size)
{
  guint min, max;
  GstBufferPool *pool = aooct_filter_allocation_configure (query,
      aooct_cuda_buffer_pool_new_page_locked (ce->context), size, &min, &max);

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
aooct_filter_allocation_upload_pool (AooctCudaElement * ce, GstQuery * query,
    GstCaps * caps, guint size, GError ** error)
{
  GstBufferPool *pool;

  /* one frame being written upstream, one being uploaded, and the ones
   * whose copies may still run */
  pool = aooct_cuda_upload_host_pool_new (ce, caps, size,
      AOOCT_CUDA_INPUT_HOLD + 2, error);
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
