/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: zero-padding by FFT interpolation (spec section 3), the
 * CUDA twin of cpu/aooct-cpu-pad.h.
 *
 * Per buffer, on one stream: place each A-line, scaled by 1/P1, at o in
 * P1 zeros; batched R2C of length P1 straight into rows of P2/2 + 1 bins
 * (bins 0..P1/2, Nyquist copied); zero bins P1/2+1..P2/2; batched C2R of
 * length P2 straight into the output; zero the margins (only those
 * samples).  Plans, their work area and the scratch are made once per
 * geometry; nothing is allocated per buffer.  The input is only read.  The
 * result equals the CPU core's within float32 FFT rounding (cuFFT and FFTW
 * order their sums differently); placing, scaling (by a power of two,
 * before the FFTs: see aooct-cuda-pad.cu) and the margins are exact. */
#ifndef __AOOCT_CUDA_PAD_H__
#define __AOOCT_CUDA_PAD_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct _AooctCudaPadPlan AooctCudaPadPlan;

/* Plans and scratch for buffers of the padded geometry @out (raw_samples
 * N, pad_offset o, pad_size P1, samples P2, total A-lines per buffer).
 * The caller's CUDA context must be current. */
AooctCudaPadPlan *aooct_cuda_pad_plan_new (const AooctGeometry * out,
    GError ** error);

/* Enqueues the step on @stream: @in, total A-lines of N float32,
 * contiguous; @out, the same number of A-lines of P2 float32.  Device
 * pointers; returns without waiting.  @leave_tail: the output is left
 * unscaled (by 1/P1) and its margins unset, for a consumer that does both
 * (gst/support/aooct-pending-meta.h); @in_scratch: @in may be overwritten, so
 * where N == P1 (no placing needed) with @leave_tail the R2C reads it
 * directly.  For a complex geometry @out (full range, spec section 9),
 * @in and @out hold interleaved complex float32 and the whole step is
 * done here (@leave_tail must be FALSE). */
gboolean aooct_cuda_pad_execute (AooctCudaPadPlan * pad, const gfloat * in,
    gboolean leave_tail, gboolean in_scratch, gfloat * out,
    AooctCudaStream stream, GError ** error);

/* The scale that aooct_cuda_pad_execute leaves with @leave_tail. */
gfloat aooct_cuda_pad_scale (AooctCudaPadPlan * pad);

/* Context current, no work of @pad in flight. */
void aooct_cuda_pad_plan_free (AooctCudaPadPlan * pad);

G_END_DECLS

#endif /* __AOOCT_CUDA_PAD_H__ */
