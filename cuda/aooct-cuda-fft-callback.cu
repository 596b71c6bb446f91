/* aooct CUDA core: aooctfft's window as a cuFFT LTO load callback.
 *
 * Compiled on its own to LTO-IR (nvcc -dc -fatbin, code=lto_XX; see
 * meson.build) and embedded as a byte array (bin2c); at plan creation
 * cufftXtSetJITCallback hands it to cuFFT, which links it into its
 * kernel with nvJitLink.  Never linked into the library itself.
 *
 * cuFFT calls it for every input element of the C2C it loads, with
 * @offset the element's index from @data_in in complex elements (rows are
 * samples apart, stride 1).  It returns the windowed sample as the window
 * kernel of aooct-cuda-steps.cu computes it: in x w (one float product
 * per component, or only the widening of real input to complex), so it
 * only reads its input.  It may be called more than once per element:
 * it has no side effect. */
#include <cufftXt.h>

#include "aooct-cuda-fft-callback.h"

__device__ cufftComplex
aooct_fft_window_load (void *data_in, unsigned long long offset,
    void *caller_info, void *shared)
{
  const AooctCudaFftCallbackParams *p =
      (const AooctCudaFftCallbackParams *) caller_info;
  float2 v;

  if (p->complex_in)
    v = ((const float2 *) data_in)[offset];
  else
    v = make_float2 (((const float *) data_in)[offset], 0.0f);
  if (p->use_window) {
    unsigned long long i = p->mask ? (offset & p->mask) : offset % p->samples;
    float w = p->window[i];

    v = make_float2 (v.x * w, v.y * w);
  }
  return v;
}
