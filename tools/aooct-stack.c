/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-stack: runs a pipeline that ends in an image encoder and writes
 * every image to its own file, named after the volume and the B-scan it
 * shows.
 *
 *   aooct-stack --bscans-per-volume=B [--location=TEMPLATE] PIPELINE...
 *
 * PIPELINE is a gst-launch-1.0 description whose last element produces one
 * encoded image per B-scan (pngenc, jpegenc, ...); aooct-stack appends an
 * appsink to it.  Image n (counting from 0) is B-scan n mod B of volume
 * n / B, written to TEMPLATE with "{volume}" and "{bscan}" replaced by
 * those numbers (zero-padded to 3 and 4 digits; "{volume:W}" and
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
 * The depth scale goes with the images: when aooctnorm posts its
 * "aooct-depth-scale" message (a chain with aooctkmap, whose calibration
 * fixes it), aooct-stack writes the sidecar depth-scale.txt into the
 * folder of the first image, key=value lines: um-per-row (micrometres in
 * air per image row), first-row-um (depth of row 0), rows, crop-start.
 *
 * No file is written twice: TEMPLATE must tell every image apart ({volume}
 * and, with more than one B-scan per volume, {bscan}; with --tiff
 * {volume}), else aooct-stack refuses it before the pipeline starts, and a
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
 * incomplete (the raw file is shorter than the geometry says: its images
 * are still written, and the message says how many B-scans it has), 2 on
 * a usage error. */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#ifdef HAVE_LIBTIFF
#include <tiffio.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "aooct-textwrite.h"
#include "aooct-tool-util.h"

typedef struct
{
  const gchar *template;
  guint64 bscans_per_volume;
  guint64 written;
  GHashTable *paths;            /* every file written: none twice */
  gboolean tiff;                /* one multi-page TIFF per volume */
#ifdef HAVE_LIBTIFF
  TIFF *tif;                    /* the volume being written */
  gchar *tif_path;
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
  gboolean per_bscan = !stack->tiff && stack->bscans_per_volume > 1;
  gboolean ok = TRUE;

  if (g_strcmp0 (first, next_volume) == 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--location \"%s\" has no {volume}: every volume would be written "
        "to %s, each over the one before (e.g. %s)", stack->template, first,
        stack->tiff ? "vol{volume}.tif" : "vol{volume}-bscan{bscan}.png");
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

/* Claims @path for one file of this run; FALSE (and @error) when an
 * earlier image or volume of the run was written there. */
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
  g_hash_table_add (stack->paths, g_strdup (path));
  return TRUE;
}

#ifdef HAVE_LIBTIFF
static gboolean
close_tiff (Stack * stack, GError ** error)
{
  gboolean ok = TRUE;

  if (stack->tif == NULL)
    return TRUE;
  /* TIFFClose flushes the last directory; a full disk shows up here */
  if (TIFFFlush (stack->tif) != 1)
    ok = FALSE;
  TIFFClose (stack->tif);
  stack->tif = NULL;
  if (!ok)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "cannot finish %s", stack->tif_path);
  g_clear_pointer (&stack->tif_path, g_free);
  return ok;
}

/* One image as the next page of the volume's TIFF (a new file at the
 * volume's first B-scan). */
static gboolean
write_page (Stack * stack, GstSample * sample, GError ** error)
{
  guint64 volume = stack->written / stack->bscans_per_volume;
  guint64 bscan = stack->written % stack->bscans_per_volume;
  GstVideoInfo info;
  GstVideoFrame frame;
  gint bits, r;
  gboolean ok = TRUE;

  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
      || (GST_VIDEO_INFO_FORMAT (&info) != GST_VIDEO_FORMAT_GRAY16_LE
          && GST_VIDEO_INFO_FORMAT (&info) != GST_VIDEO_FORMAT_GRAY8)) {
    /* gst_caps_to_string: GLib's printf cannot print GST_PTR_FORMAT */
    gchar *got = gst_caps_to_string (gst_sample_get_caps (sample));

    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "--tiff needs raw GRAY16_LE or GRAY8 video at the end of the "
        "pipeline (e.g. '... ! aooctnorm ! video/x-raw,format=GRAY16_LE'), "
        "got %s", got ? got : "no caps");
    g_free (got);
    return FALSE;
  }
  bits = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY16_LE ? 16 : 8;
  if (bscan == 0) {
    if (!close_tiff (stack, error))
      return FALSE;
    stack->tif_path = expand_location (stack->template, volume, 0, error);
    if (stack->tif_path == NULL)
      return FALSE;
    if (!claim_path (stack, stack->tif_path, error)) {
      g_clear_pointer (&stack->tif_path, g_free);
      return FALSE;
    }
    stack->tif = TIFFOpen (stack->tif_path, "w");
    if (stack->tif == NULL) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
          "cannot create %s", stack->tif_path);
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
        "cannot write page %" G_GUINT64_FORMAT " of %s", bscan,
        stack->tif_path);
    return FALSE;
  }
  stack->written++;
  return TRUE;
}
#endif

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
  if (ok)
    stack->written++;
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
handle_message (Stack * stack, GstMessage * msg)
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
run (GstElement * pipeline, GstAppSink * sink, Stack * stack)
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
      ok = handle_message (stack, msg);
      gst_message_unref (msg);
    }
    if (!ok)
      break;
    sample = gst_app_sink_try_pull_sample (sink, GST_SECOND / 10);
    if (sample) {
      ok = write_sample (stack, sample, &error);
      gst_sample_unref (sample);
      if (!ok) {
        g_printerr ("aooct-stack: %s\n", error->message);
        g_clear_error (&error);
      }
      continue;
    }
    if (gst_app_sink_is_eos (sink))
      break;
  }
  /* warnings, and an error posted before the EOS that ended the loop (the
   * first error names the cause; basetransform and basesrc add generic
   * ones after it) */
  while (ok && (msg = gst_bus_pop_filtered (bus, BUS_MESSAGES))) {
    ok = handle_message (stack, msg);
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
  gboolean tiff = FALSE;
  GOptionEntry entries[] = {
    {"tiff", 't', 0, G_OPTION_ARG_NONE, &tiff,
        "One multi-page 8/16-bit TIFF per volume from raw grey video "
          "(default template vol{volume}.tif)", NULL},
    {"bscans-per-volume", 'b', 0, G_OPTION_ARG_INT64, &per_volume,
        "B-scans per volume (>= 1)", "B"},
    {"location", 'l', 0, G_OPTION_ARG_FILENAME, &template,
        "File name template with {volume} and {bscan} "
          "(default vol{volume}-bscan{bscan}.png)", "TEMPLATE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &description, NULL,
        "PIPELINE..."},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  GstElement *pipeline, *sink;
  gchar *joined, *launch, *probe;
  Stack stack = { 0, };
  gboolean ok;

  ctx = g_option_context_new ("PIPELINE... - one file per B-scan, named by "
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
  stack.tiff = tiff;
  stack.template = template ? template : tiff ? "vol{volume}.tif" :
      "vol{volume}-bscan{bscan}.png";
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
  g_free (probe);

  joined = g_strjoinv (" ", description);
  launch = g_strdup_printf ("%s ! appsink name=aooct_stack_sink sync=false "
      "max-buffers=8", joined);
  pipeline = gst_parse_launch (launch, &error);
  g_free (joined);
  g_free (launch);
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
    ok = run (pipeline, GST_APP_SINK (sink), &stack);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
#ifdef HAVE_LIBTIFF
  if (!close_tiff (&stack, &error)) {
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
        "shorter than volumes x B-scans x A-lines x samples x 2 bytes?)\n",
        stack.written % stack.bscans_per_volume, stack.bscans_per_volume);
    ok = FALSE;
  }
  if (ok || stack.written > 0)
    g_print ("aooct-stack: %" G_GUINT64_FORMAT " images, %" G_GUINT64_FORMAT
        " volume(s) of %" G_GUINT64_FORMAT " B-scans\n", stack.written,
        (stack.written + stack.bscans_per_volume - 1) / stack.bscans_per_volume,
        stack.bscans_per_volume);

  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_hash_table_unref (stack.paths);
  g_strfreev (description);
  g_free (template);
  return ok ? 0 : 1;
}
