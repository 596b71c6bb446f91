/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench --thread-times: which thread of the process is busy while a
 * chain is timed (the scale-out rows: one process driving several GPUs),
 * from /proc/self/task.  A thread waiting for the GPU spins in the CUDA
 * driver and counts as busy: a place to look, not proof of a limit. */
#ifndef __AOOCT_BENCH_THREADS_H__
#define __AOOCT_BENCH_THREADS_H__

#include <glib.h>

/* the CPU time each thread of the process has used so far */
typedef struct _AooctBenchThreads AooctBenchThreads;

/* Reads /proc/self/task/<tid>/stat of every thread; NULL where /proc
 * cannot be read (not Linux). */
AooctBenchThreads *aooct_bench_threads_read (void);
void aooct_bench_threads_free (AooctBenchThreads * t);

/* The @top threads that used the most CPU time from @start to @end, @wall_s
 * seconds apart, one line each: name (GStreamer names a streaming thread
 * after its element and pad; a thread it did not name, an OpenMP
 * worker or a CUDA driver thread, has the name of the thread that
 * started it), thread id, CPU seconds (user + system) and
 * % of the wall time (100 % = one core busy all along); a thread that
 * started after @start counts from 0, one that ended before @end is not
 * seen.  g_free. */
gchar *aooct_bench_threads_report (const AooctBenchThreads * start,
    const AooctBenchThreads * end, gdouble wall_s, guint top);

#endif /* __AOOCT_BENCH_THREADS_H__ */
