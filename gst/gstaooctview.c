/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctView, base class of the volume views (see gstaooctview.h).
 *
 * SECTION:gstaooctview
 * @title: GstAooctView
 * @short_description: base class of the elements that make one image per
 * volume
 *
 * A GstAooctFilter that takes depth-domain B-scans and emits one image per
 * bscans-per-volume of them (spec section 11): it collects each B-scan
 * (collect_cpu / collect_cuda of the subclass) and makes the volume's
 * image when the volume is complete (emit_cpu / emit_cuda), with the
 * crop and grey-level settings of aooctnorm.  While a volume fills it
 * sends a GAP event at the timestamp its image will carry after every
 * input, so that a sink downstream prerolls and a tee with a B-scan
 * branch beside it never waits for it.  aooctenface and aooctrender are
 * its subclasses.
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
#include "aooct-gap.h"
#include "aooct-seq-meta.h"

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
  gint filled;                  /* B-scans collected */
  gboolean log_mode;            /* log setting at the volume's first B-scan */
  GstClockTime first_pts;       /* of its first B-scan */
  gboolean has_seq;             /* its first B-scan's buffer came from */
  guint64 first_seq;            /* aooctsplit, numbered so */
  GstClockTime bscan_duration;  /* of one B-scan, or NONE */
  guint64 volumes;              /* images made since start */
  AooctGap gap;                 /* where the pending image will start */
  /* what process_buffers() is asked for */
  gint take_from, take_count;   /* B-scans of the input buffer to collect,
                                 * or take_count 0: emit the image */
  AooctViewLive live;           /* what the step gets with the buffer */
  AooctNormSettings emit_settings;      /* ... and live.s */
} GstAooctViewPrivate;

enum
{
  PROP_0,
  PROP_BSCANS_PER_VOLUME,
  PROP_CROP_START,
  PROP_CROP_END,
  PROP_LOG,                     /* .. the AOOCT_NORM_PROPS display ones */
};

#define DEFAULT_BSCANS_PER_VOLUME 100

#define gst_aooct_view_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstAooctView, gst_aooct_view,
    GST_TYPE_AOOCT_FILTER, G_ADD_PRIVATE (GstAooctView);
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
  /* volumes per second = buffers per second * B-scans per buffer / V */
  if (in->fps_n > 0 && !gst_util_fraction_multiply (in->fps_n, in->fps_d,
          in->bscans, v, &out->fps_n, &out->fps_d)) {
    out->fps_n = 0;
    out->fps_d = 1;
  }
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
  /* counting starts over with new caps (a partial volume of the old ones
   * has been emitted by the caps event) */
  priv->filled = 0;
  aooct_gap_reset (&priv->gap);
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

/* The live part of the run of process_buffers()'s one plane: collect
 * the B-scans of this input, or (take_count 0) emit the image. */
static gboolean
gst_aooct_view_live (GstAooctFilter * filter, gconstpointer * out_live,
    GError ** error)
{
  GstAooctView *self = GST_AOOCT_VIEW (filter);
  GstAooctViewClass *klass = GST_AOOCT_VIEW_GET_CLASS (self);
  GstAooctViewPrivate *priv = PRIV (self);
  AooctViewLive *live = &priv->live;

  live->p = &priv->params;
  live->log_mode = priv->log_mode;
  live->first = priv->filled;
  live->count = priv->take_count;
  live->in_row = priv->take_from * filter->in_geom.alines;
  live->filled = priv->filled;
  live->s = NULL;
  live->own = NULL;
  *out_live = live;
  if (priv->take_count > 0)
    return TRUE;
  if (!emit_settings (self, &priv->emit_settings, error))
    return FALSE;
  live->s = &priv->emit_settings;
  if (klass->own_live)
    live->own = klass->own_live (self, &priv->params);
  return TRUE;
}

static GstFlowReturn
allocate_output (GstAooctView * self, GstBuffer ** out)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstAooctFilter *filter = GST_AOOCT_FILTER (self);
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (bt);
  GstFlowReturn ret = GST_FLOW_OK;

  *out = NULL;
  if (pool) {
    if (!gst_buffer_pool_is_active (pool)
        && !gst_buffer_pool_set_active (pool, TRUE)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("cannot activate the output buffer pool"), (NULL));
      ret = GST_FLOW_ERROR;
    } else {
      ret = gst_buffer_pool_acquire_buffer (pool, out, NULL);
    }
    gst_object_unref (pool);
  } else {
    GstAllocator *allocator = NULL;
    GstAllocationParams params;

    gst_base_transform_get_allocator (bt, &allocator, &params);
    *out = gst_buffer_new_allocate (allocator,
        GST_VIDEO_INFO_SIZE (&filter->out_vinfo), &params);
    if (allocator)
      gst_object_unref (allocator);
    if (*out == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("cannot allocate an output image of %" G_GSIZE_FORMAT " bytes",
              GST_VIDEO_INFO_SIZE (&filter->out_vinfo)), (NULL));
      ret = GST_FLOW_ERROR;
    }
  }
  return ret;
}

/* The image of the B-scans collected (a whole volume, or the partial one
 * at EOS or before new caps), pushed downstream. */
static GstFlowReturn
emit_volume (GstAooctView * self)
{
  GstAooctFilter *filter = GST_AOOCT_FILTER (self);
  GstAooctViewPrivate *priv = PRIV (self);
  GstBuffer *out;
  GstFlowReturn ret;

  if (priv->filled == 0 || !filter->configured)
    return GST_FLOW_OK;
  ret = allocate_output (self, &out);
  priv->take_count = 0;
  if (ret == GST_FLOW_OK)
    ret = gst_aooct_filter_process_buffers (filter, NULL, &out);
  if (ret != GST_FLOW_OK) {
    gst_clear_buffer (&out);
    priv->filled = 0;
    aooct_gap_reset (&priv->gap);
    return ret;
  }
  GST_BUFFER_PTS (out) = priv->first_pts;
  GST_BUFFER_DTS (out) = GST_CLOCK_TIME_NONE;
  /* in a branch of aooctsplit: the image goes where its volume began */
  if (priv->has_seq)
    aooct_seq_meta_set (out, priv->first_seq);
  GST_BUFFER_DURATION (out) = GST_CLOCK_TIME_IS_VALID (priv->bscan_duration) ?
      priv->bscan_duration * priv->params.volume : GST_CLOCK_TIME_NONE;
  GST_BUFFER_OFFSET (out) = priv->volumes;
  GST_BUFFER_OFFSET_END (out) = priv->volumes + 1;
  if (priv->volumes == 0)
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_DISCONT);
  GST_LOG_OBJECT (self, "volume %" G_GUINT64_FORMAT " of %d B-scans at %"
      GST_TIME_FORMAT, priv->volumes, priv->filled,
      GST_TIME_ARGS (priv->first_pts));
  priv->volumes++;
  priv->filled = 0;
  aooct_gap_reset (&priv->gap);
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
}

/* Every B-scan of the input into the volume; an image whenever a volume
 * is complete (pushed here: one input may end one volume and start the
 * next, or end several).  *outbuf stays NULL.  An input that leaves a
 * volume pending is followed by a GAP event at the volume's first
 * B-scan (aooct-gap.h): downstream prerolls while the volume fills, as a
 * tee with a B-scan branch needs. */
static GstFlowReturn
gst_aooct_view_generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstAooctView *self = GST_AOOCT_VIEW (bt);
  GstAooctFilter *filter = GST_AOOCT_FILTER (bt);
  GstAooctViewPrivate *priv = PRIV (self);
  GstBuffer *inbuf = bt->queued_buf;
  GstFlowReturn ret = GST_FLOW_OK;
  GstClockTime pts, dur;
  gint b = 0, bscans;

  *outbuf = NULL;
  if (inbuf == NULL)
    return GST_FLOW_OK;
  bt->queued_buf = NULL;
  gst_aooct_filter_sync_values (filter, inbuf);
  if (!filter->configured) {
    gst_buffer_unref (inbuf);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("received a buffer before caps were negotiated"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  bscans = filter->in_geom.bscans;
  pts = GST_BUFFER_PTS (inbuf);
  dur = GST_BUFFER_DURATION (inbuf);
  priv->bscan_duration = GST_CLOCK_TIME_IS_VALID (dur) ? dur / bscans :
      GST_CLOCK_TIME_NONE;
  while (b < bscans && ret == GST_FLOW_OK) {
    gint take = MIN (bscans - b, priv->params.volume - priv->filled);

    if (priv->filled == 0) {
      /* the volume's timestamp and log setting: its first B-scan's */
      priv->first_pts = !GST_CLOCK_TIME_IS_VALID (pts) ? pts :
          GST_CLOCK_TIME_IS_VALID (priv->bscan_duration) ?
          pts + b * priv->bscan_duration : pts;
      GST_OBJECT_LOCK (self);
      priv->log_mode = priv->settings.log;
      GST_OBJECT_UNLOCK (self);
      priv->has_seq = aooct_seq_meta_get (inbuf, &priv->first_seq);
    }
    priv->take_from = b;
    priv->take_count = take;
    ret = gst_aooct_filter_process_buffers (filter, inbuf, NULL);
    if (ret != GST_FLOW_OK)
      break;
    priv->filled += take;
    b += take;
    aooct_gap_take (&priv->gap, priv->first_pts);
    if (priv->filled == priv->params.volume)
      ret = emit_volume (self);
  }
  gst_buffer_unref (inbuf);
  if (ret == GST_FLOW_OK && priv->filled > 0)
    aooct_gap_push (&priv->gap, GST_BASE_TRANSFORM_SRC_PAD (bt));
  return ret;
}

static gboolean
gst_aooct_view_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstAooctView *self = GST_AOOCT_VIEW (bt);
  GstAooctViewPrivate *priv = PRIV (self);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* the partial last volume, as it is */
      emit_volume (self);
      break;
    case GST_EVENT_CAPS:
      /* the partial volume belongs to the old caps: out before them */
      if (GST_AOOCT_FILTER (self)->configured) {
        GstCaps *caps, *cur =
            gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (bt));

        gst_event_parse_caps (event, &caps);
        if (cur == NULL || !gst_caps_is_equal (caps, cur))
          emit_volume (self);
        gst_clear_caps (&cur);
      }
      break;
    case GST_EVENT_FLUSH_STOP:
      priv->filled = 0;
      aooct_gap_reset (&priv->gap);
      break;
    case GST_EVENT_GAP:
      /* no B-scans for a while: with a volume pending, downstream hears
       * only that nothing comes before its image */
      event = aooct_gap_from_upstream (&priv->gap, event);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static gboolean
gst_aooct_view_start (GstBaseTransform * bt)
{
  GstAooctViewPrivate *priv = PRIV (GST_AOOCT_VIEW (bt));

  priv->filled = 0;
  priv->volumes = 0;
  aooct_gap_reset (&priv->gap);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->start (bt);
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
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
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

  bt_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_aooct_view_generate_output);
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_aooct_view_sink_event);
  bt_class->start = GST_DEBUG_FUNCPTR (gst_aooct_view_start);

  filter_class->src_is_video = TRUE;
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
  aooct_norm_settings_init (&priv->settings);
  priv->first_pts = GST_CLOCK_TIME_NONE;
  priv->bscan_duration = GST_CLOCK_TIME_NONE;
  aooct_gap_reset (&priv->gap);
}
