/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: conversion to float32 and DC subtraction. */
#include <string.h>

#include "aooct-omp.h"
#include "aooct-cpu-dcsub.h"

/* Threads take disjoint column blocks over all rows: each reads its rows
 * contiguously and needs no reduction across threads.  Two passes over
 * the raw samples (2 bytes each), one over the output (4 bytes): the DC
 * of each column, then every sample minus it, written once.  The loops
 * are split by sample size and marked `omp simd` (GCC 12 at -O2 leaves
 * them scalar otherwise) so that they vectorise.  The arithmetic is
 * that of the float64 reference's order: the column sum in double over
 * the A-lines in turn, the mean rounded to float, x - mean in float. */
#define BLOCK 256

/* sample @n of a row of 16-bit little-endian samples, at any alignment */
static inline gfloat
raw16 (const guint8 * row, gint n)
{
  guint16 v;

  memcpy (&v, row + 2 * n, sizeof (v));
  return (gfloat) GUINT16_FROM_LE (v);
}

/* Packed rows (Mono12p, Mono12Packed, Mono10p) are unpacked a block at a
 * time into 16-bit samples first (a block of BLOCK samples starts on a
 * pack unit), then go the way of 16-bit ones. */
static inline const guint8 *
block_samples (const guint8 * row, gint w, AooctRawFormat format,
    guint16 * unpacked)
{
  if (!aooct_raw_format_is_packed (format))
    return row;
  aooct_raw_unpack_row (format, row, w, unpacked);
#if G_BYTE_ORDER == G_BIG_ENDIAN
  {
    gint n;

    /* raw16 () reads little-endian */
    for (n = 0; n < w; n++)
      unpacked[n] = GUINT16_TO_LE (unpacked[n]);
  }
#endif
  return (const guint8 *) unpacked;
}

static void
dcsub_bscan (const AooctGeometry * g, const guint8 * raw, gsize raw_stride,
    AooctRawFormat format, AooctDcMode mode, const gfloat * background,
    gfloat * out)
{
  const gint n_samples = g->raw_samples, m_alines = g->alines;
  const gint raw_bytes = format == AOOCT_RAW_GRAY8 ? 1 : 2;
  const gint bits = aooct_raw_format_bits (format);
  gint n0;

#pragma omp parallel for schedule(static) if ((gint64) n_samples * m_alines >= AOOCT_CPU_PARALLEL_MIN)
  for (n0 = 0; n0 < n_samples; n0 += BLOCK) {
    const gint w = MIN (BLOCK, n_samples - n0);
    gdouble sum[BLOCK];
    gfloat dc[BLOCK];
    guint16 unpacked[BLOCK];
    gint m, n;

    if (mode == AOOCT_DC_BACKGROUND || mode == AOOCT_DC_NONE) {
      for (n = 0; n < w; n++)
        dc[n] = mode == AOOCT_DC_BACKGROUND ? background[n0 + n] : 0.0f;
    } else {
      for (n = 0; n < w; n++)
        sum[n] = 0.0;
      for (m = 0; m < m_alines; m++) {
        const guint8 *row = block_samples (raw + (gsize) m * raw_stride +
            (gsize) n0 * bits / 8, w, format, unpacked);

        if (raw_bytes == 1) {
#pragma omp simd
          for (n = 0; n < w; n++)
            sum[n] += (gfloat) row[n];
        } else {
#pragma omp simd
          for (n = 0; n < w; n++)
            sum[n] += raw16 (row, n);
        }
      }
      for (n = 0; n < w; n++)
        dc[n] = (gfloat) (sum[n] / m_alines);
    }
    for (m = 0; m < m_alines; m++) {
      const guint8 *row = block_samples (raw + (gsize) m * raw_stride +
          (gsize) n0 * bits / 8, w, format, unpacked);
      gfloat *o = out + (gsize) m * n_samples + n0;

      if (raw_bytes == 1) {
#pragma omp simd
        for (n = 0; n < w; n++)
          o[n] = (gfloat) row[n] - dc[n];
      } else {
#pragma omp simd
        for (n = 0; n < w; n++)
          o[n] = raw16 (row, n) - dc[n];
      }
    }
  }
}

struct _AooctCpuDcsubPlan
{
  AooctGeometry geom;
  AooctRawFormat format;
  AooctDcMode mode;
  const gfloat *background;
};

AooctCpuDcsubPlan *
aooct_cpu_dcsub_plan_new (const AooctGeometry * geom, AooctRawFormat format,
    AooctDcMode mode, const gfloat * background)
{
  AooctCpuDcsubPlan *plan = g_new (AooctCpuDcsubPlan, 1);

  plan->geom = *geom;
  plan->format = format;
  plan->mode = mode;
  plan->background = background;
  return plan;
}

void
aooct_cpu_dcsub_plan_free (AooctCpuDcsubPlan * plan)
{
  g_free (plan);
}

void
aooct_cpu_dcsub_execute (AooctCpuDcsubPlan * plan, const guint8 * raw,
    gsize raw_stride, gfloat * out)
{
  const AooctGeometry *g = &plan->geom;
  const AooctRawFormat format = plan->format;
  const AooctDcMode mode = plan->mode;
  const gfloat *background = plan->background;
  gint b;

  for (b = 0; b < g->bscans; b++)
    dcsub_bscan (g, raw + (gsize) b * g->alines * raw_stride, raw_stride,
        format, mode, background, out + (gsize) b * g->alines * g->raw_samples);
}
