/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: what aooctorg's cores (cpu/aooct-cpu-org.c,
 * cuda/aooct-cuda-org.cu) share (spec section 13, "aooctorg"): the
 * settings, the live part, the trace of a B-scan, and the per-A-line
 * arithmetic that must be the same on both backends (plain C with
 * __host__ __device__ under nvcc). */
#ifndef __AOOCT_ORG_H__
#define __AOOCT_ORG_H__

#include <glib.h>
#include <math.h>
#include "aooct-layers.h"

#ifdef __CUDACC__
#define AOOCT_ORG_FN static __host__ __device__ __forceinline__
#else
#define AOOCT_ORG_FN static inline
#endif

G_BEGIN_DECLS

#define AOOCT_ORG_DEFAULT_SECOND_MIN 10
#define AOOCT_ORG_DEFAULT_SECOND_MAX 30
#define AOOCT_ORG_DEFAULT_BASELINE 10
#define AOOCT_ORG_DEFAULT_HISTORY 256
#define AOOCT_ORG_DEFAULT_DEPTH_WINDOW 3
#define AOOCT_ORG_DEFAULT_THRESHOLD 20.0
#define AOOCT_ORG_DEFAULT_OPL_RANGE_NM 300.0

/* fixed from caps to teardown (plain data: kernels take it by value) */
typedef struct
{
  gint alines, samples, bscans; /* M, P2, B-scans per buffer */
  AooctLayerParams lp;          /* z1's finder, its search in the crop */
  gint crop_start, crop_end;    /* signed bins */
  gint second_min, second_max;  /* z2's window relative to z1 */
  gint history;                 /* kymograph rows */
  gboolean gray16;
} AooctOrgParams;

/* per buffer (PLAYING-mutable properties) */
typedef struct
{
  gint half_window;             /* w = floor (depth-window / 2) */
  gdouble threshold;            /* dB, 0 = every A-line */
  gint baseline;                /* B-scans */
  gboolean new_baseline;        /* start a new baseline at this buffer */
  gdouble scale;                /* dOPL = scale * u: sigma lambda0 / (4 pi)
                                 * in nm, or sigma in radians */
  gdouble opl_range;            /* the kymograph's full scale, same unit */
} AooctOrgLive;

/* the trace of one B-scan */
typedef struct
{
  gdouble mean, std;            /* NaN when no A-line is valid */
  gint valid;
} AooctOrgTrace;

/* wrap into (-pi, pi] */
AOOCT_ORG_FN double
aooct_org_wrap (double a)
{
  return a - 2.0 * G_PI * ceil ((a - G_PI) / (2.0 * G_PI));
}

/* arg in (-pi, pi], -pi read as pi */
AOOCT_ORG_FN double
aooct_org_arg (double re, double im)
{
  double a = atan2 (im, re);

  return a <= -G_PI ? G_PI : a;
}

/* 10 log10 of an intensity, floored as aooctnorm's (1e-30) */
AOOCT_ORG_FN double
aooct_org_db (double i)
{
  return 10.0 * log10 (i > 1e-30 ? i : 1e-30);
}

/* the kymograph's grey level of @dopl (NaN: invalid or unfilled = 0) */
AOOCT_ORG_FN unsigned
aooct_org_grey (double dopl, double range, gboolean gray16)
{
  const double half = gray16 ? 32767.5 : 127.5;
  const double top = gray16 ? 65535.0 : 255.0;
  double g;

  if (dopl != dopl)
    return 0;
  g = floor (half * (1.0 + dopl / range) + 0.5);
  g = g < 1.0 ? 1.0 : (g > top ? top : g);
  return (unsigned) g;
}

G_END_DECLS
#endif /* __AOOCT_ORG_H__ */
