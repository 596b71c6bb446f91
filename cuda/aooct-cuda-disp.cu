/* aooct CUDA core: dispersion compensation (see aooct-cuda-disp.h). */
#include "aooct-cuda-disp.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-steps.h"

struct _AooctCudaDisp
{
  gint samples, rows;
  float2 *weights;
};

AooctCudaDisp *
aooct_cuda_disp_new (gint samples, gsize rows, GError ** error)
{
  AooctCudaDisp *d = g_new0 (AooctCudaDisp, 1);

  d->samples = samples;
  d->rows = (gint) rows;
  if (!aooct_cuda_malloc ((gsize) samples * sizeof (float2),
          (gpointer *) & d->weights, error)) {
    aooct_cuda_disp_free (d);
    return NULL;
  }
  return d;
}

gboolean
aooct_cuda_disp_set_weights (AooctCudaDisp * d, const gfloat * weights,
    AooctCudaStream stream, GError ** error)
{
  /* From pageable memory, cudaMemcpyAsync has copied the source into
   * driver staging when it returns, so @weights may be freed at once; the
   * copy itself is ordered after the kernels enqueued before it. */
  return aooct_cuda_upload_async (d->weights, weights,
      (gsize) d->samples * sizeof (float2), stream, error);
}

gboolean
aooct_cuda_disp_process (AooctCudaDisp * d, const gfloat * in, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_disp (in, (float2 *) out, d->weights,
          d->samples, d->rows, stream), error, "aooctdisp: multiply kernel");
  return TRUE;
}

void
aooct_cuda_disp_free (AooctCudaDisp * d)
{
  if (d == NULL)
    return;
  aooct_cuda_free (d->weights);
  g_free (d);
}
