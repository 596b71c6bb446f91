/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: en-face projection and volume rendering (see
 * aooct-cuda-views.h). */
#include <stdint.h>
#include <limits.h>

#include "aooct-cuda-views.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-layers.h"
#include "aooct-norm-range.h"

#include "aooct-cuda-keys-kernels.cuh"

/* Index of crop row @r in an A-line: a negative (full-range, spec section
 * 9) depth bin is FFT bin P2 + bin. */
#define VIEW_BIN(p, r) \
  ((p).crop_start + (r) + ((p).crop_start + (r) < 0 ? (p).samples : 0))

#define THREADS AOOCT_KEYS_THREADS
typedef AooctRangeKeys VolumeRange;

/* One warp per A-line: mean (summed in double, as on the CPU) or maximum
 * of I over the crop, then dB. */
static __global__ void
enface_collect (const float2 * in, float *e, VolumeRange * range,
    AooctViewParams p, int projection, int log_mode, int first, int count)
{
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long) blockIdx.x * blockDim.x + threadIdx.x)
      >> 5;
  const long long total = (long long) count * p.alines;
  float lo = INFINITY, hi = -INFINITY;

  if (warp < total) {
    const float2 *c = in + warp * p.samples;
    double sum = 0.0;
    float mx = -INFINITY, v;

    for (int r = lane; r < p.rows; r += 32) {
      float i = aooct_norm_intensity (c[VIEW_BIN (p, r)].x,
          c[VIEW_BIN (p, r)].y);
      sum += i;
      mx = fmaxf (mx, i);
    }
    for (int o = 16; o > 0; o >>= 1) {
      sum += __shfl_down_sync (0xffffffffu, sum, o);
      mx = fmaxf (mx, __shfl_down_sync (0xffffffffu, mx, o));
    }
    v = projection == AOOCT_ENFACE_MAX ? mx : (float) (sum / p.rows);
    v = log_mode ? aooct_norm_db (v) : v;
    if (lane == 0) {
      e[(long long) first * p.alines + warp] = v;
      lo = hi = v;
    }
  }
  aooct_keys_block_fold (lo, hi, range);
}

/* layer=brightest: one thread per A-line, the mean (in double) or maximum
 * of I over the slab [z_l + slab_start, z_l + slab_end) inside the
 * B-scan's bins, then dB; B-scan blockIdx.y of the buffer */
static __global__ void
enface_collect_slab (const float2 * in, const int *z_l, float *e,
    VolumeRange * range, AooctViewParams p, int projection, int log_mode,
    int first)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  const int b = blockIdx.y;
  float lo = INFINITY, hi = -INFINITY;

  if (m < p.alines) {
    const float2 *c = in + ((long long) b * p.alines + m) * p.samples;
    const int zl = z_l[(long long) b * p.alines + m];
    const int z0 = max (zl + p.slab_start, p.lp.bin_lo);
    const int z1 = min (zl + p.slab_end, p.lp.bin_hi);
    double sum = 0.0;
    float mx = -INFINITY, v;

    for (int z = z0; z < z1; z++) {
      float2 x = c[z < 0 ? z + p.samples : z];
      float i = aooct_norm_intensity (x.x, x.y);
      sum += i;
      mx = fmaxf (mx, i);
    }
    if (z1 <= z0)
      v = 0.0f;
    else
      v = projection == AOOCT_ENFACE_MAX ? mx : (float) (sum / (z1 - z0));
    v = log_mode ? aooct_norm_db (v) : v;
    e[(long long) (first + b) * p.alines + m] = v;
    lo = hi = v;
  }
  aooct_keys_block_fold (lo, hi, range);
}

static gboolean
start_volume (gint first, gpointer keys, AooctCudaStream stream,
    GError ** error)
{
  if (first != 0)
    return TRUE;
  aooct_keys_reset <<< 1, 1, 0, stream >>> ((VolumeRange *) keys);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooct views: range reset kernel");
  return TRUE;
}

static __device__ __forceinline__ void
put_pixel (uint8_t * row, int c, int rgba, uint8_t g)
{
  if (rgba)
    ((uchar4 *) row)[c] = make_uchar4 (g, g, g, 255);
  else
    row[c] = g;
}

static __global__ void
enface_emit (const float *e, uint8_t * out, size_t out_stride,
    const VolumeRange * range, AooctViewParams p, int filled)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x, v = blockIdx.y;
  uint8_t g = 0;

  if (m >= p.alines)
    return;
  if (v < filled)
    g = (uint8_t) aooct_norm_grey (e[(long long) v * p.alines + m],
        range->lo, range->scale, 255.0f);
  put_pixel (out + (size_t) v * out_stride, m, p.rgba, g);
}

static __global__ void
render_collect (const float2 * in, float *vol, VolumeRange * range,
    AooctViewParams p, int log_mode, int first, int count)
{
  const long long total = (long long) count * p.alines * p.rows;
  const long long stride = (long long) gridDim.x * blockDim.x;
  float *dst = vol + (long long) first * p.alines * p.rows;
  float lo = INFINITY, hi = -INFINITY;

  for (long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
      t < total; t += stride) {
    const long long a = t / p.rows;
    const int r = (int) (t - a * p.rows);
    float2 c = in[a * p.samples + VIEW_BIN (p, r)];
    float v = aooct_norm_intensity (c.x, c.y);

    v = log_mode ? aooct_norm_db (v) : v;
    dst[t] = v;
    lo = fminf (lo, v);
    hi = fmaxf (hi, v);
  }
  aooct_keys_block_fold (lo, hi, range);
}

/* One thread per pixel; threads of a warp take consecutive image rows
 * (consecutive depth rows of the volume in the B-scan-axis view). */
static __global__ void
render_emit (const float *vol, uint8_t * out, size_t out_stride,
    const VolumeRange * range, AooctViewParams p, AooctRenderCamera cam,
    int mode, int filled)
{
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y;
  const float lo = range->lo, scale = range->scale, unit = scale / 255.0f;
  float ray[3], best = -INFINITY, colour = 0.0f, alpha = 0.0f;
  int hit = 0;
  uint8_t g;

  if (j >= cam.height)
    return;
  aooct_render_ray (&cam, i, j, ray);
  for (int k = 0; k < cam.samples; k++) {
    long long idx = aooct_render_voxel (&cam, ray, k, filled);
    float v;

    if (idx < 0)
      continue;
    hit = 1;
    v = __ldg (vol + idx);
    if (mode == AOOCT_RENDER_MIP) {
      best = v > best ? v : best;
    } else if (!aooct_render_composite_step ((v - lo) * unit, &colour,
            &alpha)) {
      break;
    }
  }
  if (!hit)
    g = 0;
  else if (mode == AOOCT_RENDER_MIP)
    g = (uint8_t) aooct_norm_grey (best, lo, scale, 255.0f);
  else
    g = (uint8_t) aooct_norm_grey (colour, 0.0f, 255.0f, 255.0f);
  put_pixel (out + (size_t) j * out_stride, i, p.rgba, g);
}

/* Device scratch of the range keys (free with aooct_cuda_free()). */
static gboolean
keys_new (gpointer * keys, GError ** error)
{
  VolumeRange init = { INT_MAX, INT_MIN, 0.0f, 0.0f, 0.0f };

  *keys = NULL;
  if (!aooct_cuda_upload_new (keys, &init, sizeof (init), error)) {
    aooct_cuda_free (*keys);
    *keys = NULL;
    return FALSE;
  }
  return TRUE;
}

static gboolean
enface_collect_launch (const AooctViewParams * p,
    AooctEnfaceProjection projection, gboolean log_mode, const gfloat * in,
    gint first, gint count, gfloat * e, gpointer keys,
    AooctCudaStream stream, GError ** error)
{
  long long warps = (long long) count * p->alines;
  int blocks = (int) ((warps * 32 + THREADS - 1) / THREADS);

  if (!start_volume (first, keys, stream, error))
    return FALSE;
  enface_collect <<< blocks, THREADS, 0, stream >>> ((const float2 *) in, e,
      (VolumeRange *) keys, *p, projection, log_mode ? 1 : 0, first, count);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctenface: projection kernel");
  return TRUE;
}

static gboolean
enface_emit_launch (const AooctViewParams * p,
    const AooctNormSettings * s, const gfloat * e, gint filled, guint8 * out,
    gsize out_stride, gpointer keys, AooctCudaStream stream, GError ** error)
{
  aooct_keys_finish <<< 1, 1, 0, stream >>> ((VolumeRange *) keys, *s, 255.0);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctenface: range kernel");
  enface_emit <<< dim3 ((p->alines + THREADS - 1) / THREADS, p->volume),
      THREADS, 0, stream >>> (e, out, out_stride, (VolumeRange *) keys, *p,
      filled);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctenface: image kernel");
  return TRUE;
}

static gboolean
render_collect_launch (const AooctViewParams * p, gboolean log_mode,
    const gfloat * in, gint first, gint count, gfloat * vol, gpointer keys,
    AooctCudaStream stream, GError ** error)
{
  long long total = (long long) count * p->alines * p->rows;
  int blocks = (int) MIN ((total + THREADS * 4 - 1) / (THREADS * 4), 4096LL);

  if (!start_volume (first, keys, stream, error))
    return FALSE;
  render_collect <<< MAX (blocks, 1), THREADS, 0, stream >>> ((const float2 *)
      in, vol, (VolumeRange *) keys, *p, log_mode ? 1 : 0, first, count);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctrender: volume kernel");
  return TRUE;
}

static gboolean
render_emit_launch (const AooctViewParams * p,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, const gfloat * vol, gint filled,
    guint8 * out, gsize out_stride, gpointer keys, AooctCudaStream stream,
    GError ** error)
{
  if (camera->width > 65535) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctrender on CUDA: an image %d pixels wide is too wide (at most "
        "65535)", camera->width);
    return FALSE;
  }
  aooct_keys_finish <<< 1, 1, 0, stream >>> ((VolumeRange *) keys, *s, 255.0);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctrender: range kernel");
  render_emit <<< dim3 ((camera->height + 127) / 128, camera->width), 128, 0,
      stream >>> (vol, out, out_stride, (VolumeRange *) keys, *p, *camera,
      mode, filled);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctrender: ray casting kernel");
  return TRUE;
}

/* ---- the plans: the values of one volume, its range keys ---- */

struct _AooctCudaEnfacePlan
{
  AooctViewParams p;
  AooctEnfaceProjection projection;
  gfloat *e;                    /* V x M values (device) */
  gpointer keys;                /* the volume's range (device) */
  /* layer=brightest (device), for the B-scans of one buffer: the
   * profile's sums, z_B, z_l; grown to the largest buffer seen */
  gdouble *profile;
  gint *z_b, *z_l;
  gint layer_bscans;
};

struct _AooctCudaRenderPlan
{
  AooctViewParams p;
  gfloat *vol;                  /* V x M x rows values (device) */
  gpointer keys;
};

AooctCudaEnfacePlan *
aooct_cuda_enface_plan_new (const AooctViewParams * p,
    GError ** error)
{
  AooctCudaEnfacePlan *plan = g_new0 (AooctCudaEnfacePlan, 1);

  plan->p = *p;
  plan->projection = p->projection;
  if (!aooct_cuda_malloc ((gsize) p->volume * p->alines * sizeof (gfloat),
          (gpointer *) & plan->e, error)
      || !keys_new (&plan->keys, error)) {
    aooct_cuda_enface_plan_free (plan);
    return NULL;
  }
  return plan;
}

gboolean
aooct_cuda_enface_execute_collect (AooctCudaEnfacePlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    AooctCudaStream stream, GError ** error)
{
  const AooctViewParams *p = &plan->p;

  if (p->layer == AOOCT_ENFACE_LAYER_NONE)
    return enface_collect_launch (&plan->p, plan->projection, log_mode, in,
        first, count, plan->e, plan->keys, stream, error);
  if (count > plan->layer_bscans) {
    /* a buffer of more B-scans than any before: after the work that may
     * still read the old scratch */
    if (!aooct_cuda_stream_sync (stream, error))
      return FALSE;
    aooct_cuda_free (plan->profile);
    aooct_cuda_free (plan->z_b);
    aooct_cuda_free (plan->z_l);
    plan->profile = NULL;
    plan->z_b = plan->z_l = NULL;
    plan->layer_bscans = 0;
    if (!aooct_cuda_malloc (aooct_cuda_layer_scratch_bytes (&p->lp, count),
            (gpointer *) & plan->profile, error)
        || !aooct_cuda_malloc ((gsize) count * sizeof (gint),
            (gpointer *) & plan->z_b, error)
        || !aooct_cuda_malloc ((gsize) count * p->alines * sizeof (gint),
            (gpointer *) & plan->z_l, error))
      return FALSE;
    plan->layer_bscans = count;
  }
  if (!start_volume (first, plan->keys, stream, error)
      || !aooct_cuda_layer_find (&p->lp, in, p->alines, count, plan->profile,
          plan->z_b, plan->z_l, stream, error))
    return FALSE;
  enface_collect_slab <<< dim3 ((p->alines + THREADS - 1) / THREADS, count),
      THREADS, 0, stream >>> ((const float2 *) in, plan->z_l, plan->e,
      (VolumeRange *) plan->keys, *p, plan->projection, log_mode ? 1 : 0,
      first);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctenface: layer slab kernel");
  return TRUE;
}

gboolean
aooct_cuda_enface_execute_emit (AooctCudaEnfacePlan * plan,
    const AooctNormSettings * s, gint filled, guint8 * out, gsize out_stride,
    AooctCudaStream stream, GError ** error)
{
  return enface_emit_launch (&plan->p, s, plan->e, filled, out, out_stride,
      plan->keys, stream, error);
}

void
aooct_cuda_enface_plan_free (AooctCudaEnfacePlan * plan)
{
  if (plan == NULL)
    return;
  aooct_cuda_free (plan->e);
  aooct_cuda_free (plan->keys);
  aooct_cuda_free (plan->profile);
  aooct_cuda_free (plan->z_b);
  aooct_cuda_free (plan->z_l);
  g_free (plan);
}

AooctCudaRenderPlan *
aooct_cuda_render_plan_new (const AooctViewParams * p, GError ** error)
{
  AooctCudaRenderPlan *plan = g_new0 (AooctCudaRenderPlan, 1);

  plan->p = *p;
  if (!aooct_cuda_malloc ((gsize) p->volume * p->alines * p->rows *
          sizeof (gfloat), (gpointer *) & plan->vol, error)
      || !keys_new (&plan->keys, error)) {
    aooct_cuda_render_plan_free (plan);
    return NULL;
  }
  return plan;
}

gboolean
aooct_cuda_render_execute_collect (AooctCudaRenderPlan * plan,
    gboolean log_mode, const gfloat * in, gint first, gint count,
    AooctCudaStream stream, GError ** error)
{
  return render_collect_launch (&plan->p, log_mode, in, first, count,
      plan->vol, plan->keys, stream, error);
}

gboolean
aooct_cuda_render_execute_emit (AooctCudaRenderPlan * plan,
    const AooctNormSettings * s, AooctRenderMode mode,
    const AooctRenderCamera * camera, gint filled, guint8 * out,
    gsize out_stride, AooctCudaStream stream, GError ** error)
{
  return render_emit_launch (&plan->p, s, mode, camera, plan->vol, filled,
      out, out_stride, plan->keys, stream, error);
}

void
aooct_cuda_render_plan_free (AooctCudaRenderPlan * plan)
{
  if (plan == NULL)
    return;
  aooct_cuda_free (plan->vol);
  aooct_cuda_free (plan->keys);
  g_free (plan);
}
