/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: aooctnorm's averaging and bilateral filter (see
 * aooct-cuda-norm-extra.h). */
#include <stdint.h>

#include "aooct-cuda-norm-extra.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-keys-kernels.cuh"

#define THREADS AOOCT_KEYS_THREADS

struct _AooctCudaNormExtraPlan
{
  AooctNormExtraParams p;
  float *ring;                  /* avg_bscans slots of rows x width I */
  float *val;                   /* rows x width values */
  AooctRangeKeys *keys;
  int pos, count;
  int last_pos, last_count;     /* before the last call */
};

/* the A-line-averaged intensity of one B-scan; threads along depth */
static __global__ void
extra_alines (const float2 * in, float *slot, AooctNormExtraParams p)
{
  const long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  const int r = (int) (t % p.rows), c = (int) (t / p.rows);
  const int m0 = c * p.avg_alines;
  int m1 = m0 + p.avg_alines;
  double sum = 0.0;

  if (c >= p.width)
    return;
  m1 = m1 < p.alines ? m1 : p.alines;
  /* a negative (full-range) depth bin is FFT bin P2 + bin */
  const int bin = p.crop_start + r + (p.crop_start + r < 0 ? p.samples : 0);
  for (int m = m0; m < m1; m++) {
    float2 a = in[(long long) m * p.samples + bin];
    sum += aooct_norm_intensity (a.x, a.y);
  }
  slot[(long long) r * p.width + c] = (float) (sum / (m1 - m0));
}

/* the B-scan average of the last @count slots (newest @pos), then dB */
static __global__ void
extra_values (const float *ring, float *val, AooctRangeKeys * range,
    AooctNormExtraParams p, int pos, int count, int log_mode)
{
  const long long image = (long long) p.rows * p.width;
  const long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  float lo = INFINITY, hi = -INFINITY;

  if (k < image) {
    double sum = 0.0;
    float v;

    for (int s = 0; s < count; s++)
      sum += ring[(long long) ((pos - s + p.avg_bscans) % p.avg_bscans) *
          image + k];
    v = (float) (sum / count);
    v = log_mode ? aooct_norm_db (v) : v;
    val[k] = v;
    lo = hi = v;
  }
  aooct_keys_block_fold (lo, hi, range);
}

static __global__ void
extra_map (const float *val, uint8_t * out, size_t out_stride,
    const AooctRangeKeys * range, AooctNormExtraParams p, int format,
    float q, int radius, float inv_2ss, float inv_2sr)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  uint8_t *row = out + (size_t) r * out_stride;
  float g;

  if (c >= p.width)
    return;
  if (p.sigma_space > 0)
    g = aooct_norm_extra_bilateral (val, p.rows, p.width, p.width, r, c,
        radius, inv_2ss, inv_2sr, range->lo, range->inv) * q + 0.5f;
  else
    g = aooct_norm_grey (val[(long long) r * p.width + c], range->lo,
        range->scale, q);
  if (format == AOOCT_CUDA_NORM_GRAY16) {
    ((uint16_t *) row)[c] = (uint16_t) g;
  } else if (format == AOOCT_CUDA_NORM_RGBA) {
    uint8_t v = (uint8_t) g;
    ((uchar4 *) row)[c] = make_uchar4 (v, v, v, 255);
  } else {
    row[c] = (uint8_t) g;
  }
}

AooctCudaNormExtraPlan *
aooct_cuda_norm_extra_plan_new (const AooctNormExtraParams * p, GError ** error)
{
  AooctCudaNormExtraPlan *x = g_new0 (AooctCudaNormExtraPlan, 1);
  const gsize image = (gsize) p->rows * p->width * sizeof (float);
  AooctRangeKeys init = { INT_MAX, INT_MIN, 0.0f, 0.0f, 0.0f };

  x->p = *p;
  if (!aooct_cuda_malloc (image * p->avg_bscans, (gpointer *) & x->ring,
          error)
      || !aooct_cuda_malloc (image, (gpointer *) & x->val, error)
      || !aooct_cuda_upload_new ((gpointer *) & x->keys, &init,
          sizeof (init), error)) {
    aooct_cuda_norm_extra_plan_free (x);
    return NULL;
  }
  return x;
}

void
aooct_cuda_norm_extra_plan_free (AooctCudaNormExtraPlan * x)
{
  if (x == NULL)
    return;
  aooct_cuda_free (x->ring);
  aooct_cuda_free (x->val);
  aooct_cuda_free (x->keys);
  g_free (x);
}

void
aooct_cuda_norm_extra_reset (AooctCudaNormExtraPlan * x)
{
  x->pos = x->last_pos = 0;
  x->count = x->last_count = 0;
}

void
aooct_cuda_norm_extra_rewind (AooctCudaNormExtraPlan * x)
{
  x->pos = x->last_pos;
  x->count = x->last_count;
}

gboolean
aooct_cuda_norm_extra_execute (AooctCudaNormExtraPlan * x,
    const AooctNormSettings * s,
    AooctCudaNormFormat format, const gfloat * in_f, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error)
{
  const AooctNormExtraParams *p = &x->p;
  const long long image = (long long) p->rows * p->width;
  const float q = format == AOOCT_CUDA_NORM_GRAY16 ? 65535.0f : 255.0f;
  const int radius = aooct_norm_extra_radius (p->sigma_space);
  const float inv_2ss = p->sigma_space > 0 ?
      (float) (1.0 / (2.0 * p->sigma_space * p->sigma_space)) : 0.0f;
  const float inv_2sr =
      (float) (1.0 / (2.0 * p->sigma_range * p->sigma_range));
  const int blocks = (int) ((image + THREADS - 1) / THREADS);
  cudaStream_t st = (cudaStream_t) stream;

  if (p->rows > 65535) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctnorm on CUDA with averaging or the bilateral filter: a crop "
        "of %d depth bins is too tall (at most 65535)", p->rows);
    return FALSE;
  }
  x->last_pos = x->pos;
  x->last_count = x->count;
  for (int b = 0; b < p->bscans; b++) {
    const float2 *in = (const float2 *) in_f + (size_t) b * p->alines *
        p->samples;

    extra_alines <<< blocks, THREADS, 0, st >>> (in, x->ring + x->pos *
        image, *p);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: A-line average kernel");
    x->count = MIN (x->count + 1, p->avg_bscans);
    extra_values <<< blocks, THREADS, 0, st >>> (x->ring, x->val, x->keys,
        *p, x->pos, x->count, s->log ? 1 : 0);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: B-scan average kernel");
    x->pos = (x->pos + 1) % p->avg_bscans;
    aooct_keys_finish <<< 1, 1, 0, st >>> (x->keys, *s, (double) q);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: range kernel");
    extra_map <<< dim3 ((p->width + 127) / 128, p->rows), 128, 0, st >>> (x->
        val, out + (size_t) b * p->rows * out_stride, out_stride, x->keys, *p,
        format, q, radius, inv_2ss, inv_2sr);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctnorm: image kernel");
  }
  return TRUE;
}
