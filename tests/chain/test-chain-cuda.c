/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the whole chain aooctsrc ! aooctdcsub ! aooctpad !
 * aooctkmap ! aooctdisp ! aooctfft on CUDA against the same chain on the
 * CPU (one tee, the same frames), on the geometries of
 * aooct-test-backends.h: within AOOCT_TEST_STEP_FACTOR eps log2 (P2) x row
 * RMS (seen on an H100: 3.8), the CUDA output in CUDA memory.
 *
 * Part of the "cuda" tcase of test-chain (meson: chain-cuda), next to the
 * float64-reference cases both backends run; skipped (exit 77) without a
 * usable CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-backends.h"
#include "aooct-test-frames.h"
#include "aooct-test-pipeline.h"

#define CHAIN_FACTOR 32.0

/* one branch of the tee on @backend (aooct_test_with_backend) */
static gchar *
chain_branch (const AooctTestGeo * geo, const gchar * backend,
    const gchar * sink)
{
  gchar *plain = g_strdup_printf ("t. ! queue ! aooctdcsub "
      "alines-per-bscan=%d ! aooctpad size=%d factor=%d ! "
      "aooctkmap " AOOCT_TEST_KMAP_PROPS " ! aooctdisp a2=%g a3=%g ! "
      "aooctfft window=%s ! appsink name=%s sync=false wait-on-eos=false",
      geo->alines, geo->size, geo->factor, AOOCT_SYNTH_DEFAULT_DISPERSION_A2,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A3, geo->window, sink);
  gchar *branch = aooct_test_with_backend (plain, backend);

  g_free (plain);
  return branch;
}

static void
check_chain (const AooctTestGeo * geo, gint frames)
{
  gchar *cpu_branch = chain_branch (geo, "cpu", "cpu");
  gchar *gpu_branch = chain_branch (geo, aooct_test_gpu_backend (), "gpu");
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=%u "
      "num-buffers=%d ! tee name=t %s %s", geo->n, geo->alines * geo->bscans,
      g_random_int (), frames, cpu_branch, gpu_branch);
  AooctGeometry out;
  GstElement *pipeline;
  GList *cs, *gs, *c, *g;
  gchar *what;

  g_print ("chain %s, window=%s\n", geo->name, geo->window);
  GST_INFO ("%s", launch);
  aooct_test_geometry (&out, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  out.domain = AOOCT_DOMAIN_DEPTH;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  out.k_linear = TRUE;

  pipeline = aooct_test_run_to_eos (launch, NULL, 120);
  cs = aooct_test_pull_all (pipeline, "cpu");
  gs = aooct_test_pull_all (pipeline, "gpu");
  fail_unless_equals_int (g_list_length (cs), frames);
  fail_unless_equals_int (g_list_length (gs), frames);
  what = g_strdup_printf ("chain %s", geo->name);
  for (c = cs, g = gs; c && g; c = c->next, g = g->next) {
    GstBuffer *bc = gst_sample_get_buffer (c->data);
    GstBuffer *bg = gst_sample_get_buffer (g->data);
    GstCaps *caps = gst_sample_get_caps (g->data);
    AooctGeometry got;
    GstMapInfo mc, mg;

    fail_unless (aooct_caps_to_geometry (caps, &got, NULL));
    fail_unless (aooct_geometry_equal (&got, &out, NULL));
    if (!aooct_test_fake_gpu ()) {
      fail_unless (gst_caps_features_contains (gst_caps_get_features (caps,
                  0), AOOCT_TEST_CUDA_FEATURE),
          "the CUDA chain's output is not in " "CUDA memory");
      fail_unless (gst_memory_is_type (gst_buffer_peek_memory (bg, 0),
              "aooct.cuda.memory"));
    }
    fail_unless (gst_buffer_map (bc, &mc, GST_MAP_READ));
    fail_unless (gst_buffer_map (bg, &mg, GST_MAP_READ));
    fail_unless_equals_int (mc.size, aooct_geometry_buffer_bytes (&out));
    fail_unless_equals_int (mg.size, mc.size);
    aooct_test_compare_fft ((const gfloat *) mc.data, (const gfloat *) mg.data,
        aooct_geometry_total_alines (&out), 2 * out.samples, out.samples,
        CHAIN_FACTOR, what);
    gst_buffer_unmap (bc, &mc);
    gst_buffer_unmap (bg, &mg);
  }
  g_list_free_full (cs, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (gs, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (what);
  g_free (launch);
  g_free (cpu_branch);
  g_free (gpu_branch);
}

GST_START_TEST (test_chain_thesis)
{
  check_chain (&aooct_test_geos[0], 3);
}

GST_END_TEST;

GST_START_TEST (test_chain_2048)
{
  check_chain (&aooct_test_geos[1], 2);
}

GST_END_TEST;

GST_START_TEST (test_chain_1500_stacked)
{
  check_chain (&aooct_test_geos[2], 3);
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_chain_thesis);
  tcase_add_test (tc, test_chain_2048);
  tcase_add_test (tc, test_chain_1500_stacked);
}
