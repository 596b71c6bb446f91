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
/* Device scratch that aooct_cuda_dcsub() needs for @geom (allocate it once
 * at setup, not per buffer): the partial column sums of each B-scan.  It
 * needs no clearing, and its content between buffers does not matter. */
    gsize aooct_cuda_dcsub_scratch_bytes (const AooctGeometry * geom);

/* Enqueues the step on @stream.  All pointers are device pointers:
 * @raw: geom->alines * geom->bscans rows of geom->raw_samples unsigned
 * samples in @format (8-bit, 16-bit little-endian, or packed 12/10-bit:
 * raw_samples is then a multiple of the format's unit), @raw_stride bytes
 * apart (any base address and stride; 8-byte aligned ones read fastest,
 * 4-byte aligned for 12-bit, 2-byte for 10-bit);
 * @background: raw_samples floats (AOOCT_DC_BACKGROUND only);
 * @scratch: aooct_cuda_dcsub_scratch_bytes() bytes;
 * @out: contiguous float32, A-line after A-line (16-byte aligned with
 * raw_samples a multiple of 4 writes fastest). */
gboolean aooct_cuda_dcsub (const AooctGeometry * geom, gconstpointer raw,
    gsize raw_stride, AooctRawFormat format, AooctDcMode mode,
    const gfloat * background, gpointer scratch, gfloat * out,
    AooctCudaStream stream, GError ** error);

G_END_DECLS
#endif /* __AOOCT_CUDA_DCSUB_H__ */
