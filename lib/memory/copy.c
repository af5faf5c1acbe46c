/*
 * Copies and fills, 1D/2D/3D, synchronous and stream-ordered.
 *
 * Both flavours share one path: the synchronous call queues the same operation
 * on CUDA's legacy default stream and waits for it, so "synchronous" means the
 * data is in place on return (plain cudaMemcpy returns early for device to
 * device copies, cudaMemset for device memory).
 */
#include <string.h>

#include "memory_internal.h"

typedef struct where {
  cudaStream_t cu;
  int sync;
  struct jet_context_s *ctx;
} where;

extern const jet_kernel_image_set jet__images_copy2d;

static jet_status need_uva(const struct jet_context_s *ctx, const char *fn) {
  if (ctx->info.unified_addressing) return JET_STATUS_OK;
  return jet__error(JET_STATUS_UNSUPPORTED, fn,
                    "device %d lacks unified addressing, which copies with cudaMemcpyDefault need",
                    ctx->device);
}

static jet_status from_ctx(jet_context ctx, where *w, const char *fn) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, fn, "ctx"));
  JET__TRY(need_uva(ctx, fn));
  JET__TRY(jet__ctx_activate(ctx, fn));
  w->cu = cudaStreamLegacy;
  w->sync = 1;
  w->ctx = ctx;
  return JET_STATUS_OK;
}

static jet_status from_stream(jet_stream s, where *w, const char *fn) {
  JET__TRY(jet__handle_check(s, JET__H_STREAM, fn, "stream"));
  JET__TRY(need_uva(s->h.ctx, fn));
  JET__TRY(jet__stream_enter(s, NULL, &w->cu, fn));
  w->sync = 0;
  w->ctx = s->h.ctx;
  return JET_STATUS_OK;
}

static jet_status finish(cudaError_t e, const char *call, const where *w, const char *fn) {
  if (e != cudaSuccess) return jet__cuda_error(e, fn, call, NULL, NULL);
  if (w->sync) {
    e = cudaStreamSynchronize(w->cu);
    if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, NULL);
  }
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ argument checks */

static jet_status check_span(const void *p, size_t span, const char *what, const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is NULL", what);
  size_t end;
  if (!jet__add_ok((size_t)(uintptr_t)p, span, &end))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s %p + %zu bytes wraps the address space", what,
                      p, span);
  return JET_STATUS_OK;
}

static jet_status check_value(int value, const char *fn) {
  if (value < -128 || value > 255)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "value %d is not a byte (-128..255); fills set single bytes", value);
  return JET_STATUS_OK;
}

static jet_status check_1d(const void *p, size_t bytes, const char *what, const char *fn) {
  JET__TRY(check_span(p, bytes, what, fn));
  if (bytes == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "bytes is 0");
  return JET_STATUS_OK;
}

static jet_status check_2d(const void *p, size_t pitch, size_t width, size_t height,
                           const char *what, const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is NULL", what);
  if (width == 0 || height == 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "empty region: width %zu, height %zu",
                      width, height);
  if (width > pitch)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "width %zu exceeds the %s pitch %zu", width,
                      what, pitch);
  size_t span;
  if (!jet__mul_ok(pitch, height - 1, &span) || !jet__add_ok(span, width, &span))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s pitch %zu x height %zu overflows", what, pitch,
                      height);
  return check_span(p, span, what, fn);
}

/* Validate a 3D region and give the byte offset of its first element. */
static jet_status check_3d(const jet_pitched_ptr *pp, const jet_pos *pos, const jet_extent *ext,
                           const char *what, const char *fn, size_t *offset) {
  if (!pp->ptr) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s.ptr is NULL", what);
  if (ext->width_bytes == 0 || ext->height == 0 || ext->depth == 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "empty extent %zu x %zu x %zu",
                      ext->width_bytes, ext->height, ext->depth);
  size_t xe, ye, ze;
  if (!jet__add_ok(pos->x_bytes, ext->width_bytes, &xe) ||
      !jet__add_ok(pos->y, ext->height, &ye) || !jet__add_ok(pos->z, ext->depth, &ze))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s position + extent overflows", what);
  if (xe > pp->pitch)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s: x %zu + width %zu exceeds the pitch %zu", what, pos->x_bytes,
                      ext->width_bytes, pp->pitch);
  if (ye > pp->rows)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s: y %zu + height %zu exceeds the %zu rows per slice", what, pos->y,
                      ext->height, pp->rows);
  size_t first, last, span;
  /* first row: z * rows + y; last row: (ze - 1) * rows + ye - 1 */
  if (!jet__mul_ok(pos->z, pp->rows, &first) || !jet__add_ok(first, pos->y, &first) ||
      !jet__mul_ok(first, pp->pitch, &first) || !jet__add_ok(first, pos->x_bytes, &first) ||
      !jet__mul_ok(ze - 1, pp->rows, &last) || !jet__add_ok(last, ye - 1, &last) ||
      !jet__mul_ok(last, pp->pitch, &last) || !jet__add_ok(last, xe, &span))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s region spans more than size_t holds", what);
  JET__TRY(check_span(pp->ptr, span, what, fn));
  *offset = first;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ 1D */

static jet_status memcpy_1d(const where *w, void *dst, const void *src, size_t bytes,
                            const char *fn) {
  return finish(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, w->cu), "cudaMemcpyAsync", w,
                fn);
}

jet_status jet_memcpy(jet_context ctx, void *dst, const void *src, size_t bytes) {
  JET__TRY(check_1d(dst, bytes, "dst", __func__));
  JET__TRY(check_1d(src, bytes, "src", __func__));
  where w;
  JET__TRY(from_ctx(ctx, &w, __func__));
  return memcpy_1d(&w, dst, src, bytes, __func__);
}

jet_status jet_memcpy_async(jet_stream stream, void *dst, const void *src, size_t bytes) {
  JET__TRY(check_1d(dst, bytes, "dst", __func__));
  JET__TRY(check_1d(src, bytes, "src", __func__));
  where w;
  JET__TRY(from_stream(stream, &w, __func__));
  return memcpy_1d(&w, dst, src, bytes, __func__);
}

static jet_status memset_1d(const where *w, void *dst, int value, size_t bytes, const char *fn) {
  return finish(cudaMemsetAsync(dst, value & 0xff, bytes, w->cu), "cudaMemsetAsync", w, fn);
}

jet_status jet_memset(jet_context ctx, void *dst, int value, size_t bytes) {
  JET__TRY(check_1d(dst, bytes, "dst", __func__));
  JET__TRY(check_value(value, __func__));
  where w;
  JET__TRY(from_ctx(ctx, &w, __func__));
  return memset_1d(&w, dst, value, bytes, __func__);
}

jet_status jet_memset_async(jet_stream stream, void *dst, int value, size_t bytes) {
  JET__TRY(check_1d(dst, bytes, "dst", __func__));
  JET__TRY(check_value(value, __func__));
  where w;
  JET__TRY(from_stream(stream, &w, __func__));
  return memset_1d(&w, dst, value, bytes, __func__);
}

/* ------------------------------------------------------------ 2D */

/* 1 when @p is device memory of @w's device (not host, managed or a peer's):
 * what jetrt's own 2D kernels may touch. */
static int on_device(const where *w, const void *p) {
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeDevice && a.device == w->ctx->device;
}

/* Bytes per thread of the 2D kernels: the widest of 16, 4, 1 that divides
 * every pointer, pitch and the row width. */
static size_t vec_of(uintptr_t bits) { return bits % 16 == 0 ? 16 : bits % 4 == 0 ? 4 : 1; }

unsigned jet__copy2d_lanes(unsigned long long nv) {
  unsigned bx = 256;
  unsigned long long waste = (nv + 255) / 256 * 256 - nv;
  for (unsigned b = 128; b >= 16; b /= 2) {
    unsigned long long wb = (nv + b - 1) / b * b - nv;
    if (wb < waste) bx = b, waste = wb;
  }
  return bx;
}

/* Queue kernel @name (kernels/memory/copy2d.cu) over @width_bytes x @height. */
static jet_status launch_2d(const where *w, const char *name, size_t vec, size_t width,
                            size_t height, void **args, const char *fn) {
  jet_kernel k;
  JET__TRY(jet__builtin_kernel(w->ctx, &jet__images_copy2d, name, &k, fn));
  const unsigned long long nv = width / vec;
  if (nv / 256 >= 0x7fffffffull)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "rows of %zu bytes are too wide", width);
  /* 3840 RGBA8 pixels are 960 vectors: 15 blocks of 64 lanes, not 4 of 256
   * with a quarter of one idle */
  unsigned bx = jet__copy2d_lanes(nv), by = 256u / bx;
  unsigned long long gy = (height + by - 1) / by;
  jet_dim3 grid = {(unsigned)((nv + bx - 1) / bx), (unsigned)(gy < 65535 ? gy : 65535), 1};
  jet_dim3 block = {bx, by, 1};
  JET__TRY(jet__launch(w->cu, k, grid, block, 0, args, fn));
  return finish(cudaSuccess, name, w, fn);
}

static jet_status memcpy_2d(const where *w, void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height, const char *fn) {
  /* Packed rows are one linear range: CUDA's 1D copy runs at full bandwidth,
   * its 2D copy well below it (H100, 4K RGBA8: 1.4x the 1D time). */
  if (height == 1 || (spitch == width && dpitch == width))
    return finish(cudaMemcpyAsync(dst, src, width * height, cudaMemcpyDefault, w->cu),
                  "cudaMemcpyAsync", w, fn);
  if (on_device(w, src) && on_device(w, dst)) {
    size_t vec = vec_of((uintptr_t)src | (uintptr_t)dst | spitch | dpitch | width);
    unsigned long long nv = width / vec, h = height, sp = spitch, dp = dpitch;
    void *args[] = {&src, &sp, &dst, &dp, &nv, &h};
    return launch_2d(w, vec == 16 ? "jet_copy2d_v16" : vec == 4 ? "jet_copy2d_v4" : "jet_copy2d_v1",
                     vec, width, height, args, fn);
  }
  return finish(
      cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault, w->cu),
      "cudaMemcpy2DAsync", w, fn);
}

jet_status jet_memcpy_2d(jet_context ctx, void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width_bytes, size_t height) {
  JET__TRY(check_2d(dst, dpitch, width_bytes, height, "dst", __func__));
  JET__TRY(check_2d(src, spitch, width_bytes, height, "src", __func__));
  where w;
  JET__TRY(from_ctx(ctx, &w, __func__));
  return memcpy_2d(&w, dst, dpitch, src, spitch, width_bytes, height, __func__);
}

jet_status jet_memcpy_2d_async(jet_stream stream, void *dst, size_t dpitch, const void *src,
                               size_t spitch, size_t width_bytes, size_t height) {
  JET__TRY(check_2d(dst, dpitch, width_bytes, height, "dst", __func__));
  JET__TRY(check_2d(src, spitch, width_bytes, height, "src", __func__));
  where w;
  JET__TRY(from_stream(stream, &w, __func__));
  return memcpy_2d(&w, dst, dpitch, src, spitch, width_bytes, height, __func__);
}

static jet_status memset_2d(const where *w, void *dst, size_t pitch, int value, size_t width,
                            size_t height, const char *fn) {
  const int packed = height == 1 || pitch == width;
  if (packed) { /* one row; the kernel below beats cudaMemsetAsync only with 16-byte stores */
    width *= height;
    height = 1;
    pitch = width;
  }
  size_t vec = vec_of((uintptr_t)dst | pitch | width);
  if (on_device(w, dst) && (!packed || vec == 16)) {
    unsigned long long nv = width / vec, h = height, dp = pitch;
    unsigned word = (unsigned)(value & 0xff) * 0x01010101u;
    void *args[] = {&dst, &dp, &nv, &h, &word};
    return launch_2d(w, vec == 16 ? "jet_fill2d_v16" : vec == 4 ? "jet_fill2d_v4" : "jet_fill2d_v1",
                     vec, width, height, args, fn);
  }
  if (packed)
    return finish(cudaMemsetAsync(dst, value & 0xff, width, w->cu), "cudaMemsetAsync", w, fn);
  return finish(cudaMemset2DAsync(dst, pitch, value & 0xff, width, height, w->cu),
                "cudaMemset2DAsync", w, fn);
}

jet_status jet_memset_2d(jet_context ctx, void *dst, size_t pitch, int value, size_t width_bytes,
                         size_t height) {
  JET__TRY(check_2d(dst, pitch, width_bytes, height, "dst", __func__));
  JET__TRY(check_value(value, __func__));
  where w;
  JET__TRY(from_ctx(ctx, &w, __func__));
  return memset_2d(&w, dst, pitch, value, width_bytes, height, __func__);
}

jet_status jet_memset_2d_async(jet_stream stream, void *dst, size_t pitch, int value,
                               size_t width_bytes, size_t height) {
  JET__TRY(check_2d(dst, pitch, width_bytes, height, "dst", __func__));
  JET__TRY(check_value(value, __func__));
  where w;
  JET__TRY(from_stream(stream, &w, __func__));
  return memset_2d(&w, dst, pitch, value, width_bytes, height, __func__);
}

/* ------------------------------------------------------------ 3D */

/* Positions are folded into the pointers, so CUDA sees plain linear memory at
 * position 0; xsize is only a logical width for linear memory, the pitch fits. */
static struct cudaPitchedPtr pitched(const jet_pitched_ptr *p, size_t offset) {
  return jet__pitched((char *)p->ptr + offset, p->pitch, p->pitch, p->rows);
}

static jet_status check_copy_3d(const jet_copy_3d *p, size_t *doff, size_t *soff,
                                const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "p is NULL");
  JET__TRY(check_3d(&p->dst, &p->dst_pos, &p->extent, "dst", fn, doff));
  return check_3d(&p->src, &p->src_pos, &p->extent, "src", fn, soff);
}

static jet_status memcpy_3d(const where *w, const jet_copy_3d *p, size_t doff, size_t soff,
                            const char *fn) {
  struct cudaMemcpy3DParms m;
  memset(&m, 0, sizeof m);
  m.srcPtr = pitched(&p->src, soff);
  m.dstPtr = pitched(&p->dst, doff);
  m.extent = jet__extent(p->extent.width_bytes, p->extent.height, p->extent.depth);
  m.kind = cudaMemcpyDefault;
  return finish(cudaMemcpy3DAsync(&m, w->cu), "cudaMemcpy3DAsync", w, fn);
}

jet_status jet_memcpy_3d(jet_context ctx, const jet_copy_3d *p) {
  size_t doff = 0, soff = 0;
  JET__TRY(check_copy_3d(p, &doff, &soff, __func__));
  where w;
  JET__TRY(from_ctx(ctx, &w, __func__));
  return memcpy_3d(&w, p, doff, soff, __func__);
}

jet_status jet_memcpy_3d_async(jet_stream stream, const jet_copy_3d *p) {
  size_t doff = 0, soff = 0;
  JET__TRY(check_copy_3d(p, &doff, &soff, __func__));
  where w;
  JET__TRY(from_stream(stream, &w, __func__));
  return memcpy_3d(&w, p, doff, soff, __func__);
}

static jet_status memset_3d(const where *w, const jet_pitched_ptr *dst, int value,
                            const jet_extent *e, const char *fn) {
  return finish(cudaMemset3DAsync(pitched(dst, 0), value & 0xff,
                                  jet__extent(e->width_bytes, e->height, e->depth), w->cu),
                "cudaMemset3DAsync", w, fn);
}

jet_status jet_memset_3d(jet_context ctx, jet_pitched_ptr dst, int value, jet_extent extent) {
  static const jet_pos origin = {0, 0, 0};
  size_t off;
  JET__TRY(check_3d(&dst, &origin, &extent, "dst", __func__, &off));
  JET__TRY(check_value(value, __func__));
  where w;
  JET__TRY(from_ctx(ctx, &w, __func__));
  return memset_3d(&w, &dst, value, &extent, __func__);
}

jet_status jet_memset_3d_async(jet_stream stream, jet_pitched_ptr dst, int value,
                               jet_extent extent) {
  static const jet_pos origin = {0, 0, 0};
  size_t off;
  JET__TRY(check_3d(&dst, &origin, &extent, "dst", __func__, &off));
  JET__TRY(check_value(value, __func__));
  where w;
  JET__TRY(from_stream(stream, &w, __func__));
  return memset_3d(&w, &dst, value, &extent, __func__);
}

/* ------------------------------------------------------------ for other modules */

jet_copy_3d jet__copy_2d_as_3d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width_bytes, size_t height) {
  jet_copy_3d c;
  memset(&c, 0, sizeof c);
  c.dst.ptr = dst;
  c.dst.pitch = dpitch;
  c.dst.rows = height;
  c.src.ptr = (void *)(uintptr_t)src;
  c.src.pitch = spitch;
  c.src.rows = height;
  c.extent.width_bytes = width_bytes;
  c.extent.height = height;
  c.extent.depth = 1;
  return c;
}

jet_status jet__copy_3d_params(const jet_copy_3d *p, struct cudaMemcpy3DParms *out,
                               const char *fn) {
  size_t doff = 0, soff = 0;
  JET__TRY(check_copy_3d(p, &doff, &soff, fn));
  memset(out, 0, sizeof *out);
  out->srcPtr = pitched(&p->src, soff);
  out->dstPtr = pitched(&p->dst, doff);
  out->extent = jet__extent(p->extent.width_bytes, p->extent.height, p->extent.depth);
  out->kind = cudaMemcpyDefault;
  return JET_STATUS_OK;
}

jet_status jet__copy_3d_check(const jet_copy_3d *p, size_t *dst_offset, size_t *src_offset,
                              const char *fn) {
  return check_copy_3d(p, dst_offset, src_offset, fn);
}
