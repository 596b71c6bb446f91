/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct fuzz target: wavelength-coeffs parsing and validation
 * (aooct_calib_parse_coeffs, aooct_calib_check_poly) and the kmap table
 * built from an accepted polynomial.
 *
 * Input: bytes 0-1 pick N (2..4097 raw pixels), byte 2 the pad factor
 * (1, 2 or 4); the rest is the property string.  Besides the sanitizers,
 * checks the promise of the validation: a polynomial that is accepted is
 * finite and positive at every pixel, and the kmap table built from it
 * either fails with a message or has every bracket inside the data region,
 * every fraction finite and every resampled wavelength
 * lambda_l + t (lambda_{l+1} - lambda_l) inside the calibration's range.
 *
 * "Inside" is up to rounding: 1e-13 of lambda for a calibration spanning
 * less than a factor of 10 (a real spectrometer spans 5 to 30 %), where
 * 2 pi / k'_i is good to a few ulps.  The promise is on wavelengths, not
 * on t, because t is a fraction of the local step, which can be tiny
 * (found by this target: "800,0,0,1.2e-10" on 4097 pixels, lambda flat
 * at pixel 0, put the first t at -0.05 of a 2e-12 nm step).  Only the
 * first and last bracket can hold a lambda'_i that rounding put outside
 * it, so for a realistic span (1 % to a factor of 10: the k grid's steps
 * are far above rounding) t is in [0, 1] exactly in every other bracket.
 * Narrower spans ("785,0.1e-09": 0.1 pm over the sensor) have k steps
 * as small as the rounding of k, so t can leave [0, 1] anywhere.  Wider,
 * physically absurd spans (found by this target: "785,0.125,1e08", 785 nm
 * to 70 mm) lose the last k samples to cancellation in the spec's
 * k0 + i (k1 - k0) / (j1 - j0) when k1 << k0, and the last fraction can be
 * 1.004: a slight extrapolation, no memory error.  There we only ask for a
 * finite fraction within half a sample of the bracket, which the table
 * itself enforces. */
#include <math.h>
#include <string.h>

#include "aooct-calib.h"
#include "aooct-error.h"
#include "aooct-kmap-table.h"

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

static void
check_kmap (const gchar * str, gint n, gint factor)
{
  AooctGeometry g;
  AooctWavelength *cal;
  AooctKmapTable *t;
  GError *error = NULL;
  gint p1, p2, o, i;
  gboolean realistic;
  gdouble tol, lo, hi, la, lb, lp;

  cal = aooct_wavelength_new_from_coeffs (str, n, &error);
  if (cal == NULL)
    __builtin_trap ();          /* accepted above, must be accepted here */
  for (i = 0; i < n; i++)
    if (!isfinite (cal->lambda[i]) || cal->lambda[i] <= 0.0)
      __builtin_trap ();
  lo = MIN (cal->lambda[0], cal->lambda[n - 1]);
  hi = MAX (cal->lambda[0], cal->lambda[n - 1]);
  tol = hi < 10.0 * lo ? 1e-13 * hi : G_MAXDOUBLE;
  realistic = hi > 1.01 * lo && hi < 10.0 * lo;
  if (!aooct_pad_sizes (n, 0, factor, &p1, &p2, &o, &error))
    __builtin_trap ();
  aooct_geometry_init_raw (&g, n, 1, 1, 0, 1);
  g.samples = p2;
  g.pad_size = p1;
  g.pad_factor = factor;
  g.pad_offset = o;
  t = aooct_kmap_table_new (cal, &g, &error);
  /* the table refuses what it cannot resample (too flat or, since this
   * target found "785e-50,11,-2e-04", too wide) with a message */
  if (t == NULL) {
    if (error == NULL || (strstr (error->message, "too flat") == NULL
            && strstr (error->message, "too wide") == NULL))
      __builtin_trap ();
    g_clear_error (&error);
  } else {
    for (i = t->start; i <= t->end; i++) {
      if (t->index[i] < t->start || t->index[i] >= t->end)
        __builtin_trap ();
      if (!isfinite (t->frac_d[i]) || t->frac_d[i] < -0.5 || t->frac_d[i] > 1.5)
        __builtin_trap ();
      if (realistic && t->index[i] > t->start && t->index[i] < t->end - 1
          && (t->frac_d[i] < 0.0 || t->frac_d[i] > 1.0))
        __builtin_trap ();
      la = aooct_wavelength_at (cal, (gdouble) t->index[i] / factor - o);
      lb = aooct_wavelength_at (cal, (gdouble) (t->index[i] + 1) / factor - o);
      lp = la + t->frac_d[i] * (lb - la);
      if (lp < lo - tol || lp > hi + tol)
        __builtin_trap ();
    }
    aooct_kmap_table_free (t);
  }
  aooct_wavelength_free (cal);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  static const gint factors[3] = { 1, 2, 4 };
  gdouble c[AOOCT_CALIB_MAX_COEFFS];
  GError *error = NULL;
  gchar *str;
  gint n, n_coeffs = 0, factor, k;

  if (size < 3)
    return 0;
  n = 2 + ((data[0] | (data[1] << 8)) & 0xfff);
  factor = factors[data[2] % 3];
  str = g_strndup ((const gchar *) data + 3, size - 3);
  if (!aooct_calib_parse_coeffs (str, c, &n_coeffs, &error)) {
    if (error == NULL || error->code != AOOCT_ERROR_SETTINGS
        || !g_str_has_prefix (error->message, "wavelength-coeffs"))
      __builtin_trap ();
    g_clear_error (&error);
    g_free (str);
    return 0;
  }
  if (n_coeffs < 1 || n_coeffs > AOOCT_CALIB_MAX_COEFFS)
    __builtin_trap ();
  for (k = 0; k < AOOCT_CALIB_MAX_COEFFS; k++)
    if (!isfinite (c[k]) || (k >= n_coeffs && c[k] != 0.0))
      __builtin_trap ();
  /* aooctkmap's check: the polynomial's, then the plausible range */
  if (aooct_calib_check_coeffs (c, n_coeffs, n, &error))
    check_kmap (str, n, factor);
  else if (error == NULL || !g_str_has_prefix (error->message,
          "wavelength-coeffs"))
    __builtin_trap ();
  g_clear_error (&error);
  g_free (str);
  return 0;
}
