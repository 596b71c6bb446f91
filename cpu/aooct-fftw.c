/* aooct: FFTW3 helpers shared by the CPU cores (see aooct-fftw.h). */
#include "aooct-fftw.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static GMutex planner_lock;

void
aooct_fftw_lock (void)
{
  g_mutex_lock (&planner_lock);
}

void
aooct_fftw_unlock (void)
{
  g_mutex_unlock (&planner_lock);
}

gint
aooct_cpu_threads (void)
{
#ifdef _OPENMP
  return omp_get_max_threads ();
#else
  return 1;
#endif
}

gint
aooct_cpu_thread_index (void)
{
#ifdef _OPENMP
  return omp_get_thread_num ();
#else
  return 0;
#endif
}
