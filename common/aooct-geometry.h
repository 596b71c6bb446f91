/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: the geometry of a buffer, as carried by application/x-aooct caps.
 *
 * Everything an element needs to interpret a buffer lives here, so that each
 * step can be computed from its input caps alone: the current sample grid
 * (samples per A-line, real or complex float32, spectral or depth domain),
 * the B-scan layout, and the spec's sample grid (raw sample count N,
 * centring offset o, up-sampling factor f, first FFT size P1; see
 * shared/spec/reconstruction.md section 3).  No GStreamer types here: the
 * CPU and CUDA cores use it too. */
#ifndef __AOOCT_GEOMETRY_H__
#define __AOOCT_GEOMETRY_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AOOCT_DOMAIN_SPECTRAL,
  AOOCT_DOMAIN_DEPTH
} AooctDomain;

typedef enum
{
  AOOCT_SAMPLE_REAL,            /* float32 */
  AOOCT_SAMPLE_COMPLEX          /* interleaved float32 re, im */
} AooctSampleType;

/* Where the spectral samples lie in k (spec sections 4 and 8). */
typedef enum
{
  AOOCT_K_SAMPLING_EVEN,        /* wherever k-linear says (the usual) */
  AOOCT_K_SAMPLING_NUDFT,       /* at known positions s_j on the even-k
                                 * grid (caps carry them, k-positions):
                                 * aooctfft computes section 8's sum */
  AOOCT_K_SAMPLING_NUFFT        /* the same, approximated by gridding */
} AooctKSampling;

typedef struct
{
  AooctDomain domain;
  AooctSampleType sample_type;
  gint samples;                 /* samples per A-line in this buffer (P2) */
  gint alines;                  /* A-lines per B-scan (M) */
  gint bscans;                  /* B-scans per buffer */
  gint raw_samples;             /* N: samples per A-line from the camera */
  gint pad_offset;              /* o: raw pixel 0 sits at padded index o */
  gint pad_factor;              /* f: up-sampling factor */
  gint pad_size;                /* P1: first FFT size; samples == f * P1 */
  gboolean k_linear;            /* samples evenly spaced in wavenumber */
  gboolean full_range;          /* complex full range (spec section 9): the
                                 * spectra are lateral analytic signals and
                                 * depth bins are signed */
  /* non-uniform samples (aooctkmap interpolation=nudft|nufft): the
   * transform aooctfft is to compute, with the NUFFT's parameters (kernel
   * an AooctNufftKernel); EVEN otherwise (zero-initialised geometries) */
  AooctKSampling k_sampling;
  gint nufft_kernel;
  gdouble nufft_oversampling;
  gint nufft_width;
  gint fps_n, fps_d;            /* buffers per second */
  /* |k(N-1) - k(0)| in rad/um, k = 2 pi / lambda of the calibration's
   * first and last raw pixel, set by aooctkmap; 0 = unknown (no
   * calibration upstream).  Informative: it gives the depth scale
   * (aooct_geometry_depth_step()) and never changes how a buffer is read. */
  gdouble k_span;
  /* the calibration's wavelength along the camera pixels: +1 increasing,
   * -1 decreasing, 0 unknown (no calibration upstream), set by aooctkmap
   * and aooctcs with k_span.  Informative too: aooctorg's sign (spec
   * section 13). */
  gint wavelength_direction;
} AooctGeometry;

/* Upper bounds that keep every size computation inside 32-bit indices and a
 * buffer under 2 GiB; a caps field beyond them is refused. */
#define AOOCT_MAX_SAMPLES  (1 << 20)
#define AOOCT_MAX_ALINES   (1 << 16)
#define AOOCT_MAX_BSCANS   4096
#define AOOCT_MAX_FACTOR   64

void aooct_geometry_init_raw (AooctGeometry * geom, gint raw_samples,
    gint alines, gint bscans, gint fps_n, gint fps_d);

gboolean aooct_geometry_validate (const AooctGeometry * geom, GError ** error);

gboolean aooct_geometry_equal (const AooctGeometry * a,
    const AooctGeometry * b, GString * diff);

/* j0 and j1 of the spec: first and last sample of the data region */
static inline gint
aooct_geometry_data_start (const AooctGeometry * g)
{
  return g->pad_factor * g->pad_offset;
}

static inline gint
aooct_geometry_data_end (const AooctGeometry * g)
{
  return g->pad_factor * (g->pad_offset + g->raw_samples - 1);
}

static inline gsize
aooct_geometry_sample_bytes (const AooctGeometry * g)
{
  return g->sample_type == AOOCT_SAMPLE_COMPLEX ? 8 : 4;
}

static inline gsize
aooct_geometry_aline_bytes (const AooctGeometry * g)
{
  return (gsize) g->samples * aooct_geometry_sample_bytes (g);
}

static inline gsize
aooct_geometry_total_alines (const AooctGeometry * g)
{
  return (gsize) g->alines * g->bscans;
}

static inline gsize
aooct_geometry_buffer_bytes (const AooctGeometry * g)
{
  return aooct_geometry_aline_bytes (g) * aooct_geometry_total_alines (g);
}

/* The spec's padding sizes for N raw samples: P1 from @size (0 = automatic,
 * max (2048, next power of two >= N)), P2 = @factor * P1, o = (P1 - N) / 2.
 * Fails with AOOCT_ERROR_SETTINGS naming the property that is impossible. */
gboolean aooct_pad_sizes (gint raw_samples, gint size, gint factor,
    gint * p1, gint * p2, gint * offset, GError ** error);

/* The depth step in micrometres (in air, single-pass path difference) of
 * one depth sample after the FFT, i.e. of one image row of aooctnorm:
 * pi (N - 1) / (P1 |K1 - K0|), which is pi (j1 - j0) / (P2 |K1 - K0|)
 * (the k'-grid of spec section 4 has (j1 - j0) steps of |K1 - K0| /
 * (j1 - j0) over P2 samples; a fringe cos (2 k z) lands on bin
 * z P2 dk / pi).  With K = 2 pi / lambda: lambda0 lambda1 (N - 1) /
 * (2 P1 |lambda1 - lambda0|).  0 when k_span is unknown. */
gdouble aooct_geometry_depth_step (const AooctGeometry * g);

const gchar *aooct_domain_to_string (AooctDomain domain);
const gchar *aooct_sample_type_to_string (AooctSampleType type);
const gchar *aooct_k_sampling_to_string (AooctKSampling s);

G_END_DECLS

#endif /* __AOOCT_GEOMETRY_H__ */
