/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: the pointwise steps on real spectra before the FFT,
 * fused into one pass (spec sections 3 to 6): aooctpad's scale and
 * margins, lambda-to-k resampling, dispersion weights and the spectral
 * window, each optional.
 *
 * aooctdisp runs its own step with it (possibly with a resampling that
 * aooctkmap deferred to it), and aooctfft the steps deferred to it before
 * its window (gst/support/aooct-pending-meta.h).  The resampling is linear or a
 * FIR mode's gather (cubic, bspline, lanczos: not pointwise, a few
 * neighbouring samples per output).  The object keeps device copies
 * of the resampling table (brackets or FIR taps) and the dispersion
 * weights, each uploaded
 * with a copy ordered on the caller's stream when its serial changes, so
 * buffers already enqueued keep the tables they were enqueued with.
 *
 * The arithmetic is the separate steps' (aooct-cuda-steps.h, and
 * aooct-cuda-fir.cuh for the FIR modes), operation by operation without
 * contraction, so the result is bit-identical to running aooctkmap,
 * aooctdisp and aooctfft's window one after another. */
#ifndef __AOOCT_CUDA_PREP_H__
#define __AOOCT_CUDA_PREP_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-kspace.h"
#include "aooct-kmap-table.h"

G_BEGIN_DECLS

/* A plan as every core's (step/aooct-step.h): plan_new once per geometry;
 * per buffer set_kmap / set_kmap_fir / set_disp with the tables of the
 * steps it is to apply (each uploaded only when its serial changes, as
 * cuFINUFFT's setpts), then execute with those steps (deferred to the
 * caller or its own); rewind after a failed CUDA graph capture;
 * plan_free. */
typedef struct _AooctCudaPrepPlan AooctCudaPrepPlan;

/* Tables for A-lines of @samples (P2), buffers of @rows A-lines (context
 * current). */
AooctCudaPrepPlan *aooct_cuda_prep_plan_new (gint samples, gsize rows,
    GError ** error);

/* The resampling brackets (AooctKmapTable's index and frac, @samples each)
 * and data region @j0..@j1 identified by @serial: enqueues their upload on
 * @stream unless @serial is the one already loaded.  Host memory that may
 * be freed on return. */
gboolean aooct_cuda_prep_set_kmap (AooctCudaPrepPlan * prep, guint serial,
    const gint32 * index, const gfloat * frac, gint j0, gint j1,
    AooctCudaStream stream, GError ** error);

/* The same for a FIR resampling (cubic, bspline, lanczos): @fir's first
 * indices and its taps (at most AOOCT_KMAP_FIR_MAX_TAPS) x samples
 * weights, its data region.  Replaces a linear table, and vice versa. */
gboolean aooct_cuda_prep_set_kmap_fir (AooctCudaPrepPlan * prep, guint serial,
    const AooctKmapFir * fir, AooctCudaStream stream, GError ** error);

/* Forgets which tables are loaded (the next set_kmap/set_disp uploads
 * whatever its serial): after a CUDA graph capture that failed, whose
 * uploads never ran (the step contract's rewind). */
void aooct_cuda_prep_rewind (AooctCudaPrepPlan * prep);

/* TRUE when the resampling table @kmap_serial (if @kmap) and the
 * dispersion table @disp_serial (if @disp) are the ones loaded, so that
 * set_kmap / set_disp with them would enqueue nothing. */
gboolean aooct_cuda_prep_holds (const AooctCudaPrepPlan * prep, gboolean kmap,
    guint kmap_serial, gboolean disp, guint disp_serial);

/* The dispersion weights (2 x samples floats, re/im interleaved), the
 * same way. */
gboolean aooct_cuda_prep_set_disp (AooctCudaPrepPlan * prep, guint serial,
    const gfloat * weights, AooctCudaStream stream, GError ** error);

/* Which steps one pass applies, in this order. */
typedef struct
{
  /* aooctpad's scale and margins: x * pad_scale for pad_j0 <= i <= pad_j1,
   * 0 elsewhere */
  gboolean pad;
  gfloat pad_scale;
  gint pad_j0, pad_j1;
  gboolean kmap;                /* the loaded resampling table (linear or
                                 * FIR) */
  gboolean disp;                /* the loaded dispersion weights */
} AooctCudaPrepSteps;

/* Enqueues out = window x (w x kmap (pad (in))): @in rows x samples
 * float32, @out rows x samples interleaved complex; @steps says which
 * (a table must have been set to be used); @window: a device table of
 * @samples floats, or NULL.  Device pointers. */
gboolean aooct_cuda_prep_execute (AooctCudaPrepPlan * prep, const gfloat * in,
    const AooctCudaPrepSteps * steps, const gfloat * window, gfloat * out,
    AooctCudaStream stream, GError ** error);

/* Complex spectra (full range, spec section 9): out = in x the loaded
 * dispersion weights, @in and @out rows x samples interleaved complex.
 * Nothing else is fused (the deferred steps are for real spectra). */
gboolean aooct_cuda_prep_execute_disp_complex (AooctCudaPrepPlan * prep,
    const gfloat * in, gfloat * out, AooctCudaStream stream, GError ** error);

void aooct_cuda_prep_plan_free (AooctCudaPrepPlan * prep);

G_END_DECLS

#endif /* __AOOCT_CUDA_PREP_H__ */
