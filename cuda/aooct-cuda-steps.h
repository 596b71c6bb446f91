/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA cores: the kernels of the fused pass before the FFT and of
 * aooctdisp's complex weighting, which aooct-cuda-prep.cu launches (the
 * kernels of each single step live with it, aooct-cuda-STEP.cu).
 *
 * Plain C API, GStreamer-free.  All pointers are device pointers; every
 * function only enqueues work on @stream and returns the launch status
 * (cudaSuccess or the error), so the host never waits here.  @rows is the
 * number of A-lines in the buffer (A-lines per B-scan x B-scans).  Tables
 * (kmap brackets, dispersion weights, windows) are the float tables of
 * common/, uploaded once. */
#ifndef __AOOCT_CUDA_STEPS_H__
#define __AOOCT_CUDA_STEPS_H__

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* aooctkmap, aooctdisp and aooctfft's window fused (aooct-cuda-prep.h):
 * x = the resampled in (as aooctkmap's kernel) when @index is not NULL,
 * else in; with @pad, x * pad_scale for pad_j0 <= i <= pad_j1, else 0;
 * c = x * w[i] when @w is not NULL, else (x, 0); c *= window[i] when
 * @window is not NULL.  @in real, @out complex */
cudaError_t aooct_cuda_prep (const float *in, float2 * out, int pad,
    float pad_scale, int pad_j0, int pad_j1, const int *index,
    const float *frac, int j0, int j1, const float2 * w, const float *window,
    int p2, int rows, cudaStream_t stream);

/* Complex spectra (full range, spec section 9). */

/* aooctdisp: out[i] = in[i] * w[i] (complex product, the CPU core's
 * operations) */
cudaError_t aooct_cuda_disp_complex (const float2 * in, float2 * out,
    const float2 * w, int p2, int rows, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* __AOOCT_CUDA_STEPS_H__ */
