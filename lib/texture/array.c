/*
 * CUDA arrays and mipmapped arrays: description checks, allocation, queries.
 */
#include <stdlib.h>

#include "texture_internal.h"

static const char *kind_name(jet_array_kind k) {
  switch (k) {
    case JET_ARRAY_1D: return "1D";
    case JET_ARRAY_2D: return "2D";
    case JET_ARRAY_3D: return "3D";
    case JET_ARRAY_1D_LAYERED: return "1D layered";
    case JET_ARRAY_2D_LAYERED: return "2D layered";
    case JET_ARRAY_CUBEMAP: return "cubemap";
    case JET_ARRAY_CUBEMAP_LAYERED: return "cubemap layered";
  }
  return "unknown";
}

size_t jet__texel_bytes(jet_texel_format f) {
  size_t c;
  switch (f.type) {
    case JET_CHANNEL_S8:
    case JET_CHANNEL_U8: c = 1; break;
    case JET_CHANNEL_S16:
    case JET_CHANNEL_U16:
    case JET_CHANNEL_F16: c = 2; break;
    case JET_CHANNEL_S32:
    case JET_CHANNEL_U32:
    case JET_CHANNEL_F32: c = 4; break;
    default: return 0;
  }
  if (f.channels != 1 && f.channels != 2 && f.channels != 4) return 0;
  return c * (size_t)f.channels;
}

jet_status jet_texel_size(jet_texel_format fmt, size_t *bytes) {
  JET__ARG(bytes, "bytes is NULL");
  size_t b = jet__texel_bytes(fmt);
  JET__ARG(b, "no texel format of channel type %d with %d channels (types 1..8, channels 1, 2 or 4)",
           (int)fmt.type, fmt.channels);
  *bytes = b;
  return JET_STATUS_OK;
}

struct cudaChannelFormatDesc jet__channel_desc(jet_texel_format f) {
  struct cudaChannelFormatDesc c = {0, 0, 0, 0, cudaChannelFormatKindNone};
  int bits = (int)(jet__texel_bytes(f) / (size_t)f.channels * 8);
  c.x = bits;
  if (f.channels >= 2) c.y = bits;
  if (f.channels == 4) c.z = c.w = bits;
  switch (f.type) {
    case JET_CHANNEL_S8:
    case JET_CHANNEL_S16:
    case JET_CHANNEL_S32: c.f = cudaChannelFormatKindSigned; break;
    case JET_CHANNEL_U8:
    case JET_CHANNEL_U16:
    case JET_CHANNEL_U32: c.f = cudaChannelFormatKindUnsigned; break;
    default: c.f = cudaChannelFormatKindFloat; break;
  }
  return c;
}

static unsigned max_levels(size_t largest) {
  unsigned n = 1;
  while (largest > 1) {
    largest >>= 1;
    n++;
  }
  return n;
}

jet_status jet__array_desc_check(const jet_array_desc *in, jet_array_desc *out, const char *fn) {
  jet_array_desc d = *in;
  if (d.kind < JET_ARRAY_1D || d.kind > JET_ARRAY_CUBEMAP_LAYERED)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown array kind %d", (int)d.kind);
  const char *k = kind_name(d.kind);
  if (!jet__texel_bytes(d.format))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "no texel format of channel type %d with %d channels (types 1..8, "
                      "channels 1, 2 or 4)",
                      (int)d.format.type, d.format.channels);
  if (d.flags & ~(unsigned)(JET_ARRAY_SURFACE | JET_ARRAY_GATHER))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown array flags 0x%x",
                      d.flags & ~(unsigned)(JET_ARRAY_SURFACE | JET_ARRAY_GATHER));
  if ((d.flags & JET_ARRAY_GATHER) && d.kind != JET_ARRAY_2D)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_ARRAY_GATHER needs a 2D array (texture gather reads 2D arrays "
                      "only), not a %s one",
                      k);
  if (d.width == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s array: width is 0", k);

  int uses_h = d.kind == JET_ARRAY_2D || d.kind == JET_ARRAY_3D || d.kind == JET_ARRAY_2D_LAYERED;
  int cube = d.kind == JET_ARRAY_CUBEMAP || d.kind == JET_ARRAY_CUBEMAP_LAYERED;
  int layered = d.kind == JET_ARRAY_1D_LAYERED || d.kind == JET_ARRAY_2D_LAYERED || cube;
  if (cube) {
    if (d.height != 0 && d.height != d.width)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "%s array: faces must be square, width %zu != height %zu", k, d.width,
                        d.height);
    d.height = d.width;
    if (d.kind == JET_ARRAY_CUBEMAP && d.layers == 0) d.layers = 6;
    if (d.kind == JET_ARRAY_CUBEMAP && d.layers != 6)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "cubemap array: layers must be 6 (or 0), not %zu", d.layers);
    if (d.kind == JET_ARRAY_CUBEMAP_LAYERED && (d.layers == 0 || d.layers % 6 != 0))
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "cubemap layered array: layers must be a positive multiple of 6 (6 "
                        "faces per cube), not %zu",
                        d.layers);
  } else if (uses_h) {
    if (d.height == 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s array: height is 0", k);
  } else {
    if (d.height > 1)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "%s array: height %zu given, a 1D kind has none", k, d.height);
    d.height = 0;
  }
  if (d.kind == JET_ARRAY_3D) {
    if (d.depth == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "3D array: depth is 0");
  } else {
    if (d.depth > 1)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "%s array: depth %zu given, only 3D arrays have one%s", k, d.depth,
                        layered ? " (set layers)" : "");
    d.depth = 0;
  }
  if (layered && !cube && d.layers == 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s array: layers is 0", k);
  if (!layered && d.layers != 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s array: layers %zu given, only layered and cubemap kinds have them", k,
                      d.layers);
  if (d.levels == 0) d.levels = 1;
  size_t largest = d.width;
  if (d.height > largest) largest = d.height;
  if (d.depth > largest) largest = d.depth;
  unsigned most = max_levels(largest);
  if (d.levels > most)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s array: %u mip levels asked, a largest extent of %zu has %u (1 + "
                      "floor(log2(%zu)))",
                      k, d.levels, largest, most, largest);
  size_t n = jet__texel_bytes(d.format), t;
  size_t dims[3] = {d.width, d.height ? d.height : 1,
                    d.depth ? d.depth : (d.layers ? d.layers : 1)};
  for (int i = 0; i < 3; i++)
    if (!jet__mul_ok(n, dims[i], &t))
      return jet__error(JET_STATUS_OVERFLOW, fn, "%s array of %zu x %zu x %zu texels of %zu bytes "
                        "overflows size_t", k, dims[0], dims[1], dims[2],
                        jet__texel_bytes(d.format));
    else
      n = t;
  *out = d;
  return JET_STATUS_OK;
}

void jet__array_level_extent(const jet_array_desc *d, unsigned level, size_t *w, size_t *h,
                             size_t *dz) {
  size_t x = d->width >> level, y = d->height >> level, z = d->depth >> level;
  *w = x ? x : 1;
  *h = d->height ? (y ? y : 1) : 1;
  if (d->kind == JET_ARRAY_3D)
    *dz = z ? z : 1;
  else
    *dz = d->layers ? d->layers : 1;
}

jet_status jet__array_level(const struct jet_array_s *a, unsigned level, cudaArray_t *out,
                            const char *fn) {
  if (!a->mip) {
    *out = a->arr;
    return JET_STATUS_OK;
  }
  cudaError_t e = cudaGetMipmappedArrayLevel(out, a->mip, level);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaGetMipmappedArrayLevel", NULL, "level %u of %u", level,
                           a->desc.levels);
  return JET_STATUS_OK;
}

jet_status jet_array_create(jet_context ctx, const jet_array_desc *desc, jet_array *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  jet_array_desc d;
  JET__TRY(jet__array_desc_check(desc, &d, __func__));
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(jet__ctx_activate(ctx, __func__));

  struct cudaChannelFormatDesc cd = jet__channel_desc(d.format);
  unsigned flags = 0;
  if (d.kind == JET_ARRAY_1D_LAYERED || d.kind == JET_ARRAY_2D_LAYERED ||
      d.kind == JET_ARRAY_CUBEMAP_LAYERED)
    flags |= cudaArrayLayered;
  if (d.kind == JET_ARRAY_CUBEMAP || d.kind == JET_ARRAY_CUBEMAP_LAYERED) flags |= cudaArrayCubemap;
  if (d.flags & JET_ARRAY_SURFACE) flags |= cudaArraySurfaceLoadStore;
  if (d.flags & JET_ARRAY_GATHER) flags |= cudaArrayTextureGather;
  /* CUDA's extent: height 0 for 1D kinds, depth 0 for 1D/2D, depth = layers when layered. */
  struct cudaExtent ext;
  ext.width = d.width;
  ext.height = d.height;
  ext.depth = d.kind == JET_ARRAY_3D ? d.depth : d.layers;

  struct jet_array_s *a = calloc(1, sizeof *a);
  if (!a) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for an array");
  a->desc = d;
  a->texel = jet__texel_bytes(d.format);
  atomic_init(&a->users, 0);
  cudaError_t e;
  const char *call;
  if (d.levels > 1) {
    call = "cudaMallocMipmappedArray";
    e = cudaMallocMipmappedArray(&a->mip, &cd, ext, d.levels, flags);
  } else {
    call = "cudaMalloc3DArray";
    e = cudaMalloc3DArray(&a->arr, &cd, ext, flags);
  }
  if (e != cudaSuccess) {
    size_t texel = a->texel;
    free(a);
    return jet__cuda_error(e, __func__, call,
                           e == cudaErrorInvalidValue
                               ? "the extent may exceed the device's texture or surface limits "
                                 "(cudaDeviceProp maxTexture*/maxSurface*)"
                               : NULL,
                           "%s array %zu x %zu x %zu (layers %zu), %u level(s), %zu-byte texels, "
                           "flags 0x%x",
                           kind_name(d.kind), d.width, d.height, d.depth, d.layers, d.levels,
                           texel, flags);
  }
  jet_status st = jet__handle_register(&a->h, JET__H_ARRAY, ctx, __func__);
  if (st != JET_STATUS_OK) {
    if (a->mip)
      (void)cudaFreeMipmappedArray(a->mip);
    else
      (void)cudaFreeArray(a->arr);
    free(a);
    return st;
  }
  *out = a;
  return JET_STATUS_OK;
}

jet_status jet_array_destroy(jet_array arr) {
  if (!arr) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(arr, JET__H_ARRAY, __func__, "arr"));
  int users = atomic_load(&arr->users);
  if (users > 0)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d texture(s) or surface(s) over the array still live: destroy them first",
                      users);
  jet_status st = jet__ctx_activate(arr->h.ctx, __func__);
  if (st == JET_STATUS_OK && (arr->arr || arr->mip)) {
    cudaError_t e = arr->mip ? cudaFreeMipmappedArray(arr->mip) : cudaFreeArray(arr->arr);
    if (e != cudaSuccess)
      st = jet__cuda_error(e, __func__, arr->mip ? "cudaFreeMipmappedArray" : "cudaFreeArray",
                           NULL, NULL);
  }
  jet__handle_unregister(&arr->h);
  free(arr);
  return st;
}

jet_status jet_array_get_info(jet_array arr, jet_array_info *info) {
  JET__TRY(jet__handle_check(arr, JET__H_ARRAY, __func__, "arr"));
  JET__ARG(info, "info is NULL");
  info->desc = arr->desc;
  info->texel_bytes = arr->texel;
  info->mipmapped = arr->mip != NULL;
  info->native = arr->mip ? (void *)arr->mip : (void *)arr->arr;
  info->textures = atomic_load(&arr->users);
  return JET_STATUS_OK;
}

jet_status jet_array_level_extent(jet_array arr, unsigned level, size_t *width, size_t *height,
                                  size_t *depth) {
  JET__TRY(jet__handle_check(arr, JET__H_ARRAY, __func__, "arr"));
  JET__ARG(level < arr->desc.levels, "level %u of an array with %u level(s)", level,
           arr->desc.levels);
  size_t w, h, d;
  jet__array_level_extent(&arr->desc, level, &w, &h, &d);
  if (width) *width = w;
  if (height) *height = h;
  if (depth) *depth = d;
  return JET_STATUS_OK;
}
