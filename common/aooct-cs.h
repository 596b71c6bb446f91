/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: compressive sensing (spec section 10, aooctcs), the part shared by
 * the CPU and CUDA cores and by the element: the mask (read from a file,
 * or drawn with variable density and written out), the positions s_n and
 * dispersion weights of the measured pixels, and the operator tables.
 *
 * The operator pair of section 10,
 *   (A x)[n]   = P^-1/2 sum_m x[m] exp(+2 pi i m s_n / P),
 *   (A^H r)[m] = P^-1/2 sum_n r[n] exp(-2 pi i m s_n / P),
 * is, up to the scale, section 8's non-uniform transform (A^H) and its
 * adjoint (A) for U samples at the positions s_n on a grid of P bins.
 * aooct_cs_operator_geometry() describes that transform as an
 * AooctGeometry (data region 0..U-1, P samples), so that A^H is exactly
 * what the nonuniform cores of aooctfft compute (the NUDFT matrix and the
 * NUFFT plan of aooct-kspace.c), and A is the adjoint of the same tables:
 * the conjugate NUDFT matrix, or for the NUFFT the deapodisation, the
 * inverse FFT of the oversampled grid and the transposed gridding matrix
 * (AooctCsInterp).  Using the exact adjoint of the approximate A^H keeps
 * the SpaRSA iteration a descent method for the operator it runs.
 *
 * Everything is computed in double and stored as the kernels read it. */
#ifndef __AOOCT_CS_H__
#define __AOOCT_CS_H__

#include <glib.h>

#include "aooct-geometry.h"
#include "aooct-calib.h"
#include "aooct-kspace.h"

G_BEGIN_DECLS

typedef enum
{
  AOOCT_CS_OPERATOR_NUFFT,
  AOOCT_CS_OPERATOR_NUDFT
} AooctCsOperator;

#define AOOCT_CS_DEFAULT_TAU 0.01
#define AOOCT_CS_DEFAULT_ITERATIONS 15
#define AOOCT_CS_MAX_ITERATIONS 1000
/* the step-size clamp of section 10 */
#define AOOCT_CS_ALPHA_MIN 1e-30
#define AOOCT_CS_ALPHA_MAX 1e30

/* What aooctcs was asked for (its properties). */
typedef struct
{
  const gchar *mask_file;       /* or NULL / "" */
  gdouble mask_fraction;        /* used without mask_file */
  guint mask_seed;
  const gchar *mask_output_file;        /* or NULL / "" */
  const gchar *wavelength_file;
  const gchar *wavelength_coeffs;
  gint camera_pixels;           /* N for coefficients; 0 = input width */
  gdouble a2, a3;
  gint size;                    /* P; 0 = next power of two >= N */
  gdouble tau;
  gint iterations;
  AooctCsOperator op;
  AooctNufftKernel nufft_kernel;
  gdouble nufft_oversampling;
  gint nufft_width;
} AooctCsSettings;

void aooct_cs_settings_init (AooctCsSettings * s);

/* One negotiated configuration: everything the cores need. */
typedef struct
{
  gint n;                       /* N: camera pixels (calibration length) */
  gint u;                       /* U: measured pixels */
  gint p;                       /* P: depth bins */
  gint in_width;                /* N (pick the mask's pixels) or U */
  gint32 *pixel;                /* [u] mask, strictly increasing */
  gdouble *s;                   /* [u] positions s_n */
  gfloat *disp;                 /* [2u] exp(i (a2 u_n^2 + a3 u_n^3)) */
  gdouble k_span;               /* |K1 - K0| in rad/um (depth scale) */
  gint wavelength_direction;    /* +1 increasing along the pixels, -1 not */
  gdouble tau;
  gint iterations;
  AooctCsOperator op;
  AooctNufftKernel nufft_kernel;
  gdouble nufft_oversampling;
  gint nufft_width;
} AooctCs;

/* Builds the configuration for input spectra @in_width samples wide:
 * calibration (N = the wavelength file's length, else camera-pixels, else
 * @in_width), mask (file, or drawn and written to mask-output-file), P,
 * positions and weights.  Errors (AOOCT_ERROR_SETTINGS) say which
 * property or file is wrong and what was expected. */
AooctCs *aooct_cs_new (const AooctCsSettings * set, gint in_width,
    GError ** error);
void aooct_cs_free (AooctCs * cs);

/* The output geometry (depth domain, complex, P bins, P1 = P2 = P, f = 1,
 * o = 0, N raw samples) for input geometry @in. */
void aooct_cs_output_geometry (const AooctCs * cs, const AooctGeometry * in,
    AooctGeometry * out);

/* ---- mask ------------------------------------------------------------- */

/* Reads a mask file: U records of one integer each, strictly increasing,
 * in [0, n-1]; the error names the file, the line and the rule broken. */
gint32 *aooct_cs_mask_read (const gchar * path, gint n, gint * u,
    GError ** error);

/* Checks that @pixel holds @u strictly increasing indices in [0, n-1]. */
gboolean aooct_cs_mask_check (const gint32 * pixel, gint u, gint n,
    const gchar * what, GError ** error);

/* The drawn mask: U = max (2, round (fraction * N)) pixels (all of them
 * for fraction 1), chosen without replacement with the probability
 * density rho(p) = 1 - 0.75 |2 p / (N - 1) - 1|^2 (the centre of the
 * spectrum, where the source is brightest, four times as dense as the
 * ends): each pixel draws key = v^(1 / rho(p)), v uniform in (0, 1) from
 * GLib's Mersenne twister seeded with @seed, and the U largest keys win
 * (Efraimidis and Spirakis' weighted sampling).  Fails for a fraction
 * outside (0, 1]. */
gint32 *aooct_cs_mask_draw (gint n, gdouble fraction, guint seed, gint * u,
    GError ** error);

/* Writes @u indices, one per line, with a comment header. */
gboolean aooct_cs_mask_write (const gchar * path, const gint32 * pixel,
    gint u, gint n, const gchar * origin, GError ** error);

/* ---- operator --------------------------------------------------------- */

/* The geometry of the non-uniform transform behind A^H: P samples, the U
 * measured samples as the data region 0..U-1, k-sampling nudft or nufft
 * with the kernel, R and W of @cs. */
void aooct_cs_operator_geometry (const AooctCs * cs, AooctGeometry * g);

/* A for the NUFFT: the adjoint of @plan (AooctNufftPlan of the operator
 * geometry).  Sample n of A x is sum over e in [row[n], row[n+1]) of
 * weight[e] * G[point[e]], G the inverse FFT of the grid that holds
 * x[m] deapod[m] at plan->bin[m] (and 0 elsewhere: bin_of_point[k] = m,
 * or -1).  weight is the conjugate of the plan's gridding weight. */
typedef struct
{
  gint samples;                 /* U */
  gint grid;                    /* Q */
  gint32 *row;                  /* [U + 1] */
  gint32 *point;                /* [entries] */
  gfloat *weight;               /* [2 * entries] */
  gint entries;
  gint32 *bin_of_point;         /* [Q]: output bin m at grid point k, or -1 */
} AooctCsInterp;

AooctCsInterp *aooct_cs_interp_new (const AooctNufftPlan * plan, gint u);
void aooct_cs_interp_free (AooctCsInterp * in);

G_END_DECLS

#endif /* __AOOCT_CS_H__ */
