/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what aooctdoppler and aooctangio share as elements (see
 * aooct-flow-props.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-flow-props.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-norm.h"

enum
{
  CROP_START,
  CROP_END,
  ALINE_WINDOW,
  DEPTH_WINDOW,
  THRESHOLD,
};

/* the video formats both offer in CUDA memory */
static const gchar *const cuda_video_formats[] = { "NV12", "I420", "RGBA",
  NULL
};

/* the class's AooctFlowClassInfo, kept on its type */
static GQuark
info_quark (void)
{
  static GQuark q = 0;

  if (q == 0)
    q = g_quark_from_static_string ("aooct-flow-class-info");
  return q;
}

static const AooctFlowClassInfo *
class_info (gpointer instance)
{
  return g_type_get_qdata (G_OBJECT_TYPE (instance), info_quark ());
}

static AooctFlowProps *
props_of (gpointer instance, const AooctFlowClassInfo * info)
{
  return G_STRUCT_MEMBER_P (instance, info->props);
}

void
aooct_flow_props_install (GObjectClass * klass, guint first_prop_id,
    gint aline_window, const gchar * image)
{
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;
  gchar *blurb;

  g_object_class_install_property (klass, first_prop_id + CROP_START,
      g_param_spec_int ("crop-start", "Crop start",
          "First depth bin shown (image row 0), as aooctnorm's: 0 .. "
          "crop-end - 1, default 0; signed on full-range input "
          "(crop-start = crop-end = 0 shows -pad-size/2 .. pad-size/2 - 1)",
          -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0, ready));
  g_object_class_install_property (klass, first_prop_id + CROP_END,
      g_param_spec_int ("crop-end", "Crop end",
          "Depth bin after the last one shown, at most the samples per "
          "A-line; 0 (default) = half the first FFT size (pad-size / 2)",
          0, AOOCT_MAX_SAMPLES, 0, ready));
  blurb = g_strdup_printf ("Wm: A-lines of the window a pixel's sums run "
      "over, m - floor (Wm/2) .. m - floor (Wm/2) + Wm - 1; 1 .. 65536, "
      "default %d", aline_window);
  g_object_class_install_property (klass, first_prop_id + ALINE_WINDOW,
      g_param_spec_int ("aline-window", "A-line window", g_intern_string
          (blurb), 1, AOOCT_MAX_ALINES, aline_window, live));
  g_free (blurb);
  g_object_class_install_property (klass, first_prop_id + DEPTH_WINDOW,
      g_param_spec_int ("depth-window", "Depth window",
          "Wz: depth bins of the window, centred on the pixel's bin; odd, "
          "1 .. 1048575, default 3", 1, AOOCT_MAX_SAMPLES - 1,
          AOOCT_FLOW_DEFAULT_DEPTH_WINDOW, live));
  blurb = g_strdup_printf ("T in dB: pixels whose window-mean intensity "
      "lies more than T dB below the brightest pixel of the %s show no "
      "flow; 0 = no mask; 0 .. 1000, default 20", image);
  g_object_class_install_property (klass, first_prop_id + THRESHOLD,
      g_param_spec_double ("threshold", "Threshold", g_intern_string (blurb),
          0.0, 1000.0, AOOCT_FLOW_DEFAULT_THRESHOLD, live));
  g_free (blurb);
}

void
aooct_flow_props_init (AooctFlowProps * p, gint aline_window)
{
  p->crop_start = 0;
  p->crop_end = 0;
  p->aline_window = aline_window;
  p->depth_window = AOOCT_FLOW_DEFAULT_DEPTH_WINDOW;
  p->threshold = AOOCT_FLOW_DEFAULT_THRESHOLD;
}

gboolean
aooct_flow_props_set (AooctFlowProps * p, guint first_prop_id, guint prop_id,
    const GValue * value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + AOOCT_FLOW_N_PROPS)
    return FALSE;
  switch (prop_id - first_prop_id) {
    case CROP_START:
      p->crop_start = g_value_get_int (value);
      break;
    case CROP_END:
      p->crop_end = g_value_get_int (value);
      break;
    case ALINE_WINDOW:
      p->aline_window = g_value_get_int (value);
      break;
    case DEPTH_WINDOW:
      p->depth_window = g_value_get_int (value);
      break;
    default:
      p->threshold = g_value_get_double (value);
      break;
  }
  return TRUE;
}

gboolean
aooct_flow_props_get (const AooctFlowProps * p, guint first_prop_id,
    guint prop_id, GValue * value)
{
  if (prop_id < first_prop_id || prop_id >= first_prop_id + AOOCT_FLOW_N_PROPS)
    return FALSE;
  switch (prop_id - first_prop_id) {
    case CROP_START:
      g_value_set_int (value, p->crop_start);
      break;
    case CROP_END:
      g_value_set_int (value, p->crop_end);
      break;
    case ALINE_WINDOW:
      g_value_set_int (value, p->aline_window);
      break;
    case DEPTH_WINDOW:
      g_value_set_int (value, p->depth_window);
      break;
    default:
      g_value_set_double (value, p->threshold);
      break;
  }
  return TRUE;
}

/* @in must be depth-domain complex (naming @element and what it got); the
 * crop of @p resolved into @start / @end; @out: video of in->alines x the
 * crop (rows per B-scan in samples) */
static gboolean
derive_output (const gchar * element, const AooctFlowProps * p,
    const AooctGeometry * in, AooctGeometry * out, gint * start, gint * end,
    GError ** error)
{
  if (in->domain != AOOCT_DOMAIN_DEPTH
      || in->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%s needs depth-domain complex input (the output of aooctfft or "
        "aooctcs), got domain=%s sample-type=%s", element,
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  if (!aooct_norm_resolve_crop (in, p->crop_start, p->crop_end, start, end,
          error))
    return FALSE;
  /* the src pad carries video: samples = image rows per B-scan */
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_REAL;
  out->full_range = FALSE;
  out->samples = *end - *start;
  return TRUE;
}

gboolean
aooct_flow_output_format (GstAooctFilter * filter, AooctFlowFormat * format,
    GError ** error)
{
  const AooctFlowClassInfo *info = class_info (filter);
  const gchar *element = info->element;
  const gboolean rgba_map = info->rgba_map;
  const gboolean cuda = filter->active_backend == GST_AOOCT_BACKEND_CUDA
      && filter->out_cuda_memory;

  switch (GST_VIDEO_INFO_FORMAT (&filter->out_vinfo)) {
    case GST_VIDEO_FORMAT_GRAY8:
      *format = AOOCT_FLOW_GRAY8;
      if (!filter->out_cuda_memory)
        return TRUE;
      break;
    case GST_VIDEO_FORMAT_GRAY16_LE:
      *format = AOOCT_FLOW_GRAY16;
      if (!filter->out_cuda_memory)
        return TRUE;
      break;
    case GST_VIDEO_FORMAT_RGBA:
      *format = AOOCT_FLOW_RGBA;
      if (cuda || (rgba_map && !filter->out_cuda_memory))
        return TRUE;
      break;
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_I420:
      /* the luma plane, written as GRAY8 */
      *format = AOOCT_FLOW_GRAY8;
      if (cuda)
        return TRUE;
      break;
    default:
      break;
  }
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
      "%s produces GRAY8%s (and, on CUDA, NV12, I420 or RGBA in CUDA "
      "memory), not %s%s", element, rgba_map ? ", GRAY16_LE or RGBA" :
      " or GRAY16_LE", GST_VIDEO_INFO_NAME (&filter->out_vinfo),
      filter->out_cuda_memory ? " in CUDA memory" : "");
  return FALSE;
}

/* a copy of the element's AooctFlowProps, under the object lock */
static AooctFlowProps
read_props (GstAooctFilter * filter, const AooctFlowClassInfo * info)
{
  AooctFlowProps p;

  GST_OBJECT_LOCK (filter);
  p = *props_of (filter, info);
  GST_OBJECT_UNLOCK (filter);
  return p;
}

gboolean
aooct_flow_derive (GstAooctFilter * filter, const AooctGeometry * in,
    AooctGeometry * out, GError ** error)
{
  const AooctFlowClassInfo *info = class_info (filter);
  AooctFlowProps p = read_props (filter, info);
  gint start, end;

  return derive_output (info->element, &p, in, out, &start, &end, error);
}

gboolean
aooct_flow_params (GstAooctFilter * filter, AooctFlowParams * p,
    GError ** error)
{
  const AooctFlowClassInfo *info = class_info (filter);
  AooctFlowProps props = read_props (filter, info);
  AooctGeometry out;
  gint start, end;

  if (!derive_output (info->element, &props, &filter->in_geom, &out, &start,
          &end, error))
    return FALSE;
  /* crop-* are only writable up to READY, so this holds unless the
   * application bypassed that */
  if (end - start != filter->out_geom.samples) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "crop-start / crop-end changed during negotiation");
    return FALSE;
  }
  p->samples = filter->in_geom.samples;
  p->alines = filter->in_geom.alines;
  p->bscans = filter->in_geom.bscans;
  p->crop_start = start;
  p->rows = end - start;
  return TRUE;
}

/* video/x-raw of the formats in system memory, the size of @out (one image
 * per B-scan of it, stacked) */
static GstCaps *
flow_output_caps (GstAooctFilter * filter, const AooctGeometry * out)
{
  gchar *desc = g_strdup_printf ("video/x-raw, format = (string) { %s }",
      class_info (filter)->formats);
  GstCaps *caps = gst_caps_from_string (desc);

  g_free (desc);
  gst_caps_set_simple (caps,
      "width", G_TYPE_INT, out->alines,
      "height", G_TYPE_INT, out->bscans * out->samples,
      "framerate", GST_TYPE_FRACTION, out->fps_n, out->fps_d, NULL);
  return caps;
}

/* the field of the element's own property @prop_id; NULL if none */
static gpointer
own_field (GObject * object, const AooctFlowClassInfo * info, guint prop_id)
{
  const AooctFlowField *f;

  for (f = info->own; f->prop_id != 0; f++)
    if (f->prop_id == prop_id)
      return G_STRUCT_MEMBER_P (object, f->offset);
  return NULL;
}

static void
flow_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  const AooctFlowClassInfo *info = class_info (object);
  gpointer field;

  GST_OBJECT_LOCK (object);
  if (aooct_flow_props_set (props_of (object, info), info->first, prop_id,
          value)) {
    /* one of the five */
  } else if ((field = own_field (object, info, prop_id)) == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  } else {
    switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
      case G_TYPE_INT:
        *(gint *) field = g_value_get_int (value);
        break;
      case G_TYPE_ENUM:
        *(gint *) field = g_value_get_enum (value);
        break;
      case G_TYPE_BOOLEAN:
        *(gboolean *) field = g_value_get_boolean (value);
        break;
      case G_TYPE_DOUBLE:
        *(gdouble *) field = g_value_get_double (value);
        break;
      default:
        g_assert_not_reached ();
    }
  }
  GST_OBJECT_UNLOCK (object);
}

static void
flow_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  const AooctFlowClassInfo *info = class_info (object);
  gpointer field;

  GST_OBJECT_LOCK (object);
  if (aooct_flow_props_get (props_of (object, info), info->first, prop_id,
          value)) {
    /* one of the five */
  } else if ((field = own_field (object, info, prop_id)) == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  } else {
    switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
      case G_TYPE_INT:
        g_value_set_int (value, *(gint *) field);
        break;
      case G_TYPE_ENUM:
        g_value_set_enum (value, *(gint *) field);
        break;
      case G_TYPE_BOOLEAN:
        g_value_set_boolean (value, *(gboolean *) field);
        break;
      case G_TYPE_DOUBLE:
        g_value_set_double (value, *(gdouble *) field);
        break;
      default:
        g_assert_not_reached ();
    }
  }
  GST_OBJECT_UNLOCK (object);
}

void
aooct_flow_class_init (GstAooctFilterClass * klass,
    const AooctFlowClassInfo * info)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  gchar *src_caps = g_strdup_printf ("video/x-raw, format = (string) { %s }, "
      "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], "
      "framerate = (fraction) [ 0/1, MAX ]", info->formats);

  g_type_set_qdata (G_OBJECT_CLASS_TYPE (klass), info_quark (),
      (gpointer) info);
  gobject_class->set_property = flow_set_property;
  gobject_class->get_property = flow_get_property;
  aooct_flow_props_install (gobject_class, info->first, info->aline_window,
      info->image);
  klass->cuda_video_formats = cuda_video_formats;
  gst_aooct_filter_class_add_pad_templates (klass, AOOCT_CAPS_TEMPLATE,
      src_caps);
  g_free (src_caps);
  klass->derive_output = GST_DEBUG_FUNCPTR (aooct_flow_derive);
  klass->output_caps = GST_DEBUG_FUNCPTR (flow_output_caps);
  /* on depth profiles: the stream priority of the chain's last steps */
  klass->cuda_stage = 3;
}
