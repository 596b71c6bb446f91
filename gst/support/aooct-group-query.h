/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: how aooctsplit learns the run of buffers each branch needs
 * (buffers-per-branch=0, the default: docs/scale-out.md).
 *
 * An element that makes one image of several B-scans (aooctangio, the
 * volume views: GstAooctGroup; aooctflowenface) gives one chain's images
 * inside a branch only when its groups come whole to one branch.  At the
 * start, after a flush and after new caps, aooctsplit asks each branch
 * with this query: serialized (it passes through each branch's queue
 * after the caps, so that every element knows its geometry), downstream,
 * carrying "buffers", the run length in the buffers of the element it
 * reaches.  Every other element passes it on (one output per input: the
 * same count); aooctmerge answers it as it is, 1 by default.  A group
 * element asks downstream first (D of its outputs), then answers the
 * fewest whole input buffers that hold D of its groups. */
#ifndef __AOOCT_GROUP_QUERY_H__
#define __AOOCT_GROUP_QUERY_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define AOOCT_GROUP_QUERY ((GstQueryType) GST_QUERY_MAKE_TYPE (31000, \
        GST_QUERY_TYPE_DOWNSTREAM | GST_QUERY_TYPE_SERIALIZED))

/* A new query ("buffers" 1). */
GstQuery *aooct_group_query_new (void);

/* The run in buffers @query says (1 where it says nothing). */
guint aooct_group_query_buffers (GstQuery * query);

/* For a group element: the query (@query, asked of downstream already)
 * set to the fewest whole input buffers of @bscans B-scans that hold the
 * downstream run (in groups) of groups of @n B-scans. */
void aooct_group_query_answer (GstQuery * query, gint n, gint bscans);

G_END_DECLS
#endif /* __AOOCT_GROUP_QUERY_H__ */
