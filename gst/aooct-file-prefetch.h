/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the buffers of a raw file, fetched ahead of the source, in order,
 * by two producers.
 *
 * aooctfilesrc hands out buffer after buffer of a file of equal-sized
 * records.  Reading them is the bottleneck of `file ! chain` on CUDA, not
 * the chain: one reader thread's copy from the page cache runs at a few
 * GB/s, the upload at 50.  Two producers work ahead of the source, each
 * taking the lowest buffer index nobody has taken yet, within a window of
 * indices ahead of the one the source needs next:
 *
 *  - the reader: AooctFileReader's threads copy a buffer from the file into
 *    a buffer of the pool downstream proposes (page-locked memory when
 *    aooctdcsub runs on CUDA);
 *  - the registrar (only with aooct_file_prefetch_add_windows, CUDA builds):
 *    page-locks a window of several buffers of the file mapped read-only
 *    (cudaHostRegister), so that the upload's DMA reads the page cache in
 *    place, without any CPU copy.  Registration runs at about 18 GB/s on
 *    an H100 host and does not scale with threads; the copy of the readers
 *    competes with the DMA for host memory bandwidth: together they beat
 *    either alone (docs/performance.md, "Reading a raw file").
 *
 * The source takes index after index (aooct_file_prefetch_take), waiting
 * for the one it needs.  A seek forgets everything fetched. */
#ifndef __AOOCT_FILE_PREFETCH_H__
#define __AOOCT_FILE_PREFETCH_H__

#include <gst/gst.h>

#include "aooct-file-reader.h"

G_BEGIN_DECLS

typedef struct _AooctFilePrefetch AooctFilePrefetch;

/* Gets an empty buffer of at least the record size to read into (the
 * source's pool); may block; GST_FLOW_FLUSHING while the pool flushes. */
typedef GstFlowReturn (*AooctFilePrefetchAlloc) (gpointer user_data,
    GstBuffer ** buf);

/* Fetches records of @record_bytes (@n_records of them, from offset 0) of
 * the file @reader reads, into buffers from @alloc, keeping at most
 * @ahead records fetched ahead of the one taken next.  The reader stays
 * the caller's. */
AooctFilePrefetch *aooct_file_prefetch_new (AooctFileReader * reader,
    gsize record_bytes, guint64 n_records, guint ahead,
    AooctFilePrefetchAlloc alloc, gpointer user_data);

/* CUDA builds: adds the registrar for @path, whose records are handed out
 * as read-only memory of @host_allocator's type (aooct-cuda-host-memory.h)
 * over the mapped file; @ahead_bytes bounds what is page-locked ahead.
 * Must be called before the first take.  FALSE with @error when the file
 * cannot be mapped (the reader then does all the work). */
gboolean aooct_file_prefetch_add_windows (AooctFilePrefetch * self,
    const gchar * path, GstAllocator * host_allocator, gsize ahead_bytes,
    GError ** error);

/* Waits for record @index (the one after the last taken, or the first after
 * a seek) and returns it in *@buf: GST_FLOW_OK, GST_FLOW_FLUSHING, or
 * GST_FLOW_ERROR with @error set (a failed read).  *@in_place: the buffer
 * is a registered window of the file (its rows packed, read-only). */
GstFlowReturn aooct_file_prefetch_take (AooctFilePrefetch * self,
    guint64 index, GstBuffer ** buf, gboolean * in_place, GError ** error);

/* Forgets every record fetched; the next take is @index. */
void aooct_file_prefetch_seek (AooctFilePrefetch * self, guint64 index);

/* TRUE: a waiting take returns GST_FLOW_FLUSHING (basesrc's unlock). */
void aooct_file_prefetch_set_flushing (AooctFilePrefetch * self,
    gboolean flushing);

/* Records handed out by each producer since the start (statistics). */
void aooct_file_prefetch_counts (AooctFilePrefetch * self, guint64 * read,
    guint64 * in_place);

/* Stops the producers and frees what they fetched; windows still held
 * downstream are unregistered when their last buffer goes. */
void aooct_file_prefetch_free (AooctFilePrefetch * self);

G_END_DECLS

#endif /* __AOOCT_FILE_PREFETCH_H__ */
