/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctregister
 * @title: aooctregister
 * @short_description: rigid sub-pixel registration of B-scans
 *
 * Registers every B-scan to a reference against eye motion (spec section
 * 13): takes aooctfft's (or aooctcs's) depth-domain complex output, real
 * or full-range, and gives the same B-scans moved back by their estimated
 * shift, same caps, so that everything downstream (aooctnorm and its
 * averaging, the views, aooctangio, aooctdoppler) works on registered data.
 *
 * The estimate: on the crop [crop-start, crop-end) (as aooctnorm's) of the
 * amplitudes |X|, minus their mean, the circular cross-correlation with
 * the reference's by 2-D DFTs, its integer peak within `max-shift-depth`
 * bins and `max-shift-alines` A-lines, refined to 1/`upsample` of a pixel
 * by the upsampled DFT (Guizar-Sicairos et al., Opt. Lett. 33:156, 2008)
 * over +-1 pixel around it; rho, the normalised correlation there.  A
 * feature at (z, m) of the reference is at (z + dz, m + dx) of the
 * B-scan.  The reference (`reference`) is the first B-scan since start,
 * flush or new caps (`first`), or the last registered output that was not
 * rejected (`previous`: follows slow changes, errors add up).
 *
 * The apply: the whole complex B-scan (all bins, all A-lines) moved back
 * by (dz, dx) with the DFT shift theorem: circular in depth (through the
 * spectrum, the unsigned frequency of each spectral sample, so that the
 * phase ramp is continuous over the data region), across the A-lines
 * with signed frequencies; an output A-line whose source lies outside the
 * B-scan is 0.  A B-scan with rho below `min-correlation` passes
 * unshifted and is reported as rejected; nothing is dropped.  No warping
 * within a B-scan: a saccade during one B-scan is not undone.
 *
 * The report: per B-scan (counted from 0 since start, flush or new caps),
 * an element message "aooct-registration" with the fields bscan (guint64),
 * dz and dx (double, depth bins and A-lines), correlation (double) and
 * rejected (boolean) when `post-messages` is true, and a line
 * `bscan dz dx correlation rejected(0/1)` of `shifts-file` (written as the
 * B-scans pass, complete at EOS).  The reference itself reports 0 0 1 0.
 * On CUDA the estimate and the apply stay on the GPU; the shifts reach the
 * host asynchronously, so the messages of a buffer come a few buffers
 * later (all before EOS is passed on).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc phantom=retina bscans-per-volume=1 \
 *     speckle-width=3 motion-axial=8 motion-lateral=4 num-buffers=200 ! \
 *     aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! \
 *     aooctregister shifts-file=shifts.txt ! \
 *     aooctnorm average-bscans=10 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gstaooctregister.h"
#include "aooct-caps.h"
#include "aooct-error.h"
#include "aooct-register.h"
#include "aooct-cpu-register.h"
#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-register.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_register_debug);
#define GST_CAT_DEFAULT gst_aooct_register_debug

/* What the step gets with each buffer (live). */
typedef struct
{
  gdouble min_correlation;
} RegisterLive;

struct _GstAooctRegister
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  AooctRegisterReference reference;
  gint upsample;
  gint max_shift_depth, max_shift_alines;
  gdouble min_correlation;
  gboolean post_messages;
  gchar *shifts_file;
  gint crop_start, crop_end;

  /* streaming thread (and the state change that opens and closes it) */
  AooctRegisterParams params;   /* what the cores are made for */
  RegisterLive live;
  FILE *file;                   /* shifts-file, READY_TO_PAUSED .. back */
  gchar *file_name;             /* ... and its name, for errors */
  gboolean file_failed;         /* a write failed: posted once */
};

enum
{
  PROP_0,
  PROP_REFERENCE,
  PROP_UPSAMPLE,
  PROP_MAX_SHIFT_DEPTH,
  PROP_MAX_SHIFT_ALINES,
  PROP_MIN_CORRELATION,
  PROP_POST_MESSAGES,
  PROP_SHIFTS_FILE,
  PROP_CROP_START,
  PROP_CROP_END,
};

#define DEFAULT_REFERENCE AOOCT_REGISTER_REFERENCE_FIRST
#define DEFAULT_MAX_SHIFT -1
#define DEFAULT_MIN_CORRELATION 0.0

#define GST_TYPE_AOOCT_REGISTER_REFERENCE \
  (gst_aooct_register_reference_get_type ())
static GType
gst_aooct_register_reference_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_REGISTER_REFERENCE_FIRST,
        "The first B-scan since start, flush or new caps", "first"},
    {AOOCT_REGISTER_REFERENCE_PREVIOUS,
        "The last registered output that was not rejected", "previous"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctRegisterReference", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_register_parent_class parent_class
G_DEFINE_TYPE (GstAooctRegister, gst_aooct_register, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctregister, "aooctregister",
    GST_RANK_NONE, GST_TYPE_AOOCT_REGISTER,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_register_debug, "aooctregister", 0,
        "aooct rigid registration of B-scans"));

static gboolean
gst_aooct_register_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (filter);
  AooctRegisterParams p;
  gboolean ok;

  /* every setting is checked here already, so that a bad one fails the
   * negotiation with a message naming it */
  GST_OBJECT_LOCK (self);
  ok = aooct_register_params_resolve (&p, in, self->crop_start,
      self->crop_end, self->max_shift_depth, self->max_shift_alines,
      self->upsample, self->min_correlation, error);
  GST_OBJECT_UNLOCK (self);
  if (!ok)
    return FALSE;
  *out = *in;
  return TRUE;
}

/* ---- the report ------------------------------------------------------- */

/* One B-scan's result, from the core, on the streaming thread (on CUDA
 * also from drain and plan_free, always in order). */
static void
report (gpointer data, const AooctRegisterResult * r)
{
  GstAooctRegister *self = data;
  gdouble dz = aooct_register_result_dz (r), dx = aooct_register_result_dx (r);
  gboolean post;

  GST_LOG_OBJECT (self, "B-scan %" G_GUINT64_FORMAT ": dz %g dx %g rho %g%s",
      r->bscan, dz, dx, r->correlation, r->rejected ? " rejected" : "");
  GST_OBJECT_LOCK (self);
  post = self->post_messages;
  GST_OBJECT_UNLOCK (self);
  if (post)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self),
            gst_structure_new ("aooct-registration",
                "bscan", G_TYPE_UINT64, r->bscan,
                "dz", G_TYPE_DOUBLE, dz, "dx", G_TYPE_DOUBLE, dx,
                "correlation", G_TYPE_DOUBLE, r->correlation,
                "rejected", G_TYPE_BOOLEAN, r->rejected, NULL)));
  if (self->file && !self->file_failed) {
    gchar a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE],
        c[G_ASCII_DTOSTR_BUF_SIZE];

    /* C locale, as every aooct text file; one line per B-scan, flushed so
     * that a reader follows the stream */
    if (fprintf (self->file, "%" G_GUINT64_FORMAT " %s %s %s %d\n",
            r->bscan, g_ascii_formatd (a, sizeof (a), "%.10g", dz),
            g_ascii_formatd (b, sizeof (b), "%.10g", dx),
            g_ascii_formatd (c, sizeof (c), "%.9g", r->correlation),
            r->rejected ? 1 : 0) < 0 || fflush (self->file) != 0) {
      self->file_failed = TRUE;
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("cannot write shifts-file "
              "%s: %s", self->file_name, g_strerror (errno)), (NULL));
    }
  }
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

AOOCT_STEP_FORWARD_PLAN_NEW (register_cpu_plan_new,
    aooct_cpu_register_plan_new (settings));

static gboolean
register_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const RegisterLive *l = run->live;

  aooct_cpu_register_execute (plan, l->min_correlation,
      (const gfloat *) in->data, in->stride, (gfloat *) out->data, out->stride);
  return TRUE;
}

AOOCT_STEP_FORWARD_PLAN_OP (register_cpu_plan_free,
    aooct_cpu_register_plan_free);

AOOCT_STEP_FORWARD_PLAN_OP (register_cpu_reset, aooct_cpu_register_reset);

static const AooctStepOps register_cpu = { register_cpu_plan_new,
  register_cpu_execute, register_cpu_plan_free, register_cpu_reset, NULL
};

#ifdef HAVE_CUDA
AOOCT_STEP_FORWARD_PLAN_NEW (register_cuda_plan_new,
    aooct_cuda_register_plan_new (settings, error));

static gboolean
register_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  const RegisterLive *l = run->live;

  return aooct_cuda_register_execute (plan, l->min_correlation,
      (const gfloat *) in->data, in->stride, (gfloat *) out->data,
      out->stride, run->stream, error);
}

AOOCT_STEP_FORWARD_PLAN_OP (register_cuda_plan_free,
    aooct_cuda_register_plan_free);

AOOCT_STEP_FORWARD_PLAN_OP (register_cuda_reset, aooct_cuda_register_reset);

static gboolean
register_cuda_drain (gpointer plan, GError ** error)
{
  return aooct_cuda_register_drain (plan, error);
}

/* no graph_key: the plan's host side (the reference, the count, the
 * results in flight) moves with every buffer, and cuda_graphs is off */
static const AooctStepOps register_cuda = { register_cuda_plan_new,
  register_cuda_execute, register_cuda_plan_free, register_cuda_reset, NULL,
  NULL, register_cuda_drain
};

#define REGISTER_CUDA (&register_cuda)
#else
#define REGISTER_CUDA NULL
#endif

static gboolean
gst_aooct_register_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (filter);
  AooctRegisterParams *p = &self->params;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  ok = aooct_register_params_resolve (p, &filter->in_geom, self->crop_start,
      self->crop_end, self->max_shift_depth, self->max_shift_alines,
      self->upsample, self->min_correlation, error);
  p->reference = self->reference;
  GST_OBJECT_UNLOCK (self);
  if (!ok)
    return FALSE;
  p->report = report;
  p->report_data = self;
  GST_DEBUG_OBJECT (self, "crop [%d, %d), shifts up to %d bins, %d A-lines, "
      "1/%d pixel, reference %s", p->crop_start, p->crop_start + p->rows,
      p->max_dz, p->max_dx, p->upsample,
      p->reference == AOOCT_REGISTER_REFERENCE_FIRST ? "first" : "previous");
  *settings = p;
  return TRUE;
}

/* min-correlation may change while playing */
static gboolean
gst_aooct_register_live (GstAooctFilter * filter, gconstpointer * live,
    GError ** error)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (filter);

  GST_OBJECT_LOCK (self);
  self->live.min_correlation = self->min_correlation;
  GST_OBJECT_UNLOCK (self);
  *live = &self->live;
  return TRUE;
}

/* shifts-file: created (truncated) when the element starts, so that a
 * name that cannot be written fails at once; closed when it stops (after
 * the plan, which may still hand over the last B-scans, is freed) */
static GstStateChangeReturn
gst_aooct_register_change_state (GstElement * element,
    GstStateChange transition)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    gchar *name;

    GST_OBJECT_LOCK (self);
    name = g_strdup (self->shifts_file);
    GST_OBJECT_UNLOCK (self);
    g_free (self->file_name);
    self->file_name = name;
    self->file_failed = FALSE;
    if (name && *name) {
      self->file = g_fopen (name, "w");
      if (self->file == NULL) {
        GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE, ("cannot create "
                "shifts-file %s: %s", name, g_strerror (errno)), (NULL));
        return GST_STATE_CHANGE_FAILURE;
      }
      fputs ("# aooctregister: bscan dz(bins) dx(A-lines) correlation "
          "rejected\n", self->file);
    }
  }
  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY
      || (transition == GST_STATE_CHANGE_READY_TO_PAUSED
          && ret == GST_STATE_CHANGE_FAILURE)) {
    if (self->file && fclose (self->file) != 0 && !self->file_failed)
      GST_ELEMENT_ERROR (self, RESOURCE, CLOSE, ("cannot write shifts-file "
              "%s: %s", self->file_name, g_strerror (errno)), (NULL));
    self->file = NULL;
  }
  return ret;
}

static void
gst_aooct_register_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_REFERENCE:
      self->reference = g_value_get_enum (value);
      break;
    case PROP_UPSAMPLE:
      self->upsample = g_value_get_int (value);
      break;
    case PROP_MAX_SHIFT_DEPTH:
      self->max_shift_depth = g_value_get_int (value);
      break;
    case PROP_MAX_SHIFT_ALINES:
      self->max_shift_alines = g_value_get_int (value);
      break;
    case PROP_MIN_CORRELATION:
      self->min_correlation = g_value_get_double (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_SHIFTS_FILE:
      g_free (self->shifts_file);
      self->shifts_file = g_value_dup_string (value);
      break;
    case PROP_CROP_START:
      self->crop_start = g_value_get_int (value);
      break;
    case PROP_CROP_END:
      self->crop_end = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_register_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_REFERENCE:
      g_value_set_enum (value, self->reference);
      break;
    case PROP_UPSAMPLE:
      g_value_set_int (value, self->upsample);
      break;
    case PROP_MAX_SHIFT_DEPTH:
      g_value_set_int (value, self->max_shift_depth);
      break;
    case PROP_MAX_SHIFT_ALINES:
      g_value_set_int (value, self->max_shift_alines);
      break;
    case PROP_MIN_CORRELATION:
      g_value_set_double (value, self->min_correlation);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_SHIFTS_FILE:
      g_value_set_string (value, self->shifts_file);
      break;
    case PROP_CROP_START:
      g_value_set_int (value, self->crop_start);
      break;
    case PROP_CROP_END:
      g_value_set_int (value, self->crop_end);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_register_finalize (GObject * object)
{
  GstAooctRegister *self = GST_AOOCT_REGISTER (object);

  g_free (self->shifts_file);
  g_free (self->file_name);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_aooct_register_class_init (GstAooctRegisterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE;

  gobject_class->set_property = gst_aooct_register_set_property;
  gobject_class->get_property = gst_aooct_register_get_property;
  gobject_class->finalize = gst_aooct_register_finalize;
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_aooct_register_change_state);

  /**
   * GstAooctRegister:reference:
   *
   * What each B-scan is registered to: first (default) = the first B-scan
   * since start, flush or new caps; previous = the last registered output
   * that was not rejected (follows slow changes; errors add up)
   */
  g_object_class_install_property (gobject_class, PROP_REFERENCE,
      g_param_spec_enum ("reference", "Reference",
          "What each B-scan is registered to: first (default) = the first "
          "B-scan since start, flush or new caps; previous = the last "
          "registered output that was not rejected (follows slow changes; "
          "errors add up)", GST_TYPE_AOOCT_REGISTER_REFERENCE,
          DEFAULT_REFERENCE, ready));
  /**
   * GstAooctRegister:upsample:
   *
   * U: the estimate is refined to 1/U of a pixel (depth bin, A-line) by
   * the upsampled DFT; 1 = integer shifts only; 1 .. 100, default 20 (0 is
   * an error)
   */
  g_object_class_install_property (gobject_class, PROP_UPSAMPLE,
      g_param_spec_int ("upsample", "Upsample",
          "U: the estimate is refined to 1/U of a pixel (depth bin, A-line) "
          "by the upsampled DFT; 1 = integer shifts only; 1 .. 100, default "
          "20 (0 is an error)", 0, AOOCT_REGISTER_MAX_UPSAMPLE,
          AOOCT_REGISTER_DEFAULT_UPSAMPLE, ready));
  /**
   * GstAooctRegister:max-shift-depth:
   *
   * Largest |dz| searched, in depth bins; -1 or 0 (default) = a quarter of
   * the crop's rows; more than half the crop counts as half (a circular
   * shift beyond it is a smaller one of the other sign)
   */
  g_object_class_install_property (gobject_class, PROP_MAX_SHIFT_DEPTH,
      g_param_spec_int ("max-shift-depth", "Max shift in depth",
          "Largest |dz| searched, in depth bins; -1 or 0 (default) = a "
          "quarter of the crop's rows; more than half the crop counts as "
          "half (a circular shift beyond it is a smaller one of the other "
          "sign)", -1, AOOCT_MAX_SAMPLES, DEFAULT_MAX_SHIFT, ready));
  /**
   * GstAooctRegister:max-shift-alines:
   *
   * Largest |dx| searched, in A-lines; -1 or 0 (default) = a quarter of
   * the A-lines; more than half counts as half
   */
  g_object_class_install_property (gobject_class, PROP_MAX_SHIFT_ALINES,
      g_param_spec_int ("max-shift-alines", "Max shift in A-lines",
          "Largest |dx| searched, in A-lines; -1 or 0 (default) = a quarter "
          "of the A-lines; more than half counts as half", -1,
          AOOCT_MAX_ALINES, DEFAULT_MAX_SHIFT, ready));
  /**
   * GstAooctRegister:min-correlation:
   *
   * rho_min: a B-scan whose normalised correlation with the reference is
   * below it passes unshifted and is reported as rejected (never dropped);
   * 0 .. 1, default 0 (none rejected)
   */
  g_object_class_install_property (gobject_class, PROP_MIN_CORRELATION,
      g_param_spec_double ("min-correlation", "Minimum correlation",
          "rho_min: a B-scan whose normalised correlation with the reference "
          "is below it passes unshifted and is reported as rejected (never "
          "dropped); 0 .. 1, default 0 (none rejected)", 0.0, 1.0,
          DEFAULT_MIN_CORRELATION, live));
  /**
   * GstAooctRegister:post-messages:
   *
   * Post the element message aooct-registration (bscan, dz, dx,
   * correlation, rejected) for every B-scan; default true
   */
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post the element message aooct-registration (bscan, dz, dx, "
          "correlation, rejected) for every B-scan; default true", TRUE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstAooctRegister:shifts-file:
   *
   * Text file written with one line `bscan dz dx correlation rejected(0/1)`
   * per B-scan (dz in depth bins, dx in A-lines), as the B-scans pass,
   * complete at EOS; created when the element starts; NULL (default) = none
   */
  g_object_class_install_property (gobject_class, PROP_SHIFTS_FILE,
      g_param_spec_string ("shifts-file", "Shifts file",
          "Text file written with one line 'bscan dz dx correlation "
          "rejected(0/1)' per B-scan (dz in depth bins, dx in A-lines), as "
          "the B-scans pass, complete at EOS; created when the element "
          "starts; NULL (default) = none", NULL, ready));
  /**
   * GstAooctRegister:crop-start:
   *
   * First depth bin of the estimate's window, as aooctnorm's crop-start
   * (signed on full-range input); default 0.  The shift is applied to all
   * bins
   */
  g_object_class_install_property (gobject_class, PROP_CROP_START,
      g_param_spec_int ("crop-start", "Crop start",
          "First depth bin of the estimate's window, as aooctnorm's "
          "crop-start (signed on full-range input); default 0.  The shift is "
          "applied to all bins", -AOOCT_MAX_SAMPLES, AOOCT_MAX_SAMPLES, 0,
          ready));
  /**
   * GstAooctRegister:crop-end:
   *
   * Depth bin after the estimate's window, as aooctnorm's crop-end; 0
   * (default) = pad-size / 2
   */
  g_object_class_install_property (gobject_class, PROP_CROP_END,
      g_param_spec_int ("crop-end", "Crop end",
          "Depth bin after the estimate's window, as aooctnorm's crop-end; 0 "
          "(default) = pad-size / 2", 0, AOOCT_MAX_SAMPLES, 0, ready));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT B-scan registration", "Filter/Effect/Video",
      "Rigid sub-pixel registration of depth-domain OCT B-scans to a "
      "reference (cross-correlation, upsampled DFT, DFT shift)",
      "aooct developers");
  gst_aooct_filter_class_add_pad_templates (filter_class,
      AOOCT_CAPS_TEMPLATE, AOOCT_CAPS_TEMPLATE);

  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_register_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_register_setup);
  filter_class->live = GST_DEBUG_FUNCPTR (gst_aooct_register_live);
  filter_class->cuda_stage = 3;
  filter_class->cpu_ops = &register_cpu;
  filter_class->cuda_ops = REGISTER_CUDA;
  /* cuda_graphs stays FALSE: execute() keeps host state per buffer */

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_REGISTER_REFERENCE, 0);
}

static void
gst_aooct_register_init (GstAooctRegister * self)
{
  self->reference = DEFAULT_REFERENCE;
  self->upsample = AOOCT_REGISTER_DEFAULT_UPSAMPLE;
  self->max_shift_depth = DEFAULT_MAX_SHIFT;
  self->max_shift_alines = DEFAULT_MAX_SHIFT;
  self->min_correlation = DEFAULT_MIN_CORRELATION;
  self->post_messages = TRUE;
}
