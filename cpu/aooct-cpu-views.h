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

G_BEGIN_DECLS typedef struct _AooctCpuEnfacePlan AooctCpuEnfacePlan;
typedef struct _AooctCpuRenderPlan AooctCpuRenderPlan;

/* En-face views of @p (copied; its projection): holds the V x M values
 * of one volume.  NULL with @error set when they cannot be allocated. */
AooctCpuEnfacePlan *aooct_cpu_enface_plan_new (const AooctViewParams * p,
    GError ** error);

/* The values of @count B-scans (@in, A-line after A-line) into rows
 * @first .. @first + @count - 1 of the volume's. */
void aooct_cpu_enface_execute_collect (AooctCpuEnfacePlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count);

/* The en-face image of the first @filled rows: width M, V rows
 * @out_stride bytes apart, rows from @filled on black. */
void aooct_cpu_enface_execute_emit (AooctCpuEnfacePlan * plan,
    const AooctNormSettings * s, gint filled, guint8 * out, gsize out_stride);
void aooct_cpu_enface_plan_free (AooctCpuEnfacePlan * plan);

/* Value range of @n floats (NaN ignored). */
void aooct_cpu_views_minmax (const gfloat * v, gsize n, gfloat * vmin,
    gfloat * vmax);

/* Renderer of @p (copied): holds the cropped volume.  NULL with @error
 * set when it cannot be allocated. */
AooctCpuRenderPlan *aooct_cpu_render_plan_new (const AooctViewParams * p,
    GError ** error);

/* The values of @count B-scans into B-scans @first.. of the volume. */
void aooct_cpu_render_execute_collect (AooctCpuRenderPlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count);

/* Ray casts the first @filled B-scans with @camera into camera->height
 * rows of camera->width pixels. */
void aooct_cpu_render_execute_emit (AooctCpuRenderPlan * plan,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, gint filled, guint8 * out,
    gsize out_stride);
void aooct_cpu_render_plan_free (AooctCpuRenderPlan * plan);

G_END_DECLS
#endif /* __AOOCT_CPU_VIEWS_H__ */
