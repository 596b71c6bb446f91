/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: rigid sub-pixel registration of B-scans, aooctregister
 * (spec section 13).
 *
 * Input and output: B-scans of M A-lines of P2 complex float32 samples
 * (aooctfft's output), A-line after A-line, rows @stride bytes apart.
 * Per B-scan, in order: the crop's amplitudes, their 2-D DFT (mean
 * removed by zeroing its DC bin), the cross-power spectrum with the
 * reference's, its inverse for the integer peak, the upsampled DFT around
 * it (two small matrix products with exact twiddles), rho, then the shift
 * applied by one 2-D DFT of the whole B-scan (A-lines x P2 bins), the
 * phase ramps of spec 13 (unsigned depth frequency of the spectral sample,
 * signed lateral frequency) and the inverse, and the A-lines whose source
 * lies outside set to 0.  FFTW float plans made once per geometry; OpenMP
 * over rows of the matrix products.  Results go to p->report. */
#ifndef __AOOCT_CPU_REGISTER_H__
#define __AOOCT_CPU_REGISTER_H__

#include <glib.h>
#include "aooct-register.h"

G_BEGIN_DECLS typedef struct _AooctCpuRegisterPlan AooctCpuRegisterPlan;

AooctCpuRegisterPlan *aooct_cpu_register_plan_new (const AooctRegisterParams *
    p);
void aooct_cpu_register_plan_free (AooctCpuRegisterPlan * r);

/* One buffer of p->bscans B-scans; @min_correlation: this buffer's
 * (live), in place of p->min_correlation. */
void aooct_cpu_register_execute (AooctCpuRegisterPlan * r,
    gdouble min_correlation, const gfloat * in, gsize in_stride, gfloat * out,
    gsize out_stride);

/* A flush: the next B-scan is the new reference, counting starts at 0. */
void aooct_cpu_register_reset (AooctCpuRegisterPlan * r);

G_END_DECLS
#endif /* __AOOCT_CPU_REGISTER_H__ */
