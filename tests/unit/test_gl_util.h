/* Helpers shared by the GL interop and display tests: Mesa's surfaceless EGL
 * display (host tests), log capture, and the colours a presenter shows. */
#ifndef JET_TEST_GL_UTIL_H
#define JET_TEST_GL_UTIL_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

/* ------------------------------------------------------------ log capture */

typedef struct jt_log {
  pthread_mutex_t lock;
  char text[8192];
  size_t used;
} jt_log;

static inline void jt_log_fn(jet_log_level level, const char *msg, void *user) {
  (void)level;
  jt_log *l = user;
  pthread_mutex_lock(&l->lock);
  int k = snprintf(l->text + l->used, sizeof l->text - l->used, "%s\n", msg);
  if (k > 0) l->used = l->used + (size_t)k < sizeof l->text ? l->used + (size_t)k : sizeof l->text - 1;
  pthread_mutex_unlock(&l->lock);
}

static inline void jt_log_start(jt_log *l, jet_log_level min) {
  memset(l, 0, sizeof *l);
  pthread_mutex_init(&l->lock, NULL);
  jet_set_log_callback(jt_log_fn, l, min);
}

static inline void jt_log_stop(jt_log *l) {
  jet_set_log_callback(NULL, NULL, JET_LOG_OFF);
  pthread_mutex_destroy(&l->lock);
}

/* The first captured line containing @needle, or NULL. */
static inline const char *jt_log_find(jt_log *l, const char *needle) {
  return strstr(l->text, needle);
}

/* ------------------------------------------------------------ presenter colours */

/* What a presenter shows for pixel @x of a row of @f: opaque R, G, B. */
static inline void jt_shown_rgba(jet_format f, const unsigned char *row, int x, unsigned char out[4]) {
  if (f == JET_FORMAT_GRAY8) {
    out[0] = out[1] = out[2] = row[x];
  } else if (f == JET_FORMAT_BGRA8) {
    out[0] = row[4 * x + 2];
    out[1] = row[4 * x + 1];
    out[2] = row[4 * x + 0];
  } else {
    out[0] = row[4 * x + 0];
    out[1] = row[4 * x + 1];
    out[2] = row[4 * x + 2];
  }
  out[3] = 255;
}

/* Compare a read-back (@w x @h RGBA8, @pitch) with the image the presenter was
 * given (host copy @img, @ipitch): 0 when every pixel matches, else 1 with the
 * first difference and the count in @why. */
static inline int jt_compare_shown(const unsigned char *rgba, size_t pitch, jet_format f,
                                   const unsigned char *img, size_t ipitch, int w, int h,
                                   char *why, size_t n) {
  long bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      unsigned char e[4];
      const unsigned char *g = rgba + (size_t)y * pitch + 4 * (size_t)x;
      jt_shown_rgba(f, img + (size_t)y * ipitch, x, e);
      if (memcmp(g, e, 4) != 0 && bad++ == 0)
        snprintf(why, n,
                 "%s %dx%d: pixel (%d, %d) (row %d from the top) reads %u,%u,%u,%u, expected "
                 "%u,%u,%u,%u",
                 jet_format_name(f), w, h, x, y, y, g[0], g[1], g[2], g[3], e[0], e[1], e[2], e[3]);
    }
  if (bad) {
    size_t used = strlen(why);
    snprintf(why + used, n - used, " (%ld of %ld pixels differ)", bad, (long)w * h);
  }
  return bad != 0;
}

/* ------------------------------------------------------------ Mesa (host tests) */

#if JET_HAVE_EGL && JET_HAVE_GL
#include "../../lib/interop/interop_internal.h"

/* LeakSanitizer and Mesa: Mesa dlopens its DRI driver (swrast_dri.so, which
 * brings LLVM and libdrm) and dlcloses it at eglTerminate or exit, before
 * LSan looks; blocks the driver still points to from its globals then look
 * leaked, allocated in "<unknown module>" frames (Mesa has no frame pointers,
 * and slow unwinding deadlocks llvmpipe's threads), so no suppressions-file
 * entry can name them without hiding other leaks. Instead, in ASan builds,
 * the driver Mesa loaded is pinned (RTLD_NODELETE|RTLD_NOLOAD): its globals
 * stay mapped and scanned, those blocks stay reachable, and a real leak, in
 * Mesa or jetrt, is still reported with symbolized frames. */
#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
static inline void jt_mesa_pin_driver(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[1024];
  while (f && fgets(line, sizeof line, f)) {
    char *path = strchr(line, '/');
    if (!path) continue;
    path[strcspn(path, "\n")] = '\0';
    size_t n = strlen(path);
    if (n > 7 && strcmp(path + n - 7, "_dri.so") == 0) {
      if (!dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
        fprintf(stderr, "note: cannot pin %s: %s\n", path, dlerror());
      break;
    }
  }
  if (f) fclose(f);
}
#else
static inline void jt_mesa_pin_driver(void) {}
#endif

typedef struct jt_mesa {
  const jet__egl_api *egl;
  const jet__gl_api *gl;
  EGLDisplay dpy;
} jt_mesa;

/* Mesa's surfaceless display, initialised. 0 when open; else 1 and the reason
 * to skip in @why (no EGL, no Mesa, no GL). */
static inline int jt_mesa_open(jt_mesa *m, char *why, size_t n) {
  memset(m, 0, sizeof *m);
  if (jet__egl_load(&m->egl, "test") != JET_STATUS_OK) {
    snprintf(why, n, "no EGL library: %s", jet_last_error_string());
    return 1;
  }
  if (!jet__ext_listed(m->egl->client_extensions, "EGL_MESA_platform_surfaceless")) {
    snprintf(why, n, "EGL has no EGL_MESA_platform_surfaceless (Mesa's libEGL_mesa is not "
                     "installed); client extensions: %.300s", m->egl->client_extensions);
    return 1;
  }
  m->dpy = m->egl->eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA,
                                         (void *)EGL_DEFAULT_DISPLAY, NULL);
  if (m->dpy == EGL_NO_DISPLAY) {
    snprintf(why, n, "eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA) failed: %s",
             jet__egl_error_name(m->egl->eglGetError()));
    return 1;
  }
  EGLint ma = 0, mi = 0;
  if (!m->egl->eglInitialize(m->dpy, &ma, &mi)) {
    snprintf(why, n, "eglInitialize of Mesa's surfaceless display failed: %s",
             jet__egl_error_name(m->egl->eglGetError()));
    return 1;
  }
  jt_mesa_pin_driver();
  if (jet__gl_load(&m->gl, "test") != JET_STATUS_OK) {
    snprintf(why, n, "no OpenGL library: %s", jet_last_error_string());
    m->egl->eglTerminate(m->dpy);
    return 1;
  }
  return 0;
}

static inline void jt_mesa_close(jt_mesa *m) {
  m->egl->eglMakeCurrent(m->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  m->egl->eglTerminate(m->dpy);
  m->egl->eglReleaseThread();
}
#endif

#endif
