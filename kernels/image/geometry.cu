/*
 * geometry: flip, rotate by 180, transpose and rotate by 90/270 of
 * single-plane unsubsampled images (pixels of 1, 2, 3, 4 or 12 bytes).
 * Pure data movement: every output byte is a copy of an input byte.
 *
 * Flip / rotate 180 (jet_flip_v<BPP>, jet_flip_p<BPP>_u<U>): each thread
 * moves one "chunk" per row: 16 bytes (48 for 3- and 12-byte pixels, the
 * smallest multiple of 16 holding whole pixels) with uint4 loads and stores,
 * reversing the pixels inside the chunk in registers for a horizontal flip
 * (a vertical flip alone runs jet_flip_v1, 16-byte chunks, for any pixel size).
 * Needs 16-byte aligned pointers and pitches and a row length that is a
 * whole number of chunks; otherwise the per-pixel kernel copies BPP/U units
 * of U bytes per pixel.
 *
 * Transpose / rotate 90 / 270 (jet_rot<BPP>[_u<U>]): one block of 32x8
 * threads moves a TILE x TILE pixel tile through shared memory, so global
 * reads run along source rows and writes along destination rows. For 1- and
 * 2-byte pixels a thread moves 4-byte packs (V = 4 / BPP pixels) and the tile
 * grows to 32*V pixels, so every access is a 4-byte word; rows are padded by
 * one word (by one pixel for 3/12 bytes) against bank conflicts. The
 * destination of source pixel (sx, sy) is (fsy ? h-1-sy : sy, fsx ? w-1-sx : sx):
 * transpose (0,0), rotate 90 (0,1), rotate 270 (1,0).
 *
 * 1- and 3-byte pixels with 4-byte aligned pointers and pitches and both
 * sides multiples of 4 take jet_rotq<BPP>_<fsx><fsy> (word loads and stores,
 * 4x4 blocks transposed in registers; see its section below).
 *
 * 4-byte pixels with 4-byte aligned pointers and pitches take jet_rot4_<fsx><fsy>
 * instead: the mirror flags are template constants, a block of 32x4 threads
 * moves a 32x32 tile with 8 pixels per thread, and whole tiles (all but the
 * right and bottom edges) run without bounds checks: all 8 loads of a thread
 * are issued before the first shared-memory store, and every smem and global
 * address is a base plus a constant (or a loop-invariant pitch) stride.
 */

#include "pdl.cuh"
#include "sm_threads.cuh"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

/* ------------------------------------------------------------ flip */

/* Reverse the pixels of a chunk of NW words. */
template <int BPP, int NW>
__device__ __forceinline__ void reverse_px(const u32 *in, u32 *out) {
  const int P = NW * 4 / BPP;
#pragma unroll
  for (int i = 0; i < NW; i++) {
    if (BPP % 4 == 0) {
      const int o = 4 * i, q = o / BPP, k = o % BPP;
      out[i] = in[((P - 1 - q) * BPP + k) / 4];
    } else {
      u32 r = 0;
#pragma unroll
      for (int b = 0; b < 4; b++) {
        const int o = 4 * i + b, q = o / BPP, k = o % BPP, s = (P - 1 - q) * BPP + k;
        r |= ((in[s >> 2] >> ((s & 3) * 8)) & 0xffu) << (8 * b);
      }
      out[i] = r;
    }
  }
}

/* 48-byte chunks: a warp's stores go through shared memory (stage, 96
 * uint4 for the warp) so that they are consecutive uint4 instead of uint4
 * 48 bytes apart. Every lane of the warp calls it; @on: the lane has a chunk. */
__device__ __forceinline__ void store_chunks48(uint4 *__restrict__ stage, uint4 *__restrict__ d,
                                               const u32 *r, int lane, int nvalid, bool on) {
  if (on) {
#pragma unroll
    for (int k = 0; k < 3; k++)
      stage[3 * lane + k] = make_uint4(r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
  }
  __syncwarp();
#pragma unroll
  for (int k = 0; k < 3; k++) {
    const int u = 32 * k + lane;
    if (u < 3 * nvalid) d[u] = stage[u];
  }
  __syncwarp();
}

#define FLIP_WARPS 8 /* warps per block at most (launch bound 256) */

template <int BPP>
__device__ __forceinline__ void flip_vec(const u8 *__restrict__ src, u64 sp, u8 *__restrict__ dst,
                                         u64 dp, int nchunks, int h, int fx, int fy) {
  const int C = (BPP == 3 || BPP == 12) ? 48 : 16, NV = C / 16, NW = C / 4;
  __shared__ uint4 stage_all[NV == 3 ? FLIP_WARPS * 96 : 1];
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const bool on = j < nchunks;
  if (NV == 1 && !on) return;
  /* blockDim.x is a multiple of 32: a warp shares threadIdx.y and holds chunks j0..j0+31. */
  const int lane = threadIdx.x & 31, j0 = j - lane;
  const int nvalid = nchunks - j0 < 32 ? nchunks - j0 : 32;
  uint4 *stage = stage_all + (NV == 3 ? ((threadIdx.y * blockDim.x + threadIdx.x) >> 5) * 96 : 0);
  const int sj = fx ? nchunks - 1 - j : j;
  const int step = gridDim.y * blockDim.y;
  /* Two rows per iteration: both loads are in flight before either store. */
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += 2 * step) {
    const int y2 = y + step;
    const bool two = y2 < h;
    u32 a[NW], b[NW];
    const int sy = fy ? h - 1 - y : y, sy2 = fy ? h - 1 - y2 : y2;
    if (on) {
      const uint4 *s = (const uint4 *)(src + (u64)sy * sp + (u64)sj * C);
#pragma unroll
      for (int k = 0; k < NV; k++) {
        uint4 v = s[k];
        a[4 * k] = v.x, a[4 * k + 1] = v.y, a[4 * k + 2] = v.z, a[4 * k + 3] = v.w;
      }
      if (two) {
        const uint4 *s2 = (const uint4 *)(src + (u64)sy2 * sp + (u64)sj * C);
#pragma unroll
        for (int k = 0; k < NV; k++) {
          uint4 v = s2[k];
          b[4 * k] = v.x, b[4 * k + 1] = v.y, b[4 * k + 2] = v.z, b[4 * k + 3] = v.w;
        }
      }
    }
    u32 ra[NW], rb[NW];
    if (fx) {
      reverse_px<BPP, NW>(a, ra);
      reverse_px<BPP, NW>(b, rb);
    } else {
#pragma unroll
      for (int k = 0; k < NW; k++) ra[k] = a[k], rb[k] = b[k];
    }
    if (NV == 3) {
      store_chunks48(stage, (uint4 *)(dst + (u64)y * dp + (u64)j0 * C), ra, lane, nvalid, on);
      if (two)
        store_chunks48(stage, (uint4 *)(dst + (u64)y2 * dp + (u64)j0 * C), rb, lane, nvalid, on);
      continue;
    }
    uint4 *d = (uint4 *)(dst + (u64)y * dp + (u64)j * C);
#pragma unroll
    for (int k = 0; k < NV; k++) d[k] = make_uint4(ra[4 * k], ra[4 * k + 1], ra[4 * k + 2], ra[4 * k + 3]);
    if (two) {
      uint4 *d2 = (uint4 *)(dst + (u64)y2 * dp + (u64)j * C);
#pragma unroll
      for (int k = 0; k < NV; k++)
        d2[k] = make_uint4(rb[4 * k], rb[4 * k + 1], rb[4 * k + 2], rb[4 * k + 3]);
    }
  }
}

/* One pixel: BPP bytes in units of U bytes (U divides BPP and the alignment). */
template <int BPP, int U>
__device__ __forceinline__ void copy_px(u8 *d, const u8 *s) {
  if (U == 4) {
#pragma unroll
    for (int k = 0; k < BPP / 4; k++) ((u32 *)d)[k] = ((const u32 *)s)[k];
  } else if (U == 2) {
#pragma unroll
    for (int k = 0; k < BPP / 2; k++) ((u16 *)d)[k] = ((const u16 *)s)[k];
  } else {
#pragma unroll
    for (int k = 0; k < BPP; k++) d[k] = s[k];
  }
}

template <int BPP, int U>
__device__ __forceinline__ void flip_px(const u8 *__restrict__ src, u64 sp, u8 *__restrict__ dst,
                                        u64 dp, int w, int h, int fx, int fy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;
  const int sx = fx ? w - 1 - x : x;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y) {
    const int sy = fy ? h - 1 - y : y;
    copy_px<BPP, U>(dst + (u64)y * dp + (u64)x * BPP, src + (u64)sy * sp + (u64)sx * BPP);
  }
}

#define JET_FLIP_V(BPP)                                                                         \
  extern "C" __global__ void __launch_bounds__(256) jet_flip_v##BPP(                            \
      const u8 *src, u64 sp, u8 *dst, u64 dp, int nchunks, int h, int fx, int fy) {             \
    jet_pdl_enter();                                                                            \
    flip_vec<BPP>(src, sp, dst, dp, nchunks, h, fx, fy);                                        \
  }
#define JET_FLIP_P(BPP, U)                                                                      \
  extern "C" __global__ void __launch_bounds__(256) jet_flip_p##BPP##_u##U(                     \
      const u8 *src, u64 sp, u8 *dst, u64 dp, int w, int h, int fx, int fy) {                   \
    jet_pdl_enter();                                                                            \
    flip_px<BPP, U>(src, sp, dst, dp, w, h, fx, fy);                                            \
  }

JET_FLIP_V(1)
JET_FLIP_V(2)
JET_FLIP_V(3)
JET_FLIP_V(4)
JET_FLIP_V(12)
JET_FLIP_P(1, 1)
JET_FLIP_P(2, 2)
JET_FLIP_P(3, 1)
JET_FLIP_P(4, 1)
JET_FLIP_P(4, 4)
JET_FLIP_P(12, 4)

/* ------------------------------------------------------------ transpose, rotate 90/270 */

#define ROT_BX 32
#define ROT_BY 8

template <int BPP, int U>
__device__ __forceinline__ void rot_tile(const u8 *__restrict__ src, u64 sp, u8 *__restrict__ dst,
                                         u64 dp, int w, int h, int fsx, int fsy, int svec,
                                         int dvec) {
  const int V = BPP < 3 ? 4 / BPP : 1; /* pixels per thread access */
  const int TILE = 32 * V;
  const int ROWB = TILE * BPP + (BPP >= 3 ? BPP : 4); /* smem row stride, bytes */
  __shared__ u32 smem[(TILE * ROWB + 3) / 4];
  u8 *tile = (u8 *)smem;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tiles_y = (h + TILE - 1) / TILE;
  const int X0 = blockIdx.x * TILE;
  /* Source tile column range -> destination rows; source rows -> destination columns. */
  const int DY0 = fsx ? w - X0 - TILE : X0;
  for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {
    const int Y0 = by * TILE;
    const int DX0 = fsy ? h - Y0 - TILE : Y0;
#pragma unroll 4
    for (int ly = ty; ly < TILE; ly += ROT_BY) {
      const int sy = Y0 + ly;
      if (sy >= h) continue; /* not break: unrolled loads stay independent */
      const u8 *row = src + (u64)sy * sp;
      const int sx0 = X0 + tx * V;
      u8 *t = tile + ly * ROWB + tx * V * BPP;
      if (V > 1 && svec && sx0 + V <= w) {
        *(u32 *)t = *(const u32 *)(row + (u64)sx0 * BPP);
      } else {
#pragma unroll
        for (int i = 0; i < V; i++)
          if (sx0 + i < w) copy_px<BPP, (V > 1 ? BPP : U)>(t + i * BPP, row + (u64)(sx0 + i) * BPP);
      }
    }
    __syncthreads();
    const bool dv = V > 1 && dvec && ((DX0 & (V - 1)) == 0);
#pragma unroll 4
    for (int lr = ty; lr < TILE; lr += ROT_BY) {
      const int dy = DY0 + lr; /* destination row = source column */
      if (dy < 0 || dy >= w) continue;
      const int lx = (fsx ? w - 1 - dy : dy) - X0;
      u8 *row = dst + (u64)dy * dp;
      const int dx0 = DX0 + tx * V;
      if (V > 1 && dv && dx0 >= 0 && dx0 + V <= h) {
        u32 word = 0;
#pragma unroll
        for (int i = 0; i < V; i++) {
          const int ly = (fsy ? h - 1 - (dx0 + i) : dx0 + i) - Y0;
          const u8 *t = tile + ly * ROWB + lx * BPP;
          const u32 v = BPP == 1 ? (u32)*t : (u32) * (const u16 *)t;
          word |= v << (i * 8 * BPP);
        }
        *(u32 *)(row + (u64)dx0 * BPP) = word;
      } else {
#pragma unroll
        for (int i = 0; i < V; i++) {
          const int dx = dx0 + i;
          if (dx < 0 || dx >= h) continue;
          const int ly = (fsy ? h - 1 - dx : dx) - Y0;
          copy_px<BPP, (V > 1 ? BPP : U)>(row + (u64)dx * BPP, tile + ly * ROWB + lx * BPP);
        }
      }
    }
    __syncthreads();
  }
}

#define JET_ROT(NAME, BPP, U)                                                                   \
  extern "C" __global__ void __launch_bounds__(ROT_BX * ROT_BY) NAME(                           \
      const u8 *src, u64 sp, u8 *dst, u64 dp, int w, int h, int fsx, int fsy, int svec,         \
      int dvec) {                                                                               \
    jet_pdl_enter();                                                                            \
    rot_tile<BPP, U>(src, sp, dst, dp, w, h, fsx, fsy, svec, dvec);                             \
  }

JET_ROT(jet_rot1, 1, 1)
JET_ROT(jet_rot2, 2, 2)
JET_ROT(jet_rot3, 3, 1)
JET_ROT(jet_rot4, 4, 4)
JET_ROT(jet_rot4_u1, 4, 1)
JET_ROT(jet_rot12, 12, 4)

/* ------------------------------------------------------------ 4-byte fast path */

#define R4_BY 4
#define R4_N (32 / R4_BY) /* pixels per thread */
/* Full occupancy needs 32 registers where an SM holds 2048 threads; ask for
 * that only there (elsewhere half of 2048 threads). */
#define R4_MIN_BLOCKS ((JET_SM_THREADS == 2048 ? 2048 : 1024) / (32 * R4_BY))

template <int FSX, int FSY>
__device__ __forceinline__ void rot4_fast(const u8 *__restrict__ src, u64 sp, u8 *__restrict__ dst,
                                          u64 dp, int w, int h) {
  __shared__ u32 tile[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tiles_y = (h + 31) >> 5;
  const int X0 = blockIdx.x * 32;
  const int DY0 = FSX ? w - X0 - 32 : X0;
  /* Destination row DY0 + r reads tile column lx(r); destination column DX0 + tx reads tile row ly. */
  const int ly = FSY ? 31 - tx : tx;
  const u64 sp4 = sp * R4_BY, dp4 = dp * R4_BY;
  for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {
    const int Y0 = by * 32;
    const int DX0 = FSY ? h - Y0 - 32 : Y0;
    if (X0 + 32 <= w && Y0 + 32 <= h) {
      const u8 *s = src + (u64)(Y0 + ty) * sp + (u64)(X0 + tx) * 4;
      u32 v[R4_N];
#pragma unroll
      for (int k = 0; k < R4_N; k++) v[k] = __ldg((const u32 *)(s + k * sp4));
#pragma unroll
      for (int k = 0; k < R4_N; k++) tile[ty + R4_BY * k][tx] = v[k];
      __syncthreads();
      u8 *d = dst + (u64)(DY0 + ty) * dp + (u64)(DX0 + tx) * 4;
#pragma unroll
      for (int k = 0; k < R4_N; k++) {
        const int r = ty + R4_BY * k;
        *(u32 *)(d + k * dp4) = tile[ly][FSX ? 31 - r : r];
      }
    } else {
#pragma unroll
      for (int k = 0; k < R4_N; k++) {
        const int sy = Y0 + ty + R4_BY * k, sx = X0 + tx;
        if (sy < h && sx < w) tile[ty + R4_BY * k][tx] = *(const u32 *)(src + (u64)sy * sp + (u64)sx * 4);
      }
      __syncthreads();
      const int dx = DX0 + tx;
#pragma unroll
      for (int k = 0; k < R4_N; k++) {
        const int r = ty + R4_BY * k, dy = DY0 + r;
        /* In the tile: source column X0 + lx < w and source row Y0 + ly < h. */
        if (dy >= 0 && dy < w && dx >= 0 && dx < h)
          *(u32 *)(dst + (u64)dy * dp + (u64)dx * 4) = tile[ly][FSX ? 31 - r : r];
      }
    }
    __syncthreads();
  }
}

#define JET_ROT4F(FSX, FSY)                                                                     \
  extern "C" __global__ void __launch_bounds__(32 * R4_BY, R4_MIN_BLOCKS) jet_rot4_##FSX##FSY(                 \
      const u8 *src, u64 sp, u8 *dst, u64 dp, int w, int h) {                                   \
    jet_pdl_enter();                                                                            \
    rot4_fast<FSX, FSY>(src, sp, dst, dp, w, h);                                                \
  }

JET_ROT4F(0, 0)
JET_ROT4F(0, 1)
JET_ROT4F(1, 0)

/* ------------------------------------------------------------ 1- and 3-byte fast path */

/* jet_rotq<BPP>_<fsx><fsy>, BPP 1 or 3: 4-byte aligned pointers and pitches,
 * width and height multiples of 4, so every 4x4 pixel block is BPP whole
 * words in each of its 4 source rows and in each of its 4 destination rows.
 * A block of 32x8 threads moves a 128x32 pixel tile: 4 (BPP 3: 12) coalesced
 * word loads per thread into shared memory (row stride 33 / 99 words, which
 * keeps both phases free of bank conflicts), then each thread reads one 4x4
 * block (4 x BPP words), transposes it in registers with byte permutes and
 * stores BPP words to each of 4 destination rows; a warp covers 8 blocks
 * along each of 4 destination rows (32 bytes each). 3-byte pixels restage
 * the transposed blocks in a second shared tile so that a warp's stores are
 * 32 consecutive words rather than 12 bytes apart. With fsy the source tile is placed so that
 * destination tiles start at multiples of 32 pixels. */
#define RQ_BX 32
#define RQ_BY 8
#define RQ_TW 128 /* tile width, pixels */
#define RQ_TH 32  /* tile height, rows */
#define RQ_OS 26  /* otile row stride, words: 24 + 2 (no bank conflicts on the writes) */

/* 4x4 bytes: out[c] byte r = in[r] byte c. */
__device__ __forceinline__ void transpose4x4(u32 a0, u32 a1, u32 a2, u32 a3, u32 *o) {
  const u32 t0 = __byte_perm(a0, a1, 0x5140), t1 = __byte_perm(a0, a1, 0x7362);
  const u32 t2 = __byte_perm(a2, a3, 0x5140), t3 = __byte_perm(a2, a3, 0x7362);
  o[0] = __byte_perm(t0, t2, 0x5410);
  o[1] = __byte_perm(t0, t2, 0x7632);
  o[2] = __byte_perm(t1, t3, 0x5410);
  o[3] = __byte_perm(t1, t3, 0x7632);
}

/* Byte @b of the 4-word-row-major block @in (rows of NW words). */
template <int NW>
__device__ __forceinline__ u32 byte_of(const u32 (*in)[NW], int r, int b) {
  return (in[r][b >> 2] >> (8 * (b & 3))) & 0xffu;
}

template <int BPP, int FSX, int FSY, bool FULL>
__device__ __forceinline__ void rotq_tile(const u8 *__restrict__ src, u64 sp,
                                          u8 *__restrict__ dst, u64 dp, int w, int h, int X0,
                                          int Y0, int DX0, u32 *tile, u32 *otile) {
  const int RW = RQ_TW * BPP / 4;             /* words per tile row */
  const int S = RW + (BPP == 1 ? 1 : 3);      /* smem row stride, words */
  const int LW = RW / RQ_BX;                  /* words per row per thread */
  const int NR = RQ_TH / RQ_BY;               /* rows per thread */
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int rowb = w * BPP;                   /* multiple of 4 */
  const long long xb = (long long)X0 * BPP;
  u32 v[NR][LW];
#pragma unroll
  for (int k = 0; k < NR; k++) {
#pragma unroll
    for (int m = 0; m < LW; m++) v[k][m] = 0;
    const int sy = Y0 + ty + RQ_BY * k;
    const u8 *row = src + (long long)sy * (long long)sp + xb;
#pragma unroll
    for (int m = 0; m < LW; m++) {
      const int wi = tx + RQ_BX * m;
      if (FULL || (sy >= 0 && sy < h && xb + 4 * wi < rowb))
        v[k][m] = __ldg((const u32 *)(row + 4 * wi));
    }
  }
#pragma unroll
  for (int k = 0; k < NR; k++)
#pragma unroll
    for (int m = 0; m < LW; m++) tile[(ty + RQ_BY * k) * S + tx + RQ_BX * m] = v[k][m];
  __syncthreads();
  /* This thread's 4x4 block: tile rows 4j..4j+3, pixel columns 4q..4q+3. */
  const int j = tx & 7, q = ty * 4 + (tx >> 3);
  const int sy0 = Y0 + 4 * j, sx0 = X0 + 4 * q;
  if (FULL || (sy0 >= 0 && sy0 < h && sx0 < w)) {
    u32 in[4][BPP];
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
      for (int e = 0; e < BPP; e++) in[FSY ? 3 - r : r][e] = tile[(4 * j + r) * S + q * BPP + e];
    /* Now in[r] holds the pixel that lands r-th in each destination word group. */
    u32 out[4][BPP];
    if (BPP == 1) {
      u32 o[4];
      transpose4x4(in[0][0], in[1][0], in[2][0], in[3][0], o);
#pragma unroll
      for (int c = 0; c < 4; c++) out[c][0] = o[c];
    } else {
#pragma unroll
      for (int c = 0; c < 4; c++)
#pragma unroll
        for (int e = 0; e < BPP; e++) {
          /* destination bytes 4e..4e+3 of row c: pixel (4e+i)/BPP, byte (4e+i)%BPP */
          u32 wd = 0;
#pragma unroll
          for (int i = 0; i < 4; i++) {
            const int b = 4 * e + i;
            wd |= byte_of<BPP>(in, b / BPP, c * BPP + b % BPP) << (8 * i);
          }
          out[c][e] = wd;
        }
    }
    const int lx0 = FSY ? RQ_TH - 4 - 4 * j : 4 * j; /* destination column in the tile */
    if (BPP == 1) {
#pragma unroll
      for (int c = 0; c < 4; c++) {
        const int dy = FSX ? w - 1 - (sx0 + c) : sx0 + c;
        *(u32 *)(dst + (u64)dy * dp + (u64)(DX0 + lx0)) = out[c][0];
      }
    } else {
#pragma unroll
      for (int c = 0; c < 4; c++)
#pragma unroll
        for (int e = 0; e < BPP; e++) otile[(4 * q + c) * RQ_OS + lx0 * BPP / 4 + e] = out[c][e];
    }
  }
  if (BPP == 3) {
    /* Stage through otile (tile row = source column) so that a warp stores
     * 32 consecutive words of destination rows instead of words 12 bytes apart. */
    __syncthreads();
    const int OW = RQ_TH * BPP / 4; /* words per destination tile row */
    const int tid = ty * RQ_BX + tx;
#pragma unroll 4
    for (int i = 0; i < RQ_TW * OW / (RQ_BX * RQ_BY); i++) {
      const int idx = tid + RQ_BX * RQ_BY * i, lr = idx / OW, cw = idx - lr * OW;
      if (FULL || (X0 + lr < w && DX0 + 4 * (cw / 3) < h)) {
        const int dy = FSX ? w - 1 - (X0 + lr) : X0 + lr;
        *(u32 *)(dst + (u64)dy * dp + (u64)DX0 * BPP + 4 * cw) = otile[lr * RQ_OS + cw];
      }
    }
  }
}

template <int BPP, int FSX, int FSY>
__device__ __forceinline__ void rotq_fast(const u8 *__restrict__ src, u64 sp, u8 *__restrict__ dst,
                                          u64 dp, int w, int h) {
  __shared__ u32 tile[RQ_TH * (RQ_TW * BPP / 4 + (BPP == 1 ? 1 : 3))];
  __shared__ u32 otile[BPP == 3 ? RQ_TW * RQ_OS : 1];
  const int tiles_y = (h + RQ_TH - 1) / RQ_TH;
  const int X0 = blockIdx.x * RQ_TW;
  for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {
    const int DX0 = by * RQ_TH;
    const int Y0 = FSY ? h - DX0 - RQ_TH : DX0;
    if (X0 + RQ_TW <= w && Y0 >= 0 && Y0 + RQ_TH <= h)
      rotq_tile<BPP, FSX, FSY, true>(src, sp, dst, dp, w, h, X0, Y0, DX0, tile, otile);
    else
      rotq_tile<BPP, FSX, FSY, false>(src, sp, dst, dp, w, h, X0, Y0, DX0, tile, otile);
    __syncthreads();
  }
}

/* Rotating RGB8 by 90 degrees takes a full SM of blocks (8 on the H100: 32
 * registers without spills, where the compiler took 34, 6 blocks, 1.14
 * waves at 1440p): H100 A/B 0.92 of the time at 1440p, 0.97 at 4K, 1.04 at
 * 720p (under one wave either way). The same bound made GRAY8 by 270
 * degrees 6-10% slower and RGB8 by 270 degrees and transposed 0-3%: they
 * keep the compiler's choice. */
#define RQ_BOUNDS __launch_bounds__(RQ_BX * RQ_BY)
#define RQ_BOUNDS_FULL_SM __launch_bounds__(RQ_BX * RQ_BY, JET_SM_THREADS / (RQ_BX * RQ_BY))
#define JET_ROTQ(BPP, FSX, FSY, BOUNDS)                                                         \
  extern "C" __global__ void BOUNDS jet_rotq##BPP##_##FSX##FSY(const u8 *src, u64 sp, u8 *dst,  \
                                                               u64 dp, int w, int h) {          \
    jet_pdl_enter();                                                                            \
    rotq_fast<BPP, FSX, FSY>(src, sp, dst, dp, w, h);                                           \
  }

JET_ROTQ(1, 0, 0, RQ_BOUNDS)
JET_ROTQ(1, 0, 1, RQ_BOUNDS)
JET_ROTQ(1, 1, 0, RQ_BOUNDS)
JET_ROTQ(3, 0, 0, RQ_BOUNDS)
JET_ROTQ(3, 0, 1, RQ_BOUNDS_FULL_SM)
JET_ROTQ(3, 1, 0, RQ_BOUNDS)
