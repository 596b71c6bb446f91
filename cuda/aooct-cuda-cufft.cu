/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: batched cuFFT plans (see aooct-cuda-cufft.h). */
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"

/* The plan, whatever the layout: cufftMakePlanMany64's arguments. */
static gboolean
plan_make (AooctCufftPlan * plan, gint n, cufftType type, gint64 batch,
    long long inembed, gint64 istride, gint64 idist, long long onembed,
    gint64 ostride, gint64 odist, const gchar * what, GError ** error)
{
  long long len = n;
  size_t work = 0;

  plan->valid = FALSE;
  plan->work_bytes = 0;
  AOOCT_CUFFT_CHECK (cufftCreate (&plan->handle), error,
      "cufftCreate for %s", what);
  plan->valid = TRUE;
  /* one work area allocated by us at setup, never per buffer */
  AOOCT_CUFFT_CHECK (cufftSetAutoAllocation (plan->handle, 0), error,
      "cufftSetAutoAllocation for %s", what);
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
      what, error);
}

gboolean
aooct_cufft_plan_make_strided (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 istride, gint64 idist,
    gint64 ostride, gint64 odist, const gchar * what, GError ** error)
{
  /* rank 1: the embeds only need to cover the transform's storage */
  return plan_make (plan, n, type, batch, n, istride, idist, n, ostride,
      odist, what, error);
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
