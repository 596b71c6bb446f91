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
  /* the one-element caller_info array of a load callback: kept for the
   * plan's lifetime, in case cuFFT keeps the array rather than its value */
  gpointer caller_info[1];
} AooctCufftPlan;

/* @what names the plan in error messages ("aooctpad R2C of 2048 points"). */
gboolean aooct_cufft_plan_make (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 idist, gint64 odist,
    const gchar * what, GError ** error);
gboolean aooct_cufft_plan_set_work (AooctCufftPlan * plan, gpointer work,
    GError ** error);
/* As aooct_cufft_plan_make(), with @symbol of the LTO-IR @fatbin (bytes)
 * as the plan's load callback of @cb_type (cufftXtSetJITCallback, set
 * between cufftCreate and the planning as cuFFT requires); @caller_info: a
 * device pointer cuFFT hands to each call.  A failure (no nvJitLink, a
 * cuFFT without LTO callbacks) leaves a valid plan handle to destroy.
 * Only where aooct_cufft_has_jit_callbacks(). */
gboolean aooct_cufft_plan_make_with_load_callback (AooctCufftPlan * plan,
    gint n, cufftType type, gint64 batch, gint64 idist, gint64 odist,
    const gchar * symbol, gconstpointer fatbin, gsize fatbin_size,
    gint cb_type, gpointer caller_info, const gchar * what, GError ** error);
/* Whether this build's cuFFT has the CUDA 13 form of cufftXtSetJITCallback
 * (the symbol name argument) that the above uses. */
gboolean aooct_cufft_has_jit_callbacks (void);
/* Binds the plan to @stream: its next executions are enqueued there. */
gboolean aooct_cufft_plan_set_stream (AooctCufftPlan * plan,
    cudaStream_t stream, GError ** error);
void aooct_cufft_plan_destroy (AooctCufftPlan * plan);

G_END_DECLS

#endif /* __AOOCT_CUDA_CUFFT_H__ */
