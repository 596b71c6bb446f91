/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: optoretinography (see aooct-cpu-org.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-org.h"
#include "aooct-error.h"

struct _AooctCpuOrgPlan
{
  AooctOrgParams p;
  gint *z1;                     /* this B-scan's first layer */
  gdouble *scratch;             /* the layer finder's */
  gint *sep;                    /* z2 - z1, fixed per baseline */
  guint8 *has_sep;              /* the second layer's window had a bin */
  gdouble *q;                   /* baseline phasor sums, re im */
  gdouble *psi_prev, *u;        /* the unwrapping */
  guint8 *started;              /* a valid sample since the baseline began */
  gdouble *pr, *l1, *l2;        /* this B-scan's p (re im), 10 log10 I1, I2 */
  gint n;                       /* B-scans since the baseline began */
  gint64 rows;                  /* kymograph rows since start */
  gfloat *ring;                 /* history x M values of dOPL's u (NaN:
                                 * invalid); row (rows - 1) % history is
                                 * the newest */
};

AooctCpuOrgPlan *
aooct_cpu_org_plan_new (const AooctOrgParams * p, GError ** error)
{
  AooctCpuOrgPlan *plan = g_new0 (AooctCpuOrgPlan, 1);
  const gsize m = p->alines;

  plan->p = *p;
  plan->z1 = g_new (gint, m);
  plan->scratch = g_new (gdouble, (gsize) (2 * p->lp.range + 1) * (m + 1));
  plan->sep = g_new0 (gint, m);
  plan->has_sep = g_new0 (guint8, m);
  plan->q = g_new0 (gdouble, 2 * m);
  plan->psi_prev = g_new0 (gdouble, m);
  plan->u = g_new0 (gdouble, m);
  plan->started = g_new0 (guint8, m);
  plan->pr = g_new0 (gdouble, 2 * m);
  plan->l1 = g_new0 (gdouble, m);
  plan->l2 = g_new0 (gdouble, m);
  plan->ring = g_try_malloc ((gsize) p->history * m * sizeof (gfloat));
  if (plan->ring == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "aooctorg: cannot allocate a kymograph of %d x %d values", p->alines,
        p->history);
    aooct_cpu_org_plan_free (plan);
    return NULL;
  }
  return plan;
}

void
aooct_cpu_org_reset (AooctCpuOrgPlan * plan)
{
  plan->n = 0;
  plan->rows = 0;
}

/* z2 on the baseline's first B-scan: the separation */
static void
find_separation (AooctCpuOrgPlan * plan, const gfloat * x)
{
  const AooctOrgParams *p = &plan->p;
  gint m;

  for (m = 0; m < p->alines; m++) {
    const gint z2 = aooct_layer_argmax_smoothed (&p->lp, x, p->alines, m,
        plan->z1[m] + p->second_min, plan->z1[m] + p->second_max,
        p->crop_start, p->crop_end);

    plan->has_sep[m] = z2 != G_MININT;
    plan->sep[m] = plan->has_sep[m] ? z2 - plan->z1[m] : 0;
  }
}

/* p, I1, I2 of A-line @c over the depth window */
static void
pair (const AooctOrgParams * p, const gfloat * c, gint z1, gint z2, gint w,
    gdouble * pre, gdouble * pim, gdouble * i1, gdouble * i2)
{
  const AooctLayerParams *lp = &p->lp;
  gint d;

  *pre = *pim = *i1 = *i2 = 0.0;
  for (d = -w; d <= w; d++) {
    const gboolean in1 = z1 + d >= lp->bin_lo && z1 + d < lp->bin_hi;
    const gboolean in2 = z2 + d >= lp->bin_lo && z2 + d < lp->bin_hi;
    gdouble ar = 0, ai = 0, br = 0, bi = 0;

    if (in1) {
      const gint i = aooct_layer_index (lp, z1 + d);
      ar = c[2 * i];
      ai = c[2 * i + 1];
      *i1 += (gdouble) (c[2 * i] * c[2 * i] + c[2 * i + 1] * c[2 * i + 1]);
    }
    if (in2) {
      const gint i = aooct_layer_index (lp, z2 + d);
      br = c[2 * i];
      bi = c[2 * i + 1];
      *i2 += (gdouble) (c[2 * i] * c[2 * i] + c[2 * i + 1] * c[2 * i + 1]);
    }
    if (in1 && in2) {
      /* X2 conj (X1) */
      *pre += br * ar + bi * ai;
      *pim += bi * ar - br * ai;
    }
  }
}

static void
one_bscan (AooctCpuOrgPlan * plan, const AooctOrgLive * live,
    const gfloat * x, AooctOrgTrace * trace)
{
  const AooctOrgParams *p = &plan->p;
  const gint M = p->alines;
  gfloat *row;
  gdouble max1 = -INFINITY, max2 = -INFINITY, sum = 0.0, sum2 = 0.0;
  gint m, valid = 0;

  aooct_layer_follow (&p->lp, x, M, aooct_layer_profile_peak (&p->lp, x, M),
      plan->z1, plan->scratch);
  if (plan->n == 0) {
    find_separation (plan, x);
    memset (plan->q, 0, 2 * (gsize) M * sizeof (gdouble));
    memset (plan->started, 0, M);
  }
  for (m = 0; m < M; m++) {
    gdouble i1, i2;

    if (!plan->has_sep[m])
      continue;
    pair (p, x + 2 * (gsize) m * p->samples, plan->z1[m],
        plan->z1[m] + plan->sep[m], live->half_window, &plan->pr[2 * m],
        &plan->pr[2 * m + 1], &i1, &i2);
    plan->l1[m] = aooct_org_db (i1);
    plan->l2[m] = aooct_org_db (i2);
    max1 = MAX (max1, plan->l1[m]);
    max2 = MAX (max2, plan->l2[m]);
  }
  row = plan->ring + (gsize) (plan->rows % p->history) * M;
  for (m = 0; m < M; m++) {
    const gdouble pre = plan->pr[2 * m], pim = plan->pr[2 * m + 1];
    gdouble *q = plan->q + 2 * m, psi, dopl;

    row[m] = NAN;
    if (!plan->has_sep[m] || (pre == 0.0 && pim == 0.0))
      continue;
    if (live->threshold > 0 && (plan->l1[m] < max1 - live->threshold
            || plan->l2[m] < max2 - live->threshold))
      continue;
    if (plan->n < live->baseline) {
      const gdouble a = hypot (pre, pim);

      q[0] += pre / a;
      q[1] += pim / a;
    }
    if (q[0] == 0.0 && q[1] == 0.0)
      continue;
    /* p conj (Q) */
    psi = aooct_org_arg (pre * q[0] + pim * q[1], pim * q[0] - pre * q[1]);
    if (!plan->started[m]) {
      plan->u[m] = psi;
      plan->started[m] = 1;
    } else {
      plan->u[m] += aooct_org_wrap (psi - plan->psi_prev[m]);
    }
    plan->psi_prev[m] = psi;
    row[m] = (gfloat) plan->u[m];
    dopl = live->scale * plan->u[m];
    sum += dopl;
    sum2 += dopl * dopl;
    valid++;
  }
  plan->rows++;
  plan->n++;
  trace->valid = valid;
  if (valid == 0) {
    trace->mean = trace->std = NAN;
  } else {
    gdouble mean = sum / valid, var = sum2 / valid - mean * mean;

    trace->mean = mean;
    trace->std = sqrt (MAX (var, 0.0));
  }
}

/* the image after the newest row: row r shows the row written
 * history - 1 - r B-scans before it */
static void
kymograph (const AooctCpuOrgPlan * plan, const AooctOrgLive * live,
    guint8 * out, gsize out_stride)
{
  const AooctOrgParams *p = &plan->p;
  gint r, m;

  for (r = 0; r < p->history; r++) {
    const gint64 k = plan->rows - p->history + r;
    const gfloat *src = k >= 0 ? plan->ring + (gsize) (k % p->history) *
        p->alines : NULL;
    guint8 *o = out + (gsize) r * out_stride;

    for (m = 0; m < p->alines; m++) {
      const unsigned g = src ? aooct_org_grey (live->scale * src[m],
          live->opl_range, p->gray16) : 0;

      if (p->gray16)
        ((guint16 *) o)[m] = (guint16) g;
      else
        o[m] = (guint8) g;
    }
  }
}

void
aooct_cpu_org_execute (AooctCpuOrgPlan * plan, const AooctOrgLive * live,
    const gfloat * in, guint8 * out, gsize out_stride, AooctOrgTrace * trace)
{
  const AooctOrgParams *p = &plan->p;
  gint b;

  if (live->new_baseline)
    plan->n = 0;
  for (b = 0; b < p->bscans; b++) {
    one_bscan (plan, live, in + 2 * (gsize) b * p->alines * p->samples,
        &trace[b]);
    kymograph (plan, live, out + (gsize) b * p->history * out_stride,
        out_stride);
  }
}

void
aooct_cpu_org_plan_free (AooctCpuOrgPlan * plan)
{
  if (plan == NULL)
    return;
  g_free (plan->z1);
  g_free (plan->scratch);
  g_free (plan->sep);
  g_free (plan->has_sep);
  g_free (plan->q);
  g_free (plan->psi_prev);
  g_free (plan->u);
  g_free (plan->started);
  g_free (plan->pr);
  g_free (plan->l1);
  g_free (plan->l2);
  g_free (plan->ring);
  g_free (plan);
}
