/*
 * Reductions and the GRAY8 histogram (jetrt/reduce.h); kernels in
 * kernels/image/reduce.cu; the launch shapes and the work-memory layout they
 * share: kernels/image/reduce_params.h.
 */
#include <stddef.h>
#include <string.h>

#include "image_internal.h"
#include "jetrt_kernels.h"
#include "../../kernels/image/reduce_params.h"

_Static_assert(sizeof(jet_reduce_result) == 144, "jet_reduce_result layout is shared with reduce.cu");
_Static_assert(offsetof(jet_reduce_result, count) == 128, "jet_reduce_result layout");
_Static_assert(offsetof(jet_reduce_result, channels) == 136, "jet_reduce_result layout");

static unsigned max_blocks(const struct jet_context_s *ctx) {
  return jet__image_sms(ctx) * JET_RED_BLOCKS_PER_SM;
}

static size_t work_size(const struct jet_context_s *ctx) {
  return JET_RED_WORK_PARTIALS + (size_t)max_blocks(ctx) * JET_RED_PARTIAL_BYTES;
}

jet_status jet_reduce_work_size(jet_context ctx, size_t *bytes) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(bytes, "bytes is NULL");
  *bytes = work_size(ctx);
  return JET_STATUS_OK;
}

/* The device address kernels use for @p, checked to be memory the device can
 * reach: device or managed memory of @ctx's device, or (unless @device_only)
 * mapped host memory. */
static jet_status device_address(const struct jet_context_s *ctx, void *p, int device_only,
                                 const char *what, void **out, const char *fn) {
  struct cudaPointerAttributes a;
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaPointerGetAttributes", NULL, "%s", what);
  switch (a.type) {
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged:
      if (a.device != ctx->device)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is memory of device %d, not %d",
                          what, a.device, ctx->device);
      *out = a.devicePointer ? a.devicePointer : p;
      return JET_STATUS_OK;
    case cudaMemoryTypeHost:
      if (device_only)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s is host memory; it must be device memory (the kernel's atomics "
                          "work on it)", what);
      if (!a.devicePointer)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s is pinned host memory the device cannot address; allocate it with "
                          "cudaHostAllocMapped (and JET_CONTEXT_MAP_HOST)", what);
      *out = a.devicePointer;
      return JET_STATUS_OK;
    default:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "%s is not memory the device can write (pageable host memory?); use "
                        "device memory or mapped pinned host memory", what);
  }
}

/* The shared steps: argument checks, stream, work and output addresses, grid. */
typedef struct launch_plan {
  cudaStream_t cu;
  jet_kernel k;
  void *work, *out;
  jet_dim3 grid, block;
  int vec;
} launch_plan;

static jet_status plan(jet_stream stream, jet_image src, void *work, size_t work_bytes, void *out,
                       size_t out_align, jet__image_op op, launch_plan *lp, const char *fn) {
  JET__TRY(jet__image_check_pair(src, NULL, op, fn));
  if (!work) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "work is NULL");
  if (!out) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "output pointer is NULL");
  if ((uintptr_t)work % 8)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "work is not 8-byte aligned");
  if ((uintptr_t)out % out_align)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "output pointer is not %zu-byte aligned",
                      out_align);
  struct jet_context_s *ctx = src->h.ctx;
  size_t need = work_size(ctx);
  if (work_bytes < need)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "work_bytes %zu is below the %zu bytes jet_reduce_work_size gives",
                      work_bytes, need);
  const jet_format_desc *d = jet__format(src->layout.format);
  int w = src->layout.width, h = src->layout.height;
  if ((unsigned long long)w * (unsigned long long)d->channels > 0xffffffffull)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "rows of %d pixels are too wide", w);
  JET__TRY(jet__stream_enter(stream, ctx, &lp->cu, fn));
  JET__TRY(device_address(ctx, work, 1, "work", &lp->work, fn));
  JET__TRY(device_address(ctx, out, 0, "output", &lp->out, fn));

  const char *name;
  size_t chunk = 16;
  switch (src->layout.format) {
    case JET_FORMAT_GRAY8: name = op == JET__IMAGE_OP_HISTOGRAM ? "jet_histogram_u8" : "jet_reduce_u8c1"; break;
    case JET_FORMAT_GRAY16: name = "jet_reduce_u16c1"; break;
    case JET_FORMAT_GRAYF32: name = "jet_reduce_f32c1"; break;
    case JET_FORMAT_RGB8:
    case JET_FORMAT_BGR8: name = "jet_reduce_u8c3"; chunk = 48; break;
    case JET_FORMAT_RGBA8:
    case JET_FORMAT_BGRA8: name = "jet_reduce_u8c4"; break;
    case JET_FORMAT_RGBF32: name = "jet_reduce_f32c3"; chunk = 48; break;
    default:
      return jet__error(JET_STATUS_INTERNAL, fn, "no reduction kernel for %s",
                        jet_format_name(src->layout.format));
  }
  lp->vec = (uintptr_t)src->plane[0] % 16 == 0 && src->layout.plane[0].pitch % 16 == 0;
  /* Reductions: enough blocks of JET_RED_THREADS for two chunks per thread,
   * four for 8-bit colour formats (half the blocks, each with twelve atomics
   * at the end: RGBA8 720p 0.3 us less on the H100; GRAY8 and GRAYF32 gain
   * nothing or lose), at most what the work holds.
   * Histogram: blocks of JET_HIST_THREADS, a chunk per thread, at most one
   * per SM. Few blocks: each merges 256 bins into the same global words.
   * Full ones: spreading a small image over every SM in smaller blocks took
   * longer (H100, 720p: 131 blocks of 448 threads 8.3 us, 57 of 1024 7.8 us;
   * a block of fewer than 1024 threads merges its bins in two rounds). */
  const int hist = op == JET__IMAGE_OP_HISTOGRAM;
  const unsigned threads = hist ? JET_HIST_THREADS : JET_RED_THREADS;
  const unsigned long long per_thread = hist ? 1 : d->channels > 1 && d->elem_size == 1 ? 4 : 2;
  const unsigned long long most = hist ? jet__image_sms(ctx) : max_blocks(ctx);
  const unsigned long long chunks =
      (unsigned long long)(src->layout.plane[0].row_bytes / chunk + 1) * (unsigned long long)h;
  unsigned long long blocks = (chunks + per_thread * threads - 1) / (per_thread * threads);
  if (blocks > most) blocks = most;
  if (blocks < 1) blocks = 1;
  lp->block = (jet_dim3){threads, 1, 1};
  lp->grid = (jet_dim3){(unsigned)blocks, 1, 1};
  return jet__builtin_kernel(ctx, &jet__images_reduce, name, &lp->k, fn);
}

static jet_status run(jet_image src, launch_plan *lp, const char *fn) {
  const void *s = src->plane[0];
  unsigned long long sp = src->layout.plane[0].pitch;
  int w = src->layout.width, h = src->layout.height;
  void *args[] = {&s, &sp, &w, &h, &lp->vec, &lp->work, &lp->out};
  return jet__launch(lp->cu, lp->k, lp->grid, lp->block, 0, args, fn);
}

jet_status jet_reduce(jet_stream stream, jet_image src, void *work, size_t work_bytes,
                      jet_reduce_result *out) {
  launch_plan lp;
  JET__TRY(plan(stream, src, work, work_bytes, out, 8, JET__IMAGE_OP_REDUCE, &lp, __func__));
  return run(src, &lp, __func__);
}

jet_status jet_histogram(jet_stream stream, jet_image src, void *work, size_t work_bytes,
                         uint32_t *hist) {
  launch_plan lp;
  JET__TRY(plan(stream, src, work, work_bytes, hist, 4, JET__IMAGE_OP_HISTOGRAM, &lp, __func__));
  return run(src, &lp, __func__);
}

/* Allocate zeroed work memory plus room for the result, run the operation,
 * copy the result to @host and wait. */
static jet_status run_sync(jet_stream stream, jet_image src, void *host, size_t result_bytes,
                           jet__image_op op, const char *fn) {
  JET__TRY(jet__image_check_pair(src, NULL, op, fn));
  if (!host) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "output pointer is NULL");
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, src->h.ctx, &cu, fn));
  size_t wbytes = work_size(src->h.ctx);
  void *mem = NULL;
  cudaError_t e = cudaMalloc(&mem, wbytes + result_bytes);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaMalloc", NULL, "%zu bytes of work memory",
                           wbytes + result_bytes);
  void *result = (char *)mem + wbytes;
  jet_status st = JET_STATUS_OK;
  e = cudaMemsetAsync(mem, 0, wbytes, cu);
  if (e != cudaSuccess) st = jet__cuda_error(e, fn, "cudaMemsetAsync", NULL, NULL);
  if (st == JET_STATUS_OK) {
    launch_plan lp;
    st = plan(stream, src, mem, wbytes, result, 8, op, &lp, fn);
    if (st == JET_STATUS_OK) st = run(src, &lp, fn);
  }
  if (st == JET_STATUS_OK) {
    e = cudaMemcpyAsync(host, result, result_bytes, cudaMemcpyDeviceToHost, cu);
    if (e != cudaSuccess) st = jet__cuda_error(e, fn, "cudaMemcpyAsync", NULL, NULL);
  }
  /* Wait in every case: the free below must not race queued work. */
  e = cudaStreamSynchronize(cu);
  if (e != cudaSuccess && st == JET_STATUS_OK)
    st = jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, NULL);
  e = cudaFree(mem);
  if (e != cudaSuccess && st == JET_STATUS_OK) st = jet__cuda_error(e, fn, "cudaFree", NULL, NULL);
  return st;
}

jet_status jet_reduce_sync(jet_stream stream, jet_image src, jet_reduce_result *out) {
  return run_sync(stream, src, out, sizeof *out, JET__IMAGE_OP_REDUCE, __func__);
}

jet_status jet_histogram_sync(jet_stream stream, jet_image src, uint32_t *hist) {
  return run_sync(stream, src, hist, 256 * sizeof *hist, JET__IMAGE_OP_HISTOGRAM, __func__);
}
