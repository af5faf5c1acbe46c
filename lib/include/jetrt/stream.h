/*
 * jetrt/stream.h - streams, host callbacks and events.
 *
 * A jet_stream is an ordered queue of GPU work (a CUDA stream). Work on one
 * stream runs in order; work on different streams may overlap. Events mark a
 * point in a stream: another stream can wait for it (jet_stream_wait_event),
 * the host can wait for it (jet_event_synchronize), and two timing events give
 * the GPU time between them (jet_event_elapsed_ms).
 *
 * Besides the streams made by jet_stream_create, every context has two default
 * streams (jet_context_default_stream in jetrt/context.h):
 *  - JET_STREAM_LEGACY, CUDA's legacy NULL stream. Work on it waits for all
 *    earlier work on every blocking stream of the device, and blocking streams
 *    wait for it. It cannot be captured into a graph.
 *  - JET_STREAM_PER_THREAD, cudaStreamPerThread: each host thread that uses the
 *    handle gets its own implicit stream, which behaves like a blocking stream.
 *    jetrt always passes this stream to CUDA explicitly, so it works whatever
 *    your code is compiled with. Caveat: CUDA calls in YOUR code that pass stream
 *    0 (or no stream) still go to the legacy stream unless that code is compiled
 *    with `nvcc --default-stream per-thread`, or defines
 *    CUDA_API_PER_THREAD_DEFAULT_STREAM before including any CUDA header. Mixing
 *    the two silently serialises work you meant to overlap; pass the stream
 *    explicitly instead.
 *
 * Thread safety, in general: a stream or event may be used from several threads
 * at once (CUDA serialises the calls), except that destroying it must not race
 * with any other use of it. Work enqueued from different threads onto the same
 * stream runs in the order the calls happened to reach CUDA.
 */
#ifndef JETRT_STREAM_H
#define JETRT_STREAM_H

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ streams */

/** Stream creation flags (jet_stream_desc.flags). */
enum {
  /** Do not synchronise with the legacy default stream (cudaStreamNonBlocking).
   *  Without it, the stream is "blocking": its work waits for earlier work on the
   *  legacy stream and the legacy stream waits for it. */
  JET_STREAM_NON_BLOCKING = 1u << 0
};

/** Parameters of jet_stream_create. Zero-initialise, then set what you need. */
typedef struct jet_stream_desc {
  unsigned flags; /**< JET_STREAM_* flags */
  /** Scheduling priority. LOWER numbers are HIGHER priority; the valid range is
   *  [greatest, least] from jet_stream_priority_range, and 0 (the default) is
   *  always the least priority. Priorities only affect kernels, not copies. */
  int priority;
} jet_stream_desc;

/**
 * jet_stream_priority_range - the stream priorities the context's device accepts.
 *
 * CUDA numbers priorities so that a LOWER number is a HIGHER priority: a typical
 * GPU reports @least 0 and @greatest -5. A device without priority support
 * reports 0 and 0.
 * @ctx: the context.
 * @least: receives the lowest priority (the largest number); may be NULL.
 * @greatest: receives the highest priority (the smallest number); may be NULL.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT when both pointers are
 *         NULL; JET_STATUS_INVALID_HANDLE for a bad @ctx; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_priority_range(jet_context ctx, int *least, int *greatest);

/**
 * jet_stream_create - create a stream on the context's device.
 * @ctx: the context the stream belongs to.
 * @desc: flags and priority; NULL means a blocking stream of default priority.
 * @out: receives the stream; set to NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, unknown
 *         flags (checked before any CUDA call) or a priority outside the
 *         device's range (the message gives the range); JET_STATUS_INVALID_HANDLE
 *         for a bad @ctx; JET_STATUS_OUT_OF_MEMORY or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_create(jet_context ctx, const jet_stream_desc *desc, jet_stream *out);

/**
 * jet_stream_destroy - release a stream made by jet_stream_create.
 *
 * Work already enqueued still runs to completion; CUDA frees the stream's
 * resources afterwards. The call does not wait for that work. For a stream
 * made by jet_stream_wrap (jetrt/native.h) only jetrt's handle is released:
 * the caller's cudaStream_t stays alive and theirs to destroy.
 * @stream: the stream, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a destroyed or foreign
 *         pointer; JET_STATUS_INVALID_ARGUMENT for a default stream of a context
 *         (those are owned by the context); JET_STATUS_INVALID_STATE while the
 *         stream is capturing (end the capture first). If CUDA itself fails to
 *         destroy the stream, the handle is released anyway and the CUDA status
 *         returned.
 * Thread safety: no other thread may use @stream during or after the call.
 */
jet_status jet_stream_destroy(jet_stream stream);

/** A host function run by a stream (jet_stream_add_callback). */
typedef void (*jet_stream_callback)(void *user);

/**
 * jet_stream_add_callback - run a host function once all earlier work on the
 * stream is done (cudaLaunchHostFunc).
 *
 * Work enqueued after the callback waits until it returns. Callbacks run on a
 * CUDA-owned thread, one at a time per stream, in the order they were enqueued.
 * The callback MUST NOT call any CUDA function or any jetrt function that
 * enqueues or waits for GPU work (create, copy, record, synchronize, ...): that
 * may fail with cudaErrorNotPermitted or deadlock. Keep it short; signal
 * another thread to do the heavy part. If the context hits a device fault the
 * callback is not called at all. During stream capture the callback becomes a
 * host node of the graph and runs at every launch of it.
 * @stream: the stream (a default stream is fine).
 * @fn: the function; must not be NULL.
 * @user: passed to @fn unchanged.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @fn;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread; @fn runs on a CUDA thread and must be
 * thread-safe with respect to your other threads.
 */
jet_status jet_stream_add_callback(jet_stream stream, jet_stream_callback fn, void *user);

/**
 * jet_stream_wait_event - make later work on @stream wait until @event completes.
 *
 * The wait happens on the GPU; the host does not block. It waits for the most
 * recent jet_event_record of @event made before this call; an event never
 * recorded completes at once.
 * @stream: the stream that waits.
 * @event: the event; must belong to the same context as @stream.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT
 *         when they belong to different contexts; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_wait_event(jet_stream stream, jet_event event);

/**
 * jet_stream_native - the cudaStream_t behind @stream, for CUDA code, NPP,
 * TensorRT or a user's own kernels working on the same stream.
 *
 * jetrt keeps ownership: do not destroy it. The default-stream handles give
 * cudaStreamLegacy and cudaStreamPerThread; a wrapped stream (jet_stream_wrap)
 * gives the caller's own. jetrt/native.h has the other handles' CUDA objects.
 * @cuda_stream: receives the cudaStream_t (as void *).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @cuda_stream.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_native(jet_stream stream, void **cuda_stream);

/**
 * jet_stream_query - has all work enqueued on @stream finished?
 *
 * JET_STATUS_NOT_READY is an answer, not a failure: it leaves the thread's
 * error detail (jet_last_error) as it was and is not logged.
 * @return JET_STATUS_OK when the stream is idle; JET_STATUS_NOT_READY while
 *         work is pending; JET_STATUS_INVALID_STATE while the stream is being
 *         captured (querying would invalidate the capture, so it is refused);
 *         JET_STATUS_INVALID_HANDLE; or the first asynchronous error CUDA
 *         reports.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_query(jet_stream stream);

/**
 * jet_stream_synchronize - block the calling thread until all work on @stream is done.
 *
 * How the thread waits (spin, yield, sleep) follows the context's
 * JET_CONTEXT_SYNC_* flag.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_STATE while the stream is being
 *         captured (refused: it would invalidate the capture);
 *         JET_STATUS_INVALID_HANDLE; or the first asynchronous error CUDA
 *         reports (e.g. JET_STATUS_DEVICE_FAULT).
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_synchronize(jet_stream stream);

/**
 * jet_stream_set_programmatic - launch jetrt's own kernels on @stream with
 * programmatic dependent launch (PDL, compute capability 9.0 and newer).
 *
 * With it on, each jetrt image kernel queued on @stream may be scheduled while
 * the kernel before it on the stream is still finishing: its blocks start,
 * then wait on the GPU (griddepcontrol.wait) until that kernel has completed
 * and its memory is visible, before they read or write anything. Results are
 * unchanged; the gap between dependent kernels (launch latency and the ramp of
 * the next grid) shrinks, which matters for chains of short operations on
 * 720p-1080p frames. Works inside stream capture: the graph gets
 * programmatic edges. Kernels launched through jet_launch are not affected
 * (use JET_LAUNCH_PROGRAMMATIC with jet_launch_ex for those).
 * @stream: the stream; a default stream affects every user of it in its context.
 * @enable: 1 to turn it on, 0 (the default) to turn it off.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for @enable other than 0 or 1; JET_STATUS_UNSUPPORTED when enabling on
 *         a device below compute capability 9.0 (Orin is 8.7; Thor 11.0 has it).
 * Thread safety: safe from any thread; operations already queued keep the
 * setting they were queued with.
 */
jet_status jet_stream_set_programmatic(jet_stream stream, int enable);

/**
 * jet_stream_get_programmatic - whether jet_stream_set_programmatic is on for @stream.
 * @enabled: receives 1 or 0.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @enabled.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_get_programmatic(jet_stream stream, int *enabled);

/* ------------------------------------------------------------------ events */

/** Event creation flags (jet_event_create). */
enum {
  /** Record timestamps so that jet_event_elapsed_ms works. Without it the
   *  event is cheaper to record and wait on (cudaEventDisableTiming). */
  JET_EVENT_TIMING = 1u << 0,
  /** jet_event_synchronize sleeps on a primitive instead of spinning
   *  (cudaEventBlockingSync): saves a CPU core and power, adds wake-up latency. */
  JET_EVENT_BLOCKING_SYNC = 1u << 1,
  /** The event can be shared with another process (jet_event_ipc_export).
   *  CUDA requires such events to have timing disabled, so it cannot be combined
   *  with JET_EVENT_TIMING. */
  JET_EVENT_INTERPROCESS = 1u << 2
};

/**
 * jet_event_create - create an event.
 * @ctx: the context the event belongs to.
 * @flags: JET_EVENT_* flags; 0 gives a cheap event without timing.
 * @out: receives the event; set to NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, unknown
 *         flags or JET_EVENT_INTERPROCESS together with JET_EVENT_TIMING (all
 *         checked before any CUDA call); JET_STATUS_INVALID_HANDLE for a bad
 *         @ctx; JET_STATUS_UNSUPPORTED for JET_EVENT_INTERPROCESS where the
 *         platform policy or the device does not allow event IPC (with a hint);
 *         or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_event_create(jet_context ctx, unsigned flags, jet_event *out);

/**
 * jet_event_destroy - release an event.
 *
 * The event may still be pending; CUDA releases it once it completes. Streams
 * already waiting on it keep waiting correctly. For an event made by
 * jet_event_wrap (jetrt/native.h) only jetrt's handle is released: the
 * caller's cudaEvent_t stays alive and theirs to destroy. For an exported interprocess
 * event, every process that imported it must stop using its copy first.
 * @event: the event, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a destroyed or foreign
 *         pointer. If CUDA itself fails, the handle is released anyway and the
 *         CUDA status returned.
 * Thread safety: no other thread may use @event during or after the call.
 */
jet_status jet_event_destroy(jet_event event);

/**
 * jet_event_record - mark the current end of @stream's work with @event.
 *
 * The event completes when all work enqueued on @stream before this call is
 * done. Recording again moves the mark; waits and queries see the latest record.
 * While @stream is being captured (jetrt/graph.h) the record becomes part of
 * the graph instead: use it to fork other streams into the capture and join
 * them back; CUDA refuses to query or synchronize such an event.
 * @event: the event.
 * @stream: the stream; must belong to the same context as @event.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         or a CUDA status.
 * Thread safety: safe from any thread; recording one event from two threads at
 * once leaves it marking either one of the two points.
 */
jet_status jet_event_record(jet_event event, jet_stream stream);

/**
 * jet_event_query - has the work before the event's last record finished?
 *
 * An event never recorded counts as finished. JET_STATUS_NOT_READY is an
 * answer, not a failure: it leaves jet_last_error as it was and is not logged.
 * @return JET_STATUS_OK when complete; JET_STATUS_NOT_READY while pending;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status (JET_STATUS_INVALID_STATE
 *         for an event last recorded inside a stream capture).
 * Thread safety: safe from any thread.
 */
jet_status jet_event_query(jet_event event);

/**
 * jet_event_synchronize - block the calling thread until the event completes.
 *
 * Spins, or sleeps with JET_EVENT_BLOCKING_SYNC. Returns at once for an event
 * never recorded.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_event_synchronize(jet_event event);

/**
 * jet_event_elapsed_ms - GPU time between two recorded, completed events.
 *
 * Resolution is about half a microsecond.
 * @start: the earlier event; must have JET_EVENT_TIMING.
 * @end: the later event; must have JET_EVENT_TIMING and the same context.
 * @ms: receives the milliseconds from @start to @end.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @ms or an event
 *         without JET_EVENT_TIMING; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_WRONG_CONTEXT; JET_STATUS_NOT_READY when either event has
 *         not completed yet (synchronize @end first); or a CUDA status (e.g.
 *         when an event was never recorded).
 * Thread safety: safe from any thread.
 */
jet_status jet_event_elapsed_ms(jet_event start, jet_event end, float *ms);

/* ------------------------------------------------------------------ event IPC */

/** An interprocess event handle: 64 opaque bytes to send to another process
 *  (through a pipe, a socket, shared memory, ...). It holds no pointer and no
 *  file descriptor. */
typedef struct jet_ipc_event_handle {
  unsigned char bytes[64];
} jet_ipc_event_handle;

/**
 * jet_event_ipc_export - get a handle through which another process can use @event.
 *
 * The other process opens it with jet_event_ipc_import; both then see the same
 * event: records in either process are seen by waits and queries in the
 * other. The exporting process must keep @event alive while others use it.
 * @event: an event created with JET_EVENT_INTERPROCESS.
 * @out: receives the handle.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out or an
 *         event created without JET_EVENT_INTERPROCESS;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED where the platform
 *         policy forbids event IPC (with a hint); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_event_ipc_export(jet_event event, jet_ipc_event_handle *out);

/**
 * jet_event_ipc_import - open an event exported by ANOTHER process.
 *
 * CUDA does not open a handle in the process that exported it (use the
 * original event there). The imported event has no timing; destroy it with
 * jet_event_destroy before the exporting process destroys the original.
 * @ctx: the context the imported event will belong to; its device must be the
 *       exporting event's device.
 * @handle: the handle from jet_event_ipc_export.
 * @out: receives the event; set to NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL @handle or
 *         @out; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_UNSUPPORTED where the platform policy forbids event IPC
 *         (with a hint); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_event_ipc_import(jet_context ctx, const jet_ipc_event_handle *handle,
                                jet_event *out);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_STREAM_H */
