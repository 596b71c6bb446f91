/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the sequence number of aooctsplit and aooctmerge (see the
 * header). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-seq-meta.h"

static gboolean
seq_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  ((AooctSeqMeta *) meta)->seq = 0;
  ((AooctSeqMeta *) meta)->seq_end = 0;
  ((AooctSeqMeta *) meta)->pos = 0;
  return TRUE;
}

/* any transform of the buffer (a copy, a new output made from it) is the
 * same position in the stream */
static gboolean
seq_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  AooctSeqMeta *m = (AooctSeqMeta *) meta;

  aooct_seq_meta_set_span (dest, m->seq, m->seq_end, m->pos);
  return TRUE;
}

GType
aooct_seq_meta_api_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    /* no tags: what GstBaseTransform copies onto the outputs it makes */
    static const gchar *tags[] = { NULL };
    GType t = gst_meta_api_type_register ("AooctSeqMetaAPI", tags);

    g_once_init_leave (&type, t);
  }
  return type;
}

const GstMetaInfo *
aooct_seq_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i = gst_meta_register (AOOCT_SEQ_META_API_TYPE,
        "AooctSeqMeta", sizeof (AooctSeqMeta), seq_meta_init, NULL,
        seq_meta_transform);

    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

static AooctSeqMeta *
meta_of (GstBuffer * buffer)
{
  return (AooctSeqMeta *) gst_buffer_get_meta (buffer, AOOCT_SEQ_META_API_TYPE);
}

void
aooct_seq_meta_set (GstBuffer * buffer, guint64 seq, guint64 pos)
{
  aooct_seq_meta_set_span (buffer, seq, seq, pos);
}

void
aooct_seq_meta_set_span (GstBuffer * buffer, guint64 seq, guint64 seq_end,
    guint64 pos)
{
  AooctSeqMeta *m = meta_of (buffer);

  if (m == NULL)
    m = (AooctSeqMeta *) gst_buffer_add_meta (buffer, AOOCT_SEQ_META_INFO,
        NULL);
  m->seq = seq;
  m->seq_end = MAX (seq, seq_end);
  m->pos = pos;
}

gboolean
aooct_seq_meta_get (GstBuffer * buffer, guint64 * seq)
{
  guint64 end;

  return aooct_seq_meta_get_span (buffer, seq, &end);
}

gboolean
aooct_seq_meta_get_pos (GstBuffer * buffer, guint64 * pos)
{
  AooctSeqMeta *m = meta_of (buffer);

  if (m)
    *pos = m->pos;
  return m != NULL;
}

gboolean
aooct_seq_meta_follows (GstBuffer * buffer, gboolean needed, gboolean * have,
    guint64 * next, guint64 * pos)
{
  guint64 expected = *have ? *next : 0;

  if (!aooct_seq_meta_get_pos (buffer, pos))
    return TRUE;
  *have = TRUE;
  *next = *pos + 1;
  /* position 0: the first since a start, a flush or new caps at
   * aooctsplit, which start every state over */
  return !needed || *pos == expected || *pos == 0;
}

gboolean
aooct_seq_meta_get_span (GstBuffer * buffer, guint64 * seq, guint64 * seq_end)
{
  AooctSeqMeta *m = meta_of (buffer);

  if (m) {
    *seq = m->seq;
    *seq_end = m->seq_end;
  }
  return m != NULL;
}
