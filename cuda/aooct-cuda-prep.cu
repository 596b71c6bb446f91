/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: fused pointwise steps before the FFT (see
 * aooct-cuda-prep.h). */
#include <climits>
#include <cstdint>

#include <cuda_pipeline.h>

#include "aooct-cuda-prep.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-steps.h"
#include "aooct-cuda-fir.cuh"
#include "aooct-cuda-prep.cuh"

struct _AooctCudaPrepPlan
{
  gint samples, rows;
  int *index;                   /* linear: brackets; FIR: first indices */
  float *frac;                  /* linear */
  float *weight;                /* FIR: taps x samples */
  gint taps;                    /* 0: the loaded resampling is linear */
  gint j0, j1;
  guint kmap_serial;            /* 0: none loaded */
  float2 *weights;
  guint disp_serial;
};

AooctCudaPrepPlan *
aooct_cuda_prep_plan_new (gint samples, gsize rows, GError ** error)
{
  AooctCudaPrepPlan *p = g_new0 (AooctCudaPrepPlan, 1);
  gsize n = (gsize) samples;

  p->samples = samples;
  p->rows = (gint) rows;
  /* all tables allocated up front: a step deferred later, or new weights
   * while playing, need no allocation */
  if (!aooct_cuda_malloc (n * sizeof (int), (gpointer *) & p->index, error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & p->frac,
          error)
      || !aooct_cuda_malloc (n * AOOCT_KMAP_FIR_MAX_TAPS * sizeof (float),
          (gpointer *) & p->weight, error)
      || !aooct_cuda_malloc (n * sizeof (float2), (gpointer *) & p->weights,
          error)) {
    aooct_cuda_prep_plan_free (p);
    return NULL;
  }
  return p;
}

gboolean
aooct_cuda_prep_set_kmap (AooctCudaPrepPlan * p, guint serial,
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
  p->taps = 0;
  p->j0 = j0;
  p->j1 = j1;
  p->kmap_serial = serial;
  return TRUE;
}

gboolean
aooct_cuda_prep_set_kmap_fir (AooctCudaPrepPlan * p, guint serial,
    const AooctKmapFir * fir, AooctCudaStream stream, GError ** error)
{
  gsize n = (gsize) p->samples;

  if (serial != 0 && serial == p->kmap_serial)
    return TRUE;
  if (fir->samples != p->samples || fir->taps < 1
      || fir->taps > AOOCT_KMAP_FIR_MAX_TAPS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "fused pre-FFT pass: a FIR resampling table of %d taps for %d "
        "samples, where 1 to %d taps for %d samples fit", fir->taps,
        fir->samples, AOOCT_KMAP_FIR_MAX_TAPS, p->samples);
    return FALSE;
  }
  /* as in set_kmap: ordered after the kernels that read the old table */
  if (!aooct_cuda_upload_async (p->index, fir->first, n * sizeof (int),
          stream, error)
      || !aooct_cuda_upload_async (p->weight, fir->weight,
          n * fir->taps * sizeof (float), stream, error))
    return FALSE;
  p->taps = fir->taps;
  p->j0 = fir->start;
  p->j1 = fir->end;
  p->kmap_serial = serial;
  return TRUE;
}

gboolean
aooct_cuda_prep_holds (const AooctCudaPrepPlan * p, gboolean kmap,
    guint kmap_serial, gboolean disp, guint disp_serial)
{
  return (!kmap || (kmap_serial != 0 && p->kmap_serial == kmap_serial))
      && (!disp || (disp_serial != 0 && p->disp_serial == disp_serial));
}

void
aooct_cuda_prep_rewind (AooctCudaPrepPlan * p)
{
  if (p)
    p->kmap_serial = p->disp_serial = 0;
}

gboolean
aooct_cuda_prep_set_disp (AooctCudaPrepPlan * p, guint serial,
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

/* Input samples of one A-line a block stages: its AOOCT_FIR_THREADS
 * outputs read first[i] .. first[i] + taps - 1, a span of about
 * AOOCT_FIR_THREADS input samples times the local stretch of the
 * calibration, plus the taps; up to a stretch of 2 fits. */
#define PREP_FIR_SPAN (2 * AOOCT_FIR_THREADS + AOOCT_KMAP_FIR_MAX_TAPS)

/* A FIR resampling (aooct-cuda-fir.cuh, the gather of aooctkmap's own
 * kernel: the same taps summed in the same order), then
 * aooct_cuda_prep_finish (aooct-cuda-prep.cuh): the same bits as
 * aooctkmap's kernel followed by the fused pass without resampling.  The
 * NULL tests are uniform across the grid.
 *
 * Unlike aooctkmap's kernel, the block first stages the input samples its
 * outputs read, for its AOOCT_FIR_ROWS A-lines, in shared memory (one
 * coalesced read of each), and the taps are read from there: from L1,
 * each tap of a warp is a load of 32 unaligned floats, two cache-line
 * wavefronts, which bounds bspline's 28 taps well above the memory time;
 * from shared memory, nearly consecutive addresses hit distinct banks,
 * one wavefront.  A block whose span does not fit (a calibration locally
 * stretched more than twice) reads global memory as aooctkmap does. */
template < int TAPS > static __global__ void
prep_fir_kernel (const float *in, float2 * out, const int *first,
    const float *weight, int taps_rt, int j0, int j1, int pad,
    float pad_scale, int pj0, int pj1, const float2 * w,
    const float *window, int p2, int rows)
{
  __shared__ float seg[AOOCT_FIR_ROWS][PREP_FIR_SPAN];
  __shared__ int lo_s, hi_s;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int r0 = blockIdx.y * AOOCT_FIR_ROWS;
  const int nrows = min (AOOCT_FIR_ROWS, rows - r0);
  const int taps = TAPS > 0 ? TAPS : taps_rt;
  const bool inside = i < p2 && i >= j0 && i <= j1;
  int f = 0;

  /* the block's span of input samples (no thread leaves before the
   * barriers) */
  if (threadIdx.x == 0) {
    lo_s = INT_MAX;
    hi_s = INT_MIN;
  }
  __syncthreads ();
  if (inside) {
    f = first[i];
    atomicMin (&lo_s, f);
    atomicMax (&hi_s, f + taps);
  }
  __syncthreads ();
  const int lo = lo_s;
  const bool staged = hi_s > lo && hi_s - lo <= PREP_FIR_SPAN;
  if (staged) {
    const int span = hi_s - lo;

    for (int rr = 0; rr < nrows; rr++)
      for (int c = threadIdx.x; c < span; c += blockDim.x)
        seg[rr][c] = in[(size_t) (r0 + rr) * p2 + lo + c];
    __syncthreads ();
  }
  if (i >= p2)
    return;

  const bool pad_inside = i >= pj0 && i <= pj1;
  const float2 wi = w ? w[i] : make_float2 (1.0f, 0.0f);
  const float win = window ? window[i] : 1.0f;
  float wt[TAPS > 0 ? TAPS : 1];

  if (inside)
    aooct_fir_load < TAPS > (wt, weight, p2, i);
  for (int rr = 0; rr < nrows; rr++) {
    const size_t r = (size_t) (r0 + rr);
    float x = 0.0f;

    if (inside)
      x = staged ? aooct_fir_dot < TAPS, 1 > (&seg[rr][f - lo], 0, wt,
          weight, p2, i, taps_rt) : aooct_fir_dot < TAPS,
          1 > (in + r * p2 + f, 0, wt, weight, p2, i, taps_rt);
    out[r * p2 + i] = aooct_cuda_prep_finish (x, pad, pad_inside, pad_scale,
        w, wi, window, win);
  }
}

/* prep_fir_kernel for bspline, two outputs per thread
 * (aooct-cuda-fir.cuh, "two outputs per thread": the same bits): the
 * block's 2 x AOOCT_FIR_THREADS outputs read a span of about twice as
 * many input samples, staged the same way from an even index, so that
 * each thread reads its window from shared memory two floats at a time.
 * @store4: the two outputs' complex values go out in one 16-byte store
 * (even @p2 and an aligned @out). */
#define PREP_FIR_PAIR_SPAN (4 * AOOCT_FIR_THREADS \
    + AOOCT_FIR_PAIR_WIN (AOOCT_KMAP_FIR_MAX_TAPS) + 2)

/* Blocks per SM the registers must allow: 5 (96 registers, no spill on
 * sm_90; unbounded, ptxas takes about 170 for loads in flight and fits
 * 3). */
#define PREP_FIR_PAIR_BLOCKS 5

template < int T > static __global__ void
__launch_bounds__ (AOOCT_FIR_THREADS, PREP_FIR_PAIR_BLOCKS)
prep_fir_pair_kernel (const float *in, float2 * out, const int *first,
    const float *weight, int j0, int j1, int pad, float pad_scale, int pj0,
    int pj1, const float2 * w, const float *window, int p2, int rows,
    bool store4)
{
  __shared__ __align__ (16) float seg[AOOCT_FIR_ROWS][PREP_FIR_PAIR_SPAN];
  __shared__ int lo_s, hi_s;
  const int i0 = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  const int r0 = blockIdx.y * AOOCT_FIR_ROWS;
  const int nrows = min (AOOCT_FIR_ROWS, rows - r0);
  AooctFirPair < T > s;
  int lo_t = INT_MAX, hi_t = INT_MIN;

  aooct_fir_pair_init < T > (s, first, p2, j0, j1, i0);
  /* the input samples this thread reads: its window, and the taps of an
   * output that does not fit it */
  if (s.win[0] || s.win[1]) {
    lo_t = s.b;
    hi_t = s.b + AOOCT_FIR_PAIR_WIN (T);
  }
#pragma unroll
  for (int j = 0; j < 2; j++)
    if (s.in[j] && !s.win[j]) {
      lo_t = min (lo_t, s.f[j]);
      hi_t = max (hi_t, s.f[j] + T);
    }

  /* the block's span (no thread leaves before the barriers), from an even
   * index so that the windows stay 8-byte aligned */
  if (threadIdx.x == 0) {
    lo_s = INT_MAX;
    hi_s = INT_MIN;
  }
  __syncthreads ();
  if (lo_t <= hi_t) {
    atomicMin (&lo_s, lo_t);
    atomicMax (&hi_s, hi_t);
  }
  __syncthreads ();
  const int lo = lo_s & ~1;
  const bool staged = hi_s > lo && hi_s - lo <= PREP_FIR_PAIR_SPAN;
  /* asynchronous copies (cp.async on sm_80 and later), which need no
   * register: with this kernel's registers (the two outputs' weights)
   * few warps fit on an SM, and a copy through registers would have few
   * loads in flight; the weights load meanwhile */
  if (staged) {
    const int span = hi_s - lo;

    for (int rr = 0; rr < nrows; rr++)
      for (int c = threadIdx.x; c < span; c += blockDim.x)
        __pipeline_memcpy_async (&seg[rr][c],
            &in[(size_t) (r0 + rr) * p2 + lo + c], sizeof (float));
    __pipeline_commit ();
  }
  if (i0 < p2)
    aooct_fir_pair_weights < T > (s, weight, p2, i0);
  if (staged) {
    __pipeline_wait_prior (0);
    __syncthreads ();
  }
  if (i0 >= p2)
    return;

  bool pin[2];
  float2 wi[2];
  float win[2];

#pragma unroll
  for (int j = 0; j < 2; j++) {
    const int i = min (i0 + j, p2 - 1);

    pin[j] = i0 + j >= pj0 && i0 + j <= pj1;
    wi[j] = w ? w[i] : make_float2 (1.0f, 0.0f);
    win[j] = window ? window[i] : 1.0f;
  }
  for (int rr = 0; rr < nrows; rr++) {
    const size_t r = (size_t) (r0 + rr);
    float v0, v1;
    float2 c0, c1;

    if (staged)
      aooct_fir_pair_row < T, 1, true, false > (s, seg[rr], lo, 0, weight,
          p2, i0, v0, v1);
    else
      aooct_fir_pair_row < T, 1, false, false > (s, in + r * p2, 0, 0,
          weight, p2, i0, v0, v1);
    c0 = aooct_cuda_prep_finish (v0, pad, pin[0], pad_scale, w, wi[0],
        window, win[0]);
    c1 = aooct_cuda_prep_finish (v1, pad, pin[1], pad_scale, w, wi[1],
        window, win[1]);
    if (store4) {
      *reinterpret_cast < float4 * >(out + r * p2 + i0) =
          make_float4 (c0.x, c0.y, c1.x, c1.y);
    } else {
      out[r * p2 + i0] = c0;
      if (i0 + 1 < p2)
        out[r * p2 + i0 + 1] = c1;
    }
  }
}

/* One launch of the fused FIR pass for @T taps: prep_fir_kernel, or the
 * pair kernel for bspline's. */
template < int T > struct PrepFirLaunch
{
  static void
  run (AooctCudaPrepPlan * p, const AooctCudaPrepSteps * st, const float2 * w,
      const float *window, const float *src, float2 * dst, int now,
      cudaStream_t s)
  {
    dim3 grid ((p->samples + AOOCT_FIR_THREADS - 1) / AOOCT_FIR_THREADS,
        (now + AOOCT_FIR_ROWS - 1) / AOOCT_FIR_ROWS);

    prep_fir_kernel < T > <<< grid, AOOCT_FIR_THREADS, 0, s >>> (src, dst,
        p->index, p->weight, p->taps, p->j0, p->j1, st->pad, st->pad_scale,
        st->pad_j0, st->pad_j1, w, window, p->samples, now);
  }
};

template <> struct PrepFirLaunch <AOOCT_KMAP_FIR_MAX_TAPS >
{
  static void
  run (AooctCudaPrepPlan * p, const AooctCudaPrepSteps * st, const float2 * w,
      const float *window, const float *src, float2 * dst, int now,
      cudaStream_t s)
  {
    const int per_block = 2 * AOOCT_FIR_THREADS;
    dim3 grid ((p->samples + per_block - 1) / per_block,
        (now + AOOCT_FIR_ROWS - 1) / AOOCT_FIR_ROWS);
    const bool store4 = p->samples % 2 == 0
        && (uintptr_t) dst % sizeof (float4) == 0;

    prep_fir_pair_kernel < AOOCT_KMAP_FIR_MAX_TAPS > <<< grid,
        AOOCT_FIR_THREADS, 0, s >>> (src, dst, p->index, p->weight, p->j0,
        p->j1, st->pad, st->pad_scale, st->pad_j0, st->pad_j1, w, window,
        p->samples, now, store4);
  }
};

static gboolean
prep_fir (AooctCudaPrepPlan * p, const gfloat * in,
    const AooctCudaPrepSteps * steps, const gfloat * window, gfloat * out,
    AooctCudaStream stream, GError ** error)
{
  const float2 *w = steps->disp ? p->weights : NULL;
  cudaStream_t s = (cudaStream_t) stream;
  gsize rows = (gsize) p->rows, done = 0;

  /* gridDim.y is at most 65535 */
  while (done < rows) {
    int now = (int) MIN (rows - done, (gsize) 65535 * AOOCT_FIR_ROWS);
    const float *src = in + done * p->samples;
    float2 *dst = (float2 *) out + done * p->samples;

#define LAUNCH(T) PrepFirLaunch < T >::run (p, steps, w, window, src, dst, \
      now, s)
    AOOCT_FIR_DISPATCH (p->taps, LAUNCH);
#undef LAUNCH
    AOOCT_CUDA_CHECK_LAUNCH (error, "fused %s%d-tap resampling + %s%s pass",
        steps->pad ? "padding scale + " : "", p->taps,
        steps->disp ? "dispersion + " : "", window ? "window" : "conversion");
    done += now;
  }
  return TRUE;
}

gboolean
aooct_cuda_prep_execute (AooctCudaPrepPlan * p, const gfloat * in,
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
  if (steps->kmap && p->taps > 0)
    return prep_fir (p, in, steps, window, out, stream, error);
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
aooct_cuda_prep_execute_disp_complex (AooctCudaPrepPlan * p, const gfloat * in,
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
aooct_cuda_prep_plan_free (AooctCudaPrepPlan * p)
{
  if (p == NULL)
    return;
  aooct_cuda_free (p->index);
  aooct_cuda_free (p->frac);
  aooct_cuda_free (p->weight);
  aooct_cuda_free (p->weights);
  g_free (p);
}
