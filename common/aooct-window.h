/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: spectral windows (spec section 6).
 *
 * A window spans the data region j0..j1 of an A-line, t = (i - j0) /
 * (j1 - j0) in [0, 1], and is 0 in the margins, so that it tapers the
 * measured spectrum whatever the padding.  aooct_window_eval() is the
 * window at any (also fractional) t, for steps that evaluate it between
 * samples; the table is computed from it in double and stored as float;
 * the CPU core multiplies by it and the CUDA path uploads the same table,
 * so both paths apply identical weights. */
#ifndef __AOOCT_WINDOW_H__
#define __AOOCT_WINDOW_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AOOCT_WINDOW_NONE,
  AOOCT_WINDOW_HANN,
  AOOCT_WINDOW_HAMMING,
  AOOCT_WINDOW_BLACKMAN,
  AOOCT_WINDOW_GAUSSIAN,
  AOOCT_WINDOW_TUKEY,
  AOOCT_WINDOW_KAISER
} AooctWindow;

/* The defaults that window-parameter 0 stands for (spec section 6) */
#define AOOCT_WINDOW_GAUSSIAN_S 0.4
#define AOOCT_WINDOW_TUKEY_ALPHA 0.5
#define AOOCT_WINDOW_KAISER_BETA 8.0

/* The parameter @window uses for @parameter: the default for 0, else
 * @parameter (Gaussian s, Tukey alpha, Kaiser beta; ignored by the
 * others, which return 0). */
gdouble aooct_window_parameter (AooctWindow window, gdouble parameter);

/* FALSE, with a message in @what (static), when @parameter is not valid
 * for @window: Gaussian s > 0, Tukey alpha in [0, 1], Kaiser beta >= 0 (0
 * is the default for each; beta at most 700, where I0 overflows). */
gboolean aooct_window_parameter_valid (AooctWindow window, gdouble parameter,
    const gchar ** what);

/* The window at t (1 for AOOCT_WINDOW_NONE), @parameter as
 * window-parameter (0 = the default).  The formula is evaluated as it
 * stands for any t (a sample position a fraction outside [0, 1] gets its
 * continuation); the tables give 0 outside the data region. */
gdouble aooct_window_eval (AooctWindow window, gdouble parameter, gdouble t);

/* The modified Bessel function of the first kind, order 0 (Kaiser). */
gdouble aooct_bessel_i0 (gdouble x);

/* A new table of @samples floats (g_free): the window over j0..j1
 * (0 <= j0 < j1 < samples), 0 elsewhere.  NULL for AOOCT_WINDOW_NONE:
 * no window means the samples are used as they are, margins included. */
gfloat *aooct_window_table_new_full (AooctWindow window, gdouble parameter,
    gint samples, gint j0, gint j1);

/* The same with the default parameter. */
gfloat *aooct_window_table_new (AooctWindow window, gint samples, gint j0,
    gint j1);

G_END_DECLS

#endif /* __AOOCT_WINDOW_H__ */
