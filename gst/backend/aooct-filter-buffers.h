/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the buffer layer of GstAooctFilter (docs/architecture.md, "The
 * base class in layers"): what the negotiated caps promise of a buffer,
 * the check of every input buffer against it, mapping a buffer as the
 * AooctPlane a step sees, and the step on buffers mapped on the host (the
 * CPU backend).  It takes what it needs as arguments, never the filter:
 * the base class (gstaooctfilter.c) describes its pads with
 * aooct_filter_input_desc / aooct_filter_output_desc
 * (gstaooctfilter.c), and the CUDA backend (aooct-cuda-element.h)
 * uses the same descriptions. */
#ifndef __AOOCT_FILTER_BUFFERS_H__
#define __AOOCT_FILTER_BUFFERS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "aooct-geometry.h"
#include "aooct-raw-format.h"
#include "aooct-pending-meta.h"
#include "aooct-step.h"

G_BEGIN_DECLS

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

/* ... and of the negotiated output. */
typedef struct
{
  gboolean video;               /* video/x-raw src caps */
  const GstVideoInfo *vinfo;    /* ... their GstVideoInfo */
  const AooctGeometry *geom;
  gboolean cuda_memory;         /* src caps in memory:CUDAMemory */
} AooctOutputDesc;

/* @pending: the input's deferred steps; with a pending dispersion the
 * buffer holds the real spectra, half the size of the complex ones its
 * caps describe. */
gsize aooct_filter_expected_input_size (const AooctInputDesc * in,
    const AooctPendingMeta * pending);
gsize aooct_filter_output_size (const AooctOutputDesc * out);
/* FALSE with a message naming the sizes when @inbuf is not what @in
 * promises (with @pending, its deferred steps: aooct_buffer_get_pending_meta
 * of @inbuf, taken once by the caller); sets *@layout (the rows of video
 * input) for the buffer. */
gboolean aooct_filter_check_input_size (const AooctInputDesc * in,
    GstBuffer * inbuf, const AooctPendingMeta * pending, GstVideoInfo * layout,
    GError ** error);
/* Maps @buf as one AooctPlane: a video frame of @vinfo (@video) or rows
 * of @geom's A-lines. */
gboolean aooct_filter_map_plane (GstBuffer * buf, gboolean video,
    const GstVideoInfo * vinfo, const AooctGeometry * geom, GstMapFlags flags,
    GstVideoFrame * frame, GstMapInfo * map, AooctPlane * plane);
void aooct_filter_unmap_plane (gboolean video, GstBuffer * buf,
    GstVideoFrame * frame, GstMapInfo * map);

/* The CPU backend: @step's execute on @inbuf (rows of @in_layout where
 * @in is video) and @outbuf (of @out) mapped on the host, with @run; a
 * group passes one of them only (gst_aooct_filter_collect / _emit), the
 * other plane is then {NULL, 0}.  Adds the time of the step's execute to
 * *@host_ms. */
gboolean aooct_filter_process_host (AooctStep * step,
    const AooctInputDesc * in, const GstVideoInfo * in_layout,
    const AooctOutputDesc * out, GstBuffer * inbuf, GstBuffer * outbuf,
    const AooctStepRun * run, gdouble * host_ms, GError ** error);

G_END_DECLS
#endif /* __AOOCT_FILTER_BUFFERS_H__ */
