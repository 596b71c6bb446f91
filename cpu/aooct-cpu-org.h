/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: optoretinography (spec section 13, "aooctorg").
 *
 * Takes depth-domain complex B-scans in order and keeps, per A-line, the
 * separation of the two layers (found on each baseline's first B-scan),
 * the baseline's phasor sum Q, the unwrapped phase and a ring of the last
 * `history` rows of the kymograph.  Per B-scan it writes the trace (mean,
 * standard deviation and count of dOPL over the valid A-lines) and the
 * kymograph image (common/aooct-org.h has the arithmetic both backends
 * share). */
#ifndef __AOOCT_CPU_ORG_H__
#define __AOOCT_CPU_ORG_H__

#include <glib.h>
#include "aooct-org.h"

G_BEGIN_DECLS typedef struct _AooctCpuOrgPlan AooctCpuOrgPlan;

AooctCpuOrgPlan *aooct_cpu_org_plan_new (const AooctOrgParams * p,
    GError ** error);

/* @in: @p->bscans B-scans; @out: one image of @p->history rows per
 * B-scan, rows @out_stride bytes apart; @trace: one per B-scan. */
void aooct_cpu_org_execute (AooctCpuOrgPlan * plan, const AooctOrgLive * live,
    const gfloat * in, guint8 * out, gsize out_stride, AooctOrgTrace * trace);

/* a flush: a new baseline, unwrapping and kymograph at the next B-scan */
void aooct_cpu_org_reset (AooctCpuOrgPlan * plan);
void aooct_cpu_org_plan_free (AooctCpuOrgPlan * plan);

G_END_DECLS
#endif /* __AOOCT_CPU_ORG_H__ */
