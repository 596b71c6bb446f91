/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: zero-padding by FFT interpolation (see aooct-cpu-pad.h).
 *
 * Per A-line: y (P1 samples, the A-line at o, zeros around it) -> real FFT
 * of length P1 -> bins 0..P1/2 kept as they are (the Nyquist bin copied,
 * not halved, as the spec says), bins up to P2/2 zero -> inverse real FFT
 * of length P2 -> scaled by 1/P1, margins set to 0.
 *
 * Complex spectra (full range, spec section 9): complex FFT of length P1,
 * bins 0..P1/2 to Z[0..P1/2] and bins P1/2..P1-1 to the top of Z
 * (Z[P2 - P1 + k]; the Nyquist bin goes to both ends, which is what the
 * real path's Hermitian Z holds), zeros between, inverse complex FFT of
 * length P2, scaled by 1/P1, margins 0. */
#include <string.h>
#include <fftw3.h>

#include "aooct-cpu-pad.h"
#include "aooct-cpu-fft.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-omp.h"

typedef struct
{
  gfloat *y;                    /* P1 (complex: 2 P1): zeros around the
                                 * A-line */
  fftwf_complex *spec;          /* P2/2 + 1 bins (complex: P2): Y, then Z */
  gfloat *z;                    /* P2 (complex: 2 P2) samples, unscaled */
} PadScratch;

struct _AooctCpuPadPlan
{
  gint n, offset, p1, p2, j0, j1;
  gboolean complex;             /* complex spectra (full range) */
  gint n_threads;
  fftwf_plan r2c, c2r;          /* complex: the forward P1 and the
                                 * backward P2 complex FFTs */
  PadScratch *scratch;
};

static void pad_process_complex (AooctCpuPadPlan * pad, const gfloat * in,
    gfloat * out, gint n_alines);

AooctCpuPadPlan *
aooct_cpu_pad_plan_new (const AooctGeometry * out, gint n_threads,
    GError ** error)
{
  AooctCpuPadPlan *pad = g_new0 (AooctCpuPadPlan, 1);
  gint t;

  pad->n = out->raw_samples;
  pad->offset = out->pad_offset;
  pad->p1 = out->pad_size;
  pad->p2 = out->samples;
  pad->j0 = aooct_geometry_data_start (out);
  pad->j1 = aooct_geometry_data_end (out);
  pad->complex = out->sample_type == AOOCT_SAMPLE_COMPLEX;
  pad->n_threads = MAX (n_threads, 1);
  pad->scratch = g_new0 (PadScratch, pad->n_threads);
  for (t = 0; t < pad->n_threads; t++) {
    PadScratch *s = &pad->scratch[t];
    gsize c = pad->complex ? 2 : 1;

    s->y = fftwf_malloc (sizeof (gfloat) * pad->p1 * c);
    s->spec = fftwf_malloc (sizeof (fftwf_complex) * (pad->complex ?
            (gsize) pad->p2 : (gsize) pad->p2 / 2 + 1));
    s->z = fftwf_malloc (sizeof (gfloat) * pad->p2 * c);
    if (!s->y || !s->spec || !s->z) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "out of memory for padding scratch of %d samples", pad->p2);
      aooct_cpu_pad_plan_free (pad);
      return NULL;
    }
  }

  /* The r2c writes bins 0..P1/2 straight into the c2r's input, which
   * spans P2/2 + 1 bins: no copy of Y into Z. */
  aooct_fftw_lock ();
  if (pad->complex) {
    /* the forward FFT writes Y into the first P1 bins of the spectrum,
     * which pad_process_complex() then spreads over P2 */
    pad->r2c = fftwf_plan_dft_1d (pad->p1,
        (fftwf_complex *) pad->scratch[0].y, pad->scratch[0].spec,
        FFTW_FORWARD, AOOCT_CPU_PLAN_FLAGS | FFTW_PRESERVE_INPUT);
    pad->c2r = fftwf_plan_dft_1d (pad->p2, pad->scratch[0].spec,
        (fftwf_complex *) pad->scratch[0].z, FFTW_BACKWARD,
        AOOCT_CPU_PLAN_FLAGS);
  } else {
    pad->r2c = fftwf_plan_dft_r2c_1d (pad->p1, pad->scratch[0].y,
        pad->scratch[0].spec, AOOCT_CPU_PLAN_FLAGS | FFTW_PRESERVE_INPUT);
    pad->c2r = fftwf_plan_dft_c2r_1d (pad->p2, pad->scratch[0].spec,
        pad->scratch[0].z, AOOCT_CPU_PLAN_FLAGS);
  }
  aooct_fftw_unlock ();
  if (pad->r2c == NULL || pad->c2r == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "FFTW cannot plan the padding FFTs of %d and %d samples", pad->p1,
        pad->p2);
    aooct_cpu_pad_plan_free (pad);
    return NULL;
  }

  /* The zeros around the A-line are written once: the r2c preserves its
   * input and each A-line only overwrites y[o .. o + N - 1]. */
  for (t = 0; t < pad->n_threads; t++)
    memset (pad->scratch[t].y, 0,
        sizeof (gfloat) * pad->p1 * (pad->complex ? 2 : 1));
  return pad;
}

void
aooct_cpu_pad_execute (AooctCpuPadPlan * pad, const gfloat * in, gfloat * out,
    gint n_alines)
{
  const gint n = pad->n, p1 = pad->p1, p2 = pad->p2;
  const gint j0 = pad->j0, j1 = pad->j1;
  /* exact: P1 is a power of two */
  const gfloat scale = 1.0f / (gfloat) p1;
  gint a;

  if (pad->complex) {
    pad_process_complex (pad, in, out, n_alines);
    return;
  }
#pragma omp parallel for schedule(static) num_threads(pad->n_threads) if ((gint64) p2 * n_alines >= AOOCT_CPU_PARALLEL_MIN)
  for (a = 0; a < n_alines; a++) {
    PadScratch *s = &pad->scratch[aooct_cpu_thread_index ()];
    gfloat *dst = out + (gsize) a * p2;
    gint j;

    memcpy (s->y + pad->offset, in + (gsize) a * n, sizeof (gfloat) * n);
    fftwf_execute_dft_r2c (pad->r2c, s->y, s->spec);
    /* Z[k] = 0 for P1/2 < k <= P2/2; redone per A-line because the c2r
     * destroys its input. */
    memset (s->spec + p1 / 2 + 1, 0,
        sizeof (fftwf_complex) * (p2 / 2 - p1 / 2));
    fftwf_execute_dft_c2r (pad->c2r, s->spec, s->z);

    memset (dst, 0, sizeof (gfloat) * j0);
    for (j = j0; j <= j1; j++)
      dst[j] = s->z[j] * scale;
    memset (dst + j1 + 1, 0, sizeof (gfloat) * (p2 - j1 - 1));
  }
}

static void
pad_process_complex (AooctCpuPadPlan * pad, const gfloat * in, gfloat * out,
    gint n_alines)
{
  const gint n = pad->n, p1 = pad->p1, p2 = pad->p2;
  const gint j0 = pad->j0, j1 = pad->j1;
  const gfloat scale = 1.0f / (gfloat) p1;
  gint a;

#pragma omp parallel for schedule(static) num_threads(pad->n_threads) if ((gint64) p2 * n_alines >= AOOCT_CPU_PARALLEL_MIN)
  for (a = 0; a < n_alines; a++) {
    PadScratch *s = &pad->scratch[aooct_cpu_thread_index ()];
    gfloat *dst = out + (gsize) a * 2 * p2;
    gint j;

    memcpy (s->y + 2 * pad->offset, in + (gsize) a * 2 * n,
        sizeof (gfloat) * 2 * n);
    fftwf_execute_dft (pad->r2c, (fftwf_complex *) s->y, s->spec);
    if (p2 > p1) {
      /* bins P1/2 .. P1-1 move to the top (P2 - P1 + k), the Nyquist bin
       * staying at P1/2 as well; zeros between */
      memmove (s->spec + p2 - p1 / 2, s->spec + p1 / 2,
          sizeof (fftwf_complex) * (p1 / 2));
      memset (s->spec + p1 / 2 + 1, 0,
          sizeof (fftwf_complex) * (p2 - p1 / 2 - p1 / 2 - 1));
    }
    fftwf_execute_dft (pad->c2r, s->spec, (fftwf_complex *) s->z);

    memset (dst, 0, sizeof (gfloat) * 2 * j0);
    for (j = 2 * j0; j <= 2 * j1 + 1; j++)
      dst[j] = s->z[j] * scale;
    memset (dst + 2 * j1 + 2, 0, sizeof (gfloat) * 2 * (p2 - j1 - 1));
  }
}

void
aooct_cpu_pad_plan_free (AooctCpuPadPlan * pad)
{
  gint t;

  if (pad == NULL)
    return;
  aooct_fftw_lock ();
  if (pad->r2c)
    fftwf_destroy_plan (pad->r2c);
  if (pad->c2r)
    fftwf_destroy_plan (pad->c2r);
  aooct_fftw_unlock ();
  for (t = 0; t < pad->n_threads; t++) {
    fftwf_free (pad->scratch[t].y);
    fftwf_free (pad->scratch[t].spec);
    fftwf_free (pad->scratch[t].z);
  }
  g_free (pad->scratch);
  g_free (pad);
}
