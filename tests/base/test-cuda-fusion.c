/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: steps deferred between elements on CUDA (see
 * gst/support/aooct-pending-meta.h).  On CUDA, aooctkmap leaves its
 * resampling to
 * an aooctdisp or aooctfft after it, and aooctdisp its weights to an
 * aooctfft, which apply them fused with their own pass.  The fused chain
 * must give the same bytes as the separate steps (defer-steps=false on
 * every element), in
 * every arrangement: with and without aooctpad, aooctdisp and a window,
 * through a queue, with a tee whose other branch needs the step done (an
 * appsink tapping aooctkmap), several B-scans per buffer, and a2 changed
 * while playing.  Probes count the buffers that really left an element
 * with its step pending, so a run that silently stopped deferring (or
 * deferred where it must not) fails too.  Accuracy against the float64
 * reference of the fused chain is what chain-cuda and cuda-chain check
 * (they run with the default, fused).  Exits 77 (meson: skipped) without
 * a usable CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/app/app.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
/* the meta's fields only: its functions live in the plugin */
#include "aooct-pending-meta.h"

#define BUFFERS 6


/* Counts the buffers leaving a pad with a pad / kmap / disp step
 * pending. */
typedef struct
{
  gint pad, kmap, disp, buffers;
} Pending;

static GstPadProbeReturn
count_pending (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Pending *p = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  /* registered by the plugin the first time an element defers */
  GType api = g_type_from_name ("AooctPendingMetaAPI");

  p->buffers++;
  if (api != 0) {
    AooctPendingMeta *m = (AooctPendingMeta *) gst_buffer_get_meta (buf, api);

    if (m) {
      p->pad += m->pad;
      p->kmap += m->kmap.data != NULL;
      p->disp += m->disp.data != NULL;
    }
  }
  return GST_PAD_PROBE_OK;
}

/* aooctdisp's a2 changed in the streaming thread just before its 4th
 * buffer, so that both runs change it at the same B-scan. */
static GstPadProbeReturn
change_a2 (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  gint *count = g_object_get_data (G_OBJECT (pad), "count");

  if (count == NULL) {
    count = g_new0 (gint, 1);
    g_object_set_data_full (G_OBJECT (pad), "count", count, g_free);
  }
  if (++*count == 4)
    g_object_set (user_data, "a2", -14.0, NULL);
  return GST_PAD_PROBE_OK;
}

static void
probe (GstElement * pipeline, const gchar * name, Pending * p)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstPad *pad;

  if (e == NULL)
    return;
  pad = gst_element_get_static_pad (e, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_pending, p, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

/* Every buffer reaching appsink @name, concatenated; there must be
 * @expected of them. */
static GByteArray *
drain (GstElement * pipeline, const gchar * name, gint expected)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GByteArray *all = g_byte_array_new ();
  GstSample *sample;
  gint n = 0;

  fail_unless (sink != NULL, "no appsink %s", name);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0))) {
    GstMapInfo map;

    fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
            GST_MAP_READ));
    g_byte_array_append (all, map.data, map.size);
    gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
    gst_sample_unref (sample);
    n++;
  }
  fail_unless_equals_int (n, expected);
  gst_object_unref (sink);
  return all;
}

typedef struct
{
  GByteArray *out, *tap;        /* appsinks "out" and (if any) "tap" */
  Pending pad, kmap, disp;      /* at the src pads of "p", "k" and "d" */
} Run;

static void
run_chain (const gchar * desc, gboolean fuse, gboolean live_a2, Run * run)
{
  GstElement *pipeline, *d;
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;

  memset (run, 0, sizeof (*run));
  pipeline = gst_parse_launch (desc, &error);
  fail_unless (pipeline != NULL, "%s: %s", desc, error ? error->message : "");
  aooct_test_set_everywhere (pipeline, "defer-steps", fuse);
  if (aooct_test_cuda_graphs () >= 0)
    aooct_test_set_everywhere (pipeline, "cuda-graphs",
        aooct_test_cuda_graphs ());
  probe (pipeline, "p", &run->pad);
  probe (pipeline, "k", &run->kmap);
  probe (pipeline, "d", &run->disp);
  d = gst_bin_get_by_name (GST_BIN (pipeline), "d");
  if (live_a2) {
    GstPad *pad;

    fail_unless (d != NULL);
    pad = gst_element_get_static_pad (d, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, change_a2, d, NULL);
    gst_object_unref (pad);
  }
  gst_clear_object (&d);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS within 60 s", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &error, &dbg);
    fail ("%s (fuse=%d): %s (%s)", desc, fuse, error->message, dbg);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);

  run->out = drain (pipeline, "out", BUFFERS);
  {
    GstElement *tap = gst_bin_get_by_name (GST_BIN (pipeline), "tap");

    if (tap) {
      run->tap = drain (pipeline, "tap", BUFFERS);
      gst_object_unref (tap);
    }
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

static void
assert_same (const GByteArray * a, const GByteArray * b, const gchar * what)
{
  gsize i, nonzero = 0;

  fail_unless_equals_uint64 ((guint64) a->len, (guint64) b->len);
  for (i = 0; i < a->len; i++)
    nonzero += a->data[i] != 0;
  /* an all-zero output would make the comparison worthless */
  fail_unless (nonzero > a->len / 4, "%s: output mostly zero", what);
  for (i = 0; i < a->len; i++)
    if (a->data[i] != b->data[i])
      fail ("%s: fused and separate outputs differ at byte %" G_GSIZE_FORMAT
          " of %u (%u vs %u)", what, i, a->len, a->data[i], b->data[i]);
}

static void
run_free (Run * run)
{
  g_byte_array_unref (run->out);
  if (run->tap)
    g_byte_array_unref (run->tap);
}

/* How many buffers must leave aooctpad ("p"), aooctkmap ("k") and
 * aooctdisp ("d") with their step (aooctpad: its scale and margins)
 * pending when fused. */
typedef struct
{
  gint pad, kmap, disp;
} Expect;

static Expect
E (gint pad, gint kmap, gint disp)
{
  Expect e = { pad, kmap, disp };

  return e;
}

static void
check_deferred (const gchar * desc, const gchar * what, gint got, gint expected)
{
  fail_unless (got == expected, "%s: %d buffers left %s with its step "
      "deferred, expected %d", desc, got, what, expected);
}

/* @middle: the elements between aooctdcsub and the appsink(s), with the
 * names above where present. */
static void
check_case (gint samples, const gchar * middle, gint alines, gint per_bscan,
    Expect expect, gboolean live_a2)
{
  gchar *desc = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=7 "
      "num-buffers=%d reflectivity=0.01 ! aooctdcsub backend=cuda "
      "alines-per-bscan=%d ! %s", samples, alines, BUFFERS, per_bscan,
      middle);
  Run fused, separate;

  GST_INFO ("case: %s", desc);
  run_chain (desc, TRUE, live_a2, &fused);
  run_chain (desc, FALSE, live_a2, &separate);

  check_deferred (desc, "aooctpad", fused.pad.pad, expect.pad);
  check_deferred (desc, "aooctkmap", fused.kmap.kmap, expect.kmap);
  check_deferred (desc, "aooctdisp", fused.disp.disp, expect.disp);
  /* a step pending downstream of the element that would apply it only if
   * that element deferred its own step too */
  fail_unless (fused.kmap.pad <= fused.kmap.kmap);
  fail_unless (fused.disp.kmap <= fused.disp.disp);
  fail_unless (fused.disp.pad <= fused.disp.disp);
  fail_unless_equals_int (separate.pad.pad + separate.kmap.pad
      + separate.kmap.kmap + separate.kmap.disp + separate.disp.pad
      + separate.disp.kmap + separate.disp.disp, 0);
  assert_same (fused.out, separate.out, desc);
  if (fused.tap)
    assert_same (fused.tap, separate.tap, desc);
  run_free (&fused);
  run_free (&separate);
  g_free (desc);
}

#define PAD "aooctpad backend=cuda name=p"
#define KMAP "aooctkmap backend=cuda name=k " \
  "wavelength-coeffs=785,0.125,1e-05,-2e-09"
#define DISP "aooctdisp backend=cuda name=d a2=8 a3=-2"
#define SINK "appsink name=out sync=false wait-on-eos=false"
#define TAP "appsink name=tap sync=false wait-on-eos=false"

GST_START_TEST (test_full_chain)
{
  /* pad, kmap, disp, fft with a window: every step reaches aooctfft */
  check_case (832, PAD " ! " KMAP " ! " DISP " ! aooctfft backend=cuda "
      "window=hann ! " SINK, 240, 240, E (BUFFERS, BUFFERS, BUFFERS), FALSE);
  /* the same into the image */
  check_case (832, PAD " ! " KMAP " ! " DISP " ! aooctfft backend=cuda "
      "window=hann ! aooctnorm backend=cuda ! " SINK, 240, 240,
      E (BUFFERS, BUFFERS, BUFFERS), FALSE);
  /* A-lines of P1 = 2048 samples: aooctpad's R2C reads its input in place
   * (nobody else holds it), 2 B-scans per buffer */
  check_case (2048, PAD " ! " KMAP " ! " DISP " ! aooctfft backend=cuda "
      "window=hann ! " SINK, 2 * 100, 100, E (BUFFERS, BUFFERS, BUFFERS),
      FALSE);
}

GST_END_TEST;

GST_START_TEST (test_arrangements)
{
  /* no aooctpad, no aooctdisp: the resampling goes to aooctfft */
  check_case (832, KMAP " ! aooctfft backend=cuda window=blackman ! " SINK,
      240, 240, E (0, BUFFERS, 0), FALSE);
  /* aooctdisp last: it applies the resampling with its weights */
  check_case (832, PAD " ! " KMAP " ! " DISP " ! " SINK, 240, 240, E (BUFFERS,
          BUFFERS, 0), FALSE);
  /* aooctkmap last: it applies aooctpad's scale and margins */
  check_case (832, PAD " ! " KMAP " ! " SINK, 240, 240, E (BUFFERS, 0, 0),
      FALSE);
  /* aooctkmap in passthrough (k-linear source) before an appsink: it
   * applies nothing, so aooctpad must not leave its scale to it */
  check_case (832, PAD " ! aooctkmap backend=cuda name=k passthrough=true ! "
      SINK, 240, 240, E (0, 0, 0), FALSE);
  /* no aooctkmap (a k-linear source): aooctpad's scale and margins go on
   * to aooctdisp and with its weights to aooctfft */
  check_case (832, PAD " ! " DISP " ! aooctfft backend=cuda ! " SINK, 240,
      240, E (BUFFERS, 0, BUFFERS), FALSE);
  /* through queues, no window, 4 B-scans per buffer */
  check_case (832, PAD " ! " KMAP " ! queue ! " DISP " ! queue ! "
      "aooctfft backend=cuda ! " SINK, 4 * 60, 60, E (BUFFERS, BUFFERS,
          BUFFERS), FALSE);
  /* a tee whose other branch needs k-linear spectra: aooctkmap resamples
   * itself; and since both branches hold the same buffer (the tap's
   * appsink keeps its samples), aooctdisp may not add its step to it and
   * computes it too */
  check_case (832, PAD " ! " KMAP " ! tee name=t ! queue ! " DISP " ! "
      "aooctfft backend=cuda window=hamming ! " SINK " t. ! queue ! " TAP,
      240, 240, E (BUFFERS, 0, 0), FALSE);
  /* aooctpad's input shared with an appsink (A-lines of P1 samples): its
   * R2C must not use it as scratch; the tap sees aooctdcsub's output */
  check_case (2048, "tee name=t ! queue ! " PAD " ! " KMAP " ! " DISP " ! "
      "aooctfft backend=cuda ! " SINK " t. ! queue ! " TAP, 100, 100,
      E (BUFFERS, BUFFERS, BUFFERS), FALSE);
  /* aooctdisp on the CPU: nothing is deferred across the backends */
  check_case (832, KMAP " ! aooctdisp backend=cpu name=d a2=8 ! "
      "aooctfft backend=cuda ! " SINK, 240, 240, E (0, 0, 0), FALSE);
}

GST_END_TEST;

/* aooctkmap's other interpolation modes (spec sections 4 and 8).  The FIR
 * modes (cubic, bspline, lanczos) defer their gather like the linear
 * resampling (their table travels in the meta, the fused pass sums the
 * same taps in the same order); nudft and nufft leave their samples in
 * place, which is an identity resampling that defers like the linear one,
 * and aooctfft applies it before its non-uniform transform */
GST_START_TEST (test_kspace_modes)
{
  /* every step reaches aooctfft, with a window */
  check_case (832, PAD " ! " KMAP " interpolation=cubic ! " DISP " ! "
      "aooctfft backend=cuda window=hann ! " SINK, 240, 240, E (BUFFERS,
          BUFFERS, BUFFERS), FALSE);
  check_case (832, PAD " ! " KMAP " interpolation=bspline ! " DISP " ! "
      "aooctfft backend=cuda window=blackman ! " SINK, 240, 240, E (BUFFERS,
          BUFFERS, BUFFERS), FALSE);
  check_case (832, PAD " ! " KMAP " interpolation=lanczos ! " DISP " ! "
      "aooctfft backend=cuda window=hamming ! " SINK, 240, 240, E (BUFFERS,
          BUFFERS, BUFFERS), FALSE);
  /* without aooctpad (the data region is the whole A-line), several
   * B-scans per buffer, an odd width */
  check_case (832, KMAP " interpolation=lanczos ! " DISP " ! aooctfft "
      "backend=cuda ! " SINK, 2 * 60, 60, E (0, BUFFERS, BUFFERS), FALSE);
  check_case (1023, KMAP " interpolation=bspline ! " DISP " ! aooctfft "
      "backend=cuda window=hann ! " SINK, 3 * 41, 41, E (0, BUFFERS, BUFFERS),
      FALSE);
  check_case (1024, KMAP " interpolation=cubic ! aooctfft backend=cuda "
      "window=hann ! " SINK, 4 * 50, 50, E (0, BUFFERS, 0), FALSE);
  /* decreasing wavelengths, A-lines of P1 = 2048 (P2 = 4096), 2 B-scans
   * per buffer */
  check_case (2048, PAD " ! aooctkmap backend=cuda name=k "
      "wavelength-coeffs=880,-0.05,1e-06 interpolation=bspline ! " DISP " ! "
      "aooctfft backend=cuda window=hann ! " SINK, 2 * 100, 100,
      E (BUFFERS, BUFFERS, BUFFERS), FALSE);
  /* a strongly non-linear calibration (d lambda / d p from 0.01 to 0.18
   * nm): in part of the A-line the outputs of a block read more input
   * samples than the fused kernel stages, and it reads them from global
   * memory there */
  check_case (832, PAD " ! aooctkmap backend=cuda name=k "
      "wavelength-coeffs=800,0.01,1e-04 interpolation=lanczos ! " DISP " ! "
      "aooctfft backend=cuda ! " SINK, 240, 240, E (BUFFERS, BUFFERS,
          BUFFERS), FALSE);
  check_case (1024, "aooctkmap backend=cuda name=k "
      "wavelength-coeffs=800,0.01,1e-04 interpolation=bspline ! " DISP " ! "
      "aooctfft backend=cuda ! " SINK, 2 * 100, 100, E (0, BUFFERS, BUFFERS),
      FALSE);
  /* aooctdisp last: it applies the FIR resampling with its weights */
  check_case (832, PAD " ! " KMAP " interpolation=lanczos ! " DISP " ! "
      SINK, 240, 240, E (BUFFERS, BUFFERS, 0), FALSE);
  /* through queues, no aooctdisp */
  check_case (832, PAD " ! " KMAP " interpolation=cubic ! queue ! aooctfft "
      "backend=cuda window=blackman ! " SINK, 2 * 120, 120, E (BUFFERS,
          BUFFERS, 0), FALSE);
  /* a tee whose other branch needs k-linear spectra: aooctkmap resamples
   * itself (and applies aooctpad's scale) */
  check_case (832, PAD " ! " KMAP " interpolation=bspline ! tee name=t ! "
      "queue ! " DISP " ! aooctfft backend=cuda ! " SINK " t. ! queue ! "
      TAP, 240, 240, E (BUFFERS, 0, 0), FALSE);
  /* complex (full-range) spectra: nothing is deferred on them, the FIR
   * modes resample re and im themselves */
  check_case (832, "aooctfullrange backend=cuda ! " PAD " ! " KMAP
      " interpolation=lanczos ! " DISP " ! aooctfft backend=cuda "
      "window=hann ! " SINK, 240, 240, E (0, 0, 0), FALSE);
  check_case (832, PAD " ! " KMAP " interpolation=nudft ! " DISP " ! "
      "aooctfft backend=cuda window=hann ! " SINK, 120, 120, E (BUFFERS,
          BUFFERS, BUFFERS), FALSE);
  check_case (832, KMAP " interpolation=nufft ! " DISP " ! aooctfft "
      "backend=cuda window=blackman ! " SINK, 2 * 120, 120, E (0, BUFFERS,
          BUFFERS), FALSE);
  check_case (832, PAD " ! " KMAP " interpolation=nufft "
      "nufft-kernel=gaussian nufft-width=12 ! aooctfft backend=cuda ! " SINK,
      240, 240, E (BUFFERS, BUFFERS, 0), FALSE);
}

GST_END_TEST;

/* a2 changed while playing, with a FIR resampling deferred too; and
 * aooctdisp estimating a2 and a3 from spectra whose FIR resampling was
 * deferred to it (it applies it on the host first, with aooctkmap's CPU
 * core: the same bits as the CUDA kernel, so the same estimate) */
GST_START_TEST (test_fir_a2_while_playing)
{
  check_case (832, PAD " ! " KMAP " interpolation=bspline ! " DISP " ! "
      "aooctfft backend=cuda window=hann ! " SINK, 240, 240, E (BUFFERS,
          BUFFERS, BUFFERS), TRUE);
  check_case (832, PAD " ! " KMAP " interpolation=cubic ! aooctdisp "
      "backend=cuda name=d estimate=true ! aooctfft backend=cuda ! " SINK,
      240, 240, E (BUFFERS, BUFFERS, BUFFERS), FALSE);
}

GST_END_TEST;

GST_START_TEST (test_a2_while_playing)
{
  check_case (832, PAD " ! " KMAP " ! " DISP " ! aooctfft backend=cuda "
      "window=hann ! " SINK, 240, 240, E (BUFFERS, BUFFERS, BUFFERS), TRUE);
}

GST_END_TEST;

/* cuda-graphs=true keeps the graph a buffer's work was captured into and
 * launches it again for a later buffer with the same key (planes, deferred
 * steps, live settings: aooct-step.h).  The images must be those of
 * cuda-graphs=false bit for bit, also when live settings change while
 * playing (each change at the same B-scan in both runs: set in the
 * element's streaming thread before its n-th buffer), and the kept graphs
 * must really be launched again (the stats). */
typedef struct
{
  const gchar *element, *property, *value;
  gint before;                  /* set before this buffer (1-based) */
} LiveChange;

static const LiveChange live_changes[] = {
  {"n", "auto-range", "false", 9},
  {"n", "range-min", "20", 9},
  {"n", "range-max", "80", 9},
  {"f", "window", "blackman", 15},
  {"d", "a2", "-14", 21},
  {"n", "range-max", "70", 27},
  {"n", "auto-range", "true", 33},
};

static GstPadProbeReturn
apply_changes (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstElement *e = user_data;
  gint *count = g_object_get_data (G_OBJECT (pad), "count");
  guint i;

  if (count == NULL) {
    count = g_new0 (gint, 1);
    g_object_set_data_full (G_OBJECT (pad), "count", count, g_free);
  }
  ++*count;
  for (i = 0; i < G_N_ELEMENTS (live_changes); i++)
    if (live_changes[i].before == *count
        && g_str_equal (live_changes[i].element, GST_OBJECT_NAME (e)))
      gst_util_set_object_arg (G_OBJECT (e), live_changes[i].property,
          live_changes[i].value);
  return GST_PAD_PROBE_OK;
}

#define KEPT_BUFFERS 40

static GByteArray *
run_kept (gboolean graphs)
{
  const gchar *names[] = { "c", "p", "d", "f", "n" };
  GstElement *pipeline;
  GError *error = NULL;
  GstMessage *msg;
  GstBus *bus;
  GByteArray *out;
  guint i;

  pipeline = gst_parse_launch ("aooctsrc samples=832 alines=240 seed=11 "
      "num-buffers=40 reflectivity=0.01 ! aooctdcsub backend=cuda name=c ! "
      PAD " ! " KMAP " ! " DISP " ! aooctfft backend=cuda name=f window=hann "
      "! aooctnorm backend=cuda name=n ! video/x-raw,format=GRAY8 ! " SINK,
      &error);
  fail_unless (pipeline != NULL, "%s", error ? error->message : "");
  aooct_test_set_everywhere (pipeline, "cuda-graphs", graphs);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), names[i]);
    GstPad *pad = gst_element_get_static_pad (e, "sink");

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, apply_changes, e, NULL);
    gst_object_unref (pad);
    gst_object_unref (e);
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "no EOS within 60 s, or an error");
  gst_message_unref (msg);
  gst_object_unref (bus);
  out = drain (pipeline, "out", KEPT_BUFFERS);
  /* every element that keys its work relaunched kept graphs (aooctkmap
   * and aooctdisp defer: they enqueue nothing of their own) */
  for (i = 0; graphs && i < G_N_ELEMENTS (names); i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), names[i]);
    GstStructure *st = NULL;
    guint64 captured = 0, relaunched = 0;

    g_object_get (e, "stats", &st, NULL);
    fail_unless (gst_structure_get_uint64 (st, "graphs-captured", &captured)
        && gst_structure_get_uint64 (st, "graphs-relaunched", &relaunched));
    GST_INFO ("%s: %" G_GUINT64_FORMAT " captured, %" G_GUINT64_FORMAT
        " relaunched", names[i], captured, relaunched);
    if (!g_str_equal (names[i], "d")) {
      fail_unless (relaunched > KEPT_BUFFERS / 2, "%s relaunched only %"
          G_GUINT64_FORMAT " kept graphs of %d buffers (%" G_GUINT64_FORMAT
          " captured)", names[i], relaunched, KEPT_BUFFERS, captured);
      fail_unless_equals_int ((gint) (captured + relaunched), KEPT_BUFFERS);
    }
    gst_structure_free (st);
    gst_object_unref (e);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return out;
}

GST_START_TEST (test_kept_graphs)
{
  GByteArray *plain = run_kept (FALSE), *kept = run_kept (TRUE);

  assert_same (kept, plain, "cuda-graphs=true with kept graphs, live "
      "changes");
  g_byte_array_unref (plain);
  g_byte_array_unref (kept);
}

GST_END_TEST;

static Suite *
fusion_suite (void)
{
  Suite *s = suite_create ("aooct-cuda-fusion");
  TCase *tc = tcase_create ("fusion");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 240);
  tcase_add_test (tc, test_full_chain);
  tcase_add_test (tc, test_arrangements);
  tcase_add_test (tc, test_a2_while_playing);
  tcase_add_test (tc, test_kspace_modes);
  tcase_add_test (tc, test_fir_a2_while_playing);
  tcase_add_test (tc, test_kept_graphs);
  return s;
}

/* every test needs a device: skipped (exit 77) without one */
static Suite *
cuda_fusion_suite (void)
{
  aooct_test_require_cuda ();
  return fusion_suite ();
}

GST_CHECK_MAIN (cuda_fusion);
