/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: one volume as an HDF5 file (see aooct-hdf5.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <hdf5.h>

#include "aooct-hdf5.h"
#include "aooct-volume-meta.h"

struct _AooctHdf5Volume
{
  gchar *path, *partial;
  gint fd;                      /* the partial file, written at the end */
  hid_t file, volume, pts;
  hid_t type;                   /* the pixels' native type (not owned) */
  guint64 bscans;
  gint rows, columns;
  gsize pixel_bytes;
};

/* The most specific message of libhdf5's error stack (its own printing is
 * off: the tool says what failed); for a failed write that is the
 * system's reason ("No space left on device", "File too large"). */
static herr_t
innermost (unsigned n, const H5E_error2_t * e, void *data)
{
  gchar **out = data;

  if (n == 0 && e->desc) {
    const gchar *m = strstr (e->desc, "error message = '");

    if (m) {
      m += strlen ("error message = '");
      *out = g_strndup (m, strcspn (m, "'"));
    } else {
      *out = g_strdup (e->desc);
    }
  }
  return 0;
}

/* "PATH: cannot WHAT: why" (@format and the rest say what) */
static void
G_GNUC_PRINTF (3, 4)
set_error (GError ** error, const gchar * path, const gchar * format, ...)
{
  gchar *why = NULL, *what;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  H5Ewalk2 (H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &why);
  H5Eclear2 (H5E_DEFAULT);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot %s%s%s",
      path, what, why ? ": " : "", why ? why : "");
  g_free (what);
  g_free (why);
}

static void
quiet (void)
{
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
}

AooctHdf5Volume *
aooct_hdf5_volume_create (const gchar * path, guint64 bscans, gint rows,
    gint columns, AooctHdf5Type type, gint deflate, GError ** error)
{
  AooctHdf5Volume *v = g_new0 (AooctHdf5Volume, 1);
  hsize_t dims[3] = { bscans, rows, columns };
  hsize_t chunk[3] = { 1, rows, columns };
  hsize_t n = bscans;
  hid_t fcpl, fapl, dcpl, space, pts_space, pts_dcpl;

  quiet ();
  v->path = g_strdup (path);
  v->partial = g_strconcat (path, ".partial", NULL);
  v->bscans = bscans;
  v->rows = rows;
  v->columns = columns;
  v->file = v->volume = v->pts = H5I_INVALID_HID;
  /* the folder must take the file: found out now, not after the volume */
  v->fd = g_open (v->partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (v->fd < 0) {
    gint e = errno;

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
        "cannot create %s: %s", v->path, g_strerror (e));
    aooct_hdf5_volume_abort (v);
    return NULL;
  }
  switch (type) {
    case AOOCT_HDF5_UINT8:
      v->type = H5T_NATIVE_UINT8;
      v->pixel_bytes = 1;
      break;
    case AOOCT_HDF5_UINT16:
      v->type = H5T_NATIVE_UINT16;
      v->pixel_bytes = 2;
      break;
    default:
      v->type = H5T_NATIVE_FLOAT;
      v->pixel_bytes = 4;
      break;
  }
  /* no modification times in the object headers: reproducible bytes */
  fcpl = H5Pcreate (H5P_FILE_CREATE);
  H5Pset_obj_track_times (fcpl, FALSE);
  /* The file is made in memory (the core driver, no backing store) and
   * written out whole by aooct_hdf5_volume_finish(): libhdf5 1.10 cannot
   * recover from a write that fails (a full disk makes H5Fclose fail and
   * the library crash when it shuts down), so it never writes to disk. */
  fapl = H5Pcreate (H5P_FILE_ACCESS);
  H5Pset_fapl_core (fapl, 4 << 20, FALSE);
  v->file = H5Fcreate (v->partial, H5F_ACC_TRUNC, fcpl, fapl);
  H5Pclose (fapl);
  H5Pclose (fcpl);
  if (v->file < 0) {
    set_error (error, v->path, "create the file");
    aooct_hdf5_volume_abort (v);
    return NULL;
  }
  dcpl = H5Pcreate (H5P_DATASET_CREATE);
  H5Pset_obj_track_times (dcpl, FALSE);
  H5Pset_chunk (dcpl, 3, chunk);
  if (deflate > 0) {
    H5Pset_shuffle (dcpl);
    H5Pset_deflate (dcpl, deflate);
  }
  space = H5Screate_simple (3, dims, NULL);
  v->volume = H5Dcreate2 (v->file, "volume", v->type, space, H5P_DEFAULT,
      dcpl, H5P_DEFAULT);
  H5Sclose (space);
  H5Pclose (dcpl);
  pts_dcpl = H5Pcreate (H5P_DATASET_CREATE);
  H5Pset_obj_track_times (pts_dcpl, FALSE);
  pts_space = H5Screate_simple (1, &n, NULL);
  if (v->volume >= 0)
    v->pts = H5Dcreate2 (v->file, "pts_ns", H5T_STD_I64LE, pts_space,
        H5P_DEFAULT, pts_dcpl, H5P_DEFAULT);
  H5Sclose (pts_space);
  H5Pclose (pts_dcpl);
  if (v->volume < 0 || v->pts < 0) {
    set_error (error, v->path, "create the datasets");
    aooct_hdf5_volume_abort (v);
    return NULL;
  }
  return v;
}

gboolean
aooct_hdf5_volume_write (AooctHdf5Volume * v, guint64 bscan,
    const guint8 * data, gsize stride, gint64 pts_ns, GError ** error)
{
  hsize_t start[3] = { bscan, 0, 0 }, count[3] = { 1, v->rows, v->columns };
  hsize_t one = 1, at = bscan;
  gsize row = (gsize) v->columns * v->pixel_bytes;
  guint8 *packed = NULL;
  hid_t file_space, mem_space;
  herr_t r;
  gint i;

  g_return_val_if_fail (bscan < v->bscans, FALSE);
  /* GStreamer rows are padded to 4 bytes: pack them for H5Dwrite */
  if (stride != row) {
    packed = g_malloc (row * v->rows);
    for (i = 0; i < v->rows; i++)
      memcpy (packed + i * row, data + i * stride, row);
    data = packed;
  }
  file_space = H5Dget_space (v->volume);
  H5Sselect_hyperslab (file_space, H5S_SELECT_SET, start, NULL, count, NULL);
  mem_space = H5Screate_simple (3, count, NULL);
  r = H5Dwrite (v->volume, v->type, mem_space, file_space, H5P_DEFAULT, data);
  H5Sclose (mem_space);
  H5Sclose (file_space);
  g_free (packed);
  if (r >= 0) {
    file_space = H5Dget_space (v->pts);
    H5Sselect_hyperslab (file_space, H5S_SELECT_SET, &at, NULL, &one, NULL);
    mem_space = H5Screate_simple (1, &one, NULL);
    r = H5Dwrite (v->pts, H5T_NATIVE_INT64, mem_space, file_space,
        H5P_DEFAULT, &pts_ns);
    H5Sclose (mem_space);
    H5Sclose (file_space);
  }
  if (r < 0) {
    set_error (error, v->path, "write B-scan %" G_GUINT64_FORMAT, bscan);
    return FALSE;
  }
  return TRUE;
}

static gboolean
set_attribute (AooctHdf5Volume * v, const gchar * name, hid_t type,
    const void *value, GError ** error)
{
  hid_t space = H5Screate (H5S_SCALAR);
  hid_t attr = H5Acreate2 (v->volume, name, type, space, H5P_DEFAULT,
      H5P_DEFAULT);
  herr_t r = attr < 0 ? -1 : H5Awrite (attr, type, value);

  if (attr >= 0)
    H5Aclose (attr);
  H5Sclose (space);
  if (r < 0) {
    set_error (error, v->path, "write the attribute %s", name);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_hdf5_volume_set_double (AooctHdf5Volume * v, const gchar * name,
    gdouble value, GError ** error)
{
  return set_attribute (v, name, H5T_NATIVE_DOUBLE, &value, error);
}

gboolean
aooct_hdf5_volume_set_int (AooctHdf5Volume * v, const gchar * name,
    gint64 value, GError ** error)
{
  return set_attribute (v, name, H5T_NATIVE_INT64, &value, error);
}

/* a fixed-length UTF-8 string type of @len bytes (at least 1) */
static hid_t
string_type (gsize len)
{
  hid_t t = H5Tcopy (H5T_C_S1);

  H5Tset_size (t, MAX (len, 1));
  H5Tset_strpad (t, H5T_STR_NULLPAD);
  H5Tset_cset (t, H5T_CSET_UTF8);
  return t;
}

gboolean
aooct_hdf5_volume_set_string (AooctHdf5Volume * v, const gchar * name,
    const gchar * value, GError ** error)
{
  gsize len = strlen (value);
  hid_t t = string_type (len);
  gboolean ok = set_attribute (v, name, t, len ? value : "", error);

  H5Tclose (t);
  return ok;
}

gboolean
aooct_hdf5_volume_set_meta (AooctHdf5Volume * v, GPtrArray * meta,
    GError ** error)
{
  guint i;
  gboolean ok = TRUE;

  for (i = 0; ok && i < meta->len; i++) {
    const AooctVolumeMeta *m = g_ptr_array_index (meta, i);

    if (G_VALUE_HOLDS_INT64 (&m->value))
      ok = aooct_hdf5_volume_set_int (v, m->name,
          g_value_get_int64 (&m->value), error);
    else if (G_VALUE_HOLDS_DOUBLE (&m->value))
      ok = aooct_hdf5_volume_set_double (v, m->name,
          g_value_get_double (&m->value), error);
    else
      ok = aooct_hdf5_volume_set_string (v, m->name,
          g_value_get_string (&m->value), error);
  }
  return ok;
}

gboolean
aooct_hdf5_volume_add_text (AooctHdf5Volume * v, const gchar * name,
    const gchar * text, gsize len, GError ** error)
{
  hid_t t = string_type (len), space = H5Screate (H5S_SCALAR);
  hid_t dcpl = H5Pcreate (H5P_DATASET_CREATE);
  hid_t d;
  herr_t r;

  H5Pset_obj_track_times (dcpl, FALSE);
  d = H5Dcreate2 (v->file, name, t, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  r = d < 0 ? -1 : H5Dwrite (d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT,
      len ? text : "");
  if (d >= 0)
    H5Dclose (d);
  H5Pclose (dcpl);
  H5Sclose (space);
  H5Tclose (t);
  if (r < 0) {
    set_error (error, v->path, "write the dataset %s", name);
    return FALSE;
  }
  return TRUE;
}

static void
free_volume (AooctHdf5Volume * v)
{
  if (v->fd >= 0)
    close (v->fd);
  g_free (v->path);
  g_free (v->partial);
  g_free (v);
}

/* all of @data to @fd; FALSE with errno set */
static gboolean
write_all (gint fd, const guint8 * data, gsize size)
{
  while (size > 0) {
    gssize n = write (fd, data, MIN (size, 1 << 30));

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = ENOSPC;
      return FALSE;
    }
    data += n;
    size -= n;
  }
  return TRUE;
}

gboolean
aooct_hdf5_volume_finish (AooctHdf5Volume * v, GError ** error)
{
  gssize size;
  guint8 *image = NULL;
  gboolean ok = TRUE;
  gint e = 0;

  /* the in-memory file, complete */
  if (H5Dclose (v->pts) < 0 || H5Dclose (v->volume) < 0)
    ok = FALSE;
  v->pts = v->volume = H5I_INVALID_HID;
  if (ok && H5Fflush (v->file, H5F_SCOPE_GLOBAL) < 0)
    ok = FALSE;
  size = ok ? H5Fget_file_image (v->file, NULL, 0) : -1;
  if (size > 0) {
    image = g_try_malloc (size);
    if (!image || H5Fget_file_image (v->file, image, size) != size)
      size = -1;
  }
  H5Fclose (v->file);
  v->file = H5I_INVALID_HID;
  if (size <= 0) {
    set_error (error, v->path, "finish the file");
    ok = FALSE;
  }
  /* on disk: a full disk or a file size limit shows up here */
  if (ok && (!write_all (v->fd, image, size) || fsync (v->fd) != 0)) {
    e = errno;
    ok = FALSE;
  }
  if (close (v->fd) != 0 && ok) {
    e = errno;
    ok = FALSE;
  }
  v->fd = -1;
  if (e)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
        "cannot write %s (%" G_GSSIZE_FORMAT " bytes): %s", v->path, size,
        g_strerror (e));
  if (ok && g_rename (v->partial, v->path) != 0) {
    e = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
        "cannot finish %s (putting the written file in its place): %s",
        v->path, g_strerror (e));
    ok = FALSE;
  }
  if (!ok)
    g_unlink (v->partial);
  g_free (image);
  free_volume (v);
  return ok;
}

void
aooct_hdf5_volume_abort (AooctHdf5Volume * v)
{
  if (v == NULL)
    return;
  if (v->pts >= 0)
    H5Dclose (v->pts);
  if (v->volume >= 0)
    H5Dclose (v->volume);
  if (v->file >= 0)
    H5Fclose (v->file);
  H5Eclear2 (H5E_DEFAULT);
  if (v->fd >= 0)
    g_unlink (v->partial);
  free_volume (v);
}
