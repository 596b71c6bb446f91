/* aooct CUDA core: conversion to float32 and DC subtraction (see
 * aooct-cuda-dcsub.h).
 *
 * Three kernels on one stream: exact per-column integer sums of each
 * B-scan, the float means, and a fused convert-and-subtract pass that reads
 * the raw samples straight from the uploaded camera buffer, so the upload
 * moves 1 or 2 bytes per sample instead of 4. */
#include <stdint.h>

#include "aooct-cuda-dcsub.h"
#include "aooct-cuda-check.h"

#define COLS_PER_BLOCK 32
#define ROW_LANES 8
#define ROWS_PER_BLOCK 256

/* sums[b * n + col] += sum over a chunk of ROWS_PER_BLOCK rows of B-scan b.
 * Threads of a warp read neighbouring columns of one row (coalesced); the
 * ROW_LANES lanes of a block are reduced in shared memory and each block
 * adds its partial sum with one 64-bit integer atomic: exact, so the order
 * of the additions cannot change the result. */
template < typename T > __global__ void
column_sums (const uint8_t * raw, size_t stride, int n, int alines,
    unsigned long long *sums)
{
  __shared__ unsigned long long part[ROW_LANES][COLS_PER_BLOCK];
  const int col = blockIdx.x * COLS_PER_BLOCK + threadIdx.x;
  const int b = blockIdx.y;
  const int m0 = blockIdx.z * ROWS_PER_BLOCK;
  const int m1 = min (m0 + ROWS_PER_BLOCK, alines);
  unsigned long long acc = 0;

  if (col < n) {
    for (int m = m0 + threadIdx.y; m < m1; m += ROW_LANES) {
      const T *row = (const T *) (raw + ((size_t) b * alines + m) * stride);
      acc += row[col];
    }
  }
  part[threadIdx.y][threadIdx.x] = acc;
  __syncthreads ();
  if (threadIdx.y == 0 && col < n) {
    for (int l = 1; l < ROW_LANES; l++)
      acc += part[l][threadIdx.x];
    atomicAdd (&sums[(size_t) b * n + col], acc);
  }
}

/* The CPU core's mean: double quotient rounded once to float. */
__global__ void
column_means (const unsigned long long *sums, int count, int alines,
    float *means)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < count)
    means[i] = (float) ((double) sums[i] / (double) alines);
}

/* out[r][col] = (float) raw[r][col] - dc[col of r's B-scan]; @dc_bscan_step
 * is n for per-B-scan means, 0 for one background spectrum, and @dc NULL
 * for no subtraction. */
template < typename T > __global__ void
convert_subtract (const uint8_t * raw, size_t stride, int n, int alines,
    int rows, const float *dc, int dc_bscan_step, float *out)
{
  const int col = blockIdx.x * blockDim.x + threadIdx.x;

  if (col >= n)
    return;
  for (int r = blockIdx.y; r < rows; r += gridDim.y) {
    const T *row = (const T *) (raw + (size_t) r * stride);
    float x = (float) row[col];

    if (dc)
      x = x - dc[(size_t) (r / alines) * dc_bscan_step + col];
    out[(size_t) r * n + col] = x;
  }
}

gsize
aooct_cuda_dcsub_scratch_bytes (const AooctGeometry * g)
{
  /* 64-bit sums, then float means, per column of each B-scan */
  return (gsize) g->raw_samples * g->bscans * (sizeof (unsigned long long) +
      sizeof (float));
}

template < typename T > static gboolean
launch (const AooctGeometry * g, const uint8_t * raw, size_t stride,
    AooctDcMode mode, const float *background, void *scratch, float *out,
    cudaStream_t stream, GError ** error)
{
  const int n = g->raw_samples, alines = g->alines;
  const int rows = g->alines * g->bscans;
  const int count = n * g->bscans;
  unsigned long long *sums = (unsigned long long *) scratch;
  float *means = (float *) (sums + count);
  const float *dc = NULL;
  int dc_step = 0;

  if (mode == AOOCT_DC_BSCAN_MEAN) {
    dim3 block (COLS_PER_BLOCK, ROW_LANES);
    dim3 grid ((n + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK, g->bscans,
        (alines + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);

    AOOCT_CUDA_CHECK (cudaMemsetAsync (sums, 0,
            sizeof (unsigned long long) * count, stream), error,
        "aooctdcsub: clearing the column sums");
    column_sums < T > <<<grid, block, 0, stream >>> (raw, stride, n, alines,
        sums);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: column sum kernel");
    column_means <<<(count + 255) / 256, 256, 0, stream >>> (sums, count,
        alines, means);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: column mean kernel");
    dc = means;
    dc_step = n;
  } else if (mode == AOOCT_DC_BACKGROUND) {
    dc = background;
    dc_step = 0;
  }
  {
    dim3 block (256);
    dim3 grid ((n + 255) / 256, MIN (rows, 65535));

    convert_subtract < T > <<<grid, block, 0, stream >>> (raw, stride, n,
        alines, rows, dc, dc_step, out);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: convert/subtract kernel");
  }
  return TRUE;
}

gboolean
aooct_cuda_dcsub (const AooctGeometry * g, gconstpointer raw,
    gsize raw_stride, gint raw_bytes, AooctDcMode mode,
    const gfloat * background, gpointer scratch, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  if (raw_bytes == 1)
    return launch < uint8_t > (g, (const uint8_t *) raw, raw_stride, mode,
        background, scratch, out, stream, error);
  return launch < uint16_t > (g, (const uint8_t *) raw, raw_stride, mode,
      background, scratch, out, stream, error);
}
