/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctkmap
 * @title: aooctkmap
 * @short_description: lambda-to-k resampling
 *
 * Resamples each spectrum from the camera's pixel grid (evenly spaced in
 * wavelength, roughly) onto a grid evenly spaced in wavenumber k, so that
 * the FFT gives sharp depth peaks (spec section 4).  The wavelength of each
 * raw pixel comes from a text file (wavelength-file, N values in nm, one
 * per line) or from a polynomial in the pixel index (wavelength-coeffs,
 * "c0,c1[,c2[,c3]]" in nm); exactly one must be given.  Works on the raw
 * grid and after aooctpad (the padded grid's data region is resampled, the
 * margins are set to 0).  The brackets of the linear interpolation are
 * computed once when the caps are set; on the CUDA backend they are
 * uploaded to the GPU then, and each buffer is one gather kernel whose
 * result is bit-identical to the CPU path.  When the next element is
 * aooctdisp or aooctfft on CUDA, aooctkmap leaves the resampling to it
 * instead: that element applies it in the same pass as its own step, which
 * saves a pass over the B-scan (same result, bit for bit; see "Deferred
 * steps" in docs/cuda-memory.md; defer-steps=false turns it off).
 *
 * A swept source with a k-clock is already linear in k: set passthrough=true
 * (or send caps with k-linear=true) and buffers pass unchanged.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=10 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="800,0.1,-1e-5" ! aooctdisp ! aooctfft ! \
 *     aooctnorm ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstaooctkmap.h"
#include "aooct-caps.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"
#include "aooct-kspace-props.h"
#include "aooct-error.h"
#include "aooct-cpu-kmap.h"
#include "aooct-step.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-kmap.h"
#include "aooct-kmap-table.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_kmap_debug);
#define GST_CAT_DEFAULT gst_aooct_kmap_debug

/* the values of AooctInterp (aooct-kspace.h) */
typedef AooctInterp GstAooctKmapInterpolation;

/* The step's settings (aooct-step.h): the linear brackets, and the FIR
 * table of cubic, bspline and lanczos (else NULL). */
typedef struct
{
  const AooctKmapTable *table;
  const AooctKmapFir *fir;
} KmapSettings;

struct _GstAooctKmap
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  AooctKspaceProps kspace;      /* calibration and NUFFT, shared with aooctcs */
  GstAooctKmapInterpolation interpolation;
  gboolean passthrough;

  /* from setup() */
  AooctKmapTable *table;        /* linear brackets (identity for nudft and
                                 * nufft, whose samples stay in place) */
  AooctKmapFir *fir;            /* cubic, bspline, lanczos; else NULL */
  GBytes *deferred;             /* the table for a deferred step, as
                                 * AooctPendingMeta says: index then frac,
                                 * or for the FIR modes first then weights */
  guint deferred_serial;
  KmapSettings settings;        /* what the cores resample with */
};

enum
{
  PROP_0,
  PROP_INTERPOLATION,
  PROP_PASSTHROUGH,
  /* wavelength-file, -coeffs, nufft-kernel, -oversampling, -width
   * (aooct-kspace-props.h) */
  PROP_KSPACE,
};

#define DEFAULT_INTERPOLATION AOOCT_INTERP_LINEAR
#define DEFAULT_PASSTHROUGH FALSE

#define GST_TYPE_AOOCT_KMAP_INTERPOLATION \
  (gst_aooct_kmap_interpolation_get_type ())
static GType
gst_aooct_kmap_interpolation_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_INTERP_LINEAR, "Linear between the bracketing samples",
        "linear"},
    {AOOCT_INTERP_CUBIC, "Keys' cubic convolution, a = -0.5 (Catmull-Rom), "
          "4 taps", "cubic"},
    {AOOCT_INTERP_BSPLINE, "Interpolating cubic B-spline (prefilter and 4 "
          "taps)", "bspline"},
    {AOOCT_INTERP_LANCZOS, "Lanczos, a = 8, 16 taps", "lanczos"},
    {AOOCT_INTERP_NUDFT, "No resampling: aooctfft computes the exact "
          "non-uniform DFT at each sample's position", "nudft"},
    {AOOCT_INTERP_NUFFT, "No resampling: aooctfft computes the non-uniform "
          "DFT by gridding and FFT (nufft-kernel, -oversampling, -width)",
        "nufft"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctKmapInterpolation", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_kmap_parent_class parent_class
G_DEFINE_TYPE (GstAooctKmap, gst_aooct_kmap, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctkmap, "aooctkmap",
    GST_RANK_NONE, GST_TYPE_AOOCT_KMAP,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_kmap_debug, "aooctkmap", 0,
        "aooct lambda-to-k resampling"));

/* The calibration's wavenumber span |K1 - K0| on @out's caps
 * (wavenumber-span), from which aooctnorm and the views learn the depth
 * scale.  Read here because the caps are made before setup(); an unusable
 * calibration is the same error setup() would give.  In passthrough or on
 * k-linear input nothing is resampled and a span from upstream stays. */
static gboolean
gst_aooct_kmap_set_k_span (GstAooctKmap * self, const AooctGeometry * in,
    AooctGeometry * out, GError ** error)
{
  AooctWavelength *cal;
  gchar *file, *coeffs;
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->kspace.wavelength_file);
  coeffs = g_strdup (self->kspace.wavelength_coeffs);
  passthrough = self->passthrough;
  GST_OBJECT_UNLOCK (self);
  if (passthrough || in->k_linear) {
    g_free (file);
    g_free (coeffs);
    return TRUE;
  }
  cal = aooct_wavelength_new (file, coeffs, in->raw_samples, error);
  g_free (file);
  g_free (coeffs);
  if (cal == NULL)
    return FALSE;
  /* lambda in nm, k in rad/um */
  out->k_span = fabs (2000.0 * G_PI / aooct_wavelength_at (cal,
          in->raw_samples - 1) - 2000.0 * G_PI / aooct_wavelength_at (cal, 0));
  out->wavelength_direction = aooct_wavelength_at (cal, in->raw_samples - 1)
      > aooct_wavelength_at (cal, 0) ? 1 : -1;
  aooct_wavelength_free (cal);
  return TRUE;
}

static gboolean
gst_aooct_kmap_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  /* complex spectra: the full-range ones of aooctfullrange (section 9),
   * resampled re and im alike; not those of a standard aooctdisp, whose
   * weights belong to the even-k grid (on full-range spectra the caps do
   * not say whether aooctdisp has run, so that order is not caught) */
  if (in->domain != AOOCT_DOMAIN_SPECTRAL
      || (in->sample_type != AOOCT_SAMPLE_REAL && !in->full_range)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctkmap needs spectral real input (or the complex full-range "
        "spectra of aooctfullrange) but got domain=%s, "
        "sample-type=%s", aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  if (in->k_sampling != AOOCT_K_SAMPLING_EVEN) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctkmap got spectra that an aooctkmap upstream left at their "
        "positions (k-sampling=%s): resample once",
        aooct_k_sampling_to_string (in->k_sampling));
    return FALSE;
  }
  *out = *in;
  out->k_linear = TRUE;
  /* the depth scale: with every interpolation mode, nudft/nufft included,
   * aooctfft's bins are those of the even k grid from K0 to K1 */
  if (!gst_aooct_kmap_set_k_span (GST_AOOCT_KMAP (filter), in, out, error))
    return FALSE;
  {
    GstAooctKmap *self = GST_AOOCT_KMAP (filter);
    AooctInterp mode;
    gboolean passthrough;
    gdouble r;
    gint w;
    AooctNufftKernel kernel;

    GST_OBJECT_LOCK (self);
    mode = self->interpolation;
    passthrough = self->passthrough;
    r = self->kspace.nufft_oversampling;
    w = self->kspace.nufft_width;
    kernel = self->kspace.nufft_kernel;
    GST_OBJECT_UNLOCK (self);
    if (passthrough || in->k_linear
        || (mode != AOOCT_INTERP_NUDFT && mode != AOOCT_INTERP_NUFFT))
      return TRUE;
    /* the samples stay where they are; aooctfft transforms them there */
    out->k_linear = FALSE;
    out->k_sampling = mode == AOOCT_INTERP_NUDFT ? AOOCT_K_SAMPLING_NUDFT :
        AOOCT_K_SAMPLING_NUFFT;
    if (mode == AOOCT_INTERP_NUFFT) {
      gdouble q = r * in->samples;

      if (q != floor (q)) {
        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
            "nufft-oversampling=%g times the %d samples per A-line is %g, "
            "not an integer: the oversampled grid needs a whole number of "
            "points", r, in->samples, q);
        return FALSE;
      }
      out->nufft_kernel = kernel;
      out->nufft_oversampling = r;
      out->nufft_width = w;
    }
  }
  return TRUE;
}

/* The calibration of the current properties, for @geom's raw samples. */
static AooctWavelength *
load_calibration (GstAooctKmap * self, const AooctGeometry * geom,
    GError ** error)
{
  AooctWavelength *cal;
  gchar *file, *coeffs;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->kspace.wavelength_file);
  coeffs = g_strdup (self->kspace.wavelength_coeffs);
  GST_OBJECT_UNLOCK (self);
  cal = aooct_wavelength_new (file, coeffs, geom->raw_samples, error);
  g_free (file);
  g_free (coeffs);
  return cal;
}

/* nudft/nufft: the caps carry the positions of the samples (aooct-caps.h),
 * from which aooctdisp and aooctfft build their tables. */
static GstCaps *
gst_aooct_kmap_output_caps (GstAooctFilter * filter, const AooctGeometry * out)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);
  GstCaps *caps = aooct_geometry_to_caps (out);
  AooctWavelength *cal;
  gdouble *pos = NULL;

  if (out->k_sampling == AOOCT_K_SAMPLING_EVEN)
    return caps;
  /* errors are reported by setup(), which builds the same */
  cal = load_calibration (self, out, NULL);
  if (cal) {
    pos = aooct_kspace_positions_new (cal, out, NULL);
    aooct_wavelength_free (cal);
  }
  if (pos) {
    aooct_caps_set_positions (caps, pos, aooct_geometry_data_end (out)
        - aooct_geometry_data_start (out) + 1);
    g_free (pos);
  }
  return caps;
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

/* the plan of the settings' table, linear or FIR */
typedef struct
{
  AooctCpuKmapPlan *linear;
  AooctCpuKmapFirPlan *fir;
} KmapCpu;

static gpointer
kmap_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  const KmapSettings *s = settings;
  KmapCpu *c = g_new0 (KmapCpu, 1);

  if (s->fir)
    c->fir = aooct_cpu_kmap_fir_plan_new (shape->in, s->fir);
  else
    c->linear = aooct_cpu_kmap_plan_new (shape->in, s->table);
  return c;
}

static gboolean
kmap_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  KmapCpu *c = plan;

  if (c->fir)
    aooct_cpu_kmap_fir_execute (c->fir, in->data, in->stride, out->data,
        out->stride);
  else
    aooct_cpu_kmap_execute (c->linear, in->data, in->stride, out->data,
        out->stride);
  return TRUE;
}

static void
kmap_cpu_plan_free (gpointer plan)
{
  KmapCpu *c = plan;

  if (c->fir)
    aooct_cpu_kmap_fir_plan_free (c->fir);
  else
    aooct_cpu_kmap_plan_free (c->linear);
  g_free (c);
}

static const AooctStepOps kmap_cpu = { kmap_cpu_plan_new, kmap_cpu_execute,
  kmap_cpu_plan_free
};

#ifdef HAVE_CUDA
static gboolean check_pending (const AooctKmapTable * table,
    const AooctPendingMeta * meta, GError ** error);

typedef struct
{
  const KmapSettings *s;
  AooctCudaKmapPlan *linear;    /* the table in device memory */
  AooctCudaKmapFirPlan *fir;    /* the FIR table in device memory */
  gboolean complex_in;          /* complex (full-range) spectra */
  gsize rows;                   /* A-lines per buffer */
} KmapCuda;

static void
kmap_cuda_plan_free (gpointer plan)
{
  KmapCuda *c = plan;

  aooct_cuda_kmap_plan_free (c->linear);
  aooct_cuda_kmap_fir_plan_free (c->fir);
  g_free (c);
}

static gpointer
kmap_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  KmapCuda *c = g_new0 (KmapCuda, 1);

  c->s = settings;
  c->complex_in = shape->in->sample_type == AOOCT_SAMPLE_COMPLEX;
  c->rows = aooct_geometry_total_alines (shape->in);
  /* uploaded once per calibration and geometry */
  if (c->s->fir)
    c->fir = aooct_cuda_kmap_fir_plan_new (c->s->fir, error);
  else
    c->linear = aooct_cuda_kmap_plan_new (c->s->table, c->rows, error);
  if (c->linear == NULL && c->fir == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

static gboolean
kmap_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  KmapCuda *c = plan;
  const AooctPendingMeta *pending = run->pending;

  if (pending && !check_pending (c->s->table, pending, error))
    return FALSE;
  if (c->fir)
    return aooct_cuda_kmap_fir_execute (c->fir, (const gfloat *) in->data,
        c->complex_in, pending && pending->pad ? pending->pad_scale : 1.0f,
        (gfloat *) out->data, c->rows, run->stream, error);
  /* complex (full-range) spectra: nobody defers to us on them */
  if (c->complex_in)
    return aooct_cuda_kmap_execute_complex (c->linear,
        (const gfloat *) in->data, (gfloat *) out->data, run->stream, error);
  /* aooctpad's scale, when it left it to us (its margins we write as 0
   * anyway): applied to the result, which is the same bit for bit */
  return aooct_cuda_kmap_execute (c->linear, (const gfloat *) in->data,
      pending && pending->pad ? pending->pad_scale : 1.0f,
      (gfloat *) out->data, run->stream, error);
}

static const AooctStepOps kmap_cuda = { kmap_cuda_plan_new, kmap_cuda_execute,
  kmap_cuda_plan_free
};

#define KMAP_CUDA (&kmap_cuda)
#else
#define KMAP_CUDA NULL
#endif

static gboolean
gst_aooct_kmap_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);
  AooctWavelength *cal;
  gchar *file, *coeffs;
  gboolean passthrough;
  AooctInterp mode;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->kspace.wavelength_file);
  coeffs = g_strdup (self->kspace.wavelength_coeffs);
  passthrough = self->passthrough;
  mode = self->interpolation;
  GST_OBJECT_UNLOCK (self);

  /* Already linear in k: forward the input buffers themselves (the caps
   * still change, to k-linear=true). */
  if (passthrough || filter->in_geom.k_linear) {
    /* a calibration given for nothing: the user expects resampling */
    if ((file && file[0]) || (coeffs && coeffs[0]))
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("%s, so the wavelength "
              "calibration (%s) is ignored and the spectra pass unchanged; "
              "%s", passthrough ? "passthrough=true" :
              "the input is already linear in k (k-linear=true in its caps)",
              file && file[0] ? "wavelength-file" : "wavelength-coeffs",
              passthrough ? "set passthrough=false to resample" :
              "remove the calibration or the aooctkmap before"), (NULL));
    g_free (file);
    g_free (coeffs);
    gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
    return TRUE;
  }
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), FALSE);

  cal = aooct_wavelength_new (file, coeffs, filter->in_geom.raw_samples, error);
  if (cal == NULL) {
    g_free (file);
    g_free (coeffs);
    return FALSE;
  }
  /* A polynomial fits any width: a raw file read with the wrong width= or
   * height= gives a plausible image with no error.  The geometry in use,
   * on the bus, is the hint. */
  {
    gchar *msg = g_strdup_printf ("resampling A-lines of %d raw samples (%d "
        "A-lines per B-scan, %d samples after padding), lambda from %.6g nm "
        "at pixel 0 to %.6g nm at pixel %d (%s)", filter->in_geom.raw_samples,
        filter->in_geom.alines, filter->in_geom.samples, cal->lambda[0],
        cal->lambda[cal->n - 1], cal->n - 1, file && file[0] ?
        "wavelength-file" : "wavelength-coeffs");

    /* also as the debug text: gst-launch-1.0 prints only that of an INFO */
    GST_ELEMENT_INFO (self, RESOURCE, SETTINGS, ("%s", msg), ("%s", msg));
    g_free (msg);
  }
  g_free (file);
  g_free (coeffs);
  if (filter->out_geom.k_sampling != AOOCT_K_SAMPLING_EVEN) {
    /* nudft / nufft: the samples stay in place (margins zeroed, and
     * aooctpad's deferred scale applied, by the identity resampling);
     * the positions went downstream in the caps */
    gdouble *pos = aooct_kspace_positions_new (cal, &filter->in_geom, error);

    aooct_wavelength_free (cal);
    if (pos == NULL)
      return FALSE;
    g_free (pos);
    self->table = aooct_kmap_table_new_identity (&filter->in_geom);
  } else {
    self->table = aooct_kmap_table_new (cal, &filter->in_geom, error);
    aooct_wavelength_free (cal);
    if (self->table == NULL)
      return FALSE;
    if (mode == AOOCT_INTERP_CUBIC || mode == AOOCT_INTERP_BSPLINE
        || mode == AOOCT_INTERP_LANCZOS)
      self->fir = aooct_kmap_fir_new (self->table, mode);
  }
  {
    /* the table a fused pass downstream resamples with: the FIR gather
     * where there is one (the same table as our own kernel's, so the
     * same bits), else the linear brackets */
    gsize n = (gsize) self->table->samples;
    const gint taps = self->fir ? self->fir->taps : 0;
    gsize size = n * sizeof (gint32) + (self->fir ? (gsize) taps * n :
        n) * sizeof (gfloat);
    guint8 *packed = g_malloc (size);

    memcpy (packed, self->fir ? self->fir->first : self->table->index,
        n * sizeof (gint32));
    memcpy (packed + n * sizeof (gint32), self->fir ? self->fir->weight :
        self->table->frac, size - n * sizeof (gint32));
    self->deferred = g_bytes_new_take (packed, size);
    self->deferred_serial = aooct_pending_serial_next ();
  }
  self->settings.table = self->table;
  self->settings.fir = self->fir;
  *settings = &self->settings;
  return TRUE;
}

#ifdef HAVE_CUDA
/* Before us only aooctpad can leave a step (its scale and margins), for
 * the data region our table covers. */
static gboolean
check_pending (const AooctKmapTable * table, const AooctPendingMeta * meta,
    GError ** error)
{
  if (meta->kmap.data || meta->disp.data) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input already carries a deferred %s step; aooctkmap cannot "
        "resample before it", meta->kmap.data ? "resampling" : "dispersion");
    return FALSE;
  }
  if (meta->pad && (meta->pad_j0 != table->start || meta->pad_j1 != table->end)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "aooctpad's deferred margins (data region %d..%d) do not match the "
        "resampling's data region %d..%d", meta->pad_j0, meta->pad_j1,
        table->start, table->end);
    return FALSE;
  }
  return TRUE;
}

/* Downstream (aooctdisp or aooctfft) resamples, fused with its own pass
 * (and applies aooctpad's scale, if pending, as we would have), in every
 * mode: linear, the FIR modes' gather, and nudft/nufft's identity */
static gboolean
gst_aooct_kmap_defer (GstAooctFilter * filter, AooctPendingMeta * meta,
    GError ** error)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);

  if (!check_pending (self->table, meta, error))
    return FALSE;
  aooct_pending_table_set (&meta->kmap, self->deferred, self->deferred_serial);
  meta->kmap_j0 = self->table->start;
  meta->kmap_j1 = self->table->end;
  meta->kmap_taps = self->fir ? self->fir->taps : 0;
  return TRUE;
}
#endif

static void
gst_aooct_kmap_teardown (GstAooctFilter * filter)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);

  /* the base class freed the plan, which resampled with the tables */
  g_clear_pointer (&self->table, aooct_kmap_table_free);
  g_clear_pointer (&self->fir, aooct_kmap_fir_free);
  g_clear_pointer (&self->deferred, g_bytes_unref);
}

static void
gst_aooct_kmap_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (object);

  GST_OBJECT_LOCK (self);
  if (!aooct_kspace_props_set (&self->kspace, PROP_KSPACE, prop_id, value)) {
    switch (prop_id) {
      case PROP_INTERPOLATION:
        self->interpolation = g_value_get_enum (value);
        break;
      case PROP_PASSTHROUGH:
        self->passthrough = g_value_get_boolean (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_kmap_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (object);

  GST_OBJECT_LOCK (self);
  if (!aooct_kspace_props_get (&self->kspace, PROP_KSPACE, prop_id, value)) {
    switch (prop_id) {
      case PROP_INTERPOLATION:
        g_value_set_enum (value, self->interpolation);
        break;
      case PROP_PASSTHROUGH:
        g_value_set_boolean (value, self->passthrough);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
        break;
    }
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_kmap_finalize (GObject * object)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (object);

  aooct_kspace_props_clear (&self->kspace);
  aooct_kmap_table_free (self->table);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_aooct_kmap_class_init (GstAooctKmapClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_kmap_set_property;
  gobject_class->get_property = gst_aooct_kmap_get_property;
  gobject_class->finalize = gst_aooct_kmap_finalize;

  /* wavelength-file, wavelength-coeffs: the calibration (spec section 4);
   * nufft-kernel, nufft-oversampling, nufft-width: interpolation=nufft's
   * gridding (section 8) */
  aooct_kspace_props_install (gobject_class, PROP_KSPACE,
      "interpolation=nufft");
  /**
   * GstAooctKmap:interpolation:
   *
   * How the spectra are brought onto the even-k grid: resampled (linear,
   * cubic, bspline, lanczos; spec section 4) or left where they are for
   * aooctfft's non-uniform DFT (nudft, nufft; section 8, which needs
   * aooctfft downstream and no phase-file on aooctdisp)
   */
  g_object_class_install_property (gobject_class, PROP_INTERPOLATION,
      g_param_spec_enum ("interpolation", "Interpolation",
          "How the spectra are brought onto the even-k grid: resampled "
          "(linear, cubic, bspline, lanczos; spec section 4) or left where "
          "they are for aooctfft's non-uniform DFT (nudft, nufft; section "
          "8, which needs aooctfft downstream and no phase-file on "
          "aooctdisp)",
          GST_TYPE_AOOCT_KMAP_INTERPOLATION, DEFAULT_INTERPOLATION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctKmap:passthrough:
   *
   * The source is already linear in k (swept source with k-clock): pass
   * buffers unchanged and mark the caps k-linear=true; no calibration
   * needed. Default: false
   */
  g_object_class_install_property (gobject_class, PROP_PASSTHROUGH,
      g_param_spec_boolean ("passthrough", "Passthrough",
          "The source is already linear in k (swept source with k-clock): "
          "pass buffers unchanged and mark the caps k-linear=true; no "
          "calibration needed. Default: false", DEFAULT_PASSTHROUGH,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT lambda-to-k resampling", "Filter/Converter/Video",
      "Resamples OCT spectra from the camera's wavelength grid to a grid "
      "linear in wavenumber", "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_kmap_derive_output);
  filter_class->output_caps = GST_DEBUG_FUNCPTR (gst_aooct_kmap_output_caps);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_kmap_setup);
  filter_class->cuda_stage = 1;
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_kmap_teardown);
  filter_class->cpu_ops = &kmap_cpu;
  filter_class->cuda_ops = KMAP_CUDA;
#ifdef HAVE_CUDA
  filter_class->defer = GST_DEBUG_FUNCPTR (gst_aooct_kmap_defer);
  filter_class->absorbs_pending = TRUE;
#endif

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_KMAP_INTERPOLATION, 0);
}

static void
gst_aooct_kmap_init (GstAooctKmap * self)
{
  self->interpolation = DEFAULT_INTERPOLATION;
  self->passthrough = DEFAULT_PASSTHROUGH;
  aooct_kspace_props_init (&self->kspace);
}
