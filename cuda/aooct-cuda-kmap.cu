/* aooct CUDA core: lambda-to-k resampling (see aooct-cuda-kmap.h). */
#include "aooct-cuda-kmap.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-steps.h"

struct _AooctCudaKmap
{
  gint samples, j0, j1, rows;
  int *index;
  float *frac;
};

AooctCudaKmap *
aooct_cuda_kmap_new (const AooctKmapTable * t, gsize rows, GError ** error)
{
  AooctCudaKmap *k = g_new0 (AooctCudaKmap, 1);
  gsize n = t->samples;

  k->samples = t->samples;
  k->j0 = t->start;
  k->j1 = t->end;
  k->rows = (gint) rows;
  if (!aooct_cuda_malloc (n * sizeof (int), (gpointer *) & k->index, error)
      || !aooct_cuda_upload (k->index, t->index, n * sizeof (int), error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & k->frac,
          error)
      || !aooct_cuda_upload (k->frac, t->frac, n * sizeof (float), error)) {
    aooct_cuda_kmap_free (k);
    return NULL;
  }
  /* From pageable memory a cudaMemcpy may return before its DMA is done,
   * and the element's kernels run on a non-blocking stream that does not
   * wait for the legacy stream: wait here, once per calibration. */
  {
    cudaError_t err = cudaStreamSynchronize (0);

    if (err != cudaSuccess) {
      aooct_cuda_set_error (err, error, "aooctkmap: table upload");
      aooct_cuda_kmap_free (k);
      return NULL;
    }
  }
  return k;
}

gboolean
aooct_cuda_kmap_process (AooctCudaKmap * k, const gfloat * in, gfloat scale,
    gfloat * out, AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_kmap (in, out, k->index, k->frac, k->samples,
          k->j0, k->j1, scale, k->rows, stream), error,
      "aooctkmap: gather kernel");
  return TRUE;
}

gboolean
aooct_cuda_kmap_process_complex (AooctCudaKmap * k, const gfloat * in,
    gfloat * out, AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_kmap_complex ((const float2 *) in,
          (float2 *) out, k->index, k->frac, k->samples, k->j0, k->j1,
          k->rows, stream), error, "aooctkmap: complex gather kernel");
  return TRUE;
}

void
aooct_cuda_kmap_free (AooctCudaKmap * k)
{
  if (k == NULL)
    return;
  aooct_cuda_free (k->index);
  aooct_cuda_free (k->frac);
  g_free (k);
}
