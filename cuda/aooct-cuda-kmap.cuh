/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: the linear resampling of one sample (spec section 4), for
 * aooctkmap's kernels (aooct-cuda-kmap.cu) and the fused pass that applies
 * a resampling deferred to aooctdisp or aooctfft (aooct-cuda-steps.cu).
 * One definition, so that both are bit-identical to the CPU core:
 * z[l] + (z[l+1] - z[l]) * t in float32, without contraction. */
#ifndef __AOOCT_CUDA_KMAP_CUH__
#define __AOOCT_CUDA_KMAP_CUH__

static __device__ __forceinline__ float
aooct_cuda_kmap_sample (const float *row, const int *index, const float *frac,
    int i)
{
  int l = index[i];
  float a = row[l], b = row[l + 1];
  return a + (b - a) * frac[i];
}

#endif /* __AOOCT_CUDA_KMAP_CUH__ */
