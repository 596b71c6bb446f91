/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include "aooct-norm.h"

G_BEGIN_DECLS

typedef struct _AooctCpuNormPlan AooctCpuNormPlan;

/* Scratch for one B-scan of @in (M x (crop_end - crop_start) floats).
 * The crop must come from aooct_norm_resolve_crop(). */
AooctCpuNormPlan *aooct_cpu_norm_plan_new (const AooctGeometry * in,
    gint crop_start,
    gint crop_end);
void aooct_cpu_norm_plan_free (AooctCpuNormPlan * norm);

/* @in: in->bscans * in->alines A-lines of in->samples interleaved complex
 * float32.  @out: bscans * (crop_end - crop_start) rows of in->alines
 * pixels (guint8 or guint16), @out_stride bytes apart.  @settings must
 * have passed aooct_norm_settings_check(). */
void aooct_cpu_norm_execute (AooctCpuNormPlan * norm,
    const AooctNormSettings * settings, const gfloat * in, guint8 * out,
    gsize out_stride);

G_END_DECLS

#endif /* __AOOCT_CPU_NORM_H__ */
