/*
 * EGL and GL entry points, loaded at run time: the library links neither, so a
 * board or container without them gets a status naming what is missing.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_internal.h"

#if JET_HAVE_EGL

int jet__ext_listed(const char *list, const char *name) {
  size_t n = strlen(name);
  if (!list || !n) return 0;
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
  return 0;
}

const char *jet__egl_error_name(EGLint err) {
  switch (err) {
#define E(x) \
  case x:    \
    return #x;
    E(EGL_SUCCESS) E(EGL_NOT_INITIALIZED) E(EGL_BAD_ACCESS) E(EGL_BAD_ALLOC)
    E(EGL_BAD_ATTRIBUTE) E(EGL_BAD_CONFIG) E(EGL_BAD_CONTEXT) E(EGL_BAD_CURRENT_SURFACE)
    E(EGL_BAD_DISPLAY) E(EGL_BAD_MATCH) E(EGL_BAD_NATIVE_PIXMAP) E(EGL_BAD_NATIVE_WINDOW)
    E(EGL_BAD_PARAMETER) E(EGL_BAD_SURFACE) E(EGL_CONTEXT_LOST) E(EGL_BAD_DEVICE_EXT)
    E(EGL_BAD_STREAM_KHR) E(EGL_BAD_STATE_KHR)
#undef E
    default:
      return "EGL_UNKNOWN_ERROR";
  }
}

jet_status jet__egl_error(const jet__egl_api *api, const char *fn, const char *call,
                          const char *hint, const char *fmt, ...) {
  EGLint err = api ? api->eglGetError() : EGL_NOT_INITIALIZED;
  jet_status st = err == EGL_BAD_ALLOC ? JET_STATUS_OUT_OF_MEMORY : JET_STATUS_EGL_ERROR;
  char msg[512];
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
  } else {
    snprintf(msg, sizeof msg, "%s failed", call);
  }
  return jet__error_native(st, fn, call, jet__egl_error_name(err), (int)err, hint, "%s", msg);
}

static pthread_once_t egl_once = PTHREAD_ONCE_INIT;
static jet__egl_api egl_api;
static char egl_fail[384]; /* why the load failed; "" when it worked */

static void egl_load_once(void) {
  const char *name = getenv("JET_EGL_LIBRARY");
  if (!name || !name[0]) name = "libEGL.so.1";
  /* Never closed: EGL keeps per-process state that outlives any one caller. */
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(egl_fail, sizeof egl_fail, "cannot load %s: %s", name, why ? why : "?");
    return;
  }
  void *p;
#define JET__EGL_CORE(fname, type)                                                        \
  p = dlsym(lib, #fname);                                                                 \
  if (!p) {                                                                               \
    snprintf(egl_fail, sizeof egl_fail, "%s has no %s (EGL 1.5 is needed)", name, #fname); \
    return;                                                                               \
  }                                                                                       \
  memcpy(&egl_api.fname, &p, sizeof p);
  JET__EGL_CORE_SYMS(JET__EGL_CORE)
#undef JET__EGL_CORE
#define JET__EGL_EXT(fname, type, ext, client)                                    \
  {                                                                               \
    __eglMustCastToProperFunctionPointerType f = egl_api.eglGetProcAddress(#fname); \
    memcpy(&egl_api.fname, &f, sizeof f);                                         \
  }
  JET__EGL_EXT_SYMS(JET__EGL_EXT)
#undef JET__EGL_EXT
  const char *c = egl_api.eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!c) (void)egl_api.eglGetError(); /* EGL < 1.5 without client extensions: EGL_BAD_DISPLAY */
  egl_api.client_extensions = c ? c : "";
}

jet_status jet__egl_load(const jet__egl_api **out, const char *fn) {
  pthread_once(&egl_once, egl_load_once);
  if (egl_fail[0])
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "dlopen", "", 0,
                             "install the glvnd EGL loader (libegl1) and the GPU vendor's EGL "
                             "library (on Jetson: nvidia-l4t-3d-core)",
                             "%s", egl_fail);
  *out = &egl_api;
  return JET_STATUS_OK;
}

jet_status jet__egl_need(const struct jet_egl_s *egl, const char *ext, const char *fn) {
  if (jet__ext_listed(egl->extensions, ext) || jet__ext_listed(egl->api->client_extensions, ext))
    return JET_STATUS_OK;
  return jet__error(JET_STATUS_UNSUPPORTED, fn,
                    "the EGL display (%s, EGL %d.%d) does not offer %s", egl->vendor, egl->major,
                    egl->minor, ext);
}

#endif /* JET_HAVE_EGL */

#if JET_HAVE_GL

static pthread_once_t gl_once = PTHREAD_ONCE_INIT;
static jet__gl_api gl_api;
static char gl_fail[384];

static void gl_load_once(void) {
  const char *names[] = {"libOpenGL.so.0", "libGL.so.1"};
  void *lib = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++)
    lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
#if JET_HAVE_EGL
  const jet__egl_api *egl = NULL;
  jet_status est = jet__egl_load(&egl, "jet__gl_load");
  if (est != JET_STATUS_OK) egl = NULL;
#endif
  void *p;
#if JET_HAVE_EGL
#define JET__GL_VIA_EGL(fname) \
  if (!p && egl) p = (void *)egl->eglGetProcAddress(#fname);
#else
#define JET__GL_VIA_EGL(fname)
#endif
#define JET__GL_SYM(fname, ret, params)                                                    \
  p = lib ? dlsym(lib, #fname) : NULL;                                                     \
  JET__GL_VIA_EGL(fname)                                                                   \
  if (!p) {                                                                                \
    snprintf(gl_fail, sizeof gl_fail, "no OpenGL entry point %s (libOpenGL.so.0%s)", #fname, \
             lib ? " loaded" : " not found");                                             \
    return;                                                                                \
  }                                                                                        \
  memcpy(&gl_api.fname, &p, sizeof p);
  JET__GL_SYMS(JET__GL_SYM)
#undef JET__GL_SYM
#undef JET__GL_VIA_EGL
}

jet_status jet__gl_load(const jet__gl_api **out, const char *fn) {
  pthread_once(&gl_once, gl_load_once);
  if (gl_fail[0])
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "dlopen", "", 0,
                             "install the glvnd OpenGL loader (libopengl0) and the GPU vendor's "
                             "GL library",
                             "%s", gl_fail);
  *out = &gl_api;
  return JET_STATUS_OK;
}

static const char *gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "GL_UNKNOWN_ERROR";
  }
}

jet_status jet__gl_check(const jet__gl_api *gl, const char *fn, const char *what) {
  GLenum e = gl->glGetError();
  if (e == GL_NO_ERROR) return JET_STATUS_OK;
  while (gl->glGetError() != GL_NO_ERROR) {
  }
  return jet__error_native(e == GL_OUT_OF_MEMORY ? JET_STATUS_OUT_OF_MEMORY : JET_STATUS_GL_ERROR,
                           fn, what, gl_error_name(e), (int)e, NULL, "%s failed", what);
}

#endif /* JET_HAVE_GL */
