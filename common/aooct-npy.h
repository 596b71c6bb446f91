/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the header of a NumPy .npy file, read by us (no Python, no
 * libnpy): what aooctfilesrc needs to read the array as raw B-scans.
 *
 * The format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic
 * "\x93NUMPY", a major and a minor version byte, the header's length
 * (2 bytes little-endian in version 1, 4 bytes in 2 and 3), then the
 * header: a Python dict literal in ASCII (UTF-8 in version 3) with the keys
 * 'descr' (the dtype, e.g. '<u2'), 'fortran_order' (True / False) and
 * 'shape' (a tuple of ints), padded with spaces and a newline so that the
 * data starts on a multiple of 64 bytes (16 in old files).  The data
 * follow: the array's elements in C order (the last axis fastest) unless
 * fortran_order is True.
 *
 * An array of spectra reads as: the last axis the samples of an A-line
 * (the width N), the one before it the A-lines of a B-scan (the height
 * M), the product of any axes before those the B-scans. */
#ifndef __AOOCT_NPY_H__
#define __AOOCT_NPY_H__

#include <glib.h>

#include "aooct-raw-format.h"

G_BEGIN_DECLS

/* the first bytes of every .npy file */
#define AOOCT_NPY_MAGIC "\x93NUMPY"
#define AOOCT_NPY_MAGIC_LEN 6

typedef struct
{
  AooctRawFormat format;        /* '<u2' GRAY16_LE, '|u1' GRAY8, '<f4'
                                 * FLOAT32 */
  gint64 width;                 /* the last axis: samples per A-line */
  gint64 height;                /* the one before: A-lines per B-scan */
  guint64 bscans;               /* the product of the others (1 for 2-D) */
  guint64 data_offset;          /* bytes before the data (magic, lengths,
                                 * header) */
  guint64 data_bytes;           /* width x height x bscans x item size */
} AooctNpyHeader;

/* Whether @data (@len bytes, a file's first) begins with the magic. */
gboolean aooct_npy_has_magic (const guint8 * data, gsize len);

/* Whether the file @path is meant as a .npy array: its first bytes are the
 * magic, or its name ends in .npy (then aooctfilesrc names what is wrong
 * with it).  Never blocks (a FIFO is not read). */
gboolean aooct_npy_path_is_npy (const gchar * path);

/* Parses the .npy header at the start of @data, @len bytes of the file
 * @path (for messages).  FALSE with @error (AOOCT_ERROR_FILE) naming the
 * file and what was found: no magic, an unknown version, a header longer
 * than @len or than 1 MiB, a dict that does not parse or lacks a key, a
 * Fortran-order array, a dtype other than uint16, uint8 or float32
 * (little-endian), fewer than 2 axes, an axis of 0, a width or height out
 * of range.  *@need: when @len was too short for the header, the bytes it
 * needs (read that many and call again), else 0. */
gboolean aooct_npy_parse_header (const gchar * path, const guint8 * data,
    gsize len, AooctNpyHeader * h, gsize * need, GError ** error);

/* Reads and parses the header of the open file @fd (@path for messages)
 * with pread(); FALSE with @error as aooct_npy_parse_header() or a read
 * error. */
gboolean aooct_npy_read_header (gint fd, const gchar * path,
    AooctNpyHeader * h, GError ** error);

/* The header of a .npy file (version 1.0, C order, padded to 64 bytes)
 * holding an array of @dtype ('<u2', '|u1', '<f4') and shape @shape
 * (@ndim axes), as numpy.save writes it: @len its length.  g_free.  For
 * tools and tests that write arrays. */
guint8 *aooct_npy_make_header (const gchar * dtype, const guint64 * shape,
    gint ndim, gsize * len);

G_END_DECLS
#endif /* __AOOCT_NPY_H__ */
