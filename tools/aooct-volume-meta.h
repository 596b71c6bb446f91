/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: what a volume file says about the chain that made it (the
 * attributes of aooct-stack --hdf5's /volume, the key=value lines of its
 * TIFFs' ImageDescription), read from the pipeline's elements and the
 * caps of the complex data. */
#ifndef __AOOCT_VOLUME_META_H__
#define __AOOCT_VOLUME_META_H__

#include <gst/gst.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS
/* One item: @value holds a gint64, a gdouble or a string. */
    typedef struct
{
  const gchar *name;            /* static */
  GValue value;
} AooctVolumeMeta;

/* The first element of @pipeline (recursing into bins) made by @factory,
 * or NULL; unref. */
GstElement *aooct_volume_meta_find (GstElement * pipeline,
    const gchar * factory);

/* What the chain says about its images at aooctnorm: its input caps'
 * geometry, its crop (resolved) and its depth-per-row; FALSE where the
 * pipeline has no aooctnorm or it has not negotiated. */
gboolean aooct_volume_meta_describe_norm (GstElement * pipeline,
    AooctGeometry * geom, gint * start, gint * end, gdouble * um);

/* The items: what the values are (@values, a sentence) and their
 * @units ("dB", "grey level"), the sample grid of @geom (raw_samples N, pad_size P1,
 * samples P2, pad_factor f, pad_offset, alines, full_range; NULL: left
 * out) and the crop [@crop_start, @crop_end) in depth bins,
 * depth_um_per_pixel @um_per_row (0: unknown) and first_row_um, the
 * settings of the aooct elements in @pipeline (calibration, dispersion,
 * window, interpolation, DC subtraction, display range; files as absolute
 * paths) and the plugin's version.  Free with g_ptr_array_unref(). */
GPtrArray *aooct_volume_meta_collect (GstElement * pipeline,
    const AooctGeometry * geom, gint crop_start, gint crop_end,
    gdouble um_per_row, const gchar * values, const gchar * units);

/* The items as "aooct_NAME=VALUE\n" lines (numbers in the C locale, line
 * breaks in strings as spaces), for an ImageJ description. */
gchar *aooct_volume_meta_to_text (GPtrArray * meta);

/* aooctkmap's wavelength-file in @pipeline, or NULL; g_free. */
gchar *aooct_volume_meta_calibration_file (GstElement * pipeline);

G_END_DECLS
#endif /* __AOOCT_VOLUME_META_H__ */
