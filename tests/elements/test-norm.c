/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctnorm against the float64 reference's norm step and
 * against hand-computed values (spec section 7). */
#include <math.h>
#include <string.h>

#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-ref64.h"
#include "aooct-test-depth.h"

typedef AooctTestDepthGeom Geom;

/* Pushes @data and returns the output frame's pixels as a packed copy
 * (rows of width * bytes-per-pixel), checking the negotiated caps. */
static gpointer
push_and_get (GstHarness * h, const Geom * g, const gfloat * data, gint bits,
    gint rows_per_bscan)
{
  const gsize in_size = 2 * sizeof (gfloat) * g->f * g->p1 * g->m * g->bscans;
  const gint bpp = bits / 8, height = rows_per_bscan * g->bscans;
  GstBuffer *out = gst_harness_push_and_pull (h,
      aooct_test_buffer_new (data, in_size));
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  guint8 *packed;
  gint r;

  fail_unless (out != NULL);
  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  gst_caps_unref (caps);
  fail_unless_equals_string (GST_VIDEO_INFO_NAME (&vinfo),
      bits == 8 ? "GRAY8" : "GRAY16_LE");
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&vinfo), g->m);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&vinfo), height);
  fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&vinfo), 10);
  fail_unless (gst_video_frame_map (&frame, &vinfo, out, GST_MAP_READ));
  packed = g_new (guint8, (gsize) bpp * g->m * height);
  for (r = 0; r < height; r++)
    memcpy (packed + (gsize) r * bpp * g->m,
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), bpp * g->m);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (out);
  return packed;
}

static void
ref_params (AooctRefParams * p, const Geom * g, gboolean log, gdouble dr,
    gboolean auto_range, gdouble rmin, gdouble rmax, gint bits,
    gint crop_start, gint crop_end, AooctRefGrid * grid)
{
  aooct_ref_params_init (p, g->n, g->m, g->bscans);
  p->pad_size = g->p1;
  p->pad_factor = g->f;
  p->log = log;
  p->dynamic_range = dr;
  p->auto_range = auto_range;
  p->range_min = rmin;
  p->range_max = rmax;
  p->bits = bits;
  p->crop_start = crop_start;
  p->crop_end = crop_end;
  fail_unless (aooct_ref_check (p, NULL));
  fail_unless (aooct_ref_grid (p, grid, NULL));
}

/* The reference image of @data (packed rows), per B-scan. */
static gpointer
reference_image (const AooctRefParams * p, const AooctRefGrid * grid,
    const gfloat * data, gint rows)
{
  const gsize n = 2 * (gsize) grid->p2 * p->m * p->bscans;
  const gint bpp = p->bits / 8;
  gdouble *dd = g_new (gdouble, n);
  guint8 *img = g_new (guint8, (gsize) bpp * p->m * rows * p->bscans);
  gsize i;
  gint b;

  for (i = 0; i < n; i++)
    dd[i] = data[i];
  for (b = 0; b < p->bscans; b++)
    aooct_ref_norm (p, grid, dd + 2 * (gsize) grid->p2 * p->m * b, 0,
        img + (gsize) b * rows * bpp * p->m, (gsize) bpp * p->m, NULL, NULL);
  g_free (dd);
  return img;
}

/* Max difference, pixels that differ, and distinct levels in @got. */
static gint
compare (gconstpointer got, gconstpointer want, gsize n, gint bits,
    gsize * n_diff, gsize * n_levels)
{
  GHashTable *levels = g_hash_table_new (NULL, NULL);
  gint worst = 0;
  gsize i;

  *n_diff = 0;
  for (i = 0; i < n; i++) {
    gint a = bits == 8 ? ((const guint8 *) got)[i] :
        GUINT16_FROM_LE (((const guint16 *) got)[i]);
    gint b = bits == 8 ? ((const guint8 *) want)[i] :
        ((const guint16 *) want)[i];
    worst = MAX (worst, ABS (a - b));
    *n_diff += a != b;
    g_hash_table_add (levels, GINT_TO_POINTER (a + 1));
  }
  *n_levels = g_hash_table_size (levels);
  g_hash_table_destroy (levels);
  return worst;
}

typedef struct
{
  gboolean log;
  gdouble dr;
  gboolean auto_range;
  gdouble rmin, rmax;           /* manual: fractions of the data's range */
  gint bits;
} Config;

/* Range of the values (I or L) of @data's first B-scan, cropped. */
static void
data_range (const gfloat * data, const Geom * g, gboolean log, gint start,
    gint end, gdouble * vmin, gdouble * vmax)
{
  gint m, r;

  *vmin = INFINITY;
  *vmax = -INFINITY;
  for (m = 0; m < g->m; m++)
    for (r = start; r < end; r++) {
      const gfloat *c = data + 2 * ((gsize) m * g->f * g->p1 + r);
      gdouble i = (gdouble) c[0] * c[0] + (gdouble) c[1] * c[1];
      gdouble v = log ? 10 * log10 (MAX (i, 1e-30)) : i;
      *vmin = MIN (*vmin, v);
      *vmax = MAX (*vmax, v);
    }
}

static void
run_config (GRand * rand, const Geom * g, const Config * c)
{
  const gint rows = g->p1 / 2;
  gfloat *data = aooct_test_make_depth (rand, g, 1e4);
  AooctRefParams p;
  AooctRefGrid grid;
  GstHarness *h;
  gchar *launch;
  gpointer got, want;
  gdouble vmin, vmax, rmin = 0, rmax = 1;
  gsize n_diff, n_levels, n = (gsize) g->m * rows * g->bscans;
  gint worst;

  if (!c->auto_range) {
    data_range (data, g, c->log, 0, rows, &vmin, &vmax);
    if (c->log) {
      rmin = vmax - c->rmin;
      rmax = vmax - c->rmax;
    } else {
      rmin = vmax * c->rmin;
      rmax = vmax * c->rmax;
    }
  }
  launch = g_strdup_printf ("aooctnorm name=norm log=%d dynamic-range=%g "
      "auto-range=%d range-min=%.17g range-max=%.17g", c->log, c->dr,
      c->auto_range, rmin, rmax);
  h = aooct_test_harness_new (launch);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (g));
  if (c->bits == 16)
    gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY16_LE");
  got = push_and_get (h, g, data, c->bits, rows);
  ref_params (&p, g, c->log, c->dr, c->auto_range, rmin, rmax, c->bits, 0,
      0, &grid);
  want = reference_image (&p, &grid, data, rows);
  worst = compare (got, want, n, c->bits, &n_diff, &n_levels);
  g_print ("%s, %d bit, %s range%s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
      " pixels differ from the float64 reference (max %d), %" G_GSIZE_FORMAT
      " grey levels used\n", c->log ? "log" : "linear", c->bits,
      c->auto_range ? "auto" : "manual", c->log && c->auto_range ?
      (c->dr == 0 ? ", dynamic-range 0" : ", dynamic-range 60") : "", n_diff,
      n, worst, n_levels);
  fail_unless (worst <= 1, "a pixel differs by %d grey levels", worst);
  /* the data really span the grey scale: the comparison means something */
  fail_unless (n_levels > (c->log ? 150 : 20), "only %" G_GSIZE_FORMAT
      " levels", n_levels);
  gst_harness_teardown (h);
  g_free (launch);
  g_free (got);
  g_free (want);
  g_free (data);
}

GST_START_TEST (test_against_reference)
{
  GRand *rand = aooct_test_rand_new ();
  const Geom g = { 301, 1, 700, 1024, 2 };
  const Config configs[] = {
    {TRUE, 60, TRUE, 0, 0, 8},
    {TRUE, 60, TRUE, 0, 0, 16},
    {TRUE, 0, TRUE, 0, 0, 8},
    {TRUE, 0, TRUE, 0, 0, 16},
    {TRUE, 60, FALSE, 45, 3, 8},        /* dB below the maximum */
    {TRUE, 60, FALSE, 45, 3, 16},
    {FALSE, 60, TRUE, 0, 0, 8},
    {FALSE, 60, TRUE, 0, 0, 16},
    {FALSE, 60, FALSE, 0.001, 0.05, 8}, /* fractions of the maximum */
    {FALSE, 60, FALSE, 0.001, 0.05, 16},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (configs); i++)
    run_config (rand, &g, &configs[i]);
  g_rand_free (rand);
}

GST_END_TEST;

/* Every B-scan of a buffer gets its own range: levels 1, 1e3 and 1e6
 * apart give the same kind of image, each matching the reference. */
GST_START_TEST (test_multi_bscan)
{
  GRand *rand = aooct_test_rand_new ();
  const Geom g = { 64, 3, 200, 256, 2 };
  const gint rows = 128, per = 2 * g.f * g.p1 * g.m;
  gfloat *data = g_new (gfloat, per * 3);
  AooctRefParams p;
  AooctRefGrid grid;
  GstHarness *h = aooct_test_harness_new ("aooctnorm name=norm");
  Geom one = g;
  guint8 *got, *want;
  gsize n_diff, n_levels;
  gint b, i;

  one.bscans = 1;
  for (b = 0; b < 3; b++) {
    gfloat *d = aooct_test_make_depth (rand, &one, pow (10, 3 * b));
    memcpy (data + per * b, d, per * sizeof (gfloat));
    g_free (d);
  }
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, TRUE, 60, TRUE, 0, 100, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, (gsize) g.m * rows * 3, 8, &n_diff,
          &n_levels) <= 1);
  g_print ("3 B-scans: %" G_GSIZE_FORMAT " pixels differ by 1\n", n_diff);
  for (b = 0; b < 3; b++) {
    gint top = 0;
    for (i = 0; i < g.m * rows; i++)
      top = MAX (top, got[b * g.m * rows + i]);
    fail_unless_equals_int (top, 255);
  }
  /* one range across the buffer would leave B-scan 0 black (60 dB below
   * B-scan 2): its mean level must be of the same order as the others'
   * (the speckle makes them differ by a few levels) */
  {
    gdouble mean[3] = { 0, 0, 0 };
    for (b = 0; b < 3; b++) {
      for (i = 0; i < g.m * rows; i++)
        mean[b] += got[b * g.m * rows + i];
      mean[b] /= g.m * rows;
    }
    fail_unless (mean[0] > 0.7 * mean[2] && mean[2] > 0.7 * mean[0],
        "%g vs %g", mean[0], mean[2]);
  }
  gst_harness_teardown (h);
  g_free (got);
  g_free (want);
  g_free (data);
  g_rand_free (rand);
}

GST_END_TEST;

/* Hand-made input with depth bin 2 of 8 A-lines set: exact .5 rounding,
 * clamping, in 8 and 16 bit, and the log mode on exact decades. */
static gfloat *
hand_input (const gfloat (*pairs)[2], gint m_alines)
{
  gfloat *d = g_new0 (gfloat, 2 * 8 * m_alines);
  gint m;

  for (m = 0; m < m_alines; m++) {
    d[m * 16 + 4] = pairs[m][0];
    d[m * 16 + 5] = pairs[m][1];
    /* other bins large: they are cropped away and must not count */
    d[m * 16 + 0] = 1e6;
    d[m * 16 + 12] = 1e6;
  }
  return d;
}

static gpointer
run_hand (const gchar * props, gint bits, const gfloat * data)
{
  const Geom g = { 8, 1, 8, 8, 1 };
  gchar *launch = g_strdup_printf ("aooctnorm name=norm crop-start=2 "
      "crop-end=3 %s", props);
  GstHarness *h = aooct_test_harness_new (launch);
  gpointer got;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  if (bits == 16)
    gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY16_LE");
  got = push_and_get (h, &g, data, bits, 1);
  gst_harness_teardown (h);
  g_free (launch);
  return got;
}

GST_START_TEST (test_hand_values)
{
  /* I = 2, 4, 5, 10, 13, 512, 0, 800 */
  const gfloat lin[8][2] = { {1, 1}, {2, 0}, {2, 1}, {3, 1}, {3, 2},
  {16, 16}, {0, 0}, {20, 20}
  };
  /* manual range [2, 2 + 2 Q]: t = (I - 2) / 2 exactly */
  const guint8 want8[] = { 0, 1, 2, 4, 6, 255, 0, 255 };
  const guint16 want16[] = { 0, 1, 2, 4, 6, 255, 0, 399 };
  /* I = 1e6, 1e3, 1, 10, 100, 0, 1e5, 1e-7: 60 dB range from 0 to 60 dB,
   * 4.25 levels per dB */
  const gfloat dec[8][2] = { {1000, 0}, {30, 10}, {1, 0}, {3, 1}, {10, 0},
  {0, 0}, {300, 100}, {0, 3.16227766e-4f}
  };
  const guint8 want_log[] = { 255, 128, 0, 43, 85, 0, 213, 0 };
  const gfloat flat[8][2] = { {3, 4}, {3, 4}, {4, 3}, {3, 4}, {0, 5},
  {5, 0}, {3, 4}, {4, 3}
  };
  gfloat *d = hand_input (lin, 8);
  guint8 *g8;
  guint16 *g16;
  gint m;

  g8 = run_hand ("log=false auto-range=false range-min=2 range-max=512", 8, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (g8[m], want8[m]);
  g_free (g8);
  g16 = run_hand ("log=false auto-range=false range-min=2 "
      "range-max=131072", 16, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (GUINT16_FROM_LE (g16[m]), want16[m]);
  g_free (g16);
  /* linear auto: lo = 0, hi = 800 */
  g8 = run_hand ("log=false", 8, d);
  fail_unless_equals_int (g8[3], 3);
  fail_unless_equals_int (g8[5], 163);
  fail_unless_equals_int (g8[6], 0);
  fail_unless_equals_int (g8[7], 255);
  g_free (g8);
  g_free (d);

  d = hand_input (dec, 8);
  g8 = run_hand ("", 8, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (g8[m], want_log[m]);
  g_free (g8);
  g_free (d);

  /* hi == lo gives 0: linear auto, and log with dynamic-range 0 */
  d = hand_input (flat, 8);
  g8 = run_hand ("log=false", 8, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (g8[m], 0);
  g_free (g8);
  g8 = run_hand ("dynamic-range=0", 8, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (g8[m], 0);
  g_free (g8);
  /* ... but log mode with a dynamic range (the default) shows a flat
   * B-scan white: hi = L, lo = hi - 60 dB, v = 1 for every pixel.  So is
   * an all-zero one (L = -300 dB): a static mirror after bscan-mean, or
   * aooctcs with a huge tau (docs/howto.md, "An image without
   * structure") */
  g8 = run_hand ("", 8, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (g8[m], 255);
  g_free (g8);
  g_free (d);
  d = g_new0 (gfloat, 2 * 8 * 8);
  g8 = run_hand ("", 8, d);
  for (m = 0; m < 8; m++)
    fail_unless_equals_int (g8[m], 255);
  g_free (g8);
  g_free (d);
}

GST_END_TEST;

/* Row r is depth bin crop-start + r, column m is A-line m; B-scans are
 * stacked.  I = k exactly maps to level k with the manual range 0..255. */
GST_START_TEST (test_orientation)
{
  const Geom g = { 37, 2, 60, 64, 1 };
  const gint start = 3, end = 20, rows = end - start;
  gfloat *d = g_new0 (gfloat, 2 * 64 * 37 * 2);
  GstHarness *h = aooct_test_harness_new ("aooctnorm name=norm crop-start=3 "
      "crop-end=20 log=false auto-range=false range-min=0 range-max=255");
  guint8 *got;
  gint b, m, r;

  for (b = 0; b < 2; b++)
    for (m = 0; m < g.m; m++)
      for (r = 0; r < 64; r++)
        d[2 * (64 * (b * g.m + m) + r) + 1] =
            sqrtf ((gfloat) ((3 * m + 7 * r + 101 * b) % 256));
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  got = push_and_get (h, &g, d, 8, rows);
  for (b = 0; b < 2; b++)
    for (r = 0; r < rows; r++)
      for (m = 0; m < g.m; m++)
        fail_unless_equals_int (got[(b * rows + r) * g.m + m],
            (3 * m + 7 * (start + r) + 101 * b) % 256);
  gst_harness_teardown (h);
  g_free (got);
  g_free (d);
}

GST_END_TEST;

static gint
negotiated_height (const gchar * launch, const Geom * g)
{
  GstHarness *h = aooct_test_harness_new (launch);
  gsize size = 2 * sizeof (gfloat) * g->f * g->p1 * g->m * g->bscans;
  gfloat *d = g_new0 (gfloat, size / sizeof (gfloat));
  GstBuffer *out;
  GstCaps *caps;
  GstVideoInfo vinfo;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (g));
  out = gst_harness_push_and_pull (h, aooct_test_buffer_new (d, size));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_free (d);
  return GST_VIDEO_INFO_HEIGHT (&vinfo);
}

/* crop-end 0 is P1 / 2 (from pad-size in the caps), not P2 / 2 or N / 2 */
GST_START_TEST (test_crop_default)
{
  const Geom a = { 16, 1, 300, 512, 4 }, b = { 16, 2, 1000, 1024, 1 };

  fail_unless_equals_int (negotiated_height ("aooctnorm", &a), 256);
  fail_unless_equals_int (negotiated_height ("aooctnorm", &b), 2 * 512);
  fail_unless_equals_int (negotiated_height ("aooctnorm crop-start=100", &a),
      156);
  fail_unless_equals_int (negotiated_height ("aooctnorm crop-end=2048", &a),
      2048);
  fail_unless_equals_int (negotiated_height ("aooctnorm crop-start=2047 "
          "crop-end=2048", &a), 1);
}

GST_END_TEST;

/* Display settings changed while PLAYING apply from the next buffer. */
GST_START_TEST (test_change_while_playing)
{
  GRand *rand = aooct_test_rand_new ();
  const Geom g = { 50, 1, 200, 256, 2 };
  const gint rows = 128;
  gfloat *data = aooct_test_make_depth (rand, &g, 1e3);
  GstHarness *h = aooct_test_harness_new ("aooctnorm name=norm");
  GstElement *norm = aooct_test_element (h, "aooctnorm");
  AooctRefParams p;
  AooctRefGrid grid;
  gpointer got, got2, want;
  gsize n_diff, n_levels, n = (gsize) g.m * rows;
  gdouble vmin, vmax;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, TRUE, 60, TRUE, 0, 100, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  g_free (got);
  g_free (want);

  data_range (data, &g, TRUE, 0, rows, &vmin, &vmax);
  g_object_set (norm, "auto-range", FALSE, "range-min", vmax - 30,
      "range-max", vmax - 10, NULL);
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, TRUE, 60, FALSE, vmax - 30, vmax - 10, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  g_free (got);
  g_free (want);

  g_object_set (norm, "auto-range", TRUE, "dynamic-range", 25.0, NULL);
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, TRUE, 25, TRUE, 0, 100, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  g_free (got);
  g_free (want);

  g_object_set (norm, "log", FALSE, NULL);
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, FALSE, 25, TRUE, 0, 100, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  g_free (got);
  g_free (want);

  /* an impossible manual range set while playing: the stream goes on
   * with the last consistent settings (it may be half of a change of the
   * pair, issue 19 item 7), and a warning names the properties when it
   * is still there at the next buffer */
  g_object_set (norm, "auto-range", FALSE, "range-min", 7.0, "range-max",
      7.0, NULL);
  got = push_and_get (h, &g, data, 8, rows);
  fail_unless (aooct_test_pop_warning (h) == NULL);
  got2 = push_and_get (h, &g, data, 8, rows);
  aooct_test_assert_warning (h, "range-max=7", "range-min=7", NULL);
  fail_unless (aooct_test_pop_error (h) == NULL);
  ref_params (&p, &g, FALSE, 25, TRUE, 0, 100, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  fail_unless (memcmp (got, got2, n) == 0);
  g_free (got);
  g_free (got2);
  g_free (want);

  /* range-min and range-max moved together from (0, 10) to (20, 30): the
   * streaming thread may see (20, 10) in between; shown here as the two
   * halves, each followed by a buffer: no error, and the complete pair
   * applies */
  g_object_set (norm, "range-min", 0.0, "range-max", 10.0, NULL);
  g_free (push_and_get (h, &g, data, 8, rows));
  g_object_set (norm, "range-min", 20.0, NULL);
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, FALSE, 25, FALSE, 0, 10, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  g_free (got);
  g_free (want);
  g_object_set (norm, "range-max", 30.0, NULL);
  got = push_and_get (h, &g, data, 8, rows);
  ref_params (&p, &g, FALSE, 25, FALSE, 20, 30, 8, 0, 0, &grid);
  want = reference_image (&p, &grid, data, rows);
  fail_unless (compare (got, want, n, 8, &n_diff, &n_levels) <= 1);
  g_free (got);
  g_free (want);
  fail_unless (aooct_test_pop_error (h) == NULL);
  fail_unless (aooct_test_pop_warning (h) == NULL);

  gst_harness_teardown (h);
  g_free (data);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_errors)
{
  const Geom g = { 4, 1, 6, 8, 1 };
  GstCaps *ok = aooct_test_depth_caps (&g);
  AooctGeometry bad;
  GstElement *norm;
  gdouble v;

  aooct_test_depth_geometry (&g, &bad);
  bad.domain = AOOCT_DOMAIN_SPECTRAL;
  bad.sample_type = AOOCT_SAMPLE_REAL;
  aooct_test_expect_error ("aooctnorm", aooct_geometry_to_caps (&bad),
      "needs depth-domain complex input", "domain=spectral", NULL);
  bad.domain = AOOCT_DOMAIN_DEPTH;
  aooct_test_expect_error ("aooctnorm", aooct_geometry_to_caps (&bad),
      "aooctfft", "sample-type=real", NULL);
  bad.domain = AOOCT_DOMAIN_SPECTRAL;
  bad.sample_type = AOOCT_SAMPLE_COMPLEX;
  aooct_test_expect_error ("aooctnorm", aooct_geometry_to_caps (&bad),
      "depth-domain", "domain=spectral", NULL);
  /* crop-end 0 = pad-size / 2 = 4 here */
  aooct_test_expect_error ("aooctnorm crop-start=4", gst_caps_ref (ok),
      "crop-start=4", "crop-end=0", NULL);
  aooct_test_expect_error ("aooctnorm crop-start=5 crop-end=5",
      gst_caps_ref (ok), "crop-start=5", "crop-end=5", NULL);
  aooct_test_expect_error ("aooctnorm crop-start=6 crop-end=2",
      gst_caps_ref (ok), "crop-start=6", "crop-end=2", NULL);
  aooct_test_expect_error ("aooctnorm crop-end=9", gst_caps_ref (ok),
      "crop-end=9", "samples=8", NULL);
  aooct_test_expect_error ("aooctnorm auto-range=false range-min=3 range-max=3",
      gst_caps_ref (ok), "range-max=3", "range-min=3", NULL);
  aooct_test_expect_error
      ("aooctnorm auto-range=false range-min=3 range-max=-1", gst_caps_ref (ok),
      "range-max=-1", "auto-range=false", NULL);
  /* a reversed manual range does not matter while auto-range is on */
  {
    GstHarness *h = aooct_test_harness_new ("aooctnorm range-min=3 "
        "range-max=-1");
    gfloat d[2 * 8 * 4] = { 1, 2, 3 };
    GstBuffer *out;
    gst_harness_set_src_caps (h, gst_caps_ref (ok));
    out = gst_harness_push_and_pull (h, aooct_test_buffer_new (d, sizeof (d)));
    fail_unless (out != NULL);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }

  /* non-finite and negative values are refused when set (GObject warns,
   * or with newer GLib complains critically, and keeps the old value) */
  norm = gst_element_factory_make ("aooctnorm", NULL);
  AOOCT_ASSERT_REFUSED (g_object_set (norm, "dynamic-range", NAN, NULL));
  AOOCT_ASSERT_REFUSED (g_object_set (norm, "dynamic-range", INFINITY, NULL));
  AOOCT_ASSERT_REFUSED (g_object_set (norm, "dynamic-range", -1.0, NULL));
  g_object_get (norm, "dynamic-range", &v, NULL);
  fail_unless_equals_float (v, 60.0);
  AOOCT_ASSERT_REFUSED (g_object_set (norm, "range-min", NAN, NULL));
  AOOCT_ASSERT_REFUSED (g_object_set (norm, "range-max", -INFINITY, NULL));
  g_object_get (norm, "range-min", &v, NULL);
  fail_unless_equals_float (v, 0.0);
  g_object_get (norm, "range-max", &v, NULL);
  fail_unless_equals_float (v, 100.0);
  gst_object_unref (norm);
  gst_caps_unref (ok);
}

GST_END_TEST;

static Suite *
norm_suite (void)
{
  Suite *s = suite_create ("aooctnorm");
  TCase *tc = aooct_test_backend_tcase (s, "cpu");
  TCase *cuda = aooct_test_backend_tcase (s, "cuda");

  tcase_add_test (tc, test_against_reference);
  tcase_add_test (tc, test_multi_bscan);
  tcase_add_test (tc, test_hand_values);
  tcase_add_test (tc, test_orientation);
  tcase_add_test (tc, test_crop_default);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_errors);
  /* CUDA against the CPU: test-norm-cuda.c */
  if (cuda) {
    /* compute-sanitizer (norm-cuda-memcheck) makes every CUDA call much
     * slower */
    tcase_set_timeout (cuda, 540);
    aooct_test_add_cuda_tests (cuda);
  }
  return s;
}

GST_CHECK_MAIN (norm);
