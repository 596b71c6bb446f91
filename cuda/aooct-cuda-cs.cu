/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: compressive sensing (see aooct-cuda-cs.h). */
#include "aooct-cuda-cs.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-nonuniform.h"
#include "aooct-kspace.h"

#define ROW_THREADS 256

struct _AooctCudaCsPlan
{
  gint n, u, p, in_width, rows;
  float scale;
  int *pixel;
  float2 *disp;
  /* A^H, unscaled; with nudft it also applies A, with its own matrix */
  AooctCudaNonuniformPlan *adjoint;
  /* A, nufft */
  gint grid;
  int *bin, *irow, *ipoint;
  float2 *iweight;
  float *deapod;
  float2 *grid_in, *grid_out;   /* rows x grid */
  AooctCufftPlan inverse;
  gpointer plan_work;
  /* iteration state, rows x P complex (samples rows use the first U) */
  float2 *y, *r, *g;
  /* nudft: A x, transposed (U x rows, the A-line index fastest) */
  float2 *ax_t;
  double *alpha, *lambda, *step;
};

static gboolean
setup_nufft (AooctCudaCsPlan * c, const AooctCs * cs, const AooctGeometry * og,
    GError ** error)
{
  AooctNufftPlan *p = aooct_nufft_plan_new (og, cs->s, cs->nufft_kernel,
      cs->nufft_oversampling, cs->nufft_width, error);
  AooctCsInterp *in;
  gboolean ok;

  if (p == NULL)
    return FALSE;
  in = aooct_cs_interp_new (p, c->u);
  c->grid = p->grid;
  ok = aooct_cuda_upload_new ((gpointer *) & c->bin, p->bin, sizeof (int) * c->p, error)
      && aooct_cuda_upload_new ((gpointer *) & c->deapod, p->deapod,
      sizeof (float) * c->p, error)
      && aooct_cuda_upload_new ((gpointer *) & c->irow, in->row,
      sizeof (int) * (c->u + 1), error)
      && aooct_cuda_upload_new ((gpointer *) & c->ipoint, in->point,
      sizeof (int) * in->entries, error)
      && aooct_cuda_upload_new ((gpointer *) & c->iweight, in->weight,
      sizeof (float2) * in->entries, error);
  aooct_nufft_plan_free (p);
  aooct_cs_interp_free (in);
  if (!ok)
    return FALSE;
  ok = aooct_cuda_malloc ((gsize) c->rows * c->grid * sizeof (float2),
      (gpointer *) & c->grid_in, error)
      && aooct_cuda_malloc ((gsize) c->rows * c->grid * sizeof (float2),
      (gpointer *) & c->grid_out, error);
  if (!ok)
    return FALSE;
  /* the grid points that are no bin stay 0 for ever: only bins are
   * written, and the inverse FFT is out of place */
  AOOCT_CUDA_CHECK (cudaMemset (c->grid_in, 0,
          (gsize) c->rows * c->grid * sizeof (float2)), error,
      "aooctcs: grid clear");
  if (!aooct_cufft_plan_make (&c->inverse, c->grid, CUFFT_C2C, c->rows,
          c->grid, c->grid, "aooctcs inverse NUFFT grid", error))
    return FALSE;
  return aooct_cuda_malloc (MAX (c->inverse.work_bytes, 1), &c->plan_work,
      error) && aooct_cufft_plan_set_work (&c->inverse, c->plan_work, error);
}

AooctCudaCsPlan *
aooct_cuda_cs_plan_new (const AooctCs * cs, gsize rows, GError ** error)
{
  AooctCudaCsPlan *c = g_new0 (AooctCudaCsPlan, 1);
  AooctGeometry og;
  gsize state = rows * cs->p * sizeof (float2);
  gboolean ok;

  c->n = cs->n;
  c->u = cs->u;
  c->p = cs->p;
  c->in_width = cs->in_width;
  c->rows = (gint) rows;
  c->scale = (float) (1.0 / sqrt ((gdouble) cs->p));
  aooct_cs_operator_geometry (cs, &og);
  ok = aooct_cuda_upload_new ((gpointer *) & c->pixel, cs->pixel, sizeof (int) * c->u,
      error)
      && aooct_cuda_upload_new ((gpointer *) & c->disp, cs->disp,
      sizeof (float2) * c->u, error)
      && aooct_cuda_malloc (state, (gpointer *) & c->y, error)
      && aooct_cuda_malloc (state, (gpointer *) & c->r, error)
      && aooct_cuda_malloc (state, (gpointer *) & c->g, error)
      && aooct_cuda_malloc (rows * sizeof (double), (gpointer *) & c->alpha,
      error)
      && aooct_cuda_malloc (rows * sizeof (double), (gpointer *) & c->lambda,
      error)
      && aooct_cuda_malloc (rows * sizeof (double), (gpointer *) & c->step,
      error);
  if (ok) {
    c->adjoint = aooct_cuda_nonuniform_plan_new (&og, cs->s, rows, FALSE,
        error);
    ok = c->adjoint != NULL;
  }
  if (ok && cs->op == AOOCT_CS_OPERATOR_NUDFT)
    ok = aooct_cuda_malloc (rows * cs->u * sizeof (float2),
        (gpointer *) & c->ax_t, error);
  else if (ok)
    ok = setup_nufft (c, cs, &og, error);
  if (ok) {
    /* the grid clear (cudaMemset may return before it is done; the
     * element's non-blocking streams do not wait for the legacy stream) */
    cudaError_t err = cudaStreamSynchronize (0);

    if (err != cudaSuccess)
      ok = aooct_cuda_set_error (err, error, "aooctcs: grid clear");
  }
  if (!ok) {
    aooct_cuda_cs_plan_free (c);
    return NULL;
  }
  return c;
}

/* ---- kernels: one block of ROW_THREADS per A-line ----------------------- */

template < typename T > static __device__ T
block_reduce_sum (T v, T * sh)
{
  sh[threadIdx.x] = v;
  __syncthreads ();
  for (int s = ROW_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads ();
  }
  T r = sh[0];
  __syncthreads ();
  return r;
}

/* y = d * w, r = -y, x = 0, alpha = 1 */
static __global__ void
load_kernel (const float *in, const int *pixel, const float2 * disp,
    float2 * y, float2 * r, float2 * x, double *alpha, int in_width, int u,
    int p)
{
  const int a = blockIdx.x;
  const float *d = in + (size_t) a * in_width;

  for (int n = threadIdx.x; n < u; n += ROW_THREADS) {
    float v = d[in_width == u ? n : pixel[n]];
    float2 w = disp[n];
    float2 yy = make_float2 (__fmul_rn (v, w.x), __fmul_rn (v, w.y));

    y[(size_t) a * p + n] = yy;
    r[(size_t) a * p + n] = make_float2 (-yy.x, -yy.y);
  }
  for (int m = threadIdx.x; m < p; m += ROW_THREADS)
    x[(size_t) a * p + m] = make_float2 (0.0f, 0.0f);
  if (threadIdx.x == 0)
    alpha[a] = 1.0;
}

/* lambda = tau max |scale g| (g = -A^H y at the first iteration) */
static __global__ void
lambda_kernel (const float2 * g, double *lambda, float scale, float tau,
    int p)
{
  __shared__ float sh[ROW_THREADS];
  const int a = blockIdx.x;
  float mx = 0.0f;

  for (int m = threadIdx.x; m < p; m += ROW_THREADS) {
    float2 v = g[(size_t) a * p + m];
    float gr = __fmul_rn (v.x, scale), gi = __fmul_rn (v.y, scale);

    mx = fmaxf (mx, __fsqrt_rn (__fadd_rn (__fmul_rn (gr, gr),
                __fmul_rn (gi, gi))));
  }
  sh[threadIdx.x] = mx;
  __syncthreads ();
  for (int s = ROW_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sh[threadIdx.x] = fmaxf (sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads ();
  }
  if (threadIdx.x == 0)
    lambda[a] = (double) tau *sh[0];
}

/* x+ = soft (x - scale g / alpha, lambda / alpha); step = ||x+ - x||^2;
 * nufft: grid[bin[m]] = x+[m] deapod[m] */
static __global__ void
shrink_kernel (float2 * x, const float2 * g, const double *alpha,
    const double *lambda, double *step, float scale, int p,
    float2 * grid, const int *bin, const float *deapod, int q)
{
  __shared__ double sh[ROW_THREADS];
  const int a = blockIdx.x;
  const float ia = (float) (1.0 / alpha[a]);
  const float thr = (float) (lambda[a] / alpha[a]);
  double dd = 0.0;

  for (int m = threadIdx.x; m < p; m += ROW_THREADS) {
    const size_t i = (size_t) a * p + m;
    float2 xo = x[i], gv = g[i];
    float vr = __fsub_rn (xo.x, __fmul_rn (__fmul_rn (gv.x, scale), ia));
    float vi = __fsub_rn (xo.y, __fmul_rn (__fmul_rn (gv.y, scale), ia));
    float mag = __fsqrt_rn (__fadd_rn (__fmul_rn (vr, vr),
            __fmul_rn (vi, vi)));
    float f = mag > thr ? __fdiv_rn (__fsub_rn (mag, thr), mag) : 0.0f;
    float nr = __fmul_rn (vr, f), ni = __fmul_rn (vi, f);
    double dr = (double) __fsub_rn (nr, xo.x);
    double di = (double) __fsub_rn (ni, xo.y);

    dd += dr * dr + di * di;
    x[i] = make_float2 (nr, ni);
    if (grid)
      grid[(size_t) a * q + bin[m]] = make_float2 (__fmul_rn (nr, deapod[m]),
          __fmul_rn (ni, deapod[m]));
  }
  dd = block_reduce_sum < double >(dd, sh);
  if (threadIdx.x == 0)
    step[a] = dd;
}

/* r+ = scale A x+ - y (A x+ from ax_t, or interpolated from the inverse
 * FFT'd grid), ||r+ - r||^2, alpha */
static __global__ void
resid_kernel (float2 * r, const float2 * y, const float2 * ax_t,
    const float2 * grid, const int *irow, const int *ipoint,
    const float2 * iweight, int q, double *alpha, const double *step,
    float scale, int u, int p)
{
  __shared__ double sh[ROW_THREADS];
  const int a = blockIdx.x;
  double rr = 0.0;

  for (int n = threadIdx.x; n < u; n += ROW_THREADS) {
    const size_t i = (size_t) a * p + n;
    float2 v;

    if (grid) {
      const float2 *gr = grid + (size_t) a * q;
      float re = 0.0f, im = 0.0f;

      for (int e = irow[n]; e < irow[n + 1]; e++) {
        float2 w = iweight[e], gv = gr[ipoint[e]];
        re = __fadd_rn (re, __fsub_rn (__fmul_rn (w.x, gv.x),
                __fmul_rn (w.y, gv.y)));
        im = __fadd_rn (im, __fadd_rn (__fmul_rn (w.x, gv.y),
                __fmul_rn (w.y, gv.x)));
      }
      v = make_float2 (re, im);
    } else {
      v = ax_t[(size_t) n * gridDim.x + a];
    }
    float2 yy = y[i], ro = r[i];
    float nr = __fsub_rn (__fmul_rn (v.x, scale), yy.x);
    float ni = __fsub_rn (__fmul_rn (v.y, scale), yy.y);
    double er = (double) nr - ro.x, ei = (double) ni - ro.y;

    rr += er * er + ei * ei;
    r[i] = make_float2 (nr, ni);
  }
  rr = block_reduce_sum < double >(rr, sh);
  /* rr == 0: converged at float precision, alpha kept (as the CPU core) */
  if (threadIdx.x == 0 && step[a] > 0.0 && rr > 0.0)
    alpha[a] = fmin (fmax (rr / step[a], AOOCT_CS_ALPHA_MIN),
        AOOCT_CS_ALPHA_MAX);
}

gboolean
aooct_cuda_cs_execute (AooctCudaCsPlan * c, const gfloat * in, gfloat * out,
    gdouble tau, gint iterations, AooctCudaStream stream, GError ** error)
{
  cudaStream_t st = (cudaStream_t) stream;
  float2 *x = (float2 *) out;
  gint it;

  load_kernel <<< c->rows, ROW_THREADS, 0, st >>> (in, c->pixel, c->disp,
      c->y, c->r, x, c->alpha, c->in_width, c->u, c->p);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctcs: load kernel");
  if (c->grid && !aooct_cufft_plan_set_stream (&c->inverse, st, error))
    return FALSE;

  for (it = 0; it < iterations; it++) {
    if (!aooct_cuda_nonuniform_execute (c->adjoint, (const gfloat *) c->r,
            (gfloat *) c->g, stream, error))
      return FALSE;
    if (it == 0) {
      lambda_kernel <<< c->rows, ROW_THREADS, 0, st >>> (c->g, c->lambda,
          c->scale, (float) tau, c->p);
      AOOCT_CUDA_CHECK_LAUNCH (error, "aooctcs: lambda kernel");
    }
    shrink_kernel <<< c->rows, ROW_THREADS, 0, st >>> (x, c->g, c->alpha,
        c->lambda, c->step, c->scale, c->p, c->grid ? c->grid_in : NULL,
        c->bin, c->deapod, c->grid);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctcs: shrinkage kernel");
    if (c->grid) {
      AOOCT_CUFFT_CHECK (cufftExecC2C (c->inverse.handle, c->grid_in,
              c->grid_out, CUFFT_INVERSE), error, "aooctcs: inverse cuFFT "
          "of %d x %d points", c->rows, c->grid);
    } else if (!aooct_cuda_nonuniform_nudft_adjoint_t (c->adjoint,
            (const gfloat *) x, (gfloat *) c->ax_t, stream, error)) {
      return FALSE;
    }
    resid_kernel <<< c->rows, ROW_THREADS, 0, st >>> (c->r, c->y, c->ax_t,
        c->grid ? c->grid_out : NULL, c->irow, c->ipoint, c->iweight,
        c->grid, c->alpha, c->step, c->scale, c->u, c->p);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctcs: residual kernel");
  }
  return TRUE;
}

void
aooct_cuda_cs_plan_free (AooctCudaCsPlan * c)
{
  if (c == NULL)
    return;
  aooct_cuda_nonuniform_plan_free (c->adjoint);
  aooct_cufft_plan_destroy (&c->inverse);
  aooct_cuda_free (c->plan_work);
  aooct_cuda_free (c->pixel);
  aooct_cuda_free (c->disp);
  aooct_cuda_free (c->bin);
  aooct_cuda_free (c->irow);
  aooct_cuda_free (c->ipoint);
  aooct_cuda_free (c->iweight);
  aooct_cuda_free (c->deapod);
  aooct_cuda_free (c->grid_in);
  aooct_cuda_free (c->grid_out);
  aooct_cuda_free (c->y);
  aooct_cuda_free (c->r);
  aooct_cuda_free (c->g);
  aooct_cuda_free (c->ax_t);
  aooct_cuda_free (c->alpha);
  aooct_cuda_free (c->lambda);
  aooct_cuda_free (c->step);
  g_free (c);
}
