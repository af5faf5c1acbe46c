/*
 * Transpose, flip and rotation (jetrt/geometry.h); kernels in
 * kernels/image/geometry.cu.
 */
#include <stdio.h>

#include "image_internal.h"
#include "jetrt_kernels.h"

#define FLIP_BX 64u
#define FLIP_BY 4u
#define ROT_BX 32u
#define ROT_BY 8u
#define ROT4_BX 32u /* jet_rot4_<fsx><fsy>: 32x32 tiles, 8 pixels per thread */
#define ROT4_BY 4u
#define ROTQ_TW 128u /* jet_rotq<1|3>_<fsx><fsy>: 128x32 pixel tiles, 32x8 threads */
#define ROTQ_TH 32u
#define GRID_Y_MAX 65535u

static int aligned(uintptr_t v, uintptr_t a) { return (v & (a - 1)) == 0; }

/* Both images' plane 0 pointer and pitch are multiples of @a. */
static int pair_aligned(jet_image src, jet_image dst, uintptr_t a) {
  return aligned((uintptr_t)src->plane[0], a) && aligned((uintptr_t)dst->plane[0], a) &&
         aligned((uintptr_t)src->layout.plane[0].pitch, a) &&
         aligned((uintptr_t)dst->layout.plane[0].pitch, a);
}

static int bytes_per_pixel(jet_image img) {
  return jet__format(img->layout.format)->bytes_per_pixel[0];
}

static unsigned ceil_div(unsigned long long a, unsigned b) {
  return (unsigned)((a + b - 1) / b);
}

/* The checks every operation here shares, all before any CUDA call except
 * jet__stream_enter's device activation. */
static jet_status enter(jet_stream stream, jet_image src, jet_image dst, jet__image_op op,
                        cudaStream_t *cu, const char *fn) {
  JET__TRY(jet__image_check_pair(src, dst, op, fn));
  return jet__stream_enter(stream, src->h.ctx, cu, fn);
}

/* dst = src mirrored along x (fx) and/or y (fy). */
static jet_status flip(jet_stream stream, jet_image src, jet_image dst, int fx, int fy,
                       const char *fn) {
  cudaStream_t cu;
  JET__TRY(enter(stream, src, dst, JET__IMAGE_OP_FLIP, &cu, fn));
  int bpp = bytes_per_pixel(src), w = src->layout.width, h = src->layout.height;
  size_t row = src->layout.plane[0].row_bytes;
  unsigned long long sp = src->layout.plane[0].pitch, dp = dst->layout.plane[0].pitch;
  /* Without a horizontal flip rows are copied whole: 16-byte chunks of any pixel size. */
  int kbpp = fx ? bpp : 1;
  size_t chunk = (kbpp == 3 || kbpp == 12) ? 48 : 16;
  char name[32];
  jet_dim3 block = {FLIP_BX, FLIP_BY, 1}, grid;
  int n;
  /* Each thread handles two rows per pass, hence 2 * FLIP_BY. */
  unsigned gy = ceil_div((unsigned long long)h, 2 * FLIP_BY);
  if (gy > GRID_Y_MAX) gy = GRID_Y_MAX;
  if (pair_aligned(src, dst, 16) && row % chunk == 0 && row / chunk <= (size_t)INT32_MAX) {
    n = (int)(row / chunk);
    snprintf(name, sizeof name, "jet_flip_v%d", kbpp);
    grid = (jet_dim3){ceil_div((unsigned long long)n, FLIP_BX), gy, 1};
  } else {
    int unit = bpp % 4 == 0 && pair_aligned(src, dst, 4) ? 4 : bpp % 2 == 0 && pair_aligned(src, dst, 2) ? 2 : 1;
    n = w;
    snprintf(name, sizeof name, "jet_flip_p%d_u%d", bpp, unit);
    block = (jet_dim3){256, 1, 1};
    gy = (unsigned)h < GRID_Y_MAX ? (unsigned)h : GRID_Y_MAX;
    grid = (jet_dim3){ceil_div((unsigned long long)w, 256), gy, 1};
  }
  jet_kernel k;
  JET__TRY(jet__builtin_kernel(src->h.ctx, &jet__images_geometry, name, &k, fn));
  const void *s = src->plane[0];
  void *d = dst->plane[0];
  void *args[] = {&s, &sp, &d, &dp, &n, &h, &fx, &fy};
  return jet__launch(cu, k, grid, block, 0, args, fn);
}

/* dst(x, y) = src(fsx ? w-1-y : y, fsy ? h-1-x : x), dst is h x w. */
static jet_status rotate_tiled(jet_stream stream, jet_image src, jet_image dst, int fsx, int fsy,
                               const char *fn) {
  cudaStream_t cu;
  JET__TRY(enter(stream, src, dst, JET__IMAGE_OP_TRANSPOSE, &cu, fn));
  int bpp = bytes_per_pixel(src), w = src->layout.width, h = src->layout.height;
  unsigned long long sp = src->layout.plane[0].pitch, dp = dst->layout.plane[0].pitch;
  unsigned tile = bpp < 3 ? 32u * (unsigned)(4 / bpp) : 32u;
  int a4 = pair_aligned(src, dst, 4);
  int svec = aligned((uintptr_t)src->plane[0], 4) && aligned((uintptr_t)sp, 4);
  int dvec = aligned((uintptr_t)dst->plane[0], 4) && aligned((uintptr_t)dp, 4);
  char name[32];
  jet_dim3 block = {ROT_BX, ROT_BY, 1};
  int fast = bpp == 4 && a4;
  /* 1- and 3-byte pixels in whole 4x4 blocks of whole words: word loads and stores. */
  int quad = (bpp == 1 || bpp == 3) && a4 && w % 4 == 0 && h % 4 == 0;
  unsigned tile_w = tile;
  if (fast) {
    snprintf(name, sizeof name, "jet_rot4_%d%d", fsx, fsy);
    block = (jet_dim3){ROT4_BX, ROT4_BY, 1};
  } else if (quad) {
    snprintf(name, sizeof name, "jet_rotq%d_%d%d", bpp, fsx, fsy);
    tile_w = ROTQ_TW;
    tile = ROTQ_TH;
  } else if (bpp == 4) {
    snprintf(name, sizeof name, "jet_rot4_u1");
  } else {
    snprintf(name, sizeof name, "jet_rot%d", bpp);
  }
  unsigned gy = ceil_div((unsigned long long)h, tile);
  if (gy > GRID_Y_MAX) gy = GRID_Y_MAX;
  jet_dim3 grid = {ceil_div((unsigned long long)w, tile_w), gy, 1};
  jet_kernel k;
  JET__TRY(jet__builtin_kernel(src->h.ctx, &jet__images_geometry, name, &k, fn));
  const void *s = src->plane[0];
  void *d = dst->plane[0];
  /* jet_rot4_* and jet_rotq* take the first six: the driver reads as many as a kernel has. */
  void *args[] = {&s, &sp, &d, &dp, &w, &h, &fsx, &fsy, &svec, &dvec};
  return jet__launch(cu, k, grid, block, 0, args, fn);
}

jet_status jet_transpose(jet_stream stream, jet_image src, jet_image dst) {
  return rotate_tiled(stream, src, dst, 0, 0, __func__);
}

jet_status jet_flip_image(jet_stream stream, jet_image src, jet_image dst, jet_flip f) {
  JET__ARG(f == JET_FLIP_HORIZONTAL || f == JET_FLIP_VERTICAL || f == JET_FLIP_BOTH,
           "unknown flip %d", (int)f);
  return flip(stream, src, dst, ((unsigned)f & JET_FLIP_HORIZONTAL) != 0,
              ((unsigned)f & JET_FLIP_VERTICAL) != 0, __func__);
}

jet_status jet_rotate(jet_stream stream, jet_image src, jet_image dst, jet_rotation rotation) {
  switch (rotation) {
    case JET_ROTATE_90: return rotate_tiled(stream, src, dst, 0, 1, __func__);
    case JET_ROTATE_180: return flip(stream, src, dst, 1, 1, __func__);
    case JET_ROTATE_270: return rotate_tiled(stream, src, dst, 1, 0, __func__);
    default: return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__, "unknown rotation %d", (int)rotation);
  }
}
