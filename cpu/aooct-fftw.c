/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: FFTW3 helpers shared by the CPU cores (see aooct-fftw.h). */
#include "aooct-fftw.h"

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
