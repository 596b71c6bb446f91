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

/* aooctpad, before the R2C: y[r][0..P1) = 0 except
 * y[r][o + n] = x[r][n] * scale (scale = 1/P1, see aooct-cuda-pad.cu) */
cudaError_t aooct_cuda_pad_place (const float *x, float *y, int n, int p1,
    int offset, float scale, int rows, cudaStream_t stream);

/* aooctpad, between the R2C and the C2R: Z[r][k] = 0 for
 * P1/2 < k <= P2/2 (rows of P2/2+1 bins); nothing when P1 == P2 */
cudaError_t aooct_cuda_pad_zero_bins (float2 * Z, int p1, int p2, int rows,
    cudaStream_t stream);

/* aooctpad, after the C2R: z[r][i] = 0 for i < j0 and i > j1 (only those
 * samples are touched; nothing when there is no margin) */
cudaError_t aooct_cuda_pad_margins (float *z, int p2, int j0, int j1,
    int rows, cudaStream_t stream);

/* aooctkmap: out[i] = in[l] + (in[l+1] - in[l]) * frac[i] for j0 <= i <= j1
 * with l = index[i], times @scale (1, or the power of two aooctpad left to
 * it); 0 in the margins */
cudaError_t aooct_cuda_kmap (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, float scale, int rows,
    cudaStream_t stream);

/* aooctkmap, aooctdisp and aooctfft's window fused (aooct-cuda-prep.h):
 * x = the resampled in (as aooct_cuda_kmap) when @index is not NULL, else
 * in; with @pad, x * pad_scale for pad_j0 <= i <= pad_j1, else 0; c = x * w[i] when @w is not NULL, else (x, 0); c *= window[i] when
 * @window is not NULL.  @in real, @out complex */
cudaError_t aooct_cuda_prep (const float *in, float2 * out, int pad,
    float pad_scale, int pad_j0, int pad_j1, const int *index,
    const float *frac, int j0, int j1, const float2 * w, const float *window,
    int p2, int rows, cudaStream_t stream);

/* Complex spectra (full range, spec section 9). */

/* aooctkmap: the resampling of aooct_cuda_kmap on re and im alike (as two
 * real signals), no scale; 0 in the margins.  @in, @out rows x p2
 * complex */
cudaError_t aooct_cuda_kmap_complex (const float2 * in, float2 * out,
    const int *index, const float *frac, int p2, int j0, int j1, int rows,
    cudaStream_t stream);

/* aooctdisp: out[i] = in[i] * w[i] (complex product, the CPU core's
 * operations) */
cudaError_t aooct_cuda_disp_complex (const float2 * in, float2 * out,
    const float2 * w, int p2, int rows, cudaStream_t stream);

/* aooctpad: y[r][0..P1) = 0 except y[r][o + n] = x[r][n] * scale */
cudaError_t aooct_cuda_pad_place_complex (const float2 * x, float2 * y,
    int n, int p1, int offset, float scale, int rows, cudaStream_t stream);

/* aooctpad: rows of P2 bins whose top P1 bins (from P2 - P1 on) hold the
 * forward FFT Y: Z[k] = Y[k] for k <= P1/2 (moved down), Y[k] for
 * k >= P1/2 stays at P2 - P1 + k, every other bin 0 (see
 * aooct-cuda-pad.cu); nothing when P1 == P2 */
cudaError_t aooct_cuda_pad_spread_complex (float2 * Z, int p1, int p2,
    int rows, cudaStream_t stream);

/* aooctpad: z[r][i] = 0 for i < j0 and i > j1 */
cudaError_t aooct_cuda_pad_margins_complex (float2 * z, int p2, int j0,
    int j1, int rows, cudaStream_t stream);

/* aooctfft, before the C2C FFT: out = in (real or complex) x window
 * (window may be NULL = none); out is complex */
cudaError_t aooct_cuda_window (const void *in, int in_complex, float2 * out,
    const float *window, int p2, int rows, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* __AOOCT_CUDA_STEPS_H__ */
