/*
 * Internals of lib/interop/: the EGL and GL entry-point tables (loaded at run
 * time, never linked), error translation, and the handle structs. Only built
 * with JET_HAVE_EGL / JET_HAVE_GL; gl_off.c and display_off.c stand in for
 * jetrt/gl.h and jetrt/display.h without them.
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

/* An object made through @egl (registered image, stream end, presenter): a
 * handle of @type on @egl's context, counted in egl->users (so the display
 * stays open), and released by @release when the context is destroyed with
 * it alive. On failure nothing is registered. */
jet_status jet__egl_adopt(struct jet_egl_s *egl, jet__handle *h, int type, jet__ctx_resource *res,
                          const char *kind, void (*release)(jet__ctx_resource *r),
                          const char *fn);
/* Undo jet__egl_adopt once the object is released (its context resource is
 * already unlinked: by the destroy call, or by the context). */
void jet__egl_disown(struct jet_egl_s *egl, jet__handle *h);

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

/* Translate a failed CUDA-GL call: cudaErrorInvalidGraphicsContext (no GL
 * context current, or one on another GPU) is INVALID_STATE with a hint; the
 * rest as jet__cuda_error. @what says what was being done. */
jet_status jet__gl_cuda_error(cudaError_t e, const char *fn, const char *call, const char *what);

/* The jet_gl_resource jet_gl_register_* makes once CUDA has registered @cu
 * (a hint in @flags is also set as the map flags): the handle, its context
 * registration ("GL buffer" / "GL texture"). On failure @cu is unregistered. */
jet_status jet__gl_resource_adopt(struct jet_context_s *ctx, cudaGraphicsResource_t cu,
                                  unsigned name, unsigned target, int is_buffer, unsigned flags,
                                  jet_gl_resource *out, const char *fn);
/* For host tests, which have no CUDA to map with: set the mapping state by
 * hand (a buffer "mapped" at @ptr, @bytes long); mapped 0 releases the
 * borrowed handles as jet_gl_unmap does. */
void jet__gl_resource_set_mapped(jet_gl_resource r, void *ptr, size_t bytes, int mapped);
#endif /* JET_HAVE_GL */

#if JET_HAVE_EGL && JET_HAVE_GL
#include "jetrt/display.h"

/* How jet__gl_view_draw turns texels into colours; the texture jet__gl_texture_create makes. */
typedef enum jet__gl_draw_mode {
  JET__GL_DRAW_RGBA = 0, /* GL_RGBA8 texture holding R,G,B,A bytes */
  JET__GL_DRAW_BGRA = 1, /* GL_RGBA8 texture holding B,G,R,A bytes: swizzled by the shader */
  JET__GL_DRAW_GRAY = 2  /* GL_R8 texture: drawn grey */
} jet__gl_draw_mode;

/* The GL half of a presenter, with no CUDA in it (host tests run it on Mesa's
 * surfaceless display): an EGL context (desktop GL 3.3 core, else GLES 3.0) on
 * a pbuffer or window surface, and the program that draws a texture over the
 * whole surface, opaque, top row at the top. */
typedef struct jet__gl_view {
  const jet__egl_api *egl;
  const jet__gl_api *gl;
  EGLDisplay dpy;
  EGLConfig config;
  EGLContext ctx;
  EGLSurface surf;
  EGLenum api; /* EGL_OPENGL_API or EGL_OPENGL_ES_API */
  int es, is_window;
  GLuint program, vao;
  GLint mode_loc, tex_loc;
  char renderer[128];
} jet__gl_view;

/* Make the context and surface of @desc (checked by the caller) on the
 * initialised display @dpy, build the program, clear to opaque black and leave
 * it current. Desktop GL 3.3 core first, then GLES 3.0; @es_only skips the
 * first (tests of the GLES shaders). UNSUPPORTED when no config or context
 * fits (the detail says what each attempt met); EGL_ERROR; GL_ERROR with the
 * shader log. On failure nothing is left behind. */
jet_status jet__gl_view_create(const jet__egl_api *egl, EGLDisplay dpy,
                               const jet_presenter_desc *desc, int es_only, jet__gl_view *v,
                               const char *fn);
/* Make @v current (when it is not), delete its GL objects, release it from the
 * thread and destroy context and surface. Everything is released whatever
 * fails; the first failure is returned. */
jet_status jet__gl_view_destroy(jet__gl_view *v, const char *fn);
jet_status jet__gl_view_make_current(jet__gl_view *v, const char *fn);
/* The surface's current size (a window's may change). */
jet_status jet__gl_view_size(const jet__gl_view *v, int *w, int *h, const char *fn);
/* Draw @tex (@tex_w x @tex_h, made by jet__gl_texture_create for @mode) over the
 * whole surface: GL_NEAREST at 1:1 (exact), GL_LINEAR when scaled. @v current. */
jet_status jet__gl_view_draw(jet__gl_view *v, GLuint tex, jet__gl_draw_mode mode, int tex_w,
                             int tex_h, const char *fn);
/* eglSwapBuffers; glFlush as well on a pbuffer (where the swap does nothing). @v current. */
jet_status jet__gl_view_swap(jet__gl_view *v, const char *fn);
/* glReadPixels of the whole surface as RGBA8, top row first, rows @pitch apart
 * (>= 4 * width, checked by the caller). @v current. */
jet_status jet__gl_view_read(jet__gl_view *v, void *rgba, size_t pitch, const char *fn);
/* A GL_TEXTURE_2D for @mode (GL_RGBA8, or GL_R8 for GRAY), level 0 only,
 * @w x @h, filled from @pixels (tightly packed rows; NULL: undefined). Leaves
 * it bound to GL_TEXTURE_2D. */
jet_status jet__gl_texture_create(const jet__gl_api *gl, jet__gl_draw_mode mode, int w, int h,
                                  const void *pixels, GLuint *tex, const char *fn);
#endif /* JET_HAVE_EGL && JET_HAVE_GL */

#endif /* JET_INTEROP_INTERNAL_H */
