/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: aooctregister (see aooct-cpu-register.h). */
#include <math.h>
#include <string.h>

#include "aooct-cpu-register.h"
#include "aooct-register-pick.h"
#include "aooct-fftw.h"

struct _AooctCpuRegisterPlan
{
  AooctRegisterParams p;
  gint ni;                      /* 2U + 1 fine-grid points per axis */
  /* the crop (M x C, A-line major) */
  fftwf_complex *amp;           /* amplitudes, then their DFT */
  fftwf_complex *ref;           /* the reference's DFT, DC 0 */
  fftwf_complex *cross;         /* conj (R^) A^ */
  fftwf_complex *corr;          /* its inverse DFT: C M c */
  fftwf_plan amp_fwd, corr_inv;
  /* the whole B-scan (M x P2) */
  fftwf_complex *work;
  fftwf_plan bscan_fwd, bscan_inv;
  /* the upsampled DFT */
  double *ez, *ex;              /* ni x C, ni x M twiddles (re, im) */
  double *t;                    /* ni x M (re, im) */
  double *cfine;                /* ni x ni */
  double ref_energy;            /* sum r^2 */
  gboolean have_ref;
  guint64 count;                /* B-scans since start */
};

AooctCpuRegisterPlan *
aooct_cpu_register_plan_new (const AooctRegisterParams * p)
{
  AooctCpuRegisterPlan *r = g_new0 (AooctCpuRegisterPlan, 1);
  const gsize crop = (gsize) p->alines * p->rows;
  const gsize full = (gsize) p->alines * p->samples;

  r->p = *p;
  r->ni = 2 * p->upsample + 1;
  r->amp = fftwf_alloc_complex (crop);
  r->ref = fftwf_alloc_complex (crop);
  r->cross = fftwf_alloc_complex (crop);
  r->corr = fftwf_alloc_complex (crop);
  r->work = fftwf_alloc_complex (full);
  r->ez = g_new (double, 2 * (gsize) r->ni * p->rows);
  r->ex = g_new (double, 2 * (gsize) r->ni * p->alines);
  r->t = g_new (double, 2 * (gsize) r->ni * p->alines);
  r->cfine = g_new (double, (gsize) r->ni * r->ni);
  aooct_fftw_lock ();
  r->amp_fwd = fftwf_plan_dft_2d (p->alines, p->rows, r->amp, r->amp,
      FFTW_FORWARD, AOOCT_CPU_PLAN_FLAGS);
  r->corr_inv = fftwf_plan_dft_2d (p->alines, p->rows, r->cross, r->corr,
      FFTW_BACKWARD, AOOCT_CPU_PLAN_FLAGS);
  r->bscan_fwd = fftwf_plan_dft_2d (p->alines, p->samples, r->work, r->work,
      FFTW_FORWARD, AOOCT_CPU_PLAN_FLAGS);
  r->bscan_inv = fftwf_plan_dft_2d (p->alines, p->samples, r->work, r->work,
      FFTW_BACKWARD, AOOCT_CPU_PLAN_FLAGS);
  aooct_fftw_unlock ();
  return r;
}

void
aooct_cpu_register_plan_free (AooctCpuRegisterPlan * r)
{
  if (r == NULL)
    return;
  aooct_fftw_lock ();
  fftwf_destroy_plan (r->amp_fwd);
  fftwf_destroy_plan (r->corr_inv);
  fftwf_destroy_plan (r->bscan_fwd);
  fftwf_destroy_plan (r->bscan_inv);
  aooct_fftw_unlock ();
  fftwf_free (r->amp);
  fftwf_free (r->ref);
  fftwf_free (r->cross);
  fftwf_free (r->corr);
  fftwf_free (r->work);
  g_free (r->ez);
  g_free (r->ex);
  g_free (r->t);
  g_free (r->cfine);
  g_free (r);
}

void
aooct_cpu_register_reset (AooctCpuRegisterPlan * r)
{
  r->have_ref = FALSE;
  r->count = 0;
}

/* The DFT of the crop's amplitudes of the B-scan at @x into r->amp, its DC
 * bin (the mean) set to 0; returns sum a^2 (Parseval). */
static double
crop_spectrum (AooctCpuRegisterPlan * r, const guint8 * x, gsize stride)
{
  const AooctRegisterParams *p = &r->p;
  const gint rows = p->rows;
  gsize k, n = (gsize) p->alines * rows;
  double e = 0;
  gint m;

  for (m = 0; m < p->alines; m++) {
    const gfloat *line = (const gfloat *) (x + m * stride);
    fftwf_complex *a = r->amp + (gsize) m * rows;
    gint z;

    for (z = 0; z < rows; z++) {
      gint b = aooct_register_bin (p->crop_start, p->samples, z);

      a[z][0] = hypotf (line[2 * b], line[2 * b + 1]);
      a[z][1] = 0;
    }
  }
  fftwf_execute (r->amp_fwd);
  r->amp[0][0] = r->amp[0][1] = 0;
  for (k = 0; k < n; k++)
    e += (double) r->amp[k][0] * r->amp[k][0] +
        (double) r->amp[k][1] * r->amp[k][1];
  return e / (double) n;
}

/* The integer peak of c over |dz| <= max_dz, |dx| <= max_dx */
static void
integer_peak (AooctCpuRegisterPlan * r, gint * dz0, gint * dx0)
{
  const AooctRegisterParams *p = &r->p;
  double best = 0;
  gint dz, dx, bz = 0, bx = 0;
  gboolean any = FALSE;

  for (dx = -p->max_dx; dx <= p->max_dx; dx++) {
    const fftwf_complex *row = r->corr +
        (gsize) aooct_register_index (dx % p->alines, p->alines) * p->rows;

    for (dz = -p->max_dz; dz <= p->max_dz; dz++) {
      double c = row[aooct_register_index (dz % p->rows, p->rows)][0];

      if (!any || aooct_register_better (c, dz, dx, best, bz, bx)) {
        best = c;
        bz = dz;
        bx = dx;
        any = TRUE;
      }
    }
  }
  *dz0 = bz;
  *dx0 = bx;
}

/* The upsampled DFT (spec 13) around (dz0, dx0) on r->cross: the best
 * (qz, qx) in 1/U pixel and its c. */
static double
fine_peak (AooctCpuRegisterPlan * r, gint dz0, gint dx0, gint * qz_out,
    gint * qx_out)
{
  const AooctRegisterParams *p = &r->p;
  const gint U = p->upsample, ni = r->ni, C = p->rows, M = p->alines;
  const double norm = 1.0 / ((double) C * M);
  double best = 0;
  gint i, j, bz = 0, bx = 0;
  gboolean any = FALSE;

  for (i = 0; i < ni; i++) {
    gint qz = dz0 * U + i - U, k;

    for (k = 0; k < C; k++) {
      double t = aooct_register_turns (aooct_register_freq (k, C), qz,
          (long long) U * C);
      r->ez[2 * ((gsize) i * C + k)] = cos (2 * G_PI * t);
      r->ez[2 * ((gsize) i * C + k) + 1] = sin (2 * G_PI * t);
    }
    qz = dx0 * U + i - U;
    for (k = 0; k < M; k++) {
      double t = aooct_register_turns (aooct_register_freq (k, M), qz,
          (long long) U * M);
      r->ex[2 * ((gsize) i * M + k)] = cos (2 * G_PI * t);
      r->ex[2 * ((gsize) i * M + k) + 1] = sin (2 * G_PI * t);
    }
  }
  /* T[i][km] = sum_kz G[km][kz] Ez[i][kz] */
#pragma omp parallel for schedule(static) if ((gint64) C * M >= AOOCT_CPU_PARALLEL_MIN)
  for (gint km = 0; km < M; km++) {
    const fftwf_complex *g = r->cross + (gsize) km * C;

    for (gint ii = 0; ii < ni; ii++) {
      const double *e = r->ez + 2 * (gsize) ii * C;
      double sr = 0, si = 0;

      for (gint kz = 0; kz < C; kz++) {
        sr += g[kz][0] * e[2 * kz] - g[kz][1] * e[2 * kz + 1];
        si += g[kz][0] * e[2 * kz + 1] + g[kz][1] * e[2 * kz];
      }
      r->t[2 * ((gsize) ii * M + km)] = sr;
      r->t[2 * ((gsize) ii * M + km) + 1] = si;
    }
  }
  /* c[i][j] = Re sum_km T[i][km] Ex[j][km] / (C M) */
#pragma omp parallel for schedule(static) if ((gint64) ni * ni * M >= AOOCT_CPU_PARALLEL_MIN)
  for (gint ii = 0; ii < ni; ii++) {
    const double *t = r->t + 2 * (gsize) ii * M;

    for (gint jj = 0; jj < ni; jj++) {
      const double *e = r->ex + 2 * (gsize) jj * M;
      double s = 0;

      for (gint km = 0; km < M; km++)
        s += t[2 * km] * e[2 * km] - t[2 * km + 1] * e[2 * km + 1];
      r->cfine[(gsize) ii * ni + jj] = s * norm;
    }
  }
  for (i = 0; i < ni; i++) {
    gint qz = dz0 * U + i - U;

    if (aooct_register_iabs (qz) > p->max_dz * U)
      continue;
    for (j = 0; j < ni; j++) {
      gint qx = dx0 * U + j - U;
      double c = r->cfine[(gsize) i * ni + j];

      if (aooct_register_iabs (qx) > p->max_dx * U)
        continue;
      if (!any || aooct_register_better (c, qz, qx, best, bz, bx)) {
        best = c;
        bz = qz;
        bx = qx;
        any = TRUE;
      }
    }
  }
  *qz_out = bz;
  *qx_out = bx;
  return best;
}

static void
copy_bscan (const AooctRegisterParams * p, const guint8 * in, gsize in_stride,
    guint8 * out, gsize out_stride)
{
  gint m;

  for (m = 0; m < p->alines; m++)
    memcpy (out + m * out_stride, in + m * in_stride, 8 * (gsize) p->samples);
}

/* X moved back by (qz, qx)/U (spec 13, "Apply") */
static void
apply_shift (AooctCpuRegisterPlan * r, const guint8 * in, gsize in_stride,
    guint8 * out, gsize out_stride, gint qz, gint qx)
{
  const AooctRegisterParams *p = &r->p;
  const gint M = p->alines, P2 = p->samples, U = p->upsample;
  const double scale = 1.0 / ((double) M * P2);
  gint m;

  for (m = 0; m < M; m++)
    memcpy (r->work + (gsize) m * P2, in + m * in_stride, 8 * (gsize) P2);
  fftwf_execute (r->bscan_fwd);
#pragma omp parallel for schedule(static) if ((gint64) M * P2 >= AOOCT_CPU_PARALLEL_MIN)
  for (gint km = 0; km < M; km++) {
    /* lateral: signed frequency, exp (2 pi j km dx / M) */
    double tm = aooct_register_turns (aooct_register_freq (km, M), qx,
        (long long) U * M);
    double hr = cos (2 * G_PI * tm), hi = sin (2 * G_PI * tm);
    fftwf_complex *w = r->work + (gsize) km * P2;

    for (gint q = 0; q < P2; q++) {
      /* depth bin q of the 2-D DFT is spectral sample i = -q mod P2, of
       * unsigned frequency -i: exp (-2 pi j dz i / P2) */
      gint i = q == 0 ? 0 : P2 - q;
      double tz = aooct_register_turns (-(long long) qz, i,
          (long long) U * P2);
      double zr = cos (2 * G_PI * tz), zi = sin (2 * G_PI * tz);
      double fr = (hr * zr - hi * zi) * scale, fi = (hr * zi + hi * zr) * scale;
      double vr = w[q][0], vi = w[q][1];

      w[q][0] = (float) (vr * fr - vi * fi);
      w[q][1] = (float) (vr * fi + vi * fr);
    }
  }
  fftwf_execute (r->bscan_inv);
  for (m = 0; m < M; m++) {
    gfloat *o = (gfloat *) (out + m * out_stride);

    if (aooct_register_aline_inside (m, qx, U, M))
      memcpy (o, r->work + (gsize) m * P2, 8 * (gsize) P2);
    else
      memset (o, 0, 8 * (gsize) P2);
  }
}

static void
make_reference (AooctCpuRegisterPlan * r, const guint8 * x, gsize stride)
{
  r->ref_energy = crop_spectrum (r, x, stride);
  memcpy (r->ref, r->amp, sizeof (fftwf_complex) * r->p.alines * r->p.rows);
  r->have_ref = TRUE;
}

static void
register_one (AooctCpuRegisterPlan * r, gdouble min_correlation,
    const guint8 * in, gsize in_stride, guint8 * out, gsize out_stride)
{
  const AooctRegisterParams *p = &r->p;
  const gsize n = (gsize) p->alines * p->rows;
  AooctRegisterResult res = { r->count++, 0, 0, p->upsample, 1.0, FALSE };
  double energy, c, denom;
  gint dz0, dx0;
  gsize k;

  if (!r->have_ref) {
    /* the reference itself passes with shift 0, rho 1 */
    copy_bscan (p, in, in_stride, out, out_stride);
    make_reference (r, in, in_stride);
  } else {
    energy = crop_spectrum (r, in, in_stride);
    for (k = 0; k < n; k++) {
      /* conj (R^) A^ */
      float ar = r->amp[k][0], ai = r->amp[k][1];
      float rr = r->ref[k][0], ri = r->ref[k][1];

      r->cross[k][0] = rr * ar + ri * ai;
      r->cross[k][1] = rr * ai - ri * ar;
    }
    fftwf_execute (r->corr_inv);
    integer_peak (r, &dz0, &dx0);
    c = fine_peak (r, dz0, dx0, &res.qz, &res.qx);
    denom = sqrt (r->ref_energy * energy);
    res.correlation = denom > 0 ? c / denom : 0;
    res.rejected = res.correlation < min_correlation;
    if (res.rejected) {
      copy_bscan (p, in, in_stride, out, out_stride);
    } else {
      apply_shift (r, in, in_stride, out, out_stride, res.qz, res.qx);
      if (p->reference == AOOCT_REGISTER_REFERENCE_PREVIOUS)
        make_reference (r, out, out_stride);
    }
  }
  if (p->report)
    p->report (p->report_data, &res);
}

void
aooct_cpu_register_execute (AooctCpuRegisterPlan * r,
    gdouble min_correlation, const gfloat * in, gsize in_stride, gfloat * out,
    gsize out_stride)
{
  const AooctRegisterParams *p = &r->p;
  gint b;

  for (b = 0; b < p->bscans; b++)
    register_one (r, min_correlation,
        (const guint8 *) in + (gsize) b * p->alines * in_stride, in_stride,
        (guint8 *) out + (gsize) b * p->alines * out_stride, out_stride);
}
