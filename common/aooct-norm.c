/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctnorm's settings, crop and range rules, shared by both
 * backends and the volume views (see aooct-norm.h). */
#include <math.h>

#include "aooct-norm.h"
#include "aooct-norm-range.h"
#include "aooct-error.h"

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
