/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: spectral windows (see aooct-window.h). */
#include <math.h>

#include "aooct-window.h"

gdouble
aooct_window_parameter (AooctWindow window, gdouble parameter)
{
  switch (window) {
    case AOOCT_WINDOW_GAUSSIAN:
      return parameter != 0 ? parameter : AOOCT_WINDOW_GAUSSIAN_S;
    case AOOCT_WINDOW_TUKEY:
      return parameter != 0 ? parameter : AOOCT_WINDOW_TUKEY_ALPHA;
    case AOOCT_WINDOW_KAISER:
      return parameter != 0 ? parameter : AOOCT_WINDOW_KAISER_BETA;
    default:
      return 0;
  }
}

gboolean
aooct_window_parameter_valid (AooctWindow window, gdouble parameter,
    const gchar ** what)
{
  const gchar *why = NULL;

  if (!isfinite (parameter))
    why = "a finite number";
  else if (window == AOOCT_WINDOW_GAUSSIAN && parameter < 0)
    why = "a width s > 0 for gaussian (0 = 0.4)";
  else if (window == AOOCT_WINDOW_TUKEY && (parameter < 0 || parameter > 1))
    why = "an alpha in [0, 1] for tukey (0 = 0.5)";
  else if (window == AOOCT_WINDOW_KAISER && (parameter < 0 || parameter > 700))
    why = "a beta in [0, 700] for kaiser (0 = 8)";
  if (what)
    *what = why;
  return why == NULL;
}

/* Power series sum (x/2)^2k / (k!)^2: every term positive, so it converges
 * to full double precision without cancellation for the betas a window
 * uses (terms peak near k = x/2 and fall off fast after). */
gdouble
aooct_bessel_i0 (gdouble x)
{
  gdouble q = 0.25 * x * x, term = 1.0, sum = 1.0;
  gint k;

  for (k = 1; k < 1000; k++) {
    term *= q / ((gdouble) k * k);
    sum += term;
    if (term < sum * 1e-17)
      break;
  }
  return sum;
}

gdouble
aooct_window_eval (AooctWindow window, gdouble parameter, gdouble t)
{
  gdouble p = aooct_window_parameter (window, parameter);

  if (window == AOOCT_WINDOW_NONE)
    return 1.0;
  switch (window) {
    case AOOCT_WINDOW_HANN:
      return 0.5 - 0.5 * cos (2.0 * G_PI * t);
    case AOOCT_WINDOW_HAMMING:
      return 0.54 - 0.46 * cos (2.0 * G_PI * t);
    case AOOCT_WINDOW_BLACKMAN:
      return 0.42 - 0.5 * cos (2.0 * G_PI * t) + 0.08 * cos (4.0 * G_PI * t);
    case AOOCT_WINDOW_GAUSSIAN:
    {
      gdouble u = (2.0 * t - 1.0) / p;
      return exp (-0.5 * u * u);
    }
    case AOOCT_WINDOW_TUKEY:
      /* flat top between two half Hann tapers of width alpha/2 each */
      if (t < p / 2.0)
        return 0.5 - 0.5 * cos (2.0 * G_PI * t / p);
      if (t > 1.0 - p / 2.0)
        return 0.5 - 0.5 * cos (2.0 * G_PI * (1.0 - t) / p);
      return 1.0;
    case AOOCT_WINDOW_KAISER:
    {
      gdouble u = 2.0 * t - 1.0;
      return aooct_bessel_i0 (p * sqrt (MAX (0.0, 1.0 - u * u))) /
          aooct_bessel_i0 (p);
    }
    default:
      return 1.0;
  }
}

gfloat *
aooct_window_table_new_full (AooctWindow window, gdouble parameter,
    gint samples, gint j0, gint j1)
{
  gfloat *table;
  gint i;

  g_return_val_if_fail (j0 >= 0 && j0 < j1 && j1 < samples, NULL);

  if (window == AOOCT_WINDOW_NONE)
    return NULL;
  table = g_new0 (gfloat, samples);
  for (i = j0; i <= j1; i++)
    table[i] = (gfloat) aooct_window_eval (window, parameter,
        (gdouble) (i - j0) / (gdouble) (j1 - j0));
  return table;
}

gfloat *
aooct_window_table_new (AooctWindow window, gint samples, gint j0, gint j1)
{
  return aooct_window_table_new_full (window, 0, samples, j0, j1);
}
