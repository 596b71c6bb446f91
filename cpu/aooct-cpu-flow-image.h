/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU: what the flow cores (aooct-cpu-doppler.c, aooct-cpu-angio.c)
 * share: the maximum of a scratch image and the transposed write of a
 * pixel function into the output image. */
#ifndef __AOOCT_CPU_FLOW_IMAGE_H__
#define __AOOCT_CPU_FLOW_IMAGE_H__

#include <glib.h>
#include "aooct-flow.h"

G_BEGIN_DECLS
/* The largest of @n floats (NaN never wins), -inf when there is none. */
    gfloat aooct_cpu_flow_max (const gfloat * v, gsize n);

/* The pixel value (grey level, or an RGBA word) of pixel (m, r) */
typedef guint32 (*AooctCpuFlowPixel) (gconstpointer data, gint m, gint r);

/* Writes @rows x @alines pixels of @format, rows @out_stride bytes apart,
 * from @pixel (the padding at the end of each row zeroed, so that an
 * image file is the same bytes every time). */
void aooct_cpu_flow_write (AooctFlowFormat format, gint alines, gint rows,
    AooctCpuFlowPixel pixel, gconstpointer data, guint8 * out,
    gsize out_stride);

G_END_DECLS
#endif /* __AOOCT_CPU_FLOW_IMAGE_H__ */
