/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: the file rows, the pipelines a user runs on a recorded raw
 * file (through gst_parse_launch, the file just written, so in the page
 * cache): filesrc ! rawvideoparse and aooctfilesrc, each alone into a
 * fakesink and in front of the chain, with and without a queue, and
 * aooctsrc likewise; each with the time every element holds a buffer. */
#include <stdio.h>
#include <string.h>
#include <gst/gst.h>
#include <glib/gstdio.h>

#include "aooct-bench.h"

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
 * it, and aooctsrc likewise; the ratios the targets name. */
void
aooct_bench_file_rows (Bench * b, const Shape * shape, GstSample * raw,
    const Timing * pinned)
{
  GString *table = b->table;
  FILE *out = b->out;
  const gint buffers = b->buffers;
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
