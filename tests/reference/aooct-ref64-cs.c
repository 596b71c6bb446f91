/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 SpaRSA of spec section 10 (see aooct-ref64-cs.h). */
#include <math.h>
#include <string.h>

#include "aooct-ref64-cs.h"

struct _AooctRefCs
{
  int u, p;
  double *e;                    /* [P][U] complex: exp(+2 pi i m s_n / P) */
  double *w;                    /* [U] complex: exp(i (a2 u^2 + a3 u^3)) */
};

AooctRefCs *
aooct_ref_cs_new (int n, const double *lambda, const int *pixel, int u, int p,
    double a2, double a3)
{
  AooctRefCs *cs = g_new0 (AooctRefCs, 1);
  const double k0 = 2.0 * G_PI / lambda[0], k1 = 2.0 * G_PI / lambda[n - 1];
  double *s = g_new (double, u);
  int i, m;

  cs->u = u;
  cs->p = p;
  cs->e = g_new (double, 2 * (gsize) p * u);
  cs->w = g_new (double, 2 * (gsize) u);
  for (i = 0; i < u; i++) {
    double k = 2.0 * G_PI / lambda[pixel[i]], uu, phi;

    s[i] = (k - k0) * (n - 1) / (k1 - k0);
    uu = 2.0 * s[i] / (n - 1) - 1.0;
    phi = a2 * uu * uu + a3 * uu * uu * uu;
    cs->w[2 * i] = cos (phi);
    cs->w[2 * i + 1] = sin (phi);
  }
  for (m = 0; m < p; m++)
    for (i = 0; i < u; i++) {
      /* m s_n reduced modulo P before the angle is formed */
      double ph = 2.0 * G_PI * fmod ((double) m * s[i], (double) p) / p;

      cs->e[2 * ((gsize) m * u + i)] = cos (ph);
      cs->e[2 * ((gsize) m * u + i) + 1] = sin (ph);
    }
  g_free (s);
  return cs;
}

void
aooct_ref_cs_forward (const AooctRefCs * cs, const double *x, double *ax)
{
  const double sc = 1.0 / sqrt ((double) cs->p);
  int m, n;

  memset (ax, 0, 2 * sizeof (double) * cs->u);
  for (m = 0; m < cs->p; m++) {
    const double *e = cs->e + 2 * (gsize) m * cs->u;
    const double xr = x[2 * m], xi = x[2 * m + 1];

    if (xr == 0.0 && xi == 0.0)
      continue;
    for (n = 0; n < cs->u; n++) {
      ax[2 * n] += e[2 * n] * xr - e[2 * n + 1] * xi;
      ax[2 * n + 1] += e[2 * n] * xi + e[2 * n + 1] * xr;
    }
  }
  for (n = 0; n < 2 * cs->u; n++)
    ax[n] *= sc;
}

static void
adjoint (const AooctRefCs * cs, const double *r, double *g)
{
  const double sc = 1.0 / sqrt ((double) cs->p);
  int m, n;

  for (m = 0; m < cs->p; m++) {
    const double *e = cs->e + 2 * (gsize) m * cs->u;
    double re = 0.0, im = 0.0;

    /* conj (e) r */
    for (n = 0; n < cs->u; n++) {
      re += e[2 * n] * r[2 * n] + e[2 * n + 1] * r[2 * n + 1];
      im += e[2 * n] * r[2 * n + 1] - e[2 * n + 1] * r[2 * n];
    }
    g[2 * m] = re * sc;
    g[2 * m + 1] = im * sc;
  }
}

void
aooct_ref_cs_measurement (const AooctRefCs * cs, const double *d, double *y)
{
  int n;

  for (n = 0; n < cs->u; n++) {
    y[2 * n] = d[n] * cs->w[2 * n];
    y[2 * n + 1] = d[n] * cs->w[2 * n + 1];
  }
}

void
aooct_ref_cs_run (const AooctRefCs * cs, const double *d, double tau,
    int iterations, double *x)
{
  const int u = cs->u, p = cs->p;
  double *y = g_new (double, 2 * u), *r = g_new (double, 2 * u);
  double *rn = g_new (double, 2 * u), *g = g_new (double, 2 * p);
  double *xn = g_new (double, 2 * p);
  double alpha = 1.0, lambda = 0.0;
  int it, i;

  aooct_ref_cs_measurement (cs, d, y);
  adjoint (cs, y, g);
  for (i = 0; i < p; i++)
    lambda = fmax (lambda, hypot (g[2 * i], g[2 * i + 1]));
  lambda *= tau;
  memset (x, 0, 2 * sizeof (double) * p);
  for (i = 0; i < 2 * u; i++)
    r[i] = -y[i];
  for (it = 0; it < iterations; it++) {
    double dd = 0.0, rr = 0.0;

    adjoint (cs, r, g);
    for (i = 0; i < p; i++) {
      double vr = x[2 * i] - g[2 * i] / alpha;
      double vi = x[2 * i + 1] - g[2 * i + 1] / alpha;
      double mag = hypot (vr, vi), c = lambda / alpha;
      double f = mag > c ? (mag - c) / mag : 0.0;

      xn[2 * i] = vr * f;
      xn[2 * i + 1] = vi * f;
      dd += (xn[2 * i] - x[2 * i]) * (xn[2 * i] - x[2 * i])
          + (xn[2 * i + 1] - x[2 * i + 1]) * (xn[2 * i + 1] - x[2 * i + 1]);
    }
    aooct_ref_cs_forward (cs, xn, rn);
    for (i = 0; i < 2 * u; i++) {
      rn[i] -= y[i];
      rr += (rn[i] - r[i]) * (rn[i] - r[i]);
    }
    /* as the elements: a step that no longer changes the residual keeps
     * alpha (the clamped 1e-30 would overflow the next step) */
    if (dd > 0.0 && rr > 0.0)
      alpha = fmin (fmax (rr / dd, 1e-30), 1e30);
    memcpy (x, xn, 2 * sizeof (double) * p);
    memcpy (r, rn, 2 * sizeof (double) * u);
  }
  g_free (y);
  g_free (r);
  g_free (rn);
  g_free (g);
  g_free (xn);
}

static double
dot (const double *a, const double *b, int len)
{
  double s = 0.0;
  int i;

  for (i = 0; i < len; i++)
    s += a[i] * b[i];
  return s;
}

void
aooct_ref_cs_least_squares (const AooctRefCs * cs, const double *d,
    int iterations, double *x)
{
  const int u = cs->u, p = cs->p;
  double *y = g_new (double, 2 * u), *r = g_new (double, 2 * u);
  double *q = g_new (double, 2 * u), *z = g_new (double, 2 * p);
  double *dir = g_new (double, 2 * p);
  double zz, zz0;
  int it, i;

  /* x = 0, r = y, z = A^H r, dir = z */
  aooct_ref_cs_measurement (cs, d, y);
  memcpy (r, y, 2 * sizeof (double) * u);
  memset (x, 0, 2 * sizeof (double) * p);
  adjoint (cs, r, z);
  memcpy (dir, z, 2 * sizeof (double) * p);
  zz0 = zz = dot (z, z, 2 * p);
  for (it = 0; it < iterations && zz > 1e-28 * zz0; it++) {
    double step, zz1;

    aooct_ref_cs_forward (cs, dir, q);
    step = zz / dot (q, q, 2 * u);
    for (i = 0; i < 2 * p; i++)
      x[i] += step * dir[i];
    for (i = 0; i < 2 * u; i++)
      r[i] -= step * q[i];
    adjoint (cs, r, z);
    zz1 = dot (z, z, 2 * p);
    for (i = 0; i < 2 * p; i++)
      dir[i] = z[i] + zz1 / zz * dir[i];
    zz = zz1;
  }
  g_free (y);
  g_free (r);
  g_free (q);
  g_free (z);
  g_free (dir);
}

void
aooct_ref_cs_free (AooctRefCs * cs)
{
  if (cs == NULL)
    return;
  g_free (cs->e);
  g_free (cs->w);
  g_free (cs);
}
