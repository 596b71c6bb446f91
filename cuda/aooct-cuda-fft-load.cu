/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: aooctfft's cuFFT load callback.  Compiled on its own to
 * LTO-IR (cuda/meson.build), embedded in the plugin, and linked into
 * cuFFT's C2C kernel at plan time (cufftXtSetJITCallback, in
 * aooct-cuda-fft.cu): the FFT then reads the real spectra and applies the
 * resampling, padding scale, dispersion weights and window as it loads
 * each point, instead of a pass that writes the complex input (8 bytes a
 * point) and the FFT reading it again (docs/performance.md). */
#include <cufftXt.h>

#include "aooct-cuda-fft-load.h"
#include "aooct-cuda-kmap.cuh"
#include "aooct-cuda-prep.cuh"

extern "C" __device__ cufftComplex
aooct_cuda_fft_load (void *data, unsigned long long offset, void *caller_info,
    void *shared)
{
  const AooctCudaFftLoadInfo *p = (const AooctCudaFftLoadInfo *) caller_info;
  const int p2 = p->p2;
  const unsigned long long r = offset / (unsigned long long) p2;
  const int i = (int) (offset - r * (unsigned long long) p2);
  const float *row = p->in + r * (unsigned long long) p2;
  float x;
  float2 c;

  (void) data;                  /* the output: the transform is in place */
  (void) shared;
  if (p->complex_in) {
    /* aooct-cuda-fft.cu's window kernel: each part times the window */
    float2 v = ((const float2 *) p->in)[offset];

    if (p->window) {
      const float win = p->window[i];

      v = make_float2 (__fmul_rn (v.x, win), __fmul_rn (v.y, win));
    }
    return make_cuComplex (v.x, v.y);
  }
  if (p->index)
    x = i >= p->j0 && i <= p->j1 ?
        aooct_cuda_kmap_sample (row, p->index, p->frac, i) : 0.0f;
  else
    x = row[i];
  c = aooct_cuda_prep_finish (x, p->pad, i >= p->pad_j0 && i <= p->pad_j1,
      p->pad_scale, p->w, p->w ? p->w[i] : make_float2 (1.0f, 0.0f),
      p->window, p->window ? p->window[i] : 1.0f);
  return make_cuComplex (c.x, c.y);
}
