/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: rigid sub-pixel registration of B-scans, aooctregister
 * (spec section 13), the CUDA twin of cpu/aooct-cpu-register.h.
 *
 * Device-resident: the crop's amplitudes and their 2-D DFTs (batched
 * cuFFT over the B-scans of a buffer), the cross-power spectrum, the
 * integer peak (a block reduction with the spec's tie rule), the
 * upsampled DFT (exact twiddle tables per B-scan, then two small matrix
 * products, cuBLAS strided-batched cgemm in plain float32), the pick and
 * rho, and the apply (batched 2-D cuFFT of the whole B-scans, out of place
 * from the input into the output, the phase ramps from per-B-scan row and column factors, the
 * inverse, the A-lines whose source lies outside set to 0, rejected
 * B-scans and the reference copied) all read the shift from device
 * memory: the host never waits.  With reference=first the B-scans of a
 * buffer go through each kernel together; reference=previous runs them
 * one after the other (B-scan b needs b-1's output), the reference's
 * spectrum in one of two device slots chosen on the device.
 *
 * The shifts reach the host by an asynchronous copy into page-locked
 * memory behind an event per buffer; later executes (and drain, and
 * plan_free) hand the finished ones to p->report, in order. */
#ifndef __AOOCT_CUDA_REGISTER_H__
#define __AOOCT_CUDA_REGISTER_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-register.h"

G_BEGIN_DECLS

typedef struct _AooctCudaRegisterPlan AooctCudaRegisterPlan;

/* device scratch, cuFFT plans and page-locked results for @p (NULL with
 * @error set when they cannot be had) */
AooctCudaRegisterPlan *aooct_cuda_register_plan_new (const AooctRegisterParams
    * p, GError ** error);
/* Reports what is still in flight (waits for it), then frees. */
void aooct_cuda_register_plan_free (AooctCudaRegisterPlan * r);

/* Enqueues one buffer on @stream: @in, @out p->bscans contiguous B-scans
 * (device, rows @in_stride / @out_stride bytes apart: 8 P2). */
gboolean aooct_cuda_register_execute (AooctCudaRegisterPlan * r,
    gdouble min_correlation, const gfloat * in, gsize in_stride,
    gfloat * out, gsize out_stride, AooctCudaStream stream, GError ** error);

/* A flush: the next B-scan is the new reference (host state only; results
 * still in flight are reported later with their numbers). */
void aooct_cuda_register_reset (AooctCudaRegisterPlan * r);

/* Waits for the results in flight and reports them. */
gboolean aooct_cuda_register_drain (AooctCudaRegisterPlan * r,
    GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_REGISTER_H__ */
