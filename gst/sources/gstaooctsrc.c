/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctsrc
 * @title: aooctsrc
 * @short_description: a synthetic spectral-domain OCT camera
 *
 * Produces raw spectra as a line-scan spectrometer camera in area mode
 * delivers them: `video/x-raw, format=GRAY16_LE, width=samples (N),
 * height=alines (M)`, one B-scan per buffer, 12-bit values 0..4095, at
 * `framerate`.  The model (common/aooct-synth.h has the details):
 *
 * - spectrometer: pixel p sees lambda(p) = c0 + c1 p + c2 p^2 + c3 p^3 nm
 *   (`wavelength-coeffs`, the same format and rule as aooctkmap's), so k is
 *   not linear in p; `calibration-file` writes the N wavelengths in the
 *   format of aooctkmap's wavelength-file;
 * - source: Gaussian spectrum in k around `center-wavelength` with FWHM
 *   `bandwidth`; the reference arm gives `reference-level` counts at its
 *   peak, above a black level of 64 counts;
 * - sample: `phantom=mirror` (one reflector of power `reflectivity` at
 *   `mirror-depth` um of single-pass optical path, tilted by `mirror-tilt`
 *   um across the B-scan so that the B-scan mean DC subtraction keeps it)
 *   or `phantom=retina` (layers NFL to choroid with speckle, curved, with a
 *   foveal pit; `bscans-per-volume` B-scans sweep slowly across it);
 * - full range (aooctfullrange, spec section 9): `carrier` rad of phase
 *   per A-line on the sample term, `depth-offset` um added to every
 *   reflector (negative: across zero delay), `speckle-width` A-lines of
 *   lateral speckle correlation for the retina (needed for full range);
 * - a dispersion mismatch that `aooctdisp a2=dispersion-a2
 *   a3=dispersion-a3` cancels exactly;
 * - noise (`noise` counts RMS at the reference peak, read + shot-like),
 *   rounding and 12-bit clipping;
 * - flow (aooctdoppler, aooctangio; spec section 12): `vessel-count`
 *   vessels of `vessel-diameter` um at `vessel-depth` um and
 *   `vessel-position` across the B-scan, whose blood moves axially at
 *   `vessel-velocity` mm/s (neighbours in opposite directions) and
 *   decorrelates from B-scan to B-scan by `vessel-decorrelation`; the
 *   phase per A-line is 4 pi n v / (lambda0 `line-rate`) with n =
 *   `refractive-index`, lambda0 = 840.0 nm for the default source
 *   (docs/flow.md); `repeats` acquires each position that many times in a
 *   row.  Doppler between neighbouring A-lines needs `speckle-width` (about
 *   3): the beam wider than the A-line spacing.
 * - eye motion (aooctregister; spec section 13): `motion-axial` um and
 *   `motion-lateral` A-lines move the whole retina rigidly per B-scan f
 *   by dz(f) = motion-axial w1(f), dx(f) = motion-lateral w2(f),
 *   w(f) = 0.7 sin (2 pi f / 50 + phi1) + 0.3 sin (2 pi f / 7.3 + phi2)
 *   (drift and tremor, phases from `seed`; aooct_synth_motion() in
 *   common/aooct-synth.h), the same tissue and speckle at the new place,
 *   exact for fractional shifts.  aooctregister's estimate of B-scan f
 *   against f0 is then dz = (dz(f) - dz(f0)) |K1 - K0| P1 / (pi (N - 1))
 *   bins (the depth-bin rule below) and dx = dx(f) - dx(f0) A-lines.  Use
 *   `bscans-per-volume=1` so that every B-scan shows the same position;
 *   lateral motion needs `speckle-width` > 0.
 * - photoreceptors for optoretinography (aooctorg; spec section 13):
 *   `phantom=photoreceptors`, IS/OS at `org-depth` um, COST
 *   `org-separation` um below it and the RPE `org-rpe` um below that, as a
 *   few point scatterers per A-line (cones of `org-cone-alines` A-lines),
 *   deeper by `org-curvature` um at the edges, all moving axially by
 *   `org-bulk-amplitude` sin (2 pi b / `org-bulk-period`) um at B-scan b;
 *   from B-scan `org-stimulus` on, COST's path against IS/OS's changes by
 *   -`org-contraction` (t/tc) e^(1 - t/tc) + `org-elongation`
 *   (1 - e^(-t/te)) nm, t the B-scans since the flash, tc and te
 *   `org-tau-contraction` and `org-tau-elongation`: aooctorg with
 *   center-wavelength=840.0 (the default source) and a baseline that ends
 *   before the flash shows that curve as its trace (docs/aooct.md).
 *
 * A reflector at depth z um appears at depth bin
 * z |K1 - K0| P1 / (pi (N - 1)) with K = 2 pi / lambda at the first and last
 * pixel (bin 192.36 of P1 = 2048 for the default mirror).  The output depends
 * only on the properties, `seed` and the frame number; with seed=-1 (the
 * default) a random seed is chosen at start and logged.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc calibration-file=/tmp/cal.txt ! aooctdcsub ! \
 *     aooctpad ! aooctkmap wavelength-file=/tmp/cal.txt ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm ! videoconvert ! \
 *     autovideosink
 * ]| shows the default retina, fully compensated (the kmap polynomial
 * equivalent is wavelength-coeffs="785,0.125,1e-05,-2e-09").
 * |[
 * gst-launch-1.0 aooctsrc vessel-count=2 speckle-width=3 repeats=4 ...
 * ]| adds two vessels (2 mm/s away from and towards the probe) and
 * acquires each B-scan four times, for aooctdoppler and aooctangio
 * (pipelines/flow.sh).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <gst/video/video.h>

#include "aooct-src-util.h"
#include "aooct-src-org.h"

#include "gstaooctsrc.h"
#include "aooct-calib.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-late-property.h"
#include "aooct-synth.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_src_debug);
#define GST_CAT_DEFAULT gst_aooct_src_debug

struct _GstAooctSrc
{
  GstPushSrc parent;

  /* properties, under the object lock; params.coeffs and params.seed are
   * filled in at start() from coeffs and seed */
  AooctSynthParams props;
  gchar *coeffs;
  gint64 seed;
  gint fps_n, fps_d;
  gchar *calibration_file;
  gdouble line_rate;            /* A-lines/s; 0 = framerate x alines */

  /* streaming */
  AooctSynth *synth;
  AooctSynthParams active;      /* the parameters synth was built from */
  GstVideoInfo vinfo;
  guint64 n_frames;
};

enum
{
  PROP_0,
  PROP_SAMPLES,
  PROP_ALINES,
  PROP_FRAMERATE,
  PROP_IS_LIVE,
  PROP_SEED,
  PROP_PHANTOM,
  PROP_WAVELENGTH_COEFFS,
  PROP_CENTER_WAVELENGTH,
  PROP_BANDWIDTH,
  PROP_REFERENCE_LEVEL,
  PROP_REFLECTIVITY,
  PROP_NOISE,
  PROP_DISPERSION_A2,
  PROP_DISPERSION_A3,
  PROP_MIRROR_DEPTH,
  PROP_MIRROR_TILT,
  PROP_CARRIER,
  PROP_DEPTH_OFFSET,
  PROP_SPECKLE_WIDTH,
  PROP_BSCANS_PER_VOLUME,
  PROP_CALIBRATION_FILE,
  PROP_REPEATS,
  PROP_VESSEL_COUNT,
  PROP_VESSEL_VELOCITY,
  PROP_VESSEL_DEPTH,
  PROP_VESSEL_DIAMETER,
  PROP_VESSEL_POSITION,
  PROP_VESSEL_DECORRELATION,
  PROP_ALINE_SPACING,
  PROP_LINE_RATE,
  PROP_REFRACTIVE_INDEX,
  /* eye motion (aooctregister's tests, issue 42) */
  PROP_MOTION_AXIAL,
  PROP_MOTION_LATERAL,
};

#define GST_TYPE_AOOCT_SRC_PHANTOM (gst_aooct_src_phantom_get_type ())
static GType
gst_aooct_src_phantom_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {AOOCT_SYNTH_PHANTOM_MIRROR, "One slightly tilted mirror at mirror-depth",
        "mirror"},
    {AOOCT_SYNTH_PHANTOM_RETINA, "Layered retina with speckle", "retina"},
    {AOOCT_SYNTH_PHANTOM_PHOTORECEPTORS, "IS/OS, COST and RPE of cones with "
          "a stimulus response (optoretinography, org-* properties)",
        "photoreceptors"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctSrcPhantom", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_src_parent_class parent_class
G_DEFINE_TYPE (GstAooctSrc, gst_aooct_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctsrc, "aooctsrc", GST_RANK_NONE,
    GST_TYPE_AOOCT_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_src_debug, "aooctsrc", 0,
        "aooct synthetic OCT camera"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, format = (string) GRAY16_LE, "
        "width = (int) [ 2, 16384 ], height = (int) [ 1, 65536 ], "
        "framerate = (fraction) [ 1/1000, 100000/1 ]"));

/* ---- properties --------------------------------------------------------- */

static void
gst_aooct_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctSrc *self = GST_AOOCT_SRC (object);
  AooctSynthParams *p = &self->props;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SAMPLES:
      p->samples = g_value_get_int (value);
      break;
    case PROP_ALINES:
      p->alines = g_value_get_int (value);
      break;
    case PROP_FRAMERATE:
      self->fps_n = gst_value_get_fraction_numerator (value);
      self->fps_d = gst_value_get_fraction_denominator (value);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_UNLOCK (self);
      gst_base_src_set_live (GST_BASE_SRC (self), g_value_get_boolean (value));
      return;
    case PROP_SEED:
      self->seed = g_value_get_int64 (value);
      break;
    case PROP_PHANTOM:
      p->phantom = g_value_get_enum (value);
      break;
    case PROP_WAVELENGTH_COEFFS:
      g_free (self->coeffs);
      self->coeffs = g_value_dup_string (value);
      break;
    case PROP_CENTER_WAVELENGTH:
      p->center_wavelength = g_value_get_double (value);
      break;
    case PROP_BANDWIDTH:
      p->bandwidth = g_value_get_double (value);
      break;
    case PROP_REFERENCE_LEVEL:
      p->reference_level = g_value_get_double (value);
      break;
    case PROP_REFLECTIVITY:
      p->reflectivity = g_value_get_double (value);
      break;
    case PROP_NOISE:
      p->noise = g_value_get_double (value);
      break;
    case PROP_DISPERSION_A2:
      p->dispersion_a2 = g_value_get_double (value);
      break;
    case PROP_DISPERSION_A3:
      p->dispersion_a3 = g_value_get_double (value);
      break;
    case PROP_MIRROR_DEPTH:
      p->mirror_depth = g_value_get_double (value);
      break;
    case PROP_MIRROR_TILT:
      p->mirror_tilt = g_value_get_double (value);
      break;
    case PROP_CARRIER:
      p->carrier = g_value_get_double (value);
      break;
    case PROP_DEPTH_OFFSET:
      p->depth_offset = g_value_get_double (value);
      break;
    case PROP_SPECKLE_WIDTH:
      p->speckle_width = g_value_get_double (value);
      break;
    case PROP_MOTION_AXIAL:
      p->motion_axial = g_value_get_double (value);
      break;
    case PROP_MOTION_LATERAL:
      p->motion_lateral = g_value_get_double (value);
      break;
    case PROP_BSCANS_PER_VOLUME:
      p->bscans_per_volume = g_value_get_int (value);
      break;
    case PROP_CALIBRATION_FILE:
      g_free (self->calibration_file);
      self->calibration_file = g_value_dup_string (value);
      break;
    case PROP_REPEATS:
      p->repeats = g_value_get_int (value);
      break;
    case PROP_VESSEL_COUNT:
      p->vessel_count = g_value_get_int (value);
      break;
    case PROP_VESSEL_VELOCITY:
      p->vessel_velocity = g_value_get_double (value);
      break;
    case PROP_VESSEL_DEPTH:
      p->vessel_depth = g_value_get_double (value);
      break;
    case PROP_VESSEL_DIAMETER:
      p->vessel_diameter = g_value_get_double (value);
      break;
    case PROP_VESSEL_POSITION:
      p->vessel_position = g_value_get_double (value);
      break;
    case PROP_VESSEL_DECORRELATION:
      p->vessel_decorrelation = g_value_get_double (value);
      break;
    case PROP_ALINE_SPACING:
      p->aline_spacing = g_value_get_double (value);
      break;
    case PROP_LINE_RATE:
      self->line_rate = g_value_get_double (value);
      break;
    case PROP_REFRACTIVE_INDEX:
      p->refractive_index = g_value_get_double (value);
      break;
    default:
      /* phantom=photoreceptors: aooct-src-org.c */
      if (!aooct_src_org_set (&p->org, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstAooctSrc *self = GST_AOOCT_SRC (object);
  AooctSynthParams *p = &self->props;

  if (prop_id == PROP_IS_LIVE) {
    g_value_set_boolean (value, gst_base_src_is_live (GST_BASE_SRC (self)));
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SAMPLES:
      g_value_set_int (value, p->samples);
      break;
    case PROP_ALINES:
      g_value_set_int (value, p->alines);
      break;
    case PROP_FRAMERATE:
      gst_value_set_fraction (value, self->fps_n, self->fps_d);
      break;
    case PROP_SEED:
      g_value_set_int64 (value, self->seed);
      break;
    case PROP_PHANTOM:
      g_value_set_enum (value, p->phantom);
      break;
    case PROP_WAVELENGTH_COEFFS:
      g_value_set_string (value, self->coeffs);
      break;
    case PROP_CENTER_WAVELENGTH:
      g_value_set_double (value, p->center_wavelength);
      break;
    case PROP_BANDWIDTH:
      g_value_set_double (value, p->bandwidth);
      break;
    case PROP_REFERENCE_LEVEL:
      g_value_set_double (value, p->reference_level);
      break;
    case PROP_REFLECTIVITY:
      g_value_set_double (value, p->reflectivity);
      break;
    case PROP_NOISE:
      g_value_set_double (value, p->noise);
      break;
    case PROP_DISPERSION_A2:
      g_value_set_double (value, p->dispersion_a2);
      break;
    case PROP_DISPERSION_A3:
      g_value_set_double (value, p->dispersion_a3);
      break;
    case PROP_MIRROR_DEPTH:
      g_value_set_double (value, p->mirror_depth);
      break;
    case PROP_MIRROR_TILT:
      g_value_set_double (value, p->mirror_tilt);
      break;
    case PROP_CARRIER:
      g_value_set_double (value, p->carrier);
      break;
    case PROP_DEPTH_OFFSET:
      g_value_set_double (value, p->depth_offset);
      break;
    case PROP_SPECKLE_WIDTH:
      g_value_set_double (value, p->speckle_width);
      break;
    case PROP_MOTION_AXIAL:
      g_value_set_double (value, p->motion_axial);
      break;
    case PROP_MOTION_LATERAL:
      g_value_set_double (value, p->motion_lateral);
      break;
    case PROP_BSCANS_PER_VOLUME:
      g_value_set_int (value, p->bscans_per_volume);
      break;
    case PROP_CALIBRATION_FILE:
      g_value_set_string (value, self->calibration_file);
      break;
    case PROP_REPEATS:
      g_value_set_int (value, p->repeats);
      break;
    case PROP_VESSEL_COUNT:
      g_value_set_int (value, p->vessel_count);
      break;
    case PROP_VESSEL_VELOCITY:
      g_value_set_double (value, p->vessel_velocity);
      break;
    case PROP_VESSEL_DEPTH:
      g_value_set_double (value, p->vessel_depth);
      break;
    case PROP_VESSEL_DIAMETER:
      g_value_set_double (value, p->vessel_diameter);
      break;
    case PROP_VESSEL_POSITION:
      g_value_set_double (value, p->vessel_position);
      break;
    case PROP_VESSEL_DECORRELATION:
      g_value_set_double (value, p->vessel_decorrelation);
      break;
    case PROP_ALINE_SPACING:
      g_value_set_double (value, p->aline_spacing);
      break;
    case PROP_LINE_RATE:
      g_value_set_double (value, self->line_rate);
      break;
    case PROP_REFRACTIVE_INDEX:
      g_value_set_double (value, p->refractive_index);
      break;
    default:
      if (!aooct_src_org_get (&p->org, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- negotiation -------------------------------------------------------- */

static GstCaps *
gst_aooct_src_get_caps (GstBaseSrc * src, GstCaps * filter)
{
  GstAooctSrc *self = GST_AOOCT_SRC (src);
  GstCaps *caps;

  /* the geometry and rate are properties: one fixed caps */
  GST_OBJECT_LOCK (self);
  caps = aooct_src_video_caps (GST_VIDEO_FORMAT_GRAY16_LE, self->props.samples,
      self->props.alines, 1, self->fps_n, self->fps_d);
  GST_OBJECT_UNLOCK (self);
  return aooct_src_filter_caps (caps, filter);
}

static gboolean
gst_aooct_src_set_caps (GstBaseSrc * src, GstCaps * caps)
{
  GstAooctSrc *self = GST_AOOCT_SRC (src);

  return aooct_src_set_video_caps (src, &self->vinfo, caps);
}

static GstClockTime
frame_time (GstAooctSrc * self, guint64 n)
{
  return aooct_src_frame_time (self->fps_n, self->fps_d, n);
}

static gboolean
gst_aooct_src_query (GstBaseSrc * src, GstQuery * query)
{
  GstAooctSrc *self = GST_AOOCT_SRC (src);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY && gst_base_src_is_live (src)) {
    /* a live camera delivers a B-scan one frame after its first A-line */
    GstClockTime latency;
    GST_OBJECT_LOCK (self);
    latency = frame_time (self, 1);
    GST_OBJECT_UNLOCK (self);
    gst_query_set_latency (query, TRUE, latency, latency);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (src, query);
}

static void
gst_aooct_src_get_times (GstBaseSrc * src, GstBuffer * buffer,
    GstClockTime * start, GstClockTime * end)
{
  /* live: basesrc waits for the clock until the frame is due */
  if (gst_base_src_is_live (src) && GST_BUFFER_PTS_IS_VALID (buffer)) {
    *start = GST_BUFFER_PTS (buffer);
    *end = GST_BUFFER_DURATION_IS_VALID (buffer) ?
        *start + GST_BUFFER_DURATION (buffer) : GST_CLOCK_TIME_NONE;
  } else {
    *start = *end = GST_CLOCK_TIME_NONE;
  }
}

/* ---- streaming ---------------------------------------------------------- */

static void
post_error (GstAooctSrc * self, const GError * err)
{
  GST_WARNING_OBJECT (self, "%s", err->message);
  if (err->code == AOOCT_ERROR_FILE)
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE, ("%s", err->message),
        (NULL));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message), (NULL));
}

static AooctSynth *
build_synth (const AooctSynthParams * p, GError ** error)
{
  AooctSynth *s;

  aooct_fftw_lock ();
  s = aooct_synth_new (p, error);
  aooct_fftw_unlock ();
  return s;
}

static void
free_synth (AooctSynth * s)
{
  aooct_fftw_lock ();
  aooct_synth_free (s);
  aooct_fftw_unlock ();
}

/* The A-line rate the flow's phase follows: line-rate, or (0) as many
 * A-lines per second as the frame rate delivers of @alines per B-scan.
 * Object lock held. */
static gdouble
line_rate (GstAooctSrc * self, gint alines)
{
  if (self->line_rate > 0)
    return self->line_rate;
  return (gdouble) self->fps_n * alines / self->fps_d;
}

/* Checks the properties and builds the synthesiser (an element error and
 * FALSE where they do not fit); at READY_TO_PAUSED
 * (aooct_src_change_state), or from start() after a stop. */
static gboolean
open_synth (GstBaseSrc * src)
{
  GstAooctSrc *self = GST_AOOCT_SRC (src);
  AooctSynthParams p;
  GError *err = NULL;
  gchar *coeffs, *cal;
  gint64 seed;

  GST_OBJECT_LOCK (self);
  p = self->props;
  p.line_rate = line_rate (self, p.alines);
  coeffs = g_strdup (self->coeffs);
  cal = g_strdup (self->calibration_file);
  seed = self->seed;
  GST_OBJECT_UNLOCK (self);

  if (!aooct_calib_parse_coeffs (coeffs, p.coeffs, &p.n_coeffs, &err))
    goto failed;
  p.seed = seed >= 0 ? (guint32) seed : g_random_int ();
  GST_INFO_OBJECT (self, "seed %u (set seed=%u to replay)", p.seed, p.seed);
  if (!aooct_synth_params_validate (&p, &err))
    goto failed;
  if (cal && *cal) {
    if (!aooct_synth_write_calibration (&p, cal, &err))
      goto failed;
    GST_INFO_OBJECT (self, "wrote the calibration to %s", cal);
  }
  self->synth = build_synth (&p, &err);
  if (self->synth == NULL)
    goto failed;
  self->active = p;
  self->n_frames = 0;
  g_free (coeffs);
  g_free (cal);
  return TRUE;

failed:
  post_error (self, err);
  g_clear_error (&err);
  g_free (coeffs);
  g_free (cal);
  return FALSE;
}

static gboolean
gst_aooct_src_start (GstBaseSrc * src)
{
  GstAooctSrc *self = GST_AOOCT_SRC (src);

  if (self->synth == NULL && !open_synth (src))
    return FALSE;
  self->n_frames = 0;
  return TRUE;
}

static gboolean
gst_aooct_src_stop (GstBaseSrc * src)
{
  GstAooctSrc *self = GST_AOOCT_SRC (src);

  free_synth (self->synth);
  self->synth = NULL;
  return TRUE;
}

static void
close_synth (GstBaseSrc * src)
{
  gst_aooct_src_stop (src);
}

static GstStateChangeReturn
gst_aooct_src_change_state (GstElement * element, GstStateChange transition)
{
  return aooct_src_change_state (element, transition,
      GST_ELEMENT_CLASS (parent_class), open_synth, close_synth);
}

/* The physical properties may change while playing: take them over at the
 * next B-scan (geometry, calibration and seed stay as at start). */
static gboolean
update_params (GstAooctSrc * self, GError ** error)
{
  AooctSynthParams p = self->active;
  AooctSynth *s;

  GST_OBJECT_LOCK (self);
  p.phantom = self->props.phantom;
  p.center_wavelength = self->props.center_wavelength;
  p.bandwidth = self->props.bandwidth;
  p.reference_level = self->props.reference_level;
  p.reflectivity = self->props.reflectivity;
  p.noise = self->props.noise;
  p.dispersion_a2 = self->props.dispersion_a2;
  p.dispersion_a3 = self->props.dispersion_a3;
  p.mirror_depth = self->props.mirror_depth;
  p.mirror_tilt = self->props.mirror_tilt;
  p.carrier = self->props.carrier;
  p.depth_offset = self->props.depth_offset;
  p.speckle_width = self->props.speckle_width;
  p.bscans_per_volume = self->props.bscans_per_volume;
  p.repeats = self->props.repeats;
  p.vessel_count = self->props.vessel_count;
  p.vessel_velocity = self->props.vessel_velocity;
  p.vessel_depth = self->props.vessel_depth;
  p.vessel_diameter = self->props.vessel_diameter;
  p.vessel_position = self->props.vessel_position;
  p.vessel_decorrelation = self->props.vessel_decorrelation;
  p.aline_spacing = self->props.aline_spacing;
  /* the geometry stays as at start: alines is the active one */
  p.line_rate = line_rate (self, p.alines);
  p.refractive_index = self->props.refractive_index;
  p.motion_axial = self->props.motion_axial;
  p.motion_lateral = self->props.motion_lateral;
  GST_OBJECT_UNLOCK (self);

  if (p.phantom == self->active.phantom &&
      p.center_wavelength == self->active.center_wavelength &&
      p.bandwidth == self->active.bandwidth &&
      p.reference_level == self->active.reference_level &&
      p.reflectivity == self->active.reflectivity &&
      p.noise == self->active.noise &&
      p.dispersion_a2 == self->active.dispersion_a2 &&
      p.dispersion_a3 == self->active.dispersion_a3 &&
      p.mirror_depth == self->active.mirror_depth &&
      p.mirror_tilt == self->active.mirror_tilt &&
      p.carrier == self->active.carrier &&
      p.depth_offset == self->active.depth_offset &&
      p.speckle_width == self->active.speckle_width &&
      p.bscans_per_volume == self->active.bscans_per_volume &&
      p.repeats == self->active.repeats &&
      p.vessel_count == self->active.vessel_count &&
      p.vessel_velocity == self->active.vessel_velocity &&
      p.vessel_depth == self->active.vessel_depth &&
      p.vessel_diameter == self->active.vessel_diameter &&
      p.vessel_position == self->active.vessel_position &&
      p.vessel_decorrelation == self->active.vessel_decorrelation &&
      p.aline_spacing == self->active.aline_spacing &&
      p.line_rate == self->active.line_rate &&
      p.refractive_index == self->active.refractive_index &&
      p.motion_axial == self->active.motion_axial &&
      p.motion_lateral == self->active.motion_lateral)
    return TRUE;

  s = build_synth (&p, error);
  if (s == NULL)
    return FALSE;
  GST_DEBUG_OBJECT (self, "parameters changed, model rebuilt");
  free_synth (self->synth);
  self->synth = s;
  self->active = p;
  return TRUE;
}

static GstFlowReturn
gst_aooct_src_fill (GstPushSrc * psrc, GstBuffer * buffer)
{
  GstAooctSrc *self = GST_AOOCT_SRC (psrc);
  GstVideoFrame frame;
  GError *err = NULL;
  guint8 *data;
  gint stride, width, height, row;
  GstClockTime t0, t1;

  if (!update_params (self, &err)) {
    post_error (self, err);
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
  if (!gst_video_frame_map (&frame, &self->vinfo, buffer, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("cannot map output buffer"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  width = GST_VIDEO_FRAME_WIDTH (&frame);
  height = GST_VIDEO_FRAME_HEIGHT (&frame);
  g_assert (width == self->active.samples && height == self->active.alines);
  g_assert (stride % 2 == 0);
  aooct_synth_fill (self->synth, self->n_frames, (guint16 *) data, stride / 2);
  /* rows padded to 4 bytes (odd widths): defined padding */
  if (stride > 2 * width)
    for (row = 0; row < height; row++)
      memset (data + (gsize) row * stride + 2 * width, 0, stride - 2 * width);
  gst_video_frame_unmap (&frame);

  GST_OBJECT_LOCK (self);
  t0 = frame_time (self, self->n_frames);
  t1 = frame_time (self, self->n_frames + 1);
  GST_OBJECT_UNLOCK (self);
  GST_BUFFER_PTS (buffer) = t0;
  GST_BUFFER_DTS (buffer) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buffer) = t1 - t0;
  GST_BUFFER_OFFSET (buffer) = self->n_frames;
  GST_BUFFER_OFFSET_END (buffer) = self->n_frames + 1;
  self->n_frames++;
  return GST_FLOW_OK;
}

/* ---- class -------------------------------------------------------------- */

static void
gst_aooct_src_finalize (GObject * object)
{
  GstAooctSrc *self = GST_AOOCT_SRC (object);

  g_free (self->coeffs);
  g_free (self->calibration_file);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_aooct_src_init (GstAooctSrc * self)
{
  aooct_synth_params_init (&self->props);
  self->coeffs = g_strdup (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS);
  self->seed = -1;
  self->fps_n = AOOCT_SYNTH_DEFAULT_FPS_N;
  self->fps_d = AOOCT_SYNTH_DEFAULT_FPS_D;
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}

#define PLAYING_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)
#define READY_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

/* A start-time property (samples, phantom, ...) changed while running
 * does nothing now: say so (aooct-late-property.h). */
static void
gst_aooct_src_dispatch_properties_changed (GObject * object, guint n_pspecs,
    GParamSpec ** pspecs)
{
  aooct_warn_late_properties (GST_ELEMENT (object), n_pspecs, pspecs);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

static void
gst_aooct_src_class_init (GstAooctSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->set_property = gst_aooct_src_set_property;
  gobject_class->get_property = gst_aooct_src_get_property;
  gobject_class->finalize = gst_aooct_src_finalize;
  gobject_class->dispatch_properties_changed =
      gst_aooct_src_dispatch_properties_changed;

  /**
   * GstAooctSrc:samples:
   *
   * Camera pixels per A-line N (video width), 2..16384, default 832
   */
  g_object_class_install_property (gobject_class, PROP_SAMPLES,
      g_param_spec_int ("samples", "Samples",
          "Camera pixels per A-line N (video width), 2..16384, default 832",
          2, AOOCT_SYNTH_MAX_SAMPLES, AOOCT_SYNTH_DEFAULT_SAMPLES,
          READY_FLAGS));
  /**
   * GstAooctSrc:alines:
   *
   * A-lines per B-scan M (video height), 1..65536, default 240
   */
  g_object_class_install_property (gobject_class, PROP_ALINES,
      g_param_spec_int ("alines", "A-lines",
          "A-lines per B-scan M (video height), 1..65536, default 240",
          1, 65536, AOOCT_SYNTH_DEFAULT_ALINES, READY_FLAGS));
  g_object_class_install_property (gobject_class, PROP_FRAMERATE,
      gst_param_spec_fraction ("framerate", "Frame rate",
          "B-scans per second, 1/1000..100000/1, default 100/1 (a 24 kHz "
          "line rate with 240 A-lines)", 1, 1000, 100000, 1,
          AOOCT_SYNTH_DEFAULT_FPS_N, AOOCT_SYNTH_DEFAULT_FPS_D, READY_FLAGS));
  /**
   * GstAooctSrc:is-live:
   *
   * Behave as a live camera (deliver each B-scan when the clock reaches
   * it), default false
   */
  g_object_class_install_property (gobject_class, PROP_IS_LIVE,
      g_param_spec_boolean ("is-live", "Is live",
          "Behave as a live camera (deliver each B-scan when the clock "
          "reaches it), default false", FALSE, READY_FLAGS));
  /**
   * GstAooctSrc:seed:
   *
   * Random seed 0..4294967295 for speckle and noise (same seed, same
   * output); -1 (default) picks one at start
   */
  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_int64 ("seed", "Seed",
          "Random seed 0..4294967295 for speckle and noise (same seed, same "
          "output); -1 (default) picks one at start", -1, G_MAXUINT32, -1,
          READY_FLAGS));
  /**
   * GstAooctSrc:phantom:
   *
   * What the sample arm sees, default retina
   */
  g_object_class_install_property (gobject_class, PROP_PHANTOM,
      g_param_spec_enum ("phantom", "Phantom",
          "What the sample arm sees, default retina",
          GST_TYPE_AOOCT_SRC_PHANTOM, AOOCT_SYNTH_PHANTOM_RETINA,
          PLAYING_FLAGS));
  /**
   * GstAooctSrc:wavelength-coeffs:
   *
   * Spectrometer calibration "c0,c1[,c2[,c3]]": pixel p sees c0 + c1 p +
   * c2 p^2 + c3 p^3 nm, finite, positive and strictly monotonic on [0,
   * N-1]; default "
   */
  g_object_class_install_property (gobject_class, PROP_WAVELENGTH_COEFFS,
      g_param_spec_string ("wavelength-coeffs", "Wavelength coefficients",
          "Spectrometer calibration \"c0,c1[,c2[,c3]]\": pixel p sees "
          "c0 + c1 p + c2 p^2 + c3 p^3 nm, finite, positive and strictly "
          "monotonic on [0, N-1]; default \""
          AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS "\"",
          AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, READY_FLAGS));
  /**
   * GstAooctSrc:center-wavelength:
   *
   * Centre of the Gaussian source spectrum in nm (within the camera's
   * range), default 840
   */
  g_object_class_install_property (gobject_class, PROP_CENTER_WAVELENGTH,
      g_param_spec_double ("center-wavelength", "Center wavelength",
          "Centre of the Gaussian source spectrum in nm (within the "
          "camera's range), default 840", 1.0, 100000.0,
          AOOCT_SYNTH_DEFAULT_CENTER_WAVELENGTH, PLAYING_FLAGS));
  /**
   * GstAooctSrc:bandwidth:
   *
   * FWHM of the source spectrum in nm, 0.01..half the centre wavelength,
   * default 50 (6.2 um axial resolution)
   */
  g_object_class_install_property (gobject_class, PROP_BANDWIDTH,
      g_param_spec_double ("bandwidth", "Bandwidth",
          "FWHM of the source spectrum in nm, 0.01..half the centre "
          "wavelength, default 50 (6.2 um axial resolution)", 0.01, 50000.0,
          AOOCT_SYNTH_DEFAULT_BANDWIDTH, PLAYING_FLAGS));
  /**
   * GstAooctSrc:reference-level:
   *
   * Reference-arm spectrum at its peak in counts above the black level of
   * 64, 0..1e6 (values over 4031 clip), default 2500
   */
  g_object_class_install_property (gobject_class, PROP_REFERENCE_LEVEL,
      g_param_spec_double ("reference-level", "Reference level",
          "Reference-arm spectrum at its peak in counts above the black "
          "level of 64, 0..1e6 (values over 4031 clip), default 2500",
          0.0, 1e6, AOOCT_SYNTH_DEFAULT_REFERENCE_LEVEL, PLAYING_FLAGS));
  /**
   * GstAooctSrc:reflectivity:
   *
   * Power returned by the sample relative to the reference arm (mirror;
   * retina: all layers together), 0..1, default 0.001
   */
  g_object_class_install_property (gobject_class, PROP_REFLECTIVITY,
      g_param_spec_double ("reflectivity", "Reflectivity",
          "Power returned by the sample relative to the reference arm "
          "(mirror; retina: all layers together), 0..1, default 0.001",
          0.0, 1.0, AOOCT_SYNTH_DEFAULT_REFLECTIVITY, PLAYING_FLAGS));
  /**
   * GstAooctSrc:noise:
   *
   * Noise in counts RMS at the reference peak (read noise floor plus shot-
   * like part growing with the signal), 0..10000, default 6
   */
  g_object_class_install_property (gobject_class, PROP_NOISE,
      g_param_spec_double ("noise", "Noise",
          "Noise in counts RMS at the reference peak (read noise floor plus "
          "shot-like part growing with the signal), 0..10000, default 6",
          0.0, 1e4, AOOCT_SYNTH_DEFAULT_NOISE, PLAYING_FLAGS));
  /**
   * GstAooctSrc:dispersion-a2:
   *
   * Second-order dispersion mismatch in rad, the a2 of aooctdisp that
   * cancels it, -1e4..1e4, default 8
   */
  g_object_class_install_property (gobject_class, PROP_DISPERSION_A2,
      g_param_spec_double ("dispersion-a2", "Dispersion a2",
          "Second-order dispersion mismatch in rad, the a2 of aooctdisp "
          "that cancels it, -1e4..1e4, default 8", -1e4, 1e4,
          AOOCT_SYNTH_DEFAULT_DISPERSION_A2, PLAYING_FLAGS));
  /**
   * GstAooctSrc:dispersion-a3:
   *
   * Third-order dispersion mismatch in rad, the a3 of aooctdisp that
   * cancels it, -1e4..1e4, default -2
   */
  g_object_class_install_property (gobject_class, PROP_DISPERSION_A3,
      g_param_spec_double ("dispersion-a3", "Dispersion a3",
          "Third-order dispersion mismatch in rad, the a3 of aooctdisp "
          "that cancels it, -1e4..1e4, default -2", -1e4, 1e4,
          AOOCT_SYNTH_DEFAULT_DISPERSION_A3, PLAYING_FLAGS));
  /**
   * GstAooctSrc:mirror-depth:
   *
   * phantom=mirror: single-pass optical path difference of the mirror in
   * um, -1e5..1e5 (negative: before zero delay, for aooctfullrange),
   * default 250
   */
  g_object_class_install_property (gobject_class, PROP_MIRROR_DEPTH,
      g_param_spec_double ("mirror-depth", "Mirror depth",
          "phantom=mirror: single-pass optical path difference of the mirror "
          "in um, -1e5..1e5 (negative: before zero delay, for "
          "aooctfullrange), default 250", -1e5, 1e5,
          AOOCT_SYNTH_DEFAULT_MIRROR_DEPTH, PLAYING_FLAGS));
  /**
   * GstAooctSrc:mirror-tilt:
   *
   * phantom=mirror: change of the mirror's path difference across the
   * B-scan in um (keeps it from being one DC spectrum), -1e4..1e4, default
   * 2
   */
  g_object_class_install_property (gobject_class, PROP_MIRROR_TILT,
      g_param_spec_double ("mirror-tilt", "Mirror tilt",
          "phantom=mirror: change of the mirror's path difference across "
          "the B-scan in um (keeps it from being one DC spectrum), "
          "-1e4..1e4, default 2", -1e4, 1e4, AOOCT_SYNTH_DEFAULT_MIRROR_TILT,
          PLAYING_FLAGS));
  /**
   * GstAooctSrc:carrier:
   *
   * Full-range phase carrier in rad per A-line: the sample term of A-line
   * m carries e^{j carrier m} (beam offset on the scanner; Zhang & Kang
   * 2010: about 1.5), for aooctfullrange (the retina also needs speckle-
   * width); -pi..pi, default 0 (none)
   */
  g_object_class_install_property (gobject_class, PROP_CARRIER,
      g_param_spec_double ("carrier", "Carrier",
          "Full-range phase carrier in rad per A-line: the sample term of "
          "A-line m carries e^{j carrier m} (beam offset on the scanner; "
          "Zhang & Kang 2010: about 1.5), for aooctfullrange (the retina "
          "also needs speckle-width); "
          "-pi..pi, default 0 (none)", -G_PI, G_PI, 0.0, PLAYING_FLAGS));
  /**
   * GstAooctSrc:depth-offset:
   *
   * um of single-pass optical path added to every reflector of either
   * phantom: negative values move the sample across zero delay (for
   * aooctfullrange); -1e5..1e5, default 0
   */
  g_object_class_install_property (gobject_class, PROP_DEPTH_OFFSET,
      g_param_spec_double ("depth-offset", "Depth offset",
          "um of single-pass optical path added to every reflector of "
          "either phantom: negative values move the sample across zero "
          "delay (for aooctfullrange); -1e5..1e5, default 0", -1e5, 1e5, 0.0,
          PLAYING_FLAGS));
  /**
   * GstAooctSrc:speckle-width:
   *
   * phantom=retina: lateral correlation of the speckle, Gaussian sigma in
   * A-lines (a beam wider than the A-line spacing); full range needs it
   * (about 3 with carrier=1.5): independent A-lines have no slowly varying
   * phase for the carrier to shift. 0..8, default 0 (independent A-lines)
   */
  g_object_class_install_property (gobject_class, PROP_SPECKLE_WIDTH,
      g_param_spec_double ("speckle-width", "Speckle width",
          "phantom=retina: lateral correlation of the speckle, Gaussian "
          "sigma in A-lines (a beam wider than the A-line spacing); full "
          "range needs it (about 3 with carrier=1.5): independent A-lines "
          "have no slowly varying phase for the carrier to shift. "
          "0..8, default 0 (independent A-lines)", 0.0, 8.0, 0.0,
          PLAYING_FLAGS));
  /**
   * GstAooctSrc:motion-axial:
   *
   * phantom=retina: eye motion, the peak axial shift of the whole retina
   * in um of single-pass optical path (a drift and a tremor per B-scan,
   * from the seed; common/aooct-synth.h); the tissue moves, its speckle
   * with it.  0..1000, default 0 (none)
   */
  g_object_class_install_property (gobject_class, PROP_MOTION_AXIAL,
      g_param_spec_double ("motion-axial", "Axial motion",
          "phantom=retina: eye motion, the peak axial shift of the whole "
          "retina in um of single-pass optical path (a drift and a tremor "
          "per B-scan, from the seed); the tissue moves, its speckle with "
          "it.  0..1000, default 0 (none)", 0.0, 1000.0, 0.0, PLAYING_FLAGS));
  /**
   * GstAooctSrc:motion-lateral:
   *
   * phantom=retina: eye motion, the peak lateral shift of the retina in
   * A-lines along the scan (drift and tremor per B-scan, from the seed);
   * needs speckle-width > 0 (the beam's width) and no vessels.  0..1000,
   * default 0 (none)
   */
  g_object_class_install_property (gobject_class, PROP_MOTION_LATERAL,
      g_param_spec_double ("motion-lateral", "Lateral motion",
          "phantom=retina: eye motion, the peak lateral shift of the retina "
          "in A-lines along the scan (drift and tremor per B-scan, from the "
          "seed); needs speckle-width > 0 (the beam's width) and no "
          "vessels.  0..1000, default 0 (none)", 0.0, 1000.0, 0.0,
          PLAYING_FLAGS));
  /**
   * GstAooctSrc:bscans-per-volume:
   *
   * phantom=retina: B-scans that sweep once across the retina before the
   * next volume starts over, 1..65536, default 100
   */
  g_object_class_install_property (gobject_class, PROP_BSCANS_PER_VOLUME,
      g_param_spec_int ("bscans-per-volume", "B-scans per volume",
          "phantom=retina: B-scans that sweep once across the retina "
          "before the next volume starts over, 1..65536, default 100",
          1, 65536, AOOCT_SYNTH_DEFAULT_BSCANS_PER_VOLUME, PLAYING_FLAGS));
  /**
   * GstAooctSrc:repeats:
   *
   * B-scans acquired at each position in a row, as a scanner for
   * angiography repeats them (aooctangio repeats=): B-scan b shows position
   * (b / repeats) mod bscans-per-volume; 1..1024, default 1
   */
  g_object_class_install_property (gobject_class, PROP_REPEATS,
      g_param_spec_int ("repeats", "Repeats",
          "B-scans acquired at each position in a row, as a scanner for "
          "angiography repeats them (aooctangio repeats=): B-scan b shows "
          "position (b / repeats) mod bscans-per-volume; 1..1024, default 1",
          1, AOOCT_SYNTH_MAX_REPEATS, 1, PLAYING_FLAGS));
  /**
   * GstAooctSrc:vessel-count:
   *
   * Blood vessels crossing every B-scan (cylinders running across
   * B-scans), evenly spaced from vessel-position; their blood flows
   * axially at vessel-velocity, neighbours in opposite directions;
   * 0..16, default 0 (none)
   */
  g_object_class_install_property (gobject_class, PROP_VESSEL_COUNT,
      g_param_spec_int ("vessel-count", "Vessel count",
          "Blood vessels crossing every B-scan (cylinders running across "
          "B-scans), evenly spaced from vessel-position; their blood flows "
          "axially at vessel-velocity, neighbours in opposite directions; "
          "0..16, default 0 (none)", 0, AOOCT_SYNTH_MAX_VESSELS, 0,
          PLAYING_FLAGS));
  /**
   * GstAooctSrc:vessel-velocity:
   *
   * Axial velocity of the blood in mm/s (positive: away from the probe;
   * the second, fourth ... vessel the opposite way): the Doppler phase per
   * A-line is 4 pi refractive-index velocity / (lambda0 line-rate), lambda0
   * = 840 nm for the default source (docs/flow.md); -1000..1000, default 2
   */
  g_object_class_install_property (gobject_class, PROP_VESSEL_VELOCITY,
      g_param_spec_double ("vessel-velocity", "Vessel velocity",
          "Axial velocity of the blood in mm/s (positive: away from the "
          "probe; the second, fourth ... vessel the opposite way): the "
          "Doppler phase per A-line is 4 pi refractive-index velocity / "
          "(lambda0 line-rate), lambda0 = 840 nm for the default source; "
          "-1000..1000, default 2", -1e3, 1e3,
          AOOCT_SYNTH_DEFAULT_VESSEL_VELOCITY, PLAYING_FLAGS));
  /**
   * GstAooctSrc:vessel-depth:
   *
   * Depth of the vessels' centre in um of single-pass optical path (as
   * mirror-depth; depth-offset is added; in the retina, at the middle
   * B-scan of a volume, following the curvature elsewhere), -1e5..1e5,
   * default 220 (the ganglion cell layer)
   */
  g_object_class_install_property (gobject_class, PROP_VESSEL_DEPTH,
      g_param_spec_double ("vessel-depth", "Vessel depth",
          "Depth of the vessels' centre in um of single-pass optical path "
          "(as mirror-depth; depth-offset is added; in the retina, at the "
          "middle B-scan of a volume, following the curvature elsewhere), "
          "-1e5..1e5, default 220 (the ganglion cell layer)", -1e5, 1e5,
          AOOCT_SYNTH_DEFAULT_VESSEL_DEPTH, PLAYING_FLAGS));
  /**
   * GstAooctSrc:vessel-diameter:
   *
   * Vessel diameter in um: that many um of optical path deep and
   * vessel-diameter / aline-spacing A-lines wide; 1..2000, default 40
   */
  g_object_class_install_property (gobject_class, PROP_VESSEL_DIAMETER,
      g_param_spec_double ("vessel-diameter", "Vessel diameter",
          "Vessel diameter in um: that many um of optical path deep and "
          "vessel-diameter / aline-spacing A-lines wide; 1..2000, default 40",
          1.0, 2000.0, AOOCT_SYNTH_DEFAULT_VESSEL_DIAMETER, PLAYING_FLAGS));
  /**
   * GstAooctSrc:vessel-position:
   *
   * Centre of the first vessel as a fraction of the B-scan width (A-line
   * position * (alines - 1)); vessel j sits at (position + j / count) mod
   * 1; 0..1, default 0.25
   */
  g_object_class_install_property (gobject_class, PROP_VESSEL_POSITION,
      g_param_spec_double ("vessel-position", "Vessel position",
          "Centre of the first vessel as a fraction of the B-scan width "
          "(A-line position * (alines - 1)); vessel j sits at (position + "
          "j / count) mod 1; 0..1, default 0.25", 0.0, 1.0,
          AOOCT_SYNTH_DEFAULT_VESSEL_POSITION, PLAYING_FLAGS));
  /**
   * GstAooctSrc:vessel-decorrelation:
   *
   * Fraction of the blood's scattering power drawn anew from one B-scan to
   * the next (cells tumbling and crossing the beam): repeated B-scans of a
   * vessel correlate by 1 - this (less as the flow moves the speckle on);
   * static tissue does not decorrelate; 0..1, default 1
   */
  g_object_class_install_property (gobject_class, PROP_VESSEL_DECORRELATION,
      g_param_spec_double ("vessel-decorrelation", "Vessel decorrelation",
          "Fraction of the blood's scattering power drawn anew from one "
          "B-scan to the next (cells tumbling and crossing the beam): "
          "repeated B-scans of a vessel correlate by 1 - this (less as the "
          "flow moves the speckle on); static tissue does not decorrelate; "
          "0..1, default 1", 0.0, 1.0,
          AOOCT_SYNTH_DEFAULT_VESSEL_DECORRELATION, PLAYING_FLAGS));
  /**
   * GstAooctSrc:aline-spacing:
   *
   * Lateral distance between A-lines in um: sets how many A-lines a
   * vessel spans; 0.01..10000, default 1
   */
  g_object_class_install_property (gobject_class, PROP_ALINE_SPACING,
      g_param_spec_double ("aline-spacing", "A-line spacing",
          "Lateral distance between A-lines in um: sets how many A-lines a "
          "vessel spans; 0.01..10000, default 1", 0.01, 1e4,
          AOOCT_SYNTH_DEFAULT_ALINE_SPACING, PLAYING_FLAGS));
  /**
   * GstAooctSrc:line-rate:
   *
   * A-lines per second of the simulated scan, which the blood's phase per
   * A-line follows (A-line m of B-scan b is taken at (b alines + m) /
   * line-rate); 0 (default) = framerate x alines, else 1..1e8
   */
  g_object_class_install_property (gobject_class, PROP_LINE_RATE,
      g_param_spec_double ("line-rate", "Line rate",
          "A-lines per second of the simulated scan, which the blood's "
          "phase per A-line follows (A-line m of B-scan b is taken at "
          "(b alines + m) / line-rate); 0 (default) = framerate x alines, "
          "else 1..1e8", 0.0, 1e8, 0.0, PLAYING_FLAGS));
  /**
   * GstAooctSrc:refractive-index:
   *
   * Refractive index of the blood (optical path per um moved), 1..3,
   * default 1.38 (aooctdoppler's default)
   */
  g_object_class_install_property (gobject_class, PROP_REFRACTIVE_INDEX,
      g_param_spec_double ("refractive-index", "Refractive index",
          "Refractive index of the blood (optical path per um moved), 1..3, "
          "default 1.38 (aooctdoppler's default)", 1.0, 3.0,
          AOOCT_SYNTH_DEFAULT_REFRACTIVE_INDEX, PLAYING_FLAGS));
  /* phantom=photoreceptors (aooct-src-org.c) */
  aooct_src_org_install (gobject_class, PLAYING_FLAGS);
  /**
   * GstAooctSrc:calibration-file:
   *
   * If set, the N pixel wavelengths (nm, one per line) are written there
   * at start, for aooctkmap wavelength-file=; default none
   */
  g_object_class_install_property (gobject_class, PROP_CALIBRATION_FILE,
      g_param_spec_string ("calibration-file", "Calibration file",
          "If set, the N pixel wavelengths (nm, one per line) are written "
          "there at start, for aooctkmap wavelength-file=; default none",
          NULL, READY_FLAGS));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Synthetic OCT camera", "Source/Video",
      "Raw spectra of a simulated spectral-domain (AO-)OCT system: "
      "non-linear spectrometer, dispersion, mirror or retina phantom, noise",
      "aooct developers");

  basesrc_class->get_caps = gst_aooct_src_get_caps;
  basesrc_class->set_caps = gst_aooct_src_set_caps;
  basesrc_class->query = gst_aooct_src_query;
  basesrc_class->get_times = gst_aooct_src_get_times;
  basesrc_class->start = gst_aooct_src_start;
  element_class->change_state = gst_aooct_src_change_state;
  basesrc_class->stop = gst_aooct_src_stop;
  pushsrc_class->fill = gst_aooct_src_fill;

  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_SRC_PHANTOM, 0);
}
