/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GAP events of an element that emits fewer buffers than it takes
 * (the volume views of GstAooctView; any element that collects several
 * inputs into one output, such as the coming aooctangio).
 *
 * Such an element holds back what it collects, so downstream may wait
 * for a buffer that only the next inputs will complete: a sink cannot
 * preroll, a mixer cannot go on.  Behind a tee this stalls the whole
 * pipeline for ever (issue 35): the other branch's sink prerolls and
 * blocks, its queue fills, the tee blocks, and the collecting branch
 * never gets the inputs it waits for.  GStreamer's answer is the GAP
 * event (design documents "Sparse Streams" and "Sink elements";
 * gst_event_new_gap()): "no data for this span", which a GstBaseSink
 * prerolls on and which GstAggregator (compositor, muxers) turns into a
 * gap buffer, so that it does not wait on that pad.
 *
 * The rule: after every input that leaves an output pending, push
 * GAP (start, end - start), start = the timestamp the pending output will
 * carry (its first input's), end = the end of the last input taken in.
 * The GAP starts where the output will start, never later, so that a
 * sink that syncs on it waits only until then and the output, coming
 * when its last input has arrived, is still inside its own span [start,
 * start + duration), which is what a sink's lateness check measures
 * against (GstBaseSink's max-lateness counts from a buffer's end).  A GAP
 * from upstream while an output is pending is widened the same way.
 * Without timestamps no GAP can be made, and none is pushed. */
#ifndef __AOOCT_GAP_H__
#define __AOOCT_GAP_H__

#include <gst/gst.h>

G_BEGIN_DECLS typedef struct
{
  GstClockTime start;           /* timestamp of the pending output, or NONE */
  GstClockTime end;             /* end of the input taken into it so far */
} AooctGap;

/* Nothing pending: at start, at a flush and once the output is pushed. */
void aooct_gap_reset (AooctGap * gap);

/* Input of [@pts, @end) went into the pending output; @pts is the
 * output's timestamp when it is its first input.  @end NONE: the input
 * had no duration (its @pts is the end then). */
void aooct_gap_take (AooctGap * gap, GstClockTime pts, GstClockTime end);

/* Pushes GAP (start, end - start) on @srcpad when an output is pending
 * with a valid timestamp; FALSE where a push was refused (flushing,
 * EOS), which the next buffer's push reports. */
gboolean aooct_gap_push (const AooctGap * gap, GstPad * srcpad);

/* A GAP event from upstream (taken): itself where nothing is pending,
 * else widened to start at the pending output's timestamp (and taken
 * into the pending span). */
GstEvent *aooct_gap_widen (AooctGap * gap, GstEvent * event);

G_END_DECLS
#endif /* __AOOCT_GAP_H__ */
