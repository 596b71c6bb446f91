/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctsrc, the synthetic camera element (the physics of its
 * model is checked in test-synth.c). */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-synth.h"
#include "aooct-textfile.h"
#include "aooct-fftw.h"

/* The harness queues whatever the camera pushes, without bound: a camera
 * left running keeps making B-scans nobody pulls until teardown, so it
 * stops after the @frames the test pulls. */
static GstHarness *
src_harness (const gchar * launch, gint frames)
{
  gchar *full = g_strdup_printf ("%s num-buffers=%d", launch, frames);
  GstHarness *h = aooct_test_harness_new (full);

  g_free (full);
  gst_harness_play (h);
  return h;
}

static gint
caps_int (GstHarness * h, const gchar * field)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gint v = -1;

  fail_unless (caps != NULL);
  fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          field, &v));
  gst_caps_unref (caps);
  return v;
}

GST_START_TEST (test_caps_geometry)
{
  struct
  {
    gint n, m, stride;
  } sizes[] = { {832, 240, 1664}, {2048, 1000, 4096}, {1500, 64, 3000},
  {1501, 5, 3004}               /* odd width: rows padded to 4 bytes */
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (sizes); c++) {
    gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=3",
        sizes[c].n, sizes[c].m);
    GstHarness *h = src_harness (launch, 1);
    GstBuffer *buf = gst_harness_pull (h);
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
    GstStructure *s = gst_caps_get_structure (caps, 0);
    GstMapInfo map;
    gint fn, fd, row, i, over = 0, padding = 0;

    fail_unless (gst_structure_has_name (s, "video/x-raw"));
    fail_unless_equals_string (gst_structure_get_string (s, "format"),
        "GRAY16_LE");
    fail_unless_equals_int (caps_int (h, "width"), sizes[c].n);
    fail_unless_equals_int (caps_int (h, "height"), sizes[c].m);
    fail_unless (gst_structure_get_fraction (s, "framerate", &fn, &fd));
    fail_unless (fn == 100 && fd == 1);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless_equals_int (map.size, (gsize) sizes[c].stride * sizes[c].m);
    /* counted, not asserted per pixel: every passing check records its
     * line (a write to check's pipe), which for 2M pixels took minutes
     * under ASan */
    for (row = 0; row < sizes[c].m; row++) {
      const guint16 *r = (const guint16 *) (map.data + row * sizes[c].stride);
      for (i = 0; i < sizes[c].n; i++)
        over += r[i] > 4095;
      for (; i < sizes[c].stride / 2; i++)
        padding += r[i] != 0;
    }
    fail_unless_equals_int (over, 0);
    fail_unless_equals_int (padding, 0);
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
    gst_caps_unref (caps);
    gst_harness_teardown (h);
    g_free (launch);
  }
}

GST_END_TEST;

static void
count_buffer (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  GArray *pts = data;
  GstClockTime t[2] = { GST_BUFFER_PTS (buf), GST_BUFFER_DURATION (buf) };

  g_array_append_vals (pts, t, 2);
}

/* num-buffers, EOS, timestamps and durations following framerate */
GST_START_TEST (test_num_buffers_timestamps)
{
  GstElement *pipeline = gst_parse_launch ("aooctsrc num-buffers=7 "
      "framerate=7/3 alines=8 seed=1 ! fakesink name=sink "
      "signal-handoffs=true sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GArray *pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint i;

  g_signal_connect (sink, "handoff", G_CALLBACK (count_buffer), pts);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (pts->len, 14);
  for (i = 0; i < 7; i++) {
    GstClockTime t = g_array_index (pts, GstClockTime, 2 * i);
    GstClockTime d = g_array_index (pts, GstClockTime, 2 * i + 1);
    GstClockTime t1 = gst_util_uint64_scale (i + 1, 3 * GST_SECOND, 7);
    fail_unless_equals_uint64 (t, gst_util_uint64_scale (i, 3 * GST_SECOND, 7));
    /* durations add up exactly: no drift */
    fail_unless_equals_uint64 (t + d, t1);
  }
  g_array_unref (pts);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* is-live: B-scans come at the frame rate and latency is one frame */
GST_START_TEST (test_live)
{
  GstElement *pipeline = gst_parse_launch ("aooctsrc is-live=true "
      "num-buffers=5 framerate=25/1 alines=16 samples=64 "
      "wavelength-coeffs=800,1 center-wavelength=830 ! fakesink sync=true",
      NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstQuery *q;
  GstMessage *msg;
  gint64 t0 = g_get_monotonic_time (), elapsed;
  gboolean live;
  GstClockTime min, max;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  elapsed = g_get_monotonic_time () - t0;
  /* 5 frames at 25/s: the last one is due at 160 ms */
  fail_unless (elapsed >= 150000, "%" G_GINT64_FORMAT " us", elapsed);
  q = gst_query_new_latency ();
  fail_unless (gst_element_query (pipeline, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  fail_unless_equals_uint64 (min, GST_SECOND / 25);
  gst_query_unref (q);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static guint16 *
pull_frame (GstHarness * h, gsize * n)
{
  GstBuffer *buf = gst_harness_pull (h);
  GstMapInfo map;
  guint16 *data;

  fail_unless (buf != NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  data = g_memdup2 (map.data, map.size);
  *n = map.size / 2;
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  return data;
}

static gsize
count_value (const guint16 * d, gsize n, guint16 v)
{
  gsize i, c = 0;

  for (i = 0; i < n; i++)
    c += d[i] == v;
  return c;
}

GST_START_TEST (test_levels_and_clipping)
{
  GstHarness *h;
  guint16 *d;
  gsize n, i;
  guint16 lo = G_MAXUINT16, hi = 0;

  h = src_harness ("aooctsrc seed=5", 1);
  d = pull_frame (h, &n);
  for (i = 0; i < n; i++) {
    lo = MIN (lo, d[i]);
    hi = MAX (hi, d[i]);
  }
  /* black level 64, reference 2500 at the peak: no clipping by default */
  fail_unless (lo >= 40 && hi > 2400 && hi < 4095, "range %u..%u", lo, hi);
  g_free (d);
  gst_harness_teardown (h);

  h = src_harness ("aooctsrc seed=5 reference-level=4095", 1);
  d = pull_frame (h, &n);
  fail_unless (count_value (d, n, 4095) > n / 20, "%" G_GSIZE_FORMAT
      " clipped", count_value (d, n, 4095));
  for (i = 0; i < n; i++)
    hi = MAX (hi, d[i]);
  fail_unless (hi <= 4095);
  g_free (d);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_seed)
{
  GstHarness *a = src_harness ("aooctsrc seed=42", 2);
  GstHarness *b = src_harness ("aooctsrc seed=42", 2);
  GstHarness *c = src_harness ("aooctsrc seed=43", 2);
  GstHarness *r1 = src_harness ("aooctsrc", 2);
  GstHarness *r2 = src_harness ("aooctsrc", 2);
  gint f;

  for (f = 0; f < 2; f++) {
    gsize n;
    guint16 *da = pull_frame (a, &n), *db = pull_frame (b, &n);
    guint16 *dc = pull_frame (c, &n);
    guint16 *d1 = pull_frame (r1, &n), *d2 = pull_frame (r2, &n);
    fail_unless (memcmp (da, db, n * 2) == 0, "frame %d differs", f);
    fail_unless (memcmp (da, dc, n * 2) != 0);
    fail_unless (memcmp (d1, d2, n * 2) != 0, "seed=-1 is not random");
    g_free (da);
    g_free (db);
    g_free (dc);
    g_free (d1);
    g_free (d2);
  }
  gst_harness_teardown (a);
  gst_harness_teardown (b);
  gst_harness_teardown (c);
  gst_harness_teardown (r1);
  gst_harness_teardown (r2);
}

GST_END_TEST;

/* The next @frames B-scans of @h are frames 0, 1, ... of the model of @p */
static void
expect_model_frames (GstHarness * h, const AooctSynthParams * p, gint frames)
{
  AooctSynth *s;
  guint16 *ref;
  gint f;

  aooct_fftw_lock ();
  s = aooct_synth_new (p, NULL);
  aooct_fftw_unlock ();
  fail_unless (s != NULL);
  ref = g_new (guint16, (gsize) p->samples * p->alines);
  for (f = 0; f < frames; f++) {
    gsize n;
    guint16 *d = pull_frame (h, &n);
    fail_unless_equals_int (n, (gsize) p->samples * p->alines);
    aooct_synth_fill (s, f, ref, p->samples);
    fail_unless (memcmp (d, ref, n * 2) == 0, "frame %d", f);
    g_free (d);
  }
  aooct_fftw_lock ();
  aooct_synth_free (s);
  aooct_fftw_unlock ();
  g_free (ref);
}

/* The element delivers exactly the model of aooct-synth (whose physics
 * test-synth checks), frame after frame. */
GST_START_TEST (test_matches_model)
{
  GstHarness *h = src_harness ("aooctsrc seed=11 phantom=mirror alines=50 "
      "mirror-depth=400 dispersion-a2=-5 noise=3 bscans-per-volume=7", 3);
  AooctSynthParams p;

  aooct_synth_params_init (&p);
  p.seed = 11;
  p.phantom = AOOCT_SYNTH_PHANTOM_MIRROR;
  p.alines = 50;
  p.mirror_depth = 400;
  p.dispersion_a2 = -5;
  p.noise = 3;
  p.bscans_per_volume = 7;
  expect_model_frames (h, &p, 3);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The flow phantom (vessels, repeats) too; line-rate 0 is framerate x
 * alines, an explicit line rate is taken as it is. */
static void
check_flow_matches_model (const gchar * line_rate, gdouble expect_rate)
{
  gchar *launch = g_strdup_printf ("aooctsrc seed=12 alines=60 "
      "framerate=50/1 vessel-count=2 vessel-velocity=-1.5 vessel-depth=260 "
      "vessel-diameter=30 vessel-position=0.4 vessel-decorrelation=0.6 "
      "aline-spacing=0.8 refractive-index=1.4 repeats=2 speckle-width=2 "
      "bscans-per-volume=3 %s", line_rate);
  GstHarness *h = src_harness (launch, 5);
  AooctSynthParams p;

  aooct_synth_params_init (&p);
  p.seed = 12;
  p.alines = 60;
  p.vessel_count = 2;
  p.vessel_velocity = -1.5;
  p.vessel_depth = 260;
  p.vessel_diameter = 30;
  p.vessel_position = 0.4;
  p.vessel_decorrelation = 0.6;
  p.aline_spacing = 0.8;
  p.refractive_index = 1.4;
  p.repeats = 2;
  p.speckle_width = 2;
  p.bscans_per_volume = 3;
  p.line_rate = expect_rate;
  expect_model_frames (h, &p, 5);
  g_free (launch);
  gst_harness_teardown (h);
}

GST_START_TEST (test_flow_matches_model)
{
  check_flow_matches_model ("", 50.0 * 60);
  check_flow_matches_model ("line-rate=20000", 20000);
}

GST_END_TEST;

/* Flow settings the model refuses are errors naming the property */
GST_START_TEST (test_flow_bad_properties)
{
  const gchar *cases[][2] = {
    {"line-rate=0.5 vessel-count=1", "line-rate"},
    /* 0 = framerate x alines: 1/1000 x 1 A-line is too slow */
    {"framerate=1/1000 alines=1 vessel-count=1", "line-rate"},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *launch = g_strdup_printf ("aooctsrc num-buffers=1 %s ! fakesink",
        cases[c][0]);
    gchar *err = aooct_test_run_pipeline (launch, 20);
    fail_unless (err != NULL, "'%s' accepted", cases[c][0]);
    fail_unless (strstr (err, cases[c][1]) != NULL, "'%s' does not say "
        "'%s'", err, cases[c][1]);
    g_free (err);
    g_free (launch);
  }
  /* without vessels the line rate does not matter */
  fail_unless (aooct_test_run_pipeline ("aooctsrc num-buffers=1 "
          "framerate=1/1000 alines=1 line-rate=0.5 ! fakesink", 20) == NULL);
}

GST_END_TEST;

static guint16 *
pull_sample (GstElement * appsink, gsize * n)
{
  GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (appsink));
  GstMapInfo map;
  guint16 *data;

  fail_unless (sample != NULL);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
          GST_MAP_READ));
  data = g_memdup2 (map.data, map.size);
  *n = map.size / 2;
  gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  gst_sample_unref (sample);
  return data;
}

/* Physical properties change while playing, at the next B-scans (an
 * appsink holding one buffer keeps the source from running ahead). */
GST_START_TEST (test_change_while_playing)
{
  GstElement *pipeline = gst_parse_launch ("aooctsrc name=src seed=1 "
      "phantom=mirror reflectivity=0 noise=0 alines=20 ! appsink name=sink "
      "max-buffers=1 sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;
  guint16 *d;
  gsize n, i;
  gint row, tries, pulled;
  gboolean changed = FALSE;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  d = pull_sample (sink, &n);
  /* no sample, no noise: every A-line is the reference spectrum */
  for (row = 1; row < 20; row++)
    fail_unless (memcmp (d, d + row * (n / 20), n / 20 * 2) == 0);
  g_free (d);
  g_object_set (src, "noise", 40.0, NULL);
  for (tries = 0; tries < 5 && !changed; tries++) {
    d = pull_sample (sink, &n);
    for (i = 0; i < n / 20; i++)
      changed |= d[i] != d[i + n / 20];
    g_free (d);
  }
  fail_unless (changed, "noise did not change");
  /* an impossible combination set while playing is an error at the next
   * B-scan the source makes: one may be queued in the appsink and one
   * being made with the old settings (blocked until the appsink has room),
   * so take B-scans until the error comes, and at most those two */
  g_object_set (src, "center-wavelength", 1300.0, NULL);
  msg = NULL;
  for (tries = 0, pulled = 0; tries < 100 && msg == NULL; tries++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        GST_SECOND / 10);

    if (sample) {
      pulled++;
      gst_sample_unref (sample);
    }
    msg = gst_bus_timed_pop_filtered (bus, GST_SECOND / 10, GST_MESSAGE_ERROR);
  }
  fail_unless (msg != NULL, "no error for center-wavelength=1300 while "
      "playing");
  fail_unless (pulled <= 2, "%d B-scans came after center-wavelength=1300",
      pulled);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "center-wavelength") != NULL, "%s",
      err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_calibration_file)
{
  const gchar *coeffs[] = { AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
    "890.5,-0.0712345678901,-3.3e-6"
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (coeffs); c++) {
    gchar *path = aooct_test_write_temp ("");
    gchar *launch = g_strdup_printf ("aooctsrc num-buffers=1 samples=1500 "
        "alines=4 wavelength-coeffs=\"%s\" calibration-file=%s ! fakesink",
        coeffs[c], path);
    gchar *err = aooct_test_run_pipeline (launch, 20);
    GError *error = NULL;
    gdouble *v, cf[4];
    gint nc, i;

    fail_unless (err == NULL, "%s", err);
    v = aooct_text_read_values (path, 1500, &error);
    fail_unless (v != NULL, "%s", error ? error->message : "");
    fail_unless (aooct_calib_parse_coeffs (coeffs[c], cf, &nc, NULL));
    for (i = 0; i < 1500; i++)
      fail_unless (v[i] == aooct_calib_poly_eval (cf, nc, i),
          "pixel %d: %.17g", i, v[i]);
    g_free (v);
    g_unlink (path);
    g_free (path);
    g_free (launch);
  }
}

GST_END_TEST;

GST_START_TEST (test_bad_properties)
{
  struct
  {
    const gchar *props;
    const gchar *what, *what2;
  } cases[] = {
    {"wavelength-coeffs=\"800,0.1,-0.0002\"", "wavelength-coeffs",
        "monotonic"},
    {"wavelength-coeffs=\"800\"", "wavelength-coeffs", "constant"},
    {"wavelength-coeffs=\"100,-0.2\"", "wavelength-coeffs", "positive"},
    {"wavelength-coeffs=\"800,abc\"", "wavelength-coeffs", "not a number"},
    {"wavelength-coeffs=\"\"", "wavelength-coeffs", "empty"},
    {"wavelength-coeffs=\"1,2,3,4,5\"", "wavelength-coeffs", "1 to 4"},
    {"center-wavelength=1300", "center-wavelength", "outside"},
    {"bandwidth=600", "bandwidth", NULL},
    {"calibration-file=/nonexistent/dir/cal.txt", "/nonexistent/dir/cal.txt",
        "calibration-file"},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *launch = g_strdup_printf ("aooctsrc num-buffers=1 %s ! fakesink",
        cases[c].props);
    gchar *err = aooct_test_run_pipeline (launch, 20);
    fail_unless (err != NULL, "'%s' accepted", cases[c].props);
    fail_unless (strstr (err, cases[c].what) != NULL, "'%s' does not say "
        "'%s'", err, cases[c].what);
    fail_unless (cases[c].what2 == NULL || strstr (err, cases[c].what2),
        "'%s' does not say '%s'", err, cases[c].what2);
    g_free (err);
    g_free (launch);
  }
}

GST_END_TEST;

static Suite *
src_suite (void)
{
  Suite *s = suite_create ("aooctsrc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_caps_geometry);
  tcase_add_test (tc, test_num_buffers_timestamps);
  tcase_add_test (tc, test_live);
  tcase_add_test (tc, test_levels_and_clipping);
  tcase_add_test (tc, test_seed);
  tcase_add_test (tc, test_matches_model);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_calibration_file);
  tcase_add_test (tc, test_bad_properties);
  tcase_add_test (tc, test_flow_matches_model);
  tcase_add_test (tc, test_flow_bad_properties);
  return s;
}

GST_CHECK_MAIN (src);
