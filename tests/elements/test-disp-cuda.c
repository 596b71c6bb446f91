/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctdisp on CUDA against aooctdisp on the CPU (bit for bit), with
 * property changes while playing.
 *
 * The "cuda" tcase of test-disp (meson: disp-cuda); without a usable CUDA
 * device it is skipped (exit 77).  Tolerances: aooct-test-backends.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-backends.h"

/* ---- aooctdisp ---- */

static void
check_disp (const AooctTestGeo * geo, GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[AOOCT_TEST_N_BUFFERS], *cpu[AOOCT_TEST_N_BUFFERS],
      *gpu[AOOCT_TEST_N_BUFFERS];
  gchar *props = g_strdup_printf ("a2=%g a3=%g",
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3);
  AooctTestPair p;
  gint k;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  out = in;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  g_print ("aooctdisp %s\n", geo->name);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++)
    x[k] = aooct_test_make_real (rand, &in);
  p = aooct_test_pair_new ("aooctdisp", props, aooct_geometry_to_caps (&in));
  aooct_test_pair_run (&p, x, AOOCT_TEST_N_BUFFERS,
      aooct_geometry_buffer_bytes (&in), aooct_geometry_buffer_bytes (&out),
      NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < AOOCT_TEST_N_BUFFERS; k++)
    aooct_test_compare_exact (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, "disp");
  aooct_test_pair_free (&p);
  aooct_test_free_all (x, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (cpu, AOOCT_TEST_N_BUFFERS);
  aooct_test_free_all (gpu, AOOCT_TEST_N_BUFFERS);
  g_free (props);
}

GST_START_TEST (test_disp)
{
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (aooct_test_geos); i++)
    check_disp (&aooct_test_geos[i], rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* buffer 0: no compensation; 1: a2; 2: a2 and a3; 3: a phase file of
 * P2 records; 4: a2 .. a5; 5: a phase file of N records (camera grid) */
static void
disp_between (GstHarness * h, gint k, gpointer user_data)
{
  GstElement *e = aooct_test_element (h, "aooctdisp");
  gchar **paths = user_data;

  if (k == 1)
    g_object_set (e, "a2", 12.5, NULL);
  else if (k == 2)
    g_object_set (e, "a3", -4.0, NULL);
  else if (k == 3)
    g_object_set (e, "a2", 0.0, "a3", 0.0, "phase-file", paths[0], NULL);
  else if (k == 4)
    g_object_set (e, "phase-file", NULL, "a2", 3.0, "a3", 1.0, "a4", -6.0,
        "a5", 2.5, NULL);
  else if (k == 5)
    g_object_set (e, "a2", 0.0, "a3", 0.0, "a4", 0.0, "a5", 0.0,
        "phase-file", paths[1], NULL);
}

GST_START_TEST (test_disp_playing)
{
  enum
  { N = 6 };
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry in, out;
  gfloat *x[N], *cpu[N], *gpu[N];
  gdouble *phases, *camera;
  gchar *path, *camera_path, *missing, *paths[2];
  GstCaps *caps;
  AooctTestPair p;
  gint k, i;

  aooct_test_geometry (&in, 832, 240, 1, 2048, 2);
  out = in;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  phases = g_new (gdouble, in.samples);
  for (i = 0; i < in.samples; i++)
    phases[i] = 0.3 * sin (i * 0.002) + g_rand_double_range (rand, -0.1, 0.1);
  path = aooct_test_write_values ("phases, rad", phases, in.samples);
  camera = g_new (gdouble, in.raw_samples);
  for (i = 0; i < in.raw_samples; i++)
    camera[i] = 40.0 * pow (2.0 * i / (in.raw_samples - 1) - 1, 2);
  camera_path = aooct_test_write_values ("phases per camera pixel, rad",
      camera, in.raw_samples);
  paths[0] = path;
  paths[1] = camera_path;
  /* one input for all: only the weights change */
  x[0] = aooct_test_make_real (rand, &in);
  for (k = 1; k < N; k++)
    x[k] = x[0];
  caps = aooct_geometry_to_caps (&in);
  p = aooct_test_pair_new ("aooctdisp", "", caps);
  aooct_test_pair_run (&p, x, N, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), disp_between, paths, cpu, gpu);
  for (k = 0; k < N; k++) {
    aooct_test_compare_exact (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, "disp while playing");
    if (k > 0)
      fail_unless (aooct_test_relative_change (gpu[k - 1], gpu[k],
              2 * aooct_test_total_samples (&in)) > 1e-2,
          "CUDA: the change before buffer %d had no effect", k);
  }

  /* a file that does not exist, set while playing: an element error on
   * CUDA too, naming the file */
  missing = g_strdup_printf ("%s.missing", path);
  g_object_set (aooct_test_element (p.gpu, "aooctdisp"), "phase-file",
      missing, NULL);
  fail_unless (gst_harness_push (p.gpu, aooct_test_buffer_new (x[0],
              aooct_geometry_buffer_bytes (&in))) != GST_FLOW_OK);
  aooct_test_assert_error (p.gpu, missing, NULL);

  aooct_test_pair_free (&p);
  g_free (x[0]);
  aooct_test_free_all (cpu, N);
  aooct_test_free_all (gpu, N);
  g_unlink (path);
  g_free (path);
  g_unlink (camera_path);
  g_free (camera_path);
  g_free (camera);
  g_free (missing);
  g_free (phases);
  g_rand_free (rand);
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_disp);
  tcase_add_test (tc, test_disp_playing);
}
