/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the step contract (see aooct-step.h). */
#include "aooct-step.h"

gboolean
aooct_step_plan_new (AooctStep * step, const AooctStepOps * ops,
    const AooctStepShape * shape, gconstpointer settings, GError ** error)
{
  static gint serials;

  g_return_val_if_fail (ops != NULL, FALSE);
  step->plan = ops->plan_new (shape, settings, error);
  step->ops = step->plan ? ops : NULL;
  step->serial = (guint) g_atomic_int_add (&serials, 1) + 1;
  return step->plan != NULL;
}

gboolean
aooct_step_execute (AooctStep * step, const AooctPlane * in,
    AooctPlane * out, const AooctStepRun * run, GError ** error)
{
  return step->ops->execute (step->plan, in, out, run, error);
}

void
aooct_step_plan_free (AooctStep * step)
{
  if (step->plan)
    step->ops->plan_free (step->plan);
  step->plan = NULL;
  step->ops = NULL;
}

void
aooct_step_reset (AooctStep * step)
{
  if (step->plan && step->ops->reset)
    step->ops->reset (step->plan);
}

void
aooct_step_rewind (AooctStep * step)
{
  if (step->plan && step->ops->rewind)
    step->ops->rewind (step->plan);
}

gboolean
aooct_step_drain (AooctStep * step, GError ** error)
{
  if (step->plan && step->ops->drain)
    return step->ops->drain (step->plan, error);
  return TRUE;
}
