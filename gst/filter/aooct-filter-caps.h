/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's caps helpers (aooct-filter-caps.c): functions of
 * caps and the facts passed in, not of the filter. */
#ifndef __AOOCT_FILTER_CAPS_H__
#define __AOOCT_FILTER_CAPS_H__

#include <gst/gst.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS
/* @caps's first structure is in CUDA memory. */
    gboolean aooct_filter_caps_are_cuda (GstCaps * caps);
/* @caps (transfer full) with the memory variants the element can take or
 * give now (@cuda: it runs, or may run, on CUDA; @video_formats: the
 * libgstcuda formats of its video output; @video_in_cuda: it takes video
 * in CUDA memory). */
GstCaps *aooct_filter_caps_with_memory (GstCaps * caps, gboolean cuda,
    const gchar * const *video_formats, gboolean video_in_cuda);
/* @caps (transfer full) with pixel-aspect-ratio=1/1 on every raw video
 * structure that has none; NULL for NULL. */
GstCaps *aooct_filter_caps_square_pixels (GstCaps * caps);
/* @result (transfer full) with the k-positions of @incaps where @out keeps
 * non-uniform samples. */
GstCaps *aooct_filter_caps_forward_positions (GstCaps * result,
    const GstCaps * incaps, const AooctGeometry * out);
/* Which field of @ours downstream (@theirs) refuses; NULL when no single
 * field is to blame.  g_free. */
gchar *aooct_filter_caps_difference (GstCaps * ours, GstCaps * theirs);

G_END_DECLS
#endif /* __AOOCT_FILTER_CAPS_H__ */
