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
 * and each waits for its source taps once. The per-column and per-row
 * bilinear coordinates of the tile are computed once into shared memory,
 * except where both factors are integers with every centre on a source
 * pixel or halfway between two ("_t1", "_hxy"): there each thread computes
 * its own, with no barrier. A thread issues all its tap loads before any
 * arithmetic and writes each plane with one 8-byte (float) or 4-byte
 * (half) store where the destination allows. A warp covers one row, so
 * rows of letterbox padding are warp-uniform: they store the pad values and
 * read nothing. Large outputs are bound by instruction issue (ncu, H200,
 * NV12 2560x1440 -> 1280x1280: 3.25 warp instructions a cycle of 4, "not
 * selected" the first stall), hence the kernels that drop taps, loads and
 * coordinate work where the factors allow.
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

/* Bilinear weights of the four taps 00, 01, 10, 11 (Q22, summing to 2^22).
 * The Q22 sum S = sum of w[j] * tap[j] equals color_coeffs.h's
 * (ONE-ay)*((ONE-ax)*t00 + ax*t01) + ay*((ONE-ax)*t10 + ax*t11) exactly: the
 * products are distributed, every partial sum is below 2^32. */
__device__ __forceinline__ void weights(u32 ax, u32 ay, u32 *w) {
  const u32 ONE = JET_RESIZE_ONE, wx = ONE - ax, wy = ONE - ay;
  w[0] = wy * wx;
  w[1] = wy * ax;
  w[2] = ay * wx;
  w[3] = ay * ax;
}

__device__ __forceinline__ float normalise(u32 s, float scale, float bias) {
  return __fmaf_rn(__uint2float_rn(s), scale, bias);
}

/* NV12 taps of two pixels (columns x0[k], x0[k] + 1 clamped, k = 0, 1) on
 * source rows y0 and y1 (+1 clamped). Every load is issued before any
 * arithmetic; U and V come in one 16-bit load where the chroma plane allows
 * (when both rows share a chroma row the second loads hit the same bytes).
 * The constant parts of the YUV -> RGB rule (offsets, rounding half) are
 * folded into the launch constants kr, kg, kb, so a tap channel is
 * clamp8((cy*Y + chroma terms + k) >> 16), the color_coeffs.h rule's value. */
template <bool UV16, int TAPS>
__device__ __forceinline__ void nv12_pair(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *x0, const u32 *ax, int y0, u32 ay,
                                          float *out) {
  constexpr bool X1 = TAPS <= 2, Y1 = TAPS == 1; /* no column / row 1 taps */
  const int y1 = Y1 ? y0 : min(y0 + 1, p.sh - 1);
  const u8 *r0 = im.src0 + (u64)y0 * im.src0_pitch, *r1 = im.src0 + (u64)y1 * im.src0_pitch;
  const u8 *c0 = im.src1 + (u64)(y0 >> 1) * im.src1_pitch;
  const u8 *c1 = im.src1 + (u64)(y1 >> 1) * im.src1_pitch;
  int xc[4];
  xc[0] = x0[0];
  xc[1] = min(x0[0] + 1, p.sw - 1);
  xc[2] = x0[1];
  xc[3] = min(x0[1] + 1, p.sw - 1);
  u32 Y[2][4], UV[2][4];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    if (X1 && (k & 1)) continue; /* X1: column x + 1 has weight 0 */
    Y[0][k] = __ldg(r0 + xc[k]);
    if (!Y1) Y[1][k] = __ldg(r1 + xc[k]);
  }
  if (UV16) {
#pragma unroll
    for (int k = 0; k < 4; k++) {
      if (X1 && (k & 1)) continue;
      UV[0][k] = __ldg((const u16 *)c0 + (xc[k] >> 1));
      if (!Y1) UV[1][k] = __ldg((const u16 *)c1 + (xc[k] >> 1));
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4; k++) {
      if (X1 && (k & 1)) continue;
      const int o = xc[k] & ~1;
      UV[0][k] = __ldg(c0 + o) | ((u32)__ldg(c0 + o + 1) << 8);
      if (!Y1) UV[1][k] = __ldg(c1 + o) | ((u32)__ldg(c1 + o + 1) << 8);
    }
  }
#pragma unroll
  for (int px = 0; px < 2; px++) {
    u32 w[4], acc[3] = {0u, 0u, 0u};
    weights(ax[px], ay, w);
#pragma unroll
    for (int j = 0; j < 4; j++) {
      if ((X1 && (j & 1)) || (Y1 && j >= 2)) continue; /* taps of weight 0 */
      const int row = j >> 1, k = 2 * px + (j & 1);
      const int u = (int)(UV[row][k] & 255u), v = (int)(UV[row][k] >> 8);
      const int yy = p.cy * (int)Y[row][k];
      acc[0] += w[j] * clamp_shift(yy, p.crv * v + p.kr);
      acc[1] += w[j] * clamp_shift(yy, p.kg - p.cgu * u - p.cgv * v);
      acc[2] += w[j] * clamp_shift(yy, p.cbu * u + p.kb);
    }
#pragma unroll
    for (int c = 0; c < 3; c++) out[3 * px + c] = normalise(acc[c], p.scale[c], p.bias[c]);
  }
}

/* NV12 content whose every column centre lies halfway between two source
 * columns, at an integer factor sw = k * cw (centre k x + k/2 - 1/2; the
 * launcher checks k and 4-byte aligned planes): a pixel's two column taps
 * have weight 1/2 each. Where k = 2 mod 4 they are columns 2j and 2j + 1,
 * 2 adjacent Y bytes sharing one chroma sample; where the pair's taps are 4
 * adjacent, 4-byte aligned bytes (k = 2, ox even) a row's Y taps of the
 * pair are one 4-byte load and their two U,V pairs another, else 2-byte
 * loads a pixel. QUAD (k = 4 mod 8): the taps are columns 4j + 1 and
 * 4j + 2, bytes 1 and 2 of one aligned word, with two chroma samples, the
 * word at the same offset of the chroma row: two 4-byte loads a pixel and
 * row. The Q22 sum is 2^10 * (wy * (t00 + t01) + ay * (t10 + t11)), the
 * same integer as nv12_pair's four products (ax = 2^10). V2: the rows are
 * halfway too (sh = k * ch, k = 2 mod 4; wy = ay = 2^10), and rows y0 and
 * y0 + 1 share a chroma row, whose chroma terms serve both. A padded pixel
 * of the pair (dnn(): x0[1] == x0[0]) loads its neighbour's bytes.
 * (Sharing the chroma terms where a warp's y0 is even without V2 took 1%
 * off at most: not kept.) */
template <bool V2, bool QUAD>
__device__ __forceinline__ void nv12_half(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *x0, int y0, u32 ay, float *out) {
  const int y1 = min(y0 + 1, p.sh - 1);
  const u8 *r[2] = {im.src0 + (u64)y0 * im.src0_pitch, im.src0 + (u64)y1 * im.src0_pitch};
  const u8 *c[2] = {im.src1 + (u64)(y0 >> 1) * im.src1_pitch, im.src1 + (u64)(y1 >> 1) * im.src1_pitch};
  constexpr int CR = V2 ? 1 : 2; /* chroma rows */
  /* QUAD: per row and pixel, the Y word (taps in bytes 1 and 2) and the
   * chroma word (the taps' U,V pairs in bits 0-15 and 16-31); else per row
   * the pair's Y taps (bits 16 px to 16 px + 15) and U,V pairs (likewise) */
  u32 Y[2][2], UV[2][2];
  if (QUAD) {
#pragma unroll
    for (int px = 0; px < 2; px++) {
#pragma unroll
      for (int k = 0; k < 2; k++) Y[k][px] = __ldg((const u32 *)(r[k] + x0[px] - 1));
#pragma unroll
      for (int k = 0; k < CR; k++) UV[k][px] = __ldg((const u32 *)(c[k] + x0[px] - 1));
    }
  } else if (x0[1] == x0[0] + 2 && (x0[0] & 3) == 0) {
#pragma unroll
    for (int k = 0; k < 2; k++) Y[k][0] = __ldg((const u32 *)(r[k] + x0[0]));
#pragma unroll
    for (int k = 0; k < CR; k++) UV[k][0] = __ldg((const u32 *)(c[k] + x0[0]));
  } else {
#pragma unroll
    for (int k = 0; k < 2; k++)
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
    u32 s[2][3]; /* per row and channel: the two column taps' sum */
#pragma unroll
    for (int row = 0; row < 2; row++) {
      const u32 yw = QUAD ? Y[row][px] >> 8 : Y[row][0] >> (16 * px);
      const int ya = p.cy * (int)(yw & 255u), yb = p.cy * (int)((yw >> 8) & 255u);
#pragma unroll
      for (int ch = 0; ch < 3; ch++) {
        const int cr = V2 ? 0 : row;
        s[row][ch] = clamp_shift(ya, kc[cr][0][ch]) + clamp_shift(yb, kc[cr][QUAD ? 1 : 0][ch]);
      }
    }
#pragma unroll
    for (int ch = 0; ch < 3; ch++) {
      const u32 acc = V2 ? (s[0][ch] + s[1][ch]) << 20
                         : ((JET_RESIZE_ONE - ay) * s[0][ch] + ay * s[1][ch]) << 10;
      out[3 * px + ch] = normalise(acc, p.scale[ch], p.bias[ch]);
    }
  }
}

/* RGBA8 taps of two pixels, as nv12_pair; alpha is ignored. VEC: one 4-byte
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
  /* The Q22 sum in color_coeffs.h's nesting, the same integer as the four
   * products of weights(): each inner sum (Q11 weights of two taps' bytes)
   * is one DP2A on the taps' bytes of a channel paired by one PRMT (R and G
   * in one word, B in another) */
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

/* The taps and sums of a pixel pair, by source path and tap set */
template <int SRC, int TAPS>
__device__ __forceinline__ void pair_taps(const jet__dnn_shared &p, const jet__dnn_image &im,
                                          const int *x0, const u32 *ax, int y0, u32 ay, float *out) {
  constexpr int T4 = TAPS >= TAPS_HALF_X ? 4 : TAPS;
  if (SRC == SRC_NV12_UV16 && TAPS >= TAPS_HALF_X)
    nv12_half<TAPS == TAPS_HALF_XY, TAPS >= TAPS_QUAD_X>(p, im, x0, y0, ay, out);
  else if (SRC == SRC_NV12_UV16)
    nv12_pair<true, T4>(p, im, x0, ax, y0, ay, out);
  else if (SRC == SRC_NV12)
    nv12_pair<false, T4>(p, im, x0, ax, y0, ay, out);
  else if (SRC == SRC_RGBA8_VEC)
    rgba_pair<true, T4>(p, im, x0, ax, y0, ay, out);
  else
    rgba_pair<false, T4>(p, im, x0, ax, y0, ay, out);
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

template <int SRC, bool F16, int TAPS, int NB>
__device__ __forceinline__ void dnn(const dnn_args<NB> &a) {
  const jet__dnn_shared &p = a.s;
  /* blockIdx.z is 0 in a one-image launch; indexing by it there too keeps
   * the batch entry's register allocation (index 0 spilled 4 bytes on sm_90) */
  const jet__dnn_image &im = a.img[blockIdx.z];
  u32 tile_x, tile_y;
  grid_tile(blockIdx.x, p.tiles_x, p.tiles_inv, tile_x, tile_y);
  const int bx = (int)tile_x * TW, by = (int)tile_y * TY;
  /* the pair's first pixel, its source columns and row (-1 outside the
   * content rectangle and the image), and their fractions */
  int x, y, x0[2], y0;
  u32 ax[2] = {0u, 0u}, ay = 0u;
  constexpr bool HALF_XY = TAPS == TAPS_HALF_XY || TAPS == TAPS_QUAD_XY;
  if constexpr (HALF_XY || TAPS == 1) {
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
    y0 = d >= 0 && d < p.ch ? ky * d + hy : -1;
    if (HALF_XY) ax[0] = ax[1] = ay = JET_RESIZE_ONE / 2;
  } else {
    __shared__ int xs[TW], xa[TW], ys[TY], ya[TY];
    const int tid = threadIdx.y * TX + threadIdx.x;
    if (tid < TW + TY) {
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
    const int lx = threadIdx.x * PX;
    x = bx + lx;
    y = by + threadIdx.y;
    if (x >= p.dw || y >= p.dh) return;
    y0 = ys[threadIdx.y];
    x0[0] = xs[lx];
    x0[1] = xs[lx + 1];
    ax[0] = (u32)xa[lx];
    ax[1] = (u32)xa[lx + 1];
    ay = (u32)ya[threadIdx.y];
  }
  const bool two = x + 1 < p.dw;
  float out[6];
  if (y0 < 0 || (x0[0] < 0 && x0[1] < 0)) {
#pragma unroll
    for (int c = 0; c < 3; c++) out[c] = out[3 + c] = p.pad[c];
  } else {
    const bool pad0 = x0[0] < 0, pad1 = x0[1] < 0;
    /* a padded pixel of the pair reads its neighbour's taps, then drops them */
    if (pad0) x0[0] = x0[1];
    if (pad1) x0[1] = x0[0];
    pair_taps<SRC, TAPS>(p, im, x0, ax, y0, ay, out);
#pragma unroll
    for (int c = 0; c < 3; c++) {
      if (pad0) out[c] = p.pad[c];
      if (pad1) out[3 + c] = p.pad[c];
    }
  }
  store_px<F16>(im, x, y, two, p.dst_vec != 0, out);
}

/* One kernel per source path and output type (the launcher picks by name),
 * so that each gets its own register allocation: 32 registers, so 8 blocks of
 * 256 threads fit an SM of 2048 threads (H100; Orin's 1536 take 6 at up to
 * 40); the odd-address NV12 path (two byte loads per chroma site) takes 48
 * rather than spill. A register cap rather than __launch_bounds__' block
 * count, whose meaning changes with the SM's thread limit. */
#define DNN_ENTRY(name, src, f16, regs, taps, nb)                                  \
  extern "C" __global__ void __maxnreg__(regs)                                   \
      name(const __grid_constant__ dnn_args<nb> p) {                             \
    jet_pdl_enter();                                                             \
    dnn<src, f16, taps>(p);                                                      \
  }
/* Each kernel has a batch entry (16 images, 1408 bytes of parameters) and,
 * in the cubins of full builds (not compact ones, not the PTX fallback
 * image), a one-image entry, name_1 (208 bytes), which dnn.c launches for a
 * single image: the launch cost grows with the parameter size. */
#if defined(JET_COMPACT_KERNELS) || defined(JET_IMAGE_PTX)
#define DNN_KERNEL(name, src, f16, regs, taps) DNN_ENTRY(name, src, f16, regs, taps, JET_DNN_BATCH_MAX)
#else
#define DNN_KERNEL(name, src, f16, regs, taps)                \
  DNN_ENTRY(name, src, f16, regs, taps, JET_DNN_BATCH_MAX)    \
  DNN_ENTRY(name##_1, src, f16, regs, taps, 1)
#endif
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
#endif
