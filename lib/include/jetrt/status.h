/*
 * jetrt/status.h - status codes, per-thread error detail and the log callback.
 *
 * Every jetrt function that can fail returns a jet_status. JET_STATUS_OK (0) is
 * success; anything else is an error whose details (the failing native call,
 * the native error name and code, a message and, where the platform explains
 * the failure, a hint) are kept per thread and read with jet_last_error().
 */
#ifndef JETRT_STATUS_H
#define JETRT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* One list generates the enum, jet_status_name() and jet_status_string().
 * Values are stable: new codes are only ever appended. */
#define JET_STATUS_MAP(X)                                                              \
  X(OK, 0, "success")                                                                  \
  X(INVALID_ARGUMENT, 1, "invalid argument")                                           \
  X(OVERFLOW, 2, "size or count overflows")                                            \
  X(INVALID_HANDLE, 3, "handle is NULL, destroyed or of the wrong type")               \
  X(WRONG_CONTEXT, 4, "handle belongs to another context")                             \
  X(INVALID_STATE, 5, "object is not in a state that allows this operation")           \
  X(NO_DEVICE, 6, "no CUDA device is available")                                       \
  X(UNSUPPORTED, 7, "operation is not supported on this platform or device")           \
  X(NOT_BUILT_IN, 8, "feature was left out of this build")                             \
  X(OUT_OF_MEMORY, 9, "out of memory")                                                 \
  X(NOT_READY, 10, "work is still pending")                                            \
  X(CUDA_ERROR, 11, "CUDA runtime error")                                              \
  X(DRIVER_ERROR, 12, "CUDA driver error")                                             \
  X(DEVICE_FAULT, 13, "device fault: the CUDA context is unusable")                    \
  X(GRAPH_UPDATE_FAILED, 14, "executable graph could not be updated in place")         \
  X(NO_KERNEL_IMAGE, 15, "no kernel image fits the device")                            \
  X(JIT_FAILED, 16, "PTX JIT compilation failed")                                      \
  X(COMPILE_FAILED, 17, "runtime compilation failed")                                  \
  X(IO_ERROR, 18, "file input/output error")                                           \
  X(EGL_ERROR, 19, "EGL error")                                                        \
  X(INTERNAL, 20, "internal error")                                                    \
  X(TIMEOUT, 21, "the wait timed out before the event happened")                       \
  X(DISCONNECTED, 22, "the peer (producer, consumer or process) has gone")             \
  X(PROTOCOL_ERROR, 23, "a received message is malformed or of an unknown version")    \
  X(PERMISSION_DENIED, 24, "the peer or resource is not allowed")                      \
  X(GL_ERROR, 25, "OpenGL error")

/** Result of every fallible jetrt call. */
typedef enum jet_status {
#define JET__STATUS_ENUM(name, value, text) JET_STATUS_##name = value,
  JET_STATUS_MAP(JET__STATUS_ENUM)
#undef JET__STATUS_ENUM
  JET_STATUS_COUNT_
} jet_status;

/**
 * jet_status_name - the enumerator's name, e.g. "JET_STATUS_OUT_OF_MEMORY".
 * @return a static string; "JET_STATUS_UNKNOWN" for a value outside the list.
 * Thread safety: safe from any thread.
 */
const char *jet_status_name(jet_status status);

/**
 * jet_status_string - a short English description of a status.
 * @return a static string; "unknown status" for a value outside the list.
 * Thread safety: safe from any thread.
 */
const char *jet_status_string(jet_status status);

/** The detail of the last failure on the calling thread. */
typedef struct jet_error_info {
  jet_status status;        /**< status the failing call returned */
  const char *function;     /**< jetrt function that failed, e.g. "jet_buffer_create" */
  const char *native_call;  /**< native call that failed, e.g. "cudaMalloc"; "" if none */
  const char *native_name;  /**< native error name, e.g. "cudaErrorMemoryAllocation"; "" if none */
  int native_code;          /**< native error value (cudaError_t, CUresult, ...); 0 if none */
  const char *message;      /**< what went wrong, with the values involved */
  const char *hint;         /**< platform explanation or remedy; "" if none */
} jet_error_info;

/**
 * jet_last_error - detail of the last failure on this thread.
 *
 * The detail is set by every failing jetrt call and is not cleared by
 * successful ones; call jet_clear_error() to reset it.
 * @return a pointer to thread-local storage, never NULL. The strings stay
 *         valid until the next jetrt call on this thread. status is
 *         JET_STATUS_OK when nothing failed since the last clear.
 * Thread safety: each thread sees its own detail.
 */
const jet_error_info *jet_last_error(void);

/**
 * jet_last_error_string - the last failure on this thread as one line, e.g.
 * "jet_buffer_create: cudaMalloc failed with cudaErrorMemoryAllocation (2):
 *  asked 1024 bytes, 512 free (hint: ...)".
 * @return thread-local string, valid until the next jetrt call on this thread;
 *         "" when nothing failed.
 * Thread safety: each thread sees its own detail.
 */
const char *jet_last_error_string(void);

/**
 * jet_clear_error - reset this thread's error detail to JET_STATUS_OK.
 * Thread safety: affects the calling thread only.
 */
void jet_clear_error(void);

/** Log severities, most verbose first. */
typedef enum jet_log_level {
  JET_LOG_DEBUG = 0,
  JET_LOG_INFO = 1,
  JET_LOG_WARN = 2,
  JET_LOG_ERROR = 3,
  JET_LOG_OFF = 4
} jet_log_level;

/** A log sink: level, a NUL-terminated message without trailing newline, user pointer. */
typedef void (*jet_log_fn)(jet_log_level level, const char *message, void *user);

/**
 * jet_set_log_callback - install the only output channel jetrt has.
 *
 * jetrt never prints; messages at or above @min_level go to @fn. Logging is
 * off by default. Every failure is also logged at JET_LOG_ERROR.
 * @fn: the sink, or NULL to turn logging off.
 * @user: passed back to @fn unchanged.
 * @min_level: least severe level delivered; JET_LOG_OFF turns logging off.
 * @return JET_STATUS_OK, or JET_STATUS_INVALID_ARGUMENT for a level outside
 *         the enum.
 * Thread safety: safe from any thread; the callback may be invoked from any
 * thread, including CUDA's callback threads, and must be thread-safe itself.
 */
jet_status jet_set_log_callback(jet_log_fn fn, void *user, jet_log_level min_level);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_STATUS_H */
