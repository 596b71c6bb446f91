/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: crop, intensity, log and normalisation (see
 * aooct-cpu-norm.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-norm.h"
#include "aooct-omp.h"
#include "aooct-norm-range.h"

/* Transpose tile: TILE_ROWS depth rows x TILE_COLS A-lines.  The scratch
 * is read A-line by A-line (TILE_ROWS contiguous floats each) and the
 * output written row by row, so both sides stay in L1. */
#define TILE_ROWS 64
#define TILE_COLS 64

struct _AooctCpuNormPlan
{
  gint samples;                 /* P2: complex samples per A-line */
  gint alines;                  /* M */
  gint bscans;
  gint crop_start;
  gint rows;                    /* crop_end - crop_start */
  gfloat *scratch;              /* M x rows values (I or L), A-line major */
};

AooctCpuNormPlan *
aooct_cpu_norm_plan_new (const AooctGeometry * in, gint crop_start,
    gint crop_end)
{
  AooctCpuNormPlan *norm = g_new0 (AooctCpuNormPlan, 1);

  norm->samples = in->samples;
  norm->alines = in->alines;
  norm->bscans = in->bscans;
  norm->crop_start = crop_start;
  norm->rows = crop_end - crop_start;
  norm->scratch = g_new (gfloat, (gsize) norm->alines * norm->rows);
  return norm;
}

void
aooct_cpu_norm_plan_free (AooctCpuNormPlan * norm)
{
  if (norm == NULL)
    return;
  g_free (norm->scratch);
  g_free (norm);
}

/* A float's bits as an integer that orders as the float does (-0 below
 * +0, which the values here never are), NaN aside: integer min and max
 * vectorise where float comparisons, which may trap, keep GCC 12 at -O2
 * from if-converting the loop.  The same mapping as the CUDA kernels'
 * aooct_float_key (cuda/aooct-cuda-keys.cuh), written branch-free. */
static inline gint32
order_key (gfloat x)
{
  gint32 k;

  memcpy (&k, &x, sizeof (k));
  return k ^ ((k >> 31) & 0x7fffffff);
}

static inline gfloat
from_order_key (gint32 k)
{
  gfloat x;

  k ^= (k >> 31) & 0x7fffffff;
  memcpy (&x, &k, sizeof (x));
  return x;
}

/* The min and max of @n values, NaN never winning (as with v < min ? v :
 * min); +inf and -inf when there is none. */
static void
value_range (const gfloat * v, gint n, gfloat * lo, gfloat * hi)
{
  const gint32 pinf = order_key (INFINITY), ninf = order_key (-INFINITY);
  gint32 kmin = pinf, kmax = ninf;
  gint r;

#pragma omp simd reduction(min:kmin) reduction(max:kmax)
  for (r = 0; r < n; r++) {
    gint32 k = order_key (v[r]), bits;
    gint32 nan;

    memcpy (&bits, &v[r], sizeof (bits));
    nan = -(gint32) ((bits & 0x7fffffff) > 0x7f800000);
    k = (k & ~nan) | (pinf & nan);
    kmin = k < kmin ? k : kmin;
    k = (k & ~nan) | (ninf & nan);
    kmax = k > kmax ? k : kmax;
  }
  *lo = from_order_key (kmin);
  *hi = from_order_key (kmax);
}

/* Pass 1: the values of one B-scan into the scratch, and their range.
 * NaN (from a broken upstream) never wins a comparison, so it cannot
 * poison the range; it maps to 0 in pass 2. */
static void
values_and_range (AooctCpuNormPlan * norm, gboolean log_mode, const gfloat * in,
    gfloat * vmin_out, gfloat * vmax_out)
{
  const gint rows = norm->rows, alines = norm->alines;
  /* rows below 0 (full range): a negative depth bin b is FFT bin P2 + b */
  const gint neg = CLAMP (-norm->crop_start, 0, rows);
  gfloat vmin = INFINITY, vmax = -INFINITY;
  gint m;

#pragma omp parallel for schedule(static) reduction(min:vmin) reduction(max:vmax) if ((gint64) rows * alines >= AOOCT_CPU_PARALLEL_MIN)
  for (m = 0; m < alines; m++) {
    const gfloat *c = in + 2 * (gsize) m * norm->samples;
    const gint first = norm->crop_start;
    const gint wrap = norm->crop_start + norm->samples;
    gfloat *v = norm->scratch + (gsize) m * rows;
    gfloat lmin, lmax;
    gint r;

    /* two loops rather than a test per row, so that both vectorise */
#pragma omp simd
    for (r = 0; r < neg; r++)
      v[r] = aooct_norm_intensity (c[2 * (wrap + r)], c[2 * (wrap + r) + 1]);
#pragma omp simd
    for (r = neg; r < rows; r++)
      v[r] = aooct_norm_intensity (c[2 * (first + r)], c[2 * (first + r) + 1]);
    if (log_mode) {
      /* aooct_norm_db is inline arithmetic on the host: vectorised */
#pragma omp simd
      for (r = 0; r < rows; r++)
        v[r] = aooct_norm_db (v[r]);
    }
    value_range (v, rows, &lmin, &lmax);
    vmin = lmin < vmin ? lmin : vmin;
    vmax = lmax > vmax ? lmax : vmax;
  }
  *vmin_out = vmin;
  *vmax_out = vmax;
}

/* Pass 2: map and transpose one B-scan into rows of @out. */
static void
map_transpose (AooctCpuNormPlan * norm, gint bits, const AooctNormMap * map,
    guint8 * out, gsize out_stride)
{
  const gint rows = norm->rows, alines = norm->alines;
  const gfloat q = bits == 16 ? 65535.0f : 255.0f;
  const gsize row_bytes = (gsize) alines * (bits == 16 ? 2 : 1);
  gint r0;

  /* rows padded to 4 bytes (GStreamer's default stride for an odd width):
   * the padding is written too, so that an image file is the same bytes
   * every time */
  if (out_stride > row_bytes)
    for (r0 = 0; r0 < rows; r0++)
      memset (out + (gsize) r0 * out_stride + row_bytes, 0,
          out_stride - row_bytes);

#pragma omp parallel for schedule(static) if ((gint64) rows * alines >= AOOCT_CPU_PARALLEL_MIN)
  for (r0 = 0; r0 < rows; r0 += TILE_ROWS) {
    const gint r1 = MIN (r0 + TILE_ROWS, rows);
    gint m0, m, r;

    for (m0 = 0; m0 < alines; m0 += TILE_COLS) {
      const gint m1 = MIN (m0 + TILE_COLS, alines);

      for (r = r0; r < r1; r++) {
        const gfloat *v = norm->scratch + r;
        guint8 *row = out + (gsize) r * out_stride;

        if (bits == 16) {
          guint16 *p = (guint16 *) row;
          for (m = m0; m < m1; m++)
            p[m] =
                GUINT16_TO_LE ((guint16) aooct_norm_grey_map (v[(gsize) m *
                        rows], map, q));
        } else {
          for (m = m0; m < m1; m++)
            row[m] = (guint8) aooct_norm_grey_map (v[(gsize) m * rows], map, q);
        }
      }
    }
  }
}

void
aooct_cpu_norm_execute (AooctCpuNormPlan * norm,
    const AooctNormSettings * settings, const gfloat * in, guint8 * out,
    gsize out_stride)
{
  gint b;

  for (b = 0; b < norm->bscans; b++) {
    const gfloat *bin = in + 2 * (gsize) b * norm->alines * norm->samples;
    guint8 *bout = out + (gsize) b * norm->rows * out_stride;
    gfloat vmin, vmax;
    gdouble lo, hi, scale;
    AooctNormMap map;

    values_and_range (norm, settings->log, bin, &vmin, &vmax);
    aooct_norm_range (settings, vmin, vmax, &lo, &hi, &scale);
    aooct_norm_map_init (&map, lo, hi, scale);
    map_transpose (norm, settings->bits, &map, bout, out_stride);
  }
}
