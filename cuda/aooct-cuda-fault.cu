/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: deliberate faults (see aooct-cuda-fault.h). */
#include <cstdint>
#include <cufft.h>

#include "aooct-cuda-fault.h"
#include "aooct-cuda-check.h"

static __global__ void
fault_kernel (float *where)
{
  /* an address no allocation can have: the store faults */
  where[threadIdx.x] = 1.0f;
}

AooctCudaFault
aooct_cuda_fault_from_string (const gchar * name)
{
  if (g_strcmp0 (name, "launch") == 0)
    return AOOCT_CUDA_FAULT_LAUNCH;
  if (g_strcmp0 (name, "kernel") == 0)
    return AOOCT_CUDA_FAULT_KERNEL;
  if (g_strcmp0 (name, "cufft") == 0)
    return AOOCT_CUDA_FAULT_CUFFT;
  return AOOCT_CUDA_FAULT_NONE;
}

gboolean
aooct_cuda_fault_inject (AooctCudaFault fault, AooctCudaStream stream,
    GError ** error)
{
  cudaStream_t s = (cudaStream_t) stream;

  switch (fault) {
    case AOOCT_CUDA_FAULT_LAUNCH:
      /* 4096 threads per block: more than any device allows */
      fault_kernel <<< 1, 4096, 0, s >>> (NULL);
      AOOCT_CUDA_CHECK_LAUNCH (error, "injected fault: kernel launch");
      return TRUE;
    case AOOCT_CUDA_FAULT_KERNEL:
      fault_kernel <<< 1, 32, 0, s >>> ((float *) (uintptr_t) 0x10);
      AOOCT_CUDA_CHECK_LAUNCH (error, "injected fault: kernel launch");
      return TRUE;
    case AOOCT_CUDA_FAULT_CUFFT:{
      cufftHandle plan;

      AOOCT_CUFFT_CHECK (cufftPlan1d (&plan, 64, CUFFT_C2C, 1), error,
          "injected fault: cufftPlan1d");
      AOOCT_CUFFT_CHECK (cufftDestroy (plan), error,
          "injected fault: cufftDestroy");
      AOOCT_CUFFT_CHECK (cufftExecC2C (plan, NULL, NULL, CUFFT_FORWARD),
          error, "injected fault: cufftExecC2C of a destroyed plan");
      return TRUE;
    }
    default:
      return TRUE;
  }
}
