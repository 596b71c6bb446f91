/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: aooctnorm with average-bscans, average-alines or the
 * bilateral filter (spec section 11), the CUDA twin of
 * cpu/aooct-cpu-norm-extra.h: the same arithmetic (aooct-norm-extra.h,
 * aooct-norm-range.h) B-scan by B-scan, the ring of A-line-averaged
 * intensities and the range keys in device memory. */
#ifndef __AOOCT_CUDA_NORM_EXTRA_H__
#define __AOOCT_CUDA_NORM_EXTRA_H__

#include <glib.h>

#include "aooct-cuda.h"
#include "aooct-cuda-norm.h"
#include "aooct-norm-extra.h"

G_BEGIN_DECLS

typedef struct _AooctCudaNormExtraPlan AooctCudaNormExtraPlan;

AooctCudaNormExtraPlan *aooct_cuda_norm_extra_plan_new
    (const AooctNormExtraParams *
    p, GError ** error);
void aooct_cuda_norm_extra_plan_free (AooctCudaNormExtraPlan * x);
void aooct_cuda_norm_extra_reset (AooctCudaNormExtraPlan * x);
/* Back to before the last aooct_cuda_norm_extra_execute() (its work was
 * not run: a failed CUDA graph capture, which the base class then runs
 * again). */
void aooct_cuda_norm_extra_rewind (AooctCudaNormExtraPlan * x);

/* As aooct_cuda_norm_execute(), with the image @p->width wide. */
gboolean aooct_cuda_norm_extra_execute (AooctCudaNormExtraPlan * x,
    const AooctNormSettings * s, AooctCudaNormFormat format,
    const gfloat * in, guint8 * out, gsize out_stride,
    AooctCudaStream stream, GError ** error);

G_END_DECLS

#endif /* __AOOCT_CUDA_NORM_EXTRA_H__ */
