/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: crop, intensity, log and normalisation (see
 * aooct-cuda-norm.h). */
#include <stdint.h>
#include <limits.h>
#include <string.h>

#include <cooperative_groups.h>

#include "aooct-cuda-norm.h"
#include "aooct-cuda-check.h"
#include "aooct-norm-range.h"
#include "aooct-cuda-keys.cuh"

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
 * scratch_new(), restored by the last block of every
 * reduction. */
typedef struct
{
  int min_key, max_key;
  unsigned int blocks_done;
  AooctNormMap map;
} BscanRange;

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

/* Folds the block's @lo / @hi (every thread's) into @r's keys: within
 * warps, then across them (@smin / @smax: a float per warp), then one
 * atomic per key.  Every thread of the block must call it; on return the
 * block's shared arrays may be reused. */
static __device__ __forceinline__ void
block_fold (float lo, float hi, BscanRange * r, float *smin, float *smax)
{
  aooct_block_min_max (&lo, &hi, smin, smax);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    atomicMin (&r->min_key, aooct_float_key (lo));
    atomicMax (&r->max_key, aooct_float_key (hi));
  }
  __syncthreads ();
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
    block_fold (lo, hi, &range[b], smin, smax);
    if (threadIdx.x == 0) {
      unsigned int done;

      /* our keys are visible device-wide before we count ourselves in */
      __threadfence ();
      done = atomicAdd (&range[b].blocks_done, 1u);
      if (done == gridDim.x - 1) {
        double vmin, vmax, dlo, dhi, scale;

        /* every other block has added its keys (they counted themselves
         * in after): take them, and leave the initial values behind */
        __threadfence ();
        vmin = aooct_key_float (atomicExch (&range[b].min_key, INT_MAX));
        vmax = aooct_key_float (atomicExch (&range[b].max_key, INT_MIN));
        atomicExch (&range[b].blocks_done, 0u);
        aooct_norm_range_compute (s.auto_range, s.log, s.dynamic_range,
            s.range_min, s.range_max, q, vmin, vmax, &dlo, &dhi, &scale);
        aooct_norm_map_init (&range[b].map, dlo, dhi, scale);
      }
    }
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

/* Writes the grey levels in @tile (indexed [A-line][depth] from @m0,
 * @d0) into B-scan @b of the image, along A-lines (contiguous in the
 * image), then waits for the whole block: the tile may then be refilled.
 * Block TILE x TILE_LANES. */
template < typename W > static __device__ __forceinline__ void
put_tile (float (*tile)[TILE + 1], uint8_t * out, size_t out_stride,
    int rows, int alines, int b, int m0, int d0)
{
  for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
    int d = d0 + k, m = m0 + threadIdx.x;
    if (m < alines && d < rows)
      W::put (out + ((size_t) b * rows + d) * out_stride, m,
          tile[threadIdx.x][k]);
  }
  __syncthreads ();
}

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
    put_tile < W > (tile, out, out_stride, rows, p.alines, b, m0, d0);
  }
}

/* The automatic range and the mapping in one cooperative kernel, where
 * the B-scans' pixels fit in the registers of the blocks the GPU holds at
 * once (aooct_cuda_norm_plan_new): the C2C's output is read once instead of
 * twice (16 of the 34 MB a 2048 x 1000 B-scan moves), and one launch less.
 *
 * Block TILE x TILE_LANES; block i takes the tiles i, i + gridDim.x, ...
 * (@K at most; tile t: B-scan t / per_bscan, then A-line tiles fastest),
 * reads their pixels into registers (all K tiles' loads issued first),
 * folds their minimum / maximum into the B-scans' keys (block_fold), then
 * waits at a grid-wide barrier.  After it every block reads the keys of
 * its B-scans and computes lo and the scale itself, with the function the
 * CPU and range_reduce use (so the three give the same map), and maps and
 * transposes its tiles from the registers.  The block that comes last
 * restores the keys and the count for the next call.  Values and
 * arithmetic are those of range_reduce + map_transpose: the same bytes.
 *
 * Registers rather than shared memory: a variant that kept the pixels in
 * shared memory, on two blocks per SM so as to leave room to the other
 * elements' kernels, took 26 us per 2048 x 1000 B-scan in the chain
 * against 18 us for this one, and was no faster where the GPU is the
 * bound (docs/performance.md). */
template < typename W, int K > static __global__ void
__launch_bounds__ (TILE * TILE_LANES)
range_map (const float2 * in, uint8_t * out, size_t out_stride,
    BscanRange * range, AooctCudaNormParams p, AooctNormSettings s,
    int log_mode, float q)
{
  constexpr int V = TILE / TILE_LANES;  /* pixels per thread and tile */
  __shared__ float tile[TILE][TILE + 1];
  __shared__ float smin[TILE_LANES], smax[TILE_LANES];
  const int rows = p.crop_end - p.crop_start;
  const int tiles_m = (p.alines + TILE - 1) / TILE;
  const int per_bscan = tiles_m * ((rows + TILE - 1) / TILE);
  const int total = per_bscan * p.bscans;
  float v[K][V];
  float lo = INFINITY, hi = -INFINITY;
  int cur_b = -1;

#pragma unroll
  for (int i = 0; i < K; i++) {
    const int t = blockIdx.x + i * gridDim.x;
    const int b = t / per_bscan, r = t % per_bscan;
    const int m0 = (r % tiles_m) * TILE;
    const int d = (r / tiles_m) * TILE + threadIdx.x;

#pragma unroll
    for (int j = 0; j < V; j++) {
      const int m = m0 + threadIdx.y + j * TILE_LANES;
      /* NaN outside the image: fminf / fmaxf drop it */
      v[i][j] = t < total && m < p.alines && d < rows ?
          pixel_value (in, p, b, m, d, log_mode) : NAN;
    }
  }
  /* t and b are the same for the whole block: so are the folds */
#pragma unroll
  for (int i = 0; i < K; i++) {
    const int t = blockIdx.x + i * gridDim.x;
    const int b = t / per_bscan;

    if (t >= total)
      break;
    if (b != cur_b && cur_b >= 0) {
      block_fold (lo, hi, &range[cur_b], smin, smax);
      lo = INFINITY;
      hi = -INFINITY;
    }
    cur_b = b;
#pragma unroll
    for (int j = 0; j < V; j++) {
      lo = fminf (lo, v[i][j]);
      hi = fmaxf (hi, v[i][j]);
    }
  }
  if (cur_b >= 0)
    block_fold (lo, hi, &range[cur_b], smin, smax);

  /* every block's keys are in (the barrier orders memory too) */
  cooperative_groups::this_grid ().sync ();

  {
    AooctNormMap map;
    int map_b = -1;

    aooct_norm_map_init (&map, 0.0, 0.0, 0.0);
#pragma unroll
    for (int i = 0; i < K; i++) {
      const int t = blockIdx.x + i * gridDim.x;
      const int b = t / per_bscan, r = t % per_bscan;
      const int m0 = (r % tiles_m) * TILE, d0 = (r / tiles_m) * TILE;

      if (t >= total)
        break;
      if (b != map_b) {
        /* the keys changed after this kernel began: past the L1 */
        double vmin = aooct_key_float (__ldcg (&range[b].min_key));
        double vmax = aooct_key_float (__ldcg (&range[b].max_key));
        double dlo, dhi, scale;

        aooct_norm_range_compute (s.auto_range, s.log, s.dynamic_range,
            s.range_min, s.range_max, (double) q, vmin, vmax, &dlo, &dhi,
            &scale);
        aooct_norm_map_init (&map, dlo, dhi, scale);
        map_b = b;
      }
#pragma unroll
      for (int j = 0; j < V; j++) {
        const int k = threadIdx.y + j * TILE_LANES;
        if (m0 + k < p.alines && d0 + (int) threadIdx.x < rows)
          tile[k][threadIdx.x] = aooct_norm_grey_map (v[i][j], &map, q);
      }
      __syncthreads ();
      put_tile < W > (tile, out, out_stride, rows, p.alines, b, m0, d0);
    }
  }

  /* every thread of this block has read its keys (put_tile waited for
   * them all); the last block to get here leaves the initial values */
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    __threadfence ();
    if (atomicAdd (&range[0].blocks_done, 1u) == gridDim.x - 1) {
      for (int b = 0; b < p.bscans; b++) {
        atomicExch (&range[b].min_key, INT_MAX);
        atomicExch (&range[b].max_key, INT_MIN);
      }
      atomicExch (&range[0].blocks_done, 0u);
    }
  }
}

/* range_map<W, K> for @format and @k (1, 2, 4 or 8) */
template < typename W > static const void *
range_map_for (int k)
{
  switch (k) {
    case 1:
      return (const void *) range_map < W, 1 >;
    case 2:
      return (const void *) range_map < W, 2 >;
    case 4:
      return (const void *) range_map < W, 4 >;
    default:
      return (const void *) range_map < W, 8 >;
  }
}

static const void *
range_map_kernel (AooctCudaNormFormat format, int k)
{
  switch (format) {
    case AOOCT_CUDA_NORM_GRAY16:
      return range_map_for < WriteGray16 > (k);
    case AOOCT_CUDA_NORM_RGBA:
      return range_map_for < WriteRgba > (k);
    default:
      return range_map_for < WriteGray8 > (k);
  }
}

/* Decides, once at setup on the device the work will run on, whether the
 * B-scans of a buffer fit in the registers of the blocks that device holds
 * at once (fills @p's fused_blocks and fused_tiles). */
static gboolean
plan_fused (AooctCudaNormParams * p, GError ** error)
{
  static const int ks[] = { 1, 2, 4, 8 };
#ifdef AOOCT_FAULT_INJECTION
  /* test builds only (tests/elements/test-norm-cuda.c): two kernels, or a grid no
   * device holds */
  const char *env = g_getenv ("AOOCT_CUDA_NORM_FUSED");
#else
  const char *env = NULL;
#endif
  const long long rows = p->crop_end - p->crop_start;
  const long long tiles = (long long) ((p->alines + TILE - 1) / TILE) *
      ((rows + TILE - 1) / TILE) * p->bscans;
  int dev, coop, sms;

  p->fused_blocks = 0;
  p->fused_tiles = 0;
  if ((env && strcmp (env, "0") == 0) || tiles <= 0)
    return TRUE;
  if (env && strcmp (env, "oversize") == 0 && tiles <= G_MAXINT) {
    /* tests: a grid the device cannot hold, refused at every launch */
    p->fused_tiles = 1;
    p->fused_blocks = (int) tiles;
    return TRUE;
  }
  AOOCT_CUDA_CHECK (cudaGetDevice (&dev), error, "aooctnorm: cudaGetDevice");
  AOOCT_CUDA_CHECK (cudaDeviceGetAttribute (&coop,
          cudaDevAttrCooperativeLaunch, dev), error,
      "aooctnorm: cudaDeviceGetAttribute (cooperative launch)");
  AOOCT_CUDA_CHECK (cudaDeviceGetAttribute (&sms,
          cudaDevAttrMultiProcessorCount, dev), error,
      "aooctnorm: cudaDeviceGetAttribute (multiprocessors)");
  if (!coop)
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (ks); i++) {
    int per_sm;

    AOOCT_CUDA_CHECK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
            range_map_kernel (p->format, ks[i]), TILE * TILE_LANES, 0),
        error, "aooctnorm: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    /* as few tiles per block as fit: the most blocks, the most loads in
     * flight; then as few blocks as that many tiles need */
    if ((long long) per_sm * sms * ks[i] >= tiles) {
      p->fused_tiles = ks[i];
      p->fused_blocks = (int) ((tiles + ks[i] - 1) / ks[i]);
      break;
    }
  }
  return TRUE;
}

/* The per-B-scan range keys, initialised (the kernels restore them after
 * every buffer). */
static gboolean
scratch_new (const AooctCudaNormParams * p, gpointer * scratch,
    GError ** error)
{
  const gsize size = (gsize) p->bscans * sizeof (BscanRange);
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

struct _AooctCudaNormPlan
{
  AooctCudaNormParams params;
  gpointer scratch;             /* BscanRange per B-scan */
};

AooctCudaNormPlan *
aooct_cuda_norm_plan_new (AooctCudaNormParams * p, GError ** error)
{
  AooctCudaNormPlan *plan;

  if (!plan_fused (p, error))
    return NULL;
  plan = g_new0 (AooctCudaNormPlan, 1);
  plan->params = *p;
  if (!scratch_new (p, &plan->scratch, error)) {
    g_free (plan);
    return NULL;
  }
  return plan;
}

void
aooct_cuda_norm_plan_free (AooctCudaNormPlan * plan)
{
  if (plan == NULL)
    return;
  aooct_cuda_free (plan->scratch);
  g_free (plan);
}

gboolean
aooct_cuda_norm_execute (AooctCudaNormPlan * plan,
    const AooctNormSettings * s, const gfloat * in_f, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error)
{
  const AooctCudaNormParams *p = &plan->params;
  const float2 *in = (const float2 *) in_f;
  BscanRange *range = (BscanRange *) plan->scratch;
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
  /* rows padded to 4 bytes (an odd width): the padding goes to the image
   * file too, so it is written, with zeros, as on the CPU */
  if (out_stride > row_bytes && out_stride - row_bytes < 4
      && !aooct_cuda_memset_2d_async (out + row_bytes, out_stride, 0,
          out_stride - row_bytes, (gsize) p->bscans * rows, stream, error))
    return FALSE;

  if (s->auto_range && p->fused_blocks > 0) {
    void *args[] = { (void *) &in, (void *) &out, (void *) &out_stride,
      (void *) &range, (void *) p, (void *) s, (void *) &log_mode,
      (void *) &q
    };

    cudaError_t err = cudaLaunchCooperativeKernel (range_map_kernel
        (p->format, p->fused_tiles), dim3 (p->fused_blocks), block, args, 0,
        stream);

    if (err == cudaSuccess)
      return TRUE;
    if (err != cudaErrorCooperativeLaunchTooLarge)
      return aooct_cuda_set_error (err, error,
          "aooctnorm: range and map kernel");
    /* the device holds fewer blocks than at setup (MPS or another limit
     * on this context's SMs): the two kernels, which need no residency */
    (void) cudaGetLastError ();
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
