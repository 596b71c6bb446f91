/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the per-pixel arithmetic of spec section 7 (intensity, dB, the
 * grey-level range and the mapping), shared by the CPU core
 * (aooct-cpu-norm.c) and the CUDA kernels (cuda/aooct-cuda-norm.cu).  One
 * definition, the same float32 / double operations in the same order on
 * both (both are built without FMA contraction), so the two paths differ
 * only in the logarithm of log mode: CUDA's log10f (within 2 ulp) on the
 * GPU, aooct_norm_db_host() (correctly rounded) on the CPU, a few ulp
 * apart at most, far below a grey level.
 *
 * Plain C, no GLib types: nvcc compiles it as host and device code. */
#ifndef __AOOCT_NORM_RANGE_H__
#define __AOOCT_NORM_RANGE_H__

#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* aooct_norm_db() on the host.  glibc's log10f is a call (6 ns a sample
 * on the development machine, a third of aooctnorm's time on the CPU) that
 * the compiler cannot vectorise, and 10.0f * log10f rounds twice (up to
 * 2.2 ulp from the exact 10 log10 i).  This is inline, vectorises under
 * `omp simd` (2.9 ns a sample) and is correctly rounded in practice: ln i
 * from i = 2^e m, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(t) with
 * t = (m - 1) / (m + 1), |t| < 0.172, summed to t^15 in double (the next
 * term is below 1e-12 of it), rounded to float once at the end.  Measured
 * over 9e7 random floats from the floor to FLT_MAX against a float64
 * 10 log10: every result the correctly rounded float (so 10^k gives
 * exactly 10 k dB, as glibc's does).  The floor and +inf are handled on
 * the bits, with masks: a select (?:) keeps GCC 12 from vectorising the
 * loop at -O2. */
static inline float
aooct_norm_db_host (float i)
{
  const float floor_f = (float) AOOCT_NORM_LOG_FLOOR;
  uint32_t u, mu, floor_u, inf_u = 0x7f800000u, keep, inf, ru;
  int32_t e;
  float m, r;
  double t, t2, p, ln;

  memcpy (&u, &i, sizeof (u));
  memcpy (&floor_u, &floor_f, sizeof (floor_u));
  /* as the device's i > floor ? i : floor, which takes NaN (and what
   * cannot come, a negative i) to the floor: positive floats order as
   * their bits, +inf is inf_u, NaN and negative values lie above it */
  keep = -(uint32_t) ((u > floor_u) & (u <= inf_u));
  u = (u & keep) | (floor_u & ~keep);
  /* e puts m in [sqrt(1/2), sqrt(2)) (0x3f3504f3 is sqrt(1/2)); u is a
   * positive normal float, so its bits are e and m */
  e = (int32_t) (u - 0x3f3504f3u) >> 23;
  mu = u - ((uint32_t) e << 23);
  memcpy (&m, &mu, sizeof (m));
  t = ((double) m - 1.0) / ((double) m + 1.0);
  t2 = t * t;
  p = t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 + t2 * (1.0 / 9 +
                  t2 * (1.0 / 11 + t2 * (1.0 / 13 + t2 * (1.0 / 15)))))));
  ln = (double) e *0.69314718055994530942 + (2.0 * t + 2.0 * t * p);
  /* times 10 / ln 10; +inf stays +inf (its bits would give e = 128, m = 1) */
  r = (float) (ln * 4.3429448190325182765);
  inf = -(uint32_t) (u == inf_u);
  memcpy (&ru, &r, sizeof (ru));
  ru = (ru & ~inf) | (inf_u & inf);
  memcpy (&r, &ru, sizeof (r));
  return r;
}

static inline AOOCT_NORM_HOST_DEVICE float
aooct_norm_db (float i)
{
#ifdef __CUDA_ARCH__
  i = i > (float) AOOCT_NORM_LOG_FLOOR ? i : (float) AOOCT_NORM_LOG_FLOOR;
  return 10.0f * log10f (i);
#else
  return aooct_norm_db_host (i);
#endif
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
