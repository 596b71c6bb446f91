/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the per-value rules of aooctregister (spec section 13) that the
 * CPU core, the CUDA kernels and the float64 reference apply alike.
 *
 * Plain C, no GLib types: nvcc compiles it as host and device code. */
#ifndef __AOOCT_REGISTER_PICK_H__
#define __AOOCT_REGISTER_PICK_H__

#ifdef __CUDACC__
#define AOOCT_REG_HD __host__ __device__
#else
#define AOOCT_REG_HD
#endif

/* the FFT bin of crop row @r (signed bins on full range, spec 9) */
static inline AOOCT_REG_HD int
aooct_register_bin (int crop_start, int samples, int r)
{
  int b = crop_start + r;

  return b < 0 ? b + samples : b;
}

/* The signed frequency of DFT index @k of @n: -floor(n/2) .. ceil(n/2)-1 */
static inline AOOCT_REG_HD int
aooct_register_freq (int k, int n)
{
  return k < (n + 1) / 2 ? k : k - n;
}

/* DFT index of signed frequency @f of @n */
static inline AOOCT_REG_HD int
aooct_register_index (int f, int n)
{
  return f < 0 ? f + n : f;
}

/* (f q / d) mod 1 in [0, 1), exactly reduced in integers first: the
 * phase in turns of exp (2 pi j f q / d) for integer f, q and d > 0 */
static inline AOOCT_REG_HD double
aooct_register_turns (long long f, long long q, long long d)
{
  long long r = (f * q) % d;

  if (r < 0)
    r += d;
  return (double) r / (double) d;
}

static inline AOOCT_REG_HD int
aooct_register_iabs (int v)
{
  return v < 0 ? -v : v;
}

/* Whether the shift (qz, qx) with correlation @c is preferred to (qz2,
 * qx2) with @c2: the larger c; on a tie the smallest |dz|, then |dx|, then
 * dz, then dx (spec 13; shifts in any one unit, e.g. 1/U pixel). */
static inline AOOCT_REG_HD int
aooct_register_better (double c, int qz, int qx, double c2, int qz2, int qx2)
{
  int a, a2;

  if (c != c2)
    return c > c2;
  a = aooct_register_iabs (qz);
  a2 = aooct_register_iabs (qz2);
  if (a != a2)
    return a < a2;
  a = aooct_register_iabs (qx);
  a2 = aooct_register_iabs (qx2);
  if (a != a2)
    return a < a2;
  if (qz != qz2)
    return qz < qz2;
  return qx < qx2;
}

/* Whether output A-line @m has its source m + qx/U inside [0, M - 1] */
static inline AOOCT_REG_HD int
aooct_register_aline_inside (int m, int qx, int upsample, int alines)
{
  long long s = (long long) m * upsample + qx;

  return s >= 0 && s <= (long long) (alines - 1) * upsample;
}

#endif /* __AOOCT_REGISTER_PICK_H__ */
