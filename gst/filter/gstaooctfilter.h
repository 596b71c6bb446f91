/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: base class of the processing elements.
 *
 * GstAooctFilter holds what the processing elements share: caps parsing
 * into an AooctGeometry, the derivation of the output caps from the input
 * caps (each subclass says how its step changes the geometry), the check
 * that upstream and downstream agree, the size check of every buffer,
 * mapping, the choice of the backend and the calls into the step's plan,
 * turning its errors into element errors.  A subclass says only what is
 * its own (the step contract, docs/architecture.md): derive_output() if
 * its step changes the geometry, setup() if it has settings for the
 * negotiated geometry, the plan of each backend (cpu_ops, cuda_ops:
 * aooct-step.h), live() if it has PLAYING-mutable properties, teardown(),
 * and the deferral hooks.
 *
 * Backends (property backend=auto|cpu|cuda, chosen when the element
 * starts): cuda runs the CUDA core on the pipeline's shared
 * GstCudaContext (one per device, found through the GstContext query/set
 * mechanism, shared with nvcodec elements), and application/x-aooct pads
 * then prefer application/x-aooct(memory:CUDAMemory), so B-scans stay in
 * GPU memory from element to element (see docs/cuda-memory.md).  auto
 * picks cuda when the build has CUDA, the subclass has cuda_ops and a
 * device is usable, else the CPU; cuda without a usable device is an
 * error naming the reason.  The base class moves data between host and
 * device where a pad carries system memory (camera frames in, video out,
 * a CPU neighbour), so the CUDA core always sees device pointers.
 *
 * Adding the CUDA path to an element:
 *   1. cuda/aooct-cuda-STEP.{h,cu}: the CUDA core, a plan as its CPU twin
 *      in cpu/aooct-cpu-STEP.h (the shape: aooct-step.h):
 *      aooct_cuda_STEP_plan_new (geometry, params, error) making its
 *      device tables and scratch, aooct_cuda_STEP_execute (plan, in, out,
 *      ..., stream, error) enqueueing the step's kernels (static in that
 *      .cu) on an AooctCudaStream and checking every call
 *      (aooct-cuda-check.h), and aooct_cuda_STEP_plan_free; add the .cu to
 *      cuda/meson.build.  A pointwise step on real spectra before the FFT
 *      may instead run in the fused pass of cuda/aooct-cuda-prep.h, as
 *      aooctdisp does.
 *   2. In the element, under #ifdef HAVE_CUDA: the step's AooctStepOps
 *      (plan_new, execute, plan_free) over that core (the base class
 *      makes the context current around every call and waits for the
 *      stream before plan_free), named in class_init as cuda_ops.
 *
 * The base class's own files are listed at the top of gstaooctfilter.c
 * and in docs/architecture.md; the calls into the vfuncs below are in
 * gstaooctfilter.c (aooct_filter_subclass_*, and for live() its
 * transform). */
#ifndef __GST_AOOCT_FILTER_H__
#define __GST_AOOCT_FILTER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "aooct-geometry.h"
#include "aooct-raw-format.h"
#include "aooct-pending-meta.h"
#include "aooct-step.h"

G_BEGIN_DECLS
#define GST_TYPE_AOOCT_FILTER            (gst_aooct_filter_get_type())
#define GST_AOOCT_FILTER(obj)            (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_AOOCT_FILTER,GstAooctFilter))
#define GST_AOOCT_FILTER_CAST(obj)       ((GstAooctFilter *)(obj))
#define GST_AOOCT_FILTER_CLASS(klass)    (G_TYPE_CHECK_CLASS_CAST((klass),GST_TYPE_AOOCT_FILTER,GstAooctFilterClass))
#define GST_AOOCT_FILTER_GET_CLASS(obj)  (G_TYPE_INSTANCE_GET_CLASS((obj),GST_TYPE_AOOCT_FILTER,GstAooctFilterClass))
#define GST_IS_AOOCT_FILTER(obj)         (G_TYPE_CHECK_INSTANCE_TYPE((obj),GST_TYPE_AOOCT_FILTER))
/* CUstream (cudaStream_t) without the CUDA headers, so that this header
 * builds where CUDA is absent. */
    struct CUstream_st;

typedef struct _GstAooctFilter GstAooctFilter;
typedef struct _GstAooctFilterClass GstAooctFilterClass;
typedef struct _GstAooctFilterPrivate GstAooctFilterPrivate;

typedef enum
{
  GST_AOOCT_BACKEND_AUTO,
  GST_AOOCT_BACKEND_CPU,
  GST_AOOCT_BACKEND_CUDA
} GstAooctBackend;

#define GST_TYPE_AOOCT_BACKEND (gst_aooct_backend_get_type ())
GType gst_aooct_backend_get_type (void);

struct _GstAooctFilter
{
  GstBaseTransform parent;

  /*< protected: valid from set_caps() until teardown() > */
  gboolean configured;
  AooctGeometry in_geom;        /* geometry of the input buffers */
  AooctGeometry out_geom;       /* as derived by derive_output() */
  GstVideoInfo in_vinfo;        /* when the sink caps are video/x-raw (or
                                 * video/x-aooct-packed: the bytes of its
                                 * rows as GRAY8, aooct-raw-caps.h) */
  AooctRawFormat in_raw_format; /* ... and the samples' format */
  /* in_geom.k_sampling != EVEN: the positions s_j of the input's samples
   * (j1 - j0 + 1 values, from the caps' k-positions); else NULL */
  gdouble *in_positions;
  GstVideoInfo out_vinfo;       /* when the src caps are video/x-raw */
  GstAooctBackend active_backend;       /* CPU or CUDA, chosen at start */
  gboolean in_cuda_memory;      /* sink caps carry memory:CUDAMemory */
  gboolean out_cuda_memory;     /* src caps carry memory:CUDAMemory */
  /* set by setup(): the CUDA core is not to be captured into a CUDA
   * graph with the negotiated settings (cuda-graphs=true; e.g.
   * aooctfft's NUDFT, a cuBLAS call) although the class allows graphs */
  gboolean graphs_unsupported;

  /*< private > */
  GstAooctFilterPrivate *priv;
};

struct _GstAooctFilterClass
{
  GstBaseTransformClass parent_class;

  /* Set by subclasses whose sink or src pad carries video/x-raw GRAY8 /
   * GRAY16_LE instead of application/x-aooct. */
  gboolean sink_is_video;
  gboolean src_is_video;

  /* For a sink_is_video element: its video input may also be in GPU
   * memory.  When the element runs on CUDA its sink pad offers each
   * video/x-raw structure in memory:CUDAMemory too, before the same in
   * system memory, and the base class reads such frames in place on the
   * device: libgstcuda's GstCudaMemory (with the layout of its own
   * GstVideoInfo) or aooct's own device memory (the pool the element
   * proposes upstream); memory of another CUDA context goes through the
   * host.  On the CPU backend such caps are refused with a message that
   * says why.  the CUDA core sees the same plane either way. */
  gboolean sink_video_cuda_memory;

  /* For a src_is_video element that makes a grey image: NULL-terminated
   * video format names (e.g. "NV12", "I420", "RGBA") that the src pad also
   * offers in libgstcuda's GstCudaMemory (video/x-raw(memory:CUDAMemory)),
   * for nvcodec elements, when the element runs on CUDA; listed after the
   * system-memory formats, so that a sink accepting anything still gets
   * the grey formats.  The CUDA core then gets plane 0 of the frame: for
   * a YUV format the luma, written like GRAY8 (the base class sets the
   * chroma to neutral); for RGBA the RGBA pixels (read the format from
   * out_vinfo).  Set it before gst_aooct_filter_class_add_pad_templates().
   * NULL: system memory only. */
  const gchar *const *cuda_video_formats;

  /* Input geometry from fixed sink caps.  Default: application/x-aooct
   * parsing.  Subclasses with video/x-raw sink caps override it. */
    gboolean (*parse_sink_caps) (GstAooctFilter * self, const GstCaps * caps,
      AooctGeometry * in, GError ** error);

  /* The output geometry this step produces from @in with the current
   * properties; FALSE with a message naming the problem when @in cannot be
   * processed (wrong domain, missing step, impossible property).
   * Default: the output geometry is the input's, any input accepted (a
   * step that changes no geometry sets none). */
    gboolean (*derive_output) (GstAooctFilter * self, const AooctGeometry * in,
      AooctGeometry * out, GError ** error);

  /* Src caps for @out.  Default: application/x-aooct.  May return several
   * structures (e.g. output formats); downstream picks one. */
  GstCaps *(*output_caps) (GstAooctFilter * self, const AooctGeometry * out);

  /* The step (aooct-step.h): the plan of each backend.  The base class
   * picks one when the element starts (cuda_ops NULL: the element has no
   * CUDA implementation, auto then runs on the CPU and cuda is an
   * error), makes it (plan_new) after setup() with the settings setup()
   * gave, hands it every buffer (execute, with live() read just before),
   * resets it at a flush, rewinds it after a failed CUDA graph capture
   * and frees it (plan_free) before teardown().  On CUDA the plan gets
   * device pointers on the element's CUDA context (current during every
   * call), with rows (A-lines, or video rows) @stride bytes apart:
   * application/x-aooct planes are contiguous, video/x-raw planes have
   * the GstVideoInfo stride; it enqueues its work on the run's stream and returns without
   * waiting (the base class orders it after the producer of the input and
   * before every consumer of the output). */
  const struct _AooctStepOps *cpu_ops;
  const struct _AooctStepOps *cuda_ops;

  /* Everything about the step that does not depend on the backend, for
   * the negotiated in_geom / out_geom / out_vinfo: read files, check
   * properties, build tables; *@settings then points at the step's
   * settings (the element's, unchanged until teardown()), or NULL.  In
   * passthrough (gst_base_transform_set_passthrough()) no plan is made.
   * Optional: NULL when the step has nothing to read or build (its plan
   * then gets NULL settings). */
    gboolean (*setup) (GstAooctFilter * self, gconstpointer * settings,
      GError ** error);

  /* Optional: before each buffer, what the element reads of its
   * PLAYING-mutable properties, in the step's live type (*@live, the
   * element's storage, valid until the next call; AooctStepRun's live). */
    gboolean (*live) (GstAooctFilter * self, gconstpointer * live,
      GError ** error);

  /* Deferred steps (aooct-pending-meta.h), CUDA backend only.  @defer:
   * the element's step is pointwise on real spectra and may be left to
   * the next element: add it to @meta (on the input buffer, which goes on
   * as the output) instead of computing it.  The base class calls it
   * instead of the plan's execute when downstream announced the meta in the
   * ALLOCATION query, both pads carry CUDA memory and the input is aooct
   * device memory that nobody else holds.  NULL: never deferred. */
    gboolean (*defer) (GstAooctFilter * self, AooctPendingMeta * meta,
      GError ** error);

  /* The element's CUDA core applies steps deferred to it (the run's
   * pending), and the element announces the meta upstream when it runs on
   * CUDA (in passthrough it only passes on downstream's answer).  A
   * buffer with pending steps reaching any other element, or this one on
   * the CPU, is an error. */
  gboolean absorbs_pending;

  /* The element may leave the tail of its step to downstream: its CUDA
   * core gets the run's out_pending when downstream announced the meta
   * (aooctpad: its scale and margins). */
  gboolean leaves_pending;

  /* Optional: where the output of a buffer depends on the buffers before
   * it (a rolling mean, an average over B-scans, a2/a3 estimated once and
   * held), the setting that makes it so, as the user wrote it (e.g.
   * "average-bscans=4"), newly allocated; NULL where it does not now.  In
   * a branch of aooctsplit (docs/scale-out.md) the base class then needs
   * the stream's buffers in order, from the first since start, flush or
   * new caps, as one chain gets them, and refuses any other buffer with
   * an element error naming the setting: spread over branches, such an
   * element would see every other buffer and give other images. */
  gchar *(*in_order_setting) (GstAooctFilter * self);

  /* Free what setup() built; called before a new setup() and at stop. */
  void (*teardown) (GstAooctFilter * self);

  /* Optional: the element starts (READY to PAUSED, before any caps and
   * before the backend opens): take what stays fixed while it runs
   * (aooctcs: its start-time properties) or start counting afresh
   * (GstAooctGroup).  FALSE with @error set: the element does not start
   * and the base class posts the error.  A subclass of a class that has
   * one chains up to it. */
  gboolean (*start) (GstAooctFilter * self, GError ** error);

  /* The CUDA plan's execute only enqueues kernels, cuFFT executions and
   * asynchronous copies on the stream: with cuda-graphs=true the base
   * class captures them into a CUDA graph and launches that, one launch
   * per buffer (cuda/aooct-cuda-graph.h).  A call that cannot be captured
   * (a table upload from pageable memory) fails the capture, nothing of it
   * runs, and the buffer is processed again without capture, after the
   * plan's rewind (if it has one) has forgotten any table the failed
   * attempt marked as uploaded. */
  gboolean cuda_graphs;

  /* How far along the chain the step sits: 0 on raw camera data (the
   * default), 1 on spectra, 2 the transform to depth, 3 on depth profiles
   * or images.  The element's CUDA stream gets a priority that many steps
   * above the lowest, so that where the kernels of several buffers wait
   * (one B-scan per buffer: the next buffer's first steps beside this
   * one's last), the GPU finishes the older buffer first: its download
   * starts sooner and the output ring frees its slot sooner.  Measured on
   * an H100 (docs/notes/performance-log.md, "Stream priorities"): 2048 x 1000, one
   * B-scan per buffer from page-locked memory, 0.097 -> 0.086-0.090 ms. */
  gint cuda_stage;
};

GType gst_aooct_filter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstAooctFilter, gst_object_unref)
/* Posts @error (AOOCT_ERROR domain) as an element error of the matching
 * GStreamer category and keeps ownership with the caller. */
     void gst_aooct_filter_post_error (GstAooctFilter * self,
    const GError * error);

/* For subclasses that do not make one output per input (GstAooctGroup:
 * the volume views, aooctangio).  gst_aooct_filter_collect() runs the
 * plan's execute on @inbuf alone (the output plane it gets is {NULL, 0}),
 * with the mapping and upload the base class does for a transform.
 * gst_aooct_filter_emit() runs it for @out alone (the input plane is
 * {NULL, 0}) and pushes @out (taken; its timestamps and metas set)
 * downstream: on CUDA, where the image leaves the GPU, the streaming
 * thread only enqueues the work and @out goes through the output ring,
 * pushed by the src task once downloaded, as a transform's outputs are.
 * gst_aooct_filter_push_event() pushes an event of the subclass's own
 * downstream after the outputs still in flight.  Errors are posted. */
     GstFlowReturn gst_aooct_filter_collect (GstAooctFilter * self,
    GstBuffer * inbuf);
     GstFlowReturn gst_aooct_filter_emit (GstAooctFilter * self,
    GstBuffer * out);
     gboolean gst_aooct_filter_push_event (GstAooctFilter * self,
    GstEvent * event);
/* Live properties bound to a GstControlSource (GST_PARAM_CONTROLLABLE)
 * take their values for @buf's stream time.  The base class calls it once
 * per input buffer (GstBaseTransform's before_transform); a subclass that
 * replaces generate_output() (the volume views) calls it for each input
 * buffer itself, before its properties are read. */
     void gst_aooct_filter_sync_values (GstAooctFilter * self, GstBuffer * buf);
/* For live properties that an application changes together (aooctnorm's
 * range-min / range-max, aooctdisp's phase-file / a2 / a3): @error (not
 * taken) says that the current values contradict each other.  One
 * g_object_set() sets them one after the other, so the streaming thread
 * may see half of the change: the element then goes on with its last
 * consistent settings (the caller's job) instead of ending the stream, and
 * posts a warning with @error's message when the contradiction is still
 * there at the next buffer (a real mistake, not half a change).  Call
 * gst_aooct_filter_settings_consistent() when they are consistent. */
     void gst_aooct_filter_tolerate_inconsistent (GstAooctFilter * self,
    const GError * error);
     void gst_aooct_filter_settings_consistent (GstAooctFilter * self);

/* Adds the sink and src pad templates: @sink_caps / @src_caps strings. */
     void gst_aooct_filter_class_add_pad_templates (GstAooctFilterClass * klass,
    const gchar * sink_caps, const gchar * src_caps);

G_END_DECLS
#endif /* __GST_AOOCT_FILTER_H__ */
