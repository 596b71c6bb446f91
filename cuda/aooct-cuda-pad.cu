/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: zero-padding by FFT interpolation (see aooct-cuda-pad.h).
 *
 * Per buffer, on one stream (bytes per A-line for P1 = 2048, P2 = 4096):
 *   1. place kernel: y = x * (1/P1) at offset o, zeros elsewhere
 *      (reads N floats, writes P1: 4N + 8192 bytes);
 *   2. R2C of length P1 from y straight into the padded spectrum Z, whose
 *      rows are P2/2 + 1 bins long (odist): bins 0..P1/2 (the Nyquist bin
 *      copied, not halved: spec section 3) land where the C2R wants them
 *      (8192 read + 8200 written);
 *   3. zero-bins kernel: Z bins P1/2+1..P2/2 = 0 (8192 written);
 *   4. C2R of length P2 from Z into the output (16392 read + 16384 written);
 *   5. margins kernel: output samples outside [j0, j1] = 0, only those
 *      (4 per margin sample written; no launch without margins).
 * The former sequence (place, R2C into its own array, a spectrum kernel
 * copying 1025 bins into 2049 with zeros, C2R, a finishing kernel scaling
 * by 1/P1 inside [j0, j1] and zeroing outside) moved 122912 bytes per
 * 2048-sample A-line (here 73748) and 118048 per 832-sample one (here
 * 78612, the margins being 2433 of the 4096 samples).
 *
 * Why the scale can move to the start: P1 is a power of two, so 1/P1 is
 * exact and multiplying by it only changes the exponent of a float.  Every
 * operation of an FFT (add, subtract, multiply by a twiddle, fused
 * multiply-add) is linear, and IEEE rounding commutes with a power-of-two
 * scale as long as no value falls into the subnormal range (below 2^-126,
 * i.e. an unscaled intermediate below 2^-115 for P1 = 2048) or overflows:
 * round (s a + s b) = s round (a + b), round (s a * w) = s round (a * w).
 * So C2R (Pad (R2C (y / P1))) is bit for bit C2R (Pad (R2C (y))) / P1,
 * what the finishing kernel used to compute (checked with FFTW on the CPU:
 * 0 of 1.2 million values differ, for R2C 2048 and C2R 4096 of realistic
 * A-lines); camera data never comes near 2^-115.
 *
 * Why the zero bins are written per buffer, after the R2C: cuFFT's
 * documentation (https://docs.nvidia.com/cuda/cufft/index.html#data-layout)
 * says "Out-of-place complex-to-real FFT will always overwrite input
 * buffer", so the C2R leaves no zeros behind for the next buffer; and the
 * R2C makes no promise about the gaps between its output rows.
 *
 * Why the input is not handed to the R2C directly when N == P1 and o == 0
 * (which would save the place kernel), unless the caller says it may be
 * overwritten and the scale is left to the consumer: the input buffer may
 * be shared read-only with other consumers (tee), and cuFFT's
 * documentation promises nothing about out-of-place R2C leaving its input
 * unmodified: it only warns that out-of-place C2R always overwrites it
 * (quoted above) and that in-place C2R may overwrite imaginary input
 * values with non-unit strides.  Otherwise the place kernel stays (it also
 * applies the scale, for free).
 *
 * Leaving the tail (@leave_tail, gst/support/aooct-pending-meta.h): the
 * consumer
 * (aooctkmap, or the fused pass of aooctdisp / aooctfft) multiplies by 1/P1
 * and zeroes the margins in its own pass, bit for bit as here (the scale
 * commutes exactly with its operations too), so this step makes no margins
 * pass and, for N == P1, no placing pass.
 *
 * Device memory, per geometry: y (rows x P1 floats) and Z (rows x
 * (P2/2 + 1) bins); the two plans run one after the other on one stream
 * and share one work area.
 *
 * Complex spectra (full range, spec section 9): place (and scale) into
 * P1 complex samples; C2C forward of length P1 written into the top P1
 * bins of each P2-bin row of Z (from P2 - P1 on), where its upper half
 * (k >= P1/2) already sits where section 9 wants it; the spread kernel
 * moves bins 0..P1/2 down to the bottom and zeroes the rest; C2C backward
 * of length P2 from Z into the output; the margins kernel.  Nothing is
 * left to downstream (the deferred steps are for real spectra). */
#include "aooct-cuda-pad.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-launch.cuh"

/* ---- kernels ----------------------------------------------------------- */

static __device__ __forceinline__ float
scaled (float v, float scale)
{
  return v * scale;
}

static __device__ __forceinline__ float2
scaled (float2 v, float scale)
{
  return make_float2 (v.x * scale, v.y * scale);
}

/* y[r][0..P1) = 0 except y[r][o + n] = x[r][n] * scale (scale = 1/P1);
 * float: real spectra, float2: complex ones */
template < typename T > static __global__ void
pad_place_kernel (const T * x, T * y, int n, int p1, int offset,
    float scale, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p1)
    return;
  AOOCT_FOR_ROWS (r, rows) {
    int src = i - offset;
    y[(size_t) r * p1 + i] = (src >= 0 && src < n) ?
        scaled (x[(size_t) r * n + src], scale) : T ();
  }
}

template < typename T > static cudaError_t
aooct_cuda_pad_place (const T * x, T * y, int n, int p1, int offset,
    float scale, int rows, cudaStream_t stream)
{
  pad_place_kernel < T > <<< aooct_cuda_grid (p1, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (x, y, n, p1, offset, scale, rows);
  return cudaGetLastError ();
}

/* one thread per zero bin k = P1/2 + 1 + i of a row */
static __global__ void
pad_zero_bins_kernel (float2 * Z, int p1, int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int first = p1 / 2 + 1, bins = p2 / 2 + 1;
  if (i >= bins - first)
    return;
  AOOCT_FOR_ROWS (r, rows) {
    Z[(size_t) r * bins + first + i] = make_float2 (0.0f, 0.0f);
  }
}

static cudaError_t
aooct_cuda_pad_zero_bins (float2 * Z, int p1, int p2, int rows,
    cudaStream_t stream)
{
  int count = p2 / 2 - p1 / 2;

  if (count <= 0)
    return cudaSuccess;
  pad_zero_bins_kernel <<< aooct_cuda_grid (count, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (Z, p1, p2, rows);
  return cudaGetLastError ();
}

/* one thread per margin sample of a row: i < j0 is sample i, the others
 * the samples after j1 (float: real spectra, float2: complex ones) */
template < typename T > static __global__ void
pad_margins_kernel (T * z, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= j0 + (p2 - 1 - j1))
    return;
  int j = i < j0 ? i : j1 + 1 + (i - j0);
  AOOCT_FOR_ROWS (r, rows) {
    z[(size_t) r * p2 + j] = T ();
  }
}

template < typename T > static cudaError_t
aooct_cuda_pad_margins (T * z, int p2, int j0, int j1, int rows,
    cudaStream_t stream)
{
  int count = j0 + (p2 - 1 - j1);

  if (count <= 0)
    return cudaSuccess;
  pad_margins_kernel < T > <<< aooct_cuda_grid (count, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (z, p2, j0, j1, rows);
  return cudaGetLastError ();
}

/* thread t < P2 - P1 of a row: t <= P1/2 moves Y[t] from P2 - P1 + t down
 * to t (and zeroes its old place unless it is the Nyquist bin, which stays
 * at the top too); P1/2 < t < P2 - P1 zeroes bin t.  For P2 >= 2 P1 the
 * bins read ([P2 - P1, P2 - P1/2]) and those written by other threads are
 * disjoint, so there is no race. */
static __global__ void
pad_spread_complex_kernel (float2 * Z, int p1, int p2, int rows)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int top = p2 - p1;
  if (t >= top)
    return;
  AOOCT_FOR_ROWS (r, rows) {
    float2 *z = Z + (size_t) r * p2;
    if (t <= p1 / 2) {
      z[t] = z[top + t];
      if (t < p1 / 2)
        z[top + t] = make_float2 (0.0f, 0.0f);
    } else {
      z[t] = make_float2 (0.0f, 0.0f);
    }
  }
}

static cudaError_t
aooct_cuda_pad_spread_complex (float2 * Z, int p1, int p2, int rows,
    cudaStream_t stream)
{
  if (p2 == p1)
    return cudaSuccess;
  pad_spread_complex_kernel <<< aooct_cuda_grid (p2 - p1, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (Z, p1, p2, rows);
  return cudaGetLastError ();
}

/* ---- the step ---------------------------------------------------------- */

struct _AooctCudaPadPlan
{
  gint n, offset, p1, p2, j0, j1, rows;
  gboolean complex;             /* complex spectra: r2c and c2r are the
                                 * C2C forward P1 and backward P2 plans */
  AooctCufftPlan r2c, c2r;
  gpointer work;
  float *y;                     /* placed and scaled A-lines */
  float2 *z;                    /* padded spectra Z */
};

/* The forward plan of P1 points and the backward plan of P2 (sharing one
 * work area), the placed A-lines y and the spectra Z, with @y_row and
 * @z_row bytes per A-line. */
static gboolean
pad_plans_new (AooctCudaPadPlan * pad, cufftType forward, int forward_odist,
    const gchar * forward_name, cufftType backward, int backward_idist,
    const gchar * backward_name, gsize y_row, gsize z_row, GError ** error)
{
  const gsize rows = (gsize) pad->rows;
  gchar *what = g_strdup_printf ("aooctpad %s of %d points", forward_name,
      pad->p1);
  gboolean ok = aooct_cufft_plan_make (&pad->r2c, pad->p1, forward,
      pad->rows, pad->p1, forward_odist, what, error);

  g_free (what);
  if (!ok)
    return FALSE;
  what = g_strdup_printf ("aooctpad %s of %d points", backward_name, pad->p2);
  ok = aooct_cufft_plan_make (&pad->c2r, pad->p2, backward, pad->rows,
      backward_idist, pad->p2, what, error);
  g_free (what);
  return ok
      && aooct_cuda_malloc (MAX (MAX (pad->r2c.work_bytes,
              pad->c2r.work_bytes), 1), &pad->work, error)
      && aooct_cufft_plan_set_work (&pad->r2c, pad->work, error)
      && aooct_cufft_plan_set_work (&pad->c2r, pad->work, error)
      && aooct_cuda_malloc (rows * y_row, (gpointer *) & pad->y, error)
      && aooct_cuda_malloc (rows * z_row, (gpointer *) & pad->z, error);
}

AooctCudaPadPlan *
aooct_cuda_pad_plan_new (const AooctGeometry * out, GError ** error)
{
  AooctCudaPadPlan *pad = g_new0 (AooctCudaPadPlan, 1);
  gboolean ok;

  pad->n = out->raw_samples;
  pad->offset = out->pad_offset;
  pad->p1 = out->pad_size;
  pad->p2 = out->samples;
  pad->j0 = aooct_geometry_data_start (out);
  pad->j1 = aooct_geometry_data_end (out);
  pad->rows = (gint) aooct_geometry_total_alines (out);
  pad->complex = out->sample_type == AOOCT_SAMPLE_COMPLEX;

  if (pad->complex)
    /* C2C of P1 into the top P1 bins of each P2-bin row of Z, C2C back of
     * P2 */
    ok = pad_plans_new (pad, CUFFT_C2C, pad->p2, "complex FFT", CUFFT_C2C,
        pad->p2, "complex inverse FFT", pad->p1 * sizeof (float2),
        pad->p2 * sizeof (float2), error);
  else
    /* the R2C writes each row's P1/2 + 1 bins at the start of a row of
     * P2/2 + 1: the layout the C2R reads */
    ok = pad_plans_new (pad, CUFFT_R2C, pad->p2 / 2 + 1, "R2C", CUFFT_C2R,
        pad->p2 / 2 + 1, "C2R", pad->p1 * sizeof (float),
        (pad->p2 / 2 + 1) * sizeof (float2), error);
  if (!ok) {
    aooct_cuda_pad_plan_free (pad);
    return NULL;
  }
  return pad;
}

gfloat
aooct_cuda_pad_scale (AooctCudaPadPlan * pad)
{
  /* exact: P1 is a power of two (see the top of this file) */
  return 1.0f / (float) pad->p1;
}

static gboolean
pad_process_complex (AooctCudaPadPlan * pad, const float2 * in, float2 * out,
    AooctCudaStream stream, GError ** error)
{
  float2 *y = (float2 *) pad->y;

  AOOCT_CUDA_CHECK (aooct_cuda_pad_place (in, y, pad->n, pad->p1,
          pad->offset, aooct_cuda_pad_scale (pad), pad->rows, stream), error,
      "aooctpad: complex placing kernel");
  if (!aooct_cufft_plan_set_stream (&pad->r2c, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2C (pad->r2c.handle, y,
          pad->z + (pad->p2 - pad->p1), CUFFT_FORWARD), error,
      "aooctpad: cufftExecC2C of %d x %d points", pad->rows, pad->p1);
  AOOCT_CUDA_CHECK (aooct_cuda_pad_spread_complex (pad->z, pad->p1, pad->p2,
          pad->rows, stream), error, "aooctpad: complex spread kernel");
  if (!aooct_cufft_plan_set_stream (&pad->c2r, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2C (pad->c2r.handle, pad->z, out,
          CUFFT_INVERSE), error,
      "aooctpad: cufftExecC2C (inverse) of %d x %d points", pad->rows,
      pad->p2);
  AOOCT_CUDA_CHECK (aooct_cuda_pad_margins (out, pad->p2, pad->j0,
          pad->j1, pad->rows, stream), error,
      "aooctpad: complex margins kernel");
  return TRUE;
}

gboolean
aooct_cuda_pad_execute (AooctCudaPadPlan * pad, const gfloat * in,
    gboolean leave_tail, gboolean in_scratch, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  float *y = pad->y;

  if (pad->complex)
    return pad_process_complex (pad, (const float2 *) in, (float2 *) out,
        stream, error);

  /* Left to the consumer, the scale needs no pass; then an A-line already
   * P1 long needs no placing either, if cuFFT may overwrite the input
   * (see the top of this file for why it otherwise may not). */
  if (leave_tail && in_scratch && pad->n == pad->p1 && pad->offset == 0) {
    y = (float *) in;
  } else {
    AOOCT_CUDA_CHECK (aooct_cuda_pad_place (in, pad->y, pad->n, pad->p1,
            pad->offset, leave_tail ? 1.0f : aooct_cuda_pad_scale (pad),
            pad->rows, stream), error, "aooctpad: placing kernel");
  }
  if (!aooct_cufft_plan_set_stream (&pad->r2c, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecR2C (pad->r2c.handle, y, pad->z), error,
      "aooctpad: cufftExecR2C of %d x %d points", pad->rows, pad->p1);
  AOOCT_CUDA_CHECK (aooct_cuda_pad_zero_bins (pad->z, pad->p1, pad->p2,
          pad->rows, stream), error, "aooctpad: zero-bins kernel");
  if (!aooct_cufft_plan_set_stream (&pad->c2r, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2R (pad->c2r.handle, pad->z, out), error,
      "aooctpad: cufftExecC2R of %d x %d points", pad->rows, pad->p2);
  if (leave_tail)
    return TRUE;
  AOOCT_CUDA_CHECK (aooct_cuda_pad_margins (out, pad->p2, pad->j0, pad->j1,
          pad->rows, stream), error, "aooctpad: margins kernel");
  return TRUE;
}

void
aooct_cuda_pad_plan_free (AooctCudaPadPlan * pad)
{
  if (pad == NULL)
    return;
  aooct_cufft_plan_destroy (&pad->r2c);
  aooct_cufft_plan_destroy (&pad->c2r);
  aooct_cuda_free (pad->work);
  aooct_cuda_free (pad->y);
  aooct_cuda_free (pad->z);
  g_free (pad);
}
