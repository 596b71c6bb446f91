/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: complex full range (spec section 9).
 *
 * - the full-range chain (aooctsrc with a carrier ! aooctdcsub !
 *   aooctfullrange ! [aooctpad] ! aooctkmap ! aooctdisp ! aooctfft !
 *   aooctnorm) against the float64 reference of section 9
 *   (tests/reference/aooct-ref64-fullrange.h) on every pixel;
 * - mirror-image suppression on the noiseless tilt-free mirror with a
 *   carrier of pi/2 per A-line, both sidebands and both wavelength
 *   directions, each with the reflector on the side section 9's "which way
 *   up" rule says; with the camera's default noise the figure is printed;
 *   without the carrier, or without aooctfullrange, the mirror image is
 *   there (equal to the reflector within 1 dB);
 * - a retina straddling zero delay comes out unfolded at its true signed
 *   depths;
 * - negotiation errors.
 * Tcases "cpu" and "cuda" run the same tests on each backend (meson:
 * fullrange, fullrange-cuda; the CUDA run skips without a usable device). */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-test-pipeline.h"
#include "aooct-ref64-fullrange.h"
#include "aooct-synth.h"
#include "aooct-calib.h"
#include "aooct-cuda-test-util.h"

/* k increasing along the pixels (wavelength decreasing): the default
 * camera's span run the other way */
#define COEFFS_K_UP "894.633,-0.125,-1e-05,2e-09"

static gchar *
with_backend (const gchar * launch)
{
  return aooct_test_with_backend (launch, aooct_test_backend);
}

/* @plain_launch on the aooct_test_backend, to EOS (aooct_test_run_to_eos) */
static GstElement *
run_to_eos (const gchar * plain_launch)
{
  return aooct_test_run_to_eos (plain_launch, aooct_test_backend, 120);
}

#define pull_all aooct_test_pull_all

static void
stop (GstElement * p)
{
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

/* ---- against the float64 reference ------------------------------------ */

typedef struct
{
  const gchar *name;
  gint n, m, bscans;
  const gchar *phantom;
  const gchar *src;             /* extra aooctsrc properties */
  const gchar *coeffs;          /* camera and aooctkmap calibration */
  gboolean upper;
  gboolean pad;
  gint pad_size, factor;
  gdouble a2, a3;
  const gchar *window;
  gboolean log;
  gint crop_start, crop_end;
  const gchar *interp;          /* aooctkmap interpolation; NULL: linear */
} FrCase;

static const FrCase cases[] = {
  /* the default camera (k decreasing): upside down with upper, so the
   * negated pair compensates (section 9) */
  {"retina-straddling-upper", 832, 240, 1, "retina",
        "carrier=1.5 depth-offset=-400 speckle-width=3",
        AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      TRUE, TRUE, 2048, 2, -8, 2, "none", TRUE, 0, 0},
  {"retina-lower-linear", 832, 120, 1, "retina",
        "carrier=1.2 depth-offset=-350", AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      FALSE, TRUE, 2048, 2, 8, -2, "none", FALSE, 0, 0},
  {"mirror-nopad-k-up", 1024, 96, 1, "mirror",
        "carrier=1.5707963267948966 mirror-depth=-150 dispersion-a2=0 "
        "dispersion-a3=0", COEFFS_K_UP, TRUE, FALSE, 0, 1, 0, 0, "none", TRUE,
      0, 0},
  {"stacked-odd-alines-crop", 500, 45, 3, "retina",
        "carrier=1.6 depth-offset=-380 speckle-width=2", COEFFS_K_UP, TRUE,
        TRUE, 0, 4, 8, -2,
      "hann", TRUE, -300, 260},
  /* every interpolation mode on complex spectra (section 4: re and im
   * alike; section 8 at signed bins, docs/fullrange.md) */
  {"retina-cubic-pad", 500, 48, 1, "retina",
        "carrier=1.5 depth-offset=-380 speckle-width=2", COEFFS_K_UP, TRUE,
      TRUE, 1024, 2, 8, -2, "none", TRUE, 0, 0, "cubic"},
  {"retina-bspline-lower", 500, 48, 1, "retina",
        "carrier=1.4 depth-offset=-350",
        AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, FALSE, TRUE, 0, 2, 8, -2,
      "hann", TRUE, 0, 0, "bspline"},
  {"mirror-lanczos-nopad", 512, 48, 1, "mirror",
        "carrier=1.5707963267948966 mirror-depth=-150 dispersion-a2=0 "
        "dispersion-a3=0", COEFFS_K_UP, TRUE, FALSE, 0, 1, 0, 0, "none", TRUE,
      0, 0, "lanczos"},
  {"retina-nudft-pad", 500, 40, 1, "retina",
        "carrier=1.5 depth-offset=-380 speckle-width=2", COEFFS_K_UP, TRUE,
      TRUE, 512, 2, 8, -2, "hann", TRUE, 0, 0, "nudft"},
  {"retina-nufft-upper", 500, 48, 1, "retina",
        "carrier=1.5 depth-offset=-400", AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      TRUE, TRUE, 0, 2, -8, 2, "none", TRUE, 0, 0, "nufft"},
  {"mirror-nufft-nopad-crop", 512, 48, 1, "mirror",
        "carrier=1.5707963267948966 mirror-depth=-150 dispersion-a2=0 "
        "dispersion-a3=0", COEFFS_K_UP, TRUE, FALSE, 0, 1, 0, 0, "none", TRUE,
      -200, 180, "nufft"},
};

static AooctRefInterp
ref_interp (const gchar * name)
{
  if (name == NULL || g_str_equal (name, "linear"))
    return AOOCT_REF_INTERP_LINEAR;
  if (g_str_equal (name, "cubic"))
    return AOOCT_REF_INTERP_CUBIC;
  if (g_str_equal (name, "bspline"))
    return AOOCT_REF_INTERP_BSPLINE;
  if (g_str_equal (name, "lanczos"))
    return AOOCT_REF_INTERP_LANCZOS;
  if (g_str_equal (name, "nudft"))
    return AOOCT_REF_INTERP_NUDFT;
  g_assert (g_str_equal (name, "nufft"));
  return AOOCT_REF_INTERP_NUFFT;
}

static void
run_case (const FrCase * c)
{
  gchar *pad = c->pad ? g_strdup_printf ("aooctpad size=%d factor=%d ! ",
      c->pad_size, c->factor) : g_strdup ("");
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=%u "
      "phantom=%s wavelength-coeffs=\"%s\" %s num-buffers=1 ! tee name=t "
      "t. ! queue ! appsink name=raw sync=false wait-on-eos=false "
      "t. ! queue ! aooctdcsub alines-per-bscan=%d ! aooctfullrange "
      "sideband=%s ! %saooctkmap wavelength-coeffs=\"%s\" interpolation=%s "
      "! aooctdisp a2=%g a3=%g ! aooctfft window=%s ! "
      "aooctnorm log=%d crop-start=%d crop-end=%d ! video/x-raw,format=GRAY8 "
      "! appsink name=img sync=false wait-on-eos=false", c->n,
      c->m * c->bscans, g_random_int (), c->phantom, c->coeffs, c->src, c->m,
      c->upper ? "upper" : "lower", pad, c->coeffs,
      c->interp ? c->interp : "linear", c->a2, c->a3, c->window,
      c->log, c->crop_start, c->crop_end);
  GstElement *p;
  GList *raws, *imgs;
  AooctRefParams rp;
  AooctRefGrid grid;
  GError *err = NULL;
  GstVideoInfo vinfo;
  GstVideoFrame vf;
  GstMapInfo map;
  gint start, end, rows, y, x, worst = 0, differ = 0;
  guint16 *raw;
  guint8 *ref;

  GST_INFO ("case %s: %s", c->name, launch);
  p = run_to_eos (launch);
  raws = pull_all (p, "raw");
  imgs = pull_all (p, "img");
  fail_unless_equals_int (g_list_length (raws), 1);
  fail_unless_equals_int (g_list_length (imgs), 1);

  aooct_ref_params_init (&rp, c->n, c->m, c->bscans);
  rp.pad = c->pad;
  rp.pad_size = c->pad_size;
  rp.pad_factor = c->factor;
  rp.kmap = AOOCT_REF_KMAP_COEFFS;
  rp.interp = ref_interp (c->interp);
  fail_unless (aooct_calib_parse_coeffs (c->coeffs, rp.coeffs, &rp.n_coeffs,
          NULL));
  rp.disp = AOOCT_REF_DISP_COEFFS;
  rp.a2 = c->a2;
  rp.a3 = c->a3;
  rp.window = g_str_equal (c->window, "hann") ? AOOCT_REF_WINDOW_HANN :
      AOOCT_REF_WINDOW_NONE;
  rp.log = c->log;
  rp.crop_start = c->crop_start;
  rp.crop_end = c->crop_end;
  fail_unless (aooct_ref_grid (&rp, &grid, &err));
  fail_unless (aooct_ref_crop_signed (&rp, &grid, &start, &end, &err));
  rows = (end - start) * c->bscans;

  /* GRAY16 camera frames: dense rows (width * 2 bytes, 4-aligned here) */
  fail_unless (gst_buffer_map (gst_sample_get_buffer (raws->data), &map,
          GST_MAP_READ));
  fail_unless_equals_int (map.size, 2 * c->n * c->m * c->bscans);
  raw = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (gst_sample_get_buffer (raws->data), &map);
  ref = g_malloc ((gsize) c->m * rows);
  fail_unless (aooct_ref_fullrange_process (&rp, c->upper ?
          AOOCT_REF_SIDEBAND_UPPER : AOOCT_REF_SIDEBAND_LOWER, raw, ref, c->m,
          &err), "%s", err ? err->message : "");

  fail_unless (gst_video_info_from_caps (&vinfo,
          gst_sample_get_caps (imgs->data)));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), c->m);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), rows);
  fail_unless (gst_video_frame_map (&vf, &vinfo,
          gst_sample_get_buffer (imgs->data), GST_MAP_READ));
  for (y = 0; y < rows; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0)
        + y * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0);
    for (x = 0; x < c->m; x++) {
      gint d = ABS ((gint) row[x] - (gint) ref[(gsize) y * c->m + x]);
      worst = MAX (worst, d);
      differ += d != 0;
      if (d > 1)
        fail ("case %s pixel (row %d, A-line %d): %d, float64 reference %d",
            c->name, y, x, row[x], ref[(gsize) y * c->m + x]);
    }
  }
  gst_video_frame_unmap (&vf);
  g_print ("%s: %d of %d pixels differ from the float64 reference, by at "
      "most %d\n", c->name, differ, rows * c->m, worst);

  g_free (ref);
  g_free (raw);
  g_list_free_full (raws, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (imgs, (GDestroyNotify) gst_sample_unref);
  stop (p);
  g_free (launch);
  g_free (pad);
}

GST_START_TEST (test_fullrange_vs_reference)
{
  run_case (&cases[__i__]);
}

GST_END_TEST;

/* ---- mirror-image suppression ----------------------------------------- */

/* |X| of one B-scan out of aooctfft: @alines x @p2 magnitudes (g_free). */
static gdouble *
depth_magnitudes (const gchar * plain_launch, gint * alines, gint * p2)
{
  GstElement *p = run_to_eos (plain_launch);
  GList *s = pull_all (p, "depth");
  GstStructure *st;
  GstMapInfo map;
  gdouble *mag;
  gsize i;

  fail_unless_equals_int (g_list_length (s), 1);
  st = gst_caps_get_structure (gst_sample_get_caps (s->data), 0);
  fail_unless (gst_structure_get_int (st, "samples", p2));
  fail_unless (gst_structure_get_int (st, "alines", alines));
  fail_unless (gst_buffer_map (gst_sample_get_buffer (s->data), &map,
          GST_MAP_READ));
  mag = g_new (gdouble, (gsize) * alines * *p2);
  for (i = 0; i < (gsize) * alines * *p2; i++) {
    const gfloat *c = (const gfloat *) map.data + 2 * i;
    mag[i] = hypot (c[0], c[1]);
  }
  gst_buffer_unmap (gst_sample_get_buffer (s->data), &map);
  g_list_free_full (s, (GDestroyNotify) gst_sample_unref);
  stop (p);
  return mag;
}

/* The largest |X| of A-line @m within 3 bins of signed bin @b. */
static gdouble
peak_near (const gdouble * mag, gint p2, gint m, gdouble b, gint * at)
{
  gint c = (gint) lround (b), i;
  gdouble best = 0;

  *at = c;
  for (i = c - 3; i <= c + 3; i++) {
    gint bin = i < 0 ? i + p2 : i;
    if (mag[(gsize) m * p2 + bin] > best) {
      best = mag[(gsize) m * p2 + bin];
      *at = i;
    }
  }
  return best;
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

typedef struct
{
  gdouble median, min;
} Suppression;

/* The mirror at +z with the camera of @coeffs, through the chain
 * [aooctfullrange sideband=...]; the reflector expected at signed bin
 * @sign * depth_bin (z): per A-line, 20 log10 of its peak over the peak
 * at the mirrored bin. */
static Suppression
suppression (const gchar * src, const gchar * dcsub, const gchar * fullrange,
    const gchar * coeffs, const gchar * interp, gint sign)
{
  gchar *launch = g_strdup_printf ("aooctsrc phantom=mirror num-buffers=1 "
      "seed=5 wavelength-coeffs=\"%s\" dispersion-a2=0 dispersion-a3=0 %s ! "
      "aooctdcsub %s ! %s aooctpad ! aooctkmap wavelength-coeffs=\"%s\" "
      "interpolation=%s ! aooctdisp ! aooctfft ! appsink name=depth "
      "sync=false wait-on-eos=false", coeffs, src, dcsub, fullrange, coeffs,
      interp);
  AooctSynthParams sp;
  gint alines, p2, m, at;
  gdouble *mag = depth_magnitudes (launch, &alines, &p2);
  gdouble *db = g_new (gdouble, alines), expect, z;
  Suppression s;

  /* the mirror's depth as the source has it */
  aooct_synth_params_init (&sp);
  fail_unless (aooct_calib_parse_coeffs (coeffs, sp.coeffs, &sp.n_coeffs,
          NULL));
  z = sp.mirror_depth;
  expect = sign * aooct_synth_depth_bin (&sp, z, 2048);
  for (m = 0; m < alines; m++) {
    gint mirror_at;
    gdouble i = peak_near (mag, p2, m, -expect, &mirror_at);
    gdouble r = peak_near (mag, p2, m, expect, &at);

    fail_unless (r > 0);
    /* the reflector itself is where the rule puts it */
    fail_unless (abs (at - (gint) lround (expect)) <= 1,
        "A-line %d: reflector at bin %d, expected %.2f", m, at, expect);
    db[m] = 20 * log10 (r / MAX (i, 1e-30));
  }
  qsort (db, alines, sizeof (gdouble), cmp_double);
  s.min = db[0];
  s.median = alines % 2 ? db[alines / 2] :
      0.5 * (db[alines / 2 - 1] + db[alines / 2]);
  g_free (db);
  g_free (mag);
  g_free (launch);
  return s;
}

/* sign of the reflector's bin (section 9): + for k increasing with upper
 * and a positive carrier; each of lower, k decreasing flips it */
GST_START_TEST (test_mirror_suppression)
{
  static const struct
  {
    const gchar *coeffs;
    gboolean k_up;
  } cams[] = {
    {AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, FALSE},
    {COEFFS_K_UP, TRUE},
  };
  /* every resampling mode keeps the suppression; nufft's negative depths
   * need its signed bins (docs/fullrange.md) */
  static const gchar *const modes[] = { "linear", "nufft", "lanczos" };
  gint c, u, k;

  for (k = 0; k < (gint) G_N_ELEMENTS (modes); k++)
    for (c = 0; c < 2; c++)
      for (u = 0; u < 2; u++) {
        gchar *fr = g_strdup_printf ("aooctfullrange sideband=%s !",
            u ? "upper" : "lower");
        gint sign = (cams[c].k_up ? 1 : -1) * (u ? 1 : -1);
        Suppression s = suppression ("carrier=1.5707963267948966 "
            "mirror-tilt=0 noise=0", "", fr, cams[c].coeffs, modes[k], sign);

        g_print ("mirror suppression, noiseless, carrier pi/2, %s, k %s, "
            "interpolation=%s: median %.1f dB, worst A-line %.1f dB\n",
            u ? "upper" : "lower", cams[c].k_up ? "increasing" : "decreasing",
            modes[k], s.median, s.min);
        fail_unless (s.median >= 40.0, "%s: median suppression %.1f dB < 40",
            modes[k], s.median);
        fail_unless (s.min >= 35.0, "%s: worst A-line %.1f dB < 35",
            modes[k], s.min);
        g_free (fr);
      }
}

GST_END_TEST;

/* With the camera's default noise: the figure, reported (noise limits
 * it).  Without tilt (noise alone), and with the default mirror tilt too:
 * the tilt adds a lateral frequency that is not periodic over the B-scan,
 * so the circular transform leaks at the B-scan's edges (the worst
 * A-lines; noiseless with tilt the worst is the same). */
GST_START_TEST (test_mirror_suppression_noise)
{
  Suppression n = suppression ("carrier=1.5707963267948966 mirror-tilt=0",
      "", "aooctfullrange !", AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, "linear",
      -1);
  Suppression t = suppression ("carrier=1.5707963267948966", "",
      "aooctfullrange !", AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, "linear",
      -1);

  g_print ("mirror suppression, default noise (6 counts RMS), carrier pi/2: "
      "no tilt: median %.1f dB, worst A-line %.1f dB; default tilt (2 um): "
      "median %.1f dB, worst A-line %.1f dB\n", n.median, n.min, t.median,
      t.min);
  /* below the noiseless figure, but the mirror image must still be far
   * below the reflector */
  fail_unless (n.median >= 35.0, "median %.1f dB", n.median);
  fail_unless (t.median >= 35.0, "median %.1f dB with tilt", t.median);
}

GST_END_TEST;

/* Without the carrier (the fringe is the same in every A-line, so no DC
 * subtraction, which would remove it), or without aooctfullrange, the
 * mirror image is there: equal to the reflector within 1 dB. */
GST_START_TEST (test_mirror_image_without_carrier)
{
  Suppression a = suppression ("carrier=0 mirror-tilt=0 noise=0",
      "mode=none", "aooctfullrange !", AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      "linear", -1);
  Suppression b = suppression ("carrier=1.5707963267948966 noise=0", "", "",
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, "linear", -1);

  g_print ("without carrier: mirror image %.2f .. %.2f dB below the "
      "reflector; without aooctfullrange: %.2f .. %.2f dB\n", a.min,
      a.median, b.min, b.median);
  fail_unless (fabs (a.median) <= 1.0 && fabs (a.min) <= 1.0);
  fail_unless (fabs (b.median) <= 1.0 && fabs (b.min) <= 1.0);
}

GST_END_TEST;

/* ---- which aooctdisp pair compensates ---------------------------------- */

/* Width (bins, at half the peak power) of the mirror's depth PSF near
 * signed bin @expect, summed over the A-lines of one B-scan of @launch. */
static gdouble
psf_width (const gchar * launch, gdouble expect)
{
  gint alines, p2, m, i, c = (gint) lround (expect), k, a, b;
  gdouble *mag = depth_magnitudes (launch, &alines, &p2);
  gdouble prof[81], half, left, right;

  for (i = 0; i < 81; i++) {
    gint bin = c - 40 + i;
    bin += bin < 0 ? p2 : 0;
    prof[i] = 0;
    for (m = 0; m < alines; m++)
      prof[i] += mag[(gsize) m * p2 + bin] * mag[(gsize) m * p2 + bin];
  }
  g_free (mag);
  for (k = 0, i = 1; i < 81; i++)
    if (prof[i] > prof[k])
      k = i;
  half = prof[k] / 2;
  for (a = k; a > 0 && prof[a] > half; a--);
  for (b = k; b < 80 && prof[b] > half; b++);
  left = a + (half - prof[a]) / (prof[a + 1] - prof[a]);
  right = b - 1 + (prof[b - 1] - half) / (prof[b - 1] - prof[b]);
  return right - left;
}

/* Section 9: the standard chain's pair (here the source's
 * dispersion-a2/-a3, which aooctdisp cancels on either camera) compensates
 * the full-range image when the reflector shows at positive bins, the
 * negated pair when it shows upside down; both sidebands, both
 * wavelength directions.  The right pair gives back the dispersion-free
 * PSF, the other one a wider one. */
GST_START_TEST (test_dispersion_pair)
{
  static const struct
  {
    const gchar *coeffs;
    gboolean k_up;
  } cams[] = {
    {AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, FALSE},
    {COEFFS_K_UP, TRUE},
  };
  const gdouble a2 = AOOCT_SYNTH_DEFAULT_DISPERSION_A2;
  const gdouble a3 = AOOCT_SYNTH_DEFAULT_DISPERSION_A3;
  gint c, u;

  for (c = 0; c < 2; c++)
    for (u = 0; u < 2; u++) {
      AooctSynthParams sp;
      gint sign = (cams[c].k_up ? 1 : -1) * (u ? 1 : -1);
      gdouble expect, w_free, w_rule, w_other, pr = sign > 0 ? 1 : -1;
      gchar *l[3];
      gint k;

      aooct_synth_params_init (&sp);
      fail_unless (aooct_calib_parse_coeffs (cams[c].coeffs, sp.coeffs,
              &sp.n_coeffs, NULL));
      expect = sign * aooct_synth_depth_bin (&sp, sp.mirror_depth, 2048);
      for (k = 0; k < 3; k++) {
        /* dispersion-free; the rule's pair; the other pair */
        gdouble s2 = k == 0 ? 0 : a2, s3 = k == 0 ? 0 : a3;
        gdouble d = k == 0 ? 0 : k == 1 ? pr : -pr;
        l[k] = g_strdup_printf ("aooctsrc phantom=mirror num-buffers=1 "
            "noise=0 mirror-tilt=0 carrier=1.5707963267948966 "
            "wavelength-coeffs=\"%s\" dispersion-a2=%g dispersion-a3=%g ! "
            "aooctdcsub ! aooctfullrange sideband=%s ! aooctpad ! "
            "aooctkmap wavelength-coeffs=\"%s\" ! aooctdisp a2=%g a3=%g ! "
            "aooctfft ! appsink name=depth sync=false wait-on-eos=false",
            cams[c].coeffs, s2, s3, u ? "upper" : "lower", cams[c].coeffs,
            d * s2, d * s3);
      }
      w_free = psf_width (l[0], expect);
      w_rule = psf_width (l[1], expect);
      w_other = psf_width (l[2], expect);
      g_print ("dispersion, %s, k %s (reflector at bin %.1f): PSF %.2f bins "
          "without dispersion, %.2f with a2=%g a3=%g, %.2f with the other "
          "pair\n", u ? "upper" : "lower", cams[c].k_up ? "increasing" :
          "decreasing", expect, w_free, w_rule, pr * a2, pr * a3, w_other);
      fail_unless (fabs (w_rule - w_free) <= 0.05 * w_free,
          "the rule's pair gives %.2f bins, dispersion-free %.2f", w_rule,
          w_free);
      fail_unless (w_other > 1.5 * w_free, "the other pair gives %.2f bins",
          w_other);
      for (k = 0; k < 3; k++)
        g_free (l[k]);
    }
}

GST_END_TEST;

/* ---- the retina across zero delay ------------------------------------- */

/* Mean intensity per depth bin over the A-lines, bins in signed order
 * -P2/2 .. P2/2 - 1 (index b + P2/2). */
static gdouble *
retina_profile (const gchar * src, const gchar * fullrange, const gchar * disp,
    gint * p2)
{
  gchar *launch = g_strdup_printf ("aooctsrc phantom=retina num-buffers=1 "
      "seed=11 %s ! aooctdcsub ! %s aooctpad ! aooctkmap "
      "wavelength-coeffs=\"%s\" ! aooctdisp %s ! aooctfft ! appsink "
      "name=depth sync=false wait-on-eos=false", src, fullrange,
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, disp);
  gint alines, m, i;
  gdouble *mag = depth_magnitudes (launch, &alines, p2);
  gdouble *prof = g_new0 (gdouble, *p2);

  for (m = 0; m < alines; m++)
    for (i = 0; i < *p2; i++) {
      gint signed_bin = i < *p2 / 2 ? i : i - *p2;
      gdouble v = mag[(gsize) m * *p2 + i];
      prof[signed_bin + *p2 / 2] += v * v / alines;
    }
  g_free (mag);
  g_free (launch);
  return prof;
}

/* The retina at its usual depths (standard chain, all positive) and moved
 * by depth-offset across zero delay (full range, sideband lower, the right
 * way up for this camera, with the real path's dispersion pair): the
 * second profile is the first shifted by the offset's bins, within 1, and
 * a good part of the retina lies at negative depths. */
GST_START_TEST (test_retina_unfolded)
{
  const gdouble offset = -400;
  AooctSynthParams sp;
  gchar *disp = g_strdup_printf ("a2=%g a3=%g",
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3);
  gchar *src = g_strdup_printf ("carrier=1.5 speckle-width=3 "
      "depth-offset=%g", offset);
  gint p2, s = 0, best_s = 0, i, h;
  gdouble *std = retina_profile ("carrier=1.5 speckle-width=3", "", disp,
      &p2);
  gdouble *fr = retina_profile (src, "aooctfullrange sideband=lower !", disp,
      &p2);
  gdouble expect, best = -1, neg = 0, total = 0;

  aooct_synth_params_init (&sp);
  expect = aooct_synth_depth_bin (&sp, offset, 2048);
  h = p2 / 2;
  /* the brightest layer (the RPE / photoreceptor complex) in each, away
   * from the residual DC near bin 0 */
  for (i = 20; i < 1024; i++)
    if (std[i + h] > std[best_s + h] || best_s == 0)
      best_s = i;
  for (i = -1024; i < 1024; i++)
    if (abs (i) >= 20 && (fr[i + h] > best || best < 0)) {
      best = fr[i + h];
      s = i;
    }
  g_print ("brightest layer: bin %d standard, %d full range\n", best_s, s);
  best_s = s - best_s;
  /* the retina's power at negative depths in the full-range profile */
  for (i = -1024; i < 1024; i++) {
    if (abs (i) < 20)
      continue;
    total += fr[i + h];
    if (i < 0)
      neg += fr[i + h];
  }
  g_print ("retina moved by %g um: profile shifted by %d bins, expected "
      "%.2f; %.0f %% of its power at negative depths\n", offset, best_s,
      expect, 100 * neg / total);
  fail_unless (fabs (best_s - expect) <= 1.0, "shift %d, expected %.2f",
      best_s, expect);
  {
    /* a layer that lands before zero delay: the brightest of the standard
     * profile among the bins the shift makes negative (the inner retina),
     * found in the full-range profile at its signed depth */
    gint a = 0, f = 0, lo = 20, hi = (gint) floor (-expect) - 5;
    gdouble v = -1;

    for (i = lo; i < hi; i++)
      if (std[i + h] > std[a + h] || a == 0)
        a = i;
    for (i = (gint) lround (a + expect) - 5; i <= lround (a + expect) + 5; i++)
      if (fr[i + h] > v) {
        v = fr[i + h];
        f = i;
      }
    g_print ("a layer before zero delay: standard bin %d, full range bin %d "
        "(expected %.2f)\n", a, f, a + expect);
    fail_unless (f < 0 && fabs (f - (a + expect)) <= 1.0,
        "layer at bin %d, expected %.2f", f, a + expect);
  }
  fail_unless (neg > 0.1 * total && neg < 0.9 * total,
      "%.0f %% of the retina at negative depths", 100 * neg / total);
  g_free (std);
  g_free (fr);
  g_free (disp);
  g_free (src);
}

GST_END_TEST;

/* ---- complex steps on a spectrum whose imaginary part is 0 ------------- */

/* aooctpad, aooctkmap and aooctdisp on complex full-range spectra with
 * imaginary part 0 give the real path's result (section 9: "up to
 * rounding" for the padding's FFTs; the resampling and the product are
 * the same operations on the real part), and the caps say complex and
 * full range. */
GST_START_TEST (test_complex_equals_real_path)
{
  static const gchar *const steps[] = {
    "aooctpad size=1024 factor=2",
    "aooctkmap wavelength-coeffs=\"800,0.1,1e-5\"",
    "aooctdisp a2=3 a3=-1",
    "aooctkmap wavelength-coeffs=\"800,0.1,1e-5\" interpolation=cubic",
    "aooctkmap wavelength-coeffs=\"800,0.1,1e-5\" interpolation=bspline",
    "aooctkmap wavelength-coeffs=\"800,0.1,1e-5\" interpolation=lanczos",
  };
  GRand *rand = aooct_test_rand_new ();
  guint k;

  for (k = 0; k < G_N_ELEMENTS (steps); k++) {
    AooctGeometry g, gc;
    gchar *launch = with_backend (steps[k]);
    GstHarness *hr = gst_harness_new_parse (launch);
    GstHarness *hc = gst_harness_new_parse (launch);
    gboolean padding = k == 0;
    gsize n, out_n, i;
    gfloat *x, *xc, *yr, *yc;
    gboolean to_complex = k == 2;
    gdouble worst = 0, scale = 0;
    GstCaps *caps;

    /* aooctkmap and aooctdisp after aooctpad's grid, aooctpad on the raw
     * one */
    aooct_test_geometry (&g, 600, 8, 2, padding ? 0 : 1024, padding ? 0 : 2);
    n = aooct_test_total_samples (&g);
    x = g_new (gfloat, n);
    xc = g_new0 (gfloat, 2 * n);
    for (i = 0; i < n; i++) {
      x[i] = (gfloat) g_rand_double_range (rand, -500, 500);
      xc[2 * i] = x[i];
    }
    gc = g;
    gc.sample_type = AOOCT_SAMPLE_COMPLEX;
    gc.full_range = TRUE;
    out_n = padding ? (gsize) 2048 *g.alines * g.bscans : n;
    yr = aooct_test_push_pull (hr, aooct_geometry_to_caps (&g), x,
        n * sizeof (gfloat), out_n * sizeof (gfloat) * (to_complex ? 2 : 1));
    caps = aooct_geometry_to_caps (&gc);
    yc = aooct_test_push_pull (hc, caps, xc, 2 * n * sizeof (gfloat),
        2 * out_n * sizeof (gfloat));
    {
      GstCaps *out = gst_pad_get_current_caps (hc->sinkpad);
      GstStructure *st = gst_caps_get_structure (out, 0);
      gboolean fr = FALSE;

      fail_unless (gst_structure_get_boolean (st, "full-range", &fr) && fr,
          "%s: output caps %s are not full-range", steps[k],
          gst_caps_to_string (out));
      fail_unless_equals_string (gst_structure_get_string (st,
              "sample-type"), "complex");
      gst_caps_unref (out);
    }
    for (i = 0; i < out_n; i++) {
      gdouble re = to_complex ? yr[2 * i] : yr[i];
      gdouble im = to_complex ? yr[2 * i + 1] : 0;
      worst = MAX (worst, MAX (fabs (yc[2 * i] - re), fabs (yc[2 * i + 1]
                  - im)));
      scale = MAX (scale, fabs (re));
    }
    g_print ("%s on complex input with imaginary part 0: largest "
        "difference from the real path %.3g (largest value %.3g)\n",
        steps[k], worst, scale);
    /* the resampling and the product: bit for bit; the padding's complex
     * FFTs: float32 rounding */
    fail_unless (worst <= (padding ? 1e-5 * scale : 0.0),
        "%s: %.3g from the real path", steps[k], worst);
    g_free (x);
    g_free (xc);
    g_free (yr);
    g_free (yc);
    aooct_test_harness_teardown (hr);
    aooct_test_harness_teardown (hc);
    g_free (launch);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- the retina's lateral speckle correlation -------------------------- */

/* Correlation coefficient of neighbouring A-lines' DC-subtracted spectra
 * and their mean power, of aooctsrc's noiseless retina with @props. */
static void
neighbour_correlation (const gchar * props, gdouble * corr, gdouble * power)
{
  gchar *launch = g_strdup_printf ("aooctsrc phantom=retina num-buffers=1 "
      "noise=0 seed=3 %s ! aooctdcsub ! appsink name=s sync=false "
      "wait-on-eos=false", props);
  GstElement *p = run_to_eos (launch);
  GList *s = pull_all (p, "s");
  GstStructure *st;
  GstMapInfo map;
  gint n, alines, m, i;
  gdouble xy = 0, xx = 0;

  fail_unless_equals_int (g_list_length (s), 1);
  st = gst_caps_get_structure (gst_sample_get_caps (s->data), 0);
  fail_unless (gst_structure_get_int (st, "samples", &n));
  fail_unless (gst_structure_get_int (st, "alines", &alines));
  fail_unless (gst_buffer_map (gst_sample_get_buffer (s->data), &map,
          GST_MAP_READ));
  for (m = 0; m + 1 < alines; m++)
    for (i = 0; i < n; i++) {
      const gfloat *x = (const gfloat *) map.data;
      xy += (gdouble) x[m * n + i] * x[(m + 1) * n + i];
      xx += (gdouble) x[m * n + i] * x[m * n + i];
    }
  gst_buffer_unmap (gst_sample_get_buffer (s->data), &map);
  *corr = xy / xx;
  *power = xx / ((gdouble) (alines - 1) * n);
  g_list_free_full (s, (GDestroyNotify) gst_sample_unref);
  stop (p);
  g_free (launch);
}

/* speckle-width correlates neighbouring A-lines (what full range needs)
 * and keeps the fringes' power; 0 leaves them independent. */
GST_START_TEST (test_speckle_width)
{
  gdouble c0, p0, c3, p3;

  neighbour_correlation ("speckle-width=0", &c0, &p0);
  neighbour_correlation ("speckle-width=3", &c3, &p3);
  g_print ("retina, neighbouring A-lines: correlation %.3f (speckle-width=0),"
      " %.3f (3); fringe power %.1f, %.1f\n", c0, c3, p0, p3);
  fail_unless (fabs (c0) < 0.3, "independent A-lines correlate by %.3f", c0);
  fail_unless (c3 > 0.8, "speckle-width=3 correlates by only %.3f", c3);
  fail_unless (fabs (p3 / p0 - 1) < 0.3, "power %.1f vs %.1f", p3, p0);
}

GST_END_TEST;

/* ---- aooctnorm's averaging and the views on signed crops --------------- */

/* The mirror (at 250 um: bin -192 with this camera and sideband) through
 * aooctnorm with A-line averaging and through aooctenface, on full-range
 * input with the default crop [-P1/2, P1/2) (section 11's views use
 * section 9's signed crop): the averaged image is P1 rows high with the
 * mirror in the row of its signed bin, the en-face image comes out. */
GST_START_TEST (test_views_signed_crop)
{
  const gchar *launch = "aooctsrc phantom=mirror num-buffers=2 noise=0 "
      "mirror-tilt=0 carrier=1.5707963267948966 dispersion-a2=0 "
      "dispersion-a3=0 alines=64 ! aooctdcsub ! aooctfullrange ! aooctpad ! "
      "aooctkmap wavelength-coeffs=\"" AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS
      "\" ! aooctdisp ! aooctfft ! tee name=t "
      "t. ! queue ! aooctnorm average-alines=2 log=false ! "
      "video/x-raw,format=GRAY8 ! appsink name=img sync=false "
      "wait-on-eos=false "
      "t. ! queue ! aooctenface bscans-per-volume=2 ! "
      "video/x-raw,format=GRAY8 ! appsink name=enface sync=false "
      "wait-on-eos=false";
  GstElement *p = run_to_eos (launch);
  GList *img = pull_all (p, "img"), *ef = pull_all (p, "enface");
  AooctSynthParams sp;
  GstVideoInfo vinfo;
  GstVideoFrame vf;
  gint c, expect_row;

  aooct_synth_params_init (&sp);
  expect_row = 1024 - (gint) lround (aooct_synth_depth_bin (&sp,
          sp.mirror_depth, 2048));
  fail_unless_equals_int (g_list_length (img), 2);
  fail_unless_equals_int (g_list_length (ef), 1);
  fail_unless (gst_video_info_from_caps (&vinfo,
          gst_sample_get_caps (img->data)));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), 32);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), 2048);
  fail_unless (gst_video_frame_map (&vf, &vinfo,
          gst_sample_get_buffer (img->data), GST_MAP_READ));
  for (c = 0; c < 32; c++) {
    gint r, best = 0, best_v = -1;

    for (r = 0; r < 2048; r++) {
      gint v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0))[r *
          GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0) + c];
      if (v > best_v) {
        best_v = v;
        best = r;
      }
    }
    fail_unless (abs (best - expect_row) <= 1,
        "column %d: mirror at row %d, expected %d", c, best, expect_row);
  }
  gst_video_frame_unmap (&vf);
  fail_unless (gst_video_info_from_caps (&vinfo,
          gst_sample_get_caps (ef->data)));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), 64);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), 2);
  g_print ("averaged full-range image: the mirror at row %d of 2048 in every "
      "column; en-face image 64 x 2\n", expect_row);
  g_list_free_full (img, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (ef, (GDestroyNotify) gst_sample_unref);
  stop (p);
}

GST_END_TEST;

/* ---- errors ------------------------------------------------------------ */

GST_START_TEST (test_fullrange_errors)
{
  static const struct
  {
    const gchar *launch, *expect;
  } bad[] = {
    /* complex spectra of aooctdisp are not full-range ones */
    {"aooctsrc num-buffers=1 ! aooctdcsub ! aooctdisp ! aooctfullrange ! "
          "fakesink", "aooctfullrange needs real spectra"},
    {"aooctsrc num-buffers=1 ! aooctdcsub ! aooctdisp ! aooctpad ! fakesink",
        "aooctpad needs"},
    {"aooctsrc num-buffers=1 alines=1 ! aooctdcsub ! aooctfullrange ! "
          "fakesink", "at least 2 A-lines"},
    /* negative bins only exist in full-range images */
    {"aooctsrc num-buffers=1 ! aooctdcsub ! aooctpad ! aooctdisp ! aooctfft "
          "! aooctnorm crop-start=-10 ! fakesink", "crop-start=-10"},
    /* beyond -P2/2 */
    {"aooctsrc num-buffers=1 ! aooctdcsub ! aooctfullrange ! aooctpad ! "
          "aooctdisp ! aooctfft ! aooctnorm crop-start=-5000 ! fakesink",
        "signed depth bins"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *launch = with_backend (bad[i].launch);
    gchar *msg = aooct_test_run_pipeline (launch, 60);

    fail_unless (msg != NULL, "%s ran without an error", launch);
    fail_unless (strstr (msg, bad[i].expect) != NULL, "%s: '%s' lacks '%s'",
        launch, msg, bad[i].expect);
    g_free (msg);
    g_free (launch);
  }
}

GST_END_TEST;

static void
add_fullrange_tests (TCase * tc, gboolean cuda)
{
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_fullrange_vs_reference, 0,
      G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_mirror_suppression);
  tcase_add_test (tc, test_mirror_suppression_noise);
  tcase_add_test (tc, test_mirror_image_without_carrier);
  tcase_add_test (tc, test_dispersion_pair);
  tcase_add_test (tc, test_retina_unfolded);
  tcase_add_test (tc, test_complex_equals_real_path);
  tcase_add_test (tc, test_speckle_width);
  tcase_add_test (tc, test_views_signed_crop);
  tcase_add_test (tc, test_fullrange_errors);
}

static Suite *
fullrange_suite (void)
{
  return aooct_test_suite_per_backend ("aooct-fullrange", add_fullrange_tests);
}

GST_CHECK_MAIN (fullrange);
