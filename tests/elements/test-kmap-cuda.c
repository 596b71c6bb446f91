/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctkmap on CUDA against aooctkmap on the CPU (bit for bit), and
 * passthrough on CUDA.
 *
 * The "cuda" tcase of test-kmap (meson: kmap-cuda); without a usable CUDA
 * device it is skipped (exit 77).  Tolerances: aooct-test-backends.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-backends.h"

/* ---- aooctkmap ---- */

static void
check_kmap (const gchar * name, const AooctGeometry * in, GRand * rand)
{
  AooctGeometry out = *in;
  gfloat *x[AOOCT_TEST_N_BUFFERS], *cpu[AOOCT_TEST_N_BUFFERS],
      *gpu[AOOCT_TEST_N_BUFFERS];
  AooctTestPair p;
  gint k;

  out.k_linear = TRUE;
  g_print ("aooctkmap %s\n", name);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++)
    x[k] = aooct_test_make_real (rand, in);
  p = aooct_test_pair_new ("aooctkmap", AOOCT_TEST_KMAP_PROPS,
      aooct_geometry_to_caps (in));
  aooct_test_pair_run (&p, x, AOOCT_TEST_N_BUFFERS,
      aooct_geometry_buffer_bytes (in), aooct_geometry_buffer_bytes (&out),
      NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++) {
    /* the output must not be the input: the kernel really ran */
    fail_unless (aooct_test_relative_change (x[k], gpu[k],
            aooct_test_total_samples (in)) > 1e-2);
    aooct_test_compare_exact (cpu[k], gpu[k], aooct_geometry_total_alines (in),
        in->samples, "kmap");
  }
  aooct_test_pair_free (&p);
  aooct_test_free_all (x, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (cpu, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (gpu, AOOCT_TEST_N_BUFFERS);
}

GST_START_TEST (test_kmap)
{
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry g;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (aooct_test_geos); i++) {
    aooct_test_geometry (&g, aooct_test_geos[i].n, aooct_test_geos[i].alines,
        aooct_test_geos[i].bscans, aooct_test_geos[i].size,
        aooct_test_geos[i].factor);
    check_kmap (aooct_test_geos[i].name, &g, rand);
  }
  /* without aooctpad: the raw grid */
  aooct_test_geometry (&g, 1500, 64, 2, 0, 0);
  check_kmap ("raw grid 1500x64 x2", &g, rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* passthrough=true on CUDA: no kernel, buffers pass unchanged */
GST_START_TEST (test_kmap_passthrough)
{
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry in, out;
  gchar *launch = g_strdup_printf ("aooctkmap backend=%s passthrough=true",
      aooct_test_gpu_backend ());
  GstHarness *h = aooct_test_harness_new (launch);
  gfloat *x, *y;

  aooct_test_geometry (&in, 832, 240, 1, 2048, 2);
  out = in;
  out.k_linear = TRUE;
  x = aooct_test_make_real (rand, &in);
  y = aooct_test_push_pull (h, aooct_geometry_to_caps (&in), x,
      aooct_geometry_buffer_bytes (&in), aooct_geometry_buffer_bytes (&in));
  fail_unless (memcmp (x, y, aooct_geometry_buffer_bytes (&in)) == 0);
  aooct_test_assert_caps (h, &out);
  gst_harness_teardown (h);
  g_free (x);
  g_free (y);
  g_free (launch);
  g_rand_free (rand);
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_kmap);
  tcase_add_test (tc, test_kmap_passthrough);
}
