/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: steps deferred to the next element (see aooct-pending-meta.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "aooct-pending-meta.h"
#include "aooct-error.h"
#include "aooct-kmap-table.h"

static void
table_clear (AooctPendingTable * table)
{
  g_clear_pointer (&table->data, g_bytes_unref);
  table->serial = 0;
}

void
aooct_pending_table_set (AooctPendingTable * table, GBytes * data, guint serial)
{
  GBytes *old = table->data;

  table->data = data ? g_bytes_ref (data) : NULL;
  table->serial = data ? serial : 0;
  if (old)
    g_bytes_unref (old);
}

guint
aooct_pending_serial_next (void)
{
  static gint serial = 0;

  /* 0 means "no table"; wrapping after 2^32 tables is harmless as long as
   * no consumer still holds the table of the same serial, i.e. never */
  guint s;

  do
    s = (guint) g_atomic_int_add (&serial, 1) + 1;
  while (s == 0);
  return s;
}

static gboolean
pending_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  AooctPendingMeta *p = (AooctPendingMeta *) meta;

  p->kmap.data = p->disp.data = NULL;
  p->kmap.serial = p->disp.serial = 0;
  p->kmap_j0 = p->kmap_j1 = 0;
  p->kmap_taps = 0;
  p->pad = FALSE;
  p->pad_scale = 1.0f;
  p->pad_j0 = p->pad_j1 = 0;
  return TRUE;
}

static void
pending_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  AooctPendingMeta *p = (AooctPendingMeta *) meta;

  table_clear (&p->kmap);
  table_clear (&p->disp);
}

/* Kept by whole copies of the buffer only: a part of the buffer (a region
 * copy) no longer holds the whole spectra the steps apply to. */
static gboolean
pending_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  AooctPendingMeta *src = (AooctPendingMeta *) meta, *dst;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  {
    GstMetaTransformCopy *copy = data;

    if (copy->region)
      return FALSE;
  }
  dst = aooct_buffer_ensure_pending_meta (dest);
  if (dst == NULL)
    return FALSE;
  aooct_pending_table_set (&dst->kmap, src->kmap.data, src->kmap.serial);
  dst->kmap_j0 = src->kmap_j0;
  dst->kmap_j1 = src->kmap_j1;
  dst->kmap_taps = src->kmap_taps;
  aooct_pending_table_set (&dst->disp, src->disp.data, src->disp.serial);
  dst->pad = src->pad;
  dst->pad_scale = src->pad_scale;
  dst->pad_j0 = src->pad_j0;
  dst->pad_j1 = src->pad_j1;
  return TRUE;
}

GType
aooct_pending_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { AOOCT_PENDING_META_TAG, NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("AooctPendingMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

const GstMetaInfo *
aooct_pending_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i = gst_meta_register (AOOCT_PENDING_META_API_TYPE,
        "AooctPendingMeta", sizeof (AooctPendingMeta), pending_meta_init,
        pending_meta_free, pending_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

AooctPendingMeta *
aooct_buffer_get_pending_meta (GstBuffer * buffer)
{
  return (AooctPendingMeta *) gst_buffer_get_meta (buffer,
      AOOCT_PENDING_META_API_TYPE);
}

AooctPendingMeta *
aooct_buffer_ensure_pending_meta (GstBuffer * buffer)
{
  AooctPendingMeta *meta = aooct_buffer_get_pending_meta (buffer);

  if (meta == NULL)
    meta = (AooctPendingMeta *) gst_buffer_add_meta (buffer,
        AOOCT_PENDING_META_INFO, NULL);
  return meta;
}

static gboolean
table_fits (const AooctPendingTable * table, gsize size, const gchar * what,
    GError ** error)
{
  if (g_bytes_get_size (table->data) == size)
    return TRUE;
  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
      "a deferred %s table has %" G_GSIZE_FORMAT " bytes where this "
      "geometry needs %" G_GSIZE_FORMAT, what,
      g_bytes_get_size (table->data), size);
  return FALSE;
}

gboolean
aooct_pending_meta_kmap_fir (const AooctPendingMeta * meta, gint samples,
    AooctKmapFir * fir, GError ** error)
{
  const gsize n = (gsize) samples;
  const gint taps = meta->kmap_taps;
  const guint8 *d;

  if (meta->kmap.data == NULL || taps < 1 || taps > AOOCT_KMAP_FIR_MAX_TAPS) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "a deferred resampling has %d taps, where a FIR table has 1 to %d",
        taps, AOOCT_KMAP_FIR_MAX_TAPS);
    return FALSE;
  }
  if (!table_fits (&meta->kmap, n * sizeof (gint32) + (gsize) taps * n *
          sizeof (gfloat), "FIR resampling", error))
    return FALSE;
  d = g_bytes_get_data (meta->kmap.data, NULL);
  fir->samples = samples;
  fir->start = meta->kmap_j0;
  fir->end = meta->kmap_j1;
  fir->taps = taps;
  fir->first = (gint32 *) d;
  fir->weight = (gfloat *) (d + n * sizeof (gint32));
  return TRUE;
}

gboolean
aooct_pending_meta_kmap_table (const AooctPendingMeta * meta, gint samples,
    AooctKmapTable * table, GError ** error)
{
  const gsize n = (gsize) samples;
  const guint8 *d;

  if (meta->kmap.data == NULL || meta->kmap_taps != 0
      || meta->kmap_j0 < 0 || meta->kmap_j1 >= samples
      || meta->kmap_j0 >= meta->kmap_j1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "a deferred linear resampling has the data region %d..%d (%d taps) "
        "for %d samples per A-line", meta->kmap_j0, meta->kmap_j1,
        meta->kmap_taps, samples);
    return FALSE;
  }
  if (!table_fits (&meta->kmap, n * (sizeof (gint32) + sizeof (gfloat)),
          "resampling", error))
    return FALSE;
  d = g_bytes_get_data (meta->kmap.data, NULL);
  memset (table, 0, sizeof (*table));
  table->samples = samples;
  table->start = meta->kmap_j0;
  table->end = meta->kmap_j1;
  table->index = (gint32 *) d;
  table->frac = (gfloat *) (d + n * sizeof (gint32));
  return TRUE;
}

#ifdef HAVE_CUDA
gboolean
aooct_pending_meta_load (const AooctPendingMeta * meta,
    AooctCudaPrepPlan * prep, gint samples, AooctCudaStream stream,
    GError ** error)
{
  gsize n = (gsize) samples;

  if (meta->kmap.data) {
    const guint8 *d = g_bytes_get_data (meta->kmap.data, NULL);

    if (meta->kmap_j0 < 0 || meta->kmap_j1 >= samples
        || meta->kmap_j0 >= meta->kmap_j1) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
          "a deferred resampling has the data region %d..%d, outside the "
          "%d samples per A-line", meta->kmap_j0, meta->kmap_j1, samples);
      return FALSE;
    }
    if (meta->kmap_taps > 0) {
      AooctKmapFir fir;

      if (!aooct_pending_meta_kmap_fir (meta, samples, &fir, error)
          || !aooct_cuda_prep_set_kmap_fir (prep, meta->kmap.serial, &fir,
              stream, error))
        return FALSE;
    } else if (!table_fits (&meta->kmap, n * (sizeof (gint32) +
                sizeof (gfloat)), "resampling", error)
        || !aooct_cuda_prep_set_kmap (prep, meta->kmap.serial,
            (const gint32 *) d, (const gfloat *) (d + n * sizeof (gint32)),
            meta->kmap_j0, meta->kmap_j1, stream, error))
      return FALSE;
  }
  if (meta->pad && (meta->pad_j0 < 0 || meta->pad_j1 >= samples
          || meta->pad_j0 > meta->pad_j1)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "a deferred padding step has the data region %d..%d, outside the "
        "%d samples per A-line", meta->pad_j0, meta->pad_j1, samples);
    return FALSE;
  }
  if (meta->disp.data) {
    if (!table_fits (&meta->disp, 2 * n * sizeof (gfloat), "dispersion", error))
      return FALSE;
    if (!aooct_cuda_prep_set_disp (prep, meta->disp.serial,
            g_bytes_get_data (meta->disp.data, NULL), stream, error))
      return FALSE;
  }
  return TRUE;
}
#endif

#ifdef HAVE_CUDA
void
aooct_pending_meta_steps (const AooctPendingMeta * meta,
    AooctCudaPrepSteps * steps)
{
  steps->pad = meta && meta->pad;
  steps->pad_scale = steps->pad ? meta->pad_scale : 1.0f;
  steps->pad_j0 = steps->pad ? meta->pad_j0 : 0;
  steps->pad_j1 = steps->pad ? meta->pad_j1 : 0;
  steps->kmap = meta && meta->kmap.data;
  steps->disp = meta && meta->disp.data;
}
#endif
