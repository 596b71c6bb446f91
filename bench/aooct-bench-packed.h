/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-bench: raw B-scans as a camera's packed modes deliver them (the
 * --packed rows, docs/caps.md "Packed 10/12-bit input"). */
#ifndef __AOOCT_BENCH_PACKED_H__
#define __AOOCT_BENCH_PACKED_H__

#include <gst/gst.h>

#include "aooct-raw-format.h"

G_BEGIN_DECLS

/* The GRAY16_LE frame of @raw (12-bit samples, 0..4095, as aooctsrc makes
 * them) packed as @format: video/x-aooct-packed caps with @raw's other
 * fields, rows one after the other.  For Mono10p the samples lose their
 * two low bits (a 10-bit camera).  NULL with a message when @raw is not
 * such a frame or its width does not fit the format. */
GstSample *aooct_bench_packed_sample (GstSample * raw, AooctRawFormat format);

G_END_DECLS

#endif /* __AOOCT_BENCH_PACKED_H__ */
