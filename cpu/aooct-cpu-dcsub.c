/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: conversion to float32 and DC subtraction. */
#include <string.h>

#include "aooct-omp.h"
#include "aooct-cpu-dcsub.h"

static inline gfloat
raw_sample (const guint8 * row, gint raw_bytes, gint n)
{
  guint16 v;

  if (raw_bytes == 1)
    return row[n];
  memcpy (&v, row + 2 * n, 2);
  return (gfloat) GUINT16_FROM_LE (v);
}

/* Convert one B-scan; with @mean, also subtract its mean A-line.  The mean
 * is accumulated in double (exact for 16-bit data up to 2^37 A-lines) so
 * that it matches the float64 reference to the last bit of float32. */
static void
dcsub_bscan (const AooctGeometry * g, const guint8 * raw, gsize raw_stride,
    gint raw_bytes, AooctDcMode mode, const gfloat * background, gfloat * out)
{
  const gint n_samples = g->raw_samples, m_alines = g->alines;
  gint n0;

  /* Threads take disjoint column ranges over all rows: each reads its rows
   * contiguously and needs no reduction across threads. */
#pragma omp parallel for schedule(static) if ((gint64) n_samples * m_alines >= AOOCT_CPU_PARALLEL_MIN)
  for (n0 = 0; n0 < n_samples; n0 += 256) {
    const gint n1 = MIN (n0 + 256, n_samples);
    gdouble sum[256];
    gint m, n;

    for (n = n0; n < n1; n++)
      sum[n - n0] = 0.0;
    for (m = 0; m < m_alines; m++) {
      const guint8 *row = raw + (gsize) m * raw_stride;
      gfloat *o = out + (gsize) m * n_samples;
      for (n = n0; n < n1; n++) {
        gfloat x = raw_sample (row, raw_bytes, n);
        o[n] = x;
        sum[n - n0] += x;
      }
    }
    if (mode == AOOCT_DC_NONE)
      continue;
    for (n = n0; n < n1; n++)
      sum[n - n0] = mode == AOOCT_DC_BACKGROUND ? background[n] :
          sum[n - n0] / m_alines;
    for (m = 0; m < m_alines; m++) {
      gfloat *o = out + (gsize) m * n_samples;
      for (n = n0; n < n1; n++)
        o[n] -= (gfloat) sum[n - n0];
    }
  }
}

void
aooct_cpu_dcsub (const AooctGeometry * g, const guint8 * raw,
    gsize raw_stride, gint raw_bytes, AooctDcMode mode,
    const gfloat * background, gfloat * out)
{
  gint b;

  for (b = 0; b < g->bscans; b++)
    dcsub_bscan (g, raw + (gsize) b * g->alines * raw_stride, raw_stride,
        raw_bytes, mode, background,
        out + (gsize) b * g->alines * g->raw_samples);
}
