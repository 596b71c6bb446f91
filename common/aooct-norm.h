/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctnorm's settings and the rules both backends (and the volume
 * views) apply to them: what the spec forbids, the effective depth crop,
 * the grey-level range of a B-scan (spec section 7).  The per-pixel
 * arithmetic is aooct-norm-range.h; the cores are cpu/aooct-cpu-norm.h and
 * cuda/aooct-cuda-norm.h. */
#ifndef __AOOCT_NORM_H__
#define __AOOCT_NORM_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

/* What may change from one buffer to the next (the element reads them per
 * buffer); the crop is fixed per core (made for one crop). */
typedef struct
{
  gboolean log;                 /* map L in dB instead of I */
  gboolean auto_range;          /* per-B-scan range instead of range_min/max */
  gdouble dynamic_range;        /* dB below the maximum (log, auto); 0 = min */
  gdouble range_min, range_max; /* manual range (dB in log mode) */
  gint bits;                    /* 8 (GRAY8) or 16 (GRAY16_LE) */
} AooctNormSettings;

/* Checks what the spec forbids: a non-finite or negative dynamic range,
 * a non-finite manual range, range_max <= range_min with manual range.
 * The message names the properties (dynamic-range, range-min, range-max). */
gboolean aooct_norm_settings_check (const AooctNormSettings * s,
    GError ** error);

/* The effective crop for the depth geometry @in: @crop_end 0 means
 * floor (P1 / 2).  Fails (AOOCT_ERROR_SETTINGS, naming crop-start /
 * crop-end) for crop_start >= crop_end or crop_end > P2.  On full-range
 * input (spec section 9) the crop is in signed depth bins (a negative bin
 * b is FFT bin P2 + b) and crop_start = crop_end = 0 means
 * [-floor (P1/2), floor (P1/2)). */
gboolean aooct_norm_resolve_crop (const AooctGeometry * in, gint crop_start,
    gint crop_end, gint * start, gint * end, GError ** error);

/* lo and hi of one B-scan whose values (I or L) span [vmin, vmax]; also
 * the scale s = Q / (hi - lo), or 0 when hi == lo (every pixel 0) or the
 * range is not finite. */
void aooct_norm_range (const AooctNormSettings * s, gdouble vmin,
    gdouble vmax, gdouble * lo, gdouble * hi, gdouble * scale);

G_END_DECLS

#endif /* __AOOCT_NORM_H__ */
