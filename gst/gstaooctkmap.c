/* aooct: aooctkmap, lambda-to-k resampling.
 *
 * SECTION:element-aooctkmap
 * @title: aooctkmap
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
 * steps" in docs/performance.md; AOOCT_CUDA_FUSE=0 turns it off).
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

#include <string.h>

#include "gstaooctkmap.h"
#include "aooct-caps.h"
#include "aooct-calib.h"
#include "aooct-error.h"
#include "aooct-cpu-kmap.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-kmap.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_kmap_debug);
#define GST_CAT_DEFAULT gst_aooct_kmap_debug

typedef enum
{
  GST_AOOCT_KMAP_LINEAR
} GstAooctKmapInterpolation;

struct _GstAooctKmap
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  gchar *wavelength_file;
  gchar *wavelength_coeffs;
  GstAooctKmapInterpolation interpolation;
  gboolean passthrough;

  /* from setup() */
  AooctKmapTable *table;
  GBytes *deferred;             /* the table for a deferred step: index then
                                 * frac, as AooctPendingMeta says */
  guint deferred_serial;
#ifdef HAVE_CUDA
  AooctCudaKmap *cuda;          /* the table in device memory */
#endif
};

enum
{
  PROP_0,
  PROP_WAVELENGTH_FILE,
  PROP_WAVELENGTH_COEFFS,
  PROP_INTERPOLATION,
  PROP_PASSTHROUGH,
};

#define DEFAULT_INTERPOLATION GST_AOOCT_KMAP_LINEAR
#define DEFAULT_PASSTHROUGH FALSE

#define GST_TYPE_AOOCT_KMAP_INTERPOLATION \
  (gst_aooct_kmap_interpolation_get_type ())
static GType
gst_aooct_kmap_interpolation_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_AOOCT_KMAP_LINEAR, "Linear between the bracketing samples",
        "linear"},
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

static gboolean
gst_aooct_kmap_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  if (in->domain != AOOCT_DOMAIN_SPECTRAL
      || in->sample_type != AOOCT_SAMPLE_REAL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctkmap needs spectral real input but got domain=%s, "
        "sample-type=%s", aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  *out = *in;
  out->k_linear = TRUE;
  return TRUE;
}

static gboolean
gst_aooct_kmap_setup (GstAooctFilter * filter, GError ** error)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);
  AooctWavelength *cal;
  gchar *file, *coeffs;
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->wavelength_file);
  coeffs = g_strdup (self->wavelength_coeffs);
  passthrough = self->passthrough;
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
  self->table = aooct_kmap_table_new (cal, &filter->in_geom, error);
  aooct_wavelength_free (cal);
  if (self->table == NULL)
    return FALSE;
  {
    gsize n = (gsize) self->table->samples;
    guint8 *packed = g_malloc (n * (sizeof (gint32) + sizeof (gfloat)));

    memcpy (packed, self->table->index, n * sizeof (gint32));
    memcpy (packed + n * sizeof (gint32), self->table->frac,
        n * sizeof (gfloat));
    self->deferred = g_bytes_new_take (packed,
        n * (sizeof (gint32) + sizeof (gfloat)));
    self->deferred_serial = aooct_pending_serial_next ();
  }
#ifdef HAVE_CUDA
  if (filter->active_backend == GST_AOOCT_BACKEND_CUDA) {
    /* uploaded once per calibration and geometry */
    self->cuda = aooct_cuda_kmap_new (self->table,
        aooct_geometry_total_alines (&filter->in_geom), error);
    if (self->cuda == NULL) {
      /* the base class calls teardown() only after a complete setup() */
      g_clear_pointer (&self->table, aooct_kmap_table_free);
      g_clear_pointer (&self->deferred, g_bytes_unref);
      return FALSE;
    }
  }
#endif
  return TRUE;
}

static gboolean
gst_aooct_kmap_process_cpu (GstAooctFilter * filter, const AooctPlane * in,
    AooctPlane * out, GError ** error)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);

  aooct_cpu_kmap (&filter->in_geom, self->table, in->data, in->stride,
      out->data, out->stride);
  return TRUE;
}

#ifdef HAVE_CUDA
/* Before us only aooctpad can leave a step (its scale and margins), for
 * the data region our table covers. */
static gboolean
check_pending (GstAooctKmap * self, const AooctPendingMeta * meta,
    GError ** error)
{
  if (meta->kmap.data || meta->disp.data) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input already carries a deferred %s step; aooctkmap cannot "
        "resample before it", meta->kmap.data ? "resampling" : "dispersion");
    return FALSE;
  }
  if (meta->pad && (meta->pad_j0 != self->table->start
          || meta->pad_j1 != self->table->end)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "aooctpad's deferred margins (data region %d..%d) do not match the "
        "resampling's data region %d..%d", meta->pad_j0, meta->pad_j1,
        self->table->start, self->table->end);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_aooct_kmap_process_cuda (GstAooctFilter * filter, const AooctPlane * in,
    AooctPlane * out, AooctCudaStream stream, GError ** error)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);
  const AooctPendingMeta *pending = filter->pending;

  /* passthrough never gets here: GstBaseTransform forwards the buffers */
  if (pending && !check_pending (self, pending, error))
    return FALSE;
  /* aooctpad's scale, when it left it to us (its margins we write as 0
   * anyway): applied to the result, which is the same bit for bit */
  return aooct_cuda_kmap_process (self->cuda, (const gfloat *) in->data,
      pending && pending->pad ? pending->pad_scale : 1.0f,
      (gfloat *) out->data, stream, error);
}

/* Downstream (aooctdisp or aooctfft) resamples, fused with its own pass
 * (and applies aooctpad's scale, if pending, as we would have) */
static gboolean
gst_aooct_kmap_defer (GstAooctFilter * filter, AooctPendingMeta * meta,
    GError ** error)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);

  if (!check_pending (self, meta, error))
    return FALSE;
  aooct_pending_table_set (&meta->kmap, self->deferred, self->deferred_serial);
  meta->kmap_j0 = self->table->start;
  meta->kmap_j1 = self->table->end;
  return TRUE;
}
#endif

static void
gst_aooct_kmap_teardown (GstAooctFilter * filter)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (filter);

  g_clear_pointer (&self->table, aooct_kmap_table_free);
  g_clear_pointer (&self->deferred, g_bytes_unref);
#ifdef HAVE_CUDA
  /* context current, GPU idle (base class) */
  g_clear_pointer (&self->cuda, aooct_cuda_kmap_free);
#endif
}

static void
gst_aooct_kmap_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WAVELENGTH_FILE:
      g_free (self->wavelength_file);
      self->wavelength_file = g_value_dup_string (value);
      break;
    case PROP_WAVELENGTH_COEFFS:
      g_free (self->wavelength_coeffs);
      self->wavelength_coeffs = g_value_dup_string (value);
      break;
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
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_kmap_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WAVELENGTH_FILE:
      g_value_set_string (value, self->wavelength_file);
      break;
    case PROP_WAVELENGTH_COEFFS:
      g_value_set_string (value, self->wavelength_coeffs);
      break;
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
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_kmap_finalize (GObject * object)
{
  GstAooctKmap *self = GST_AOOCT_KMAP (object);

  g_free (self->wavelength_file);
  g_free (self->wavelength_coeffs);
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

  g_object_class_install_property (gobject_class, PROP_WAVELENGTH_FILE,
      g_param_spec_string ("wavelength-file", "Wavelength file",
          "Text file of N wavelengths in nm, one per raw pixel (finite, "
          "positive, strictly increasing or decreasing); exclusive with "
          "wavelength-coeffs. Default: none", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_WAVELENGTH_COEFFS,
      g_param_spec_string ("wavelength-coeffs", "Wavelength coefficients",
          "\"c0,c1[,c2[,c3]]\": lambda(p) = c0 + c1 p + c2 p^2 + c3 p^3 in "
          "nm for raw pixel p; must be positive and strictly monotonic on "
          "[0, N-1]; exclusive with wavelength-file. Default: none", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_INTERPOLATION,
      g_param_spec_enum ("interpolation", "Interpolation",
          "How samples between the bracketing wavelengths are computed",
          GST_TYPE_AOOCT_KMAP_INTERPOLATION, DEFAULT_INTERPOLATION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PASSTHROUGH,
      g_param_spec_boolean ("passthrough", "Passthrough",
          "The source is already linear in k (swept source with k-clock): "
          "pass buffers unchanged and mark the caps k-linear=true; no "
          "calibration needed. Default: false", DEFAULT_PASSTHROUGH,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT lambda-to-k resampling", "Filter/Converter",
      "Resamples OCT spectra from the camera's wavelength grid to a grid "
      "linear in wavenumber", "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_kmap_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_kmap_setup);
  filter_class->process_cpu = GST_DEBUG_FUNCPTR (gst_aooct_kmap_process_cpu);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_kmap_teardown);
#ifdef HAVE_CUDA
  filter_class->process_cuda = GST_DEBUG_FUNCPTR (gst_aooct_kmap_process_cuda);
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
}
