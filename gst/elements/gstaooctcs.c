/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctcs
 * @title: aooctcs
 * @short_description: compressive sensing
 *
 * Depth profiles from a fraction of the spectral samples (spec section
 * 10; Xu, Huang and Kang 2014): per A-line, the l1-regularised least
 * squares problem min 1/2 ||A x - y||^2 + lambda ||x||_1 solved by a fixed
 * number of SpaRSA iterations, with A the non-uniform transform from P
 * depth bins to the measured pixels at their positions in k, so that no
 * resampling is needed.  `operator=nufft` (default) computes A and A^H by
 * gridding (the kernels of aooctkmap interpolation=nufft), `nudft` by the
 * exact sums.
 *
 * Put it right after aooctdcsub.  The input holds either all N camera
 * pixels (the mask picks the measured ones) or only the U measured pixels
 * in mask order; the input width tells which.  The mask comes from
 * `mask-file` (U strictly increasing pixel indices) or is drawn
 * (`mask-fraction`, `mask-seed`; denser towards the spectrum's centre,
 * see aooct-cs.h) and written to `mask-output-file`.  The calibration is
 * aooctkmap's (`wavelength-file` of N values, or `wavelength-coeffs` with
 * `camera-pixels` N when the input holds only the U pixels), and `a2`/`a3`
 * aooctdisp's.  The output is depth-domain complex data of P bins for
 * aooctnorm and the views.  Each buffer is processed as a whole: on CUDA
 * all its A-lines iterate together on the GPU (batched cuFFT / cuBLAS and
 * per-A-line reductions, no host round trip).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc phantom=mirror samples=2048 \
 *     wavelength-coeffs="800,0.05" ! aooctdcsub ! \
 *     aooctcs wavelength-coeffs="800,0.05" mask-fraction=0.4 ! \
 *     aooctnorm ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstaooctcs.h"
#include "aooct-kspace-props.h"
#include "aooct-caps.h"
#include "aooct-cs.h"
#include "aooct-error.h"
#include "aooct-cpu-cs.h"
#include "aooct-omp.h"
#include "aooct-step.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-cs.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_cs_debug);
#define GST_CAT_DEFAULT gst_aooct_cs_debug

/* What the cores read per buffer (AooctStepRun's live): the SpaRSA
 * settings that change nothing in the operator. */
typedef struct
{
  gdouble tau;
  gint iterations;
} CsLive;

struct _GstAooctCs
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  gchar *mask_file;
  gdouble mask_fraction;
  guint mask_seed;
  gchar *mask_output_file;
  AooctKspaceProps kspace;      /* calibration and NUFFT, as aooctkmap's */
  gint camera_pixels;
  gdouble a2, a3;
  gint size;
  gdouble tau;
  gint iterations;
  AooctCsOperator op;

  /* the start-time properties as they were when the element started
   * (READY -> PAUSED): every negotiation until it stops reads these, so
   * that a change while it starts cannot make the caps of a query and of
   * set_caps differ (issue 33 item 7: "geometry mismatch ... samples 4096
   * vs 1024"); NULL in NULL and READY */
  AooctCsSettings *frozen;
  /* from derive_output() */
  AooctCs *cs;
  /* from setup(): what the cores are made with */
  AooctCs *active;
  /* live(): tau and iterations for the current buffer */
  CsLive live;
};

enum
{
  PROP_0,
  PROP_MASK_FILE,
  PROP_MASK_FRACTION,
  PROP_MASK_SEED,
  PROP_MASK_OUTPUT_FILE,
  PROP_CAMERA_PIXELS,
  PROP_A2,
  PROP_A3,
  PROP_SIZE,
  PROP_TAU,
  PROP_ITERATIONS,
  PROP_OPERATOR,
  /* wavelength-file, -coeffs, nufft-kernel, -oversampling, -width
   * (aooct-kspace-props.h) */
  PROP_KSPACE,
};

#define DEFAULT_MASK_FRACTION 0.4
#define DEFAULT_MASK_SEED 1

#define GST_TYPE_AOOCT_CS_OPERATOR (gst_aooct_cs_operator_get_type ())
static GType
gst_aooct_cs_operator_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_CS_OPERATOR_NUFFT, "A and A^H by gridding, FFT and "
          "deapodisation (nufft-kernel, -oversampling, -width)", "nufft"},
    {AOOCT_CS_OPERATOR_NUDFT, "A and A^H as exact sums (seed 001's "
          "MNUDFT-CS)", "nudft"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctCsOperator", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_cs_parent_class parent_class
G_DEFINE_TYPE (GstAooctCs, gst_aooct_cs, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctcs, "aooctcs",
    GST_RANK_NONE, GST_TYPE_AOOCT_CS,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_cs_debug, "aooctcs", 0,
        "aooct compressive sensing"));

/* The start-time properties into @set (strings copied: free with
 * settings_clear()); tau and iterations too (live, they are checked and
 * taken per buffer). */
static void
read_settings (GstAooctCs * self, AooctCsSettings * set)
{
  aooct_cs_settings_init (set);
  GST_OBJECT_LOCK (self);
  if (self->frozen) {
    *set = *self->frozen;
  } else {
    set->mask_file = self->mask_file;
    set->mask_output_file = self->mask_output_file;
    set->wavelength_file = self->kspace.wavelength_file;
    set->wavelength_coeffs = self->kspace.wavelength_coeffs;
    set->mask_fraction = self->mask_fraction;
    set->mask_seed = self->mask_seed;
    set->camera_pixels = self->camera_pixels;
    set->a2 = self->a2;
    set->a3 = self->a3;
    set->size = self->size;
    set->op = self->op;
    set->nufft_kernel = self->kspace.nufft_kernel;
    set->nufft_oversampling = self->kspace.nufft_oversampling;
    set->nufft_width = self->kspace.nufft_width;
  }
  set->tau = self->tau;
  set->iterations = self->iterations;
  set->mask_file = g_strdup (set->mask_file);
  set->mask_output_file = g_strdup (set->mask_output_file);
  set->wavelength_file = g_strdup (set->wavelength_file);
  set->wavelength_coeffs = g_strdup (set->wavelength_coeffs);
  GST_OBJECT_UNLOCK (self);
}

static void
settings_clear (AooctCsSettings * set)
{
  g_free ((gchar *) set->mask_file);
  g_free ((gchar *) set->mask_output_file);
  g_free ((gchar *) set->wavelength_file);
  g_free ((gchar *) set->wavelength_coeffs);
}

static void
frozen_free (AooctCsSettings * set)
{
  settings_clear (set);
  g_free (set);
}

/* the configuration of the start-time properties for @in_width-wide
 * input */
static AooctCs *
build_cs (GstAooctCs * self, gint in_width, GError ** error)
{
  AooctCsSettings set;
  AooctCs *cs;

  read_settings (self, &set);
  cs = aooct_cs_new (&set, in_width, error);
  settings_clear (&set);
  return cs;
}

static gboolean
gst_aooct_cs_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctCs *self = GST_AOOCT_CS (filter);
  AooctCs *cs;

  if (in->domain != AOOCT_DOMAIN_SPECTRAL
      || in->sample_type != AOOCT_SAMPLE_REAL || in->full_range
      || in->k_sampling != AOOCT_K_SAMPLING_EVEN || in->k_linear
      || in->pad_factor != 1 || in->samples != in->raw_samples) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctcs takes the real DC-subtracted spectra of aooctdcsub, on the "
        "camera's pixel grid (no aooctpad, aooctkmap or aooctfullrange "
        "before it), but got domain=%s sample-type=%s samples=%d "
        "raw-samples=%d%s%s", aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type), in->samples,
        in->raw_samples, in->k_linear ? " k-linear=true" : "",
        in->full_range ? " full-range=true" : "");
    return FALSE;
  }
  cs = build_cs (self, in->samples, error);
  if (cs == NULL)
    return FALSE;
  aooct_cs_output_geometry (cs, in, out);
  if (!aooct_geometry_validate (out, error)) {
    aooct_cs_free (cs);
    return FALSE;
  }
  GST_OBJECT_LOCK (self);
  aooct_cs_free (self->cs);
  self->cs = cs;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

/* settings: the AooctCs operator the element built in setup() */
typedef struct
{
  AooctCpuCsPlan *cs;
  gint rows;                    /* A-lines per buffer */
} CsCpu;

static void
cs_cpu_plan_free (gpointer plan)
{
  CsCpu *c = plan;

  aooct_cpu_cs_plan_free (c->cs);
  g_free (c);
}

static gpointer
cs_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  CsCpu *c = g_new0 (CsCpu, 1);

  c->rows = (gint) aooct_geometry_total_alines (shape->in);
  c->cs = aooct_cpu_cs_plan_new (settings, aooct_cpu_threads (), error);
  if (c->cs == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

static gboolean
cs_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  CsCpu *c = plan;

  const CsLive *live = run->live;

  /* application/x-aooct buffers are contiguous */
  aooct_cpu_cs_execute (c->cs, (const gfloat *) in->data,
      (gfloat *) out->data, c->rows, live->tau, live->iterations);
  return TRUE;
}

static const AooctStepOps cs_cpu = { cs_cpu_plan_new, cs_cpu_execute,
  cs_cpu_plan_free
};

#ifdef HAVE_CUDA
static gpointer
cs_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  return aooct_cuda_cs_plan_new (settings, aooct_geometry_total_alines
      (shape->in), error);
}

static gboolean
cs_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const CsLive *live = run->live;

  return aooct_cuda_cs_execute (plan, (const gfloat *) in->data,
      (gfloat *) out->data, live->tau, live->iterations, run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (cs_cuda_plan_free, aooct_cuda_cs_plan_free);

static const AooctStepOps cs_cuda = { cs_cuda_plan_new, cs_cuda_execute,
  cs_cuda_plan_free
};

#define CS_CUDA (&cs_cuda)
#else
#define CS_CUDA NULL
#endif

static gboolean
gst_aooct_cs_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctCs *self = GST_AOOCT_CS (filter);
  AooctCs *cs = build_cs (self, filter->in_geom.samples, error);

  /* built again: the properties may have changed since the caps were
   * derived; the geometry must not have */
  if (cs == NULL)
    return FALSE;
  if (cs->p != filter->out_geom.samples
      || cs->n != filter->out_geom.raw_samples) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctcs: the calibration or size changed between negotiation and "
        "start (now N = %d, P = %d)", cs->n, cs->p);
    aooct_cs_free (cs);
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "N %d U %d P %d input %d wide, %s, %d iterations",
      cs->n, cs->u, cs->p, cs->in_width,
      cs->op == AOOCT_CS_OPERATOR_NUDFT ? "nudft" : "nufft", cs->iterations);
  self->active = cs;
  *settings = cs;
  return TRUE;
}

/* tau and iterations as they are for this buffer: a change applies from
 * the next buffer on (every A-line of a buffer iterates together) */
static gboolean
gst_aooct_cs_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctCs *self = GST_AOOCT_CS (filter);
  CsLive l;

  GST_OBJECT_LOCK (self);
  l.tau = self->tau;
  l.iterations = self->iterations;
  GST_OBJECT_UNLOCK (self);
  if (!isfinite (l.tau) || l.tau < 0.0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "tau=%g must be finite and >= 0 (0: least squares)", l.tau);
    return FALSE;
  }
  if (l.tau != self->live.tau || l.iterations != self->live.iterations)
    GST_DEBUG_OBJECT (self, "tau %g, %d iterations from this buffer on",
        l.tau, l.iterations);
  self->live = l;
  *live = &self->live;
  return TRUE;
}

/* The start-time properties as they are when the element starts, kept
 * until it starts again (or is finalized): a change while it runs waits
 * for the next start, whatever caps come meanwhile. */
static gboolean
gst_aooct_cs_start (GstAooctFilter * filter, GError ** error)
{
  GstAooctCs *self = GST_AOOCT_CS (filter);
  AooctCsSettings *set = g_new0 (AooctCsSettings, 1);

  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->frozen, frozen_free);
  GST_OBJECT_UNLOCK (self);
  read_settings (self, set);
  GST_OBJECT_LOCK (self);
  self->frozen = set;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static void
gst_aooct_cs_teardown (GstAooctFilter * filter)
{
  GstAooctCs *self = GST_AOOCT_CS (filter);

  /* the base class freed the plan first */
  g_clear_pointer (&self->active, aooct_cs_free);
}

static void
gst_aooct_cs_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctCs *self = GST_AOOCT_CS (object);

  GST_OBJECT_LOCK (self);
  if (!aooct_kspace_props_set (&self->kspace, PROP_KSPACE, prop_id, value)) {
    switch (prop_id) {
      case PROP_MASK_FILE:
        g_free (self->mask_file);
        self->mask_file = g_value_dup_string (value);
        break;
      case PROP_MASK_FRACTION:
        self->mask_fraction = g_value_get_double (value);
        break;
      case PROP_MASK_SEED:
        self->mask_seed = g_value_get_uint (value);
        break;
      case PROP_MASK_OUTPUT_FILE:
        g_free (self->mask_output_file);
        self->mask_output_file = g_value_dup_string (value);
        break;
      case PROP_CAMERA_PIXELS:
        self->camera_pixels = g_value_get_int (value);
        break;
      case PROP_A2:
        self->a2 = g_value_get_double (value);
        break;
      case PROP_A3:
        self->a3 = g_value_get_double (value);
        break;
      case PROP_SIZE:
        self->size = g_value_get_int (value);
        break;
      case PROP_TAU:
        self->tau = g_value_get_double (value);
        break;
      case PROP_ITERATIONS:
        self->iterations = g_value_get_int (value);
        break;
      case PROP_OPERATOR:
        self->op = g_value_get_enum (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_cs_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctCs *self = GST_AOOCT_CS (object);

  GST_OBJECT_LOCK (self);
  if (!aooct_kspace_props_get (&self->kspace, PROP_KSPACE, prop_id, value)) {
    switch (prop_id) {
      case PROP_MASK_FILE:
        g_value_set_string (value, self->mask_file);
        break;
      case PROP_MASK_FRACTION:
        g_value_set_double (value, self->mask_fraction);
        break;
      case PROP_MASK_SEED:
        g_value_set_uint (value, self->mask_seed);
        break;
      case PROP_MASK_OUTPUT_FILE:
        g_value_set_string (value, self->mask_output_file);
        break;
      case PROP_CAMERA_PIXELS:
        g_value_set_int (value, self->camera_pixels);
        break;
      case PROP_A2:
        g_value_set_double (value, self->a2);
        break;
      case PROP_A3:
        g_value_set_double (value, self->a3);
        break;
      case PROP_SIZE:
        g_value_set_int (value, self->size);
        break;
      case PROP_TAU:
        g_value_set_double (value, self->tau);
        break;
      case PROP_ITERATIONS:
        g_value_set_int (value, self->iterations);
        break;
      case PROP_OPERATOR:
        g_value_set_enum (value, self->op);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_cs_finalize (GObject * object)
{
  GstAooctCs *self = GST_AOOCT_CS (object);

  g_free (self->mask_file);
  g_free (self->mask_output_file);
  aooct_kspace_props_clear (&self->kspace);
  aooct_cs_free (self->cs);
  g_clear_pointer (&self->frozen, frozen_free);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* start-time properties: read when the element starts (a change while it
 * runs is a warning, aooct-late-property.h); live ones: from the next
 * buffer on */
#define RW (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)
#define LIVE (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE)

static void
gst_aooct_cs_class_init (GstAooctCsClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_cs_set_property;
  gobject_class->get_property = gst_aooct_cs_get_property;
  gobject_class->finalize = gst_aooct_cs_finalize;

  /**
   * GstAooctCs:mask-file:
   *
   * Text file of the U measured pixel indices, strictly increasing, in
   * 0..N-1, one per line.  Empty: the mask is drawn (mask-fraction).
   */
  g_object_class_install_property (gobject_class, PROP_MASK_FILE,
      g_param_spec_string ("mask-file", "Mask file",
          "Text file of the measured pixel indices (strictly increasing, "
          "0..N-1, one per line); empty: draw the mask from mask-fraction",
          NULL, RW));
  /**
   * GstAooctCs:mask-fraction:
   *
   * Fraction of the N pixels measured, in (0, 1], when no mask-file is
   * given: U = round (fraction * N) pixels, drawn denser towards the
   * spectrum's centre (see aooct-cs.h for the rule).
   */
  g_object_class_install_property (gobject_class, PROP_MASK_FRACTION,
      g_param_spec_double ("mask-fraction", "Mask fraction",
          "Fraction of the camera pixels measured when the mask is drawn "
          "(0, 1]; the density falls from the centre of the spectrum to "
          "its ends by a factor 4", -G_MAXDOUBLE, G_MAXDOUBLE,
          DEFAULT_MASK_FRACTION, RW));
  /**
   * GstAooctCs:mask-seed:
   *
   * Seed of the drawn mask (GLib's Mersenne twister): the same seed, N and
   * fraction always give the same mask.
   */
  g_object_class_install_property (gobject_class, PROP_MASK_SEED,
      g_param_spec_uint ("mask-seed", "Mask seed",
          "Seed of the random generator that draws the mask", 0, G_MAXUINT,
          DEFAULT_MASK_SEED, RW));
  /**
   * GstAooctCs:mask-output-file:
   *
   * Where the drawn mask is written (one index per line, the format of
   * mask-file), for the camera or the acquisition software that measures
   * only those pixels.  Empty: not written.
   */
  g_object_class_install_property (gobject_class, PROP_MASK_OUTPUT_FILE,
      g_param_spec_string ("mask-output-file", "Mask output file",
          "Text file the drawn mask is written to (format of mask-file); "
          "empty: not written", NULL, RW));
  /**
   * GstAooctCs:camera-pixels:
   *
   * N, the camera's pixel count, for wavelength-coeffs when the input
   * holds only the U measured pixels.  0: the input width (or the
   * wavelength file's length).
   */
  g_object_class_install_property (gobject_class, PROP_CAMERA_PIXELS,
      g_param_spec_int ("camera-pixels", "Camera pixels",
          "N, the camera's pixel count (for wavelength-coeffs with U-pixel "
          "input); 0 = the wavelength file's length or the input width",
          0, AOOCT_MAX_SAMPLES, 0, RW));
  /**
   * GstAooctCs:a2:
   *
   * Quadratic dispersion phase (radians over u in [-1, 1]), as aooctdisp's.
   */
  g_object_class_install_property (gobject_class, PROP_A2,
      g_param_spec_double ("a2", "a2",
          "Dispersion: quadratic phase coefficient in radians (as "
          "aooctdisp's)", -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, RW));
  /**
   * GstAooctCs:a3:
   *
   * Cubic dispersion phase (radians), as aooctdisp's.
   */
  g_object_class_install_property (gobject_class, PROP_A3,
      g_param_spec_double ("a3", "a3",
          "Dispersion: cubic phase coefficient in radians (as aooctdisp's)",
          -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, RW));
  /**
   * GstAooctCs:size:
   *
   * P, the number of depth bins reconstructed (>= N); 0: the next power of
   * two >= N.
   */
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size",
          "P, depth bins reconstructed (>= N samples); 0 = the next power "
          "of two >= N", 0, AOOCT_MAX_SAMPLES, 0, RW));
  /**
   * GstAooctCs:tau:
   *
   * Regularisation relative to the largest |A^H y| of each A-line:
   * lambda = tau max |A^H y|.  Larger: sparser, lower background, weak
   * features fade; 0: plain least squares.  May change while playing: from
   * the next buffer on.
   */
  g_object_class_install_property (gobject_class, PROP_TAU,
      g_param_spec_double ("tau", "Tau",
          "l1 weight relative to each A-line's max |A^H y| (dimensionless; "
          "0 = least squares); changes apply from the next buffer",
          -G_MAXDOUBLE, G_MAXDOUBLE, AOOCT_CS_DEFAULT_TAU, LIVE));
  /**
   * GstAooctCs:iterations:
   *
   * SpaRSA iterations per A-line (fixed count; each costs one A and one
   * A^H).  May change while playing: from the next buffer on.
   */
  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_int ("iterations", "Iterations",
          "SpaRSA iterations per A-line (each one A and one A^H); changes "
          "apply from the next buffer", 1, AOOCT_CS_MAX_ITERATIONS,
          AOOCT_CS_DEFAULT_ITERATIONS, LIVE));
  /**
   * GstAooctCs:operator:
   *
   * How A and A^H are computed: nufft (gridding) or nudft (exact sums).
   */
  g_object_class_install_property (gobject_class, PROP_OPERATOR,
      g_param_spec_enum ("operator", "Operator",
          "How A and A^H are computed", GST_TYPE_AOOCT_CS_OPERATOR,
          AOOCT_CS_OPERATOR_NUFFT, RW));
  /* wavelength-file, wavelength-coeffs: the calibration, as aooctkmap's;
   * nufft-kernel, nufft-oversampling, nufft-width: operator=nufft's
   * gridding */
  aooct_kspace_props_install (gobject_class, PROP_KSPACE, "operator=nufft");

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT compressive sensing", "Filter/Converter",
      "Depth profiles from a fraction of the spectral samples (SpaRSA with "
      "a non-uniform transform)", "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output = GST_DEBUG_FUNCPTR (gst_aooct_cs_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_cs_setup);
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_cs_live);
  filter_class->cuda_stage = 2;
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_cs_teardown);
  filter_class->start = GST_DEBUG_FUNCPTR (gst_aooct_cs_start);
  filter_class->cpu_ops = &cs_cpu;
  filter_class->cuda_ops = CS_CUDA;
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_CS_OPERATOR, 0);
}

static void
gst_aooct_cs_init (GstAooctCs * self)
{
  self->mask_fraction = DEFAULT_MASK_FRACTION;
  self->mask_seed = DEFAULT_MASK_SEED;
  self->tau = AOOCT_CS_DEFAULT_TAU;
  self->iterations = AOOCT_CS_DEFAULT_ITERATIONS;
  self->op = AOOCT_CS_OPERATOR_NUFFT;
  aooct_kspace_props_init (&self->kspace);
}
