/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench --flow: aooctdoppler and aooctangio (spec section 12).
 *
 * For each shape: each element alone on aooctfft's output (on CUDA with
 * the image left on the GPU and the element's own GPU time per B-scan),
 * then the chain raw -> aooctdcsub .. aooctfft -> the element into a GRAY8
 * image in system memory, the raw B-scans in ordinary system memory and,
 * on CUDA, in page-locked memory, and the device-resident chain (raw in
 * CUDA memory, NV12 left on the GPU).  aooctangio is timed with
 * method=decorrelation, repeats=4: its A-lines/s are input A-lines (four
 * B-scans make one image), its latency that of the buffers that start an
 * image.  The page-locked and device feeds need the first image before
 * they can fill their pools, so aooctangio gets them only where a buffer
 * holds a whole group (1024-nopad-x8, 2048x1000-x4). */
#include "aooct-bench.h"

#define REPEATS 4

void
aooct_bench_element_rows (GString * table, FILE * out, const Shape * shape,
    GstSample * raw, GstSample * depth, gint buffers, const gchar * name,
    const gchar * props, gint group)
{
  const gchar *bk = backend ? backend : "auto";
  const gdouble per = shape->per_buffer;
  gchar *head = chain_desc (shape, 0, N_STAGES - 2);
  gchar *el = g_strdup_printf ("%s %s backend=%s", name, props, bk);
  gchar *alone = g_strdup_printf ("%s name=el%s", el,
      on_cuda ()? " gpu-timing=true" : "");
  gchar *chain = g_strdup_printf ("%s ! %s", head, el);
  gchar *chain_queued = g_strdup_printf ("%s ! queue max-size-buffers=2 "
      "max-size-bytes=0 max-size-time=0 ! %s", head, el);
  gchar *label;
  Timing t;

  /* @group 0: one image per buffer (all its B-scans stacked) */
  outputs_per_input = group > 0 ? per / group : 1.0;
  /* about @buffers images timed after the warm-up ones, also where an
   * image takes several buffers */
  if (outputs_per_input < 1)
    buffers = (gint) (buffers / outputs_per_input + 0.5);
  t = time_chain (alone, on_cuda ()?
      "video/x-raw(memory:CUDAMemory),format=NV12" : NULL, depth, buffers,
      FEED_SYSTEM, FALSE);
  if (t.ms <= 0) {
    emit (table, out, "| %s alone | failed (see the messages above) | | |\n",
        name);
  } else if (on_cuda ()) {
    /* GPU time per input B-scan: over every collect and image of the run */
    gdouble gpu = t.gpu_total_ms / ((buffers + WARMUP) * per);

    emit (table, out, "| %s alone, image left on the GPU: wall %.4f ms, "
        "GPU %.4f ms per B-scan | %.4f | %.3g | |\n", name, t.ms / per, gpu,
        t.ms / per, shape->alines / (t.ms / per / 1e3));
  } else {
    emit (table, out, "| %s alone | %.4f | %.3g | |\n", name, t.ms / per,
        shape->alines / (t.ms / per / 1e3));
  }
  g_free (t.host);
  label = g_strdup_printf ("chain to %s, raw B-scans in ordinary system "
      "memory, GRAY8 image in system memory", name);
  t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
      FEED_SYSTEM, FALSE);
  emit_row (table, out, label, &t, shape);
  g_free (label);
  g_free (t.host);
  /* the page-locked and device feeds wait for the first image before
   * they fill their pools: a buffer must make one */
  if (on_cuda () && shape->per_buffer >= group) {
    label = g_strdup_printf ("**chain to %s, raw B-scans in page-locked "
        "memory, GRAY8 image in system memory**", name);
    t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
        FEED_PINNED, FALSE);
    emit_row (table, out, label, &t, shape);
    g_free (label);
    g_free (t.host);
    /* the flow element in a thread of its own: its images' downloads
     * (aooctangio's come out of generate_output, not the output ring)
     * overlap the next buffer's upload and FFT */
    label = g_strdup_printf ("the same page-locked row with a short queue "
        "before %s (a thread of its own)", name);
    t = time_chain (chain_queued, "video/x-raw,format=GRAY8", raw, buffers,
        FEED_PINNED, FALSE);
    emit_row (table, out, label, &t, shape);
    g_free (label);
    g_free (t.host);
    label = g_strdup_printf ("chain to %s, device-resident (raw in CUDA "
        "memory, image left on the GPU, NV12)", name);
    t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12", raw,
        buffers, FEED_DEVICE, FALSE);
    emit_row (table, out, label, &t, shape);
    g_free (label);
    g_free (t.host);
  } else if (on_cuda ()) {
    emit (table, out, "| chain to %s from page-locked or CUDA memory: see "
        "the shape with %d B-scans per buffer | | | |\n", name, group);
  }
  outputs_per_input = 1.0;
  g_free (chain);
  g_free (chain_queued);
  g_free (alone);
  g_free (el);
  g_free (head);
}

void
aooct_bench_flow_rows (GString * table, FILE * out, const Shape * shape,
    GstSample * raw, gint buffers)
{
  /* what aooctnorm would get: aooctfft's output */
  GstSample *depth = capture_input (shape, N_STAGES - 1);

  emit (table, out, "| flow (spec 12) | ms per B-scan | input A-lines/s | "
      "latency median / max, ms per buffer |\n|---|---:|---:|---:|\n");
  aooct_bench_element_rows (table, out, shape, raw, depth, buffers,
      "aooctdoppler", "", 0);
  aooct_bench_element_rows (table, out, shape, raw, depth, buffers,
      "aooctangio", "method=decorrelation repeats=4", REPEATS);
  emit (table, out, "\n");
  gst_sample_unref (depth);
}
