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
  return TRUE;
}

/* any transform of the buffer (a copy, a new output made from it) is the
 * same position in the stream */
static gboolean
seq_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  aooct_seq_meta_set (dest, ((AooctSeqMeta *) meta)->seq);
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

void
aooct_seq_meta_set (GstBuffer * buffer, guint64 seq)
{
  AooctSeqMeta *m = (AooctSeqMeta *) gst_buffer_get_meta (buffer,
      AOOCT_SEQ_META_API_TYPE);

  if (m == NULL)
    m = (AooctSeqMeta *) gst_buffer_add_meta (buffer, AOOCT_SEQ_META_INFO,
        NULL);
  m->seq = seq;
}

gboolean
aooct_seq_meta_get (GstBuffer * buffer, guint64 * seq)
{
  AooctSeqMeta *m = (AooctSeqMeta *) gst_buffer_get_meta (buffer,
      AOOCT_SEQ_META_API_TYPE);

  if (m == NULL)
    return FALSE;
  *seq = m->seq;
  return TRUE;
}
