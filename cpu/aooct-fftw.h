/* aooct: FFTW3 helpers shared by the CPU cores.
 *
 * FFTW's planner is not thread-safe, and several aooct elements may plan in
 * different streaming threads at once: every fftwf_plan_* call goes through
 * aooct_fftw_lock()/aooct_fftw_unlock().  Executing plans (new-array
 * execute) is thread-safe. */
#ifndef __AOOCT_FFTW_H__
#define __AOOCT_FFTW_H__

#include <glib.h>

G_BEGIN_DECLS

void aooct_fftw_lock (void);
void aooct_fftw_unlock (void);

/* Number of worker threads the CPU cores use for one buffer (OpenMP). */
gint aooct_cpu_threads (void);

G_END_DECLS

#endif /* __AOOCT_FFTW_H__ */
