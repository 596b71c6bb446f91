/* aooct CPU core: crop, intensity, log and normalisation (see
 * aooct-cpu-norm.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-norm.h"
#include "aooct-fftw.h"
#include "aooct-norm-range.h"
#include "aooct-error.h"

/* Transpose tile: TILE_ROWS depth rows x TILE_COLS A-lines.  The scratch
 * is read A-line by A-line (TILE_ROWS contiguous floats each) and the
 * output written row by row, so both sides stay in L1. */
#define TILE_ROWS 64
#define TILE_COLS 64

struct _AooctCpuNorm
{
  gint samples;                 /* P2: complex samples per A-line */
  gint alines;                  /* M */
  gint bscans;
  gint crop_start;
  gint rows;                    /* crop_end - crop_start */
  gfloat *scratch;              /* M x rows values (I or L), A-line major */
};

gboolean
aooct_norm_settings_check (const AooctNormSettings * s, GError ** error)
{
  if (!isfinite (s->dynamic_range) || s->dynamic_range < 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "dynamic-range=%g must be a finite number of dB >= 0 (0 = down to "
        "the minimum)", s->dynamic_range);
    return FALSE;
  }
  if (s->auto_range)
    return TRUE;
  if (!isfinite (s->range_min) || !isfinite (s->range_max)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "range-min=%g and range-max=%g must be finite", s->range_min,
        s->range_max);
    return FALSE;
  }
  if (s->range_max <= s->range_min) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "with auto-range=false, range-max=%g must be greater than "
        "range-min=%g", s->range_max, s->range_min);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_norm_resolve_crop (const AooctGeometry * in, gint crop_start,
    gint crop_end, gint * start, gint * end, GError ** error)
{
  gint e = crop_end == 0 ? in->pad_size / 2 : crop_end;

  if (in->full_range) {
    /* signed depth bins (spec section 9): b < 0 is FFT bin P2 + b; the
     * defaults show [-floor(P1/2), floor(P1/2)), zero delay in the
     * middle */
    const gint lo = -(in->samples / 2), hi = in->samples - in->samples / 2;
    gint st = crop_start == 0 && crop_end == 0 ? -(in->pad_size / 2) :
        crop_start;

    if (st < lo || e > hi || st >= e) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "on full-range input the crop [crop-start=%d, crop-end=%d) "
          "(crop-end=0 means pad-size/2 = %d) must lie in the signed depth "
          "bins [%d, %d] with crop-start < crop-end", crop_start, e,
          in->pad_size / 2, lo, hi);
      return FALSE;
    }
    *start = st;
    *end = e;
    return TRUE;
  }
  if (crop_start < 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "crop-start=%d: negative depth bins exist only in complex full-range "
        "images (aooctfullrange); this input's bins are 0..%d", crop_start,
        in->samples - 1);
    return FALSE;
  }
  if (e > in->samples) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "crop-end=%d is beyond the %d depth bins of the input "
        "(samples=%d)", e, in->samples, in->samples);
    return FALSE;
  }
  if (crop_start >= e) {
    if (crop_end == 0)
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "crop-start=%d must be below crop-end (crop-end=0 means "
          "pad-size/2 = %d here)", crop_start, e);
    else
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
          "crop-start=%d must be below crop-end=%d", crop_start, e);
    return FALSE;
  }
  *start = crop_start;
  *end = e;
  return TRUE;
}

void
aooct_norm_range (const AooctNormSettings * s, gdouble vmin, gdouble vmax,
    gdouble * lo, gdouble * hi, gdouble * scale)
{
  aooct_norm_range_compute (s->auto_range, s->log, s->dynamic_range,
      s->range_min, s->range_max, s->bits == 16 ? 65535.0 : 255.0, vmin,
      vmax, lo, hi, scale);
}

AooctCpuNorm *
aooct_cpu_norm_new (const AooctGeometry * in, gint crop_start, gint crop_end)
{
  AooctCpuNorm *norm = g_new0 (AooctCpuNorm, 1);

  norm->samples = in->samples;
  norm->alines = in->alines;
  norm->bscans = in->bscans;
  norm->crop_start = crop_start;
  norm->rows = crop_end - crop_start;
  norm->scratch = g_new (gfloat, (gsize) norm->alines * norm->rows);
  return norm;
}

void
aooct_cpu_norm_free (AooctCpuNorm * norm)
{
  if (norm == NULL)
    return;
  g_free (norm->scratch);
  g_free (norm);
}

/* Pass 1: the values of one B-scan into the scratch, and their range.
 * NaN (from a broken upstream) never wins a comparison, so it cannot
 * poison the range; it maps to 0 in pass 2. */
static void
values_and_range (AooctCpuNorm * norm, gboolean log_mode, const gfloat * in,
    gfloat * vmin_out, gfloat * vmax_out)
{
  const gint rows = norm->rows, alines = norm->alines;
  gfloat vmin = INFINITY, vmax = -INFINITY;
  gint m;

#pragma omp parallel for schedule(static) reduction(min:vmin) reduction(max:vmax) if ((gint64) rows * alines >= AOOCT_CPU_PARALLEL_MIN)
  for (m = 0; m < alines; m++) {
    const gfloat *c = in + 2 * (gsize) m * norm->samples;
    gfloat *v = norm->scratch + (gsize) m * rows;
    gfloat lmin = INFINITY, lmax = -INFINITY;
    gint r;

    for (r = 0; r < rows; r++) {
      /* a negative (full-range) depth bin b is FFT bin P2 + b */
      gint bin = norm->crop_start + r;
      bin += bin < 0 ? norm->samples : 0;
      v[r] = aooct_norm_intensity (c[2 * bin], c[2 * bin + 1]);
    }
    if (log_mode) {
      for (r = 0; r < rows; r++)
        v[r] = aooct_norm_db (v[r]);
    }
    for (r = 0; r < rows; r++) {
      lmin = v[r] < lmin ? v[r] : lmin;
      lmax = v[r] > lmax ? v[r] : lmax;
    }
    vmin = lmin < vmin ? lmin : vmin;
    vmax = lmax > vmax ? lmax : vmax;
  }
  *vmin_out = vmin;
  *vmax_out = vmax;
}

/* Pass 2: map and transpose one B-scan into rows of @out. */
static void
map_transpose (AooctCpuNorm * norm, gint bits, const AooctNormMap * map,
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
aooct_cpu_norm_process (AooctCpuNorm * norm,
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
