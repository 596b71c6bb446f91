/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: forward FFT of every A-line (spec section 6). */
#ifndef __AOOCT_CPU_FFT_H__
#define __AOOCT_CPU_FFT_H__

#include <glib.h>
#include <fftw3.h>

#include "aooct-fftw.h"

G_BEGIN_DECLS

typedef struct _AooctCpuFftPlan AooctCpuFftPlan;

/* Plans the forward complex FFT of @samples points (a power of two or any
 * size FFTW handles) and allocates scratch for @n_threads threads. */
AooctCpuFftPlan *aooct_cpu_fft_plan_new (gint samples, gint n_threads,
    GError ** error);

/* @in: @n_alines A-lines of `samples` float32 (@complex_in FALSE) or
 * interleaved re/im float32 pairs, contiguous.  @window: `samples` weights
 * multiplied in first, or NULL for none.  @out: @n_alines A-lines of
 * `samples` interleaved re/im float32, the unscaled forward DFT. */
void aooct_cpu_fft_execute (AooctCpuFftPlan * fft, const gfloat * in,
    gboolean complex_in, const gfloat * window, gfloat * out, gint n_alines);

void aooct_cpu_fft_plan_free (AooctCpuFftPlan * fft);

G_END_DECLS

#endif /* __AOOCT_CPU_FFT_H__ */
