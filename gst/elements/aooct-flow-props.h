/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what the elements of spec section 12 (aooctdoppler, aooctangio)
 * share as elements: the properties both have (crop-start, crop-end as
 * aooctnorm's, aline-window, depth-window, threshold), set_property and
 * get_property for them and the element's own, the pad templates, the
 * check of their input and the crop, the output format and caps.  An
 * element describes itself in an AooctFlowClassInfo; its file holds its
 * own properties and its step. */
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

/* The property group (docs/architecture.md, "Property groups"): the five
 * get ids @first_prop_id .. @first_prop_id + AOOCT_FLOW_N_PROPS - 1;
 * aooct_flow_class_init() installs them and hands them to _set / _get.
 * @aline_window: the element's default; @image: what the threshold's
 * brightest pixel is of ("B-scan", "image"), for the blurb. */
#define AOOCT_FLOW_N_PROPS 5

void aooct_flow_props_install (GObjectClass * klass, guint first_prop_id,
    gint aline_window, const gchar * image);
void aooct_flow_props_init (AooctFlowProps * p, gint aline_window);
/* FALSE when @prop_id is not one of the five (under the caller's lock) */
gboolean aooct_flow_props_set (AooctFlowProps * p, guint first_prop_id,
    guint prop_id, const GValue * value);
gboolean aooct_flow_props_get (const AooctFlowProps * p, guint first_prop_id,
    guint prop_id, GValue * value);

/* A property of the element's own, kept in its instance at @offset
 * (G_STRUCT_OFFSET): a gint, an enum, a gboolean or a gdouble, as its
 * GParamSpec says. */
typedef struct
{
  guint prop_id;
  gsize offset;
} AooctFlowField;

typedef struct
{
  const gchar *element;         /* "aooctdoppler": names it in errors */
  /* the formats of its output in system memory ("GRAY8, GRAY16_LE"), and
   * whether RGBA is one (a colour map) */
  const gchar *formats;
  gboolean rgba_map;
  gint aline_window;            /* the element's default */
  const gchar *image;           /* what the threshold's brightest pixel is
                                 * of ("B-scan", "image") */
  gsize props;                  /* where its AooctFlowProps is */
  guint first;                  /* the id of the first of the five */
  AooctFlowField own[8];        /* its own properties; a prop_id 0 ends */
} AooctFlowClassInfo;

/* For class_init, before the element installs its own properties: @info
 * (kept), the five properties, set_property and get_property, the pad
 * templates (application/x-aooct in, video/x-raw of info->formats and, on
 * CUDA, NV12, I420 and RGBA in CUDA memory out), derive_output
 * (aooct_flow_derive), output_caps, the CUDA stage. */
void aooct_flow_class_init (GstAooctFilterClass * klass,
    const AooctFlowClassInfo * info);

/* The default derive_output: @in must be depth-domain complex (naming the
 * element and what it got); @out: video of in->alines x the crop (rows
 * per B-scan in samples), in->bscans B-scans */
gboolean aooct_flow_derive (GstAooctFilter * filter, const AooctGeometry * in,
    AooctGeometry * out, GError ** error);

/* setup(): the format of the negotiated output: GRAY8, GRAY16_LE and
 * (info->rgba_map) RGBA in system memory; NV12, I420 (luma as GRAY8) and
 * RGBA in CUDA memory. */
gboolean aooct_flow_output_format (GstAooctFilter * filter,
    AooctFlowFormat * format, GError ** error);
/* setup(): the crop resolved against the negotiated input, and the input's
 * shape, into @p (all but format and repeats); FALSE when the crop no
 * longer gives the negotiated output */
gboolean aooct_flow_params (GstAooctFilter * filter, AooctFlowParams * p,
    GError ** error);

G_END_DECLS
#endif /* __AOOCT_FLOW_PROPS_H__ */
