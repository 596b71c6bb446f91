/* aooct: spectral window tables (see aooct-window.h). */
#include <math.h>

#include "aooct-window.h"

gdouble
aooct_window_value (AooctWindow window, gdouble t)
{
  switch (window) {
    case AOOCT_WINDOW_HANN:
      return 0.5 - 0.5 * cos (2.0 * G_PI * t);
    case AOOCT_WINDOW_HAMMING:
      return 0.54 - 0.46 * cos (2.0 * G_PI * t);
    case AOOCT_WINDOW_BLACKMAN:
      return 0.42 - 0.5 * cos (2.0 * G_PI * t) + 0.08 * cos (4.0 * G_PI * t);
    case AOOCT_WINDOW_GAUSSIAN:
    {
      gdouble u = (2.0 * t - 1.0) / 0.4;
      return exp (-0.5 * u * u);
    }
    case AOOCT_WINDOW_NONE:
    default:
      return 1.0;
  }
}

gfloat *
aooct_window_table_new (AooctWindow window, gint samples, gint j0, gint j1)
{
  gfloat *table;
  gint i;

  g_return_val_if_fail (j0 >= 0 && j0 < j1 && j1 < samples, NULL);

  if (window == AOOCT_WINDOW_NONE)
    return NULL;
  table = g_new0 (gfloat, samples);
  for (i = j0; i <= j1; i++)
    table[i] = (gfloat) aooct_window_value (window,
        (gdouble) (i - j0) / (gdouble) (j1 - j0));
  return table;
}
