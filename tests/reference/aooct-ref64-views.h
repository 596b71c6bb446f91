/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: float64 reference of spec section 11 (views: flyback,
 * rolling background, averaging, bilateral filter, en-face projection,
 * the checkable views of the volume renderer), written from the spec
 * alone, independently of the elements' code. */
#ifndef __AOOCT_REF64_VIEWS_H__
#define __AOOCT_REF64_VIEWS_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AOOCT_REF_VIEWS_DC_MEAN,      /* bscan-mean */
  AOOCT_REF_VIEWS_DC_ROLLING,   /* rolling-mean */
  AOOCT_REF_VIEWS_DC_NONE
} AooctRefViewsDc;

/* Sections 1, 2 and 11 on @bscans consecutive B-scans of M x N raw
 * samples (the first after start): drop @skip_start and @skip_end A-lines
 * of each, subtract the DC (rolling over K = @k B-scans).  @out: bscans x
 * (M - skip_start - skip_end) x N doubles. */
void aooct_ref_views_dcsub (int n, int m, int bscans, const guint16 * raw,
    int skip_start, int skip_end, AooctRefViewsDc mode, int k, double *out);

/* How section 7 makes an image: depth-domain A-lines of @p2 complex
 * samples, M per B-scan, the crop [crop_start, crop_end) resolved. */
typedef struct
{
  int p2, m;
  int crop_start, crop_end;
  gboolean log;
  double dynamic_range;
  gboolean auto_range;
  double range_min, range_max;
  int bits;                     /* 8 or 16 */
} AooctRefImage;

/* aooctnorm with average-bscans @kb, average-alines @ka and the bilateral
 * filter (@sigma_s 0 = off) on @bscans consecutive B-scans (@depth: bscans
 * x M x P2 complex doubles, the first after start): bscans images of
 * crop rows x ceil (M / ka) pixels, stacked, rows @out_stride bytes
 * apart. */
void aooct_ref_views_norm (const AooctRefImage * p, int kb, int ka,
    double sigma_s, double sigma_r, const double *depth, int bscans,
    void *out, size_t out_stride);

/* aooctenface of one volume of @filled B-scans (@depth as above): M x
 * @volume GRAY8 pixels (rows from @filled black), projection max when
 * @max, else mean. */
void aooct_ref_views_enface (const AooctRefImage * p, gboolean max,
    const double *depth, int filled, int volume, guint8 * out,
    size_t out_stride);

/* The same image from the projected intensities @e (@filled x M, before
 * the log): section 11's normalisation per volume (aooctenface
 * layer=brightest's reference, aooct-ref64-org.h, uses it). */
void aooct_ref_views_enface_image (const AooctRefImage * p, const double *e,
    int filled, int volume, guint8 * out, size_t out_stride);

/* The checkable view of aooctrender mode=mip along the B-scan axis
 * (azimuth 0, elevation 0): per pixel, the maximum over the volume's
 * B-scans of their section-7 image normalised with the volume's range;
 * crop rows x M GRAY8 pixels. */
void aooct_ref_views_mip_bscan_axis (const AooctRefImage * p,
    const double *depth, int filled, guint8 * out, size_t out_stride);

G_END_DECLS

#endif /* __AOOCT_REF64_VIEWS_H__ */
