/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: writer for the spec's text calibration files (aooct-textwrite.h). */
#include "aooct-textwrite.h"
#include "aooct-textfile.h"
#include "aooct-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

void
aooct_text_append_comment (GString * out, const gchar * text)
{
  const gchar *p = text ? text : "";

  do {
    gsize len = strcspn (p, "\r\n");

    g_string_append (out, "# ");
    g_string_append_len (out, p, len);
    g_string_append_c (out, '\n');
    p += len;
    if (p[0] == '\r' && p[1] == '\n')
      p += 2;
    else if (*p)
      p++;
  } while (*p);
}

/* @len bytes to @fd; FALSE with errno set */
static gboolean
write_all (gint fd, const gchar * data, gsize len)
{
  while (len > 0) {
    gssize w = write (fd, data, len);

    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return FALSE;
    data += w;
    len -= (gsize) w;
  }
  return TRUE;
}

gboolean
aooct_file_replace (const gchar * path, const gchar * data, gsize len,
    GError ** error)
{
  gchar *tmp;
  gint fd, e = 0;

  /* beside @path, so that the rename replaces it at once; 0666 less the
   * umask, as any new file of the user's */
  tmp = g_strdup_printf ("%s.XXXXXX", path);
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0) {
    e = errno;
  } else {
    if (!write_all (fd, data, len) || fsync (fd) != 0)
      e = errno;
    if (close (fd) != 0 && e == 0)
      e = errno;
    if (e == 0 && g_rename (tmp, path) != 0)
      e = errno;
    if (e != 0)
      g_unlink (tmp);
  }
  g_free (tmp);
  if (e != 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "cannot write %s: %s",
        path, g_strerror (e));
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_text_write (const gchar * path, const GString * text, gint min_values,
    gint max_values, gsize expected, GError ** error)
{
  GError *parse_error = NULL;
  AooctRecord *recs;
  gsize n = 0;

  /* the elements' reader on the very bytes to be written */
  recs = aooct_text_parse (path, text->str, text->len, min_values,
      max_values, expected, &n, &parse_error);
  if (recs == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE, "not written, it "
        "would not be read back: %s", parse_error->message);
    g_error_free (parse_error);
    return FALSE;
  }
  g_free (recs);
  return aooct_file_replace (path, text->str, text->len, error);
}
