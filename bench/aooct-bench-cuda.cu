/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: copy ceilings (see aooct-bench-cuda.h).  Runs on the
 * runtime's primary context of device 0, before any pipeline, and resets
 * it afterwards; the pipelines use libgstcuda's context. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime.h>

#include "aooct-bench-cuda.h"

#define BYTES ((size_t) 256 << 20)
#define REPS 20

#define CHECK(call) do {                                                 \
    cudaError_t e_ = (call);                                             \
    if (e_ != cudaSuccess) {                                             \
      snprintf (c->error, sizeof (c->error), "%s: %s", #call,            \
          cudaGetErrorString (e_));                                      \
      goto out;                                                          \
    }                                                                    \
  } while (0)

/* GB/s of @kind copies of BYTES, REPS times, after one warm-up. */
static int
time_copy (AooctBenchCeilings * c, void *dst, const void *src,
    cudaMemcpyKind kind, cudaStream_t s, cudaEvent_t a, cudaEvent_t b,
    double *gbs)
{
  float ms = 0;
  int i, ret = -1;

  CHECK (cudaMemcpyAsync (dst, src, BYTES, kind, s));
  CHECK (cudaEventRecord (a, s));
  for (i = 0; i < REPS; i++)
    CHECK (cudaMemcpyAsync (dst, src, BYTES, kind, s));
  CHECK (cudaEventRecord (b, s));
  CHECK (cudaEventSynchronize (b));
  CHECK (cudaEventElapsedTime (&ms, a, b));
  *gbs = (double) BYTES * REPS / (ms * 1e-3) / 1e9;
  ret = 0;
out:
  return ret;
}

int
aooct_bench_ceilings (AooctBenchCeilings * c)
{
  struct cudaDeviceProp prop;
  void *h = NULL, *d1 = NULL, *d2 = NULL;
  cudaStream_t s = NULL;
  cudaEvent_t a = NULL, b = NULL;
  int ret = -1;

  memset (c, 0, sizeof (*c));
  CHECK (cudaGetDeviceProperties (&prop, 0));
  snprintf (c->gpu, sizeof (c->gpu), "%.180s (compute capability %d.%d, %d SMs,"
      " %.0f GiB)", prop.name, prop.major, prop.minor,
      prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0);
  CHECK (cudaMallocHost (&h, BYTES));
  memset (h, 1, BYTES);
  CHECK (cudaMalloc (&d1, BYTES));
  CHECK (cudaMalloc (&d2, BYTES));
  CHECK (cudaMemset (d1, 2, BYTES));
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  if (time_copy (c, d1, h, cudaMemcpyHostToDevice, s, a, b, &c->h2d_gbs)
      || time_copy (c, h, d1, cudaMemcpyDeviceToHost, s, a, b, &c->d2h_gbs)
      || time_copy (c, d2, d1, cudaMemcpyDeviceToDevice, s, a, b,
          &c->d2d_gbs))
    goto out;
  c->d2d_gbs *= 2;              /* each byte read once and written once */
  ret = 0;
out:
  if (a)
    cudaEventDestroy (a);
  if (b)
    cudaEventDestroy (b);
  if (s)
    cudaStreamDestroy (s);
  cudaFree (d1);
  cudaFree (d2);
  cudaFreeHost (h);
  cudaDeviceReset ();
  return ret;
}

__global__ void
aooct_bench_empty (void)
{
}

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#define API_REPS 2000

int
aooct_bench_api_costs (AooctBenchApiCosts * c)
{
  cudaStream_t s = NULL;
  cudaEvent_t e = NULL;
  cudaGraph_t g = NULL;
  cudaGraphExec_t ge = NULL;
  void *h = NULL, *d = NULL;
  double t0;
  int i, k, ret = -1;

  memset (c, 0, sizeof (*c));
  CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CHECK (cudaEventCreateWithFlags (&e, cudaEventDisableTiming));
  CHECK (cudaMallocHost (&h, 65536));
  CHECK (cudaMalloc (&d, 65536));
  /* warm-up: module load, first launch */
  aooct_bench_empty <<< 1, 32, 0, s >>> ();
  CHECK (cudaStreamSynchronize (s));

  t0 = now_us ();
  for (i = 0; i < API_REPS; i++)
    aooct_bench_empty <<< 1, 32, 0, s >>> ();
  c->launch_us = (now_us () - t0) / API_REPS;
  CHECK (cudaGetLastError ());
  CHECK (cudaStreamSynchronize (s));

  t0 = now_us ();
  for (i = 0; i < API_REPS; i++)
    CHECK (cudaEventRecord (e, s));
  c->event_record_us = (now_us () - t0) / API_REPS;
  t0 = now_us ();
  for (i = 0; i < API_REPS; i++)
    CHECK (cudaStreamWaitEvent (s, e, 0));
  c->stream_wait_us = (now_us () - t0) / API_REPS;
  CHECK (cudaStreamSynchronize (s));
  t0 = now_us ();
  for (i = 0; i < API_REPS; i++)
    CHECK (cudaEventQuery (e));
  c->event_query_us = (now_us () - t0) / API_REPS;

  t0 = now_us ();
  for (i = 0; i < API_REPS; i++)
    CHECK (cudaMemcpyAsync (d, h, 65536, cudaMemcpyHostToDevice, s));
  c->copy_h2d_us = (now_us () - t0) / API_REPS;
  CHECK (cudaStreamSynchronize (s));

  CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeThreadLocal));
  for (k = 0; k < 8; k++)
    aooct_bench_empty <<< 1, 32, 0, s >>> ();
  CHECK (cudaStreamEndCapture (s, &g));
  CHECK (cudaGraphInstantiate (&ge, g, 0));
  CHECK (cudaGraphLaunch (ge, s));
  CHECK (cudaStreamSynchronize (s));
  t0 = now_us ();
  for (i = 0; i < API_REPS / 8; i++)
    CHECK (cudaGraphLaunch (ge, s));
  c->graph8_us = (now_us () - t0) / (API_REPS / 8);
  CHECK (cudaStreamSynchronize (s));
  t0 = now_us ();
  for (i = 0; i < API_REPS / 8; i++)
    for (k = 0; k < 8; k++)
      aooct_bench_empty <<< 1, 32, 0, s >>> ();
  c->launch8_us = (now_us () - t0) / (API_REPS / 8);
  CHECK (cudaStreamSynchronize (s));

  /* what a graph per buffer costs when the pointers change: capture the
   * launches again, update the instantiated graph, launch it */
  t0 = now_us ();
  for (i = 0; i < API_REPS / 8; i++) {
    cudaGraph_t g2 = NULL;
    cudaGraphExecUpdateResultInfo info;

    CHECK (cudaStreamBeginCapture (s, cudaStreamCaptureModeThreadLocal));
    for (k = 0; k < 8; k++)
      aooct_bench_empty <<< 1, 32, 0, s >>> ();
    CHECK (cudaStreamEndCapture (s, &g2));
    CHECK (cudaGraphExecUpdate (ge, g2, &info));
    CHECK (cudaGraphLaunch (ge, s));
    CHECK (cudaGraphDestroy (g2));
  }
  c->capture8_us = (now_us () - t0) / (API_REPS / 8);
  CHECK (cudaStreamSynchronize (s));

  t0 = now_us ();
  for (i = 0; i < API_REPS / 4; i++) {
    aooct_bench_empty <<< 1, 32, 0, s >>> ();
    CHECK (cudaStreamSynchronize (s));
  }
  c->sync_us = (now_us () - t0) / (API_REPS / 4);
  ret = 0;
out:
  if (ge)
    cudaGraphExecDestroy (ge);
  if (g)
    cudaGraphDestroy (g);
  if (e)
    cudaEventDestroy (e);
  if (s)
    cudaStreamDestroy (s);
  cudaFree (d);
  cudaFreeHost (h);
  cudaDeviceReset ();
  return ret;
}
