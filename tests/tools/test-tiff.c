/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: a volume saved for analysis (aooct-stack --tiff): each
 * volume one multi-page 16-bit TIFF, read back with libtiff and compared
 * page by page, pixel by pixel, with the images the same pipeline gives an
 * appsink; the en-face images (8-bit) likewise. */
#include <math.h>
#include <string.h>

#ifdef HAVE_LIBTIFF
#include <glib/gstdio.h>
#include <tiffio.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "aooct-test-util.h"

#define CHAIN "aooctsrc num-buffers=7 samples=256 alines=32 seed=5 " \
  "wavelength-coeffs=\"785,0.4\" ! aooctdcsub backend=cpu ! " \
  "aooctkmap wavelength-coeffs=\"785,0.4\" backend=cpu ! " \
  "aooctdisp backend=cpu ! aooctfft backend=cpu"

/* The images of @launch (ending in raw video) as packed rows (g_free
 * each). */
static GPtrArray *
images (const gchar * launch, gint * width, gint * height, gint * bpp)
{
  gchar *full = g_strdup_printf ("%s ! appsink name=sink sync=false", launch);
  GstElement *p = gst_parse_launch (full, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GstSample *s;

  fail_unless (p != NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstVideoInfo info;
    GstVideoFrame f;
    guint8 *img;
    gint r;

    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
    *width = GST_VIDEO_INFO_WIDTH (&info);
    *height = GST_VIDEO_INFO_HEIGHT (&info);
    *bpp = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
    fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (s),
            GST_MAP_READ));
    img = g_malloc ((gsize) * width * *height * *bpp);
    for (r = 0; r < *height; r++)
      memcpy (img + (gsize) r * *width * *bpp,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
          (gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
          (gsize) * width * *bpp);
    gst_video_frame_unmap (&f);
    g_ptr_array_add (out, img);
    gst_sample_unref (s);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (full);
  return out;
}

/* The first page's ImageJ tags (what Fiji reads): a stack of @per
 * images; with a depth scale in @dir's depth-scale.txt, yunit=micron and
 * YResolution = rows per micrometre. */
static void
check_imagej (TIFF * tif, gint per, const gchar * dir)
{
  gchar *sidecar = g_build_filename (dir, "depth-scale.txt", NULL);
  gchar *text = NULL, *images = g_strdup_printf ("\nimages=%d\n", per);
  const gchar *um_line;
  char *desc = NULL;
  gfloat yres = 0;

  fail_unless (TIFFGetField (tif, TIFFTAG_IMAGEDESCRIPTION, &desc) == 1);
  fail_unless (g_str_has_prefix (desc, "ImageJ=") && strstr (desc, images),
      "ImageDescription %s", desc);
  if (g_file_get_contents (sidecar, &text, NULL, NULL)
      && (um_line = strstr (text, "um-per-row="))) {
    gdouble um = g_ascii_strtod (um_line + strlen ("um-per-row="), NULL);

    fail_unless (strstr (desc, "\nyunit=micron\n") != NULL, "%s", desc);
    fail_unless (TIFFGetField (tif, TIFFTAG_YRESOLUTION, &yres) == 1);
    fail_unless (fabs (1.0 / yres - um) < 1e-5 * um, "YResolution %g, "
        "%g um per row", yres, um);
  } else {
    fail_unless (strstr (desc, "yunit") == NULL, "%s", desc);
  }
  g_free (text);
  g_free (images);
  g_free (sidecar);
}

/* Runs aooct-stack --tiff on @launch (split into arguments as a shell
 * would: one token per argument, as gst-launch-1.0 takes them) with @per
 * volume; checks each file against the appsink's images: @files files of
 * whole volumes, pages as the images, and no file of an incomplete last
 * volume. */
static void
check_tiff (const gchar * launch, gint per, gint files, gint expect_rc)
{
  gchar *dir = g_dir_make_tmp ("aooct-tiff-XXXXXX", NULL);
  gchar *stack = g_build_filename (g_getenv ("AOOCT_BUILD"), "tools",
      "aooct-stack", NULL);
  gchar *location = g_strdup_printf ("--location=%s/vol{volume}.tif", dir);
  gchar *per_arg = g_strdup_printf ("--bscans-per-volume=%d", per);
  gchar **tokens = NULL;
  GPtrArray *argv = g_ptr_array_new ();
  gint width = 0, height = 0, bpp = 1, status, k, n = 0, i;
  GPtrArray *want = images (launch, &width, &height, &bpp);
  gchar *err = NULL;

  fail_unless (g_shell_parse_argv (launch, NULL, &tokens, NULL));
  g_ptr_array_add (argv, stack);
  g_ptr_array_add (argv, (gchar *) "--tiff");
  g_ptr_array_add (argv, per_arg);
  g_ptr_array_add (argv, location);
  for (i = 0; tokens[i]; i++)
    g_ptr_array_add (argv, tokens[i]);
  g_ptr_array_add (argv, NULL);
  fail_unless (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL,
          G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, NULL));
  g_ptr_array_unref (argv);
  g_strfreev (tokens);
  fail_unless_equals_int (WEXITSTATUS (status), expect_rc);
  for (k = 0; k < files; k++) {
    gchar *path = g_strdup_printf ("%s/vol%03d.tif", dir, k);
    TIFF *tif = TIFFOpen (path, "r");
    gint page = 0;

    fail_unless (tif != NULL, "%s not written (%s)", path, err);
    do {
      guint32 w = 0, h = 0;
      guint16 bits = 0, spp = 0;
      gint r;
      const guint8 *img = g_ptr_array_index (want, n);
      guint8 *row = g_malloc (TIFFScanlineSize (tif));

      TIFFGetField (tif, TIFFTAG_IMAGEWIDTH, &w);
      TIFFGetField (tif, TIFFTAG_IMAGELENGTH, &h);
      TIFFGetField (tif, TIFFTAG_BITSPERSAMPLE, &bits);
      TIFFGetFieldDefaulted (tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
      fail_unless_equals_int (w, width);
      fail_unless_equals_int (h, height);
      fail_unless_equals_int (bits, 8 * bpp);
      fail_unless_equals_int (spp, 1);
      if (page == 0)
        check_imagej (tif, per, dir);
      for (r = 0; r < height; r++) {
        fail_unless (TIFFReadScanline (tif, row, r, 0) == 1);
        /* libtiff gives the values in host order, GRAY16_LE is LE */
        if (bpp == 2 && G_BYTE_ORDER == G_BIG_ENDIAN)
          TIFFSwabArrayOfShort ((uint16_t *) row, width);
        fail_unless (memcmp (row, img + (gsize) r * width * bpp,
                (gsize) width * bpp) == 0, "%s page %d row %d differs",
            path, page, r);
      }
      g_free (row);
      page++;
      n++;
    } while (TIFFReadDirectory (tif));
    fail_unless_equals_int (page, MIN (per, (gint) want->len - k * per));
    TIFFClose (tif);
    g_unlink (path);
    g_free (path);
  }
  /* the images of whole volumes; an incomplete last volume has no file */
  fail_unless_equals_int (n, MIN ((gint) want->len, files * per));
  {
    gchar *next = g_strdup_printf ("%s/vol%03d.tif", dir, files);

    fail_unless (!g_file_test (next, G_FILE_TEST_EXISTS),
        "%s (an incomplete volume) was kept", next);
    g_free (next);
  }
  {
    /* aooct-stack's depth-scale sidecar, so that the folder can go */
    gchar *sidecar = g_build_filename (dir, "depth-scale.txt", NULL);
    g_unlink (sidecar);
    g_free (sidecar);
  }
  fail_unless (g_rmdir (dir) == 0, "%s left with files in it", dir);
  g_ptr_array_unref (want);
  g_free (err);
  g_free (dir);
  g_free (stack);
  g_free (location);
  g_free (per_arg);
}

GST_START_TEST (test_volume_tiff16)
{
  /* 7 B-scans, volumes of 3: two whole files, the incomplete third not
   * kept (exit 1; the rule of --hdf5) */
  check_tiff (CHAIN " ! aooctnorm backend=cpu ! video/x-raw,format=GRAY16_LE",
      3, 2, 1);
  check_tiff (CHAIN " ! aooctnorm backend=cpu crop-start=10 crop-end=90 ! "
      "video/x-raw,format=GRAY16_LE", 7, 1, 0);
}

GST_END_TEST;

GST_START_TEST (test_enface_tiff)
{
  /* the en-face images of volumes of 3 B-scans (3: the last partial), all
   * in one file */
  check_tiff (CHAIN " ! aooctenface backend=cpu bscans-per-volume=3", 3, 1, 0);
}

GST_END_TEST;

static Suite *
tiff_suite (void)
{
  Suite *s = suite_create ("tiff");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_volume_tiff16);
  tcase_add_test (tc, test_enface_tiff);
  return s;
}

GST_CHECK_MAIN (tiff);
#else
#include <glib.h>

int
main (void)
{
  g_print ("SKIP: built without libtiff (aooct-stack --tiff needs it)\n");
  return 77;
}
#endif
