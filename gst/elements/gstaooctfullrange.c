/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctfullrange
 * @title: aooctfullrange
 * @short_description: complex full-range OCT
 *
 * Standard Fourier-domain OCT cannot tell a reflector at depth +d from one
 * at -d: the FFT of a real spectrum is symmetric, so half the depth range
 * is lost to the mirror image.  With a phase carrier across the A-lines of
 * a B-scan (the beam hits the scanner slightly off its pivot, Zhang & Kang
 * 2010; aooctsrc carrier=), a reflector's fringe and its mirror's fall on
 * opposite sides of the lateral frequency axis, and a Hilbert transform
 * along the A-lines separates them (spec section 9): for every spectral
 * sample index, the DFT across the M A-lines of a B-scan, one sideband
 * kept (doubled), the inverse DFT.  The output is complex spectra (caps
 * sample-type=complex, full-range=true) that the rest of the chain
 * (aooctpad, aooctkmap, aooctdisp, aooctfft) processes as it does real
 * ones, and aooctnorm then shows the full depth range, zero delay in the
 * middle of the image.
 *
 * Put it right after aooctdcsub (the DC mean removes the lateral frequency
 * 0, which the transform keeps); both sidebands give the same image, the
 * other way up: upper (default) keeps the positive lateral frequencies.
 * Which way up the image comes out, and which aooctdisp a2/a3 then
 * compensate, is the spec's "which way up" rule (section 9).
 *
 * The transforms run across the A-lines, batched over the sample indices
 * and the B-scans of a buffer, strided (no transpose): FFTW's guru
 * interface on the CPU, cufftPlanMany on CUDA.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc carrier=1.5 speckle-width=3 depth-offset=-400 \
 *     num-buffers=10 ! \
 *     aooctdcsub ! aooctfullrange ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=-8 a3=2 ! aooctfft ! aooctnorm ! videoconvert ! \
 *     autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctfullrange.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-step.h"
#include "aooct-cpu-fullrange.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-fullrange.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_fullrange_debug);
#define GST_CAT_DEFAULT gst_aooct_fullrange_debug

typedef enum
{
  GST_AOOCT_SIDEBAND_UPPER,
  GST_AOOCT_SIDEBAND_LOWER
} GstAooctSideband;

struct _GstAooctFullrange
{
  GstAooctFilter parent;

  /* property, under the object lock */
  GstAooctSideband sideband;

  gboolean lower;               /* live: the sideband of this buffer */
};

enum
{
  PROP_0,
  PROP_SIDEBAND,
};

#define DEFAULT_SIDEBAND GST_AOOCT_SIDEBAND_UPPER

#define GST_TYPE_AOOCT_SIDEBAND (gst_aooct_sideband_get_type ())
static GType
gst_aooct_sideband_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_AOOCT_SIDEBAND_UPPER, "Positive lateral frequencies (H[q] = 2 for "
          "0 < q < M/2)", "upper"},
    {GST_AOOCT_SIDEBAND_LOWER, "Negative lateral frequencies (the image "
          "the other way up)", "lower"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctSideband", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_fullrange_parent_class parent_class
G_DEFINE_TYPE (GstAooctFullrange, gst_aooct_fullrange, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctfullrange, "aooctfullrange",
    GST_RANK_NONE, GST_TYPE_AOOCT_FULLRANGE,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_fullrange_debug, "aooctfullrange", 0,
        "aooct complex full range (lateral analytic signal)"));

static gboolean
gst_aooct_fullrange_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  /* The transform is linear per sample index, so it commutes with
   * aooctpad and aooctkmap (per-A-line linear steps); real spectra
   * anywhere before aooctdisp are accepted, right after aooctdcsub is the
   * cheapest (N < P2 samples). */
  if (in->domain != AOOCT_DOMAIN_SPECTRAL
      || in->sample_type != AOOCT_SAMPLE_REAL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctfullrange needs real spectra (put it right after "
        "aooctdcsub), got domain=%s sample-type=%s",
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  /* one A-line has no lateral frequencies to tell a reflector from its
   * mirror by (and cuFFT plans no transform of one point) */
  if (in->alines < 2) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctfullrange needs at least 2 A-lines per B-scan (the carrier "
        "runs across them), got alines=%d", in->alines);
    return FALSE;
  }
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_COMPLEX;
  out->full_range = TRUE;
  return aooct_geometry_validate (out, error);
}

/* The step on both backends (aooct-step.h): no settings; the live
 * sideband (a gboolean, TRUE for the lower one) comes with each buffer. */
AOOCT_STEP_FORWARD_PLAN_NEW (fullrange_cpu_plan_new,
    aooct_cpu_fullrange_plan_new (shape->in, error));

static gboolean
fullrange_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  /* application/x-aooct buffers are contiguous */
  aooct_cpu_fullrange_execute (plan, (const gfloat *) in->data,
      (gfloat *) out->data, *(const gboolean *) run->live);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (fullrange_cpu_plan_free,
    aooct_cpu_fullrange_plan_free);

static const AooctStepOps fullrange_cpu = {
  fullrange_cpu_plan_new, fullrange_cpu_execute, fullrange_cpu_plan_free
};

#ifdef HAVE_CUDA
AOOCT_STEP_FORWARD_PLAN_NEW (fullrange_cuda_plan_new,
    aooct_cuda_fullrange_plan_new (shape->in, error));

static gboolean
fullrange_cuda_execute (gpointer plan, const AooctPlane * in,
    AooctPlane * out, const AooctStepRun * run, GError ** error)
{
  return aooct_cuda_fullrange_execute (plan, (const gfloat *) in->data,
      (gfloat *) out->data, *(const gboolean *) run->live, run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (fullrange_cuda_plan_free,
    aooct_cuda_fullrange_plan_free);

static const AooctStepOps fullrange_cuda = {
  fullrange_cuda_plan_new, fullrange_cuda_execute, fullrange_cuda_plan_free
};

#define FULLRANGE_CUDA (&fullrange_cuda)
#else
#define FULLRANGE_CUDA NULL
#endif

static gboolean
gst_aooct_fullrange_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GST_DEBUG_OBJECT (filter, "%d A-lines x %d samples x %d B-scans",
      filter->in_geom.alines, filter->in_geom.samples, filter->in_geom.bscans);
  return TRUE;
}

/* the sideband may change while playing: read per buffer */
static gboolean
gst_aooct_fullrange_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctFullrange *self = GST_AOOCT_FULLRANGE (filter);

  GST_OBJECT_LOCK (self);
  self->lower = self->sideband == GST_AOOCT_SIDEBAND_LOWER;
  GST_OBJECT_UNLOCK (self);
  *live = &self->lower;
  return TRUE;
}

static void
gst_aooct_fullrange_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctFullrange *self = GST_AOOCT_FULLRANGE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIDEBAND:
      self->sideband = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_fullrange_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctFullrange *self = GST_AOOCT_FULLRANGE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIDEBAND:
      g_value_set_enum (value, self->sideband);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_fullrange_class_init (GstAooctFullrangeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_fullrange_set_property;
  gobject_class->get_property = gst_aooct_fullrange_get_property;

  /**
   * GstAooctFullrange:sideband:
   *
   * Lateral frequencies kept: upper (positive; with a positive carrier a
   * reflector shows at positive depth when k increases along the pixels)
   * or lower (the image the other way up). A change while playing applies
   * at the next buffer
   */
  g_object_class_install_property (gobject_class, PROP_SIDEBAND,
      g_param_spec_enum ("sideband", "Sideband",
          "Lateral frequencies kept: upper (positive; with a positive "
          "carrier a reflector shows at positive depth when k increases "
          "along the pixels) or lower (the image the other way up). "
          "A change while playing applies at the next buffer",
          GST_TYPE_AOOCT_SIDEBAND, DEFAULT_SIDEBAND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT complex full range", "Filter/Converter/Video",
      "Lateral analytic signal across the A-lines of each B-scan: complex "
      "spectra without the mirror image", "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_fullrange_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_fullrange_setup);
  filter_class->cuda_stage = 1;
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_fullrange_live);
  filter_class->cpu_ops = &fullrange_cpu;
  filter_class->cuda_ops = FULLRANGE_CUDA;
}

static void
gst_aooct_fullrange_init (GstAooctFullrange * self)
{
  self->sideband = DEFAULT_SIDEBAND;
}
