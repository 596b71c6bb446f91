/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: zero-padding by FFT interpolation (spec section 3). */
#ifndef __AOOCT_CPU_PAD_H__
#define __AOOCT_CPU_PAD_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct _AooctCpuPadPlan AooctCpuPadPlan;

/* Plans the FFTs for the padded geometry @out (raw_samples N, pad_offset o,
 * pad_factor f, pad_size P1, samples P2) and allocates scratch for
 * @n_threads threads. */
AooctCpuPadPlan *aooct_cpu_pad_plan_new (const AooctGeometry * out,
    gint n_threads,
    GError ** error);

/* @in: @n_alines A-lines of N float32, contiguous; @out: @n_alines A-lines
 * of P2 float32: the interpolated A-line in the data region j0..j1, 0 in
 * the margins.  When @out's sample type is complex (full range, spec
 * section 9), both hold interleaved complex float32 (2 N and 2 P2 floats
 * per A-line). */
void aooct_cpu_pad_execute (AooctCpuPadPlan * pad, const gfloat * in,
    gfloat * out, gint n_alines);

void aooct_cpu_pad_plan_free (AooctCpuPadPlan * pad);

G_END_DECLS

#endif /* __AOOCT_CPU_PAD_H__ */
