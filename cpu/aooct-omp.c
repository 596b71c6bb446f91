/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the OpenMP helpers of the CPU cores (see aooct-omp.h). */
#include "aooct-omp.h"

#ifdef _OPENMP
#include <omp.h>
#endif

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
