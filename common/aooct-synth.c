/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: synthetic spectral-domain OCT camera; see aooct-synth.h for the
 * model. */
#include <math.h>
#include <string.h>
#include <fftw3.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "aooct-synth.h"
#include "aooct-textwrite.h"
#include "aooct-error.h"

/* ---- retina phantom ---------------------------------------------------- */

typedef enum
{
  LAYER_INNER,                  /* thinned by the foveal pit */
  LAYER_ONL,                    /* thickened in the fovea */
  LAYER_OUTER,                  /* fixed thickness */
  LAYER_CONE,                   /* fixed, brightness per cone */
  LAYER_CHOROID                 /* reflectivity decays with depth */
} LayerKind;

typedef struct
{
  const gchar *name;
  gdouble thickness;            /* um of optical path, outside the fovea */
  gdouble r;                    /* relative backscatter per um */
  LayerKind kind;
} Layer;

/* Optical thicknesses (geometric x 1.38) and relative reflectivities of a
 * parafoveal retina as AO-OCT shows it: bright NFL, IPL/OPL, ELM, IS/OS,
 * COST and RPE; dark GCL, INL, ONL, IS and OS. */
static const Layer layers[] = {
  {"NFL", 40, 0.35, LAYER_INNER},
  {"GCL", 50, 0.06, LAYER_INNER},
  {"IPL", 45, 0.18, LAYER_INNER},
  {"INL", 40, 0.05, LAYER_INNER},
  {"OPL", 30, 0.15, LAYER_INNER},
  {"ONL", 110, 0.015, LAYER_ONL},
  {"ELM", 3, 0.12, LAYER_OUTER},
  {"IS", 28, 0.03, LAYER_OUTER},
  {"IS/OS", 5, 0.9, LAYER_CONE},
  {"OS", 35, 0.04, LAYER_OUTER},
  {"COST", 4, 0.45, LAYER_CONE},
  {"RPE", 22, 1.0, LAYER_OUTER},
  {"choroid", 250, 0.15, LAYER_CHOROID},
};

#define N_LAYERS G_N_ELEMENTS (layers)
#define RPE_LAYER 11
#define RETINA_RPE_DEPTH 520.0  /* um: top of the RPE at the apex */
#define RETINA_CURVATURE 50.0   /* um: the RPE's sag at the volume's edge */
#define CHOROID_DECAY 80.0      /* um */
#define CONE_ALINES 3           /* A-lines per cone */
#define WINDOW_MARGIN 10.0      /* um around the tissue */
#define INTERP_OVERSAMPLING 12  /* grid points per period of the deepest
                                 * lattice frequency */
#define VESSEL_BACKSCATTER 0.12 /* blood: relative backscatter per um */

/* Layer boundaries (um) at lateral position x (across A-lines) and y
 * (across B-scans), both in [-1, 1]; bounds[i] .. bounds[i + 1] is layer i.
 * The RPE follows the eye's curvature; the layers above it are stacked
 * upward so that the foveal pit dents the surface, as in a real retina. */
static void
retina_bounds (gdouble x, gdouble y, gdouble bounds[N_LAYERS + 1])
{
  gdouble pit = exp (-(x * x + y * y) / (2 * 0.3 * 0.3));
  gdouble rpe = RETINA_RPE_DEPTH + RETINA_CURVATURE * (x * x + y * y) +
      15.0 * x;
  gdouble t[N_LAYERS];
  guint i;

  for (i = 0; i < N_LAYERS; i++) {
    t[i] = layers[i].thickness;
    if (layers[i].kind == LAYER_INNER)
      t[i] *= 1.0 - 0.8 * pit;
    else if (layers[i].kind == LAYER_ONL)
      t[i] *= 1.0 + 0.3 * pit;
  }
  bounds[RPE_LAYER] = rpe;
  for (i = RPE_LAYER; i > 0; i--)
    bounds[i - 1] = bounds[i] - t[i - 1];
  for (i = RPE_LAYER; i < N_LAYERS; i++)
    bounds[i + 1] = bounds[i] + t[i];
}

/* ---- random numbers ----------------------------------------------------- */

/* splitmix64: tiny, fast, good enough for noise and speckle, and seedable
 * per A-line so that the output does not depend on the thread count. */
static inline guint64
mix64 (guint64 z)
{
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

typedef struct
{
  guint64 state;
  gboolean have_spare;
  gfloat spare;
} Rng;

static void
rng_init (Rng * r, guint32 seed, guint64 a, guint64 b, guint64 stream)
{
  r->state = mix64 (mix64 (mix64 (seed + G_GUINT64_CONSTANT
              (0x9e3779b97f4a7c15) * (stream + 1)) ^ a) ^ (b + 0x632be5ab));
  r->have_spare = FALSE;
  r->spare = 0;
}

static inline guint64
rng_next (Rng * r)
{
  r->state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return mix64 (r->state);
}

/* uniform in (-1, 1) */
static inline gfloat
rng_sym (Rng * r)
{
  return (gfloat) ((gint64) (rng_next (r) >> 40) - (1 << 23) + 0.5) /
      (gfloat) (1 << 23);
}

static inline gdouble
rng_uniform (Rng * r)
{
  return (rng_next (r) >> 11) * (1.0 / 9007199254740992.0);
}

/* standard normal, Marsaglia's polar method (no trigonometry) */
static inline gfloat
rng_gauss (Rng * r)
{
  gfloat u, v, s, f;

  if (r->have_spare) {
    r->have_spare = FALSE;
    return r->spare;
  }
  do {
    u = rng_sym (r);
    v = rng_sym (r);
    s = u * u + v * v;
  } while (s >= 1.0f || s == 0.0f);
  f = sqrtf (-2.0f * logf (s) / s);
  r->spare = v * f;
  r->have_spare = TRUE;
  return u * f;
}

/* ---- calibration and parameters ---------------------------------------- */

void
aooct_synth_params_init (AooctSynthParams * p)
{
  memset (p, 0, sizeof (*p));
  p->samples = AOOCT_SYNTH_DEFAULT_SAMPLES;
  p->alines = AOOCT_SYNTH_DEFAULT_ALINES;
  aooct_calib_parse_coeffs (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, p->coeffs,
      &p->n_coeffs, NULL);
  p->center_wavelength = AOOCT_SYNTH_DEFAULT_CENTER_WAVELENGTH;
  p->bandwidth = AOOCT_SYNTH_DEFAULT_BANDWIDTH;
  p->reference_level = AOOCT_SYNTH_DEFAULT_REFERENCE_LEVEL;
  p->reflectivity = AOOCT_SYNTH_DEFAULT_REFLECTIVITY;
  p->noise = AOOCT_SYNTH_DEFAULT_NOISE;
  p->dispersion_a2 = AOOCT_SYNTH_DEFAULT_DISPERSION_A2;
  p->dispersion_a3 = AOOCT_SYNTH_DEFAULT_DISPERSION_A3;
  p->phantom = AOOCT_SYNTH_PHANTOM_RETINA;
  p->mirror_depth = AOOCT_SYNTH_DEFAULT_MIRROR_DEPTH;
  p->mirror_tilt = AOOCT_SYNTH_DEFAULT_MIRROR_TILT;
  p->bscans_per_volume = AOOCT_SYNTH_DEFAULT_BSCANS_PER_VOLUME;
  p->seed = 0;
  p->repeats = 1;
  p->vessel_count = 0;
  p->vessel_velocity = AOOCT_SYNTH_DEFAULT_VESSEL_VELOCITY;
  p->vessel_depth = AOOCT_SYNTH_DEFAULT_VESSEL_DEPTH;
  p->vessel_diameter = AOOCT_SYNTH_DEFAULT_VESSEL_DIAMETER;
  p->vessel_position = AOOCT_SYNTH_DEFAULT_VESSEL_POSITION;
  p->vessel_decorrelation = AOOCT_SYNTH_DEFAULT_VESSEL_DECORRELATION;
  p->aline_spacing = AOOCT_SYNTH_DEFAULT_ALINE_SPACING;
  p->line_rate = AOOCT_SYNTH_DEFAULT_LINE_RATE;
  p->refractive_index = AOOCT_SYNTH_DEFAULT_REFRACTIVE_INDEX;
  aooct_synth_org_init (&p->org);
}

#define CHECK_RANGE(val, name, lo, hi, unit) G_STMT_START {             \
  if (!isfinite (val) || (val) < (lo) || (val) > (hi)) {                \
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,              \
        name "=%g: expected a finite number in %g..%g " unit, (gdouble) (val), \
        (gdouble) (lo), (gdouble) (hi));                                \
    return FALSE;                                                       \
  }                                                                     \
} G_STMT_END

gboolean
aooct_synth_params_validate (const AooctSynthParams * p, GError ** error)
{
  gdouble l0, l1, lmin, lmax;

  if (p->samples < 2 || p->samples > AOOCT_SYNTH_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "samples=%d is not in 2..%d", p->samples, AOOCT_SYNTH_MAX_SAMPLES);
    return FALSE;
  }
  if (p->alines < 1 || p->alines > 65536) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "alines=%d is not in 1..65536", p->alines);
    return FALSE;
  }
  if (p->bscans_per_volume < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "bscans-per-volume=%d must be at least 1", p->bscans_per_volume);
    return FALSE;
  }
  if (p->n_coeffs < 1 || p->n_coeffs > 4) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "wavelength-coeffs has %d coefficients, expected 1 to 4", p->n_coeffs);
    return FALSE;
  }
  if (!aooct_calib_check_poly (p->coeffs, p->n_coeffs, p->samples, error))
    return FALSE;
  CHECK_RANGE (p->center_wavelength, "center-wavelength", 1.0, 100000.0, "nm");
  CHECK_RANGE (p->bandwidth, "bandwidth", 0.01, 0.5 * p->center_wavelength,
      "nm (at most half the center-wavelength)");
  CHECK_RANGE (p->reference_level, "reference-level", 0.0, 1e6, "counts");
  CHECK_RANGE (p->reflectivity, "reflectivity", 0.0, 1.0, "");
  CHECK_RANGE (p->noise, "noise", 0.0, 1e4, "counts RMS");
  CHECK_RANGE (p->dispersion_a2, "dispersion-a2", -1e4, 1e4, "rad");
  CHECK_RANGE (p->dispersion_a3, "dispersion-a3", -1e4, 1e4, "rad");
  CHECK_RANGE (p->mirror_depth, "mirror-depth", -1e5, 1e5, "um");
  CHECK_RANGE (p->carrier, "carrier", -G_PI, G_PI, "rad per A-line");
  CHECK_RANGE (p->depth_offset, "depth-offset", -1e5, 1e5, "um");
  CHECK_RANGE (p->speckle_width, "speckle-width", 0.0, 8.0, "A-lines");
  CHECK_RANGE (p->mirror_tilt, "mirror-tilt", -1e4, 1e4, "um");
  if (p->repeats < 1 || p->repeats > AOOCT_SYNTH_MAX_REPEATS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "repeats=%d is not in 1..%d", p->repeats, AOOCT_SYNTH_MAX_REPEATS);
    return FALSE;
  }
  if (p->vessel_count < 0 || p->vessel_count > AOOCT_SYNTH_MAX_VESSELS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "vessel-count=%d is not in 0..%d", p->vessel_count,
        AOOCT_SYNTH_MAX_VESSELS);
    return FALSE;
  }
  CHECK_RANGE (p->vessel_velocity, "vessel-velocity", -1e3, 1e3, "mm/s");
  CHECK_RANGE (p->vessel_depth, "vessel-depth", -1e5, 1e5, "um");
  CHECK_RANGE (p->vessel_diameter, "vessel-diameter", 1.0, 2000.0, "um");
  CHECK_RANGE (p->vessel_position, "vessel-position", 0.0, 1.0,
      "(fraction of the B-scan width)");
  CHECK_RANGE (p->vessel_decorrelation, "vessel-decorrelation", 0.0, 1.0, "");
  CHECK_RANGE (p->aline_spacing, "aline-spacing", 0.01, 1e4, "um");
  /* only the blood moves with time: without it any frame rate goes */
  if (p->vessel_count > 0)
    CHECK_RANGE (p->line_rate, "line-rate", 1.0, 1e8, "A-lines/s");
  CHECK_RANGE (p->refractive_index, "refractive-index", 1.0, 3.0, "");
  if (!aooct_synth_org_validate (&p->org, error))
    return FALSE;

  /* eye motion (aooct_synth_motion below) */
  CHECK_RANGE (p->motion_axial, "motion-axial", 0.0, 1000.0, "um");
  CHECK_RANGE (p->motion_lateral, "motion-lateral", 0.0, 1000.0, "A-lines");
  if ((p->motion_axial > 0 || p->motion_lateral > 0)
      && p->phantom != AOOCT_SYNTH_PHANTOM_RETINA) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "motion-axial=%g / motion-lateral=%g move the retina: they need "
        "phantom=retina", p->motion_axial, p->motion_lateral);
    return FALSE;
  }
  if (p->motion_lateral > 0 && (p->speckle_width <= 0 || p->vessel_count > 0)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "motion-lateral=%g needs speckle-width > 0 (the beam's width, which "
        "makes a fractional lateral shift meaningful; got %g) and "
        "vessel-count=0 (got %d)", p->motion_lateral, p->speckle_width,
        p->vessel_count);
    return FALSE;
  }

  /* a source the camera cannot see is a configuration mistake */
  l0 = aooct_calib_poly_eval (p->coeffs, p->n_coeffs, 0);
  l1 = aooct_calib_poly_eval (p->coeffs, p->n_coeffs, p->samples - 1);
  lmin = MIN (l0, l1);
  lmax = MAX (l0, l1);
  if (p->center_wavelength < lmin || p->center_wavelength > lmax) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "center-wavelength=%g nm lies outside the camera's %g..%g nm "
        "(wavelength-coeffs)", p->center_wavelength, lmin, lmax);
    return FALSE;
  }
  return TRUE;
}

/* wavenumber in rad/um of a wavelength in nm */
static inline gdouble
wavenumber (gdouble lambda_nm)
{
  return 2000.0 * G_PI / lambda_nm;
}

/* k(p) in rad/um of camera pixel @pixel */
static inline gdouble
pixel_wavenumber (const AooctSynthParams * p, gdouble pixel)
{
  return wavenumber (aooct_calib_poly_eval (p->coeffs, p->n_coeffs, pixel));
}

gdouble
aooct_synth_depth_bin (const AooctSynthParams * p, gdouble z_um, gint p1)
{
  gdouble k0 = pixel_wavenumber (p, 0);
  gdouble k1 = pixel_wavenumber (p, p->samples - 1);

  return z_um * fabs (k1 - k0) * p1 / (G_PI * (p->samples - 1));
}

gdouble
aooct_synth_axial_resolution (const AooctSynthParams * p)
{
  gdouble lc = p->center_wavelength * 1e-3;     /* um */

  return 2.0 * G_LN2 / G_PI * lc * lc / (p->bandwidth * 1e-3);
}

gboolean
aooct_synth_write_calibration (const AooctSynthParams * p,
    const gchar * path, GError ** error)
{
  GString *s = g_string_new (NULL);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  GError *err = NULL;
  gboolean ok;
  gint i;

  /* header lines without a line break of their own: appended as they are */
  g_string_append_printf (s, "# aooctsrc wavelength calibration: lambda in "
      "nm of camera pixel p = 0..%d, one per line\n", p->samples - 1);
  g_string_append (s, "# lambda(p) = c0 + c1 p + c2 p^2 + c3 p^3, "
      "wavelength-coeffs=\"");
  for (i = 0; i < p->n_coeffs; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "",
        g_ascii_dtostr (buf, sizeof (buf), p->coeffs[i]));
  g_string_append (s, "\"\n# use as: aooctkmap wavelength-file=<this file>\n");
  for (i = 0; i < p->samples; i++) {
    g_string_append (s, g_ascii_dtostr (buf, sizeof (buf),
            aooct_calib_poly_eval (p->coeffs, p->n_coeffs, i)));
    g_string_append_c (s, '\n');
  }
  /* aooctkmap wavelength-file reads exactly one wavelength per pixel */
  ok = aooct_text_write (path, s, 1, 1, p->samples, &err);
  if (!ok) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "calibration-file: %s", err->message);
    g_error_free (err);
  }
  g_string_free (s, TRUE);
  return ok;
}

/* ---- the model ---------------------------------------------------------- */

/* Scatterers on a lattice z_mid + l dz, |l| <= lh, with complex amplitudes
 * b_l: sum_l b_l e^{j 2 k (z_mid + l dz)} = e^{j 2 k z_mid} G(t) with
 * k = kstart + t dk, dk = pi / (q dz): G(t) = sum_l b'_l e^{2 pi j t l / q}
 * where b'_l = b_l e^{j 2 kstart l dz} is as random as b_l; the FFT gives
 * G at integer t, Lagrange interpolation at each pixel's t.  Scatterers
 * that move from one lattice point to another (blood) need the factor
 * e^{j 2 kstart l dz} themselves. */
typedef struct
{
  gdouble dz;                   /* lattice spacing, um */
  gdouble z_mid;                /* lattice centre, um */
  gint lh;                      /* lattice points z_mid + l dz, |l| <= lh */
  gint q;                       /* FFT length */
  gdouble kstart;               /* k of grid point 0, rad/um */
  gint *i0;                     /* interpolation: first grid point */
  gfloat *w;                    /* 4 Lagrange weights per pixel */
  gfloat *carrier;              /* e^{j (2 k (z_mid + depth-offset) + phi)},
                                 * re im */
  fftwf_plan plan;
  fftwf_complex **in;           /* per thread, FFT input */
  fftwf_complex **out;          /* per thread, FFT output */
} Lattice;

struct _AooctSynth
{
  AooctSynthParams p;

  /* per pixel */
  gdouble *two_k;               /* 2 k(p), rad/um */
  gdouble *phi;                 /* dispersion phase, rad */
  gfloat *amp;                  /* reference-level * S(k(p)), counts */

  gint n_threads;
  gdouble scale;                /* power per (r x um) */
  Lattice retina;               /* the tissue */
  Lattice blood;                /* the vessels (vessel-count > 0) */
  gfloat **vessel_field;        /* per thread, 2 N: the blood's sample field
                                 * of one A-line */
  gfloat **org_field;           /* phantom=photoreceptors: per thread, 2 N */
};

/* The interpolation tables, FFT buffers and plan of @lat, whose dz, z_mid,
 * lh and q are set. */
static void
lattice_setup (AooctSynth * s, Lattice * lat, gdouble kmin)
{
  const AooctSynthParams *p = &s->p;
  gdouble dk, kstart;
  gint i, t;

  dk = G_PI / (lat->q * lat->dz);
  kstart = kmin - 2 * dk;
  lat->kstart = kstart;
  lat->i0 = g_new (gint, p->samples);
  lat->w = g_new (gfloat, 4 * p->samples);
  lat->carrier = g_new (gfloat, 2 * p->samples);
  for (i = 0; i < p->samples; i++) {
    gdouble tt = (0.5 * s->two_k[i] - kstart) / dk;
    gdouble f = tt - floor (tt);
    gdouble arg = s->two_k[i] * (lat->z_mid + p->depth_offset) + s->phi[i];

    lat->i0[i] = (gint) floor (tt) - 1;
    lat->w[4 * i + 0] = -f * (f - 1) * (f - 2) / 6;
    lat->w[4 * i + 1] = (f + 1) * (f - 1) * (f - 2) / 2;
    lat->w[4 * i + 2] = -(f + 1) * f * (f - 2) / 2;
    lat->w[4 * i + 3] = (f + 1) * f * (f - 1) / 6;
    lat->carrier[2 * i] = cos (arg);
    lat->carrier[2 * i + 1] = sin (arg);
  }

  lat->in = g_new0 (fftwf_complex *, s->n_threads);
  lat->out = g_new0 (fftwf_complex *, s->n_threads);
  for (t = 0; t < s->n_threads; t++) {
    lat->in[t] = fftwf_alloc_complex (lat->q);
    lat->out[t] = fftwf_alloc_complex (lat->q);
    /* only the lattice entries are written per A-line */
    memset (lat->in[t], 0, sizeof (fftwf_complex) * lat->q);
  }
  /* FFTW_ESTIMATE: the same algorithm every run, hence the same output */
  lat->plan = fftwf_plan_dft_1d (lat->q, lat->in[0], lat->out[0],
      FFTW_BACKWARD, FFTW_ESTIMATE);
}

static void
lattice_clear (Lattice * lat, gint n_threads)
{
  gint t;

  if (lat->plan)
    fftwf_destroy_plan (lat->plan);
  for (t = 0; lat->in && t < n_threads; t++) {
    fftwf_free (lat->in[t]);
    fftwf_free (lat->out[t]);
  }
  g_free (lat->in);
  g_free (lat->out);
  g_free (lat->i0);
  g_free (lat->w);
  g_free (lat->carrier);
}

/* The sample field G of the lattice's FFT output @g at pixel @i (without
 * the carrier). */
static inline void
lattice_read (const Lattice * lat, const fftwf_complex * g, gint i,
    gfloat * gr_out, gfloat * gi_out)
{
  const gfloat *w = lat->w + 4 * i;
  gint j = lat->i0[i], t;
  gfloat gr = 0, gi = 0;

  for (t = 0; t < 4; t++) {
    gint jj = (j + t) & (lat->q - 1);
    gr += w[t] * g[jj][0];
    gi += w[t] * g[jj][1];
  }
  *gr_out = gr;
  *gi_out = gi;
}

static void
setup_retina (AooctSynth * s, gdouble kmin, gdouble kmax)
{
  const AooctSynthParams *p = &s->p;
  Lattice *lat = &s->retina;
  gdouble bounds[N_LAYERS + 1];
  gdouble zlo = G_MAXDOUBLE, zhi = -G_MAXDOUBLE, total = 0;
  gint ix, iy, i;

  /* the depth window that holds the tissue at every lateral position */
  for (iy = 0; iy <= 40; iy++)
    for (ix = 0; ix <= 40; ix++) {
      retina_bounds (ix / 20.0 - 1, iy / 20.0 - 1, bounds);
      zlo = MIN (zlo, bounds[0]);
      zhi = MAX (zhi, bounds[N_LAYERS]);
    }
  zlo -= WINDOW_MARGIN;
  zhi += WINDOW_MARGIN;

  /* a quarter of the axial resolution: scatterers well below resolution */
  lat->dz = aooct_synth_axial_resolution (p) / 4.0;
  lat->z_mid = 0.5 * (zlo + zhi);
  lat->lh = (gint) ceil (0.5 * (zhi - zlo) / lat->dz);
  for (lat->q = 64; lat->q < INTERP_OVERSAMPLING * lat->lh; lat->q *= 2);

  /* total backscatter of the retina at the volume centre is reflectivity */
  retina_bounds (0, 0, bounds);
  for (i = 0; i < (gint) N_LAYERS; i++) {
    gdouble th = bounds[i + 1] - bounds[i];
    if (layers[i].kind == LAYER_CHOROID)
      total += layers[i].r * CHOROID_DECAY * (1 - exp (-th / CHOROID_DECAY));
    else
      total += layers[i].r * th;
  }
  s->scale = p->reflectivity / total;
  (void) kmax;
  lattice_setup (s, lat, kmin);
}

/* The blood's own lattice, on the tissue's spacing, over the depths the
 * vessels reach anywhere in the volume (plus a lattice step either side:
 * the blood sits up to one step past its lattice point). */
static void
setup_blood (AooctSynth * s, gdouble kmin)
{
  const AooctSynthParams *p = &s->p;
  Lattice *lat = &s->blood;
  gdouble zlo = p->vessel_depth - 0.5 * p->vessel_diameter;
  gdouble zhi = p->vessel_depth + 0.5 * p->vessel_diameter + RETINA_CURVATURE;

  lat->dz = s->retina.dz;
  zlo -= 2 * lat->dz;
  zhi += 2 * lat->dz;
  lat->z_mid = 0.5 * (zlo + zhi);
  lat->lh = (gint) ceil (0.5 * (zhi - zlo) / lat->dz);
  for (lat->q = 64; lat->q < INTERP_OVERSAMPLING * lat->lh; lat->q *= 2);
  lattice_setup (s, lat, kmin);
}

AooctSynth *
aooct_synth_new (const AooctSynthParams * p, GError ** error)
{
  AooctSynth *s;
  gdouble k0, k1, kc, dkc, kmin, kmax, sign;
  gint i, n;

  if (!aooct_synth_params_validate (p, error))
    return NULL;
  s = g_new0 (AooctSynth, 1);
  s->p = *p;
  n = p->samples;
  k0 = pixel_wavenumber (p, 0);
  k1 = pixel_wavenumber (p, n - 1);
  kc = wavenumber (p->center_wavelength);
  dkc = 2000.0 * G_PI * p->bandwidth / (p->center_wavelength *
      p->center_wavelength);
  /* s = +1 when lambda increases along the pixels (k decreases); see the
   * derivation in aooct-synth.h */
  sign = k1 < k0 ? 1.0 : -1.0;
  s->two_k = g_new (gdouble, n);
  s->phi = g_new (gdouble, n);
  s->amp = g_new (gfloat, n);
  for (i = 0; i < n; i++) {
    gdouble k = pixel_wavenumber (p, i);
    gdouble u = 2 * (k - k0) / (k1 - k0) - 1;
    gdouble e = (k - kc) / dkc;

    s->two_k[i] = 2 * k;
    s->phi[i] = sign * aooct_disp_phase (p->dispersion_a2, p->dispersion_a3, u);
    s->amp[i] = p->reference_level * exp (-4 * G_LN2 * e * e);
  }
  kmin = MIN (k0, k1);
  kmax = MAX (k0, k1);
#ifdef _OPENMP
  s->n_threads = omp_get_max_threads ();
#else
  s->n_threads = 1;
#endif
  setup_retina (s, kmin, kmax);
  if (p->vessel_count > 0) {
    gint t;

    setup_blood (s, kmin);
    s->vessel_field = g_new0 (gfloat *, s->n_threads);
    for (t = 0; t < s->n_threads; t++)
      s->vessel_field[t] = g_new (gfloat, 2 * n);
  }
  if (p->phantom == AOOCT_SYNTH_PHANTOM_PHOTORECEPTORS) {
    gint t;

    s->org_field = g_new0 (gfloat *, s->n_threads);
    for (t = 0; t < s->n_threads; t++)
      s->org_field[t] = g_new (gfloat, 2 * n);
  }
  return s;
}

void
aooct_synth_free (AooctSynth * s)
{
  gint t;

  if (s == NULL)
    return;
  lattice_clear (&s->retina, s->n_threads);
  lattice_clear (&s->blood, s->n_threads);
  for (t = 0; s->vessel_field && t < s->n_threads; t++)
    g_free (s->vessel_field[t]);
  g_free (s->vessel_field);
  if (s->org_field)
    for (t = 0; t < s->n_threads; t++)
      g_free (s->org_field[t]);
  g_free (s->org_field);
  g_free (s->two_k);
  g_free (s->phi);
  g_free (s->amp);
  g_free (s);
}

/* Noiseless intensity above dark -> counts, with noise, rounding, clip. */
static inline guint16
to_counts (const AooctSynth * s, gfloat intensity, Rng * rng)
{
  gfloat v = intensity;

  if (s->p.noise > 0) {
    gfloat rel = intensity / (gfloat) MAX (s->p.reference_level, 1.0);
    gfloat var = 0.2f + 0.8f * MAX (rel, 0.0f);
    v += (gfloat) s->p.noise * sqrtf (var) * rng_gauss (rng);
  }
  v = floorf (v + (gfloat) AOOCT_SYNTH_DARK_LEVEL + 0.5f);
  return (guint16) CLAMP (v, 0.0f, (gfloat) AOOCT_SYNTH_MAX_VALUE);
}

/* ceil (3 x the largest speckle-width) */
#define MAX_SPECKLE_TAPS 24

/* speckle-width's lateral weights exp (-k^2 / (2 sigma^2)), |k| <= nk =
 * ceil (3 sigma), squares summing to 1, in @wk[k + nk]; returns nk (0: no
 * lateral mixing). */
static gint
speckle_weights (const AooctSynthParams * p, gfloat * wk)
{
  gdouble norm = 0;
  gint k, nk;

  if (p->speckle_width <= 0)
    return 0;
  nk = (gint) ceil (3 * p->speckle_width);
  for (k = -nk; k <= nk; k++) {
    wk[k + nk] = (gfloat) exp (-0.5 * k * k / (p->speckle_width *
            p->speckle_width));
    norm += (gdouble) wk[k + nk] * wk[k + nk];
  }
  for (k = 0; k < 2 * nk + 1; k++)
    wk[k] = (gfloat) (wk[k] / sqrt (norm));
  return nk;
}

/* ---- vessels ------------------------------------------------------------ */

/* The position (0 .. bscans-per-volume - 1) that B-scan @frame shows, and
 * its y in [-1, 1]. */
static guint64
frame_position (const AooctSynthParams * p, guint64 frame)
{
  return (frame / (guint64) p->repeats) % (guint64) p->bscans_per_volume;
}

static gdouble
position_y (const AooctSynthParams * p, guint64 pos)
{
  gint v = p->bscans_per_volume;

  return v > 1 ? 2.0 * (gdouble) pos / (v - 1) - 1 : 0;
}

/* One vessel where it crosses a B-scan */
typedef struct
{
  gint index;                   /* j */
  gdouble cx, cz;               /* centre: A-line, um (before depth-offset) */
  gdouble rx, rz;               /* radii: A-lines, um */
  gdouble velocity;             /* mm/s */
} Vessel;

static void
vessel_at (const AooctSynthParams * p, gint j, gdouble y, Vessel * v)
{
  gdouble frac = fmod (p->vessel_position + (gdouble) j / p->vessel_count,
      1.0);

  v->index = j;
  v->cx = frac * (p->alines - 1);
  /* a retinal vessel follows the layers' curvature across B-scans */
  v->cz = p->vessel_depth + (p->phantom == AOOCT_SYNTH_PHANTOM_RETINA ?
      RETINA_CURVATURE * y * y : 0.0);
  v->rx = 0.5 * p->vessel_diameter / p->aline_spacing;
  v->rz = 0.5 * p->vessel_diameter;
  v->velocity = aooct_synth_vessel_velocity (p, j);
}

static inline gboolean
in_vessel (const Vessel * v, gdouble aline, gdouble z)
{
  gdouble dx = (aline - v->cx) / v->rx, dz = (z - v->cz) / v->rz;

  return dx * dx + dz * dz <= 1.0;
}

/* The vessels that A-line @m or the neighbours it mixes in (speckle-width:
 * @nk either side) reach, at position @y; returns how many. */
static gint
vessels_near (const AooctSynthParams * p, gdouble y, gint m, gint nk,
    Vessel near[AOOCT_SYNTH_MAX_VESSELS])
{
  gint j, n = 0;

  for (j = 0; j < p->vessel_count; j++) {
    vessel_at (p, j, y, &near[n]);
    if (fabs (m - near[n].cx) <= near[n].rx + nk)
      n++;
  }
  return n;
}

static gboolean
in_any_vessel (const Vessel * v, gint n, gdouble aline, gdouble z)
{
  gint j;

  for (j = 0; j < n; j++)
    if (in_vessel (&v[j], aline, z))
      return TRUE;
  return FALSE;
}

/* A blood scatterer's complex amplitude (unit variance per component):
 * its own stream, keyed by @key (the position for the lasting part, the
 * frame for the part drawn anew), the vessel, the A-line whose column it
 * lies in and its index along the flow. */
static void
blood_draw (guint32 seed, guint64 key, gint vessel, gint column, gint64 index,
    guint64 stream, gfloat * re, gfloat * im)
{
  Rng r;

  rng_init (&r, seed, key * AOOCT_SYNTH_MAX_VESSELS + (guint64) vessel,
      mix64 ((guint64) (gint64) column) + (guint64) index, stream);
  *re = rng_gauss (&r);
  *im = rng_gauss (&r);
}

/* Adds vessel @v's blood in A-line @m of B-scan @frame (position @pos) to
 * @field (2 N floats: the sample field e^{j phi} sum r e^{j 2 k z}, before
 * the full-range carrier).  @nk and @wk: the lateral weights of
 * speckle-width (nk 0: none).  FALSE if it adds nothing. */
static gboolean
add_vessel (const AooctSynth * s, gint thread, const Vessel * v,
    guint64 frame, guint64 pos, gint m, gint nk, const gfloat * wk,
    gfloat * field)
{
  const AooctSynthParams *p = &s->p;
  const Lattice *lat = &s->blood;
  fftwf_complex *in = lat->in[thread], *g = lat->out[thread];
  const gint mask = lat->q - 1;
  /* every blood scatterer has moved delta um of optical path since t = 0;
   * scatterer number `index` sits at lattice point index + steps, frac of
   * a step further on */
  const gdouble t = ((gdouble) frame * p->alines + m) / p->line_rate;
  const gdouble delta = p->refractive_index * v->velocity * 1e3 * t;
  const gdouble steps = floor (delta / lat->dz);
  const gdouble frac = delta / lat->dz - steps;
  const gint64 shift = (gint64) steps;
  const gfloat keep = (gfloat) sqrt (1.0 - p->vessel_decorrelation);
  const gfloat renew = (gfloat) sqrt (p->vessel_decorrelation);
  const gfloat sd = (gfloat) sqrt (0.5 * s->scale * VESSEL_BACKSCATTER *
      lat->dz);
  gboolean any = FALSE;
  gint l, k, i;

  for (l = -lat->lh; l <= lat->lh; l++) {
    gdouble z = lat->z_mid + (l + frac) * lat->dz;
    gint64 index = l - shift;
    gfloat ar = 0, ai = 0;
    gdouble ph;

    if (fabs (z - v->cz) <= v->rz) {
      for (k = -nk; k <= nk; k++) {
        gfloat wgt = nk > 0 ? wk[k + nk] : 1.0f, br = 0, bi = 0, er = 0, ei = 0;

        if (!in_vessel (v, m + k, z))
          continue;
        if (keep > 0)
          blood_draw (p->seed, pos, v->index, m + k, index, 3, &br, &bi);
        if (renew > 0)
          blood_draw (p->seed, frame, v->index, m + k, index, 4, &er, &ei);
        ar += wgt * (keep * br + renew * er);
        ai += wgt * (keep * bi + renew * ei);
        any = TRUE;
      }
    }
    /* b'_l = b_l e^{j 2 kstart l dz}: a scatterer keeps its phase as it
     * moves on to the next lattice point */
    ph = 2 * lat->kstart * l * lat->dz;
    in[l & mask][0] = sd * (ar * (gfloat) cos (ph) - ai * (gfloat) sin (ph));
    in[l & mask][1] = sd * (ar * (gfloat) sin (ph) + ai * (gfloat) cos (ph));
  }
  if (!any)
    return FALSE;
  fftwf_execute_dft (lat->plan, in, g);

  for (i = 0; i < p->samples; i++) {
    /* the lattice's carrier, moved on by frac steps: e^{j 2 k frac dz} */
    gdouble ph = s->two_k[i] * frac * lat->dz;
    gfloat sr = (gfloat) cos (ph), si = (gfloat) sin (ph);
    gfloat cr = lat->carrier[2 * i] * sr - lat->carrier[2 * i + 1] * si;
    gfloat ci = lat->carrier[2 * i] * si + lat->carrier[2 * i + 1] * sr;
    gfloat gr, gi;

    lattice_read (lat, g, i, &gr, &gi);
    field[2 * i] += cr * gr - ci * gi;
    field[2 * i + 1] += cr * gi + ci * gr;
  }
  return TRUE;
}

/* The blood of every vessel near A-line @m in s->vessel_field[@thread];
 * NULL if there is none. */
static const gfloat *
blood_field (const AooctSynth * s, gint thread, guint64 frame, guint64 pos,
    gdouble y, gint m, const Vessel * near, gint n_near, gint nk,
    const gfloat * wk)
{
  gfloat *field;
  gboolean any = FALSE;
  gint j;

  if (n_near == 0)
    return NULL;
  field = s->vessel_field[thread];
  memset (field, 0, sizeof (gfloat) * 2 * s->p.samples);
  for (j = 0; j < n_near; j++)
    any |= add_vessel (s, thread, &near[j], frame, pos, m, nk, wk, field);
  return any ? field : NULL;
}

/* ---- the phantoms ------------------------------------------------------- */

static void
fill_mirror_aline (const AooctSynth * s, gint thread, guint64 frame, gint m,
    guint16 * row, Rng * noise)
{
  const AooctSynthParams *p = &s->p;
  gdouble x = p->alines > 1 ? 2.0 * m / (p->alines - 1) - 1 : 0;
  gdouble z = p->mirror_depth + p->depth_offset + 0.5 * p->mirror_tilt * x;
  gdouble rho = p->reflectivity, amp = 2 * sqrt (rho);
  gdouble beta = p->carrier * m;
  const gfloat *blood = NULL;
  gint i;

  if (p->vessel_count > 0) {
    /* a flow phantom: blood in front of (or behind) the mirror; a tube
     * without neighbours to mix, so its scatterers are independent per
     * A-line unless speckle-width says otherwise */
    Vessel near[AOOCT_SYNTH_MAX_VESSELS];
    gfloat wk[2 * MAX_SPECKLE_TAPS + 1];
    gint nk = speckle_weights (p, wk);
    guint64 pos = frame_position (p, frame);
    gint n = vessels_near (p, 0.0, m, nk, near);

    blood = blood_field (s, thread, frame, pos, 0.0, m, near, n, nk, wk);
  }
  if (blood != NULL) {
    gdouble br = cos (beta), bi = sin (beta), sr = sqrt (rho);

    for (i = 0; i < p->samples; i++) {
      gdouble th = s->two_k[i] * z + s->phi[i] + beta;
      gdouble gr = sr * cos (th) + br * blood[2 * i] - bi * blood[2 * i + 1];
      gdouble gi = sr * sin (th) + br * blood[2 * i + 1] + bi * blood[2 * i];
      gdouble fr = (1 + gr) * (1 + gr) + gi * gi;
      row[i] = to_counts (s, (gfloat) (s->amp[i] * fr), noise);
    }
    return;
  }
  for (i = 0; i < p->samples; i++) {
    /* |1 + sqrt(rho) e^{j theta}|^2 */
    gdouble fr = 1 + rho + amp * cos (s->two_k[i] * z + s->phi[i] + beta);
    row[i] = to_counts (s, (gfloat) (s->amp[i] * fr), noise);
  }
}

/* ---- eye motion: the deterministic pattern (aooct-synth.h), so that a
 * test knows the true shift of every B-scan ---- */

/* a phase in [0, 2 pi) from the seed and a key (splitmix64) */
static gdouble
seeded_phase (guint32 seed, guint key)
{
  guint64 z = ((guint64) seed << 8 | key) + G_GUINT64_CONSTANT
      (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  z ^= z >> 31;
  return 2 * G_PI * (gdouble) (z >> 11) / 9007199254740992.0;
}

/* drift (period 50 B-scans) and tremor (7.3 B-scans), |w| <= 1 */
static gdouble
pattern (guint32 seed, guint axis, guint64 frame)
{
  const gdouble f = (gdouble) frame;

  return 0.7 * sin (2 * G_PI * f / 50.0 + seeded_phase (seed, 2 * axis)) +
      0.3 * sin (2 * G_PI * f / 7.3 + seeded_phase (seed, 2 * axis + 1));
}

void
aooct_synth_motion (const AooctSynthParams * p, guint64 frame,
    gdouble * dz_um, gdouble * dx_alines)
{
  *dz_um = p->motion_axial > 0 ? p->motion_axial * pattern (p->seed, 1,
      frame) : 0;
  *dx_alines = p->motion_lateral > 0 ? p->motion_lateral * pattern (p->seed,
      2, frame) : 0;
}

/* ---- eye motion: the tissue seen from a moved beam (aooct-synth.h) --- */

/* the most columns one A-line sees with lateral motion: |x - c| < 4 sigma
 * + 1, sigma <= 8 */
#define MOTION_MAX_COLUMNS 80

/* The lattice amplitudes of the tissue as A-line m sees it when the
 * tissue is moved by @dx A-lines: the beam at tissue position @xe = m -
 * dx weights column c by exp (-(xe - c)^2 / (2 sigma^2)) (a fixed
 * normalisation, that of speckle-width at rest, so the same tissue has
 * the same power wherever the beam is); each column draws from its own
 * stream and has its own layer depths and cone brightness, so a moved
 * A-line sees exactly the tissue that was beside it. */
static void
motion_lattice (const AooctSynth * s, fftwf_complex * lat_in, gdouble xe,
    guint64 pos, gdouble y)
{
  const AooctSynthParams *p = &s->p;
  const Lattice *lat = &s->retina;
  const gdouble sigma = p->speckle_width;
  const gint reach = (gint) ceil (4 * sigma) + 1;
  const gint c0 = (gint) ceil (xe - reach), c1 = (gint) floor (xe + reach);
  const gint nc = MIN (c1 - c0 + 1, MOTION_MAX_COLUMNS);
  const gint mask = lat->q - 1;
  gdouble bounds[MOTION_MAX_COLUMNS][N_LAYERS + 1];
  gdouble w[MOTION_MAX_COLUMNS], cone[MOTION_MAX_COLUMNS], norm = 0;
  guint layer[MOTION_MAX_COLUMNS];
  Rng col[MOTION_MAX_COLUMNS];
  gint k, l;

  for (k = -reach; k <= reach; k++)
    norm += exp (-(gdouble) k * k / (sigma * sigma));
  norm = 1.0 / sqrt (norm);
  for (k = 0; k < nc; k++) {
    const gint c = c0 + k;
    /* floor division: the cone of a column left of A-line 0 */
    const gint cone_index = c >= 0 ? c / CONE_ALINES :
        -((-c + CONE_ALINES - 1) / CONE_ALINES);
    Rng cone_rng;

    w[k] = norm * exp (-0.5 * (xe - c) * (xe - c) / (sigma * sigma));
    retina_bounds (p->alines > 1 ? 2.0 * c / (p->alines - 1) - 1 : 0, y,
        bounds[k]);
    rng_init (&col[k], p->seed, pos, (guint64) (gint64) c, 1);
    rng_init (&cone_rng, p->seed, pos, (guint64) (gint64) cone_index, 2);
    cone[k] = 0.2 + 1.6 * rng_uniform (&cone_rng);
    layer[k] = 0;
  }
  for (l = -lat->lh; l <= lat->lh; l++) {
    gdouble z = lat->z_mid + l * lat->dz, nr = 0, ni = 0;

    for (k = 0; k < nc; k++) {
      gfloat dr = rng_gauss (&col[k]), di = rng_gauss (&col[k]);
      gdouble r = 0;

      while (layer[k] < N_LAYERS && z >= bounds[k][layer[k] + 1])
        layer[k]++;
      if (z >= bounds[k][0] && layer[k] < N_LAYERS) {
        r = layers[layer[k]].r;
        if (layers[layer[k]].kind == LAYER_CONE)
          r *= cone[k];
        else if (layers[layer[k]].kind == LAYER_CHOROID)
          r *= exp (-(z - bounds[k][layer[k]]) / CHOROID_DECAY);
      }
      r = w[k] * sqrt (0.5 * s->scale * r * lat->dz);
      nr += r * dr;
      ni += r * di;
    }
    lat_in[l & mask][0] = (gfloat) nr;
    lat_in[l & mask][1] = (gfloat) ni;
  }
}

static void
fill_retina_aline (const AooctSynth * s, gint thread, guint64 frame, gint m,
    guint16 * row, Rng * noise)
{
  const AooctSynthParams *p = &s->p;
  const Lattice *lat = &s->retina;
  guint64 pos = frame_position (p, frame);
  gdouble x = p->alines > 1 ? 2.0 * m / (p->alines - 1) - 1 : 0;
  gdouble y = position_y (p, pos);
  gdouble bounds[N_LAYERS + 1], cone;
  /* the full-range carrier of this A-line */
  const gfloat br = (gfloat) cos (p->carrier * m);
  const gfloat bi = (gfloat) sin (p->carrier * m);
  /* speckle-width: the streams and weights of A-lines m - nk .. m + nk */
  Rng col[2 * MAX_SPECKLE_TAPS + 1];
  gfloat wk[2 * MAX_SPECKLE_TAPS + 1];
  gint nk = speckle_weights (p, wk);
  /* the vessels this A-line sees: their blood replaces the tissue */
  Vessel near[AOOCT_SYNTH_MAX_VESSELS];
  gint n_near = vessels_near (p, y, m, nk, near);
  const gfloat *blood;
  fftwf_complex *lat_in = lat->in[thread], *g = lat->out[thread];
  guint layer = 0;
  gint l, i, mask = lat->q - 1;
  Rng rng, cone_rng;
  gdouble motion_dz, motion_dx;

  retina_bounds (x, y, bounds);
  /* the same tissue at the same position of every volume */
  rng_init (&rng, p->seed, pos, m, 1);
  rng_init (&cone_rng, p->seed, pos, m / CONE_ALINES, 2);
  for (l = -nk; l <= nk; l++)
    /* A-line m + l's own stream (the same draws it uses itself) */
    rng_init (&col[l + nk], p->seed, pos, (guint64) (gint64) (m + l), 1);
  cone = 0.2 + 1.6 * rng_uniform (&cone_rng);
  /* eye motion: the tissue moved by (motion_dz um, motion_dx A-lines) */
  aooct_synth_motion (p, frame, &motion_dz, &motion_dx);

  for (l = p->motion_lateral > 0 ? lat->lh + 1 : -lat->lh; l <= lat->lh; l++) {
    gdouble z = lat->z_mid + l * lat->dz, r = 0;
    gfloat sd;

    while (layer < N_LAYERS && z >= bounds[layer + 1])
      layer++;
    if (z >= bounds[0] && layer < N_LAYERS) {
      r = layers[layer].r;
      if (layers[layer].kind == LAYER_CONE)
        r *= cone;
      else if (layers[layer].kind == LAYER_CHOROID)
        r *= exp (-(z - bounds[layer]) / CHOROID_DECAY);
    }
    /* circular Gaussian amplitude of mean power scale * r * dz */
    sd = (gfloat) sqrt (0.5 * s->scale * r * lat->dz);
    if (nk == 0) {
      gfloat ar = rng_gauss (&rng), ai = rng_gauss (&rng);

      if (n_near > 0 && in_any_vessel (near, n_near, m, z))
        ar = ai = 0;
      lat_in[l & mask][0] = sd * ar;
      lat_in[l & mask][1] = sd * ai;
    } else {
      /* laterally correlated: the neighbours' draws, weighted (the
       * neighbours' draws are made whether blood replaces them or not:
       * each column's stream stays the same) */
      gfloat nr = 0, ni = 0;
      gint k;

      for (k = 0; k < 2 * nk + 1; k++) {
        gfloat dr = rng_gauss (&col[k]), di = rng_gauss (&col[k]);

        if (n_near > 0 && in_any_vessel (near, n_near, m + k - nk, z))
          continue;
        nr += wk[k] * dr;
        ni += wk[k] * di;
      }
      lat_in[l & mask][0] = sd * nr;
      lat_in[l & mask][1] = sd * ni;
    }
  }
  if (p->motion_lateral > 0)
    motion_lattice (s, lat_in, m - motion_dx, pos, y);
  fftwf_execute_dft (lat->plan, lat_in, g);
  blood = blood_field (s, thread, frame, pos, y, m, near, n_near, nk, wk);

  for (i = 0; i < p->samples; i++) {
    gfloat gr, gi, cr, ci, fr, fi;

    lattice_read (lat, g, i, &gr, &gi);
    cr = lat->carrier[2 * i] * br - lat->carrier[2 * i + 1] * bi;
    ci = lat->carrier[2 * i] * bi + lat->carrier[2 * i + 1] * br;
    if (motion_dz != 0) {
      /* every scatterer motion_dz deeper: e^{j 2 k motion_dz} */
      const gdouble a = s->two_k[i] * motion_dz;
      const gfloat mr = (gfloat) cos (a), mi = (gfloat) sin (a);
      const gfloat tr = cr * mr - ci * mi;

      ci = cr * mi + ci * mr;
      cr = tr;
    }
    /* 1 + carrier * G */
    fr = 1.0f + cr * gr - ci * gi;
    fi = cr * gi + ci * gr;
    if (blood != NULL) {
      /* + the full-range carrier * the blood */
      fr += br * blood[2 * i] - bi * blood[2 * i + 1];
      fi += br * blood[2 * i + 1] + bi * blood[2 * i];
    }
    row[i] = to_counts (s, s->amp[i] * (fr * fr + fi * fi), noise);
  }
}

/* phantom=photoreceptors: the field of aooct-synth-org.c, the full-range
 * carrier, the spectrum and the noise as the other phantoms */
static void
fill_photoreceptor_aline (const AooctSynth * s, gint thread, guint64 frame,
    gint m, guint16 * row, Rng * noise)
{
  const AooctSynthParams *p = &s->p;
  gfloat *g = s->org_field[thread];
  const gfloat br = (gfloat) cos (p->carrier * m);
  const gfloat bi = (gfloat) sin (p->carrier * m);
  gint i;

  aooct_synth_org_field (&p->org, p->samples, p->alines, s->two_k, s->phi,
      p->reflectivity, p->depth_offset, p->seed, frame, m, g);
  for (i = 0; i < p->samples; i++) {
    const gfloat fr = 1.0f + br * g[2 * i] - bi * g[2 * i + 1];
    const gfloat fi = br * g[2 * i + 1] + bi * g[2 * i];

    row[i] = to_counts (s, s->amp[i] * (fr * fr + fi * fi), noise);
  }
}

void
aooct_synth_fill (AooctSynth * s, guint64 frame, guint16 * out,
    gsize stride_samples)
{
  const AooctSynthParams *p = &s->p;
  gint m;

  /* tiny B-scans stay on this thread (same threshold as the CPU cores,
   * AOOCT_CPU_PARALLEL_MIN in cpu/aooct-fftw.h: a team costs more than it
   * saves there, and its spinning barriers hurt a busy machine) */
#pragma omp parallel for num_threads(s->n_threads) schedule(static) if ((gint64) p->samples * p->alines >= (1 << 16))
  for (m = 0; m < p->alines; m++) {
    gint thread = 0;
    Rng noise;

#ifdef _OPENMP
    thread = omp_get_thread_num ();
#endif
    rng_init (&noise, p->seed, frame, m, 0);
    if (p->phantom == AOOCT_SYNTH_PHANTOM_MIRROR)
      fill_mirror_aline (s, thread, frame, m, out + m * stride_samples, &noise);
    else if (p->phantom == AOOCT_SYNTH_PHANTOM_PHOTORECEPTORS)
      fill_photoreceptor_aline (s, thread, frame, m, out + m * stride_samples,
          &noise);
    else
      fill_retina_aline (s, thread, frame, m, out + m * stride_samples, &noise);
  }
}

/* ---- flow: what the tests and the documentation expect ------------------ */

gdouble
aooct_synth_flow_wavelength (const AooctSynthParams * p)
{
  gdouble k0 = pixel_wavenumber (p, 0);
  gdouble k1 = pixel_wavenumber (p, p->samples - 1);
  gdouble kc = wavenumber (p->center_wavelength);
  gdouble dkc = 2000.0 * G_PI * p->bandwidth / (p->center_wavelength *
      p->center_wavelength);
  gdouble sw = 0, swk = 0;
  gint i;

  /* after aooctkmap the samples are uniform in k from K0 to K1, each
   * fringe's amplitude proportional to S(k) */
  for (i = 0; i < p->samples; i++) {
    gdouble k = k0 + i * (k1 - k0) / (p->samples - 1);
    gdouble e = (k - kc) / dkc, w = exp (-4 * G_LN2 * e * e);

    sw += w;
    swk += w * k;
  }
  return 2000.0 * G_PI / (swk / sw);
}

gdouble
aooct_synth_vessel_velocity (const AooctSynthParams * p, gint j)
{
  return j % 2 ? -p->vessel_velocity : p->vessel_velocity;
}

gdouble
aooct_synth_vessel_phase (const AooctSynthParams * p, gint j)
{
  /* lambda0 in um, v in um/s */
  return 4 * G_PI * p->refractive_index * aooct_synth_vessel_velocity (p,
      j) * 1e3 / (aooct_synth_flow_wavelength (p) * 1e-3 * p->line_rate);
}

void
aooct_synth_vessel_geometry (const AooctSynthParams * p, gint j,
    guint64 frame, gdouble * cx, gdouble * cz, gdouble * rx, gdouble * rz)
{
  Vessel v;

  vessel_at (p, j, position_y (p, frame_position (p, frame)), &v);
  *cx = v.cx;
  *cz = v.cz;
  *rx = v.rx;
  *rz = v.rz;
}
