/*
 * Graphs made by stream capture: capture, instantiate, launch, update in place.
 */
#include <stdlib.h>

#include "stream_internal.h"

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
  struct jet_graph_s *g = calloc(1, sizeof *g);
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
  g->cu = cg;
  jet_status st = jet__handle_register(&g->h, JET__H_GRAPH, stream->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphDestroy(cg);
    free(g);
    return st;
  }
  *out = g;
  return JET_STATUS_OK;
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

jet_status jet_graph_destroy(jet_graph graph) {
  if (!graph) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  cudaError_t e = cudaGraphDestroy(graph->cu);
  jet__handle_unregister(&graph->h);
  free(graph);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphDestroy", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_graph_instantiate(jet_graph graph, jet_graph_exec *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  struct jet_graph_exec_s *x = calloc(1, sizeof *x);
  if (!x)
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__,
                      "no host memory for an executable graph");
  cudaError_t e = cudaGraphInstantiate(&x->cu, graph->cu, 0);
  if (e != cudaSuccess) {
    free(x);
    return jet__cuda_error(e, __func__, "cudaGraphInstantiate", NULL, NULL);
  }
  jet_status st = jet__handle_register(&x->h, JET__H_GRAPH_EXEC, graph->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphExecDestroy(x->cu);
    free(x);
    return st;
  }
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

jet_status jet_graph_exec_update(jet_graph_exec exec, jet_graph graph) {
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  JET__TRY(jet__handle_check_in(graph, JET__H_GRAPH, exec->h.ctx, __func__, "graph"));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  cudaGraphExecUpdateResultInfo info;
  info.result = cudaGraphExecUpdateError;
  info.errorNode = NULL;
  info.errorFromNode = NULL;
  cudaError_t e = cudaGraphExecUpdate(exec->cu, graph->cu, &info);
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (e == cudaErrorGraphExecUpdateFailure)
    return jet__cuda_error(e, __func__, "cudaGraphExecUpdate",
                           "the executable graph is unchanged and still launches its previous "
                           "work; instantiate the new graph with jet_graph_instantiate instead",
                           "update refused: %s (result %d)%s", update_reason(info.result),
                           (int)info.result,
                           info.errorFromNode ? "; an edge of the new graph does not match"
                           : info.errorNode   ? "; a node of the new graph does not match"
                                              : "");
  return jet__cuda_error(e, __func__, "cudaGraphExecUpdate", NULL, NULL);
}

jet_status jet_graph_exec_destroy(jet_graph_exec exec) {
  if (!exec) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, __func__, "exec"));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  cudaError_t e = cudaGraphExecDestroy(exec->cu);
  jet__handle_unregister(&exec->h);
  free(exec);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphExecDestroy", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}
