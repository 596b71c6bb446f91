/* SPDX-License-Identifier: GPL-2.0-or-later */
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

/* (for the files that took the OpenMP helpers from here before they had
 * a header of their own) */
#include "aooct-omp.h"

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

G_END_DECLS

#endif /* __AOOCT_FFTW_H__ */
