/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * aooct-calibrate: the wavelength calibration (k-linearisation) and the
 * dispersion phase from the spectra of a mirror at two or more depths.
 *
 *   aooct-calibrate --mirror=M1 --mirror=M2 [--sides=+-]
 *       [--background=B ... | --reference-dark=R --sample-dark=S ...
 *        --camera-dark=D]
 *       (--center-wavelength=NM --bandwidth=NM | --wavelength-range=L0,L1)
 *       [--sample-side=I] [--dispersion-order=3|5] [--phase-output=F]
 *       --output=WAVELENGTHS
 *
 * writes WAVELENGTHS (aooctkmap wavelength-file: N wavelengths in nm, the
 * assumption that fixes their absolute scale in its comment) and prints,
 * on stdout, the two pipeline fragments
 *
 *   aooctkmap wavelength-file=WAVELENGTHS
 *   aooctdisp a2=4.491 a3=-1.014
 *
 * The spectra are text files of N values (one per line, as
 * aooct-background writes the mean spectrum of a raw recording).  The
 * method and its model: aooct-kcal.h, and --help.  Details (fringe
 * frequencies, residuals, the mirrors' PSF widths before and after) go to
 * stderr.
 *
 * Exit status: 0 with the file written, 1 when a file cannot be read or
 * written or the spectra hold no usable fringes, 2 on a usage error. */
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aooct-calib.h"
#include "aooct-error.h"
#include "aooct-kcal.h"
#include "aooct-textfile.h"
#include "aooct-textwrite.h"

#define PROGRAM "aooct-calibrate"
/* the polynomial through the summed phase (order in the pixel) */
#define K_ORDER 5
/* the dispersion phase is fitted up to u^5 whatever is printed */
#define DISP_FIT_ORDER 5
/* PSF widths are measured every 1/8 bin */
#define PSF_OVER 8

static const gchar *const description =
    "Method: the fringe of a mirror at delay z is cos(2 k z + Phi(k)), Phi\n"
    "the dispersion mismatch of the arms, the same for every mirror. For\n"
    "each mirror the band of the spectrum around its fringe frequency gives\n"
    "the analytic signal (Hilbert transform) and its unwrapped phase\n"
    "phi = 2|z| k' + s Phi + c (k' = k or -k, whichever increases along\n"
    "the pixels), where s = +1 or -1 tells the mirror's side of zero\n"
    "delay (--sides). Phi cancels in the sum of two mirrors on either\n"
    "side (in the difference of two on one side): that sum, fitted by a\n"
    "polynomial of order 5 in the pixel, is k up to scale and offset (the\n"
    "k-linearisation; Attendu et al., J. Biomed. Opt. 24(5), 2019). What\n"
    "remains of each mirror's phase after its part linear in k, times s,\n"
    "is Phi; its polynomial in u (-1 .. 1 over the k-linear samples, as\n"
    "aooctdisp's) gives a2, a3 (and a4, a5), with the sign for the side\n"
    "of zero delay that --sample-side names: aooctfft keeps the positive\n"
    "frequencies, where a structure on mirror I's side shows mirror I's\n"
    "phase, so aooctdisp takes minus it.\n"
    "\n"
    "Absolute scale: two mirrors fix each pixel's wavenumber relative to\n"
    "the others only. The wavelengths of the first and last pixel come\n"
    "from --center-wavelength and --bandwidth (pixel 0 at centre -\n"
    "bandwidth/2, pixel N-1 at centre + bandwidth/2; --descending for the\n"
    "other way) or from --wavelength-range; the file's comment says which.\n"
    "\n"
    "Backgrounds: --background subtracts a spectrum (one for all mirrors,\n"
    "or one per mirror in their order); or give the darks: each mirror\n"
    "minus --reference-dark (reference arm alone) minus --sample-dark\n"
    "(sample arm alone; one, or one per mirror) plus --camera-dark (neither\n"
    "arm: counted twice otherwise). Without any, the fringe band alone is\n"
    "used, which works when the reference spectrum is smooth.";

typedef struct
{
  gchar **mirrors, **backgrounds, **sample_darks;
  gchar *sides, *ref_dark, *camera_dark, *range, *output, *phase_output;
  gdouble centre, bandwidth;
  gboolean descending;
  gint sample_side, disp_order;
} Options;

/* N values of @path into a new array; @n: 0 on the first call (the count
 * is taken from the file), then the count every file must have. */
static gdouble *
read_spectrum (const gchar * path, gint * n, GError ** error)
{
  AooctRecord *recs;
  gsize count = 0, i;
  gdouble *v;

  recs = aooct_text_read (path, 1, 1, *n, &count, error);
  if (recs == NULL)
    return NULL;
  if (count < 16) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: %" G_GSIZE_FORMAT " values; a spectrum of one value per camera "
        "pixel (at least 16) was expected", path, count);
    g_free (recs);
    return NULL;
  }
  v = g_new (gdouble, count);
  for (i = 0; i < count; i++)
    v[i] = recs[i].v[0];
  g_free (recs);
  *n = (gint) count;
  return v;
}

/* The background of mirror @i per the options (NULL: none), summed into
 * @bg (N values).  FALSE with @error on a file that cannot be read. */
static gboolean
background_of (const Options * o, gint i, gint n, gdouble * bg,
    gboolean * any, GError ** error)
{
  const gchar *files[3] = { NULL, NULL, NULL };
  gdouble sign[3] = { 1.0, 1.0, -1.0 };
  gint k, p;

  memset (bg, 0, n * sizeof (gdouble));
  *any = FALSE;
  if (o->backgrounds) {
    files[0] = o->backgrounds[g_strv_length (o->backgrounds) == 1 ? 0 : i];
  } else {
    files[0] = o->ref_dark;
    if (o->sample_darks)
      files[1] = o->sample_darks[g_strv_length (o->sample_darks) == 1 ? 0 : i];
    /* the camera's own dark is in both arm darks: add it back once */
    if (files[0] && files[1])
      files[2] = o->camera_dark;
  }
  for (k = 0; k < 3; k++) {
    gdouble *v;
    gint m = n;

    if (files[k] == NULL)
      continue;
    v = read_spectrum (files[k], &m, error);
    if (v == NULL)
      return FALSE;
    for (p = 0; p < n; p++)
      bg[p] += sign[k] * v[p];
    g_free (v);
    *any = TRUE;
  }
  return TRUE;
}

/* "L0,L1" (nm) */
static gboolean
parse_range (const gchar * s, gdouble * l0, gdouble * l1)
{
  gchar **t = g_strsplit (s, ",", -1);
  gchar *e0 = NULL, *e1 = NULL;
  gboolean ok = g_strv_length (t) == 2;

  if (ok) {
    *l0 = g_ascii_strtod (g_strstrip (t[0]), &e0);
    *l1 = g_ascii_strtod (g_strstrip (t[1]), &e1);
    ok = e0 != t[0] && *e0 == '\0' && e1 != t[1] && *e1 == '\0';
  }
  g_strfreev (t);
  return ok;
}

/* Resamples @x (N values on the pixels) at the positions @q (N fractional
 * pixels) by linear interpolation, as aooctkmap's default mode. */
static void
resample_onto (const gdouble * x, const gdouble * q, gint n, gdouble * out)
{
  gint i;

  for (i = 0; i < n; i++) {
    gint l = CLAMP ((gint) floor (q[i]), 0, n - 2);
    gdouble t = q[i] - l;

    out[i] = x[l] + t * (x[l + 1] - x[l]);
  }
}

static void
print_usage_hint (void)
{
  g_printerr (PROGRAM ": usage: " PROGRAM " --mirror=M1 --mirror=M2 "
      "[--background=B | --reference-dark=R --sample-dark=S --camera-dark=D] "
      "(--center-wavelength=NM --bandwidth=NM | --wavelength-range=L0,L1) "
      "--output=FILE (--help: the method)\n");
}

int
main (int argc, char **argv)
{
  Options o = { 0 };
  GOptionEntry entries[] = {
    {"mirror", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &o.mirrors,
        "Spectrum of a mirror (N values, text); two or more", "FILE"},
    {"sides", 0, 0, G_OPTION_ARG_STRING, &o.sides,
        "Side of zero delay of each mirror, + or -, in their order "
          "(default +- for two mirrors; required for more)", "SIGNS"},
    {"background", 'b', 0, G_OPTION_ARG_FILENAME_ARRAY, &o.backgrounds,
        "Spectrum to subtract: one, or one per mirror", "FILE"},
    {"reference-dark", 0, 0, G_OPTION_ARG_FILENAME, &o.ref_dark,
        "Reference arm alone (subtracted)", "FILE"},
    {"sample-dark", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.sample_darks,
        "Sample arm alone (subtracted): one, or one per mirror", "FILE"},
    {"camera-dark", 0, 0, G_OPTION_ARG_FILENAME, &o.camera_dark,
        "Neither arm (added back with both arm darks)", "FILE"},
    {"center-wavelength", 'c', 0, G_OPTION_ARG_DOUBLE, &o.centre,
        "Centre wavelength of the sensor's range (nm)", "NM"},
    {"bandwidth", 'w', 0, G_OPTION_ARG_DOUBLE, &o.bandwidth,
        "Wavelength range across the sensor, pixel 0 to N-1 (nm)", "NM"},
    {"descending", 0, 0, G_OPTION_ARG_NONE, &o.descending,
          "With --center-wavelength: the wavelength decreases along the pixels",
        NULL},
    {"wavelength-range", 'r', 0, G_OPTION_ARG_STRING, &o.range,
        "Wavelengths of pixel 0 and pixel N-1 (nm), instead of centre and "
          "bandwidth", "L0,L1"},
    {"sample-side", 0, 0, G_OPTION_ARG_INT, &o.sample_side,
        "The dispersion's sign for structures on the side of zero delay of "
          "mirror I (1 = the first; default 1)", "I"},
    {"dispersion-order", 0, 0, G_OPTION_ARG_INT, &o.disp_order,
        "Print a2, a3 (3, default) or a2 .. a5 (5)", "3|5"},
    {"phase-output", 0, 0, G_OPTION_ARG_FILENAME, &o.phase_output,
        "Also write the measured dispersion phase, N records for aooctdisp "
          "phase-file (phase-file-grid=camera)", "FILE"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
        "The wavelength file to write (aooctkmap wavelength-file)", "FILE"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  gint n_mirrors, n = 0, i, j, p, status = 1;
  gdouble l0 = 0, l1 = 0, **spec = NULL, *weight = NULL, *x = NULL;
  gdouble *ksum = NULL, *kt = NULL, *u = NULL, *phi = NULL, *q = NULL;
  gdouble *tmp = NULL, *re = NULL, *im = NULL;
  gdouble dc[DISP_FIT_ORDER + 1], a[AOOCT_DISP_N_COEFFS];
  gdouble k_rms = 0.0, span_total = 0.0, disp_rms, disp_rms5, sgn;
  gint *side = NULL;
  AooctKcalFringe *fr = NULL;
  gboolean any_bg = FALSE;
  GString *text = NULL;
  gchar *assumption = NULL, *frag = NULL, *names = NULL;

  setlocale (LC_ALL, "");
  o.sample_side = 1;
  o.disp_order = 3;
  ctx = g_option_context_new ("- the wavelength calibration and dispersion "
      "from mirror spectra");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, description);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr (PROGRAM ": %s\n", error->message);
    g_clear_error (&error);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  /* ---- what was asked ---- */
  n_mirrors = o.mirrors ? g_strv_length (o.mirrors) : 0;
  if (n_mirrors < 2 || o.output == NULL) {
    g_printerr (PROGRAM ": %s\n", n_mirrors < 2 ? "give two or more "
        "--mirror spectra" : "give --output, the wavelength file to write");
    print_usage_hint ();
    return 2;
  }
  if (o.sides == NULL && n_mirrors > 2) {
    g_printerr (PROGRAM ": %d mirrors: say on which side of zero delay each "
        "one is, --sides=+-+... (one sign per mirror)\n", n_mirrors);
    return 2;
  }
  side = g_new (gint, n_mirrors);
  for (i = 0; i < n_mirrors; i++) {
    gchar c = o.sides ? o.sides[MIN ((gsize) i, strlen (o.sides))] : "+-"[i];

    if (c != '+' && c != '-') {
      g_printerr (PROGRAM ": --sides=%s: one + or - per mirror (%d mirrors)"
          "\n", o.sides, n_mirrors);
      goto usage;
    }
    side[i] = c == '+' ? 1 : -1;
  }
  if (o.sides && strlen (o.sides) != (gsize) n_mirrors) {
    g_printerr (PROGRAM ": --sides=%s: one + or - per mirror (%d mirrors)\n",
        o.sides, n_mirrors);
    goto usage;
  }
  if (o.backgrounds && (o.ref_dark || o.sample_darks || o.camera_dark)) {
    g_printerr (PROGRAM ": give either --background or the darks "
        "(--reference-dark, --sample-dark, --camera-dark), not both\n");
    goto usage;
  }
  if ((o.backgrounds && g_strv_length (o.backgrounds) != 1
          && g_strv_length (o.backgrounds) != (guint) n_mirrors)
      || (o.sample_darks && g_strv_length (o.sample_darks) != 1
          && g_strv_length (o.sample_darks) != (guint) n_mirrors)) {
    g_printerr (PROGRAM ": --background and --sample-dark: give one for all "
        "mirrors or one per mirror (%d)\n", n_mirrors);
    goto usage;
  }
  if (o.camera_dark && !(o.ref_dark && o.sample_darks)) {
    g_printerr (PROGRAM ": --camera-dark is added back when both "
        "--reference-dark and --sample-dark are subtracted; give those too "
        "(or use --background)\n");
    goto usage;
  }
  if (o.range) {
    if (o.centre != 0 || o.bandwidth != 0 || o.descending) {
      g_printerr (PROGRAM ": give either --wavelength-range or "
          "--center-wavelength and --bandwidth, not both\n");
      goto usage;
    }
    if (!parse_range (o.range, &l0, &l1)) {
      g_printerr (PROGRAM ": --wavelength-range=%s: expected \"L0,L1\", the "
          "wavelengths in nm of the first and the last pixel\n", o.range);
      goto usage;
    }
    assumption = g_strdup_printf ("pixel 0 at %.6g nm and the last pixel at "
        "%.6g nm (--wavelength-range)", l0, l1);
  } else {
    if (!(o.centre > 0) || !(o.bandwidth > 0)) {
      g_printerr (PROGRAM ": give --center-wavelength and --bandwidth (nm, "
          "positive), or --wavelength-range: the mirrors fix the pixels' "
          "wavenumbers relative to each other only\n");
      goto usage;
    }
    l0 = o.centre - o.bandwidth / 2 * (o.descending ? -1 : 1);
    l1 = o.centre + o.bandwidth / 2 * (o.descending ? -1 : 1);
    assumption = g_strdup_printf ("the sensor spans %.6g nm +- %.6g nm, "
        "pixel 0 at %.6g nm and the last pixel at %.6g nm "
        "(--center-wavelength %.6g --bandwidth %.6g%s)", o.centre,
        o.bandwidth / 2, l0, l1, o.centre, o.bandwidth,
        o.descending ? " --descending" : "");
  }
  if (!(l0 > 0) || !(l1 > 0) || l0 == l1 || !isfinite (l0)
      || !isfinite (l1)) {
    g_printerr (PROGRAM ": the wavelength range %g .. %g nm is not two "
        "different positive wavelengths\n", l0, l1);
    goto usage;
  }
  if (l0 < 100 || l1 < 100 || l0 > 10000 || l1 > 10000) {
    g_printerr (PROGRAM ": the wavelength range %g .. %g nm is outside "
        "100 nm .. 10 um: the wavelengths are in nanometres\n", l0, l1);
    goto usage;
  }
  if (o.sample_side < 1 || o.sample_side > n_mirrors) {
    g_printerr (PROGRAM ": --sample-side=%d: the number of a mirror, 1 .. %d"
        "\n", o.sample_side, n_mirrors);
    goto usage;
  }
  if (o.disp_order != 3 && o.disp_order != 5) {
    g_printerr (PROGRAM ": --dispersion-order=%d: 3 (a2, a3) or 5 (a2 .. "
        "a5)\n", o.disp_order);
    goto usage;
  }

  names = g_strjoinv (" ", o.mirrors);

  /* ---- the spectra, less their backgrounds ---- */
  spec = g_new0 (gdouble *, n_mirrors);
  for (i = 0; i < n_mirrors; i++) {
    gdouble *bg;

    spec[i] = read_spectrum (o.mirrors[i], &n, &error);
    if (spec[i] == NULL)
      goto fail;
    bg = g_new (gdouble, n);
    if (!background_of (&o, i, n, bg, &any_bg, &error)) {
      g_free (bg);
      goto fail;
    }
    for (p = 0; p < n; p++)
      spec[i][p] -= bg[p];
    g_free (bg);
  }

  /* ---- each mirror's fringe ---- */
  fr = g_new0 (AooctKcalFringe, n_mirrors);
  weight = g_new (gdouble, n);
  x = g_new (gdouble, n);
  for (p = 0; p < n; p++) {
    weight[p] = 1.0;
    x[p] = 2.0 * p / (n - 1) - 1.0;
  }
  for (i = 0; i < n_mirrors; i++) {
    gdouble emax = 0.0;

    if (!aooct_kcal_fringe (spec[i], n, MAX (3, n / 128), &fr[i], &error)) {
      g_prefix_error (&error, "%s: ", o.mirrors[i]);
      goto fail;
    }
    for (p = 0; p < n; p++)
      emax = MAX (emax, fr[i].envelope[p]);
    /* the weight of a pixel: the weakest mirror's relative envelope,
     * squared (the phase noise goes as 1 / envelope) */
    for (p = 0; p < n; p++)
      weight[p] = MIN (weight[p], fr[i].envelope[p] / emax);
    g_printerr (PROGRAM ": mirror %d (%s, side %c): fringe at %d cycles "
        "across the %d pixels (band %d .. %d)\n", i + 1, o.mirrors[i],
        side[i] > 0 ? '+' : '-', fr[i].peak, n, fr[i].band_lo, fr[i].band_hi);
  }
  for (p = 0; p < n; p++)
    weight[p] *= weight[p];

  /* ---- k up to scale: each pair's sum (either side) or difference (one
   * side), fitted, normalised to 0 .. 1 over the pixels, averaged with
   * the pair's phase span as its weight ---- */
  ksum = g_new0 (gdouble, n);
  tmp = g_new (gdouble, n);
  for (i = 0; i < n_mirrors; i++) {
    for (j = i + 1; j < n_mirrors; j++) {
      gdouble c[K_ORDER + 1], v0, v1, span, rms;

      for (p = 0; p < n; p++)
        tmp[p] = side[i] != side[j] ? fr[i].phase[p] + fr[j].phase[p] :
            fr[i].phase[p] - fr[j].phase[p];
      if (!aooct_kcal_polyfit (x, tmp, weight, n, K_ORDER, c)) {
        g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
            "mirrors %d and %d: the phase fit is singular", i + 1, j + 1);
        goto fail;
      }
      rms = aooct_kcal_rms (x, tmp, weight, n, c, K_ORDER);
      v0 = aooct_kcal_polyval (c, K_ORDER, -1.0);
      v1 = aooct_kcal_polyval (c, K_ORDER, 1.0);
      span = fabs (v1 - v0);
      if (span < 2.0 * G_PI) {
        g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
            "mirrors %d and %d: their %s spans %.3g rad, less than one "
            "fringe: two mirrors on one side need different depths (and "
            "--sides must say where each one is)", i + 1, j + 1,
            side[i] != side[j] ? "phase sum" : "phase difference", span);
        goto fail;
      }
      for (p = 0; p < n; p++)
        ksum[p] += span * (aooct_kcal_polyval (c, K_ORDER, x[p]) - v0) /
            (v1 - v0);
      k_rms += rms;
      span_total += span;
      g_printerr (PROGRAM ": mirrors %d and %d: %s %.1f rad across the "
          "pixels, %.4f rad RMS about the order-%d fit\n", i + 1, j + 1,
          side[i] != side[j] ? "phase sum" : "phase difference", span, rms,
          K_ORDER);
    }
  }
  kt = g_new (gdouble, n);
  for (p = 0; p < n; p++)
    kt[p] = ksum[p] / span_total;
  k_rms /= n_mirrors * (n_mirrors - 1) / 2;
  for (p = 1; p < n; p++) {
    if (!(kt[p] > kt[p - 1])) {
      g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "the fitted wavenumber is not strictly monotonic at pixel %d: "
          "the fringes are too weak or --sides is wrong", p);
      goto fail;
    }
  }

  /* ---- Phi: each mirror's phase less its part linear in k, times its
   * side, averaged; u = 2 kt - 1 is aooctdisp's u at that pixel ---- */
  u = g_new (gdouble, n);
  phi = g_new0 (gdouble, n);
  for (p = 0; p < n; p++)
    u[p] = 2.0 * kt[p] - 1.0;
  for (i = 0; i < n_mirrors; i++) {
    gdouble c[2];

    if (!aooct_kcal_polyfit (u, fr[i].phase, weight, n, 1, c)) {
      g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "mirror %d: the linear fit is singular", i + 1);
      goto fail;
    }
    for (p = 0; p < n; p++)
      phi[p] += side[i] * (fr[i].phase[p] - c[0] - c[1] * u[p]) / n_mirrors;
  }
  if (!aooct_kcal_polyfit (u, phi, weight, n, DISP_FIT_ORDER, dc)) {
    g_set_error (&error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the dispersion fit is singular");
    goto fail;
  }
  /* aooctdisp cancels the phase of the kept (positive-frequency)
   * component: on a side-s mirror's side that is s Phi */
  sgn = -side[o.sample_side - 1];
  for (i = 0; i < AOOCT_DISP_N_COEFFS; i++)
    a[i] = i + 2 <= o.disp_order ? sgn * dc[i + 2] : 0.0;
  {
    gdouble c3[4];

    aooct_kcal_polyfit (u, phi, weight, n, 3, c3);
    disp_rms = aooct_kcal_rms (u, phi, weight, n, c3, 3);
    disp_rms5 = aooct_kcal_rms (u, phi, weight, n, dc, DISP_FIT_ORDER);
  }

  /* ---- the wavelength of each pixel: k = K0 + kt (K1 - K0) ---- */
  text = g_string_new (NULL);
  {
    gchar *head = g_strdup_printf ("aooctkmap wavelength-file: the "
        "wavelength (nm) of each of the %d camera pixels, by " PROGRAM
        " from the mirror spectra\n%s\n(background: %s).\nk-linearisation: "
        "the phase sum of mirrors on either side of zero delay (difference "
        "on one side), order-%d polynomial, %.4f rad RMS residual.\n"
        "ASSUMPTION: the absolute scale is not measured: %s; the mirrors "
        "fix only each pixel's wavenumber relative to the others.\n"
        "Dispersion (aooctdisp, u = -1 .. 1 over the k-linear samples), for "
        "structures on the side of mirror %d: a2=%.6g a3=%.6g a4=%.6g "
        "a5=%.6g rad; residual %.4f rad RMS after a2, a3 (%.4f after a2 .. "
        "a5).", n, names, any_bg ? "subtracted" :
        "none", K_ORDER, k_rms, assumption, o.sample_side,
        sgn * dc[2], sgn * dc[3], sgn * dc[4], sgn * dc[5], disp_rms,
        disp_rms5);

    aooct_text_append_comment (text, head);
    g_free (head);
  }
  for (p = 0; p < n; p++) {
    gdouble inv = 1.0 / l0 + kt[p] * (1.0 / l1 - 1.0 / l0);
    gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_string_append_printf (text, "%s\n", g_ascii_formatd (buf, sizeof (buf),
            "%.10g", 1.0 / inv));
  }
  if (!aooct_text_write (o.output, text, 1, 1, n, &error))
    goto fail;

  if (o.phase_output) {
    /* the measured Phi less its constant and linear part, at the camera
     * grid's u_n = 2 n / (N - 1) - 1, as aooctdisp applies it */
    GString *ph = g_string_new (NULL);
    gchar *head = g_strdup_printf ("aooctdisp phase-file "
        "(phase-file-grid=camera): the dispersion phase (rad) measured by "
        PROGRAM " from %s, for structures on the side of mirror %d; record "
        "n at u = 2 n / (N - 1) - 1 of the k-linear samples",
        names, o.sample_side);

    aooct_text_append_comment (ph, head);
    g_free (head);
    for (p = 0; p < n; p++) {
      gdouble pos = aooct_kcal_invert (u, n, 2.0 * p / (n - 1) - 1.0);
      gint l = CLAMP ((gint) floor (pos), 0, n - 2);
      gdouble t = pos - l, v = phi[l] + t * (phi[l + 1] - phi[l]);
      gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

      v -= dc[0] + dc[1] * (2.0 * p / (n - 1) - 1.0);
      g_string_append_printf (ph, "%s\n", g_ascii_formatd (buf, sizeof (buf),
              "%.9g", sgn * v));
    }
    if (!aooct_text_write (o.phase_output, ph, 1, 1, n, &error)) {
      g_string_free (ph, TRUE);
      goto fail;
    }
    g_string_free (ph, TRUE);
  }

  /* ---- what it does to the mirrors: PSF widths before and after ---- */
  q = g_new (gdouble, n);
  re = g_new (gdouble, n);
  im = g_new (gdouble, n);
  for (p = 0; p < n; p++)
    q[p] = aooct_kcal_invert (kt, n, p / (gdouble) (n - 1));
  for (i = 0; i < n_mirrors; i++) {
    gdouble mean = 0.0, w_raw, w_lin, w_disp, pk_raw, pk_lin, pk_disp;
    gint lo = MAX (1, fr[i].band_lo), hi = fr[i].band_hi;
    /* this mirror's own side's sign: as sharp as the sample's side */
    gdouble s_i = -side[i];

    for (p = 0; p < n; p++)
      mean += spec[i][p] / n;
    for (p = 0; p < n; p++)
      tmp[p] = spec[i][p] - mean;
    w_raw = aooct_kcal_fwhm (tmp, NULL, n, lo, hi, PSF_OVER, &pk_raw);
    resample_onto (tmp, q, n, re);
    w_lin = aooct_kcal_fwhm (re, NULL, n, lo, hi, PSF_OVER, &pk_lin);
    for (p = 0; p < n; p++) {
      gdouble uu = 2.0 * p / (n - 1) - 1.0, ph = 0.0;

      for (j = 2; j <= o.disp_order; j++)
        ph += s_i * dc[j] * pow (uu, j);
      im[p] = re[p] * sin (ph);
      re[p] = re[p] * cos (ph);
    }
    w_disp = aooct_kcal_fwhm (re, im, n, lo, hi, PSF_OVER, &pk_disp);
    g_printerr (PROGRAM ": mirror %d: PSF FWHM %.2f bins as recorded, %.2f "
        "k-linear, %.2f with the dispersion of its side (bins of the %d "
        "camera pixels; peak at %.2f, %.2f, %.2f)\n", i + 1, w_raw, w_lin,
        w_disp, n, pk_raw, pk_lin, pk_disp);
  }
  g_printerr (PROGRAM ": dispersion residual %.4f rad RMS after a2, a3, "
      "%.4f after a2 .. a5; k-linearisation residual %.4f rad RMS\n",
      disp_rms, disp_rms5, k_rms);
  g_printerr (PROGRAM ": the other side of zero delay needs the opposite "
      "signs\n");

  g_print ("aooctkmap wavelength-file=%s\n", o.output);
  {
    gchar b[4][G_ASCII_DTOSTR_BUF_SIZE];

    for (i = 0; i < AOOCT_DISP_N_COEFFS; i++)
      g_ascii_formatd (b[i], sizeof (b[i]), "%.3f", a[i]);
    frag = o.disp_order == 5 ?
        g_strdup_printf ("aooctdisp a2=%s a3=%s a4=%s a5=%s", b[0], b[1],
        b[2], b[3]) : g_strdup_printf ("aooctdisp a2=%s a3=%s", b[0], b[1]);
  }
  g_print ("%s\n", frag);
  status = 0;
  goto done;

fail:
  g_printerr (PROGRAM ": %s\n", error->message);
  g_clear_error (&error);
  status = 1;
  goto done;
usage:
  print_usage_hint ();
  status = 2;
done:
  if (fr)
    for (i = 0; i < n_mirrors; i++)
      aooct_kcal_fringe_clear (&fr[i]);
  if (spec)
    for (i = 0; i < n_mirrors; i++)
      g_free (spec[i]);
  g_free (spec);
  g_free (fr);
  g_free (side);
  g_free (weight);
  g_free (x);
  g_free (ksum);
  g_free (kt);
  g_free (u);
  g_free (phi);
  g_free (q);
  g_free (tmp);
  g_free (re);
  g_free (im);
  g_free (assumption);
  g_free (frag);
  g_free (names);
  if (text)
    g_string_free (text, TRUE);
  g_strfreev (o.mirrors);
  g_strfreev (o.backgrounds);
  g_strfreev (o.sample_darks);
  g_free (o.sides);
  g_free (o.ref_dark);
  g_free (o.camera_dark);
  g_free (o.range);
  g_free (o.output);
  g_free (o.phase_output);
  return status;
}
