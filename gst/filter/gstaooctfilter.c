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
 * queries, element errors, caps and allocation.  Calls go down only, and
 * what lies below takes arguments, not the filter:
 *   aooct-filter-caps.c        caps helpers on caps alone (memory
 *                              features, square pixels, k-positions, the
 *                              field downstream refused)
 *   aooct-filter-allocation.c  the pools on CUDA, from the query and the
 *                              element's CUDA side
 *   aooct-filter-buffers.c     buffer sizes, the input size check,
 *                              mapping, the CPU backend (map, step, unmap)
 *   aooct-cuda-backend.h       the CUDA backend, an opaque object: open,
 *                              close, transform, output, sync (events),
 *                              stats, pools; its ring and output task
 *                              and everything else behind it */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstaooctfilter.h"
#include "aooct-filter-buffers.h"
#include "aooct-filter-caps.h"
#include "aooct-seq-meta.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-raw-caps.h"
#include "aooct-late-property.h"

#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-backend.h"
#include "aooct-filter-allocation.h"
#ifdef AOOCT_FAULT_INJECTION
#include "aooct-cuda-fault.h"
#endif
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_filter_debug);
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

/* ---- the private state: the struct and what the sections below share */

struct _AooctCudaBackend;

/* What the base class counts since start (the stats property). */
typedef struct
{
  guint64 buffers;
  gdouble host_ms;
} AooctFilterStats;

struct _GstAooctFilterPrivate
{
  /* properties (object lock) */
  GstAooctBackend backend;
  gint device_id;
  gboolean gpu_timing;
  gboolean defer_steps;
  gboolean cuda_graphs;

  /* the step's core of the active backend, from set_caps until teardown
   * (none in passthrough) */
  AooctStep step;

  /* between start() and stop(); the backend chosen then is
   * GstAooctFilter.active_backend */
  gboolean started;
  gchar *cpu_reason;            /* why the element runs on the CPU */
  struct _AooctCudaBackend *cuda;       /* NULL without CUDA */

  /* element errors: the last message posted (to post it once), how many
   * were posted since start (object lock) */
  gchar *last_error;
  guint errors_posted;
  /* buffers in a row processed with the last consistent live settings */
  guint inconsistent;

  /* the row layout of the video buffer being processed without a
   * GstVideoMeta: in_vinfo, or its rows tightly packed (rawvideoparse
   * plane-strides=<N x bytes> of an odd width) */
  GstVideoInfo in_layout;

  /* deferred steps (aooct-pending-meta.h), decided at allocation */
  gboolean downstream_absorbs;  /* downstream announced the pending meta */
  gboolean deferring;           /* ... and our whole step goes to it */
  gboolean defer_this;          /* the output being made is the input */

  /* ALLOCATION queries from upstream against the deactivation of the
   * pads (aooct-filter-allocation.c): closed from PAUSED_TO_READY until
   * READY_TO_PAUSED */
  GMutex allocation_lock;
  gboolean allocation_closed;

  /* stats (gstaooctfilter.c; the GPU's in the AooctCudaBackend) */
  AooctFilterStats stats;

#ifdef AOOCT_FAULT_INJECTION
  gint fault;                   /* AooctCudaFault to make (tests only) */
  guint64 fault_at;             /* ... after this buffer (1 = the first) */
#endif
  /* in a branch of aooctsplit (aooct-seq-meta.h): the position of the
   * buffer expected next (streaming thread), for in_order_setting */
  gboolean have_pos;
  guint64 next_pos;
};

/* CUDA memory can flow through this element's aooct pads: it started on
 * the CUDA backend. */
static inline gboolean
aooct_filter_cuda_active (GstAooctFilter * self)
{
  return self->active_backend == GST_AOOCT_BACKEND_CUDA;
}

/* gstaooctfilter.c (also gst_aooct_filter_post_error) */
static void aooct_filter_forget_last_error (GstAooctFilter * self);

/* gstaooctfilter.c: the calls into the subclass (its class vfuncs
 * take the filter) */
static gboolean aooct_filter_subclass_setup (GstAooctFilter * self,
    GError ** error);
static void aooct_filter_subclass_teardown (GstAooctFilter * self);
/* klass->live(): what the element reads of its live properties for the
 * buffer about to be processed (NULL without the hook). */
static gboolean aooct_filter_subclass_live (GstAooctFilter * self,
    gconstpointer * live, GError ** error);
/* At EOS: the plan hands over what it still owes the element (its drain,
 * aooct-step.h); FALSE with @error set when that failed. */
static gboolean aooct_filter_subclass_drain (GstAooctFilter * self,
    GError ** error);
#ifdef HAVE_CUDA
static gboolean aooct_filter_subclass_defer (GstAooctFilter * self,
    GstBuffer * outbuf, gdouble * host_ms, GError ** error);
#endif

/* The buffer layer's descriptions of the negotiated pads
 * (aooct-filter-buffers.h). */
static inline void
aooct_filter_input_desc (GstAooctFilter * self, AooctInputDesc * in)
{
  in->video = GST_AOOCT_FILTER_GET_CLASS (self)->sink_is_video;
  in->vinfo = &self->in_vinfo;
  in->raw_format = self->in_raw_format;
  in->geom = &self->in_geom;
  in->cuda_memory = self->in_cuda_memory;
  in->on_cuda = aooct_filter_cuda_active (self);
}

static inline void
aooct_filter_output_desc (GstAooctFilter * self, AooctOutputDesc * out)
{
  out->video = GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video;
  out->vinfo = &self->out_vinfo;
  out->geom = &self->out_geom;
  out->cuda_memory = self->out_cuda_memory;
}

/* gstaooctfilter.c: the stats property from what the base class
 * counted and (CUDA builds) what the element's CUDA side counted */
static GstStructure *aooct_filter_stats_make (const AooctFilterStats * stats,
    gboolean on_cuda, struct _AooctCudaBackend *cuda);

#ifdef HAVE_CUDA
/* gstaooctfilter.c, CUDA builds */
static void aooct_filter_cuda_class_init (GstAooctFilterClass * klass);
/* At start, on CUDA: reads the fault request (fault-injection builds). */
static void aooct_filter_cuda_started (GstAooctFilter * self);
/* The fault to cause on this buffer (fault-injection builds; else 0). */
static gint aooct_filter_cuda_fault (GstAooctFilter * self);
/* gst_aooct_filter_emit() on CUDA: waits for room in the output ring
 * (where the image leaves the GPU), then, once gst_aooct_filter_transform
 * has made @out with @ret, hands it over (taken): into the ring for the
 * src task, or pushed at once where it stays on the GPU. */
static GstFlowReturn aooct_filter_cuda_wait_space (GstAooctFilter * self);
static GstFlowReturn aooct_filter_cuda_hand_over (GstAooctFilter * self,
    GstFlowReturn ret, GstBuffer * out);
/* The backend's output task around serialized events, new caps and
 * queries. */
static void aooct_filter_cuda_drain (GstAooctFilter * self);
#endif


#define gst_aooct_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstAooctFilter, gst_aooct_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstAooctFilter);
    GST_DEBUG_CATEGORY_INIT (gst_aooct_filter_debug, "aooctfilter", 0,
        "aooct processing element base class"));


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

static void
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
 * (aooct-cuda-backend.h). */

/* The stats property: counts since the element started. */
static GstStructure *
aooct_filter_stats_make (const AooctFilterStats * stats, gboolean on_cuda,
    struct _AooctCudaBackend *cuda)
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
  /* since the element started on CUDA; zero on the CPU */
  memset (&cs, 0, sizeof (cs));
  if (on_cuda)
    aooct_cuda_backend_get_stats (cuda, &cs);
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
 * aooct-filter-buffers.c, aooct_cuda_backend_transform in
 * aooct-cuda-backend.h); the contract itself is gstaooctfilter.h's class
 * struct. */

/* What takes the step's plan runs with the CUDA context current where the
 * element runs on CUDA (the plan allocates, waits and frees on the GPU
 * there): @func (@self, @error). */
typedef gboolean (*PlanFunc) (gpointer self, GError ** error);

static gboolean
with_plan (GstAooctFilter * self, PlanFunc func, GError ** error)
{
#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self))
    return aooct_cuda_backend_with_context (self->priv->cuda, func, self,
        error);
#endif
  return func (self, error);
}

/* The plan freed, then klass->teardown(). */
static gboolean
free_plan (gpointer data, GError ** error)
{
  GstAooctFilter *self = data;
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  aooct_step_plan_free (&self->priv->step);
  if (klass->teardown)
    klass->teardown (self);
  return TRUE;
}

/* klass->teardown(), after the GPU work that may read what it frees (the
 * backend's release of what was sized for the old caps). */
static void
aooct_filter_subclass_teardown (GstAooctFilter * self)
{
  GError *error = NULL;

  if (!self->configured)
    return;
#ifdef HAVE_CUDA
  /* kernels still in flight may read the tables teardown() frees */
  if (aooct_filter_cuda_active (self))
    aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_RELEASE);
#endif
  if (!with_plan (self, free_plan, &error)) {
    GST_ERROR_OBJECT (self, "%s", error->message);
    g_clear_error (&error);
  }
  self->configured = FALSE;
}

/* klass->setup() for the negotiated geometry, then the plan of the
 * active backend with the settings it gave.  A plan that cannot be made
 * undoes the setup (teardown()). */
static gboolean
setup_and_create (gpointer data, GError ** error)
{
  GstAooctFilter *self = data;
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

static gboolean
aooct_filter_subclass_setup (GstAooctFilter * self, GError ** error)
{
  return with_plan (self, setup_and_create, error);
}

static gboolean
aooct_filter_subclass_live (GstAooctFilter * self, gconstpointer * live,
    GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  *live = NULL;
  return klass->live == NULL || klass->live (self, live, error);
}

static gboolean
drain_plan (gpointer data, GError ** error)
{
  GstAooctFilter *self = data;

  return aooct_step_drain (&self->priv->step, error);
}

/* The plan's drain at EOS (aooct-step.h), context current on CUDA;
 * FALSE with @error set when it failed. */
static gboolean
aooct_filter_subclass_drain (GstAooctFilter * self, GError ** error)
{
  if (self->priv->step.plan == NULL || self->priv->step.ops->drain == NULL)
    return TRUE;
  return with_plan (self, drain_plan, error);
}

#ifdef HAVE_CUDA
/* klass->defer(): the step goes onto @outbuf (the input buffer itself)
 * as a pending step instead of being computed (aooct-pending-meta.h). */
static gboolean
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

/* ---- caps: pad templates, transform_caps, accept_caps, transform_size,
 * the checks of set_caps and the message for refused caps */

void
gst_aooct_filter_class_add_pad_templates (GstAooctFilterClass * klass,
    const gchar * sink_caps, const gchar * src_caps)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  /* A CUDA build advertises application/x-aooct in CUDA memory too.  Video
   * input in CUDA memory is in the template of every build, so that an
   * upstream that insists on it reaches set_caps(), which says why it
   * cannot be taken, instead of a bare not-negotiated; the caps queries
   * offer it only on the CUDA backend. */
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          aooct_filter_caps_with_memory (gst_caps_from_string (sink_caps), TRUE,
              NULL, klass->sink_video_cuda_memory)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          aooct_filter_caps_with_memory (gst_caps_from_string (src_caps), TRUE,
              klass->cuda_video_formats, FALSE)));
}

/* What transform_caps offers: before the element has started (linking in
 * NULL or READY, e.g. gst_parse_launch linking to a memory:CUDAMemory
 * capsfilter), whatever the backend property may give; once started, what
 * the chosen backend gives. */
static gboolean
cuda_offered (GstAooctFilter * self)
{
#ifdef HAVE_CUDA
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gboolean may;

  if (self->priv->started)
    return aooct_filter_cuda_active (self);
  GST_OBJECT_LOCK (self);
  may = self->priv->backend != GST_AOOCT_BACKEND_CPU && klass->cuda_ops;
  GST_OBJECT_UNLOCK (self);
  return may;
#else
  return FALSE;
#endif
}

static gboolean
parse_sink_caps_default (GstAooctFilter * self, const GstCaps * caps,
    AooctGeometry * in, GError ** error)
{
  return aooct_caps_to_geometry (caps, in, error);
}

/* a step that changes no geometry (a gain, a filter along the samples):
 * the output is the input's, already checked by parse_sink_caps() */
static gboolean
derive_output_default (GstAooctFilter * self, const AooctGeometry * in,
    AooctGeometry * out, GError ** error)
{
  *out = *in;
  return TRUE;
}

static GstCaps *
output_caps_default (GstAooctFilter * self, const AooctGeometry * out)
{
  return aooct_geometry_to_caps (out);
}


static GstCaps *
output_caps (GstAooctFilter * self, const AooctGeometry * out)
{
  return
      aooct_filter_caps_square_pixels (GST_AOOCT_FILTER_GET_CLASS
      (self)->output_caps (self, out));
}


/* Caps of the other pad for fixed caps on this one; the pad template when
 * the caps are not fixed or cannot be processed (set_caps() then reports
 * why, with an element error, instead of a bare not-negotiated). */
static GstCaps *
transform_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstCaps *result = NULL, *tmp;

  if (direction == GST_PAD_SINK && gst_caps_is_fixed (caps)) {
    AooctGeometry in, out;

    if (klass->parse_sink_caps (self, caps, &in, NULL)
        && klass->derive_output (self, &in, &out, NULL))
      result =
          aooct_filter_caps_forward_positions (output_caps (self, &out), caps,
          &out);
  }
  if (result == NULL) {
    GstPad *other = direction == GST_PAD_SINK ? bt->srcpad : bt->sinkpad;
    result = gst_pad_get_pad_template_caps (other);
  }
  /* CUDA memory first when running on CUDA, so that negotiation prefers
   * it; system memory only on the CPU backend.  @result is the src side
   * when @direction is the sink. */
  result = aooct_filter_caps_with_memory (result, cuda_offered (self),
      direction == GST_PAD_SINK ? klass->cuda_video_formats : NULL,
      direction == GST_PAD_SRC && klass->sink_video_cuda_memory);
  /* the src side also when it is the pad template or its CUDA-memory
   * variants (caps not fixed yet): square pixels there too */
  if (direction == GST_PAD_SINK)
    result = aooct_filter_caps_square_pixels (result);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (self, "transformed %" GST_PTR_FORMAT " to %"
      GST_PTR_FORMAT, caps, result);
  return result;
}

static gboolean
caps_negotiated (GstAooctFilter * self, GstCaps * incaps,
    GstCaps * outcaps, AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  const gchar *cpu_reason = self->priv->cpu_reason;

  if (klass->sink_is_video && !aooct_raw_caps_video_info (incaps,
          &self->in_vinfo, &self->in_raw_format)) {
    /* packed or float rows the layout does not allow (docs/caps.md): the
     * subclass says what is wrong */
    if (aooct_raw_structure_is_own (gst_caps_get_structure (incaps, 0))
        && !klass->parse_sink_caps (self, incaps, in, error))
      return FALSE;
    aooct_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "cannot parse input caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  if (klass->sink_is_video && aooct_filter_caps_are_cuda (incaps)
      && !aooct_filter_cuda_active (self)) {
    /* the template lists it in every build; only the CUDA path reads it */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "upstream gives video in CUDA memory (memory:CUDAMemory), which %s "
        "reads only when it runs on CUDA, but it runs on the CPU (%s); give "
        "it frames in system memory (e.g. through cudadownload) or run it "
        "on a CUDA device", GST_ELEMENT_NAME (self),
        cpu_reason ? cpu_reason : "the CUDA backend is off");
    return FALSE;
  }
  if (!klass->parse_sink_caps (self, incaps, in, error))
    return FALSE;
  g_clear_pointer (&self->in_positions, g_free);
  if (!klass->sink_is_video && in->k_sampling != AOOCT_K_SAMPLING_EVEN
      && !(self->in_positions = aooct_structure_get_positions
          (gst_caps_get_structure (incaps, 0), in, error)))
    return FALSE;
  if (!klass->derive_output (self, in, out, error))
    return FALSE;

  if (klass->src_is_video) {
    GstCaps *expected = aooct_filter_caps_with_memory (output_caps (self, out),
        aooct_filter_cuda_active (self), klass->cuda_video_formats, FALSE);
    gboolean ok = gst_caps_can_intersect (expected, outcaps);

    if (!ok) {
      gchar *e = gst_caps_to_string (expected), *o =
          gst_caps_to_string (outcaps);
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "downstream wants %s but this element produces %s", o, e);
      g_free (e);
      g_free (o);
    }
    gst_caps_unref (expected);
    if (!ok)
      return FALSE;
    if (!gst_video_info_from_caps (&self->out_vinfo, outcaps)) {
      aooct_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "cannot parse output caps %" GST_PTR_FORMAT, outcaps);
      return FALSE;
    }
  } else {
    AooctGeometry neg;
    GString *diff = g_string_new (NULL);

    if (!aooct_caps_to_geometry (outcaps, &neg, error)) {
      g_string_free (diff, TRUE);
      return FALSE;
    }
    if (!aooct_geometry_equal (out, &neg, diff)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "geometry mismatch between this element's output and downstream "
          "(produced vs expected): %s", diff->str);
      g_string_free (diff, TRUE);
      return FALSE;
    }
    g_string_free (diff, TRUE);
  }
  return TRUE;
}

/* Fixed video input that the template does not list (GRAY16_BE, a
 * rawvideoparse without format=, which gives I420, a width of 1, a packed
 * format of another bit depth) is
 * accepted here so that set_caps() -- parse_sink_caps() -- says what is
 * wrong and what to do, instead of the pad refusing it silently and the
 * user seeing only "not-negotiated".  Caps queries still offer only what
 * the element takes, so an upstream that negotiates (videoconvert) picks
 * that. */
static gboolean
accept_caps (GstBaseTransform * bt, GstPadDirection direction, GstCaps * caps)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (bt);
  GstCapsFeatures *f;

  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (bt, direction,
          caps))
    return TRUE;
  if (direction != GST_PAD_SINK || !klass->sink_is_video
      || !gst_caps_is_fixed (caps)
      || !(gst_structure_has_name (gst_caps_get_structure (caps, 0),
              "video/x-raw")
          || aooct_raw_structure_is_own (gst_caps_get_structure (caps, 0))))
    return FALSE;
  f = gst_caps_get_features (caps, 0);
  if (f && !gst_caps_features_is_equal (f,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return FALSE;
  GST_DEBUG_OBJECT (bt, "accepting %" GST_PTR_FORMAT " to say at set_caps "
      "why it cannot be processed", caps);
  return TRUE;
}


/* New input caps were refused without a message of ours (set_caps posts
 * one for whatever it finds wrong): basetransform found no output caps
 * that downstream accepts.  Say which field, instead of leaving the user
 * with "not-negotiated". */
static void
caps_explain_refused (GstAooctFilter * self, GstCaps * incaps)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstCaps *ours = transform_caps (bt, GST_PAD_SINK, incaps,
      NULL);
  GstCaps *theirs = gst_pad_peer_query_caps (bt->srcpad, NULL);
  GstPad *peer = gst_pad_get_peer (bt->srcpad);
  gchar *diff = aooct_filter_caps_difference (ours, theirs);
  gchar *o = gst_caps_to_string (ours), *t = gst_caps_to_string (theirs);
  GError *error = NULL;

  g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS, "cannot negotiate the "
      "output with %s: %s (this element produces %s; %s accepts %s)",
      peer && GST_OBJECT_PARENT (peer) ?
      GST_OBJECT_NAME (GST_OBJECT_PARENT (peer)) : "downstream",
      diff ? diff : "no format in common", o,
      peer ? "downstream" : "an unlinked pad", t);
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  g_free (diff);
  g_free (o);
  g_free (t);
  gst_clear_object (&peer);
  gst_caps_unref (ours);
  gst_caps_unref (theirs);
}

/* The sizes the negotiated caps promise (aooct-filter-buffers.h). */
static gboolean
transform_size (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);
  AooctInputDesc in;
  AooctOutputDesc out;

  if (!self->configured)
    return FALSE;
  aooct_filter_input_desc (self, &in);
  aooct_filter_output_desc (self, &out);
  *othersize = direction == GST_PAD_SINK ? aooct_filter_output_size (&out) :
      aooct_filter_expected_input_size (&in, NULL);
  return TRUE;
}

/* ---- allocation: the output buffer, the pools decided and proposed,
 * the deferral decision, the metas announced */

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
          aooct_buffer_get_pending_meta (inbuf), &self->priv->in_layout,
          &error)) {
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
      && aooct_cuda_backend_holds (self->priv->cuda, inbuf)) {
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

    if (pool && (error = aooct_cuda_backend_pool_error (pool))) {
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

/* On CUDA with CUDA-memory output: a pool of our device memory (allocated
 * when the pool starts, reused after; no allocation per buffer); with
 * host-memory output and no pool from downstream, one of page-locked
 * memory. */
static gboolean
decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER_CAST (bt);

  AooctCudaBackend *ce = self->priv->cuda;
  guint size = output_size (self);
  GError *error = NULL;

  decide_deferring (self, query);

  if (aooct_filter_cuda_active (self) && self->out_cuda_memory
      && GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video) {
    if (aooct_filter_allocation_cuda_video (ce, query, &error))
      return TRUE;
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
  if (aooct_filter_cuda_active (self) && self->out_cuda_memory) {
    guint min, max;
    GstBufferPool *pool = aooct_filter_allocation_device (ce, query, size,
        &min, &max);

    if (pool == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("cannot configure the CUDA buffer pool (%u bytes per buffer)",
              size), (NULL));
      return FALSE;
    }
    /* started here, not by basetransform, so that a failure (device memory
     * exhausted) reaches the user with CUDA's message */
    if (!gst_buffer_pool_set_active (pool, TRUE)) {
      error = aooct_cuda_backend_pool_error (pool);

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
    aooct_filter_allocation_use_pool (query, pool, size, min, max);
    gst_object_unref (pool);
    return TRUE;
  }
  if (aooct_filter_cuda_active (self) && !self->out_cuda_memory
      && gst_query_get_n_allocation_pools (query) == 0) {
    if (aooct_filter_allocation_page_locked (ce, query, size, &error))
      return TRUE;
    GST_INFO_OBJECT (self, "no page-locked pool for the output (%s): its "
        "images go through staging", error->message);
    g_clear_error (&error);
  }
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}


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
    guint size = (guint) GST_VIDEO_INFO_SIZE (&info);
    GError *error = NULL;
    GstBufferPool *pool = aooct_cuda_backend_pool_new (self->priv->cuda,
        AOOCT_CUDA_POOL_DEVICE, caps, NULL, &size, 2, 0, &error);

    if (pool) {
      gst_query_add_allocation_pool (query, pool, size, 2, 0);
      gst_object_unref (pool);
    } else {
      GST_WARNING_OBJECT (self, "%s", error->message);
      g_clear_error (&error);
    }
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
static gboolean
allocation_answer (GstAooctFilter * self, GstQuery * query)
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

static void
allocation_close (GstAooctFilter * self, gboolean closed)
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
  if (aooct_filter_allocation_upload_pool (self->priv->cuda, query, caps,
          (guint) GST_VIDEO_INFO_SIZE (&info), &error))
    return TRUE;
  /* upstream then allocates as it likes: slower, not wrong */
  GST_WARNING_OBJECT (self, "no page-locked pool proposed: %s", error->message);
  g_clear_error (&error);
#endif
  return ret;
}

#ifdef HAVE_CUDA
/* ---- GstAooctFilter on the CUDA backend, what of it takes the filter:
 * the GstBaseTransform vfuncs that hand each output to the backend
 * (generate_output: the streaming thread only enqueues a buffer's GPU
 * work, and the backend's output task pushes the output once that work
 * has completed), and, in test builds only, the fault request.  The
 * backend (aooct-cuda-backend.h) does not know the filter.  Built only
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

static void
aooct_filter_cuda_started (GstAooctFilter * self)
{
#ifdef AOOCT_FAULT_INJECTION
  read_fault_request (self);
#endif
}

static gint
aooct_filter_cuda_fault (GstAooctFilter * self)
{
#ifdef AOOCT_FAULT_INJECTION
  if (G_UNLIKELY (self->priv->fault != AOOCT_CUDA_FAULT_NONE)
      && self->priv->stats.buffers == self->priv->fault_at)
    return self->priv->fault;
#endif
  return 0;
}

/* The backend's output task around serialized events, new caps and
 * queries (only where the element runs on CUDA). */
static void
aooct_filter_cuda_drain (GstAooctFilter * self)
{
  if (aooct_filter_cuda_active (self))
    aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_DRAIN);
}

static GstFlowReturn
aooct_filter_cuda_wait_space (GstAooctFilter * self)
{
  AooctOutputDesc out;

  aooct_filter_output_desc (self, &out);
  return aooct_cuda_backend_wait_space (self->priv->cuda, &out);
}

static GstFlowReturn
aooct_filter_cuda_hand_over (GstAooctFilter * self, GstFlowReturn ret,
    GstBuffer * out)
{
  GstBuffer *direct = NULL;
  AooctOutputDesc od;

  aooct_filter_output_desc (self, &od);
  ret = aooct_cuda_backend_output (self->priv->cuda, &od, ret, out, &direct);
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
  AooctOutputDesc out;

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
  aooct_filter_output_desc (self, &out);
  return aooct_cuda_backend_output (self->priv->cuda, &out, ret, made, outbuf);
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

static void
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
  gboolean cuda_graphs, gpu_timing;
  gchar *reason;

  GST_OBJECT_LOCK (self);
  backend = self->priv->backend;
  device_id = self->priv->device_id;
  cuda_graphs = self->priv->cuda_graphs;
  gpu_timing = self->priv->gpu_timing;
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
    const AooctCudaOpen settings = { device_id, klass->cuda_stage,
      klass->cuda_graphs && cuda_graphs, gpu_timing
    };

    if (aooct_cuda_backend_open (self->priv->cuda, &settings, &cerr)) {
      self->active_backend = GST_AOOCT_BACKEND_CUDA;
      GST_INFO_OBJECT (self, "running on CUDA%s",
          settings.graphs ? ", one CUDA graph per buffer" : "");
      aooct_filter_cuda_started (self);
      return TRUE;
    }
    reason = g_strdup (cerr->message);
    g_clear_error (&cerr);
  }
#else
  (void) klass;
  (void) device_id;
  (void) cuda_graphs;
  (void) gpu_timing;
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

  if (!caps_negotiated (self, incaps, outcaps, &in, &out, &error))
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

/* One buffer's way, top-down: its place in the stream (in a branch of
 * aooctsplit), its size against the caps and the layout of its rows (the
 * buffer layer, aooct-filter-buffers.h), the steps deferred to it, the
 * live properties, then one backend -- the step
 * deferred onto the buffer itself, the CUDA backend (upload, step,
 * download: aooct_cuda_backend_transform) or the CPU one (map, step,
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

  /* the buffer's own facts, taken once: its place in the stream, the
   * steps deferred to it, then its size against the caps and the layout
   * of its rows */
  if (inbuf && !check_in_order (self, inbuf, &error))
    goto error;
  pending = inbuf ? aooct_buffer_get_pending_meta (inbuf) : NULL;
  aooct_filter_input_desc (self, &in);
  aooct_filter_output_desc (self, &out);
  if (inbuf && !aooct_filter_check_input_size (&in, inbuf, pending,
          &priv->in_layout, &error))
    goto error;
  if (inbuf)
    priv->stats.buffers++;
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
      .in_offset = run.in_offset,
    };

    ok = aooct_filter_subclass_live (self, &b.live, &error)
        && aooct_cuda_backend_transform (priv->cuda, &b, inbuf, outbuf, &error);
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

        /* wake the streaming thread and the output task, let flush-start
         * unblock a push downstream, then wait for the task to pause */
        aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_FLUSH_START);
        ok = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
        aooct_cuda_backend_sync (self->priv->cuda,
            AOOCT_CUDA_SYNC_FLUSH_FORWARDED);
        return ok;
      }
      case GST_EVENT_FLUSH_STOP:
        aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_FLUSH_STOP);
        break;
      case GST_EVENT_EOS:
        aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_EOS);
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
      caps_explain_refused (self, caps);
    gst_caps_unref (caps);
    return ok;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static GstStateChangeReturn
gst_aooct_filter_change_state (GstElement * element, GstStateChange transition)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (element);

  switch (transition) {
    case GST_STATE_CHANGE_READY_TO_PAUSED:
      allocation_close (self, FALSE);
#ifdef HAVE_CUDA
      aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_ACTIVATE);
#endif
      break;
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      /* before the pads deactivate: the backend's output task stopped */
#ifdef HAVE_CUDA
      aooct_cuda_backend_sync (self->priv->cuda, AOOCT_CUDA_SYNC_DEACTIVATE);
#endif
      /* no allocation query in flight from here on */
      allocation_close (self, TRUE);
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
  self->priv->started = TRUE;
  return TRUE;
}

static gboolean
gst_aooct_filter_stop (GstBaseTransform * bt)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  aooct_filter_subclass_teardown (self);
#ifdef HAVE_CUDA
  aooct_cuda_backend_close (self->priv->cuda);
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

  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->priv->device_id;
  GST_OBJECT_UNLOCK (self);
  if (aooct_cuda_backend_share_context (self->priv->cuda, device_id, NULL,
          query))
    return TRUE;
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)
    aooct_filter_cuda_drain (self);
#endif
  if (direction == GST_PAD_SINK
      && GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)
    return allocation_answer (GST_AOOCT_FILTER (bt), query);
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
  aooct_cuda_backend_share_context (self->priv->cuda, device_id, context, NULL);
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
  g_clear_pointer (&self->priv->cuda, aooct_cuda_backend_free);
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
  /* caps */
  bt_class->transform_caps = GST_DEBUG_FUNCPTR (transform_caps);
  bt_class->accept_caps = GST_DEBUG_FUNCPTR (accept_caps);
  bt_class->transform_size = GST_DEBUG_FUNCPTR (transform_size);
  klass->parse_sink_caps = parse_sink_caps_default;
  klass->derive_output = derive_output_default;
  klass->output_caps = output_caps_default;
  /* allocation */
  bt_class->prepare_output_buffer = GST_DEBUG_FUNCPTR (prepare_output_buffer);
  bt_class->decide_allocation = GST_DEBUG_FUNCPTR (decide_allocation);
  bt_class->propose_allocation = GST_DEBUG_FUNCPTR (propose_allocation);
#ifdef HAVE_CUDA
  aooct_filter_cuda_class_init (klass);
#endif

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_BACKEND, 0);
}

#ifdef HAVE_CUDA
static void
post_backend_error (GstElement * element, const GError * error)
{
  gst_aooct_filter_post_error (GST_AOOCT_FILTER (element), error);
}
#endif

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
  {
    /* the backend's output task pushes on our src pad and posts its
     * errors as ours */
    const AooctCudaBackendHost host = { GST_ELEMENT (self),
      GST_BASE_TRANSFORM_SRC_PAD (self), post_backend_error
    };

    self->priv->cuda = aooct_cuda_backend_new (&host);
  }
#endif
}
