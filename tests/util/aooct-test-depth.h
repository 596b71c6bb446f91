/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: realistic depth-domain data (aooctfft's output), shared by
 * the aooctnorm tests on the CPU and on CUDA. */
#ifndef __AOOCT_TEST_DEPTH_H__
#define __AOOCT_TEST_DEPTH_H__

#include <gst/gst.h>

#include "aooct-caps.h"

G_BEGIN_DECLS

typedef struct
{
  gint m, bscans, n, p1, f;     /* geometry; P2 = f * P1, o = (P1 - n) / 2 */
} AooctTestDepthGeom;

/* aooctfft's output geometry for @g (k-linear, complex, depth domain). */
void aooct_test_depth_geometry (const AooctTestDepthGeom * g,
    AooctGeometry * geom);
GstCaps *aooct_test_depth_caps (const AooctTestDepthGeom * g);

/* A retina-like depth profile with speckle at overall level @scale:
 * g->bscans * g->m A-lines of P2 interleaved complex floats (g_free). */
gfloat *aooct_test_make_depth (GRand * rand, const AooctTestDepthGeom * g,
    gdouble scale);

G_END_DECLS

#endif /* __AOOCT_TEST_DEPTH_H__ */
