/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the --fullrange rows (see aooct-bench.h). */
#include <stdio.h>
#include <gst/gst.h>

#include "aooct-bench.h"

/* The full-range rows of @shape (--fullrange): aooctfullrange alone, then
 * the chain with it after aooctdcsub fed with @raw. */
void
aooct_bench_fullrange_rows (GString * table, FILE * out, const Shape * shape,
    GstSample * raw, gint buffers)
{
  const gchar *bk = backend ? backend : "auto";
  gdouble per = shape->per_buffer;
  gchar *first = stage_desc (shape, 0);
  gchar *rest = chain_desc (shape, 1, N_STAGES - 1);
  gchar *chain = g_strdup_printf ("%s ! aooctfullrange backend=%s ! %s",
      first, bk, rest);
  gchar *alone = g_strdup_printf ("aooctfullrange backend=%s name=el%s", bk,
      on_cuda ()? " gpu-timing=true" : "");
  GstSample *in = capture_input (shape, 1);
  Timing t;

  t = time_chain (alone, on_cuda ()? "application/x-aooct(memory:CUDAMemory)"
      : NULL, in, buffers, FEED_SYSTEM, FALSE);
  emit (table, out, "| complex full range (aooctfullrange after aooctdcsub) "
      "| ms per B-scan | A-lines/s | latency median / max, ms per buffer "
      "|\n|---|---:|---:|---:|\n");
  if (on_cuda ())
    emit (table, out, "| aooctfullrange alone: wall %.4f ms, GPU %.4f ms "
        "per B-scan | %.4f | %.3g | |\n", t.ms / per, t.gpu_ms / per,
        t.ms / per, shape->alines / (t.ms / per / 1e3));
  else
    emit (table, out, "| aooctfullrange alone | %.4f | %.3g | |\n", t.ms / per,
        shape->alines / (t.ms / per / 1e3));
  g_free (t.host);
  t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
      FEED_SYSTEM, FALSE);
  emit_row (table, out, "full-range chain, raw B-scans in ordinary system "
      "memory, GRAY8 image (P1 rows) in system memory", &t, shape);
  g_free (t.host);
  if (on_cuda ()) {
    t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
        FEED_PINNED, FALSE);
    emit_row (table, out, "**full-range chain, raw B-scans in page-locked "
        "memory, GRAY8 image (P1 rows) in system memory**", &t, shape);
    g_free (t.host);
    t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
        raw, buffers, FEED_DEVICE, FALSE);
    emit_row (table, out, "full-range chain, device-resident (raw in CUDA "
        "memory, image left on the GPU, NV12)", &t, shape);
    g_free (t.host);
  }
  emit (table, out, "\n");
  gst_sample_unref (in);
  g_free (alone);
  g_free (chain);
  g_free (rest);
  g_free (first);
}
