/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctdisp
 * @title: aooctdisp
 * @short_description: dispersion compensation
 *
 * Multiplies each real spectrum by one complex weight per sample and
 * outputs complex spectra (interleaved float32 re, im) for aooctfft (spec
 * section 5).  The weights come from a text file (phase-file: each line
 * one phase phi in radians, or the two numbers re im of the weight; both
 * kinds may be mixed) of P2 records, one per sample of the padded grid, or
 * of N records, one per camera pixel of the data region, interpolated
 * onto whatever grid aooctpad makes (phase-file-grid: auto tells the two
 * by the count), or from the coefficients
 * w = exp(j (a2 u^2 + a3 u^3 + a4 u^4 + a5 u^5)) with u running from -1
 * to 1 over the data region, or are all 1 (no compensation, only the
 * conversion to complex).  A phase file and a non-zero coefficient
 * together are an error.  docs/howto.md converts other programs'
 * dispersion settings (octopod, OCTproZ, vortex, physical units) to
 * these.
 *
 * A phase file of re im records is a general complex spectral filter (what
 * vortex calls a spectral filter): any per-sample weight, for example a
 * measured spectral shaping, an apodisation of your own (real weights) or
 * both combined with the dispersion phase, multiplies the spectrum here.
 *
 * a2 and a3 can be tuned while the pipeline plays: a change takes effect at
 * the next buffer.  On the CUDA backend the weights stay in device memory
 * and are uploaded again only after such a change, ordered with the
 * buffers on the element's CUDA stream; the product is bit-identical to
 * the CPU path.  Next to aooctkmap and aooctfft on CUDA the three
 * pointwise steps become one pass: a resampling that aooctkmap defers is
 * applied here together with the weights, and when aooctfft follows,
 * aooctdisp leaves the weights to it in turn ("Deferred steps" in
 * docs/cuda-memory.md; the same result, bit for bit).
 *
 * With estimate=true aooctdisp finds a2 and a3 itself: before it
 * processes the first B-scan after a start (or a new geometry), it
 * maximises the sharpness of that B-scan's depth profiles over a2, then
 * a3, then both (the metric and the search: cpu/aooct-cpu-disp-estimate.h,
 * docs/howto.md "Dispersion found for you"), applies the result to that
 * B-scan and every later one, sets its a2 and a3 properties (notify::a2,
 * notify::a3) and posts an element message "aooct-dispersion" with the
 * fields a2, a3 (double, radians), sharpness, sharpness-uncompensated,
 * evaluations, alines and milliseconds.  The action signal "re-estimate"
 * asks for a new estimate from the next buffer (whatever estimate is).
 * The search runs on the host, on 64 evenly spaced A-lines of the B-scan;
 * on the CUDA backend the B-scan is read back from the GPU once for it.
 * It varies a2 and a3 only: with a4 or a5 set it is an error (they would
 * be applied but never measured).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=10 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="800,0.1" ! aooctdisp a2=12.5 a3=-3 ! \
 *     aooctfft ! aooctnorm ! videoconvert ! autovideosink
 * ]|
 * A phase measured per camera pixel (N records, for example by
 * aooct-calibrate --phase-output), whatever aooctpad's size:
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=10 ! aooctdcsub ! aooctpad size=4096 ! \
 *     aooctkmap wavelength-coeffs="800,0.1" ! \
 *     aooctdisp phase-file=phase.txt phase-file-grid=camera ! \
 *     aooctfft ! aooctnorm ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstaooctdisp.h"
#include "aooct-caps.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"
#include "aooct-error.h"
#include "aooct-cpu-disp.h"
#include "aooct-cpu-disp-estimate.h"
#include "aooct-cpu-kmap.h"
#include "aooct-pending-meta.h"
#include "aooct-step.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-prep.h"
#include "aooct-kmap-table.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_disp_debug);
#define GST_CAT_DEFAULT gst_aooct_disp_debug

/* What the step gets with each buffer (live: a2, a3 and phase-file may
 * change while playing; aooct-step.h). */
typedef struct
{
  GBytes *weights;
  guint serial;
} DispLive;

struct _GstAooctDisp
{
  GstAooctFilter parent;

  /* properties, under the object lock; @dirty says that one changed since
   * the weights were built (the streaming thread rebuilds them) */
  gchar *phase_file;
  AooctDispGrid phase_file_grid;
  gdouble a[AOOCT_DISP_N_COEFFS];       /* a2 .. a5 */
  gboolean dirty;
  gboolean estimate;            /* property */
  gboolean estimate_pending;    /* estimate from the next buffer */
  gboolean estimated;           /* a2/a3 are an estimate's (re-estimate) */

  /* streaming thread only */
  GBytes *weights;              /* 2 * P2 floats, re/im interleaved */
  guint weights_serial;         /* identifies them (aooct-pending-meta.h) */
  DispLive live;                /* what the step gets with the buffer */
};


enum
{
  PROP_0,
  PROP_PHASE_FILE,
  PROP_A2,
  PROP_A3,
  PROP_A4,
  PROP_A5,
  PROP_PHASE_FILE_GRID,
  PROP_ESTIMATE,
};

enum
{
  SIGNAL_RE_ESTIMATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];
static GParamSpec *a2_pspec, *a3_pspec;

#define GST_TYPE_AOOCT_DISP_GRID (gst_aooct_disp_grid_get_type ())
static GType
gst_aooct_disp_grid_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_DISP_GRID_AUTO, "P2 records: the padded grid; N records: the "
          "camera pixels", "auto"},
    {AOOCT_DISP_GRID_PADDED, "One record per sample of the padded grid (P2)",
        "padded"},
    {AOOCT_DISP_GRID_CAMERA, "One record per camera pixel (N), interpolated "
          "onto the padded grid", "camera"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctDispGrid", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* GObject rejects values outside the range, NaN and infinities included;
 * 1e6 rad is far beyond any physical dispersion. */
#define COEFF_MIN -1e6
#define COEFF_MAX 1e6

#define gst_aooct_disp_parent_class parent_class
G_DEFINE_TYPE (GstAooctDisp, gst_aooct_disp, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctdisp, "aooctdisp",
    GST_RANK_NONE, GST_TYPE_AOOCT_DISP,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_disp_debug, "aooctdisp", 0,
        "aooct dispersion compensation"));

static gboolean
gst_aooct_disp_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  /* complex input: the full-range spectra of aooctfullrange (section 9),
   * times the weights; not the complex output of a standard aooctdisp.
   * (The caps do not record whether a full-range spectrum has been
   * through aooctdisp already, so a second one there is not caught.) */
  if (in->domain != AOOCT_DOMAIN_SPECTRAL
      || (in->sample_type != AOOCT_SAMPLE_REAL && !in->full_range)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctdisp needs spectral real input (or the complex full-range "
        "spectra of aooctfullrange) but got domain=%s, "
        "sample-type=%s", aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  if (in->k_sampling != AOOCT_K_SAMPLING_EVEN) {
    GstAooctDisp *self = GST_AOOCT_DISP (filter);
    gboolean file;

    GST_OBJECT_LOCK (self);
    file = self->phase_file && self->phase_file[0];
    GST_OBJECT_UNLOCK (self);
    if (file) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "phase-file cannot be used with aooctkmap interpolation=%s: its "
          "weights are given on the even-k grid, and these samples are not "
          "on it (spec section 8); use a2/a3, which are evaluated at each "
          "sample's position", aooct_k_sampling_to_string (in->k_sampling));
      return FALSE;
    }
  }
  *out = *in;
  out->sample_type = AOOCT_SAMPLE_COMPLEX;
  return TRUE;
}

/* Builds the weights from the current properties (streaming thread). */
static gboolean
rebuild_weights (GstAooctDisp * self, GError ** error)
{
  GstAooctFilter *filter = GST_AOOCT_FILTER (self);
  gchar *file;
  gdouble a[AOOCT_DISP_N_COEFFS];
  AooctDispGrid grid;
  gfloat *w = NULL;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->phase_file);
  grid = self->phase_file_grid;
  memcpy (a, self->a, sizeof (a));
  self->dirty = FALSE;
  GST_OBJECT_UNLOCK (self);

  GST_DEBUG_OBJECT (self, "weights from phase-file=%s a2=%g a3=%g a4=%g "
      "a5=%g", GST_STR_NULL (file), a[0], a[1], a[2], a[3]);
  if (filter->in_geom.k_sampling != AOOCT_K_SAMPLING_EVEN) {
    /* non-uniform samples (aooctkmap nudft/nufft): u at their positions */
    if (file && file[0])
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "phase-file cannot be used with aooctkmap interpolation=%s (its "
          "weights are on the even-k grid); use a2/a3",
          aooct_k_sampling_to_string (filter->in_geom.k_sampling));
    else
      w = aooct_disp_weights_new_at (&filter->in_geom, filter->in_positions,
          a, error);
  } else {
    w = aooct_disp_weights_new (&filter->in_geom, file, grid, a, error);
  }
  g_free (file);
  if (w == NULL) {
    /* look again at the next buffer */
    GST_OBJECT_LOCK (self);
    self->dirty = TRUE;
    GST_OBJECT_UNLOCK (self);
    /* Switching between phase-file and a2/a3 while playing sets them one
     * after the other, even in one g_object_set(): both set for a moment
     * is half a change, not a reason to end the stream.  The weights of
     * the last consistent settings stay (the base class warns if the
     * contradiction outlasts a buffer).  A file that cannot be read is an
     * error: never go on with stale weights then. */
    if (self->weights && error && *error && (*error)->domain == AOOCT_ERROR
        && (*error)->code == AOOCT_ERROR_SETTINGS) {
      gst_aooct_filter_tolerate_inconsistent (filter, *error);
      g_clear_error (error);
      return TRUE;
    }
    return FALSE;
  }
  gst_aooct_filter_settings_consistent (filter);
  if (self->weights)
    g_bytes_unref (self->weights);
  self->weights = g_bytes_new_take (w,
      2 * (gsize) filter->in_geom.samples * sizeof (gfloat));
  /* a new serial: the next CUDA process uploads them, ordered on the
   * element's stream, or the element they are deferred to does */
  self->weights_serial = aooct_pending_serial_next ();
  return TRUE;
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

AOOCT_STEP_FORWARD_PLAN_NEW (disp_cpu_plan_new,
    aooct_cpu_disp_plan_new (shape->in));

static gboolean
disp_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const DispLive *live = run->live;

  aooct_cpu_disp_execute (plan, g_bytes_get_data (live->weights, NULL),
      in->data, in->stride, out->data, out->stride);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (disp_cpu_plan_free, aooct_cpu_disp_plan_free);

static const AooctStepOps disp_cpu = { disp_cpu_plan_new, disp_cpu_execute,
  disp_cpu_plan_free
};

#ifdef HAVE_CUDA
typedef struct
{
  AooctGeometry in;
  AooctCudaPrepPlan *prep;      /* device copy of the weights (and of a
                                 * resampling table deferred to us) */
} DispCuda;

static void
disp_cuda_plan_free (gpointer plan)
{
  DispCuda *c = plan;

  aooct_cuda_prep_plan_free (c->prep);
  g_free (c);
}

static gpointer
disp_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  DispCuda *c = g_new0 (DispCuda, 1);

  c->in = *shape->in;
  /* device weights allocated once per geometry; a change while playing
   * only re-uploads */
  c->prep = aooct_cuda_prep_plan_new (shape->in->samples,
      aooct_geometry_total_alines (shape->in), error);
  if (c->prep == NULL) {
    g_free (c);
    return NULL;
  }
  return c;
}

static gboolean
disp_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  DispCuda *c = plan;
  const DispLive *live = run->live;
  const AooctPendingMeta *pending = run->pending;
  AooctCudaPrepSteps steps;

  /* uploads run after the kernels of earlier buffers (same stream), so
   * they keep the tables they were enqueued with */
  if (!aooct_cuda_prep_set_disp (c->prep, live->serial,
          g_bytes_get_data (live->weights, NULL), run->stream, error))
    return FALSE;
  /* complex (full-range) spectra: nothing is deferred on them (the base
   * class makes sure) */
  if (c->in.sample_type == AOOCT_SAMPLE_COMPLEX) {
    if (pending) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "complex full-range spectra carry deferred steps");
      return FALSE;
    }
    return aooct_cuda_prep_execute_disp_complex (c->prep,
        (const gfloat *) in->data, (gfloat *) out->data, run->stream, error);
  }
  /* a resampling that aooctkmap (and a scale that aooctpad) left to us:
   * fused with ours */
  if (pending && !aooct_pending_meta_load (pending, c->prep, c->in.samples,
          run->stream, error))
    return FALSE;
  aooct_pending_meta_steps (pending, &steps);
  steps.disp = TRUE;
  return aooct_cuda_prep_execute (c->prep, (const gfloat *) in->data,
      &steps, NULL, (gfloat *) out->data, run->stream, error);
}

static const AooctStepOps disp_cuda = { disp_cuda_plan_new, disp_cuda_execute,
  disp_cuda_plan_free
};

#define DISP_CUDA (&disp_cuda)
#else
#define DISP_CUDA NULL
#endif

static gboolean
gst_aooct_disp_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctDisp *self = GST_AOOCT_DISP (filter);

  /* a new start or geometry: estimate again from its first B-scan */
  GST_OBJECT_LOCK (self);
  if (self->estimate)
    self->estimate_pending = TRUE;
  GST_OBJECT_UNLOCK (self);

  if (!rebuild_weights (self, error))
    return FALSE;
  return TRUE;
}

/* a2/a3/phase-file changed since the weights were built: rebuild them in
 * the streaming thread, so that a change applies from one buffer on */
static gboolean
update_weights (GstAooctDisp * self, GError ** error)
{
  gboolean dirty;

  GST_OBJECT_LOCK (self);
  dirty = self->dirty;
  GST_OBJECT_UNLOCK (self);
  return !dirty || rebuild_weights (self, error);
}

/* the weights as they are for this buffer (rebuilt after a change) */
static gboolean
gst_aooct_disp_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctDisp *self = GST_AOOCT_DISP (filter);

  if (!update_weights (self, error))
    return FALSE;
  self->live.weights = self->weights;
  self->live.serial = self->weights_serial;
  *live = &self->live;
  return TRUE;
}

#ifdef HAVE_CUDA
/* Downstream (aooctfft) applies the weights, fused with its window */
static gboolean
gst_aooct_disp_defer (GstAooctFilter * filter, AooctPendingMeta * meta,
    GError ** error)
{
  GstAooctDisp *self = GST_AOOCT_DISP (filter);

  if (!update_weights (self, error))
    return FALSE;
  if (meta->disp.data) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input already carries a deferred dispersion step");
    return FALSE;
  }
  aooct_pending_table_set (&meta->disp, self->weights, self->weights_serial);
  return TRUE;
}
#endif

/* Applies the steps an upstream element deferred to us (aooctpad's scale
 * and margins, aooctkmap's resampling) to the first @rows spectra of
 * @data in place, as the CUDA kernels would: the estimate must see the
 * k-linear spectra that the weights will multiply.  FALSE with a message
 * for a table that does not fit. */
static gboolean
apply_pending_on_host (const AooctPendingMeta * meta, const AooctGeometry * g,
    gfloat * data, gint rows, GError ** error)
{
  const gint p2 = g->samples;
  const gsize bytes = (gsize) rows * p2 * sizeof (gfloat);
  AooctGeometry rows_geom = *g;
  AooctKmapFir fir;
  AooctKmapTable table;
  gfloat *tmp;
  gint r, i;

  if (meta->pad)
    for (r = 0; r < rows; r++) {
      gfloat *z = data + (gsize) r * p2;

      for (i = 0; i < p2; i++)
        z[i] = (i >= meta->pad_j0 && i <= meta->pad_j1) ?
            z[i] * meta->pad_scale : 0.0f;
    }
  if (meta->kmap.data == NULL)
    return TRUE;
  /* the resampling: aooctkmap's own CPU core (linear or FIR) on these
   * rows, with the meta's table */
  rows_geom.sample_type = AOOCT_SAMPLE_REAL;
  rows_geom.alines = rows;
  rows_geom.bscans = 1;
  if (meta->kmap_taps > 0 ?
      !aooct_pending_meta_kmap_fir (meta, p2, &fir, error) :
      !aooct_pending_meta_kmap_table (meta, p2, &table, error))
    return FALSE;
  tmp = g_malloc (bytes);
  if (meta->kmap_taps > 0) {
    AooctCpuKmapFirPlan *plan = aooct_cpu_kmap_fir_plan_new (&rows_geom, &fir);

    aooct_cpu_kmap_fir_execute (plan, (const guint8 *) data,
        p2 * sizeof (gfloat), (guint8 *) tmp, p2 * sizeof (gfloat));
    aooct_cpu_kmap_fir_plan_free (plan);
  } else {
    AooctCpuKmapPlan *plan = aooct_cpu_kmap_plan_new (&rows_geom, &table);

    aooct_cpu_kmap_execute (plan, (const guint8 *) data,
        p2 * sizeof (gfloat), (guint8 *) tmp, p2 * sizeof (gfloat));
    aooct_cpu_kmap_plan_free (plan);
  }
  memcpy (data, tmp, bytes);
  g_free (tmp);
  return TRUE;
}

/* Estimates a2/a3 from the first B-scan of @inbuf, makes them the
 * element's coefficients (the weights are rebuilt before this buffer is
 * processed) and announces them. */
static gboolean
gst_aooct_disp_estimate (GstAooctDisp * self, GstBuffer * inbuf,
    GError ** error)
{
  GstAooctFilter *filter = GST_AOOCT_FILTER (self);
  const AooctGeometry *g = &filter->in_geom;
  const AooctPendingMeta *meta = aooct_buffer_get_pending_meta (inbuf);
  AooctDispEstimateParams params;
  AooctDispEstimate est;
  GstMapInfo map;
  gfloat *spectra;
  gsize bytes = (gsize) g->alines * g->samples * sizeof (gfloat);
  gint64 t0 = g_get_monotonic_time ();
  gdouble ms;
  gchar *file;
  gdouble a4, a5;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  file = g_strdup (self->phase_file);
  a4 = self->a[2];
  a5 = self->a[3];
  GST_OBJECT_UNLOCK (self);
  if (a4 != 0.0 || a5 != 0.0) {
    /* the search varies a2 and a3 alone: the higher orders would be
     * applied but never measured */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "estimate=true (or re-estimate) finds a2 and a3 with a4 = a5 = 0, "
        "but a4=%g, a5=%g are set: set them to 0, or give all four (for "
        "example from aooct-calibrate) without estimate", a4, a5);
    g_free (file);
    return FALSE;
  }
  if (file && file[0]) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "estimate=true (or re-estimate) finds a2 and a3, which cannot be "
        "used together with phase-file=%s: unset one of them", file);
    g_free (file);
    return FALSE;
  }
  g_free (file);
  if (meta && meta->disp.data) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input already carries a deferred dispersion step");
    return FALSE;
  }
  if (g->k_sampling != AOOCT_K_SAMPLING_EVEN) {
    /* the search transforms with the FFT, which needs the even k grid;
     * a2/a3 are the same on every grid (u runs over k either way) */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "estimate=true needs evenly resampled spectra, but aooctkmap "
        "interpolation=%s leaves them at their positions: estimate once "
        "with interpolation=linear (or tools/aooct-dispersion) and set the "
        "a2/a3 it finds", aooct_k_sampling_to_string (g->k_sampling));
    return FALSE;
  }
  /* on the CUDA backend this reads the B-scan back from the GPU */
  if (!gst_buffer_map (inbuf, &map, GST_MAP_READ) || map.size < bytes) {
    if (map.memory)
      gst_buffer_unmap (inbuf, &map);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot read the input buffer for the dispersion estimate");
    return FALSE;
  }
  spectra = g_memdup2 (map.data, bytes);
  gst_buffer_unmap (inbuf, &map);
  if (meta && !apply_pending_on_host (meta, g, spectra, g->alines, error)) {
    g_free (spectra);
    return FALSE;
  }

  aooct_disp_estimate_params_init (&params);
  ok = aooct_cpu_disp_estimate (spectra, g->alines, g, &params, &est, error);
  g_free (spectra);
  if (!ok)
    return FALSE;
  ms = (g_get_monotonic_time () - t0) / 1000.0;

  GST_OBJECT_LOCK (self);
  self->a[0] = est.a2;
  self->a[1] = est.a3;
  self->estimated = TRUE;
  self->dirty = TRUE;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "estimated a2=%.3f a3=%.3f (sharpness %.4g, "
      "uncompensated %.4g; %d evaluations on %d A-lines, %.1f ms)", est.a2,
      est.a3, est.sharpness, est.sharpness_none, est.evaluations, est.alines,
      ms);
  g_object_notify_by_pspec (G_OBJECT (self), a2_pspec);
  g_object_notify_by_pspec (G_OBJECT (self), a3_pspec);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_structure_new ("aooct-dispersion", "a2", G_TYPE_DOUBLE, est.a2,
              "a3", G_TYPE_DOUBLE, est.a3, "sharpness", G_TYPE_DOUBLE,
              est.sharpness, "sharpness-uncompensated", G_TYPE_DOUBLE,
              est.sharpness_none, "evaluations", G_TYPE_INT, est.evaluations,
              "alines", G_TYPE_INT, est.alines, "milliseconds",
              G_TYPE_DOUBLE, ms, NULL)));
  return TRUE;
}

/* Before the buffer goes through the base class (which may defer our
 * step to aooctfft without running it here): estimate from it when asked */
static GstFlowReturn
gst_aooct_disp_submit_input_buffer (GstBaseTransform * bt,
    gboolean is_discont, GstBuffer * inbuf)
{
  GstAooctDisp *self = GST_AOOCT_DISP (bt);
  GstAooctFilter *filter = GST_AOOCT_FILTER (bt);
  gboolean pending;

  GST_OBJECT_LOCK (self);
  pending = self->estimate_pending && filter->configured;
  self->estimate_pending &= !pending;
  GST_OBJECT_UNLOCK (self);
  if (pending) {
    GError *error = NULL;

    if (!gst_aooct_disp_estimate (self, inbuf, &error)) {
      gst_aooct_filter_post_error (filter, error);
      g_clear_error (&error);
      gst_buffer_unref (inbuf);
      return GST_FLOW_ERROR;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (bt,
      is_discont, inbuf);
}

static void
gst_aooct_disp_re_estimate (GstAooctDisp * self)
{
  GST_OBJECT_LOCK (self);
  self->estimate_pending = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_disp_teardown (GstAooctFilter * filter)
{
  GstAooctDisp *self = GST_AOOCT_DISP (filter);

  g_clear_pointer (&self->weights, g_bytes_unref);
}

static void
gst_aooct_disp_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctDisp *self = GST_AOOCT_DISP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_PHASE_FILE:
      g_free (self->phase_file);
      self->phase_file = g_value_dup_string (value);
      break;
    case PROP_PHASE_FILE_GRID:
      self->phase_file_grid = g_value_get_enum (value);
      break;
    case PROP_A2:
    case PROP_A3:
    case PROP_A4:
    case PROP_A5:
      self->a[prop_id - PROP_A2] = g_value_get_double (value);
      self->estimated = FALSE;
      break;
    case PROP_ESTIMATE:{
      gboolean on = g_value_get_boolean (value);

      /* switched on while running: estimate from the next buffer */
      if (on && !self->estimate)
        self->estimate_pending = TRUE;
      self->estimate = on;
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  self->dirty = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_disp_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctDisp *self = GST_AOOCT_DISP (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_PHASE_FILE:
      g_value_set_string (value, self->phase_file);
      break;
    case PROP_PHASE_FILE_GRID:
      g_value_set_enum (value, self->phase_file_grid);
      break;
    case PROP_A2:
    case PROP_A3:
    case PROP_A4:
    case PROP_A5:
      g_value_set_double (value, self->a[prop_id - PROP_A2]);
      break;
    case PROP_ESTIMATE:
      g_value_set_boolean (value, self->estimate);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_disp_finalize (GObject * object)
{
  GstAooctDisp *self = GST_AOOCT_DISP (object);

  g_free (self->phase_file);
  if (self->weights)
    g_bytes_unref (self->weights);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* estimate=true (or the re-estimate signal) finds a2 and a3 on one
 * B-scan and holds them: each branch would find its own */
static gchar *
gst_aooct_disp_in_order_setting (GstAooctFilter * filter)
{
  GstAooctDisp *self = GST_AOOCT_DISP (filter);
  gboolean estimate, estimated;

  GST_OBJECT_LOCK (self);
  estimate = self->estimate;
  estimated = self->estimated;
  GST_OBJECT_UNLOCK (self);
  return estimate ? g_strdup ("estimate=true") : estimated ?
      g_strdup ("re-estimate (a2 and a3 estimated on one B-scan)") : NULL;
}

static void
gst_aooct_disp_class_init (GstAooctDispClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_DISP_GRID, 0);

  gobject_class->set_property = gst_aooct_disp_set_property;
  gobject_class->get_property = gst_aooct_disp_get_property;
  gobject_class->finalize = gst_aooct_disp_finalize;

  /**
   * GstAooctDisp:phase-file:
   *
   * Text file of P2 records (samples per A-line) or N records (camera
   * pixels; see phase-file-grid), each a phase phi in radians or the re im
   * of the weight; exclusive with non-zero a2 .. a5. A change while
   * playing is read at the next buffer. Default: none
   */
  g_object_class_install_property (gobject_class, PROP_PHASE_FILE,
      g_param_spec_string ("phase-file", "Phase file",
          "Text file of P2 records (samples per A-line) or N records (camera "
          "pixels; see phase-file-grid), each a phase phi in radians or the "
          "re im of the weight; exclusive with non-zero a2 .. a5. A change "
          "while playing is read at the next buffer. Default: none", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstAooctDisp:a2:
   *
   * Second-order dispersion phase in radians at the ends of the data
   * region (u = +-1): w = exp(j (a2 u^2 + a3 u^3)). Range -1e6..1e6,
   * default 0; a change while playing applies at the next buffer; set by
   * estimate=true
   */
  a2_pspec = g_param_spec_double ("a2", "a2",
      "Second-order dispersion phase in radians at the ends of the data "
      "region (u = +-1): w = exp(j (a2 u^2 + a3 u^3)). Range -1e6..1e6, "
      "default 0; a change while playing applies at the next buffer; "
      "set by estimate=true",
      COEFF_MIN, COEFF_MAX, 0.0,
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING |
      GST_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_A2, a2_pspec);
  /**
   * GstAooctDisp:a3:
   *
   * Third-order dispersion phase in radians at the ends of the data region
   * (u = +-1): w = exp(j (a2 u^2 + a3 u^3)). Range -1e6..1e6, default 0; a
   * change while playing applies at the next buffer; set by estimate=true
   */
  a3_pspec = g_param_spec_double ("a3", "a3",
      "Third-order dispersion phase in radians at the ends of the data "
      "region (u = +-1): w = exp(j (a2 u^2 + a3 u^3)). Range -1e6..1e6, "
      "default 0; a change while playing applies at the next buffer; "
      "set by estimate=true",
      COEFF_MIN, COEFF_MAX, 0.0,
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING |
      GST_PARAM_CONTROLLABLE);
  g_object_class_install_property (gobject_class, PROP_A3, a3_pspec);
  /**
   * GstAooctDisp:a4:
   *
   * Fourth-order dispersion phase in radians at the ends of the data
   * region (u = +-1): the term a4 u^4 of the phase. Range -1e6..1e6,
   * default 0; a change while playing applies at the next buffer
   */
  g_object_class_install_property (gobject_class, PROP_A4,
      g_param_spec_double ("a4", "a4",
          "Fourth-order dispersion phase in radians at the ends of the data "
          "region (u = +-1): the term a4 u^4 of the phase. Range -1e6..1e6, "
          "default 0; a change while playing applies at the next buffer",
          COEFF_MIN, COEFF_MAX, 0.0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  /**
   * GstAooctDisp:a5:
   *
   * Fifth-order dispersion phase in radians at the ends of the data region
   * (u = +-1): the term a5 u^5 of the phase. Range -1e6..1e6, default 0;
   * a change while playing applies at the next buffer
   */
  g_object_class_install_property (gobject_class, PROP_A5,
      g_param_spec_double ("a5", "a5",
          "Fifth-order dispersion phase in radians at the ends of the data "
          "region (u = +-1): the term a5 u^5 of the phase. Range -1e6..1e6, "
          "default 0; a change while playing applies at the next buffer",
          COEFF_MIN, COEFF_MAX, 0.0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));
  /**
   * GstAooctDisp:phase-file-grid:
   *
   * Where phase-file's records sit: auto (P2 records: one per sample of
   * the padded grid; N records: one per camera pixel), padded, or camera
   * (N records interpolated onto the padded grid, so the file need not
   * change with aooctpad's size or factor). Default auto
   */
  g_object_class_install_property (gobject_class, PROP_PHASE_FILE_GRID,
      g_param_spec_enum ("phase-file-grid", "Phase file grid",
          "Where phase-file's records sit: auto (P2 records: one per sample "
          "of the padded grid; N records: one per camera pixel), padded, or "
          "camera (N records interpolated onto the padded grid, so the file "
          "need not change with aooctpad's size or factor). Default auto",
          GST_TYPE_AOOCT_DISP_GRID, AOOCT_DISP_GRID_AUTO,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstAooctDisp:estimate:
   *
   * Find a2 and a3 from the first B-scan after each start or new geometry
   * (maximum sharpness of the depth profiles), then apply and hold them;
   * sets a2/a3 (notify) and posts the element message aooct-dispersion.
   * Switched on while playing: from the next buffer.  Default false
   */
  g_object_class_install_property (gobject_class, PROP_ESTIMATE,
      g_param_spec_boolean ("estimate", "Estimate",
          "Find a2 and a3 from the first B-scan after each start or new "
          "geometry (maximum sharpness of the depth profiles), then apply "
          "and hold them; sets a2/a3 (notify) and posts the element message "
          "aooct-dispersion.  Switched on while playing: from the next "
          "buffer.  Default false",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstAooctDisp::re-estimate:
   *
   * Action signal: estimate a2 and a3 again from the next buffer (whatever
   * the estimate property says); the result is announced as with
   * estimate=true.
   */
  signals[SIGNAL_RE_ESTIMATE] = g_signal_new_class_handler ("re-estimate",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_aooct_disp_re_estimate), NULL, NULL, NULL,
      G_TYPE_NONE, 0);

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT dispersion compensation", "Filter/Converter/Video",
      "Multiplies OCT spectra by a complex dispersion-compensating phase",
      "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  GST_BASE_TRANSFORM_CLASS (klass)->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_aooct_disp_submit_input_buffer);
  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_disp_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_disp_setup);
  filter_class->in_order_setting =
      GST_DEBUG_FUNCPTR (gst_aooct_disp_in_order_setting);
  filter_class->cuda_stage = 1;
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_disp_live);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_disp_teardown);
  filter_class->cpu_ops = &disp_cpu;
  filter_class->cuda_ops = DISP_CUDA;
#ifdef HAVE_CUDA
  filter_class->defer = GST_DEBUG_FUNCPTR (gst_aooct_disp_defer);
  filter_class->absorbs_pending = TRUE;
#endif
}

static void
gst_aooct_disp_init (GstAooctDisp * self)
{
  self->dirty = TRUE;
}
