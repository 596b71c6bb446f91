/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctangio
 * @title: aooctangio
 * @short_description: angiography from repeated B-scans
 *
 * Flow from the speckle of the depth-domain complex signal (spec section
 * 12): the scanner acquires each B-scan position `repeats` (N) times in a
 * row, and every group of N consecutive B-scans (counted from the first
 * after start, a flush or new caps) makes one image in aooctnorm's
 * orientation, with the timestamp of the group's first B-scan.
 * `method=decorrelation` (default) is the full-spectrum amplitude
 * decorrelation of SSADA (Jia et al. 2012): 1 - the mean over the pairs of
 * consecutive repeats of A_n A_n+1 / (0.5 (A_n^2 + A_n+1^2)), averaged
 * over a window of `aline-window` x `depth-window`, shown as
 * D / `decorrelation-max` (fully decorrelated speckle gives 0.215 on
 * average); `method=speckle-variance` (Mariampillai et al. 2008) is the
 * variance over the repeats of each pixel's intensity in dB, shown as
 * SV / `variance-max` (dB^2; 0 = the image's maximum).  Pixels whose mean
 * intensity lies more than `threshold` dB below the brightest pixel of the
 * image are black.
 *
 * A partial group at EOS makes no image (a warning says how many B-scans
 * were dropped), nor does one before new caps or a flush.  After a
 * flushing seek the groups start where they start in the stream: the
 * first group begins at the first B-scan whose index (its stream time
 * over a B-scan's duration) is a multiple of N, the B-scans before it
 * skipped with a warning; without timestamps a warning says that the
 * images may mix two positions.  The structure
 * image of the same group is aooctnorm average-bscans=N on the group's
 * last B-scan: `tee` before aooctangio.  Every property but `repeats` and
 * the crop may be changed while playing (from the next image on).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=400 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! aooctdisp ! \
 *     aooctfft ! aooctangio repeats=4 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctangio.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-flow-props.h"
#include "aooct-cpu-angio.h"
#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-angio.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_angio_debug);
#define GST_CAT_DEFAULT gst_aooct_angio_debug

/* The live part of a run: what execute() is asked for (collect or
 * emit) and, to emit, this image's settings. */
typedef struct
{
  const AooctGroupCall *call;
  AooctAngioSettings s;
} AngioLive;

struct _GstAooctAngio
{
  GstAooctGroup parent;

  /* properties, under the object lock */
  AooctFlowProps props;
  gint repeats;
  AooctAngioMethod method;
  gdouble decorrelation_max, variance_max;

  /* from setup() */
  AooctFlowParams params;       /* what the cores are made for */
  AngioLive live;               /* streaming thread */
};

enum
{
  PROP_0,
  PROP_REPEATS,
  PROP_METHOD,
  PROP_DECORRELATION_MAX,
  PROP_VARIANCE_MAX,
  PROP_FLOW,                    /* .. the AOOCT_FLOW_N_PROPS shared ones */
};

#define GST_TYPE_AOOCT_ANGIO_METHOD (gst_aooct_angio_method_get_type ())
static GType
gst_aooct_angio_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_ANGIO_DECORRELATION, "Full-spectrum amplitude decorrelation "
          "(SSADA)", "decorrelation"},
    {AOOCT_ANGIO_SPECKLE_VARIANCE, "Variance of the intensity in dB over "
          "the repeats", "speckle-variance"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctAngioMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_angio_parent_class parent_class
G_DEFINE_TYPE (GstAooctAngio, gst_aooct_angio, GST_TYPE_AOOCT_GROUP);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctangio, "aooctangio",
    GST_RANK_NONE, GST_TYPE_AOOCT_ANGIO,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_angio_debug, "aooctangio", 0,
        "aooct angiography"));

/* what aooct-flow-props.c does for it */
G_STATIC_ASSERT (sizeof (AooctAngioMethod) == sizeof (gint));
static const AooctFlowClassInfo angio_info = {
  .element = "aooctangio",
  .formats = "GRAY8, GRAY16_LE",
  .rgba_map = FALSE,
  .aline_window = AOOCT_ANGIO_DEFAULT_ALINE_WINDOW,
  .image = "image",
  .props = G_STRUCT_OFFSET (GstAooctAngio, props),
  .first = PROP_FLOW,
  .own = {
        {PROP_REPEATS, G_STRUCT_OFFSET (GstAooctAngio, repeats)},
        {PROP_METHOD, G_STRUCT_OFFSET (GstAooctAngio, method)},
        {PROP_DECORRELATION_MAX,
            G_STRUCT_OFFSET (GstAooctAngio, decorrelation_max)},
        {PROP_VARIANCE_MAX, G_STRUCT_OFFSET (GstAooctAngio, variance_max)},
      {0, 0}}
};

/* the flow elements' output, one image per group of N B-scans */
static gboolean
gst_aooct_angio_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctAngio *self = GST_AOOCT_ANGIO (filter);
  gint n;

  GST_OBJECT_LOCK (self);
  n = self->repeats;
  GST_OBJECT_UNLOCK (self);
  if (!aooct_flow_derive (filter, in, out, error))
    return FALSE;
  out->bscans = 1;
  gst_aooct_group_rate (in, n, out);
  return TRUE;
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

AOOCT_STEP_FORWARD_PLAN_NEW (angio_cpu_plan_new,
    aooct_cpu_angio_plan_new (settings));

static gboolean
angio_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AngioLive *live = run->live;

  if (live->call->count > 0)
    aooct_cpu_angio_execute_collect (plan, (const gfloat *) (in->data +
            live->call->in_row * in->stride), live->call->first,
        live->call->count);
  else
    aooct_cpu_angio_execute_emit (plan, &live->s, out->data, out->stride);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (angio_cpu_plan_free, aooct_cpu_angio_plan_free);

static const AooctStepOps angio_cpu = { angio_cpu_plan_new, angio_cpu_execute,
  angio_cpu_plan_free, NULL, NULL
};

#ifdef HAVE_CUDA
AOOCT_STEP_FORWARD_PLAN_NEW (angio_cuda_plan_new,
    aooct_cuda_angio_plan_new (settings, error));

static gboolean
angio_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const AngioLive *live = run->live;

  if (live->call->count > 0)
    return aooct_cuda_angio_execute_collect (plan, (const gfloat *) (in->data +
            live->call->in_row * in->stride), live->call->first,
        live->call->count, run->stream, error);
  return aooct_cuda_angio_execute_emit (plan, &live->s, out->data, out->stride,
      run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (angio_cuda_plan_free, aooct_cuda_angio_plan_free);

static const AooctStepOps angio_cuda = { angio_cuda_plan_new,
  angio_cuda_execute, angio_cuda_plan_free, NULL, NULL
};

#define ANGIO_CUDA (&angio_cuda)
#else
#define ANGIO_CUDA NULL
#endif

static gboolean
read_settings (GstAooctAngio * self, AooctAngioSettings * s, GError ** error)
{
  GST_OBJECT_LOCK (self);
  s->method = self->method;
  s->aline_window = self->props.aline_window;
  s->depth_window = self->props.depth_window;
  s->threshold = self->props.threshold;
  s->decorrelation_max = self->decorrelation_max;
  s->variance_max = self->variance_max;
  GST_OBJECT_UNLOCK (self);
  return aooct_angio_settings_check (s, error);
}

static gboolean
gst_aooct_angio_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctAngio *self = GST_AOOCT_ANGIO (filter);
  AooctFlowParams *p = &self->params;
  AooctAngioSettings s;

  if (!aooct_flow_output_format (filter, &p->format, error)
      || !read_settings (self, &s, error)
      || !aooct_flow_params (filter, p, error))
    return FALSE;
  GST_OBJECT_LOCK (self);
  p->repeats = self->repeats;
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "N=%d, crop [%d, %d), %s", p->repeats,
      p->crop_start, p->crop_start + p->rows,
      GST_VIDEO_INFO_NAME (&filter->out_vinfo));
  *settings = p;
  return TRUE;
}

/* collect or emit; the settings are read for each image */
static gboolean
gst_aooct_angio_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctAngio *self = GST_AOOCT_ANGIO (filter);

  self->live.call = gst_aooct_group_call (GST_AOOCT_GROUP (self));
  *live = &self->live;
  if (self->live.call->count > 0)
    return TRUE;
  return read_settings (self, &self->live.s, error);
}

static gint
gst_aooct_angio_group_size (GstAooctGroup * group)
{
  return GST_AOOCT_ANGIO (group)->params.repeats;
}

static void
gst_aooct_angio_class_init (GstAooctAngioClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);
  GstAooctGroupClass *group_class = GST_AOOCT_GROUP_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;

  aooct_flow_class_init (filter_class, &angio_info);

  /**
   * GstAooctAngio:repeats:
   *
   * N: B-scans acquired at each position in a row; each group of N makes
   * one image; 2 .. 64, default 4
   */
  g_object_class_install_property (gobject_class, PROP_REPEATS,
      g_param_spec_int ("repeats", "Repeats",
          "N: B-scans acquired at each position in a row; each group of N "
          "makes one image; 2 .. 64, default 4", 2, 64,
          AOOCT_ANGIO_DEFAULT_REPEATS, ready));
  /**
   * GstAooctAngio:method:
   *
   * What the image shows: amplitude decorrelation (SSADA) or speckle
   * variance
   */
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "What the image shows: amplitude decorrelation (SSADA) or speckle "
          "variance", GST_TYPE_AOOCT_ANGIO_METHOD, AOOCT_ANGIO_DECORRELATION,
          live));
  /**
   * GstAooctAngio:decorrelation-max:
   *
   * Decorrelation shown white (method=decorrelation; fully decorrelated
   * speckle gives 0.215 on average); 1e-6 .. 1e6, default 0.25
   */
  g_object_class_install_property (gobject_class, PROP_DECORRELATION_MAX,
      g_param_spec_double ("decorrelation-max", "Decorrelation maximum",
          "Decorrelation shown white (method=decorrelation; fully "
          "decorrelated speckle gives 0.215 on average); 1e-6 .. 1e6, "
          "default 0.25", 1e-6, 1e6, AOOCT_ANGIO_DEFAULT_DECORRELATION_MAX,
          live));
  /**
   * GstAooctAngio:variance-max:
   *
   * Speckle variance shown white, in dB^2 (method=speckle-variance; fully
   * developed speckle gives about 30); 0 = the image's maximum; 0 .. 1e6,
   * default 30
   */
  g_object_class_install_property (gobject_class, PROP_VARIANCE_MAX,
      g_param_spec_double ("variance-max", "Variance maximum",
          "Speckle variance shown white, in dB^2 (method=speckle-variance; "
          "fully developed speckle gives about 30); 0 = the image's maximum; "
          "0 .. 1e6, default 30", 0.0, 1e6, AOOCT_ANGIO_DEFAULT_VARIANCE_MAX,
          live));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT angiography", "Filter/Converter/Video",
      "Decorrelation or speckle variance over repeated depth-domain OCT "
      "B-scans, one image per group of repeats", "aooct developers");

  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_angio_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_angio_setup);
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_angio_live);
  filter_class->cpu_ops = &angio_cpu;
  filter_class->cuda_ops = ANGIO_CUDA;
  group_class->group_size = GST_DEBUG_FUNCPTR (gst_aooct_angio_group_size);
  group_class->emit_partial = FALSE;
  group_class->group_property = "repeats";
  group_class->realign_after_seek = TRUE;
}

static void
gst_aooct_angio_init (GstAooctAngio * self)
{
  aooct_flow_props_init (&self->props, AOOCT_ANGIO_DEFAULT_ALINE_WINDOW);
  self->repeats = AOOCT_ANGIO_DEFAULT_REPEATS;
  self->method = AOOCT_ANGIO_DECORRELATION;
  self->decorrelation_max = AOOCT_ANGIO_DEFAULT_DECORRELATION_MAX;
  self->variance_max = AOOCT_ANGIO_DEFAULT_VARIANCE_MAX;
}
