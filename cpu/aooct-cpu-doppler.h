/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: phase-resolved (Kasai) Doppler, aooctdoppler (spec
 * section 12).
 *
 * Input: B-scans of M A-lines of P2 complex float32 samples (aooctfft's
 * output), A-line after A-line.  Output: for every B-scan, one image row
 * per depth bin of the crop and one column per A-line (aooctnorm's
 * orientation), GRAY8, GRAY16_LE or the red / blue RGBA map; several
 * B-scans are stacked vertically.
 *
 * Per B-scan: the window sums C and I_w of every pixel
 * (aooct_flow_doppler_sums), the mask's limit from their maximum, the
 * bulk phase of each column (optional), then the phase and the grey
 * level.  Every float32 operation is aooct-flow-pixel.h's, in the CUDA
 * kernels' order (the column sums of the bulk phase as a warp of 32 lanes
 * reduces them), so the CPU and CUDA sums are the same bits. */
#ifndef __AOOCT_CPU_DOPPLER_H__
#define __AOOCT_CPU_DOPPLER_H__

#include <glib.h>
#include "aooct-flow.h"

G_BEGIN_DECLS typedef struct _AooctCpuDopplerPlan AooctCpuDopplerPlan;

AooctCpuDopplerPlan *aooct_cpu_doppler_plan_new (const AooctFlowParams * p);
void aooct_cpu_doppler_plan_free (AooctCpuDopplerPlan * d);

/* @in: p->bscans B-scans; @out: p->bscans * p->rows rows @out_stride bytes
 * apart.  @s must have passed aooct_doppler_settings_check(). */
void aooct_cpu_doppler_execute (AooctCpuDopplerPlan * d,
    const AooctDopplerSettings * s, const gfloat * in, guint8 * out,
    gsize out_stride);

G_END_DECLS
#endif /* __AOOCT_CPU_DOPPLER_H__ */
