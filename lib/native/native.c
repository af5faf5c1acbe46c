/*
 * Native handles: the CUDA objects behind jetrt handles, and jetrt streams and
 * events over the caller's own (not owned, never destroyed by jetrt).
 */
#include <stdlib.h>

#include "internal.h"
#include "jetrt/native.h"
#include "../image/image_internal.h"
#include "../memory/memory_internal.h"
#include "../stream/stream_internal.h"

#define EVENT_FLAGS (JET_EVENT_TIMING | JET_EVENT_BLOCKING_SYNC | JET_EVENT_INTERPROCESS)

/* The current driver context after making @ctx's device current: the primary
 * context, which cudaSetDevice makes current (and creates) since CUDA 12. */
static jet_status current_cu_ctx(struct jet_context_s *ctx, const jet__driver_api *d,
                                 CUcontext *out, const char *fn) {
  JET__TRY(jet__ctx_activate(ctx, fn));
  CUcontext c = NULL;
  CUresult r = d->cuCtxGetCurrent(&c);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuCtxGetCurrent", NULL, NULL);
  CUdevice cur = 0, want = 0;
  if (c) {
    r = d->cuCtxGetDevice(&cur);
    if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuCtxGetDevice", NULL, NULL);
    r = d->cuDeviceGet(&want, ctx->device);
    if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuDeviceGet", NULL, NULL);
  }
  if (!c || cur != want)
    return jet__error_native(JET_STATUS_DRIVER_ERROR, fn, "cuCtxGetCurrent", "", 0,
                             "code on this thread pushed a driver context of its own; pop it "
                             "(cuCtxPopCurrent) before calling jetrt",
                             "the current driver context is not device %d's primary context",
                             ctx->device);
  *out = c;
  return JET_STATUS_OK;
}

jet_status jet_context_native(jet_context ctx, void **cu_context, int *device) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(cu_context, "cu_context is NULL");
  *cu_context = NULL;
  const jet__driver_api *d;
  JET__TRY(jet__driver(&d, __func__));
  CUcontext c = NULL;
  JET__TRY(current_cu_ctx(ctx, d, &c, __func__));
  *cu_context = (void *)c;
  if (device) *device = ctx->device;
  return JET_STATUS_OK;
}

jet_status jet_event_native(jet_event event, void **cuda_event) {
  JET__TRY(jet__handle_check(event, JET__H_EVENT, __func__, "event"));
  JET__ARG(cuda_event, "cuda_event is NULL");
  *cuda_event = (void *)event->cu;
  return JET_STATUS_OK;
}

jet_status jet_buffer_native(jet_buffer buf, jet_buffer_native_info *info) {
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  JET__ARG(info, "info is NULL");
  info->device_ptr = buf->dev;
  info->host_ptr = buf->host;
  info->size = buf->size;
  info->pitch = buf->pitch;
  info->kind = buf->kind;
  info->device = buf->h.ctx->device;
  return JET_STATUS_OK;
}

jet_status jet_image_plane_native(jet_image image, int plane, void **ptr, size_t *pitch) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  JET__ARG(ptr, "ptr is NULL");
  JET__ARG(plane >= 0 && plane < image->layout.planes, "plane %d of a %d-plane %s image", plane,
           image->layout.planes, jet_format_name(image->layout.format));
  *ptr = image->plane[plane];
  if (pitch) *pitch = image->layout.plane[plane].pitch;
  return JET_STATUS_OK;
}

jet_status jet_stream_wrap(jet_context ctx, void *cuda_stream, jet_stream *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  cudaStream_t cu = (cudaStream_t)cuda_stream;
  JET__ARG(cu != NULL && cu != cudaStreamLegacy && cu != cudaStreamPerThread,
           "cuda_stream is %s: the default streams are the context's already; use "
           "jet_context_default_stream (JET_STREAM_LEGACY or JET_STREAM_PER_THREAD)",
           cu == cudaStreamPerThread ? "cudaStreamPerThread" : "the legacy default stream");
  const jet__driver_api *d;
  JET__TRY(jet__driver(&d, __func__));
  CUcontext mine = NULL, its = NULL;
  JET__TRY(current_cu_ctx(ctx, d, &mine, __func__));
  CUresult r = d->cuStreamGetCtx((CUstream)cu, &its);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, __func__, "cuStreamGetCtx",
                         "pass a live cudaStream_t created on the context's device", NULL);
  if (its != mine)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "the stream belongs to driver context %p, not to device %d's primary "
                      "context %p that jetrt uses: create it with cudaStreamCreate* after "
                      "cudaSetDevice(%d), not inside a context of your own",
                      (void *)its, ctx->device, (void *)mine, ctx->device);
  unsigned cf = 0;
  int prio = 0;
  JET__CUDA(cudaStreamGetFlags, (cu, &cf));
  JET__CUDA(cudaStreamGetPriority, (cu, &prio));

  struct jet_stream_s *s = calloc(1, sizeof *s);
  if (!s) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a stream");
  s->cu = cu;
  s->flags = (cf & cudaStreamNonBlocking) ? JET_STREAM_NON_BLOCKING : 0;
  s->priority = prio;
  s->wrapped = 1;
  jet_status st = jet__handle_register(&s->h, JET__H_STREAM, ctx, __func__);
  if (st != JET_STATUS_OK) {
    free(s);
    return st;
  }
  *out = s;
  return JET_STATUS_OK;
}

jet_status jet_event_wrap(jet_context ctx, void *cuda_event, unsigned flags, jet_event *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(cuda_event, "cuda_event is NULL");
  JET__ARG(!(flags & ~EVENT_FLAGS), "unknown event flags 0x%x", flags & ~EVENT_FLAGS);
  JET__ARG(!((flags & JET_EVENT_INTERPROCESS) && (flags & JET_EVENT_TIMING)),
           "JET_EVENT_INTERPROCESS with JET_EVENT_TIMING: CUDA creates interprocess events "
           "without timing, so the event cannot have both");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaEvent_t cu = (cudaEvent_t)cuda_event;
  /* Any answer but an error says the event is usable: pending, done, or last
   * recorded inside a capture. */
  cudaError_t e = cudaEventQuery(cu);
  if (e == cudaErrorNotReady || e == cudaErrorCapturedEvent) {
    if (cudaPeekAtLastError() == e) (void)cudaGetLastError();
  } else if (e != cudaSuccess) {
    return jet__cuda_error(e, __func__, "cudaEventQuery",
                           "pass a live cudaEvent_t created on the context's device", NULL);
  }

  struct jet_event_s *ev = calloc(1, sizeof *ev);
  if (!ev) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for an event");
  ev->cu = cu;
  ev->flags = flags;
  ev->wrapped = 1;
  jet_status st = jet__handle_register(&ev->h, JET__H_EVENT, ctx, __func__);
  if (st != JET_STATUS_OK) {
    free(ev);
    return st;
  }
  *out = ev;
  return JET_STATUS_OK;
}

jet_status jet_stream_is_wrapped(jet_stream stream, int *wrapped) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__ARG(wrapped, "wrapped is NULL");
  *wrapped = stream->wrapped;
  return JET_STATUS_OK;
}

jet_status jet_event_is_wrapped(jet_event event, int *wrapped) {
  JET__TRY(jet__handle_check(event, JET__H_EVENT, __func__, "event"));
  JET__ARG(wrapped, "wrapped is NULL");
  *wrapped = event->wrapped;
  return JET_STATUS_OK;
}
