/* aooct: base class of the processing elements (see gstaooctfilter.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctfilter.h"
#include "aooct-caps.h"
#include "aooct-error.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-filter.h"
#include "aooct-cuda-memory.h"
#include "aooct-cuda-pool.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_filter_debug);
#define GST_CAT_DEFAULT gst_aooct_filter_debug

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_DEVICE_ID,
};

#define DEFAULT_BACKEND GST_AOOCT_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1

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

#ifdef HAVE_CUDA
static gboolean
structure_is_aooct (GstCaps * caps, guint i)
{
  return gst_structure_has_name (gst_caps_get_structure (caps, i),
      AOOCT_CAPS_NAME);
}

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
#endif

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
 * each is followed by its GstCudaMemory variant in those formats. */
static GstCaps *
with_memory_features (GstCaps * caps, gboolean cuda,
    const gchar * const *video_formats)
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

  /* A CUDA build advertises application/x-aooct in CUDA memory too. */
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          with_memory_features (gst_caps_from_string (sink_caps), TRUE, NULL)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          with_memory_features (gst_caps_from_string (src_caps), TRUE,
              klass->cuda_video_formats)));
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
      result = klass->output_caps (self, &out);
  }
  if (result == NULL) {
    GstPad *other = direction == GST_PAD_SINK ? bt->srcpad : bt->sinkpad;
    result = gst_pad_get_pad_template_caps (other);
  }
  /* CUDA memory first when running on CUDA, so that negotiation prefers
   * it; system memory only on the CPU backend.  @result is the src side
   * when @direction is the sink. */
  result = with_memory_features (result, cuda_offered (self),
      direction == GST_PAD_SINK ? klass->cuda_video_formats : NULL);
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
static gboolean
open_backend (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  GstAooctBackend backend;
  gint device_id;
  gchar *reason;

  GST_OBJECT_LOCK (self);
  backend = self->backend;
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);

  self->active_backend = GST_AOOCT_BACKEND_CPU;
  if (backend == GST_AOOCT_BACKEND_CPU)
    return TRUE;

#ifdef HAVE_CUDA
  if (klass->process_cuda == NULL) {
    reason = g_strdup_printf ("%s has no CUDA implementation yet",
        G_OBJECT_TYPE_NAME (self));
  } else {
    GError *cerr = NULL;

    if (aooct_cuda_filter_open (self->cuda, GST_ELEMENT (self), device_id,
            &cerr)) {
      self->active_backend = GST_AOOCT_BACKEND_CUDA;
      GST_INFO_OBJECT (self, "running on CUDA");
      return TRUE;
    }
    aooct_cuda_filter_close (self->cuda);
    reason = g_strdup (cerr->message);
    g_clear_error (&cerr);
  }
#else
  (void) klass;
  (void) device_id;
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
  g_free (reason);
  return TRUE;
}

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
  teardown (self);

  if (klass->sink_is_video && !gst_video_info_from_caps (&self->in_vinfo,
          incaps)) {
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "cannot parse input caps %" GST_PTR_FORMAT, incaps);
    goto failed;
  }
  if (!klass->parse_sink_caps (self, incaps, &in, &error))
    goto failed;
  if (!klass->derive_output (self, &in, &out, &error))
    goto failed;

  if (klass->src_is_video) {
    GstCaps *expected = with_memory_features (klass->output_caps (self, &out),
        cuda_active (self), klass->cuda_video_formats);
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
#ifdef HAVE_CUDA
  self->in_cuda_memory = caps_are_cuda (incaps);
  self->out_cuda_memory = caps_are_cuda (outcaps);
#endif
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

static gsize
expected_input_size (GstAooctFilter * self)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  return klass->sink_is_video ? GST_VIDEO_INFO_SIZE (&self->in_vinfo) :
      aooct_geometry_buffer_bytes (&self->in_geom);
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
      expected_input_size (self);
  return TRUE;
}

static gboolean
map_plane (GstAooctFilter * self, GstBuffer * buf, gboolean video,
    GstVideoInfo * vinfo, const AooctGeometry * geom, GstMapFlags flags,
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
 * ordered by the rule of aooct-cuda-memory.h; anything else is mapped on
 * the host and goes through page-locked staging. */
static gboolean
transform_cuda (GstAooctFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  AooctCudaFilter *cf = self->cuda;
  AooctCudaMemory *in_mem = aooct_cuda_buffer_get_memory (inbuf, cf->context);
  AooctCudaMemory *out_mem = aooct_cuda_buffer_get_memory (outbuf, cf->context);
  gboolean out_video_cuda = klass->src_is_video && self->out_cuda_memory;
  GstVideoFrame frame, out_frame;
  gboolean out_frame_mapped = FALSE;
  GstMapInfo map;
  AooctPlane in, out, host;
  gsize in_rows, in_stride, out_rows, out_stride;
  gboolean ok = FALSE;

  plane_layout (klass->sink_is_video, &self->in_vinfo, &self->in_geom,
      &in_rows, &in_stride);
  plane_layout (klass->src_is_video, &self->out_vinfo, &self->out_geom,
      &out_rows, &out_stride);
  if (!aooct_cuda_filter_push (cf, error))
    return FALSE;

  if (in_mem) {
    if (!aooct_cuda_memory_begin_access (in_mem, cf->stream, error))
      goto done;
    in.data = in_mem->dptr;
    in.stride = in_stride;
  } else {
    gboolean up;

    if (!map_plane (self, inbuf, klass->sink_is_video, &self->in_vinfo,
            &self->in_geom, GST_MAP_READ, &frame, &map, &host)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "cannot map the input buffer for reading");
      goto done;
    }
    up = aooct_cuda_filter_upload (cf, &host, in_rows, in_stride, &in, error);
    unmap_plane (klass->sink_is_video, inbuf, &frame, &map);
    if (!up)
      goto done;
  }

  if (out_video_cuda) {
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
  } else if (!aooct_cuda_filter_output_plane (cf, out_rows, out_stride, &out,
          error)) {
    goto done;
  }

  if (!klass->process_cuda (self, &in, &out, cf->stream, error))
    goto done;

  if (out_video_cuda) {
    /* nothing to do here: the wait below completes the frame */
  } else if (out_mem) {
    if (!aooct_cuda_memory_end_access (out_mem, cf->stream, TRUE, error))
      goto done;
  } else {
    gboolean down;

    if (!map_plane (self, outbuf, klass->src_is_video, &self->out_vinfo,
            &self->out_geom, GST_MAP_WRITE, &frame, &map, &host)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "cannot map the output buffer for writing");
      goto done;
    }
    down = aooct_cuda_filter_download (cf, &out, out_rows, &host, error);
    unmap_plane (klass->src_is_video, outbuf, &frame, &map);
    if (!down)
      goto done;
  }
  if (in_mem && !aooct_cuda_memory_end_access (in_mem, cf->stream, FALSE,
          error))
    goto done;
  /* GStreamer 1.22's GstCudaMemory has no stream and nvcodec elements
   * use their own: the frame must be complete before it is pushed */
  if (out_video_cuda && !aooct_cuda_stream_sync (cf->stream, error))
    goto done;
  ok = TRUE;

done:
  if (out_frame_mapped)
    gst_video_frame_unmap (&out_frame);
  aooct_cuda_filter_pop (cf);
  return ok;
}
#endif

/* A buffer whose size is not what its caps promise would be read out of
 * bounds or produce a wrong image: stop with a clear message instead.
 * Video input with a GstVideoMeta may legitimately carry other strides. */
static gboolean
check_input_size (GstAooctFilter * self, GstBuffer * inbuf, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gsize size = gst_buffer_get_size (inbuf), expected;

  expected = expected_input_size (self);
  if (size != expected && !(klass->sink_is_video
          && gst_buffer_get_video_meta (inbuf) && size >= expected)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "input buffer has %" G_GSIZE_FORMAT " bytes but its caps say %"
        G_GSIZE_FORMAT " (%d A-lines of %d samples x %d B-scans); "
        "%s", size, expected, self->in_geom.alines, self->in_geom.samples,
        self->in_geom.bscans, size < expected ? "buffer too short" :
        "buffer too long");
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

  if (self->configured && !check_input_size (self, inbuf, &error)) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (bt,
      inbuf, outbuf);
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
  GError *error = NULL;
  gboolean ok;

  if (!self->configured) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("received a buffer before caps were negotiated"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  if (!check_input_size (self, inbuf, &error))
    goto error;
#ifdef HAVE_CUDA
  if (cuda_active (self)) {
    if (!transform_cuda (self, inbuf, outbuf, &error))
      goto error;
    return GST_FLOW_OK;
  }
#endif

  if (!map_plane (self, inbuf, klass->sink_is_video, &self->in_vinfo,
          &self->in_geom, GST_MAP_READ, &in_frame, &in_map, &in)) {
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input buffer for reading");
    goto error;
  }
  if (!map_plane (self, outbuf, klass->src_is_video, &self->out_vinfo,
          &self->out_geom, GST_MAP_WRITE, &out_frame, &out_map, &out)) {
    unmap_plane (klass->sink_is_video, inbuf, &in_frame, &in_map);
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot map the output buffer for writing");
    goto error;
  }

  ok = klass->process_cpu (self, &in, &out, &error);

  unmap_plane (klass->src_is_video, outbuf, &out_frame, &out_map);
  unmap_plane (klass->sink_is_video, inbuf, &in_frame, &in_map);
  if (!ok)
    goto error;
  return GST_FLOW_OK;

error:
  gst_aooct_filter_post_error (self, error);
  g_clear_error (&error);
  return GST_FLOW_ERROR;
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
/* Video in memory:CUDAMemory: always a GstCudaBufferPool of our own on the
 * shared context, so that every output buffer is libgstcuda memory of the
 * layout we map (a pool proposed downstream could be another kind). */
static gboolean
decide_allocation_cuda_video (GstAooctFilter * self, GstQuery * query)
{
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  GError *error = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (have_pool)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);
  min = MAX (min, 2);
  if (max != 0)
    max = MAX (max, min);
  pool = aooct_cuda_filter_video_pool_new (self->cuda, caps, min, max, &size,
      &error);
  if (pool == NULL) {
    gst_aooct_filter_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
  if (have_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
#endif

/* On CUDA with CUDA-memory output: a pool of our device memory (allocated
 * when the pool starts, reused after; no allocation per buffer). */
static gboolean
gst_aooct_filter_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  if (cuda_active (self) && self->out_cuda_memory
      && GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video)
    return decide_allocation_cuda_video (self, query);
  if (cuda_active (self) && self->out_cuda_memory) {
    AooctCudaFilter *cf = self->cuda;
    GstCaps *caps = NULL;
    GstBufferPool *pool;
    GstStructure *config;
    guint size = output_size (self), min = 0, max = 0;
    gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0;

    gst_query_parse_allocation (query, &caps, NULL);
    if (have_pool)
      gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);
    /* one in flight downstream while the next is being written */
    min = MAX (min, 2);
    if (max != 0)
      max = MAX (max, min);
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
    if (have_pool)
      gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
    else
      gst_query_add_allocation_pool (query, pool, size, min, max);
    gst_object_unref (pool);
    return TRUE;
  }
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}

static gboolean
gst_aooct_filter_query (GstBaseTransform * bt, GstPadDirection direction,
    GstQuery * query)
{
#ifdef HAVE_CUDA
  GstAooctFilter *self = GST_AOOCT_FILTER (bt);

  if (aooct_cuda_filter_handle_query (self->cuda, GST_ELEMENT (self), query))
    return TRUE;
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
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

void
gst_aooct_filter_reconfigure (GstAooctFilter * self)
{
  gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
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

  bt_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_transform_caps);
  bt_class->set_caps = GST_DEBUG_FUNCPTR (gst_aooct_filter_set_caps);
  bt_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_transform_size);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_aooct_filter_transform);
  bt_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_prepare_output_buffer);
  bt_class->start = GST_DEBUG_FUNCPTR (gst_aooct_filter_start);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_aooct_filter_stop);
  bt_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_aooct_filter_decide_allocation);
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
  self->active_backend = GST_AOOCT_BACKEND_CPU;
#ifdef HAVE_CUDA
  self->cuda = aooct_cuda_filter_new ();
#endif
}
