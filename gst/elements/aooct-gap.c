/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GAP events of an element that emits fewer buffers than it takes
 * (see aooct-gap.h for the rule and why). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-gap.h"

void
aooct_gap_reset (AooctGap * gap)
{
  gap->start = GST_CLOCK_TIME_NONE;
  gap->has_seq = FALSE;
}

void
aooct_gap_number (AooctGap * gap, guint64 seq)
{
  gap->has_seq = TRUE;
  gap->seq = seq;
}

/* GAP (start, 0), numbered in a branch */
static GstEvent *
new_gap (const AooctGap * gap)
{
  GstEvent *event = gst_event_new_gap (gap->start, 0);

  if (gap->has_seq)
    gst_structure_set (gst_event_writable_structure (event),
        AOOCT_GAP_SEQ_FIELD, G_TYPE_UINT64, gap->seq, NULL);
  return event;
}

void
aooct_gap_take (AooctGap * gap, GstClockTime pts)
{
  if (!GST_CLOCK_TIME_IS_VALID (gap->start))
    gap->start = pts;
}

GstEvent *
aooct_gap_event (const AooctGap * gap)
{
  if (!GST_CLOCK_TIME_IS_VALID (gap->start))
    return NULL;
  return new_gap (gap);
}

GstEvent *
aooct_gap_from_upstream (const AooctGap * gap, GstEvent * event)
{
  GstEvent *at_start;

  if (!GST_CLOCK_TIME_IS_VALID (gap->start))
    return event;
  at_start = new_gap (gap);
  gst_event_set_seqnum (at_start, gst_event_get_seqnum (event));
  gst_event_unref (event);
  return at_start;
}
