/*
 * kernels/image/filter_params.h - what lib/image/filter.c passes to the filter
 * kernels (filter.cu), and the tile geometry both sides compute the shared
 * memory size from. Plain C, no includes: it compiles as C and as CUDA.
 *
 * A block filters a tile of JET_FILTER_TW(elem) elements (a row of a pixel
 * format is width * channels elements; the filters treat channels alike, so a
 * tile edge may fall inside a pixel) by tile_h rows:
 *   s_w   32 floats: the taps (runtime-size kernels only)
 *   s_in  (tile_h + 2r) rows of JET_FILTER_SW elements of the source type: the
 *         tile plus r rows above and below and JET_FILTER_HP elements left and
 *         right (>= r * channels, rounded up to 16 bytes), borders resolved
 *   s_h   (tile_h + 2r) rows of the horizontal pass: JET_FILTER_TW 32-bit
 *         words (float samples: floats; 8-bit samples of the runtime-k
 *         kernels: the exact integer sums), or for the unrolled 8-bit kernels
 *         (h16) JET_FILTER_H16_ROW 8-byte words, each four 16-bit sums (the
 *         rows padded so that a warp's stores to 4 rows take 2 bank wavefronts)
 */
#ifndef JET_KERNELS_IMAGE_FILTER_PARAMS_H
#define JET_KERNELS_IMAGE_FILTER_PARAMS_H

#define JET_FILTER_THREADS 256
/* Output rows per thread in the vertical pass, every kernel but the
 * unrolled float ones of compact builds, which take 2 (filter.cu). (2 was
 * every unrolled float kernel's, 3-4% faster on the H100; on the H200, whose
 * float k 3-7 wait on the L1 and shared-memory pipe (ncu: box k 7 at 4K,
 * L1 at 92% of its peak), 4 rows took 0.93-0.96 of the time at k 7, 1080p
 * to 4K, and 0.98-1.00 at k 3 and 5.) */
#define JET_FILTER_RV 4
#define JET_FILTER_TILE_H 60       /* most rows per block */
#define JET_FILTER_SMEM_MAX 49152  /* no opt-in to more dynamic shared memory */
#define JET_FILTER_FAST_KMAX 7     /* k 3, 5, 7 have unrolled kernels */

/* Rows per block for kernel radius r, at most JET_FILTER_TILE_H (and less
 * where the runtime-k kernel's shared memory runs out): tile_h + 2r close to
 * 64, so that the horizontal pass (8 tasks a row) keeps all 256 threads busy. */
#define JET_FILTER_TILE_ROWS(r) ((64 - 2 * (r)) / JET_FILTER_RV * JET_FILTER_RV)
/* Rows per tile of the unrolled 8-bit kernels (k 3, 5, 7): JET_FILTER_RV
 * times jet__wave_rows (lib/image/image_internal.h) between these bounds,
 * with the prologue below: the tile height whose blocks take the fewest
 * whole waves times what a block costs, about its tile_h + 2r rows plus a
 * fixed part (8 rows in all for k 5). H100 sweeps of 12 to 48 fixed rows
 * (box and Gaussian k 3-7, GRAY8, RGB8, RGBA8, every border, 720p-4K): the
 * rule took 0.974-0.980 of the time of the earlier 20 rows (16 under 2.5
 * waves) in four sweeps (4K 0.958, 1080p level), fixed 32 rows 1.006, 36-48
 * rows 1.03-1.11; a fixed part of 0 to 12 rows within 0.4% of each other. */
#define JET_FILTER_FAST_TILE_MIN 12
#define JET_FILTER_FAST_TILE_MAX 32
#define JET_FILTER_FAST_TILE_PROLOGUE 2 /* row groups of JET_FILTER_RV rows */
/* ... where the kernel's residency is unknown, and for float samples (H100,
 * k 3-7, 1080p-4K: 24 rows 2-3% faster than 20) */
#define JET_FILTER_FAST_TILE_H 20
#define JET_FILTER_FAST_TILE_H_F32 24

/* Elements per tile row: 128 bytes of 8-bit samples, 64 floats. */
#define JET_FILTER_TW(esize) ((esize) == 1 ? 128 : 64)
/* Halo elements left and right, 16-byte aligned. */
#define JET_FILTER_HP(r, nc, esize) (((r) * (nc) + 16 / (esize) - 1) / (16 / (esize)) * (16 / (esize)))
#define JET_FILTER_SW(r, nc, esize) (JET_FILTER_TW(esize) + 2 * JET_FILTER_HP(r, nc, esize))
#define JET_FILTER_H16_ROW 40
/* Bytes of an s_h row. */
#define JET_FILTER_SH_ROW(esize, h16) ((h16) ? JET_FILTER_H16_ROW * 8 : JET_FILTER_TW(esize) * 4)
/* Dynamic shared memory of a block; h16: an unrolled 8-bit kernel. */
#define JET_FILTER_SMEM(r, nc, esize, tile_h, h16) \
  (128 + ((tile_h) + 2 * (r)) * (JET_FILTER_SW(r, nc, esize) * (esize) + JET_FILTER_SH_ROW(esize, h16)))

/* How the vertical pass turns its sums into output samples. */
#define JET_FILTER_MODE_GAUSS8 0 /* (S + 2^15) >> 16 */
#define JET_FILTER_MODE_BOX8 1   /* (S + k*k/2) / (k*k) via magic */
#define JET_FILTER_MODE_FLOAT 2  /* S * scale */

#define JET_FILTER_BATCH_MAX 16 /* JET_IMAGE_BATCH_MAX */

/* One pair of a batch (a single filter is a batch of one). */
typedef struct jet__filter_image {
  const void *src;
  void *dst;
  unsigned long long spitch, dpitch;
} jet__filter_image;

typedef struct jet__filter_params {
  jet__filter_image img[JET_FILTER_BATCH_MAX]; /* blockIdx.z picks one */
  float w[32];       /* taps; 8-bit Gaussian: the Q8 integers; box: 1 */
  int iw[32];        /* 8-bit: the same taps as integers */
  /* 8-bit, k up to JET_FILTER_FAST_KMAX: vpair[d + 1] = iw[d] | iw[d + 1] << 8
   * for d = -1..k-1 (taps outside 0..k-1 are 0; every tap below 256), the
   * tap pairs of the unrolled kernels' DP2A pass (filter.cu: jf_dp2a_rows) */
  unsigned vpair[JET_FILTER_FAST_KMAX + 1];
  float border[4];   /* CONSTANT sample per channel (8-bit: already rounded and clamped) */
  float bias;        /* start of the vertical sum, float samples: 0 */
  unsigned ibias;    /* start of the vertical sum, 8-bit samples: 2^15 or k*k/2 */
  float scale;       /* MODE_FLOAT: 1 / (k*k) for box, 1 for Gaussian */
  unsigned magic;    /* MODE_BOX8: ceil(2^32 / (k*k)); exact for sums < 2^22 */
  int mode;          /* JET_FILTER_MODE_* */
  int ksize;
  int border_mode;   /* jet_border */
  int width, height; /* pixels */
  int tile_h;        /* rows per block, a multiple of JET_FILTER_RV */
  int vec_in;        /* source rows 16-byte aligned: vector loads */
  int vec_out;       /* destination rows aligned to 4 (8-bit) or 16 (float) bytes */
  int l2_only;       /* tile loads that skip L1 (cp.async.cg): large images (filter.c) */
} jet__filter_params;

#endif /* JET_KERNELS_IMAGE_FILTER_PARAMS_H */
