/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: what the flow kernels (aooct-cuda-doppler.cu,
 * aooct-cuda-angio.cu) share: the largest value of a scratch image, taken
 * through the bits of non-negative floats / doubles (which order as the
 * values do, so the result does not depend on the order of the blocks),
 * and the write of a pixel function into the image through shared-memory
 * tiles, so that both the A-line-major scratch reads and the row-major
 * image writes are coalesced.  C++ only. */
#ifndef __AOOCT_CUDA_FLOW_IMAGE_CUH__
#define __AOOCT_CUDA_FLOW_IMAGE_CUH__

#include <stdint.h>

#include "aooct-cuda.h"
#include "aooct-flow.h"

/* a tile: 32 A-lines by 32 rows, written by blocks of 32 x 8 threads */
#define FLOW_TILE 32
#define FLOW_TILE_Y 8

/* Folds @v (>= 0, or NaN: left out, as the CPU's v > best does) of every
 * thread of the warp into *@key (the bits of the largest float). */
static __device__ __forceinline__ void
aooct_flow_warp_max (float v, unsigned int *key)
{
  v = v >= 0.0f ? v : 0.0f;
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf (v, __shfl_down_sync (0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0 && v > 0.0f)
    atomicMax (key, __float_as_uint (v));
}

static __device__ __forceinline__ float
aooct_flow_key_float (unsigned int key)
{
  return __uint_as_float (key);
}

/* The image of rows x alines pixels of @format for @pixel (a functor:
 * uint32_t operator() (int b, int m, int r) const), image b of the grid z at
 * out + b * rows * out_stride.  Grid: (ceil (rows / 32), ceil (alines /
 * 32), images); block: 32 x 8. */
template < typename Pixel > static __global__ void
aooct_flow_write (Pixel pixel, int alines, int rows, AooctFlowFormat format,
    uint8_t * out, size_t out_stride)
{
  __shared__ uint32_t tile[FLOW_TILE][FLOW_TILE + 1];
  const int r0 = blockIdx.x * FLOW_TILE, m0 = blockIdx.y * FLOW_TILE;
  const int b = blockIdx.z;
  uint8_t *img = out + (size_t) b * rows * out_stride;

  /* read along the depth (the scratch's fast axis) */
  for (int k = threadIdx.y; k < FLOW_TILE; k += FLOW_TILE_Y) {
    const int m = m0 + k, r = r0 + threadIdx.x;

    if (m < alines && r < rows)
      tile[k][threadIdx.x] = pixel (b, m, r);
  }
  __syncthreads ();
  /* write along the image rows */
  for (int k = threadIdx.y; k < FLOW_TILE; k += FLOW_TILE_Y) {
    const int r = r0 + k, m = m0 + threadIdx.x;
    uint8_t *row = img + (size_t) r * out_stride;
    uint32_t v;

    if (m >= alines || r >= rows)
      continue;
    v = tile[threadIdx.x][k];
    if (format == AOOCT_FLOW_GRAY16)
      ((uint16_t *) row)[m] = (uint16_t) v;
    else if (format == AOOCT_FLOW_RGBA)
      ((uint32_t *) row)[m] = v;
    else
      row[m] = (uint8_t) v;
  }
}

static inline dim3
aooct_flow_write_grid (int alines, int rows, int images)
{
  return dim3 ((rows + FLOW_TILE - 1) / FLOW_TILE,
      (alines + FLOW_TILE - 1) / FLOW_TILE, images);
}

#define AOOCT_FLOW_WRITE_BLOCK dim3 (FLOW_TILE, FLOW_TILE_Y)

/* Rows padded to 4 bytes (GStreamer's stride for an odd width): the
 * padding goes to an image file too, so it is written, with zeros, as on
 * the CPU (as aooctnorm does).  A wider pitch is not image data. */
static inline gboolean
aooct_flow_zero_padding (AooctFlowFormat format, int alines, int rows,
    uint8_t * out, size_t out_stride, AooctCudaStream stream,
    GError ** error)
{
  const size_t row_bytes = (size_t) alines * (format == AOOCT_FLOW_GRAY16 ?
      2 : format == AOOCT_FLOW_RGBA ? 4 : 1);

  if (out_stride > row_bytes && out_stride - row_bytes < 4)
    return aooct_cuda_memset_2d_async (out + row_bytes, out_stride, 0,
        out_stride - row_bytes, rows, stream, error);
  return TRUE;
}

#endif /* __AOOCT_CUDA_FLOW_IMAGE_CUH__ */
