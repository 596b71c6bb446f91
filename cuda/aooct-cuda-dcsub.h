/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: conversion to float32 and DC subtraction (spec 1 and 2),
 * the CUDA twin of cpu/aooct-cpu-dcsub.h.
 *
 * The result is bit-identical to the CPU core: the per-column sums of the
 * integer samples are exact (64-bit integer partial sums, so their order
 * does not matter), the mean is the correctly rounded double quotient
 * converted to float, and the subtraction is one float32 operation, as on
 * the CPU. */
#ifndef __AOOCT_CUDA_DCSUB_H__
#define __AOOCT_CUDA_DCSUB_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-geometry.h"
#include "aooct-dc.h"
#include "aooct-raw-format.h"

G_BEGIN_DECLS

typedef struct _AooctCudaDcsubPlan AooctCudaDcsubPlan;

/* Buffers of @geom in @format (8-bit, 16-bit little-endian, packed
 * 12/10-bit: geom->raw_samples is then a multiple of the format's unit,
 * or float32 little-endian),
 * the DC removed as @mode says; @background: raw_samples floats (host
 * memory, AOOCT_DC_BACKGROUND only, copied).  Allocates the device scratch
 * of the per-B-scan partial column sums and the device copy of the
 * background once (context current). */
AooctCudaDcsubPlan *aooct_cuda_dcsub_plan_new (const AooctGeometry * geom,
    AooctRawFormat format, AooctDcMode mode, const gfloat * background,
    GError ** error);

/* Enqueues the step on @stream.  Device pointers:
 * @raw: geom->alines * geom->bscans rows of geom->raw_samples unsigned
 * samples, @raw_stride bytes apart (any base address and stride; 8-byte
 * aligned ones read fastest, 4-byte aligned for 12-bit, 2-byte for
 * 10-bit); @out: contiguous float32, A-line after A-line (16-byte aligned
 * with raw_samples a multiple of 4 writes fastest).  Float32 samples are
 * checked: the host waits for the stream and *@bad says where the first
 * non-finite one is (the output is then not to be used); for the other
 * formats bad->found is FALSE and nothing waits. */
gboolean aooct_cuda_dcsub_execute (AooctCudaDcsubPlan * plan,
    gconstpointer raw, gsize raw_stride, gfloat * out,
    AooctDcNonFinite * bad, AooctCudaStream stream, GError ** error);
void aooct_cuda_dcsub_plan_free (AooctCudaDcsubPlan * plan);

G_END_DECLS
#endif /* __AOOCT_CUDA_DCSUB_H__ */
