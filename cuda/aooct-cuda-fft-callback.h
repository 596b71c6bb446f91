/* aooct CUDA core: what aooctfft's cuFFT load callback reads besides its
 * input (see aooct-cuda-fft-callback.cu), shared by the callback's LTO-IR
 * and the host code that fills it in device memory. */
#ifndef __AOOCT_CUDA_FFT_CALLBACK_H__
#define __AOOCT_CUDA_FFT_CALLBACK_H__

/* The name cufftXtSetJITCallback is given: the callback's source name. */
#define AOOCT_CUDA_FFT_CALLBACK_NAME "aooct_fft_window_load"

typedef struct
{
  const float *window;          /* samples floats; read only if use_window */
  unsigned long long samples;   /* points per transform (row length) */
  unsigned long long mask;      /* samples - 1 if a power of two, else 0 */
  int use_window;
  int complex_in;               /* else the input is float32 real */
} AooctCudaFftCallbackParams;

#endif /* __AOOCT_CUDA_FFT_CALLBACK_H__ */
