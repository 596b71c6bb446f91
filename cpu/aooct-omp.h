/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the OpenMP helpers of the CPU cores (each core spreads the
 * A-lines of a buffer over a team of threads, each thread with scratch
 * arrays of its own).  Without OpenMP the cores run on the calling thread. */
#ifndef __AOOCT_OMP_H__
#define __AOOCT_OMP_H__

#include <glib.h>

G_BEGIN_DECLS

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

#endif /* __AOOCT_OMP_H__ */
