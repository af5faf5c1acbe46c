/*
 * OpenGL interop: GL buffers, textures and renderbuffers registered with CUDA,
 * mapped on a stream; buffers handed out as borrowed jet_buffer / jet_image,
 * textures copied through their CUDA arrays. No GL call is made here: CUDA
 * talks to the GL driver, which needs the owning GL context current.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_internal.h"
#include "../image/image_internal.h"
#include "../memory/memory_internal.h"

#if JET_HAVE_GL

#include <cuda_gl_interop.h>

struct jet_gl_resource_s {
  jet__handle h;
  jet__ctx_resource res;
  cudaGraphicsResource_t cu;
  unsigned name, target, flags;
  int is_buffer;
  int mapped;
  void *ptr; /* mapped buffers */
  size_t bytes;
  /* Borrowed handles of the current mapping; the lock makes the "safe from any
   * thread" queries safe against each other. */
  pthread_mutex_t lock;
  jet_buffer buf;
  jet_image *images;
  int nimages, cap;
};

#define GL_FLAGS (JET_GL_READ_ONLY | JET_GL_WRITE_DISCARD | JET_GL_SURFACE_LOAD_STORE)
#define LENDER "a mapped GL buffer (jet_gl_unmap releases it)"

jet_status jet__gl_cuda_error(cudaError_t e, const char *fn, const char *call, const char *what) {
  if (e == cudaErrorInvalidGraphicsContext) {
    (void)cudaGetLastError();
    return jet__error_native(
        JET_STATUS_INVALID_STATE, fn, call, cudaGetErrorName(e), (int)e,
        "make the GL context that owns the object current on this thread first (eglMakeCurrent, "
        "or jet_presenter_make_current), on the CUDA device's EGL display",
        "%s: no current GL context on this thread, or it is not on the context's GPU", what);
  }
  return jet__cuda_error(e, fn, call, NULL, "%s: %s", what, cudaGetErrorString(e));
}

static unsigned register_flags(unsigned f) {
  if (f & JET_GL_READ_ONLY) return cudaGraphicsRegisterFlagsReadOnly;
  if (f & JET_GL_WRITE_DISCARD) return cudaGraphicsRegisterFlagsWriteDiscard;
  if (f & JET_GL_SURFACE_LOAD_STORE) return cudaGraphicsRegisterFlagsSurfaceLoadStore;
  return cudaGraphicsRegisterFlagsNone;
}

/* Give back what the mapping handed out. */
static void release_borrowed(struct jet_gl_resource_s *r) {
  pthread_mutex_lock(&r->lock);
  jet__buffer_release_borrowed(r->buf);
  r->buf = NULL;
  for (int i = 0; i < r->nimages; i++) jet__image_release_borrowed(r->images[i]);
  free(r->images);
  r->images = NULL;
  r->nimages = r->cap = 0;
  pthread_mutex_unlock(&r->lock);
}

/* Ends the registration; the handle is gone whatever CUDA says. */
static cudaError_t resource_free(struct jet_gl_resource_s *r, const char **call) {
  (void)jet__ctx_activate(r->h.ctx, "jet_gl_unregister");
  release_borrowed(r);
  cudaError_t e = cudaSuccess;
  *call = "cudaGraphicsUnregisterResource";
  if (r->cu) { /* NULL: adopted by a host test, nothing registered */
    if (r->mapped) {
      e = cudaGraphicsUnmapResources(1, &r->cu, 0);
      if (e != cudaSuccess) *call = "cudaGraphicsUnmapResources";
    }
    cudaError_t e2 = cudaGraphicsUnregisterResource(r->cu);
    if (e == cudaSuccess) {
      e = e2;
      *call = "cudaGraphicsUnregisterResource";
    }
  }
  pthread_mutex_destroy(&r->lock);
  jet__handle_unregister(&r->h);
  free(r);
  return e;
}

static void resource_release(jet__ctx_resource *node) {
  const char *call;
  if (resource_free((struct jet_gl_resource_s *)((char *)node -
                                                 offsetof(struct jet_gl_resource_s, res)),
                    &call) != cudaSuccess)
    (void)cudaGetLastError();
}

jet_status jet__gl_resource_adopt(struct jet_context_s *ctx, cudaGraphicsResource_t cu,
                                  unsigned name, unsigned target, int is_buffer, unsigned flags,
                                  jet_gl_resource *out, const char *fn) {
  /* The registration already carries the hint; the map flags repeat it so that
   * every mapping is told too (they are what the driver consults per map). */
  unsigned mf = (flags & JET_GL_READ_ONLY)        ? cudaGraphicsMapFlagsReadOnly
                : (flags & JET_GL_WRITE_DISCARD) ? cudaGraphicsMapFlagsWriteDiscard
                                                  : cudaGraphicsMapFlagsNone;
  if (cu && mf != cudaGraphicsMapFlagsNone) {
    cudaError_t e = cudaGraphicsResourceSetMapFlags(cu, mf);
    if (e != cudaSuccess) {
      jet_status st = jet__gl_cuda_error(e, fn, "cudaGraphicsResourceSetMapFlags", "map hint");
      (void)cudaGraphicsUnregisterResource(cu);
      return st;
    }
  }
  struct jet_gl_resource_s *r = calloc(1, sizeof *r);
  if (!r) {
    (void)cudaGraphicsUnregisterResource(cu);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a jet_gl_resource");
  }
  r->cu = cu;
  r->name = name;
  r->target = target;
  r->is_buffer = is_buffer;
  r->flags = flags;
  if (pthread_mutex_init(&r->lock, NULL) != 0) {
    (void)cudaGraphicsUnregisterResource(cu);
    free(r);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "pthread_mutex_init failed");
  }
  jet_status st = jet__handle_register(&r->h, JET__H_GL_RESOURCE, ctx, fn);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphicsUnregisterResource(cu);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return st;
  }
  jet__ctx_resource_add(ctx, &r->res, is_buffer ? "GL buffer" : "GL texture", resource_release);
  *out = r;
  return JET_STATUS_OK;
}

jet_status jet_gl_register_buffer(jet_context ctx, unsigned buffer, unsigned flags,
                                  jet_gl_resource *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(buffer != 0, "buffer is 0 (not a GL buffer name)");
  JET__ARG(!(flags & ~GL_FLAGS), "unknown flags 0x%x", flags & ~GL_FLAGS);
  JET__ARG(!(flags & JET_GL_SURFACE_LOAD_STORE),
           "JET_GL_SURFACE_LOAD_STORE is for textures and renderbuffers, not buffers");
  JET__ARG((flags & (flags - 1)) == 0, "flags 0x%x: at most one JET_GL_* flag", flags);
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaGraphicsResource_t cu = NULL;
  cudaError_t e = cudaGraphicsGLRegisterBuffer(&cu, buffer, register_flags(flags));
  if (e != cudaSuccess) {
    char what[64];
    snprintf(what, sizeof what, "GL buffer %u", buffer);
    return jet__gl_cuda_error(e, __func__, "cudaGraphicsGLRegisterBuffer", what);
  }
  return jet__gl_resource_adopt(ctx, cu, buffer, 0, 1, flags, out, __func__);
}

static const char *target_name(unsigned t) {
  switch (t) {
    case GL_TEXTURE_2D: return "GL_TEXTURE_2D";
    case GL_TEXTURE_RECTANGLE: return "GL_TEXTURE_RECTANGLE";
    case GL_TEXTURE_CUBE_MAP: return "GL_TEXTURE_CUBE_MAP";
    case GL_TEXTURE_3D: return "GL_TEXTURE_3D";
    case GL_TEXTURE_2D_ARRAY: return "GL_TEXTURE_2D_ARRAY";
    case GL_RENDERBUFFER: return "GL_RENDERBUFFER";
    default: return NULL;
  }
}

jet_status jet_gl_register_image(jet_context ctx, unsigned name, unsigned target, unsigned flags,
                                 jet_gl_resource *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(name != 0, "name is 0 (not a GL texture or renderbuffer name)");
  const char *tn = target_name(target);
  JET__ARG(tn, "target 0x%x: not GL_TEXTURE_2D, GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP, "
           "GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY or GL_RENDERBUFFER", target);
  JET__ARG(!(flags & ~GL_FLAGS), "unknown flags 0x%x", flags & ~GL_FLAGS);
  JET__ARG((flags & (flags - 1)) == 0, "flags 0x%x: at most one JET_GL_* flag", flags);
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaGraphicsResource_t cu = NULL;
  cudaError_t e = cudaGraphicsGLRegisterImage(&cu, name, target, register_flags(flags));
  if (e != cudaSuccess) {
    char what[96];
    snprintf(what, sizeof what, "GL %s %u (%s)", target == GL_RENDERBUFFER ? "renderbuffer" : "texture",
             name, tn);
    return jet__gl_cuda_error(e, __func__, "cudaGraphicsGLRegisterImage", what);
  }
  return jet__gl_resource_adopt(ctx, cu, name, target, 0, flags, out, __func__);
}

void jet__gl_resource_set_mapped(jet_gl_resource r, void *ptr, size_t bytes, int mapped) {
  if (!mapped) release_borrowed(r);
  r->mapped = mapped;
  r->ptr = mapped ? ptr : NULL;
  r->bytes = mapped ? bytes : 0;
}

jet_status jet_gl_unregister(jet_gl_resource r) {
  if (!r) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  jet__ctx_resource_remove(r->h.ctx, &r->res);
  const char *call;
  cudaError_t e = resource_free(r, &call);
  if (e != cudaSuccess)
    return jet__gl_cuda_error(e, __func__, call, "unregistering (the handle was released anyway)");
  return JET_STATUS_OK;
}

jet_status jet_gl_get_info(jet_gl_resource r, jet_gl_info *info) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  JET__ARG(info, "info is NULL");
  memset(info, 0, sizeof *info);
  info->name = r->name;
  info->target = r->target;
  info->is_buffer = r->is_buffer;
  info->flags = r->flags;
  info->mapped = r->mapped;
  info->bytes = r->mapped && r->is_buffer ? r->bytes : 0;
  return JET_STATUS_OK;
}

jet_status jet_gl_map(jet_gl_resource r, jet_stream stream) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  JET__TRY(jet__handle_check_in(stream, JET__H_STREAM, r->h.ctx, __func__, "stream"));
  if (r->mapped)
    return jet__error(JET_STATUS_INVALID_STATE, __func__, "GL %s %u is already mapped",
                      r->is_buffer ? "buffer" : "texture", r->name);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, r->h.ctx, &cu, __func__));
  cudaError_t e = cudaGraphicsMapResources(1, &r->cu, cu);
  if (e != cudaSuccess) return jet__gl_cuda_error(e, __func__, "cudaGraphicsMapResources", "map");
  if (r->is_buffer) {
    void *p = NULL;
    size_t n = 0;
    e = cudaGraphicsResourceGetMappedPointer(&p, &n, r->cu);
    if (e != cudaSuccess) {
      jet_status st =
          jet__gl_cuda_error(e, __func__, "cudaGraphicsResourceGetMappedPointer", "mapped buffer");
      if (cudaGraphicsUnmapResources(1, &r->cu, cu) != cudaSuccess) (void)cudaGetLastError();
      return st;
    }
    r->ptr = p;
    r->bytes = n;
  }
  r->mapped = 1;
  return JET_STATUS_OK;
}

jet_status jet_gl_unmap(jet_gl_resource r, jet_stream stream) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  JET__TRY(jet__handle_check_in(stream, JET__H_STREAM, r->h.ctx, __func__, "stream"));
  if (!r->mapped)
    return jet__error(JET_STATUS_INVALID_STATE, __func__, "GL %s %u is not mapped",
                      r->is_buffer ? "buffer" : "texture", r->name);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, r->h.ctx, &cu, __func__));
  cudaError_t e = cudaGraphicsUnmapResources(1, &r->cu, cu);
  /* Without a current GL context nothing happened: the mapping stays, so the
   * caller can make the context current and unmap again. */
  if (e == cudaErrorInvalidGraphicsContext)
    return jet__gl_cuda_error(e, __func__, "cudaGraphicsUnmapResources", "unmap");
  release_borrowed(r);
  r->mapped = 0;
  r->ptr = NULL;
  r->bytes = 0;
  if (e != cudaSuccess)
    return jet__gl_cuda_error(e, __func__, "cudaGraphicsUnmapResources",
                              "unmap (the mapping is given up anyway)");
  return JET_STATUS_OK;
}

/* A mapped buffer, or the status saying why not. */
static jet_status need_mapped_buffer(jet_gl_resource r, const char *fn) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, fn, "r"));
  if (!r->is_buffer)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "GL texture %u is not a buffer: use jet_gl_mapped_array or jet_gl_copy_*",
                      r->name);
  if (!r->mapped)
    return jet__error(JET_STATUS_INVALID_STATE, fn, "GL buffer %u is not mapped (jet_gl_map)",
                      r->name);
  return JET_STATUS_OK;
}

jet_status jet_gl_mapped_pointer(jet_gl_resource r, void **ptr, size_t *bytes) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  JET__ARG(ptr || bytes, "ptr and bytes are both NULL");
  JET__TRY(need_mapped_buffer(r, __func__));
  if (ptr) *ptr = r->ptr;
  if (bytes) *bytes = r->bytes;
  return JET_STATUS_OK;
}

jet_status jet_gl_mapped_buffer(jet_gl_resource r, jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(need_mapped_buffer(r, __func__));
  jet_status st = JET_STATUS_OK;
  pthread_mutex_lock(&r->lock);
  if (!r->buf) st = jet__buffer_borrow(r->h.ctx, r->ptr, r->bytes, LENDER, &r->buf, __func__);
  *out = r->buf;
  pthread_mutex_unlock(&r->lock);
  return st;
}

jet_status jet_gl_mapped_image(jet_gl_resource r, jet_format format, int width, int height,
                               const size_t *pitches, const size_t *offsets, jet_image *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  jet__image_layout l;
  JET__TRY(jet__image_layout_compute(format, width, height, pitches, 1, &l, __func__));
  JET__TRY(need_mapped_buffer(r, __func__));
  size_t pitch[JET_IMAGE_MAX_PLANES] = {0, 0, 0};
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  size_t next = 0;
  for (int i = 0; i < l.planes; i++) {
    const jet__plane_layout *pl = &l.plane[i];
    size_t off = offsets ? offsets[i] : next, end, full;
    pitch[i] = pl->pitch;
    if (!jet__add_ok(off, pl->extent, &end) || end > r->bytes)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "plane %d of the %dx%d %s image (offset %zu, %zu bytes) lies past the end "
                        "of the mapped GL buffer (%zu bytes)",
                        i, width, height, jet_format_name(format), off, pl->extent, r->bytes);
    ptrs[i] = (char *)r->ptr + off;
    if (!jet__mul_ok(pl->pitch, (size_t)pl->height, &full) || !jet__add_ok(off, full, &next))
      next = SIZE_MAX;
  }
  jet_image img = NULL;
  pthread_mutex_lock(&r->lock);
  jet_status st = JET_STATUS_OK;
  if (r->nimages == r->cap) {
    int ncap = r->cap ? r->cap * 2 : 4;
    jet_image *n = realloc(r->images, (size_t)ncap * sizeof *n);
    if (!n)
      st = jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for the image list");
    else {
      r->images = n;
      r->cap = ncap;
    }
  }
  if (st == JET_STATUS_OK)
    st = jet__image_borrow(r->h.ctx, format, width, height, pitch, ptrs, LENDER, &img,
                           __func__);
  if (st == JET_STATUS_OK) r->images[r->nimages++] = img;
  pthread_mutex_unlock(&r->lock);
  if (st == JET_STATUS_OK) *out = img;
  return st;
}

static jet_status need_mapped_texture(jet_gl_resource r, const char *fn) {
  if (r->is_buffer)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "GL buffer %u has no CUDA array: use jet_gl_mapped_pointer / "
                      "jet_gl_mapped_buffer / jet_gl_mapped_image",
                      r->name);
  if (!r->mapped)
    return jet__error(JET_STATUS_INVALID_STATE, fn, "GL texture %u is not mapped (jet_gl_map)",
                      r->name);
  return JET_STATUS_OK;
}

/* A mapped texture's array (layer, level), or the status saying why not. */
static jet_status texture_array(jet_gl_resource r, unsigned layer, unsigned level,
                                cudaArray_t *out, const char *fn) {
  JET__TRY(need_mapped_texture(r, fn));
  JET__TRY(jet__ctx_activate(r->h.ctx, fn));
  cudaError_t e = cudaGraphicsSubResourceGetMappedArray(out, r->cu, layer, level);
  if (e != cudaSuccess) {
    char what[96];
    snprintf(what, sizeof what, "GL texture %u, layer %u, level %u", r->name, layer, level);
    return jet__gl_cuda_error(e, fn, "cudaGraphicsSubResourceGetMappedArray", what);
  }
  return JET_STATUS_OK;
}

jet_status jet_gl_mapped_array(jet_gl_resource r, unsigned layer, unsigned level, void **array) {
  if (array) *array = NULL;
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  JET__ARG(array, "array is NULL");
  cudaArray_t a = NULL;
  JET__TRY(texture_array(r, layer, level, &a, __func__));
  *array = a;
  return JET_STATUS_OK;
}

/* Checks shared by both copy directions; on success *@arr, the image's row
 * bytes and height are what the copy needs. */
static jet_status copy_prepare(jet_gl_resource r, jet_image img, jet_stream stream,
                               cudaStream_t *cu, cudaArray_t *arr, size_t *row_bytes,
                               const char *what, const char *fn) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, fn, "r"));
  JET__TRY(jet__handle_check_in(img, JET__H_IMAGE, r->h.ctx, fn, what));
  JET__TRY(jet__handle_check_in(stream, JET__H_STREAM, r->h.ctx, fn, "stream"));
  const jet__image_layout *l = &img->layout;
  if (l->planes != 1)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s is %s with %d planes; a GL texture copy takes a one-plane image", what,
                      jet_format_name(l->format), l->planes);
  JET__TRY(need_mapped_texture(r, fn));
  JET__TRY(jet__stream_enter(stream, r->h.ctx, cu, fn));
  JET__TRY(texture_array(r, 0, 0, arr, fn));
  struct cudaChannelFormatDesc d;
  struct cudaExtent ext;
  unsigned aflags = 0;
  memset(&d, 0, sizeof d);
  memset(&ext, 0, sizeof ext);
  cudaError_t e = cudaArrayGetInfo(&d, &ext, &aflags, *arr);
  if (e != cudaSuccess) return jet__gl_cuda_error(e, fn, "cudaArrayGetInfo", "the texture's array");
  int bits = d.x + d.y + d.z + d.w;
  size_t texel = (size_t)bits / 8;
  size_t h = ext.height ? ext.height : 1;
  if (ext.depth > 1 || (aflags & cudaArrayLayered))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "GL texture %u is layered or 3D (depth %zu): copy its slices through "
                      "jet_gl_mapped_array",
                      r->name, ext.depth);
  if (ext.width != (size_t)l->width || h != (size_t)l->height)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "size mismatch: GL texture %u is %zux%zu, %s is %dx%d", r->name, ext.width, h,
                      what, l->width, l->height);
  if (texel != l->plane[0].row_bytes / (size_t)l->width || bits % 8)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "texel size mismatch: GL texture %u has %d-bit texels, %s (%s) %zu-byte "
                      "pixels",
                      r->name, bits, what, jet_format_name(l->format),
                      l->plane[0].row_bytes / (size_t)l->width);
  *row_bytes = l->plane[0].row_bytes;
  return JET_STATUS_OK;
}

jet_status jet_gl_copy_to_image(jet_gl_resource r, jet_image dst, jet_stream stream) {
  cudaStream_t cu;
  cudaArray_t arr;
  size_t row = 0;
  JET__TRY(copy_prepare(r, dst, stream, &cu, &arr, &row, "dst", __func__));
  cudaError_t e = cudaMemcpy2DFromArrayAsync(dst->plane[0], dst->layout.plane[0].pitch, arr, 0, 0,
                                             row, (size_t)dst->layout.height,
                                             cudaMemcpyDeviceToDevice, cu);
  if (e != cudaSuccess)
    return jet__gl_cuda_error(e, __func__, "cudaMemcpy2DFromArrayAsync", "texture to image");
  return JET_STATUS_OK;
}

jet_status jet_gl_copy_from_image(jet_gl_resource r, jet_image src, jet_stream stream) {
  JET__TRY(jet__handle_check(r, JET__H_GL_RESOURCE, __func__, "r"));
  if (r->flags & JET_GL_READ_ONLY)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "GL texture %u was registered JET_GL_READ_ONLY: CUDA may not write it",
                      r->name);
  cudaStream_t cu;
  cudaArray_t arr;
  size_t row = 0;
  JET__TRY(copy_prepare(r, src, stream, &cu, &arr, &row, "src", __func__));
  cudaError_t e = cudaMemcpy2DToArrayAsync(arr, 0, 0, src->plane[0], src->layout.plane[0].pitch,
                                           row, (size_t)src->layout.height,
                                           cudaMemcpyDeviceToDevice, cu);
  if (e != cudaSuccess)
    return jet__gl_cuda_error(e, __func__, "cudaMemcpy2DToArrayAsync", "image to texture");
  return JET_STATUS_OK;
}

#endif /* JET_HAVE_GL */
