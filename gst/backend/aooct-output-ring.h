/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the output ring of a CUDA-backend element (the CUDA backend,
 * aooct-cuda-element.h: filled by gst/backend/aooct-cuda-buffer.c, emptied
 * by the src task of gst/filter/gstaooctfilter.c).
 *
 * The host waits for the GPU only where data leaves it.  The streaming
 * thread enqueues a buffer's GPU work, then arms the ring's tail: with the
 * download of the output plane into the tail's page-locked staging slot
 * (aooct_output_ring_download), or with an event after the GPU work on
 * libgstcuda memory (aooct_output_ring_arm_event), or as complete
 * (aooct_output_ring_arm_complete); it then adds the output buffer
 * (aooct_output_ring_add).  The element's src task takes outputs from the
 * head in order (aooct_output_ring_wait_output, _wait_head, _copy_staged,
 * _drop_head, _output_done) and pushes them.  Only the streaming thread
 * touches the tail and only the src task the head, so the slots need no
 * lock; the count, the flushing flag, the task's busy flag and its last
 * flow return are under the ring's own lock, which nothing outside this
 * file takes.  GPU calls need the element's context current. */
#ifndef __AOOCT_OUTPUT_RING_H__
#define __AOOCT_OUTPUT_RING_H__

#include <gst/gst.h>

#include "aooct-cuda.h"
#include "aooct-step.h"

G_BEGIN_DECLS
/* Outputs whose GPU work may still be running when the element returns
 * from transform (host-memory output waiting in page-locked staging, or
 * libgstcuda memory for nvcodec): at most this many, pushed in order as
 * their work completes.  Four keep the copy engine and the kernels of the
 * next B-scans busy while the host finishes the oldest. */
#define AOOCT_OUTPUT_RING_DEPTH 4
typedef struct _AooctOutputRing AooctOutputRing;

/* One output in the ring. */
typedef struct
{
  GstBuffer *buf;               /* the output buffer, in order */
  gboolean gpu;                 /* its GPU work has an event to wait for */
  gboolean staged;              /* its image waits in staging */
  gsize rows, dev_stride;       /* layout in staging */
} AooctOutputRingSlot;

AooctOutputRing *aooct_output_ring_new (void);
/* Drops the outputs and frees the ring (after aooct_output_ring_release,
 * which freed its GPU resources while the context was current). */
void aooct_output_ring_free (AooctOutputRing * ring);
/* Frees staging and events, keeps the ring (context current, stream
 * idle): at new caps and at stop. */
void aooct_output_ring_release (AooctOutputRing * ring);

/* Streaming thread, for the output being made: enqueues the download of
 * @dev (@rows rows) into the tail's staging slot on @stream and records
 * its end. */
gboolean aooct_output_ring_download (AooctOutputRing * ring,
    const AooctPlane * dev, gsize rows, AooctCudaStream stream,
    GError ** error);
/* ... or enqueues it straight into @host (page-locked host memory of
 * @rows rows @dev's stride apart: the output buffer itself, from our
 * pool), so that nothing is left to copy when the output is taken. */
gboolean aooct_output_ring_download_into (AooctOutputRing * ring,
    const AooctPlane * dev, gsize rows, gpointer host, AooctCudaStream stream,
    GError ** error);
/* ... or records the end of the GPU work (on @stream) on libgstcuda
 * memory that must be complete before it is pushed. */
gboolean aooct_output_ring_arm_event (AooctOutputRing * ring,
    AooctCudaStream stream, GError ** error);
/* ... or says that it needs no wait (ordered on the GPU). */
void aooct_output_ring_arm_complete (AooctOutputRing * ring);
/* The output being made has GPU work to wait for (armed by download or
 * arm_event). */
gboolean aooct_output_ring_armed_gpu (AooctOutputRing * ring);
/* Forgets what was armed (the output was not made after all). */
void aooct_output_ring_disarm (AooctOutputRing * ring);

/* Streaming thread: waits while the ring is full; GST_FLOW_OK, or
 * GST_FLOW_FLUSHING, or the src task's last failed push. */
GstFlowReturn aooct_output_ring_wait_space (AooctOutputRing * ring);
/* Streaming thread: takes @buf at the tail with what was armed since the
 * last add.  Never on a full ring. */
void aooct_output_ring_add (AooctOutputRing * ring, GstBuffer * buf);

/* Src task: waits for an output (TRUE; the task is then busy until
 * aooct_output_ring_output_done) or flushing (FALSE). */
gboolean aooct_output_ring_wait_output (AooctOutputRing * ring);
/* Src task: the head output was pushed with @ret (kept if not OK, for
 * the streaming thread's next wait_space). */
void aooct_output_ring_output_done (AooctOutputRing * ring, GstFlowReturn ret);
/* The oldest output (one is in the ring), once its GPU work is complete
 * (context current); *@staging: its staged image, or NULL. */
gboolean aooct_output_ring_wait_head (AooctOutputRing * ring,
    AooctOutputRingSlot ** out, gconstpointer * staging, GError ** error);
/* Copies a staged image into @host. */
void aooct_output_ring_copy_staged (const AooctOutputRingSlot * out,
    gconstpointer staging, const AooctPlane * host);
/* Frees the head's slot (its buffer was taken: out->buf set to NULL, or
 * is dropped). */
void aooct_output_ring_drop_head (AooctOutputRing * ring);

/* Waits until every output has been pushed (before a serialized event or
 * query, new caps), the ring flushes or a push failed. */
void aooct_output_ring_drain (AooctOutputRing * ring);
/* Flushing wakes and stops every wait; leaving it forgets a failed push. */
void aooct_output_ring_set_flushing (AooctOutputRing * ring, gboolean flushing);
/* Drops every output (flush, stop; the src task paused or stopped, the
 * stream idle). */
void aooct_output_ring_discard (AooctOutputRing * ring);

G_END_DECLS
#endif /* __AOOCT_OUTPUT_RING_H__ */
