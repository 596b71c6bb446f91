/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctnorm's averaging and bilateral filter (spec section 11),
 * what the CPU core (aooct-cpu-norm-extra.c) and the CUDA kernels
 * (cuda/aooct-cuda-norm-extra.cu) share.
 *
 * The order of the spec: intensity I; the mean over average-alines
 * adjacent A-lines (image column c takes A-lines c K .. min (c K + K, M)
 * - 1) and over the current and up to average-bscans - 1 preceding
 * B-scans (their own I, kept in a ring of K slots); then dB and the
 * per-image range of section 7; then the normalised value v = (value -
 * lo) / (hi - lo) clamped to [0, 1], optionally smoothed by the bilateral
 * filter over a (2R+1)^2 window, R = ceil (2 sigma_s); pixel floor (q v +
 * 1/2).
 *
 * Plain C, no GLib types: nvcc compiles it as host and device code. */
#ifndef __AOOCT_NORM_EXTRA_H__
#define __AOOCT_NORM_EXTRA_H__

#include <math.h>

#ifdef __CUDACC__
#define AOOCT_EXTRA_HOST_DEVICE __host__ __device__
#else
#define AOOCT_EXTRA_HOST_DEVICE
#endif

/* What is fixed from setup to teardown. */
typedef struct
{
  int samples;                  /* P2 complex samples per input A-line */
  int alines;                   /* M */
  int bscans;                   /* B-scans per buffer */
  int crop_start, rows;         /* depth crop */
  int avg_bscans;               /* K of average-bscans (1 = off) */
  int avg_alines;               /* K of average-alines (1 = off) */
  int width;                    /* ceil (M / avg_alines), image columns */
  double sigma_space;           /* pixels; 0 = no bilateral filter */
  double sigma_range;           /* on v in [0, 1] */
} AooctNormExtraParams;

static inline AOOCT_EXTRA_HOST_DEVICE float
aooct_norm_extra_v (float value, float lo, float inv)
{
  float v = (value - lo) * inv;

  return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;       /* NaN -> 0 */
}

/* The bilateral filter at (r, c) of a rows x width image of values
 * (row-major, @pitch floats a row) mapped to v by lo and inv. */
static inline AOOCT_EXTRA_HOST_DEVICE float
aooct_norm_extra_bilateral (const float *val, int rows, int width,
    long pitch, int r, int c, int radius, float inv_2ss, float inv_2sr,
    float lo, float inv)
{
  const float v0 = aooct_norm_extra_v (val[(long) r * pitch + c], lo, inv);
  float num = 0.0f, den = 0.0f;
  int dr, dc;

  for (dr = -radius; dr <= radius; dr++) {
    int rr = r + dr;
    if (rr < 0 || rr >= rows)
      continue;
    for (dc = -radius; dc <= radius; dc++) {
      int cc = c + dc;
      float v, d, w;
      if (cc < 0 || cc >= width)
        continue;
      v = aooct_norm_extra_v (val[(long) rr * pitch + cc], lo, inv);
      d = v - v0;
      w = expf (-(float) (dr * dr + dc * dc) * inv_2ss - d * d * inv_2sr);
      num += w * v;
      den += w;
    }
  }
  return num / den;
}

static inline int
aooct_norm_extra_radius (double sigma_space)
{
  return (int) ceil (2.0 * sigma_space);
}

#endif /* __AOOCT_NORM_EXTRA_H__ */
