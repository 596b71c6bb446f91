/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: spec section 12 (aooctdoppler, aooctangio) against the
 * float64 reference (tests/reference/aooct-ref64-flow.h), on each backend:
 * tcases "cpu" (meson test flow) and "cuda" (meson test flow-cuda, exit 77
 * where no CUDA device is usable).
 *
 *   Doppler: defaults, lag / windows / mask off, bulk correction with an
 *   added bulk phase, GRAY8, GRAY16 and RGBA, full range with a carrier,
 *   several B-scans per buffer; the velocity message; settings changed
 *   while playing (both elements);
 *   angiography: decorrelation and speckle variance (fixed and automatic
 *   scale), mask on and off, GRAY8 and GRAY16, full range (synthetic, and
 *   after aooctfullrange in the real chain), groups that
 *   straddle buffers, the partial group at EOS (no image, a warning), a
 *   flush in the middle of a group, new caps in the middle of a group;
 *   on CUDA also the images in CUDA memory (RGBA, NV12), and the CPU's
 *   and CUDA's images byte for byte;
 *   the errors: lag >= A-lines (at negotiation and set while playing), an
 *   even depth-window, repeats < 2, input that is not depth-domain
 *   complex.
 *
 * The synthetic B-scans: static speckle (the same field in every A-line
 * and every repeat), two vessels whose field turns by a set phase per
 * A-line and is new in every repeat, a dark band below the mask, noise,
 * and optionally a bulk phase (or full-range carrier) per A-line. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"
#include "aooct-cuda-test-util.h"
#include "aooct-ref64-flow.h"
#include "aooct-test-pipeline.h"

typedef struct
{
  gint m, p2, bscans;           /* A-lines, complex samples, B-scans per buffer */
  gint n_buf;
  gboolean full_range;
  gdouble bulk;                 /* bulk phase per A-line, rad */
  gfloat *d;                    /* n_buf * bscans B-scans */
  double *dd;                   /* the same in double */
} Flow;

static gdouble
gauss (GRand * rand)
{
  gdouble u = g_rand_double_range (rand, 1e-300, 1), v = g_rand_double (rand);
  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

static gsize
bscan_floats (const Flow * f)
{
  return 2 * (gsize) f->m * f->p2;
}

static void
flow_init (Flow * f, gint m, gint p2, gint bscans, gint n_buf,
    gboolean full_range, gdouble bulk)
{
  GRand *rand = aooct_test_rand_new ();
  const gint total = bscans * n_buf;
  gdouble *sr = g_new (gdouble, p2), *si = g_new (gdouble, p2);
  gint b, a, d;
  gsize i;

  f->m = m;
  f->p2 = p2;
  f->bscans = bscans;
  f->n_buf = n_buf;
  f->full_range = full_range;
  f->bulk = bulk;
  f->d = g_new (gfloat, bscan_floats (f) * total);
  /* the static field, one per depth bin */
  for (d = 0; d < p2; d++) {
    sr[d] = gauss (rand);
    si[d] = gauss (rand);
  }
  for (b = 0; b < total; b++) {
    /* the vessels' fields: new in every B-scan (repeat) */
    gdouble vr[2][64], vi[2][64];

    for (d = 0; d < 64; d++) {
      vr[0][d] = gauss (rand);
      vi[0][d] = gauss (rand);
      vr[1][d] = gauss (rand);
      vi[1][d] = gauss (rand);
    }
    for (a = 0; a < m; a++) {
      gfloat *x = f->d + bscan_floats (f) * b + 2 * (gsize) a * p2;

      for (d = 0; d < p2; d++) {
        /* the image rows of the default crops are bins 0 .. P2/4 - 1
         * (real) or the signed -P2/4 .. P2/4 - 1 (full range) */
        gint row = d < p2 / 2 ? d : d - p2;
        gdouble env = row >= 2 && row < 28 ? 30 : row <= -3
            && row > -20 ? 20 : 0.5;
        gdouble re = env * sr[d], im = env * si[d], ph, c, s;

        if (row >= 20 && row < 23)
          re = im = 0.01;       /* a dark band: masked */
        if (row >= 8 && row < 14 && a >= m / 4 && a < 3 * m / 4) {
          /* vessel 1 turns +1 rad per A-line */
          ph = 1.0 * a;
          re = 25 * (vr[0][d % 64] * cos (ph) - vi[0][d % 64] * sin (ph));
          im = 25 * (vr[0][d % 64] * sin (ph) + vi[0][d % 64] * cos (ph));
        } else if ((row >= 15 && row < 18) || (row <= -8 && row > -12)) {
          /* vessel 2 turns -2.5 rad per A-line */
          ph = -2.5 * a;
          re = 25 * (vr[1][d % 64] * cos (ph) - vi[1][d % 64] * sin (ph));
          im = 25 * (vr[1][d % 64] * sin (ph) + vi[1][d % 64] * cos (ph));
        }
        re += 0.3 * gauss (rand);
        im += 0.3 * gauss (rand);
        /* the bulk phase (or carrier) of A-line a */
        c = cos (bulk * a);
        s = sin (bulk * a);
        x[2 * d] = (gfloat) (re * c - im * s);
        x[2 * d + 1] = (gfloat) (re * s + im * c);
      }
    }
  }
  f->dd = g_new (double, bscan_floats (f) * total);
  for (i = 0; i < bscan_floats (f) * total; i++)
    f->dd[i] = f->d[i];
  g_free (sr);
  g_free (si);
  g_rand_free (rand);
}

static void
flow_clear (Flow * f)
{
  g_free (f->d);
  g_free (f->dd);
}

static GstCaps *
flow_caps (const Flow * f)
{
  AooctTestDepthGeom g = { f->m, f->bscans, f->p2 / 2, f->p2 / 2, 2 };
  AooctGeometry geom;

  aooct_test_depth_geometry (&g, &geom);
  geom.full_range = f->full_range;
  return aooct_geometry_to_caps (&geom);
}

static GstBuffer *
flow_buffer (const Flow * f, gint index)
{
  const gsize n = bscan_floats (f) * f->bscans;
  GstBuffer *buf = aooct_test_buffer_new (f->d + n * index,
      n * sizeof (gfloat));

  GST_BUFFER_PTS (buf) = index * 100 * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = 100 * GST_MSECOND;
  return buf;
}

static const double *
flow_bscan (const Flow * f, gint b)
{
  return f->dd + bscan_floats (f) * b;
}

/* the default crop: P1 / 2 = P2 / 4 rows from 0, or the signed one */
static void
ref_image (AooctRefFlowImage * p, const Flow * f, gint bits)
{
  p->p2 = f->p2;
  p->m = f->m;
  p->crop_start = f->full_range ? -f->p2 / 4 : 0;
  p->crop_end = f->p2 / 4;
  p->bits = bits;
}

static GstHarness *
harness_on (const gchar * backend, const gchar * element,
    const gchar * props, const gchar * caps)
{
  gchar *launch = g_strdup_printf ("%s backend=%s %s%s%s", element,
      backend, props, caps ? " ! capsfilter caps=" : "", caps ? caps : "");
  GstHarness *h = aooct_test_harness_new (launch);

  g_free (launch);
  return h;
}

static GstHarness *
harness (const gchar * element, const gchar * props, const gchar * caps)
{
  return harness_on (aooct_test_backend, element, props, caps);
}

/* Every pixel of @got within @tol of @want (bytes of RGBA each; GRAY16
 * words), the undecidable ones aside; returns how many were set aside. */
static gint
compare (const gchar * what, const guint8 * got, const guint8 * want,
    const guint8 * undecidable, gint pixels, gint bpp, gint tol)
{
  gint i, c, skipped = 0;

  for (i = 0; i < pixels; i++) {
    if (undecidable[i]) {
      skipped++;
      continue;
    }
    if (bpp == 2) {
      gint a = GUINT16_FROM_LE (((const guint16 *) got)[i]);
      gint b = GUINT16_FROM_LE (((const guint16 *) want)[i]);
      if (ABS (a - b) > tol)
        fail ("%s: pixel %d is %d, the reference %d", what, i, a, b);
    } else {
      for (c = 0; c < bpp; c++)
        if (ABS (got[i * bpp + c] - want[i * bpp + c]) > tol)
          fail ("%s: pixel %d byte %d is %d, the reference %d", what, i, c,
              got[i * bpp + c], want[i * bpp + c]);
    }
  }
  /* the exclusions are rare: a test where most pixels are excluded
   * would prove nothing */
  fail_unless (skipped * 20 < pixels, "%s: %d of %d pixels undecidable",
      what, skipped, pixels);
  return skipped;
}

/* ---- aooctdoppler ---- */

typedef struct
{
  gint lag, wm, wz;
  gdouble threshold;
  gboolean bulk;
} DopplerProps;

static void
check_doppler (const gchar * props, const DopplerProps * dp,
    const gchar * caps, gint bits, gint m, gint bscans, gboolean full_range,
    gdouble bulk)
{
  Flow f;
  GstHarness *h;
  AooctRefFlowImage p;
  const gint bpp = bits / 8, tol = bits == 16 ? 257 : 1;
  gint i, b, rows;
  guint8 *want, *und;

  flow_init (&f, m, 128, bscans, 2, full_range, bulk);
  ref_image (&p, &f, bits);
  rows = p.crop_end - p.crop_start;
  want = g_malloc ((gsize) rows * m * bpp);
  und = g_malloc ((gsize) rows * m);
  h = harness ("aooctdoppler", props, caps);
  gst_harness_set_src_caps (h, flow_caps (&f));
  for (i = 0; i < f.n_buf; i++) {
    GstBuffer *out;
    gint width, height, got_bpp;
    guint8 *img;

    fail_unless_equals_int (gst_harness_push (h, flow_buffer (&f, i)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    img = aooct_test_image_of (h, out, &width, &height, &got_bpp);
    fail_unless_equals_int (width, m);
    fail_unless_equals_int (height, rows * bscans);
    fail_unless_equals_int (got_bpp, bpp);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * 100 * GST_MSECOND);
    for (b = 0; b < bscans; b++) {
      gchar *what = g_strdup_printf ("aooctdoppler %s (%s, %s) buffer %d "
          "B-scan %d", props, caps ? caps : "GRAY8",
          full_range ? "full range" : "real", i, b);

      aooct_ref_flow_doppler (&p, dp->lag, dp->wm, dp->wz, dp->threshold,
          dp->bulk, flow_bscan (&f, i * bscans + b), want, (gsize) m * bpp,
          und);
      compare (what, img + (gsize) b * rows * m * bpp, want, und, rows * m,
          bpp, tol);
      g_free (what);
    }
    g_free (img);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (want);
  g_free (und);
  flow_clear (&f);
}

GST_START_TEST (test_doppler_defaults)
{
  const DopplerProps d = { 1, 4, 3, 20, FALSE };

  check_doppler ("", &d, NULL, 8, 40, 1, FALSE, 0);
  check_doppler ("", &d, "video/x-raw,format=GRAY16_LE", 16, 40, 1, FALSE, 0);
  check_doppler ("", &d, "video/x-raw,format=RGBA", 32, 40, 1, FALSE, 0);
}

GST_END_TEST;

GST_START_TEST (test_doppler_settings)
{
  const DopplerProps off = { 2, 3, 5, 0, FALSE };
  const DopplerProps one = { 1, 1, 1, 10, FALSE };

  /* lag, windows, the mask off */
  check_doppler ("lag=2 aline-window=3 depth-window=5 threshold=0", &off,
      NULL, 8, 40, 1, FALSE, 0);
  /* one pixel windows, two B-scans a buffer: the last column has no pair */
  check_doppler ("aline-window=1 depth-window=1 threshold=10", &one,
      "video/x-raw,format=GRAY16_LE", 16, 33, 2, FALSE, 0);
}

GST_END_TEST;

GST_START_TEST (test_doppler_bulk)
{
  const DopplerProps plain = { 1, 4, 3, 20, FALSE };
  const DopplerProps bulk = { 1, 4, 3, 20, TRUE };

  /* a bulk phase of 0.7 rad per A-line, without and with the correction */
  check_doppler ("", &plain, NULL, 8, 40, 1, FALSE, 0.7);
  check_doppler ("bulk-correction=true", &bulk, NULL, 8, 40, 1, FALSE, 0.7);
  check_doppler ("bulk-correction=true", &bulk, "video/x-raw,format=RGBA",
      32, 40, 1, FALSE, -0.4);
}

GST_END_TEST;

/* full range: the signed crop, and the carrier removed by the bulk
 * correction */
GST_START_TEST (test_doppler_full_range)
{
  const DopplerProps plain = { 1, 4, 3, 20, FALSE };
  const DopplerProps bulk = { 1, 4, 3, 15, TRUE };

  check_doppler ("", &plain, NULL, 8, 40, 1, TRUE, 0.0);
  check_doppler ("bulk-correction=true threshold=15", &bulk, NULL, 8, 40, 1,
      TRUE, G_PI / 2);
}

GST_END_TEST;

/* The velocity scale: once after caps, again when a property changes. */
GST_START_TEST (test_doppler_velocity)
{
  Flow f;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  const GstStructure *st;
  gdouble v;

  flow_init (&f, 40, 128, 1, 2, FALSE, 0);
  h = harness ("aooctdoppler", "line-rate=100000 center-wavelength=840 "
      "refractive-index=1.4", NULL);
  gst_harness_set_src_caps (h, flow_caps (&f));
  gst_buffer_unref (gst_harness_push_and_pull (h, flow_buffer (&f, 0)));
  bus = gst_element_get_bus (h->element);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no aooct-doppler message");
  st = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (st, "aooct-doppler"));
  fail_unless (gst_structure_get_double (st, "velocity-max", &v));
  /* lambda0 / (4 n L T) = 840e-9 m * 1e5 / s / (4 * 1.4) in mm/s */
  fail_unless (fabs (v - 840e-9 * 1e5 / 5.6 * 1e3) < 1e-9, "%g", v);
  gst_message_unref (msg);
  /* lag 2 while playing: half */
  g_object_set (aooct_test_element (h, "aooctdoppler"), "lag", 2, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, flow_buffer (&f, 1)));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no aooct-doppler message after lag=2");
  fail_unless (gst_structure_get_double (gst_message_get_structure (msg),
          "velocity-max", &v));
  fail_unless (fabs (v - 840e-9 * 1e5 / 11.2 * 1e3) < 1e-9, "%g", v);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  flow_clear (&f);
}

GST_END_TEST;

/* Settings changed while playing apply from the next buffer (Doppler) or
 * image (angiography) on. */
GST_START_TEST (test_live_changes)
{
  Flow f;
  GstHarness *h;
  GstBuffer *out;
  AooctRefFlowImage p;
  guint8 *want, *und, *img;
  gint width, height, bpp;

  flow_init (&f, 40, 128, 4, 2, FALSE, 0.3);
  ref_image (&p, &f, 8);
  want = g_malloc (40 * 32);
  und = g_malloc (40 * 32);
  h = harness ("aooctdoppler", "", NULL);
  gst_harness_set_src_caps (h, flow_caps (&f));
  gst_buffer_unref (gst_harness_push_and_pull (h, flow_buffer (&f, 0)));
  g_object_set (aooct_test_element (h, "aooctdoppler"), "bulk-correction",
      TRUE, "aline-window", 2, "depth-window", 1, "threshold", 5.0, "lag", 2,
      NULL);
  out = gst_harness_push_and_pull (h, flow_buffer (&f, 1));
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  aooct_ref_flow_doppler (&p, 2, 2, 1, 5, TRUE, flow_bscan (&f, 4), want, 40,
      und);
  compare ("aooctdoppler after live changes", img, want, und, 40 * 32, 1, 1);
  g_free (img);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  h = harness ("aooctangio", "", NULL);
  gst_harness_set_src_caps (h, flow_caps (&f));
  gst_buffer_unref (gst_harness_push_and_pull (h, flow_buffer (&f, 0)));
  g_object_set (aooct_test_element (h, "aooctangio"), "method", 1,
      "variance-max", 20.0, "threshold", 0.0, NULL);
  out = gst_harness_push_and_pull (h, flow_buffer (&f, 1));
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  aooct_ref_flow_angio (&p, 4, TRUE, 3, 3, 0, 0.25, 20, flow_bscan (&f, 4),
      want, 40, und);
  compare ("aooctangio after live changes", img, want, und, 40 * 32, 1, 1);
  g_free (img);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (want);
  g_free (und);
  flow_clear (&f);
}

GST_END_TEST;

/* ---- aooctangio ---- */

typedef struct
{
  gint repeats;
  gboolean sv;
  gint wm, wz;
  gdouble threshold, dmax, vmax;
} AngioProps;

/* @n_buf buffers of @bscans B-scans, then EOS: full groups come out as
 * images, a partial one is dropped with a warning */
static void
check_angio (const gchar * props, const AngioProps * ap, const gchar * caps,
    gint bits, gint m, gint bscans, gint n_buf, gboolean full_range)
{
  Flow f;
  GstHarness *h;
  AooctRefFlowImage p;
  const gint bpp = bits / 8, tol = bits == 16 ? 257 : 1;
  const gint total = bscans * n_buf, groups = total / ap->repeats;
  gint i, k, rows;
  guint8 *want, *und;
  GstBuffer *out;

  flow_init (&f, m, 128, bscans, n_buf, full_range, 0);
  ref_image (&p, &f, bits);
  rows = p.crop_end - p.crop_start;
  want = g_malloc ((gsize) rows * m * bpp);
  und = g_malloc ((gsize) rows * m);
  h = harness ("aooctangio", props, caps);
  gst_harness_set_src_caps (h, flow_caps (&f));
  for (i = 0; i < n_buf; i++)
    fail_unless_equals_int (gst_harness_push (h, flow_buffer (&f, i)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (k = 0; k < groups; k++) {
    gint width, height, got_bpp, b0 = k * ap->repeats;
    gchar *what = g_strdup_printf ("aooctangio %s (%s, %s) group %d", props,
        caps ? caps : "GRAY8", full_range ? "full range" : "real", k);
    guint8 *img;

    out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "%s: missing", what);
    img = aooct_test_image_of (h, out, &width, &height, &got_bpp);
    fail_unless_equals_int (width, m);
    fail_unless_equals_int (height, rows);
    fail_unless_equals_int (got_bpp, bpp);
    /* the timestamp of the group's first B-scan */
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        (b0 / bscans) * 100 * GST_MSECOND + (b0 % bscans) *
        (100 * GST_MSECOND / bscans));
    aooct_ref_flow_angio (&p, ap->repeats, ap->sv, ap->wm, ap->wz,
        ap->threshold, ap->dmax, ap->vmax, flow_bscan (&f, b0), want,
        (gsize) m * bpp, und);
    /* the spec sets a whole speckle-variance image aside when its maximum
     * (variance-max=0) lies at a pixel the mask cannot decide: rare, and
     * then this group proves nothing */
    if (ap->sv && ap->vmax == 0 && und[0] && memchr (und, 0,
            (gsize) rows * m) == NULL)
      g_print ("%s: the maximum lies at an undecidable pixel\n", what);
    else
      compare (what, img, want, und, rows * m, bpp, tol);
    g_free (what);
    g_free (img);
    gst_buffer_unref (out);
  }
  /* nothing more: the partial group makes no image, a warning says so */
  fail_unless (gst_harness_try_pull (h) == NULL);
  if (total % ap->repeats) {
    gchar *n = g_strdup_printf ("%d B-scan", total % ap->repeats);

    aooct_test_assert_warning (h, n, "dropped", NULL);
    g_free (n);
  } else {
    gchar *w = aooct_test_pop_warning (h);

    fail_unless (w == NULL, "unexpected warning %s", w);
  }
  gst_harness_teardown (h);
  g_free (want);
  g_free (und);
  flow_clear (&f);
}

GST_START_TEST (test_angio_decorrelation)
{
  const AngioProps d = { 4, FALSE, 3, 3, 20, 0.25, 30 };
  const AngioProps d3 = { 3, FALSE, 5, 1, 0, 0.5, 30 };

  /* 2 groups of 4 from buffers of 2, and a partial group of 3 */
  check_angio ("", &d, NULL, 8, 40, 1, 11, FALSE);
  check_angio ("", &d, "video/x-raw,format=GRAY16_LE", 16, 40, 2, 4, FALSE);
  /* groups straddle buffers of 2 B-scans; no mask */
  check_angio ("repeats=3 aline-window=5 depth-window=1 threshold=0 "
      "decorrelation-max=0.5", &d3, NULL, 8, 37, 2, 3, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_angio_speckle_variance)
{
  const AngioProps fixed = { 4, TRUE, 3, 3, 20, 0.25, 30 };
  const AngioProps automatic = { 5, TRUE, 3, 3, 0, 0.25, 0 };
  const AngioProps masked = { 2, TRUE, 3, 3, 12, 0.25, 0 };

  check_angio ("method=speckle-variance", &fixed, NULL, 8, 40, 4, 2, FALSE);
  check_angio ("method=speckle-variance repeats=5 threshold=0 "
      "variance-max=0", &automatic, "video/x-raw,format=GRAY16_LE", 16, 40,
      1, 5, FALSE);
  check_angio ("method=speckle-variance repeats=2 threshold=12 "
      "variance-max=0", &masked, NULL, 8, 40, 1, 4, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_angio_full_range)
{
  const AngioProps d = { 4, FALSE, 3, 3, 20, 0.25, 30 };
  const AngioProps sv = { 3, TRUE, 3, 3, 20, 0.25, 30 };

  check_angio ("", &d, NULL, 8, 40, 2, 2, TRUE);
  check_angio ("method=speckle-variance repeats=3", &sv, NULL, 8, 40, 3, 1,
      TRUE);
}

GST_END_TEST;

/* a flush in the middle of a group drops it; after it (a seek into the
 * middle of a group, B-scan 2 of repeats=4), the groups start where they
 * start in the stream, placed by the timestamps: B-scans 2 and 3 are
 * skipped with a warning, the next image is the group of B-scans 4 .. 7,
 * never one that mixes two positions (issue 41) */
GST_START_TEST (test_angio_flush)
{
  const AngioProps d = { 4, FALSE, 3, 3, 20, 0.25, 30 };
  Flow f;
  GstHarness *h;
  GstSegment seg;
  GstBuffer *out;
  AooctRefFlowImage p;
  guint8 *want, *und, *img;
  gint i, width, height, bpp;

  flow_init (&f, 24, 128, 2, 5, FALSE, 0);
  ref_image (&p, &f, 8);
  want = g_malloc (24 * 32);
  und = g_malloc (24 * 32);
  h = harness ("aooctangio", "", NULL);
  gst_harness_set_src_caps (h, flow_caps (&f));
  fail_unless_equals_int (gst_harness_push (h, flow_buffer (&f, 0)),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  fail_unless (gst_harness_try_pull (h) == NULL);
  for (i = 1; i < 5; i++)
    fail_unless_equals_int (gst_harness_push (h, flow_buffer (&f, i)),
        GST_FLOW_OK);
  aooct_test_assert_warning (h, "seek into the middle", "repeats=4",
      "2 B-scan(s)", NULL);
  /* the group of B-scans 4 .. 7, stamped with B-scan 4's time */
  out = gst_harness_pull (h);
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  aooct_ref_flow_angio (&p, d.repeats, d.sv, d.wm, d.wz, d.threshold, d.dmax,
      d.vmax, flow_bscan (&f, 4), want, 24, und);
  compare ("aooctangio after a flush", img, want, und, 24 * 32, 1, 1);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 200 * GST_MSECOND);
  gst_buffer_unref (out);
  g_free (img);
  /* B-scans 8 and 9: a partial group, dropped at EOS */
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless (gst_harness_try_pull (h) == NULL);
  aooct_test_assert_warning (h, "2 B-scan", "dropped", NULL);
  gst_harness_teardown (h);
  g_free (want);
  g_free (und);
  flow_clear (&f);
}

GST_END_TEST;

/* New caps: aooctdoppler's images take the new size at once; aooctangio
 * drops the partial group of the old caps and counts from the new ones. */
GST_START_TEST (test_caps_renegotiation)
{
  const AngioProps d = { 4, FALSE, 3, 3, 20, 0.25, 30 };
  Flow a, b;
  GstHarness *h;
  GstBuffer *out;
  AooctRefFlowImage p;
  guint8 *want, *und, *img;
  gint i, width, height, bpp;

  flow_init (&a, 24, 128, 1, 2, FALSE, 0);
  flow_init (&b, 16, 64, 2, 2, FALSE, 0);
  want = g_malloc (24 * 32);
  und = g_malloc (24 * 32);

  h = harness ("aooctdoppler", "", NULL);
  gst_harness_set_src_caps (h, flow_caps (&a));
  out = gst_harness_push_and_pull (h, flow_buffer (&a, 0));
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  fail_unless (width == 24 && height == 32);
  g_free (img);
  gst_buffer_unref (out);
  gst_harness_set_src_caps (h, flow_caps (&b));
  out = gst_harness_push_and_pull (h, flow_buffer (&b, 1));
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  fail_unless (width == 16 && height == 2 * 16, "%d x %d", width, height);
  ref_image (&p, &b, 8);
  aooct_ref_flow_doppler (&p, 1, 4, 3, 20, FALSE, flow_bscan (&b, 2), want,
      16, und);
  compare ("aooctdoppler after new caps", img, want, und, 16 * 16, 1, 1);
  g_free (img);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  h = harness ("aooctangio", "", NULL);
  gst_harness_set_src_caps (h, flow_caps (&a));
  for (i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, flow_buffer (&a, i)),
        GST_FLOW_OK);
  gst_harness_set_src_caps (h, flow_caps (&b));
  fail_unless (gst_harness_try_pull (h) == NULL);
  for (i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, flow_buffer (&b, i)),
        GST_FLOW_OK);
  out = gst_harness_pull (h);
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  fail_unless (width == 16 && height == 16, "%d x %d", width, height);
  aooct_ref_flow_angio (&p, d.repeats, d.sv, d.wm, d.wz, d.threshold, d.dmax,
      d.vmax, flow_bscan (&b, 0), want, 16, und);
  compare ("aooctangio after new caps", img, want, und, 16 * 16, 1, 1);
  g_free (img);
  gst_buffer_unref (out);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless (gst_harness_try_pull (h) == NULL);
  gst_harness_teardown (h);
  g_free (want);
  g_free (und);
  flow_clear (&a);
  flow_clear (&b);
}

GST_END_TEST;

/* The real full-range chain (aooctsrc with a carrier ! aooctdcsub !
 * aooctfullrange ! ... ! aooctfft): aooctdoppler with bulk-correction
 * (which takes out the carrier) and aooctangio against the reference on
 * the very depth-domain buffers they got (a tee to an appsink). */
GST_START_TEST (test_full_range_chain)
{
  gchar *launch = g_strdup_printf ("aooctsrc samples=256 alines=48 "
      "num-buffers=4 seed=%u carrier=1.5707963267948966 depth-offset=-60 "
      "wavelength-coeffs=\"785,0.5,1e-05,-2e-09\" ! "
      "aooctdcsub ! aooctfullrange ! aooctpad ! aooctkmap "
      "wavelength-coeffs=\"785,0.5,1e-05,-2e-09\" ! aooctdisp ! aooctfft ! "
      "tee name=t ! queue ! appsink name=depth sync=false wait-on-eos=false "
      "t. ! queue ! aooctdoppler bulk-correction=true threshold=25 ! "
      "appsink name=dop sync=false wait-on-eos=false "
      "t. ! queue ! aooctangio repeats=2 ! video/x-raw,format=GRAY16_LE ! "
      "appsink name=ang sync=false wait-on-eos=false", g_random_int ());
  GstElement *p = aooct_test_run_to_eos (launch, aooct_test_backend, 120);
  GList *depth = aooct_test_pull_all (p, "depth");
  GList *dop = aooct_test_pull_all (p, "dop");
  GList *ang = aooct_test_pull_all (p, "ang");
  AooctGeometry g;
  AooctRefFlowImage ref;
  double *dd[4];
  gint i, rows;
  gsize n;
  guint8 *want, *und;

  fail_unless_equals_int (g_list_length (depth), 4);
  fail_unless_equals_int (g_list_length (dop), 4);
  fail_unless_equals_int (g_list_length (ang), 2);
  fail_unless (aooct_caps_to_geometry (gst_sample_get_caps (depth->data), &g,
          NULL));
  fail_unless (g.full_range);
  ref.p2 = g.samples;
  ref.m = g.alines;
  ref.crop_start = -(g.pad_size / 2);
  ref.crop_end = g.pad_size / 2;
  rows = ref.crop_end - ref.crop_start;
  n = 2 * (gsize) g.samples * g.alines;
  want = g_malloc ((gsize) rows * g.alines * 2);
  und = g_malloc ((gsize) rows * g.alines);
  for (i = 0; i < 4; i++) {
    GstBuffer *b = gst_sample_get_buffer (g_list_nth_data (depth, i));
    GstMapInfo map;
    gsize k;

    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size, n * sizeof (gfloat));
    dd[i] = g_new (double, n);
    for (k = 0; k < n; k++)
      dd[i][k] = ((const gfloat *) map.data)[k];
    gst_buffer_unmap (b, &map);
  }
  for (i = 0; i < 4; i++) {
    GstBuffer *b = gst_sample_get_buffer (g_list_nth_data (dop, i));
    GstMapInfo map;

    ref.bits = 8;
    aooct_ref_flow_doppler (&ref, 1, 4, 3, 25, TRUE, dd[i], want, g.alines,
        und);
    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size, (gsize) rows * g.alines);
    compare ("aooctdoppler on the full-range chain", map.data, want, und,
        rows * g.alines, 1, 1);
    gst_buffer_unmap (b, &map);
  }
  for (i = 0; i < 2; i++) {
    GstBuffer *b = gst_sample_get_buffer (g_list_nth_data (ang, i));
    GstMapInfo map;
    double *group = g_new (double, 2 * n);

    memcpy (group, dd[2 * i], n * sizeof (double));
    memcpy (group + n, dd[2 * i + 1], n * sizeof (double));
    ref.bits = 16;
    aooct_ref_flow_angio (&ref, 2, FALSE, 3, 3, 20, 0.25, 30, group, want,
        (gsize) g.alines * 2, und);
    fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
    fail_unless_equals_uint64 (map.size, (gsize) rows * g.alines * 2);
    compare ("aooctangio on the full-range chain", map.data, want, und,
        rows * g.alines, 2, 257);
    gst_buffer_unmap (b, &map);
    g_free (group);
  }
  for (i = 0; i < 4; i++)
    g_free (dd[i]);
  g_free (want);
  g_free (und);
  g_list_free_full (depth, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (dop, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (ang, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (launch);
}

GST_END_TEST;

/* Beside a branch of B-scans behind a tee (issue 35): aooctangio's GAP
 * events let its sink preroll while a group fills, so the pipeline does
 * not stall when a group is longer than the other branch's queue. */
GST_START_TEST (test_angio_tee_preroll)
{
  GstElement *p = aooct_test_run_to_eos ("aooctsrc samples=256 alines=32 "
      "num-buffers=24 wavelength-coeffs=\"785,0.5,1e-05,-2e-09\" ! "
      "aooctdcsub ! aooctkmap "
      "wavelength-coeffs=\"785,0.5,1e-05,-2e-09\" ! aooctfft ! tee name=t "
      "t. ! queue max-size-buffers=1 ! aooctnorm ! fakesink "
      "t. ! queue max-size-buffers=1 ! aooctangio repeats=8 ! "
      "appsink name=ang wait-on-eos=false", aooct_test_backend, 60);
  GList *ang = aooct_test_pull_all (p, "ang");

  fail_unless_equals_int (g_list_length (ang), 3);
  g_list_free_full (ang, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

GST_END_TEST;

/* ---- errors ---- */

static void
expect_error (const gchar * element, const gchar * props, GstCaps * caps,
    const gchar * substring, const gchar * substring2)
{
  gchar *launch = g_strdup_printf ("%s backend=%s %s", element,
      aooct_test_backend, props);

  aooct_test_expect_error (launch, caps, substring, substring2, NULL);
  g_free (launch);
}

GST_START_TEST (test_errors)
{
  Flow f;
  AooctGeometry spectral;
  GstHarness *h;
  GstElement *e;
  gint repeats;

  flow_init (&f, 24, 128, 1, 2, FALSE, 0);
  /* lag >= A-lines, even depth-window: naming the property and value */
  expect_error ("aooctdoppler", "lag=24", flow_caps (&f), "lag=24", "24");
  expect_error ("aooctdoppler", "depth-window=4", flow_caps (&f),
      "depth-window=4", "odd");
  expect_error ("aooctangio", "depth-window=2", flow_caps (&f),
      "depth-window=2", "odd");
  /* spectral input: says what is expected */
  aooct_test_geometry (&spectral, 64, 8, 1, 0, 0);
  expect_error ("aooctdoppler", "", aooct_geometry_to_caps (&spectral),
      "depth-domain complex", "aooctdoppler");
  expect_error ("aooctangio", "", aooct_geometry_to_caps (&spectral),
      "depth-domain complex", "aooctangio");
  /* repeats < 2: GObject refuses it, naming the property and value */
  e = gst_element_factory_make ("aooctangio", NULL);
  AOOCT_ASSERT_REFUSED (g_object_set (e, "repeats", 1, NULL));
  g_object_get (e, "repeats", &repeats, NULL);
  fail_unless_equals_int (repeats, 4);
  gst_object_unref (e);
  /* lag >= A-lines set while playing: an error at the next buffer */
  h = harness ("aooctdoppler", "", NULL);
  gst_harness_set_src_caps (h, flow_caps (&f));
  gst_buffer_unref (gst_harness_push_and_pull (h, flow_buffer (&f, 0)));
  g_object_set (aooct_test_element (h, "aooctdoppler"), "lag", 30, NULL);
  fail_if (gst_harness_push (h, flow_buffer (&f, 1)) == GST_FLOW_OK);
  aooct_test_assert_error (h, "lag=30", NULL);
  gst_harness_teardown (h);
  flow_clear (&f);
}

GST_END_TEST;

/* ---- CUDA memory ---- */

/* The images in CUDA memory are those in system memory: RGBA (Doppler's
 * map; aooctangio's grey level in R, G and B) and the luma of NV12. */
static void
check_cuda_memory (const gchar * element, const gchar * format,
    const gchar * host_format)
{
  Flow f;
  GstHarness *hc, *hh;
  GstBuffer *oc, *oh;
  gchar *caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=%s",
      format);
  gchar *hcaps = g_strdup_printf ("video/x-raw,format=%s", host_format);
  guint8 *a, *b;
  gint w, hgt, bpp, w2, h2, bpp2, i;
  const gboolean angio = g_str_equal (element, "aooctangio");

  flow_init (&f, 40, 128, 4, 1, FALSE, 0);
  hc = harness (element, "", caps);
  hh = harness (element, "", hcaps);
  gst_harness_set_src_caps (hc, flow_caps (&f));
  gst_harness_set_src_caps (hh, flow_caps (&f));
  oc = gst_harness_push_and_pull (hc, flow_buffer (&f, 0));
  oh = gst_harness_push_and_pull (hh, flow_buffer (&f, 0));
  a = aooct_test_image_of (hc, oc, &w, &hgt, &bpp);
  b = aooct_test_image_of (hh, oh, &w2, &h2, &bpp2);
  fail_unless (w == w2 && hgt == h2);
  for (i = 0; i < w * hgt; i++) {
    if (bpp == 4 && angio) {
      fail_unless (a[4 * i] == b[i] && a[4 * i + 1] == b[i]
          && a[4 * i + 2] == b[i] && a[4 * i + 3] == 255);
    } else if (bpp == 4) {
      fail_unless (memcmp (a + 4 * i, b + 4 * i, 4) == 0);
    } else {
      fail_unless_equals_int (a[i], b[i]);
    }
  }
  g_free (a);
  g_free (b);
  gst_buffer_unref (oc);
  gst_buffer_unref (oh);
  gst_harness_teardown (hc);
  gst_harness_teardown (hh);
  g_free (caps);
  g_free (hcaps);
  flow_clear (&f);
}

/* Both backends do the same float32 operations in the same order
 * (common/aooct-flow-pixel.h): the same bytes, B-scan after B-scan. */
static void
check_same_bytes (const gchar * element, const gchar * props,
    const gchar * caps, gdouble bulk, gboolean full_range)
{
  Flow f;
  GstHarness *hc, *hg;
  GstBuffer *oc, *og;
  GstMapInfo mc, mg;
  gint i;

  flow_init (&f, 45, 128, 4, 3, full_range, bulk);
  hc = harness_on ("cpu", element, props, caps);
  hg = harness_on ("cuda", element, props, caps);
  gst_harness_set_src_caps (hc, flow_caps (&f));
  gst_harness_set_src_caps (hg, flow_caps (&f));
  for (i = 0; i < f.n_buf; i++) {
    oc = gst_harness_push_and_pull (hc, flow_buffer (&f, i));
    og = gst_harness_push_and_pull (hg, flow_buffer (&f, i));
    fail_unless (gst_buffer_map (oc, &mc, GST_MAP_READ));
    fail_unless (gst_buffer_map (og, &mg, GST_MAP_READ));
    fail_unless_equals_uint64 (mc.size, mg.size);
    fail_unless (memcmp (mc.data, mg.data, mc.size) == 0,
        "%s %s: CPU and CUDA images differ (buffer %d)", element, props, i);
    gst_buffer_unmap (oc, &mc);
    gst_buffer_unmap (og, &mg);
    gst_buffer_unref (oc);
    gst_buffer_unref (og);
  }
  gst_harness_teardown (hc);
  gst_harness_teardown (hg);
  flow_clear (&f);
}

GST_START_TEST (test_backends_same_bytes)
{
  check_same_bytes ("aooctdoppler", "", NULL, 0, FALSE);
  check_same_bytes ("aooctdoppler", "bulk-correction=true lag=2 "
      "aline-window=5 depth-window=5", "video/x-raw,format=GRAY16_LE", 0.7,
      FALSE);
  check_same_bytes ("aooctdoppler", "bulk-correction=true threshold=0",
      "video/x-raw,format=RGBA", G_PI / 2, TRUE);
  check_same_bytes ("aooctangio", "", NULL, 0, FALSE);
  check_same_bytes ("aooctangio", "repeats=2 aline-window=4 depth-window=1",
      "video/x-raw,format=GRAY16_LE", 0, TRUE);
  check_same_bytes ("aooctangio", "method=speckle-variance", NULL, 0, FALSE);
  check_same_bytes ("aooctangio", "method=speckle-variance variance-max=0 "
      "threshold=10", "video/x-raw,format=GRAY16_LE", 0, FALSE);
}

GST_END_TEST;

GST_START_TEST (test_cuda_memory)
{
  check_cuda_memory ("aooctdoppler", "RGBA", "RGBA");
  check_cuda_memory ("aooctdoppler", "NV12", "GRAY8");
  check_cuda_memory ("aooctangio", "RGBA", "GRAY8");
  check_cuda_memory ("aooctangio", "NV12", "GRAY8");
}

GST_END_TEST;

static void
add_flow_tests (TCase * tc, gboolean cuda)
{
  tcase_add_test (tc, test_doppler_defaults);
  tcase_add_test (tc, test_doppler_settings);
  tcase_add_test (tc, test_doppler_bulk);
  tcase_add_test (tc, test_doppler_full_range);
  tcase_add_test (tc, test_doppler_velocity);
  tcase_add_test (tc, test_live_changes);
  tcase_add_test (tc, test_angio_decorrelation);
  tcase_add_test (tc, test_angio_speckle_variance);
  tcase_add_test (tc, test_angio_full_range);
  tcase_add_test (tc, test_angio_flush);
  tcase_add_test (tc, test_caps_renegotiation);
  tcase_add_test (tc, test_full_range_chain);
  tcase_add_test (tc, test_angio_tee_preroll);
  tcase_add_test (tc, test_errors);
  if (cuda) {
    tcase_add_test (tc, test_cuda_memory);
    tcase_add_test (tc, test_backends_same_bytes);
  }
}

static Suite *
flow_suite (void)
{
  return aooct_test_suite_per_backend ("flow", add_flow_tests);
}

GST_CHECK_MAIN (flow);
