/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the buffers of a raw file, fetched ahead of the source, in order.
 *
 * aooctfilesrc hands out buffer after buffer of a file of equal-sized
 * records (a record: the B-scans of one buffer; the file may have a
 * header before them and bytes between B-scans, AooctFileLayout).  Reading them is the bottleneck of `file ! chain` on CUDA, not
 * the chain: one reader thread's copy from the page cache runs at a few
 * GB/s, the upload at 50.  Two ways:
 *
 *  - the reader: AooctFileReader's threads copy each record, a few ahead
 *    of the one the source needs next, into a buffer of the pool
 *    downstream proposes (page-locked memory when aooctdcsub runs on
 *    CUDA);
 *  - the page-locked file (aooct_file_prefetch_lock_file, CUDA builds): a
 *    file in the page cache, mapped read-only and page-locked whole
 *    (cudaHostRegister) before the first record is taken; every record is
 *    then handed out in place, and the upload's DMA reads the page cache
 *    itself, with no CPU copy (docs/notes/performance-log.md, "The GPU reading the
 *    file in place").
 *
 * The source takes index after index (aooct_file_prefetch_take), waiting
 * for the one it needs.  A seek forgets what the readers fetched. */
#ifndef __AOOCT_FILE_PREFETCH_H__
#define __AOOCT_FILE_PREFETCH_H__

#include <gst/gst.h>

#include "aooct-file-reader.h"

G_BEGIN_DECLS typedef struct _AooctFilePrefetch AooctFilePrefetch;

/* Gets an empty buffer of at least the record size to read into (the
 * source's pool); may block; GST_FLOW_FLUSHING while the pool flushes. */
typedef GstFlowReturn (*AooctFilePrefetchAlloc) (gpointer user_data,
    GstBuffer ** buf);

/* Where the B-scans are in the file: B-scan j (from 0) is the
 * @frame_bytes bytes at @offset + j x @frame_stride (@frame_stride >=
 * @frame_bytes: what lies between, a per-B-scan header or trailer, is
 * not read); a record is @frames B-scans, put one after the other into
 * its buffer. */
typedef struct
{
  guint64 offset;
  gsize frame_bytes;
  guint64 frame_stride;
  guint frames;
} AooctFileLayout;

/* Fetches records of @layout (@n_records of them) of the file @reader
 * reads, into buffers from @alloc, keeping at most @ahead records fetched
 * ahead of the one taken next.  The reader stays the caller's. */
AooctFilePrefetch *aooct_file_prefetch_new (AooctFileReader * reader,
    const AooctFileLayout * layout, guint64 n_records, guint ahead,
    AooctFilePrefetchAlloc alloc, gpointer user_data);

/* CUDA builds: maps the file @path and page-locks it whole (up to the
 * last record's end), now, when that is at most @max_bytes and at least
 * 90 % in the page cache, and every record's B-scans lie one after the
 * other in the file (frame_stride = frame_bytes, or one B-scan per
 * record: a header and per-B-scan gaps are then simply not uploaded);
 * every record after those the readers already hold is then handed out in
 * place, as read-only memory of @host_allocator's type
 * (aooct-cuda-host-memory.h).  Must be called before the first take.
 * FALSE with @error (why not) when it is not done: the readers then do all
 * the work. */
gboolean aooct_file_prefetch_lock_file (AooctFilePrefetch * self,
    const gchar * path, GstAllocator * host_allocator, guint64 max_bytes,
    GError ** error);

/* Waits for record @index (the one after the last taken, or the first after
 * a seek) and returns it in *@buf: GST_FLOW_OK, GST_FLOW_FLUSHING, or
 * GST_FLOW_ERROR with @error set (a failed read).  *@in_place: the buffer
 * is a record of the page-locked file (its rows packed, read-only). */
GstFlowReturn aooct_file_prefetch_take (AooctFilePrefetch * self,
    guint64 index, GstBuffer ** buf, gboolean * in_place, GError ** error);

/* Forgets every record fetched; the next take is @index. */
void aooct_file_prefetch_seek (AooctFilePrefetch * self, guint64 index);

/* TRUE: a waiting take returns GST_FLOW_FLUSHING (basesrc's unlock). */
void aooct_file_prefetch_set_flushing (AooctFilePrefetch * self,
    gboolean flushing);

/* Records handed out by the readers and in place since the start. */
void aooct_file_prefetch_counts (AooctFilePrefetch * self, guint64 * read,
    guint64 * in_place);

/* Stops the readers and frees what they fetched; a page-locked file is
 * unregistered when its last buffer downstream goes. */
void aooct_file_prefetch_free (AooctFilePrefetch * self);

G_END_DECLS
#endif /* __AOOCT_FILE_PREFETCH_H__ */
