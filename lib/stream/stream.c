/*
 * Streams: creation with flags and priority, host callbacks, waits, queries.
 */
#include <stdlib.h>

#include "stream_internal.h"

#define STREAM_FLAGS (JET_STREAM_NON_BLOCKING)

jet_status jet__stream_not_capturing(cudaStream_t cu, const char *fn, const char *what) {
  enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(cu, &cs);
  if (e == cudaErrorStreamCaptureImplicit)
    return jet__cuda_error(e, fn, "cudaStreamIsCapturing",
                           "the legacy default stream is unusable while a blocking stream "
                           "captures; capture on JET_STREAM_NON_BLOCKING streams",
                           NULL);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamIsCapturing", NULL, NULL);
  if (cs == cudaStreamCaptureStatusNone) return JET_STATUS_OK;
  return jet__error(JET_STATUS_INVALID_STATE, fn,
                    "%s is refused while the stream is %s (it would invalidate the capture); "
                    "end the capture with jet_stream_end_capture first",
                    what, cs == cudaStreamCaptureStatusActive ? "capturing" : "in an invalidated capture");
}

jet_status jet_stream_priority_range(jet_context ctx, int *least, int *greatest) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(least || greatest, "least and greatest are both NULL");
  JET__TRY(jet__ctx_activate(ctx, __func__));
  int lo = 0, hi = 0;
  JET__CUDA(cudaDeviceGetStreamPriorityRange, (&lo, &hi));
  if (least) *least = lo;
  if (greatest) *greatest = hi;
  return JET_STATUS_OK;
}

jet_status jet_stream_create(jet_context ctx, const jet_stream_desc *desc, jet_stream *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  jet_stream_desc d = {0, 0};
  if (desc) d = *desc;
  JET__ARG(!(d.flags & ~STREAM_FLAGS), "unknown stream flags 0x%x", d.flags & ~STREAM_FLAGS);
  JET__TRY(jet__ctx_enter(ctx, __func__));

  int least = 0, greatest = 0;
  JET__CUDA(cudaDeviceGetStreamPriorityRange, (&least, &greatest));
  /* cudaStreamCreateWithPriority clamps silently; a caller asking for a
   * priority the device lacks should hear about it. */
  if (d.priority > least || d.priority < greatest)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "priority %d is outside device %d's range %d (greatest) to %d (least); "
                      "lower numbers are higher priority",
                      d.priority, ctx->device, greatest, least);

  struct jet_stream_s *s = calloc(1, sizeof *s);
  if (!s) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a stream");
  unsigned cf = (d.flags & JET_STREAM_NON_BLOCKING) ? cudaStreamNonBlocking : cudaStreamDefault;
  cudaError_t e = cudaStreamCreateWithPriority(&s->cu, cf, d.priority);
  if (e != cudaSuccess) {
    free(s);
    return jet__cuda_error(e, __func__, "cudaStreamCreateWithPriority", NULL,
                           "flags 0x%x, priority %d: %s", d.flags, d.priority, cudaGetErrorString(e));
  }
  s->flags = d.flags;
  s->priority = d.priority;
  s->is_default = 0;
  jet_status st = jet__handle_register(&s->h, JET__H_STREAM, ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaStreamDestroy(s->cu);
    free(s);
    return st;
  }
  *out = s;
  return JET_STATUS_OK;
}

jet_status jet_stream_destroy(jet_stream stream) {
  if (!stream) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  if (stream->is_default)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "stream is a default stream of its context, which owns it; it lives "
                      "until jet_context_destroy");
  JET__TRY(jet__ctx_activate(stream->h.ctx, __func__));
  /* Refuse only a capture we can see: if the query itself fails (a sticky
   * device fault), destroying must still be possible or the context could never
   * be destroyed. */
  enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  if (!stream->wrapped && cudaStreamIsCapturing(stream->cu, &cs) == cudaSuccess &&
      cs != cudaStreamCaptureStatusNone)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "the stream is %s; end the capture with jet_stream_end_capture first",
                      cs == cudaStreamCaptureStatusActive ? "capturing" : "in an invalidated capture");
  cudaError_t e = stream->wrapped ? cudaSuccess : cudaStreamDestroy(stream->cu);
  jet__handle_unregister(&stream->h);
  free(stream);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaStreamDestroy", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_stream_add_callback(jet_stream stream, jet_stream_callback fn, void *user) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__ARG(fn, "fn is NULL");
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  JET__CUDA(cudaLaunchHostFunc, (cu, fn, user));
  return JET_STATUS_OK;
}

jet_status jet_stream_wait_event(jet_stream stream, jet_event event) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  cudaEvent_t ev;
  JET__TRY(jet__event_enter(event, stream->h.ctx, &ev, __func__));
  JET__CUDA(cudaStreamWaitEvent, (stream->cu, ev, 0));
  return JET_STATUS_OK;
}

jet_status jet_stream_native(jet_stream stream, void **cuda_stream) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__ARG(cuda_stream, "cuda_stream is NULL");
  *cuda_stream = (void *)stream->cu;
  return JET_STATUS_OK;
}

jet_status jet_stream_set_programmatic(jet_stream stream, int enable) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__ARG(enable == 0 || enable == 1, "enable is %d; must be 0 or 1", enable);
  const jet_platform_info *info = &stream->h.ctx->info;
  if (enable && info->cc_major < 9)
    return jet__error(JET_STATUS_UNSUPPORTED, __func__,
                      "programmatic dependent launch needs compute capability 9.0 or newer; "
                      "device %d is %d.%d",
                      stream->h.ctx->device, info->cc_major, info->cc_minor);
  atomic_store(&stream->programmatic, enable);
  return JET_STATUS_OK;
}

jet_status jet_stream_get_programmatic(jet_stream stream, int *enabled) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__ARG(enabled, "enabled is NULL");
  *enabled = atomic_load(&stream->programmatic);
  return JET_STATUS_OK;
}

jet_status jet_stream_query(jet_stream stream) {
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  JET__TRY(jet__stream_not_capturing(cu, __func__, "jet_stream_query"));
  cudaError_t e = cudaStreamQuery(cu);
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (e == cudaErrorNotReady) {
    /* An answer, not a failure: keep the detail, and do not let the runtime
     * report it later as someone else's error. */
    if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
    return JET_STATUS_NOT_READY;
  }
  return jet__cuda_error(e, __func__, "cudaStreamQuery", NULL, NULL);
}

jet_status jet_stream_synchronize(jet_stream stream) {
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  JET__TRY(jet__stream_not_capturing(cu, __func__, "jet_stream_synchronize"));
  JET__CUDA(cudaStreamSynchronize, (cu));
  return JET_STATUS_OK;
}
