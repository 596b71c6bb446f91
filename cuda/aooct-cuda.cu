/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct CUDA core: runtime wrappers with checked errors (see aooct-cuda.h). */
#include <stdarg.h>

#include "aooct-cuda.h"
#include "aooct-cuda-check.h"

static gboolean
set_error_va (GError ** error, const gchar * name, const gchar * text,
    const gchar * format, va_list args)
{
  gchar *what = g_strdup_vprintf (format, args);

  g_set_error (error, AOOCT_ERROR, AOOCT_ERROR_FAILED, "%s failed: %s (%s)",
      what, name, text);
  g_free (what);
  return FALSE;
}

gboolean
aooct_cuda_set_error (cudaError_t err, GError ** error, const gchar * format,
    ...)
{
  va_list args;

  va_start (args, format);
  set_error_va (error, cudaGetErrorName (err), cudaGetErrorString (err),
      format, args);
  va_end (args);
  /* the runtime also keeps a failed call's error as this thread's "last
   * error", which the next kernel-launch check (cudaGetLastError) would
   * report: a cudaMalloc that ran out of memory in one pipeline would fail
   * the first launch of the next pipeline on this streaming thread.  It
   * is reported here; forget it (a sticky error stays regardless). */
  (void) cudaGetLastError ();
  return FALSE;
}

void
aooct_cuda_clear_stale_error (void)
{
  (void) cudaGetLastError ();
}

const gchar *
aooct_cufft_result_name (cufftResult res)
{
  switch (res) {
    case CUFFT_SUCCESS:
      return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
      return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE:
      return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE:
      return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED:
      return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "unknown cuFFT result";
  }
}

gboolean
aooct_cufft_set_error (cufftResult res, GError ** error, const gchar * format,
    ...)
{
  va_list args;
  gchar *code = g_strdup_printf ("cuFFT result %d", (gint) res);

  va_start (args, format);
  set_error_va (error, aooct_cufft_result_name (res), code, format, args);
  va_end (args);
  g_free (code);
  return FALSE;
}

gboolean
aooct_cuda_malloc (gsize size, gpointer * dptr, GError ** error)
{
  *dptr = NULL;
  AOOCT_CUDA_CHECK (cudaMalloc (dptr, size), error,
      "cudaMalloc of %" G_GSIZE_FORMAT " bytes", size);
  return TRUE;
}

gboolean
aooct_cuda_error_is_sticky (cudaError_t err)
{
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return TRUE;
    default:
      return FALSE;
  }
}

/* A failed release: a bug worth a warning, except in a context that a
 * device fault has already lost (the fault was reported as an element
 * error; every later call of that context fails the same way, and the
 * memory goes with the context). */
static void
release_failed (const gchar * what, cudaError_t err)
{
  if (aooct_cuda_error_is_sticky (err))
    g_debug ("aooct: %s after a device fault: %s", what,
        cudaGetErrorName (err));
  else
    g_warning ("aooct: %s failed: %s (%s)", what, cudaGetErrorName (err),
        cudaGetErrorString (err));
}

void
aooct_cuda_free (gpointer dptr)
{
  cudaError_t err;

  if (dptr == NULL)
    return;
  err = cudaFree (dptr);
  if (err != cudaSuccess)
    release_failed ("cudaFree", err);
}

gboolean
aooct_cuda_malloc_host (gsize size, gpointer * hptr, GError ** error)
{
  *hptr = NULL;
  AOOCT_CUDA_CHECK (cudaMallocHost (hptr, size), error,
      "cudaMallocHost (page-locked staging) of %" G_GSIZE_FORMAT " bytes",
      size);
  return TRUE;
}

gboolean
aooct_cuda_malloc_host_portable (gsize size, gpointer * hptr, GError ** error)
{
  *hptr = NULL;
  AOOCT_CUDA_CHECK (cudaHostAlloc (hptr, size, cudaHostAllocPortable), error,
      "cudaHostAlloc (page-locked input buffer) of %" G_GSIZE_FORMAT
      " bytes", size);
  return TRUE;
}

void
aooct_cuda_free_host (gpointer hptr)
{
  cudaError_t err;

  if (hptr == NULL)
    return;
  err = cudaFreeHost (hptr);
  if (err != cudaSuccess)
    release_failed ("cudaFreeHost", err);
}

gboolean
aooct_cuda_host_register_read_only (gpointer hptr, gsize size, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaHostRegister (hptr, size, cudaHostRegisterPortable |
          cudaHostRegisterReadOnly), error,
      "cudaHostRegister (read-only, a window of %" G_GSIZE_FORMAT
      " bytes of a mapped file)", size);
  return TRUE;
}

void
aooct_cuda_host_unregister (gpointer hptr)
{
  cudaError_t err;

  if (hptr == NULL)
    return;
  err = cudaHostUnregister (hptr);
  if (err != cudaSuccess)
    release_failed ("cudaHostUnregister", err);
}

gboolean
aooct_cuda_stream_new (AooctCudaStream * stream, GError ** error)
{
  cudaStream_t s = NULL;

  *stream = NULL;
  AOOCT_CUDA_CHECK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking),
      error, "cudaStreamCreateWithFlags");
  *stream = s;
  return TRUE;
}

gboolean
aooct_cuda_stream_new_ranked (AooctCudaStream * stream, int rank,
    GError ** error)
{
  cudaStream_t s = NULL;
  int least, greatest;          /* e.g. 0 and -5: a lower number is higher */

  *stream = NULL;
  AOOCT_CUDA_CHECK (cudaDeviceGetStreamPriorityRange (&least, &greatest),
      error, "cudaDeviceGetStreamPriorityRange");
  AOOCT_CUDA_CHECK (cudaStreamCreateWithPriority (&s, cudaStreamNonBlocking,
          MAX (greatest, least - rank)), error, "cudaStreamCreateWithPriority");
  *stream = s;
  return TRUE;
}

void
aooct_cuda_stream_free (AooctCudaStream stream)
{
  if (stream)
    cudaStreamDestroy (stream);
}

gboolean
aooct_cuda_stream_sync (AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaStreamSynchronize (stream), error,
      "cudaStreamSynchronize (GPU work of this element)");
  return TRUE;
}

gboolean
aooct_cuda_event_new (AooctCudaEvent * event, GError ** error)
{
  cudaEvent_t e = NULL;

  *event = NULL;
  AOOCT_CUDA_CHECK (cudaEventCreateWithFlags (&e, cudaEventDisableTiming),
      error, "cudaEventCreateWithFlags");
  *event = e;
  return TRUE;
}

void
aooct_cuda_event_free (AooctCudaEvent event)
{
  if (event)
    cudaEventDestroy (event);
}

gboolean
aooct_cuda_event_record (AooctCudaEvent event, AooctCudaStream stream,
    GError ** error)
{
  AOOCT_CUDA_CHECK (cudaEventRecord (event, stream), error,
      "cudaEventRecord");
  return TRUE;
}

gboolean
aooct_cuda_stream_wait (AooctCudaStream stream, AooctCudaEvent event,
    GError ** error)
{
  AOOCT_CUDA_CHECK (cudaStreamWaitEvent (stream, event, 0), error,
      "cudaStreamWaitEvent");
  return TRUE;
}

gboolean
aooct_cuda_event_sync (AooctCudaEvent event, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaEventSynchronize (event), error,
      "cudaEventSynchronize (waiting for the GPU work on a buffer)");
  return TRUE;
}

gboolean
aooct_cuda_event_done (AooctCudaEvent event, gboolean * done, GError ** error)
{
  cudaError_t err = cudaEventQuery (event);

  *done = err == cudaSuccess;
  if (err == cudaErrorNotReady)
    return TRUE;
  AOOCT_CUDA_CHECK (err, error, "cudaEventQuery");
  return TRUE;
}

gboolean
aooct_cuda_timing_event_new (AooctCudaEvent * event, GError ** error)
{
  cudaEvent_t e = NULL;

  *event = NULL;
  AOOCT_CUDA_CHECK (cudaEventCreateWithFlags (&e, cudaEventDefault), error,
      "cudaEventCreateWithFlags (timing)");
  *event = e;
  return TRUE;
}

gboolean
aooct_cuda_event_elapsed_ms (AooctCudaEvent start, AooctCudaEvent end,
    gfloat * ms, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaEventElapsedTime (ms, start, end), error,
      "cudaEventElapsedTime");
  return TRUE;
}

gboolean
aooct_cuda_upload_async (gpointer dst, gconstpointer src, gsize size,
    AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaMemcpyAsync (dst, src, size, cudaMemcpyHostToDevice,
          stream), error, "upload of %" G_GSIZE_FORMAT " bytes to the GPU",
      size);
  return TRUE;
}

gboolean
aooct_cuda_download_async (gpointer dst, gconstpointer src, gsize size,
    AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaMemcpyAsync (dst, src, size, cudaMemcpyDeviceToHost,
          stream), error, "download of %" G_GSIZE_FORMAT " bytes from the GPU",
      size);
  return TRUE;
}

gboolean
aooct_cuda_memset_async (gpointer dst, gint value, gsize size,
    AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaMemsetAsync (dst, value, size, stream), error,
      "cudaMemsetAsync of %" G_GSIZE_FORMAT " bytes", size);
  return TRUE;
}

gboolean
aooct_cuda_memset_2d_async (gpointer dst, gsize pitch, gint value,
    gsize width, gsize rows, AooctCudaStream stream, GError ** error)
{
  AOOCT_CUDA_CHECK (cudaMemset2DAsync (dst, pitch, value, width, rows,
          stream), error, "cudaMemset2DAsync of %" G_GSIZE_FORMAT " rows of %"
      G_GSIZE_FORMAT " bytes", rows, width);
  return TRUE;
}

gboolean
aooct_cuda_upload (gpointer dst, gconstpointer src, gsize size,
    GError ** error)
{
  AOOCT_CUDA_CHECK (cudaMemcpy (dst, src, size, cudaMemcpyHostToDevice),
      error, "upload of a %" G_GSIZE_FORMAT "-byte table to the GPU", size);
  /* From pageable memory cudaMemcpy may return before the DMA has landed,
   * and the elements' non-blocking streams do not wait for the legacy
   * stream: finish the copy here (tables are uploaded at setup, rarely). */
  AOOCT_CUDA_CHECK (cudaStreamSynchronize (0), error,
      "waiting for a table upload to the GPU");
  return TRUE;
}

gboolean
aooct_cuda_upload_new (gpointer * dptr, gconstpointer src, gsize size,
    GError ** error)
{
  return aooct_cuda_malloc (MAX (size, 1), dptr, error)
      && (size == 0 || aooct_cuda_upload (*dptr, src, size, error));
}
