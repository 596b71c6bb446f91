/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: throughput of each aooct element and of the whole chain.
 *
 * For every shape it captures, once, the input each element sees (by running
 * aooctsrc and the preceding elements into an appsink), then times each
 * element alone (appsrc ! element ! fakesink) and the whole chain, pushing
 * the same B-scans again and again.  Times exclude a warm-up (plans, tables,
 * first-touch allocations): the clock starts when the warm-up buffers have
 * reached the sink.  It prints a table and writes the same table to a file.
 *
 * On CUDA it also reports, per element, the GPU time of the step alone
 * (CUDA events around process_cuda on the element's stream: the elements'
 * gpu-timing and stats properties), and for the whole chain, with the raw
 * B-scans
 *   - in ordinary system memory (copied into aooctdcsub's page-locked
 *     staging before the upload),
 *   - in page-locked memory from the pool aooctdcsub proposes in the
 *     allocation query (asked for as an upstream element does; a few pool
 *     buffers are filled once with the captured frame before the clock
 *     starts and pushed round-robin, recycling through the pool: uploaded
 *     in place, no host copy),
 *   - already in CUDA memory (aooct device memory from the pool aooctdcsub
 *     proposes for memory:CUDAMemory caps, written once, every buffer
 *     sharing it: the device-resident chain),
 * the image either in system memory (GRAY8 at a fakesink) or left on the
 * GPU (NV12 in CUDA memory); the latency from a B-scan entering aooctdcsub
 * to its image reaching the sink; and the ceilings measured in the same
 * run: the GPU model, pinned host-to-device and device-to-host copy
 * bandwidth and device-to-device bandwidth, with the memory-bandwidth
 * bound of each step (bytes in + bytes out at the device-to-device rate).
 * Shapes named -xK carry K B-scans per buffer (aooctdcsub
 * alines-per-bscan).
 *
 *
 * With --views V it times instead the views of spec section 11 on the
 * volume of Jian et al. (2013): 1024 samples, 256 A-lines, 200 B-scans per
 * volume, no padding, linear resampling, 20 B-scans per buffer, raw
 * B-scans from page-locked memory on CUDA: the chain to the depth domain
 * alone, with each view (aooctnorm's B-scan of every B-scan, aooctenface,
 * aooctrender mip) and with all three at once (tee), V volumes each, in
 * volumes per second and the cost each view adds.
 *
 * With --fullrange, each shape also gets the complex full-range chain
 * (aooctfullrange after aooctdcsub, spec section 9; the image then has
 * P1 rows instead of P1/2): aooctfullrange alone and the whole chain, next
 * to the standard chain's rows.
 *
 *   aooct-bench [--backend cpu|cuda|auto] [--buffers N] [--output FILE]
 *               [--shape thesis|thesis-x16|2048x1000|2048x1000-x4|
 *                2048x500|1024-nopad|1024-nopad-x8|2048-nopad|all]
 *               [--file-dir DIR] [--no-steps] [--no-files] [--views V]
 *               [--interpolation linear|cubic|bspline|lanczos|nudft|nufft]
 *               [--fullrange] [--cs] [--packed] [--scale-out GPUS] [--flow]
 *
 * With --packed it times instead the whole chain of the shape (default
 * 1024-nopad-x8) on raw B-scans of packed samples (Mono12p, Mono12Packed,
 * Mono10p: docs/caps.md) against the same B-scans as GRAY16_LE, in the
 * same run: in page-locked memory on CUDA (the upload moves the packed
 * bytes), on one streaming thread and on three.
 * With --scale-out GPUS (e.g. 0,1) it times instead the rows of
 * docs/scale-out.md on those CUDA devices: the standard chain at 2048 x
 * 1000, 4 B-scans per buffer; aooctcs at 2048 x 1000, 40 %; the thesis
 * shape, 16 per buffer; with one device the chain alone, with several
 * aooctsplit, one branch per device, aooctmerge.  scripts/scale-out-bench.sh
 * runs it on one GPU, on two, and as two processes, and prints the table.
 * With --flow, each shape also gets aooctdoppler and aooctangio (spec
 * section 12), alone and at the end of the chain (aooct-bench-flow.c).
 *
 * With --cs it times instead aooctcs (compressive sensing, spec section
 * 10) at 2048 x 1000, 40 % of the spectrum, 15 iterations: operator=nufft
 * with R = 2, W = 3 and with its defaults, operator=nudft, and the chain
 * raw -> aooctdcsub -> aooctcs -> aooctnorm.
 *
 * The file rows run the pipelines a user runs on a recorded raw file
 * (through gst_parse_launch, the file just written, so in the page cache):
 * filesrc ! rawvideoparse and aooctfilesrc, each alone into a fakesink and
 * in front of the chain, with and without a queue, and aooctsrc likewise.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <glib/gstdio.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "aooct-synth.h"
#include "aooct-app-util.h"
#include "aooct-bench-packed.h"
#include "aooct-bench.h"
#ifdef HAVE_CUDA
#include "aooct-bench-cuda.h"
#endif

/* page-locked pool buffers filled once and pushed round-robin: more than
 * appsrc's queue (4) plus what aooctdcsub holds while their copies run */
#define N_PINNED 8
/* how many of them a run uses: N_PINNED per branch with --scale-out
 * (each branch holds its own) */
#define N_PINNED_MAX 64
static guint n_pinned = N_PINNED;

/* aooct-cuda-host-memory.h and aooct-cuda-memory.h (not linked here) */
/* aooct-cuda-pool.h: the option of the page-locked pool */
#define PAGE_LOCKED_OPTION "AooctBufferPoolOptionPageLocked"
#define HOST_MEMORY_TYPE "aooct.cuda.host"
#define DEVICE_MEMORY_TYPE "aooct.cuda.memory"

static const Shape shapes[] = {
  {"thesis", 832, 240, TRUE, 1},
  {"thesis-x16", 832, 240, TRUE, 16},
  {"2048x1000", 2048, 1000, TRUE, 1},
  {"2048x1000-x4", 2048, 1000, TRUE, 4},
  {"2048x500", 2048, 500, TRUE, 1},
  {"1024-nopad", 1024, 1000, FALSE, 1},
  {"1024-nopad-x8", 1024, 1000, FALSE, 8},
  {"2048-nopad", 2048, 1000, FALSE, 1},
};

static const gchar *stage_names[N_STAGES] = {
  "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp", "aooctfft", "aooctnorm"
};

gchar *backend = NULL;
gdouble outputs_per_input = 1.0;
/* aooctkmap interpolation (and its NUFFT properties), --interpolation */
static gchar *interpolation = NULL;
static gchar *file_dir = NULL;
static gboolean no_steps = FALSE;
static gboolean no_files = FALSE;

/* One CUDA context for every pipeline of the run (taken from the first
 * pipeline that made one): device memory captured in one pipeline is then
 * used in place by the next, as it would be inside one pipeline. */
static GstContext *shared_cuda = NULL;

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

/* The chain on three streaming threads: a queue after aooctdcsub and one
 * after aooctfft, so that the upload, the resampling and transform, and
 * the log scale and download of consecutive buffers run on different
 * threads (each element's host work per buffer is what bounds one B-scan
 * per buffer); short queues, so that latency stays a few buffers. */
#define SHORT_QUEUE "queue max-size-buffers=3 max-size-bytes=0 max-size-time=0"

static gchar *
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

/* The base class's cuda-graphs and defer-steps for every aooct element of
 * the next pipelines (rows that measure them): TRUE / FALSE, or -1 to
 * leave the element's default. */
static gint with_cuda_graphs = -1, with_defer_steps = -1;
/* gpu-timing=true on every aooct element (rows that break the GPU time
 * down per element) */
static gboolean with_gpu_timing = FALSE;

static GstElement *
launch (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);

  if (p == NULL) {
    g_printerr ("cannot build '%s': %s\n", desc, err->message);
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

static gboolean
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
} Clock;

static GstPadProbeReturn
count_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Clock *c = user_data;
  GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (info);
  gint64 now = g_get_monotonic_time ();
  guint64 i = GST_BUFFER_PTS (b) / GST_MSECOND;

  c->count++;
  if (c->count == WARMUP)
    c->t_start = now;
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
static gchar *
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
}

/* Packed input (--packed): the whole chain of @shape on its raw B-scans as
 * GRAY16_LE and packed as each packed format, in page-locked memory on
 * CUDA (the pool aooctdcsub proposes: the upload moves the packed bytes),
 * GRAY8 images in system memory; on one streaming thread and on three. */
static void
packed_rows (const Shape * shape, GString * table, FILE * out, gint buffers)
{
  static const AooctRawFormat formats[] = { AOOCT_RAW_GRAY16_LE,
    AOOCT_RAW_MONO12P, AOOCT_RAW_MONO12PACKED, AOOCT_RAW_MONO10P
  };
  GstSample *raw = capture_input (shape, 0);
  gchar *chains[2] = { chain_desc (shape, 0, N_STAGES - 1),
    chain_queued_desc (shape)
  };
  Feed feed = on_cuda ()? FEED_PINNED : FEED_SYSTEM;
  guint f, c;

  emit (table, out, "## %s, packed input: %d samples x %d A-lines, %d "
      "B-scans per buffer, raw B-scans in %s, GRAY8 image in system "
      "memory\n\n| raw samples | threads | bytes per A-line | ms per B-scan "
      "| A-lines/s | latency median / max, ms per buffer |\n"
      "|---|---:|---:|---:|---:|---:|\n", shape->name, shape->samples,
      shape->alines, shape->per_buffer, feed == FEED_PINNED ?
      "page-locked memory (the pool aooctdcsub proposes)" :
      "ordinary system memory");
  for (c = 0; c < G_N_ELEMENTS (chains); c++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstSample *in = formats[f] == AOOCT_RAW_GRAY16_LE ?
          gst_sample_ref (raw) : aooct_bench_packed_sample (raw, formats[f]);
      Timing t = { -1, 0, 0, 0, NULL };
      gdouble ms;

      if (in)
        t = time_chain (chains[c], "video/x-raw,format=GRAY8", in, buffers,
            feed, FALSE);
      ms = t.ms / shape->per_buffer;
      if (t.ms <= 0)
        emit (table, out, "| %s | %d | %" G_GSIZE_FORMAT " | failed (see "
            "the messages above) | | |\n", aooct_raw_format_name
            (formats[f]), c ? 3 : 1, aooct_raw_row_bytes (formats[f],
                shape->samples));
      else
        emit (table, out, "| %s | %d | %" G_GSIZE_FORMAT " | %.4f | %.3g | "
            "%.3f / %.3f |\n", aooct_raw_format_name (formats[f]), c ? 3 : 1,
            aooct_raw_row_bytes (formats[f], shape->samples), ms,
            shape->alines / (ms / 1e3), t.lat_med_ms, t.lat_max_ms);
      g_free (t.host);
      if (in)
        gst_sample_unref (in);
    }
  emit (table, out, "\n");
  g_free (chains[0]);
  g_free (chains[1]);
  gst_sample_unref (raw);
}

/* ---- scale-out rows (--scale-out GPUS): one pipeline over several GPUs -- */

/* @chain with each "@DEV@" replaced by the device, once for each of the
 * @n @devices: the chain itself for one, aooctsplit and aooctmerge around
 * one branch per device otherwise (docs/scale-out.md). */
static gchar *
scale_desc (const gchar * chain, const gint * devices, gint n)
{
  GString *d = g_string_new (n > 1 ? "aooctsplit name=s" : "");
  gchar **bits = g_strsplit (chain, "@DEV@", -1);
  const gchar *q = g_getenv ("AOOCT_SCALE_QUEUES");
  gint k, queue_front = 2, queue_back = 0;
  gchar back_str[16];

  if (q && sscanf (q, "%d,%d", &queue_front, &queue_back) < 1)
    queue_front = 2;
  queue_front = MAX (queue_front, 1);
  g_snprintf (back_str, sizeof back_str, "%d", queue_back);

  for (k = 0; k < n; k++) {
    gchar *dev = g_strdup_printf ("%d", devices[k]);
    gchar *c = g_strjoinv (dev, bits);

    /* AOOCT_SCALE_QUEUES=F,B: the branches' queue of F buffers in front
     * (default 2) and, B > 0, one of B buffers between the branch and
     * aooctmerge (default none), to see what the branches' coupling costs */
    if (n > 1)
      g_string_append_printf (d, "  s. ! queue max-size-buffers=%d "
          "max-size-bytes=0 max-size-time=0 ! %s%s%s ! m.", queue_front, c,
          queue_back > 0 ? " ! queue max-size-bytes=0 max-size-time=0 "
          "max-size-buffers=" : "", queue_back > 0 ? back_str : "");
    else
      g_string_append (d, c);
    g_free (c);
    g_free (dev);
  }
  if (n > 1)
    g_string_append (d, "  aooctmerge name=m");
  g_strfreev (bits);
  return g_string_free (d, FALSE);
}

/* The rows of docs/scale-out.md's table on the devices of @gpus ("0",
 * "0,1", ...): the standard chain at 2048 x 1000, 4 B-scans per buffer;
 * aooctcs at 2048 x 1000, 40 %; the thesis shape, 16 per buffer.  Raw
 * B-scans in page-locked memory on CUDA.  Each row is "| name | ... |
 * A-lines/s |" for scripts/scale-out-bench.sh to read. */
static void
scale_rows (GString * table, FILE * out, gint buffers, const gchar * gpus)
{
  static const Shape x4 = { "2048x1000-x4", 2048, 1000, TRUE, 4 };
  static const Shape cs = { "cs-2048x1000", 2048, 1000, FALSE, 1 };
  static const Shape x16 = { "thesis-x16", 832, 240, TRUE, 16 };
  const gchar *bk = backend ? backend : "auto";
  gchar **parts = g_strsplit (gpus, ",", -1);
  gint n = g_strv_length (parts), k, devices[16];
  const Feed feed = on_cuda ()? FEED_PINNED : FEED_SYSTEM;
  gchar *standard, *compressive;
  const Shape *shapes_[3] = { &x4, &cs, &x16 };
  const gchar *chains[3];

  if (n < 1 || n > 16) {
    g_printerr ("--scale-out: 1 to 16 devices, got '%s'\n", gpus);
    exit (2);
  }
  for (k = 0; k < n; k++)
    devices[k] = atoi (parts[k]);
  g_strfreev (parts);
  standard = g_strdup_printf ("aooctdcsub backend=%s cuda-device-id=@DEV@ ! "
      "aooctpad size=2048 factor=2 backend=%s cuda-device-id=@DEV@ ! "
      "aooctkmap wavelength-coeffs=\"%s\" backend=%s cuda-device-id=@DEV@ ! "
      "aooctdisp a2=%g a3=%g backend=%s cuda-device-id=@DEV@ ! aooctfft "
      "backend=%s cuda-device-id=@DEV@ ! aooctnorm backend=%s "
      "cuda-device-id=@DEV@", bk, bk, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      bk, AOOCT_SYNTH_DEFAULT_DISPERSION_A2, AOOCT_SYNTH_DEFAULT_DISPERSION_A3,
      bk, bk, bk);
  compressive = g_strdup_printf ("aooctdcsub backend=%s cuda-device-id=@DEV@ "
      "! aooctcs backend=%s cuda-device-id=@DEV@ wavelength-coeffs=\"%s\" "
      "mask-fraction=0.4 operator=nufft nufft-width=3 ! aooctnorm backend=%s "
      "cuda-device-id=@DEV@", bk, bk, AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS,
      bk);
  chains[0] = chains[2] = standard;
  chains[1] = compressive;
  /* each branch holds page-locked buffers of its own;
   * AOOCT_SCALE_PINNED=K: K in all (to see whether the pool limits) */
  n_pinned = g_getenv ("AOOCT_SCALE_PINNED") ?
      CLAMP (atoi (g_getenv ("AOOCT_SCALE_PINNED")), 2, N_PINNED_MAX) :
      MIN (N_PINNED * n, N_PINNED_MAX);

  emit (table, out, "## scale-out: gpus=%s (%s)\n\n| row | B-scans per "
      "buffer | ms per buffer | A-lines/s |\n|---|---:|---:|---:|\n", gpus,
      n == 1 ? "the chain alone" : "aooctsplit ! branches ! aooctmerge");
  for (k = 0; k < 3; k++) {
    const Shape *shape = shapes_[k];
    GstSample *raw = capture_input (shape, 0);
    gchar *desc = scale_desc (chains[k], devices, n);
    Timing t = time_chain (desc, "video/x-raw,format=GRAY8", raw, buffers,
        feed, FALSE);

    if (t.ms <= 0)
      emit (table, out, "| %s | %d | failed (see the messages above) | |\n",
          shape->name, shape->per_buffer);
    else
      emit (table, out, "| %s | %d | %.3f | %.4g |\n", shape->name,
          shape->per_buffer, t.ms, shape->alines * shape->per_buffer /
          (t.ms / 1e3));
    g_free (t.host);
    g_free (desc);
    gst_sample_unref (raw);
  }
  emit (table, out, "\n");
  n_pinned = N_PINNED;
  g_free (standard);
  g_free (compressive);
}

/* ---- file rows: the pipelines users run on a recorded raw file ---------- */

typedef struct
{
  gint count;
  gint64 t_start, t_end;
} Counter;

static GstPadProbeReturn
count_at_sink (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Counter *c = user_data;
  gint64 now = g_get_monotonic_time ();

  c->count++;
  if (c->count == WARMUP)
    c->t_start = now;
  c->t_end = now;
  return GST_PAD_PROBE_OK;
}

/* Per element of a pipeline: the time from a buffer reaching its sink pad
 * to its output leaving its src pad (in one streaming thread, the host
 * time the element spends per buffer, basetransform and pool included;
 * across a thread, as in aooctnorm's output task, the time the buffer
 * spends in it), after the warm-up. */
typedef struct
{
  const gchar *name;
  gint64 t_in;
  gint64 sum;
  gint n, seen;
} Span;

static GstPadProbeReturn
span_in (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Span *s = user_data;

  s->t_in = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
span_out (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Span *s = user_data;

  if (s->t_in && ++s->seen > WARMUP) {
    s->sum += g_get_monotonic_time () - s->t_in;
    s->n++;
  }
  return GST_PAD_PROBE_OK;
}

/* Spans of every element with a sink and a src pad but queues (whose
 * buffers wait in them by design), upstream first. */
static GPtrArray *
add_spans (GstElement * pipeline)
{
  GPtrArray *spans = g_ptr_array_new_with_free_func (g_free);
  GstIterator *it = gst_bin_iterate_sorted (GST_BIN (pipeline));
  GValue v = G_VALUE_INIT;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&v);
    GstPad *in = gst_element_get_static_pad (e, "sink");
    GstPad *out = gst_element_get_static_pad (e, "src");
    GstElementFactory *f = gst_element_get_factory (e);
    const gchar *name = f ? GST_OBJECT_NAME (f) : GST_OBJECT_NAME (e);

    if (in && out && g_strcmp0 (name, "queue") != 0
        && g_strcmp0 (name, "capsfilter") != 0) {
      Span *s = g_new0 (Span, 1);

      s->name = name;
      gst_pad_add_probe (in, GST_PAD_PROBE_TYPE_BUFFER, span_in, s, NULL);
      gst_pad_add_probe (out, GST_PAD_PROBE_TYPE_BUFFER, span_out, s, NULL);
      g_ptr_array_insert (spans, 0, s);
    }
    gst_clear_object (&in);
    gst_clear_object (&out);
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  return spans;
}

static gchar *
format_spans (GPtrArray * spans)
{
  GString *str = g_string_new (NULL);
  guint i;

  for (i = 0; i < spans->len; i++) {
    Span *s = g_ptr_array_index (spans, i);

    if (s->n)
      g_string_append_printf (str, "%s%s %.4f", str->len ? ", " : "",
          s->name, s->sum / 1000.0 / s->n);
  }
  return g_string_free (str, FALSE);
}

/* Runs @desc (a launch line ending in "fakesink name=sink") to EOS: wall
 * time per buffer at the sink after WARMUP buffers (-1 on failure or when
 * not @expect buffers arrived), the aooct elements' host time in
 * transform, and every element's in-to-out time (@spans, g_free). */
static Timing
time_launch (const gchar * desc, gint expect, gchar ** spans_out)
{
  GstElement *p = launch (desc);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  Counter c = { 0, 0, 0 };
  Timing t = { -1, 0, 0, 0, NULL };
  GPtrArray *spans = add_spans (p);

  g_object_set (sink, "sync", FALSE, NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_at_sink, &c, NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  if (wait_eos (p, desc)) {
    if (c.count == expect && c.count > WARMUP) {
      t.ms = (c.t_end - c.t_start) / 1000.0 / (c.count - WARMUP);
      t.host = host_times (p);
      *spans_out = format_spans (spans);
    } else {
      g_printerr ("%s: %d buffers at the sink, %d expected\n", desc, c.count,
          expect);
    }
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_ptr_array_unref (spans);
  return t;
}

/* A raw file of @count copies of the frame of @raw (K B-scans each), in
 * file_dir; its path, NULL with a message on failure.  Just written, so it
 * is in the page cache. */
static gchar *
write_raw_file (const Shape * shape, GstSample * raw, gint count)
{
  GstBuffer *b = gst_sample_get_buffer (raw);
  gchar *name = g_strdup_printf ("aooct-bench-%s.raw", shape->name);
  gchar *path = g_build_filename (file_dir ? file_dir : g_get_tmp_dir (),
      name, NULL);
  FILE *f = fopen (path, "wb");
  GstMapInfo map;
  gboolean ok = f != NULL;
  gint i;

  if (ok && gst_buffer_map (b, &map, GST_MAP_READ)) {
    for (i = 0; ok && i < count; i++)
      ok = fwrite (map.data, 1, map.size, f) == map.size;
    gst_buffer_unmap (b, &map);
  }
  if (f)
    ok = fclose (f) == 0 && ok;
  g_free (name);
  if (!ok) {
    g_printerr ("cannot write %s\n", path);
    g_free (path);
    return NULL;
  }
  return path;
}

/* The file rows of @shape: reading the raw file alone, the chain fed from
 * it, and aooctsrc likewise; the ratios the issue's targets name. */
static void
file_rows (GString * table, FILE * out, const Shape * shape,
    GstSample * raw, gint buffers, const Timing * pinned)
{
  gsize frame = gst_buffer_get_size (gst_sample_get_buffer (raw));
  /* at most 2 GiB of file */
  gint count = (gint) MAX (WARMUP + 2, MIN ((gsize) buffers + WARMUP,
          ((gsize) 2 << 30) / frame));
  gint k = shape->per_buffer, n = shape->samples, m = shape->alines;
  gint synth_count = MIN (count, WARMUP + 40);
  gchar *path = write_raw_file (shape, raw, count);
  gchar *chain = chain_desc (shape, 0, N_STAGES - 1);
  gchar *parse, *ours;
  const gchar *sink = "fakesink name=sink";
  const gchar *img = "video/x-raw,format=GRAY8 ! fakesink name=sink";
  gchar *queued;
  struct
  {
    const gchar *label;
    gchar *desc;
    gboolean no_graphs, synth;  /* cuda-graphs=false; aooctsrc's count */
  } rows[15] = { {NULL} };
  gdouble ms[15];
  guint r, nrows = 0;
  GstElementFactory *factory;
  gboolean have_ours;

  if (path == NULL)
    return;
  queued = chain_queued_desc (shape);
  parse = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
      "format=gray16-le width=%d height=%d framerate=100/1", path, n, m * k);
  ours = g_strdup_printf ("aooctfilesrc location=%s format=gray16-le "
      "width=%d height=%d bscans-per-buffer=%d", path, n, m, k);
#define ROW(l, ...) rows[nrows].label = l; \
  rows[nrows++].desc = g_strdup_printf (__VA_ARGS__)
  ROW ("filesrc ! rawvideoparse ! fakesink (reading the file alone)",
      "%s ! %s", parse, sink);
  ROW ("filesrc blocksize=FRAME ! rawvideoparse ! fakesink",
      "filesrc location=%s blocksize=%" G_GSIZE_FORMAT " ! rawvideoparse "
      "format=gray16-le width=%d height=%d framerate=100/1 ! %s", path, frame,
      n, m * k, sink);
  ROW ("aooctfilesrc ! fakesink (reading the file alone, ordinary memory)",
      "%s ! %s", ours, sink);
  ROW ("aooctfilesrc threads=1 ! fakesink", "%s threads=1 ! %s", ours, sink);
  ROW ("**filesrc ! rawvideoparse ! chain** (the README's pipeline)",
      "%s ! %s ! %s", parse, chain, img);
  ROW ("filesrc ! rawvideoparse ! queue ! chain", "%s ! queue ! %s ! %s",
      parse, chain, img);
  /* 6: the default, the file page-locked at start where it fits (CUDA) */
  ROW ("**aooctfilesrc ! chain**", "%s ! %s ! %s", ours, chain, img);
  ROW ("aooctfilesrc ! queue ! chain", "%s ! queue ! %s ! %s", ours, chain,
      img);
  /* 8: reader threads only */
  ROW ("aooctfilesrc map-file=false ! chain (reader threads only)",
      "%s map-file=false ! %s ! %s", ours, chain, img);
  ROW ("aooctfilesrc map-file=false threads=4 ! chain",
      "%s map-file=false threads=4 ! %s ! %s", ours, chain, img);
  ROW ("aooctfilesrc map-file=false threads=16 ! chain",
      "%s map-file=false threads=16 ! %s ! %s", ours, chain, img);
  ROW ("aooctfilesrc ! chain, cuda-graphs=false", "%s ! %s ! %s", ours,
      chain, img);
  rows[nrows - 1].no_graphs = TRUE;
  ROW ("aooctfilesrc ! chain on three threads (a short queue after "
      "aooctdcsub and after aooctfft)", "%s ! %s ! %s", ours, queued, img);
  /* the synthetic camera computes each frame: fewer of them */
  ROW ("aooctsrc ! fakesink (synthesising alone)", "aooctsrc samples=%d "
      "alines=%d num-buffers=%d ! %s", n, m * k, synth_count, sink);
  rows[nrows - 1].synth = TRUE;
  ROW ("aooctsrc ! chain", "aooctsrc samples=%d alines=%d num-buffers=%d ! "
      "%s ! %s", n, m * k, synth_count, chain, img);
  rows[nrows - 1].synth = TRUE;
#undef ROW
  emit (table, out, "\n| from a raw file in the page cache (%d buffers of "
      "%.2f MB) | ms per B-scan | A-lines/s | GB/s of raw samples | host ms "
      "per buffer in each aooct element's transform | ms per buffer from "
      "entering each element to leaving it |\n|---|---:|---:|---:|---|---|\n",
      count, frame / 1e6);
  have_ours = (factory = gst_element_factory_find ("aooctfilesrc")) != NULL;
  if (factory)
    gst_object_unref (factory);
  for (r = 0; r < nrows; r++) {
    gchar *sp = NULL;
    Timing t;

    if (!have_ours && strstr (rows[r].desc, "aooctfilesrc")) {
      /* an older plugin, benchmarked for comparison */
      emit (table, out, "| %s | not in this build | | | | |\n", rows[r].label);
      ms[r] = -1;
      g_free (rows[r].desc);
      continue;
    }
    if (rows[r].no_graphs)
      with_cuda_graphs = FALSE;
    t = time_launch (rows[r].desc, rows[r].synth ? synth_count : count, &sp);
    with_cuda_graphs = -1;

    ms[r] = t.ms / k;
    if (t.ms <= 0)
      emit (table, out, "| %s | failed (see the messages above) | | | | |\n",
          rows[r].label);
    else
      emit (table, out, "| %s | %.4f | %.3g | %.2f | %s | %s |\n",
          rows[r].label, ms[r], m / (ms[r] / 1e3), frame / (t.ms / 1e3) /
          1e9, t.host && *t.host ? t.host : "", sp && *sp ? sp : "");
    g_free (sp);
    g_free (t.host);
    g_free (rows[r].desc);
  }
  if (ms[6] > 0 && ms[0] > 0)
    emit (table, out, "\naooctfilesrc ! chain: %.2fx what filesrc ! "
        "rawvideoparse ! fakesink reads, %.2fx filesrc ! rawvideoparse ! "
        "chain%s", ms[0] / ms[6], ms[4] > 0 ? ms[4] / ms[6] : 0, pinned
        && pinned->ms > 0 ? "" : "\n");
  if (ms[6] > 0 && pinned && pinned->ms > 0)
    emit (table, out, ", %.0f %% of the page-locked appsrc figure above\n",
        100.0 * (pinned->ms / k) / ms[6]);
  if (ms[8] > 0 && ms[0] > 0 && pinned && pinned->ms > 0)
    emit (table, out, "aooctfilesrc map-file=false ! chain (reader threads): "
        "%.2fx what filesrc ! rawvideoparse ! fakesink reads, %.0f %% of the "
        "page-locked appsrc figure\n", ms[0] / ms[8],
        100.0 * (pinned->ms / k) / ms[8]);
  g_unlink (path);
  g_free (path);
  g_free (parse);
  g_free (ours);
  g_free (chain);
  g_free (queued);
}

/* ---- thread wake-up: what handing a buffer to another thread costs ----- */

typedef struct
{
  GMutex lock;
  GCond cond;
  gint turn, rounds;
} PingPong;

static gpointer
pong (gpointer data)
{
  PingPong *pp = data;
  gint i;

  g_mutex_lock (&pp->lock);
  for (i = 0; i < pp->rounds; i++) {
    while (pp->turn != 1)
      g_cond_wait (&pp->cond, &pp->lock);
    pp->turn = 0;
    g_cond_signal (&pp->cond);
  }
  g_mutex_unlock (&pp->lock);
  return NULL;
}

/* Microseconds from signalling a waiting thread to its answer arriving,
 * halved: one hand-over (a queue, an output task, a reader thread). */
static gdouble
wakeup_us (void)
{
  PingPong pp;
  GThread *t;
  gint64 t0;
  gint i;

  g_mutex_init (&pp.lock);
  g_cond_init (&pp.cond);
  pp.turn = 0;
  pp.rounds = 2000;
  t = g_thread_new ("pong", pong, &pp);
  t0 = g_get_monotonic_time ();
  g_mutex_lock (&pp.lock);
  for (i = 0; i < pp.rounds; i++) {
    pp.turn = 1;
    g_cond_signal (&pp.cond);
    while (pp.turn != 0)
      g_cond_wait (&pp.cond, &pp.lock);
  }
  g_mutex_unlock (&pp.lock);
  g_thread_join (t);
  g_mutex_clear (&pp.lock);
  g_cond_clear (&pp.cond);
  return (g_get_monotonic_time () - t0) / 2.0 / pp.rounds;
}

int
main (int argc, char **argv)
{
  gint buffers = 50, views = 0;
  gboolean fullrange = FALSE, cs = FALSE, packed = FALSE, flow = FALSE;
  gchar *output = NULL, *only = NULL, *scale_out = NULL;
  GOptionEntry entries[] = {
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
        "cpu, cuda or auto (default auto)", "B"},
    {"buffers", 'n', 0, G_OPTION_ARG_INT, &buffers,
        "B-scans timed per measurement (after 5 warm-up)", "N"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
        "also write the table to FILE (default bench-results.md)", "FILE"},
    {"shape", 's', 0, G_OPTION_ARG_STRING, &only,
          "thesis, thesis-x16, 2048x1000, 2048x1000-x4, 2048x500, "
          "1024-nopad, 1024-nopad-x8, 2048-nopad or all (default thesis)",
        "S"},
    {"interpolation", 'i', 0, G_OPTION_ARG_STRING, &interpolation,
        "aooctkmap interpolation: linear (default), cubic, bspline, lanczos, "
          "nudft or nufft (default nufft-kernel, -oversampling, -width)", "I"},
    {"file-dir", 'd', 0, G_OPTION_ARG_FILENAME, &file_dir,
        "where to write the raw files of the file rows (default: the "
          "temporary directory)", "DIR"},
    {"no-steps", 0, 0, G_OPTION_ARG_NONE, &no_steps,
        "leave out the per-element rows", NULL},
    {"no-files", 0, 0, G_OPTION_ARG_NONE, &no_files,
        "leave out the rows that read a raw file (and aooctsrc's)", NULL},
    {"fullrange", 'f', 0, G_OPTION_ARG_NONE, &fullrange,
        "also time the complex full-range chain (aooctfullrange)", NULL},
    {"flow", 0, 0, G_OPTION_ARG_NONE, &flow,
        "also time aooctdoppler and aooctangio (decorrelation, repeats=4), "
          "alone and at the end of the chain", NULL},
    {"cs", 0, 0, G_OPTION_ARG_NONE, &cs,
        "time aooctcs (compressive sensing) at 2048 x 1000 instead of the "
          "shapes", NULL},
    {"packed", 0, 0, G_OPTION_ARG_NONE, &packed,
        "time the chain on packed 12/10-bit raw B-scans against 16-bit ones "
          "(--shape, default 1024-nopad-x8) instead of the shapes", NULL},
    {"scale-out", 0, 0, G_OPTION_ARG_STRING, &scale_out,
        "time instead one pipeline over the CUDA devices GPUS (e.g. 0,1; "
          "0 for one GPU): the rows of docs/scale-out.md "
          "(scripts/scale-out-bench.sh)", "GPUS"},
    {"views", 'v', 0, G_OPTION_ARG_INT, &views,
        "time the views of spec section 11 on the volume of Jian et al. "
          "over V volumes instead of the shapes", "V"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- aooct throughput benchmark");
  GError *err = NULL;
  GString *table = g_string_new (NULL);
  FILE *out;
  guint s;
  gboolean have_ceil = FALSE;
#ifdef HAVE_CUDA
  AooctBenchCeilings ceil;
#else
  struct
  {
    gdouble h2d_gbs, d2d_gbs;
  } ceil = { 0, 0 };
#endif

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (!output)
    output = g_strdup ("bench-results.md");
  if (!only)
    only = g_strdup (packed ? "1024-nopad-x8" : "thesis");
  out = fopen (output, "w");
  if (!out) {
    g_printerr ("cannot write %s\n", output);
    return 2;
  }

  emit (table, out, "# aooct benchmark (backend %s, aooctkmap "
      "interpolation=%s, %d buffers per figure after %d warm-up, %d CPU "
      "threads)\n\n", backend ? backend : "auto",
      interpolation ? interpolation : "linear", buffers, WARMUP,
      (gint) g_get_num_processors ());
  emit (table, out, "Handing over to a waiting thread (GCond, half a round "
      "trip): %.1f us\n\n", wakeup_us ());
#ifdef HAVE_CUDA
  if (on_cuda ()) {
    if (aooct_bench_ceilings (&ceil) == 0) {
      emit (table, out, "GPU: %s\n\nCeilings (cudaMemcpyAsync of 256 MiB, "
          "timed with CUDA events): pinned host -> device %.1f GB/s, "
          "device -> pinned host %.1f GB/s, device -> device %.0f GB/s "
          "(bytes read + written)\n\n", ceil.gpu, ceil.h2d_gbs,
          ceil.d2h_gbs, ceil.d2d_gbs);
      have_ceil = TRUE;
    } else {
      emit (table, out, "ceilings not measured: %s\n\n", ceil.error);
    }
    {
      AooctBenchApiCosts api;

      if (aooct_bench_api_costs (&api) == 0)
        emit (table, out, "Host cost of the CUDA calls an element makes per "
            "buffer (us per call, mean of 2000): kernel launch %.2f, "
            "cudaEventRecord %.2f, cudaStreamWaitEvent %.2f, cudaEventQuery "
            "%.2f, cudaMemcpyAsync 64 KB H2D %.2f; 8 kernels launched one by "
            "one %.2f, as one CUDA graph %.2f, captured again + "
            "cudaGraphExecUpdate + launch %.2f; launch + "
            "cudaStreamSynchronize %.2f\n\n", api.launch_us,
            api.event_record_us, api.stream_wait_us, api.event_query_us,
            api.copy_h2d_us, api.launch8_us, api.graph8_us, api.capture8_us,
            api.sync_us);
      else
        emit (table, out, "CUDA call costs not measured: %s\n\n", api.error);
    }
  }
#endif
  if (views > 0)
    aooct_bench_views_rows (table, out, views);
  if (cs)
    aooct_bench_cs_rows (table, out, buffers);
  for (s = 0; packed && s < G_N_ELEMENTS (shapes); s++)
    if (g_strcmp0 (only, "all") == 0 || g_strcmp0 (only, shapes[s].name) == 0)
      packed_rows (&shapes[s], table, out, buffers);
  if (scale_out)
    scale_rows (table, out, buffers, scale_out);
  for (s = 0; views == 0 && !cs && !packed && !scale_out
      && s < G_N_ELEMENTS (shapes); s++) {
    const Shape *shape = &shapes[s];
    gdouble sum = 0, gpu_sum = 0, bound_sum = 0, mb_sum = 0;
    gdouble per = shape->per_buffer;
    gint i;
    gchar *chain, *queued;
    GstSample *raw;
    gsize sizes[N_STAGES + 1];
    Timing whole, pinned = { -1, 0, 0, 0, NULL };
    Timing graphs = { -1, 0, 0, 0, NULL };
    gchar *host_note = NULL, *gpu_note = NULL, *gpu_note3 = NULL;

    if (g_strcmp0 (only, "all") != 0 && g_strcmp0 (only, shape->name) != 0)
      continue;
    emit (table, out, "## %s: %d samples x %d A-lines%s, %d B-scan%s per "
        "buffer, log output\n\n", shape->name, shape->samples, shape->alines,
        shape->pad ? ", padded 2048 -> 4096" : ", no padding",
        shape->per_buffer, shape->per_buffer > 1 ? "s" : "");
    if (!no_steps)
      emit (table, out, "| step | wall ms per B-scan | A-lines/s (wall) |%s"
          "\n|---|---:|---:|%s\n", on_cuda ()? " GPU ms per B-scan | MB "
          "moved per B-scan | memory bound ms |" : "", on_cuda ()?
          "---:|---:|---:|" : "");
    /* buffer sizes entering each step and leaving the last */
    for (i = 0; i <= (no_steps ? 0 : N_STAGES); i++) {
      GstSample *in;

      sizes[i] = 0;
      if (i == 1 && !shape->pad)
        continue;
      in = capture_input (shape, i);
      sizes[i] = gst_buffer_get_size (gst_sample_get_buffer (in));
      gst_sample_unref (in);
    }
    for (i = 0; i < (no_steps ? 0 : N_STAGES); i++) {
      GstSample *in;
      gchar *d, *named;
      Timing t;
      gint next = (i == 0 && !shape->pad) ? 2 : i + 1;
      gdouble mb = (sizes[i] + sizes[next]) / per / 1e6;

      if (i == 1 && !shape->pad)
        continue;
      in = capture_input (shape, i);
      d = stage_desc (shape, i);
      named = g_strdup_printf ("%s name=el%s", d, on_cuda ()?
          " gpu-timing=true" : "");
      /* on CUDA the output stays on the GPU, as it does inside a chain */
      t = time_chain (named, on_cuda () && i < N_STAGES - 1 ?
          "application/x-aooct(memory:CUDAMemory)" : NULL, in, buffers,
          FEED_SYSTEM, FALSE);
      sum += t.ms / per;
      gpu_sum += t.gpu_ms / per;
      mb_sum += mb;
      if (on_cuda ()) {
        gdouble bound = have_ceil ? mb * 1e6 / (ceil.d2d_gbs * 1e9) * 1e3 : 0;

        bound_sum += bound;
        emit (table, out, "| %s | %.4f | %.3g | %.4f | %.2f | %.4f |\n",
            stage_names[i], t.ms / per, shape->alines / (t.ms / per / 1e3),
            t.gpu_ms / per, mb, bound);
      } else {
        emit (table, out, "| %s | %.3f | %.3g |\n", stage_names[i],
            t.ms / per, shape->alines / (t.ms / per / 1e3));
      }
      g_free (t.host);
      g_free (named);
      g_free (d);
      gst_sample_unref (in);
    }
    if (no_steps);
    else if (on_cuda ())
      emit (table, out, "| sum of steps | %.4f | %.3g | %.4f | %.2f | %.4f |"
          "\n\n", sum, shape->alines / (sum / 1e3), gpu_sum, mb_sum, bound_sum);
    else
      emit (table, out, "| sum of steps | %.3f | %.3g |\n\n", sum,
          shape->alines / (sum / 1e3));

    raw = capture_input (shape, 0);
    chain = chain_desc (shape, 0, N_STAGES - 1);
    emit (table, out, "| whole chain (appsrc ! ... ! fakesink) "
        "| ms per B-scan | A-lines/s | latency median / max, ms per buffer "
        "|\n|---|---:|---:|---:|\n");
    whole = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
        FEED_SYSTEM, FALSE);
    emit_row (table, out, "**raw B-scans in ordinary system memory, GRAY8 "
        "image in system memory**", &whole, shape);
    host_note = whole.host;
    if (on_cuda ()) {
      Timing t;

      t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
          raw, buffers, FEED_SYSTEM, FALSE);
      emit_row (table, out, "raw B-scans in ordinary system memory, image "
          "left on the GPU (NV12, CUDA memory)", &t, shape);
      g_free (t.host);
      pinned = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
          FEED_PINNED, FALSE);
      emit_row (table, out, "**raw B-scans in page-locked memory (pool "
          "proposed by aooctdcsub), GRAY8 image in system memory**", &pinned,
          shape);
      t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
          raw, buffers, FEED_PINNED, FALSE);
      emit_row (table, out, "raw B-scans in page-locked memory (pool "
          "proposed by aooctdcsub), image left on the GPU (NV12, CUDA "
          "memory)", &t, shape);
      g_free (t.host);
      /* without CUDA graphs (on by default, cuda/aooct-cuda-graph.h):
       * every kernel launched one by one */
      with_cuda_graphs = FALSE;
      graphs = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
          FEED_PINNED, FALSE);
      emit_row (table, out, "the same page-locked GRAY8 row with "
          "cuda-graphs=false (every kernel launched one by one)",
          &graphs, shape);
      t = time_chain (chain, "video/x-raw,format=GRAY8", raw, MIN (buffers,
              100), FEED_PINNED, TRUE);
      with_cuda_graphs = -1;
      emit_row (table, out, "latency without load with cuda-graphs=false",
          &t, shape);
      g_free (t.host);
      /* one B-scan per buffer is bound by each element's host work on
       * one streaming thread: the same work on two, then three threads */
      {
        gchar *a = chain_desc (shape, 0, 0), *b = chain_desc (shape, 1, 5);

        queued = g_strdup_printf ("%s ! " SHORT_QUEUE " ! %s", a, b);
        t = time_chain (queued, "video/x-raw,format=GRAY8", raw, buffers,
            FEED_PINNED, FALSE);
        emit_row (table, out, "the same page-locked GRAY8 row on two "
            "threads (a short queue after aooctdcsub)", &t, shape);
        g_free (t.host);
        g_free (queued);
        g_free (a);
        g_free (b);
      }
      queued = chain_queued_desc (shape);
      t = time_chain (queued, "video/x-raw,format=GRAY8", raw, buffers,
          FEED_PINNED, FALSE);
      emit_row (table, out, "the same page-locked GRAY8 row on three "
          "threads (a short queue after aooctdcsub and after aooctfft)", &t,
          shape);
      g_free (t.host);
      with_cuda_graphs = FALSE;
      t = time_chain (queued, "video/x-raw,format=GRAY8", raw, buffers,
          FEED_PINNED, FALSE);
      emit_row (table, out, "the same on three threads with cuda-graphs=false",
          &t, shape);
      g_free (t.host);
      with_cuda_graphs = -1;
      t = time_chain (queued, "video/x-raw,format=GRAY8", raw, MIN (buffers,
              100), FEED_PINNED, TRUE);
      emit_row (table, out, "latency without load on three threads", &t, shape);
      g_free (t.host);
      {
        gchar *each = chain_desc (shape, 0, N_STAGES - 1), **steps, *all;

        /* a thread per element: how far spreading the host work goes */
        steps = g_strsplit (each, " ! ", -1);
        all = g_strjoinv (" ! " SHORT_QUEUE " ! ", steps);
        t = time_chain (all, "video/x-raw,format=GRAY8", raw, buffers,
            FEED_PINNED, FALSE);
        emit_row (table, out, "the same page-locked GRAY8 row with a short "
            "queue after every element (a thread each)", &t, shape);
        g_free (t.host);
        g_strfreev (steps);
        g_free (all);
        g_free (each);
      }
      /* where the GPU time goes: each element's own GPU work per buffer
       * (CUDA events around it), against the wall time per buffer */
      with_gpu_timing = TRUE;
      t = time_chain (chain, "video/x-raw,format=GRAY8", raw, buffers,
          FEED_PINNED, FALSE);
      emit_row (table, out, "the page-locked GRAY8 row with gpu-timing=true "
          "(GPU time per element below)", &t, shape);
      gpu_note = g_strdup_printf ("one thread %.4f ms per buffer: %s",
          t.ms, t.host ? t.host : "");
      g_free (t.host);
      t = time_chain (queued, "video/x-raw,format=GRAY8", raw, buffers,
          FEED_PINNED, FALSE);
      with_gpu_timing = FALSE;
      emit_row (table, out, "the same on three threads with gpu-timing=true",
          &t, shape);
      gpu_note3 = g_strdup_printf ("three threads %.4f ms per buffer: %s",
          t.ms, t.host ? t.host : "");
      g_free (t.host);
      g_free (queued);
      t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
          raw, buffers, FEED_DEVICE, FALSE);
      if (have_ceil && t.ms > 0 && bound_sum > 0) {
        gchar *label = g_strdup_printf ("device-resident: raw B-scans in "
            "CUDA memory, image left on the GPU (NV12): %.0f %% of the "
            "D2D bound", 100.0 * bound_sum / (t.ms / per));

        emit_row (table, out, label, &t, shape);
        g_free (label);
      } else {
        emit_row (table, out, "device-resident: raw B-scans in CUDA memory, "
            "image left on the GPU (NV12)", &t, shape);
      }
      g_free (t.host);
      /* the same without the deferred steps (gst/aooct-pending-meta.h):
       * what fusing kmap, disp and the window into one pass gains */
      with_defer_steps = FALSE;
      t = time_chain (chain, "video/x-raw(memory:CUDAMemory),format=NV12",
          raw, buffers, FEED_DEVICE, FALSE);
      with_defer_steps = -1;
      emit_row (table, out, "device-resident, steps not fused "
          "(defer-steps=false: aooctkmap and aooctdisp each make their own "
          "pass)", &t, shape);
      g_free (t.host);
      t = time_chain (chain, "video/x-raw,format=GRAY8", raw, MIN (buffers,
              100), FEED_PINNED, TRUE);
      emit_row (table, out, "latency without load: one buffer at a time, "
          "raw in page-locked memory, GRAY8 image in system memory", &t, shape);
      g_free (t.host);
      if (have_ceil) {
        gdouble h2d = sizes[0] / per / (ceil.h2d_gbs * 1e9) * 1e3;

        emit (table, out, "| bound: upload of the raw B-scan at the pinned "
            "H2D ceiling | %.4f | %.3g | |\n", h2d,
            shape->alines / (h2d / 1e3));
        if (!no_steps) {
          emit (table, out, "| bound: memory traffic of the steps at the "
              "D2D ceiling | %.4f | %.3g | |\n", bound_sum,
              shape->alines / (bound_sum / 1e3));
          emit (table, out, "| GPU time of the steps (sum, each alone) | "
              "%.4f | %.3g | |\n", gpu_sum, shape->alines / (gpu_sum / 1e3));
        }
      }
    }
    if (fullrange) {
      emit (table, out, "\n");
      aooct_bench_fullrange_rows (table, out, shape, raw, buffers);
    }
    if (flow) {
      emit (table, out, "\n");
      aooct_bench_flow_rows (table, out, shape, raw, buffers);
    }
    if (!no_files)
      file_rows (table, out, shape, raw, buffers, on_cuda ()? &pinned : NULL);
    emit (table, out, "\nHost time per buffer in each element's transform, "
        "whole chain into GRAY8 (ms), raw B-scans in ordinary system "
        "memory: %s\n", host_note ? host_note : "");
    if (pinned.host)
      emit (table, out, "\nthe same, raw B-scans in page-locked memory: "
          "%s\n", pinned.host);
    if (graphs.host)
      emit (table, out, "\nthe same, page-locked, cuda-graphs=false: "
          "%s\n", graphs.host);
    g_free (graphs.host);
    if (gpu_note)
      emit (table, out, "\nHost (and GPU) ms per buffer of each element, "
          "page-locked, gpu-timing=true, %s\n\nthe same, %s\n", gpu_note,
          gpu_note3 ? gpu_note3 : "");
    g_free (gpu_note);
    g_free (gpu_note3);
    emit (table, out, "\n");
    g_free (pinned.host);
    g_free (host_note);
    g_free (chain);
    gst_sample_unref (raw);
  }
  fclose (out);
  if (shared_cuda)
    gst_context_unref (shared_cuda);
  g_print ("table written to %s\n", output);
  g_string_free (table, TRUE);
  return 0;
}
