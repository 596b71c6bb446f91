/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: a recording is one more branch on a tee of the running
 * pipeline, added and removed without stopping it:
 *
 *   processed: tee ! queue ! matroskamux ! filesink   (GRAY8 B-scans as raw
 *              video in Matroska: lossless, no encoder, as
 *              pipelines/record.sh AOOCT_LOSSLESS=raw writes them)
 *   raw:       tee ! queue ! filesink                  (the camera's frames
 *              as they came, one after the other: aooct-view and
 *              rawvideoparse read them back as a raw file)
 *
 * The sink is not async: a sink added to a playing pipeline would otherwise
 * preroll and wait there for a state change that never comes, and the
 * serialized queries the tee forwards upstream of it would block the whole
 * chain behind it.
 *
 * Stopping unlinks the branch from the tee and sends it EOS, so that the
 * muxer writes its index; the branch is removed once EOS reached its sink. */
#include "view-record.h"

struct _ViewRecording
{
  GstElement *pipeline, *tee, *bin, *sink;
  GstPad *tee_pad;
  gboolean *done;               /* set when the branch is gone */
};

ViewRecording *
view_record_start (GstElement * pipeline, GstElement * tee,
    const gchar * location, gboolean matroska, GError ** error)
{
  ViewRecording *rec;
  gchar *desc;
  GstElement *bin;
  GstPad *sinkpad;

  if (!pipeline || !tee) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE,
        "nothing is playing to record");
    return NULL;
  }
  desc = g_strdup_printf ("queue max-size-buffers=0 max-size-time=0 "
      "max-size-bytes=268435456 ! %s filesink name=file async=false",
      matroska ? "matroskamux !" : "");
  bin = gst_parse_bin_from_description (desc, TRUE, error);
  g_free (desc);
  if (!bin)
    return NULL;

  rec = g_new0 (ViewRecording, 1);
  rec->pipeline = gst_object_ref (pipeline);
  rec->tee = gst_object_ref (tee);
  rec->bin = gst_object_ref (bin);
  rec->sink = gst_bin_get_by_name (GST_BIN (bin), "file");
  /* the file name as a property, as it is: through the description it
   * would need escaping, and g_strescape() turns non-ASCII bytes into
   * octal escapes gst_parse does not undo */
  g_object_set (rec->sink, "location", location, NULL);
  gst_bin_add (GST_BIN (pipeline), bin);
  rec->tee_pad = gst_element_request_pad_simple (tee, "src_%u");
  sinkpad = gst_element_get_static_pad (bin, "sink");
  gst_element_sync_state_with_parent (bin);
  if (gst_pad_link (rec->tee_pad, sinkpad) != GST_PAD_LINK_OK) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "cannot record to %s", location);
    gst_object_unref (sinkpad);
    view_record_stop (rec, TRUE);
    return NULL;
  }
  gst_object_unref (sinkpad);
  return rec;
}

static gboolean
remove_branch (gpointer data)
{
  ViewRecording *rec = data;

  gst_element_set_state (rec->bin, GST_STATE_NULL);
  gst_bin_remove (GST_BIN (rec->pipeline), rec->bin);
  gst_object_unref (rec->bin);
  gst_object_unref (rec->sink);
  gst_object_unref (rec->tee);
  gst_object_unref (rec->pipeline);
  if (rec->done)
    *rec->done = TRUE;
  g_free (rec);
  return G_SOURCE_REMOVE;
}

static GstPadProbeReturn
on_sink_event (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) != GST_EVENT_EOS)
    return GST_PAD_PROBE_OK;
  /* the file is complete: take the branch down from the main thread */
  g_idle_add (remove_branch, data);
  return GST_PAD_PROBE_DROP;    /* the pipeline itself goes on */
}

/* wait: return only when the file is complete (at most 5 s), for a
 * rebuild or the program's end, which would cut the EOS short. */
void
view_record_stop (ViewRecording * rec, gboolean wait)
{
  GstPad *sinkpad, *filepad;
  GstState state;
  gboolean done = FALSE;
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  rec->done = &done;
  sinkpad = gst_element_get_static_pad (rec->bin, "sink");
  gst_pad_unlink (rec->tee_pad, sinkpad);
  gst_element_release_request_pad (rec->tee, rec->tee_pad);
  gst_object_unref (rec->tee_pad);
  gst_element_get_state (rec->bin, &state, NULL, 0);
  if (state == GST_STATE_PLAYING) {
    filepad = gst_element_get_static_pad (rec->sink, "sink");
    gst_pad_add_probe (filepad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        on_sink_event, rec, NULL);
    gst_object_unref (filepad);
    gst_pad_send_event (sinkpad, gst_event_new_eos ());
  } else {
    remove_branch (rec);
  }
  gst_object_unref (sinkpad);
  while (wait && !done && g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
  if (!done)
    rec->done = NULL;
}

guint64
view_record_bytes (ViewRecording * rec)
{
  GstQuery *q = gst_query_new_position (GST_FORMAT_BYTES);
  gint64 pos = 0;

  if (gst_element_query (rec->sink, q))
    gst_query_parse_position (q, NULL, &pos);
  gst_query_unref (q);
  return pos > 0 ? pos : 0;
}
