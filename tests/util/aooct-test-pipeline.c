/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: whole pipelines (see aooct-test-pipeline.h). */
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-pipeline.h"
#include "aooct-test-util.h"

gchar *
aooct_test_with_backend (const gchar * launch, const gchar * backend)
{
  GRegex *re = g_regex_new ("\\b(aooct(dcsub|fullrange|pad|kmap|disp|fft|"
      "norm|doppler|angio))\\b", 0, 0, NULL);
  /* the *-graphs tests ask for CUDA graphs, others may ask for none */
  gint graphs = g_str_equal (backend, "cuda") ? aooct_test_cuda_graphs () : -1;
  gchar *repl = g_strdup_printf ("\\1 backend=%s%s", backend,
      graphs == 1 ? " cuda-graphs=true" : graphs == 0 ? " cuda-graphs=false" :
      "");
  gchar *out = g_regex_replace (re, launch, -1, 0, repl, 0, NULL);

  g_free (repl);
  g_regex_unref (re);
  return out;
}

GstElement *
aooct_test_run_to_eos (const gchar * plain_launch, const gchar * backend,
    gint timeout_s)
{
  GError *err = NULL;
  gchar *launch = backend ? aooct_test_with_backend (plain_launch, backend) :
      g_strdup (plain_launch);
  GstElement *p = gst_parse_launch (launch, &err);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (p != NULL, "%s: %s", launch, err ? err->message : "");
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timeout: %s", launch);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", launch, err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  g_free (launch);
  return p;
}

GList *
aooct_test_play_images (GstElement * pipeline, const gchar * sink, gint seek_ms)
{
  GstElement *appsink = gst_bin_get_by_name (GST_BIN (pipeline), sink);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *error;
  GList *images = NULL;
  GstSample *s;

  fail_unless (appsink != NULL, "no appsink named %s", sink);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL, 60 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS);
  if (seek_ms >= 0) {
    fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE,
            seek_ms * GST_MSECOND));
    fail_unless (gst_element_get_state (pipeline, NULL, NULL,
            60 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (appsink)))) {
    GstMapInfo map;

    fail_unless (gst_buffer_map (gst_sample_get_buffer (s), &map,
            GST_MAP_READ));
    images = g_list_append (images, g_bytes_new (map.data, map.size));
    gst_buffer_unmap (gst_sample_get_buffer (s), &map);
    gst_sample_unref (s);
  }
  error = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (error) {
    GError *err = NULL;

    gst_message_parse_error (error, &err, NULL);
    fail ("an error was posted: %s", err->message);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (appsink);
  return images;
}

GList *
aooct_test_pull_all (GstElement * pipeline, const gchar * name)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GList *samples = NULL;
  GstSample *s;

  fail_unless (sink != NULL, "no appsink %s", name);
  while ((s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0)))
    samples = g_list_append (samples, s);
  gst_object_unref (sink);
  return samples;
}

guint16 *
aooct_test_raw_frame (GstSample * sample, gint n, gint rows)
{
  GstVideoInfo vinfo;
  GstVideoFrame frame;
  guint16 *raw = g_new (guint16, (gsize) n * rows);
  gint r;

  fail_unless (gst_video_info_from_caps (&vinfo, gst_sample_get_caps (sample)));
  fail_unless (gst_video_frame_map (&frame, &vinfo,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  for (r = 0; r < rows; r++)
    memcpy (raw + (gsize) r * n, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
            0) + r * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), n * 2);
  gst_video_frame_unmap (&frame);
  return raw;
}
