/* aooct CUDA core: dispersion compensation (spec section 5), the CUDA twin
 * of cpu/aooct-cpu-disp.h.
 *
 * The P2 complex weights live in device memory allocated once per
 * geometry; new weights (a2/a3/phase-file changed while playing) are
 * uploaded with a copy ordered on the element's stream, so buffers already
 * enqueued still use the old ones and later ones the new.  c = x * w in
 * float32 as on the CPU: bit-identical. */
#ifndef __AOOCT_CUDA_DISP_H__
#define __AOOCT_CUDA_DISP_H__

#include <glib.h>

#include "aooct-cuda.h"

G_BEGIN_DECLS

typedef struct _AooctCudaDisp AooctCudaDisp;

/* Device weights for A-lines of @samples, buffers of @rows A-lines. */
AooctCudaDisp *aooct_cuda_disp_new (gint samples, gsize rows,
    GError ** error);

/* Enqueues the upload of @weights (2 x samples floats, re/im interleaved,
 * host memory that may be freed on return) on @stream. */
gboolean aooct_cuda_disp_set_weights (AooctCudaDisp * disp,
    const gfloat * weights, AooctCudaStream stream, GError ** error);

/* Enqueues c = in x w: @in rows x samples float32, @out rows x samples
 * interleaved complex float32; device pointers. */
gboolean aooct_cuda_disp_process (AooctCudaDisp * disp, const gfloat * in,
    gfloat * out, AooctCudaStream stream, GError ** error);

void aooct_cuda_disp_free (AooctCudaDisp * disp);

G_END_DECLS

#endif /* __AOOCT_CUDA_DISP_H__ */
