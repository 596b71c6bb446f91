/* SPDX-License-Identifier: GPL-2.0-or-later
 *
 * aooct-dispersion: finds the dispersion coefficients of a raw file and
 * prints them as the pipeline fragment to use.
 *
 *   aooct-dispersion --samples=N --alines=M
 *       (--wavelength-file=F | --wavelength-coeffs=C) [--size=P1]
 *       [--factor=F] [--format=gray16-le|gray8|mono12p|mono12packed|mono10p|
 *       float32-le] [--header-bytes=B] [--frame-stride=S]
 *       [--dc=bscan-mean|background|none] [--background=FILE]
 *       [--bscans=K] RAWFILE
 *
 * prints, on stdout,
 *
 *   aooctdisp a2=7.713 a3=-2.732
 *
 * It runs the chain up to aooctdisp estimate=true on the first B-scan of
 * RAWFILE (M A-lines of N samples, the spec's raw layout, or packed 12- or
 * 10-bit samples or float32 ones: docs/caps.md; after a header of
 * --header-bytes, B-scans --frame-stride bytes apart; or a NumPy .npy
 * array, which needs no --samples and --alines: the raw-file options of
 * every tool, aooct-tool-util.h), or on each of the first K B-scans
 * (--bscans: then it prints the median of the K estimates and their
 * spread on stderr), with aooctdcsub's DC mode (--dc: the B-scan mean by
 * default, which removes a static mirror's whole signal: a mirror
 * recording needs --background=FILE, the spectrum without the sample arm,
 * or --dc=none), with the given
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
 * A result it cannot vouch for is not printed: when the sharpness at the
 * optimum is 0 or not finite (nothing left after the DC subtraction, or
 * samples that are not numbers) it says why and exits 1.
 *
 * Exit status: 0 with the fragment printed, 1 when the file cannot be read
 * (missing, not a regular file) or holds no whole B-scan, the chain
 * fails or the sharpness is 0 or not finite, 2 on a usage error. */
#include <gst/gst.h>
#include <math.h>
#include <stdlib.h>

#include "aooct-open.h"
#include "aooct-raw-format.h"
#include "aooct-tool-util.h"

#define N_CHAIN 6

/* aooctfilesrc ! aooctdcsub ! aooctpad ! aooctkmap ! aooctdisp
 * estimate=true ! fakesink with every value set as a property.  NULL with
 * @error: a missing element, or a value out of an element's range (then
 * @usage is set). */
/* One estimate per B-scan: aooctdisp posts it from its streaming thread;
 * asking for the next one there (not from the bus in the main thread)
 * makes sure that it applies to the very next buffer. */
static GstBusSyncReply
re_estimate_each (GstBus * bus, GstMessage * msg, gpointer disp)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_message_has_name (msg, "aooct-dispersion"))
    g_signal_emit_by_name (disp, "re-estimate");
  return GST_BUS_PASS;
}

static GstElement *
build_chain (const gchar * path, const AooctToolRawFile * rf, gint size,
    gint factor, const gchar * wfile, const gchar * coeffs,
    const gchar * dc, const gchar * background, gint bscans,
    gboolean * usage, GError ** error)
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
  /* only the first B-scans are used */
  aooct_tool_raw_file_apply (rf, e[0], path);
  g_object_set (e[0], "num-buffers", bscans, NULL);
  gst_util_set_object_arg (G_OBJECT (e[1]), "mode", dc);
  if (background)
    g_object_set (e[1], "background-file", background, NULL);
  if (bscans > 1) {
    GstBus *bus = gst_element_get_bus (pipeline);

    gst_bus_set_sync_handler (bus, re_estimate_each, e[4], NULL);
    gst_object_unref (bus);
  }
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

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* the median of @n values (sorted in place) */
static gdouble
median (gdouble * v, gint n)
{
  qsort (v, n, sizeof (gdouble), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Runs @pipeline until aooctdisp has estimated on @bscans B-scans, an
 * error or EOS; prints the fragment (the median of the estimates).  0 or
 * 1, the exit status. */
static gint
dispersion_run (GstElement * pipeline, const gchar * path, gint samples,
    gint alines, gint bscans, const gchar * dc)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  gdouble *a2 = g_new (gdouble, bscans), *a3 = g_new (gdouble, bscans);
  gboolean done = FALSE, failed = FALSE;
  gint status = 1, got = 0;

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
        failed = done = TRUE;
        break;
      }
      case GST_MESSAGE_EOS:
        if (got == 0)
          g_printerr ("aooct-dispersion: %s holds no whole B-scan of %d x %d "
              "samples\n", path, alines, samples);
        else
          g_printerr ("aooct-dispersion: --bscans=%d, but %s holds %d whole "
              "B-scans: estimated on those\n", bscans, path, got);
        done = TRUE;
        break;
      default:
        if (gst_message_has_name (msg, "aooct-dispersion")) {
          const GstStructure *s = gst_message_get_structure (msg);
          gdouble sharp = NAN, none = NAN, ms = 0;

          gst_structure_get_double (s, "a2", &a2[got]);
          gst_structure_get_double (s, "a3", &a3[got]);
          gst_structure_get_double (s, "sharpness", &sharp);
          gst_structure_get_double (s, "sharpness-uncompensated", &none);
          gst_structure_get_double (s, "milliseconds", &ms);
          g_printerr ("aooct-dispersion: B-scan %d: a2=%.3f a3=%.3f, "
              "sharpness %.4g (uncompensated %.4g), %.0f ms\n", got,
              a2[got], a3[got], sharp, none, ms);
          /* a maximum of nothing is no estimate: refuse it, saying why */
          if (!isfinite (sharp) || !isfinite (none)) {
            g_printerr ("aooct-dispersion: B-scan %d: the sharpness is not "
                "finite (%g): the spectra overflow or are not numbers (a "
                "background of the wrong scale?): no result\n", got, sharp);
            failed = done = TRUE;
          } else if (!isfinite (a2[got]) || !isfinite (a3[got])) {
            g_printerr ("aooct-dispersion: B-scan %d: the estimate a2=%g "
                "a3=%g is not finite: the spectra overflow or are not "
                "numbers (a background of the wrong scale?): no result\n",
                got, a2[got], a3[got]);
            failed = done = TRUE;
          } else if (sharp <= 0.0) {
            g_printerr ("aooct-dispersion: B-scan %d: the sharpness is 0: "
                "nothing is left of the spectra after the DC subtraction "
                "(--dc=%s)%s: no result\n", got, dc,
                g_str_equal (dc, "bscan-mean") ? "; a static mirror or "
                "any B-scan whose A-lines are all alike is removed whole by "
                "the B-scan mean: give --background=FILE (the spectrum "
                "without the sample arm) or --dc=none" : "");
            failed = done = TRUE;
          } else if (++got == bscans) {
            done = TRUE;
          }
        }
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  if (!failed && got > 0) {
    gchar b2[G_ASCII_DTOSTR_BUF_SIZE], b3[G_ASCII_DTOSTR_BUF_SIZE];
    gdouble m2, m3, lo2, hi2, lo3, hi3;

    m2 = median (a2, got);
    m3 = median (a3, got);
    lo2 = a2[0];
    hi2 = a2[got - 1];
    lo3 = a3[0];
    hi3 = a3[got - 1];
    if (got > 1)
      g_printerr ("aooct-dispersion: median of %d B-scans; a2 %.3f .. %.3f, "
          "a3 %.3f .. %.3f\n", got, lo2, hi2, lo3, hi3);
    g_print ("aooctdisp a2=%s a3=%s\n",
        g_ascii_formatd (b2, sizeof (b2), "%.3f", m2),
        g_ascii_formatd (b3, sizeof (b3), "%.3f", m3));
    status = 0;
  }
  g_free (a2);
  g_free (a3);
  gst_object_unref (bus);
  return status;
}

int
main (int argc, char **argv)
{
  gint size = 0, factor = 2, bscans = 1;
  gchar *wfile = NULL, *coeffs = NULL, **rest = NULL;
  gchar *dc = NULL, *background = NULL;
  AooctToolRawFile rf = { 0, };
  GOptionEntry *raw_entries = aooct_tool_raw_file_entries (&rf, TRUE);
  GOptionEntry entries[] = {
    {"wavelength-file", 'w', 0, G_OPTION_ARG_FILENAME, &wfile,
        "Calibration: N wavelengths in nm (aooctkmap wavelength-file)", "F"},
    {"wavelength-coeffs", 'c', 0, G_OPTION_ARG_STRING, &coeffs,
        "Calibration: \"c0,c1[,c2[,c3]]\" (aooctkmap wavelength-coeffs)", "C"},
    {"size", 's', 0, G_OPTION_ARG_INT, &size,
        "aooctpad size P1 (0 = automatic, default)", "P1"},
    {"factor", 'f', 0, G_OPTION_ARG_INT, &factor,
        "aooctpad factor (default 2)", "F"},
    {"dc", 0, 0, G_OPTION_ARG_STRING, &dc,
        "aooctdcsub mode: bscan-mean (default; removes a static mirror "
          "whole), background (with --background), none", "MODE"},
    {"background", 'b', 0, G_OPTION_ARG_FILENAME, &background,
        "Background spectrum, N values (aooctdcsub background-file; "
          "implies --dc=background)", "FILE"},
    {"bscans", 'k', 0, G_OPTION_ARG_INT, &bscans,
        "Estimate on each of the first K B-scans and print the median "
          "(default 1)", "K"},
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
  g_option_context_add_main_entries (ctx, raw_entries, NULL);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_free (raw_entries);
  if (!aooct_tool_parse_options ("aooct-dispersion", ctx, &argc, &argv))
    return 2;
  g_option_context_free (ctx);
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL
      || (wfile == NULL) == (coeffs == NULL)) {
    g_printerr ("aooct-dispersion: usage: aooct-dispersion "
        AOOCT_TOOL_RAW_FILE_USAGE " (--wavelength-file=F | "
        "--wavelength-coeffs=C) [--size=P1] [--factor=F] "
        "[--dc=bscan-mean|background|none] [--background=FILE] [--bscans=K] "
        "RAWFILE (exactly one calibration)\n");
    return 2;
  }
  if (dc == NULL)
    dc = g_strdup (background ? "background" : "bscan-mean");
  if (!g_str_equal (dc, "bscan-mean") && !g_str_equal (dc, "background")
      && !g_str_equal (dc, "none")) {
    g_printerr ("aooct-dispersion: --dc must be bscan-mean, background or "
        "none, not %s\n", dc);
    return 2;
  }
  if (g_str_equal (dc, "background") != (background != NULL)) {
    g_printerr ("aooct-dispersion: --dc=background and --background=FILE "
        "go together (--dc=%s%s)\n", dc, background ? " with --background" :
        " without --background");
    return 2;
  }
  if (bscans < 1) {
    g_printerr ("aooct-dispersion: --bscans %d: give K >= 1 B-scans\n", bscans);
    return 2;
  }
  if (!aooct_tool_raw_file_check (&rf, rest[0], &error)) {
    g_printerr ("aooct-dispersion: %s\n", error->message);
    return error->domain == G_OPTION_ERROR ? 2 : 1;
  }

  if (background
      && !aooct_file_check_regular (background, "background file", NULL,
          &error)) {
    g_printerr ("aooct-dispersion: %s\n", error->message);
    return 1;
  }

  pipeline = build_chain (rest[0], &rf, size, factor, wfile, coeffs, dc,
      background, bscans, &usage, &error);
  if (!pipeline) {
    g_printerr ("aooct-dispersion: %s\n", error->message);
    return usage ? 2 : 1;
  }
  status =
      dispersion_run (pipeline, rest[0], rf.samples, rf.alines, bscans, dc);
  gst_object_unref (pipeline);
  g_strfreev (rest);
  g_free (wfile);
  g_free (coeffs);
  g_free (rf.format);
  g_free (dc);
  g_free (background);
  return status;
}
