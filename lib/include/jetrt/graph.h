/*
 * jetrt/graph.h - CUDA graphs, made by stream capture or built node by node.
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
 * Graphs can also be built explicitly (jet_graph_create, jet_graph_add_*),
 * queried, cloned, and an executable graph's nodes updated one by one without
 * a new capture (jet_graph_exec_set_*); see "Explicit construction" below.
 *
 * Thread safety: jet_graph and jet_graph_exec objects are not internally
 * synchronised (CUDA's graph objects are not): no two threads may use the same
 * graph or executable graph at the same time; different ones are independent.
 */
#ifndef JETRT_GRAPH_H
#define JETRT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "l2.h"
#include "memory.h"
#include "module.h"
#include "stream.h"

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
 * Executable graphs instantiated from it stay valid (jetrt keeps CUDA's graph
 * until the last of them is destroyed, for their per-node updates).
 * @graph: the graph, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for the body of a conditional node (it goes with its parent). If CUDA itself fails,
 *         the handle is released anyway and the CUDA status returned.
 * Thread safety: no other thread may use @graph during or after the call.
 */
jet_status jet_graph_destroy(jet_graph graph);

/**
 * jet_graph_instantiate - make an executable graph from @graph.
 * @graph: the graph; it may be destroyed right after. Its node indexes name
 *         the nodes of the executable graph (jet_graph_exec_set_*).
 * @out: receives the executable graph; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out or a
 *         conditional body; a CUDA status (INVALID_ARGUMENT) for a second
 *         executable graph of a graph with memory or conditional nodes;
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
 *         be applied (the message names CUDA's reason, e.g. topology changed,
 *         and the index of the node of @graph that did not match;
 *         jet_graph_exec_update_info gives both as values):
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

/* ================================================================== explicit construction */

/*
 * Nodes. A jet_graph_node is the index of a node in its graph's node table,
 * given out in order of creation (0, 1, 2, ...) by the jet_graph_add_*
 * functions. It is a plain value, owned by nobody: it names a node of one
 * graph only, and is checked against that graph's table on every use, so a
 * wrong or stale index is JET_STATUS_INVALID_ARGUMENT, never a crash. Indexes
 * are never reused: a removed node leaves a hole. A clone (jet_graph_clone)
 * keeps every index; a captured graph numbers its nodes in CUDA's order; an
 * executable graph takes the indexes of the graph it was instantiated from.
 * Nodes inside child graphs and conditional bodies belong to those graphs.
 *
 * Dependencies are given at add time as an array of indexes (@deps, @ndeps;
 * NULL and 0 for a root node), or later with jet_graph_add_dependencies.
 *
 * Memory in copy, memset and kernel nodes is named by address (device
 * pointers from jet_buffer_device_ptr, pinned or mapped host memory from
 * jet_buffer_host_ptr, managed memory): a graph records addresses, not data.
 * Pageable host memory is not allowed in copy nodes.
 */
typedef uint32_t jet_graph_node;

/** No node (an output left unset, a node not in the graph's table). */
#define JET_GRAPH_NODE_NONE ((jet_graph_node)0xffffffffu)

/** What a node does (cudaGraphNodeType). */
typedef enum jet_graph_node_type {
  JET_GRAPH_NODE_KERNEL = 0,
  JET_GRAPH_NODE_MEMCPY = 1,
  JET_GRAPH_NODE_MEMSET = 2,
  JET_GRAPH_NODE_HOST = 3,
  JET_GRAPH_NODE_CHILD_GRAPH = 4,
  JET_GRAPH_NODE_EMPTY = 5,
  JET_GRAPH_NODE_EVENT_WAIT = 6,
  JET_GRAPH_NODE_EVENT_RECORD = 7,
  JET_GRAPH_NODE_MEM_ALLOC = 8,
  JET_GRAPH_NODE_MEM_FREE = 9,
  JET_GRAPH_NODE_CONDITIONAL = 10,
  JET_GRAPH_NODE_OTHER = 11 /**< a type jetrt does not build (external semaphores, ...) */
} jet_graph_node_type;

/**
 * jet_graph_create - an empty graph to build node by node.
 * @ctx: the context whose device runs the graph.
 * @out: receives the graph (jet_graph_destroy); NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_OUT_OF_MEMORY; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_graph_create(jet_context ctx, jet_graph *out);

/*
 * Every jet_graph_add_* function below:
 * @graph: the graph to add to (a conditional body included).
 * @deps, @ndeps: nodes of @graph the new node depends on (no duplicates);
 *        NULL and 0 for none.
 * @out: receives the new node's index; JET_GRAPH_NODE_NONE on failure. May be
 *       NULL (the index is then the number of indexes given out before).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a
 *         dependency that is not a live node of @graph, @deps NULL with @ndeps
 *         > 0, or a bad parameter (the detail names it);
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT for an object of
 *         another context; JET_STATUS_OUT_OF_MEMORY; or a CUDA status. On
 *         failure the graph is unchanged.
 * Thread safety: no other thread may use @graph during the call.
 */

/**
 * jet_graph_add_kernel - a node launching @kernel, like jet_launch.
 *
 * The argument values are copied at add time (CUDA reads each parameter's size
 * from the kernel): @args and what it points to may be reused right after.
 * Keep @kernel's module loaded while the graph or its executable graphs live.
 * @kernel, @grid, @block, @shared_bytes, @args: as jet_launch (same checks).
 */
jet_status jet_graph_add_kernel(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                jet_kernel kernel, jet_dim3 grid, jet_dim3 block,
                                size_t shared_bytes, void **args, jet_graph_node *out);

/**
 * jet_graph_kernel_set_access_policy - give kernel node @node an L2 access
 * policy window (cudaKernelNodeAttributeAccessPolicyWindow): each launch of
 * the node treats [base, base + bytes) as a stream window would
 * (jet_l2_stream_set_window, jetrt/l2.h). Executable graphs instantiated
 * afterwards carry it; those instantiated before keep what they had.
 * @graph: the graph holding @node.
 * @node: a live kernel node of @graph.
 * @policy: the window, checked as jet_l2_stream_set_window checks it; bytes 0
 *          clears it.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @policy, a @node that is not a live kernel node, or a
 *         window jetrt/l2.h refuses (larger than jet_l2_info.max_window_bytes,
 *         ratio outside [0, 1], a PERSISTING miss property...);
 *         JET_STATUS_OVERFLOW when base + bytes wraps; JET_STATUS_UNSUPPORTED
 *         where the platform policy has no L2 persistence (the hint says why);
 *         or a CUDA status. On failure the node is unchanged.
 * Thread safety: no other thread may use @graph during the call.
 */
jet_status jet_graph_kernel_set_access_policy(jet_graph graph, jet_graph_node node,
                                              const jet_access_policy *policy);

/**
 * jet_graph_kernel_access_policy - read kernel node @node's access policy
 * window back (bytes 0: none).
 * @policy: receives the window; zeroed on failure.
 * @return as jet_graph_kernel_set_access_policy (UNSUPPORTED included).
 * Thread safety: as jet_graph_kernel_set_access_policy.
 */
jet_status jet_graph_kernel_access_policy(jet_graph graph, jet_graph_node node,
                                          jet_access_policy *policy);

/**
 * jet_graph_add_memcpy - a node copying @bytes from @src to @dst (any memory
 * kinds the device can address, pageable host memory excluded; see above).
 * @bytes: > 0; neither range may wrap the address space.
 */
jet_status jet_graph_add_memcpy(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                void *dst, const void *src, size_t bytes, jet_graph_node *out);

/**
 * jet_graph_add_memcpy_2d - a node copying @height rows of @width_bytes.
 * @dpitch, @spitch: bytes between rows, each >= @width_bytes.
 */
jet_status jet_graph_add_memcpy_2d(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                   void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width_bytes, size_t height, jet_graph_node *out);

/**
 * jet_graph_add_memcpy_3d - a node copying a 3D region, described as for
 * jet_memcpy_3d (same checks).
 */
jet_status jet_graph_add_memcpy_3d(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                   const jet_copy_3d *p, jet_graph_node *out);

/** A memset node's parameters: @height rows of @width elements of
 *  @element_size bytes, each set to @value. */
typedef struct jet_graph_memset {
  void *dst;             /**< device (or managed) memory, aligned to element_size */
  size_t pitch;          /**< bytes between rows (>= width * element_size); unused when height is 1 */
  unsigned value;        /**< must fit in element_size bytes */
  unsigned element_size; /**< 1, 2 or 4 */
  size_t width;          /**< elements per row, > 0 */
  size_t height;         /**< rows, > 0 */
} jet_graph_memset;

/** jet_graph_add_memset - a node filling memory as @p says. */
jet_status jet_graph_add_memset(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                const jet_graph_memset *p, jet_graph_node *out);

/**
 * jet_graph_add_host - a node calling @fn(@user) on a CUDA host thread.
 * @fn must not call CUDA or jetrt functions that enqueue or synchronise
 * (CUDA's rule for host nodes); it should return quickly: later nodes wait.
 */
jet_status jet_graph_add_host(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                              jet_stream_callback fn, void *user, jet_graph_node *out);

/** jet_graph_add_event_record - a node recording @event (of @graph's context)
 *  each launch, like jet_event_record. */
jet_status jet_graph_add_event_record(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                      jet_event event, jet_graph_node *out);

/** jet_graph_add_event_wait - a node waiting for the last record of @event
 *  before later nodes run, like jet_stream_wait_event. */
jet_status jet_graph_add_event_wait(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                    jet_event event, jet_graph_node *out);

/** jet_graph_add_empty - a node that does nothing: a join point of dependencies. */
jet_status jet_graph_add_empty(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                               jet_graph_node *out);

/**
 * jet_graph_add_child - a node running a copy of @child (cloned now: later
 * changes to @child do not reach it). @child must not contain memory nodes or
 * conditional nodes (CUDA's rules) and must not be @graph.
 */
jet_status jet_graph_add_child(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                               jet_graph child, jet_graph_node *out);

/**
 * jet_graph_add_mem_alloc - a node allocating @bytes of device memory when the
 * graph runs (graph memory nodes, PG "Graph Memory Nodes").
 *
 * The address is fixed when the node is added and given in @dptr, so later
 * nodes (kernels, copies, a jet_graph_add_mem_free) can use it. The memory is
 * valid from the node's completion until a free node, or a free after the
 * launch, releases it; free it inside the same graph (jet_graph_add_mem_free)
 * unless you know the CUDA rules for freeing it outside. A graph with memory
 * nodes has one executable graph at a time, and cannot become a child graph.
 * @bytes: > 0.
 * @dptr: receives the device address; NULL on failure.
 * @return also JET_STATUS_UNSUPPORTED where the device has no memory pools
 *         (cudaDevAttrMemoryPoolsSupported is 0).
 */
jet_status jet_graph_add_mem_alloc(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                   size_t bytes, void **dptr, jet_graph_node *out);

/** jet_graph_add_mem_free - a node freeing @dptr, an address given by a
 *  jet_graph_add_mem_alloc of this graph (or allocated outside it). */
jet_status jet_graph_add_mem_free(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                  void *dptr, jet_graph_node *out);

/** Kind of conditional node. */
typedef enum jet_graph_cond_type {
  JET_GRAPH_COND_IF = 0,   /**< the body runs once when the condition is non-zero */
  JET_GRAPH_COND_WHILE = 1 /**< the body runs again and again while the condition is non-zero */
} jet_graph_cond_type;

/**
 * jet_graph_add_conditional - an IF or WHILE node with an empty body graph to
 * fill (CUDA 12.4 and later, runtime and driver).
 *
 * The condition is a value set to @default_value at the start of every launch
 * of the graph. Device code changes it with cudaGraphSetConditional(handle,
 * value) (cuda_device_runtime_api.h, brought in by nvcc), @cond_handle passed
 * to the kernel as an unsigned long long (cudaGraphConditionalHandle)
 * argument: a kernel node before the conditional node (add the conditional
 * node first for its handle, then the kernel, then the edge with
 * jet_graph_add_dependencies), or a kernel in a WHILE body deciding whether to
 * go round again. A module compiled device-only without -rdc, as
 * jetrt_add_kernels does, can call it: like printf's vprintf, the call stays
 * an external symbol that the driver resolves when the module loads (the
 * device runtime library does not define it). Under NVRTC declare it yourself
 * (see tests/kernels/graph_cond.cu). Without such a kernel the condition is
 * only @default_value: an IF runs its body or not on every launch, and a WHILE
 * with a non-zero value would never end, so that WHILE is refused unless
 * @device_sets_condition says a kernel sets the condition.
 *
 * Body graphs take kernel, empty, memcpy, memset, child and conditional nodes
 * only (CUDA's rule); a graph with a conditional node cannot be cloned or
 * become a child, and has one executable graph at a time.
 * @type: a jet_graph_cond_type.
 * @default_value: the condition at each launch.
 * @device_sets_condition: non-zero when a kernel sets the condition through
 *        @cond_handle (cudaGraphSetConditional, see above).
 * @body: receives the body graph, a jet_graph owned by the node: add nodes to
 *        it with the jet_graph_add_* functions; it goes with @graph and cannot
 *        be destroyed, instantiated or cloned by itself. NULL on failure.
 * @cond_handle: receives the cudaGraphConditionalHandle; may be NULL.
 * @return as the other add functions; JET_STATUS_UNSUPPORTED when the CUDA
 *         runtime jetrt was built with or the driver is older than 12.4 (the
 *         detail gives both versions); JET_STATUS_INVALID_ARGUMENT for a NULL
 *         @body, an unknown @type, or a WHILE that could never end.
 */
jet_status jet_graph_add_conditional(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                     jet_graph_cond_type type, unsigned default_value,
                                     int device_sets_condition, jet_graph *body,
                                     uint64_t *cond_handle, jet_graph_node *out);

/**
 * jet_graph_add_dependencies - add @n edges: @to[i] depends on @from[i].
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arrays with
 *         @n > 0, a node that is not live, a node depending on itself; or a
 *         CUDA status (e.g. an edge that already exists). On a CUDA failure no
 *         edge is added.
 * Thread safety: no other thread may use @graph during the call.
 */
jet_status jet_graph_add_dependencies(jet_graph graph, const jet_graph_node *from,
                                      const jet_graph_node *to, size_t n);

/**
 * jet_graph_remove_node - remove @node and its edges from @graph.
 *
 * Its index becomes a hole (never reused). Removing a node would break the
 * per-node updates of executable graphs already made from @graph, so it is
 * refused while any of them lives.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a node that is not
 *         live; JET_STATUS_INVALID_STATE while an executable graph made from
 *         @graph lives; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: no other thread may use @graph during the call.
 */
jet_status jet_graph_remove_node(jet_graph graph, jet_graph_node node);

/**
 * jet_graph_clone - a copy of @graph with the same node indexes.
 * @out: receives the copy (jet_graph_destroy); NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out or a
 *         conditional body; JET_STATUS_INVALID_HANDLE; JET_STATUS_OUT_OF_MEMORY;
 *         or a CUDA status (CUDA refuses graphs with conditional nodes).
 * Thread safety: no other thread may use @graph during the call.
 */
jet_status jet_graph_clone(jet_graph graph, jet_graph *out);

/*
 * Topology queries. The list functions write up to @capacity indexes into
 * @nodes (which may be NULL when @capacity is 0) and the full number into
 * @count, so a first call with 0 sizes the array. They return
 * JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @count, NULL @nodes
 * with @capacity > 0, or a node that is not live; JET_STATUS_INVALID_HANDLE;
 * or a CUDA status. Thread safety: no other thread may change @graph during
 * the call.
 */

/** jet_graph_node_count - the number of live nodes of @graph (holes left by
 *  removed nodes not counted; nodes inside children and bodies not counted). */
jet_status jet_graph_node_count(jet_graph graph, size_t *count);

/** jet_graph_nodes - the live nodes of @graph, in index order. */
jet_status jet_graph_nodes(jet_graph graph, jet_graph_node *nodes, size_t capacity,
                           size_t *count);

/** jet_graph_root_nodes - the nodes of @graph without dependencies. */
jet_status jet_graph_root_nodes(jet_graph graph, jet_graph_node *nodes, size_t capacity,
                                size_t *count);

/** jet_graph_node_dependencies - the nodes @node depends on. */
jet_status jet_graph_node_dependencies(jet_graph graph, jet_graph_node node,
                                       jet_graph_node *nodes, size_t capacity, size_t *count);

/** jet_graph_node_dependents - the nodes that depend on @node. */
jet_status jet_graph_node_dependents(jet_graph graph, jet_graph_node node, jet_graph_node *nodes,
                                     size_t capacity, size_t *count);

/**
 * jet_graph_node_get_type - the type of @node.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @type or a
 *         node that is not live; JET_STATUS_INVALID_HANDLE.
 * Thread safety: no other thread may change @graph during the call.
 */
jet_status jet_graph_node_get_type(jet_graph graph, jet_graph_node node,
                                   jet_graph_node_type *type);

/**
 * jet_graph_write_dot - write @graph as a Graphviz DOT file (cudaGraphDebugDotPrint).
 * @path: the file to create or overwrite.
 * @verbose: non-zero for every node parameter CUDA knows.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL or empty
 *         @path; JET_STATUS_IO_ERROR when the file cannot be written;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: no other thread may change @graph during the call.
 */
jet_status jet_graph_write_dot(jet_graph graph, const char *path, int verbose);

/**
 * jet_graph_native - the cudaGraph_t behind @graph, for interoperation. It
 * stays owned by jetrt: do not destroy it, and do not remove or add nodes
 * through it (the node table would no longer match).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL
 *         @cuda_graph; JET_STATUS_INVALID_HANDLE.
 * Thread safety: safe from any thread.
 */
jet_status jet_graph_native(jet_graph graph, void **cuda_graph);

/** jet_graph_exec_native - the cudaGraphExec_t behind @exec, owned by jetrt
 *  (do not destroy it). Returns as jet_graph_native. */
jet_status jet_graph_exec_native(jet_graph_exec exec, void **cuda_graph_exec);

/* ================================================================== executable graphs */

/**
 * jet_graph_upload - make @exec ready on the device ahead of its first launch
 * (cudaGraphUpload), so that launch does not pay for it; ordered on @stream.
 * @stream: any stream of the same context.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         or a CUDA status.
 * Thread safety: no other thread may use @exec during the call.
 */
jet_status jet_graph_upload(jet_graph_exec exec, jet_stream stream);

/** Outcome of a whole-graph update (cudaGraphExecUpdateResult). */
typedef enum jet_graph_update_result {
  JET_GRAPH_UPDATE_SUCCESS = 0,
  JET_GRAPH_UPDATE_ERROR = 1,                 /**< unexpected reason */
  JET_GRAPH_UPDATE_TOPOLOGY_CHANGED = 2,      /**< node count or edges differ */
  JET_GRAPH_UPDATE_NODE_TYPE_CHANGED = 3,     /**< a node's type differs */
  JET_GRAPH_UPDATE_FUNCTION_CHANGED = 4,      /**< a kernel node's function differs */
  JET_GRAPH_UPDATE_PARAMETERS_CHANGED = 5,    /**< a parameter changed that cannot be updated */
  JET_GRAPH_UPDATE_NOT_SUPPORTED = 6,         /**< something about a node cannot be updated */
  JET_GRAPH_UPDATE_UNSUPPORTED_FUNCTION_CHANGE = 7, /**< a kernel function change CUDA refuses */
  JET_GRAPH_UPDATE_ATTRIBUTES_CHANGED = 8     /**< node attributes changed in a way that cannot be updated */
} jet_graph_update_result;

/** Detail of a whole-graph update (cudaGraphExecUpdateResultInfo), with nodes
 *  given as indexes in the new graph. */
typedef struct jet_graph_update_info {
  jet_graph_update_result result;
  /** The node that did not match, or the "to" node of an edge that did not;
   *  JET_GRAPH_NODE_NONE when CUDA named none (or one inside a child). */
  jet_graph_node error_node;
  /** The "from" node of the edge that did not match; JET_GRAPH_NODE_NONE. */
  jet_graph_node error_from_node;
} jet_graph_update_info;

/**
 * jet_graph_exec_update_info - jet_graph_exec_update, reporting the result.
 * @info: receives the result and the failing node(s), on success too
 *        (JET_GRAPH_UPDATE_SUCCESS). Its values are only meaningful when the
 *        call returns JET_STATUS_OK or JET_STATUS_GRAPH_UPDATE_FAILED.
 * @return as jet_graph_exec_update; JET_STATUS_INVALID_ARGUMENT for a NULL @info.
 * Thread safety: as jet_graph_exec_update.
 */
jet_status jet_graph_exec_update_info(jet_graph_exec exec, jet_graph graph,
                                      jet_graph_update_info *info);

/*
 * Per-node updates. They change one node of @exec in place, for launches
 * enqueued after the call; the graph @exec came from is not changed. @node is
 * an index of that graph as it was at instantiation (nodes of child graphs and
 * conditional bodies are not reachable this way: use jet_graph_exec_update). The node keeps its type
 * and, for kernels, its kernel. CUDA's limits (cudaGraphExec*NodeSetParams):
 * a copy keeps the kinds of memory and the devices of both sides, and both the
 * old and the new copy must be one-dimensional (one row, one slice); a memset
 * keeps its kind of memory and device, may change its address and value, a 2D
 * memset nothing of its shape, a 1D memset not its height (other shape
 * changes only where CUDA finds they fit). They return JET_STATUS_OK;
 * JET_STATUS_INVALID_ARGUMENT for a node that is not in @exec, of another
 * type, or a bad parameter; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: no other thread may use @exec during the call.
 */

/** jet_graph_exec_set_kernel - new grid, block, shared bytes and argument
 *  values (copied now) for a node made by jet_graph_add_kernel. Checks as
 *  jet_launch; INVALID_ARGUMENT also for a captured kernel node (jetrt does not
 *  know its parameters). */
jet_status jet_graph_exec_set_kernel(jet_graph_exec exec, jet_graph_node node, jet_dim3 grid,
                                     jet_dim3 block, size_t shared_bytes, void **args);

/** jet_graph_exec_set_memcpy - new addresses and size for a copy node (any
 *  copy node: a 1D copy is a 3D copy of one row). */
jet_status jet_graph_exec_set_memcpy(jet_graph_exec exec, jet_graph_node node, void *dst,
                                     const void *src, size_t bytes);

/** jet_graph_exec_set_memcpy_3d - new parameters for a copy node, as
 *  jet_graph_add_memcpy_3d. */
jet_status jet_graph_exec_set_memcpy_3d(jet_graph_exec exec, jet_graph_node node,
                                        const jet_copy_3d *p);

/** jet_graph_exec_set_memset - new parameters for a memset node. */
jet_status jet_graph_exec_set_memset(jet_graph_exec exec, jet_graph_node node,
                                     const jet_graph_memset *p);

/** jet_graph_exec_set_host - a new function and user pointer for a host node. */
jet_status jet_graph_exec_set_host(jet_graph_exec exec, jet_graph_node node,
                                   jet_stream_callback fn, void *user);

/**
 * jet_graph_exec_set_enabled - enable or disable a kernel, memcpy or memset
 * node of @exec (cudaGraphNodeSetEnabled). A disabled node does nothing when
 * the graph runs, but its dependencies still order the others. Nodes start
 * enabled; parameter updates work on disabled nodes too.
 * @enabled: 0 to disable, non-zero to enable.
 * @return as the per-node updates; INVALID_ARGUMENT for another node type.
 */
jet_status jet_graph_exec_set_enabled(jet_graph_exec exec, jet_graph_node node, int enabled);

/** jet_graph_exec_get_enabled - whether a kernel, memcpy or memset node of
 *  @exec is enabled (1) or not (0), in *@enabled. */
jet_status jet_graph_exec_get_enabled(jet_graph_exec exec, jet_graph_node node, int *enabled);

/* ================================================================== user objects */

/*
 * A user object ties a resource (a buffer, a host allocation, ...) to the
 * graphs and executable graphs that use it, without tracking their launches:
 * it counts references; graphs hold some (jet_graph_retain_user_object), an
 * executable graph holds those of its graph at instantiation until it is
 * destroyed and its launches are finished; the destructor runs once, after the
 * last reference goes (cudaUserObjectCreate).
 *
 * The caller's own references are counted by the jet_user_object handle: it
 * stays valid while the caller holds at least one, and is released with the
 * last (jet_user_object_release, or a move into a graph).
 */
typedef struct jet_user_object_s *jet_user_object;

/** A user object's destructor. It runs on a CUDA internal thread, maybe after
 *  every jetrt object is gone: it must not call CUDA or jetrt functions (to
 *  free device memory from it, hand the work to a thread of your own). */
typedef void (*jet_user_object_destroy_fn)(void *user);

/**
 * jet_user_object_create - a user object calling @destroy(@user) once, after
 * its last reference is gone. The caller holds one reference.
 * @ctx: the context (the handle counts as one of its objects).
 * @destroy: the destructor; must not be NULL.
 * @out: receives the handle; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @destroy or
 *         @out; JET_STATUS_INVALID_HANDLE; JET_STATUS_OUT_OF_MEMORY; or a CUDA
 *         status.
 * Thread safety: safe from any thread.
 */
jet_status jet_user_object_create(jet_context ctx, jet_user_object_destroy_fn destroy, void *user,
                                  jet_user_object *out);

/**
 * jet_user_object_retain - take @count more references for the caller.
 * @count: > 0.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a zero @count or a
 *         count that would overflow; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: no other thread may use @obj during the call.
 */
jet_status jet_user_object_retain(jet_user_object obj, unsigned count);

/**
 * jet_user_object_release - drop @count of the caller's references. With the
 * last one the handle is released (the destructor runs once graphs and
 * executable graphs holding the object have let it go too).
 * @obj: the object, or NULL (a no-op).
 * @count: > 0 and at most the caller's references.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a bad @count;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: no other thread may use @obj during or after the call.
 */
jet_status jet_user_object_release(jet_user_object obj, unsigned count);

/**
 * jet_graph_retain_user_object - make @graph hold @count references to @obj
 * (cudaGraphRetainUserObject). Executable graphs instantiated from @graph
 * afterwards hold them too, until they are destroyed.
 * @move: non-zero to move @count of the caller's references to the graph
 *        instead of taking new ones (cudaGraphUserObjectMove); when that was
 *        the caller's last reference, the handle is released (do not use
 *        @obj afterwards).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a zero @count or,
 *         with @move, more than the caller holds; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_WRONG_CONTEXT; or a CUDA status.
 * Thread safety: no other thread may use @graph or @obj during the call.
 */
jet_status jet_graph_retain_user_object(jet_graph graph, jet_user_object obj, unsigned count,
                                        int move);

/**
 * jet_graph_release_user_object - drop @count references @graph holds to
 * @obj (executable graphs already made keep theirs).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a zero @count;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT; or a CUDA status.
 * Thread safety: no other thread may use @graph or @obj during the call.
 */
jet_status jet_graph_release_user_object(jet_graph graph, jet_user_object obj, unsigned count);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_GRAPH_H */
