/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of complex full-range OCT (spec section
 * 9), on top of aooct-ref64.h: the lateral analytic signal, complex
 * padding, complex resampling and dispersion, and the signed crop.
 *
 * Written from the spec alone, like aooct-ref64.c: the lateral transform
 * is the spec's DFT pair evaluated with FFTW's double complex FFT over a
 * gathered column (no strides, no real-input shortcut, no conjugation
 * trick), the padding is the spec's bin placement, and the resampling of
 * a complex spectrum is aooct_ref_kmap() on the real and the imaginary
 * parts separately (so any interpolation mode aooct_ref_kmap() knows
 * applies to complex spectra the same way). */
#ifndef __AOOCT_REF64_FULLRANGE_H__
#define __AOOCT_REF64_FULLRANGE_H__

#include "aooct-ref64.h"

G_BEGIN_DECLS

typedef enum
{
  AOOCT_REF_SIDEBAND_UPPER,
  AOOCT_REF_SIDEBAND_LOWER
} AooctRefSideband;

/* Section 9, first bullet, on one B-scan: @x M x N real (after DC
 * subtraction) -> @a M x N complex (2 doubles per sample). */
void aooct_ref_fullrange (AooctRefSideband sideband, int m, int n,
    const double *x, double *a);

/* Section 9's aooctpad on one complex A-line: @x N complex -> @z P2
 * complex (margins 0). */
void aooct_ref_pad_complex (const AooctRefGrid * g, const double *x,
    double *z);

/* Section 4 on a complex A-line, re and im alike: @z P2 complex -> @out
 * P2 complex. */
void aooct_ref_kmap_complex (const AooctRefParams * p, const AooctRefGrid * g,
    const double *z, double *out);

/* Section 5 on a complex A-line: @z P2 complex times the weights -> @c. */
void aooct_ref_disp_complex (const AooctRefParams * p,
    const AooctRefGrid * g, const double *z, double *c);

/* Section 9's signed crop of @p on @g: crop_start = crop_end = 0 ->
 * [-floor (P1/2), floor (P1/2)); crop_end 0 -> floor (P1/2); must lie in
 * [-floor (P2/2), P2 - floor (P2/2)] with start < end. */
gboolean aooct_ref_crop_signed (const AooctRefParams * p,
    const AooctRefGrid * g, int *start, int *end, GError ** error);

/* Sections 1 to 6 with aooctfullrange after aooctdcsub: @raw -> @depth
 * (bscans x M A-lines of P2 complex samples). */
gboolean aooct_ref_fullrange_depth (const AooctRefParams * p,
    AooctRefSideband sideband, const guint16 * raw, double *depth,
    GError ** error);

/* Section 7 with the signed crop on one B-scan of full-range depth data
 * (M A-lines of P2 complex samples, contiguous): (end - start) rows of M
 * pixels, row r = signed bin start + r. */
void aooct_ref_norm_signed (const AooctRefParams * p, const AooctRefGrid * g,
    const double *depth, void *out, size_t out_stride);

/* The whole full-range chain: @raw -> image of bscans x (crop rows) rows. */
gboolean aooct_ref_fullrange_process (const AooctRefParams * p,
    AooctRefSideband sideband, const guint16 * raw, void *out,
    size_t out_stride, GError ** error);

G_END_DECLS

#endif /* __AOOCT_REF64_FULLRANGE_H__ */
