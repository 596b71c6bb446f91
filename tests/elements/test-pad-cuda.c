/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctpad on CUDA against aooctpad on the CPU, and the pad core
 * directly on device buffers (its input must stay unchanged).
 *
 * The "cuda" tcase of test-pad (meson: pad-cuda); without a usable CUDA
 * device it is skipped (exit 77).  Tolerances: aooct-test-backends.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-backends.h"
#include "aooct-cpu-pad.h"
#include "aooct-fftw.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-pad.h"
#endif

/* ---- aooctpad ---- */

static void
check_pad (const AooctTestGeo * geo, GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[AOOCT_TEST_N_BUFFERS], *cpu[AOOCT_TEST_N_BUFFERS],
      *gpu[AOOCT_TEST_N_BUFFERS];
  gchar *props = g_strdup_printf ("size=%d factor=%d", geo->size,
      geo->factor);
  gsize rows;
  AooctTestPair p;
  gint k, j0, j1;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, 0, 0);
  aooct_test_geometry (&out, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  rows = aooct_geometry_total_alines (&in);
  j0 = aooct_geometry_data_start (&out);
  j1 = aooct_geometry_data_end (&out);
  g_print ("aooctpad %s\n", geo->name);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++)
    x[k] = aooct_test_make_real (rand, &in);
  p = aooct_test_pair_new ("aooctpad", props, aooct_geometry_to_caps (&in));
  aooct_test_pair_run (&p, x, AOOCT_TEST_N_BUFFERS,
      aooct_geometry_buffer_bytes (&in), aooct_geometry_buffer_bytes (&out),
      NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++) {
    gsize r;
    gint j;

    /* the margins are set, not computed: exactly 0 */
    for (r = 0; r < rows; r++)
      for (j = 0; j < out.samples; j++)
        if ((j < j0 || j > j1) && gpu[k][r * out.samples + j] != 0.0f)
          fail ("row %" G_GSIZE_FORMAT " margin sample %d is %g", r, j,
              gpu[k][r * out.samples + j]);
    aooct_test_compare_fft (cpu[k], gpu[k], rows, out.samples, out.samples,
        AOOCT_TEST_STEP_FACTOR, "pad");
  }
  aooct_test_pair_free (&p);
  aooct_test_free_all (x, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (cpu, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (gpu, AOOCT_TEST_N_BUFFERS);
  g_free (props);
}

/* aooctpad's branches besides those of aooct_test_geos[] (N < P1 with margins on both
 * sides; N == P1, o == 0, one margin sample): no margin and no zero bins
 * at all (f = 1, N == P1), and f = 4 with P1 > N from several B-scans. */
static const AooctTestGeo pad_geos[] = {
  {"2048x64 P1 2048 f 1 (no margins, no zero bins)", 2048, 64, 1, 2048, 1,
      NULL},
  {"1000x50 x2 B-scans P1 4096 f 4", 1000, 50, 2, 4096, 4, NULL},
};

GST_START_TEST (test_pad)
{
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (aooct_test_geos); i++)
    check_pad (&aooct_test_geos[i], rand);
  for (i = 0; i < G_N_ELEMENTS (pad_geos); i++)
    check_pad (&pad_geos[i], rand);
  g_rand_free (rand);
}

GST_END_TEST;

#ifdef HAVE_CUDA
static void
check_pad_core (const AooctTestGeo * geo, GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[AOOCT_TEST_CORE_BUFFERS], *y[AOOCT_TEST_CORE_BUFFERS], *ref;
  gsize rows;
  GError *err = NULL;
  AooctCudaPadPlan *pad;
  AooctCpuPadPlan *cpu;
  AooctTestCoreRun run;
  gint k, j, j0, j1;
  gsize r;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, 0, 0);
  aooct_test_geometry (&out, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  rows = aooct_geometry_total_alines (&in);
  j0 = aooct_geometry_data_start (&out);
  j1 = aooct_geometry_data_end (&out);
  g_print ("pad core %s (o %d, margins %d + %d)\n", geo->name,
      out.pad_offset, j0, out.samples - 1 - j1);
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++)
    x[k] = aooct_test_make_real (rand, &in);
  aooct_test_core_run_init (&run, x, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out));
  pad = aooct_cuda_pad_plan_new (&out, &err);
  fail_unless (pad != NULL, "%s", err ? err->message : "");
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++)
    fail_unless (aooct_cuda_pad_execute (pad, run.in[k], FALSE, FALSE,
            run.out[k], run.stream, &err), "%s", err ? err->message : "");
  aooct_test_core_run_finish (&run, x, y, "pad core");
  aooct_cuda_pad_plan_free (pad);

  cpu = aooct_cpu_pad_plan_new (&out, aooct_cpu_threads (), &err);
  fail_unless (cpu != NULL, "%s", err ? err->message : "");
  ref = g_new (gfloat, rows * out.samples);
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++) {
    aooct_cpu_pad_execute (cpu, x[k], ref, (gint) rows);
    for (r = 0; r < rows; r++)
      for (j = 0; j < out.samples; j++)
        if ((j < j0 || j > j1) && (y[k][r * out.samples + j] != 0.0f
                || signbit (y[k][r * out.samples + j])))
          fail ("pad core: buffer %d row %" G_GSIZE_FORMAT " margin sample "
              "%d is %g, not +0", k, r, j, y[k][r * out.samples + j]);
    aooct_test_compare_fft (ref, y[k], rows, out.samples, out.samples,
        AOOCT_TEST_STEP_FACTOR, "pad core");
    g_free (x[k]);
    g_free (y[k]);
  }
  aooct_cpu_pad_plan_free (cpu);
  g_free (ref);
}
#endif

GST_START_TEST (test_pad_core_input_unchanged)
{
#ifdef HAVE_CUDA
  GRand *rand;
  guint i;

  if ((rand = aooct_test_core_rand ()) == NULL)
    return;
  /* margins on both sides (o 608); N == P1, o == 0 (one margin sample) */
  check_pad_core (&aooct_test_geos[0], rand);
  check_pad_core (&aooct_test_geos[1], rand);
  for (i = 0; i < G_N_ELEMENTS (pad_geos); i++)
    check_pad_core (&pad_geos[i], rand);
  g_rand_free (rand);
#endif
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_pad);
  tcase_add_test (tc, test_pad_core_input_unchanged);
}
