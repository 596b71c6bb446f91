/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctregister's settings (see aooct-register.h). */
#include <math.h>

#include "aooct-register.h"
#include "aooct-norm.h"
#include "aooct-error.h"

gboolean
aooct_register_check_input (const AooctGeometry * in, GError ** error)
{
  if (in->domain != AOOCT_DOMAIN_DEPTH
      || in->sample_type != AOOCT_SAMPLE_COMPLEX) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctregister needs depth-domain complex input (the output of "
        "aooctfft or aooctcs), got domain=%s sample-type=%s",
        aooct_domain_to_string (in->domain),
        aooct_sample_type_to_string (in->sample_type));
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_register_params_resolve (AooctRegisterParams * p,
    const AooctGeometry * in, gint crop_start, gint crop_end, gint max_dz,
    gint max_dx, gint upsample, gdouble min_correlation, GError ** error)
{
  gint start, end;

  if (!aooct_register_check_input (in, error))
    return FALSE;
  if (upsample < 1 || upsample > AOOCT_REGISTER_MAX_UPSAMPLE) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "upsample=%d: the estimate's grid is 1/upsample of a pixel, "
        "expected 1 (integer shifts only) .. %d", upsample,
        AOOCT_REGISTER_MAX_UPSAMPLE);
    return FALSE;
  }
  if (!isfinite (min_correlation) || min_correlation < 0 || min_correlation > 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "min-correlation=%g: expected 0 .. 1", min_correlation);
    return FALSE;
  }
  if (!aooct_norm_resolve_crop (in, crop_start, crop_end, &start, &end, error))
    return FALSE;
  if (end - start < 2 || in->alines < 1) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "the estimate's crop [crop-start=%d, crop-end=%d) holds %d depth "
        "bin(s): expected at least 2", start, end, end - start);
    return FALSE;
  }
  p->samples = in->samples;
  p->alines = in->alines;
  p->bscans = in->bscans;
  p->crop_start = start;
  p->rows = end - start;
  p->max_dz = max_dz <= 0 ? p->rows / 4 : MIN (max_dz, p->rows / 2);
  p->max_dx = max_dx <= 0 ? p->alines / 4 : MIN (max_dx, p->alines / 2);
  p->upsample = upsample;
  p->min_correlation = min_correlation;
  return TRUE;
}
