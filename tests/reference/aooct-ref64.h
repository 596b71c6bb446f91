/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference implementation of the whole spec
 * (shared/spec/reconstruction.md, sections 1 to 7).
 *
 * Written from the spec alone, independently of the float32 cores in cpu/
 * (it calls none of them), in plain C with double precision and FFTW's
 * double-precision interface, for clarity over speed: every step is the
 * spec's formula, applied one A-line at a time.  The end-to-end tests
 * compare the elements against it ("within 1 grey level on every pixel").
 *
 * Conventions:
 * - real arrays are double; complex arrays are interleaved double
 *   (re, im), so a complex A-line of P2 samples is 2 * P2 doubles;
 * - raw data are host-order guint16, B-scan after B-scan, each M A-lines of
 *   N samples;
 * - images are in display orientation: for each B-scan, rows
 *   crop-start .. crop-end - 1, one column per A-line, B-scans stacked
 *   vertically; pixels are guint8 (bits = 8) or host-order guint16
 *   (bits = 16), rows @out_stride bytes apart.
 *
 * Nothing here is thread-safe with respect to other users of FFTW's double
 * planner (the float32 cores use the separate fftwf planner). */
#ifndef __AOOCT_REF64_H__
#define __AOOCT_REF64_H__

#include <stddef.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AOOCT_REF_DC_BSCAN_MEAN,      /* subtract each B-scan's mean A-line */
  AOOCT_REF_DC_BACKGROUND,      /* subtract background[N] */
  AOOCT_REF_DC_NONE
} AooctRefDcMode;

typedef enum
{
  AOOCT_REF_KMAP_SKIP,          /* k-linear source: no aooctkmap */
  AOOCT_REF_KMAP_TABLE,         /* wavelengths[N], nm (wavelength-file) */
  AOOCT_REF_KMAP_COEFFS         /* coeffs[n_coeffs], nm (wavelength-coeffs) */
} AooctRefKmapMode;

/* aooctkmap interpolation (sections 4 and 8); 0 = linear */
typedef enum
{
  AOOCT_REF_INTERP_LINEAR,
  AOOCT_REF_INTERP_CUBIC,
  AOOCT_REF_INTERP_BSPLINE,
  AOOCT_REF_INTERP_LANCZOS,
  AOOCT_REF_INTERP_NUDFT,       /* section 8's sum, evaluated exactly */
  AOOCT_REF_INTERP_NUFFT        /* the same sum: the reference of both */
} AooctRefInterp;

typedef enum
{
  AOOCT_REF_DISP_NONE,          /* no aooctdisp, or w = 1 */
  AOOCT_REF_DISP_WEIGHTS,       /* weights[2 * P2] (re, im), e.g. a file */
  AOOCT_REF_DISP_COEFFS,        /* a2 .. a5 */
  AOOCT_REF_DISP_CAMERA         /* camera_phases[N]: one phase per camera
                                 * pixel, on the P2 grid by linear
                                 * interpolation along the shorter arc */
} AooctRefDispMode;

typedef enum
{
  AOOCT_REF_WINDOW_NONE,
  AOOCT_REF_WINDOW_HANN,
  AOOCT_REF_WINDOW_HAMMING,
  AOOCT_REF_WINDOW_BLACKMAN,
  AOOCT_REF_WINDOW_GAUSSIAN,
  AOOCT_REF_WINDOW_TUKEY,
  AOOCT_REF_WINDOW_KAISER
} AooctRefWindow;

typedef struct
{
  /* raw data */
  int n;                        /* N, samples per A-line */
  int m;                        /* M, A-lines per B-scan */
  int bscans;                   /* B-scans handed to aooct_ref_process() */

  /* aooctdcsub */
  AooctRefDcMode dc_mode;
  const double *background;     /* N values, for AOOCT_REF_DC_BACKGROUND */

  /* aooctpad */
  gboolean pad;                 /* FALSE: no aooctpad (o = 0, f = 1, P = N) */
  int pad_size;                 /* P1; 0 = automatic */
  int pad_factor;               /* f */

  /* aooctkmap */
  AooctRefKmapMode kmap;
  const double *wavelengths;    /* N values (nm), for KMAP_TABLE */
  double coeffs[4];             /* c0..c3 (nm), for KMAP_COEFFS */
  int n_coeffs;                 /* 1..4 */
  AooctRefInterp interp;

  /* aooctdisp */
  AooctRefDispMode disp;
  const double *weights;        /* 2 * P2 doubles (re, im), DISP_WEIGHTS */
  double a2, a3;                /* radians, DISP_COEFFS */
  double a4, a5;                /* radians, DISP_COEFFS (0 by default) */
  const double *camera_phases;  /* N phases (rad), DISP_CAMERA */

  /* aooctfft */
  AooctRefWindow window;
  double window_parameter;      /* s, alpha, beta; 0 = 0.4, 0.5, 8 */

  /* aooctnorm */
  int crop_start, crop_end;     /* crop_end 0 = P1 / 2 */
  gboolean log;
  double dynamic_range;         /* dB; 0 = down to the minimum */
  gboolean auto_range;
  double range_min, range_max;  /* manual range (dB in log mode) */
  int bits;                     /* 8 or 16 */
} AooctRefParams;

/* The spec's sample grid (section 3) for a parameter set. */
typedef struct
{
  int n;                        /* N */
  int o;                        /* centring offset */
  int f;                        /* up-sampling factor */
  int p1, p2;                   /* FFT sizes; P2 = f * P1 */
  int j0, j1;                   /* data region, inclusive */
} AooctRefGrid;

/* Defaults of the elements: bscan-mean, pad on (size 0, factor 2), kmap
 * skip, no dispersion, no window, crop 0/0, log, 60 dB, auto range,
 * manual range 0..100, 8 bit. */
void aooct_ref_params_init (AooctRefParams * p, int n, int m, int bscans);

/* Grid of @p (checks the padding settings). */
gboolean aooct_ref_grid (const AooctRefParams * p, AooctRefGrid * g,
    GError ** error);

/* The grid of a chain without aooctpad: o = 0, f = 1, P1 = P2 = N. */
void aooct_ref_grid_raw (int n, AooctRefGrid * g);

/* Every check the spec asks of the elements, done independently: padding,
 * calibration (finite, positive, strictly monotonic wavelengths; a
 * polynomial on the whole interval [0, N-1]), dispersion weights present,
 * crop, dynamic range, manual range, bits.  Error messages are for the test
 * log, not a copy of the elements' wording. */
gboolean aooct_ref_check (const AooctRefParams * p, GError ** error);

/* ---- single steps, on double arrays ---- */

/* Section 2 on one B-scan (M x N, in place). */
void aooct_ref_dcsub (const AooctRefParams * p, double *x);

/* Section 3 on one A-line: @x N samples -> @z P2 samples (margins 0). */
void aooct_ref_pad (const AooctRefGrid * g, const double *x, double *z);

/* lambda(p) in nm at raw pixel coordinate @pix in [0, N-1] (section 4). */
double aooct_ref_lambda (const AooctRefParams * p, double pix);

/* Section 4 on one A-line: @z P2 real -> @out P2 real (a copy for
 * KMAP_SKIP). */
void aooct_ref_kmap (const AooctRefParams * p, const AooctRefGrid * g,
    const double *z, double *out);

/* Section 8: the positions s_j of the data region's samples (j1 - j0 + 1
 * doubles) for a kmap with a calibration. */
void aooct_ref_positions (const AooctRefParams * p, const AooctRefGrid * g,
    double *s);

/* Section 8 on one A-line: @z P2 real (or, @complex_z, 2 * P2 interleaved)
 * spectra at positions @s -> @X P2 complex: the sum with aooctdisp's
 * weight and the window at each position. */
void aooct_ref_nudft (const AooctRefParams * p, const AooctRefGrid * g,
    const double *s, const double *z, gboolean complex_z, double *X);

/* The same with, for @signed_bins (full-range spectra, section 9: bin
 * m >= P2 - floor(P2/2) is signed depth bin m - P2), m - P2 in place of
 * m in the phase of those bins: the peak of a reflector at negative depth
 * b where positions off the even grid would smear bin P2 + b. */
void aooct_ref_nudft_bins (const AooctRefParams * p, const AooctRefGrid * g,
    const double *s, const double *z, gboolean complex_z,
    gboolean signed_bins, double *X);

/* Section 5: the P2 complex weights (2 * P2 doubles). */
void aooct_ref_disp_weights (const AooctRefParams * p,
    const AooctRefGrid * g, double *w);

/* Section 5 on one A-line: @x P2 real -> @c P2 complex. */
void aooct_ref_disp (const AooctRefParams * p, const AooctRefGrid * g,
    const double *x, double *c);

/* Section 6: the window over the data region (P2 values; all 1 for
 * AOOCT_REF_WINDOW_NONE). */
void aooct_ref_window_full (AooctRefWindow window, double parameter,
    const AooctRefGrid * g, double *win);
void aooct_ref_window (AooctRefWindow window, const AooctRefGrid * g,
    double *win);

/* Section 6 on one A-line: window, then forward unscaled complex FFT of
 * length P2; @c and @X are 2 * P2 doubles (may be the same array). */
void aooct_ref_fft (AooctRefWindow window, const AooctRefGrid * g,
    const double *c, double *X);

/* The crop of @p on grid @g (crop_end 0 -> P1 / 2); FALSE if impossible. */
gboolean aooct_ref_crop (const AooctRefParams * p, const AooctRefGrid * g,
    int *start, int *end, GError ** error);

/* Section 7 on one B-scan: @depth is M A-lines of P2 complex samples
 * (2 * P2 doubles each, @depth_stride doubles apart; 0 = 2 * P2).  Writes
 * crop rows x M pixels to @out.  @lo / @hi (may be NULL) receive the range
 * used.  The pixel is floor (t + 0.5) with t = (value - lo) * Q / (hi - lo)
 * clamped to [0, Q] (the spec's v * Q, multiplied before dividing so that
 * exactly representable .5 boundaries stay exact); hi == lo gives 0.
 * @p must pass aooct_ref_check() (or at least the crop and range checks). */
void aooct_ref_norm (const AooctRefParams * p, const AooctRefGrid * g,
    const double *depth, size_t depth_stride, void *out, size_t out_stride,
    double *lo, double *hi);

/* ---- the whole chain ---- */

/* Sections 1 to 6: @raw (bscans x M x N) -> @depth (bscans x M A-lines of
 * P2 complex samples, 2 * P2 doubles each).  Checks @p first. */
gboolean aooct_ref_depth (const AooctRefParams * p, const guint16 * raw,
    double *depth, GError ** error);

/* Sections 1 to 7: @raw -> image of bscans x (crop rows) rows of M pixels.
 * Checks @p first. */
gboolean aooct_ref_process (const AooctRefParams * p, const guint16 * raw,
    void *out, size_t out_stride, GError ** error);

/* ---- calibration files (through common/aooct-textfile) ---- */

/* A phase file of @p2 records (phi, or re im) as 2 * @p2 weights (g_free). */
double *aooct_ref_read_phase_file (const char *path, int p2, GError ** error);

G_END_DECLS

#endif /* __AOOCT_REF64_H__ */
