/*
 * kernels/image/resize_params.h - launch parameters of the resize and remap
 * kernels (kernels/image/resize.cu), shared with their C launcher
 * (lib/image/resize.c; the DNN kernels have dnn_params.h). Plain C, no includes, so the one
 * layout compiles as C and as CUDA; each kernel takes one of these by value.
 */
#ifndef JET_KERNELS_IMAGE_RESIZE_PARAMS_H
#define JET_KERNELS_IMAGE_RESIZE_PARAMS_H

/* Block shape and work per thread, shared so that the launchers size the
 * grids the kernels expect: a block is JET_RS_TX x JET_RS_TY threads; each
 * thread writes JET_RS_ROWS rows (JET_RS_TY apart) of a group of
 * consecutive pixels (4 for GRAY8 and RGB8 resize, else 1). */
#define JET_RS_TX 32
#define JET_RS_TY 8
#define JET_RS_ROWS 4
/* Rows per thread of the RGBA8 fast resize kernels (jet_resize_u8c4v_*). */
#define JET_RS_ROWS_C4 2
/* Most rows per thread of the 8-bit enlarging kernels (jet_resize_u8c*_up_*),
 * whose tiles are JET_RS_TX * JET_RS_TY groups wide and rows high. */
#define JET_RS_ROWS_UP 32
/* Threads per block of the 8-bit bilinear x2 kernels (jet_resize_u8c{1,3,4}_up2_linear),
 * side by side, JET_RS_UP2_PX source pixels each; a block walks p.rows
 * (2..JET_RS_ROWS_UP) source rows. */
#define JET_RS_UP2_TX 128
/* Source pixels a thread of those kernels for @c channels: 4 GRAY8 or RGB8
 * pixels (1 or 3 words), 2 RGBA8 pixels (one 16-byte store a destination row). */
#define JET_RS_UP2_PX(c) ((c) == 4 ? 2 : 4)
/* Most source rows per thread of the nearest x2 kernels
 * (jet_resize_u8c{1,3,4}_up2_nearest), JET_RS_TY apart. */
#define JET_RS_UP2N_ROWS 4
/* Units a row of the nearest x2 kernels (one thread's stores to a row) for
 * @c channels of a @sw-pixel source row: 8 GRAY8 pixels, 2 4-byte pixels,
 * 8 destination bytes of RGB8; and of the nearest x3/2 kernels
 * (jet_resize_u8c{1,3,4}_up32_nearest) for a @dw-pixel destination row: 8
 * destination bytes, 16 of 4-byte pixels. Arguments not negative. */
#define JET_RS_UP2N_UNITS(c, sw) ((c) == 3 ? ((sw) * 3u + 3u) / 4u : (c) == 1 ? ((sw) + 7) / 8 : ((sw) + 1) / 2)
#define JET_RS_UP32N_UNITS(c, dw) (((c) * (dw) + ((c) == 4 ? 15u : 7u)) / ((c) == 4 ? 16u : 8u))

/* 1 for the SMs (10 * major + minor) whose cubins carry the FP64 float area
 * kernels (jet_resize_f32c{1,3}_area_k*_f64): those whose FP64 runs at half
 * the FP32 rate (P100, V100, A100, H100/H200, B200). Elsewhere (Jetson,
 * GeForce) FP64 is a small fraction of FP32 and the kernels would be dead
 * weight (Orin's sm_87 cubin carries none). lib/image/resize.c asks the same
 * of the image it loaded. */
#define JET_RS_F64_SM(sm) ((sm) == 60 || (sm) == 70 || (sm) == 80 || (sm) == 90 || (sm) == 100)

/* Most image pairs of one resize launch (JET_IMAGE_BATCH_MAX). */
#define JET_RS_BATCH 16

/* One pair of a resize batch. */
typedef struct jet__resize_image {
  const unsigned char *src;
  unsigned char *dst;
  unsigned long long src_pitch, dst_pitch;
} jet__resize_image;

/* Shared by every pair of the batch; img[blockIdx.z] holds one pair's
 * planes (the first count entries are set). */
typedef struct jet__resize_params {
  int sw, sh, dw, dh;
  int src_vec, dst_vec; /* 1: 4-byte accesses of pixels are aligned (pointer and pitch) in every pair */
  int src_vec16;        /* 1: source rows are 16-byte aligned in every pair (set for resize_frac) */
  /* floor(2^32 / (2 * dw)), floor(2^32 / (2 * dh)): the nearest and bilinear
   * coordinate divisions by reciprocal, on axes where they fit 32 bits */
  unsigned inv_w, inv_h;
  /* 1: sh = k * dh with k odd, so every destination row's centre is on a
   * source row and bilinear's lower tap row has weight 0 */
  int rows_on_src;
  /* area: sizes divided by gcd(sw, dw) and gcd(sh, dh); area_d = rsw * rsh;
   * area_wide: 1 when 8-bit sums need 64 bits (510 * area_d + area_d >= 2^32) */
  int rsw, rdw, rsh, rdh;
  unsigned long long area_d;
  int area_wide;
  /* area32: 8-bit window arithmetic fits 32 bits ((sw+1)*rdw, (sh+1)*rdh
   * < 2^31 and !area_wide); area_inv = floor(2^32 / (2 * area_d)) then,
   * else 0 */
  int area32;
  unsigned area_inv;
  /* rows per thread (1..JET_RS_ROWS) of the tiled kernels (all but the RGBA8
   * fast ones and area_int; 1..JET_RS_ROWS_UP for the enlarging ones), tiles
   * of JET_RS_TY * rows rows */
  int rows;
  int count; /* pairs in img (= gridDim.z) */
  jet__resize_image img[JET_RS_BATCH];
} jet__resize_params;

typedef struct jet__remap_params {
  const unsigned char *src;
  unsigned char *dst;
  const unsigned char *map; /* float (x, y) pairs, one per destination pixel */
  unsigned long long src_pitch, dst_pitch, map_pitch;
  int sw, sh, dw, dh;
  int border;               /* jet_border */
  int src_vec, dst_vec;     /* as above */
  int map_vec;              /* 1: map pointer and pitch are 8-byte aligned */
  float border_f[4];        /* constant border, float formats */
  int border_u8[4];         /* constant border, 8-bit formats: clamp8(llround(v)) */
  /* the grid's tiles across and their div_inv reciprocal: a block's tile
   * without a division (resize.c: grid_for; resize_coord.cuh: grid_tile) */
  unsigned tiles[2];
} jet__remap_params;

#endif /* JET_KERNELS_IMAGE_RESIZE_PARAMS_H */
