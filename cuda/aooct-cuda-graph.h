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
 * and buffer (a graph of another shape, as when a table is uploaded with
 * the buffer's work, is instantiated anew).  Capturing replays exactly the
 * calls the element makes, so the work is the same as launched one by
 * one.
 *
 * Capturing and updating still cost the host a few microseconds per
 * buffer.  Where the caller can name, in a key, everything the captured
 * work depends on (the planes' pointers, the settings passed to the
 * kernels), a graph captured under a key is kept, instantiated for it
 * alone, and launched again for the next buffer with the same key without
 * capturing anything: the pool buffers cycle, so a handful of keys covers
 * a steady stream.  Plain C, no GStreamer.
 */
#ifndef __AOOCT_CUDA_GRAPH_H__
#define __AOOCT_CUDA_GRAPH_H__

#include "aooct-cuda.h"

G_BEGIN_DECLS

typedef struct _AooctCudaGraph AooctCudaGraph;

/* the longest key, in bytes */
#define AOOCT_CUDA_GRAPH_KEY_MAX 192
/* keys kept per element; a key beyond them is captured every time */
#define AOOCT_CUDA_GRAPH_KEYS 16

/* Launches on @stream the graph captured under @key (@len bytes) by an
 * earlier aooct_cuda_graph_end, if there is one (*@hit TRUE); else
 * enqueues nothing (*@hit FALSE). */
gboolean aooct_cuda_graph_launch_kept (AooctCudaGraph * graph,
    const guint8 * key, gsize len, AooctCudaStream stream, gboolean * hit,
    GError ** error);

/* Starts capturing what this thread enqueues on @stream. */
gboolean aooct_cuda_graph_begin (AooctCudaStream stream, GError ** error);

/* Ends the capture on @stream.  With @launch, instantiates the captured
 * work into *@graph and launches it on @stream: kept under @key (@len
 * bytes, 1 to AOOCT_CUDA_GRAPH_KEY_MAX) while fewer than
 * AOOCT_CUDA_GRAPH_KEYS are kept, else (and for a NULL @key) by updating
 * the one unkeyed graph in place.  Without @launch, discards it.  FALSE
 * with @error when the capture failed (a call that cannot be captured,
 * e.g. a copy from pageable memory): then nothing of it was enqueued. */
gboolean aooct_cuda_graph_end (AooctCudaGraph ** graph,
    AooctCudaStream stream, gboolean launch, const guint8 * key, gsize len,
    GError ** error);

void aooct_cuda_graph_free (AooctCudaGraph * graph);

G_END_DECLS

#endif /* __AOOCT_CUDA_GRAPH_H__ */
