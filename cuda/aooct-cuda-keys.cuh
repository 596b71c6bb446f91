/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: a value range reduced across blocks through order-preserving
 * integer keys (atomicMin / atomicMax on the int images of floats give the
 * float minimum / maximum whatever the order of the blocks), for the
 * kernels of the views and of aooctnorm's averaging.  NaN never reaches
 * the keys (fminf / fmaxf drop it, as the CPU's comparisons do). */
#ifndef __AOOCT_CUDA_KEYS_CUH__
#define __AOOCT_CUDA_KEYS_CUH__

#include <limits.h>

#include "aooct-norm.h"
#include "aooct-norm-range.h"

#define AOOCT_KEYS_THREADS 256

/* the range keys, then lo, the scale (q / (hi - lo)) and 1 / (hi - lo) */
typedef struct
{
  int min_key, max_key;
  float lo, scale, inv;
} AooctRangeKeys;

static __device__ __forceinline__ int
aooct_float_key (float f)
{
  int i = __float_as_int (f);
  return i >= 0 ? i : i ^ 0x7fffffff;
}

static __device__ __forceinline__ float
aooct_key_float (int k)
{
  return __int_as_float (k >= 0 ? k : k ^ 0x7fffffff);
}

/* The minimum / maximum of every thread's @lo / @hi, in thread 0's (a
 * block of any shape; @smin / @smax: a float per warp, in shared memory).
 * Every thread of the block must call it; another call may refill the
 * arrays only after a __syncthreads. */
static __device__ __forceinline__ void
aooct_block_min_max (float *lo, float *hi, float *smin, float *smax)
{
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int lane = tid & 31, warp = tid >> 5;
  float l = *lo, h = *hi;

  for (int o = 16; o > 0; o >>= 1) {
    l = fminf (l, __shfl_down_sync (0xffffffffu, l, o));
    h = fmaxf (h, __shfl_down_sync (0xffffffffu, h, o));
  }
  if (lane == 0) {
    smin[warp] = l;
    smax[warp] = h;
  }
  __syncthreads ();
  if (tid == 0) {
    for (int w = 1; w < (int) ((blockDim.x * blockDim.y) >> 5); w++) {
      l = fminf (l, smin[w]);
      h = fmaxf (h, smax[w]);
    }
  }
  *lo = l;
  *hi = h;
}

/* Folds the block's minimum / maximum of (lo, hi) into @range; every
 * thread of the block (of AOOCT_KEYS_THREADS) must call it. */
static __device__ void
aooct_keys_block_fold (float lo, float hi, AooctRangeKeys * range)
{
  __shared__ float smin[AOOCT_KEYS_THREADS / 32], smax[AOOCT_KEYS_THREADS / 32];

  aooct_block_min_max (&lo, &hi, smin, smax);
  if (threadIdx.x == 0 && lo <= hi) {
    atomicMin (&range->min_key, aooct_float_key (lo));
    atomicMax (&range->max_key, aooct_float_key (hi));
  }
}

#endif /* __AOOCT_CUDA_KEYS_CUH__ */
