/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: aooctregister (spec section 13) against the float64
 * reference (tests/reference/aooct-ref64-register.h), on each backend:
 * tcases "cpu" (meson test register) and "cuda" (register-cuda, exit 77
 * where no CUDA device is usable).
 *
 *   the estimate within 1/U of the float64 one (the Accuracy paragraph's
 *   near-ties aside), the registered B-scan within 1 grey level after
 *   aooctnorm of the float64 apply given the same shift; reference=first
 *   with several B-scans per buffer, reference=previous, upsample=1,
 *   min-correlation (unrelated B-scans rejected, passed unshifted,
 *   counted, the reference kept), a flush and new caps restarting the
 *   reference and the count, the message and shifts-file (complete at
 *   EOS, the same values), full-range input (signed crop);
 *   the errors: upsample=0, a crop outside the data, input that is not
 *   depth-domain complex, a shifts-file that cannot be created.
 *
 * The synthetic B-scans: one speckled, layered tissue (complex Gaussian
 * field, smoothed to speckle of about two pixels, layer envelope in
 * depth) moved by a random fractional shift per B-scan with the float64
 * apply itself (a feature at (z, m) moves to (z + dz, m + dx)), plus
 * noise. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <glib/gstdio.h>

#include <gst/video/video.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"
#include "aooct-cuda-test-util.h"
#include "aooct-ref64.h"
#include "aooct-ref64-register.h"
#include "aooct-synth.h"
#include "aooct-test-pipeline.h"

#define M 48
#define N 32                    /* P1 = 32, P2 = 64 */
#define P2 64
#define CROP_START 4
#define CROP_END 40
#define GEN_U 1000              /* the shifts' grid of the synthetic data */

typedef struct
{
  gint bscans, n_buf;           /* per buffer, buffers */
  gboolean full_range;
  gdouble *dd;                  /* all B-scans, complex doubles */
  gfloat *d;                    /* the same in float */
  gdouble *dz, *dx;             /* the true shifts */
} Data;

static gdouble
gauss (GRand * rand)
{
  gdouble u = g_rand_double_range (rand, 1e-300, 1), v = g_rand_double (rand);
  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

static gsize
bscan_doubles (void)
{
  return 2 * (gsize) M *P2;
}

/* the signed bin of row z of the data's layers */
static gint
layer_bin (const Data * s, gint z)
{
  return s->full_range && z < 0 ? z + P2 : z;
}

/* The tissue: complex Gaussian speckle smoothed by a Gaussian of 1.2
 * pixels in both directions (circular), under a layer envelope */
static gdouble *
make_tissue (GRand * rand, const Data * s, gboolean other)
{
  gdouble *w = g_new0 (gdouble, bscan_doubles ());
  gdouble *t = g_new0 (gdouble, bscan_doubles ());
  gdouble k[7];
  gint m, z, j;

  for (j = -3; j <= 3; j++)
    k[j + 3] = exp (-0.5 * j * j / (1.2 * 1.2));
  for (m = 0; m < M; m++)
    for (z = -P2 / 2; z < P2 / 2; z++) {
      /* layers at rows 10 and 24 of the crop, a fainter tissue between */
      gdouble zz = s->full_range ? z : z + P2 / 2;
      /* other tissue: its layers where this one has none */
      gdouble ze = other ? 42 - zz : zz;
      gdouble env = 0.05 + 0.4 * exp (-0.5 * pow ((ze - 14) / 6.0, 2)) +
          1.0 * exp (-0.5 * pow ((ze - 28) / 2.0, 2)) +
          0.3 * (ze > 30 && ze < 38) + 0.2 * sin (m * 0.3) * (ze > 8);
      gint b = layer_bin (s, s->full_range ? z : (gint) zz);
      gdouble *v = w + 2 * ((gsize) m * P2 + b);

      if (b < 0 || b >= P2)
        continue;
      v[0] = env * gauss (rand);
      v[1] = env * gauss (rand);
    }
  /* smooth along depth, then along the A-lines */
  for (m = 0; m < M; m++)
    for (z = 0; z < P2; z++)
      for (j = -3; j <= 3; j++) {
        const gdouble *v = w + 2 * ((gsize) m * P2 + (z + j + P2) % P2);
        t[2 * ((gsize) m * P2 + z)] += k[j + 3] * v[0];
        t[2 * ((gsize) m * P2 + z) + 1] += k[j + 3] * v[1];
      }
  memset (w, 0, sizeof (gdouble) * bscan_doubles ());
  for (m = 0; m < M; m++)
    for (z = 0; z < P2; z++)
      for (j = -3; j <= 3; j++) {
        const gdouble *v = t + 2 * ((gsize) ((m + j + M) % M) * P2 + z);
        w[2 * ((gsize) m * P2 + z)] += k[j + 3] * v[0];
        w[2 * ((gsize) m * P2 + z) + 1] += k[j + 3] * v[1];
      }
  g_free (t);
  return w;
}

/* @unrelated: B-scans (by index) that show other tissue (for rejection) */
static void
data_init (Data * s, gint bscans, gint n_buf, gboolean full_range,
    const gint * unrelated, gint n_unrelated)
{
  GRand *rand = aooct_test_rand_new ();
  const gint total = bscans * n_buf;
  AooctRefRegisterParams gp = { P2, M, 0, 2, 1, 1, GEN_U, FALSE };
  gdouble *tissue, *other;
  gsize i;
  gint b, u;

  s->bscans = bscans;
  s->n_buf = n_buf;
  s->full_range = full_range;
  s->dd = g_new (gdouble, bscan_doubles () * total);
  s->d = g_new (gfloat, bscan_doubles () * total);
  s->dz = g_new0 (gdouble, total);
  s->dx = g_new0 (gdouble, total);
  tissue = make_tissue (rand, s, FALSE);
  other = make_tissue (rand, s, TRUE);
  for (b = 0; b < total; b++) {
    gdouble *x = s->dd + bscan_doubles () * b;
    gboolean unrel = FALSE;
    gint qz = b == 0 ? 0 : g_rand_int_range (rand, -3 * GEN_U, 3 * GEN_U);
    gint qx = b == 0 ? 0 : g_rand_int_range (rand, -4 * GEN_U, 4 * GEN_U);

    for (u = 0; u < n_unrelated; u++)
      unrel |= unrelated[u] == b;
    s->dz[b] = (gdouble) qz / GEN_U;
    s->dx[b] = (gdouble) qx / GEN_U;
    /* moved forward by (dz, dx): the apply moves back */
    aooct_ref_register_apply (&gp, unrel ? other : tissue, x, -qz, -qx);
    for (i = 0; i < bscan_doubles (); i++)
      x[i] += 0.01 * gauss (rand);
  }
  for (i = 0; i < bscan_doubles () * total; i++)
    s->d[i] = (gfloat) s->dd[i];
  g_free (tissue);
  g_free (other);
  g_rand_free (rand);
}

static void
data_clear (Data * s)
{
  g_free (s->dd);
  g_free (s->d);
  g_free (s->dz);
  g_free (s->dx);
}

static GstCaps *
data_caps (const Data * s, gint bscans)
{
  AooctTestDepthGeom g = { M, bscans, N, N, 2 };
  AooctGeometry geom;

  aooct_test_depth_geometry (&g, &geom);
  geom.full_range = s->full_range;
  return aooct_geometry_to_caps (&geom);
}

static GstBuffer *
data_buffer (const Data * s, gint first, gint bscans)
{
  const gsize n = bscan_doubles () * bscans;
  GstBuffer *buf = aooct_test_buffer_new (s->d + bscan_doubles () * first,
      n * sizeof (gfloat));

  GST_BUFFER_PTS (buf) = first * 10 * GST_MSECOND;
  return buf;
}

static gint
crop_start (const Data * s)
{
  return s->full_range ? -20 : CROP_START;
}

static gint
crop_end (const Data * s)
{
  return s->full_range ? 16 : CROP_END;
}

static GstHarness *
harness (const Data * s, const gchar * props)
{
  gchar *launch = g_strdup_printf ("aooctregister backend=%s crop-start=%d "
      "crop-end=%d %s ! aooctnorm backend=%s crop-start=%d crop-end=%d",
      aooct_test_backend, crop_start (s), crop_end (s), props,
      aooct_test_backend, crop_start (s), crop_end (s));
  GstHarness *h = aooct_test_harness_new (launch);

  g_free (launch);
  return h;
}

/* one message as the test reads it */
typedef struct
{
  guint64 bscan;
  gdouble dz, dx, rho;
  gboolean rejected;
} Report;

/* every aooct-registration message on @h's bus, in order */
static GArray *
pop_reports (GstHarness * h)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (Report));
  GstBus *bus = gst_element_get_bus (h->element);
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *st = gst_message_get_structure (msg);
    Report r;

    if (gst_structure_has_name (st, "aooct-registration")) {
      fail_unless (gst_structure_get (st, "bscan", G_TYPE_UINT64, &r.bscan,
              "dz", G_TYPE_DOUBLE, &r.dz, "dx", G_TYPE_DOUBLE, &r.dx,
              "correlation", G_TYPE_DOUBLE, &r.rho, "rejected",
              G_TYPE_BOOLEAN, &r.rejected, NULL));
      g_array_append_val (a, r);
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return a;
}

/* The GRAY8 image of a complex double B-scan by the float64 aooctnorm */
static void
ref_image (const Data * s, const gdouble * x, guint8 * img)
{
  AooctRefParams rp;
  AooctRefGrid g = { N, 0, 2, N, P2, 0, 2 * (N - 1) };
  const gint rows = crop_end (s) - crop_start (s);
  gdouble *t = g_new0 (gdouble, bscan_doubles ());
  gint m, r;

  /* the (signed) crop's rows first: the reference's aooctnorm reads
   * unsigned bins */
  for (m = 0; m < M; m++)
    for (r = 0; r < rows; r++) {
      gint b = crop_start (s) + r;

      b = b < 0 ? b + P2 : b;
      t[2 * ((gsize) m * P2 + r)] = x[2 * ((gsize) m * P2 + b)];
      t[2 * ((gsize) m * P2 + r) + 1] = x[2 * ((gsize) m * P2 + b) + 1];
    }
  aooct_ref_params_init (&rp, N, M, 1);
  rp.crop_start = 0;
  rp.crop_end = rows;
  aooct_ref_norm (&rp, &g, t, 0, img, M, NULL, NULL);
  g_free (t);
}

/* What a run checks against the reference */
typedef struct
{
  const gchar *props;
  gboolean previous;
  gint upsample;
  gdouble min_correlation;
  gint bscans;                  /* per buffer */
  gint n_buf;
  const gint *unrelated;
  gint n_unrelated;
  gboolean full_range;
  gint expect_rejected;         /* at least this many rejected (-1: none) */
} Run;

/* Runs @run's data through aooctregister ! aooctnorm, compares every
 * estimate and image with the float64 ones; returns the reports. */
static GArray *
check_run (const Run * run, const gchar * shifts_file)
{
  Data s;
  GstHarness *h;
  AooctRefRegister *ref;
  AooctRefRegisterParams rp;
  AooctRefRegisterEstimate e;
  GArray *reports;
  GPtrArray *images = g_ptr_array_new_with_free_func (g_free);
  gint rows;
  gchar *props;
  guint8 *want;
  gdouble *out = g_new (gdouble, bscan_doubles ());
  gint i, b, compared = 0, rejected = 0;
  gboolean uncertain = FALSE;
  gdouble *gotd;

  data_init (&s, run->bscans, run->n_buf, run->full_range, run->unrelated,
      run->n_unrelated);
  rows = crop_end (&s) - crop_start (&s);
  props = g_strdup_printf ("%s%s%s", run->props, shifts_file ?
      " shifts-file=" : "", shifts_file ? shifts_file : "");
  h = harness (&s, props);
  gst_harness_set_src_caps (h, data_caps (&s, run->bscans));
  want = g_malloc ((gsize) (crop_end (&s) - crop_start (&s)) * M);
  gotd = g_new (gdouble, bscan_doubles ());

  rp.p2 = P2;
  rp.m = M;
  rp.crop_start = crop_start (&s);
  rp.rows = crop_end (&s) - crop_start (&s);
  rp.max_dz = rp.rows / 4;
  rp.max_dx = M / 4;
  rp.upsample = run->upsample;
  rp.previous = run->previous;
  ref = aooct_ref_register_new (&rp);

  for (i = 0; i < run->n_buf; i++) {
    GstBuffer *outbuf;
    GstMapInfo map;

    fail_unless_equals_int (gst_harness_push (h, data_buffer (&s,
                i * run->bscans, run->bscans)), GST_FLOW_OK);
    outbuf = gst_harness_pull (h);
    fail_unless (outbuf != NULL);
    fail_unless (gst_buffer_map (outbuf, &map, GST_MAP_READ));
    fail_unless_equals_int ((gint) map.size, rows * M * run->bscans);
    /* kept for the comparison after EOS, when every report is in */
    g_ptr_array_add (images, g_memdup2 (map.data, map.size));
    gst_buffer_unmap (outbuf, &map);
    gst_buffer_unref (outbuf);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  reports = pop_reports (h);
  fail_unless_equals_int (reports->len, run->bscans * run->n_buf);

  for (b = 0; b < run->bscans * run->n_buf; b++) {
    const Report *r = &g_array_index (reports, Report, b);
    const gdouble *x = s.dd + bscan_doubles () * b;
    const guint8 *img = g_ptr_array_index (images, b / run->bscans);
    gint qz, qx, k, bad = 0;

    fail_unless_equals_uint64 (r->bscan, b);
    aooct_ref_register_bscan (ref, run->min_correlation, x, out, &e);
    if (b == 0) {
      fail_unless (r->dz == 0 && r->dx == 0 && r->rho == 1 && !r->rejected,
          "the reference reports %g %g %g %d", r->dz, r->dx, r->rho,
          r->rejected);
    }
    /* the Accuracy paragraph's exclusions */
    if (e.int_gap < 1e-6 || e.fine_gap < 1e-6
        || fabs (e.rho - run->min_correlation) < 1e-6)
      uncertain = TRUE;
    if (!uncertain || !run->previous) {
      if (!(e.int_gap < 1e-6 || e.fine_gap < 1e-6
              || fabs (e.rho - run->min_correlation) < 1e-6)) {
        const gdouble tol = 1.0 / run->upsample + 1e-9;

        fail_unless (r->rejected == e.rejected, "B-scan %d: rejected %d, "
            "the reference %d (rho %g, %g)", b, r->rejected, e.rejected,
            r->rho, e.rho);
        fail_unless (fabs (r->dz - e.qz / (gdouble) run->upsample) <= tol
            && fabs (r->dx - e.qx / (gdouble) run->upsample) <= tol,
            "B-scan %d: shift %g %g, the reference %g %g (U %d)", b, r->dz,
            r->dx, e.qz / (gdouble) run->upsample,
            e.qx / (gdouble) run->upsample, run->upsample);
        fail_unless (fabs (r->rho - e.rho) < 1e-3, "B-scan %d: rho %g, the "
            "reference %g", b, r->rho, e.rho);
        compared++;
      }
    }
    rejected += r->rejected;
    /* the image: the float64 apply of the element's shift */
    qz = (gint) lround (r->dz * run->upsample);
    qx = (gint) lround (r->dx * run->upsample);
    if (r->rejected || b == 0)
      memcpy (gotd, x, sizeof (gdouble) * bscan_doubles ());
    else
      aooct_ref_register_apply (&rp, x, gotd, qz, qx);
    /* reference=previous: the next estimate against what the element
     * itself had as its reference (its own shift, applied in float64),
     * so that one fine-grid step chosen apart does not carry on */
    if (run->previous && !r->rejected && b > 0)
      aooct_ref_register_set_reference (ref, gotd);
    ref_image (&s, gotd, want);
    img += (gsize) (b % run->bscans) * rows * M;
    for (k = 0; k < rows * M; k++)
      if (ABS (img[k] - want[k]) > 1)
        bad++;
    fail_unless (bad == 0, "B-scan %d: %d pixels more than 1 grey level "
        "from the float64 image (shift %g %g)", b, bad, r->dz, r->dx);
  }
  /* the exclusions are rare */
  fail_unless (compared * 4 >= run->bscans * run->n_buf * 3,
      "only %d of %d estimates compared", compared, run->bscans * run->n_buf);
  if (run->expect_rejected < 0) {
    fail_unless_equals_int (rejected, 0);
  } else {
    fail_unless (rejected >= run->expect_rejected, "%d rejected", rejected);
  }

  aooct_ref_register_free (ref);
  gst_harness_teardown (h);
  g_free (props);
  g_free (want);
  g_ptr_array_unref (images);
  g_free (gotd);
  g_free (out);
  data_clear (&s);
  return reports;
}

GST_START_TEST (test_first)
{
  const Run run = { "", FALSE, 20, 0, 2, 4, NULL, 0, FALSE, -1 };
  gchar *path = g_build_filename (g_get_tmp_dir (), "aooct-shifts-XXXXXX",
      NULL);
  gint fd = g_mkstemp (path);
  GArray *reports;
  gchar *text, **lines;
  guint i, n = 0;

  close (fd);
  reports = check_run (&run, path);
  /* the file: a comment, then the messages' values, complete at EOS */
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    guint64 bscan;
    gdouble dz, dx, rho;
    gint rej;
    const Report *r;

    if (lines[i][0] == '#' || lines[i][0] == '\0')
      continue;
    fail_unless_equals_int (sscanf (lines[i], "%" G_GUINT64_FORMAT
            " %lf %lf %lf %d", &bscan, &dz, &dx, &rho, &rej), 5);
    fail_unless (n < reports->len);
    r = &g_array_index (reports, Report, n);
    fail_unless_equals_uint64 (bscan, r->bscan);
    fail_unless (fabs (dz - r->dz) < 1e-9 && fabs (dx - r->dx) < 1e-9
        && fabs (rho - r->rho) < 1e-6 && rej == r->rejected);
    n++;
  }
  fail_unless_equals_int (n, reports->len);
  g_strfreev (lines);
  g_free (text);
  g_unlink (path);
  g_free (path);
  g_array_unref (reports);
}

GST_END_TEST;

GST_START_TEST (test_previous)
{
  const Run one = { "reference=previous", TRUE, 20, 0, 1, 6, NULL, 0, FALSE,
    -1
  };
  const Run three = { "reference=previous upsample=10", TRUE, 10, 0, 3, 2,
    NULL, 0, FALSE, -1
  };

  g_array_unref (check_run (&one, NULL));
  g_array_unref (check_run (&three, NULL));
}

GST_END_TEST;

GST_START_TEST (test_integer)
{
  const Run run = { "upsample=1 max-shift-depth=5 max-shift-alines=6", FALSE,
    1, 0, 3, 2, NULL, 0, FALSE, -1
  };

  g_array_unref (check_run (&run, NULL));
}

GST_END_TEST;

GST_START_TEST (test_rejection)
{
  /* B-scans 2 and 4 show other tissue: rejected, passed unshifted; with
   * reference=previous the reference stays B-scan 1's output */
  static const gint unrelated[] = { 2, 4 };
  const Run first = { "min-correlation=0.5", FALSE, 20, 0.5, 2, 3, unrelated,
    2, FALSE, 2
  };
  const Run prev = { "min-correlation=0.5 reference=previous", TRUE, 20, 0.5,
    1, 6, unrelated, 2, FALSE, 2
  };
  GArray *r = check_run (&first, NULL);

  fail_unless (g_array_index (r, Report, 2).rejected);
  fail_unless (g_array_index (r, Report, 4).rejected);
  fail_unless (!g_array_index (r, Report, 3).rejected);
  g_array_unref (r);
  r = check_run (&prev, NULL);
  fail_unless (g_array_index (r, Report, 2).rejected);
  fail_unless (!g_array_index (r, Report, 3).rejected);
  g_array_unref (r);
}

GST_END_TEST;

GST_START_TEST (test_full_range)
{
  const Run run = { "", FALSE, 20, 0, 2, 2, NULL, 0, TRUE, -1 };

  g_array_unref (check_run (&run, NULL));
}

GST_END_TEST;

/* The first B-scan after a flush or new caps is the reference again:
 * bscan 0, shift 0 0, rho 1, the input itself */
static void
check_restart (gboolean caps)
{
  Data s;
  GstHarness *h;
  GArray *reports;
  const Report *r;
  guint8 want[(CROP_END - CROP_START) * M];
  GstBuffer *out;
  GstMapInfo map;

  data_init (&s, 1, 4, FALSE, NULL, 0);
  h = harness (&s, "");
  gst_harness_set_src_caps (h, data_caps (&s, 1));
  fail_unless_equals_int (gst_harness_push (h, data_buffer (&s, 0, 1)),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, data_buffer (&s, 1, 1)),
      GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  gst_buffer_unref (gst_harness_pull (h));
  if (caps) {
    /* two B-scans per buffer now */
    gst_harness_set_src_caps (h, data_caps (&s, 2));
    fail_unless_equals_int (gst_harness_push (h, data_buffer (&s, 2, 2)),
        GST_FLOW_OK);
  } else {
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
    gst_harness_set_src_caps (h, data_caps (&s, 1));
    fail_unless_equals_int (gst_harness_push (h, data_buffer (&s, 2, 1)),
        GST_FLOW_OK);
  }
  out = gst_harness_pull (h);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  reports = pop_reports (h);
  fail_unless_equals_int (reports->len, caps ? 4 : 3);
  r = &g_array_index (reports, Report, 2);
  fail_unless_equals_uint64 (r->bscan, 0);
  fail_unless (r->dz == 0 && r->dx == 0 && r->rho == 1 && !r->rejected);
  fail_unless_equals_uint64 (g_array_index (reports, Report, 1).bscan, 1);
  if (caps)
    fail_unless_equals_uint64 (g_array_index (reports, Report, 3).bscan, 1);
  /* B-scan 2 passed as it came */
  ref_image (&s, s.dd + 2 * bscan_doubles (), want);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (gsize k = 0; k < sizeof (want); k++)
    fail_unless (ABS (map.data[k] - want[k]) <= 1, "pixel %d", (gint) k);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  g_array_unref (reports);
  gst_harness_teardown (h);
  data_clear (&s);
}

GST_START_TEST (test_flush_restarts)
{
  check_restart (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_caps_restart)
{
  check_restart (TRUE);
}

GST_END_TEST;

GST_START_TEST (test_errors)
{
  gchar *launch;
  Data s = { 0 };

  launch = g_strdup_printf ("aooctregister backend=%s upsample=0",
      aooct_test_backend);
  aooct_test_expect_error (launch, data_caps (&s, 1), "upsample=0", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctregister backend=%s crop-end=1000",
      aooct_test_backend);
  aooct_test_expect_error (launch, data_caps (&s, 1), "crop-end=1000", NULL);
  g_free (launch);
  launch = g_strdup_printf ("aooctregister backend=%s crop-start=50 "
      "crop-end=40", aooct_test_backend);
  aooct_test_expect_error (launch, data_caps (&s, 1), "crop-start=50", NULL);
  g_free (launch);
  {
    GstCaps *caps = gst_caps_from_string ("application/x-aooct, "
        "domain=(string)spectral, sample-type=(string)real, samples=(int)64, "
        "alines=(int)48, bscans=(int)1, raw-samples=(int)64, "
        "pad-offset=(int)0, pad-factor=(int)1, pad-size=(int)64, "
        "k-linear=(boolean)true, framerate=(fraction)10/1");

    launch = g_strdup_printf ("aooctregister backend=%s", aooct_test_backend);
    aooct_test_expect_error (launch, caps, "depth-domain complex", NULL);
    g_free (launch);
  }
  /* a shifts-file in a folder that does not exist */
  launch = g_strdup_printf ("aooctsrc num-buffers=1 ! aooctdcsub ! aooctfft "
      "! aooctregister backend=%s shifts-file=/nonexistent/dir/shifts.txt ! "
      "fakesink", aooct_test_backend);
  aooct_test_expect_pipeline_error (launch, "shifts-file",
      "/nonexistent/dir/shifts.txt", NULL);
  g_free (launch);
  /* aooctsrc: lateral motion needs the beam's width */
  aooct_test_expect_pipeline_error ("aooctsrc num-buffers=1 "
      "motion-lateral=3 ! fakesink", "motion-lateral=3", "speckle-width", NULL);
  aooct_test_expect_pipeline_error ("aooctsrc num-buffers=1 phantom=mirror "
      "motion-axial=3 ! fakesink", "motion-axial=3", "phantom=retina", NULL);
  /* min-correlation outside 0 .. 1: refused by GObject */
  {
    GstElement *e = gst_element_factory_make ("aooctregister", NULL);
    AOOCT_ASSERT_REFUSED (g_object_set (e, "min-correlation", 1.5, NULL));
    gst_object_unref (e);
  }
}

GST_END_TEST;

static GArray *read_shifts (const gchar * path);

/* post-messages=false: no message, the file still written; min-correlation
 * changed while playing applies from the next buffer */
GST_START_TEST (test_live_settings)
{
  Data s;
  GstHarness *h;
  GArray *reports;
  gchar *path = g_build_filename (g_get_tmp_dir (), "aooct-shifts-XXXXXX",
      NULL);
  gchar *props;
  GArray *lines;
  gint fd = g_mkstemp (path), i;

  close (fd);
  data_init (&s, 1, 4, FALSE, NULL, 0);
  props = g_strdup_printf ("post-messages=false shifts-file=%s", path);
  h = harness (&s, props);
  gst_harness_set_src_caps (h, data_caps (&s, 1));
  for (i = 0; i < 4; i++) {
    if (i == 2)
      g_object_set (aooct_test_element (h, "aooctregister"),
          "min-correlation", 1.0, NULL);
    fail_unless_equals_int (gst_harness_push (h, data_buffer (&s, i, 1)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  reports = pop_reports (h);
  fail_unless_equals_int (reports->len, 0);
  g_array_unref (reports);
  gst_harness_teardown (h);
  /* the file: B-scan 1 registered, 2 and 3 rejected (rho < 1) */
  lines = read_shifts (path);
  fail_unless_equals_int (lines->len, 4);
  fail_unless (!g_array_index (lines, Report, 1).rejected);
  fail_unless (g_array_index (lines, Report, 2).rejected);
  fail_unless (g_array_index (lines, Report, 3).rejected);
  g_array_unref (lines);
  g_unlink (path);
  g_free (path);
  g_free (props);
  data_clear (&s);
}

GST_END_TEST;

/* CUDA: the same B-scans on both backends give the same shifts (within
 * 1/U) and images (within 1 grey level) */
GST_START_TEST (test_backends_agree)
{
  Data s;
  GArray *rep[2];
  GPtrArray *img[2];
  const gchar *bk[2] = { "cpu", "cuda" };
  const gint rows = CROP_END - CROP_START;
  gint k, b, i;

  data_init (&s, 4, 3, FALSE, NULL, 0);
  for (k = 0; k < 2; k++) {
    /* reference=first: with previous, a fine-grid step chosen apart on
     * one B-scan would move every later reference apart too */
    gchar *launch = g_strdup_printf ("aooctregister backend=%s "
        "crop-start=%d crop-end=%d ! aooctnorm "
        "backend=%s crop-start=%d crop-end=%d", bk[k], CROP_START, CROP_END,
        bk[k], CROP_START, CROP_END);
    GstHarness *h = aooct_test_harness_new (launch);

    img[k] = g_ptr_array_new_with_free_func (g_free);
    gst_harness_set_src_caps (h, data_caps (&s, 4));
    for (i = 0; i < 3; i++) {
      GstBuffer *out;
      GstMapInfo map;

      fail_unless_equals_int (gst_harness_push (h, data_buffer (&s, 4 * i,
                  4)), GST_FLOW_OK);
      out = gst_harness_pull (h);
      fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
      g_ptr_array_add (img[k], g_memdup2 (map.data, map.size));
      gst_buffer_unmap (out, &map);
      gst_buffer_unref (out);
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    rep[k] = pop_reports (h);
    fail_unless_equals_int (rep[k]->len, 12);
    gst_harness_teardown (h);
    g_free (launch);
  }
  for (b = 0; b < 12; b++) {
    const Report *a = &g_array_index (rep[0], Report, b);
    const Report *c = &g_array_index (rep[1], Report, b);
    const guint8 *ia = (const guint8 *) g_ptr_array_index (img[0], b / 4) +
        (gsize) (b % 4) * rows * M;
    const guint8 *ic = (const guint8 *) g_ptr_array_index (img[1], b / 4) +
        (gsize) (b % 4) * rows * M;

    fail_unless (fabs (a->dz - c->dz) <= 0.05 + 1e-9
        && fabs (a->dx - c->dx) <= 0.05 + 1e-9, "B-scan %d: cpu %g %g, cuda "
        "%g %g", b, a->dz, a->dx, c->dz, c->dx);
    fail_unless (fabs (a->rho - c->rho) < 1e-3);
    /* the same shift: the same image within a grey level */
    if (a->dz == c->dz && a->dx == c->dx)
      for (i = 0; i < rows * M; i++)
        fail_unless (ABS (ia[i] - ic[i]) <= 1, "B-scan %d pixel %d: cpu %d, "
            "cuda %d", b, i, ia[i], ic[i]);
  }
  for (k = 0; k < 2; k++) {
    g_array_unref (rep[k]);
    g_ptr_array_unref (img[k]);
  }
  data_clear (&s);
}

GST_END_TEST;

/* ---- physics on the synthetic camera --------------------------------- */

/* The synthetic retina with eye motion, through the chain */
#define PHYS_SRC "aooctsrc seed=7 phantom=retina bscans-per-volume=1 " \
  "speckle-width=3 alines=256 motion-axial=12 motion-lateral=4 " \
  "num-buffers=%d ! aooctdcsub ! aooctpad size=1024 factor=1 ! aooctkmap " \
  "wavelength-coeffs=\"785,0.125,1e-05,-2e-09\" ! aooctdisp a2=8 a3=-2 ! " \
  "aooctfft"
#define PHYS_FRAMES 16

/* the lines of a shifts-file */
static GArray *
read_shifts (const gchar * path)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (Report));
  gchar *text, **lines;
  gint i;

  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    Report r;
    gint rej;

    if (lines[i][0] == '#' || lines[i][0] == '\0')
      continue;
    fail_unless_equals_int (sscanf (lines[i], "%" G_GUINT64_FORMAT
            " %lf %lf %lf %d", &r.bscan, &r.dz, &r.dx, &r.rho, &rej), 5);
    r.rejected = rej;
    g_array_append_val (a, r);
  }
  g_strfreev (lines);
  g_free (text);
  return a;
}

GST_START_TEST (test_physics_motion)
{
  AooctSynthParams sp;
  gchar *path = g_build_filename (g_get_tmp_dir (), "aooct-phys-XXXXXX",
      NULL);
  gint fd = g_mkstemp (path);
  gchar *launch;
  GstElement *pipeline;
  GArray *a;
  gdouble ez = 0, ex = 0, z0, x0, span = 0;
  guint i;

  close (fd);
  launch = g_strdup_printf (PHYS_SRC " ! aooctregister backend=%s "
      "shifts-file=%s ! fakesink", PHYS_FRAMES, aooct_test_backend, path);
  pipeline = aooct_test_run_to_eos (launch, aooct_test_backend, 300);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  a = read_shifts (path);
  fail_unless_equals_int (a->len, PHYS_FRAMES);

  /* the truth: aooctsrc's motion of each frame against frame 0, in bins
   * of P1 = 1024 (aooctpad size=1024) */
  aooct_synth_params_init (&sp);
  sp.seed = 7;
  sp.alines = 256;
  sp.motion_axial = 12;
  sp.motion_lateral = 4;
  aooct_synth_motion (&sp, 0, &z0, &x0);
  for (i = 0; i < a->len; i++) {
    const Report *r = &g_array_index (a, Report, i);
    gdouble z, x, tz, tx;

    aooct_synth_motion (&sp, i, &z, &x);
    tz = aooct_synth_depth_bin (&sp, z - z0, 1024);
    tx = x - x0;
    span = MAX (span, MAX (fabs (tz), fabs (tx)));
    GST_INFO ("B-scan %u: %+.3f %+.3f, true %+.3f %+.3f, rho %.3f", i,
        r->dz, r->dx, tz, tx, r->rho);
    ez += (r->dz - tz) * (r->dz - tz);
    ex += (r->dx - tx) * (r->dx - tx);
    fail_if (r->rejected);
  }
  ez = sqrt (ez / a->len);
  ex = sqrt (ex / a->len);
  GST_INFO ("registration error RMS: %.4f bins in depth, %.4f A-lines "
      "laterally (shifts up to %.1f)", ez, ex, span);
  g_print ("aooctregister on the synthetic retina (%s): RMS error %.4f "
      "bins, %.4f A-lines over %d B-scans (shifts up to %.1f pixels)\n",
      aooct_test_backend, ez, ex, PHYS_FRAMES, span);
  /* the motion must be there for this to mean anything */
  fail_unless (span > 3);
  fail_unless (ez < 0.1 && ex < 0.1, "RMS error %g bins, %g A-lines", ez, ex);
  g_array_unref (a);
  g_unlink (path);
  g_free (path);
  g_free (launch);
}

GST_END_TEST;

/* depth-gradient energy over total energy of a GRAY8 image: speckle and
 * layers blurred by misregistered averaging lose their edges */
static gdouble
sharpness (const guint8 * img, gint width, gint height)
{
  gdouble g = 0, e = 0;
  gint r, c;

  for (r = 0; r + 1 < height; r++)
    for (c = 0; c < width; c++) {
      gdouble d = (gdouble) img[(r + 1) * width + c] - img[r * width + c];

      g += d * d;
      e += (gdouble) img[r * width + c] * img[r * width + c];
    }
  return e > 0 ? g / e : 0;
}

static gdouble
averaged_sharpness (const gchar * reg)
{
  gchar *launch = g_strdup_printf (PHYS_SRC " ! %s aooctnorm "
      "average-bscans=%d ! appsink name=out sync=false wait-on-eos=false",
      PHYS_FRAMES, reg, PHYS_FRAMES);
  GstElement *pipeline = aooct_test_run_to_eos (launch, aooct_test_backend,
      300);
  GList *samples = aooct_test_pull_all (pipeline, "out"), *last;
  GstVideoInfo info;
  GstVideoFrame frame;
  guint8 *img;
  gint w, h, r;
  gdouble s;

  last = g_list_last (samples);
  fail_unless (last != NULL);
  fail_unless (gst_video_info_from_caps (&info,
          gst_sample_get_caps (last->data)));
  fail_unless (gst_video_frame_map (&frame, &info,
          gst_sample_get_buffer (last->data), GST_MAP_READ));
  w = GST_VIDEO_INFO_WIDTH (&info);
  h = GST_VIDEO_INFO_HEIGHT (&info);
  img = g_malloc ((gsize) w * h);
  for (r = 0; r < h; r++)
    memcpy (img + (gsize) r * w, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA
        (&frame, 0) + (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), w);
  gst_video_frame_unmap (&frame);
  s = sharpness (img, w, h);
  g_free (img);
  g_list_free_full (samples, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (launch);
  return s;
}

GST_START_TEST (test_physics_averaging)
{
  gdouble plain = averaged_sharpness ("");
  gchar *r = g_strdup_printf ("aooctregister backend=%s !",
      aooct_test_backend);
  gdouble reg = averaged_sharpness (r);

  g_print ("average of %d moving B-scans (%s): sharpness (depth-gradient "
      "energy / energy) %.4f unregistered, %.4f registered (x %.2f)\n",
      PHYS_FRAMES, aooct_test_backend, plain, reg, reg / plain);
  fail_unless (reg > 1.3 * plain, "sharpness %g registered, %g not", reg,
      plain);
  g_free (r);
}

GST_END_TEST;

static void
add_register_tests (TCase * tc, gboolean cuda)
{
  tcase_add_test (tc, test_physics_motion);
  tcase_add_test (tc, test_physics_averaging);
  tcase_add_test (tc, test_first);
  tcase_add_test (tc, test_previous);
  tcase_add_test (tc, test_integer);
  tcase_add_test (tc, test_rejection);
  tcase_add_test (tc, test_full_range);
  tcase_add_test (tc, test_flush_restarts);
  tcase_add_test (tc, test_caps_restart);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_live_settings);
  if (cuda)
    tcase_add_test (tc, test_backends_agree);
}

static Suite *
register_suite (void)
{
  return aooct_test_suite_per_backend ("register", add_register_tests);
}

GST_CHECK_MAIN (register);
