/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: raw camera frames as aooctdcsub takes them (realistic
 * spectra, rows laid out as a camera delivers them, in the pools the
 * element proposes), aooctdcsub's float64 reference (spec sections 1-2),
 * and the memory the caps negotiated.  Shared by test-dcsub (both
 * backends), test-negotiation and test-cuda-memory. */
#ifndef __AOOCT_TEST_FRAMES_H__
#define __AOOCT_TEST_FRAMES_H__

#include "aooct-test-util.h"

G_BEGIN_DECLS

/* the caps feature of buffers in CUDA memory */
#define AOOCT_TEST_CUDA_FEATURE "memory:CUDAMemory"
/* aooct-cuda-host-memory.h (not linked here): page-locked host memory */
#define AOOCT_TEST_HOST_MEMORY_TYPE "aooct.cuda.host"
/* aooct-cuda-pool.h: the option of the page-locked pool */
#define AOOCT_TEST_PAGE_LOCKED_OPTION "AooctBufferPoolOptionPageLocked"

/* Realistic raw spectra of @alines x @bscans rows of @n samples, scaled to
 * @max_value (4095: a 12-bit camera in GRAY16; 65535; 255 for GRAY8):
 * g_free. */
guint16 *aooct_test_make_spectra (GRand * rand, gint n, gint alines,
    gint bscans, gint max_value);

/* @rows rows of @raw into @data: samples of @bytes (little-endian), rows
 * @stride bytes apart, the padding between them left as it is. */
void aooct_test_write_rows (guint8 * data, const guint16 * raw, gint n,
    gsize rows, gint bytes, gsize stride);

/* The frame of @raw as a camera delivers it: samples of @bytes, rows
 * @stride bytes apart, the padding filled with garbage. */
GstBuffer *aooct_test_make_frame (const guint16 * raw, gint n, gsize rows,
    gint bytes, gsize stride);

/* GStreamer's row stride of a GRAY8/GRAY16 frame @n samples wide. */
gsize aooct_test_frame_stride (gint n, gint bytes);

/* The page-locked pool the element in @h proposes for system-memory
 * @caps_str (an allocation query from upstream), or NULL. */
GstBufferPool *aooct_test_proposed_host_pool (GstHarness * h,
    const gchar * caps_str, guint * size);

/* Configures and starts @pool for @max buffers at most (0: no limit). */
void aooct_test_start_pool (GstBufferPool * pool, const gchar * caps_str,
    guint size, guint max);

/* A buffer of @pool, checked to be one memory of @mem_type, holding the
 * frame of @raw as aooct_test_make_frame() lays it out. */
GstBuffer *aooct_test_frame_in_pool (GstBufferPool * pool,
    const gchar * mem_type, const guint16 * raw, gint n, gsize rows,
    gint bytes, gsize stride);

/* aooctdcsub's output @out against the float64 reference (spec 1-2: x -
 * the mean of its column over the B-scan), within float32 rounding. */
void aooct_test_check_dc_reference (const guint16 * raw, const gfloat * out,
    gint n, gint alines, gint bscans);

/* aooctdcsub on CUDA against the CPU: within one float32 ulp (the kernels
 * are designed to be bit-identical); prints how many values are. */
void aooct_test_check_dc_same (const gfloat * cpu, const gfloat * gpu,
    gsize count, const guint16 * raw);

/* TRUE when the current caps of @pad have memory:CUDAMemory. */
gboolean aooct_test_caps_have_cuda_feature (GstPad * pad);

G_END_DECLS

#endif /* __AOOCT_TEST_FRAMES_H__ */
