/*
 * The format table, plane layout and the format/overlap checks of the image
 * operations. Nothing here calls CUDA, so all of it is testable on the host.
 */
#include <string.h>

#include "image_internal.h"

#define ELEM_SIZE(el) ((el) == JET_ELEM_U8 ? 1 : (el) == JET_ELEM_U16 || (el) == JET_ELEM_F16 ? 2 : 4)
static const jet_format_desc formats[JET_FORMAT_COUNT_] = {
#define ROW(name, np, b0, b1, b2, sx, sy, ch, el, text)                                         \
  [JET_FORMAT_##name] = {#name, text, np, {b0, b1, b2}, sx, sy, ch, JET_ELEM_##el,              \
                         ELEM_SIZE(JET_ELEM_##el)},
    JET_FORMAT_MAP(ROW)
#undef ROW
};
#undef ELEM_SIZE

const jet_format_desc *jet__format(jet_format format) {
  if ((int)format <= 0 || (int)format >= JET_FORMAT_COUNT_) return NULL;
  return &formats[format];
}

const char *jet_format_name(jet_format format) {
  const jet_format_desc *d = jet__format(format);
  return d ? d->name : "UNKNOWN";
}

jet_status jet_format_info(jet_format format, jet_format_desc *desc) {
  JET__ARG(desc, "desc is NULL");
  const jet_format_desc *d = jet__format(format);
  JET__ARG(d, "unknown format %d", (int)format);
  *desc = *d;
  return JET_STATUS_OK;
}

static int round_up_ok(size_t v, size_t align, size_t *out) {
  size_t t;
  if (!jet__add_ok(v, align - 1, &t)) return 0;
  *out = t / align * align;
  return 1;
}

jet_status jet__image_layout_compute(jet_format format, int width, int height,
                                     const size_t *pitches, size_t align, jet__image_layout *out,
                                     const char *fn) {
  const jet_format_desc *d = jet__format(format);
  if (!d) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown format %d", (int)format);
  if (width <= 0 || height <= 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s image size %dx%d: both must be > 0",
                      d->name, width, height);
  if ((d->sub_x && (width & 1)) || (d->sub_y && (height & 1)))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s image size %dx%d: %s needs an even %s", d->name, width, height,
                      d->sub_y ? "4:2:0" : "4:2:2",
                      d->sub_y ? "width and height" : "width");
  if (!pitches && (align == 0 || (align & (align - 1)) || align % (size_t)d->elem_size))
    return jet__error(JET_STATUS_INTERNAL, fn, "bad pitch alignment %zu", align);

  memset(out, 0, sizeof *out);
  out->format = format;
  out->width = width;
  out->height = height;
  out->planes = d->planes;
  out->elem_size = d->elem_size;
  size_t at = 0;
  for (int i = 0; i < d->planes; i++) {
    jet__plane_layout *p = &out->plane[i];
    p->width = i ? width >> d->sub_x : width;
    p->height = i ? height >> d->sub_y : height;
    if (!jet__mul_ok((size_t)p->width, (size_t)d->bytes_per_pixel[i], &p->row_bytes))
      return jet__error(JET_STATUS_OVERFLOW, fn, "%s %dx%d: plane %d row bytes overflow", d->name,
                        width, height, i);
    if (pitches) {
      p->pitch = pitches[i];
      if (p->pitch < p->row_bytes)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s %dx%d: plane %d pitch %zu is smaller than its row bytes %zu",
                          d->name, width, height, i, p->pitch, p->row_bytes);
      if (p->pitch % (size_t)d->elem_size)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s: plane %d pitch %zu is not a multiple of the element size %d",
                          d->name, i, p->pitch, d->elem_size);
    } else if (!round_up_ok(p->row_bytes, align, &p->pitch)) {
      return jet__error(JET_STATUS_OVERFLOW, fn, "%s %dx%d: plane %d pitch overflows", d->name,
                        width, height, i);
    }
    size_t body;
    if (!jet__mul_ok(p->pitch, (size_t)(p->height - 1), &body) ||
        !jet__add_ok(body, p->row_bytes, &p->extent))
      return jet__error(JET_STATUS_OVERFLOW, fn,
                        "%s %dx%d: plane %d spans more than size_t holds (pitch %zu)", d->name,
                        width, height, i, p->pitch);
    if (!pitches) {
      size_t end;
      if (!round_up_ok(at, align, &p->offset) || !jet__add_ok(p->offset, p->extent, &end))
        return jet__error(JET_STATUS_OVERFLOW, fn, "%s %dx%d: image bytes overflow", d->name,
                          width, height);
      at = end;
    }
  }
  out->total_bytes = at;
  return JET_STATUS_OK;
}

jet_status jet__image_planes_check(const jet__image_layout *l, void *const *ptrs, const char *fn) {
  const char *name = jet_format_name(l->format);
  for (int i = 0; i < l->planes; i++) {
    uintptr_t p = (uintptr_t)ptrs[i];
    if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s: plane %d pointer is NULL", name, i);
    if (p % (uintptr_t)l->elem_size)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "%s: plane %d pointer %p is not aligned to the element size %d", name, i,
                        ptrs[i], l->elem_size);
    if (l->plane[i].extent > UINTPTR_MAX - p)
      return jet__error(JET_STATUS_OVERFLOW, fn,
                        "%s: plane %d at %p spanning %zu bytes wraps the address space", name, i,
                        ptrs[i], l->plane[i].extent);
  }
  for (int i = 0; i < l->planes; i++)
    for (int j = i + 1; j < l->planes; j++) {
      uintptr_t a = (uintptr_t)ptrs[i], b = (uintptr_t)ptrs[j];
      if (a < b + l->plane[j].extent && b < a + l->plane[i].extent)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "%s: planes %d [%p, +%zu) and %d [%p, +%zu) overlap", name, i, ptrs[i],
                          l->plane[i].extent, j, ptrs[j], l->plane[j].extent);
    }
  return JET_STATUS_OK;
}

int jet__image_overlaps(const jet__image_layout *a, void *const *pa, const jet__image_layout *b,
                        void *const *pb) {
  for (int i = 0; i < a->planes; i++)
    for (int j = 0; j < b->planes; j++) {
      uintptr_t x = (uintptr_t)pa[i], y = (uintptr_t)pb[j];
      if (x < y + b->plane[j].extent && y < x + a->plane[i].extent) return 1;
    }
  return 0;
}

/* ------------------------------------------------------------ format pairs */

const char *jet__image_op_name(jet__image_op op) {
  static const char *const names[JET__IMAGE_OP_COUNT_] = {
      [JET__IMAGE_OP_CONVERT] = "colour conversion", [JET__IMAGE_OP_RESIZE] = "resize",
      [JET__IMAGE_OP_FILTER] = "filter",             [JET__IMAGE_OP_REMAP] = "remap",
      [JET__IMAGE_OP_FLIP] = "flip",                 [JET__IMAGE_OP_TRANSPOSE] = "transpose",
      [JET__IMAGE_OP_DNN] = "DNN preprocess",        [JET__IMAGE_OP_REDUCE] = "reduction",
      [JET__IMAGE_OP_HISTOGRAM] = "histogram"};
  return ((int)op > 0 && (int)op < JET__IMAGE_OP_COUNT_) ? names[op] : "unknown operation";
}

#define BIT(f) (1u << JET_FORMAT_##f)
static const unsigned yuv_set = BIT(NV12) | BIT(NV21) | BIT(I420) | BIT(YUYV) | BIT(UYVY);
static const unsigned rgb_gray_set = BIT(RGB8) | BIT(BGR8) | BIT(RGBA8) | BIT(BGRA8) | BIT(GRAY8);
static const unsigned pixel_set =
    BIT(GRAY8) | BIT(RGB8) | BIT(BGR8) | BIT(RGBA8) | BIT(BGRA8) | BIT(GRAYF32) | BIT(RGBF32);
static const unsigned packed_set = BIT(GRAY8) | BIT(GRAY16) | BIT(GRAYF32) | BIT(RGB8) |
                                   BIT(BGR8) | BIT(RGBA8) | BIT(BGRA8) | BIT(RGBF32);

static int in(unsigned set, jet_format f) { return (set >> f) & 1u; }

static int convert_ok(jet_format s, jet_format d) {
  if (in(yuv_set, s)) return in(rgb_gray_set, d);
  if (s == JET_FORMAT_RGBA8 || s == JET_FORMAT_RGB8)
    if (d == JET_FORMAT_NV12 || d == JET_FORMAT_I420) return 1;
  return in(rgb_gray_set, s) && in(rgb_gray_set, d) && s != d;
}

jet_status jet__image_formats_fit(jet__image_op op, jet_format src, int sw, int sh,
                                  jet_format dst, int dw, int dh, const char *fn) {
  const char *on = jet__image_op_name(op), *sn = jet_format_name(src), *dn = jet_format_name(dst);
  if (!jet__format(src))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "format mismatch: %s of an unknown format %d",
                      on, (int)src);
  int source_only = op == JET__IMAGE_OP_REDUCE || op == JET__IMAGE_OP_HISTOGRAM;
  if (!source_only && !jet__format(dst))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "format mismatch: %s into an unknown format %d", on, (int)dst);
  int fits, same_size = 0, swapped = 0;
  switch (op) {
    case JET__IMAGE_OP_CONVERT: fits = convert_ok(src, dst); same_size = 1; break;
    case JET__IMAGE_OP_RESIZE: fits = src == dst && in(pixel_set, src); break;
    case JET__IMAGE_OP_FILTER: fits = src == dst && in(pixel_set, src); same_size = 1; break;
    case JET__IMAGE_OP_REMAP: fits = src == dst && in(pixel_set, src); break;
    case JET__IMAGE_OP_FLIP: fits = src == dst && in(packed_set, src); same_size = 1; break;
    case JET__IMAGE_OP_TRANSPOSE: fits = src == dst && in(packed_set, src); swapped = 1; break;
    case JET__IMAGE_OP_DNN:
      fits = (src == JET_FORMAT_NV12 || src == JET_FORMAT_RGBA8) &&
             (dst == JET_FORMAT_RGBF32P || dst == JET_FORMAT_RGBF16P);
      break;
    case JET__IMAGE_OP_REDUCE: fits = in(packed_set, src); break;
    case JET__IMAGE_OP_HISTOGRAM: fits = src == JET_FORMAT_GRAY8; break;
    default:
      return jet__error(JET_STATUS_INTERNAL, fn, "unknown image operation %d", (int)op);
  }
  if (!fits) {
    if (source_only)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "format mismatch: no %s of %s images",
                        on, sn);
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "format mismatch: no %s from %s to %s", on,
                      sn, dn);
  }
  if (same_size && (sw != dw || sh != dh))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "size mismatch: %s needs equal sizes, source %dx%d, destination %dx%d", on,
                      sw, sh, dw, dh);
  if (swapped && (sw != dh || sh != dw))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "size mismatch: %s of %dx%d needs a %dx%d destination, not %dx%d", on, sw,
                      sh, sh, sw, dw, dh);
  return JET_STATUS_OK;
}
