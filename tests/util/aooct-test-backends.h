/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: one element on CUDA against the same element on the CPU,
 * for the CUDA cases of the element tests (test-pad, test-kmap, test-disp,
 * test-fft, test-chain): realistic spectra, comparisons within float32
 * rounding, a pair of harnesses (one per backend) and the step cores run
 * directly on device buffers.
 *
 * Tolerances.  kmap and disp do the same float32 operations in the same
 * order on both backends (nvcc --fmad=false, gcc -ffp-contract=off), so
 * they must agree to the last bit; aooct_test_compare_exact() still
 * allows 2 float32 ulps of the row's largest value, and prints how many
 * values were bit-identical.  pad and fft go through FFTs: cuFFT and FFTW
 * sum in different orders, so the results differ by float32 rounding.  The
 * error of a float32 FFT of length P is bounded by a few eps per butterfly
 * stage, i.e. of order eps log2 (P) relative to the RMS of its output row
 * (Parseval: the RMS of the row is the natural scale of every bin).
 * aooct_test_compare_fft() allows, per value, AOOCT_TEST_STEP_FACTOR eps
 * log2 (P2) x RMS of the CPU row (4.6e-5 relative for P2 = 4096), for one
 * step and for the whole chain alike.  Seen on an H100 (cuFFT 13 against
 * FFTW 3.3.10): worst 1.7 for pad, 7.0 for fft (2048x1000), 3.8 for the
 * chain, in these units.  Wrong scaling, a shifted sample, a missing
 * Nyquist bin, stale weights or windows all give errors of order 1 x RMS,
 * i.e. above 10^4 in these units.  The worst ratio is printed.
 *
 * AOOCT_TEST_FAKE_GPU=1 runs the "cuda" side with backend=cpu (and skips
 * the memory-type and device-buffer checks): a dry run of the CUDA cases'
 * logic on a machine without a GPU (CK_RUN_CASE=cuda, by hand). */
#ifndef __AOOCT_TEST_BACKENDS_H__
#define __AOOCT_TEST_BACKENDS_H__

#include "aooct-test-util.h"
#include "aooct-synth.h"

G_BEGIN_DECLS

#define AOOCT_TEST_STEP_FACTOR 32.0
/* A CUDA forward FFT against the float64 DFT by its definition, per value,
 * in eps log2(P) times the row's RMS: float32 rounding of the input and
 * of log2(P) butterfly stages.  Seen with cuFFT 13 (H200, 2026-11-25):
 * worst 4.7 at 8192 points, 3.3 at 4096, 3.0 at 2048, 2.9 at 1024, 1.3
 * at 512; a wrong bin is of order 1 x RMS, above 10^5 in these units. */
#define AOOCT_TEST_REF64_FFT_FACTOR 12.0
/* buffers in flight at once through each harness */
#define AOOCT_TEST_N_BUFFERS 3
/* aooctkmap's calibration in the CUDA cases */
#define AOOCT_TEST_KMAP_PROPS "wavelength-coeffs=\"" \
  AOOCT_SYNTH_DEFAULT_WAVELENGTH_COEFFS "\""

typedef struct
{
  const gchar *name;
  gint n, alines, bscans;
  gint size, factor;            /* aooctpad */
  const gchar *window;          /* for the chain */
} AooctTestGeo;

/* the thesis camera, a full 2048-pixel camera with 1000 A-lines, and a
 * width that is no power of two with three B-scans per buffer */
extern const AooctTestGeo aooct_test_geos[3];

/* AOOCT_TEST_FAKE_GPU is set; the backend the "cuda" side runs on */
gboolean aooct_test_fake_gpu (void);
const gchar *aooct_test_gpu_backend (void);

/* The random source of a test of a CUDA core on device buffers (free with
 * g_rand_free); NULL, with a line saying the checks are skipped, under
 * AOOCT_TEST_FAKE_GPU, which has no device buffers. */
GRand *aooct_test_core_rand (void);

/* Real spectra on the grid of @g (raw or padded, 0 in the margins as
 * aooctpad leaves them): three reflectors' fringes under a Gaussian
 * envelope, a residual DC ripple and noise (g_free). */
gfloat *aooct_test_make_real (GRand * rand, const AooctGeometry * g);
/* Complex spectra as aooctdisp makes them: real ones times a smooth unit
 * phase (g_free). */
gfloat *aooct_test_make_complex (GRand * rand, const AooctGeometry * g);

/* CUDA against CPU with an FFT's rounding, per row of @row_floats floats:
 * |gpu - cpu| <= @factor eps log2 (@p) x RMS of the CPU row; returns the
 * worst ratio in units of eps log2 (p) RMS. */
gdouble aooct_test_compare_fft (const gfloat * cpu, const gfloat * gpu,
    gsize rows, gsize row_floats, gint p, gdouble factor, const gchar * what);
/* The same operations on both backends: within 2 ulps of the row's
 * largest magnitude; prints how many values are bit-identical. */
void aooct_test_compare_exact (const gfloat * cpu, const gfloat * gpu,
    gsize rows, gsize row_floats, const gchar * what);
/* The largest difference of @a and @b relative to @a's largest magnitude:
 * a property change must show. */
gdouble aooct_test_relative_change (const gfloat * a, const gfloat * b,
    gsize count);

/* Called before buffer @k (k >= 1) is pushed: property changes while
 * playing. */
typedef void (*AooctTestBetweenFunc) (GstHarness * h, gint k,
    gpointer user_data);

/* One harness per backend around "@element backend=... @props". */
typedef struct
{
  GstHarness *cpu, *gpu;
} AooctTestPair;

AooctTestPair aooct_test_pair_new (const gchar * element, const gchar * props,
    GstCaps * caps);
/* Pushes the @n_in inputs into both harnesses, all before pulling any (so
 * that several pooled device buffers and queued kernels are in flight),
 * calling @between before each but the first; returns the outputs in @cpu
 * and @gpu (g_free each); the CUDA output must be in aooct device memory. */
void aooct_test_pair_run (AooctTestPair * p, gfloat ** in, gint n_in,
    gsize in_bytes, gsize out_bytes, AooctTestBetweenFunc between,
    gpointer user_data, gfloat ** cpu, gfloat ** gpu);
void aooct_test_pair_free (AooctTestPair * p);
void aooct_test_free_all (gfloat ** v, gint n);

#ifdef HAVE_CUDA
#include "aooct-cuda.h"

/* A step core run directly on device buffers.  The elements' input
 * buffers may be shared read-only with other consumers (a tee), so the
 * cores must only read them: the inputs are downloaded afterwards and
 * compared byte for byte.  The outputs are filled with NaN (0xff bytes)
 * before each run, so that a sample the core does not write (a margin)
 * shows.  Two buffers one after the other through one core: the second
 * must not depend on what the first left in the scratch (cuFFT's C2R
 * overwrites its input, the padded spectrum). */
#define AOOCT_TEST_CORE_BUFFERS 2

typedef struct
{
  AooctCudaStream stream;
  gpointer in[AOOCT_TEST_CORE_BUFFERS], out[AOOCT_TEST_CORE_BUFFERS];
  gsize in_bytes, out_bytes;
} AooctTestCoreRun;

/* Uploads @x[k] (@in_bytes each), allocates the NaN-filled outputs. */
void aooct_test_core_run_init (AooctTestCoreRun * run, gfloat ** x,
    gsize in_bytes, gsize out_bytes);
/* Waits for the stream, checks that every input is still @x[k] and returns
 * the outputs in @y (g_free each); frees the device buffers. */
void aooct_test_core_run_finish (AooctTestCoreRun * run, gfloat ** x,
    gfloat ** y, const gchar * what);
#endif

G_END_DECLS

#endif /* __AOOCT_TEST_BACKENDS_H__ */
