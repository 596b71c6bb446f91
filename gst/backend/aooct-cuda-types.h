/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the types of the CUDA backend's face (aooct-cuda-backend.h) that
 * the files behind it use too: the opaque backend, the element it runs
 * for, what open() needs, its statistics and the arguments of one
 * buffer.  A header of its own, below both, so that the backend's inside
 * (aooct-cuda-element.h) does not include its face. */
#ifndef __AOOCT_CUDA_TYPES_H__
#define __AOOCT_CUDA_TYPES_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "aooct-filter-buffers.h"
#include "aooct-step.h"

G_BEGIN_DECLS

typedef struct _AooctCudaBackend AooctCudaBackend;

/* Input buffers the backend may hold while their upload runs: a pool
 * proposed upstream for in-place uploads needs this many more than the
 * one being written. */
#define AOOCT_CUDA_INPUT_HOLD 2

/* The element a backend runs for: its GstContext sharing and log, the
 * src pad the output task pushes on, and how an error of that task
 * reaches the user (the filter's element error, posted once per cause). */
typedef struct
{
  GstElement *element;
  GstPad *srcpad;
  void (*post_error) (GstElement * element, const GError * error);
} AooctCudaBackendHost;

/* What open() needs: the device (-1: any), the stream's priority (@stage
 * steps above the lowest: GstAooctFilterClass's cuda_stage), one CUDA
 * graph per buffer where the step allows it (cuda-graphs), GPU timing of
 * the step (gpu-timing; resets the statistics). */
typedef struct
{
  gint device_id;
  gint stage;
  gboolean graphs;
  gboolean timing;
} AooctCudaOpen;

/* Statistics since open() (the stats property). */
typedef struct
{
  guint64 timed;                /* buffers whose GPU time was measured */
  gdouble gpu_ms, gpu_ms_max;   /* total and largest, the CUDA core only */
  /* cuda-graphs: buffers whose work was captured into a graph, and those
   * that launched a graph kept from an earlier buffer instead */
  guint64 graphs_captured, graphs_relaunched;
} AooctCudaStats;

/* What one buffer on the GPU needs of the element, filled by the base
 * class for each buffer. */
typedef struct
{
  const AooctInputDesc *in;     /* the negotiated input */
  /* the rows of this video input (aooct_filter_check_input_size) */
  const GstVideoInfo *in_layout;
  const AooctOutputDesc *out;   /* the negotiated output */
  AooctStep *step;              /* the plan of the CUDA ops */
  /* the steps an upstream element deferred to this one, or NULL; what
   * the element read of its live properties for this buffer, or NULL */
  const AooctPendingMeta *pending;
  gconstpointer live;
  /* the element's step may be captured into a CUDA graph (its setup did
   * not say otherwise; cuda-graphs is open()'s) */
  gboolean graphs;
  /* downstream applies what the step leaves to it (leaves_pending): the
   * output's pending meta goes to the step as run->out_pending */
  gboolean leave_pending;
  /* fault-injection builds: the AooctCudaFault to cause after this
   * buffer's work (aooct-cuda-fault.h), 0 for none */
  gint fault;
  guint64 in_offset;            /* the input's GST_BUFFER_OFFSET */
} AooctCudaBuffer;

G_END_DECLS
#endif /* __AOOCT_CUDA_TYPES_H__ */
