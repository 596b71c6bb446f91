/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: the lateral analytic signal of complex full-range OCT
 * (spec section 9, aooctfullrange). */
#ifndef __AOOCT_CPU_FULLRANGE_H__
#define __AOOCT_CPU_FULLRANGE_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct _AooctCpuFullrangePlan AooctCpuFullrangePlan;

/* Plans the transforms across the A-lines for buffers of the real
 * spectral geometry @in (in->bscans B-scans of in->alines A-lines of
 * in->samples float32). */
AooctCpuFullrangePlan *aooct_cpu_fullrange_plan_new (const AooctGeometry * in,
    GError ** error);

/* @in: one buffer of real spectra, contiguous (only read); @out: the same
 * number of complex samples (interleaved re, im), contiguous: for every
 * sample index n and B-scan, a[m][n] of section 9 with the upper (or,
 * @lower, the lower) sideband. */
void aooct_cpu_fullrange_execute (AooctCpuFullrangePlan * fr, const gfloat * in,
    gfloat * out, gboolean lower);

void aooct_cpu_fullrange_plan_free (AooctCpuFullrangePlan * fr);

G_END_DECLS

#endif /* __AOOCT_CPU_FULLRANGE_H__ */
