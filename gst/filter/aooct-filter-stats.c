/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's stats property: buffers and host time counted
 * by the base class since start, GPU time measured with CUDA events on the
 * element's stream when gpu-timing is set and the CUDA graphs captured or
 * launched again, both counted by the element's CUDA side
 * (aooct-cuda-element.h; see aooct-filter-private.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-filter-private.h"

#ifdef HAVE_CUDA
#include "aooct-cuda-element.h"
#endif

/* The stats property: counts since the element started. */
GstStructure *
aooct_filter_stats_make (const AooctFilterStats * stats, gboolean on_cuda,
    struct _AooctCudaElement *cuda)
{
  GstStructure *st;
#ifdef HAVE_CUDA
  AooctCudaStats cs;
#endif

  st = gst_structure_new ("aooct-stats",
      "backend", G_TYPE_STRING, on_cuda ? "cuda" : "cpu",
      "buffers", G_TYPE_UINT64, stats->buffers,
      "host-time-ms", G_TYPE_DOUBLE, stats->host_ms,
      "host-time-mean-ms", G_TYPE_DOUBLE,
      stats->buffers ? stats->host_ms / stats->buffers : 0.0, NULL);
#ifdef HAVE_CUDA
  /* reset at start on either backend: zero on the CPU */
  aooct_cuda_element_get_stats (cuda, &cs);
  gst_structure_set (st, "gpu-buffers", G_TYPE_UINT64, cs.timed,
      "gpu-time-ms", G_TYPE_DOUBLE, cs.gpu_ms,
      "gpu-time-mean-ms", G_TYPE_DOUBLE, cs.timed ? cs.gpu_ms / cs.timed : 0.0,
      "gpu-time-max-ms", G_TYPE_DOUBLE, cs.gpu_ms_max,
      "graphs-captured", G_TYPE_UINT64, cs.graphs_captured,
      "graphs-relaunched", G_TYPE_UINT64, cs.graphs_relaunched, NULL);
#endif
  return st;
}
