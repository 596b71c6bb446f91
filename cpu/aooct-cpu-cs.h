/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: compressive sensing (spec section 10, aooctcs).
 *
 * All A-lines of a buffer iterate together, as on the GPU: each SpaRSA
 * iteration applies A^H to every residual (aooctfft's nonuniform core,
 * cpu/aooct-cpu-nonuniform.c, on the operator geometry of
 * aooct_cs_operator_geometry(): one cblas_cgemm or one NUFFT per A-line),
 * then the shrinkage, then A (the adjoint of the same tables: the
 * conjugate NUDFT matrix, or deapodisation, inverse FFTW of the R * P grid
 * and the transposed gridding matrix), then the residual and the step
 * size, per A-line.  Sums of squares per A-line are taken in double, in
 * index order. */
#ifndef __AOOCT_CPU_CS_H__
#define __AOOCT_CPU_CS_H__

#include <glib.h>

#include "aooct-cs.h"

G_BEGIN_DECLS

typedef struct _AooctCpuCsPlan AooctCpuCsPlan;

/* @cs: the configuration (copied what is needed; may be freed after). */
AooctCpuCsPlan *aooct_cpu_cs_plan_new (const AooctCs * cs, gint n_threads,
    GError ** error);

/* @in: @n_alines real spectra of cs->in_width floats (DC-subtracted),
 * contiguous; @out: @n_alines depth profiles x of P complex floats.
 * @tau (finite, >= 0) and @iterations (1..AOOCT_CS_MAX_ITERATIONS): the
 * element's live settings for this buffer (the configuration's are only
 * the first ones). */
void aooct_cpu_cs_execute (AooctCpuCsPlan * core, const gfloat * in,
    gfloat * out,
    gint n_alines, gdouble tau, gint iterations);

void aooct_cpu_cs_plan_free (AooctCpuCsPlan * core);

G_END_DECLS

#endif /* __AOOCT_CPU_CS_H__ */
