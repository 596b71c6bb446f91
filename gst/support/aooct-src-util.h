/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what the raw-frame sources (aooctsrc, aooctfilesrc) share: fixed
 * caps from properties, their video info, frame times. */
#ifndef __AOOCT_SRC_UTIL_H__
#define __AOOCT_SRC_UTIL_H__

#include <gst/base/gstbasesrc.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* The caps field that says how many B-scans a raw frame stacks (frames of
 * height B x M carry B B-scans of M A-lines): aooctdcsub takes its
 * A-lines per B-scan from it (docs/caps.md). */
#define AOOCT_SRC_BSCANS_FIELD "bscans"

/* The fixed caps of a raw-frame source: video/x-raw @format, @width x
 * @height (@bscans B-scans stacked) at @fps_n / @fps_d frames per
 * second. */
GstCaps *aooct_src_video_caps (GstVideoFormat format, gint width,
    gint height, gint bscans, gint fps_n, gint fps_d);

/* Whether frames of @width samples x @height A-lines x @bscans B-scans of
 * @format (the video frame: width, height x bscans rows) can be one
 * GStreamer video frame: at most G_MAXINT rows (the caps' height is an
 * int) and a size GstVideoInfo accepts (about 4 GiB).  Else @error names
 * the properties (@height_name, @bscans_name: NULL when the element has no
 * such property) and what overflowed. */
gboolean aooct_src_check_frame (GstVideoFormat format, gint width,
    gint height, guint bscans, const gchar * height_name,
    const gchar * bscans_name, GError ** error);

/* get_caps(): @caps (taken) intersected with @filter, if any. */
GstCaps *aooct_src_filter_caps (GstCaps * caps, GstCaps * filter);

/* set_caps(): @info from @caps, and a blocksize of one frame. */
gboolean aooct_src_set_video_caps (GstBaseSrc * src, GstVideoInfo * info,
    GstCaps * caps);

/* The time of frame @n at @fps_n / @fps_d frames per second (a rate of
 * 0: 0 for the first frame, none after). */
GstClockTime aooct_src_frame_time (gint fps_n, gint fps_d, guint64 n);

/* change_state() of a source whose start() can fail.  GstBaseSrc posts
 * "state change failed and some element failed to post a proper error
 * message" whenever start() returns FALSE, even after the element posted
 * the reason: so the source opens (@open: what its start() would do,
 * posting its own error) here, at READY_TO_PAUSED before GstBaseSrc, and
 * fails the state change itself; its start() then finds it open.  After
 * a failed state change up, @close undoes @open. */
GstStateChangeReturn aooct_src_change_state (GstElement * element,
    GstStateChange transition, GstElementClass * parent_class,
    gboolean (*open) (GstBaseSrc * src), void (*close) (GstBaseSrc * src));

G_END_DECLS

#endif /* __AOOCT_SRC_UTIL_H__ */
