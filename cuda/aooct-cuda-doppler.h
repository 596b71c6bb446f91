/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: phase-resolved Doppler, aooctdoppler (spec section 12),
 * the CUDA twin of cpu/aooct-cpu-doppler.h.
 *
 * Per buffer, on one stream: the window sums C and I_w of every pixel of
 * every B-scan (one thread per pixel, threads of a warp on consecutive
 * depth bins) with the largest I_w per B-scan; with bulk-correction one
 * warp per column sums the unmasked C and turns the column; then the
 * phase and the grey level through shared-memory tiles into the image.
 * The float32 sums and the bulk phase are aooct-flow-pixel.h's, in the
 * CPU's order: the same bits on both backends; the phase is a double
 * atan2 (CUDA's within 2 ulp of a double), which can move a pixel by one
 * level only where its phase lies within 1e-15 of a level boundary. */
#ifndef __AOOCT_CUDA_DOPPLER_H__
#define __AOOCT_CUDA_DOPPLER_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-flow.h"

G_BEGIN_DECLS

typedef struct _AooctCudaDopplerPlan AooctCudaDopplerPlan;

/* device scratch for @p (NULL with @error set when it cannot be had) */
AooctCudaDopplerPlan *aooct_cuda_doppler_plan_new (const AooctFlowParams * p,
    GError ** error);
void aooct_cuda_doppler_plan_free (AooctCudaDopplerPlan * d);

/* Enqueues the step on @stream: @in, p->bscans B-scans (device); @out,
 * p->bscans * p->rows image rows @out_stride bytes apart (device).  @s
 * must have passed aooct_doppler_settings_check(). */
gboolean aooct_cuda_doppler_execute (AooctCudaDopplerPlan * d,
    const AooctDopplerSettings * s, const gfloat * in, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_DOPPLER_H__ */
