/* aooct CPU core: forward FFT of every A-line (spec section 6). */
#ifndef __AOOCT_CPU_FFT_H__
#define __AOOCT_CPU_FFT_H__

#include <glib.h>
#include <fftw3.h>

G_BEGIN_DECLS

/* Planner flags of every FFTW plan of the CPU cores.  For the thesis shape
 * (P1 = 2048, P2 = 4096, one core of this machine), FFTW_MEASURE plans run
 * ~30 % faster (pad r2c + c2r 7.3 vs 10 us per A-line, complex FFT of 4096
 * 4.5 vs 6.5 us) but take ~0.45 s (pad) + ~0.13 s (fft) to plan per size,
 * at every start and every new geometry, and the plan it picks depends on
 * timing noise, so output bits would differ from run to run.  FFTW_ESTIMATE
 * plans in milliseconds and deterministically, and still picks up any
 * measured wisdom the process already holds; the CPU path is the reference
 * and fallback, the real-time path is CUDA. */
#define AOOCT_CPU_PLAN_FLAGS FFTW_ESTIMATE

/* Index of the calling thread inside an OpenMP parallel region (0 outside
 * one): selects the thread's scratch arrays. */
gint aooct_cpu_thread_index (void);

typedef struct _AooctCpuFft AooctCpuFft;

/* Plans the forward complex FFT of @samples points (a power of two or any
 * size FFTW handles) and allocates scratch for @n_threads threads. */
AooctCpuFft *aooct_cpu_fft_new (gint samples, gint n_threads, GError ** error);

/* @in: @n_alines A-lines of `samples` float32 (@complex_in FALSE) or
 * interleaved re/im float32 pairs, contiguous.  @window: `samples` weights
 * multiplied in first, or NULL for none.  @out: @n_alines A-lines of
 * `samples` interleaved re/im float32, the unscaled forward DFT. */
void aooct_cpu_fft_process (AooctCpuFft * fft, const gfloat * in,
    gboolean complex_in, const gfloat * window, gfloat * out, gint n_alines);

void aooct_cpu_fft_free (AooctCpuFft * fft);

G_END_DECLS

#endif /* __AOOCT_CPU_FFT_H__ */
