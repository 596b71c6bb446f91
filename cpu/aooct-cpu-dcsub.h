/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: conversion to float32 and DC subtraction (spec 1 and 2). */
#ifndef __AOOCT_CPU_DCSUB_H__
#define __AOOCT_CPU_DCSUB_H__

#include <glib.h>
#include "aooct-geometry.h"
#include "aooct-dc.h"
#include "aooct-raw-format.h"

G_BEGIN_DECLS

typedef struct _AooctCpuDcsubPlan AooctCpuDcsubPlan;

/* Buffers of @geom: raw samples in @format (8-bit, 16-bit little-endian,
 * packed: then geom->raw_samples is a multiple of the format's unit, or
 * float32 little-endian),
 * the DC removed as @mode says; @background: raw_samples values, used in
 * AOOCT_DC_BACKGROUND mode, kept by the caller until plan_free. */
AooctCpuDcsubPlan *aooct_cpu_dcsub_plan_new (const AooctGeometry * geom,
    AooctRawFormat format, AooctDcMode mode, const gfloat * background);

/* @raw: geom->alines * geom->bscans rows of geom->raw_samples samples,
 * @raw_stride bytes apart.  @out: contiguous float32, A-line after
 * A-line.  FALSE when a float32 sample is not finite (spec section 0):
 * *@bad then says which (the output is not to be used). */
gboolean aooct_cpu_dcsub_execute (AooctCpuDcsubPlan * plan,
    const guint8 * raw, gsize raw_stride, gfloat * out,
    AooctDcNonFinite * bad);
void aooct_cpu_dcsub_plan_free (AooctCpuDcsubPlan * plan);

G_END_DECLS
#endif /* __AOOCT_CPU_DCSUB_H__ */
