/* aooct-bench: throughput of each aooct element and of the whole chain.
 *
 * For every shape it captures, once, the input each element sees (by running
 * aooctsrc and the preceding elements into an appsink), then times each
 * element alone (appsrc ! element ! fakesink) and the whole chain, pushing
 * the same B-scans again and again.  Times exclude a warm-up (plans, tables,
 * first-touch allocations): the clock starts when the warm-up buffers have
 * reached the sink.  It prints a table and writes the same table to a file.
 *
 *   aooct-bench [--backend cpu|cuda|auto] [--buffers N] [--output FILE]
 *               [--shape thesis|2048x1000|1024-nopad|all]
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include "aooct-synth.h"

#define N_STAGES 6
#define WARMUP 5

typedef struct
{
  const gchar *name;
  gint samples, alines;
  gboolean pad;                 /* aooctpad size=2048 factor=2 in the chain */
} Shape;

static const Shape shapes[] = {
  {"thesis", 832, 240, TRUE},
  {"2048x1000", 2048, 1000, TRUE},
  {"1024-nopad", 1024, 1000, FALSE},
};

static const gchar *stage_names[N_STAGES] = {
  "aooctdcsub", "aooctpad", "aooctkmap", "aooctdisp", "aooctfft", "aooctnorm"
};

static gchar *backend = NULL;

/* One CUDA context for every pipeline of the run (taken from the first
 * pipeline that made one): device memory captured in one pipeline is then
 * used in place by the next, as it would be inside one pipeline. */
static GstContext *shared_cuda = NULL;

static gboolean
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

static gchar *
stage_desc (const Shape * shape, gint stage)
{
  const gchar *bk = backend ? backend : "auto";

  switch (stage) {
    case 0:
      return g_strdup_printf ("aooctdcsub backend=%s", bk);
    case 1:
      return g_strdup_printf ("aooctpad size=2048 factor=2 backend=%s", bk);
    case 2:
      return g_strdup_printf ("aooctkmap wavelength-coeffs=\"%s\" backend=%s",
          AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS, bk);
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

static gchar *
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

static GstElement *
launch (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);

  if (p == NULL) {
    g_printerr ("cannot build '%s': %s\n", desc, err->message);
    exit (1);
  }
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
static GstSample *
capture_input (const Shape * shape, gint stage)
{
  gchar *chain = stage > 0 ? chain_desc (shape, 0, stage - 1) : g_strdup ("");
  /* on CUDA, keep the captured buffer in device memory */
  gchar *desc = g_strdup_printf ("aooctsrc samples=%d alines=%d "
      "num-buffers=1 ! %s%s appsink name=sink sync=false%s", shape->samples,
      shape->alines, chain, stage > 0 ? " !" : "", stage > 0 && on_cuda ()?
      " caps=application/x-aooct(memory:CUDAMemory)" : "");
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
  gint count;
  gint64 t_start, t_end;
} Clock;

static GstPadProbeReturn
count_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Clock *c = user_data;

  c->count++;
  if (c->count == WARMUP)
    c->t_start = g_get_monotonic_time ();
  c->t_end = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* Milliseconds per buffer of @desc fed with @input @n times. */
static gdouble
time_chain (const gchar * desc, GstSample * input, gint n)
{
  gchar *full = g_strdup_printf ("appsrc name=src format=time ! %s ! "
      "fakesink name=sink sync=false", desc);
  GstElement *p = launch (full);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBuffer *buf = gst_sample_get_buffer (input);
  Clock c = { 0, 0, 0 };
  gdouble ms = -1;
  gint i;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffers, &c, NULL);
  g_object_set (src, "caps", gst_sample_get_caps (input), "block", TRUE,
      "max-buffers", (guint64) 4, NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (i = 0; i < n + WARMUP; i++) {
    GstBuffer *b = gst_buffer_copy (buf);       /* shares the memory */
    GST_BUFFER_PTS (b) = i * GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  if (wait_eos (p, desc) && c.count == n + WARMUP) {
    GstSample *last = NULL;

    /* On CUDA the elements enqueue GPU work and return: the last buffer
     * reaching the sink does not mean the GPU is done.  Mapping it on the
     * host waits for the last GPU work on it, which every earlier step of
     * every earlier buffer is ordered before. */
    g_object_get (sink, "last-sample", &last, NULL);
    if (last) {
      GstMapInfo map;
      if (gst_buffer_map (gst_sample_get_buffer (last), &map, GST_MAP_READ))
        gst_buffer_unmap (gst_sample_get_buffer (last), &map);
      c.t_end = g_get_monotonic_time ();
      gst_sample_unref (last);
    }
    ms = (c.t_end - c.t_start) / 1000.0 / (n);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (full);
  return ms;
}

static void
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

int
main (int argc, char **argv)
{
  gint buffers = 50;
  gchar *output = NULL, *only = NULL;
  GOptionEntry entries[] = {
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
        "cpu, cuda or auto (default auto)", "B"},
    {"buffers", 'n', 0, G_OPTION_ARG_INT, &buffers,
        "B-scans timed per measurement (after 5 warm-up)", "N"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
        "also write the table to FILE (default bench-results.md)", "FILE"},
    {"shape", 's', 0, G_OPTION_ARG_STRING, &only,
        "thesis, 2048x1000, 1024-nopad or all (default thesis)", "S"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- aooct throughput benchmark");
  GError *err = NULL;
  GString *table = g_string_new (NULL);
  FILE *out;
  guint s;

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
    only = g_strdup ("thesis");
  out = fopen (output, "w");
  if (!out) {
    g_printerr ("cannot write %s\n", output);
    return 2;
  }

  emit (table, out, "# aooct benchmark (backend %s, %d B-scans per figure, "
      "%d CPU threads)\n\n", backend ? backend : "auto", buffers,
      (gint) g_get_num_processors ());
  for (s = 0; s < G_N_ELEMENTS (shapes); s++) {
    const Shape *shape = &shapes[s];
    gdouble total_ms, sum = 0;
    gint i;
    gchar *chain;
    GstSample *raw;

    if (g_strcmp0 (only, "all") != 0 && g_strcmp0 (only, shape->name) != 0)
      continue;
    emit (table, out, "## %s: %d samples x %d A-lines%s, log output\n\n",
        shape->name, shape->samples, shape->alines,
        shape->pad ? ", padded 2048 -> 4096" : ", no padding");
    emit (table, out, "| step | ms per B-scan | A-lines/s |\n"
        "|---|---:|---:|\n");
    for (i = 0; i < N_STAGES; i++) {
      GstSample *in;
      gchar *d;
      gdouble ms;

      if (i == 1 && !shape->pad)
        continue;
      in = capture_input (shape, i);
      d = stage_desc (shape, i);
      if (on_cuda () && i < N_STAGES - 1) {
        /* the output stays on the GPU, as it does inside a chain */
        gchar *t = g_strdup_printf ("%s ! application/x-aooct"
            "(memory:CUDAMemory)", d);
        g_free (d);
        d = t;
      }
      ms = time_chain (d, in, buffers);
      sum += ms;
      emit (table, out, "| %s | %.3f | %.3g |\n", stage_names[i], ms,
          shape->alines / (ms / 1000.0));
      g_free (d);
      gst_sample_unref (in);
    }
    raw = capture_input (shape, 0);
    chain = chain_desc (shape, 0, N_STAGES - 1);
    total_ms = time_chain (chain, raw, buffers);
    emit (table, out, "| sum of steps | %.3f | %.3g |\n", sum,
        shape->alines / (sum / 1000.0));
    emit (table, out, "| **whole chain** | **%.3f** | **%.3g** |\n\n",
        total_ms, shape->alines / (total_ms / 1000.0));
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
