/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the synthetic camera's eye motion (see aooct-synth.h, "eye
 * motion"): the deterministic pattern, so that a test knows the true
 * shift of every B-scan. */
#include <math.h>

#include "aooct-synth.h"

/* a phase in [0, 2 pi) from the seed and a key (splitmix64) */
static gdouble
seeded_phase (guint32 seed, guint key)
{
  guint64 z = ((guint64) seed << 8 | key) + G_GUINT64_CONSTANT
      (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  z ^= z >> 31;
  return 2 * G_PI * (gdouble) (z >> 11) / 9007199254740992.0;
}

/* drift (period 50 B-scans) and tremor (7.3 B-scans), |w| <= 1 */
static gdouble
pattern (guint32 seed, guint axis, guint64 frame)
{
  const gdouble f = (gdouble) frame;

  return 0.7 * sin (2 * G_PI * f / 50.0 + seeded_phase (seed, 2 * axis)) +
      0.3 * sin (2 * G_PI * f / 7.3 + seeded_phase (seed, 2 * axis + 1));
}

void
aooct_synth_motion (const AooctSynthParams * p, guint64 frame,
    gdouble * dz_um, gdouble * dx_alines)
{
  *dz_um = p->motion_axial > 0 ? p->motion_axial * pattern (p->seed, 1,
      frame) : 0;
  *dx_alines = p->motion_lateral > 0 ? p->motion_lateral * pattern (p->seed,
      2, frame) : 0;
}
