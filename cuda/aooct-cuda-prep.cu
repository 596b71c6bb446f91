/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: fused pointwise steps before the FFT (see
 * aooct-cuda-prep.h). */
#include "aooct-cuda-prep.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-steps.h"

struct _AooctCudaPrep
{
  gint samples, rows;
  int *index;
  float *frac;
  gint j0, j1;
  guint kmap_serial;            /* 0: none loaded */
  float2 *weights;
  guint disp_serial;
};

AooctCudaPrep *
aooct_cuda_prep_new (gint samples, gsize rows, GError ** error)
{
  AooctCudaPrep *p = g_new0 (AooctCudaPrep, 1);
  gsize n = (gsize) samples;

  p->samples = samples;
  p->rows = (gint) rows;
  /* all tables allocated up front: a step deferred later, or new weights
   * while playing, need no allocation */
  if (!aooct_cuda_malloc (n * sizeof (int), (gpointer *) & p->index, error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & p->frac,
          error)
      || !aooct_cuda_malloc (n * sizeof (float2), (gpointer *) & p->weights,
          error)) {
    aooct_cuda_prep_free (p);
    return NULL;
  }
  return p;
}

gboolean
aooct_cuda_prep_set_kmap (AooctCudaPrep * p, guint serial,
    const gint32 * index, const gfloat * frac, gint j0, gint j1,
    AooctCudaStream stream, GError ** error)
{
  gsize n = (gsize) p->samples;

  if (serial != 0 && serial == p->kmap_serial)
    return TRUE;
  /* pageable source: staged by the driver before the call returns; the
   * copies run after the kernels already enqueued on @stream that read
   * the old table */
  if (!aooct_cuda_upload_async (p->index, index, n * sizeof (int), stream,
          error)
      || !aooct_cuda_upload_async (p->frac, frac, n * sizeof (float), stream,
          error))
    return FALSE;
  p->j0 = j0;
  p->j1 = j1;
  p->kmap_serial = serial;
  return TRUE;
}

void
aooct_cuda_prep_forget (AooctCudaPrep * p)
{
  if (p)
    p->kmap_serial = p->disp_serial = 0;
}

gboolean
aooct_cuda_prep_set_disp (AooctCudaPrep * p, guint serial,
    const gfloat * weights, AooctCudaStream stream, GError ** error)
{
  if (serial != 0 && serial == p->disp_serial)
    return TRUE;
  if (!aooct_cuda_upload_async (p->weights, weights,
          (gsize) p->samples * sizeof (float2), stream, error))
    return FALSE;
  p->disp_serial = serial;
  return TRUE;
}

gboolean
aooct_cuda_prep_process (AooctCudaPrep * p, const gfloat * in,
    const AooctCudaPrepSteps * steps, const gfloat * window, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  if ((steps->kmap && p->kmap_serial == 0)
      || (steps->disp && p->disp_serial == 0)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "fused pre-FFT pass: a %s table was requested before it was loaded",
        steps->kmap && p->kmap_serial == 0 ? "resampling" : "dispersion");
    return FALSE;
  }
  AOOCT_CUDA_CHECK (aooct_cuda_prep (in, (float2 *) out,
          steps->pad, steps->pad_scale, steps->pad_j0, steps->pad_j1,
          steps->kmap ? p->index : NULL, steps->kmap ? p->frac : NULL,
          p->j0, p->j1, steps->disp ? p->weights : NULL, window, p->samples,
          p->rows, stream), error, "fused %s%s%s%s pass",
      steps->pad ? "padding scale + " : "",
      steps->kmap ? "resampling + " : "", steps->disp ? "dispersion + " : "",
      window ? "window" : "conversion");
  return TRUE;
}

gboolean
aooct_cuda_prep_disp_complex (AooctCudaPrep * p, const gfloat * in,
    gfloat * out, AooctCudaStream stream, GError ** error)
{
  if (p->disp_serial == 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "complex dispersion pass: no weights loaded");
    return FALSE;
  }
  AOOCT_CUDA_CHECK (aooct_cuda_disp_complex ((const float2 *) in,
          (float2 *) out, p->weights, p->samples, p->rows, stream), error,
      "aooctdisp: complex product kernel");
  return TRUE;
}

void
aooct_cuda_prep_free (AooctCudaPrep * p)
{
  if (p == NULL)
    return;
  aooct_cuda_free (p->index);
  aooct_cuda_free (p->frac);
  aooct_cuda_free (p->weights);
  g_free (p);
}
