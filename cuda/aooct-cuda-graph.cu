/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct: one CUDA graph per element for the launches of a buffer (see
 * aooct-cuda-graph.h). */
#include <cuda_runtime.h>

#include "aooct-cuda-graph.h"
#include "aooct-cuda-check.h"

#include <string.h>

typedef struct
{
  guint8 key[AOOCT_CUDA_GRAPH_KEY_MAX];
  gsize len;
  cudaGraphExec_t exec;
} Kept;

/* What cudaGraphExecUpdate needs unchanged (its documentation lists the
 * constraints): the nodes in capture order and their types, the copies'
 * directions and the memsets' shapes.  Other differences (pointers,
 * scalars, grids, a kernel's function) it updates.  The kernels'
 * functions are not read: cudaGraphKernelNodeGetParams fails on nodes
 * launched through the driver API (cuFFT's), with an error that
 * compute-sanitizer reports. */
#define SHAPE_NODES 32
typedef struct
{
  size_t n;
  struct
  {
    cudaGraphNodeType type;
    gsize what[3];              /* memcpy: kind; memset: element size,
                                 * width, height */
  } node[SHAPE_NODES];
} Shape;

struct _AooctCudaGraph
{
  cudaGraphExec_t exec;         /* unkeyed: updated in place per buffer */
  Shape exec_shape;             /* ... from a graph of this shape */
  Kept kept[AOOCT_CUDA_GRAPH_KEYS];
  guint n_kept;
};

static Kept *
find_kept (AooctCudaGraph * g, const guint8 * key, gsize len)
{
  guint i;

  for (i = 0; g && i < g->n_kept; i++)
    if (g->kept[i].len == len && memcmp (g->kept[i].key, key, len) == 0)
      return &g->kept[i];
  return NULL;
}

gboolean
aooct_cuda_graph_launch_kept (AooctCudaGraph * graph, const guint8 * key,
    gsize len, AooctCudaStream stream, gboolean * hit, GError ** error)
{
  Kept *k = find_kept (graph, key, len);

  *hit = k != NULL;
  if (k == NULL)
    return TRUE;
  AOOCT_CUDA_CHECK (cudaGraphLaunch (k->exec, stream), error,
      "cudaGraphLaunch (a kept graph)");
  return TRUE;
}

gboolean
aooct_cuda_graph_begin (AooctCudaStream stream, GError ** error)
{
  /* thread-local: the element's other threads (output task) may go on
   * calling the runtime */
  AOOCT_CUDA_CHECK (cudaStreamBeginCapture (stream,
          cudaStreamCaptureModeThreadLocal), error, "cudaStreamBeginCapture");
  return TRUE;
}

/* @shape of @graph; n = 0 (matching nothing) where it cannot be read or
 * has more than SHAPE_NODES nodes */
static void
shape_of (cudaGraph_t graph, Shape * shape)
{
  cudaGraphNode_t nodes[SHAPE_NODES];
  size_t n = 0, i;

  memset (shape, 0, sizeof (*shape));
  /* the count first: given an array, cudaGraphGetNodes fills at most its
   * size and says nothing of the nodes beyond */
  if (cudaGraphGetNodes (graph, NULL, &n) != cudaSuccess || n > SHAPE_NODES
      || cudaGraphGetNodes (graph, nodes, &n) != cudaSuccess) {
    (void) cudaGetLastError ();
    return;
  }
  for (i = 0; i < n; i++) {
    cudaMemcpy3DParms mp;
    cudaMemsetParams sp;

    if (cudaGraphNodeGetType (nodes[i], &shape->node[i].type) != cudaSuccess)
      goto unreadable;
    if (shape->node[i].type == cudaGraphNodeTypeMemcpy) {
      if (cudaGraphMemcpyNodeGetParams (nodes[i], &mp) != cudaSuccess)
        goto unreadable;
      shape->node[i].what[0] = (gsize) mp.kind;
    } else if (shape->node[i].type == cudaGraphNodeTypeMemset) {
      if (cudaGraphMemsetNodeGetParams (nodes[i], &sp) != cudaSuccess)
        goto unreadable;
      shape->node[i].what[0] = sp.elementSize;
      shape->node[i].what[1] = sp.width;
      shape->node[i].what[2] = sp.height;
    }
  }
  shape->n = n;
  return;

unreadable:
  (void) cudaGetLastError ();
  shape->n = 0;
}

static gboolean
instantiate (AooctCudaGraph * g, cudaGraph_t captured, GError ** error)
{
  Shape shape;

  shape_of (captured, &shape);
  if (g->exec) {
    cudaGraphExecUpdateResultInfo info;

    /* same kernels, other pointers or scalars: updated in place.  Another
     * shape of work (a different path this buffer, a table uploaded) is
     * not tried: the update would fail, and a failed call is an error to
     * tools like compute-sanitizer */
    if (shape.n > 0 && memcmp (&shape, &g->exec_shape, sizeof (shape)) == 0
        && cudaGraphExecUpdate (g->exec, captured, &info) == cudaSuccess)
      return TRUE;
    (void) cudaGetLastError ();
    cudaGraphExecDestroy (g->exec);
    g->exec = NULL;
  }
  AOOCT_CUDA_CHECK (cudaGraphInstantiate (&g->exec, captured, 0), error,
      "cudaGraphInstantiate");
  g->exec_shape = shape;
  return TRUE;
}

/* A new exec for @key, kept; FALSE (nothing kept) when the cache is
 * full or the key does not fit. */
static gboolean
keep (AooctCudaGraph * g, cudaGraph_t captured, const guint8 * key,
    gsize len, cudaGraphExec_t * exec, GError ** error)
{
  Kept *k;

  *exec = NULL;
  if (key == NULL || len == 0 || len > AOOCT_CUDA_GRAPH_KEY_MAX
      || g->n_kept == AOOCT_CUDA_GRAPH_KEYS || find_kept (g, key, len))
    return TRUE;
  k = &g->kept[g->n_kept];
  AOOCT_CUDA_CHECK (cudaGraphInstantiate (&k->exec, captured, 0), error,
      "cudaGraphInstantiate (a kept graph)");
  memcpy (k->key, key, len);
  k->len = len;
  g->n_kept++;
  *exec = k->exec;
  return TRUE;
}

gboolean
aooct_cuda_graph_end (AooctCudaGraph ** graph, AooctCudaStream stream,
    gboolean launch, const guint8 * key, gsize len, GError ** error)
{
  cudaGraph_t captured = NULL;
  cudaError_t err = cudaStreamEndCapture (stream, &captured);
  cudaGraphExec_t exec = NULL;
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
  ok = keep (*graph, captured, key, len, &exec, error);
  if (ok && exec == NULL) {
    ok = instantiate (*graph, captured, error);
    exec = (*graph)->exec;
  }
  cudaGraphDestroy (captured);
  if (!ok)
    return FALSE;
  AOOCT_CUDA_CHECK (cudaGraphLaunch (exec, stream), error, "cudaGraphLaunch");
  return TRUE;
}

void
aooct_cuda_graph_free (AooctCudaGraph * graph)
{
  if (graph == NULL)
    return;
  if (graph->exec)
    cudaGraphExecDestroy (graph->exec);
  for (guint i = 0; i < graph->n_kept; i++)
    cudaGraphExecDestroy (graph->kept[i].exec);
  g_free (graph);
}
