/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: the launch shape of the pointwise kernels of the steps
 * (pad, kmap, the fused prep pass, fft's window, fullrange).
 *
 * Layout everywhere: A-line r of a buffer starts at r * samples; one thread
 * per output sample, consecutive threads on consecutive samples, so every
 * global access is coalesced.  A 2-D grid (x over samples, y over A-lines)
 * keeps index arithmetic in 32 bits; gridDim.y is at most 65535, so a
 * kernel strides over the A-lines beyond it (AOOCT_FOR_ROWS). */
#ifndef __AOOCT_CUDA_LAUNCH_CUH__
#define __AOOCT_CUDA_LAUNCH_CUH__

#include <cuda_runtime_api.h>

#define AOOCT_CUDA_THREADS 256
#define AOOCT_CUDA_MAX_GRID_Y 65535

/* x: blocks of AOOCT_CUDA_THREADS over @samples; y: one per row, at most
 * AOOCT_CUDA_MAX_GRID_Y */
static inline dim3
aooct_cuda_grid (int samples, int rows)
{
  return dim3 ((unsigned) ((samples + AOOCT_CUDA_THREADS -
              1) / AOOCT_CUDA_THREADS),
      (unsigned) (rows < AOOCT_CUDA_MAX_GRID_Y ? rows :
          AOOCT_CUDA_MAX_GRID_Y));
}

/* rows beyond gridDim.y are covered by striding */
#define AOOCT_FOR_ROWS(r, rows) \
  for (int r = blockIdx.y; r < (rows); r += gridDim.y)

#endif /* __AOOCT_CUDA_LAUNCH_CUH__ */
