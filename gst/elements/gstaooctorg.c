/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctorg
 * @title: aooctorg
 * @short_description: optoretinography: the OPL change between two layers
 *
 * The phase of a second layer against a first in every A-line of a
 * repeated B-scan (spec section 13): the path length between them (the
 * photoreceptors' outer segments between IS/OS and COST) changes by
 * nanometres after a light stimulus, and the phase of one layer against
 * the other cancels the eye's axial motion.  Takes aooctfft's (or
 * aooctcs's) depth-domain complex output, real or full-range.
 *
 * Per B-scan: the first layer z1 of each A-line (the brightest bin near
 * the B-scan's brightest depth within [layer-search-start,
 * layer-search-end), as aooctenface layer=brightest finds it); the second
 * layer z2 in [z1 + second-layer-min, z1 + second-layer-max], found on the
 * first B-scan of each baseline and kept at that separation; p = sum over
 * depth-window bins of X[z2 + d] conj (X[z1 + d]); the phase psi of p
 * against the baseline's mean phasor (the first `baseline` B-scans),
 * unwrapped in time per A-line and scaled to nm with center-wavelength
 * (0: radians).  A-lines whose layers lie more than `threshold` dB below
 * the B-scan's brightest are invalid.
 *
 * Out: (a) the trace, per B-scan the mean and standard deviation of the
 * OPL change over the valid A-lines and their count, as an element
 * message "aooct-org" (bscan, mean, std, valid, pts) and as lines
 * `bscan pts_seconds mean std valid` of trace-file; (b) a scrolling
 * kymograph per B-scan, GRAY8 or GRAY16_LE, M wide and `history` high,
 * the newest B-scan at the bottom, grey 128 = no change, 255 = +opl-range,
 * 1 = -opl-range, invalid and unfilled 0.  A longer path from layer 1 to
 * layer 2 (elongation) is positive whatever the camera's wavelength
 * direction (the caps' wavelength-direction, or `sign`).
 *
 * A flush or new caps start a new baseline, unwrapping and kymograph;
 * setting `baseline` while playing starts a new baseline at the next
 * B-scan.  On CUDA the state stays on the GPU and the traces come back
 * asynchronously (the messages follow the buffers by a few B-scans).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc phantom=photoreceptors alines=512 \
 *     num-buffers=300 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! aooctfft ! \
 *     aooctorg center-wavelength=840 trace-file=org.txt ! \
 *     videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gstaooctorg.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-norm.h"
#include "aooct-step.h"
#include "aooct-cpu-org.h"
#ifdef HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/cuda-gst.h>
#include "aooct-cuda-org.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_org_debug);
#define GST_CAT_DEFAULT gst_aooct_org_debug

typedef enum
{
  AOOCT_ORG_SIGN_AUTO,
  AOOCT_ORG_SIGN_POSITIVE,
  AOOCT_ORG_SIGN_NEGATIVE
} AooctOrgSign;

/* what the plan is made from: the cores' params, and the element the CUDA
 * core reports its traces to */
typedef struct
{
  AooctOrgParams params;
  GstAooctOrg *self;
} OrgSettings;

/* what a trace needs besides the core's numbers, per buffer in flight */
typedef struct
{
  gint64 bscan;                 /* the buffer's first B-scan */
  GstClockTime pts;
} OrgTag;

struct _GstAooctOrg
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  gint crop_start, crop_end;
  gint search_start, search_end, layer_range, layer_smooth;
  gint second_min, second_max;
  gint depth_window;
  gdouble threshold;
  gint baseline;
  gdouble center_wavelength, opl_range;
  AooctOrgSign sign;
  gint history;
  gchar *trace_file;
  gboolean post_messages;

  /* from setup() */
  OrgSettings settings;
  FILE *trace;                  /* trace-file, open from setup to teardown */
  gchar *trace_path;
  /* streaming thread */
  AooctOrgLive live;
  gint baseline_in_use;         /* 0: none yet (a new baseline) */
  gint64 bscans;                /* since start, flush or caps */
  GstClockTime pts;             /* of the buffer being processed */
  GQueue tags;                  /* OrgTag of the buffers in flight (CUDA) */
  gpointer cuda_plan;           /* the CUDA plan, to drain at EOS */
  gpointer cuda_ctx;            /* its CUcontext, current around that */
  gboolean trace_error;         /* a write to trace-file failed (posted) */
};

enum
{
  PROP_0,
  PROP_CROP_START,
  PROP_CROP_END,
  PROP_LAYER_SEARCH_START,
  PROP_LAYER_SEARCH_END,
  PROP_LAYER_RANGE,
  PROP_LAYER_SMOOTH,
  PROP_SECOND_LAYER_MIN,
  PROP_SECOND_LAYER_MAX,
  PROP_DEPTH_WINDOW,
  PROP_THRESHOLD,
  PROP_BASELINE,
  PROP_CENTER_WAVELENGTH,
  PROP_SIGN,
  PROP_OPL_RANGE,
  PROP_HISTORY,
  PROP_TRACE_FILE,
  PROP_POST_MESSAGES,
};

#define GST_TYPE_AOOCT_ORG_SIGN (gst_aooct_org_sign_get_type ())
static GType
gst_aooct_org_sign_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_ORG_SIGN_AUTO, "From the caps' wavelength direction (none: "
          "positive; full range: the upper sideband of a positive carrier)",
        "auto"},
    {AOOCT_ORG_SIGN_POSITIVE, "sigma = +1", "positive"},
    {AOOCT_ORG_SIGN_NEGATIVE, "sigma = -1", "negative"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctOrgSign", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* the kymograph in CUDA memory: the luma plane */
static const gchar *const cuda_video_formats[] = { "NV12", "I420", NULL };

#define gst_aooct_org_parent_class parent_class
G_DEFINE_TYPE (GstAooctOrg, gst_aooct_org, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctorg, "aooctorg",
    GST_RANK_NONE, GST_TYPE_AOOCT_ORG,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_org_debug, "aooctorg", 0,
        "aooct optoretinography"));

/* ---- the trace: message and file ------------------------------------- */

static void
report_one (GstAooctOrg * self, gint64 bscan, GstClockTime pts,
    const AooctOrgTrace * t)
{
  gboolean post;

  GST_OBJECT_LOCK (self);
  post = self->post_messages;
  GST_OBJECT_UNLOCK (self);
  GST_LOG_OBJECT (self, "B-scan %" G_GINT64_FORMAT ": mean %g std %g valid "
      "%d", bscan, t->mean, t->std, t->valid);
  if (post)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self),
            gst_structure_new ("aooct-org", "bscan", G_TYPE_INT64, bscan,
                "mean", G_TYPE_DOUBLE, t->mean, "std", G_TYPE_DOUBLE,
                t->std, "valid", G_TYPE_INT, t->valid, "pts", G_TYPE_UINT64,
                (guint64) pts, NULL)));
  if (self->trace && !self->trace_error) {
    gchar pts_s[G_ASCII_DTOSTR_BUF_SIZE], mean[G_ASCII_DTOSTR_BUF_SIZE],
        sd[G_ASCII_DTOSTR_BUF_SIZE];

    g_ascii_formatd (pts_s, sizeof (pts_s), "%.9f",
        GST_CLOCK_TIME_IS_VALID (pts) ? (gdouble) pts / GST_SECOND : NAN);
    g_ascii_formatd (mean, sizeof (mean), "%.6f", t->mean);
    g_ascii_formatd (sd, sizeof (sd), "%.6f", t->std);
    /* line by line, so that the file is complete whenever it is read */
    if (fprintf (self->trace, "%" G_GINT64_FORMAT " %s %s %s %d\n", bscan,
            pts_s, mean, sd, t->valid) < 0 || fflush (self->trace) != 0) {
      self->trace_error = TRUE;
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Cannot write the trace file \"%s\"", self->trace_path),
          ("%s", g_strerror (errno)));
    }
  }
}

static void
report_buffer (GstAooctOrg * self, const OrgTag * tag,
    const AooctOrgTrace * t, gint count)
{
  gint b;

  for (b = 0; b < count; b++)
    report_one (self, tag->bscan + b, tag->pts, &t[b]);
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

static gpointer
org_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  return aooct_cpu_org_plan_new (&((const OrgSettings *) settings)->params,
      error);
}

static gboolean
org_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AooctOrgLive *live = run->live;
  /* the live part is the element's own: it knows its element */
  GstAooctOrg *self = (GstAooctOrg *) ((guint8 *) live -
      G_STRUCT_OFFSET (GstAooctOrg, live));
  const gint n = self->settings.params.bscans;
  AooctOrgTrace *trace = g_newa (AooctOrgTrace, n);
  OrgTag tag = { self->bscans, self->pts };

  aooct_cpu_org_execute (plan, live, (const gfloat *) in->data, out->data,
      out->stride, trace);
  self->bscans += n;
  report_buffer (self, &tag, trace, n);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (org_cpu_reset, aooct_cpu_org_reset);

AOOCT_STEP_FORWARD_PLAN_OP (org_cpu_plan_free, aooct_cpu_org_plan_free);

static const AooctStepOps org_cpu = { org_cpu_plan_new, org_cpu_execute,
  org_cpu_plan_free, org_cpu_reset, NULL
};

#ifdef HAVE_CUDA
/* a buffer's traces, arrived (in order) */
static void
org_cuda_report (gpointer user, guint64 tag_unused,
    const AooctOrgTrace * trace, gint count)
{
  GstAooctOrg *self = user;
  OrgTag *tag = g_queue_pop_head (&self->tags);

  if (tag == NULL)
    return;
  report_buffer (self, tag, trace, count);
  g_free (tag);
}

static gpointer
org_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  const OrgSettings *s = settings;
  AooctCudaOrgPlan *plan = aooct_cuda_org_plan_new (&s->params,
      org_cuda_report, s->self, error);
  CUcontext ctx = NULL;

  /* the element's context, current here: for the drain at EOS and flush,
   * which run outside the step's calls */
  if (CuCtxPopCurrent (&ctx) != CUDA_SUCCESS
      || CuCtxPushCurrent (ctx) != CUDA_SUCCESS)
    ctx = NULL;
  GST_OBJECT_LOCK (s->self);
  s->self->cuda_plan = plan;
  s->self->cuda_ctx = ctx;
  GST_OBJECT_UNLOCK (s->self);
  return plan;
}

static gboolean
org_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AooctOrgLive *live = run->live;
  GstAooctOrg *self = (GstAooctOrg *) ((guint8 *) live -
      G_STRUCT_OFFSET (GstAooctOrg, live));
  OrgTag *tag = g_new (OrgTag, 1);

  tag->bscan = self->bscans;
  tag->pts = self->pts;
  g_queue_push_tail (&self->tags, tag);
  if (!aooct_cuda_org_execute (plan, live, (const gfloat *) in->data,
          out->data, out->stride, 0, run->stream, error)) {
    /* nothing of it comes back */
    g_free (g_queue_pop_tail (&self->tags));
    return FALSE;
  }
  self->bscans += self->settings.params.bscans;
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (org_cuda_reset, aooct_cuda_org_reset);

/* reports what is still on its way before it goes (teardown, which
 * follows, forgets the plan) */
AOOCT_STEP_FORWARD_PLAN_OP (org_cuda_plan_free, aooct_cuda_org_plan_free);

static const AooctStepOps org_cuda = { org_cuda_plan_new, org_cuda_execute,
  org_cuda_plan_free, org_cuda_reset, NULL
};

#define ORG_CUDA (&org_cuda)
#else
#define ORG_CUDA NULL
#endif

/* ---- negotiation and setup -------------------------------------------- */

static gboolean
gst_aooct_org_derive (GstAooctFilter * filter, const AooctGeometry * in,
    AooctGeometry * out, GError ** error)
{
  GstAooctOrg *self = GST_AOOCT_ORG (filter);
  gint crop_start, crop_end, start, end, history;

  if (in->domain != AOOCT_DOMAIN_DEPTH
      || in->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctorg needs depth-domain complex input (the output of aooctfft "
        "or aooctcs), got domain=%s sample-type=%s",
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  crop_start = self->crop_start;
  crop_end = self->crop_end;
  history = self->history;
  GST_OBJECT_UNLOCK (self);
  if (!aooct_norm_resolve_crop (in, crop_start, crop_end, &start, &end, error))
    return FALSE;
  /* the src pad carries video: samples = image rows per B-scan */
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_REAL;
  out->full_range = FALSE;
  out->samples = history;
  return TRUE;
}

static GstCaps *
gst_aooct_org_output_caps (GstAooctFilter * filter, const AooctGeometry * out)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, format = (string) { "
      "GRAY8, GRAY16_LE }");

  /* GRAY8 first: what a display gets unless it asks for more */
  gst_caps_set_simple (caps, "width", G_TYPE_INT, out->alines,
      "height", G_TYPE_INT, out->bscans * out->samples,
      "framerate", GST_TYPE_FRACTION, out->fps_n, out->fps_d, NULL);
  return caps;
}

/* This buffer's live settings; FALSE with @error naming the property when
 * the spec forbids them. */
static gboolean
read_live (GstAooctOrg * self, AooctOrgLive * l, GError ** error)
{
  const AooctGeometry *in = &GST_AOOCT_FILTER (self)->in_geom;
  gint depth_window, baseline;
  gdouble cw, range, sigma;
  AooctOrgSign sign;

  GST_OBJECT_LOCK (self);
  depth_window = self->depth_window;
  l->threshold = self->threshold;
  baseline = self->baseline;
  cw = self->center_wavelength;
  range = self->opl_range;
  sign = self->sign;
  GST_OBJECT_UNLOCK (self);
  if (depth_window < 1 || depth_window % 2 == 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctorg: depth-window=%d must be odd and >= 1", depth_window);
    return FALSE;
  }
  if (baseline < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctorg: baseline=%d must be at least 1 B-scan", baseline);
    return FALSE;
  }
  l->half_window = depth_window / 2;
  l->baseline = baseline;
  l->new_baseline = baseline != self->baseline_in_use;
  self->baseline_in_use = baseline;
  switch (sign) {
    case AOOCT_ORG_SIGN_POSITIVE:
      sigma = 1.0;
      break;
    case AOOCT_ORG_SIGN_NEGATIVE:
      sigma = -1.0;
      break;
    default:
      /* full range: the upper sideband of a positive carrier shows the
       * sample's own term whichever way k runs (spec section 9) */
      sigma = !in->full_range && in->wavelength_direction > 0 ? -1.0 : 1.0;
      break;
  }
  l->scale = cw > 0 ? sigma * cw / (4.0 * G_PI) : sigma;
  l->opl_range = range > 0 ? range :
      (cw > 0 ? AOOCT_ORG_DEFAULT_OPL_RANGE_NM : G_PI);
  return TRUE;
}

static void
close_trace (GstAooctOrg * self)
{
  if (self->trace)
    fclose (self->trace);
  self->trace = NULL;
  g_clear_pointer (&self->trace_path, g_free);
}

static gboolean
gst_aooct_org_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctOrg *self = GST_AOOCT_ORG (filter);
  AooctOrgParams *p = &self->settings.params;
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (&filter->out_vinfo);
  gint crop_start, crop_end, start, end, s_start, s_end, range, smooth;
  gchar *trace_file;
  AooctOrgLive l;

  /* in CUDA memory (for nvcodec or a GL display): the luma of NV12 or
   * I420, written as GRAY8 */
  if (filter->out_cuda_memory ? (format != GST_VIDEO_FORMAT_NV12
          && format != GST_VIDEO_FORMAT_I420) : (format !=
          GST_VIDEO_FORMAT_GRAY8 && format != GST_VIDEO_FORMAT_GRAY16_LE)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctorg produces GRAY8 or GRAY16_LE (on CUDA also NV12 or I420 "
        "in CUDA memory), not %s%s", GST_VIDEO_INFO_NAME (&filter->out_vinfo),
        filter->out_cuda_memory ? " in CUDA memory" : "");
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  crop_start = self->crop_start;
  crop_end = self->crop_end;
  s_start = self->search_start;
  s_end = self->search_end;
  range = self->layer_range;
  smooth = self->layer_smooth;
  p->second_min = self->second_min;
  p->second_max = self->second_max;
  p->history = self->history;
  trace_file = g_strdup (self->trace_file);
  GST_OBJECT_UNLOCK (self);
  if (p->second_min > p->second_max) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctorg: second-layer-min=%d is greater than second-layer-max=%d",
        p->second_min, p->second_max);
    g_free (trace_file);
    return FALSE;
  }
  if (!aooct_norm_resolve_crop (&filter->in_geom, crop_start, crop_end,
          &start, &end, error)
      || !aooct_layer_params_resolve (&p->lp, "aooctorg", s_start, s_end,
          start, end, range, smooth, filter->in_geom.samples,
          filter->in_geom.full_range, error)) {
    g_free (trace_file);
    return FALSE;
  }
  p->alines = filter->in_geom.alines;
  p->samples = filter->in_geom.samples;
  p->bscans = filter->in_geom.bscans;
  p->crop_start = start;
  p->crop_end = end;
  p->gray16 = format == GST_VIDEO_FORMAT_GRAY16_LE;
  /* a new baseline, unwrapping and count after caps */
  self->baseline_in_use = 0;
  self->bscans = 0;
  if (!read_live (self, &l, error)) {
    g_free (trace_file);
    return FALSE;
  }
  self->baseline_in_use = 0;
  /* the trace file stays open over a caps change: one file per run */
  if (trace_file && *trace_file && self->trace == NULL) {
    self->trace = g_fopen (trace_file, "w");
    if (self->trace == NULL) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "aooctorg: cannot write trace-file \"%s\": %s", trace_file,
          g_strerror (errno));
      g_free (trace_file);
      return FALSE;
    }
    self->trace_path = g_strdup (trace_file);
    self->trace_error = FALSE;
  }
  g_free (trace_file);
  self->settings.self = self;
  GST_DEBUG_OBJECT (self, "crop [%d, %d), search [%d, %d), second layer "
      "+[%d, %d], history %d", start, end, p->lp.search_start,
      p->lp.search_end, p->second_min, p->second_max, p->history);
  *settings = &self->settings;
  return TRUE;
}

static gboolean
gst_aooct_org_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctOrg *self = GST_AOOCT_ORG (filter);

  if (!read_live (self, &self->live, error))
    return FALSE;
  *live = &self->live;
  return TRUE;
}

static void
gst_aooct_org_teardown (GstAooctFilter * filter)
{
  GstAooctOrg *self = GST_AOOCT_ORG (filter);

  GST_OBJECT_LOCK (self);
  self->cuda_plan = NULL;
  self->cuda_ctx = NULL;
  GST_OBJECT_UNLOCK (self);
  g_queue_clear_full (&self->tags, g_free);
}

/* the pts of the buffer the step gets next, for its trace */
static void
gst_aooct_org_before_transform (GstBaseTransform * bt, GstBuffer * buf)
{
  GST_AOOCT_ORG (bt)->pts = GST_BUFFER_PTS (buf);
  GST_BASE_TRANSFORM_CLASS (parent_class)->before_transform (bt, buf);
}

static gboolean
gst_aooct_org_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstAooctOrg *self = GST_AOOCT_ORG (bt);

#ifdef HAVE_CUDA
  /* every trace of what came before is posted before EOS, and before the
   * B-scans after a flush start counting again */
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS
      || GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    gpointer plan, ctx;
    GError *error = NULL;

    GST_OBJECT_LOCK (self);
    plan = self->cuda_plan;
    ctx = self->cuda_ctx;
    GST_OBJECT_UNLOCK (self);
    if (plan && ctx && CuCtxPushCurrent (ctx) == CUDA_SUCCESS) {
      if (!aooct_cuda_org_poll (plan, TRUE, &error)) {
        gst_aooct_filter_post_error (GST_AOOCT_FILTER (self), error);
        g_error_free (error);
      }
      CuCtxPopCurrent (NULL);
    }
  }
#endif
  /* the step's reset starts a new baseline; the count with it */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    self->bscans = 0;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static gboolean
gst_aooct_org_stop (GstBaseTransform * bt)
{
  gboolean ok = GST_BASE_TRANSFORM_CLASS (parent_class)->stop (bt);

  close_trace (GST_AOOCT_ORG (bt));
  return ok;
}

/* ---- properties ------------------------------------------------------- */

static void
gst_aooct_org_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctOrg *self = GST_AOOCT_ORG (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CROP_START:
      self->crop_start = g_value_get_int (value);
      break;
    case PROP_CROP_END:
      self->crop_end = g_value_get_int (value);
      break;
    case PROP_LAYER_SEARCH_START:
      self->search_start = g_value_get_int (value);
      break;
    case PROP_LAYER_SEARCH_END:
      self->search_end = g_value_get_int (value);
      break;
    case PROP_LAYER_RANGE:
      self->layer_range = g_value_get_int (value);
      break;
    case PROP_LAYER_SMOOTH:
      self->layer_smooth = g_value_get_int (value);
      break;
    case PROP_SECOND_LAYER_MIN:
      self->second_min = g_value_get_int (value);
      break;
    case PROP_SECOND_LAYER_MAX:
      self->second_max = g_value_get_int (value);
      break;
    case PROP_DEPTH_WINDOW:
      self->depth_window = g_value_get_int (value);
      break;
    case PROP_THRESHOLD:
      self->threshold = g_value_get_double (value);
      break;
    case PROP_BASELINE:
      self->baseline = g_value_get_int (value);
      break;
    case PROP_CENTER_WAVELENGTH:
      self->center_wavelength = g_value_get_double (value);
      break;
    case PROP_SIGN:
      self->sign = g_value_get_enum (value);
      break;
    case PROP_OPL_RANGE:
      self->opl_range = g_value_get_double (value);
      break;
    case PROP_HISTORY:
      self->history = g_value_get_int (value);
      break;
    case PROP_TRACE_FILE:
      g_free (self->trace_file);
      self->trace_file = g_value_dup_string (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_org_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctOrg *self = GST_AOOCT_ORG (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CROP_START:
      g_value_set_int (value, self->crop_start);
      break;
    case PROP_CROP_END:
      g_value_set_int (value, self->crop_end);
      break;
    case PROP_LAYER_SEARCH_START:
      g_value_set_int (value, self->search_start);
      break;
    case PROP_LAYER_SEARCH_END:
      g_value_set_int (value, self->search_end);
      break;
    case PROP_LAYER_RANGE:
      g_value_set_int (value, self->layer_range);
      break;
    case PROP_LAYER_SMOOTH:
      g_value_set_int (value, self->layer_smooth);
      break;
    case PROP_SECOND_LAYER_MIN:
      g_value_set_int (value, self->second_min);
      break;
    case PROP_SECOND_LAYER_MAX:
      g_value_set_int (value, self->second_max);
      break;
    case PROP_DEPTH_WINDOW:
      g_value_set_int (value, self->depth_window);
      break;
    case PROP_THRESHOLD:
      g_value_set_double (value, self->threshold);
      break;
    case PROP_BASELINE:
      g_value_set_int (value, self->baseline);
      break;
    case PROP_CENTER_WAVELENGTH:
      g_value_set_double (value, self->center_wavelength);
      break;
    case PROP_SIGN:
      g_value_set_enum (value, self->sign);
      break;
    case PROP_OPL_RANGE:
      g_value_set_double (value, self->opl_range);
      break;
    case PROP_HISTORY:
      g_value_set_int (value, self->history);
      break;
    case PROP_TRACE_FILE:
      g_value_set_string (value, self->trace_file);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_org_finalize (GObject * object)
{
  GstAooctOrg *self = GST_AOOCT_ORG (object);

  close_trace (self);
  g_free (self->trace_file);
  g_queue_clear_full (&self->tags, g_free);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
install_int (GObjectClass * klass, guint id, const gchar * name,
    const gchar * nick, const gchar * blurb, gint min, gint max, gint def,
    GParamFlags flags)
{
  g_object_class_install_property (klass, id, g_param_spec_int (name, nick,
          blurb, min, max, def, flags));
}

static void
gst_aooct_org_class_init (GstAooctOrgClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;

  gobject_class->set_property = gst_aooct_org_set_property;
  gobject_class->get_property = gst_aooct_org_get_property;
  gobject_class->finalize = gst_aooct_org_finalize;

  /**
   * GstAooctOrg:crop-start:
   *
   * First depth bin where the layers may lie, as aooctnorm's crop;
   * signed on full-range input
   */
  install_int (gobject_class, PROP_CROP_START, "crop-start", "Crop start",
      "First depth bin where the layers may lie, as aooctnorm's: 0 .. "
      "crop-end - 1, default 0; signed on full-range input",
      -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0, ready);
  /**
   * GstAooctOrg:crop-end:
   *
   * Depth bin after the last one where the layers may lie; 0 (default) =
   * half the first FFT size (pad-size / 2)
   */
  install_int (gobject_class, PROP_CROP_END, "crop-end", "Crop end",
      "Depth bin after the last one where the layers may lie; 0 (default) "
      "= half the first FFT size (pad-size / 2)", 0, AOOCT_MAX_SAMPLES, 0,
      ready);
  /**
   * GstAooctOrg:layer-search-start:
   *
   * First depth bin where the first layer (z1) is searched; inside the
   * crop; 0 (default) = the crop's start
   */
  install_int (gobject_class, PROP_LAYER_SEARCH_START, "layer-search-start",
      "Layer search start", "First depth bin where the first layer (z1) is "
      "searched; inside the crop; 0 (default) = the crop's start",
      -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0, ready);
  /**
   * GstAooctOrg:layer-search-end:
   *
   * Depth bin after the last one searched for the first layer; inside the
   * crop; 0 (default) = the crop's end
   */
  install_int (gobject_class, PROP_LAYER_SEARCH_END, "layer-search-end",
      "Layer search end", "Depth bin after the last one searched for the "
      "first layer; inside the crop; 0 (default) = the crop's end",
      -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0, ready);
  /**
   * GstAooctOrg:layer-range:
   *
   * Depth bins each A-line's first layer may lie above or below the
   * B-scan's brightest depth; default 8
   */
  install_int (gobject_class, PROP_LAYER_RANGE, "layer-range", "Layer range",
      "Depth bins each A-line's first layer may lie above or below the "
      "B-scan's brightest depth; 0 .. 65536, default 8", 0, 65536,
      AOOCT_LAYER_DEFAULT_RANGE, ready);
  /**
   * GstAooctOrg:layer-smooth:
   *
   * A-lines over which the intensity is averaged laterally before the
   * layers are found; default 5
   */
  install_int (gobject_class, PROP_LAYER_SMOOTH, "layer-smooth",
      "Layer smoothing", "A-lines over which the intensity is averaged "
      "laterally before the layers are found (floor (smooth/2) on each "
      "side); 1 .. 65536, default 5", 1, AOOCT_MAX_ALINES,
      AOOCT_LAYER_DEFAULT_SMOOTH, ready);
  /**
   * GstAooctOrg:second-layer-min:
   *
   * Depth bins below the first layer where the second layer's window
   * starts (<= second-layer-max); default 10
   */
  install_int (gobject_class, PROP_SECOND_LAYER_MIN, "second-layer-min",
      "Second layer min", "Depth bins below the first layer where the "
      "second layer's window starts (<= second-layer-max); default 10",
      -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, AOOCT_ORG_DEFAULT_SECOND_MIN,
      ready);
  /**
   * GstAooctOrg:second-layer-max:
   *
   * Depth bins below the first layer where the second layer's window ends
   * (inclusive); default 30
   */
  install_int (gobject_class, PROP_SECOND_LAYER_MAX, "second-layer-max",
      "Second layer max", "Depth bins below the first layer where the "
      "second layer's window ends (inclusive); default 30",
      -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, AOOCT_ORG_DEFAULT_SECOND_MAX,
      ready);
  /**
   * GstAooctOrg:depth-window:
   *
   * Depth bins (odd) around each layer summed into its phase; default 3
   */
  install_int (gobject_class, PROP_DEPTH_WINDOW, "depth-window",
      "Depth window", "Depth bins (odd) around each layer whose products "
      "are summed into the phase; default 3", 0, 1023,
      AOOCT_ORG_DEFAULT_DEPTH_WINDOW, live);
  /**
   * GstAooctOrg:threshold:
   *
   * An A-line is valid when both layers lie within this many dB of the
   * B-scan's brightest; 0 = every A-line; default 20
   */
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_double ("threshold", "Threshold", "dB: an A-line is "
          "valid when both layers lie within this many dB of the B-scan's "
          "brightest; 0 = every A-line; 0 .. 1000, default 20", 0.0, 1000.0,
          AOOCT_ORG_DEFAULT_THRESHOLD, live));
  /**
   * GstAooctOrg:baseline:
   *
   * B-scans at the start (and after a flush or caps) whose mean phase is
   * the reference; >= 1, default 10; a change while playing starts a new
   * baseline
   */
  install_int (gobject_class, PROP_BASELINE, "baseline", "Baseline",
      "B-scans at the start (and after a flush or new caps) whose mean "
      "phase is the reference; >= 1, default 10; a change while playing "
      "starts a new baseline at the next B-scan", 0, G_MAXINT,
      AOOCT_ORG_DEFAULT_BASELINE, live);
  /**
   * GstAooctOrg:center-wavelength:
   *
   * lambda0 in nm for the OPL scale (dOPL = lambda0 u / (4 pi)); 0
   * (default) = radians
   */
  g_object_class_install_property (gobject_class, PROP_CENTER_WAVELENGTH,
      g_param_spec_double ("center-wavelength", "Centre wavelength",
          "lambda0 in nm for the OPL scale (dOPL = lambda0 u / (4 pi)); "
          "0 (default) = the phase in radians", 0.0, 1e6, 0.0, live));
  /**
   * GstAooctOrg:sign:
   *
   * sigma, so that elongation is positive: from the caps' wavelength
   * direction (auto), or set
   */
  g_object_class_install_property (gobject_class, PROP_SIGN,
      g_param_spec_enum ("sign", "Sign", "sigma, so that a longer path "
          "from layer 1 to layer 2 is positive: auto (from the caps' "
          "wavelength direction), positive or negative",
          GST_TYPE_AOOCT_ORG_SIGN, AOOCT_ORG_SIGN_AUTO, live));
  /**
   * GstAooctOrg:opl-range:
   *
   * OPL change at the kymograph's white (grey 255; -range at 1), in nm
   * (radians without center-wavelength); 0 (default) = 300 nm or pi
   */
  g_object_class_install_property (gobject_class, PROP_OPL_RANGE,
      g_param_spec_double ("opl-range", "OPL range", "OPL change at the "
          "kymograph's white (grey 255; -range at 1), in nm (radians "
          "without center-wavelength); 0 (default) = 300 nm, or pi", 0.0,
          1e9, 0.0, live));
  /**
   * GstAooctOrg:history:
   *
   * Rows of the kymograph (B-scans shown, newest at the bottom)
   */
  install_int (gobject_class, PROP_HISTORY, "history", "History",
      "Rows of the kymograph (B-scans shown, newest at the bottom); 1 .. "
      "65535, default 256", 1, 65535, AOOCT_ORG_DEFAULT_HISTORY, ready);
  /**
   * GstAooctOrg:trace-file:
   *
   * Text file of the trace, a line `bscan pts_seconds mean std valid` per
   * B-scan, written as they pass; NULL = none
   */
  g_object_class_install_property (gobject_class, PROP_TRACE_FILE,
      g_param_spec_string ("trace-file", "Trace file", "Text file of the "
          "trace, a line 'bscan pts_seconds mean std valid' per B-scan, "
          "written as they pass; empty = none", NULL, ready));
  /**
   * GstAooctOrg:post-messages:
   *
   * Post the trace of every B-scan as an element message "aooct-org"
   */
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages", "Post the "
          "trace of every B-scan as an element message 'aooct-org' (bscan, "
          "mean, std, valid, pts)", TRUE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT optoretinography", "Filter/Analyzer/Video",
      "OPL change between two retinal layers of repeated depth-domain "
      "B-scans: a trace per B-scan and a scrolling kymograph",
      "aooct developers");

  filter_class->cuda_video_formats = cuda_video_formats;
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, "video/x-raw, format = (string) { GRAY8, "
      "GRAY16_LE }, width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], "
      "framerate = (fraction) [ 0/1, MAX ]");
  filter_class->src_is_video = TRUE;
  filter_class->derive_output = GST_DEBUG_FUNCPTR (gst_aooct_org_derive);
  filter_class->output_caps = GST_DEBUG_FUNCPTR (gst_aooct_org_output_caps);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_org_setup);
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_org_live);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_org_teardown);
  filter_class->cpu_ops = &org_cpu;
  filter_class->cuda_ops = ORG_CUDA;
  filter_class->cuda_stage = 3;
  bt_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_aooct_org_before_transform);
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_aooct_org_sink_event);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_aooct_org_stop);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_ORG_SIGN, 0);
}

static void
gst_aooct_org_init (GstAooctOrg * self)
{
  self->layer_range = AOOCT_LAYER_DEFAULT_RANGE;
  self->layer_smooth = AOOCT_LAYER_DEFAULT_SMOOTH;
  self->second_min = AOOCT_ORG_DEFAULT_SECOND_MIN;
  self->second_max = AOOCT_ORG_DEFAULT_SECOND_MAX;
  self->depth_window = AOOCT_ORG_DEFAULT_DEPTH_WINDOW;
  self->threshold = AOOCT_ORG_DEFAULT_THRESHOLD;
  self->baseline = AOOCT_ORG_DEFAULT_BASELINE;
  self->history = AOOCT_ORG_DEFAULT_HISTORY;
  self->post_messages = TRUE;
  self->pts = GST_CLOCK_TIME_NONE;
  g_queue_init (&self->tags);
}
