/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctnorm on the CUDA backend: the "cuda" tcase of
 * test-norm (meson: norm-cuda; it runs alone on the GPU, as it measures
 * device memory).  Every test is skipped (exit 77) where no CUDA device is
 * usable:
 *   CUDA output against CPU output (GRAY8, GRAY16_LE; log and
 *          linear; automatic and manual range; several B-scans per buffer;
 *          crops; settings changed between buffers while playing), the
 *          automatic range in one kernel against two (the same bytes), the
 *          GstCudaMemory output (NV12, I420, RGBA) for nvcodec, a pipeline
 *          with cudaconvert / cudadownload sharing one GstCudaContext, and
 *          device memory over 1000 buffers;
 *   test_whole_chain  the whole chain aooctsrc ! ... ! aooctnorm into
 *          nvcodec (also the compute-sanitizer target: meson's
 *          norm-cuda-memcheck and norm-cuda-racecheck run it alone,
 *          GST_CHECKS=test_whole_chain).
 *
 * How close CUDA and CPU must be: both run the same float32 operations
 * (common/aooct-norm-range.h, no FMA contraction on either), so linear mode
 * must be bit-identical.  In log mode CUDA's log10f and the CPU's
 * aooct_norm_db_host (correctly rounded) may differ by an ulp or two; that
 * moves the scaled value 255 * v by ~1e-4 (GRAY16: ~0.01), so a pixel whose
 * value lies that close to a .5 rounding boundary may come out one grey
 * level apart, and the automatic range's maximum moves by as little.  The
 * test allows one level in log mode and reports how many pixels differ. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/app/app.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"
#include "aooct-synth.h"

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudamemory.h>

#include "aooct-cuda-norm.h"
#endif

typedef AooctTestDepthGeom Geom;

/* ---- helpers ---- */

static gsize
input_bytes (const Geom * g)
{
  return 2 * sizeof (gfloat) * (gsize) g->f * g->p1 * g->m * g->bscans;
}

/* The pixels of plane 0 of @buf (@caps) as packed rows of @row_bytes
 * (g_free); @buf is mapped on the host (GstCudaMemory downloads). */
static guint8 *
packed_plane (GstBuffer * buf, GstCaps * caps, gint plane, gsize row_bytes,
    gint rows, GstVideoInfo * vinfo_out)
{
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  guint8 *packed = g_malloc (row_bytes * rows);
  gint r;

  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  fail_unless (gst_video_frame_map (&frame, &vinfo, buf, GST_MAP_READ));
  for (r = 0; r < rows; r++)
    memcpy (packed + r * row_bytes,
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, plane) +
        (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, plane), row_bytes);
  gst_video_frame_unmap (&frame);
  if (vinfo_out)
    *vinfo_out = vinfo;
  return packed;
}

/* Compares @count grey levels (@bytes 1 or 2 each, little-endian) and
 * fails beyond @max_diff; returns the number of differing pixels. */
static gsize
compare_levels (const guint8 * cpu, const guint8 * gpu, gsize count,
    gint bytes, gint max_diff, const gchar * what)
{
  gsize i, differ = 0, worst_at = 0;
  gint worst = 0;

  for (i = 0; i < count; i++) {
    gint a = bytes == 1 ? cpu[i] : GST_READ_UINT16_LE (cpu + 2 * i);
    gint b = bytes == 1 ? gpu[i] : GST_READ_UINT16_LE (gpu + 2 * i);
    gint d = ABS (a - b);

    if (d) {
      differ++;
      if (d > worst) {
        worst = d;
        worst_at = i;
      }
    }
  }
  g_print ("  %s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " pixels differ, "
      "by at most %d level(s)\n", what, differ, count, worst);
  fail_unless (worst <= max_diff, "%s: pixel %" G_GSIZE_FORMAT " differs by "
      "%d levels (at most %d allowed)", what, worst_at, worst, max_diff);
  return differ;
}

/* Sets "name=value name=value" on @element. */
static void
set_props (GstElement * element, const gchar * props)
{
  gchar **kv = g_strsplit (props, " ", -1);
  gint i;

  for (i = 0; kv[i]; i++) {
    gchar **p = g_strsplit (kv[i], "=", 2);

    if (p[0] && p[1])
      gst_util_set_object_arg (G_OBJECT (element), p[0], p[1]);
    g_strfreev (p);
  }
  g_strfreev (kv);
}

/* The CPU's GRAY8 / GRAY16_LE image of @data with @props (the reference
 * for the CUDA outputs), as packed rows. */
static guint8 *
cpu_image (const Geom * g, const gchar * format, const gchar * props,
    const gfloat * data, gint * rows)
{
  gchar *launch = g_strdup_printf ("aooctnorm backend=cpu %s", props);
  GstHarness *h = aooct_test_harness_new (launch);
  GstBuffer *out;
  GstCaps *caps;
  GstVideoInfo vinfo;
  guint8 *img;
  gint bytes = strcmp (format, "GRAY8") == 0 ? 1 : 2;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (g));
  gst_harness_set_sink_caps_str (h, g_strdup_printf ("video/x-raw,format=%s",
          format));
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data,
          input_bytes (g)));
  fail_unless (out != NULL);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  *rows = GST_VIDEO_INFO_HEIGHT (&vinfo);
  img = packed_plane (out, caps, 0, (gsize) bytes * g->m, *rows, NULL);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (launch);
  return img;
}

/* ---- GRAY8 / GRAY16_LE: CUDA against CPU ---- */

/* Runs @n buffers (buffer k at level 10^(@step k), so the automatic range
 * moves) through aooctnorm on the CPU and on CUDA with @props, applying
 * @changes[k] (may be NULL) to both before buffer k while playing, and
 * compares every image.  Returns the pixels that differed. */
static gsize
compare_backends_step (const Geom * g, const gchar * format,
    const gchar * props, const gchar * const *changes, gint n, gdouble step)
{
  GRand *rand = aooct_test_rand_new ();
  gchar *lc = g_strdup_printf ("aooctnorm backend=cpu %s", props);
  gchar *lg = g_strdup_printf ("aooctnorm backend=cuda %s", props);
  GstHarness *hc = aooct_test_harness_new (lc), *hg =
      aooct_test_harness_new (lg);
  GstElement *ec = aooct_test_element (hc, "aooctnorm");
  GstElement *eg = aooct_test_element (hg, "aooctnorm");
  gint bytes = strcmp (format, "GRAY8") == 0 ? 1 : 2, k;
  gsize differ = 0;

  g_print ("%s M=%d B-scans=%d P2=%d %s\n", format, g->m, g->bscans,
      g->f * g->p1, props);
  gst_harness_set_src_caps (hc, aooct_test_depth_caps (g));
  gst_harness_set_src_caps (hg, aooct_test_depth_caps (g));
  gst_harness_set_sink_caps_str (hc, g_strdup_printf ("video/x-raw,format=%s",
          format));
  gst_harness_set_sink_caps_str (hg, g_strdup_printf ("video/x-raw,format=%s",
          format));
  for (k = 0; k < n; k++) {
    gfloat *data = aooct_test_make_depth (rand, g, pow (10, step * k));
    GstBuffer *oc, *og;
    GstCaps *cc, *cg;
    GstVideoInfo vinfo;
    guint8 *ic, *ig;
    gboolean log_mode;
    gchar *what;

    if (changes && changes[k]) {
      g_print (" before buffer %d: %s\n", k, changes[k]);
      set_props (ec, changes[k]);
      set_props (eg, changes[k]);
    }
    g_object_get (eg, "log", &log_mode, NULL);
    oc = gst_harness_push_and_pull (hc, aooct_test_buffer_new (data,
            input_bytes (g)));
    og = gst_harness_push_and_pull (hg, aooct_test_buffer_new (data,
            input_bytes (g)));
    fail_unless (oc != NULL && og != NULL);
    fail_if (aooct_test_caps_have_cuda_feature (hg->sinkpad),
        "GRAY output must be system memory");
    cc = gst_pad_get_current_caps (hc->sinkpad);
    cg = gst_pad_get_current_caps (hg->sinkpad);
    fail_unless (gst_caps_is_equal (cc, cg), "CPU %s vs CUDA %s",
        gst_caps_to_string (cc), gst_caps_to_string (cg));
    fail_unless (gst_video_info_from_caps (&vinfo, cc));
    fail_unless_equals_string (GST_VIDEO_INFO_NAME (&vinfo), format);
    ic = packed_plane (oc, cc, 0, (gsize) bytes * g->m,
        GST_VIDEO_INFO_HEIGHT (&vinfo), NULL);
    ig = packed_plane (og, cg, 0, (gsize) bytes * g->m,
        GST_VIDEO_INFO_HEIGHT (&vinfo), NULL);
    what = g_strdup_printf ("buffer %d (%s)", k, log_mode ? "log" : "linear");
    /* linear: the same float32 operations, bit-identical; log: log10f */
    differ += compare_levels (ic, ig, (gsize) g->m *
        GST_VIDEO_INFO_HEIGHT (&vinfo), bytes, log_mode ? 1 : 0, what);
    g_free (what);
    g_free (ic);
    g_free (ig);
    gst_caps_unref (cc);
    gst_caps_unref (cg);
    gst_buffer_unref (oc);
    gst_buffer_unref (og);
    g_free (data);
  }
  gst_harness_teardown (hc);
  gst_harness_teardown (hg);
  g_free (lc);
  g_free (lg);
  g_rand_free (rand);
  return differ;
}

/* levels rising by 10^1.5 per buffer */
static gsize
compare_backends (const Geom * g, const gchar * format, const gchar * props,
    const gchar * const *changes, gint n)
{
  return compare_backends_step (g, format, props, changes, n, 1.5);
}

GST_START_TEST (test_gray8_auto)
{
  const Geom one = { 301, 1, 700, 1024, 2 }, three = { 96, 3, 200, 256, 2 };

  compare_backends (&one, "GRAY8", "", NULL, 3);
  /* several B-scans per buffer, each with its own range; a crop */
  compare_backends (&three, "GRAY8", "crop-start=5 crop-end=200", NULL, 3);
  compare_backends (&three, "GRAY8", "log=false", NULL, 3);
  compare_backends (&three, "GRAY8", "dynamic-range=0", NULL, 2);
}

GST_END_TEST;

GST_START_TEST (test_gray16)
{
  const Geom g = { 250, 2, 500, 512, 4 };

  compare_backends (&g, "GRAY16_LE", "", NULL, 3);
  compare_backends (&g, "GRAY16_LE", "log=false crop-end=1500", NULL, 2);
  compare_backends (&g, "GRAY16_LE", "auto-range=false range-min=20 "
      "range-max=75", NULL, 2);
}

GST_END_TEST;

GST_START_TEST (test_manual_range)
{
  const Geom g = { 128, 2, 400, 512, 2 };

  compare_backends (&g, "GRAY8", "auto-range=false range-min=30 "
      "range-max=90", NULL, 3);
  compare_backends (&g, "GRAY8", "log=false auto-range=false range-min=0 "
      "range-max=3e7", NULL, 3);
}

GST_END_TEST;

/* The automatic range is reduced by many blocks per B-scan, and the last
 * block of each B-scan resets the keys for the next buffer.  If that reset
 * failed, levels rising from buffer to buffer would keep a stale minimum
 * (seen with dynamic-range=0: lo = min L, 10 dB lower than it should be)
 * and falling ones a stale maximum (hi = max, in log and linear mode).
 * (In linear mode the minimum intensity is ~0 whatever the level, so a
 * stale minimum would not show there.)  One 1000-A-line B-scan per buffer
 * (1000 blocks of the reduction), and 16 B-scans per buffer (a few blocks
 * each, 16 keys), both ways. */
GST_START_TEST (test_range_across_buffers)
{
  const Geom big = { 1000, 1, 2048, 2048, 2 }, many = { 64, 16, 200, 256, 2 };
  const gchar *const falling[] = { NULL, NULL, NULL, "log=false", NULL };

  compare_backends_step (&big, "GRAY8", "dynamic-range=0", NULL, 4, 1.0);
  compare_backends_step (&big, "GRAY8", "", falling, 5, -1.0);
  compare_backends_step (&many, "GRAY16_LE", "dynamic-range=0", NULL, 4, 1.0);
  compare_backends_step (&many, "GRAY16_LE", "", falling, 5, -1.0);
}

GST_END_TEST;

/* ---- the automatic range in one kernel or two ---- */

static void check_cuda_video (const gchar * format, const gchar * props);

/* AOOCT_CUDA_NORM_FUSED: read in test builds only */
#ifdef AOOCT_FAULT_INJECTION
#ifdef HAVE_CUDA
/* aooct_cuda_norm_plan_new() for @g with the default crop (the positive
 * depths), GRAY8: the blocks of the one-kernel path, 0 for two kernels */
static gint
fused_blocks (const Geom * g)
{
  AooctCudaNormParams p = { 0 };
  AooctCudaNormPlan *plan;
  GError *err = NULL;

  p.samples = g->f * g->p1;
  p.alines = g->m;
  p.bscans = g->bscans;
  p.crop_end = p.samples / 2;
  plan = aooct_cuda_norm_plan_new (&p, &err);
  fail_unless (plan != NULL, "%s", err ? err->message : "?");
  aooct_cuda_norm_plan_free (plan);
  return p.fused_blocks;
}
#endif

/* The images of @n buffers (levels rising by 10^1.5 each, from a seeded
 * generator: the same data on every call) through aooctnorm backend=cuda
 * with @props into @format, as one packed array of @bytes per pixel;
 * @fused: the value of AOOCT_CUDA_NORM_FUSED for the element ("0": two
 * kernels), NULL to leave it unset (the planned path) */
static guint8 *
cuda_images (const Geom * g, const gchar * format, gint bytes,
    const gchar * props, gint n, const gchar * fused, gsize * size)
{
  GRand *rand = g_rand_new_with_seed (11);
  gchar *launch = g_strdup_printf ("aooctnorm backend=cuda %s", props);
  GstHarness *h;
  GByteArray *all = g_byte_array_new ();
  gint k;

  if (fused)
    g_setenv ("AOOCT_CUDA_NORM_FUSED", fused, TRUE);
  else
    g_unsetenv ("AOOCT_CUDA_NORM_FUSED");
  h = aooct_test_harness_new (launch);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (g));
  gst_harness_set_sink_caps_str (h, g_strdup_printf ("video/x-raw,format=%s",
          format));
  for (k = 0; k < n; k++) {
    gfloat *data = aooct_test_make_depth (rand, g, pow (10, 1.5 * k));
    GstBuffer *out = gst_harness_push_and_pull (h,
        aooct_test_buffer_new (data, input_bytes (g)));
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
    GstVideoInfo vinfo;
    guint8 *img;
    gsize row = (gsize) bytes * g->m;

    fail_unless (out != NULL);
    fail_unless (gst_video_info_from_caps (&vinfo, caps));
    img = packed_plane (out, caps, 0, row, GST_VIDEO_INFO_HEIGHT (&vinfo),
        NULL);
    g_byte_array_append (all, img, row * GST_VIDEO_INFO_HEIGHT (&vinfo));
    g_free (img);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    g_free (data);
  }
  g_unsetenv ("AOOCT_CUDA_NORM_FUSED");
  gst_harness_teardown (h);
  g_free (launch);
  g_rand_free (rand);
  *size = all->len;
  return g_byte_array_free (all, FALSE);
}

/* Where a buffer's B-scans fit on chip, the automatic range and the
 * mapping run as one cooperative kernel (cuda/aooct-cuda-norm.cu,
 * range_map); elsewhere, and with AOOCT_CUDA_NORM_FUSED=0, as two.  Both
 * must give the same bytes: one B-scan of 1000 A-lines over 2048 depths
 * (the 2048 x 1000 benchmark shape, several tiles per block), a width
 * that leaves partial tiles, 3 and 16 B-scans per buffer (a block's tiles
 * span B-scans, each with its own range), a crop, linear mode, a
 * dynamic range of 0 and GRAY16; 4 buffers each, so that the keys
 * restored between calls are checked too.  RGBA (CUDA memory only) with
 * two kernels against the CPU's image: the one-kernel RGBA is
 * test_cuda_video_formats. */
GST_START_TEST (test_fused_range_map)
{
  static const struct
  {
    Geom g;
    const gchar *format;
    gint bytes;
    const gchar *props;
  } cases[] = {
    {{1000, 1, 2048, 2048, 2}, "GRAY8", 1, ""},
    {{301, 1, 700, 1024, 2}, "GRAY8", 1, "dynamic-range=0"},
    {{96, 3, 200, 256, 2}, "GRAY16_LE", 2, "crop-start=5 crop-end=200"},
    {{64, 16, 200, 256, 2}, "GRAY8", 1, "log=false"},
    {{333, 2, 300, 512, 2}, "GRAY16_LE", 2, "log=false dynamic-range=0"},
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gsize n1, n2;
    guint8 *one = cuda_images (&cases[i].g, cases[i].format, cases[i].bytes,
        cases[i].props, 4, NULL, &n1);
    guint8 *two = cuda_images (&cases[i].g, cases[i].format, cases[i].bytes,
        cases[i].props, 4, "0", &n2);
    gsize k, differ = 0;

#ifdef HAVE_CUDA
    if (!g_getenv ("AOOCT_TEST_FAKE_GPU"))
      fail_unless (fused_blocks (&cases[i].g) > 0, "case %d: the one-kernel "
          "path was not planned", (gint) i);
#endif
    fail_unless_equals_uint64 (n1, n2);
    for (k = 0; k < n1; k++)
      differ += one[k] != two[k];
    g_print ("%s M=%d B-scans=%d %s: one kernel against two: %"
        G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes differ\n",
        cases[i].format, cases[i].g.m, cases[i].g.bscans, cases[i].props,
        differ, n1);
    fail_unless (differ == 0);
    g_free (one);
    g_free (two);
  }
  g_setenv ("AOOCT_CUDA_NORM_FUSED", "0", TRUE);
  check_cuda_video ("RGBA", "");
  g_unsetenv ("AOOCT_CUDA_NORM_FUSED");
}

GST_END_TEST;

/* Where the device holds fewer blocks at once than at setup (MPS, another
 * limit on the context's SMs), the cooperative launch is refused as too
 * large: aooctnorm then runs the two kernels, with no element error and
 * the same image.  AOOCT_CUDA_NORM_FUSED=oversize plans one block per
 * tile, more than an H100 or H200 holds for 2048 x 1000 (2048 blocks), so
 * every launch is refused; with and without CUDA graphs. */
GST_START_TEST (test_fused_too_large)
{
  const Geom g = { 1000, 1, 2048, 2048, 2 };
  const gchar *const props[] = { "", "cuda-graphs=false" };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    gsize n1, n2, k, differ = 0;
    guint8 *two = cuda_images (&g, "GRAY8", 1, props[i], 4, "0", &n2);
    guint8 *refused = cuda_images (&g, "GRAY8", 1, props[i], 4, "oversize",
        &n1);
    fail_unless_equals_uint64 (n1, n2);
    for (k = 0; k < n1; k++)
      differ += refused[k] != two[k];
    g_print ("%s: launch refused as too large against two kernels: %"
        G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes differ\n",
        props[i][0] ? props[i] : "cuda-graphs=true", differ, n1);
    fail_unless (differ == 0);
    g_free (refused);
    g_free (two);
  }
}

GST_END_TEST;
#endif

/* Display settings changed between buffers while playing apply from the
 * next buffer on both backends. */
GST_START_TEST (test_playing_changes)
{
  const Geom g = { 200, 2, 300, 512, 2 };
  const gchar *const changes[] = {
    NULL,
    "dynamic-range=35",
    "log=false",
    "auto-range=false range-min=1e3 range-max=5e9",
    "log=true range-min=10 range-max=80",
    "auto-range=true dynamic-range=0",
    NULL
  };

  compare_backends (&g, "GRAY8", "", changes, 6);
  compare_backends (&g, "GRAY16_LE", "", changes, 6);
}

GST_END_TEST;

/* A setting that becomes invalid while playing: on CUDA too the stream
 * goes on with the last consistent settings (it may be half of a change
 * of the pair), and a warning names the properties when it lasts (issue
 * 19, item 7). */
GST_START_TEST (test_playing_invalid)
{
  const Geom g = { 64, 1, 100, 256, 2 };
  GRand *rand = aooct_test_rand_new ();
  gfloat *data = aooct_test_make_depth (rand, &g, 1);
  GstHarness *h = aooct_test_harness_new ("aooctnorm backend=cuda");
  GstBuffer *out;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data,
          input_bytes (&g)));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  g_object_set (aooct_test_element (h, "aooctnorm"), "auto-range", FALSE,
      "range-min", 50.0, "range-max", 40.0, NULL);
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data,
          input_bytes (&g)));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  fail_unless (aooct_test_pop_warning (h) == NULL);
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data,
          input_bytes (&g)));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  aooct_test_assert_warning (h, "range-max=40", "range-min=50", NULL);
  fail_unless (aooct_test_pop_error (h) == NULL);
  gst_harness_teardown (h);
  g_free (data);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- GstCudaMemory output for nvcodec ---- */

/* aooctnorm backend=cuda into video/x-raw(memory:CUDAMemory),format=@format:
 * libgstcuda memory whose luma (NV12, I420) or R, G and B (RGBA) are the
 * CPU's GRAY8 image, chroma 128, alpha 255. */
static void
check_cuda_video (const gchar * format, const gchar * props)
{
  const Geom g = { 333, 2, 300, 512, 2 };
  GRand *rand = aooct_test_rand_new ();
  gfloat *data = aooct_test_make_depth (rand, &g, 1e3);
  gchar *launch = g_strdup_printf ("aooctnorm backend=cuda %s", props);
  GstHarness *h = aooct_test_harness_new (launch);
  gint rows, k;
  guint8 *ref = cpu_image (&g, "GRAY8", props, data, &rows);
  GstBuffer *out;
  GstCaps *caps;
  GstVideoInfo vinfo;
  gboolean log_mode = strstr (props, "log=false") == NULL;

  g_print ("%s in CUDA memory %s\n", format, props);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  gst_harness_set_sink_caps_str (h, g_strdup_printf ("video/x-raw("
          AOOCT_TEST_CUDA_FEATURE "),format=%s", format));
  /* two buffers: the second reuses nothing of the first's state */
  for (k = 0; k < 2; k++) {
    out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data,
            input_bytes (&g)));
    fail_unless (out != NULL);
    fail_unless (aooct_test_caps_have_cuda_feature (h->sinkpad));
#ifdef HAVE_CUDA
    fail_unless_equals_int (gst_buffer_n_memory (out), 1);
    fail_unless (gst_is_cuda_memory (gst_buffer_peek_memory (out, 0)),
        "the output is not libgstcuda's GstCudaMemory");
#endif
#ifdef HAVE_GST_CUDA_STREAM
    {
      GstMemory *mem = gst_buffer_peek_memory (out, 0);

      /* >= 1.24: pushed without a host wait, ordered by the memory's
       * stream; the host map below (a download on that stream) is then
       * what proves the order */
      fail_unless (gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem))
          != NULL, "the output GstCudaMemory carries no CUDA stream");
      fail_unless (GST_MEMORY_FLAG_IS_SET (mem,
              GST_CUDA_MEMORY_TRANSFER_NEED_SYNC),
          "the output GstCudaMemory does not say that it needs a sync");
    }
#endif
    caps = gst_pad_get_current_caps (h->sinkpad);
    if (strcmp (format, "RGBA") == 0) {
      guint8 *rgba = packed_plane (out, caps, 0, 4 * (gsize) g.m, rows,
          &vinfo);
      guint8 *grey = g_malloc ((gsize) g.m * rows);
      gsize i;

      for (i = 0; i < (gsize) g.m * rows; i++) {
        fail_unless (rgba[4 * i] == rgba[4 * i + 1]
            && rgba[4 * i] == rgba[4 * i + 2] && rgba[4 * i + 3] == 255,
            "pixel %" G_GSIZE_FORMAT " is not grey and opaque", i);
        grey[i] = rgba[4 * i];
      }
      compare_levels (ref, grey, (gsize) g.m * rows, 1, log_mode ? 1 : 0,
          "RGBA vs CPU GRAY8");
      g_free (grey);
      g_free (rgba);
    } else {
      guint8 *luma = packed_plane (out, caps, 0, g.m, rows, &vinfo);
      guint plane, c;
      gint r, x;
      GstVideoFrame frame;

      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), g.m);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), rows);
      fail_unless_equals_int (vinfo.colorimetry.range,
          GST_VIDEO_COLOR_RANGE_0_255);
      compare_levels (ref, luma, (gsize) g.m * rows, 1, log_mode ? 1 : 0,
          "luma vs CPU GRAY8");
      fail_unless (gst_video_frame_map (&frame, &vinfo, out, GST_MAP_READ));
      for (plane = 1; plane < GST_VIDEO_FRAME_N_PLANES (&frame); plane++) {
        for (c = 1; GST_VIDEO_FORMAT_INFO_PLANE (vinfo.finfo, c) != plane;)
          c++;
        for (r = 0; r < GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c); r++) {
          const guint8 *row = (const guint8 *)
              GST_VIDEO_FRAME_PLANE_DATA (&frame, plane) +
              r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, plane);
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&frame, c) *
              GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c); x++)
            fail_unless (row[x] == 128, "chroma plane %d row %d byte %d is "
                "%d, not 128", plane, r, x, row[x]);
        }
      }
      gst_video_frame_unmap (&frame);
      g_free (luma);
    }
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (ref);
  g_free (data);
  g_free (launch);
  g_rand_free (rand);
}

GST_START_TEST (test_cuda_video_formats)
{
  check_cuda_video ("NV12", "");
  check_cuda_video ("I420", "crop-start=3 crop-end=255");
  check_cuda_video ("RGBA", "");
  check_cuda_video ("NV12", "log=false");
}

GST_END_TEST;

/* With a GPU, a sink that takes anything keeps getting GRAY8 in system
 * memory from backend=auto. */
GST_START_TEST (test_any_sink_gets_gray)
{
  const Geom g = { 64, 1, 100, 256, 2 };
  GRand *rand = aooct_test_rand_new ();
  gfloat *data = aooct_test_make_depth (rand, &g, 1);
  GstHarness *h = aooct_test_harness_new ("aooctnorm");
  GstBuffer *out;
  GstCaps *caps;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (data,
          input_bytes (&g)));
  fail_unless (out != NULL);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY8");
  fail_if (aooct_test_caps_have_cuda_feature (h->sinkpad));
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (data);
  g_rand_free (rand);
}

GST_END_TEST;

static gboolean
have_factories (const gchar * first, ...)
{
  va_list ap;
  const gchar *name = first;
  gboolean ok = TRUE;

  va_start (ap, first);
  for (; name; name = va_arg (ap, const gchar *))
  {
    GstElementFactory *f = gst_element_factory_find (name);

    if (f == NULL) {
      g_print ("  %s is not available\n", name);
      ok = FALSE;
    } else {
      gst_object_unref (f);
    }
  }
  va_end (ap);
  return ok;
}

static GstObject *
element_cuda_context (GstElement * element)
{
  GstContext *ctx = gst_element_get_context (element, "gst.cuda.context");
  GstObject *obj = NULL;

  if (ctx) {
    const GValue *v = gst_structure_get_value (gst_context_get_structure (ctx),
        "gst.cuda.context");
    if (v)
      obj = g_value_dup_object (v);
    gst_context_unref (ctx);
  }
  return obj;
}

/* appsrc (depth caps) ! aooctnorm ! NV12 in CUDA memory ! cudaconvert !
 * RGBA in CUDA memory ! cudadownload ! appsink: R = G = B = the CPU's
 * GRAY8 image (the NV12 is full range, so no 16..235 stretch), and
 * aooctnorm and cudaconvert work on one GstCudaContext. */
GST_START_TEST (test_nvcodec_pipeline)
{
  const Geom g = { 160, 1, 300, 512, 2 };
  enum
  { N = 3 };
  GRand *rand = aooct_test_rand_new ();
  GstCaps *in_caps = aooct_test_depth_caps (&g);
  gchar *caps_str = gst_caps_to_string (in_caps);
  gchar *launch;
  GstElement *pipeline, *src, *sink, *norm, *conv;
  GstObject *ctx_norm, *ctx_conv;
  GError *err = NULL;
  gfloat *data[N];
  gint k, rows;

  if (!have_factories ("cudaconvert", "cudadownload", NULL)) {
    g_print ("SKIPPED test_nvcodec_pipeline: nvcodec's CUDA elements are "
        "not available\n");
    goto out;
  }
  launch = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "aooctnorm backend=cuda name=norm ! "
      "video/x-raw(memory:CUDAMemory),format=NV12 ! cudaconvert name=conv ! "
      "video/x-raw(memory:CUDAMemory),format=RGBA ! cudadownload ! "
      "video/x-raw,format=RGBA ! appsink name=sink sync=false", caps_str);
  pipeline = gst_parse_launch (launch, &err);
  fail_unless (pipeline != NULL && err == NULL, "%s", err ? err->message : "?");
  g_free (launch);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  norm = gst_bin_get_by_name (GST_BIN (pipeline), "norm");
  conv = gst_bin_get_by_name (GST_BIN (pipeline), "conv");
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  for (k = 0; k < N; k++) {
    data[k] = aooct_test_make_depth (rand, &g, pow (10, k));
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            aooct_test_buffer_new (data[k], input_bytes (&g))), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  for (k = 0; k < N; k++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    guint8 *ref = cpu_image (&g, "GRAY8", "", data[k], &rows), *rgba, *r;
    gsize i;
    GstVideoInfo vinfo;

    fail_unless (sample != NULL, "no image %d from the nvcodec pipeline", k);
    rgba = packed_plane (gst_sample_get_buffer (sample),
        gst_sample_get_caps (sample), 0, 4 * (gsize) g.m, rows, &vinfo);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), rows);
    r = g_malloc ((gsize) g.m * rows);
    for (i = 0; i < (gsize) g.m * rows; i++) {
      fail_unless (ABS (rgba[4 * i] - rgba[4 * i + 1]) <= 1
          && ABS (rgba[4 * i] - rgba[4 * i + 2]) <= 1,
          "pixel %" G_GSIZE_FORMAT " is not grey: %d %d %d", i, rgba[4 * i],
          rgba[4 * i + 1], rgba[4 * i + 2]);
      r[i] = rgba[4 * i];
    }
    /* two independent roundings of up to one level each: CUDA's log10f
     * against the CPU's logarithm (see above), then cudaconvert's float YUV -> RGB,
     * which rounds many levels one off (on an H100 ~45% of the pixels);
     * the NV12 luma itself is exact, see test_cuda_video_formats */
    compare_levels (ref, r, (gsize) g.m * rows, 1, 2,
        "cudaconvert RGBA vs CPU GRAY8");
    g_free (r);
    g_free (rgba);
    g_free (ref);
    gst_sample_unref (sample);
    g_free (data[k]);
  }
  ctx_norm = element_cuda_context (norm);
  ctx_conv = element_cuda_context (conv);
  fail_unless (ctx_norm != NULL, "aooctnorm has no gst.cuda.context");
  fail_unless (ctx_conv != NULL, "cudaconvert has no gst.cuda.context");
  fail_unless (ctx_norm == ctx_conv, "aooctnorm and cudaconvert use "
      "different CUDA contexts (%p, %p)", ctx_norm, ctx_conv);
  g_print ("  aooctnorm and cudaconvert share GstCudaContext %p\n", ctx_norm);
  gst_object_unref (ctx_norm);
  gst_object_unref (ctx_conv);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (norm);
  gst_object_unref (conv);
  gst_object_unref (pipeline);
out:
  gst_caps_unref (in_caps);
  g_free (caps_str);
  g_rand_free (rand);
}

GST_END_TEST;

#ifdef HAVE_CUDA
static gsize
device_free_bytes (void)
{
  size_t free_b = 0, total_b = 0;

  fail_unless_equals_int (cudaMemGetInfo (&free_b, &total_b), cudaSuccess);
  return free_b;
}
#endif

/* 1000 buffers through appsrc ! aooctnorm (CUDA) ! NV12 in CUDA memory !
 * cudaconvert ! cudadownload ! appsink: the device memory in use must not
 * grow once the pools are filled (no allocation per buffer, no leak). */
GST_START_TEST (test_device_memory_steady)
{
#ifdef HAVE_CUDA
  const Geom g = { 256, 1, 500, 512, 2 };
  enum
  { N_DATA = 4, N_BUFFERS = 1000, WARM = 100 };
  /* cudaMemGetInfo moves in 2 MiB pages; a leak of one output buffer per
   * buffer would be 1000 x ~200 KiB */
  const gsize slack = 8 << 20;
  GRand *rand = aooct_test_rand_new ();
  GstCaps *in_caps = aooct_test_depth_caps (&g);
  gchar *caps_str = gst_caps_to_string (in_caps);
  gchar *launch;
  GstElement *pipeline, *src, *sink;
  GstBuffer *bufs[N_DATA];
  GstSample *sample;
  GError *err = NULL;
  gsize free_warm = 0, free_end, free_before;
  gint k, pulled = 0;

  if (!have_factories ("cudaconvert", "cudadownload", NULL)) {
    g_print ("SKIPPED test_device_memory_steady: no nvcodec elements\n");
    goto out;
  }
  /* the runtime's own context first, so that its creation is not counted */
  fail_unless_equals_int (cudaFree (NULL), cudaSuccess);
  free_before = device_free_bytes ();
  for (k = 0; k < N_DATA; k++) {
    gfloat *d = aooct_test_make_depth (rand, &g, pow (10, k));
    bufs[k] = aooct_test_buffer_new (d, input_bytes (&g));
    g_free (d);
  }
  launch = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "max-bytes=%" G_GSIZE_FORMAT " block=true ! aooctnorm backend=cuda ! "
      "video/x-raw(memory:CUDAMemory),format=NV12 ! cudaconvert ! "
      "video/x-raw(memory:CUDAMemory),format=RGBA ! cudadownload ! "
      "appsink name=sink sync=false max-buffers=4", caps_str,
      4 * input_bytes (&g));
  pipeline = gst_parse_launch (launch, &err);
  fail_unless (pipeline != NULL && err == NULL, "%s", err ? err->message : "?");
  g_free (launch);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* push one, pull one: the pipeline never holds more than a few */
  for (k = 0; k < N_BUFFERS; k++) {
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            gst_buffer_copy (bufs[k % N_DATA])), GST_FLOW_OK);
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    fail_unless (sample != NULL, "buffer %d did not come out", k);
    gst_sample_unref (sample);
    pulled++;
    if (pulled == WARM)
      free_warm = device_free_bytes ();
  }
  free_end = device_free_bytes ();
  g_print ("device memory free: before %" G_GSIZE_FORMAT " MiB, after %d "
      "buffers %" G_GSIZE_FORMAT " MiB, after %d %" G_GSIZE_FORMAT " MiB\n",
      free_before >> 20, WARM, free_warm >> 20, N_BUFFERS, free_end >> 20);
  fail_unless (free_end + slack >= free_warm, "device memory grew by %"
      G_GSIZE_FORMAT " KiB from buffer %d to %d", (free_warm - free_end) >> 10,
      WARM, N_BUFFERS);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_print ("device memory free after the pipeline: %" G_GSIZE_FORMAT
      " MiB\n", device_free_bytes () >> 20);
  for (k = 0; k < N_DATA; k++)
    gst_buffer_unref (bufs[k]);
out:
  gst_caps_unref (in_caps);
  g_free (caps_str);
  g_rand_free (rand);
#endif
}

GST_END_TEST;

/* ---- the whole chain (also the compute-sanitizer target) ---- */

/* aooctsrc ! aooctdcsub ! ... ! aooctfft ! aooctnorm on backend=auto
 * (each element on CUDA where it has a CUDA path), once into GRAY8 and
 * once into nvcodec; the luma equals the GRAY8 image of the same
 * (seeded) camera frames, within the log10f level. */
GST_START_TEST (test_whole_chain)
{
#define CHAIN "aooctsrc seed=7 samples=512 alines=64 num-buffers=4 " \
    "! aooctdcsub ! aooctpad ! aooctkmap wavelength-coeffs=\"%s\" ! " \
    "aooctdisp ! aooctfft window=hann ! aooctnorm ! %s ! " \
    "appsink name=sink sync=false"
  const gchar *tail_nv = "video/x-raw(memory:CUDAMemory),format=NV12 ! "
      "cudaconvert ! video/x-raw(memory:CUDAMemory),format=NV12 ! "
      "cudadownload ! video/x-raw,format=NV12";
  const gchar *tails[] = { "video/x-raw,format=GRAY8", tail_nv };
  guint8 *images[2][4];
  gint t, k, w = 0, h = 0;

  if (!have_factories ("cudaconvert", "cudadownload", NULL)) {
    g_print ("SKIPPED test_whole_chain: no nvcodec elements\n");
    return;
  }
  for (t = 0; t < 2; t++) {
    gchar *launch = g_strdup_printf (CHAIN,
        AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, tails[t]);
    GError *err = NULL;
    GstElement *pipeline = gst_parse_launch (launch, &err);
    GstElement *sink;

    fail_unless (pipeline != NULL && err == NULL, "%s",
        err ? err->message : "?");
    sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    for (k = 0; k < 4; k++) {
      GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          60 * GST_SECOND);
      GstVideoInfo vinfo;

      fail_unless (s != NULL, "%s: no image %d", tails[t], k);
      fail_unless (gst_video_info_from_caps (&vinfo, gst_sample_get_caps (s)));
      w = GST_VIDEO_INFO_WIDTH (&vinfo);
      h = GST_VIDEO_INFO_HEIGHT (&vinfo);
      images[t][k] = packed_plane (gst_sample_get_buffer (s),
          gst_sample_get_caps (s), 0, w, h, NULL);
      gst_sample_unref (s);
    }
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (pipeline);
    g_free (launch);
  }
  for (k = 0; k < 4; k++) {
    compare_levels (images[0][k], images[1][k], (gsize) w * h, 1, 0,
        "chain: NV12 luma via cudaconvert vs GRAY8");
    g_free (images[0][k]);
    g_free (images[1][k]);
  }
}

GST_END_TEST;

void
aooct_test_add_cuda_tests (TCase * tc)
{
  tcase_add_test (tc, test_gray8_auto);
  tcase_add_test (tc, test_gray16);
  tcase_add_test (tc, test_manual_range);
  tcase_add_test (tc, test_range_across_buffers);
#ifdef AOOCT_FAULT_INJECTION
  /* AOOCT_CUDA_NORM_FUSED is read in test builds only */
  tcase_add_test (tc, test_fused_range_map);
  tcase_add_test (tc, test_fused_too_large);
#endif
  tcase_add_test (tc, test_playing_changes);
  tcase_add_test (tc, test_playing_invalid);
  tcase_add_test (tc, test_cuda_video_formats);
  tcase_add_test (tc, test_any_sink_gets_gray);
  tcase_add_test (tc, test_nvcodec_pipeline);
  tcase_add_test (tc, test_device_memory_steady);
  tcase_add_test (tc, test_whole_chain);
}
