/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: what the row files (aooct-bench-flow.c) share with the
 * driver (aooct-bench.c): the shapes, the timing of a chain fed from
 * appsrc, and the table. */
#ifndef __AOOCT_BENCH_H__
#define __AOOCT_BENCH_H__

#include <stdio.h>
#include <gst/gst.h>

#define N_STAGES 6
#define WARMUP 5

/* Where the raw B-scans pushed into the whole chain lie. */
typedef enum
{
  FEED_SYSTEM,                  /* gst_buffer_copy of the captured frame */
  FEED_PINNED,                  /* aooctdcsub's page-locked pool */
  FEED_DEVICE                   /* aooct device memory (CUDA caps) */
} Feed;

typedef struct
{
  const gchar *name;
  gint samples, alines;
  gboolean pad;                 /* aooctpad size=2048 factor=2 in the chain */
  gint per_buffer;              /* B-scans per buffer */
} Shape;

typedef struct
{
  gdouble ms;                   /* wall time per buffer, -1 on failure */
  gdouble lat_med_ms, lat_max_ms;       /* entry to sink, timed buffers */
  gdouble gpu_ms;               /* mean GPU time of the element "el" */
  gchar *host;                  /* host time per buffer in each element */
  gdouble gpu_total_ms;         /* its GPU time over the whole run */
} Timing;

/* --backend */
extern gchar *backend;
/* images the sink of time_chain() gets per buffer pushed (1 unless the
 * chain ends in an element that makes one image of several B-scans) */
extern gdouble outputs_per_input;

gboolean on_cuda (void);
/* the element of stage @stage (0 aooctdcsub .. 5 aooctnorm) for @shape */
gchar *stage_desc (const Shape * shape, gint stage);
/* stages @first .. @last joined by " ! " (aooctpad left out where @shape
 * has no padding) */
gchar *chain_desc (const Shape * shape, gint first, gint last);
/* one buffer of what stage @stage sees (the raw B-scans for 0) */
GstSample *capture_input (const Shape * shape, gint stage);
/* @desc (an element named "el" gets its GPU time read) fed @n times (after
 * WARMUP) with @input from @feed, into @sink_caps */
Timing time_chain (const gchar * desc, const gchar * sink_caps,
    GstSample * input, gint n, Feed feed, gboolean paced);
/* a line to stdout, @out and @table */
void emit (GString * table, FILE * out, const gchar * fmt, ...)
    G_GNUC_PRINTF (3, 4);
/* one whole-chain row: per B-scan and latency, or why there is none */
void emit_row (GString * table, FILE * out, const gchar * label,
    const Timing * t, const Shape * shape);

/* --flow: aooctdoppler and aooctangio (spec section 12) on @shape, alone
 * and at the end of the chain fed with @raw */
void aooct_bench_flow_rows (GString * table, FILE * out, const Shape * shape,
    GstSample * raw, gint buffers);

#endif /* __AOOCT_BENCH_H__ */
