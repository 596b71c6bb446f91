/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: spectral window and forward FFT (see aooct-cuda-fft.h).
 *
 * Memory per buffer: the window kernel reads the input once and writes the
 * output once (8 + 8 bytes per complex sample, 4 + 8 for real input), then
 * the C2C runs in place in the output (a 4096-point transform is one cuFFT
 * pass: 8 + 8 bytes), 32 bytes per complex sample in all, 131 MB per
 * 2048 x 1000 B-scan.  No scratch.
 *
 * Why the window kernel also runs without a window (where it only copies
 * complex input, or widens real input to complex), instead of a C2C
 * straight from the input buffer into the output: the input may be shared
 * read-only with other consumers (a tee), and cuFFT's documentation
 * (https://docs.nvidia.com/cuda/cufft/index.html#data-layout) promises
 * nothing about out-of-place transforms leaving their input unmodified;
 * the one thing it says on the subject is a warning, "Out-of-place
 * complex-to-real FFT will always overwrite input buffer" (and that
 * in-place C2R may overwrite imaginary input values with non-unit
 * strides).  Other FFT libraries do overwrite the input of out-of-place
 * transforms (rocFFT's R2C, FFTW's C2R by default), so without a written
 * guarantee the copy stays: it costs 16 of the 32 bytes per sample. */
#include "aooct-cuda-fft.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-launch.cuh"

/* out = in (real or complex) x window (NULL: none); out is complex */
static __global__ void
window_kernel (const void *in, int in_complex, float2 * out,
    const float *window, int p2, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  float wi = window ? window[i] : 1.0f;
  AOOCT_FOR_ROWS (r, rows) {
    size_t idx = (size_t) r * p2 + i;
    float2 v = in_complex ? ((const float2 *) in)[idx] :
        make_float2 (((const float *) in)[idx], 0.0f);
    out[idx] = make_float2 (v.x * wi, v.y * wi);
  }
}

static cudaError_t
aooct_cuda_window (const void *in, int in_complex, float2 * out,
    const float *window, int p2, int rows, cudaStream_t stream)
{
  window_kernel <<< aooct_cuda_grid (p2, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (in, in_complex, out, window, p2,
          rows);
  return cudaGetLastError ();
}

struct _AooctCudaFftPlan
{
  gint samples, rows;
  AooctCufftPlan plan;
  gpointer work;
  float *window;                /* device table, always allocated */
  gboolean have_window;         /* what the last set_window() enqueued */
};

AooctCudaFftPlan *
aooct_cuda_fft_plan_new (gint samples, gsize rows, GError ** error)
{
  AooctCudaFftPlan *f = g_new0 (AooctCudaFftPlan, 1);
  gchar *what = g_strdup_printf ("aooctfft C2C of %d points", samples);
  gboolean ok;

  f->samples = samples;
  f->rows = (gint) rows;
  ok = rows == 0 || aooct_cufft_plan_make (&f->plan, samples, CUFFT_C2C,
      rows, samples, samples, what, error);
  g_free (what);
  /* the window table is allocated even without a window: a window chosen
   * while playing then needs no allocation */
  if (!ok
      || !aooct_cuda_malloc (MAX (f->plan.work_bytes, 1), &f->work, error)
      || (rows > 0 && !aooct_cufft_plan_set_work (&f->plan, f->work, error))
      || !aooct_cuda_malloc ((gsize) samples * sizeof (float),
          (gpointer *) & f->window, error)) {
    aooct_cuda_fft_plan_free (f);
    return NULL;
  }
  return f;
}

gboolean
aooct_cuda_fft_set_window (AooctCudaFftPlan * f, const gfloat * window,
    AooctCudaStream stream, GError ** error)
{
  f->have_window = window != NULL;
  if (window == NULL)
    return TRUE;
  /* pageable source: copied to driver staging before this returns; the
   * copy runs after the kernels already enqueued that read the old table */
  return aooct_cuda_upload_async (f->window, window,
      (gsize) f->samples * sizeof (float), stream, error);
}

static gboolean
forward_in_place (AooctCudaFftPlan * f, cufftComplex * c,
    AooctCudaStream stream,
    GError ** error)
{
  if (!aooct_cufft_plan_set_stream (&f->plan, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2C (f->plan.handle, c, c, CUFFT_FORWARD),
      error, "aooctfft: cufftExecC2C of %d x %d points", f->rows, f->samples);
  return TRUE;
}

gboolean
aooct_cuda_fft_execute (AooctCudaFftPlan * f, gconstpointer in,
    gboolean complex_in, gfloat * out, AooctCudaStream stream,
    GError ** error)
{
  cufftComplex *c = (cufftComplex *) out;

  AOOCT_CUDA_CHECK (aooct_cuda_window (in, complex_in, c,
          f->have_window ? f->window : NULL, f->samples, f->rows, stream),
      error, "aooctfft: window kernel");
  return forward_in_place (f, c, stream, error);
}

gboolean
aooct_cuda_fft_execute_prepared (AooctCudaFftPlan * f, AooctCudaPrepPlan * prep,
    const gfloat * in, const AooctCudaPrepSteps * steps, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  if (!aooct_cuda_prep_execute (prep, in, steps,
          f->have_window ? f->window : NULL, out, stream, error))
    return FALSE;
  return forward_in_place (f, (cufftComplex *) out, stream, error);
}

gboolean
aooct_cuda_fft_window_into (AooctCudaFftPlan * f, gconstpointer in,
    gboolean complex_in, gfloat * work, gsize rows, AooctCudaStream stream,
    GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_window (in, complex_in, (cufftComplex *) work,
          f->have_window ? f->window : NULL, f->samples, (gint) rows, stream),
      error, "aooctfft: window kernel");
  return TRUE;
}

gboolean
aooct_cuda_fft_prepare_into (AooctCudaFftPlan * f, AooctCudaPrepPlan * prep,
    const gfloat * in, const AooctCudaPrepSteps * steps, gfloat * work,
    AooctCudaStream stream, GError ** error)
{
  return aooct_cuda_prep_execute (prep, in, steps,
      f->have_window ? f->window : NULL, work, stream, error);
}

void
aooct_cuda_fft_plan_free (AooctCudaFftPlan * f)
{
  if (f == NULL)
    return;
  aooct_cufft_plan_destroy (&f->plan);
  aooct_cuda_free (f->work);
  aooct_cuda_free (f->window);
  g_free (f);
}
