/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench --scale-out GPUS: one pipeline over several GPUs, the rows
 * of docs/scale-out.md (scripts/measure/scale-out-bench.sh runs it on one GPU, on
 * two, and as two processes, and reads the rows).  With --thread-times (on
 * by default here) each row is followed, in the log, by the CPU time each
 * thread of the process used while it was timed: which thread saturates
 * when one process drives two GPUs. */
#include <stdio.h>
#include <stdlib.h>
#include <gst/gst.h>

#include "aooct-synth.h"
#include "aooct-bench.h"

/* @chain with each "@DEV@" replaced by the device, once for each of the
 * @n @devices: the chain itself for one, aooctsplit and aooctmerge around
 * one branch per device otherwise (docs/scale-out.md). */
static gchar *
scale_desc (const gchar * chain, const gint * devices, gint n)
{
  GString *d = g_string_new (n > 1 ? "aooctsplit name=s" : "");
  gchar **bits = g_strsplit (chain, "@DEV@", -1);
  const gchar *q = g_getenv ("AOOCT_SCALE_QUEUES");
  gint k, queue_front = 2, queue_back = 0;
  gchar back_str[16];

  if (q && sscanf (q, "%d,%d", &queue_front, &queue_back) < 1)
    queue_front = 2;
  queue_front = MAX (queue_front, 1);
  g_snprintf (back_str, sizeof back_str, "%d", queue_back);

  for (k = 0; k < n; k++) {
    gchar *dev = g_strdup_printf ("%d", devices[k]);
    gchar *c = g_strjoinv (dev, bits);

    /* AOOCT_SCALE_QUEUES=F,B: the branches' queue of F buffers in front
     * (default 2) and, B > 0, one of B buffers between the branch and
     * aooctmerge (default none), to see what the branches' coupling costs */
    if (n > 1)
      g_string_append_printf (d, "  s. ! queue max-size-buffers=%d "
          "max-size-bytes=0 max-size-time=0 ! %s%s%s ! m.", queue_front, c,
          queue_back > 0 ? " ! queue max-size-bytes=0 max-size-time=0 "
          "max-size-buffers=" : "", queue_back > 0 ? back_str : "");
    else
      g_string_append (d, c);
    g_free (c);
    g_free (dev);
  }
  if (n > 1)
    g_string_append (d, "  aooctmerge name=m");
  g_strfreev (bits);
  return g_string_free (d, FALSE);
}

/* The rows of docs/scale-out.md's table on the devices of @gpus ("0",
 * "0,1", ...): the standard chain at 2048 x 1000, 4 B-scans per buffer;
 * aooctcs at 2048 x 1000, 40 %; the thesis shape, 16 per buffer.  Raw
 * B-scans in page-locked memory on CUDA.  Each row is "| name | ... |
 * A-lines/s |" for scripts/measure/scale-out-bench.sh to read. */
void
aooct_bench_scale_rows (Bench * b, const gchar * gpus)
{
  GString *table = b->table;
  FILE *out = b->out;
  static const Shape x4 = { "2048x1000-x4", 2048, 1000, TRUE, 4 };
  static const Shape cs = { "cs-2048x1000", 2048, 1000, FALSE, 1 };
  static const Shape x16 = { "thesis-x16", 832, 240, TRUE, 16 };
  const gchar *bk = backend ? backend : "auto";
  gchar **parts = g_strsplit (gpus, ",", -1);
  gint n = g_strv_length (parts), k, devices[16];
  const Feed feed = on_cuda ()? FEED_PINNED : FEED_SYSTEM;
  gchar *standard, *compressive;
  const Shape *shapes_[3] = { &x4, &cs, &x16 };
  const gchar *chains[3];

  if (n < 1 || n > 16) {
    g_printerr ("--scale-out: 1 to 16 devices, got '%s'\n", gpus);
    exit (2);
  }
  for (k = 0; k < n; k++)
    devices[k] = atoi (parts[k]);
  g_strfreev (parts);
  standard = g_strdup_printf ("aooctdcsub backend=%s cuda-device-id=@DEV@ ! "
      "aooctpad size=2048 factor=2 backend=%s cuda-device-id=@DEV@ ! "
      "aooctkmap wavelength-coeffs=\"%s\" backend=%s cuda-device-id=@DEV@ ! "
      "aooctdisp a2=%g a3=%g backend=%s cuda-device-id=@DEV@ ! aooctfft "
      "backend=%s cuda-device-id=@DEV@ ! aooctnorm backend=%s "
      "cuda-device-id=@DEV@", bk, bk, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      bk, AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3,
      bk, bk, bk);
  compressive = g_strdup_printf ("aooctdcsub backend=%s cuda-device-id=@DEV@ "
      "! aooctcs backend=%s cuda-device-id=@DEV@ wavelength-coeffs=\"%s\" "
      "mask-fraction=0.4 operator=nufft nufft-width=3 ! aooctnorm backend=%s "
      "cuda-device-id=@DEV@", bk, bk, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      bk);
  chains[0] = chains[2] = standard;
  chains[1] = compressive;
  /* each branch holds page-locked buffers of its own;
   * AOOCT_SCALE_PINNED=K: K in all (to see whether the pool limits) */
  n_pinned = g_getenv ("AOOCT_SCALE_PINNED") ?
      CLAMP (atoi (g_getenv ("AOOCT_SCALE_PINNED")), 2, N_PINNED_MAX) :
      MIN (N_PINNED * n, N_PINNED_MAX);

  emit (table, out, "## scale-out: gpus=%s (%s)\n\n| row | B-scans per "
      "buffer | ms per buffer | A-lines/s |\n|---|---:|---:|---:|\n", gpus,
      n == 1 ? "the chain alone" : "aooctsplit ! branches ! aooctmerge");
  for (k = 0; k < 3; k++) {
    const Shape *shape = shapes_[k];
    GstSample *raw = capture_input (shape, 0);
    gchar *desc = scale_desc (chains[k], devices, n);
    Timing t = time_chain (desc, "video/x-raw,format=GRAY8", raw, b->buffers,
        feed, FALSE);

    if (t.ms <= 0)
      emit (table, out, "| %s | %d | failed (see the messages above) | |\n",
          shape->name, shape->per_buffer);
    else
      emit (table, out, "| %s | %d | %.3f | %.4g |\n", shape->name,
          shape->per_buffer, t.ms, shape->alines * shape->per_buffer /
          (t.ms / 1e3));
    emit_thread_times ();
    g_free (t.host);
    g_free (desc);
    gst_sample_unref (raw);
  }
  emit (table, out, "\n");
  n_pinned = N_PINNED;
  g_free (standard);
  g_free (compressive);
}
