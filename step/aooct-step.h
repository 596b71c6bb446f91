/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the step contract, one plan interface per step, the same on both
 * backends.
 *
 * Every step core of cpu/ and cuda/ has one shape (the plan interface of
 * FFTW and cuFINUFFT):
 *
 *   Aooct<Backend><Step>Plan *aooct_<backend>_<step>_plan_new (geometry,
 *       the step's settings (tables, params), [GError **]);
 *   aooct_<backend>_<step>_execute (plan, in, [in_stride,] out,
 *       [out_stride,] [this buffer's settings,] [stream, GError **]);
 *   void aooct_<backend>_<step>_plan_free (plan);
 *
 * plan_new does what is done once per geometry (tables, FFT plans, device
 * memory and uploads); execute runs one buffer (CPU: returns void where it
 * cannot fail; CUDA: enqueues on the stream and returns FALSE with the
 * error set on a failed launch).  A core that keeps state from buffer to
 * buffer also has _reset (start over, after a flush) and, on CUDA,
 * _rewind (forget what the last execute marked as done, after a failed
 * CUDA graph capture).  A core that collects several buffers into one
 * output (the views, angio) has two executes: _execute_collect and
 * _execute_emit.  The fused CUDA pass of the pointwise steps before the
 * FFT (cuda/aooct-cuda-prep.h) is a plan too, whose execute takes the
 * steps deferred to it.
 *
 * An element wraps its step in the same shape: one AooctStepOps per
 * backend, plan_new() builds the plan (of one or more cores) for the
 * negotiated geometry and the settings the element's setup() gave,
 * execute() runs it on one buffer, plan_free() frees it.  The element
 * names its two ops in class_init (GstAooctFilterClass's cpu_ops,
 * cuda_ops); the base class picks one when the element starts and calls
 * it without knowing which (gst/filter/gstaooctfilter.c makes it,
 * gst/backend/aooct-filter-buffers.c and gst/backend/aooct-cuda-buffer.c
 * run it), so
 * nothing in an element's step branches on the backend.
 *
 * The CPU ops get host pointers and a run whose CUDA fields are NULL /
 * FALSE; the CUDA ops get device pointers on the element's CUDA context
 * (current during every call, also plan_new and plan_free), enqueue their
 * work on run->stream and return without waiting for it (the base class
 * orders it after the producer of the input and before every consumer of
 * the output, and waits for the GPU before plan_free()). */
#ifndef __AOOCT_STEP_H__
#define __AOOCT_STEP_H__

#include <glib.h>

#include "aooct-geometry.h"

G_BEGIN_DECLS
/* No GStreamer here (the cores' side of the house knows none): what the
 * GStreamer side hands a step through the contract is named, not
 * included.  The steps an upstream element deferred to this one are an
 * AooctPendingMeta (gst/support/aooct-pending-meta.h), the image of a
 * video output a GstVideoInfo; an element that reads them includes their
 * headers.  The CUDA stream is a CUstream (cudaStream_t). */
typedef struct _AooctPendingMeta AooctPendingMeta;
struct _GstVideoInfo;
struct CUstream_st;

/* One mapped buffer as a step sees it: A-line (or image row) r starts at
 * data + r * stride (host memory on the CPU, device memory on CUDA). */
typedef struct
{
  guint8 *data;
  gsize stride;
} AooctPlane;

/* What one buffer's execute() gets besides its planes. */
typedef struct
{
  /* CUDA: the stream to enqueue on (CUstream); CPU: NULL */
  struct CUstream_st *stream;
  /* CUDA, for a class with absorbs_pending: the steps an upstream element
   * deferred to this one for this buffer (its data are then the real
   * spectra before them), or NULL */
  const AooctPendingMeta *pending;
  /* CUDA, for a class with leaves_pending, when downstream applies
   * pending steps: the output buffer's meta, to which the step may add
   * the part of it that it leaves to downstream; else NULL */
  AooctPendingMeta *out_pending;
  /* CUDA: the input is device memory that nobody else holds, so the step
   * may overwrite it (as a scratch) */
  gboolean in_disposable;
  /* what the element read for this buffer of its live (PLAYING-mutable)
   * properties, in the step's own settings type; NULL when it has none */
  gconstpointer live;
  /* the input buffer's GST_BUFFER_OFFSET (aooct's sources: the index of
   * its first B-scan in the stream), for messages about the data; else
   * GST_BUFFER_OFFSET_NONE */
  guint64 in_offset;
} AooctStepRun;

typedef struct _AooctStepOps AooctStepOps;

/* What a plan is made for: the negotiated caps, as the element's
 * in_geom, out_geom, out_vinfo and in_positions hold them (valid during
 * plan_new only). */
typedef struct
{
  const AooctGeometry *in, *out;
  /* the image of a video output */
  const struct _GstVideoInfo *out_vinfo;
  const gdouble *in_positions;  /* sample positions of uneven k, or NULL */
} AooctStepShape;

struct _AooctStepOps
{
  /* The plan for @shape with @settings (the step's settings type, filled
   * by the element's setup(), which keeps it unchanged until
   * plan_free()).  NULL with @error set when it cannot be built. */
  gpointer (*plan_new) (const AooctStepShape * shape, gconstpointer settings,
      GError ** error);

  /* One buffer: @in and @out are rows @stride bytes apart (host memory on
   * the CPU, device memory on CUDA). */
  gboolean (*execute) (gpointer plan, const AooctPlane * in, AooctPlane * out,
      const AooctStepRun * run, GError ** error);

  /* Frees @plan (NULL allowed). */
  void (*plan_free) (gpointer plan);

  /* Optional.  @reset: what the plan keeps from buffer to buffer (a ring
   * of past B-scans) starts over, after a flush.  @rewind (CUDA): a CUDA
   * graph capture of the last execute() failed, so nothing of it ran and
   * it is called again: the plan forgets what that call marked as done
   * (tables uploaded, ring advanced). */
  void (*reset) (gpointer plan);
  void (*rewind) (gpointer plan);
  /* Optional (CUDA, cuda-graphs=true): lets a buffer launch again the CUDA
   * graph captured for an earlier buffer with the same key instead of
   * calling execute() (aooct-cuda-graph.h), which saves the host most of
   * a step's cost per buffer.  The base class keys the planes' pointers
   * and strides, in_disposable, whether out_pending is set and the
   * pending steps' scalars and table serials; graph_key() writes into
   * @key (at most AOOCT_STEP_GRAPH_KEY bytes) whatever else decides what
   * execute() would enqueue for @run (the live settings it passes to its
   * kernels) and does what execute() does besides enqueuing (what it
   * writes into run->out_pending), since execute() is not called for a
   * buffer that hits.  It returns the length it wrote (0 when nothing
   * else matters), or -1 when this buffer must run execute() (a table
   * still to upload, state that moves from buffer to buffer).  Without
   * it, execute() runs for every buffer. */
    gssize (*graph_key) (gpointer plan, const AooctStepRun * run, guint8 * key);
  /* Optional: at EOS (CUDA context current), the plan finishes what it
   * hands the element on the host for the buffers so far (aooctregister's
   * shifts, which the GPU computed after execute() returned), so that the
   * element's messages and files are complete before EOS goes on.  FALSE
   * with @error set when the GPU work failed. */
    gboolean (*drain) (gpointer plan, GError ** error);
};

/* the most bytes graph_key() may write */
#define AOOCT_STEP_GRAPH_KEY 64

/* An element's op that only forwards to its step core, as one line:
 *
 *   AOOCT_STEP_FORWARD_PLAN_NEW (angio_cpu_plan_new,
 *       aooct_cpu_angio_plan_new (settings));
 *   AOOCT_STEP_FORWARD_PLAN_OP (angio_cpu_plan_free,
 *       aooct_cpu_angio_plan_free);
 *
 * defines `static gpointer NAME (shape, settings, error)` returning
 * @core_call (which may use those three parameters: a core takes its
 * settings, or the input geometry shape->in, with or without @error) and
 * `static void NAME (plan)` calling @core_fn (plan) (plan_free, reset).
 * Ops that do more than forward (unpack run->live, hold a struct of
 * plans) stay written out. */
#define AOOCT_STEP_FORWARD_PLAN_NEW(name, core_call) \
  static gpointer \
  name (const AooctStepShape * shape, gconstpointer settings, \
      GError ** error) \
  { \
    return core_call; \
  }
#define AOOCT_STEP_FORWARD_PLAN_OP(name, core_fn) \
  static void \
  name (gpointer plan) \
  { \
    core_fn (plan); \
  }

/* A step as the base class holds it: the ops of the active backend and
 * the plan they made. */
typedef struct
{
  const AooctStepOps *ops;
  gpointer plan;
  guint serial;                 /* of the plan: a new one per plan_new */
} AooctStep;

/* Makes the plan of @ops (the active backend's, which the caller
 * chose) for @shape with @settings.  FALSE with @error set when it cannot
 * be built (@step then holds nothing). */
gboolean aooct_step_plan_new (AooctStep * step, const AooctStepOps * ops,
    const AooctStepShape * shape, gconstpointer settings, GError ** error);

/* execute() of @step's plan on one buffer with @run (on the CPU: no
 * stream, nothing pending; on CUDA: the stream, the pending steps and
 * the disposability of the current buffer). */
gboolean aooct_step_execute (AooctStep * step, const AooctPlane * in,
    AooctPlane * out, const AooctStepRun * run, GError ** error);

/* Frees the plan (if any); @step then holds nothing. */
void aooct_step_plan_free (AooctStep * step);

/* The plan's reset / rewind / drain, where it has one (and @step holds a
 * plan; drain is TRUE otherwise). */
void aooct_step_reset (AooctStep * step);
gboolean aooct_step_drain (AooctStep * step, GError ** error);
void aooct_step_rewind (AooctStep * step);

G_END_DECLS
#endif /* __AOOCT_STEP_H__ */
