/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: aooctnorm with average-bscans, average-alines or the
 * bilateral filter (spec section 11; aooct-norm-extra.h says what is
 * computed).  Without them aooctnorm uses aooct-cpu-norm.h alone. */
#ifndef __AOOCT_CPU_NORM_EXTRA_H__
#define __AOOCT_CPU_NORM_EXTRA_H__

#include <glib.h>
#include "aooct-cpu-norm.h"
#include "aooct-norm-extra.h"

G_BEGIN_DECLS

typedef struct _AooctCpuNormExtraPlan AooctCpuNormExtraPlan;

AooctCpuNormExtraPlan *aooct_cpu_norm_extra_plan_new
    (const AooctNormExtraParams * p);
void aooct_cpu_norm_extra_plan_free (AooctCpuNormExtraPlan * x);
/* average-bscans starts over (flush, new caps) */
void aooct_cpu_norm_extra_reset (AooctCpuNormExtraPlan * x);

/* @in: bscans * M A-lines of P2 complex floats; @out: bscans * rows image
 * rows of width pixels (8 or 16 bits per settings->bits), @out_stride
 * bytes apart. */
void aooct_cpu_norm_extra_execute (AooctCpuNormExtraPlan * x,
    const AooctNormSettings * s, const gfloat * in, guint8 * out,
    gsize out_stride);

G_END_DECLS

#endif /* __AOOCT_CPU_NORM_EXTRA_H__ */
