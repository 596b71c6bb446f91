/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: the gather of the FIR resampling modes (cubic, bspline,
 * lanczos; AooctKmapFir of common/aooct-kspace.h), shared by aooctkmap's
 * own kernel (aooct-cuda-kmap.cu) and the fused pre-FFT pass that applies
 * it when aooctkmap deferred it (aooct-cuda-prep.cu), so that both give
 * the same bits.
 *
 * One thread per output sample i (two for bspline: "two outputs per
 * thread" below) and AOOCT_FIR_ROWS A-lines: the thread
 * keeps its TAPS weights in registers for all of them (the table is read
 * once per AOOCT_FIR_ROWS A-lines, coalesced: the weights of a tap are
 * contiguous over i), and the input samples of neighbouring outputs
 * overlap, so they come from L1.  TAPS is a compile-time constant for
 * the three modes' tap counts, 0 for any other (a data region shorter
 * than the kernel): then the weights are read from the table per A-line. */
#ifndef __AOOCT_CUDA_FIR_CUH__
#define __AOOCT_CUDA_FIR_CUH__

#include "aooct-kspace.h"

#define AOOCT_FIR_ROWS 8
#define AOOCT_FIR_THREADS 128

/* The weights of output @i (@weight: the table, tap-major over @p2
 * outputs) into @w, when TAPS is a constant. */
template < int TAPS > static __device__ __forceinline__ void
aooct_fir_load (float *w, const float *weight, int p2, int i)
{
  if (TAPS > 0) {
#pragma unroll
    for (int q = 0; q < (TAPS > 0 ? TAPS : 1); q++)
      w[q] = weight[(size_t) q * p2 + i];
  }
}

/* sum over q = 0, 1, ... of z[q * CH + c] * w_q, each product and sum
 * rounded on its own (no contraction) in the CPU core's tap order, so the
 * result is the CPU's bit for bit.  @z: the first input sample of output
 * @i (@first[i]) in an A-line of CH floats per sample (1 real, 2
 * interleaved complex, re and im alike); w_q = @w[q] (aooct_fir_load) when
 * TAPS is a constant, else the table's @weight[q * p2 + i] for @taps
 * taps. */
template < int TAPS, int CH > static __device__ __forceinline__ float
aooct_fir_dot (const float *z, int c, const float *w, const float *weight,
    int p2, int i, int taps)
{
  float v = 0.0f;

  if (TAPS > 0) {
#pragma unroll
    for (int q = 0; q < (TAPS > 0 ? TAPS : 1); q++)
      v = __fadd_rn (v, __fmul_rn (z[q * CH + c], w[q]));
  } else {
    for (int q = 0; q < taps; q++)
      v = __fadd_rn (v, __fmul_rn (z[q * CH + c],
              weight[(size_t) q * p2 + i]));
  }
  return v;
}

/* ---- two outputs per thread (bspline) -----------------------------------
 *
 * bspline's 28 taps cost 28 loads, 28 multiplications and 28 additions per
 * output (no FMA: the CPU's bits), which, unlike cubic's 4 and lanczos'
 * 16, its pass cannot hide under its memory traffic.  The multiplications
 * and additions are the floor; the loads are not: outputs i0 = 2t and
 * i1 = 2t + 1 read nearly the same input samples, so one thread computes
 * both from one window of AOOCT_FIR_PAIR_WIN samples starting at an even
 * index b (first[i0] rounded down to even): 16 loads of two floats (one
 * 8-byte load from shared memory, consecutive over the warp) for 56
 * products instead of 56 loads.  Output 0 sums window positions
 * 0 .. T (its taps at offset o0 = first[i0] - b, 0 or 1), output 1
 * positions 0 .. T + 2 (offset o1 = first[i1] - b, 0 to 3: a calibration
 * locally stretched up to about 2 input samples per output); a pair whose
 * offsets do not fit (or whose window passes the end of the A-line) sums
 * the taps of the output that does not fit the plain way, from the table.
 *
 * Why the bits do not change: output j's sum over the window is the plain
 * sum (aooct_fir_dot: v = 0, then v = v + z[f + q] * w[q] for q = 0, 1, ...
 * rounded one by one) with padding terms before and after it.  In a
 * padding position the sample is replaced by -0.0f and the weight is
 * +0.0f, so the term is -0.0f whatever the input (even inf or NaN there,
 * which the plain sum never reads), and v + -0.0f == v exactly for every
 * v (+0 + -0 is +0 in round-to-nearest; -0 + -0 is -0; with or without
 * flushing denormals).  So the leading padding leaves v at +0.0f, the
 * plain sum's start, the T real terms are the same multiplications and
 * additions of the same operands (the weights are loaded into place, not
 * computed) in the same order, and the trailing padding
 * leaves the result as it is. */

#define AOOCT_FIR_PAIR_WIN(T) ((T) + 4)

/* Outputs per thread for a compile-time tap count: 2 for bspline's. */
#define AOOCT_FIR_OUTPUTS(T) ((T) == AOOCT_KMAP_FIR_MAX_TAPS ? 2 : 1)

template < int T > struct AooctFirPair
{
  int b;                        /* window start (even) */
  int f[2];                     /* first[i0], first[i1] */
  bool in[2];                   /* the output is in the data region */
  bool win[2];                  /* ... and is summed from the window */
  bool lead0;                   /* o0 == 1: position 0 pads output 0 */
  int o1;                       /* output 1's offset */
  float w0[T + 1], w1[T + 3];   /* weights over the window, 0-padded */
};

/* The pair of outputs @i0, @i0 + 1: their first indices and window. */
template < int T > static __device__ __forceinline__ void
aooct_fir_pair_init (AooctFirPair < T > &s, const int *first, int p2,
    int j0, int j1, int i0)
{
  int o0;

#pragma unroll
  for (int j = 0; j < 2; j++) {
    const int i = i0 + j;

    s.in[j] = i < p2 && i >= j0 && i <= j1;
    s.f[j] = s.in[j] ? first[i] : 0;
  }
  s.b = (s.in[0] ? s.f[0] : s.f[1]) & ~1;
  o0 = s.f[0] - s.b;
  s.o1 = s.f[1] - s.b;
  {
    const bool fits = s.b + AOOCT_FIR_PAIR_WIN (T) <= p2;

    s.win[0] = s.in[0] && fits;       /* o0 is 0 or 1 */
    s.win[1] = s.in[1] && fits && s.o1 >= 0 && s.o1 <= 3;
  }
  s.lead0 = o0 == 1;
}

/* Their zero-padded weights, read from the table @weight once per thread
 * (after aooct_fir_pair_init).  Window position k holds tap k - o of an
 * output at offset o, read straight into place; only the positions that
 * may pad (k = 0 and T for output 0, o0 being 0 or 1; k < 3 and k >= T
 * for output 1, o1 being 0 to 3) need a test, the rest of the unrolled
 * loop is plain loads. */
template < int T > static __device__ __forceinline__ void
aooct_fir_pair_weights (AooctFirPair < T > &s, const float *weight, int p2,
    int i0)
{
  const int o0 = s.lead0 ? 1 : 0;

#pragma unroll
  for (int k = 0; k <= T; k++) {
    const bool tap = (k >= 1 && k < T) || (k == 0 && !s.lead0)
        || (k == T && s.lead0);

    s.w0[k] = s.win[0] && tap ?
        weight[(long long) (k - o0) * p2 + i0] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < T + 3; k++) {
    const bool tap = (k >= 3 && k < T) || (k < 3 && k >= s.o1)
        || (k >= T && k < s.o1 + T);

    s.w1[k] = s.win[1] && tap ?
        weight[(long long) (k - s.o1) * p2 + i0 + 1] : 0.0f;
  }
}

/* Window position @k (a constant once the loops are unrolled) of both
 * sums: @z the sample there, replaced by -0.0f where it pads (see
 * above). */
template < int T > static __device__ __forceinline__ void
aooct_fir_pair_term (const AooctFirPair < T > &s, int k, float z, float &v0,
    float &v1)
{
  if (k <= T) {
    float x = z;

    if (k == 0)
      x = s.lead0 ? -0.0f : x;
    if (k == T)
      x = s.lead0 ? x : -0.0f;
    v0 = __fadd_rn (v0, __fmul_rn (x, s.w0[k]));
  }
  if (k < T + 3) {
    float x = z;

    if (k < 3)
      x = k < s.o1 ? -0.0f : x;
    if (k >= T)
      x = s.o1 <= k - T ? -0.0f : x;
    v1 = __fadd_rn (v1, __fmul_rn (x, s.w1[k]));
  }
}

/* aooct_fir_dot for an output that does not fit its pair's window (the
 * same operations in the same order; rare): ROLLED, a loop not unrolled,
 * whose loads do not compete for the registers of the window's loop (what
 * kept aooctkmap's pair kernel from spilling; the fused one has no spill
 * either way and keeps aooct_fir_dot). */
template < int CH, bool ROLLED > static __device__ __forceinline__ float
aooct_fir_dot_rolled (const float *z, int c, const float *weight, int p2,
    int i, int taps)
{
  float v = 0.0f;

  if (ROLLED) {
#pragma unroll 1
    for (int q = 0; q < taps; q++)
      v = __fadd_rn (v, __fmul_rn (z[q * CH + c],
              weight[(size_t) q * p2 + i]));
  } else {
    v = aooct_fir_dot < 0, CH > (z, c, NULL, weight, p2, i, taps);
  }
  return v;
}

/* Both outputs of @s in one A-line: @row holds its samples from index @lo
 * on, CH floats per sample (channel @c); VEC2 (CH 1 only): the window is
 * read two floats at a time, @row + (b - lo) being 8-byte aligned (b and
 * @lo even, @row aligned).  Outputs outside the data region are 0; those
 * the window does not fit are the plain sum (aooct_fir_dot) from the
 * table @weight. */
template < int T, int CH, bool VEC2, bool ROLLED >
static __device__ __forceinline__ void
aooct_fir_pair_row (const AooctFirPair < T > &s, const float *row, int lo,
    int c, const float *weight, int p2, int i0, float &v0, float &v1)
{
  v0 = 0.0f;
  v1 = 0.0f;
  if (s.win[0] || s.win[1]) {
    const float *z = row + (size_t) (s.b - lo) * CH;

    if (VEC2) {
#pragma unroll
      for (int m = 0; m < AOOCT_FIR_PAIR_WIN (T) / 2; m++) {
        const float2 p = reinterpret_cast < const float2 *>(z)[m];

        aooct_fir_pair_term < T > (s, 2 * m, p.x, v0, v1);
        aooct_fir_pair_term < T > (s, 2 * m + 1, p.y, v0, v1);
      }
    } else {
#pragma unroll
      for (int k = 0; k < T + 3; k++)
        aooct_fir_pair_term < T > (s, k, z[k * CH + c], v0, v1);
    }
  }
  if (!s.win[0])
    v0 = s.in[0] ? aooct_fir_dot_rolled < CH, ROLLED > (row +
        (size_t) (s.f[0] - lo) * CH, c, weight, p2, i0, T) : 0.0f;
  if (!s.win[1])
    v1 = s.in[1] ? aooct_fir_dot_rolled < CH, ROLLED > (row +
        (size_t) (s.f[1] - lo) * CH, c, weight, p2, i0 + 1, T) : 0.0f;
}

/* Calls LAUNCH (T) with T the compile-time tap count for @taps: cubic's 4,
 * lanczos' 16, bspline's AOOCT_KMAP_FIR_MAX_TAPS, else 0 (runtime). */
#define AOOCT_FIR_DISPATCH(taps, LAUNCH) G_STMT_START {                 \
    if ((taps) == 4)                                                    \
      LAUNCH (4);                                                       \
    else if ((taps) == 16)                                              \
      LAUNCH (16);                                                      \
    else if ((taps) == AOOCT_KMAP_FIR_MAX_TAPS)                         \
      LAUNCH (AOOCT_KMAP_FIR_MAX_TAPS);                                 \
    else                                                                \
      LAUNCH (0);                                                       \
  } G_STMT_END

#endif /* __AOOCT_CUDA_FIR_CUH__ */
