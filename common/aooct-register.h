/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: aooctregister's settings and results (spec section 13), shared
 * by the CPU core (cpu/aooct-cpu-register.c), the CUDA core
 * (cuda/aooct-cuda-register.cu), the element and the tests.  The per-value
 * rules both backends must apply alike (crop bins, signed frequencies,
 * exact phases, the order of candidates) are in aooct-register-pick.h.
 *
 * Shifts are carried as integers in 1/U of a pixel (qz = U dz, qx = U dx):
 * the fine grid is exact, and so are the comparisons of the tie rule and
 * the test whether an output A-line's source lies outside the B-scan. */
#ifndef __AOOCT_REGISTER_H__
#define __AOOCT_REGISTER_H__

#include <glib.h>
#include "aooct-geometry.h"

G_BEGIN_DECLS

#define AOOCT_REGISTER_DEFAULT_UPSAMPLE 20
#define AOOCT_REGISTER_MAX_UPSAMPLE 100

typedef enum
{
  AOOCT_REGISTER_REFERENCE_FIRST,
  AOOCT_REGISTER_REFERENCE_PREVIOUS
} AooctRegisterReference;

/* One B-scan's report (spec 13, "Report"). */
typedef struct
{
  guint64 bscan;                /* counted since start, flush or caps, from 0 */
  gint qz, qx;                  /* the estimate in 1/U pixel */
  gint upsample;                /* U */
  gdouble correlation;          /* rho */
  gboolean rejected;            /* rho < min-correlation: passed unshifted */
} AooctRegisterResult;

static inline gdouble
aooct_register_result_dz (const AooctRegisterResult * r)
{
  return (gdouble) r->qz / r->upsample;
}

static inline gdouble
aooct_register_result_dx (const AooctRegisterResult * r)
{
  return (gdouble) r->qx / r->upsample;
}

/* Called by a core, on the streaming thread, for every B-scan in order
 * (on CUDA some buffers later, once the GPU has computed it). */
typedef void (*AooctRegisterReportFunc) (gpointer data,
    const AooctRegisterResult * result);

/* What a core is made for. */
typedef struct
{
  gint samples;                 /* P2 */
  gint alines;                  /* M */
  gint bscans;                  /* per buffer */
  gint crop_start;              /* resolved crop (signed on full range) */
  gint rows;                    /* C = crop-end - crop-start */
  gint max_dz, max_dx;          /* resolved: at most floor (C/2), floor (M/2) */
  gint upsample;                /* U */
  gdouble min_correlation;
  AooctRegisterReference reference;
  AooctRegisterReportFunc report;
  gpointer report_data;
} AooctRegisterParams;

/* Fills @p's geometry, crop and shift limits from @in and the property
 * values (crop as aooctnorm's, spec 7 and 9; @max_dz / @max_dx <= 0: the
 * defaults floor (C/4), floor (M/4); larger than half the crop or the
 * B-scan: half, since a circular shift beyond it is the same as a smaller
 * one of the other sign); FALSE with @error naming the property and value
 * when the input is not depth-domain complex or a value is impossible. */
gboolean aooct_register_params_resolve (AooctRegisterParams * p,
    const AooctGeometry * in, gint crop_start, gint crop_end, gint max_dz,
    gint max_dx, gint upsample, gdouble min_correlation, GError ** error);

/* The input check alone (derive_output): depth-domain complex. */
gboolean aooct_register_check_input (const AooctGeometry * in,
    GError ** error);

G_END_DECLS
#endif /* __AOOCT_REGISTER_H__ */
