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

#ifdef __cplusplus
}
#endif

#endif /* __AOOCT_BENCH_CUDA_H__ */
