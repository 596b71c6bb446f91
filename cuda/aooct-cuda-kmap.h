/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: lambda-to-k resampling (spec section 4), the CUDA twin
 * of cpu/aooct-cpu-kmap.h.
 *
 * The brackets of AooctKmapTable (index int32, fraction float) are
 * uploaded once per calibration; each buffer is then one gather kernel.
 * The arithmetic is the CPU core's, z[l] + (z[l+1] - z[l]) * t in float32
 * without contraction, so the result is bit-identical. */
#ifndef __AOOCT_CUDA_KMAP_H__
#define __AOOCT_CUDA_KMAP_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"
#include "aooct-kmap-table.h"

G_BEGIN_DECLS

typedef struct _AooctCudaKmapPlan AooctCudaKmapPlan;

/* Uploads @table for buffers of @rows A-lines (context current). */
AooctCudaKmapPlan *aooct_cuda_kmap_plan_new (const AooctKmapTable * table,
    gsize rows,
    GError ** error);

/* Enqueues the gather on @stream: @in and @out are rows x samples float32,
 * contiguous, device pointers.  @scale: 1, or the power of two that
 * aooctpad left to us (its scale; then @in is unscaled). */
gboolean aooct_cuda_kmap_execute (AooctCudaKmapPlan * kmap, const gfloat * in,
    gfloat scale, gfloat * out, AooctCudaStream stream, GError ** error);

/* The same on complex spectra (full range, spec section 9): @in and @out
 * rows x samples interleaved complex, re and im resampled alike. */
gboolean aooct_cuda_kmap_execute_complex (AooctCudaKmapPlan * kmap,
    const gfloat * in, gfloat * out, AooctCudaStream stream, GError ** error);

void aooct_cuda_kmap_plan_free (AooctCudaKmapPlan * kmap);

/* cubic, bspline, lanczos: the AooctKmapFir table in device memory, and
 * one gather kernel per buffer, out[i] = sum_q in[first[i] + q] * w[q][i]
 * summed in the CPU core's order without contraction (bit-identical);
 * @complex_in: interleaved complex spectra (full range), re and im alike. */
typedef struct _AooctCudaKmapFirPlan AooctCudaKmapFirPlan;

AooctCudaKmapFirPlan *aooct_cuda_kmap_fir_plan_new (const AooctKmapFir * fir,
    GError ** error);
gboolean aooct_cuda_kmap_fir_execute (AooctCudaKmapFirPlan * fir,
    const gfloat * in, gboolean complex_in, gfloat scale, gfloat * out,
    gsize rows,
    AooctCudaStream stream, GError ** error);
void aooct_cuda_kmap_fir_plan_free (AooctCudaKmapFirPlan * fir);

G_END_DECLS

#endif /* __AOOCT_CUDA_KMAP_H__ */
