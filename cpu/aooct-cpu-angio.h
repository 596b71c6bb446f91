/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: angiography from repeated B-scans, aooctangio (spec
 * section 12).
 *
 * collect keeps the intensity of the cropped depth bins of each repeat of
 * a group (N x M x rows floats); emit makes the group's image:
 * decorrelation (the per-pixel ratio averaged over the pairs of repeats,
 * then its window mean) or speckle variance (per pixel, in double), the
 * mask from the largest window-mean intensity, and the grey levels, in
 * aooctnorm's orientation (GRAY8, GRAY16_LE, or RGBA with the grey level
 * in R, G and B).  Every float32 operation is aooct-flow-pixel.h's, in
 * the CUDA kernels' order. */
#ifndef __AOOCT_CPU_ANGIO_H__
#define __AOOCT_CPU_ANGIO_H__

#include <glib.h>
#include "aooct-flow.h"

G_BEGIN_DECLS typedef struct _AooctCpuAngioPlan AooctCpuAngioPlan;

AooctCpuAngioPlan *aooct_cpu_angio_plan_new (const AooctFlowParams * p);
void aooct_cpu_angio_plan_free (AooctCpuAngioPlan * a);

/* Repeats @first .. @first + @count - 1 of the group from @in, @count
 * consecutive B-scans of p->alines A-lines of p->samples complex
 * floats. */
void aooct_cpu_angio_execute_collect (AooctCpuAngioPlan * a, const gfloat * in,
    gint first, gint count);

/* The image of a whole group (p->repeats collected): p->rows rows of
 * p->alines pixels, @out_stride bytes apart.  @s must have passed
 * aooct_angio_settings_check(). */
void aooct_cpu_angio_execute_emit (AooctCpuAngioPlan * a,
    const AooctAngioSettings * s,
    guint8 * out, gsize out_stride);

G_END_DECLS
#endif /* __AOOCT_CPU_ANGIO_H__ */
