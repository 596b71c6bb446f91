/* aooct CUDA core: zero-padding by FFT interpolation (see aooct-cuda-pad.h).
 *
 * Device memory, per geometry: `spec` (rows x (P1/2 + 1) bins, the R2C
 * output) and `big` (rows x (P2/2 + 1) bins), which first holds the placed
 * A-lines y (rows x P1 floats, smaller) and then, once the R2C has read
 * them, the zero-padded spectrum Z for the C2R.  The two plans run one
 * after the other on one stream and share one work area. */
#include "aooct-cuda-pad.h"
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-steps.h"

struct _AooctCudaPad
{
  gint n, offset, p1, p2, j0, j1, rows;
  AooctCufftPlan r2c, c2r;
  gpointer work;
  float2 *spec;                 /* Y */
  gpointer big;                 /* y, then Z */
};

AooctCudaPad *
aooct_cuda_pad_new (const AooctGeometry * out, GError ** error)
{
  AooctCudaPad *pad = g_new0 (AooctCudaPad, 1);
  gsize rows = aooct_geometry_total_alines (out);
  gchar *what;
  gboolean ok;

  pad->n = out->raw_samples;
  pad->offset = out->pad_offset;
  pad->p1 = out->pad_size;
  pad->p2 = out->samples;
  pad->j0 = aooct_geometry_data_start (out);
  pad->j1 = aooct_geometry_data_end (out);
  pad->rows = (gint) rows;

  what = g_strdup_printf ("aooctpad R2C of %d points", pad->p1);
  ok = aooct_cufft_plan_make (&pad->r2c, pad->p1, CUFFT_R2C, rows, pad->p1,
      pad->p1 / 2 + 1, what, error);
  g_free (what);
  if (!ok)
    goto failed;
  what = g_strdup_printf ("aooctpad C2R of %d points", pad->p2);
  ok = aooct_cufft_plan_make (&pad->c2r, pad->p2, CUFFT_C2R, rows,
      pad->p2 / 2 + 1, pad->p2, what, error);
  g_free (what);
  if (!ok)
    goto failed;

  if (!aooct_cuda_malloc (MAX (MAX (pad->r2c.work_bytes,
                  pad->c2r.work_bytes), 1), &pad->work, error)
      || !aooct_cufft_plan_set_work (&pad->r2c, pad->work, error)
      || !aooct_cufft_plan_set_work (&pad->c2r, pad->work, error)
      || !aooct_cuda_malloc (rows * (pad->p1 / 2 + 1) * sizeof (float2),
          (gpointer *) & pad->spec, error)
      || !aooct_cuda_malloc (rows * (pad->p2 / 2 + 1) * sizeof (float2),
          &pad->big, error))
    goto failed;
  return pad;

failed:
  aooct_cuda_pad_free (pad);
  return NULL;
}

gboolean
aooct_cuda_pad_process (AooctCudaPad * pad, const gfloat * in, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  float *y = (float *) pad->big;
  float2 *z = (float2 *) pad->big;
  /* exact: P1 is a power of two */
  const float scale = 1.0f / (float) pad->p1;

  AOOCT_CUDA_CHECK (aooct_cuda_pad_place (in, y, pad->n, pad->p1,
          pad->offset, pad->rows, stream), error,
      "aooctpad: placing kernel");
  if (!aooct_cufft_plan_set_stream (&pad->r2c, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecR2C (pad->r2c.handle, y, pad->spec), error,
      "aooctpad: cufftExecR2C of %d x %d points", pad->rows, pad->p1);
  /* y is dead from here on: the spectrum kernel reuses its memory */
  AOOCT_CUDA_CHECK (aooct_cuda_pad_spectrum (pad->spec, z, pad->p1, pad->p2,
          pad->rows, stream), error, "aooctpad: spectrum kernel");
  if (!aooct_cufft_plan_set_stream (&pad->c2r, stream, error))
    return FALSE;
  AOOCT_CUFFT_CHECK (cufftExecC2R (pad->c2r.handle, z, out), error,
      "aooctpad: cufftExecC2R of %d x %d points", pad->rows, pad->p2);
  AOOCT_CUDA_CHECK (aooct_cuda_pad_finish (out, pad->p2, pad->j0, pad->j1,
          scale, pad->rows, stream), error, "aooctpad: finishing kernel");
  return TRUE;
}

void
aooct_cuda_pad_free (AooctCudaPad * pad)
{
  if (pad == NULL)
    return;
  aooct_cufft_plan_destroy (&pad->r2c);
  aooct_cufft_plan_destroy (&pad->c2r);
  aooct_cuda_free (pad->work);
  aooct_cuda_free (pad->spec);
  aooct_cuda_free (pad->big);
  g_free (pad);
}
