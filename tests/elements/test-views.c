/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: spec section 11 (views) against the float64 reference
 * (tests/reference/aooct-ref64-views.h), on each backend: tcases "cpu"
 * (meson test views) and "cuda" (meson test views-cuda, exit 77 where no
 * CUDA device is usable).
 *
 *   flyback and rolling background (aooctdcsub), both with several B-scans
 *   per frame, and the rolling mean starting over after a flush;
 *   average-bscans, average-alines and the bilateral filter (aooctnorm),
 *   GRAY8 and GRAY16, log and linear;
 *   aooctenface mean and max on volumes of several sizes that straddle
 *   buffers, the partial last volume at EOS, a flush in the middle of a
 *   volume, timestamps, B-scans in = volumes out x V + partial;
 *   aooctrender's two checkable MIP views (of a whole volume and of the
 *   partial last one), azimuth +180 as the mirror
 *   image, composite deterministic and unlike MIP, live changes at the
 *   next volume; RGBA output (on CUDA also in CUDA memory). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"
#include "aooct-cuda-test-util.h"
#include "aooct-ref64-views.h"

typedef AooctTestDepthGeom Geom;

/* ---- helpers ---- */

static GstHarness *
harness (const gchar * format, ...)
G_GNUC_PRINTF (1, 2);

     static GstHarness *harness (const gchar * format, ...)
{
  va_list args;
  gchar *desc, *launch;
  GstHarness *h;

  va_start (args, format);
  desc = g_strdup_vprintf (format, args);
  va_end (args);
  /* the element first, its backend set; what follows (a capsfilter) stays */
  launch = g_strdup_printf ("%s", desc);
  {
    gchar *space = strchr (launch, ' ');
    gchar *with;

    if (space) {
      *space = '\0';
      with =
          g_strdup_printf ("%s backend=%s %s", launch, aooct_test_backend,
          space + 1);
    } else {
      with = g_strdup_printf ("%s backend=%s", launch, aooct_test_backend);
    }
    g_free (launch);
    launch = with;
  }
  h = aooct_test_harness_new (launch);
  g_free (desc);
  g_free (launch);
  return h;
}

static double *
to_double (const gfloat * f, gsize n)
{
  double *d = g_new (double, n);
  gsize i;

  for (i = 0; i < n; i++)
    d[i] = f[i];
  return d;
}

static gsize
depth_floats (const Geom * g, gint bscans)
{
  return 2 * (gsize) g->f * g->p1 * g->m * bscans;
}

/* Largest difference between @got and @want (GRAY8 or GRAY16 pixels). */
static gint
max_diff (const guint8 * got, const guint8 * want, gsize pixels, gint bpp)
{
  gint worst = 0;
  gsize i;

  for (i = 0; i < pixels; i++) {
    gint a = bpp == 2 ? ((const guint16 *) got)[i] : got[i];
    gint b = bpp == 2 ? ((const guint16 *) want)[i] : want[i];
    worst = MAX (worst, ABS (a - b));
  }
  return worst;
}

static GstBuffer *
depth_buffer (const gfloat * d, const Geom * g, gint index)
{
  GstBuffer *buf = aooct_test_buffer_new (d + depth_floats (g, g->bscans) *
      index, depth_floats (g, g->bscans) * sizeof (gfloat));

  GST_BUFFER_PTS (buf) = index * 100 * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = 100 * GST_MSECOND;
  return buf;
}

static void
ref_image_init (AooctRefImage * p, const Geom * g)
{
  memset (p, 0, sizeof (*p));
  p->p2 = g->f * g->p1;
  p->m = g->m;
  p->crop_start = 0;
  p->crop_end = g->p1 / 2;
  p->log = TRUE;
  p->dynamic_range = 60;
  p->auto_range = TRUE;
  p->bits = 8;
}

/* ---- aooctdcsub: flyback and rolling background ---- */

static void
check_dcsub (const gchar * props, gint n, gint m, gint per_frame, gint frames,
    gint skip_start, gint skip_end, AooctRefViewsDc mode, gint k,
    gint flush_after)
{
  GRand *rand = aooct_test_rand_new ();
  const gint mm = m - skip_start - skip_end;
  const gsize frame_samples = (gsize) n * m * per_frame;
  guint16 *raw = g_new (guint16, frame_samples * frames);
  double *ref = g_new (double, (gsize) n * mm * per_frame * frames);
  GstHarness *h;
  gsize i;
  gint f, ref_from = 0;

  /* a fringe on a background that drifts from B-scan to B-scan, plus noise */
  for (i = 0; i < frame_samples * frames; i++) {
    gsize b = i / ((gsize) n * m), s = i % n;
    raw[i] = (guint16) CLAMP (1500 + 800 * sin (0.01 * s) + 30.0 * b +
        200 * sin (0.7 * s + 0.3 * (i / n)) + g_rand_double_range (rand, -40,
            40), 0, 4095);
  }
  h = harness ("aooctdcsub %s alines-per-bscan=%d ! capsfilter "
      "caps=application/x-aooct", props, m);
  aooct_test_set_caps_printf (h, "video/x-raw, format=GRAY16_LE, width=%d, "
      "height=%d, framerate=10/1", n, m * per_frame);
  for (f = 0; f < frames; f++) {
    GstBuffer *out;
    GstMapInfo map;
    double worst = 0;

    if (f == flush_after) {
      GstSegment seg;

      fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
      gst_segment_init (&seg, GST_FORMAT_TIME);
      fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
      ref_from = f;
    }
    if (f == ref_from)
      /* the reference of what follows, from the first B-scan on */
      aooct_ref_views_dcsub (n, m, per_frame * (frames - f),
          raw + frame_samples * f, skip_start, skip_end, mode, k,
          ref + (gsize) n * mm * per_frame * f);
    fail_unless_equals_int (gst_harness_push (h,
            aooct_test_buffer_new (raw + frame_samples * f,
                frame_samples * 2)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size, (gsize) n * mm * per_frame * 4);
    for (i = 0; i < (gsize) n * mm * per_frame; i++)
      worst = MAX (worst, fabs (((const gfloat *) map.data)[i] -
              ref[(gsize) n * mm * per_frame * f + i]));
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    /* raw counts up to 4095: a float32 ulp there is 2.4e-4 */
    if (worst > 1e-3)
      fail ("frame %d: %g from the float64 reference (%s)", f, worst, props);
  }
  gst_harness_teardown (h);
  g_free (raw);
  g_free (ref);
  g_rand_free (rand);
}

GST_START_TEST (test_flyback)
{
  check_dcsub ("skip-alines-start=3 skip-alines-end=5", 96, 40, 2, 3, 3, 5,
      AOOCT_REF_VIEWS_DC_MEAN, 1, -1);
  check_dcsub ("skip-alines-start=0 skip-alines-end=7 mode=none", 64, 24, 1,
      2, 0, 7, AOOCT_REF_VIEWS_DC_NONE, 1, -1);
  /* nothing left is an error that names both properties */
  {
    gchar *launch = g_strdup_printf ("aooctdcsub backend=%s "
        "skip-alines-start=10 skip-alines-end=10", aooct_test_backend);

    aooct_test_expect_error (launch, gst_caps_from_string ("video/x-raw, "
            "format=GRAY16_LE, width=16, height=20, framerate=10/1"),
        "skip-alines-start=10", "skip-alines-end=10", "no A-line", NULL);
    g_free (launch);
  }
}

GST_END_TEST;

GST_START_TEST (test_rolling_mean)
{
  check_dcsub ("mode=rolling-mean rolling-bscans=3", 80, 32, 1, 6, 0, 0,
      AOOCT_REF_VIEWS_DC_ROLLING, 3, -1);
  /* several B-scans per frame, with flyback */
  check_dcsub ("mode=rolling-mean rolling-bscans=4 skip-alines-end=2", 64,
      20, 3, 4, 0, 2, AOOCT_REF_VIEWS_DC_ROLLING, 4, -1);
  /* a flush: K' counts from the first B-scan after it */
  check_dcsub ("mode=rolling-mean rolling-bscans=5", 48, 16, 1, 7, 0, 0,
      AOOCT_REF_VIEWS_DC_ROLLING, 5, 3);
}

GST_END_TEST;

/* ---- aooctnorm: averaging and bilateral filter ---- */

static void
check_norm (const gchar * props, gint kb, gint ka, double ss, double sr,
    gboolean log_mode, gint bits)
{
  GRand *rand = aooct_test_rand_new ();
  const Geom g = { 37, 2, 100, 128, 2 };
  const gint n_buf = 3, rows = g.p1 / 2, w = (g.m + ka - 1) / ka;
  gfloat *d = g_new (gfloat, depth_floats (&g, g.bscans * n_buf));
  guint8 *want = g_malloc ((gsize) w * rows * g.bscans * n_buf * bits / 8);
  double *dd;
  AooctRefImage p;
  GstHarness *h;
  gint i;

  for (i = 0; i < n_buf; i++) {
    gfloat *part = aooct_test_make_depth (rand, &g, 1.0 + i);
    memcpy (d + depth_floats (&g, g.bscans) * i, part,
        depth_floats (&g, g.bscans) * sizeof (gfloat));
    g_free (part);
  }
  dd = to_double (d, depth_floats (&g, g.bscans * n_buf));
  ref_image_init (&p, &g);
  p.log = log_mode;
  p.bits = bits;
  aooct_ref_views_norm (&p, kb, ka, ss, sr, dd, g.bscans * n_buf, want,
      (gsize) w * bits / 8);

  h = harness ("aooctnorm %s log=%s ! capsfilter "
      "caps=\"video/x-raw, format=%s\"", props,
      log_mode ? "true" : "false", bits == 16 ? "GRAY16_LE" : "GRAY8");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&g));
  for (i = 0; i < n_buf; i++) {
    GstBuffer *out;
    guint8 *img;
    gint width, height, bpp, worst;

    fail_unless_equals_int (gst_harness_push (h, depth_buffer (d, &g, i)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    img = aooct_test_image_of (h, out, &width, &height, &bpp);
    fail_unless_equals_int (width, w);
    fail_unless_equals_int (height, rows * g.bscans);
    worst = max_diff (img, want + (gsize) i * w * rows * g.bscans * bpp,
        (gsize) w * height, bpp);
    if (worst > (bits == 16 ? 257 : 1))
      fail ("%s: buffer %d is %d levels from the float64 reference", props,
          i, worst);
    g_free (img);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (d);
  g_free (dd);
  g_free (want);
  g_rand_free (rand);
}

GST_START_TEST (test_average_bscans)
{
  check_norm ("average-bscans=3", 3, 1, 0, 0.1, TRUE, 8);
  check_norm ("average-bscans=4", 4, 1, 0, 0.1, FALSE, 8);
  check_norm ("average-bscans=2", 2, 1, 0, 0.1, TRUE, 16);
}

GST_END_TEST;

GST_START_TEST (test_average_alines)
{
  check_norm ("average-alines=4", 1, 4, 0, 0.1, TRUE, 8);
  check_norm ("average-alines=5 average-bscans=2", 2, 5, 0, 0.1, FALSE, 8);
}

GST_END_TEST;

GST_START_TEST (test_bilateral)
{
  check_norm ("bilateral-sigma-space=1.0 bilateral-sigma-range=0.1", 1, 1,
      1.0, 0.1, TRUE, 8);
  check_norm ("bilateral-sigma-space=1.5 bilateral-sigma-range=0.2 "
      "average-alines=2 average-bscans=2", 2, 2, 1.5, 0.2, TRUE, 8);
  check_norm ("bilateral-sigma-space=0.7 bilateral-sigma-range=0.05", 1, 1,
      0.7, 0.05, FALSE, 16);
}

GST_END_TEST;

/* ---- the volume views ---- */

typedef struct
{
  Geom g;                       /* per buffer */
  gint n_buf;
  gfloat *d;                    /* all B-scans */
  double *dd;
} Views;

static void
views_init (Views * v, gint m, gint bscans_per_buffer, gint n_buf)
{
  GRand *rand = aooct_test_rand_new ();
  gint i;

  v->g.m = m;
  v->g.bscans = bscans_per_buffer;
  v->g.n = 100;
  v->g.p1 = 128;
  v->g.f = 2;
  v->n_buf = n_buf;
  v->d = g_new (gfloat, depth_floats (&v->g, bscans_per_buffer * n_buf));
  for (i = 0; i < n_buf; i++) {
    gfloat *part = aooct_test_make_depth (rand, &v->g, 1.0 + 0.5 * i);
    memcpy (v->d + depth_floats (&v->g, bscans_per_buffer) * i, part,
        depth_floats (&v->g, bscans_per_buffer) * sizeof (gfloat));
    g_free (part);
  }
  v->dd = to_double (v->d, depth_floats (&v->g, bscans_per_buffer * n_buf));
  g_rand_free (rand);
}

static void
views_clear (Views * v)
{
  g_free (v->d);
  g_free (v->dd);
}

/* B-scan @b's depth data (all buffers in a row) */
static const double *
views_bscan (Views * v, gint b)
{
  return v->dd + 2 * (gsize) b *v->g.m * v->g.f * v->g.p1;
}

/* Pushes every buffer, then EOS; returns the images (GstBuffer list). */
static GList *
views_run (Views * v, GstHarness * h)
{
  GList *out = NULL;
  GstBuffer *buf;
  gint i;

  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v->g));
  for (i = 0; i < v->n_buf; i++)
    fail_unless_equals_int (gst_harness_push (h, depth_buffer (v->d, &v->g,
                i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((buf = gst_harness_try_pull (h)))
    out = g_list_append (out, buf);
  return out;
}

static void
check_enface (gint m, gint per_buffer, gint n_buf, gint volume, gboolean max)
{
  Views v;
  GstHarness *h;
  GList *images, *l;
  AooctRefImage p;
  const gint total = per_buffer * n_buf;
  const gint full = total / volume, partial = total % volume;
  gint k = 0;
  guint8 *want = g_malloc ((gsize) m * volume);

  views_init (&v, m, per_buffer, n_buf);
  ref_image_init (&p, &v.g);
  h = harness ("aooctenface bscans-per-volume=%d projection=%s", volume,
      max ? "max" : "mean");
  images = views_run (&v, h);
  /* nothing lost: B-scans in = volumes out x V + the partial volume */
  fail_unless_equals_int (g_list_length (images), full + (partial ? 1 : 0));
  for (l = images; l; l = l->next, k++) {
    gint width, height, bpp, worst, filled = MIN (volume, total - k * volume);
    guint8 *img = aooct_test_image_of (h, l->data, &width, &height, &bpp);
    /* the volume's first B-scan: buffer i, B-scan b of it */
    const gint first_b = k * volume, i = first_b / per_buffer;
    GstClockTime t0 = i * 100 * GST_MSECOND + (first_b % per_buffer) *
        (100 * GST_MSECOND / per_buffer);

    fail_unless_equals_int (width, m);
    fail_unless_equals_int (height, volume);
    /* the timestamp of the volume's first B-scan */
    fail_unless_equals_uint64 (GST_BUFFER_PTS (l->data), t0);
    aooct_ref_views_enface (&p, max, views_bscan (&v, k * volume), filled,
        volume, want, m);
    worst = max_diff (img, want, (gsize) m * volume, 1);
    if (worst > 1)
      fail ("aooctenface %s V=%d: volume %d (%d B-scans) is %d levels from "
          "the reference", max ? "max" : "mean", volume, k, filled, worst);
    g_free (img);
  }
  g_list_free_full (images, (GDestroyNotify) gst_buffer_unref);
  gst_harness_teardown (h);
  g_free (want);
  views_clear (&v);
}

GST_START_TEST (test_enface)
{
  check_enface (37, 2, 4, 3, FALSE);    /* 2 full volumes, partial of 2 */
  check_enface (37, 2, 4, 3, TRUE);
  check_enface (20, 3, 3, 4, FALSE);    /* volumes straddle buffers */
  check_enface (29, 2, 3, 6, TRUE);     /* exactly one volume */
  check_enface (16, 1, 5, 7, TRUE);     /* only a partial volume */
}

GST_END_TEST;

GST_START_TEST (test_enface_flush)
{
  Views v;
  GstHarness *h;
  GstSegment seg;
  GstBuffer *out;
  AooctRefImage p;
  guint8 *want, *img;
  gint i, width, height, bpp;

  views_init (&v, 24, 2, 3);
  ref_image_init (&p, &v.g);
  want = g_malloc (24 * 4);
  h = harness ("aooctenface bscans-per-volume=4 projection=max");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  /* half a volume, then a flush: those B-scans are dropped */
  fail_unless_equals_int (gst_harness_push (h, depth_buffer (v.d, &v.g, 0)),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  fail_unless (gst_harness_try_pull (h) == NULL);
  for (i = 1; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (h, depth_buffer (v.d, &v.g,
                i)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  aooct_ref_views_enface (&p, TRUE, views_bscan (&v, 2), 4, 4, want, 24);
  fail_unless (max_diff (img, want, 24 * 4, 1) <= 1);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 100 * GST_MSECOND);
  gst_buffer_unref (out);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless (gst_harness_try_pull (h) == NULL);
  g_free (img);
  g_free (want);
  gst_harness_teardown (h);
  views_clear (&v);
}

GST_END_TEST;

/* New caps in the middle of a volume: the B-scans of the old caps come out
 * first as a partial volume of the old size, then counting starts over. */
GST_START_TEST (test_enface_caps_change)
{
  Views a, b;
  GstHarness *h;
  GstBuffer *out;
  AooctRefImage p;
  guint8 *want;
  GstMapInfo map;
  gint i;

  views_init (&a, 24, 2, 1);
  views_init (&b, 16, 2, 2);
  h = harness ("aooctenface bscans-per-volume=4 projection=max");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&a.g));
  fail_unless_equals_int (gst_harness_push (h, depth_buffer (a.d, &a.g, 0)),
      GST_FLOW_OK);
  fail_unless (gst_harness_try_pull (h) == NULL);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&b.g));
  /* the partial volume: 2 B-scans of 24 A-lines in a 24 x 4 image */
  out = gst_harness_pull (h);
  want = g_malloc (24 * 4);
  ref_image_init (&p, &a.g);
  aooct_ref_views_enface (&p, TRUE, views_bscan (&a, 0), 2, 4, want, 24);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, 24 * 4);
  for (i = 0; i < 24 * 4; i++)
    fail_unless (ABS (map.data[i] - want[i]) <= 1);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  g_free (want);
  /* then a whole volume of the new caps */
  for (i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, depth_buffer (b.d, &b.g,
                i)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless_equals_uint64 (gst_buffer_get_size (out), 16 * 4);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  views_clear (&a);
  views_clear (&b);
}

GST_END_TEST;

/* One image of aooctrender @props over @v, a volume of @volume B-scans
 * (all of them, or more: then the partial volume at EOS). */
static guint8 *
render_volume (Views * v, gint volume, const gchar * props, gint * width,
    gint * height)
{
  GstHarness *h = harness ("aooctrender bscans-per-volume=%d %s", volume,
      props);
  GList *images = views_run (v, h);
  gint bpp;
  guint8 *img;

  fail_unless_equals_int (g_list_length (images), 1);
  img = aooct_test_image_of (h, images->data, width, height, &bpp);
  g_list_free_full (images, (GDestroyNotify) gst_buffer_unref);
  gst_harness_teardown (h);
  return img;
}

/* One image of aooctrender @props over @v (one volume of all B-scans). */
static guint8 *
render (Views * v, const gchar * props, gint * width, gint * height)
{
  return render_volume (v, v->g.bscans * v->n_buf, props, width, height);
}

GST_START_TEST (test_render_mip_views)
{
  const gint sizes[][3] = { {37, 2, 3}, {20, 3, 3}, {16, 1, 5} };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    Views v;
    AooctRefImage p;
    const gint m = sizes[s][0], vol = sizes[s][1] * sizes[s][2];
    gint width, height, rows;
    guint8 *img, *want;

    views_init (&v, m, sizes[s][1], sizes[s][2]);
    ref_image_init (&p, &v.g);
    rows = p.crop_end - p.crop_start;

    /* along the depth axis: aooctenface projection=max */
    img = render (&v, "mode=mip azimuth=0 elevation=90", &width, &height);
    fail_unless_equals_int (width, m);
    fail_unless_equals_int (height, vol);
    want = g_malloc ((gsize) m * vol);
    aooct_ref_views_enface (&p, TRUE, views_bscan (&v, 0), vol, vol, want, m);
    fail_unless (max_diff (img, want, (gsize) m * vol, 1) <= 1,
        "elevation 90 is %d levels from the en-face maximum",
        max_diff (img, want, (gsize) m * vol, 1));
    g_free (img);
    g_free (want);

    /* along the B-scan axis: the maximum of the B-scans' images */
    img = render (&v, "mode=mip azimuth=0 elevation=0", &width, &height);
    fail_unless_equals_int (width, m);
    fail_unless_equals_int (height, rows);
    want = g_malloc ((gsize) m * rows);
    aooct_ref_views_mip_bscan_axis (&p, views_bscan (&v, 0), vol, want, m);
    fail_unless (max_diff (img, want, (gsize) m * rows, 1) <= 1,
        "elevation 0 is %d levels from the B-scans' maximum",
        max_diff (img, want, (gsize) m * rows, 1));
    g_free (img);
    g_free (want);
    views_clear (&v);
  }
}

GST_END_TEST;

/* Spec section 11: "A partial last volume is rendered from the B-scans
 * it has, at the full image size (in the depth view the missing rows are
 * black)": 4 B-scans at EOS in volumes of 7, normalised over what they
 * have, against the float64 reference of the two checkable views. */
GST_START_TEST (test_render_partial)
{
  const gint m = 29, filled = 4, vol = 7;
  Views v;
  AooctRefImage p;
  gint width, height, rows, worst;
  guint8 *img, *want;

  views_init (&v, m, 2, filled / 2);
  ref_image_init (&p, &v.g);
  rows = p.crop_end - p.crop_start;

  /* along the depth axis: M x V, the rows of missing B-scans black */
  img = render_volume (&v, vol, "mode=mip azimuth=0 elevation=90", &width,
      &height);
  fail_unless_equals_int (width, m);
  fail_unless_equals_int (height, vol);
  want = g_malloc ((gsize) m * vol);
  aooct_ref_views_enface (&p, TRUE, views_bscan (&v, 0), filled, vol, want, m);
  worst = max_diff (img, want, (gsize) m * vol, 1);
  fail_unless (worst <= 1, "partial volume, elevation 90: %d levels from the "
      "reference", worst);
  g_free (img);
  g_free (want);

  /* along the B-scan axis: the maximum of the B-scans it has */
  img = render_volume (&v, vol, "mode=mip azimuth=0 elevation=0", &width,
      &height);
  fail_unless_equals_int (width, m);
  fail_unless_equals_int (height, rows);
  want = g_malloc ((gsize) m * rows);
  aooct_ref_views_mip_bscan_axis (&p, views_bscan (&v, 0), filled, want, m);
  worst = max_diff (img, want, (gsize) m * rows, 1);
  fail_unless (worst <= 1, "partial volume, elevation 0: %d levels from the "
      "reference", worst);
  g_free (img);
  g_free (want);
  views_clear (&v);
}

GST_END_TEST;

GST_START_TEST (test_render_mirror_composite)
{
  Views v;
  gint w0, h0, w1, h1, r, c;
  guint8 *mip, *turned, *comp, *comp2;

  views_init (&v, 31, 2, 3);
  mip = render (&v, "mode=mip", &w0, &h0);
  turned = render (&v, "mode=mip azimuth=180", &w1, &h1);
  fail_unless_equals_int (w0, w1);
  fail_unless_equals_int (h0, h1);
  for (r = 0; r < h0; r++)
    for (c = 0; c < w0; c++)
      fail_unless_equals_int (turned[r * w0 + c], mip[r * w0 + w0 - 1 - c]);
  comp = render (&v, "mode=composite azimuth=30 elevation=20", &w1, &h1);
  comp2 = render (&v, "mode=composite azimuth=30 elevation=20", &w1, &h1);
  fail_unless (memcmp (comp, comp2, (gsize) w1 * h1) == 0,
      "composite is not deterministic");
  g_free (comp);
  comp = render (&v, "mode=composite", &w1, &h1);
  fail_unless (memcmp (comp, mip, (gsize) w1 * h1) != 0,
      "composite gives the MIP image");
  g_free (mip);
  g_free (turned);
  g_free (comp);
  g_free (comp2);
  views_clear (&v);
}

GST_END_TEST;

GST_START_TEST (test_render_live)
{
  Views v;
  GstHarness *h;
  GstBuffer *a, *b;
  guint8 *ia, *ib, *want;
  AooctRefImage p;
  gint w, hh, bpp, r, c, rows;

  views_init (&v, 23, 2, 4);
  ref_image_init (&p, &v.g);
  rows = p.crop_end;
  h = harness ("aooctrender bscans-per-volume=4 mode=mip");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  fail_unless_equals_int (gst_harness_push (h, depth_buffer (v.d, &v.g, 0)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, depth_buffer (v.d, &v.g, 1)),
      GST_FLOW_OK);
  a = gst_harness_pull (h);
  /* turned while playing: the next volume comes out mirrored */
  g_object_set (aooct_test_element (h, "aooctrender"), "azimuth", 180.0, NULL);
  fail_unless_equals_int (gst_harness_push (h, depth_buffer (v.d, &v.g, 2)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, depth_buffer (v.d, &v.g, 3)),
      GST_FLOW_OK);
  b = gst_harness_pull (h);
  ia = aooct_test_image_of (h, a, &w, &hh, &bpp);
  ib = aooct_test_image_of (h, b, &w, &hh, &bpp);
  want = g_malloc ((gsize) w * rows);
  aooct_ref_views_mip_bscan_axis (&p, views_bscan (&v, 0), 4, want, w);
  fail_unless (max_diff (ia, want, (gsize) w * rows, 1) <= 1);
  aooct_ref_views_mip_bscan_axis (&p, views_bscan (&v, 4), 4, want, w);
  for (r = 0; r < rows; r++)
    for (c = 0; c < w; c++)
      fail_unless (ABS (ib[r * w + c] - want[r * w + w - 1 - c]) <= 1);
  g_free (ia);
  g_free (ib);
  g_free (want);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
  views_clear (&v);
}

GST_END_TEST;

/* RGBA: the grey level in R, G and B, opaque; on CUDA also in CUDA memory
 * (what cudadownload hands to OpenGL). */
static void
check_rgba (const gchar * caps)
{
  Views v;
  GstHarness *h, *hg;
  GList *rgba, *grey;
  gint w, hh, bpp, wg, hg_, bppg, i;
  guint8 *a, *g;

  views_init (&v, 19, 2, 2);
  h = harness ("aooctenface bscans-per-volume=4 ! capsfilter caps=\"%s\"",
      caps);
  hg = harness ("aooctenface bscans-per-volume=4");
  rgba = views_run (&v, h);
  grey = views_run (&v, hg);
  fail_unless_equals_int (g_list_length (rgba), 1);
  a = aooct_test_image_of (h, rgba->data, &w, &hh, &bpp);
  g = aooct_test_image_of (hg, grey->data, &wg, &hg_, &bppg);
  fail_unless_equals_int (bpp, 4);
  for (i = 0; i < w * hh; i++) {
    fail_unless_equals_int (a[4 * i], g[i]);
    fail_unless_equals_int (a[4 * i + 1], g[i]);
    fail_unless_equals_int (a[4 * i + 2], g[i]);
    fail_unless_equals_int (a[4 * i + 3], 255);
  }
  g_free (a);
  g_free (g);
  g_list_free_full (rgba, (GDestroyNotify) gst_buffer_unref);
  g_list_free_full (grey, (GDestroyNotify) gst_buffer_unref);
  gst_harness_teardown (h);
  gst_harness_teardown (hg);
  views_clear (&v);
}

GST_START_TEST (test_rgba)
{
  check_rgba ("video/x-raw, format=RGBA");
  if (g_str_equal (aooct_test_backend, "cuda"))
    check_rgba ("video/x-raw(memory:CUDAMemory), format=RGBA");
}

GST_END_TEST;

GST_START_TEST (test_views_errors)
{
  AooctGeometry g;
  gchar *launch =
      g_strdup_printf ("aooctenface backend=%s", aooct_test_backend);

  /* spectral input: says which step is missing */
  aooct_test_geometry (&g, 64, 8, 1, 0, 0);
  aooct_test_expect_error (launch, aooct_geometry_to_caps (&g),
      "depth-domain complex", NULL);
  g_free (launch);
}

GST_END_TEST;

static void
add_views_tests (TCase * tc, gboolean cuda)
{
  tcase_add_test (tc, test_flyback);
  tcase_add_test (tc, test_rolling_mean);
  tcase_add_test (tc, test_average_bscans);
  tcase_add_test (tc, test_average_alines);
  tcase_add_test (tc, test_bilateral);
  tcase_add_test (tc, test_enface);
  tcase_add_test (tc, test_enface_flush);
  tcase_add_test (tc, test_enface_caps_change);
  tcase_add_test (tc, test_render_mip_views);
  tcase_add_test (tc, test_render_partial);
  tcase_add_test (tc, test_render_mirror_composite);
  tcase_add_test (tc, test_render_live);
  tcase_add_test (tc, test_rgba);
  tcase_add_test (tc, test_views_errors);
}

static Suite *
views_suite (void)
{
  return aooct_test_suite_per_backend ("views", add_views_tests);
}

GST_CHECK_MAIN (views);
