/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 aooctregister (see aooct-ref64-register.h). */
#include <math.h>
#include <string.h>
#include <complex.h>

#include "aooct-ref64-register.h"

struct _AooctRefRegister
{
  AooctRefRegisterParams p;
  double *ref;                  /* r: rows x M, mean removed */
  double ref_energy;
  gboolean have_ref;
  double *a;                    /* scratch: a of the current B-scan */
};

AooctRefRegister *
aooct_ref_register_new (const AooctRefRegisterParams * p)
{
  AooctRefRegister *r = g_new0 (AooctRefRegister, 1);

  r->p = *p;
  r->ref = g_new0 (double, (gsize) p->rows * p->m);
  r->a = g_new0 (double, (gsize) p->rows * p->m);
  return r;
}

void
aooct_ref_register_free (AooctRefRegister * r)
{
  if (r == NULL)
    return;
  g_free (r->ref);
  g_free (r->a);
  g_free (r);
}

void
aooct_ref_register_reset (AooctRefRegister * r)
{
  r->have_ref = FALSE;
}

static int
crop_bin (const AooctRefRegisterParams * p, int z)
{
  int b = p->crop_start + z;

  return b < 0 ? b + p->p2 : b;
}

/* a[z][m] (z fastest... stored [m][z]) = A - mean (A) over the crop;
 * returns sum a^2 */
static double
centred_amplitudes (const AooctRefRegisterParams * p, const double *x,
    double *a)
{
  const gsize n = (gsize) p->rows * p->m;
  double mean = 0, e = 0;
  gsize k;
  int m, z;

  for (m = 0; m < p->m; m++)
    for (z = 0; z < p->rows; z++) {
      const double *v = x + 2 * ((gsize) m * p->p2 + crop_bin (p, z));

      a[(gsize) m * p->rows + z] = hypot (v[0], v[1]);
    }
  for (k = 0; k < n; k++)
    mean += a[k];
  mean /= n;
  for (k = 0; k < n; k++) {
    a[k] -= mean;
    e += a[k] * a[k];
  }
  return e;
}

/* the spec's ordering of candidates */
static gboolean
better (double c, int qz, int qx, double c2, int qz2, int qx2)
{
  if (c != c2)
    return c > c2;
  if (abs (qz) != abs (qz2))
    return abs (qz) < abs (qz2);
  if (abs (qx) != abs (qx2))
    return abs (qx) < abs (qx2);
  if (qz != qz2)
    return qz < qz2;
  return qx < qx2;
}

static double
gap (double best, double second)
{
  return fabs (best) > 0 ? (best - second) / fabs (best) : best - second;
}

static void
estimate (AooctRefRegister * r, double energy, AooctRefRegisterEstimate * e)
{
  const AooctRefRegisterParams *p = &r->p;
  const int C = p->rows, M = p->m, U = p->upsample;
  double best = -INFINITY, second = -INFINITY;
  int dz, dx, bz = 0, bx = 0, kz, km, i, j;
  double complex *rh, *ah, *g, *ez, *ex;
  gboolean any = FALSE;

  /* c (dz, dx) = sum r[z][m] a[(z + dz) mod C][(m + dx) mod M], directly */
  for (dx = -p->max_dx; dx <= p->max_dx; dx++)
    for (dz = -p->max_dz; dz <= p->max_dz; dz++) {
      double c = 0;
      int m, z;

      for (m = 0; m < M; m++) {
        const double *rr = r->ref + (gsize) m * C;
        const double *aa = r->a + (gsize) (((m + dx) % M + M) % M) * C;

        for (z = 0; z < C; z++)
          c += rr[z] * aa[((z + dz) % C + C) % C];
      }
      if (!any || better (c, dz, dx, best, bz, bx)) {
        if (any)
          second = best;
        best = c;
        bz = dz;
        bx = dx;
        any = TRUE;
      } else if (c > second) {
        second = c;
      }
    }
  e->int_gap = gap (best, second);

  /* the DFTs of r and a (direct sums), the signed-frequency grid */
  rh = g_new0 (double complex, (gsize) C * M);
  ah = g_new0 (double complex, (gsize) C * M);
  g = g_new0 (double complex, (gsize) C * M);
  for (km = 0; km < M; km++)
    for (kz = 0; kz < C; kz++) {
      double complex sr = 0, sa = 0;
      int m, z;

      for (m = 0; m < M; m++)
        for (z = 0; z < C; z++) {
          double complex w = cexp (-2 * G_PI * I * ((double) kz * z / C +
                  (double) km * m / M));

          sr += r->ref[(gsize) m * C + z] * w;
          sa += r->a[(gsize) m * C + z] * w;
        }
      rh[(gsize) km * C + kz] = sr;
      ah[(gsize) km * C + kz] = sa;
      g[(gsize) km * C + kz] = conj (sr) * sa;
    }
  /* c at (dz0 + i/U - 1, dx0 + j/U - 1) as the spec's sum over the
   * signed frequencies */
  ez = g_new (double complex, (gsize) C);
  ex = g_new (double complex, (gsize) M);
  {
    int dz0 = bz, dx0 = bx;
    double fbest = -INFINITY, fsecond = -INFINITY;
    int fz = 0, fx = 0;
    gboolean fany = FALSE;

    for (i = 0; i <= 2 * U; i++) {
      int qz = dz0 * U + i - U;

      if (abs (qz) > p->max_dz * U)
        continue;
      for (kz = 0; kz < C; kz++) {
        int f = kz < (C + 1) / 2 ? kz : kz - C;

        ez[kz] = cexp (2 * G_PI * I * f * ((double) qz / U) / C);
      }
      for (j = 0; j <= 2 * U; j++) {
        int qx = dx0 * U + j - U;
        double complex s = 0;

        if (abs (qx) > p->max_dx * U)
          continue;
        for (km = 0; km < M; km++) {
          int f = km < (M + 1) / 2 ? km : km - M;

          ex[km] = cexp (2 * G_PI * I * f * ((double) qx / U) / M);
        }
        for (km = 0; km < M; km++)
          for (kz = 0; kz < C; kz++)
            s += g[(gsize) km * C + kz] * ez[kz] * ex[km];
        {
          double c = creal (s) / ((double) C * M);

          if (!fany || better (c, qz, qx, fbest, fz, fx)) {
            if (fany)
              fsecond = fbest;
            fbest = c;
            fz = qz;
            fx = qx;
            fany = TRUE;
          } else if (c > fsecond) {
            fsecond = c;
          }
        }
      }
    }
    e->qz = fz;
    e->qx = fx;
    e->c = fbest;
    e->fine_gap = gap (fbest, fsecond);
  }
  {
    double d = sqrt (r->ref_energy * energy);

    e->rho = d > 0 ? e->c / d : 0;
  }
  g_free (rh);
  g_free (ah);
  g_free (g);
  g_free (ez);
  g_free (ex);
}

void
aooct_ref_register_apply (const AooctRefRegisterParams * p, const double *x,
    double *out, int qz, int qx)
{
  const int M = p->m, P2 = p->p2, U = p->upsample;
  const double dz = (double) qz / U, dx = (double) qx / U;
  double complex *xs = g_new (double complex, (gsize) P2);
  double complex *x1 = g_new (double complex, (gsize) M * P2);
  double complex *col = g_new (double complex, (gsize) M);
  double complex *spec = g_new (double complex, (gsize) M);
  int m, z, i, km;

  /* depth: x = the spectrum aooctfft transformed, then the sum with
   * exp (-2 pi j (z + dz) i / P2), i unsigned */
  for (m = 0; m < M; m++) {
    const double *row = x + 2 * (gsize) m * P2;

    for (i = 0; i < P2; i++) {
      double complex s = 0;

      for (z = 0; z < P2; z++)
        s += (row[2 * z] + I * row[2 * z + 1]) *
            cexp (2 * G_PI * I * (double) z * i / P2);
      xs[i] = s / P2;
    }
    for (z = 0; z < P2; z++) {
      double complex s = 0;

      for (i = 0; i < P2; i++)
        s += xs[i] * cexp (-2 * G_PI * I * (z + dz) * i / P2);
      x1[(gsize) m * P2 + z] = s;
    }
  }
  /* laterally: the DFT over the A-lines, synthesised at m + dx with
   * signed frequencies; outside the B-scan 0 */
  for (z = 0; z < P2; z++) {
    for (km = 0; km < M; km++) {
      double complex s = 0;

      for (m = 0; m < M; m++)
        s += x1[(gsize) m * P2 + z] * cexp (-2 * G_PI * I * (double) km * m /
            M);
      spec[km] = s;
    }
    for (m = 0; m < M; m++) {
      double complex s = 0;

      if (m + dx < 0 || m + dx > M - 1) {
        col[m] = 0;
        continue;
      }
      for (km = 0; km < M; km++) {
        int f = km < (M + 1) / 2 ? km : km - M;

        s += spec[km] * cexp (2 * G_PI * I * f * (m + dx) / M);
      }
      col[m] = s / M;
    }
    for (m = 0; m < M; m++) {
      out[2 * ((gsize) m * P2 + z)] = creal (col[m]);
      out[2 * ((gsize) m * P2 + z) + 1] = cimag (col[m]);
    }
  }
  g_free (xs);
  g_free (x1);
  g_free (col);
  g_free (spec);
}

void
aooct_ref_register_set_reference (AooctRefRegister * r, const double *x)
{
  r->ref_energy = centred_amplitudes (&r->p, x, r->ref);
  r->have_ref = TRUE;
}

void
aooct_ref_register_bscan (AooctRefRegister * r, double min_correlation,
    const double *x, double *out, AooctRefRegisterEstimate * e)
{
  const AooctRefRegisterParams *p = &r->p;
  const gsize bytes = sizeof (double) * 2 * (gsize) p->m * p->p2;
  double energy;

  memset (e, 0, sizeof (*e));
  if (!r->have_ref) {
    r->ref_energy = centred_amplitudes (p, x, r->ref);
    r->have_ref = TRUE;
    memcpy (out, x, bytes);
    e->rho = 1;
    e->int_gap = e->fine_gap = 1;
    return;
  }
  energy = centred_amplitudes (p, x, r->a);
  estimate (r, energy, e);
  e->rejected = e->rho < min_correlation;
  if (e->rejected) {
    memcpy (out, x, bytes);
    return;
  }
  aooct_ref_register_apply (p, x, out, e->qz, e->qx);
  if (p->previous)
    r->ref_energy = centred_amplitudes (p, out, r->ref);
}
