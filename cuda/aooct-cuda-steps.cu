/* aooct CUDA cores: device kernels of pad, kmap, disp, fft (window) and
 * norm.  See aooct-cuda-steps.h for the contract of each function.
 *
 * Layout everywhere: A-line r of a buffer starts at r * samples; one thread
 * per output sample, consecutive threads on consecutive samples, so every
 * global access is coalesced.  A 2-D grid (x over samples, y over A-lines)
 * keeps index arithmetic in 32 bits. */
#include <cstdint>
#include <climits>

#include "aooct-cuda-steps.h"

#define THREADS 256

static inline dim3
grid_for (int samples, int rows)
{
  return dim3 ((unsigned) ((samples + THREADS - 1) / THREADS),
      (unsigned) (rows < 65535 ? rows : 65535));
}

/* rows beyond gridDim.y (65535) are covered by striding */
#define FOR_ROWS(r, rows) \
  for (int r = blockIdx.y; r < (rows); r += gridDim.y)

static __global__ void
pad_place_kernel (const float *x, float *y, int n, int p1, int offset,
    int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p1)
    return;
  FOR_ROWS (r, rows) {
    int src = i - offset;
    y[(size_t) r * p1 + i] = (src >= 0 && src < n) ?
        x[(size_t) r * n + src] : 0.0f;
  }
}

extern "C" cudaError_t
aooct_cuda_pad_place (const float *x, float *y, int n, int p1, int offset,
    int rows, cudaStream_t stream)
{
  pad_place_kernel <<< grid_for (p1, rows), THREADS, 0, stream >>> (x, y, n,
      p1, offset, rows);
  return cudaGetLastError ();
}

static __global__ void
pad_spectrum_kernel (const float2 * Y, float2 * Z, int p1, int p2, int rows)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int in_bins = p1 / 2 + 1, out_bins = p2 / 2 + 1;
  if (k >= out_bins)
    return;
  FOR_ROWS (r, rows) {
    /* the Nyquist bin P1/2 is copied, not halved (spec section 3) */
    Z[(size_t) r * out_bins + k] = k < in_bins ?
        Y[(size_t) r * in_bins + k] : make_float2 (0.0f, 0.0f);
  }
}

extern "C" cudaError_t
aooct_cuda_pad_spectrum (const float2 * Y, float2 * Z, int p1, int p2,
    int rows, cudaStream_t stream)
{
  pad_spectrum_kernel <<< grid_for (p2 / 2 + 1, rows), THREADS, 0,
      stream >>> (Y, Z, p1, p2, rows);
  return cudaGetLastError ();
}

static __global__ void
pad_finish_kernel (float *z, int p2, int j0, int j1, float scale, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  FOR_ROWS (r, rows) {
    float *v = z + (size_t) r * p2 + i;
    *v = (i >= j0 && i <= j1) ? *v * scale : 0.0f;
  }
}

extern "C" cudaError_t
aooct_cuda_pad_finish (float *z, int p2, int j0, int j1, float scale,
    int rows, cudaStream_t stream)
{
  pad_finish_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (z, p2,
      j0, j1, scale, rows);
  return cudaGetLastError ();
}

static __device__ __forceinline__ float
kmap_sample (const float *row, const int *index, const float *frac, int i)
{
  int l = index[i];
  float a = row[l], b = row[l + 1];
  return a + (b - a) * frac[i];
}

static __global__ void
kmap_kernel (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  FOR_ROWS (r, rows) {
    const float *row = in + (size_t) r * p2;
    out[(size_t) r * p2 + i] = (i >= j0 && i <= j1) ?
        kmap_sample (row, index, frac, i) : 0.0f;
  }
}

extern "C" cudaError_t
aooct_cuda_kmap (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows, cudaStream_t stream)
{
  kmap_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in, out,
      index, frac, p2, j0, j1, rows);
  return cudaGetLastError ();
}

static __global__ void
disp_kernel (const float *in, float2 * out, const float2 * w, int p2,
    int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  float2 wi = w[i];
  FOR_ROWS (r, rows) {
    float x = in[(size_t) r * p2 + i];
    out[(size_t) r * p2 + i] = make_float2 (x * wi.x, x * wi.y);
  }
}

extern "C" cudaError_t
aooct_cuda_disp (const float *in, float2 * out, const float2 * w, int p2,
    int rows, cudaStream_t stream)
{
  disp_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in, out, w,
      p2, rows);
  return cudaGetLastError ();
}

static __global__ void
kmap_disp_kernel (const float *in, float2 * out, const int *index,
    const float *frac, const float2 * w, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  float2 wi = w[i];
  FOR_ROWS (r, rows) {
    float x = (i >= j0 && i <= j1) ?
        kmap_sample (in + (size_t) r * p2, index, frac, i) : 0.0f;
    out[(size_t) r * p2 + i] = make_float2 (x * wi.x, x * wi.y);
  }
}

extern "C" cudaError_t
aooct_cuda_kmap_disp (const float *in, float2 * out, const int *index,
    const float *frac, const float2 * w, int p2, int j0, int j1, int rows,
    cudaStream_t stream)
{
  kmap_disp_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in, out,
      index, frac, w, p2, j0, j1, rows);
  return cudaGetLastError ();
}

static __global__ void
window_kernel (const void *in, int in_complex, float2 * out,
    const float *window, int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  float wi = window ? window[i] : 1.0f;
  FOR_ROWS (r, rows) {
    size_t idx = (size_t) r * p2 + i;
    float2 v = in_complex ? ((const float2 *) in)[idx] :
        make_float2 (((const float *) in)[idx], 0.0f);
    out[idx] = make_float2 (v.x * wi, v.y * wi);
  }
}

extern "C" cudaError_t
aooct_cuda_window (const void *in, int in_complex, float2 * out,
    const float *window, int p2, int rows, cudaStream_t stream)
{
  window_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in,
      in_complex, out, window, p2, rows);
  return cudaGetLastError ();
}

/* ---- aooctnorm ---------------------------------------------------------- */

/* Floats as order-preserving ints, so that atomicMin/atomicMax on int give
 * the float minimum/maximum (no NaN can occur: I >= 0, L finite). */
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
norm_value (float2 c, int log_mode)
{
  float i = c.x * c.x + c.y * c.y;
  return log_mode ? 10.0f * log10f (fmaxf (i, 1e-30f)) : i;
}

static __global__ void
norm_range_init (int *range, int bscans)
{
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < bscans) {
    range[2 * b] = INT_MAX;
    range[2 * b + 1] = INT_MIN;
  }
}

/* grid: x = blocks per B-scan, y = B-scan */
static __global__ void
norm_range_kernel (const float2 * in, int *range, AooctCudaNormParams p)
{
  __shared__ float smin[THREADS], smax[THREADS];
  const int rows = p.crop_end - p.crop_start;
  const long total = (long) rows * p.alines;
  const int b = blockIdx.y;
  float lo = 3.4e38f, hi = -3.4e38f;

  for (long t = (long) blockIdx.x * blockDim.x + threadIdx.x; t < total;
      t += (long) gridDim.x * blockDim.x) {
    int m = (int) (t / rows), d = (int) (t % rows);
    float v = norm_value (in[((size_t) b * p.alines + m) * p.samples +
            p.crop_start + d], p.log_mode);
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
    atomicMin (&range[2 * b], float_key (smin[0]));
    atomicMax (&range[2 * b + 1], float_key (smax[0]));
  }
}

#define TILE 32

/* grid: x = A-line tiles, y = depth tiles, z = B-scan; block TILE x 8 */
template < typename T > static __global__ void
norm_map_kernel (const float2 * in, T * out, const int *range,
    AooctCudaNormParams p, float full_scale)
{
  __shared__ float tile[TILE][TILE + 1];
  const int rows = p.crop_end - p.crop_start;
  const int b = blockIdx.z;
  const int m0 = blockIdx.x * TILE, d0 = blockIdx.y * TILE;
  float lo, hi;

  if (p.auto_range) {
    float mn = key_float (range[2 * b]), mx = key_float (range[2 * b + 1]);
    hi = mx;
    lo = (p.log_mode && p.dynamic_range > 0.0f) ? mx - p.dynamic_range : mn;
  } else {
    lo = p.manual_lo;
    hi = p.manual_hi;
  }

  /* read: consecutive threads along depth (contiguous in the input) */
  for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
    int m = m0 + k, d = d0 + threadIdx.x;
    float pix = 0.0f;
    if (m < p.alines && d < rows && hi != lo) {
      float v = norm_value (in[((size_t) b * p.alines + m) * p.samples +
              p.crop_start + d], p.log_mode);
      v = (v - lo) / (hi - lo);
      v = fminf (fmaxf (v, 0.0f), 1.0f);
      pix = floorf (full_scale * v + 0.5f);
    }
    tile[k][threadIdx.x] = pix;
  }
  __syncthreads ();
  /* write: consecutive threads along A-lines (contiguous in the image) */
  for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
    int d = d0 + k, m = m0 + threadIdx.x;
    if (m < p.alines && d < rows) {
      T *row = (T *) ((char *) out + ((size_t) b * rows + d) * p.out_stride);
      row[m] = (T) tile[threadIdx.x][k];
    }
  }
}

extern "C" size_t
aooct_cuda_norm_scratch_size (const AooctCudaNormParams * p)
{
  return (size_t) p->bscans * 2 * sizeof (int);
}

extern "C" cudaError_t
aooct_cuda_norm (const float2 * in, void *out, void *scratch,
    const AooctCudaNormParams * p, cudaStream_t stream)
{
  int *range = (int *) scratch;
  int rows = p->crop_end - p->crop_start;
  dim3 block (TILE, 8);
  dim3 grid ((p->alines + TILE - 1) / TILE, (rows + TILE - 1) / TILE,
      p->bscans);
  cudaError_t err;

  if (p->auto_range) {
    long total = (long) rows * p->alines;
    int blocks = (int) ((total + THREADS - 1) / THREADS);
    if (blocks > 128)
      blocks = 128;             /* enough to fill the GPU per B-scan batch */
    norm_range_init <<< (p->bscans + 63) / 64, 64, 0, stream >>> (range,
        p->bscans);
    norm_range_kernel <<< dim3 (blocks, p->bscans), THREADS, 0,
        stream >>> (in, range, *p);
    if ((err = cudaGetLastError ()) != cudaSuccess)
      return err;
  }
  if (p->bits == 16)
    norm_map_kernel < uint16_t > <<< grid, block, 0, stream >>> (in,
        (uint16_t *) out, range, *p, 65535.0f);
  else
    norm_map_kernel < uint8_t > <<< grid, block, 0, stream >>> (in,
        (uint8_t *) out, range, *p, 255.0f);
  return cudaGetLastError ();
}
