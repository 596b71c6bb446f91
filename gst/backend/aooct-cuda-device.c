/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: CUDA device check and context helpers (see aooct-cuda-device.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/cuda-gst.h>

#include "aooct-cuda-device.h"
#include "aooct-error.h"

static gint device_count = -1;
static gchar *no_device_reason;

static void
probe_devices (void)
{
  CUresult res;
  int count = 0;

  /* libgstcuda dlopen()s libcuda; without a driver this fails cleanly.
   * It must also precede gst_cuda_context_new() (1.22 aborts otherwise). */
  if (!gst_cuda_load_library ()) {
    no_device_reason = g_strdup ("the NVIDIA driver library libcuda could "
        "not be loaded (no NVIDIA driver installed?)");
    device_count = 0;
    return;
  }
  res = CuInit (0);
  if (res == CUDA_SUCCESS)
    res = CuDeviceGetCount (&count);
  if (res != CUDA_SUCCESS) {
    const gchar *name = NULL, *text = NULL;

    CuGetErrorName (res, &name);
    CuGetErrorString (res, &text);
    no_device_reason = g_strdup_printf ("CUDA driver initialisation failed: "
        "%s (%s)", name ? name : "?", text ? text : "?");
    count = 0;
  } else if (count == 0) {
    no_device_reason = g_strdup ("the NVIDIA driver reports no CUDA device");
  }
  device_count = count;
}

gboolean
aooct_cuda_device_usable (gint device_id, gchar ** why)
{
  static gsize probed = 0;

  if (g_once_init_enter (&probed)) {
    probe_devices ();
    g_once_init_leave (&probed, 1);
  }
  if (device_count <= 0) {
    if (why)
      *why = g_strdup (no_device_reason);
    return FALSE;
  }
  if (device_id >= device_count) {
    if (why)
      *why = g_strdup_printf ("cuda-device-id=%d, but there %s only %d CUDA "
          "device%s (ids 0 to %d)", device_id, device_count == 1 ? "is" :
          "are", device_count, device_count == 1 ? "" : "s", device_count - 1);
    return FALSE;
  }
  return TRUE;
}

gboolean
aooct_cuda_device_push_context (GstCudaContext * context, const gchar * what,
    GError ** error)
{
  if (context == NULL || !gst_cuda_context_push (context)) {
    g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED,
        "cannot make the CUDA context current for %s", what);
    return FALSE;
  }
  return TRUE;
}

void
aooct_cuda_device_pop_context (void)
{
  gst_cuda_context_pop (NULL);
}

gchar *
aooct_cuda_device_context_failure (gint device_id)
{
  CUdevice dev;
  CUcontext ctx = NULL, prev = NULL;
  CUresult res;
  const gchar *name = NULL, *text = NULL;

  res = CuDeviceGet (&dev, MAX (device_id, 0));
  if (res == CUDA_SUCCESS) {
    res = CuCtxCreate (&ctx, 0, dev);
    if (res == CUDA_SUCCESS) {
      CuCtxPopCurrent (&prev);
      CuCtxDestroy (ctx);
      return g_strdup ("the CUDA driver gave no reason");
    }
  }
  CuGetErrorName (res, &name);
  CuGetErrorString (res, &text);
  switch (res) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
      /* measured (docs/robustness.md): even with the faulty context
       * destroyed, cuCtxCreate fails so for the rest of the process */
      return g_strdup_printf ("%s (%s): the CUDA driver refuses new "
          "contexts in this process after an earlier fault on the GPU; "
          "only a new process can use the GPU again", name ? name : "?",
          text ? text : "?");
    default:
      return g_strdup_printf ("%s (%s)", name ? name : "?", text ? text : "?");
  }
}
