/*
 * DLPack export and import of buffers and image planes (jetrt/dlpack.h).
 * Built where a DLPack header was found (JET_HAVE_DLPACK); dlpack_off.c
 * stands in otherwise.
 */
#if JET_HAVE_DLPACK

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jetrt/dlpack.h"
#include "../image/image_internal.h"
#include "../memory/memory_internal.h"

#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
#define HAVE_V1 1
#else
#define HAVE_V1 0
#endif

#define MAX_NDIM 8

int jet_dlpack_versioned_supported(void) { return HAVE_V1; }

/* ------------------------------------------------------------ export */

/* What an exported tensor shows, before it is put in either struct. */
typedef struct view {
  void *data;
  uint64_t offset;
  DLDevice dev;
  DLDataType dtype;
  int ndim;
  int64_t shape[3], strides[3];
} view;

/* The manager_ctx of an exported tensor: the tensor itself, its arrays and
 * the hold that keeps the memory alive. */
typedef struct export_rec {
  DLManagedTensor legacy;
#if HAVE_V1
  DLManagedTensorVersioned v;
#endif
  int64_t shape[3], strides[3];
  jet__alloc_hold *hold;
} export_rec;

static DLDataType dl_type(uint8_t code, uint8_t bits, uint16_t lanes) {
  DLDataType t;
  t.code = code;
  t.bits = bits;
  t.lanes = lanes;
  return t;
}

static void fill_tensor(DLTensor *t, const view *v, export_rec *r) {
  memset(t, 0, sizeof *t);
  memcpy(r->shape, v->shape, sizeof r->shape);
  memcpy(r->strides, v->strides, sizeof r->strides);
  t->data = v->data;
  t->device = v->dev;
  t->ndim = v->ndim;
  t->dtype = v->dtype;
  t->shape = r->shape;
  t->strides = r->strides;
  t->byte_offset = v->offset;
}

static void rows_view(view *v, size_t es, size_t width_bytes, size_t pitch, size_t height,
                      size_t depth) {
  int64_t w = (int64_t)(width_bytes / es), p = (int64_t)(pitch / es);
  if (depth > 1) {
    v->ndim = 3;
    v->shape[0] = (int64_t)depth;
    v->shape[1] = (int64_t)height;
    v->shape[2] = w;
    v->strides[0] = p * (int64_t)height;
    v->strides[1] = p;
    v->strides[2] = 1;
  } else if (height > 1) {
    v->ndim = 2;
    v->shape[0] = (int64_t)height;
    v->shape[1] = w;
    v->strides[0] = p;
    v->strides[1] = 1;
  } else {
    v->ndim = 1;
    v->shape[0] = w;
    v->strides[0] = 1;
  }
}

static jet_status check_dtype(uint8_t bits, uint16_t lanes, const char *what, const char *fn) {
  if (bits == 0 || bits % 8 || lanes == 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s dtype of %u bits x %u lanes: jetrt takes whole bytes (bits a multiple "
                      "of 8) and at least one lane",
                      what, (unsigned)bits, (unsigned)lanes);
  return JET_STATUS_OK;
}

static jet_status buffer_view(jet_buffer buf, const jet_dl_dtype *dtype, view *v,
                              jet__alloc_hold ***slot, struct jet_context_s **ctx, const char *fn) {
  JET__TRY(jet__buffer_check(buf, NULL, fn));
  if (buf->lender)
    return jet__error(JET_STATUS_INVALID_STATE, fn,
                      "the buffer belongs to %s and goes away when that unmaps it; copy it into "
                      "a buffer of your own to export it",
                      buf->lender);
  jet_dl_dtype t = {kDLUInt, 8, 1};
  if (dtype) t = *dtype;
  JET__TRY(check_dtype(t.bits, t.lanes, "the requested", fn));
  size_t es = (size_t)t.bits / 8 * t.lanes;
  int rows = buf->height * buf->depth > 1;
  if (buf->width % es || (rows && buf->pitch % es))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "a %zu-byte element does not divide the buffer's row of %zu bytes%s%zu", es,
                      buf->width, rows ? " and pitch of " : " (pitch ", buf->pitch);
  memset(v, 0, sizeof *v);
  v->dtype = dl_type(t.code, t.bits, t.lanes);
  switch (buf->kind) {
    case JET_MEMORY_DEVICE:
      v->dev.device_type = kDLCUDA;
      v->dev.device_id = buf->h.ctx->device;
      v->data = buf->dev;
      break;
    case JET_MEMORY_MANAGED:
      v->dev.device_type = kDLCUDAManaged;
      v->data = buf->dev;
      break;
    default:
      v->dev.device_type = kDLCUDAHost;
      v->data = buf->host;
      break;
  }
  if ((uintptr_t)v->data % ((size_t)t.bits / 8))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the buffer's address %p is not aligned to the %u-bit dtype", v->data,
                      (unsigned)t.bits);
  rows_view(v, es, buf->width, buf->pitch, buf->height, buf->depth);
  *slot = &buf->hold;
  *ctx = buf->h.ctx;
  return JET_STATUS_OK;
}

static jet_status image_view(jet_image image, int plane, view *v, jet__alloc_hold ***slot,
                             struct jet_context_s **ctx, const char *fn) {
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, fn, "image"));
  if (image->lender)
    return jet__error(JET_STATUS_INVALID_STATE, fn,
                      "the image belongs to %s and goes away when that releases it; copy it "
                      "into an image of your own to export it",
                      image->lender);
  const jet__image_layout *l = &image->layout;
  if (plane < 0 || plane >= l->planes)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "plane %d of a %d-plane %s image", plane,
                      l->planes, jet_format_name(l->format));
  const jet_format_desc *f = jet__format(l->format);
  if (!f) return jet__error(JET_STATUS_INTERNAL, fn, "image of unknown format %d", (int)l->format);
  const jet__plane_layout *p = &l->plane[plane];
  size_t es = (size_t)f->elem_size;
  size_t samples = p->row_bytes / ((size_t)p->width * es);
  memset(v, 0, sizeof *v);
  switch (f->elem) {
    case JET_ELEM_U8: v->dtype = dl_type(kDLUInt, 8, 1); break;
    case JET_ELEM_U16: v->dtype = dl_type(kDLUInt, 16, 1); break;
    case JET_ELEM_F32: v->dtype = dl_type(kDLFloat, 32, 1); break;
    case JET_ELEM_F16: v->dtype = dl_type(kDLFloat, 16, 1); break;
    default: return jet__error(JET_STATUS_INTERNAL, fn, "format %s has no DLPack type", f->name);
  }
  struct jet_context_s *c = image->h.ctx;
  JET__TRY(jet__ctx_activate(c, fn));
  void *ptr = image->plane[plane];
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, ptr);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaPointerGetAttributes", NULL, "plane %d (%p)", plane, ptr);
  v->data = ptr;
  switch (a.type) {
    case cudaMemoryTypeDevice:
      v->dev.device_type = kDLCUDA;
      v->dev.device_id = a.device;
      /* Show the allocation's base with the plane's offset, as DLPack asks. */
      if (image->mem.origin != JET__ALLOC_NONE && (char *)ptr >= (char *)image->mem.ptr &&
          (char *)ptr < (char *)image->mem.ptr + image->mem.size) {
        v->data = image->mem.ptr;
        v->offset = (uint64_t)((char *)ptr - (char *)image->mem.ptr);
      }
      break;
    case cudaMemoryTypeManaged: v->dev.device_type = kDLCUDAManaged; break;
    case cudaMemoryTypeHost:
      v->dev.device_type = kDLCUDAHost;
      if (a.hostPointer) v->data = a.hostPointer;
      break;
    default: v->dev.device_type = kDLCPU; break;
  }
  int64_t h = p->height, w = p->width, pe = (int64_t)(p->pitch / es);
  if (samples == 1) {
    v->ndim = 2;
    v->shape[0] = h;
    v->shape[1] = w;
    v->strides[0] = pe;
    v->strides[1] = 1;
  } else {
    v->ndim = 3;
    v->shape[0] = h;
    v->shape[1] = w;
    v->shape[2] = (int64_t)samples;
    v->strides[0] = pe;
    v->strides[1] = (int64_t)samples;
    v->strides[2] = 1;
  }
  *slot = &image->hold;
  *ctx = c;
  return JET_STATUS_OK;
}

/* A record holding the object's memory for a new tensor; NULL with *@st set
 * on failure. */
static export_rec *new_export(jet__alloc_hold **slot, struct jet_context_s *ctx, jet_status *st,
                              const char *fn) {
  export_rec *r = calloc(1, sizeof *r);
  if (!r) {
    *st = jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a DLPack tensor");
    return NULL;
  }
  *st = jet__alloc_hold_add(slot, ctx, &r->hold, fn);
  if (*st != JET_STATUS_OK) {
    free(r);
    return NULL;
  }
  return r;
}

static void delete_legacy(DLManagedTensor *self) {
  if (!self) return;
  export_rec *r = self->manager_ctx;
  jet__alloc_hold_drop(r->hold);
  free(r);
}

static jet_status export_legacy(const view *v, jet__alloc_hold **slot, struct jet_context_s *ctx,
                                DLManagedTensor **out, const char *fn) {
  jet_status st;
  export_rec *r = new_export(slot, ctx, &st, fn);
  if (!r) return st;
  fill_tensor(&r->legacy.dl_tensor, v, r);
  r->legacy.manager_ctx = r;
  r->legacy.deleter = delete_legacy;
  *out = &r->legacy;
  return JET_STATUS_OK;
}

jet_status jet_dlpack_export_buffer(jet_buffer buf, const jet_dl_dtype *dtype,
                                    struct DLManagedTensor **out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  view v;
  jet__alloc_hold **slot = NULL;
  struct jet_context_s *ctx = NULL;
  JET__TRY(buffer_view(buf, dtype, &v, &slot, &ctx, __func__));
  return export_legacy(&v, slot, ctx, out, __func__);
}

jet_status jet_dlpack_export_image(jet_image image, int plane, struct DLManagedTensor **out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  view v;
  jet__alloc_hold **slot = NULL;
  struct jet_context_s *ctx = NULL;
  JET__TRY(image_view(image, plane, &v, &slot, &ctx, __func__));
  return export_legacy(&v, slot, ctx, out, __func__);
}

/* ------------------------------------------------------------ import */

/* A tensor that passed the host checks, reduced to rows. */
typedef struct rows {
  char *base;      /* data + byte_offset */
  size_t es;       /* bytes per element */
  size_t width_el; /* elements per row */
  size_t height;   /* rows */
  size_t pitch_el; /* elements between rows */
  size_t bytes;    /* from base to the end of the last row */
} rows;

static const char *device_type_name(int t) {
  switch (t) {
    case kDLCPU: return "kDLCPU";
    case kDLCUDA: return "kDLCUDA";
    case kDLCUDAHost: return "kDLCUDAHost";
    case kDLCUDAManaged: return "kDLCUDAManaged";
    case kDLOpenCL: return "kDLOpenCL";
    case kDLVulkan: return "kDLVulkan";
    case kDLROCM: return "kDLROCM";
    default: return "a device type jetrt does not use";
  }
}

/* Device, dtype, shape and pointer checks shared by every import; no CUDA. */
static jet_status check_common(const struct jet_context_s *ctx, const DLTensor *t, size_t *es,
                               size_t *count, const char *fn) {
  int dt = (int)t->device.device_type;
  if (dt == kDLCPU)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the tensor is in ordinary CPU memory (kDLCPU), which the GPU cannot use "
                      "in place; register it with jet_host_register or copy it to the device");
  if (dt != kDLCUDA && dt != kDLCUDAHost && dt != kDLCUDAManaged)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "device type %d (%s): jetrt imports kDLCUDA, kDLCUDAManaged and "
                      "kDLCUDAHost tensors",
                      dt, device_type_name(dt));
  int id = (int)t->device.device_id;
  if (dt == kDLCUDA && id != ctx->device)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the tensor is on CUDA device %d, the context's device is %d", id,
                      ctx->device);
  if (dt != kDLCUDA && id != 0 && id != ctx->device)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s tensor with device_id %d: DLPack sets 0 there (or the context's "
                      "device, %d)",
                      device_type_name(dt), id, ctx->device);
  JET__TRY(check_dtype(t->dtype.bits, t->dtype.lanes, "the tensor's", fn));
  *es = (size_t)t->dtype.bits / 8 * t->dtype.lanes;
  if (t->ndim < 0 || t->ndim > MAX_NDIM)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "ndim %d: jetrt takes 0 to %d dimensions",
                      (int)t->ndim, MAX_NDIM);
  if (t->ndim > 0 && !t->shape)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "shape is NULL with ndim %d", (int)t->ndim);
  size_t n = 1;
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] <= 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "shape[%d] is %lld: jetrt objects are never empty", i,
                        (long long)t->shape[i]);
    if ((uint64_t)t->shape[i] > SIZE_MAX || !jet__mul_ok(n, (size_t)t->shape[i], &n))
      return jet__error(JET_STATUS_OVERFLOW, fn, "the element count overflows size_t");
    if (t->strides && t->strides[i] < 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "strides[%d] is %lld: negative strides are refused", i,
                        (long long)t->strides[i]);
  }
  size_t bytes;
  if (!jet__mul_ok(n, *es, &bytes))
    return jet__error(JET_STATUS_OVERFLOW, fn, "the byte count overflows size_t");
  if (!t->data)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "the tensor's data pointer is NULL");
  uintptr_t base;
  if (t->byte_offset > UINTPTR_MAX ||
      __builtin_add_overflow((uintptr_t)t->data, (uintptr_t)t->byte_offset, &base))
    return jet__error(JET_STATUS_OVERFLOW, fn, "data + byte_offset wraps the address space");
  if (base % ((size_t)t->dtype.bits / 8))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "data + byte_offset (%p + %llu) is not aligned to the %u-bit element",
                      t->data, (unsigned long long)t->byte_offset, (unsigned)t->dtype.bits);
  *count = n;
  return JET_STATUS_OK;
}

/* Compact row-major: every extent above 1 has the compact stride. */
static int is_compact(const DLTensor *t) {
  if (!t->strides) return 1;
  int64_t want = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] != 1 && t->strides[i] != want) return 0;
    want *= t->shape[i];
  }
  return 1;
}

static jet_status finish_rows(rows *r, const char *fn) {
  size_t last, pb;
  if (!jet__mul_ok(r->pitch_el, r->es, &pb) || !jet__mul_ok(pb, r->height - 1, &last) ||
      !jet__add_ok(last, r->width_el * r->es, &r->bytes) ||
      (uintptr_t)r->base + r->bytes < (uintptr_t)r->base)
    return jet__error(JET_STATUS_OVERFLOW, fn, "the tensor's extent overflows the address space");
  return JET_STATUS_OK;
}

static jet_status buffer_rows(const struct jet_context_s *ctx, const DLTensor *t, rows *r,
                              const char *fn) {
  size_t count = 0;
  JET__TRY(check_common(ctx, t, &r->es, &count, fn));
  r->base = (char *)t->data + t->byte_offset;
  if (is_compact(t)) {
    r->width_el = t->ndim ? (size_t)t->shape[t->ndim - 1] : 1;
    r->height = count / r->width_el;
    r->pitch_el = r->width_el;
  } else if (t->ndim == 2 && (t->strides[1] == 1 || t->shape[1] == 1) &&
             t->strides[0] >= t->shape[1]) {
    r->width_el = (size_t)t->shape[1];
    r->height = (size_t)t->shape[0];
    r->pitch_el = (size_t)t->strides[0];
  } else {
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the strides describe neither a compact row-major tensor nor pitched "
                      "rows [rows, columns] with unit column stride");
  }
  return finish_rows(r, fn);
}

/* The format implied by dtype and shape (JET_FORMAT_NONE_ import). */
static jet_format infer_format(const DLTensor *t) {
  int code = t->dtype.code, bits = t->dtype.bits;
  int c = t->ndim == 3 ? (int)t->shape[2] : t->ndim == 2 ? 1 : 0;
  if (t->dtype.lanes != 1) return JET_FORMAT_NONE_;
  if (code == kDLUInt && bits == 8)
    return c == 1   ? JET_FORMAT_GRAY8
           : c == 3 ? JET_FORMAT_RGB8
           : c == 4 ? JET_FORMAT_RGBA8
                    : JET_FORMAT_NONE_;
  if (code == kDLUInt && bits == 16) return c == 1 ? JET_FORMAT_GRAY16 : JET_FORMAT_NONE_;
  if (code == kDLFloat && bits == 32)
    return c == 1 ? JET_FORMAT_GRAYF32 : c == 3 ? JET_FORMAT_RGBF32 : JET_FORMAT_NONE_;
  return JET_FORMAT_NONE_;
}

typedef struct image_plan {
  jet__image_layout layout;
  void *ptrs[JET_IMAGE_MAX_PLANES];
  char *base;
  size_t bytes;
} image_plan;

static jet_status image_plan_of(const struct jet_context_s *ctx, const DLTensor *t,
                                jet_format format, image_plan *ip, const char *fn) {
  size_t es = 0, count = 0;
  JET__TRY(check_common(ctx, t, &es, &count, fn));
  if (format == JET_FORMAT_NONE_) {
    format = infer_format(t);
    if (format == JET_FORMAT_NONE_)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "no image format fits a %d-dimensional tensor of dtype (code %u, %u "
                        "bits, %u lanes); pass the format",
                        (int)t->ndim, (unsigned)t->dtype.code, (unsigned)t->dtype.bits,
                        (unsigned)t->dtype.lanes);
  }
  const jet_format_desc *f = jet__format(format);
  if (!f) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown format %d", (int)format);
  int planar = format == JET_FORMAT_RGBF32P || format == JET_FORMAT_RGBF16P;
  if (f->planes > 1 && !planar)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s has %d planes in separate layouts; import each plane as its own image "
                      "(GRAY8 for a Y plane)",
                      f->name, f->planes);
  int is_float = f->elem == JET_ELEM_F32 || f->elem == JET_ELEM_F16;
  unsigned want_code = is_float ? kDLFloat : kDLUInt;
  if (t->dtype.code != want_code || (size_t)t->dtype.bits != (size_t)f->elem_size * 8 ||
      t->dtype.lanes != 1)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "dtype (code %u, %u bits, %u lanes) is not %s's sample type (%s%d, 1 lane)",
                      (unsigned)t->dtype.code, (unsigned)t->dtype.bits, (unsigned)t->dtype.lanes,
                      f->name, is_float ? "float" : "uint", f->elem_size * 8);
  int64_t s_pl = 0, s_row, s_px, s_c, h, w, c;
  int64_t samples = planar ? 1 : f->bytes_per_pixel[0] / f->elem_size;
  if (planar) {
    if (t->ndim != 3 || t->shape[0] != 3)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s takes a [3, height, width] tensor",
                        f->name);
    h = t->shape[1];
    w = t->shape[2];
    c = 1;
    s_pl = t->strides ? t->strides[0] : h * w;
    s_row = t->strides ? t->strides[1] : w;
    s_px = t->strides ? t->strides[2] : 1;
    s_c = 1;
  } else {
    int ok = (t->ndim == 3 && t->shape[2] == samples) || (samples == 1 && t->ndim == 2);
    if (!ok)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "%s takes a [height, width%s] tensor; this one has %d dimensions%s",
                        f->name, samples == 1 ? "] or [height, width, 1" : ", samples]",
                        (int)t->ndim, t->ndim == 3 ? " with a different sample count" : "");
    h = t->shape[0];
    w = t->shape[1];
    c = samples;
    s_row = t->strides ? t->strides[0] : w * c;
    s_px = t->strides ? t->strides[1] : c;
    s_c = (t->strides && t->ndim == 3) ? t->strides[2] : 1;
  }
  if (h > INT_MAX || w > INT_MAX)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%lld x %lld is larger than an image can be",
                      (long long)w, (long long)h);
  if ((c > 1 && s_c != 1) || (w > 1 && s_px != c))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the samples of a row must be packed (sample stride 1, pixel stride %lld); "
                      "the tensor's are %lld and %lld",
                      (long long)c, (long long)s_c, (long long)s_px);
  if (h == 1 && s_row < w * c) s_row = w * c; /* a single row's stride says nothing */
  if (s_row < w * c)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "row stride %lld is below the row's %lld samples", (long long)s_row,
                      (long long)(w * c));
  size_t pitches[JET_IMAGE_MAX_PLANES];
  char *base = (char *)t->data + t->byte_offset;
  int planes = planar ? 3 : 1;
  for (int i = 0; i < planes; i++) {
    pitches[i] = (size_t)s_row * es;
    ip->ptrs[i] = base + (size_t)i * (size_t)s_pl * es;
  }
  JET__TRY(jet__image_layout_compute(format, (int)w, (int)h, pitches, 1, &ip->layout, fn));
  JET__TRY(jet__image_planes_check(&ip->layout, ip->ptrs, fn));
  ip->base = base;
  size_t end = 0;
  for (int i = 0; i < planes; i++) {
    size_t e = (size_t)((char *)ip->ptrs[i] - base) + ip->layout.plane[i].extent;
    if (e > end) end = e;
  }
  ip->bytes = end;
  return JET_STATUS_OK;
}

/* The CUDA side of an import: the memory is what the device type says, on
 * the context's device. *@dev receives the device-side address. */
static jet_status check_memory(struct jet_context_s *ctx, int dt, void *base, void **dev,
                               const char *fn) {
  JET__TRY(jet__ctx_activate(ctx, fn));
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, base);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaPointerGetAttributes", NULL, "tensor data %p", base);
  *dev = base;
  int ok;
  switch (dt) {
    case kDLCUDA:
      ok = (a.type == cudaMemoryTypeDevice && a.device == ctx->device) ||
           a.type == cudaMemoryTypeManaged;
      break;
    case kDLCUDAManaged: ok = a.type == cudaMemoryTypeManaged; break;
    default: ok = a.type == cudaMemoryTypeHost; break;
  }
  if (!ok)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the tensor says %s, but CUDA reports its data %p as %s (device %d)",
                      device_type_name(dt), base,
                      a.type == cudaMemoryTypeDevice    ? "device memory"
                      : a.type == cudaMemoryTypeManaged ? "managed memory"
                      : a.type == cudaMemoryTypeHost    ? "pinned host memory"
                                                        : "unregistered host memory",
                      a.device);
  if (dt == kDLCUDAHost) {
    *dev = NULL;
    if (a.devicePointer) *dev = a.devicePointer;
  }
  return JET_STATUS_OK;
}

static jet_status import_buffer(struct jet_context_s *ctx, const DLTensor *t, void (*cb)(void *),
                                void *arg, jet_buffer *out, const char *fn) {
  rows r = {0};
  JET__TRY(buffer_rows(ctx, t, &r, fn));
  int dt = (int)t->device.device_type;
  void *dev = NULL;
  JET__TRY(check_memory(ctx, dt, r.base, &dev, fn));
  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a buffer");
  switch (dt) {
    case kDLCUDA:
      b->kind = JET_MEMORY_DEVICE;
      b->dev = r.base;
      break;
    case kDLCUDAManaged:
      b->kind = JET_MEMORY_MANAGED;
      b->dev = b->host = r.base;
      break;
    default:
      b->kind = dev ? JET_MEMORY_HOST_MAPPED : JET_MEMORY_HOST_PINNED;
      b->host = r.base;
      b->dev = dev;
      break;
  }
  b->requested = b->kind;
  b->width = r.width_el * r.es;
  b->height = r.height;
  b->depth = 1;
  b->pitch = r.pitch_el * r.es;
  b->size = r.bytes;
  if (b->height > 1 && b->pitch != b->width) b->flags = JET_MEM_PITCHED;
  /* The tensor is taken only once the buffer exists: a failed registration
   * must leave it, deleter and all, with the caller. */
  b->mem = jet__alloc_of(JET__ALLOC_NONE, -1, NULL, 0);
  JET__TRY(jet__buffer_register(ctx, b, out, fn));
  b->mem = jet__alloc_external(dt == kDLCUDA ? ctx->device : -1, r.base, r.bytes, cb, arg);
  return JET_STATUS_OK;
}

static jet_status import_image(struct jet_context_s *ctx, const DLTensor *t, jet_format format,
                               void (*cb)(void *), void *arg, jet_image *out, const char *fn) {
  image_plan ip;
  JET__TRY(image_plan_of(ctx, t, format, &ip, fn));
  int dt = (int)t->device.device_type;
  void *dev = NULL;
  JET__TRY(check_memory(ctx, dt, ip.base, &dev, fn));
  if (!dev)
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, NULL, NULL, 0,
                             "create the context with JET_CONTEXT_MAP_HOST, or copy the tensor "
                             "to the device",
                             "the pinned host tensor has no device mapping, which an image needs");
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < ip.layout.planes; i++) ptrs[i] = (char *)dev + ((char *)ip.ptrs[i] - ip.base);
  jet__alloc mem =
      jet__alloc_external(dt == kDLCUDA ? ctx->device : -1, ip.base, ip.bytes, cb, arg);
  jet_image_memory kind =
      dt == kDLCUDAHost ? JET_IMAGE_MEMORY_MAPPED_HOST : JET_IMAGE_MEMORY_DEVICE;
  return jet__image_new(ctx, &ip.layout, kind, ptrs, &mem, 0, out, fn);
}

static void call_legacy_deleter(void *arg) {
  DLManagedTensor *t = arg;
  if (t->deleter) t->deleter(t);
}

jet_status jet_dlpack_import_buffer(jet_context ctx, struct DLManagedTensor *tensor,
                                    jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(tensor, "tensor is NULL");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  return import_buffer(ctx, &tensor->dl_tensor, call_legacy_deleter, tensor, out, __func__);
}

jet_status jet_dlpack_import_image(jet_context ctx, struct DLManagedTensor *tensor,
                                   jet_format format, jet_image *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(tensor, "tensor is NULL");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  return import_image(ctx, &tensor->dl_tensor, format, call_legacy_deleter, tensor, out, __func__);
}

/* ------------------------------------------------------------ DLPack 1.x */

#if HAVE_V1

static void delete_versioned(DLManagedTensorVersioned *self) {
  if (!self) return;
  export_rec *r = self->manager_ctx;
  jet__alloc_hold_drop(r->hold);
  free(r);
}

static jet_status export_versioned(const view *v, jet__alloc_hold **slot, struct jet_context_s *ctx,
                                   DLManagedTensorVersioned **out, const char *fn) {
  jet_status st;
  export_rec *r = new_export(slot, ctx, &st, fn);
  if (!r) return st;
  fill_tensor(&r->v.dl_tensor, v, r);
  r->v.version.major = DLPACK_MAJOR_VERSION;
  r->v.version.minor = DLPACK_MINOR_VERSION;
  r->v.manager_ctx = r;
  r->v.deleter = delete_versioned;
  r->v.flags = 0;
  *out = &r->v;
  return JET_STATUS_OK;
}

static void call_versioned_deleter(void *arg) {
  DLManagedTensorVersioned *t = arg;
  if (t->deleter) t->deleter(t);
}

static jet_status check_versioned(const DLManagedTensorVersioned *t, const char *fn) {
  if (t->version.major != DLPACK_MAJOR_VERSION)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "DLPack version %u.%u: jetrt reads major version %d (call the tensor's "
                      "deleter, DLPack says that is safe)",
                      (unsigned)t->version.major, (unsigned)t->version.minor, DLPACK_MAJOR_VERSION);
  if (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and jetrt cannot "
                      "keep its calls from writing it; export a writable tensor or a copy");
  return JET_STATUS_OK;
}

jet_status jet_dlpack_export_buffer_versioned(jet_buffer buf, const jet_dl_dtype *dtype,
                                              struct DLManagedTensorVersioned **out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  view v;
  jet__alloc_hold **slot = NULL;
  struct jet_context_s *ctx = NULL;
  JET__TRY(buffer_view(buf, dtype, &v, &slot, &ctx, __func__));
  return export_versioned(&v, slot, ctx, out, __func__);
}

jet_status jet_dlpack_export_image_versioned(jet_image image, int plane,
                                             struct DLManagedTensorVersioned **out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  view v;
  jet__alloc_hold **slot = NULL;
  struct jet_context_s *ctx = NULL;
  JET__TRY(image_view(image, plane, &v, &slot, &ctx, __func__));
  return export_versioned(&v, slot, ctx, out, __func__);
}

jet_status jet_dlpack_import_buffer_versioned(jet_context ctx,
                                              struct DLManagedTensorVersioned *tensor,
                                              jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(tensor, "tensor is NULL");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(check_versioned(tensor, __func__));
  return import_buffer(ctx, &tensor->dl_tensor, call_versioned_deleter, tensor, out, __func__);
}

jet_status jet_dlpack_import_image_versioned(jet_context ctx,
                                             struct DLManagedTensorVersioned *tensor,
                                             jet_format format, jet_image *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(tensor, "tensor is NULL");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(check_versioned(tensor, __func__));
  return import_image(ctx, &tensor->dl_tensor, format, call_versioned_deleter, tensor, out,
                      __func__);
}

#else /* a 0.x header: no versioned struct to fill or read */

static jet_status no_v1(const char *fn) {
  return jet__error(JET_STATUS_NOT_BUILT_IN, fn,
                    "jetrt was built against a DLPack 0.x header (version %d), which has no "
                    "DLManagedTensorVersioned; use the unversioned call or rebuild jetrt with a "
                    "DLPack 1.x header",
                    DLPACK_VERSION);
}

jet_status jet_dlpack_export_buffer_versioned(jet_buffer buf, const jet_dl_dtype *dtype,
                                              struct DLManagedTensorVersioned **out) {
  (void)buf;
  (void)dtype;
  if (out) *out = NULL;
  return no_v1(__func__);
}

jet_status jet_dlpack_export_image_versioned(jet_image image, int plane,
                                             struct DLManagedTensorVersioned **out) {
  (void)image;
  (void)plane;
  if (out) *out = NULL;
  return no_v1(__func__);
}

jet_status jet_dlpack_import_buffer_versioned(jet_context ctx,
                                              struct DLManagedTensorVersioned *tensor,
                                              jet_buffer *out) {
  (void)ctx;
  (void)tensor;
  if (out) *out = NULL;
  return no_v1(__func__);
}

jet_status jet_dlpack_import_image_versioned(jet_context ctx,
                                             struct DLManagedTensorVersioned *tensor,
                                             jet_format format, jet_image *out) {
  (void)ctx;
  (void)tensor;
  (void)format;
  if (out) *out = NULL;
  return no_v1(__func__);
}

#endif /* HAVE_V1 */

#endif /* JET_HAVE_DLPACK */
