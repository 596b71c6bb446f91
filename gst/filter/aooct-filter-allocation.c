/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's allocation: the pools it decides downstream
 * (device memory of ours on CUDA, libgstcuda memory for nvcodec) and
 * proposes upstream (device memory for video written on the GPU,
 * page-locked memory for frames uploaded in place), the metas it
 * announces, the decision to defer its step to downstream, and the output
 * buffer of each input (the input itself when deferring; see
 * aooct-filter-private.h), and upstream's ALLOCATION queries kept apart
 * from the deactivation of the pads. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-error.h"
#include "aooct-raw-caps.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-element.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-pool.h"
#endif

#define GST_CAT_DEFAULT gst_aooct_filter_debug
#define parent_class aooct_filter_parent_class

/* The size check before the output buffer is allocated: caps may promise
 * buffers of up to 2 GiB, and a short buffer must not cost that much
 * memory before it is refused (tests/base/test-robust.c). */
static GstFlowReturn
prepare_output_buffer (GstBaseTransform * bt,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GError *error = NULL;
  GstFlowReturn ret;
  AooctInputDesc in;

  self->priv->defer_this = FALSE;
  aooct_filter_input_desc (self, &in);
  if (self->configured && !aooct_filter_check_input_size (&in, inbuf,
          &self->priv->in_layout, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
#ifdef HAVE_CUDA
  /* Deferring: the output is the input buffer itself, and transform()
   * only adds our step to its pending ones (GstBaseTransform then pushes
   * it as after an in-place transform).  Not a new buffer sharing the
   * memory: the producer's pool would discard its buffer, whose memory is
   * no longer its own, and allocate a new one for each B-scan.  A buffer
   * that somebody else holds too is not ours to change: processed here. */
  if (self->configured && self->priv->deferring
      && gst_buffer_is_writable (inbuf)
      && aooct_cuda_buffer_get_memory (inbuf, self->priv->cuda->context)) {
    *outbuf = inbuf;
    self->priv->defer_this = TRUE;
    return GST_FLOW_OK;
  }
#endif
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (bt,
      inbuf, outbuf);
#ifdef HAVE_CUDA
  if (ret == GST_FLOW_ERROR) {
    /* basetransform says nothing of a failed acquire: if our device pool
     * could not grow, say why */
    GstBufferPool *pool = gst_base_transform_get_buffer_pool (bt);

    if (pool && (error = aooct_cuda_buffer_pool_take_error (pool))) {
      g_prefix_error (&error, "cannot allocate an output buffer: ");
      gst_aooct_filter_post_error (self, error);
      g_clear_error (&error);
    }
    gst_clear_object (&pool);
  }
#endif
  return ret;
}

#ifdef HAVE_CUDA
static guint
output_size (GstAooctFilter * self)
{
  AooctOutputDesc out;

  aooct_filter_output_desc (self, &out);
  return (guint) aooct_filter_output_size (&out);
}

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
static void
query_use_pool (GstQuery * query, GstBufferPool * pool, guint size,
    guint min, guint max)
{
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
}

/* Video in memory:CUDAMemory: always a GstCudaBufferPool of our own on the
 * shared context, so that every output buffer is libgstcuda memory of the
 * layout we map (a pool proposed downstream could be another kind). */
static gboolean
decide_allocation_cuda_video (AooctCudaElement * ce, GstQuery * query,
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
  query_use_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
#endif

#ifdef HAVE_CUDA
/* Whether our step, or its tail, goes to downstream
 * (aooct-pending-meta.h): it must have announced the meta, and our pads
 * carry device memory.  The output pool is made all the same, for buffers
 * processed here after all (shared, or not aooct device memory). */
static void
decide_deferring (GstAooctFilter * self, GstQuery * query)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gboolean announced, defer_steps;

  self->priv->downstream_absorbs = self->priv->deferring = FALSE;
  if ((klass->defer == NULL && !klass->leaves_pending)
      || !aooct_filter_cuda_active (self)
      || !self->out_cuda_memory
      || gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    return;
  /* the deferred steps are for real spectra: complex (full-range, spec
   * section 9) ones get each step done where it is */
  if (!klass->sink_is_video
      && self->in_geom.sample_type == AOOCT_SAMPLE_COMPLEX) {
    GST_INFO_OBJECT (self, "complex spectra: not deferring the step");
    return;
  }
  announced = gst_query_find_allocation_meta (query,
      AOOCT_PENDING_META_API_TYPE, NULL);
  GST_OBJECT_LOCK (self);
  defer_steps = self->priv->defer_steps;
  GST_OBJECT_UNLOCK (self);
  if (announced && !defer_steps) {
    GST_INFO_OBJECT (self, "defer-steps=false: not deferring the step");
    return;
  }
  self->priv->downstream_absorbs = announced;
  self->priv->deferring = announced && klass->defer && self->in_cuda_memory;
  if (!announced)
    GST_INFO_OBJECT (self, "downstream cannot apply a deferred step: "
        "running it here");
  else if (self->priv->deferring)
    GST_INFO_OBJECT (self, "deferring the step to downstream (fused with "
        "its own)");
  else
    GST_INFO_OBJECT (self, "leaving the end of the step to downstream");
}
#endif

#ifdef HAVE_CUDA
/* @pool (taken) configured for our output buffers with the limits of
 * @query; NULL where it refuses the configuration. */
static GstBufferPool *
configure_output_pool (GstQuery * query, GstBufferPool * pool, guint size,
    guint * min, guint * max)
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
static gboolean
decide_allocation_page_locked (AooctCudaElement * ce, GstQuery * query,
    guint size)
{
  guint min, max;
  GstBufferPool *pool = configure_output_pool (query,
      aooct_cuda_buffer_pool_new_page_locked (ce->context), size, &min, &max);

  if (pool == NULL)
    return FALSE;
  query_use_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
#endif

/* On CUDA with CUDA-memory output: a pool of our device memory (allocated
 * when the pool starts, reused after; no allocation per buffer); with
 * host-memory output and no pool from downstream, one of page-locked
 * memory. */
static gboolean
decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);

  AooctCudaElement *ce = self->priv->cuda;
  guint size = output_size (self);
  GError *error = NULL;

  decide_deferring (self, query);

  if (aooct_filter_cuda_active (self) && self->out_cuda_memory
      && GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video) {
    if (decide_allocation_cuda_video (ce, query, &error))
      return TRUE;
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
  if (aooct_filter_cuda_active (self) && self->out_cuda_memory) {
    guint min, max;
    GstBufferPool *pool = configure_output_pool (query,
        aooct_cuda_buffer_pool_new (ce->context), size, &min, &max);

    if (pool == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("cannot configure the CUDA buffer pool (%u bytes per buffer)",
              size), (NULL));
      return FALSE;
    }
    /* started here, not by basetransform, so that a failure (device memory
     * exhausted) reaches the user with CUDA's message */
    if (!gst_buffer_pool_set_active (pool, TRUE)) {
      error = aooct_cuda_buffer_pool_take_error (pool);

      g_prefix_error (&error, "cannot allocate %u CUDA buffers of %u bytes "
          "for the output: ", min, size);
      if (error == NULL)
        g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
            "cannot allocate %u CUDA buffers of %u bytes for the output",
            min, size);
      gst_aooct_filter_post_error (self, error);
      g_clear_error (&error);
      gst_object_unref (pool);
      return FALSE;
    }
    query_use_pool (query, pool, size, min, max);
    gst_object_unref (pool);
    return TRUE;
  }
  if (aooct_filter_cuda_active (self) && !self->out_cuda_memory
      && gst_query_get_n_allocation_pools (query) == 0) {
    if (decide_allocation_page_locked (ce, query, size))
      return TRUE;
    GST_INFO_OBJECT (self, "no page-locked pool for the output: its images "
        "go through staging");
  }
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}

#ifdef HAVE_CUDA
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
static gboolean
propose_upload_pool (AooctCudaElement * ce, GstQuery * query, GstCaps * caps,
    guint size, GError ** error)
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

/* The metas upstream may add (GstVideoMeta for video input, the pending
 * steps where we apply them).  Video input in CUDA memory on CUDA: a pool
 * of our device memory on the shared context instead, for an upstream
 * that writes frames on the GPU (mapping them with AOOCT_MAP_CUDA and
 * following the rule of aooct-cuda-memory.h), so that they are read in
 * place.  An upstream with its own pool (nvcodec's GstCudaBufferPool)
 * keeps it. */
static gboolean
propose_allocation_metas (GstBaseTransform * bt,
    GstQuery * decide_query, GstQuery * query)
{
  gboolean ret;
  GstCaps *caps = NULL;
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GstVideoInfo info;
#endif

  gst_query_parse_allocation (query, &caps, NULL);
#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)
      && GST_AOOCT_FILTER_GET_CLASS (self)->sink_video_cuda_memory
      && aooct_filter_caps_are_cuda (caps)
      && gst_video_info_from_caps (&info, caps)) {
    AooctCudaElement *ce = self->priv->cuda;
    GstBufferPool *pool = aooct_cuda_buffer_pool_new (ce->context);
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint size = (guint) GST_VIDEO_INFO_SIZE (&info);

    gst_buffer_pool_config_set_params (config, caps, size, 2, 0);
    if (gst_buffer_pool_set_config (pool, config))
      gst_query_add_allocation_pool (query, pool, size, 2, 0);
    else
      GST_WARNING_OBJECT (self, "cannot configure a CUDA buffer pool for %"
          GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return TRUE;
  }
#endif
  /* before our own allocation is decided (decide_query NULL) the default
   * asks downstream, which may not be able to answer yet: no reason to
   * keep our own announcement from upstream */
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (bt,
      decide_query, query);
  /* Video input of any row layout is read through its GstVideoMeta (the
   * size check validates it against the buffer): say so, so that an
   * upstream with its own strides (a camera) need not copy its frames.
   * (rawvideoparse with plane-strides does not add the meta: its tightly
   * packed rows are recognised by their size, see
   * aooct_filter_check_input_size.) */
  if (GST_AOOCT_FILTER_GET_CLASS (bt)->sink_is_video
      && !(caps && gst_caps_get_size (caps) > 0
          && aooct_raw_structure_is_own (gst_caps_get_structure (caps, 0)))
      && !gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL)) {
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    ret = TRUE;
  }
#ifdef HAVE_CUDA
  {
    /* Upstream may leave its pointwise step to us (aooct-pending-meta.h)
     * if we apply deferred steps; the default above passes on whatever
     * downstream announced, which is not ours to promise otherwise. */
    gboolean absorbs = GST_AOOCT_FILTER_GET_CLASS (self)->absorbs_pending
        && aooct_filter_cuda_active (self) && aooct_filter_caps_are_cuda (caps);
    guint index;

    /* In passthrough (aooctkmap on k-linear input) buffers go on
     * untouched: what downstream announced stands, and we apply nothing
     * ourselves. */
    if (gst_base_transform_is_passthrough (bt))
      return ret;
    if (gst_query_find_allocation_meta (query, AOOCT_PENDING_META_API_TYPE,
            &index)) {
      if (!absorbs)
        gst_query_remove_nth_allocation_meta (query, index);
    } else if (absorbs) {
      gst_query_add_allocation_meta (query, AOOCT_PENDING_META_API_TYPE, NULL);
    }
    ret |= absorbs;
  }
#endif
  return ret;
}

/* GstBaseTransform (1.22 to 1.26 at least) answers an ALLOCATION query
 * with its own decide query taken out of its private state and put back
 * afterwards if that slot is still empty.  When the application stops the
 * pipeline while upstream's thread is in here (an error elsewhere, as in
 * test_chain_errors), the deactivation of the pads empties the slot
 * meanwhile, the query is put back after it, and nothing ever frees it: a
 * GstQuery and its caps lost for good (LeakSanitizer, docs/robustness.md).
 * Queries being answered and the deactivation are therefore serialised
 * here, and an element going down answers none. */
gboolean
aooct_filter_allocation_answer (GstAooctFilter * self, GstQuery * query)
{
  gboolean ret = FALSE;

  g_mutex_lock (&self->priv->allocation_lock);
  if (!self->priv->allocation_closed)
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (GST_BASE_TRANSFORM
        (self), GST_PAD_SINK, query);
  else
    GST_DEBUG_OBJECT (self, "going down: not answering %" GST_PTR_FORMAT,
        query);
  g_mutex_unlock (&self->priv->allocation_lock);
  return ret;
}

void
aooct_filter_allocation_close (GstAooctFilter * self, gboolean closed)
{
  g_mutex_lock (&self->priv->allocation_lock);
  self->priv->allocation_closed = closed;
  g_mutex_unlock (&self->priv->allocation_lock);
}

/* What upstream may give us: propose_allocation_metas(), and for video
 * frames in system memory on CUDA the page-locked upload pool (frames in
 * CUDA memory get the pool of aooct device memory there). */
static gboolean
propose_allocation (GstBaseTransform * bt,
    GstQuery * decide_query, GstQuery * query)
{
  gboolean ret = propose_allocation_metas (bt, decide_query, query);
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GstCaps *caps = NULL;
  GstCapsFeatures *features;
  GstVideoInfo info;
  AooctRawFormat format;
  GError *error = NULL;

  /* the query is answered once the caps are set, so the element has
   * started and chosen its backend */
  gst_query_parse_allocation (query, &caps, NULL);
  if (!GST_AOOCT_FILTER_GET_CLASS (self)->sink_is_video
      || !aooct_filter_cuda_active (self) || caps == NULL
      || !gst_caps_is_fixed (caps)
      || !aooct_raw_caps_video_info (caps, &info, &format))
    return ret;
  features = gst_caps_get_features (caps, 0);
  if (features && !gst_caps_features_is_equal (features,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return ret;
  if (propose_upload_pool (self->priv->cuda, query, caps,
          (guint) GST_VIDEO_INFO_SIZE (&info), &error))
    return TRUE;
  /* upstream then allocates as it likes: slower, not wrong */
  GST_WARNING_OBJECT (self, "no page-locked pool proposed: %s", error->message);
  g_clear_error (&error);
#endif
  return ret;
}

void
aooct_filter_allocation_class_init (GstAooctFilterClass * klass)
{
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  bt_class->prepare_output_buffer = GST_DEBUG_FUNCPTR (prepare_output_buffer);
  bt_class->decide_allocation = GST_DEBUG_FUNCPTR (decide_allocation);
  bt_class->propose_allocation = GST_DEBUG_FUNCPTR (propose_allocation);
}
