/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctkmap's interpolation modes (spec sections 4 and 8).
 *
 * - every mode, the whole chain aooctsrc ! ... ! aooctnorm against the
 *   float64 reference (tests/reference) on every pixel, on several
 *   geometries (with and without aooctpad, odd widths, wavelengths
 *   decreasing along the pixels, a strongly non-linear calibration, several
 *   B-scans per buffer, a tee between aooctkmap and aooctdisp);
 * - nufft against the exact sum: the relative error table over W and R for
 *   both kernels, with the literature's bounds;
 * - physics: a mirror swept over depth without padding, peak side-lobe
 *   level and peak height per mode, and the seeds' ordering;
 * - chains that cannot be computed as specified fail with a reason.
 *
 * Tcases "cpu" and "cuda" run the same tests on each backend (meson:
 * kspace, kspace-cuda; the CUDA run exits 77 without a usable device). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-test-pipeline.h"
#include "aooct-ref64.h"
#include "aooct-synth.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"
#include "aooct-textfile.h"
#include "aooct-caps.h"
#include "aooct-cpu-nonuniform.h"
#include "aooct-cuda-test-util.h"





/* strongly non-linear calibrations (both directions of wavelength) */
#define COEFFS_NONLINEAR "820,0.1,1e-04,-1e-08"
#define COEFFS_DECREASING "900,-0.1,-3e-05,5e-09"

typedef struct
{
  const gchar *name;
  const gchar *interp;          /* aooctkmap interpolation */
  const gchar *nufft;           /* extra aooctkmap properties or "" */
  gint n, m, bscans;
  const gchar *phantom;
  gboolean pad;
  gint factor;
  const gchar *coeffs;          /* NULL: the source's default, by file */
  gboolean disp;
  const gchar *window;
  gboolean tee;                 /* tee ! queue between kmap and disp */
} KspaceCase;

static const KspaceCase cases[] = {
  {"cubic-pad", "cubic", "", 832, 64, 1, "retina", TRUE, 2, NULL, TRUE,
      "none", FALSE},
  {"bspline-pad", "bspline", "", 832, 64, 1, "retina", TRUE, 2, NULL, TRUE,
      "hann", FALSE},
  {"lanczos-pad", "lanczos", "", 832, 64, 1, "retina", TRUE, 2, NULL, TRUE,
      "none", FALSE},
  {"cubic-nopad-odd-decreasing", "cubic", "", 601, 48, 1, "mirror", FALSE, 1,
      COEFFS_DECREASING, FALSE, "none", FALSE},
  {"bspline-nopad-nonlinear", "bspline", "", 512, 48, 1, "retina", FALSE, 1,
      COEFFS_NONLINEAR, TRUE, "blackman", FALSE},
  {"lanczos-nopad-stacked", "lanczos", "", 257, 24, 3, "retina", FALSE, 1,
      COEFFS_NONLINEAR, TRUE, "none", TRUE},
  {"linear-nopad-nonlinear", "linear", "", 512, 32, 1, "mirror", FALSE, 1,
      COEFFS_NONLINEAR, FALSE, "none", FALSE},
  {"nudft-nopad-nonlinear", "nudft", "", 512, 32, 1, "retina", FALSE, 1,
      COEFFS_NONLINEAR, TRUE, "hann", FALSE},
  {"nudft-nopad-odd-decreasing-tee", "nudft", "", 301, 24, 2, "mirror", FALSE,
      1, COEFFS_DECREASING, TRUE, "none", TRUE},
  {"nudft-pad", "nudft", "", 200, 16, 1, "retina", TRUE, 2, NULL, TRUE,
      "gaussian", FALSE},
  {"nufft-nopad-nonlinear", "nufft", "", 512, 32, 1, "retina", FALSE, 1,
      COEFFS_NONLINEAR, TRUE, "none", FALSE},
  {"nufft-pad-stacked", "nufft", "", 832, 24, 2, "retina", TRUE, 1, NULL,
      TRUE, "hann", FALSE},
  {"nufft-gaussian-odd-decreasing", "nufft",
        " nufft-kernel=gaussian nufft-width=12", 301, 24, 1, "mirror", FALSE,
      1, COEFFS_DECREASING, FALSE, "blackman", TRUE},
  {"nufft-r1.5-w8", "nufft", " nufft-oversampling=1.5 nufft-width=8", 512,
      24, 1, "retina", FALSE, 1, COEFFS_NONLINEAR, TRUE, "none", FALSE},
};

static AooctRefInterp
ref_interp (const gchar * s)
{
  return g_str_equal (s, "cubic") ? AOOCT_REF_INTERP_CUBIC :
      g_str_equal (s, "bspline") ? AOOCT_REF_INTERP_BSPLINE :
      g_str_equal (s, "lanczos") ? AOOCT_REF_INTERP_LANCZOS :
      g_str_equal (s, "nudft") ? AOOCT_REF_INTERP_NUDFT :
      g_str_equal (s, "nufft") ? AOOCT_REF_INTERP_NUFFT :
      AOOCT_REF_INTERP_LINEAR;
}

static AooctRefWindow
ref_window (const gchar * w)
{
  return g_str_equal (w, "hann") ? AOOCT_REF_WINDOW_HANN :
      g_str_equal (w, "blackman") ? AOOCT_REF_WINDOW_BLACKMAN :
      g_str_equal (w, "gaussian") ? AOOCT_REF_WINDOW_GAUSSIAN :
      AOOCT_REF_WINDOW_NONE;
}

/* the middle of the camera's range, for aooctsrc center-wavelength (its
 * default, 840 nm, lies outside some of these calibrations) */
static gdouble
center_of (const gchar * coeffs, gint n)
{
  gdouble c[4];
  gint nc;

  fail_unless (aooct_calib_parse_coeffs (coeffs, c, &nc, NULL));
  return aooct_calib_poly_eval (c, nc, (n - 1) / 2.0);
}

static void
run_case (const KspaceCase * c)
{
  gchar *cal = aooct_test_write_temp ("");
  const gchar *coeffs = c->coeffs ? c->coeffs :
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS;
  gchar *pad = c->pad ? g_strdup_printf ("aooctpad factor=%d ! ", c->factor) :
      g_strdup ("");
  gchar *kmap = c->coeffs ?
      g_strdup_printf ("aooctkmap wavelength-coeffs=\"%s\" interpolation=%s%s",
      c->coeffs, c->interp, c->nufft) :
      g_strdup_printf ("aooctkmap wavelength-file=%s interpolation=%s%s", cal,
      c->interp, c->nufft);
  gdouble a2 = c->disp ? AOOCT_SYNTH_DEFAULT_DISPERSION_A2 : 0;
  gdouble a3 = c->disp ? AOOCT_SYNTH_DEFAULT_DISPERSION_A3 : 0;
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=%u "
      "phantom=%s num-buffers=2 calibration-file=%s wavelength-coeffs=\"%s\" "
      "center-wavelength=%.17g mirror-depth=%g ! tee name=t "
      "t. ! queue ! appsink name=raw sync=false wait-on-eos=false "
      "t. ! queue ! aooctdcsub alines-per-bscan=%d ! %s%s ! %s"
      "aooctdisp a2=%.17g a3=%.17g ! aooctfft window=%s ! "
      "aooctnorm ! video/x-raw,format=GRAY8 ! "
      "appsink name=img sync=false wait-on-eos=false", c->n,
      c->m * c->bscans, g_random_int (), c->phantom, cal, coeffs,
      center_of (coeffs, c->n),
      /* far down: where the methods differ */
      c->n * 0.7, c->m, pad, kmap, c->tee ? "tee ! queue ! " : "", a2, a3,
      c->window);
  GstElement *p;
  GList *raws, *imgs, *r, *i;
  AooctRefParams rp;
  AooctRefGrid grid;
  gdouble *wavelengths = NULL;
  GError *err = NULL;
  gint crop_start, crop_end, rows, frame = 0;

  GST_INFO ("case %s: %s", c->name, launch);
  p = aooct_test_run_to_eos (launch, aooct_test_backend, 240);
  raws = aooct_test_pull_all (p, "raw");
  imgs = aooct_test_pull_all (p, "img");
  fail_unless_equals_int (g_list_length (raws), 2);
  fail_unless_equals_int (g_list_length (imgs), 2);

  aooct_ref_params_init (&rp, c->n, c->m, c->bscans);
  rp.pad = c->pad;
  rp.pad_size = 0;
  rp.pad_factor = c->factor;
  if (c->coeffs == NULL) {
    wavelengths = aooct_text_read_values (cal, c->n, &err);
    fail_unless (wavelengths != NULL, "%s", err ? err->message : "");
    rp.kmap = AOOCT_REF_KMAP_TABLE;
    rp.wavelengths = wavelengths;
  } else {
    rp.kmap = AOOCT_REF_KMAP_COEFFS;
    fail_unless (aooct_calib_parse_coeffs (c->coeffs, rp.coeffs,
            &rp.n_coeffs, NULL));
  }
  rp.interp = ref_interp (c->interp);
  rp.disp = AOOCT_REF_DISP_COEFFS;
  rp.a2 = a2;
  rp.a3 = a3;
  rp.window = ref_window (c->window);
  fail_unless (aooct_ref_grid (&rp, &grid, &err));
  fail_unless (aooct_ref_crop (&rp, &grid, &crop_start, &crop_end, &err));
  rows = (crop_end - crop_start) * c->bscans;

  for (r = raws, i = imgs; r && i; r = r->next, i = i->next, frame++) {
    guint16 *raw = aooct_test_raw_frame (r->data, c->n, c->m * c->bscans);
    GstVideoInfo vinfo;
    GstVideoFrame vf;
    gsize ref_stride = (gsize) c->m;
    guint8 *ref = g_malloc (ref_stride * rows);
    gint y, x, worst = 0, differ = 0;

    fail_unless (aooct_ref_process (&rp, raw, ref, ref_stride, &err), "%s",
        err ? err->message : "");
    fail_unless (gst_video_info_from_caps (&vinfo,
            gst_sample_get_caps (i->data)));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), c->m);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), rows);
    fail_unless (gst_video_frame_map (&vf, &vinfo,
            gst_sample_get_buffer (i->data), GST_MAP_READ));
    for (y = 0; y < rows; y++) {
      const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0);
      for (x = 0; x < c->m; x++) {
        gint d = ABS ((gint) row[x] - (gint) ref[y * ref_stride + x]);

        worst = MAX (worst, d);
        differ += d != 0;
        if (d > 1)
          fail ("case %s frame %d pixel (row %d, A-line %d): %d, float64 "
              "reference %d", c->name, frame, y, x, row[x],
              ref[y * ref_stride + x]);
      }
    }
    gst_video_frame_unmap (&vf);
    g_print ("%-34s frame %d: %5d of %6d pixels differ from the float64 "
        "reference, by at most %d\n", c->name, frame, differ, rows * c->m,
        worst);
    g_free (ref);
    g_free (raw);
  }

  g_list_free_full (raws, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (imgs, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_unlink (cal);
  g_free (cal);
  g_free (wavelengths);
  g_free (launch);
  g_free (pad);
  g_free (kmap);
}

GST_START_TEST (test_kspace_vs_reference)
{
  run_case (&cases[__i__]);
}

GST_END_TEST;

/* ---- nufft against the exact sum ---------------------------------------- */

/* Relative error sqrt(sum |X - X_exact|^2 / sum |X_exact|^2) over @alines
 * random complex spectra, of the CPU core (float32) against the sum in
 * double. */
static gdouble
nufft_error (AooctGeometry * g, const gdouble * pos, gint kernel, gdouble r,
    gint w)
{
  const gint p = g->samples, j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g), nd = j1 - j0 + 1;
  const gint alines = 4;
  AooctCpuNonuniformPlan *nu;
  GRand *rand = g_rand_new_with_seed (1234);
  gfloat *in = g_new0 (gfloat, 2 * (gsize) p * alines);
  gfloat *out = g_new0 (gfloat, 2 * (gsize) p * alines);
  gdouble num = 0, den = 0;
  GError *err = NULL;
  gint a, m, j;

  g->k_sampling = AOOCT_K_SAMPLING_NUFFT;
  g->nufft_kernel = kernel;
  g->nufft_oversampling = r;
  g->nufft_width = w;
  for (a = 0; a < alines; a++)
    for (j = j0; j <= j1; j++) {
      in[2 * ((gsize) a * p + j)] = g_rand_double_range (rand, -1, 1);
      in[2 * ((gsize) a * p + j) + 1] = g_rand_double_range (rand, -1, 1);
    }
  nu = aooct_cpu_nonuniform_plan_new (g, pos, 1, &err);
  fail_unless (nu != NULL, "%s", err ? err->message : "");
  aooct_cpu_nonuniform_execute (nu, in, TRUE, NULL, out, alines);
  for (a = 0; a < alines; a++)
    for (m = 0; m < p; m++) {
      gdouble re = 0, im = 0;

      for (j = 0; j < nd; j++) {
        gdouble ph = -2 * G_PI * fmod ((gdouble) m * pos[j], p) / p;
        gdouble cr = in[2 * ((gsize) a * p + j0 + j)];
        gdouble ci = in[2 * ((gsize) a * p + j0 + j) + 1];

        re += cr * cos (ph) - ci * sin (ph);
        im += cr * sin (ph) + ci * cos (ph);
      }
      num += pow (out[2 * ((gsize) a * p + m)] - re, 2)
          + pow (out[2 * ((gsize) a * p + m) + 1] - im, 2);
      den += re * re + im * im;
    }
  aooct_cpu_nonuniform_plan_free (nu);
  g_rand_free (rand);
  g_free (in);
  g_free (out);
  return sqrt (num / den);
}

GST_START_TEST (test_nufft_error_table)
{
  static const gint widths[] = { 3, 4, 6, 8, 12, 16 };
  static const gdouble ratios[] = { 1.25, 1.5, 2.0 };
  gdouble err_tab[2][G_N_ELEMENTS (ratios)][G_N_ELEMENTS (widths)];
  AooctWavelength *cal;
  AooctGeometry g;
  gdouble *pos;
  gint k, ri, wi;

  if (!g_str_equal (aooct_test_backend, "cpu"))
    return;
  /* no padding, a strongly non-linear calibration: positions far from
   * the even grid */
  aooct_test_geometry (&g, 512, 4, 1, 0, 0);
  cal = aooct_wavelength_new_from_coeffs (COEFFS_NONLINEAR, 512, NULL);
  fail_unless (cal != NULL);
  pos = aooct_kspace_positions_new (cal, &g, NULL);
  fail_unless (pos != NULL);

  g_print ("\nnufft relative error against the exact sum (float32 CPU core, "
      "N = P2 = 512, non-linear calibration)\n\n"
      "| kernel | R | W=3 | W=4 | W=6 | W=8 | W=12 | W=16 |\n"
      "|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < 2; k++)
    for (ri = 0; ri < (gint) G_N_ELEMENTS (ratios); ri++) {
      g_print ("| %s | %g |", k ? "gaussian" : "kaiser-bessel", ratios[ri]);
      for (wi = 0; wi < (gint) G_N_ELEMENTS (widths); wi++) {
        err_tab[k][ri][wi] = nufft_error (&g, pos, k, ratios[ri], widths[wi]);
        g_print (" %.1e |", err_tab[k][ri][wi]);
      }
      g_print ("\n");
    }
  /* literature (Beatty et al. 2005; Fessler & Sutton 2003): Kaiser-Bessel,
   * R = 2: about 4e-3 at W = 3 and 5e-6 at W = 6 (float32 arithmetic
   * adds about 1e-6) */
  fail_unless (err_tab[0][2][0] < 1.2e-2 && err_tab[0][2][0] > 4e-4,
      "KB R=2 W=3: %g", err_tab[0][2][0]);
  fail_unless (err_tab[0][2][2] < 2e-5, "KB R=2 W=6: %g", err_tab[0][2][2]);
  /* the error falls with W over the spec's grid W = 3..8 (until float32
   * rounding, about 1e-6), for both kernels.  (Beyond, with R = 1.25 the
   * kernel spans so many decades that float32 rounding, amplified by the
   * deapodisation, grows again: printed, not asserted.) */
  for (k = 0; k < 2; k++)
    for (ri = 0; ri < (gint) G_N_ELEMENTS (ratios); ri++)
      for (wi = 1; wi < 4; wi++)
        fail_unless (err_tab[k][ri][wi] < err_tab[k][ri][wi - 1]
            || err_tab[k][ri][wi] < 1e-5, "%s R=%g: W=%d gives %g, W=%d %g",
            k ? "gaussian" : "kaiser-bessel", ratios[ri], widths[wi],
            err_tab[k][ri][wi], widths[wi - 1], err_tab[k][ri][wi - 1]);
  /* a Gaussian needs about twice the width of Kaiser-Bessel: at W = 6 it
   * is much worse, at 2 W = 12 as good as Kaiser-Bessel at 6 (within a
   * factor 10) */
  fail_unless (err_tab[1][2][2] > 10 * err_tab[0][2][2],
      "gaussian W=6 %g vs KB %g", err_tab[1][2][2], err_tab[0][2][2]);
  fail_unless (err_tab[1][2][4] < 10 * MAX (err_tab[0][2][2], 1e-6),
      "gaussian W=12 %g vs KB W=6 %g", err_tab[1][2][4], err_tab[0][2][2]);
  g_free (pos);
  aooct_wavelength_free (cal);
}

GST_END_TEST;

/* ---- physics: a mirror swept over depth ----------------------------------- */

static const gchar *modes[] = { "linear", "cubic", "bspline", "lanczos",
  "nudft", "nufft"
};

/* Mean |X|^2 over the A-lines of a mirror B-scan without padding, bins
 * 0 .. N/2 - 1, through the chain with @mode. */
static gdouble *
mirror_psf (const gchar * mode, gint n, gdouble depth_um, gint * len)
{
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=16 seed=7 "
      "phantom=mirror noise=0 mirror-depth=%g mirror-tilt=2 num-buffers=1 "
      "wavelength-coeffs=\"%s\" center-wavelength=%.17g ! aooctdcsub ! "
      "aooctkmap wavelength-coeffs=\"%s\" interpolation=%s ! aooctdisp "
      "a2=%.17g a3=%.17g ! aooctfft ! appsink name=out sync=false "
      "wait-on-eos=false", n, depth_um, COEFFS_NONLINEAR,
      center_of (COEFFS_NONLINEAR, n), COEFFS_NONLINEAR, mode,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3);
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 240);
  GList *out = aooct_test_pull_all (p, "out");
  GstMapInfo map;
  gdouble *psf = g_new0 (gdouble, n / 2);
  const gfloat *x;
  gint a, b;

  fail_unless_equals_int (g_list_length (out), 1);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (out->data), &map,
          GST_MAP_READ));
  x = (const gfloat *) map.data;
  fail_unless_equals_int (map.size, (gsize) 16 * n * 8);
  for (a = 0; a < 16; a++)
    for (b = 0; b < n / 2; b++)
      psf[b] += (pow (x[2 * ((gsize) a * n + b)], 2)
          + pow (x[2 * ((gsize) a * n + b) + 1], 2)) / 16;
  gst_buffer_unmap (gst_sample_get_buffer (out->data), &map);
  g_list_free_full (out, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (launch);
  *len = n / 2;
  return psf;
}

/* Peak (dB) and the highest side lobe relative to it (dB): the largest
 * value outside the main lobe, which runs from the peak down to the
 * first minimum on each side; bins below 8 (DC residue) are left out. */
static void
psf_measure (const gdouble * psf, gint len, gdouble * peak_db,
    gdouble * psl_db, gint * peak_bin)
{
  gint b, pk = 8, lo, hi;
  gdouble side = 0;

  for (b = 8; b < len; b++)
    if (psf[b] > psf[pk])
      pk = b;
  for (lo = pk; lo > 8 && psf[lo - 1] < psf[lo]; lo--);
  for (hi = pk; hi < len - 1 && psf[hi + 1] < psf[hi]; hi++);
  for (b = 8; b < len; b++)
    if ((b < lo || b > hi) && psf[b] > side)
      side = psf[b];
  *peak_db = 10 * log10 (psf[pk]);
  *psl_db = 10 * log10 (MAX (side, 1e-30) / psf[pk]);
  *peak_bin = pk;
}

GST_START_TEST (test_swept_mirror)
{
  /* N = 1024 pixels of the non-linear spectrometer (820 to 1016 nm), no
   * padding: about 2.1 um per depth bin, the sampling limit (bin 512) at
   * 1088 um; depths in um.  (Beyond about 850 um the sparsest part of
   * this strongly non-linear spectrum is sampled below its own Nyquist
   * rate, and every mode, NUDFT included, shows aliasing side lobes.) */
  static const gdouble depths[] = { 150, 300, 450, 600, 800 };
  const gint n = 1024;
  gdouble peak[G_N_ELEMENTS (modes)][G_N_ELEMENTS (depths)];
  gdouble psl[G_N_ELEMENTS (modes)][G_N_ELEMENTS (depths)];
  const gchar *dir = g_getenv ("AOOCT_KSPACE_PSF_DIR");
  gint mi, di, d = G_N_ELEMENTS (depths) - 1;

  g_print ("\nswept mirror, N = %d, no aooctpad, non-linear calibration: "
      "peak side-lobe level (dB below the peak) / peak height (dB, relative "
      "to nudft at the first depth)\n\n| mode |", n);
  for (di = 0; di < (gint) G_N_ELEMENTS (depths); di++)
    g_print (" %g um |", depths[di]);
  g_print ("\n|---|---|---|---|---|---|\n");
  for (mi = 0; mi < (gint) G_N_ELEMENTS (modes); mi++)
    for (di = 0; di < (gint) G_N_ELEMENTS (depths); di++) {
      gint len, bin;
      gdouble *psf = mirror_psf (modes[mi], n, depths[di], &len);

      psf_measure (psf, len, &peak[mi][di], &psl[mi][di], &bin);
      if (dir) {
        /* the PSF per mode and depth, for scripts/gen/gen-kspace-plot.sh */
        gchar *path = g_strdup_printf ("%s/psf-%s-%g.txt", dir, modes[mi],
            depths[di]);
        FILE *f = fopen (path, "w");
        gint b;

        fail_unless (f != NULL, "%s", path);
        for (b = 0; b < len; b++)
          fprintf (f, "%d %.9g\n", b, 10 * log10 (MAX (psf[b], 1e-30)));
        fclose (f);
        g_free (path);
      }
      g_free (psf);
    }
  for (mi = 0; mi < (gint) G_N_ELEMENTS (modes); mi++) {
    g_print ("| %s |", modes[mi]);
    for (di = 0; di < (gint) G_N_ELEMENTS (depths); di++)
      g_print (" %.1f / %+.2f |", psl[mi][di], peak[mi][di] - peak[4][0]);
    g_print ("\n");
  }
  /* the seeds' ordering at every depth: linear has the highest side
   * lobes, NUDFT and NUFFT the lowest (within 1 dB: near the surface every
   * mode reaches the floor of the source spectrum's own side lobes, about
   * -65 dB), NUFFT within 0.5 dB of NUDFT */
  for (di = 0; di < (gint) G_N_ELEMENTS (depths); di++) {
    for (mi = 1; mi < (gint) G_N_ELEMENTS (modes); mi++)
      fail_unless (psl[0][di] > psl[mi][di], "depth %g: linear %.1f dB vs "
          "%s %.1f dB", depths[di], psl[0][di], modes[mi], psl[mi][di]);
    for (mi = 0; mi < 4; mi++)
      fail_unless (psl[4][di] <= psl[mi][di] + 1.0
          && psl[5][di] <= psl[mi][di] + 1.0, "depth %g: %s %.1f dB vs "
          "nudft %.1f, nufft %.1f", depths[di], modes[mi], psl[mi][di],
          psl[4][di], psl[5][di]);
    fail_unless (fabs (psl[5][di] - psl[4][di]) < 0.5, "depth %g: nufft "
        "%.2f dB vs nudft %.2f dB", depths[di], psl[5][di], psl[4][di]);
    fail_unless (fabs (peak[5][di] - peak[4][di]) < 0.5);
  }
  /* linear interpolation loses peak height at depth (faster roll-off);
   * NUDFT does not */
  fail_unless (peak[4][d] - peak[0][d] > 2.0, "roll-off: nudft %.2f dB, "
      "linear %.2f dB", peak[4][d], peak[0][d]);
  fail_unless (fabs (peak[4][d] - peak[4][0]) < 1.0);
}

GST_END_TEST;

/* ---- errors, and elements alone -------------------------------------- */

GST_START_TEST (test_kspace_errors)
{
  gchar *phase = aooct_test_write_temp ("0\n");
  gchar *launch, *msg;

  /* a phase file is given on the even-k grid */
  launch = g_strdup_printf ("aooctsrc samples=64 alines=8 num-buffers=1 "
      "center-wavelength=790 ! aooctdcsub ! aooctkmap wavelength-coeffs=\"%s\" interpolation=nudft ! "
      "aooctdisp phase-file=%s ! aooctfft ! fakesink", COEFFS_NONLINEAR, phase);
  msg = aooct_test_run_pipeline (launch, 60);
  fail_unless (msg && strstr (msg, "phase-file") && strstr (msg, "nudft"),
      "%s", GST_STR_NULL (msg));
  g_free (msg);
  g_free (launch);
  /* R * P2 must be whole */
  msg = aooct_test_run_pipeline ("aooctsrc samples=65 alines=8 num-buffers=1 "
      "center-wavelength=790 ! aooctdcsub ! aooctkmap wavelength-coeffs=\"800,0.1\" "
      "interpolation=nufft nufft-oversampling=1.25 ! aooctfft ! fakesink", 60);
  fail_unless (msg && strstr (msg, "nufft-oversampling"), "%s",
      GST_STR_NULL (msg));
  g_free (msg);
  g_unlink (phase);
  g_free (phase);
}

GST_END_TEST;

/* aooctkmap in nudft mode alone: its output is the spectra where they lie
 * (margins 0) with their positions in the caps */
GST_START_TEST (test_kmap_nudft_alone)
{
  GstElement *p =
      aooct_test_run_to_eos ("aooctsrc samples=100 alines=4 num-buffers=1 "
      "seed=3 wavelength-coeffs=\"800,0.1,1e-4\" center-wavelength=806 ! "
      "aooctdcsub ! tee name=t t. ! queue ! aooctkmap "
      "wavelength-coeffs=\"800,0.1,1e-4\" interpolation=nudft ! appsink "
      "name=k sync=false wait-on-eos=false t. ! queue ! appsink name=d "
      "sync=false wait-on-eos=false", aooct_test_backend, 240);
  GList *k = aooct_test_pull_all (p, "k"), *d = aooct_test_pull_all (p, "d");
  GstStructure *s;
  AooctGeometry g;
  GstMapInfo mk, md;
  gdouble *pos;
  GError *err = NULL;

  fail_unless_equals_int (g_list_length (k), 1);
  s = gst_caps_get_structure (gst_sample_get_caps (k->data), 0);
  fail_unless (aooct_structure_to_geometry (s, &g, &err));
  fail_unless_equals_int (g.k_sampling, AOOCT_K_SAMPLING_NUDFT);
  pos = aooct_structure_get_positions (s, &g, &err);
  fail_unless (pos != NULL, "%s", err ? err->message : "");
  fail_unless (pos[0] == 0 && pos[99] == 99 && pos[50] != 50);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (k->data), &mk,
          GST_MAP_READ));
  fail_unless (gst_buffer_map (gst_sample_get_buffer (d->data), &md,
          GST_MAP_READ));
  fail_unless_equals_int (mk.size, md.size);
  fail_unless (memcmp (mk.data, md.data, mk.size) == 0);
  gst_buffer_unmap (gst_sample_get_buffer (k->data), &mk);
  gst_buffer_unmap (gst_sample_get_buffer (d->data), &md);
  g_free (pos);
  g_list_free_full (k, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (d, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

GST_END_TEST;

/* k-positions in the caps are checked: count, order, range; caps that
 * announce non-uniform samples without them are refused with a reason */
GST_START_TEST (test_positions_caps)
{
  AooctGeometry g;
  GstCaps *caps;
  gdouble pos[64], *got;
  GError *err = NULL;
  gint j;

  aooct_test_geometry (&g, 64, 4, 1, 0, 0);
  g.k_sampling = AOOCT_K_SAMPLING_NUDFT;
  for (j = 0; j < 64; j++)
    pos[j] = j + 0.25 * sin (j);
  pos[0] = 0;
  pos[63] = 63;
  caps = aooct_geometry_to_caps (&g);
  aooct_caps_set_positions (caps, pos, 64);
  got = aooct_structure_get_positions (gst_caps_get_structure (caps, 0), &g,
      &err);
  fail_unless (got != NULL && memcmp (got, pos, sizeof (pos)) == 0);
  g_free (got);
  gst_caps_unref (caps);
  /* too few */
  caps = aooct_geometry_to_caps (&g);
  aooct_caps_set_positions (caps, pos, 63);
  fail_if (aooct_structure_get_positions (gst_caps_get_structure (caps, 0),
          &g, &err));
  fail_unless (strstr (err->message, "doubles") != NULL, "%s", err->message);
  g_clear_error (&err);
  gst_caps_unref (caps);
  /* not increasing */
  pos[10] = pos[9];
  caps = aooct_geometry_to_caps (&g);
  aooct_caps_set_positions (caps, pos, 64);
  fail_if (aooct_structure_get_positions (gst_caps_get_structure (caps, 0),
          &g, &err));
  fail_unless (strstr (err->message, "increasing") != NULL, "%s", err->message);
  g_clear_error (&err);
  gst_caps_unref (caps);
  /* none: aooctdisp says what is missing */
  {
    gchar *launch =
        g_strdup_printf ("aooctdisp backend=%s", aooct_test_backend);

    aooct_test_expect_error (launch, aooct_geometry_to_caps (&g),
        "k-positions", NULL);
    g_free (launch);
  }
}

GST_END_TEST;

/* aooctbin passes the modes on to its aooctkmap (the caps with the
 * positions flow between its children) */
GST_START_TEST (test_bin_nufft)
{
  gchar *launch = g_strdup_printf ("aooctsrc num-buffers=2 samples=300 "
      "alines=16 wavelength-coeffs=\"%s\" center-wavelength=%.17g ! "
      "aooctbin backend=%s wavelength-coeffs=\"%s\" interpolation=nufft "
      "a2=8 a3=-2 window=hann ! appsink name=out sync=false "
      "wait-on-eos=false", COEFFS_NONLINEAR, center_of (COEFFS_NONLINEAR,
          300), aooct_test_backend, COEFFS_NONLINEAR);
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 240);
  GList *out = aooct_test_pull_all (p, "out");

  fail_unless_equals_int (g_list_length (out), 2);
  g_list_free_full (out, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (launch);
}

GST_END_TEST;

static void
add_kspace_tests (TCase * tc, gboolean cuda)
{
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_kspace_vs_reference, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_nufft_error_table);
  tcase_add_test (tc, test_swept_mirror);
  tcase_add_test (tc, test_kspace_errors);
  tcase_add_test (tc, test_kmap_nudft_alone);
  tcase_add_test (tc, test_bin_nufft);
  tcase_add_test (tc, test_positions_caps);
}

static Suite *
kspace_suite (void)
{
  return aooct_test_suite_per_backend ("aooct-kspace", add_kspace_tests);
}

GST_CHECK_MAIN (kspace);
