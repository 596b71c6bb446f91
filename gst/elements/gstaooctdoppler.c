/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctdoppler
 * @title: aooctdoppler
 * @short_description: phase-resolved (Kasai) Doppler
 *
 * Flow from the phase of the depth-domain complex signal (spec section
 * 12): takes aooctfft's (or aooctcs's) output, real or full-range, and
 * makes one image per B-scan in aooctnorm's orientation (one row per depth
 * bin of the crop, one column per A-line) of the phase shift dphi between
 * A-lines `lag` apart, from the autocorrelation
 * C = sum X[a+lag] conj (X[a]) over a window of `aline-window` A-lines by
 * `depth-window` depth bins.  GRAY8 (or GRAY16_LE) maps dphi in
 * (-pi, pi] to 0 .. 255 with 128 for no flow; RGBA shows positive shifts
 * in red and negative ones in blue.  Pixels whose window-mean intensity
 * lies more than `threshold` dB below the brightest pixel of the B-scan
 * show no flow; `bulk-correction` removes each column's common phase
 * (bulk motion, and the carrier of a full-range chain).
 *
 * An axial velocity v gives dphi = 4 pi n v lag T / lambda0 (T the A-line
 * period).  With `line-rate` and `center-wavelength` set, the element
 * posts an element message "aooct-doppler" with the double velocity-max,
 * the velocity in mm/s at dphi = pi, after caps and whenever they,
 * `refractive-index` or `lag` change.
 *
 * Every property but the crop may be changed while playing.  Doppler is
 * best after aooctdcsub mode=background (a mean-A-line DC subtraction
 * leaves a static ghost of any reflector common to the B-scan).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=200 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! aooctdisp ! \
 *     aooctfft ! aooctdoppler line-rate=100000 center-wavelength=840 ! \
 *     video/x-raw,format=RGBA ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstaooctdoppler.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-flow-props.h"
#include "aooct-cpu-doppler.h"
#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-doppler.h"
#endif


GST_DEBUG_CATEGORY_STATIC (gst_aooct_doppler_debug);
#define GST_CAT_DEFAULT gst_aooct_doppler_debug

struct _GstAooctDoppler
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  AooctFlowProps props;
  gint lag;
  gboolean bulk_correction;
  gdouble line_rate, center_wavelength, refractive_index;

  /* from setup() */
  AooctFlowParams params;       /* what the cores are made for */
  /* streaming thread */
  AooctDopplerSettings live;    /* this buffer's */
  gdouble posted_velocity;      /* velocity-max last posted, 0 = none */
};

enum
{
  PROP_0,
  PROP_LAG,
  PROP_BULK_CORRECTION,
  PROP_LINE_RATE,
  PROP_CENTER_WAVELENGTH,
  PROP_REFRACTIVE_INDEX,
  PROP_FLOW,                    /* .. the AOOCT_FLOW_N_PROPS shared ones */
};

#define DEFAULT_REFRACTIVE_INDEX 1.38

#define gst_aooct_doppler_parent_class parent_class
G_DEFINE_TYPE (GstAooctDoppler, gst_aooct_doppler, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctdoppler, "aooctdoppler",
    GST_RANK_NONE, GST_TYPE_AOOCT_DOPPLER,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_doppler_debug, "aooctdoppler", 0,
        "aooct phase-resolved Doppler"));

/* what aooct-flow-props.c does for it */
static const AooctFlowClassInfo doppler_info = {
  .element = "aooctdoppler",
  /* GRAY8 first: what a display gets unless it asks for more */
  .formats = "GRAY8, GRAY16_LE, RGBA",
  .rgba_map = TRUE,
  .aline_window = AOOCT_DOPPLER_DEFAULT_ALINE_WINDOW,
  .image = "B-scan",
  .props = G_STRUCT_OFFSET (GstAooctDoppler, props),
  .first = PROP_FLOW,
  .own = {
        {PROP_LAG, G_STRUCT_OFFSET (GstAooctDoppler, lag)},
        {PROP_BULK_CORRECTION,
            G_STRUCT_OFFSET (GstAooctDoppler, bulk_correction)},
        {PROP_LINE_RATE, G_STRUCT_OFFSET (GstAooctDoppler, line_rate)},
        {PROP_CENTER_WAVELENGTH,
            G_STRUCT_OFFSET (GstAooctDoppler, center_wavelength)},
        {PROP_REFRACTIVE_INDEX,
            G_STRUCT_OFFSET (GstAooctDoppler, refractive_index)},
      {0, 0}}
};

/* ---- the step on both backends (aooct-step.h) ------------------------ */

AOOCT_STEP_FORWARD_PLAN_NEW (doppler_cpu_plan_new,
    aooct_cpu_doppler_plan_new (settings));

static gboolean
doppler_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  aooct_cpu_doppler_execute (plan, run->live, (const gfloat *) in->data,
      out->data, out->stride);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (doppler_cpu_plan_free, aooct_cpu_doppler_plan_free);

static const AooctStepOps doppler_cpu = { doppler_cpu_plan_new,
  doppler_cpu_execute, doppler_cpu_plan_free, NULL, NULL
};

#ifdef HAVE_CUDA
AOOCT_STEP_FORWARD_PLAN_NEW (doppler_cuda_plan_new,
    aooct_cuda_doppler_plan_new (settings, error));

static gboolean
doppler_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  return aooct_cuda_doppler_execute (plan, run->live,
      (const gfloat *) in->data, out->data, out->stride, run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (doppler_cuda_plan_free,
    aooct_cuda_doppler_plan_free);

/* the kernels' arguments are the planes and this buffer's settings */
G_STATIC_ASSERT (sizeof (AooctDopplerSettings) <= AOOCT_STEP_GRAPH_KEY);

static gssize
doppler_cuda_graph_key (gpointer plan, const AooctStepRun * run, guint8 * key)
{
  const AooctDopplerSettings *s = run->live;
  AooctDopplerSettings k;

  /* field by field into a zeroed copy: padding bytes compare equal */
  memset (&k, 0, sizeof (k));
  k.lag = s->lag;
  k.aline_window = s->aline_window;
  k.depth_window = s->depth_window;
  k.threshold = s->threshold;
  k.bulk_correction = s->bulk_correction;
  memcpy (key, &k, sizeof (k));
  return sizeof (k);
}

static const AooctStepOps doppler_cuda = { doppler_cuda_plan_new,
  doppler_cuda_execute, doppler_cuda_plan_free, NULL, NULL,
  doppler_cuda_graph_key
};

#define DOPPLER_CUDA (&doppler_cuda)
#else
#define DOPPLER_CUDA NULL
#endif

/* This buffer's settings; FALSE with @error naming the property when the
 * spec forbids them. */
static gboolean
read_settings (GstAooctDoppler * self, AooctDopplerSettings * s,
    GError ** error)
{
  GST_OBJECT_LOCK (self);
  s->lag = self->lag;
  s->aline_window = self->props.aline_window;
  s->depth_window = self->props.depth_window;
  s->threshold = self->props.threshold;
  s->bulk_correction = self->bulk_correction;
  GST_OBJECT_UNLOCK (self);
  return aooct_doppler_settings_check (s,
      GST_AOOCT_FILTER (self)->in_geom.alines, error);
}

/* The "aooct-doppler" message when the velocity scale is known and not
 * yet posted with this value. */
static void
announce_velocity (GstAooctDoppler * self, gint lag)
{
  gdouble v;

  GST_OBJECT_LOCK (self);
  v = aooct_doppler_velocity_max (self->line_rate, self->center_wavelength,
      self->refractive_index, lag);
  GST_OBJECT_UNLOCK (self);
  if (v <= 0 || v == self->posted_velocity)
    return;
  self->posted_velocity = v;
  GST_INFO_OBJECT (self, "velocity at dphi = pi: %.6g mm/s", v);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_structure_new ("aooct-doppler", "velocity-max", G_TYPE_DOUBLE,
              v, NULL)));
}

static gboolean
gst_aooct_doppler_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctDoppler *self = GST_AOOCT_DOPPLER (filter);
  AooctFlowParams *p = &self->params;
  AooctDopplerSettings s;

  if (!aooct_flow_output_format (filter, &p->format, error)
      || !read_settings (self, &s, error)
      || !aooct_flow_params (filter, p, error))
    return FALSE;
  p->repeats = 1;
  GST_DEBUG_OBJECT (self, "crop [%d, %d), %s", p->crop_start,
      p->crop_start + p->rows, GST_VIDEO_INFO_NAME (&filter->out_vinfo));
  /* the scale once after caps */
  self->posted_velocity = 0;
  announce_velocity (self, s.lag);
  *settings = p;
  return TRUE;
}

/* every setting but the crop may change while playing */
static gboolean
gst_aooct_doppler_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctDoppler *self = GST_AOOCT_DOPPLER (filter);

  if (!read_settings (self, &self->live, error))
    return FALSE;
  announce_velocity (self, self->live.lag);
  *live = &self->live;
  return TRUE;
}

static void
gst_aooct_doppler_class_init (GstAooctDopplerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;

  aooct_flow_class_init (filter_class, &doppler_info);

  /**
   * GstAooctDoppler:lag:
   *
   * L: the phase shift is taken between A-lines L apart; 1 .. A-lines - 1
   * (checked against the caps), default 1
   */
  g_object_class_install_property (gobject_class, PROP_LAG,
      g_param_spec_int ("lag", "Lag",
          "L: the phase shift is taken between A-lines L apart; 1 .. "
          "A-lines - 1 (checked against the caps), default 1", 1,
          AOOCT_MAX_ALINES, AOOCT_DOPPLER_DEFAULT_LAG, live));
  /**
   * GstAooctDoppler:bulk-correction:
   *
   * Remove each column's common phase (the sum of its unmasked
   * autocorrelations): bulk motion, and the carrier of a full-range chain
   */
  g_object_class_install_property (gobject_class, PROP_BULK_CORRECTION,
      g_param_spec_boolean ("bulk-correction", "Bulk correction",
          "Remove each column's common phase (the sum of its unmasked "
          "autocorrelations): bulk motion, and the carrier of a full-range "
          "chain", FALSE, live));
  /**
   * GstAooctDoppler:line-rate:
   *
   * A-lines per second of the camera, for the velocity scale only
   * (message aooct-doppler); 0 = unknown (default)
   */
  g_object_class_install_property (gobject_class, PROP_LINE_RATE,
      g_param_spec_double ("line-rate", "Line rate",
          "A-lines per second of the camera, for the velocity scale only "
          "(message aooct-doppler); 0 = unknown (default)", 0.0, 1e9, 0.0,
          live));
  /**
   * GstAooctDoppler:center-wavelength:
   *
   * Power-weighted mean wavelength of the source in nm, for the velocity
   * scale only; 0 = unknown (default)
   */
  g_object_class_install_property (gobject_class, PROP_CENTER_WAVELENGTH,
      g_param_spec_double ("center-wavelength", "Centre wavelength",
          "Power-weighted mean wavelength of the source in nm, for the "
          "velocity scale only; 0 = unknown (default)", 0.0, 1e6, 0.0, live));
  /**
   * GstAooctDoppler:refractive-index:
   *
   * Group refractive index n of the sample, for the velocity scale only;
   * 0.01 .. 100, default 1.38
   */
  g_object_class_install_property (gobject_class, PROP_REFRACTIVE_INDEX,
      g_param_spec_double ("refractive-index", "Refractive index",
          "Group refractive index n of the sample, for the velocity scale "
          "only; 0.01 .. 100, default 1.38", 0.01, 100.0,
          DEFAULT_REFRACTIVE_INDEX, live));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT phase-resolved Doppler", "Filter/Converter/Video",
      "Phase shift between A-lines (Kasai autocorrelation) of depth-domain "
      "OCT B-scans, as a flow image", "aooct developers");

  filter_class->src_is_video = TRUE;
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_doppler_setup);
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_doppler_live);
  filter_class->cpu_ops = &doppler_cpu;
  filter_class->cuda_ops = DOPPLER_CUDA;
#ifdef HAVE_CUDA
  /* only kernels and a memset on the stream: capturable */
  filter_class->cuda_graphs = TRUE;
#endif
}

static void
gst_aooct_doppler_init (GstAooctDoppler * self)
{
  aooct_flow_props_init (&self->props, AOOCT_DOPPLER_DEFAULT_ALINE_WINDOW);
  self->lag = AOOCT_DOPPLER_DEFAULT_LAG;
  self->refractive_index = DEFAULT_REFRACTIVE_INDEX;
}
