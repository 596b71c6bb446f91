/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: non-uniform DFT (see aooct-cpu-nonuniform.h). */
#include <string.h>
#include <fftw3.h>
#ifdef AOOCT_HAVE_CBLAS
#include <cblas.h>
#endif

#include "aooct-cpu-nonuniform.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-omp.h"

#define NUDFT_BLOCK 4

typedef struct
{
  gfloat *c;                    /* NUDFT_BLOCK windowed complex A-lines,
                                 * samples long (absolute indices) */
  fftwf_complex *grid, *spec;   /* nufft: Q points */
} NuScratch;

struct _AooctCpuNonuniformPlan
{
  AooctKSampling mode;
  gint samples, j0, j1, n_threads;
  gfloat *matrix;               /* nudft */
  AooctNufftPlan *plan;         /* nufft */
  fftwf_plan fft;
  NuScratch *scratch;
  gfloat *batch;                /* nudft with BLAS: the windowed A-lines */
  gint batch_alines;
};

AooctCpuNonuniformPlan *
aooct_cpu_nonuniform_plan_new (const AooctGeometry * g,
    const gdouble * positions, gint n_threads, GError ** error)
{
  AooctCpuNonuniformPlan *nu = g_new0 (AooctCpuNonuniformPlan, 1);
  gint t;

  nu->mode = g->k_sampling;
  nu->samples = g->samples;
  nu->j0 = aooct_geometry_data_start (g);
  nu->j1 = aooct_geometry_data_end (g);
  nu->n_threads = MAX (n_threads, 1);
  nu->scratch = g_new0 (NuScratch, nu->n_threads);
  if (nu->mode == AOOCT_K_SAMPLING_NUDFT) {
    nu->matrix = aooct_nudft_matrix_new (g, positions);
  } else {
    nu->plan = aooct_nufft_plan_new (g, positions, g->nufft_kernel,
        g->nufft_oversampling, g->nufft_width, error);
    if (nu->plan == NULL) {
      aooct_cpu_nonuniform_plan_free (nu);
      return NULL;
    }
  }
  for (t = 0; t < nu->n_threads; t++) {
    nu->scratch[t].c = g_new0 (gfloat, 2 * (gsize) NUDFT_BLOCK * g->samples);
    if (nu->plan) {
      nu->scratch[t].grid = fftwf_alloc_complex (nu->plan->grid);
      nu->scratch[t].spec = fftwf_alloc_complex (nu->plan->grid);
    }
  }
  if (nu->plan) {
    aooct_fftw_lock ();
    nu->fft = fftwf_plan_dft_1d (nu->plan->grid, nu->scratch[0].grid,
        nu->scratch[0].spec, FFTW_FORWARD, AOOCT_CPU_PLAN_FLAGS);
    aooct_fftw_unlock ();
    if (nu->fft == NULL) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
          "FFTW cannot plan a complex FFT of %d points", nu->plan->grid);
      aooct_cpu_nonuniform_plan_free (nu);
      return NULL;
    }
  }
  return nu;
}

/* c = window * in over the data region, complex */
static void
load_aline (const AooctCpuNonuniformPlan * nu, const gfloat * x,
    gboolean complex_in, const gfloat * window, gfloat * c)
{
  gint i;

  for (i = nu->j0; i <= nu->j1; i++) {
    gfloat re = complex_in ? x[2 * i] : x[i];
    gfloat im = complex_in ? x[2 * i + 1] : 0.0f;

    if (window) {
      re = re * window[i];
      im = im * window[i];
    }
    c[2 * i] = re;
    c[2 * i + 1] = im;
  }
}

static void
nudft_block (const AooctCpuNonuniformPlan * nu, const gfloat * c, gint nb,
    gfloat * out)
{
  const gint nd = nu->j1 - nu->j0 + 1, p = nu->samples;
  gint m, j, b;

  for (m = 0; m < p; m++) {
    const gfloat *a = nu->matrix + 2 * (gsize) m * nd;
    gfloat re[NUDFT_BLOCK] = { 0 }, im[NUDFT_BLOCK] = { 0 };

    for (b = 0; b < nb; b++) {
      const gfloat *cb = c + 2 * ((gsize) b * p + nu->j0);
      gfloat sr = 0.0f, si = 0.0f;

      for (j = 0; j < nd; j++) {
        const gfloat ar = a[2 * j], ai = a[2 * j + 1];
        const gfloat cr = cb[2 * j], ci = cb[2 * j + 1];

        sr = sr + (ar * cr - ai * ci);
        si = si + (ar * ci + ai * cr);
      }
      re[b] = sr;
      im[b] = si;
    }
    for (b = 0; b < nb; b++) {
      out[2 * ((gsize) b * p + m)] = re[b];
      out[2 * ((gsize) b * p + m) + 1] = im[b];
    }
  }
}

static void
nufft_aline (const AooctCpuNonuniformPlan * nu, NuScratch * s, const gfloat * c,
    gfloat * out)
{
  const AooctNufftPlan *pl = nu->plan;
  gint n, e, m;

  for (n = 0; n < pl->grid; n++) {
    gfloat re = 0.0f, im = 0.0f;

    for (e = pl->row[n]; e < pl->row[n + 1]; e++) {
      const gfloat wr = pl->weight[2 * e], wi = pl->weight[2 * e + 1];
      const gfloat cr = c[2 * pl->col[e]], ci = c[2 * pl->col[e] + 1];

      re = re + (wr * cr - wi * ci);
      im = im + (wr * ci + wi * cr);
    }
    s->grid[n][0] = re;
    s->grid[n][1] = im;
  }
  fftwf_execute_dft (nu->fft, s->grid, s->spec);
  for (m = 0; m < pl->samples; m++) {
    const gint k = pl->bin[m];

    out[2 * m] = s->spec[k][0] * pl->deapod[m];
    out[2 * m + 1] = s->spec[k][1] * pl->deapod[m];
  }
}

void
aooct_cpu_nonuniform_execute (AooctCpuNonuniformPlan * nu, const gfloat * in,
    gboolean complex_in, const gfloat * window, gfloat * out, gint n_alines)
{
  const gint p = nu->samples;
  const gsize in_len = complex_in ? 2 * (gsize) p : (gsize) p;
  const gint blocks = (n_alines + NUDFT_BLOCK - 1) / NUDFT_BLOCK;
  gint blk;

#ifdef AOOCT_HAVE_CBLAS
  /* NUDFT: one complex matrix product for the whole buffer, column-major
   * out (P2 x alines) = A (P2 x nd, stored as its transpose) * C (the
   * data regions, ld P2), as cuBLAS does on the GPU */
  if (nu->matrix) {
    static const gfloat one[2] = { 1.0f, 0.0f }, zero[2] = { 0.0f, 0.0f };
    const gint nd = nu->j1 - nu->j0 + 1;
    gint a;

    if (nu->batch_alines < n_alines) {
      g_free (nu->batch);
      nu->batch = g_new0 (gfloat, 2 * (gsize) p * n_alines);
      nu->batch_alines = n_alines;
    }
#pragma omp parallel for schedule(static) num_threads(nu->n_threads) if ((gint64) n_alines * p >= AOOCT_CPU_PARALLEL_MIN)
    for (a = 0; a < n_alines; a++)
      load_aline (nu, in + (gsize) a * in_len, complex_in, window,
          nu->batch + 2 * (gsize) a * p);
    cblas_cgemm (CblasColMajor, CblasTrans, CblasNoTrans, p, n_alines, nd,
        one, nu->matrix, nd, nu->batch + 2 * nu->j0, p, zero, out, p);
    return;
  }
#endif

#pragma omp parallel for schedule(dynamic) num_threads(nu->n_threads) if (n_alines > 1)
  for (blk = 0; blk < blocks; blk++) {
    NuScratch *s = &nu->scratch[aooct_cpu_thread_index ()];
    const gint a0 = blk * NUDFT_BLOCK;
    const gint nb = MIN (NUDFT_BLOCK, n_alines - a0);
    gint b;

    for (b = 0; b < nb; b++)
      load_aline (nu, in + (gsize) (a0 + b) * in_len, complex_in, window,
          s->c + 2 * (gsize) b * p);
    if (nu->matrix) {
      nudft_block (nu, s->c, nb, out + 2 * (gsize) a0 * p);
    } else {
      for (b = 0; b < nb; b++)
        nufft_aline (nu, s, s->c + 2 * (gsize) b * p,
            out + 2 * (gsize) (a0 + b) * p);
    }
  }
}

void
aooct_cpu_nonuniform_plan_free (AooctCpuNonuniformPlan * nu)
{
  gint t;

  if (nu == NULL)
    return;
  if (nu->fft) {
    aooct_fftw_lock ();
    fftwf_destroy_plan (nu->fft);
    aooct_fftw_unlock ();
  }
  for (t = 0; t < nu->n_threads; t++) {
    g_free (nu->scratch[t].c);
    fftwf_free (nu->scratch[t].grid);
    fftwf_free (nu->scratch[t].spec);
  }
  g_free (nu->scratch);
  g_free (nu->batch);
  g_free (nu->matrix);
  aooct_nufft_plan_free (nu->plan);
  g_free (nu);
}
