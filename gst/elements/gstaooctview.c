/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:gstaooctview
 * @title: GstAooctView
 * @short_description: base class of the elements that make one image per
 * volume
 *
 * A GstAooctGroup that takes depth-domain B-scans and emits one image per
 * bscans-per-volume of them (spec section 11): it collects each B-scan
 * (collect_cpu / collect_cuda of the subclass) and makes the volume's
 * image when the volume is complete (emit_cpu / emit_cuda), with the
 * crop and grey-level settings of aooctnorm.  aooctenface and aooctrender
 * are its subclasses.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=200 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! \
 *     aooctrender bscans-per-volume=100 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctview.h"
#include "aooct-error.h"
#include "aooct-caps.h"
#include "aooct-norm-props.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_view_debug);
#define GST_CAT_DEFAULT gst_aooct_view_debug

typedef struct
{
  /* properties, under the object lock */
  gint bscans_per_volume;
  gint crop_start, crop_end;
  AooctNormSettings settings;   /* bits unused: 8 */

  /* from setup() */
  AooctViewParams params;

  /* the volume being collected (streaming thread) */
  gboolean log_mode;            /* log setting at the volume's first B-scan */
  AooctViewLive live;           /* what the step gets with the buffer */
  AooctNormSettings emit_settings;      /* ... and live.s */
} GstAooctViewPrivate;

enum
{
  PROP_0,
  PROP_BSCANS_PER_VOLUME,
  PROP_CROP_START,
  PROP_CROP_END,
  PROP_LOG,                     /* .. the AOOCT_NORM_N_PROPS display ones */
};

#define DEFAULT_BSCANS_PER_VOLUME 100

#define gst_aooct_view_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstAooctView, gst_aooct_view,
    GST_TYPE_AOOCT_GROUP, G_ADD_PRIVATE (GstAooctView);
    GST_DEBUG_CATEGORY_INIT (gst_aooct_view_debug, "aooctview", 0,
        "aooct volume views"));

#define PRIV(self) \
  ((GstAooctViewPrivate *) gst_aooct_view_get_instance_private (self))

#define SRC_CAPS \
  "video/x-raw, format = (string) { GRAY8, RGBA }, " \
  "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], " \
  "framerate = (fraction) [ 0/1, MAX ]"

static const gchar *const cuda_video_formats[] = { "RGBA", NULL };

static gboolean
gst_aooct_view_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctView *self = GST_AOOCT_VIEW (filter);
  GstAooctViewClass *klass = GST_AOOCT_VIEW_GET_CLASS (self);
  GstAooctViewPrivate *priv = PRIV (self);
  gint crop_start, crop_end, start, end, v, width, height;

  if (in->domain != AOOCT_DOMAIN_DEPTH
      || in->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%s needs depth-domain complex input (the output of aooctfft), got "
        "domain=%s sample-type=%s", G_OBJECT_TYPE_NAME (self),
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  crop_start = priv->crop_start;
  crop_end = priv->crop_end;
  v = priv->bscans_per_volume;
  GST_OBJECT_UNLOCK (self);
  if (!aooct_norm_resolve_crop (in, crop_start, crop_end, &start, &end, error)
      || !klass->image_size (self, in, v, start, end, &width, &height, error))
    return FALSE;

  /* the src pad carries video: alines = image width, samples = height */
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_REAL;
  out->alines = width;
  out->samples = height;
  out->bscans = 1;
  gst_aooct_group_rate (in, v, out);
  return TRUE;
}

static GstCaps *
gst_aooct_view_output_caps (GstAooctFilter * filter, const AooctGeometry * out)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, "
      "format = (string) { GRAY8, RGBA }");

  gst_caps_set_simple (caps, "width", G_TYPE_INT, out->alines,
      "height", G_TYPE_INT, out->samples,
      "framerate", GST_TYPE_FRACTION, out->fps_n, out->fps_d, NULL);
  return caps;
}

static void
read_settings (GstAooctView * self, AooctNormSettings * s)
{
  GST_OBJECT_LOCK (self);
  *s = PRIV (self)->settings;
  GST_OBJECT_UNLOCK (self);
  s->bits = 8;
}

static gboolean
gst_aooct_view_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctView *self = GST_AOOCT_VIEW (filter);
  GstAooctViewPrivate *priv = PRIV (self);
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (&filter->out_vinfo);
  AooctViewParams *p = &priv->params;
  AooctNormSettings s;
  gint crop_start, crop_end, start, end, v;

  if (format != GST_VIDEO_FORMAT_GRAY8 && format != GST_VIDEO_FORMAT_RGBA) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%s produces GRAY8 or RGBA, not %s", G_OBJECT_TYPE_NAME (self),
        GST_VIDEO_INFO_NAME (&filter->out_vinfo));
    return FALSE;
  }
  if (filter->out_cuda_memory && format != GST_VIDEO_FORMAT_RGBA) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%s gives RGBA only in CUDA memory", G_OBJECT_TYPE_NAME (self));
    return FALSE;
  }
  read_settings (self, &s);
  if (!aooct_norm_settings_check (&s, error))
    return FALSE;
  GST_OBJECT_LOCK (self);
  crop_start = priv->crop_start;
  crop_end = priv->crop_end;
  v = priv->bscans_per_volume;
  GST_OBJECT_UNLOCK (self);
  if (!aooct_norm_resolve_crop (&filter->in_geom, crop_start, crop_end,
          &start, &end, error))
    return FALSE;
  p->alines = filter->in_geom.alines;
  p->samples = filter->in_geom.samples;
  p->crop_start = start;
  p->rows = end - start;
  p->volume = v;
  p->rgba = format == GST_VIDEO_FORMAT_RGBA;
  if (GST_AOOCT_VIEW_GET_CLASS (self)->own_params
      && !GST_AOOCT_VIEW_GET_CLASS (self)->own_params (self, p, error))
    return FALSE;
  *settings = p;
  return TRUE;
}

/* The settings of the image: the range settings now, the log setting of
 * the volume's first B-scan (what its values were made with). */
static gboolean
emit_settings (GstAooctView * self, AooctNormSettings * s, GError ** error)
{
  read_settings (self, s);
  s->log = PRIV (self)->log_mode;
  return aooct_norm_settings_check (s, error);
}

/* The live part of the run of gst_aooct_filter_collect() or _emit():
 * collect the B-scans of this input, or (count 0) emit the image. */
static gboolean
gst_aooct_view_live (GstAooctFilter * filter, gconstpointer * out_live,
    GError ** error)
{
  GstAooctView *self = GST_AOOCT_VIEW (filter);
  GstAooctViewClass *klass = GST_AOOCT_VIEW_GET_CLASS (self);
  GstAooctViewPrivate *priv = PRIV (self);
  AooctViewLive *live = &priv->live;
  const AooctGroupCall *call = gst_aooct_group_call (GST_AOOCT_GROUP (self));

  live->p = &priv->params;
  live->log_mode = priv->log_mode;
  live->first = call->first;
  live->count = call->count;
  live->in_row = call->in_row;
  live->filled = call->filled;
  live->s = NULL;
  live->own = NULL;
  *out_live = live;
  if (call->count > 0)
    return TRUE;
  if (!emit_settings (self, &priv->emit_settings, error))
    return FALSE;
  live->s = &priv->emit_settings;
  if (klass->own_live)
    live->own = klass->own_live (self, &priv->params);
  return TRUE;
}

static gint
gst_aooct_view_group_size (GstAooctGroup * group)
{
  return PRIV (GST_AOOCT_VIEW (group))->params.volume;
}

/* the volume's log setting: its first B-scan's */
static void
gst_aooct_view_group_start (GstAooctGroup * group)
{
  GstAooctViewPrivate *priv = PRIV (GST_AOOCT_VIEW (group));

  GST_OBJECT_LOCK (group);
  priv->log_mode = priv->settings.log;
  GST_OBJECT_UNLOCK (group);
}

static void
gst_aooct_view_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctViewPrivate *priv = PRIV (GST_AOOCT_VIEW (object));

  GST_OBJECT_LOCK (object);
  if (aooct_norm_props_set (&priv->settings, PROP_LOG, prop_id, value)) {
    GST_OBJECT_UNLOCK (object);
    return;
  }
  switch (prop_id) {
    case PROP_BSCANS_PER_VOLUME:
      priv->bscans_per_volume = g_value_get_int (value);
      break;
    case PROP_CROP_START:
      priv->crop_start = g_value_get_int (value);
      break;
    case PROP_CROP_END:
      priv->crop_end = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_aooct_view_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctViewPrivate *priv = PRIV (GST_AOOCT_VIEW (object));

  GST_OBJECT_LOCK (object);
  if (aooct_norm_props_get (&priv->settings, PROP_LOG, prop_id, value)) {
    GST_OBJECT_UNLOCK (object);
    return;
  }
  switch (prop_id) {
    case PROP_BSCANS_PER_VOLUME:
      g_value_set_int (value, priv->bscans_per_volume);
      break;
    case PROP_CROP_START:
      g_value_set_int (value, priv->crop_start);
      break;
    case PROP_CROP_END:
      g_value_set_int (value, priv->crop_end);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_aooct_view_class_init (GstAooctViewClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAooctGroupClass *group_class = GST_AOOCT_GROUP_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_aooct_view_set_property;
  gobject_class->get_property = gst_aooct_view_get_property;

  /**
   * GstAooctView:bscans-per-volume:
   *
   * V: B-scans of one volume, counted from the first B-scan after start, a
   * flush or new caps; one image per volume (1 .. 65535, default 100)
   */
  g_object_class_install_property (gobject_class, PROP_BSCANS_PER_VOLUME,
      g_param_spec_int ("bscans-per-volume", "B-scans per volume",
          "V: B-scans of one volume, counted from the first B-scan after "
          "start, a flush or new caps; one image per volume (1 .. 65535, "
          "default 100)", 1, 65535, DEFAULT_BSCANS_PER_VOLUME, ready));
  /**
   * GstAooctView:crop-start:
   *
   * First depth bin of the volume; 0 .. crop-end - 1, default 0
   */
  g_object_class_install_property (gobject_class, PROP_CROP_START,
      g_param_spec_int ("crop-start", "Crop start",
          "First depth bin of the volume; 0 .. crop-end - 1, default 0",
          0, AOOCT_MAX_SAMPLES, 0, ready));
  /**
   * GstAooctView:crop-end:
   *
   * Depth bin after the last one of the volume, at most the samples per
   * A-line; 0 (default) = half the first FFT size (as aooctnorm)
   */
  g_object_class_install_property (gobject_class, PROP_CROP_END,
      g_param_spec_int ("crop-end", "Crop end",
          "Depth bin after the last one of the volume, at most the samples "
          "per A-line; 0 (default) = half the first FFT size (as aooctnorm)",
          0, AOOCT_MAX_SAMPLES, 0, ready));
  aooct_norm_props_install (gobject_class, PROP_LOG, "volume");

  group_class->group_size = GST_DEBUG_FUNCPTR (gst_aooct_view_group_size);
  group_class->group_start = GST_DEBUG_FUNCPTR (gst_aooct_view_group_start);
  group_class->emit_partial = TRUE;
  group_class->group_property = "bscans-per-volume";

  filter_class->cuda_video_formats = cuda_video_formats;
  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_view_derive_output);
  filter_class->output_caps = GST_DEBUG_FUNCPTR (gst_aooct_view_output_caps);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_view_setup);
  filter_class->cuda_stage = 3;
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_view_live);
}

/* For the subclasses' class_init: the pad templates (after they set
 * anything that changes them). */
void
gst_aooct_view_class_add_pad_templates (GstAooctViewClass * klass)
{
  gst_aooct_filter_class_add_pad_templates (GST_AOOCT_FILTER_CLASS (klass),
      AOOCT_CAPS_TEMPLATE, SRC_CAPS);
}

static void
gst_aooct_view_init (GstAooctView * self)
{
  GstAooctViewPrivate *priv = PRIV (self);

  priv->bscans_per_volume = DEFAULT_BSCANS_PER_VOLUME;
  aooct_norm_props_init (&priv->settings);
}
