/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: row copies between host planes, into and out of page-locked
 * staging (the bottom of the CUDA backend: aooct-cuda-upload.c and
 * aooct-output-ring.c use it, it uses nothing of gst/). */
#ifndef __AOOCT_COPY_ROWS_H__
#define __AOOCT_COPY_ROWS_H__

#include <glib.h>

G_BEGIN_DECLS

/* Copies @rows rows of MIN (@dst_stride, @src_stride) bytes from @src
 * (rows @src_stride apart) to @dst (rows @dst_stride apart); large copies
 * on several cores. */
void aooct_copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize rows);

G_END_DECLS

#endif /* __AOOCT_COPY_ROWS_H__ */
