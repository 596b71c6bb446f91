/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: aooctfft's non-uniform DFT (spec section 8) for spectra
 * that aooctkmap left at their positions (interpolation=nudft|nufft).
 *
 * nudft: X = A c with the fixed matrix A[m][j] = exp(-2 pi i m s_j / P2)
 * (aooct_nudft_matrix_new): one cblas_cgemm per buffer where the build
 * has OpenBLAS (3.3 times faster than the fallback on one core), else a
 * plain loop over rows of A, four A-lines at a time so that each row is
 * read once per four.  nufft: gridding with the
 * precomputed sparse matrix of AooctNufftPlan (a gather per grid point),
 * FFTW of the R * P2 grid, deapodisation.  The tables are built once per
 * geometry and positions. */
#ifndef __AOOCT_CPU_NONUNIFORM_H__
#define __AOOCT_CPU_NONUNIFORM_H__

#include <glib.h>

#include "aooct-geometry.h"
#include "aooct-kspace.h"

G_BEGIN_DECLS

typedef struct _AooctCpuNonuniformPlan AooctCpuNonuniformPlan;

/* For in->k_sampling NUDFT or NUFFT (with its kernel, R and W) and the
 * j1 - j0 + 1 @positions. */
AooctCpuNonuniformPlan *aooct_cpu_nonuniform_plan_new
    (const AooctGeometry * geom,
    const gdouble * positions, gint n_threads, GError ** error);

/* @in: @n_alines A-lines of `samples` real or interleaved complex floats;
 * @window: `samples` weights (at the positions) or NULL; @out: @n_alines
 * A-lines of `samples` complex floats, X[m] of section 8. */
void aooct_cpu_nonuniform_execute (AooctCpuNonuniformPlan * nu,
    const gfloat * in,
    gboolean complex_in, const gfloat * window, gfloat * out, gint n_alines);

void aooct_cpu_nonuniform_plan_free (AooctCpuNonuniformPlan * nu);

G_END_DECLS

#endif /* __AOOCT_CPU_NONUNIFORM_H__ */
