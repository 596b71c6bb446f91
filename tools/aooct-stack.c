/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-stack: runs a pipeline that ends in an image encoder and writes
 * every image to its own file, named after the volume and the B-scan it
 * shows.
 *
 *   aooct-stack --bscans-per-volume=B [--location=TEMPLATE] PIPELINE...
 *
 * PIPELINE is a gst-launch-1.0 description whose last element produces one
 * encoded image per B-scan (pngenc, jpegenc, ...), its arguments taken as
 * gst-launch-1.0 takes them (gst_parse_launchv: one argument, one token;
 * a path with a space, quoted in the shell, stays one value); aooct-stack
 * appends an appsink to it.  Image n (counting from 0) is B-scan n mod B
 * of volume n / B, written to TEMPLATE with "{volume}" and "{bscan}"
 * replaced by those numbers (zero-padded to 3 and 4 digits; "{volume:W}" and
 * "{bscan:W}" choose the width W).  multifilesink can number files only
 * once, which is why this exists: a stack of a raw file of several volumes
 * comes out as vol000-bscan0000.png ... vol001-bscan0099.png.
 *
 * With --tiff the pipeline ends in raw grey video instead (aooctnorm's
 * GRAY16_LE, or GRAY8, e.g. aooctenface's en-face images) and each volume
 * becomes one multi-page TIFF (uncompressed, 8 or 16 bits, page b = B-scan
 * b, pixel values exactly aooctnorm's), named by TEMPLATE's {volume}
 * (default vol{volume}.tif): NumPy (tifffile.imread gives a B x height x
 * width array) and Fiji (a stack) open it directly.  Written with libtiff.
 *
 *   aooct-stack --tiff --bscans-per-volume=B [--location=TEMPLATE] \
 *       PIPELINE... ! aooctnorm ! video/x-raw,format=GRAY16_LE
 *
 * With --hdf5 each volume becomes one HDF5 file instead (libhdf5; default
 * template vol{volume}.h5): the dataset /volume, B-scans x depth x
 * A-lines, uint8 or uint16 as the images come, one chunk per B-scan
 * (--compress=LEVEL: deflate after shuffle), /pts_ns the B-scans'
 * timestamps, and as attributes of /volume the sample grid, the crop, the
 * depth scale, the calibration, dispersion, window and interpolation and
 * the plugin's version (tools/aooct-volume-meta.c).  With --db the
 * pipeline ends in aooctfft's depth-domain complex data instead and the
 * volume is float32 intensity in dB before normalisation, spec section
 * 7's L = 10 log10 (max (re^2 + im^2, 1e-30)) (computed in double) of the
 * depth bins [--crop-start, --crop-end) (aooctnorm's crop rules).
 *
 *   aooct-stack --hdf5 --bscans-per-volume=B PIPELINE... ! aooctnorm
 *   aooct-stack --hdf5 --db --bscans-per-volume=B PIPELINE... ! aooctfft
 *
 * A volume file (TIFF or HDF5) is written as NAME.partial and renamed when
 * complete: a run that fails (a full disk, an unwritable folder, an error
 * upstream) leaves no half-written file under NAME.  An HDF5 volume is
 * assembled in memory and written whole (libhdf5 1.10 cannot recover from
 * a failed write, see aooct-hdf5.c): --memory-limit refuses a volume
 * larger than that before anything of it is written (readers such as
 * h5read and tifffile load a volume whole too).  The TIFF's first page says
 * the depth scale the way ImageJ/Fiji reads it (ImageDescription with
 * yunit=micron, YResolution = rows per micrometre; the lateral scale is
 * unknown: pixels), followed by the HDF5 attributes as aooct_NAME=VALUE
 * lines.  A buffer of several B-scans (aooctfilesrc bscans-per-buffer,
 * stacked by aooctnorm) is split into its B-scans for --hdf5; --tiff and
 * the image files keep one page / file per buffer.
 *
 * The depth scale goes with the images: when aooctnorm posts its
 * "aooct-depth-scale" message (a chain with aooctkmap, whose calibration
 * fixes it), aooct-stack writes the sidecar depth-scale.txt into the
 * folder of the first image, key=value lines: um-per-row (micrometres in
 * air per image row), first-row-um (depth of row 0), rows, crop-start.
 *
 * No file is replaced: a file that is there from before (an earlier
 * run's image, volume or depth-scale.txt) stops the run before it is
 * replaced, the first file and depth-scale.txt checked before the
 * pipeline starts (exit 2), unless --overwrite.  Folders in TEMPLATE that
 * do not exist are made.
 *
 * No file is written twice: TEMPLATE must tell every image apart ({volume}
 * and, with more than one B-scan per volume, {bscan}; with --tiff and
 * --hdf5 {volume}), else aooct-stack refuses it before the pipeline starts, and a
 * name that still comes round again (fields run together, "{volume:1}
 * {bscan:1}" without a separator) stops the run instead of replacing the
 * earlier image.  The images must be in the format the file name says:
 * the caps at the end of the pipeline (image/png, image/jpeg, ...) against
 * TEMPLATE's extension, checked before the first file is written (raw
 * video without an encoder is refused, not written as "*.png").
 *
 * The exit status is 0 when the stream ended with at least one image and
 * whole volumes, 1 on a pipeline error (also one while the pipeline
 * starts), no image at all, a write error or a last volume that is
 * incomplete (the raw file is shorter than the geometry says: its image
 * files are still written, one per B-scan, but a volume file, TIFF or
 * HDF5, holds a whole volume or is not kept, and the message says how
 * many B-scans it has), 2 on a usage error or a file there from before.
 * The summary line counts the images in files that were kept. */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#ifdef HAVE_LIBTIFF
#include <tiffio.h>
#endif
#ifdef HAVE_HDF5
#include <math.h>
#include "aooct-caps.h"
#include "aooct-norm.h"
#include "aooct-hdf5.h"
#endif
#include "aooct-volume-meta.h"
#include <glib/gstdio.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "aooct-textwrite.h"
#include "aooct-tool-util.h"

typedef struct
{
  const gchar *template;
  guint64 bscans_per_volume;
  guint64 written;              /* images taken from the pipeline */
  guint64 kept;                 /* images in files that stay (summary) */
  GHashTable *paths;            /* every file written: none twice */
  gboolean overwrite;           /* --overwrite: replace an earlier run's */
  gboolean depth_scale_claimed; /* depth-scale.txt is this run's */
  gboolean tiff;                /* one multi-page TIFF per volume */
  gboolean hdf5;                /* one HDF5 file per volume */
  gboolean db;                  /* --hdf5 of float32 dB from complex data */
  gint deflate;                 /* --compress */
  gint crop_start, crop_end;    /* --db's crop, as aooctnorm's */
  guint64 max_volume_bytes;     /* 0: no limit */
  GstElement *pipeline;
#ifdef HAVE_LIBTIFF
  TIFF *tif;                    /* the volume being written */
  gchar *tif_path, *tif_partial;
#endif
#ifdef HAVE_HDF5
  AooctHdf5Volume *h5;          /* the volume being written */
  gint h5_rows, h5_columns;
#endif
} Stack;

/* Expands one "{name}" or "{name:W}" placeholder starting at p (after the
 * brace); returns the position after the closing brace or NULL. */
static const gchar *
expand_field (const gchar * p, guint64 volume, guint64 bscan, GString * out,
    GError ** error)
{
  const gchar *close = strchr (p, '}');
  gchar *field, *colon;
  guint64 value;
  gint width;

  if (!close) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--location: unclosed '{' in \"%s\"", p - 1);
    return NULL;
  }
  field = g_strndup (p, close - p);
  colon = strchr (field, ':');
  if (colon)
    *colon = '\0';
  if (strcmp (field, "volume") == 0) {
    value = volume;
    width = 3;
  } else if (strcmp (field, "bscan") == 0) {
    value = bscan;
    width = 4;
  } else {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--location: unknown field {%s}: expected {volume} or {bscan}", field);
    g_free (field);
    return NULL;
  }
  if (colon) {
    gchar *end;
    gint64 w = g_ascii_strtoll (colon + 1, &end, 10);

    if (*end != '\0' || end == colon + 1 || w < 1 || w > 20) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--location: width in {%s:%s} must be 1..20", field, colon + 1);
      g_free (field);
      return NULL;
    }
    width = (gint) w;
  }
  g_string_append_printf (out, "%0*" G_GUINT64_FORMAT, width, value);
  g_free (field);
  return close + 1;
}

static gchar *
expand_location (const gchar * template, guint64 volume, guint64 bscan,
    GError ** error)
{
  GString *out = g_string_new (NULL);
  const gchar *p = template;

  while (*p) {
    if (*p == '{') {
      p = expand_field (p + 1, volume, bscan, out, error);
      if (!p) {
        g_string_free (out, TRUE);
        return NULL;
      }
    } else {
      g_string_append_c (out, *p++);
    }
  }
  return g_string_free (out, FALSE);
}

/* TRUE when the template names every image (every TIFF volume) apart:
 * B-scans 0 and 1 of volume 0 (one file per B-scan, more than one per
 * volume) and volumes 0 and 1 must expand to different names.  Checked
 * before the pipeline starts, so that nothing is overwritten. */
static gboolean
check_template_distinct (const Stack * stack, GError ** error)
{
  gchar *first = expand_location (stack->template, 0, 0, NULL);
  gchar *next_bscan = expand_location (stack->template, 0, 1, NULL);
  gchar *next_volume = expand_location (stack->template, 1, 0, NULL);
  gboolean per_bscan = !stack->tiff && !stack->hdf5
      && stack->bscans_per_volume > 1;
  gboolean ok = TRUE;

  if (g_strcmp0 (first, next_volume) == 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--location \"%s\" has no {volume}: every volume would be written "
        "to %s, each over the one before (e.g. %s)", stack->template, first,
        stack->tiff ? "vol{volume}.tif" : stack->hdf5 ? "vol{volume}.h5" :
        "vol{volume}-bscan{bscan}.png");
    ok = FALSE;
  } else if (per_bscan && g_strcmp0 (first, next_bscan) == 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--location \"%s\" has no {bscan}: the %" G_GUINT64_FORMAT
        " B-scans of a volume would all be written to %s, each over the one "
        "before (e.g. vol{volume}-bscan{bscan}.png)", stack->template,
        stack->bscans_per_volume, first);
    ok = FALSE;
  }
  g_free (first);
  g_free (next_bscan);
  g_free (next_volume);
  return ok;
}

/* The image formats aooct-stack writes as they come, and the file name
 * extensions (lower case) each may have. */
static const struct
{
  const gchar *media_type;
  const gchar *extensions[3];
} image_formats[] = {
  {"image/png", {".png"}},
  {"image/jpeg", {".jpg", ".jpeg"}},
  {"image/tiff", {".tif", ".tiff"}},
  {"image/bmp", {".bmp"}},
  {"image/webp", {".webp"}},
  {"image/x-portable-pixmap", {".ppm", ".pgm", ".pnm"}},
};

static const gchar *const tiff_extensions[] = { ".tif", ".tiff" };
static const gchar *const hdf5_extensions[] = { ".h5", ".hdf5" };

/* TRUE when @path's extension is one of @ext (case-insensitive) */
static gboolean
has_extension (const gchar * path, const gchar * const *ext, gsize n)
{
  gchar *lower = g_ascii_strdown (path, -1);
  gboolean found = FALSE;
  gsize i;

  for (i = 0; i < n && ext[i] && !found; i++)
    found = g_str_has_suffix (lower, ext[i]);
  g_free (lower);
  return found;
}

/* The encoded images of @caps go into files named like @path: an image
 * format aooct-stack knows, the extension that format has.  Raw video is
 * refused (it would be written as is, headerless, under an image's
 * name). */
static gboolean
check_image_format (GstCaps * caps, const gchar * path, GError ** error)
{
  const gchar *type = gst_structure_get_name (gst_caps_get_structure (caps,
          0));
  GString *known = g_string_new (NULL);
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (image_formats); i++) {
    if (strcmp (type, image_formats[i].media_type) != 0) {
      g_string_append_printf (known, "%s%s", known->len ? ", " : "",
          image_formats[i].media_type);
      continue;
    }
    g_string_free (known, TRUE);
    if (has_extension (path, image_formats[i].extensions,
            G_N_ELEMENTS (image_formats[i].extensions)))
      return TRUE;
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "the pipeline makes %s images but the file name %s does not end in "
        "%s: name the files after their format (--location) or change the "
        "encoder", type, path, image_formats[i].extensions[0]);
    return FALSE;
  }
  if (g_str_has_prefix (type, "video/x-raw"))
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "the pipeline ends in raw video, not an encoded image: end it in an "
        "image encoder (e.g. '... ! aooctnorm ! pngenc'), or use --tiff for "
        "raw grey video");
  else
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "the pipeline ends in %s, not an image format aooct-stack writes "
        "(%s)", type, known->str);
  g_string_free (known, TRUE);
  return FALSE;
}

/* FALSE (and @error) when @path exists and --overwrite was not given: a
 * file an earlier run (or anyone) left is never replaced silently. */
static gboolean
check_not_there (const Stack * stack, const gchar * path, GError ** error)
{
  if (stack->overwrite || !g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
      "%s exists (an earlier run's?): aooct-stack replaces no file unless "
      "told: remove it, choose another --location, or give --overwrite", path);
  return FALSE;
}

/* The folder of @path, made where missing (a --location of
 * 'stack/vol{volume}/...' names folders that need not exist yet). */
static gboolean
make_folder_of (const gchar * path, GError ** error)
{
  gchar *dir = g_path_get_dirname (path);
  gboolean ok = g_mkdir_with_parents (dir, 0777) == 0;

  if (!ok)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot write %s: cannot make the folder %s: %s", path, dir,
        g_strerror (errno));
  g_free (dir);
  return ok;
}

/* Claims @path for one file of this run; FALSE (and @error) when an
 * earlier image or volume of the run was written there, or the file is
 * there from before (without --overwrite); makes its folder. */
static gboolean
claim_path (Stack * stack, const gchar * path, GError ** error)
{
  if (g_hash_table_contains (stack->paths, path)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
        "image %" G_GUINT64_FORMAT " would be written to %s, over an earlier "
        "one of this run: give --location fields a separator or more digits "
        "(e.g. vol{volume}-bscan{bscan}.png)", stack->written, path);
    return FALSE;
  }
  if (!check_not_there (stack, path, error) || !make_folder_of (path, error))
    return FALSE;
  g_hash_table_add (stack->paths, g_strdup (path));
  return TRUE;
}

#if defined (HAVE_LIBTIFF) || defined (HAVE_HDF5)
/* what the volume files share */

/* the "values" attribute: what a pixel of the volume is */
#define VALUES_GREY "aooctnorm's grey levels: display-normalised log " \
  "intensity (its log, dynamic_range, range_min/range_max)"
#define VALUES_DB "intensity in dB before normalisation, float32: " \
  "10 log10 (max (re^2 + im^2, 1e-30)) of aooctfft's depth bins " \
  "(spec section 7)"

/* @info of a sample of raw GRAY16_LE or GRAY8 video, what --tiff and
 * --hdf5 (without --db) write; FALSE and @error naming the option for any
 * other caps. */
static gboolean
grey_video_info (Stack * stack, GstSample * sample, GstVideoInfo * info,
    GError ** error)
{
  gchar *got;

  if (gst_video_info_from_caps (info, gst_sample_get_caps (sample))
      && (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY16_LE
          || GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY8))
    return TRUE;
  /* gst_caps_to_string: GLib's printf cannot print GST_PTR_FORMAT */
  got = gst_caps_to_string (gst_sample_get_caps (sample));
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
      "%s needs raw GRAY16_LE or GRAY8 video at the end of the pipeline "
      "(e.g. '... ! aooctnorm ! video/x-raw,format=GRAY16_LE')%s, got %s",
      stack->tiff ? "--tiff" : "--hdf5", stack->tiff ? "" :
      ", or with --db aooctfft's complex data", got ? got : "no caps");
  g_free (got);
  return FALSE;
}

/* A volume of B-scans of @rows x @columns pixels of @bytes bytes within
 * --memory-limit; checked before anything of it is written. */
static gboolean
check_volume_size (Stack * stack, gint rows, gint columns, gint bytes,
    GError ** error)
{
  guint64 size = stack->bscans_per_volume * rows * columns * bytes;

  if (stack->max_volume_bytes == 0 || size <= stack->max_volume_bytes)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM,
      "volume %" G_GUINT64_FORMAT " would be %" G_GUINT64_FORMAT
      " B-scans x %d x %d pixels x %d bytes = %" G_GUINT64_FORMAT " bytes, "
      "more than --memory-limit=%" G_GUINT64_FORMAT " (an HDF5 volume is "
      "assembled in memory, and readers load a volume whole): fewer "
      "--bscans-per-volume, a smaller crop, or a larger limit",
      stack->written / stack->bscans_per_volume, stack->bscans_per_volume, rows,
      columns, bytes, size, stack->max_volume_bytes);
  return FALSE;
}

/* The file name of the volume starting now, claimed for this run */
static gchar *
volume_path (Stack * stack, GError ** error)
{
  gchar *path = expand_location (stack->template,
      stack->written / stack->bscans_per_volume, 0, error);

  if (path && !claim_path (stack, path, error))
    g_clear_pointer (&path, g_free);
  return path;
}

#endif

#ifdef HAVE_LIBTIFF
/* Closes the volume's TIFF: renamed from NAME.partial to NAME when @keep
 * and complete, else removed. */
static gboolean
close_tiff (Stack * stack, gboolean keep, GError ** error)
{
  gboolean ok = TRUE;
  gint e = 0;

  if (stack->tif == NULL)
    return TRUE;
  /* TIFFClose flushes the last directory; a full disk shows up here */
  if (TIFFFlush (stack->tif) != 1) {
    e = errno;
    ok = FALSE;
  }
  TIFFClose (stack->tif);
  stack->tif = NULL;
  /* (a file given up after an error: only removed) */
  if (!keep)
    ok = TRUE;
  else if (!ok)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot finish %s: %s", stack->tif_path, g_strerror (e));
  if (ok && keep && g_rename (stack->tif_partial, stack->tif_path) != 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot finish %s (putting the written file in its place): %s",
        stack->tif_path, g_strerror (errno));
    ok = FALSE;
  }
  if (ok && keep)
    stack->kept += stack->bscans_per_volume;
  if (!ok || !keep)
    g_unlink (stack->tif_partial);
  g_clear_pointer (&stack->tif_path, g_free);
  g_clear_pointer (&stack->tif_partial, g_free);
  return ok;
}

/* The depth scale on the first page as ImageJ (Fiji) reads it: rows are
 * um-per-row micrometres apart (yunit, YResolution in rows per micrometre);
 * columns (A-lines) and pages (B-scans) are the scanner's, unknown here:
 * pixels; then the chain's settings, as --hdf5's attributes. */
static void
set_imagej_tags (Stack * stack)
{
  AooctGeometry geom;
  gint start = 0, end = 0;
  gdouble um = 0;
  gboolean known = aooct_volume_meta_describe_norm (stack->pipeline, &geom,
      &start, &end, &um);
  GPtrArray *meta = aooct_volume_meta_collect (stack->pipeline,
      known ? &geom : NULL, start, end, um, VALUES_GREY, "grey level");
  gchar *lines = aooct_volume_meta_to_text (meta);
  gchar *desc;

  /* the chain's settings follow ImageJ's keys as aooct_NAME=VALUE lines
   * (Image > Show Info; tifffile's imagej_metadata) */
  desc = g_strdup_printf ("ImageJ=1.11a\nimages=%" G_GUINT64_FORMAT
      "\nslices=%" G_GUINT64_FORMAT "\nunit=pixel\n%sspacing=1\n"
      "loop=false\n%s", stack->bscans_per_volume, stack->bscans_per_volume,
      um > 0 ? "yunit=micron\n" : "", lines);
  TIFFSetField (stack->tif, TIFFTAG_IMAGEDESCRIPTION, desc);
  if (um > 0) {
    TIFFSetField (stack->tif, TIFFTAG_XRESOLUTION, 1.0);
    TIFFSetField (stack->tif, TIFFTAG_YRESOLUTION, 1.0 / um);
    TIFFSetField (stack->tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_NONE);
  }
  g_free (desc);
  g_free (lines);
  g_ptr_array_unref (meta);
}

/* One image as the next page of the volume's TIFF (a new file at the
 * volume's first B-scan). */
static gboolean
write_page (Stack * stack, GstSample * sample, GError ** error)
{
  guint64 bscan = stack->written % stack->bscans_per_volume;
  GstVideoInfo info;
  GstVideoFrame frame;
  gint bits, r;
  gboolean ok = TRUE;

  if (!grey_video_info (stack, sample, &info, error))
    return FALSE;
  bits = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY16_LE ? 16 : 8;
  if (bscan == 0) {
    if (!close_tiff (stack, TRUE, error)
        || !check_volume_size (stack, GST_VIDEO_INFO_HEIGHT (&info),
            GST_VIDEO_INFO_WIDTH (&info), bits / 8, error))
      return FALSE;
    stack->tif_path = volume_path (stack, error);
    if (stack->tif_path == NULL)
      return FALSE;
    stack->tif_partial = g_strconcat (stack->tif_path, ".partial", NULL);
    stack->tif = TIFFOpen (stack->tif_partial, "w");
    if (stack->tif == NULL) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
          "cannot create %s: %s", stack->tif_path, g_strerror (errno));
      g_clear_pointer (&stack->tif_path, g_free);
      g_clear_pointer (&stack->tif_partial, g_free);
      return FALSE;
    }
  }
  if (!gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot map image %" G_GUINT64_FORMAT, stack->written);
    return FALSE;
  }
  TIFFSetField (stack->tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
  TIFFSetField (stack->tif, TIFFTAG_IMAGEWIDTH, GST_VIDEO_INFO_WIDTH (&info));
  TIFFSetField (stack->tif, TIFFTAG_IMAGELENGTH, GST_VIDEO_INFO_HEIGHT (&info));
  TIFFSetField (stack->tif, TIFFTAG_BITSPERSAMPLE, bits);
  TIFFSetField (stack->tif, TIFFTAG_SAMPLESPERPIXEL, 1);
  TIFFSetField (stack->tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
  TIFFSetField (stack->tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
  TIFFSetField (stack->tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField (stack->tif, TIFFTAG_ROWSPERSTRIP,
      GST_VIDEO_INFO_HEIGHT (&info));
  TIFFSetField (stack->tif, TIFFTAG_PAGENUMBER, (guint16) bscan,
      (guint16) stack->bscans_per_volume);
  if (bscan == 0)
    set_imagej_tags (stack);
  /* libtiff writes in the machine's byte order and says so in the header;
   * GRAY16_LE rows are little-endian: swap on a big-endian host */
  for (r = 0; ok && r < GST_VIDEO_INFO_HEIGHT (&info); r++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    gsize bytes = (gsize) GST_VIDEO_INFO_WIDTH (&info) * bits / 8;
    guint8 *copy = g_memdup2 (row, bytes);

#if G_BYTE_ORDER == G_BIG_ENDIAN
    if (bits == 16)
      TIFFSwabArrayOfShort ((uint16_t *) copy, GST_VIDEO_INFO_WIDTH (&info));
#endif
    ok = TIFFWriteScanline (stack->tif, copy, r, 0) == 1;
    g_free (copy);
  }
  gst_video_frame_unmap (&frame);
  if (!ok || TIFFWriteDirectory (stack->tif) != 1) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot write page %" G_GUINT64_FORMAT " of %s: %s", bscan,
        stack->tif_path, g_strerror (errno));
    return FALSE;
  }
  stack->written++;
  return TRUE;
}
#endif

#ifdef HAVE_HDF5
/* The volume's HDF5 file: renamed to its name when @keep, else removed */
static gboolean
close_hdf5 (Stack * stack, gboolean keep, GError ** error)
{
  AooctHdf5Volume *v = stack->h5;

  stack->h5 = NULL;
  if (v && keep) {
    if (!aooct_hdf5_volume_finish (v, error))
      return FALSE;
    stack->kept += stack->bscans_per_volume;
    return TRUE;
  }
  aooct_hdf5_volume_abort (v);
  return TRUE;
}

/* The volume's attributes, and the calibration file's text as the dataset
 * /wavelength_file_contents (the volume stays readable when the file is
 * gone or changed) */
static gboolean
write_hdf5_meta (Stack * stack, const AooctGeometry * geom, gint start,
    gint end, gdouble um, GError ** error)
{
  GPtrArray *meta = aooct_volume_meta_collect (stack->pipeline, geom, start,
      end, um, stack->db ? VALUES_DB : VALUES_GREY, stack->db ? "dB" :
      "grey level");
  gchar *file = aooct_volume_meta_calibration_file (stack->pipeline);
  gchar *text = NULL;
  gsize len = 0;
  gboolean ok = aooct_hdf5_volume_set_meta (stack->h5, meta, error);

  if (ok && file)
    ok = g_file_get_contents (file, &text, &len, error)
        && aooct_hdf5_volume_add_text (stack->h5, "wavelength_file_contents",
        text, len, error);
  g_free (text);
  g_free (file);
  g_ptr_array_unref (meta);
  return ok;
}

/* One B-scan of @rows x @columns pixels into the volume's HDF5 file (made
 * at the volume's first B-scan, with the chain's description: @geom, NULL
 * where unknown, the crop, the depth scale @um). */
static gboolean
write_hdf5_bscan (Stack * stack, AooctHdf5Type type, gint rows, gint columns,
    const guint8 * data, gsize stride, gint64 pts,
    const AooctGeometry * geom, gint start, gint end, gdouble um,
    GError ** error)
{
  static const gint bytes[] = { 1, 2, 4 };
  guint64 bscan = stack->written % stack->bscans_per_volume;

  if (bscan == 0) {
    gchar *path;

    if (!close_hdf5 (stack, TRUE, error)
        || !check_volume_size (stack, rows, columns, bytes[type], error))
      return FALSE;
    path = volume_path (stack, error);
    if (!path)
      return FALSE;
    stack->h5 = aooct_hdf5_volume_create (path, stack->bscans_per_volume,
        rows, columns, type, stack->deflate, error);
    g_free (path);
    if (!stack->h5)
      return FALSE;
    stack->h5_rows = rows;
    stack->h5_columns = columns;
    if (!write_hdf5_meta (stack, geom, start, end, um, error))
      return FALSE;
  } else if (rows != stack->h5_rows || columns != stack->h5_columns) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "B-scan %" G_GUINT64_FORMAT " of volume %" G_GUINT64_FORMAT " is %d "
        "x %d pixels, the volume's first was %d x %d: the images changed size "
        "inside a volume", bscan, stack->written / stack->bscans_per_volume,
        rows, columns, stack->h5_rows, stack->h5_columns);
    return FALSE;
  }
  if (!aooct_hdf5_volume_write (stack->h5, bscan, data, stride, pts, error))
    return FALSE;
  stack->written++;
  return TRUE;
}

/* The time of B-scan @b of the @n in @buf: they share its duration
 * evenly; -1 where unknown */
static gint64
bscan_pts (GstBuffer * buf, gint b, gint n)
{
  if (!GST_BUFFER_PTS_IS_VALID (buf))
    return -1;
  if (b == 0)
    return GST_BUFFER_PTS (buf);
  if (!GST_BUFFER_DURATION_IS_VALID (buf))
    return -1;
  return GST_BUFFER_PTS (buf) + gst_util_uint64_scale_int
      (GST_BUFFER_DURATION (buf), b, n);
}

/* a grey image (aooctnorm's GRAY8 / GRAY16_LE) as the next B-scan, or as
 * the next B-scans where aooctnorm stacked several of one buffer
 * (aooctfilesrc bscans-per-buffer) */
static gboolean
write_hdf5_image (Stack * stack, GstSample * sample, GError ** error)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  AooctGeometry geom;
  GstVideoInfo info;
  GstVideoFrame frame;
  gint start = 0, end = 0, n = 1, rows, b;
  gsize stride;
  gdouble um = 0;
  gboolean known, ok = TRUE;

  if (!grey_video_info (stack, sample, &info, error))
    return FALSE;
  known = aooct_volume_meta_describe_norm (stack->pipeline, &geom, &start,
      &end, &um);
  if (known && geom.bscans > 1
      && GST_VIDEO_INFO_HEIGHT (&info) == geom.bscans * (end - start))
    n = geom.bscans;
  rows = GST_VIDEO_INFO_HEIGHT (&info) / n;
  if (!gst_video_frame_map (&frame, &info, buf, GST_MAP_READ)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot map image %" G_GUINT64_FORMAT, stack->written);
    return FALSE;
  }
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  /* GRAY16_LE is the host's order on the little-endian hosts aooct runs
   * on; the dataset's type says little-endian either way */
  for (b = 0; ok && b < n; b++)
    ok = write_hdf5_bscan (stack,
        GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY8 ?
        AOOCT_HDF5_UINT8 : AOOCT_HDF5_UINT16, rows,
        GST_VIDEO_INFO_WIDTH (&info),
        (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) b * rows * stride, stride, bscan_pts (buf, b, n),
        known ? &geom : NULL, start, end, um, error);
  gst_video_frame_unmap (&frame);
  return ok;
}

/* Spec section 7's intensity in dB before normalisation of the depth bins
 * [start, end) of one B-scan of complex A-lines (A-line after A-line, P2
 * bins each; on full-range data a negative bin b is bin P2 + b), in
 * display orientation (row = depth bin, column = A-line); computed in
 * double, rounded once to float32. */
static void
intensity_db (const gfloat * bscan, const AooctGeometry * g, gint start,
    gint end, gfloat * out)
{
  gint m, r;

  for (r = 0; r < end - start; r++) {
    gint bin = start + r < 0 ? g->samples + start + r : start + r;

    for (m = 0; m < g->alines; m++) {
      const gfloat *z = bscan + 2 * ((gsize) m * g->samples + bin);
      gdouble i = (gdouble) z[0] * z[0] + (gdouble) z[1] * z[1];

      out[(gsize) r * g->alines + m] = (gfloat) (10.0 * log10 (MAX (i, 1e-30)));
    }
  }
}

/* --db: each B-scan of a buffer of aooctfft's complex data as float32 dB */
static gboolean
write_hdf5_db (Stack * stack, GstSample * sample, GError ** error)
{
  GstCaps *caps = gst_sample_get_caps (sample);
  GstBuffer *buf = gst_sample_get_buffer (sample);
  AooctGeometry g;
  GstMapInfo map;
  gint start, end, b;
  gfloat *image;
  gboolean ok = TRUE;

  if (!caps || !gst_caps_is_fixed (caps)
      || !gst_structure_has_name (gst_caps_get_structure (caps, 0),
          AOOCT_CAPS_NAME)
      || !gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)
      || !aooct_caps_to_geometry (caps, &g, NULL)
      || g.domain != AOOCT_DOMAIN_DEPTH || g.sample_type !=
      AOOCT_SAMPLE_COMPLEX) {
    gchar *got = caps ? gst_caps_to_string (caps) : NULL;

    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "--db needs the depth-domain complex data of aooctfft in system "
        "memory at the end of the pipeline (e.g. '... ! aooctdisp ! "
        "aooctfft', no aooctnorm), got %s", got ? got : "no caps");
    g_free (got);
    return FALSE;
  }
  if (!aooct_norm_resolve_crop (&g, stack->crop_start, stack->crop_end,
          &start, &end, error))
    return FALSE;
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot map buffer of B-scan %" G_GUINT64_FORMAT, stack->written);
    return FALSE;
  }
  if (map.size < aooct_geometry_buffer_bytes (&g)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "a buffer of %" G_GSIZE_FORMAT " bytes, its caps say %"
        G_GSIZE_FORMAT, map.size, aooct_geometry_buffer_bytes (&g));
    gst_buffer_unmap (buf, &map);
    return FALSE;
  }
  image = g_new (gfloat, (gsize) (end - start) * g.alines);
  for (b = 0; ok && b < g.bscans; b++) {
    intensity_db ((const gfloat *) map.data + 2 * (gsize) b * g.alines *
        g.samples, &g, start, end, image);
    ok = write_hdf5_bscan (stack, AOOCT_HDF5_FLOAT32, end - start, g.alines,
        (const guint8 *) image, (gsize) g.alines * sizeof (gfloat),
        bscan_pts (buf, b, g.bscans), &g,
        start, end, aooct_geometry_depth_step (&g), error);
  }
  g_free (image);
  gst_buffer_unmap (buf, &map);
  return ok;
}
#endif

/* "SIZE" with an optional K, M or G (powers of 1024) */
static gboolean
parse_size (const gchar * text, guint64 * bytes)
{
  gchar *end;
  guint64 n = g_ascii_strtoull (text, &end, 10);
  guint shift = 0;

  if (end == text || text[0] == '-')
    return FALSE;
  if (*end == 'K' || *end == 'k')
    shift = 10;
  else if (*end == 'M' || *end == 'm')
    shift = 20;
  else if (*end == 'G' || *end == 'g')
    shift = 30;
  if (shift)
    end++;
  if (*end != '\0' || n == 0 || n > (G_MAXUINT64 >> shift))
    return FALSE;
  *bytes = n << shift;
  return TRUE;
}

static gboolean
write_sample (Stack * stack, GstSample * sample, GError ** error)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  guint64 volume = stack->written / stack->bscans_per_volume;
  guint64 bscan = stack->written % stack->bscans_per_volume;
  GstMapInfo map;
  gchar *path;
  gboolean ok;

#ifdef HAVE_LIBTIFF
  if (stack->tiff)
    return write_page (stack, sample, error);
#endif
#ifdef HAVE_HDF5
  if (stack->hdf5)
    return stack->db ? write_hdf5_db (stack, sample, error) :
        write_hdf5_image (stack, sample, error);
#endif
  path = expand_location (stack->template, volume, bscan, error);
  if (!path)
    return FALSE;
  if (!check_image_format (gst_sample_get_caps (sample), path, error)
      || !claim_path (stack, path, error)) {
    g_free (path);
    return FALSE;
  }
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot map image %" G_GUINT64_FORMAT, stack->written);
    g_free (path);
    return FALSE;
  }
  /* (errors name the image's file, not GLib's temporary one) */
  ok = aooct_file_replace (path, (const gchar *) map.data, map.size, error);
  gst_buffer_unmap (buf, &map);
  g_free (path);
  if (ok) {
    stack->written++;
    stack->kept++;
  }
  return ok;
}

/* Prints a WARNING message of the bus (a setting that does nothing, say)
 * and returns FALSE, or an ERROR message and returns TRUE. */
static gboolean
report_error (GstMessage * msg)
{
  GError *error = NULL;
  gchar *dbg = NULL;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    gst_message_parse_warning (msg, &error, NULL);
    g_printerr ("aooct-stack: warning: %s: %s\n",
        GST_OBJECT_NAME (msg->src), error->message);
    g_clear_error (&error);
    return FALSE;
  }
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    return FALSE;
  gst_message_parse_error (msg, &error, &dbg);
  g_printerr ("aooct-stack: %s: %s\n", GST_OBJECT_NAME (msg->src),
      error->message);
  if (dbg)
    g_printerr ("  (%s)\n", dbg);
  g_clear_error (&error);
  g_free (dbg);
  return TRUE;
}

/* Writes aooctnorm's depth scale (an "aooct-depth-scale" element message)
 * as depth-scale.txt next to the first image. */
static gboolean
write_depth_scale (Stack * stack, const GstStructure * s, GError ** error)
{
  gdouble um = 0, first = 0;
  gint rows = 0, crop = 0;
  gchar *first_image, *dir, *path, *text;
  gchar a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean ok;

  if (!gst_structure_get_double (s, "um-per-row", &um)
      || !gst_structure_get_double (s, "first-row-um", &first)
      || !gst_structure_get_int (s, "rows", &rows)
      || !gst_structure_get_int (s, "crop-start", &crop))
    return TRUE;                /* not ours after all */
  first_image = expand_location (stack->template, 0, 0, error);
  if (!first_image)
    return FALSE;
  dir = g_path_get_dirname (first_image);
  path = g_build_filename (dir, "depth-scale.txt", NULL);
  /* an earlier run's is not replaced (a chain may send it again: this
   * run's own is) */
  if (!stack->depth_scale_claimed && (!check_not_there (stack, path, error)
          || !make_folder_of (path, error))) {
    g_free (path);
    g_free (dir);
    g_free (first_image);
    return FALSE;
  }
  stack->depth_scale_claimed = TRUE;
  text = g_strdup_printf ("# aooct depth scale of the images (aooctnorm): "
      "depth of image row r = first-row-um + r * um-per-row, micrometres in "
      "air\num-per-row=%s\nfirst-row-um=%s\nrows=%d\ncrop-start=%d\n",
      g_ascii_formatd (a, sizeof (a), "%.9g", um),
      g_ascii_formatd (b, sizeof (b), "%.9g", first), rows, crop);
  ok = aooct_file_replace (path, text, strlen (text), error);
  if (ok)
    g_print ("aooct-stack: %s: %s um per row\n", path, a);
  g_free (text);
  g_free (path);
  g_free (dir);
  g_free (first_image);
  return ok;
}

/* One message of the bus: FALSE for an error (printed) or a depth scale
 * that cannot be written; warnings are printed, the depth scale written */
static gboolean
stack_handle_message (Stack * stack, GstMessage * msg)
{
  GError *error = NULL;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT)
    return !report_error (msg);
  if (gst_message_has_name (msg, "aooct-depth-scale")
      && !write_depth_scale (stack, gst_message_get_structure (msg), &error)) {
    g_printerr ("aooct-stack: %s\n", error->message);
    g_clear_error (&error);
    return FALSE;
  }
  return TRUE;
}

#define BUS_MESSAGES \
  (GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT)

/* Pulls images until EOS or an error; the bus is polled between images so
 * that an error upstream ends the run instead of waiting forever.  A
 * pipeline that fails while starting (a missing calibration, refused caps)
 * still sends EOS to the sink after posting its error: the bus is read
 * after EOS too, so that such a run fails with the element's message
 * instead of ending "successfully" with no images. */
static gboolean
stack_run (GstElement * pipeline, GstAppSink * sink, Stack * stack)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  gboolean ok = TRUE;
  GError *error = NULL;
  GstMessage *msg;

  while (ok) {
    GstSample *sample;

    /* the depth scale comes before the first image of a negotiation; one
     * filter for everything: a pop drops the messages it does not ask for */
    while (ok && (msg = gst_bus_pop_filtered (bus, BUS_MESSAGES))) {
      ok = stack_handle_message (stack, msg);
      gst_message_unref (msg);
    }
    if (!ok)
      break;
    sample = gst_app_sink_try_pull_sample (sink, GST_SECOND / 10);
    if (sample) {
      /* the depth scale of this image, posted before it was pushed, may
       * have come while waiting for it */
      while (ok && (msg = gst_bus_pop_filtered (bus, BUS_MESSAGES))) {
        ok = stack_handle_message (stack, msg);
        gst_message_unref (msg);
      }
      if (ok && !write_sample (stack, sample, &error)) {
        g_printerr ("aooct-stack: %s\n", error->message);
        g_clear_error (&error);
        ok = FALSE;
      }
      gst_sample_unref (sample);
      continue;
    }
    if (gst_app_sink_is_eos (sink))
      break;
  }
  /* warnings, and an error posted before the EOS that ended the loop (the
   * first error names the cause; basetransform and basesrc add generic
   * ones after it) */
  while (ok && (msg = gst_bus_pop_filtered (bus, BUS_MESSAGES))) {
    ok = stack_handle_message (stack, msg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return ok;
}

int
main (int argc, char **argv)
{
  gint64 per_volume = 0;
  gchar *template = NULL;
  gchar **description = NULL;
  gboolean tiff = FALSE, hdf5 = FALSE, db = FALSE, overwrite = FALSE;
  gint deflate = 0, crop_start = 0, crop_end = 0;
  gchar *max_bytes = NULL;
  GOptionEntry entries[] = {
    {"tiff", 't', 0, G_OPTION_ARG_NONE, &tiff,
        "One multi-page 8/16-bit TIFF per volume from raw grey video "
          "(default template vol{volume}.tif)", NULL},
    {"hdf5", 0, 0, G_OPTION_ARG_NONE, &hdf5,
        "One HDF5 file per volume (dataset /volume, B-scans x depth x "
          "A-lines, with the chain's settings as attributes) from raw grey "
          "video (default template vol{volume}.h5)", NULL},
    {"db", 0, 0, G_OPTION_ARG_NONE, &db,
        "With --hdf5: float32 intensity in dB before normalisation, from "
          "aooctfft's complex data at the end of the pipeline", NULL},
    {"crop-start", 0, 0, G_OPTION_ARG_INT, &crop_start,
        "With --db: first depth bin (as aooctnorm's crop-start)", "BIN"},
    {"crop-end", 0, 0, G_OPTION_ARG_INT, &crop_end,
        "With --db: depth bin after the last (as aooctnorm's crop-end; "
          "0 = pad-size/2)", "BIN"},
    {"compress", 0, 0, G_OPTION_ARG_INT, &deflate,
        "With --hdf5: deflate (gzip) level 1..9 after the shuffle filter "
          "(default 0, uncompressed)", "LEVEL"},
    {"memory-limit", 0, 0, G_OPTION_ARG_STRING, &max_bytes,
        "Refuse a volume larger than SIZE bytes uncompressed (suffix K, M, "
          "G: powers of 1024) before any of it is written: --hdf5 assembles "
          "a volume in memory (default: no limit)", "SIZE"},
    {"bscans-per-volume", 'b', 0, G_OPTION_ARG_INT64, &per_volume,
        "B-scans per volume (>= 1)", "B"},
    {"location", 'l', 0, G_OPTION_ARG_FILENAME, &template,
          "File name template with {volume} and {bscan} "
          "(default vol{volume}-bscan{bscan}.png); missing folders are made",
        "TEMPLATE"},
    {"overwrite", 0, 0, G_OPTION_ARG_NONE, &overwrite,
        "Replace files that are there from before (default: refuse, and "
          "stop before replacing any)", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &description, NULL,
        "PIPELINE..."},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  GstElement *pipeline, *sink;
  static const gchar *const sink_tokens[] = { "!", "appsink",
    "name=aooct_stack_sink", "sync=false", "max-buffers=8", NULL
  };
  gchar *probe, *depth_scale;
  Stack stack = { 0, };
  gboolean ok;

  ctx = g_option_context_new ("- one file per B-scan, named by "
      "volume and B-scan");
  g_option_context_add_main_entries (ctx, entries, NULL);
  /* (with setlocale: GLib's messages in the user's character set) */
  if (!aooct_tool_parse_options ("aooct-stack", ctx, &argc, &argv))
    return 2;
  g_option_context_free (ctx);
  if (per_volume < 1) {
    g_printerr ("aooct-stack: --bscans-per-volume %" G_GINT64_FORMAT
        ": must be >= 1\n", per_volume);
    return 2;
  }
  /* (each message names the rule that was broken, in this order) */
  if (tiff && hdf5) {
    g_printerr ("aooct-stack: --tiff and --hdf5: choose one\n");
    return 2;
  }
  if (db && !hdf5) {
    g_printerr ("aooct-stack: --db needs --hdf5\n");
    return 2;
  }
  if (!db && (crop_start || crop_end)) {
    g_printerr ("aooct-stack: --crop-start/--crop-end go with --db "
        "(otherwise aooctnorm crops)\n");
    return 2;
  }
  if (deflate < 0 || deflate > 9) {
    g_printerr ("aooct-stack: --compress=%d: the deflate level must be "
        "0..9\n", deflate);
    return 2;
  }
  if (deflate && !hdf5) {
    g_printerr ("aooct-stack: --compress needs --hdf5\n");
    return 2;
  }
  if (max_bytes && !parse_size (max_bytes, &stack.max_volume_bytes)) {
    g_printerr ("aooct-stack: --memory-limit %s: expected a number of "
        "bytes >= 1, optionally with K, M or G\n", max_bytes);
    return 2;
  }
  if (!description || !description[0]) {
    g_printerr ("aooct-stack: no pipeline given (it must end in an image "
        "encoder, e.g. '... ! aooctnorm ! pngenc')\n");
    return 2;
  }
#ifndef HAVE_LIBTIFF
  if (tiff) {
    g_printerr ("aooct-stack: --tiff: this build has no libtiff "
        "(install libtiff-dev and rebuild)\n");
    return 2;
  }
#endif
#ifndef HAVE_HDF5
  if (hdf5) {
    g_printerr ("aooct-stack: --hdf5: this build has no libhdf5 "
        "(install libhdf5-dev and rebuild)\n");
    return 2;
  }
#endif
  stack.tiff = tiff;
  stack.hdf5 = hdf5;
  stack.db = db;
  stack.deflate = deflate;
  stack.crop_start = crop_start;
  stack.crop_end = crop_end;
  stack.overwrite = overwrite;
  stack.template = template ? template : tiff ? "vol{volume}.tif" :
      hdf5 ? "vol{volume}.h5" : "vol{volume}-bscan{bscan}.png";
  stack.bscans_per_volume = (guint64) per_volume;
  /* reject a bad template before any work is done: a field it does not
   * know, one that would write two images to one file, a TIFF template
   * that does not say .tif */
  probe = expand_location (stack.template, 0, 0, &error);
  if (!probe || !check_template_distinct (&stack, &error)) {
    g_printerr ("aooct-stack: %s\n", error->message);
    return 2;
  }
  if (tiff && !has_extension (probe, tiff_extensions, 2)) {
    g_printerr ("aooct-stack: --tiff writes TIFF files: --location \"%s\" "
        "must end in .tif or .tiff\n", stack.template);
    return 2;
  }
  if (hdf5 && !has_extension (probe, hdf5_extensions, 2)) {
    g_printerr ("aooct-stack: --hdf5 writes HDF5 files: --location \"%s\" "
        "must end in .h5 or .hdf5\n", stack.template);
    return 2;
  }
  /* an earlier run's files are not replaced: the first file and the
   * depth scale beside it checked before anything runs (every later file
   * when it is claimed) */
  {
    gchar *dir = g_path_get_dirname (probe);

    depth_scale = g_build_filename (dir, "depth-scale.txt", NULL);
    g_free (dir);
  }
  if (!check_not_there (&stack, probe, &error)
      || !check_not_there (&stack, depth_scale, &error)) {
    g_printerr ("aooct-stack: %s\n", error->message);
    return 2;
  }
  g_free (depth_scale);
  g_free (probe);
  /* a file past `ulimit -f` is a write error to report, not a signal that
   * kills the tool with a half-written file */
  signal (SIGXFSZ, SIG_IGN);
#ifdef HAVE_LIBTIFF
  /* libtiff's own messages name the temporary NAME.partial; aooct-stack's
   * name the volume's file and the system's reason */
  if (tiff)
    TIFFSetErrorHandler (NULL);
#endif

  /* one argument, one token, as gst-launch-1.0 takes them: a path with a
   * space in location=... stays one value */
  pipeline = aooct_tool_parse_launchv (description, sink_tokens, &error);
  if (!pipeline || error) {
    /* a recoverable parse error (an unknown property, a missing element
     * in a bin) still returns a pipeline: it is not what the user asked
     * for, so it is refused as gst-launch-1.0 refuses it */
    g_printerr ("aooct-stack: pipeline: %s\n", error ? error->message :
        "cannot be parsed");
    g_clear_error (&error);
    gst_clear_object (&pipeline);
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "aooct_stack_sink");
  stack.pipeline = pipeline;
  stack.paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    /* the first error names the cause */
    if (msg) {
      report_error (msg);
      gst_message_unref (msg);
    } else {
      g_printerr ("aooct-stack: the pipeline cannot start\n");
    }
    gst_object_unref (bus);
    ok = FALSE;
  } else {
    ok = stack_run (pipeline, GST_APP_SINK (sink), &stack);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  /* the last volume's file: kept when the run went well and the volume is
   * whole; a volume file (TIFF or HDF5) of an incomplete last volume is
   * removed, one rule for both (an HDF5 volume's missing B-scans would
   * read as zeros, a short TIFF as a whole volume) */
#ifdef HAVE_LIBTIFF
  if (!close_tiff (&stack, ok
          && stack.written % stack.bscans_per_volume == 0, &error)) {
    g_printerr ("aooct-stack: %s\n", error->message);
    g_clear_error (&error);
    ok = FALSE;
  }
#endif
#ifdef HAVE_HDF5
  if (!close_hdf5 (&stack, ok
          && stack.written % stack.bscans_per_volume == 0, &error)) {
    g_printerr ("aooct-stack: %s\n", error->message);
    g_clear_error (&error);
    ok = FALSE;
  }
#endif

  if (ok && stack.written == 0) {
    /* no volume at all is not a whole number of volumes */
    g_printerr ("aooct-stack: the pipeline produced no images (is the raw "
        "file empty?)\n");
    ok = FALSE;
  }

  if (ok && stack.written % stack.bscans_per_volume != 0) {
    g_printerr ("aooct-stack: the last volume is incomplete: %"
        G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " B-scans (is the raw file "
        "shorter than volumes x B-scans x A-lines x samples x 2 bytes?)%s\n",
        stack.written % stack.bscans_per_volume, stack.bscans_per_volume,
        stack.hdf5 || stack.tiff ? "; its volume file is not kept (a volume "
        "file holds a whole volume)" : "");
    ok = FALSE;
  }
  /* what is on disk: images in files that were kept (not those of a
   * volume file given up after an error) */
  if (ok || stack.kept > 0)
    g_print ("aooct-stack: %" G_GUINT64_FORMAT " images, %" G_GUINT64_FORMAT
        " whole volume(s) of %" G_GUINT64_FORMAT " B-scans%s\n", stack.kept,
        stack.kept / stack.bscans_per_volume, stack.bscans_per_volume,
        stack.kept % stack.bscans_per_volume ? " and the images of an "
        "incomplete one" : "");

  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_hash_table_unref (stack.paths);
  g_strfreev (description);
  g_free (template);
  g_free (max_bytes);
  return ok ? 0 : 1;
}
