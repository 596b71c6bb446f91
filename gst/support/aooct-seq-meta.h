/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the sequence number aooctsplit puts on each buffer it hands to a
 * branch, and by which aooctmerge puts the branches' outputs back into
 * the input order.
 *
 * The meta API has no tags, so that every element that makes a new
 * output buffer from its input (GstBaseTransform's default
 * transform_meta, which the aooct elements keep) carries it over: the
 * number survives a whole aooct chain in each branch.  aooctmerge takes
 * it off before it pushes a buffer on. */
#ifndef __AOOCT_SEQ_META_H__
#define __AOOCT_SEQ_META_H__

#include <gst/gst.h>

G_BEGIN_DECLS
#define AOOCT_SEQ_META_API_TYPE (aooct_seq_meta_api_get_type ())
#define AOOCT_SEQ_META_INFO (aooct_seq_meta_get_info ())
    typedef struct
{
  GstMeta meta;
  /* the buffer's position in aooctsplit's input since it started or was
   * last flushed, from 0 */
  guint64 seq;
  /* the number of the last input it was made of (an image of a group of
   * B-scans, GstAooctGroup: its last B-scan's buffer); seq otherwise.
   * aooctmerge expects seq_end + 1 next. */
  guint64 seq_end;
  /* its position in the stream since the last reset (start, flush, new
   * caps), counted in the buffers of this point of the chain: aooctsplit
   * counts its input buffers; an element that makes one image of several
   * B-scans (GstAooctGroup) counts its images.  An element whose output
   * depends on earlier buffers checks with it that its branch got the
   * stream's buffers in order (aooct_seq_meta_follows). */
  guint64 pos;
} AooctSeqMeta;

GType aooct_seq_meta_api_get_type (void);
const GstMetaInfo *aooct_seq_meta_get_info (void);

/* Puts @seq and @pos on @buffer (writable), in place of those it had. */
void aooct_seq_meta_set (GstBuffer * buffer, guint64 seq, guint64 pos);

/* The same for an output made of the inputs numbered @seq .. @seq_end. */
void aooct_seq_meta_set_span (GstBuffer * buffer, guint64 seq,
    guint64 seq_end, guint64 pos);

/* The numbers of the first and last input @buffer was made of: FALSE
 * where it has none. */
gboolean aooct_seq_meta_get_span (GstBuffer * buffer, guint64 * seq,
    guint64 * seq_end);

/* The number on @buffer: FALSE where it has none. */
gboolean aooct_seq_meta_get (GstBuffer * buffer, guint64 * seq);

/* The position (pos) on @buffer: FALSE where it has none (not in a branch
 * of aooctsplit). */
gboolean aooct_seq_meta_get_pos (GstBuffer * buffer, guint64 * pos);

/* For an element whose output depends on the buffers before (a rolling
 * mean, an average over B-scans, an estimate held from one B-scan on):
 * where @buffer came through a branch of aooctsplit, whether it is the
 * stream's next buffer after the one this element saw last (*@next, with
 * *@have FALSE after a reset: the stream's first), so that the element
 * sees what one chain would; position 0 (the first buffer since a
 * start, a flush or new caps at aooctsplit) always.  Updates *@have and
 * *@next.  TRUE where the
 * buffer has no number (no aooctsplit upstream) and with @needed FALSE
 * (the element keeps no state now; the position is still tracked). */
gboolean aooct_seq_meta_follows (GstBuffer * buffer, gboolean needed,
    gboolean * have, guint64 * next, guint64 * pos);

G_END_DECLS
#endif
