/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctkmap's resampling table, the brackets of the linear
 * interpolation from the camera's pixels to even k (see
 * aooct-kmap-table.h; spec section 4). */
#include <math.h>

#include "aooct-kmap-table.h"
#include "aooct-error.h"

AooctKmapTable *
aooct_kmap_table_new (const AooctWavelength * cal, const AooctGeometry * g,
    GError ** error)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  const gint len = j1 - j0 + 1;
  AooctKmapTable *t;
  gdouble *lam, k0, k1;
  gint i, l, dir;

  g_return_val_if_fail (cal->n == g->raw_samples, NULL);
  g_return_val_if_fail (j1 > j0 && j1 < g->samples, NULL);

  /* sample wavelengths lambda_j = lambda(p_j), p_j = j/f - o (exact in
   * double: f is a power of two) */
  lam = g_new (gdouble, len);
  for (i = 0; i < len; i++)
    lam[i] = aooct_wavelength_at (cal,
        (gdouble) (i + j0) / g->pad_factor - g->pad_offset);
  dir = lam[len - 1] > lam[0] ? 1 : -1;
  for (i = 0; i + 1 < len; i++) {
    if ((lam[i + 1] - lam[i]) * dir <= 0.0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "the wavelength calibration is too flat to resample: lambda at "
          "raw pixel %.9g and %.9g are equal in double precision (%.17g nm)",
          (gdouble) (i + j0) / g->pad_factor - g->pad_offset,
          (gdouble) (i + 1 + j0) / g->pad_factor - g->pad_offset, lam[i]);
      g_free (lam);
      return NULL;
    }
  }

  t = g_new0 (AooctKmapTable, 1);
  t->samples = g->samples;
  t->start = j0;
  t->end = j1;
  t->index = g_new (gint32, g->samples);
  t->frac = g_new0 (gfloat, g->samples);
  t->frac_d = g_new0 (gdouble, g->samples);
  for (i = 0; i < g->samples; i++)
    t->index[i] = -1;

  k0 = 2.0 * G_PI / cal->lambda[0];
  k1 = 2.0 * G_PI / cal->lambda[cal->n - 1];
  /* lambda'_i moves in the same direction as lambda_j, so one walk finds
   * every bracket: advance l while lambda'_i has reached lambda_{l+1};
   * l stays in [j0, j1-1], which clamps a lambda'_i that rounding puts
   * just outside the data region (t is then a hair outside [0, 1]). */
  l = 0;
  for (i = j0; i <= j1; i++) {
    /* k'_i evaluated exactly as the spec writes it */
    gdouble lp = 2.0 * G_PI / (k0 + (i - j0) * (k1 - k0) / (j1 - j0)), frac;

    while (l < len - 2 && (lp - lam[l + 1]) * dir >= 0.0)
      l++;
    frac = (lp - lam[l]) / (lam[l + 1] - lam[l]);
    /* Rounding leaves t a hair outside [0, 1] at the ends.  A calibration
     * spanning many decades (found by fuzz/fuzz-coeffs.c: lambda(0) =
     * 8e-48 nm) makes k0 + (k1 - k0) cancel to 0, so lambda'_i = inf and
     * t = inf, which would put NaN into every A-line: refuse it. */
    if (!isfinite (frac) || frac < -0.5 || frac > 1.5) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "the wavelength calibration spans too wide a range to resample in "
          "double precision (lambda from %.9g to %.9g nm): the k grid is "
          "not finite or leaves the calibration at sample %d",
          cal->lambda[0], cal->lambda[cal->n - 1], i);
      aooct_kmap_table_free (t);
      g_free (lam);
      return NULL;
    }
    t->index[i] = l + j0;
    t->frac_d[i] = frac;
    t->frac[i] = (gfloat) frac;
  }
  g_free (lam);
  return t;
}

void
aooct_kmap_table_free (AooctKmapTable * t)
{
  if (t == NULL)
    return;
  g_free (t->index);
  g_free (t->frac);
  g_free (t->frac_d);
  g_free (t);
}
