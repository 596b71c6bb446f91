/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: what the fused pass before the FFT does to one sample after
 * the resampling (aooctpad's scale and margins, aooctdisp's weight,
 * aooctfft's window), for the fused kernels (aooct-cuda-steps.cu,
 * aooct-cuda-prep.cu) and for the cuFFT load callback that does the same
 * inside the FFT (aooct-cuda-fft-load.cu).  One definition, so that all of
 * them give the same bits as the separate steps.
 *
 * The products are written with __fmul_rn, which is never contracted:
 * the kernels are compiled with --fmad=false, but the load callback is
 * compiled to LTO-IR and finalised by cuFFT at run time, with options we
 * do not choose (see aooct-cuda-kmap.cuh for the resampling). */
#ifndef __AOOCT_CUDA_PREP_CUH__
#define __AOOCT_CUDA_PREP_CUH__

static __device__ __forceinline__ float2
aooct_cuda_prep_finish (float x, int pad, bool pad_inside, float pad_scale,
    const float2 * w, float2 wi, const float *window, float win)
{
  float2 c;

  if (pad)
    x = pad_inside ? __fmul_rn (x, pad_scale) : 0.0f;
  c = w ? make_float2 (__fmul_rn (x, wi.x), __fmul_rn (x, wi.y)) :
      make_float2 (x, 0.0f);
  if (window)
    c = make_float2 (__fmul_rn (c.x, win), __fmul_rn (c.y, win));
  return c;
}

#endif /* __AOOCT_CUDA_PREP_CUH__ */
