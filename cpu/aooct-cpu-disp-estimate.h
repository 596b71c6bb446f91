/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * aooct CPU core: finding the dispersion coefficients a2, a3 of aooctdisp
 * (spec section 5) from the data, by maximising the sharpness of the
 * depth profiles they give.
 *
 * Metric: for a subset of A-lines (evenly spaced, at most max_alines), the
 * spectrum x is multiplied by exp (j (a2 u^2 + a3 u^3)) as aooctdisp does,
 * transformed by the FFT of P2 points as aooctfft does (no window), and
 * the intensities I(z) = |X(z)|^2 of the depth bins z in
 * [P1/64, P1/2) (the displayed depth range without the region next to
 * zero delay, where DC residue and the sample's autocorrelation sit) give
 *   S = mean over A-lines of  sum_z I(z)^2 / (sum_z I(z))^2,
 * the inverse participation ratio of each profile: 1 for all energy in
 * one bin, 1/(number of bins) for energy spread evenly.  Dispersion
 * spreads each reflector over many bins, so compensation maximises S;
 * normalising per A-line makes bright and dark A-lines count alike, and
 * it does not depend on the data's scale.  Only positive depths are used:
 * the mirror image at negative depths (of real spectra) has the opposite
 * dispersion, so S has one maximum, not two.
 *
 * Search (as OCTproZ's estimator and the literature: one coefficient
 * after the other), in coordinates in which the two hardly interact:
 * c2 = a2 + alpha a3 and c3 = a3, where alpha u^2 is the part of u^3
 * along u^2 in the inner product weighted by the spectra's mean power
 * (with the spectrum off centre in u, a cubic phase is mostly a quadratic
 * one, and S a diagonal valley in (a2, a3) where a2 and a3 searched in
 * turn stop short of the top).  c2 on a grid of step 1.5 rad over
 * [-a2_max, a2_max] with c3 = 0, golden-section refinement within one
 * step; then c3 on a grid of step 1 rad over [-a3_max, a3_max] and its
 * refinement; then c2 and c3 refined in turn, each within half a grid
 * step, to 0.01 rad, until neither moves (at most 4 rounds).  About 190
 * to 270 evaluations of S.  Measured accuracy: docs/howto.md and
 * docs/notes/dispersion-accuracy.md. */
#ifndef __AOOCT_CPU_DISP_ESTIMATE_H__
#define __AOOCT_CPU_DISP_ESTIMATE_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

typedef struct
{
  gdouble a2_max, a3_max;       /* search ranges, radians (+-) */
  gint max_alines;              /* A-lines used (evenly spaced) */
} AooctDispEstimateParams;

#define AOOCT_DISP_ESTIMATE_A2_MAX 60.0
#define AOOCT_DISP_ESTIMATE_A3_MAX 30.0
#define AOOCT_DISP_ESTIMATE_ALINES 64

typedef struct
{
  gdouble a2, a3;               /* the estimate */
  gdouble sharpness;            /* S there */
  gdouble sharpness_none;       /* S at a2 = a3 = 0 */
  gint evaluations;             /* of S */
  gint alines;                  /* used */
} AooctDispEstimate;

void aooct_disp_estimate_params_init (AooctDispEstimateParams * p);

/* Estimates a2, a3 from @rows real spectra, k-linear on @g's grid (P2 =
 * g->samples floats each, contiguous: what aooctdisp gets).  Fails only
 * for a geometry without a data region or out of memory. */
gboolean aooct_cpu_disp_estimate (const gfloat * spectra, gint rows,
    const AooctGeometry * g, const AooctDispEstimateParams * p,
    AooctDispEstimate * result, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CPU_DISP_ESTIMATE_H__ */
