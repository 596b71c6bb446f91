/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: spectral window and forward FFT (spec section 6), the
 * CUDA twin of cpu/aooct-cpu-fft.h.
 *
 * Per buffer: one kernel multiplies the real or complex spectra by the
 * window (or only converts them to complex) into the output buffer, then a
 * batched cuFFT C2C forward transform runs in place there (the input is
 * only read: see aooct-cuda-fft.cu for why).  The plan, its
 * work area and the device window table are made once per geometry; a new
 * window is uploaded with a copy ordered on the stream.  The windowed
 * input equals the CPU core's bit for bit; the FFT agrees within float32
 * rounding. */
#ifndef __AOOCT_CUDA_FFT_H__
#define __AOOCT_CUDA_FFT_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-cuda-prep.h"

G_BEGIN_DECLS

typedef struct _AooctCudaFftPlan AooctCudaFftPlan;

/* Plan for @rows transforms of @samples points (context current); @rows 0:
 * no plan, only the window table (for aooct_cuda_fft_window_into() and
 * aooct_cuda_fft_prepare_into()). */
AooctCudaFftPlan *aooct_cuda_fft_plan_new (gint samples, gsize rows,
    GError ** error);

/* Enqueues the upload of @window (samples floats, host memory that may be
 * freed on return) on @stream; NULL: no window from now on. */
gboolean aooct_cuda_fft_set_window (AooctCudaFftPlan * fft,
    const gfloat * window, AooctCudaStream stream, GError ** error);

/* @in: rows x samples float32 (@complex_in FALSE) or interleaved complex;
 * @out: rows x samples interleaved complex, the unscaled forward DFT of
 * the windowed input.  Device pointers. */
gboolean aooct_cuda_fft_execute (AooctCudaFftPlan * fft, gconstpointer in,
    gboolean complex_in, gfloat * out, AooctCudaStream stream,
    GError ** error);

/* The same for real spectra @in on which steps deferred to aooctfft are
 * still to be applied (@steps, their tables loaded into @prep): one fused
 * pass applies them and the window into @out, then the C2C. */
gboolean aooct_cuda_fft_execute_prepared (AooctCudaFftPlan * fft,
    AooctCudaPrepPlan * prep, const gfloat * in,
        const AooctCudaPrepSteps * steps,
    gfloat * out, AooctCudaStream stream, GError ** error);

/* Only the window pass (and, for _prepare_into, the deferred steps) of the
 * two functions above, into @work (@rows x samples complex), without the
 * FFT: for the non-uniform transforms (aooct-cuda-nonuniform.h). */
gboolean aooct_cuda_fft_window_into (AooctCudaFftPlan * fft, gconstpointer in,
    gboolean complex_in, gfloat * work, gsize rows, AooctCudaStream stream,
    GError ** error);
gboolean aooct_cuda_fft_prepare_into (AooctCudaFftPlan * fft,
    AooctCudaPrepPlan * prep, const gfloat * in,
        const AooctCudaPrepSteps * steps,
    gfloat * work, AooctCudaStream stream, GError ** error);

void aooct_cuda_fft_plan_free (AooctCudaFftPlan * fft);

G_END_DECLS

#endif /* __AOOCT_CUDA_FFT_H__ */
