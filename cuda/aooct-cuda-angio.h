/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: angiography from repeated B-scans, aooctangio (spec
 * section 12), the CUDA twin of cpu/aooct-cpu-angio.h.
 *
 * collect keeps the intensity of the cropped bins of each repeat on the
 * device (N x M x rows floats); emit makes the image: one thread per
 * pixel for the per-pixel ratio (decorrelation) or the speckle variance,
 * one per pixel for the window means with the largest mean intensity,
 * for speckle variance with variance-max 0 the largest unmasked SV, then
 * the grey levels through shared-memory tiles.  The float32 arithmetic is
 * aooct-flow-pixel.h's in the CPU's order (decorrelation: the same bits);
 * speckle variance takes a double log10 (CUDA's within an ulp of a
 * double), which can move a pixel only where its value lies within about
 * 1e-15 of a grey-level boundary. */
#ifndef __AOOCT_CUDA_ANGIO_H__
#define __AOOCT_CUDA_ANGIO_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-flow.h"

G_BEGIN_DECLS

typedef struct _AooctCudaAngioPlan AooctCudaAngioPlan;

AooctCudaAngioPlan *aooct_cuda_angio_plan_new (const AooctFlowParams * p,
    GError ** error);
void aooct_cuda_angio_plan_free (AooctCudaAngioPlan * a);

/* Repeats @first .. @first + @count - 1 of the group from @in (device),
 * @count consecutive B-scans. */
gboolean aooct_cuda_angio_execute_collect (AooctCudaAngioPlan * a,
    const gfloat * in,
    gint first, gint count, AooctCudaStream stream, GError ** error);

/* The image of a whole group into @out (device, p->rows rows @out_stride
 * bytes apart). */
gboolean aooct_cuda_angio_execute_emit (AooctCudaAngioPlan * a,
    const AooctAngioSettings * s, guint8 * out, gsize out_stride,
    AooctCudaStream stream, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_ANGIO_H__ */
