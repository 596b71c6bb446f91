/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: realistic depth-domain data (see aooct-test-depth.h). */
#include <math.h>

#include "aooct-test-util.h"
#include "aooct-test-depth.h"

typedef AooctTestDepthGeom Geom;

/* aooctfft's output for @g: P2 = f P1, o = (P1 - N) / 2. */
void
aooct_test_depth_geometry (const Geom * g, AooctGeometry * geom)
{
  aooct_test_geometry_grid (geom, g->n, g->m, g->bscans, g->p1, g->f * g->p1,
      (g->p1 - g->n) / 2, g->f);
  geom->domain = AOOCT_DOMAIN_DEPTH;
  geom->sample_type = AOOCT_SAMPLE_COMPLEX;
  geom->k_linear = TRUE;
}

GstCaps *
aooct_test_depth_caps (const Geom * g)
{
  AooctGeometry geom;

  aooct_test_depth_geometry (g, &geom);
  return aooct_geometry_to_caps (&geom);
}

static gdouble
gauss (GRand * rand)
{
  gdouble u = g_rand_double_range (rand, 1e-300, 1), v = g_rand_double (rand);
  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

/* A retina-like depth profile: a noise floor, a strong DC/autocorrelation
 * term near bin 0 and a few curved layers 15 to 50 dB above the floor,
 * each A-line with fully developed speckle (complex Gaussian field).  The
 * B-scan's overall level is @scale. */
gfloat *
aooct_test_make_depth (GRand * rand, const Geom * g, gdouble scale)
{
  const gint p2 = g->f * g->p1;
  gfloat *d = g_new (gfloat, 2 * (gsize) p2 * g->m * g->bscans);
  const gdouble depth[] = { 0.12, 0.2, 0.23, 0.31, 0.4 };
  const gdouble db[] = { 35, 20, 50, 28, 15 };
  gint b, m, i, k;

  for (b = 0; b < g->bscans; b++)
    for (m = 0; m < g->m; m++) {
      gfloat *c = d + 2 * (gsize) p2 * (b * g->m + m);
      gdouble bend = 0.02 * sin (2 * G_PI * m / g->m + b);
      for (i = 0; i < p2; i++) {
        gdouble env = 1 + 1e6 * exp (-i / 3.0), a;
        for (k = 0; k < 5; k++) {
          gdouble z = (depth[k] + bend) * g->p1;
          env += pow (10, db[k] / 10) * exp (-pow ((i - z) / 4.0, 2));
        }
        a = sqrt (scale * env / 2);
        c[2 * i] = (gfloat) (a * gauss (rand));
        c[2 * i + 1] = (gfloat) (a * gauss (rand));
      }
    }
  return d;
}
