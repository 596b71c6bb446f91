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

/* lambda at both ends of [0, n-1] (a monotonic polynomial's extremes)
 * within AOOCT_CALIB_MIN_NM .. AOOCT_CALIB_MAX_NM; otherwise FALSE with a
 * message that names the likely unit. */
static gboolean
check_plausible (const gdouble * c, gint n_coeffs, gint n, GError ** error)
{
  gdouble v0 = aooct_calib_poly_eval (c, n_coeffs, 0);
  gdouble v1 = aooct_calib_poly_eval (c, n_coeffs, n - 1);
  gdouble lo = MIN (v0, v1), hi = MAX (v0, v1);

  if (lo < AOOCT_CALIB_MIN_NM) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "wavelength-coeffs: lambda(0) = %.6g nm, lambda(%d) = %.6g nm: "
        "below %g nm, no OCT light source; metres or micrometres? the "
        "coefficients are in nm", v0, n - 1, v1, AOOCT_CALIB_MIN_NM);
    return FALSE;
  }
  if (hi > AOOCT_CALIB_MAX_NM) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "wavelength-coeffs: lambda(0) = %.6g nm, lambda(%d) = %.6g nm: "
        "above %g nm (10 um); picometres or angstroms? the coefficients "
        "are in nm", v0, n - 1, v1, AOOCT_CALIB_MAX_NM);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_calib_check_coeffs (const gdouble * c, gint n_coeffs, gint n,
    GError ** error)
{
  gdouble r[AOOCT_CALIB_MAX_COEFFS] = { 0 };
  gboolean ok;
  gint k;

  ok = aooct_calib_check_poly (c, n_coeffs, n, error)
      && check_plausible (c, n_coeffs, n, error);
  if (ok || n_coeffs < 2)
    return ok;
  /* the list in the other order (numpy.polyval's, highest power first):
   * say so when that one would pass */
  for (k = 0; k < n_coeffs; k++)
    r[k] = c[n_coeffs - 1 - k];
  if (aooct_calib_check_poly (r, n_coeffs, n, NULL)
      && check_plausible (r, n_coeffs, n, NULL)) {
    GString *rev = g_string_new (NULL);

    for (k = 0; k < n_coeffs; k++) {
      gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (rev, "%s%s", k ? "," : "",
          g_ascii_formatd (buf, sizeof (buf), "%.9g", r[k]));
    }
    /* the message still starts with the property's name (what every
     * message of these checks does; fuzz/fuzz-coeffs.c holds it) */
    if (error && *error) {
      const gchar *why = (*error)->message;
      gchar *msg;

      if (g_str_has_prefix (why, "wavelength-coeffs: "))
        why += strlen ("wavelength-coeffs: ");
      msg = g_strdup_printf ("wavelength-coeffs: descending order? "
          "reversed, \"%s\" would pass (wavelength-coeffs takes c0 first, "
          "lambda(p) = c0 + c1 p + ...; numpy.polyval's order is the "
          "reverse): %s", rev->str, why);
      g_free ((*error)->message);
      (*error)->message = msg;
    }
    g_string_free (rev, TRUE);
  }
  return FALSE;
}

AooctWavelength *
aooct_wavelength_new_from_coeffs (const gchar * str, gint n, GError ** error)
{
  AooctWavelength *cal;
  gdouble c[AOOCT_CALIB_MAX_COEFFS];
  gint n_coeffs, p;

  g_return_val_if_fail (n >= 2, NULL);
  if (!aooct_calib_parse_coeffs (str, c, &n_coeffs, error)
      || !aooct_calib_check_coeffs (c, n_coeffs, n, error))
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
  for (p = 0; p < n; p++) {
    if (recs[p].v[0] < AOOCT_CALIB_MIN_NM || recs[p].v[0] > AOOCT_CALIB_MAX_NM) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "wavelength-file: %s:%d: wavelength %.9g nm is %s; %s the "
          "wavelengths are in nm", path, recs[p].line, recs[p].v[0],
          recs[p].v[0] < AOOCT_CALIB_MIN_NM ? "below 100 nm" :
          "above 10 um", recs[p].v[0] < AOOCT_CALIB_MIN_NM ?
          "metres or micrometres?" : "picometres or angstroms?");
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

gboolean
aooct_disp_check_coeffs (const gdouble a[AOOCT_DISP_N_COEFFS], GError ** error)
{
  gint k;

  for (k = 0; k < AOOCT_DISP_N_COEFFS; k++)
    if (!isfinite (a[k])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "a2=%g, a3=%g, a4=%g, a5=%g: the dispersion coefficients must be "
          "finite", a[0], a[1], a[2], a[3]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
any_coeff (const gdouble a[AOOCT_DISP_N_COEFFS])
{
  gint k;

  for (k = 0; k < AOOCT_DISP_N_COEFFS; k++)
    if (a[k] != 0.0)
      return TRUE;
  return FALSE;
}

/* A record's weight as magnitude and phase. */
static void
record_polar (const AooctRecord * r, gdouble * mag, gdouble * phi)
{
  if (r->n_values == 1) {
    *mag = 1.0;
    *phi = r->v[0];
  } else {
    *mag = hypot (r->v[0], r->v[1]);
    *phi = atan2 (r->v[1], r->v[0]);
  }
}

/* N camera-grid records onto the P2 grid (see aooct-calib.h): record
 * position q = (i - j0) / f; between records n and n + 1 the phase moves
 * along the shorter arc (remainder() into [-pi, pi]) and the magnitude
 * linearly.  A phase record keeps its own value at its sample, so a file
 * of phases reproduces them exactly at the camera pixels. */
static void
camera_weights (const AooctGeometry * g, const AooctRecord * recs, gint n,
    gfloat * w)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  const gdouble step = (j1 - j0) / (gdouble) (n - 1);
  gint i;

  for (i = 0; i < g->samples; i++) {
    gdouble q = (CLAMP (i, j0, j1) - j0) / step, t, m0, m1, p0, p1, mag, phi;
    gint k = (gint) floor (q);

    t = q - k;
    if (k >= n - 1) {
      k = n - 1;
      t = 0.0;
    }
    if (t == 0.0) {
      /* at a camera pixel: exactly the record, as on the padded grid */
      if (recs[k].n_values == 1) {
        w[2 * i] = (gfloat) cos (recs[k].v[0]);
        w[2 * i + 1] = (gfloat) sin (recs[k].v[0]);
      } else {
        w[2 * i] = (gfloat) recs[k].v[0];
        w[2 * i + 1] = (gfloat) recs[k].v[1];
      }
      continue;
    }
    record_polar (&recs[k], &m0, &p0);
    record_polar (&recs[k + 1], &m1, &p1);
    mag = m0 + t * (m1 - m0);
    phi = p0 + t * remainder (p1 - p0, 2.0 * G_PI);
    w[2 * i] = (gfloat) (mag * cos (phi));
    w[2 * i + 1] = (gfloat) (mag * sin (phi));
  }
}

gfloat *
aooct_disp_weights_new (const AooctGeometry * g, const gchar * phase_file,
    AooctDispGrid grid, const gdouble a[AOOCT_DISP_N_COEFFS], GError ** error)
{
  gfloat *w;
  gint i;

  if (!aooct_disp_check_coeffs (a, error))
    return NULL;
  if (phase_file != NULL && phase_file[0] != '\0') {
    AooctRecord *recs;
    gsize n = 0, expected;
    const gint n_camera = g->raw_samples;

    if (any_coeff (a)) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "phase-file=%s and a2=%g, a3=%g, a4=%g, a5=%g are both set; give "
          "either a phase file or the coefficients, not both (set them to "
          "0, or phase-file=\"\")", phase_file, a[0], a[1], a[2], a[3]);
      return NULL;
    }
    /* auto: whatever count the file has decides, when it is one of the
     * two (they differ whenever aooctpad pads or up-samples) */
    expected = grid == AOOCT_DISP_GRID_PADDED ? (gsize) g->samples :
        grid == AOOCT_DISP_GRID_CAMERA ? (gsize) n_camera : 0;
    recs = aooct_text_read (phase_file, 1, 2, expected, &n, error);
    if (recs != NULL && grid == AOOCT_DISP_GRID_AUTO
        && n != (gsize) g->samples && n != (gsize) n_camera) {
      /* neither count: read again for the reader's own "too few" or "too
       * many" message, with the line, against the nearer count */
      g_clear_pointer (&recs, g_free);
      recs = aooct_text_read (phase_file, 1, 2, n < (gsize) n_camera ?
          (gsize) n_camera : (gsize) g->samples, &n, error);
      if (recs != NULL) {
        /* the file changed between the two reads */
        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
            "%s changed while it was read", phase_file);
        g_clear_pointer (&recs, g_free);
      }
    }
    if (recs == NULL) {
      g_prefix_error (error, "phase-file (%s expected: %d records on the "
          "padded grid (the input A-lines have %d samples%s, from its caps) "
          "or %d, one per camera pixel, with phase-file-grid=%s): ",
          grid == AOOCT_DISP_GRID_PADDED ? "phase-file-grid=padded" :
          grid == AOOCT_DISP_GRID_CAMERA ? "phase-file-grid=camera" :
          "phase-file-grid=auto", g->samples, g->samples,
          g->pad_factor > 1 || g->pad_size != g->raw_samples ?
          " after aooctpad" : "", n_camera,
          grid == AOOCT_DISP_GRID_AUTO ? "auto or camera" : "camera");
      return NULL;
    }
    w = g_new (gfloat, 2 * (gsize) g->samples);
    if (n == (gsize) g->samples && grid != AOOCT_DISP_GRID_CAMERA) {
      for (i = 0; i < g->samples; i++) {
        if (recs[i].n_values == 1) {
          w[2 * i] = (gfloat) cos (recs[i].v[0]);
          w[2 * i + 1] = (gfloat) sin (recs[i].v[0]);
        } else {
          w[2 * i] = (gfloat) recs[i].v[0];
          w[2 * i + 1] = (gfloat) recs[i].v[1];
        }
      }
    } else {
      camera_weights (g, recs, n_camera, w);
    }
    g_free (recs);
    return w;
  }

  w = g_new (gfloat, 2 * (gsize) g->samples);
  for (i = 0; i < g->samples; i++) {
    gdouble phi = aooct_disp_phase_poly (a, aooct_disp_u (g, i));

    w[2 * i] = (gfloat) cos (phi);
    w[2 * i + 1] = (gfloat) sin (phi);
  }
  return w;
}
