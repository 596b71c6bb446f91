/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the synthetic camera's flow phantom (common/aooct-synth,
 * vessel-* and repeats) against what spec section 12 makes of it,
 * measured on the float64 reconstruction of tests/reference (background
 * subtraction, exact kmap and dispersion, FFT): the Kasai phase in the
 * vessel is 4 pi n v T / lambda0 with the sign the documentation states,
 * static tissue has none, repeated B-scans decorrelate in the vessel and not
 * in the tissue, and a phantom without vessels is the one without flow. */
#include <math.h>
#include <string.h>
#include <gst/check/gstcheck.h>

#include "aooct-synth.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-ref64.h"
#include "aooct-test-vessel.h"

/* ---- the phantom and its reconstruction --------------------------------- */

static guint16 *
synth_frames (const AooctSynthParams * p, guint64 first, gint n_frames)
{
  GError *err = NULL;
  gsize size = (gsize) p->samples * p->alines;
  guint16 *out = g_new (guint16, size * n_frames);
  AooctSynth *s;
  gint f;

  aooct_fftw_lock ();
  s = aooct_synth_new (p, &err);
  aooct_fftw_unlock ();
  fail_unless (s != NULL, "aooct_synth_new: %s", err ? err->message : "?");
  for (f = 0; f < n_frames; f++)
    aooct_synth_fill (s, first + f, out + f * size, p->samples);
  aooct_fftw_lock ();
  aooct_synth_free (s);
  aooct_fftw_unlock ();
  return out;
}

/* The reconstruction of frames of @p: the background (the same camera
 * without a sample, noiseless) subtracted, kmap with the camera's
 * polynomial, aooctdisp with its dispersion, FFT of P1 = 1024, P2 = 2048;
 * returns n_frames x M A-lines of P2 complex (re, im) and sets @p2. */
typedef struct
{
  gint m, p1, p2, n_frames;
  gdouble *x;                   /* n_frames x M x 2 P2 */
  gdouble bins_per_um;          /* depth bins of P1 per um of path */
} Depth;

static void
reconstruct (const AooctSynthParams * p, guint64 first, gint n_frames,
    Depth * d)
{
  AooctRefParams rp;
  AooctRefGrid g;
  GError *err = NULL;
  guint16 *raw;
  gdouble *bg = aooct_test_synth_background (p);

  aooct_ref_params_init (&rp, p->samples, p->alines, n_frames);
  rp.dc_mode = AOOCT_REF_DC_BACKGROUND;
  rp.background = bg;
  rp.pad_size = 1024;
  rp.kmap = AOOCT_REF_KMAP_COEFFS;
  memcpy (rp.coeffs, p->coeffs, sizeof (rp.coeffs));
  rp.n_coeffs = p->n_coeffs;
  rp.disp = AOOCT_REF_DISP_COEFFS;
  rp.a2 = p->dispersion_a2;
  rp.a3 = p->dispersion_a3;
  fail_unless (aooct_ref_grid (&rp, &g, &err), "%s", err ? err->message : "");
  raw = synth_frames (p, first, n_frames);
  d->m = p->alines;
  d->p1 = g.p1;
  d->p2 = g.p2;
  d->n_frames = n_frames;
  d->x = g_new (gdouble, (gsize) n_frames * p->alines * 2 * g.p2);
  fail_unless (aooct_ref_depth (&rp, raw, d->x, &err), "%s",
      err ? err->message : "");
  d->bins_per_um = aooct_synth_depth_bin (p, 1.0, g.p1);
  g_free (raw);
  g_free (bg);
}

static inline const gdouble *
sample (const Depth * d, gint frame, gint a, gint z)
{
  return d->x + (((gsize) frame * d->m + a) * d->p2 + z) * 2;
}

static inline gdouble
intensity (const Depth * d, gint frame, gint a, gint z)
{
  const gdouble *v = sample (d, frame, a, z);

  return v[0] * v[0] + v[1] * v[1];
}

/* Regions of the B-scan, in A-lines and depth bins */
typedef enum
{
  REGION_VESSEL_CORE,           /* within 0.6 of the radii of vessel j */
  REGION_TISSUE                 /* bright static tissue away from vessels */
} Region;

typedef struct
{
  const AooctSynthParams *p;
  const Depth *d;
  guint64 frame;
  gint vessel;
  gdouble tissue_min;           /* intensity above which tissue counts */
} RegionArgs;

static gboolean
in_region (const RegionArgs * r, Region region, gint a, gint z)
{
  if (region == REGION_VESSEL_CORE)
    return aooct_test_in_vessel (r->p, r->vessel, r->frame,
        r->d->bins_per_um, a, z, 0.6);
  /* tissue: 1.5 radii clear of every vessel, also 12 A-lines (the reach of
   * speckle-width 3) either side, bright in frame 0 */
  if (aooct_test_near_vessel (r->p, r->frame, r->d->bins_per_um, a, z, 1.5, 12))
    return FALSE;
  return intensity (r->d, 0, a, z) > r->tissue_min;
}

/* ---- spec section 12, in float64, over a region ------------------------- */

/* Kasai, lag 1, windows 4 x 3 as aooctdoppler's defaults: per pixel of
 * every frame of @r->d, dphi = arg sum X[a+1][d] conj X[a][d]; returns the
 * mean of dphi over the region's pixels and (in @pooled) the phase of the
 * sum of every pixel's C. */
static gdouble
kasai_mean (const RegionArgs * r, Region region, gint z0, gint z1,
    gdouble * pooled, gint * count)
{
  const Depth *d = r->d;
  gdouble sum = 0, cr_all = 0, ci_all = 0;
  gint a, z, n = 0, f;

  for (f = 0; f < d->n_frames; f++)
    for (a = 0; a < d->m; a++)
      for (z = z0; z < z1; z++) {
        gdouble cr = 0, ci = 0;
        gint aa, dd;

        if (!in_region (r, region, a, z))
          continue;
        for (aa = a - 2; aa <= a + 1; aa++)
          for (dd = z - 1; dd <= z + 1; dd++) {
            const gdouble *x0, *x1;

            if (aa < 0 || aa + 1 >= d->m || dd < z0 || dd >= z1)
              continue;
            x0 = sample (d, f, aa, dd);
            x1 = sample (d, f, aa + 1, dd);
            cr += x1[0] * x0[0] + x1[1] * x0[1];
            ci += x1[1] * x0[0] - x1[0] * x0[1];
          }
        sum += atan2 (ci, cr);
        cr_all += cr;
        ci_all += ci;
        n++;
      }
  *pooled = atan2 (ci_all, cr_all);
  *count = n;
  return n ? sum / n : 0;
}

/* SSADA decorrelation over frames 0..N-1 (windows 3 x 3), mean over the
 * region */
static gdouble
decorrelation_mean (const RegionArgs * r, Region region, gint z0, gint z1,
    gint * count)
{
  const Depth *d = r->d;
  gdouble total = 0;
  gint a, z, n = 0, f;

  for (a = 0; a < d->m; a++)
    for (z = z0; z < z1; z++) {
      gdouble dsum = 0;

      if (!in_region (r, region, a, z))
        continue;
      for (f = 0; f + 1 < d->n_frames; f++) {
        gdouble s = 0;
        gint k = 0, aa, dd;

        for (aa = a - 1; aa <= a + 1; aa++)
          for (dd = z - 1; dd <= z + 1; dd++) {
            gdouble a0, a1, den;

            if (aa < 0 || aa >= d->m || dd < z0 || dd >= z1)
              continue;
            a0 = sqrt (intensity (d, f, aa, dd));
            a1 = sqrt (intensity (d, f + 1, aa, dd));
            den = 0.5 * (a0 * a0 + a1 * a1);
            s += den > 0 ? a0 * a1 / den : 1;
            k++;
          }
        dsum += s / k;
      }
      total += 1 - dsum / (d->n_frames - 1);
      n++;
    }
  *count = n;
  return n ? total / n : 0;
}

/* the flow phantom of these tests: two vessels in the retina's inner
 * layers, lateral speckle correlation as Doppler needs; Doppler is
 * measured over DOPPLER_FRAMES B-scans of one position (repeats), the
 * blood's speckle drawn anew in each: one B-scan's vessel core holds only
 * about a dozen independent speckles, whose phase estimates scatter by a
 * few % of 1.7 rad */
#define DOPPLER_FRAMES 8
static void
flow_params (AooctSynthParams * p)
{
  aooct_synth_params_init (p);
  p->seed = 31;
  p->speckle_width = 3;
  p->vessel_count = 2;
  p->bscans_per_volume = 9;
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

/* 4 x the median intensity of frame 0 between bins @z0 and @z1: tissue
 * brighter than that is "bright" (well above the noise) */
static gdouble
bright_level (const Depth * d, gint z0, gint z1)
{
  gint n = d->m * (z1 - z0), a, z, i = 0;
  gdouble *v = g_new (gdouble, n), med;

  for (a = 0; a < d->m; a++)
    for (z = z0; z < z1; z++)
      v[i++] = intensity (d, 0, a, z);
  qsort (v, n, sizeof (gdouble), compare_doubles);
  med = v[n / 2];
  g_free (v);
  return 4 * med;
}

/* ---- tests -------------------------------------------------------------- */

/* Doppler: the Kasai phase in each vessel's core is the documented
 * 4 pi n v T / lambda0, with the display sign of the calibration (lambda
 * increasing along the pixels: the displayed half holds e^{-j 2 k z}, so
 * motion away from the probe gives a negative phase); static tissue's mean
 * phase is below 0.05 rad. */
static void
check_doppler (AooctSynthParams * p, gdouble display_sign, guint64 frame)
{
  Depth d;
  RegionArgs r = { p, &d, frame, 0, 0 };
  gint z0, z1, j, n;
  gdouble pooled, mean;

  p->repeats = DOPPLER_FRAMES;
  fail_unless (frame % DOPPLER_FRAMES == 0);
  reconstruct (p, frame, DOPPLER_FRAMES, &d);
  z0 = (gint) (100 * d.bins_per_um);
  z1 = (gint) (700 * d.bins_per_um);
  r.tissue_min = bright_level (&d, z0, z1);
  for (j = 0; j < p->vessel_count; j++) {
    gdouble expect = display_sign * aooct_synth_vessel_phase (p, j);

    r.vessel = j;
    mean = kasai_mean (&r, REGION_VESSEL_CORE, z0, z1, &pooled, &n);
    g_print ("vessel %d, v %+.3f mm/s: expected dphi %+.4f rad, measured "
        "%+.4f (pixel mean) %+.4f (pooled) over %d pixels: %.2f %%\n", j,
        aooct_synth_vessel_velocity (p, j), expect, mean, pooled, n,
        100 * (mean / expect - 1));
    fail_unless (n > 100 * DOPPLER_FRAMES, "only %d vessel pixels", n);
    fail_unless (fabs (mean / expect - 1) < 0.05,
        "vessel %d: dphi %f, expected %f", j, mean, expect);
  }
  mean = kasai_mean (&r, REGION_TISSUE, z0, z1, &pooled, &n);
  g_print ("static tissue: mean dphi %+.4f rad (pooled %+.4f) over %d "
      "pixels\n", mean, pooled, n);
  fail_unless (n > 2000 * DOPPLER_FRAMES, "only %d tissue pixels", n);
  fail_unless (fabs (mean) < 0.05, "static tissue dphi %f", mean);
  g_free (d.x);
}

GST_START_TEST (test_doppler_phase)
{
  AooctSynthParams p;

  flow_params (&p);
  g_print ("lambda0 %.3f nm (source centre %.1f nm), line rate %.0f /s\n",
      aooct_synth_flow_wavelength (&p), p.center_wavelength, p.line_rate);
  /* 2 mm/s: 1.73 rad per A-line (vessel 0 away from the probe, 1 towards) */
  check_doppler (&p, -1.0, 8);
  /* the other sign on vessel 0, slower, another line rate and index, a
   * B-scan late in the stream (large displacement) */
  p.vessel_velocity = -0.8;
  p.line_rate = 20000;
  p.refractive_index = 1.4;
  check_doppler (&p, -1.0, 123456);
}

GST_END_TEST;

/* The wavelength decreasing along the pixels: the other display sign */
GST_START_TEST (test_doppler_sign_reversed_calibration)
{
  AooctSynthParams p;

  flow_params (&p);
  fail_unless (aooct_calib_parse_coeffs ("895,-0.12,-1.2e-05", p.coeffs,
          &p.n_coeffs, NULL));
  p.dispersion_a2 = -AOOCT_SYNTH_DEFAULT_DISPERSION_A2;
  check_doppler (&p, 1.0, 16);
}

GST_END_TEST;

/* A vessel in front of the mirror: the same phase */
GST_START_TEST (test_doppler_mirror)
{
  AooctSynthParams p;

  flow_params (&p);
  p.phantom = AOOCT_SYNTH_PHANTOM_MIRROR;
  p.vessel_count = 1;
  p.vessel_velocity = 1.2;
  p.vessel_depth = 150;
  p.repeats = DOPPLER_FRAMES;
  {
    Depth d;
    RegionArgs r = { &p, &d, 0, 0, 0 };
    gint n;
    gdouble pooled, mean, expect = -aooct_synth_vessel_phase (&p, 0);

    reconstruct (&p, 0, DOPPLER_FRAMES, &d);
    mean =
        kasai_mean (&r, REGION_VESSEL_CORE, (gint) (100 * d.bins_per_um),
        (gint) (200 * d.bins_per_um), &pooled, &n);
    g_print ("mirror phantom, vessel at 1.2 mm/s: expected %+.4f, measured "
        "%+.4f over %d pixels\n", expect, mean, n);
    fail_unless (n > 100 * DOPPLER_FRAMES);
    fail_unless (fabs (mean / expect - 1) < 0.05, "%f, expected %f", mean,
        expect);
    g_free (d.x);
  }
}

GST_END_TEST;

/* Angiography: 4 repeats of one position; SSADA decorrelation (3 x 3) in
 * the vessel's core near that of fully decorrelated speckle (1 - pi/4 =
 * 0.215), static tissue's far below; with vessel-decorrelation 0 and no
 * flow the vessel is as still as the tissue. */
GST_START_TEST (test_decorrelation)
{
  AooctSynthParams p;
  Depth d;
  RegionArgs r = { &p, &d, 0, 0, 0 };
  gint z0, z1, n_v, n_t;
  gdouble dv, dt;

  flow_params (&p);
  p.repeats = 4;
  p.vessel_count = 1;
  reconstruct (&p, 8, 4, &d);
  r.frame = 8;
  z0 = (gint) (100 * d.bins_per_um);
  z1 = (gint) (700 * d.bins_per_um);
  r.tissue_min = bright_level (&d, z0, z1);
  dv = decorrelation_mean (&r, REGION_VESSEL_CORE, z0, z1, &n_v);
  dt = decorrelation_mean (&r, REGION_TISSUE, z0, z1, &n_t);
  g_print ("decorrelation, 4 repeats: vessel %.4f (%d pixels), static "
      "tissue %.4f (%d pixels)\n", dv, n_v, dt, n_t);
  fail_unless (n_v > 100 && n_t > 2000);
  fail_unless (dv > 0.15 && dv < 0.26, "vessel D %f", dv);
  fail_unless (dt < 0.02, "tissue D %f", dt);
  fail_unless (dv > 8 * dt);
  g_free (d.x);

  /* still blood, nothing re-drawn: only the noise decorrelates */
  p.vessel_velocity = 0;
  p.vessel_decorrelation = 0;
  reconstruct (&p, 8, 4, &d);
  dv = decorrelation_mean (&r, REGION_VESSEL_CORE, z0, z1, &n_v);
  g_print ("still blood, vessel-decorrelation 0: vessel %.4f\n", dv);
  fail_unless (dv < 0.03, "vessel D %f", dv);
  g_free (d.x);
}

GST_END_TEST;

/* Without vessels the flow properties change nothing; repeats shows each
 * position N times (with noise 0, the very same bytes). */
GST_START_TEST (test_no_vessel_no_change)
{
  AooctSynthParams p, q;
  gsize size;
  guint16 *a, *b;

  aooct_synth_params_init (&p);
  p.seed = 5;
  p.speckle_width = 2;
  q = p;
  q.vessel_velocity = -7;
  q.vessel_depth = 400;
  q.vessel_decorrelation = 0.3;
  q.line_rate = 1000;
  size = (gsize) p.samples * p.alines * 3;
  a = synth_frames (&p, 10, 3);
  b = synth_frames (&q, 10, 3);
  fail_unless (memcmp (a, b, size * 2) == 0);
  g_free (a);
  g_free (b);

  p.noise = 0;
  p.repeats = 3;
  a = synth_frames (&p, 6, 4);
  size = (gsize) p.samples * p.alines;
  fail_unless (memcmp (a, a + size, size * 2) == 0);
  fail_unless (memcmp (a, a + 2 * size, size * 2) == 0);
  fail_unless (memcmp (a, a + 3 * size, size * 2) != 0);
  /* position 2 with repeats 3 is position 2 with repeats 1 */
  p.repeats = 1;
  b = synth_frames (&p, 2, 1);
  fail_unless (memcmp (a, b, size * 2) == 0);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* lambda0 of the default source, and the worked example of docs/flow.md */
GST_START_TEST (test_flow_wavelength)
{
  AooctSynthParams p;
  gdouble l0, dphi;

  aooct_synth_params_init (&p);
  l0 = aooct_synth_flow_wavelength (&p);
  dphi = aooct_synth_vessel_phase (&p, 0);
  g_print ("lambda0 %.4f nm; 2 mm/s at 24000 A-lines/s, n 1.38: %.4f rad "
      "per A-line; velocity at pi: %.4f mm/s\n", l0, dphi,
      p.vessel_velocity * G_PI / dphi);
  fail_unless (fabs (l0 - 840.0) < 0.5, "lambda0 %f", l0);
  fail_unless (fabs (dphi - 4 * G_PI * 1.38 * 2e3 / (l0 * 1e-3 * 24000))
      < 1e-12);
  fail_unless (aooct_synth_vessel_phase (&p, 1) == -dphi);
}

GST_END_TEST;

static Suite *
synth_vessel_suite (void)
{
  Suite *s = suite_create ("aooct-synth-vessel");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_flow_wavelength);
  tcase_add_test (tc, test_no_vessel_no_change);
  tcase_add_test (tc, test_doppler_phase);
  tcase_add_test (tc, test_doppler_sign_reversed_calibration);
  tcase_add_test (tc, test_doppler_mirror);
  tcase_add_test (tc, test_decorrelation);
  return s;
}

GST_CHECK_MAIN (synth_vessel);
