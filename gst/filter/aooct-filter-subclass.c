/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the calls from GstAooctFilter into its subclass's class vfuncs,
 * which take the filter: setup() and the step's plan made with the
 * settings it gave (aooct-step.h's plan_new) with the CUDA context
 * current, live(), defer(), teardown() (the plan freed first).  The
 * plan's execute on a buffer is the backends' (aooct_filter_process_host in
 * aooct-filter-buffers.c, aooct_cuda_element_transform in
 * aooct-cuda-buffer.c); the contract itself is gstaooctfilter.h's class
 * struct (see aooct-filter-private.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"
#include "aooct-error.h"
#include "aooct-step.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-element.h"
#endif

#define GST_CAT_DEFAULT gst_aooct_filter_debug

/* klass->teardown(), after the GPU work that may read what it frees and
 * with the staging of the old caps (context current around it). */
void
aooct_filter_subclass_teardown (GstAooctFilter * self)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  if (!self->configured)
    return;
#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)) {
    AooctCudaElement *ce = self->priv->cuda;
    GError *error = NULL;

    /* kernels still in flight may read the tables teardown() frees */
    if (aooct_cuda_element_push (ce, &error)) {
      aooct_cuda_element_release_staging (ce);
      aooct_step_plan_free (&self->priv->step);
      if (klass->teardown)
        klass->teardown (self);
      aooct_cuda_element_pop (ce);
    } else {
      GST_ERROR_OBJECT (self, "%s", error->message);
      g_clear_error (&error);
    }
    self->configured = FALSE;
    return;
  }
#endif
  aooct_step_plan_free (&self->priv->step);
  if (klass->teardown)
    klass->teardown (self);
  self->configured = FALSE;
}

/* klass->setup() for the negotiated geometry, then the plan of the
 * active backend with the settings it gave (context current around both
 * on CUDA).  A plan that cannot be made undoes the setup (teardown()). */
static gboolean
setup_and_create (GstAooctFilter * self, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  const AooctStepShape shape = { &self->in_geom, &self->out_geom,
    &self->out_vinfo, self->in_positions
  };
  gconstpointer settings = NULL;

  if (klass->setup && !klass->setup (self, &settings, error))
    return FALSE;
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    return TRUE;
  if (aooct_step_plan_new (&self->priv->step,
          self->active_backend == GST_AOOCT_BACKEND_CUDA ? klass->cuda_ops :
          klass->cpu_ops, &shape, settings, error))
    return TRUE;
  if (klass->teardown)
    klass->teardown (self);
  return FALSE;
}

gboolean
aooct_filter_subclass_setup (GstAooctFilter * self, GError ** error)
{
  gboolean ok;

#ifdef HAVE_CUDA
  if (aooct_filter_cuda_active (self)) {
    if (!aooct_cuda_element_push (self->priv->cuda, error))
      return FALSE;
    ok = setup_and_create (self, error);
    aooct_cuda_element_pop (self->priv->cuda);
    return ok;
  }
#endif
  ok = setup_and_create (self, error);
  return ok;
}

gboolean
aooct_filter_subclass_live (GstAooctFilter * self, gconstpointer * live,
    GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);

  *live = NULL;
  return klass->live == NULL || klass->live (self, live, error);
}

#ifdef HAVE_CUDA
/* klass->defer(): the step goes onto @outbuf (the input buffer itself)
 * as a pending step instead of being computed (aooct-pending-meta.h). */
gboolean
aooct_filter_subclass_defer (GstAooctFilter * self, GstBuffer * outbuf,
    gdouble * host_ms, GError ** error)
{
  GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (self);
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok;

  ok = klass->defer (self, aooct_buffer_ensure_pending_meta (outbuf), error);
  *host_ms += (g_get_monotonic_time () - t0) / 1000.0;
  return ok;
}
#endif
