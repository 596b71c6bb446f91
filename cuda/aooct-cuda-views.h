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

G_BEGIN_DECLS

/* Device scratch of the range keys (free with aooct_cuda_free()). */
gboolean aooct_cuda_views_keys_new (gpointer * keys, GError ** error);

gboolean aooct_cuda_enface_collect (const AooctViewParams * p,
    AooctEnfaceProjection projection, gboolean log_mode, const gfloat * in,
    gint first, gint count, gfloat * e, gpointer keys,
    AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_enface_emit (const AooctViewParams * p,
    const AooctNormSettings * s, const gfloat * e, gint filled, guint8 * out,
    gsize out_stride, gpointer keys, AooctCudaStream stream, GError ** error);

gboolean aooct_cuda_render_collect (const AooctViewParams * p,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    gfloat * vol, gpointer keys, AooctCudaStream stream, GError ** error);
gboolean aooct_cuda_render_emit (const AooctViewParams * p,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, const gfloat * vol, gint filled,
    guint8 * out, gsize out_stride, gpointer keys, AooctCudaStream stream,
    GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_VIEWS_H__ */
