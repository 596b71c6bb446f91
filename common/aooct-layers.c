/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the layer finder of spec section 13 (see aooct-layers.h). */
#include "aooct-layers.h"
#include "aooct-error.h"

gboolean
aooct_layer_params_resolve (AooctLayerParams * lp, const gchar * element,
    gint start, gint end, gint crop_start, gint crop_end, gint range,
    gint smooth, gint samples, gboolean full_range, GError ** error)
{
  const gint s = start == 0 ? crop_start : start;
  const gint e = end == 0 ? crop_end : end;

  if (s < crop_start || s >= crop_end) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "%s: layer-search-start=%d is not inside the crop [%d, %d) "
        "(0 = the crop's start)", element, start, crop_start, crop_end);
    return FALSE;
  }
  if (e <= s || e > crop_end) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "%s: layer-search-end=%d gives the search window [%d, %d), which "
        "is empty or not inside the crop [%d, %d) (0 = the crop's end)",
        element, end, s, e, crop_start, crop_end);
    return FALSE;
  }
  if (range < 0 || smooth < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "%s: layer-range=%d must be >= 0 and layer-smooth=%d >= 1", element,
        range, smooth);
    return FALSE;
  }
  lp->search_start = s;
  lp->search_end = e;
  lp->range = range;
  lp->half = smooth / 2;
  lp->samples = samples;
  lp->bin_lo = full_range ? -(samples / 2) : 0;
  lp->bin_hi = full_range ? samples - samples / 2 : samples;
  return TRUE;
}

static inline gdouble
intensity (const gfloat * a, gint i)
{
  /* float as aooct_norm_intensity (), summed in double */
  return (gdouble) (a[2 * i] * a[2 * i] + a[2 * i + 1] * a[2 * i + 1]);
}

gint
aooct_layer_profile_peak (const AooctLayerParams * lp, const gfloat * x,
    gint alines)
{
  gdouble best = -1.0;
  gint z, m, zb = lp->search_start;

  for (z = lp->search_start; z < lp->search_end; z++) {
    const gint i = aooct_layer_index (lp, z);
    gdouble sum = 0.0;

    for (m = 0; m < alines; m++)
      sum += intensity (x + 2 * (gsize) m * lp->samples, i);
    if (sum > best) {
      best = sum;
      zb = z;
    }
  }
  return zb;
}

void
aooct_layer_follow (const AooctLayerParams * lp, const gfloat * x,
    gint alines, gint z_b, gint * z_l, gdouble * scratch)
{
  const gint zlo = MAX (lp->search_start, z_b - lp->range);
  const gint zhi = MIN (lp->search_end - 1, z_b + lp->range);
  const gint nz = zhi - zlo + 1;
  gint z, m;

  /* prefix sums over the A-lines of each bin's intensity */
  for (z = 0; z < nz; z++) {
    gdouble *pre = scratch + (gsize) z * (alines + 1);
    const gint i = aooct_layer_index (lp, zlo + z);

    pre[0] = 0.0;
    for (m = 0; m < alines; m++)
      pre[m + 1] = pre[m] + intensity (x + 2 * (gsize) m * lp->samples, i);
  }
  for (m = 0; m < alines; m++) {
    const gint a = MAX (0, m - lp->half), b = MIN (alines - 1, m + lp->half);
    gdouble best = -1.0;
    gint zl = zlo;

    /* every m' of the window counts alike: the sum's argmax is the
     * mean's */
    for (z = 0; z < nz; z++) {
      const gdouble *pre = scratch + (gsize) z * (alines + 1);
      const gdouble s = pre[b + 1] - pre[a];

      if (s > best) {
        best = s;
        zl = zlo + z;
      }
    }
    z_l[m] = zl;
  }
}

gint
aooct_layer_argmax_smoothed (const AooctLayerParams * lp, const gfloat * x,
    gint alines, gint m, gint lo, gint hi, gint clip_lo, gint clip_hi)
{
  const gint a = MAX (0, m - lp->half), b = MIN (alines - 1, m + lp->half);
  gdouble best = -1.0;
  gint z, k, zbest = G_MININT;

  lo = MAX (lo, clip_lo);
  hi = MIN (hi, clip_hi - 1);
  for (z = lo; z <= hi; z++) {
    const gint i = aooct_layer_index (lp, z);
    gdouble s = 0.0;

    for (k = a; k <= b; k++)
      s += intensity (x + 2 * (gsize) k * lp->samples, i);
    if (s > best) {
      best = s;
      zbest = z;
    }
  }
  return zbest;
}
