/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: one sample of the fused pass before the FFT (spec sections 3
 * to 6, see aooct-cuda-prep.h), for every kernel that applies it: the
 * pass of its own (aooct-cuda-steps.cu) and the FIR resampling kernels
 * (aooct-cuda-prep.cu).  One definition, so that all of them give the
 * same bits as the separate steps (no contraction: the library is built
 * with --fmad=false). */
#ifndef __AOOCT_CUDA_PREP_CUH__
#define __AOOCT_CUDA_PREP_CUH__

#include "aooct-cuda-kmap.cuh"

/* The linear resampling of sample @i (@index NULL: none, the sample
 * itself); 0 outside the data region @j0..@j1. */
static __device__ __forceinline__ float
aooct_cuda_prep_resample (const float *row, const int *index,
    const float *frac, int j0, int j1, int i)
{
  if (index == NULL)
    return row[i];
  return i >= j0 && i <= j1 ? aooct_cuda_kmap_sample (row, index, frac,
      i) : 0.0f;
}

/* The rest after the resampling: aooctpad's scale and margins (aooctkmap
 * applies the scale to its sum: the same operation, as it commutes
 * exactly with a power-of-two scale), the dispersion weight @wi (@w NULL:
 * none) and the window value @win (@window NULL: none). */
static __device__ __forceinline__ float2
aooct_cuda_prep_finish (float x, int pad, bool pad_inside, float pad_scale,
    const float2 * w, float2 wi, const float *window, float win)
{
  float2 c;

  if (pad)
    x = pad_inside ? x * pad_scale : 0.0f;
  c = w ? make_float2 (x * wi.x, x * wi.y) : make_float2 (x, 0.0f);
  if (window)
    c = make_float2 (c.x * win, c.y * win);
  return c;
}

#endif /* __AOOCT_CUDA_PREP_CUH__ */
