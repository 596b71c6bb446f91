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
} AooctSeqMeta;

GType aooct_seq_meta_api_get_type (void);
const GstMetaInfo *aooct_seq_meta_get_info (void);

/* Puts @seq on @buffer (writable), in place of a number it had. */
void aooct_seq_meta_set (GstBuffer * buffer, guint64 seq);

/* The number on @buffer: FALSE where it has none. */
gboolean aooct_seq_meta_get (GstBuffer * buffer, guint64 * seq);

G_END_DECLS
#endif
