/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: every call from GstAooctFilter into its subclass's step, in one
 * place: setup() and teardown() with the CUDA context current,
 * process_cpu() on mapped host planes, process_cuda() (captured into a
 * CUDA graph where allowed), defer().  What the rest of the base class
 * does around them (caps, memory, the output ring) does not depend on how
 * a step is called (see aooct-filter-private.h; the contract itself is
 * gstaooctfilter.h's class struct). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-error.h"

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
  if (klass->teardown)
    klass->teardown (self);
  self->configured = FALSE;
}

/* klass->setup() for the negotiated geometry (context current around it
 * on CUDA). */
gboolean
aooct_filter_step_setup (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gboolean ok;

  if (klass->setup == NULL)
    return TRUE;
#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)) {
    if (!aooct_cuda_element_push (self->priv->cuda, error))
      return FALSE;
    ok = klass->setup (self, error);
    aooct_cuda_element_pop (self->priv->cuda);
    return ok;
  }
#endif
  ok = klass->setup (self, error);
  return ok;
}

/* klass->process_cpu() on @inbuf and @outbuf, mapped on the host (a
 * volume view passes one of them only: gst_aooct_filter_process_buffers). */
gboolean
aooct_filter_step_process_cpu (GstAooctFilter * self, GstBuffer * inbuf,
    GstBuffer * outbuf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstVideoFrame in_frame, out_frame;
  GstMapInfo in_map, out_map;
  AooctPlane in, out;
  gint64 t0;
  gboolean ok;

  in.data = out.data = NULL;
  in.stride = out.stride = 0;
  if (inbuf && !aooct_filter_map_plane (self, inbuf, klass->sink_is_video,
          &self->priv->in_layout, &self->in_geom, GST_MAP_READ, &in_frame,
          &in_map, &in)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input buffer for reading");
    return FALSE;
  }
  if (outbuf && !aooct_filter_map_plane (self, outbuf, klass->src_is_video,
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
  ok = klass->process_cpu (self, &in, &out, error);
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

/* klass->process_cuda(), captured into one CUDA graph and launched as one
 * where the class allows it and cuda-graphs=true (aooct-cuda-graph.h).
 * A capture that fails enqueues nothing: the step then runs as usual. */
gboolean
aooct_filter_step_process_cuda (GstAooctFilter * self, const AooctPlane * in,
    AooctPlane * out, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaElement *ce = self->priv->cuda;
  GError *err = NULL;
  gboolean ok;

  if (!ce->graphs || self->graphs_unsupported
      || ce->graph_failures >= GRAPH_MAX_FAILURES)
    return klass->process_cuda (self, in, out, ce->stream, error);
  if (!aooct_cuda_graph_begin (ce->stream, &err)) {
    GST_INFO_OBJECT (self, "no CUDA graphs: %s", err->message);
    g_clear_error (&err);
    aooct_cuda_clear_stale_error ();
    ce->graph_failures = GRAPH_MAX_FAILURES;
    return klass->process_cuda (self, in, out, ce->stream, error);
  }
  ok = klass->process_cuda (self, in, out, ce->stream, &err);
  if (aooct_cuda_graph_end (&ce->graph, ce->stream, ok, ok ? &err : NULL)
      && ok) {
    ce->graph_failures = 0;
    return TRUE;
  }
  GST_DEBUG_OBJECT (self, "capture failed (%s): running the step without",
      err ? err->message : "?");
  g_clear_error (&err);
  aooct_cuda_clear_stale_error ();
  if (++ce->graph_failures == GRAPH_MAX_FAILURES)
    GST_INFO_OBJECT (self, "%d captures failed in a row: no more CUDA graphs",
        GRAPH_MAX_FAILURES);
  if (klass->cuda_graph_abort)
    klass->cuda_graph_abort (self);
  return klass->process_cuda (self, in, out, ce->stream, error);
}
#endif
