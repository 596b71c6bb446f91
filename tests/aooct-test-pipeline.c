/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: pipelines to EOS (see aooct-test-pipeline.h). */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>

#include "aooct-test-pipeline.h"

gchar *
aooct_test_with_backend (const gchar * launch, const gchar * backend)
{
  GRegex *re = g_regex_new ("\\b(aooct(dcsub|fullrange|pad|kmap|disp|fft|"
      "norm))\\b", 0, 0, NULL);
  gchar *repl = g_strdup_printf ("\\1 backend=%s", backend);
  gchar *out = g_regex_replace (re, launch, -1, 0, repl, 0, NULL);

  g_free (repl);
  g_regex_unref (re);
  return out;
}

GstElement *
aooct_test_run_to_eos (const gchar * launch)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (p != NULL, "%s: %s", launch, err ? err->message : "");
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timeout: %s", launch);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", launch, err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  return p;
}

GList *
aooct_test_pull_all (GstElement * pipeline, const gchar * name)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GList *samples = NULL;
  GstSample *s;

  fail_unless (sink != NULL, "no element named %s", name);
  while ((s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0)))
    samples = g_list_append (samples, s);
  gst_object_unref (sink);
  return samples;
}
