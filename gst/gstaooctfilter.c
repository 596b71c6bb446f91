/* aooct: base class of the processing elements (see gstaooctfilter.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctfilter.h"
#include "aooct-caps.h"
#include "aooct-error.h"

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
gst_aooct_filter_class_add_pad_templates (GstAooctFilterClass * klass,
    const gchar * sink_caps, const gchar * src_caps)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          gst_caps_from_string (sink_caps)));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          gst_caps_from_string (src_caps)));
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

  if (self->configured && klass->teardown)
    klass->teardown (self);
  self->configured = FALSE;
}

static gboolean
choose_backend (GstAooctFilter * self, GError ** error)
{
  GstAooctBackend backend;

  GST_OBJECT_LOCK (self);
  backend = self->backend;
  GST_OBJECT_UNLOCK (self);

  if (backend == GST_AOOCT_BACKEND_CUDA) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "backend=cuda was requested, but this build of aooct has no CUDA "
        "backend; use backend=cpu or auto");
    return FALSE;
  }
  self->active_backend = GST_AOOCT_BACKEND_CPU;
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
    GstCaps *expected = klass->output_caps (self, &out);
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
  if (!choose_backend (self, &error))
    goto failed;
  if (klass->setup && !klass->setup (self, &error))
    goto failed;
  self->configured = TRUE;
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
  gsize size = gst_buffer_get_size (inbuf), expected;
  gboolean ok;

  if (!self->configured) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("received a buffer before caps were negotiated"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* A buffer whose size is not what its caps promise would be read out of
   * bounds or produce a wrong image: stop with a clear message instead.
   * Video input with a GstVideoMeta may legitimately carry other strides. */
  expected = expected_input_size (self);
  if (size != expected && !(klass->sink_is_video
          && gst_buffer_get_video_meta (inbuf) && size >= expected)) {
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "input buffer has %" G_GSIZE_FORMAT " bytes but its caps say %"
        G_GSIZE_FORMAT " (%d A-lines of %d samples x %d B-scans); "
        "%s", size, expected, self->in_geom.alines, self->in_geom.samples,
        self->in_geom.bscans, size < expected ? "buffer too short" :
        "buffer too long");
    goto error;
  }

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
gst_aooct_filter_stop (GstBaseTransform * bt)
{
  teardown (GST_AOOCT_FILTER (bt));
  return TRUE;
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
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_aooct_filter_set_property;
  gobject_class->get_property = gst_aooct_filter_get_property;

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
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_aooct_filter_stop);
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
}
