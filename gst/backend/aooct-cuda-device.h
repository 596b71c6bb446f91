/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: is a CUDA device usable here, and the GstCudaContext helpers.
 *
 * The check is cheap (done once per process and cached) and never aborts:
 * CI machines have neither an NVIDIA driver nor a GPU, and backend=auto
 * must then quietly pick the CPU. */
#ifndef __AOOCT_CUDA_DEVICE_H__
#define __AOOCT_CUDA_DEVICE_H__

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

/* TRUE when the driver loads and device @device_id (-1: any) exists;
 * otherwise FALSE with the reason in @why (g_free). */
gboolean aooct_cuda_device_usable (gint device_id, gchar ** why);

/* Why a CUDA context cannot be created on @device_id (gst_cuda_context_new
 * only says that it failed): the driver's error, and for the errors that a
 * device fault leaves behind, what that means.  g_free. */
gchar *aooct_cuda_device_context_failure (gint device_id);

/* gst_cuda_context_push() with a GError naming @what on failure. */
gboolean aooct_cuda_device_push_context (GstCudaContext * context,
    const gchar * what, GError ** error);
void aooct_cuda_device_pop_context (void);

G_END_DECLS

#endif /* __AOOCT_CUDA_DEVICE_H__ */
