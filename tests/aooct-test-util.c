/* aooct tests: helpers shared by the element tests. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"

GstHarness *
aooct_test_harness_new (const gchar * launch)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (h->element, bus);
  gst_object_unref (bus);
  return h;
}

gchar *
aooct_test_pop_error (GstHarness * h)
{
  GstBus *bus = gst_element_get_bus (h->element);
  GstMessage *msg;
  gchar *text = NULL;

  if (bus == NULL)
    return NULL;
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return text;
}

void
aooct_test_assert_error (GstHarness * h, const gchar * first_substring, ...)
{
  gchar *text = aooct_test_pop_error (h);
  const gchar *sub;
  va_list args;

  fail_unless (text != NULL, "expected an element error containing '%s'",
      first_substring);
  va_start (args, first_substring);
  for (sub = first_substring; sub; sub = va_arg (args, const gchar *))
    fail_unless (strstr (text, sub) != NULL,
        "element error '%s' does not mention '%s'", text, sub);
  va_end (args);
  GST_INFO ("got expected error: %s", text);
  g_free (text);
}

gchar *
aooct_test_run_pipeline (const gchar * launch, gint timeout_s)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &err);
  GstBus *bus;
  GstMessage *msg;
  gchar *text = NULL;

  fail_unless (pipeline != NULL, "cannot parse '%s': %s", launch,
      err ? err->message : "?");
  g_clear_error (&err);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, (GstClockTime) timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "pipeline '%s' neither finished nor failed in "
      "%d s", launch, timeout_s);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    text = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (msg->src),
        err->message);
    GST_INFO ("pipeline error: %s (%s)", text, dbg);
    g_free (dbg);
    g_clear_error (&err);
  }
  gst_message_unref (msg);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return text;
}

gchar *
aooct_test_write_temp (const gchar * text)
{
  gchar *path = NULL;
  GError *err = NULL;
  gint fd = g_file_open_tmp ("aooct-test-XXXXXX.txt", &path, &err);

  fail_unless (fd >= 0, "cannot create temp file: %s",
      err ? err->message : "?");
  close (fd);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  return path;
}

GstBuffer *
aooct_test_buffer_new (gconstpointer data, gsize n_bytes)
{
  return gst_buffer_new_memdup (data, n_bytes);
}

GRand *
aooct_test_rand_new (void)
{
  const gchar *env = g_getenv ("AOOCT_TEST_SEED");
  guint32 seed = env ? (guint32) strtoul (env, NULL, 0) :
      (guint32) g_get_real_time ();

  g_print ("random seed %u (set AOOCT_TEST_SEED=%u to replay)\n", seed, seed);
  return g_rand_new_with_seed (seed);
}
