/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: every call from GstAooctFilter into its subclass's step, in one
 * place: setup() and the step's plan (aooct-step.h: plan_new, execute,
 * reset, rewind, plan_free) with the CUDA context current, the core's
 * process on mapped host planes or (captured into a CUDA graph where
 * allowed) on device planes, defer(), teardown().  What the rest of the base class
 * does around them (caps, memory, the output ring) does not depend on how
 * a step is called (see aooct-filter-private.h; the contract itself is
 * gstaooctfilter.h's class struct). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-error.h"
#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-element.h"
#include "aooct-cuda-graph.h"
#endif

#define GST_CAT_DEFAULT gst_aooct_filter_debug

/* klass->teardown(), after the GPU work that may read what it frees and
 * with the staging of the old caps (context current around it). */
void
aooct_filter_step_teardown (GstAooctFilter * self)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  if (!self->configured)
    return;
#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)) {
    AooctCudaElement *ce = self->priv->cuda;
    GError *error = NULL;

    /* kernels still in flight may read the tables teardown() frees */
    if (aooct_cuda_element_push (ce, &error)) {
      aooct_cuda_element_release_staging (ce);
      aooct_step_plan_free (&self->priv->step);
      if (klass->teardown)
        klass->teardown (self);
      aooct_cuda_element_pop (ce);
    } else {
      GST_ERROR_OBJECT (self, "%s", error->message);
      g_clear_error (&error);
    }
    self->configured = FALSE;
    return;
  }
#endif
  aooct_step_plan_free (&self->priv->step);
  if (klass->teardown)
    klass->teardown (self);
  self->configured = FALSE;
}

/* klass->setup() for the negotiated geometry, then the core of the
 * active backend with the settings it gave (context current around both
 * on CUDA).  A core that cannot be made undoes the setup (teardown()). */
static gboolean
setup_and_create (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gconstpointer settings = NULL;

  if (klass->setup && !klass->setup (self, &settings, error))
    return FALSE;
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    return TRUE;
  if (aooct_step_plan_new (&self->priv->step,
          self->active_backend == GST_AOOCT_BACKEND_CUDA ? klass->cuda_ops :
          klass->cpu_ops, self, settings, error))
    return TRUE;
  if (klass->teardown)
    klass->teardown (self);
  return FALSE;
}

gboolean
aooct_filter_step_setup (GstAooctFilter * self, GError ** error)
{
  gboolean ok;

#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)) {
    if (!aooct_cuda_element_push (self->priv->cuda, error))
      return FALSE;
    ok = setup_and_create (self, error);
    aooct_cuda_element_pop (self->priv->cuda);
    return ok;
  }
#endif
  ok = setup_and_create (self, error);
  return ok;
}

/* klass->live(): what the element reads of its live properties for the
 * buffer about to be processed (NULL without the hook). */
static gboolean
step_live (GstAooctFilter * self, gconstpointer * live, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  *live = NULL;
  return klass->live == NULL || klass->live (self, live, error);
}

/* A flush: what the core keeps from buffer to buffer starts over. */
void
aooct_filter_step_reset (GstAooctFilter * self)
{
  aooct_step_reset (&self->priv->step);
}

/* The plan's execute on @inbuf and @outbuf, mapped on the host (a
 * volume view passes one of them only: gst_aooct_filter_collect / _emit). */
gboolean
aooct_filter_step_process_cpu (GstAooctFilter * self, GstBuffer * inbuf,
    GstBuffer * outbuf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstVideoFrame in_frame, out_frame;
  GstMapInfo in_map, out_map;
  AooctPlane in, out;
  AooctStepRun run = { NULL, NULL, NULL, FALSE, NULL };
  gint64 t0;
  gboolean ok;

  if (!step_live (self, &run.live, error))
    return FALSE;
  in.data = out.data = NULL;
  in.stride = out.stride = 0;
  if (inbuf && !aooct_filter_map_plane (inbuf, klass->sink_is_video,
          &self->priv->in_layout, &self->in_geom, GST_MAP_READ, &in_frame,
          &in_map, &in)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input buffer for reading");
    return FALSE;
  }
  if (outbuf && !aooct_filter_map_plane (outbuf, klass->src_is_video,
          &self->out_vinfo, &self->out_geom, GST_MAP_WRITE, &out_frame,
          &out_map, &out)) {
    if (inbuf)
      aooct_filter_unmap_plane (klass->sink_is_video, inbuf, &in_frame,
          &in_map);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot map the output buffer for writing");
    return FALSE;
  }

  t0 = g_get_monotonic_time ();
  ok = aooct_step_execute (&self->priv->step, &in, &out, &run, error);
  self->priv->stat_host_ms += (g_get_monotonic_time () - t0) / 1000.0;

  if (outbuf)
    aooct_filter_unmap_plane (klass->src_is_video, outbuf, &out_frame,
        &out_map);
  if (inbuf)
    aooct_filter_unmap_plane (klass->sink_is_video, inbuf, &in_frame, &in_map);
  return ok;
}

#ifdef HAVE_CUDA
/* klass->defer(): the step goes onto @outbuf (the input buffer itself)
 * as a pending step instead of being computed (aooct-pending-meta.h). */
gboolean
aooct_filter_step_defer (GstAooctFilter * self, GstBuffer * outbuf,
    GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok;

  ok = klass->defer (self, aooct_buffer_ensure_pending_meta (outbuf), error);
  self->priv->stat_host_ms += (g_get_monotonic_time () - t0) / 1000.0;
  return ok;
}

/* captures that may fail in a row before an element stops trying */
#define GRAPH_MAX_FAILURES 3

/* The plan's execute on the GPU, captured into one CUDA graph and
 * launched as one where the class allows it and cuda-graphs=true
 * (aooct-cuda-graph.h); where the core keys its work (graph_key in
 * aooct-step.h), the graph of an earlier buffer with the same key is
 * launched again instead.  A capture that fails enqueues nothing: the
 * core's rewind forgets what it marked as done, and the step runs as
 * usual. */
gboolean
aooct_filter_step_process_cuda (GstAooctFilter * self, const AooctPlane * in,
    AooctPlane * out, GError ** error)
{
  AooctCudaElement *ce = self->priv->cuda;
  AooctStep *step = &self->priv->step;
  /* what changes per buffer: the stream, the steps deferred to this one,
   * the meta of what it leaves to downstream, whether the input may be
   * overwritten, the live settings */
  AooctStepRun run = { ce->stream, self->priv->pending,
    self->priv->out_pending, self->priv->in_disposable, NULL
  };
  guint8 key[AOOCT_STEP_KEY_MAX];
  gssize klen;
  GError *err = NULL;
  gboolean ok;

  if (!step_live (self, &run.live, error))
    return FALSE;
  if (!ce->graphs || self->graphs_unsupported
      || ce->graph_failures >= GRAPH_MAX_FAILURES)
    return aooct_step_execute (step, in, out, &run, error);
  /* the same work as a buffer before: its graph again, nothing captured */
  klen = aooct_step_graph_key (step, in, out, &run, key);
  if (klen > 0) {
    gboolean hit;

    if (!aooct_cuda_graph_launch_kept (ce->graph, key, klen, ce->stream,
            &hit, error))
      return FALSE;
    if (hit) {
      self->priv->stat_graphs_relaunched++;
      return TRUE;
    }
  }
  if (!aooct_cuda_graph_begin (ce->stream, &err)) {
    GST_INFO_OBJECT (self, "no CUDA graphs: %s", err->message);
    g_clear_error (&err);
    aooct_cuda_clear_stale_error ();
    ce->graph_failures = GRAPH_MAX_FAILURES;
    return aooct_step_execute (step, in, out, &run, error);
  }
  ok = aooct_step_execute (step, in, out, &run, &err);
  if (aooct_cuda_graph_end (&ce->graph, ce->stream, ok,
          klen > 0 ? key : NULL, MAX (klen, 0), ok ? &err : NULL) && ok) {
    ce->graph_failures = 0;
    self->priv->stat_graphs_captured++;
    return TRUE;
  }
  GST_DEBUG_OBJECT (self, "capture failed (%s): running the step without",
      err ? err->message : "?");
  g_clear_error (&err);
  aooct_cuda_clear_stale_error ();
  if (++ce->graph_failures == GRAPH_MAX_FAILURES)
    GST_INFO_OBJECT (self, "%d captures failed in a row: no more CUDA graphs",
        GRAPH_MAX_FAILURES);
  aooct_step_rewind (step);
  return aooct_step_execute (step, in, out, &run, error);
}
#endif
