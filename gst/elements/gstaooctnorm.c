/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctnorm
 * @title: aooctnorm
 * @short_description: crop, intensity, log and normalisation to grey levels
 *
 * Last element of an aooct chain (spec section 7): takes the depth-domain
 * complex A-lines from aooctfft, keeps the depth bins
 * [crop-start, crop-end) (crop-end 0 = half the first FFT size, the
 * sensor's sampling limit), computes the intensity re^2 + im^2, optionally
 * in dB (10 log10), and maps it to GRAY8 or GRAY16_LE grey levels over an
 * automatic per-B-scan range (log: the maximum down to dynamic-range dB
 * below it; linear: minimum to maximum) or a manual one.  The image is in
 * display orientation: one row per depth bin, one column per A-line; a
 * buffer with several B-scans gives them stacked vertically, each with its
 * own automatic range.
 *
 * On complex full-range input (aooctfullrange, spec section 9) the depth
 * bins are signed: a negative bin b is FFT bin P2 + b, crop-start may be
 * negative, and the default crop shows [-pad-size/2, pad-size/2), zero
 * delay in the middle row of the image.
 *
 * The display settings (log, dynamic-range, auto-range, range-min,
 * range-max) may be changed while playing; they apply from the next buffer.
 *
 * The depth scale: when the chain has an aooctkmap (whose calibration puts
 * `wavenumber-span` = |k(N-1) - k(0)| on the caps), each image row is
 * depth-per-row = pi (N - 1) / (P1 |k(N-1) - k(0)|) micrometres in air
 * (single-pass path difference; k = 2 pi / lambda of the first and last
 * camera pixel, N camera pixels, P1 the first FFT size; divide by the
 * group index for depth in tissue).  aooctnorm puts it in its read-only
 * `depth-per-row` property (notified) and, at each negotiation, posts an
 * element message "aooct-depth-scale" with the fields um-per-row (double),
 * first-row-um (double, the depth of image row 0 = crop-start x
 * um-per-row), rows (int, image rows per B-scan) and crop-start (int).
 * Without a calibration upstream the scale is unknown: depth-per-row is 0
 * and no message is posted.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=bscans.raw ! \
 *     rawvideoparse format=gray16-le width=2048 height=1000 framerate=25/1 ! \
 *     aooctdcsub ! aooctpad ! aooctkmap wavelength-file=lambda.txt ! \
 *     aooctdisp a2=3.5 ! aooctfft window=hann ! \
 *     aooctnorm dynamic-range=50 crop-start=10 ! videoconvert ! autovideosink
 * ]|
 *
 * On the CUDA backend the image can also stay on the GPU for nvcodec
 * elements, as video/x-raw(memory:CUDAMemory) NV12 or I420 (the image as
 * full-range luma, neutral chroma) or RGBA (grey, opaque); GRAY8 and
 * GRAY16_LE in system memory remain the default (see docs/cuda-memory.md):
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=500 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! aooctdisp ! \
 *     aooctfft ! aooctnorm backend=cuda ! \
 *     video/x-raw(memory:CUDAMemory),format=NV12 ! nvh264enc ! h264parse ! \
 *     mp4mux ! filesink location=bscans.mp4
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include <string.h>

#include "gstaooctnorm.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-norm-props.h"
#include "aooct-cpu-norm.h"
#include "aooct-cpu-norm-extra.h"
#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-norm.h"
#include "aooct-cuda-norm-extra.h"
#endif

/* The step's settings (aooct-step.h); the display settings
 * (AooctNormSettings, live) come with each buffer. */
typedef struct
{
  gint crop_start, crop_end;    /* resolved */
  gboolean extra;               /* averaging or bilateral: with @x */
  AooctNormExtraParams x;
} NormSettings;

GST_DEBUG_CATEGORY_STATIC (gst_aooct_norm_debug);
#define GST_CAT_DEFAULT gst_aooct_norm_debug

struct _GstAooctNorm
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  gint crop_start;
  gint crop_end;
  AooctNormSettings settings;   /* all but bits */
  gint average_bscans, average_alines;  /* spec 11 */
  gdouble sigma_space, sigma_range;

  /* from setup(), read under the object lock by get_property */
  gdouble depth_per_row;        /* um per image row, 0 = unknown */

  /* from setup() */
  gint bits;
  NormSettings step_settings;   /* what the cores are made for */
  AooctNormSettings live;       /* the display settings of this buffer */
  /* the last consistent display settings (streaming thread) */
  AooctNormSettings good;
};

enum
{
  PROP_0,
  PROP_CROP_START,
  PROP_CROP_END,
  PROP_AVERAGE_BSCANS,
  PROP_AVERAGE_ALINES,
  PROP_BILATERAL_SIGMA_SPACE,
  PROP_BILATERAL_SIGMA_RANGE,
  PROP_DEPTH_PER_ROW,
  PROP_LOG,                     /* .. the AOOCT_NORM_N_PROPS display ones */
};

static GParamSpec *depth_per_row_pspec;

#define DEFAULT_CROP_START 0
#define DEFAULT_CROP_END 0

#define gst_aooct_norm_parent_class parent_class
G_DEFINE_TYPE (GstAooctNorm, gst_aooct_norm, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctnorm, "aooctnorm",
    GST_RANK_NONE, GST_TYPE_AOOCT_NORM,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_norm_debug, "aooctnorm", 0,
        "aooct crop, log and normalisation"));

/* GRAY8 first: it is what a display wants and what downstream gets
 * unless it asks for GRAY16_LE.  On CUDA the base class adds these in
 * GstCudaMemory, for nvcodec elements (which take no grey format): the
 * image as the luma of NV12 / I420 with neutral chroma, or as grey RGBA. */
#define SRC_CAPS \
  "video/x-raw, format = (string) { GRAY8, GRAY16_LE }, " \
  "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], " \
  "framerate = (fraction) [ 0/1, MAX ]"

static gboolean
gst_aooct_norm_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctNorm *self = GST_AOOCT_NORM (filter);
  gint crop_start, crop_end, start, end;

  if (in->domain != AOOCT_DOMAIN_DEPTH
      || in->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctnorm needs depth-domain complex input (the output of "
        "aooctfft), got domain=%s sample-type=%s",
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  crop_start = self->crop_start;
  crop_end = self->crop_end;
  GST_OBJECT_UNLOCK (self);

  if (!aooct_norm_resolve_crop (in, crop_start, crop_end, &start, &end, error))
    return FALSE;

  /* The src pad carries video, so out is not an application/x-aooct
   * geometry: it keeps alines and bscans, and samples is the number of
   * image rows per B-scan (the cropped depth bins). */
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_REAL;
  out->full_range = FALSE;
  out->samples = end - start;
  /* average-alines: column c is A-lines c K .. min (c K + K, M) - 1 */
  GST_OBJECT_LOCK (self);
  out->alines = (in->alines + self->average_alines - 1) / self->average_alines;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static GstCaps *
gst_aooct_norm_output_caps (GstAooctFilter * filter, const AooctGeometry * out)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, "
      "format = (string) { GRAY8, GRAY16_LE }");

  gst_caps_set_simple (caps,
      "width", G_TYPE_INT, out->alines,
      "height", G_TYPE_INT, out->bscans * out->samples,
      "framerate", GST_TYPE_FRACTION, out->fps_n, out->fps_d, NULL);
  return caps;
}

static void
read_settings (GstAooctNorm * self, AooctNormSettings * s)
{
  GST_OBJECT_LOCK (self);
  *s = self->settings;
  GST_OBJECT_UNLOCK (self);
  s->bits = self->bits;
}

/* Display settings that the others make meaningless, set anyway: the
 * user expects them to act (they may still be changed while playing, so
 * this is a warning, once at start). */
static void
warn_unused_settings (GstAooctNorm * self, const AooctNormSettings * s)
{
  if (s->auto_range && (s->range_min != AOOCT_NORM_DEFAULT_RANGE_MIN
          || s->range_max != AOOCT_NORM_DEFAULT_RANGE_MAX))
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("range-min=%g and "
            "range-max=%g are not used: auto-range=true takes the range from "
            "each B-scan; set auto-range=false to use them", s->range_min,
            s->range_max), (NULL));
  if (s->dynamic_range != AOOCT_NORM_DEFAULT_DYNAMIC_RANGE && (!s->log
          || !s->auto_range))
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("dynamic-range=%g is not "
            "used: it applies with log=true and auto-range=true only (here "
            "log=%s, auto-range=%s)", s->dynamic_range,
            s->log ? "true" : "false", s->auto_range ? "true" : "false"),
        (NULL));
}

static const gchar *const cuda_video_formats[] = { "NV12", "I420", "RGBA",
  NULL
};

/* depth-per-row and the "aooct-depth-scale" message for the negotiated
 * grid and crop [start, end) */
static void
gst_aooct_norm_announce_depth_scale (GstAooctNorm * self, gint start, gint end)
{
  gdouble step = aooct_geometry_depth_step (&GST_AOOCT_FILTER (self)->in_geom);
  gboolean changed;

  GST_OBJECT_LOCK (self);
  changed = self->depth_per_row != step;
  self->depth_per_row = step;
  GST_OBJECT_UNLOCK (self);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), depth_per_row_pspec);
  if (step <= 0) {
    GST_INFO_OBJECT (self, "no wavenumber-span on the caps (no aooctkmap "
        "upstream): depth scale unknown");
    return;
  }
  GST_INFO_OBJECT (self, "%.6g um per row, row 0 at %.6g um", step,
      start * step);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_structure_new ("aooct-depth-scale", "um-per-row", G_TYPE_DOUBLE,
              step, "first-row-um", G_TYPE_DOUBLE, start * step, "rows",
              G_TYPE_INT, end - start, "crop-start", G_TYPE_INT, start, NULL)));
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

/* The plain mapping, or averaging / bilateral (spec 11) */
typedef struct
{
  AooctCpuNormPlan *plain;
  AooctCpuNormExtraPlan *extra;
} NormCpu;

static void
norm_cpu_plan_free (gpointer plan)
{
  NormCpu *c = plan;

  aooct_cpu_norm_plan_free (c->plain);
  aooct_cpu_norm_extra_plan_free (c->extra);
  g_free (c);
}

static gpointer
norm_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  const NormSettings *s = settings;
  NormCpu *c = g_new0 (NormCpu, 1);

  if (s->extra)
    c->extra = aooct_cpu_norm_extra_plan_new (&s->x);
  else
    c->plain = aooct_cpu_norm_plan_new (shape->in, s->crop_start, s->crop_end);
  return c;
}

static gboolean
norm_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  NormCpu *c = plan;

  if (c->extra)
    aooct_cpu_norm_extra_execute (c->extra, run->live,
        (const gfloat *) in->data, out->data, out->stride);
  else
    aooct_cpu_norm_execute (c->plain, run->live, (const gfloat *) in->data,
        out->data, out->stride);
  return TRUE;
}

static void
norm_cpu_reset (gpointer plan)
{
  NormCpu *c = plan;

  if (c->extra)
    aooct_cpu_norm_extra_reset (c->extra);
}

static const AooctStepOps norm_cpu = { norm_cpu_plan_new, norm_cpu_execute,
  norm_cpu_plan_free, norm_cpu_reset, NULL
};

#ifdef HAVE_CUDA
typedef struct
{
  AooctCudaNormFormat format;
  AooctCudaNormPlan *norm;
  AooctCudaNormExtraPlan *extra;        /* averaging / bilateral */
} NormCuda;

static void
norm_cuda_plan_free (gpointer plan)
{
  NormCuda *c = plan;

  aooct_cuda_norm_plan_free (c->norm);
  aooct_cuda_norm_extra_plan_free (c->extra);
  g_free (c);
}

static gpointer
norm_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  const NormSettings *s = settings;
  NormCuda *c = g_new0 (NormCuda, 1);
  AooctCudaNormParams params = { 0 }, *p = &params;
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (shape->out_vinfo);

  p->samples = shape->in->samples;
  p->alines = shape->in->alines;
  p->bscans = shape->in->bscans;
  p->crop_start = s->crop_start;
  p->crop_end = s->crop_end;
  p->format = format == GST_VIDEO_FORMAT_GRAY16_LE ? AOOCT_CUDA_NORM_GRAY16 :
      format == GST_VIDEO_FORMAT_RGBA ? AOOCT_CUDA_NORM_RGBA :
      AOOCT_CUDA_NORM_GRAY8;
  c->format = p->format;
  if (s->extra)
    c->extra = aooct_cuda_norm_extra_plan_new (&s->x, error);
  else
    c->norm = aooct_cuda_norm_plan_new (p, error);
  if (c->extra == NULL && c->norm == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

static gboolean
norm_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  NormCuda *c = plan;

  if (c->extra)
    return aooct_cuda_norm_extra_execute (c->extra, run->live, c->format,
        (const gfloat *) in->data, out->data, out->stride, run->stream, error);
  return aooct_cuda_norm_execute (c->norm, run->live,
      (const gfloat *) in->data, out->data, out->stride, run->stream, error);
}

static void
norm_cuda_reset (gpointer plan)
{
  NormCuda *c = plan;

  if (c->extra)
    aooct_cuda_norm_extra_reset (c->extra);
}

static void
norm_cuda_rewind (gpointer plan)
{
  NormCuda *c = plan;

  if (c->extra)
    aooct_cuda_norm_extra_rewind (c->extra);
}

/* The plain mapping depends on the planes and this buffer's display
 * settings (its kernels' arguments); the extra modes (averaging, speckle
 * reduction) keep state from buffer to buffer and are captured each
 * time. */
G_STATIC_ASSERT (sizeof (AooctNormSettings) <= AOOCT_STEP_GRAPH_KEY);

static gssize
norm_cuda_graph_key (gpointer plan, const AooctStepRun * run, guint8 * key)
{
  NormCuda *c = plan;
  const AooctNormSettings *s = run->live;
  AooctNormSettings k;

  if (c->extra)
    return -1;
  /* field by field into a zeroed copy: padding bytes compare equal */
  memset (&k, 0, sizeof (k));
  k.log = s->log;
  k.auto_range = s->auto_range;
  k.dynamic_range = s->dynamic_range;
  k.range_min = s->range_min;
  k.range_max = s->range_max;
  k.bits = s->bits;
  memcpy (key, &k, sizeof (k));
  return sizeof (k);
}

static const AooctStepOps norm_cuda = { norm_cuda_plan_new, norm_cuda_execute,
  norm_cuda_plan_free, norm_cuda_reset, norm_cuda_rewind, norm_cuda_graph_key
};

#define NORM_CUDA (&norm_cuda)
#else
#define NORM_CUDA NULL
#endif

static gboolean
gst_aooct_norm_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctNorm *self = GST_AOOCT_NORM (filter);
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (&filter->out_vinfo);
  AooctNormSettings s;
  gint crop_start, crop_end, start, end;

  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
      self->bits = 8;
      break;
    case GST_VIDEO_FORMAT_GRAY16_LE:
      self->bits = 16;
      break;
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_RGBA:
      /* negotiated in CUDA memory only (see cuda_video_formats) */
      if (filter->active_backend == GST_AOOCT_BACKEND_CUDA
          && filter->out_cuda_memory) {
        self->bits = 8;
        break;
      }
      /* fall through */
    default:
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "aooctnorm produces GRAY8 or GRAY16_LE (and, on CUDA, NV12, I420 "
          "or RGBA in CUDA memory), not %s%s",
          GST_VIDEO_INFO_NAME (&filter->out_vinfo),
          filter->out_cuda_memory ? " in CUDA memory" : "");
      return FALSE;
  }

  read_settings (self, &s);
  if (!aooct_norm_settings_check (&s, error))
    return FALSE;
  self->good = s;
  gst_aooct_filter_settings_consistent (filter);
  warn_unused_settings (self, &s);

  GST_OBJECT_LOCK (self);
  crop_start = self->crop_start;
  crop_end = self->crop_end;
  GST_OBJECT_UNLOCK (self);
  if (!aooct_norm_resolve_crop (&filter->in_geom, crop_start, crop_end,
          &start, &end, error))
    return FALSE;
  /* crop-* are only writable up to READY, so this holds unless the
   * application bypassed that */
  if (end - start != filter->out_geom.samples) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "crop-start / crop-end changed during negotiation");
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "crop [%d, %d), %s", start, end,
      GST_VIDEO_INFO_NAME (&filter->out_vinfo));
  gst_aooct_norm_announce_depth_scale (self, start, end);
  self->step_settings.crop_start = start;
  self->step_settings.crop_end = end;
  GST_OBJECT_LOCK (self);
  self->step_settings.extra = self->average_bscans > 1
      || self->average_alines > 1 || self->sigma_space > 0;
  if (self->step_settings.extra) {
    AooctNormExtraParams *x = &self->step_settings.x;

    x->samples = filter->in_geom.samples;
    x->alines = filter->in_geom.alines;
    x->bscans = filter->in_geom.bscans;
    x->crop_start = start;
    x->rows = end - start;
    x->avg_bscans = self->average_bscans;
    x->avg_alines = self->average_alines;
    x->width = filter->out_geom.alines;
    x->sigma_space = self->sigma_space;
    x->sigma_range = self->sigma_range;
  }
  GST_OBJECT_UNLOCK (self);
  *settings = &self->step_settings;
  return TRUE;
}

/* The display settings for this buffer: one consistent copy, taken under
 * the object lock.  range-min and range-max are changed one after the
 * other even in one g_object_set(): a pair seen half changed (range-max
 * <= range-min for a moment) keeps the last consistent settings instead
 * of ending the stream (gst_aooct_filter_tolerate_inconsistent). */
static void
settings_for_buffer (GstAooctNorm * self, AooctNormSettings * s)
{
  GError *error = NULL;

  read_settings (self, s);
  if (aooct_norm_settings_check (s, &error)) {
    self->good = *s;
    gst_aooct_filter_settings_consistent (GST_AOOCT_FILTER (self));
    return;
  }
  gst_aooct_filter_tolerate_inconsistent (GST_AOOCT_FILTER (self), error);
  g_clear_error (&error);
  *s = self->good;
}

/* display settings may change while playing: one consistent copy per
 * buffer */
static gboolean
gst_aooct_norm_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctNorm *self = GST_AOOCT_NORM (filter);

  settings_for_buffer (self, &self->live);
  *live = &self->live;
  return TRUE;
}

static void
gst_aooct_norm_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctNorm *self = GST_AOOCT_NORM (object);

  GST_OBJECT_LOCK (self);
  if (aooct_norm_props_set (&self->settings, PROP_LOG, prop_id, value)) {
    GST_OBJECT_UNLOCK (self);
    return;
  }
  switch (prop_id) {
    case PROP_CROP_START:
      self->crop_start = g_value_get_int (value);
      break;
    case PROP_CROP_END:
      self->crop_end = g_value_get_int (value);
      break;
    case PROP_AVERAGE_BSCANS:
      self->average_bscans = g_value_get_int (value);
      break;
    case PROP_AVERAGE_ALINES:
      self->average_alines = g_value_get_int (value);
      break;
    case PROP_BILATERAL_SIGMA_SPACE:
      self->sigma_space = g_value_get_double (value);
      break;
    case PROP_BILATERAL_SIGMA_RANGE:
      self->sigma_range = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_norm_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctNorm *self = GST_AOOCT_NORM (object);

  GST_OBJECT_LOCK (self);
  if (aooct_norm_props_get (&self->settings, PROP_LOG, prop_id, value)) {
    GST_OBJECT_UNLOCK (self);
    return;
  }
  switch (prop_id) {
    case PROP_CROP_START:
      g_value_set_int (value, self->crop_start);
      break;
    case PROP_DEPTH_PER_ROW:
      g_value_set_double (value, self->depth_per_row);
      break;
    case PROP_CROP_END:
      g_value_set_int (value, self->crop_end);
      break;
    case PROP_AVERAGE_BSCANS:
      g_value_set_int (value, self->average_bscans);
      break;
    case PROP_AVERAGE_ALINES:
      g_value_set_int (value, self->average_alines);
      break;
    case PROP_BILATERAL_SIGMA_SPACE:
      g_value_set_double (value, self->sigma_space);
      break;
    case PROP_BILATERAL_SIGMA_RANGE:
      g_value_set_double (value, self->sigma_range);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* average-bscans mixes each B-scan with the ones before it */
static gchar *
gst_aooct_norm_in_order_setting (GstAooctFilter * filter)
{
  GstAooctNorm *self = GST_AOOCT_NORM (filter);
  gint k;

  /* the setting in use once negotiated (a change takes effect at the
   * next negotiation), the property before */
  GST_OBJECT_LOCK (self);
  k = !filter->configured ? self->average_bscans :
      self->step_settings.extra ? self->step_settings.x.avg_bscans : 1;
  GST_OBJECT_UNLOCK (self);
  return k > 1 ? g_strdup_printf ("average-bscans=%d", k) : NULL;
}

static void
gst_aooct_norm_class_init (GstAooctNormClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_aooct_norm_set_property;
  gobject_class->get_property = gst_aooct_norm_get_property;

  /* Non-finite doubles and values outside these ranges are refused by
   * GObject when set (with a warning naming the property); the finite
   * bounds below make it refuse infinities too. */
  /**
   * GstAooctNorm:depth-per-row:
   *
   * Read only: micrometres in air per image row, pi (N - 1) / (P1
   * wavenumber-span) from the calibration of the aooctkmap upstream, known
   * once negotiated (notified; also posted as the element message aooct-
   * depth-scale); 0 = unknown (no calibration upstream)
   */
  depth_per_row_pspec = g_param_spec_double ("depth-per-row",
      "Depth per row",
      "Read only: micrometres in air per image row, pi (N - 1) / (P1 "
      "wavenumber-span) from the calibration of the aooctkmap upstream, "
      "known once negotiated (notified; also posted as the element message "
      "aooct-depth-scale); 0 = unknown (no calibration upstream)",
      0.0, G_MAXDOUBLE, 0.0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, PROP_DEPTH_PER_ROW,
      depth_per_row_pspec);
  /**
   * GstAooctNorm:crop-start:
   *
   * First depth bin shown (image row 0); 0 .. crop-end - 1, default 0.
   * Signed on full-range input (aooctfullrange): bin -b is b bins before
   * zero delay, and crop-start = crop-end = 0 shows -pad-size/2 .. pad-
   * size/2 - 1, zero delay in the middle
   */
  g_object_class_install_property (gobject_class, PROP_CROP_START,
      g_param_spec_int ("crop-start", "Crop start",
          "First depth bin shown (image row 0); 0 .. crop-end - 1, default "
          "0. Signed on full-range input (aooctfullrange): bin -b is b bins "
          "before zero delay, and crop-start = crop-end = 0 shows "
          "-pad-size/2 .. pad-size/2 - 1, zero delay in the middle",
          -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, DEFAULT_CROP_START, ready));
  /**
   * GstAooctNorm:crop-end:
   *
   * Depth bin after the last one shown, at most the samples per A-line; 0
   * (default) = half the first FFT size (pad-size / 2, the sensor's
   * sampling limit)
   */
  g_object_class_install_property (gobject_class, PROP_CROP_END,
      g_param_spec_int ("crop-end", "Crop end",
          "Depth bin after the last one shown, at most the samples per "
          "A-line; 0 (default) = half the first FFT size (pad-size / 2, the "
          "sensor's sampling limit)", 0, AOOCT_MAX_SAMPLES, DEFAULT_CROP_END,
          ready));
  aooct_norm_props_install (gobject_class, PROP_LOG, "B-scan");
  /**
   * GstAooctNorm:average-bscans:
   *
   * K: each image shows the mean intensity of its B-scan and up to K-1
   * preceding ones (counted since start, flush or new caps); one image per
   * B-scan still; 1 .. 1024, default 1 (off)
   */
  g_object_class_install_property (gobject_class, PROP_AVERAGE_BSCANS,
      g_param_spec_int ("average-bscans", "Average B-scans",
          "K: each image shows the mean intensity of its B-scan and up to "
          "K-1 preceding ones (counted since start, flush or new caps); one "
          "image per B-scan still; 1 .. 1024, default 1 (off)", 1, 1024, 1,
          ready));
  /**
   * GstAooctNorm:average-alines:
   *
   * K: image column c is the mean intensity of A-lines c K .. c K + K - 1,
   * so the image is ceil (M / K) wide; 1 .. 65536, default 1 (off)
   */
  g_object_class_install_property (gobject_class, PROP_AVERAGE_ALINES,
      g_param_spec_int ("average-alines", "Average A-lines",
          "K: image column c is the mean intensity of A-lines c K .. "
          "c K + K - 1, so the image is ceil (M / K) wide; 1 .. 65536, "
          "default 1 (off)", 1, AOOCT_MAX_ALINES, 1, ready));
  /**
   * GstAooctNorm:bilateral-sigma-space:
   *
   * Spatial sigma of the bilateral filter on the normalised image, in
   * pixels (window radius ceil (2 sigma)); 0 .. 32, default 0 (off)
   */
  g_object_class_install_property (gobject_class,
      PROP_BILATERAL_SIGMA_SPACE, g_param_spec_double ("bilateral-sigma-space",
          "Bilateral sigma (space)",
          "Spatial sigma of the bilateral filter on the normalised image, in "
          "pixels (window radius ceil (2 sigma)); 0 .. 32, default 0 (off)",
          0.0, 32.0, 0.0, ready));
  /**
   * GstAooctNorm:bilateral-sigma-range:
   *
   * Range sigma of the bilateral filter, on the grey range 0 .. 1; 1e-6 ..
   * 1e6, default 0.1
   */
  g_object_class_install_property (gobject_class,
      PROP_BILATERAL_SIGMA_RANGE, g_param_spec_double ("bilateral-sigma-range",
          "Bilateral sigma (range)",
          "Range sigma of the bilateral filter, on the grey range 0 .. 1; "
          "1e-6 .. 1e6, default 0.1", 1e-6, 1e6, 0.1, ready));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT normalisation", "Filter/Converter/Video",
      "Crops depth-domain OCT A-lines, takes their intensity (optionally in "
      "dB) and maps it to grey levels", "aooct developers");
  filter_class->cuda_video_formats = cuda_video_formats;
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, SRC_CAPS);

  filter_class->src_is_video = TRUE;
  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_norm_derive_output);
  filter_class->output_caps = GST_DEBUG_FUNCPTR (gst_aooct_norm_output_caps);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_norm_setup);
  filter_class->in_order_setting =
      GST_DEBUG_FUNCPTR (gst_aooct_norm_in_order_setting);
  filter_class->cuda_stage = 3;
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_norm_live);
  filter_class->cpu_ops = &norm_cpu;
  filter_class->cuda_ops = NORM_CUDA;
#ifdef HAVE_CUDA
  /* only kernels and cuFFT on the stream: capturable (cuda-graphs=true) */
  filter_class->cuda_graphs = TRUE;
#endif
}

static void
gst_aooct_norm_init (GstAooctNorm * self)
{
  self->crop_start = DEFAULT_CROP_START;
  self->crop_end = DEFAULT_CROP_END;
  aooct_norm_props_init (&self->settings);
  self->average_bscans = 1;
  self->average_alines = 1;
  self->sigma_range = 0.1;
}
