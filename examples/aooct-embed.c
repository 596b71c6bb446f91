/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-embed: the aooct chain inside an application.
 *
 * Builds  aooctsrc ! aooctdcsub ! aooctpad ! aooctkmap ! aooctdisp !
 * aooctfft ! aooctnorm ! appsink  element by element (no gst_parse_launch),
 * receives every B-scan through the appsink as a GRAY8 image, and while the
 * pipeline is PLAYING changes what a user tunes by hand:
 *
 *   phase 1  linear display, no dispersion compensation
 *   phase 2  aooctdisp a2=8 a3=-2 (cancels the camera's dispersion mismatch)
 *   phase 3  log display, dynamic-range=50 dB
 *   phase 4  dynamic-range=20 dB (a narrower display range)
 *
 * The sample is a mirror, so the effect of each change can be measured on
 * the images: the mirror's peak gets narrower in phase 2 (fewer rows above
 * half the maximum per A-line), the image gets darker in phase 4.  With
 * --check the program exits 1 when either is not seen (the test suite runs
 * it that way); in your own application replace on_bscan() with what you do
 * with a B-scan.
 *
 * Build: part of the meson build (examples/aooct-embed); by hand:
 *   cc aooct-embed.c $(pkg-config --cflags --libs gstreamer-app-1.0 \
 *       gstreamer-video-1.0)
 * Run with the plugin on GST_PLUGIN_PATH (or installed). */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <stdlib.h>

#define N_PHASES 4

typedef struct
{
  gdouble half_max_rows;        /* mean rows >= 128 per A-line */
  gdouble mean_grey;
} Measure;

/* What an application does with a B-scan: here, measure it. */
static void
on_bscan (const GstVideoFrame * frame, Measure * m)
{
  gint w = GST_VIDEO_FRAME_WIDTH (frame), h = GST_VIDEO_FRAME_HEIGHT (frame);
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  const guint8 *px = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  guint64 bright = 0, sum = 0;
  gint r, c;

  for (r = 0; r < h; r++)
    for (c = 0; c < w; c++) {
      guint8 v = px[(gsize) r * stride + c];

      bright += v >= 128;
      sum += v;
    }
  m->half_max_rows = (gdouble) bright / w;
  m->mean_grey = (gdouble) sum / ((gdouble) w * h);
}

static GstElement *
make (GstElement * pipeline, const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (!e) {
    g_printerr ("aooct-embed: no element '%s': is the aooct plugin on "
        "GST_PLUGIN_PATH?\n", factory);
    exit (1);
  }
  gst_bin_add (GST_BIN (pipeline), e);
  return e;
}

/* Pulls one B-scan; NULL after an error or EOS (reported). */
static GstSample *
pull (GstElement * pipeline, GstAppSink * sink)
{
  GstSample *s = gst_app_sink_try_pull_sample (sink, 10 * GST_SECOND);

  if (!s) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("aooct-embed: %s: %s\n", GST_OBJECT_NAME (msg->src),
          err->message);
      g_error_free (err);
      gst_message_unref (msg);
    } else {
      g_printerr ("aooct-embed: no B-scan within 10 s\n");
    }
    gst_object_unref (bus);
  }
  return s;
}

int
main (int argc, char **argv)
{
  gint per_phase = 8;
  gboolean check = FALSE;
  GOptionEntry entries[] = {
    {"frames-per-phase", 'n', 0, G_OPTION_ARG_INT, &per_phase,
        "B-scans per phase (>= 4, default 8)", "N"},
    {"check", 0, 0, G_OPTION_ARG_NONE, &check,
        "Exit 1 unless each change had its expected effect", NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  GstElement *pipeline, *src, *dcsub, *pad, *kmap, *disp, *fft, *norm, *sink;
  GstCaps *caps;
  Measure m[N_PHASES] = { {0,} };
  gint phase, i, failures = 0;

  ctx = g_option_context_new ("- the aooct chain in an application");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || per_phase < 4) {
    g_printerr ("aooct-embed: %s\n", error ? error->message :
        "--frames-per-phase must be >= 4");
    return 2;
  }
  g_option_context_free (ctx);

  pipeline = gst_pipeline_new ("aooct-embed");
  src = make (pipeline, "aooctsrc");
  dcsub = make (pipeline, "aooctdcsub");
  pad = make (pipeline, "aooctpad");
  kmap = make (pipeline, "aooctkmap");
  disp = make (pipeline, "aooctdisp");
  fft = make (pipeline, "aooctfft");
  norm = make (pipeline, "aooctnorm");
  sink = make (pipeline, "appsink");

  /* a live camera looking at a mirror, 64 A-lines per B-scan */
  g_object_set (src, "phantom", 0, "alines", 64, "seed", (gint64) 1,
      "is-live", TRUE, NULL);
  gst_util_set_object_arg (G_OBJECT (src), "framerate", "200/1");
  /* aooctsrc's spectrometer calibration (its default) */
  g_object_set (kmap, "wavelength-coeffs", "785,0.125,1e-05,-2e-09", NULL);
  g_object_set (norm, "log", FALSE, NULL);
  /* GRAY8 images; at most two waiting, so a change made now shows up in
   * the B-scans pulled a few frames later */
  caps = gst_caps_from_string ("video/x-raw,format=GRAY8");
  g_object_set (sink, "caps", caps, "max-buffers", 2, "drop", FALSE,
      "sync", FALSE, NULL);
  gst_caps_unref (caps);

  if (!gst_element_link_many (src, dcsub, pad, kmap, disp, fft, norm, sink,
          NULL)) {
    g_printerr ("aooct-embed: cannot link the chain\n");
    return 1;
  }
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("aooct-embed: cannot start the pipeline\n");
    return 1;
  }

  for (phase = 0; phase < N_PHASES; phase++) {
    /* the changes, made from this (the application's) thread while the
     * pipeline plays; each applies from the next buffer the element gets */
    if (phase == 1)
      g_object_set (disp, "a2", 8.0, "a3", -2.0, NULL);
    else if (phase == 2)
      g_object_set (norm, "log", TRUE, "dynamic-range", 50.0, NULL);
    else if (phase == 3)
      g_object_set (norm, "dynamic-range", 20.0, NULL);

    for (i = 0; i < per_phase; i++) {
      GstSample *s = pull (pipeline, GST_APP_SINK (sink));
      GstVideoInfo info;
      GstVideoFrame frame;

      if (!s)
        return 1;
      /* measure only the last B-scans of a phase: the first ones may have
       * been computed before the change */
      if (i >= per_phase - 2 &&
          gst_video_info_from_caps (&info, gst_sample_get_caps (s)) &&
          gst_video_frame_map (&frame, &info, gst_sample_get_buffer (s),
              GST_MAP_READ)) {
        Measure one;

        on_bscan (&frame, &one);
        m[phase].half_max_rows += one.half_max_rows / 2;
        m[phase].mean_grey += one.mean_grey / 2;
        gst_video_frame_unmap (&frame);
      }
      gst_sample_unref (s);
    }
    g_print ("phase %d: %.2f rows above half maximum per A-line, mean grey "
        "%.2f\n", phase + 1, m[phase].half_max_rows, m[phase].mean_grey);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  /* dispersion compensation narrows the mirror's peak (about 2.4x here) */
  if (!(m[1].half_max_rows < 0.7 * m[0].half_max_rows)) {
    g_printerr ("aooct-embed: a2/a3 set while playing did not sharpen the "
        "mirror (%.2f -> %.2f rows)\n", m[0].half_max_rows, m[1].half_max_rows);
    failures++;
  }
  /* a smaller dynamic range maps every pixel to the same or a darker grey */
  if (!(m[3].mean_grey < m[2].mean_grey - 1.0)) {
    g_printerr ("aooct-embed: dynamic-range set while playing did not darken "
        "the image (%.2f -> %.2f)\n", m[2].mean_grey, m[3].mean_grey);
    failures++;
  }
  return check && failures ? 1 : 0;
}
