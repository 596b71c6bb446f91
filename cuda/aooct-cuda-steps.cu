/* aooct CUDA cores: device kernels of pad, kmap, disp and fft (window)
 * (norm: aooct-cuda-norm.cu).  See aooct-cuda-steps.h for the contract of
 * each function.
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
    float scale, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p1)
    return;
  FOR_ROWS (r, rows) {
    int src = i - offset;
    y[(size_t) r * p1 + i] = (src >= 0 && src < n) ?
        x[(size_t) r * n + src] * scale : 0.0f;
  }
}

extern "C" cudaError_t
aooct_cuda_pad_place (const float *x, float *y, int n, int p1, int offset,
    float scale, int rows, cudaStream_t stream)
{
  pad_place_kernel <<< grid_for (p1, rows), THREADS, 0, stream >>> (x, y, n,
      p1, offset, scale, rows);
  return cudaGetLastError ();
}

/* one thread per zero bin k = P1/2 + 1 + i of a row */
static __global__ void
pad_zero_bins_kernel (float2 * Z, int p1, int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int first = p1 / 2 + 1, bins = p2 / 2 + 1;
  if (i >= bins - first)
    return;
  FOR_ROWS (r, rows) {
    Z[(size_t) r * bins + first + i] = make_float2 (0.0f, 0.0f);
  }
}

extern "C" cudaError_t
aooct_cuda_pad_zero_bins (float2 * Z, int p1, int p2, int rows,
    cudaStream_t stream)
{
  int count = p2 / 2 - p1 / 2;

  if (count <= 0)
    return cudaSuccess;
  pad_zero_bins_kernel <<< grid_for (count, rows), THREADS, 0, stream >>> (Z,
      p1, p2, rows);
  return cudaGetLastError ();
}

/* one thread per margin sample of a row: i < j0 is sample i, the others
 * the samples after j1 */
static __global__ void
pad_margins_kernel (float *z, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= j0 + (p2 - 1 - j1))
    return;
  int j = i < j0 ? i : j1 + 1 + (i - j0);
  FOR_ROWS (r, rows) {
    z[(size_t) r * p2 + j] = 0.0f;
  }
}

extern "C" cudaError_t
aooct_cuda_pad_margins (float *z, int p2, int j0, int j1, int rows,
    cudaStream_t stream)
{
  int count = j0 + (p2 - 1 - j1);

  if (count <= 0)
    return cudaSuccess;
  pad_margins_kernel <<< grid_for (count, rows), THREADS, 0, stream >>> (z,
      p2, j0, j1, rows);
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

/* The same on input that aooctpad left unscaled: z[l] + (z[l+1] - z[l]) t
 * on s z is s times it on z, bit for bit, for a power of two s (each
 * operation's rounding commutes with the scale; camera data never comes
 * near the subnormal range), so scaling the result is scaling the input. */
static __global__ void
kmap_scaled_kernel (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, float scale, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  FOR_ROWS (r, rows) {
    const float *row = in + (size_t) r * p2;
    out[(size_t) r * p2 + i] = (i >= j0 && i <= j1) ?
        kmap_sample (row, index, frac, i) * scale : 0.0f;
  }
}

extern "C" cudaError_t
aooct_cuda_kmap (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, float scale, int rows,
    cudaStream_t stream)
{
  if (scale == 1.0f)
    kmap_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in, out,
        index, frac, p2, j0, j1, rows);
  else
    kmap_scaled_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in,
        out, index, frac, p2, j0, j1, scale, rows);
  return cudaGetLastError ();
}

/* aooctkmap, aooctdisp and aooctfft's window, each optional, in one pass:
 * the same operations as kmap_kernel, then x * w (a real times a complex),
 * then v * window, each rounded as in the separate kernels (no
 * contraction), so the result is bit-identical to running them in turn.
 * The NULL tests are uniform across the grid. */
static __global__ void
prep_kernel (const float *in, float2 * out, int pad, float pad_scale,
    int pj0, int pj1, const int *index, const float *frac, int j0, int j1,
    const float2 * w, const float *window, int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  const bool inside = i >= j0 && i <= j1;
  const bool pad_inside = i >= pj0 && i <= pj1;
  const float2 wi = w ? w[i] : make_float2 (1.0f, 0.0f);
  const float win = window ? window[i] : 1.0f;
  FOR_ROWS (r, rows) {
    const float *row = in + (size_t) r * p2;
    float x;
    float2 c;

    if (index)
      x = inside ? kmap_sample (row, index, frac, i) : 0.0f;
    else
      x = row[i];
    /* after the resampling: it reads the data region only, and commutes
     * exactly with a power-of-two scale (see kmap_scaled_kernel) */
    if (pad)
      x = pad_inside ? x * pad_scale : 0.0f;
    c = w ? make_float2 (x * wi.x, x * wi.y) : make_float2 (x, 0.0f);
    if (window)
      c = make_float2 (c.x * win, c.y * win);
    out[(size_t) r * p2 + i] = c;
  }
}

extern "C" cudaError_t
aooct_cuda_prep (const float *in, float2 * out, int pad, float pad_scale,
    int pad_j0, int pad_j1, const int *index, const float *frac, int j0,
    int j1, const float2 * w, const float *window, int p2, int rows,
    cudaStream_t stream)
{
  prep_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in, out,
      pad, pad_scale, pad_j0, pad_j1, index, frac, j0, j1, w, window, p2,
      rows);
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

/* ---- complex spectra (full range, spec section 9) ---------------------- */

static __global__ void
kmap_complex_kernel (const float2 * in, float2 * out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  FOR_ROWS (r, rows) {
    const float2 *row = in + (size_t) r * p2;
    float2 v = make_float2 (0.0f, 0.0f);
    if (i >= j0 && i <= j1) {
      const int l = index[i];
      const float t = frac[i];
      const float2 a = row[l], b = row[l + 1];
      /* the real kernel's operations on each part */
      v = make_float2 (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
    }
    out[(size_t) r * p2 + i] = v;
  }
}

extern "C" cudaError_t
aooct_cuda_kmap_complex (const float2 * in, float2 * out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows, cudaStream_t stream)
{
  kmap_complex_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in,
      out, index, frac, p2, j0, j1, rows);
  return cudaGetLastError ();
}

static __global__ void
disp_complex_kernel (const float2 * in, float2 * out, const float2 * w,
    int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  const float2 wi = w[i];
  FOR_ROWS (r, rows) {
    size_t idx = (size_t) r * p2 + i;
    const float2 x = in[idx];
    out[idx] = make_float2 (x.x * wi.x - x.y * wi.y, x.x * wi.y + x.y * wi.x);
  }
}

extern "C" cudaError_t
aooct_cuda_disp_complex (const float2 * in, float2 * out, const float2 * w,
    int p2, int rows, cudaStream_t stream)
{
  disp_complex_kernel <<< grid_for (p2, rows), THREADS, 0, stream >>> (in,
      out, w, p2, rows);
  return cudaGetLastError ();
}

static __global__ void
pad_place_complex_kernel (const float2 * x, float2 * y, int n, int p1,
    int offset, float scale, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p1)
    return;
  FOR_ROWS (r, rows) {
    int src = i - offset;
    float2 v = make_float2 (0.0f, 0.0f);
    if (src >= 0 && src < n) {
      v = x[(size_t) r * n + src];
      v = make_float2 (v.x * scale, v.y * scale);
    }
    y[(size_t) r * p1 + i] = v;
  }
}

extern "C" cudaError_t
aooct_cuda_pad_place_complex (const float2 * x, float2 * y, int n, int p1,
    int offset, float scale, int rows, cudaStream_t stream)
{
  pad_place_complex_kernel <<< grid_for (p1, rows), THREADS, 0, stream >>>
      (x, y, n, p1, offset, scale, rows);
  return cudaGetLastError ();
}

/* thread t < P2 - P1 of a row: t <= P1/2 moves Y[t] from P2 - P1 + t down
 * to t (and zeroes its old place unless it is the Nyquist bin, which stays
 * at the top too); P1/2 < t < P2 - P1 zeroes bin t.  For P2 >= 2 P1 the
 * bins read ([P2 - P1, P2 - P1/2]) and those written by other threads are
 * disjoint, so there is no race. */
static __global__ void
pad_spread_complex_kernel (float2 * Z, int p1, int p2, int rows)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int top = p2 - p1;
  if (t >= top)
    return;
  FOR_ROWS (r, rows) {
    float2 *z = Z + (size_t) r * p2;
    if (t <= p1 / 2) {
      z[t] = z[top + t];
      if (t < p1 / 2)
        z[top + t] = make_float2 (0.0f, 0.0f);
    } else {
      z[t] = make_float2 (0.0f, 0.0f);
    }
  }
}

extern "C" cudaError_t
aooct_cuda_pad_spread_complex (float2 * Z, int p1, int p2, int rows,
    cudaStream_t stream)
{
  if (p2 == p1)
    return cudaSuccess;
  pad_spread_complex_kernel <<< grid_for (p2 - p1, rows), THREADS, 0,
      stream >>> (Z, p1, p2, rows);
  return cudaGetLastError ();
}

static __global__ void
pad_margins_complex_kernel (float2 * z, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= j0 + (p2 - 1 - j1))
    return;
  int j = i < j0 ? i : j1 + 1 + (i - j0);
  FOR_ROWS (r, rows) {
    z[(size_t) r * p2 + j] = make_float2 (0.0f, 0.0f);
  }
}

extern "C" cudaError_t
aooct_cuda_pad_margins_complex (float2 * z, int p2, int j0, int j1,
    int rows, cudaStream_t stream)
{
  int count = j0 + (p2 - 1 - j1);

  if (count <= 0)
    return cudaSuccess;
  pad_margins_complex_kernel <<< grid_for (count, rows), THREADS, 0,
      stream >>> (z, p2, j0, j1, rows);
  return cudaGetLastError ();
}
