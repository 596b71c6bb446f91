/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: lambda-to-k resampling (see aooct-cuda-kmap.h). */
#include "aooct-cuda-kmap.h"
#include "aooct-cuda-fir.cuh"
#include "aooct-cuda-check.h"
#include "aooct-cuda-launch.cuh"
#include "aooct-cuda-kmap.cuh"
#include "aooct-kmap-table.h"

/* ---- linear: kernels --------------------------------------------------- */

/* out = the interpolated spectrum times @scale, 0 outside [j0, j1].  The
 * scale is 1 (exact: x * 1.0f is x, bit for bit) or a power of two for
 * input that aooctpad left unscaled: z[l] + (z[l+1] - z[l]) t on s z is s
 * times it on z, bit for bit, for a power of two s (each operation's
 * rounding commutes with the scale; camera data never comes near the
 * subnormal range), so scaling the result is scaling the input. */
static __global__ void
kmap_kernel (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, float scale, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  AOOCT_FOR_ROWS (r, rows) {
    const float *row = in + (size_t) r * p2;
    out[(size_t) r * p2 + i] = (i >= j0 && i <= j1) ?
        aooct_cuda_kmap_sample (row, index, frac, i) * scale : 0.0f;
  }
}

static cudaError_t
aooct_cuda_kmap (const float *in, float *out, const int *index,
    const float *frac, int p2, int j0, int j1, float scale, int rows,
    cudaStream_t stream)
{
  kmap_kernel <<< aooct_cuda_grid (p2, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (in, out, index, frac, p2, j0, j1,
          scale, rows);
  return cudaGetLastError ();
}

static __global__ void
kmap_complex_kernel (const float2 * in, float2 * out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p2)
    return;
  AOOCT_FOR_ROWS (r, rows) {
    const float2 *row = in + (size_t) r * p2;
    float2 v = make_float2 (0.0f, 0.0f);
    if (i >= j0 && i <= j1) {
      const int l = index[i];
      const float t = frac[i];
      const float2 a = row[l], b = row[l + 1];
      /* the real kernel's operations on each part */
      v = make_float2 (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
    }
    out[(size_t) r * p2 + i] = v;
  }
}

static cudaError_t
aooct_cuda_kmap_complex (const float2 * in, float2 * out, const int *index,
    const float *frac, int p2, int j0, int j1, int rows, cudaStream_t stream)
{
  kmap_complex_kernel <<< aooct_cuda_grid (p2, rows),
      AOOCT_CUDA_THREADS, 0, stream >>> (in, out, index, frac, p2, j0, j1,
          rows);
  return cudaGetLastError ();
}

/* ---- linear: the step -------------------------------------------------- */

struct _AooctCudaKmapPlan
{
  gint samples, j0, j1, rows;
  int *index;
  float *frac;
};

AooctCudaKmapPlan *
aooct_cuda_kmap_plan_new (const AooctKmapTable * t, gsize rows, GError ** error)
{
  AooctCudaKmapPlan *k = g_new0 (AooctCudaKmapPlan, 1);
  gsize n = t->samples;

  k->samples = t->samples;
  k->j0 = t->start;
  k->j1 = t->end;
  k->rows = (gint) rows;
  if (!aooct_cuda_upload_new ((gpointer *) & k->index, t->index,
          n * sizeof (int), error)
      || !aooct_cuda_upload_new ((gpointer *) & k->frac, t->frac,
          n * sizeof (float), error)) {
    aooct_cuda_kmap_plan_free (k);
    return NULL;
  }
  return k;
}

gboolean
aooct_cuda_kmap_execute (AooctCudaKmapPlan * k, const gfloat * in, gfloat scale,
    gfloat * out, AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_kmap (in, out, k->index, k->frac, k->samples,
          k->j0, k->j1, scale, k->rows, stream), error,
      "aooctkmap: gather kernel");
  return TRUE;
}

gboolean
aooct_cuda_kmap_execute_complex (AooctCudaKmapPlan * k, const gfloat * in,
    gfloat * out, AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (aooct_cuda_kmap_complex ((const float2 *) in,
          (float2 *) out, k->index, k->frac, k->samples, k->j0, k->j1,
          k->rows, stream), error, "aooctkmap: complex gather kernel");
  return TRUE;
}

void
aooct_cuda_kmap_plan_free (AooctCudaKmapPlan * k)
{
  if (k == NULL)
    return;
  aooct_cuda_free (k->index);
  aooct_cuda_free (k->frac);
  g_free (k);
}

/* ---- cubic, bspline, lanczos ------------------------------------------ */

struct _AooctCudaKmapFirPlan
{
  gint samples, j0, j1, taps;
  int *first;
  float *weight;
};

/* The gather of aooct-cuda-fir.cuh, then the scale.  @scale: aooctpad's
 * deferred scale (a power of two: exact either way).  CH: floats per
 * sample, 1 for real spectra, 2 for the interleaved complex ones of full
 * range (spec section 9: re and im alike, with the same weights in the
 * same order) */
template < int TAPS, int CH > static __global__ void
kmap_fir_kernel (const float *in, float *out, const int *first,
    const float *weight, int p2, int j0, int j1, int taps_rt, float scale,
    int rows)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int r0 = blockIdx.y * AOOCT_FIR_ROWS;

  if (i >= p2)
    return;
  if (i < j0 || i > j1) {
    for (int r = r0; r < r0 + AOOCT_FIR_ROWS && r < rows; r++)
      for (int c = 0; c < CH; c++)
        out[((size_t) r * p2 + i) * CH + c] = 0.0f;
    return;
  }
  float w[TAPS > 0 ? TAPS : 1];
  const int f = first[i];
  aooct_fir_load < TAPS > (w, weight, p2, i);
  for (int r = r0; r < r0 + AOOCT_FIR_ROWS && r < rows; r++) {
    const float *z = in + ((size_t) r * p2 + f) * CH;
    for (int c = 0; c < CH; c++) {
      float v = aooct_fir_dot < TAPS, CH > (z, c, w, weight, p2, i, taps_rt);
      if (scale != 1.0f)
        v = v * scale;
      out[((size_t) r * p2 + i) * CH + c] = v;
    }
  }
}

/* Blocks per SM for the pair kernel's registers, as PREP_FIR_PAIR_BLOCKS
 * (aooct-cuda-prep.cu): 96 registers, 8 bytes of spill for one of the
 * two CH on sm_90. */
#define KMAP_FIR_PAIR_BLOCKS 5

/* kmap_fir_kernel for bspline: two outputs per thread from one window
 * (aooct-cuda-fir.cuh, "two outputs per thread": the same bits, about
 * half the loads). */
template < int CH > static __global__ void
__launch_bounds__ (AOOCT_FIR_THREADS, KMAP_FIR_PAIR_BLOCKS)
kmap_fir_pair_kernel (const float *in, float *out, const int *first,
    const float *weight, int p2, int j0, int j1, float scale, int rows)
{
  const int T = AOOCT_KMAP_FIR_MAX_TAPS;
  const int i0 = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  const int r0 = blockIdx.y * AOOCT_FIR_ROWS;
  AooctFirPair < T > s;

  if (i0 >= p2)
    return;
  aooct_fir_pair_init < T > (s, first, p2, j0, j1, i0);
  aooct_fir_pair_weights < T > (s, weight, p2, i0);
  /* not unrolled: the loads of several A-lines in flight at once would
   * not fit the registers beside the weights */
#pragma unroll 1
  for (int r = r0; r < r0 + AOOCT_FIR_ROWS && r < rows; r++) {
    const float *row = in + (size_t) r * p2 * CH;

    for (int c = 0; c < CH; c++) {
      float v0, v1;

      aooct_fir_pair_row < T, CH, false, true > (s, row, 0, c, weight, p2,
          i0, v0, v1);
      /* outside the data region 0, as in kmap_fir_kernel */
      if (scale != 1.0f) {
        if (s.in[0])
          v0 = v0 * scale;
        if (s.in[1])
          v1 = v1 * scale;
      }
      out[((size_t) r * p2 + i0) * CH + c] = v0;
      if (i0 + 1 < p2)
        out[((size_t) r * p2 + i0 + 1) * CH + c] = v1;
    }
  }
}

AooctCudaKmapFirPlan *
aooct_cuda_kmap_fir_plan_new (const AooctKmapFir * t, GError ** error)
{
  AooctCudaKmapFirPlan *k = g_new0 (AooctCudaKmapFirPlan, 1);
  gsize n = t->samples;

  k->samples = t->samples;
  k->j0 = t->start;
  k->j1 = t->end;
  k->taps = t->taps;
  if (!aooct_cuda_upload_new ((gpointer *) & k->first, t->first,
          n * sizeof (int), error)
      || !aooct_cuda_upload_new ((gpointer *) & k->weight, t->weight,
          n * t->taps * sizeof (float), error)) {
    aooct_cuda_kmap_fir_plan_free (k);
    return NULL;
  }
  return k;
}

/* One launch of kmap_fir_kernel with @T taps as a constant where it is
 * one of cubic's or lanczos' (0: any other count, fewer taps only where
 * the data region is shorter than the kernel); bspline's: the pair
 * kernel. */
template < int T, int CH > struct KmapFirLaunch
{
  static void
  run (const AooctCudaKmapFirPlan * k, int now, cudaStream_t s,
      const float *src, float *dst, float scale)
  {
    dim3 grid ((k->samples + AOOCT_FIR_THREADS - 1) / AOOCT_FIR_THREADS,
        (now + AOOCT_FIR_ROWS - 1) / AOOCT_FIR_ROWS);

    kmap_fir_kernel < T, CH > <<< grid, AOOCT_FIR_THREADS, 0, s >>> (src,
        dst, k->first, k->weight, k->samples, k->j0, k->j1, k->taps, scale,
        now);
  }
};

template < int CH > struct KmapFirLaunch <AOOCT_KMAP_FIR_MAX_TAPS, CH >
{
  static void
  run (const AooctCudaKmapFirPlan * k, int now, cudaStream_t s,
      const float *src, float *dst, float scale)
  {
    const int per_block = 2 * AOOCT_FIR_THREADS;
    dim3 grid ((k->samples + per_block - 1) / per_block,
        (now + AOOCT_FIR_ROWS - 1) / AOOCT_FIR_ROWS);

    kmap_fir_pair_kernel < CH > <<< grid, AOOCT_FIR_THREADS, 0, s >>> (src,
        dst, k->first, k->weight, k->samples, k->j0, k->j1, scale, now);
  }
};

template < int CH > static void
launch_fir (const AooctCudaKmapFirPlan * k, int now, cudaStream_t s,
    const float *src, float *dst, float scale)
{
#define LAUNCH(T) KmapFirLaunch < T, CH >::run (k, now, s, src, dst, scale)
  AOOCT_FIR_DISPATCH (k->taps, LAUNCH);
#undef LAUNCH
}

gboolean
aooct_cuda_kmap_fir_execute (AooctCudaKmapFirPlan * k, const gfloat * in,
    gboolean complex_in, gfloat scale, gfloat * out, gsize rows,
    AooctCudaStream stream, GError ** error)
{
  const gsize ch = complex_in ? 2 : 1;
  gsize done = 0;

  /* gridDim.y is at most 65535 */
  while (done < rows) {
    int now = (int) MIN (rows - done, (gsize) 65535 * AOOCT_FIR_ROWS);
    const float *src = in + done * k->samples * ch;
    float *dst = out + done * k->samples * ch;
    cudaStream_t s = (cudaStream_t) stream;

    if (complex_in)
      launch_fir < 2 > (k, now, s, src, dst, scale);
    else
      launch_fir < 1 > (k, now, s, src, dst, scale);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctkmap: %d-tap gather kernel%s",
        k->taps, complex_in ? " (complex)" : "");
    done += now;
  }
  return TRUE;
}

void
aooct_cuda_kmap_fir_plan_free (AooctCudaKmapFirPlan * k)
{
  if (k == NULL)
    return;
  aooct_cuda_free (k->first);
  aooct_cuda_free (k->weight);
  g_free (k);
}
