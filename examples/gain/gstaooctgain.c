/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctgain
 * @title: aooctgain
 * @short_description: every sample times a gain (the example step)
 *
 * Multiplies every sample of its buffers by the `gain` property: real or
 * complex, spectra or depth profiles, the geometry unchanged.  It is the
 * element of docs/architecture.md's walk-through "Add a step": the whole
 * of what a step that changes no geometry writes (its computation, a
 * live property, the CPU backend), compiled and tested
 * (tests/elements/test-gain.c) in a plugin of its own, aoocttestgain,
 * which is for the test only and not installed.  A new step starts as a
 * copy of this file in gst/elements/ (the walk-through says what else).
 *
 * ## Example launch line
 * |[
 * GST_PLUGIN_PATH_1_0=build/gst:build/examples/gain gst-launch-1.0 \
 *     aooctsrc num-buffers=10 ! aooctdcsub ! aooctgain gain=2 ! \
 *     aooctpad ! aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctfft ! aooctnorm ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctfilter.h"
#include "aooct-caps.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_gain_debug);
#define GST_CAT_DEFAULT gst_aooct_gain_debug

/* No header: nothing but this file needs the type (the plugin registers
 * the element by its name, GST_ELEMENT_REGISTER_DEFINE below). */
#define GST_TYPE_AOOCT_GAIN (gst_aooct_gain_get_type ())
G_DECLARE_FINAL_TYPE (GstAooctGain, gst_aooct_gain, GST, AOOCT_GAIN,
    GstAooctFilter);

struct _GstAooctGain
{
  GstAooctFilter parent;

  gfloat gain;                  /* property, under the object lock */
  gfloat live;                  /* the gain of the buffer in hand */
};

enum
{
  PROP_0,
  PROP_GAIN,
};

#define DEFAULT_GAIN 1.0f
#define MAX_GAIN 1000.0f

#define gst_aooct_gain_parent_class parent_class
G_DEFINE_TYPE (GstAooctGain, gst_aooct_gain, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctgain, "aooctgain",
    GST_RANK_NONE, GST_TYPE_AOOCT_GAIN,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_gain_debug, "aooctgain", 0,
        "aooct gain (the example step)"));

/* The step on the CPU (aooct-step.h).  The plan keeps what is fixed for
 * the negotiated geometry: how many rows (A-lines) a buffer has and how
 * many floats a row (a complex sample is two). */
typedef struct
{
  gsize rows;
  gsize floats;
} GainPlan;

static gpointer
gain_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  GainPlan *plan = g_new (GainPlan, 1);

  plan->rows = aooct_geometry_total_alines (shape->in);
  plan->floats = aooct_geometry_aline_bytes (shape->in) / sizeof (gfloat);
  return plan;
}

/* One buffer: row r starts at data + r * stride (contiguous for
 * application/x-aooct, but a step goes by the stride). */
static gboolean
gain_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const GainPlan *p = plan;
  const gfloat gain = *(const gfloat *) run->live;
  gsize r, i;

  for (r = 0; r < p->rows; r++) {
    const gfloat *x = (const gfloat *) (in->data + r * in->stride);
    gfloat *y = (gfloat *) (out->data + r * out->stride);

    for (i = 0; i < p->floats; i++)
      y[i] = gain * x[i];
  }
  return TRUE;
}

static const AooctStepOps gain_cpu = {
  gain_cpu_plan_new, gain_cpu_execute, g_free
};

/* The gain may change while playing: the base class asks for it before
 * each buffer and hands it to execute() as run->live. */
static gboolean
gst_aooct_gain_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctGain *self = GST_AOOCT_GAIN (filter);

  GST_OBJECT_LOCK (self);
  self->live = self->gain;
  GST_OBJECT_UNLOCK (self);
  *live = &self->live;
  return TRUE;
}

static void
gst_aooct_gain_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctGain *self = GST_AOOCT_GAIN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_GAIN:
      self->gain = g_value_get_float (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_gain_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctGain *self = GST_AOOCT_GAIN (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_GAIN:
      g_value_set_float (value, self->gain);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_gain_class_init (GstAooctGainClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_gain_set_property;
  gobject_class->get_property = gst_aooct_gain_get_property;

  /**
   * GstAooctGain:gain:
   *
   * Factor every sample is multiplied by (dimensionless, on the
   * amplitude). A change while playing applies at the next buffer
   */
  g_object_class_install_property (gobject_class, PROP_GAIN,
      g_param_spec_float ("gain", "Gain",
          "Factor every sample is multiplied by (dimensionless, on the "
          "amplitude). A change while playing applies at the next buffer",
          0.0f, MAX_GAIN, DEFAULT_GAIN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT gain", "Filter/Effect/Video",
      "Every sample times a gain (the example step of "
      "docs/architecture.md)", "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  /* same geometry out as in (derive_output unset), nothing to set up
   * (setup unset), no CUDA core (cuda_ops unset: backend=auto runs it on
   * the CPU) */
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_gain_live);
  filter_class->cpu_ops = &gain_cpu;
}

static void
gst_aooct_gain_init (GstAooctGain * self)
{
  self->gain = DEFAULT_GAIN;
}
