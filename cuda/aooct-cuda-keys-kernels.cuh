/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: the two one-thread kernels around the range keys of
 * aooct-cuda-keys.cuh, for the views and aooctnorm's averaging, which
 * finish a range in a kernel of their own.  Apart from the device
 * helpers so that aooctnorm, whose range kernels finish the range
 * themselves, does not carry them compiled in unused. */
#ifndef __AOOCT_CUDA_KEYS_KERNELS_CUH__
#define __AOOCT_CUDA_KEYS_KERNELS_CUH__

#include "aooct-cuda-keys.cuh"

/* lo and the scale from the keys with section 7's function, then the keys
 * back to their initial values; one thread. */
static __global__ void
aooct_keys_finish (AooctRangeKeys * range, AooctNormSettings s, double q)
{
  double dlo, dhi, scale;
  float vmin = aooct_key_float (range->min_key);
  float vmax = aooct_key_float (range->max_key);

  aooct_norm_range_compute (s.auto_range, s.log, s.dynamic_range,
      s.range_min, s.range_max, q, vmin, vmax, &dlo, &dhi, &scale);
  range->lo = (float) dlo;
  range->scale = (float) scale;
  range->inv = (float) (scale / q);
  range->min_key = INT_MAX;
  range->max_key = INT_MIN;
}

static __global__ void
aooct_keys_reset (AooctRangeKeys * range)
{
  range->min_key = INT_MAX;
  range->max_key = INT_MIN;
}

#endif /* __AOOCT_CUDA_KEYS_KERNELS_CUH__ */
