/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tools: what a volume file says about the chain that made it (the
 * attributes of aooct-stack --hdf5's /volume), read from the pipeline's
 * elements and the caps of the complex data. */
#ifndef __AOOCT_VOLUME_META_H__
#define __AOOCT_VOLUME_META_H__

#include <gst/gst.h>
#include "aooct-geometry.h"
#include "aooct-hdf5.h"

G_BEGIN_DECLS
/* The first element of @pipeline (recursing into bins) made by @factory,
 * or NULL; unref. */
    GstElement * aooct_volume_meta_find (GstElement * pipeline,
    const gchar * factory);

/* Writes the attributes: the sample grid of @geom (raw_samples N,
 * pad_size P1, samples P2, pad_factor f, pad_offset, alines; NULL:
 * unknown, left out), the crop [@crop_start, @crop_end) in depth bins,
 * depth_um_per_pixel @um_per_row (0: unknown) and first_row_um, the
 * settings of the aooct elements in @pipeline (calibration, dispersion,
 * window, interpolation, DC subtraction, display range) and the plugin's
 * version; the calibration file's text as the dataset
 * /wavelength_file_contents. */
gboolean aooct_volume_meta_write (AooctHdf5Volume * v, GstElement * pipeline,
    const AooctGeometry * geom, gint crop_start, gint crop_end,
    gdouble um_per_row, GError ** error);

G_END_DECLS
#endif /* __AOOCT_VOLUME_META_H__ */
