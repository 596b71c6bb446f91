/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: one CUDA graph per element for the launches of a buffer (see
 * aooct-cuda-graph.h). */
#include <cuda_runtime.h>

#include "aooct-cuda-graph.h"
#include "aooct-cuda-check.h"

struct _AooctCudaGraph
{
  cudaGraphExec_t exec;
};

gboolean
aooct_cuda_graph_begin (AooctCudaStream stream, GError ** error)
{
  /* thread-local: the element's other threads (output task) may go on
   * calling the runtime */
  AOOCT_CUDA_CHECK (cudaStreamBeginCapture (stream,
          cudaStreamCaptureModeThreadLocal), error, "cudaStreamBeginCapture");
  return TRUE;
}

static gboolean
instantiate (AooctCudaGraph * g, cudaGraph_t captured, GError ** error)
{
  if (g->exec) {
    cudaGraphExecUpdateResultInfo info;

    /* same kernels, other pointers or scalars: updated in place */
    if (cudaGraphExecUpdate (g->exec, captured, &info) == cudaSuccess)
      return TRUE;
    /* another shape of work (a different path this buffer) */
    (void) cudaGetLastError ();
    cudaGraphExecDestroy (g->exec);
    g->exec = NULL;
  }
  AOOCT_CUDA_CHECK (cudaGraphInstantiate (&g->exec, captured, 0), error,
      "cudaGraphInstantiate");
  return TRUE;
}

gboolean
aooct_cuda_graph_end (AooctCudaGraph ** graph, AooctCudaStream stream,
    gboolean launch, GError ** error)
{
  cudaGraph_t captured = NULL;
  cudaError_t err = cudaStreamEndCapture (stream, &captured);
  gboolean ok;

  if (err != cudaSuccess || captured == NULL) {
    if (captured)
      cudaGraphDestroy (captured);
    if (err == cudaSuccess)
      err = cudaErrorStreamCaptureInvalidated;
    (void) cudaGetLastError ();
    return aooct_cuda_set_error (err, error, "capturing the step's launches "
        "into a CUDA graph");
  }
  if (!launch) {
    cudaGraphDestroy (captured);
    return TRUE;
  }
  if (*graph == NULL)
    *graph = g_new0 (AooctCudaGraph, 1);
  ok = instantiate (*graph, captured, error);
  cudaGraphDestroy (captured);
  if (!ok)
    return FALSE;
  AOOCT_CUDA_CHECK (cudaGraphLaunch ((*graph)->exec, stream), error,
      "cudaGraphLaunch");
  return TRUE;
}

void
aooct_cuda_graph_free (AooctCudaGraph * graph)
{
  if (graph == NULL)
    return;
  if (graph->exec)
    cudaGraphExecDestroy (graph->exec);
  g_free (graph);
}
