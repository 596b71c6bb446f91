/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the header of a NumPy .npy file (see aooct-npy.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aooct-npy.h"
#include "aooct-error.h"
#include "aooct-geometry.h"

/* more is not a header numpy writes (it pads to 64 bytes) */
#define MAX_HEADER (1 << 20)

gboolean
aooct_npy_has_magic (const guint8 * data, gsize len)
{
  return len >= AOOCT_NPY_MAGIC_LEN
      && memcmp (data, AOOCT_NPY_MAGIC, AOOCT_NPY_MAGIC_LEN) == 0;
}

gboolean
aooct_npy_path_is_npy (const gchar * path)
{
  guint8 magic[AOOCT_NPY_MAGIC_LEN];
  gboolean yes = g_str_has_suffix (path, ".npy")
      || g_str_has_suffix (path, ".NPY");
  gint fd;

  if (yes)
    return TRUE;
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd >= 0) {
    yes = read (fd, magic, sizeof (magic)) == sizeof (magic)
        && aooct_npy_has_magic (magic, sizeof (magic));
    close (fd);
  }
  return yes;
}

/* ---- the dict literal --------------------------------------------------- */

typedef struct
{
  const gchar *p, *end;
} Cursor;

static void
skip_space (Cursor * c)
{
  while (c->p < c->end && g_ascii_isspace (*c->p))
    c->p++;
}

static gboolean
take (Cursor * c, gchar ch)
{
  skip_space (c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return TRUE;
  }
  return FALSE;
}

/* a quoted Python string ('...' or "...", no escapes: numpy writes none) */
static gchar *
take_string (Cursor * c)
{
  const gchar *start;
  gchar q;

  skip_space (c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return NULL;
  q = *c->p++;
  start = c->p;
  while (c->p < c->end && *c->p != q)
    c->p++;
  if (c->p >= c->end)
    return NULL;
  c->p++;
  return g_strndup (start, c->p - 1 - start);
}

static gboolean
take_word (Cursor * c, const gchar * word)
{
  gsize n = strlen (word);

  skip_space (c);
  if ((gsize) (c->end - c->p) >= n && strncmp (c->p, word, n) == 0) {
    c->p += n;
    return TRUE;
  }
  return FALSE;
}

/* a tuple of non-negative ints: (), (5,), (3, 4) (Python 2's 4L too) */
static gboolean
take_shape (Cursor * c, GArray * shape)
{
  if (!take (c, '('))
    return FALSE;
  for (;;) {
    guint64 v = 0;
    gboolean digits = FALSE;

    if (take (c, ')'))
      return TRUE;
    skip_space (c);
    while (c->p < c->end && g_ascii_isdigit (*c->p)) {
      if (v > G_MAXUINT64 / 10 - 9)
        return FALSE;
      v = v * 10 + (guint64) (*c->p++ - '0');
      digits = TRUE;
    }
    if (!digits)
      return FALSE;
    if (c->p < c->end && (*c->p == 'L' || *c->p == 'l'))
      c->p++;
    g_array_append_val (shape, v);
    if (!take (c, ',')) {
      if (!take (c, ')'))
        return FALSE;
      return TRUE;
    }
  }
}

/* ---- the dtype ---------------------------------------------------------- */

/* "uint16", "float64", ... for a message */
static gchar *
dtype_name (const gchar * descr)
{
  const gchar *kind;
  gint size;

  if (strlen (descr) < 3 || !g_ascii_isdigit (descr[2]))
    return g_strdup ("not a plain number type");
  size = atoi (descr + 2);
  switch (descr[1]) {
    case 'u':
      kind = "uint";
      break;
    case 'i':
      kind = "int";
      break;
    case 'f':
      kind = "float";
      break;
    case 'c':
      kind = "complex";
      break;
    case 'b':
      return g_strdup ("bool");
    default:
      return g_strdup ("not a plain number type");
  }
  return g_strdup_printf ("%s%d%s", kind, size * 8, descr[0] == '>' ?
      ", big-endian" : "");
}

static gboolean
parse_descr (const gchar * path, const gchar * descr, AooctRawFormat * format,
    GError ** error)
{
  static const struct
  {
    const gchar *descr;
    AooctRawFormat format;
  } known[] = {
    {"<u2", AOOCT_RAW_GRAY16_LE},
    {"|u1", AOOCT_RAW_GRAY8},
    {"<u1", AOOCT_RAW_GRAY8},
    {"u1", AOOCT_RAW_GRAY8},
    {"<f4", AOOCT_RAW_FLOAT32},
  };
  gchar *name;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_str_equal (descr, known[i].descr)) {
      *format = known[i].format;
      return TRUE;
    }
  name = dtype_name (descr);
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
      "%s: the array's dtype is '%s' (%s); aooct reads uint16 ('<u2'), "
      "uint8 ('|u1') and float32 ('<f4') arrays, little-endian: save it as "
      "one of those (e.g. np.save(f, a.astype('<f4')))", path, descr, name);
  g_free (name);
  return FALSE;
}

/* ---- the header --------------------------------------------------------- */

gboolean
aooct_npy_parse_header (const gchar * path, const guint8 * data, gsize len,
    AooctNpyHeader * h, gsize * need, GError ** error)
{
  guint major, minor;
  gsize prefix, hlen, i;
  gchar *descr = NULL, *key = NULL;
  gboolean have_fortran = FALSE, have_shape = FALSE, fortran = FALSE;
  gboolean ok = FALSE;
  GArray *shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 bscans = 1;
  Cursor c;

  *need = 0;
  memset (h, 0, sizeof (*h));
  if (!aooct_npy_has_magic (data, len)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: not a NumPy .npy file (it does not begin with \\x93NUMPY)", path);
    goto out;
  }
  if (len < 10) {
    *need = 10;
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: a .npy file of %" G_GSIZE_FORMAT " bytes is too short for "
        "its header", path, len);
    goto out;
  }
  major = data[6];
  minor = data[7];
  if (major == 1) {
    prefix = 10;
    hlen = data[8] | (gsize) data[9] << 8;
  } else if (major == 2 || major == 3) {
    prefix = 12;
    if (len < prefix) {
      *need = prefix;
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s: a .npy file too short for its header", path);
      goto out;
    }
    hlen = data[8] | (gsize) data[9] << 8 | (gsize) data[10] << 16 |
        (gsize) data[11] << 24;
  } else {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: .npy format version %u.%u; aooct reads versions 1.0, 2.0 and "
        "3.0", path, major, minor);
    goto out;
  }
  if (hlen > MAX_HEADER) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: a .npy header of %" G_GSIZE_FORMAT " bytes (malformed: numpy "
        "writes a few hundred)", path, hlen);
    goto out;
  }
  if (len < prefix + hlen) {
    *need = prefix + hlen;
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: the file ends inside its .npy header (%" G_GSIZE_FORMAT
        " bytes, the header says %" G_GSIZE_FORMAT ")", path, len,
        prefix + hlen);
    goto out;
  }
  for (i = prefix; i < prefix + hlen; i++)
    if (data[i] == 0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s: a NUL byte in the .npy header (malformed)", path);
      goto out;
    }

  /* {'descr': '<u2', 'fortran_order': False, 'shape': (1049, 1024), } */
  c.p = (const gchar *) data + prefix;
  c.end = c.p + hlen;
  if (!take (&c, '{'))
    goto malformed;
  while (!take (&c, '}')) {
    g_free (key);
    if (!(key = take_string (&c)) || !take (&c, ':'))
      goto malformed;
    if (g_str_equal (key, "descr")) {
      g_free (descr);
      if (!(descr = take_string (&c))) {
        /* a structured dtype is a list */
        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
            "%s: the array's dtype is a structured type (a record of "
            "fields); aooct reads plain uint16, uint8 and float32 arrays",
            path);
        goto out;
      }
    } else if (g_str_equal (key, "fortran_order")) {
      if (take_word (&c, "True"))
        fortran = TRUE;
      else if (take_word (&c, "False"))
        fortran = FALSE;
      else
        goto malformed;
      have_fortran = TRUE;
    } else if (g_str_equal (key, "shape")) {
      g_array_set_size (shape, 0);
      if (!take_shape (&c, shape))
        goto malformed;
      have_shape = TRUE;
    } else {
      goto malformed;
    }
    if (!take (&c, ',')) {
      if (!take (&c, '}'))
        goto malformed;
      break;
    }
  }
  if (descr == NULL || !have_fortran || !have_shape)
    goto malformed;
  if (fortran) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: a Fortran-order array (fortran_order: True, the first axis "
        "fastest); aooct reads C-order arrays, the samples of an A-line "
        "contiguous: save np.ascontiguousarray(a) instead", path);
    goto out;
  }
  if (!parse_descr (path, descr, &h->format, error))
    goto out;
  if (shape->len < 2) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: an array of %u axis (shape %s%" G_GUINT64_FORMAT "%s); aooct "
        "needs at least 2: ([B-scans, ...,] A-lines, samples)", path,
        shape->len, shape->len ? "(" : "()", shape->len ?
        g_array_index (shape, guint64, 0) : 0, shape->len ? ",)" : "");
    goto out;
  }
  for (i = 0; i < shape->len; i++) {
    guint64 v = g_array_index (shape, guint64, i);

    if (v == 0) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
          "%s: axis %" G_GSIZE_FORMAT " of the array has length 0: no data",
          path, i);
      goto out;
    }
    if (i + 2 < shape->len) {
      if (bscans > G_MAXUINT64 / v) {
        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
            "%s: the array's shape overflows", path);
        goto out;
      }
      bscans *= v;
    }
  }
  h->width = (gint64) MIN (g_array_index (shape, guint64, shape->len - 1),
      (guint64) G_MAXINT64);
  h->height = (gint64) MIN (g_array_index (shape, guint64, shape->len - 2),
      (guint64) G_MAXINT64);
  h->bscans = bscans;
  if (h->width < 2 || h->width > AOOCT_MAX_SAMPLES || h->height > G_MAXINT) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
        "%s: an array of %" G_GINT64_FORMAT " A-lines of %" G_GINT64_FORMAT
        " samples (its last two axes): the samples per A-line (the last "
        "axis) must be 2 .. %d and the A-lines at most %d", path, h->height,
        h->width, AOOCT_MAX_SAMPLES, G_MAXINT);
    goto out;
  }
  h->data_offset = prefix + hlen;
  h->data_bytes = (guint64) h->width * h->height * bscans *
      (aooct_raw_format_bits (h->format) / 8);
  ok = TRUE;
  goto out;

malformed:
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
      "%s: a malformed .npy header (a dict with 'descr', 'fortran_order' "
      "and 'shape' expected): %.*s", path, (int) MIN (hlen, 200),
      (const gchar *) data + prefix);
out:
  g_free (key);
  g_free (descr);
  g_array_free (shape, TRUE);
  return ok;
}

gboolean
aooct_npy_read_header (gint fd, const gchar * path, AooctNpyHeader * h,
    GError ** error)
{
  gsize len = 4096, need = 0;
  gboolean ok = FALSE;

  for (;;) {
    guint8 *buf = g_malloc (len);
    gsize got = 0;
    GError *err = NULL;

    while (got < len) {
      ssize_t n = pread (fd, buf + got, len - got, (off_t) got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0) {
        gint e = errno;

        g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FILE,
            "%s: reading its .npy header failed: %s", path, g_strerror (e));
        g_free (buf);
        return FALSE;
      }
      if (n == 0)
        break;
      got += n;
    }
    ok = aooct_npy_parse_header (path, buf, got, h, &need, &err);
    g_free (buf);
    /* a longer header than read so far, and the file has more */
    if (!ok && need > len && got == len) {
      g_clear_error (&err);
      len = need;
      continue;
    }
    if (!ok)
      g_propagate_error (error, err);
    return ok;
  }
}

guint8 *
aooct_npy_make_header (const gchar * dtype, const guint64 * shape, gint ndim,
    gsize * len)
{
  GString *dict = g_string_new (NULL);
  gsize total;
  guint8 *out;
  gint i;

  g_string_append_printf (dict, "{'descr': '%s', 'fortran_order': False, "
      "'shape': (", dtype);
  for (i = 0; i < ndim; i++)
    g_string_append_printf (dict, "%" G_GUINT64_FORMAT "%s", shape[i],
        ndim == 1 || i + 1 < ndim ? ", " : "");
  if (ndim == 1)
    g_string_truncate (dict, dict->len - 1);
  g_string_append (dict, "), }");
  /* spaces, then a newline, to a multiple of 64 bytes in all */
  total = (10 + dict->len + 1 + 63) / 64 * 64;
  while (10 + dict->len + 1 < total)
    g_string_append_c (dict, ' ');
  g_string_append_c (dict, '\n');
  out = g_malloc (total);
  memcpy (out, AOOCT_NPY_MAGIC, AOOCT_NPY_MAGIC_LEN);
  out[6] = 1;
  out[7] = 0;
  out[8] = dict->len & 0xff;
  out[9] = dict->len >> 8 & 0xff;
  memcpy (out + 10, dict->str, dict->len);
  g_string_free (dict, TRUE);
  *len = total;
  return out;
}
