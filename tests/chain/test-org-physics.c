/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the physics of spec section 13's layers and aooctorg on the
 * synthetic camera's photoreceptors (aooctsrc phantom=photoreceptors),
 * through the whole chain on the backend of the tcase:
 *
 *   the ORG trace follows the set stimulus response (a contraction of
 *   40 nm, then an elongation towards 150 nm) within 5 nm RMS, with bulk
 *   axial motion of the retina of +-3 um and a curved retina, elongation
 *   positive; the noise floor (the standard deviation of the trace over
 *   the baseline) is printed and below 3 nm; the same with a retina ten
 *   times weaker in five times the noise; on a camera whose wavelength
 *   decreases along the pixels the trace keeps its sign;
 *   the layer en-face of a moving, curved retina is flat where the fixed
 *   crop of the same thickness is not (the standard deviation of its rows'
 *   mean grey levels, and the difference between its middle and outer
 *   columns, below a third of the crop's).
 *
 * (test-org checks the elements against the float64 reference.) */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-test-pipeline.h"
#include "aooct-test-vessel.h"
#include "aooct-cuda-test-util.h"
#include "aooct-synth.h"

#define P1 2048
#define ALINES 96
#define BSCANS 100
#define STIMULUS 20
#define BASELINE 15

/* the layer windows in bins from the phantom's geometry */
typedef struct
{
  gint isos, search_start, search_end, second_min, second_max;
} Windows;

static void
windows_of (const AooctSynthParams * p, Windows * w)
{
  const gdouble bpu = aooct_synth_depth_bin (p, 1.0, P1);
  const gdouble spread = fabs (p->org.bulk_amplitude) + fabs (p->org.curvature);

  w->isos = (gint) floor (p->org.depth * bpu + 0.5);
  /* IS/OS wherever motion and curvature take it, COST outside */
  w->search_start = (gint) floor ((p->org.depth - 6 - spread) * bpu);
  w->search_end = (gint) ceil ((p->org.depth + 6 + spread) * bpu);
  w->second_min = (gint) floor ((p->org.separation - 8) * bpu);
  w->second_max = (gint) ceil ((p->org.separation + 6) * bpu);
}

static gchar *
src_props (const AooctSynthParams * p)
{
  return g_strdup_printf ("aooctsrc num-buffers=%d seed=%u alines=%d "
      "phantom=photoreceptors wavelength-coeffs=\"%.17g,%.17g,%.17g,%.17g\" "
      "org-curvature=%.17g org-bulk-amplitude=%.17g org-bulk-period=%.17g "
      "org-stimulus=%d org-rpe=%.17g noise=%.17g reflectivity=%.17g",
      BSCANS, p->seed, p->alines,
      p->coeffs[0], p->coeffs[1], p->coeffs[2], p->coeffs[3],
      p->org.curvature, p->org.bulk_amplitude, p->org.bulk_period,
      p->org.stimulus, p->org.rpe, p->noise, p->reflectivity);
}

/* Runs @launch to EOS on the tcase's backend; the "aooct-org" traces'
 * means in @mean (BSCANS), NaN where none came */
static void
run_to_eos (const gchar * plain, gdouble * mean, gint * valid)
{
  gchar *launch = aooct_test_with_backend (plain, aooct_test_backend);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &err);
  GstBus *bus;
  gboolean eos = FALSE;
  gint i;

  fail_unless (pipeline != NULL, "%s: %s", launch, err ? err->message : "");
  for (i = 0; mean && i < BSCANS; i++)
    mean[i] = NAN;
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!eos) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 200 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    const GstStructure *st;
    gint64 b;

    fail_unless (msg != NULL, "timeout: %s", launch);
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &err, NULL);
        fail ("%s: %s", launch, err->message);
        break;
      case GST_MESSAGE_EOS:
        eos = TRUE;
        break;
      default:
        st = gst_message_get_structure (msg);
        if (mean && gst_structure_has_name (st, "aooct-org")
            && gst_structure_get_int64 (st, "bscan", &b) && b >= 0
            && b < BSCANS) {
          fail_unless (gst_structure_get_double (st, "mean", &mean[b]));
          fail_unless (gst_structure_get_int (st, "valid", &valid[b]));
        }
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (launch);
}

static void
check_trace (const gchar * coeffs, gdouble bulk, gdouble curvature,
    gdouble noise, gdouble reflectivity)
{
  AooctSynthParams p;
  Windows w;
  gchar *bg, *src, *plain;
  gdouble mean[BSCANS], lambda0, err2 = 0, base = 0, base2 = 0, floor_nm;
  gint valid[BSCANS], b;

  aooct_synth_params_init (&p);
  aooct_calib_parse_coeffs (coeffs, p.coeffs, &p.n_coeffs, NULL);
  for (b = p.n_coeffs; b < 4; b++)
    p.coeffs[b] = 0;
  p.seed = 7;
  p.alines = ALINES;
  p.org.bulk_amplitude = bulk;
  p.org.bulk_period = 37;
  p.org.curvature = curvature;
  p.org.stimulus = STIMULUS;
  p.noise = noise;
  p.reflectivity = reflectivity;
  lambda0 = aooct_synth_flow_wavelength (&p);
  windows_of (&p, &w);
  bg = aooct_test_synth_background_file (&p);
  src = src_props (&p);
  plain = g_strdup_printf ("%s ! aooctdcsub mode=background "
      "background-file=%s ! aooctpad size=%d ! aooctkmap "
      "wavelength-coeffs=\"%s\" ! aooctdisp a2=%g a3=-2 ! aooctfft ! "
      "aooctorg layer-search-start=%d layer-search-end=%d "
      "second-layer-min=%d second-layer-max=%d baseline=%d "
      "center-wavelength=%.17g ! fakesink sync=false", src, bg, P1, coeffs,
      /* a camera whose wavelength decreases needs the opposite a2 */
      p.coeffs[1] < 0 ? -8.0 : 8.0, w.search_start, w.search_end,
      w.second_min, w.second_max, BASELINE, lambda0);
  run_to_eos (plain, mean, valid);
  for (b = 0; b < BSCANS; b++) {
    const gdouble want = aooct_synth_org_response (&p.org, b);

    fail_if (isnan (mean[b]), "B-scan %d: no trace", b);
    /* most A-lines see both layers (dark cones and speckle fall below
     * the threshold of 20 dB) */
    fail_unless (valid[b] > ALINES * 2 / 3, "B-scan %d: %d valid", b, valid[b]);
    err2 += (mean[b] - want) * (mean[b] - want);
    if (b < BASELINE) {
      base += mean[b];
      base2 += mean[b] * mean[b];
    }
  }
  floor_nm = sqrt (MAX (base2 / BASELINE - pow (base / BASELINE, 2), 0));
  g_print ("ORG (%s, bulk %g um, curvature %g um, noise %g, reflectivity "
      "%g): trace error %.2f nm RMS "
      "over %d B-scans, noise floor (std over the baseline) %.2f nm; at the "
      "contraction's peak %.1f nm (set %.1f), at the end %.1f nm (set "
      "%.1f)\n", g_str_equal (aooct_test_backend, "cuda") ? "CUDA" : "CPU",
      bulk, curvature, noise, reflectivity, sqrt (err2 / BSCANS), BSCANS,
      floor_nm,
      mean[STIMULUS + 3], aooct_synth_org_response (&p.org, STIMULUS + 3),
      mean[BSCANS - 1], aooct_synth_org_response (&p.org, BSCANS - 1));
  fail_unless (sqrt (err2 / BSCANS) < 5.0, "trace error %g nm RMS",
      sqrt (err2 / BSCANS));
  fail_unless (floor_nm < 3.0, "noise floor %g nm", floor_nm);
  /* elongation positive */
  fail_unless (mean[BSCANS - 1] > 100);
  g_unlink (bg);
  g_free (bg);
  g_free (src);
  g_free (plain);
}

GST_START_TEST (test_org_trace)
{
  check_trace (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, 3.0, 4.0,
      AOOCT_SYNTH_DEFAULT_NOISE, AOOCT_SYNTH_DEFAULT_REFLECTIVITY);
  /* a weak retina in strong noise: single A-lines are noisy, the trace is
   * the mean over them */
  check_trace (AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, 3.0, 4.0, 30.0, 1e-4);
}

GST_END_TEST;

/* wavelength decreasing along the pixels: the caps' direction flips sigma
 * and the trace keeps its sign */
GST_START_TEST (test_org_trace_reversed)
{
  check_trace ("894.633,-0.125,-1e-05,2e-09", 0.0, 0.0,
      AOOCT_SYNTH_DEFAULT_NOISE, AOOCT_SYNTH_DEFAULT_REFLECTIVITY);
}

GST_END_TEST;

/* the standard deviation of the rows' mean grey levels of @img (w x h):
 * what the axial motion does from B-scan to B-scan; and the difference
 * between the mean grey of the outer thirds of the columns and the
 * middle third: what the curvature does (the columns' own means show the
 * cones, each A-line seeing the same cone in every B-scan) */
static void
profile_spread (const guint8 * img, gint w, gint h, gdouble * rows,
    gdouble * cols)
{
  gdouble s = 0, s2 = 0, mid = 0, out = 0;
  gint r, c, n_mid = 0, n_out = 0;

  for (r = 0; r < h; r++) {
    gdouble m = 0;
    for (c = 0; c < w; c++)
      m += img[r * w + c];
    m /= w;
    s += m;
    s2 += m * m;
  }
  *rows = sqrt (MAX (s2 / h - (s / h) * (s / h), 0));
  for (c = 0; c < w; c++)
    for (r = 0; r < h; r++) {
      if (c >= w / 3 && c < 2 * w / 3) {
        mid += img[r * w + c];
        n_mid++;
      } else {
        out += img[r * w + c];
        n_out++;
      }
    }
  *cols = fabs (mid / n_mid - out / n_out);
}

static guint8 *
pull_gray8 (GstElement * pipeline, const gchar * name, gint w, gint h)
{
  GList *samples = aooct_test_pull_all (pipeline, name);
  GstSample *s;
  GstBuffer *buf;
  GstVideoFrame frame;
  GstVideoInfo info;
  guint8 *img = g_malloc ((gsize) w * h);
  gint r;

  fail_unless_equals_int (g_list_length (samples), 1);
  s = samples->data;
  buf = gst_sample_get_buffer (s);
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), w);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), h);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  for (r = 0; r < h; r++)
    memcpy (img + (gsize) r * w, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
            0) + (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), w);
  gst_video_frame_unmap (&frame);
  g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
  return img;
}

GST_START_TEST (test_layer_enface_flat)
{
  const gint volume = 32;
  AooctSynthParams p;
  Windows w;
  gchar *bg, *src, *plain;
  GstElement *pipeline;
  guint8 *layer, *fixed;
  gdouble lr, lc, fr, fc;

  aooct_synth_params_init (&p);
  p.seed = 11;
  p.alines = ALINES;
  p.org.curvature = 8;
  p.org.bulk_amplitude = 4;
  p.org.bulk_period = 13;
  p.org.stimulus = -1;
  windows_of (&p, &w);
  bg = aooct_test_synth_background_file (&p);
  src = src_props (&p);
  /* src_props asks for BSCANS; one volume is enough */
  plain = g_strdup_printf ("%s ! aooctdcsub mode=background "
      "background-file=%s ! aooctpad size=%d ! aooctkmap wavelength-coeffs="
      "\"" AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS "\" ! aooctdisp a2=8 a3=-2 "
      "! aooctfft ! tee name=t "
      "t. ! queue ! aooctenface bscans-per-volume=%d layer=brightest "
      "layer-search-start=%d layer-search-end=%d slab-start=-1 slab-end=2 "
      "! appsink name=layer sync=false wait-on-eos=false "
      "t. ! queue ! aooctenface bscans-per-volume=%d crop-start=%d "
      "crop-end=%d ! appsink name=fixed sync=false wait-on-eos=false", src,
      bg, P1, volume, w.search_start, w.search_end, volume, w.isos - 1,
      w.isos + 2);
  /* only one volume: num-buffers of the source */
  {
    gchar *nb = g_strdup_printf ("num-buffers=%d", BSCANS);
    gchar *one = g_strdup_printf ("num-buffers=%d", volume);
    gchar **parts = g_strsplit (plain, nb, 2);

    g_free (plain);
    plain = g_strjoinv (one, parts);
    g_strfreev (parts);
    g_free (nb);
    g_free (one);
  }
  pipeline = aooct_test_run_to_eos (plain, aooct_test_backend, 200);
  layer = pull_gray8 (pipeline, "layer", ALINES, volume);
  fixed = pull_gray8 (pipeline, "fixed", ALINES, volume);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  profile_spread (layer, ALINES, volume, &lr, &lc);
  profile_spread (fixed, ALINES, volume, &fr, &fc);
  g_print ("layer en-face of a retina moving +-4 um and curved 8 um: std of "
      "the rows' mean grey %.1f (layer=brightest) vs %.1f (fixed crop of 3 "
      "bins); middle third of the columns against the outer ones %.1f vs "
      "%.1f grey levels\n", lr, fr, lc, fc);
  fail_unless (lr < fr / 3 && lc < fc / 3);
  g_free (layer);
  g_free (fixed);
  g_unlink (bg);
  g_free (bg);
  g_free (src);
  g_free (plain);
}

GST_END_TEST;

static void
add_tests (TCase * tc, gboolean cuda)
{
  tcase_set_timeout (tc, 280);
  tcase_add_test (tc, test_org_trace);
  tcase_add_test (tc, test_org_trace_reversed);
  tcase_add_test (tc, test_layer_enface_flat);
}

static Suite *
org_physics_suite (void)
{
  return aooct_test_suite_per_backend ("org-physics", add_tests);
}

GST_CHECK_MAIN (org_physics);
