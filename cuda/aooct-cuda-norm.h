/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: crop, intensity, log and normalisation to grey levels
 * (spec section 7), the CUDA twin of cpu/aooct-cpu-norm.h.
 *
 * Two kernels on one stream with the automatic range, one with a manual
 * range, or one with the automatic range where the B-scans fit on chip
 * (decided by aooct_cuda_norm_plan_new: a cooperative kernel that keeps its
 * pixels in registers across a grid-wide barrier, so that it reads its
 * input once;
 * otherwise as the two below, and the same bytes).  The first reads the
 * cropped B-scans once, computing intensity and log on the fly, and reduces them to the per-B-scan value range
 * (float minimum / maximum through order-preserving integer atomics, so
 * the result does not depend on the order of the blocks); its last block
 * per B-scan then computes lo and the scale with the CPU's very function
 * (aooct-norm-range.h).  A manual range's lo and scale are computed on
 * the host with that function.  The second maps and transposes through
 * shared-memory tiles into the image, computing intensity and log again
 * (re-reading 8 bytes per pixel costs what writing and re-reading a float
 * intermediate would).  The per-pixel float32 arithmetic is
 * the CPU core's (aooct-norm-range.h, no FMA contraction): linear mode is
 * bit-identical to the CPU; in log mode CUDA's log10f may differ from
 * the CPU's aooct_norm_db_host by an ulp or two, which moves a pixel by
 * one grey level where 255 * v (or 65535 * v) lies that close to a .5
 * boundary, and the automatic range's maximum by as little. */
#ifndef __AOOCT_CUDA_NORM_H__
#define __AOOCT_CUDA_NORM_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-norm.h"

G_BEGIN_DECLS

/* How the grey image is written: one byte per pixel (GRAY8, and the luma
 * plane of NV12 / I420), two (GRAY16_LE), or four (RGBA: the grey level
 * in R, G and B, alpha 255). */
typedef enum
{
  AOOCT_CUDA_NORM_GRAY8,
  AOOCT_CUDA_NORM_GRAY16,
  AOOCT_CUDA_NORM_RGBA,
} AooctCudaNormFormat;

/* What is fixed from setup to teardown. */
typedef struct
{
  gint samples;                 /* P2 complex samples per input A-line */
  gint alines;                  /* M, image columns */
  gint bscans;                  /* B-scans per buffer, stacked vertically */
  gint crop_start, crop_end;    /* resolved crop (aooct_norm_resolve_crop) */
  AooctCudaNormFormat format;
  /* how the automatic range is computed, set by aooct_cuda_norm_plan_new():
   * with fused_blocks > 0, range and mapping in one cooperative kernel of
   * that many blocks of fused_tiles 32 x 32 tiles each; with 0, two
   * kernels */
  gint fused_blocks, fused_tiles;
} AooctCudaNormParams;

typedef struct _AooctCudaNormPlan AooctCudaNormPlan;

/* The step for @p (context current): decides, once at setup on the device
 * the work will run on, whether the B-scans of a buffer fit in the
 * registers of the blocks that device holds at once (then execute
 * computes the automatic range and the mapping in one kernel, reading the
 * input once, else in two; it writes the decision into @p's fused_blocks
 * and fused_tiles), and allocates the device scratch of the per-B-scan
 * range, which carries state from one execute to the next, so every
 * execute of one plan must be on one stream.  In test builds
 * (-Dfault-injection=true) the environment variable
 * AOOCT_CUDA_NORM_FUSED=0 keeps two kernels (both give the same bytes);
 * =oversize plans a grid larger than any device holds (for the test of
 * the fallback: a launch the device refuses as too large runs the two
 * kernels instead).  A normal build reads no environment here. */
AooctCudaNormPlan *aooct_cuda_norm_plan_new (AooctCudaNormParams * p,
    GError ** error);

/* Enqueues the step on @stream.  @in: bscans * alines A-lines of samples
 * interleaved complex float32 (device); @out: bscans * (crop_end -
 * crop_start) image rows @out_stride bytes apart (device); @settings: this
 * buffer's display settings, checked by aooct_norm_settings_check(), with
 * bits matching the format (16 for GRAY16, else 8). */
gboolean aooct_cuda_norm_execute (AooctCudaNormPlan * plan,
    const AooctNormSettings * settings, const gfloat * in, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error);
void aooct_cuda_norm_plan_free (AooctCudaNormPlan * plan);

G_END_DECLS

#endif /* __AOOCT_CUDA_NORM_H__ */
