/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the step contract, one core interface per step, the same on both
 * backends.
 *
 * A step (aooctkmap's resampling, aooctfft's transform, ...) has one
 * AooctStepOps per backend: create() builds the core for the negotiated
 * geometry and the settings the element's setup() gave (tables, plans,
 * device memory), process() runs it on one buffer, destroy() frees it.
 * The element names its two ops in class_init (GstAooctFilterClass's
 * cpu_ops, cuda_ops); the base class picks one when the element starts
 * and calls it without knowing which (gst/aooct-filter-step.c creates
 * it, gst/aooct-filter-buffers.c and gst/aooct-cuda-buffer.c run it), so
 * nothing in an element branches on the backend.
 *
 * The CPU ops get host pointers and a run whose CUDA fields are NULL /
 * FALSE; the CUDA ops get device pointers on the element's CUDA context
 * (current during every call, also create and destroy), enqueue their
 * work on run->stream and return without waiting for it (the base class
 * orders it after the producer of the input and before every consumer of
 * the output, and waits for the GPU before destroy()). */
#ifndef __AOOCT_STEP_H__
#define __AOOCT_STEP_H__

#include <glib.h>

#include "gstaooctfilter.h"
#include "aooct-pending-meta.h"

G_BEGIN_DECLS

/* What one buffer's process() gets besides its planes. */
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
} AooctStepRun;

typedef struct _AooctStepOps AooctStepOps;

struct _AooctStepOps
{
  /* The core for @filter's negotiated in_geom / out_geom (and in_vinfo,
   * out_vinfo, in_positions where the step uses them) with @settings (the
   * step's settings type, filled by the element's setup(), which keeps it
   * unchanged until destroy()).  NULL with @error set when it cannot be built. */
  gpointer (*create) (GstAooctFilter * filter, gconstpointer settings,
      GError ** error);

  /* One buffer: @in and @out are rows @stride bytes apart (host memory on
   * the CPU, device memory on CUDA). */
  gboolean (*process) (gpointer core, const AooctPlane * in, AooctPlane * out,
      const AooctStepRun * run, GError ** error);

  /* Frees @core (NULL allowed). */
  void (*destroy) (gpointer core);

  /* Optional.  @reset: what the core keeps from buffer to buffer (a ring
   * of past B-scans) starts over, after a flush.  @rewind (CUDA): a CUDA
   * graph capture of the last process() failed, so nothing of it ran and
   * it is called again: the core forgets what that call marked as done
   * (tables uploaded, ring advanced). */
  void (*reset) (gpointer core);
  void (*rewind) (gpointer core);
  /* Optional (CUDA, cuda-graphs=true): lets a buffer launch again the CUDA
   * graph captured for an earlier buffer with the same key instead of
   * calling process() (aooct-cuda-graph.h), which saves the host most of
   * a step's cost per buffer.  The base class keys the planes' pointers
   * and strides, in_disposable, whether out_pending is set and the
   * pending steps' scalars and table serials; graph_key() writes into
   * @key (at most AOOCT_STEP_GRAPH_KEY bytes) whatever else decides what
   * process() would enqueue for @run (the live settings it passes to its
   * kernels) and does what process() does besides enqueuing (what it
   * writes into run->out_pending), since process() is not called for a
   * buffer that hits.  It returns the length it wrote (0 when nothing
   * else matters), or -1 when this buffer must run process() (a table
   * still to upload, state that moves from buffer to buffer).  Without
   * it, process() runs for every buffer. */
  gssize (*graph_key) (gpointer core, const AooctStepRun * run, guint8 * key);
};

/* the most bytes graph_key() may write */
#define AOOCT_STEP_GRAPH_KEY 64

/* A step as the base class holds it: the ops of the active backend and
 * the core they made. */
typedef struct
{
  const AooctStepOps *ops;
  gpointer core;
  guint serial;                 /* of the core: a new one per create */
} AooctStep;

/* Creates the core of @ops (the active backend's, which the caller
 * chose) for @filter's negotiated geometry with @settings.  FALSE with
 * @error set when it cannot be built (@step then holds nothing). */
gboolean aooct_step_create (AooctStep * step, const AooctStepOps * ops,
    GstAooctFilter * filter, gconstpointer settings, GError ** error);

/* process() of @step's core on one buffer with @run (on the CPU: no
 * stream, nothing pending; on CUDA: the stream, the pending steps and
 * the disposability of the current buffer). */
gboolean aooct_step_process (AooctStep * step, const AooctPlane * in,
    AooctPlane * out, const AooctStepRun * run, GError ** error);

/* The key under which the CUDA graph of process() on this buffer with
 * @run may be kept and launched again (see graph_key above): its length
 * in @key (at most AOOCT_STEP_KEY_MAX bytes), or -1 when process() must
 * run. */
#define AOOCT_STEP_KEY_MAX 192
gssize aooct_step_graph_key (AooctStep * step, const AooctPlane * in,
    const AooctPlane * out, const AooctStepRun * run, guint8 * key);
/* Frees the core (if any); @step then holds nothing. */
void aooct_step_destroy (AooctStep * step);

/* The core's reset / rewind, where it has one (and @step holds a core). */
void aooct_step_reset (AooctStep * step);
void aooct_step_rewind (AooctStep * step);

G_END_DECLS
#endif /* __AOOCT_STEP_H__ */
