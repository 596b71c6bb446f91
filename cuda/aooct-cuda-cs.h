/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: compressive sensing (spec section 10, aooctcs), the
 * CUDA twin of cpu/aooct-cpu-cs.h.
 *
 * All A-lines of a buffer iterate together on the GPU, with no host round
 * trip inside the iterations; per iteration:
 *   - g = A^H r: aooctfft's nonuniform core (cuda/aooct-cuda-nonuniform.cu:
 *     one cublasCgemm, or gridding + batched cuFFT + deapodisation);
 *   - one kernel (a block per A-line): the shrinkage x+ = soft (x - g /
 *     alpha, lambda / alpha), ||x+ - x||^2 reduced in the block, and for
 *     nufft the deapodised x+ spread onto the oversampled grid;
 *   - A x+: the batched inverse cuFFT of those grids (nufft) or one
 *     cublasCgemm with the conjugate transpose of the NUDFT matrix;
 *   - one kernel (a block per A-line): for nufft the interpolation from
 *     the grid (the transposed gridding matrix), r+ = A x+ - y,
 *     ||r+ - r||^2 and the new step size alpha.
 * lambda is reduced once per buffer from the first A^H r = -A^H y.
 * Every CUDA, cuFFT and cuBLAS call is checked. */
#ifndef __AOOCT_CUDA_CS_H__
#define __AOOCT_CUDA_CS_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-cs.h"

G_BEGIN_DECLS

typedef struct _AooctCudaCsPlan AooctCudaCsPlan;

/* For buffers of @rows A-lines (context current). */
AooctCudaCsPlan *aooct_cuda_cs_plan_new (const AooctCs * cs, gsize rows,
    GError ** error);

/* @in: rows real spectra of cs->in_width floats (device); @out: rows depth
 * profiles of P complex floats (device).  @tau and @iterations: the
 * element's live settings for this buffer (as the CPU core's). */
gboolean aooct_cuda_cs_execute (AooctCudaCsPlan * core, const gfloat * in,
    gfloat * out, gdouble tau, gint iterations, AooctCudaStream stream,
    GError ** error);

void aooct_cuda_cs_plan_free (AooctCudaCsPlan * core);

G_END_DECLS

#endif /* __AOOCT_CUDA_CS_H__ */
