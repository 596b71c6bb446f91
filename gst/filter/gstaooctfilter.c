/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:gstaooctfilter
 * @title: GstAooctFilter
 * @short_description: base class of the aooct processing elements
 *
 * One step of the reconstruction per element (aooctdcsub, aooctfullrange,
 * aooctpad, aooctkmap, aooctdisp, aooctfft, aooctnorm and the volume
 * views): caps, buffer checks, mapping, the CPU or CUDA backend and the
 * memory between elements are the base class's (gstaooctfilter.h); the
 * element holds its step and its properties.  Its properties (backend,
 * cuda-device-id, gpu-timing, stats, defer-steps, cuda-graphs) are on
 * every processing element.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=100 ! aooctdcsub backend=cuda ! \
 *     aooctpad ! aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm ! videoconvert ! \
 *     autovideosink
 * ]|
 */
/* aooct: base class of the processing elements (see gstaooctfilter.h), its
 * core: the type and its properties, the backend chosen at start, set_caps,
 * the dispatch of each buffer (deferred, on CUDA or on the CPU), events,
 * queries and element errors.  The other concerns have files of their own
 * (aooct-filter-private.h lists them). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-filter-private.h"
#include "aooct-seq-meta.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-late-property.h"

#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-element.h"
#ifdef AOOCT_FAULT_INJECTION
#include "aooct-cuda-fault.h"
#endif
#endif

#define GST_CAT_DEFAULT gst_aooct_filter_debug

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_DEVICE_ID,
  PROP_GPU_TIMING,
  PROP_STATS,
  PROP_DEFER_STEPS,
  PROP_CUDA_GRAPHS,
};

#define DEFAULT_BACKEND GST_AOOCT_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_DEFER_STEPS TRUE
#define DEFAULT_CUDA_GRAPHS TRUE

GType
gst_aooct_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_AOOCT_BACKEND_AUTO, "CUDA when a CUDA device is usable, else CPU",
        "auto"},
    {GST_AOOCT_BACKEND_CPU, "CPU (FFTW3, float32)", "cpu"},
    {GST_AOOCT_BACKEND_CUDA, "CUDA (cuFFT, float32); an error without a GPU",
        "cuda"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstAooctFilter, gst_aooct_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstAooctFilter);
    GST_DEBUG_CATEGORY_INIT (gst_aooct_filter_debug, "aooctfilter", 0,
        "aooct processing element base class"));

GST_DEBUG_CATEGORY (gst_aooct_filter_debug);

/* the parent class (GstBaseTransform's), set by class_init below for the
 * chain-ups of aooct-filter-caps.c and aooct-filter-allocation.c */
gpointer aooct_filter_parent_class;

/* ---- element errors: a GError of the lower layers posted once per cause */

void
gst_aooct_filter_post_error (GstAooctFilter * self, const GError * error)
{
  const gchar *msg = error ? error->message : "unknown error";
  gint code = (error && error->domain == AOOCT_ERROR) ? error->code :
      AOOCT_ERROR_FAILED;

  /* Upstream retries a refused negotiation (reconfigure, new caps query)
   * and every retry fails the same way: one message on the bus per cause
   * is what the user needs. */
  GST_OBJECT_LOCK (self);
  /* counted even when not posted again: the cause is on the bus */
  self->priv->errors_posted++;
  if (g_strcmp0 (self->priv->last_error, msg) == 0) {
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "not posting again: %s", msg);
    return;
  }
  g_free (self->priv->last_error);
  self->priv->last_error = g_strdup (msg);
  GST_OBJECT_UNLOCK (self);

  GST_WARNING_OBJECT (self, "%s", msg);
  switch (code) {
    case AOOCT_ERROR_CAPS:
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_FILE:
      GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_SETTINGS:
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_DATA:
      GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", msg), (NULL));
      break;
    case AOOCT_ERROR_RESOURCE:
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("%s", msg), (NULL));
      break;
    default:
      GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("%s", msg), (NULL));
      break;
  }
}

void
aooct_filter_forget_last_error (GstAooctFilter * self)
{
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->priv->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
}

/* ---- the stats property: buffers and host time counted
 * by the base class since start, GPU time measured with CUDA events on the
 * element's stream when gpu-timing is set and the CUDA graphs captured or
 * launched again, both counted by the element's CUDA side
 * (aooct-cuda-element.h; see aooct-filter-private.h). */

/* The stats property: counts since the element started. */
GstStructure *
aooct_filter_stats_make (const AooctFilterStats * stats, gboolean on_cuda,
    struct _AooctCudaElement *cuda)
{
  GstStructure *st;
#ifdef HAVE_CUDA
  AooctCudaStats cs;
#endif

  st = gst_structure_new ("aooct-stats",
      "backend", G_TYPE_STRING, on_cuda ? "cuda" : "cpu",
      "buffers", G_TYPE_UINT64, stats->buffers,
      "host-time-ms", G_TYPE_DOUBLE, stats->host_ms,
      "host-time-mean-ms", G_TYPE_DOUBLE,
      stats->buffers ? stats->host_ms / stats->buffers : 0.0, NULL);
#ifdef HAVE_CUDA
  /* reset at start on either backend: zero on the CPU */
  aooct_cuda_element_get_stats (cuda, &cs);
  gst_structure_set (st, "gpu-buffers", G_TYPE_UINT64, cs.timed,
      "gpu-time-ms", G_TYPE_DOUBLE, cs.gpu_ms,
      "gpu-time-mean-ms", G_TYPE_DOUBLE, cs.timed ? cs.gpu_ms / cs.timed : 0.0,
      "gpu-time-max-ms", G_TYPE_DOUBLE, cs.gpu_ms_max,
      "graphs-captured", G_TYPE_UINT64, cs.graphs_captured,
      "graphs-relaunched", G_TYPE_UINT64, cs.graphs_relaunched, NULL);
#endif
  return st;
}

/* ---- the calls from GstAooctFilter into its subclass's class vfuncs,
 * which take the filter: setup() and the step's plan made with the
 * settings it gave (aooct-step.h's plan_new) with the CUDA context
 * current, live(), defer(), teardown() (the plan freed first).  The
 * plan's execute on a buffer is the backends' (aooct_filter_process_host in
 * aooct-filter-buffers.c, aooct_cuda_buffer_transform in
 * aooct-cuda-buffer.c); the contract itself is gstaooctfilter.h's class
 * struct (see aooct-filter-private.h). */

/* klass->teardown(), after the GPU work that may read what it frees and
 * with the staging of the old caps (context current around it). */
void
aooct_filter_subclass_teardown (GstAooctFilter * self)
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

/* klass->setup() for the negotiated geometry, then the plan of the
 * active backend with the settings it gave (context current around both
 * on CUDA).  A plan that cannot be made undoes the setup (teardown()). */
static gboolean
setup_and_create (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  const AooctStepShape shape = { &self->in_geom, &self->out_geom,
    &self->out_vinfo, self->in_positions
  };
  gconstpointer settings = NULL;

  if (klass->setup && !klass->setup (self, &settings, error))
    return FALSE;
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    return TRUE;
  if (aooct_step_plan_new (&self->priv->step,
          self->active_backend == GST_AOOCT_BACKEND_CUDA ? klass->cuda_ops :
          klass->cpu_ops, &shape, settings, error))
    return TRUE;
  if (klass->teardown)
    klass->teardown (self);
  return FALSE;
}

gboolean
aooct_filter_subclass_setup (GstAooctFilter * self, GError ** error)
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

gboolean
aooct_filter_subclass_live (GstAooctFilter * self, gconstpointer * live,
    GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  *live = NULL;
  return klass->live == NULL || klass->live (self, live, error);
}

/* The plan's drain at EOS (aooct-step.h), context current on CUDA;
 * FALSE with @error set when it failed. */
gboolean
aooct_filter_subclass_drain (GstAooctFilter * self, GError ** error)
{
  gboolean ok;

#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self) && self->priv->step.plan
      && self->priv->step.ops->drain) {
    if (!aooct_cuda_element_push (self->priv->cuda, error))
      return FALSE;
    ok = aooct_step_drain (&self->priv->step, error);
    aooct_cuda_element_pop (self->priv->cuda);
    return ok;
  }
#endif
  ok = aooct_step_drain (&self->priv->step, error);
  return ok;
}

#ifdef HAVE_CUDA
/* klass->defer(): the step goes onto @outbuf (the input buffer itself)
 * as a pending step instead of being computed (aooct-pending-meta.h). */
gboolean
aooct_filter_subclass_defer (GstAooctFilter * self, GstBuffer * outbuf,
    gdouble * host_ms, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok;

  ok = klass->defer (self, aooct_buffer_ensure_pending_meta (outbuf), error);
  *host_ms += (g_get_monotonic_time () - t0) / 1000.0;
  return ok;
}
#endif

#ifdef HAVE_CUDA
/* ---- GstAooctFilter on the CUDA backend, what of it takes the filter:
 * the GstBaseTransform vfuncs of the output ring (generate_output: the
 * streaming thread only enqueues a buffer's GPU work; the src task that
 * pushes outputs from the ring, aooct-output-ring.h, as their GPU work
 * completes), the ring around events and state changes, and, in test
 * builds only, the fault request (see aooct-filter-private.h).  One
 * buffer's way on the GPU is the backend's, which does not know the
 * filter (aooct_cuda_buffer_transform, aooct-cuda-buffer.c).  Built only
 * with CUDA. */

#ifdef AOOCT_FAULT_INJECTION
/* Only in builds configured with -Dfault-injection=true (the test suite's
 * and CI's; never a shipped build, where none of this is compiled):
 * AOOCT_CUDA_FAULT=ELEMENT:KIND[:N] makes the element named ELEMENT (its
 * name or its factory's) cause a CUDA or cuFFT fault of KIND (launch,
 * kernel, cufft: cuda/aooct-cuda-fault.h) after its GPU work on its N-th
 * buffer (default 1) since start.  For the robustness tests
 * (tests/base/test-cuda-faults.c), which must show that real faults of these
 * kinds end in a clear element error; it does nothing unless set. */
static void
read_fault_request (GstAooctFilter * self)
{
  const gchar *spec = g_getenv ("AOOCT_CUDA_FAULT");
  GstElementFactory *factory = gst_element_get_factory (GST_ELEMENT (self));
  gchar **parts;

  self->priv->fault = AOOCT_CUDA_FAULT_NONE;
  if (spec == NULL || *spec == '\0')
    return;
  parts = g_strsplit (spec, ":", 3);
  if (g_strv_length (parts) >= 2
      && (g_strcmp0 (parts[0], GST_OBJECT_NAME (self)) == 0 || (factory
              && g_strcmp0 (parts[0],
                  GST_OBJECT_NAME (GST_OBJECT (factory))) == 0))) {
    self->priv->fault = aooct_cuda_fault_from_string (parts[1]);
    self->priv->fault_at = parts[2] ? g_ascii_strtoull (parts[2], NULL, 10) : 1;
    GST_WARNING_OBJECT (self, "AOOCT_CUDA_FAULT: will make a '%s' fault "
        "after buffer %" G_GUINT64_FORMAT, parts[1], self->priv->fault_at);
  }
  g_strfreev (parts);
}
#endif

void
aooct_filter_cuda_started (GstAooctFilter * self)
{
#ifdef AOOCT_FAULT_INJECTION
  read_fault_request (self);
#endif
}

gint
aooct_filter_cuda_fault (GstAooctFilter * self)
{
#ifdef AOOCT_FAULT_INJECTION
  if (G_UNLIKELY (self->priv->fault != AOOCT_CUDA_FAULT_NONE)
      && self->priv->stats.buffers == self->priv->fault_at)
    return self->priv->fault;
#endif
  return 0;
}

/* Where the data leaves the GPU here (host-memory output, libgstcuda
 * memory for nvcodec), outputs go through the ring and the src task. */
static gboolean
ring_mode (GstAooctFilter * self)
{
  return aooct_filter_cuda_active (self)
      && (GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video
      || !self->out_cuda_memory);
}

/* Takes the oldest output of the ring once its GPU work is complete, its
 * staged image copied into it. */
static gboolean
take_head (GstAooctFilter * self, GstBuffer ** buf, GError ** error)
{
  AooctOutputDesc out;

  aooct_filter_output_desc (self, &out);
  return aooct_cuda_buffer_take_output (self->priv->cuda, &out, buf, error);
}

/* The src task: pushes the outputs of the ring in order as their GPU work
 * completes, so that the streaming thread only enqueues work and an image
 * leaves as soon as it is ready, without waiting for the next B-scan. */
static void
ring_loop (gpointer user_data)
{
  GstAooctFilter *self = user_data;
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  AooctCudaElement *ce = self->priv->cuda;
  GstFlowReturn ret;
  GstBuffer *buf;
  GError *error = NULL;

  if (!aooct_output_ring_wait_output (ce->ring)) {
    gst_pad_pause_task (bt->srcpad);
    return;
  }
  if (take_head (self, &buf, &error)) {
    ret = gst_pad_push (bt->srcpad, buf);
  } else {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    ret = GST_FLOW_ERROR;
  }
  aooct_output_ring_output_done (ce->ring, ret);
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "pausing the output task: %s",
        gst_flow_get_name (ret));
    gst_pad_pause_task (bt->srcpad);
  }
}

void
aooct_filter_cuda_drain (GstAooctFilter * self)
{
  if (aooct_filter_cuda_active (self))
    aooct_output_ring_drain (self->priv->cuda->ring);
}

void
aooct_filter_cuda_set_flushing (GstAooctFilter * self, gboolean flushing)
{
  aooct_output_ring_set_flushing (self->priv->cuda->ring, flushing);
}

GstFlowReturn
aooct_filter_cuda_wait_space (GstAooctFilter * self)
{
  return ring_mode (self) ? aooct_output_ring_wait_space (self->priv->
      cuda->ring) : GST_FLOW_OK;
}

/* An output made on the GPU (@made, taken) on its way downstream: where
 * its data leave the GPU, into the ring for the src task (started here);
 * complete already (device memory for the next element): in *@direct for
 * the caller to push; an output that leaves the GPU where the caps say
 * device memory (a foreign buffer): finished here, in *@direct. */
static GstFlowReturn
queue_output (GstAooctFilter * self, GstBuffer * made, GstBuffer ** direct)
{
  AooctCudaElement *ce = self->priv->cuda;
  GError *error = NULL;

  *direct = NULL;
  if (!aooct_output_ring_armed_gpu (ce->ring) && !ring_mode (self)) {
    *direct = made;
    return GST_FLOW_OK;
  }
  aooct_output_ring_add (ce->ring, made);
  if (ring_mode (self)) {
    if (!gst_pad_start_task (GST_BASE_TRANSFORM_SRC_PAD (self), ring_loop,
            self, NULL)) {
      GST_ELEMENT_ERROR (self, CORE, THREAD,
          ("cannot start the output task"), (NULL));
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }
  if (!take_head (self, direct, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

GstFlowReturn
aooct_filter_cuda_hand_over (GstAooctFilter * self, GstFlowReturn ret,
    GstBuffer * out)
{
  GstBuffer *direct = NULL;

  if (ret != GST_FLOW_OK) {
    aooct_output_ring_disarm (self->priv->cuda->ring);
    gst_buffer_unref (out);
    return ret;
  }
  ret = queue_output (self, out, &direct);
  if (direct)
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), direct);
  return ret;
}

/* On CUDA, where the data leaves the GPU here, the streaming thread only
 * enqueues the GPU work of a buffer and puts the output into a short ring
 * (waiting only while the ring is full); the src task pushes the outputs
 * in input order once their download (or, for libgstcuda memory, their
 * GPU work) has completed.  Exactly one output per input, in order, with
 * the timestamps and flags basetransform set before transform. */
static GstFlowReturn
generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GstFlowReturn ret;
  GstBuffer *made = NULL;

  if (!aooct_filter_cuda_active (self) || bt->queued_buf == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt,
        outbuf);

  *outbuf = NULL;
  ret = aooct_filter_cuda_wait_space (self);
  if (ret != GST_FLOW_OK) {
    gst_clear_buffer (&bt->queued_buf);
    return ret;
  }
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, &made);
  if (made == NULL || ret != GST_FLOW_OK) {
    gst_clear_buffer (&made);
    aooct_output_ring_disarm (self->priv->cuda->ring);
    return ret;
  }
  return queue_output (self, made, outbuf);
}

/* A downstream renegotiation sends new caps from the streaming thread
 * before set_caps: the outputs of the old caps leave first. */
static GstFlowReturn
submit_input_buffer (GstBaseTransform * bt, gboolean is_discont,
    GstBuffer * input)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);

  if (aooct_filter_cuda_active (self) && gst_pad_needs_reconfigure (bt->srcpad))
    aooct_filter_cuda_drain (self);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (bt,
      is_discont, input);
}

void
aooct_filter_cuda_class_init (GstAooctFilterClass * klass)
{
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  bt_class->generate_output = GST_DEBUG_FUNCPTR (generate_output);
  bt_class->submit_input_buffer = GST_DEBUG_FUNCPTR (submit_input_buffer);
}
#endif /* HAVE_CUDA */

void
gst_aooct_filter_tolerate_inconsistent (GstAooctFilter * self,
    const GError * error)
{
  if (self->priv->inconsistent++ == 1) {
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("%s; going on with the "
            "last consistent settings until this is corrected",
            error->message), (NULL));
  } else {
    GST_DEBUG_OBJECT (self, "last consistent settings kept: %s",
        error->message);
  }
}

void
gst_aooct_filter_settings_consistent (GstAooctFilter * self)
{
  self->priv->inconsistent = 0;
}

/* An error that was recovered from (a buffer went through again, or a
 * flushing seek) may come back: its message must then be posted again,
 * not swallowed as a repeat, which would leave the user with GStreamer's
 * bare "Internal data stream error". */
/* Picks the backend when the element starts (backend is
 * GST_PARAM_MUTABLE_READY). */
static gboolean
open_backend (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstAooctBackend backend;
  gint device_id;
  gboolean cuda_graphs;
  gchar *reason;

  GST_OBJECT_LOCK (self);
  backend = self->priv->backend;
  device_id = self->priv->device_id;
  cuda_graphs = self->priv->cuda_graphs;
  GST_OBJECT_UNLOCK (self);

  self->active_backend = GST_AOOCT_BACKEND_CPU;
  g_clear_pointer (&self->priv->cpu_reason, g_free);
  if (backend == GST_AOOCT_BACKEND_CPU) {
    self->priv->cpu_reason = g_strdup ("backend=cpu was requested");
    return TRUE;
  }
#ifdef HAVE_CUDA
  if (klass->cuda_ops == NULL) {
    reason = g_strdup_printf ("%s has no CUDA implementation yet",
        G_OBJECT_TYPE_NAME (self));
  } else {
    GError *cerr = NULL;

    if (aooct_cuda_element_open (self->priv->cuda, GST_ELEMENT (self),
            device_id, klass->cuda_stage, &cerr)) {
      self->active_backend = GST_AOOCT_BACKEND_CUDA;
      self->priv->cuda->graphs = klass->cuda_graphs && cuda_graphs;
      GST_INFO_OBJECT (self, "running on CUDA%s",
          self->priv->cuda->graphs ? ", one CUDA graph per buffer" : "");
      aooct_filter_cuda_started (self);
      return TRUE;
    }
    aooct_cuda_element_close (self->priv->cuda);
    reason = g_strdup (cerr->message);
    g_clear_error (&cerr);
  }
#else
  (void) klass;
  (void) device_id;
  (void) cuda_graphs;
  reason = g_strdup ("this build of aooct has no CUDA backend (it was "
      "built without nvcc, cuFFT or gstreamer-cuda-1.0)");
#endif

  if (backend == GST_AOOCT_BACKEND_CUDA) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "backend=cuda was requested, but %s; use backend=cpu or auto", reason);
    g_free (reason);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "backend=auto runs on the CPU: %s", reason);
  self->priv->cpu_reason = g_strdup_printf ("backend=auto found no CUDA to run "
      "on: %s", reason);
  g_free (reason);
  return TRUE;
}

static gboolean
gst_aooct_filter_set_caps (GstBaseTransform * bt, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GError *error = NULL;
  AooctGeometry in, out;

  GST_DEBUG_OBJECT (self, "in %" GST_PTR_FORMAT " out %" GST_PTR_FORMAT,
      incaps, outcaps);
#ifdef HAVE_CUDA
  /* outputs of the old caps (usually drained already by the caps event) */
  aooct_filter_cuda_drain (self);
#endif
  aooct_filter_subclass_teardown (self);

  if (!aooct_filter_caps_negotiated (self, incaps, outcaps, &in, &out, &error))
    goto failed;
  self->in_geom = in;
  self->out_geom = out;
  self->in_cuda_memory = aooct_filter_caps_are_cuda (incaps);
  self->out_cuda_memory = aooct_filter_caps_are_cuda (outcaps);
  if (!aooct_filter_subclass_setup (self, &error))
    goto failed;
  self->configured = TRUE;
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->priv->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
  return TRUE;

failed:
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  return FALSE;
}

void
gst_aooct_filter_sync_values (GstAooctFilter * self, GstBuffer * buf)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstClockTime ts = GST_BUFFER_PTS_IS_VALID (buf) ? GST_BUFFER_PTS (buf) :
      GST_BUFFER_DTS (buf);
  GstClockTime stream_time;

  if (bt->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&bt->segment, GST_FORMAT_TIME, ts);
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (self), stream_time);
}

/* once per input buffer, before anything reads the live properties */
static void
gst_aooct_filter_before_transform (GstBaseTransform * bt, GstBuffer * buf)
{
  gst_aooct_filter_sync_values (GST_AOOCT_FILTER (bt), buf);
}

/* In a branch of aooctsplit, an element whose output depends on the
 * buffers before it gets the stream's buffers in order, or refuses
 * (in_order_setting in gstaooctfilter.h). */
static gboolean
check_in_order (GstAooctFilter * self, GstBuffer * inbuf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstAooctFilterPrivate *priv = self->priv;
  gboolean first = !priv->have_pos;
  guint64 expected = first ? 0 : priv->next_pos, pos;
  gchar *setting;

  if (klass->in_order_setting == NULL || aooct_seq_meta_follows (inbuf, TRUE,
          &priv->have_pos, &priv->next_pos, &pos))
    return TRUE;
  setting = klass->in_order_setting (self);
  if (setting == NULL)
    return TRUE;
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS, "%s makes each "
      "image depend on the B-scans before it, so %s needs the whole stream "
      "in order, but inside a branch of aooctsplit (aooctbin gpus=...) it "
      "got buffer %" G_GUINT64_FORMAT " of the stream %s %" G_GUINT64_FORMAT
      ": the images would differ from one chain's.  Put %s after "
      "aooctmerge (or use one chain), or leave %s at its default in the "
      "branches (docs/scale-out.md)", setting, GST_OBJECT_NAME (self), pos,
      first ? "first instead of buffer" : "after", first ? 0 : expected - 1,
      GST_OBJECT_NAME (self), setting);
  g_free (setting);
  return FALSE;
}

/* One buffer's way, top-down: its size against the caps and the layout
 * of its rows (the buffer layer, aooct-filter-buffers.h), the steps
 * deferred to it, the live properties, then one backend -- the step
 * deferred onto the buffer itself, the CUDA backend (upload, step,
 * download: aooct_cuda_buffer_transform) or the CPU one (map, step,
 * unmap: aooct_filter_process_host).  The lower layers return a GError;
 * the element error is posted here. */
static GstFlowReturn
gst_aooct_filter_transform (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstAooctFilterPrivate *priv = self->priv;
  const AooctPendingMeta *pending;
  AooctInputDesc in;
  AooctOutputDesc out;
  AooctStepRun run = { NULL, NULL, NULL, FALSE, NULL,
    inbuf ? GST_BUFFER_OFFSET (inbuf) : GST_BUFFER_OFFSET_NONE
  };
  GError *error = NULL;
  gboolean ok;

  if (!self->configured) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("received a buffer before caps were negotiated"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* the buffer: its size against the caps, the layout of its rows */
  aooct_filter_input_desc (self, &in);
  aooct_filter_output_desc (self, &out);
  if (inbuf && !aooct_filter_check_input_size (&in, inbuf, &priv->in_layout,
          &error))
    goto error;
  if (inbuf && !check_in_order (self, inbuf, &error))
    goto error;
  if (inbuf)
    priv->stats.buffers++;
  pending = inbuf ? aooct_buffer_get_pending_meta (inbuf) : NULL;
  if (pending && !(klass->absorbs_pending && aooct_filter_cuda_active (self))) {
    /* only an element that announced the meta may get such buffers */
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer carries steps deferred by an upstream element "
        "(%s%s%s) that %s cannot apply%s; set defer-steps=false on the "
        "upstream element to turn deferring off",
        pending->pad ? "padding scale and margins " : "",
        pending->kmap.data ? "lambda-to-k resampling " : "",
        pending->disp.data ? "dispersion " : "", GST_OBJECT_NAME (self),
        klass->absorbs_pending ? " on the CPU" : "");
    goto error;
  }
#ifdef HAVE_CUDA
  if (priv->defer_this) {
    /* the output is the input: our step goes onto it (allocation) */
    ok = aooct_filter_subclass_defer (self, outbuf, &priv->stats.host_ms,
        &error);
  } else if (aooct_filter_cuda_active (self)) {
    gint64 t0 = g_get_monotonic_time ();
    AooctCudaBuffer b = {
      .in = &in,
      .in_layout = &priv->in_layout,
      .out = &out,
      .step = &priv->step,
      .pending = pending,
      .graphs = !self->graphs_unsupported,
      .leave_pending = klass->leaves_pending && priv->downstream_absorbs,
      .fault = aooct_filter_cuda_fault (self),
      .log = GST_OBJECT (self),
      .in_offset = run.in_offset,
    };

    ok = aooct_filter_subclass_live (self, &b.live, &error)
        && aooct_cuda_buffer_transform (priv->cuda, &b, inbuf, outbuf, &error);
    priv->stats.host_ms += (g_get_monotonic_time () - t0) / 1000.0;
  } else
#endif
    ok = aooct_filter_subclass_live (self, &run.live, &error)
        && aooct_filter_process_host (&priv->step, &in, &priv->in_layout,
        &out, inbuf, outbuf, &run, &priv->stats.host_ms, &error);
  if (!ok)
    goto error;
  aooct_filter_forget_last_error (self);
  return GST_FLOW_OK;

error:
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  return GST_FLOW_ERROR;
}

GstFlowReturn
gst_aooct_filter_collect (GstAooctFilter * self, GstBuffer * inbuf)
{
  g_return_val_if_fail (inbuf != NULL, GST_FLOW_ERROR);
  return gst_aooct_filter_transform (GST_BASE_TRANSFORM (self), inbuf, NULL);
}

GstFlowReturn
gst_aooct_filter_emit (GstAooctFilter * self, GstBuffer * out)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstFlowReturn ret;

  g_return_val_if_fail (out != NULL, GST_FLOW_ERROR);
#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)) {
    ret = aooct_filter_cuda_wait_space (self);
    if (ret == GST_FLOW_OK)
      ret = gst_aooct_filter_transform (bt, NULL, out);
    return aooct_filter_cuda_hand_over (self, ret, out);
  }
#endif
  ret = gst_aooct_filter_transform (bt, NULL, out);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (out);
    return ret;
  }
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (bt), out);
}

gboolean
gst_aooct_filter_push_event (GstAooctFilter * self, GstEvent * event)
{
#ifdef HAVE_CUDA
  /* the images still in the ring leave before it */
  aooct_filter_cuda_drain (self);
#endif
  return gst_pad_push_event (GST_BASE_TRANSFORM_SRC_PAD (self), event);
}

static gboolean
gst_aooct_filter_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  /* a flushing seek starts the stream over, the step's rings included */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    self->priv->have_pos = FALSE;
    aooct_filter_forget_last_error (self);
    aooct_step_reset (&self->priv->step);
  }
#ifdef HAVE_CUDA

  if (aooct_filter_cuda_active (self)) {
    switch (GST_EVENT_TYPE (event)) {
      case GST_EVENT_FLUSH_START:{
        gboolean ok;

        /* wake the streaming thread and the src task, let flush-start
         * unblock a push downstream, then wait for the task to pause */
        aooct_filter_cuda_set_flushing (self, TRUE);
        ok = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
        gst_pad_pause_task (bt->srcpad);
        return ok;
      }
      case GST_EVENT_FLUSH_STOP:
        aooct_cuda_element_discard_outputs (self->priv->cuda);
        aooct_filter_cuda_set_flushing (self, FALSE);
        break;
      case GST_EVENT_EOS:
        aooct_filter_cuda_drain (self);
        aooct_cuda_element_finish_timing (self->priv->cuda);
        break;
      default:
        /* outputs in flight leave before whatever follows them */
        if (GST_EVENT_IS_SERIALIZED (event))
          aooct_filter_cuda_drain (self);
        break;
    }
  }
#endif
  /* what the step owes the element on the host (aooctregister's report
   * of the last B-scans) before EOS goes on */
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    GError *error = NULL;

    if (!aooct_filter_subclass_drain (self, &error)) {
      gst_aooct_filter_post_error (self, error);
      g_clear_error (&error);
    }
  }
  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;
    guint posted;
    gboolean ok;

    gst_event_parse_caps (event, &caps);
    gst_caps_ref (caps);
    GST_OBJECT_LOCK (self);
    posted = self->priv->errors_posted;
    GST_OBJECT_UNLOCK (self);
    ok = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
    GST_OBJECT_LOCK (self);
    posted = self->priv->errors_posted - posted;
    GST_OBJECT_UNLOCK (self);
    if (!ok && posted == 0)
      aooct_filter_caps_explain_refused (self, caps);
    gst_caps_unref (caps);
    return ok;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static GstStateChangeReturn
gst_aooct_filter_change_state (GstElement * element, GstStateChange transition)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (element);
#ifdef HAVE_CUDA
  GstBaseTransform *bt = GST_BASE_TRANSFORM (element);
#endif

  switch (transition) {
    case GST_STATE_CHANGE_READY_TO_PAUSED:
      aooct_filter_allocation_close (self, FALSE);
#ifdef HAVE_CUDA
      aooct_filter_cuda_set_flushing (self, FALSE);
#endif
      break;
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      /* before the pads deactivate */
#ifdef HAVE_CUDA
      /* the task may be waiting for work with the src pad's stream lock
       * held; flushing also ends a drain an allocation query may be in */
      aooct_filter_cuda_set_flushing (self, TRUE);
      gst_pad_stop_task (bt->srcpad);
#endif
      /* no allocation query in flight from here on */
      aooct_filter_allocation_close (self, TRUE);
      break;
    default:
      break;
  }
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static gboolean
gst_aooct_filter_start (GstBaseTransform * bt)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GError *error = NULL;

  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->priv->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
  if ((klass->start && !klass->start (self, &error))
      || !open_backend (self, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
  memset (&self->priv->stats, 0, sizeof (self->priv->stats));
  self->priv->inconsistent = 0;
  self->priv->have_pos = FALSE;
#ifdef HAVE_CUDA
  GST_OBJECT_LOCK (self);
  aooct_cuda_element_set_timing (self->priv->cuda, self->priv->gpu_timing);
  GST_OBJECT_UNLOCK (self);
#endif
  self->priv->started = TRUE;
  return TRUE;
}

static gboolean
gst_aooct_filter_stop (GstBaseTransform * bt)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  aooct_filter_subclass_teardown (self);
#ifdef HAVE_CUDA
  aooct_cuda_element_close (self->priv->cuda);
#endif
  self->active_backend = GST_AOOCT_BACKEND_CPU;
  self->priv->started = FALSE;
  return TRUE;
}

static gboolean
gst_aooct_filter_query (GstBaseTransform * bt, GstPadDirection direction,
    GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  if (aooct_cuda_element_handle_query (self->priv->cuda, GST_ELEMENT (self),
          query))
    return TRUE;
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)
    aooct_filter_cuda_drain (self);
#endif
  if (direction == GST_PAD_SINK
      && GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)
    return aooct_filter_allocation_answer (GST_AOOCT_FILTER (bt), query);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (bt, direction, query);
}

static void
gst_aooct_filter_set_context (GstElement * element, GstContext * context)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->priv->device_id;
  GST_OBJECT_UNLOCK (self);
  aooct_cuda_element_set_context (self->priv->cuda, element, context,
      device_id);
#endif
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static void
gst_aooct_filter_finalize (GObject * object)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (object);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  /* a CPU core that outlived the last teardown (a CUDA one would need its
   * context, released by then) */
  if (self->priv->step.ops == klass->cpu_ops)
    aooct_step_plan_free (&self->priv->step);
#ifdef HAVE_CUDA
  g_clear_pointer (&self->priv->cuda, aooct_cuda_element_free);
#endif
  g_mutex_clear (&self->priv->allocation_lock);
  g_free (self->priv->last_error);
  g_free (self->priv->cpu_reason);
  g_free (self->in_positions);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* A start-time property changed while running: say that it does nothing
 * now (aooct-late-property.h). */
static void
gst_aooct_filter_dispatch_properties_changed (GObject * object,
    guint n_pspecs, GParamSpec ** pspecs)
{
  aooct_warn_late_properties (GST_ELEMENT (object), n_pspecs, pspecs);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

static void
gst_aooct_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BACKEND:
      self->priv->backend = g_value_get_enum (value);
      break;
    case PROP_DEVICE_ID:
      self->priv->device_id = g_value_get_int (value);
      break;
    case PROP_GPU_TIMING:
      self->priv->gpu_timing = g_value_get_boolean (value);
      break;
    case PROP_DEFER_STEPS:
      self->priv->defer_steps = g_value_get_boolean (value);
      break;
    case PROP_CUDA_GRAPHS:
      self->priv->cuda_graphs = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, self->priv->backend);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->priv->device_id);
      break;
    case PROP_GPU_TIMING:
      g_value_set_boolean (value, self->priv->gpu_timing);
      break;
    case PROP_DEFER_STEPS:
      g_value_set_boolean (value, self->priv->defer_steps);
      break;
    case PROP_CUDA_GRAPHS:
      g_value_set_boolean (value, self->priv->cuda_graphs);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, aooct_filter_stats_make (&self->priv->stats,
              aooct_filter_cuda_active (self), self->priv->cuda));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_filter_class_init (GstAooctFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_aooct_filter_set_property;
  gobject_class->get_property = gst_aooct_filter_get_property;
  gobject_class->finalize = gst_aooct_filter_finalize;
  gobject_class->dispatch_properties_changed =
      gst_aooct_filter_dispatch_properties_changed;
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_aooct_filter_set_context);

  /**
   * GstAooctFilter:backend:
   *
   * Where the step runs: auto (CUDA when a device is usable, else CPU),
   * cpu, or cuda (an error without a usable GPU)
   */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where the step runs: auto (CUDA when a device is usable, else "
          "CPU), cpu, or cuda (an error without a usable GPU)",
          GST_TYPE_AOOCT_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctFilter:cuda-device-id:
   *
   * CUDA device ordinal to run on (-1 = the pipeline's shared context,
   * else device 0)
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device ordinal to run on (-1 = the pipeline's shared context, "
          "else device 0)", -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstAooctFilter:gpu-timing:
   *
   * Measure the GPU time of this step of every buffer with CUDA events
   * (read it from stats; costs two event records per buffer)
   */
  g_object_class_install_property (gobject_class, PROP_GPU_TIMING,
      g_param_spec_boolean ("gpu-timing", "GPU timing",
          "Measure the GPU time of this step of every buffer with CUDA "
          "events (read it from stats; costs two event records per buffer)",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctFilter:stats:
   *
   * Since the element started: backend, buffers, host-time-ms (host time
   * in transform: on CUDA only enqueueing, unless data leaves the GPU),
   * host-time-mean-ms; on CUDA with gpu-timing also gpu-buffers, gpu-time-
   * ms, gpu-time-mean-ms, gpu-time-max-ms (GPU time of the step alone,
   * CUDA events around it on the element's stream; complete after EOS);
   * on CUDA with cuda-graphs also graphs-captured, graphs-relaunched
   * (buffers whose work was captured into a graph, and those that
   * launched the graph of an earlier buffer with the same work)
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Since the element started: backend, buffers, host-time-ms (host "
          "time in transform: on CUDA only enqueueing, unless data leaves "
          "the GPU), host-time-mean-ms; on CUDA with gpu-timing also "
          "gpu-buffers, gpu-time-ms, gpu-time-mean-ms, gpu-time-max-ms (GPU "
          "time of the step alone, CUDA events around it on the element's "
          "stream; complete after EOS); on CUDA with cuda-graphs also "
          "graphs-captured, graphs-relaunched", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /**
   * GstAooctFilter:defer-steps:
   *
   * On CUDA, let a pointwise step (aooctkmap's resampling, aooctdisp's
   * weights, aooctpad's scale and margins) be left to the next aooct
   * element, which applies it fused with its own pass, when that element
   * announces that it can (the deferred steps of docs/cuda-memory.md).
   * The images are the same bytes either way; false makes every element
   * do its own pass (to measure what fusing gains).  Read when the
   * output allocation is decided.
   */
  g_object_class_install_property (gobject_class, PROP_DEFER_STEPS,
      g_param_spec_boolean ("defer-steps", "Defer steps",
          "On CUDA, leave this step to the next aooct element where it can "
          "apply it fused with its own pass (same output; false: every "
          "element makes its own pass)", DEFAULT_DEFER_STEPS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctFilter:cuda-graphs:
   *
   * On CUDA, capture the step's launches for each buffer into one CUDA
   * graph and launch that (cuda/aooct-cuda-graph.h), for the elements
   * whose step allows it (aooctdcsub, aooctpad, aooctfft, aooctnorm); the
   * others ignore it.  A graph whose work a later buffer repeats (same
   * planes, same settings) is kept and launched again without capturing.
   * This saves most of the host time per buffer that one B-scan per
   * buffer is bound by (docs/performance.md has the figures); false
   * launches every kernel one by one.  Read when the element starts.
   */
  g_object_class_install_property (gobject_class, PROP_CUDA_GRAPHS,
      g_param_spec_boolean ("cuda-graphs", "CUDA graphs",
          "On CUDA, launch this step as one CUDA graph per buffer where the "
          "step allows it, kept for buffers that repeat its work (less host "
          "time per buffer; same output)", DEFAULT_CUDA_GRAPHS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  aooct_filter_parent_class = parent_class;
  bt_class->set_caps = GST_DEBUG_FUNCPTR (gst_aooct_filter_set_caps);
  bt_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_before_transform);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_aooct_filter_transform);
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_aooct_filter_sink_event);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_change_state);
  bt_class->start = GST_DEBUG_FUNCPTR (gst_aooct_filter_start);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_aooct_filter_stop);
  bt_class->query = GST_DEBUG_FUNCPTR (gst_aooct_filter_query);
  bt_class->passthrough_on_same_caps = FALSE;
  /* the vfuncs of the other concerns, each in its file */
  aooct_filter_caps_class_init (klass);
  aooct_filter_allocation_class_init (klass);
#ifdef HAVE_CUDA
  aooct_filter_cuda_class_init (klass);
#endif

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_BACKEND, 0);
}

static void
gst_aooct_filter_init (GstAooctFilter * self)
{
  self->priv = gst_aooct_filter_get_instance_private (self);
  self->priv->backend = DEFAULT_BACKEND;
  self->priv->device_id = DEFAULT_DEVICE_ID;
  self->priv->defer_steps = DEFAULT_DEFER_STEPS;
  self->priv->cuda_graphs = DEFAULT_CUDA_GRAPHS;
  self->active_backend = GST_AOOCT_BACKEND_CPU;
  g_mutex_init (&self->priv->allocation_lock);
#ifdef HAVE_CUDA
  self->priv->cuda = aooct_cuda_element_new ();
#endif
}
