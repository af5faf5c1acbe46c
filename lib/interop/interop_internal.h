/*
 * Internals of lib/interop/: the EGL and GL entry-point tables (loaded at run
 * time, never linked), error translation, and the handle structs. Only built
 * with JET_HAVE_EGL / JET_HAVE_GL; interop_off.c stands in without them.
 */
#ifndef JET_INTEROP_INTERNAL_H
#define JET_INTEROP_INTERNAL_H

#include "internal.h"

#if JET_HAVE_EGL
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include "egl_syms.h"

/* EGL_NV_stream_consumer_eglimage... are not needed: CUDA connects itself. */

typedef struct jet__egl_api {
#define JET__EGL_CORE(name, type) type name;
#define JET__EGL_EXT(name, type, ext, client) type name;
  JET__EGL_CORE_SYMS(JET__EGL_CORE)
  JET__EGL_EXT_SYMS(JET__EGL_EXT)
#undef JET__EGL_CORE
#undef JET__EGL_EXT
  const char *client_extensions; /* eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), "" if none */
} jet__egl_api;

/* Load libEGL.so.1 once ($JET_EGL_LIBRARY overrides the name, for tests).
 * UNSUPPORTED with the dlerror text where it cannot be loaded. */
jet_status jet__egl_load(const jet__egl_api **out, const char *fn);

/* 1 when the space-separated @list has the word @name. */
int jet__ext_listed(const char *list, const char *name);

/* The name of an EGL error code, e.g. "EGL_BAD_MATCH". */
const char *jet__egl_error_name(EGLint err);

/* Record the failure of EGL call @call (reading eglGetError) and return
 * EGL_ERROR, or OUT_OF_MEMORY for EGL_BAD_ALLOC. @fmt may be NULL. */
jet_status jet__egl_error(const jet__egl_api *api, const char *fn, const char *call,
                          const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

struct jet_egl_s {
  jet__handle h;
  jet__ctx_resource res;
  const jet__egl_api *api;
  EGLDisplay dpy;
  int major, minor;
  int owned, initialized_here, egl_device;
  char vendor[64];
  char *extensions;  /* copy of the display's EGL_EXTENSIONS */
  atomic_int users;  /* live objects made through this display */
};

/* UNSUPPORTED unless the display lists @ext (whose entry point @sym is needed). */
jet_status jet__egl_need(const struct jet_egl_s *egl, const char *ext, const char *fn);

/* What frames of an EGLImage or EGLStream become; see egl_frame.c. */
#include <cuda_egl_interop.h>

/* Borrowed jet_images over mapped frames, kept while they fit: streams cycle
 * through a few buffers, so a frame's image is made once, not per frame. An
 * entry is held from the frame's acquire (or map) to its release. */
#define JET__FRAME_CACHE 8
typedef struct jet__frame_images {
  jet_image img[JET__FRAME_CACHE];
  int held[JET__FRAME_CACHE];
  unsigned next; /* round-robin victim */
} jet__frame_images;

/* Release every image of @c (the owner is going away or unmapping for good). */
void jet__frame_images_clear(jet__frame_images *c);

/* Fill @out from CUDA's description of a mapped resource. A pitch frame with a
 * jet_format gets a borrowed image from @cache, marked held in *@slot (-1 when
 * the frame has no image). INVALID_STATE when every cache entry is held. */
jet_status jet__egl_frame_from_cuda(struct jet_context_s *ctx, const cudaEglFrame *f,
                                    cudaGraphicsResource_t res, jet__frame_images *cache,
                                    int *slot, jet_egl_frame *out, const char *fn);

/* The byte pitch of @plane of a @format frame whose plane 0 has @pitch0
 * bytes (EGL frames carry one pitch); 0 where jetrt does not know @format. */
size_t jet__egl_plane_pitch(jet_format format, size_t pitch0, int plane);

/* The cudaEglColorFormat a producer presents for @format so that a consumer
 * reads @format back, on an integrated (1) or discrete (0) GPU; -1 when the
 * CUDA producer cannot present it. */
int jet__egl_native_from_format(jet_format format, int integrated);

/* Translate a failed CUDA-EGL call. cudaErrorLaunchTimeout is TIMEOUT here
 * (acquire and return report timeouts with it), not a device fault. */
jet_status jet__egl_cuda_error(cudaError_t e, const char *fn, const char *call, const char *hint);
#endif /* JET_HAVE_EGL */

#if JET_HAVE_GL
#include <GL/gl.h>
#include <GL/glext.h>
#include "gl_syms.h"

typedef struct jet__gl_api {
#define JET__GL_SYM(name, ret, params) ret(APIENTRY *name) params;
  JET__GL_SYMS(JET__GL_SYM)
#undef JET__GL_SYM
} jet__gl_api;

/* Load the GL entry points once (libOpenGL.so.0, else libGL.so.1, else
 * eglGetProcAddress). UNSUPPORTED naming the first missing one. */
jet_status jet__gl_load(const jet__gl_api **out, const char *fn);

/* GL_NO_ERROR: OK. Else record GL_ERROR naming @what and the GL error. */
jet_status jet__gl_check(const jet__gl_api *gl, const char *fn, const char *what);
#endif /* JET_HAVE_GL */

#endif /* JET_INTEROP_INTERNAL_H */
