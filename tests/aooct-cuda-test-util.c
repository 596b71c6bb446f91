/* aooct tests: CUDA helpers (see aooct-cuda-test-util.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "aooct-cuda-test-util.h"

#ifdef HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/cuda-gst.h>
#endif

gboolean
aooct_test_cuda_available (gchar ** why)
{
#ifdef HAVE_CUDA
  CUresult res;
  int count = 0;

  /* the same probe as the elements', done independently so that a wrong
   * answer there cannot hide a GPU test here */
  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("libcuda cannot be loaded (no NVIDIA driver)");
    return FALSE;
  }
  res = CuInit (0);
  if (res == CUDA_SUCCESS)
    res = CuDeviceGetCount (&count);
  if (res != CUDA_SUCCESS) {
    const gchar *name = NULL;
    CuGetErrorName (res, &name);
    *why = g_strdup_printf ("CUDA driver initialisation failed: %s",
        name ? name : "?");
    return FALSE;
  }
  if (count == 0) {
    *why = g_strdup ("no CUDA device");
    return FALSE;
  }
  return TRUE;
#else
  *why = g_strdup ("this build has no CUDA backend");
  return FALSE;
#endif
}
