/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * aooct-dispersion: finds the dispersion coefficients of a raw file and
 * prints them as the pipeline fragment to use.
 *
 *   aooct-dispersion --samples=N --alines=M
 *       (--wavelength-file=F | --wavelength-coeffs=C) [--size=P1]
 *       [--factor=F] [--format=gray16-le|gray8|mono12p|mono12packed|mono10p]
 *       RAWFILE
 *
 * prints, on stdout,
 *
 *   aooctdisp a2=7.713 a3=-2.732
 *
 * It runs the chain up to aooctdisp estimate=true on the first B-scan of
 * RAWFILE (M A-lines of N samples, the spec's raw layout, or packed 12- or
 * 10-bit samples, docs/caps.md) with the given
 * calibration and padding (as the pipeline that will use the result:
 * a2/a3 are in radians over the measured samples, so they do not depend
 * on the padding, but the depth range the sharpness is measured over
 * does), and prints what aooctdisp found (metric and search:
 * cpu/aooct-cpu-disp-estimate.h).  Details (sharpness before and after,
 * time) go to stderr.
 *
 * Exit status: 0 with the fragment printed, 1 when the file cannot be read
 * or holds no whole B-scan, or the chain fails, 2 on a usage error. */
#include <gst/gst.h>
#include <stdlib.h>

#include "aooct-raw-format.h"

int
main (int argc, char **argv)
{
  gint samples = 0, alines = 0, size = 0, factor = 2;
  gchar *wfile = NULL, *coeffs = NULL, *format = NULL, **rest = NULL;
  GOptionEntry entries[] = {
    {"samples", 'n', 0, G_OPTION_ARG_INT, &samples,
        "Samples per A-line N (camera pixels)", "N"},
    {"alines", 'm', 0, G_OPTION_ARG_INT, &alines,
        "A-lines per B-scan M", "M"},
    {"wavelength-file", 'w', 0, G_OPTION_ARG_FILENAME, &wfile,
        "Calibration: N wavelengths in nm (aooctkmap wavelength-file)", "F"},
    {"wavelength-coeffs", 'c', 0, G_OPTION_ARG_STRING, &coeffs,
        "Calibration: \"c0,c1[,c2[,c3]]\" (aooctkmap wavelength-coeffs)", "C"},
    {"size", 's', 0, G_OPTION_ARG_INT, &size,
        "aooctpad size P1 (0 = automatic, default)", "P1"},
    {"factor", 'f', 0, G_OPTION_ARG_INT, &factor,
        "aooctpad factor (default 2)", "F"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format,
        "Raw sample format: gray16-le (default), gray8, or packed mono12p, "
          "mono12packed, mono10p", "FORMAT"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
        "RAWFILE"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  GstElement *pipeline;
  GstBus *bus;
  gchar *kmap, *launch, *loc, *source;
  AooctRawFormat raw_format = AOOCT_RAW_GRAY16_LE;
  gboolean done = FALSE;
  gint status = 1;

  ctx = g_option_context_new ("RAWFILE - estimate aooctdisp's a2 and a3 from "
      "the first B-scan of a raw file");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("aooct-dispersion: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL || samples < 2
      || alines < 1 || (wfile == NULL) == (coeffs == NULL)) {
    g_printerr ("aooct-dispersion: usage: aooct-dispersion --samples=N "
        "--alines=M (--wavelength-file=F | --wavelength-coeffs=C) "
        "[--size=P1] [--factor=F] [--format=gray16-le|gray8|mono12p|"
        "mono12packed|mono10p] RAWFILE "
        "(exactly one calibration, N >= 2, M >= 1)\n");
    return 2;
  }
  if (format && !aooct_raw_format_from_string (format, &raw_format)) {
    g_printerr ("aooct-dispersion: --format must be gray16-le, gray8, "
        "mono12p, mono12packed or mono10p, not %s\n", format);
    return 2;
  }
  if (!aooct_raw_check_width (raw_format, samples, &error)) {
    g_printerr ("aooct-dispersion: --samples=%d: %s\n", samples,
        error->message);
    return 2;
  }
  if (!g_file_test (rest[0], G_FILE_TEST_IS_REGULAR)) {
    g_printerr ("aooct-dispersion: %s: no such file\n", rest[0]);
    return 1;
  }

  /* quoted for gst_parse_launch: paths and coefficient lists */
  loc = g_strescape (rest[0], NULL);
  kmap = wfile ? g_strdup_printf ("wavelength-file=\"%s\"", wfile) :
      g_strdup_printf ("wavelength-coeffs=\"%s\"", coeffs);
  /* packed B-scans: whole B-scans of the file's bytes in the caps of
   * docs/caps.md (rawvideoparse knows no packed format) */
  if (aooct_raw_format_is_packed (raw_format))
    source = g_strdup_printf ("filesrc location=\"%s\" blocksize=%"
        G_GSIZE_FORMAT " ! video/x-aooct-packed,format=%s,width=%d,height=%d,"
        "framerate=0/1", loc, aooct_raw_row_bytes (raw_format, samples) *
        alines, aooct_raw_format_name (raw_format), samples, alines);
  else
    source = g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
        "format=%s width=%d height=%d", loc, raw_format == AOOCT_RAW_GRAY8 ?
        "gray8" : "gray16-le", samples, alines);
  launch = g_strdup_printf ("%s ! aooctdcsub ! aooctpad size=%d factor=%d ! "
      "aooctkmap %s ! aooctdisp estimate=true ! fakesink", source, size,
      factor, kmap);
  g_free (source);
  pipeline = gst_parse_launch (launch, &error);
  if (pipeline == NULL || error) {
    g_printerr ("aooct-dispersion: %s (is the aooct plugin on "
        "GST_PLUGIN_PATH?)\n", error ? error->message : "no pipeline");
    return 1;
  }
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:{
        gchar *dbg = NULL;

        gst_message_parse_error (msg, &error, &dbg);
        g_printerr ("aooct-dispersion: %s: %s\n", GST_OBJECT_NAME (msg->src),
            error->message);
        g_clear_error (&error);
        g_free (dbg);
        done = TRUE;
        break;
      }
      case GST_MESSAGE_EOS:
        g_printerr ("aooct-dispersion: %s holds no whole B-scan of %d x %d "
            "samples\n", rest[0], alines, samples);
        done = TRUE;
        break;
      default:
        if (gst_message_has_name (msg, "aooct-dispersion")) {
          const GstStructure *s = gst_message_get_structure (msg);
          gdouble a2 = 0, a3 = 0, sharp = 0, none = 0, ms = 0;
          gchar b2[G_ASCII_DTOSTR_BUF_SIZE], b3[G_ASCII_DTOSTR_BUF_SIZE];

          gst_structure_get_double (s, "a2", &a2);
          gst_structure_get_double (s, "a3", &a3);
          gst_structure_get_double (s, "sharpness", &sharp);
          gst_structure_get_double (s, "sharpness-uncompensated", &none);
          gst_structure_get_double (s, "milliseconds", &ms);
          g_printerr ("aooct-dispersion: sharpness %.4g (uncompensated "
              "%.4g), %.0f ms\n", sharp, none, ms);
          g_print ("aooctdisp a2=%s a3=%s\n",
              g_ascii_formatd (b2, sizeof (b2), "%.3f", a2),
              g_ascii_formatd (b3, sizeof (b3), "%.3f", a3));
          status = 0;
          done = TRUE;
        }
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (launch);
  g_free (kmap);
  g_free (loc);
  g_strfreev (rest);
  g_free (wfile);
  g_free (coeffs);
  g_free (format);
  return status;
}
