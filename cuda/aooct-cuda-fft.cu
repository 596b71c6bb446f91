/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: spectral window and forward FFT (see aooct-cuda-fft.h).
 *
 * Transforms of 512 to 4096 points (powers of two) are our own block
 * transform (aooct-cuda-fft-block.cuh), which applies the window, and the
 * steps deferred to aooctfft, while it loads each A-line: the input is read
 * once (4 bytes per sample for real spectra, 8 for complex ones) and the
 * spectrum written once (8 bytes), 12 bytes per sample of real input, 49
 * MB per 2048 x 1000 B-scan padded to 4096.  Only a FIR resampling
 * (cubic, bspline, lanczos) deferred to aooctfft keeps its own pass
 * before the transform (its taps are read per output sample, and its
 * kernel keeps them in registers over several A-lines), and the transform
 * then runs in place in the output.
 *
 * Other sizes use cuFFT: the window kernel reads the input once and writes
 * the output once (8 + 8 bytes per complex sample, 4 + 8 for real input),
 * then the C2C runs in place in the output, 32 bytes per complex sample in
 * all.  No scratch.
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
 * guarantee the copy stays.  The block transform only reads its input. */
#include <math.h>

#include "aooct-cuda-fft.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-launch.cuh"
#include "aooct-cuda-fft-block.cuh"
#include "aooct-cuda-prep.cuh"

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

/* The block transform's loaders (aooct-cuda-fft-block.cuh). */

/* in (real or complex) x window, as window_kernel computes it */
struct WindowLoad
{
  const void *in;
  int complex_in;
  const float *window;
  int samples;

  __device__ float2 at (size_t row, int i) const
  {
    const size_t idx = row * samples + i;
    const float wi = window ? __ldg (&window[i]) : 1.0f;
    const float2 v = complex_in ? ((const float2 *) in)[idx] :
        make_float2 (((const float *) in)[idx], 0.0f);

    return make_float2 (v.x * wi, v.y * wi);
  }
};

/* the fused pass of prep_kernel (aooct-cuda-steps.cu), with a linear
 * resampling or none.  The resampling reads its two neighbours from device
 * memory (L1): staging the A-line in shared memory first was no faster on
 * the H100. */
struct PrepLoad
{
  const float *in;
  int samples;
  int pad;
  float pad_scale;
  int pj0, pj1;
  const int *index;
  const float *frac;
  int j0, j1;
  const float2 *w;
  const float *window;

  __device__ float2 at (size_t row, int i) const
  {
    const float x = aooct_cuda_prep_resample (in + row * samples, index,
        frac, j0, j1, i);
    const float2 wi = w ? __ldg (&w[i]) : make_float2 (1.0f, 0.0f);
    const float win = window ? __ldg (&window[i]) : 1.0f;

    return aooct_cuda_prep_finish (x, pad, i >= pj0 && i <= pj1, pad_scale,
        w, wi, window, win);
  }
};

struct _AooctCudaFft
{
  gint samples, rows;
  gboolean block;               /* our block transform, no cuFFT plan */
  float2 *twiddles;             /* block: W_samples^e, e < samples */
  AooctCufftPlan plan;
  gpointer work;
  float *window;                /* device table, always allocated */
  gboolean have_window;         /* what the last set_window() enqueued */
};

/* W_n^e = exp(-2 pi i e / n) for e < n, each computed in double and
 * rounded once */
static gboolean
twiddles_new (gint n, float2 ** twiddles, GError ** error)
{
  float2 *t = g_new (float2, n);
  gboolean ok;
  gint e;

  for (e = 0; e < n; e++) {
    const double a = -2.0 * G_PI * e / n;

    t[e] = make_float2 ((float) cos (a), (float) sin (a));
  }
  ok = aooct_cuda_upload_new ((gpointer *) twiddles, t, n * sizeof (float2),
      error);
  g_free (t);
  return ok;
}

AooctCudaFft *
aooct_cuda_fft_new (gint samples, gsize rows, GError ** error)
{
  AooctCudaFft *f = g_new0 (AooctCudaFft, 1);
  gchar *what = g_strdup_printf ("aooctfft C2C of %d points", samples);
  gboolean ok;

  f->samples = samples;
  f->rows = (gint) rows;
  f->block = rows <= G_MAXINT && aooct_fft_block_supports (samples)
      && (gsize) g_ascii_strtoull (g_getenv ("AOOCT_FFT_BLOCK_MIN_ROWS") ?
      g_getenv ("AOOCT_FFT_BLOCK_MIN_ROWS") : "0", NULL, 10) <= rows;
  if (f->block)
    ok = rows == 0 || twiddles_new (samples, &f->twiddles, error);
  else
    ok = rows == 0 || aooct_cufft_plan_make (&f->plan, samples, CUFFT_C2C,
        rows, samples, samples, what, error);
  g_free (what);
  /* the window table is allocated even without a window: a window chosen
   * while playing then needs no allocation */
  if (!ok
      || !aooct_cuda_malloc (MAX (f->plan.work_bytes, 1), &f->work, error)
      || (rows > 0 && !f->block
          && !aooct_cufft_plan_set_work (&f->plan, f->work, error))
      || !aooct_cuda_malloc ((gsize) samples * sizeof (float),
          (gpointer *) & f->window, error)) {
    aooct_cuda_fft_free (f);
    return NULL;
  }
  return f;
}

gboolean
aooct_cuda_fft_set_window (AooctCudaFft * f, const gfloat * window,
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
forward_in_place (AooctCudaFft * f, cufftComplex * c, AooctCudaStream stream,
    GError ** error)
{
  if (!aooct_cufft_plan_set_stream (&f->plan, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2C (f->plan.handle, c, c, CUFFT_FORWARD),
      error, "aooctfft: cufftExecC2C of %d x %d points", f->rows, f->samples);
  return TRUE;
}

/* the block transform of @in (real or complex) x the window, from @in
 * (which may be @out) into @out */
static gboolean
block_window (AooctCudaFft * f, gconstpointer in, gboolean complex_in,
    const float *window, gfloat * out, AooctCudaStream stream,
    GError ** error)
{
  WindowLoad load = { in, complex_in, window, f->samples };

  aooct_fft_block_launch (f->samples, load, f->twiddles, (float2 *) out,
      f->rows, (cudaStream_t) stream);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctfft: %d-point transform of %d "
      "A-lines%s", f->samples, f->rows, window ? " with the window" : "");
  return TRUE;
}

gboolean
aooct_cuda_fft_process (AooctCudaFft * f, gconstpointer in,
    gboolean complex_in, gfloat * out, AooctCudaStream stream,
    GError ** error)
{
  cufftComplex *c = (cufftComplex *) out;

  if (f->block)
    return block_window (f, in, complex_in, f->have_window ? f->window : NULL,
        out, stream, error);
  AOOCT_CUDA_CHECK (aooct_cuda_window (in, complex_in, c,
          f->have_window ? f->window : NULL, f->samples, f->rows, stream),
      error, "aooctfft: window kernel");
  return forward_in_place (f, c, stream, error);
}

gboolean
aooct_cuda_fft_process_prepared (AooctCudaFft * f, AooctCudaPrep * prep,
    const gfloat * in, const AooctCudaPrepSteps * steps, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  const float *window = f->have_window ? f->window : NULL;
  AooctCudaPrepTables t;

  if (f->block) {
    if (!aooct_cuda_prep_tables (prep, steps, &t, error))
      return FALSE;
    /* a FIR resampling: its own pass, then the transform in place */
    if (t.taps > 0)
      return aooct_cuda_prep_process (prep, in, steps, window, out, stream,
          error)
          && block_window (f, out, TRUE, NULL, out, stream, error);
    PrepLoad load = { in, f->samples, steps->pad, steps->pad_scale,
      steps->pad_j0, steps->pad_j1, t.index, t.frac, t.j0, t.j1,
      (const float2 *) t.weights, window
    };
    aooct_fft_block_launch (f->samples, load, f->twiddles, (float2 *) out,
        f->rows, (cudaStream_t) stream);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctfft: %s%s%s%d-point transform "
        "of %d A-lines", steps->pad ? "padding scale + " : "",
        t.index ? "resampling + " : "", t.weights ? "dispersion + " : "",
        f->samples, f->rows);
    return TRUE;
  }
  if (!aooct_cuda_prep_process (prep, in, steps, window, out, stream, error))
    return FALSE;
  return forward_in_place (f, (cufftComplex *) out, stream, error);
}

gboolean
aooct_cuda_fft_window_into (AooctCudaFft * f, gconstpointer in,
    gboolean complex_in, gfloat * work, gsize rows, AooctCudaStream stream,
    GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_window (in, complex_in, (cufftComplex *) work,
          f->have_window ? f->window : NULL, f->samples, (gint) rows, stream),
      error, "aooctfft: window kernel");
  return TRUE;
}

gboolean
aooct_cuda_fft_prepare_into (AooctCudaFft * f, AooctCudaPrep * prep,
    const gfloat * in, const AooctCudaPrepSteps * steps, gfloat * work,
    AooctCudaStream stream, GError ** error)
{
  return aooct_cuda_prep_process (prep, in, steps,
      f->have_window ? f->window : NULL, work, stream, error);
}

void
aooct_cuda_fft_free (AooctCudaFft * f)
{
  if (f == NULL)
    return;
  aooct_cufft_plan_destroy (&f->plan);
  aooct_cuda_free (f->twiddles);
  aooct_cuda_free (f->work);
  aooct_cuda_free (f->window);
  g_free (f);
}
