/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: the layer finder of spec section 13 ("Layers"), the
 * CUDA twin of common/aooct-layers.h, shared by aooctenface layer=brightest
 * (cuda/aooct-cuda-views.cu) and aooctorg (cuda/aooct-cuda-org.cu).  Sums
 * in double, as on the CPU. */
#ifndef __AOOCT_CUDA_LAYERS_H__
#define __AOOCT_CUDA_LAYERS_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-layers.h"

G_BEGIN_DECLS

/* Device scratch for @count B-scans of the search window's profile:
 * count * (search_end - search_start) doubles. */
gsize aooct_cuda_layer_scratch_bytes (const AooctLayerParams * lp,
    gint count);

/* Enqueues, for @count B-scans of @alines A-lines at @in (device, P2
 * complex floats per A-line): z_b[b] (device, @count ints) and z_l[b * M +
 * m] (device, @count * M ints). */
gboolean aooct_cuda_layer_find (const AooctLayerParams * lp,
    const gfloat * in, gint alines, gint count, gdouble * scratch,
    gint * z_b, gint * z_l, AooctCudaStream stream, GError ** error);

G_END_DECLS
#endif /* __AOOCT_CUDA_LAYERS_H__ */
