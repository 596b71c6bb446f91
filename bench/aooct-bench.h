/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: what the benchmark files (aooct-bench-steps.c, -chain.c,
 * -files.c, -scale.c, -packed.c, -flow.c, -fullrange.c, -cs.c, -views.c,
 * -machine.c: one benchmark each) share with the driver (aooct-bench.c):
 * the shapes, the timing of a chain fed from appsrc (aooct-bench-run.c),
 * and the table. */
#ifndef __AOOCT_BENCH_H__
#define __AOOCT_BENCH_H__

#include <stdio.h>
#include <gst/gst.h>

#define N_STAGES 6
#define WARMUP 5

/* page-locked pool buffers filled once and pushed round-robin: more than
 * appsrc's queue (4) plus what aooctdcsub holds while their copies run */
#define N_PINNED 8
/* how many of them a run uses: N_PINNED per branch with --scale-out
 * (each branch holds its own) */
#define N_PINNED_MAX 64

/* The chain on three streaming threads: a queue after aooctdcsub and one
 * after aooctfft, so that the upload, the resampling and transform, and
 * the log scale and download of consecutive buffers run on different
 * threads (each element's host work per buffer is what bounds one B-scan
 * per buffer); short queues, so that latency stays a few buffers. */
#define SHORT_QUEUE "queue max-size-buffers=3 max-size-bytes=0 max-size-time=0"

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

/* What a benchmark of a shape is run with: the options and the header's
 * measurements (aooct-bench-machine.c) */
typedef struct
{
  GString *table;               /* the table so far */
  FILE *out;                    /* --output */
  gint buffers;                 /* --buffers */
  gboolean no_steps, no_files, fullrange, flow;
  gboolean org;                 /* --org (aooct-bench-org.c) */
  gboolean have_ceil;           /* the copy ceilings below were measured */
  gdouble h2d_gbs, d2d_gbs;     /* pinned H2D, D2D (read + written), GB/s */
} Bench;

/* --backend */
extern gchar *backend;
/* --interpolation: aooctkmap's (NULL: linear) */
extern gchar *interpolation;
/* --file-dir: where the file rows write their raw files (NULL: the
 * temporary directory) */
extern gchar *file_dir;
/* images the sink of time_chain() gets per buffer pushed (1 unless the
 * chain ends in an element that makes one image of several B-scans) */
extern gdouble outputs_per_input;
/* page-locked buffers time_chain() fills for FEED_PINNED (N_PINNED, up to
 * N_PINNED_MAX) */
extern guint n_pinned;
/* The base class's cuda-graphs and defer-steps for every aooct element of
 * the next pipelines (rows that measure them): TRUE / FALSE, or -1 to
 * leave the element's default. */
extern gint with_cuda_graphs, with_defer_steps;
/* gpu-timing=true on every aooct element (rows that break the GPU time
 * down per element) */
extern gboolean with_gpu_timing;
/* --thread-times: time_chain() reads each thread's CPU time at the start
 * and the end of its timed part; emit_row() and the scale-out rows print
 * it after their row (to stdout only, not into the table) */
extern gboolean thread_times;

gboolean on_cuda (void);
/* the element of stage @stage (0 aooctdcsub .. 5 aooctnorm) for @shape */
gchar *stage_desc (const Shape * shape, gint stage);
/* stages @first .. @last joined by " ! " (aooctpad left out where @shape
 * has no padding) */
gchar *chain_desc (const Shape * shape, gint first, gint last);
/* the whole chain with a SHORT_QUEUE after aooctdcsub and after aooctfft */
gchar *chain_queued_desc (const Shape * shape);
/* gst_parse_launch of @desc with the with_* settings and the run's CUDA
 * context; exits on a launch line that does not parse */
GstElement *launch (const gchar * desc);
/* EOS within 10 minutes; FALSE with a message naming @what otherwise */
gboolean wait_eos (GstElement * pipeline, const gchar * what);
/* "aooctdcsub 0.012, aooctpad 0.008, ...": each aooct element's mean host
 * time in transform per buffer (g_free) */
gchar *host_times (GstElement * pipeline);
/* one buffer of what stage @stage sees (the raw B-scans for 0) */
GstSample *capture_input (const Shape * shape, gint stage);
/* @desc (an element named "el" gets its GPU time read) fed @n times (after
 * WARMUP) with @input from @feed, into @sink_caps */
Timing time_chain (const gchar * desc, const gchar * sink_caps,
    GstSample * input, gint n, Feed feed, gboolean paced);
/* a line to stdout, @out and @table */
void
emit (GString * table, FILE * out, const gchar * fmt, ...)
G_GNUC_PRINTF (3, 4);
/* one whole-chain row: per B-scan and latency, or why there is none;
 * then, with thread_times, the threads of the last time_chain() */
     void emit_row (GString * table, FILE * out, const gchar * label,
    const Timing * t, const Shape * shape);
/* with thread_times: the CPU time of the threads in the timed part of the
 * last time_chain(), to stdout (once; nothing when there is none) */
     void emit_thread_times (void);

/* drops what the run's pipelines shared (their CUDA context) */
     void aooct_bench_run_done (void);

/* the title line, the thread hand-over and, on CUDA, the GPU's copy
 * ceilings (into @b) and the host cost of CUDA calls
 * (aooct-bench-machine.c) */
     void aooct_bench_machine_rows (Bench * b);
/* the per-element rows of @shape (aooct-bench-steps.c; none with
 * --no-steps) and what the whole-chain rows compare with */
     typedef struct
     {
       gdouble raw_bytes;       /* bytes of raw samples per B-scan */
       gdouble gpu_sum, bound_sum;      /* the steps' GPU time and D2D bound, ms */
     } StepSums;
     StepSums aooct_bench_step_rows (Bench * b, const Shape * shape);
/* the whole section of @shape (aooct-bench-chain.c): the steps, the whole
 * chain in each memory and thread layout, then the --fullrange, --flow
 * and file rows and the host-time notes */
     void aooct_bench_shape_rows (Bench * b, const Shape * shape);
/* the rows of a recorded raw file of @shape (aooct-bench-files.c);
 * @pinned: the page-locked appsrc row to compare with, or NULL */
     void aooct_bench_file_rows (Bench * b, const Shape * shape,
    GstSample * raw, const Timing * pinned);
/* --packed: the whole chain of @shape on packed raw B-scans against
 * GRAY16_LE ones (aooct-bench-packed.c) */
     void aooct_bench_packed_rows (Bench * b, const Shape * shape);
/* --scale-out: the rows of docs/scale-out.md on the devices of @gpus
 * (aooct-bench-scale.c) */
     void aooct_bench_scale_rows (Bench * b, const gchar * gpus);

/* --flow: aooctdoppler and aooctangio (spec section 12) on @shape, alone
 * and at the end of the chain fed with @raw */
     void aooct_bench_flow_rows (GString * table, FILE * out,
    const Shape * shape, GstSample * raw, gint buffers);

/* --aooct: aooctregister alone and the chain to aooctregister !
 * aooctnorm on @shape (aooct-bench-register.c) */
     void aooct_bench_register_rows (GString * table, FILE * out,
    const Shape * shape, gint buffers);
/* One element at the end of the chain (aooct-bench-flow.c): @name with
 * @props alone on aooctfft's output and after the chain fed with @raw, in
 * each memory; @group B-scans per image (0: one image per buffer). */
     void aooct_bench_element_rows (GString * table, FILE * out,
    const Shape * shape, GstSample * raw, GstSample * depth, gint buffers,
    const gchar * name, const gchar * props, gint group);
/* --org: aooctorg (spec section 13) the same way (aooct-bench-org.c) */
     void aooct_bench_org_rows (GString * table, FILE * out,
    const Shape * shape, GstSample * raw, gint buffers);

/* --fullrange: aooctfullrange alone, then the chain with it after
 * aooctdcsub fed with @raw (aooct-bench-fullrange.c) */
     void aooct_bench_fullrange_rows (GString * table, FILE * out,
    const Shape * shape, GstSample * raw, gint buffers);
/* --cs: aooctcs at 2048 x 1000, 40 % of the spectrum, each operator, then
 * the chain through it (aooct-bench-cs.c) */
     void aooct_bench_cs_rows (GString * table, FILE * out, gint buffers);
/* --views: the chain to depth on the volume of Jian et al. with each view
 * and all three (aooct-bench-views.c) */
     void aooct_bench_views_rows (GString * table, FILE * out, gint volumes);

#endif /* __AOOCT_BENCH_H__ */
