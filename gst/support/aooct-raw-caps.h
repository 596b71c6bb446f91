/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: caps of raw camera rows (docs/caps.md): video/x-raw GRAY8 and
 * GRAY16_LE, video/x-aooct-packed for the packed GenICam formats
 * (Mono12p, Mono12Packed, Mono10p) and video/x-aooct-float for float32
 * spectra (spec section 0), for which GStreamer has no raw video format. */
#ifndef __AOOCT_RAW_CAPS_H__
#define __AOOCT_RAW_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "aooct-raw-format.h"

G_BEGIN_DECLS
#define AOOCT_PACKED_CAPS_NAME "video/x-aooct-packed"
#define AOOCT_PACKED_CAPS_TEMPLATE AOOCT_PACKED_CAPS_NAME ", " \
  "format = (string) { mono12p, mono12packed, mono10p }, " \
  "width = (int) [ 2, 1048576 ], height = (int) [ 1, MAX ], " \
  "framerate = (fraction) [ 0/1, MAX ]"
#define AOOCT_FLOAT_CAPS_NAME "video/x-aooct-float"
#define AOOCT_FLOAT_CAPS_TEMPLATE AOOCT_FLOAT_CAPS_NAME ", " \
  "format = (string) F32LE, " \
  "width = (int) [ 2, 1048576 ], height = (int) [ 1, MAX ], " \
  "framerate = (fraction) [ 0/1, MAX ]"
/* Both caps of our own, for the pad templates that take every raw format */
#define AOOCT_OWN_RAW_CAPS_TEMPLATE AOOCT_PACKED_CAPS_TEMPLATE "; " \
  AOOCT_FLOAT_CAPS_TEMPLATE

/* Whether @s is a structure of the caps of our own (packed or float),
 * which GStreamer's video library cannot describe. */
gboolean aooct_raw_structure_is_own (const GstStructure * s);

/* Caps of frames of @height rows of @width samples in @format that stack
 * @bscans B-scans (the field aooct-src-util.h names). */
GstCaps *aooct_raw_caps_new (AooctRawFormat format, gint width, gint height,
    gint bscans, gint fps_n, gint fps_d);

/* The video format and width whose frames have the byte layout of a frame
 * of @width samples in @format: itself, or GRAY8 @width x bits / 8 wide
 * for packed samples (aooct_raw_packed_video_info ()). */
GstVideoFormat aooct_raw_format_video_layout (AooctRawFormat format,
    gint width, gint * layout_width);

/* The byte layout of a packed or float frame as GStreamer's video library
 * can map and copy it: a GRAY8 frame whose width is the row's bytes, rows
 * with nothing between them (stride = row bytes). */
void aooct_raw_packed_video_info (GstVideoInfo * info, AooctRawFormat format,
    gint width, gint height, gint fps_n, gint fps_d);

/* Fixed raw caps into @info (video/x-raw as GStreamer lays it out, packed
 * and float frames as aooct_raw_packed_video_info () does) and @format
 * (GRAY8 and GRAY16_LE for those video formats, AOOCT_RAW_GRAY16_LE for
 * any other).  FALSE for caps that are none of them, or of an unknown
 * packed or float format, or a packed width that is not a multiple of the
 * format's unit. */
gboolean aooct_raw_caps_video_info (const GstCaps * caps, GstVideoInfo * info,
    AooctRawFormat * format);

/* The enum of a `format` property of raw samples (aooctfilesrc): nicks
 * gray16-le, gray8, mono12p, mono12packed, mono10p, float32-le.  gray16-le and gray8
 * keep the values of GST_VIDEO_FORMAT_GRAY16_LE and _GRAY8, which the
 * property had when it was a GstVideoFormat. */
#define GST_TYPE_AOOCT_RAW_FORMAT (gst_aooct_raw_format_get_type ())
GType gst_aooct_raw_format_get_type (void);
/* A value of that enum as a format, and back */
AooctRawFormat aooct_raw_format_from_enum (gint value);
gint aooct_raw_format_to_enum (AooctRawFormat format);

G_END_DECLS
#endif /* __AOOCT_RAW_CAPS_H__ */
