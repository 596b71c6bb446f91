/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctdoppler's and aooctangio's checks and velocity scale (see
 * aooct-flow.h). */
#include <math.h>

#include "aooct-flow.h"
#include "aooct-error.h"

static gboolean
check_depth_window (gint depth_window, GError ** error)
{
  if (depth_window % 2 == 0) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "depth-window=%d must be odd: the window is centred on the pixel's "
        "depth bin", depth_window);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_doppler_settings_check (const AooctDopplerSettings * s, gint alines,
    GError ** error)
{
  if (s->lag >= alines) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "lag=%d must be below the %d A-lines of a B-scan (1 .. %d)",
        s->lag, alines, alines - 1);
    return FALSE;
  }
  return check_depth_window (s->depth_window, error);
}

gboolean
aooct_angio_settings_check (const AooctAngioSettings * s, GError ** error)
{
  return check_depth_window (s->depth_window, error);
}

gdouble
aooct_flow_mask_factor (gdouble threshold)
{
  return threshold > 0 ? pow (10.0, -threshold / 10.0) : 0.0;
}

gdouble
aooct_doppler_velocity_max (gdouble line_rate, gdouble center_wavelength,
    gdouble refractive_index, gint lag)
{
  if (line_rate <= 0 || center_wavelength <= 0 || refractive_index <= 0
      || lag < 1)
    return 0.0;
  /* lambda0 [nm] 1e-9 * line rate / (4 n L) in m/s, times 1e3 */
  return center_wavelength * 1e-6 * line_rate / (4.0 * refractive_index * lag);
}
