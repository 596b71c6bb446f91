/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CPU core: lateral analytic signal (see aooct-cpu-fullrange.h).
 *
 * The transforms run across the A-lines: for sample index n of a B-scan
 * the M values x[m][n] lie N floats apart.  FFTW's guru interface does
 * them strided, batched over the N sample indices (distance 1) and the
 * B-scans of the buffer (distance M x N), so there is no transpose:
 *   1. R2C of length M across the A-lines, straight into the output
 *      buffer: rows q = 0 .. M/2 of X_n[q] (a complex M x N B-scan has
 *      room for them at the same stride N);
 *   2. one pass: row q times H[q] / M (the sideband filter of section 9
 *      with the inverse DFT's 1/M), rows q > M/2 zero;
 *   3. C2C of length M in place, across the A-lines again.
 * Why the real input suffices for both sidebands: for real x,
 * X_n[M - q] = conj (X_n[q]), so the lower sideband's a is the conjugate of
 * the upper's.  conj (IDFT (Y)) = DFT (conj (Y)) / ..., so the lower
 * sideband conjugates Y in pass 2 and runs the C2C forward instead of
 * backward: the same number of passes.
 *
 * The plans are made with FFTW_UNALIGNED (any buffer alignment, new-array
 * execute on the buffers themselves, at any column offset).  The sample
 * indices are split into one block of columns per thread (OpenMP), each
 * block running all three steps on its columns: one plan set for the
 * block width and one for the last, narrower block. */
#include <string.h>
#include <fftw3.h>

#include "aooct-cpu-fullrange.h"
#include "aooct-error.h"
#include "aooct-fftw.h"
#include "aooct-omp.h"

/* the plans for a block of @width columns */
typedef struct
{
  gint width;
  fftwf_plan r2c, backward, forward;
} BlockPlans;

struct _AooctCpuFullrangePlan
{
  gint n, m, bscans;
  gint n_blocks, block;         /* blocks of @block columns, the last one
                                 * n - (n_blocks - 1) * block wide */
  BlockPlans full, last;
};

static void
bscan_dims (const AooctCpuFullrangePlan * fr, gint width, fftwf_iodim * len,
    fftwf_iodim * batch)
{
  /* transform: M points N apart */
  len->n = fr->m;
  len->is = fr->n;
  len->os = fr->n;
  /* batch: the block's sample indices, then the B-scans */
  batch[0].n = width;
  batch[0].is = 1;
  batch[0].os = 1;
  batch[1].n = fr->bscans;
  batch[1].is = fr->m * fr->n;
  batch[1].os = fr->m * fr->n;
}

static gboolean
plan_block (AooctCpuFullrangePlan * fr, BlockPlans * bp, gint width, gfloat * x,
    fftwf_complex * c)
{
  const unsigned flags = AOOCT_CPU_PLAN_FLAGS | FFTW_UNALIGNED;
  fftwf_iodim len, batch[2];

  bp->width = width;
  bscan_dims (fr, width, &len, batch);
  bp->r2c = fftwf_plan_guru_dft_r2c (1, &len, 2, batch, x, c,
      flags | FFTW_PRESERVE_INPUT);
  bp->backward = fftwf_plan_guru_dft (1, &len, 2, batch, c, c,
      FFTW_BACKWARD, flags);
  bp->forward = fftwf_plan_guru_dft (1, &len, 2, batch, c, c,
      FFTW_FORWARD, flags);
  return bp->r2c && bp->backward && bp->forward;
}

static void
destroy_block (BlockPlans * bp)
{
  if (bp->r2c)
    fftwf_destroy_plan (bp->r2c);
  if (bp->backward)
    fftwf_destroy_plan (bp->backward);
  if (bp->forward)
    fftwf_destroy_plan (bp->forward);
  memset (bp, 0, sizeof (*bp));
}

AooctCpuFullrangePlan *
aooct_cpu_fullrange_plan_new (const AooctGeometry * in, GError ** error)
{
  AooctCpuFullrangePlan *fr = g_new0 (AooctCpuFullrangePlan, 1);
  gsize total = (gsize) in->samples * aooct_geometry_total_alines (in);
  gint threads = aooct_cpu_threads ();
  gboolean ok;
  gfloat *x;
  fftwf_complex *c;

  fr->n = in->samples;
  fr->m = in->alines;
  fr->bscans = in->bscans;
  /* one block per thread, unless the buffer is too small for a team */
  if ((gint64) total < AOOCT_CPU_PARALLEL_MIN || threads < 2)
    threads = 1;
  fr->n_blocks = MIN (threads, fr->n);
  fr->block = (fr->n + fr->n_blocks - 1) / fr->n_blocks;
  fr->n_blocks = (fr->n + fr->block - 1) / fr->block;

  /* planning arrays only (FFTW_ESTIMATE does not touch them); the plans
   * run on the buffers with the new-array execute */
  x = fftwf_malloc (sizeof (gfloat) * total);
  c = fftwf_malloc (sizeof (fftwf_complex) * total);
  if (x == NULL || c == NULL) {
    fftwf_free (x);
    fftwf_free (c);
    g_free (fr);
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_RESOURCE,
        "out of memory planning the lateral transforms");
    return NULL;
  }
  aooct_fftw_lock ();
  ok = plan_block (fr, &fr->full, fr->block, x, c);
  if (ok && fr->n - (fr->n_blocks - 1) * fr->block != fr->block)
    ok = plan_block (fr, &fr->last, fr->n - (fr->n_blocks - 1) * fr->block,
        x, c);
  aooct_fftw_unlock ();
  fftwf_free (x);
  fftwf_free (c);
  if (!ok) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "FFTW cannot plan the lateral transforms of %d A-lines x %d "
        "samples x %d B-scans", fr->m, fr->n, fr->bscans);
    aooct_cpu_fullrange_plan_free (fr);
    return NULL;
  }
  return fr;
}

void
aooct_cpu_fullrange_execute (AooctCpuFullrangePlan * fr, const gfloat * in,
    gfloat * out, gboolean lower)
{
  const gint n = fr->n, m = fr->m, half = fr->m / 2;
  fftwf_complex *c = (fftwf_complex *) out;
  gint k;

#pragma omp parallel for schedule(static) num_threads(fr->n_blocks) if (fr->n_blocks > 1)
  for (k = 0; k < fr->n_blocks; k++) {
    const gint c0 = k * fr->block;
    const BlockPlans *bp = fr->last.r2c && k == fr->n_blocks - 1 ?
        &fr->last : &fr->full;
    gint b, q, i;

    fftwf_execute_dft_r2c (bp->r2c, (gfloat *) in + c0, c + c0);
    for (b = 0; b < fr->bscans; b++) {
      fftwf_complex *bscan = c + (gsize) b * m * n + c0;

      for (q = 0; q < m; q++) {
        gfloat *row = (gfloat *) (bscan + (gsize) q * n);
        /* H[0] = 1, H[M/2] = 1 for even M, 2 in between, 0 above M/2 */
        gdouble h = q > half ? 0.0 : (q == 0 || 2 * q == m) ? 1.0 : 2.0;
        const gfloat s = (gfloat) (h / m);
        const gfloat si = lower ? -s : s;

        if (q > half) {
          memset (row, 0, sizeof (fftwf_complex) * bp->width);
          continue;
        }
        for (i = 0; i < bp->width; i++) {
          row[2 * i] *= s;
          row[2 * i + 1] *= si;
        }
      }
    }
    fftwf_execute_dft (lower ? bp->forward : bp->backward, c + c0, c + c0);
  }
}

void
aooct_cpu_fullrange_plan_free (AooctCpuFullrangePlan * fr)
{
  if (fr == NULL)
    return;
  aooct_fftw_lock ();
  destroy_block (&fr->full);
  destroy_block (&fr->last);
  aooct_fftw_unlock ();
  g_free (fr);
}
