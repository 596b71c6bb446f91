/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: phase-resolved Doppler (see aooct-cuda-doppler.h). */
#include <stdint.h>

#include "aooct-cuda-doppler.h"
#include "aooct-cuda-check.h"
#include "aooct-flow-pixel.h"
#include "aooct-cuda-flow-image.cuh"

struct _AooctCudaDopplerPlan
{
  AooctFlowParams p;
  float2 *c;                    /* bscans x M x rows sums, A-line major */
  float *iw;                    /* bscans x M x rows mean intensities */
  unsigned int *imax;           /* per B-scan: the bits of the largest I_w */
};

/* One thread per pixel: x over the depth rows, y over the A-lines, z over
 * the B-scans of the buffer. */
static __global__ void
doppler_sums (const float *in, float2 * c, float *iw, unsigned int *imax,
    AooctFlowParams p, AooctDopplerSettings s)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = blockIdx.y * blockDim.y + threadIdx.y, b = blockIdx.z;
  float v = 0.0f;

  if (r < p.rows && m < p.alines) {
    const size_t i = ((size_t) b * p.alines + m) * p.rows + r;
    float cr, ci;

    aooct_flow_doppler_sums (in + 2 * (size_t) b * p.alines * p.samples,
        p.samples, p.alines, p.crop_start, p.rows, s.lag, s.aline_window,
        s.depth_window, m, r, &cr, &ci, &v);
    c[i] = make_float2 (cr, ci);
    iw[i] = v;
  }
  aooct_flow_warp_max (v, &imax[b]);
}

/* One warp per column: B = the sum of the unmasked C (lane l over rows l,
 * l + 32, ..., then the lanes pairwise: the CPU's order), then C conj (B)
 * / |B| down the column. */
static __global__ void
doppler_bulk (float2 * c, const float *iw, const unsigned int *imax,
    AooctFlowParams p, double factor)
{
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long) blockIdx.x * blockDim.x + threadIdx.x)
      >> 5;
  const int b = (int) (warp / p.alines);
  float br = 0.0f, bi = 0.0f;
  double limit;
  float2 *col;
  const float *icol;

  if (warp >= (long long) p.bscans * p.alines)
    return;
  limit = aooct_flow_mask_limit (aooct_flow_key_float (imax[b]), factor);
  col = c + warp * p.rows;
  icol = iw + warp * p.rows;
  for (int r = lane; r < p.rows; r += 32)
    if (!aooct_flow_masked (icol[r], limit)) {
      br += col[r].x;
      bi += col[r].y;
    }
  for (int o = 16; o > 0; o >>= 1) {
    const float sr = __shfl_down_sync (0xffffffffu, br, o);
    const float si = __shfl_down_sync (0xffffffffu, bi, o);

    if (lane < o) {
      br += sr;
      bi += si;
    }
  }
  br = __shfl_sync (0xffffffffu, br, 0);
  bi = __shfl_sync (0xffffffffu, bi, 0);
  if (br == 0.0f && bi == 0.0f)
    return;
  for (int r = lane; r < p.rows; r += 32)
    aooct_flow_bulk_apply (br, bi, &col[r].x, &col[r].y);
}

/* the phase of pixel (m, r) of B-scan b as the image wants it */
struct DopplerPixel
{
  const float2 *c;
  const float *iw;
  const unsigned int *imax;
  AooctFlowParams p;
  double factor;

  __device__ uint32_t operator () (int b, int m, int r) const
  {
    const size_t i = ((size_t) b * p.alines + m) * p.rows + r;
    const double limit = aooct_flow_mask_limit (aooct_flow_key_float
        (imax[b]), factor);
    const float2 v = c[i];
    const double dphi = aooct_flow_dphi (v.x, v.y,
        aooct_flow_masked (iw[i], limit));

    if (p.format == AOOCT_FLOW_RGBA)
      return aooct_flow_doppler_rgba (dphi);
    return aooct_flow_doppler_grey (dphi,
        p.format == AOOCT_FLOW_GRAY16 ? 65535.0 : 255.0);
  }
};

AooctCudaDopplerPlan *
aooct_cuda_doppler_plan_new (const AooctFlowParams * p, GError ** error)
{
  AooctCudaDopplerPlan *d = g_new0 (AooctCudaDopplerPlan, 1);
  const gsize n = (gsize) p->bscans * p->alines * p->rows;

  d->p = *p;
  if (p->bscans > 65535) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctdoppler on CUDA: at most 65535 B-scans per buffer, got %d",
        p->bscans);
    aooct_cuda_doppler_plan_free (d);
    return NULL;
  }
  if (!aooct_cuda_malloc (n * sizeof (float2), (gpointer *) & d->c, error)
      || !aooct_cuda_malloc (n * sizeof (float), (gpointer *) & d->iw, error)
      || !aooct_cuda_malloc (p->bscans * sizeof (unsigned int),
          (gpointer *) & d->imax, error)) {
    aooct_cuda_doppler_plan_free (d);
    return NULL;
  }
  return d;
}

void
aooct_cuda_doppler_plan_free (AooctCudaDopplerPlan * d)
{
  if (d == NULL)
    return;
  aooct_cuda_free (d->c);
  aooct_cuda_free (d->iw);
  aooct_cuda_free (d->imax);
  g_free (d);
}

gboolean
aooct_cuda_doppler_execute (AooctCudaDopplerPlan * d,
    const AooctDopplerSettings * s, const gfloat * in, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error)
{
  const AooctFlowParams *p = &d->p;
  const double factor = aooct_flow_mask_factor (s->threshold);
  const dim3 block (32, 8);
  DopplerPixel pixel = { d->c, d->iw, d->imax, *p, factor };

  if (!aooct_cuda_memset_async (d->imax, 0,
          p->bscans * sizeof (unsigned int), stream, error))
    return FALSE;
  doppler_sums <<< dim3 ((p->rows + 31) / 32, (p->alines + 7) / 8,
      p->bscans), block, 0, stream >>> (in, d->c, d->iw, d->imax, *p, *s);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdoppler: window sums kernel");
  if (s->bulk_correction) {
    const long long threads = (long long) p->bscans * p->alines * 32;

    doppler_bulk <<< (unsigned) ((threads + 255) / 256), 256, 0, stream >>>
        (d->c, d->iw, d->imax, *p, factor);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdoppler: bulk phase kernel");
  }
  if (!aooct_flow_zero_padding (p->format, p->alines, p->bscans * p->rows,
          out, out_stride, stream, error))
    return FALSE;
  aooct_flow_write <<< aooct_flow_write_grid (p->alines, p->rows, p->bscans),
      AOOCT_FLOW_WRITE_BLOCK, 0, stream >>> (pixel, p->alines, p->rows,
      p->format, out, out_stride);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdoppler: image kernel");
  return TRUE;
}
