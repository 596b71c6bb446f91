/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA: the gather of the FIR resampling modes (cubic, bspline,
 * lanczos; AooctKmapFir of common/aooct-kspace.h), shared by aooctkmap's
 * own kernel (aooct-cuda-kmap.cu) and the fused pre-FFT pass that applies
 * it when aooctkmap deferred it (aooct-cuda-prep.cu), so that both give
 * the same bits.
 *
 * One thread per output sample i and AOOCT_FIR_ROWS A-lines: the thread
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
