/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: rolling background (see aooct-cuda-rolling.h). */
#include "aooct-cuda-rolling.h"
#include "aooct-cuda-check.h"

#define COLS 32
#define LANES 8

/* block: COLS columns x LANES row lanes; each lane sums every LANES-th
 * row of its column, the lanes' sums are added in shared memory, the
 * column's slot is written and the mean over the filled slots subtracted. */
static __global__ void
rolling_bscan (float *x, double *ring, int n, int alines, int pos, int count)
{
  __shared__ double part[LANES][COLS];
  __shared__ float mean[COLS];
  const int c = blockIdx.x * COLS + threadIdx.x;
  double sum = 0.0;

  if (c < n)
    for (int m = threadIdx.y; m < alines; m += LANES)
      sum += x[(size_t) m * n + c];
  part[threadIdx.y][threadIdx.x] = sum;
  __syncthreads ();
  if (threadIdx.y == 0 && c < n) {
    double all = 0.0;

    sum = 0.0;
    for (int l = 0; l < LANES; l++)
      sum += part[l][threadIdx.x];
    ring[(size_t) pos * n + c] = sum;
    for (int s = 0; s < count; s++)
      all += s == pos ? sum : ring[(size_t) s * n + c];
    mean[threadIdx.x] = (float) (all / ((double) count * alines));
  }
  __syncthreads ();
  if (c < n)
    for (int m = threadIdx.y; m < alines; m += LANES)
      x[(size_t) m * n + c] -= mean[threadIdx.x];
}

gboolean
aooct_cuda_rolling_bscan (AooctRolling * r, gdouble * ring, gfloat * x,
    gint alines, AooctCudaStream stream, GError ** error)
{
  const int count = MIN (r->count + 1, r->k);

  rolling_bscan <<< (r->samples + COLS - 1) / COLS, dim3 (COLS, LANES), 0,
      (cudaStream_t) stream >>> (x, ring, r->samples, alines, r->pos, count);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: rolling mean kernel");
  r->pos = (r->pos + 1) % r->k;
  r->count = count;
  return TRUE;
}
