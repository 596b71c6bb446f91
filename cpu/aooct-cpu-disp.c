/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: dispersion compensation, real spectrum times complex
 * weight per sample. */
#include "aooct-omp.h"
#include "aooct-cpu-disp.h"

/* a plan holds the geometry; the weights come with each buffer */
struct _AooctCpuDispPlan
{
  AooctGeometry geom;
};

AooctCpuDispPlan *
aooct_cpu_disp_plan_new (const AooctGeometry * geom)
{
  AooctCpuDispPlan *plan = g_new (AooctCpuDispPlan, 1);

  plan->geom = *geom;
  return plan;
}

void
aooct_cpu_disp_plan_free (AooctCpuDispPlan * plan)
{
  g_free (plan);
}

void
aooct_cpu_disp_execute (AooctCpuDispPlan * plan, const gfloat * w,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride)
{
  const AooctGeometry *g = &plan->geom;
  const gint64 rows = (gint64) aooct_geometry_total_alines (g);
  const gint n = g->samples;
  gint64 r;

  if (g->sample_type == AOOCT_SAMPLE_COMPLEX) {
    /* full range (spec section 9): a complex spectrum times the weight */
#pragma omp parallel for schedule(static) if (rows * n >= AOOCT_CPU_PARALLEL_MIN)
    for (r = 0; r < rows; r++) {
      const gfloat *x = (const gfloat *) (in + r * in_stride);
      gfloat *c = (gfloat *) (out + r * out_stride);
      gint i;

      for (i = 0; i < n; i++) {
        const gfloat xr = x[2 * i], xi = x[2 * i + 1];
        const gfloat wr = w[2 * i], wi = w[2 * i + 1];
        c[2 * i] = xr * wr - xi * wi;
        c[2 * i + 1] = xr * wi + xi * wr;
      }
    }
    return;
  }
#pragma omp parallel for schedule(static) if (rows * n >= AOOCT_CPU_PARALLEL_MIN)
  for (r = 0; r < rows; r++) {
    const gfloat *x = (const gfloat *) (in + r * in_stride);
    gfloat *c = (gfloat *) (out + r * out_stride);
    gint i;

    for (i = 0; i < n; i++) {
      c[2 * i] = x[i] * w[2 * i];
      c[2 * i + 1] = x[i] * w[2 * i + 1];
    }
  }
}
