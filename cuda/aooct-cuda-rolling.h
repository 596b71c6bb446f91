/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: the rolling background of aooctdcsub mode=rolling-mean,
 * the CUDA twin of cpu/aooct-cpu-rolling.h (bit-identical: exact column
 * sums in double, the same quotient). */
#ifndef __AOOCT_CUDA_ROLLING_H__
#define __AOOCT_CUDA_ROLLING_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-rolling.h"

G_BEGIN_DECLS

/* One B-scan of @alines rows of r->samples converted floats at @x
 * (device), in place; @ring: r->k * r->samples doubles (device).  Advances
 * r->pos and r->count as the CPU core does. */
gboolean aooct_cuda_rolling_bscan (AooctRolling * r, gdouble * ring,
    gfloat * x, gint alines, AooctCudaStream stream, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_ROLLING_H__ */
