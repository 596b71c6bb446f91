/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: what every benchmark runs on (see aooct-bench.h): the
 * elements of the chain as launch lines, the input each element sees
 * (captured once), a chain fed from appsrc and timed at its sink
 * (time_chain: wall time, latency, host and GPU time per element; the raw
 * B-scans in system, page-locked or device memory), and the table. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include "aooct-synth.h"
#include "aooct-app-util.h"
#include "aooct-bench.h"
#include "aooct-bench-threads.h"

/* aooct-cuda-host-memory.h and aooct-cuda-memory.h (not linked here) */
/* aooct-cuda-pool.h: the option of the page-locked pool */
#define PAGE_LOCKED_OPTION "AooctBufferPoolOptionPageLocked"
#define HOST_MEMORY_TYPE "aooct.cuda.host"
#define DEVICE_MEMORY_TYPE "aooct.cuda.memory"

gchar *backend = NULL;
gchar *interpolation = NULL;
gchar *file_dir = NULL;
gdouble outputs_per_input = 1.0;
guint n_pinned = N_PINNED;
gint with_cuda_graphs = -1, with_defer_steps = -1;
gboolean with_gpu_timing = FALSE;
gboolean thread_times = FALSE;

/* One CUDA context for every pipeline of the run (taken from the first
 * pipeline that made one): device memory captured in one pipeline is then
 * used in place by the next, as it would be inside one pipeline. */
static GstContext *shared_cuda = NULL;

void
aooct_bench_run_done (void)
{
  if (shared_cuda)
    gst_context_unref (shared_cuda);
  shared_cuda = NULL;
}

gboolean
on_cuda (void)
{
  return g_strcmp0 (backend, "cuda") == 0;
}

static void
take_cuda_context (GstElement * pipeline)
{
  GstIterator *it;
  GValue v = G_VALUE_INIT;

  if (shared_cuda)
    return;
  /* the pipeline keeps the context its elements announced */
  shared_cuda = gst_element_get_context (pipeline, "gst.cuda.context");
  if (shared_cuda)
    return;
  it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  while (!shared_cuda && gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstContext *c = gst_element_get_context (g_value_get_object (&v),
        "gst.cuda.context");
    if (c)
      shared_cuda = c;
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
}

gchar *
stage_desc (const Shape * shape, gint stage)
{
  const gchar *bk = backend ? backend : "auto";

  switch (stage) {
    case 0:
      return g_strdup_printf ("aooctdcsub alines-per-bscan=%d backend=%s",
          shape->alines, bk);
    case 1:
      return g_strdup_printf ("aooctpad size=2048 factor=2 backend=%s", bk);
    case 2:
      return g_strdup_printf ("aooctkmap wavelength-coeffs=\"%s\" "
          "interpolation=%s backend=%s", AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
          interpolation ? interpolation : "linear", bk);
    case 3:
      return g_strdup_printf ("aooctdisp a2=%g a3=%g backend=%s",
          AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3,
          bk);
    case 4:
      return g_strdup_printf ("aooctfft backend=%s", bk);
    default:
      return g_strdup_printf ("aooctnorm backend=%s", bk);
  }
}

gchar *
chain_desc (const Shape * shape, gint first, gint last)
{
  GString *s = g_string_new (NULL);
  gint i;

  for (i = first; i <= last; i++) {
    gchar *d;
    if (i == 1 && !shape->pad)
      continue;
    d = stage_desc (shape, i);
    g_string_append_printf (s, "%s%s", s->len ? " ! " : "", d);
    g_free (d);
  }
  return g_string_free (s, FALSE);
}

gchar *
chain_queued_desc (const Shape * shape)
{
  gchar *a = chain_desc (shape, 0, 0), *b = chain_desc (shape, 1, 4);
  gchar *c = chain_desc (shape, 5, 5);
  gchar *d = g_strdup_printf ("%s ! " SHORT_QUEUE " ! %s ! " SHORT_QUEUE
      " ! %s", a, b, c);

  g_free (a);
  g_free (b);
  g_free (c);
  return d;
}

GstElement *
launch (const gchar * desc)
{
  GError *err = NULL;
  /* a missing element is fatal too (else gst_parse_launch() gives what it
   * could build, and the bench would time a part of the pipeline) */
  GstElement *p = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &err);

  if (p == NULL || err != NULL) {
    g_printerr ("cannot build '%s': %s%s\n", desc, err ? err->message : "?",
        err && g_error_matches (err, GST_PARSE_ERROR,
            GST_PARSE_ERROR_NO_SUCH_ELEMENT) ? " (is GST_PLUGIN_PATH the "
        "build's gst folder?)" : "");
    exit (1);
  }
  if (with_cuda_graphs >= 0)
    aooct_app_set_everywhere (p, "cuda-graphs", with_cuda_graphs);
  if (with_defer_steps >= 0)
    aooct_app_set_everywhere (p, "defer-steps", with_defer_steps);
  if (with_gpu_timing)
    aooct_app_set_everywhere (p, "gpu-timing", TRUE);
  if (shared_cuda)
    gst_element_set_context (p, shared_cuda);
  return p;
}

gboolean
wait_eos (GstElement * pipeline, const gchar * what)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 600 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;

  if (msg && !ok) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("%s: %s: %s\n", what, GST_OBJECT_NAME (msg->src), err->message);
    g_error_free (err);
  } else if (!msg) {
    g_printerr ("%s: timed out\n", what);
  }
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  return ok;
}

/* The buffer and caps entering stage @stage (0 = raw camera frames). */
GstSample *
capture_input (const Shape * shape, gint stage)
{
  gchar *chain = stage > 0 ? chain_desc (shape, 0, stage - 1) : g_strdup ("");
  /* on CUDA, keep the captured buffer in device memory */
  gchar *desc = g_strdup_printf ("aooctsrc samples=%d alines=%d "
      "num-buffers=1 ! %s%s appsink name=sink sync=false%s", shape->samples,
      shape->alines * shape->per_buffer, chain, stage > 0 ? " !" : "",
      stage == N_STAGES ? " caps=video/x-raw,format=GRAY8" : stage > 0
      && on_cuda ()? " caps=application/x-aooct(memory:CUDAMemory)" : "");
  GstElement *p = launch (desc);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstSample *sample;

  gst_element_set_state (p, GST_STATE_PLAYING);
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  if (sample == NULL) {
    g_printerr ("no output from '%s'\n", desc);
    exit (1);
  }
  take_cuda_context (p);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  g_free (chain);
  return sample;
}

typedef struct
{
  gint count, n;
  gint64 t_start, t_end;
  gint64 *t_in;                 /* when buffer i entered the first element */
  gdouble *latency_ms;          /* and reached the sink */
  /* with thread_times: the threads' CPU time when the clock starts and
   * when the last image (the @expect th) arrives, and that moment */
  gint expect;
  AooctBenchThreads *threads_start, *threads_end;
  gint64 t_threads_end;
} Clock;

/* the threads of the last time_chain(), for emit_thread_times() */
static gchar *last_threads = NULL;

static GstPadProbeReturn
count_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Clock *c = user_data;
  GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);
  gint64 now = g_get_monotonic_time ();
  guint64 i = GST_BUFFER_PTS (b) / GST_MSECOND;

  c->count++;
  if (c->count == WARMUP) {
    c->t_start = now;
    if (thread_times)
      c->threads_start = aooct_bench_threads_read ();
  }
  if (c->count == c->expect && thread_times) {
    c->threads_end = aooct_bench_threads_read ();
    c->t_threads_end = g_get_monotonic_time ();
  }
  c->t_end = now;
  if (i < (guint64) c->n && c->t_in[i])
    c->latency_ms[i] = (now - c->t_in[i]) / 1000.0;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
mark_arrival (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Clock *c = user_data;
  guint64 i = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info)) / GST_MSECOND;

  if (i < (guint64) c->n)
    c->t_in[i] = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* "aooctdcsub 0.012, aooctpad 0.008, ...": the mean host time each aooct
 * element spent in transform per buffer (its stats property). */
gchar *
host_times (GstElement * pipeline)
{
  GString *str = g_string_new (NULL);
  GstIterator *it = gst_bin_iterate_sorted (GST_BIN (pipeline));
  GValue v = G_VALUE_INIT;
  GSList *parts = NULL, *l;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&v);
    GstStructure *st = NULL;
    gdouble ms = 0;

    if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "stats")
        && g_object_class_find_property (G_OBJECT_GET_CLASS (e), "gpu-timing")) {
      g_object_get (e, "stats", &st, NULL);
      if (st && gst_structure_get_double (st, "host-time-mean-ms", &ms)) {
        gdouble gpu = 0;
        guint64 timed = 0;

        /* with gpu-timing on: the GPU time of its own work too */
        if (gst_structure_get_uint64 (st, "gpu-buffers", &timed) && timed > 0
            && gst_structure_get_double (st, "gpu-time-mean-ms", &gpu))
          parts = g_slist_prepend (parts, g_strdup_printf ("%s %.4f "
                  "(GPU %.4f)", GST_OBJECT_NAME (gst_element_get_factory (e)),
                  ms, gpu));
        else
          parts = g_slist_prepend (parts, g_strdup_printf ("%s %.4f",
                  GST_OBJECT_NAME (gst_element_get_factory (e)), ms));
      }
      if (st)
        gst_structure_free (st);
    }
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  /* sorted iteration goes sink to source */
  for (l = parts; l; l = l->next)
    g_string_append_printf (str, "%s%s", str->len ? ", " : "",
        (gchar *) l->data);
  g_slist_free_full (parts, g_free);
  return g_string_free (str, FALSE);
}

/* Waits until the first buffer has reached the sink (caps negotiated all
 * along the chain, so that aooctdcsub answers the allocation query). */
static gboolean
wait_first (Clock * c)
{
  gint i;

  for (i = 0; i < 60000; i++) {
    if (g_atomic_int_get (&c->count) >= 1)
      return TRUE;
    g_usleep (500);
  }
  return FALSE;
}

/* The pool aooctdcsub proposes (the peer of @src_pad) for @caps, asked for
 * as an upstream element does, configured for @count buffers and started:
 * the page-locked one (@feed FEED_PINNED) or the one of device memory
 * (FEED_DEVICE, CUDA-memory caps); NULL with a message if there is none. */
static GstBufferPool *
proposed_pool (GstPad * src_pad, GstCaps * caps, Feed feed, guint count,
    guint * size)
{
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *found = NULL;
  GstStructure *config;
  guint i;

  if (!gst_pad_peer_query (src_pad, q)) {
    g_printerr ("aooctdcsub did not answer the allocation query\n");
    gst_query_unref (q);
    return NULL;
  }
  for (i = 0; i < gst_query_get_n_allocation_pools (q) && !found; i++) {
    GstBufferPool *pool = NULL;

    gst_query_parse_nth_allocation_pool (q, i, &pool, size, NULL, NULL);
    if (pool && (feed == FEED_DEVICE
            || gst_buffer_pool_has_option (pool, PAGE_LOCKED_OPTION)))
      found = pool;
    else
      gst_clear_object (&pool);
  }
  gst_query_unref (q);
  if (found == NULL) {
    g_printerr ("aooctdcsub proposed no %s pool\n", feed == FEED_PINNED ?
        "page-locked" : "device-memory");
    return NULL;
  }
  config = gst_buffer_pool_get_config (found);
  gst_buffer_pool_config_set_params (config, caps, *size, count, count);
  if (!gst_buffer_pool_set_config (found, config)
      || !gst_buffer_pool_set_active (found, TRUE)) {
    g_printerr ("cannot start the pool aooctdcsub proposed\n");
    gst_object_unref (found);
    return NULL;
  }
  return found;
}

/* A buffer of @pool holding the frame of @src (written through a host
 * map), checked to be in memory @type. */
static GstBuffer *
filled_buffer (GstBufferPool * pool, GstBuffer * src, const gchar * type)
{
  GstBuffer *b = NULL;
  GstMapInfo map;
  gsize size = gst_buffer_get_size (src);

  if (gst_buffer_pool_acquire_buffer (pool, &b, NULL) != GST_FLOW_OK
      || gst_buffer_n_memory (b) != 1
      || !gst_memory_is_type (gst_buffer_peek_memory (b, 0), type)
      || gst_buffer_get_size (b) != size
      || !gst_buffer_map (b, &map, GST_MAP_WRITE)) {
    g_printerr ("the pool aooctdcsub proposed does not give %s buffers of "
        "%" G_GSIZE_FORMAT " bytes\n", type, size);
    gst_clear_buffer (&b);
    return NULL;
  }
  gst_buffer_extract (src, 0, map.data, size);
  gst_buffer_unmap (b, &map);
  return b;
}

/* @desc fed with @input @n times (after WARMUP) from memory @feed: wall
 * time per buffer, latency, and the GPU time of an element named "el" if
 * there is one.  The first warm-up buffer is always a copy in system
 * memory (read through the host with CUDA-memory caps): aooctdcsub answers
 * the allocation query only once caps are negotiated. */
Timing
time_chain (const gchar * desc, const gchar * sink_caps, GstSample * input,
    gint n, Feed feed, gboolean paced)
{
  gchar *full = g_strdup_printf ("appsrc name=src format=time ! %s ! %s%s"
      "fakesink name=sink sync=false", desc, sink_caps ? sink_caps : "",
      sink_caps ? " ! " : "");
  GstElement *p = launch (full);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstElement *el = gst_bin_get_by_name (GST_BIN (p), "el");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstPad *src_pad = gst_element_get_static_pad (src, "src");
  GstBuffer *buf = gst_sample_get_buffer (input);
  Clock c = { 0, n + WARMUP, 0, 0, NULL, NULL };
  Timing t = { -1, 0, 0, 0, NULL };
  /* images the sink gets for the n + WARMUP buffers pushed */
  const gint expect = (gint) ((n + WARMUP) * outputs_per_input);
  gint first_lat;
  GstCaps *caps = gst_caps_copy (gst_sample_get_caps (input));
  GstBufferPool *pool = NULL;
  GstBuffer *dev = NULL;
  gboolean fed = TRUE;
  guint size = 0;
  gint i;

  c.expect = expect;
  g_clear_pointer (&last_threads, g_free);
  c.t_in = g_new0 (gint64, c.n);
  c.latency_ms = g_new0 (gdouble, c.n);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffers, &c, NULL);
  gst_pad_add_probe (src_pad, GST_PAD_PROBE_TYPE_BUFFER, mark_arrival, &c,
      NULL);
  if (feed == FEED_DEVICE)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new ("memory:CUDAMemory", NULL));
  g_object_set (src, "caps", caps, "block", TRUE, "max-buffers", (guint64) 4,
      NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (i = 0; i < n + WARMUP; i++) {
    GstBuffer *b = NULL;

    if (i == 0 || feed == FEED_SYSTEM) {
      /* shares the memory (device memory too: no copy) */
      b = gst_buffer_copy (buf);
    } else if (feed == FEED_PINNED) {
      /* the next of the pre-filled pool buffers (the pool hands them out
       * in the order they came back) */
      if (gst_buffer_pool_acquire_buffer (pool, &b, NULL) != GST_FLOW_OK)
        b = NULL;
    } else {
      /* another buffer sharing the frame in device memory */
      b = gst_buffer_copy (dev);
    }
    if (b == NULL) {
      fed = FALSE;
      break;
    }
    GST_BUFFER_PTS (b) = i * GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
    /* @paced: the next B-scan only once this one's image is out, so that
     * the latency is that of an idle pipeline (no queue in front of it) */
    while (paced && i > 0 && g_atomic_int_get (&c.count) < i + 1)
      g_usleep (20);
    if (i == 0 && feed == FEED_PINNED) {
      GstBuffer *filled[N_PINNED_MAX];
      guint k;

      /* fill each pool buffer once, outside the timed part */
      pool = wait_first (&c) ? proposed_pool (src_pad, caps, feed, n_pinned,
          &size) : NULL;
      for (k = 0; k < n_pinned; k++)
        filled[k] = pool ? filled_buffer (pool, buf, HOST_MEMORY_TYPE) : NULL;
      for (k = 0; k < n_pinned; k++) {
        fed = fed && filled[k] != NULL;
        gst_clear_buffer (&filled[k]);
      }
      if (!fed)
        break;
    } else if (i == 0 && feed == FEED_DEVICE) {
      pool = wait_first (&c) ? proposed_pool (src_pad, caps, feed, 1, &size)
          : NULL;
      dev = pool ? filled_buffer (pool, buf, DEVICE_MEMORY_TYPE) : NULL;
      if (dev == NULL) {
        fed = FALSE;
        break;
      }
    }
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  if (wait_eos (p, desc) && fed && c.count == expect) {
    GstSample *last = NULL;

    /* On CUDA an element may push device memory before its GPU work is
     * done.  Mapping the last buffer on the host waits for the last GPU
     * work on it, which every earlier step of every earlier buffer is
     * ordered before (host-memory images are complete when pushed). */
    g_object_get (sink, "last-sample", &last, NULL);
    if (last) {
      GstMapInfo map;
      if (gst_buffer_map (gst_sample_get_buffer (last), &map, GST_MAP_READ))
        gst_buffer_unmap (gst_sample_get_buffer (last), &map);
      c.t_end = g_get_monotonic_time ();
      gst_sample_unref (last);
    }
    /* per buffer pushed: the images after the warm-up ones stand for
     * (expect - WARMUP) / outputs_per_input buffers */
    t.ms = (c.t_end - c.t_start) / 1000.0 / ((expect - WARMUP) /
        outputs_per_input);
    qsort (c.latency_ms + WARMUP, n, sizeof (gdouble), cmp_double);
    /* an element that makes one image of several buffers (aooctangio)
     * has a latency for the buffers that start an image only */
    for (first_lat = WARMUP; first_lat < WARMUP + n - 1
        && c.latency_ms[first_lat] == 0; first_lat++);
    t.lat_med_ms = c.latency_ms[first_lat + (WARMUP + n - first_lat) / 2];
    t.lat_max_ms = c.latency_ms[WARMUP + n - 1];
    t.host = host_times (p);
    if (c.threads_start && c.threads_end && c.t_threads_end > c.t_start)
      last_threads = aooct_bench_threads_report (c.threads_start,
          c.threads_end, (c.t_threads_end - c.t_start) / 1e6, 12);
    if (el) {
      GstStructure *st = NULL;

      g_object_get (el, "stats", &st, NULL);
      if (st) {
        gst_structure_get_double (st, "gpu-time-mean-ms", &t.gpu_ms);
        gst_structure_get_double (st, "gpu-time-ms", &t.gpu_total_ms);
        gst_structure_free (st);
      }
    }
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_clear_buffer (&dev);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_caps_unref (caps);
  gst_object_unref (src_pad);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (src);
  if (el)
    gst_object_unref (el);
  gst_object_unref (p);
  g_free (full);
  g_free (c.t_in);
  g_free (c.latency_ms);
  aooct_bench_threads_free (c.threads_start);
  aooct_bench_threads_free (c.threads_end);
  return t;
}

void
emit (GString * table, FILE * out, const gchar * fmt, ...)
{
  va_list args;
  gchar *line;

  va_start (args, fmt);
  line = g_strdup_vprintf (fmt, args);
  va_end (args);
  fputs (line, stdout);
  fflush (stdout);
  if (out)
    fputs (line, out);
  g_string_append (table, line);
  g_free (line);
}

/* One whole-chain row: per B-scan and latency, or why there is none. */
void
emit_row (GString * table, FILE * out, const gchar * label, const Timing * t,
    const Shape * shape)
{
  gdouble ms = t->ms / shape->per_buffer;

  if (t->ms <= 0)
    emit (table, out, "| %s | failed (see the messages above) | | |\n", label);
  else
    emit (table, out, "| %s | %.4f | %.3g | %.3f / %.3f |\n", label, ms,
        shape->alines / (ms / 1e3), t->lat_med_ms, t->lat_max_ms);
  emit_thread_times ();
}

void
emit_thread_times (void)
{
  if (last_threads == NULL)
    return;
  /* the log only: the table is what scripts read */
  fputs (last_threads, stdout);
  fflush (stdout);
  g_clear_pointer (&last_threads, g_free);
}
