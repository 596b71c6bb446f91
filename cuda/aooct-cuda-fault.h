/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: deliberate faults, for the robustness tests only.
 *
 * A GPU session must survive a CUDA or cuFFT failure with a clear element
 * error.  Real failures of that kind (a driver fault, a corrupted launch)
 * cannot be provoked on demand, so the tests ask an element, through the
 * environment variable AOOCT_CUDA_FAULT (gst/filter/gstaooctfilter.c), to make
 * one of these after its own work on one buffer.  Each goes through the
 * same error paths as a real failure of that kind. */
#ifndef __AOOCT_CUDA_FAULT_H__
#define __AOOCT_CUDA_FAULT_H__

#include <glib.h>

#include "aooct-cuda.h"

G_BEGIN_DECLS

typedef enum
{
  AOOCT_CUDA_FAULT_NONE = 0,
  /* a kernel launch the device refuses (too many threads per block):
   * an immediate launch error (cudaErrorInvalidValue on CUDA 13); the
   * context stays usable */
  AOOCT_CUDA_FAULT_LAUNCH,
  /* a kernel that stores through an invalid address: the launch succeeds,
   * the fault (cudaErrorIllegalAddress) surfaces asynchronously at a later
   * event or stream wait, possibly in another element, and the context is
   * lost for good (a sticky error) */
  AOOCT_CUDA_FAULT_KERNEL,
  /* a cuFFT execution that cuFFT refuses (a plan handle that no longer
   * exists): CUFFT_INVALID_PLAN from cufftExecC2C */
  AOOCT_CUDA_FAULT_CUFFT
} AooctCudaFault;

/* The kind named @name ("launch", "kernel", "cufft"), or NONE. */
AooctCudaFault aooct_cuda_fault_from_string (const gchar * name);

/* Makes @fault on @stream (the element's context current).  FALSE with the
 * CUDA or cuFFT error in @error where it surfaces at once (LAUNCH, CUFFT);
 * TRUE for KERNEL, whose error surfaces later. */
gboolean aooct_cuda_fault_inject (AooctCudaFault fault,
    AooctCudaStream stream, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_FAULT_H__ */
