/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: lateral analytic signal (see aooct-cuda-fullrange.h).
 *
 * The same three steps as the CPU core (cpu/aooct-cpu-fullrange.c, which
 * says why), with cuFFT's advanced layout doing the transforms across the
 * A-lines without a transpose: for sample index n of a B-scan the M
 * values lie N floats apart (istride = N) and the N transforms of a
 * B-scan start one sample apart (idist = 1), so consecutive transforms of
 * a batch read consecutive addresses (coalesced).  cuFFT's plans have one
 * batch dimension, so the B-scans of a buffer are one execution each:
 *   1. R2C of length M, batch N, from the input straight into the output
 *      (rows q = 0 .. M/2 of the B-scan);
 *   2. one kernel over the whole buffer: row q times H[q] / M (conjugated
 *      for the lower sideband), rows above M/2 zero;
 *   3. C2C of length M in place, backward (lower: forward).
 * No scratch: the output buffer holds the spectrum between the steps. */
#include "aooct-cuda-fullrange.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-launch.cuh"

struct _AooctCudaFullrangePlan
{
  gint n, m, bscans;
  AooctCufftPlan r2c, c2c;
  gpointer work;
};

AooctCudaFullrangePlan *
aooct_cuda_fullrange_plan_new (const AooctGeometry * in, GError ** error)
{
  AooctCudaFullrangePlan *fr = g_new0 (AooctCudaFullrangePlan, 1);
  gchar *what;
  gboolean ok;

  fr->n = in->samples;
  fr->m = in->alines;
  fr->bscans = in->bscans;
  what = g_strdup_printf ("aooctfullrange R2C of %d points across the "
      "A-lines", fr->m);
  ok = aooct_cufft_plan_make_strided (&fr->r2c, fr->m, CUFFT_R2C, fr->n,
      fr->n, 1, fr->n, 1, what, error);
  g_free (what);
  if (!ok)
    goto failed;
  what = g_strdup_printf ("aooctfullrange C2C of %d points across the "
      "A-lines", fr->m);
  ok = aooct_cufft_plan_make_strided (&fr->c2c, fr->m, CUFFT_C2C, fr->n,
      fr->n, 1, fr->n, 1, what, error);
  g_free (what);
  if (!ok)
    goto failed;
  if (!aooct_cuda_malloc (MAX (MAX (fr->r2c.work_bytes, fr->c2c.work_bytes),
              1), &fr->work, error)
      || !aooct_cufft_plan_set_work (&fr->r2c, fr->work, error)
      || !aooct_cufft_plan_set_work (&fr->c2c, fr->work, error))
    goto failed;
  return fr;

failed:
  aooct_cuda_fullrange_plan_free (fr);
  return NULL;
}

/* one thread per complex sample of a row q; y over rows q of all B-scans */
static __global__ void
sideband_kernel (float2 * c, int n, int m, int rows, int lower)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int half = m / 2;
  AOOCT_FOR_ROWS (r, rows) {
    const int q = r % m;
    float2 *v = c + (size_t) r * n + i;
    if (q > half) {
      *v = make_float2 (0.0f, 0.0f);
    } else {
      /* the CPU core's factor, rounded the same way (double, then float) */
      const double h = (q == 0 || 2 * q == m) ? 1.0 : 2.0;
      const float s = (float) (h / m);
      float2 x = *v;
      *v = make_float2 (x.x * s, lower ? -(x.y * s) : x.y * s);
    }
  }
}

gboolean
aooct_cuda_fullrange_execute (AooctCudaFullrangePlan * fr, const gfloat * in,
    gfloat * out, gboolean lower, AooctCudaStream stream, GError ** error)
{
  const gsize bscan = (gsize) fr->m * fr->n;
  const int rows = fr->m * fr->bscans;
  float2 *c = (float2 *) out;
  gint b;

  if (!aooct_cufft_plan_set_stream (&fr->r2c, stream, error)
      || !aooct_cufft_plan_set_stream (&fr->c2c, stream, error))
    return FALSE;
  for (b = 0; b < fr->bscans; b++)
    AOOCT_CUFFT_CHECK (cufftExecR2C (fr->r2c.handle,
            (cufftReal *) (in + b * bscan), c + b * bscan), error,
        "aooctfullrange: cufftExecR2C across %d A-lines x %d samples",
        fr->m, fr->n);
  sideband_kernel <<< aooct_cuda_grid (fr->n, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (c, fr->n, fr->m, rows, lower);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctfullrange: sideband kernel");
  for (b = 0; b < fr->bscans; b++)
    AOOCT_CUFFT_CHECK (cufftExecC2C (fr->c2c.handle, c + b * bscan,
            c + b * bscan, lower ? CUFFT_FORWARD : CUFFT_INVERSE), error,
        "aooctfullrange: cufftExecC2C across %d A-lines x %d samples",
        fr->m, fr->n);
  return TRUE;
}

void
aooct_cuda_fullrange_plan_free (AooctCudaFullrangePlan * fr)
{
  if (fr == NULL)
    return;
  aooct_cufft_plan_destroy (&fr->r2c);
  aooct_cufft_plan_destroy (&fr->c2c);
  aooct_cuda_free (fr->work);
  g_free (fr);
}
