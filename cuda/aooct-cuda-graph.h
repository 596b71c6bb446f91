/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: one CUDA graph per element for the launches of a buffer.
 *
 * A kernel launch costs the host several microseconds (4-5 us on the
 * H100 machine of docs/performance.md), an element makes up to a handful
 * per buffer, and with one B-scan per buffer those launches are what
 * bounds the chain.  The element's work for a buffer is captured from its
 * stream into a graph, the graph instantiated once and, for the next
 * buffers (other pool buffers, so other pointers, same kernels), updated
 * in place with cudaGraphExecUpdate and launched: one launch per element
 * and buffer.  Capturing replays exactly the calls the element makes, so
 * the work is the same as launched one by one.  Plain C, no GStreamer.
 */
#ifndef __AOOCT_CUDA_GRAPH_H__
#define __AOOCT_CUDA_GRAPH_H__

#include "aooct-cuda.h"

G_BEGIN_DECLS

typedef struct _AooctCudaGraph AooctCudaGraph;

/* Starts capturing what this thread enqueues on @stream. */
gboolean aooct_cuda_graph_begin (AooctCudaStream stream, GError ** error);

/* Ends the capture on @stream.  With @launch, instantiates the captured
 * work into *@graph (or updates the one there) and launches it on
 * @stream; without, discards it.  FALSE with @error when the capture
 * failed (a call that cannot be captured, e.g. a copy from pageable
 * memory): then nothing of it was enqueued. */
gboolean aooct_cuda_graph_end (AooctCudaGraph ** graph,
    AooctCudaStream stream, gboolean launch, GError ** error);

void aooct_cuda_graph_free (AooctCudaGraph * graph);

G_END_DECLS

#endif /* __AOOCT_CUDA_GRAPH_H__ */
