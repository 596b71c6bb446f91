/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: optoretinography (spec section 13, "aooctorg"), the
 * CUDA twin of cpu/aooct-cpu-org.h.  Everything stays on the GPU: the
 * separations, the baseline's phasor sums, the unwrapping and the
 * kymograph's ring; one kernel runs the B-scans of a buffer in order (the
 * state of each A-line carries from one to the next).  The trace of each
 * buffer's B-scans is copied asynchronously into page-locked memory
 * behind an event; aooct_cuda_org_poll hands over those whose event has
 * passed, so the host never waits for the stream per B-scan. */
#ifndef __AOOCT_CUDA_ORG_H__
#define __AOOCT_CUDA_ORG_H__

#include <glib.h>
#include "aooct-cuda.h"
#include "aooct-org.h"

G_BEGIN_DECLS typedef struct _AooctCudaOrgPlan AooctCudaOrgPlan;

/* The traces of one buffer's @count B-scans, with the @tag given to its
 * execute. */
typedef void (*AooctCudaOrgReport) (gpointer user, guint64 tag,
    const AooctOrgTrace * trace, gint count);

/* Context current.  @report gets every buffer's traces, in order, from
 * aooct_cuda_org_poll, from an execute that finds its page-locked slots
 * all in use, and from plan_free. */
AooctCudaOrgPlan *aooct_cuda_org_plan_new (const AooctOrgParams * p,
    AooctCudaOrgReport report, gpointer user, GError ** error);

/* Enqueues one buffer (@in: p->bscans B-scans, device; @out: one image of
 * p->history rows per B-scan, rows @out_stride bytes apart, device). */
gboolean aooct_cuda_org_execute (AooctCudaOrgPlan * plan,
    const AooctOrgLive * live, const gfloat * in, guint8 * out,
    gsize out_stride, guint64 tag, AooctCudaStream stream, GError ** error);

/* Reports the buffers whose traces have arrived (@wait: all of them,
 * waiting for each). */
gboolean aooct_cuda_org_poll (AooctCudaOrgPlan * plan, gboolean wait,
    GError ** error);

/* a flush: a new baseline, unwrapping and kymograph at the next B-scan */
void aooct_cuda_org_reset (AooctCudaOrgPlan * plan);
void aooct_cuda_org_plan_free (AooctCudaOrgPlan * plan);

G_END_DECLS
#endif /* __AOOCT_CUDA_ORG_H__ */
