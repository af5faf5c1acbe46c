/*
 * Texture and surface objects over arrays, linear and pitch-2D memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "texture_internal.h"
#include "../memory/memory_internal.h"
#include "../image/image_internal.h"

typedef enum mem_kind { MEM_ARRAY, MEM_MIPMAP, MEM_LINEAR, MEM_PITCH2D } mem_kind;

static const char *mem_name(mem_kind k) {
  switch (k) {
    case MEM_ARRAY: return "an array";
    case MEM_MIPMAP: return "a mipmapped array";
    case MEM_LINEAR: return "linear memory";
    case MEM_PITCH2D: return "pitch-2D memory";
  }
  return "?";
}

static const char *type_name(jet_channel_type t) {
  static const char *const n[] = {"?", "S8", "U8", "S16", "U16", "S32", "U32", "F16", "F32"};
  return (t >= JET_CHANNEL_S8 && t <= JET_CHANNEL_F32) ? n[t] : "?";
}

/* The plain checks: enum values and finite numbers. */
static jet_status check_desc_values(const jet_texture_desc *d, const char *fn) {
  for (int i = 0; i < 3; i++)
    JET__ARG(d->address[i] >= JET_ADDRESS_CLAMP && d->address[i] <= JET_ADDRESS_BORDER,
             "address[%d]: unknown address mode %d", i, (int)d->address[i]);
  JET__ARG(d->filter == JET_FILTER_POINT || d->filter == JET_FILTER_LINEAR,
           "unknown filter %d", (int)d->filter);
  JET__ARG(d->mipmap_filter == JET_FILTER_POINT || d->mipmap_filter == JET_FILTER_LINEAR,
           "unknown mipmap_filter %d", (int)d->mipmap_filter);
  JET__ARG(d->read_mode == JET_READ_ELEMENT || d->read_mode == JET_READ_NORMALIZED_FLOAT,
           "unknown read mode %d", (int)d->read_mode);
  for (int i = 0; i < 4; i++)
    JET__ARG(isfinite(d->border_color[i]), "border_color[%d] is not finite", i);
  JET__ARG(isfinite(d->mip_bias) && isfinite(d->min_mip_level) && isfinite(d->max_mip_level),
           "mip_bias, min_mip_level and max_mip_level must be finite");
  JET__ARG(d->max_anisotropy <= 16, "max_anisotropy %u is above 16", d->max_anisotropy);
  (void)fn;
  return JET_STATUS_OK;
}

/* The rules that depend on the memory and its format. @dims: dimensions that
 * take an address mode; @a: the array, when there is one. */
static jet_status check_desc(const jet_texture_desc *d, jet_texel_format f, mem_kind mk,
                             const struct jet_array_s *a, int dims, const char *fn) {
  const char *m = mem_name(mk);
  int is_float = f.type == JET_CHANNEL_F16 || f.type == JET_CHANNEL_F32;
  int small_int = !is_float && f.type != JET_CHANNEL_S32 && f.type != JET_CHANNEL_U32;
  if (d->read_mode == JET_READ_NORMALIZED_FLOAT && !small_int)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_READ_NORMALIZED_FLOAT applies to 8 and 16-bit integer formats only, "
                      "not %s",
                      type_name(f.type));
  int float_result = is_float || d->read_mode == JET_READ_NORMALIZED_FLOAT;
  if (d->filter == JET_FILTER_LINEAR && !float_result)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_FILTER_LINEAR needs a float result: an F16/F32 format or an 8/16-bit "
                      "integer read as JET_READ_NORMALIZED_FLOAT (format %s x %d, read mode %s)",
                      type_name(f.type), f.channels,
                      d->read_mode == JET_READ_ELEMENT ? "element" : "normalized float");
  if (d->srgb && !(f.type == JET_CHANNEL_U8 && d->read_mode == JET_READ_NORMALIZED_FLOAT))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "srgb needs a U8 format read as JET_READ_NORMALIZED_FLOAT (format %s)",
                      type_name(f.type));
  for (int i = 0; i < dims; i++) {
    jet_address_mode am = d->address[i];
    if ((am == JET_ADDRESS_WRAP || am == JET_ADDRESS_MIRROR) && !d->normalized_coords)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "address[%d]: %s needs normalized_coords (CUDA clamps instead with "
                        "unnormalised coordinates)",
                        i, am == JET_ADDRESS_WRAP ? "JET_ADDRESS_WRAP" : "JET_ADDRESS_MIRROR");
  }
  if (mk == MEM_LINEAR) {
    if (d->address[0] != JET_ADDRESS_CLAMP)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "linear memory (tex1Dfetch) has no address modes: leave address[0] at "
                        "JET_ADDRESS_CLAMP (reads outside return 0)");
    if (d->filter != JET_FILTER_POINT)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "linear memory (tex1Dfetch) is not filtered: JET_FILTER_LINEAR refused");
    if (d->normalized_coords)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "linear memory (tex1Dfetch) takes integer indices: normalized_coords "
                        "refused");
  }
  if (d->max_anisotropy > 1 && mk != MEM_ARRAY && mk != MEM_MIPMAP)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "max_anisotropy %u applies to arrays only, not %s", d->max_anisotropy, m);
  int mip_set = d->mipmap_filter != JET_FILTER_POINT || d->mip_bias != 0.0f ||
                d->min_mip_level != 0.0f || d->max_mip_level != 0.0f;
  if (mip_set && mk != MEM_MIPMAP)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "mipmap settings (mipmap_filter, mip_bias, min/max_mip_level) apply to "
                      "mipmapped arrays only, not %s",
                      m);
  if (mk == MEM_MIPMAP) {
    if (d->mipmap_filter == JET_FILTER_LINEAR && !float_result)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "mipmap_filter JET_FILTER_LINEAR needs a float result, as "
                        "JET_FILTER_LINEAR does (format %s)",
                        type_name(f.type));
    float top = (float)(a->desc.levels - 1);
    if (d->min_mip_level < 0.0f || d->max_mip_level < d->min_mip_level ||
        d->max_mip_level > top)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "mip level clamp [%g, %g] is not inside [0, %g] (levels - 1) or is "
                        "reversed",
                        (double)d->min_mip_level, (double)d->max_mip_level, (double)top);
  }
  if (d->seamless_cubemap &&
      !(a && (a->desc.kind == JET_ARRAY_CUBEMAP || a->desc.kind == JET_ARRAY_CUBEMAP_LAYERED)))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "seamless_cubemap needs a cubemap array, not %s", m);
  return JET_STATUS_OK;
}

struct cudaTextureDesc jet__texture_cuda_desc(const jet_texture_desc *d,
                                              const struct jet_array_s *a, int dims) {
  struct cudaTextureDesc t;
  memset(&t, 0, sizeof t);
  static const enum cudaTextureAddressMode am[] = {cudaAddressModeClamp, cudaAddressModeWrap,
                                                   cudaAddressModeMirror, cudaAddressModeBorder};
  /* Unused dimensions clamp: the GPU samples a 1D array as a 2D one of height
   * 1 at y = 0, so a BORDER y mode would blend half the border colour in. */
  for (int i = 0; i < 3; i++)
    t.addressMode[i] = i < dims ? am[d->address[i]] : cudaAddressModeClamp;
  t.filterMode = d->filter == JET_FILTER_LINEAR ? cudaFilterModeLinear : cudaFilterModePoint;
  t.readMode = d->read_mode == JET_READ_NORMALIZED_FLOAT ? cudaReadModeNormalizedFloat
                                                         : cudaReadModeElementType;
  t.sRGB = d->srgb ? 1 : 0;
  memcpy(t.borderColor, d->border_color, sizeof t.borderColor);
  t.normalizedCoords = d->normalized_coords ? 1 : 0;
  t.maxAnisotropy = d->max_anisotropy ? d->max_anisotropy : 1;
  t.mipmapFilterMode =
      d->mipmap_filter == JET_FILTER_LINEAR ? cudaFilterModeLinear : cudaFilterModePoint;
  t.mipmapLevelBias = d->mip_bias;
  t.minMipmapLevelClamp = d->min_mip_level;
  /* CUDA reads a max clamp of 0 as "level 0 only"; ours means the whole chain. */
  t.maxMipmapLevelClamp = d->max_mip_level;
  if (a && a->mip && d->min_mip_level == 0.0f && d->max_mip_level == 0.0f)
    t.maxMipmapLevelClamp = (float)(a->desc.levels - 1);
  t.seamlessCubemap = d->seamless_cubemap ? 1 : 0;
  return t;
}

static jet_status new_texture(struct jet_context_s *ctx, const struct cudaResourceDesc *rd,
                              const jet_texture_desc *d, int dims, struct jet_array_s *a,
                              jet_texture *out, const char *what, const char *fn) {
  JET__TRY(jet__ctx_activate(ctx, fn));
  struct cudaTextureDesc td = jet__texture_cuda_desc(d, a, dims);
  struct jet_texture_s *t = calloc(1, sizeof *t);
  if (!t) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a texture");
  cudaError_t e = cudaCreateTextureObject(&t->obj, rd, &td, NULL);
  if (e != cudaSuccess) {
    free(t);
    return jet__cuda_error(e, fn, "cudaCreateTextureObject", NULL, "texture over %s", what);
  }
  jet_status st = jet__handle_register(&t->h, JET__H_TEXTURE, ctx, fn);
  if (st != JET_STATUS_OK) {
    (void)cudaDestroyTextureObject(t->obj);
    free(t);
    return st;
  }
  t->array = a;
  if (a) atomic_fetch_add(&a->users, 1);
  *out = t;
  return JET_STATUS_OK;
}

static int array_dims(jet_array_kind k) {
  switch (k) {
    case JET_ARRAY_1D:
    case JET_ARRAY_1D_LAYERED: return 1;
    case JET_ARRAY_2D:
    case JET_ARRAY_2D_LAYERED: return 2;
    default: return 3; /* 3D, and cubemap direction vectors */
  }
}

jet_status jet_texture_create_array(jet_array arr, const jet_texture_desc *desc,
                                    jet_texture *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  JET__TRY(check_desc_values(desc, __func__));
  JET__TRY(jet__handle_check(arr, JET__H_ARRAY, __func__, "arr"));
  mem_kind mk = arr->mip ? MEM_MIPMAP : MEM_ARRAY;
  int dims = array_dims(arr->desc.kind);
  JET__TRY(check_desc(desc, arr->desc.format, mk, arr, dims, __func__));
  struct cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  if (arr->mip) {
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = arr->mip;
  } else {
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr->arr;
  }
  return new_texture(arr->h.ctx, &rd, desc, dims, arr, out, mem_name(mk), __func__);
}

/* Device texture alignments (cudaDevAttrTextureAlignment / TexturePitchAlignment). */
static jet_status alignments(const struct jet_context_s *ctx, size_t *base, size_t *pitch,
                             const char *fn) {
  int b = 0, p = 0;
  cudaError_t e = cudaDeviceGetAttribute(&b, cudaDevAttrTextureAlignment, ctx->device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&p, cudaDevAttrTexturePitchAlignment, ctx->device);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaDeviceGetAttribute", NULL, NULL);
  *base = b > 0 ? (size_t)b : 1;
  *pitch = p > 0 ? (size_t)p : 1;
  return JET_STATUS_OK;
}

static jet_status check_fmt(jet_texel_format f, size_t *texel, const char *fn) {
  *texel = jet__texel_bytes(f);
  if (!*texel)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "no texel format of channel type %d with %d channels (types 1..8, "
                      "channels 1, 2 or 4)",
                      (int)f.type, f.channels);
  return JET_STATUS_OK;
}

jet_status jet_texture_create_linear(jet_buffer buf, size_t offset, size_t count,
                                     jet_texel_format fmt, const jet_texture_desc *desc,
                                     jet_texture *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  JET__ARG(count > 0, "count is 0");
  size_t texel, bytes, end;
  JET__TRY(check_fmt(fmt, &texel, __func__));
  JET__TRY(check_desc_values(desc, __func__));
  JET__TRY(check_desc(desc, fmt, MEM_LINEAR, NULL, 1, __func__));
  if (!jet__mul_ok(count, texel, &bytes) || !jet__add_ok(offset, bytes, &end))
    return jet__error(JET_STATUS_OVERFLOW, __func__,
                      "offset %zu + %zu texels of %zu bytes overflows", offset, count, texel);
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  JET__ARG(buf->dev, "the buffer has no device pointer (a HOST_PINNED buffer: use HOST_MAPPED)");
  JET__ARG(end <= buf->size, "bytes [%zu, %zu) exceed the buffer's %zu bytes", offset, end,
           buf->size);
  struct jet_context_s *ctx = buf->h.ctx;
  JET__TRY(jet__ctx_activate(ctx, __func__));
  size_t align = 1, palign = 1;
  JET__TRY(alignments(ctx, &align, &palign, __func__));
  char *p = (char *)buf->dev + offset;
  JET__ARG((uintptr_t)p % align == 0,
           "device address %p (offset %zu) is not aligned to the texture alignment %zu", (void *)p,
           offset, align);
  struct cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = p;
  rd.res.linear.desc = jet__channel_desc(fmt);
  rd.res.linear.sizeInBytes = bytes;
  return new_texture(ctx, &rd, desc, 1, NULL, out, "linear memory", __func__);
}

static jet_status pitch2d(struct jet_context_s *ctx, char *p, size_t width, size_t height,
                          size_t pitch, jet_texel_format fmt, const jet_texture_desc *desc,
                          jet_texture *out, const char *what, const char *fn) {
  JET__TRY(jet__ctx_activate(ctx, fn));
  size_t align = 1, palign = 1;
  JET__TRY(alignments(ctx, &align, &palign, fn));
  if ((uintptr_t)p % align != 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s: device address %p is not aligned to the texture alignment %zu", what,
                      (void *)p, align);
  if (pitch % palign != 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s: pitch %zu is not a multiple of the texture pitch alignment %zu", what,
                      pitch, palign);
  struct cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = p;
  rd.res.pitch2D.desc = jet__channel_desc(fmt);
  rd.res.pitch2D.width = width;
  rd.res.pitch2D.height = height;
  rd.res.pitch2D.pitchInBytes = pitch;
  return new_texture(ctx, &rd, desc, 2, NULL, out, what, fn);
}

jet_status jet_texture_create_pitch2d(jet_buffer buf, size_t offset, size_t width, size_t height,
                                      size_t pitch, jet_texel_format fmt,
                                      const jet_texture_desc *desc, jet_texture *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  JET__ARG(width > 0 && height > 0, "width %zu x height %zu: both must be > 0", width, height);
  size_t texel, row, span, end;
  JET__TRY(check_fmt(fmt, &texel, __func__));
  JET__TRY(check_desc_values(desc, __func__));
  JET__TRY(check_desc(desc, fmt, MEM_PITCH2D, NULL, 2, __func__));
  if (!jet__mul_ok(width, texel, &row))
    return jet__error(JET_STATUS_OVERFLOW, __func__, "width %zu x %zu bytes overflows", width,
                      texel);
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  if (pitch == 0) pitch = buf->pitch;
  JET__ARG(pitch >= row, "pitch %zu is below the row bytes %zu (%zu texels of %zu bytes)", pitch,
           row, width, texel);
  if (!jet__mul_ok(pitch, height - 1, &span) || !jet__add_ok(span, row, &span) ||
      !jet__add_ok(offset, span, &end))
    return jet__error(JET_STATUS_OVERFLOW, __func__,
                      "offset %zu + pitch %zu x %zu rows overflows", offset, pitch, height);
  JET__ARG(buf->dev, "the buffer has no device pointer (a HOST_PINNED buffer: use HOST_MAPPED)");
  JET__ARG(end <= buf->size, "bytes [%zu, %zu) exceed the buffer's %zu bytes", offset, end,
           buf->size);
  return pitch2d(buf->h.ctx, (char *)buf->dev + offset, width, height, pitch, fmt, desc, out,
                 "pitch-2D buffer", __func__);
}

/* The texel format of an image plane; 0 channels for none. */
static jet_texel_format plane_format(jet_format f, int plane) {
  jet_texel_format t = {JET_CHANNEL_U8, 1};
  switch (f) {
    case JET_FORMAT_GRAY8:
    case JET_FORMAT_I420: break;
    case JET_FORMAT_NV12:
    case JET_FORMAT_NV21: t.channels = plane ? 2 : 1; break;
    case JET_FORMAT_YUYV:
    case JET_FORMAT_UYVY: t.channels = 2; break;
    case JET_FORMAT_RGBA8:
    case JET_FORMAT_BGRA8: t.channels = 4; break;
    case JET_FORMAT_GRAY16: t.type = JET_CHANNEL_U16; break;
    case JET_FORMAT_GRAYF32:
    case JET_FORMAT_RGBF32P: t.type = JET_CHANNEL_F32; break;
    case JET_FORMAT_RGBF16P: t.type = JET_CHANNEL_F16; break;
    default: t.channels = 0; break;
  }
  return t;
}

jet_status jet_texture_create_image(jet_image image, int plane, const jet_texture_desc *desc,
                                    jet_texture *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  JET__TRY(check_desc_values(desc, __func__));
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  const jet__image_layout *l = &image->layout;
  JET__ARG(plane >= 0 && plane < l->planes, "plane %d of a %s image with %d plane(s)", plane,
           jet_format_name(l->format), l->planes);
  jet_texel_format f = plane_format(l->format, plane);
  JET__ARG(f.channels, "%s has 3 interleaved channels: no CUDA texture format fits (use RGBA8 "
           "or a planar format)", jet_format_name(l->format));
  JET__TRY(check_desc(desc, f, MEM_PITCH2D, NULL, 2, __func__));
  const jet__plane_layout *pl = &l->plane[plane];
  return pitch2d(image->h.ctx, image->plane[plane], (size_t)pl->width, (size_t)pl->height,
                 pl->pitch, f, desc, out, "image plane", __func__);
}

jet_status jet_image_texture(jet_image image, int plane, jet_texture *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  d.filter = JET_FILTER_LINEAR;
  d.normalized_coords = 1;
  jet_texel_format f = plane_format(image->layout.format, plane);
  d.read_mode = f.type == JET_CHANNEL_F32 ? JET_READ_ELEMENT : JET_READ_NORMALIZED_FLOAT;
  return jet_texture_create_image(image, plane, &d, out);
}

jet_status jet_texture_destroy(jet_texture tex) {
  if (!tex) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(tex, JET__H_TEXTURE, __func__, "tex"));
  jet_status st = jet__ctx_activate(tex->h.ctx, __func__);
  if (st == JET_STATUS_OK && tex->obj) {
    cudaError_t e = cudaDestroyTextureObject(tex->obj);
    if (e != cudaSuccess) st = jet__cuda_error(e, __func__, "cudaDestroyTextureObject", NULL, NULL);
  }
  if (tex->array) atomic_fetch_sub(&tex->array->users, 1);
  jet__handle_unregister(&tex->h);
  free(tex);
  return st;
}

jet_status jet_texture_native(jet_texture tex, unsigned long long *obj) {
  JET__TRY(jet__handle_check(tex, JET__H_TEXTURE, __func__, "tex"));
  JET__ARG(obj, "obj is NULL");
  *obj = (unsigned long long)tex->obj;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ surfaces */

jet_status jet_surface_create(jet_array arr, unsigned level, jet_surface *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(arr, JET__H_ARRAY, __func__, "arr"));
  JET__ARG(arr->desc.flags & JET_ARRAY_SURFACE,
           "the array was made without JET_ARRAY_SURFACE (cudaArraySurfaceLoadStore)");
  JET__ARG(level < arr->desc.levels, "level %u of an array with %u level(s)", level,
           arr->desc.levels);
  struct jet_context_s *ctx = arr->h.ctx;
  JET__TRY(jet__ctx_activate(ctx, __func__));
  struct cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  JET__TRY(jet__array_level(arr, level, &rd.res.array.array, __func__));
  struct jet_surface_s *s = calloc(1, sizeof *s);
  if (!s) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a surface");
  cudaError_t e = cudaCreateSurfaceObject(&s->obj, &rd);
  if (e != cudaSuccess) {
    free(s);
    return jet__cuda_error(e, __func__, "cudaCreateSurfaceObject", NULL, "level %u", level);
  }
  jet_status st = jet__handle_register(&s->h, JET__H_SURFACE, ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaDestroySurfaceObject(s->obj);
    free(s);
    return st;
  }
  s->array = arr;
  atomic_fetch_add(&arr->users, 1);
  *out = s;
  return JET_STATUS_OK;
}

jet_status jet_surface_destroy(jet_surface surf) {
  if (!surf) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(surf, JET__H_SURFACE, __func__, "surf"));
  jet_status st = jet__ctx_activate(surf->h.ctx, __func__);
  if (st == JET_STATUS_OK && surf->obj) {
    cudaError_t e = cudaDestroySurfaceObject(surf->obj);
    if (e != cudaSuccess) st = jet__cuda_error(e, __func__, "cudaDestroySurfaceObject", NULL, NULL);
  }
  if (surf->array) atomic_fetch_sub(&surf->array->users, 1);
  jet__handle_unregister(&surf->h);
  free(surf);
  return st;
}

jet_status jet_surface_native(jet_surface surf, unsigned long long *obj) {
  JET__TRY(jet__handle_check(surf, JET__H_SURFACE, __func__, "surf"));
  JET__ARG(obj, "obj is NULL");
  *obj = (unsigned long long)surf->obj;
  return JET_STATUS_OK;
}
