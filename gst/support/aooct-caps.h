/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: application/x-aooct caps <-> AooctGeometry.
 *
 * The caps between aooct elements describe a buffer completely, so that
 * every element can derive what it needs from its input caps alone:
 *
 *   application/x-aooct,
 *     domain=(string){spectral,depth}, sample-type=(string){real,complex},
 *     samples=(int)P2, alines=(int)M, bscans=(int)B,
 *     raw-samples=(int)N, pad-offset=(int)o, pad-factor=(int)f,
 *     pad-size=(int)P1, k-linear=(boolean), framerate=(fraction)
 *     [, full-range=(boolean)]  (spec section 9; absent = false)
 *     [, k-sampling=(string){nudft,nufft}, k-positions=(buffer)
 *        [, nufft-kernel=(string){kaiser-bessel,gaussian},
 *           nufft-oversampling=(double)R, nufft-width=(int)W]]
 *
 * k-sampling (absent = even) marks spectra whose samples lie at the
 * positions s_j on the even-k grid that k-positions holds (float64, one
 * per sample of the data region j0..j1, host order), made by aooctkmap
 * in interpolation=nudft|nufft: aooctdisp then weights each sample at
 * its position and aooctfft computes spec section 8's sum.  The
 * positions travel in the caps so that every element learns them from
 * its input caps alone (through a tee, from a file of caps...).
 *
 * A buffer holds B B-scans of M A-lines of P2 samples (float32, or
 * interleaved float32 re/im for complex), A-line after A-line. */
#ifndef __AOOCT_CAPS_H__
#define __AOOCT_CAPS_H__

#include <gst/gst.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

#define AOOCT_CAPS_NAME "application/x-aooct"

/* Template caps string of every aooct pad, in system memory. */
#define AOOCT_CAPS_TEMPLATE AOOCT_CAPS_NAME

/* Fills @geom from a fixed application/x-aooct structure; on failure names
 * the missing or invalid field. */
gboolean aooct_structure_to_geometry (const GstStructure * s,
    AooctGeometry * geom, GError ** error);

gboolean aooct_caps_to_geometry (const GstCaps * caps, AooctGeometry * geom,
    GError ** error);

GstCaps *aooct_geometry_to_caps (const AooctGeometry * geom);

/* Sets k-positions on (every structure of) @caps: @n doubles. */
void aooct_caps_set_positions (GstCaps * caps, const gdouble * positions,
    gint n);

gboolean aooct_structure_has_positions (const GstStructure * s);

/* The k-positions of @s, checked against @geom (count j1 - j0 + 1,
 * finite, increasing, inside the data region); g_free. */
gdouble *aooct_structure_get_positions (const GstStructure * s,
    const AooctGeometry * geom, GError ** error);

/* g_set_error through GStreamer's printf, which prints GST_PTR_FORMAT
 * (caps, events, objects) and GST_SEGMENT_FORMAT as text; GLib's printf
 * prints the pointer and a BEL instead. */
void aooct_set_error (GError ** error, GQuark domain, gint code,
    const gchar * format, ...) G_GNUC_PRINTF (4, 5);

G_END_DECLS

#endif /* __AOOCT_CAPS_H__ */
