/*
 * jet_image: creation, wrapping, queries and host copies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"

jet_status jet__image_new(struct jet_context_s *ctx, const jet__image_layout *l,
                          jet_image_memory memory, void *const *ptrs, const jet__alloc *mem,
                          unsigned flags, jet_image *out, const char *fn) {
  struct jet_image_s *img = calloc(1, sizeof *img);
  if (!img) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a jet_image");
  img->layout = *l;
  img->memory = memory;
  img->flags = flags;
  img->mem = *mem;
  for (int i = 0; i < l->planes; i++) img->plane[i] = ptrs[i];
  jet_status st = jet__handle_register(&img->h, JET__H_IMAGE, ctx, fn);
  if (st != JET_STATUS_OK) {
    free(img);
    return st;
  }
  *out = img;
  return JET_STATUS_OK;
}

#define EXPORT_FLAGS (JET_IMAGE_EXPORTABLE | JET_IMAGE_EXPORTABLE_LEGACY)

static jet_status create(jet_context ctx, const jet_image_desc *desc, jet_image *out,
                         const char *fn) {
  if (!out) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "out is NULL");
  *out = NULL;
  if (!desc) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "desc is NULL");
  jet_image_desc d = *desc;
  if (d.flags & ~(unsigned)EXPORT_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown image flags 0x%x",
                      d.flags & ~(unsigned)EXPORT_FLAGS);
  if ((d.flags & EXPORT_FLAGS) == EXPORT_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_IMAGE_EXPORTABLE and JET_IMAGE_EXPORTABLE_LEGACY exclude each other: "
                      "_LEGACY alone forces the legacy mechanism");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, fn, "ctx"));
  jet__image_layout l;
  JET__TRY(jet__image_layout_compute(d.format, d.width, d.height, NULL, JET_IMAGE_PITCH_ALIGN, &l,
                                     fn));
  jet_ipc_mechanism mech = JET_IPC_MECHANISM_NONE;
  if (d.flags)
    JET__TRY(jet__ipc_mechanism(&ctx->info, &ctx->platform.policy,
                                (d.flags & JET_IMAGE_EXPORTABLE_LEGACY) ? JET__IPC_REQUEST_LEGACY
                                                                        : JET__IPC_REQUEST_AUTO,
                                &mech, fn));
  JET__TRY(jet__ctx_activate(ctx, fn));
  jet__alloc mem;
  if (mech == JET_IPC_MECHANISM_NONE) {
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, l.total_bytes);
    if (e != cudaSuccess)
      return jet__cuda_error(e, fn, "cudaMalloc", NULL, "%s %dx%d image: %zu bytes",
                             jet_format_name(d.format), d.width, d.height, l.total_bytes);
    mem = jet__alloc_of(JET__ALLOC_CUDA, ctx->device, p, l.total_bytes);
  } else {
    jet_status st = jet__alloc_device(ctx->device, l.total_bytes, mech, &mem, fn);
    if (st != JET_STATUS_OK) {
      jet__error_set_hint("exportable %s %dx%d image of %zu bytes",
                          jet_format_name(d.format), d.width, d.height, l.total_bytes);
      return st;
    }
  }
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < l.planes; i++) ptrs[i] = (char *)mem.ptr + l.plane[i].offset;
  jet_status st = jet__image_new(ctx, &l, JET_IMAGE_MEMORY_DEVICE, ptrs, &mem, d.flags, out, fn);
  if (st != JET_STATUS_OK) (void)jet__alloc_release(&mem, fn);
  return st;
}

jet_status jet_image_create(jet_context ctx, jet_format format, int width, int height,
                            jet_image *out) {
  jet_image_desc d = {format, width, height, 0};
  return create(ctx, &d, out, __func__);
}

jet_status jet_image_create_ex(jet_context ctx, const jet_image_desc *desc, jet_image *out) {
  return create(ctx, desc, out, __func__);
}

static const char *memory_type_name(enum cudaMemoryType t) {
  switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered host memory";
    case cudaMemoryTypeHost: return "pinned host memory";
    case cudaMemoryTypeDevice: return "device memory";
    case cudaMemoryTypeManaged: return "managed memory";
    default: return "memory of unknown type";
  }
}

/* Check one wrapped plane against @memory and give the address kernels use. */
static jet_status resolve_plane(struct jet_context_s *ctx, jet_image_memory memory, int i,
                                void *ptr, void **dev, const char *fn) {
  if (memory == JET_IMAGE_MEMORY_MAPPED_HOST) {
    cudaError_t e = cudaHostGetDevicePointer(dev, ptr, 0);
    if (e != cudaSuccess)
      return jet__cuda_error(e, fn, "cudaHostGetDevicePointer",
                             "allocate the planes with cudaHostAlloc(..., cudaHostAllocMapped) "
                             "and create the context with JET_CONTEXT_MAP_HOST",
                             "plane %d (%p) is not mapped pinned host memory", i, ptr);
    return JET_STATUS_OK;
  }
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, ptr);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaPointerGetAttributes", NULL, "plane %d (%p)", i, ptr);
  *dev = ptr;
  if (memory == JET_IMAGE_MEMORY_DEVICE) {
    if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "plane %d (%p) is %s, not device memory%s", i, ptr,
                        memory_type_name(a.type),
                        a.type == cudaMemoryTypeHost ? "; wrap it as JET_IMAGE_MEMORY_MAPPED_HOST"
                                                     : "");
    if (a.type == cudaMemoryTypeDevice && a.device != ctx->device)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "plane %d (%p) is device memory of device %d, the context's is %d", i, ptr,
                        a.device, ctx->device);
    return JET_STATUS_OK;
  }
  /* SHARED: whatever backs the buffer, as long as the GPU can reach it. */
  if (a.type == cudaMemoryTypeUnregistered && !ctx->info.pageable_memory_access)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "plane %d (%p) is unregistered host memory; pass the pointer "
                      "jet_shared_begin_gpu returned",
                      i, ptr);
  if (a.type == cudaMemoryTypeDevice && a.device != ctx->device)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "plane %d (%p) is device memory of device %d, the context's is %d", i, ptr,
                      a.device, ctx->device);
  return JET_STATUS_OK;
}

jet_status jet_image_wrap(jet_context ctx, jet_format format, int width, int height,
                          const jet_image_plane *planes, int plane_count, jet_image_memory memory,
                          jet_image *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(planes, "planes is NULL");
  JET__ARG(memory == JET_IMAGE_MEMORY_DEVICE || memory == JET_IMAGE_MEMORY_MAPPED_HOST ||
               memory == JET_IMAGE_MEMORY_SHARED,
           "unknown memory kind %d", (int)memory);
  const jet_format_desc *d = jet__format(format);
  JET__ARG(d, "unknown format %d", (int)format);
  JET__ARG(plane_count == d->planes, "%s has %d plane(s), %d given", d->name, d->planes,
           plane_count);
  size_t pitches[JET_IMAGE_MAX_PLANES] = {0, 0, 0};
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < plane_count; i++) {
    pitches[i] = planes[i].pitch;
    ptrs[i] = planes[i].ptr;
  }
  jet__image_layout l;
  JET__TRY(jet__image_layout_compute(format, width, height, pitches, 1, &l, __func__));
  JET__TRY(jet__image_planes_check(&l, ptrs, __func__));

  JET__TRY(jet__ctx_activate(ctx, __func__));
  void *dev[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < plane_count; i++)
    JET__TRY(resolve_plane(ctx, memory, i, ptrs[i], &dev[i], __func__));
  jet__alloc none = jet__alloc_of(JET__ALLOC_NONE, ctx->device, NULL, 0);
  return jet__image_new(ctx, &l, memory, dev, &none, 0, out, __func__);
}

jet_status jet__image_borrow(struct jet_context_s *ctx, jet_format format, int width, int height,
                             const size_t *pitches, void *const *ptrs, const char *lender,
                             jet_image *out, const char *fn) {
  jet__image_layout l;
  JET__TRY(jet__image_layout_compute(format, width, height, pitches, 1, &l, fn));
  JET__TRY(jet__image_planes_check(&l, ptrs, fn));
  struct jet_image_s *img = calloc(1, sizeof *img);
  if (!img) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a jet_image");
  img->layout = l;
  img->memory = JET_IMAGE_MEMORY_DEVICE;
  img->mem = jet__alloc_of(JET__ALLOC_NONE, ctx->device, NULL, 0);
  img->lender = lender;
  for (int i = 0; i < l.planes; i++) img->plane[i] = ptrs[i];
  /* Not counted in the context's live objects: its lender is, and releases it
   * (also when the context is destroyed with it alive). */
  jet_status st = jet__handle_register_embedded(&img->h, JET__H_IMAGE, ctx, fn);
  if (st != JET_STATUS_OK) {
    free(img);
    return st;
  }
  *out = img;
  return JET_STATUS_OK;
}

void jet__image_release_borrowed(jet_image image) {
  if (!image) return;
  jet__handle_unregister_embedded(&image->h);
  free(image);
}

jet_status jet_image_destroy(jet_image image) {
  if (!image) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  if (image->lender)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "the image belongs to %s and is released with it (unmap or release that); "
                      "it is not destroyed by the caller",
                      image->lender);
  jet_status st = JET_STATUS_OK;
  if (image->mem.origin != JET__ALLOC_NONE || image->hold) {
    /* The hold must let go even when the device cannot be made current, or
     * the memory (and the context's count) would stay held for good. */
    st = jet__ctx_activate(image->h.ctx, __func__);
    jet_status rs = jet__alloc_object_release(image->hold, &image->mem, __func__);
    if (st == JET_STATUS_OK) st = rs;
  }
  jet__handle_unregister(&image->h);
  free(image);
  return st;
}

jet_status jet_image_get_size(jet_image image, int *width, int *height) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  JET__ARG(width || height, "width and height are both NULL");
  if (width) *width = image->layout.width;
  if (height) *height = image->layout.height;
  return JET_STATUS_OK;
}

jet_status jet_image_get_format(jet_image image, jet_format *format) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  JET__ARG(format, "format is NULL");
  *format = image->layout.format;
  return JET_STATUS_OK;
}

jet_status jet_image_get_memory(jet_image image, jet_image_memory *memory, int *owned) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  JET__ARG(memory, "memory is NULL");
  *memory = image->memory;
  if (owned) *owned = image->mem.origin != JET__ALLOC_NONE;
  return JET_STATUS_OK;
}

jet_status jet_image_get_plane_count(jet_image image, int *count) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  JET__ARG(count, "count is NULL");
  *count = image->layout.planes;
  return JET_STATUS_OK;
}

jet_status jet_image_get_plane(jet_image image, int index, jet_image_plane_info *info) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  JET__ARG(info, "info is NULL");
  JET__ARG(index >= 0 && index < image->layout.planes, "plane %d of a %d-plane %s image", index,
           image->layout.planes, jet_format_name(image->layout.format));
  const jet__plane_layout *p = &image->layout.plane[index];
  info->ptr = image->plane[index];
  info->pitch = p->pitch;
  info->row_bytes = p->row_bytes;
  info->width = p->width;
  info->height = p->height;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ copies */

enum { UPLOAD, DOWNLOAD };

static jet_status copy_check(jet_image image, const jet_image_plane *host, int plane_count,
                             size_t *pitches, const char *fn) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, fn, "image"));
  if (!host) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "host is NULL");
  const jet__image_layout *l = &image->layout;
  if (plane_count != l->planes)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s image has %d plane(s), %d given",
                      jet_format_name(l->format), l->planes, plane_count);
  for (int i = 0; i < l->planes; i++) {
    const jet__plane_layout *p = &l->plane[i];
    if (!host[i].ptr)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "host plane %d pointer is NULL", i);
    pitches[i] = host[i].pitch ? host[i].pitch : p->row_bytes;
    if (pitches[i] < p->row_bytes)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "host plane %d pitch %zu is smaller than its row bytes %zu", i, pitches[i],
                        p->row_bytes);
    size_t body, extent;
    if (!jet__mul_ok(pitches[i], (size_t)(p->height - 1), &body) ||
        !jet__add_ok(body, p->row_bytes, &extent) ||
        extent > UINTPTR_MAX - (uintptr_t)host[i].ptr)
      return jet__error(JET_STATUS_OVERFLOW, fn,
                        "host plane %d with pitch %zu spans more than the address space", i,
                        pitches[i]);
  }
  return JET_STATUS_OK;
}

static jet_status copy_planes(jet_image image, const jet_image_plane *host, const size_t *pitches,
                              int dir, int async, cudaStream_t cu, const char *fn) {
  const jet__image_layout *l = &image->layout;
  for (int i = 0; i < l->planes; i++) {
    const jet__plane_layout *p = &l->plane[i];
    void *dst = dir == UPLOAD ? image->plane[i] : host[i].ptr;
    const void *src = dir == UPLOAD ? host[i].ptr : image->plane[i];
    size_t dpitch = dir == UPLOAD ? p->pitch : pitches[i];
    size_t spitch = dir == UPLOAD ? pitches[i] : p->pitch;
    /* The synchronous flavour queues on the legacy stream and waits for it:
     * cudaMemcpy2D from pageable memory returns once the data is staged, before
     * it is in device memory, which another process or stream could see. */
    cudaError_t e = cudaMemcpy2DAsync(dst, dpitch, src, spitch, p->row_bytes, (size_t)p->height,
                                      cudaMemcpyDefault, async ? cu : cudaStreamLegacy);
    if (e != cudaSuccess)
      return jet__cuda_error(e, fn, "cudaMemcpy2DAsync", NULL, "plane %d: %zu x %d bytes", i,
                             p->row_bytes, p->height);
  }
  if (!async) JET__CUDA(cudaStreamSynchronize, (cudaStreamLegacy));
  return JET_STATUS_OK;
}

static jet_status copy_sync(jet_image image, const jet_image_plane *host, int plane_count, int dir,
                            const char *fn) {
  size_t pitches[JET_IMAGE_MAX_PLANES];
  JET__TRY(copy_check(image, host, plane_count, pitches, fn));
  JET__TRY(jet__ctx_activate(image->h.ctx, fn));
  return copy_planes(image, host, pitches, dir, 0, NULL, fn);
}

static jet_status copy_async(jet_image image, const jet_image_plane *host, int plane_count,
                             jet_stream stream, int dir, const char *fn) {
  size_t pitches[JET_IMAGE_MAX_PLANES];
  JET__TRY(copy_check(image, host, plane_count, pitches, fn));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, image->h.ctx, &cu, fn));
  return copy_planes(image, host, pitches, dir, 1, cu, fn);
}

jet_status jet_image_upload(jet_image image, const jet_image_plane *host, int plane_count) {
  return copy_sync(image, host, plane_count, UPLOAD, __func__);
}

jet_status jet_image_download(jet_image image, const jet_image_plane *host, int plane_count) {
  return copy_sync(image, host, plane_count, DOWNLOAD, __func__);
}

jet_status jet_image_upload_async(jet_image image, const jet_image_plane *host, int plane_count,
                                  jet_stream stream) {
  return copy_async(image, host, plane_count, stream, UPLOAD, __func__);
}

jet_status jet_image_download_async(jet_image image, const jet_image_plane *host,
                                    int plane_count, jet_stream stream) {
  return copy_async(image, host, plane_count, stream, DOWNLOAD, __func__);
}

/* ------------------------------------------------------------ operations */

jet_status jet__image_check_pair(jet_image src, jet_image dst, jet__image_op op, const char *fn) {
  JET__TRY(jet__handle_check(src, JET__H_IMAGE, fn, "src"));
  int source_only = op == JET__IMAGE_OP_REDUCE || op == JET__IMAGE_OP_HISTOGRAM;
  if (source_only)
    return jet__image_formats_fit(op, src->layout.format, src->layout.width, src->layout.height,
                                  JET_FORMAT_NONE_, 0, 0, fn);
  JET__TRY(jet__handle_check_in(dst, JET__H_IMAGE, src->h.ctx, fn, "dst"));
  JET__TRY(jet__image_formats_fit(op, src->layout.format, src->layout.width, src->layout.height,
                                  dst->layout.format, dst->layout.width, dst->layout.height, fn));
  if (jet__image_overlaps(&src->layout, src->plane, &dst->layout, dst->plane))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "source and destination overlap; %s cannot work in place",
                      jet__image_op_name(op));
  return JET_STATUS_OK;
}

static int same_shape(jet_image a, jet_image b) {
  return a->layout.format == b->layout.format && a->layout.width == b->layout.width &&
         a->layout.height == b->layout.height;
}

jet_status jet__image_check_batch(const jet_image *src, const jet_image *dst, int count,
                                  jet__image_op op, const char *fn) {
  if (!src || !dst) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "src or dst array is NULL");
  if (count < 1 || count > JET_IMAGE_BATCH_MAX)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "count %d outside 1..%d", count,
                      JET_IMAGE_BATCH_MAX);
  for (int i = 0; i < count; i++) {
    jet_status st = jet__image_check_pair(src[i], dst[i], op, fn);
    if (st != JET_STATUS_OK) {
      char why[256];
      snprintf(why, sizeof why, "%s", jet_last_error()->message);
      return jet__error(st, fn, "pair %d: %s", i, why);
    }
    if (i == 0) continue;
    if (src[i]->h.ctx != src[0]->h.ctx)
      return jet__error(JET_STATUS_WRONG_CONTEXT, fn, "src[%d] belongs to another context than src[0]", i);
    if (!same_shape(src[i], src[0]) || !same_shape(dst[i], dst[0]))
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "size mismatch: pair %d differs from pair 0 in format or size; a batch "
                        "takes one source shape and one destination shape",
                        i);
  }
  for (int i = 0; i < count; i++)
    for (int j = 0; j < count; j++) {
      if (j != i && jet__image_overlaps(&dst[i]->layout, dst[i]->plane, &src[j]->layout, src[j]->plane))
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "dst[%d] overlaps src[%d]", i, j);
      if (j > i && jet__image_overlaps(&dst[i]->layout, dst[i]->plane, &dst[j]->layout, dst[j]->plane))
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "dst[%d] overlaps dst[%d]", i, j);
    }
  return JET_STATUS_OK;
}

unsigned long long jet__tile_blocks(unsigned long long tx, int dh, int row_mul, int rows, int count) {
  unsigned long long th = (unsigned long long)row_mul * (unsigned)rows;
  return tx * (((unsigned long long)dh + th - 1) / th) * (unsigned)count;
}

int jet__wave_rows(unsigned long long tx, int dh, int row_mul, int min_rows, int max_rows, int count,
                   unsigned long long slots, int prologue) {
  int best = max_rows;
  unsigned long long best_cost = ~0ull;
  for (int r = max_rows; r >= min_rows; r--) {
    unsigned long long blocks = jet__tile_blocks(tx, dh, row_mul, r, count);
    unsigned long long cost = (blocks + slots - 1) / slots * (unsigned long long)(r + prologue);
    if (cost < best_cost) {
      best_cost = cost;
      best = r;
    }
  }
  return best;
}

jet_status jet__image_kernel(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                             const char *name, int count, jet_kernel *out, const char *fn) {
  if (count == 1 && !JET_COMPACT_KERNELS) {
    char one[96];
    int n = snprintf(one, sizeof one, "%s_1", name);
    if (n < 0 || (size_t)n >= sizeof one)
      return jet__error(JET_STATUS_INTERNAL, fn, "kernel name '%s' is too long", name);
    return jet__builtin_kernel_or(ctx, set, one, name, out, fn);
  }
  return jet__builtin_kernel(ctx, set, name, out, fn);
}
