/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the head of the table, what the machine itself costs and
 * allows: handing a buffer to another thread (a queue, an output task, a
 * reader thread) and, on CUDA, the GPU, its copy ceilings (the bounds the
 * chain rows compare with) and the host cost of the CUDA calls an element
 * makes per buffer. */
#include <stdio.h>
#include <gst/gst.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "aooct-bench.h"
#ifdef HAVE_CUDA
#include "aooct-bench-cuda.h"
#endif

typedef struct
{
  GMutex lock;
  GCond cond;
  gint turn, rounds;
} PingPong;

static gpointer
pong (gpointer data)
{
  PingPong *pp = data;
  gint i;

  g_mutex_lock (&pp->lock);
  for (i = 0; i < pp->rounds; i++) {
    while (pp->turn != 1)
      g_cond_wait (&pp->cond, &pp->lock);
    pp->turn = 0;
    g_cond_signal (&pp->cond);
  }
  g_mutex_unlock (&pp->lock);
  return NULL;
}

/* Microseconds from signalling a waiting thread to its answer arriving,
 * halved: one hand-over (a queue, an output task, a reader thread). */
static gdouble
wakeup_us (void)
{
  PingPong pp;
  GThread *t;
  gint64 t0;
  gint i;

  g_mutex_init (&pp.lock);
  g_cond_init (&pp.cond);
  pp.turn = 0;
  pp.rounds = 2000;
  t = g_thread_new ("pong", pong, &pp);
  t0 = g_get_monotonic_time ();
  g_mutex_lock (&pp.lock);
  for (i = 0; i < pp.rounds; i++) {
    pp.turn = 1;
    g_cond_signal (&pp.cond);
    while (pp.turn != 0)
      g_cond_wait (&pp.cond, &pp.lock);
  }
  g_mutex_unlock (&pp.lock);
  g_thread_join (t);
  g_mutex_clear (&pp.lock);
  g_cond_clear (&pp.cond);
  return (g_get_monotonic_time () - t0) / 2.0 / pp.rounds;
}

void
aooct_bench_machine_rows (Bench * b)
{
  GString *table = b->table;
  FILE *out = b->out;
#ifdef HAVE_CUDA
  AooctBenchCeilings ceil;
#endif

  emit (table, out, "# aooct benchmark (backend %s, aooctkmap "
      "interpolation=%s, %d buffers per figure after %d warm-up, %d CPU "
      "threads)\n\n", backend ? backend : "auto",
      interpolation ? interpolation : "linear", b->buffers, WARMUP,
      (gint) g_get_num_processors ());
  emit (table, out, "Handing over to a waiting thread (GCond, half a round "
      "trip): %.1f us\n\n", wakeup_us ());
#ifdef HAVE_CUDA
  if (on_cuda ()) {
    if (aooct_bench_ceilings (&ceil) == 0) {
      emit (table, out, "GPU: %s\n\nCeilings (cudaMemcpyAsync of 256 MiB, "
          "timed with CUDA events): pinned host -> device %.1f GB/s, "
          "device -> pinned host %.1f GB/s, device -> device %.0f GB/s "
          "(bytes read + written)\n\n", ceil.gpu, ceil.h2d_gbs,
          ceil.d2h_gbs, ceil.d2d_gbs);
      b->have_ceil = TRUE;
      b->h2d_gbs = ceil.h2d_gbs;
      b->d2d_gbs = ceil.d2d_gbs;
    } else {
      emit (table, out, "ceilings not measured: %s\n\n", ceil.error);
    }
    {
      AooctBenchApiCosts api;

      if (aooct_bench_api_costs (&api) == 0)
        emit (table, out, "Host cost of the CUDA calls an element makes per "
            "buffer (us per call, mean of 2000): kernel launch %.2f, "
            "cudaEventRecord %.2f, cudaStreamWaitEvent %.2f, cudaEventQuery "
            "%.2f, cudaMemcpyAsync 64 KB H2D %.2f; 8 kernels launched one by "
            "one %.2f, as one CUDA graph %.2f, captured again + "
            "cudaGraphExecUpdate + launch %.2f; launch + "
            "cudaStreamSynchronize %.2f\n\n", api.launch_us,
            api.event_record_us, api.stream_wait_us, api.event_query_us,
            api.copy_h2d_us, api.launch8_us, api.graph8_us, api.capture8_us,
            api.sync_us);
      else
        emit (table, out, "CUDA call costs not measured: %s\n\n", api.error);
    }
  }
#endif
}
