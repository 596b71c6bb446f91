/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's buffers: the sizes the caps promise, the check
 * of every input buffer against them (and of its GstVideoMeta), mapping a
 * buffer as the plane a process function sees, and the step on buffers
 * mapped on the host (see aooct-filter-buffers.h).  Nothing here knows
 * the filter. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-buffers.h"
#include "aooct-caps.h"
#include "aooct-error.h"

/* @pending: the input's deferred steps; with a pending dispersion the
 * buffer holds the real spectra, half the size of the complex ones its
 * caps describe. */
gsize
aooct_filter_expected_input_size (const AooctInputDesc * in,
    const AooctPendingMeta * pending)
{
  gsize size = in->video ? GST_VIDEO_INFO_SIZE (in->vinfo) :
      aooct_geometry_buffer_bytes (in->geom);

  return aooct_pending_meta_data_is_real (pending) ? size / 2 : size;
}

gsize
aooct_filter_output_size (const AooctOutputDesc * out)
{
  return out->video ? GST_VIDEO_INFO_SIZE (out->vinfo) :
      aooct_geometry_buffer_bytes (out->geom);
}

gboolean
aooct_filter_map_plane (GstBuffer * buf, gboolean video,
    const GstVideoInfo * vinfo, const AooctGeometry * geom, GstMapFlags flags,
    GstVideoFrame * frame, GstMapInfo * map, AooctPlane * plane)
{
  if (video) {
    if (!gst_video_frame_map (frame, vinfo, buf, flags))
      return FALSE;
    plane->data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
    plane->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  } else {
    if (!gst_buffer_map (buf, map, flags))
      return FALSE;
    plane->data = map->data;
    plane->stride = aooct_geometry_aline_bytes (geom);
  }
  return TRUE;
}

void
aooct_filter_unmap_plane (gboolean video, GstBuffer * buf,
    GstVideoFrame * frame, GstMapInfo * map)
{
  if (video)
    gst_video_frame_unmap (frame);
  else
    gst_buffer_unmap (buf, map);
}

/* Checks a GstVideoMeta of the input against its buffer: a stride or
 * offset that puts a row past the end would make the element read out of
 * bounds (on the CPU and on the GPU alike). */
static gboolean
check_video_meta (const AooctInputDesc * in, GstBuffer * inbuf,
    const GstVideoMeta * meta, GError ** error)
{
  const GstVideoInfo *vi = in->vinfo;
  gsize size = gst_buffer_get_size (inbuf);
  gsize row = (gsize) GST_VIDEO_INFO_COMP_PSTRIDE (vi, 0) *
      GST_VIDEO_INFO_WIDTH (vi);
  guint64 end;

  if (meta->format != GST_VIDEO_INFO_FORMAT (vi)
      || meta->width != (guint) GST_VIDEO_INFO_WIDTH (vi)
      || meta->height != (guint) GST_VIDEO_INFO_HEIGHT (vi)
      || meta->n_planes < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer's GstVideoMeta describes a %s %ux%u frame but the "
        "caps say %s %dx%d", gst_video_format_to_string (meta->format),
        meta->width, meta->height, GST_VIDEO_INFO_NAME (vi),
        GST_VIDEO_INFO_WIDTH (vi), GST_VIDEO_INFO_HEIGHT (vi));
    return FALSE;
  }
  if (meta->stride[0] < 0 || (gsize) meta->stride[0] < row) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer's GstVideoMeta gives a row stride of %d bytes, "
        "less than a row of %" G_GSIZE_FORMAT " bytes", meta->stride[0], row);
    return FALSE;
  }
  /* on CUDA, rows are staged MIN (stride, caps stride) bytes at a time */
  if (in->on_cuda)
    row = MAX (row, MIN ((gsize) meta->stride[0],
            (gsize) GST_VIDEO_INFO_PLANE_STRIDE (vi, 0)));
  end = (guint64) meta->offset[0] + (guint64) meta->stride[0] *
      (meta->height - 1) + row;
  if (end > size) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "the input buffer's GstVideoMeta (offset %" G_GSIZE_FORMAT ", stride "
        "%d) puts the last row's end at byte %" G_GUINT64_FORMAT ", past the "
        "end of the %" G_GSIZE_FORMAT "-byte buffer", meta->offset[0],
        meta->stride[0], end, size);
    return FALSE;
  }
  return TRUE;
}

/* A buffer whose size is not what its caps promise would be read out of
 * bounds or produce a wrong image: stop with a clear message instead.
 * Video input with a GstVideoMeta (checked against the buffer), or in
 * GstCudaMemory (pitched rows, its layout in the memory's GstVideoInfo),
 * may legitimately carry other strides; video input without a meta may
 * have its rows tightly packed (the spec's raw layout, which is what
 * rawvideoparse with plane-strides gives for a width whose rows GStreamer
 * would pad to 4 bytes).  Sets *@layout (video input) for the buffer. */
gboolean
aooct_filter_check_input_size (const AooctInputDesc * in, GstBuffer * inbuf,
    const AooctPendingMeta * pending, GstVideoInfo * layout, GError ** error)
{
  gsize size = gst_buffer_get_size (inbuf), expected, packed = 0;
  GstVideoMeta *meta = NULL;

  if (in->video) {
    *layout = *in->vinfo;
    meta = gst_buffer_get_video_meta (inbuf);
    if (meta && !aooct_raw_format_is_video (in->raw_format)) {
      /* a GstVideoMeta has no format for packed or float samples */
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "the input buffer of %s rows carries a GstVideoMeta (%s %ux%u), "
          "which cannot describe packed or float samples: such rows must "
          "follow each other with nothing between them (docs/caps.md)",
          aooct_raw_format_name (in->raw_format),
          gst_video_format_to_string (meta->format), meta->width, meta->height);
      return FALSE;
    }
    if (meta)
      return check_video_meta (in, inbuf, meta, error);
  }
  /* (a frame with a GstVideoMeta was checked against its own layout) */
  expected = aooct_filter_expected_input_size (in, pending);
  if (in->video) {
    packed = (gsize) GST_VIDEO_INFO_COMP_PSTRIDE (in->vinfo, 0) *
        GST_VIDEO_INFO_WIDTH (in->vinfo) * GST_VIDEO_INFO_HEIGHT (in->vinfo);
    if (size == packed && packed != expected && !in->cuda_memory) {
      GST_VIDEO_INFO_PLANE_STRIDE (layout, 0) =
          GST_VIDEO_INFO_COMP_PSTRIDE (in->vinfo, 0) *
          GST_VIDEO_INFO_WIDTH (in->vinfo);
      GST_VIDEO_INFO_SIZE (layout) = packed;
      return TRUE;
    }
  }
  if (size != expected && !(in->video
          && (meta || in->cuda_memory) && size >= expected)) {
    gchar *also = packed && packed != expected ?
        g_strdup_printf (" or %" G_GSIZE_FORMAT " with tightly packed rows",
        packed) : g_strdup ("");

    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "input buffer has %" G_GSIZE_FORMAT " bytes but its caps say %"
        G_GSIZE_FORMAT "%s (%d A-lines of %d samples x %d B-scans); "
        "%s", size, expected, also, in->geom->alines,
        in->geom->samples, in->geom->bscans, size < expected ?
        "buffer too short" : "buffer too long");
    g_free (also);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_filter_process_host (AooctStep * step, const AooctInputDesc * in,
    const GstVideoInfo * in_layout, const AooctOutputDesc * out,
    GstBuffer * inbuf, GstBuffer * outbuf, const AooctStepRun * run,
    gdouble * host_ms, GError ** error)
{
  GstVideoFrame in_frame, out_frame;
  GstMapInfo in_map, out_map;
  AooctPlane inp, outp;
  gint64 t0;
  gboolean ok;

  inp.data = outp.data = NULL;
  inp.stride = outp.stride = 0;
  if (inbuf && !aooct_filter_map_plane (inbuf, in->video, in_layout,
          in->geom, GST_MAP_READ, &in_frame, &in_map, &inp)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "cannot map the input buffer for reading");
    return FALSE;
  }
  if (outbuf && !aooct_filter_map_plane (outbuf, out->video, out->vinfo,
          out->geom, GST_MAP_WRITE, &out_frame, &out_map, &outp)) {
    if (inbuf)
      aooct_filter_unmap_plane (in->video, inbuf, &in_frame, &in_map);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "cannot map the output buffer for writing");
    return FALSE;
  }

  t0 = g_get_monotonic_time ();
  ok = aooct_step_execute (step, &inp, &outp, run, error);
  *host_ms += (g_get_monotonic_time () - t0) / 1000.0;

  if (outbuf)
    aooct_filter_unmap_plane (out->video, outbuf, &out_frame, &out_map);
  if (inbuf)
    aooct_filter_unmap_plane (in->video, inbuf, &in_frame, &in_map);
  return ok;
}
