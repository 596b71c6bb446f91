/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: throughput of each aooct element and of the whole chain
 * (not a test; see docs/performance.md).  It prints a table and writes the
 * same table to a file; scripts read its rows (scripts/gpu-run.sh,
 * scripts/gpu/gpu-check.sh, scripts/measure/scale-out-bench.sh).
 *
 *   aooct-bench [--backend cpu|cuda|auto] [--buffers N] [--output FILE]
 *               [--shape thesis|thesis-x16|2048x1000|2048x1000-x4|
 *                2048x500|1024-nopad|1024-nopad-x8|2048-nopad|512x512-x8|all]
 *               [--file-dir DIR] [--no-steps] [--no-files] [--views V]
 *               [--interpolation linear|cubic|bspline|lanczos|nudft|nufft]
 *               [--fullrange] [--cs] [--packed] [--scale-out GPUS] [--flow]
 *               [--thread-times] [--aooct] [--org]
 *
 * This file reads the options and runs the benchmarks they ask for, one
 * file each:
 *   aooct-bench-machine.c  the head: thread hand-over, GPU ceilings
 *   aooct-bench-chain.c    for each shape (unless one of the next four is
 *                          asked for): the steps (aooct-bench-steps.c),
 *                          the whole chain, then --fullrange
 *                          (aooct-bench-fullrange.c), --flow
 *                          (aooct-bench-flow.c), --org (aooct-bench-org.c)
 *                          and the file rows
 *                          (aooct-bench-files.c)
 *   aooct-bench-views.c    --views: the views of spec section 11
 *   aooct-bench-cs.c       --cs: aooctcs at 2048 x 1000
 *   aooct-bench-packed.c   --packed: packed 12/10-bit raw B-scans
 *   aooct-bench-scale.c    --scale-out: one pipeline over several GPUs
 *   aooct-bench-register.c --aooct: aooctregister on 1024-nopad-x8 and
 *                          512x512-x32 (or the shape --shape names)
 * all timed by aooct-bench-run.c (appsrc ! chain ! fakesink, after a
 * warm-up; the raw B-scans in system, page-locked or device memory). */
#include <stdio.h>
#include <gst/gst.h>

#include "aooct-bench.h"

static const Shape shapes[] = {
  {"thesis", 832, 240, TRUE, 1},
  {"thesis-x16", 832, 240, TRUE, 16},
  {"2048x1000", 2048, 1000, TRUE, 1},
  {"2048x1000-x4", 2048, 1000, TRUE, 4},
  {"2048x500", 2048, 500, TRUE, 1},
  {"1024-nopad", 1024, 1000, FALSE, 1},
  {"1024-nopad-x8", 1024, 1000, FALSE, 8},
  {"2048-nopad", 2048, 1000, FALSE, 1},
  /* AO-OCT B-scans (--aooct, --org): 512 of them make a 512^3 volume; one
   * per buffer for the CPU's quick run (tests/test-bench.sh) */
  {"512x512-x32", 512, 512, FALSE, 32},
  {"512x512-x8", 512, 512, FALSE, 8},
  {"512x512", 512, 512, FALSE, 1},
};

static Bench bench = { NULL, NULL, 50 };

static gint views = 0;
static gboolean cs = FALSE, packed = FALSE, aooct = FALSE;
static gchar *output = NULL, *only = NULL, *scale_out = NULL;

static GOptionEntry entries[] = {
  {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
      "cpu, cuda or auto (default auto)", "B"},
  {"buffers", 'n', 0, G_OPTION_ARG_INT, &bench.buffers,
      "B-scans timed per measurement (after 5 warm-up)", "N"},
  {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "also write the table to FILE (default bench-results.md)", "FILE"},
  {"shape", 's', 0, G_OPTION_ARG_STRING, &only,
        "thesis, thesis-x16, 2048x1000, 2048x1000-x4, 2048x500, "
        "1024-nopad, 1024-nopad-x8, 2048-nopad, 512x512-x8 or all (default "
        "thesis)",
      "S"},
  {"interpolation", 'i', 0, G_OPTION_ARG_STRING, &interpolation,
      "aooctkmap interpolation: linear (default), cubic, bspline, lanczos, "
        "nudft or nufft (default nufft-kernel, -oversampling, -width)", "I"},
  {"file-dir", 'd', 0, G_OPTION_ARG_FILENAME, &file_dir,
      "where to write the raw files of the file rows (default: the "
        "temporary directory)", "DIR"},
  {"no-steps", 0, 0, G_OPTION_ARG_NONE, &bench.no_steps,
      "leave out the per-element rows", NULL},
  {"no-files", 0, 0, G_OPTION_ARG_NONE, &bench.no_files,
      "leave out the rows that read a raw file (and aooctsrc's)", NULL},
  {"fullrange", 'f', 0, G_OPTION_ARG_NONE, &bench.fullrange,
      "also time the complex full-range chain (aooctfullrange)", NULL},
  {"flow", 0, 0, G_OPTION_ARG_NONE, &bench.flow,
      "also time aooctdoppler and aooctangio (decorrelation, repeats=4), "
        "alone and at the end of the chain", NULL},
  {"org", 0, 0, G_OPTION_ARG_NONE, &bench.org,
      "also time aooctorg (optoretinography), alone and at the end of the "
        "chain", NULL},
  {"cs", 0, 0, G_OPTION_ARG_NONE, &cs,
      "time aooctcs (compressive sensing) at 2048 x 1000 instead of the "
        "shapes", NULL},
  {"aooct", 0, 0, G_OPTION_ARG_NONE, &aooct,
      "time aooctregister alone and the chain to aooctregister ! aooctnorm "
        "(1024-nopad-x8 and 512x512-x32 unless --shape names one)", NULL},
  {"packed", 0, 0, G_OPTION_ARG_NONE, &packed,
      "time the chain on packed 12/10-bit raw B-scans against 16-bit ones "
        "(--shape, default 1024-nopad-x8) instead of the shapes", NULL},
  {"scale-out", 0, 0, G_OPTION_ARG_STRING, &scale_out,
      "time instead one pipeline over the CUDA devices GPUS (e.g. 0,1; "
        "0 for one GPU): the rows of docs/scale-out.md "
        "(scripts/measure/scale-out-bench.sh)", "GPUS"},
  {"views", 'v', 0, G_OPTION_ARG_INT, &views,
      "time the views of spec section 11 on the volume of Jian et al. "
        "over V volumes instead of the shapes", "V"},
  {"thread-times", 0, 0, G_OPTION_ARG_NONE, &thread_times,
      "after each whole-chain row, print the CPU time each thread used "
        "while it was timed (to stdout, not into the table; on with "
        "--scale-out)", NULL},
  {NULL}
};

static gboolean
want_views (void)
{
  return views > 0;
}

static gboolean
want_cs (void)
{
  return cs;
}

static gboolean
want_packed (void)
{
  return packed;
}

static gboolean
want_scale_out (void)
{
  return scale_out != NULL;
}

static gboolean
want_aooct (void)
{
  return aooct;
}

/* the shapes' sections unless another benchmark was asked for */
static gboolean
want_shapes (void)
{
  return views == 0 && !cs && !packed && !scale_out && !aooct;
}

static void
run_views (Bench * b)
{
  aooct_bench_views_rows (b->table, b->out, views);
}

static void
run_cs (Bench * b)
{
  aooct_bench_cs_rows (b->table, b->out, b->buffers);
}

/* --aooct: its two shapes, or the one --shape names */
static void
run_aooct (Bench * b)
{
  guint s;

  for (s = 0; s < G_N_ELEMENTS (shapes); s++)
    if ((only == NULL && (g_strcmp0 (shapes[s].name, "1024-nopad-x8") == 0
                || g_strcmp0 (shapes[s].name, "512x512-x32") == 0))
        || g_strcmp0 (only, "all") == 0
        || g_strcmp0 (only, shapes[s].name) == 0)
      aooct_bench_register_rows (b->table, b->out, &shapes[s], b->buffers);
}

static void
run_scale_out (Bench * b)
{
  aooct_bench_scale_rows (b, scale_out);
}

/* In this order, each that the options ask for: once (run) or for each
 * shape --shape names (run_shape). */
static const struct
{
  gboolean (*wanted) (void);
  void (*run) (Bench * b);
  void (*run_shape) (Bench * b, const Shape * shape);
} benchmarks[] = {
  {want_views, run_views, NULL},
  {want_cs, run_cs, NULL},
  {want_packed, NULL, aooct_bench_packed_rows},
  {want_scale_out, run_scale_out, NULL},
  {want_aooct, run_aooct, NULL},
  {want_shapes, NULL, aooct_bench_shape_rows},
};

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- aooct throughput benchmark");
  GError *err = NULL;
  guint k, s;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (!output)
    output = g_strdup ("bench-results.md");
  if (!only && !aooct)
    only = g_strdup (packed ? "1024-nopad-x8" : "thesis");
  /* what it was made for: which thread saturates over several GPUs */
  thread_times = thread_times || scale_out != NULL;
  bench.table = g_string_new (NULL);
  bench.out = fopen (output, "w");
  if (!bench.out) {
    g_printerr ("cannot write %s\n", output);
    return 2;
  }

  aooct_bench_machine_rows (&bench);
  for (k = 0; k < G_N_ELEMENTS (benchmarks); k++) {
    if (!benchmarks[k].wanted ())
      continue;
    if (benchmarks[k].run)
      benchmarks[k].run (&bench);
    for (s = 0; benchmarks[k].run_shape && s < G_N_ELEMENTS (shapes); s++)
      if (g_strcmp0 (only, "all") == 0 || g_strcmp0 (only, shapes[s].name)
          == 0)
        benchmarks[k].run_shape (&bench, &shapes[s]);
  }

  fclose (bench.out);
  aooct_bench_run_done ();
  g_print ("table written to %s\n", output);
  g_string_free (bench.table, TRUE);
  return 0;
}
