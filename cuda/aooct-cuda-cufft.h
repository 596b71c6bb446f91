/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: batched 1-D cuFFT plans with checked errors, shared by
 * the pad and fft cores (C++ only, not part of the C API).
 *
 * A plan is made once per geometry: @batch transforms of length @n whose
 * rows are contiguous (@idist / @odist elements apart).  Automatic
 * work-area allocation is off; the caller allocates the work area once
 * (the largest of the plans that run one after another on one stream may
 * share it) and hands it over with aooct_cufft_plan_set_work(). */
#ifndef __AOOCT_CUDA_CUFFT_H__
#define __AOOCT_CUDA_CUFFT_H__

#include <cufft.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  cufftHandle handle;
  gboolean valid;
  gsize work_bytes;
} AooctCufftPlan;

/* @what names the plan in error messages ("aooctpad R2C of 2048 points"). */
gboolean aooct_cufft_plan_make (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 idist, gint64 odist,
    const gchar * what, GError ** error);
/* The same for transforms whose points are @istride / @ostride elements
 * apart and whose batches start @idist / @odist elements apart (for the
 * transforms across A-lines of aooctfullrange: stride = samples per
 * A-line, distance 1). */
gboolean aooct_cufft_plan_make_strided (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 istride, gint64 idist,
    gint64 ostride, gint64 odist, const gchar * what, GError ** error);
gboolean aooct_cufft_plan_set_work (AooctCufftPlan * plan, gpointer work,
    GError ** error);
/* Binds the plan to @stream: its next executions are enqueued there. */
gboolean aooct_cufft_plan_set_stream (AooctCufftPlan * plan,
    cudaStream_t stream, GError ** error);
void aooct_cufft_plan_destroy (AooctCufftPlan * plan);

G_END_DECLS

#endif /* __AOOCT_CUDA_CUFFT_H__ */
