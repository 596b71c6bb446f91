/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctfft
 * @title: aooctfft
 * @short_description: spectral window and FFT to depth
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
 * kernel as the window ("Deferred steps" in docs/cuda-memory.md).
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

#include <string.h>

#include "gstaooctfft.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-omp.h"
#include "aooct-window.h"
#include "aooct-cpu-fft.h"
#include "aooct-cpu-nonuniform.h"
#include "aooct-kspace.h"
#include "aooct-step.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-fft.h"
#include "aooct-cuda-nonuniform.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_fft_debug);
#define GST_CAT_DEFAULT gst_aooct_fft_debug

/* What the step gets with each buffer (live: window and
 * window-parameter may change while playing; aooct-step.h). */
typedef struct
{
  const gfloat *table;          /* P2 weights, NULL for no window */
  guint serial;                 /* identifies @table */
} FftLive;

struct _GstAooctFft
{
  GstAooctFilter parent;

  /* property, under the object lock */
  AooctWindow window;
  gdouble window_parameter;     /* 0 = the window's default */

  /* streaming thread only, from setup() */
  AooctWindow active_window;    /* what `table` holds */
  gdouble active_parameter;
  gfloat *table;                /* P2 weights, NULL for no window */
  guint table_serial;           /* changes with every new table */
  FftLive live;                 /* what the step gets with the buffer */
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

/* ---- the step on both backends (aooct-step.h) ------------------------ */

/* The FFT, or for k-sampling=nudft / nufft the non-uniform transform at
 * the input's positions; the window comes with each buffer. */
typedef struct
{
  AooctCpuFftPlan *fft;
  AooctCpuNonuniformPlan *nu;   /* in place of fft for nudft / nufft */
  gboolean complex_in;
  gint rows;                    /* A-lines per buffer */
} FftCpu;

static void
fft_cpu_plan_free (gpointer plan)
{
  FftCpu *c = plan;

  aooct_cpu_fft_plan_free (c->fft);
  aooct_cpu_nonuniform_plan_free (c->nu);
  g_free (c);
}

static gpointer
fft_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  FftCpu *c = g_new0 (FftCpu, 1);

  c->complex_in = shape->in->sample_type == AOOCT_SAMPLE_COMPLEX;
  c->rows = (gint) aooct_geometry_total_alines (shape->in);
  if (shape->in->k_sampling != AOOCT_K_SAMPLING_EVEN)
    c->nu = aooct_cpu_nonuniform_plan_new (shape->in,
        shape->in_positions, aooct_cpu_threads (), error);
  else
    c->fft =
        aooct_cpu_fft_plan_new (shape->in->samples, aooct_cpu_threads (),
        error);
  if (c->fft == NULL && c->nu == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

static gboolean
fft_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  FftCpu *c = plan;
  const FftLive *live = run->live;

  /* application/x-aooct buffers are contiguous: stride == A-line size */
  if (c->nu)
    aooct_cpu_nonuniform_execute (c->nu, (const gfloat *) in->data,
        c->complex_in, live->table, (gfloat *) out->data, c->rows);
  else
    aooct_cpu_fft_execute (c->fft, (const gfloat *) in->data, c->complex_in,
        live->table, (gfloat *) out->data, c->rows);
  return TRUE;
}

static const AooctStepOps fft_cpu = { fft_cpu_plan_new, fft_cpu_execute,
  fft_cpu_plan_free
};

#ifdef HAVE_CUDA
typedef struct
{
  AooctGeometry in;
  AooctCudaFftPlan *fft;        /* plan and device window table */
  AooctCudaNonuniformPlan *nu;  /* the NUDFT / NUFFT after the prep pass */
  AooctCudaPrepPlan *prep;      /* tables of steps deferred to us */
  gboolean window_loaded;       /* ... and window_serial is on the GPU */
  guint window_serial;
} FftCuda;

static void
fft_cuda_plan_free (gpointer plan)
{
  FftCuda *c = plan;

  aooct_cuda_fft_plan_free (c->fft);
  aooct_cuda_nonuniform_plan_free (c->nu);
  aooct_cuda_prep_plan_free (c->prep);
  g_free (c);
}

static gpointer
fft_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  FftCuda *c = g_new0 (FftCuda, 1);
  gsize rows = aooct_geometry_total_alines (shape->in);

  c->in = *shape->in;
  /* batched cuFFT plan, work area and window table, once per geometry */
  /* (no C2C plan for the non-uniform transforms, which have their own) */
  c->fft = aooct_cuda_fft_plan_new (c->in.samples,
      c->in.k_sampling == AOOCT_K_SAMPLING_EVEN ? rows : 0, error);
  if (c->fft == NULL)
    goto failed;
  if (c->in.k_sampling != AOOCT_K_SAMPLING_EVEN) {
    c->nu = aooct_cuda_nonuniform_plan_new (&c->in, shape->in_positions, rows,
        TRUE, error);
    if (c->nu == NULL)
      goto failed;
  }
  /* for the steps aooctkmap / aooctdisp may defer to us */
  c->prep = aooct_cuda_prep_plan_new (c->in.samples, rows, error);
  if (c->prep == NULL)
    goto failed;
  return c;

failed:
  fft_cuda_plan_free (c);
  return NULL;
}

/* a failed CUDA graph capture: the window and the tables it enqueued
 * never reached the GPU */
static void
fft_cuda_rewind (gpointer plan)
{
  FftCuda *c = plan;

  c->window_loaded = FALSE;
  aooct_cuda_prep_rewind (c->prep);
}

static gboolean
fft_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  FftCuda *c = plan;
  const FftLive *live = run->live;
  const gboolean complex_in = c->in.sample_type == AOOCT_SAMPLE_COMPLEX;

  /* the copy runs after the kernels of earlier buffers (same stream), so
   * they keep the window they were enqueued with */
  if (!c->window_loaded || c->window_serial != live->serial) {
    if (!aooct_cuda_fft_set_window (c->fft, live->table, run->stream, error))
      return FALSE;
    c->window_loaded = TRUE;
    c->window_serial = live->serial;
  }
  /* resampling and/or dispersion (and aooctpad's scale) left to us: the
   * input holds the real spectra before them, and one pass applies them
   * with the window */
  if (run->pending) {
    AooctCudaPrepSteps steps;

    /* pending steps come only with real spectra (a pending dispersion
     * makes them complex in the caps only) */
    if (complex_in && !aooct_pending_meta_data_is_real (run->pending)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "complex spectra carry deferred steps that apply to real ones");
      return FALSE;
    }
    if (!aooct_pending_meta_load (run->pending, c->prep, c->in.samples,
            run->stream, error))
      return FALSE;
    aooct_pending_meta_steps (run->pending, &steps);
    if (c->nu) {
      gfloat *work = aooct_cuda_nonuniform_work (c->nu);

      return aooct_cuda_fft_prepare_into (c->fft, c->prep,
          (const gfloat *) in->data, &steps, work, run->stream, error)
          && aooct_cuda_nonuniform_execute (c->nu, work,
          (gfloat *) out->data, run->stream, error);
    }
    return aooct_cuda_fft_execute_prepared (c->fft, c->prep,
        (const gfloat *) in->data, &steps, (gfloat *) out->data, run->stream,
        error);
  }
  if (c->nu) {
    /* window (at the positions) into the complex work buffer, then the
     * non-uniform transform */
    gfloat *work = aooct_cuda_nonuniform_work (c->nu);

    return aooct_cuda_fft_window_into (c->fft, in->data, complex_in, work,
        aooct_geometry_total_alines (&c->in), run->stream, error)
        && aooct_cuda_nonuniform_execute (c->nu, work, (gfloat *) out->data,
        run->stream, error);
  }
  return aooct_cuda_fft_execute (c->fft, in->data, complex_in,
      (gfloat *) out->data, run->stream, error);
}

/* With the window and the deferred steps' tables on the GPU already, the
 * work depends on the planes and the deferred steps (in the base class's
 * key) and on which window (its serial).  A table still to upload, or the
 * non-uniform transforms, are captured each time. */
static gssize
fft_cuda_graph_key (gpointer plan, const AooctStepRun * run, guint8 * key)
{
  FftCuda *c = plan;
  const FftLive *live = run->live;
  const AooctPendingMeta *p = run->pending;

  if (c->nu || !c->window_loaded || c->window_serial != live->serial
      || (p && !aooct_cuda_prep_holds (c->prep, p->kmap.data != NULL,
              p->kmap.serial, p->disp.data != NULL, p->disp.serial)))
    return -1;
  memcpy (key, &live->serial, sizeof (live->serial));
  return sizeof (live->serial);
}

static const AooctStepOps fft_cuda = { fft_cuda_plan_new, fft_cuda_execute,
  fft_cuda_plan_free, NULL, fft_cuda_rewind, fft_cuda_graph_key
};

#define FFT_CUDA (&fft_cuda)
#else
#define FFT_CUDA NULL
#endif

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
  /* the CUDA core uploads it with the next buffer, ordered on its stream */
  self->table_serial++;
  GST_DEBUG_OBJECT (self, "window %d (parameter %g) over samples %d..%d of "
      "%d", window, parameter, aooct_geometry_data_start (g),
      aooct_geometry_data_end (g), g->samples);
  return TRUE;
}

static gboolean
gst_aooct_fft_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
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
  /* the non-uniform transforms (cuBLAS, and the NUFFT's kernels) have
   * not been tried inside a CUDA graph capture: launched as they are */
  filter->graphs_unsupported =
      filter->in_geom.k_sampling != AOOCT_K_SAMPLING_EVEN;
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

/* the window as it is for this buffer (rebuilt after a change) */
static gboolean
gst_aooct_fft_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);

  if (!gst_aooct_fft_update_window (self, error))
    return FALSE;
  self->live.table = self->table;
  self->live.serial = self->table_serial;
  *live = &self->live;
  return TRUE;
}

static void
gst_aooct_fft_teardown (GstAooctFilter * filter)
{
  GstAooctFft *self = GST_AOOCT_FFT (filter);

  g_clear_pointer (&self->table, g_free);
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

  /**
   * GstAooctFft:window:
   *
   * Spectral window over the measured samples (0 outside them), applied
   * before the FFT; default none.  May be changed while playing: applies
   * from the next buffer
   */
  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_enum ("window", "Window",
          "Spectral window over the measured samples (0 outside them), "
          "applied before the FFT; default none.  May be changed while "
          "playing: applies from the next buffer",
          GST_TYPE_AOOCT_WINDOW, DEFAULT_WINDOW,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  /**
   * GstAooctFft:window-parameter:
   *
   * The window's parameter: the Gaussian's width s (in units of the half
   * data region, > 0), the Tukey alpha (fraction of the data region
   * tapered, 0..1) or the Kaiser beta (0..700); 0 means s = 0.4, alpha =
   * 0.5, beta = 8; ignored by the other windows.  May be changed while
   * playing: applies from the next buffer
   */
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
  filter_class->cuda_stage = 2;
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_fft_live);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_fft_teardown);
  filter_class->cpu_ops = &fft_cpu;
  filter_class->cuda_ops = FFT_CUDA;
#ifdef HAVE_CUDA
  /* only kernels and cuFFT on the stream: capturable (cuda-graphs=true) */
  filter_class->cuda_graphs = TRUE;
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
