/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the synthetic camera's vessels; see aooct-test-vessel.h. */
#include <gst/check/gstcheck.h>

#include "aooct-test-vessel.h"
#include "aooct-test-util.h"
#include "aooct-fftw.h"

gdouble *
aooct_test_synth_background (const AooctSynthParams * p)
{
  AooctSynthParams bgp = *p;
  GError *err = NULL;
  guint16 *raw = g_new (guint16, (gsize) p->samples * p->alines);
  gdouble *bg = g_new0 (gdouble, p->samples);
  AooctSynth *s;
  gint i, m;

  bgp.reflectivity = 0;
  bgp.noise = 0;
  bgp.vessel_count = 0;
  aooct_fftw_lock ();
  s = aooct_synth_new (&bgp, &err);
  aooct_fftw_unlock ();
  fail_unless (s != NULL, "aooct_synth_new: %s", err ? err->message : "?");
  aooct_synth_fill (s, 0, raw, p->samples);
  aooct_fftw_lock ();
  aooct_synth_free (s);
  aooct_fftw_unlock ();
  for (m = 0; m < p->alines; m++)
    for (i = 0; i < p->samples; i++)
      bg[i] += raw[(gsize) m * p->samples + i] / (gdouble) p->alines;
  g_free (raw);
  return bg;
}

gchar *
aooct_test_synth_background_file (const AooctSynthParams * p)
{
  gdouble *bg = aooct_test_synth_background (p);
  GString *s = g_string_new ("# the synthetic camera without a sample\n");
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE], *path;
  gint i;

  for (i = 0; i < p->samples; i++)
    g_string_append_printf (s, "%s\n", g_ascii_dtostr (buf, sizeof (buf),
            bg[i]));
  path = aooct_test_write_temp (s->str);
  g_string_free (s, TRUE);
  g_free (bg);
  return path;
}

gboolean
aooct_test_in_vessel (const AooctSynthParams * p, gint j, guint64 frame,
    gdouble bins_per_um, gint aline, gint bin, gdouble scale)
{
  gdouble cx, cz, rx, rz, dx, dz;

  aooct_synth_vessel_geometry (p, j, frame, &cx, &cz, &rx, &rz);
  dx = (aline - cx) / (scale * rx);
  dz = (bin - (cz + p->depth_offset) * bins_per_um) / (scale * rz *
      bins_per_um);
  return dx * dx + dz * dz <= 1;
}

gboolean
aooct_test_near_vessel (const AooctSynthParams * p, guint64 frame,
    gdouble bins_per_um, gint aline, gint bin, gdouble scale, gint margin)
{
  gint j;

  for (j = 0; j < p->vessel_count; j++)
    if (aooct_test_in_vessel (p, j, frame, bins_per_um, aline, bin, scale) ||
        aooct_test_in_vessel (p, j, frame, bins_per_um, aline + margin, bin,
            scale) ||
        aooct_test_in_vessel (p, j, frame, bins_per_um, aline - margin, bin,
            scale))
      return TRUE;
  return FALSE;
}
