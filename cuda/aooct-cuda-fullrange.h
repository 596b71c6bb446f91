/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: the lateral analytic signal of complex full-range OCT
 * (spec section 9), the CUDA twin of cpu/aooct-cpu-fullrange.h. */
#ifndef __AOOCT_CUDA_FULLRANGE_H__
#define __AOOCT_CUDA_FULLRANGE_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct _AooctCudaFullrangePlan AooctCudaFullrangePlan;

/* Plans for buffers of the real spectral geometry @in (context current). */
AooctCudaFullrangePlan *aooct_cuda_fullrange_plan_new (const AooctGeometry * in,
    GError ** error);

/* Enqueues the step on @stream: @in, one buffer of real spectra (only
 * read); @out, the same number of interleaved complex samples.  Device
 * pointers, contiguous. */
gboolean aooct_cuda_fullrange_execute (AooctCudaFullrangePlan * fr,
    const gfloat * in, gfloat * out, gboolean lower, AooctCudaStream stream,
    GError ** error);

void aooct_cuda_fullrange_plan_free (AooctCudaFullrangePlan * fr);

G_END_DECLS

#endif /* __AOOCT_CUDA_FULLRANGE_H__ */
