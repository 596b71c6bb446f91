/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's stats property: buffers and host time counted
 * by the base class since start, GPU time measured with CUDA events on the
 * element's stream when gpu-timing is set (aooct-cuda-element.h; see
 * aooct-filter-private.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-element.h"
#endif

void
aooct_filter_stats_reset (GstAooctFilter * self)
{
  self->priv->stat_buffers = 0;
  self->priv->stat_host_ms = 0;
  self->priv->stat_graphs_captured = 0;
  self->priv->stat_graphs_relaunched = 0;
}

/* The stats property: counts since the element started. */
GstStructure *
aooct_filter_stats_make (GstAooctFilter * self)
{
  GstStructure *st;
#ifdef HAVE_CUDA
  AooctCudaStats cs;
#endif

  st = gst_structure_new ("aooct-stats",
      "backend", G_TYPE_STRING,
      aooct_filter_cuda_active (self) ? "cuda" : "cpu", "buffers",
      G_TYPE_UINT64, self->priv->stat_buffers, "host-time-ms", G_TYPE_DOUBLE,
      self->priv->stat_host_ms, "host-time-mean-ms", G_TYPE_DOUBLE,
      self->priv->stat_buffers ? self->priv->stat_host_ms /
      self->priv->stat_buffers : 0.0, NULL);
#ifdef HAVE_CUDA
  aooct_cuda_element_get_stats (self->priv->cuda, &cs);
  gst_structure_set (st, "gpu-buffers", G_TYPE_UINT64, cs.timed,
      "gpu-time-ms", G_TYPE_DOUBLE, cs.gpu_ms,
      "gpu-time-mean-ms", G_TYPE_DOUBLE, cs.timed ? cs.gpu_ms / cs.timed : 0.0,
      "gpu-time-max-ms", G_TYPE_DOUBLE, cs.gpu_ms_max,
      "graphs-captured", G_TYPE_UINT64, self->priv->stat_graphs_captured,
      "graphs-relaunched", G_TYPE_UINT64, self->priv->stat_graphs_relaunched,
      NULL);
#endif
  return st;
}
