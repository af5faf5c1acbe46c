/*
 * Texture internals shared by lib/texture/ (and host tests that build fake
 * arrays to reach the checks that come before CUDA).
 */
#ifndef JET_TEXTURE_INTERNAL_H
#define JET_TEXTURE_INTERNAL_H

#include "internal.h"

struct jet_array_s {
  jet__handle h;
  jet_array_desc desc;      /* normalised: unused extents 0, levels >= 1, cubemap layers set */
  size_t texel;             /* bytes per texel */
  cudaArray_t arr;          /* plain array; NULL when mipmapped */
  cudaMipmappedArray_t mip; /* mipmapped array (desc.levels > 1); NULL otherwise */
  atomic_int users;         /* live textures and surfaces over it */
};

struct jet_texture_s {
  jet__handle h;
  cudaTextureObject_t obj;
  struct jet_array_s *array; /* referenced array, or NULL */
};

struct jet_surface_s {
  jet__handle h;
  cudaSurfaceObject_t obj;
  struct jet_array_s *array;
};

/* Bytes per texel of @f, or 0 for an unknown type or channel count. */
size_t jet__texel_bytes(jet_texel_format f);

/* Check @d and normalise it into @out (unused extents 0, levels >= 1, cubemap
 * layers 6 when 0). INVALID_ARGUMENT or OVERFLOW naming the rule. */
jet_status jet__array_desc_check(const jet_array_desc *d, jet_array_desc *out, const char *fn);

/* Extent of level @level of a normalised description: width, height (1 for 1D
 * kinds), depth or layers (1 for 1D and 2D). */
void jet__array_level_extent(const jet_array_desc *d, unsigned level, size_t *w, size_t *h,
                             size_t *dz);

/* The cudaArray_t of level @level (cudaGetMipmappedArrayLevel for mipmapped arrays). */
jet_status jet__array_level(const struct jet_array_s *a, unsigned level, cudaArray_t *out,
                            const char *fn);

/* The CUDA channel descriptor of a valid format. */
struct cudaChannelFormatDesc jet__channel_desc(jet_texel_format f);

/* The CUDA texture description of a checked @d over @a (NULL for buffer and
 * image memory): enums mapped, max_anisotropy 0 made 1, and for a mipmapped
 * array a level clamp of [0, 0] widened to the whole chain; address modes past
 * the memory's @dims dimensions clamp. */
struct cudaTextureDesc jet__texture_cuda_desc(const jet_texture_desc *d,
                                              const struct jet_array_s *a, int dims);

#endif /* JET_TEXTURE_INTERNAL_H */
