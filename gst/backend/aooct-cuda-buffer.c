/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the CUDA backend's way of one buffer (AooctCudaBuffer,
 * aooct-cuda-backend.h): the input onto the GPU (aooct-cuda-input.c:
 * device memory used in place, host memory uploaded), the step's core on device
 * planes (as a CUDA graph where allowed), the output off the GPU (into
 * the output ring, aooct-output-ring.h), and the output taken from the
 * ring once its GPU work is complete.  It knows the buffers and the step,
 * not the filter: the base class fills an AooctCudaBuffer per buffer and
 * posts the errors returned here.  Built only with CUDA. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-cuda-element.h"
#include "aooct-cuda-graph.h"
#include "aooct-cuda-host-memory.h"
#include "aooct-cuda-memory.h"
#include "aooct-error.h"
#ifdef AOOCT_FAULT_INJECTION
#include "aooct-cuda-fault.h"
#endif

#define GST_CAT_DEFAULT aooct_cuda_element_debug

/* Rows and device row stride of the input / output plane (A-lines for
 * application/x-aooct, video rows for video/x-raw). */
static void
plane_layout (gboolean video, const GstVideoInfo * vinfo,
    const AooctGeometry * geom, gsize * rows, gsize * stride)
{
  if (video) {
    *rows = GST_VIDEO_INFO_HEIGHT (vinfo);
    *stride = GST_VIDEO_INFO_PLANE_STRIDE (vinfo, 0);
  } else {
    *rows = aooct_geometry_total_alines (geom);
    *stride = aooct_geometry_aline_bytes (geom);
  }
}

/* The image of @dev into host memory: straight into @outbuf where it is
 * one page-locked memory with the device plane's layout (our pool,
 * aooct-filter-allocation.c), else into the ring's staging, from which
 * the src task copies it into @outbuf.  The direct way saves that copy
 * (1 MB per 2048 x 1000 B-scan: about 100 us of one core, which bounded
 * one B-scan per buffer: docs/performance.md). */
static gboolean
download_output (AooctCudaBackend * ce, const AooctOutputDesc * od,
    GstBuffer * outbuf, const AooctPlane * dev, gsize rows, GError ** error)
{
  GstVideoFrame frame;
  GstMapInfo map;
  AooctPlane host;
  gpointer direct = NULL;

  if (gst_buffer_n_memory (outbuf) == 1
      && aooct_filter_map_plane (outbuf, od->video, od->vinfo,
          od->geom, GST_MAP_WRITE, &frame, &map, &host)) {
    if (host.stride == dev->stride
        && aooct_cuda_host_memory_holds (gst_buffer_peek_memory (outbuf, 0),
            host.data, rows * host.stride))
      direct = host.data;
    /* page-locked memory does not move and mapping it copies nothing: its
     * address stays valid for the download, which the src task waits for
     * before the buffer leaves (aooct-cuda-host-memory.h) */
    aooct_filter_unmap_plane (od->video, outbuf, &frame, &map);
  }
  if (direct)
    return aooct_output_ring_download_into (ce->ring, dev, rows, direct,
        ce->stream, error);
  return aooct_output_ring_download (ce->ring, dev, rows, ce->stream, error);
}

/* The stats of a buffer whose work was captured into a graph
 * (@captured) or that launched a graph kept from an earlier one. */
static void
count_graph (AooctCudaBackend * ce, gboolean captured)
{
  g_mutex_lock (&ce->stats_lock);
  if (captured)
    ce->stats.graphs_captured++;
  else
    ce->stats.graphs_relaunched++;
  g_mutex_unlock (&ce->stats_lock);
}

/* The key under which the CUDA graph of the step's execute() on this
 * buffer with @run may be kept and launched again (graph_key in
 * aooct-step.h): its length in @key (at most KEY_MAX bytes), or -1 when
 * execute() must run. */
#define KEY_MAX 192
/* What the base class keys of a buffer's CUDA work (aooct_step_graph_key):
 * built in a zeroed struct, so that its padding compares equal too. */
typedef struct
{
  guint serial;                 /* the plan's: a new plan, new graphs */
  gboolean in_disposable, out_pending, pending, pad, kmap, disp;
  gconstpointer in_data, out_data;
  gsize in_stride, out_stride;
  gfloat pad_scale;
  gint pad_j0, pad_j1, kmap_j0, kmap_j1, kmap_taps;
  guint kmap_serial, disp_serial;
} BaseKey;

G_STATIC_ASSERT (sizeof (BaseKey) + AOOCT_STEP_GRAPH_KEY <= KEY_MAX);

static gssize
step_graph_key (AooctStep * step, const AooctPlane * in,
    const AooctPlane * out, const AooctStepRun * run, guint8 * key)
{
  const AooctPendingMeta *p = run->pending;
  BaseKey b;
  gssize n;

  if (step->ops->graph_key == NULL)
    return -1;
  memset (&b, 0, sizeof (b));
  b.serial = step->serial;
  b.in_disposable = run->in_disposable;
  b.out_pending = run->out_pending != NULL;
  b.in_data = in->data;
  b.in_stride = in->stride;
  b.out_data = out->data;
  b.out_stride = out->stride;
  if (p) {
    b.pending = TRUE;
    b.pad = p->pad;
    if (p->pad) {
      b.pad_scale = p->pad_scale;
      b.pad_j0 = p->pad_j0;
      b.pad_j1 = p->pad_j1;
    }
    b.kmap = p->kmap.data != NULL;
    if (b.kmap) {
      b.kmap_serial = p->kmap.serial;
      b.kmap_j0 = p->kmap_j0;
      b.kmap_j1 = p->kmap_j1;
      b.kmap_taps = p->kmap_taps;
    }
    b.disp = p->disp.data != NULL;
    if (b.disp)
      b.disp_serial = p->disp.serial;
  }
  n = step->ops->graph_key (step->plan, run, key + sizeof (b));
  if (n < 0)
    return -1;
  g_assert (n <= AOOCT_STEP_GRAPH_KEY);
  memcpy (key, &b, sizeof (b));
  return (gssize) sizeof (b) + n;
}

/* captures that may fail in a row before an element stops trying */
#define GRAPH_MAX_FAILURES 3

/* The plan's execute on the GPU, captured into one CUDA graph and
 * launched as one where the class allows it and cuda-graphs=true
 * (aooct-cuda-graph.h); where the plan keys its work (graph_key in
 * aooct-step.h), the graph of an earlier buffer with the same key is
 * launched again instead.  A capture that fails enqueues nothing: the
 * plan's rewind forgets what it marked as done, and the step runs as
 * usual. */
static gboolean
process_step (AooctCudaBackend * ce, const AooctCudaBuffer * b,
    const AooctPlane * in, AooctPlane * out, const AooctStepRun * run,
    GError ** error)
{
  AooctStep *step = b->step;
  guint8 key[KEY_MAX];
  gssize klen;
  GError *err = NULL;
  gboolean ok;

  if (!ce->graphs || !b->graphs || ce->graph_failures >= GRAPH_MAX_FAILURES)
    return aooct_step_execute (step, in, out, run, error);
  /* the same work as a buffer before: its graph again, nothing captured */
  klen = step_graph_key (step, in, out, run, key);
  if (klen > 0) {
    gboolean hit;

    if (!aooct_cuda_graph_launch_kept (ce->graph, key, klen, ce->stream,
            &hit, error))
      return FALSE;
    if (hit) {
      count_graph (ce, FALSE);
      return TRUE;
    }
  }
  if (!aooct_cuda_graph_begin (ce->stream, &err)) {
    GST_INFO_OBJECT (ce->host.element, "no CUDA graphs: %s", err->message);
    g_clear_error (&err);
    aooct_cuda_clear_stale_error ();
    ce->graph_failures = GRAPH_MAX_FAILURES;
    return aooct_step_execute (step, in, out, run, error);
  }
  ok = aooct_step_execute (step, in, out, run, &err);
  if (aooct_cuda_graph_end (&ce->graph, ce->stream, ok,
          klen > 0 ? key : NULL, MAX (klen, 0), ok ? &err : NULL) && ok) {
    ce->graph_failures = 0;
    count_graph (ce, TRUE);
    return TRUE;
  }
  GST_DEBUG_OBJECT (ce->host.element,
      "capture failed (%s): running the step without",
      err ? err->message : "?");
  g_clear_error (&err);
  aooct_cuda_clear_stale_error ();
  if (++ce->graph_failures == GRAPH_MAX_FAILURES)
    GST_INFO_OBJECT (ce->host.element,
        "%d captures failed in a row: no more CUDA graphs", GRAPH_MAX_FAILURES);
  aooct_step_rewind (step);
  return aooct_step_execute (step, in, out, run, error);
}

/* One buffer on the GPU: its input onto the GPU (aooct-cuda-input.c),
 * the step on device planes, its output on its way off the GPU. */
gboolean
aooct_cuda_buffer_transform (AooctCudaBackend * ce,
    const AooctCudaBuffer * b, GstBuffer * inbuf, GstBuffer * outbuf,
    GError ** error)
{
  const AooctInputDesc *id = b->in;
  const AooctOutputDesc *od = b->out;
  AooctCudaMemory *out_mem = outbuf ?
      aooct_cuda_memory_of_buffer (outbuf, ce->context) : NULL;
  gboolean out_video_cuda = outbuf && od->video && od->cuda_memory;
  /* what changes per buffer besides the planes: the stream, the steps
   * deferred to this one, the meta of what it leaves to downstream,
   * whether the input may be overwritten, the live settings */
  AooctStepRun run = { ce->stream, b->pending, NULL, FALSE, b->live,
    b->in_offset
  };
  GstVideoFrame out_frame;
  gboolean out_frame_mapped = FALSE;
  AooctCudaInput input;
  AooctPlane in, out;
  gsize in_rows, in_stride, out_rows, out_stride;
  gboolean ok = FALSE;

  memset (&input, 0, sizeof (input));

  plane_layout (id->video, id->vinfo, id->geom, &in_rows, &in_stride);
  if (aooct_pending_meta_data_is_real (b->pending))
    in_stride /= 2;
  plane_layout (od->video, od->vinfo, od->geom, &out_rows, &out_stride);
  if (!aooct_cuda_element_push (ce, error))
    return FALSE;
  aooct_cuda_clear_stale_error ();

  if (inbuf == NULL) {
    /* a group making its image (gst_aooct_filter_emit) */
    in.data = NULL;
    in.stride = 0;
  } else if (!aooct_cuda_input_begin (ce, b, inbuf, in_rows, in_stride,
          &input, &in, error)) {
    goto done;
  }
  run.in_disposable = input.disposable;

  if (outbuf == NULL) {
    /* a group taking B-scans in (gst_aooct_filter_collect) */
    out.data = NULL;
    out.stride = 0;
  } else if (out_video_cuda) {
    /* libgstcuda memory for nvcodec: plane 0 to the element, the chroma
     * of a YUV format neutral */
    if (!aooct_cuda_video_map_output (ce, outbuf, &out_frame, error))
      goto done;
    out_frame_mapped = TRUE;
    out.data = GST_VIDEO_FRAME_PLANE_DATA (&out_frame, 0);
    out.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, 0);
    if (!aooct_cuda_video_neutral_chroma (ce, &out_frame, error))
      goto done;
  } else if (out_mem) {
    if (!aooct_cuda_memory_begin_access (out_mem, ce->stream, error))
      goto done;
    out.data = out_mem->dptr;
    out.stride = out_stride;
    if (b->leave_pending && gst_buffer_is_writable (outbuf))
      run.out_pending = aooct_buffer_ensure_pending_meta (outbuf);
  } else if (!aooct_cuda_upload_output_plane (ce, out_rows, out_stride, &out,
          error)) {
    goto done;
  }

  if (!aooct_cuda_element_timing_begin (ce, error)
      || !process_step (ce, b, &in, &out, &run, error)
      || !aooct_cuda_element_timing_end (ce, error)
      || !aooct_cuda_upload_done (ce, error))
    goto done;
#ifdef AOOCT_FAULT_INJECTION
  if (G_UNLIKELY (b->fault != AOOCT_CUDA_FAULT_NONE)
      && !aooct_cuda_fault_inject (b->fault, ce->stream, error))
    goto done;
#endif

  /* Where the data leaves the GPU, the host does not wait here: the
   * output goes into the ring (generate_output) and is pushed once its
   * download or GPU work has completed. */
  if (outbuf == NULL) {
    /* nothing leaves the GPU */
  } else if (out_video_cuda) {
    /* GStreamer 1.22's GstCudaMemory has no stream and nvcodec elements
     * use their own: the frame must be complete before it is pushed; from
     * 1.24 on the memory's stream carries the order instead */
    if (!aooct_cuda_video_mark_output (ce, error))
      goto done;
  } else if (out_mem) {
    if (!aooct_cuda_memory_end_access (out_mem, ce->stream, TRUE, error))
      goto done;
  } else if (!download_output (ce, od, outbuf, &out, out_rows, error)) {
    goto done;
  }
  if (!aooct_cuda_input_end (ce, &input, error))
    goto done;
  ok = TRUE;

done:
  /* after a failure too: the next upload must still wait for whatever of
   * this buffer's work was enqueued */
  aooct_cuda_upload_done (ce, NULL);
  if (out_frame_mapped)
    gst_video_frame_unmap (&out_frame);
  aooct_cuda_video_unmap_input (ce, &input.video, NULL);
  aooct_cuda_element_pop (ce);
  return ok;
}

/* (see aooct-cuda-element.h) */
gboolean
aooct_cuda_buffer_take_output (AooctCudaBackend * ce,
    const AooctOutputDesc * od, GstBuffer ** buf, GError ** error)
{
  AooctOutputRingSlot *out;
  gconstpointer staging = NULL;
  GstVideoFrame frame;
  GstMapInfo map;
  AooctPlane host;
  gboolean ok;

  *buf = NULL;
  ok = aooct_cuda_element_push (ce, error);
  if (ok) {
    ok = aooct_output_ring_wait_head (ce->ring, &out, &staging, error);
    aooct_cuda_element_pop (ce);
  }
  if (ok && staging) {
    /* the slot is not reused before drop_head */
    if (aooct_filter_map_plane (out->buf, od->video, od->vinfo,
            od->geom, GST_MAP_WRITE, &frame, &map, &host)) {
      aooct_output_ring_copy_staged (out, staging, &host);
      aooct_filter_unmap_plane (od->video, out->buf, &frame, &map);
    } else {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "cannot map the output buffer for writing");
      ok = FALSE;
    }
  }
  if (ok) {
    *buf = out->buf;
    out->buf = NULL;
  }
  aooct_output_ring_drop_head (ce->ring);
  return ok;
}
