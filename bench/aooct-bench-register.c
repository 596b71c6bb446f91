/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench --aooct: aooctregister (spec section 13).
 *
 * For each shape (1024 x 1000 unpadded, 8 B-scans a buffer: the chain's
 * headline shape; 512 x 512, 32 a buffer: AO-OCT B-scans, 512 of them a
 * 512^3 volume): aooctregister alone on aooctfft's output (on CUDA its own
 * GPU time per B-scan and that of 512 B-scans), with reference=first and
 * reference=previous (B-scan after B-scan), then the chain raw ->
 * aooctdcsub .. aooctfft ! aooctregister ! aooctnorm into a GRAY8 image:
 * raw in ordinary system memory and, on CUDA, in page-locked memory, and
 * device-resident (raw in CUDA memory, NV12 left on the GPU). */
#include "aooct-bench.h"

static void
alone_row (GString * table, FILE * out, const Shape * shape,
    GstSample * depth, gint buffers, const gchar * props)
{
  const gchar *bk = backend ? backend : "auto";
  const gdouble per = shape->per_buffer;
  gchar *desc = g_strdup_printf ("aooctregister %s backend=%s name=el%s",
      props, bk, on_cuda ()? " gpu-timing=true" : "");
  Timing t = time_chain (desc, NULL, depth, buffers, FEED_SYSTEM, FALSE);

  if (t.ms <= 0) {
    emit (table, out, "| aooctregister %s alone | failed (see the messages "
        "above) | | |\n", props);
  } else if (on_cuda ()) {
    gdouble gpu = t.gpu_total_ms / ((buffers + WARMUP) * per);

    emit (table, out, "| aooctregister %s alone: wall %.4f ms, GPU %.4f ms "
        "per B-scan (%.2f ms of GPU time per 512 B-scans) | %.4f | %.3g | "
        "|\n", props, t.ms / per, gpu, 512 * gpu, t.ms / per,
        shape->alines / (t.ms / per / 1e3));
  } else {
    emit (table, out, "| aooctregister %s alone | %.4f | %.3g | |\n", props,
        t.ms / per, shape->alines / (t.ms / per / 1e3));
  }
  g_free (t.host);
  g_free (desc);
}

void
aooct_bench_register_rows (GString * table, FILE * out, const Shape * shape,
    gint buffers)
{
  const gchar *bk = backend ? backend : "auto";
  GstSample *raw = capture_input (shape, 0);
  GstSample *depth = capture_input (shape, N_STAGES - 1);
  gchar *head = chain_desc (shape, 0, N_STAGES - 2);
  gchar *chain = g_strdup_printf ("%s ! aooctregister backend=%s ! "
      "aooctnorm backend=%s", head, bk, bk);
  Timing t;

  emit (table, out, "\n### %s: %d samples x %d A-lines, %d B-scans per "
      "buffer, no padding (aooctregister, spec 13)\n\n", shape->name,
      shape->samples, shape->alines, shape->per_buffer);
  emit (table, out, "| registration | ms per B-scan | A-lines/s | latency "
      "median / max, ms per buffer |\n|---|---:|---:|---:|\n");
  alone_row (table, out, shape, depth, buffers, "reference=first");
  alone_row (table, out, shape, depth, buffers, "reference=previous");
  t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
      FEED_SYSTEM, FALSE);
  emit_row (table, out, "chain to aooctregister ! aooctnorm, raw B-scans in "
      "ordinary system memory, GRAY8 image in system memory", &t, shape);
  g_free (t.host);
  if (on_cuda ()) {
    t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
        FEED_PINNED, FALSE);
    emit_row (table, out, "**chain to aooctregister ! aooctnorm, raw "
        "B-scans in page-locked memory, GRAY8 image in system memory**", &t,
        shape);
    g_free (t.host);
    t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12", raw,
        buffers, FEED_DEVICE, FALSE);
    emit_row (table, out, "chain to aooctregister ! aooctnorm, "
        "device-resident (raw in CUDA memory, image left on the GPU, NV12)",
        &t, shape);
    g_free (t.host);
  }
  emit (table, out, "\n");
  g_free (chain);
  g_free (head);
  gst_sample_unref (depth);
  gst_sample_unref (raw);
}
