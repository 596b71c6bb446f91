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
#define CHOROID_DECAY 80.0      /* um */
#define CONE_ALINES 3           /* A-lines per cone */
#define WINDOW_MARGIN 10.0      /* um around the tissue */
#define INTERP_OVERSAMPLING 12  /* grid points per period of the deepest
                                 * lattice frequency */

/* Layer boundaries (um) at lateral position x (across A-lines) and y
 * (across B-scans), both in [-1, 1]; bounds[i] .. bounds[i + 1] is layer i.
 * The RPE follows the eye's curvature; the layers above it are stacked
 * upward so that the foveal pit dents the surface, as in a real retina. */
static void
retina_bounds (gdouble x, gdouble y, gdouble bounds[N_LAYERS + 1])
{
  gdouble pit = exp (-(x * x + y * y) / (2 * 0.3 * 0.3));
  gdouble rpe = RETINA_RPE_DEPTH + 50.0 * (x * x + y * y) + 15.0 * x;
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

struct _AooctSynth
{
  AooctSynthParams p;

  /* per pixel */
  gdouble *two_k;               /* 2 k(p), rad/um */
  gdouble *phi;                 /* dispersion phase, rad */
  gfloat *amp;                  /* reference-level * S(k(p)), counts */

  /* retina: scatterer lattice and its FFT */
  gdouble dz;                   /* lattice spacing, um */
  gdouble z_mid;                /* lattice centre, um */
  gint lh;                      /* lattice points z_mid + l dz, |l| <= lh */
  gint q;                       /* FFT length */
  gdouble scale;                /* power per (r x um) */
  gint *i0;                     /* interpolation: first grid point */
  gfloat *w;                    /* 4 Lagrange weights per pixel */
  gfloat *carrier;              /* e^{j (2 k z_mid + phi)}, re im */
  fftwf_plan plan;
  gint n_threads;
  fftwf_complex **lattice;      /* per thread, FFT input */
  fftwf_complex **grid;         /* per thread, FFT output */
};

static void
setup_retina (AooctSynth * s, gdouble kmin, gdouble kmax)
{
  const AooctSynthParams *p = &s->p;
  gdouble bounds[N_LAYERS + 1];
  gdouble zlo = G_MAXDOUBLE, zhi = -G_MAXDOUBLE, dk, kstart, total = 0;
  gint ix, iy, i, t;

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
  s->dz = aooct_synth_axial_resolution (p) / 4.0;
  s->z_mid = 0.5 * (zlo + zhi);
  s->lh = (gint) ceil (0.5 * (zhi - zlo) / s->dz);
  for (s->q = 64; s->q < INTERP_OVERSAMPLING * s->lh; s->q *= 2);

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

  /* sum_l b_l e^{j 2 k (z_mid + l dz)} = e^{j 2 k z_mid} G(t) with
   * k = kstart + t dk, dk = pi / (q dz): G(t) = sum_l b'_l e^{2 pi j t l / q}
   * where b'_l = b_l e^{j 2 kstart l dz} is as random as b_l; the FFT gives
   * G at integer t, Lagrange interpolation at each pixel's t. */
  dk = G_PI / (s->q * s->dz);
  kstart = kmin - 2 * dk;
  (void) kmax;
  s->i0 = g_new (gint, p->samples);
  s->w = g_new (gfloat, 4 * p->samples);
  s->carrier = g_new (gfloat, 2 * p->samples);
  for (i = 0; i < p->samples; i++) {
    gdouble tt = (0.5 * s->two_k[i] - kstart) / dk;
    gdouble f = tt - floor (tt);
    gdouble arg = s->two_k[i] * (s->z_mid + p->depth_offset) + s->phi[i];

    s->i0[i] = (gint) floor (tt) - 1;
    s->w[4 * i + 0] = -f * (f - 1) * (f - 2) / 6;
    s->w[4 * i + 1] = (f + 1) * (f - 1) * (f - 2) / 2;
    s->w[4 * i + 2] = -(f + 1) * f * (f - 2) / 2;
    s->w[4 * i + 3] = (f + 1) * f * (f - 1) / 6;
    s->carrier[2 * i] = cos (arg);
    s->carrier[2 * i + 1] = sin (arg);
  }

#ifdef _OPENMP
  s->n_threads = omp_get_max_threads ();
#else
  s->n_threads = 1;
#endif
  s->lattice = g_new0 (fftwf_complex *, s->n_threads);
  s->grid = g_new0 (fftwf_complex *, s->n_threads);
  for (t = 0; t < s->n_threads; t++) {
    s->lattice[t] = fftwf_alloc_complex (s->q);
    s->grid[t] = fftwf_alloc_complex (s->q);
    /* only the lattice entries are written per A-line */
    memset (s->lattice[t], 0, sizeof (fftwf_complex) * s->q);
  }
  /* FFTW_ESTIMATE: the same algorithm every run, hence the same output */
  s->plan = fftwf_plan_dft_1d (s->q, s->lattice[0], s->grid[0],
      FFTW_BACKWARD, FFTW_ESTIMATE);
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
  setup_retina (s, kmin, kmax);
  return s;
}

void
aooct_synth_free (AooctSynth * s)
{
  gint t;

  if (s == NULL)
    return;
  if (s->plan)
    fftwf_destroy_plan (s->plan);
  for (t = 0; t < s->n_threads; t++) {
    fftwf_free (s->lattice[t]);
    fftwf_free (s->grid[t]);
  }
  g_free (s->lattice);
  g_free (s->grid);
  g_free (s->i0);
  g_free (s->w);
  g_free (s->carrier);
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

static void
fill_mirror_aline (const AooctSynth * s, gint m, guint16 * row, Rng * noise)
{
  const AooctSynthParams *p = &s->p;
  gdouble x = p->alines > 1 ? 2.0 * m / (p->alines - 1) - 1 : 0;
  gdouble z = p->mirror_depth + p->depth_offset + 0.5 * p->mirror_tilt * x;
  gdouble rho = p->reflectivity, amp = 2 * sqrt (rho);
  gdouble beta = p->carrier * m;
  gint i;

  for (i = 0; i < p->samples; i++) {
    /* |1 + sqrt(rho) e^{j theta}|^2 */
    gdouble fr = 1 + rho + amp * cos (s->two_k[i] * z + s->phi[i] + beta);
    row[i] = to_counts (s, (gfloat) (s->amp[i] * fr), noise);
  }
}

/* ceil (3 x the largest speckle-width) */
#define MAX_SPECKLE_TAPS 24

static void
fill_retina_aline (const AooctSynth * s, gint thread, guint64 pos, gint m,
    guint16 * row, Rng * noise)
{
  const AooctSynthParams *p = &s->p;
  gint v = p->bscans_per_volume;
  gdouble x = p->alines > 1 ? 2.0 * m / (p->alines - 1) - 1 : 0;
  gdouble y = v > 1 ? 2.0 * (gdouble) pos / (v - 1) - 1 : 0;
  gdouble bounds[N_LAYERS + 1], cone;
  /* the full-range carrier of this A-line */
  const gfloat br = (gfloat) cos (p->carrier * m);
  const gfloat bi = (gfloat) sin (p->carrier * m);
  /* speckle-width: the streams and weights of A-lines m - nk .. m + nk */
  Rng col[2 * MAX_SPECKLE_TAPS + 1];
  gfloat wk[2 * MAX_SPECKLE_TAPS + 1];
  gint nk = 0;
  fftwf_complex *lat = s->lattice[thread], *g = s->grid[thread];
  guint layer = 0;
  gint l, i, q = s->q, mask = s->q - 1;
  Rng rng, cone_rng;

  retina_bounds (x, y, bounds);
  /* the same tissue at the same position of every volume */
  rng_init (&rng, p->seed, pos, m, 1);
  rng_init (&cone_rng, p->seed, pos, m / CONE_ALINES, 2);
  if (p->speckle_width > 0) {
    gdouble norm = 0;
    gint k;

    nk = (gint) ceil (3 * p->speckle_width);
    for (k = -nk; k <= nk; k++) {
      wk[k + nk] = (gfloat) exp (-0.5 * k * k / (p->speckle_width *
              p->speckle_width));
      norm += (gdouble) wk[k + nk] * wk[k + nk];
      /* A-line m + k's own stream (the same draws it uses itself) */
      rng_init (&col[k + nk], p->seed, pos, (guint64) (gint64) (m + k), 1);
    }
    for (k = 0; k < 2 * nk + 1; k++)
      wk[k] = (gfloat) (wk[k] / sqrt (norm));
  }
  cone = 0.2 + 1.6 * rng_uniform (&cone_rng);

  for (l = -s->lh; l <= s->lh; l++) {
    gdouble z = s->z_mid + l * s->dz, r = 0;
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
    sd = (gfloat) sqrt (0.5 * s->scale * r * s->dz);
    if (nk == 0) {
      lat[l & mask][0] = sd * rng_gauss (&rng);
      lat[l & mask][1] = sd * rng_gauss (&rng);
    } else {
      /* laterally correlated: the neighbours' draws, weighted */
      gfloat nr = 0, ni = 0;
      gint k;

      for (k = 0; k < 2 * nk + 1; k++) {
        nr += wk[k] * rng_gauss (&col[k]);
        ni += wk[k] * rng_gauss (&col[k]);
      }
      lat[l & mask][0] = sd * nr;
      lat[l & mask][1] = sd * ni;
    }
  }
  fftwf_execute_dft (s->plan, lat, g);

  for (i = 0; i < p->samples; i++) {
    const gfloat *w = s->w + 4 * i;
    gint j = s->i0[i];
    gfloat gr = 0, gi = 0, cr, ci, fr, fi;
    gint t;

    for (t = 0; t < 4; t++) {
      gint jj = (j + t) & (q - 1);
      gr += w[t] * g[jj][0];
      gi += w[t] * g[jj][1];
    }
    cr = s->carrier[2 * i] * br - s->carrier[2 * i + 1] * bi;
    ci = s->carrier[2 * i] * bi + s->carrier[2 * i + 1] * br;
    /* 1 + carrier * G */
    fr = 1.0f + cr * gr - ci * gi;
    fi = cr * gi + ci * gr;
    row[i] = to_counts (s, s->amp[i] * (fr * fr + fi * fi), noise);
  }
}

void
aooct_synth_fill (AooctSynth * s, guint64 frame, guint16 * out,
    gsize stride_samples)
{
  const AooctSynthParams *p = &s->p;
  guint64 pos = frame % (guint64) p->bscans_per_volume;
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
      fill_mirror_aline (s, m, out + m * stride_samples, &noise);
    else
      fill_retina_aline (s, thread, pos, m, out + m * stride_samples, &noise);
  }
}
