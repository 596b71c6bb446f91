/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctrender
 * @title: aooctrender
 * @short_description: volume rendering by ray casting
 *
 * Takes depth-domain complex B-scans (aooctfft's output), keeps each
 * volume of bscans-per-volume (V) B-scans as the normalised values of
 * aooctnorm (per-volume range, depth crop [crop-start, crop-end)) and ray
 * casts it into one image per volume (spec section 11): mode=mip (maximum
 * intensity projection) or composite (front-to-back emission-absorption,
 * opacity 0.1 v^2 per voxel, so that noise stays transparent and bright
 * layers build up).  The orthographic camera looks along the B-scan axis
 * at azimuth 0 and elevation 0 (image columns = A-lines, rows = depth)
 * and along the depth axis, from the surface, at elevation 90 (columns =
 * A-lines, rows = B-scans); azimuth turns it about the depth axis, zoom
 * magnifies.  azimuth, elevation, zoom and mode may change while playing
 * and apply from the next volume.  The image size is fixed when the caps
 * are set: width / height, or by default the size that shows the whole
 * volume at the angles of that moment (M x rows at elevation 0, M x V at
 * elevation 90).  Voxels are cubes: the depth axis is not rescaled to the
 * lateral sampling.  GRAY8 or RGBA; on CUDA the image may stay on the GPU
 * (RGBA in CUDA memory, for cudadownload to OpenGL or nvcodec).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=400 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! \
 *     aooctrender bscans-per-volume=100 mode=mip azimuth=30 elevation=20 ! \
 *     videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstaooctrender.h"
#include "aooct-error.h"
#include "aooct-cpu-views.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-views.h"
#endif

/* What emit reads of the live properties (AooctViewLive's @own). */
typedef struct
{
  AooctRenderMode mode;
  AooctRenderCamera camera;
} RenderLive;

GST_DEBUG_CATEGORY_STATIC (gst_aooct_render_debug);
#define GST_CAT_DEFAULT gst_aooct_render_debug

struct _GstAooctRender
{
  GstAooctView parent;

  /* properties, under the object lock */
  AooctRenderMode mode;
  gdouble azimuth, elevation, zoom;
  gint width, height;

  /* streaming thread: the camera of the image being made */
  RenderLive live;
};

enum
{
  PROP_0,
  PROP_MODE,
  PROP_AZIMUTH,
  PROP_ELEVATION,
  PROP_ZOOM,
  PROP_WIDTH,
  PROP_HEIGHT,
};

#define GST_TYPE_AOOCT_RENDER_MODE (gst_aooct_render_mode_get_type ())
static GType
gst_aooct_render_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_RENDER_MIP, "Maximum intensity projection", "mip"},
    {AOOCT_RENDER_COMPOSITE,
          "Front-to-back emission-absorption (opacity from the grey value)",
        "composite"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctRenderMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_render_parent_class parent_class
G_DEFINE_TYPE (GstAooctRender, gst_aooct_render, GST_TYPE_AOOCT_VIEW);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctrender, "aooctrender",
    GST_RANK_NONE, GST_TYPE_AOOCT_RENDER,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_render_debug, "aooctrender", 0,
        "aooct volume rendering"));

static gboolean
gst_aooct_render_image_size (GstAooctView * view, const AooctGeometry * in,
    gint v, gint crop_start, gint crop_end, gint * width, gint * height,
    GError ** error)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);
  gint w, h, aw, ah;
  gdouble az, el;

  GST_OBJECT_LOCK (self);
  w = self->width;
  h = self->height;
  az = self->azimuth;
  el = self->elevation;
  GST_OBJECT_UNLOCK (self);
  aooct_render_auto_size (in->alines, v, crop_end - crop_start, az, el, &aw,
      &ah);
  *width = w > 0 ? w : aw;
  *height = h > 0 ? h : ah;
  return TRUE;
}

/* The camera and mode of the next image: what the properties say now. */
static gconstpointer
gst_aooct_render_own_live (GstAooctView * view, const AooctViewParams * p)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);
  const GstVideoInfo *out = &GST_AOOCT_FILTER (view)->out_vinfo;
  gdouble az, el, zoom;

  GST_OBJECT_LOCK (self);
  self->live.mode = self->mode;
  az = self->azimuth;
  el = self->elevation;
  zoom = self->zoom;
  GST_OBJECT_UNLOCK (self);
  aooct_render_camera_init (&self->live.camera, p->alines, p->volume,
      p->rows, GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out), az,
      el, zoom);
  return &self->live;
}

/* ---- the step on both backends (aooct-step.h, gstaooctview.h) -------- */

AOOCT_STEP_FORWARD_PLAN_NEW (render_cpu_plan_new,
    aooct_cpu_render_plan_new (settings, error));

static gboolean
render_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AooctViewLive *v = run->live;
  const RenderLive *r = v->own;

  if (in->data)
    aooct_cpu_render_execute_collect (plan, v->log_mode,
        (const gfloat *) (in->data + (gsize) v->in_row * in->stride),
        v->first, v->count);
  else
    aooct_cpu_render_execute_emit (plan, v->s, r->mode, &r->camera,
        v->filled, out->data, out->stride);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (render_cpu_plan_free, aooct_cpu_render_plan_free);

static const AooctStepOps render_cpu = { render_cpu_plan_new,
  render_cpu_execute, render_cpu_plan_free
};

#ifdef HAVE_CUDA
AOOCT_STEP_FORWARD_PLAN_NEW (render_cuda_plan_new,
    aooct_cuda_render_plan_new (settings, error));

static gboolean
render_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AooctViewLive *v = run->live;
  const RenderLive *r = v->own;

  if (in->data)
    return aooct_cuda_render_execute_collect (plan, v->log_mode,
        (const gfloat *) (in->data + (gsize) v->in_row * in->stride),
        v->first, v->count, run->stream, error);
  return aooct_cuda_render_execute_emit (plan, v->s, r->mode, &r->camera,
      v->filled, out->data, out->stride, run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (render_cuda_plan_free, aooct_cuda_render_plan_free);

static const AooctStepOps render_cuda = { render_cuda_plan_new,
  render_cuda_execute, render_cuda_plan_free
};

#define RENDER_CUDA (&render_cuda)
#else
#define RENDER_CUDA NULL
#endif

static void
gst_aooct_render_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctRender *self = GST_AOOCT_RENDER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_AZIMUTH:
      self->azimuth = g_value_get_double (value);
      break;
    case PROP_ELEVATION:
      self->elevation = g_value_get_double (value);
      break;
    case PROP_ZOOM:
      self->zoom = g_value_get_double (value);
      break;
    case PROP_WIDTH:
      self->width = g_value_get_int (value);
      break;
    case PROP_HEIGHT:
      self->height = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_render_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctRender *self = GST_AOOCT_RENDER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_AZIMUTH:
      g_value_set_double (value, self->azimuth);
      break;
    case PROP_ELEVATION:
      g_value_set_double (value, self->elevation);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_WIDTH:
      g_value_set_int (value, self->width);
      break;
    case PROP_HEIGHT:
      g_value_set_int (value, self->height);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_render_class_init (GstAooctRenderClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctViewClass *view_class = GST_AOOCT_VIEW_CLASS (klass);
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_aooct_render_set_property;
  gobject_class->get_property = gst_aooct_render_get_property;

  /**
   * GstAooctRender:mode:
   *
   * mip: the brightest voxel along each ray; composite: front-to-back
   * emission-absorption; applies from the next volume
   */
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "mip: the brightest voxel along each ray; composite: front-to-back "
          "emission-absorption; applies from the next volume",
          GST_TYPE_AOOCT_RENDER_MODE, AOOCT_RENDER_MIP, live));
  /**
   * GstAooctRender:azimuth:
   *
   * Degrees about the depth axis (0: looking along the B-scan axis, 180:
   * the mirror view); -360 .. 360, default 0, applies from the next volume
   */
  g_object_class_install_property (gobject_class, PROP_AZIMUTH,
      g_param_spec_double ("azimuth", "Azimuth",
          "Degrees about the depth axis (0: looking along the B-scan axis, "
          "180: the mirror view); -360 .. 360, default 0, applies from the "
          "next volume", -360.0, 360.0, 0.0, live));
  /**
   * GstAooctRender:elevation:
   *
   * Degrees above the B-scan plane (90: looking along the depth axis from
   * the surface, the en-face view); -90 .. 90, default 0, applies from the
   * next volume
   */
  g_object_class_install_property (gobject_class, PROP_ELEVATION,
      g_param_spec_double ("elevation", "Elevation",
          "Degrees above the B-scan plane (90: looking along the depth axis "
          "from the surface, the en-face view); -90 .. 90, default 0, "
          "applies from the next volume", -90.0, 90.0, 0.0, live));
  /**
   * GstAooctRender:zoom:
   *
   * Magnification (image pixels per voxel); 0.01 .. 100, default 1,
   * applies from the next volume
   */
  g_object_class_install_property (gobject_class, PROP_ZOOM,
      g_param_spec_double ("zoom", "Zoom",
          "Magnification (image pixels per voxel); 0.01 .. 100, default 1, "
          "applies from the next volume", 0.01, 100.0, 1.0, live));
  /**
   * GstAooctRender:width:
   *
   * Image width in pixels; 0 (default) = the volume's width as seen at the
   * angles when the caps are set
   */
  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Image width in pixels; 0 (default) = the volume's width as seen "
          "at the angles when the caps are set", 0, 16384, 0, ready));
  /**
   * GstAooctRender:height:
   *
   * Image height in pixels; 0 (default) = the volume's height as seen at
   * the angles when the caps are set
   */
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "Image height in pixels; 0 (default) = the volume's height as "
          "seen at the angles when the caps are set", 0, 16384, 0, ready));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT volume rendering", "Filter/Converter/Video",
      "Ray casts each volume of depth-domain OCT B-scans into one image "
      "(maximum intensity projection or emission-absorption)",
      "aooct developers");

  view_class->image_size = GST_DEBUG_FUNCPTR (gst_aooct_render_image_size);
  view_class->own_live = GST_DEBUG_FUNCPTR (gst_aooct_render_own_live);
  GST_AOOCT_FILTER_CLASS (klass)->cpu_ops = &render_cpu;
  GST_AOOCT_FILTER_CLASS (klass)->cuda_ops = RENDER_CUDA;
  gst_aooct_view_class_add_pad_templates (view_class);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_RENDER_MODE, 0);
}

static void
gst_aooct_render_init (GstAooctRender * self)
{
  self->mode = AOOCT_RENDER_MIP;
  self->zoom = 1.0;
}
