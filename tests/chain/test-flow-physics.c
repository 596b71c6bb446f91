/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the physics of aooctdoppler and aooctangio on the synthetic
 * camera's vessels (aooctsrc vessel-*, repeats), through the whole chain on
 * the backend of the tcase: the velocity measured in each vessel from the
 * Doppler image and the element's velocity-max is the set one within 5 %
 * for both signs, static tissue's mean phase shift is below 0.05 rad, and
 * the angiogram's decorrelation in the vessels is far above the tissue's.
 * (test-synth-vessel checks the phantom itself on the float64
 * reconstruction; test-flow the elements against the float64 reference.) */
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

/* B-scans per run: 4 groups of 4 repeats */
#define REPEATS 4
#define BSCANS 16
#define P1 1024
/* the crop, um of path: the retina */
#define CROP_FROM_UM 100.0
#define CROP_TO_UM 700.0

typedef struct
{
  gdouble velocity;             /* mm/s, vessel 0 (vessel 1: opposite) */
  gdouble line_rate;            /* A-lines/s (0: the camera's default) */
  gdouble refractive_index;
} FlowCase;

static const FlowCase cases[] = {
  {2.0, 0, 1.38},
  {-1.2, 20000, 1.4},
};

/* The result of one run */
typedef struct
{
  AooctSynthParams p;
  gint crop_start, rows;
  gdouble bins_per_um;
  GList *doppler, *angio;       /* GstSample, GRAY16_LE */
  gdouble velocity_max;         /* from the aooct-doppler message */
} FlowRun;

static void
run_flow (const FlowCase * c, FlowRun * r)
{
  AooctSynthParams *p = &r->p;
  gchar *bg, *plain, *launch;
  GstElement *pipeline;
  GstBus *bus;
  GError *err = NULL;
  gdouble lambda0;
  gboolean eos = FALSE;
  gint crop_end;

  aooct_synth_params_init (p);
  p->seed = 31;
  p->speckle_width = 3;
  p->vessel_count = 2;
  p->vessel_velocity = c->velocity;
  p->refractive_index = c->refractive_index;
  p->repeats = REPEATS;
  p->bscans_per_volume = 4;
  if (c->line_rate > 0)
    p->line_rate = c->line_rate;
  lambda0 = aooct_synth_flow_wavelength (p);
  r->bins_per_um = aooct_synth_depth_bin (p, 1.0, P1);
  r->crop_start = (gint) (CROP_FROM_UM * r->bins_per_um);
  crop_end = (gint) (CROP_TO_UM * r->bins_per_um);
  r->rows = crop_end - r->crop_start;
  bg = aooct_test_synth_background_file (p);

  /* Doppler after the background subtraction, as the spec advises */
  plain = g_strdup_printf ("aooctsrc num-buffers=%d seed=31 speckle-width=3 "
      "vessel-count=2 vessel-velocity=%.17g refractive-index=%.17g "
      "line-rate=%.17g repeats=%d bscans-per-volume=4 "
      "! aooctdcsub mode=background background-file=%s ! aooctpad size=%d "
      "! aooctkmap wavelength-coeffs=\"" AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS
      "\" ! aooctdisp a2=8 a3=-2 ! aooctfft ! tee name=t "
      "t. ! queue ! aooctdoppler crop-start=%d crop-end=%d line-rate=%.17g "
      "center-wavelength=%.17g refractive-index=%.17g "
      "! video/x-raw,format=GRAY16_LE ! appsink name=doppler sync=false wait-on-eos=false "
      "t. ! queue ! aooctangio repeats=%d crop-start=%d crop-end=%d "
      "! video/x-raw,format=GRAY16_LE ! appsink name=angio sync=false wait-on-eos=false",
      BSCANS, c->velocity, c->refractive_index, c->line_rate, REPEATS, bg, P1,
      r->crop_start, crop_end, p->line_rate, lambda0, c->refractive_index,
      REPEATS, r->crop_start, crop_end);
  launch = aooct_test_with_backend (plain, aooct_test_backend);
  pipeline = gst_parse_launch (launch, &err);
  fail_unless (pipeline != NULL, "%s: %s", launch, err ? err->message : "");

  /* to EOS, keeping the element message */
  r->velocity_max = 0;
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!eos) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    const GstStructure *st;

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
        if (gst_structure_has_name (st, "aooct-doppler"))
          fail_unless (gst_structure_get_double (st, "velocity-max",
                  &r->velocity_max));
        break;
    }
    gst_message_unref (msg);
  }
  r->doppler = aooct_test_pull_all (pipeline, "doppler");
  r->angio = aooct_test_pull_all (pipeline, "angio");
  fail_unless_equals_int (g_list_length (r->doppler), BSCANS);
  fail_unless_equals_int (g_list_length (r->angio), BSCANS / REPEATS);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_unlink (bg);
  g_free (bg);
  g_free (plain);
  g_free (launch);
}

static void
flow_run_clear (FlowRun * r)
{
  g_list_free_full (r->doppler, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (r->angio, (GDestroyNotify) gst_sample_unref);
}

/* the image of @sample, M A-lines wide (aooct_test_raw_frame) */
static guint16 *
image (const FlowRun * r, GstSample * sample)
{
  return aooct_test_raw_frame (sample, r->p.alines, r->rows);
}

/* static tissue: clear of the vessels by 1.5 radii, also from 12 A-lines
 * either side (speckle-width 3 mixes that far) */
static gboolean
is_tissue (const FlowRun * r, guint64 frame, gint a, gint bin)
{
  return !aooct_test_near_vessel (&r->p, frame, r->bins_per_um, a, bin, 1.5,
      12);
}

GST_START_TEST (test_doppler_velocity)
{
  const FlowCase *c = &cases[__i__];
  FlowRun r;
  gdouble lambda0, expect_max, sum_t = 0;
  gdouble sum_v[2] = { 0, 0 };
  gint n_v[2] = { 0, 0 }, n_t = 0, masked_v = 0, masked_t = 0, j, b;
  GList *l;

  run_flow (c, &r);
  /* the scale: lambda0 / (4 n T), lambda0 in mm */
  lambda0 = aooct_synth_flow_wavelength (&r.p);
  expect_max = lambda0 * 1e-6 * r.p.line_rate / (4 * c->refractive_index);
  g_print ("%s: velocity-max %.5f mm/s (lambda0 %.3f nm, line rate %.0f, "
      "n %.2f; expected %.5f)\n", aooct_test_backend, r.velocity_max,
      lambda0, r.p.line_rate, c->refractive_index, expect_max);
  fail_unless (fabs (r.velocity_max / expect_max - 1) < 1e-9);

  for (l = r.doppler, b = 0; l; l = l->next, b++) {
    guint16 *img = image (&r, l->data);
    gint a, row;

    for (row = 0; row < r.rows; row++)
      for (a = 0; a < r.p.alines; a++) {
        guint16 g = img[(gsize) row * r.p.alines + a];
        gint bin = r.crop_start + row;
        /* GRAY16: 32767.5 (1 + dphi / pi) rounded; masked: 32768 */
        gdouble dphi = G_PI * (g / 32767.5 - 1);
        gboolean masked = g == 32768;

        for (j = 0; j < 2; j++)
          if (aooct_test_in_vessel (&r.p, j, b, r.bins_per_um, a, bin, 0.6)) {
            masked_v += masked;
            if (!masked) {
              sum_v[j] += dphi;
              n_v[j]++;
            }
          }
        if (is_tissue (&r, b, a, bin)) {
          masked_t += masked;
          if (!masked) {
            sum_t += dphi;
            n_t++;
          }
        }
      }
    g_free (img);
  }
  for (j = 0; j < 2; j++) {
    gdouble set = aooct_synth_vessel_velocity (&r.p, j);
    /* lambda increases along this camera's pixels: the displayed half
     * holds e^{-j 2 k z}, motion away from the probe (v > 0) shows dphi < 0 */
    gdouble measured = -(sum_v[j] / n_v[j]) / G_PI * r.velocity_max;

    g_print ("%s: vessel %d set %+.4f mm/s, measured %+.4f mm/s (%+.2f %%) "
        "from %d pixels of %d B-scans\n", aooct_test_backend, j, set,
        measured, 100 * (measured / set - 1), n_v[j], BSCANS);
    fail_unless (n_v[j] > 100 * BSCANS, "vessel %d: %d pixels", j, n_v[j]);
    fail_unless (fabs (measured / set - 1) < 0.05,
        "vessel %d: measured %f mm/s, set %f", j, measured, set);
  }
  g_print ("%s: static tissue mean dphi %+.4f rad over %d pixels; masked: "
      "%d vessel, %d tissue pixels\n", aooct_test_backend, sum_t / n_t, n_t,
      masked_v, masked_t);
  fail_unless (n_t > 2000 * BSCANS, "%d tissue pixels", n_t);
  fail_unless (fabs (sum_t / n_t) < 0.05, "static tissue %f rad", sum_t / n_t);
  flow_run_clear (&r);
}

GST_END_TEST;

/* SSADA decorrelation: 1 - pi/4 = 0.215 for fully decorrelated speckle
 * (vessel-decorrelation 1), noise only in static tissue */
GST_START_TEST (test_angio_decorrelation)
{
  FlowRun r;
  gdouble sum_v = 0, sum_t = 0, dv, dt;
  gint n_v = 0, n_t = 0, g;
  GList *l;

  run_flow (&cases[0], &r);
  for (l = r.angio, g = 0; l; l = l->next, g++) {
    guint16 *img = image (&r, l->data);
    guint64 frame = (guint64) g * REPEATS;
    gint a, row;

    for (row = 0; row < r.rows; row++)
      for (a = 0; a < r.p.alines; a++) {
        guint16 v = img[(gsize) row * r.p.alines + a];
        gint bin = r.crop_start + row;
        /* GRAY16 = D / decorrelation-max (0.25) x 65535; masked: 0 */
        gdouble d = v / 65535.0 * 0.25;

        if (v == 0)
          continue;
        if (aooct_test_in_vessel (&r.p, 0, frame, r.bins_per_um, a, bin, 0.6)
            || aooct_test_in_vessel (&r.p, 1, frame, r.bins_per_um, a, bin,
                0.6)) {
          sum_v += d;
          n_v++;
        } else if (is_tissue (&r, frame, a, bin)) {
          sum_t += d;
          n_t++;
        }
      }
    g_free (img);
  }
  dv = sum_v / n_v;
  dt = sum_t / n_t;
  g_print ("%s: decorrelation (N = %d, windows 3 x 3): vessels %.4f over %d "
      "pixels, static tissue %.4f over %d pixels (%.0f x)\n",
      aooct_test_backend, REPEATS, dv, n_v, dt, n_t, dv / dt);
  fail_unless (n_v > 100 * BSCANS / REPEATS && n_t > 2000 * BSCANS / REPEATS);
  fail_unless (dv > 0.15 && dv < 0.26, "vessel D %f", dv);
  fail_unless (dt < 0.03, "tissue D %f", dt);
  fail_unless (dv > 5 * dt, "vessel D %f, tissue %f", dv, dt);
  flow_run_clear (&r);
}

GST_END_TEST;

static void
add_flow_physics_tests (TCase * tc, gboolean cuda)
{
  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_doppler_velocity, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_angio_decorrelation);
}

static Suite *
flow_physics_suite (void)
{
  return aooct_test_suite_per_backend ("aooct-flow-physics",
      add_flow_physics_tests);
}

GST_CHECK_MAIN (flow_physics);
