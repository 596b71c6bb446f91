/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the step contract (see aooct-step.h). */
#include <string.h>

#include "aooct-step.h"

/* What the base class keys of a buffer's CUDA work (aooct_step_graph_key):
 * built in a zeroed struct, so that its padding compares equal too. */
typedef struct
{
  guint serial;                 /* the plan's: a new plan, new graphs */
  gboolean in_disposable, out_pending, pending, pad, kmap, disp;
  gconstpointer in_data, out_data;
  gsize in_stride, out_stride;
  gfloat pad_scale;
  gint pad_j0, pad_j1, kmap_j0, kmap_j1, kmap_taps;
  guint kmap_serial, disp_serial;
} BaseKey;

G_STATIC_ASSERT (sizeof (BaseKey) + AOOCT_STEP_GRAPH_KEY <= AOOCT_STEP_KEY_MAX);

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

gssize
aooct_step_graph_key (AooctStep * step, const AooctPlane * in,
    const AooctPlane * out, const AooctStepRun * run, guint8 * key)
{
  const AooctPendingMeta *p = run->pending;
  BaseKey b;
  gssize n;

  if (step->ops->graph_key == NULL)
    return -1;
  memset (&b, 0, sizeof (b));
  b.serial = step->serial;
  b.in_disposable = run->in_disposable;
  b.out_pending = run->out_pending != NULL;
  b.in_data = in->data;
  b.in_stride = in->stride;
  b.out_data = out->data;
  b.out_stride = out->stride;
  if (p) {
    b.pending = TRUE;
    b.pad = p->pad;
    if (p->pad) {
      b.pad_scale = p->pad_scale;
      b.pad_j0 = p->pad_j0;
      b.pad_j1 = p->pad_j1;
    }
    b.kmap = p->kmap.data != NULL;
    if (b.kmap) {
      b.kmap_serial = p->kmap.serial;
      b.kmap_j0 = p->kmap_j0;
      b.kmap_j1 = p->kmap_j1;
      b.kmap_taps = p->kmap_taps;
    }
    b.disp = p->disp.data != NULL;
    if (b.disp)
      b.disp_serial = p->disp.serial;
  }
  n = step->ops->graph_key (step->plan, run, key + sizeof (b));
  if (n < 0)
    return -1;
  g_assert (n <= AOOCT_STEP_GRAPH_KEY);
  memcpy (key, &b, sizeof (b));
  return (gssize) sizeof (b) + n;
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
