/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: the forward C2C of one A-line per thread block, in shared
 * memory, with whatever pointwise step comes before it applied while the
 * A-line is loaded (aooctfft's window, and the steps deferred to it).
 *
 * Why our own transform instead of cuFFT for these sizes: cuFFT reads its
 * input from device memory, so every step before it has to write its
 * result there first.  For a 2048 x 1000 B-scan padded to 4096 points,
 * the pass before the C2C reads 16 MB of real spectra and writes 32 MB
 * of complex ones, which cuFFT reads again: 18-23 us of the 82-87 us a
 * B-scan spent on the H100 (docs/performance.md, "The output thread was
 * the bound").  Here the block reads the real spectra itself and the
 * complex ones never leave the SM.  cuFFT's own way to do this, a load
 * callback, was measured 2.8x slower and rejected (same section).
 *
 * The transform: Stockham autosort (Govindaraju et al., "High performance
 * discrete Fourier transforms on graphics processors", SC 2008), radix 16,
 * 16 and N / 256, natural order in and out.  N / 16 threads hold 16 points
 * each in registers; a radix-R butterfly is an in-register radix-2
 * decimation in frequency whose constant twiddles are folded at compile
 * time (multiples of a quarter turn are exact swaps); the twiddles between
 * passes come from a table of W_N^e computed in double and rounded once
 * (twiddles_new in aooct-cuda-fft.cu), W_N^e read as W_N^(64 h) x W_N^l
 * (e = 64 h + l) from two tables of 64 entries in shared memory: read from
 * the whole table in device memory, the twiddles of a warp fall in up to
 * 16 cache lines per load, and the kernel took 40 instead of 30 us per
 * 2048 x 1000 B-scan on the H100 (each product of two rounded entries is
 * within about 1.5 eps of W_N^e).  Shared memory holds the A-line between passes, one
 * padding slot per 16 so that the first pass's strided stores hit 16
 * distinct 8-byte banks per half-warp.
 *
 * A loader is a struct with a method
 *   float2 at (size_t row, int i) const: point i of A-line @row of the
 *     transform's input.
 * Every point is loaded before the first store to @out: the transform may
 * run in place (@out the loader's input). */
#ifndef __AOOCT_CUDA_FFT_BLOCK_CUH__
#define __AOOCT_CUDA_FFT_BLOCK_CUH__

#include <cuda_runtime.h>

/* The sizes with a block transform; others use cuFFT. */
static inline bool
aooct_fft_block_supports (int n)
{
  return n >= 512 && n <= 4096 && (n & (n - 1)) == 0;
}

namespace aooct_fft_block
{
  constexpr int PER_THREAD = 16;

  /* bit reversal of k < R (R a power of two) */
  __host__ __device__ constexpr int brev (int k, int R)
  {
    int b = 0;
    for (int m = R >> 1; m > 0; m >>= 1, k >>= 1)
      b = (b << 1) | (k & 1);
    return b;
  }

  /* one padding slot per 16 */
  static __device__ __forceinline__ int pad (int i)
  {
    return i + (i >> 4);
  }

  static __device__ __forceinline__ float2 cmul (float2 a, float2 b)
  {
    return make_float2 (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  }

  /* v x W_16^e = v x exp(-2 pi i e / 16); @e is a constant once the
   * callers' loops are unrolled, so the switch folds away */
  static __device__ __forceinline__ float2 rot16 (float2 v, int e)
  {
    /* cos and sin of pi/8, pi/4 and 3 pi/8, rounded to float */
    const float c1 = 0.92387953251128674f, r2 = 0.70710678118654752f,
        s1 = 0.38268343236508977f;

    switch (e & 15) {
      case 0:
        return v;
      case 4:
        return make_float2 (v.y, -v.x);
      case 8:
        return make_float2 (-v.x, -v.y);
      case 12:
        return make_float2 (-v.y, v.x);
      case 1:
        return cmul (v, make_float2 (c1, -s1));
      case 2:
        return cmul (v, make_float2 (r2, -r2));
      case 3:
        return cmul (v, make_float2 (s1, -c1));
      case 5:
        return cmul (v, make_float2 (-s1, -c1));
      case 6:
        return cmul (v, make_float2 (-r2, -r2));
      case 7:
        return cmul (v, make_float2 (-c1, -s1));
      case 9:
        return cmul (v, make_float2 (-c1, s1));
      case 10:
        return cmul (v, make_float2 (-r2, r2));
      case 11:
        return cmul (v, make_float2 (-s1, c1));
      case 13:
        return cmul (v, make_float2 (s1, c1));
      case 14:
        return cmul (v, make_float2 (r2, r2));
      default:
        return cmul (v, make_float2 (c1, s1));
    }
  }

  /* in-register DFT of R points (R <= 16) by radix-2 decimation in
   * frequency: X[k] ends in v[brev (k, R)] */
  template < int R > static __device__ __forceinline__ void dft (float2 * v)
  {
#pragma unroll
    for (int half = R / 2; half >= 1; half /= 2) {
#pragma unroll
      for (int s = 0; s < R; s += 2 * half) {
#pragma unroll
        for (int k = 0; k < half; k++) {
          const float2 a = v[s + k], b = v[s + k + half];

          v[s + k] = make_float2 (a.x + b.x, a.y + b.y);
          v[s + k + half] = rot16 (make_float2 (a.x - b.x, a.y - b.y),
              k * (16 / (2 * half)));
        }
      }
    }
  }

  /* One Stockham pass of radix R after passes whose radices multiply to
   * NS: each of the thread's 16 / R butterflies b = t + q T reads points
   * b + rr N / R (v[q R + rr]), twiddles them by W_N^((b mod NS) rr N /
   * (NS R)) (@tlo: W_N^l, @thi: W_N^(64 h)) and transforms them. */
  template < int N, int R, int NS > static __device__ __forceinline__ void
      butterflies (float2 * v, const float2 * tlo, const float2 * thi, int t)
  {
    constexpr int T = N / PER_THREAD;

#pragma unroll
    for (int q = 0; q < PER_THREAD / R; q++) {
      if (NS > 1) {
        const int m = (t + q * T) % NS;
#pragma unroll
        for (int rr = 1; rr < R; rr++)
        {
          const int e = m * rr * (N / (NS * R));

          v[q * R + rr] = cmul (v[q * R + rr], cmul (thi[e >> 6],
                  tlo[e & 63]));
        }
      }
      dft < R > (v + q * R);
    }
  }

  /* the pass's loads from shared memory */
  template < int N, int R > static __device__ __forceinline__ void
      gather (float2 * v, const float2 * s, int t)
  {
    constexpr int T = N / PER_THREAD;

#pragma unroll
    for (int q = 0; q < PER_THREAD / R; q++)
#pragma unroll
      for (int rr = 0; rr < R; rr++)
        v[q * R + rr] = s[pad (t + q * T + rr * (N / R))];
  }

  /* the pass's stores: output rr of butterfly b goes to
   * (b / NS) NS R + b mod NS + rr NS, into shared memory (padded) or, in
   * the last pass, to the A-line in device memory */
  template < int N, int R, int NS, bool GLOBAL >
      static __device__ __forceinline__ void
      store (const float2 * v, float2 * d, int t)
  {
    constexpr int T = N / PER_THREAD;

#pragma unroll
    for (int q = 0; q < PER_THREAD / R; q++) {
      const int b = t + q * T;
      const int base = (b / NS) * NS * R + b % NS;
#pragma unroll
      for (int rr = 0; rr < R; rr++) {
        const int i = base + rr * NS;

        d[GLOBAL ? i : pad (i)] = v[q * R + brev (rr, R)];
      }
    }
  }
}                               /* namespace aooct_fft_block */

/* One A-line (blockIdx.x) of N points, N / 16 threads. */
template < int N, class L > static __global__ void
__launch_bounds__ (N / aooct_fft_block::PER_THREAD)
aooct_fft_block_kernel (L src, const float2 * __restrict__ tw, float2 * out)
{
  using namespace aooct_fft_block;
  constexpr int T = N / PER_THREAD;
  constexpr int R3 = N / 256;
  __shared__ float2 s[N + N / 16];
  __shared__ float2 tlo[64], thi[N / 64];
  const int t = threadIdx.x;
  const size_t row = blockIdx.x;
  float2 v[PER_THREAD];

  /* first used after the first pass's barrier */
  for (int k = t; k < 64; k += T) {
    tlo[k] = tw[k];
    if (k < N / 64)
      thi[k] = tw[64 * k];
  }
#pragma unroll
  for (int q = 0; q < PER_THREAD; q++)
    v[q] = src.at (row, t + q * T);

  butterflies < N, 16, 1 > (v, tlo, thi, t);
  store < N, 16, 1, false > (v, s, t);
  __syncthreads ();
  gather < N, 16 > (v, s, t);
  butterflies < N, 16, 16 > (v, tlo, thi, t);
  __syncthreads ();
  store < N, 16, 16, false > (v, s, t);
  __syncthreads ();
  gather < N, R3 > (v, s, t);
  butterflies < N, R3, 256 > (v, tlo, thi, t);
  store < N, R3, 256, true > (v, out + row * N, t);
}

/* Enqueues @rows transforms of @n points (aooct_fft_block_supports) on
 * @stream; @tw: the n-entry table of W_n^e.  The caller checks
 * cudaGetLastError(). */
template < class L > static void
aooct_fft_block_launch (int n, const L & src, const float2 * tw,
    float2 * out, int rows, cudaStream_t stream)
{
  const unsigned grid = (unsigned) rows;

  if (rows <= 0)
    return;
  switch (n) {
    case 512:
      aooct_fft_block_kernel < 512, L > <<< grid, 512 / 16, 0, stream >>> (src,
          tw, out);
      break;
    case 1024:
      aooct_fft_block_kernel < 1024, L > <<< grid, 1024 / 16, 0,
          stream >>> (src, tw, out);
      break;
    case 2048:
      aooct_fft_block_kernel < 2048, L > <<< grid, 2048 / 16, 0,
          stream >>> (src, tw, out);
      break;
    default:
      aooct_fft_block_kernel < 4096, L > <<< grid, 4096 / 16, 0,
          stream >>> (src, tw, out);
      break;
  }
}

#endif /* __AOOCT_CUDA_FFT_BLOCK_CUH__ */
