/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the per-pixel arithmetic of spec section 12 (aooctdoppler,
 * aooctangio), shared by the CPU cores (cpu/aooct-cpu-doppler.c,
 * cpu/aooct-cpu-angio.c) and the CUDA kernels (cuda/aooct-cuda-doppler.cu,
 * cuda/aooct-cuda-angio.cu).  Both call these very functions, with the
 * window sums in the same order and no FMA contraction on either side
 * (-ffp-contract=off, --fmad=false), so both backends compute the same
 * float32 bits up to the mask, the bulk phase and the window sums.  Where
 * the libraries differ (the double atan2 of the phase, the double log10 of
 * speckle variance: within an ulp or two of a double) a pixel can differ
 * only where its float64 value lies within 1e-15 of a grey-level boundary.
 *
 * Layout: the input is A-line major, @samples interleaved complex floats
 * per A-line; a depth window covers image rows (signed bins crop_start +
 * row; a negative bin b is FFT bin samples + b, spec section 9).  The
 * scratch images are A-line major too: pixel (m, r) at m * rows + r.
 *
 * Plain C, no GLib types: nvcc compiles it as host and device code. */
#ifndef __AOOCT_FLOW_PIXEL_H__
#define __AOOCT_FLOW_PIXEL_H__

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define AOOCT_FLOW_HD __host__ __device__
#else
#define AOOCT_FLOW_HD
#endif

#define AOOCT_FLOW_PI 3.14159265358979323846

/* the FFT bin of image row @r */
static inline AOOCT_FLOW_HD int
aooct_flow_bin (int crop_start, int samples, int r)
{
  int b = crop_start + r;

  return b < 0 ? b + samples : b;
}

/* aooctdoppler's sums over the depth window of row @r for the pair of
 * A-lines @a, @a + @lag: of X[a+L][d] conj (X[a][d]) (@pr, @pi) and of
 * |X[a][d]|^2 + |X[a+L][d]|^2 (@ps), d ascending over the window clipped to
 * the crop; returns how many bins entered.  @x: the B-scan's first
 * A-line. */
static inline AOOCT_FLOW_HD int
aooct_flow_doppler_depth (const float *x, int samples, int crop_start,
    int rows, int lag, int wz, int a, int r, float *pr, float *pi, float *ps)
{
  const int h = (wz - 1) / 2;
  const int dlo = r - h > 0 ? r - h : 0;
  const int dhi = r + h < rows - 1 ? r + h : rows - 1;
  const float *x0 = x + 2 * (size_t) a * samples;
  const float *x1 = x0 + 2 * (size_t) lag * samples;
  float sr = 0.0f, si = 0.0f, s = 0.0f;
  int d;

  for (d = dlo; d <= dhi; d++) {
    const int b = 2 * aooct_flow_bin (crop_start, samples, d);
    const float ar = x0[b], ai = x0[b + 1], br = x1[b], bi = x1[b + 1];

    sr += br * ar + bi * ai;
    si += bi * ar - br * ai;
    s += (ar * ar + ai * ai) + (br * br + bi * bi);
  }
  *pr = sr;
  *pi = si;
  *ps = s;
  return dhi - dlo + 1;
}

/* The A-lines a of the window of column @m whose pair (a, a + @lag) lies
 * in the B-scan: @alo .. @ahi (none when ahi < alo). */
static inline AOOCT_FLOW_HD void
aooct_flow_doppler_alines (int alines, int lag, int wm, int m, int *alo,
    int *ahi)
{
  const int a0 = m - wm / 2;

  *alo = a0 > 0 ? a0 : 0;
  *ahi = a0 + wm - 1 < alines - 1 - lag ? a0 + wm - 1 : alines - 1 - lag;
}

/* I_w of a pixel (spec 12: the mean of I over both members of every pair
 * of its window) from @s, the sum of the depth sums' @ps added a
 * ascending, and @n, the bins that entered; no pair: 0. */
static inline AOOCT_FLOW_HD void
aooct_flow_doppler_finish (float s, int n, float *iw)
{
  *iw = n > 0 ? s / (float) (2 * n) : 0.0f;
}

/* aooctdoppler's window sums at pixel (m, r) (spec 12): C = the sum of
 * X[a+L][d] conj (X[a][d]) over the pairs inside the B-scan and the crop,
 * as the depth sums of its pairs of A-lines (aooct_flow_doppler_depth)
 * added a ascending; I_w; no pair: C = 0, I_w = 0.  The CUDA kernel
 * computes each depth sum here; the CPU keeps those of every (a, r) and
 * adds them in the same order: the same bits. */
static inline AOOCT_FLOW_HD void
aooct_flow_doppler_sums (const float *x, int samples, int alines,
    int crop_start, int rows, int lag, int wm, int wz, int m, int r,
    float *c_re, float *c_im, float *iw)
{
  float sr = 0.0f, si = 0.0f, s = 0.0f;
  int a, alo, ahi, n = 0;

  aooct_flow_doppler_alines (alines, lag, wm, m, &alo, &ahi);
  for (a = alo; a <= ahi; a++) {
    float pr, pi, ps;

    n += aooct_flow_doppler_depth (x, samples, crop_start, rows, lag, wz, a,
        r, &pr, &pi, &ps);
    sr += pr;
    si += pi;
    s += ps;
  }
  *c_re = sr;
  *c_im = si;
  aooct_flow_doppler_finish (s, n, iw);
}

/* The mask's limit in linear intensity: a pixel is masked when
 * max (I_w, 1e-30) < limit, which is spec 12's
 * 10 log10 (max (I_w, 1e-30)) < H - T with H = 10 log10 (max (Imax, 1e-30)),
 * compared without a logarithm so that both backends decide alike.
 * @factor: 10^(-T/10), computed on the host; T = 0 (no mask): factor 0. */
static inline AOOCT_FLOW_HD double
aooct_flow_mask_limit (float imax, double factor)
{
  const double m = (double) imax > 1e-30 ? (double) imax : 1e-30;

  return factor > 0.0 ? m * factor : -1.0;
}

static inline AOOCT_FLOW_HD int
aooct_flow_masked (float iw, double limit)
{
  const double v = (double) iw > 1e-30 ? (double) iw : 1e-30;

  /* NaN (a broken upstream) is masked */
  return !(v >= limit);
}

/* aooctdoppler's bulk correction of one sum by the column's B (not zero):
 * C conj (B) / |B| */
static inline AOOCT_FLOW_HD void
aooct_flow_bulk_apply (float b_re, float b_im, float *c_re, float *c_im)
{
  const float n = sqrtf (b_re * b_re + b_im * b_im);
  const float ur = b_re / n, ui = b_im / n;
  const float cr = *c_re, ci = *c_im;

  *c_re = cr * ur + ci * ui;
  *c_im = ci * ur - cr * ui;
}

/* dphi in (-pi, pi] of C; masked pixels and C = 0: 0 */
static inline AOOCT_FLOW_HD double
aooct_flow_dphi (float c_re, float c_im, int masked)
{
  double p;

  if (masked || (c_re == 0.0f && c_im == 0.0f))
    return 0.0;
  p = atan2 ((double) c_im, (double) c_re);
  if (p != p)
    return 0.0;
  return p <= -AOOCT_FLOW_PI ? AOOCT_FLOW_PI : p;
}

/* GRAY8 / GRAY16 of dphi: min (q, floor ((q / 2) (1 + dphi / pi) + 0.5)) */
static inline AOOCT_FLOW_HD uint32_t
aooct_flow_doppler_grey (double dphi, double q)
{
  double t = floor (0.5 * q * (1.0 + dphi / AOOCT_FLOW_PI) + 0.5);

  t = t > 0.0 ? t : 0.0;
  return (uint32_t) (t < q ? t : q);
}

/* RGBA of dphi, as the bytes R, G, B, A in memory (little-endian word):
 * red = floor (255 max (dphi, 0) / pi + 0.5), blue the same of -dphi */
static inline AOOCT_FLOW_HD uint32_t
aooct_flow_doppler_rgba (double dphi)
{
  const double p = dphi > 0.0 ? dphi : 0.0, n = dphi < 0.0 ? -dphi : 0.0;
  uint32_t red = (uint32_t) floor (255.0 * p / AOOCT_FLOW_PI + 0.5);
  uint32_t blue = (uint32_t) floor (255.0 * n / AOOCT_FLOW_PI + 0.5);

  red = red < 255u ? red : 255u;
  blue = blue < 255u ? blue : 255u;
  return red | (blue << 16) | (255u << 24);
}

/* aooctangio: the grey level of v: floor (q clamp (v, 0, 1) + 0.5), NaN 0 */
static inline AOOCT_FLOW_HD uint32_t
aooct_flow_angio_grey (double v, double q)
{
  v = v > 0.0 ? v : 0.0;
  v = v < 1.0 ? v : 1.0;
  return (uint32_t) floor (q * v + 0.5);
}

/* aooctangio, decorrelation: the mean over the N - 1 pairs of repeats of
 * A_n A_n+1 / (0.5 (A_n^2 + A_n+1^2)) at one pixel (a zero denominator
 * counts as 1), and the mean of I over the repeats.  @in: I of repeat n
 * at in[n * plane]. */
static inline AOOCT_FLOW_HD void
aooct_flow_decorr_pixel (const float *in, size_t plane, int repeats,
    float *ratio, float *imean)
{
  float s = 0.0f, si = in[0];
  int n;

  for (n = 0; n + 1 < repeats; n++) {
    const float i0 = in[n * plane], i1 = in[(n + 1) * plane];
    const float den = 0.5f * (i0 + i1);

    s += den > 0.0f ? sqrtf (i0) * sqrtf (i1) / den : 1.0f;
    si += i1;
  }
  *ratio = s / (float) (repeats - 1);
  *imean = si / (float) repeats;
}

/* aooctangio, speckle variance at one pixel: SV in dB^2 (double) and the
 * mean of I over the repeats */
static inline AOOCT_FLOW_HD void
aooct_flow_sv_pixel (const float *in, size_t plane, int repeats, double *sv,
    float *imean)
{
  double mean = 0.0, v = 0.0;
  float si = 0.0f;
  int n;

  for (n = 0; n < repeats; n++) {
    const float i = in[n * plane];

    mean += 10.0 * log10 ((double) i > 1e-30 ? (double) i : 1e-30);
    si += i;
  }
  mean /= repeats;
  for (n = 0; n < repeats; n++) {
    const float i = in[n * plane];
    const double l = 10.0 * log10 ((double) i > 1e-30 ? (double) i : 1e-30);

    v += (l - mean) * (l - mean);
  }
  *sv = v / repeats;
  *imean = si / (float) repeats;
}

/* aooctangio, decorrelation: the window means at pixel (m, r) of the
 * per-pixel ratio and mean intensity (scratch images, A-line major, a
 * outer, d inner): D = 1 - mean ratio, I_w = mean intensity */
static inline AOOCT_FLOW_HD void
aooct_flow_decorr_window (const float *ratio, const float *imean, int alines,
    int rows, int wm, int wz, int m, int r, float *dec, float *iw)
{
  const int a0 = m - wm / 2, h = (wz - 1) / 2;
  const int alo = a0 > 0 ? a0 : 0;
  const int ahi = a0 + wm - 1 < alines - 1 ? a0 + wm - 1 : alines - 1;
  const int dlo = r - h > 0 ? r - h : 0;
  const int dhi = r + h < rows - 1 ? r + h : rows - 1;
  float s = 0.0f, si = 0.0f;
  int a, d, k;

  for (a = alo; a <= ahi; a++)
    for (d = dlo; d <= dhi; d++) {
      s += ratio[(size_t) a * rows + d];
      si += imean[(size_t) a * rows + d];
    }
  k = (ahi - alo + 1) * (dhi - dlo + 1);
  *dec = 1.0f - s / (float) k;
  *iw = si / (float) k;
}

#endif /* __AOOCT_FLOW_PIXEL_H__ */
