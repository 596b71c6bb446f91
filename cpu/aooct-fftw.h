/* aooct: FFTW3 helpers shared by the CPU cores.
 *
 * FFTW's planner is not thread-safe, and several aooct elements may plan in
 * different streaming threads at once: every fftwf_plan_* call goes through
 * aooct_fftw_lock()/aooct_fftw_unlock().  Executing plans (new-array
 * execute) is thread-safe. */
#ifndef __AOOCT_FFTW_H__
#define __AOOCT_FFTW_H__

#include <glib.h>
#include <fftw3.h>

G_BEGIN_DECLS

void aooct_fftw_lock (void);
void aooct_fftw_unlock (void);

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

/* Samples of work in one call below which a CPU core stays on the calling
 * thread: for tiny buffers an OpenMP team costs more than it saves, and on
 * a busy machine its barriers spin while a partner thread is descheduled
 * (100,000 B-scans of 64 x 4 samples took minutes instead of seconds). */
#define AOOCT_CPU_PARALLEL_MIN (1 << 16)

/* Number of worker threads the CPU cores use for one buffer (OpenMP). */
gint aooct_cpu_threads (void);

G_END_DECLS

#endif /* __AOOCT_FFTW_H__ */
