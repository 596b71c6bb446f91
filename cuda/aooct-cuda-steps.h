/* aooct CUDA cores: the device kernels of pad, kmap, disp and fft
 * (aooctnorm's are in aooct-cuda-norm.h).
 *
 * Plain C API (callable from the GStreamer elements), GStreamer-free.  All
 * pointers are device pointers; every function only enqueues work on
 * @stream and returns the launch status (cudaSuccess or the error), so the
 * host never waits here.  @rows is the number of A-lines in the buffer
 * (A-lines per B-scan x B-scans).  Tables (kmap brackets, dispersion
 * weights, windows) are the float tables of common/, uploaded once. */
#ifndef __AOOCT_CUDA_STEPS_H__
#define __AOOCT_CUDA_STEPS_H__

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* aooctpad, step 1: y[r][0..P1) = 0 except y[r][o + n] = x[r][n] */
cudaError_t aooct_cuda_pad_place (const float *x, float *y, int n, int p1,
    int offset, int rows, cudaStream_t stream);

/* aooctpad, step 2: Z[r][k] = Y[r][k] for k <= P1/2, 0 up to P2/2
 * (Y has P1/2+1 bins per row, Z has P2/2+1) */
cudaError_t aooct_cuda_pad_spectrum (const float2 * Y, float2 * Z, int p1,
    int p2, int rows, cudaStream_t stream);

/* aooctpad, step 3, in place: z *= scale inside [j0, j1], 0 outside */
cudaError_t aooct_cuda_pad_finish (float *z, int p2, int j0, int j1,
    float scale, int rows, cudaStream_t stream);

/* aooctkmap: out[i] = in[l] + (in[l+1] - in[l]) * frac[i] for j0 <= i <= j1
 * with l = index[i]; 0 in the margins */
cudaError_t aooct_cuda_kmap (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows, cudaStream_t stream);

/* aooctdisp: c[i] = in[i] * w[i] (real x complex) */
cudaError_t aooct_cuda_disp (const float *in, float2 * out, const float2 * w,
    int p2, int rows, cudaStream_t stream);

/* aooctkmap + aooctdisp fused (one pass instead of two) */
cudaError_t aooct_cuda_kmap_disp (const float *in, float2 * out,
    const int *index, const float *frac, const float2 * w, int p2, int j0,
    int j1, int rows, cudaStream_t stream);

/* aooctfft, before the C2C FFT: out = in (real or complex) x window
 * (window may be NULL = none); out is complex */
cudaError_t aooct_cuda_window (const void *in, int in_complex, float2 * out,
    const float *window, int p2, int rows, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* __AOOCT_CUDA_STEPS_H__ */
