/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-calibrate's mathematics: the k-linearisation and the dispersion
 * phase from mirror spectra (fringes of a mirror at two or more depths),
 * in double, on the camera's N pixels.  No GStreamer, no FFT library (a
 * direct DFT: N is a camera's pixel count and this runs once).
 *
 * The model (tools/aooct-calibrate.c's --help says it to users): a mirror
 * at signed delay z gives the fringe cos(2 k(p) z + Phi(k(p))), Phi the
 * dispersion mismatch of the arms, the same for every mirror.  The
 * analytic signal of the band around the mirror's fringe frequency (the
 * positive-frequency half, whose phase increases along the pixels) has
 * the unwrapped phase
 *   phi_i(p) = |2 z_i| k~(p) + s_i Phi(p) + c_i,
 * with s_i = +1 for a mirror on one side of zero delay and -1 on the
 * other, and k~ = +-k (increasing along the pixels).  So for two mirrors
 * on either side the sum phi_1 + phi_2 is (|2 z_1| + |2 z_2|) k~ + const:
 * linear in k, with no dispersion, and the half difference less its
 * part linear in k is Phi; for two mirrors on the same side the
 * difference is linear in k.  (Attendu et al., J. Biomed. Opt. 24(5)
 * 2019; the owners of tests/data/pdms-sdoct do the same.) */
#ifndef __AOOCT_KCAL_H__
#define __AOOCT_KCAL_H__

#include <glib.h>

G_BEGIN_DECLS

#define AOOCT_KCAL_MAX_ORDER 9

/* One mirror's fringe on the N pixels. */
typedef struct
{
  gint peak;                    /* fringe frequency, cycles per N pixels */
  gint band_lo, band_hi;        /* the DFT bins kept, inclusive */
  gdouble *phase;               /* N: unwrapped analytic phase (rad) */
  gdouble *envelope;            /* N: |analytic signal| */
} AooctKcalFringe;

/* The fringe of @x (N values, background already subtracted), less its
 * mean and tapered (Tukey window, alpha 0.5): the strongest DFT bin in
 * [@min_bin, N/2 - 1], the band around it down to -30 dB, at least
 * +-peak/2 (within peak/4 .. 2 peak), the
 * analytic signal of that band (its envelope includes the taper), its
 * unwrapped phase (from the pixel of the largest envelope outward).  FALSE with @error
 * when there is no fringe there (a peak below @min_bin). */
gboolean aooct_kcal_fringe (const gdouble * x, gint n, gint min_bin,
    AooctKcalFringe * fr, GError ** error);
void aooct_kcal_fringe_clear (AooctKcalFringe * fr);

/* Weighted least squares: the polynomial c[0] + c[1] x + ... + c[order]
 * x^order through (x[i], y[i]) with weights w[i] (the squared residuals
 * are weighted by w).  FALSE when singular. */
gboolean aooct_kcal_polyfit (const gdouble * x, const gdouble * y,
    const gdouble * w, gint n, gint order, gdouble * c);
gdouble aooct_kcal_polyval (const gdouble * c, gint order, gdouble x);

/* sqrt (sum w r^2 / sum w) of r = y - poly(x). */
gdouble aooct_kcal_rms (const gdouble * x, const gdouble * y,
    const gdouble * w, gint n, const gdouble * c, gint order);

/* The position q (fractional pixel, 0 .. n-1) where the increasing table
 * @t (n values) takes the value @v, by linear interpolation; clamped. */
gdouble aooct_kcal_invert (const gdouble * t, gint n, gdouble v);

/* The full width at half maximum (in DFT bins of length n: cycles per n
 * samples) of |DFT|^2 of the complex signal @re + j @im (n values; @im
 * may be NULL) around its largest value in bins [@lo, @hi], evaluated
 * every 1/@over bin; the peak position (bins) in @peak. */
gdouble aooct_kcal_fwhm (const gdouble * re, const gdouble * im, gint n,
    gint lo, gint hi, gint over, gdouble * peak);

G_END_DECLS

#endif /* __AOOCT_KCAL_H__ */
