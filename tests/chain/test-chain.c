/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the whole chain, aooctsrc ! ... ! aooctnorm, built with
 * gst_parse_launch, against the float64 reference of the spec on every
 * pixel; the mirror at its expected depth; dispersion compensation giving
 * back the dispersion-free PSF; and chain-level errors. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-test-pipeline.h"
#include "aooct-ref64.h"
#include "aooct-synth.h"
#include "aooct-calib.h"
#include "aooct-textfile.h"
#include "aooct-caps.h"
#include "aooct-cuda-test-util.h"


typedef struct
{
  const gchar *name;
  gint n, m, bscans;            /* B-scans per frame (dcsub alines-per-bscan) */
  gint frames;
  const gchar *phantom;
  gboolean pad;
  gint pad_size, factor;
  gboolean kmap_file;           /* calibration file (else coefficients) */
  gboolean disp;                /* compensate the source's dispersion */
  const gchar *window;
  gboolean log;
  gdouble dynamic_range;
  gint bits;
} ChainCase;

static const ChainCase cases[] = {
  {"thesis-log", 832, 240, 1, 3, "retina", TRUE, 2048, 2, FALSE, TRUE,
      "none", TRUE, 60, 8},
  {"thesis-linear", 832, 240, 1, 2, "retina", TRUE, 2048, 2, TRUE, TRUE,
      "none", FALSE, 60, 8},
  {"odd-width-hann", 1500, 64, 1, 2, "retina", TRUE, 0, 2, TRUE, TRUE,
      "hann", TRUE, 50, 8},
  {"nopad-linear-tukey", 1024, 96, 1, 2, "mirror", FALSE, 0, 1, FALSE, TRUE,
      "tukey window-parameter=0.3", FALSE, 60, 8},
  /* dynamic-range 0 (lo = the B-scan's minimum dB) is left out on purpose:
   * that minimum sits in float32 round-off noise, so the spec's accuracy
   * bound covers linear mode and log mode with the default range only */
  {"stacked-bscans", 832, 40, 3, 2, "retina", TRUE, 0, 4, FALSE, TRUE,
      "gaussian", TRUE, 60, 8},
  {"gray16-log", 832, 120, 1, 2, "retina", TRUE, 2048, 2, TRUE, FALSE,
      "blackman", TRUE, 60, 16},
  {"kaiser-log", 832, 120, 1, 2, "retina", TRUE, 2048, 2, TRUE, FALSE,
      "kaiser", TRUE, 60, 8},
  {"2048x1000-log", 2048, 1000, 1, 1, "retina", TRUE, 2048, 2, FALSE, TRUE,
      "none", TRUE, 60, 8},
};




static void
run_case (const ChainCase * c)
{
  gchar *cal = aooct_test_write_temp ("");
  gchar *pad = c->pad ? g_strdup_printf ("aooctpad size=%d factor=%d ! ",
      c->pad_size, c->factor) : g_strdup ("");
  gchar *kmap = c->kmap_file ?
      g_strdup_printf ("aooctkmap wavelength-file=%s", cal) :
      g_strdup_printf ("aooctkmap wavelength-coeffs=\"%s\"",
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS);
  gdouble a2 = c->disp ? AOOCT_SYNTH_DEFAULT_DISPERSION_A2 : 0;
  gdouble a3 = c->disp ? AOOCT_SYNTH_DEFAULT_DISPERSION_A3 : 0;
  gchar *a2s = g_strdup_printf ("%.17g", a2), *a3s =
      g_strdup_printf ("%.17g", a3);
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=%u "
      "phantom=%s num-buffers=%d calibration-file=%s ! tee name=t "
      "t. ! queue ! appsink name=raw sync=false wait-on-eos=false "
      "t. ! queue ! aooctdcsub alines-per-bscan=%d ! %s%s ! "
      "aooctdisp a2=%s a3=%s ! aooctfft window=%s ! "
      "aooctnorm log=%d dynamic-range=%g ! video/x-raw,format=%s ! "
      "appsink name=img sync=false wait-on-eos=false", c->n, c->m * c->bscans,
      g_random_int (), c->phantom, c->frames, cal, c->m, pad, kmap, a2s, a3s,
      c->window, c->log, c->dynamic_range, c->bits == 8 ? "GRAY8" :
      "GRAY16_LE");
  GstElement *p;
  GList *raws, *imgs, *r, *i;
  AooctRefParams rp;
  AooctRefGrid grid;
  gdouble *wavelengths = NULL;
  GError *err = NULL;
  gint crop_start, crop_end, rows, frame = 0;
  const gint tolerance = c->bits == 8 ? 1 : 257;

  GST_INFO ("case %s: %s", c->name, launch);
  p = aooct_test_run_to_eos (launch, aooct_test_backend, 120);
  raws = aooct_test_pull_all (p, "raw");
  imgs = aooct_test_pull_all (p, "img");
  fail_unless_equals_int (g_list_length (raws), c->frames);
  fail_unless_equals_int (g_list_length (imgs), c->frames);

  aooct_ref_params_init (&rp, c->n, c->m, c->bscans);
  rp.pad = c->pad;
  rp.pad_size = c->pad_size;
  rp.pad_factor = c->factor;
  if (c->kmap_file) {
    wavelengths = aooct_text_read_values (cal, c->n, &err);
    fail_unless (wavelengths != NULL, "%s", err ? err->message : "");
    rp.kmap = AOOCT_REF_KMAP_TABLE;
    rp.wavelengths = wavelengths;
  } else {
    rp.kmap = AOOCT_REF_KMAP_COEFFS;
    fail_unless (aooct_calib_parse_coeffs
        (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, rp.coeffs, &rp.n_coeffs, NULL));
  }
  rp.disp = AOOCT_REF_DISP_COEFFS;
  rp.a2 = a2;
  rp.a3 = a3;
  /* c->window: "NAME" or "NAME window-parameter=P" */
  rp.window = g_str_has_prefix (c->window, "hann") ? AOOCT_REF_WINDOW_HANN :
      g_str_has_prefix (c->window, "blackman") ? AOOCT_REF_WINDOW_BLACKMAN :
      g_str_has_prefix (c->window, "gaussian") ? AOOCT_REF_WINDOW_GAUSSIAN :
      g_str_has_prefix (c->window, "tukey") ? AOOCT_REF_WINDOW_TUKEY :
      g_str_has_prefix (c->window, "kaiser") ? AOOCT_REF_WINDOW_KAISER :
      AOOCT_REF_WINDOW_NONE;
  if (strstr (c->window, "window-parameter="))
    rp.window_parameter = g_ascii_strtod (strstr (c->window,
            "window-parameter=") + 17, NULL);
  rp.log = c->log;
  rp.dynamic_range = c->dynamic_range;
  rp.bits = c->bits;
  fail_unless (aooct_ref_grid (&rp, &grid, &err));
  fail_unless (aooct_ref_crop (&rp, &grid, &crop_start, &crop_end, &err));
  rows = (crop_end - crop_start) * c->bscans;

  for (r = raws, i = imgs; r && i; r = r->next, i = i->next, frame++) {
    guint16 *raw = aooct_test_raw_frame (r->data, c->n, c->m * c->bscans);
    GstVideoInfo vinfo;
    GstVideoFrame vf;
    gsize ref_stride = (gsize) c->m * (c->bits / 8);
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
        gint got, want, d;
        if (c->bits == 8) {
          got = row[x];
          want = ref[y * ref_stride + x];
        } else {
          got = GST_READ_UINT16_LE (row + 2 * x);
          want = ((guint16 *) (ref + y * ref_stride))[x];
        }
        d = ABS (got - want);
        worst = MAX (worst, d);
        differ += d != 0;
        if (d > tolerance)
          fail ("case %s frame %d pixel (row %d, A-line %d): %d, float64 "
              "reference %d", c->name, frame, y, x, got, want);
      }
    }
    gst_video_frame_unmap (&vf);
    g_print ("%s frame %d: %d of %d pixels differ from the float64 "
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
  g_free (a2s);
  g_free (a3s);
}

GST_START_TEST (test_chain_vs_reference)
{
  run_case (&cases[__i__]);
}

GST_END_TEST;

/* Depth profile |X|^2 summed over the A-lines of one B-scan, from the
 * complex output of aooctfft. */
static gdouble *
mirror_profile_calib (const gchar * coeffs, const gchar * dc_mode,
    const gchar * src_props, const gchar * disp_props, gint * p2)
{
  gchar *launch = g_strdup_printf ("aooctsrc phantom=mirror num-buffers=1 "
      "seed=7 noise=0 wavelength-coeffs=\"%s\" %s ! aooctdcsub mode=%s ! "
      "aooctpad size=2048 factor=2 ! aooctkmap wavelength-coeffs=\"%s\" ! "
      "aooctdisp %s ! aooctfft ! appsink name=depth sync=false "
      "wait-on-eos=false", coeffs, src_props, dc_mode, coeffs, disp_props);
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 120);
  GList *s = aooct_test_pull_all (p, "depth");
  GstMapInfo map;
  gdouble *profile;
  gint alines, m, i;
  GstStructure *st;

  fail_unless_equals_int (g_list_length (s), 1);
  st = gst_caps_get_structure (gst_sample_get_caps (s->data), 0);
  fail_unless (gst_structure_get_int (st, "samples", p2));
  fail_unless (gst_structure_get_int (st, "alines", &alines));
  profile = g_new0 (gdouble, *p2);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (s->data), &map,
          GST_MAP_READ));
  for (m = 0; m < alines; m++)
    for (i = 0; i < *p2; i++) {
      const gfloat *c = (const gfloat *) map.data + 2 * ((gsize) m * *p2 + i);
      profile[i] += (gdouble) c[0] * c[0] + (gdouble) c[1] * c[1];
    }
  gst_buffer_unmap (gst_sample_get_buffer (s->data), &map);
  g_list_free_full (s, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (launch);
  return profile;
}

static gdouble *
mirror_profile (const gchar * src_props, const gchar * disp_props, gint * p2)
{
  return mirror_profile_calib (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      "bscan-mean", src_props, disp_props, p2);
}

/* Full width at half maximum of the peak in bins [lo, hi), interpolated. */
static gdouble
fwhm (const gdouble * v, gint lo, gint hi, gint * peak)
{
  gint i, k = lo, a, b;
  gdouble half, left, right;

  for (i = lo; i < hi; i++)
    if (v[i] > v[k])
      k = i;
  half = v[k] / 2;
  for (a = k; a > lo && v[a] > half; a--);
  for (b = k; b < hi - 1 && v[b] > half; b++);
  left = a + (half - v[a]) / (v[a + 1] - v[a]);
  right = b - 1 + (v[b - 1] - half) / (v[b - 1] - v[b]);
  *peak = k;
  return right - left;
}

GST_START_TEST (test_mirror_depth_and_dispersion)
{
  AooctSynthParams sp;
  gint p2, peak_ref, peak_comp, peak_raw;
  gdouble *ref, *comp, *raw, w_ref, w_comp, w_raw, expect;
  gchar *disp = g_strdup_printf ("a2=%g a3=%g",
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3);

  /* no tilt: every A-line at the same depth */
  ref = mirror_profile ("mirror-tilt=0.0001 dispersion-a2=0 dispersion-a3=0",
      "", &p2);
  comp = mirror_profile ("mirror-tilt=0.0001", disp, &p2);
  raw = mirror_profile ("mirror-tilt=0.0001", "", &p2);
  w_ref = fwhm (ref, 20, 1024, &peak_ref);
  w_comp = fwhm (comp, 20, 1024, &peak_comp);
  w_raw = fwhm (raw, 20, 1024, &peak_raw);

  aooct_synth_params_init (&sp);
  expect = aooct_synth_depth_bin (&sp, sp.mirror_depth, 2048);
  g_print ("mirror: expected bin %.2f; dispersion-free peak %d FWHM %.2f "
      "bins; compensated peak %d FWHM %.2f; uncompensated FWHM %.2f\n",
      expect, peak_ref, w_ref, peak_comp, w_comp, w_raw);
  fail_unless (fabs (peak_ref - expect) <= 1.0);
  fail_unless (fabs (peak_comp - expect) <= 1.0);
  fail_unless (fabs (w_comp - w_ref) <= 0.05 * w_ref,
      "compensated PSF %.2f bins vs dispersion-free %.2f", w_comp, w_ref);
  fail_unless (w_raw > 1.5 * w_ref,
      "uncompensated PSF %.2f bins is not wider than %.2f", w_raw, w_ref);
  g_free (ref);
  g_free (comp);
  g_free (raw);
  g_free (disp);
}

GST_END_TEST;

/* The mirror, tilted as aooctsrc does by default, lands on the expected
 * depth bin +-1 in every A-line of the GRAY8 image. */
GST_START_TEST (test_mirror_every_aline)
{
  const gint alines = 64;
  gchar *launch = g_strdup_printf ("aooctsrc phantom=mirror alines=%d "
      "num-buffers=1 seed=3 ! aooctdcsub ! aooctpad ! "
      "aooctkmap wavelength-coeffs=\"%s\" ! aooctdisp a2=%g a3=%g ! "
      "aooctfft ! aooctnorm log=false ! appsink name=img sync=false wait-on-eos=false",
      alines,
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3);
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 120);
  GList *s = aooct_test_pull_all (p, "img");
  AooctSynthParams sp;
  GstVideoInfo vinfo;
  GstVideoFrame vf;
  gint m;

  aooct_synth_params_init (&sp);
  fail_unless_equals_int (g_list_length (s), 1);
  fail_unless (gst_video_info_from_caps (&vinfo,
          gst_sample_get_caps (s->data)));
  fail_unless (gst_video_frame_map (&vf, &vinfo,
          gst_sample_get_buffer (s->data), GST_MAP_READ));
  for (m = 0; m < alines; m++) {
    gdouble x = 2.0 * m / (alines - 1) - 1;
    gdouble z = sp.mirror_depth + 0.5 * sp.mirror_tilt * x;
    gdouble expect = aooct_synth_depth_bin (&sp, z, 2048);
    gint r, best = 20, best_v = -1;
    /* skip the residual DC near bin 0 */
    for (r = 20; r < GST_VIDEO_INFO_HEIGHT (&vinfo); r++) {
      gint v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0))[r *
          GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0) + m];
      if (v > best_v) {
        best_v = v;
        best = r;
      }
    }
    fail_unless (fabs (best - expect) <= 1.0,
        "A-line %d: mirror at row %d, expected %.2f", m, best, expect);
  }
  gst_video_frame_unmap (&vf);
  g_list_free_full (s, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (launch);
}

GST_END_TEST;

/* The depth scale: aooctnorm's "aooct-depth-scale" message and
 * depth-per-row equal lambda0 lambda1 (N - 1) / (2 P1 |lambda1 - lambda0|)
 * (written here from the calibration polynomial, not through
 * aooct_geometry_depth_step()), and a mirror at a known path difference
 * (tilted symmetrically about it, as aooctsrc does by default, so that DC
 * subtraction keeps it) shows up at that depth on average over the
 * A-lines within one row, with and without a crop, for two first FFT
 * sizes. */
static void
depth_scale_case (gdouble mirror_um, gint p1, gint crop_start)
{
  gchar *launch = g_strdup_printf ("aooctsrc phantom=mirror num-buffers=1 "
      "seed=5 mirror-depth=%g ! aooctdcsub ! "
      "aooctpad size=%d ! aooctkmap wavelength-coeffs=\"%s\" ! "
      "aooctdisp a2=%g a3=%g ! aooctfft ! aooctnorm name=norm log=false "
      "crop-start=%d ! appsink name=img sync=false wait-on-eos=false",
      mirror_um, p1, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3,
      crop_start);
  gchar *full = aooct_test_with_backend (launch, aooct_test_backend);
  GstElement *p = gst_parse_launch (full, NULL);
  GstBus *bus = gst_element_get_bus (p);
  GstElement *norm = gst_bin_get_by_name (GST_BIN (p), "norm");
  const GstStructure *st = NULL;
  GstMessage *msg, *scale = NULL;
  GstElement *sink;
  GstSample *img;
  GstVideoInfo vinfo;
  GstVideoFrame vf;
  gdouble c[4], lam0, lam1, expect, um, first_um, prop, row_sum = 0;
  gint n_coeffs, rows, crop, r, m, n = AOOCT_SYNTH_DEFAULT_SAMPLES;

  fail_unless (aooct_calib_parse_coeffs (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
          c, &n_coeffs, NULL));
  lam0 = c[0];
  lam1 = c[0] + c[1] * (n - 1) + c[2] * pow (n - 1, 2) + c[3] * pow (n - 1, 3);
  expect = lam0 * lam1 * (n - 1) / (2.0 * p1 * fabs (lam1 - lam0)) / 1000.0;

  sink = gst_bin_get_by_name (GST_BIN (p), "img");
  gst_element_set_state (p, GST_STATE_PLAYING);
  img = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 60 * GST_SECOND);
  gst_object_unref (sink);
  fail_unless (img != NULL, "%s: no image", full);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    if (gst_message_has_name (msg, "aooct-depth-scale") && scale == NULL)
      scale = gst_message_ref (msg);
    gst_message_unref (msg);
  }
  fail_unless (scale != NULL, "no aooct-depth-scale message");
  fail_unless (GST_MESSAGE_SRC (scale) == GST_OBJECT (norm));
  st = gst_message_get_structure (scale);
  fail_unless (gst_structure_get_double (st, "um-per-row", &um));
  fail_unless (gst_structure_get_double (st, "first-row-um", &first_um));
  fail_unless (gst_structure_get_int (st, "rows", &rows));
  fail_unless (gst_structure_get_int (st, "crop-start", &crop));
  g_object_get (norm, "depth-per-row", &prop, NULL);
  fail_unless (fabs (um - expect) < 1e-12 * expect, "um-per-row %.15g, "
      "expected %.15g", um, expect);
  fail_unless (prop == um);
  fail_unless_equals_int (crop, crop_start);
  fail_unless (fabs (first_um - crop_start * um) < 1e-9);
  fail_unless_equals_int (rows, p1 / 2 - crop_start);

  /* the mirror's row (mean over A-lines of the brightest row) */
  fail_unless (gst_video_info_from_caps (&vinfo, gst_sample_get_caps (img)));
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), rows);
  fail_unless (gst_video_frame_map (&vf, &vinfo, gst_sample_get_buffer (img),
          GST_MAP_READ));
  for (m = 0; m < GST_VIDEO_INFO_WIDTH (&vinfo); m++) {
    gint best = 0, best_v = -1;
    for (r = 20 - MIN (crop_start, 20); r < rows; r++) {
      gint v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, 0))[r *
          GST_VIDEO_FRAME_PLANE_STRIDE (&vf, 0) + m];
      if (v > best_v) {
        best_v = v;
        best = r;
      }
    }
    row_sum += best;
  }
  row_sum /= GST_VIDEO_INFO_WIDTH (&vinfo);
  g_print ("depth scale P1 %d crop %d: %.6f um per row; mirror at %g um "
      "found at row %.2f = %.2f um\n", p1, crop_start, um, mirror_um, row_sum,
      first_um + row_sum * um);
  fail_unless (fabs (first_um + row_sum * um - mirror_um) <= um,
      "mirror at %g um shows at %.2f um (row %.2f of %.4f um)", mirror_um,
      first_um + row_sum * um, row_sum, um);
  gst_video_frame_unmap (&vf);
  gst_sample_unref (img);
  gst_message_unref (scale);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (norm);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_free (full);
  g_free (launch);
}

GST_START_TEST (test_depth_scale)
{
  GstElement *p, *norm;
  gdouble prop = -1;

  depth_scale_case (150, 2048, 0);
  depth_scale_case (400, 2048, 100);
  depth_scale_case (300, 4096, 0);

  /* no calibration upstream: unknown, 0 */
  p = aooct_test_run_to_eos ("aooctsrc num-buffers=1 ! aooctdcsub ! "
      "aooctpad ! aooctfft ! aooctnorm name=norm ! fakesink",
      aooct_test_backend, 120);
  norm = gst_bin_get_by_name (GST_BIN (p), "norm");
  g_object_get (norm, "depth-per-row", &prop, NULL);
  fail_unless (prop == 0);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (norm);
  gst_object_unref (p);
}

GST_END_TEST;

static void
count_notify (GObject * obj, GParamSpec * pspec, gint * count)
{
  (*count)++;
}

/* What the element named "disp" says of itself after the run */
typedef struct
{
  gdouble a2, a3;               /* its properties at EOS */
  gint notify_a2, notify_a3;    /* notify::a2 / a3 emitted */
} DispState;

/* Runs @launch to EOS and returns its "aooct-dispersion" messages (a list
 * of GstStructure copies, in order); with @signal_first, emits
 * re-estimate on "disp" before it starts. */
static GList *
run_collect_dispersion (const gchar * plain_launch, gpointer * signal_first,
    DispState * state)
{
  gchar *launch = aooct_test_with_backend (plain_launch, aooct_test_backend);
  GstElement *p = gst_parse_launch (launch, NULL);
  GstBus *bus;
  GstMessage *msg;
  GList *found = NULL;
  gboolean done = FALSE;

  GstElement *d;

  fail_unless (p != NULL, "%s", launch);
  d = gst_bin_get_by_name (GST_BIN (p), "disp");
  fail_unless (d != NULL);
  memset (state, 0, sizeof (*state));
  g_signal_connect (d, "notify::a2", G_CALLBACK (count_notify),
      &state->notify_a2);
  g_signal_connect (d, "notify::a3", G_CALLBACK (count_notify),
      &state->notify_a3);
  if (signal_first)
    g_signal_emit_by_name (d, "re-estimate");
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (!done) {
    msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    fail_unless (msg != NULL, "timeout: %s", launch);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gst_message_parse_error (msg, &err, NULL);
      fail ("%s: %s", launch, err->message);
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      done = TRUE;
    } else if (gst_message_has_name (msg, "aooct-dispersion")) {
      found = g_list_append (found,
          gst_structure_copy (gst_message_get_structure (msg)));
    }
    gst_message_unref (msg);
  }
  g_object_get (d, "a2", &state->a2, "a3", &state->a3, NULL);
  gst_element_set_state (p, GST_STATE_NULL);
  g_signal_handlers_disconnect_by_func (d, count_notify, &state->notify_a2);
  g_signal_handlers_disconnect_by_func (d, count_notify, &state->notify_a3);
  gst_object_unref (d);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_free (launch);
  return found;
}

/* aooctdisp estimate=true on one B-scan of the synthetic retina with a
 * known dispersion mismatch: the estimate, applied to a mirror seen
 * through the same mismatch, gives a PSF (FWHM) within 10 % of the
 * dispersion-free one; several mismatches, wavelength increasing and
 * decreasing along the pixels.  The PSF is measured on a perpendicular
 * mirror without DC subtraction (which would remove most of it), summed
 * over the A-lines, from depth bin 60 on (clear of the DC term); the
 * coefficients themselves give the same width within 3 %. */
GST_START_TEST (test_dispersion_estimate)
{
  const struct
  {
    gdouble a2, a3;
    const gchar *coeffs;
  } mismatch[] = {
    {8, -2, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS},
    {-20, 6, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS},
    {35, 0, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS},
    {8, -2, "895,-0.13"},
    {-15, -4, "895,-0.13"},
  };
  guint c;
  gint p2, peak;

  for (c = 0; c < G_N_ELEMENTS (mismatch); c++) {
    gchar *src = g_strdup_printf ("dispersion-a2=%g dispersion-a3=%g",
        mismatch[c].a2, mismatch[c].a3);
    gchar *launch = g_strdup_printf ("aooctsrc num-buffers=2 seed=%d "
        "wavelength-coeffs=\"%s\" %s ! aooctdcsub ! aooctpad ! "
        "aooctkmap wavelength-coeffs=\"%s\" ! aooctdisp name=disp "
        "estimate=true ! aooctfft ! aooctnorm ! fakesink", 21 + c,
        mismatch[c].coeffs, src, mismatch[c].coeffs);
    DispState st;
    GList *msgs = run_collect_dispersion (launch, NULL, &st);
    gdouble a2, a3, ms, w_ref, w_est, w_raw;
    gdouble *ref, *est, *raw;
    gchar *mirror_src, *disp;

    /* once per start, not per buffer */
    fail_unless_equals_int (g_list_length (msgs), 1);
    fail_unless (gst_structure_get_double (msgs->data, "a2", &a2));
    fail_unless (gst_structure_get_double (msgs->data, "a3", &a3));
    fail_unless (gst_structure_get_double (msgs->data, "milliseconds", &ms));
    /* the properties hold the estimate, and said so */
    fail_unless (st.a2 == a2 && st.a3 == a3);
    fail_unless (st.notify_a2 == 1 && st.notify_a3 == 1);

    mirror_src = g_strdup_printf ("mirror-tilt=0 %s", src);
    disp = g_strdup_printf ("a2=%.17g a3=%.17g", a2, a3);
    ref = mirror_profile_calib (mismatch[c].coeffs, "none", "mirror-tilt=0 "
        "dispersion-a2=0 dispersion-a3=0", "", &p2);
    est = mirror_profile_calib (mismatch[c].coeffs, "none", mirror_src, disp,
        &p2);
    raw =
        mirror_profile_calib (mismatch[c].coeffs, "none", mirror_src, "", &p2);
    w_ref = fwhm (ref, 60, 1024, &peak);
    w_est = fwhm (est, 60, 1024, &peak);
    w_raw = fwhm (raw, 60, 1024, &peak);
    g_print ("dispersion estimate (%s): camera a2=%g a3=%g (%s): estimated "
        "a2=%.3f a3=%.3f in %.0f ms; mirror FWHM %.3f bins (dispersion-free "
        "%.3f, uncompensated %.3f)\n", aooct_test_backend, mismatch[c].a2,
        mismatch[c].a3, mismatch[c].coeffs, a2, a3, ms, w_est, w_ref, w_raw);
    fail_unless (fabs (w_est - w_ref) <= 0.1 * w_ref,
        "camera a2=%g a3=%g "
        "(%s): estimate a2=%.3f a3=%.3f gives a PSF of %.3f bins, "
        "dispersion-free %.3f", mismatch[c].a2, mismatch[c].a3,
        mismatch[c].coeffs, a2, a3, w_est, w_ref);
    g_list_free_full (msgs, (GDestroyNotify) gst_structure_free);
    g_free (ref);
    g_free (est);
    g_free (raw);
    g_free (mirror_src);
    g_free (disp);
    g_free (src);
    g_free (launch);
  }
}

GST_END_TEST;

/* The action signal re-estimate works without estimate=true, a2/a3 hold
 * the result (notify), and the 2048 x 1000 B-scan's estimate time is
 * printed (the GPU run records it). */
GST_START_TEST (test_dispersion_re_estimate)
{
  gchar *launch = g_strdup_printf ("aooctsrc num-buffers=1 samples=2048 "
      "alines=1000 seed=9 wavelength-coeffs=\"785,0.054\" ! aooctdcsub ! "
      "aooctpad ! aooctkmap wavelength-coeffs=\"785,0.054\" ! "
      "aooctdisp name=disp ! aooctfft ! aooctnorm ! fakesink");
  gpointer yes = GINT_TO_POINTER (1);
  DispState st;
  GList *msgs = run_collect_dispersion (launch, &yes, &st);
  gdouble a2, a3, ms;

  fail_unless_equals_int (g_list_length (msgs), 1);
  fail_unless (gst_structure_get_double (msgs->data, "a2", &a2));
  fail_unless (gst_structure_get_double (msgs->data, "a3", &a3));
  fail_unless (gst_structure_get_double (msgs->data, "milliseconds", &ms));
  g_print ("dispersion estimate (%s), 2048 x 1000 B-scan: a2=%.3f a3=%.3f "
      "(camera 8, -2) in %.0f ms\n", aooct_test_backend, a2, a3, ms);
  fail_unless (fabs (a2 - AOOCT_SYNTH_DEFAULT_DISPERSION_A2) < 1.0
      && fabs (a3 - AOOCT_SYNTH_DEFAULT_DISPERSION_A3) < 1.0);
  fail_unless (st.a2 == a2 && st.a3 == a3 && st.notify_a2 == 1);
  g_list_free_full (msgs, (GDestroyNotify) gst_structure_free);
  g_free (launch);
}

GST_END_TEST;

/* Timestamps and durations of every input B-scan reach the image. */
GST_START_TEST (test_timestamps_preserved)
{
  gchar *launch = g_strdup_printf ("aooctsrc alines=32 num-buffers=5 "
      "framerate=250/1 ! tee name=t t. ! queue ! appsink name=raw sync=false wait-on-eos=false "
      "t. ! queue ! aooctdcsub ! aooctpad ! aooctkmap "
      "wavelength-coeffs=\"%s\" ! aooctdisp ! aooctfft ! aooctnorm ! "
      "appsink name=img sync=false wait-on-eos=false",
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS);
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 120);
  GList *raws = aooct_test_pull_all (p, "raw"), *imgs =
      aooct_test_pull_all (p, "img"), *a, *b;
  gint fps_n, fps_d;

  fail_unless_equals_int (g_list_length (imgs), 5);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure
          (gst_sample_get_caps (imgs->data), 0), "framerate", &fps_n, &fps_d));
  fail_unless_equals_int (fps_n, 250);
  fail_unless_equals_int (fps_d, 1);
  for (a = raws, b = imgs; a && b; a = a->next, b = b->next) {
    GstBuffer *x = gst_sample_get_buffer (a->data);
    GstBuffer *y = gst_sample_get_buffer (b->data);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (x), GST_BUFFER_PTS (y));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (x),
        GST_BUFFER_DURATION (y));
  }
  g_list_free_full (raws, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (imgs, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (launch);
}

GST_END_TEST;

/* Mis-built chains stop with an element error that says what is wrong. */
GST_START_TEST (test_chain_errors)
{
  struct
  {
    const gchar *chain;
    const gchar *element, *what;
  } bad[] = {
    {"aooctdcsub ! aooctnorm", "aooctnorm", "depth"},
    {"aooctdcsub ! aooctpad ! aooctpad", "aooctpad", "un-padded"},
    {"aooctdcsub ! aooctfft ! aooctfft", "aooctfft", "spectral"},
    {"aooctdcsub ! aooctkmap", "aooctkmap", "wavelength"},
    {"aooctdcsub ! aooctkmap wavelength-coeffs=\"900,-2\"", "aooctkmap",
        "wavelength-coeffs"},
    {"aooctdcsub ! aooctpad size=1000", "aooctpad", "size=1000"},
    {"aooctdcsub ! aooctfft ! aooctnorm crop-start=500 crop-end=400",
        "aooctnorm", "crop"},
    {"aooctdcsub ! aooctdisp phase-file=/nonexistent/phase.txt",
        "aooctdisp", "/nonexistent/phase.txt"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *launch = g_strdup_printf ("aooctsrc num-buffers=2 alines=16 ! %s ! "
        "fakesink", bad[i].chain);
    gchar *full = aooct_test_with_backend (launch, aooct_test_backend);
    gchar *msg = aooct_test_run_pipeline (full, 30);

    fail_unless (msg != NULL, "'%s' did not fail", launch);
    fail_unless (strstr (msg, bad[i].what) != NULL,
        "'%s' failed with '%s', which does not mention '%s'", launch, msg,
        bad[i].what);
    fail_unless (g_str_has_prefix (msg, bad[i].element),
        "'%s': error from '%s', expected %s", launch, msg, bad[i].element);
    g_free (msg);
    g_free (full);
    g_free (launch);
  }
}

GST_END_TEST;

/* Every processing element refuses a buffer shorter or longer than its caps
 * say, with an error naming the sizes, and outputs nothing for it. */
GST_START_TEST (test_wrong_size_buffers)
{
  struct
  {
    const gchar *launch;
    AooctDomain domain;
    AooctSampleType type;
  } elements[] = {
    {"aooctpad", AOOCT_DOMAIN_SPECTRAL, AOOCT_SAMPLE_REAL},
    {"aooctkmap wavelength-coeffs=\"800,0.1\"", AOOCT_DOMAIN_SPECTRAL,
        AOOCT_SAMPLE_REAL},
    {"aooctdisp a2=1", AOOCT_DOMAIN_SPECTRAL, AOOCT_SAMPLE_REAL},
    {"aooctfft", AOOCT_DOMAIN_SPECTRAL, AOOCT_SAMPLE_COMPLEX},
    {"aooctnorm", AOOCT_DOMAIN_DEPTH, AOOCT_SAMPLE_COMPLEX},
  };
  guint e, k;

  for (e = 0; e < G_N_ELEMENTS (elements); e++)
    for (k = 0; k < 2; k++) {
      gchar *launch =
          aooct_test_with_backend (elements[e].launch, aooct_test_backend);
      GstHarness *h = aooct_test_harness_new (launch);
      AooctGeometry g;
      gsize bytes;

      aooct_test_geometry (&g, 64, 8, 2, 0, 0);
      g.domain = elements[e].domain;
      g.sample_type = elements[e].type;
      bytes = aooct_geometry_buffer_bytes (&g);
      aooct_test_push_expect_error (h, aooct_geometry_to_caps (&g),
          k == 0 ? bytes - 4 : bytes + 8, "bytes", k == 0 ? "too short" :
          "too long", NULL);
      gst_harness_teardown (h);
      g_free (launch);
    }
}

GST_END_TEST;

static void
add_chain_tests (TCase * tc, gboolean cuda)
{
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_chain_vs_reference, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_mirror_depth_and_dispersion);
  tcase_add_test (tc, test_mirror_every_aline);
  tcase_add_test (tc, test_depth_scale);
  tcase_add_test (tc, test_dispersion_estimate);
  tcase_add_test (tc, test_dispersion_re_estimate);
  tcase_add_test (tc, test_timestamps_preserved);
  tcase_add_test (tc, test_chain_errors);
  tcase_add_test (tc, test_wrong_size_buffers);
  /* and the chain on CUDA against the chain on the CPU: test-chain-cuda.c */
  if (cuda)
    aooct_test_add_cuda_tests (tc);
}

static Suite *
chain_suite (void)
{
  return aooct_test_suite_per_backend ("aooct-chain", add_chain_tests);
}

GST_CHECK_MAIN (chain);
