/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: lambda-to-k resampling (spec section 4). */
#ifndef __AOOCT_CPU_KMAP_H__
#define __AOOCT_CPU_KMAP_H__

#include <glib.h>
#include "aooct-geometry.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"

G_BEGIN_DECLS

/* @in: aooct_geometry_total_alines (geom) rows of geom->samples float32,
 * @in_stride bytes apart; @out: the same layout, @out_stride bytes apart.
 * Data region: out[i] = z[l] + (z[l+1] - z[l]) * t with the bracket of
 * @table; margins: 0.  Complex geometries (interleaved re, im) are
 * resampled the same way, re and im alike. */
void aooct_cpu_kmap (const AooctGeometry * geom, const AooctKmapTable * table,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride);

/* cubic, bspline, lanczos: out[i] = sum_q in[first[i] + q] * weight[q][i]
 * over the data region (AooctKmapFir), margins 0; same layouts. */
void aooct_cpu_kmap_fir (const AooctGeometry * geom, const AooctKmapFir * fir,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride);

G_END_DECLS

#endif /* __AOOCT_CPU_KMAP_H__ */
