/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GAP events of an element that emits fewer buffers than it takes
 * (the volume views of GstAooctView; any element that collects several
 * inputs into one output, such as the coming aooctangio).
 *
 * Such an element holds back what it collects, so downstream may wait
 * for a buffer that only the next inputs will complete.  Behind a tee
 * this stalled the whole pipeline for ever (issue 35): the other
 * branch's sink prerolled and blocked, its queue filled, the tee blocked,
 * and the collecting branch never got the inputs it waited for.
 * GStreamer's answer is the GAP event (design documents "Sparse Streams"
 * and "Sink elements", gst_event_new_gap()): it says where the stream
 * stands when no buffer comes; a GstBaseSink prerolls on it as on a
 * buffer, GstAggregator (compositor, muxers) takes it as a gap buffer.
 *
 * The rule: after every input that leaves an output pending, push
 * GAP (start, 0), start = the timestamp the pending output will carry
 * (its first input's).  It is the part of "no data for the span of input
 * taken so far" that stays true: the output, pushed once its last input
 * has come, covers that span itself (the views' images carry their
 * volume's first B-scan's timestamp, spec section 11), so a GAP over it
 * would tell a mixer there is nothing to show there, and compositor
 * would blank the view for all but the last moments of its span
 * (measured: the en-face pane in 152 of 600 frames instead of 600).  A
 * sink syncing on the GAP waits only until the output's own start.
 * Downstream's position thus moves by one output span at a time.  A GAP
 * from upstream while an output is pending becomes the same GAP (start,
 * 0); with nothing pending it passes as it is.  Without timestamps no GAP
 * can be made, and none is pushed. */
#ifndef __AOOCT_GAP_H__
#define __AOOCT_GAP_H__

#include <gst/gst.h>

G_BEGIN_DECLS typedef struct
{
  GstClockTime start;           /* timestamp of the pending output, or NONE */
  gboolean has_seq;             /* in a branch of aooctsplit: the number */
  guint64 seq;                  /* the pending output will carry */
} AooctGap;

/* The field of a GAP event that says, in a branch of aooctsplit, which
 * output it stands for (the number of aooct-seq-meta.h, guint64):
 * aooctmerge passes the GAP on when that output is the next in order. */
#define AOOCT_GAP_SEQ_FIELD "aooct-seq"

/* Nothing pending: at start, at a flush and once the output is pushed. */
void aooct_gap_reset (AooctGap * gap);

/* An input went into the pending output; @pts is the output's timestamp
 * (taken when nothing was pending: the output's first input). */
void aooct_gap_take (AooctGap * gap, GstClockTime pts);

/* In a branch of aooctsplit: the pending output will carry number @seq
 * (its first input's); the GAP events say so (AOOCT_GAP_SEQ_FIELD). */
void aooct_gap_number (AooctGap * gap, guint64 seq);

/* GAP (start, 0) when an output is pending with a valid timestamp, for
 * the element to push after whatever it has still in flight; else NULL.
 * A push refused (flushing, EOS) is reported by the next buffer's. */
GstEvent *aooct_gap_event (const AooctGap * gap);

/* A GAP event from upstream (taken): itself where nothing is pending,
 * else GAP (start, 0). */
GstEvent *aooct_gap_from_upstream (const AooctGap * gap, GstEvent * event);

G_END_DECLS
#endif /* __AOOCT_GAP_H__ */
