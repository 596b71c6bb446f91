/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's private state and the functions its files share.
 * Not for subclasses, which see gstaooctfilter.h only.
 *
 * The base class, one concern per file (docs/architecture.md):
 *   gstaooctfilter.c           core: type, properties, backend choice at
 *                              start, set_caps, transform dispatch, events
 *   aooct-filter-caps.c        pad templates, memory features, caps
 *                              transformation, accept_caps, the checks of
 *                              set_caps and the message for refused caps
 *   aooct-filter-step.c        every call into the subclass's step:
 *                              setup, the step's plan (plan_new, execute
 *                              with CUDA graph capture, reset, rewind,
 *                              plan_free), teardown, defer
 *   aooct-filter-buffers.c     buffer sizes, the input size check, mapping
 *   aooct-filter-allocation.c  allocation queries, pools, the deferral
 *                              decision, the output buffer
 *   aooct-filter-cuda.c        (CUDA builds) one buffer on the GPU, the
 *                              output task, fault injection (test builds)
 *   aooct-filter-stats.c       the stats property
 *   aooct-filter-base.c        what they all share: the debug category,
 *                              the parent class, element errors
 *   aooct-cuda-element.{c,h}   the CUDA side of one element (context,
 *                              streams, staging), with aooct-cuda-upload.c,
 *                              aooct-cuda-video.c and aooct-output-ring.c */
#ifndef __AOOCT_FILTER_PRIVATE_H__
#define __AOOCT_FILTER_PRIVATE_H__

#include "gstaooctfilter.h"
#include "aooct-step.h"

G_BEGIN_DECLS GST_DEBUG_CATEGORY_EXTERN (gst_aooct_filter_debug);
/* GstAooctFilter's parent class (GstBaseTransformClass), for the chain-ups
 * of the vfuncs the other files install */
extern gpointer aooct_filter_parent_class;

struct _AooctCudaElement;

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

  /* the buffer being processed on CUDA, for its step (the core gets them
   * in its AooctStepRun, aooct-step.c): the steps an upstream element
   * deferred to this one (a class with absorbs_pending; its data then are
   * the real spectra before them), or NULL */
  const AooctPendingMeta *pending;
  /* a class with leaves_pending, when downstream applies pending steps:
   * the meta of the output buffer, to which the step may add the part it
   * leaves to them; else NULL */
  AooctPendingMeta *out_pending;
  /* the input is device memory that nobody else holds, so the step may
   * overwrite it (as a scratch) */
  gboolean in_disposable;

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

  /* stats (aooct-filter-stats.c): since start */
  guint64 stat_buffers;
  gdouble stat_host_ms;
  /* cuda-graphs: buffers whose work was captured into a graph, and those
   * that launched a graph kept from an earlier buffer instead */
  guint64 stat_graphs_captured, stat_graphs_relaunched;

#ifdef AOOCT_FAULT_INJECTION
  gint fault;                   /* AooctCudaFault to make (tests only) */
  guint64 fault_at;             /* ... after this buffer (1 = the first) */
#endif
};

/* CUDA memory can flow through this element's aooct pads: it started on
 * the CUDA backend. */
static inline gboolean
aooct_filter_cuda_active (GstAooctFilter * self)
{
  return self->active_backend == GST_AOOCT_BACKEND_CUDA;
}

/* aooct-filter-base.c (also gst_aooct_filter_post_error) */
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

/* aooct-filter-step.c */
gboolean aooct_filter_step_setup (GstAooctFilter * self, GError ** error);
void aooct_filter_step_teardown (GstAooctFilter * self);
void aooct_filter_step_reset (GstAooctFilter * self);
gboolean aooct_filter_step_process_cpu (GstAooctFilter * self,
    GstBuffer * inbuf, GstBuffer * outbuf, GError ** error);
gboolean aooct_filter_step_process_cuda (GstAooctFilter * self,
    const AooctPlane * in, AooctPlane * out, GError ** error);
gboolean aooct_filter_step_defer (GstAooctFilter * self, GstBuffer * outbuf,
    GError ** error);

/* aooct-filter-buffers.c */
void aooct_filter_buffers_class_init (GstAooctFilterClass * klass);
/* What the buffer layer needs to know of the negotiated input. */
typedef struct
{
  gboolean video;               /* video/x-raw (or packed) sink caps */
  const GstVideoInfo *vinfo;    /* ... their GstVideoInfo */
  AooctRawFormat raw_format;    /* ... and samples */
  const AooctGeometry *geom;
  gboolean cuda_memory;         /* sink caps in memory:CUDAMemory */
  gboolean on_cuda;             /* the element runs on CUDA */
} AooctInputDesc;

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

/* @pending: the input's deferred steps; with a pending dispersion the
 * buffer holds the real spectra, half the size of the complex ones its
 * caps describe. */
gsize aooct_filter_expected_input_size (const AooctInputDesc * in,
    const AooctPendingMeta * pending);
gsize aooct_filter_output_size (GstAooctFilter * self);
/* FALSE with a message naming the sizes when @inbuf is not what @in
 * promises; sets *@layout (the rows of video input) for the buffer. */
gboolean aooct_filter_check_input_size (const AooctInputDesc * in,
    GstBuffer * inbuf, GstVideoInfo * layout, GError ** error);
/* Maps @buf as one AooctPlane: a video frame of @vinfo (@video) or rows
 * of @geom's A-lines. */
gboolean aooct_filter_map_plane (GstBuffer * buf, gboolean video,
    const GstVideoInfo * vinfo, const AooctGeometry * geom, GstMapFlags flags,
    GstVideoFrame * frame, GstMapInfo * map, AooctPlane * plane);
void aooct_filter_unmap_plane (gboolean video, GstBuffer * buf,
    GstVideoFrame * frame, GstMapInfo * map);

/* aooct-filter-allocation.c */
void aooct_filter_allocation_class_init (GstAooctFilterClass * klass);
/* Answers an ALLOCATION query on the sink pad (GstBaseTransform's
 * default) unless the element is going down: FALSE then. */
gboolean aooct_filter_allocation_answer (GstAooctFilter * self,
    GstQuery * query);
/* Before the pads deactivate (@closed TRUE: waits for a query being
 * answered) and before they activate (FALSE). */
void aooct_filter_allocation_close (GstAooctFilter * self, gboolean closed);

/* aooct-filter-stats.c */
void aooct_filter_stats_reset (GstAooctFilter * self);
GstStructure *aooct_filter_stats_make (GstAooctFilter * self);

#ifdef HAVE_CUDA
/* aooct-filter-cuda.c */
void aooct_filter_cuda_class_init (GstAooctFilterClass * klass);
/* At start, on CUDA: reads the fault request (fault-injection builds). */
void aooct_filter_cuda_started (GstAooctFilter * self);
gboolean aooct_filter_cuda_transform (GstAooctFilter * self,
    GstBuffer * inbuf, GstBuffer * outbuf, GError ** error);
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
void aooct_filter_cuda_discard (GstAooctFilter * self);
/* Waits for the GPU timing still in flight (at EOS). */
void aooct_filter_cuda_collect_timing (GstAooctFilter * self);
#endif

G_END_DECLS
#endif /* __AOOCT_FILTER_PRIVATE_H__ */
