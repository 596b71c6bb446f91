/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the per-pixel arithmetic of spec section 7 (intensity, dB, the
 * grey-level range and the mapping), shared by the CPU core
 * (aooct-cpu-norm.c) and the CUDA kernels (cuda/aooct-cuda-norm.cu).  One
 * definition, the same float32 / double operations in the same order on
 * both (both are built without FMA contraction), so the two paths differ
 * only where log10f differs: the CUDA and glibc log10f are not both
 * correctly rounded (a few ulp apart at most).
 *
 * Plain C, no GLib types: nvcc compiles it as host and device code. */
#ifndef __AOOCT_NORM_RANGE_H__
#define __AOOCT_NORM_RANGE_H__

#include <math.h>

#ifdef __CUDACC__
#define AOOCT_NORM_HOST_DEVICE __host__ __device__
#else
#define AOOCT_NORM_HOST_DEVICE
#endif

/* @vmin / @vmax: the B-scan's value range (I, or L in dB), only used with
 * @auto_range; @q: 255 or 65535.  @scale is 0 when hi == lo (spec: every
 * pixel 0) and when the range is not finite (an all-NaN or overflowing
 * B-scan: a black image rather than garbage). */
static inline AOOCT_NORM_HOST_DEVICE void
aooct_norm_range_compute (int auto_range, int log_mode, double dynamic_range,
    double range_min, double range_max, double q, double vmin, double vmax,
    double *lo, double *hi, double *scale)
{
  double l, h;

  if (!auto_range) {
    l = range_min;
    h = range_max;
  } else if (log_mode && dynamic_range > 0) {
    h = vmax;
    l = vmax - dynamic_range;
  } else {
    h = vmax;
    l = vmin;
  }
  *lo = l;
  *hi = h;
  /* h - l may overflow where h and l do not (range-min=-1e308,
   * range-max=1e308): halved, it does not */
  if (!(h > l))
    *scale = 0.0;
  else if (isfinite (h - l))
    *scale = q / (h - l);
  else if (isfinite (0.5 * h - 0.5 * l))
    *scale = 0.5 * q / (0.5 * h - 0.5 * l);
  else
    *scale = 0.0;
}

/* I below this is taken as this before the log */
#define AOOCT_NORM_LOG_FLOOR 1e-30

static inline AOOCT_NORM_HOST_DEVICE float
aooct_norm_intensity (float re, float im)
{
  return re * re + im * im;
}

static inline AOOCT_NORM_HOST_DEVICE float
aooct_norm_db (float i)
{
  i = i > (float) AOOCT_NORM_LOG_FLOOR ? i : (float) AOOCT_NORM_LOG_FLOOR;
  return 10.0f * log10f (i);
}

/* The grey level of @v plus 0.5, in [0.5, q + 0.5]: the caller's
 * conversion to an unsigned integer (truncation) gives floor (t + 0.5).
 * Written so that NaN ends up as 0. */
static inline AOOCT_NORM_HOST_DEVICE float
aooct_norm_grey (float v, float lo, float scale, float q)
{
  float t = (v - lo) * scale;

  t = t > 0.0f ? t : 0.0f;
  t = t < q ? t : q;
  return t + 0.5f;
}

/* lo and the scale as the per-pixel mapping uses them.  In float32 when
 * lo and hi lie well inside the float32 range, where the values live (the
 * usual case: the two paths then compute exactly the float expression
 * above); in double otherwise.  Cast to float, a lo of -1e308
 * (dynamic-range=1e308) would be -inf and a scale of 255 / 2e300 would be
 * 0, which makes every pixel NaN, i.e. black, where the spec gives white
 * or mid-grey. */
typedef struct
{
  float lo, scale;
  double lo_d, scale_d;
  int wide;                     /* map in double */
} AooctNormMap;

static inline AOOCT_NORM_HOST_DEVICE void
aooct_norm_map_init (AooctNormMap * m, double lo, double hi, double scale)
{
  /* half of FLT_MAX (3.4e38): value - lo cannot overflow for a value
   * inside [lo, hi], and one outside clamps to 0 or q whatever it gives */
  const double limit = 1.7e38;

  m->lo = (float) lo;
  m->scale = (float) scale;
  m->lo_d = lo;
  m->scale_d = scale;
  m->wide = !(fabs (lo) <= limit && fabs (hi) <= limit);
}

static inline AOOCT_NORM_HOST_DEVICE float
aooct_norm_grey_map (float v, const AooctNormMap * m, float q)
{
  if (m->wide) {
    double t = ((double) v - m->lo_d) * m->scale_d;

    t = t > 0.0 ? t : 0.0;
    t = t < (double) q ? t : (double) q;
    return (float) t + 0.5f;
  }
  return aooct_norm_grey (v, m->lo, m->scale, q);
}

#endif /* __AOOCT_NORM_RANGE_H__ */
