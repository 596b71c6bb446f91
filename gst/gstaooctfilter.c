/* aooct: base class of the processing elements (see gstaooctfilter.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstaooctfilter.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-late-property.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-filter.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-pool.h"
#include "aooct-cuda-graph.h"
#ifdef AOOCT_FAULT_INJECTION
#include "aooct-cuda-fault.h"
#endif
#else
/* only to name it in caps: see sink_video_cuda_memory */
#define AOOCT_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"
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
#define DEFAULT_CUDA_GRAPHS FALSE

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
    GST_TYPE_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_filter_debug, "aooctfilter", 0,
        "aooct processing element base class"));

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
  self->errors_posted++;
  if (g_strcmp0 (self->last_error, msg) == 0) {
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "not posting again: %s", msg);
    return;
  }
  g_free (self->last_error);
  self->last_error = g_strdup (msg);
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
gst_aooct_filter_tolerate_inconsistent (GstAooctFilter * self,
    const GError * error)
{
  if (self->inconsistent++ == 1) {
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
  self->inconsistent = 0;
}

/* An error that was recovered from (a buffer went through again, or a
 * flushing seek) may come back: its message must then be posted again,
 * not swallowed as a repeat, which would leave the user with GStreamer's
 * bare "Internal data stream error". */
static void
forget_last_error (GstAooctFilter * self)
{
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
}

#ifdef HAVE_CUDA
static gboolean
structure_is_aooct (GstCaps * caps, guint i)
{
  return gst_structure_has_name (gst_caps_get_structure (caps, i),
      AOOCT_CAPS_NAME);
}
#endif

static gboolean
structure_is_cuda (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && gst_caps_features_contains (f, AOOCT_CAPS_FEATURE_CUDA_MEMORY);
}

static gboolean
caps_are_cuda (GstCaps * caps)
{
  return caps && gst_caps_get_size (caps) > 0 && structure_is_cuda (caps, 0);
}

#ifdef HAVE_CUDA
/* @s (a video/x-raw structure) in GstCudaMemory with those of @formats
 * whose YUV-ness is @yuv.  The grey image is the luma with neutral chroma,
 * so YUV says full range: grey level g shows as R = G = B = g, not
 * stretched from 16..235. */
static void
append_cuda_video_group (GstCaps * res, const GstStructure * s,
    const gchar * const *formats, gboolean yuv)
{
  GstStructure *c;
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i, n = 0;

  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  for (i = 0; formats[i]; i++) {
    const GstVideoFormatInfo *finfo =
        gst_video_format_get_info (gst_video_format_from_string (formats[i]));

    if (finfo && !!GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) == yuv) {
      g_value_set_static_string (&v, formats[i]);
      gst_value_list_append_value (&list, &v);
      n++;
    }
  }
  if (n > 0) {
    c = gst_structure_copy (s);
    if (n == 1)
      gst_structure_set_value (c, "format", &v);
    else
      gst_structure_set_value (c, "format", &list);
    if (yuv) {
      GstVideoColorimetry full = { GST_VIDEO_COLOR_RANGE_0_255,
        GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_TRANSFER_BT709,
        GST_VIDEO_COLOR_PRIMARIES_BT709
      };
      gchar *str = gst_video_colorimetry_to_string (&full);

      gst_structure_set (c, "colorimetry", G_TYPE_STRING, str, NULL);
      g_free (str);
    }
    gst_caps_append_structure_full (res, c,
        gst_caps_features_new (AOOCT_CAPS_FEATURE_CUDA_MEMORY, NULL));
  }
  g_value_unset (&v);
  g_value_unset (&list);
}

static void
append_cuda_video (GstCaps * res, const GstStructure * s,
    const gchar * const *formats)
{
  append_cuda_video_group (res, s, formats, TRUE);
  append_cuda_video_group (res, s, formats, FALSE);
}
#endif

/* @caps (transfer full) with the memory variants this element can take or
 * give now: each application/x-aooct structure in CUDA memory first, then
 * in system memory, when @cuda; in system memory only otherwise.  Other
 * structures (video/x-raw) stay in system memory; with @cuda and
 * @video_formats (the src side of an element with cuda_video_formats),
 * each is followed by its GstCudaMemory variant in those formats; with
 * @cuda and @video_in_cuda (the sink side of an element with
 * sink_video_cuda_memory), each is preceded by itself in CUDA memory. */
static GstCaps *
with_memory_features (GstCaps * caps, gboolean cuda,
    const gchar * const *video_formats, gboolean video_in_cuda)
{
  GstCaps *res = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && !gst_caps_features_is_any (f)
        && !gst_caps_features_is_equal (f,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      continue;                 /* re-added below when wanted */
    /* CUDA memory first: an upstream that can give it gets it; one that
     * gives system memory only (a camera, filesrc) still finds that */
    if (cuda && video_in_cuda && gst_structure_has_name (s, "video/x-raw"))
      gst_caps_append_structure_full (res, gst_structure_copy (s),
          gst_caps_features_new (AOOCT_CAPS_FEATURE_CUDA_MEMORY, NULL));
#ifdef HAVE_CUDA
    if (cuda && structure_is_aooct (caps, i))
      gst_caps_append_structure_full (res, gst_structure_copy (s),
          gst_caps_features_new (AOOCT_CAPS_FEATURE_CUDA_MEMORY, NULL));
#endif
    gst_caps_append_structure_full (res, gst_structure_copy (s),
        f ? gst_caps_features_copy (f) : NULL);
#ifdef HAVE_CUDA
    /* after the grey system-memory formats: a sink that takes anything
     * (appsink, filesink) keeps getting those, while nvcodec elements,
     * which take no grey format, get the CUDA memory */
    if (cuda && video_formats && gst_structure_has_name (s, "video/x-raw"))
      append_cuda_video (res, s, video_formats);
#else
    (void) video_formats;
#endif
  }
  gst_caps_unref (caps);
  /* not simplified: the order is the preference */
  return res;
}

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
          with_memory_features (gst_caps_from_string (sink_caps), TRUE, NULL,
              klass->sink_video_cuda_memory)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          with_memory_features (gst_caps_from_string (src_caps), TRUE,
              klass->cuda_video_formats, FALSE)));
}

/* CUDA memory can flow through this element's aooct pads: it started on
 * the CUDA backend. */
static gboolean
cuda_active (GstAooctFilter * self)
{
  return self->active_backend == GST_AOOCT_BACKEND_CUDA;
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

  if (self->started)
    return cuda_active (self);
  GST_OBJECT_LOCK (self);
  may = self->backend != GST_AOOCT_BACKEND_CPU && klass->process_cuda;
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

static GstCaps *
output_caps_default (GstAooctFilter * self, const AooctGeometry * out)
{
  return aooct_geometry_to_caps (out);
}

/* Non-uniform samples (k-sampling, aooct-caps.h): a step that keeps them
 * (aooctdisp) passes the positions on from its input caps; aooctkmap sets
 * its own in output_caps(). */
static GstCaps *
forward_positions (GstCaps * result, const GstCaps * incaps,
    const AooctGeometry * out)
{
  const GstStructure *in_s;
  guint i;

  if (out->k_sampling == AOOCT_K_SAMPLING_EVEN || result == NULL
      || gst_caps_get_size (incaps) < 1)
    return result;
  in_s = gst_caps_get_structure (incaps, 0);
  if (!aooct_structure_has_positions (in_s))
    return result;
  result = gst_caps_make_writable (result);
  for (i = 0; i < gst_caps_get_size (result); i++) {
    GstStructure *s = gst_caps_get_structure (result, i);

    if (gst_structure_has_name (s, AOOCT_CAPS_NAME)
        && !aooct_structure_has_positions (s))
      gst_structure_set_value (s, "k-positions",
          gst_structure_get_value (in_s, "k-positions"));
  }
  return result;
}

/* Caps of the other pad for fixed caps on this one; the pad template when
 * the caps are not fixed or cannot be processed (set_caps() then reports
 * why, with an element error, instead of a bare not-negotiated). */
static GstCaps *
gst_aooct_filter_transform_caps (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstCaps *result = NULL, *tmp;

  if (direction == GST_PAD_SINK && gst_caps_is_fixed (caps)) {
    AooctGeometry in, out;

    if (klass->parse_sink_caps (self, caps, &in, NULL)
        && klass->derive_output (self, &in, &out, NULL))
      result = forward_positions (klass->output_caps (self, &out), caps, &out);
  }
  if (result == NULL) {
    GstPad *other = direction == GST_PAD_SINK ? bt->srcpad : bt->sinkpad;
    result = gst_pad_get_pad_template_caps (other);
  }
  /* CUDA memory first when running on CUDA, so that negotiation prefers
   * it; system memory only on the CPU backend.  @result is the src side
   * when @direction is the sink. */
  result = with_memory_features (result, cuda_offered (self),
      direction == GST_PAD_SINK ? klass->cuda_video_formats : NULL,
      direction == GST_PAD_SRC && klass->sink_video_cuda_memory);
  if (filter) {
    tmp = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (self, "transformed %" GST_PTR_FORMAT " to %"
      GST_PTR_FORMAT, caps, result);
  return result;
}

static void
teardown (GstAooctFilter * self)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  if (!self->configured)
    return;
#ifdef HAVE_CUDA
  if (cuda_active (self)) {
    AooctCudaFilter *cf = self->cuda;
    GError *error = NULL;

    /* kernels still in flight may read the tables teardown() frees */
    if (aooct_cuda_filter_push (cf, &error)) {
      aooct_cuda_filter_release_staging (cf);
      if (klass->teardown)
        klass->teardown (self);
      aooct_cuda_filter_pop (cf);
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

static gboolean
setup (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gboolean ok;

  if (klass->setup == NULL)
    return TRUE;
#ifdef HAVE_CUDA
  if (cuda_active (self)) {
    if (!aooct_cuda_filter_push (self->cuda, error))
      return FALSE;
    ok = klass->setup (self, error);
    aooct_cuda_filter_pop (self->cuda);
    return ok;
  }
#endif
  ok = klass->setup (self, error);
  return ok;
}

/* Picks the backend when the element starts (backend is
 * GST_PARAM_MUTABLE_READY). */
#ifdef AOOCT_FAULT_INJECTION
/* Only in builds configured with -Dfault-injection=true (the test suite's
 * and CI's; never a shipped build, where none of this is compiled):
 * AOOCT_CUDA_FAULT=ELEMENT:KIND[:N] makes the element named ELEMENT (its
 * name or its factory's) cause a CUDA or cuFFT fault of KIND (launch,
 * kernel, cufft: cuda/aooct-cuda-fault.h) after its GPU work on its N-th
 * buffer (default 1) since start.  For the robustness tests
 * (tests/test-cuda-faults.c), which must show that real faults of these
 * kinds end in a clear element error; it does nothing unless set. */
static void
read_fault_request (GstAooctFilter * self)
{
  const gchar *spec = g_getenv ("AOOCT_CUDA_FAULT");
  GstElementFactory *factory = gst_element_get_factory (GST_ELEMENT (self));
  gchar **parts;

  self->fault = AOOCT_CUDA_FAULT_NONE;
  if (spec == NULL || *spec == '\0')
    return;
  parts = g_strsplit (spec, ":", 3);
  if (g_strv_length (parts) >= 2
      && (g_strcmp0 (parts[0], GST_OBJECT_NAME (self)) == 0 || (factory
              && g_strcmp0 (parts[0],
                  GST_OBJECT_NAME (GST_OBJECT (factory))) == 0))) {
    self->fault = aooct_cuda_fault_from_string (parts[1]);
    self->fault_at = parts[2] ? g_ascii_strtoull (parts[2], NULL, 10) : 1;
    GST_WARNING_OBJECT (self, "AOOCT_CUDA_FAULT: will make a '%s' fault "
        "after buffer %" G_GUINT64_FORMAT, parts[1], self->fault_at);
  }
  g_strfreev (parts);
}
#endif

static gboolean
open_backend (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstAooctBackend backend;
  gint device_id;
  gboolean cuda_graphs;
  gchar *reason;

  GST_OBJECT_LOCK (self);
  backend = self->backend;
  device_id = self->device_id;
  cuda_graphs = self->cuda_graphs;
  GST_OBJECT_UNLOCK (self);

  self->active_backend = GST_AOOCT_BACKEND_CPU;
  g_clear_pointer (&self->cpu_reason, g_free);
  if (backend == GST_AOOCT_BACKEND_CPU) {
    self->cpu_reason = g_strdup ("backend=cpu was requested");
    return TRUE;
  }
#ifdef HAVE_CUDA
  if (klass->process_cuda == NULL) {
    reason = g_strdup_printf ("%s has no CUDA implementation yet",
        G_OBJECT_TYPE_NAME (self));
  } else {
    GError *cerr = NULL;

    if (aooct_cuda_filter_open (self->cuda, GST_ELEMENT (self), device_id,
            &cerr)) {
      self->active_backend = GST_AOOCT_BACKEND_CUDA;
      ((AooctCudaFilter *) self->cuda)->graphs = klass->cuda_graphs
          && cuda_graphs;
      GST_INFO_OBJECT (self, "running on CUDA%s",
          ((AooctCudaFilter *) self->cuda)->graphs ?
          ", one CUDA graph per buffer" : "");
#ifdef AOOCT_FAULT_INJECTION
      read_fault_request (self);
#endif
      return TRUE;
    }
    aooct_cuda_filter_close (self->cuda);
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
  self->cpu_reason = g_strdup_printf ("backend=auto found no CUDA to run "
      "on: %s", reason);
  g_free (reason);
  return TRUE;
}

#ifdef HAVE_CUDA
static void drain_outputs (GstAooctFilter * self);
#endif

static gboolean
gst_aooct_filter_set_caps (GstBaseTransform * bt, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GError *error = NULL;
  AooctGeometry in, out;

  GST_DEBUG_OBJECT (self, "in %" GST_PTR_FORMAT " out %" GST_PTR_FORMAT,
      incaps, outcaps);
#ifdef HAVE_CUDA
  /* outputs of the old caps (usually drained already by the caps event) */
  drain_outputs (self);
#endif
  teardown (self);

  if (klass->sink_is_video && !gst_video_info_from_caps (&self->in_vinfo,
          incaps)) {
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "cannot parse input caps %" GST_PTR_FORMAT, incaps);
    goto failed;
  }
  if (klass->sink_is_video && caps_are_cuda (incaps) && !cuda_active (self)) {
    /* the template lists it in every build; only the CUDA path reads it */
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "upstream gives video in CUDA memory (memory:CUDAMemory), which %s "
        "reads only when it runs on CUDA, but it runs on the CPU (%s); give "
        "it frames in system memory (e.g. through cudadownload) or run it "
        "on a CUDA device", GST_ELEMENT_NAME (self),
        self->cpu_reason ? self->cpu_reason : "the CUDA backend is off");
    goto failed;
  }
  if (!klass->parse_sink_caps (self, incaps, &in, &error))
    goto failed;
  g_clear_pointer (&self->in_positions, g_free);
  if (!klass->sink_is_video && in.k_sampling != AOOCT_K_SAMPLING_EVEN
      && !(self->in_positions = aooct_structure_get_positions
          (gst_caps_get_structure (incaps, 0), &in, &error)))
    goto failed;
  if (!klass->derive_output (self, &in, &out, &error))
    goto failed;

  if (klass->src_is_video) {
    GstCaps *expected = with_memory_features (klass->output_caps (self, &out),
        cuda_active (self), klass->cuda_video_formats, FALSE);
    gboolean ok = gst_caps_can_intersect (expected, outcaps);

    if (!ok) {
      gchar *e = gst_caps_to_string (expected), *o =
          gst_caps_to_string (outcaps);
      g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "downstream wants %s but this element produces %s", o, e);
      g_free (e);
      g_free (o);
    }
    gst_caps_unref (expected);
    if (!ok)
      goto failed;
    if (!gst_video_info_from_caps (&self->out_vinfo, outcaps)) {
      g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "cannot parse output caps %" GST_PTR_FORMAT, outcaps);
      goto failed;
    }
  } else {
    AooctGeometry neg;
    GString *diff = g_string_new (NULL);

    if (!aooct_caps_to_geometry (outcaps, &neg, &error)) {
      g_string_free (diff, TRUE);
      goto failed;
    }
    if (!aooct_geometry_equal (&out, &neg, diff)) {
      g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "geometry mismatch between this element's output and downstream "
          "(produced vs expected): %s", diff->str);
      g_string_free (diff, TRUE);
      goto failed;
    }
    g_string_free (diff, TRUE);
  }

  self->in_geom = in;
  self->out_geom = out;
  self->in_cuda_memory = caps_are_cuda (incaps);
  self->out_cuda_memory = caps_are_cuda (outcaps);
  if (!setup (self, &error))
    goto failed;
  self->configured = TRUE;
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
  return TRUE;

failed:
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  return FALSE;
}

/* @pending: the input's deferred steps; with a pending dispersion the
 * buffer holds the real spectra, half the size of the complex ones its
 * caps describe. */
static gsize
expected_input_size (GstAooctFilter * self, const AooctPendingMeta * pending)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gsize size = klass->sink_is_video ? GST_VIDEO_INFO_SIZE (&self->in_vinfo) :
      aooct_geometry_buffer_bytes (&self->in_geom);

  return aooct_pending_meta_data_is_real (pending) ? size / 2 : size;
}

static gsize
output_size (GstAooctFilter * self)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  return klass->src_is_video ? GST_VIDEO_INFO_SIZE (&self->out_vinfo) :
      aooct_geometry_buffer_bytes (&self->out_geom);
}

static gboolean
gst_aooct_filter_transform_size (GstBaseTransform * bt,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  if (!self->configured)
    return FALSE;
  *othersize = direction == GST_PAD_SINK ? output_size (self) :
      expected_input_size (self, NULL);
  return TRUE;
}

static gboolean
map_plane (GstAooctFilter * self, GstBuffer * buf, gboolean video,
    const GstVideoInfo * vinfo, const AooctGeometry * geom, GstMapFlags flags,
    GstVideoFrame * frame, GstMapInfo * map, AooctPlane * plane)
{
  if (video) {
    if (!gst_video_frame_map (frame, vinfo, buf, flags))
      return FALSE;
    plane->data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
    plane->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  } else {
    if (!gst_buffer_map (buf, map, flags))
      return FALSE;
    plane->data = map->data;
    plane->stride = aooct_geometry_aline_bytes (geom);
  }
  return TRUE;
}

static void
unmap_plane (gboolean video, GstBuffer * buf, GstVideoFrame * frame,
    GstMapInfo * map)
{
  if (video)
    gst_video_frame_unmap (frame);
  else
    gst_buffer_unmap (buf, map);
}

#ifdef HAVE_CUDA
/* Rows and device row stride of the input / output plane (A-lines for
 * application/x-aooct, video rows for video/x-raw). */
static void
plane_layout (gboolean video, const GstVideoInfo * vinfo,
    const AooctGeometry * geom, gsize * rows, gsize * stride)
{
  if (video) {
    *rows = GST_VIDEO_INFO_HEIGHT (vinfo);
    *stride = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 0);
  } else {
    *rows = aooct_geometry_total_alines (geom);
    *stride = aooct_geometry_aline_bytes (geom);
  }
}

/* One buffer on the GPU.  Memory of ours on our context is used in place,
 * ordered by the rule of aooct-cuda-memory.h, and so is video input in
 * libgstcuda's GstCudaMemory on our context (aooct-cuda-filter.h says how
 * it is ordered); anything else is mapped on the host and goes through
 * page-locked staging. */
/* captures that may fail in a row before an element stops trying */
#define GRAPH_MAX_FAILURES 3

/* klass->process_cuda(), captured into one CUDA graph and launched as one
 * where the class allows it and cuda-graphs=true (aooct-cuda-graph.h).
 * A capture that fails enqueues nothing: the step then runs as usual. */
static gboolean
process_cuda_step (GstAooctFilter * self, const AooctPlane * in,
    AooctPlane * out, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaFilter *cf = self->cuda;
  GError *err = NULL;
  gboolean ok;

  if (!cf->graphs || self->graphs_unsupported
      || cf->graph_failures >= GRAPH_MAX_FAILURES)
    return klass->process_cuda (self, in, out, cf->stream, error);
  if (!aooct_cuda_graph_begin (cf->stream, &err)) {
    GST_INFO_OBJECT (self, "no CUDA graphs: %s", err->message);
    g_clear_error (&err);
    aooct_cuda_clear_stale_error ();
    cf->graph_failures = GRAPH_MAX_FAILURES;
    return klass->process_cuda (self, in, out, cf->stream, error);
  }
  ok = klass->process_cuda (self, in, out, cf->stream, &err);
  if (aooct_cuda_graph_end (&cf->graph, cf->stream, ok, ok ? &err : NULL)
      && ok) {
    cf->graph_failures = 0;
    return TRUE;
  }
  GST_DEBUG_OBJECT (self, "capture failed (%s): running the step without",
      err ? err->message : "?");
  g_clear_error (&err);
  aooct_cuda_clear_stale_error ();
  if (++cf->graph_failures == GRAPH_MAX_FAILURES)
    GST_INFO_OBJECT (self, "%d captures failed in a row: no more CUDA graphs",
        GRAPH_MAX_FAILURES);
  if (klass->cuda_graph_abort)
    klass->cuda_graph_abort (self);
  return klass->process_cuda (self, in, out, cf->stream, error);
}

static gboolean
transform_cuda (GstAooctFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaFilter *cf = self->cuda;
  AooctCudaMemory *in_mem = inbuf ?
      aooct_cuda_buffer_get_memory (inbuf, cf->context) : NULL;
  AooctCudaMemory *out_mem = outbuf ?
      aooct_cuda_buffer_get_memory (outbuf, cf->context) : NULL;
  gboolean out_video_cuda = outbuf && klass->src_is_video
      && self->out_cuda_memory;
  GstVideoFrame frame, out_frame;
  gboolean out_frame_mapped = FALSE;
  AooctCudaVideoInput vin;
  GstMapInfo map;
  AooctPlane in, out, host;
  gsize in_rows, in_stride, out_rows, out_stride;
  gboolean ok = FALSE;

  memset (&vin, 0, sizeof (vin));

  plane_layout (klass->sink_is_video, &self->in_vinfo, &self->in_geom,
      &in_rows, &in_stride);
  if (aooct_pending_meta_data_is_real (self->pending))
    in_stride /= 2;
  plane_layout (klass->src_is_video, &self->out_vinfo, &self->out_geom,
      &out_rows, &out_stride);
  if (!aooct_cuda_filter_push (cf, error))
    return FALSE;
  aooct_cuda_clear_stale_error ();

  if (inbuf == NULL) {
    /* a volume view making its image (gst_aooct_filter_process_buffers) */
    in.data = NULL;
    in.stride = 0;
  } else if (in_mem) {
    GstVideoMeta *meta = klass->sink_is_video ?
        gst_buffer_get_video_meta (inbuf) : NULL;

    if (!aooct_cuda_memory_begin_access (in_mem, cf->stream, error))
      goto done;
    /* ours alone: the step may use it as scratch (aooctpad's R2C) */
    self->in_disposable = gst_buffer_is_writable (inbuf)
        && gst_buffer_is_all_memory_writable (inbuf);
    /* video frames in our memory: the caps' layout unless a meta says */
    in.data = (guint8 *) in_mem->dptr + (meta ? meta->offset[0] : 0);
    in.stride = meta ? (gsize) meta->stride[0] : in_stride;
  } else if (klass->sink_is_video && self->in_cuda_memory
      && !aooct_cuda_filter_map_video_input (cf, inbuf, &self->in_vinfo,
          &vin, &in, error)) {
    goto done;
  } else if (!vin.mapped) {
    gboolean up;

    if (self->in_cuda_memory)
      GST_DEBUG_OBJECT (self, "input in CUDA memory that cannot be used in "
          "place (another CUDA context, or not one device block): reading "
          "it through system memory");
    if (!map_plane (self, inbuf, klass->sink_is_video,
            klass->sink_is_video ?
            aooct_cuda_filter_video_layout (inbuf, &self->in_layout) : NULL,
            &self->in_geom, GST_MAP_READ, &frame, &map, &host)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "cannot map the input buffer for reading");
      goto done;
    }
    up = aooct_cuda_filter_upload (cf, inbuf, &host, in_rows, in_stride, &in,
        error);
    unmap_plane (klass->sink_is_video, inbuf, &frame, &map);
    if (!up)
      goto done;
  }

  if (outbuf == NULL) {
    /* a volume view taking B-scans in (gst_aooct_filter_process_buffers) */
    out.data = NULL;
    out.stride = 0;
  } else if (out_video_cuda) {
    /* libgstcuda memory for nvcodec: plane 0 to the element, the chroma
     * of a YUV format neutral */
    if (!aooct_cuda_filter_map_video_output (cf, outbuf, &out_frame, error))
      goto done;
    out_frame_mapped = TRUE;
    out.data = GST_VIDEO_FRAME_PLANE_DATA (&out_frame, 0);
    out.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, 0);
    if (!aooct_cuda_filter_neutral_chroma (cf, &out_frame, error))
      goto done;
  } else if (out_mem) {
    if (!aooct_cuda_memory_begin_access (out_mem, cf->stream, error))
      goto done;
    out.data = out_mem->dptr;
    out.stride = out_stride;
    if (klass->leaves_pending && self->downstream_absorbs
        && gst_buffer_is_writable (outbuf))
      self->out_pending = aooct_buffer_ensure_pending_meta (outbuf);
  } else if (!aooct_cuda_filter_output_plane (cf, out_rows, out_stride, &out,
          error)) {
    goto done;
  }

  if (!aooct_cuda_filter_timing_begin (cf, error)
      || !process_cuda_step (self, &in, &out, error)
      || !aooct_cuda_filter_timing_end (cf, error)
      || !aooct_cuda_filter_upload_done (cf, error))
    goto done;
#ifdef AOOCT_FAULT_INJECTION
  if (G_UNLIKELY (self->fault != AOOCT_CUDA_FAULT_NONE)
      && self->stat_buffers == self->fault_at
      && !aooct_cuda_fault_inject (self->fault, cf->stream, error))
    goto done;
#endif

  /* Where the data leaves the GPU, the host does not wait here: the
   * output goes into the ring (generate_output) and is pushed once its
   * download or GPU work has completed. */
  if (outbuf == NULL) {
    /* nothing leaves the GPU */
  } else if (out_video_cuda) {
    /* GStreamer 1.22's GstCudaMemory has no stream and nvcodec elements
     * use their own: the frame must be complete before it is pushed; from
     * 1.24 on the memory's stream carries the order instead */
    if (!aooct_cuda_filter_mark_output (cf, error))
      goto done;
  } else if (out_mem) {
    if (!aooct_cuda_memory_end_access (out_mem, cf->stream, TRUE, error))
      goto done;
  } else if (!aooct_cuda_filter_download_async (cf, &out, out_rows, error)) {
    goto done;
  }
  if (in_mem && !aooct_cuda_memory_end_access (in_mem, cf->stream,
          self->in_disposable, error))
    goto done;
  if (!aooct_cuda_filter_unmap_video_input (cf, &vin, error))
    goto done;
  ok = TRUE;

done:
  /* after a failure too: the next upload must still wait for whatever of
   * this buffer's work was enqueued */
  aooct_cuda_filter_upload_done (cf, NULL);
  self->out_pending = NULL;
  self->in_disposable = FALSE;
  if (out_frame_mapped)
    gst_video_frame_unmap (&out_frame);
  aooct_cuda_filter_unmap_video_input (cf, &vin, NULL);
  aooct_cuda_filter_pop (cf);
  return ok;
}
#endif

/* Checks a GstVideoMeta of the input against its buffer: a stride or
 * offset that puts a row past the end would make the element read out of
 * bounds (on the CPU and on the GPU alike). */
static gboolean
check_video_meta (GstAooctFilter * self, GstBuffer * inbuf,
    const GstVideoMeta * meta, GError ** error)
{
  const GstVideoInfo *vi = &self->in_vinfo;
  gsize size = gst_buffer_get_size (inbuf);
  gsize row = (gsize) GST_VIDEO_INFO_COMP_PSTRIDE (vi, 0) *
      GST_VIDEO_INFO_WIDTH (vi);
  guint64 end;

  if (meta->format != GST_VIDEO_INFO_FORMAT (vi)
      || meta->width != (guint) GST_VIDEO_INFO_WIDTH (vi)
      || meta->height != (guint) GST_VIDEO_INFO_HEIGHT (vi)
      || meta->n_planes < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer's GstVideoMeta describes a %s %ux%u frame but the "
        "caps say %s %dx%d", gst_video_format_to_string (meta->format),
        meta->width, meta->height, GST_VIDEO_INFO_NAME (vi),
        GST_VIDEO_INFO_WIDTH (vi), GST_VIDEO_INFO_HEIGHT (vi));
    return FALSE;
  }
  if (meta->stride[0] < 0 || (gsize) meta->stride[0] < row) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer's GstVideoMeta gives a row stride of %d bytes, "
        "less than a row of %" G_GSIZE_FORMAT " bytes", meta->stride[0], row);
    return FALSE;
  }
  /* on CUDA, rows are staged MIN (stride, caps stride) bytes at a time */
  if (cuda_active (self))
    row = MAX (row, MIN ((gsize) meta->stride[0],
            (gsize) GST_VIDEO_INFO_PLANE_STRIDE (vi, 0)));
  end = (guint64) meta->offset[0] + (guint64) meta->stride[0] *
      (meta->height - 1) + row;
  if (end > size) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer's GstVideoMeta (offset %" G_GSIZE_FORMAT ", stride "
        "%d) puts the last row's end at byte %" G_GUINT64_FORMAT ", past the "
        "end of the %" G_GSIZE_FORMAT "-byte buffer", meta->offset[0],
        meta->stride[0], end, size);
    return FALSE;
  }
  return TRUE;
}

/* A buffer whose size is not what its caps promise would be read out of
 * bounds or produce a wrong image: stop with a clear message instead.
 * Video input with a GstVideoMeta (checked against the buffer), or in
 * GstCudaMemory (pitched rows, its layout in the memory's GstVideoInfo),
 * may legitimately carry other strides; video input without a meta may
 * have its rows tightly packed (the spec's raw layout, which is what
 * rawvideoparse with plane-strides gives for a width whose rows GStreamer
 * would pad to 4 bytes).  Sets in_layout for the buffer. */
static gboolean
check_input_size (GstAooctFilter * self, GstBuffer * inbuf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gsize size = gst_buffer_get_size (inbuf), expected, packed = 0;
  GstVideoMeta *meta = NULL;

  expected = expected_input_size (self, aooct_buffer_get_pending_meta (inbuf));
  if (klass->sink_is_video) {
    self->in_layout = self->in_vinfo;
    meta = gst_buffer_get_video_meta (inbuf);
    if (meta)
      return check_video_meta (self, inbuf, meta, error);
    packed = (gsize) GST_VIDEO_INFO_COMP_PSTRIDE (&self->in_vinfo, 0) *
        GST_VIDEO_INFO_WIDTH (&self->in_vinfo) *
        GST_VIDEO_INFO_HEIGHT (&self->in_vinfo);
    if (size == packed && packed != expected && !self->in_cuda_memory) {
      GstVideoInfo *l = &self->in_layout;

      GST_VIDEO_INFO_PLANE_STRIDE (l, 0) =
          GST_VIDEO_INFO_COMP_PSTRIDE (&self->in_vinfo, 0) *
          GST_VIDEO_INFO_WIDTH (&self->in_vinfo);
      GST_VIDEO_INFO_SIZE (l) = packed;
      return TRUE;
    }
  }
  if (size != expected && !(klass->sink_is_video
          && (meta || self->in_cuda_memory) && size >= expected)) {
    gchar *also = packed && packed != expected ?
        g_strdup_printf (" or %" G_GSIZE_FORMAT " with tightly packed rows",
        packed) : g_strdup ("");

    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "input buffer has %" G_GSIZE_FORMAT " bytes but its caps say %"
        G_GSIZE_FORMAT "%s (%d A-lines of %d samples x %d B-scans); "
        "%s", size, expected, also, self->in_geom.alines,
        self->in_geom.samples, self->in_geom.bscans, size < expected ?
        "buffer too short" : "buffer too long");
    g_free (also);
    return FALSE;
  }
  return TRUE;
}

/* The size check before the output buffer is allocated: caps may promise
 * buffers of up to 2 GiB, and a short buffer must not cost that much
 * memory before it is refused (tests/test-robust.c). */
static GstFlowReturn
gst_aooct_filter_prepare_output_buffer (GstBaseTransform * bt,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GError *error = NULL;
  GstFlowReturn ret;

  self->defer_this = FALSE;
  if (self->configured && !check_input_size (self, inbuf, &error)) {
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
  if (self->configured && self->deferring && gst_buffer_is_writable (inbuf)
      && aooct_cuda_buffer_get_memory (inbuf,
          ((AooctCudaFilter *) self->cuda)->context)) {
    *outbuf = inbuf;
    self->defer_this = TRUE;
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

static GstFlowReturn
gst_aooct_filter_transform (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstVideoFrame in_frame, out_frame;
  GstMapInfo in_map, out_map;
  AooctPlane in, out;
  const AooctPendingMeta *pending;
  GError *error = NULL;
  gboolean ok;

  if (!self->configured) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("received a buffer before caps were negotiated"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  if (inbuf && !check_input_size (self, inbuf, &error))
    goto error;
  if (inbuf)
    self->stat_buffers++;
  pending = inbuf ? aooct_buffer_get_pending_meta (inbuf) : NULL;
  if (pending && !(klass->absorbs_pending && cuda_active (self))) {
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
  if (self->defer_this) {
    gint64 t0 = g_get_monotonic_time ();

    ok = klass->defer (self, aooct_buffer_ensure_pending_meta (outbuf), &error);
    self->stat_host_ms += (g_get_monotonic_time () - t0) / 1000.0;
    if (!ok)
      goto error;
    forget_last_error (self);
    return GST_FLOW_OK;
  }
  if (cuda_active (self)) {
    gint64 t0 = g_get_monotonic_time ();

    self->pending = pending;
    ok = transform_cuda (self, inbuf, outbuf, &error);
    self->pending = NULL;
    self->stat_host_ms += (g_get_monotonic_time () - t0) / 1000.0;
    if (!ok)
      goto error;
    forget_last_error (self);
    return GST_FLOW_OK;
  }
#endif

  /* a volume view passes one of them only (process_buffers) */
  in.data = out.data = NULL;
  in.stride = out.stride = 0;
  if (inbuf && !map_plane (self, inbuf, klass->sink_is_video,
          &self->in_layout, &self->in_geom, GST_MAP_READ, &in_frame, &in_map,
          &in)) {
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input buffer for reading");
    goto error;
  }
  if (outbuf && !map_plane (self, outbuf, klass->src_is_video,
          &self->out_vinfo, &self->out_geom, GST_MAP_WRITE, &out_frame,
          &out_map, &out)) {
    if (inbuf)
      unmap_plane (klass->sink_is_video, inbuf, &in_frame, &in_map);
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot map the output buffer for writing");
    goto error;
  }

  {
    gint64 t0 = g_get_monotonic_time ();

    ok = klass->process_cpu (self, &in, &out, &error);
    self->stat_host_ms += (g_get_monotonic_time () - t0) / 1000.0;
  }

  if (outbuf)
    unmap_plane (klass->src_is_video, outbuf, &out_frame, &out_map);
  if (inbuf)
    unmap_plane (klass->sink_is_video, inbuf, &in_frame, &in_map);
  if (!ok)
    goto error;
  forget_last_error (self);
  return GST_FLOW_OK;

error:
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  return GST_FLOW_ERROR;
}

#ifdef HAVE_CUDA
/* Where the data leaves the GPU here (host-memory output, libgstcuda
 * memory for nvcodec), outputs go through the ring and the src task. */
static gboolean
ring_mode (GstAooctFilter * self)
{
  return cuda_active (self) && (GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video
      || !self->out_cuda_memory);
}

/* Takes the oldest output of the ring once its GPU work is complete, its
 * staged image copied into it. */
static gboolean
take_head (GstAooctFilter * self, GstBuffer ** buf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaFilter *cf = self->cuda;
  AooctCudaOutput *out;
  gconstpointer staging = NULL;
  GstVideoFrame frame;
  GstMapInfo map;
  AooctPlane host;
  gboolean ok;

  *buf = NULL;
  ok = aooct_cuda_filter_push (cf, error);
  if (ok) {
    ok = aooct_cuda_filter_ring_wait_head (cf, &out, &staging, error);
    aooct_cuda_filter_pop (cf);
  }
  if (ok && staging) {
    /* the slot is not reused before ring_drop_head */
    if (map_plane (self, out->buf, klass->src_is_video, &self->out_vinfo,
            &self->out_geom, GST_MAP_WRITE, &frame, &map, &host)) {
      aooct_cuda_filter_copy_staged (out, staging, &host);
      unmap_plane (klass->src_is_video, out->buf, &frame, &map);
    } else {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "cannot map the output buffer for writing");
      ok = FALSE;
    }
  }
  if (ok) {
    *buf = out->buf;
    out->buf = NULL;
  }
  g_mutex_lock (&cf->ring_lock);
  aooct_cuda_filter_ring_drop_head (cf);
  cf->ring_count--;
  g_cond_broadcast (&cf->ring_cond);
  g_mutex_unlock (&cf->ring_lock);
  return ok;
}

/* The src task: pushes the outputs of the ring in order as their GPU work
 * completes, so that the streaming thread only enqueues work and an image
 * leaves as soon as it is ready, without waiting for the next B-scan. */
static void
ring_loop (gpointer user_data)
{
  GstAooctFilter *self = user_data;
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  AooctCudaFilter *cf = self->cuda;
  GstFlowReturn ret;
  GstBuffer *buf;
  GError *error = NULL;

  g_mutex_lock (&cf->ring_lock);
  while (cf->ring_count == 0 && !cf->ring_flushing)
    g_cond_wait (&cf->ring_cond, &cf->ring_lock);
  if (cf->ring_flushing) {
    g_mutex_unlock (&cf->ring_lock);
    gst_pad_pause_task (bt->srcpad);
    return;
  }
  cf->ring_busy = TRUE;
  g_mutex_unlock (&cf->ring_lock);

  if (take_head (self, &buf, &error)) {
    ret = gst_pad_push (bt->srcpad, buf);
  } else {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    ret = GST_FLOW_ERROR;
  }

  g_mutex_lock (&cf->ring_lock);
  cf->ring_busy = FALSE;
  /* upstream gets it with its next buffer, as from a plain chain */
  if (ret != GST_FLOW_OK && cf->ring_ret == GST_FLOW_OK)
    cf->ring_ret = ret;
  g_cond_broadcast (&cf->ring_cond);
  g_mutex_unlock (&cf->ring_lock);
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "pausing the output task: %s",
        gst_flow_get_name (ret));
    gst_pad_pause_task (bt->srcpad);
  }
}

/* Waits until every output of the ring has been pushed (before a
 * serialized event or query, new caps), or the task stopped. */
static void
drain_outputs (GstAooctFilter * self)
{
  AooctCudaFilter *cf = self->cuda;

  if (!cuda_active (self))
    return;
  g_mutex_lock (&cf->ring_lock);
  while ((cf->ring_count > 0 || cf->ring_busy) && !cf->ring_flushing
      && cf->ring_ret == GST_FLOW_OK)
    g_cond_wait (&cf->ring_cond, &cf->ring_lock);
  g_mutex_unlock (&cf->ring_lock);
}

static void
set_ring_flushing (GstAooctFilter * self, gboolean flushing)
{
  AooctCudaFilter *cf = self->cuda;

  g_mutex_lock (&cf->ring_lock);
  cf->ring_flushing = flushing;
  if (!flushing)
    cf->ring_ret = GST_FLOW_OK;
  g_cond_broadcast (&cf->ring_cond);
  g_mutex_unlock (&cf->ring_lock);
}

/* Drops the outputs of the ring; the src task is paused or stopped. */
static void
discard_outputs (GstAooctFilter * self)
{
  AooctCudaFilter *cf = self->cuda;

  if (!cuda_active (self))
    return;
  if (aooct_cuda_filter_push (cf, NULL)) {
    /* a download may still write a slot; the ring starts over */
    aooct_cuda_stream_sync (cf->stream, NULL);
    aooct_cuda_filter_pop (cf);
  }
  g_mutex_lock (&cf->ring_lock);
  aooct_cuda_filter_ring_clear (cf);
  g_cond_broadcast (&cf->ring_cond);
  g_mutex_unlock (&cf->ring_lock);
}
#endif

GstFlowReturn
gst_aooct_filter_process_buffers (GstAooctFilter * self, GstBuffer * inbuf,
    GstBuffer ** outbuf)
{
  GstBuffer *out = outbuf ? *outbuf : NULL;
  GstFlowReturn ret;

  g_return_val_if_fail (inbuf != NULL || out != NULL, GST_FLOW_ERROR);
  ret = gst_aooct_filter_transform (GST_BASE_TRANSFORM (self), inbuf, out);
#ifdef HAVE_CUDA
  if (out && cuda_active (self)) {
    AooctCudaFilter *cf = self->cuda;
    GError *error = NULL;

    if (ret != GST_FLOW_OK) {
      aooct_cuda_filter_ring_disarm (cf);
      return ret;
    }
    /* through the ring as generate_output's outputs go, but taken here at
     * once (the host waits for this image, one per volume): the ring owns
     * the buffer until take_head gives it back, so that it stays writable
     * for the copy of the staged image */
    g_mutex_lock (&cf->ring_lock);
    aooct_cuda_filter_ring_add (cf, out);
    cf->ring_count++;
    g_mutex_unlock (&cf->ring_lock);
    *outbuf = NULL;
    if (!take_head (self, outbuf, &error)) {
      gst_aooct_filter_post_error (self, error);
      g_clear_error (&error);
      ret = GST_FLOW_ERROR;
    }
  }
#endif
  return ret;
}

/* On CUDA, where the data leaves the GPU here, the streaming thread only
 * enqueues the GPU work of a buffer and puts the output into a short ring
 * (waiting only while the ring is full); the src task pushes the outputs
 * in input order once their download (or, for libgstcuda memory, their
 * GPU work) has completed.  Exactly one output per input, in order, with
 * the timestamps and flags basetransform set before transform. */
static GstFlowReturn
gst_aooct_filter_generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  AooctCudaFilter *cf = self->cuda;
  GstFlowReturn ret;
  GstBuffer *made = NULL;
  GError *error = NULL;

  if (!cuda_active (self) || bt->queued_buf == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt,
        outbuf);

  *outbuf = NULL;
  if (ring_mode (self)) {
    g_mutex_lock (&cf->ring_lock);
    while (cf->ring_count == AOOCT_CUDA_OUTPUT_DEPTH && !cf->ring_flushing
        && cf->ring_ret == GST_FLOW_OK)
      g_cond_wait (&cf->ring_cond, &cf->ring_lock);
    ret = cf->ring_flushing ? GST_FLOW_FLUSHING : cf->ring_ret;
    g_mutex_unlock (&cf->ring_lock);
    if (ret != GST_FLOW_OK) {
      gst_clear_buffer (&bt->queued_buf);
      return ret;
    }
  }
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, &made);
  if (made == NULL || ret != GST_FLOW_OK) {
    gst_clear_buffer (&made);
    aooct_cuda_filter_ring_disarm (cf);
    return ret;
  }
  if (!cf->armed.gpu && !ring_mode (self)) {
    /* complete already (device memory for the next element) */
    *outbuf = made;
    return GST_FLOW_OK;
  }
  g_mutex_lock (&cf->ring_lock);
  aooct_cuda_filter_ring_add (cf, made);
  cf->ring_count++;
  g_cond_broadcast (&cf->ring_cond);
  g_mutex_unlock (&cf->ring_lock);
  if (ring_mode (self)) {
    if (!gst_pad_start_task (bt->srcpad, ring_loop, self, NULL)) {
      GST_ELEMENT_ERROR (self, CORE, THREAD,
          ("cannot start the output task"), (NULL));
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }
  /* an output that leaves the GPU where the caps say device memory (a
   * foreign buffer): finish it here */
  if (!take_head (self, outbuf, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
#else
  return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, outbuf);
#endif
}

/* A downstream renegotiation sends new caps from the streaming thread
 * before set_caps: the outputs of the old caps leave first. */
static GstFlowReturn
gst_aooct_filter_submit_input_buffer (GstBaseTransform * bt,
    gboolean is_discont, GstBuffer * input)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  if (cuda_active (self) && gst_pad_needs_reconfigure (bt->srcpad))
    drain_outputs (self);
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (bt,
      is_discont, input);
}

/* Fixed video input that the template does not list (GRAY16_BE, a
 * rawvideoparse without format=, which gives I420, a width of 1) is
 * accepted here so that set_caps() -- parse_sink_caps() -- says what is
 * wrong and what to do, instead of the pad refusing it silently and the
 * user seeing only "not-negotiated".  Caps queries still offer only what
 * the element takes, so an upstream that negotiates (videoconvert) picks
 * that. */
static gboolean
gst_aooct_filter_accept_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (bt);
  GstCapsFeatures *f;

  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (bt, direction,
          caps))
    return TRUE;
  if (direction != GST_PAD_SINK || !klass->sink_is_video
      || !gst_caps_is_fixed (caps)
      || !gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "video/x-raw"))
    return FALSE;
  f = gst_caps_get_features (caps, 0);
  if (f && !gst_caps_features_is_equal (f,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return FALSE;
  GST_DEBUG_OBJECT (bt, "accepting %" GST_PTR_FORMAT " to say at set_caps "
      "why it cannot be processed", caps);
  return TRUE;
}

/* Where @ours (what this element produces) and @theirs (what downstream
 * accepts) part: the first field of ours that downstream constrains to
 * other values, or the media types; NULL when no single field is to
 * blame.  g_free. */
static gchar *
caps_difference (GstCaps * ours, GstCaps * theirs)
{
  GstStructure *s;
  guint i, j;

  if (gst_caps_is_empty (ours) || gst_caps_is_empty (theirs))
    return NULL;
  s = gst_caps_get_structure (ours, 0);
  for (i = 0; i < gst_caps_get_size (theirs); i++) {
    GstStructure *t = gst_caps_get_structure (theirs, i);

    if (!gst_structure_has_name (t, gst_structure_get_name (s)))
      continue;
    for (j = 0; j < (guint) gst_structure_n_fields (s); j++) {
      const gchar *name = gst_structure_nth_field_name (s, j);
      const GValue *a = gst_structure_get_value (s, name),
          *b = gst_structure_get_value (t, name);

      /* (gst_value_can_intersect only compares the types) */
      if (b && !gst_value_intersect (NULL, a, b)) {
        gchar *va = gst_value_serialize (a), *vb = gst_value_serialize (b);
        gchar *msg = g_strdup_printf ("downstream accepts %s=%s, but this "
            "element produces %s=%s", name, vb, name, va);

        g_free (va);
        g_free (vb);
        return msg;
      }
    }
  }
  return g_strdup_printf ("downstream accepts %s, but this element produces "
      "%s", gst_structure_get_name (gst_caps_get_structure (theirs, 0)),
      gst_structure_get_name (s));
}

/* New input caps were refused without a message of ours (set_caps posts
 * one for whatever it finds wrong): basetransform found no output caps
 * that downstream accepts.  Say which field, instead of leaving the user
 * with "not-negotiated". */
static void
explain_refused_caps (GstAooctFilter * self, GstCaps * incaps)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstCaps *ours = gst_aooct_filter_transform_caps (bt, GST_PAD_SINK, incaps,
      NULL);
  GstCaps *theirs = gst_pad_peer_query_caps (bt->srcpad, NULL);
  GstPad *peer = gst_pad_get_peer (bt->srcpad);
  gchar *diff = caps_difference (ours, theirs);
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

static gboolean
gst_aooct_filter_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  /* a flushing seek starts the stream over */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    forget_last_error (self);
#ifdef HAVE_CUDA

  if (cuda_active (self)) {
    switch (GST_EVENT_TYPE (event)) {
      case GST_EVENT_FLUSH_START:{
        gboolean ok;

        /* wake the streaming thread and the src task, let flush-start
         * unblock a push downstream, then wait for the task to pause */
        set_ring_flushing (self, TRUE);
        ok = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
        gst_pad_pause_task (bt->srcpad);
        return ok;
      }
      case GST_EVENT_FLUSH_STOP:
        discard_outputs (self);
        set_ring_flushing (self, FALSE);
        break;
      case GST_EVENT_EOS:
        drain_outputs (self);
        if (aooct_cuda_filter_push (self->cuda, NULL)) {
          aooct_cuda_filter_timing_collect (self->cuda, TRUE, NULL);
          aooct_cuda_filter_pop (self->cuda);
        }
        break;
      default:
        /* outputs in flight leave before whatever follows them */
        if (GST_EVENT_IS_SERIALIZED (event))
          drain_outputs (self);
        break;
    }
  }
#endif
  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;
    guint posted;
    gboolean ok;

    gst_event_parse_caps (event, &caps);
    gst_caps_ref (caps);
    GST_OBJECT_LOCK (self);
    posted = self->errors_posted;
    GST_OBJECT_UNLOCK (self);
    ok = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
    GST_OBJECT_LOCK (self);
    posted = self->errors_posted - posted;
    GST_OBJECT_UNLOCK (self);
    if (!ok && posted == 0)
      explain_refused_caps (self, caps);
    gst_caps_unref (caps);
    return ok;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static GstStateChangeReturn
gst_aooct_filter_change_state (GstElement * element, GstStateChange transition)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (element);
  GstBaseTransform *bt = GST_BASE_TRANSFORM (element);

  switch (transition) {
    case GST_STATE_CHANGE_READY_TO_PAUSED:
      set_ring_flushing (self, FALSE);
      break;
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      /* before the pads deactivate: the task may be waiting for work
       * with the src pad's stream lock held */
      set_ring_flushing (self, TRUE);
      gst_pad_stop_task (bt->srcpad);
      break;
    default:
      break;
  }
#endif
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static gboolean
gst_aooct_filter_start (GstBaseTransform * bt)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GError *error = NULL;

  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->last_error, g_free);
  GST_OBJECT_UNLOCK (self);
  if (!open_backend (self, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
  self->stat_buffers = 0;
  self->stat_host_ms = 0;
  self->inconsistent = 0;
#ifdef HAVE_CUDA
  GST_OBJECT_LOCK (self);
  aooct_cuda_filter_set_timing (self->cuda, self->gpu_timing);
  GST_OBJECT_UNLOCK (self);
#endif
  self->started = TRUE;
  return TRUE;
}

static gboolean
gst_aooct_filter_stop (GstBaseTransform * bt)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  teardown (self);
#ifdef HAVE_CUDA
  aooct_cuda_filter_close (self->cuda);
#endif
  self->active_backend = GST_AOOCT_BACKEND_CPU;
  self->started = FALSE;
  return TRUE;
}

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
decide_allocation_cuda_video (GstAooctFilter * self, GstQuery * query)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  GError *error = NULL;
  guint size = 0, min, max;

  gst_query_parse_allocation (query, &caps, NULL);
  query_pool_limits (query, &min, &max);
  pool = aooct_cuda_filter_video_pool_new (self->cuda, caps, query, min, max,
      &size, &error);
  if (pool == NULL) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
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

  self->downstream_absorbs = self->deferring = FALSE;
  if ((klass->defer == NULL && !klass->leaves_pending) || !cuda_active (self)
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
  defer_steps = self->defer_steps;
  GST_OBJECT_UNLOCK (self);
  if (announced && !defer_steps) {
    GST_INFO_OBJECT (self, "defer-steps=false: not deferring the step");
    return;
  }
  self->downstream_absorbs = announced;
  self->deferring = announced && klass->defer && self->in_cuda_memory
      && !self->defer_unsupported;
  GST_INFO_OBJECT (self, "%s", !announced ? "downstream cannot apply a "
      "deferred step: running it here" : self->deferring ? "deferring the "
      "step to downstream (fused with its own)" : "leaving the end of the "
      "step to downstream");
}
#endif

/* On CUDA with CUDA-memory output: a pool of our device memory (allocated
 * when the pool starts, reused after; no allocation per buffer). */
static gboolean
gst_aooct_filter_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  decide_deferring (self, query);

  if (cuda_active (self) && self->out_cuda_memory
      && GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video)
    return decide_allocation_cuda_video (self, query);
  if (cuda_active (self) && self->out_cuda_memory) {
    AooctCudaFilter *cf = self->cuda;
    GstCaps *caps = NULL;
    GstBufferPool *pool;
    GstStructure *config;
    guint size = output_size (self), min, max;

    gst_query_parse_allocation (query, &caps, NULL);
    query_pool_limits (query, &min, &max);
    pool = aooct_cuda_buffer_pool_new (cf->context);
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("cannot configure the CUDA buffer pool (%u bytes per buffer)",
              size), (NULL));
      gst_object_unref (pool);
      return FALSE;
    }
    /* started here, not by basetransform, so that a failure (device memory
     * exhausted) reaches the user with CUDA's message */
    if (!gst_buffer_pool_set_active (pool, TRUE)) {
      GError *error = aooct_cuda_buffer_pool_take_error (pool);

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
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}

/* Video input in CUDA memory on CUDA: a pool of our device memory on the
 * shared context for an upstream that writes frames on the GPU (mapping
 * them with AOOCT_MAP_CUDA and following the rule of aooct-cuda-memory.h),
 * so that they are read in place.  An upstream with its own pool
 * (nvcodec's GstCudaBufferPool) keeps it. */
static gboolean
gst_aooct_filter_propose_allocation (GstBaseTransform * bt,
    GstQuery * decide_query, GstQuery * query)
{
  gboolean ret;
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);
  GstCaps *caps = NULL;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (cuda_active (self)
      && GST_AOOCT_FILTER_GET_CLASS (self)->sink_video_cuda_memory
      && caps_are_cuda (caps) && gst_video_info_from_caps (&info, caps)) {
    AooctCudaFilter *cf = self->cuda;
    GstBufferPool *pool = aooct_cuda_buffer_pool_new (cf->context);
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
   * packed rows are recognised by their size, see check_input_size.) */
  if (GST_AOOCT_FILTER_GET_CLASS (bt)->sink_is_video
      && !gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL)) {
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    ret = TRUE;
  }
#ifdef HAVE_CUDA
  {
    /* Upstream may leave its pointwise step to us (aooct-pending-meta.h)
     * if we apply deferred steps; the default above passes on whatever
     * downstream announced, which is not ours to promise otherwise. */
    gboolean absorbs = GST_AOOCT_FILTER_GET_CLASS (self)->absorbs_pending
        && cuda_active (self) && caps_are_cuda (caps);
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

static gboolean
gst_aooct_filter_query (GstBaseTransform * bt, GstPadDirection direction,
    GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  if (aooct_cuda_filter_handle_query (self->cuda, GST_ELEMENT (self), query))
    return TRUE;
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)
    drain_outputs (self);
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (bt, direction, query);
}

static void
gst_aooct_filter_set_context (GstElement * element, GstContext * context)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  aooct_cuda_filter_set_context (self->cuda, element, context, device_id);
#endif
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static void
gst_aooct_filter_finalize (GObject * object)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (object);

#ifdef HAVE_CUDA
  g_clear_pointer (&self->cuda, aooct_cuda_filter_free);
#endif
  g_free (self->last_error);
  g_free (self->cpu_reason);
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

void
gst_aooct_filter_reconfigure (GstAooctFilter * self)
{
  gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

/* The stats property: counts since the element started. */
static GstStructure *
make_stats (GstAooctFilter * self)
{
  GstStructure *st;
#ifdef HAVE_CUDA
  AooctCudaStats cs;
#endif

  st = gst_structure_new ("aooct-stats",
      "backend", G_TYPE_STRING, cuda_active (self) ? "cuda" : "cpu",
      "buffers", G_TYPE_UINT64, self->stat_buffers,
      "host-time-ms", G_TYPE_DOUBLE, self->stat_host_ms,
      "host-time-mean-ms", G_TYPE_DOUBLE, self->stat_buffers ?
      self->stat_host_ms / self->stat_buffers : 0.0, NULL);
#ifdef HAVE_CUDA
  aooct_cuda_filter_get_stats (self->cuda, &cs);
  gst_structure_set (st, "gpu-buffers", G_TYPE_UINT64, cs.timed,
      "gpu-time-ms", G_TYPE_DOUBLE, cs.gpu_ms,
      "gpu-time-mean-ms", G_TYPE_DOUBLE, cs.timed ? cs.gpu_ms / cs.timed : 0.0,
      "gpu-time-max-ms", G_TYPE_DOUBLE, cs.gpu_ms_max, NULL);
#endif
  return st;
}

static void
gst_aooct_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctFilter *self = GST_AOOCT_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BACKEND:
      self->backend = g_value_get_enum (value);
      break;
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_GPU_TIMING:
      self->gpu_timing = g_value_get_boolean (value);
      break;
    case PROP_DEFER_STEPS:
      self->defer_steps = g_value_get_boolean (value);
      break;
    case PROP_CUDA_GRAPHS:
      self->cuda_graphs = g_value_get_boolean (value);
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
      g_value_set_enum (value, self->backend);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_GPU_TIMING:
      g_value_set_boolean (value, self->gpu_timing);
      break;
    case PROP_DEFER_STEPS:
      g_value_set_boolean (value, self->defer_steps);
      break;
    case PROP_CUDA_GRAPHS:
      g_value_set_boolean (value, self->cuda_graphs);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, make_stats (self));
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

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where the step runs: auto (CUDA when a device is usable, else "
          "CPU), cpu, or cuda (an error without a usable GPU)",
          GST_TYPE_AOOCT_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device ordinal to run on (-1 = the pipeline's shared context, "
          "else device 0)", -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_GPU_TIMING,
      g_param_spec_boolean ("gpu-timing", "GPU timing",
          "Measure the GPU time of this step of every buffer with CUDA "
          "events (read it from stats; costs two event records per buffer)",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Since the element started: backend, buffers, host-time-ms (host "
          "time in transform: on CUDA only enqueueing, unless data leaves "
          "the GPU), host-time-mean-ms; on CUDA with gpu-timing also "
          "gpu-buffers, gpu-time-ms, gpu-time-mean-ms, gpu-time-max-ms (GPU "
          "time of the step alone, CUDA events around it on the element's "
          "stream; complete after EOS)", GST_TYPE_STRUCTURE,
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
   * others ignore it.  Opt-in: docs/performance.md has the figures.
   * Read when the element starts.
   */
  g_object_class_install_property (gobject_class, PROP_CUDA_GRAPHS,
      g_param_spec_boolean ("cuda-graphs", "CUDA graphs",
          "On CUDA, launch this step as one CUDA graph per buffer where the "
          "step allows it (fewer launches; same output)", DEFAULT_CUDA_GRAPHS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  bt_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_transform_caps);
  bt_class->set_caps = GST_DEBUG_FUNCPTR (gst_aooct_filter_set_caps);
  bt_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_transform_size);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_aooct_filter_transform);
  bt_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_generate_output);
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_aooct_filter_sink_event);
  bt_class->accept_caps = GST_DEBUG_FUNCPTR (gst_aooct_filter_accept_caps);
  bt_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_submit_input_buffer);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_change_state);
  bt_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_prepare_output_buffer);
  bt_class->start = GST_DEBUG_FUNCPTR (gst_aooct_filter_start);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_aooct_filter_stop);
  bt_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_decide_allocation);
  bt_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_propose_allocation);
  bt_class->query = GST_DEBUG_FUNCPTR (gst_aooct_filter_query);
  bt_class->passthrough_on_same_caps = FALSE;

  klass->parse_sink_caps = parse_sink_caps_default;
  klass->output_caps = output_caps_default;

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_BACKEND, 0);
}

static void
gst_aooct_filter_init (GstAooctFilter * self)
{
  self->backend = DEFAULT_BACKEND;
  self->device_id = DEFAULT_DEVICE_ID;
  self->defer_steps = DEFAULT_DEFER_STEPS;
  self->cuda_graphs = DEFAULT_CUDA_GRAPHS;
  self->active_backend = GST_AOOCT_BACKEND_CPU;
#ifdef HAVE_CUDA
  self->cuda = aooct_cuda_filter_new ();
#endif
}
