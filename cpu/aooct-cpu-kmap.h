/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: lambda-to-k resampling (spec section 4). */
#ifndef __AOOCT_CPU_KMAP_H__
#define __AOOCT_CPU_KMAP_H__

#include <glib.h>
#include "aooct-geometry.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"
#include "aooct-kmap-table.h"

G_BEGIN_DECLS

typedef struct _AooctCpuKmapPlan AooctCpuKmapPlan;
typedef struct _AooctCpuKmapFirPlan AooctCpuKmapFirPlan;

/* Linear resampling of buffers of @geom with the brackets of @table,
 * which the caller keeps unchanged until plan_free. */
AooctCpuKmapPlan *aooct_cpu_kmap_plan_new (const AooctGeometry * geom,
    const AooctKmapTable * table);

/* @in: aooct_geometry_total_alines (geom) rows of geom->samples float32,
 * @in_stride bytes apart; @out: the same layout, @out_stride bytes apart.
 * Data region: out[i] = z[l] + (z[l+1] - z[l]) * t with the bracket of
 * the table; margins: 0.  Complex geometries (interleaved re, im) are
 * resampled the same way, re and im alike. */
void aooct_cpu_kmap_execute (AooctCpuKmapPlan * plan, const guint8 * in,
    gsize in_stride, guint8 * out, gsize out_stride);
void aooct_cpu_kmap_plan_free (AooctCpuKmapPlan * plan);

/* cubic, bspline, lanczos with @fir (kept by the caller until plan_free):
 * out[i] = sum_q in[first[i] + q] * weight[q][i] over the data region
 * (AooctKmapFir), margins 0; execute's layouts as the linear plan's. */
AooctCpuKmapFirPlan *aooct_cpu_kmap_fir_plan_new (const AooctGeometry * geom,
    const AooctKmapFir * fir);
void aooct_cpu_kmap_fir_execute (AooctCpuKmapFirPlan * plan,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride);
void aooct_cpu_kmap_fir_plan_free (AooctCpuKmapFirPlan * plan);

G_END_DECLS

#endif /* __AOOCT_CPU_KMAP_H__ */
