/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: the volume views of spec section 11, aooctenface and
 * aooctrender.
 *
 * Both take depth-domain complex B-scans (aooctfft's output) one at a
 * time into a volume of V B-scans (collect) and make one image of it
 * (emit).  What they keep per volume is the value of section 7 (L in dB
 * in log mode, I otherwise) that the image is made of: the en-face image's
 * E[v][m] (the mean or maximum of I over the depth crop of A-line m of
 * B-scan v, then logged), and the renderer's whole cropped volume, voxel
 * (m, v, r) at ((v * M) + m) * rows + r.  The range is taken per volume
 * over the B-scans collected, with section 7's very functions
 * (aooct-norm-range.h), so the pixels are what aooctnorm would make of the
 * same values. */
#ifndef __AOOCT_CPU_VIEWS_H__
#define __AOOCT_CPU_VIEWS_H__

#include <glib.h>
#include "aooct-views.h"

G_BEGIN_DECLS

/* En-face: the values of @count B-scans (@in, A-line after A-line) into
 * rows @first .. @first + @count - 1 of @e (V x M floats). */
void aooct_cpu_enface_collect (const AooctViewParams * p,
    AooctEnfaceProjection projection, gboolean log_mode, const gfloat * in,
    gint first, gint count, gfloat * e);

/* Value range of @n floats (NaN ignored). */
void aooct_cpu_views_minmax (const gfloat * v, gsize n, gfloat * vmin,
    gfloat * vmax);

/* The en-face image of the first @filled rows of @e: width M, V rows
 * @out_stride bytes apart, rows from @filled on black. */
void aooct_cpu_enface_emit (const AooctViewParams * p,
    const AooctNormSettings * s, const gfloat * e, gint filled, guint8 * out,
    gsize out_stride);

/* Renderer: the values of @count B-scans into B-scans @first.. of @vol. */
void aooct_cpu_render_collect (const AooctViewParams * p, gboolean log_mode,
    const gfloat * in, gint first, gint count, gfloat * vol);

/* Ray casts the first @filled B-scans of @vol with @camera into
 * camera->height rows of camera->width pixels. */
void aooct_cpu_render_emit (const AooctViewParams * p,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, const gfloat * vol, gint filled,
    guint8 * out, gsize out_stride);

G_END_DECLS
#endif /* __AOOCT_CPU_VIEWS_H__ */
