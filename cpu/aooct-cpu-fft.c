/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: forward FFT of every A-line (see aooct-cpu-fft.h). */
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "aooct-cpu-fft.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-omp.h"

typedef struct
{
  fftwf_complex *in;            /* windowed / complexified input */
  fftwf_complex *out;           /* result when the output is misaligned */
} FftScratch;

struct _AooctCpuFftPlan
{
  gint samples;
  gint n_threads;
  fftwf_plan plan;
  FftScratch *scratch;
};


AooctCpuFftPlan *
aooct_cpu_fft_plan_new (gint samples, gint n_threads, GError ** error)
{
  AooctCpuFftPlan *fft = g_new0 (AooctCpuFftPlan, 1);
  gint t;

  fft->samples = samples;
  fft->n_threads = MAX (n_threads, 1);
  fft->scratch = g_new0 (FftScratch, fft->n_threads);
  for (t = 0; t < fft->n_threads; t++) {
    fft->scratch[t].in = fftwf_malloc (sizeof (fftwf_complex) * samples);
    fft->scratch[t].out = fftwf_malloc (sizeof (fftwf_complex) * samples);
    if (!fft->scratch[t].in || !fft->scratch[t].out) {
      g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
          "out of memory for FFT scratch of %d samples", samples);
      aooct_cpu_fft_plan_free (fft);
      return NULL;
    }
  }
  /* Out of place with the input preserved: the input may then be the
   * read-only mapped buffer itself (new-array execute). */
  aooct_fftw_lock ();
  fft->plan = fftwf_plan_dft_1d (samples, fft->scratch[0].in,
      fft->scratch[0].out, FFTW_FORWARD,
      AOOCT_CPU_PLAN_FLAGS | FFTW_PRESERVE_INPUT);
  aooct_fftw_unlock ();
  if (fft->plan == NULL) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "FFTW cannot plan a complex FFT of %d samples", samples);
    aooct_cpu_fft_plan_free (fft);
    return NULL;
  }
  return fft;
}

/* New-array execute needs arrays aligned like the planned (fftwf_malloc)
 * ones; buffers from GStreamer normally are, but nothing guarantees it. */
static inline gboolean
aligned (const gfloat * p)
{
  return fftwf_alignment_of ((float *) p) == 0;
}

void
aooct_cpu_fft_execute (AooctCpuFftPlan * fft, const gfloat * in,
    gboolean complex_in, const gfloat * window, gfloat * out, gint n_alines)
{
  const gint n = fft->samples;
  const gsize in_len = complex_in ? 2 * (gsize) n : (gsize) n;
  gint a;

#pragma omp parallel for schedule(static) num_threads(fft->n_threads) if ((gint64) n * n_alines >= AOOCT_CPU_PARALLEL_MIN)
  for (a = 0; a < n_alines; a++) {
    FftScratch *s = &fft->scratch[aooct_cpu_thread_index ()];
    const gfloat *x = in + (gsize) a * in_len;
    gfloat *y = out + (gsize) a * 2 * n;
    fftwf_complex *src, *dst;
    gint i;

    if (complex_in && window == NULL && aligned (x)) {
      src = (fftwf_complex *) x;
    } else {
      src = s->in;
      if (complex_in && window) {
        for (i = 0; i < n; i++) {
          src[i][0] = x[2 * i] * window[i];
          src[i][1] = x[2 * i + 1] * window[i];
        }
      } else if (complex_in) {
        memcpy (src, x, sizeof (fftwf_complex) * n);
      } else {
        for (i = 0; i < n; i++) {
          src[i][0] = window ? x[i] * window[i] : x[i];
          src[i][1] = 0.0f;
        }
      }
    }
    dst = aligned (y) ? (fftwf_complex *) y : s->out;
    fftwf_execute_dft (fft->plan, src, dst);
    if (dst == s->out)
      memcpy (y, dst, sizeof (fftwf_complex) * n);
  }
}

void
aooct_cpu_fft_plan_free (AooctCpuFftPlan * fft)
{
  gint t;

  if (fft == NULL)
    return;
  if (fft->plan) {
    aooct_fftw_lock ();
    fftwf_destroy_plan (fft->plan);
    aooct_fftw_unlock ();
  }
  for (t = 0; t < fft->n_threads; t++) {
    fftwf_free (fft->scratch[t].in);
    fftwf_free (fft->scratch[t].out);
  }
  g_free (fft->scratch);
  g_free (fft);
}
