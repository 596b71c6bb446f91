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

/* "cpu" or "cuda": the backend every aooct processing element is forced
 * to (argv[1]); the CUDA run is skipped where no CUDA device is usable. */
static const gchar *backend = "cpu";


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
  {"nopad-linear", 1024, 96, 1, 2, "mirror", FALSE, 0, 1, FALSE, TRUE,
      "none", FALSE, 60, 8},
  /* dynamic-range 0 (lo = the B-scan's minimum dB) is left out on purpose:
   * that minimum sits in float32 round-off noise, so the spec's accuracy
   * bound covers linear mode and log mode with the default range only */
  {"stacked-bscans", 832, 40, 3, 2, "retina", TRUE, 0, 4, FALSE, TRUE,
      "gaussian", TRUE, 60, 8},
  {"gray16-log", 832, 120, 1, 2, "retina", TRUE, 2048, 2, TRUE, FALSE,
      "blackman", TRUE, 60, 16},
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
  p = aooct_test_run_to_eos (launch, backend, 120);
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
  rp.window = g_str_equal (c->window, "hann") ? AOOCT_REF_WINDOW_HANN :
      g_str_equal (c->window, "blackman") ? AOOCT_REF_WINDOW_BLACKMAN :
      g_str_equal (c->window, "gaussian") ? AOOCT_REF_WINDOW_GAUSSIAN :
      AOOCT_REF_WINDOW_NONE;
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
mirror_profile (const gchar * src_props, const gchar * disp_props, gint * p2)
{
  gchar *launch = g_strdup_printf ("aooctsrc phantom=mirror num-buffers=1 "
      "seed=7 noise=0 %s ! aooctdcsub ! aooctpad size=2048 factor=2 ! "
      "aooctkmap wavelength-coeffs=\"%s\" ! aooctdisp %s ! aooctfft ! "
      "appsink name=depth sync=false wait-on-eos=false", src_props,
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, disp_props);
  GstElement *p = aooct_test_run_to_eos (launch, backend, 120);
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
  GstElement *p = aooct_test_run_to_eos (launch, backend, 120);
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

/* Timestamps and durations of every input B-scan reach the image. */
GST_START_TEST (test_timestamps_preserved)
{
  gchar *launch = g_strdup_printf ("aooctsrc alines=32 num-buffers=5 "
      "framerate=250/1 ! tee name=t t. ! queue ! appsink name=raw sync=false wait-on-eos=false "
      "t. ! queue ! aooctdcsub ! aooctpad ! aooctkmap "
      "wavelength-coeffs=\"%s\" ! aooctdisp ! aooctfft ! aooctnorm ! "
      "appsink name=img sync=false wait-on-eos=false",
      AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS);
  GstElement *p = aooct_test_run_to_eos (launch, backend, 120);
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
    gchar *full = aooct_test_with_backend (launch, backend);
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
      gchar *launch = aooct_test_with_backend (elements[e].launch, backend);
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

static Suite *
chain_suite (void)
{
  Suite *s = suite_create ("aooct-chain");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_chain_vs_reference, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_mirror_depth_and_dispersion);
  tcase_add_test (tc, test_mirror_every_aline);
  tcase_add_test (tc, test_timestamps_preserved);
  tcase_add_test (tc, test_chain_errors);
  tcase_add_test (tc, test_wrong_size_buffers);
  return s;
}

int
main (int argc, char **argv)
{
  SRunner *sr;
  gint failed;

  gst_check_init (&argc, &argv);
  if (argc > 1)
    backend = argv[1];
  if (g_str_equal (backend, "cuda") && aooct_test_skip_without_cuda ())
    return AOOCT_TEST_SKIP_CODE;
  g_print ("backend=%s\n", backend);
  sr = srunner_create (chain_suite ());
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? 0 : 1;
}
