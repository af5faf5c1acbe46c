/*
 * Events: record, wait, query, timing and interprocess sharing.
 */
#include <stdlib.h>
#include <string.h>

#include "stream_internal.h"

#define EVENT_FLAGS (JET_EVENT_TIMING | JET_EVENT_BLOCKING_SYNC | JET_EVENT_INTERPROCESS)

_Static_assert(sizeof(jet_ipc_event_handle) == sizeof(cudaIpcEventHandle_t),
               "jet_ipc_event_handle must hold a cudaIpcEventHandle_t exactly");

jet_status jet__event_enter(jet_event e, const struct jet_context_s *ctx, cudaEvent_t *out,
                            const char *fn) {
  if (ctx)
    JET__TRY(jet__handle_check_in(e, JET__H_EVENT, ctx, fn, "event"));
  else
    JET__TRY(jet__handle_check(e, JET__H_EVENT, fn, "event"));
  JET__TRY(jet__ctx_activate(e->h.ctx, fn));
  *out = e->cu;
  return JET_STATUS_OK;
}

static jet_status ipc_allowed(const struct jet_context_s *ctx, const char *fn) {
  const jet_policy *p = &ctx->platform.policy;
  if (!p->event_ipc_allowed)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, NULL, NULL, 0,
        "on Jetson, CUDA event IPC needs compute capability 7.x or later and CUDA 11.5 or "
        "later; otherwise synchronise the processes on the host (jet_event_synchronize, then "
        "a pipe, socket or semaphore)",
        "event IPC is not allowed by the %s%s platform policy", p->name,
        p->forced ? " (forced)" : "");
  if (!ctx->info.ipc_event_supported)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, NULL, NULL, 0,
        "CUDA IPC needs Linux and a device with unified addressing; synchronise the processes "
        "on the host instead",
        "device %d (%s) reports no event IPC support (cudaDevAttrIpcEventSupport is 0)",
        ctx->device, ctx->info.name);
  return JET_STATUS_OK;
}

static jet_status new_event(struct jet_context_s *ctx, cudaEvent_t cu, unsigned flags,
                            int imported, jet_event *out, const char *fn) {
  struct jet_event_s *e = calloc(1, sizeof *e);
  if (!e) {
    (void)cudaEventDestroy(cu);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for an event");
  }
  e->cu = cu;
  e->flags = flags;
  e->imported = imported;
  jet_status st = jet__handle_register(&e->h, JET__H_EVENT, ctx, fn);
  if (st != JET_STATUS_OK) {
    (void)cudaEventDestroy(cu);
    free(e);
    return st;
  }
  *out = e;
  return JET_STATUS_OK;
}

jet_status jet__event_adopt(struct jet_context_s *ctx, cudaEvent_t cu, unsigned flags,
                            jet_event *out, const char *fn) {
  return new_event(ctx, cu, flags, 0, out, fn);
}

jet_status jet_event_create(jet_context ctx, unsigned flags, jet_event *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(!(flags & ~EVENT_FLAGS), "unknown event flags 0x%x", flags & ~EVENT_FLAGS);
  JET__ARG(!((flags & JET_EVENT_INTERPROCESS) && (flags & JET_EVENT_TIMING)),
           "JET_EVENT_INTERPROCESS cannot be combined with JET_EVENT_TIMING: CUDA requires "
           "interprocess events to have timing disabled (cudaEventDisableTiming)");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  if (flags & JET_EVENT_INTERPROCESS) JET__TRY(ipc_allowed(ctx, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));

  unsigned cf = cudaEventDefault;
  if (!(flags & JET_EVENT_TIMING)) cf |= cudaEventDisableTiming;
  if (flags & JET_EVENT_BLOCKING_SYNC) cf |= cudaEventBlockingSync;
  if (flags & JET_EVENT_INTERPROCESS) cf |= cudaEventInterprocess;
  cudaEvent_t cu = NULL;
  cudaError_t e = cudaEventCreateWithFlags(&cu, cf);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaEventCreateWithFlags", NULL, "flags 0x%x: %s", flags,
                           cudaGetErrorString(e));
  return new_event(ctx, cu, flags, 0, out, __func__);
}

jet_status jet_event_destroy(jet_event event) {
  if (!event) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(event, JET__H_EVENT, __func__, "event"));
  JET__TRY(jet__ctx_activate(event->h.ctx, __func__));
  cudaError_t e = event->wrapped ? cudaSuccess : cudaEventDestroy(event->cu);
  jet__handle_unregister(&event->h);
  free(event);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaEventDestroy", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_event_record(jet_event event, jet_stream stream) {
  JET__TRY(jet__handle_check(event, JET__H_EVENT, __func__, "event"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, event->h.ctx, &cu, __func__));
  JET__CUDA(cudaEventRecord, (event->cu, cu));
  return JET_STATUS_OK;
}

jet_status jet_event_query(jet_event event) {
  cudaEvent_t ev;
  JET__TRY(jet__event_enter(event, NULL, &ev, __func__));
  cudaError_t e = cudaEventQuery(ev);
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (e == cudaErrorNotReady) {
    /* An answer, not a failure (see jet_stream_query). */
    if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
    return JET_STATUS_NOT_READY;
  }
  return jet__cuda_error(e, __func__, "cudaEventQuery",
                         e == cudaErrorCapturedEvent
                             ? "the event was last recorded during a stream capture; it can be "
                               "queried once recorded outside a capture"
                             : NULL,
                         NULL);
}

jet_status jet_event_synchronize(jet_event event) {
  cudaEvent_t ev;
  JET__TRY(jet__event_enter(event, NULL, &ev, __func__));
  cudaError_t e = cudaEventSynchronize(ev);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaEventSynchronize",
                           e == cudaErrorCapturedEvent
                               ? "the event was last recorded during a stream capture"
                               : NULL,
                           NULL);
  return JET_STATUS_OK;
}

jet_status jet_event_elapsed_ms(jet_event start, jet_event end, float *ms) {
  JET__ARG(ms, "ms is NULL");
  JET__TRY(jet__handle_check(start, JET__H_EVENT, __func__, "start"));
  JET__TRY(jet__handle_check_in(end, JET__H_EVENT, start->h.ctx, __func__, "end"));
  JET__ARG(start->flags & JET_EVENT_TIMING,
           "start was created without JET_EVENT_TIMING; elapsed time needs both events created "
           "with it");
  JET__ARG(end->flags & JET_EVENT_TIMING,
           "end was created without JET_EVENT_TIMING; elapsed time needs both events created "
           "with it");
  JET__TRY(jet__ctx_activate(start->h.ctx, __func__));
  float v = 0.0f;
  cudaError_t e = cudaEventElapsedTime(&v, start->cu, end->cu);
  if (e == cudaErrorNotReady)
    return jet__cuda_error(e, __func__, "cudaEventElapsedTime",
                           "jet_event_synchronize(end) before asking for the elapsed time",
                           "an event has not completed yet");
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaEventElapsedTime",
                           "record both events with jet_event_record, outside any stream "
                           "capture, before asking for the elapsed time",
                           NULL);
  *ms = v;
  return JET_STATUS_OK;
}

jet_status jet_event_ipc_export(jet_event event, jet_ipc_event_handle *out) {
  JET__ARG(out, "out is NULL");
  JET__TRY(jet__handle_check(event, JET__H_EVENT, __func__, "event"));
  JET__ARG(event->flags & JET_EVENT_INTERPROCESS,
           "event was created without JET_EVENT_INTERPROCESS");
  JET__TRY(ipc_allowed(event->h.ctx, __func__));
  JET__TRY(jet__ctx_activate(event->h.ctx, __func__));
  cudaIpcEventHandle_t h;
  JET__CUDA(cudaIpcGetEventHandle, (&h, event->cu));
  memcpy(out->bytes, &h, sizeof out->bytes);
  return JET_STATUS_OK;
}

jet_status jet_event_ipc_import(jet_context ctx, const jet_ipc_event_handle *handle,
                                jet_event *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(handle, "handle is NULL");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(ipc_allowed(ctx, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaIpcEventHandle_t h;
  memcpy(&h, handle->bytes, sizeof h);
  cudaEvent_t cu = NULL;
  cudaError_t e = cudaIpcOpenEventHandle(&cu, h);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaIpcOpenEventHandle",
                           "CUDA opens an event handle only in a process other than the one "
                           "that exported it, on the exporting event's device, while the "
                           "exported event is alive",
                           NULL);
  return new_event(ctx, cu, JET_EVENT_INTERPROCESS, 1, out, __func__);
}
