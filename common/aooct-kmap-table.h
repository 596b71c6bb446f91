/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctkmap's resampling table (the kmap step's part of the
 * calibration math; it reads aooct-calib.h's AooctWavelength, which knows
 * nothing of it). */
#ifndef __AOOCT_KMAP_TABLE_H__
#define __AOOCT_KMAP_TABLE_H__

#include <glib.h>
#include "aooct-geometry.h"
#include "aooct-calib.h"

G_BEGIN_DECLS

/* Lambda-to-k resampling table for one geometry (spec section 4). */
typedef struct
{
  gint samples;                 /* P2 */
  gint start, end;              /* j0, j1: the data region */
  gint32 *index;                /* [samples]: l in [j0, j1-1]; -1 in margins */
  gfloat *frac;                 /* [samples]: t as float; 0 in margins */
  gdouble *frac_d;              /* [samples]: t as computed, for float64
                                 * references; 0 in margins */
} AooctKmapTable;

/* Builds the table for the sample grid of @geom (samples, raw_samples,
 * pad_offset, pad_factor).  Fails (AOOCT_ERROR_SETTINGS) only when the
 * sampled wavelengths are not strictly monotonic in double precision. */
AooctKmapTable *aooct_kmap_table_new (const AooctWavelength * cal,
    const AooctGeometry * geom, GError ** error);

void aooct_kmap_table_free (AooctKmapTable * table);

G_END_DECLS

#endif /* __AOOCT_KMAP_TABLE_H__ */
