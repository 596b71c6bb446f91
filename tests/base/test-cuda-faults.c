/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the GPU half of the robustness issue.
 *
 *   faults    a CUDA error inside a kernel launch, a kernel that faults
 *             asynchronously on the device (a sticky error: the context is
 *             lost), a cuFFT error (AOOCT_CUDA_FAULT, cuda/aooct-cuda-fault.h;
 *             only in a build with -Dfault-injection=true, as the test
 *             scripts and CI configure it: elsewhere this part exits 77),
 *             and device memory exhausted (this test allocates nearly all
 *             of it first): each ends in an element error carrying CUDA's
 *             or cuFFT's message, within a time limit, without a crash and
 *             without a wrong image passed on; afterwards a new pipeline in
 *             the same process makes exactly the images it made before,
 *             except after the sticky fault, which CUDA never lets a
 *             process recover from: then backend=cuda says so and
 *             backend=auto makes the images on the CPU.
 *   sharing   two pipelines at once on one GPU in one process, with their
 *             own CUDA contexts and with one context shared by the
 *             application: each makes exactly the images it makes alone.
 *   two-gpus  one pipeline on each of two GPUs at once: each runs on the
 *             device its cuda-device-id names and makes the images of a
 *             run on device 0 alone.  Skipped (77) with fewer than two.
 *
 * Each part is a tcase (CK_RUN_CASE picks one: meson's cuda-faults,
 * cuda-sharing, cuda-two-gpus); each exits 77 (meson: skipped) where no
 * CUDA device is usable.  'faults' must run alone on the GPU (it takes nearly all device memory
 * for a while); meson runs it with is_parallel : false. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <gst/check/gstcheck.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"

#ifdef HAVE_CUDA
#include <cuda_runtime.h>
#endif

/* GST_CUDA_CONTEXT_TYPE of libgstcuda, which builds without CUDA lack */
#define CUDA_CONTEXT_TYPE "gst.cuda.context"

/* the whole chain on CUDA from the synthetic camera; %s: extra properties
 * of every processing element (cuda-device-id) */
#define CHAIN_832 "aooctsrc samples=832 alines=240 seed=%d num-buffers=%d " \
  "center-wavelength=800 bandwidth=20 ! aooctdcsub backend=cuda%s ! " \
  "aooctpad backend=cuda%s ! aooctkmap backend=cuda " \
  "wavelength-coeffs=785,0.125,1e-05,-2e-09%s ! aooctdisp backend=cuda " \
  "a2=8 a3=-2%s ! aooctfft backend=cuda window=hann%s ! " \
  "aooctnorm backend=cuda%s ! fakesink name=sink sync=false " \
  "signal-handoffs=true"
/* 1024 samples, no padding, 500 A-lines, another seed: a second geometry,
 * so that images crossing between pipelines would show */
#define CHAIN_1024 "aooctsrc samples=1024 alines=500 seed=%d num-buffers=%d " \
  "center-wavelength=800 bandwidth=20 ! aooctdcsub backend=cuda%s ! " \
  "aooctkmap backend=cuda wavelength-coeffs=785,0.125,1e-05,-2e-09%s ! " \
  "aooctdisp backend=cuda a2=4%s ! aooctfft backend=cuda%s ! " \
  "aooctnorm backend=cuda%s ! fakesink name=sink sync=false " \
  "signal-handoffs=true"

static gchar *
chain_832 (gint seed, gint n_buffers, gint device_id)
{
  gchar *dev = device_id >= 0 ? g_strdup_printf (" cuda-device-id=%d",
      device_id) : g_strdup ("");
  gchar *s = g_strdup_printf (CHAIN_832, seed, n_buffers, dev, dev, dev, dev,
      dev, dev);

  g_free (dev);
  return s;
}

static gchar *
chain_1024 (gint seed, gint n_buffers)
{
  return g_strdup_printf (CHAIN_1024, seed, n_buffers, "", "", "", "", "");
}

/* One pipeline run: the images the sink got, in order, and how it ended. */
typedef struct
{
  GstElement *pipeline;
  GMutex lock;
  GPtrArray *images;            /* GstBuffer */
  gchar *error;                 /* "element: message (debug)" or NULL */
  gboolean eos;
  gint device_id;               /* of the CUDA context it used, or -1 */
} Run;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Run * run)
{
  g_mutex_lock (&run->lock);
  g_ptr_array_add (run->images, gst_buffer_ref (buf));
  g_mutex_unlock (&run->lock);
}

static Run *
run_new (const gchar * launch)
{
  Run *run = g_new0 (Run, 1);
  GError *err = NULL;
  GstElement *sink;

  g_mutex_init (&run->lock);
  run->images = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  run->device_id = -1;
  run->pipeline = gst_parse_launch (launch, &err);
  fail_unless (run->pipeline != NULL && err == NULL, "%s: %s", launch,
      err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), run);
  gst_object_unref (sink);
  return run;
}

static void
run_free (Run * run)
{
  if (run->pipeline) {
    gst_element_set_state (run->pipeline, GST_STATE_NULL);
    gst_object_unref (run->pipeline);
  }
  g_ptr_array_unref (run->images);
  g_free (run->error);
  g_mutex_clear (&run->lock);
  g_free (run);
}

/* A pipeline that cannot start (an element failing at READY -> PAUSED)
 * has posted its error on the bus: run_finish() reads it. */
static void
run_start (Run * run)
{
  gst_element_set_state (run->pipeline, GST_STATE_PLAYING);
}

/* Waits (at most @timeout_s) for EOS or the first error, notes which CUDA
 * device the pipeline's context is on, and stops the pipeline.  A timeout
 * fails the test: a fault must never hang the pipeline. */
static void
run_finish (Run * run, gint timeout_s)
{
  GstBus *bus = gst_element_get_bus (run->pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  GstContext *ctx;

  fail_unless (msg != NULL, "neither EOS nor an error within %d s", timeout_s);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    run->error = g_strdup_printf ("%s: %s (%s)",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
        debug ? debug : "");
    g_clear_error (&err);
    g_free (debug);
  } else {
    run->eos = TRUE;
  }
  gst_message_unref (msg);
  ctx = gst_element_get_context (run->pipeline, CUDA_CONTEXT_TYPE);
  if (ctx) {
    const GstStructure *s = gst_context_get_structure (ctx);
    guint id;

    if (gst_structure_get_uint (s, "cuda-device-id", &id))
      run->device_id = (gint) id;
    gst_context_unref (ctx);
  }
  fail_unless_equals_int (gst_element_set_state (run->pipeline,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
}

static Run *
run_launch (const gchar * launch, gint timeout_s)
{
  Run *run = run_new (launch);

  run_start (run);
  run_finish (run, timeout_s);
  return run;
}

/* Largest difference between images @i of @a and @b (grey levels). */
static gint
image_diff (Run * a, Run * b, guint i)
{
  GstBuffer *x = g_ptr_array_index (a->images, i);
  GstBuffer *y = g_ptr_array_index (b->images, i);
  GstMapInfo mx, my;
  gint d = 0;
  gsize k;

  fail_unless_equals_uint64 (gst_buffer_get_size (x), gst_buffer_get_size (y));
  gst_buffer_map (x, &mx, GST_MAP_READ);
  gst_buffer_map (y, &my, GST_MAP_READ);
  for (k = 0; k < mx.size; k++)
    d = MAX (d, ABS ((gint) mx.data[k] - (gint) my.data[k]));
  gst_buffer_unmap (x, &mx);
  gst_buffer_unmap (y, &my);
  return d;
}

/* @run's images are exactly @ref's (all of them, or its first n). */
static void
assert_same_images (Run * run, Run * ref, guint n, const gchar * what)
{
  guint i;

  fail_unless (n <= ref->images->len);
  fail_unless_equals_int (run->images->len, n);
  for (i = 0; i < n; i++) {
    gint d = image_diff (run, ref, i);

    fail_unless (d == 0, "%s: image %u differs by up to %d levels from the "
        "same pipeline run alone", what, i, d);
  }
}

static void
assert_clean_run (Run * run, guint images, const gchar * what)
{
  fail_unless (run->error == NULL, "%s: %s", what, run->error);
  fail_unless (run->eos, "%s: no EOS", what);
  fail_unless_equals_int (run->images->len, images);
}

/* ---- faults --------------------------------------------------------------- */

#define FAULT_BUFFERS 12
#define FAULT_AT 4

/* @launch with backend=auto instead of backend=cuda; g_free */
static gchar *
on_auto (const gchar * launch)
{
  GRegex *re = g_regex_new ("backend=cuda", 0, 0, NULL);
  gchar *out = g_regex_replace_literal (re, launch, -1, 0, "backend=auto", 0,
      NULL);

  g_regex_unref (re);
  return out;
}

/* AOOCT_CUDA_FAULT=@spec (read by the elements of a fault-injection
 * build only, gst/filter/gstaooctfilter.c) on a run of the thesis chain:
 * an error from an
 * aooct element containing @expect, at most the images of the buffers
 * before the faulty one, each of them correct; then, without the fault, a
 * new pipeline makes exactly the reference images.
 *
 * @sticky: the fault loses the CUDA context, and CUDA then refuses every
 * new context in the process (measured; docs/robustness.md).  The new
 * pipeline on backend=cuda must then fail with an error that says so, and
 * on backend=auto run on the CPU and make the reference images (within
 * the one grey level that separates the two backends). */
static void
check_fault (const gchar * spec, const gchar * expect, gboolean sticky)
{
  gchar *launch = chain_832 (11, FAULT_BUFFERS, -1);
  Run *ref, *faulty, *after;
  gint64 t0;

  ref = run_launch (launch, 60);
  assert_clean_run (ref, FAULT_BUFFERS, "reference");

  g_setenv ("AOOCT_CUDA_FAULT", spec, TRUE);
  t0 = g_get_monotonic_time ();
  faulty = run_launch (launch, 60);
  g_unsetenv ("AOOCT_CUDA_FAULT");
  g_print ("fault %s: %u images, then after %.0f ms: %s\n", spec,
      faulty->images->len, (g_get_monotonic_time () - t0) / 1000.0,
      faulty->error ? faulty->error : "(no error)");
  fail_unless (faulty->error != NULL, "fault %s: no error", spec);
  fail_unless (strstr (faulty->error, expect) != NULL, "fault %s: the error "
      "does not say '%s': %s", spec, expect, faulty->error);
  fail_unless (g_str_has_prefix (faulty->error, "aooct"), "fault %s: the "
      "error does not come from an aooct element: %s", spec, faulty->error);
  /* nothing of the faulty buffer or after it passed on */
  fail_unless (faulty->images->len < FAULT_AT, "fault %s: %u images passed "
      "on, the fault was in buffer %d", spec, faulty->images->len, FAULT_AT);
  assert_same_images (faulty, ref, faulty->images->len, "images before the "
      "fault");

  after = run_launch (launch, 60);
  if (sticky) {
    gchar *auto_launch = on_auto (launch);
    gint d = 0;
    guint i;

    g_print ("after the fault, backend=cuda: %s\n", after->error ?
        after->error : "(no error)");
    fail_unless (after->error != NULL && strstr (after->error,
            "only a new process"), "after a sticky fault: %s",
        after->error ? after->error : "no error");
    fail_unless_equals_int (after->images->len, 0);
    run_free (after);
    after = run_launch (auto_launch, 120);
    assert_clean_run (after, FAULT_BUFFERS, "backend=auto after the fault");
    for (i = 0; i < FAULT_BUFFERS; i++)
      d = MAX (d, image_diff (after, ref, i));
    g_print ("after the fault, backend=auto (CPU): images within %d level(s) "
        "of the CUDA reference\n", d);
    fail_unless (d <= 1, "backend=auto after the fault: %d levels off", d);
    g_free (auto_launch);
  } else {
    assert_clean_run (after, FAULT_BUFFERS, "new pipeline after the fault");
    assert_same_images (after, ref, FAULT_BUFFERS, "new pipeline after the "
        "fault");
  }

  run_free (ref);
  run_free (faulty);
  run_free (after);
  g_free (launch);
}

GST_START_TEST (test_fault_launch)
{
  /* aooctdcsub: a launch error surfaces at once, in the element itself
   * (not aooctkmap: on CUDA it leaves its step to aooctdisp and launches
   * nothing; gst/support/aooct-pending-meta.h) */
  /* (4096 threads per block: cudaErrorInvalidValue on CUDA 13,
   * cudaErrorInvalidConfiguration on older runtimes) */
  check_fault ("aooctdcsub:launch:" G_STRINGIFY (FAULT_AT),
      "kernel launch failed: cudaError", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_fault_cufft)
{
  check_fault ("aooctfft:cufft:" G_STRINGIFY (FAULT_AT), "CUFFT_INVALID_PLAN",
      FALSE);
}

GST_END_TEST;

GST_START_TEST (test_fault_kernel)
{
  /* aooctpad's stream faults; the error surfaces wherever the next wait
   * on that work is (a later element, the download) */
  check_fault ("aooctpad:kernel:" G_STRINGIFY (FAULT_AT),
      "cudaErrorIllegalAddress", TRUE);
}

GST_END_TEST;

/* Nearly all device memory taken (by this process's own context, as
 * another application on the GPU would), then a chain whose buffers need
 * gigabytes: an element error that says memory ran out; the memory given
 * back, a new pipeline runs and makes the reference images. */
GST_START_TEST (test_device_memory_exhausted)
{
#ifdef HAVE_CUDA
  const gsize leave = (gsize) 2 << 30;
  gchar *small = chain_832 (12, 6, -1);
  /* 2048 x 1000 x 32 B-scans per buffer: 256 MiB per aooctpad buffer,
   * 512 MiB per aooctdisp / aooctfft buffer, plus cuFFT work areas */
  const gchar *big = "aooctsrc samples=2048 alines=32000 seed=13 "
      "num-buffers=4 center-wavelength=800 bandwidth=20 ! "
      "aooctdcsub backend=cuda alines-per-bscan=1000 ! "
      "aooctpad backend=cuda ! aooctkmap backend=cuda "
      "wavelength-coeffs=785,0.125,1e-05,-2e-09 ! aooctdisp backend=cuda "
      "a2=8 ! aooctfft backend=cuda ! aooctnorm backend=cuda ! "
      "fakesink name=sink sync=false signal-handoffs=true";
  size_t free_b = 0, total_b = 0;
  gpointer hog = NULL;
  Run *ref, *oom, *after;

  ref = run_launch (small, 60);
  assert_clean_run (ref, 6, "reference");

  fail_unless_equals_int (cudaFree (NULL), cudaSuccess);
  fail_unless_equals_int (cudaMemGetInfo (&free_b, &total_b), cudaSuccess);
  fail_unless (free_b > leave + (256 << 20));
  fail_unless_equals_int (cudaMalloc (&hog, free_b - leave), cudaSuccess);
  g_print ("device memory: %zu MiB of %zu MiB taken, %zu MiB left\n",
      (free_b - leave) >> 20, total_b >> 20, leave >> 20);

  oom = run_launch (big, 120);
  g_print ("with the device memory taken: %u images, %s\n",
      oom->images->len, oom->error ? oom->error : "(no error)");
  fail_unless (oom->error != NULL, "no error although the chain cannot fit");
  fail_unless (strstr (oom->error, "out of memory") != NULL
      || strstr (oom->error, "CUFFT_ALLOC_FAILED") != NULL,
      "the error does not say that device memory ran out: %s", oom->error);
  fail_unless_equals_int (oom->images->len, 0);

  fail_unless_equals_int (cudaFree (hog), cudaSuccess);
  after = run_launch (small, 60);
  assert_clean_run (after, 6, "new pipeline with the memory given back");
  assert_same_images (after, ref, 6, "new pipeline with the memory given "
      "back");
  /* and the big chain runs too, now that it fits */
  run_free (oom);
  oom = run_launch (big, 120);
  assert_clean_run (oom, 4, "the big chain with the memory given back");

  run_free (ref);
  run_free (oom);
  run_free (after);
  g_free (small);
#endif
}

GST_END_TEST;

/* ---- two pipelines on one GPU --------------------------------------------- */

#define SHARE_BUFFERS 40

GST_START_TEST (test_two_pipelines_one_gpu)
{
  gchar *la = chain_832 (21, SHARE_BUFFERS, -1);
  gchar *lb = chain_1024 (22, SHARE_BUFFERS);
  Run *ref_a = run_launch (la, 60), *ref_b = run_launch (lb, 60);
  Run *a, *b;
  GstContext *ctx;

  assert_clean_run (ref_a, SHARE_BUFFERS, "thesis chain alone");
  assert_clean_run (ref_b, SHARE_BUFFERS, "1024 chain alone");

  /* each with its own CUDA context, at the same time */
  a = run_new (la);
  b = run_new (lb);
  run_start (a);
  run_start (b);
  run_finish (a, 60);
  run_finish (b, 60);
  assert_clean_run (a, SHARE_BUFFERS, "thesis chain beside another");
  assert_clean_run (b, SHARE_BUFFERS, "1024 chain beside another");
  assert_same_images (a, ref_a, SHARE_BUFFERS, "thesis chain beside another");
  assert_same_images (b, ref_b, SHARE_BUFFERS, "1024 chain beside another");
  run_free (a);
  run_free (b);

  /* one context given to both by the application */
  a = run_new (la);
  b = run_new (lb);
  run_start (a);
  fail_unless_equals_int (gst_element_get_state (a->pipeline, NULL, NULL,
          30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  ctx = gst_element_get_context (a->pipeline, CUDA_CONTEXT_TYPE);
  fail_unless (ctx != NULL, "the pipeline announced no CUDA context");
  gst_element_set_context (b->pipeline, ctx);
  gst_context_unref (ctx);
  run_start (b);
  run_finish (a, 60);
  run_finish (b, 60);
  assert_clean_run (a, SHARE_BUFFERS, "thesis chain, shared context");
  assert_clean_run (b, SHARE_BUFFERS, "1024 chain, shared context");
  assert_same_images (a, ref_a, SHARE_BUFFERS, "thesis chain, shared context");
  assert_same_images (b, ref_b, SHARE_BUFFERS, "1024 chain, shared context");
  run_free (a);
  run_free (b);

  run_free (ref_a);
  run_free (ref_b);
  g_free (la);
  g_free (lb);
}

GST_END_TEST;

/* ---- one pipeline on each of two GPUs ------------------------------------- */

GST_START_TEST (test_one_pipeline_per_gpu)
{
  gchar *l0 = chain_832 (31, SHARE_BUFFERS, 0);
  gchar *l1 = chain_832 (31, SHARE_BUFFERS, 1);
  Run *ref = run_launch (l0, 60), *a = run_new (l0), *b = run_new (l1);
  guint i;
  gint d = 0;

  assert_clean_run (ref, SHARE_BUFFERS, "device 0 alone");
  run_start (a);
  run_start (b);
  run_finish (a, 60);
  run_finish (b, 60);
  assert_clean_run (a, SHARE_BUFFERS, "device 0 beside device 1");
  assert_clean_run (b, SHARE_BUFFERS, "device 1 beside device 0");
  fail_unless_equals_int (a->device_id, 0);
  fail_unless_equals_int (b->device_id, 1);
  assert_same_images (a, ref, SHARE_BUFFERS, "device 0 beside device 1");
  /* two GPUs of one model run the same kernels: the same images, give or
   * take a grey level where the cuFFT plans differ */
  for (i = 0; i < SHARE_BUFFERS; i++)
    d = MAX (d, image_diff (b, ref, i));
  g_print ("device 1 vs device 0: images differ by at most %d levels\n", d);
  fail_unless (d <= 1, "device 1's images differ by %d levels", d);

  run_free (ref);
  run_free (a);
  run_free (b);
  g_free (l0);
  g_free (l1);
}

GST_END_TEST;

/* the thesis chain as aooctbin, %s: gpus= */
#define BIN_832 "aooctsrc samples=832 alines=240 seed=%d num-buffers=%d " \
  "center-wavelength=800 bandwidth=20 ! aooctbin backend=cuda gpus=%s " \
  "wavelength-coeffs=785,0.125,1e-05,-2e-09 a2=8 a3=-2 window=hann ! " \
  "fakesink name=sink sync=false signal-handoffs=true"

/* aooctbin gpus=0,1: the images of one GPU, in order; those of device 0's
 * branch (the even ones) byte for byte, those of device 1 within the grey
 * level two GPUs of one model may differ by (test_one_pipeline_per_gpu). */
GST_START_TEST (test_bin_over_two_gpus)
{
  gchar *l0 = g_strdup_printf (BIN_832, 41, SHARE_BUFFERS, "0");
  gchar *l2 = g_strdup_printf (BIN_832, 41, SHARE_BUFFERS, "0,1");
  Run *ref = run_launch (l0, 60), *two = run_launch (l2, 60);
  guint i, differ = 0;
  gint d = 0;

  assert_clean_run (ref, SHARE_BUFFERS, "aooctbin gpus=0");
  assert_clean_run (two, SHARE_BUFFERS, "aooctbin gpus=0,1");
  for (i = 0; i < SHARE_BUFFERS; i++) {
    gint di = image_diff (two, ref, i);

    if (i % 2 == 0)
      fail_unless_equals_int (di, 0);
    differ += di > 0;
    d = MAX (d, di);
  }
  g_print ("aooctbin gpus=0,1 vs gpus=0: %u of %d images differ, by at most "
      "%d levels\n", differ, SHARE_BUFFERS, d);
  fail_unless (d <= 1, "device 1's images differ by %d levels", d);
  run_free (ref);
  run_free (two);
  g_free (l0);
  g_free (l2);
}

GST_END_TEST;

/* The tcase @part, when CK_RUN_CASE asks for it or for none (meson runs
 * one part per test: cuda-faults, cuda-sharing, cuda-two-gpus).  Where
 * @cannot says why it cannot run here: left out, and when it alone was
 * asked for, the program says so and exits 77 (meson: skipped). */
static TCase *
part_tcase (Suite * s, const gchar * part, const gchar * cannot)
{
  const gchar *only = g_getenv ("CK_RUN_CASE");
  TCase *tc;

  if (only && !g_str_equal (only, part))
    return NULL;
  if (cannot) {
    g_print ("%s %s: %s\n", only ? "SKIP:" : "left out:", part, cannot);
    if (only)
      exit (AOOCT_TEST_SKIP_CODE);
    return NULL;
  }
  tc = tcase_create (part);
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  return tc;
}

static Suite *
cuda_faults_suite (void)
{
  Suite *s = suite_create ("aooct-cuda-faults");
  /* counted in a child: CUDA must not be initialised before gst-check
   * forks (aooct-cuda-test-util.c) */
  gint devices;
  gchar *two = NULL;
  TCase *tc;

  aooct_test_require_cuda ();
#ifdef AOOCT_FAULT_INJECTION
  tc = part_tcase (s, "faults", NULL);
#else
  tc = part_tcase (s, "faults", "this build has no fault injection "
      "(configure it with -Dfault-injection=true, as scripts/test.sh does): "
      "the elements ignore AOOCT_CUDA_FAULT");
#endif
  if (tc) {
    tcase_add_test (tc, test_fault_launch);
    tcase_add_test (tc, test_fault_cufft);
    tcase_add_test (tc, test_fault_kernel);
    tcase_add_test (tc, test_device_memory_exhausted);
  }
  tc = part_tcase (s, "sharing", NULL);
  if (tc)
    tcase_add_test (tc, test_two_pipelines_one_gpu);
  devices = aooct_test_cuda_device_count ();
  if (devices < 2)
    two = g_strdup_printf ("%d CUDA device(s), two are needed", devices);
  tc = part_tcase (s, "two-gpus", two);
  if (tc) {
    tcase_add_test (tc, test_one_pipeline_per_gpu);
    tcase_add_test (tc, test_bin_over_two_gpus);
  }
  g_free (two);
  return s;
}

GST_CHECK_MAIN (cuda_faults);
