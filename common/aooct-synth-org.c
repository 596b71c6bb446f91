/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the photoreceptor phantom (see aooct-synth-org.h). */
#include <math.h>

#include "aooct-synth-org.h"
#include "aooct-error.h"

/* relative power of IS/OS, COST, RPE */
static const gdouble layer_power[3] = { 1.0, 0.7, 0.5 };

void
aooct_synth_org_init (AooctSynthOrg * o)
{
  o->depth = AOOCT_SYNTH_ORG_DEFAULT_DEPTH;
  o->separation = AOOCT_SYNTH_ORG_DEFAULT_SEPARATION;
  o->rpe = AOOCT_SYNTH_ORG_DEFAULT_RPE;
  o->curvature = 0.0;
  o->bulk_amplitude = 0.0;
  o->bulk_period = AOOCT_SYNTH_ORG_DEFAULT_BULK_PERIOD;
  o->stimulus = AOOCT_SYNTH_ORG_DEFAULT_STIMULUS;
  o->contraction = AOOCT_SYNTH_ORG_DEFAULT_CONTRACTION;
  o->tau_contraction = AOOCT_SYNTH_ORG_DEFAULT_TAU_CONTRACTION;
  o->elongation = AOOCT_SYNTH_ORG_DEFAULT_ELONGATION;
  o->tau_elongation = AOOCT_SYNTH_ORG_DEFAULT_TAU_ELONGATION;
  o->cone_alines = AOOCT_SYNTH_ORG_DEFAULT_CONE_ALINES;
}

#define CHECK(cond, name, val, what) G_STMT_START {                     \
  if (!(cond)) {                                                        \
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,              \
        name "=%g: expected " what, (gdouble) (val));                   \
    return FALSE;                                                       \
  }                                                                     \
} G_STMT_END

gboolean
aooct_synth_org_validate (const AooctSynthOrg * o, GError ** error)
{
  CHECK (isfinite (o->depth) && fabs (o->depth) <= 1e5, "org-depth",
      o->depth, "a finite number in -1e5..1e5 um");
  CHECK (o->separation >= 0 && o->separation <= 1e4, "org-separation",
      o->separation, "0..1e4 um");
  CHECK (o->rpe >= 0 && o->rpe <= 1e4, "org-rpe", o->rpe, "0..1e4 um");
  CHECK (isfinite (o->curvature) && fabs (o->curvature) <= 1e4,
      "org-curvature", o->curvature, "-1e4..1e4 um");
  CHECK (isfinite (o->bulk_amplitude) && fabs (o->bulk_amplitude) <= 1e4,
      "org-bulk-amplitude", o->bulk_amplitude, "-1e4..1e4 um");
  CHECK (o->bulk_period >= 1 && o->bulk_period <= 1e9, "org-bulk-period",
      o->bulk_period, "1..1e9 B-scans");
  CHECK (isfinite (o->contraction) && fabs (o->contraction) <= 1e5,
      "org-contraction", o->contraction, "-1e5..1e5 nm");
  CHECK (isfinite (o->elongation) && fabs (o->elongation) <= 1e5,
      "org-elongation", o->elongation, "-1e5..1e5 nm");
  CHECK (o->tau_contraction > 0 && o->tau_contraction <= 1e9,
      "org-tau-contraction", o->tau_contraction, "> 0 B-scans");
  CHECK (o->tau_elongation > 0 && o->tau_elongation <= 1e9,
      "org-tau-elongation", o->tau_elongation, "> 0 B-scans");
  CHECK (o->cone_alines >= 1, "org-cone-alines", (gdouble) o->cone_alines,
      ">= 1 A-lines");
  return TRUE;
}

gdouble
aooct_synth_org_response (const AooctSynthOrg * o, guint64 frame)
{
  gdouble t;

  if (o->stimulus < 0 || frame < (guint64) o->stimulus)
    return 0.0;
  t = (gdouble) (frame - (guint64) o->stimulus);
  return -o->contraction * (t / o->tau_contraction) * exp (1.0 -
      t / o->tau_contraction) + o->elongation * (1.0 - exp (-t /
          o->tau_elongation));
}

gdouble
aooct_synth_org_bulk (const AooctSynthOrg * o, guint64 frame)
{
  return o->bulk_amplitude * sin (2.0 * G_PI * (gdouble) frame /
      o->bulk_period);
}

gdouble
aooct_synth_org_isos (const AooctSynthOrg * o, gint alines, gint m,
    guint64 frame)
{
  const gdouble x = alines > 1 ? 2.0 * m / (alines - 1) - 1.0 : 0.0;

  return o->depth + o->curvature * x * x + aooct_synth_org_bulk (o, frame);
}

/* a uniform number in [0, 1) from (seed, a, b): the tissue's, the same in
 * every B-scan (splitmix64 finaliser) */
static gdouble
draw (guint32 seed, guint64 a, guint64 b)
{
  guint64 z = seed * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^
      (a + G_GUINT64_CONSTANT (0x7f4a7c159e3779b9)) * 0xbf58476d1ce4e5b9ull ^
      (b + 0x632be5ab) * G_GUINT64_CONSTANT (0x94d049bb133111eb);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  z ^= z >> 31;
  return (z >> 11) * (1.0 / 9007199254740992.0);
}

void
aooct_synth_org_field (const AooctSynthOrg * o, gint samples, gint alines,
    const gdouble * two_k, const gdouble * phi, gdouble reflectivity,
    gdouble depth_offset, guint32 seed, guint64 frame, gint m, gfloat * g)
{
  const gint n_layers = o->rpe > 0 ? 3 : 2;
  const gint ns = AOOCT_SYNTH_ORG_SCATTERERS;
  const gdouble cone = 0.3 + 1.4 * draw (seed, 1000003u, m / o->cone_alines);
  gdouble z[3 * AOOCT_SYNTH_ORG_SCATTERERS], ar[3 * AOOCT_SYNTH_ORG_SCATTERERS],
      ai[3 * AOOCT_SYNTH_ORG_SCATTERERS];
  gdouble z1 = aooct_synth_org_isos (o, alines, m, frame) + depth_offset;
  gdouble zl[3];
  gint l, n, i;

  zl[0] = z1;
  zl[1] = z1 + o->separation + aooct_synth_org_response (o, frame) / 1000.0;
  zl[2] = zl[1] + o->rpe;
  for (l = 0; l < n_layers; l++) {
    /* the layer's power shared by its scatterers: random phases, a
     * Rayleigh-like spread of amplitudes */
    const gdouble power = reflectivity * layer_power[l] * cone / ns;

    for (n = 0; n < ns; n++) {
      const gint k = l * ns + n;
      const gdouble a = sqrt (power * 2.0 * draw (seed, 3 * m + l, 2 * n));
      const gdouble th = 2.0 * G_PI * draw (seed, 3 * m + l, 2 * n + 1);

      z[k] = zl[l] + 0.6 * (draw (seed, 3 * m + l, 100 + n) - 0.5);
      ar[k] = a * cos (th);
      ai[k] = a * sin (th);
    }
  }
  for (i = 0; i < samples; i++) {
    gdouble gr = 0.0, gi = 0.0;

    for (n = 0; n < n_layers * ns; n++) {
      const gdouble t = two_k[i] * z[n] + phi[i];
      const gdouble c = cos (t), s = sin (t);

      gr += ar[n] * c - ai[n] * s;
      gi += ar[n] * s + ai[n] * c;
    }
    g[2 * i] = (gfloat) gr;
    g[2 * i + 1] = (gfloat) gi;
  }
}
