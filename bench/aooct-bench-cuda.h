/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the device and its copy ceilings, measured with the CUDA
 * runtime (cudaMemcpyAsync timed with CUDA events). */
#ifndef __AOOCT_BENCH_CUDA_H__
#define __AOOCT_BENCH_CUDA_H__

#ifdef __cplusplus
extern "C"
{
#endif

typedef struct
{
  char gpu[256];                /* device 0's name, compute capability */
  double h2d_gbs;               /* pinned host -> device, GB/s */
  double d2h_gbs;               /* device -> pinned host, GB/s */
  double d2d_gbs;               /* device -> device, bytes read + written */
  char error[256];              /* empty when all went well */
} AooctBenchCeilings;

/* Fills @c; returns 0, or -1 with c->error set. */
int aooct_bench_ceilings (AooctBenchCeilings * c);

/* Host microseconds per call of what an element does per buffer on CUDA,
 * each the mean of many calls on a non-blocking stream of the primary
 * context (what a buffer's host time is made of). */
typedef struct
{
  double launch_us;             /* an empty kernel, 1 block */
  double event_record_us;       /* cudaEventRecord */
  double stream_wait_us;        /* cudaStreamWaitEvent */
  double event_query_us;        /* cudaEventQuery of a completed event */
  double copy_h2d_us;           /* cudaMemcpyAsync of 64 KB, pinned */
  double graph8_us;             /* cudaGraphLaunch of 8 empty kernels */
  double launch8_us;            /* the same 8 kernels launched one by one */
  double capture8_us;           /* captured anew, cudaGraphExecUpdate, launch */
  double sync_us;               /* empty kernel + cudaStreamSynchronize */
  char error[256];
} AooctBenchApiCosts;

int aooct_bench_api_costs (AooctBenchApiCosts * c);

#ifdef __cplusplus
}
#endif

#endif /* __AOOCT_BENCH_CUDA_H__ */
