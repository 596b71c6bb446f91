/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: calibration math shared by the CPU and CUDA paths (see
 * aooct-calib.h and shared/spec/reconstruction.md sections 4 and 5). */
#include <math.h>
#include <string.h>

#include "aooct-calib.h"
#include "aooct-error.h"
#include "aooct-textfile.h"

/* ---- wavelength calibration ------------------------------------------ */

gdouble
aooct_calib_poly_eval (const gdouble * c, gint n_coeffs, gdouble p)
{
  gdouble v = 0.0;
  gint k;

  for (k = n_coeffs - 1; k >= 0; k--)
    v = v * p + c[k];
  return v;
}

gboolean
aooct_calib_parse_coeffs (const gchar * str,
    gdouble coeffs[AOOCT_CALIB_MAX_COEFFS], gint * n_coeffs, GError ** error)
{
  gchar **tokens;
  gint n, k;
  gboolean ok = FALSE;

  /* blanks only count as empty, not as a blank first coefficient */
  if (str == NULL || strspn (str, " \t") == strlen (str)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "wavelength-coeffs is empty; expected \"c0,c1[,c2[,c3]]\" in nm");
    return FALSE;
  }
  tokens = g_strsplit (str, ",", -1);
  n = g_strv_length (tokens);
  if (n > AOOCT_CALIB_MAX_COEFFS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "wavelength-coeffs=\"%s\" has %d coefficients; expected 1 to 4, "
        "\"c0,c1[,c2[,c3]]\" in nm", str, n);
    goto done;
  }
  for (k = 0; k < n; k++) {
    gchar *tok = g_strstrip (tokens[k]), *end = NULL;

    coeffs[k] = g_ascii_strtod (tok, &end);
    if (tok[0] == '\0' || end == tok || *end != '\0') {
      gchar *qs = aooct_text_quote (str, strlen (str), 200),
          *qt = aooct_text_quote (tok, strlen (tok), 40);

      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "wavelength-coeffs=\"%s\": coefficient c%d ('%s') is not a "
          "number; expected \"c0,c1[,c2[,c3]]\" in nm", qs, k, qt);
      g_free (qs);
      g_free (qt);
      goto done;
    }
    if (!isfinite (coeffs[k])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "wavelength-coeffs=\"%s\": coefficient c%d is not finite", str, k);
      goto done;
    }
  }
  for (; k < AOOCT_CALIB_MAX_COEFFS; k++)
    coeffs[k] = 0.0;
  *n_coeffs = n;
  ok = TRUE;

done:
  g_strfreev (tokens);
  return ok;
}

/* Roots of c1 + 2 c2 p + 3 c3 p^2 strictly inside (0, hi), ascending.
 * Returns the count (0..2), or -1 when the derivative is identically 0. */
static gint
slope_roots (const gdouble * c, gdouble hi, gdouble roots[2])
{
  gdouble a = 3.0 * c[3], b = 2.0 * c[2], cc = c[1], r[2];
  gint n = 0, k, out = 0;

  if (a == 0.0) {
    if (b == 0.0)
      return cc == 0.0 ? -1 : 0;
    r[n++] = -cc / b;
  } else {
    gdouble disc = b * b - 4.0 * a * cc;

    if (disc == 0.0) {
      r[n++] = -b / (2.0 * a);
    } else if (disc > 0.0) {
      /* the cancellation-free form of the quadratic formula */
      gdouble q = -0.5 * (b + copysign (sqrt (disc), b));
      r[n++] = q / a;
      if (q != 0.0)
        r[n++] = cc / q;
    }
  }
  if (n == 2 && r[1] < r[0]) {
    gdouble t = r[0];
    r[0] = r[1];
    r[1] = t;
  }
  for (k = 0; k < n; k++)
    if (r[k] > 0.0 && r[k] < hi && (out == 0 || r[k] != roots[out - 1]))
      roots[out++] = r[k];
  return out;
}

gboolean
aooct_calib_check_poly (const gdouble * coeffs, gint n_coeffs, gint n,
    GError ** error)
{
  gdouble c[AOOCT_CALIB_MAX_COEFFS] = { 0 }, pts[4], vals[4], roots[2];
  gdouble hi = n - 1;
  gint n_roots, n_pts = 0, k, dir;

  g_return_val_if_fail (n >= 2, FALSE);
  g_return_val_if_fail (n_coeffs >= 1 && n_coeffs <= 4, FALSE);
  memcpy (c, coeffs, n_coeffs * sizeof (gdouble));

  n_roots = slope_roots (c, hi, roots);
  if (n_roots < 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "wavelength-coeffs: lambda(p) is constant; it must be strictly "
        "monotonic on the pixel interval [0, %d]", n - 1);
    return FALSE;
  }
  /* Between consecutive points the slope keeps one sign, so lambda is
   * strictly monotonic on [0, N-1] iff these values are strictly ordered
   * one way (a slope root that is not a sign change, such as the inflection
   * of p^3, passes); the minimum is then at one end. */
  pts[n_pts++] = 0.0;
  for (k = 0; k < n_roots; k++)
    pts[n_pts++] = roots[k];
  pts[n_pts++] = hi;
  for (k = 0; k < n_pts; k++) {
    vals[k] = aooct_calib_poly_eval (c, n_coeffs, pts[k]);
    if (!isfinite (vals[k])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "wavelength-coeffs: lambda(%.9g) is not finite", pts[k]);
      return FALSE;
    }
  }
  dir = vals[n_pts - 1] > vals[0] ? 1 : -1;
  for (k = 0; k + 1 < n_pts; k++) {
    if ((vals[k + 1] - vals[k]) * dir <= 0.0) {
      /* the offending interior point is a slope root */
      gint turn = k + 1 < n_pts - 1 ? k + 1 : k;

      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "wavelength-coeffs: lambda(p) is not strictly monotonic on the "
          "pixel interval [0, %d]: lambda(0) = %.9g nm, lambda(%.6g) = "
          "%.9g nm, lambda(%d) = %.9g nm", n - 1, vals[0], pts[turn],
          vals[turn], n - 1, vals[n_pts - 1]);
      return FALSE;
    }
  }
  for (k = 0; k < n_pts; k += n_pts - 1) {
    if (vals[k] <= 0.0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "wavelength-coeffs: lambda(%d) = %.9g nm is not positive",
          (gint) pts[k], vals[k]);
      return FALSE;
    }
  }
  return TRUE;
}

AooctWavelength *
aooct_wavelength_new_from_coeffs (const gchar * str, gint n, GError ** error)
{
  AooctWavelength *cal;
  gdouble c[AOOCT_CALIB_MAX_COEFFS];
  gint n_coeffs, p;

  g_return_val_if_fail (n >= 2, NULL);
  if (!aooct_calib_parse_coeffs (str, c, &n_coeffs, error)
      || !aooct_calib_check_poly (c, n_coeffs, n, error))
    return NULL;
  cal = g_new0 (AooctWavelength, 1);
  cal->n = n;
  cal->n_coeffs = n_coeffs;
  memcpy (cal->coeffs, c, sizeof (c));
  cal->lambda = g_new (gdouble, n);
  for (p = 0; p < n; p++)
    cal->lambda[p] = aooct_calib_poly_eval (c, n_coeffs, p);
  return cal;
}

AooctWavelength *
aooct_wavelength_new_from_file (const gchar * path, gint n, GError ** error)
{
  AooctWavelength *cal;
  AooctRecord *recs;
  gsize n_recs = 0;
  gint p, dir;

  g_return_val_if_fail (n >= 2, NULL);
  recs = aooct_text_read (path, 1, 1, n, &n_recs, error);
  if (recs == NULL) {
    /* the count comes from the input's width: say so, so that a raw
     * file read with the wrong width= is not blamed on the calibration */
    g_prefix_error (error, "wavelength-file (one wavelength per raw pixel; "
        "the input is %d samples wide, from its caps): ", n);
    return NULL;
  }
  for (p = 0; p < n; p++) {
    if (recs[p].v[0] <= 0.0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "wavelength-file: %s:%d: wavelength %.9g nm is not positive",
          path, recs[p].line, recs[p].v[0]);
      g_free (recs);
      return NULL;
    }
  }
  dir = recs[1].v[0] > recs[0].v[0] ? 1 : -1;
  for (p = 1; p < n; p++) {
    if ((recs[p].v[0] - recs[p - 1].v[0]) * dir <= 0.0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "wavelength-file: %s:%d: %.9g nm after %.9g nm (line %d): the "
          "wavelengths must be strictly %s", path, recs[p].line,
          recs[p].v[0], recs[p - 1].v[0], recs[p - 1].line,
          dir > 0 ? "increasing" : "decreasing");
      g_free (recs);
      return NULL;
    }
  }
  cal = g_new0 (AooctWavelength, 1);
  cal->n = n;
  cal->lambda = g_new (gdouble, n);
  for (p = 0; p < n; p++)
    cal->lambda[p] = recs[p].v[0];
  g_free (recs);
  return cal;
}

AooctWavelength *
aooct_wavelength_new (const gchar * file, const gchar * coeffs, gint n,
    GError ** error)
{
  gboolean have_file = file != NULL && file[0] != '\0';
  gboolean have_coeffs = coeffs != NULL && coeffs[0] != '\0';

  if (have_file == have_coeffs) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "%s: give exactly one of wavelength-file (%d wavelengths in nm, one "
        "per line) and wavelength-coeffs (\"c0,c1[,c2[,c3]]\" in nm)",
        have_file ? "both wavelength-file and wavelength-coeffs are set" :
        "neither wavelength-file nor wavelength-coeffs is set", n);
    return NULL;
  }
  return have_file ? aooct_wavelength_new_from_file (file, n, error) :
      aooct_wavelength_new_from_coeffs (coeffs, n, error);
}

gdouble
aooct_wavelength_at (const AooctWavelength * cal, gdouble p)
{
  gint i;

  if (cal->n_coeffs > 0)
    return aooct_calib_poly_eval (cal->coeffs, cal->n_coeffs, p);
  /* tabulated: linear between neighbouring pixels, exact at the pixels */
  if (p <= 0.0)
    return cal->lambda[0];
  if (p >= cal->n - 1)
    return cal->lambda[cal->n - 1];
  i = (gint) floor (p);
  if (p == i)
    return cal->lambda[i];
  return cal->lambda[i] + (p - i) * (cal->lambda[i + 1] - cal->lambda[i]);
}

void
aooct_wavelength_free (AooctWavelength * cal)
{
  if (cal == NULL)
    return;
  g_free (cal->lambda);
  g_free (cal);
}

/* ---- dispersion weights ---------------------------------------------- */

gfloat *
aooct_disp_weights_new (const AooctGeometry * g, const gchar * phase_file,
    gdouble a2, gdouble a3, GError ** error)
{
  gfloat *w;
  gint i;

  if (!isfinite (a2) || !isfinite (a3)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "a2=%g, a3=%g: the dispersion coefficients must be finite", a2, a3);
    return NULL;
  }
  if (phase_file != NULL && phase_file[0] != '\0') {
    AooctRecord *recs;
    gsize n = 0;

    if (a2 != 0.0 || a3 != 0.0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "phase-file=%s and a2=%g, a3=%g are both set; give either a phase "
          "file or a2/a3, not both (set a2=0 and a3=0, or phase-file=\"\")",
          phase_file, a2, a3);
      return NULL;
    }
    recs = aooct_text_read (phase_file, 1, 2, g->samples, &n, error);
    if (recs == NULL) {
      g_prefix_error (error, "phase-file (%d records of phi, or re im, "
          "expected: the input A-lines have %d samples%s, from its caps): ",
          g->samples, g->samples, g->pad_factor > 1
          || g->pad_size != g->raw_samples ? " after aooctpad" : "");
      return NULL;
    }
    w = g_new (gfloat, 2 * (gsize) g->samples);
    for (i = 0; i < g->samples; i++) {
      if (recs[i].n_values == 1) {
        w[2 * i] = (gfloat) cos (recs[i].v[0]);
        w[2 * i + 1] = (gfloat) sin (recs[i].v[0]);
      } else {
        w[2 * i] = (gfloat) recs[i].v[0];
        w[2 * i + 1] = (gfloat) recs[i].v[1];
      }
    }
    g_free (recs);
    return w;
  }

  w = g_new (gfloat, 2 * (gsize) g->samples);
  for (i = 0; i < g->samples; i++) {
    gdouble phi = aooct_disp_phase (a2, a3, aooct_disp_u (g, i));

    w[2 * i] = (gfloat) cos (phi);
    w[2 * i + 1] = (gfloat) sin (phi);
  }
  return w;
}
