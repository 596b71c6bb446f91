/* aooct: aooctfft, spectral window and FFT to depth.
 *
 * SECTION:element-aooctfft
 * @title: aooctfft
 *
 * Transforms every A-line from the spectral to the depth domain with the
 * unnormalised forward complex FFT of length P2 (spec section 6).  The
 * input is complex (after aooctdisp) or real (after aooctkmap without
 * dispersion compensation); the output is complex, one depth profile per
 * A-line, for aooctnorm.  An optional spectral window (hann, hamming,
 * blackman, gaussian, tukey, kaiser) spanning the measured region
 * multiplies the spectrum first to lower the side lobes of each reflector;
 * `window-parameter` sets the Gaussian's width s, the Tukey alpha or the
 * Kaiser beta (0: s = 0.4, alpha = 0.5, beta = 8).  Both can be changed
 * while playing and apply from the next buffer on.
 *
 * A complex filter per spectral sample (vortex's "spectral filter"), for
 * example a measured window or a spectral shaping, is aooctdisp's
 * `phase-file` with two numbers (re im) per record.
 *
 * On the CUDA backend one kernel applies the window and a batched cuFFT
 * transform over all A-lines of the buffer runs in place in the output,
 * planned once per caps; the result agrees with the CPU path within
 * float32 rounding.  A resampling (aooctkmap) or dispersion (aooctdisp)
 * that the elements before it on CUDA leave to it is applied in the same
 * kernel as the window ("Deferred steps" in docs/performance.md).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=bscans.raw ! \
 *     rawvideoparse format=gray16-le width=832 height=240 ! \
 *     aooctdcsub ! aooctpad ! aooctkmap wavelength-file=lambda.txt ! \
 *     aooctdisp a2=5 ! aooctfft window=hann ! aooctnorm ! videoconvert ! \
 *     autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctfft.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-omp.h"
#include "aooct-window.h"
#include "aooct-cpu-fft.h"
#include "aooct-cpu-nonuniform.h"
#include "aooct-kspace.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-fft.h"
#include "aooct-cuda-nonuniform.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_fft_debug);
#define GST_CAT_DEFAULT gst_aooct_fft_debug

struct _GstAooctFft
{
  GstAooctFilter parent;

  /* property, under the object lock */
  AooctWindow window;
  gdouble window_parameter;     /* 0 = the window's default */

  /* streaming thread only, from setup() */
  AooctCpuFft *cpu;
  AooctCpuNonuniform *cpu_nu;   /* in place of cpu for k-sampling=nudft or
                                 * nufft */
  AooctWindow active_window;    /* what `table` holds */
  gdouble active_parameter;
  gfloat *table;                /* P2 weights, NULL for no window */
#ifdef HAVE_CUDA
  AooctCudaNonuniform *cuda_nu; /* the NUDFT / NUFFT after the prep pass */
  AooctCudaFft *cuda;           /* plan and device window table */
  gboolean cuda_stale;          /* `table` not uploaded yet */
  AooctCudaPrep *prep;          /* tables of steps deferred to us */
#endif
};

enum
{
  PROP_0,
  PROP_WINDOW,
  PROP_WINDOW_PARAMETER,
};

#define DEFAULT_WINDOW AOOCT_WINDOW_NONE
#define DEFAULT_WINDOW_PARAMETER 0.0

#define GST_TYPE_AOOCT_WINDOW (gst_aooct_window_get_type ())
static GType
gst_aooct_window_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_WINDOW_NONE, "No window", "none"},
    {AOOCT_WINDOW_HANN, "Hann: 0.5 - 0.5 cos (2 pi t)", "hann"},
    {AOOCT_WINDOW_HAMMING, "Hamming: 0.54 - 0.46 cos (2 pi t)", "hamming"},
    {AOOCT_WINDOW_BLACKMAN,
        "Blackman: 0.42 - 0.5 cos (2 pi t) + 0.08 cos (4 pi t)", "blackman"},
    {AOOCT_WINDOW_GAUSSIAN,
        "Gaussian: exp (-0.5 ((2 t - 1) / s)^2), s = window-parameter "
          "(0: 0.4)", "gaussian"},
    {AOOCT_WINDOW_TUKEY,
        "Tukey: Hann tapers over alpha/2 at each end, 1 between, alpha = "
          "window-parameter (0: 0.5)", "tukey"},
    {AOOCT_WINDOW_KAISER,
        "Kaiser: I0 (beta sqrt (1 - (2 t - 1)^2)) / I0 (beta), beta = "
          "window-parameter (0: 8)", "kaiser"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctWindow", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_fft_parent_class parent_class
G_DEFINE_TYPE (GstAooctFft, gst_aooct_fft, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctfft, "aooctfft",
    GST_RANK_NONE, GST_TYPE_AOOCT_FFT,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_fft_debug, "aooctfft", 0,
        "aooct spectral window and FFT"));

static gboolean
gst_aooct_fft_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  if (in->domain != AOOCT_DOMAIN_SPECTRAL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctfft needs spectral input but got domain=%s (is there a second "
        "aooctfft upstream?)", aooct_domain_to_string (in->domain));
    return FALSE;
  }
  *out = *in;
  out->domain = AOOCT_DOMAIN_DEPTH;
  out->sample_type = AOOCT_SAMPLE_COMPLEX;
  /* non-uniform samples: section 8's sum puts them on the even-k grid */
  if (in->k_sampling != AOOCT_K_SAMPLING_EVEN) {
    out->k_sampling = AOOCT_K_SAMPLING_EVEN;
    out->k_linear = TRUE;
  }
  return aooct_geometry_validate (out, error);
}

/* An error for a parameter the window cannot take */
static gboolean
gst_aooct_fft_check_window (AooctWindow window, gdouble parameter,
    GError ** error)
{
  const gchar *what;

  if (aooct_window_parameter_valid (window, parameter, &what))
    return TRUE;
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
      "aooctfft: window-parameter=%g does not fit window=%s: expected %s",
      parameter, g_enum_get_value (g_type_class_peek (GST_TYPE_AOOCT_WINDOW),
          window)->value_nick, what);
  return FALSE;
}

/* Makes `table` hold @window with @parameter for the negotiated
 * geometry; an error for a parameter the window cannot take. */
static gboolean
gst_aooct_fft_build_window (GstAooctFft * self, AooctWindow window,
    gdouble parameter, GError ** error)
{
  const AooctGeometry *g = &GST_AOOCT_FILTER (self)->in_geom;

  if (!gst_aooct_fft_check_window (window, parameter, error))
    return FALSE;
  g_clear_pointer (&self->table, g_free);
  if (g->k_sampling != AOOCT_K_SAMPLING_EVEN)
    /* at each sample's position (spec section 8) */
    self->table = aooct_window_table_new_at (window, parameter, g,
        GST_AOOCT_FILTER (self)->in_positions);
  else
    self->table = aooct_window_table_new_full (window, parameter, g->samples,
        aooct_geometry_data_start (g), aooct_geometry_data_end (g));
  self->active_window = window;
  self->active_parameter = parameter;
#ifdef HAVE_CUDA
  /* uploaded by the next process_cuda(), ordered on the element's stream */
  self->cuda_stale = TRUE;
#endif
  GST_DEBUG_OBJECT (self, "window %d (parameter %g) over samples %d..%d of "
      "%d", window, parameter, aooct_geometry_data_start (g),
      aooct_geometry_data_end (g), g->samples);
  return TRUE;
}

static gboolean
gst_aooct_fft_setup (GstAooctFilter * filter, GError ** error)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);
  AooctWindow window;
  gdouble parameter;

  GST_OBJECT_LOCK (self);
  window = self->window;
  parameter = self->window_parameter;
  GST_OBJECT_UNLOCK (self);

  /* before anything is allocated: teardown() follows only a setup() that
   * succeeded */
  if (!gst_aooct_fft_check_window (window, parameter, error))
    return FALSE;
#ifdef HAVE_CUDA
  if (filter->active_backend == GST_AOOCT_BACKEND_CUDA) {
    /* batched cuFFT plan, work area and window table, once per geometry */
    /* (no C2C plan for the non-uniform transforms, which have their own) */
    self->cuda = aooct_cuda_fft_new (filter->in_geom.samples,
        filter->in_geom.k_sampling == AOOCT_K_SAMPLING_EVEN ?
        aooct_geometry_total_alines (&filter->in_geom) : 0, error);
    if (self->cuda == NULL)
      return FALSE;
    /* the non-uniform transforms (cuBLAS, and the NUFFT's kernels) have
     * not been tried inside a CUDA graph capture: launched as they are */
    filter->graphs_unsupported =
        filter->in_geom.k_sampling != AOOCT_K_SAMPLING_EVEN;
    if (filter->in_geom.k_sampling != AOOCT_K_SAMPLING_EVEN) {
      self->cuda_nu = aooct_cuda_nonuniform_new (&filter->in_geom,
          filter->in_positions,
          aooct_geometry_total_alines (&filter->in_geom), error);
      if (self->cuda_nu == NULL) {
        g_clear_pointer (&self->cuda, aooct_cuda_fft_free);
        return FALSE;
      }
    }
    /* for the steps aooctkmap / aooctdisp may defer to us */
    self->prep = aooct_cuda_prep_new (filter->in_geom.samples,
        aooct_geometry_total_alines (&filter->in_geom), error);
    if (self->prep == NULL) {
      g_clear_pointer (&self->cuda, aooct_cuda_fft_free);
      g_clear_pointer (&self->cuda_nu, aooct_cuda_nonuniform_free);
      return FALSE;
    }
    return gst_aooct_fft_build_window (self, window, parameter, error);
  }
#endif
  if (filter->in_geom.k_sampling != AOOCT_K_SAMPLING_EVEN) {
    self->cpu_nu = aooct_cpu_nonuniform_new (&filter->in_geom,
        filter->in_positions, aooct_cpu_threads (), error);
    if (self->cpu_nu == NULL)
      return FALSE;
    return gst_aooct_fft_build_window (self, window, parameter, error);
  }
  self->cpu = aooct_cpu_fft_new (filter->in_geom.samples, aooct_cpu_threads (),
      error);
  if (self->cpu == NULL)
    return FALSE;
  return gst_aooct_fft_build_window (self, window, parameter, error);
}

/* window and its parameter are mutable while playing: a change applies
 * from this buffer */
static gboolean
gst_aooct_fft_update_window (GstAooctFft * self, GError ** error)
{
  AooctWindow window;
  gdouble parameter;

  GST_OBJECT_LOCK (self);
  window = self->window;
  parameter = self->window_parameter;
  GST_OBJECT_UNLOCK (self);
  if (window == self->active_window && parameter == self->active_parameter)
    return TRUE;
  return gst_aooct_fft_build_window (self, window, parameter, error);
}

static gboolean
gst_aooct_fft_process_cpu (GstAooctFilter * filter, const AooctPlane * in,
    AooctPlane * out, GError ** error)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);

  if (!gst_aooct_fft_update_window (self, error))
    return FALSE;
  /* application/x-aooct buffers are contiguous: stride == A-line size */
  if (self->cpu_nu) {
    aooct_cpu_nonuniform_process (self->cpu_nu, (const gfloat *) in->data,
        filter->in_geom.sample_type == AOOCT_SAMPLE_COMPLEX, self->table,
        (gfloat *) out->data,
        (gint) aooct_geometry_total_alines (&filter->in_geom));
    return TRUE;
  }
  aooct_cpu_fft_process (self->cpu, (const gfloat *) in->data,
      filter->in_geom.sample_type == AOOCT_SAMPLE_COMPLEX, self->table,
      (gfloat *) out->data,
      (gint) aooct_geometry_total_alines (&filter->in_geom));
  return TRUE;
}

#ifdef HAVE_CUDA
/* a failed CUDA graph capture: the window and the tables it enqueued
 * never reached the GPU */
static void
gst_aooct_fft_cuda_graph_abort (GstAooctFilter * filter)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);

  self->cuda_stale = TRUE;
  aooct_cuda_prep_forget (self->prep);
}

static gboolean
gst_aooct_fft_process_cuda (GstAooctFilter * filter, const AooctPlane * in,
    AooctPlane * out, AooctCudaStream stream, GError ** error)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);

  if (!gst_aooct_fft_update_window (self, error))
    return FALSE;
  /* the copy runs after the kernels of earlier buffers (same stream), so
   * they keep the window they were enqueued with */
  if (self->cuda_stale) {
    if (!aooct_cuda_fft_set_window (self->cuda, self->table, stream, error))
      return FALSE;
    self->cuda_stale = FALSE;
  }
  /* resampling and/or dispersion (and aooctpad's scale) left to us: the
   * input holds the real spectra before them, and one pass applies them
   * with the window */
  if (filter->pending) {
    AooctCudaPrepSteps steps;

    /* pending steps come only with real spectra (a pending dispersion
     * makes them complex in the caps only) */
    if (filter->in_geom.sample_type == AOOCT_SAMPLE_COMPLEX
        && !aooct_pending_meta_data_is_real (filter->pending)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "complex spectra carry deferred steps that apply to real ones");
      return FALSE;
    }
    if (!aooct_pending_meta_load (filter->pending, self->prep,
            filter->in_geom.samples, stream, error))
      return FALSE;
    aooct_pending_meta_steps (filter->pending, &steps);
    if (self->cuda_nu) {
      gfloat *work = aooct_cuda_nonuniform_work (self->cuda_nu);

      return aooct_cuda_fft_prepare_into (self->cuda, self->prep,
          (const gfloat *) in->data, &steps, work, stream, error)
          && aooct_cuda_nonuniform_process (self->cuda_nu, work,
          (gfloat *) out->data, stream, error);
    }
    return aooct_cuda_fft_process_prepared (self->cuda, self->prep,
        (const gfloat *) in->data, &steps, (gfloat *) out->data, stream, error);
  }
  if (self->cuda_nu) {
    /* window (at the positions) into the complex work buffer, then the
     * non-uniform transform */
    gfloat *work = aooct_cuda_nonuniform_work (self->cuda_nu);

    return aooct_cuda_fft_window_into (self->cuda, in->data,
        filter->in_geom.sample_type == AOOCT_SAMPLE_COMPLEX, work,
        aooct_geometry_total_alines (&filter->in_geom), stream, error)
        && aooct_cuda_nonuniform_process (self->cuda_nu, work,
        (gfloat *) out->data, stream, error);
  }
  return aooct_cuda_fft_process (self->cuda, in->data,
      filter->in_geom.sample_type == AOOCT_SAMPLE_COMPLEX,
      (gfloat *) out->data, stream, error);
}
#endif

static void
gst_aooct_fft_teardown (GstAooctFilter * filter)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);

  g_clear_pointer (&self->cpu, aooct_cpu_fft_free);
  g_clear_pointer (&self->cpu_nu, aooct_cpu_nonuniform_free);
  g_clear_pointer (&self->table, g_free);
#ifdef HAVE_CUDA
  /* context current, GPU idle (base class) */
  g_clear_pointer (&self->cuda, aooct_cuda_fft_free);
  g_clear_pointer (&self->cuda_nu, aooct_cuda_nonuniform_free);
  g_clear_pointer (&self->prep, aooct_cuda_prep_free);
#endif
}

static void
gst_aooct_fft_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctFft *self = GST_AOOCT_FFT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW:
      self->window = g_value_get_enum (value);
      break;
    case PROP_WINDOW_PARAMETER:
      self->window_parameter = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_fft_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctFft *self = GST_AOOCT_FFT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW:
      g_value_set_enum (value, self->window);
      break;
    case PROP_WINDOW_PARAMETER:
      g_value_set_double (value, self->window_parameter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_fft_finalize (GObject * object)
{
  GstAooctFft *self = GST_AOOCT_FFT (object);

  aooct_cpu_fft_free (self->cpu);
  aooct_cpu_nonuniform_free (self->cpu_nu);
  g_free (self->table);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_aooct_fft_class_init (GstAooctFftClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_fft_set_property;
  gobject_class->get_property = gst_aooct_fft_get_property;
  gobject_class->finalize = gst_aooct_fft_finalize;

  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_enum ("window", "Window",
          "Spectral window over the measured samples (0 outside them), "
          "applied before the FFT; default none.  May be changed while "
          "playing: applies from the next buffer",
          GST_TYPE_AOOCT_WINDOW, DEFAULT_WINDOW,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_WINDOW_PARAMETER,
      g_param_spec_double ("window-parameter", "Window parameter",
          "The window's parameter: the Gaussian's width s (in units of the "
          "half data region, > 0), the Tukey alpha (fraction of the data "
          "region tapered, 0..1) or the Kaiser beta (0..700); 0 means s = "
          "0.4, alpha = 0.5, beta = 8; ignored by the other windows.  May "
          "be changed while playing: applies from the next buffer",
          0.0, G_MAXDOUBLE, DEFAULT_WINDOW_PARAMETER,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT FFT", "Filter/Converter/Video",
      "Windows OCT spectra and transforms them to depth profiles by FFT",
      "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output = GST_DEBUG_FUNCPTR (gst_aooct_fft_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_fft_setup);
  filter_class->process_cpu = GST_DEBUG_FUNCPTR (gst_aooct_fft_process_cpu);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_fft_teardown);
#ifdef HAVE_CUDA
  filter_class->process_cuda = GST_DEBUG_FUNCPTR (gst_aooct_fft_process_cuda);
  /* only kernels and cuFFT on the stream: capturable (cuda-graphs=true) */
  filter_class->cuda_graphs = TRUE;
  filter_class->cuda_graph_abort =
      GST_DEBUG_FUNCPTR (gst_aooct_fft_cuda_graph_abort);
  filter_class->absorbs_pending = TRUE;
#endif

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_WINDOW, 0);
}

static void
gst_aooct_fft_init (GstAooctFft * self)
{
  self->window = DEFAULT_WINDOW;
  self->window_parameter = DEFAULT_WINDOW_PARAMETER;
}
