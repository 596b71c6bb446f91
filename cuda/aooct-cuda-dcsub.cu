/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: conversion to float32 and DC subtraction (see
 * aooct-cuda-dcsub.h).
 *
 * Two kernels on one stream, no memset and no atomics:
 *  1. column_sums: each block sums a chunk of rows of one B-scan for
 *     GROUPS_PER_BLOCK groups of neighbouring columns and writes one exact
 *     64-bit partial sum per (B-scan, chunk, column) into the scratch.
 *     Every partial is written by exactly one block, so nothing has to be
 *     cleared first and the sums cannot depend on the order of blocks.
 *  2. convert_subtract: each block first adds the few partials of its
 *     columns (exact integers again), forms the CPU core's mean once per
 *     column in shared memory, then streams its rows: raw sample to float,
 *     minus the mean, written as float4/float2 where the output allows.
 * Both read the raw samples straight from the uploaded camera buffer (1 or
 * 2 bytes per sample instead of 4, 1.5 or 1.25 for packed 12/10-bit ones,
 * unpacked in registers), 8 bytes per thread and row where the buffer's
 * alignment allows (12 and 10 bytes for 8 packed samples), with several rows' loads in flight per thread
 * so that the kernels are bound by memory bandwidth, not latency. */
#include <stdint.h>
#include <string.h>

#include "aooct-cuda-dcsub.h"
#include "aooct-cuda-check.h"
#include "aooct-raw-format.h"

/* A thread covers one group of 8 bytes of a raw row: 4 GRAY16 or 8 GRAY8
 * samples (8 packed samples: 12 or 10 bytes, see Packed below); a warp
 * thus reads 256 contiguous bytes of a row. */
#define GROUP_BYTES 8
#define GROUPS_PER_BLOCK 32
/* Warps of a block take interleaved rows of the same columns, so that the
 * per-column reduction (sums) and the means (convert) stay in the block. */
#define ROW_LANES 8
#define BLOCK_THREADS (GROUPS_PER_BLOCK * ROW_LANES)
/* Rows whose loads a thread issues before using any of them: 8 x 8 bytes
 * in flight per thread covers the H100's memory latency with about a
 * quarter of its threads resident. */
#define UNROLL 8
/* Partial sums per column at most: few, so
 * that convert_subtract's per-block mean costs little next to its rows. */
#define MAX_CHUNKS 16
/* Rows per chunk at least, and blocks per launch aimed at: about four
 * resident blocks per SM of a 132-SM H100, enough bytes in flight to
 * saturate its memory with UNROLL loads per thread. */
#define MIN_CHUNK_ROWS 64
#define TARGET_BLOCKS 512

/* @C bytes at @p (aligned to @C) as the low bytes of a 64-bit word, through
 * the read-only data cache: the raw frame does not change during the step */
template < int C > __device__ __forceinline__ unsigned long long
load_bytes (const uint8_t * p);

template <> __device__ __forceinline__ unsigned long long
    load_bytes < 8 > (const uint8_t * p)
{
  return __ldg ((const unsigned long long *) p);
}

template <> __device__ __forceinline__ unsigned long long
    load_bytes < 4 > (const uint8_t * p)
{
  return __ldg ((const unsigned int *) p);
}

template <> __device__ __forceinline__ unsigned long long
    load_bytes < 2 > (const uint8_t * p)
{
  return __ldg ((const unsigned short *) p);
}

template <> __device__ __forceinline__ unsigned long long
    load_bytes < 1 > (const uint8_t * p)
{
  return __ldg ((const unsigned char *) p);
}

/* A raw sample format as the kernels see it: a thread covers one group of
 * V neighbouring samples of a row, GB bytes starting at a multiple of GB
 * (a group never splits a pack unit), loaded into a Group in registers by
 * load () and read sample by sample with sample ().  W, the template
 * parameter of load (), is the alignment (bytes, dividing 8) that the
 * buffer's base and row stride both have: one 8-byte load where they allow
 * it, else as wide as they allow.  FULL: all the group's samples are in
 * the row; else only @cnt of them (the last group of a row), the others
 * read as zero.  A template parameter, so that the row loops of the full
 * groups have no per-load branches. */

/* 8- and 16-bit samples: 8 bytes, 8 or 4 samples, in one 64-bit word */
template < typename T > struct Plain
{
  static const int V = GROUP_BYTES / sizeof (T);
  static const int GB = GROUP_BYTES;
  typedef unsigned long long Group;

  template < int W, bool FULL > static __device__ __forceinline__ Group
  load (const uint8_t * p, int cnt)
  {
    /* a sample is never split across two loads unless W < sizeof (T) */
    const int E = W < (int) sizeof (T) ? W : (int) sizeof (T);
    Group q = 0;

    if (FULL) {
#pragma unroll
      for (int i = 0; i < GROUP_BYTES / W; i++)
        q |= load_bytes < W > (p + i * W) << (8 * W * i);
    } else {
#pragma unroll
      for (int i = 0; i < GROUP_BYTES / E; i++)
        if (i * E < cnt * (int) sizeof (T))
          q |= load_bytes < E > (p + i * E) << (8 * E * i);
    }
    return q;
  }

  static __device__ __forceinline__ unsigned int
  sample (const Group & q, int k)
  {
    return (unsigned int) (q >> (8 * sizeof (T) * k)) &
        ((1u << (8 * sizeof (T))) - 1);
  }
};

/* Packed 12- and 10-bit samples (aooct-raw-format.h): 8 samples in 12 or
 * 10 bytes, loaded 4 (12-bit) or 2 (10-bit) bytes at a time where the
 * alignment allows, unpacked by the functions the CPU core uses.  The
 * upload moved only these bytes; they become floats here. */
template < AooctRawFormat F > struct Packed
{
  static const int V = 8;
  static const int BITS = F == AOOCT_RAW_MONO10P ? 10 : 12;
  static const int GB = V * BITS / 8;
  /* the widest load that every group start can take: 12 = 3 x 4 bytes,
   * 10 = 5 x 2 bytes */
  static const int MAX_W = GB % 4 == 0 ? 4 : 2;
  struct Group
  {
    unsigned int w[3];
  };

  template < int W, bool FULL > static __device__ __forceinline__ Group
  load (const uint8_t * p, int cnt)
  {
    const int E = W < MAX_W ? W : MAX_W;
    Group g = { {0u, 0u, 0u} };

    if (FULL) {
#pragma unroll
      for (int i = 0; i < GB / E; i++)
        g.w[(i * E) >> 2] |= (unsigned int) load_bytes < E > (p + i * E) <<
            (8 * ((i * E) & 3));
    } else {
      /* whole pack units only: @cnt is a multiple of the unit */
#pragma unroll
      for (int i = 0; i < GB; i++)
        if (i < cnt * BITS / 8)
          g.w[i >> 2] |= (unsigned int) load_bytes < 1 > (p + i) <<
              (8 * (i & 3));
    }
    return g;
  }

  static __device__ __forceinline__ unsigned int
  byte (const Group & g, int i)
  {
    return (g.w[i >> 2] >> (8 * (i & 3))) & 0xffu;
  }

  static __device__ __forceinline__ unsigned int
  sample (const Group & g, int k)
  {
    if (BITS == 10) {
      const int j = k / 4 * 5;
      const unsigned int b[5] = { byte (g, j), byte (g, j + 1),
        byte (g, j + 2), byte (g, j + 3), byte (g, j + 4)
      };
      return aooct_unpack_mono10p (b, k & 3);
    }
    {
      const int j = k / 2 * 3;

      if (F == AOOCT_RAW_MONO12PACKED)
        return aooct_unpack_mono12packed (byte (g, j), byte (g, j + 1),
            byte (g, j + 2), k & 1);
      return aooct_unpack_mono12p (byte (g, j), byte (g, j + 1),
          byte (g, j + 2), k & 1);
    }
  }
};

/* The byte offset of the group holding sample @col (a multiple of V) */
template < typename F > __device__ __forceinline__ size_t
group_offset (int col)
{
  return (size_t) (col / F::V) * F::GB;
}

/* q[u] = the group at @base in row @m + u * ROW_LANES (0 from @m1 on):
 * all UNROLL loads issued before any is used, so that they are in flight
 * at once */
template < typename F, int W, bool FULL > __device__ __forceinline__ void
load_rows (const uint8_t * base, size_t stride, int cnt, int m, int m1,
    typename F::Group * q)
{
#pragma unroll
  for (int u = 0; u < UNROLL; u++) {
    const int mm = m + u * ROW_LANES;
    q[u] = mm < m1 ? F::template load < W, FULL > (base + (size_t) mm *
        stride, cnt) : typename F::Group ();
  }
}

/* acc[k] += sample k of the group at @base in rows @m, @m + ROW_LANES, ...
 * below @m1 */
template < typename F, int W, bool FULL > __device__ __forceinline__ void
sum_rows (const uint8_t * base, size_t stride, int cnt, int m, int m1,
    unsigned long long *acc)
{
  const int V = F::V;

  for (; m < m1; m += ROW_LANES * UNROLL) {
    typename F::Group q[UNROLL];

    load_rows < F, W, FULL > (base, stride, cnt, m, m1, q);
    /* UNROLL samples of at most 65535 fit 32 bits; then 64 bits */
#pragma unroll
    for (int k = 0; k < V; k++) {
      unsigned int s = 0;
#pragma unroll
      for (int u = 0; u < UNROLL; u++)
        s += F::sample (q[u], k);
      acc[k] += s;
    }
  }
}

/* partials[(b * chunks + chunk) * n + col] = sum of column col over rows
 * [chunk * chunk_rows, +chunk_rows) of B-scan b.  Exact: integers. */
template < typename F, int W > __global__ void __launch_bounds__ (BLOCK_THREADS)
column_sums (const uint8_t * __restrict__ raw, size_t stride, int n,
    int alines, int bscans, int chunk_rows, unsigned long long *__restrict__
    partials)
{
  const int V = F::V;
  __shared__ unsigned long long lane_sums[ROW_LANES][GROUPS_PER_BLOCK * V];
  const int tid = threadIdx.y * GROUPS_PER_BLOCK + threadIdx.x;
  const int block_col0 = blockIdx.x * GROUPS_PER_BLOCK * V;
  const int col0 = block_col0 + threadIdx.x * V;
  const int cnt = n - col0;     /* valid samples of the group if < V */
  const int chunks = gridDim.y;
  const int m0 = blockIdx.y * chunk_rows;
  const int m1 = min (m0 + chunk_rows, alines);

  for (int b = blockIdx.z; b < bscans; b += gridDim.z) {
    unsigned long long acc[V];

#pragma unroll
    for (int k = 0; k < V; k++)
      acc[k] = 0;
    if (cnt > 0) {
      const uint8_t *base = raw + (size_t) b * alines * stride +
          group_offset < F > (col0);

      if (cnt >= V)
        sum_rows < F, W, true > (base, stride, cnt, m0 + threadIdx.y, m1,
            acc);
      else
        sum_rows < F, W, false > (base, stride, cnt, m0 + threadIdx.y, m1,
            acc);
    }
#pragma unroll
    for (int k = 0; k < V; k++)
      lane_sums[threadIdx.y][threadIdx.x * V + k] = acc[k];
    __syncthreads ();
    for (int c = tid; c < GROUPS_PER_BLOCK * V; c += BLOCK_THREADS) {
      if (block_col0 + c < n) {
        unsigned long long s = 0;
#pragma unroll
        for (int l = 0; l < ROW_LANES; l++)
          s += lane_sums[l][c];
        partials[((size_t) b * chunks + blockIdx.y) * n + block_col0 + c] = s;
      }
    }
    /* lane_sums is reused by the next B-scan of this block */
    __syncthreads ();
  }
}

/* @V floats to @o (@cnt of them valid), as wide as @out_align (the byte
 * alignment every row's group start has: 16, 8 or 4) allows */
template < int V, bool FULL > __device__ __forceinline__ void
store_group (float *o, const float *x, int cnt, int out_align)
{
  if (FULL && out_align == 16) {
#pragma unroll
    for (int i = 0; i < V / 4; i++)
      ((float4 *) o)[i] = make_float4 (x[4 * i], x[4 * i + 1], x[4 * i + 2],
          x[4 * i + 3]);
  } else if (FULL && out_align == 8) {
#pragma unroll
    for (int i = 0; i < V / 2; i++)
      ((float2 *) o)[i] = make_float2 (x[2 * i], x[2 * i + 1]);
  } else {
#pragma unroll
    for (int k = 0; k < V; k++)
      if (FULL || k < cnt)
        o[k] = x[k];
  }
}

/* The group at @base of rows @m, @m + ROW_LANES, ... below @m1, converted
 * to float minus @d, to the same columns of @obase's rows (@n floats
 * apart) */
template < typename F, int W, bool FULL > __device__ __forceinline__ void
convert_rows (const uint8_t * base, size_t stride, int cnt, int m, int m1,
    const float *d, float *obase, int n, int out_align)
{
  const int V = F::V;

  for (; m < m1; m += ROW_LANES * UNROLL) {
    typename F::Group q[UNROLL];

    load_rows < F, W, FULL > (base, stride, cnt, m, m1, q);
#pragma unroll
    for (int u = 0; u < UNROLL; u++) {
      const int mm = m + u * ROW_LANES;
      float x[V];

      if (mm >= m1)
        break;
      /* exact int -> float, then one float32 subtraction, as on the CPU
       * (--fmad=false: nothing is contracted) */
#pragma unroll
      for (int k = 0; k < V; k++)
        x[k] = (float) F::sample (q[u], k) - d[k];
      store_group < V, FULL > (obase + (size_t) mm * n, x, cnt, out_align);
    }
  }
}

/* out[r][col] = (float) raw[r][col] - dc[col], where dc is the B-scan's
 * column mean (@partials: the @chunks partial sums per column of
 * column_sums), else @background, else 0 (mode none: x - 0.0f is x, bit
 * for bit, so one code path serves all three modes). */
template < typename F, int W > __global__ void __launch_bounds__ (BLOCK_THREADS)
convert_subtract (const uint8_t * __restrict__ raw, size_t stride, int n,
    int alines, int bscans, int chunk_rows,
    const unsigned long long *__restrict__ partials, int chunks,
    const float *__restrict__ background, int out_align,
    float *__restrict__ out)
{
  const int V = F::V;
  __shared__ float dc[GROUPS_PER_BLOCK * V];
  const int tid = threadIdx.y * GROUPS_PER_BLOCK + threadIdx.x;
  const int block_col0 = blockIdx.x * GROUPS_PER_BLOCK * V;
  const int col0 = block_col0 + threadIdx.x * V;
  const int cnt = n - col0;
  const int m0 = blockIdx.y * chunk_rows;
  const int m1 = min (m0 + chunk_rows, alines);

  for (int b = blockIdx.z; b < bscans; b += gridDim.z) {
    for (int c = tid; c < GROUPS_PER_BLOCK * V; c += BLOCK_THREADS) {
      const int col = block_col0 + c;
      float d = 0.0f;

      if (col < n && partials) {
        unsigned long long s = 0;

        for (int p = 0; p < chunks; p++)
          s += partials[((size_t) b * chunks + p) * n + col];
        /* the CPU core's mean: the double quotient rounded once to float */
        d = (float) ((double) s / (double) alines);
      } else if (col < n && background) {
        d = background[col];
      }
      dc[c] = d;
    }
    __syncthreads ();
    if (cnt > 0) {
      const uint8_t *base = raw + (size_t) b * alines * stride +
          group_offset < F > (col0);
      float *obase = out + (size_t) b * alines * n + col0;
      float d[V];

#pragma unroll
      for (int k = 0; k < V; k++)
        d[k] = dc[threadIdx.x * V + k];
      if (cnt >= V)
        convert_rows < F, W, true > (base, stride, cnt, m0 + threadIdx.y, m1,
            d, obase, n, out_align);
      else
        convert_rows < F, W, false > (base, stride, cnt, m0 + threadIdx.y,
            m1, d, obase, n, out_align);
    }
    /* dc is reused by the next B-scan of this block */
    __syncthreads ();
  }
}

/* Row chunking of one launch: about TARGET_BLOCKS blocks over
 * @col_blocks x @bscans, at least MIN_CHUNK_ROWS rows (a multiple of
 * ROW_LANES) per chunk, at most MAX_CHUNKS chunks.  Returns the number of
 * chunks; every chunk has at least one row. */
static int
row_chunks (int alines, int col_blocks, int bscans, int *chunk_rows)
{
  const gint64 base = (gint64) col_blocks * MAX (bscans, 1);
  gint64 want = (TARGET_BLOCKS + base - 1) / base;
  int chunks = (int) CLAMP (want, 1, MAX_CHUNKS);
  int rows = (alines + chunks - 1) / chunks;

  rows = MAX (rows, MIN_CHUNK_ROWS);
  rows = (rows + ROW_LANES - 1) / ROW_LANES * ROW_LANES;
  *chunk_rows = rows;
  return MAX ((alines + rows - 1) / rows, 1);
}

/* Column blocks of a row of @n samples, @v samples per group */
static int
column_blocks (int n, int v)
{
  return ((n + v - 1) / v + GROUPS_PER_BLOCK - 1) / GROUPS_PER_BLOCK;
}

/* Device scratch that a plan needs for @g: the partial column sums of
 * each B-scan.  It needs no clearing, and its content between buffers
 * does not matter. */
static gsize
scratch_bytes (const AooctGeometry * g)
{
  /* one 64-bit partial sum per row chunk, column and B-scan; the chunking
   * depends on the samples per group (8, or 4 for 16-bit samples; not part
   * of the geometry): the larger of the two */
  int rows;
  const int chunks = MAX (row_chunks (g->alines, column_blocks
          (g->raw_samples, 8), g->bscans, &rows), row_chunks (g->alines,
          column_blocks (g->raw_samples, 4), g->bscans, &rows));

  return (gsize) chunks * g->raw_samples * g->bscans *
      sizeof (unsigned long long);
}

/* The widest load (bytes, dividing 8) that every row start of @raw with
 * @stride is aligned to: the group offsets within a row are multiples of
 * 8 bytes, so this is the alignment of every group. */
static int
raw_alignment (const void *raw, size_t stride)
{
  const uintptr_t a = (uintptr_t) raw | (uintptr_t) stride | 8;

  return (int) (a & -a);
}

template < typename F, int W > static gboolean
launch (const AooctGeometry * g, const uint8_t * raw, size_t stride,
    AooctDcMode mode, const float *background, void *scratch, float *out,
    cudaStream_t stream, GError ** error)
{
  const int n = g->raw_samples, alines = g->alines, bscans = g->bscans;
  const int col_blocks = column_blocks (n, F::V);
  const dim3 block (GROUPS_PER_BLOCK, ROW_LANES);
  unsigned long long *partials = NULL;
  int sum_chunks = 0, out_align;

  if (mode == AOOCT_DC_BSCAN_MEAN) {
    int rows;

    sum_chunks = row_chunks (alines, col_blocks, bscans, &rows);
    partials = (unsigned long long *) scratch;
    column_sums < F, W > <<<dim3 (col_blocks, sum_chunks, MIN (bscans,
                65535)), block, 0, stream >>> (raw, stride, n, alines, bscans,
        rows, partials);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: column sum kernel");
  }
  /* every row's group starts are aligned like (out + row * n) */
  if (n % 4 == 0 && (uintptr_t) out % 16 == 0)
    out_align = 16;
  else if (n % 2 == 0 && (uintptr_t) out % 8 == 0)
    out_align = 8;
  else
    out_align = 4;
  {
    int rows;
    const int chunks = row_chunks (alines, col_blocks, bscans, &rows);

    convert_subtract < F, W > <<<dim3 (col_blocks, chunks, MIN (bscans,
                65535)), block, 0, stream >>> (raw, stride, n, alines, bscans,
        rows, partials, sum_chunks, mode == AOOCT_DC_BACKGROUND ? background :
        NULL, out_align, out);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: convert/subtract kernel");
  }
  return TRUE;
}

template < typename F > static gboolean
launch_aligned (const AooctGeometry * g, const uint8_t * raw, size_t stride,
    AooctDcMode mode, const float *background, void *scratch, float *out,
    cudaStream_t stream, GError ** error)
{
  switch (raw_alignment (raw, stride)) {
    case 8:
      return launch < F, 8 > (g, raw, stride, mode, background, scratch, out,
          stream, error);
    case 4:
      return launch < F, 4 > (g, raw, stride, mode, background, scratch, out,
          stream, error);
    case 2:
      return launch < F, 2 > (g, raw, stride, mode, background, scratch, out,
          stream, error);
    default:
      return launch < F, 1 > (g, raw, stride, mode, background, scratch, out,
          stream, error);
  }
}

/* ---- float32 samples (spec section 0) ---------------------------------
 *
 * Float sums are not exact, so their order decides the last bit: each
 * thread sums one column of one B-scan over the A-lines in turn, in
 * double, as the CPU core does, and the mean is the same double quotient
 * rounded to float.  Slower than the integer kernels' exact partial sums
 * (one thread per column), but bit-identical to the CPU for any floats,
 * and for integer-valued floats to the 16-bit path. */

/* the float32 little-endian sample @i of the row at @p (4-byte aligned
 * or not: the rows of a .npy file follow its header) */
__device__ __forceinline__ float
load_float (const uint8_t * p, size_t i, bool aligned)
{
  if (aligned)
    return __ldg ((const float *) p + i);
  const uint8_t *q = p + 4 * i;
  const unsigned int u = (unsigned int) __ldg (q) |
      (unsigned int) __ldg (q + 1) << 8 | (unsigned int) __ldg (q + 2) << 16 |
      (unsigned int) __ldg (q + 3) << 24;
  return __uint_as_float (u);
}

/* dc[b * n + col] = (float) (sum over the A-lines of column col of
 * B-scan b, in double, in order / alines) */
__global__ void
float_column_means (const uint8_t * __restrict__ raw, size_t stride, int n,
    int alines, int bscans, bool aligned, float *__restrict__ dc)
{
  const size_t t = (size_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (t >= (size_t) n * bscans)
    return;
  const int col = (int) (t % n), b = (int) (t / n);
  const uint8_t *base = raw + (size_t) b * alines * stride;
  double s = 0.0;

  for (int m = 0; m < alines; m++)
    s += (double) load_float (base + (size_t) m * stride, col, aligned);
  dc[t] = (float) (s / (double) alines);
}

/* out[r][col] = raw[r][col] - (dc[b][col], else background[col], else 0);
 * the first sample (row-major index) that is not finite into *@bad */
__global__ void
float_convert (const uint8_t * __restrict__ raw, size_t stride, int n,
    int alines, int bscans, bool aligned, const float *__restrict__ dc,
    const float *__restrict__ background, float *__restrict__ out,
    unsigned long long *bad)
{
  const size_t total = (size_t) n * alines * bscans;

  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < total;
      i += (size_t) gridDim.x * blockDim.x) {
    const size_t r = i / n;
    const int col = (int) (i % n);
    const float x = load_float (raw + r * stride, col, aligned);
    float d = 0.0f;

    if (dc)
      d = dc[(r / alines) * n + col];
    else if (background)
      d = background[col];
    if (!isfinite (x))
      atomicMin (bad, (unsigned long long) i);
    out[i] = x - d;
  }
}

struct _AooctCudaDcsubPlan
{
  AooctGeometry geom;
  AooctRawFormat format;
  AooctDcMode mode;
  gfloat *background;           /* device copy (AOOCT_DC_BACKGROUND) */
  gpointer scratch;             /* scratch_bytes (&geom) */
  /* float32 input: the first non-finite sample's index (device) and its
   * page-locked host copy */
  unsigned long long *bad, *bad_host;
};

#define NO_BAD_SAMPLE 0xffffffffffffffffull

/* The float32 path: the kernels, then the check read back (the host waits
 * for this buffer's conversion: the element turns CUDA graphs off for
 * float input). */
static gboolean
launch_float (AooctCudaDcsubPlan * plan, const uint8_t * raw, size_t stride,
    float *out, AooctDcNonFinite * bad, cudaStream_t stream, GError ** error)
{
  const AooctGeometry *g = &plan->geom;
  const int n = g->raw_samples, alines = g->alines, bscans = g->bscans;
  const bool aligned = ((uintptr_t) raw | (uintptr_t) stride) % 4 == 0;
  const size_t total = (size_t) n * alines * bscans;
  float *dc = NULL;
  int blocks;

  AOOCT_CUDA_CHECK (cudaMemsetAsync (plan->bad, 0xff, sizeof (*plan->bad),
          stream), error, "aooctdcsub: clearing the float check");
  if (plan->mode == AOOCT_DC_BSCAN_MEAN) {
    /* the scratch holds at least one 8-byte partial per column and
     * B-scan: room for the float means */
    dc = (float *) plan->scratch;
    float_column_means <<< (unsigned) (((size_t) n * bscans + 255) / 256),
        256, 0, stream >>> (raw, stride, n, alines, bscans, aligned, dc);
    AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: float column mean kernel");
  }
  blocks = (int) MIN ((total + 255) / 256, (size_t) 65535);
  float_convert <<< blocks, 256, 0, stream >>> (raw, stride, n, alines,
      bscans, aligned, dc, plan->mode == AOOCT_DC_BACKGROUND ?
      plan->background : NULL, out, plan->bad);
  AOOCT_CUDA_CHECK_LAUNCH (error, "aooctdcsub: float convert kernel");
  AOOCT_CUDA_CHECK (cudaMemcpyAsync (plan->bad_host, plan->bad,
          sizeof (*plan->bad), cudaMemcpyDeviceToHost, stream), error,
      "aooctdcsub: reading the float check back");
  AOOCT_CUDA_CHECK (cudaStreamSynchronize (stream), error,
      "aooctdcsub: waiting for the float check");
  bad->found = *plan->bad_host != NO_BAD_SAMPLE;
  if (bad->found) {
    const unsigned long long i = *plan->bad_host;
    guint32 u;

    bad->row = (gsize) (i / n);
    bad->col = (gint) (i % n);
    /* the error path only: the offending value itself */
    AOOCT_CUDA_CHECK (cudaMemcpy (&u, raw + bad->row * stride +
            (size_t) bad->col * 4, 4, cudaMemcpyDeviceToHost), error,
        "aooctdcsub: reading a non-finite sample back");
    u = GUINT32_FROM_LE (u);
    memcpy (&bad->value, &u, 4);
  }
  return TRUE;
}

AooctCudaDcsubPlan *
aooct_cuda_dcsub_plan_new (const AooctGeometry * geom, AooctRawFormat format,
    AooctDcMode mode, const gfloat * background, GError ** error)
{
  AooctCudaDcsubPlan *plan = g_new0 (AooctCudaDcsubPlan, 1);

  plan->geom = *geom;
  plan->format = format;
  plan->mode = mode;
  if (!aooct_cuda_malloc (scratch_bytes (geom), &plan->scratch, error)
      || (format == AOOCT_RAW_FLOAT32
          && (!aooct_cuda_malloc (sizeof (*plan->bad),
                  (gpointer *) & plan->bad, error)
              || !aooct_cuda_malloc_host (sizeof (*plan->bad_host),
                  (gpointer *) & plan->bad_host, error)))
      || (mode == AOOCT_DC_BACKGROUND
          && !aooct_cuda_upload_new ((gpointer *) & plan->background,
              background, geom->raw_samples * sizeof (gfloat), error))) {
    aooct_cuda_dcsub_plan_free (plan);
    return NULL;
  }
  return plan;
}

void
aooct_cuda_dcsub_plan_free (AooctCudaDcsubPlan * plan)
{
  if (plan == NULL)
    return;
  aooct_cuda_free (plan->background);
  aooct_cuda_free (plan->scratch);
  aooct_cuda_free (plan->bad);
  aooct_cuda_free_host (plan->bad_host);
  g_free (plan);
}

gboolean
aooct_cuda_dcsub_execute (AooctCudaDcsubPlan * plan, gconstpointer raw,
    gsize raw_stride, gfloat * out, AooctDcNonFinite * bad,
    AooctCudaStream stream, GError ** error)
{
  const AooctGeometry *g = &plan->geom;
  const AooctRawFormat format = plan->format;
  const AooctDcMode mode = plan->mode;
  const gfloat *background = plan->background;
  gpointer scratch = plan->scratch;
  const uint8_t *r = (const uint8_t *) raw;
  cudaStream_t s = (cudaStream_t) stream;

  bad->found = FALSE;
  switch (format) {
    case AOOCT_RAW_FLOAT32:
      return launch_float (plan, r, raw_stride, out, bad, s, error);
    case AOOCT_RAW_GRAY8:
      return launch_aligned < Plain < uint8_t > >(g, r, raw_stride, mode,
          background, scratch, out, s, error);
    case AOOCT_RAW_MONO12P:
      return launch_aligned < Packed < AOOCT_RAW_MONO12P > >(g, r,
          raw_stride, mode, background, scratch, out, s, error);
    case AOOCT_RAW_MONO12PACKED:
      return launch_aligned < Packed < AOOCT_RAW_MONO12PACKED > >(g, r,
          raw_stride, mode, background, scratch, out, s, error);
    case AOOCT_RAW_MONO10P:
      return launch_aligned < Packed < AOOCT_RAW_MONO10P > >(g, r,
          raw_stride, mode, background, scratch, out, s, error);
    default:
      return launch_aligned < Plain < uint16_t > >(g, r, raw_stride, mode,
          background, scratch, out, s, error);
  }
}
