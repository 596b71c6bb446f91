/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctrender, volume rendering by ray casting.
 *
 * SECTION:element-aooctrender
 * @title: aooctrender
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
#ifdef HAVE_CUDA
#include "aooct-cuda-views.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_render_debug);
#define GST_CAT_DEFAULT gst_aooct_render_debug

struct _GstAooctRender
{
  GstAooctView parent;

  /* properties, under the object lock */
  AooctRenderMode mode;
  gdouble azimuth, elevation, zoom;
  gint width, height;

  /* from setup */
  gint out_width, out_height;
  gfloat *vol;                  /* V x M x rows values (host or device) */
  gpointer keys;                /* CUDA: the volume's range */
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

static gboolean
gst_aooct_render_alloc (GstAooctView * view, const AooctViewParams * p,
    GError ** error)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);
  GstAooctFilter *filter = GST_AOOCT_FILTER (view);
  gsize bytes = (gsize) p->volume * p->alines * p->rows * sizeof (gfloat);

  self->out_width = GST_VIDEO_INFO_WIDTH (&filter->out_vinfo);
  self->out_height = GST_VIDEO_INFO_HEIGHT (&filter->out_vinfo);
#ifdef HAVE_CUDA
  if (filter->active_backend == GST_AOOCT_BACKEND_CUDA) {
    if (!aooct_cuda_malloc (bytes, (gpointer *) & self->vol, error))
      return FALSE;
    if (!aooct_cuda_views_keys_new (&self->keys, error)) {
      g_clear_pointer (&self->vol, aooct_cuda_free);
      return FALSE;
    }
    return TRUE;
  }
#endif
  self->vol = g_try_malloc (bytes);
  if (self->vol == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot allocate a volume of %d x %d x %d values (%" G_GSIZE_FORMAT
        " bytes): lower bscans-per-volume or crop the depth", p->alines,
        p->volume, p->rows, bytes);
    return FALSE;
  }
  return TRUE;
}

static void
gst_aooct_render_free (GstAooctView * view)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);

#ifdef HAVE_CUDA
  if (GST_AOOCT_FILTER (self)->active_backend == GST_AOOCT_BACKEND_CUDA) {
    g_clear_pointer (&self->vol, aooct_cuda_free);
    g_clear_pointer (&self->keys, aooct_cuda_free);
    return;
  }
#endif
  g_clear_pointer (&self->vol, g_free);
}

/* The camera and mode of the next image: what the properties say now. */
static AooctRenderMode
current_camera (GstAooctRender * self, const AooctViewParams * p,
    AooctRenderCamera * cam)
{
  AooctRenderMode mode;
  gdouble az, el, zoom;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  az = self->azimuth;
  el = self->elevation;
  zoom = self->zoom;
  GST_OBJECT_UNLOCK (self);
  aooct_render_camera_init (cam, p->alines, p->volume, p->rows,
      self->out_width, self->out_height, az, el, zoom);
  return mode;
}

static gboolean
gst_aooct_render_collect_cpu (GstAooctView * view, const AooctViewParams * p,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    GError ** error)
{
  aooct_cpu_render_collect (p, log_mode, in, first, count,
      GST_AOOCT_RENDER (view)->vol);
  return TRUE;
}

static gboolean
gst_aooct_render_emit_cpu (GstAooctView * view, const AooctViewParams * p,
    const AooctNormSettings * s, gint filled, AooctPlane * out, GError ** error)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);
  AooctRenderCamera cam;
  AooctRenderMode mode = current_camera (self, p, &cam);

  aooct_cpu_render_emit (p, s, mode, &cam, self->vol, filled, out->data,
      out->stride);
  return TRUE;
}

#ifdef HAVE_CUDA
static gboolean
gst_aooct_render_collect_cuda (GstAooctView * view, const AooctViewParams * p,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    struct CUstream_st *stream, GError ** error)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);

  return aooct_cuda_render_collect (p, log_mode, in, first, count, self->vol,
      self->keys, stream, error);
}

static gboolean
gst_aooct_render_emit_cuda (GstAooctView * view, const AooctViewParams * p,
    const AooctNormSettings * s, gint filled, AooctPlane * out,
    struct CUstream_st *stream, GError ** error)
{
  GstAooctRender *self = GST_AOOCT_RENDER (view);
  AooctRenderCamera cam;
  AooctRenderMode mode = current_camera (self, p, &cam);

  return aooct_cuda_render_emit (p, s, mode, &cam, self->vol, filled,
      out->data, out->stride, self->keys, stream, error);
}
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
  view_class->alloc = GST_DEBUG_FUNCPTR (gst_aooct_render_alloc);
  view_class->free = GST_DEBUG_FUNCPTR (gst_aooct_render_free);
  view_class->collect_cpu = GST_DEBUG_FUNCPTR (gst_aooct_render_collect_cpu);
  view_class->emit_cpu = GST_DEBUG_FUNCPTR (gst_aooct_render_emit_cpu);
#ifdef HAVE_CUDA
  view_class->collect_cuda = GST_DEBUG_FUNCPTR (gst_aooct_render_collect_cuda);
  view_class->emit_cuda = GST_DEBUG_FUNCPTR (gst_aooct_render_emit_cuda);
#endif
  gst_aooct_view_class_add_pad_templates (view_class);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_RENDER_MODE, 0);
}

static void
gst_aooct_render_init (GstAooctRender * self)
{
  self->mode = AOOCT_RENDER_MIP;
  self->zoom = 1.0;
}
