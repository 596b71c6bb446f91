/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: compressive sensing (see aooct-cpu-cs.h). */
#include <math.h>
#include <string.h>
#include <fftw3.h>

#include "aooct-cpu-cs.h"
#include "aooct-cpu-nonuniform.h"
#include "aooct-error.h"
#include "aooct-fftw.h"

#define FWD_BLOCK 4

typedef struct
{
  fftwf_complex *grid;          /* nufft: Q points */
} CsScratch;

struct _AooctCpuCsPlan
{
  gint n, u, p, in_width, n_threads;
  gfloat scale;                 /* P^-1/2 */
  gint32 *pixel;
  gfloat *disp;
  AooctCpuNonuniformPlan *adjoint;      /* A^H without the scale */
  /* A */
  gfloat *matrix;               /* nudft: P rows of U complex,
                                 * exp(-2 pi i m s_n / P) */
  AooctNufftPlan *plan;         /* nufft: deapod, bins */
  AooctCsInterp *interp;
  fftwf_plan inverse;
  CsScratch *scratch;
  /* per buffer, all rows P complex floats (the first U used where the
   * row holds samples) */
  gint alines;
  gfloat *y, *r, *g, *ax;
  gdouble *alpha, *lambda, *step;       /* per A-line */
};

AooctCpuCsPlan *
aooct_cpu_cs_plan_new (const AooctCs * cs, gint n_threads, GError ** error)
{
  AooctCpuCsPlan *c = g_new0 (AooctCpuCsPlan, 1);
  AooctGeometry og;
  gint t;

  c->n = cs->n;
  c->u = cs->u;
  c->p = cs->p;
  c->in_width = cs->in_width;
  c->scale = (gfloat) (1.0 / sqrt ((gdouble) cs->p));
  c->n_threads = MAX (n_threads, 1);
  c->pixel = g_memdup2 (cs->pixel, sizeof (gint32) * cs->u);
  c->disp = g_memdup2 (cs->disp, 2 * sizeof (gfloat) * cs->u);
  c->scratch = g_new0 (CsScratch, c->n_threads);

  aooct_cs_operator_geometry (cs, &og);
  c->adjoint = aooct_cpu_nonuniform_plan_new (&og, cs->s, c->n_threads, error);
  if (c->adjoint == NULL)
    goto fail;
  if (cs->op == AOOCT_CS_OPERATOR_NUDFT) {
    c->matrix = aooct_nudft_matrix_new (&og, cs->s);
  } else {
    c->plan = aooct_nufft_plan_new (&og, cs->s, cs->nufft_kernel,
        cs->nufft_oversampling, cs->nufft_width, error);
    if (c->plan == NULL)
      goto fail;
    c->interp = aooct_cs_interp_new (c->plan, c->u);
    for (t = 0; t < c->n_threads; t++)
      c->scratch[t].grid = fftwf_alloc_complex (c->plan->grid);
    aooct_fftw_lock ();
    c->inverse = fftwf_plan_dft_1d (c->plan->grid, c->scratch[0].grid,
        c->scratch[0].grid, FFTW_BACKWARD, AOOCT_CPU_PLAN_FLAGS);
    aooct_fftw_unlock ();
    if (c->inverse == NULL) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
          "FFTW cannot plan an inverse complex FFT of %d points",
          c->plan->grid);
      goto fail;
    }
  }
  return c;
fail:
  aooct_cpu_cs_plan_free (c);
  return NULL;
}

static void
ensure_buffers (AooctCpuCsPlan * c, gint alines)
{
  gsize len = 2 * (gsize) c->p * alines;

  if (c->alines >= alines)
    return;
  g_free (c->y);
  g_free (c->r);
  g_free (c->g);
  g_free (c->ax);
  g_free (c->alpha);
  g_free (c->lambda);
  g_free (c->step);
  /* zeroed: the nonuniform core reads whole rows' data region only, but
   * the rows' tails stay defined */
  c->y = g_new0 (gfloat, len);
  c->r = g_new0 (gfloat, len);
  c->g = g_new0 (gfloat, len);
  c->ax = g_new0 (gfloat, len);
  c->alpha = g_new0 (gdouble, alines);
  c->lambda = g_new0 (gdouble, alines);
  c->step = g_new0 (gdouble, alines);
  c->alines = alines;
}

/* A of @nb A-lines (rows of P complex) into @out (rows of P, first U) */
static void
forward_nudft (const AooctCpuCsPlan * c, const gfloat * x, gint nb,
    gfloat * out)
{
  const gint u = c->u, p = c->p;
  gint m, n, b;

  for (b = 0; b < nb; b++)
    memset (out + 2 * (gsize) b * p, 0, 2 * sizeof (gfloat) * u);
  /* out[n] += conj (M[m][n]) x[m], m outer: each row of M read once per
   * block of A-lines */
  for (m = 0; m < p; m++) {
    const gfloat *a = c->matrix + 2 * (gsize) m * u;

    for (b = 0; b < nb; b++) {
      const gfloat xr = x[2 * ((gsize) b * p + m)];
      const gfloat xi = x[2 * ((gsize) b * p + m) + 1];
      gfloat *o = out + 2 * (gsize) b * p;

      if (xr == 0.0f && xi == 0.0f)
        continue;               /* sparse x: most bins are 0 */
      for (n = 0; n < u; n++) {
        const gfloat ar = a[2 * n], ai = a[2 * n + 1];

        o[2 * n] = o[2 * n] + (ar * xr + ai * xi);
        o[2 * n + 1] = o[2 * n + 1] + (ar * xi - ai * xr);
      }
    }
  }
}

static void
forward_nufft (const AooctCpuCsPlan * c, CsScratch * s, const gfloat * x,
    gfloat * out)
{
  const AooctCsInterp *in = c->interp;
  const AooctNufftPlan *pl = c->plan;
  gint k, n, e;

  for (k = 0; k < in->grid; k++) {
    const gint m = in->bin_of_point[k];

    if (m < 0) {
      s->grid[k][0] = 0.0f;
      s->grid[k][1] = 0.0f;
    } else {
      s->grid[k][0] = x[2 * m] * pl->deapod[m];
      s->grid[k][1] = x[2 * m + 1] * pl->deapod[m];
    }
  }
  fftwf_execute_dft (c->inverse, s->grid, s->grid);
  for (n = 0; n < in->samples; n++) {
    gfloat re = 0.0f, im = 0.0f;

    for (e = in->row[n]; e < in->row[n + 1]; e++) {
      const gfloat wr = in->weight[2 * e], wi = in->weight[2 * e + 1];
      const gfloat gr = s->grid[in->point[e]][0];
      const gfloat gi = s->grid[in->point[e]][1];

      re = re + (wr * gr - wi * gi);
      im = im + (wr * gi + wi * gr);
    }
    out[2 * n] = re;
    out[2 * n + 1] = im;
  }
}

/* c->ax = A x (unscaled) for every A-line */
static void
apply_forward (AooctCpuCsPlan * c, const gfloat * x, gint alines)
{
  const gint blocks = (alines + FWD_BLOCK - 1) / FWD_BLOCK;
  gint blk;

#pragma omp parallel for schedule(dynamic) num_threads(c->n_threads) if (alines > 1)
  for (blk = 0; blk < blocks; blk++) {
    const gint a0 = blk * FWD_BLOCK, nb = MIN (FWD_BLOCK, alines - a0);
    const gsize off = 2 * (gsize) a0 * c->p;
    gint b;

    if (c->matrix) {
      forward_nudft (c, x + off, nb, c->ax + off);
    } else {
      CsScratch *s = &c->scratch[aooct_cpu_thread_index ()];

      for (b = 0; b < nb; b++)
        forward_nufft (c, s, x + off + 2 * (gsize) b * c->p,
            c->ax + off + 2 * (gsize) b * c->p);
    }
  }
}

void
aooct_cpu_cs_execute (AooctCpuCsPlan * c, const gfloat * in, gfloat * out,
    gint alines, gdouble tau_in, gint iterations)
{
  const gfloat tau = (gfloat) tau_in;
  const gint u = c->u, p = c->p;
  const gfloat sc = c->scale;
  gint a, it;

  ensure_buffers (c, alines);
  /* y = d * w (dispersion removed), r = -y, x = 0, alpha = 1 */
#pragma omp parallel for schedule(static) num_threads(c->n_threads) if ((gint64) alines * p >= AOOCT_CPU_PARALLEL_MIN)
  for (a = 0; a < alines; a++) {
    const gfloat *d = in + (gsize) a * c->in_width;
    gfloat *y = c->y + 2 * (gsize) a * p, *r = c->r + 2 * (gsize) a *p;
    gint n;

    for (n = 0; n < u; n++) {
      gfloat v = d[c->in_width == u ? n : c->pixel[n]];

      y[2 * n] = v * c->disp[2 * n];
      y[2 * n + 1] = v * c->disp[2 * n + 1];
      r[2 * n] = -y[2 * n];
      r[2 * n + 1] = -y[2 * n + 1];
    }
    memset (out + 2 * (gsize) a * p, 0, 2 * sizeof (gfloat) * p);
    c->alpha[a] = 1.0;
  }

  for (it = 0; it < iterations; it++) {
    /* g = A^H r */
    aooct_cpu_nonuniform_execute (c->adjoint, c->r, TRUE, NULL, c->g, alines);
    if (it == 0) {
      /* lambda_r = tau max |A^H y|, and A^H y = -g now */
#pragma omp parallel for schedule(static) num_threads(c->n_threads) if ((gint64) alines * p >= AOOCT_CPU_PARALLEL_MIN)
      for (a = 0; a < alines; a++) {
        const gfloat *g = c->g + 2 * (gsize) a * p;
        gfloat mx = 0.0f;
        gint m;

        for (m = 0; m < p; m++) {
          gfloat gr = g[2 * m] * sc, gi = g[2 * m + 1] * sc;

          mx = MAX (mx, sqrtf (gr * gr + gi * gi));
        }
        c->lambda[a] = tau * mx;
      }
    }
    /* x+ = soft (x - g / alpha, lambda / alpha), in place in out, and
     * ||d||^2 = ||x+ - x||^2 per A-line */
#pragma omp parallel for schedule(static) num_threads(c->n_threads) if ((gint64) alines * p >= AOOCT_CPU_PARALLEL_MIN)
    for (a = 0; a < alines; a++) {
      gfloat *x = out + 2 * (gsize) a * p;
      const gfloat *g = c->g + 2 * (gsize) a * p;
      const gfloat ia = (gfloat) (1.0 / c->alpha[a]);
      const gfloat thr = (gfloat) (c->lambda[a] / c->alpha[a]);
      gdouble dd = 0.0;
      gint m;

      for (m = 0; m < p; m++) {
        gfloat vr = x[2 * m] - g[2 * m] * sc * ia;
        gfloat vi = x[2 * m + 1] - g[2 * m + 1] * sc * ia;
        gfloat mag = sqrtf (vr * vr + vi * vi), f, nr, ni, dr, di;

        f = mag > thr ? (mag - thr) / mag : 0.0f;
        nr = vr * f;
        ni = vi * f;
        dr = nr - x[2 * m];
        di = ni - x[2 * m + 1];
        dd += (gdouble) dr *dr + (gdouble) di *di;
        x[2 * m] = nr;
        x[2 * m + 1] = ni;
      }
      c->step[a] = dd;
    }
    /* r+ = A x+ - y; alpha = ||r+ - r||^2 / ||d||^2 */
    apply_forward (c, out, alines);
#pragma omp parallel for schedule(static) num_threads(c->n_threads) if ((gint64) alines * p >= AOOCT_CPU_PARALLEL_MIN)
    for (a = 0; a < alines; a++) {
      gfloat *r = c->r + 2 * (gsize) a * p;
      const gfloat *ax = c->ax + 2 * (gsize) a * p;
      const gfloat *y = c->y + 2 * (gsize) a * p;
      const gdouble dd = c->step[a];
      gdouble rr = 0.0;
      gint n;

      for (n = 0; n < u; n++) {
        gfloat nr = ax[2 * n] * sc - y[2 * n];
        gfloat ni = ax[2 * n + 1] * sc - y[2 * n + 1];
        gdouble er = (gdouble) nr - r[2 * n], ei = (gdouble) ni - r[2 * n + 1];

        rr += er * er + ei * ei;
        r[2 * n] = nr;
        r[2 * n + 1] = ni;
      }
      /* rr == 0 with dd > 0: the step no longer changes the residual at
       * float precision (converged); the clamped quotient 1e-30 would
       * make the next step overflow, so alpha is kept (docs/cs.md) */
      if (dd > 0.0 && rr > 0.0)
        c->alpha[a] = CLAMP (rr / dd, AOOCT_CS_ALPHA_MIN, AOOCT_CS_ALPHA_MAX);
    }
  }
}

void
aooct_cpu_cs_plan_free (AooctCpuCsPlan * c)
{
  gint t;

  if (c == NULL)
    return;
  if (c->inverse) {
    aooct_fftw_lock ();
    fftwf_destroy_plan (c->inverse);
    aooct_fftw_unlock ();
  }
  for (t = 0; t < c->n_threads; t++)
    fftwf_free (c->scratch[t].grid);
  g_free (c->scratch);
  aooct_cpu_nonuniform_plan_free (c->adjoint);
  aooct_nufft_plan_free (c->plan);
  aooct_cs_interp_free (c->interp);
  g_free (c->matrix);
  g_free (c->pixel);
  g_free (c->disp);
  g_free (c->y);
  g_free (c->r);
  g_free (c->g);
  g_free (c->ax);
  g_free (c->alpha);
  g_free (c->lambda);
  g_free (c->step);
  g_free (c);
}
