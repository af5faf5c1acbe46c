/*
 * jet_presenter: a jet_image shown through OpenGL on an EGL surface. The GL
 * side is gl_view.c; here the handle, and the CUDA copy of the image into a
 * texture registered with CUDA (write-discard: CUDA overwrites all of it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_internal.h"
#include "../image/image_internal.h"

#if JET_HAVE_EGL && JET_HAVE_GL

#include <cuda_gl_interop.h>

struct jet_presenter_s {
  jet__handle h;
  jet__ctx_resource res;
  struct jet_egl_s *egl;
  jet__gl_view view;
  GLuint tex; /* 0 until the first draw */
  int tex_w, tex_h, tex_gray;
  cudaGraphicsResource_t tex_res;
};

/* Texture and registration go together; @p's context must be current. */
static jet_status texture_release(struct jet_presenter_s *p, const char *fn) {
  jet_status st = JET_STATUS_OK;
  if (p->tex_res) {
    (void)jet__ctx_activate(p->h.ctx, fn);
    cudaError_t e = cudaGraphicsUnregisterResource(p->tex_res);
    if (e != cudaSuccess)
      st = jet__gl_cuda_error(e, fn, "cudaGraphicsUnregisterResource", "the presenter's texture");
    p->tex_res = NULL;
  }
  if (p->tex) {
    p->view.gl->glDeleteTextures(1, &p->tex);
    p->tex = 0;
  }
  p->tex_w = p->tex_h = 0;
  return st;
}

static jet_status texture_fit(struct jet_presenter_s *p, int w, int h, int gray, const char *fn) {
  if (p->tex && p->tex_w == w && p->tex_h == h && p->tex_gray == gray) return JET_STATUS_OK;
  JET__TRY(texture_release(p, fn));
  JET__TRY(jet__gl_texture_create(p->view.gl, gray ? JET__GL_DRAW_GRAY : JET__GL_DRAW_RGBA, w, h,
                                  NULL, &p->tex, fn));
  p->tex_res = NULL;
  const char *call = "cudaGraphicsGLRegisterImage";
  cudaError_t e = cudaGraphicsGLRegisterImage(&p->tex_res, p->tex, GL_TEXTURE_2D,
                                              cudaGraphicsRegisterFlagsWriteDiscard);
  if (e != cudaSuccess) {
    p->tex_res = NULL;
  } else {
    call = "cudaGraphicsResourceSetMapFlags";
    e = cudaGraphicsResourceSetMapFlags(p->tex_res, cudaGraphicsMapFlagsWriteDiscard);
  }
  if (e != cudaSuccess) {
    jet_status st = jet__gl_cuda_error(e, fn, call, "registering the presenter's texture with CUDA");
    if (p->tex_res && cudaGraphicsUnregisterResource(p->tex_res) != cudaSuccess)
      (void)cudaGetLastError();
    p->tex_res = NULL;
    p->view.gl->glDeleteTextures(1, &p->tex);
    p->tex = 0;
    return st;
  }
  p->tex_w = w;
  p->tex_h = h;
  p->tex_gray = gray;
  return JET_STATUS_OK;
}

static jet_status presenter_free(struct jet_presenter_s *p, const char *fn) {
  jet_status st = jet__gl_view_make_current(&p->view, fn);
  if (st == JET_STATUS_OK) {
    st = texture_release(p, fn);
  } else {
    /* Not current here: the CUDA registration cannot be released through
     * GL; the texture goes with the context. */
    if (p->tex_res && cudaGraphicsUnregisterResource(p->tex_res) != cudaSuccess)
      (void)cudaGetLastError();
    p->tex_res = NULL;
  }
  jet_status st2 = jet__gl_view_destroy(&p->view, fn);
  if (st == JET_STATUS_OK) st = st2;
  jet__egl_disown(p->egl, &p->h);
  free(p);
  return st;
}

static void presenter_release(jet__ctx_resource *r) {
  (void)presenter_free((struct jet_presenter_s *)((char *)r - offsetof(struct jet_presenter_s, res)),
                       "jet_context_destroy");
}

jet_status jet_presenter_create(jet_egl egl, const jet_presenter_desc *desc, jet_presenter *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(desc, "desc is NULL");
  JET__ARG(desc->width > 0 && desc->height > 0, "size %dx%d: both must be > 0", desc->width,
           desc->height);
  JET__ARG(desc->swap_interval >= 0, "swap_interval %d is negative", desc->swap_interval);
  struct jet_presenter_s *p = calloc(1, sizeof *p);
  if (!p) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a presenter");
  p->egl = egl;
  jet_status st = jet__gl_view_create(egl->api, egl->dpy, desc, 0, &p->view, __func__);
  if (st != JET_STATUS_OK) {
    free(p);
    return st;
  }
  st = jet__egl_adopt(egl, &p->h, JET__H_PRESENTER, &p->res, "presenter", presenter_release,
                      __func__);
  if (st != JET_STATUS_OK) {
    (void)jet__gl_view_destroy(&p->view, __func__);
    free(p);
    return st;
  }
  jet__log(JET_LOG_INFO, "presenter: %s %s %dx%d on %s", p->view.es ? "OpenGL ES 3" : "OpenGL core",
           p->view.is_window ? "window" : "pbuffer", desc->width, desc->height,
           p->view.renderer);
  *out = p;
  return JET_STATUS_OK;
}

jet_status jet_presenter_destroy(jet_presenter p) {
  if (!p) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(p, JET__H_PRESENTER, __func__, "p"));
  jet__ctx_resource_remove(p->h.ctx, &p->res);
  return presenter_free(p, __func__);
}

jet_status jet_presenter_get_info(jet_presenter p, jet_presenter_info *info) {
  JET__TRY(jet__handle_check(p, JET__H_PRESENTER, __func__, "p"));
  JET__ARG(info, "info is NULL");
  memset(info, 0, sizeof *info);
  JET__TRY(jet__gl_view_size(&p->view, &info->width, &info->height, __func__));
  info->is_window = p->view.is_window;
  info->gl_es = p->view.es;
  info->egl_context = p->view.ctx;
  info->egl_surface = p->view.surf;
  info->texture = p->tex;
  snprintf(info->renderer, sizeof info->renderer, "%s", p->view.renderer);
  return JET_STATUS_OK;
}

jet_status jet_presenter_make_current(jet_presenter p) {
  JET__TRY(jet__handle_check(p, JET__H_PRESENTER, __func__, "p"));
  return jet__gl_view_make_current(&p->view, __func__);
}

jet_status jet_presenter_draw(jet_presenter p, jet_image image, jet_stream stream) {
  JET__TRY(jet__handle_check(p, JET__H_PRESENTER, __func__, "p"));
  JET__TRY(jet__handle_check_in(image, JET__H_IMAGE, p->h.ctx, __func__, "image"));
  const jet__image_layout *l = &image->layout;
  jet__gl_draw_mode mode;
  switch (l->format) {
    case JET_FORMAT_RGBA8: mode = JET__GL_DRAW_RGBA; break;
    case JET_FORMAT_BGRA8: mode = JET__GL_DRAW_BGRA; break;
    case JET_FORMAT_GRAY8: mode = JET__GL_DRAW_GRAY; break;
    default:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "format mismatch: a presenter draws RGBA8, BGRA8 or GRAY8, not %s (convert "
                        "with jet_convert_color first)",
                        jet_format_name(l->format));
  }
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, p->h.ctx, &cu, __func__));
  JET__TRY(jet__gl_view_make_current(&p->view, __func__));
  JET__TRY(texture_fit(p, l->width, l->height, mode == JET__GL_DRAW_GRAY, __func__));

  cudaError_t e = cudaGraphicsMapResources(1, &p->tex_res, cu);
  if (e != cudaSuccess)
    return jet__gl_cuda_error(e, __func__, "cudaGraphicsMapResources", "the presenter's texture");
  cudaArray_t arr = NULL;
  const char *call = "cudaGraphicsSubResourceGetMappedArray";
  e = cudaGraphicsSubResourceGetMappedArray(&arr, p->tex_res, 0, 0);
  if (e == cudaSuccess) {
    call = "cudaMemcpy2DToArrayAsync";
    e = cudaMemcpy2DToArrayAsync(arr, 0, 0, image->plane[0], l->plane[0].pitch,
                                 l->plane[0].row_bytes, (size_t)l->height,
                                 cudaMemcpyDeviceToDevice, cu);
  }
  cudaError_t eu = cudaGraphicsUnmapResources(1, &p->tex_res, cu);
  if (e == cudaSuccess && eu != cudaSuccess) {
    e = eu;
    call = "cudaGraphicsUnmapResources";
  }
  if (e == cudaSuccess) {
    call = "cudaStreamSynchronize";
    e = cudaStreamSynchronize(cu);
  }
  if (e != cudaSuccess)
    return jet__gl_cuda_error(e, __func__, call, "copying the image into the presenter's texture");
  JET__TRY(jet__gl_view_draw(&p->view, p->tex, mode, l->width, l->height, __func__));
  return jet__gl_view_swap(&p->view, __func__);
}

jet_status jet_presenter_swap(jet_presenter p) {
  JET__TRY(jet__handle_check(p, JET__H_PRESENTER, __func__, "p"));
  JET__TRY(jet__gl_view_make_current(&p->view, __func__));
  return jet__gl_view_swap(&p->view, __func__);
}

jet_status jet_presenter_read(jet_presenter p, void *rgba, size_t pitch) {
  JET__TRY(jet__handle_check(p, JET__H_PRESENTER, __func__, "p"));
  JET__ARG(rgba, "rgba is NULL");
  int w, h;
  JET__TRY(jet__gl_view_size(&p->view, &w, &h, __func__));
  JET__ARG(pitch >= (size_t)w * 4, "pitch %zu is below 4 * width (%d)", pitch, w);
  JET__TRY(jet__gl_view_make_current(&p->view, __func__));
  return jet__gl_view_read(&p->view, rgba, pitch, __func__);
}

#endif /* JET_HAVE_EGL && JET_HAVE_GL */
