/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 13's aooctregister,
 * written from the spec alone: the integer correlation and the fine grid
 * as the spec's sums evaluated directly (no FFT), the apply as its two
 * sums (the spectrum of each A-line by an inverse DFT, then the shifted
 * DFT; the lateral DFT and its shifted synthesis). */
#ifndef __AOOCT_REF64_REGISTER_H__
#define __AOOCT_REF64_REGISTER_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int p2, m;                    /* bins per A-line, A-lines */
  int crop_start, rows;         /* resolved crop (signed) */
  int max_dz, max_dx;           /* resolved limits */
  int upsample;
  gboolean previous;            /* reference=previous */
} AooctRefRegisterParams;

/* One B-scan's estimate */
typedef struct
{
  int qz, qx;                   /* 1/U pixel */
  double c, rho;
  gboolean rejected;
  /* (best - second best) / |best| of the integer candidates and of the
   * fine grid: the Accuracy paragraph's near-ties */
  double int_gap, fine_gap;
} AooctRefRegisterEstimate;

typedef struct _AooctRefRegister AooctRefRegister;

AooctRefRegister *aooct_ref_register_new (const AooctRefRegisterParams * p);
void aooct_ref_register_free (AooctRefRegister * r);
void aooct_ref_register_reset (AooctRefRegister * r);

/* B-scan @x (M x P2 complex doubles, interleaved) registered into @out
 * (the same), its estimate in @e (the reference itself: 0 0, rho 1). */
void aooct_ref_register_bscan (AooctRefRegister * r, double min_correlation,
    const double *x, double *out, AooctRefRegisterEstimate * e);

/* Makes @x (M x P2 complex doubles) the reference, as the reference pass
 * or reference=previous would (for a test that checks each estimate
 * against the reference the element itself had: the float64 apply of
 * its own last shift). */
void aooct_ref_register_set_reference (AooctRefRegister * r,
    const double *x);

/* The apply alone: @x moved back by (qz, qx) / upsample */
void aooct_ref_register_apply (const AooctRefRegisterParams * p,
    const double *x, double *out, int qz, int qx);

G_END_DECLS
#endif /* __AOOCT_REF64_REGISTER_H__ */
