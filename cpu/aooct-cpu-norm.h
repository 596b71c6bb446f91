/* aooct CPU core: crop, intensity, log and normalisation to grey levels
 * (spec section 7).
 *
 * Input: B-scans of M A-lines of P2 complex float32 samples (the output of
 * the FFT), A-line after A-line.  Output: for every B-scan, the rows
 * crop_start .. crop_end - 1 of the depth axis, one image row per depth bin
 * and one column per A-line (the display orientation), GRAY8 or GRAY16;
 * several B-scans are stacked vertically.  The range (lo, hi) is computed
 * per B-scan in automatic mode.
 *
 * How the pixel is computed, and why it stays within one grey level of a
 * float64 implementation: I = re^2 + im^2 and L = 10 log10 (max (I, 1e-30))
 * are float32 (relative error ~1e-7, i.e. ~1e-5 dB); the range is reduced
 * from the very values that are then mapped, so lo and hi are exact for
 * those values; the mapping is t = (value - lo) * s with s = Q / (hi - lo)
 * computed in double (Q = 255 or 65535), clamped to [0, Q], and the pixel
 * is floor (t + 0.5).  The error in t is far below 0.01 grey levels, so a
 * pixel can differ from the float64 result only when the exact t lies
 * within that distance of a .5 boundary, and then by one level. */
#ifndef __AOOCT_CPU_NORM_H__
#define __AOOCT_CPU_NORM_H__

#include <glib.h>
#include "aooct-geometry.h"
#include "aooct-norm-range.h"

G_BEGIN_DECLS

/* What may change from one buffer to the next (the element reads them per
 * buffer); the crop is fixed per AooctCpuNorm. */
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

typedef struct _AooctCpuNorm AooctCpuNorm;

/* Scratch for one B-scan of @in (M x (crop_end - crop_start) floats).
 * The crop must come from aooct_norm_resolve_crop(). */
AooctCpuNorm *aooct_cpu_norm_new (const AooctGeometry * in, gint crop_start,
    gint crop_end);
void aooct_cpu_norm_free (AooctCpuNorm * norm);

/* @in: in->bscans * in->alines A-lines of in->samples interleaved complex
 * float32.  @out: bscans * (crop_end - crop_start) rows of in->alines
 * pixels (guint8 or guint16), @out_stride bytes apart.  @settings must
 * have passed aooct_norm_settings_check(). */
void aooct_cpu_norm_process (AooctCpuNorm * norm,
    const AooctNormSettings * settings, const gfloat * in, guint8 * out,
    gsize out_stride);

G_END_DECLS

#endif /* __AOOCT_CPU_NORM_H__ */
