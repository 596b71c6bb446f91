/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: error checking shared by the .cu files (C++ only, not
 * part of the C API).
 *
 * AOOCT_CUDA_CHECK (call, error, fmt, ...) evaluates a CUDA runtime call;
 * on failure it sets @error to "<what> failed: <name> (<string>)" and
 * returns FALSE from the enclosing function.  AOOCT_CUDA_CHECK_LAUNCH
 * checks a kernel launch (configuration errors surface through
 * cudaGetLastError; faults during execution surface at the next
 * synchronising call, which is checked too). */
#ifndef __AOOCT_CUDA_CHECK_H__
#define __AOOCT_CUDA_CHECK_H__

#include <cuda_runtime.h>
#include <cufft.h>
#include <glib.h>

#include "aooct-error.h"

G_BEGIN_DECLS

gboolean aooct_cuda_set_error (cudaError_t err, GError ** error,
    const gchar * format, ...) G_GNUC_PRINTF (3, 4);
gboolean aooct_cufft_set_error (cufftResult res, GError ** error,
    const gchar * format, ...) G_GNUC_PRINTF (3, 4);
const gchar *aooct_cufft_result_name (cufftResult res);
/* TRUE for the errors after which a context is lost for good (a fault
 * during a kernel: illegal address, launch failure, ...) */
gboolean aooct_cuda_error_is_sticky (cudaError_t err);

G_END_DECLS

#define AOOCT_CUDA_CHECK(call, error, ...) G_STMT_START {               \
    cudaError_t _aooct_err = (call);                                   \
    if (G_UNLIKELY (_aooct_err != cudaSuccess))                        \
      return aooct_cuda_set_error (_aooct_err, (error), __VA_ARGS__);  \
  } G_STMT_END

#define AOOCT_CUDA_CHECK_LAUNCH(error, ...)                            \
  AOOCT_CUDA_CHECK (cudaGetLastError (), (error), __VA_ARGS__)

#define AOOCT_CUFFT_CHECK(call, error, ...) G_STMT_START {              \
    cufftResult _aooct_res = (call);                                   \
    if (G_UNLIKELY (_aooct_res != CUFFT_SUCCESS))                      \
      return aooct_cufft_set_error (_aooct_res, (error), __VA_ARGS__); \
  } G_STMT_END

#endif /* __AOOCT_CUDA_CHECK_H__ */
