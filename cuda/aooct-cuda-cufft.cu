/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: batched cuFFT plans (see aooct-cuda-cufft.h). */
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"

#include <cufftXt.h>

/* A load callback compiled to LTO-IR, for plan_make. */
typedef struct
{
  const gchar *symbol;
  gconstpointer fatbin;
  gsize fatbin_size;
  gpointer caller_info;
} LoadCallback;

/* The plan, whatever the layout: cufftMakePlanMany64's arguments; with
 * @load, its load callback set first (cuFFT finalises its kernel with the
 * callback inlined, nvJitLink, while planning). */
static gboolean
plan_make (AooctCufftPlan * plan, gint n, cufftType type, gint64 batch,
    long long inembed, gint64 istride, gint64 idist, long long onembed,
    gint64 ostride, gint64 odist, const LoadCallback * load,
    const gchar * what, GError ** error)
{
  long long len = n;
  size_t work = 0;

  plan->valid = FALSE;
  plan->work_bytes = 0;
  AOOCT_CUFFT_CHECK (cufftCreate (&plan->handle), error,
      "cufftCreate for %s", what);
  plan->valid = TRUE;
  if (load) {
    void *info = load->caller_info;

    AOOCT_CUFFT_CHECK (cufftXtSetJITCallback (plan->handle, load->symbol,
            load->fatbin, load->fatbin_size,
            type == CUFFT_C2C ? CUFFT_CB_LD_COMPLEX : CUFFT_CB_LD_REAL,
            &info), error, "cufftXtSetJITCallback for %s", what);
  }
  /* one work area allocated by us at setup, never per buffer */
  AOOCT_CUFFT_CHECK (cufftSetAutoAllocation (plan->handle, 0), error,
      "cufftSetAutoAllocation for %s", what);
  if (load) {
    /* callbacks with the 32-bit planner, which every cuFFT that has JIT
     * callbacks documents them with (the caller keeps to its sizes) */
    int len32 = n, in32 = (int) inembed, on32 = (int) onembed;

    AOOCT_CUFFT_CHECK (cufftMakePlanMany (plan->handle, 1, &len32, &in32,
            (int) istride, (int) idist, &on32, (int) ostride, (int) odist,
            type, (int) batch, &work), error,
        "cufftMakePlanMany for %s (batch of %" G_GINT64_FORMAT
        ", load callback)", what, batch);
    plan->work_bytes = work;
    return TRUE;
  }
  /* 64-bit plan: batch x length may exceed 2^31 elements on big buffers */
  AOOCT_CUFFT_CHECK (cufftMakePlanMany64 (plan->handle, 1, &len, &inembed,
          istride, idist, &onembed, ostride, odist, type, batch, &work),
      error, "cufftMakePlanMany64 for %s (batch of %" G_GINT64_FORMAT ")",
      what, batch);
  plan->work_bytes = work;
  return TRUE;
}

gboolean
aooct_cufft_plan_make (AooctCufftPlan * plan, gint n, cufftType type,
    gint64 batch, gint64 idist, gint64 odist, const gchar * what,
    GError ** error)
{
  /* Rows idist / odist elements apart: cuFFT ignores istride, idist,
   * ostride and odist when inembed / onembed are NULL (its documentation
   * of cufftPlanMany), so they are given; for rank 1 the embed is only
   * the row's storage length (>= what the transform reads or writes). */
  return plan_make (plan, n, type, batch, idist, 1, idist, odist, 1, odist,
      NULL, what, error);
}

gboolean
aooct_cufft_plan_make_with_load (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 idist, gint64 odist,
    const gchar * symbol, gconstpointer fatbin, gsize fatbin_size,
    gpointer caller_info, const gchar * what, GError ** error)
{
  LoadCallback load = { symbol, fatbin, fatbin_size, caller_info };

  return plan_make (plan, n, type, batch, idist, 1, idist, odist, 1, odist,
      &load, what, error);
}

gboolean
aooct_cufft_plan_make_strided (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 istride, gint64 idist,
    gint64 ostride, gint64 odist, const gchar * what, GError ** error)
{
  /* rank 1: the embeds only need to cover the transform's storage */
  return plan_make (plan, n, type, batch, n, istride, idist, n, ostride,
      odist, NULL, what, error);
}

gboolean
aooct_cufft_plan_set_work (AooctCufftPlan * plan, gpointer work,
    GError ** error)
{
  AOOCT_CUFFT_CHECK (cufftSetWorkArea (plan->handle, work), error,
      "cufftSetWorkArea");
  return TRUE;
}

gboolean
aooct_cufft_plan_set_stream (AooctCufftPlan * plan, cudaStream_t stream,
    GError ** error)
{
  AOOCT_CUFFT_CHECK (cufftSetStream (plan->handle, stream), error,
      "cufftSetStream");
  return TRUE;
}

void
aooct_cufft_plan_destroy (AooctCufftPlan * plan)
{
  cufftResult res;

  if (!plan->valid)
    return;
  res = cufftDestroy (plan->handle);
  /* as aooct_cuda_free: quiet where a device fault lost the context */
  if (res != CUFFT_SUCCESS
      && !aooct_cuda_error_is_sticky (cudaPeekAtLastError ()))
    g_warning ("aooct: cufftDestroy failed: %s",
        aooct_cufft_result_name (res));
  plan->valid = FALSE;
}
