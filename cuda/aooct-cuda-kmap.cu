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

/* ---- cubic, bspline, lanczos ------------------------------------------ */

struct _AooctCudaKmapFir
{
  gint samples, j0, j1, taps;
  int *first;
  float *weight;
};

/* One thread per output sample i and FIR_ROWS A-lines: the thread keeps
 * its TAPS weights in registers for all of them (the table is read once
 * per FIR_ROWS A-lines, coalesced: the weights of a tap are contiguous
 * over i), and the input samples of neighbouring outputs overlap, so they
 * come from L1.  Summed in the CPU core's order without contraction:
 * bit-identical.  @scale: aooctpad's deferred scale (a power of two:
 * exact either way). */
#define FIR_ROWS 8

template < int TAPS > static __global__ void
kmap_fir_kernel (const float *in, float *out, const int *first,
    const float *weight, int p2, int j0, int j1, int taps_rt, float scale,
    int rows)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int r0 = blockIdx.y * FIR_ROWS;
  const int taps = TAPS > 0 ? TAPS : taps_rt;

  if (i >= p2)
    return;
  if (i < j0 || i > j1) {
    for (int r = r0; r < r0 + FIR_ROWS && r < rows; r++)
      out[(size_t) r * p2 + i] = 0.0f;
    return;
  }
  float w[TAPS > 0 ? TAPS : 1];
  const int f = first[i];
  if (TAPS > 0) {
#pragma unroll
    for (int q = 0; q < (TAPS > 0 ? TAPS : 1); q++)
      w[q] = weight[(size_t) q * p2 + i];
  }
  for (int r = r0; r < r0 + FIR_ROWS && r < rows; r++) {
    const float *z = in + (size_t) r * p2 + f;
    float v = 0.0f;
    if (TAPS > 0) {
#pragma unroll
      for (int q = 0; q < (TAPS > 0 ? TAPS : 1); q++)
        v = __fadd_rn (v, __fmul_rn (z[q], w[q]));
    } else {
      for (int q = 0; q < taps; q++)
        v = __fadd_rn (v, __fmul_rn (z[q], weight[(size_t) q * p2 + i]));
    }
    if (scale != 1.0f)
      v = v * scale;
    out[(size_t) r * p2 + i] = v;
  }
}

AooctCudaKmapFir *
aooct_cuda_kmap_fir_new (const AooctKmapFir * t, GError ** error)
{
  AooctCudaKmapFir *k = g_new0 (AooctCudaKmapFir, 1);
  gsize n = t->samples;

  k->samples = t->samples;
  k->j0 = t->start;
  k->j1 = t->end;
  k->taps = t->taps;
  if (!aooct_cuda_malloc (n * sizeof (int), (gpointer *) & k->first, error)
      || !aooct_cuda_upload (k->first, t->first, n * sizeof (int), error)
      || !aooct_cuda_malloc (n * t->taps * sizeof (float),
          (gpointer *) & k->weight, error)
      || !aooct_cuda_upload (k->weight, t->weight,
          n * t->taps * sizeof (float), error)) {
    aooct_cuda_kmap_fir_free (k);
    return NULL;
  }
  /* see aooct_cuda_kmap_new */
  {
    cudaError_t err = cudaStreamSynchronize (0);

    if (err != cudaSuccess) {
      aooct_cuda_set_error (err, error, "aooctkmap: table upload");
      aooct_cuda_kmap_fir_free (k);
      return NULL;
    }
  }
  return k;
}

gboolean
aooct_cuda_kmap_fir_process (AooctCudaKmapFir * k, const gfloat * in,
    gfloat scale, gfloat * out, gsize rows, AooctCudaStream stream,
    GError ** error)
{
  gsize done = 0;

  /* gridDim.y is at most 65535 */
  while (done < rows) {
    int now = (int) MIN (rows - done, (gsize) 65535 * FIR_ROWS);
    dim3 grid ((k->samples + 127) / 128, (now + FIR_ROWS - 1) / FIR_ROWS);
    const float *src = in + done * k->samples;
    float *dst = out + done * k->samples;
    cudaStream_t s = (cudaStream_t) stream;

    /* the taps of cubic, lanczos and bspline as constants (fewer taps
     * only where the data region is shorter than the kernel) */
    if (k->taps == 4)
      kmap_fir_kernel < 4 > <<< grid, 128, 0, s >>> (src, dst, k->first,
          k->weight, k->samples, k->j0, k->j1, k->taps, scale, now);
    else if (k->taps == 16)
      kmap_fir_kernel < 16 > <<< grid, 128, 0, s >>> (src, dst, k->first,
          k->weight, k->samples, k->j0, k->j1, k->taps, scale, now);
    else if (k->taps == 4 + 2 * AOOCT_BSPLINE_PREFILTER_REACH)
      kmap_fir_kernel < 4 + 2 * AOOCT_BSPLINE_PREFILTER_REACH > <<< grid,
          128, 0, s >>> (src, dst, k->first, k->weight, k->samples, k->j0,
          k->j1, k->taps, scale, now);
    else
      kmap_fir_kernel < 0 > <<< grid, 128, 0, s >>> (src, dst, k->first,
          k->weight, k->samples, k->j0, k->j1, k->taps, scale, now);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctkmap: %d-tap gather kernel",
        k->taps);
    done += now;
  }
  return TRUE;
}

void
aooct_cuda_kmap_fir_free (AooctCudaKmapFir * k)
{
  if (k == NULL)
    return;
  aooct_cuda_free (k->first);
  aooct_cuda_free (k->weight);
  g_free (k);
}
