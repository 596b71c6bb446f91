/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the --cs rows (aooctcs) (see aooct-bench.h). */
#include <stdio.h>
#include <gst/gst.h>

#include "aooct-synth.h"
#include "aooct-bench.h"

/* Compressive sensing (--cs, spec section 10): aooctcs at 2048 samples x
 * 1000 A-lines (no padding), 40 % of the spectrum, 15 iterations, after
 * aooctdcsub, with operator=nufft (KB, R = 2, W = 3), nufft with its
 * defaults (R = 2, W = 6) and nudft; then the chain raw -> aooctdcsub ->
 * aooctcs (nufft W = 3) -> aooctnorm. */
void
aooct_bench_cs_rows (GString * table, FILE * out, gint buffers)
{
  static const Shape cs_shape = { "cs-2048x1000", 2048, 1000, FALSE, 1 };
  static const struct
  {
    const gchar *label, *props;
  } ops[] = {
    {"nufft, Kaiser-Bessel R = 2, W = 3", "operator=nufft nufft-width=3"},
    {"nufft defaults (Kaiser-Bessel R = 2, W = 6)", "operator=nufft"},
    {"nudft (exact sums, cuBLAS / BLAS)", "operator=nudft"},
  };
  const gchar *bk = backend ? backend : "auto";
  GstSample *in = capture_input (&cs_shape, 1), *raw = capture_input
      (&cs_shape, 0);
  guint k;

  emit (table, out, "## aooctcs: 2048 samples x 1000 A-lines, 40 %% of the "
      "spectrum (U = 819), 15 iterations, P = 2048\n\n| operator | wall ms "
      "per B-scan | B-scans/s (wall) |%s\n|---|---:|---:|%s\n", on_cuda ()?
      " GPU ms per B-scan | B-scans/s (GPU time) |" : "", on_cuda ()?
      "---:|---:|" : "");
  for (k = 0; k < G_N_ELEMENTS (ops); k++) {
    gchar *d = g_strdup_printf ("aooctcs backend=%s name=el%s "
        "wavelength-coeffs=\"%s\" mask-fraction=0.4 iterations=15 %s", bk,
        on_cuda ()? " gpu-timing=true" : "",
        AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, ops[k].props);
    Timing t = time_chain (d, on_cuda ()?
        "application/x-aooct(memory:CUDAMemory)" : NULL, in, buffers,
        FEED_SYSTEM, FALSE);

    if (t.ms <= 0)
      emit (table, out, "| %s | failed (see the messages above) | |%s\n",
          ops[k].label, on_cuda ()? " | |" : "");
    else if (on_cuda ())
      emit (table, out, "| %s | %.3f | %.1f | %.3f | %.1f |\n", ops[k].label,
          t.ms, 1e3 / t.ms, t.gpu_ms, t.gpu_ms > 0 ? 1e3 / t.gpu_ms : 0.0);
    else
      emit (table, out, "| %s | %.3f | %.2f |\n", ops[k].label, t.ms,
          1e3 / t.ms);
    g_free (t.host);
    g_free (d);
  }
  {
    gchar *d = g_strdup_printf ("aooctdcsub backend=%s ! aooctcs backend=%s "
        "wavelength-coeffs=\"%s\" mask-fraction=0.4 operator=nufft "
        "nufft-width=3 ! aooctnorm backend=%s", bk, bk,
        AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, bk);
    Timing t = time_chain (d, "video/x-raw,format=GRAY8", raw, buffers,
        on_cuda ()? FEED_PINNED : FEED_SYSTEM, FALSE);

    /* a table of its own: emit_row's columns are the chain tables'
     * (ms per B-scan, A-lines/s, latency), not the operators' above */
    emit (table, out, "\n| chain | ms per B-scan | A-lines/s | latency "
        "median / max, ms per buffer |\n|---|---:|---:|---:|\n");
    emit_row (table, out, "chain raw -> aooctdcsub -> aooctcs (nufft W = 3) "
        "-> aooctnorm GRAY8 (raw in page-locked memory on CUDA)", &t,
        &cs_shape);
    g_free (t.host);
    g_free (d);
  }
  emit (table, out, "\n");
  gst_sample_unref (in);
  gst_sample_unref (raw);
}
