/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: spec section 13's layers (aooctenface layer=brightest) and
 * aooctorg against the float64 reference (tests/reference/
 * aooct-ref64-org.h), on each backend: tcases "cpu" (meson test org) and
 * "cuda" (meson test org-cuda, exit 77 where no CUDA device is usable).
 *
 *   layer en-face: mean and max, slabs around and beside the layer, a
 *   search window, volumes that straddle buffers, within 1 grey level on
 *   the A-lines whose layer is no near-tie;
 *   aooctorg: the kymograph (GRAY8 and GRAY16) within 1 grey level on the
 *   A-lines no uncertain decision touched, the trace (messages and
 *   trace-file) against the reference's, several B-scans per buffer,
 *   radians and nm; a flush and new caps start a new baseline; baseline
 *   changed while playing; EOS posts every trace; the errors the spec
 *   names; on CUDA the kymograph as NV12 in CUDA memory.
 *
 * The input: depth-domain B-scans of two thin layers (IS/OS, COST) and a
 * brighter RPE below the second layer's window, curved across the B-scan,
 * moving in depth from B-scan to B-scan by a fraction of a bin, with a
 * phase of the second layer against the first that grows with time, in
 * complex Gaussian noise. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"
#include "aooct-cuda-test-util.h"
#include "aooct-ref64-org.h"

typedef AooctTestDepthGeom Geom;

/* ---- the input ---- */

typedef struct
{
  Geom g;
  gint n_buf;
  gfloat *d;                    /* n_buf x bscans x M x P2 complex */
  double *dd;                   /* the same in double */
} Layers;

static gdouble
gauss (GRand * rand)
{
  gdouble u = g_rand_double_range (rand, 1e-300, 1), v = g_rand_double (rand);
  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

/* B-scan b, A-line m: layer l at depth z (bins) of amplitude a, phase
 * th, added as a Gaussian PSF of 1.2 bins (sigma) with the phase running
 * by pi per bin (as aooctfft's output of a centred data region) */
static void
add_layer (gfloat * x, gint p2, gdouble z, gdouble a, gdouble th)
{
  gint i;

  for (i = MAX (0, (gint) z - 6); i < MIN (p2, (gint) z + 7); i++) {
    gdouble d = i - z, e = a * exp (-d * d / (2 * 1.2 * 1.2));
    gdouble ph = th + G_PI * d;

    x[2 * i] += (gfloat) (e * cos (ph));
    x[2 * i + 1] += (gfloat) (e * sin (ph));
  }
}

static void
layers_init (Layers * v, gint m, gint per_buffer, gint n_buf)
{
  GRand *rand = aooct_test_rand_new ();
  const gint p1 = 128, p2 = 2 * p1, total = per_buffer * n_buf;
  gdouble *cone = g_new (gdouble, m), *th1 = g_new (gdouble, m);
  gdouble *th2 = g_new (gdouble, m);
  gsize i, n;
  gint b, a;

  v->g.m = m;
  v->g.bscans = per_buffer;
  v->g.n = 100;
  v->g.p1 = p1;
  v->g.f = 2;
  v->n_buf = n_buf;
  n = 2 * (gsize) p2 *m * total;
  v->d = g_new (gfloat, n);
  for (i = 0; i < n; i++)
    v->d[i] = (gfloat) (0.05 * gauss (rand));
  for (a = 0; a < m; a++) {
    cone[a] = 0.4 + 1.2 * g_rand_double (rand);
    th1[a] = g_rand_double_range (rand, -G_PI, G_PI);
    th2[a] = g_rand_double_range (rand, -G_PI, G_PI);
  }
  for (b = 0; b < total; b++) {
    /* bulk motion of a few bins, and a response that grows */
    const gdouble bulk = 2.5 * sin (0.7 * b), resp = 0.15 * b * b / total;

    for (a = 0; a < m; a++) {
      gfloat *x = v->d + 2 * ((gsize) b * m + a) * p2;
      const gdouble xx = 2.0 * a / (m - 1) - 1;
      const gdouble z1 = 24 + 5 * xx * xx + bulk;

      add_layer (x, p2, z1, 3 * cone[a], th1[a] + 0.9 * bulk);
      add_layer (x, p2, z1 + 18, 2 * cone[a], th2[a] + 0.9 * bulk + resp +
          0.1 * gauss (rand));
      add_layer (x, p2, z1 + 34, 6, g_rand_double (rand) * 6);
    }
  }
  v->dd = g_new (double, n);
  for (i = 0; i < n; i++)
    v->dd[i] = v->d[i];
  g_free (cone);
  g_free (th1);
  g_free (th2);
  g_rand_free (rand);
}

static void
layers_clear (Layers * v)
{
  g_free (v->d);
  g_free (v->dd);
}

static gsize
buffer_floats (const Layers * v)
{
  return 2 * (gsize) v->g.f * v->g.p1 * v->g.m * v->g.bscans;
}

static GstBuffer *
layers_buffer (const Layers * v, gint index)
{
  GstBuffer *buf = aooct_test_buffer_new (v->d + buffer_floats (v) * index,
      buffer_floats (v) * sizeof (gfloat));

  GST_BUFFER_PTS (buf) = index * 100 * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = 100 * GST_MSECOND;
  return buf;
}

static const double *
layers_bscan (const Layers * v, gint b)
{
  return v->dd + 2 * (gsize) b *v->g.m * v->g.f * v->g.p1;
}

static GstHarness *
harness (const gchar * element, const gchar * props)
{
  gchar *launch = g_strdup_printf ("%s backend=%s %s", element,
      aooct_test_backend, props);
  GstHarness *h = aooct_test_harness_new (launch);

  g_free (launch);
  return h;
}

static void
ref_layer_init (AooctRefLayer * l, const Layers * v, gint start, gint end)
{
  l->m = v->g.m;
  l->p2 = v->g.f * v->g.p1;
  l->full_range = FALSE;
  l->search_start = start;
  l->search_end = end;
  l->range = 8;
  l->smooth = 5;
}

/* ---- aooctenface layer=brightest ---- */

static void
check_layer_enface (gint m, gint per_buffer, gint n_buf, gint volume,
    gboolean max, gint slab_start, gint slab_end, gint s_start, gint s_end)
{
  Layers v;
  GstHarness *h;
  AooctRefImage img;
  AooctRefLayer l;
  GstBuffer *buf;
  gchar *props;
  const gint total = per_buffer * n_buf;
  guint8 *want = g_malloc ((gsize) m * volume);
  guint8 *unc = g_malloc ((gsize) m * volume);
  gint i, k = 0, images = 0;

  layers_init (&v, m, per_buffer, n_buf);
  memset (&img, 0, sizeof (img));
  img.p2 = v.g.f * v.g.p1;
  img.m = m;
  img.crop_start = 0;
  img.crop_end = v.g.p1 / 2;
  img.log = TRUE;
  img.dynamic_range = 60;
  img.auto_range = TRUE;
  img.bits = 8;
  ref_layer_init (&l, &v, s_start ? s_start : 0, s_end ? s_end : 64);
  props = g_strdup_printf ("bscans-per-volume=%d projection=%s "
      "layer=brightest slab-start=%d slab-end=%d layer-search-start=%d "
      "layer-search-end=%d", volume, max ? "max" : "mean", slab_start,
      slab_end, s_start, s_end);
  h = harness ("aooctenface", props);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  for (i = 0; i < n_buf; i++)
    fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, i)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((buf = gst_harness_try_pull (h))) {
    gint width, height, bpp, filled = MIN (volume, total - k * volume), c;
    guint8 *got = aooct_test_image_of (h, buf, &width, &height, &bpp);
    gint worst = 0, skipped = 0;

    fail_unless_equals_int (width, m);
    fail_unless_equals_int (height, volume);
    if (!aooct_ref_org_layer_enface (&img, &l, max, slab_start, slab_end,
            layers_bscan (&v, k * volume), filled, volume, want, m, unc)) {
      for (c = 0; c < m * volume; c++) {
        if (c < m * filled && unc[c]) {
          skipped++;
          continue;
        }
        worst = MAX (worst, ABS (got[c] - want[c]));
      }
      if (worst > 1)
        fail ("aooctenface layer=brightest (%s): volume %d is %d levels from "
            "the reference", props, k, worst);
      /* the input has a clear layer: near-ties are rare */
      fail_unless (skipped < m * filled / 10);
    }
    g_free (got);
    gst_buffer_unref (buf);
    k++;
    images++;
  }
  fail_unless_equals_int (images, (total + volume - 1) / volume);
  gst_harness_teardown (h);
  g_free (props);
  g_free (want);
  g_free (unc);
  layers_clear (&v);
}

GST_START_TEST (test_layer_enface)
{
  check_layer_enface (40, 2, 4, 3, FALSE, 0, 1, 0, 0);
  check_layer_enface (40, 2, 4, 3, TRUE, -1, 2, 0, 0);
  /* the search window on the first layer, a slab on the second */
  check_layer_enface (33, 3, 3, 4, FALSE, 17, 20, 14, 40);
  /* a slab that leaves the B-scan: those bins are left out */
  check_layer_enface (24, 1, 5, 5, TRUE, -40, -20, 10, 40);
}

GST_END_TEST;

/* The layer follows the bulk motion: flatter than the fixed crop of the
 * same thickness at the layer's mean depth (the physics on the phantom:
 * test-org-physics.c). */
GST_START_TEST (test_layer_enface_errors)
{
  Layers v;
  gchar *launch;

  layers_init (&v, 8, 1, 1);
  launch = g_strdup_printf ("aooctenface backend=%s layer=brightest "
      "crop-start=10 crop-end=60 layer-search-start=5", aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "layer-search-start=5", "[10, 60)", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctenface backend=%s layer=brightest "
      "layer-search-start=30 layer-search-end=30", aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "layer-search-end=30", "empty", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctenface backend=%s layer=brightest "
      "layer-search-end=90", aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "layer-search-end=90", NULL);
  g_free (launch);
  layers_clear (&v);
}

GST_END_TEST;

/* ---- aooctorg ---- */

typedef struct
{
  GList *traces;                /* GstStructure "aooct-org" */
} Messages;

static void
pop_traces (GstHarness * h, Messages * msgs)
{
  GstBus *bus = gst_element_get_bus (h->element);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);

    if (s && gst_structure_has_name (s, "aooct-org"))
      msgs->traces = g_list_append (msgs->traces, gst_structure_copy (s));
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
}

static void
ref_org_init (AooctRefOrg * p, const Layers * v, gint baseline, gint history,
    gint bits, gdouble scale, gdouble range)
{
  memset (p, 0, sizeof (*p));
  ref_layer_init (&p->l, v, 10, 40);
  p->crop_start = 0;
  p->crop_end = v->g.p1 / 2;
  p->second_min = 10;
  p->second_max = 30;
  p->depth_window = 3;
  p->threshold = 20;
  p->baseline = baseline;
  p->scale = scale;
  p->opl_range = range;
  p->history = history;
  p->bits = bits;
}

#define ORG_PROPS "layer-search-start=10 layer-search-end=40"

/* Pushes buffers @from .. @to - 1 of @v, pulls each kymograph and compares
 * it (and the traces) with the reference run from buffer @from on. */
static void
check_org_run (GstHarness * h, const Layers * v, const AooctRefOrg * p,
    gint from, gint to, gint new_baseline_at, gint64 first_bscan)
{
  const gint M = v->g.m, per = v->g.bscans, n = (to - from) * per;
  const gint bpp = p->bits / 8;
  AooctRefOrgTrace *trace = g_new (AooctRefOrgTrace, n);
  guint8 *kymo = g_malloc ((gsize) n * p->history * M * bpp);
  guint8 *unc = g_malloc ((gsize) n * M), *ever = g_malloc0 (M);
  Messages msgs = { NULL };
  GList *l;
  gint i, b, k = 0;

  aooct_ref_org_run (p, layers_bscan (v, from * per), n, new_baseline_at,
      trace, kymo, unc);
  for (i = from; i < to; i++) {
    GstBuffer *out;
    gint width, height, obpp;
    guint8 *img;

    fail_unless_equals_int (gst_harness_push (h, layers_buffer (v, i)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * 100 * GST_MSECOND);
    img = aooct_test_image_of (h, out, &width, &height, &obpp);
    fail_unless_equals_int (width, M);
    fail_unless_equals_int (height, per * p->history);
    fail_unless_equals_int (obpp, bpp);
    for (b = 0; b < per; b++) {
      const gint j = (i - from) * per + b;
      gint worst = 0, r, m;

      for (m = 0; m < M; m++)
        ever[m] |= unc[(gsize) j * M + m];
      for (r = 0; r < p->history; r++)
        for (m = 0; m < M; m++) {
          const gsize o = ((gsize) j * p->history + r) * M + m;
          const gsize g = ((gsize) b * p->history + r) * M + m;
          gint a = bpp == 2 ? ((guint16 *) img)[g] : img[g];
          gint c = bpp == 2 ? ((guint16 *) kymo)[o] : kymo[o];

          if (!ever[m])
            worst = MAX (worst, ABS (a - c));
        }
      if (worst > (bpp == 2 ? 257 : 1))
        fail ("aooctorg: B-scan %d's kymograph is %d levels from the "
            "reference", j, worst);
    }
    g_free (img);
    gst_buffer_unref (out);
  }
  /* every trace, in order (on CUDA at the latest at EOS) */
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pop_traces (h, &msgs);
  fail_unless_equals_int (g_list_length (msgs.traces), n);
  for (l = msgs.traces; l; l = l->next, k++) {
    const GstStructure *s = l->data;
    gint64 bscan;
    gint valid, m, any = 0;
    gdouble mean, sd;
    guint64 pts;

    fail_unless (gst_structure_get (s, "bscan", G_TYPE_INT64, &bscan,
            "valid", G_TYPE_INT, &valid, "mean", G_TYPE_DOUBLE, &mean, "std",
            G_TYPE_DOUBLE, &sd, "pts", G_TYPE_UINT64, &pts, NULL));
    fail_unless_equals_int64 (bscan, first_bscan + k);
    fail_unless_equals_uint64 (pts, (from + k / per) * 100 * GST_MSECOND);
    for (m = 0; m < M; m++)
      any |= unc[(gsize) k * M + m];
    if (any)
      continue;
    fail_unless_equals_int (valid, trace[k].valid);
    if (valid == 0) {
      fail_unless (isnan (mean) && isnan (sd));
      continue;
    }
    if (fabs (mean - trace[k].mean) > 1e-4 * MAX (1.0, fabs (p->scale))
        || fabs (sd - trace[k].std) > 1e-4 * MAX (1.0, fabs (p->scale)))
      fail ("aooctorg: B-scan %d's trace %g +- %g, reference %g +- %g", k,
          mean, sd, trace[k].mean, trace[k].std);
  }
  g_list_free_full (msgs.traces, (GDestroyNotify) gst_structure_free);
  g_free (trace);
  g_free (kymo);
  g_free (unc);
  g_free (ever);
}

static void
check_org (gint m, gint per, gint n_buf, gint baseline, gint history,
    const gchar * format, gdouble cw)
{
  Layers v;
  GstHarness *h;
  AooctRefOrg p;
  gchar *props;
  const gint bits = g_str_equal (format, "GRAY16_LE") ? 16 : 8;
  const gdouble scale = cw > 0 ? cw / (4 * G_PI) : 1.0;

  layers_init (&v, m, per, n_buf);
  ref_org_init (&p, &v, baseline, history, bits, scale, cw > 0 ? 300 : G_PI);
  props = g_strdup_printf (ORG_PROPS " baseline=%d history=%d "
      "center-wavelength=%g ! capsfilter caps=video/x-raw,format=%s",
      baseline, history, cw, format);
  h = harness ("aooctorg", props);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  check_org_run (h, &v, &p, 0, n_buf, -1, 0);
  gst_harness_teardown (h);
  g_free (props);
  layers_clear (&v);
}

GST_START_TEST (test_org)
{
  check_org (48, 1, 12, 3, 16, "GRAY8", 0);
  check_org (40, 3, 5, 4, 20, "GRAY8", 840);
  check_org (31, 2, 6, 1, 8, "GRAY16_LE", 840);
}

GST_END_TEST;

/* a flush or new caps start a new baseline, unwrapping and kymograph */
GST_START_TEST (test_org_flush_caps)
{
  Layers v, w;
  GstHarness *h;
  AooctRefOrg p;
  GstSegment seg;
  GstBuffer *out;
  gint i;

  layers_init (&v, 32, 2, 8);
  ref_org_init (&p, &v, 2, 12, 8, 1.0, G_PI);
  h = harness ("aooctorg", ORG_PROPS " baseline=2 history=12");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  for (i = 0; i < 3; i++) {
    fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, i)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  {
    Messages msgs = { NULL };
    /* the traces of before the flush (CUDA: they may come late) */
    pop_traces (h, &msgs);
    g_list_free_full (msgs.traces, (GDestroyNotify) gst_structure_free);
  }
  /* after the flush: as if buffer 3 were the first, counted from 0 */
  check_org_run (h, &v, &p, 3, 8, -1, 0);
  gst_harness_teardown (h);

  /* new caps: the same */
  layers_init (&w, 24, 1, 6);
  h = harness ("aooctorg", ORG_PROPS " baseline=2 history=12");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, i)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&w.g));
  {
    Messages msgs = { NULL };
    pop_traces (h, &msgs);
    g_list_free_full (msgs.traces, (GDestroyNotify) gst_structure_free);
  }
  ref_org_init (&p, &w, 2, 12, 8, 1.0, G_PI);
  check_org_run (h, &w, &p, 0, 6, -1, 0);
  gst_harness_teardown (h);
  layers_clear (&v);
  layers_clear (&w);
}

GST_END_TEST;

/* baseline set while playing: a new baseline at the next B-scan */
GST_START_TEST (test_org_baseline_live)
{
  Layers v;
  GstHarness *h;
  AooctRefOrg p;
  AooctRefOrgTrace *trace;
  guint8 *kymo, *unc, *img;
  gint i, width, height, bpp, worst = 0, c;
  GstBuffer *out = NULL;

  layers_init (&v, 30, 1, 10);
  ref_org_init (&p, &v, 3, 10, 8, 1.0, G_PI);
  trace = g_new (AooctRefOrgTrace, 10);
  kymo = g_malloc (10 * 10 * 30);
  unc = g_malloc (10 * 30);
  /* the reference: baseline 3 from B-scan 6 on (a new one there) */
  aooct_ref_org_run (&p, layers_bscan (&v, 0), 10, 6, trace, kymo, unc);
  h = harness ("aooctorg", ORG_PROPS " baseline=2 history=10");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  for (i = 0; i < 10; i++) {
    if (i == 6)
      g_object_set (aooct_test_element (h, "aooctorg"), "baseline", 3, NULL);
    fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, i)),
        GST_FLOW_OK);
    if (out)
      gst_buffer_unref (out);
    out = gst_harness_pull (h);
  }
  /* the last kymograph's rows from B-scan 6 on */
  img = aooct_test_image_of (h, out, &width, &height, &bpp);
  for (c = 6 * 30; c < 10 * 30; c++) {
    gint m = c % 30;
    gboolean touched = FALSE;
    gint b;

    for (b = 6; b < 10; b++)
      touched |= unc[b * 30 + m];
    if (!touched)
      worst = MAX (worst, ABS (img[c] - kymo[9 * 300 + c]));
  }
  fail_unless (worst <= 1, "%d levels from the reference", worst);
  g_free (img);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (trace);
  g_free (kymo);
  g_free (unc);
  layers_clear (&v);
}

GST_END_TEST;

/* trace-file: a line per B-scan, complete at EOS */
GST_START_TEST (test_org_trace_file)
{
  Layers v;
  GstHarness *h;
  gchar *path, *props, *text, **lines;
  gint i, n = 0;

  layers_init (&v, 24, 2, 4);
  path = g_build_filename (g_get_tmp_dir (), "aooct-org-trace-XXXXXX.txt",
      NULL);
  g_close (g_mkstemp (path), NULL);
  props = g_strdup_printf (ORG_PROPS " baseline=2 trace-file=%s", path);
  h = harness ("aooctorg", props);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  for (i = 0; i < 4; i++) {
    fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, i)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar **f;

    if (!*lines[i])
      continue;
    f = g_strsplit (lines[i], " ", -1);
    fail_unless_equals_int (g_strv_length (f), 5);
    fail_unless_equals_int (atoi (f[0]), n);
    /* buffer n / 2's timestamp */
    fail_unless (fabs (g_ascii_strtod (f[1], NULL) - 0.1 * (n / 2)) < 1e-9);
    g_strfreev (f);
    n++;
  }
  fail_unless_equals_int (n, 8);
  g_strfreev (lines);
  g_free (text);
  gst_harness_teardown (h);
  g_unlink (path);
  g_free (path);
  g_free (props);
  layers_clear (&v);
}

GST_END_TEST;

GST_START_TEST (test_org_errors)
{
  Layers v;
  AooctGeometry g;
  gchar *launch;
  GstHarness *h;

  layers_init (&v, 8, 1, 1);
  launch = g_strdup_printf ("aooctorg backend=%s second-layer-min=20 "
      "second-layer-max=10", aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "second-layer-min=20", "second-layer-max=10", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctorg backend=%s baseline=0",
      aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "baseline=0", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctorg backend=%s crop-start=20 crop-end=50 "
      "layer-search-start=10 layer-search-end=40", aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "layer-search-start=10", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctorg backend=%s depth-window=2",
      aooct_test_backend);
  aooct_test_expect_error (launch, aooct_test_depth_caps (&v.g),
      "depth-window=2", NULL);
  g_free (launch);
  /* spectral input: says what it needs */
  launch = g_strdup_printf ("aooctorg backend=%s", aooct_test_backend);
  aooct_test_geometry (&g, 64, 8, 1, 0, 0);
  aooct_test_expect_error (launch, aooct_geometry_to_caps (&g),
      "depth-domain complex", NULL);
  g_free (launch);
  /* baseline 0 while playing: an error naming it at the next buffer */
  h = harness ("aooctorg", ORG_PROPS);
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, 0)),
      GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  g_object_set (aooct_test_element (h, "aooctorg"), "baseline", 0, NULL);
  fail_if (gst_harness_push (h, layers_buffer (&v, 0)) == GST_FLOW_OK);
  aooct_test_assert_error (h, "baseline=0", NULL);
  gst_harness_teardown (h);
  layers_clear (&v);
}

GST_END_TEST;

/* On CUDA the kymograph may stay on the GPU: the luma of NV12 in CUDA
 * memory is the GRAY8 image */
GST_START_TEST (test_org_cuda_memory)
{
  Layers v;
  GstHarness *h, *hg;
  gint i, w, hh, bpp, wg, hgh, bppg, k;

  if (!g_str_equal (aooct_test_backend, "cuda"))
    return;
  layers_init (&v, 26, 2, 3);
  h = harness ("aooctorg", ORG_PROPS " baseline=2 history=9 ! capsfilter "
      "caps=\"video/x-raw(memory:CUDAMemory), format=NV12\"");
  hg = harness ("aooctorg", ORG_PROPS " baseline=2 history=9");
  gst_harness_set_src_caps (h, aooct_test_depth_caps (&v.g));
  gst_harness_set_src_caps (hg, aooct_test_depth_caps (&v.g));
  for (i = 0; i < 3; i++) {
    GstBuffer *a, *g;
    guint8 *ia, *ig;

    fail_unless_equals_int (gst_harness_push (h, layers_buffer (&v, i)),
        GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hg, layers_buffer (&v, i)),
        GST_FLOW_OK);
    a = gst_harness_pull (h);
    g = gst_harness_pull (hg);
    ia = aooct_test_image_of (h, a, &w, &hh, &bpp);
    ig = aooct_test_image_of (hg, g, &wg, &hgh, &bppg);
    fail_unless_equals_int (w, wg);
    fail_unless_equals_int (hh, hgh);
    for (k = 0; k < w * hh; k++)
      fail_unless_equals_int (ia[k], ig[k]);
    g_free (ia);
    g_free (ig);
    gst_buffer_unref (a);
    gst_buffer_unref (g);
  }
  gst_harness_teardown (h);
  gst_harness_teardown (hg);
  layers_clear (&v);
}

GST_END_TEST;

static void
add_org_tests (TCase * tc, gboolean cuda)
{
  tcase_add_test (tc, test_layer_enface);
  tcase_add_test (tc, test_layer_enface_errors);
  tcase_add_test (tc, test_org);
  tcase_add_test (tc, test_org_flush_caps);
  tcase_add_test (tc, test_org_baseline_live);
  tcase_add_test (tc, test_org_trace_file);
  tcase_add_test (tc, test_org_errors);
  tcase_add_test (tc, test_org_cuda_memory);
}

static Suite *
org_suite (void)
{
  return aooct_test_suite_per_backend ("org", add_org_tests);
}

GST_CHECK_MAIN (org);
