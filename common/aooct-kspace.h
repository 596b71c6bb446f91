/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the k-space methods of aooctkmap other than linear resampling
 * (spec sections 4 and 8), as tables built once per calibration and
 * geometry and shared by the CPU and CUDA paths.
 *
 * - `cubic`, `bspline`, `lanczos`: each output sample is a fixed weighted
 *   sum of a few consecutive input samples, an AooctKmapFir table (first
 *   index and `taps` weights per output).  Clamping and mirroring at the
 *   ends of the data region are folded into the weights, and the cubic
 *   B-spline's prefilter (a tridiagonal solve per A-line in the spec) is
 *   folded in too: its inverse decays as (2 - sqrt 3)^|d| = 0.268^|d|, so
 *   12 samples either side reproduce it to 1.4e-7, below float32 rounding.
 *   One gather kernel then does every mode, without a per-A-line solve.
 * - `nudft`, `nufft`: no resampling.  The positions s_j of the samples on
 *   the even-k grid, the dispersion weights and window at those positions,
 *   the NUDFT matrix, and the NUFFT's gridding matrix (sparse, one row per
 *   oversampled grid point, so that gridding is a gather, no atomics) and
 *   deapodisation factors.
 *
 * Everything is computed in double and stored as the kernels read it. */
#ifndef __AOOCT_KSPACE_H__
#define __AOOCT_KSPACE_H__

#include <glib.h>

#include "aooct-geometry.h"
#include "aooct-calib.h"
#include "aooct-window.h"
#include "aooct-kmap-table.h"

G_BEGIN_DECLS

/* aooctkmap's `interpolation` */
typedef enum
{
  AOOCT_INTERP_LINEAR,
  AOOCT_INTERP_CUBIC,
  AOOCT_INTERP_BSPLINE,
  AOOCT_INTERP_LANCZOS,
  AOOCT_INTERP_NUDFT,
  AOOCT_INTERP_NUFFT
} AooctInterp;

/* Half-width of the B-spline prefilter's truncated inverse, in samples. */
#define AOOCT_BSPLINE_PREFILTER_REACH 12

/* The most taps an AooctKmapFir has (bspline's): what a consumer of a
 * deferred FIR resampling allocates for (aooct-pending-meta.h). */
#define AOOCT_KMAP_FIR_MAX_TAPS (4 + 2 * AOOCT_BSPLINE_PREFILTER_REACH)

/* ---- cubic, bspline, lanczos ---------------------------------------- */

typedef struct
{
  gint samples;                 /* P2 */
  gint start, end;              /* j0, j1 */
  gint taps;                    /* weights per output sample */
  gint32 *first;                /* [samples]: first input index (j0..j1) */
  gfloat *weight;               /* [taps * samples]: weight[q * samples + i]
                                 * multiplies in[first[i] + q]; 0 in the
                                 * margins */
} AooctKmapFir;

/* The FIR table of @mode (cubic, bspline or lanczos) for the brackets of
 * @kmap (its index and frac_d: s_i = l + t of the spec). */
AooctKmapFir *aooct_kmap_fir_new (const AooctKmapTable * kmap,
    AooctInterp mode);
void aooct_kmap_fir_free (AooctKmapFir * fir);

/* The kernels of the spec, for references: Keys' cubic h, the cubic
 * B-spline beta and Lanczos-8 L. */
gdouble aooct_kernel_keys (gdouble x);
gdouble aooct_kernel_bspline (gdouble x);
gdouble aooct_kernel_lanczos8 (gdouble x);

/* ---- positions -------------------------------------------------------- */

/* s_j of spec section 8 for j = j0..j1 (j1 - j0 + 1 doubles, g_free):
 * s_j = j0 + (k_j - K0) (j1 - j0) / (K1 - K0), k_j = 2 pi / lambda(p_j). */
gdouble *aooct_kspace_positions_new (const AooctWavelength * cal,
    const AooctGeometry * geom, GError ** error);

/* The resampling table that leaves the data region where it is and zeroes
 * the margins (out[i] = z[i]: l = i, t = 0; at j1, l = j1 - 1, t = 1):
 * what aooctkmap does in nudft/nufft mode, through the linear path. */
AooctKmapTable *aooct_kmap_table_new_identity (const AooctGeometry * geom);

/* Dispersion weights (2 * samples floats) with u at the positions:
 * u_j = 2 (s_j - j0) / (j1 - j0) - 1; the margins get the weight 0 (their
 * samples are 0).  @positions: j1 - j0 + 1 values; @a: a2 .. a5. */
gfloat *aooct_disp_weights_new_at (const AooctGeometry * geom,
    const gdouble * positions, const gdouble a[AOOCT_DISP_N_COEFFS],
    GError ** error);

/* Window table (samples floats, 0 in the margins) at
 * t_j = (s_j - j0) / (j1 - j0); NULL for AOOCT_WINDOW_NONE.  @parameter:
 * aooctfft's window-parameter (0 = the window's default). */
gfloat *aooct_window_table_new_at (AooctWindow window, gdouble parameter,
    const AooctGeometry * geom, const gdouble * positions);

/* ---- NUDFT ------------------------------------------------------------ */

/* The matrix A[m][j - j0] = exp(-2 pi i m s_j / P2), m = 0..P2-1, as
 * P2 rows of (j1 - j0 + 1) interleaved complex floats (row-major).  On
 * full-range geometry (@geom->full_range) row m >= P2 - floor(P2/2) uses
 * the signed bin m - P2 in place of m (docs/fullrange.md). */
gfloat *aooct_nudft_matrix_new (const AooctGeometry * geom,
    const gdouble * positions);

/* ---- NUFFT ------------------------------------------------------------ */

typedef enum
{
  AOOCT_NUFFT_KAISER_BESSEL,
  AOOCT_NUFFT_GAUSSIAN
} AooctNufftKernel;

#define AOOCT_NUFFT_MIN_OVERSAMPLING 1.25
#define AOOCT_NUFFT_MAX_OVERSAMPLING 4.0
#define AOOCT_NUFFT_MIN_WIDTH 2
#define AOOCT_NUFFT_MAX_WIDTH 16
/* the spec's defaults (section 8), for aooctkmap and aooctcs alike */
#define AOOCT_NUFFT_DEFAULT_KERNEL AOOCT_NUFFT_KAISER_BESSEL
#define AOOCT_NUFFT_DEFAULT_OVERSAMPLING 2.0
#define AOOCT_NUFFT_DEFAULT_WIDTH 6

/* g(x) of the spec for width @w and oversampling @r, x in grid samples. */
gdouble aooct_nufft_kernel_value (AooctNufftKernel kernel, gdouble r,
    gint w, gdouble x);

typedef struct
{
  gint samples;                 /* P2 */
  gint start, end;              /* j0, j1 */
  gint grid;                    /* Q = R * P2, the oversampled grid */
  /* Gridding matrix, compressed rows: grid point n takes
   * sum over e in [row[n], row[n+1]) of weight[e] * c[col[e]] (complex
   * weight, interleaved; col an absolute sample index).  The weights hold
   * g(n - R s_j) and the phase exp(-2 pi i h s_j / P2), h = floor(P2/2),
   * which moves output bin m to grid frequency m - h in [-P2/2, P2/2).
   * On full-range spectra h = 0 and bin m is signed frequency m, or m - P2
   * for m >= P2 - h (the signed depth bins of section 9). */
  gint32 *row;                  /* [grid + 1] */
  gint32 *col;                  /* [row[grid]] */
  gfloat *weight;               /* [2 * row[grid]] */
  gint entries;                 /* row[grid] */
  /* X[m] = F[bin[m]] * deapod[m]: F the grid's forward FFT */
  gint32 *bin;                  /* [samples] */
  gfloat *deapod;               /* [samples]: 1 / ghat(f / Q), f bin m's frequency */
} AooctNufftPlan;

/* Fails (AOOCT_ERROR_SETTINGS) when R * P2 is not an integer or R, W are
 * outside their ranges. */
AooctNufftPlan *aooct_nufft_plan_new (const AooctGeometry * geom,
    const gdouble * positions, AooctNufftKernel kernel, gdouble r, gint w,
    GError ** error);
void aooct_nufft_plan_free (AooctNufftPlan * plan);

G_END_DECLS

#endif /* __AOOCT_KSPACE_H__ */
