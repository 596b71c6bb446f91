/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 12 (aooctdoppler,
 * aooctangio), written from the spec alone, independently of the
 * elements' code. */
#ifndef __AOOCT_REF64_FLOW_H__
#define __AOOCT_REF64_FLOW_H__

#include <glib.h>

G_BEGIN_DECLS
/* The image of depth-domain B-scans of @m A-lines of @p2 complex doubles,
 * the signed crop [crop_start, crop_end) resolved, written as @bits 8
 * (GRAY8), 16 (GRAY16) or 32 (RGBA), rows @out_stride bytes apart.
 * @undecidable (rows x m bytes, row major; may be NULL) gets 1 where the
 * spec's Accuracy paragraph says float32 cannot decide the pixel. */
    typedef struct
{
  int p2, m;
  int crop_start, crop_end;
  int bits;
} AooctRefFlowImage;

/* aooctdoppler on one B-scan @depth (M x P2 complex) */
void aooct_ref_flow_doppler (const AooctRefFlowImage * p, int lag, int wm,
    int wz, double threshold, gboolean bulk, const double *depth,
    void *out, size_t out_stride, guint8 * undecidable);

/* aooctangio on the @repeats B-scans of one group, one after the other in
 * @depth; @sv: speckle-variance, else decorrelation */
void aooct_ref_flow_angio (const AooctRefFlowImage * p, int repeats,
    gboolean sv, int wm, int wz, double threshold, double decorrelation_max,
    double variance_max, const double *depth, void *out, size_t out_stride,
    guint8 * undecidable);

G_END_DECLS
#endif /* __AOOCT_REF64_FLOW_H__ */
