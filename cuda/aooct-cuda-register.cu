/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: aooctregister (see aooct-cuda-register.h). */
#include <math.h>
#include <stdint.h>
#include <cublas_v2.h>

#include "aooct-cuda-register.h"
#include "aooct-cuda-check.h"
#include "aooct-register-pick.h"

#define THREADS 256
/* buffers whose shifts may be on their way to the host at once */
#define SLOTS 8
/* blocks per B-scan of the integer peak search, at most */
#define PEAK_BLOCKS 64
/* blocks of the cross-power kernel over all B-scans of a launch, at most
 * (at least CROSS_BLOCKS_MIN per B-scan) */
#define CROSS_BLOCKS 4096
#define CROSS_BLOCKS_MIN 64

#define AOOCT_CUBLAS_CHECK(call, error, what) G_STMT_START {           \
    cublasStatus_t _aooct_s = (call);                                  \
    if (G_UNLIKELY (_aooct_s != CUBLAS_STATUS_SUCCESS)) {              \
      g_set_error ((error), AOOCT_ERROR, AOOCT_ERROR_FAILED,           \
          "%s failed: %s (%d)", (what),                                \
          cublasGetStatusString (_aooct_s), (int) _aooct_s);           \
      return FALSE;                                                    \
    }                                                                  \
  } G_STMT_END

/* One B-scan's shift as the device decides it */
typedef struct
{
  int qz, qx;                   /* 1/U pixel */
  float rho;
  int flags;                    /* SHIFT_REJECTED, SHIFT_COPY */
} Shift;

#define SHIFT_REJECTED 1
#define SHIFT_COPY 2            /* the output is the input (rejected or the
                                 * reference itself) */

/* a candidate of a peak search */
typedef struct
{
  float c;
  int qz, qx, valid;
} Cand;

typedef struct
{
  cufftHandle h;
  gboolean valid;
} Plan2d;

typedef struct
{
  Shift *host;                  /* page-locked, bscans entries */
  AooctCudaEvent done;
  guint64 first;                /* bscan number of entry 0 */
  gint count;
  gboolean busy;
} Slot;

struct _AooctCudaRegisterPlan
{
  AooctRegisterParams p;
  gint ni, nblk;
  gsize crop, full;             /* M C, M P2 */
  float2 *amp, *cross, *corr;   /* bscans x crop */
  float2 *ref;                  /* 2 x crop: the reference's spectrum */
  double *ref_energy;           /* 2 */
  int *ref_slot;                /* 1: which of the two is the reference */
  double *energy;               /* bscans */
  Cand *partial;                /* bscans x nblk */
  int *peak;                    /* bscans x 2 */
  float2 *ez, *ex, *t;          /* bscans x ni x C, x ni x M, x ni x M */
  float2 *cfine;                /* bscans x ni x ni, times C M */
  cublasHandle_t blas;          /* the upsampled DFT's two matrix products */
  Shift *shift;                 /* bscans */
  float2 *hm, *hz;              /* bscans x M, bscans x P2: apply factors */
  gpointer work;                /* the cuFFT plans' work area */
  Plan2d amp_b, amp_1, corr_b, corr_1, bscan_b, bscan_1;
  Slot slots[SLOTS];
  gint slot_head, slot_used;
  gboolean have_ref;
  guint64 count;
};

/* ---- kernels ---------------------------------------------------------- */

/* the better of two candidates (the spec's order; invalid ones lose) */
static __device__ __forceinline__ Cand
cand_pick (Cand a, Cand b)
{
  if (!b.valid)
    return a;
  if (!a.valid)
    return b;
  return aooct_register_better (a.c, a.qz, a.qx, b.c, b.qz, b.qx) ? a : b;
}

/* the block's best candidate in s[0] (blockDim.x == THREADS) */
static __device__ Cand
block_pick (Cand mine, Cand * s)
{
  s[threadIdx.x] = mine;
  __syncthreads ();
  for (int o = THREADS / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o)
      s[threadIdx.x] = cand_pick (s[threadIdx.x], s[threadIdx.x + o]);
    __syncthreads ();
  }
  return s[0];
}

static __device__ __forceinline__ float2
twiddle (long long f, long long q, long long d)
{
  float s, c;

  sincospif ((float) (2.0 * aooct_register_turns (f, q, d)), &s, &c);
  return make_float2 (c, s);
}

/* amp[b][m][r] = |X[b][m][bin (r)]| as a complex value, and energy[b] =
 * 0, where cross_power's sums start (a memset launch less); grid (rows,
 * M, B) */
static __global__ void
crop_amplitude (const float2 * in, float2 * amp, double *energy,
    AooctRegisterParams p)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = blockIdx.y, b = blockIdx.z;

  if (r == 0 && m == 0)
    energy[b] = 0;
  if (r >= p.rows)
    return;
  const float2 v = in[((size_t) b * p.alines + m) * p.samples +
      aooct_register_bin (p.crop_start, p.samples, r)];
  amp[((size_t) b * p.alines + m) * p.rows + r] =
      make_float2 (hypotf (v.x, v.y), 0.0f);
}

static __device__ void
block_add_double (double v, double *target)
{
  __shared__ double s[THREADS];

  s[threadIdx.x] = v;
  __syncthreads ();
  for (int o = THREADS / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o)
      s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads ();
  }
  if (threadIdx.x == 0)
    atomicAdd (target, s[0]);
}

/* cross = conj (R^) A^ with the DC bins 0 (the means), energy[b] +=
 * |A^|^2; grid (min (ceil (crop / THREADS), max
 * (CROSS_BLOCKS / B, CROSS_BLOCKS_MIN)), B), each block striding over the
 * crop (a few hundred atomic adds per B-scan instead of one per THREADS
 * bins where there are many B-scans) */
static __global__ void
cross_power (const float2 * amp, const float2 * ref, const int *ref_slot,
    float2 * cross, double *energy, size_t crop)
{
  const int b = blockIdx.y;
  const float2 *rs = ref + (size_t) ref_slot[0] * crop;
  double e = 0;

  for (size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x; k < crop;
      k += (size_t) gridDim.x * blockDim.x) {
    const float2 a = k == 0 ? make_float2 (0, 0) : amp[b * crop + k];
    const float2 r = rs[k];
    const float2 g = make_float2 (r.x * a.x + r.y * a.y, r.x * a.y - r.y * a.x);

    cross[b * crop + k] = g;
    e += (double) a.x * a.x + (double) a.y * a.y;
  }
  block_add_double (e, &energy[b]);
}

/* The reference's spectrum from amp[0] into slot @dst (or, @dst < 0, the
 * slot that is not the reference), DC 0, its energy added; unless the
 * B-scan's shift says rejected (@shift NULL: unconditionally). */
static __global__ void
make_reference (const float2 * amp, float2 * ref, double *ref_energy,
    const int *ref_slot, int dst, const Shift * shift, size_t crop)
{
  const size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  const int slot = dst >= 0 ? dst : 1 - ref_slot[0];
  double e = 0;

  if (shift && (shift->flags & SHIFT_REJECTED))
    return;
  if (k < crop) {
    const float2 a = k == 0 ? make_float2 (0, 0) : amp[k];

    ref[(size_t) slot * crop + k] = a;
    e = (double) a.x * a.x + (double) a.y * a.y;
  }
  block_add_double (e, &ref_energy[slot]);
}

/* one thread: after make_reference into the other slot, that slot is the
 * reference, unless rejected (fine_pick cleared its energy before) */
static __global__ void
reference_flip (int *ref_slot, const Shift * shift)
{
  if (shift->flags & SHIFT_REJECTED)
    return;
  ref_slot[0] = 1 - ref_slot[0];
}

/* The best integer shift of c (corr = C M c) over |dz| <= max_dz, |dx| <=
 * max_dx: one candidate per block; grid (nblk, B) */
static __global__ void
integer_peak (const float2 * corr, Cand * partial, AooctRegisterParams p,
    int nblk)
{
  __shared__ Cand s[THREADS];
  const int b = blockIdx.y, wz = 2 * p.max_dz + 1;
  const long long n = (long long) wz * (2 * p.max_dx + 1);
  const float2 *cb = corr + (size_t) b * p.alines * p.rows;
  Cand best = { 0, 0, 0, 0 };

  for (long long i = (long long) blockIdx.x * THREADS + threadIdx.x; i < n;
      i += (long long) nblk * THREADS) {
    const int dz = (int) (i % wz) - p.max_dz, dx = (int) (i / wz) - p.max_dx;
    const int mz = aooct_register_index (dz % p.rows, p.rows);
    const int mx = aooct_register_index (dx % p.alines, p.alines);
    Cand c = { cb[(size_t) mx * p.rows + mz].x, dz, dx, 1 };

    best = cand_pick (best, c);
  }
  best = block_pick (best, s);
  if (threadIdx.x == 0)
    partial[b * nblk + blockIdx.x] = best;
}

/* the integer peak of each B-scan from its blocks' candidates: each lane
 * reads every 32nd (loads side by side rather than one thread's chain of
 * dependent loads), then the warp's shuffles; the order of the picks does
 * not matter (cand_pick is the spec's total order).  grid (B), one warp */
static __global__ void
peak_reduce (const Cand * partial, int nblk, int *peak)
{
  const int b = blockIdx.x;
  Cand best = { 0, 0, 0, 0 };

  for (int i = threadIdx.x; i < nblk; i += 32)
    best = cand_pick (best, partial[b * nblk + i]);
  for (int o = 16; o > 0; o >>= 1) {
    Cand other;

    other.c = __shfl_down_sync (0xffffffffu, best.c, o);
    other.qz = __shfl_down_sync (0xffffffffu, best.qz, o);
    other.qx = __shfl_down_sync (0xffffffffu, best.qx, o);
    other.valid = __shfl_down_sync (0xffffffffu, best.valid, o);
    best = cand_pick (best, other);
  }
  if (threadIdx.x == 0) {
    peak[2 * b] = best.qz;
    peak[2 * b + 1] = best.qx;
  }
}

/* ez[b][i][k] = exp (2 pi j kz (dz0 U + i - U) / (U C)), ex likewise over
 * the A-lines; grid (ceil (ni (C + M) / THREADS), B) */
static __global__ void
fine_twiddles (const int *peak, float2 * ez, float2 * ex,
    AooctRegisterParams p, int ni)
{
  const long long idx = (long long) blockIdx.x * THREADS + threadIdx.x;
  const int b = blockIdx.y, U = p.upsample;
  const long long nz = (long long) ni * p.rows;

  if (idx < nz) {
    const int i = (int) (idx / p.rows), k = (int) (idx % p.rows);
    const int q = peak[2 * b] * U + i - U;

    ez[(size_t) b * nz + idx] = twiddle (aooct_register_freq (k, p.rows), q,
        (long long) U * p.rows);
  } else if (idx < nz + (long long) ni * p.alines) {
    const long long j0 = idx - nz;
    const int j = (int) (j0 / p.alines), k = (int) (j0 % p.alines);
    const int q = peak[2 * b + 1] * U + j - U;

    ex[(size_t) b * ni * p.alines + j0] =
        twiddle (aooct_register_freq (k, p.alines), q,
        (long long) U * p.alines);
  }
}

/* The apply's factor @idx of one B-scan's shift @sh: idx < M: hm[idx] =
 * exp (2 pi j km dx / M) (signed km), else hz[q = idx - M] = exp (-2 pi j
 * dz i / P2) with i = -q mod P2 (the unsigned frequency of the spectral
 * sample), each scaled by 1 / sqrt (M P2) */
static __device__ void
apply_factor (Shift sh, int idx, float2 * hm, float2 * hz,
    const AooctRegisterParams & p)
{
  const int U = p.upsample;
  const float scale = (float) (1.0 / sqrt ((double) p.alines * p.samples));
  float2 w;

  if (idx < p.alines) {
    w = twiddle (aooct_register_freq (idx, p.alines), sh.qx,
        (long long) U * p.alines);
    hm[idx] = make_float2 (w.x * scale, w.y * scale);
  } else if (idx < p.alines + p.samples) {
    const int q = idx - p.alines, i = q == 0 ? 0 : p.samples - q;

    w = twiddle (-(long long) sh.qz, i, (long long) U * p.samples);
    hz[q] = make_float2 (w.x * scale, w.y * scale);
  }
}

/* The fine peak within the shift limits, rho, rejected; B-scan @ref_b (or
 * none, -1) is the reference itself: 0, 0, 1, copied.  Then the apply's
 * factors of that shift into hm[b] (M) and hz[b] (P2) (one launch less
 * than a kernel of their own).  With @next_ref (reference=previous, one
 * B-scan), unless rejected, the energy of the reference slot that
 * make_reference fills next is cleared (a launch less).  grid (B) */
static __global__ void
fine_pick (const float2 * cfine, const int *peak, const double *energy,
    double *ref_energy, const int *ref_slot, Shift * shift,
    float2 * hm, float2 * hz, AooctRegisterParams p, int ni,
    float min_correlation, int ref_b, int next_ref)
{
  __shared__ Cand s[THREADS];
  __shared__ Shift picked;
  const int b = blockIdx.x, U = p.upsample;
  const int dz0 = peak[2 * b], dx0 = peak[2 * b + 1];
  const float norm = (float) (1.0 / ((double) p.rows * p.alines));
  Cand best = { 0, 0, 0, 0 };

  for (int k = threadIdx.x; k < ni * ni; k += THREADS) {
    const int i = k / ni, j = k % ni;
    Cand c = { cfine[(size_t) b * ni * ni + k].x * norm, dz0 * U + i - U,
      dx0 * U + j - U, 1
    };

    if (aooct_register_iabs (c.qz) <= p.max_dz * U
        && aooct_register_iabs (c.qx) <= p.max_dx * U)
      best = cand_pick (best, c);
  }
  best = block_pick (best, s);
  if (threadIdx.x == 0) {
    Shift sh;

    if (b == ref_b) {
      sh.qz = sh.qx = 0;
      sh.rho = 1.0f;
      sh.flags = SHIFT_COPY;
    } else {
      const double crop = (double) p.rows * p.alines;
      const double d = sqrt ((ref_energy[ref_slot[0]] / crop) *
          (energy[b] / crop));

      sh.qz = best.qz;
      sh.qx = best.qx;
      sh.rho = d > 0 ? (float) (best.c / d) : 0.0f;
      sh.flags = sh.rho < min_correlation ? SHIFT_REJECTED | SHIFT_COPY : 0;
    }
    shift[b] = sh;
    picked = sh;
    if (next_ref && !(sh.flags & SHIFT_REJECTED))
      ref_energy[1 - ref_slot[0]] = 0;
  }
  __syncthreads ();
  for (int idx = threadIdx.x; idx < p.alines + p.samples; idx += THREADS)
    apply_factor (picked, idx, hm + (size_t) b * p.alines,
        hz + (size_t) b * p.samples, p);
}

/* the reference pass's result alone (no estimate ran); one thread */
static __global__ void
reference_result (Shift * shift)
{
  shift->qz = shift->qx = 0;
  shift->rho = 1.0f;
  shift->flags = SHIFT_COPY;
}

/* the 2-D spectrum of each B-scan times hm[km] hz[q]; grid (P2, M, B) */
static __global__ void
apply_ramp (float2 * x, const float2 * hm, const float2 * hz,
    AooctRegisterParams p)
{
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  const int km = blockIdx.y, b = blockIdx.z;

  if (q >= p.samples)
    return;
  const float2 a = hm[(size_t) b * p.alines + km];
  const float2 c = hz[(size_t) b * p.samples + q];
  const float2 f = make_float2 (a.x * c.x - a.y * c.y, a.x * c.y + a.y * c.x);
  float2 *v = x + ((size_t) b * p.alines + km) * p.samples + q;
  const float2 u = *v;

  *v = make_float2 (u.x * f.x - u.y * f.y, u.x * f.y + u.y * f.x);
}

/* the output's last touches: copied B-scans (rejected, the reference) are
 * the input, A-lines whose source lies outside are 0; grid (P2, M, B) */
static __global__ void
apply_finish (const float2 * in, float2 * out, const Shift * shift,
    AooctRegisterParams p)
{
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = blockIdx.y, b = blockIdx.z;
  const Shift sh = shift[b];
  const size_t i = ((size_t) b * p.alines + m) * p.samples + q;

  if (q >= p.samples)
    return;
  if (sh.flags & SHIFT_COPY)
    out[i] = in[i];
  else if (!aooct_register_aline_inside (m, sh.qx, p.upsample, p.alines))
    out[i] = make_float2 (0, 0);
}

/* ---- plans ------------------------------------------------------------ */

static gboolean
plan2d_make (Plan2d * pl, int n0, int n1, int batch, const gchar * what,
    gsize * work_max, GError ** error)
{
  long long n[2] = { n0, n1 };
  size_t work = 0;

  AOOCT_CUFFT_CHECK (cufftCreate (&pl->h), error, "cufftCreate for %s",
      what);
  pl->valid = TRUE;
  AOOCT_CUFFT_CHECK (cufftSetAutoAllocation (pl->h, 0), error,
      "cufftSetAutoAllocation for %s", what);
  AOOCT_CUFFT_CHECK (cufftMakePlanMany64 (pl->h, 2, n, NULL, 1,
          (long long) n0 * n1, NULL, 1, (long long) n0 * n1, CUFFT_C2C,
          batch, &work), error, "cufftMakePlanMany64 for %s (%d x %d, "
      "batch of %d)", what, n0, n1, batch);
  *work_max = MAX (*work_max, work);
  return TRUE;
}

static void
plan2d_destroy (Plan2d * pl)
{
  cufftResult res;

  if (!pl->valid)
    return;
  res = cufftDestroy (pl->h);
  /* as aooct_cufft_plan_destroy: quiet where a device fault lost the
   * context */
  if (res != CUFFT_SUCCESS
      && !aooct_cuda_error_is_sticky (cudaPeekAtLastError ()))
    g_warning ("aooctregister: cufftDestroy failed: %s",
        aooct_cufft_result_name (res));
  pl->valid = FALSE;
}

static gboolean
plan2d_run (Plan2d * pl, float2 * in, float2 * out, int dir,
    AooctCudaStream stream, const gchar * what, GError ** error)
{
  AOOCT_CUFFT_CHECK (cufftSetStream (pl->h, stream), error,
      "cufftSetStream for %s", what);
  AOOCT_CUFFT_CHECK (cufftExecC2C (pl->h, (cufftComplex *) in,
          (cufftComplex *) out, dir), error, "cufftExecC2C for %s", what);
  return TRUE;
}

/* plain float32 products (no TF32 tensor-core shortcut, whose 10-bit
 * mantissa would move the fine peak) */
static gboolean
blas_new (AooctCudaRegisterPlan * r, GError ** error)
{
  AOOCT_CUBLAS_CHECK (cublasCreate (&r->blas), error,
      "cublasCreate for aooctregister");
  AOOCT_CUBLAS_CHECK (cublasSetMathMode (r->blas, CUBLAS_PEDANTIC_MATH),
      error, "cublasSetMathMode for aooctregister");
  return TRUE;
}

static gboolean
alloc (gsize bytes, gpointer ptr, GError ** error)
{
  return aooct_cuda_malloc (MAX (bytes, 1), (gpointer *) ptr, error);
}

AooctCudaRegisterPlan *
aooct_cuda_register_plan_new (const AooctRegisterParams * p, GError ** error)
{
  AooctCudaRegisterPlan *r = g_new0 (AooctCudaRegisterPlan, 1);
  const gsize B = p->bscans;
  gsize work = 0, ncand;
  gint i;
  gboolean ok;

  r->p = *p;
  r->ni = 2 * p->upsample + 1;
  r->crop = (gsize) p->alines * p->rows;
  r->full = (gsize) p->alines * p->samples;
  ncand = (gsize) (2 * p->max_dz + 1) * (2 * p->max_dx + 1);
  r->nblk = (gint) MIN ((ncand + THREADS - 1) / THREADS, PEAK_BLOCKS);
  if (p->bscans > 65535 || p->alines > 65535) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_CAPS,
        "aooctregister on CUDA: at most 65535 B-scans per buffer and "
        "A-lines per B-scan, got %d and %d", p->bscans, p->alines);
    g_free (r);
    return NULL;
  }
  ok = alloc (B * r->crop * sizeof (float2), &r->amp, error)
      && alloc (B * r->crop * sizeof (float2), &r->cross, error)
      && alloc (B * r->crop * sizeof (float2), &r->corr, error)
      && alloc (2 * r->crop * sizeof (float2), &r->ref, error)
      && alloc (2 * sizeof (double), &r->ref_energy, error)
      && alloc (sizeof (int), &r->ref_slot, error)
      && alloc (B * sizeof (double), &r->energy, error)
      && alloc (B * r->nblk * sizeof (Cand), &r->partial, error)
      && alloc (B * 2 * sizeof (int), &r->peak, error)
      && alloc (B * r->ni * p->rows * sizeof (float2), &r->ez, error)
      && alloc (B * r->ni * p->alines * sizeof (float2), &r->ex, error)
      && alloc (B * r->ni * p->alines * sizeof (float2), &r->t, error)
      && alloc (B * r->ni * r->ni * sizeof (float2), &r->cfine, error)
      && alloc (B * sizeof (Shift), &r->shift, error)
      && alloc (B * p->alines * sizeof (float2), &r->hm, error)
      && alloc (B * p->samples * sizeof (float2), &r->hz, error)
      && plan2d_make (&r->amp_b, p->alines, p->rows, p->bscans,
      "aooctregister crop DFT", &work, error)
      && plan2d_make (&r->corr_b, p->alines, p->rows, p->bscans,
      "aooctregister correlation", &work, error)
      && plan2d_make (&r->bscan_b, p->alines, p->samples, p->bscans,
      "aooctregister B-scan DFT", &work, error);
  if (ok && p->bscans > 1)
    ok = plan2d_make (&r->amp_1, p->alines, p->rows, 1,
        "aooctregister crop DFT", &work, error)
        && plan2d_make (&r->corr_1, p->alines, p->rows, 1,
        "aooctregister correlation", &work, error)
        && plan2d_make (&r->bscan_1, p->alines, p->samples, 1,
        "aooctregister B-scan DFT", &work, error);
  if (ok)
    ok = alloc (work, &r->work, error);
  if (ok) {
    Plan2d *all[] = { &r->amp_b, &r->corr_b, &r->bscan_b, &r->amp_1,
      &r->corr_1, &r->bscan_1
    };

    for (i = 0; ok && i < (gint) G_N_ELEMENTS (all); i++)
      if (all[i]->valid) {
        cufftResult res = cufftSetWorkArea (all[i]->h, r->work);

        if (res != CUFFT_SUCCESS)
          ok = aooct_cufft_set_error (res, error,
              "cufftSetWorkArea for aooctregister");
      }
  }
  if (ok)
    ok = blas_new (r, error);
  for (i = 0; ok && i < SLOTS; i++)
    ok = aooct_cuda_malloc_host (B * sizeof (Shift),
        (gpointer *) & r->slots[i].host, error)
        && aooct_cuda_event_new (&r->slots[i].done, error);
  if (!ok) {
    aooct_cuda_register_plan_free (r);
    return NULL;
  }
  return r;
}

/* ---- the results on the host ------------------------------------------ */

/* Reports the oldest slots whose copy has finished (all of them, waiting,
 * with @wait). */
static gboolean
report_done (AooctCudaRegisterPlan * r, gboolean wait, GError ** error)
{
  while (r->slot_used > 0) {
    Slot *s = &r->slots[r->slot_head];
    gboolean done = TRUE;
    gint i;

    if (wait) {
      if (!aooct_cuda_event_sync (s->done, error))
        return FALSE;
    } else if (!aooct_cuda_event_done (s->done, &done, error)) {
      return FALSE;
    }
    if (!done)
      break;
    for (i = 0; i < s->count; i++) {
      const Shift *sh = &s->host[i];
      AooctRegisterResult res = { s->first + i, sh->qz, sh->qx,
        r->p.upsample, sh->rho, (sh->flags & SHIFT_REJECTED) != 0
      };

      if (r->p.report)
        r->p.report (r->p.report_data, &res);
    }
    s->busy = FALSE;
    r->slot_head = (r->slot_head + 1) % SLOTS;
    r->slot_used--;
  }
  return TRUE;
}

gboolean
aooct_cuda_register_drain (AooctCudaRegisterPlan * r, GError ** error)
{
  return report_done (r, TRUE, error);
}

void
aooct_cuda_register_plan_free (AooctCudaRegisterPlan * r)
{
  GError *error = NULL;
  gint i;

  if (r == NULL)
    return;
  if (!report_done (r, TRUE, &error)) {
    g_warning ("aooctregister: the last shifts are lost: %s", error->message);
    g_clear_error (&error);
  }
  if (r->blas) {
    cublasStatus_t st = cublasDestroy (r->blas);

    /* quiet where a device fault lost the context, as plan2d_destroy */
    if (st != CUBLAS_STATUS_SUCCESS
        && !aooct_cuda_error_is_sticky (cudaPeekAtLastError ()))
      g_warning ("aooctregister: cublasDestroy failed: %s",
          cublasGetStatusString (st));
  }
  plan2d_destroy (&r->amp_b);
  plan2d_destroy (&r->corr_b);
  plan2d_destroy (&r->bscan_b);
  plan2d_destroy (&r->amp_1);
  plan2d_destroy (&r->corr_1);
  plan2d_destroy (&r->bscan_1);
  aooct_cuda_free (r->work);
  aooct_cuda_free (r->amp);
  aooct_cuda_free (r->cross);
  aooct_cuda_free (r->corr);
  aooct_cuda_free (r->ref);
  aooct_cuda_free (r->ref_energy);
  aooct_cuda_free (r->ref_slot);
  aooct_cuda_free (r->energy);
  aooct_cuda_free (r->partial);
  aooct_cuda_free (r->peak);
  aooct_cuda_free (r->ez);
  aooct_cuda_free (r->ex);
  aooct_cuda_free (r->t);
  aooct_cuda_free (r->cfine);
  aooct_cuda_free (r->shift);
  aooct_cuda_free (r->hm);
  aooct_cuda_free (r->hz);
  for (i = 0; i < SLOTS; i++) {
    aooct_cuda_free_host (r->slots[i].host);
    if (r->slots[i].done)
      aooct_cuda_event_free (r->slots[i].done);
  }
  g_free (r);
}

void
aooct_cuda_register_reset (AooctCudaRegisterPlan * r)
{
  r->have_ref = FALSE;
  r->count = 0;
}

/* ---- one buffer --------------------------------------------------------- */

/* A view of the plan's arrays for @n B-scans from B-scan @b0 */
typedef struct
{
  const float2 *in;
  float2 *out;
  float2 *amp, *cross, *corr, *ez, *ex, *t, *hm, *hz;
  float2 *cfine;
  double *energy;
  Cand *partial;
  int *peak;
  Shift *shift;
  Plan2d *amp_fft, *corr_fft, *bscan_fft;
  int n;
} View;

static void
view_at (AooctCudaRegisterPlan * r, const float2 * in, float2 * out, int b0,
    int n, View * v)
{
  const gsize ni = r->ni;

  v->in = in + (gsize) b0 * r->full;
  v->out = out + (gsize) b0 * r->full;
  v->amp = r->amp + b0 * r->crop;
  v->cross = r->cross + b0 * r->crop;
  v->corr = r->corr + b0 * r->crop;
  v->ez = r->ez + b0 * ni * r->p.rows;
  v->ex = r->ex + b0 * ni * r->p.alines;
  v->t = r->t + b0 * ni * r->p.alines;
  v->hm = r->hm + (gsize) b0 * r->p.alines;
  v->hz = r->hz + (gsize) b0 * r->p.samples;
  v->cfine = r->cfine + b0 * ni * ni;
  v->energy = r->energy + b0;
  v->partial = r->partial + (gsize) b0 * r->nblk;
  v->peak = r->peak + 2 * b0;
  v->shift = r->shift + b0;
  v->n = n;
  if (n == r->p.bscans) {
    v->amp_fft = &r->amp_b;
    v->corr_fft = &r->corr_b;
    v->bscan_fft = &r->bscan_b;
  } else {
    v->amp_fft = &r->amp_1;
    v->corr_fft = &r->corr_1;
    v->bscan_fft = &r->bscan_1;
  }
}

/* the crop's spectrum of @x (v->n B-scans) into v->amp */
static gboolean
crop_spectrum (AooctCudaRegisterPlan * r, const float2 * x, View * v,
    AooctCudaStream stream, GError ** error)
{
  const AooctRegisterParams *p = &r->p;

  crop_amplitude <<< dim3 ((p->rows + THREADS - 1) / THREADS, p->alines,
      v->n), THREADS, 0, stream >>> (x, v->amp, v->energy, *p);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: crop amplitude kernel");
  return plan2d_run (v->amp_fft, v->amp, v->amp, CUFFT_FORWARD, stream,
      "aooctregister crop DFT", error);
}

/* The reference pass on B-scan b0 alone: its spectrum into slot 0 (the
 * reference), its result 0 0 1 (copy). */
static gboolean
reference_pass (AooctCudaRegisterPlan * r, const float2 * in, float2 * out,
    int b0, AooctCudaStream stream, GError ** error)
{
  const unsigned blocks = (unsigned) ((r->crop + THREADS - 1) / THREADS);
  View v;

  view_at (r, in, out, b0, 1, &v);
  if (!crop_spectrum (r, v.in, &v, stream, error)
      || !aooct_cuda_memset_async (r->ref_slot, 0, sizeof (int), stream, error)
      || !aooct_cuda_memset_async (r->ref_energy, 0, sizeof (double), stream,
          error))
    return FALSE;
  make_reference <<< blocks, THREADS, 0, stream >>> (v.amp, r->ref,
      r->ref_energy, r->ref_slot, 0, NULL, r->crop);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: reference kernel");
  reference_result <<< 1, 1, 0, stream >>> (v.shift);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: reference result kernel");
  r->have_ref = TRUE;
  return TRUE;
}

/* The upsampled DFT as two matrix products per B-scan (Guizar-Sicairos):
 * t[b][i][km] = sum_kz cross[b][km][kz] ez[b][i][kz], then cfine[b][i][j]
 * = sum_km t[b][i][km] ex[b][j][km] (its real part over C M is c).  In
 * cuBLAS's column-major terms, with every array read as stored: cross[b]
 * is rows x M (ld rows), ez[b] rows x ni (ld rows), t[b] M x ni (ld M) =
 * cross^T ez; ex[b] is M x ni (ld M), cfine[b] ni(j) x ni(i) (ld ni) =
 * ex^T t. */
static gboolean
fine_products (AooctCudaRegisterPlan * r, View * v, AooctCudaStream stream,
    GError ** error)
{
  const AooctRegisterParams *p = &r->p;
  const int ni = r->ni;
  const cuComplex one = { 1.0f, 0.0f }, zero = { 0.0f, 0.0f };

  AOOCT_CUBLAS_CHECK (cublasSetStream (r->blas, (cudaStream_t) stream),
      error, "cublasSetStream for aooctregister");
  AOOCT_CUBLAS_CHECK (cublasCgemmStridedBatched (r->blas, CUBLAS_OP_T,
          CUBLAS_OP_N, p->alines, ni, p->rows, &one,
          (const cuComplex *) v->cross, p->rows, (long long) r->crop,
          (const cuComplex *) v->ez, p->rows, (long long) ni * p->rows,
          &zero, (cuComplex *) v->t, p->alines, (long long) ni * p->alines,
          v->n), error, "aooctregister: cublasCgemmStridedBatched (upsampled "
      "DFT over depth)");
  AOOCT_CUBLAS_CHECK (cublasCgemmStridedBatched (r->blas, CUBLAS_OP_T,
          CUBLAS_OP_N, ni, ni, p->alines, &one, (const cuComplex *) v->ex,
          p->alines, (long long) ni * p->alines, (const cuComplex *) v->t,
          p->alines, (long long) ni * p->alines, &zero,
          (cuComplex *) v->cfine, ni, (long long) ni * ni, v->n), error,
      "aooctregister: cublasCgemmStridedBatched (upsampled DFT over "
      "A-lines)");
  return TRUE;
}

/* Estimate and apply for v's B-scans; @ref_b: the one among them that is
 * the reference itself (its spectrum already made), or -1. */
static gboolean
register_view (AooctCudaRegisterPlan * r, View * v, float min_correlation,
    int ref_b, AooctCudaStream stream, GError ** error)
{
  const AooctRegisterParams *p = &r->p;
  const int n = v->n, ni = r->ni;

  if (!crop_spectrum (r, v->in, v, stream, error))
    return FALSE;
  cross_power <<< dim3 ((unsigned) MIN ((r->crop + THREADS - 1) / THREADS,
          MAX (CROSS_BLOCKS / n, CROSS_BLOCKS_MIN)), n), THREADS, 0,
      stream >>> (v->amp, r->ref, r->ref_slot, v->cross, v->energy, r->crop);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: cross-power kernel");
  /* out of place: cuFFT's C2C leaves its input as it was (only C2R may
   * not), so cross stays for the upsampled DFT */
  if (!plan2d_run (v->corr_fft, v->cross, v->corr, CUFFT_INVERSE, stream,
          "aooctregister correlation", error))
    return FALSE;
  integer_peak <<< dim3 (r->nblk, n), THREADS, 0, stream >>> (v->corr,
      v->partial, *p, r->nblk);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: integer peak kernel");
  peak_reduce <<< n, 32, 0, stream >>> (v->partial, r->nblk, v->peak);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: peak kernel");
  fine_twiddles <<< dim3 ((unsigned) (((gsize) ni * (p->rows + p->alines) +
              THREADS - 1) / THREADS), n), THREADS, 0, stream >>> (v->peak,
      v->ez, v->ex, *p, ni);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: twiddle kernel");
  if (!fine_products (r, v, stream, error))
    return FALSE;
  fine_pick <<< n, THREADS, 0, stream >>> (v->cfine, v->peak, v->energy,
      r->ref_energy, r->ref_slot, v->shift, v->hm, v->hz, *p, ni,
      min_correlation, ref_b,
      p->reference == AOOCT_REGISTER_REFERENCE_PREVIOUS);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: pick kernel");

  /* the apply: the B-scans' 2-D DFT from the input into the output (out
   * of place, no copy first: C2C keeps its input, which apply_finish's
   * copies read), the ramps, back */
  if (!plan2d_run (v->bscan_fft, (float2 *) v->in, v->out, CUFFT_FORWARD,
          stream, "aooctregister B-scan DFT", error))
    return FALSE;
  apply_ramp <<< dim3 ((p->samples + THREADS - 1) / THREADS, p->alines, n),
      THREADS, 0, stream >>> (v->out, v->hm, v->hz, *p);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: ramp kernel");
  if (!plan2d_run (v->bscan_fft, v->out, v->out, CUFFT_INVERSE, stream,
          "aooctregister B-scan DFT", error))
    return FALSE;
  apply_finish <<< dim3 ((p->samples + THREADS - 1) / THREADS, p->alines, n),
      THREADS, 0, stream >>> (v->in, v->out, v->shift, *p);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: finish kernel");
  return TRUE;
}

/* reference=previous: the output of v's one B-scan becomes the reference
 * unless it was rejected (decided on the device) */
static gboolean
next_reference (AooctCudaRegisterPlan * r, View * v, AooctCudaStream stream,
    GError ** error)
{
  const unsigned blocks = (unsigned) ((r->crop + THREADS - 1) / THREADS);

  if (!crop_spectrum (r, v->out, v, stream, error))
    return FALSE;
  make_reference <<< blocks, THREADS, 0, stream >>> (v->amp, r->ref,
      r->ref_energy, r->ref_slot, -1, v->shift, r->crop);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: reference kernel");
  reference_flip <<< 1, 1, 0, stream >>> (r->ref_slot, v->shift);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctregister: reference kernel");
  return TRUE;
}

gboolean
aooct_cuda_register_execute (AooctCudaRegisterPlan * r,
    gdouble min_correlation, const gfloat * in_f, gsize in_stride,
    gfloat * out_f, gsize out_stride, AooctCudaStream stream, GError ** error)
{
  const AooctRegisterParams *p = &r->p;
  const float2 *in = (const float2 *) in_f;
  float2 *out = (float2 *) out_f;
  const gsize row = 8 * (gsize) p->samples;
  Slot *s;
  View v;
  gint b;

  if (in_stride != row || out_stride != row) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_DATA,
        "aooctregister on CUDA needs contiguous A-lines (%" G_GSIZE_FORMAT
        " bytes apart), got %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT, row,
        in_stride, out_stride);
    return FALSE;
  }
  /* what earlier buffers computed, and room for this one's shifts */
  if (!report_done (r, FALSE, error))
    return FALSE;
  if (r->slot_used == SLOTS) {
    Slot *oldest = &r->slots[r->slot_head];

    if (!aooct_cuda_event_sync (oldest->done, error)
        || !report_done (r, FALSE, error))
      return FALSE;
  }

  if (p->reference == AOOCT_REGISTER_REFERENCE_FIRST) {
    int ref_b = -1;

    if (!r->have_ref) {
      if (!reference_pass (r, in, out, 0, stream, error))
        return FALSE;
      ref_b = 0;
    }
    /* all B-scans together (a reference among them: its result forced) */
    view_at (r, in, out, 0, p->bscans, &v);
    if (!register_view (r, &v, (float) min_correlation, ref_b, stream, error))
      return FALSE;
  } else {
    for (b = 0; b < p->bscans; b++) {
      if (!r->have_ref) {
        if (!reference_pass (r, in, out, b, stream, error))
          return FALSE;
        view_at (r, in, out, b, 1, &v);
        AOOCT_CUDA_CHECK (cudaMemcpyAsync (v.out, v.in,
                r->full * sizeof (float2), cudaMemcpyDeviceToDevice, stream),
            error, "aooctregister: copying the reference");
        continue;
      }
      view_at (r, in, out, b, 1, &v);
      if (!register_view (r, &v, (float) min_correlation, -1, stream, error)
          || !next_reference (r, &v, stream, error))
        return FALSE;
    }
  }

  /* the shifts to the host, read by a later call */
  s = &r->slots[(r->slot_head + r->slot_used) % SLOTS];
  if (!aooct_cuda_download_async (s->host, r->shift,
          p->bscans * sizeof (Shift), stream, error)
      || !aooct_cuda_event_record (s->done, stream, error))
    return FALSE;
  s->first = r->count;
  s->count = p->bscans;
  s->busy = TRUE;
  r->count += p->bscans;
  r->slot_used++;
  return TRUE;
}
