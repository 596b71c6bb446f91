/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: one element on CUDA against the same element on the CPU
 * (see aooct-test-backends.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>

#include "aooct-test-backends.h"
#include "aooct-test-frames.h"

#ifdef HAVE_CUDA
#include "aooct-cuda.h"
#endif

/* the thesis camera, a full 2048-pixel camera with 1000 A-lines, and a
 * width that is no power of two with three B-scans per buffer */
const AooctTestGeo aooct_test_geos[3] = {
  {"832x240 P1 2048 P2 4096", 832, 240, 1, 2048, 2, "none"},
  {"2048x1000 P1 2048 P2 4096", 2048, 1000, 1, 2048, 2, "hann"},
  {"1500x80 x3 B-scans, P1 auto (2048) f 2", 1500, 80, 3, 0, 2, "gaussian"},
};

gboolean
aooct_test_fake_gpu (void)
{
  return g_getenv ("AOOCT_TEST_FAKE_GPU") != NULL;
}

GRand *
aooct_test_core_rand (void)
{
  if (aooct_test_fake_gpu ()) {
    g_print ("AOOCT_TEST_FAKE_GPU: no device buffers, core checks skipped\n");
    return NULL;
  }
  return aooct_test_rand_new ();
}

const gchar *
aooct_test_gpu_backend (void)
{
  return aooct_test_fake_gpu ()? "cpu" : "cuda";
}

/* ---- realistic input ---- */

/* One DC-subtracted A-line value at raw pixel p (fractional on a padded
 * grid) of @n: three reflectors' fringes under the Gaussian source
 * envelope, a residual DC ripple and noise, in camera counts.  @w holds
 * the fringe frequencies (rad/pixel, up to near the Nyquist limit) and
 * phases of the A-line. */
static gdouble
fringe (GRand * rand, const gdouble * w, gint n, gdouble p)
{
  gdouble t = (p - n / 2.0) / (n / 3.5);
  gdouble env = exp (-t * t);

  return env * (300 * cos (w[0] * p + w[3]) + 120 * cos (w[1] * p + w[4]) +
      40 * cos (w[2] * p + w[5])) + 8 * sin (0.004 * p) +
      g_rand_double_range (rand, -6, 6);
}

static void
aline_params (GRand * rand, gdouble * w)
{
  w[0] = g_rand_double_range (rand, 0.05, 0.8);
  w[1] = g_rand_double_range (rand, 0.8, 2.0);
  w[2] = g_rand_double_range (rand, 2.0, 3.0);
  w[3] = g_rand_double_range (rand, 0, 2 * G_PI);
  w[4] = g_rand_double_range (rand, 0, 2 * G_PI);
  w[5] = g_rand_double_range (rand, 0, 2 * G_PI);
}

/* Real spectra on the grid of @g: raw pixels (the raw grid) or the padded
 * grid, 0 in the margins as aooctpad leaves them. */
gfloat *
aooct_test_make_real (GRand * rand, const AooctGeometry * g)
{
  gsize rows = aooct_geometry_total_alines (g), r;
  gint j0 = aooct_geometry_data_start (g), j1 = aooct_geometry_data_end (g);
  gfloat *x = g_new0 (gfloat, rows * g->samples);
  gdouble w[6];
  gint j;

  for (r = 0; r < rows; r++) {
    aline_params (rand, w);
    for (j = j0; j <= j1; j++) {
      gdouble p = (gdouble) j / g->pad_factor - g->pad_offset;
      x[r * g->samples + j] = (gfloat) fringe (rand, w, g->raw_samples, p);
    }
  }
  return x;
}

/* Complex spectra as aooctdisp makes them: real spectra times a smooth
 * unit phase. */
gfloat *
aooct_test_make_complex (GRand * rand, const AooctGeometry * g)
{
  gfloat *x = aooct_test_make_real (rand, g);
  gsize rows = aooct_geometry_total_alines (g), r;
  gfloat *c = g_new (gfloat, 2 * rows * g->samples);
  gdouble a2 = g_rand_double_range (rand, -10, 10);
  gint i;

  for (r = 0; r < rows; r++)
    for (i = 0; i < g->samples; i++) {
      gdouble u = 2.0 * i / (g->samples - 1) - 1, phi = a2 * u * u;
      gfloat v = x[r * g->samples + i];
      c[2 * (r * g->samples + i)] = v * (gfloat) cos (phi);
      c[2 * (r * g->samples + i) + 1] = v * (gfloat) sin (phi);
    }
  g_free (x);
  return c;
}

/* ---- comparisons ---- */

/* Values of one backend against the other with an FFT's rounding: per row
 * of @row_floats floats, |gpu - cpu| <= factor x eps x log2 (p) x RMS of
 * the CPU row.  Returns the worst ratio in units of eps log2 (p) RMS. */
gdouble
aooct_test_compare_fft (const gfloat * cpu, const gfloat * gpu, gsize rows,
    gsize row_floats, gint p, gdouble factor, const gchar * what)
{
  const gdouble unit = FLT_EPSILON * log2 (p);
  gdouble worst = 0;
  gsize r, i;

  for (r = 0; r < rows; r++) {
    const gfloat *c = cpu + r * row_floats, *g = gpu + r * row_floats;
    gdouble sum2 = 0, rms;

    for (i = 0; i < row_floats; i++)
      sum2 += (gdouble) c[i] * c[i];
    /* RMS of the row's complex values or real samples alike: per value */
    rms = sqrt (sum2 / row_floats);
    if (!(rms > 0))
      fail ("%s: row %" G_GSIZE_FORMAT " is all zero", what, r);
    for (i = 0; i < row_floats; i++) {
      gdouble ratio = fabs ((gdouble) g[i] - c[i]) / (unit * rms);

      /* fail_unless costs a write per call in libcheck: test first */
      if (!isfinite (g[i]) || !(ratio <= factor))
        fail ("%s: row %"
            G_GSIZE_FORMAT " value %" G_GSIZE_FORMAT ": CUDA %.9g, CPU %.9g "
            "(%.3g eps log2(P) x row RMS %.6g; tolerance %g)", what, r, i, g[i],
            c[i], ratio, rms, factor);
      worst = MAX (worst, ratio);
    }
  }
  g_print ("  %s: max |CUDA - CPU| = %.3g eps log2(%d) x row RMS "
      "(tolerance %g)\n", what, worst, p, factor);
  return worst;
}

/* Same operations on both backends: equal within 2 ulps of the row's
 * largest magnitude; prints how many values are bit-identical. */
void
aooct_test_compare_exact (const gfloat * cpu, const gfloat * gpu, gsize rows,
    gsize row_floats, const gchar * what)
{
  gsize r, i, exact = 0;
  gdouble worst = 0;

  for (r = 0; r < rows; r++) {
    const gfloat *c = cpu + r * row_floats, *g = gpu + r * row_floats;
    gdouble scale = 0;

    for (i = 0; i < row_floats; i++)
      scale = MAX (scale, fabs (c[i]));
    for (i = 0; i < row_floats; i++) {
      gdouble d = fabs ((gdouble) g[i] - c[i]);

      if (!(d <= 2 * FLT_EPSILON * scale))
        fail ("%s: row %" G_GSIZE_FORMAT
            " value %" G_GSIZE_FORMAT ": CUDA %.9g, CPU %.9g", what, r, i,
            g[i], c[i]);
      exact += memcmp (&c[i], &g[i], sizeof (gfloat)) == 0;
      worst = MAX (worst, scale > 0 ? d / scale : 0);
    }
  }
  g_print ("  %s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " values "
      "bit-identical, max |CUDA - CPU| = %.3g x row max\n", what, exact,
      rows * row_floats, worst);
}

/* The largest difference between two outputs relative to the first's
 * largest magnitude: a property change must show. */
gdouble
aooct_test_relative_change (const gfloat * a, const gfloat * b, gsize count)
{
  gdouble d = 0, s = 0;
  gsize i;

  for (i = 0; i < count; i++) {
    d = MAX (d, fabs ((gdouble) a[i] - b[i]));
    s = MAX (s, fabs (a[i]));
  }
  return s > 0 ? d / s : 0;
}

/* ---- running an element on both backends ---- */

AooctTestPair
aooct_test_pair_new (const gchar * element, const gchar * props, GstCaps * caps)
{
  gchar *lc = g_strdup_printf ("%s backend=cpu %s", element, props);
  gchar *lg =
      g_strdup_printf ("%s backend=%s %s", element, aooct_test_gpu_backend (),
      props);
  AooctTestPair p;

  p.cpu = aooct_test_harness_new (lc);
  p.gpu = aooct_test_harness_new (lg);
  gst_harness_set_src_caps (p.cpu, gst_caps_ref (caps));
  gst_harness_set_src_caps (p.gpu, caps);
  g_free (lc);
  g_free (lg);
  return p;
}

static gfloat *
pull_copy (GstHarness * h, gsize out_bytes, gboolean device)
{
  GstBuffer *out = gst_harness_pull (h);
  GstMapInfo map;
  gfloat *res;

  fail_unless (out != NULL, "no output buffer");
  if (device && !aooct_test_fake_gpu ()) {
    fail_unless_equals_int (gst_buffer_n_memory (out), 1);
    fail_unless (gst_memory_is_type (gst_buffer_peek_memory (out, 0),
            "aooct.cuda.memory"), "CUDA output is not in aooct device memory");
  }
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, out_bytes);
  res = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  return res;
}

/* Pushes the @n_in inputs (@in_bytes each) into both harnesses of @p, all
 * before pulling any, so that several pooled device buffers and queued
 * kernels are in flight; @between changes properties in between.  Returns
 * the outputs in @cpu / @gpu (g_free each). */
void
aooct_test_pair_run (AooctTestPair * p, gfloat ** in, gint n_in, gsize in_bytes,
    gsize out_bytes, AooctTestBetweenFunc between, gpointer user_data,
    gfloat ** cpu, gfloat ** gpu)
{
  gint k;

  for (k = 0; k < n_in; k++) {
    if (between && k > 0) {
      between (p->cpu, k, user_data);
      between (p->gpu, k, user_data);
    }
    fail_unless_equals_int (gst_harness_push (p->cpu,
            aooct_test_buffer_new (in[k], in_bytes)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (p->gpu,
            aooct_test_buffer_new (in[k], in_bytes)), GST_FLOW_OK);
  }
  if (!aooct_test_fake_gpu ())
    fail_unless (aooct_test_caps_have_cuda_feature (p->gpu->sinkpad),
        "backend=cuda did not negotiate " AOOCT_TEST_CUDA_FEATURE
        " downstream");
  for (k = 0; k < n_in; k++) {
    cpu[k] = pull_copy (p->cpu, out_bytes, FALSE);
    gpu[k] = pull_copy (p->gpu, out_bytes, TRUE);
  }
}

void
aooct_test_pair_free (AooctTestPair * p)
{
  gst_harness_teardown (p->cpu);
  gst_harness_teardown (p->gpu);
}

void
aooct_test_free_all (gfloat ** v, gint n)
{
  gint k;

  for (k = 0; k < n; k++)
    g_free (v[k]);
}


/* ---- the cores on device buffers ---- */

#ifdef HAVE_CUDA
void
aooct_test_core_run_init (AooctTestCoreRun * run, gfloat ** x, gsize in_bytes,
    gsize out_bytes)
{
  GError *err = NULL;
  gint k;

  run->in_bytes = in_bytes;
  run->out_bytes = out_bytes;
  fail_unless (aooct_cuda_stream_new (&run->stream, &err), "%s",
      err ? err->message : "");
  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++) {
    fail_unless (aooct_cuda_malloc (in_bytes, &run->in[k], &err)
        && aooct_cuda_upload (run->in[k], x[k], in_bytes, &err)
        && aooct_cuda_malloc (out_bytes, &run->out[k], &err)
        && aooct_cuda_memset_async (run->out[k], 0xff, out_bytes,
            run->stream, &err), "%s", err ? err->message : "");
  }
}

/* Waits for the stream, checks that every input is still @x[k] and returns
 * the outputs in @y (g_free each); frees the device buffers. */
void
aooct_test_core_run_finish (AooctTestCoreRun * run, gfloat ** x, gfloat ** y,
    const gchar * what)
{
  GError *err = NULL;
  gint k;

  for (k = 0; k < AOOCT_TEST_CORE_BUFFERS; k++) {
    gfloat *back = g_malloc (run->in_bytes);

    y[k] = g_malloc (run->out_bytes);
    fail_unless (aooct_cuda_download_async (back, run->in[k], run->in_bytes,
            run->stream, &err)
        && aooct_cuda_download_async (y[k], run->out[k], run->out_bytes,
            run->stream, &err)
        && aooct_cuda_stream_sync (run->stream, &err), "%s",
        err ? err->message : "");
    fail_unless (memcmp (back, x[k], run->in_bytes) == 0,
        "%s: the core wrote into its input buffer %d", what, k);
    g_free (back);
    aooct_cuda_free (run->in[k]);
    aooct_cuda_free (run->out[k]);
  }
  aooct_cuda_stream_free (run->stream);
  g_print ("  %s: inputs unchanged\n", what);
}
#endif /* HAVE_CUDA */
