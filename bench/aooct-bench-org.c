/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench --org: aooctorg (spec section 13, optoretinography).
 *
 * For each shape (the issue's: 1024-nopad-x8, 1024 x 1000 without padding,
 * 8 B-scans per buffer; 512x512-x8, AO-OCT B-scans): aooctorg alone on
 * aooctfft's output (on CUDA with the kymograph left on the GPU and the
 * element's own GPU time per B-scan), then the chain raw -> aooctdcsub ..
 * aooctfft -> aooctorg into a GRAY8 kymograph in system memory, fed from
 * ordinary and, on CUDA, page-locked and device memory: the rows of
 * aooct-bench-flow.c's aooct_bench_element_rows ().  The kymograph is 64
 * rows high (history=64): what a live display shows, and what the
 * download per B-scan costs. */
#include "aooct-bench.h"

void
aooct_bench_org_rows (GString * table, FILE * out, const Shape * shape,
    GstSample * raw, gint buffers)
{
  GstSample *depth = capture_input (shape, N_STAGES - 1);

  emit (table, out, "| optoretinography (spec 13) | ms per B-scan | input "
      "A-lines/s | latency median / max, ms per buffer |\n"
      "|---|---:|---:|---:|\n");
  aooct_bench_element_rows (table, out, shape, raw, depth, buffers,
      "aooctorg", "history=64 baseline=10 center-wavelength=840", 0);
  emit (table, out, "\n");
  gst_sample_unref (depth);
}
