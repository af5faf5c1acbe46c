/*
 * jetrt/graph.h - CUDA graphs made by stream capture.
 *
 * Capture records the work enqueued on a stream, instead of running it, into a
 * jet_graph. Instantiating the graph gives a jet_graph_exec that launches the
 * whole sequence with one cheap call. The intended use is a per-frame pipeline:
 *
 *   jet_stream_begin_capture(s, JET_CAPTURE_THREAD_LOCAL);
 *   ... enqueue the frame's copies, kernels, host callbacks on s ...
 *   jet_stream_end_capture(s, &g);
 *   jet_graph_instantiate(g, &x);
 *   jet_graph_destroy(g);                  // x does not need g any more
 *   for each frame: jet_graph_exec_launch(x, s);
 *
 * When parameters change (other pointers, sizes of a memset, kernel arguments,
 * ...) capture the pipeline again and jet_graph_exec_update(x, g2): if the new
 * graph has the same shape, x is updated in place (much cheaper than a new
 * instantiation); if not, JET_STATUS_GRAPH_UPDATE_FAILED leaves x as it was and
 * you instantiate g2 instead.
 *
 * A graph records pointers and values, not the data behind them: each launch
 * reads the buffers as they are at that time.
 *
 * Thread safety: jet_graph and jet_graph_exec objects are not internally
 * synchronised (CUDA's graph objects are not): no two threads may use the same
 * graph or executable graph at the same time; different ones are independent.
 */
#ifndef JETRT_GRAPH_H
#define JETRT_GRAPH_H

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a capture restricts "unsafe" CUDA calls (cudaStreamCaptureMode). Unsafe
 *  calls are those that could synchronise with the captured work implicitly,
 *  e.g. cudaMalloc or a synchronous cudaMemcpy; made while a capture they
 *  concern is active, they fail and invalidate the capture. */
typedef enum jet_capture_mode {
  /** Unsafe calls are refused on every thread while any global-mode capture
   *  runs in the process, and on this thread while it has any non-relaxed
   *  capture. The safest choice when other threads might interfere. */
  JET_CAPTURE_GLOBAL = 0,
  /** Unsafe calls are refused only on the capturing thread. Good for one
   *  pipeline per thread. */
  JET_CAPTURE_THREAD_LOCAL = 1,
  /** Unsafe calls are not refused; calls that truly conflict with capture
   *  still fail. jet_stream_end_capture may come from another thread. */
  JET_CAPTURE_RELAXED = 2
} jet_capture_mode;

/** Capture state of a stream (jet_stream_is_capturing). */
typedef enum jet_capture_status {
  JET_CAPTURE_NONE = 0,       /**< not capturing */
  JET_CAPTURE_ACTIVE = 1,     /**< capturing */
  JET_CAPTURE_INVALIDATED = 2 /**< a capture failed; jet_stream_end_capture must still end it */
} jet_capture_status;

/**
 * jet_stream_begin_capture - start recording the work enqueued on @stream.
 *
 * Until jet_stream_end_capture, work enqueued on @stream (and on streams that
 * wait on events recorded in it) is recorded, not run. Do not query or
 * synchronize the stream while it captures (jetrt refuses both with
 * JET_STATUS_INVALID_STATE rather than invalidating the capture).
 * @stream: a stream from jet_stream_create or the per-thread default stream.
 *          The legacy default stream cannot be captured.
 * @mode: a jet_capture_mode. With GLOBAL or THREAD_LOCAL, end the capture on
 *        the thread that began it.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for an unknown @mode;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE when @stream is
 *         already capturing; JET_STATUS_UNSUPPORTED for the legacy default
 *         stream (CUDA refuses it; the hint says what to use); or a CUDA status.
 * Thread safety: safe from any thread; see @mode for which thread ends it.
 */
jet_status jet_stream_begin_capture(jet_stream stream, jet_capture_mode mode);

/**
 * jet_stream_end_capture - stop capturing @stream and return what was recorded.
 * @stream: the capturing stream.
 * @out: receives the graph (owned by the caller; jet_graph_destroy); NULL on
 *       failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE when @stream is
 *         not capturing, when the capture was invalidated by a call not allowed
 *         during capture (the capture is ended, nothing is returned; capture
 *         again), when a forked stream was not joined back, or when called from
 *         the wrong thread; or a CUDA status.
 * Thread safety: see jet_stream_begin_capture's @mode.
 */
jet_status jet_stream_end_capture(jet_stream stream, jet_graph *out);

/**
 * jet_stream_is_capturing - the capture state of @stream.
 * @status: receives a jet_capture_status.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @status;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE when asked about
 *         the legacy stream while a blocking stream captures (CUDA cannot
 *         tell); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_is_capturing(jet_stream stream, jet_capture_status *status);

/**
 * jet_graph_destroy - release a graph.
 *
 * Executable graphs instantiated from it are independent and stay valid.
 * @graph: the graph, or NULL (a no-op).
 * @return JET_STATUS_OK or JET_STATUS_INVALID_HANDLE. If CUDA itself fails,
 *         the handle is released anyway and the CUDA status returned.
 * Thread safety: no other thread may use @graph during or after the call.
 */
jet_status jet_graph_destroy(jet_graph graph);

/**
 * jet_graph_instantiate - make an executable graph from @graph.
 * @graph: the graph; it may be destroyed right after.
 * @out: receives the executable graph; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_OUT_OF_MEMORY; or a CUDA status.
 * Thread safety: no other thread may use @graph during the call.
 */
jet_status jet_graph_instantiate(jet_graph graph, jet_graph_exec *out);

/**
 * jet_graph_exec_launch - enqueue the whole executable graph on @stream.
 *
 * Launches of one executable graph never overlap each other: a launch starts
 * after the previous launch of it has finished, whichever streams they were on.
 * @exec: the executable graph.
 * @stream: any stream of the same context, default streams included.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         or a CUDA status.
 * Thread safety: no other thread may use @exec during the call.
 */
jet_status jet_graph_exec_launch(jet_graph_exec exec, jet_stream stream);

/**
 * jet_graph_exec_update - give @exec the parameters of @graph, in place.
 *
 * Works when @graph has the same topology as the graph @exec came from (same
 * nodes, node types and dependencies) and only parameters CUDA can update
 * changed (cudaGraphExecUpdate's rules: e.g. memset value and address, copy
 * addresses, kernel arguments, host callback function and data). Launches
 * already enqueued are not affected; later launches use the new parameters.
 * @exec: the executable graph to update.
 * @graph: the new graph, e.g. re-captured with new parameters; it stays owned
 *         by the caller and may be destroyed after the call.
 * @return JET_STATUS_OK; JET_STATUS_GRAPH_UPDATE_FAILED when the graph cannot
 *         be applied (the message names CUDA's reason, e.g. topology changed):
 *         @exec is left unchanged and still launches its old work, instantiate
 *         @graph instead; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         or a CUDA status.
 * Thread safety: no other thread may use @exec or @graph during the call.
 */
jet_status jet_graph_exec_update(jet_graph_exec exec, jet_graph graph);

/**
 * jet_graph_exec_destroy - release an executable graph.
 *
 * Launches already enqueued still complete.
 * @exec: the executable graph, or NULL (a no-op).
 * @return JET_STATUS_OK or JET_STATUS_INVALID_HANDLE. If CUDA itself fails,
 *         the handle is released anyway and the CUDA status returned.
 * Thread safety: no other thread may use @exec during or after the call.
 */
jet_status jet_graph_exec_destroy(jet_graph_exec exec);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_GRAPH_H */
