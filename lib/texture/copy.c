/*
 * Copies between arrays and host memory, buffers, image planes and arrays
 * (cudaMemcpy3D). Linear ends fold their offsets into the pointer, so CUDA
 * positions are used for array ends only.
 */
#include <string.h>

#include "texture_internal.h"
#include "../memory/memory_internal.h"
#include "../image/image_internal.h"

typedef struct end_res {
  struct jet_array_s *array; /* array end */
  struct cudaPitchedPtr ptr; /* linear end */
  struct jet_context_s *ctx; /* owning context; NULL for host memory */
} end_res;

static jet_status add3(size_t a, size_t b, size_t *out, const char *fn, const char *which,
                       const char *axis) {
  if (!jet__add_ok(a, b, out))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s end: %s offset %zu + extent %zu overflows",
                      which, axis, a, b);
  return JET_STATUS_OK;
}

/* Pitch and rows of a linear end, and the bytes its box spans from its start. */
static jet_status linear_span(const jet_copy_end *e, const char *which, size_t row_bytes,
                              size_t h, size_t d, size_t *pitch, size_t *rows, size_t *span,
                              const char *fn) {
  size_t p = e->pitch ? e->pitch : row_bytes, r = e->rows ? e->rows : h;
  if (p < row_bytes)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s end: pitch %zu is below the copy's row bytes %zu", which, p, row_bytes);
  if (r < h)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s end: rows per slice %zu is below the copy's height %zu", which, r, h);
  size_t t, s;
  if (!jet__mul_ok(r, d - 1, &t) || !jet__add_ok(t, h - 1, &t) || !jet__mul_ok(t, p, &s) ||
      !jet__add_ok(s, row_bytes, &s))
    return jet__error(JET_STATUS_OVERFLOW, fn,
                      "%s end: pitch %zu x (rows %zu x %zu slices) overflows", which, p, r, d);
  *pitch = p;
  *rows = r;
  *span = s;
  return JET_STATUS_OK;
}

static jet_status check_array_end(const jet_copy_end *e, const char *which, size_t w, size_t h,
                                  size_t d, const char *fn) {
  struct jet_array_s *a = e->array;
  if (e->level >= a->desc.levels)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s end: level %u of an array with %u level(s)", which, e->level,
                      a->desc.levels);
  size_t lw, lh, ld, ex, ey, ez;
  jet__array_level_extent(&a->desc, e->level, &lw, &lh, &ld);
  JET__TRY(add3(e->x, w, &ex, fn, which, "x"));
  JET__TRY(add3(e->y, h, &ey, fn, which, "y"));
  JET__TRY(add3(e->z, d, &ez, fn, which, "z"));
  if (ex > lw || ey > lh || ez > ld)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s end: box (%zu, %zu, %zu) + %zu x %zu x %zu exceeds level %u of the "
                      "array, %zu x %zu x %zu (%s)",
                      which, e->x, e->y, e->z, w, h, d, e->level, lw, lh, ld,
                      ex > lw ? "x" : (ey > lh ? "y" : "z/layer"));
  return JET_STATUS_OK;
}

static jet_status resolve(const jet_copy_end *e, const char *which, size_t texel, size_t w,
                          size_t h, size_t d, end_res *r, const char *fn) {
  memset(r, 0, sizeof *r);
  size_t row_bytes = w * texel; /* bounded: w fits an array level, checked first */
  switch (e->kind) {
    case JET_COPY_END_ARRAY:
      r->array = e->array;
      r->ctx = e->array->h.ctx;
      return check_array_end(e, which, w, h, d, fn);
    case JET_COPY_END_HOST: {
      if (!e->host)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s end: host is NULL", which);
      size_t p, rows, span, end;
      JET__TRY(linear_span(e, which, row_bytes, h, d, &p, &rows, &span, fn));
      if (!jet__add_ok((size_t)(uintptr_t)e->host, span, &end))
        return jet__error(JET_STATUS_OVERFLOW, fn, "%s end: %p + %zu bytes wraps the address space",
                          which, e->host, span);
      r->ptr = jet__pitched(e->host, p, row_bytes, rows);
      return JET_STATUS_OK;
    }
    case JET_COPY_END_BUFFER: {
      JET__TRY(jet__handle_check(e->buffer, JET__H_BUFFER, fn, "buffer"));
      const struct jet_buffer_s *b = e->buffer;
      size_t p, rows, span, end;
      JET__TRY(linear_span(e, which, row_bytes, h, d, &p, &rows, &span, fn));
      if (!jet__add_ok(e->offset, span, &end) || end > b->size)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s end: bytes [%zu, %zu + %zu) exceed the buffer's %zu bytes", which,
                          e->offset, e->offset, span, b->size);
      char *base = b->dev ? (char *)b->dev : (char *)b->host;
      r->ptr = jet__pitched(base + e->offset, p, row_bytes, rows);
      r->ctx = b->h.ctx;
      return JET_STATUS_OK;
    }
    case JET_COPY_END_IMAGE: {
      JET__TRY(jet__handle_check(e->image, JET__H_IMAGE, fn, "image"));
      const struct jet_image_s *im = e->image;
      if (e->plane < 0 || e->plane >= im->layout.planes)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s end: plane %d of an image with %d",
                          which, e->plane, im->layout.planes);
      const jet__plane_layout *pl = &im->layout.plane[e->plane];
      size_t px = pl->row_bytes / (size_t)pl->width;
      if (px != texel)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s end: plane %d of a %s image has %zu-byte pixels, the array %zu-byte "
                          "texels",
                          which, e->plane, jet_format_name(im->layout.format), px, texel);
      if (e->z != 0 || d != 1)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s end: an image plane has one slice (z %zu, depth %zu)", which, e->z,
                          d);
      size_t ex, ey;
      JET__TRY(add3(e->x, w, &ex, fn, which, "x"));
      JET__TRY(add3(e->y, h, &ey, fn, which, "y"));
      if (ex > (size_t)pl->width || ey > (size_t)pl->height)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s end: box (%zu, %zu) + %zu x %zu exceeds plane %d, %d x %d", which,
                          e->x, e->y, w, h, e->plane, pl->width, pl->height);
      char *p0 = (char *)im->plane[e->plane] + e->y * pl->pitch + e->x * texel;
      r->ptr = jet__pitched(p0, pl->pitch, row_bytes, h);
      r->ctx = im->h.ctx;
      return JET_STATUS_OK;
    }
  }
  return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s end: unknown kind %d", which,
                    (int)e->kind);
}

static jet_status do_copy(const jet_copy_end *dst, const jet_copy_end *src, size_t w, size_t h,
                          size_t d, jet_stream stream, int async, const char *fn) {
  JET__ARG(dst, "dst is NULL");
  JET__ARG(src, "src is NULL");
  JET__ARG(w > 0, "width is 0");
  if (h == 0) h = 1;
  if (d == 0) d = 1;
  const jet_copy_end *ends[2] = {dst, src};
  static const char *const names[2] = {"dst", "src"};
  for (int i = 0; i < 2; i++)
    JET__ARG(ends[i]->kind >= JET_COPY_END_HOST && ends[i]->kind <= JET_COPY_END_ARRAY,
             "%s end: unknown kind %d", names[i], (int)ends[i]->kind);
  JET__ARG(dst->kind == JET_COPY_END_ARRAY || src->kind == JET_COPY_END_ARRAY,
           "neither end is an array (copy linear memory with jet_memcpy_2d/3d)");
  size_t texel = 0;
  for (int i = 0; i < 2; i++) {
    if (ends[i]->kind != JET_COPY_END_ARRAY) continue;
    JET__TRY(jet__handle_check(ends[i]->array, JET__H_ARRAY, fn, names[i]));
    size_t t = ends[i]->array->texel;
    if (texel && t != texel)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "dst array has %zu-byte texels, src array %zu-byte ones", texel, t);
    texel = t;
  }
  end_res r[2];
  /* Array ends first: their level bounds keep width * texel from overflowing. */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < 2; i++)
      if ((ends[i]->kind == JET_COPY_END_ARRAY) == (pass == 0))
        JET__TRY(resolve(ends[i], names[i], texel, w, h, d, &r[i], fn));
  struct jet_context_s *ctx = r[0].ctx ? r[0].ctx : r[1].ctx;
  if (r[0].ctx && r[1].ctx && r[0].ctx != r[1].ctx)
    return jet__error(JET_STATUS_WRONG_CONTEXT, fn, "dst and src belong to different contexts");

  if (!ctx->info.unified_addressing)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d lacks unified addressing, which copies with cudaMemcpyDefault "
                      "need",
                      ctx->device);
  /* As jet_memcpy: the synchronous copy is queued on the legacy default stream
   * and waited for, since cudaMemcpy3D returns early for device-side copies. */
  cudaStream_t cs = cudaStreamLegacy;
  if (async)
    JET__TRY(jet__stream_enter(stream, ctx, &cs, fn));
  else
    JET__TRY(jet__ctx_activate(ctx, fn));

  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  if (r[1].array) {
    JET__TRY(jet__array_level(r[1].array, src->level, &p.srcArray, fn));
    p.srcPos.x = src->x;
    p.srcPos.y = src->y;
    p.srcPos.z = src->z;
  } else {
    p.srcPtr = r[1].ptr;
  }
  if (r[0].array) {
    JET__TRY(jet__array_level(r[0].array, dst->level, &p.dstArray, fn));
    p.dstPos.x = dst->x;
    p.dstPos.y = dst->y;
    p.dstPos.z = dst->z;
  } else {
    p.dstPtr = r[0].ptr;
  }
  p.extent = jet__extent(w, h, d);
  p.kind = cudaMemcpyDefault;
  cudaError_t e = cudaMemcpy3DAsync(&p, cs);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaMemcpy3DAsync", NULL, "%zu x %zu x %zu texels of %zu bytes",
                           w, h, d, texel);
  if (!async && (e = cudaStreamSynchronize(cs)) != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet_array_copy(const jet_copy_end *dst, const jet_copy_end *src, size_t width,
                          size_t height, size_t depth) {
  return do_copy(dst, src, width, height, depth, NULL, 0, __func__);
}

jet_status jet_array_copy_async(const jet_copy_end *dst, const jet_copy_end *src, size_t width,
                                size_t height, size_t depth, jet_stream stream) {
  return do_copy(dst, src, width, height, depth, stream, 1, __func__);
}

static jet_status whole_level(jet_array arr, unsigned level, void *host, int upload,
                              const char *fn) {
  JET__TRY(jet__handle_check(arr, JET__H_ARRAY, fn, "arr"));
  JET__ARG(host, "host is NULL");
  JET__ARG(level < arr->desc.levels, "level %u of an array with %u level(s)", level,
           arr->desc.levels);
  size_t w, h, d;
  jet__array_level_extent(&arr->desc, level, &w, &h, &d);
  jet_copy_end a = {0}, m = {0};
  a.kind = JET_COPY_END_ARRAY;
  a.array = arr;
  a.level = level;
  m.kind = JET_COPY_END_HOST;
  m.host = host;
  return upload ? do_copy(&a, &m, w, h, d, NULL, 0, fn) : do_copy(&m, &a, w, h, d, NULL, 0, fn);
}

jet_status jet_array_upload(jet_array arr, unsigned level, const void *host) {
  return whole_level(arr, level, (void *)(uintptr_t)host, 1, __func__);
}

jet_status jet_array_download(jet_array arr, unsigned level, void *host) {
  return whole_level(arr, level, host, 0, __func__);
}
