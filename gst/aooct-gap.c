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
  gap->end = GST_CLOCK_TIME_NONE;
}

void
aooct_gap_take (AooctGap * gap, GstClockTime pts, GstClockTime end)
{
  if (!GST_CLOCK_TIME_IS_VALID (gap->start)) {
    gap->start = pts;
    gap->end = pts;
  }
  if (!GST_CLOCK_TIME_IS_VALID (end))
    end = pts;
  if (GST_CLOCK_TIME_IS_VALID (end) && (!GST_CLOCK_TIME_IS_VALID (gap->end)
          || end > gap->end))
    gap->end = end;
}

gboolean
aooct_gap_push (const AooctGap * gap, GstPad * srcpad)
{
  /* end >= start once start is set (aooct_gap_take) */
  if (!GST_CLOCK_TIME_IS_VALID (gap->start))
    return TRUE;
  return gst_pad_push_event (srcpad, gst_event_new_gap (gap->start,
          gap->end - gap->start));
}

GstEvent *
aooct_gap_widen (AooctGap * gap, GstEvent * event)
{
  GstClockTime ts, dur;
  GstEvent *wide;

  if (!GST_CLOCK_TIME_IS_VALID (gap->start))
    return event;
  gst_event_parse_gap (event, &ts, &dur);
  aooct_gap_take (gap, ts, GST_CLOCK_TIME_IS_VALID (dur) ? ts + dur :
      GST_CLOCK_TIME_NONE);
  wide = gst_event_new_gap (gap->start, gap->end - gap->start);
  gst_event_set_seqnum (wide, gst_event_get_seqnum (event));
  gst_event_unref (event);
  return wide;
}
