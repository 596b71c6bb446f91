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
 * 10-bit samples: docs/caps.md) with the given
 * calibration and padding (as the pipeline that will use the result:
 * a2/a3 are in radians over the measured samples, so they do not depend
 * on the padding, but the depth range the sharpness is measured over
 * does), and prints what aooctdisp found (metric and search:
 * cpu/aooct-cpu-disp-estimate.h).  Details (sharpness before and after,
 * time) go to stderr.
 *
 * The chain is built from element objects, the file name and the
 * calibration set as properties (any file name, quotes and non-ASCII
 * included, reaches the element as given), and the file is read by
 * aooctfilesrc, which takes the spec's packed rows for any N and format and
 * lays them out with GStreamer's 4-byte row stride (filesrc !
 * rawvideoparse would expect that padding in the file).
 *
 * Exit status: 0 with the fragment printed, 1 when the file cannot be read
 * (missing, not a regular file) or holds no whole B-scan, or the chain
 * fails, 2 on a usage error. */
#include <gst/gst.h>
#include <stdlib.h>

#include "aooct-open.h"
#include "aooct-raw-format.h"
#include "aooct-tool-util.h"

#define N_CHAIN 6

/* aooctfilesrc ! aooctdcsub ! aooctpad ! aooctkmap ! aooctdisp
 * estimate=true ! fakesink with every value set as a property.  NULL with
 * @error: a missing element, or a value out of an element's range (then
 * @usage is set). */
static GstElement *
build_chain (const gchar * path, const gchar * format, gint samples,
    gint alines, gint size, gint factor, const gchar * wfile,
    const gchar * coeffs, gboolean * usage, GError ** error)
{
  static const gchar *const factories[N_CHAIN] = { "aooctfilesrc",
    "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp", "fakesink"
  };
  GstElement *pipeline = gst_pipeline_new ("aooct-dispersion");
  GstElement *e[N_CHAIN];
  gint i;

  *usage = FALSE;
  for (i = 0; i < N_CHAIN; i++) {
    e[i] = aooct_tool_append (GST_BIN (pipeline), i ? e[i - 1] : NULL,
        factories[i], error);
    if (!e[i])
      goto fail;
  }
  /* only the first B-scan is used */
  g_object_set (e[0], "location", path, "width", samples, "height", alines,
      "num-buffers", 1, NULL);
  gst_util_set_object_arg (G_OBJECT (e[0]), "format", format);
  g_object_set (e[3], wfile ? "wavelength-file" : "wavelength-coeffs",
      wfile ? wfile : coeffs, NULL);
  g_object_set (e[4], "estimate", TRUE, NULL);
  *usage = TRUE;
  if (!aooct_tool_set_int (e[2], "size", size, "size", error)
      || !aooct_tool_set_int (e[2], "factor", factor, "factor", error))
    goto fail;
  *usage = FALSE;
  return pipeline;

fail:
  gst_object_unref (pipeline);
  return NULL;
}

/* Runs @pipeline until aooctdisp's estimate, an error or EOS; prints the
 * fragment.  0 or 1, the exit status. */
static gint
run (GstElement * pipeline, const gchar * path, gint samples, gint alines)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  gboolean done = FALSE;
  gint status = 1;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:{
        GError *error = NULL;
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
            "samples\n", path, alines, samples);
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
  return status;
}

int
main (int argc, char **argv)
{
  gint samples = 0, alines = 0, size = 0, factor = 2;
  gchar *wfile = NULL, *coeffs = NULL, *format = NULL, **rest = NULL;
  AooctRawFormat raw_format = AOOCT_RAW_GRAY16_LE;
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
  gboolean usage;
  gint status;

  ctx = g_option_context_new ("- estimate aooctdisp's a2 and a3 from "
      "the first B-scan of a raw file");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!aooct_tool_parse_options ("aooct-dispersion", ctx, &argc, &argv))
    return 2;
  g_option_context_free (ctx);
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL
      || (wfile == NULL) == (coeffs == NULL)) {
    g_printerr ("aooct-dispersion: usage: aooct-dispersion --samples=N "
        "--alines=M (--wavelength-file=F | --wavelength-coeffs=C) "
        "[--size=P1] [--factor=F] [--format=gray16-le|gray8|mono12p|"
        "mono12packed|mono10p] RAWFILE " "(exactly one calibration)\n");
    return 2;
  }
  /* aooctfilesrc takes 0 as "not set": the tool's own bounds */
  if (samples < 2 || samples > 65536 || alines < 1) {
    g_printerr ("aooct-dispersion: --samples %d --alines %d: give N of "
        "2..65536 samples per A-line and M >= 1 A-lines per B-scan\n",
        samples, alines);
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
  /* a directory or a FIFO named as such (and a FIFO never opened: it would
   * block until a writer comes) */
  if (!aooct_file_check_regular (rest[0], "raw file", NULL, &error)) {
    g_printerr ("aooct-dispersion: %s\n", error->message);
    return 1;
  }

  pipeline = build_chain (rest[0], aooct_raw_format_nick (raw_format),
      samples, alines, size, factor, wfile, coeffs, &usage, &error);
  if (!pipeline) {
    g_printerr ("aooct-dispersion: %s\n", error->message);
    return usage ? 2 : 1;
  }
  status = run (pipeline, rest[0], samples, alines);
  gst_object_unref (pipeline);
  g_strfreev (rest);
  g_free (wfile);
  g_free (coeffs);
  g_free (format);
  return status;
}
