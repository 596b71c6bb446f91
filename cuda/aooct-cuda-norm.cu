/* aooct CUDA core: crop, intensity, log and normalisation (see
 * aooct-cuda-norm.h). */
#include <stdint.h>
#include <limits.h>

#include "aooct-cuda-norm.h"
#include "aooct-cuda-check.h"

#define REDUCE_THREADS 256
#define REDUCE_MAX_BLOCKS 128   /* per B-scan; enough to fill the GPU */
#define TILE 32
#define TILE_LANES 8
#define MAX_GRID_YZ 65535

/* Per B-scan in the scratch: the two range keys, then lo and the scale. */
typedef struct
{
  int min_key, max_key;
  float lo, scale;
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
  float2 c = in[((size_t) b * p.alines + m) * p.samples + p.crop_start + d];
  float v = aooct_norm_intensity (c.x, c.y);

  return log_mode ? aooct_norm_db (v) : v;
}

static __global__ void
range_init (BscanRange * range, int bscans)
{
  const int b = blockIdx.x * blockDim.x + threadIdx.x;

  if (b < bscans) {
    range[b].min_key = INT_MAX;
    range[b].max_key = INT_MIN;
  }
}

/* grid: x = blocks per B-scan, y = B-scans (striding beyond 65535).
 * Consecutive threads take consecutive depth bins of an A-line, so the
 * reads are coalesced. */
static __global__ void
range_reduce (const float2 * in, BscanRange * range, AooctCudaNormParams p,
    int log_mode)
{
  __shared__ float smin[REDUCE_THREADS], smax[REDUCE_THREADS];
  const int rows = p.crop_end - p.crop_start;
  const long long total = (long long) rows * p.alines;

  for (int b = blockIdx.y; b < p.bscans; b += gridDim.y) {
    float lo = INFINITY, hi = -INFINITY;

    for (long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
        t < total; t += (long long) gridDim.x * blockDim.x) {
      float v = pixel_value (in, p, b, (int) (t / rows), (int) (t % rows),
          log_mode);
      lo = fminf (lo, v);
      hi = fmaxf (hi, v);
    }
    smin[threadIdx.x] = lo;
    smax[threadIdx.x] = hi;
    __syncthreads ();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) {
        smin[threadIdx.x] = fminf (smin[threadIdx.x], smin[threadIdx.x + s]);
        smax[threadIdx.x] = fmaxf (smax[threadIdx.x], smax[threadIdx.x + s]);
      }
      __syncthreads ();
    }
    if (threadIdx.x == 0) {
      atomicMin (&range[b].min_key, float_key (smin[0]));
      atomicMax (&range[b].max_key, float_key (smax[0]));
    }
    __syncthreads ();           /* smin/smax are reused for the next b */
  }
}

/* One thread per B-scan: lo and the scale exactly as the CPU core computes
 * them (double, then rounded to float). */
static __global__ void
range_finish (BscanRange * range, int bscans, AooctNormSettings s, double q)
{
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  double vmin = 0.0, vmax = 0.0, lo, hi, scale;

  if (b >= bscans)
    return;
  if (s.auto_range) {
    vmin = key_float (range[b].min_key);
    vmax = key_float (range[b].max_key);
  }
  aooct_norm_range_compute (s.auto_range, s.log, s.dynamic_range,
      s.range_min, s.range_max, q, vmin, vmax, &lo, &hi, &scale);
  range[b].lo = (float) lo;
  range[b].scale = (float) scale;
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
    const BscanRange * range, AooctCudaNormParams p, int log_mode, float q)
{
  __shared__ float tile[TILE][TILE + 1];
  const int rows = p.crop_end - p.crop_start;
  const int m0 = blockIdx.x * TILE, d0 = blockIdx.y * TILE;

  for (int b = blockIdx.z; b < p.bscans; b += gridDim.z) {
    const float lo = range[b].lo, scale = range[b].scale;

    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
      int m = m0 + k, d = d0 + threadIdx.x;
      if (m < p.alines && d < rows)
        tile[k][threadIdx.x] = aooct_norm_grey (pixel_value (in, p, b, m, d,
                log_mode), lo, scale, q);
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

  if (s->auto_range) {
    long long total = (long long) rows * p->alines;
    int blocks = (int) MIN ((total + REDUCE_THREADS - 1) / REDUCE_THREADS,
        (long long) REDUCE_MAX_BLOCKS);

    range_init <<< (p->bscans + 63) / 64, 64, 0, stream >>> (range,
        p->bscans);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: range initialisation kernel");
    range_reduce <<< dim3 (blocks, bscan_grid), REDUCE_THREADS, 0,
        stream >>> (in, range, *p, log_mode);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: range reduction kernel");
  }
  range_finish <<< (p->bscans + 63) / 64, 64, 0, stream >>> (range,
      p->bscans, *s, (double) q);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: range kernel");

  {
    dim3 block (TILE, TILE_LANES);
    dim3 grid ((p->alines + TILE - 1) / TILE, (rows + TILE - 1) / TILE,
        bscan_grid);

    if (grid.y > MAX_GRID_YZ) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "aooctnorm on CUDA: a crop of %d depth bins is too tall (at most "
          "%d)", rows, MAX_GRID_YZ * TILE);
      return FALSE;
    }
    switch (p->format) {
      case AOOCT_CUDA_NORM_GRAY16:
        map_transpose < WriteGray16 > <<< grid, block, 0, stream >>> (in,
            out, out_stride, range, *p, log_mode, q);
        break;
      case AOOCT_CUDA_NORM_RGBA:
        map_transpose < WriteRgba > <<< grid, block, 0, stream >>> (in, out,
            out_stride, range, *p, log_mode, q);
        break;
      default:
        map_transpose < WriteGray8 > <<< grid, block, 0, stream >>> (in, out,
            out_stride, range, *p, log_mode, q);
        break;
    }
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: map/transpose kernel");
  }
  return TRUE;
}
