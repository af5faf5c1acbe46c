/*
 * kernels/image/dnn_params.h - launch parameters of the DNN-preprocess kernels
 * (kernels/image/dnn.cu), shared with their C launcher (lib/image/dnn.c).
 * Plain C, no includes, so the one layout compiles as C and as CUDA; each
 * kernel takes one of these by value.
 */
#ifndef JET_KERNELS_IMAGE_DNN_PARAMS_H
#define JET_KERNELS_IMAGE_DNN_PARAMS_H

/* Block shape and work per thread, shared so that the launcher sizes the grid
 * the kernels expect: a block is JET_DNN_TX x JET_DNN_TY threads and writes
 * a tile of JET_DNN_TX * JET_DNN_PX columns by JET_DNN_TY rows, each thread
 * JET_DNN_PX neighbouring pixels of one row. */
#define JET_DNN_TX 32
#define JET_DNN_TY 8
#define JET_DNN_PX 2
/* Rows a thread writes in the "_r2" kernels (dnn.cu), whose tiles are
 * JET_DNN_TY * JET_DNN_RY rows: the second row reuses the source rows it
 * shares with the first. */
#define JET_DNN_RY 2

/* Images one launch serves (blockIdx.z): JET_IMAGE_BATCH_MAX. */
#define JET_DNN_BATCH_MAX 16

/* One image of a batch; all share the sizes and formats below. */
typedef struct jet__dnn_image {
  const unsigned char *src0, *src1; /* RGBA8: src0; NV12: Y, interleaved U,V */
  unsigned long long src0_pitch, src1_pitch;
  unsigned char *dst[3];            /* planes receiving R, G, B (swapped for BGR) */
  unsigned long long dst_pitch[3];
} jet__dnn_image;

/* What the images of a launch share. */
typedef struct jet__dnn_shared {
  int sw, sh, dw, dh;
  int ox, oy, cw, ch;               /* content rectangle (letterbox) */
  int dst_vec;                      /* all planes' pointers and pitches: JET_DNN_PX elements aligned */
  float scale[3];                   /* out = fma(S, scale, bias), S the Q22 bilinear sum */
  float bias[3];
  float pad[3];                     /* final values outside the content rectangle (float) */
  int cy, crv, cgu, cgv, cbu, yoff; /* NV12: the color_coeffs.h row */
  /* NV12: the constant terms of R, G, B (rounding half, luma offset, chroma
   * centre 128): JET_CC_HALF - cy*yoff - 128*crv, ... + 128*(cgu + cgv),
   * ... - 128*cbu; a channel is clamp8((cy*Y + crv*V + kr) >> 16), ... */
  int kr, kg, kb;
  /* the grid's tiles across, and the div_inv reciprocals of tiles_x, 2 * cw
   * and 2 * ch: the block's tile and the coordinates without divisions
   * (resize_coord.cuh: grid_tile, lin_coord_inv) */
  unsigned tiles_x, tiles_inv, inv_cw, inv_ch;
  /* kernels that compute their coordinates in each thread ("_t1", "_hxy":
   * integer factors both ways): kx = sw / cw (low 16 bits) and ky = sh / ch
   * (high 16), both below 2^15 */
  int kxy;
} jet__dnn_shared;

/* A launch's parameters: the shared fields, then the images (the first
 * gridDim.z are used), last so that dnn.cu's one-image entries ("_1",
 * parameters of one image) read a prefix of the same struct. */
typedef struct jet__dnn_kparams {
  jet__dnn_shared s;
  jet__dnn_image img[JET_DNN_BATCH_MAX];
} jet__dnn_kparams;

#endif /* JET_KERNELS_IMAGE_DNN_PARAMS_H */
