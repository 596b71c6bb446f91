/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: aooctfft's non-uniform DFT (spec section 8), the CUDA
 * twin of cpu/aooct-cpu-nonuniform.h.
 *
 * aooctfft first windows the spectra (and applies what aooctkmap and
 * aooctdisp deferred to it) into this object's complex work buffer; then
 * - nudft: one cublasCgemm per buffer, X = A C with the fixed matrix A
 *   (P2 x (j1 - j0 + 1), uploaded once per geometry and positions) and C
 *   the data regions of all A-lines;
 * - nufft: a gather kernel grids every A-line with the precomputed sparse
 *   gridding matrix onto R * P2 points, a batched cuFFT C2C transforms the
 *   grids in place, and a kernel picks and deapodises the P2 bins.
 * Every CUDA, cuBLAS and cuFFT call is checked. */
#ifndef __AOOCT_CUDA_NONUNIFORM_H__
#define __AOOCT_CUDA_NONUNIFORM_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct _AooctCudaNonuniformPlan AooctCudaNonuniformPlan;

/* For geom->k_sampling NUDFT or NUFFT, @positions (j1 - j0 + 1), buffers
 * of @rows A-lines (context current).  @with_work: allocate the work
 * buffer of aooct_cuda_nonuniform_work(); FALSE for a caller that passes
 * its own buffer to aooct_cuda_nonuniform_execute() (aooctcs). */
AooctCudaNonuniformPlan *aooct_cuda_nonuniform_plan_new
    (const AooctGeometry * geom,
    const gdouble * positions, gsize rows, gboolean with_work,
    GError ** error);

/* The complex work buffer (rows x samples) that the caller fills (NULL
 * without @with_work). */
gfloat *aooct_cuda_nonuniform_work (AooctCudaNonuniformPlan * nu);

/* @work (the work buffer, filled) -> @out: rows x samples complex X[m]. */
gboolean aooct_cuda_nonuniform_execute (AooctCudaNonuniformPlan * nu,
    const gfloat * work, gfloat * out, AooctCudaStream stream,
    GError ** error);

/* NUDFT only: the adjoint of the product above, with the same matrix
 * (aooctcs's forward operator, so that it holds the matrix once):
 * @x rows x samples complex (ld samples) -> @out_t (A^H x)^T, nd x rows
 * complex stored with the A-line index fastest (element (n, r) at
 * n * rows + r); cuBLAS has no conjugate without transpose, and the
 * transposed product needs none. */
gboolean aooct_cuda_nonuniform_nudft_adjoint_t (AooctCudaNonuniformPlan * nu,
    const gfloat * x, gfloat * out_t, AooctCudaStream stream,
    GError ** error);

void aooct_cuda_nonuniform_plan_free (AooctCudaNonuniformPlan * nu);

G_END_DECLS

#endif /* __AOOCT_CUDA_NONUNIFORM_H__ */
