/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: conversion to float32 and DC subtraction. */
#include <math.h>
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

/* a float32 little-endian sample read as a host float */
static inline gfloat
float_from_le (gfloat v)
{
#if G_BYTE_ORDER == G_BIG_ENDIAN
  guint32 u;

  memcpy (&u, &v, 4);
  u = GUINT32_FROM_LE (u);
  memcpy (&v, &u, 4);
#endif
  return v;
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

/* Float32 samples (spec section 0): the same passes in the same order
 * (column sums in double over the A-lines in turn, the mean rounded to
 * float, x - mean in float), so that integer-valued floats give the
 * 16-bit path's result bit for bit.  Returns FALSE when a sample is not
 * finite (the caller locates it). */
static gboolean
dcsub_bscan_float (const AooctGeometry * g, const guint8 * raw,
    gsize raw_stride, AooctDcMode mode, const gfloat * background, gfloat * out)
{
  const gint n_samples = g->raw_samples, m_alines = g->alines;
  gint n0, bad = 0;

#pragma omp parallel for schedule(static) reduction(|:bad) if ((gint64) n_samples * m_alines >= AOOCT_CPU_PARALLEL_MIN)
  for (n0 = 0; n0 < n_samples; n0 += BLOCK) {
    const gint w = MIN (BLOCK, n_samples - n0);
    gdouble sum[BLOCK];
    gfloat dc[BLOCK], x[BLOCK];
    gint m, n;

    if (mode == AOOCT_DC_BACKGROUND || mode == AOOCT_DC_NONE) {
      for (n = 0; n < w; n++)
        dc[n] = mode == AOOCT_DC_BACKGROUND ? background[n0 + n] : 0.0f;
    } else {
      for (n = 0; n < w; n++)
        sum[n] = 0.0;
      for (m = 0; m < m_alines; m++) {
        /* (memcpy: a row of the file need not be 4-byte aligned) */
        memcpy (x, raw + (gsize) m * raw_stride + (gsize) n0 * 4, w * 4);
#pragma omp simd
        for (n = 0; n < w; n++)
          sum[n] += float_from_le (x[n]);
      }
      for (n = 0; n < w; n++)
        dc[n] = (gfloat) (sum[n] / m_alines);
    }
    for (m = 0; m < m_alines; m++) {
      gfloat *o = out + (gsize) m * n_samples + n0;
      gint row_bad = 0;

      memcpy (x, raw + (gsize) m * raw_stride + (gsize) n0 * 4, w * 4);
#pragma omp simd reduction(|:row_bad)
      for (n = 0; n < w; n++) {
        gfloat v = float_from_le (x[n]);

        row_bad |= !isfinite (v);
        o[n] = v - dc[n];
      }
      bad |= row_bad;
    }
  }
  return !bad;
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

gboolean
aooct_cpu_dcsub_execute (AooctCpuDcsubPlan * plan, const guint8 * raw,
    gsize raw_stride, gfloat * out, AooctDcNonFinite * bad)
{
  const AooctGeometry *g = &plan->geom;
  const AooctRawFormat format = plan->format;
  const AooctDcMode mode = plan->mode;
  const gfloat *background = plan->background;
  gboolean ok = TRUE;
  gint b;

  bad->found = FALSE;
  for (b = 0; b < g->bscans; b++) {
    const guint8 *r = raw + (gsize) b * g->alines * raw_stride;
    gfloat *o = out + (gsize) b * g->alines * g->raw_samples;

    if (format == AOOCT_RAW_FLOAT32)
      ok = dcsub_bscan_float (g, r, raw_stride, mode, background, o) && ok;
    else
      dcsub_bscan (g, r, raw_stride, format, mode, background, o);
  }
  if (ok)
    return TRUE;
  /* only now, on the error path: where */
  bad->found = aooct_raw_find_nonfinite (raw, raw_stride, g->raw_samples,
      (gsize) g->alines * g->bscans, &bad->row, &bad->col, &bad->value);
  return FALSE;
}
