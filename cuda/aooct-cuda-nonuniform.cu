/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: non-uniform DFT (see aooct-cuda-nonuniform.h). */
#include <cublas_v2.h>

#include "aooct-cuda-nonuniform.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-cufft.h"
#include "aooct-kspace.h"

struct _AooctCudaNonuniformPlan
{
  AooctKSampling mode;
  gint samples, j0, j1, rows;
  float2 *work;                 /* rows x samples */
  /* nudft */
  cublasHandle_t blas;
  float2 *matrix;               /* nd x samples, column-major (= A row-major) */
  /* nufft */
  gint grid;
  int *row, *col, *bin;
  float2 *weight;
  float *deapod;
  float2 *grids;                /* rows x grid */
  AooctCufftPlan plan;
  gpointer plan_work;
};

static const gchar *
cublas_status_name (cublasStatus_t s)
{
  switch (s) {
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    default:
      return "cuBLAS error";
  }
}

#define AOOCT_CUBLAS_CHECK(call, error, what) G_STMT_START {           \
    cublasStatus_t _s = (call);                                        \
    if (G_UNLIKELY (_s != CUBLAS_STATUS_SUCCESS)) {                    \
      g_set_error ((error), AOOCT_ERROR, AOOCT_ERROR_FAILED,           \
          "%s failed: %s (%d)", (what), cublas_status_name (_s), (int) _s); \
      return FALSE;                                                    \
    }                                                                  \
  } G_STMT_END

static gboolean
setup_nudft (AooctCudaNonuniformPlan * nu, const AooctGeometry * g,
    const gdouble * positions, GError ** error)
{
  const gsize nd = nu->j1 - nu->j0 + 1;
  gfloat *a = aooct_nudft_matrix_new (g, positions);
  gboolean ok;

  ok = aooct_cuda_upload_new ((gpointer *) & nu->matrix, a,
      nd * nu->samples * sizeof (float2), error);
  g_free (a);
  if (!ok)
    return FALSE;
  AOOCT_CUBLAS_CHECK (cublasCreate (&nu->blas), error, "cublasCreate");
  /* plain float32 arithmetic: no TF32 tensor-core shortcut, whose 10-bit
   * mantissa would miss the Accuracy section */
  AOOCT_CUBLAS_CHECK (cublasSetMathMode (nu->blas, CUBLAS_PEDANTIC_MATH),
      error, "cublasSetMathMode");
  return TRUE;
}

static gboolean
setup_nufft (AooctCudaNonuniformPlan * nu, const AooctGeometry * g,
    const gdouble * positions, GError ** error)
{
  AooctNufftPlan *p = aooct_nufft_plan_new (g, positions,
      (AooctNufftKernel) g->nufft_kernel, g->nufft_oversampling,
      g->nufft_width, error);
  gchar *what;
  gboolean ok;

  if (p == NULL)
    return FALSE;
  nu->grid = p->grid;
  ok = aooct_cuda_upload_new ((gpointer *) & nu->row, p->row,
      (gsize) (p->grid + 1) * sizeof (int), error)
      && aooct_cuda_upload_new ((gpointer *) & nu->col, p->col,
      (gsize) p->entries * sizeof (int), error)
      && aooct_cuda_upload_new ((gpointer *) & nu->weight, p->weight,
      (gsize) p->entries * sizeof (float2), error)
      && aooct_cuda_upload_new ((gpointer *) & nu->bin, p->bin,
      (gsize) p->samples * sizeof (int), error)
      && aooct_cuda_upload_new ((gpointer *) & nu->deapod, p->deapod,
      (gsize) p->samples * sizeof (float), error);
  aooct_nufft_plan_free (p);
  if (!ok || !aooct_cuda_malloc ((gsize) nu->rows * nu->grid * sizeof (float2),
          (gpointer *) & nu->grids, error))
    return FALSE;
  what = g_strdup_printf ("aooctfft NUFFT C2C of %d points", nu->grid);
  ok = aooct_cufft_plan_make (&nu->plan, nu->grid, CUFFT_C2C, nu->rows,
      nu->grid, nu->grid, what, error);
  g_free (what);
  return ok
      && aooct_cuda_malloc (MAX (nu->plan.work_bytes, 1), &nu->plan_work,
      error) && aooct_cufft_plan_set_work (&nu->plan, nu->plan_work, error);
}

AooctCudaNonuniformPlan *
aooct_cuda_nonuniform_plan_new (const AooctGeometry * g,
    const gdouble * positions,
    gsize rows, gboolean with_work, GError ** error)
{
  AooctCudaNonuniformPlan *nu = g_new0 (AooctCudaNonuniformPlan, 1);
  gboolean ok = TRUE;

  nu->mode = g->k_sampling;
  nu->samples = g->samples;
  nu->j0 = aooct_geometry_data_start (g);
  nu->j1 = aooct_geometry_data_end (g);
  nu->rows = (gint) rows;
  if (with_work)
    ok = aooct_cuda_malloc (rows * g->samples * sizeof (float2),
        (gpointer *) & nu->work, error);
  if (ok)
    ok = nu->mode == AOOCT_K_SAMPLING_NUDFT ?
        setup_nudft (nu, g, positions, error) :
        setup_nufft (nu, g, positions, error);
  if (!ok) {
    aooct_cuda_nonuniform_plan_free (nu);
    return NULL;
  }
  return nu;
}

gfloat *
aooct_cuda_nonuniform_work (AooctCudaNonuniformPlan * nu)
{
  return (gfloat *) nu->work;
}

/* grid point n of GRID_ROWS A-lines: the gather of its row of the
 * gridding matrix (same order and rounding as the CPU core); the row's
 * entries are read once from memory and then from L1 for the other
 * A-lines */
#define GRID_ROWS 8

static __global__ void
grid_kernel (const float2 * c, float2 * grids, const int *row,
    const int *col, const float2 * weight, int samples, int grid, int rows)
{
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  int r0 = blockIdx.y * GRID_ROWS;

  if (n >= grid)
    return;
  const int e0 = row[n], e1 = row[n + 1];
  for (int r = r0; r < r0 + GRID_ROWS && r < rows; r++) {
    const float2 *cr = c + (size_t) r * samples;
    float re = 0.0f, im = 0.0f;
    for (int e = e0; e < e1; e++) {
      float2 w = weight[e], v = cr[col[e]];
      re = __fadd_rn (re, __fsub_rn (__fmul_rn (w.x, v.x), __fmul_rn (w.y,
                  v.y)));
      im = __fadd_rn (im, __fadd_rn (__fmul_rn (w.x, v.y), __fmul_rn (w.y,
                  v.x)));
    }
    grids[(size_t) r * grid + n] = make_float2 (re, im);
  }
}

static __global__ void
deapod_kernel (const float2 * grids, float2 * out, const int *bin,
    const float *deapod, int samples, int grid, int rows)
{
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;

  if (m >= samples || r >= rows)
    return;
  float2 v = grids[(size_t) r * grid + bin[m]];
  float d = deapod[m];
  out[(size_t) r * samples + m] = make_float2 (v.x * d, v.y * d);
}

gboolean
aooct_cuda_nonuniform_execute (AooctCudaNonuniformPlan * nu,
    const gfloat * work,
    gfloat * out, AooctCudaStream stream, GError ** error)
{
  const float2 *c = (const float2 *) work;

  if (nu->mode == AOOCT_K_SAMPLING_NUDFT) {
    const cuComplex one = make_cuComplex (1.0f, 0.0f);
    const cuComplex zero = make_cuComplex (0.0f, 0.0f);
    const int nd = nu->j1 - nu->j0 + 1;

    AOOCT_CUBLAS_CHECK (cublasSetStream (nu->blas, (cudaStream_t) stream),
        error, "cublasSetStream");
    /* column-major: out (P2 x rows) = A (P2 x nd, stored as its transpose
     * nd x P2) * C (the data regions: nd x rows, ld P2) */
    AOOCT_CUBLAS_CHECK (cublasCgemm (nu->blas, CUBLAS_OP_T, CUBLAS_OP_N,
            nu->samples, nu->rows, nd, &one, (const cuComplex *) nu->matrix,
            nd, (const cuComplex *) (c + nu->j0), nu->samples, &zero,
            (cuComplex *) out, nu->samples), error,
        "aooctfft: NUDFT cublasCgemm");
    return TRUE;
  } else {
    gint done = 0;

    while (done < nu->rows) {
      int now = MIN (nu->rows - done, 65535 * GRID_ROWS);
      dim3 gg ((nu->grid + 127) / 128, (now + GRID_ROWS - 1) / GRID_ROWS);

      grid_kernel <<< gg, 128, 0, (cudaStream_t) stream >>> (c +
          (gsize) done * nu->samples, nu->grids + (gsize) done * nu->grid,
          nu->row, nu->col, nu->weight, nu->samples, nu->grid, now);
      AOOCT_CUDA_CHECK_LAUNCH (error, "aooctfft: NUFFT gridding kernel");
      done += now;
    }
    if (!aooct_cufft_plan_set_stream (&nu->plan, (cudaStream_t) stream,
            error))
      return FALSE;
    AOOCT_CUFFT_CHECK (cufftExecC2C (nu->plan.handle, nu->grids, nu->grids,
            CUFFT_FORWARD), error, "aooctfft: NUFFT cufftExecC2C of %d x %d "
        "points", nu->rows, nu->grid);
    done = 0;
    while (done < nu->rows) {
      int now = MIN (nu->rows - done, 65535);
      dim3 dg ((nu->samples + 255) / 256, now);

      deapod_kernel <<< dg, 256, 0, (cudaStream_t) stream >>> (nu->grids +
          (gsize) done * nu->grid, (float2 *) out + (gsize) done * nu->samples,
          nu->bin, nu->deapod, nu->samples, nu->grid, now);
      AOOCT_CUDA_CHECK_LAUNCH (error, "aooctfft: NUFFT deapodisation kernel");
      done += now;
    }
    return TRUE;
  }
}

gboolean
aooct_cuda_nonuniform_nudft_adjoint_t (AooctCudaNonuniformPlan * nu,
    const gfloat * x, gfloat * out_t, AooctCudaStream stream, GError ** error)
{
  const cuComplex one = make_cuComplex (1.0f, 0.0f);
  const cuComplex zero = make_cuComplex (0.0f, 0.0f);
  const int nd = nu->j1 - nu->j0 + 1;

  if (nu->mode != AOOCT_K_SAMPLING_NUDFT) {
    /* a caller's mistake, but an element error rather than a crash */
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "aooctcs: the NUDFT adjoint asked of a NUFFT operator");
    return FALSE;
  }
  AOOCT_CUBLAS_CHECK (cublasSetStream (nu->blas, (cudaStream_t) stream),
      error, "cublasSetStream");
  /* column-major: out_t (rows x nd) = x^T (rows x P2) * M^H (P2 x nd),
   * M the stored nd x P2 (= A^T), so M^H = conj (A) and out_t =
   * (A^H x)^T */
  AOOCT_CUBLAS_CHECK (cublasCgemm (nu->blas, CUBLAS_OP_T, CUBLAS_OP_C,
          nu->rows, nd, nu->samples, &one, (const cuComplex *) x,
          nu->samples, (const cuComplex *) nu->matrix, nd, &zero,
          (cuComplex *) out_t, nu->rows), error,
      "aooctcs: NUDFT adjoint cublasCgemm");
  return TRUE;
}

void
aooct_cuda_nonuniform_plan_free (AooctCudaNonuniformPlan * nu)
{
  if (nu == NULL)
    return;
  if (nu->blas)
    cublasDestroy (nu->blas);
  aooct_cufft_plan_destroy (&nu->plan);
  aooct_cuda_free (nu->plan_work);
  aooct_cuda_free (nu->work);
  aooct_cuda_free (nu->matrix);
  aooct_cuda_free (nu->row);
  aooct_cuda_free (nu->col);
  aooct_cuda_free (nu->weight);
  aooct_cuda_free (nu->bin);
  aooct_cuda_free (nu->deapod);
  aooct_cuda_free (nu->grids);
  g_free (nu);
}
