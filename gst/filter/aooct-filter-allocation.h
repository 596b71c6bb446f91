/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: GstAooctFilter's pools on CUDA (aooct-filter-allocation.c):
 * functions of an ALLOCATION query and the element's CUDA backend, not
 * of the filter.  CUDA builds only. */
#ifndef __AOOCT_FILTER_ALLOCATION_H__
#define __AOOCT_FILTER_ALLOCATION_H__

#include <gst/gst.h>

#ifdef HAVE_CUDA
#include "aooct-cuda-backend.h"

G_BEGIN_DECLS
/* Puts @pool first in @query, in place of downstream's proposal. */
void aooct_filter_allocation_use_pool (GstQuery * query, GstBufferPool * pool,
    guint size, guint min, guint max);
/* Video output in memory:CUDAMemory: a GstCudaBufferPool of @be's own put
 * in @query; FALSE with @error where it cannot be made. */
gboolean aooct_filter_allocation_cuda_video (AooctCudaBackend * be,
    GstQuery * query, GError ** error);
/* A pool of @be's device memory for output buffers of @size bytes with
 * the limits of @query (returned in @min, @max); NULL where it refuses
 * the configuration. */
GstBufferPool *aooct_filter_allocation_device (AooctCudaBackend * be,
    GstQuery * query, guint size, guint * min, guint * max);
/* Host-memory output without a pool from downstream: a page-locked pool
 * on @be's context put in @query; FALSE with @error where it cannot be
 * configured. */
gboolean aooct_filter_allocation_page_locked (AooctCudaBackend * be,
    GstQuery * query, guint size, GError ** error);
/* Video input from the host: a page-locked pool for frames of @caps,
 * @size bytes each, proposed upstream in @query; FALSE with @error. */
gboolean aooct_filter_allocation_upload_pool (AooctCudaBackend * be,
    GstQuery * query, GstCaps * caps, guint size, GError ** error);

G_END_DECLS
#endif
#endif /* __AOOCT_FILTER_ALLOCATION_H__ */
