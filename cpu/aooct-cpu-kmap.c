/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: lambda-to-k resampling, a gather with the precomputed
 * brackets of AooctKmapTable.
 *
 * Complex spectra (full range, spec section 9) are resampled as two real
 * signals, re and im alike: a mode is written once for a "channel" of
 * @ch interleaved floats (1 for real, 2 for complex) and reads sample l
 * of channel c at z[ch * l + c]. */
#include <string.h>

#include "aooct-omp.h"
#include "aooct-cpu-kmap.h"
#include "aooct-kmap-table.h"

/* a plan holds the geometry and the caller's table (linear or FIR) */
struct _AooctCpuKmapPlan
{
  AooctGeometry geom;
  const AooctKmapTable *table;
};

struct _AooctCpuKmapFirPlan
{
  AooctGeometry geom;
  const AooctKmapFir *fir;
};

static void
kmap_linear (const AooctGeometry * g, const AooctKmapTable * t,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride)
{
  const gint64 rows = (gint64) aooct_geometry_total_alines (g);
  const gint n = g->samples, j0 = t->start, j1 = t->end;
  const gint32 *index = t->index;
  const gfloat *frac = t->frac;
  gint64 r;

  if (g->sample_type == AOOCT_SAMPLE_COMPLEX) {
#pragma omp parallel for schedule(static) if (rows * n >= AOOCT_CPU_PARALLEL_MIN)
    for (r = 0; r < rows; r++) {
      const gfloat *z = (const gfloat *) (in + r * in_stride);
      gfloat *o = (gfloat *) (out + r * out_stride);
      gint i, c;

      memset (o, 0, 2 * j0 * sizeof (gfloat));
      for (i = j0; i <= j1; i++) {
        const gint l = index[i];
        for (c = 0; c < 2; c++)
          o[2 * i + c] = z[2 * l + c] + (z[2 * l + 2 + c] - z[2 * l + c])
              * frac[i];
      }
      memset (o + 2 * j1 + 2, 0, 2 * (n - j1 - 1) * sizeof (gfloat));
    }
    return;
  }
#pragma omp parallel for schedule(static) if (rows * n >= AOOCT_CPU_PARALLEL_MIN)
  for (r = 0; r < rows; r++) {
    const gfloat *z = (const gfloat *) (in + r * in_stride);
    gfloat *o = (gfloat *) (out + r * out_stride);
    gint i;

    memset (o, 0, j0 * sizeof (gfloat));
    for (i = j0; i <= j1; i++) {
      const gint l = index[i];
      o[i] = z[l] + (z[l + 1] - z[l]) * frac[i];
    }
    memset (o + j1 + 1, 0, (n - j1 - 1) * sizeof (gfloat));
  }
}

static void
kmap_fir (const AooctGeometry * g, const AooctKmapFir * fir,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride)
{
  const gint64 rows = (gint64) aooct_geometry_total_alines (g);
  const gint n = g->samples, j0 = fir->start, j1 = fir->end, taps = fir->taps;
  const gint32 *first = fir->first;
  const gfloat *w = fir->weight;
  gint64 r;

  if (g->sample_type == AOOCT_SAMPLE_COMPLEX) {
    /* re and im alike, with the same weights, in the same tap order */
#pragma omp parallel for schedule(static) if (rows * n * taps >= AOOCT_CPU_PARALLEL_MIN)
    for (r = 0; r < rows; r++) {
      const gfloat *z = (const gfloat *) (in + r * in_stride);
      gfloat *o = (gfloat *) (out + r * out_stride);
      gint i, q;

      memset (o, 0, 2 * j0 * sizeof (gfloat));
      for (i = 2 * j0; i <= 2 * j1 + 1; i++)
        o[i] = 0.0f;
      for (q = 0; q < taps; q++) {
        const gfloat *wq = w + (gsize) q * n;

        for (i = j0; i <= j1; i++) {
          const gint l = first[i] + q;

          o[2 * i] = o[2 * i] + z[2 * l] * wq[i];
          o[2 * i + 1] = o[2 * i + 1] + z[2 * l + 1] * wq[i];
        }
      }
      memset (o + 2 * j1 + 2, 0, 2 * (n - j1 - 1) * sizeof (gfloat));
    }
    return;
  }
#pragma omp parallel for schedule(static) if (rows * n * taps >= AOOCT_CPU_PARALLEL_MIN)
  for (r = 0; r < rows; r++) {
    const gfloat *z = (const gfloat *) (in + r * in_stride);
    gfloat *o = (gfloat *) (out + r * out_stride);
    gint i, q;

    memset (o, 0, j0 * sizeof (gfloat));
    /* tap by tap over the whole row: the weights of a tap are contiguous,
     * and each output still sums its taps in order q = 0, 1, ... (the CUDA
     * kernel's order), so the result is the same bit for bit */
    for (i = j0; i <= j1; i++)
      o[i] = 0.0f;
    for (q = 0; q < taps; q++) {
      const gfloat *wq = w + (gsize) q * n;

      for (i = j0; i <= j1; i++)
        o[i] = o[i] + z[first[i] + q] * wq[i];
    }
    memset (o + j1 + 1, 0, (n - j1 - 1) * sizeof (gfloat));
  }
}

AooctCpuKmapPlan *
aooct_cpu_kmap_plan_new (const AooctGeometry * geom,
    const AooctKmapTable * table)
{
  AooctCpuKmapPlan *plan = g_new (AooctCpuKmapPlan, 1);

  plan->geom = *geom;
  plan->table = table;
  return plan;
}

void
aooct_cpu_kmap_execute (AooctCpuKmapPlan * plan, const guint8 * in,
    gsize in_stride, guint8 * out, gsize out_stride)
{
  kmap_linear (&plan->geom, plan->table, in, in_stride, out, out_stride);
}

void
aooct_cpu_kmap_plan_free (AooctCpuKmapPlan * plan)
{
  g_free (plan);
}

AooctCpuKmapFirPlan *
aooct_cpu_kmap_fir_plan_new (const AooctGeometry * geom,
    const AooctKmapFir * fir)
{
  AooctCpuKmapFirPlan *plan = g_new (AooctCpuKmapFirPlan, 1);

  plan->geom = *geom;
  plan->fir = fir;
  return plan;
}

void
aooct_cpu_kmap_fir_execute (AooctCpuKmapFirPlan * plan,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride)
{
  kmap_fir (&plan->geom, plan->fir, in, in_stride, out, out_stride);
}

void
aooct_cpu_kmap_fir_plan_free (AooctCpuKmapFirPlan * plan)
{
  g_free (plan);
}
