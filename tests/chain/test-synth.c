/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the synthetic camera model (common/aooct-synth) against an
 * independent float64 reconstruction: DC removal, exact resampling to
 * linear k, the dispersion weights of aooctdisp, DFT (FFTW double). */
#include <math.h>
#include <string.h>
#include <fftw3.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "aooct-synth.h"
#include "aooct-error.h"
#include "aooct-textfile.h"
#include "aooct-fftw.h"
#include "aooct-test-util.h"

static AooctSynth *
synth_new (const AooctSynthParams * p)
{
  GError *err = NULL;
  AooctSynth *s;

  aooct_fftw_lock ();
  s = aooct_synth_new (p, &err);
  aooct_fftw_unlock ();
  fail_unless (s != NULL, "aooct_synth_new: %s", err ? err->message : "?");
  return s;
}

static void
synth_free (AooctSynth * s)
{
  aooct_fftw_lock ();
  aooct_synth_free (s);
  aooct_fftw_unlock ();
}

static guint16 *
synth_bscan (const AooctSynthParams * p, guint64 frame)
{
  AooctSynth *s = synth_new (p);
  guint16 *out = g_new (guint16, (gsize) p->samples * p->alines);

  aooct_synth_fill (s, frame, out, p->samples);
  synth_free (s);
  return out;
}

/* ---- float64 reference reconstruction ---------------------------------- */

/* The fractional pixel whose wavelength is @lambda (Newton; the polynomial
 * is monotonic). */
static gdouble
pixel_of_wavelength (const AooctSynthParams * p, gdouble lambda, gdouble p0)
{
  gdouble x = p0;
  gint it, i;

  for (it = 0; it < 50; it++) {
    gdouble f = aooct_calib_poly_eval (p->coeffs, p->n_coeffs, x) - lambda;
    gdouble d = 0;
    for (i = p->n_coeffs - 1; i >= 1; i--)
      d = d * x + i * p->coeffs[i];
    x -= f / d;
    if (fabs (f) < 1e-12)
      break;
  }
  return x;
}

/* 6-point Lagrange interpolation of @y (n samples) at @x */
static gdouble
lagrange6 (const gdouble * y, gint n, gdouble x)
{
  gint b = CLAMP ((gint) floor (x) - 2, 0, n - 6), i, j;
  gdouble v = 0;

  for (i = 0; i < 6; i++) {
    gdouble w = 1;
    for (j = 0; j < 6; j++)
      if (j != i)
        w *= (x - (b + j)) / (gdouble) (i - j);
    v += w * y[b + i];
  }
  return v;
}

/* |X[m]|^2, m = 0..p1/2, of A-line @m of @raw after mean DC subtraction,
 * exact resampling to linear k (K0..K1 over the N samples) and aooctdisp
 * weights with @a2 / @a3, DFT of length @p1. */
static gdouble *
reconstruct (const AooctSynthParams * p, const guint16 * raw, gint aline,
    gdouble a2, gdouble a3, gint p1)
{
  gint n = p->samples, m, i;
  gdouble *x = g_new0 (gdouble, n);
  gdouble *power = g_new (gdouble, p1 / 2 + 1);
  gdouble l0 = aooct_calib_poly_eval (p->coeffs, p->n_coeffs, 0);
  gdouble l1 = aooct_calib_poly_eval (p->coeffs, p->n_coeffs, n - 1);
  gdouble k0 = 2 * G_PI / l0, k1 = 2 * G_PI / l1;
  fftw_complex *in = fftw_alloc_complex (p1), *out = fftw_alloc_complex (p1);
  fftw_plan plan;

  for (i = 0; i < n; i++) {
    gdouble mean = 0;
    for (m = 0; m < p->alines; m++)
      mean += raw[(gsize) m * n + i];
    x[i] = raw[(gsize) aline * n + i] - mean / p->alines;
  }
  memset (in, 0, sizeof (fftw_complex) * p1);
  for (i = 0; i < n; i++) {
    gdouble k = k0 + i * (k1 - k0) / (n - 1);
    gdouble pix = pixel_of_wavelength (p, 2 * G_PI / k, i);
    gdouble v = lagrange6 (x, n, pix);
    gdouble u = 2.0 * i / (n - 1) - 1;
    gdouble ph = a2 * u * u + a3 * u * u * u;
    in[i][0] = v * cos (ph);
    in[i][1] = v * sin (ph);
  }
  aooct_fftw_lock ();
  plan = fftw_plan_dft_1d (p1, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  aooct_fftw_unlock ();
  fftw_execute (plan);
  for (i = 0; i <= p1 / 2; i++)
    power[i] = out[i][0] * out[i][0] + out[i][1] * out[i][1];
  aooct_fftw_lock ();
  fftw_destroy_plan (plan);
  aooct_fftw_unlock ();
  fftw_free (in);
  fftw_free (out);
  g_free (x);
  return power;
}

/* peak bin (> @from) and FWHM in bins of a power profile */
static gdouble
psf_width (const gdouble * power, gint n_bins, gint from, gint * peak)
{
  gint i, best = from, lo, hi;
  gdouble half, left, right;

  for (i = from; i < n_bins; i++)
    if (power[i] > power[best])
      best = i;
  half = power[best] / 2;
  for (lo = best; lo > 0 && power[lo - 1] > half; lo--);
  for (hi = best; hi < n_bins - 1 && power[hi + 1] > half; hi++);
  left = lo - (power[lo] - half) / (power[lo] - power[lo - 1]);
  right = hi + (power[hi] - half) / (power[hi] - power[hi + 1]);
  *peak = best;
  return right - left;
}

/* ---- tests -------------------------------------------------------------- */

GST_START_TEST (test_defaults)
{
  AooctSynthParams p;
  GError *err = NULL;
  gdouble res, bin;

  aooct_synth_params_init (&p);
  fail_unless (aooct_synth_params_validate (&p, &err));
  fail_unless_equals_int (p.n_coeffs, 4);
  fail_unless_equals_float (aooct_calib_poly_eval (p.coeffs, 4, 0), 785.0);
  fail_unless (fabs (aooct_calib_poly_eval (p.coeffs, 4, 831) - 894.633)
      < 1e-3);
  res = aooct_synth_axial_resolution (&p);
  fail_unless (res > 6.0 && res < 6.5, "resolution %f um", res);
  /* by hand: K0 = 2 pi / 0.785, K1 = 2 pi / 0.894627 */
  bin = aooct_synth_depth_bin (&p, 250.0, 2048);
  fail_unless (fabs (bin - 250.0 * (2 * G_PI / 0.785 - 2 * G_PI /
              0.894632897618) * 2048 / (G_PI * 831)) < 1e-3, "bin %f", bin);
  g_print ("defaults: axial resolution %.3f um, %.4f um per bin (P1 2048), "
      "mirror at bin %.2f\n", res, 250.0 / bin, bin);
}

GST_END_TEST;

/* aooct_synth_params_validate() applies aooctkmap's polynomial check
 * (aooct_calib_check_poly(), tested on its own with the string parsing in
 * test-calib) to wavelength-coeffs on the whole pixel interval. */
static gboolean
validate_coeffs (const gchar * coeffs, GError ** err)
{
  AooctSynthParams p;

  aooct_synth_params_init (&p);
  fail_unless (aooct_calib_parse_coeffs (coeffs, p.coeffs, &p.n_coeffs, err),
      "%s", *err ? (*err)->message : "");
  return aooct_synth_params_validate (&p, err);
}

GST_START_TEST (test_coeff_validation)
{
  struct
  {
    const gchar *coeffs;
    const gchar *what;
  } bad[] = {
    {"800", "constant"},
    {"800,0", "constant"},
    {"800,0.1,-0.0002", "monotonic"},   /* slope 0 at p = 250 */
    {"800,0.3,-0.0006,2e-7", "monotonic"},
    {"100,-0.2", "positive"},   /* lambda(831) < 0 */
  };
  const gchar *good[] = { "800,0.1", "895,-0.132", "785,0.125,1e-05,-2e-09",
    "800,0.1,-0.00006"          /* slope 0 at p = 833, outside */
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;

    fail_unless (!validate_coeffs (bad[i].coeffs, &err), "'%s' accepted",
        bad[i].coeffs);
    fail_unless (g_error_matches (err, AOOCT_ERROR, AOOCT_ERROR_SETTINGS));
    fail_unless (strstr (err->message, "wavelength-coeffs") != NULL,
        "%s", err->message);
    fail_unless (strstr (err->message, bad[i].what) != NULL,
        "'%s' does not say '%s'", err->message, bad[i].what);
    g_error_free (err);
  }
  for (i = 0; i < G_N_ELEMENTS (good); i++) {
    GError *err = NULL;

    fail_unless (validate_coeffs (good[i], &err), "'%s': %s", good[i],
        err ? err->message : "");
  }
}

GST_END_TEST;

GST_START_TEST (test_params_validation)
{
  AooctSynthParams p;
  GError *err = NULL;

#define EXPECT_BAD(field, value, name) G_STMT_START {                 \
    aooct_synth_params_init (&p);                                      \
    p.field = value;                                                   \
    fail_unless (!aooct_synth_params_validate (&p, &err), name);       \
    fail_unless (strstr (err->message, name) != NULL, "%s", err->message); \
    g_clear_error (&err);                                              \
  } G_STMT_END
  EXPECT_BAD (noise, NAN, "noise");
  EXPECT_BAD (noise, -1, "noise");
  EXPECT_BAD (reflectivity, 2, "reflectivity");
  EXPECT_BAD (dispersion_a2, INFINITY, "dispersion-a2");
  EXPECT_BAD (dispersion_a3, NAN, "dispersion-a3");
  EXPECT_BAD (center_wavelength, 1300, "center-wavelength");
  EXPECT_BAD (bandwidth, 0, "bandwidth");
  EXPECT_BAD (mirror_depth, NAN, "mirror-depth");
  EXPECT_BAD (reference_level, -5, "reference-level");
  EXPECT_BAD (samples, 1, "samples");
  EXPECT_BAD (bscans_per_volume, 0, "bscans-per-volume");
  /* the flow phantom (test-synth-vessel) */
  EXPECT_BAD (repeats, 0, "repeats");
  EXPECT_BAD (vessel_count, 17, "vessel-count");
  EXPECT_BAD (vessel_velocity, NAN, "vessel-velocity");
  EXPECT_BAD (vessel_depth, INFINITY, "vessel-depth");
  EXPECT_BAD (vessel_diameter, 0, "vessel-diameter");
  EXPECT_BAD (vessel_position, 1.5, "vessel-position");
  EXPECT_BAD (vessel_decorrelation, -0.1, "vessel-decorrelation");
  EXPECT_BAD (aline_spacing, 0, "aline-spacing");
  EXPECT_BAD (refractive_index, 0.5, "refractive-index");
#undef EXPECT_BAD
  /* the line rate matters only where blood moves */
  aooct_synth_params_init (&p);
  p.line_rate = 0;
  fail_unless (aooct_synth_params_validate (&p, NULL));
  p.vessel_count = 1;
  fail_unless (!aooct_synth_params_validate (&p, &err));
  fail_unless (strstr (err->message, "line-rate") != NULL, "%s", err->message);
  g_clear_error (&err);
}

GST_END_TEST;

GST_START_TEST (test_calibration_file)
{
  AooctSynthParams p;
  GError *err = NULL;
  gchar *path = aooct_test_write_temp ("");
  gdouble *values;
  gint i;

  aooct_synth_params_init (&p);
  p.samples = 1500;
  fail_unless (aooct_calib_parse_coeffs
      ("790.123456789,0.0712345678901,3.3e-6,-1.1e-9", p.coeffs,
          &p.n_coeffs, NULL));
  fail_unless (aooct_synth_write_calibration (&p, path, &err));
  values = aooct_text_read_values (path, 1500, &err);
  fail_unless (values != NULL, "%s", err ? err->message : "");
  for (i = 0; i < 1500; i++)
    fail_unless (values[i] == aooct_calib_poly_eval (p.coeffs, 4, i),
        "pixel %d: %.17g", i, values[i]);
  g_free (values);
  /* too few for another N: the file really has N records */
  values = aooct_text_read_values (path, 1501, &err);
  fail_unless (values == NULL);
  g_clear_error (&err);
  fail_if (aooct_synth_write_calibration (&p, "/nonexistent/dir/cal.txt",
          &err));
  fail_unless (strstr (err->message, "/nonexistent/dir/cal.txt") != NULL);
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* The dispersion definition: aooctdisp a2/a3 equal to dispersion-a2/-a3
 * restores the dispersion-free PSF; without compensation (or with the wrong
 * a2 sign) it is clearly wider; the mirror is at the predicted bin. */
static void
check_dispersion (const gchar * coeffs, gdouble a2, gdouble a3, gdouble depth)
{
  AooctSynthParams p, p0;
  const gint p1 = 2048, aline = 20;
  guint16 *raw, *raw0;
  gdouble *pw_ref, *pw_comp, *pw_none, *pw_wrong;
  gdouble w_ref, w_comp, w_none, w_wrong, expect, res;
  gint b_ref, b_comp, b_none, b_wrong;

  aooct_synth_params_init (&p);
  p.phantom = AOOCT_SYNTH_PHANTOM_MIRROR;
  p.alines = 41;
  p.noise = 0;
  p.mirror_depth = depth;
  p.dispersion_a2 = a2;
  p.dispersion_a3 = a3;
  fail_unless (aooct_calib_parse_coeffs (coeffs, p.coeffs, &p.n_coeffs, NULL));
  p0 = p;
  p0.dispersion_a2 = p0.dispersion_a3 = 0;
  raw = synth_bscan (&p, 7);
  raw0 = synth_bscan (&p0, 7);

  pw_ref = reconstruct (&p0, raw0, aline, 0, 0, p1);
  pw_comp = reconstruct (&p, raw, aline, a2, a3, p1);
  pw_none = reconstruct (&p, raw, aline, 0, 0, p1);
  pw_wrong = reconstruct (&p, raw, aline, -a2, a3, p1);
  w_ref = psf_width (pw_ref, p1 / 2 + 1, 20, &b_ref);
  w_comp = psf_width (pw_comp, p1 / 2 + 1, 20, &b_comp);
  w_none = psf_width (pw_none, p1 / 2 + 1, 20, &b_none);
  w_wrong = psf_width (pw_wrong, p1 / 2 + 1, 20, &b_wrong);
  expect = aooct_synth_depth_bin (&p, depth, p1);
  g_print ("%s a2 %g a3 %g depth %g: expected bin %.2f; dispersion-free "
      "peak %d FWHM %.3f; compensated peak %d FWHM %.3f; uncompensated "
      "peak %d FWHM %.3f; opposite a2 FWHM %.3f\n", coeffs, a2, a3, depth,
      expect, b_ref, w_ref, b_comp, w_comp, b_none, w_none, w_wrong);

  fail_unless (fabs (b_ref - expect) <= 1.0, "peak %d, expected %.2f", b_ref,
      expect);
  fail_unless (fabs (b_comp - expect) <= 1.0, "peak %d, expected %.2f",
      b_comp, expect);
  /* what remains is the reconstruction's linear interpolation in k of a
   * fringe whose chirp grows with a2: ~1 % of the width at a2 = 40 */
  fail_unless (fabs (w_comp - w_ref) <= 0.025 * w_ref,
      "compensated FWHM %f != dispersion-free %f", w_comp, w_ref);
  /* the same interpolation loss lowers the peak: linear interpolation
   * damps a fringe more the higher its local frequency, and the chirp
   * raises it at the ends of the spectrum; with a2 = 35 and the mirror at
   * 990 um (bin 749 of 1024) the peak is 2.2 % lower (seed 2862479305) */
  fail_unless (fabs (pw_comp[b_comp] / pw_ref[b_ref] - 1) < 0.03,
      "compensated peak %g, dispersion-free %g", pw_comp[b_comp],
      pw_ref[b_ref]);
  fail_unless (w_none > 1.5 * w_ref, "uncompensated FWHM %f only", w_none);
  fail_unless (w_wrong > 1.5 * w_ref, "opposite-sign FWHM %f only", w_wrong);
  /* and the intensity PSF is as wide as the source's axial resolution says
   * (sqrt 2 narrower than the amplitude's; the camera truncating the
   * spectrum at 2..5 % and reading the width off 1.3 um bins add a few %) */
  res = aooct_synth_depth_bin (&p, aooct_synth_axial_resolution (&p), p1) /
      G_SQRT2;
  fail_unless (fabs (w_ref - res) < 0.1 * res,
      "FWHM %f bins, resolution %f bins", w_ref, res);

  g_free (pw_ref);
  g_free (pw_comp);
  g_free (pw_none);
  g_free (pw_wrong);
  g_free (raw);
  g_free (raw0);
}

GST_START_TEST (test_dispersion_increasing)
{
  GRand *rand = aooct_test_rand_new ();
  gdouble a2 = g_rand_double_range (rand, 15, 40);

  check_dispersion (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3,
      AOOCT_SYNTH_DEFAULT_MIRROR_DEPTH);
  /* random mismatch whose quadratic term dominates: a cubic term as large
   * as the quadratic one can partly offset its broadening of the FWHM
   * (a2 12.4, a3 -13.8 gave only 1.5x), which is physics, not a defect */
  /* depths from 150 um: nearer the DC, the B-scan-mean subtraction takes a
   * share of the slightly tilted mirror that depends on its phase, and the
   * peak heights of the references no longer compare */
  check_dispersion (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, a2,
      g_rand_double_range (rand, -a2 / 3, a2 / 3),
      g_rand_double_range (rand, 150, 1000));
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_dispersion_decreasing)
{
  GRand *rand = aooct_test_rand_new ();
  gdouble a2 = g_rand_double_range (rand, -40, -15);

  check_dispersion ("895,-0.12,-1.2e-05", -AOOCT_SYNTH_DEFAULT_DISPERSION_A2,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A3, AOOCT_SYNTH_DEFAULT_MIRROR_DEPTH);
  check_dispersion ("895,-0.12,-1.2e-05", a2, g_rand_double_range (rand,
          a2 / 3, -a2 / 3), g_rand_double_range (rand, 150, 1000));
  g_rand_free (rand);
}

GST_END_TEST;

/* Mean level and noise: reference-level * S + dark, RMS noise at the peak */
GST_START_TEST (test_levels_and_noise)
{
  AooctSynthParams p;
  guint16 *raw;
  gint n, i, m, peak = 0;
  gdouble mean = 0, var = 0, expect, lc;

  aooct_synth_params_init (&p);
  p.phantom = AOOCT_SYNTH_PHANTOM_MIRROR;
  p.reflectivity = 0;
  p.alines = 400;
  p.noise = 10;
  n = p.samples;
  raw = synth_bscan (&p, 3);
  lc = p.center_wavelength;
  for (i = 0; i < n; i++)
    if (fabs (aooct_calib_poly_eval (p.coeffs, 4, i) - lc) <
        fabs (aooct_calib_poly_eval (p.coeffs, 4, peak) - lc))
      peak = i;
  for (m = 0; m < p.alines; m++)
    mean += raw[m * n + peak];
  mean /= p.alines;
  for (m = 0; m < p.alines; m++)
    var += pow (raw[m * n + peak] - mean, 2);
  var /= p.alines - 1;
  expect = AOOCT_SYNTH_DARK_LEVEL + p.reference_level;
  g_print ("pixel %d: mean %.2f (expected %.2f), RMS %.2f (expected ~10)\n",
      peak, mean, expect, sqrt (var));
  fail_unless (fabs (mean - expect) < 2.0);
  /* 400 samples: the RMS estimate is good to ~4 % (1 sigma) */
  fail_unless (fabs (sqrt (var) - 10.0) < 1.5);
  for (i = 0; i < n * p.alines; i++)
    fail_unless (raw[i] <= AOOCT_SYNTH_MAX_VALUE);
  g_free (raw);
}

GST_END_TEST;

GST_START_TEST (test_determinism)
{
  AooctSynthParams p;
  guint16 *a, *b, *c, *d;
  gsize size, i, differ = 0;

  aooct_synth_params_init (&p);
  p.seed = 1234;
  size = (gsize) p.samples * p.alines;
  a = synth_bscan (&p, 5);
  b = synth_bscan (&p, 5);
  fail_unless (memcmp (a, b, size * 2) == 0);
#ifdef _OPENMP
  /* the thread count must not matter */
  omp_set_num_threads (1);
  c = synth_bscan (&p, 5);
  omp_set_num_threads (2);
  fail_unless (memcmp (a, c, size * 2) == 0);
  g_free (c);
#endif
  p.seed = 1235;
  c = synth_bscan (&p, 5);
  for (i = 0; i < size; i++)
    differ += a[i] != c[i];
  fail_unless (differ > size / 2, "only %" G_GSIZE_FORMAT " differ", differ);
  /* next frame: other noise and, in the retina, another position */
  p.seed = 1234;
  d = synth_bscan (&p, 6);
  fail_unless (memcmp (a, d, size * 2) != 0);
  g_free (a);
  g_free (b);
  g_free (c);
  g_free (d);
}

GST_END_TEST;

/* The retina looks like one: tissue far above the noise floor, the RPE
 * well above the ONL at their documented depths (apex, fovea). */
GST_START_TEST (test_retina_layers)
{
  AooctSynthParams p;
  const gint p1 = 2048;
  guint16 *raw;
  gdouble *sum = g_new0 (gdouble, p1 / 2 + 1);
  gdouble vitreous = 0, onl = 0, rpe = 0;
  gint m, i, n_v = 0, n_o = 0, n_r = 0;

  aooct_synth_params_init (&p);
  p.seed = 99;
  raw = synth_bscan (&p, p.bscans_per_volume / 2);
  /* the central A-lines (|x| < 0.08): RPE 520..542 um, ONL ~302..445 um */
  for (m = p.alines / 2 - 10; m < p.alines / 2 + 10; m++) {
    gdouble *pw = reconstruct (&p, raw, m, p.dispersion_a2,
        p.dispersion_a3, p1);
    for (i = 0; i <= p1 / 2; i++)
      sum[i] += pw[i];
    g_free (pw);
  }
  for (i = 0; i <= p1 / 2; i++) {
    gdouble z = i / aooct_synth_depth_bin (&p, 1.0, p1);
    if (z > 40 && z < 80) {
      vitreous += sum[i];
      n_v++;
    } else if (z > 330 && z < 420) {
      onl += sum[i];
      n_o++;
    } else if (z > 524 && z < 538) {
      rpe += sum[i];
      n_r++;
    }
  }
  vitreous /= n_v;
  onl /= n_o;
  rpe /= n_r;
  g_print ("retina: RPE %.1f dB, ONL %.1f dB above the vitreous\n",
      10 * log10 (rpe / vitreous), 10 * log10 (onl / vitreous));
  fail_unless (rpe > 10 * onl, "RPE %g, ONL %g", rpe, onl);
  fail_unless (onl > 3 * vitreous, "ONL %g, vitreous %g", onl, vitreous);
  fail_unless (rpe > 1000 * vitreous, "RPE %g, vitreous %g", rpe, vitreous);
  g_free (sum);
  g_free (raw);
}

GST_END_TEST;

static Suite *
synth_suite (void)
{
  Suite *s = suite_create ("aooct-synth");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_coeff_validation);
  tcase_add_test (tc, test_params_validation);
  tcase_add_test (tc, test_calibration_file);
  tcase_add_test (tc, test_dispersion_increasing);
  tcase_add_test (tc, test_dispersion_decreasing);
  tcase_add_test (tc, test_levels_and_noise);
  tcase_add_test (tc, test_determinism);
  tcase_add_test (tc, test_retina_layers);
  return s;
}

GST_CHECK_MAIN (synth);
