/*
 * jetrt/display.h - the display helper: show a jet_image through OpenGL on an
 * EGL surface.
 *
 * A presenter owns a GL context, an EGL surface and a texture registered with
 * CUDA. jet_presenter_draw copies the image into the texture on the GPU (no
 * trip through the host), draws it scaled to the surface and swaps. The surface
 * is the caller's native window when one is given (the EGL platform of the
 * display decides what that is: an X11 Window, a wl_egl_window, a
 * gbm_surface, an EGLOutput stream...), else a pbuffer: the headless case and
 * what tests use, read back with jet_presenter_read. jetrt links no windowing
 * library: the window comes from the caller.
 *
 * Needs both EGL and GL (else JET_STATUS_NOT_BUILT_IN), and an EGL display
 * with desktop OpenGL 3.3 core or OpenGL ES 3.0 (whichever the display offers,
 * in that order) and an 8-bit RGB config for the surface kind.
 *
 * What is shown: the image fills the whole surface, its top row at the top,
 * opaque (alpha is not shown; a read-back has alpha 255). Drawn at its own
 * size it is sampled GL_NEAREST, so a read-back equals the image bit for bit;
 * scaled, GL_LINEAR.
 *
 * Lifetime: a presenter belongs to its display's context and counts as a user
 * of the jet_egl (jet_egl_close refuses while it lives). Destroying the
 * context with a presenter alive releases it and names it in the "leak
 * report:" warning.
 *
 * Threads: the presenter's GL context is made current on the calling thread by
 * every call here, and stays current after it; use a presenter from one
 * thread at a time, and do not keep another GL context current on that thread
 * across calls.
 */
#ifndef JETRT_DISPLAY_H
#define JETRT_DISPLAY_H

#include <stddef.h>
#include "egl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_presenter_s *jet_presenter;

/** Parameters of jet_presenter_create. Zero-initialise, then set what you need. */
typedef struct jet_presenter_desc {
  int width, height;   /**< pbuffer size in pixels (> 0); for a window, its size at creation */
  void *native_window; /**< NULL: a pbuffer. Else the platform window (eglCreatePlatformWindowSurface) */
  int swap_interval;   /**< eglSwapInterval: 0 does not wait for vertical blank, 1 does */
} jet_presenter_desc;

/** What jet_presenter_get_info reports. */
typedef struct jet_presenter_info {
  int width, height;   /**< surface size */
  int is_window;       /**< 1: window surface; 0: pbuffer */
  int gl_es;           /**< 1: OpenGL ES 3 context; 0: desktop OpenGL core */
  void *egl_context;   /**< the EGLContext (to create EGLImages of its textures, or share with) */
  void *egl_surface;   /**< the EGLSurface */
  unsigned texture;    /**< the GL texture jet_presenter_draw fills */
  char renderer[128];  /**< GL_RENDERER */
} jet_presenter_info;

/**
 * jet_presenter_create - a GL context, a surface and a CUDA-registered texture.
 * @egl: the display (jet_egl_open).
 * @desc: surface description; not NULL.
 * @out: receives the presenter.
 * No CUDA call is made here: the texture is made and registered with CUDA at
 * the first draw (GL_RGBA8, or GL_R8 for GRAY8 images).
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL, size <= 0, negative
 *         swap_interval); INVALID_HANDLE; UNSUPPORTED (no GL 3.3 core / GLES 3
 *         context or config for the surface kind, or no window surfaces on
 *         this display: the detail says what each API met); EGL_ERROR;
 *         GL_ERROR (the display program did not compile: the log is in the
 *         detail); NOT_BUILT_IN.
 * Thread safety: leaves the new context current on the calling thread.
 */
jet_status jet_presenter_create(jet_egl egl, const jet_presenter_desc *desc, jet_presenter *out);

/**
 * jet_presenter_destroy - release the texture registration, GL objects, surface
 * and context (made current first, released from the thread after: no GL
 * context is current on the calling thread when it returns).
 * @p: the presenter, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; EGL_ERROR or a CUDA status (released anyway).
 * Thread safety: no other thread may use @p during the call.
 */
jet_status jet_presenter_destroy(jet_presenter p);

/**
 * jet_presenter_get_info - the surface, context and texture of @p.
 * @return JET_STATUS_OK, INVALID_HANDLE, INVALID_ARGUMENT for a NULL @info.
 * Thread safety: safe from any thread.
 */
jet_status jet_presenter_get_info(jet_presenter p, jet_presenter_info *info);

/**
 * jet_presenter_make_current - make the presenter's context and surface current
 * on the calling thread, to draw more with GL before jet_presenter_swap.
 * @return JET_STATUS_OK, INVALID_HANDLE, EGL_ERROR.
 */
jet_status jet_presenter_make_current(jet_presenter p);

/**
 * jet_presenter_draw - show @image: copy it into the texture through CUDA on
 * @stream (the texture is re-created when the image size changes), wait for
 * that copy, draw it scaled to the whole surface, and swap (a pbuffer's swap
 * is a flush: read it back with jet_presenter_read).
 * @image: RGBA8, BGRA8 or GRAY8 (drawn grey), of @p's context.
 * @stream: a stream of @p's context.
 * @return JET_STATUS_OK; INVALID_HANDLE; WRONG_CONTEXT; INVALID_ARGUMENT (other
 *         formats, message "format mismatch": convert first with
 *         jet_convert_color); INVALID_STATE (the GL context is not on the CUDA
 *         device: open the display with jet_egl_open's headless default);
 *         EGL_ERROR; GL_ERROR; a CUDA status.
 * Thread safety: see the top of this header.
 */
jet_status jet_presenter_draw(jet_presenter p, jet_image image, jet_stream stream);

/**
 * jet_presenter_swap - eglSwapBuffers, after drawing more with GL yourself (on
 * a pbuffer, where a swap does nothing, glFlush).
 * @return JET_STATUS_OK, INVALID_HANDLE, EGL_ERROR, GL_ERROR.
 */
jet_status jet_presenter_swap(jet_presenter p);

/**
 * jet_presenter_read - read the surface back (glReadPixels), top row first.
 * A pbuffer keeps what was drawn; a window's back buffer is undefined after a
 * swap unless its EGL_SWAP_BEHAVIOR preserves it.
 * @rgba: width * height RGBA8 pixels at @pitch bytes per row, of the surface's
 *        current size (jet_presenter_get_info); bytes past 4 * width in a row
 *        are left as they were.
 * @pitch: >= 4 * width.
 * @return JET_STATUS_OK; INVALID_HANDLE; INVALID_ARGUMENT; EGL_ERROR; GL_ERROR.
 * Thread safety: see the top of this header.
 */
jet_status jet_presenter_read(jet_presenter p, void *rgba, size_t pitch);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_DISPLAY_H */
