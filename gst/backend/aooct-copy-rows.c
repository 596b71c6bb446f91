/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: row copies between host planes (see aooct-copy-rows.h). */
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "aooct-copy-rows.h"

/* Rows @first .. @last - 1. */
static void
copy_row_range (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize first, gsize last)
{
  gsize r, n = MIN (dst_stride, src_stride);

  if (dst_stride == src_stride) {
    memcpy (dst + first * dst_stride, src + first * src_stride,
        (last - first) * dst_stride);
    return;
  }
  for (r = first; r < last; r++)
    memcpy (dst + r * dst_stride, src + r * src_stride, n);
}

/* One core's memcpy (about 7 GB/s measured on the H100 host) would bound
 * the whole chain for B-scans of megabytes (the upload itself runs at
 * 55 GB/s), so large copies are split over up to COPY_THREADS cores. */
#define PARALLEL_COPY_BYTES ((gsize) 1 << 20)
#define COPY_THREADS 8

void
aooct_copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize rows)
{
#ifdef _OPENMP
  if (rows * MIN (dst_stride, src_stride) >= PARALLEL_COPY_BYTES
      && rows >= COPY_THREADS) {
    gint c, n = MIN (COPY_THREADS, omp_get_num_procs ());

#pragma omp parallel for schedule(static) num_threads(n)
    for (c = 0; c < n; c++)
      copy_row_range (dst, dst_stride, src, src_stride, rows * c / n,
          rows * (c + 1) / n);
    return;
  }
#endif
  copy_row_range (dst, dst_stride, src, src_stride, 0, rows);
}
