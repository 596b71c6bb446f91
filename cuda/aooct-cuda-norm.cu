/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: crop, intensity, log and normalisation (see
 * aooct-cuda-norm.h). */
#include <stdint.h>
#include <limits.h>

#include "aooct-cuda-norm.h"
#include "aooct-cuda-check.h"
#include "aooct-norm-range.h"

#define REDUCE_THREADS 256
/* Blocks of the reduction: at least 4 pixels per thread, and about 1024
 * blocks in all (a full H100 holds 132 x 8 such blocks), but never fewer
 * than 16 per B-scan: one B-scan per buffer fills the GPU too (with the
 * former fixed 128 blocks it ran on one block per SM). */
#define REDUCE_PIXELS_PER_THREAD 4
#define REDUCE_TARGET_BLOCKS 1024
#define REDUCE_MIN_BLOCKS 16
#define TILE 32
#define TILE_LANES 8
#define MAX_GRID_YZ 65535

/* Per B-scan in the scratch: the two range keys and the count of blocks
 * that have added theirs, then lo and the scale.  Between calls the keys
 * and the count hold their initial values (INT_MAX, INT_MIN, 0): set by
 * aooct_cuda_norm_scratch_new(), restored by the last block of every
 * reduction. */
typedef struct
{
  int min_key, max_key;
  unsigned int blocks_done;
  AooctNormMap map;
} BscanRange;

/* Floats as order-preserving ints, so that atomicMin / atomicMax on int
 * give the float minimum / maximum.  NaN never gets here: the reduction
 * drops it (fminf / fmaxf), as the CPU's comparisons do. */
static __device__ __forceinline__ int
float_key (float f)
{
  int i = __float_as_int (f);
  return i >= 0 ? i : i ^ 0x7fffffff;
}

static __device__ __forceinline__ float
key_float (int k)
{
  return __int_as_float (k >= 0 ? k : k ^ 0x7fffffff);
}

static __device__ __forceinline__ float
pixel_value (const float2 * in, const AooctCudaNormParams & p, int b, int m,
    int d, int log_mode)
{
  /* a negative (full-range) depth bin is FFT bin P2 + bin */
  int bin = p.crop_start + d;
  bin += bin < 0 ? p.samples : 0;
  float2 c = in[((size_t) b * p.alines + m) * p.samples + bin];
  float v = aooct_norm_intensity (c.x, c.y);

  return log_mode ? aooct_norm_db (v) : v;
}

/* The B-scan's value range, then lo and the scale, in one kernel.
 *
 * grid: x = blocks per B-scan, y = B-scans (striding beyond 65535).
 * Consecutive threads take consecutive depth bins of an A-line, so the
 * reads are coalesced; each thread walks its pixels t, t + stride, ...
 * keeping (A-line, depth) up to date by addition (no division per pixel).
 * Intensity and log are computed on the fly: no intermediate image.
 *
 * Each block folds its minimum / maximum into the B-scan's keys with
 * integer atomics (the result does not depend on the order of the
 * blocks), then counts itself in; the block that comes last takes the
 * keys (resetting them for the next call) and computes lo and the scale
 * exactly as the CPU core does (double, then rounded to float).  This
 * replaces three launches (initialise the keys, reduce, finish). */
static __global__ void
range_reduce (const float2 * in, BscanRange * range, AooctCudaNormParams p,
    AooctNormSettings s, int log_mode, double q)
{
  __shared__ float smin[REDUCE_THREADS / 32], smax[REDUCE_THREADS / 32];
  const int rows = p.crop_end - p.crop_start;
  const long long total = (long long) rows * p.alines;
  const long long stride = (long long) gridDim.x * blockDim.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  for (int b = blockIdx.y; b < p.bscans; b += gridDim.y) {
    float lo = INFINITY, hi = -INFINITY;
    long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;

    if (t < total) {
      const int dm = (int) (stride / rows), dd = (int) (stride % rows);
      int m = (int) (t / rows), d = (int) (t % rows);

      for (; t < total; t += stride) {
        float v = pixel_value (in, p, b, m, d, log_mode);
        lo = fminf (lo, v);
        hi = fmaxf (hi, v);
        m += dm;
        d += dd;
        if (d >= rows) {
          d -= rows;
          m++;
        }
      }
    }
    /* the block's minimum / maximum: within warps, then across them */
    for (int o = 16; o > 0; o >>= 1) {
      lo = fminf (lo, __shfl_down_sync (0xffffffffu, lo, o));
      hi = fmaxf (hi, __shfl_down_sync (0xffffffffu, hi, o));
    }
    if (lane == 0) {
      smin[warp] = lo;
      smax[warp] = hi;
    }
    __syncthreads ();
    if (threadIdx.x == 0) {
      unsigned int done;

      for (int w = 1; w < (int) (blockDim.x >> 5); w++) {
        lo = fminf (lo, smin[w]);
        hi = fmaxf (hi, smax[w]);
      }
      atomicMin (&range[b].min_key, float_key (lo));
      atomicMax (&range[b].max_key, float_key (hi));
      /* our keys are visible device-wide before we count ourselves in */
      __threadfence ();
      done = atomicAdd (&range[b].blocks_done, 1u);
      if (done == gridDim.x - 1) {
        double vmin, vmax, dlo, dhi, scale;

        /* every other block has added its keys (they counted themselves
         * in after): take them, and leave the initial values behind */
        __threadfence ();
        vmin = key_float (atomicExch (&range[b].min_key, INT_MAX));
        vmax = key_float (atomicExch (&range[b].max_key, INT_MIN));
        atomicExch (&range[b].blocks_done, 0u);
        aooct_norm_range_compute (s.auto_range, s.log, s.dynamic_range,
            s.range_min, s.range_max, q, vmin, vmax, &dlo, &dhi, &scale);
        aooct_norm_map_init (&range[b].map, dlo, dhi, scale);
      }
    }
    __syncthreads ();           /* smin/smax are reused for the next b */
  }
}

/* Pixel writers: the value is t + 0.5 in [0.5, q + 0.5]; the integer
 * conversion truncates, giving floor (t + 0.5) as on the CPU. */
struct WriteGray8
{
  static __device__ __forceinline__ void
  put (uint8_t * row, int m, float g)
  {
    row[m] = (uint8_t) g;
  }
};

struct WriteGray16
{
  static __device__ __forceinline__ void
  put (uint8_t * row, int m, float g)
  {
    /* little-endian, like every CUDA device */
    ((uint16_t *) row)[m] = (uint16_t) g;
  }
};

struct WriteRgba
{
  static __device__ __forceinline__ void
  put (uint8_t * row, int m, float g)
  {
    uint8_t v = (uint8_t) g;
    ((uchar4 *) row)[m] = make_uchar4 (v, v, v, 255);
  }
};

/* grid: x = A-line tiles, y = depth tiles, z = B-scans (striding beyond
 * 65535); block TILE x TILE_LANES.  Reads run along depth (contiguous in
 * the input), writes along A-lines (contiguous in the image), through a
 * shared tile padded against bank conflicts. */
template < typename W > static __global__ void
map_transpose (const float2 * in, uint8_t * out, size_t out_stride,
    const BscanRange * range, AooctNormMap fixed, AooctCudaNormParams p,
    int log_mode, float q)
{
  __shared__ float tile[TILE][TILE + 1];
  const int rows = p.crop_end - p.crop_start;
  const int m0 = blockIdx.x * TILE, d0 = blockIdx.y * TILE;

  for (int b = blockIdx.z; b < p.bscans; b += gridDim.z) {
    /* per B-scan from the reduction, or the manual range's */
    const AooctNormMap map = range ? range[b].map : fixed;

    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
      int m = m0 + k, d = d0 + threadIdx.x;
      if (m < p.alines && d < rows)
        tile[k][threadIdx.x] = aooct_norm_grey_map (pixel_value (in, p, b, m,
                d, log_mode), &map, q);
    }
    __syncthreads ();
    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
      int d = d0 + k, m = m0 + threadIdx.x;
      if (m < p.alines && d < rows)
        W::put (out + ((size_t) b * rows + d) * out_stride, m,
            tile[threadIdx.x][k]);
    }
    __syncthreads ();           /* the tile is reused for the next b */
  }
}

gsize
aooct_cuda_norm_scratch_size (const AooctCudaNormParams * p)
{
  return (gsize) p->bscans * sizeof (BscanRange);
}

gboolean
aooct_cuda_norm_scratch_new (const AooctCudaNormParams * p,
    gpointer * scratch, GError ** error)
{
  const gsize size = aooct_cuda_norm_scratch_size (p);
  BscanRange *init = g_new0 (BscanRange, p->bscans);
  gboolean ok;
  gint b;

  for (b = 0; b < p->bscans; b++) {
    init[b].min_key = INT_MAX;
    init[b].max_key = INT_MIN;
  }
  *scratch = NULL;
  ok = aooct_cuda_upload_new (scratch, init, size, error);
  g_free (init);
  if (!ok) {
    aooct_cuda_free (*scratch);
    *scratch = NULL;
  }
  return ok;
}

gboolean
aooct_cuda_norm (const AooctCudaNormParams * p,
    const AooctNormSettings * s, const gfloat * in_f, guint8 * out,
    gsize out_stride, gpointer scratch, AooctCudaStream stream,
    GError ** error)
{
  const float2 *in = (const float2 *) in_f;
  BscanRange *range = (BscanRange *) scratch;
  const int rows = p->crop_end - p->crop_start;
  const int log_mode = s->log ? 1 : 0;
  const float q = p->format == AOOCT_CUDA_NORM_GRAY16 ? 65535.0f : 255.0f;
  const int bscan_grid = MIN (p->bscans, MAX_GRID_YZ);
  dim3 block (TILE, TILE_LANES);
  dim3 grid ((p->alines + TILE - 1) / TILE, (rows + TILE - 1) / TILE,
      bscan_grid);
  AooctNormMap fixed;
  const size_t row_bytes = (size_t) p->alines *
      (p->format == AOOCT_CUDA_NORM_GRAY16 ? 2 : p->format ==
      AOOCT_CUDA_NORM_RGBA ? 4 : 1);

  if (grid.y > MAX_GRID_YZ) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctnorm on CUDA: a crop of %d depth bins is too tall (at most "
        "%d)", rows, MAX_GRID_YZ * TILE);
    return FALSE;
  }
  if (s->auto_range) {
    long long total = (long long) rows * p->alines;
    long long want = (total + REDUCE_THREADS * REDUCE_PIXELS_PER_THREAD - 1)
        / (REDUCE_THREADS * REDUCE_PIXELS_PER_THREAD);
    int cap = MAX (REDUCE_TARGET_BLOCKS / bscan_grid, REDUCE_MIN_BLOCKS);
    int blocks = (int) MAX (MIN (want, (long long) cap), 1LL);

    range_reduce <<< dim3 (blocks, bscan_grid), REDUCE_THREADS, 0,
        stream >>> (in, range, *p, *s, log_mode, (double) q);
    aooct_norm_map_init (&fixed, 0.0, 0.0, 0.0);        /* not used */
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: range kernel");
  } else {
    /* the same for every B-scan: computed here, with the CPU core's very
     * function on the host, instead of by a kernel */
    double lo, hi, scale;

    aooct_norm_range_compute (FALSE, s->log, s->dynamic_range, s->range_min,
        s->range_max, (double) q, 0.0, 0.0, &lo, &hi, &scale);
    aooct_norm_map_init (&fixed, lo, hi, scale);
    range = NULL;
  }
  /* rows padded to 4 bytes (an odd width): the padding goes to the image
   * file too, so it is written, with zeros, as on the CPU */
  if (out_stride > row_bytes && out_stride - row_bytes < 4
      && !aooct_cuda_memset_2d_async (out + row_bytes, out_stride, 0,
          out_stride - row_bytes, (gsize) p->bscans * rows, stream, error))
    return FALSE;

  switch (p->format) {
    case AOOCT_CUDA_NORM_GRAY16:
      map_transpose < WriteGray16 > <<< grid, block, 0, stream >>> (in,
          out, out_stride, range, fixed, *p, log_mode, q);
      break;
    case AOOCT_CUDA_NORM_RGBA:
      map_transpose < WriteRgba > <<< grid, block, 0, stream >>> (in, out,
          out_stride, range, fixed, *p, log_mode, q);
      break;
    default:
      map_transpose < WriteGray8 > <<< grid, block, 0, stream >>> (in, out,
          out_stride, range, fixed, *p, log_mode, q);
      break;
  }
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: map/transpose kernel");
  return TRUE;
}
