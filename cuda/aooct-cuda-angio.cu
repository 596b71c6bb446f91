/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: angiography (see aooct-cuda-angio.h). */
#include <stdint.h>

#include "aooct-cuda-angio.h"
#include "aooct-cuda-check.h"
#include "aooct-flow-pixel.h"
#include "aooct-cuda-flow-image.cuh"

#define THREADS 256

/* the maxima an image needs, reset before each */
typedef struct
{
  unsigned int imax;            /* bits of the largest window-mean I */
  unsigned long long svmax;     /* bits of the largest unmasked SV */
} Maxima;

struct _AooctCudaAngioPlan
{
  AooctFlowParams p;
  float *store;                 /* N x M x rows intensities, A-line major */
  float *ratio, *imean, *value, *iw;    /* M x rows each */
  double *sv;                   /* M x rows */
  Maxima *max;
};

/* x over the rows, y over the A-lines of the B-scans taken */
static __global__ void
angio_collect (const float *in, float *store, AooctFlowParams p, int first,
    int lines)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;

  if (r >= p.rows)
    return;
  for (int l = blockIdx.y; l < lines; l += gridDim.y) {
    const float *x = in + 2 * (size_t) l * p.samples;
    const int b = 2 * aooct_flow_bin (p.crop_start, p.samples, r);

    store[((size_t) first * p.alines + l) * p.rows + r] =
        x[b] * x[b] + x[b + 1] * x[b + 1];
  }
}

/* per pixel: the ratio (decorrelation) or SV, and the mean I over the
 * repeats (for speckle variance the mask's I_w, whose maximum it takes) */
static __global__ void
angio_pixels (const float *store, float *ratio, float *imean, double *sv,
    Maxima * max, AooctFlowParams p, int speckle)
{
  const size_t n = (size_t) p.alines * p.rows;
  const size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  float mean = 0.0f;

  if (i < n) {
    if (speckle)
      aooct_flow_sv_pixel (store + i, n, p.repeats, &sv[i], &mean);
    else
      aooct_flow_decorr_pixel (store + i, n, p.repeats, &ratio[i], &mean);
    imean[i] = mean;
  }
  if (speckle)
    aooct_flow_warp_max (mean, &max->imax);
}

static __global__ void
angio_window (const float *ratio, const float *imean, float *value,
    float *iw, Maxima * max, AooctFlowParams p, int wm, int wz)
{
  const size_t n = (size_t) p.alines * p.rows;
  const size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  float w = 0.0f;

  if (i < n) {
    const int m = (int) (i / p.rows), r = (int) (i % p.rows);

    aooct_flow_decorr_window (ratio, imean, p.alines, p.rows, wm, wz, m, r,
        &value[i], &w);
    iw[i] = w;
  }
  aooct_flow_warp_max (w, &max->imax);
}

/* variance-max 0: the largest SV of the unmasked pixels */
static __global__ void
angio_sv_max (const double *sv, const float *iw, Maxima * max,
    AooctFlowParams p, double factor)
{
  const size_t n = (size_t) p.alines * p.rows;
  const size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  const double limit = aooct_flow_mask_limit (aooct_flow_key_float
      (max->imax), factor);

  if (i < n && !aooct_flow_masked (iw[i], limit) && sv[i] > 0.0)
    atomicMax (&max->svmax,
        (unsigned long long) __double_as_longlong (sv[i]));
}

struct AngioPixel
{
  const float *value, *iw;
  const double *sv;
  const Maxima *max;
  AooctFlowParams p;
  double factor, scale;         /* scale 0: the largest SV */
  int speckle;

  __device__ uint32_t operator () (int b, int m, int r) const
  {
    const size_t i = (size_t) m * p.rows + r;
    const double limit = aooct_flow_mask_limit (aooct_flow_key_float
        (max->imax), factor);
    const double s = scale > 0.0 ? scale :
        __longlong_as_double ((long long) max->svmax);
    double v;
    uint32_t g;

    if (aooct_flow_masked (iw[i], limit) || !(s > 0.0))
      v = 0.0;
    else
      v = (speckle ? sv[i] : (double) value[i]) / s;
    g = aooct_flow_angio_grey (v,
        p.format == AOOCT_FLOW_GRAY16 ? 65535.0 : 255.0);
    return p.format == AOOCT_FLOW_RGBA ?
        g | (g << 8) | (g << 16) | (255u << 24) : g;
  }
};

AooctCudaAngioPlan *
aooct_cuda_angio_plan_new (const AooctFlowParams * p, GError ** error)
{
  AooctCudaAngioPlan *a = g_new0 (AooctCudaAngioPlan, 1);
  const gsize n = (gsize) p->alines * p->rows;

  a->p = *p;
  if (!aooct_cuda_malloc (n * p->repeats * sizeof (float),
          (gpointer *) & a->store, error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & a->ratio,
          error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & a->imean,
          error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & a->value,
          error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & a->iw, error)
      || !aooct_cuda_malloc (n * sizeof (double), (gpointer *) & a->sv, error)
      || !aooct_cuda_malloc (sizeof (Maxima), (gpointer *) & a->max, error)) {
    aooct_cuda_angio_plan_free (a);
    return NULL;
  }
  return a;
}

void
aooct_cuda_angio_plan_free (AooctCudaAngioPlan * a)
{
  if (a == NULL)
    return;
  aooct_cuda_free (a->store);
  aooct_cuda_free (a->ratio);
  aooct_cuda_free (a->imean);
  aooct_cuda_free (a->value);
  aooct_cuda_free (a->iw);
  aooct_cuda_free (a->sv);
  aooct_cuda_free (a->max);
  g_free (a);
}

gboolean
aooct_cuda_angio_execute_collect (AooctCudaAngioPlan * a, const gfloat * in,
    gint first,
    gint count, AooctCudaStream stream, GError ** error)
{
  const AooctFlowParams *p = &a->p;
  const int lines = count * p->alines;

  angio_collect <<< dim3 ((p->rows + THREADS - 1) / THREADS,
      MIN (lines, 65535)), THREADS, 0, stream >>> (in, a->store, *p, first,
      lines);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctangio: collect kernel");
  return TRUE;
}

gboolean
aooct_cuda_angio_execute_emit (AooctCudaAngioPlan * a,
    const AooctAngioSettings * s,
    guint8 * out, gsize out_stride, AooctCudaStream stream, GError ** error)
{
  const AooctFlowParams *p = &a->p;
  const size_t n = (size_t) p->alines * p->rows;
  const unsigned blocks = (unsigned) ((n + THREADS - 1) / THREADS);
  const int speckle = s->method == AOOCT_ANGIO_SPECKLE_VARIANCE;
  const double factor = aooct_flow_mask_factor (s->threshold);
  AngioPixel pixel = { a->value, speckle ? a->imean : a->iw, a->sv, a->max,
    *p, factor, speckle ? s->variance_max : s->decorrelation_max, speckle
  };

  if (!aooct_cuda_memset_async (a->max, 0, sizeof (Maxima), stream, error))
    return FALSE;
  angio_pixels <<< blocks, THREADS, 0, stream >>> (a->store, a->ratio,
      a->imean, a->sv, a->max, *p, speckle);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctangio: pixel kernel");
  if (!speckle) {
    angio_window <<< blocks, THREADS, 0, stream >>> (a->ratio, a->imean,
        a->value, a->iw, a->max, *p, s->aline_window, s->depth_window);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctangio: window kernel");
  } else if (s->variance_max <= 0) {
    angio_sv_max <<< blocks, THREADS, 0, stream >>> (a->sv, a->imean,
        a->max, *p, factor);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctangio: variance maximum kernel");
  }
  if (!aooct_flow_zero_padding (p->format, p->alines, p->rows, out,
          out_stride, stream, error))
    return FALSE;
  aooct_flow_write <<< aooct_flow_write_grid (p->alines, p->rows, 1),
      AOOCT_FLOW_WRITE_BLOCK, 0, stream >>> (pixel, p->alines, p->rows,
      p->format, out, out_stride);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctangio: image kernel");
  return TRUE;
}
