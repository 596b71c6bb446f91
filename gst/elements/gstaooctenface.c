/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctenface
 * @title: aooctenface
 * @short_description: the en-face projection of each volume
 *
 * Takes depth-domain complex B-scans (aooctfft's output) and makes one
 * image per volume of bscans-per-volume (V) B-scans (spec section 11):
 * pixel (m, v) is the mean (projection=mean) or maximum (max) intensity
 * of A-line m of B-scan v over the depth crop [crop-start, crop-end),
 * logged and normalised per volume as aooctnorm does a B-scan.  The image
 * is M wide and V high (row v = B-scan v), GRAY8 or RGBA, with the
 * timestamp of the volume's first B-scan; at EOS (and before new caps) a
 * partial volume comes out with the rows it has, the others black.  On
 * CUDA the projection runs as B-scans arrive and the image may stay on the
 * GPU (RGBA in CUDA memory, for cudadownload to OpenGL or nvcodec).
 *
 * With layer=brightest (spec section 13) the depth range follows a layer
 * (the photoreceptors' IS/OS or COST in AO-OCT) as it moves with the eye
 * and curves across the B-scan: per B-scan the brightest bin z_B of the
 * mean depth profile within [layer-search-start, layer-search-end), per
 * A-line the brightest bin z_l within z_B +- layer-range of the intensity
 * averaged over layer-smooth A-lines, and the pixel is the mean or maximum
 * over [z_l + slab-start, z_l + slab-end).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=400 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! \
 *     aooctenface bscans-per-volume=100 projection=mean ! pngenc ! \
 *     multifilesink location=enface-%03d.png
 * ]|
 * A cone mosaic at the IS/OS (layer searched in bins 300 .. 400):
 * |[
 * ... ! aooctfft ! aooctenface bscans-per-volume=256 layer=brightest \
 *     layer-search-start=300 layer-search-end=400 slab-start=-1 \
 *     slab-end=2 ! pngenc ! multifilesink location=cones-%03d.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctenface.h"
#include "aooct-error.h"
#include "aooct-cpu-views.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-views.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_enface_debug);
#define GST_CAT_DEFAULT gst_aooct_enface_debug

struct _GstAooctEnface
{
  GstAooctView parent;

  AooctEnfaceProjection projection;     /* property, object lock */
  /* layer=brightest (spec 13), object lock */
  AooctEnfaceLayer layer;
  gint layer_search_start, layer_search_end, layer_range, layer_smooth;
  gint slab_start, slab_end;
};

enum
{
  PROP_0,
  PROP_PROJECTION,
  PROP_LAYER,
  PROP_LAYER_SEARCH_START,
  PROP_LAYER_SEARCH_END,
  PROP_LAYER_RANGE,
  PROP_LAYER_SMOOTH,
  PROP_SLAB_START,
  PROP_SLAB_END,
};

#define GST_TYPE_AOOCT_ENFACE_LAYER (gst_aooct_enface_layer_get_type ())
static GType
gst_aooct_enface_layer_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_ENFACE_LAYER_NONE, "The fixed depth crop (crop-start, crop-end)",
        "none"},
    {AOOCT_ENFACE_LAYER_BRIGHTEST,
        "A slab that follows the brightest layer in every A-line", "brightest"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctEnfaceLayer", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_AOOCT_ENFACE_PROJECTION (gst_aooct_enface_projection_get_type ())
static GType
gst_aooct_enface_projection_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_ENFACE_MEAN, "Mean intensity over the depth crop", "mean"},
    {AOOCT_ENFACE_MAX, "Maximum intensity over the depth crop", "max"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctEnfaceProjection", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_enface_parent_class parent_class
G_DEFINE_TYPE (GstAooctEnface, gst_aooct_enface, GST_TYPE_AOOCT_VIEW);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctenface, "aooctenface",
    GST_RANK_NONE, GST_TYPE_AOOCT_ENFACE,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_enface_debug, "aooctenface", 0,
        "aooct en-face projection"));

static gboolean
gst_aooct_enface_image_size (GstAooctView * view, const AooctGeometry * in,
    gint v, gint crop_start, gint crop_end, gint * width, gint * height,
    GError ** error)
{
  *width = in->alines;
  *height = v;
  return TRUE;
}

/* ---- the step on both backends (aooct-step.h, gstaooctview.h) -------- */

/* the projection and the layer, read at setup (GstAooctViewClass's
 * own_params); the search window must lie inside the crop */
static gboolean
gst_aooct_enface_own_params (GstAooctView * view, AooctViewParams * p,
    GError ** error)
{
  GstAooctEnface *self = GST_AOOCT_ENFACE (view);
  gint start, end, range, smooth;

  GST_OBJECT_LOCK (view);
  p->projection = self->projection;
  p->layer = self->layer;
  start = self->layer_search_start;
  end = self->layer_search_end;
  range = self->layer_range;
  smooth = self->layer_smooth;
  p->slab_start = self->slab_start;
  p->slab_end = self->slab_end;
  GST_OBJECT_UNLOCK (view);
  if (p->layer == AOOCT_ENFACE_LAYER_NONE)
    return TRUE;
  if (p->slab_end <= p->slab_start) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctenface: slab-end=%d must be greater than slab-start=%d",
        p->slab_end, p->slab_start);
    return FALSE;
  }
  return aooct_layer_params_resolve (&p->lp, "aooctenface", start, end,
      p->crop_start, p->crop_start + p->rows, range, smooth, p->samples,
      GST_AOOCT_FILTER (view)->in_geom.full_range, error);
}

AOOCT_STEP_FORWARD_PLAN_NEW (enface_cpu_plan_new,
    aooct_cpu_enface_plan_new (settings, error));

static gboolean
enface_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AooctViewLive *v = run->live;

  if (in->data)
    aooct_cpu_enface_execute_collect (plan, v->log_mode,
        (const gfloat *) (in->data + (gsize) v->in_row * in->stride),
        v->first, v->count);
  else
    aooct_cpu_enface_execute_emit (plan, v->s, v->filled, out->data,
        out->stride);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (enface_cpu_plan_free, aooct_cpu_enface_plan_free);

static const AooctStepOps enface_cpu = { enface_cpu_plan_new,
  enface_cpu_execute, enface_cpu_plan_free
};

#ifdef HAVE_CUDA
AOOCT_STEP_FORWARD_PLAN_NEW (enface_cuda_plan_new,
    aooct_cuda_enface_plan_new (settings, error));

static gboolean
enface_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AooctViewLive *v = run->live;

  if (in->data)
    return aooct_cuda_enface_execute_collect (plan, v->log_mode,
        (const gfloat *) (in->data + (gsize) v->in_row * in->stride),
        v->first, v->count, run->stream, error);
  return aooct_cuda_enface_execute_emit (plan, v->s, v->filled, out->data,
      out->stride, run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (enface_cuda_plan_free, aooct_cuda_enface_plan_free);

static const AooctStepOps enface_cuda = { enface_cuda_plan_new,
  enface_cuda_execute, enface_cuda_plan_free
};

#define ENFACE_CUDA (&enface_cuda)
#else
#define ENFACE_CUDA NULL
#endif

static void
gst_aooct_enface_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctEnface *self = GST_AOOCT_ENFACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_PROJECTION:
      self->projection = g_value_get_enum (value);
      break;
    case PROP_LAYER:
      self->layer = g_value_get_enum (value);
      break;
    case PROP_LAYER_SEARCH_START:
      self->layer_search_start = g_value_get_int (value);
      break;
    case PROP_LAYER_SEARCH_END:
      self->layer_search_end = g_value_get_int (value);
      break;
    case PROP_LAYER_RANGE:
      self->layer_range = g_value_get_int (value);
      break;
    case PROP_LAYER_SMOOTH:
      self->layer_smooth = g_value_get_int (value);
      break;
    case PROP_SLAB_START:
      self->slab_start = g_value_get_int (value);
      break;
    case PROP_SLAB_END:
      self->slab_end = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_enface_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctEnface *self = GST_AOOCT_ENFACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_PROJECTION:
      g_value_set_enum (value, self->projection);
      break;
    case PROP_LAYER:
      g_value_set_enum (value, self->layer);
      break;
    case PROP_LAYER_SEARCH_START:
      g_value_set_int (value, self->layer_search_start);
      break;
    case PROP_LAYER_SEARCH_END:
      g_value_set_int (value, self->layer_search_end);
      break;
    case PROP_LAYER_RANGE:
      g_value_set_int (value, self->layer_range);
      break;
    case PROP_LAYER_SMOOTH:
      g_value_set_int (value, self->layer_smooth);
      break;
    case PROP_SLAB_START:
      g_value_set_int (value, self->slab_start);
      break;
    case PROP_SLAB_END:
      g_value_set_int (value, self->slab_end);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_enface_class_init (GstAooctEnfaceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctViewClass *view_class = GST_AOOCT_VIEW_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_aooct_enface_set_property;
  gobject_class->get_property = gst_aooct_enface_get_property;

  /**
   * GstAooctEnface:projection:
   *
   * How each A-line's intensities over the depth crop become one pixel:
   * their mean or their maximum
   */
  g_object_class_install_property (gobject_class, PROP_PROJECTION,
      g_param_spec_enum ("projection", "Projection",
          "How each A-line's intensities over the depth crop become one "
          "pixel: their mean or their maximum",
          GST_TYPE_AOOCT_ENFACE_PROJECTION, AOOCT_ENFACE_MEAN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctEnface:layer:
   *
   * Depth range of each pixel: none = the fixed crop (section 11),
   * brightest = a slab [slab-start, slab-end) relative to the brightest
   * layer of each A-line (spec section 13, "Layers")
   */
  g_object_class_install_property (gobject_class, PROP_LAYER,
      g_param_spec_enum ("layer", "Layer",
          "Depth range of each pixel: none = the fixed crop, brightest = a "
          "slab [slab-start, slab-end) relative to the brightest layer of "
          "each A-line", GST_TYPE_AOOCT_ENFACE_LAYER,
          AOOCT_ENFACE_LAYER_NONE, ready));
  /**
   * GstAooctEnface:layer-search-start:
   *
   * First depth bin where the layer is searched (layer=brightest); inside
   * the crop; 0 (default) = the crop's start
   */
  g_object_class_install_property (gobject_class, PROP_LAYER_SEARCH_START,
      g_param_spec_int ("layer-search-start", "Layer search start",
          "First depth bin where the layer is searched (layer=brightest); "
          "inside the crop; 0 (default) = the crop's start",
          -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0, ready));
  /**
   * GstAooctEnface:layer-search-end:
   *
   * Depth bin after the last one searched (layer=brightest); inside the
   * crop; 0 (default) = the crop's end
   */
  g_object_class_install_property (gobject_class, PROP_LAYER_SEARCH_END,
      g_param_spec_int ("layer-search-end", "Layer search end",
          "Depth bin after the last one searched (layer=brightest); inside "
          "the crop; 0 (default) = the crop's end", -AOOCT_MAX_SAMPLES,
          AOOCT_MAX_SAMPLES, 0, ready));
  /**
   * GstAooctEnface:layer-range:
   *
   * Depth bins each A-line's layer may lie above or below the B-scan's
   * (z_B +- range); 0 .. 65536, default 8
   */
  g_object_class_install_property (gobject_class, PROP_LAYER_RANGE,
      g_param_spec_int ("layer-range", "Layer range",
          "Depth bins each A-line's layer may lie above or below the "
          "B-scan's (z_B +- range); 0 .. 65536, default 8", 0, 65536,
          AOOCT_LAYER_DEFAULT_RANGE, ready));
  /**
   * GstAooctEnface:layer-smooth:
   *
   * A-lines over which the intensity is averaged laterally before each
   * A-line's layer is found (h = floor (smooth / 2) on each side);
   * 1 .. 65536, default 5
   */
  g_object_class_install_property (gobject_class, PROP_LAYER_SMOOTH,
      g_param_spec_int ("layer-smooth", "Layer smoothing",
          "A-lines over which the intensity is averaged laterally before "
          "each A-line's layer is found (floor (smooth/2) on each side); "
          "1 .. 65536, default 5", 1, AOOCT_MAX_ALINES,
          AOOCT_LAYER_DEFAULT_SMOOTH, ready));
  /**
   * GstAooctEnface:slab-start:
   *
   * First depth bin of the slab relative to the layer (layer=brightest),
   * default 0
   */
  g_object_class_install_property (gobject_class, PROP_SLAB_START,
      g_param_spec_int ("slab-start", "Slab start",
          "First depth bin of the slab relative to the layer "
          "(layer=brightest), default 0", -AOOCT_MAX_SAMPLES,
          AOOCT_MAX_SAMPLES, 0, ready));
  /**
   * GstAooctEnface:slab-end:
   *
   * Depth bin after the slab relative to the layer (layer=brightest), >
   * slab-start, default 1 (the layer's bin alone)
   */
  g_object_class_install_property (gobject_class, PROP_SLAB_END,
      g_param_spec_int ("slab-end", "Slab end",
          "Depth bin after the slab relative to the layer (layer=brightest), "
          "> slab-start, default 1 (the layer's bin alone)",
          -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 1, ready));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT en-face projection", "Filter/Converter/Video",
      "Projects each volume of depth-domain OCT B-scans over a depth range "
      "into one en-face image", "aooct developers");

  view_class->image_size = GST_DEBUG_FUNCPTR (gst_aooct_enface_image_size);
  view_class->own_params = GST_DEBUG_FUNCPTR (gst_aooct_enface_own_params);
  GST_AOOCT_FILTER_CLASS (klass)->cpu_ops = &enface_cpu;
  GST_AOOCT_FILTER_CLASS (klass)->cuda_ops = ENFACE_CUDA;
  gst_aooct_view_class_add_pad_templates (view_class);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_ENFACE_PROJECTION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_ENFACE_LAYER, 0);
}

static void
gst_aooct_enface_init (GstAooctEnface * self)
{
  self->projection = AOOCT_ENFACE_MEAN;
  self->layer = AOOCT_ENFACE_LAYER_NONE;
  self->layer_range = AOOCT_LAYER_DEFAULT_RANGE;
  self->layer_smooth = AOOCT_LAYER_DEFAULT_SMOOTH;
  self->slab_end = 1;
}
