/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctfft on CUDA against aooctfft on the CPU, windows changed while
 * playing, and the fft core directly on device buffers (its input must
 * stay unchanged), against the CPU core and a float64 DFT, 512 to 8192
 * points.
 *
 * The "cuda" tcase of test-fft (meson: fft-cuda); without a usable CUDA
 * device it is skipped (exit 77).  Tolerances: aooct-test-backends.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-backends.h"
#include "aooct-cpu-fft.h"
#include "aooct-fftw.h"
#include "aooct-window.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-fft.h"
#endif

/* ---- aooctfft ---- */

static void
check_fft (const AooctTestGeo * geo, gboolean complex_in, const gchar * window,
    GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[AOOCT_TEST_N_BUFFERS], *cpu[AOOCT_TEST_N_BUFFERS],
      *gpu[AOOCT_TEST_N_BUFFERS];
  gchar *props = g_strdup_printf ("window=%s", window);
  gchar *what = g_strdup_printf ("fft %s window=%s",
      complex_in ? "complex" : "real", window);
  AooctTestPair p;
  gint k;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  in.k_linear = TRUE;
  if (complex_in)
    in.sample_type = AOOCT_SAMPLE_COMPLEX;
  out = in;
  out.domain = AOOCT_DOMAIN_DEPTH;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  g_print ("aooctfft %s\n", geo->name);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++)
    x[k] =
        complex_in ? aooct_test_make_complex (rand,
        &in) : aooct_test_make_real (rand, &in);
  p = aooct_test_pair_new ("aooctfft", props, aooct_geometry_to_caps (&in));
  aooct_test_pair_run (&p, x, AOOCT_TEST_N_BUFFERS,
      aooct_geometry_buffer_bytes (&in), aooct_geometry_buffer_bytes (&out),
      NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++)
    aooct_test_compare_fft (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, in.samples, AOOCT_TEST_STEP_FACTOR, what);
  aooct_test_pair_free (&p);
  aooct_test_free_all (x, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (cpu, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (gpu, AOOCT_TEST_N_BUFFERS);
  g_free (props);
  g_free (what);
}

GST_START_TEST (test_fft)
{
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (aooct_test_geos); i++)
    check_fft (&aooct_test_geos[i], TRUE, "none", rand);
  /* real input (aooctkmap without aooctdisp), windowed */
  check_fft (&aooct_test_geos[0], FALSE, "hann", rand);
  check_fft (&aooct_test_geos[2], FALSE, "none", rand);
  check_fft (&aooct_test_geos[2], TRUE, "blackman", rand);
  /* the parametric windows (window-parameter) */
  check_fft (&aooct_test_geos[1], FALSE, "kaiser window-parameter=5", rand);
  check_fft (&aooct_test_geos[2], TRUE, "tukey window-parameter=0.25", rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* window, window-parameter: each step changes one of them */
static const struct
{
  const gchar *window, *parameter;
} window_sequence[] = {
  {"none", "0"}, {"hann", "0"}, {"blackman", "0"}, {"gaussian", "0"},
  {"gaussian", "0.25"}, {"hamming", "0.25"}, {"tukey", "0.25"},
  {"tukey", "0.8"}, {"kaiser", "0.8"}, {"kaiser", "0"}, {"none", "0"}
};

static void
fft_between (GstHarness * h, gint k, gpointer user_data)
{
  GObject *fft = G_OBJECT (aooct_test_element (h, "aooctfft"));

  gst_util_set_object_arg (fft, "window", window_sequence[k].window);
  gst_util_set_object_arg (fft, "window-parameter",
      window_sequence[k].parameter);
}

GST_START_TEST (test_fft_window_playing)
{
  enum
  { N = G_N_ELEMENTS (window_sequence) };
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry in, out;
  gfloat *x[N], *cpu[N], *gpu[N];
  AooctTestPair p;
  gint k;

  aooct_test_geometry (&in, 1500, 80, 3, 0, 2);
  in.k_linear = TRUE;
  in.sample_type = AOOCT_SAMPLE_COMPLEX;
  out = in;
  out.domain = AOOCT_DOMAIN_DEPTH;
  x[0] = aooct_test_make_complex (rand, &in);
  for (k = 1; k < N; k++)
    x[k] = x[0];
  p = aooct_test_pair_new ("aooctfft", "window=none",
      aooct_geometry_to_caps (&in));
  aooct_test_pair_run (&p, x, N, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), fft_between, NULL, cpu, gpu);
  for (k = 0; k < N; k++) {
    gchar *what = g_strdup_printf ("fft window=%s window-parameter=%s while "
        "playing", window_sequence[k].window, window_sequence[k].parameter);

    aooct_test_compare_fft (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, in.samples, AOOCT_TEST_STEP_FACTOR, what);
    if (k > 0)
      fail_unless (aooct_test_relative_change (gpu[k - 1], gpu[k],
              2 * aooct_test_total_samples (&in)) > 1e-3,
          "CUDA: window=%s window-parameter=%s had no effect",
          window_sequence[k].window, window_sequence[k].parameter);
    g_free (what);
  }
  /* back to none: the first output again (same input, same plan) */
  fail_unless (aooct_test_relative_change (gpu[0], gpu[N - 1],
          2 * aooct_test_total_samples (&in)) < 1e-6);
  aooct_test_pair_free (&p);
  g_free (x[0]);
  aooct_test_free_all (cpu, N);
  aooct_test_free_all (gpu, N);
  g_rand_free (rand);
}

GST_END_TEST;

#ifdef HAVE_CUDA
/* Row @r of @x (real or complex, @n points) times @table (NULL: none),
 * transformed in float64 by the definition (each W_n^e computed once in
 * double), against the CUDA core's @y: the largest error per value, in
 * eps log2(n) times the row's RMS, must stay within @factor. */
static void
check_fft_ref64 (const gfloat * x, gboolean complex_in, const gfloat * table,
    const gfloat * y, gint n, gsize r, gdouble factor, const gchar * what)
{
  gdouble *wr = g_new (gdouble, n), *wi = g_new (gdouble, n);
  gdouble *xr = g_new (gdouble, n), *xi = g_new (gdouble, n);
  const gfloat *yr = y + r * 2 * n;
  gdouble sum2 = 0, worst = 0, rms;
  gint k, j;

  for (j = 0; j < n; j++) {
    const gdouble wj = table ? table[j] : 1.0;

    wr[j] = cos (-2.0 * G_PI * j / n);
    wi[j] = sin (-2.0 * G_PI * j / n);
    xr[j] = (complex_in ? x[(r * n + j) * 2] : x[r * n + j]) * wj;
    xi[j] = complex_in ? x[(r * n + j) * 2 + 1] * wj : 0.0;
  }
  for (k = 0; k < n; k++)
    sum2 += (gdouble) yr[2 * k] * yr[2 * k] + (gdouble) yr[2 * k + 1] *
        yr[2 * k + 1];
  rms = sqrt (sum2 / (2 * n));
  fail_unless (rms > 0, "%s: row %" G_GSIZE_FORMAT " is all zero", what, r);
  for (k = 0; k < n; k++) {
    gdouble sr = 0, si = 0, err;

    for (j = 0; j < n; j++) {
      const gint e = (gint) (((gint64) k * j) % n);

      sr += xr[j] * wr[e] - xi[j] * wi[e];
      si += xr[j] * wi[e] + xi[j] * wr[e];
    }
    err = MAX (fabs (yr[2 * k] - sr), fabs (yr[2 * k + 1] - si)) /
        (FLT_EPSILON * log2 (n) * rms);
    if (!(err <= factor))
      fail ("%s: row %" G_GSIZE_FORMAT " bin %d: CUDA (%.9g, %.9g), float64 "
          "(%.9g, %.9g): %.3g eps log2(n) x row RMS, tolerance %g", what, r,
          k, yr[2 * k], yr[2 * k + 1], sr, si, err, factor);
    worst = MAX (worst, err);
  }
  g_print ("  %s: row %" G_GSIZE_FORMAT ", max |CUDA - float64| = %.3g eps "
      "log2(%d) x row RMS (tolerance %g)\n", what, r, worst, n, factor);
  g_free (wr);
  g_free (wi);
  g_free (xr);
  g_free (xi);
}

static void
check_fft_core (const AooctTestGeo * geo, gboolean complex_in,
    AooctWindow window, GRand * rand)
{
  AooctGeometry g;
  gfloat *x[AOOCT_TEST_CORE_BUFFERS], *y[AOOCT_TEST_CORE_BUFFERS], *ref, *table;
  gchar *what;
  gsize rows;
  GError *err = NULL;
  AooctCudaFftPlan *fft;
  AooctCpuFftPlan *cpu;
  AooctTestCoreRun run;
  gint k;

  aooct_test_geometry (&g, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  g.k_linear = TRUE;
  if (complex_in)
    g.sample_type = AOOCT_SAMPLE_COMPLEX;
  rows = aooct_geometry_total_alines (&g);
  what = g_strdup_printf ("fft core %s, %s input, window %d", geo->name,
      complex_in ? "complex" : "real", window);
  g_print ("%s\n", what);
  table = aooct_window_table_new (window, g.samples,
      aooct_geometry_data_start (&g), aooct_geometry_data_end (&g));
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++)
    x[k] =
        complex_in ? aooct_test_make_complex (rand,
        &g) : aooct_test_make_real (rand, &g);
  aooct_test_core_run_init (&run, x, aooct_geometry_buffer_bytes (&g),
      2 * sizeof (gfloat) * rows * g.samples);
  fft = aooct_cuda_fft_plan_new (g.samples, rows, &err);
  fail_unless (fft != NULL, "%s", err ? err->message : "");
  fail_unless (aooct_cuda_fft_set_window (fft, table, run.stream, &err),
      "%s", err ? err->message : "");
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++)
    fail_unless (aooct_cuda_fft_execute (fft, run.in[k], complex_in,
            run.out[k], run.stream, &err), "%s", err ? err->message : "");
  aooct_test_core_run_finish (&run, x, y, what);
  aooct_cuda_fft_plan_free (fft);

  /* float64 by the definition: the first and the last A-line */
  check_fft_ref64 (x[0], complex_in, table, y[0], g.samples, 0,
      AOOCT_TEST_REF64_FFT_FACTOR, what);
  check_fft_ref64 (x[0], complex_in, table, y[0], g.samples, rows - 1,
      AOOCT_TEST_REF64_FFT_FACTOR, what);

  cpu = aooct_cpu_fft_plan_new (g.samples, aooct_cpu_threads (), &err);
  fail_unless (cpu != NULL, "%s", err ? err->message : "");
  ref = g_new (gfloat, 2 * rows * g.samples);
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++) {
    aooct_cpu_fft_execute (cpu, x[k], complex_in, table, ref, (gint) rows);
    aooct_test_compare_fft (ref, y[k], rows, 2 * g.samples, g.samples,
        AOOCT_TEST_STEP_FACTOR, what);
    g_free (x[k]);
    g_free (y[k]);
  }
  aooct_cpu_fft_plan_free (cpu);
  g_free (ref);
  g_free (table);
  g_free (what);
}
#endif

GST_START_TEST (test_fft_core_input_unchanged)
{
#ifdef HAVE_CUDA
  GRand *rand;

  if ((rand = aooct_test_core_rand ()) == NULL)
    return;
  /* no window (a copy, then the C2C in place in the output), a window,
   * and real input */
  check_fft_core (&aooct_test_geos[1], TRUE, AOOCT_WINDOW_NONE, rand);
  check_fft_core (&aooct_test_geos[1], TRUE, AOOCT_WINDOW_HANN, rand);
  check_fft_core (&aooct_test_geos[0], FALSE, AOOCT_WINDOW_NONE, rand);
  check_fft_core (&aooct_test_geos[2], FALSE, AOOCT_WINDOW_BLACKMAN, rand);
  g_rand_free (rand);
#endif
}

GST_END_TEST;

/* The fft core on 512 to 8192 points, real and complex input, with and
 * without a window, against the CPU core and a float64 DFT. */
GST_START_TEST (test_fft_core_sizes)
{
#ifdef HAVE_CUDA
  static const AooctTestGeo geos[] = {
    {"200x70 P1 256 f 2 (512 points)", 200, 70, 1, 256, 2, NULL},
    {"1000x33 x3 B-scans P1 1024 f 1 (1024 points)", 1000, 33, 3, 1024, 1,
        NULL},
    {"1500x129 P1 2048 f 1 (2048 points)", 1500, 129, 1, 2048, 1, NULL},
    {"832x240 P1 2048 f 2 (4096 points)", 832, 240, 1, 2048, 2, NULL},
    {"2048x20 P1 2048 f 4 (8192 points)", 2048, 20, 1, 2048, 4, NULL},
  };
  GRand *rand;
  guint i;

  if ((rand = aooct_test_core_rand ()) == NULL)
    return;
  for (i = 0; i < G_N_ELEMENTS (geos); i++) {
    check_fft_core (&geos[i], FALSE, AOOCT_WINDOW_HANN, rand);
    check_fft_core (&geos[i], TRUE, i % 2 ? AOOCT_WINDOW_NONE :
        AOOCT_WINDOW_BLACKMAN, rand);
  }
  g_rand_free (rand);
#endif
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_fft);
  tcase_add_test (tc, test_fft_window_playing);
  tcase_add_test (tc, test_fft_core_input_unchanged);
  tcase_add_test (tc, test_fft_core_sizes);
}
