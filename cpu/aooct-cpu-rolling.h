/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: the rolling background of aooctdcsub mode=rolling-mean
 * (spec section 11): the subtracted spectrum is the mean A-line over the
 * current and the K'-1 preceding B-scans, K' = min (K, B-scans since
 * start, flush or caps change).
 *
 * Each B-scan's column sums are kept in a ring of K slots.  The samples
 * are integers (converted raw counts), so the sums in double are exact
 * whatever their order, and the mean, one correctly rounded double
 * quotient converted to float, is the same on the CPU and on CUDA
 * (cuda/aooct-cuda-rolling.cu) and matches a float64 implementation to
 * the last bit of float32. */
#ifndef __AOOCT_CPU_ROLLING_H__
#define __AOOCT_CPU_ROLLING_H__

#include <glib.h>
#include "aooct-rolling.h"

G_BEGIN_DECLS

/* One B-scan of @alines rows of N converted samples, in place. */
void aooct_cpu_rolling_bscan (AooctRolling * r, gfloat * x, gint alines);

G_END_DECLS

#endif /* __AOOCT_CPU_ROLLING_H__ */
