/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 10 (aooctcs): SpaRSA with
 * the exact sums for A and A^H, written from the spec alone (it calls none
 * of the float32 code). */
#ifndef __AOOCT_REF64_CS_H__
#define __AOOCT_REF64_CS_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct _AooctRefCs AooctRefCs;

/* @lambda: the N pixel wavelengths (nm); @pixel: the U measured pixels;
 * P depth bins; a2, a3 as aooctcs's. */
AooctRefCs *aooct_ref_cs_new (int n, const double *lambda, const int *pixel,
    int u, int p, double a2, double a3);

/* One A-line: @d the U DC-subtracted measured values (mask order) ->
 * @x the P complex bins (2 P doubles) after @iterations of SpaRSA with
 * lambda_r = @tau max |A^H y|. */
void aooct_ref_cs_run (const AooctRefCs * cs, const double *d, double tau,
    int iterations, double *x);

/* y[n] of the spec (2 U doubles) for the same @d, and (A x)[n]. */
void aooct_ref_cs_measurement (const AooctRefCs * cs, const double *d,
    double *y);
void aooct_ref_cs_forward (const AooctRefCs * cs, const double *x,
    double *ax);

/* The least-squares solution of A x = y (2 P doubles) by @iterations of
 * conjugate gradients on the normal equations A^H A x = A^H y (CGNR),
 * stopping early once the normal residual is 1e-14 of its start. */
void aooct_ref_cs_least_squares (const AooctRefCs * cs, const double *d,
    int iterations, double *x);

void aooct_ref_cs_free (AooctRefCs * cs);

G_END_DECLS

#endif /* __AOOCT_REF64_CS_H__ */
