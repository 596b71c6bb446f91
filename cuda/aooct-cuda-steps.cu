/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA cores: the kernels of the fused pass before the FFT
 * (aooctpad's tail, aooctkmap, aooctdisp and aooctfft's window in one
 * pass) and of aooctdisp's weighting of complex spectra, both launched by
 * aooct-cuda-prep.cu.  See aooct-cuda-steps.h for the contract of each
 * function; the launch shape is aooct-cuda-launch.cuh's.  The kernels of
 * each single step live with it (aooct-cuda-STEP.cu). */
#include "aooct-cuda-steps.h"
#include "aooct-cuda-launch.cuh"
#include "aooct-cuda-prep.cuh"

/* aooctkmap, aooctdisp and aooctfft's window, each optional, in one pass:
 * the same operations as aooct-cuda-kmap.cu's kmap_kernel, then x * w (a real times a complex),
 * then v * window, each rounded as in the separate kernels (no
 * contraction), so the result is bit-identical to running them in turn.
 * The NULL tests are uniform across the grid. */
static __global__ void
prep_kernel (const float *in, float2 * out, int pad, float pad_scale,
    int pj0, int pj1, const int *index, const float *frac, int j0, int j1,
    const float2 * w, const float *window, int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  const bool pad_inside = i >= pj0 && i <= pj1;
  const float2 wi = w ? w[i] : make_float2 (1.0f, 0.0f);
  const float win = window ? window[i] : 1.0f;
  AOOCT_FOR_ROWS (r, rows) {
    const float x = aooct_cuda_prep_resample (in + (size_t) r * p2, index,
        frac, j0, j1, i);
    const float2 c = aooct_cuda_prep_finish (x, pad, pad_inside, pad_scale,
        w, wi, window, win);

    out[(size_t) r * p2 + i] = c;
  }
}

extern "C" cudaError_t
aooct_cuda_prep (const float *in, float2 * out, int pad, float pad_scale,
    int pad_j0, int pad_j1, const int *index, const float *frac, int j0,
    int j1, const float2 * w, const float *window, int p2, int rows,
    cudaStream_t stream)
{
  prep_kernel <<< aooct_cuda_grid (p2, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (in, out, pad, pad_scale, pad_j0,
          pad_j1, index, frac, j0, j1, w, window, p2, rows);
  return cudaGetLastError ();
}

static __global__ void
disp_complex_kernel (const float2 * in, float2 * out, const float2 * w,
    int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  const float2 wi = w[i];
  AOOCT_FOR_ROWS (r, rows) {
    size_t idx = (size_t) r * p2 + i;
    const float2 x = in[idx];
    out[idx] = make_float2 (x.x * wi.x - x.y * wi.y, x.x * wi.y + x.y * wi.x);
  }
}

extern "C" cudaError_t
aooct_cuda_disp_complex (const float2 * in, float2 * out, const float2 * w,
    int p2, int rows, cudaStream_t stream)
{
  disp_complex_kernel <<< aooct_cuda_grid (p2, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (in, out, w, p2, rows);
  return cudaGetLastError ();
}
