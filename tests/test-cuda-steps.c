/* aooct tests: aooctpad, aooctkmap, aooctdisp and aooctfft on the CUDA
 * backend against the CPU backend, and the whole chain
 * aooctsrc ! aooctdcsub ! aooctpad ! aooctkmap ! aooctdisp ! aooctfft on
 * CUDA against the same chain on the CPU.
 *
 * Two parts, chosen by the first argument (meson runs both): `steps` (one
 * element at a time, property changes while playing, errors) and `chain`.
 * Both exit 77 (meson: skipped) where no CUDA device is usable.
 *
 * Tolerances.  kmap and disp do the same float32 operations in the same
 * order on both backends (nvcc --fmad=false, gcc -ffp-contract=off), so
 * they must agree to the last bit; we still allow 2 float32 ulps of the
 * row's largest value, and print how many values were bit-identical.
 * pad and fft go through FFTs: cuFFT and FFTW sum in different orders, so
 * the results differ by float32 rounding.  The error of a float32 FFT of
 * length P is bounded by a few eps per butterfly stage, i.e. of order
 * eps log2 (P) relative to the RMS of its output row (Parseval: the RMS of
 * the row is the natural scale of every bin).  We allow, per value,
 * 32 eps log2 (P2) x RMS of the CPU row (4.6e-5 relative for P2 = 4096),
 * for one step and for the whole chain alike.  Seen on an H100 (cuFFT 13
 * against FFTW 3.3.10): worst 1.7 for pad, 7.0 for fft (2048x1000), 3.8
 * for the chain, in these units.  Wrong scaling, a shifted sample, a
 * missing Nyquist bin, stale weights or windows all give errors of order
 * 1 x RMS, i.e. above 10^4 in these units.  The worst ratio is printed.
 *
 * AOOCT_TEST_FAKE_GPU=1 runs everything with backend=cpu on both sides
 * (and skips the memory-type checks): a dry run of the test logic on a
 * machine without a GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-synth.h"
#include "aooct-cpu-pad.h"
#include "aooct-cpu-fft.h"
#include "aooct-fftw.h"
#include "aooct-window.h"

#ifdef HAVE_CUDA
#include "aooct-cuda.h"
#include "aooct-cuda-pad.h"
#include "aooct-cuda-fft.h"
#endif

#define CUDA_FEATURE "memory:CUDAMemory"
#define STEP_FACTOR 32.0
#define CHAIN_FACTOR 32.0

static gboolean fake_gpu;
static const gchar *gpu_backend = "cuda";

typedef struct
{
  const gchar *name;
  gint n, alines, bscans;
  gint size, factor;            /* aooctpad */
  const gchar *window;          /* for the chain */
} Geo;

/* the thesis camera, a full 2048-pixel camera with 1000 A-lines, and a
 * width that is no power of two with three B-scans per buffer */
static const Geo geos[] = {
  {"832x240 P1 2048 P2 4096", 832, 240, 1, 2048, 2, "none"},
  {"2048x1000 P1 2048 P2 4096", 2048, 1000, 1, 2048, 2, "hann"},
  {"1500x80 x3 B-scans, P1 auto (2048) f 2", 1500, 80, 3, 0, 2, "gaussian"},
};

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
static gfloat *
make_real (GRand * rand, const AooctGeometry * g)
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
static gfloat *
make_complex (GRand * rand, const AooctGeometry * g)
{
  gfloat *x = make_real (rand, g);
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
static gdouble
compare_fft (const gfloat * cpu, const gfloat * gpu, gsize rows,
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
static void
compare_exact (const gfloat * cpu, const gfloat * gpu, gsize rows,
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
static gdouble
relative_change (const gfloat * a, const gfloat * b, gsize count)
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

static gboolean
caps_have_cuda_feature (GstPad * pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean ret;

  fail_unless (caps != NULL);
  ret = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      CUDA_FEATURE);
  gst_caps_unref (caps);
  return ret;
}

/* Called before buffer @k (k >= 1) is pushed into @h: property changes
 * while playing. */
typedef void (*BetweenFunc) (GstHarness * h, gint k, gpointer user_data);

typedef struct
{
  GstHarness *cpu, *gpu;
} Pair;

static Pair
pair_new (const gchar * element, const gchar * props, GstCaps * caps)
{
  gchar *lc = g_strdup_printf ("%s backend=cpu %s", element, props);
  gchar *lg = g_strdup_printf ("%s backend=%s %s", element, gpu_backend,
      props);
  Pair p;

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
  if (device && !fake_gpu) {
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
static void
pair_run (Pair * p, gfloat ** in, gint n_in, gsize in_bytes,
    gsize out_bytes, BetweenFunc between, gpointer user_data, gfloat ** cpu,
    gfloat ** gpu)
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
  if (!fake_gpu)
    fail_unless (caps_have_cuda_feature (p->gpu->sinkpad),
        "backend=cuda did not negotiate " CUDA_FEATURE " downstream");
  for (k = 0; k < n_in; k++) {
    cpu[k] = pull_copy (p->cpu, out_bytes, FALSE);
    gpu[k] = pull_copy (p->gpu, out_bytes, TRUE);
  }
}

static void
pair_free (Pair * p)
{
  gst_harness_teardown (p->cpu);
  gst_harness_teardown (p->gpu);
}

static void
free_all (gfloat ** v, gint n)
{
  gint k;

  for (k = 0; k < n; k++)
    g_free (v[k]);
}

#define N_BUFFERS 3

/* ---- aooctpad ---- */

static void
check_pad (const Geo * geo, GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[N_BUFFERS], *cpu[N_BUFFERS], *gpu[N_BUFFERS];
  gchar *props = g_strdup_printf ("size=%d factor=%d", geo->size,
      geo->factor);
  gsize rows;
  Pair p;
  gint k, j0, j1;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, 0, 0);
  aooct_test_geometry (&out, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  rows = aooct_geometry_total_alines (&in);
  j0 = aooct_geometry_data_start (&out);
  j1 = aooct_geometry_data_end (&out);
  g_print ("aooctpad %s\n", geo->name);
  for (k = 0; k < N_BUFFERS; k++)
    x[k] = make_real (rand, &in);
  p = pair_new ("aooctpad", props, aooct_geometry_to_caps (&in));
  pair_run (&p, x, N_BUFFERS, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < N_BUFFERS; k++) {
    gsize r;
    gint j;

    /* the margins are set, not computed: exactly 0 */
    for (r = 0; r < rows; r++)
      for (j = 0; j < out.samples; j++)
        if ((j < j0 || j > j1) && gpu[k][r * out.samples + j] != 0.0f)
          fail ("row %" G_GSIZE_FORMAT " margin sample %d is %g", r, j,
              gpu[k][r * out.samples + j]);
    compare_fft (cpu[k], gpu[k], rows, out.samples, out.samples,
        STEP_FACTOR, "pad");
  }
  pair_free (&p);
  free_all (x, N_BUFFERS);
  free_all (cpu, N_BUFFERS);
  free_all (gpu, N_BUFFERS);
  g_free (props);
}

/* aooctpad's branches besides those of geos[] (N < P1 with margins on both
 * sides; N == P1, o == 0, one margin sample): no margin and no zero bins
 * at all (f = 1, N == P1), and f = 4 with P1 > N from several B-scans. */
static const Geo pad_geos[] = {
  {"2048x64 P1 2048 f 1 (no margins, no zero bins)", 2048, 64, 1, 2048, 1,
      NULL},
  {"1000x50 x2 B-scans P1 4096 f 4", 1000, 50, 2, 4096, 4, NULL},
};

GST_START_TEST (test_pad)
{
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (geos); i++)
    check_pad (&geos[i], rand);
  for (i = 0; i < G_N_ELEMENTS (pad_geos); i++)
    check_pad (&pad_geos[i], rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- aooctkmap ---- */

#define KMAP_PROPS "wavelength-coeffs=\"" \
  AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS "\""

static void
check_kmap (const gchar * name, const AooctGeometry * in, GRand * rand)
{
  AooctGeometry out = *in;
  gfloat *x[N_BUFFERS], *cpu[N_BUFFERS], *gpu[N_BUFFERS];
  Pair p;
  gint k;

  out.k_linear = TRUE;
  g_print ("aooctkmap %s\n", name);
  for (k = 0; k < N_BUFFERS; k++)
    x[k] = make_real (rand, in);
  p = pair_new ("aooctkmap", KMAP_PROPS, aooct_geometry_to_caps (in));
  pair_run (&p, x, N_BUFFERS, aooct_geometry_buffer_bytes (in),
      aooct_geometry_buffer_bytes (&out), NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < N_BUFFERS; k++) {
    /* the output must not be the input: the kernel really ran */
    fail_unless (relative_change (x[k], gpu[k],
            aooct_test_total_samples (in)) > 1e-2);
    compare_exact (cpu[k], gpu[k], aooct_geometry_total_alines (in),
        in->samples, "kmap");
  }
  pair_free (&p);
  free_all (x, N_BUFFERS);
  free_all (cpu, N_BUFFERS);
  free_all (gpu, N_BUFFERS);
}

GST_START_TEST (test_kmap)
{
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry g;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (geos); i++) {
    aooct_test_geometry (&g, geos[i].n, geos[i].alines, geos[i].bscans,
        geos[i].size, geos[i].factor);
    check_kmap (geos[i].name, &g, rand);
  }
  /* without aooctpad: the raw grid */
  aooct_test_geometry (&g, 1500, 64, 2, 0, 0);
  check_kmap ("raw grid 1500x64 x2", &g, rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* passthrough=true on CUDA: no kernel, buffers pass unchanged */
GST_START_TEST (test_kmap_passthrough)
{
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry in, out;
  gchar *launch = g_strdup_printf ("aooctkmap backend=%s passthrough=true",
      gpu_backend);
  GstHarness *h = aooct_test_harness_new (launch);
  gfloat *x, *y;

  aooct_test_geometry (&in, 832, 240, 1, 2048, 2);
  out = in;
  out.k_linear = TRUE;
  x = make_real (rand, &in);
  y = aooct_test_push_pull (h, aooct_geometry_to_caps (&in), x,
      aooct_geometry_buffer_bytes (&in), aooct_geometry_buffer_bytes (&in));
  fail_unless (memcmp (x, y, aooct_geometry_buffer_bytes (&in)) == 0);
  aooct_test_assert_caps (h, &out);
  gst_harness_teardown (h);
  g_free (x);
  g_free (y);
  g_free (launch);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- aooctdisp ---- */

static void
check_disp (const Geo * geo, GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[N_BUFFERS], *cpu[N_BUFFERS], *gpu[N_BUFFERS];
  gchar *props = g_strdup_printf ("a2=%g a3=%g",
      AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3);
  Pair p;
  gint k;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  out = in;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  g_print ("aooctdisp %s\n", geo->name);
  for (k = 0; k < N_BUFFERS; k++)
    x[k] = make_real (rand, &in);
  p = pair_new ("aooctdisp", props, aooct_geometry_to_caps (&in));
  pair_run (&p, x, N_BUFFERS, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < N_BUFFERS; k++)
    compare_exact (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, "disp");
  pair_free (&p);
  free_all (x, N_BUFFERS);
  free_all (cpu, N_BUFFERS);
  free_all (gpu, N_BUFFERS);
  g_free (props);
}

GST_START_TEST (test_disp)
{
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (geos); i++)
    check_disp (&geos[i], rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* buffer 0: no compensation; 1: a2; 2: a2 and a3; 3: a phase file */
static void
disp_between (GstHarness * h, gint k, gpointer user_data)
{
  GstElement *e = aooct_test_element (h, "aooctdisp");

  if (k == 1)
    g_object_set (e, "a2", 12.5, NULL);
  else if (k == 2)
    g_object_set (e, "a3", -4.0, NULL);
  else if (k == 3)
    g_object_set (e, "a2", 0.0, "a3", 0.0, "phase-file",
        (const gchar *) user_data, NULL);
}

GST_START_TEST (test_disp_playing)
{
  enum
  { N = 4 };
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry in, out;
  gfloat *x[N], *cpu[N], *gpu[N];
  gdouble *phases;
  gchar *path, *missing;
  GstCaps *caps;
  Pair p;
  gint k, i;

  aooct_test_geometry (&in, 832, 240, 1, 2048, 2);
  out = in;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  phases = g_new (gdouble, in.samples);
  for (i = 0; i < in.samples; i++)
    phases[i] = 0.3 * sin (i * 0.002) + g_rand_double_range (rand, -0.1, 0.1);
  path = aooct_test_write_values ("phases, rad", phases, in.samples);
  /* one input for all four: only the weights change */
  x[0] = make_real (rand, &in);
  for (k = 1; k < N; k++)
    x[k] = x[0];
  caps = aooct_geometry_to_caps (&in);
  p = pair_new ("aooctdisp", "", caps);
  pair_run (&p, x, N, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), disp_between, path, cpu, gpu);
  for (k = 0; k < N; k++) {
    compare_exact (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, "disp while playing");
    if (k > 0)
      fail_unless (relative_change (gpu[k - 1], gpu[k],
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

  pair_free (&p);
  g_free (x[0]);
  free_all (cpu, N);
  free_all (gpu, N);
  g_unlink (path);
  g_free (path);
  g_free (missing);
  g_free (phases);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- aooctfft ---- */

static void
check_fft (const Geo * geo, gboolean complex_in, const gchar * window,
    GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[N_BUFFERS], *cpu[N_BUFFERS], *gpu[N_BUFFERS];
  gchar *props = g_strdup_printf ("window=%s", window);
  gchar *what = g_strdup_printf ("fft %s window=%s",
      complex_in ? "complex" : "real", window);
  Pair p;
  gint k;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  in.k_linear = TRUE;
  if (complex_in)
    in.sample_type = AOOCT_SAMPLE_COMPLEX;
  out = in;
  out.domain = AOOCT_DOMAIN_DEPTH;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  g_print ("aooctfft %s\n", geo->name);
  for (k = 0; k < N_BUFFERS; k++)
    x[k] = complex_in ? make_complex (rand, &in) : make_real (rand, &in);
  p = pair_new ("aooctfft", props, aooct_geometry_to_caps (&in));
  pair_run (&p, x, N_BUFFERS, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), NULL, NULL, cpu, gpu);
  aooct_test_assert_caps (p.gpu, &out);
  for (k = 0; k < N_BUFFERS; k++)
    compare_fft (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, in.samples, STEP_FACTOR, what);
  pair_free (&p);
  free_all (x, N_BUFFERS);
  free_all (cpu, N_BUFFERS);
  free_all (gpu, N_BUFFERS);
  g_free (props);
  g_free (what);
}

GST_START_TEST (test_fft)
{
  GRand *rand = aooct_test_rand_new ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (geos); i++)
    check_fft (&geos[i], TRUE, "none", rand);
  /* real input (aooctkmap without aooctdisp), windowed */
  check_fft (&geos[0], FALSE, "hann", rand);
  check_fft (&geos[2], FALSE, "none", rand);
  check_fft (&geos[2], TRUE, "blackman", rand);
  /* the parametric windows (window-parameter) */
  check_fft (&geos[1], FALSE, "kaiser window-parameter=5", rand);
  check_fft (&geos[2], TRUE, "tukey window-parameter=0.25", rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* window, window-parameter: each step changes one of them */
static const struct
{
  const gchar *window, *parameter;
} window_sequence[] = {
  {"none", "0"}, {"hann", "0"}, {"blackman", "0"}, {"gaussian", "0"},
  {"gaussian", "0.25"}, {"hamming", "0.25"}, {"tukey", "0.25"},
  {"tukey", "0.8"}, {"kaiser", "0.8"}, {"kaiser", "0"}, {"none", "0"}
};

static void
fft_between (GstHarness * h, gint k, gpointer user_data)
{
  GObject *fft = G_OBJECT (aooct_test_element (h, "aooctfft"));

  gst_util_set_object_arg (fft, "window", window_sequence[k].window);
  gst_util_set_object_arg (fft, "window-parameter",
      window_sequence[k].parameter);
}

GST_START_TEST (test_fft_window_playing)
{
  enum
  { N = G_N_ELEMENTS (window_sequence) };
  GRand *rand = aooct_test_rand_new ();
  AooctGeometry in, out;
  gfloat *x[N], *cpu[N], *gpu[N];
  Pair p;
  gint k;

  aooct_test_geometry (&in, 1500, 80, 3, 0, 2);
  in.k_linear = TRUE;
  in.sample_type = AOOCT_SAMPLE_COMPLEX;
  out = in;
  out.domain = AOOCT_DOMAIN_DEPTH;
  x[0] = make_complex (rand, &in);
  for (k = 1; k < N; k++)
    x[k] = x[0];
  p = pair_new ("aooctfft", "window=none", aooct_geometry_to_caps (&in));
  pair_run (&p, x, N, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out), fft_between, NULL, cpu, gpu);
  for (k = 0; k < N; k++) {
    gchar *what = g_strdup_printf ("fft window=%s window-parameter=%s while "
        "playing", window_sequence[k].window, window_sequence[k].parameter);

    compare_fft (cpu[k], gpu[k], aooct_geometry_total_alines (&in),
        2 * in.samples, in.samples, STEP_FACTOR, what);
    if (k > 0)
      fail_unless (relative_change (gpu[k - 1], gpu[k],
              2 * aooct_test_total_samples (&in)) > 1e-3,
          "CUDA: window=%s window-parameter=%s had no effect",
          window_sequence[k].window, window_sequence[k].parameter);
    g_free (what);
  }
  /* back to none: the first output again (same input, same plan) */
  fail_unless (relative_change (gpu[0], gpu[N - 1],
          2 * aooct_test_total_samples (&in)) < 1e-6);
  pair_free (&p);
  g_free (x[0]);
  free_all (cpu, N);
  free_all (gpu, N);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- the pad and fft cores on device buffers ---- */

#ifdef HAVE_CUDA
/* The elements' input buffers may be shared read-only with other
 * consumers (a tee), so the cores must only read them: here the cores run
 * directly on device buffers, and the inputs are downloaded afterwards and
 * compared byte for byte.  The outputs are filled with NaN (0xff bytes)
 * before each run, so that a sample the core does not write (a margin)
 * shows, and compared with the CPU cores.  Two buffers one after the other
 * through one core: the second must not depend on what the first left in
 * the scratch (cuFFT's C2R overwrites its input, the padded spectrum). */

#define CORE_BUFFERS 2

typedef struct
{
  AooctCudaStream stream;
  gpointer in[CORE_BUFFERS], out[CORE_BUFFERS];
  gsize in_bytes, out_bytes;
} CoreRun;

static void
core_run_init (CoreRun * run, gfloat ** x, gsize in_bytes, gsize out_bytes)
{
  GError *err = NULL;
  gint k;

  run->in_bytes = in_bytes;
  run->out_bytes = out_bytes;
  fail_unless (aooct_cuda_stream_new (&run->stream, &err), "%s",
      err ? err->message : "");
  for (k = 0; k < CORE_BUFFERS; k++) {
    fail_unless (aooct_cuda_malloc (in_bytes, &run->in[k], &err)
        && aooct_cuda_upload (run->in[k], x[k], in_bytes, &err)
        && aooct_cuda_malloc (out_bytes, &run->out[k], &err)
        && aooct_cuda_memset_async (run->out[k], 0xff, out_bytes,
            run->stream, &err), "%s", err ? err->message : "");
  }
}

/* Waits for the stream, checks that every input is still @x[k] and returns
 * the outputs in @y (g_free each); frees the device buffers. */
static void
core_run_finish (CoreRun * run, gfloat ** x, gfloat ** y, const gchar * what)
{
  GError *err = NULL;
  gint k;

  for (k = 0; k < CORE_BUFFERS; k++) {
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

static void
check_pad_core (const Geo * geo, GRand * rand)
{
  AooctGeometry in, out;
  gfloat *x[CORE_BUFFERS], *y[CORE_BUFFERS], *ref;
  gsize rows;
  GError *err = NULL;
  AooctCudaPad *pad;
  AooctCpuPad *cpu;
  CoreRun run;
  gint k, j, j0, j1;
  gsize r;

  aooct_test_geometry (&in, geo->n, geo->alines, geo->bscans, 0, 0);
  aooct_test_geometry (&out, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  rows = aooct_geometry_total_alines (&in);
  j0 = aooct_geometry_data_start (&out);
  j1 = aooct_geometry_data_end (&out);
  g_print ("pad core %s (o %d, margins %d + %d)\n", geo->name,
      out.pad_offset, j0, out.samples - 1 - j1);
  for (k = 0; k < CORE_BUFFERS; k++)
    x[k] = make_real (rand, &in);
  core_run_init (&run, x, aooct_geometry_buffer_bytes (&in),
      aooct_geometry_buffer_bytes (&out));
  pad = aooct_cuda_pad_new (&out, &err);
  fail_unless (pad != NULL, "%s", err ? err->message : "");
  for (k = 0; k < CORE_BUFFERS; k++)
    fail_unless (aooct_cuda_pad_process (pad, run.in[k], FALSE, FALSE,
            run.out[k], run.stream, &err), "%s", err ? err->message : "");
  core_run_finish (&run, x, y, "pad core");
  aooct_cuda_pad_free (pad);

  cpu = aooct_cpu_pad_new (&out, aooct_cpu_threads (), &err);
  fail_unless (cpu != NULL, "%s", err ? err->message : "");
  ref = g_new (gfloat, rows * out.samples);
  for (k = 0; k < CORE_BUFFERS; k++) {
    aooct_cpu_pad_process (cpu, x[k], ref, (gint) rows);
    for (r = 0; r < rows; r++)
      for (j = 0; j < out.samples; j++)
        if ((j < j0 || j > j1) && (y[k][r * out.samples + j] != 0.0f
                || signbit (y[k][r * out.samples + j])))
          fail ("pad core: buffer %d row %" G_GSIZE_FORMAT " margin sample "
              "%d is %g, not +0", k, r, j, y[k][r * out.samples + j]);
    compare_fft (ref, y[k], rows, out.samples, out.samples, STEP_FACTOR,
        "pad core");
    g_free (x[k]);
    g_free (y[k]);
  }
  aooct_cpu_pad_free (cpu);
  g_free (ref);
}

static void
check_fft_core (const Geo * geo, gboolean complex_in, AooctWindow window,
    GRand * rand)
{
  AooctGeometry g;
  gfloat *x[CORE_BUFFERS], *y[CORE_BUFFERS], *ref, *table;
  gchar *what;
  gsize rows;
  GError *err = NULL;
  AooctCudaFft *fft;
  AooctCpuFft *cpu;
  CoreRun run;
  gint k;

  aooct_test_geometry (&g, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  g.k_linear = TRUE;
  if (complex_in)
    g.sample_type = AOOCT_SAMPLE_COMPLEX;
  rows = aooct_geometry_total_alines (&g);
  what = g_strdup_printf ("fft core %s, %s input, window %d", geo->name,
      complex_in ? "complex" : "real", window);
  g_print ("%s\n", what);
  table = aooct_window_table_new (window, g.samples,
      aooct_geometry_data_start (&g), aooct_geometry_data_end (&g));
  for (k = 0; k < CORE_BUFFERS; k++)
    x[k] = complex_in ? make_complex (rand, &g) : make_real (rand, &g);
  core_run_init (&run, x, aooct_geometry_buffer_bytes (&g),
      2 * sizeof (gfloat) * rows * g.samples);
  fft = aooct_cuda_fft_new (g.samples, rows, &err);
  fail_unless (fft != NULL, "%s", err ? err->message : "");
  fail_unless (aooct_cuda_fft_set_window (fft, table, run.stream, &err),
      "%s", err ? err->message : "");
  for (k = 0; k < CORE_BUFFERS; k++)
    fail_unless (aooct_cuda_fft_process (fft, run.in[k], complex_in,
            run.out[k], run.stream, &err), "%s", err ? err->message : "");
  core_run_finish (&run, x, y, what);
  aooct_cuda_fft_free (fft);

  cpu = aooct_cpu_fft_new (g.samples, aooct_cpu_threads (), &err);
  fail_unless (cpu != NULL, "%s", err ? err->message : "");
  ref = g_new (gfloat, 2 * rows * g.samples);
  for (k = 0; k < CORE_BUFFERS; k++) {
    aooct_cpu_fft_process (cpu, x[k], complex_in, table, ref, (gint) rows);
    compare_fft (ref, y[k], rows, 2 * g.samples, g.samples, STEP_FACTOR, what);
    g_free (x[k]);
    g_free (y[k]);
  }
  aooct_cpu_fft_free (cpu);
  g_free (ref);
  g_free (table);
  g_free (what);
}
#endif

GST_START_TEST (test_cores_input_unchanged)
{
#ifdef HAVE_CUDA
  GRand *rand;
  guint i;

  if (fake_gpu) {
    g_print ("AOOCT_TEST_FAKE_GPU: no device buffers, core checks skipped\n");
    return;
  }
  rand = aooct_test_rand_new ();
  /* margins on both sides (o 608); N == P1, o == 0 (one margin sample) */
  check_pad_core (&geos[0], rand);
  check_pad_core (&geos[1], rand);
  for (i = 0; i < G_N_ELEMENTS (pad_geos); i++)
    check_pad_core (&pad_geos[i], rand);
  /* no window (a copy, then the C2C in place in the output), a window,
   * and real input */
  check_fft_core (&geos[1], TRUE, AOOCT_WINDOW_NONE, rand);
  check_fft_core (&geos[1], TRUE, AOOCT_WINDOW_HANN, rand);
  check_fft_core (&geos[0], FALSE, AOOCT_WINDOW_NONE, rand);
  check_fft_core (&geos[2], FALSE, AOOCT_WINDOW_BLACKMAN, rand);
  g_rand_free (rand);
#endif
}

GST_END_TEST;

/* ---- the whole chain ---- */

static gchar *
chain_branch (const Geo * geo, const gchar * backend, const gchar * sink)
{
  return g_strdup_printf ("t. ! queue ! aooctdcsub backend=%s "
      "alines-per-bscan=%d ! aooctpad backend=%s size=%d factor=%d ! "
      "aooctkmap backend=%s " KMAP_PROPS " ! aooctdisp backend=%s a2=%g "
      "a3=%g ! aooctfft backend=%s window=%s ! appsink name=%s sync=false wait-on-eos=false",
      backend, geo->alines, backend, geo->size, geo->factor, backend,
      backend, AOOCT_SYNTH_DEFAULT_DISPERSION_A2,
      AOOCT_SYNTH_DEFAULT_DISPERSION_A3, backend, geo->window, sink);
}

static GList *
pull_all (GstElement * pipeline, const gchar * name)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GList *samples = NULL;
  GstSample *s;

  while ((s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0)))
    samples = g_list_append (samples, s);
  gst_object_unref (sink);
  return samples;
}

static void
check_chain (const Geo * geo, gint frames)
{
  gchar *cpu_branch = chain_branch (geo, "cpu", "cpu");
  gchar *gpu_branch = chain_branch (geo, gpu_backend, "gpu");
  gchar *launch = g_strdup_printf ("aooctsrc samples=%d alines=%d seed=%u "
      "num-buffers=%d ! tee name=t %s %s", geo->n, geo->alines * geo->bscans,
      g_random_int (), frames, cpu_branch, gpu_branch);
  AooctGeometry out;
  GError *err = NULL;
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  GList *cs, *gs, *c, *g;
  gchar *what;

  g_print ("chain %s, window=%s\n", geo->name, geo->window);
  GST_INFO ("%s", launch);
  aooct_test_geometry (&out, geo->n, geo->alines, geo->bscans, geo->size,
      geo->factor);
  out.domain = AOOCT_DOMAIN_DEPTH;
  out.sample_type = AOOCT_SAMPLE_COMPLEX;
  out.k_linear = TRUE;

  pipeline = gst_parse_launch (launch, &err);
  fail_unless (pipeline != NULL, "%s: %s", launch, err ? err->message : "");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timeout: %s", launch);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", launch, err->message);
  }
  gst_message_unref (msg);

  cs = pull_all (pipeline, "cpu");
  gs = pull_all (pipeline, "gpu");
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
    if (!fake_gpu) {
      fail_unless (gst_caps_features_contains (gst_caps_get_features (caps,
                  0), CUDA_FEATURE), "the CUDA chain's output is not in "
          "CUDA memory");
      fail_unless (gst_memory_is_type (gst_buffer_peek_memory (bg, 0),
              "aooct.cuda.memory"));
    }
    fail_unless (gst_buffer_map (bc, &mc, GST_MAP_READ));
    fail_unless (gst_buffer_map (bg, &mg, GST_MAP_READ));
    fail_unless_equals_int (mc.size, aooct_geometry_buffer_bytes (&out));
    fail_unless_equals_int (mg.size, mc.size);
    compare_fft ((const gfloat *) mc.data, (const gfloat *) mg.data,
        aooct_geometry_total_alines (&out), 2 * out.samples, out.samples,
        CHAIN_FACTOR, what);
    gst_buffer_unmap (bc, &mc);
    gst_buffer_unmap (bg, &mg);
  }
  g_list_free_full (cs, (GDestroyNotify) gst_sample_unref);
  g_list_free_full (gs, (GDestroyNotify) gst_sample_unref);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (what);
  g_free (launch);
  g_free (cpu_branch);
  g_free (gpu_branch);
}

GST_START_TEST (test_chain_thesis)
{
  check_chain (&geos[0], 3);
}

GST_END_TEST;

GST_START_TEST (test_chain_2048)
{
  check_chain (&geos[1], 2);
}

GST_END_TEST;

GST_START_TEST (test_chain_1500_stacked)
{
  check_chain (&geos[2], 3);
}

GST_END_TEST;

static Suite *
steps_suite (void)
{
  Suite *s = suite_create ("aooct-cuda-steps");
  TCase *tc = tcase_create ("steps");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pad);
  tcase_add_test (tc, test_kmap);
  tcase_add_test (tc, test_kmap_passthrough);
  tcase_add_test (tc, test_disp);
  tcase_add_test (tc, test_disp_playing);
  tcase_add_test (tc, test_fft);
  tcase_add_test (tc, test_fft_window_playing);
  tcase_add_test (tc, test_cores_input_unchanged);
  return s;
}

static Suite *
chain_suite (void)
{
  Suite *s = suite_create ("aooct-cuda-chain");
  TCase *tc = tcase_create ("chain");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_chain_thesis);
  tcase_add_test (tc, test_chain_2048);
  tcase_add_test (tc, test_chain_1500_stacked);
  return s;
}

int
main (int argc, char **argv)
{
  gboolean chain = argc > 1 && strcmp (argv[1], "chain") == 0;

  gst_check_init (&argc, &argv);
  fake_gpu = g_getenv ("AOOCT_TEST_FAKE_GPU") != NULL;
  if (fake_gpu) {
    g_print ("AOOCT_TEST_FAKE_GPU: backend=cpu on both sides\n");
    gpu_backend = "cpu";
  } else if (aooct_test_skip_without_cuda ()) {
    return AOOCT_TEST_SKIP_CODE;
  }
  return gst_check_run_suite (chain ? chain_suite () : steps_suite (),
      chain ? "cuda-chain" : "cuda-steps", __FILE__);
}
