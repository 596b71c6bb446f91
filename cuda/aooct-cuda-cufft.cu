/* aooct CUDA core: batched cuFFT plans (see aooct-cuda-cufft.h). */
#include "aooct-cuda-cufft.h"
#include "aooct-cuda-check.h"

#include <cufftXt.h>

/* cufftXtSetJITCallback took the callback's symbol name from cuFFT 12.0
 * (CUDA 13) on; the earlier form (CUDA 12.6-12.9) is not used. */
#if defined (CUFFT_VERSION) && CUFFT_VERSION >= 12000
#define AOOCT_CUFFT_JIT_CALLBACKS 1
#else
#define AOOCT_CUFFT_JIT_CALLBACKS 0
#endif

gboolean
aooct_cufft_has_jit_callbacks (void)
{
  return AOOCT_CUFFT_JIT_CALLBACKS;
}

typedef struct
{
  const gchar *symbol;
  gconstpointer fatbin;
  gsize fatbin_size;
  gint cb_type;
  gpointer caller_info;
} LoadCallback;

static gboolean
plan_make (AooctCufftPlan * plan, gint n, cufftType type, gint64 batch,
    gint64 idist, gint64 odist, const LoadCallback * cb, const gchar * what,
    GError ** error)
{
  long long len = n, inembed = idist, onembed = odist;
  size_t work = 0;

  plan->valid = FALSE;
  plan->work_bytes = 0;
  AOOCT_CUFFT_CHECK (cufftCreate (&plan->handle), error,
      "cufftCreate for %s", what);
  plan->valid = TRUE;
  /* one work area allocated by us at setup, never per buffer */
  AOOCT_CUFFT_CHECK (cufftSetAutoAllocation (plan->handle, 0), error,
      "cufftSetAutoAllocation for %s", what);
  if (cb != NULL) {
    plan->caller_info[0] = cb->caller_info;
#if AOOCT_CUFFT_JIT_CALLBACKS
    /* after cufftCreate, before the planning (the LTO callback API's
     * order); the JIT link itself happens in the planning below */
    AOOCT_CUFFT_CHECK (cufftXtSetJITCallback (plan->handle, cb->symbol,
            cb->fatbin, cb->fatbin_size, (cufftXtCallbackType) cb->cb_type,
            plan->caller_info), error, "cufftXtSetJITCallback (%s) for %s",
        cb->symbol, what);
#else
    return aooct_cufft_set_error (CUFFT_NOT_SUPPORTED, error,
        "LTO callbacks (cufftXtSetJITCallback, CUDA 13) for %s", what);
#endif
  }
  /* 64-bit plan: batch x length may exceed 2^31 elements on big buffers.
   * Rows idist / odist elements apart: cuFFT ignores istride, idist,
   * ostride and odist when inembed / onembed are NULL (its documentation
   * of cufftPlanMany), so they are given; for rank 1 the embed is only
   * the row's storage length (>= what the transform reads or writes). */
  AOOCT_CUFFT_CHECK (cufftMakePlanMany64 (plan->handle, 1, &len, &inembed, 1,
          idist, &onembed, 1, odist, type, batch, &work), error,
      "cufftMakePlanMany64 for %s (batch of %" G_GINT64_FORMAT ")", what,
      batch);
  plan->work_bytes = work;
  return TRUE;
}

gboolean
aooct_cufft_plan_make (AooctCufftPlan * plan, gint n, cufftType type,
    gint64 batch, gint64 idist, gint64 odist, const gchar * what,
    GError ** error)
{
  return plan_make (plan, n, type, batch, idist, odist, NULL, what, error);
}

gboolean
aooct_cufft_plan_make_with_load_callback (AooctCufftPlan * plan, gint n,
    cufftType type, gint64 batch, gint64 idist, gint64 odist,
    const gchar * symbol, gconstpointer fatbin, gsize fatbin_size,
    gint cb_type, gpointer caller_info, const gchar * what, GError ** error)
{
  LoadCallback cb = { symbol, fatbin, fatbin_size, cb_type, caller_info };

  return plan_make (plan, n, type, batch, idist, odist, &cb, what, error);
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
