/*
 * EGLImages: made from GL textures or dma-buf fds, registered with CUDA,
 * mapped on a stream as jet_egl_frames.
 */
#include <stdlib.h>
#include <string.h>

#include "interop_internal.h"
#include "../image/image_internal.h"

#if JET_HAVE_EGL

struct jet_egl_image_s {
  jet__handle h;
  jet__ctx_resource res;
  struct jet_egl_s *egl;
  EGLImageKHR image;
  cudaGraphicsResource_t cu;
  unsigned flags;
  int mapped;
  jet__frame_images images; /* borrowed views of the mapped planes */
  int image_slot;
};

#define IMAGE_FLAGS (JET_EGL_READ_ONLY | JET_EGL_WRITE_DISCARD)

jet_status jet_egl_create_image_gl_texture(jet_egl egl, void *gl_context, unsigned texture,
                                           int level, void **egl_image) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(egl_image, "egl_image is NULL");
  *egl_image = NULL;
  JET__ARG(gl_context, "gl_context is NULL");
  JET__ARG(texture != 0, "texture is 0 (the default texture cannot be an EGLImage)");
  JET__ARG(level >= 0, "level %d is negative", level);
  JET__TRY(jet__egl_need(egl, "EGL_KHR_image_base", __func__));
  JET__TRY(jet__egl_need(egl, "EGL_KHR_gl_texture_2D_image", __func__));
  const EGLint attrs[] = {EGL_GL_TEXTURE_LEVEL_KHR, level, EGL_NONE};
  EGLImageKHR im = egl->api->eglCreateImageKHR(egl->dpy, (EGLContext)gl_context,
                                               EGL_GL_TEXTURE_2D_KHR,
                                               (EGLClientBuffer)(uintptr_t)texture, attrs);
  if (im == EGL_NO_IMAGE_KHR)
    return jet__egl_error(egl->api, __func__, "eglCreateImageKHR",
                          "the texture must be a complete GL_TEXTURE_2D of that context",
                          "EGLImage of GL texture %u level %d", texture, level);
  *egl_image = im;
  return JET_STATUS_OK;
}

jet_status jet_egl_create_image_dmabuf(jet_egl egl, const jet_egl_dmabuf_desc *desc,
                                       void **egl_image) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(egl_image, "egl_image is NULL");
  *egl_image = NULL;
  JET__ARG(desc, "desc is NULL");
  JET__ARG(desc->width > 0 && desc->height > 0, "size %dx%d", desc->width, desc->height);
  JET__ARG(desc->plane_count >= 1 && desc->plane_count <= JET_IMAGE_MAX_PLANES,
           "plane_count %d (1..%d)", desc->plane_count, JET_IMAGE_MAX_PLANES);
  JET__ARG(desc->fourcc != 0, "fourcc is 0");
  for (int i = 0; i < desc->plane_count; i++) {
    JET__ARG(desc->planes[i].fd >= 0, "plane %d: fd %d", i, desc->planes[i].fd);
    JET__ARG(desc->planes[i].pitch > 0, "plane %d: pitch 0", i);
  }
  JET__TRY(jet__egl_need(egl, "EGL_KHR_image_base", __func__));
  JET__TRY(jet__egl_need(egl, "EGL_EXT_image_dma_buf_import", __func__));
  if (desc->has_modifier)
    JET__TRY(jet__egl_need(egl, "EGL_EXT_image_dma_buf_import_modifiers", __func__));
  static const EGLint keys[JET_IMAGE_MAX_PLANES][5] = {
      {EGL_DMA_BUF_PLANE0_FD_EXT, EGL_DMA_BUF_PLANE0_OFFSET_EXT, EGL_DMA_BUF_PLANE0_PITCH_EXT,
       EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT},
      {EGL_DMA_BUF_PLANE1_FD_EXT, EGL_DMA_BUF_PLANE1_OFFSET_EXT, EGL_DMA_BUF_PLANE1_PITCH_EXT,
       EGL_DMA_BUF_PLANE1_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE1_MODIFIER_HI_EXT},
      {EGL_DMA_BUF_PLANE2_FD_EXT, EGL_DMA_BUF_PLANE2_OFFSET_EXT, EGL_DMA_BUF_PLANE2_PITCH_EXT,
       EGL_DMA_BUF_PLANE2_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE2_MODIFIER_HI_EXT}};
  EGLint a[7 + JET_IMAGE_MAX_PLANES * 10];
  int n = 0;
  a[n++] = EGL_WIDTH;
  a[n++] = desc->width;
  a[n++] = EGL_HEIGHT;
  a[n++] = desc->height;
  a[n++] = EGL_LINUX_DRM_FOURCC_EXT;
  a[n++] = (EGLint)desc->fourcc;
  for (int i = 0; i < desc->plane_count; i++) {
    a[n++] = keys[i][0];
    a[n++] = desc->planes[i].fd;
    a[n++] = keys[i][1];
    a[n++] = (EGLint)desc->planes[i].offset;
    a[n++] = keys[i][2];
    a[n++] = (EGLint)desc->planes[i].pitch;
    if (desc->has_modifier) {
      a[n++] = keys[i][3];
      a[n++] = (EGLint)(desc->modifier & 0xffffffffu);
      a[n++] = keys[i][4];
      a[n++] = (EGLint)(desc->modifier >> 32);
    }
  }
  a[n++] = EGL_NONE;
  EGLImageKHR im = egl->api->eglCreateImageKHR(egl->dpy, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT,
                                               (EGLClientBuffer)NULL, a);
  if (im == EGL_NO_IMAGE_KHR)
    return jet__egl_error(egl->api, __func__, "eglCreateImageKHR",
                          "check the fourcc against eglQueryDmaBufFormatsEXT, and the plane "
                          "offsets and pitches against the buffer's allocation",
                          "EGLImage of a %dx%d dma-buf, fourcc 0x%08x, %d plane(s)", desc->width,
                          desc->height, desc->fourcc, desc->plane_count);
  *egl_image = im;
  return JET_STATUS_OK;
}

jet_status jet_egl_destroy_image(jet_egl egl, void *egl_image) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  if (!egl_image) return JET_STATUS_OK;
  JET__TRY(jet__egl_need(egl, "EGL_KHR_image_base", __func__));
  if (!egl->api->eglDestroyImageKHR(egl->dpy, (EGLImageKHR)egl_image))
    return jet__egl_error(egl->api, __func__, "eglDestroyImageKHR", NULL, NULL);
  return JET_STATUS_OK;
}

static unsigned register_flags(unsigned f) {
  if (f & JET_EGL_READ_ONLY) return cudaGraphicsRegisterFlagsReadOnly;
  if (f & JET_EGL_WRITE_DISCARD) return cudaGraphicsRegisterFlagsWriteDiscard;
  return cudaGraphicsRegisterFlagsNone;
}

/* Ends the registration; the handle is gone whatever CUDA says. */
static cudaError_t image_free(struct jet_egl_image_s *img) {
  (void)jet__ctx_activate(img->h.ctx, "jet_egl_image_unregister");
  cudaError_t e = cudaSuccess;
  jet__frame_images_clear(&img->images);
  if (img->mapped) e = cudaGraphicsUnmapResources(1, &img->cu, 0);
  cudaError_t e2 = cudaGraphicsUnregisterResource(img->cu);
  if (e == cudaSuccess) e = e2;
  jet__egl_disown(img->egl, &img->h);
  free(img);
  return e;
}

static void image_release(jet__ctx_resource *r) {
  if (image_free((struct jet_egl_image_s *)((char *)r - offsetof(struct jet_egl_image_s, res))) !=
      cudaSuccess)
    (void)cudaGetLastError();
}

jet_status jet_egl_image_register(jet_egl egl, void *egl_image, unsigned flags,
                                  jet_egl_image *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(egl_image, "egl_image is NULL");
  JET__ARG(!(flags & ~IMAGE_FLAGS), "unknown flags 0x%x", flags & ~IMAGE_FLAGS);
  JET__ARG(flags != IMAGE_FLAGS, "JET_EGL_READ_ONLY and JET_EGL_WRITE_DISCARD exclude each other");
  JET__TRY(jet__ctx_activate(egl->h.ctx, __func__));
  struct jet_egl_image_s *img = calloc(1, sizeof *img);
  if (!img) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory");
  cudaError_t e = cudaGraphicsEGLRegisterImage(&img->cu, (EGLImageKHR)egl_image,
                                               register_flags(flags));
  if (e != cudaSuccess) {
    free(img);
    return jet__cuda_error(e, __func__, "cudaGraphicsEGLRegisterImage",
                           "the EGLImage must be alive and of this display", NULL);
  }
  img->egl = egl;
  img->image = egl_image;
  img->flags = flags;
  jet_status st = jet__egl_adopt(egl, &img->h, JET__H_EGL_IMAGE, &img->res,
                                 "EGLImage registration", image_release, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphicsUnregisterResource(img->cu);
    free(img);
    return st;
  }
  *out = img;
  return JET_STATUS_OK;
}

jet_status jet_egl_image_unregister(jet_egl_image img) {
  if (!img) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(img, JET__H_EGL_IMAGE, __func__, "img"));
  jet__ctx_resource_remove(img->h.ctx, &img->res);
  cudaError_t e = image_free(img);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphicsUnregisterResource", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_egl_image_map(jet_egl_image img, jet_stream stream, jet_egl_frame *frame) {
  JET__TRY(jet__handle_check(img, JET__H_EGL_IMAGE, __func__, "img"));
  JET__ARG(frame, "frame is NULL");
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, img->h.ctx, &cu, __func__));
  if (img->mapped)
    return jet__error(JET_STATUS_INVALID_STATE, __func__, "the image is already mapped");
  struct jet_context_s *ctx = img->h.ctx;
  cudaError_t e = cudaGraphicsMapResources(1, &img->cu, cu);
  if (e != cudaSuccess && !ctx->info.integrated) {
    (void)cudaGetLastError();
    return jet__error_native(
          JET_STATUS_UNSUPPORTED, __func__, "cudaGraphicsMapResources", cudaGetErrorName(e), (int)e,
          "the NVIDIA desktop driver registers EGLImages but does not map them; EGLImage interop "
          "maps on Jetson (integrated GPU). On a discrete GPU share frames through jetrt/gl.h "
          "(GL textures and buffers) or an EGLStream",
          "device %d (%s) is a discrete GPU: mapping a registered EGLImage failed (%s)",
          ctx->device, ctx->info.name, cudaGetErrorString(e));
  }
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaGraphicsMapResources", NULL, NULL);
  img->mapped = 1;
  cudaEglFrame f;
  memset(&f, 0, sizeof f);
  e = cudaGraphicsResourceGetMappedEglFrame(&f, img->cu, 0, 0);
  jet_status st = e == cudaSuccess ? JET_STATUS_OK
                                   : jet__cuda_error(e, __func__,
                                                     "cudaGraphicsResourceGetMappedEglFrame", NULL,
                                                     NULL);
  if (st == JET_STATUS_OK)
    st = jet__egl_frame_from_cuda(ctx, &f, img->cu, &img->images, &img->image_slot, frame,
                                  __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphicsUnmapResources(1, &img->cu, cu);
    img->mapped = 0;
  }
  return st;
}

jet_status jet_egl_image_unmap(jet_egl_image img, jet_stream stream) {
  JET__TRY(jet__handle_check(img, JET__H_EGL_IMAGE, __func__, "img"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, img->h.ctx, &cu, __func__));
  if (!img->mapped) return jet__error(JET_STATUS_INVALID_STATE, __func__, "the image is not mapped");
  if (img->image_slot >= 0) img->images.held[img->image_slot] = 0;
  img->mapped = 0;
  JET__CUDA(cudaGraphicsUnmapResources, (1, &img->cu, cu));
  return JET_STATUS_OK;
}

#endif /* JET_HAVE_EGL */
