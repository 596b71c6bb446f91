/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: one volume as an HDF5 file (libhdf5), as aooct-stack
 * --hdf5 writes it.
 *
 * The file holds the dataset /volume, B-scans x depth x A-lines (C order:
 * h5py and NumPy read it as B x rows x columns; MATLAB's h5read returns
 * the dimensions reversed, A-lines x depth x B-scans), uint8, uint16 or
 * float32, one chunk per B-scan, optionally deflate-compressed after the
 * shuffle filter (both in every HDF5 build); /pts_ns (int64, one per
 * B-scan, the buffer's presentation time in ns, -1 = none); and the
 * attributes of /volume.  The volume is assembled in memory (libhdf5's
 * core driver; at the end the file image is copied out of it, so the peak
 * is about twice the volume's size, compressed) and written
 * whole as PATH.partial, renamed to PATH when complete, so that a run that
 * fails (a full disk, an error upstream) leaves nothing under PATH.
 * Object times are not recorded: the same images give the same bytes. */
#ifndef __AOOCT_HDF5_H__
#define __AOOCT_HDF5_H__

#include <glib.h>

G_BEGIN_DECLS typedef enum
{
  AOOCT_HDF5_UINT8,
  AOOCT_HDF5_UINT16,
  AOOCT_HDF5_FLOAT32
} AooctHdf5Type;

typedef struct _AooctHdf5Volume AooctHdf5Volume;

/* A new volume of @bscans B-scans of @rows x @columns pixels of @type;
 * @deflate 0 (none) .. 9.  NULL with @error naming the file. */
AooctHdf5Volume *aooct_hdf5_volume_create (const gchar * path,
    guint64 bscans, gint rows, gint columns, AooctHdf5Type type,
    gint deflate, GError ** error);

/* B-scan @bscan: @rows rows of @columns pixels (host byte order) @stride
 * bytes apart; @pts_ns its time (-1 = none). */
gboolean aooct_hdf5_volume_write (AooctHdf5Volume * v, guint64 bscan,
    const guint8 * data, gsize stride, gint64 pts_ns, GError ** error);

/* Attributes of /volume */
gboolean aooct_hdf5_volume_set_double (AooctHdf5Volume * v,
    const gchar * name, gdouble value, GError ** error);
gboolean aooct_hdf5_volume_set_int (AooctHdf5Volume * v, const gchar * name,
    gint64 value, GError ** error);
gboolean aooct_hdf5_volume_set_string (AooctHdf5Volume * v,
    const gchar * name, const gchar * value, GError ** error);

/* Each item of @meta (AooctVolumeMeta, aooct-volume-meta.h) as an
 * attribute of /volume: int64, double or string */
gboolean aooct_hdf5_volume_set_meta (AooctHdf5Volume * v, GPtrArray * meta,
    GError ** error);

/* A scalar string dataset /@name (text too long for an attribute: a
 * calibration file) */
gboolean aooct_hdf5_volume_add_text (AooctHdf5Volume * v, const gchar * name,
    const gchar * text, gsize len, GError ** error);

/* Closes the file and renames it to its final name; on failure the
 * partial file is removed.  Frees @v either way. */
gboolean aooct_hdf5_volume_finish (AooctHdf5Volume * v, GError ** error);

/* Closes and removes the partial file; frees @v (NULL: nothing). */
void aooct_hdf5_volume_abort (AooctHdf5Volume * v);

G_END_DECLS
#endif /* __AOOCT_HDF5_H__ */
