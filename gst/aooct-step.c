/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the step contract (see aooct-step.h). */
#include "aooct-step.h"
#include "aooct-filter-private.h"

gboolean
aooct_step_create (AooctStep * step, GstAooctFilter * filter,
    const AooctStepOps * cpu, const AooctStepOps * cuda,
    gconstpointer settings, GError ** error)
{
  const AooctStepOps *ops = cpu;

  if (filter->active_backend == GST_AOOCT_BACKEND_CUDA) {
    g_return_val_if_fail (cuda != NULL, FALSE);
    ops = cuda;
  }
  step->core = ops->create (filter, settings, error);
  step->ops = step->core ? ops : NULL;
  return step->core != NULL;
}

gboolean
aooct_step_process_cpu (AooctStep * step, const AooctPlane * in,
    AooctPlane * out, gconstpointer live, GError ** error)
{
  const AooctStepRun run = { NULL, NULL, NULL, FALSE, live };

  return step->ops->process (step->core, in, out, &run, error);
}

gboolean
aooct_step_process_cuda (AooctStep * step, GstAooctFilter * filter,
    const AooctPlane * in, AooctPlane * out, struct CUstream_st *stream,
    gconstpointer live, GError ** error)
{
  const AooctStepRun run =
      { stream, filter->priv->pending, filter->priv->out_pending,
    filter->priv->in_disposable, live
  };

  return step->ops->process (step->core, in, out, &run, error);
}

void
aooct_step_destroy (AooctStep * step)
{
  if (step->core)
    step->ops->destroy (step->core);
  step->core = NULL;
  step->ops = NULL;
}

void
aooct_step_reset (AooctStep * step)
{
  if (step->core && step->ops->reset)
    step->ops->reset (step->core);
}

void
aooct_step_rewind (AooctStep * step)
{
  if (step->core && step->ops->rewind)
    step->ops->rewind (step->core);
}
