/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the sample formats of raw camera rows (see aooct-raw-format.h). */
#include <math.h>
#include <string.h>

#include "aooct-raw-format.h"
#include "aooct-error.h"
#include "aooct-geometry.h"

gint
aooct_raw_format_bits (AooctRawFormat format)
{
  switch (format) {
    case AOOCT_RAW_GRAY8:
      return 8;
    case AOOCT_RAW_GRAY16_LE:
      return 16;
    case AOOCT_RAW_MONO12P:
    case AOOCT_RAW_MONO12PACKED:
      return 12;
    case AOOCT_RAW_MONO10P:
      return 10;
    case AOOCT_RAW_FLOAT32:
      return 32;
  }
  g_return_val_if_reached (16);
}

gint
aooct_raw_format_unit (AooctRawFormat format)
{
  switch (aooct_raw_format_bits (format)) {
    case 12:
      return 2;
    case 10:
      return 4;
    default:
      return 1;
  }
}

gboolean
aooct_raw_format_is_packed (AooctRawFormat format)
{
  return aooct_raw_format_unit (format) > 1;
}

gboolean
aooct_raw_format_is_video (AooctRawFormat format)
{
  return format == AOOCT_RAW_GRAY8 || format == AOOCT_RAW_GRAY16_LE;
}

gsize
aooct_raw_row_bytes (AooctRawFormat format, gint n)
{
  return (gsize) n *aooct_raw_format_bits (format) / 8;
}

static const gchar *const names[AOOCT_RAW_N_FORMATS] = {
  "GRAY8", "GRAY16_LE", "mono12p", "mono12packed", "mono10p", "F32LE"
};

const gchar *
aooct_raw_format_name (AooctRawFormat format)
{
  g_return_val_if_fail ((guint) format < AOOCT_RAW_N_FORMATS, "?");
  return names[format];
}

const gchar *
aooct_raw_format_nick (AooctRawFormat format)
{
  static const gchar *const nicks[AOOCT_RAW_N_FORMATS] = {
    "gray8", "gray16-le", "mono12p", "mono12packed", "mono10p",
    "float32-le"
  };

  g_return_val_if_fail ((guint) format < AOOCT_RAW_N_FORMATS, "?");
  return nicks[format];
}

gboolean
aooct_raw_format_from_string (const gchar * str, AooctRawFormat * format)
{
  static const struct
  {
    const gchar *name;
    AooctRawFormat format;
  } spellings[] = {
    {"gray8", AOOCT_RAW_GRAY8},
    {"gray16-le", AOOCT_RAW_GRAY16_LE},
    {"gray16_le", AOOCT_RAW_GRAY16_LE},
    {"gray16", AOOCT_RAW_GRAY16_LE},
    {"mono12p", AOOCT_RAW_MONO12P},
    {"mono12packed", AOOCT_RAW_MONO12PACKED},
    {"mono10p", AOOCT_RAW_MONO10P},
    {"float32-le", AOOCT_RAW_FLOAT32},
    {"float32", AOOCT_RAW_FLOAT32},
    {"f32le", AOOCT_RAW_FLOAT32},
  };
  guint i;

  for (i = 0; str && i < G_N_ELEMENTS (spellings); i++)
    if (g_ascii_strcasecmp (str, spellings[i].name) == 0) {
      *format = spellings[i].format;
      return TRUE;
    }
  return FALSE;
}

gboolean
aooct_raw_check_width (AooctRawFormat format, gint n, GError ** error)
{
  gint unit = aooct_raw_format_unit (format);

  if (n < 2 || n > AOOCT_MAX_SAMPLES) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "width %d: the width is the samples per A-line and must be 2 .. %d "
        "(is the raw file's width= right?)", n, AOOCT_MAX_SAMPLES);
    return FALSE;
  }
  if (n % unit != 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "width %d in %s: a %d-bit packed row holds %d samples in every %d "
        "bytes with nothing between the rows, so the samples per A-line "
        "must be a multiple of %d (is the raw file's width= right?)", n,
        aooct_raw_format_name (format), aooct_raw_format_bits (format),
        unit, unit * aooct_raw_format_bits (format) / 8, unit);
    return FALSE;
  }
  return TRUE;
}

void
aooct_raw_unpack_row (AooctRawFormat format, const guint8 * row, gint n,
    guint16 * out)
{
  gint i, k;

  switch (format) {
    case AOOCT_RAW_GRAY8:
      for (i = 0; i < n; i++)
        out[i] = row[i];
      break;
    case AOOCT_RAW_GRAY16_LE:
      for (i = 0; i < n; i++)
        out[i] = (guint16) (row[2 * i] | row[2 * i + 1] << 8);
      break;
    case AOOCT_RAW_MONO12P:
      for (i = 0; i < n; i += 2, row += 3)
        for (k = 0; k < 2; k++)
          out[i + k] = aooct_unpack_mono12p (row[0], row[1], row[2], k);
      break;
    case AOOCT_RAW_MONO12PACKED:
      for (i = 0; i < n; i += 2, row += 3)
        for (k = 0; k < 2; k++)
          out[i + k] = aooct_unpack_mono12packed (row[0], row[1], row[2], k);
      break;
    case AOOCT_RAW_MONO10P:
      for (i = 0; i < n; i += 4, row += 5) {
        const unsigned int b[5] = { row[0], row[1], row[2], row[3], row[4] };

        for (k = 0; k < 4; k++)
          out[i + k] = aooct_unpack_mono10p (b, k);
      }
      break;
    case AOOCT_RAW_FLOAT32:
      g_return_if_reached ();
  }
}

/* float32 little-endian sample @i of @row, at any alignment */
static inline gfloat
float_le (const guint8 * row, gsize i)
{
  guint32 u;
  gfloat f;

  memcpy (&u, row + 4 * i, 4);
  u = GUINT32_FROM_LE (u);
  memcpy (&f, &u, 4);
  return f;
}

void
aooct_raw_row_to_float (AooctRawFormat format, const guint8 * row, gint n,
    gfloat * out)
{
  guint16 *u;
  gint i;

  if (format == AOOCT_RAW_FLOAT32) {
    for (i = 0; i < n; i++)
      out[i] = float_le (row, i);
    return;
  }
  u = g_new (guint16, n);
  aooct_raw_unpack_row (format, row, n, u);
  for (i = 0; i < n; i++)
    out[i] = u[i];
  g_free (u);
}

gboolean
aooct_raw_find_nonfinite (const guint8 * data, gsize stride, gint n,
    gsize rows, gsize * row, gint * col, gfloat * value)
{
  gsize r;
  gint i;

  for (r = 0; r < rows; r++)
    for (i = 0; i < n; i++) {
      gfloat v = float_le (data + r * stride, i);

      if (!isfinite (v)) {
        *row = r;
        *col = i;
        *value = v;
        return TRUE;
      }
    }
  return FALSE;
}

void
aooct_raw_pack_row (AooctRawFormat format, const guint16 * in, gint n,
    guint8 * row)
{
  gint i;

  switch (format) {
    case AOOCT_RAW_GRAY8:
      for (i = 0; i < n; i++)
        row[i] = (guint8) in[i];
      break;
    case AOOCT_RAW_GRAY16_LE:
      for (i = 0; i < n; i++) {
        row[2 * i] = in[i] & 0xff;
        row[2 * i + 1] = in[i] >> 8;
      }
      break;
    case AOOCT_RAW_MONO12P:
      for (i = 0; i < n; i += 2, row += 3) {
        guint32 w = in[i] | (guint32) in[i + 1] << 12;

        row[0] = w & 0xff;
        row[1] = w >> 8 & 0xff;
        row[2] = w >> 16 & 0xff;
      }
      break;
    case AOOCT_RAW_MONO12PACKED:
      for (i = 0; i < n; i += 2, row += 3) {
        row[0] = in[i] >> 4;
        row[1] = (in[i] & 0xf) | (in[i + 1] & 0xf) << 4;
        row[2] = in[i + 1] >> 4;
      }
      break;
    case AOOCT_RAW_MONO10P:
      for (i = 0; i < n; i += 4, row += 5) {
        guint64 w = in[i] | (guint64) in[i + 1] << 10 |
            (guint64) in[i + 2] << 20 | (guint64) in[i + 3] << 30;
        gint b;

        for (b = 0; b < 5; b++)
          row[b] = w >> (8 * b) & 0xff;
      }
      break;
    case AOOCT_RAW_FLOAT32:
      for (i = 0; i < n; i++) {
        gfloat f = in[i];
        guint32 u;

        memcpy (&u, &f, 4);
        u = GUINT32_TO_LE (u);
        memcpy (row + 4 * i, &u, 4);
      }
      break;
  }
}
