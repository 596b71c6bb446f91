/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: what can be wrong with a raw file or a camera's settings,
 * said before the pipeline starts, with the numbers: a raw file that holds
 * no whole frame after its header (aooctfilesrc says so only once
 * started), no calibration, a calibration whose length is not the frame
 * width.  A NumPy .npy file says its own geometry: aooctfilesrc checks
 * it. */
#include "view-source.h"
#include "view-settings.h"
#include "aooct-npy.h"
#include "aooct-open.h"
#include "aooct-raw-format.h"
#include "aooct-textfile.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_ERROR (g_quark_from_static_string ("aooct-view-error"))


/* Records in a calibration text file as the elements count them (spec,
 * "Files"): '#' comments, blank lines ignored; -1 when unreadable. */
static gint
count_records (const gchar * path, GError ** error)
{
  gchar *text, **lines;
  gint i, n = 0;
  gsize len;

  /* a FIFO or device named as the file is refused, not read for ever */
  if (!aooct_text_read_file (path, &text, &len, error))
    return -1;
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar *hash = strchr (lines[i], '#');

    if (hash)
      *hash = '\0';
    g_strstrip (lines[i]);
    n += lines[i][0] != '\0';
  }
  g_strfreev (lines);
  g_free (text);
  return n;
}

static gboolean
check_calibration (GKeyFile * kf, gint width, GError ** error)
{
  gchar *file = g_key_file_get_string (kf, "aooctkmap", "wavelength-file",
      NULL);
  gchar *coeffs = g_key_file_get_string (kf, "aooctkmap",
      "wavelength-coeffs", NULL);
  gchar *pass = g_key_file_get_string (kf, "aooctkmap", "passthrough", NULL);
  gboolean ok = TRUE;
  gint n;

  if ((!file || !*file) && (!coeffs || !*coeffs)
      && g_strcmp0 (pass, "true") != 0) {
    g_set_error (error, VIEW_ERROR, 1, "no spectrometer calibration: give "
        "aooctkmap a wavelength file or coefficients (or passthrough for a "
        "k-linear source)");
    ok = FALSE;
  } else if (file && *file) {
    GError *e = NULL;

    n = count_records (file, &e);
    if (n < 0) {
      g_set_error (error, VIEW_ERROR, 2, "calibration file %s: %s", file,
          e->message);
      g_error_free (e);
      ok = FALSE;
    } else if (n != width) {
      g_set_error (error, VIEW_ERROR, 3, "calibration file %s has %d "
          "wavelengths but the frame width is %d samples per A-line: they "
          "must match", file, n, width);
      ok = FALSE;
    }
  }
  g_free (file);
  g_free (coeffs);
  g_free (pass);
  return ok;
}

gboolean
view_source_raw_format (const gchar * name, AooctRawFormat * format)
{
  /* aooctfilesrc's own names only: they go to its format property */
  return aooct_raw_format_from_string (name, format)
      && g_str_equal (name, aooct_raw_format_nick (*format));
}

gboolean
view_source_check (GKeyFile * kf, GError ** error)
{
  ViewSourceKind kind = view_settings_source_kind (kf);
  gint width = view_settings_get_int (kf, "width", 0),
      height = view_settings_get_int (kf, "height", 0);
  gchar *loc, *fmt;
  GError *e = NULL;
  guint64 size;
  gsize row, frame;
  AooctRawFormat raw = AOOCT_RAW_GRAY16_LE;
  gboolean ok = TRUE;

  if (kind == VIEW_SOURCE_SYNTHETIC) {
    gchar *s = g_key_file_get_string (kf, "aooctsrc", "samples", NULL);

    /* aooctsrc's own samples (default 832) are the width here */
    width = s ? atoi (s) : 832;
    g_free (s);
    return check_calibration (kf, width, error);
  }
  if (kind == VIEW_SOURCE_FILE) {
    loc = g_key_file_get_string (kf, VIEW_SOURCE, "location", NULL);
    if (loc && *loc && aooct_npy_path_is_npy (loc)) {
      /* its width is its header's: aooctfilesrc reads and checks it, and
       * aooctkmap names a calibration of another length */
      g_free (loc);
      return TRUE;
    }
    g_free (loc);
  }
  if (width < 2 || height < 1) {
    gchar *w = g_key_file_get_string (kf, VIEW_SOURCE, "width", NULL);
    gchar *h = g_key_file_get_string (kf, VIEW_SOURCE, "height", NULL);

    g_set_error (error, VIEW_ERROR, 4, "frame geometry width=%s height=%s: "
        "give the samples per A-line (width, a number >= 2) and A-lines per "
        "frame (height, a number >= 1)", w ? w : "(unset)", h ? h : "(unset)");
    g_free (w);
    g_free (h);
    return FALSE;
  }
  fmt = g_key_file_get_string (kf, VIEW_SOURCE, "format", NULL);
  if (fmt && *fmt && !view_source_raw_format (fmt, &raw)) {
    g_set_error (error, VIEW_ERROR, 8, "format=%s: the raw format is "
        "gray16-le, gray8, packed mono12p, mono12packed, mono10p, or "
        "float32-le", fmt);
    g_free (fmt);
    return FALSE;
  }
  if (!aooct_raw_format_is_video (raw) && kind != VIEW_SOURCE_FILE) {
    /* aravissrc gives packed samples under 16-bit caps (docs/caps.md) */
    g_set_error (error, VIEW_ERROR, 8, "format=%s: packed and float samples "
        "are read from raw files here; a camera's packed modes go through "
        "the caps of docs/caps.md (\"Packed 10/12-bit input\")", fmt);
    g_free (fmt);
    return FALSE;
  }
  if (!aooct_raw_check_width (raw, width, &e)) {
    g_set_error (error, VIEW_ERROR, 4, "frame geometry width=%d: %s", width,
        e->message);
    g_error_free (e);
    g_free (fmt);
    return FALSE;
  }
  if (kind == VIEW_SOURCE_FILE) {
    /* the file's header and the B-scans' gaps (aooctfilesrc header-bytes,
     * frame-stride); bytes left at the end are its warning, not an error */
    guint64 header = view_settings_get_uint64 (kf, "header-bytes", 0);
    guint64 stride = view_settings_get_uint64 (kf, "frame-stride", 0);

    loc = g_key_file_get_string (kf, VIEW_SOURCE, "location", NULL);
    row = aooct_raw_row_bytes (raw, width);
    frame = row * height;
    if (!loc || !*loc) {
      g_set_error (error, VIEW_ERROR, 5, "no raw file chosen");
      ok = FALSE;
    } else if (!aooct_file_check_regular (loc, "raw file", &size, &e)) {
      /* a FIFO or a directory said to be one, not "0 bytes" */
      g_set_error_literal (error, VIEW_ERROR, 6, e->message);
      g_error_free (e);
      ok = FALSE;
    } else if (stride != 0 && stride < frame) {
      g_set_error (error, VIEW_ERROR, 7, "raw file %s: frame-stride=%"
          G_GUINT64_FORMAT " is smaller than a frame of %d A-lines of %"
          G_GSIZE_FORMAT " bytes (%d samples in %s) = %" G_GSIZE_FORMAT
          " bytes", loc, stride, height, row, width,
          aooct_raw_format_nick (raw), frame);
      ok = FALSE;
    } else if (size < header || size - header < frame) {
      g_set_error (error, VIEW_ERROR, 7, "raw file %s: its size (%"
          G_GINT64_FORMAT " bytes) after header-bytes=%" G_GUINT64_FORMAT
          " is less than one frame, %d A-lines of %" G_GSIZE_FORMAT " bytes "
          "(%d samples in %s) = %" G_GSIZE_FORMAT " bytes: check width, "
          "height, format and header-bytes", loc, (gint64) size, header,
          height, row, width, aooct_raw_format_nick (raw), frame);
      ok = FALSE;
    }
    g_free (loc);
  }
  g_free (fmt);
  return ok && check_calibration (kf, width, error);
}
