/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctpad
 * @title: aooctpad
 * @short_description: zero-padding by FFT interpolation
 *
 * Centres each real spectrum of N samples in P1 samples (P1 = size, or
 * max (2048, next power of two >= N)) and up-samples it by FFT
 * interpolation to P2 = factor x P1 samples (spec section 3): the finer
 * grid makes the later lambda-to-k resampling (aooctkmap) more accurate.
 * Samples outside the measured region are set to 0.  Put it right after
 * aooctdcsub; the output caps carry N, o, f, P1 and P2 for the elements
 * downstream.  The element is optional: without it the chain works on the
 * raw grid.  After aooctfullrange it pads complex spectra (spec section 9:
 * complex FFTs; a spectrum whose imaginary part is 0 gives the real
 * path's result).
 *
 * On the CUDA backend both FFTs are batched cuFFT transforms over all
 * A-lines of a buffer, planned once per caps; the result agrees with the
 * CPU path within float32 rounding.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=bscans.raw ! \
 *     rawvideoparse format=gray16-le width=832 height=240 ! \
 *     aooctdcsub ! aooctpad factor=2 ! \
 *     aooctkmap wavelength-file=lambda.txt ! aooctdisp a2=5 ! \
 *     aooctfft window=hann ! aooctnorm ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctpad.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-omp.h"
#include "aooct-cpu-pad.h"
#include "aooct-step.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-pad.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_pad_debug);
#define GST_CAT_DEFAULT gst_aooct_pad_debug

struct _GstAooctPad
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  gint size;
  gint factor;

};

enum
{
  PROP_0,
  PROP_SIZE,
  PROP_FACTOR,
};

#define DEFAULT_SIZE 0
#define DEFAULT_FACTOR 2

#define gst_aooct_pad_parent_class parent_class
G_DEFINE_TYPE (GstAooctPad, gst_aooct_pad, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctpad, "aooctpad",
    GST_RANK_NONE, GST_TYPE_AOOCT_PAD,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_pad_debug, "aooctpad", 0,
        "aooct zero-padding by FFT interpolation"));

static gboolean
gst_aooct_pad_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctPad *self = GST_AOOCT_PAD (filter);
  gint size, factor, p1, p2, offset;

  /* complex spectra: only the full-range ones of aooctfullrange (section
   * 9); those of aooctdisp are past the point where padding belongs */
  if (in->domain != AOOCT_DOMAIN_SPECTRAL
      || (in->sample_type != AOOCT_SAMPLE_REAL && !in->full_range)
      || in->pad_factor != 1 || in->samples != in->raw_samples
      || in->k_sampling != AOOCT_K_SAMPLING_EVEN) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctpad needs un-padded real spectral input (put it right after "
        "aooctdcsub), or the complex full-range spectra of aooctfullrange, "
        "got domain=%s sample-type=%s samples=%d "
        "raw-samples=%d pad-factor=%d k-sampling=%s",
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type), in->samples,
        in->raw_samples, in->pad_factor,
        aooct_k_sampling_to_string (in->k_sampling));
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  size = self->size;
  factor = self->factor;
  GST_OBJECT_UNLOCK (self);

  if (!aooct_pad_sizes (in->raw_samples, size, factor, &p1, &p2, &offset,
          error))
    return FALSE;

  *out = *in;
  out->samples = p2;
  out->pad_size = p1;
  out->pad_offset = offset;
  out->pad_factor = factor;
  return aooct_geometry_validate (out, error);
}

/* The step on both backends (aooct-step.h); no settings (the geometry
 * says everything). */
typedef struct
{
  AooctCpuPadPlan *pad;
  gint rows;                    /* A-lines per buffer */
} PadCpu;

static void
pad_cpu_plan_free (gpointer plan)
{
  PadCpu *c = plan;

  aooct_cpu_pad_plan_free (c->pad);
  g_free (c);
}

static gpointer
pad_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  PadCpu *c = g_new0 (PadCpu, 1);

  c->rows = (gint) aooct_geometry_total_alines (shape->in);
  c->pad = aooct_cpu_pad_plan_new (shape->out, aooct_cpu_threads (), error);
  if (c->pad == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

static gboolean
pad_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  PadCpu *c = plan;

  /* application/x-aooct buffers are contiguous: stride == A-line size */
  aooct_cpu_pad_execute (c->pad, (const gfloat *) in->data,
      (gfloat *) out->data, c->rows);
  return TRUE;
}

static const AooctStepOps pad_cpu = {
  pad_cpu_plan_new, pad_cpu_execute, pad_cpu_plan_free
};

#ifdef HAVE_CUDA
typedef struct
{
  AooctCudaPadPlan *pad;
  gboolean real;                /* real spectra (complex ones never leave
                                 * the tail) */
  gint j0, j1;                  /* the output's data region */
} PadCuda;

static void
pad_cuda_plan_free (gpointer plan)
{
  PadCuda *c = plan;

  aooct_cuda_pad_plan_free (c->pad);
  g_free (c);
}

static gpointer
pad_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  PadCuda *c = g_new0 (PadCuda, 1);

  c->real = shape->in->sample_type == AOOCT_SAMPLE_REAL;
  c->j0 = aooct_geometry_data_start (shape->out);
  c->j1 = aooct_geometry_data_end (shape->out);
  /* cuFFT plans, work area and scratch, once per geometry */
  c->pad = aooct_cuda_pad_plan_new (shape->out, error);
  if (c->pad == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

/* What we leave to downstream: the scale and the margins. */
static void
pad_cuda_leave (PadCuda * c, AooctPendingMeta * leave)
{
  if (leave) {
    leave->pad = TRUE;
    leave->pad_scale = aooct_cuda_pad_scale (c->pad);
    leave->pad_j0 = c->j0;
    leave->pad_j1 = c->j1;
  }
}

static gboolean
pad_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  PadCuda *c = plan;
  /* the deferred-steps machinery is for real spectra: complex ones are
   * scaled here (the base class does not let us leave it on complex data
   * anyway) */
  AooctPendingMeta *leave = c->real ? run->out_pending : NULL;

  /* downstream (aooctkmap, or a fused pass) scales and sets the margins */
  pad_cuda_leave (c, leave);
  /* device planes of application/x-aooct are contiguous too */
  return aooct_cuda_pad_execute (c->pad, (const gfloat *) in->data,
      leave != NULL, run->in_disposable, (gfloat *) out->data, run->stream,
      error);
}

/* Everything the work depends on is in the base class's key (the
 * planes, whether the scale is left to downstream, in_disposable); what
 * execute() leaves to downstream is written here too, for a buffer that
 * launches a kept graph instead. */
static gssize
pad_cuda_graph_key (gpointer plan, const AooctStepRun * run, guint8 * key)
{
  PadCuda *c = plan;

  pad_cuda_leave (c, c->real ? run->out_pending : NULL);
  return 0;
}

static const AooctStepOps pad_cuda = {
  pad_cuda_plan_new, pad_cuda_execute, pad_cuda_plan_free, NULL, NULL,
  pad_cuda_graph_key
};

#define PAD_CUDA (&pad_cuda)
#else
#define PAD_CUDA NULL
#endif

static gboolean
gst_aooct_pad_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GST_DEBUG_OBJECT (filter, "N %d -> P1 %d (o %d) -> P2 %d",
      filter->out_geom.raw_samples, filter->out_geom.pad_size,
      filter->out_geom.pad_offset, filter->out_geom.samples);
  return TRUE;
}

static void
gst_aooct_pad_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctPad *self = GST_AOOCT_PAD (object);

  /* Whether size and factor fit N is only known at caps time; a value that
   * is not a power of two can never work, so say so at once as well (the
   * element error follows at caps time). */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIZE:
      self->size = g_value_get_int (value);
      if (self->size != 0 && (self->size & (self->size - 1)) != 0)
        GST_WARNING_OBJECT (self, "size=%d is not a power of two (or 0 for "
            "automatic): caps negotiation will fail", self->size);
      break;
    case PROP_FACTOR:
      self->factor = g_value_get_int (value);
      if ((self->factor & (self->factor - 1)) != 0)
        GST_WARNING_OBJECT (self, "factor=%d is not a power of two in 1..%d: "
            "caps negotiation will fail", self->factor, AOOCT_MAX_FACTOR);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_pad_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctPad *self = GST_AOOCT_PAD (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIZE:
      g_value_set_int (value, self->size);
      break;
    case PROP_FACTOR:
      g_value_set_int (value, self->factor);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_pad_class_init (GstAooctPadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_pad_set_property;
  gobject_class->get_property = gst_aooct_pad_get_property;

  /* Both change the output geometry, so they apply at the next caps
   * negotiation (READY), not in the middle of a stream. */
  /**
   * GstAooctPad:size:
   *
   * First FFT size P1 in samples: a power of two >= the samples per
   * A-line, or 0 for automatic (max (2048, next power of two))
   */
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size",
          "First FFT size P1 in samples: a power of two >= the samples per "
          "A-line, or 0 for automatic (max (2048, next power of two))",
          0, AOOCT_MAX_SAMPLES, DEFAULT_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctPad:factor:
   *
   * Up-sampling factor f (output samples P2 = f x P1): a power of two
   */
  g_object_class_install_property (gobject_class, PROP_FACTOR,
      g_param_spec_int ("factor", "Factor",
          "Up-sampling factor f (output samples P2 = f x P1): a power of "
          "two", 1, AOOCT_MAX_FACTOR, DEFAULT_FACTOR,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT zero-padding", "Filter/Converter/Video",
      "Up-samples real OCT spectra by zero-padding their FFT",
      "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output = GST_DEBUG_FUNCPTR (gst_aooct_pad_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_pad_setup);
  filter_class->cuda_stage = 1;
  filter_class->cpu_ops = &pad_cpu;
  filter_class->cuda_ops = PAD_CUDA;
#ifdef HAVE_CUDA
  /* only kernels and cuFFT on the stream: capturable (cuda-graphs=true) */
  filter_class->cuda_graphs = TRUE;
  filter_class->leaves_pending = TRUE;
#endif
}

static void
gst_aooct_pad_init (GstAooctPad * self)
{
  self->size = DEFAULT_SIZE;
  self->factor = DEFAULT_FACTOR;
}
