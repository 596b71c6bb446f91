/* aooct: reader for the spec's text calibration files. */
#include <math.h>
#include <string.h>

#include "aooct-textfile.h"
#include "aooct-error.h"

/* Upper bound on records, far above any real calibration (P2 <= 2^20),
 * so that a hostile file cannot make us allocate without limit. */
#define MAX_RECORDS (1u << 22)

static gboolean
parse_line (const gchar * name, gint lineno, gchar * line, gint min_values,
    gint max_values, AooctRecord * rec, GError ** error)
{
  gchar *p = line, *end;
  gint n = 0;

  while (TRUE) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0')
      break;
    if (n == max_values) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: more than %d number%s on one line", name, lineno,
          max_values, max_values == 1 ? "" : "s");
      return FALSE;
    }
    end = p;
    /* g_ascii_strtod is locale-independent; it also accepts "nan" and
     * "inf", which we reject below with a clearer message */
    rec->v[n] = g_ascii_strtod (p, &end);
    if (end == p || (*end != '\0' && *end != ' ' && *end != '\t')) {
      gchar *tok = g_strndup (p, strcspn (p, " \t"));
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: '%.40s' is not a number", name, lineno, tok);
      g_free (tok);
      return FALSE;
    }
    if (!isfinite (rec->v[n])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: value is not finite (NaN or infinity)", name, lineno);
      return FALSE;
    }
    n++;
    p = end;
  }
  if (n < min_values) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s:%d: expected %d number%s, found %d", name, lineno, min_values,
        min_values == 1 ? "" : "s", n);
    return FALSE;
  }
  rec->n_values = n;
  rec->line = lineno;
  return TRUE;
}

AooctRecord *
aooct_text_parse (const gchar * name, const gchar * data, gsize len,
    gint min_values, gint max_values, gsize expected, gsize * n_records,
    GError ** error)
{
  GArray *records = g_array_new (FALSE, FALSE, sizeof (AooctRecord));
  gsize pos = 0;
  gint lineno = 0;

  g_return_val_if_fail (min_values >= 1 && max_values <= 2
      && min_values <= max_values, NULL);

  while (pos < len) {
    gsize eol = pos, cut;
    gchar *line;
    AooctRecord rec;

    while (eol < len && data[eol] != '\n')
      eol++;
    lineno++;
    /* the record ends at a comment, a NUL byte or the end of the line */
    for (cut = pos; cut < eol && data[cut] != '#' && data[cut] != '\0'; cut++);
    if (cut < eol && data[cut] == '\0') {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: contains a NUL byte (not a text file?)", name, lineno);
      goto fail;
    }
    line = g_strndup (data + pos, cut - pos);
    g_strchomp (line);          /* trailing CR, spaces and tabs */
    g_strchug (line);
    if (line[0] != '\0') {
      if (!parse_line (name, lineno, line, min_values, max_values, &rec, error)) {
        g_free (line);
        goto fail;
      }
      if ((expected > 0 && records->len == expected)
          || records->len >= MAX_RECORDS) {
        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
            "%s:%d: too many records, expected %" G_GSIZE_FORMAT, name,
            lineno, expected > 0 ? expected : (gsize) MAX_RECORDS);
        g_free (line);
        goto fail;
      }
      g_array_append_val (records, rec);
    }
    g_free (line);
    pos = eol + 1;
  }

  if (records->len == 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: contains no records%s", name, len == 0 ? " (empty file)" : "");
    goto fail;
  }
  if (expected > 0 && records->len != expected) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s:%d: too few records: %u, expected %" G_GSIZE_FORMAT, name,
        lineno, records->len, expected);
    goto fail;
  }
  *n_records = records->len;
  return (AooctRecord *) g_array_free (records, FALSE);

fail:
  g_array_free (records, TRUE);
  return NULL;
}

AooctRecord *
aooct_text_read (const gchar * path, gint min_values, gint max_values,
    gsize expected, gsize * n_records, GError ** error)
{
  gchar *data = NULL;
  gsize len = 0;
  GError *err = NULL;
  AooctRecord *recs;

  if (path == NULL || path[0] == '\0') {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "no file name given");
    return NULL;
  }
  if (!g_file_get_contents (path, &data, &len, &err)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s: cannot read: %s",
        path, err->message);
    g_clear_error (&err);
    return NULL;
  }
  recs = aooct_text_parse (path, data, len, min_values, max_values, expected,
      n_records, error);
  g_free (data);
  return recs;
}

gdouble *
aooct_text_read_values (const gchar * path, gsize expected, GError ** error)
{
  gsize n = 0, i;
  AooctRecord *recs = aooct_text_read (path, 1, 1, expected, &n, error);
  gdouble *values;

  if (recs == NULL)
    return NULL;
  values = g_new (gdouble, n);
  for (i = 0; i < n; i++)
    values[i] = recs[i].v[0];
  g_free (recs);
  return values;
}
