/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctGroup, base class of the elements that make one image
 * per group of B-scans: the volume views (GstAooctView: aooctenface,
 * aooctrender; spec section 11) and aooctangio (spec section 12).
 *
 * It takes depth-domain B-scans and emits one image per group of n of
 * them, so it makes fewer outputs than it takes inputs: it overrides
 * GstBaseTransform's generate_output() (the way GStreamer's own N-to-M
 * transforms do), handing the B-scans of each input to collect and, once
 * n have come, the image to emit, through GstAooctFilter's
 * gst_aooct_filter_collect() and gst_aooct_filter_emit(), which do the
 * mapping, upload and download of the CPU and CUDA backends (on CUDA the
 * image leaves through the output ring, as a transform's does).  A buffer with several B-scans may end one group
 * and start the next.
 *
 * What it does for its subclasses: the counting of groups (from the first
 * B-scan after start, a flush or new caps), the timestamp of the group's
 * first B-scan, the duration of n B-scans, and the partial group: at EOS
 * and before new caps the B-scans collected come out as one more image
 * (a view: emit_partial) or are dropped (aooctangio; at EOS with a
 * warning that says how many); a flush drops them; and after every input
 * that leaves a group pending, a GAP event over the span the pending image
 * will cover (aooct-gap.h), so that downstream prerolls and goes on
 * meanwhile (a tee with a branch of B-scans, a compositor).
 *
 * A subclass says how many B-scans make a group (group_size, fixed from
 * its setup() on) and names the core of its step on each backend
 * (GstAooctFilterClass's cpu_ops / cuda_ops, aooct-step.h); in its live()
 * gst_aooct_group_call() says what execute() is asked for: collect
 * (count > 0: keep B-scans @first .. of the group, from A-line @in_row of
 * the input plane) or emit (count 0: the image of the first @filled
 * B-scans into the output plane). */
#ifndef __GST_AOOCT_GROUP_H__
#define __GST_AOOCT_GROUP_H__

#include "gstaooctfilter.h"

G_BEGIN_DECLS
/* What one execute() call is asked for (see above). */
    typedef struct
{
  gint first, count;            /* collect: B-scans of the group */
  gint in_row;                  /* ... from this A-line of the input */
  gint filled;                  /* B-scans collected before this call */
} AooctGroupCall;

#define GST_TYPE_AOOCT_GROUP (gst_aooct_group_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstAooctGroup, gst_aooct_group, GST, AOOCT_GROUP,
    GstAooctFilter);

struct _GstAooctGroupClass
{
  GstAooctFilterClass parent_class;

  /* B-scans per image for the negotiated caps (called once configured) */
    gint (*group_size) (GstAooctGroup * self);

  /* Optional: a group's first B-scan is about to be collected (a view
   * takes its log setting then). */
  void (*group_start) (GstAooctGroup * self);

  /* TRUE: a partial group at EOS or before new caps makes an image of
   * the B-scans it has; FALSE: it is dropped (at EOS with a warning). */
  gboolean emit_partial;

  /* The property that sets group_size (for messages): "repeats",
   * "bscans-per-volume". */
  const gchar *group_property;

  /* TRUE: after a flush (a seek), the first group starts at the first
   * B-scan whose index in the stream (from the timestamps) is a multiple
   * of the group size, with a warning saying how many were skipped; a
   * warning where the timestamps do not tell (aooctangio: a group is the
   * repeats of one position).  FALSE: groups count from the first B-scan
   * after the flush (the views: a volume of the B-scans that come). */
  gboolean realign_after_seek;
};

/* For live(): what the coming execute() call is asked for. */
const AooctGroupCall *gst_aooct_group_call (GstAooctGroup * self);

/* The output frame rate of one image per @n B-scans of @in (in->fps and
 * in->bscans per buffer) into @out's fps_n / fps_d (0/1 when unknown). */
void gst_aooct_group_rate (const AooctGeometry * in, gint n,
    AooctGeometry * out);

G_END_DECLS
#endif /* __GST_AOOCT_GROUP_H__ */
