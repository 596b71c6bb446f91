/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the calibration module (common/aooct-calib), without
 * GStreamer elements: coefficient parsing and the analytic monotonicity
 * check, wavelength files, the kmap table against a brute-force float64
 * search, and the dispersion weights. */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-calib.h"
#include "aooct-error.h"
#include "aooct-textfile.h"
#include "aooct-textwrite.h"
#include "aooct-kmap-table.h"

static void
assert_gerror (GError * err, gint code, const gchar * sub1, const gchar * sub2)
{
  fail_unless (err != NULL, "expected an error mentioning '%s'", sub1);
  fail_unless (err->domain == AOOCT_ERROR);
  fail_unless_equals_int (err->code, code);
  fail_unless (strstr (err->message, sub1) != NULL, "'%s' lacks '%s'",
      err->message, sub1);
  if (sub2)
    fail_unless (strstr (err->message, sub2) != NULL, "'%s' lacks '%s'",
        err->message, sub2);
  GST_INFO ("expected error: %s", err->message);
}

/* a message shows no control byte (a CR would overwrite it on a
 * terminal) */
static void
assert_printable (const gchar * msg)
{
  const gchar *p;

  for (p = msg; *p; p++)
    fail_unless ((guchar) * p >= 0x20 && *p != 0x7f, "control byte 0x%02x "
        "in: %s", (guchar) * p, msg);
}

GST_START_TEST (test_parse_coeffs)
{
  struct
  {
    const gchar *str;
    gint n;
    gdouble c[4];
    const gchar *what;
  } cases[] = {
    {"800,0.1,-1e-5,2e-9", 4, {800, 0.1, -1e-5, 2e-9}, NULL},
    {" 812.5 , 0.05 ", 2, {812.5, 0.05, 0, 0}, NULL},
    {"800", 1, {800, 0, 0, 0}, NULL},
    {"", 0, {0}, "empty"},
    {" \t ", 0, {0}, "empty"},
    {"1,2,3,4,5", 0, {0}, "has 5 coefficients; expected 1 to 4"},
    {"800,abc", 0, {0}, "c1 ('abc') is not a number"},
    {"800,,1", 0, {0}, "c1 ('') is not a number"},
    {"800,0.1,", 0, {0}, "c2 ('') is not a number"},
    {"800,0.1x", 0, {0}, "not a number"},
    {"800,nan", 0, {0}, "c1 is not finite"},
    {"inf,1", 0, {0}, "c0 is not finite"},
    {"nan,1", 0, {0}, "c0 is not finite"},
    {"800,1e400", 0, {0}, "c1 is not finite"},
    {"800;0.1", 0, {0}, "not a number"},
    /* invisible bytes quoted, never raw in the message */
    {"800,0.1\x01", 0, {0}, "c1 ('0.1\\x01') is not a number"},
    {"\xef\xbb\xbf" "800,0.1", 0, {0}, "c0 ('\\xef\\xbb\\xbf800')"},
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    gdouble c[4] = { -1, -1, -1, -1 };
    gint n = -1, i;
    GError *err = NULL;
    gboolean ok = aooct_calib_parse_coeffs (cases[k].str, c, &n, &err);

    if (cases[k].what == NULL) {
      fail_unless (ok, "'%s': %s", cases[k].str, err ? err->message : "");
      fail_unless_equals_int (n, cases[k].n);
      for (i = 0; i < 4; i++)
        fail_unless (c[i] == cases[k].c[i], "'%s' c%d = %g", cases[k].str, i,
            c[i]);
    } else {
      fail_if (ok, "'%s' accepted", cases[k].str);
      assert_gerror (err, AOOCT_ERROR_SETTINGS, "wavelength-coeffs",
          cases[k].what);
      assert_printable (err->message);
      g_error_free (err);
    }
  }
}

GST_END_TEST;

static gdouble
poly (const gdouble * c, gdouble p)
{
  return c[0] + p * (c[1] + p * (c[2] + p * c[3]));
}

GST_START_TEST (test_poly_monotonic_analytic)
{
  /* a wiggle between pixels 10 and 11: slope roots at 10.4 and 10.6, the
   * values at the integer pixels still strictly increase */
  const gdouble r1 = 10.4, r2 = 10.6, s = 1e-3;
  gdouble wiggle[4] = { 800, s * 3 * r1 * r2, -s * 1.5 * (r1 + r2), s };
  gdouble inflection[4] = { 1000, 1200, -60, 1 };       /* 9000 + (p-20)^3 */
  gdouble turn_inside[4] = { 800, 0.1, -1e-4, 0 };      /* max at p = 500 */
  gdouble turn_outside[4] = { 800, 0.1, -1e-4, 0 };
  gdouble decreasing[4] = { 900, -0.08, -1e-5, 2e-9 };
  gdouble constant[4] = { 800, 0, 0, 0 };
  gdouble negative_start[4] = { -10, 1, 0, 0 };
  gdouble negative_end[4] = { 100, -2, 0, 0 };
  gdouble huge[4] = { 1e300, 1e300, 1e300, 1e300 };
  GError *err = NULL;
  gint p;

  for (p = 0; p < 63; p++)
    fail_unless (poly (wiggle, p + 1) > poly (wiggle, p));
  fail_unless (poly (wiggle, 10.6) < poly (wiggle, 10.4));
  fail_if (aooct_calib_check_poly (wiggle, 4, 64, &err));
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "not strictly monotonic",
      "[0, 63]");
  g_clear_error (&err);
  /* the same polynomial on [0, 10] (N = 11) has no wiggle */
  fail_unless (aooct_calib_check_poly (wiggle, 4, 11, &err));

  fail_unless (aooct_calib_check_poly (inflection, 4, 41, &err));
  fail_if (aooct_calib_check_poly (turn_inside, 3, 1024, &err));
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "not strictly monotonic", "500");
  g_clear_error (&err);
  fail_unless (aooct_calib_check_poly (turn_outside, 3, 500, &err));
  fail_unless (aooct_calib_check_poly (decreasing, 4, 2048, &err));
  fail_if (aooct_calib_check_poly (constant, 1, 16, &err));
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "constant", NULL);
  g_clear_error (&err);
  fail_if (aooct_calib_check_poly (constant, 4, 16, &err));
  g_clear_error (&err);
  fail_if (aooct_calib_check_poly (negative_start, 2, 100, &err));
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "lambda(0) = -10", "positive");
  g_clear_error (&err);
  fail_if (aooct_calib_check_poly (negative_end, 2, 100, &err));
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "lambda(99)", "positive");
  g_clear_error (&err);
  fail_if (aooct_calib_check_poly (huge, 4, 2048, &err));
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "not finite", NULL);
  g_clear_error (&err);
}

GST_END_TEST;

/* Random monotonic cubic: must be accepted exactly when a dense float64
 * scan finds it strictly monotonic and positive (away from ties). */
GST_START_TEST (test_poly_random_against_scan)
{
  GRand *rand = aooct_test_rand_new ();
  gint trial, agree = 0, accepted = 0;

  for (trial = 0; trial < 2000; trial++) {
    const gint n = g_rand_int_range (rand, 2, 3000);
    gdouble c[4], prev = 0, v, min_step = G_MAXDOUBLE;
    gint dir = 0, k, steps = 20000;
    gboolean mono = TRUE, pos = TRUE, ok;
    GError *err = NULL;

    c[0] = g_rand_double_range (rand, -100, 1500);
    c[1] = g_rand_double_range (rand, -0.3, 0.3);
    c[2] = g_rand_double_range (rand, -1, 1) * 1e-4;
    c[3] = g_rand_double_range (rand, -1, 1) * 1e-7;
    for (k = 0; k <= steps; k++) {
      v = poly (c, (gdouble) (n - 1) * k / steps);
      pos = pos && v > 0;
      if (k > 0) {
        gint d = v > prev ? 1 : (v < prev ? -1 : 0);
        if (dir == 0)
          dir = d;
        mono = mono && d == dir && d != 0;
        min_step = MIN (min_step, fabs (v - prev));
      }
      prev = v;
    }
    ok = aooct_calib_check_poly (c, 4, n, &err);
    g_clear_error (&err);
    /* two slope roots closer than the scan step hide a turn from it, and
     * so does one within a scan step of an end (seed 4269054740: a root at
     * p = 1378.97 of N = 1380, lambda falls by 7e-8 nm after it) */
    {
      gdouble disc = 4 * c[2] * c[2] - 12 * c[3] * c[1];
      gdouble step = (gdouble) (n - 1) / steps, q, r[2];
      if (disc >= 0 && sqrt (disc) / fabs (3 * c[3]) < 2.0 * step)
        continue;
      if (disc >= 0) {
        q = -0.5 * (2 * c[2] + copysign (sqrt (disc), 2 * c[2]));
        r[0] = q / (3 * c[3]);
        r[1] = q != 0 ? c[1] / q : r[0];
        if ((r[0] > 0 && r[0] < n - 1 && (r[0] < step || r[0] > n - 1 - step))
            || (r[1] > 0 && r[1] < n - 1 && (r[1] < step
                    || r[1] > n - 1 - step)))
          continue;
      }
    }
    /* a turn inside one scan step is too shallow to decide by scanning */
    if (!mono && min_step < 1e-9)
      continue;
    fail_unless (ok == (mono && pos), "c = %g %g %g %g, N = %d: check says "
        "%d, scan says monotonic %d positive %d", c[0], c[1], c[2], c[3], n,
        ok, mono, pos);
    agree++;
    accepted += ok;
  }
  /* both outcomes were exercised */
  fail_unless (accepted > 100 && agree - accepted > 100, "%d/%d", accepted,
      agree);
  g_rand_free (rand);
}

GST_END_TEST;

static gchar *
write_values (const gdouble * v, gint n)
{
  return aooct_test_write_values ("wavelengths in nm", v, n);
}

static void
check_file_error (const gchar * path, const AooctTestBadFile * bad,
    gpointer unused)
{
  GError *err = NULL;
  AooctWavelength *cal = aooct_wavelength_new (path, NULL, 4, &err);

  fail_unless (cal == NULL, "%s (%s) accepted", path, bad->what);
  assert_gerror (err, AOOCT_ERROR_FILE, path, bad->what);
  fail_unless (strstr (err->message, "wavelength-file") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, bad->line) != NULL, "%s lacks %s",
      err->message, bad->line);
  assert_printable (err->message);
  g_clear_error (&err);
}

/* What a file's author wrote, in whatever editor: a UTF-8 byte-order mark
 * (invisible) and CRLF or old Mac CR line ends are read as the same
 * numbers, and no message carries a raw control byte (issue 19, item
 * 15). */
GST_START_TEST (test_text_quirks)
{
  const gchar *good[] = {
    "\xef\xbb\xbf" "785\n786\n787.5\n790\n",
    "785\r\n786\r\n787.5\r\n790\r\n",
    "785\r786\r787.5\r790\r",
    "\xef\xbb\xbf# header\r785\r786 # c\r\r787.5\r790",
  };
  const struct
  {
    const gchar *text, *want;
  } bad[] = {
    {"785\r786\rx\r790\r", ":3: 'x' is not a number"},
    {"785\n\xef\xbb\xbf" "786\n787\n788\n", ":2: '\\xef\\xbb\\xbf786'"},
    {"785\n78\x1b[2J6\n787\n788\n", ":2: '78\\x1b[2J6'"},
  };
  gdouble want[4] = { 785, 786, 787.5, 790 };
  guint k, i;

  for (k = 0; k < G_N_ELEMENTS (good); k++) {
    gchar *path = aooct_test_write_temp (good[k]);
    GError *err = NULL;
    gdouble *v = aooct_text_read_values (path, 4, &err);

    fail_unless (v != NULL, "case %u: %s", k, err ? err->message : "");
    for (i = 0; i < 4; i++)
      fail_unless (v[i] == want[i], "case %u value %u: %g", k, i, v[i]);
    g_free (v);
    g_unlink (path);
    g_free (path);
  }
  for (k = 0; k < G_N_ELEMENTS (bad); k++) {
    gchar *path = aooct_test_write_temp (bad[k].text);
    GError *err = NULL;

    fail_unless (aooct_text_read_values (path, 4, &err) == NULL);
    fail_unless (strstr (err->message, bad[k].want) != NULL, "%s lacks %s",
        err->message, bad[k].want);
    assert_printable (err->message);
    g_clear_error (&err);
    g_unlink (path);
    g_free (path);
  }
}

GST_END_TEST;

/* What aooct writes (aooct-background's background, aooctsrc's
 * calibration-file, aooctcs's mask-output-file) the readers take, whatever
 * the header holds: every kind of line break, a '#', non-ASCII; a text the
 * reader would refuse is not written at all; errors name the file, never
 * the temporary one. */
GST_START_TEST (test_text_write)
{
  const gchar *headers[] = {
    "one line", "two\nlines", "cr\rline", "crlf\r\nline", "ends\n",
    "\n\nleading breaks", "hash # inside\n# and 786 after", "Müller \"q\"",
    "",
  };
  gchar *dir = g_dir_make_tmp ("aooct-textwrite-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "out.txt", NULL);
  gchar *missing = g_build_filename (dir, "no", "out.txt", NULL);
  gdouble want[4] = { 785, 786, 787.5, 790 };
  GError *err = NULL;
  GString *s;
  GDir *d;
  guint k, i;

  for (k = 0; k < G_N_ELEMENTS (headers); k++) {
    gdouble *v;

    s = g_string_new (NULL);
    aooct_text_append_comment (s, headers[k]);
    g_string_append (s, "785\n786\n787.5\n790\n");
    fail_unless (aooct_text_write (path, s, 1, 1, 4, &err), "header %u: %s",
        k, err ? err->message : "");
    v = aooct_text_read_values (path, 4, &err);
    fail_unless (v != NULL, "header %u read back: %s", k,
        err ? err->message : "");
    for (i = 0; i < 4; i++)
      fail_unless (v[i] == want[i], "header %u value %u: %g", k, i, v[i]);
    g_free (v);
    g_string_free (s, TRUE);
  }

  /* refused by the reader: not written, the old file stays */
  s = g_string_new ("785\nnan\n787.5\n790\n");
  fail_if (aooct_text_write (path, s, 1, 1, 4, &err));
  fail_unless (strstr (err->message, "would not be read back") != NULL
      && strstr (err->message, path) != NULL, "%s", err->message);
  g_clear_error (&err);
  g_string_assign (s, "785\n786\n787.5\n");
  fail_if (aooct_text_write (path, s, 1, 1, 4, &err));
  g_clear_error (&err);
  g_free (aooct_text_read_values (path, 4, &err));
  fail_unless (err == NULL, "the earlier file was replaced");

  /* a write error names the file asked for, not the temporary one */
  g_string_assign (s, "785\n786\n787.5\n790\n");
  fail_if (aooct_text_write (missing, s, 1, 1, 4, &err));
  fail_unless (g_str_has_prefix (err->message, "cannot write ")
      && strstr (err->message, missing) != NULL
      && strstr (err->message, "out.txt.") == NULL, "%s", err->message);
  g_clear_error (&err);
  fail_if (aooct_text_write (dir, s, 1, 1, 4, &err));
  fail_unless (strstr (err->message, dir) != NULL, "%s", err->message);
  g_clear_error (&err);
  g_string_free (s, TRUE);

  /* no temporary file left behind */
  d = g_dir_open (dir, 0, NULL);
  fail_unless_equals_string (g_dir_read_name (d), "out.txt");
  fail_unless (g_dir_read_name (d) == NULL);
  g_dir_close (d);
  g_unlink (path);
  g_rmdir (dir);
  g_free (missing);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_wavelength_file)
{
  const AooctTestBadFile bad[] = {
    {"800\n801\n800.5\n803\n", ":3:", "strictly increasing"},
    {"803\n802\n802\n801\n", ":3:", "strictly decreasing"},
    {"800\n800\n802\n803\n", ":2:", "strictly"},
    {"-1\n1\n2\n3\n", ":1:", "not positive"},
    {"# c\n800 1\n801\n802\n803\n", ":2:", "more than 1"},
  };
  gdouble good[4] = { 850, 840.5, 830.25, 820 };
  AooctWavelength *cal;
  GError *err = NULL;
  gchar *path;
  guint k;

  aooct_test_for_each_bad_file (bad, G_N_ELEMENTS (bad), check_file_error,
      NULL);

  path = write_values (good, 4);
  cal = aooct_wavelength_new (path, "800,1", 4, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "both", "wavelength-coeffs");
  g_clear_error (&err);
  cal = aooct_wavelength_new (NULL, "", 4, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "neither", "wavelength-file");
  g_clear_error (&err);

  cal = aooct_wavelength_new (path, NULL, 4, &err);
  fail_unless (cal != NULL);
  fail_unless_equals_int (cal->n_coeffs, 0);
  for (k = 0; k < 4; k++) {
    fail_unless (cal->lambda[k] == good[k]);
    fail_unless (aooct_wavelength_at (cal, k) == good[k]);
  }
  fail_unless (fabs (aooct_wavelength_at (cal, 1.25) - (840.5 - 0.25 *
              10.25)) < 1e-12);
  aooct_wavelength_free (cal);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* The table against an independent brute-force search in float64. */
static void
check_table (const AooctWavelength * cal, const AooctGeometry * g)
{
  const gint j0 = aooct_geometry_data_start (g);
  const gint j1 = aooct_geometry_data_end (g);
  AooctKmapTable *t = aooct_kmap_table_new (cal, g, NULL);
  gdouble *lam = g_new (gdouble, g->samples);
  gdouble k0 = 2 * G_PI / cal->lambda[0], k1 = 2 * G_PI / cal->lambda[cal->n
      - 1];
  gint i, l;

  fail_unless (t != NULL);
  fail_unless_equals_int (t->start, j0);
  fail_unless_equals_int (t->end, j1);
  for (i = j0; i <= j1; i++)
    lam[i] = aooct_wavelength_at (cal, (gdouble) i / g->pad_factor -
        g->pad_offset);
  for (i = 0; i < g->samples; i++) {
    gdouble lp, lo, hi, frac;

    if (i < j0 || i > j1) {
      fail_unless_equals_int (t->index[i], -1);
      fail_unless (t->frac[i] == 0.0f && t->frac_d[i] == 0.0);
      continue;
    }
    lp = 2 * G_PI / (k0 + (i - j0) * (k1 - k0) / (j1 - j0));
    l = t->index[i];
    fail_unless (l >= j0 && l <= j1 - 1, "i=%d l=%d", i, l);
    lo = MIN (lam[l], lam[l + 1]);
    hi = MAX (lam[l], lam[l + 1]);
    /* lambda'_i lies in the bracket, up to rounding at the two ends */
    fail_unless (lp >= lo - 1e-9 * lp && lp <= hi + 1e-9 * lp,
        "i=%d lambda'=%.17g not in [%.17g, %.17g]", i, lp, lo, hi);
    if (lp < lo || lp > hi)
      fail_unless (l == j0 || l == j1 - 1);
    frac = (lp - lam[l]) / (lam[l + 1] - lam[l]);
    fail_unless (fabs (t->frac_d[i] - frac) <= 1e-12, "i=%d", i);
    fail_unless (t->frac[i] == (gfloat) t->frac_d[i]);
    fail_unless (t->frac_d[i] > -1e-6 && t->frac_d[i] < 1 + 1e-6);
  }
  aooct_kmap_table_free (t);
  g_free (lam);
}

GST_START_TEST (test_kmap_table)
{
  GRand *rand = aooct_test_rand_new ();
  const gchar *coeffs[] = { "800,0.08,-2e-6", "880,-0.07,-3e-6,1e-10",
    "1040,0.05"
  };
  gint n = 500 + g_rand_int_range (rand, 0, 100), i, k;
  gdouble *v = g_new (gdouble, n);
  AooctGeometry g;
  AooctWavelength *cal;
  gchar *path;

  for (k = 0; k < (gint) G_N_ELEMENTS (coeffs); k++) {
    cal = aooct_wavelength_new (NULL, coeffs[k], n, NULL);
    fail_unless (cal != NULL);
    aooct_test_geometry (&g, n, 8, 1, 0, 0);
    check_table (cal, &g);
    aooct_test_geometry (&g, n, 8, 1, 0, 2);
    check_table (cal, &g);
    aooct_test_geometry (&g, n, 8, 1, 0, 4);
    check_table (cal, &g);
    aooct_wavelength_free (cal);
  }
  /* a measured-looking file: decreasing with random ripple */
  v[0] = 900;
  for (i = 1; i < n; i++)
    v[i] = v[i - 1] - 0.1 * g_rand_double_range (rand, 0.5, 1.5);
  path = write_values (v, n);
  cal = aooct_wavelength_new (path, NULL, n, NULL);
  fail_unless (cal != NULL);
  aooct_test_geometry (&g, n, 8, 1, 0, 0);
  check_table (cal, &g);
  aooct_test_geometry (&g, n, 8, 1, 0, 2);
  check_table (cal, &g);
  aooct_wavelength_free (cal);
  g_unlink (path);
  g_free (path);
  g_free (v);
  g_rand_free (rand);
}

GST_END_TEST;

static const gdouble zero_coeffs[AOOCT_DISP_N_COEFFS] = { 0 };

GST_START_TEST (test_disp_weights)
{
  GRand *rand = aooct_test_rand_new ();
  gdouble a2 = g_rand_double_range (rand, -40, 40);
  gdouble a3 = g_rand_double_range (rand, -20, 20);
  AooctGeometry g;
  GString *text = g_string_new (NULL);
  gdouble *rec = g_new (gdouble, 2 * 16);
  gboolean *is_phase = g_new (gboolean, 16);
  GError *err = NULL;
  gfloat *w;
  gchar *path;
  gint i, j0, j1;

  aooct_test_geometry (&g, 300, 8, 1, 0, 2);
  j0 = aooct_geometry_data_start (&g);
  j1 = aooct_geometry_data_end (&g);
  fail_unless (aooct_disp_u (&g, j0) == -1.0 && aooct_disp_u (&g, j1) == 1.0);
  w = aooct_disp_weights_new (&g, NULL, AOOCT_DISP_GRID_AUTO, (gdouble[]) {
      a2, a3, 0, 0}, &err);
  fail_unless (w != NULL);
  for (i = 0; i < g.samples; i++) {
    gdouble u = 2.0 * (i - j0) / (j1 - j0) - 1, phi = a2 * u * u + a3 * u *
        u * u;
    fail_unless (fabs (w[2 * i] - cos (phi)) < 1e-7
        && fabs (w[2 * i + 1] - sin (phi)) < 1e-7, "i=%d", i);
  }
  g_free (w);
  w = aooct_disp_weights_new (&g, "", AOOCT_DISP_GRID_AUTO, zero_coeffs, &err);
  for (i = 0; i < g.samples; i++)
    fail_unless (w[2 * i] == 1.0f && w[2 * i + 1] == 0.0f);
  g_free (w);

  /* mixed phase / re im records with comments, on the raw grid */
  aooct_test_geometry (&g, 16, 8, 1, 0, 0);
  for (i = 0; i < 16; i++) {
    is_phase[i] = g_rand_boolean (rand);
    rec[2 * i] = g_rand_double_range (rand, -4, 4);
    rec[2 * i + 1] = g_rand_double_range (rand, -2, 2);
    if (is_phase[i])
      g_string_append_printf (text, "%.17g # phi\n", rec[2 * i]);
    else
      g_string_append_printf (text, "%.17g\t%.17g\r\n", rec[2 * i],
          rec[2 * i + 1]);
  }
  path = aooct_test_write_temp (text->str);
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_AUTO, zero_coeffs,
      &err);
  fail_unless (w != NULL);
  for (i = 0; i < 16; i++) {
    gdouble re = is_phase[i] ? cos (rec[2 * i]) : rec[2 * i];
    gdouble im = is_phase[i] ? sin (rec[2 * i]) : rec[2 * i + 1];
    fail_unless (w[2 * i] == (gfloat) re && w[2 * i + 1] == (gfloat) im);
  }
  g_free (w);
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_AUTO, (gdouble[]) {
      0, 0.5, 0, 0}
      , &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "phase-file", "a3=0.5");
  g_clear_error (&err);
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_AUTO, (gdouble[]) {
      0, 0, 0, -2}
      , &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "phase-file", "a5=-2");
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);

  path = aooct_test_write_temp ("1\n2\n");
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_AUTO, zero_coeffs,
      &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_FILE, "phase-file", "too few");
  fail_unless (strstr (err->message, path) && strstr (err->message, ":2:"));
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);
  w = aooct_disp_weights_new (&g, NULL, AOOCT_DISP_GRID_AUTO, (gdouble[]) {
      NAN, 0, 0, 0}
      , &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "finite", NULL);
  g_clear_error (&err);
  w = aooct_disp_weights_new (&g, NULL, AOOCT_DISP_GRID_AUTO, (gdouble[]) {
      0, 0, 0, INFINITY}
      , &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "finite", "a5=inf");
  g_clear_error (&err);

  g_string_free (text, TRUE);
  g_free (rec);
  g_free (is_phase);
  g_rand_free (rand);
}

GST_END_TEST;

/* a2 .. a5 against the spec's polynomial in double, and a phase file on
 * the camera grid (N records) against its interpolation done here: at the
 * camera pixels the records themselves, in between linear in the
 * unwrapped phase (the file holds it wrapped into (-pi, pi]: the
 * interpolation must take the shorter arc), magnitudes linear for re im
 * records; auto tells N from P2 records by the count. */
GST_START_TEST (test_disp_weights_orders_and_camera_grid)
{
  GRand *rand = aooct_test_rand_new ();
  gdouble a[AOOCT_DISP_N_COEFFS], c[4];
  const gint n = 300;
  AooctGeometry g;
  GString *text = g_string_new (NULL);
  gdouble *phi = g_new (gdouble, n), *mag = g_new (gdouble, n);
  GError *err = NULL;
  gfloat *w, *w2;
  gchar *path;
  gint i, k, j0, j1, f;

  for (k = 0; k < AOOCT_DISP_N_COEFFS; k++)
    a[k] = g_rand_double_range (rand, -30, 30);
  aooct_test_geometry (&g, n, 8, 1, 0, 2);
  j0 = aooct_geometry_data_start (&g);
  j1 = aooct_geometry_data_end (&g);
  f = g.pad_factor;
  w = aooct_disp_weights_new (&g, NULL, AOOCT_DISP_GRID_AUTO, a, &err);
  fail_unless (w != NULL);
  for (i = 0; i < g.samples; i++) {
    gdouble u = 2.0 * (i - j0) / (j1 - j0) - 1;
    gdouble p = a[0] * pow (u, 2) + a[1] * pow (u, 3) + a[2] * pow (u, 4) +
        a[3] * pow (u, 5);

    fail_unless (fabs (w[2 * i] - cos (p)) < 1e-6
        && fabs (w[2 * i + 1] - sin (p)) < 1e-6, "i=%d", i);
  }
  g_free (w);
  /* a4 = a5 = 0 is the two-term phase to the last bit */
  w = aooct_disp_weights_new (&g, NULL, AOOCT_DISP_GRID_AUTO, (gdouble[]) {
      a[0], a[1], 0, 0}
      , &err);
  for (i = 0; i < g.samples; i++) {
    gdouble p = aooct_disp_phase (a[0], a[1], aooct_disp_u (&g, i));
    fail_unless (w[2 * i] == (gfloat) cos (p)
        && w[2 * i + 1] == (gfloat) sin (p));
  }
  g_free (w);

  /* camera grid: a smooth phase of some 60 rad (wrapped in the file) */
  for (k = 0; k < 4; k++)
    c[k] = g_rand_double_range (rand, -20, 20);
  for (i = 0; i < n; i++) {
    gdouble u = 2.0 * i / (n - 1) - 1;

    phi[i] = c[0] * u + c[1] * u * u + c[2] * u * u * u + c[3] * u * u * u * u;
    mag[i] = g_rand_double_range (rand, 0.5, 1.5);
    if (i % 3 == 0)
      g_string_append_printf (text, "%.17g\n", remainder (phi[i], 2 * G_PI));
    else
      g_string_append_printf (text, "%.17g %.17g\n", mag[i] * cos (phi[i]),
          mag[i] * sin (phi[i]));
    if (i % 3 == 0)
      mag[i] = 1.0;
  }
  path = aooct_test_write_temp (text->str);
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_AUTO, zero_coeffs,
      &err);
  fail_unless (w != NULL, "%s", err ? err->message : "");
  w2 = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_CAMERA, zero_coeffs,
      &err);
  fail_unless (w2 != NULL);
  fail_unless (memcmp (w, w2, 2 * g.samples * sizeof (gfloat)) == 0);
  g_free (w2);
  for (i = j0; i <= j1; i++) {
    gint r = (i - j0) / f;
    gdouble t = (i - j0) / (gdouble) f - r, p, m;

    if (r == n - 1) {
      p = phi[r];
      m = mag[r];
    } else {
      p = phi[r] + t * (phi[r + 1] - phi[r]);
      m = mag[r] + t * (mag[r + 1] - mag[r]);
    }
    fail_unless (fabs (w[2 * i] - m * cos (p)) < 2e-6
        && fabs (w[2 * i + 1] - m * sin (p)) < 2e-6, "i=%d: %g %g, "
        "expected %g %g", i, w[2 * i], w[2 * i + 1], m * cos (p), m * sin (p));
  }
  /* the margins take the end records' weights */
  fail_unless (w[0] == w[2 * j0] && w[1] == w[2 * j0 + 1]);
  fail_unless (w[2 * (g.samples - 1)] == w[2 * j1]);
  g_free (w);
  /* N records read as P2: the count is wrong, and the message says why */
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_PADDED, zero_coeffs,
      &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_FILE, "phase-file-grid=padded", "camera");
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);
  /* a count that is neither N nor P2 */
  path = aooct_test_write_temp ("1\n2\n3\n");
  w = aooct_disp_weights_new (&g, path, AOOCT_DISP_GRID_AUTO, zero_coeffs,
      &err);
  fail_unless (w == NULL);
  assert_gerror (err, AOOCT_ERROR_FILE, "too few", "300");
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);

  g_string_free (text, TRUE);
  g_free (phi);
  g_free (mag);
  g_rand_free (rand);
}

GST_END_TEST;

/* What looks wrong in a calibration is named: wavelengths out of any
 * light source's range (a unit mistake), and a coefficient list in the
 * descending order of numpy.polyval when its reverse would pass. */
GST_START_TEST (test_calib_unit_and_order_hints)
{
  AooctWavelength *cal;
  GError *err = NULL;
  gchar *path;

  /* metres, ascending: positive and monotonic, but 9.3e-7 "nm" */
  cal = aooct_wavelength_new_from_coeffs ("8.68e-7,1.2e-10", 1024, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "metres", "coefficients are in nm");
  fail_if (strstr (err->message, "reversed"));
  g_clear_error (&err);
  /* picometres */
  cal = aooct_wavelength_new_from_coeffs ("868000,120", 1024, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "above 10000 nm",
      "coefficients are in nm");
  g_clear_error (&err);
  /* numpy.polyval order: c3 first; lambda(0) = 2e-9 nm */
  cal = aooct_wavelength_new_from_coeffs ("2e-9,-1e-5,0.1,800", 1024, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "descending order",
      "\"800,0.1,-1e-05,2e-09\" would pass");
  g_clear_error (&err);
  /* the same, not monotonic either way round: no hint */
  cal = aooct_wavelength_new_from_coeffs ("800,0.1,-1e-4", 1024, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_SETTINGS, "monotonic", NULL);
  fail_if (strstr (err->message, "reversed"));
  g_clear_error (&err);
  /* the reverse that passes is accepted as given */
  cal = aooct_wavelength_new_from_coeffs ("800,0.1,-1e-05,2e-09", 1024, &err);
  fail_unless (cal != NULL);
  aooct_wavelength_free (cal);
  /* a file in metres */
  path = aooct_test_write_temp ("8.5e-7\n8.6e-7\n8.7e-7\n8.8e-7\n");
  cal = aooct_wavelength_new_from_file (path, 4, &err);
  fail_unless (cal == NULL);
  assert_gerror (err, AOOCT_ERROR_FILE, "metres", ":1:");
  g_clear_error (&err);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

static Suite *
calib_suite (void)
{
  Suite *s = suite_create ("aooct-calib");
  TCase *tc = tcase_create ("general");

  tcase_add_test (tc, test_text_quirks);
  tcase_add_test (tc, test_text_write);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse_coeffs);
  tcase_add_test (tc, test_poly_monotonic_analytic);
  tcase_add_test (tc, test_poly_random_against_scan);
  tcase_add_test (tc, test_wavelength_file);
  tcase_add_test (tc, test_kmap_table);
  tcase_add_test (tc, test_disp_weights);
  tcase_add_test (tc, test_disp_weights_orders_and_camera_grid);
  tcase_add_test (tc, test_calib_unit_and_order_hints);
  return s;
}

GST_CHECK_MAIN (calib);
