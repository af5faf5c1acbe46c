/*
 * EGL/GL set-up for interop tests: a GL context on a pbuffer of a given EGL
 * display, through jetrt's own run-time tables (tests link no EGL/GL either).
 */
#ifndef JET_EGL_TEST_UTIL_H
#define JET_EGL_TEST_UTIL_H

#include <string.h>

#include "test.h"
#include "../../lib/interop/interop_internal.h"

#if JET_HAVE_EGL && JET_HAVE_GL

typedef struct jt_gl {
  const jet__egl_api *egl;
  const jet__gl_api *gl;
  EGLDisplay dpy;
  EGLContext ctx;
  EGLSurface surf;
} jt_gl;

/* Desktop GL 3.3 core (else GLES 3) on a 16x16 pbuffer of the initialised
 * display @dpy, made current. Returns 0, or 1 with the reason printed. */
static inline int jt_gl_context(jt_gl *g, EGLDisplay dpy) {
  memset(g, 0, sizeof *g);
  if (jet__egl_load(&g->egl, "test") != JET_STATUS_OK || jet__gl_load(&g->gl, "test") != JET_STATUS_OK) {
    fprintf(stderr, "EGL/GL tables: %s\n", jet_last_error_string());
    return 1;
  }
  g->dpy = dpy;
  static const struct {
    EGLenum api;
    EGLint bit;
    EGLint attrs[7];
  } tries[] = {
      {EGL_OPENGL_API, EGL_OPENGL_BIT,
       {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE}},
      {EGL_OPENGL_ES_API, EGL_OPENGL_ES3_BIT, {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE}},
  };
  for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
    const EGLint ca[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, tries[t].bit,
                         EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                         EGL_NONE};
    EGLConfig cfg;
    EGLint n = 0;
    if (!g->egl->eglBindAPI(tries[t].api) || !g->egl->eglChooseConfig(dpy, ca, &cfg, 1, &n) || n < 1)
      continue;
    g->ctx = g->egl->eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, tries[t].attrs);
    if (g->ctx == EGL_NO_CONTEXT) continue;
    const EGLint pa[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    g->surf = g->egl->eglCreatePbufferSurface(dpy, cfg, pa);
    if (g->surf != EGL_NO_SURFACE && g->egl->eglMakeCurrent(dpy, g->surf, g->surf, g->ctx)) return 0;
    if (g->surf != EGL_NO_SURFACE) g->egl->eglDestroySurface(dpy, g->surf);
    g->egl->eglDestroyContext(dpy, g->ctx);
    g->ctx = EGL_NO_CONTEXT;
    g->surf = EGL_NO_SURFACE;
  }
  fprintf(stderr, "no GL 3.3 core / GLES 3 pbuffer context (EGL error 0x%x)\n",
          (unsigned)g->egl->eglGetError());
  return 1;
}

static inline void jt_gl_done(jt_gl *g) {
  if (!g->egl || g->ctx == EGL_NO_CONTEXT) return;
  g->egl->eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  g->egl->eglDestroySurface(g->dpy, g->surf);
  g->egl->eglDestroyContext(g->dpy, g->ctx);
  g->egl->eglReleaseThread();
  g->ctx = EGL_NO_CONTEXT;
}

/* An RGBA8 GL_TEXTURE_2D of @w x @h with @rgba (tightly packed), or 0. */
static inline unsigned jt_gl_texture(const jt_gl *g, int w, int h, const void *rgba) {
  GLuint t = 0;
  g->gl->glGenTextures(1, &t);
  g->gl->glBindTexture(GL_TEXTURE_2D, t);
  g->gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  g->gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  g->gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  g->gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  g->gl->glFinish();
  if (g->gl->glGetError() != GL_NO_ERROR) {
    g->gl->glDeleteTextures(1, &t);
    return 0;
  }
  return t;
}

#endif /* JET_HAVE_EGL && JET_HAVE_GL */

#endif
