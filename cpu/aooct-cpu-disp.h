/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: dispersion compensation (spec section 5). */
#ifndef __AOOCT_CPU_DISP_H__
#define __AOOCT_CPU_DISP_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct _AooctCpuDispPlan AooctCpuDispPlan;

/* Dispersion compensation of buffers of @geom. */
AooctCpuDispPlan *aooct_cpu_disp_plan_new (const AooctGeometry * geom);

/* @in: aooct_geometry_total_alines (geom) rows of geom->samples real
 * float32, @in_stride bytes apart; @out: rows of geom->samples interleaved
 * complex float32, @out_stride bytes apart; @weights: geom->samples
 * interleaved complex weights (aooct_disp_weights_new()).
 * c[i] = in[i] * w[i].  When geom is complex (full range, spec section 9)
 * @in holds interleaved complex float32 too, multiplied by the weight. */
void aooct_cpu_disp_execute (AooctCpuDispPlan * plan,
    const gfloat * weights, const guint8 * in, gsize in_stride, guint8 * out,
    gsize out_stride);
void aooct_cpu_disp_plan_free (AooctCpuDispPlan * plan);

G_END_DECLS

#endif /* __AOOCT_CPU_DISP_H__ */
