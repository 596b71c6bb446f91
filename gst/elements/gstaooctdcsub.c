/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctdcsub
 * @title: aooctdcsub
 * @short_description: conversion to float32 and DC subtraction
 *
 * First element of an aooct chain: takes raw spectra as a camera or
 * `filesrc ! rawvideoparse` delivers them (`video/x-raw`, GRAY16_LE or GRAY8,
 * or a camera's packed 12/10-bit samples, Mono12p, Mono12Packed, Mono10p,
 * in `video/x-aooct-packed`, or float32 spectra in `video/x-aooct-float`
 * (a .npy file through aooctfilesrc): docs/caps.md; width = samples per
 * A-line, height = A-lines per B-scan), converts them to float32 (float
 * samples as they are; a sample that is not finite is an error naming its
 * B-scan) and removes the
 * DC spectrum (spec section 2): by default the mean A-line of each B-scan,
 * or a background spectrum read from a text file, or nothing.  With alines-per-bscan set, one frame may carry several B-scans;
 * the mean is then taken per B-scan.
 *
 * On the CUDA backend the element is where B-scans enter the GPU: each
 * frame is uploaded asynchronously in its raw 8/16-bit or packed form
 * (packed samples are unpacked by the conversion kernels), straight from
 * the buffer when it lies in the page-locked pool the element proposes
 * upstream, else after a copy into page-locked staging; one pass of kernels then sums the columns of each
 * B-scan exactly and writes the float32 spectra minus their mean straight
 * into a pooled device buffer (memory:CUDAMemory) for the next element.
 * The result is bit-identical to the CPU path.  Frames already on the GPU
 * (`video/x-raw(memory:CUDAMemory)`: libgstcuda's GstCudaMemory, or the
 * aooct device memory of the pool this element proposes upstream) are read
 * in place; see docs/cuda-memory.md, "Video input in GPU memory".
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=10 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="800,0.1" ! aooctdisp ! aooctfft ! \
 *     aooctnorm ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctdcsub.h"
#include "aooct-caps.h"
#include "aooct-raw-caps.h"
#include "aooct-src-util.h"
#include "aooct-error.h"
#include "aooct-textfile.h"
#include "aooct-cpu-dcsub.h"
#include "aooct-cpu-rolling.h"
#include "aooct-step.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-dcsub.h"
#include "aooct-cuda-rolling.h"
#endif

/* The step's settings (aooct-step.h). */
typedef struct
{
  AooctDcMode mode;
  AooctRawFormat format;        /* the input's samples */
  gint skip_start;              /* flyback A-lines before the kept ones */
  const gfloat *background;     /* raw_samples values (mode=background) */
  /* mode=rolling-mean: the ring (the cores start it over after a flush
   * and the CUDA core rewinds it after a failed graph capture); else
   * NULL */
  AooctRolling *rolling;
} DcsubSettings;

GST_DEBUG_CATEGORY_STATIC (gst_aooct_dcsub_debug);
#define GST_CAT_DEFAULT gst_aooct_dcsub_debug

struct _GstAooctDcsub
{
  GstAooctFilter parent;

  /* properties, under the object lock */
  AooctDcMode mode;
  gchar *background_file;
  gint alines_per_bscan;
  gint skip_start, skip_end;    /* flyback A-lines (spec 11) */
  gint rolling_bscans;          /* K of mode=rolling-mean */

  /* from setup() (mode, background-file and skip-alines-start are
   * READY-only) */
  gfloat *background;
  AooctRolling *rolling;        /* mode=rolling-mean */
  DcsubSettings settings;       /* what the cores subtract with */
};

enum
{
  PROP_0,
  PROP_MODE,
  PROP_BACKGROUND_FILE,
  PROP_ALINES_PER_BSCAN,
  PROP_SKIP_ALINES_START,
  PROP_SKIP_ALINES_END,
  PROP_ROLLING_BSCANS,
};

#define DEFAULT_MODE AOOCT_DC_BSCAN_MEAN
#define DEFAULT_ROLLING_BSCANS 8

#define GST_TYPE_AOOCT_DC_MODE (gst_aooct_dc_mode_get_type ())
static GType
gst_aooct_dc_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_DC_BSCAN_MEAN, "Subtract the mean A-line of each B-scan",
        "bscan-mean"},
    {AOOCT_DC_BACKGROUND, "Subtract the spectrum in background-file",
        "background"},
    {AOOCT_DC_NONE, "Convert only, subtract nothing", "none"},
    {AOOCT_DC_ROLLING_MEAN, "Subtract the mean A-line of the last "
          "rolling-bscans B-scans (fixed-pattern noise)", "rolling-mean"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctDcMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_dcsub_parent_class parent_class
G_DEFINE_TYPE (GstAooctDcsub, gst_aooct_dcsub, GST_TYPE_AOOCT_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctdcsub, "aooctdcsub",
    GST_RANK_NONE, GST_TYPE_AOOCT_DCSUB,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_dcsub_debug, "aooctdcsub", 0,
        "aooct DC subtraction"));

/* 16- and 8-bit samples as video, packed 12/10-bit ones and float32 ones
 * in caps of our own (aooct-raw-caps.h) */
#define SINK_CAPS \
  "video/x-raw, format = (string) { GRAY16_LE, GRAY8 }, " \
  "width = (int) [ 2, 1048576 ], height = (int) [ 1, MAX ], " \
  "framerate = (fraction) [ 0/1, MAX ]; " AOOCT_OWN_RAW_CAPS_TEMPLATE

/* video/x-raw GRAY16_LE with bpp below 16 is what aravissrc gives for a
 * camera it set to a packed format (Aravis 0.8.36 / 0.9.2: bpp=12 selects
 * Mono12p, bpp=10 Mono10p): the buffers then hold packed bytes under
 * 16-bit caps (docs/caps.md, "Packed 10/12-bit input") */
static gboolean
check_not_aravis_packed (const GstStructure * s, GError ** error)
{
  gint bpp = 0;

  if (!gst_structure_get_int (s, "bpp", &bpp) || bpp >= 16)
    return TRUE;
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
      "input format GRAY16_LE with bpp=%d: these are packed %d-bit samples "
      "under 16-bit caps (aravissrc's packed formats); put capssetter "
      "join=false replace=true caps=\"" AOOCT_PACKED_CAPS_NAME ", "
      "format=%s, width=N, height=M, framerate=F\" before aooctdcsub "
      "(docs/caps.md) or set the camera to Mono16", bpp, bpp,
      bpp == 10 ? "mono10p" : "mono12p");
  return FALSE;
}

/* What the geometry needs of raw caps */
typedef struct
{
  gint width, height, fps_n, fps_d;
} RawFrame;

/* Width, height and frame rate of fixed video/x-aooct-packed caps, whose
 * format is one aooctdcsub unpacks, or video/x-aooct-float caps */
static gboolean
parse_own_caps (const GstStructure * s, RawFrame * fr, GError ** error)
{
  const gchar *name = gst_structure_get_string (s, "format");
  gboolean is_float = gst_structure_has_name (s, AOOCT_FLOAT_CAPS_NAME);
  AooctRawFormat format;

  if (!aooct_raw_format_from_string (name, &format)
      || aooct_raw_format_is_video (format)
      || (format == AOOCT_RAW_FLOAT32) != is_float) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "input format %s of %s: aooctdcsub takes %s", name ? name : "(none)",
        gst_structure_get_name (s), is_float ? "F32LE (32-bit IEEE "
        "little-endian floats)" : "mono12p, mono12packed and mono10p");
    return FALSE;
  }
  fr->fps_n = 0;
  fr->fps_d = 1;
  if (!gst_structure_get_int (s, "width", &fr->width)
      || !gst_structure_get_int (s, "height", &fr->height)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "%s caps without width and height", gst_structure_get_name (s));
    return FALSE;
  }
  if (!aooct_raw_check_width (format, fr->width, error)) {
    g_prefix_error (error, "input ");
    return FALSE;
  }
  gst_structure_get_fraction (s, "framerate", &fr->fps_n, &fr->fps_d);
  return TRUE;
}

static gboolean
gst_aooct_dcsub_parse_sink_caps (GstAooctFilter * filter,
    const GstCaps * caps, AooctGeometry * in, GError ** error)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (filter);
  GstVideoInfo vinfo;
  RawFrame fr;
  gint per_bscan, height, stacked;

  if (gst_caps_is_fixed (caps)
      && aooct_raw_structure_is_own (gst_caps_get_structure (caps, 0))) {
    if (!parse_own_caps (gst_caps_get_structure (caps, 0), &fr, error))
      return FALSE;
    goto geometry;
  }
  if (!gst_video_info_from_caps (&vinfo, caps)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "input caps are not fixed GRAY16_LE or GRAY8 video/x-raw (or "
        AOOCT_PACKED_CAPS_NAME " or " AOOCT_FLOAT_CAPS_NAME ")");
    return FALSE;
  }
  /* the base class accepts any fixed video/x-raw to say here what is
   * wrong with it */
  switch (GST_VIDEO_INFO_FORMAT (&vinfo)) {
    case GST_VIDEO_FORMAT_GRAY16_LE:
      if (!check_not_aravis_packed (gst_caps_get_structure (caps, 0), error))
        return FALSE;
      break;
    case GST_VIDEO_FORMAT_GRAY8:
      break;
    case GST_VIDEO_FORMAT_GRAY16_BE:
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "input format GRAY16_BE (big-endian): aooctdcsub takes GRAY16_LE "
          "or GRAY8; raw files in the spec's layout are little-endian "
          "(rawvideoparse format=gray16-le); for really big-endian data put "
          "videoconvert before aooctdcsub");
      return FALSE;
    default:
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
          "input format %s: aooctdcsub takes raw spectra as GRAY16_LE or "
          "GRAY8 (a rawvideoparse without format= gives I420: set "
          "format=gray16-le or gray8; from a colour source put videoconvert "
          "before aooctdcsub)", GST_VIDEO_INFO_NAME (&vinfo));
      return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (&vinfo) < 2
      || GST_VIDEO_INFO_WIDTH (&vinfo) > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "input width %d: the width is the samples per A-line and must be "
        "2 .. %d (is the raw file's width= right?)",
        GST_VIDEO_INFO_WIDTH (&vinfo), AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  fr.width = GST_VIDEO_INFO_WIDTH (&vinfo);
  fr.height = GST_VIDEO_INFO_HEIGHT (&vinfo);
  fr.fps_n = GST_VIDEO_INFO_FPS_N (&vinfo);
  fr.fps_d = GST_VIDEO_INFO_FPS_D (&vinfo);
geometry:
  GST_OBJECT_LOCK (self);
  per_bscan = self->alines_per_bscan;
  GST_OBJECT_UNLOCK (self);

  height = fr.height;
  /* the sink template takes any video so that we can say what is wrong:
   * a frame without rows is one of those cases */
  if (height < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "input height %d: the height is the A-lines per frame and must be "
        "at least 1 (is the raw file's height= right?)", height);
    return FALSE;
  }
  /* aooct's sources say how many B-scans a frame stacks (the "bscans"
   * field, docs/caps.md): the default A-lines per B-scan; a property that
   * contradicts it wins, with a warning (set_caps only: transform_caps
   * asks with no error to fill) */
  if (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          AOOCT_SRC_BSCANS_FIELD, &stacked) && stacked >= 1
      && height % stacked == 0) {
    if (per_bscan == 0)
      per_bscan = height / stacked;
    else if (per_bscan != height / stacked && error)
      GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("alines-per-bscan=%d "
              "contradicts the input: its frames of %d A-lines carry %d "
              "B-scan(s) of %d A-lines (caps field " AOOCT_SRC_BSCANS_FIELD
              "=%d, e.g. aooctfilesrc bscans-per-buffer); using "
              "alines-per-bscan=%d as set", per_bscan, height, stacked,
              height / stacked, stacked, per_bscan), (NULL));
  }
  if (per_bscan == 0)
    per_bscan = height;
  if (height % per_bscan != 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "frame height %d is not a multiple of alines-per-bscan=%d", height,
        per_bscan);
    return FALSE;
  }
  aooct_geometry_init_raw (in, fr.width, per_bscan, height / per_bscan,
      fr.fps_n, fr.fps_d);
  return aooct_geometry_validate (in, error);
}

static gboolean
gst_aooct_dcsub_derive_output (GstAooctFilter * filter,
    const AooctGeometry * in, AooctGeometry * out, GError ** error)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (filter);
  gint start, end;

  GST_OBJECT_LOCK (self);
  start = self->skip_start;
  end = self->skip_end;
  GST_OBJECT_UNLOCK (self);
  /* flyback: those A-lines are gone before anything else (spec 11) */
  if (in->alines - start - end < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "skip-alines-start=%d and skip-alines-end=%d leave no A-line of "
        "the %d per B-scan (at least 1 must remain)", start, end, in->alines);
    return FALSE;
  }
  *out = *in;
  out->alines = in->alines - start - end;
  return TRUE;
}

/* ---- the step on both backends (aooct-step.h) ------------------------ */

/* Flyback removal and the rolling mean work B-scan by B-scan: the kept
 * A-lines of B-scan b start at raw row b * M + skip-alines-start, and the
 * rolling mean of a B-scan depends on the ones before it. */
static gboolean
per_bscan (const DcsubSettings * s, const AooctGeometry * in,
    const AooctGeometry * out)
{
  return s->rolling != NULL || out->alines != in->alines;
}

/* The plan's geometry and mode: one B-scan of the output, without the DC
 * removal where the rolling mean takes its place, when per_bscan(). */
static void
plan_shape (const DcsubSettings * s, const AooctStepShape * shape,
    AooctGeometry * geom, AooctDcMode * mode)
{
  *geom = *shape->in;
  *mode = s->mode;
  if (per_bscan (s, shape->in, shape->out)) {
    *geom = *shape->out;
    geom->bscans = 1;
    if (s->rolling)
      *mode = AOOCT_DC_NONE;
  }
}

/* both wrappers start with their settings (dcsub_reset) */
typedef struct
{
  const DcsubSettings *s;
  AooctGeometry in, out;
  AooctCpuDcsubPlan *dcsub;
} DcsubCpu;

static void
dcsub_cpu_plan_free (gpointer plan)
{
  DcsubCpu *c = plan;

  aooct_cpu_dcsub_plan_free (c->dcsub);
  g_free (c);
}

static gpointer
dcsub_cpu_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  DcsubCpu *c = g_new0 (DcsubCpu, 1);
  const DcsubSettings *s = settings;
  AooctGeometry geom;
  AooctDcMode mode;

  c->in = *shape->in;
  c->out = *shape->out;
  c->s = s;
  plan_shape (s, shape, &geom, &mode);
  c->dcsub = aooct_cpu_dcsub_plan_new (&geom, s->format, mode, s->background);
  return c;
}

/* A float32 sample that is not finite (spec section 0): the error names
 * its B-scan (of the stream where the buffer says where it starts), A-line
 * and sample.  @bscan0: the buffer's B-scan the core was given first,
 * @alines: the A-lines per B-scan the core saw (the kept ones when
 * flyback is skipped, which @skip puts back). */
static gboolean
non_finite_error (const AooctDcNonFinite * bad, const AooctStepRun * run,
    gint bscan0, gint alines, gint skip, GError ** error)
{
  const guint64 b = bscan0 + bad->row / alines;
  gchar value[G_ASCII_DTOSTR_BUF_SIZE];
  gchar *where;

  if (run->in_offset != GST_BUFFER_OFFSET_NONE)
    where = g_strdup_printf ("B-scan %" G_GUINT64_FORMAT " of the stream "
        "(B-scan %" G_GUINT64_FORMAT " of its buffer)", run->in_offset + b, b);
  else
    where = g_strdup_printf ("B-scan %" G_GUINT64_FORMAT " of the buffer", b);
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
      "%s, A-line %" G_GSIZE_FORMAT ", sample %d is %s: float spectra must "
      "be finite (spec section 0; NaN or infinity would make the whole "
      "B-scan's image NaN)", where, bad->row % alines + skip, bad->col,
      g_ascii_dtostr (value, sizeof (value), bad->value));
  g_free (where);
  return FALSE;
}

static gboolean
dcsub_cpu_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  DcsubCpu *c = plan;
  const DcsubSettings *s = c->s;
  const gsize out_bscan = (gsize) c->out.alines * c->out.raw_samples;
  AooctDcNonFinite bad;
  gint b;

  if (!per_bscan (s, &c->in, &c->out)) {
    if (!aooct_cpu_dcsub_execute (c->dcsub, in->data, in->stride,
            (gfloat *) out->data, &bad))
      return non_finite_error (&bad, run, 0, c->in.alines, 0, error);
    return TRUE;
  }
  for (b = 0; b < c->in.bscans; b++) {
    gfloat *o = (gfloat *) out->data + (gsize) b * out_bscan;

    if (!aooct_cpu_dcsub_execute (c->dcsub, in->data + ((gsize) b *
                c->in.alines + s->skip_start) * in->stride, in->stride, o,
            &bad))
      return non_finite_error (&bad, run, b, c->out.alines, s->skip_start,
          error);
    if (s->rolling)
      aooct_cpu_rolling_bscan (s->rolling, o, c->out.alines);
  }
  return TRUE;
}

/* The rolling mean starts over after a flush (spec 11: K' counts the
 * B-scans since start, flush or caps change; new caps make a new plan) */
static void
dcsub_reset (gpointer plan)
{
  const DcsubSettings *s = *(const DcsubSettings **) plan;

  if (s->rolling)
    aooct_rolling_reset (s->rolling);
}

static const AooctStepOps dcsub_cpu = { dcsub_cpu_plan_new, dcsub_cpu_execute,
  dcsub_cpu_plan_free, dcsub_reset, NULL
};

#ifdef HAVE_CUDA
typedef struct
{
  const DcsubSettings *s;
  AooctGeometry in, out;
  AooctRolling before;          /* the ring's counters before the last
                                 * buffer */
  AooctCudaDcsubPlan *dcsub;
  gdouble *ring;                /* rolling column sums (device) */
} DcsubCuda;

static void
dcsub_cuda_plan_free (gpointer plan)
{
  DcsubCuda *c = plan;

  aooct_cuda_dcsub_plan_free (c->dcsub);
  aooct_cuda_free (c->ring);
  g_free (c);
}

static gpointer
dcsub_cuda_plan_new (const AooctStepShape * shape, gconstpointer settings,
    GError ** error)
{
  DcsubCuda *c = g_new0 (DcsubCuda, 1);
  const DcsubSettings *s = settings;
  gsize n = shape->in->raw_samples;
  AooctGeometry geom;
  AooctDcMode mode;

  c->in = *shape->in;
  c->out = *shape->out;
  c->s = s;
  plan_shape (s, shape, &geom, &mode);
  c->dcsub = aooct_cuda_dcsub_plan_new (&geom, s->format, mode, s->background,
      error);
  if (c->dcsub == NULL || (s->rolling && !aooct_cuda_malloc (n * s->rolling->k
              * sizeof (gdouble), (gpointer *) & c->ring, error))) {
    dcsub_cuda_plan_free (c);
    return NULL;
  }
  return c;
}

static gboolean
dcsub_cuda_execute (gpointer plan, const AooctPlane * in, AooctPlane * out,
    const AooctStepRun * run, GError ** error)
{
  DcsubCuda *c = plan;
  const DcsubSettings *s = c->s;
  const gsize out_bscan = (gsize) c->out.alines * c->out.raw_samples;
  gint b;

  AooctDcNonFinite bad;

  if (!per_bscan (s, &c->in, &c->out)) {
    if (!aooct_cuda_dcsub_execute (c->dcsub, in->data, in->stride,
            (gfloat *) out->data, &bad, run->stream, error))
      return FALSE;
    return !bad.found || non_finite_error (&bad, run, 0, c->in.alines, 0,
        error);
  }
  /* what a failed graph capture rewinds to */
  if (s->rolling)
    c->before = *s->rolling;
  for (b = 0; b < c->in.bscans; b++) {
    gfloat *o = (gfloat *) out->data + (gsize) b * out_bscan;

    if (!aooct_cuda_dcsub_execute (c->dcsub, in->data + ((gsize) b *
                c->in.alines + s->skip_start) * in->stride, in->stride, o,
            &bad, run->stream, error))
      return FALSE;
    if (bad.found)
      return non_finite_error (&bad, run, b, c->out.alines, s->skip_start,
          error);
    if (s->rolling && !aooct_cuda_rolling_bscan (s->rolling, c->ring, o,
            c->out.alines, run->stream, error))
      return FALSE;
  }
  return TRUE;
}

/* A failed CUDA graph capture ran nothing, and process runs again: the
 * rolling mean's ring must not have moved on. */
static void
dcsub_cuda_rewind (gpointer plan)
{
  DcsubCuda *c = plan;

  if (c->s->rolling) {
    c->s->rolling->pos = c->before.pos;
    c->s->rolling->count = c->before.count;
  }
}

/* The rolling mean's ring moves on with every buffer: captured each
 * time.  Otherwise the work depends on the planes alone (the mode and the
 * background are fixed until the plan is freed). */
static gssize
dcsub_cuda_graph_key (gpointer plan, const AooctStepRun * run, guint8 * key)
{
  DcsubCuda *c = plan;

  return c->s->rolling ? -1 : 0;
}

static const AooctStepOps dcsub_cuda = { dcsub_cuda_plan_new,
  dcsub_cuda_execute, dcsub_cuda_plan_free, dcsub_reset, dcsub_cuda_rewind,
  dcsub_cuda_graph_key
};

#define DCSUB_CUDA (&dcsub_cuda)
#else
#define DCSUB_CUDA NULL
#endif

static void gst_aooct_dcsub_teardown (GstAooctFilter * filter);

static gboolean
gst_aooct_dcsub_setup (GstAooctFilter * filter, gconstpointer * settings,
    GError ** error)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (filter);
  AooctDcMode mode;
  gchar *file;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  file = g_strdup (self->background_file);
  GST_OBJECT_UNLOCK (self);

  self->settings.format = filter->in_raw_format;
  /* the CUDA core waits for its check of float samples (a value read
   * back), which a CUDA graph cannot capture */
  filter->graphs_unsupported = filter->in_raw_format == AOOCT_RAW_FLOAT32;

  if (mode == AOOCT_DC_BACKGROUND) {
    gdouble *values;
    gint n = filter->in_geom.raw_samples, i;

    if (file == NULL || file[0] == '\0') {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "mode=background needs background-file (a text file of %d "
          "values, one per line)", n);
      g_free (file);
      return FALSE;
    }
    values = aooct_text_read_values (file, n, error);
    g_free (file);
    if (values == NULL) {
      g_prefix_error (error, "background-file (one value per raw pixel; "
          "the input is %d samples wide, from its caps): ", n);
      return FALSE;
    }
    self->background = g_new (gfloat, n);
    for (i = 0; i < n; i++)
      self->background[i] = (gfloat) values[i];
    g_free (values);
  } else {
    if (file && file[0])
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("background-file=%s is "
              "ignored: mode=%s %s; set mode=background to subtract the "
              "file", file, mode == AOOCT_DC_NONE ? "none" : "bscan-mean",
              mode == AOOCT_DC_NONE ? "subtracts nothing" :
              "subtracts the mean A-line of each B-scan"), (NULL));
    g_free (file);
  }
  GST_OBJECT_LOCK (self);
  self->settings.skip_start = self->skip_start;
  if (mode == AOOCT_DC_ROLLING_MEAN)
    self->rolling = aooct_rolling_new (filter->in_geom.raw_samples,
        self->rolling_bscans);
  GST_OBJECT_UNLOCK (self);
  self->settings.mode = mode;
  self->settings.background = self->background;
  self->settings.rolling = self->rolling;
  *settings = &self->settings;
  return TRUE;
}


static void
gst_aooct_dcsub_teardown (GstAooctFilter * filter)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (filter);

  /* the base class freed the plan, which worked with the settings */
  g_clear_pointer (&self->background, g_free);
  g_clear_pointer (&self->rolling, aooct_rolling_free);
}

static void
gst_aooct_dcsub_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_BACKGROUND_FILE:
      g_free (self->background_file);
      self->background_file = g_value_dup_string (value);
      break;
    case PROP_ALINES_PER_BSCAN:
      self->alines_per_bscan = g_value_get_int (value);
      break;
    case PROP_SKIP_ALINES_START:
      self->skip_start = g_value_get_int (value);
      break;
    case PROP_SKIP_ALINES_END:
      self->skip_end = g_value_get_int (value);
      break;
    case PROP_ROLLING_BSCANS:
      self->rolling_bscans = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_dcsub_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_BACKGROUND_FILE:
      g_value_set_string (value, self->background_file);
      break;
    case PROP_ALINES_PER_BSCAN:
      g_value_set_int (value, self->alines_per_bscan);
      break;
    case PROP_SKIP_ALINES_START:
      g_value_set_int (value, self->skip_start);
      break;
    case PROP_SKIP_ALINES_END:
      g_value_set_int (value, self->skip_end);
      break;
    case PROP_ROLLING_BSCANS:
      g_value_set_int (value, self->rolling_bscans);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_dcsub_finalize (GObject * object)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (object);

  g_free (self->background_file);
  g_free (self->background);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* mode=rolling-mean subtracts the mean of the B-scans before */
static gchar *
gst_aooct_dcsub_in_order_setting (GstAooctFilter * filter)
{
  GstAooctDcsub *self = GST_AOOCT_DCSUB (filter);
  gchar *setting = NULL;
  gint k;

  /* the setting in use once negotiated (a change takes effect at the
   * next negotiation), the properties before */
  GST_OBJECT_LOCK (self);
  if (filter->configured)
    k = self->rolling ? self->rolling->k : 1;
  else
    k = self->mode == AOOCT_DC_ROLLING_MEAN ? self->rolling_bscans : 1;
  GST_OBJECT_UNLOCK (self);
  if (k > 1)
    setting = g_strdup_printf ("mode=rolling-mean rolling-bscans=%d", k);
  return setting;
}

static void
gst_aooct_dcsub_class_init (GstAooctDcsubClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAooctFilterClass *filter_class = GST_AOOCT_FILTER_CLASS (klass);

  gobject_class->set_property = gst_aooct_dcsub_set_property;
  gobject_class->get_property = gst_aooct_dcsub_get_property;
  gobject_class->finalize = gst_aooct_dcsub_finalize;

  /**
   * GstAooctDcsub:mode:
   *
   * What to subtract from every A-line: the mean A-line of its B-scan, the
   * spectrum in background-file (raw counts), or nothing
   */
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "DC mode",
          "What to subtract from every A-line: the mean A-line of its "
          "B-scan, the spectrum in background-file (raw counts), or nothing",
          GST_TYPE_AOOCT_DC_MODE, DEFAULT_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctDcsub:background-file:
   *
   * Text file of N background values (raw counts, one per line) for
   * mode=background
   */
  g_object_class_install_property (gobject_class, PROP_BACKGROUND_FILE,
      g_param_spec_string ("background-file", "Background file",
          "Text file of N background values (raw counts, one per line) for "
          "mode=background", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctDcsub:alines-per-bscan:
   *
   * A-lines per B-scan when a frame stacks several B-scans (the frame
   * height must be a multiple); 0 = as the input's caps say (aooctfilesrc
   * and aooctsrc put the B-scans per frame in them), else the whole frame
   * is one B-scan
   */
  g_object_class_install_property (gobject_class, PROP_ALINES_PER_BSCAN,
      g_param_spec_int ("alines-per-bscan", "A-lines per B-scan",
          "A-lines per B-scan when a frame stacks several B-scans (the frame "
          "height must be a multiple); 0 = as the input's caps say "
          "(aooctfilesrc and aooctsrc put the B-scans per frame in them), "
          "else the whole frame is one B-scan",
          0, AOOCT_MAX_ALINES, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstAooctDcsub:skip-alines-start:
   *
   * A-lines dropped at the start of every B-scan (scanner flyback), before
   * anything else; the DC mean excludes them; default 0
   */
  g_object_class_install_property (gobject_class, PROP_SKIP_ALINES_START,
      g_param_spec_int ("skip-alines-start", "Skip A-lines at the start",
          "A-lines dropped at the start of every B-scan (scanner flyback), "
          "before anything else; the DC mean excludes them; default 0",
          0, AOOCT_MAX_ALINES, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctDcsub:skip-alines-end:
   *
   * A-lines dropped at the end of every B-scan (scanner flyback); at least
   * one A-line must remain; default 0
   */
  g_object_class_install_property (gobject_class, PROP_SKIP_ALINES_END,
      g_param_spec_int ("skip-alines-end", "Skip A-lines at the end",
          "A-lines dropped at the end of every B-scan (scanner flyback); "
          "at least one A-line must remain; default 0",
          0, AOOCT_MAX_ALINES, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstAooctDcsub:rolling-bscans:
   *
   * K of mode=rolling-mean: the subtracted spectrum is the mean A-line of
   * the current and up to K-1 preceding B-scans (counted since start,
   * flush or new caps); 1 .. 1024, default 8
   */
  g_object_class_install_property (gobject_class, PROP_ROLLING_BSCANS,
      g_param_spec_int ("rolling-bscans", "Rolling B-scans",
          "K of mode=rolling-mean: the subtracted spectrum is the mean "
          "A-line of the current and up to K-1 preceding B-scans (counted "
          "since start, flush or new caps); 1 .. 1024, default 8",
          1, 1024, DEFAULT_ROLLING_BSCANS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT DC subtraction", "Filter/Converter/Video",
      "Converts raw spectral-domain OCT spectra to float32 and subtracts "
      "the DC spectrum", "aooct developers");
  /* frames may also arrive in GPU memory: read there on CUDA */
  filter_class->sink_is_video = TRUE;
  filter_class->sink_video_cuda_memory = TRUE;
  gst_aooct_filter_class_add_pad_templates (filter_class, SINK_CAPS,
      AOOCT_CAPS_TEMPLATE);

  filter_class->parse_sink_caps =
      GST_DEBUG_FUNCPTR (gst_aooct_dcsub_parse_sink_caps);
  filter_class->derive_output =
      GST_DEBUG_FUNCPTR (gst_aooct_dcsub_derive_output);
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_aooct_dcsub_setup);
  filter_class->in_order_setting =
      GST_DEBUG_FUNCPTR (gst_aooct_dcsub_in_order_setting);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_aooct_dcsub_teardown);
  filter_class->cpu_ops = &dcsub_cpu;
  filter_class->cuda_ops = DCSUB_CUDA;
#ifdef HAVE_CUDA
  /* only kernels and cuFFT on the stream: capturable (cuda-graphs=true) */
  filter_class->cuda_graphs = TRUE;
#endif

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_DC_MODE, 0);
}

static void
gst_aooct_dcsub_init (GstAooctDcsub * self)
{
  self->mode = DEFAULT_MODE;
  self->rolling_bscans = DEFAULT_ROLLING_BSCANS;
}
