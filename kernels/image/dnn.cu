/*
 * dnn: NV12 or RGBA8 -> planar float or half RGB (CHW) in one pass: bilinear
 * resize into the (letterboxed) content rectangle, YUV -> RGB of each tap,
 * per-channel normalisation, padding outside the rectangle
 * (tests/ref/ref_image.h). Half output is the float result rounded to
 * nearest even (cvt.rn.f16.f32, what __float2half_rn does).
 *
 * One launch serves a batch: blockIdx.z picks the image, whose pointers and
 * pitches are in the parameter block (__grid_constant__, so the indexed
 * read stays in the constant bank instead of a local copy).
 *
 * A block of 32 x 8 threads writes a tile of 64 columns by 8 rows, each
 * thread two neighbouring pixels of one row, so a frame has many threads
 * and each waits for its source taps once; the "_r2" kernels (NV12 whose
 * neighbouring rows share source rows, large outputs) write 64 by 16, two
 * rows a thread, and take a shared source row's taps once. The per-column
 * and per-row bilinear coordinates of the tile are computed once into
 * shared memory, except where both factors are integers with every centre
 * on a source pixel or halfway between two ("_t1", "_hxy", "_qxy"): there
 * each thread computes its own, with no barrier. A thread issues all its
 * tap loads before any arithmetic and writes each plane with one 8-byte
 * (float) or 4-byte (half) store where the destination allows. A warp
 * covers one row, so rows of letterbox padding are warp-uniform: they store
 * the pad values and read nothing. Large outputs are bound by instruction
 * issue (ncu, H200, NV12 2560x1440 -> 1280x1280: 3.25 warp instructions a
 * cycle of 4, "not selected" the first stall), hence the kernels that drop
 * taps, loads and coordinate work where the factors allow.
 */
#include "color_coeffs.h"
#include "dnn_params.h"
#include "pdl.cuh"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#include "resize_coord.cuh"

#define TX JET_DNN_TX
#define TY JET_DNN_TY
#define PX JET_DNN_PX
#define TW (TX * PX)

__device__ __forceinline__ u16 half_rn(float f) {
  u16 h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}

/* Pixels (x, y) and, when @two, (x + 1, y): out[c] and out[3 + c] to the
 * plane of channel c; one vector store per plane when @vec (x is even and
 * the launcher checked the planes' alignment). */
template <bool F16>
__device__ __forceinline__ void store_px(const jet__dnn_image &im, int x, int y, bool two, bool vec,
                                         const float *out) {
#pragma unroll
  for (int c = 0; c < 3; c++) {
    u8 *row = im.dst[c] + (u64)y * im.dst_pitch[c];
    if (F16) {
      const u32 a = half_rn(out[c]), b = half_rn(out[3 + c]);
      if (two && vec) {
        ((u32 *)row)[x >> 1] = a | (b << 16);
      } else {
        ((u16 *)row)[x] = (u16)a;
        if (two) ((u16 *)row)[x + 1] = (u16)b;
      }
    } else {
      if (two && vec) {
        ((float2 *)row)[x >> 1] = make_float2(out[c], out[3 + c]);
      } else {
        ((float *)row)[x] = out[c];
        if (two) ((float *)row)[x + 1] = out[3 + c];
      }
    }
  }
}

/* clamp8((a + b) >> SHIFT), a + b already holding the rounding half: the
 * color_coeffs.h rule's value, as min(max(a + b, 0), 2^(SHIFT+8) - 1) >>
 * SHIFT (the same integer: the shift is monotonic), which is one
 * add-min-max (VIADDMNMX.RELU, SM 9.0) and a shift instead of an add, a
 * shift and two min/max (the same three on older SMs). */
__device__ __forceinline__ u32 clamp_shift(int a, int b) {
  return (u32)__viaddmin_s32_relu(a, b, (256 << JET_CC_SHIFT) - 1) >> JET_CC_SHIFT;
}

__device__ __forceinline__ float normalise(u32 s, float scale, float bias) {
  return __fmaf_rn(__uint2float_rn(s), scale, bias);
}

/* Every source path below gives, for a pixel pair and each of NR source
 * rows (y[0], and y[1] when NR = 2), the rows' horizontal sums H[row][3 px +
 * c]: (ONE - ax) * t0 + ax * t1 of the pixel's two column taps' channel c
 * (Q11). The Q22 sum of a pixel is (ONE - ay) * H[0] + ay * H[1] (combine()),
 * color_coeffs.h's (ONE-ay)*((ONE-ax)*t00 + ax*t01) + ay*((ONE-ax)*t10 +
 * ax*t11) exactly: every partial sum is below 2^32. */

/* NV12 taps of two pixels (columns xc[2 px], and xc[2 px + 1], its
 * neighbour clamped) on NR source rows. Every load is issued before any
 * arithmetic; U and V come in one 16-bit load where the chroma plane allows
 * (when both rows share a chroma row the second loads hit the same bytes).
 * The constant parts of the YUV -> RGB rule (offsets, rounding half) are
 * folded into the launch constants kr, kg, kb, so a tap channel is
 * clamp8((cy*Y + chroma terms + k) >> 16), the color_coeffs.h rule's value.
 * X1: every column centre on a source column (ax = 0: no column x + 1 taps,
 * H = ONE * t0). */
template <bool UV16, bool X1, int NR>
__device__ __forceinline__ void nv12_rows(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *xc, const u32 *ax, const int *y, u32 (*H)[6]) {
  u32 Y[NR][4], UV[NR][4];
#pragma unroll
  for (int row = 0; row < NR; row++) {
    const u8 *r = im.src0 + (u64)y[row] * im.src0_pitch;
    const u8 *c = im.src1 + (u64)(y[row] >> 1) * im.src1_pitch;
#pragma unroll
    for (int k = 0; k < 4; k++) {
      if (X1 && (k & 1)) continue; /* X1: column x + 1 has weight 0 */
      Y[row][k] = __ldg(r + xc[k]);
      if (UV16) {
        UV[row][k] = __ldg((const u16 *)c + (xc[k] >> 1));
      } else {
        const int o = xc[k] & ~1;
        UV[row][k] = __ldg(c + o) | ((u32)__ldg(c + o + 1) << 8);
      }
    }
  }
#pragma unroll
  for (int row = 0; row < NR; row++)
#pragma unroll
    for (int px = 0; px < 2; px++) {
      u32 t[2][3];
#pragma unroll
      for (int j = 0; j < 2; j++) {
        if (X1 && j) continue;
        const int k = 2 * px + j;
        const int u = (int)(UV[row][k] & 255u), v = (int)(UV[row][k] >> 8);
        const int yy = p.cy * (int)Y[row][k];
        t[j][0] = clamp_shift(yy, p.crv * v + p.kr);
        t[j][1] = clamp_shift(yy, p.kg - p.cgu * u - p.cgv * v);
        t[j][2] = clamp_shift(yy, p.cbu * u + p.kb);
      }
#pragma unroll
      for (int c = 0; c < 3; c++)
        H[row][3 * px + c] = X1 ? t[0][c] << JET_RESIZE_FRAC_BITS
                                : (JET_RESIZE_ONE - ax[px]) * t[0][c] + ax[px] * t[1][c];
    }
}

/* NV12 content whose every column centre lies halfway between two source
 * columns, at an integer factor sw = k * cw (centre k x + k/2 - 1/2; the
 * launcher checks k and 4-byte aligned planes): a pixel's two column taps
 * have weight 1/2 each (H = 2^10 * (ta + tb)). Where k = 2 mod 4 they are
 * columns 2j and 2j + 1, 2 adjacent Y bytes sharing one chroma sample;
 * where the pair's taps are 4 adjacent, 4-byte aligned bytes (k = 2, ox
 * even) a row's Y taps of the pair are one 4-byte load and their two U,V
 * pairs another, else 2-byte loads a pixel. QUAD (k = 4 mod 8): the taps
 * are columns 4j + 1 and 4j + 2, bytes 1 and 2 of one aligned word, with
 * two chroma samples, the word at the same offset of the chroma row: two
 * 4-byte loads a pixel and row. V2 (NR = 2): the rows share a chroma row
 * (y[0] even, y[1] = y[0] + 1: sh = k * ch, k = 2 mod 4), whose chroma
 * terms serve both. A padded pixel of the pair (dnn(): x0[1] == x0[0])
 * loads its neighbour's bytes. (Sharing the chroma terms where a warp's
 * y[0] is even without V2 took 1% off at most: not kept.) */
template <bool V2, bool QUAD, int NR>
__device__ __forceinline__ void nv12_half(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *x0, const int *y, u32 (*H)[6]) {
  constexpr int CR = V2 ? 1 : NR; /* chroma rows */
  const u8 *r[NR], *c[CR];
#pragma unroll
  for (int k = 0; k < NR; k++) r[k] = im.src0 + (u64)y[k] * im.src0_pitch;
#pragma unroll
  for (int k = 0; k < CR; k++) c[k] = im.src1 + (u64)(y[k] >> 1) * im.src1_pitch;
  /* QUAD: per row and pixel, the Y word (taps in bytes 1 and 2) and the
   * chroma word (the taps' U,V pairs in bits 0-15 and 16-31); else per row
   * the pair's Y taps (bits 16 px to 16 px + 15) and U,V pairs (likewise) */
  u32 Y[NR][2], UV[CR][2];
  if (QUAD) {
#pragma unroll
    for (int px = 0; px < 2; px++) {
#pragma unroll
      for (int k = 0; k < NR; k++) Y[k][px] = __ldg((const u32 *)(r[k] + x0[px] - 1));
#pragma unroll
      for (int k = 0; k < CR; k++) UV[k][px] = __ldg((const u32 *)(c[k] + x0[px] - 1));
    }
  } else if (x0[1] == x0[0] + 2 && (x0[0] & 3) == 0) {
#pragma unroll
    for (int k = 0; k < NR; k++) Y[k][0] = __ldg((const u32 *)(r[k] + x0[0]));
#pragma unroll
    for (int k = 0; k < CR; k++) UV[k][0] = __ldg((const u32 *)(c[k] + x0[0]));
  } else {
#pragma unroll
    for (int k = 0; k < NR; k++)
      Y[k][0] = __ldg((const u16 *)(r[k] + x0[0])) | ((u32)__ldg((const u16 *)(r[k] + x0[1])) << 16);
#pragma unroll
    for (int k = 0; k < CR; k++)
      UV[k][0] = __ldg((const u16 *)(c[k] + x0[0])) | ((u32)__ldg((const u16 *)(c[k] + x0[1])) << 16);
  }
#pragma unroll
  for (int px = 0; px < 2; px++) {
    int kc[CR][2][3]; /* chroma terms of R, G, B of the column taps a and b */
#pragma unroll
    for (int k = 0; k < CR; k++) {
#pragma unroll
      for (int t = 0; t < (QUAD ? 2 : 1); t++) {
        const u32 uv = QUAD ? UV[k][px] >> (16 * t) : UV[k][0] >> (16 * px);
        const int u = (int)(uv & 255u), v = (int)((uv >> 8) & 255u);
        kc[k][t][0] = p.crv * v + p.kr;
        kc[k][t][1] = p.kg - p.cgu * u - p.cgv * v;
        kc[k][t][2] = p.cbu * u + p.kb;
      }
    }
#pragma unroll
    for (int row = 0; row < NR; row++) {
      const u32 yw = QUAD ? Y[row][px] >> 8 : Y[row][0] >> (16 * px);
      const int ya = p.cy * (int)(yw & 255u), yb = p.cy * (int)((yw >> 8) & 255u);
#pragma unroll
      for (int ch = 0; ch < 3; ch++) {
        const int cr = V2 ? 0 : row;
        H[row][3 * px + ch] =
            (clamp_shift(ya, kc[cr][0][ch]) + clamp_shift(yb, kc[cr][QUAD ? 1 : 0][ch])) << 10;
      }
    }
  }
}

/* RGBA8 taps of two pixels (columns x0[k], x0[k] + 1 clamped) on source
 * rows y0 and y0 + 1 (clamped); alpha is ignored. VEC: one 4-byte
 * load per tap (the launcher checked the alignment). */
template <bool VEC, int TAPS>
__device__ __forceinline__ void rgba_pair(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *x0, const u32 *ax, int y0, u32 ay,
                                          float *out) {
  constexpr bool X1 = TAPS <= 2, Y1 = TAPS == 1; /* no column / row 1 taps */
  const int y1 = Y1 ? y0 : min(y0 + 1, p.sh - 1);
  const u8 *r0 = im.src0 + (u64)y0 * im.src0_pitch, *r1 = im.src0 + (u64)y1 * im.src0_pitch;
  int xc[4];
  xc[0] = x0[0];
  xc[1] = min(x0[0] + 1, p.sw - 1);
  xc[2] = x0[1];
  xc[3] = min(x0[1] + 1, p.sw - 1);
  u32 W[2][4];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    if (X1 && (k & 1)) continue; /* X1: column x + 1 has weight 0 */
    if (VEC) {
      W[0][k] = __ldg((const u32 *)r0 + xc[k]);
      if (!Y1) W[1][k] = __ldg((const u32 *)r1 + xc[k]);
    } else {
      const u8 *q0 = r0 + (u64)xc[k] * 4, *q1 = r1 + (u64)xc[k] * 4;
      W[0][k] = __ldg(q0) | ((u32)__ldg(q0 + 1) << 8) | ((u32)__ldg(q0 + 2) << 16);
      if (!Y1) W[1][k] = __ldg(q1) | ((u32)__ldg(q1 + 1) << 8) | ((u32)__ldg(q1 + 2) << 16);
    }
  }
  /* The Q22 sum in color_coeffs.h's nesting, (ONE-ay)*((ONE-ax)*t00 +
   * ax*t01) + ay*((ONE-ax)*t10 + ax*t11) (every partial sum below 2^32):
   * each inner sum (Q11 weights of two taps' bytes) is one DP2A on the
   * taps' bytes of a channel paired by one PRMT (R and G in one word, B in
   * another) */
#pragma unroll
  for (int px = 0; px < 2; px++) {
    u32 acc[3];
    if constexpr (TAPS == 1) {
#pragma unroll
      for (int c = 0; c < 3; c++) acc[c] = ((W[0][2 * px] >> (8 * c)) & 255u) << (2 * JET_RESIZE_FRAC_BITS);
    } else {
      /* pairs of taps: across (00 and 01, 10 and 11), or down (00 and 10) */
      const int rows = TAPS == 4 ? 2 : 1;
      const u32 f = TAPS == 4 ? ax[px] : ay, wf = (JET_RESIZE_ONE - f) | (f << 16);
      u32 h[2][3];
#pragma unroll
      for (int r = 0; r < rows; r++) {
        const u32 t0 = W[r][2 * px], t1 = TAPS == 4 ? W[r][2 * px + 1] : W[1][2 * px];
        const u32 rg = __byte_perm(t0, t1, 0x5140), b = __byte_perm(t0, t1, 0x0062);
        h[r][0] = __dp2a_lo(wf, rg, 0u);
        h[r][1] = __dp2a_hi(wf, rg, 0u);
        h[r][2] = __dp2a_lo(wf, b, 0u);
      }
#pragma unroll
      for (int c = 0; c < 3; c++)
        acc[c] = TAPS == 4 ? (JET_RESIZE_ONE - ay) * h[0][c] + ay * h[1][c] : h[0][c] << JET_RESIZE_FRAC_BITS;
    }
#pragma unroll
    for (int c = 0; c < 3; c++) out[3 * px + c] = normalise(acc[c], p.scale[c], p.bias[c]);
  }
}

/* Source paths, chosen per launch: NV12 whose chroma planes all allow 16-bit
 * U,V loads, other NV12 (odd chroma addresses), RGBA8 with 4-byte aligned
 * pixels, other RGBA8. */
enum { SRC_NV12_UV16, SRC_NV12, SRC_RGBA8_VEC, SRC_RGBA8 };

/* Tap sets: 4, or 2 (every column centre on a source column: taps 00 and
 * 10), or 1 (tap 00 alone); HALF_X: NV12 whose column centres lie halfway
 * between an even source column and the next (nv12_half); HALF_XY: every
 * column and row centre halfway between two source pixels, at factors kx
 * and ky (jet__dnn_shared.kxy), the pair's coordinates computed in the
 * thread (dnn()): NV12 with both centres on even ones (nv12_half), RGBA8
 * with even factors (rgba_pair's four taps, ax = ay = 1/2). QUAD_X and
 * QUAD_XY: the same for NV12 whose column centres lie halfway between
 * columns 4j + 1 and 4j + 2 (nv12_half's QUAD), with the rows from the
 * table or, for QUAD_XY, halfway between an odd row and the next. */
enum { TAPS_HALF_X = 5, TAPS_HALF_XY = 6, TAPS_QUAD_X = 7, TAPS_QUAD_XY = 8 };

/* Kernels whose coordinates come from the tile's shared-memory tables */
__host__ __device__ constexpr bool table_taps(int taps) {
  return taps == 4 || taps == 2 || taps == TAPS_HALF_X || taps == TAPS_QUAD_X;
}

/* NV12's horizontal sums of a pixel pair (first columns x0[0], x0[1]) on NR
 * source rows y[], by source path and tap set */
template <int SRC, int TAPS, int NR>
__device__ __forceinline__ void row_sums(const jet__dnn_shared &p, const jet__dnn_image &im,
                                         const int *x0, const u32 *ax, const int *y, u32 (*H)[6]) {
  if constexpr (TAPS >= TAPS_HALF_X) {
    nv12_half<TAPS == TAPS_HALF_XY, TAPS >= TAPS_QUAD_X, NR>(p, im, x0, y, H);
  } else {
    int xc[4];
    xc[0] = x0[0];
    xc[1] = min(x0[0] + 1, p.sw - 1);
    xc[2] = x0[1];
    xc[3] = min(x0[1] + 1, p.sw - 1);
    nv12_rows<SRC == SRC_NV12_UV16, TAPS <= 2, NR>(p, im, xc, ax, y, H);
  }
}

/* A pixel pair's results from its rows' sums: (ONE - ay) * H[0] + ay *
 * H[1], or ONE * H[0] where NR = 1 (every row centre on a source row),
 * normalised */
template <int NR>
__device__ __forceinline__ void combine(const jet__dnn_shared &p, const u32 (*H)[6], u32 ay, float *out) {
#pragma unroll
  for (int k = 0; k < 6; k++) {
    const u32 acc = NR == 1 ? H[0][k] << JET_RESIZE_FRAC_BITS
                            : (JET_RESIZE_ONE - ay) * H[0][k] + ay * H[NR - 1][k];
    out[k] = normalise(acc, p.scale[k % 3], p.bias[k % 3]);
  }
}

/* The results of a pixel pair on source rows y0 and y0 + 1 (clamped), by
 * source path and tap set */
template <int SRC, int TAPS>
__device__ __forceinline__ void pair_taps(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *x0, const u32 *ax, int y0, u32 ay, float *out) {
  if constexpr (SRC == SRC_NV12_UV16 || SRC == SRC_NV12) {
    constexpr int NR = TAPS == 1 ? 1 : 2;
    const int yr[2] = {y0, min(y0 + 1, p.sh - 1)};
    u32 H[NR][6];
    row_sums<SRC, TAPS, NR>(p, im, x0, ax, yr, H);
    combine<NR>(p, H, ay, out);
  } else {
    rgba_pair<SRC == SRC_RGBA8_VEC, TAPS >= TAPS_HALF_X ? 4 : TAPS>(p, im, x0, ax, y0, ay, out);
  }
}

/* A kernel's parameters: jet__dnn_kparams with room for NB images (16, or
 * 1 for the "_1" entries), of which dnn.c passes the first bytes. */
template <int NB>
struct dnn_args {
  jet__dnn_shared s;
  jet__dnn_image img[NB];
};
static_assert(sizeof(dnn_args<JET_DNN_BATCH_MAX>) == sizeof(jet__dnn_kparams) && sizeof(dnn_args<1>) == 208,
              "dnn_args is a prefix of jet__dnn_kparams");

/* Source column or row of destination index @d inside content [o, o + cn)
 * of a source of sn (bilinear, color_coeffs.h), and its Q11 fraction; -1
 * outside. */
__device__ __forceinline__ void content_coord(int d, int o, int cn, int sn, u32 inv, int &s, int &f) {
  s = -1;
  f = 0;
  if (d >= o && d < o + cn) {
    if (coord_fit32(cn, sn))
      lin_coord_inv(d - o, cn, sn, inv, s, f);
    else
      lin_coord(d - o, cn, sn, false, s, f);
  }
}

/* The pad values into @out where the pair's pixels are padding */
__device__ __forceinline__ void pad_px(const jet__dnn_shared &p, bool pad0, bool pad1, float *out) {
#pragma unroll
  for (int c = 0; c < 3; c++) {
    if (pad0) out[c] = p.pad[c];
    if (pad1) out[3 + c] = p.pad[c];
  }
}

/* R2 (table kernels only): each thread writes its pixel pair on JET_DNN_RY
 * = 2 neighbouring rows */
template <int SRC, bool F16, int TAPS, int NB, bool R2>
__device__ __forceinline__ void dnn(const dnn_args<NB> &a) {
  const jet__dnn_shared &p = a.s;
  /* blockIdx.z is 0 in a one-image launch; indexing by it there too keeps
   * the batch entry's register allocation (index 0 spilled 4 bytes on sm_90) */
  const jet__dnn_image &im = a.img[blockIdx.z];
  constexpr bool TABLE = table_taps(TAPS), HALF_XY = TAPS == TAPS_HALF_XY || TAPS == TAPS_QUAD_XY;
  static_assert(TABLE || !R2, "two rows a thread: table kernels only");
  constexpr int RY = R2 ? JET_DNN_RY : 1; /* destination rows a thread */
  u32 tile_x, tile_y;
  grid_tile(blockIdx.x, p.tiles_x, p.tiles_inv, tile_x, tile_y);
  const int bx = (int)tile_x * TW, by = (int)tile_y * (TY * RY);
  /* the pair's first pixel, its source columns and rows (-1 outside the
   * content rectangle and the image), and their fractions */
  int x, y, x0[2], y0[RY];
  u32 ax[2] = {0u, 0u}, ay[RY];
  if constexpr (!TABLE) {
    x = bx + (int)threadIdx.x * PX;
    y = by + (int)threadIdx.y;
    /* integer factors kx and ky both ways: the centre of column d is
     * kx * d + kx/2 - 1/2, which is source column kx * d + (kx - 1) / 2
     * for odd kx (tap 00 alone, "_t1") and halfway between that column and
     * the next for even kx (ax = 1/2, "_hxy"); rows likewise. Computed in
     * each thread: no shared memory, no barrier. (Rows by the bilinear rule
     * in each thread for "_hx" took 1.02-1.04 of the shared-memory time.) */
    if (x >= p.dw || y >= p.dh) return;
    const int kx = p.kxy & 0xffff, ky = p.kxy >> 16;
    /* (k - 1) / 2: k / 2 - 1 for even k */
    const int hx = TAPS == 1 ? (kx - 1) >> 1 : (kx >> 1) - 1, hy = TAPS == 1 ? (ky - 1) >> 1 : (ky >> 1) - 1;
#pragma unroll
    for (int k = 0; k < 2; k++) {
      const int d = x + k - p.ox;
      x0[k] = d >= 0 && d < p.cw ? kx * d + hx : -1;
    }
    const int d = y - p.oy;
    y0[0] = d >= 0 && d < p.ch ? ky * d + hy : -1;
    ay[0] = 0u;
    if (HALF_XY) ax[0] = ax[1] = ay[0] = JET_RESIZE_ONE / 2;
  } else {
    __shared__ int xs[TW], xa[TW], ys[TY * RY], ya[TY * RY];
    const int tid = threadIdx.y * TX + threadIdx.x;
    if (tid < TW + TY * RY) {
      const int col = tid < TW;
      int s, f;
      content_coord(col ? bx + tid : by + (tid - TW), col ? p.ox : p.oy, col ? p.cw : p.ch,
                    col ? p.sw : p.sh, col ? p.inv_cw : p.inv_ch, s, f);
      if (col) {
        xs[tid] = s;
        xa[tid] = f;
      } else {
        ys[tid - TW] = s;
        ya[tid - TW] = f;
      }
    }
    __syncthreads();
    const int lx = threadIdx.x * PX, ly = threadIdx.y * RY;
    x = bx + lx;
    y = by + ly;
    if (x >= p.dw || y >= p.dh) return;
#pragma unroll
    for (int k = 0; k < RY; k++) {
      y0[k] = ys[ly + k];
      ay[k] = (u32)ya[ly + k];
    }
    x0[0] = xs[lx];
    x0[1] = xs[lx + 1];
    ax[0] = (u32)xa[lx];
    ax[1] = (u32)xa[lx + 1];
  }
  const bool two = x + 1 < p.dw;
  const bool pad0 = x0[0] < 0, pad1 = x0[1] < 0;
  float out[6];
  u32 H[2][6]; /* R2: the sums of source rows y0[0] and y0[0] + 1 (clamped) */
  if (y0[0] < 0 || (pad0 && pad1)) {
    pad_px(p, true, true, out);
  } else {
    /* a padded pixel of the pair reads its neighbour's taps, then drops them */
    if (pad0) x0[0] = x0[1];
    if (pad1) x0[1] = x0[0];
    if constexpr (R2) {
      const int yr[2] = {y0[0], min(y0[0] + 1, p.sh - 1)};
      row_sums<SRC, TAPS, 2>(p, im, x0, ax, yr, H);
      combine<2>(p, H, ay[0], out);
    } else {
      pair_taps<SRC, TAPS>(p, im, x0, ax, y0[0], ay[0], out);
    }
    pad_px(p, pad0, pad1, out);
  }
  store_px<F16>(im, x, y, two, p.dst_vec != 0, out);
  if constexpr (R2) {
    /* Row y + 1 (a warp's rows are the same, so every branch below is
     * warp-uniform): the sums of the source rows it shares with row y
     * (enlarging, and downscaling by less than 2) are kept, the others
     * taken */
    static_assert(SRC == SRC_NV12_UV16, "two rows a thread: aligned NV12");
    if (y + 1 >= p.dh) return;
    if (y0[1] < 0 || (pad0 && pad1)) {
      pad_px(p, true, true, out);
    } else {
      /* repeated: where row y was padding it skipped them (done once above
       * both rows, they changed the one-row kernels' SASS) */
      if (pad0) x0[0] = x0[1];
      if (pad1) x0[1] = x0[0];
      const int yr[2] = {y0[1], min(y0[1] + 1, p.sh - 1)};
      if (y0[0] >= 0 && y0[1] == y0[0] + 1) {
#pragma unroll
        for (int k = 0; k < 6; k++) H[0][k] = H[1][k];
        row_sums<SRC, TAPS, 1>(p, im, x0, ax, yr + 1, H + 1);
      } else if (y0[0] < 0 || y0[1] != y0[0]) {
        row_sums<SRC, TAPS, 2>(p, im, x0, ax, yr, H);
      }
      combine<2>(p, H, ay[1], out);
      pad_px(p, pad0, pad1, out);
    }
    store_px<F16>(im, x, y + 1, two, p.dst_vec != 0, out);
  }
}

/* One kernel per source path and output type (the launcher picks by name),
 * so that each gets its own register allocation: 32 registers, so 8 blocks of
 * 256 threads fit an SM of 2048 threads (H100; Orin's 1536 take 6 at up to
 * 40); the odd-address NV12 path (two byte loads per chroma site) takes 48
 * rather than spill. A register cap rather than __launch_bounds__' block
 * count, whose meaning changes with the SM's thread limit. */
#define DNN_ENTRY(name, src, f16, regs, taps, nb, r2)                              \
  extern "C" __global__ void __maxnreg__(regs)                                   \
      name(const __grid_constant__ dnn_args<nb> p) {                             \
    jet_pdl_enter();                                                             \
    dnn<src, f16, taps, nb, r2>(p);                                              \
  }
/* Each kernel has a batch entry (16 images, 1408 bytes of parameters) and,
 * in the cubins of full builds (not compact ones, not the PTX fallback
 * image), a one-image entry, name_1 (208 bytes), which dnn.c launches for a
 * single image: the launch cost grows with the parameter size. */
#if defined(JET_COMPACT_KERNELS) || defined(JET_IMAGE_PTX)
#define DNN_KERNEL_R(name, src, f16, regs, taps, r2) DNN_ENTRY(name, src, f16, regs, taps, JET_DNN_BATCH_MAX, r2)
#else
#define DNN_KERNEL_R(name, src, f16, regs, taps, r2)              \
  DNN_ENTRY(name, src, f16, regs, taps, JET_DNN_BATCH_MAX, r2)    \
  DNN_ENTRY(name##_1, src, f16, regs, taps, 1, r2)
#endif
#define DNN_KERNEL(name, src, f16, regs, taps) DNN_KERNEL_R(name, src, f16, regs, taps, false)
/* The four aligned-source kernels (NV12 with 16-bit chroma loads, RGBA8 with
 * word loads; float and half), named with suffix SFX, taking TAPS taps. */
#define DNN_ALIGNED(sfx, taps)                                      \
  DNN_KERNEL(jet_dnn_nv12_f32##sfx, SRC_NV12_UV16, false, 32, taps) \
  DNN_KERNEL(jet_dnn_nv12_f16##sfx, SRC_NV12_UV16, true, 32, taps)  \
  DNN_KERNEL(jet_dnn_rgba8_f32##sfx, SRC_RGBA8_VEC, false, 32, taps) \
  DNN_KERNEL(jet_dnn_rgba8_f16##sfx, SRC_RGBA8_VEC, true, 32, taps)
DNN_ALIGNED(, 4)
DNN_KERNEL(jet_dnn_nv12_odd_f32, SRC_NV12, false, 48, 4)
DNN_KERNEL(jet_dnn_nv12_odd_f16, SRC_NV12, true, 48, 4)
DNN_KERNEL(jet_dnn_rgba8_odd_f32, SRC_RGBA8, false, 32, 4)
DNN_KERNEL(jet_dnn_rgba8_odd_f16, SRC_RGBA8, true, 32, 4)
/* Content whose every pixel centre is on a source pixel (sw = k * cw and
 * sh = j * ch, k and j odd: 1920x1080 letterboxed to 640x640, 3840x2160 to
 * 1280x1280, the identity): only tap 00 has a weight (2^22), so these load
 * and sum it alone ("_t1"); where only the columns are so (sw = k * cw, k
 * odd, rows otherwise: 1280x720 stretched to 1280x1280, 3840x2160 to
 * 1280x1280, 1920x1080 to 640x640) taps 00 and 10 ("_tx": half the loads
 * and conversions). The same integers. Aligned sources only; a compact build
 * (JET_COMPACT_KERNELS) leaves them out and dnn.c takes the kernels above. */
#ifndef JET_COMPACT_KERNELS
DNN_ALIGNED(_t1, 1)
DNN_ALIGNED(_tx, 2)
/* NV12 column centres ("_hx"), or column and row centres ("_hxy"), halfway
 * between an even source column (row) and the next: nv12_half; the
 * launcher checks the factors and 4-byte aligned Y and chroma planes.
 * Likewise NV12 column centres halfway between columns 4j + 1 and 4j + 2
 * ("_qx"), and rows between an odd row and the next too ("_qxy"). RGBA8 at
 * even factors across and down ("_hxy"). */
DNN_KERNEL(jet_dnn_nv12_f32_hx, SRC_NV12_UV16, false, 32, TAPS_HALF_X)
DNN_KERNEL(jet_dnn_nv12_f16_hx, SRC_NV12_UV16, true, 32, TAPS_HALF_X)
DNN_KERNEL(jet_dnn_nv12_f32_hxy, SRC_NV12_UV16, false, 32, TAPS_HALF_XY)
DNN_KERNEL(jet_dnn_nv12_f16_hxy, SRC_NV12_UV16, true, 32, TAPS_HALF_XY)
DNN_KERNEL(jet_dnn_nv12_f32_qx, SRC_NV12_UV16, false, 32, TAPS_QUAD_X)
DNN_KERNEL(jet_dnn_nv12_f16_qx, SRC_NV12_UV16, true, 32, TAPS_QUAD_X)
DNN_KERNEL(jet_dnn_nv12_f32_qxy, SRC_NV12_UV16, false, 32, TAPS_QUAD_XY)
DNN_KERNEL(jet_dnn_nv12_f16_qxy, SRC_NV12_UV16, true, 32, TAPS_QUAD_XY)
DNN_KERNEL(jet_dnn_rgba8_f32_hxy, SRC_RGBA8_VEC, false, 32, TAPS_HALF_XY)
DNN_KERNEL(jet_dnn_rgba8_f16_hxy, SRC_RGBA8_VEC, true, 32, TAPS_HALF_XY)
/* NV12 whose rows' source rows overlap ("_r2": enlarging, or downscaling by
 * less than 5/4; dnn.c): two rows a thread, 40 registers (6 blocks an SM of
 * 2048 threads, Orin's 1536 whole) where 32 spilled */
DNN_KERNEL_R(jet_dnn_nv12_f32_r2, SRC_NV12_UV16, false, 40, 4, true)
DNN_KERNEL_R(jet_dnn_nv12_f16_r2, SRC_NV12_UV16, true, 40, 4, true)
DNN_KERNEL_R(jet_dnn_nv12_f32_tx_r2, SRC_NV12_UV16, false, 40, 2, true)
DNN_KERNEL_R(jet_dnn_nv12_f16_tx_r2, SRC_NV12_UV16, true, 40, 2, true)
DNN_KERNEL_R(jet_dnn_nv12_f32_hx_r2, SRC_NV12_UV16, false, 40, TAPS_HALF_X, true)
DNN_KERNEL_R(jet_dnn_nv12_f16_hx_r2, SRC_NV12_UV16, true, 40, TAPS_HALF_X, true)
#endif
