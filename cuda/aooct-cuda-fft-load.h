/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: what aooctfft's cuFFT load callback reads
 * (aooct-cuda-fft-load.cu), shared by the host side that fills it
 * (aooct-cuda-fft.cu).  Plain C: the callback is compiled on its own, to
 * LTO-IR, without glib. */
#ifndef __AOOCT_CUDA_FFT_LOAD_H__
#define __AOOCT_CUDA_FFT_LOAD_H__

#include <vector_types.h>

/* The callback's symbol in the LTO-IR fatbin. */
#define AOOCT_CUDA_FFT_LOAD_SYMBOL "aooct_cuda_fft_load"

/* One buffer's transform: the C2C reads point i of row r as
 * aooct_cuda_prep_finish (x, ...) of the real input x = in[r * p2 + i],
 * or of its linear resampling where index is set: the fused pass of
 * aooct-cuda-steps.cu's prep_kernel (or, without resampling, padding
 * scale and weights, aooctfft's window kernel, for complex input too),
 * done while cuFFT loads its input instead of in a pass of its own.  Written on the stream by a
 * one-thread kernel before each execution, so that each buffer (and each
 * kept CUDA graph) carries its own. */
typedef struct _AooctCudaFftLoadInfo
{
  const float *in;              /* rows x p2 real samples, or complex ones
                                 * (complex_in: interleaved, only the
                                 * window applies) */
  int complex_in;
  const int *index;             /* NULL: no resampling */
  const float *frac;
  const float2 *w;              /* NULL: no dispersion weights */
  const float *window;          /* NULL: no window */
  int p2;
  int j0, j1;                   /* the resampled data region */
  int pad;                      /* aooctpad's scale and margins */
  float pad_scale;
  int pad_j0, pad_j1;
} AooctCudaFftLoadInfo;

#endif /* __AOOCT_CUDA_FFT_LOAD_H__ */
