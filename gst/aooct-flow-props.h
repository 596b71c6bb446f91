/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what the elements of spec section 12 (aooctdoppler, aooctangio)
 * share as elements: the properties both have (crop-start, crop-end as
 * aooctnorm's, aline-window, depth-window, threshold), the check of their
 * input, the output format and the shape of their image. */
#ifndef __AOOCT_FLOW_PROPS_H__
#define __AOOCT_FLOW_PROPS_H__

#include <gst/gst.h>
#include "gstaooctfilter.h"
#include "aooct-flow.h"

G_BEGIN_DECLS typedef struct
{
  gint crop_start, crop_end;    /* as set: crop-end 0 = pad-size / 2 */
  gint aline_window, depth_window;
  gdouble threshold;
} AooctFlowProps;

/* the five properties get ids @first .. @first + AOOCT_FLOW_PROPS - 1 */
#define AOOCT_FLOW_PROPS 5

/* @aline_window: the element's default; @image: what the image is of
 * ("B-scan", "group") */
void aooct_flow_props_install (GObjectClass * klass, guint first,
    gint aline_window, const gchar * image);
void aooct_flow_props_init (AooctFlowProps * p, gint aline_window);
/* FALSE when @prop_id is not one of the five (under the caller's lock) */
gboolean aooct_flow_props_set (AooctFlowProps * p, guint first,
    guint prop_id, const GValue * value);
gboolean aooct_flow_props_get (const AooctFlowProps * p, guint first,
    guint prop_id, GValue * value);

/* derive_output() of both: @in must be depth-domain complex (naming
 * @element and what it got); the crop of @p resolved into @start / @end;
 * @out: video of in->alines x the crop (rows per B-scan in samples) */
gboolean aooct_flow_derive_output (const gchar * element,
    const AooctFlowProps * p, const AooctGeometry * in, AooctGeometry * out,
    gint * start, gint * end, GError ** error);

/* The format of the negotiated output: GRAY8, GRAY16_LE and (@rgba_map,
 * aooctdoppler) RGBA in system memory; NV12, I420 (luma as GRAY8) and
 * RGBA in CUDA memory. */
gboolean aooct_flow_output_format (GstAooctFilter * filter,
    const gchar * element, gboolean rgba_map, AooctFlowFormat * format,
    GError ** error);

/* The video formats both offer in CUDA memory (the class's
 * cuda_video_formats) */
extern const gchar *const aooct_flow_cuda_video_formats[];

G_END_DECLS
#endif /* __AOOCT_FLOW_PROPS_H__ */
