/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: calibration math shared by the CPU and CUDA paths.
 *
 * - the wavelength calibration lambda(p) of raw pixel p (spec section 4),
 *   from a text file of N values or from polynomial coefficients, with the
 *   spec's validation;
 * - the kmap table: for every sample i of the P2 grid, the bracket index l
 *   and the interpolation fraction t of the lambda-to-k resampling
 *   out[i] = z[l] + (z[l+1] - z[l]) * t, found once per calibration;
 * - the dispersion weights w[i] (spec section 5), interleaved complex float.
 *
 * Everything is computed in double and stored as what the kernels read
 * (int32 / float), so that the CPU core, the CUDA kernels and a float64
 * reference use the same numbers.  No GStreamer here. */
#ifndef __AOOCT_CALIB_H__
#define __AOOCT_CALIB_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

#define AOOCT_CALIB_MAX_COEFFS 4

/* lambda(p) for raw pixels 0..n-1, in nm. */
typedef struct
{
  gint n;                       /* N, raw samples */
  gdouble *lambda;              /* N values: lambda at each raw pixel */
  /* polynomial form (n_coeffs > 0) or tabulated form (n_coeffs == 0,
   * linear interpolation between neighbouring pixels) */
  gint n_coeffs;
  gdouble coeffs[AOOCT_CALIB_MAX_COEFFS];
} AooctWavelength;

/* Parses "c0,c1[,c2[,c3]]" (C locale, spaces around numbers allowed) into
 * @coeffs (unused ones set to 0); fails (AOOCT_ERROR_SETTINGS) on an empty
 * or blank string, an empty, non-numeric or non-finite coefficient or more
 * than four of them.  Messages start with "wavelength-coeffs": aooctkmap and
 * aooctsrc both call the property so. */
gboolean aooct_calib_parse_coeffs (const gchar * str,
    gdouble coeffs[AOOCT_CALIB_MAX_COEFFS], gint * n_coeffs, GError ** error);

/* Checks that c0 + c1 p + c2 p^2 + c3 p^3 is finite, positive and strictly
 * monotonic on the whole interval [0, n-1] (analytically: the derivative's
 * roots inside the interval split it into pieces of constant slope sign,
 * whose end values must be strictly ordered one way). */
gboolean aooct_calib_check_poly (const gdouble * coeffs, gint n_coeffs,
    gint n, GError ** error);

/* Wavelengths outside this range (nm) are taken for a unit mistake: no
 * OCT light source is below 100 nm or above 10 um. */
#define AOOCT_CALIB_MIN_NM 100.0
#define AOOCT_CALIB_MAX_NM 10000.0

/* aooct_calib_check_poly(), then lambda within AOOCT_CALIB_MIN_NM ..
 * AOOCT_CALIB_MAX_NM ("metres? the coefficients are in nm"); when either
 * fails and the list reversed would pass both, the message says so (a
 * list in numpy.polyval's descending order).  What aooctkmap checks. */
gboolean aooct_calib_check_coeffs (const gdouble * coeffs, gint n_coeffs,
    gint n, GError ** error);

/* c0 + c1 p + c2 p^2 + c3 p^3 (the first @n_coeffs terms), by Horner. */
gdouble aooct_calib_poly_eval (const gdouble * coeffs, gint n_coeffs,
    gdouble p);

AooctWavelength *aooct_wavelength_new_from_coeffs (const gchar * str, gint n,
    GError ** error);

/* Reads exactly @n finite, positive, strictly monotonic values from @path
 * (errors name path:line, AOOCT_ERROR_FILE). */
AooctWavelength *aooct_wavelength_new_from_file (const gchar * path, gint n,
    GError ** error);

/* Exactly one of @file / @coeffs must be non-empty (NULL and "" mean not
 * given); otherwise AOOCT_ERROR_SETTINGS naming both properties. */
AooctWavelength *aooct_wavelength_new (const gchar * file,
    const gchar * coeffs, gint n, GError ** error);

/* lambda at fractional raw pixel p in [0, n-1]. */
gdouble aooct_wavelength_at (const AooctWavelength * cal, gdouble p);

void aooct_wavelength_free (AooctWavelength * cal);


/* The dispersion polynomial's coefficients a2 .. a5 (radians at u = +-1):
 * phi(u) = a2 u^2 + a3 u^3 + a4 u^4 + a5 u^5 (spec section 5). */
#define AOOCT_DISP_N_COEFFS 4

/* Where the records of a phase file sit (aooctdisp phase-file-grid). */
typedef enum
{
  AOOCT_DISP_GRID_AUTO,         /* P2 records: padded; N records: camera */
  AOOCT_DISP_GRID_PADDED,       /* one record per sample of the P2 grid */
  AOOCT_DISP_GRID_CAMERA        /* one record per raw pixel of the data
                                 * region (u = 2 n / (N - 1) - 1),
                                 * interpolated onto the P2 grid */
} AooctDispGrid;

/* Dispersion weights: 2 * geom->samples floats, re/im interleaved.  From
 * @phase_file when non-empty (records of phi or re im on @grid; a non-zero
 * coefficient then is an AOOCT_ERROR_SETTINGS error), else
 * exp(j phi(u_i)) with u_i = 2 (i - j0) / (j1 - j0) - 1 and @a = a2 .. a5
 * (all ones when every coefficient is 0).  The coefficients must be
 * finite.
 *
 * A camera-grid file of N records is interpolated onto the data region:
 * sample i sits at record position (i - j0) / f; phases linearly along the
 * shorter arc between neighbouring records (so a wrapped phase file reads
 * as the unwrapped one), re im records by magnitude and phase alike; the
 * margins take the end records' weights (their samples are 0). */
gfloat *aooct_disp_weights_new (const AooctGeometry * geom,
    const gchar * phase_file, AooctDispGrid grid,
    const gdouble a[AOOCT_DISP_N_COEFFS], GError ** error);

/* FALSE with an AOOCT_ERROR_SETTINGS error naming a2 .. a5 when one of
 * them is not finite. */
gboolean aooct_disp_check_coeffs (const gdouble a[AOOCT_DISP_N_COEFFS],
    GError ** error);

/* u_i of the spec, for tests and references. */
static inline gdouble
aooct_disp_u (const AooctGeometry * g, gint i)
{
  gint j0 = aooct_geometry_data_start (g), j1 = aooct_geometry_data_end (g);

  return 2.0 * (i - j0) / (gdouble) (j1 - j0) - 1.0;
}

/* The dispersion phase a2 u^2 + a3 u^3 (rad) of the spec, section 5; the
 * synthetic camera applies the same expression, so aooctdisp cancels it
 * to the last bit. */
static inline gdouble
aooct_disp_phase (gdouble a2, gdouble a3, gdouble u)
{
  return a2 * u * u + a3 * u * u * u;
}

/* The whole polynomial, a = a2 .. a5: the orders above 3 are added to
 * aooct_disp_phase() only when set, so that with a4 = a5 = 0 it is that
 * phase to the last bit (the sign of a zero included). */
static inline gdouble
aooct_disp_phase_poly (const gdouble a[AOOCT_DISP_N_COEFFS], gdouble u)
{
  gdouble phi = aooct_disp_phase (a[0], a[1], u), u4 = u * u * u * u;

  if (a[2] != 0.0 || a[3] != 0.0)
    phi += a[2] * u4 + a[3] * u4 * u;
  return phi;
}

G_END_DECLS

#endif /* __AOOCT_CALIB_H__ */
