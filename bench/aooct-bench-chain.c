/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the section of a shape, the benchmark that runs unless
 * another one is asked for: the per-element rows (aooct-bench-steps.c),
 * then the whole chain fed from appsrc, raw B-scans in ordinary system
 * memory and, on CUDA,
 *   - in page-locked memory from the pool aooctdcsub proposes (uploaded in
 *     place) and already in CUDA memory (the device-resident chain),
 *   - the image in system memory (GRAY8) or left on the GPU (NV12),
 *   - on one, two, three streaming threads and one per element, with and
 *     without CUDA graphs and the fused steps,
 *   - the latency without load, the GPU time per element, and the
 *     ceilings' bounds;
 * then the --fullrange, --flow and file rows, and the host time of each
 * element per buffer. */
#include <stdio.h>
#include <gst/gst.h>

#include "aooct-bench.h"

/* what the CUDA rows leave for the notes under the section */
typedef struct
{
  Timing pinned, graphs;        /* page-locked GRAY8, without CUDA graphs */
  gchar *gpu_note, *gpu_note3;  /* gpu-timing=true on one, three threads */
} CudaNotes;

static void
cuda_rows (Bench * b, const Shape * shape, const StepSums * sums,
    const gchar * chain, GstSample * raw, CudaNotes * notes)
{
  GString *table = b->table;
  FILE *out = b->out;
  gdouble per = shape->per_buffer;
  gchar *queued;
  Timing t;

  t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
      raw, b->buffers, FEED_SYSTEM, FALSE);
  emit_row (table, out, "raw B-scans in ordinary system memory, image "
      "left on the GPU (NV12, CUDA memory)", &t, shape);
  g_free (t.host);
  notes->pinned =
      time_chain (chain, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_PINNED, FALSE);
  emit_row (table, out,
      "**raw B-scans in page-locked memory (pool "
      "proposed by aooctdcsub), GRAY8 image in system memory**", &notes->pinned,
      shape);
  t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12", raw,
      b->buffers, FEED_PINNED, FALSE);
  emit_row (table, out,
      "raw B-scans in page-locked memory (pool "
      "proposed by aooctdcsub), image left on the GPU (NV12, CUDA " "memory)",
      &t, shape);
  g_free (t.host);
  /* without CUDA graphs (on by default, cuda/aooct-cuda-graph.h):
   * every kernel launched one by one */
  with_cuda_graphs = FALSE;
  notes->graphs =
      time_chain (chain, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_PINNED, FALSE);
  emit_row (table, out,
      "the same page-locked GRAY8 row with "
      "cuda-graphs=false (every kernel launched one by one)", &notes->graphs,
      shape);
  t = time_chain (chain, "video/x-raw,format=GRAY8", raw, MIN (b->buffers, 100),
      FEED_PINNED, TRUE);
  with_cuda_graphs = -1;
  emit_row (table, out, "latency without load with cuda-graphs=false",
      &t, shape);
  g_free (t.host);
  /* one B-scan per buffer is bound by each element's host work on
   * one streaming thread: the same work on two, then three threads */
  {
    gchar *head = chain_desc (shape, 0, 0), *rest = chain_desc (shape, 1, 5);

    queued = g_strdup_printf ("%s ! " SHORT_QUEUE " ! %s", head, rest);
    t = time_chain (queued, "video/x-raw,format=GRAY8", raw, b->buffers,
        FEED_PINNED, FALSE);
    emit_row (table, out, "the same page-locked GRAY8 row on two "
        "threads (a short queue after aooctdcsub)", &t, shape);
    g_free (t.host);
    g_free (queued);
    g_free (head);
    g_free (rest);
  }
  queued = chain_queued_desc (shape);
  t = time_chain (queued, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_PINNED, FALSE);
  emit_row (table, out, "the same page-locked GRAY8 row on three "
      "threads (a short queue after aooctdcsub and after aooctfft)", &t, shape);
  g_free (t.host);
  with_cuda_graphs = FALSE;
  t = time_chain (queued, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_PINNED, FALSE);
  emit_row (table, out, "the same on three threads with cuda-graphs=false",
      &t, shape);
  g_free (t.host);
  with_cuda_graphs = -1;
  t = time_chain (queued, "video/x-raw,format=GRAY8", raw, MIN (b->buffers,
          100), FEED_PINNED, TRUE);
  emit_row (table, out, "latency without load on three threads", &t, shape);
  g_free (t.host);
  {
    gchar *each = chain_desc (shape, 0, N_STAGES - 1), **steps, *all;

    /* a thread per element: how far spreading the host work goes */
    steps = g_strsplit (each, " ! ", -1);
    all = g_strjoinv (" ! " SHORT_QUEUE " ! ", steps);
    t = time_chain (all, "video/x-raw,format=GRAY8", raw, b->buffers,
        FEED_PINNED, FALSE);
    emit_row (table, out, "the same page-locked GRAY8 row with a short "
        "queue after every element (a thread each)", &t, shape);
    g_free (t.host);
    g_strfreev (steps);
    g_free (all);
    g_free (each);
  }
  /* where the GPU time goes: each element's own GPU work per buffer
   * (CUDA events around it), against the wall time per buffer */
  with_gpu_timing = TRUE;
  t = time_chain (chain, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_PINNED, FALSE);
  emit_row (table, out, "the page-locked GRAY8 row with gpu-timing=true "
      "(GPU time per element below)", &t, shape);
  notes->gpu_note = g_strdup_printf ("one thread %.4f ms per buffer: %s",
      t.ms, t.host ? t.host : "");
  g_free (t.host);
  t = time_chain (queued, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_PINNED, FALSE);
  with_gpu_timing = FALSE;
  emit_row (table, out, "the same on three threads with gpu-timing=true",
      &t, shape);
  notes->gpu_note3 = g_strdup_printf ("three threads %.4f ms per buffer: %s",
      t.ms, t.host ? t.host : "");
  g_free (t.host);
  g_free (queued);
  t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
      raw, b->buffers, FEED_DEVICE, FALSE);
  if (b->have_ceil && t.ms > 0 && sums->bound_sum > 0) {
    gchar *label = g_strdup_printf ("device-resident: raw B-scans in "
        "CUDA memory, image left on the GPU (NV12): %.0f %% of the "
        "D2D bound", 100.0 * sums->bound_sum / (t.ms / per));

    emit_row (table, out, label, &t, shape);
    g_free (label);
  } else {
    emit_row (table, out, "device-resident: raw B-scans in CUDA memory, "
        "image left on the GPU (NV12)", &t, shape);
  }
  g_free (t.host);
  /* the same without the deferred steps (gst/support/aooct-pending-meta.h):
   * what fusing kmap, disp and the window into one pass gains */
  with_defer_steps = FALSE;
  t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
      raw, b->buffers, FEED_DEVICE, FALSE);
  with_defer_steps = -1;
  emit_row (table, out, "device-resident, steps not fused "
      "(defer-steps=false: aooctkmap and aooctdisp each make their own "
      "pass)", &t, shape);
  g_free (t.host);
  t = time_chain (chain, "video/x-raw,format=GRAY8", raw, MIN (b->buffers,
          100), FEED_PINNED, TRUE);
  emit_row (table, out, "latency without load: one buffer at a time, "
      "raw in page-locked memory, GRAY8 image in system memory", &t, shape);
  g_free (t.host);
  if (b->have_ceil) {
    gdouble h2d = sums->raw_bytes / (b->h2d_gbs * 1e9) * 1e3;

    emit (table, out, "| bound: upload of the raw B-scan at the pinned "
        "H2D ceiling | %.4f | %.3g | |\n", h2d, shape->alines / (h2d / 1e3));
    if (!b->no_steps) {
      emit (table, out, "| bound: memory traffic of the steps at the "
          "D2D ceiling | %.4f | %.3g | |\n", sums->bound_sum,
          shape->alines / (sums->bound_sum / 1e3));
      emit (table, out, "| GPU time of the steps (sum, each alone) | "
          "%.4f | %.3g | |\n", sums->gpu_sum,
          shape->alines / (sums->gpu_sum / 1e3));
    }
  }
}

void
aooct_bench_shape_rows (Bench * b, const Shape * shape)
{
  GString *table = b->table;
  FILE *out = b->out;
  CudaNotes notes = { {-1, 0, 0, 0, NULL}, {-1, 0, 0, 0, NULL}, NULL, NULL };
  StepSums sums;
  Timing whole;
  gchar *chain, *host_note;
  GstSample *raw;

  emit (table, out, "## %s: %d samples x %d A-lines%s, %d B-scan%s per "
      "buffer, log output\n\n", shape->name, shape->samples, shape->alines,
      shape->pad ? ", padded 2048 -> 4096" : ", no padding",
      shape->per_buffer, shape->per_buffer > 1 ? "s" : "");
  sums = aooct_bench_step_rows (b, shape);
  raw = capture_input (shape, 0);
  chain = chain_desc (shape, 0, N_STAGES - 1);
  emit (table, out, "| whole chain (appsrc ! ... ! fakesink) "
      "| ms per B-scan | A-lines/s | latency median / max, ms per buffer "
      "|\n|---|---:|---:|---:|\n");
  whole = time_chain (chain, "video/x-raw,format=GRAY8", raw, b->buffers,
      FEED_SYSTEM, FALSE);
  emit_row (table, out, "**raw B-scans in ordinary system memory, GRAY8 "
      "image in system memory**", &whole, shape);
  host_note = whole.host;
  if (on_cuda ())
    cuda_rows (b, shape, &sums, chain, raw, &notes);
  if (b->fullrange) {
    emit (table, out, "\n");
    aooct_bench_fullrange_rows (table, out, shape, raw, b->buffers);
  }
  if (b->flow) {
    emit (table, out, "\n");
    aooct_bench_flow_rows (table, out, shape, raw, b->buffers);
  }
  if (b->org) {
    emit (table, out, "\n");
    aooct_bench_org_rows (table, out, shape, raw, b->buffers);
  }
  if (!b->no_files)
    aooct_bench_file_rows (b, shape, raw, on_cuda ()? &notes.pinned : NULL);
  emit (table, out, "\nHost time per buffer in each element's transform, "
      "whole chain into GRAY8 (ms), raw B-scans in ordinary system "
      "memory: %s\n", host_note ? host_note : "");
  if (notes.pinned.host)
    emit (table, out, "\nthe same, raw B-scans in page-locked memory: "
        "%s\n", notes.pinned.host);
  if (notes.graphs.host)
    emit (table, out, "\nthe same, page-locked, cuda-graphs=false: "
        "%s\n", notes.graphs.host);
  g_free (notes.graphs.host);
  if (notes.gpu_note)
    emit (table, out, "\nHost (and GPU) ms per buffer of each element, "
        "page-locked, gpu-timing=true, %s\n\nthe same, %s\n", notes.gpu_note,
        notes.gpu_note3 ? notes.gpu_note3 : "");
  g_free (notes.gpu_note);
  g_free (notes.gpu_note3);
  emit (table, out, "\n");
  g_free (notes.pinned.host);
  g_free (host_note);
  g_free (chain);
  gst_sample_unref (raw);
}
