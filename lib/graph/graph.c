/*
 * Graphs made by stream capture: capture, instantiate, launch, update in place;
 * the graph's life (references held by executable graphs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

static const char *update_reason(enum cudaGraphExecUpdateResult r) {
  switch (r) {
    case cudaGraphExecUpdateSuccess:
      return "cudaGraphExecUpdateSuccess";
    case cudaGraphExecUpdateError:
      return "cudaGraphExecUpdateError: the update failed for an unexpected reason";
    case cudaGraphExecUpdateErrorTopologyChanged:
      return "cudaGraphExecUpdateErrorTopologyChanged: the topology changed (node count or "
             "dependencies differ)";
    case cudaGraphExecUpdateErrorNodeTypeChanged:
      return "cudaGraphExecUpdateErrorNodeTypeChanged: the type of a node changed";
    case cudaGraphExecUpdateErrorFunctionChanged:
      return "cudaGraphExecUpdateErrorFunctionChanged: the function of a kernel node changed";
    case cudaGraphExecUpdateErrorParametersChanged:
      return "cudaGraphExecUpdateErrorParametersChanged: node parameters changed in a way that "
             "cannot be updated";
    case cudaGraphExecUpdateErrorNotSupported:
      return "cudaGraphExecUpdateErrorNotSupported: something about a node cannot be updated";
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange:
      return "cudaGraphExecUpdateErrorUnsupportedFunctionChange: a kernel node's function "
             "changed in an unsupported way";
    case cudaGraphExecUpdateErrorAttributesChanged:
      return "cudaGraphExecUpdateErrorAttributesChanged: node attributes changed in a way that "
             "cannot be updated";
  }
  return "unknown cudaGraphExecUpdateResult";
}

jet_status jet_stream_begin_capture(jet_stream stream, jet_capture_mode mode) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  enum cudaStreamCaptureMode cm;
  switch (mode) {
    case JET_CAPTURE_GLOBAL:
      cm = cudaStreamCaptureModeGlobal;
      break;
    case JET_CAPTURE_THREAD_LOCAL:
      cm = cudaStreamCaptureModeThreadLocal;
      break;
    case JET_CAPTURE_RELAXED:
      cm = cudaStreamCaptureModeRelaxed;
      break;
    default:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__, "unknown capture mode %d",
                        (int)mode);
  }
  JET__TRY(jet__ctx_activate(stream->h.ctx, __func__));
  int legacy = stream->is_default && stream->cu == cudaStreamLegacy;
  if (!legacy) {
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    JET__CUDA(cudaStreamIsCapturing, (stream->cu, &cs));
    if (cs != cudaStreamCaptureStatusNone)
      return jet__error(JET_STATUS_INVALID_STATE, __func__,
                        "the stream is already %s; end that capture with jet_stream_end_capture "
                        "first",
                        cs == cudaStreamCaptureStatusActive ? "capturing"
                                                            : "in an invalidated capture");
  }
  cudaError_t e = cudaStreamBeginCapture(stream->cu, cm);
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (legacy) {
    (void)cudaGetLastError();
    return jet__error_native(JET_STATUS_UNSUPPORTED, __func__, "cudaStreamBeginCapture",
                             cudaGetErrorName(e), (int)e,
                             "capture a stream made by jet_stream_create, or the per-thread "
                             "default stream (JET_STREAM_PER_THREAD)",
                             "CUDA cannot capture the legacy default stream: %s",
                             cudaGetErrorString(e));
  }
  return jet__cuda_error(e, __func__, "cudaStreamBeginCapture", NULL, NULL);
}

jet_status jet_stream_end_capture(jet_stream stream, jet_graph *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__TRY(jet__ctx_activate(stream->h.ctx, __func__));
  enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  JET__CUDA(cudaStreamIsCapturing, (stream->cu, &cs));
  if (cs == cudaStreamCaptureStatusNone)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "the stream is not capturing; call jet_stream_begin_capture first");
  /* Allocate before ending, so that a lack of host memory leaves the capture
   * running instead of losing the graph. */
  struct jet_graph_s *g = jet__graph_alloc();
  if (!g) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a graph");
  cudaGraph_t cg = NULL;
  cudaError_t e = cudaStreamEndCapture(stream->cu, &cg);
  if (e != cudaSuccess || !cg) {
    if (cg) (void)cudaGraphDestroy(cg);
    free(g);
    const char *hint = NULL;
    if (e == cudaErrorStreamCaptureInvalidated)
      hint = "a call not allowed during capture (a synchronous copy or allocation, a query or "
             "synchronize touching the captured work, ...) invalidated it; the capture is "
             "ended now: capture again";
    else if (e == cudaErrorStreamCaptureWrongThread)
      hint = "with JET_CAPTURE_GLOBAL or JET_CAPTURE_THREAD_LOCAL end the capture on the thread "
             "that began it, or capture with JET_CAPTURE_RELAXED";
    else if (e == cudaErrorStreamCaptureUnjoined)
      hint = "every stream forked into the capture must be joined back: record an event on it "
             "and make the capturing stream wait on that event before ending";
    if (e == cudaSuccess)
      return jet__error(JET_STATUS_INTERNAL, __func__, "cudaStreamEndCapture returned no graph");
    return jet__cuda_error(e, __func__, "cudaStreamEndCapture", hint, NULL);
  }
  return jet__graph_adopt(g, stream->h.ctx, cg, out, __func__);
}

jet_status jet_stream_is_capturing(jet_stream stream, jet_capture_status *status) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__ARG(status, "status is NULL");
  JET__TRY(jet__ctx_activate(stream->h.ctx, __func__));
  enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(stream->cu, &cs);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaStreamIsCapturing",
                           e == cudaErrorStreamCaptureImplicit
                               ? "the legacy default stream cannot be asked while a blocking "
                                 "stream captures; capture on JET_STREAM_NON_BLOCKING streams"
                               : NULL,
                           NULL);
  *status = cs == cudaStreamCaptureStatusActive        ? JET_CAPTURE_ACTIVE
            : cs == cudaStreamCaptureStatusInvalidated ? JET_CAPTURE_INVALIDATED
                                                       : JET_CAPTURE_NONE;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ the graph's life */

struct jet_graph_s *jet__graph_alloc(void) {
  struct jet_graph_s *g = calloc(1, sizeof *g);
  if (g) {
    atomic_init(&g->refs, 1);
    atomic_init(&g->execs, 0);
  }
  return g;
}

static jet_graph_node_type node_type_of(enum cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel:
      return JET_GRAPH_NODE_KERNEL;
    case cudaGraphNodeTypeMemcpy:
      return JET_GRAPH_NODE_MEMCPY;
    case cudaGraphNodeTypeMemset:
      return JET_GRAPH_NODE_MEMSET;
    case cudaGraphNodeTypeHost:
      return JET_GRAPH_NODE_HOST;
    case cudaGraphNodeTypeGraph:
      return JET_GRAPH_NODE_CHILD_GRAPH;
    case cudaGraphNodeTypeEmpty:
      return JET_GRAPH_NODE_EMPTY;
    case cudaGraphNodeTypeWaitEvent:
      return JET_GRAPH_NODE_EVENT_WAIT;
    case cudaGraphNodeTypeEventRecord:
      return JET_GRAPH_NODE_EVENT_RECORD;
    case cudaGraphNodeTypeMemAlloc:
      return JET_GRAPH_NODE_MEM_ALLOC;
    case cudaGraphNodeTypeMemFree:
      return JET_GRAPH_NODE_MEM_FREE;
    case cudaGraphNodeTypeConditional:
      return JET_GRAPH_NODE_CONDITIONAL;
    default:
      return JET_GRAPH_NODE_OTHER;
  }
}

jet_status jet__graph_adopt(struct jet_graph_s *g, struct jet_context_s *ctx, cudaGraph_t cu,
                            jet_graph *out, const char *fn) {
  g->cu = cu;
  size_t n = 0;
  jet_status st = JET_STATUS_OK;
  cudaError_t e = cudaGraphGetNodes(cu, NULL, &n);
  if (e != cudaSuccess) {
    st = jet__cuda_error(e, fn, "cudaGraphGetNodes", NULL, NULL);
    goto fail;
  }
  if (n >= JET_GRAPH_NODE_NONE) {
    st = jet__error(JET_STATUS_OVERFLOW, fn, "the graph has %zu nodes", n);
    goto fail;
  }
  if (n) {
    cudaGraphNode_t *cn = calloc(n, sizeof *cn);
    g->nodes = calloc(n, sizeof *g->nodes);
    if (!cn || !g->nodes) {
      free(cn);
      st = jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a table of %zu nodes", n);
      goto fail;
    }
    e = cudaGraphGetNodes(cu, cn, &n);
    for (size_t i = 0; e == cudaSuccess && i < n; i++) {
      enum cudaGraphNodeType t = cudaGraphNodeTypeEmpty;
      e = cudaGraphNodeGetType(cn[i], &t);
      g->nodes[i].cu = cn[i];
      g->nodes[i].type = (int)node_type_of(t);
    }
    free(cn);
    if (e != cudaSuccess) {
      st = jet__cuda_error(e, fn, "cudaGraphGetNodes", NULL, NULL);
      goto fail;
    }
    g->count = g->cap = (uint32_t)n;
  }
  st = jet__handle_register(&g->h, JET__H_GRAPH, ctx, fn);
  if (st != JET_STATUS_OK) goto fail;
  *out = g;
  return JET_STATUS_OK;
fail:
  (void)cudaGraphDestroy(cu);
  free(g->nodes);
  free(g);
  return st;
}

static void bodies_free(struct jet_graph_s *g) {
  for (int i = 0; i < g->nbodies; i++) {
    struct jet_graph_s *b = g->bodies[i];
    bodies_free(b);
    jet__handle_unregister(&b->h);
    free(b->nodes);
    free(b);
  }
  free(g->bodies);
  g->bodies = NULL;
  g->nbodies = 0;
}

cudaError_t jet__graph_release(struct jet_graph_s *g) {
  if (atomic_fetch_sub(&g->refs, 1) != 1) return cudaSuccess;
  cudaError_t e = cudaGraphDestroy(g->cu); /* bodies go with it */
  bodies_free(g);
  free(g->nodes);
  free(g);
  return e;
}

jet_graph_node jet__graph_find(const struct jet_graph_s *g, cudaGraphNode_t cu) {
  if (!cu) return JET_GRAPH_NODE_NONE;
  for (uint32_t i = 0; i < g->count; i++)
    if (g->nodes[i].cu == cu) return i;
  return JET_GRAPH_NODE_NONE;
}

jet_status jet__graph_node_check(const struct jet_graph_s *g, jet_graph_node node, const char *fn,
                                 const char *what) {
  if (node >= g->count)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s %u is not a node of this graph (%u node indexes given out)", what,
                      (unsigned)node, (unsigned)g->count);
  if (!g->nodes[node].cu)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s %u was removed from the graph", what,
                      (unsigned)node);
  return JET_STATUS_OK;
}

jet_status jet_graph_destroy(jet_graph graph) {
  if (!graph) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  if (graph->parent)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "the graph is the body of a conditional node: it goes with its parent "
                      "graph");
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  jet__handle_unregister(&graph->h);
  cudaError_t e = jet__graph_release(graph);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphDestroy", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_graph_instantiate(jet_graph graph, jet_graph_exec *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__ARG(!graph->parent,
           "the graph is the body of a conditional node; instantiate its top-level graph");
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  struct jet_graph_exec_s *x = calloc(1, sizeof *x);
  jet__gnode *snap = graph->count ? malloc(graph->count * sizeof *snap) : NULL;
  if (!x || (graph->count && !snap)) {
    free(x);
    free(snap);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__,
                      "no host memory for an executable graph");
  }
  if (snap) memcpy(snap, graph->nodes, graph->count * sizeof *snap);
  cudaError_t e = cudaGraphInstantiate(&x->cu, graph->cu, 0);
  if (e != cudaSuccess) {
    free(x);
    free(snap);
    int single = 0; /* memory and conditional nodes allow one executable graph at a time */
    for (uint32_t i = 0; i < graph->count; i++)
      single |= graph->nodes[i].cu && (graph->nodes[i].type == JET_GRAPH_NODE_MEM_ALLOC ||
                                       graph->nodes[i].type == JET_GRAPH_NODE_CONDITIONAL);
    return jet__cuda_error(e, __func__, "cudaGraphInstantiate",
                           single && atomic_load(&graph->execs)
                               ? "a graph with memory or conditional nodes can have only one "
                                 "executable graph at a time: destroy the other first"
                               : NULL,
                           NULL);
  }
  jet_status st = jet__handle_register(&x->h, JET__H_GRAPH_EXEC, graph->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphExecDestroy(x->cu);
    free(x);
    free(snap);
    return st;
  }
  x->nodes = snap;
  x->count = graph->count;
  x->graph = graph;
  atomic_fetch_add(&graph->refs, 1);
  atomic_fetch_add(&graph->execs, 1);
  *out = x;
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_launch(jet_graph_exec exec, jet_stream stream) {
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, exec->h.ctx, &cu, __func__));
  JET__CUDA(cudaGraphLaunch, (exec->cu, cu));
  return JET_STATUS_OK;
}

jet_status jet_graph_upload(jet_graph_exec exec, jet_stream stream) {
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, exec->h.ctx, &cu, __func__));
  JET__CUDA(cudaGraphUpload, (exec->cu, cu));
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_update_info(jet_graph_exec exec, jet_graph graph,
                                      jet_graph_update_info *info) {
  JET__ARG(info, "info is NULL (jet_graph_exec_update takes none)");
  info->result = JET_GRAPH_UPDATE_ERROR;
  info->error_node = JET_GRAPH_NODE_NONE;
  info->error_from_node = JET_GRAPH_NODE_NONE;
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  JET__TRY(jet__handle_check_in(graph, JET__H_GRAPH, exec->h.ctx, __func__, "graph"));
  JET__ARG(!graph->parent, "the graph is the body of a conditional node");
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  cudaGraphExecUpdateResultInfo ri;
  ri.result = cudaGraphExecUpdateError;
  ri.errorNode = NULL;
  ri.errorFromNode = NULL;
  cudaError_t e = cudaGraphExecUpdate(exec->cu, graph->cu, &ri);
  /* CUDA's nodes are the new graph's; if not, the executable graph's original
   * graph's, whose indexes match when both were built the same way. */
  jet_graph_node bad = jet__graph_find(graph, ri.errorNode);
  if (bad == JET_GRAPH_NODE_NONE) bad = jet__graph_find(exec->graph, ri.errorNode);
  jet_graph_node bad_from = jet__graph_find(graph, ri.errorFromNode);
  if (bad_from == JET_GRAPH_NODE_NONE) bad_from = jet__graph_find(exec->graph, ri.errorFromNode);
  if (e == cudaSuccess || e == cudaErrorGraphExecUpdateFailure) {
    info->result = (jet_graph_update_result)ri.result;
    info->error_node = bad;
    info->error_from_node = bad_from;
  }
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (e == cudaErrorGraphExecUpdateFailure) {
    char where[96] = "";
    if (ri.errorFromNode)
      snprintf(where, sizeof where, "; the edge from node %d to node %d of the new graph",
               bad_from == JET_GRAPH_NODE_NONE ? -1 : (int)bad_from,
               bad == JET_GRAPH_NODE_NONE ? -1 : (int)bad);
    else if (ri.errorNode)
      snprintf(where, sizeof where, "; node %d of the new graph",
               bad == JET_GRAPH_NODE_NONE ? -1 : (int)bad);
    return jet__cuda_error(e, __func__, "cudaGraphExecUpdate",
                           "the executable graph is unchanged and still launches its previous "
                           "work; instantiate the new graph with jet_graph_instantiate instead",
                           "update refused: %s (result %d)%s", update_reason(ri.result),
                           (int)ri.result, where);
  }
  return jet__cuda_error(e, __func__, "cudaGraphExecUpdate", NULL, NULL);
}

jet_status jet_graph_exec_update(jet_graph_exec exec, jet_graph graph) {
  jet_graph_update_info info;
  return jet_graph_exec_update_info(exec, graph, &info);
}

jet_status jet_graph_exec_destroy(jet_graph_exec exec) {
  if (!exec) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  cudaError_t e = cudaGraphExecDestroy(exec->cu);
  atomic_fetch_sub(&exec->graph->execs, 1);
  cudaError_t eg = jet__graph_release(exec->graph);
  jet__handle_unregister(&exec->h);
  free(exec->nodes);
  free(exec);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphExecDestroy", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  if (eg != cudaSuccess)
    return jet__cuda_error(eg, __func__, "cudaGraphDestroy", NULL,
                           "%s, destroying the graph the executable graph came from (the "
                           "handle was released anyway)",
                           cudaGetErrorString(eg));
  return JET_STATUS_OK;
}

jet_status jet_graph_native(jet_graph graph, void **cuda_graph) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__ARG(cuda_graph, "cuda_graph is NULL");
  *cuda_graph = (void *)graph->cu;
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_native(jet_graph_exec exec, void **cuda_graph_exec) {
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  JET__ARG(cuda_graph_exec, "cuda_graph_exec is NULL");
  *cuda_graph_exec = (void *)exec->cu;
  return JET_STATUS_OK;
}
