/*
 * EGLSync <-> CUDA event, by the mechanism the platform policy names.
 */
#include "interop_internal.h"
#include "../stream/stream_internal.h"

#if JET_HAVE_EGL

/* Syncs are core in EGL 1.5; older displays have them only as an extension
 * whose attributes cannot carry a 64-bit CUDA event. */
static jet_status need_syncs(const struct jet_egl_s *egl, const char *fn) {
  if (egl->major > 1 || (egl->major == 1 && egl->minor >= 5)) return JET_STATUS_OK;
  return jet__error(JET_STATUS_UNSUPPORTED, fn, "EGL syncs need EGL 1.5; the display is %d.%d",
                    egl->major, egl->minor);
}

jet_status jet_egl_sync_to_event(jet_egl egl, void *egl_sync, unsigned timeout_us,
                                 jet_event *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(egl_sync, "egl_sync is NULL");
  JET__TRY(jet__ctx_activate(egl->h.ctx, __func__));
  JET__TRY(need_syncs(egl, __func__));
  struct jet_context_s *ctx = egl->h.ctx;
  const jet_policy *pol = &ctx->platform.policy;
  cudaEvent_t ev = NULL;
  if (pol->egl_sync == JET_EGL_SYNC_CUDA_EVENT) {
    cudaError_t e = cudaEventCreateFromEGLSync(&ev, (EGLSyncKHR)egl_sync, cudaEventDefault);
    if (e != cudaSuccess) {
      if (!ctx->info.integrated) {
        (void)cudaGetLastError();
        return jet__error_native(
            JET_STATUS_UNSUPPORTED, __func__, "cudaEventCreateFromEGLSync", cudaGetErrorName(e),
            (int)e,
            "cudaEventCreateFromEGLSync works on integrated GPUs (Jetson) only; the desktop "
            "policy waits on the host instead",
            "device %d (%s) is a discrete GPU under the %s%s policy", ctx->device,
            ctx->info.name, pol->name, pol->forced ? " (forced)" : "");
      }
      return jet__cuda_error(e, __func__, "cudaEventCreateFromEGLSync",
                             "the EGLSync must be a fence or a sync of this display", NULL);
    }
    return jet__event_adopt(ctx, ev, 0, out, __func__);
  }
  EGLint r = egl->api->eglClientWaitSync(egl->dpy, (EGLSync)egl_sync, EGL_SYNC_FLUSH_COMMANDS_BIT,
                                         (EGLTime)timeout_us * 1000u);
  if (r == EGL_TIMEOUT_EXPIRED)
    return jet__error(JET_STATUS_TIMEOUT, __func__,
                      "the EGLSync did not signal within %u us (host wait: the %s policy)",
                      timeout_us, pol->name);
  if (r == EGL_FALSE) return jet__egl_error(egl->api, __func__, "eglClientWaitSync", NULL, NULL);
  /* Signalled: an event never recorded is complete, so waits on it pass. */
  JET__CUDA(cudaEventCreateWithFlags, (&ev, cudaEventDisableTiming));
  return jet__event_adopt(ctx, ev, 0, out, __func__);
}

jet_status jet_egl_sync_from_event(jet_egl egl, jet_event event, void **egl_sync) {
  JET__ARG(egl_sync, "egl_sync is NULL");
  *egl_sync = NULL;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  cudaEvent_t ev;
  JET__TRY(jet__event_enter(event, egl->h.ctx, &ev, __func__));
  JET__TRY(need_syncs(egl, __func__));
  if (jet__ext_listed(egl->extensions, "EGL_NV_cuda_event")) {
    const EGLAttrib a[] = {EGL_CUDA_EVENT_HANDLE_NV, (EGLAttrib)(uintptr_t)ev, EGL_NONE};
    EGLSync s = egl->api->eglCreateSync(egl->dpy, EGL_SYNC_CUDA_EVENT_NV, a);
    if (s == EGL_NO_SYNC)
      return jet__egl_error(egl->api, __func__, "eglCreateSync",
                            "record the event first; interprocess events are refused",
                            "EGL_SYNC_CUDA_EVENT_NV");
    *egl_sync = s;
    return JET_STATUS_OK;
  }
  return jet_event_synchronize(event);
}

jet_status jet_egl_sync_destroy(jet_egl egl, void *egl_sync) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  if (!egl_sync) return JET_STATUS_OK;
  if (!egl->api->eglDestroySync(egl->dpy, (EGLSync)egl_sync))
    return jet__egl_error(egl->api, __func__, "eglDestroySync", NULL, NULL);
  return JET_STATUS_OK;
}

#endif /* JET_HAVE_EGL */
