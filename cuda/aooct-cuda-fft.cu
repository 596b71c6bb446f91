/* aooct CUDA core: spectral window and forward FFT (see aooct-cuda-fft.h).
 *
 * Two ways to run, chosen once per geometry when the plan is made:
 *
 * Fused (the default where it works): the window is a cuFFT LTO load
 * callback (aooct-cuda-fft-callback.cu) and the C2C runs out of place
 * from the input buffer into the output: cuFFT reads each input sample
 * (4 or 8 bytes) through the callback and writes 8 bytes, one pass, 12 to
 * 16 bytes per sample.  The callback reads a small parameter block in
 * device memory (window table, whether there is a window and whether the
 * input is complex); process() updates it on the stream when one of these
 * changes, so a window chosen while playing needs no new plan.
 *
 * Two passes (the fallback): the window kernel reads the input once and
 * writes the output once (8 + 8 bytes per complex sample, 4 + 8 for real
 * input), then the C2C runs in place in the output (a 4096-point
 * transform is one cuFFT pass: 8 + 8 bytes), 32 bytes per complex sample
 * in all, 131 MB per 2048 x 1000 B-scan.  It is taken where the callback
 * cannot be planned (a cuFFT older than the CUDA 13 form of
 * cufftXtSetJITCallback, libnvJitLink not found at run time, a JIT link
 * failure: cuFFT reports these when planning) or where the environment
 * variable AOOCT_CUDA_FFT_NO_CALLBACK is set to anything but "" or "0"
 * (read at plan creation; tests and measurements compare both paths).
 *
 * The input must only be read: it may be shared read-only with other
 * consumers (a tee).  In the two-pass path, the window kernel also runs
 * without a window (it then only copies complex input, or widens real
 * input to complex) instead of a C2C straight from the input buffer,
 * because cuFFT's documentation
 * (https://docs.nvidia.com/cuda/cufft/index.html#data-layout) promises
 * nothing about plain out-of-place transforms leaving their input
 * unmodified; the one thing it says on the subject is a warning,
 * "Out-of-place complex-to-real FFT will always overwrite input buffer"
 * (and that in-place C2R may overwrite imaginary input values with
 * non-unit strides).  Nothing there, nor in the LTO callback pages
 * (https://docs.nvidia.com/cuda/cufft/ltoea/api/index.html and
 * .../ltoea/usage/), says that an out-of-place C2C uses its input as
 * scratch; they say only that the callback is set after cufftCreate and
 * before the planning, compiled to LTO-IR, and linked by nvJitLink.  With
 * a load callback cuFFT hands the input pointer to the callback, which
 * reads its element (the pointer need not even hold complex data: here it
 * holds float32 for real input).  So the fused path runs out of place,
 * without a written guarantee either way: tests/test-cuda-steps.c checks
 * on the device, byte for byte, that the input is unchanged on both
 * paths, including a transform long enough to take several cuFFT
 * kernels. */
#include "aooct-cuda-fft.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-steps.h"
#include "aooct-cuda-fft-callback.h"

#include <string.h>
#include <cufftXt.h>

#ifdef AOOCT_HAVE_FFT_CALLBACK_FATBIN
#include "aooct-cuda-fft-callback-fatbin.h"
#endif

struct _AooctCudaFft
{
  gint samples, rows;
  AooctCufftPlan plan;
  gpointer work;
  float *window;                /* device table, always allocated */
  gboolean have_window;         /* what the last set_window() enqueued */
  /* fused path: the callback's parameters in device memory, and what
   * was last enqueued into them (params_valid FALSE: nothing yet) */
  gboolean fused;
  AooctCudaFftCallbackParams *params;
  AooctCudaFftCallbackParams host_params;
  gboolean params_valid;
};

static gboolean
callback_disabled_by_env (void)
{
  const gchar *v = g_getenv ("AOOCT_CUDA_FFT_NO_CALLBACK");

  return v != NULL && v[0] != '\0' && strcmp (v, "0") != 0;
}

/* Tries the fused plan; FALSE (with the reason in g_debug) leaves no plan
 * and no parameter block behind. */
static gboolean
make_fused_plan (AooctCudaFft * f, const gchar * what)
{
#ifdef AOOCT_HAVE_FFT_CALLBACK_FATBIN
  GError *err = NULL;
  gint p2 = f->samples;
  AooctCudaFftCallbackParams *p = &f->host_params;

  if (!aooct_cufft_has_jit_callbacks ()) {
    g_debug ("aooct: %s: this cuFFT has no CUDA 13 LTO callbacks; window "
        "kernel + in-place C2C", what);
    return FALSE;
  }
  memset (p, 0, sizeof (*p));
  p->window = f->window;
  p->samples = (unsigned long long) p2;
  p->mask = (p2 & (p2 - 1)) == 0 ? (unsigned long long) (p2 - 1) : 0;
  /* the block is read by the plan's kernels only; filled for real input
   * without a window until the first process() says otherwise */
  if (!aooct_cuda_malloc (sizeof (*p), (gpointer *) & f->params, &err)
      || !aooct_cuda_upload (f->params, p, sizeof (*p), &err)) {
    g_debug ("aooct: %s: callback parameters: %s; window kernel + in-place "
        "C2C", what, err->message);
    g_clear_error (&err);
    aooct_cuda_free (f->params);
    f->params = NULL;
    return FALSE;
  }
  if (!aooct_cufft_plan_make_with_load_callback (&f->plan, p2, CUFFT_C2C,
          f->rows, p2, p2, AOOCT_CUDA_FFT_CALLBACK_NAME,
          aooct_cuda_fft_callback_fatbin,
          sizeof (aooct_cuda_fft_callback_fatbin), CUFFT_CB_LD_COMPLEX,
          f->params, what, &err)) {
    /* a debug note, not an error: the two-pass path is complete */
    g_debug ("aooct: %s: LTO load callback not available (%s); window "
        "kernel + in-place C2C", what, err->message);
    g_clear_error (&err);
    /* whatever the failed planning left as the runtime's last error must
     * not be reported by the next kernel launch */
    aooct_cuda_clear_stale_error ();
    aooct_cufft_plan_destroy (&f->plan);
    aooct_cuda_free (f->params);
    f->params = NULL;
    return FALSE;
  }
  g_debug ("aooct: %s: window fused into the C2C (LTO load callback)", what);
  return TRUE;
#else
  g_debug ("aooct: %s: built without the LTO callback (no bin2c); window "
      "kernel + in-place C2C", what);
  return FALSE;
#endif
}

AooctCudaFft *
aooct_cuda_fft_new (gint samples, gsize rows, GError ** error)
{
  AooctCudaFft *f = g_new0 (AooctCudaFft, 1);
  gchar *what = g_strdup_printf ("aooctfft C2C of %d points", samples);
  gboolean ok;

  f->samples = samples;
  f->rows = (gint) rows;
  /* the window table is allocated even without a window: a window chosen
   * while playing then needs no allocation; the callback's parameters
   * point at it */
  ok = aooct_cuda_malloc ((gsize) samples * sizeof (float),
      (gpointer *) & f->window, error);
  if (ok) {
    /* planning (and with the callback, its JIT link) happens here, once
     * per geometry, never per buffer */
    if (callback_disabled_by_env ())
      g_debug ("aooct: %s: AOOCT_CUDA_FFT_NO_CALLBACK set; window kernel + "
          "in-place C2C", what);
    else
      f->fused = make_fused_plan (f, what);
    if (!f->fused)
      ok = aooct_cufft_plan_make (&f->plan, samples, CUFFT_C2C, rows,
          samples, samples, what, error);
  }
  g_free (what);
  if (!ok
      || !aooct_cuda_malloc (MAX (f->plan.work_bytes, 1), &f->work, error)
      || !aooct_cufft_plan_set_work (&f->plan, f->work, error)) {
    aooct_cuda_fft_free (f);
    return NULL;
  }
  return f;
}

gboolean
aooct_cuda_fft_is_fused (const AooctCudaFft * f)
{
  return f->fused;
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

/* Enqueues new callback parameters when the input type or the presence of
 * a window changed since the last buffer (rarely: a window switched on or
 * off while playing); ordered on @stream like the window upload. */
static gboolean
update_params (AooctCudaFft * f, gboolean complex_in, AooctCudaStream stream,
    GError ** error)
{
  AooctCudaFftCallbackParams *p = &f->host_params;
  int use_window = f->have_window ? 1 : 0, cin = complex_in ? 1 : 0;

  if (f->params_valid && p->use_window == use_window && p->complex_in == cin)
    return TRUE;
  p->use_window = use_window;
  p->complex_in = cin;
  /* pageable source: staged before this returns (host_params may change
   * for the next buffer) */
  if (!aooct_cuda_upload_async (f->params, p, sizeof (*p), stream, error))
    return FALSE;
  f->params_valid = TRUE;
  return TRUE;
}

gboolean
aooct_cuda_fft_process (AooctCudaFft * f, gconstpointer in,
    gboolean complex_in, gfloat * out, AooctCudaStream stream,
    GError ** error)
{
  cufftComplex *c = (cufftComplex *) out;

  if (f->fused) {
    /* out of place only: in place, cuFFT would overwrite samples the
     * callback has yet to read */
    if (G_UNLIKELY ((gconstpointer) out == in))
      return aooct_cuda_set_error (cudaErrorInvalidValue, error,
          "aooctfft: C2C with its window in the load callback in place");
    if (!update_params (f, complex_in, stream, error)
        || !aooct_cufft_plan_set_stream (&f->plan, stream, error))
      return FALSE;
    /* cuFFT's C2C takes a non-const input; the callback only reads it */
    AOOCT_CUFFT_CHECK (cufftExecC2C (f->plan.handle, (cufftComplex *) in,
            c, CUFFT_FORWARD), error,
        "aooctfft: cufftExecC2C (window in its load callback) of %d x %d "
        "points", f->rows, f->samples);
    return TRUE;
  }
  AOOCT_CUDA_CHECK (aooct_cuda_window (in, complex_in, c,
          f->have_window ? f->window : NULL, f->samples, f->rows, stream),
      error, "aooctfft: window kernel");
  if (!aooct_cufft_plan_set_stream (&f->plan, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2C (f->plan.handle, c, c, CUFFT_FORWARD),
      error, "aooctfft: cufftExecC2C of %d x %d points", f->rows, f->samples);
  return TRUE;
}

void
aooct_cuda_fft_free (AooctCudaFft * f)
{
  if (f == NULL)
    return;
  aooct_cufft_plan_destroy (&f->plan);
  aooct_cuda_free (f->work);
  aooct_cuda_free (f->window);
  aooct_cuda_free (f->params);
  g_free (f);
}
