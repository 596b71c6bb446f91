/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctdcsub on CUDA against aooctdcsub on the CPU and the
 * float64 reference (bit for bit where the kernels are exact), and the
 * kernels directly on device buffers of every layout.
 *
 * The "cuda" tcase of test-dcsub (meson: dcsub-cuda); without a usable
 * CUDA device it is skipped (exit 77).  Input frames in GPU memory and in
 * the page-locked pool: test-cuda-memory.c; backend choice:
 * test-negotiation.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"

#ifdef HAVE_CUDA
#include "aooct-cuda.h"
#include "aooct-cuda-dcsub.h"
#include "aooct-cpu-dcsub.h"
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>
#include <cuda_runtime_api.h>
#endif

/* Runs @n_buffers frames through aooctdcsub with @props on the CPU and on
 * CUDA and compares.  All frames are pushed before any is pulled, so that
 * several pooled device buffers are in flight. */
static void
compare_backends (const gchar * format, gint bytes, gint n, gint alines,
    gint bscans, gint max_value, const gchar * props, gboolean reference)
{
  enum
  { N_BUFFERS = 4 };
  GRand *rand = aooct_test_rand_new ();
  gsize rows = (gsize) alines * bscans, stride =
      aooct_test_frame_stride (n, bytes);
  guint16 *raw[N_BUFFERS];
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%"
      G_GSIZE_FORMAT ",framerate=25/1", format, n, rows);
  gchar *launch_cpu = g_strdup_printf ("aooctdcsub backend=cpu "
      "alines-per-bscan=%d %s", alines, props);
  gchar *launch_gpu = g_strdup_printf ("aooctdcsub backend=cuda "
      "alines-per-bscan=%d %s", alines, props);
  GstHarness *hc = aooct_test_harness_new (launch_cpu);
  GstHarness *hg = aooct_test_harness_new (launch_gpu);
  gint k;

  g_print ("%s %dx%" G_GSIZE_FORMAT " (%d B-scans) max %d %s\n", format, n,
      rows, bscans, max_value, props);
  gst_harness_set_src_caps_str (hc, g_strdup (caps));
  gst_harness_set_src_caps_str (hg, g_strdup (caps));
  for (k = 0; k < N_BUFFERS; k++) {
    raw[k] = aooct_test_make_spectra (rand, n, alines, bscans, max_value);
    fail_unless_equals_int (gst_harness_push (hc, aooct_test_make_frame (raw[k],
                n, rows, bytes, stride)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hg, aooct_test_make_frame (raw[k],
                n, rows, bytes, stride)), GST_FLOW_OK);
  }
  fail_unless (aooct_test_caps_have_cuda_feature (hg->sinkpad),
      "backend=cuda did not negotiate " AOOCT_TEST_CUDA_FEATURE);
  fail_if (aooct_test_caps_have_cuda_feature (hc->sinkpad));

  for (k = 0; k < N_BUFFERS; k++) {
    GstBuffer *oc = gst_harness_pull (hc), *og = gst_harness_pull (hg);
    GstMapInfo mc, mg;

    fail_unless (oc != NULL && og != NULL);
    fail_unless_equals_int (gst_buffer_n_memory (og), 1);
    fail_unless (gst_memory_is_type (gst_buffer_peek_memory (og, 0),
            "aooct.cuda.memory"), "CUDA output is not in aooct device memory");
    fail_unless (gst_buffer_map (oc, &mc, GST_MAP_READ));
    fail_unless (gst_buffer_map (og, &mg, GST_MAP_READ));
    fail_unless_equals_int (mg.size, rows * n * sizeof (gfloat));
    fail_unless_equals_int (mc.size, mg.size);
    aooct_test_check_dc_same ((const gfloat *) mc.data,
        (const gfloat *) mg.data, rows * n, raw[k]);
    if (reference)
      aooct_test_check_dc_reference (raw[k], (const gfloat *) mg.data, n,
          alines, bscans);
    gst_buffer_unmap (oc, &mc);
    gst_buffer_unmap (og, &mg);
    gst_buffer_unref (oc);
    gst_buffer_unref (og);
    g_free (raw[k]);
  }
  gst_harness_teardown (hc);
  gst_harness_teardown (hg);
  g_free (caps);
  g_free (launch_cpu);
  g_free (launch_gpu);
  g_rand_free (rand);
}

GST_START_TEST (test_gray16_odd_width)
{
  /* odd width: padded rows; a 12-bit camera, three B-scans per frame */
  compare_backends ("GRAY16_LE", 2, 1023, 200, 3, 4095, "", TRUE);
  /* the whole 16-bit range, many A-lines (several row blocks per column) */
  compare_backends ("GRAY16_LE", 2, 2049, 300, 2, 65535, "", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_gray8_odd_width)
{
  compare_backends ("GRAY8", 1, 833, 128, 4, 255, "", TRUE);
  compare_backends ("GRAY8", 1, 33, 7, 1, 255, "", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_background_and_none_cuda)
{
  gint n = 257;
  GRand *rand = aooct_test_rand_new ();
  gchar *path = aooct_test_write_background (rand, n), *props;

  props = g_strdup_printf ("mode=background background-file=%s", path);
  compare_backends ("GRAY16_LE", 2, n, 50, 2, 4095, props, FALSE);
  compare_backends ("GRAY16_LE", 2, n, 50, 2, 4095, "mode=none", FALSE);
  g_unlink (path);
  g_free (path);
  g_free (props);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- the kernels on device buffers, against the CPU core bit for bit ----
 *
 * aooct_cuda_dcsub_execute() directly, on layouts the element rarely or never
 * produces: raw frames at any byte offset with any row stride (the kernels
 * load 8, 4, 2 or 1 bytes at a time, by the alignment of both), outputs
 * that are not 16- or 8-byte aligned (float4, float2 or scalar stores),
 * widths that leave a partial group of 4 (GRAY16) or 8 (GRAY8) samples at
 * the end of each row, or are smaller than one group, A-line counts that
 * are not a multiple of the kernels' row chunks or of their 8 row lanes,
 * many B-scans per buffer (more than a grid dimension holds), and column
 * sums beyond 32 bits.  The kernels are exact (integer sums, the CPU's
 * rounding steps), so the floats must be bit-identical to the CPU plan's
 * on the same bytes; guard bytes around the output must stay untouched
 * and the plan's scratch must need no clearing: each case runs twice, the
 * second time on the scratch the first left. */
#ifdef HAVE_CUDA

#define GUARD_BYTES 256

typedef struct
{
  const gchar *what;
  gint bytes, n, alines, bscans;
  gsize raw_offset;             /* bytes past a 256-byte aligned address */
  gsize stride;                 /* 0: aooct_test_frame_stride () */
  gsize out_offset;             /* floats past a 256-byte aligned address */
  gint max_value;
  gboolean saturated;           /* all samples within 1000 of max_value */
  const gchar *packed;          /* a packed format (rows of its bytes, the
                                 * stride 0: none between them), or NULL */
} CoreCase;

static const CoreCase core_cases[] = {
  /* the benchmark shapes: 8-byte loads, float4 stores */
  {"2048x1000 x4 (benchmark)", 2, 2048, 1000, 4, 0, 0, 0, 4095, FALSE},
  {"832x240 x16 (thesis x16)", 2, 832, 240, 16, 0, 0, 0, 4095, FALSE},
  /* odd width: last group of 3, scalar stores; rows past 8-byte aligned */
  {"1023x200 x3", 2, 1023, 200, 3, 0, 0, 0, 65535, FALSE},
  /* stride 2044: 4-byte loads; last group of 2; float2 stores */
  {"1022x130 x2 stride 2044", 2, 1022, 130, 2, 0, 0, 0, 4095, FALSE},
  /* 2-byte loads (offset 2, stride 2046), output 4 bytes off */
  {"1022x77 x2 offset 2 stride 2046, output +1", 2, 1022, 77, 2, 2, 2046, 1,
      4095, FALSE},
  /* odd address and odd stride: samples assembled from single bytes */
  {"513x65 x3 offset 1 stride 1029", 2, 513, 65, 3, 1, 1029, 0, 65535,
      FALSE},
  /* larger stride than the row (a pitched frame), output 8 bytes off */
  {"1000x333 stride 2560, output +2", 2, 1000, 333, 1, 0, 2560, 2, 4095,
      FALSE},
  {"GRAY8 833x128 x4 stride 836", 1, 833, 128, 4, 0, 0, 0, 255, FALSE},
  {"GRAY8 1021x300 x2 stride 1024", 1, 1021, 300, 2, 0, 0, 0, 255, FALSE},
  {"GRAY8 1000x1000 offset 3 stride 1003", 1, 1000, 1000, 1, 3, 1003, 0,
      255, FALSE},
  {"GRAY8 4096x50 x2 offset 6 stride 4102", 1, 4096, 50, 2, 6, 4102, 0, 255,
      FALSE},
  /* narrower than one group, fewer A-lines than row lanes */
  {"3x7 x5", 2, 3, 7, 5, 0, 0, 0, 65535, FALSE},
  {"GRAY8 5x1 x3", 1, 5, 1, 3, 0, 0, 0, 255, FALSE},
  /* column sums of about 4.6e9 > 2^32: a 32-bit sum fails here */
  {"5x70001 saturated", 2, 5, 70001, 1, 0, 0, 0, 65535, TRUE},
  /* more B-scans than a grid dimension (65535) holds */
  {"2x2 x66000", 2, 2, 2, 66000, 0, 0, 0, 4095, FALSE},
  /* packed samples (8 in 12 or 10 bytes per group): the benchmark shape
   * (4-byte loads); odd address and stride (single bytes), a last group of
   * 2, scalar stores; 2-byte aligned rows, float2 stores; 10-bit rows in
   * a larger stride (2-byte loads), a last group of 4; narrower than a
   * group */
  {"mono12p 1024x1000 x8 (benchmark)", 2, 1024, 1000, 8, 0, 0, 0, 4095,
      FALSE, "mono12p"},
  {"mono12p 834x65 x3 offset 1 stride 1251, output +1", 2, 834, 65, 3, 1,
      1251, 1, 4095, FALSE, "mono12p"},
  {"mono12packed 1028x70 x2 offset 2 stride 1544, output +2", 2, 1028, 70,
      2, 2, 1544, 2, 4095, FALSE, "mono12packed"},
  {"mono10p 1020x77 x2 stride 1280", 2, 1020, 77, 2, 0, 1280, 0, 1023,
      FALSE, "mono10p"},
  {"mono10p 4x7 x5 offset 3", 2, 4, 7, 5, 3, 0, 0, 1023, FALSE, "mono10p"},
  {"mono12p 2x9 x3", 2, 2, 9, 3, 0, 0, 0, 4095, FALSE, "mono12p"},
  /* float32 samples (spec section 0), by the column-sequential kernels:
   * "float32-le" integer-valued (as the 16-bit samples), "float32" with a
   * random fraction added (float sums whose order matters); aligned rows,
   * rows 2 bytes off (bytes assembled), a stride beyond the row, many
   * B-scans */
  {"float32 integer 2048x1000 x2", 2, 2048, 1000, 2, 0, 0, 0, 65535, FALSE,
      "float32-le"},
  {"float32 fractional 1023x257 x3", 2, 1023, 257, 3, 0, 0, 1, 4095, FALSE,
      "float32"},
  {"float32 fractional 513x65 x2 offset 2 stride 2062", 2, 513, 65, 2, 2,
      2062, 0, 65535, FALSE, "float32"},
  {"float32 integer 3x7 x600", 2, 3, 7, 600, 0, 0, 0, 4095, FALSE,
      "float32-le"},
};

static guint16 *
core_samples (const CoreCase * c, GRand * rand)
{
  gsize count = (gsize) c->n * c->alines * c->bscans, i;
  guint16 *raw;

  if (!c->saturated)
    return aooct_test_make_spectra (rand, c->n, c->alines, c->bscans,
        c->max_value);
  raw = g_new (guint16, count);
  for (i = 0; i < count; i++)
    raw[i] = (guint16) g_rand_int_range (rand, c->max_value - 1000,
        c->max_value + 1);
  return raw;
}

/* A device copy of @size bytes of @host, @offset bytes past the start of
 * a fresh allocation (returned in @alloc); the bytes around it are 0xA5. */
static gpointer
device_copy_at (gconstpointer host, gsize size, gsize offset, gpointer * alloc)
{
  gsize total = offset + size + GUARD_BYTES;
  guint8 *img = g_malloc (total);
  GError *err = NULL;

  memset (img, 0xA5, total);
  if (host)
    memcpy (img + offset, host, size);
  fail_unless (aooct_cuda_malloc (total, alloc, &err)
      && aooct_cuda_upload (*alloc, img, total, &err), "%s",
      err ? err->message : "");
  g_free (img);
  return (guint8 *) * alloc + offset;
}

static void
check_core_case (const CoreCase * c, AooctDcMode mode, GRand * rand,
    AooctCudaStream stream)
{
  static const gchar *modes[] = { "bscan-mean", "background", "none" };
  AooctRawFormat format = c->bytes == 1 ? AOOCT_RAW_GRAY8 : AOOCT_RAW_GRAY16_LE;
  gboolean known = !c->packed
      || aooct_raw_format_from_string (c->packed, &format);
  gsize stride = c->stride ? c->stride : c->packed ?
      aooct_raw_row_bytes (format, c->n) :
      aooct_test_frame_stride (c->n, c->bytes);
  gsize rows = (gsize) c->alines * c->bscans;
  gsize out_bytes = rows * c->n * sizeof (gfloat);
  gsize out_at = GUARD_BYTES + c->out_offset * sizeof (gfloat);
  gsize out_total = out_at + out_bytes + GUARD_BYTES, i;
  guint16 *samples = core_samples (c, rand);
  guint8 *frame = g_malloc (stride * rows), *back;
  gfloat *bg = g_new (gfloat, c->n), *expect = g_new (gfloat, rows * c->n);
  gpointer raw_alloc, out_alloc;
  gpointer raw_dev, out_dev;
  AooctCpuDcsubPlan *cpu;
  AooctCudaDcsubPlan *plan;
  AooctDcNonFinite bad, bad2;
  GError *err = NULL;
  AooctGeometry g;

  fail_unless (known, "%s", c->packed);
  g_print ("  core %s %s\n", c->what, modes[mode]);
  aooct_geometry_init_raw (&g, c->n, c->alines, c->bscans, 25, 1);
  /* garbage in the row padding */
  for (i = 0; i < stride * rows; i++)
    frame[i] = (guint8) g_rand_int (rand);
  if (c->packed)
    for (i = 0; i < rows; i++)
      aooct_raw_pack_row (format, samples + i * c->n, c->n, frame + i * stride);
  if (c->packed && g_str_equal (c->packed, "float32")) {
    /* fractional floats: the sums' order decides their last bits */
    for (i = 0; i < rows * c->n; i++) {
      gfloat v = samples[i] + (gfloat) g_rand_double (rand);

      memcpy (frame + i / c->n * stride + i % c->n * 4, &v, 4);
    }
  } else if (!c->packed)
    aooct_test_write_rows (frame, samples, c->n, rows, c->bytes, stride);
  for (i = 0; i < (gsize) c->n; i++)
    bg[i] = (gfloat) g_rand_double_range (rand, 0, c->max_value);
  cpu = aooct_cpu_dcsub_plan_new (&g, format, mode, bg);
  fail_unless (aooct_cpu_dcsub_execute (cpu, frame, stride, expect, &bad));
  aooct_cpu_dcsub_plan_free (cpu);

  raw_dev = device_copy_at (frame, stride * rows, c->raw_offset, &raw_alloc);
  /* output region and guards: 0xff bytes (NaN), so a missed value shows */
  back = g_malloc (out_total);
  memset (back, 0xff, out_total);
  out_dev = device_copy_at (back, out_total, 0, &out_alloc);
  out_dev = (guint8 *) out_dev + out_at;
  plan = aooct_cuda_dcsub_plan_new (&g, format, mode, bg, &err);

  fail_unless (plan && aooct_cuda_dcsub_execute (plan, raw_dev, stride,
          (gfloat *) out_dev, &bad, stream, &err)
      && aooct_cuda_dcsub_execute (plan, raw_dev, stride,
          (gfloat *) out_dev, &bad2, stream, &err)
      && aooct_cuda_download_async (back, out_alloc, out_total, stream, &err)
      && aooct_cuda_stream_sync (stream, &err), "%s: %s", c->what,
      err ? err->message : "");
  fail_if (bad.found || bad2.found, "%s: a finite sample reported as not "
      "finite (row %" G_GSIZE_FORMAT " sample %d)", c->what, bad.row, bad.col);

  /* (fail_unless costs a write per call in libcheck: test first) */
  for (i = 0; i < out_at; i++)
    if (back[i] != 0xff)
      fail ("%s %s: byte %" G_GSIZE_FORMAT " before the output was written",
          c->what, modes[mode], out_at - i);
  for (i = out_at + out_bytes; i < out_total; i++)
    if (back[i] != 0xff)
      fail ("%s %s: byte %" G_GSIZE_FORMAT " after the output was written",
          c->what, modes[mode], i - out_at - out_bytes);
  if (memcmp (back + out_at, expect, out_bytes) != 0) {
    const gfloat *got = (const gfloat *) (back + out_at);

    for (i = 0; i < rows * c->n; i++)
      if (memcmp (&got[i], &expect[i], sizeof (gfloat)) != 0)
        fail ("%s %s: B-scan %" G_GSIZE_FORMAT " A-line %" G_GSIZE_FORMAT
            " sample %" G_GSIZE_FORMAT ": CUDA %.9g, CPU %.9g (raw %u)",
            c->what, modes[mode], i / c->n / c->alines,
            i / c->n % c->alines, i % c->n, got[i], expect[i], samples[i]);
  }

  aooct_cuda_free (raw_alloc);
  aooct_cuda_free (out_alloc);
  aooct_cuda_dcsub_plan_free (plan);
  g_free (back);
  g_free (frame);
  g_free (bg);
  g_free (expect);
  g_free (samples);
}
#endif

GST_START_TEST (test_core_layouts)
{
#ifdef HAVE_CUDA
  GRand *rand = aooct_test_rand_new ();
  AooctCudaStream stream;
  GError *err = NULL;
  guint i;

  fail_unless (aooct_cuda_stream_new (&stream, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < G_N_ELEMENTS (core_cases); i++) {
    check_core_case (&core_cases[i], AOOCT_DC_BSCAN_MEAN, rand, stream);
    check_core_case (&core_cases[i], AOOCT_DC_BACKGROUND, rand, stream);
    check_core_case (&core_cases[i], AOOCT_DC_NONE, rand, stream);
  }
  aooct_cuda_stream_free (stream);
  g_rand_free (rand);
#endif
}

GST_END_TEST;

/* Through the element: the shapes measured in docs/performance.md and
 * widths that take each load and store width from staged system memory
 * (rows of aooct_test_frame_stride () bytes). */
GST_START_TEST (test_kernel_shapes)
{
  /* the thesis camera, 16 B-scans per buffer; 2048 x 1000, 4 B-scans */
  compare_backends ("GRAY16_LE", 2, 832, 240, 16, 4095, "", TRUE);
  compare_backends ("GRAY16_LE", 2, 2048, 1000, 4, 4095, "", FALSE);
  /* stride 2044: 4-byte loads, float2 stores, a last group of 2 */
  compare_backends ("GRAY16_LE", 2, 1022, 130, 3, 65535, "", TRUE);
  /* GRAY8: stride 1024 with a last group of 5; stride 836 (4-byte) */
  compare_backends ("GRAY8", 1, 1021, 300, 2, 255, "", TRUE);
  compare_backends ("GRAY8", 1, 834, 77, 5, 255, "mode=none", FALSE);
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_gray16_odd_width);
  tcase_add_test (tc, test_gray8_odd_width);
  tcase_add_test (tc, test_background_and_none_cuda);
  tcase_add_test (tc, test_core_layouts);
  tcase_add_test (tc, test_kernel_shapes);
}
