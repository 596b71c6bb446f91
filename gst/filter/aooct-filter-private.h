/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's private state and the functions its files share.
 * Not for subclasses, which see gstaooctfilter.h only.
 *
 * The base class in layers (docs/architecture.md), calls going down:
 * negotiation and properties (they take the filter)
 *   gstaooctfilter.c           core: type, properties, backend choice at
 *                              start, set_caps, a buffer's way through
 *                              transform (top-down), events; the calls
 *                              into the subclass's class vfuncs (setup
 *                              and the step's plan_new, live, defer,
 *                              teardown), the stats property, element
 *                              errors, and on CUDA the output ring's
 *                              vfuncs, its src task and the fault request
 *                              (test builds)
 *   aooct-filter-caps.c        pad templates, memory features, caps
 *                              transformation, transform_size,
 *                              accept_caps, the checks of set_caps and
 *                              the message for refused caps
 *   aooct-filter-allocation.c  allocation queries, pools, the deferral
 *                              decision, the output buffer
 * buffers (arguments, not the filter: aooct-filter-buffers.h)
 *   aooct-filter-buffers.c     buffer sizes, the input size check,
 *                              mapping, the CPU backend (map, step, unmap)
 * the CUDA backend (arguments, not the filter: aooct-cuda-element.h)
 *   aooct-cuda-buffer.c        one buffer on the GPU, the step as a graph
 *   aooct-cuda-element.c       context, streams, staging, GPU timing, with
 *                              aooct-cuda-upload.c, aooct-cuda-video.c and
 *                              aooct-output-ring.c */
#ifndef __AOOCT_FILTER_PRIVATE_H__
#define __AOOCT_FILTER_PRIVATE_H__

#include "gstaooctfilter.h"
#include "aooct-step.h"
#include "aooct-filter-buffers.h"

G_BEGIN_DECLS GST_DEBUG_CATEGORY_EXTERN (gst_aooct_filter_debug);
/* GstAooctFilter's parent class (GstBaseTransformClass), for the chain-ups
 * of the vfuncs the other files install */
extern gpointer aooct_filter_parent_class;

struct _AooctCudaElement;

/* What the base class counts since start (the stats property). */
typedef struct
{
  guint64 buffers;
  gdouble host_ms;
} AooctFilterStats;

struct _GstAooctFilterPrivate
{
  /* properties (object lock) */
  GstAooctBackend backend;
  gint device_id;
  gboolean gpu_timing;
  gboolean defer_steps;
  gboolean cuda_graphs;

  /* the step's core of the active backend, from set_caps until teardown
   * (none in passthrough) */
  AooctStep step;

  /* between start() and stop(); the backend chosen then is
   * GstAooctFilter.active_backend */
  gboolean started;
  gchar *cpu_reason;            /* why the element runs on the CPU */
  struct _AooctCudaElement *cuda;       /* NULL without CUDA */

  /* element errors: the last message posted (to post it once), how many
   * were posted since start (object lock) */
  gchar *last_error;
  guint errors_posted;
  /* buffers in a row processed with the last consistent live settings */
  guint inconsistent;

  /* the row layout of the video buffer being processed without a
   * GstVideoMeta: in_vinfo, or its rows tightly packed (rawvideoparse
   * plane-strides=<N x bytes> of an odd width) */
  GstVideoInfo in_layout;

  /* deferred steps (aooct-pending-meta.h), decided at allocation */
  gboolean downstream_absorbs;  /* downstream announced the pending meta */
  gboolean deferring;           /* ... and our whole step goes to it */
  gboolean defer_this;          /* the output being made is the input */

  /* ALLOCATION queries from upstream against the deactivation of the
   * pads (aooct-filter-allocation.c): closed from PAUSED_TO_READY until
   * READY_TO_PAUSED */
  GMutex allocation_lock;
  gboolean allocation_closed;

  /* stats (gstaooctfilter.c; the GPU's in the AooctCudaElement) */
  AooctFilterStats stats;

#ifdef AOOCT_FAULT_INJECTION
  gint fault;                   /* AooctCudaFault to make (tests only) */
  guint64 fault_at;             /* ... after this buffer (1 = the first) */
#endif
  /* in a branch of aooctsplit (aooct-seq-meta.h): the position of the
   * buffer expected next (streaming thread), for in_order_setting */
  gboolean have_pos;
  guint64 next_pos;
};

/* CUDA memory can flow through this element's aooct pads: it started on
 * the CUDA backend. */
static inline gboolean
aooct_filter_cuda_active (GstAooctFilter * self)
{
  return self->active_backend == GST_AOOCT_BACKEND_CUDA;
}

/* gstaooctfilter.c (also gst_aooct_filter_post_error) */
void aooct_filter_forget_last_error (GstAooctFilter * self);

/* aooct-filter-caps.c */
void aooct_filter_caps_class_init (GstAooctFilterClass * klass);
gboolean aooct_filter_caps_are_cuda (GstCaps * caps);
/* Parses and checks fixed @incaps / @outcaps (the checks of set_caps):
 * @in, @out, in_vinfo, out_vinfo and in_positions set, or FALSE with
 * @error saying what is wrong. */
gboolean aooct_filter_caps_negotiated (GstAooctFilter * self,
    GstCaps * incaps, GstCaps * outcaps, AooctGeometry * in,
    AooctGeometry * out, GError ** error);
/* Posts why new input caps were refused where set_caps did not say. */
void aooct_filter_caps_explain_refused (GstAooctFilter * self,
    GstCaps * incaps);

/* gstaooctfilter.c: the calls into the subclass (its class vfuncs
 * take the filter) */
gboolean aooct_filter_subclass_setup (GstAooctFilter * self, GError ** error);
void aooct_filter_subclass_teardown (GstAooctFilter * self);
/* klass->live(): what the element reads of its live properties for the
 * buffer about to be processed (NULL without the hook). */
gboolean aooct_filter_subclass_live (GstAooctFilter * self,
    gconstpointer * live, GError ** error);
/* At EOS: the plan hands over what it still owes the element (its drain,
 * aooct-step.h); FALSE with @error set when that failed. */
gboolean aooct_filter_subclass_drain (GstAooctFilter * self, GError ** error);
gboolean aooct_filter_subclass_defer (GstAooctFilter * self, GstBuffer * outbuf,
    gdouble * host_ms, GError ** error);

/* The buffer layer's descriptions of the negotiated pads
 * (aooct-filter-buffers.h). */
static inline void
aooct_filter_input_desc (GstAooctFilter * self, AooctInputDesc * in)
{
  in->video = GST_AOOCT_FILTER_GET_CLASS (self)->sink_is_video;
  in->vinfo = &self->in_vinfo;
  in->raw_format = self->in_raw_format;
  in->geom = &self->in_geom;
  in->cuda_memory = self->in_cuda_memory;
  in->on_cuda = aooct_filter_cuda_active (self);
}

static inline void
aooct_filter_output_desc (GstAooctFilter * self, AooctOutputDesc * out)
{
  out->video = GST_AOOCT_FILTER_GET_CLASS (self)->src_is_video;
  out->vinfo = &self->out_vinfo;
  out->geom = &self->out_geom;
  out->cuda_memory = self->out_cuda_memory;
}

/* aooct-filter-allocation.c */
void aooct_filter_allocation_class_init (GstAooctFilterClass * klass);
/* Answers an ALLOCATION query on the sink pad (GstBaseTransform's
 * default) unless the element is going down: FALSE then. */
gboolean aooct_filter_allocation_answer (GstAooctFilter * self,
    GstQuery * query);
/* Before the pads deactivate (@closed TRUE: waits for a query being
 * answered) and before they activate (FALSE). */
void aooct_filter_allocation_close (GstAooctFilter * self, gboolean closed);

/* gstaooctfilter.c: the stats property from what the base class
 * counted and (CUDA builds) what the element's CUDA side counted */
GstStructure *aooct_filter_stats_make (const AooctFilterStats * stats,
    gboolean on_cuda, struct _AooctCudaElement *cuda);

#ifdef HAVE_CUDA
/* gstaooctfilter.c, CUDA builds */
void aooct_filter_cuda_class_init (GstAooctFilterClass * klass);
/* At start, on CUDA: reads the fault request (fault-injection builds). */
void aooct_filter_cuda_started (GstAooctFilter * self);
/* The fault to cause on this buffer (fault-injection builds; else 0). */
gint aooct_filter_cuda_fault (GstAooctFilter * self);
/* gst_aooct_filter_emit() on CUDA: waits for room in the output ring
 * (where the image leaves the GPU), then, once gst_aooct_filter_transform
 * has made @out with @ret, hands it over (taken): into the ring for the
 * src task, or pushed at once where it stays on the GPU. */
GstFlowReturn aooct_filter_cuda_wait_space (GstAooctFilter * self);
GstFlowReturn aooct_filter_cuda_hand_over (GstAooctFilter * self,
    GstFlowReturn ret, GstBuffer * out);
/* The output task around serialized events, flushes and state changes. */
void aooct_filter_cuda_drain (GstAooctFilter * self);
void aooct_filter_cuda_set_flushing (GstAooctFilter * self, gboolean flushing);
#endif

G_END_DECLS
#endif /* __AOOCT_FILTER_PRIVATE_H__ */
