/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: optoretinography (see aooct-cuda-org.h). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "aooct-cuda-org.h"
#include "aooct-cuda-check.h"
#include "aooct-cuda-layers.h"

#define ORG_THREADS 1024
#define IMG_THREADS 256
/* buffers whose traces may be on their way at once */
#define ORG_SLOTS 32

/* the state of every A-line (device) */
typedef struct
{
  int *z1;                      /* this buffer's first layers, B x M */
  int *z_b;                     /* B */
  double *profile;              /* the finder's scratch */
  int *sep;                     /* z2 - z1 */
  int *has_sep;
  double2 *q;                   /* baseline phasor sums */
  double *psi_prev, *u;
  int *started;
  double2 *pr;                  /* this B-scan's p */
  double *l1, *l2;
  float *ring;                  /* R x M values of u (NaN: invalid) */
  AooctOrgTrace *trace;         /* B */
} OrgState;

/* block-wide reductions over ORG_THREADS threads */
static __device__ double
block_max (double v, double *sh)
{
  sh[threadIdx.x] = v;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sh[threadIdx.x] = fmax (sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads ();
  }
  v = sh[0];
  __syncthreads ();
  return v;
}

static __device__ double
block_sum (double v, double *sh)
{
  sh[threadIdx.x] = v;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads ();
  }
  v = sh[0];
  __syncthreads ();
  return v;
}

static __device__ __forceinline__ double
intensity (float2 c)
{
  return (double) (c.x * c.x + c.y * c.y);
}

/* argmax of S[m][z] over [lo, hi] clipped to [clip_lo, clip_hi): as
 * aooct_layer_argmax_smoothed () */
static __device__ int
second_layer (const float2 * x, const AooctLayerParams & lp, int alines,
    int m, int lo, int hi, int clip_lo, int clip_hi)
{
  const int a0 = max (0, m - lp.half), a1 = min (alines - 1, m + lp.half);
  double best = -1.0;
  int zbest = INT_MIN;

  lo = max (lo, clip_lo);
  hi = min (hi, clip_hi - 1);
  for (int z = lo; z <= hi; z++) {
    const int i = z < 0 ? z + lp.samples : z;
    double s = 0.0;

    for (int a = a0; a <= a1; a++)
      s += intensity (x[(long long) a * lp.samples + i]);
    if (s > best) {
      best = s;
      zbest = z;
    }
  }
  return zbest;
}

/* One block, the buffer's B-scans in order: separation (on a baseline's
 * first B-scan), p and the layers' intensities, validity, baseline,
 * unwrapping, the kymograph's row and the trace. */
static __global__ void
org_bscans (const float2 * in, OrgState st, AooctOrgParams p,
    AooctOrgLive live, int n0, long long rows0, int ring_rows)
{
  __shared__ double sh[ORG_THREADS];
  const AooctLayerParams & lp = p.lp;
  const int M = p.alines;

  for (int b = 0; b < p.bscans; b++) {
    const float2 *x = in + (long long) b * M * p.samples;
    const int *z1 = st.z1 + (long long) b * M;
    const int n = n0 + b;
    float *row = st.ring + ((rows0 + b) % ring_rows) * M;
    double mx1 = -INFINITY, mx2 = -INFINITY;

    for (int m = threadIdx.x; m < M; m += blockDim.x) {
      double pre = 0, pim = 0, i1 = 0, i2 = 0;

      if (n == 0) {
        int z2 = second_layer (x, lp, M, m, z1[m] + p.second_min,
            z1[m] + p.second_max, p.crop_start, p.crop_end);
        st.has_sep[m] = z2 != INT_MIN;
        st.sep[m] = z2 != INT_MIN ? z2 - z1[m] : 0;
        st.q[m] = make_double2 (0.0, 0.0);
        st.started[m] = 0;
      }
      if (!st.has_sep[m])
        continue;
      const float2 *c = x + (long long) m * p.samples;
      const int za = z1[m], zc = z1[m] + st.sep[m];
      for (int d = -live.half_window; d <= live.half_window; d++) {
        const bool in1 = za + d >= lp.bin_lo && za + d < lp.bin_hi;
        const bool in2 = zc + d >= lp.bin_lo && zc + d < lp.bin_hi;
        float2 a = make_float2 (0.f, 0.f), e = make_float2 (0.f, 0.f);

        if (in1) {
          a = c[za + d < 0 ? za + d + p.samples : za + d];
          i1 += intensity (a);
        }
        if (in2) {
          e = c[zc + d < 0 ? zc + d + p.samples : zc + d];
          i2 += intensity (e);
        }
        if (in1 && in2) {
          pre += (double) e.x * a.x + (double) e.y * a.y;
          pim += (double) e.y * a.x - (double) e.x * a.y;
        }
      }
      st.pr[m] = make_double2 (pre, pim);
      st.l1[m] = aooct_org_db (i1);
      st.l2[m] = aooct_org_db (i2);
      mx1 = fmax (mx1, st.l1[m]);
      mx2 = fmax (mx2, st.l2[m]);
    }
    mx1 = block_max (mx1, sh);
    mx2 = block_max (mx2, sh);

    double sum = 0.0, sum2 = 0.0, cnt = 0.0;
    for (int m = threadIdx.x; m < M; m += blockDim.x) {
      const double2 pv = st.pr[m];
      double2 q = st.q[m];
      double psi, v;

      row[m] = __int_as_float (0x7fc00000);     /* NaN: invalid */
      if (!st.has_sep[m] || (pv.x == 0.0 && pv.y == 0.0))
        continue;
      if (live.threshold > 0 && (st.l1[m] < mx1 - live.threshold
              || st.l2[m] < mx2 - live.threshold))
        continue;
      if (n < live.baseline) {
        const double a = hypot (pv.x, pv.y);
        q.x += pv.x / a;
        q.y += pv.y / a;
        st.q[m] = q;
      }
      if (q.x == 0.0 && q.y == 0.0)
        continue;
      psi = aooct_org_arg (pv.x * q.x + pv.y * q.y, pv.y * q.x - pv.x * q.y);
      if (!st.started[m]) {
        st.u[m] = psi;
        st.started[m] = 1;
      } else {
        st.u[m] += aooct_org_wrap (psi - st.psi_prev[m]);
      }
      st.psi_prev[m] = psi;
      row[m] = (float) st.u[m];
      v = live.scale * st.u[m];
      sum += v;
      sum2 += v * v;
      cnt += 1.0;
    }
    sum = block_sum (sum, sh);
    sum2 = block_sum (sum2, sh);
    cnt = block_sum (cnt, sh);
    if (threadIdx.x == 0) {
      AooctOrgTrace t;
      t.valid = (int) cnt;
      if (cnt == 0.0) {
        t.mean = t.std = __longlong_as_double (0x7ff8000000000000LL);
      } else {
        const double mean = sum / cnt, var = sum2 / cnt - mean * mean;
        t.mean = mean;
        t.std = sqrt (fmax (var, 0.0));
      }
      st.trace[b] = t;
    }
    __syncthreads ();
  }
}

/* image b of the buffer, row r: ring row rows0 + b + 1 - history + r */
static __global__ void
org_kymograph (const float *ring, AooctOrgParams p, AooctOrgLive live,
    long long rows0, int ring_rows, uint8_t * out, size_t out_stride)
{
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y;
  const int b = blockIdx.z;

  if (m >= p.alines)
    return;
  const long long k = rows0 + b + 1 - p.history + r;
  const double v = k >= 0 ? live.scale * ring[(k % ring_rows) * p.alines + m]
      : __longlong_as_double (0x7ff8000000000000LL);
  const unsigned g = aooct_org_grey (v, live.opl_range, p.gray16);
  uint8_t *o = out + ((size_t) b * p.history + r) * out_stride;

  if (p.gray16)
    ((uint16_t *) o)[m] = (uint16_t) g;
  else
    o[m] = (uint8_t) g;
}

/* one buffer's traces on their way to the host */
typedef struct
{
  AooctOrgTrace *host;          /* page-locked, bscans entries */
  cudaEvent_t done;
  guint64 tag;
  gboolean busy;
} OrgSlot;

struct _AooctCudaOrgPlan
{
  AooctOrgParams p;
  AooctCudaOrgReport report;
  gpointer user;
  OrgState st;
  int ring_rows;
  gint n;                       /* B-scans since the baseline began */
  gint64 rows;                  /* kymograph rows since start */
  OrgSlot slots[ORG_SLOTS];
  gint head, pending;           /* oldest busy slot, busy slots */
};

#define ALLOC(ptr, bytes) \
  aooct_cuda_malloc ((bytes), (gpointer *) & (ptr), error)

AooctCudaOrgPlan *
aooct_cuda_org_plan_new (const AooctOrgParams * p, AooctCudaOrgReport report,
    gpointer user, GError ** error)
{
  AooctCudaOrgPlan *plan = g_new0 (AooctCudaOrgPlan, 1);
  OrgState *st = &plan->st;
  const gsize M = p->alines, B = p->bscans;
  cudaError_t err;
  gint i;

  plan->p = *p;
  plan->report = report;
  plan->user = user;
  plan->ring_rows = p->history + p->bscans;
  if (p->bscans > 65535 || p->history > 65535) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_SETTINGS,
        "aooctorg on CUDA: at most 65535 B-scans per buffer and history "
        "rows (got %d and %d)", p->bscans, p->history);
    goto fail;
  }
  if (!ALLOC (st->z1, B * M * sizeof (int))
      || !ALLOC (st->z_b, B * sizeof (int))
      || !ALLOC (st->profile, aooct_cuda_layer_scratch_bytes (&p->lp,
              p->bscans))
      || !ALLOC (st->sep, M * sizeof (int))
      || !ALLOC (st->has_sep, M * sizeof (int))
      || !ALLOC (st->q, M * sizeof (double2))
      || !ALLOC (st->psi_prev, M * sizeof (double))
      || !ALLOC (st->u, M * sizeof (double))
      || !ALLOC (st->started, M * sizeof (int))
      || !ALLOC (st->pr, M * sizeof (double2))
      || !ALLOC (st->l1, M * sizeof (double))
      || !ALLOC (st->l2, M * sizeof (double))
      || !ALLOC (st->ring, (gsize) plan->ring_rows * M * sizeof (float))
      || !ALLOC (st->trace, ORG_SLOTS * B * sizeof (AooctOrgTrace)))
    goto fail;
  for (i = 0; i < ORG_SLOTS; i++) {
    if (!aooct_cuda_malloc_host (B * sizeof (AooctOrgTrace),
            (gpointer *) & plan->slots[i].host, error))
      goto fail;
    err = cudaEventCreateWithFlags (&plan->slots[i].done,
        cudaEventDisableTiming);
    if (err != cudaSuccess) {
      plan->slots[i].done = NULL;
      aooct_cuda_set_error (err, error, "aooctorg: cudaEventCreate");
      goto fail;
    }
  }
  return plan;

fail:
  aooct_cuda_org_plan_free (plan);
  return NULL;
}

void
aooct_cuda_org_reset (AooctCudaOrgPlan * plan)
{
  plan->n = 0;
  plan->rows = 0;
}

/* the oldest busy slot: reported once its event has passed (@wait: wait
 * for it); FALSE with @error on a CUDA error */
static gboolean
take_oldest (AooctCudaOrgPlan * plan, gboolean wait, gboolean * taken,
    GError ** error)
{
  OrgSlot *s = &plan->slots[plan->head];
  cudaError_t err;

  *taken = FALSE;
  if (plan->pending == 0)
    return TRUE;
  err = wait ? cudaEventSynchronize (s->done) : cudaEventQuery (s->done);
  if (err == cudaErrorNotReady)
    return TRUE;
  if (err != cudaSuccess)
    return aooct_cuda_set_error (err, error, "aooctorg: the trace's event");
  s->busy = FALSE;
  plan->head = (plan->head + 1) % ORG_SLOTS;
  plan->pending--;
  *taken = TRUE;
  if (plan->report)
    plan->report (plan->user, s->tag, s->host, plan->p.bscans);
  return TRUE;
}

gboolean
aooct_cuda_org_poll (AooctCudaOrgPlan * plan, gboolean wait, GError ** error)
{
  gboolean taken = TRUE;

  while (plan->pending > 0 && taken)
    if (!take_oldest (plan, wait, &taken, error))
      return FALSE;
  return TRUE;
}

gboolean
aooct_cuda_org_execute (AooctCudaOrgPlan * plan, const AooctOrgLive * live,
    const gfloat * in, guint8 * out, gsize out_stride, guint64 tag,
    AooctCudaStream stream, GError ** error)
{
  const AooctOrgParams *p = &plan->p;
  OrgState st = plan->st;
  gint slot;
  gboolean taken;

  if (plan->pending == ORG_SLOTS
      && !take_oldest (plan, TRUE, &taken, error))
    return FALSE;
  slot = (plan->head + plan->pending) % ORG_SLOTS;
  /* each slot has its own device traces: the copy of the one before may
   * still be queued */
  st.trace = plan->st.trace + (gsize) slot * p->bscans;
  if (live->new_baseline)
    plan->n = 0;
  if (!aooct_cuda_layer_find (&p->lp, in, p->alines, p->bscans, st.profile,
          st.z_b, st.z1, stream, error))
    return FALSE;
  org_bscans <<< 1, ORG_THREADS, 0, stream >>> ((const float2 *) in, st, *p,
      *live, plan->n, (long long) plan->rows, plan->ring_rows);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctorg: B-scan kernel");
  org_kymograph <<< dim3 ((p->alines + IMG_THREADS - 1) / IMG_THREADS,
      p->history, p->bscans), IMG_THREADS, 0, stream >>> (st.ring, *p,
      *live, (long long) plan->rows, plan->ring_rows, out, out_stride);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctorg: kymograph kernel");
  if (!aooct_cuda_download_async (plan->slots[slot].host, st.trace,
          (gsize) p->bscans * sizeof (AooctOrgTrace), stream, error))
    return FALSE;
  AOOCT_CUDA_CHECK (cudaEventRecord (plan->slots[slot].done, stream), error,
      "aooctorg: cudaEventRecord");
  plan->slots[slot].tag = tag;
  plan->slots[slot].busy = TRUE;
  plan->pending++;
  plan->n += p->bscans;
  plan->rows += p->bscans;
  return aooct_cuda_org_poll (plan, FALSE, error);
}

void
aooct_cuda_org_plan_free (AooctCudaOrgPlan * plan)
{
  OrgState *st;
  gint i;

  if (plan == NULL)
    return;
  /* the traces still on their way are reported first */
  if (!aooct_cuda_org_poll (plan, TRUE, NULL))
    plan->pending = 0;
  st = &plan->st;
  aooct_cuda_free (st->z1);
  aooct_cuda_free (st->z_b);
  aooct_cuda_free (st->profile);
  aooct_cuda_free (st->sep);
  aooct_cuda_free (st->has_sep);
  aooct_cuda_free (st->q);
  aooct_cuda_free (st->psi_prev);
  aooct_cuda_free (st->u);
  aooct_cuda_free (st->started);
  aooct_cuda_free (st->pr);
  aooct_cuda_free (st->l1);
  aooct_cuda_free (st->l2);
  aooct_cuda_free (st->ring);
  aooct_cuda_free (st->trace);
  for (i = 0; i < ORG_SLOTS; i++) {
    if (plan->slots[i].host)
      aooct_cuda_free_host (plan->slots[i].host);
    if (plan->slots[i].done)
      cudaEventDestroy (plan->slots[i].done);
  }
  g_free (plan);
}
