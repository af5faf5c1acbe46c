/*
 * jet_egl: an EGL display bound to a context; the headless display of the EGL
 * device that is the context's CUDA device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_internal.h"

#if JET_HAVE_EGL

/* EGL displays are per process: two jet_egl on one display must not terminate
 * it under each other. jetrt terminates a display only when it initialised it
 * and its last jet_egl closes. */
#define MAX_DISPLAYS 16
static pthread_mutex_t disp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  EGLDisplay dpy;
  int refs;
  int initialized_here;
  EGLint major, minor;
} displays[MAX_DISPLAYS];

static jet_status display_ref(const jet__egl_api *api, EGLDisplay dpy, int *initialized_here,
                              int *major, int *minor, const char *fn) {
  pthread_mutex_lock(&disp_lock);
  int slot = -1, free_slot = -1;
  for (int i = 0; i < MAX_DISPLAYS; i++) {
    if (displays[i].refs > 0 && displays[i].dpy == dpy) slot = i;
    if (displays[i].refs == 0 && free_slot < 0) free_slot = i;
  }
  jet_status st = JET_STATUS_OK;
  if (slot < 0 && free_slot < 0) {
    st = jet__error(JET_STATUS_UNSUPPORTED, fn, "jetrt binds at most %d EGL displays at once",
                    MAX_DISPLAYS);
  } else if (slot < 0) {
    /* eglQueryString fails with EGL_NOT_INITIALIZED on a display nobody initialised. */
    int was_initialized = api->eglQueryString(dpy, EGL_VERSION) != NULL;
    if (!was_initialized) (void)api->eglGetError();
    EGLint ma = 0, mi = 0;
    if (!api->eglInitialize(dpy, &ma, &mi)) {
      st = jet__egl_error(api, fn, "eglInitialize",
                          "a headless board needs the EGL device platform "
                          "(EGL_EXT_platform_device); check that the NVIDIA EGL library is "
                          "installed and /dev/nvidia* (or /dev/nvhost-* on Jetson) is accessible",
                          NULL);
    } else {
      slot = free_slot;
      displays[slot].dpy = dpy;
      displays[slot].refs = 0;
      displays[slot].initialized_here = !was_initialized;
      displays[slot].major = ma;
      displays[slot].minor = mi;
    }
  }
  if (st == JET_STATUS_OK) {
    displays[slot].refs++;
    *initialized_here = displays[slot].initialized_here;
    *major = displays[slot].major;
    *minor = displays[slot].minor;
  }
  pthread_mutex_unlock(&disp_lock);
  return st;
}

static void display_unref(const jet__egl_api *api, EGLDisplay dpy) {
  pthread_mutex_lock(&disp_lock);
  for (int i = 0; i < MAX_DISPLAYS; i++) {
    if (displays[i].refs > 0 && displays[i].dpy == dpy) {
      if (--displays[i].refs == 0 && displays[i].initialized_here) (void)api->eglTerminate(dpy);
      break;
    }
  }
  pthread_mutex_unlock(&disp_lock);
}

/* The EGL device whose EGL_CUDA_DEVICE_NV is the context's device. */
static jet_status find_device(const jet__egl_api *api, struct jet_context_s *ctx,
                              EGLDeviceEXT *dev_out, int *index_out, const char *fn) {
  const char *cext = api->client_extensions;
  if (!(jet__ext_listed(cext, "EGL_EXT_device_enumeration") ||
        jet__ext_listed(cext, "EGL_EXT_device_base")))
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "eglQueryString", "", 0,
                             "the EGL library is too old or not NVIDIA's; pass your own "
                             "EGLDisplay in jet_egl_desc.display",
                             "EGL has no device enumeration (EGL_EXT_device_enumeration)");
  if (!jet__ext_listed(cext, "EGL_EXT_platform_device"))
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "EGL has no device platform (EGL_EXT_platform_device): no headless display");
  EGLDeviceEXT devs[32];
  EGLint n = 0;
  if (!api->eglQueryDevicesEXT(32, devs, &n))
    return jet__egl_error(api, fn, "eglQueryDevicesEXT", NULL, NULL);
  char seen[640];
  size_t used = 0;
  seen[0] = '\0';
  int with_cuda = 0;
  CUdevice want = -1;
  for (EGLint i = 0; i < n; i++) {
    const char *dext = api->eglQueryDeviceStringEXT(devs[i], EGL_EXTENSIONS);
    if (!dext) (void)api->eglGetError();
    EGLAttrib cu = -1;
    int has_cuda = jet__ext_listed(dext, "EGL_NV_device_cuda");
    if (has_cuda && !api->eglQueryDeviceAttribEXT(devs[i], EGL_CUDA_DEVICE_NV, &cu)) {
      (void)api->eglGetError();
      cu = -1;
    }
    with_cuda += has_cuda;
    if (has_cuda && want < 0) {
      /* EGL reports a CUdevice: compare with the driver's, not the index. */
      const jet__driver_api *drv;
      JET__TRY(jet__ctx_activate(ctx, fn));
      JET__TRY(jet__driver(&drv, fn));
      CUresult r = drv->cuDeviceGet(&want, ctx->device);
      if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuDeviceGet", NULL, NULL);
    }
    if (has_cuda && cu == (EGLAttrib)want) {
      *dev_out = devs[i];
      *index_out = (int)i;
      return JET_STATUS_OK;
    }
    if (used < sizeof seen) {
      int k;
      if (has_cuda)
        k = snprintf(seen + used, sizeof seen - used, "%s[%d] CUDA device %ld", used ? "; " : "",
                     (int)i, (long)cu);
      else
        k = snprintf(seen + used, sizeof seen - used, "%s[%d] not a CUDA device (%.80s)",
                     used ? "; " : "", (int)i, dext && dext[0] ? dext : "no extensions");
      if (k > 0) used += (size_t)k;
    }
  }
  return jet__error_native(
      JET_STATUS_UNSUPPORTED, fn, "eglQueryDevicesEXT", "", 0,
      with_cuda ? "check CUDA_VISIBLE_DEVICES and __EGL_VENDOR_LIBRARY_FILENAMES: EGL and CUDA "
                  "must see the same GPUs"
                : "no EGL device offers EGL_NV_device_cuda: the NVIDIA EGL driver is not the one "
                  "loaded (is __EGL_VENDOR_LIBRARY_FILENAMES pointing at Mesa?)",
      "no EGL device is CUDA device %d; %d EGL device(s): %s", ctx->device, (int)n,
      n ? seen : "none");
}

static void egl_free(struct jet_egl_s *egl) {
  display_unref(egl->api, egl->dpy);
  free(egl->extensions);
  jet__handle_unregister(&egl->h);
  free(egl);
}

static void egl_release(jet__ctx_resource *r) {
  egl_free((struct jet_egl_s *)((char *)r - offsetof(struct jet_egl_s, res)));
}

jet_status jet_egl_open(jet_context ctx, const jet_egl_desc *desc, jet_egl *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  const jet__egl_api *api;
  JET__TRY(jet__egl_load(&api, __func__));
  EGLDisplay dpy = desc ? (EGLDisplay)desc->display : EGL_NO_DISPLAY;
  int index = -1, owned = 0;
  if (dpy == EGL_NO_DISPLAY) {
    EGLDeviceEXT dev;
    JET__TRY(find_device(api, ctx, &dev, &index, __func__));
    dpy = api->eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
    if (dpy == EGL_NO_DISPLAY)
      return jet__egl_error(api, __func__, "eglGetPlatformDisplay", NULL,
                            "EGL_PLATFORM_DEVICE_EXT display of EGL device %d", index);
    owned = 1;
  }
  struct jet_egl_s *egl = calloc(1, sizeof *egl);
  if (!egl) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a jet_egl");
  egl->api = api;
  egl->dpy = dpy;
  egl->owned = owned;
  egl->egl_device = index;
  jet_status st = display_ref(api, dpy, &egl->initialized_here, &egl->major, &egl->minor, __func__);
  if (st != JET_STATUS_OK) {
    free(egl);
    return st;
  }
  const char *ext = api->eglQueryString(dpy, EGL_EXTENSIONS);
  const char *vendor = api->eglQueryString(dpy, EGL_VENDOR);
  snprintf(egl->vendor, sizeof egl->vendor, "%s", vendor ? vendor : "?");
  egl->extensions = strdup(ext ? ext : "");
  atomic_init(&egl->users, 0);
  if (!egl->extensions) {
    display_unref(api, dpy);
    free(egl);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a jet_egl");
  }
  st = jet__handle_register(&egl->h, JET__H_EGL, ctx, __func__);
  if (st != JET_STATUS_OK) {
    display_unref(api, dpy);
    free(egl->extensions);
    free(egl);
    return st;
  }
  jet__ctx_resource_add(ctx, &egl->res, "EGL display", egl_release);
  jet__log(JET_LOG_INFO, "EGL %d.%d display %p (%s)%s bound to device %d", egl->major, egl->minor,
           dpy, egl->vendor, owned ? " opened headless" : "", ctx->device);
  *out = egl;
  return JET_STATUS_OK;
}

jet_status jet_egl_close(jet_egl egl) {
  if (!egl) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  int users = atomic_load(&egl->users);
  if (users > 0)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d object(s) made through this EGL display are alive (images, stream "
                      "connections, presenters); release them first",
                      users);
  jet__ctx_resource_remove(egl->h.ctx, &egl->res);
  egl_free(egl);
  return JET_STATUS_OK;
}

jet_status jet__egl_adopt(struct jet_egl_s *egl, jet__handle *h, int type, jet__ctx_resource *res,
                          const char *kind, void (*release)(jet__ctx_resource *r),
                          const char *fn) {
  JET__TRY(jet__handle_register(h, type, egl->h.ctx, fn));
  atomic_fetch_add(&egl->users, 1);
  jet__ctx_resource_add(egl->h.ctx, res, kind, release);
  return JET_STATUS_OK;
}

void jet__egl_disown(struct jet_egl_s *egl, jet__handle *h) {
  atomic_fetch_sub(&egl->users, 1);
  jet__handle_unregister(h);
}

jet_status jet_egl_get_info(jet_egl egl, jet_egl_info *info) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(info, "info is NULL");
  memset(info, 0, sizeof *info);
  info->display = egl->dpy;
  info->major = egl->major;
  info->minor = egl->minor;
  info->owned = egl->owned;
  info->initialized_here = egl->initialized_here;
  info->egl_device = egl->egl_device;
  snprintf(info->vendor, sizeof info->vendor, "%s", egl->vendor);
  const char *e = egl->extensions;
  info->image_base = jet__ext_listed(e, "EGL_KHR_image_base");
  info->gl_texture_image = jet__ext_listed(e, "EGL_KHR_gl_texture_2D_image");
  info->dma_buf_import = jet__ext_listed(e, "EGL_EXT_image_dma_buf_import");
  info->dma_buf_modifiers = jet__ext_listed(e, "EGL_EXT_image_dma_buf_import_modifiers");
  info->stream = jet__ext_listed(e, "EGL_KHR_stream");
  info->stream_fifo = jet__ext_listed(e, "EGL_KHR_stream_fifo");
  info->fence_sync = jet__ext_listed(e, "EGL_KHR_fence_sync");
  info->cuda_event_sync = jet__ext_listed(e, "EGL_NV_cuda_event");
  return JET_STATUS_OK;
}

jet_status jet_egl_has_extension(jet_egl egl, const char *name, int *has) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(name && name[0], "name is NULL or empty");
  JET__ARG(has, "has is NULL");
  *has = jet__ext_listed(egl->extensions, name) ||
         jet__ext_listed(egl->api->client_extensions, name);
  return JET_STATUS_OK;
}

#endif /* JET_HAVE_EGL */
