/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: reader for the spec's text calibration files. */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "aooct-textfile.h"
#include "aooct-error.h"
#include "aooct-open.h"

/* Upper bound on records, far above any real calibration (P2 <= 2^20),
 * so that a hostile file cannot make us allocate without limit. */
#define MAX_RECORDS (1u << 22)

/* A token quoted for a message: printable ASCII as it is, every other
 * byte as \xNN, so that an invisible byte (a control character, a
 * byte-order mark that is not at the start) shows, and a message never
 * carries raw control bytes.  At most @max input bytes. */
gchar *
aooct_text_quote (const gchar * p, gsize len, gsize max)
{
  GString *s = g_string_new (NULL);
  gsize i;

  for (i = 0; i < len && i < max; i++) {
    guchar c = (guchar) p[i];

    if (c >= 0x20 && c < 0x7f && c != '\\')
      g_string_append_c (s, (gchar) c);
    else
      g_string_append_printf (s, "\\x%02x", c);
  }
  if (len > max)
    g_string_append (s, "...");
  return g_string_free (s, FALSE);
}

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
      gchar *tok = aooct_text_quote (p, strcspn (p, " \t"), 40);
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: '%s' is not a number", name, lineno, tok);
      g_free (tok);
      return FALSE;
    }
    if (!isfinite (rec->v[n])) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: value is not finite (NaN or infinity)", name, lineno);
      return FALSE;
    }
    /* the pipeline computes in float32: a value beyond its range would
     * become infinite there (an all-white image, not an error) */
    if (fabs (rec->v[n]) > FLT_MAX) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: value %.9g is beyond the float32 range (magnitude at most "
          "%.9g) in which the pipeline computes", name, lineno, rec->v[n],
          (gdouble) FLT_MAX);
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

  /* a UTF-8 byte-order mark (written by some Windows editors) is not part
   * of the first number */
  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    pos = 3;
  while (pos < len) {
    gsize eol = pos, cut, next;
    gchar *line;
    AooctRecord rec;

    /* lines end at LF, CRLF or a lone CR (old Mac files) */
    while (eol < len && data[eol] != '\n' && data[eol] != '\r')
      eol++;
    next = eol + 1;
    if (eol + 1 < len && data[eol] == '\r' && data[eol + 1] == '\n')
      next = eol + 2;
    lineno++;
    /* the record ends at a comment, a NUL byte or the end of the line */
    for (cut = pos; cut < eol && data[cut] != '#' && data[cut] != '\0'; cut++);
    if (cut < eol && data[cut] == '\0') {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s:%d: contains a NUL byte (not a text file?)", name, lineno);
      goto fail;
    }
    line = g_strndup (data + pos, cut - pos);
    g_strchomp (line);          /* trailing spaces and tabs */
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
    pos = next;
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

/* Reads @path into a new buffer.  Only a regular file of at most
 * AOOCT_TEXT_MAX_BYTES: a FIFO without a writer would block the state
 * change that reads it (and the one to NULL after it) forever, a device
 * such as /dev/zero never ends, and a file larger than any calibration
 * would take its size in memory before the parser refuses it.  The file is
 * opened without blocking, and checked before anything is read. */
gboolean
aooct_text_read_file (const gchar * path, gchar ** data, gsize * len,
    GError ** error)
{
  struct stat st;
  gsize size, got = 0;
  gchar *buf;
  gint fd;

  fd = aooct_open_regular (path, "a calibration must be a text file", &st,
      error);
  if (fd < 0)
    return FALSE;
  if (st.st_size > AOOCT_TEXT_MAX_BYTES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "%s: %" G_GINT64_FORMAT
        " bytes is larger than any calibration file can be (at most %d "
        "MiB); is it a raw data file?", path, (gint64) st.st_size,
        AOOCT_TEXT_MAX_BYTES >> 20);
    close (fd);
    return FALSE;
  }
  /* one byte more than it says: a file that grows is still bounded */
  size = (gsize) st.st_size;
  buf = g_malloc (size + 2);
  while (got <= size) {
    gssize r = read (fd, buf + got, size + 1 - got);

    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      gint e = errno;

      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s: cannot read: %s", path, g_strerror (e));
      g_free (buf);
      close (fd);
      return FALSE;
    }
    if (r == 0)
      break;
    got += (gsize) r;
  }
  close (fd);
  if (got > size) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: the file grew while it was read", path);
    g_free (buf);
    return FALSE;
  }
  buf[got] = '\0';
  *data = buf;
  *len = got;
  return TRUE;
}

AooctRecord *
aooct_text_read (const gchar * path, gint min_values, gint max_values,
    gsize expected, gsize * n_records, GError ** error)
{
  gchar *data = NULL;
  gsize len = 0;
  AooctRecord *recs;

  if (path == NULL || path[0] == '\0') {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "no file name given");
    return NULL;
  }
  if (!aooct_text_read_file (path, &data, &len, error))
    return NULL;
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
