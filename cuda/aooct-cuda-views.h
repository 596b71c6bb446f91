/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: en-face projection and volume rendering (spec section
 * 11), the CUDA twin of cpu/aooct-cpu-views.h: the same values per B-scan
 * and voxel (aooct-norm-range.h), the same camera and voxels
 * (aooct-render-camera.h).  The per-volume value range is folded into two
 * order-preserving integer keys by the collect kernels (atomics, so the
 * order of the blocks does not matter); the emit kernels turn them into
 * lo and the scale with the CPU's function and reset them for the next
 * volume. */
#ifndef __AOOCT_CUDA_VIEWS_H__
#define __AOOCT_CUDA_VIEWS_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-views.h"

G_BEGIN_DECLS typedef struct _AooctCudaEnfacePlan AooctCudaEnfacePlan;
typedef struct _AooctCudaRenderPlan AooctCudaRenderPlan;

/* As cpu/aooct-cpu-views.h's plans, in device memory (context current),
 * with the volume's range keys; execute_collect and execute_emit enqueue
 * on @stream, with device pointers. */
AooctCudaEnfacePlan *aooct_cuda_enface_plan_new (const AooctViewParams * p,
    GError ** error);
gboolean aooct_cuda_enface_execute_collect (AooctCudaEnfacePlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_enface_execute_emit (AooctCudaEnfacePlan * plan,
    const AooctNormSettings * s, gint filled, guint8 * out, gsize out_stride,
    AooctCudaStream stream, GError ** error);
void aooct_cuda_enface_plan_free (AooctCudaEnfacePlan * plan);

AooctCudaRenderPlan *aooct_cuda_render_plan_new (const AooctViewParams * p,
    GError ** error);
gboolean aooct_cuda_render_execute_collect (AooctCudaRenderPlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_render_execute_emit (AooctCudaRenderPlan * plan,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, gint filled, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error);
void aooct_cuda_render_plan_free (AooctCudaRenderPlan * plan);

G_END_DECLS
#endif /* __AOOCT_CUDA_VIEWS_H__ */
