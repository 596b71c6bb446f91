/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: conversion to float32 and DC subtraction (spec 1 and 2). */
#ifndef __AOOCT_CPU_DCSUB_H__
#define __AOOCT_CPU_DCSUB_H__

#include <glib.h>
#include "aooct-geometry.h"
#include "aooct-dc.h"
#include "aooct-raw-format.h"

G_BEGIN_DECLS
/* @raw: geom->alines * geom->bscans rows of geom->raw_samples unsigned
 * samples in @format (8-bit, 16-bit little-endian, or packed: then
 * raw_samples is a multiple of the format's unit), @raw_stride bytes
 * apart.  @background: raw_samples values, used in AOOCT_DC_BACKGROUND mode.
 * @out: contiguous float32, A-line after A-line. */
void aooct_cpu_dcsub (const AooctGeometry * geom, const guint8 * raw,
    gsize raw_stride, AooctRawFormat format, AooctDcMode mode,
    const gfloat * background, gfloat * out);

G_END_DECLS
#endif /* __AOOCT_CPU_DCSUB_H__ */
