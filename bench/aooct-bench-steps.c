/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the per-element rows of a shape, each element alone
 * (appsrc ! element ! fakesink) on the input it sees in the chain
 * (captured once); on CUDA with its output left on the GPU, as inside the
 * chain, its own GPU time (gpu-timing) and the bytes it moves against
 * the device-to-device ceiling. */
#include <stdio.h>
#include <gst/gst.h>

#include "aooct-bench.h"

static const gchar *stage_names[N_STAGES] = {
  "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp", "aooctfft", "aooctnorm"
};

StepSums
aooct_bench_step_rows (Bench * b, const Shape * shape)
{
  GString *table = b->table;
  FILE *out = b->out;
  StepSums sums = { 0, 0, 0 };
  gdouble sum = 0, mb_sum = 0;
  gdouble per = shape->per_buffer;
  gsize sizes[N_STAGES + 1];
  gint i;

  if (!b->no_steps)
    emit (table, out, "| step | wall ms per B-scan | A-lines/s (wall) |%s"
        "\n|---|---:|---:|%s\n", on_cuda ()? " GPU ms per B-scan | MB "
        "moved per B-scan | memory bound ms |" : "", on_cuda ()?
        "---:|---:|---:|" : "");
  /* buffer sizes entering each step and leaving the last */
  for (i = 0; i <= (b->no_steps ? 0 : N_STAGES); i++) {
    GstSample *in;

    sizes[i] = 0;
    if (i == 1 && !shape->pad)
      continue;
    in = capture_input (shape, i);
    sizes[i] = gst_buffer_get_size (gst_sample_get_buffer (in));
    gst_sample_unref (in);
  }
  for (i = 0; i < (b->no_steps ? 0 : N_STAGES); i++) {
    GstSample *in;
    gchar *d, *named;
    Timing t;
    gint next = (i == 0 && !shape->pad) ? 2 : i + 1;
    gdouble mb = (sizes[i] + sizes[next]) / per / 1e6;

    if (i == 1 && !shape->pad)
      continue;
    in = capture_input (shape, i);
    d = stage_desc (shape, i);
    named = g_strdup_printf ("%s name=el%s", d, on_cuda ()?
        " gpu-timing=true" : "");
    /* on CUDA the output stays on the GPU, as it does inside a chain */
    t = time_chain (named, on_cuda () && i < N_STAGES - 1 ?
        "application/x-aooct(memory:CUDAMemory)" : NULL, in, b->buffers,
        FEED_SYSTEM, FALSE);
    sum += t.ms / per;
    sums.gpu_sum += t.gpu_ms / per;
    mb_sum += mb;
    if (on_cuda ()) {
      gdouble bound = b->have_ceil ? mb * 1e6 / (b->d2d_gbs * 1e9) * 1e3 : 0;

      sums.bound_sum += bound;
      emit (table, out, "| %s | %.4f | %.3g | %.4f | %.2f | %.4f |\n",
          stage_names[i], t.ms / per, shape->alines / (t.ms / per / 1e3),
          t.gpu_ms / per, mb, bound);
    } else {
      emit (table, out, "| %s | %.3f | %.3g |\n", stage_names[i],
          t.ms / per, shape->alines / (t.ms / per / 1e3));
    }
    g_free (t.host);
    g_free (named);
    g_free (d);
    gst_sample_unref (in);
  }
  if (!b->no_steps && on_cuda ())
    emit (table, out, "| sum of steps | %.4f | %.3g | %.4f | %.2f | %.4f |"
        "\n\n", sum, shape->alines / (sum / 1e3), sums.gpu_sum, mb_sum,
        sums.bound_sum);
  else if (!b->no_steps)
    emit (table, out, "| sum of steps | %.3f | %.3g |\n\n", sum,
        shape->alines / (sum / 1e3));
  sums.raw_bytes = sizes[0] / per;
  return sums;
}
