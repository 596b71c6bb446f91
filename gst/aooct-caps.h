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

gboolean aooct_caps_is_aooct (const GstCaps * caps);

/* Fills @geom from a fixed application/x-aooct structure; on failure names
 * the missing or invalid field. */
gboolean aooct_structure_to_geometry (const GstStructure * s,
    AooctGeometry * geom, GError ** error);

gboolean aooct_caps_to_geometry (const GstCaps * caps, AooctGeometry * geom,
    GError ** error);

GstCaps *aooct_geometry_to_caps (const AooctGeometry * geom);

G_END_DECLS

#endif /* __AOOCT_CAPS_H__ */
