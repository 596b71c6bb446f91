/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: the layer finder (see aooct-cuda-layers.h). */
#include "aooct-cuda-layers.h"
#include "aooct-cuda-check.h"

#define THREADS 256

static __device__ __forceinline__ double
intensity (const float2 * a, int i)
{
  float2 c = a[i];
  /* float as aooct_norm_intensity (), summed in double */
  return (double) (c.x * c.x + c.y * c.y);
}

static __device__ __forceinline__ int
bin_index (const AooctLayerParams & lp, int b)
{
  return b < 0 ? b + lp.samples : b;
}

#define PROFILE_BINS 32
#define PROFILE_GROUPS (THREADS / PROFILE_BINS)

/* the sum over the A-lines of each bin of the search window: a block
 * takes 32 consecutive bins (a warp reads them from one A-line: one
 * coalesced load) over PROFILE_GROUPS interleaved sets of A-lines, then
 * adds the sets up */
static __global__ void
layer_profile (const float2 * in, AooctLayerParams lp, int alines,
    double *profile)
{
  __shared__ double part[PROFILE_GROUPS][PROFILE_BINS];
  const int nwin = lp.search_end - lp.search_start;
  const int lane = threadIdx.x % PROFILE_BINS;
  const int group = threadIdx.x / PROFILE_BINS;
  const int z = blockIdx.x * PROFILE_BINS + lane;
  const int b = blockIdx.y;
  const float2 *x = in + (long long) b * alines * lp.samples;
  double sum = 0.0;

  if (z < nwin) {
    const int i = bin_index (lp, lp.search_start + z);

    for (int m = group; m < alines; m += PROFILE_GROUPS)
      sum += intensity (x + (long long) m * lp.samples, i);
  }
  part[group][lane] = sum;
  __syncthreads ();
  if (group == 0 && z < nwin) {
    for (int g = 1; g < PROFILE_GROUPS; g++)
      sum += part[g][lane];
    profile[(long long) b * nwin + z] = sum;
  }
}

/* one block per B-scan: the first maximum of the profile */
static __global__ void
layer_peak (const double *profile, AooctLayerParams lp, int *z_b)
{
  __shared__ double best_v[THREADS];
  __shared__ int best_i[THREADS];
  const int nwin = lp.search_end - lp.search_start;
  const double *p = profile + (long long) blockIdx.x * nwin;
  double v = -1.0;
  int idx = 0;

  for (int z = threadIdx.x; z < nwin; z += blockDim.x)
    if (p[z] > v) {
      v = p[z];
      idx = z;
    }
  best_v[threadIdx.x] = v;
  best_i[threadIdx.x] = idx;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      double ov = best_v[threadIdx.x + s];
      int oi = best_i[threadIdx.x + s];
      if (ov > best_v[threadIdx.x] || (ov == best_v[threadIdx.x]
              && oi < best_i[threadIdx.x])) {
        best_v[threadIdx.x] = ov;
        best_i[threadIdx.x] = oi;
      }
    }
    __syncthreads ();
  }
  if (threadIdx.x == 0)
    z_b[blockIdx.x] = lp.search_start + best_i[0];
}

/* one thread per A-line: the first maximum of S[m][z] within z_B +-
 * range inside the search window */
static __global__ void
layer_follow (const float2 * in, AooctLayerParams lp, int alines,
    const int *z_b, int *z_l)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  const int b = blockIdx.y;

  if (m >= alines)
    return;
  const float2 *x = in + (long long) b * alines * lp.samples;
  const int zb = z_b[b];
  const int zlo = max (lp.search_start, zb - lp.range);
  const int zhi = min (lp.search_end - 1, zb + lp.range);
  const int a0 = max (0, m - lp.half), a1 = min (alines - 1, m + lp.half);
  double best = -1.0;
  int zl = zlo;

  for (int z = zlo; z <= zhi; z++) {
    const int i = bin_index (lp, z);
    double s = 0.0;

    for (int a = a0; a <= a1; a++)
      s += intensity (x + (long long) a * lp.samples, i);
    if (s > best) {
      best = s;
      zl = z;
    }
  }
  z_l[(long long) b * alines + m] = zl;
}

gsize
aooct_cuda_layer_scratch_bytes (const AooctLayerParams * lp, gint count)
{
  return (gsize) count * (lp->search_end - lp->search_start) *
      sizeof (gdouble);
}

gboolean
aooct_cuda_layer_find (const AooctLayerParams * lp, const gfloat * in,
    gint alines, gint count, gdouble * scratch, gint * z_b, gint * z_l,
    AooctCudaStream stream, GError ** error)
{
  const int nwin = lp->search_end - lp->search_start;

  if (count > 65535) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "layer finder on CUDA: %d B-scans per buffer (at most 65535)", count);
    return FALSE;
  }
  layer_profile <<< dim3 ((nwin + PROFILE_BINS - 1) / PROFILE_BINS, count),
      THREADS, 0, stream >>> ((const float2 *) in, *lp, alines, scratch);
  AOOCT_CUDA_CHECK_LAUNCH (error, "layer finder: profile kernel");
  layer_peak <<< count, THREADS, 0, stream >>> (scratch, *lp, z_b);
  AOOCT_CUDA_CHECK_LAUNCH (error, "layer finder: peak kernel");
  layer_follow <<< dim3 ((alines + THREADS - 1) / THREADS, count), THREADS,
      0, stream >>> ((const float2 *) in, *lp, alines, z_b, z_l);
  AOOCT_CUDA_CHECK_LAUNCH (error, "layer finder: layer kernel");
  return TRUE;
}
