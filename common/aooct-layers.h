/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the layer finder of spec section 13 ("Layers"), shared by
 * aooctenface layer=brightest and aooctorg on both backends: the search
 * window resolved against the crop, and the CPU finder itself (the CUDA
 * kernels of cuda/aooct-cuda-views.cu and cuda/aooct-cuda-org.cu compute
 * the same sums, in double as here).
 *
 * Depth bins are signed on full-range input (spec section 9): bin b < 0 is
 * FFT bin P2 + b.  "The B-scan's bins" are [0, P2) on a real chain and
 * [-floor (P2/2), P2 - floor (P2/2)) on a full-range one. */
#ifndef __AOOCT_LAYERS_H__
#define __AOOCT_LAYERS_H__

#include <glib.h>

G_BEGIN_DECLS

#define AOOCT_LAYER_DEFAULT_RANGE 8
#define AOOCT_LAYER_DEFAULT_SMOOTH 5

/* The finder's settings, resolved (plain data: CUDA kernels take it by
 * value). */
typedef struct
{
  gint search_start, search_end;        /* [start, end), inside the crop */
  gint range;                   /* layer-range: z_B +- range */
  gint half;                    /* h = floor (layer-smooth / 2) */
  gint samples;                 /* P2 */
  gint bin_lo, bin_hi;          /* the B-scan's bins [bin_lo, bin_hi) */
} AooctLayerParams;

/* The search window [@start, @end) as set (0 = the crop's start / end)
 * checked against the crop [@crop_start, @crop_end): empty or not inside
 * the crop is an error naming @element, the property and its value.
 * @range, @smooth: layer-range, layer-smooth (>= 0, >= 1). */
gboolean aooct_layer_params_resolve (AooctLayerParams * lp,
    const gchar * element, gint start, gint end, gint crop_start,
    gint crop_end, gint range, gint smooth, gint samples,
    gboolean full_range, GError ** error);

/* FFT index of signed bin @b */
static inline gint
aooct_layer_index (const AooctLayerParams * lp, gint b)
{
  return b < 0 ? b + lp->samples : b;
}

/* z_B: the argmax (smallest on ties) over the search window of the mean
 * over the A-lines of I[m][z]; @x is one B-scan of @alines A-lines of
 * P2 complex samples. */
gint aooct_layer_profile_peak (const AooctLayerParams * lp, const gfloat * x,
    gint alines);

/* z_l[m] for every A-line: the argmax (smallest on ties) of the laterally
 * smoothed intensity S[m][z] over [z_b - range, z_b + range] inside the
 * search window.  @scratch holds (2 range + 1) * (alines + 1) doubles. */
void aooct_layer_follow (const AooctLayerParams * lp, const gfloat * x,
    gint alines, gint z_b, gint * z_l, gdouble * scratch);

/* The same argmax of S[m][z] over [lo, hi] (signed bins, clipped to
 * [clip_lo, clip_hi)) for one A-line @m; -1 - G_MAXINT (G_MININT) when the
 * window holds no bin.  For aooctorg's second layer. */
gint aooct_layer_argmax_smoothed (const AooctLayerParams * lp,
    const gfloat * x, gint alines, gint m, gint lo, gint hi, gint clip_lo,
    gint clip_hi);

G_END_DECLS
#endif /* __AOOCT_LAYERS_H__ */
