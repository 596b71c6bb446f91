/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what aooctdoppler and aooctangio (spec section 12) share on both
 * backends: the shape of the image, their settings, the checks the spec
 * asks for (naming the property and the value) and the velocity scale.
 * The per-pixel arithmetic is aooct-flow-pixel.h; the cores are
 * cpu/aooct-cpu-doppler.h, cpu/aooct-cpu-angio.h and their CUDA twins. */
#ifndef __AOOCT_FLOW_H__
#define __AOOCT_FLOW_H__

#include <glib.h>

G_BEGIN_DECLS
/* How an image is written: one byte a pixel (GRAY8, and the luma of
 * NV12 / I420 in CUDA memory), two (GRAY16_LE) or four (RGBA: Doppler's
 * red / blue map; aooctangio's grey level in R, G and B, opaque). */
    typedef enum
{
  AOOCT_FLOW_GRAY8,
  AOOCT_FLOW_GRAY16,
  AOOCT_FLOW_RGBA
} AooctFlowFormat;

/* What is fixed from setup to teardown. */
typedef struct
{
  gint samples;                 /* P2, complex samples per input A-line */
  gint alines;                  /* M, image columns */
  gint bscans;                  /* B-scans per input buffer */
  gint crop_start, rows;        /* signed depth crop [crop_start, +rows) */
  AooctFlowFormat format;
  gint repeats;                 /* aooctangio: N */
} AooctFlowParams;

/* aooctdoppler's live settings (read per buffer) */
typedef struct
{
  gint lag, aline_window, depth_window;
  gdouble threshold;            /* dB, 0 = no mask */
  gboolean bulk_correction;
} AooctDopplerSettings;

typedef enum
{
  AOOCT_ANGIO_DECORRELATION,
  AOOCT_ANGIO_SPECKLE_VARIANCE
} AooctAngioMethod;

/* aooctangio's live settings (read per image) */
typedef struct
{
  AooctAngioMethod method;
  gint aline_window, depth_window;
  gdouble threshold;            /* dB, 0 = no mask */
  gdouble decorrelation_max;    /* > 0 */
  gdouble variance_max;         /* dB^2, 0 = the image's maximum */
} AooctAngioSettings;

#define AOOCT_DOPPLER_DEFAULT_LAG 1
#define AOOCT_DOPPLER_DEFAULT_ALINE_WINDOW 4
#define AOOCT_FLOW_DEFAULT_DEPTH_WINDOW 3
#define AOOCT_FLOW_DEFAULT_THRESHOLD 20.0
#define AOOCT_ANGIO_DEFAULT_REPEATS 4
#define AOOCT_ANGIO_DEFAULT_ALINE_WINDOW 3
#define AOOCT_ANGIO_DEFAULT_DECORRELATION_MAX 0.25
#define AOOCT_ANGIO_DEFAULT_VARIANCE_MAX 30.0

/* What the spec forbids that a GParamSpec range cannot say, for B-scans
 * of @alines A-lines: lag >= M, an even depth-window.  The message names
 * the property and the value. */
gboolean aooct_doppler_settings_check (const AooctDopplerSettings * s,
    gint alines, GError ** error);
gboolean aooct_angio_settings_check (const AooctAngioSettings * s,
    GError ** error);

/* 10^(-threshold / 10), the mask factor of aooct_flow_mask_limit(); 0 for
 * threshold 0 (no mask) */
gdouble aooct_flow_mask_factor (gdouble threshold);

/* lambda0 / (4 n L T) in mm/s, the velocity at dphi = pi, for a line rate
 * in A-lines/s and a centre wavelength in nm; 0 when either is 0
 * (unknown) */
gdouble aooct_doppler_velocity_max (gdouble line_rate,
    gdouble center_wavelength, gdouble refractive_index, gint lag);

G_END_DECLS
#endif /* __AOOCT_FLOW_H__ */
