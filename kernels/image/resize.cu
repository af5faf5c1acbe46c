/*
 * resize: nearest, bilinear and area resize, and bilinear remap, for the
 * pixel formats (8-bit with 1, 3 or 4 channels; float with 1 or 3). The
 * arithmetic is color_coeffs.h's, bit for bit for 8-bit results.
 *
 * Resize. A block of 32 x 8 threads writes a tile of 32*G columns by 8*R rows;
 * each thread a group of G consecutive pixels (G = 4 for 1- and 3-channel
 * 8-bit, so that a group is 4 or 12 bytes, stored as 32-bit words) in R rows
 * 8 apart, so a warp covers one contiguous stretch of a row. The per-column
 * and per-row source coordinates (64-bit divisions) are computed once per
 * block into shared memory (32-bit divisions where the sizes allow; RGBA8
 * nearest, whose threads need 1 column and 2 rows, computes its own). Blocks
 * are numbered along one grid axis (tiles in row-major order), so no image
 * size runs into the 65535 limit of grid y.
 *
 * R (p.rows, 1 to 4) is the launcher's: 4, less where the destination would
 * give fewer than 8 blocks per SM (a 640x360 area result was 60 blocks, under
 * one per SM), or fewer than 2 for the kernels that load several of a thread's
 * rows before storing (GRAY8 nearest and bilinear, see resize_u8c1; float
 * bilinear, see resize_f32_linear). 1- and 3-channel 8-bit area by integer
 * factors 2..4 across with aligned rows (jet_resize_u8c{1,3}_area_int) sums
 * aligned words, one row per thread.
 *
 * RGB8 bilinear with aligned source rows, above 1/2 across, takes a tap
 * pair's 6 bytes from 3 words shifted to the first byte instead of 12 byte
 * loads (jet_resize_u8c3w_linear, resize_u8 with VEC).
 *
 * RGBA8 with aligned rows has its own kernels (jet_resize_u8c4v_*, chosen by
 * the launcher): nearest and bilinear issue all of a thread's loads before
 * any store; area by integer factors sums packed words without weights.
 * Their threads write JET_RS_ROWS_C4 (2) rows, tiles 32 x 16: a 960x540
 * destination is 1020 blocks, about one full wave of 8 blocks on each of an
 * H100's 132 SMs, where 32-row tiles left half of every SM idle.
 *
 * 8-bit enlarging with aligned source rows, and float bilinear enlarging,
 * have their own kernels (jet_resize_u8c{1,3,4}_up_*, see resize_up;
 * jet_resize_f32c{1,3}_up_linear, see resize_up_f32): a thread walks up to
 * JET_RS_ROWS_UP consecutive rows and takes each source row's taps once.
 *
 * Area whose windows meet at most 4 source pixels per axis (factors down to
 * about 1/3) with 32-bit window arithmetic has kernels with tabulated
 * weights (jet_resize_{u8,f32}c*_area_k{2,3,4,3x2}, see area_k).
 *
 * GRAYF32 bilinear and area by exactly 1/2 from aligned rows take the mean
 * of each 2 x 2 block, 2 pixels a thread (jet_resize_f32c1_half).
 *
 * Nearest by exactly 2 on both axes from aligned rows (8-bit, and GRAYF32
 * as 4-byte pixels) doubles each source row into two destination rows with
 * byte permutations, no coordinates (jet_resize_u8c{1,3,4}_up2_nearest, see
 * resize_up2_nearest); by exactly 3/2 they repeat pixels and rows in the
 * pattern 0, 1, 1 (jet_resize_u8c{1,3,4}_up32_nearest).
 *
 * Bilinear and area by exactly 2/3 or 3/4 on both axes from aligned rows
 * take fixed weights per group of 3 or 4 source pixels, whole words, no
 * tables (jet_resize_{u8,f32}c*_{linear,area}_r{32,43}, see resize_frac).
 *
 * A batch (jet_resize_batch) is one launch: blockIdx.z picks the pair,
 * p.img[blockIdx.z] its planes; a single resize is a batch of one.
 *
 * Float sums (bilinear, area, remap) carry their rounding error along
 * (compensated products and sums with explicitly rounded intrinsics, which no
 * compiler contracts), so the sum is the exactly rounded value of the
 * reference's formula for all practical purposes; area then divides that
 * float by its weight total, a second rounding (within 1 ulp of the
 * reference).
 *
 * Float area with small windows and by exactly 2/3 or 3/4 also has FP64
 * twins (jet_resize_f32c{1,3}_area_{k*,r32,r43}_f64), built only for the
 * SMs whose FP64 runs at half the FP32 rate (JET_RS_F64_SM) and chosen by
 * the launcher under jet_policy.fp64_sums: exact products, double sums and
 * one rounding of the quotient (f64_quot), fewer instructions than the
 * compensated FP32 sums (H200: 0.80-0.96 of their time by 2/3, 3/4 and
 * 1/3; the same by 1/2). Jetson's and GeForce's FP64 is a small fraction of
 * their FP32, so they keep the FP32 kernels.
 */
#include "color_coeffs.h"
#include "resize_params.h"
#include "pdl.cuh"
#include "sm_threads.cuh"

typedef unsigned char u8;
typedef unsigned int u32;
#include "resize_coord.cuh"
typedef unsigned long long u64;

#define TX JET_RS_TX
#define TY JET_RS_TY
#define ROWS JET_RS_ROWS
#define TH (TY * ROWS)
/* The RGBA8 fast kernels (jet_resize_u8c4v_*): fewer rows per thread, so
 * that destinations of 720p to 1080p fill a whole wave of 8 blocks per SM */
#define RC4 JET_RS_ROWS_C4
#define TH_C4 (TY * RC4)

#define MODE_NEAREST 0
#define MODE_LINEAR 1
#define MODE_AREA 2

/* ------------------------------------------------------------ float sums */

struct df {
  float hi, lo;
};

/* s + e = a + b exactly (Knuth's TwoSum), s = a + b rounded. */
__device__ __forceinline__ void two_sum(float a, float b, float &s, float &e) {
  s = __fadd_rn(a, b);
  const float bb = __fsub_rn(s, a);
  e = __fadd_rn(__fsub_rn(a, __fsub_rn(s, bb)), __fsub_rn(b, bb));
}

__device__ __forceinline__ void df_add(df &a, float b) {
  float s, err;
  two_sum(a.hi, b, s, err);
  a.hi = s;
  a.lo = __fadd_rn(a.lo, err);
}

/* a += x * y with the product's rounding error kept. */
__device__ __forceinline__ void df_add_prod(df &a, float x, float y) {
  float p = __fmul_rn(x, y);
  float e = __fmaf_rn(x, y, -p);
  df_add(a, p);
  a.lo = __fadd_rn(a.lo, e);
}

__device__ __forceinline__ float df_value(df a) { return __fadd_rn(a.hi, a.lo); }

/* df_add_prod({0, 0}, x, y) with the steps that cannot change a bit left out
 * (same result for every input, -0, infinities and NaN included). */
__device__ __forceinline__ df df_prod(float x, float y) {
  const float p = __fmul_rn(x, y);
  return {__fadd_rn(0.0f, p), __fadd_rn(0.0f, __fmaf_rn(x, y, -p))};
}

/* s = wy * h (@first) or s += wy * h, h's low part as its own product: an
 * area sum's row of horizontal sums h (area_k, resize_frac) */
__device__ __forceinline__ void df_add_row(df &s, bool first, float wy, df h) {
  if (first)
    s = df_prod(wy, h.hi);
  else
    df_add_prod(s, wy, h.hi);
  df_add_prod(s, wy, h.lo);
}

/* w0 * a + w1 * b with both products' rounding errors kept: the horizontal
 * sum of a float bilinear row (integer weights below 2^12). */
__device__ __forceinline__ df df_lerp(float w0, float a, float w1, float b) {
  df h;
  h.hi = __fmul_rn(w0, a);
  h.lo = __fmaf_rn(w0, a, -h.hi);
  df_add_prod(h, w1, b);
  return h;
}

/* The float bilinear value (w0 * h0 + w1 * h1) / ONE^2 of two rows'
 * horizontal sums (df_lerp), compensated as resize_f32's four-term sum. */
__device__ __forceinline__ float df_blend(df h0, df h1, float w0, float w1) {
  df s;
  s.hi = __fmul_rn(w0, h0.hi);
  s.lo = __fmaf_rn(w0, h0.hi, -s.hi);
  df_add_prod(s, w1, h1.hi);
  s.lo = __fmaf_rn(w0, h0.lo, s.lo);
  s.lo = __fmaf_rn(w1, h1.lo, s.lo);
  return __fmul_rn(df_value(s), 1.0f / (float)(1 << (2 * JET_RESIZE_FRAC_BITS)));
}

/* s / d rounded once to float, for the FP64 area sums: the product with rd =
 * 1/d (correctly rounded) corrected by its exact remainder, which makes the
 * correctly rounded double quotient in practice (a float midpoint stays one,
 * to round to even), without __ddiv_rn's reciprocal and slow-path branch per
 * pixel. An infinite or NaN s keeps the product (its remainder is NaN). */
__device__ __forceinline__ float f64_quot(double s, double d, double rd) {
  const double q = __dmul_rn(s, rd), r = __fma_rn(-q, d, s);
  return __double2float_rn(isfinite(r) ? __fma_rn(r, rd, q) : q);
}

/* ------------------------------------------------------------ coordinates */

__device__ __forceinline__ int nearest_index(int d, int dn, int sn, bool fit32) {
  if (fit32) return (int)((u32)(2 * d + 1) * (u32)sn / (2u * (u32)dn));
  return (int)(((2LL * d + 1) * sn) / (2LL * dn));
}

/* The source coordinate of destination d (clamped to the image) on the
 * columns (@col) or rows: nearest index, bilinear (index, fraction) or the
 * first source index of the area window. @f32: coord_fit32 of that axis. */
template <int MODE>
__device__ __forceinline__ void src_coord(const jet__resize_params &p, bool col, bool f32, int d, int &s,
                                          int &f) {
  const int dn = col ? p.dw : p.dh, sn = col ? p.sw : p.sh;
  const u32 inv = col ? p.inv_w : p.inv_h;
  d = min(d, dn - 1);
  s = 0;
  f = 0;
  if (MODE == MODE_NEAREST)
    s = f32 ? (int)div_inv((u32)(2 * d + 1) * (u32)sn, 2u * (u32)dn, inv) : nearest_index(d, dn, sn, false);
  else if (MODE == MODE_LINEAR && f32)
    lin_coord_inv(d, dn, sn, inv, s, f);
  else if (MODE == MODE_LINEAR)
    lin_coord(d, dn, sn, false, s, f);
  else
    s = (int)(((long long)d * (col ? p.rsw : p.rsh)) / (col ? p.rdw : p.rdh));
}

/* Fill the block's column and row tables (src_coord). Entries past the
 * image edge get the last row's or column's values (valid addresses, so that
 * loads may be issued before the bounds test of the store). */
template <int MODE, int TILE_H = TH>
__device__ __forceinline__ void fill_tables(const jet__resize_params &p, int bx, int by, int tw,
                                            int *xs, int *xa, int *ys, int *ya, int th = TILE_H) {
  int tid = threadIdx.y * TX + threadIdx.x;
  const bool fx32 = coord_fit32(p.dw, p.sw), fy32 = coord_fit32(p.dh, p.sh);
  for (int i = tid; i < tw + th; i += TX * TY) {
    const bool col = i < tw;
    int s, f;
    src_coord<MODE>(p, col, col ? fx32 : fy32, col ? bx + i : by + (i - tw), s, f);
    if (col) {
      xs[i] = s;
      xa[i] = f;
    } else {
      ys[i - tw] = s;
      ya[i - tw] = f;
    }
  }
}

/* Area window weights: source index i overlaps destination d by
 * min((i+1)*rdn, hi) - max(i*rdn, lo), lo = d*rsn, hi = lo + rsn. */
__device__ __forceinline__ u32 area_w(long long i, long long rdn, long long lo, long long hi) {
  long long a = i * rdn, b = a + rdn;
  return (u32)((b < hi ? b : hi) - (a > lo ? a : lo));
}

/* ------------------------------------------------------------ pixel access */

template <int C, bool VEC>
__device__ __forceinline__ void ld8(const u8 *row, int x, u32 *v) {
  if (C == 4 && VEC) {
    u32 w = __ldg((const u32 *)row + x);
    v[0] = w & 255u;
    v[1] = (w >> 8) & 255u;
    v[2] = (w >> 16) & 255u;
    v[3] = w >> 24;
  } else {
    const u8 *q = row + (u64)x * C;
#pragma unroll
    for (int c = 0; c < C; c++) v[c] = __ldg(q + c);
  }
}

template <int C>
__device__ __forceinline__ void ldf(const u8 *row, int x, float *v) {
  const float *q = (const float *)row + (u64)x * C;
#pragma unroll
  for (int c = 0; c < C; c++) v[c] = __ldg(q + c);
}

/* Store n (<= G) pixels of C bytes; whole groups as 32-bit words where aligned. */
template <int C, int G>
__device__ __forceinline__ void st8(u8 *q, const u8 *out, int n, int vec) {
  if ((G * C) % 4 == 0 && vec && n == G) {
#pragma unroll
    for (int w = 0; w < G * C / 4; w++)
      ((u32 *)q)[w] = (u32)out[4 * w] | ((u32)out[4 * w + 1] << 8) | ((u32)out[4 * w + 2] << 16) |
                      ((u32)out[4 * w + 3] << 24);
  } else {
#pragma unroll
    for (int i = 0; i < G * C; i++)
      if (i < n * C) q[i] = out[i];
  }
}

/* ------------------------------------------------------------ resize */

/* color_coeffs.h's 8-bit bilinear: the rounding of a channel's weighted sum
 * (weights summing to ONE * ONE), and the whole blend of its taps p00, p01
 * (row y0, columns x0, x1) and p10, p11 (row y1). */
__device__ __forceinline__ u32 lerp8_round(u32 t) {
  return (t + (1u << (2 * JET_RESIZE_FRAC_BITS - 1))) >> (2 * JET_RESIZE_FRAC_BITS);
}

__device__ __forceinline__ u32 lerp8(u32 p00, u32 p01, u32 p10, u32 p11, u32 ax, u32 ay) {
  const u32 ONE = JET_RESIZE_ONE;
  return lerp8_round((ONE - ay) * ((ONE - ax) * p00 + ax * p01) + ay * ((ONE - ax) * p10 + ax * p11));
}

template <bool B>
struct flag_t {
  static constexpr bool value = B;
};

/* Word k of a source row of nb bytes (full = nb / 4 whole words): loaded
 * whole inside the row, else assembled from its bytes, so that no load passes
 * the row's last byte, which may be the allocation's. A byte past the end is
 * the one STEP bytes before, clamped to the row: STEP = 1 repeats the last
 * byte (the kernels that never select those bytes), STEP = C gives the last
 * pixel's channels (the x2 walk's right neighbours). */
template <int STEP = 1>
__device__ __forceinline__ u32 row_word(const u32 *row, u32 k, u32 full, u32 nb) {
  if (k < full) return __ldg(row + k);
  const u8 *b = (const u8 *)row;
  u32 w = 0;
#pragma unroll
  for (u32 i = 0; i < 4; i++) {
    const u32 j = 4 * k + i;
    w |= (u32)__ldg(b + min(STEP == 1 || j < nb ? j : j - STEP, nb - 1)) << (8 * i);
  }
  return w;
}

/* One 8-bit area pixel where p.area32 holds (the host checked (sn+1)*rdn <
 * 2^31 on both axes and 511 * area_d < 2^32): window bounds, overlaps and
 * sums in 32 bits (h <= 255*rsw, S <= 255*area_d), the rounding division by
 * reciprocal. The same integers as the 64-bit path; i0, j0 are the window's
 * first source column and row. */
template <int C, bool VEC>
__device__ __forceinline__ void area_px32(const jet__resize_params &p, const jet__resize_image &im,
                                          int x, int y, int i0, int j0, u32 *v) {
  const int lox = x * p.rsw, hix = lox + p.rsw;
  const int loy = y * p.rsh, hiy = loy + p.rsh;
  u32 s[C];
#pragma unroll
  for (int c = 0; c < C; c++) s[c] = 0;
  for (int j = j0, a = j0 * p.rdh; a < hiy; j++, a += p.rdh) {
    const u32 wy = (u32)(min(a + p.rdh, hiy) - max(a, loy));
    const u8 *row = im.src + (u64)j * im.src_pitch;
    u32 h[C];
#pragma unroll
    for (int c = 0; c < C; c++) h[c] = 0;
    for (int i = i0, b = i0 * p.rdw; b < hix; i++, b += p.rdw) {
      const u32 wx = (u32)(min(b + p.rdw, hix) - max(b, lox));
      u32 q[C];
      ld8<C, VEC>(row, i, q);
#pragma unroll
      for (int c = 0; c < C; c++) h[c] += wx * q[c];
    }
#pragma unroll
    for (int c = 0; c < C; c++) s[c] += wy * h[c];
  }
  const u32 D = (u32)p.area_d;
#pragma unroll
  for (int c = 0; c < C; c++) v[c] = div_inv(2u * s[c] + D, 2u * D, p.area_inv);
}

/* The tile of this block: blocks run along grid x in row-major tile order. */
__device__ __forceinline__ void tile_of(int dw, int tw, int &bx, int &by, int th = TH) {
  int tiles_x = (dw + tw - 1) / tw;
  bx = (int)(blockIdx.x % (unsigned)tiles_x) * tw;
  by = (int)(blockIdx.x / (unsigned)tiles_x) * th;
}

/* Bilinear's lower tap row: y0 + 1 (clamped), or y0 itself where every
 * row's weight ay is 0 (p.rows_on_src: odd factors such as 1/3): the taps
 * then repeat row y0's loads, which L1 serves, instead of reading a row from
 * DRAM that the sum multiplies by 0 (same integers; the float kernel counts
 * those taps as 0). A launch-wide test, so the loads wait on no row weight. */
__device__ __forceinline__ int y1_of(const jet__resize_params &p, int y0) {
  return p.rows_on_src ? y0 : min(y0 + 1, p.sh - 1);
}

/* The tile of a block of resize_u8, resize_u8c1 or resize_f32 (tw columns by
 * TY * rows rows) and its tables, filled for every thread of the block. */
template <int MODE>
__device__ __forceinline__ void tile_tables(const jet__resize_params &p, int tw, int rows, int *xs, int *xa,
                                            int *ys, int *ya, int &bx, int &by) {
  tile_of(p.dw, tw, bx, by, TY * rows);
  fill_tables<MODE>(p, bx, by, tw, xs, xa, ys, ya, TY * rows);
  __syncthreads();
}

template <int C, int G, int MODE, bool VEC>
__device__ __forceinline__ void resize_u8(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  __shared__ int xs[TX * G], xa[TX * G], ys[TH], ya[TH];
  const int rows = p.rows; /* 1..ROWS, uniform: small destinations get more, shorter tiles */
  int bx, by;
  tile_tables<MODE>(p, TX * G, rows, xs, xa, ys, ya, bx, by);
  const int lx = threadIdx.x * G, x = bx + lx;
  if (x >= p.dw) return;
  const int n = min(G, p.dw - x);
  const u32 ONE = JET_RESIZE_ONE;
#pragma unroll 1
  for (int r = 0; r < rows; r++) {
    const int ly = threadIdx.y + r * TY, y = by + ly;
    if (y >= p.dh) break;
    u8 out[G * C];
#pragma unroll
    for (int g = 0; g < G; g++) {
      u32 v[C];
      if (g >= n) {
#pragma unroll
        for (int c = 0; c < C; c++) v[c] = 0;
      } else if (MODE == MODE_NEAREST) {
        ld8<C, VEC>(im.src + (u64)ys[ly] * im.src_pitch, xs[lx + g], v);
      } else if (MODE == MODE_LINEAR) {
        int x0 = xs[lx + g], y0 = ys[ly];
        int x1 = min(x0 + 1, p.sw - 1), y1 = y1_of(p, y0);
        u32 ax = (u32)xa[lx + g], ay = (u32)ya[ly];
        const u8 *r0 = im.src + (u64)y0 * im.src_pitch, *r1 = im.src + (u64)y1 * im.src_pitch;
        if (C == 3 && VEC) {
          /* aligned rows: a row's two taps (6 bytes from 3 * x0, x1's at s)
           * from 3 words shifted to the first byte, instead of 12 byte
           * loads; (ONE - ax) * a + ax * b as 2-way dot products */
          const u32 nb = 3u * (u32)p.sw, full = nb >> 2, wi = (u32)(3 * x0) >> 2;
          const u32 fs = 8u * ((u32)(3 * x0) & 3u), s3 = 3u * (u32)(x1 - x0);
          const u32 wgt = (ONE - ax) | ax << 16;
          u32 lo[2], hi[2];
          auto taps = [&](auto e) {
            /* e: the words reach the row's last partial one (row_word) */
#pragma unroll
            for (int k = 0; k < 2; k++) {
              const u32 *row = (const u32 *)(k ? r1 : r0);
              auto ldw = [&](u32 i) { return decltype(e)::value ? row_word(row, i, full, nb) : __ldg(row + i); };
              const u32 w0 = ldw(wi), w1 = ldw(wi + 1);
              lo[k] = __funnelshift_r(w0, w1, fs);
              hi[k] = __funnelshift_r(w1, ldw(wi + 2), fs);
            }
          };
          if (wi + 2 >= full)
            taps(flag_t<true>());
          else
            taps(flag_t<false>());
          const u32 s01 = s3 << 4 | 1u << 8 | (1u + s3) << 12, s2 = 2u | (2u + s3) << 4;
          u32 h[2][3];
#pragma unroll
          for (int k = 0; k < 2; k++) {
            const u32 t = __byte_perm(lo[k], hi[k], s01);
            h[k][0] = __dp2a_lo(wgt, t, 0u);
            h[k][1] = __dp2a_hi(wgt, t, 0u);
            h[k][2] = __dp2a_lo(wgt, __byte_perm(lo[k], hi[k], s2), 0u);
          }
#pragma unroll
          for (int c = 0; c < C; c++) v[c] = lerp8_round((ONE - ay) * h[0][c] + ay * h[1][c]);
        } else {
          u32 p00[C], p01[C], p10[C], p11[C];
          ld8<C, VEC>(r0, x0, p00);
          ld8<C, VEC>(r0, x1, p01);
          ld8<C, VEC>(r1, x0, p10);
          ld8<C, VEC>(r1, x1, p11);
#pragma unroll
          for (int c = 0; c < C; c++) v[c] = lerp8(p00[c], p01[c], p10[c], p11[c], ax, ay);
        }
      } else if (p.area32) {
        area_px32<C, VEC>(p, im, x + g, y, xs[lx + g], ys[ly], v);
      } else {
        const long long lox = (long long)(x + g) * p.rsw, hix = lox + p.rsw;
        const long long loy = (long long)y * p.rsh, hiy = loy + p.rsh;
        u64 s[C];
#pragma unroll
        for (int c = 0; c < C; c++) s[c] = 0;
        for (long long j = ys[ly]; j * p.rdh < hiy; j++) {
          const u32 wy = area_w(j, p.rdh, loy, hiy);
          const u8 *row = im.src + (u64)j * im.src_pitch;
          u64 h[C];
#pragma unroll
          for (int c = 0; c < C; c++) h[c] = 0;
          for (long long i = xs[lx + g]; i * p.rdw < hix; i++) {
            const u32 wx = area_w(i, p.rdw, lox, hix);
            u32 q[C];
            ld8<C, VEC>(row, (int)i, q);
#pragma unroll
            for (int c = 0; c < C; c++) h[c] += (u64)wx * q[c];
          }
#pragma unroll
          for (int c = 0; c < C; c++) s[c] += wy * h[c];
        }
#pragma unroll
        for (int c = 0; c < C; c++) {
          if (p.area_wide)
            v[c] = (u32)((2 * s[c] + p.area_d) / (2 * p.area_d));
          else
            v[c] = (2u * (u32)s[c] + (u32)p.area_d) / (2u * (u32)p.area_d);
        }
      }
#pragma unroll
      for (int c = 0; c < C; c++) out[g * C + c] = (u8)v[c];
    }
    st8<C, G>(im.dst + (u64)y * im.dst_pitch + (u64)x * C, out, n, p.dst_vec);
  }
}

/* GRAY8 nearest and bilinear (jet_resize_u8c1_{nearest,linear}): resize_u8's
 * tiles, tables and arithmetic, with several rows' taps loaded before the
 * first store: nearest loads all of the thread's rows, bilinear takes rows in
 * pairs (both rows' 4 * G taps before either is blended), so that a thread
 * keeps G * rows or 8 * G loads in flight instead of G or 4 * G. Table
 * entries past the image hold valid columns and rows. */
template <int MODE>
__device__ __forceinline__ void resize_u8c1(const jet__resize_params &p) {
  constexpr int G = 4;
  const jet__resize_image &im = p.img[blockIdx.z];
  __shared__ int xs[TX * G], xa[TX * G], ys[TH], ya[TH];
  const int rows = p.rows; /* 1..ROWS, uniform */
  int bx, by;
  tile_tables<MODE>(p, TX * G, rows, xs, xa, ys, ya, bx, by);
  const int lx = threadIdx.x * G, x = bx + lx;
  if (x >= p.dw) return;
  if constexpr (MODE == MODE_NEAREST) {
    u8 v[ROWS][G];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      if (r >= rows) break;
      const u8 *row = im.src + (u64)ys[threadIdx.y + r * TY] * im.src_pitch;
#pragma unroll
      for (int g = 0; g < G; g++) v[r][g] = __ldg(row + xs[lx + g]);
    }
    const int n = min(G, p.dw - x);
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const int y = by + (int)threadIdx.y + r * TY;
      if (r >= rows || y >= p.dh) break;
      st8<1, G>(im.dst + (u64)y * im.dst_pitch + (u64)x, v[r], n, p.dst_vec);
    }
  } else {
    const int n = min(G, p.dw - x);
#pragma unroll 1
    for (int r = 0; r < rows; r += 2) {
      const int ly[2] = {(int)threadIdx.y + r * TY, (int)threadIdx.y + min(r + 1, rows - 1) * TY};
      if (by + ly[0] >= p.dh) break;
      u32 t[2][G][4];
#pragma unroll
      for (int k = 0; k < 2; k++) {
        if (k == 1 && rows == 1) break; /* uniform: no second row to load */
        const int y0 = ys[ly[k]];
        const u8 *r0 = im.src + (u64)y0 * im.src_pitch;
        const u8 *r1 = r0 + (y1_of(p, y0) > y0 ? im.src_pitch : 0);
#pragma unroll
        for (int g = 0; g < G; g++) {
          const int x0 = xs[lx + g], x1 = min(x0 + 1, p.sw - 1);
          t[k][g][0] = __ldg(r0 + x0);
          t[k][g][1] = __ldg(r0 + x1);
          t[k][g][2] = __ldg(r1 + x0);
          t[k][g][3] = __ldg(r1 + x1);
        }
      }
#pragma unroll
      for (int k = 0; k < 2; k++) {
        const int y = by + ly[k];
        if (k == 1 && (r + 1 >= rows || y >= p.dh)) break;
        const u32 ay = (u32)ya[ly[k]];
        u8 out[G];
#pragma unroll
        for (int g = 0; g < G; g++) {
          const u32 ax = (u32)xa[lx + g];
          out[g] = (u8)lerp8(t[k][g][0], t[k][g][1], t[k][g][2], t[k][g][3], ax, ay);
        }
        st8<1, G>(im.dst + (u64)y * im.dst_pitch + (u64)x, out, n, p.dst_vec);
      }
    }
  }
}

/* Byte 3 of each of four words, packed into one word. */
__device__ __forceinline__ u32 top_bytes(u32 a, u32 b, u32 c, u32 d) {
  return __byte_perm(__byte_perm(a, b, 0x73), __byte_perm(c, d, 0x73), 0x5410);
}

/* Two pixels of 4 8-bit channels, words a and b, blended channel by
 * channel: acc[c] += w_a * a_c + w_b * b_c for wgt = w_a | w_b << 16
 * (weights below 2^16), the channels paired by one byte permutation per two
 * and each pair one 2-way dot product. */
__device__ __forceinline__ void dp2a_c4(u32 wgt, u32 a, u32 b, u32 *acc) {
  const u32 t01 = __byte_perm(a, b, 0x5140), t23 = __byte_perm(a, b, 0x7362);
  acc[0] = __dp2a_lo(wgt, t01, acc[0]);
  acc[1] = __dp2a_hi(wgt, t01, acc[1]);
  acc[2] = __dp2a_lo(wgt, t23, acc[2]);
  acc[3] = __dp2a_hi(wgt, t23, acc[3]);
}

/* The vertical blend of two rows' dp2a_c4 sums, wa * h0 + wb * h1 + rnd
 * per channel, whose byte 3 is the result (the caller scales weights and
 * rounding term so; the sums stay below 2^32), packed into one word. */
__device__ __forceinline__ u32 blend_c4(const u32 *h0, const u32 *h1, u32 wa, u32 wb, u32 rnd) {
  return top_bytes(wa * h0[0] + wb * h1[0] + rnd, wa * h0[1] + wb * h1[1] + rnd,
                   wa * h0[2] + wb * h1[2] + rnd, wa * h0[3] + wb * h1[3] + rnd);
}

/* lerp8 of the 4 channels of pixel words p00..p11: a row's two taps pair up
 * channel by channel (one byte permutation per two channels) and
 * (ONE - ax) * a + ax * b is a 2-way dot product; the vertical sum, with
 * weights and rounding term scaled by 4 (below 2^32), holds the result in
 * byte 3, and four pack with byte permutations (resize_up's arithmetic): the
 * same integers as lerp8 per channel in about half the instructions. */
__device__ __forceinline__ u32 lerp_c4(u32 p00, u32 p01, u32 p10, u32 p11, u32 ax, u32 ay) {
  const u32 ONE = JET_RESIZE_ONE, wgt = (ONE - ax) | ax << 16;
  u32 h0[4] = {0u, 0u, 0u, 0u}, h1[4] = {0u, 0u, 0u, 0u};
  dp2a_c4(wgt, p00, p01, h0);
  dp2a_c4(wgt, p10, p11, h1);
  return blend_c4(h0, h1, (ONE - ay) << 2, ay << 2, 1u << (2 * JET_RESIZE_FRAC_BITS + 1));
}

__device__ __forceinline__ void ld_pair(const u8 *row, int x0, int x1, bool pair, u32 &a, u32 &b) {
  if (pair) {
    const uint2 w = __ldg((const uint2 *)row + (x0 >> 1));
    a = w.x;
    b = w.y;
  } else {
    a = __ldg((const u32 *)row + x0);
    b = __ldg((const u32 *)row + x1);
  }
}

/* RGBA8 with 4-byte aligned rows, nearest and bilinear: every load of the
 * thread's ROWS rows is issued before the first store (the compiler cannot
 * move loads across stores to possibly aliasing memory), so a thread keeps
 * up to 4 * ROWS taps in flight. Adjacent bilinear taps (x0 even, x1 = x0+1)
 * are one 8-byte load when the rows are 8-byte aligned. */
template <int MODE>
__device__ __forceinline__ void resize_c4(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.dw, TX, bx, by, TH_C4);
  const int lx = threadIdx.x, x = bx + lx;
  if constexpr (MODE == MODE_NEAREST) {
    /* the thread's own column and rows, no tables: no barrier before the
     * loads (H100: 1-2.5% faster at 720p to 1440p; bilinear, whose
     * coordinates cost more, ran up to 10% slower that way) */
    if (x >= p.dw) return;
    int sx, sy, f;
    src_coord<MODE>(p, true, coord_fit32(p.dw, p.sw), x, sx, f);
    const bool fy32 = coord_fit32(p.dh, p.sh);
    const u32 *const scol = (const u32 *)im.src + sx;
    u32 v[RC4];
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      src_coord<MODE>(p, false, fy32, by + (int)threadIdx.y + r * TY, sy, f);
      v[r] = __ldg((const u32 *)((const u8 *)scol + (u64)sy * im.src_pitch));
    }
    u8 *const dcol = im.dst + (u64)x * 4;
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int y = by + threadIdx.y + r * TY;
      if (y < p.dh) *(u32 *)(dcol + (u64)y * im.dst_pitch) = v[r];
    }
  } else {
    __shared__ int xs[TX], xa[TX], ys[TH_C4], ya[TH_C4];
    fill_tables<MODE, TH_C4>(p, bx, by, TX, xs, xa, ys, ya);
    __syncthreads();
    if (x >= p.dw) return;
    u8 *const dcol = im.dst + (u64)x * 4;
    const int x0 = xs[lx], x1 = min(x0 + 1, p.sw - 1);
    const bool pair = x1 == x0 + 1 && (x0 & 1) == 0 && (((unsigned long long)im.src | im.src_pitch) & 7) == 0;
    u32 t[RC4][4];
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int y0 = ys[threadIdx.y + r * TY], y1 = y1_of(p, y0);
      ld_pair(im.src + (u64)y0 * im.src_pitch, x0, x1, pair, t[r][0], t[r][1]);
      ld_pair(im.src + (u64)y1 * im.src_pitch, x0, x1, pair, t[r][2], t[r][3]);
    }
    const u32 ax = (u32)xa[lx];
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int ly = threadIdx.y + r * TY, y = by + ly;
      if (y < p.dh)
        *(u32 *)(dcol + (u64)y * im.dst_pitch) = lerp_c4(t[r][0], t[r][1], t[r][2], t[r][3], ax, (u32)ya[ly]);
    }
  }
}

/* RGBA8 area resize by integer factors kx = sw/dw, ky = sh/dh (kx*ky <= 256,
 * 4-byte aligned rows): every weight is 1, so the sum is the plain box sum,
 * taken on packed words: channels 0 and 2 in the 16-bit lanes of one word,
 * 1 and 3 of another (255 * 256 < 2^16: no lane overflows). The rounding is
 * the reference's (2S + D) / (2D), D = kx*ky: a shift when D is a power of 2,
 * else div_inv. 2 x 2 and 3 x 3 windows issue all their loads before the
 * sums; the others walk theirs. */
#define LANES 0x00ff00ffu
__device__ __forceinline__ void sum_px(u32 w, u32 &lo, u32 &hi) {
  lo += w & LANES;
  hi += (w >> 8) & LANES;
}

/* @inv: p.area_inv where p.area32 holds (the divisions are div_inv), else 0 */
__device__ __forceinline__ u32 area_round(u32 lo, u32 hi, u32 D, int sh, u32 inv) {
  if (sh >= 0) {
    const u32 half = (D >> 1) * 0x00010001u;
    return (((lo + half) >> sh) & LANES) | ((((hi + half) >> sh) & LANES) << 8);
  }
  const u32 s0 = lo & 0xffffu, s2 = lo >> 16, s1 = hi & 0xffffu, s3 = hi >> 16;
  const u32 D2 = 2 * D;
  auto q = [&](u32 s) { return inv ? div_inv(2 * s + D, D2, inv) : (2 * s + D) / D2; };
  return q(s0) | q(s1) << 8 | q(s2) << 16 | q(s3) << 24;
}

__device__ __forceinline__ void area_c4_int(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.dw, TX, bx, by, TH_C4);
  const int x = bx + threadIdx.x;
  if (x >= p.dw) return;
  const int kx = p.rsw, ky = p.rsh;
  const u32 D = (u32)(kx * ky);
  const int sh = (D & (D - 1)) == 0 ? __ffs((int)D) - 1 : -1;
  u8 *const dcol = im.dst + (u64)x * 4;
  if (kx == 2 && ky == 2 && (((unsigned long long)im.src | im.src_pitch) & 7) == 0) {
    /* the common 2x2 case: two 8-byte loads per pixel, all rows in flight */
    const uint2 *const scol = (const uint2 *)im.src + x;
    const u64 sp = im.src_pitch;
    uint2 a[RC4], b[RC4];
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int y = min(by + (int)threadIdx.y + r * TY, p.dh - 1);
      const u8 *row = (const u8 *)scol + (u64)(2 * y) * sp;
      a[r] = __ldg((const uint2 *)row);
      b[r] = __ldg((const uint2 *)(row + sp));
    }
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int y = by + threadIdx.y + r * TY;
      u32 lo = 0, hi = 0;
      sum_px(a[r].x, lo, hi);
      sum_px(a[r].y, lo, hi);
      sum_px(b[r].x, lo, hi);
      sum_px(b[r].y, lo, hi);
      if (y < p.dh) *(u32 *)(dcol + (u64)y * im.dst_pitch) = area_round(lo, hi, 4, 2, 0);
    }
    return;
  }
  const u32 inv = p.area_inv; /* 0 unless p.area32 */
  if (kx == 3 && ky == 3) {
    /* 1/3 on both axes: all 9 words of both rows' windows in flight */
    const u32 *const scol = (const u32 *)im.src + (u64)x * 3;
    const u64 sp = im.src_pitch;
    u32 w[RC4][9];
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int y = min(by + (int)threadIdx.y + r * TY, p.dh - 1);
      const u8 *row = (const u8 *)scol + (u64)(3 * y) * sp;
#pragma unroll
      for (int k = 0; k < 9; k++) w[r][k] = __ldg((const u32 *)(row + (u64)(k / 3) * sp) + k % 3);
    }
#pragma unroll
    for (int r = 0; r < RC4; r++) {
      const int y = by + threadIdx.y + r * TY;
      u32 lo = 0, hi = 0;
#pragma unroll
      for (int k = 0; k < 9; k++) sum_px(w[r][k], lo, hi);
      if (y < p.dh) *(u32 *)(dcol + (u64)y * im.dst_pitch) = area_round(lo, hi, 9, -1, inv);
    }
    return;
  }
  const u32 *const scol = (const u32 *)im.src + (u64)x * kx;
#pragma unroll 1
  for (int r = 0; r < RC4; r++) {
    const int y = by + threadIdx.y + r * TY;
    if (y >= p.dh) break;
    const u8 *row = (const u8 *)scol + (u64)y * ky * im.src_pitch;
    u32 lo = 0, hi = 0;
#pragma unroll 1
    for (int j = 0; j < ky; j++, row += im.src_pitch) {
      int i = 0;
#pragma unroll 1
      for (; i + 4 <= kx; i += 4) {
        const u32 w0 = __ldg((const u32 *)row + i), w1 = __ldg((const u32 *)row + i + 1);
        const u32 w2 = __ldg((const u32 *)row + i + 2), w3 = __ldg((const u32 *)row + i + 3);
        sum_px(w0, lo, hi);
        sum_px(w1, lo, hi);
        sum_px(w2, lo, hi);
        sum_px(w3, lo, hi);
      }
#pragma unroll 1
      for (; i < kx; i++) sum_px(__ldg((const u32 *)row + i), lo, hi);
    }
    *(u32 *)(dcol + (u64)y * im.dst_pitch) = area_round(lo, hi, D, sh, inv);
  }
}

/* 1- and 3-channel 8-bit area by integer factors KX = sw/dw (2, 3 or 4)
 * and ky = sh/dh, 4-byte aligned source rows, 32-bit sums (p.area32): every
 * weight is 1, so a lane's 4 pixels are the plain box sums of 4*KX*C
 * contiguous bytes per source row, read as KX*C aligned words (all issued
 * before they are summed) where the group is whole, byte by byte at the
 * right edge. The rounding is area_px32's: (2S + D) / (2D), D = KX*ky. One
 * row per thread, tiles 128 x 8. */
template <int C, int KX>
__device__ __forceinline__ void area_int_u8(const jet__resize_params &p, const jet__resize_image &im,
                                            int x, int y) {
  constexpr int G = 4, W = KX * C;
  const int ky = p.rsh, n = min(G, p.dw - x);
  const u8 *row = im.src + (u64)y * (u64)ky * im.src_pitch + (u64)x * (KX * C);
  u32 s[G * C];
#pragma unroll
  for (int k = 0; k < G * C; k++) s[k] = 0;
  if (n == G) {
#pragma unroll 2
    for (int j = 0; j < ky; j++, row += im.src_pitch) {
      u32 w[W];
#pragma unroll
      for (int k = 0; k < W; k++) w[k] = __ldg((const u32 *)row + k);
#pragma unroll
      for (int b = 0; b < 4 * W; b++) s[(b / C / KX) * C + b % C] += (w[b / 4] >> (8 * (b % 4))) & 255u;
    }
  } else {
#pragma unroll 1
    for (int j = 0; j < ky; j++, row += im.src_pitch)
#pragma unroll
      for (int b = 0; b < 4 * W; b++)
        if (b / C / KX < n) s[(b / C / KX) * C + b % C] += __ldg(row + b);
  }
  const u32 D = (u32)p.area_d;
  u8 out[G * C];
#pragma unroll
  for (int k = 0; k < G * C; k++) out[k] = (u8)div_inv(2u * s[k] + D, 2u * D, p.area_inv);
  st8<C, G>(im.dst + (u64)y * im.dst_pitch + (u64)x * C, out, n, p.dst_vec);
}

template <int C>
__device__ __forceinline__ void area_int(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.dw, TX * 4, bx, by, TY);
  const int x = bx + (int)threadIdx.x * 4, y = by + (int)threadIdx.y;
  if (x >= p.dw || y >= p.dh) return;
  if (p.rsw == 2)
    area_int_u8<C, 2>(p, im, x, y);
  else if (p.rsw == 3)
    area_int_u8<C, 3>(p, im, x, y);
  else
    area_int_u8<C, 4>(p, im, x, y);
}

/* Area with small windows (jet_resize_{u8,f32}c*_area_k{2,3,4} and
 * _area_k3x2, chosen by the launcher where p.area32 holds and no
 * integer-factor kernel applies): every destination pixel's window meets at
 * most KX source columns and KY rows (1 + ceil((rs - 1) / rd) on each axis,
 * 2 to 4: 2 for factors 1/2, 2/3 and 3/4, 3 for 1/3 and other ratios under
 * 2, 4 under 3; a factor of 2/3 whose size is not a multiple of 3, such as
 * 2560 -> 1707, meets 3 on that axis and 2 on the other), so a block
 * tabulates its columns' and rows' first source index and overlap weights
 * once (zero past the window, indices clamped to the image), and a pixel is
 * KX x KY weighted taps with no window loops. The sums and rounding are the
 * generic path's: area_px32's integers for 8-bit, resize_f32's compensated
 * sums for float (F64: double sums, the weights tabulated as doubles). Tiles
 * as resize_u8's. */
template <int KX, int KY, typename W>
__device__ __forceinline__ void fill_area_k(const jet__resize_params &p, int bx, int by, int tw, int th,
                                            int *xs, W (*xw)[TX * 4], int *ys, W (*yw)[TH]) {
  constexpr int K = KX > KY ? KX : KY;
  for (int i = threadIdx.y * TX + threadIdx.x; i < tw + th; i += TX * TY) {
    const bool col = i < tw;
    const int dn = col ? p.dw : p.dh, rs = col ? p.rsw : p.rsh, rd = col ? p.rdw : p.rdh;
    const int d = min(col ? bx + i : by + (i - tw), dn - 1);
    const int lo = d * rs, hi = lo + rs, s0 = lo / rd; /* 32 bits: p.area32 */
    u32 w[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
      const int a = (s0 + k) * rd;
      w[k] = (u32)max(min(a + rd, hi) - max(a, lo), 0);
    }
    if (col) {
      xs[i] = s0;
#pragma unroll
      for (int k = 0; k < KX; k++) xw[k][i] = (W)w[k];
    } else {
      ys[i - tw] = s0;
#pragma unroll
      for (int k = 0; k < KY; k++) yw[k][i - tw] = (W)w[k];
    }
  }
}

template <bool B, typename T, typename F> struct type_if { typedef T type; };
template <typename T, typename F> struct type_if<false, T, F> { typedef F type; };

template <int C, int KX, int KY, bool F32, bool F64 = false>
__device__ __forceinline__ void area_k(const jet__resize_params &p) {
  constexpr int G = F32 || C == 4 ? 1 : 4;
  const jet__resize_image &im = p.img[blockIdx.z];
  /* the F64 kernels keep their weights as doubles: no conversion per tap */
  typedef typename type_if<F64, double, u32>::type W;
  __shared__ int xs[TX * 4], ys[TH];
  __shared__ W xw[KX][TX * 4], yw[KY][TH];
  const int rows = p.rows; /* as resize_u8 */
  int bx, by;
  tile_of(p.dw, TX * G, bx, by, TY * rows);
  fill_area_k<KX, KY>(p, bx, by, TX * G, TY * rows, xs, xw, ys, yw);
  __syncthreads();
  const int lx = threadIdx.x * G, x = bx + lx;
  if (x >= p.dw) return;
  const int n = min(G, p.dw - x);
  const double rd = F64 ? __drcp_rn((double)p.area_d) : 0.0;
  /* column taps from the tables at each use: kept in registers they spill */
  auto xi = [&](int g, int k) { return min(xs[lx + g] + k, p.sw - 1) * (F32 ? C : 1); };
  auto wx = [&](int g, int k) { return xw[k][lx + g]; };
#pragma unroll 1
  for (int r = 0; r < rows; r++) {
    const int ly = threadIdx.y + r * TY, y = by + ly;
    if (y >= p.dh) break;
    const u8 *rw[KY];
    W wy[KY];
#pragma unroll
    for (int k = 0; k < KY; k++) {
      rw[k] = im.src + (u64)min(ys[ly] + k, p.sh - 1) * im.src_pitch;
      wy[k] = yw[k][ly];
    }
    if constexpr (F32) {
      float *q = (float *)(im.dst + (u64)y * im.dst_pitch) + (u64)x * C;
      float v[KY][KX][C];
#pragma unroll
      for (int j = 0; j < KY; j++)
#pragma unroll
        for (int i = 0; i < KX; i++)
#pragma unroll
          for (int c = 0; c < C; c++) v[j][i][c] = __ldg((const float *)rw[j] + xi(0, i) + c);
      /* taps of weight 0 (past the window) are left out, not multiplied:
       * an infinity there must not make NaN. The first column's and row's
       * weights are never 0 (the window starts in them), so the sums start
       * with df_prod. */
#pragma unroll
      for (int c = 0; c < C; c++) {
        if constexpr (F64) {
          /* wx * v is exact in double (a 24-bit significand times an
           * integer under 2^16: p.area32 keeps rd^2 < (sw + 1) * rd < 2^31);
           * each sum rounds at 2^-53 */
          double s;
#pragma unroll
          for (int j = 0; j < KY; j++) {
            double h = __dmul_rn(wx(0, 0), (double)v[j][0][c]);
#pragma unroll
            for (int i = 1; i < KX; i++)
              h = __fma_rn(wx(0, i), (double)(wx(0, i) != 0.0 ? v[j][i][c] : 0.0f), h);
            if (j == 0)
              s = __dmul_rn(wy[0], h);
            else if (wy[j] != 0.0)
              s = __fma_rn(wy[j], h, s);
          }
          q[c] = f64_quot(s, (double)p.area_d, rd);
        } else {
          df s;
#pragma unroll
          for (int j = 0; j < KY; j++) {
            df h = df_prod((float)wx(0, 0), v[j][0][c]);
#pragma unroll
            for (int i = 1; i < KX; i++) df_add_prod(h, (float)wx(0, i), wx(0, i) ? v[j][i][c] : 0.0f);
            if (j == 0 || wy[j]) df_add_row(s, j == 0, (float)wy[j], h);
          }
          q[c] = __fdiv_rn(df_value(s), (float)p.area_d);
        }
      }
    } else {
      u32 s[G * C];
#pragma unroll
      for (int k = 0; k < G * C; k++) s[k] = 0;
#pragma unroll
      for (int j = 0; j < KY; j++)
#pragma unroll
        for (int g = 0; g < G; g++) {
          u32 h[C];
#pragma unroll
          for (int c = 0; c < C; c++) h[c] = 0;
          if constexpr (C == 4) {
            /* RGBA8 (aligned rows: the launcher's condition): taps in pairs,
             * channel by channel, as 2-way dot products (weights at most
             * rdw, under 2^16 where p.area32 holds); an odd last tap pairs
             * with weight 0 */
#pragma unroll
            for (int i = 0; i < KX; i += 2) {
              const bool two = i + 1 < KX;
              const u32 a = __ldg((const u32 *)rw[j] + xi(g, i));
              const u32 b = two ? __ldg((const u32 *)rw[j] + xi(g, i + 1)) : 0u;
              dp2a_c4(wx(g, i) | (two ? wx(g, i + 1) << 16 : 0u), a, b, h);
            }
          } else {
#pragma unroll
            for (int i = 0; i < KX; i++) {
              u32 t[C];
              ld8<C, false>(rw[j], xi(g, i), t);
#pragma unroll
              for (int c = 0; c < C; c++) h[c] += wx(g, i) * t[c];
            }
          }
#pragma unroll
          for (int c = 0; c < C; c++) s[g * C + c] += wy[j] * h[c];
        }
      const u32 D = (u32)p.area_d;
      u8 out[G * C];
#pragma unroll
      for (int k = 0; k < G * C; k++) out[k] = (u8)div_inv(2u * s[k] + D, 2u * D, p.area_inv);
      st8<C, G>(im.dst + (u64)y * im.dst_pitch + (u64)x * C, out, n, p.dst_vec);
    }
  }
}

/* The float and RGBA8 kernels' threads take one pixel, the others 4; MINB
 * blocks per SM: 4 (64 registers) where that does not spill; GRAYF32 k3x2
 * a full SM (32 registers, no spills; it took 40, 6 blocks, 2.05 waves at
 * 1440p): H100 A/B 0.95 of the time at 720p, 0.97-0.99 at 1080p and
 * 1440p, 1.00 at 4K (the same bound on k3 and k4x3 was 1-3% slower at
 * 720p, and 32 registers spill in the general float kernels) */
#define AREA_K(C, KX, KY, suffix, kind, F32, MINB)                                                    \
  extern "C" __global__ void __launch_bounds__(TX * TY, MINB) jet_resize_##kind##_area_##suffix(jet__resize_params p) { \
    jet_pdl_enter();                                                                               \
    area_k<C, KX, KY, F32>(p);                                                                     \
  }
#define AREA_K64(C, KX, KY, suffix, kind, MINB)                                                       \
  extern "C" __global__ void __launch_bounds__(TX * TY, MINB) jet_resize_##kind##_area_##suffix##_f64(jet__resize_params p) { \
    jet_pdl_enter();                                                                               \
    area_k<C, KX, KY, true, true>(p);                                                              \
  }
/* square windows k2 to k4; k3x2 for 3 source columns and 2 rows: a 2/3
 * factor of a 16:9 frame whose width is not a multiple of 3 (2560x1440 ->
 * 1707x960, 1280x720 -> 853x480: 6 taps, not 9); k4x3 for 4 columns and 3
 * rows: 1/3 of such a frame (2560x1440 -> 853x480, 1280x720 -> 427x240: 12
 * taps, not 16). The transposed shapes take k3 and k4, and so does the PTX
 * fallback image (JET_IMAGE_PTX; lib/image/resize.c asks which image the
 * module came from): each k3x2 kernel is about 12 KB of cubin and 22 KB of
 * PTX on sm_87. */
#if defined(JET_IMAGE_PTX)
#define AREA_KXY(C, kind, F32, MINB4)
#else
#define AREA_KXY(C, kind, F32, MINB4)    \
  AREA_K(C, 3, 2, k3x2, kind, F32, (F32 && C == 1 ? JET_SM_THREADS / (TX * TY) : 4)) \
  AREA_K(C, 4, 3, k4x3, kind, F32, MINB4)
#endif
#define AREA_KS(C, kind, F32, MINB4)              \
  AREA_K(C, 2, 2, k2, kind, F32, 4)               \
  AREA_K(C, 3, 3, k3, kind, F32, 4)               \
  AREA_KXY(C, kind, F32, MINB4)                   \
  AREA_K(C, 4, 4, k4, kind, F32, MINB4)
#ifndef JET_COMPACT_KERNELS
AREA_KS(1, u8c1, false, 3)
AREA_KS(3, u8c3, false, 3)
AREA_KS(4, u8c4, false, 4)
AREA_KS(1, f32c1, true, 4)
AREA_KS(3, f32c3, true, 3)
#endif
#if !defined(JET_COMPACT_KERNELS) && !defined(JET_IMAGE_PTX) && defined(__CUDA_ARCH__) && JET_RS_F64_SM(__CUDA_ARCH__ / 10)
/* the blocks per SM of AREA_KS's float kernels, but RGBF32 k4 2 (3 spill) */
#define AREA_KS64(C, kind, MINB43, MINB44)                                           \
  AREA_K64(C, 2, 2, k2, kind, 4)                                                     \
  AREA_K64(C, 3, 3, k3, kind, 4)                                                     \
  AREA_K64(C, 3, 2, k3x2, kind, (C == 1 ? JET_SM_THREADS / (TX * TY) : 4))           \
  AREA_K64(C, 4, 3, k4x3, kind, MINB43)                                              \
  AREA_K64(C, 4, 4, k4, kind, MINB44)
AREA_KS64(1, f32c1, 4, 4)
AREA_KS64(3, f32c3, 3, 2)
#endif

/* Bilinear and area by exactly RD/RS on both axes, RS/RD = 3/2 or 4/3
 * (sw = RS * gx, dw = RD * gx, and the same down;
 * jet_resize_{u8,f32}c*_{linear,area}_r{32,43}, chosen by the launcher for
 * aligned rows), and nearest (jet_resize_u8c{1,4}_nearest_r{32,43}; GRAYF32
 * moves as RGBA8; RGB8 keeps the general kernel, which the group kernel took
 * twice as long as at 3/4 of 1440p and 4K on the H100): the taps repeat
 * every RS source pixels, so a group of RS source pixels makes RD
 * destination pixels with fixed weights (frac_w) and no tables. A thread
 * takes a unit of P groups across (P = 4 for 1- and 3-channel 8-bit, so that
 * the unit is RS * C source words and RD * C destination words; else 1) and
 * RS source rows, all loaded before the first sum, and writes RD rows; or,
 * ROWWISE, one destination row from its 2 source rows (3 channels) or its 1
 * (nearest). A unit past the last whole group (gx not a multiple of P) reads
 * its words inside the row (row_word) and stores only its groups. Tiles of
 * TX units by blockDim.y (1 to TY, the launcher's) row groups or rows.
 *
 * The sums and rounding are the general kernels', term for term. Bilinear:
 * color_coeffs.h's weights, whose fractions lin_coord gives as
 * floor(ONE * frac(((2d+1) * RS - RD) / (2 * RD))) for every d of the same
 * phase, with both taps inside the group and the image (no clamping at
 * these factors); 8-bit (S + ONE^2/2) / ONE^2, float resize_f32_linear's
 * four compensated products times 1/ONE^2. Area: area_k's overlaps (both
 * taps weighted, D = RS^2), the same integers for 8-bit and the same
 * compensated row sums for float. Both 8-bit roundings are (2S + D) / (2D),
 * D = ONE^2 for bilinear. Nearest: nearest_index's pixel (frac_near),
 * weight 1, its bytes moved (frac_pick). */
__host__ __device__ constexpr int frac_near(int rs, int rd, int d) { return (2 * d + 1) * rs / (2 * rd); }

__host__ __device__ constexpr int frac_w(int mode, int rs, int rd, int d, int i) {
  if (mode == MODE_NEAREST) return i == frac_near(rs, rd, d) ? 1 : 0;
  if (mode == MODE_AREA) {
    /* overlap of source pixel i ([i*rd, (i+1)*rd)) with window d ([d*rs, (d+1)*rs)) */
    const int lo = i * rd > d * rs ? i * rd : d * rs, hi = (i + 1) * rd < (d + 1) * rs ? (i + 1) * rd : (d + 1) * rs;
    return hi > lo ? hi - lo : 0;
  }
  const int n = (2 * d + 1) * rs - rd, x0 = n / (2 * rd), ax = (n % (2 * rd)) * JET_RESIZE_ONE / (2 * rd);
  return i == x0 ? JET_RESIZE_ONE - ax : i == x0 + 1 ? ax : 0;
}

/* The rows k of source row group that destination row J of the group
 * weights: K0 and K0 + 1 at these factors (frac_k0) */
__host__ __device__ constexpr int frac_k0(int mode, int rs, int rd, int j) {
  return frac_w(mode, rs, rd, j, 0) ? 0 : frac_w(mode, rs, rd, j, 1) ? 1 : frac_w(mode, rs, rd, j, 2) ? 2 : 3;
}

/* Byte b of the words w (byte k in w[k / 4]). */
__device__ __forceinline__ u32 word_byte(const u32 *w, int b) { return (w[b / 4] >> (8 * (b % 4))) & 255u; }

/* A unit's 8-bit destination row (DW words) into dst, channel c of pixel d
 * of group g being byte(g, d, c): whole words where the unit has all P
 * groups, else the bytes of its n groups. */
template <int C, int RD, int P, int DW, typename F>
__device__ __forceinline__ void frac_bytes(u8 *dst, int n, F byte) {
  u32 out[DW];
#pragma unroll
  for (int o = 0; o < DW; o++) out[o] = 0;
#pragma unroll
  for (int o = 0; o < DW * 4; o++) out[o / 4] |= byte(o / (RD * C), o / C % RD, o % C) << (8 * (o % 4));
  if (P == 1 || n == P) {
#pragma unroll
    for (int o = 0; o < DW; o++) ((u32 *)dst)[o] = out[o];
  } else {
#pragma unroll
    for (int o = 0; o < DW * 4; o++)
      if (o < n * RD * C) dst[o] = (u8)(out[o / 4] >> (8 * (o % 4)));
  }
}

/* Destination row J of a unit from its source rows K0.. (w[k - K0], SW
 * words each) into dst; n whole groups (P: all, whole words stored). */
template <int C, int RS, int RD, int MODE, bool F32, int P, int SW, int J, int K0, int NR, bool F64 = false>
__device__ __forceinline__ void frac_row(const u32 (&w)[NR][SW], u8 *dst, int n) {
  constexpr int DW = SW / RS * RD;
  constexpr u32 D = MODE == MODE_AREA ? RS * RS : JET_RESIZE_ONE * JET_RESIZE_ONE;
  if constexpr (F64) {
    /* area_k's FP64 sums (exact products, one rounding of the quotient);
     * each source word's conversion serves every pixel that reads it */
    static_assert(F32 && MODE == MODE_AREA, "FP64 sums are for float area");
    float *q = (float *)dst;
#pragma unroll
    for (int o = 0; o < RD * C; o++) {
      const int d = o / C, c = o % C;
      double s = 0.0;
      bool first = true;
#pragma unroll
      for (int k = K0; k < K0 + NR; k++) {
        const int wy = frac_w(MODE, RS, RD, J, k);
        if (wy == 0) continue;
        double h = 0.0;
        bool hfirst = true;
#pragma unroll
        for (int i = 0; i < RS; i++) {
          const int wx = frac_w(MODE, RS, RD, d, i);
          if (wx == 0) continue;
          const double v = (double)__uint_as_float(w[k - K0][i * C + c]);
          h = hfirst ? __dmul_rn((double)wx, v) : __fma_rn((double)wx, v, h);
          hfirst = false;
        }
        s = first ? __dmul_rn((double)wy, h) : __fma_rn((double)wy, h, s);
        first = false;
      }
      q[o] = f64_quot(s, (double)D, 1.0 / D);
    }
  } else if constexpr (F32) {
    float *q = (float *)dst;
#pragma unroll
    for (int o = 0; o < RD * C; o++) {
      const int d = o / C, c = o % C;
      auto v = [&](int k, int i) { return __uint_as_float(w[k - K0][i * C + c]); };
      df s;
      bool first = true;
#pragma unroll
      for (int k = K0; k < K0 + NR; k++) {
        const int wy = frac_w(MODE, RS, RD, J, k);
        if (wy == 0) continue;
        if constexpr (MODE == MODE_LINEAR) {
          /* resize_f32_linear's order: w00, w01, w10, w11, exact products of integers */
#pragma unroll
          for (int i = 0; i < RS; i++) {
            const int wx = frac_w(MODE, RS, RD, d, i);
            if (wx == 0) continue;
            const float wt = (float)(wx * wy);
            if (first)
              s = df_prod(wt, v(k, i));
            else
              df_add_prod(s, wt, v(k, i));
            first = false;
          }
        } else {
          df h;
          bool hfirst = true;
#pragma unroll
          for (int i = 0; i < RS; i++) {
            const int wx = frac_w(MODE, RS, RD, d, i);
            if (wx == 0) continue;
            if (hfirst)
              h = df_prod((float)wx, v(k, i));
            else
              df_add_prod(h, (float)wx, v(k, i));
            hfirst = false;
          }
          df_add_row(s, first, (float)wy, h);
          first = false;
        }
      }
      /* x / 2^k and x * 2^-k round the same real number: the same float */
      q[o] = D & (D - 1) ? __fdiv_rn(df_value(s), (float)D) : __fmul_rn(df_value(s), 1.0f / D);
    }
  } else {
    frac_bytes<C, RD, P, DW>(dst, n, [&](int g, int d, int c) {
      u32 s = 0;
#pragma unroll
      for (int k = K0; k < K0 + NR; k++) {
        const u32 wy = (u32)frac_w(MODE, RS, RD, J, k);
        if (wy == 0) continue;
        u32 h = 0;
#pragma unroll
        for (int i = 0; i < RS; i++)
          h += (u32)frac_w(MODE, RS, RD, d, i) * word_byte(w[k - K0], (g * RS + i) * C + c);
        s += wy * h;
      }
      return (2u * s + D) / (2u * D);
    });
  }
}

/* Nearest: destination row of a unit from its one source row (w, SW
 * words): each pixel's bytes picked from its source pixel's (frac_w). */
template <int C, int RS, int RD, int P, int SW>
__device__ __forceinline__ void frac_pick(const u32 (&w)[SW], u8 *dst, int n) {
  frac_bytes<C, RD, P, SW / RS * RD>(
      dst, n, [&](int g, int d, int c) { return word_byte(w, (g * RS + frac_near(RS, RD, d)) * C + c); });
}

/* NR source rows from row K0 of a unit (SW words each) into w; 16-byte
 * loads where the unit is whole 16-byte words (4/3) and the rows allow
 * (v16): a warp's 4-byte loads of 16- or 48-byte units each touch 16 or 32
 * sectors for 4 or 1.5 of data */
template <int P, int SW, int NR>
__device__ __forceinline__ void frac_load(const u8 *src, u64 pitch, int n, u32 nb, bool v16, u32 (&w)[NR][SW]) {
  if (SW % 4 == 0 && v16 && (P == 1 || n == P)) {
#pragma unroll
    for (int k = 0; k < NR; k++)
#pragma unroll
      for (int i = 0; i < SW / 4; i++) {
        const uint4 q = __ldg((const uint4 *)(src + (u64)k * pitch) + i);
        w[k][4 * i] = q.x;
        w[k][4 * i + 1] = q.y;
        w[k][4 * i + 2] = q.z;
        w[k][4 * i + 3] = q.w;
      }
  } else if (P == 1 || n == P) {
#pragma unroll
    for (int k = 0; k < NR; k++)
#pragma unroll
      for (int i = 0; i < SW; i++) w[k][i] = __ldg((const u32 *)(src + (u64)k * pitch) + i);
  } else {
#pragma unroll
    for (int k = 0; k < NR; k++)
#pragma unroll
      for (int i = 0; i < SW; i++) w[k][i] = row_word((const u32 *)(src + (u64)k * pitch), i, nb / 4, nb);
  }
}

/* One destination row of a group alone (ROWWISE): its two source rows */
template <int C, int RS, int RD, int MODE, bool F32, int P, int SW, int J, bool F64>
__device__ __forceinline__ void frac_one(const u8 *src, u64 pitch, int n, u32 nb, bool v16, u8 *dst) {
  constexpr int K0 = frac_k0(MODE, RS, RD, J);
  u32 w[2][SW];
  frac_load<P, SW, 2>(src + (u64)K0 * pitch, pitch, n, nb, v16, w);
  frac_row<C, RS, RD, MODE, F32, P, SW, J, K0, 2, F64>(w, dst, n);
}

template <int C, int RS, int RD, int MODE, bool F32, bool F64 = false>
__device__ __forceinline__ void resize_frac(const jet__resize_params &p) {
  constexpr int P = F32 || C == 4 ? 1 : 4, SW = RS * C * P * (F32 ? 4 : 1) / 4, DW = SW / RS * RD;
  /* 3-channel units are 3 * RS words a row: a thread per destination row
   * (loading its 2 source rows) keeps the registers of a whole row group
   * (4 x 12 words) from halving the resident warps, or spilling. Nearest
   * reads one source row per destination row: a thread each, too. */
  constexpr bool ROWWISE = C == 3 || MODE == MODE_NEAREST;
  const jet__resize_image &im = p.img[blockIdx.z];
  const int gx = p.sw / RS, units = (gx + P - 1) / P;
  int bx, by;
  tile_of(units, TX, bx, by, (int)blockDim.y);
  const int u = bx + (int)threadIdx.x, r = by + (int)threadIdx.y;
  if (u >= units || r >= (ROWWISE ? p.dh : p.sh / RS)) return;
  const int n = min(P, gx - u * P); /* whole groups in this unit */
  const u32 nb = (u32)(n * RS * C);
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  const bool v16 = p.src_vec16;
  if constexpr (ROWWISE) {
    const int gy = r / RD, j = r - gy * RD;
    const u8 *src = im.src + (u64)gy * RS * sp + (u64)u * (SW * 4);
    u8 *dst = im.dst + (u64)r * dp + (u64)u * (DW * 4);
    if constexpr (MODE == MODE_NEAREST) {
      u32 w[1][SW];
      frac_load<P, SW, 1>(src + (u64)frac_near(RS, RD, j) * sp, sp, n, nb, v16, w);
      frac_pick<C, RS, RD, P, SW>(w[0], dst, n);
    } else if (j == 0)
      frac_one<C, RS, RD, MODE, F32, P, SW, 0, F64>(src, sp, n, nb, v16, dst);
    else if (j == 1)
      frac_one<C, RS, RD, MODE, F32, P, SW, 1, F64>(src, sp, n, nb, v16, dst);
    else
      frac_one<C, RS, RD, MODE, F32, P, SW, RD - 1, F64>(src, sp, n, nb, v16, dst);
  } else {
    const u8 *src = im.src + (u64)r * RS * sp + (u64)u * (SW * 4);
    u8 *dst = im.dst + (u64)r * RD * dp + (u64)u * (DW * 4);
    u32 w[RS][SW];
    frac_load<P, SW, RS>(src, sp, n, nb, v16, w);
    frac_row<C, RS, RD, MODE, F32, P, SW, 0, 0, RS, F64>(w, dst, n);
    frac_row<C, RS, RD, MODE, F32, P, SW, 1, 0, RS, F64>(w, dst + dp, n);
    if constexpr (RD > 2) frac_row<C, RS, RD, MODE, F32, P, SW, 2, 0, RS, F64>(w, dst + 2 * dp, n);
  }
}

#define RESIZE_FRAC(C, RS, RD, MODE, mode, kind, F32)                                              \
  extern "C" __global__ void __launch_bounds__(TX * TY, 4) jet_resize_##kind##_##mode##_r##RS##RD(jet__resize_params p) { \
    jet_pdl_enter();                                                                               \
    resize_frac<C, RS, RD, MODE, F32>(p);                                                          \
  }
#define RESIZE_FRACS(C, kind, F32)                               \
  RESIZE_FRAC(C, 3, 2, MODE_LINEAR, linear, kind, F32)           \
  RESIZE_FRAC(C, 4, 3, MODE_LINEAR, linear, kind, F32)           \
  RESIZE_FRAC(C, 3, 2, MODE_AREA, area, kind, F32)               \
  RESIZE_FRAC(C, 4, 3, MODE_AREA, area, kind, F32)
#define RESIZE_FRAC_NEAREST(C, kind)                               \
  RESIZE_FRAC(C, 3, 2, MODE_NEAREST, nearest, kind, false)        \
  RESIZE_FRAC(C, 4, 3, MODE_NEAREST, nearest, kind, false)
/* Left out of the PTX fallback image (lib/image/resize.c asks which image
 * the module came from and takes the general kernels there): their PTX
 * would add about 1 MB to every build that embeds it. */
#if !defined(JET_COMPACT_KERNELS) && !defined(JET_IMAGE_PTX)
RESIZE_FRACS(1, u8c1, false)
RESIZE_FRACS(3, u8c3, false)
RESIZE_FRACS(4, u8c4, false)
RESIZE_FRAC_NEAREST(1, u8c1)
RESIZE_FRAC_NEAREST(4, u8c4)
RESIZE_FRACS(1, f32c1, true)
RESIZE_FRACS(3, f32c3, true)
#endif
#if !defined(JET_COMPACT_KERNELS) && !defined(JET_IMAGE_PTX) && defined(__CUDA_ARCH__) && JET_RS_F64_SM(__CUDA_ARCH__ / 10)
#define RESIZE_FRAC64(C, RS, RD, kind)                                                              \
  extern "C" __global__ void __launch_bounds__(TX * TY, 4) jet_resize_##kind##_area_r##RS##RD##_f64(jet__resize_params p) { \
    jet_pdl_enter();                                                                               \
    resize_frac<C, RS, RD, MODE_AREA, true, true>(p);                                              \
  }
RESIZE_FRAC64(1, 3, 2, f32c1)
RESIZE_FRAC64(1, 4, 3, f32c1)
RESIZE_FRAC64(3, 3, 2, f32c3)
RESIZE_FRAC64(3, 4, 3, f32c3)
#endif

/* 8-bit enlarging (dw >= sw and dh >= sh), nearest and bilinear, 4-byte
 * aligned source rows (jet_resize_u8c{1,3,4}_up_*, chosen by the launcher).
 * An enlarging resize writes 2 to 4 bytes per byte read, at copy speed
 * only if a thread spends few instructions per byte and never waits on DRAM
 * (per-pixel taps ran at 75-79% issue slots busy, and then stalled on one
 * row load at a time):
 * - a block's 256 threads sit side by side, so that each destination row
 *   of a tile is one contiguous stretch of 256*G pixels (DRAM pages stay
 *   open, as in a copy);
 * - a thread computes its G pixels' columns itself (G = 4, but 1 for
 *   4-channel bilinear; no table) and walks p.rows consecutive destination
 *   rows; a source row's horizontal taps are taken once, when it enters the
 *   walk (an enlarging walk meets each source row once or twice), and (1- and
 *   4-channel bilinear) its words are loaded two steps earlier, so that the
 *   walk does not wait on L2; all but 3-channel bilinear read the next row's
 *   table entry a row early;
 * - taps come from whole words: 1 channel, one 8-byte window per row for
 *   all 4 pixels (a step of at most one source pixel per destination pixel
 *   keeps them in 8 bytes); 3 channels, 3 words per pixel shifted to its
 *   first byte; 4 channels, the pixel pair (bilinear) or each pixel
 *   (nearest, stored as one 16-byte word where rows are 16-byte aligned);
 * - the block asks L2 for all its source rows before the walk;
 * - two tap pairs are one byte permutation, and a horizontal sum
 *   (ONE - ax) * a + ax * b one 2-way dot product (__dp2a_lo, __dp2a_hi);
 * - the vertical step is resize_u8's, with weights and rounding term scaled
 *   by 4 (the sum stays under 2^32), written as H + D * 4ay (one product per
 *   byte and row, see walk), so the 8-bit result is the sum's top byte and
 *   four results pack with byte permutations;
 * - a thread whose stores are whole words and whose loads stay inside the
 *   row walks a loop with no per-row tests.
 * The results are resize_u8's integers. Tiles of 256*G x p.rows. */
#define RU JET_RS_ROWS_UP


/* Store n (<= G) pixels of C bytes held in words (byte k in w[k / 4]);
 * whole words where aligned. */
template <int C, int G>
__device__ __forceinline__ void st_words(u8 *q, const u32 *w, int n, int vec) {
  if (vec && n == G) {
#pragma unroll
    for (int k = 0; k < G * C / 4; k++) ((u32 *)q)[k] = w[k];
  } else {
#pragma unroll
    for (int i = 0; i < G * C; i++)
      if (i < n * C) q[i] = (u8)(w[i / 4] >> (8 * (i % 4)));
  }
}

template <int C, int MODE>
__device__ __forceinline__ void resize_up(const jet__resize_params &p) {
  constexpr bool LIN = MODE == MODE_LINEAR;
  constexpr int G = C == 4 && LIN ? 1 : 4, W = G * C;
  const jet__resize_image &im = p.img[blockIdx.z];
  const u8 *const src = im.src;
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  constexpr int TW = TX * TY * G;
  __shared__ int2 yt[RU]; /* per row of the walk: source row, 4 * fraction */
  const int rows = p.rows; /* 1..RU, uniform */
  const int tid = threadIdx.y * TX + threadIdx.x;
  int bx, by;
  tile_of(p.dw, TW, bx, by, rows);
  if (tid < rows) {
    int s, f;
    src_coord<MODE>(p, false, coord_fit32(p.dh, p.sh), by + tid, s, f);
    yt[tid] = make_int2(s, f << 2);
  }
  __syncthreads();
  const int x = bx + tid * G;
  const int nr = min(rows, p.dh - by);
  if (x >= p.dw || nr <= 0) return;
  const int n = min(G, p.dw - x);
  const u32 nb = (u32)C * (u32)p.sw, full = nb >> 2; /* row_word's */
  /* the thread's own columns (no table: no other thread reads them) */
  u32 wgt[G], wi[G], fs[G], sa[G], sb[G];
  {
    const bool fx32 = coord_fit32(p.dw, p.sw);
    int xs[G], xa[G];
#pragma unroll
    for (int g = 0; g < G; g++) src_coord<MODE>(p, true, fx32, x + g, xs[g], xa[g]);
#pragma unroll
    for (int g = 0; g < G; g++) {
      const int x0 = xs[g], x1 = LIN ? min(x0 + 1, p.sw - 1) : x0;
      wgt[g] = (u32)(JET_RESIZE_ONE - xa[g]) | ((u32)xa[g] << 16);
      if (C == 1) {
        /* one 8-byte window for all 4 pixels; sa[g]: pixel g's tap pair
         * selector (taps puts pixel g + 1's in bits 8-15 beside it) */
        wi[g] = (u32)xs[0] >> 2;
        sa[g] = LIN ? ((u32)x0 - (wi[g] << 2)) | ((u32)x1 - (wi[g] << 2)) << 4 : (u32)x0 - (wi[g] << 2);
      } else if (C == 3) {
        wi[g] = (u32)(3 * x0) >> 2;
        fs[g] = 8u * ((u32)(3 * x0) & 3u);
        /* channels 0 and 1, and 2, of taps x0 (bytes 0-2) and x1 (bytes
         * s..s+2, s = 0 at the right edge) */
        const u32 s3 = 3u * (u32)(x1 - x0);
        sa[g] = s3 << 4 | 1u << 8 | (1u + s3) << 12;
        sb[g] = 2u | (2u + s3) << 4;
      } else {
        /* columns past the image's right edge (G = 4, nearest) read its last pixel */
        wi[g] = (u32)min(x0, p.sw - 1);
        sa[g] = (u32)x1;
      }
    }
  }
  const bool pair = C == 4 && sa[0] == wi[0] + 1 && (wi[0] & 1) == 0 &&
                    (((unsigned long long)src | sp) & 7) == 0;
  /* a thread whose words reach the row's last partial one loads through
   * row_word; the others issue plain loads, all before they are used */
  const bool edge = C != 4 && wi[G - 1] + (C == 3 && LIN ? 2u : 1u) >= full;
  /* A source row's taps are loaded (ldrow: NV words), where registers
   * allow one step before they are used (taps, see take), so that the walk
   * does not wait on L2 for its next row.
   * 1 channel: the 8-byte window; 3 channels: per pixel, its first 4 bytes
   * (and, linear, the next 4); 4 channels: linear, the pixel and x1's;
   * nearest, each of the G pixels. */
  constexpr int NV = C == 1 ? 2 : C == 3 ? (LIN ? 2 * G : G) : (LIN ? 2 : G);
  auto ldrow = [&](auto e, int j, u32 *v) {
    constexpr bool EDGE = decltype(e)::value;
    const u32 *row = (const u32 *)(src + (u64)(u32)j * sp);
    auto ldw = [&](u32 k) { return EDGE ? row_word(row, k, full, nb) : __ldg(row + k); };
    if (C == 1) {
      v[0] = ldw(wi[0]);
      v[1] = ldw(wi[0] + 1);
    } else if (C == 3) {
#pragma unroll
      for (int g = 0; g < G; g++) {
        const u32 w0 = ldw(wi[g]), w1 = ldw(wi[g] + 1);
        v[g] = __funnelshift_r(w0, w1, fs[g]);
        if (LIN) v[G + g] = __funnelshift_r(w1, ldw(wi[g] + 2), fs[g]);
      }
    } else if (!LIN) {
#pragma unroll
      for (int g = 0; g < G; g++) v[g] = __ldg(row + wi[g]);
    } else {
      ld_pair((const u8 *)row, (int)wi[0], (int)sa[0], pair, v[0], v[1]);
    }
  };
  /* taps: linear, the horizontal sums of a row, one per byte; nearest, the
   * destination words of a row */
  constexpr int NH = LIN ? W : W / 4;
  auto taps = [&](const u32 *v, u32 *h) {
    if (C == 1) {
      if (!LIN) {
        h[0] = __byte_perm(v[0], v[1], sa[0] | (sa[1] << 4) | (sa[2] << 8) | (sa[3] << 12));
      } else {
        /* two pixels' tap pairs per permutation: bytes 0-1 and 2-3 */
#pragma unroll
        for (int g = 0; g < G; g += 2) {
          const u32 t = __byte_perm(v[0], v[1], sa[g] | sa[g + 1] << 8);
          h[g] = __dp2a_lo(wgt[g], t, 0u);
          h[g + 1] = __dp2a_hi(wgt[g + 1], t, 0u);
        }
      }
    } else if (C == 3) {
      if (!LIN) {
        h[0] = __byte_perm(v[0], v[1], 0x4210);
        h[1] = __byte_perm(v[1], v[2], 0x5421);
        h[2] = __byte_perm(v[2], v[3], 0x6542);
      } else {
#pragma unroll
        for (int g = 0; g < G; g++) {
          const u32 t = __byte_perm(v[g], v[G + g], sa[g]);
          h[g * 3] = __dp2a_lo(wgt[g], t, 0u);
          h[g * 3 + 1] = __dp2a_hi(wgt[g], t, 0u);
          h[g * 3 + 2] = __dp2a_lo(wgt[g], __byte_perm(v[g], v[G + g], sb[g]), 0u);
        }
      }
    } else if (!LIN) {
#pragma unroll
      for (int g = 0; g < G; g++) h[g] = v[g];
    } else {
#pragma unroll
      for (int c = 0; c < 4; c++) h[c] = 0u;
      dp2a_c4(wgt[0], v[0], v[1], h);
    }
  };
  {
    /* the walk's loads would wait on DRAM one row at a time: ask L2 for all
     * its source rows first (one line per thread and row; a warp's lines
     * cover its stretch) */
    const int jl = min(yt[nr - 1].x + (int)LIN, p.sh - 1);
    const u8 *pf = src + (u64)yt[0].x * sp + 4u * (u64)wi[0];
    for (int j = yt[0].x; j <= jl; j++, pf += sp) asm volatile("prefetch.global.L2 [%0];" ::"l"(pf));
  }
  /* Linear: with h0, h1 the sums of source rows cur and cur + 1 (clamped),
   * t = 4 * ((ONE - ay) * h0 + ay * h1 + 2^21) is H + D * 4ay (mod 2^32)
   * for H = h0 * 2^SH + RND, D = h1 - h0: one product per byte and row. t
   * is below 2^32, so the modular sum is t. Stepping to the next source row
   * (the rows of an enlarging walk step by 0 or 1) is H += D * 2^SH, and D
   * = h2 - h1 with h1 = (H >> SH) - (RND >> SH). */
  constexpr int SH = JET_RESIZE_FRAC_BITS + 2;
  constexpr u32 RND = 1u << (2 * JET_RESIZE_FRAC_BITS + 1);
  u8 *q = im.dst + (u64)by * dp + (u64)x * C;
  /* 4-channel nearest: a thread's 4 pixels as one 16-byte store where the
   * rows allow it (x is a multiple of 4) */
  const bool al16 = ((((unsigned long long)im.dst) | dp) & 15) == 0;
  const int last = p.sh - 1;
  auto walk = [&](auto fast) {
    /* fast: whole-word stores and loads inside the row (the common case,
     * with no per-row tests) */
    constexpr bool FAST = decltype(fast)::value;
    auto ld = [&](int j, u32 *v) {
      if (FAST)
        ldrow(flag_t<false>(), j, v);
      else if (edge)
        ldrow(flag_t<true>(), j, v);
      else
        ldrow(flag_t<false>(), j, v);
    };
    /* Source rows are taken in order (step). A pipelined walk (bilinear, 1
     * and 4 channels) loads a row's words two steps before they are summed,
     * into two buffers used in turn (A, B), so that the walk never waits on
     * a load issued one row before. 3-channel linear (24 words of sums) has
     * no registers for that, and nearest gains nothing (its taps are the
     * words: the compiler moves them out of the load's register at once,
     * which waits for the load; on an H100 4-channel nearest to 3840x2160
     * ran 5% slower); they load a row as they take it. */
    constexpr bool PIPE = LIN && C != 3;
    u32 H[NH], D[LIN ? W : 1], A[NV], B[NV];
    int cur = yt[0].x;
    {
      u32 v[NV];
      ld(cur, v);
      taps(v, H);
      if (LIN) {
        ld(min(cur + 1, last), v);
        taps(v, D);
#pragma unroll
        for (int k = 0; k < W; k++) {
          D[k] -= H[k];
          H[k] = (H[k] << SH) + RND;
        }
      }
      if (PIPE) {
        ld(min(cur + 2, last), A);
        ld(min(cur + 3, last), B);
      }
    }
    /* step: to source row cur + 1, whose taps (bilinear: row cur + 2's, the
     * walk's lower row) are in buf or loaded now */
    auto step = [&](u32 *buf) {
      cur++;
      const int j = min(cur + (int)LIN, last);
      u32 *h = LIN ? D : H;
      if (LIN) {
#pragma unroll
        for (int k = 0; k < W; k++) H[k] += D[k] << SH;
      }
      if (!PIPE) ld(j, buf);
      taps(buf, h);
      if (PIPE) ld(min(j + 2, last), buf);
      if (LIN) {
#pragma unroll
        for (int k = 0; k < W; k++) D[k] += (RND >> SH) - (H[k] >> SH);
      }
    };
    /* emit: row r (source row y.x == cur); y: row r's entry, which all but
     * 3-channel bilinear (no registers left) load a row early (YPRE) */
    constexpr bool YPRE = PIPE || !LIN;
    int r = 0;
    int2 y = yt[0];
    auto emit = [&]() {
      const u32 a4 = (u32)y.y;
      if (YPRE) y = yt[min(r + 1, nr - 1)];
      u32 w[W / 4];
      if (LIN) {
        u32 t[W];
#pragma unroll
        for (int k = 0; k < W; k++) t[k] = H[k] + D[k] * a4;
#pragma unroll
        for (int i = 0; i < W / 4; i++) w[i] = top_bytes(t[4 * i], t[4 * i + 1], t[4 * i + 2], t[4 * i + 3]);
      } else {
#pragma unroll
        for (int i = 0; i < W / 4; i++) w[i] = H[i];
      }
      /* W == 16: 4-channel nearest, whose 4 pixels are one uint4 (the
       * indices wrap at w's length so that the other widths, which never
       * take this branch, compile) */
      if (FAST && W == 16 && al16) {
        *(uint4 *)q = make_uint4(w[0], w[1], w[2 % (W / 4)], w[3 % (W / 4)]);
      } else if (FAST) {
#pragma unroll
        for (int i = 0; i < W / 4; i++) ((u32 *)q)[i] = w[i];
      } else {
        st_words<C, G>(q, w, n, p.dst_vec);
      }
      r++;
      q += dp;
    };
    /* the rows of an enlarging walk step by 0 or 1 source rows */
    if constexpr (PIPE) {
      /* steps take buffers A and B in turn */
      auto rows_of_cur = [&]() {
        do emit();
        while (r < nr && y.x == cur);
      };
#pragma unroll 1
      for (;;) {
        rows_of_cur();
        if (r >= nr) break;
        step(A);
        rows_of_cur();
        if (r >= nr) break;
        step(B);
      }
    } else {
#pragma unroll 1
      while (r < nr) {
        if (!YPRE) y = yt[r];
        if (y.x != cur) step(A);
        emit();
      }
    }
  };
  if (!edge && p.dst_vec && n == G)
    walk(flag_t<true>());
  else
    walk(flag_t<false>());
}

/* min blocks: 4 (64 registers) fits all but 3-channel bilinear, whose 24
 * sums spill there; it gets 3 */
#define RESIZE_UP(C, MODE, mname, MINB)                                                            \
  extern "C" __global__ void __launch_bounds__(TX * TY, MINB)                                      \
      jet_resize_u8c##C##_up_##mname(jet__resize_params p) {                                       \
    jet_pdl_enter();                                                                               \
    resize_up<C, MODE>(p);                                                                         \
  }
/* A compact build (JET_COMPACT_KERNELS) leaves them out; resize.c then takes
 * the tiled kernels, with the same results. */
#ifndef JET_COMPACT_KERNELS
RESIZE_UP(1, MODE_NEAREST, nearest, 4)
RESIZE_UP(1, MODE_LINEAR, linear, 4)
RESIZE_UP(3, MODE_NEAREST, nearest, 4)
RESIZE_UP(3, MODE_LINEAR, linear, 3)
RESIZE_UP(4, MODE_NEAREST, nearest, 4)
RESIZE_UP(4, MODE_LINEAR, linear, 4)
#endif

/* 8-bit bilinear by exactly 2 on both axes (dw = 2 sw, dh = 2 sh), 4-byte
 * aligned source rows (jet_resize_u8c{1,3,4}_up2_linear, chosen by the
 * launcher). There every weight is a quarter or three quarters
 * (color_coeffs.h: destination 2k has x0 = k - 1, ax = 3 ONE / 4; 2k + 1 has
 * x0 = k, ax = ONE / 4; the clamps at both edges give the same sums as
 * clamping the tap index), so destination sample (2k + e, 2j + f) is (9 p +
 * 3 q + 3 r + s + 8) >> 4 of its source sample p, the same channel's
 * neighbour q on its side across (index clamped), r on its side down and s
 * diagonally: the bilinear integers exactly ((v + 2^21) >> 22 with v = 2^18
 * times that sum). A thread takes up2_nw(C) source words (GRAY8 1: 4
 * samples; RGB8 3: 4 pixels; RGBA8 2: 2 pixels, so that a warp's 16-byte
 * stores of a row are one contiguous stretch) and walks p.rows source rows,
 * two destination rows each, loading a row one step before its sums: a
 * row's horizontal sums L + 3 p (even destination pixels) and 3 p + R (odd),
 * L and R the samples C bytes before and after, sit in packed 16-bit lanes
 * (at most 1020), and a destination row is 48 h + 16 h' + 128 per lane (at
 * most 65408: no carry), whose byte 1 is the result. H100: GRAY8 12-25%
 * faster than the general walk (resize_up). RGBA8 with 4 pixels a thread
 * (32 bytes of a row, a warp's stores every other 16 bytes) was not faster
 * at 1440p and 4K; with 2 pixels a thread (one 16-byte store a row) it takes
 * 0.75-0.96 of resize_up's time at 720p to 4K (H200). */

/* Source pixels a thread of the x2 walk takes from each row (the launcher's
 * rule too), and the words that hold them. */
__host__ __device__ constexpr int up2_px(int C) { return JET_RS_UP2_PX(C); }
__host__ __device__ constexpr int up2_nw(int C) { return up2_px(C) * C / 4; }

/* Source row j's words for the thread whose first word is wi: its NW words,
 * the next, and the one before (none at wi = 0) last. */
template <int C>
__device__ __forceinline__ void up2_load(const u8 *src, u64 sp, u32 nb, int j, u32 wi, u32 *v) {
  constexpr int NW = up2_nw(C);
  const u32 *row = (const u32 *)(src + (u64)(u32)j * sp);
#pragma unroll
  for (int k = 0; k <= NW; k++) v[k] = row_word<C>(row, wi + k, nb >> 2, nb);
  v[NW + 1] = wi ? __ldg(row + wi - 1) : 0u;
}

/* The row's horizontal sums from up2_load's words, 16-bit lanes: H[2k],
 * H[2k + 1] the even destination pixels' sums of word k's bytes (0, 2) and
 * (1, 3); H[2 NW + 2k], H[2 NW + 2k + 1] the odd ones'. */
template <int C>
__device__ __forceinline__ void up2_sums(const u32 *v, u32 wi, u32 *H) {
  constexpr int NW = up2_nw(C), S = 8 * C; /* bits between a sample and its neighbour */
  /* the C bytes before the row: the first pixel's */
  const u32 wp = wi ? v[NW + 1] : v[0] << (32 - S);
#pragma unroll
  for (int k = 0; k < NW; k++) {
    const u32 w = v[k], pw = k ? v[k - 1] : wp;
    /* a 4-byte pixel's neighbours are whole words (a funnel shift by 32 is one by 0) */
    const u32 L = S == 32 ? pw : __funnelshift_l(pw, w, S);
    const u32 R = S == 32 ? v[k + 1] : __funnelshift_r(w, v[k + 1], S);
    const u32 wl = w & 0x00ff00ffu, wh = __byte_perm(w, 0u, 0x4341);
    H[2 * k] = wl * 3u + (L & 0x00ff00ffu);
    H[2 * k + 1] = wh * 3u + __byte_perm(L, 0u, 0x4341);
    H[2 * NW + 2 * k] = wl * 3u + (R & 0x00ff00ffu);
    H[2 * NW + 2 * k + 1] = wh * 3u + __byte_perm(R, 0u, 0x4341);
  }
}

/* Where destination byte b of a thread's 8 NW (2 NW words of a row) lies in
 * the results r[] of up2_sums' layout: r[up2_reg(C, b)], byte 1 or 3. The
 * destination pixel b / C takes source pixel b / C / 2, even or odd. */
__host__ __device__ constexpr int up2_src_byte(int C, int b) { return C * (b / C / 2) + b % C; }
__host__ __device__ constexpr int up2_reg(int C, int b) {
  return 2 * up2_nw(C) * (b / C % 2) + 2 * (up2_src_byte(C, b) / 4) + up2_src_byte(C, b) % 2;
}
__host__ __device__ constexpr int up2_byte(int C, int b) { return up2_src_byte(C, b) % 4 / 2 ? 3 : 1; }

template <int C>
__device__ __forceinline__ void resize_up2(const jet__resize_params &p) {
  constexpr int NW = up2_nw(C), PX = up2_px(C), NH = 4 * NW; /* lane words of a row's sums */
  const jet__resize_image &im = p.img[blockIdx.z];
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  int bx, by;
  tile_of(p.sw, JET_RS_UP2_TX * PX, bx, by, p.rows);
  const int x = bx + (int)threadIdx.x * PX; /* first source pixel */
  if (x >= p.sw) return;
  const u32 nb = (u32)C * (u32)p.sw, wi = (u32)(C * x) >> 2;
  const int yend = min(by + p.rows, p.sh), last = p.sh - 1;
  /* the thread's destination bytes: 8 NW from 2 C x */
  const int nbytes = min(2 * PX, 2 * (p.sw - x)) * C;
  const bool whole = nbytes == 8 * NW && p.dst_vec;
  const unsigned long long dal = ((unsigned long long)im.dst) | dp;
  const bool al8 = whole && (dal & 7) == 0, al16 = C == 4 && whole && (dal & 15) == 0;
  u8 *q = im.dst + (u64)(2 * by) * dp + (u64)(2 * C) * (u64)x;
  const u32 K = 0x00800080u;
  u32 Hc[NH], Gp[NH], nv[NW + 2];
  {
    u32 v[NW + 2], Hp[NH];
    up2_load<C>(im.src, sp, nb, max(by - 1, 0), wi, v);
    up2_load<C>(im.src, sp, nb, by, wi, nv);
    up2_sums<C>(v, wi, Hp);
    up2_sums<C>(nv, wi, Hc);
#pragma unroll
    for (int i = 0; i < NH; i++) Gp[i] = Hp[i] * 16u + K;
    up2_load<C>(im.src, sp, nb, min(by + 1, last), wi, nv);
  }
  /* one destination row: 3/4 of the walk's row (Hc), 1/4 of the other (G) */
  auto emit = [&](const u32 *G) {
    u32 r[NH], w[2 * NW];
#pragma unroll
    for (int i = 0; i < NH; i++) r[i] = Hc[i] * 48u + G[i];
#pragma unroll
    for (int m = 0; m < 2 * NW; m++) {
      const int b = 4 * m;
      const u32 t0 = __byte_perm(r[up2_reg(C, b)], r[up2_reg(C, b + 1)],
                                 up2_byte(C, b) | (4 + up2_byte(C, b + 1)) << 4);
      const u32 t1 = __byte_perm(r[up2_reg(C, b + 2)], r[up2_reg(C, b + 3)],
                                 up2_byte(C, b + 2) | (4 + up2_byte(C, b + 3)) << 4);
      w[m] = __byte_perm(t0, t1, 0x5410);
    }
    /* evict-first stores, as jet_resize_f32c1_up2_linear's (GRAY8 0-4% faster) */
    if (al16) {
      __stcs((uint4 *)q, make_uint4(w[0], w[1], w[2], w[3]));
    } else if (al8) {
#pragma unroll
      for (int m = 0; m < NW; m++) __stcs((uint2 *)q + m, make_uint2(w[2 * m], w[2 * m + 1]));
    } else if (whole) {
#pragma unroll
      for (int m = 0; m < 2 * NW; m++) __stcs((u32 *)q + m, w[m]);
    } else {
#pragma unroll
      for (int b = 0; b < 8 * NW; b++)
        if (b < nbytes) q[b] = (u8)(w[b / 4] >> (8 * (b % 4)));
    }
    q += dp;
  };
#pragma unroll 1
  for (int k = by; k < yend; k++) {
    u32 Hn[NH], Gn[NH];
    up2_sums<C>(nv, wi, Hn);
    up2_load<C>(im.src, sp, nb, min(k + 2, last), wi, nv);
#pragma unroll
    for (int i = 0; i < NH; i++) Gn[i] = Hn[i] * 16u + K;
    emit(Gp); /* row 2k: 3/4 of source row k, 1/4 of k - 1 */
    emit(Gn); /* row 2k + 1: 3/4 of k, 1/4 of k + 1 */
#pragma unroll
    for (int i = 0; i < NH; i++) {
      Gp[i] = Hc[i] * 16u + K;
      Hc[i] = Hn[i];
    }
  }
}

/* An entry of the walks of exact factors, blocks of @threads threads:
 * @name runs @walk (bilinear resize_up2<C>, resize_up32<C> in blocks of
 * JET_RS_UP2_TX; nearest resize_up2_nearest<C>, resize_up32_nearest<C> in
 * TX x TY). */
#define RS_WALK_ENTRY(name, threads, walk)                                                 \
  extern "C" __global__ void __launch_bounds__(threads) name(jet__resize_params p) { \
    jet_pdl_enter();                                                                    \
    walk(p);                                                                            \
  }
#ifndef JET_COMPACT_KERNELS
RS_WALK_ENTRY(jet_resize_u8c1_up2_linear, JET_RS_UP2_TX, resize_up2<1>)
RS_WALK_ENTRY(jet_resize_u8c3_up2_linear, JET_RS_UP2_TX, resize_up2<3>)
RS_WALK_ENTRY(jet_resize_u8c4_up2_linear, JET_RS_UP2_TX, resize_up2<4>)
#endif

/* Nearest by exactly 2 on both axes (dw = 2 sw, dh = 2 sh): destination
 * (x, y) is source (x >> 1, y >> 1) (nearest_index: (2d + 1) / 4 rounds
 * down to d >> 1), so each source row becomes two destination rows of its
 * pixels doubled: a copy with no coordinates. A thread writes one unit of
 * each of its rows' destination bytes, the same unit to both rows, so that
 * a warp's stores are one contiguous stretch: GRAY8 and 4-byte pixels (RGBA8,
 * GRAYF32) 16 bytes from one 8-byte load; RGB8 8 bytes (units in phases of
 * 3, 24 bytes from the 3 words of 4 pixels). Byte permutations double the
 * pixels. p.rows (1..JET_RS_UP2N_ROWS) source rows TY apart a thread, all
 * loaded before any store; a unit that reaches the row's end moves bytes.
 * Rows: source 8-byte (4-byte for RGB8) aligned, destination 16-byte
 * (8-byte) aligned (the launcher's test). Tiles of TX units by TY * p.rows
 * source rows. */
template <int C>
__device__ __forceinline__ void resize_up2_nearest(const jet__resize_params &p) {
  constexpr int OB = C == 3 ? 8 : 16, IW = C == 3 ? 3 : 2, R = JET_RS_UP2N_ROWS;
  const jet__resize_image &im = p.img[blockIdx.z];
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  const int rows = p.rows; /* uniform */
  int bx, by;
  tile_of((int)JET_RS_UP2N_UNITS(C, p.sw), TX, bx, by, TY * rows);
  const int u = bx + (int)threadIdx.x;
  by += (int)threadIdx.y;
  const u32 ob = (u32)u * OB, rb = 2u * C * (u32)p.sw; /* destination bytes: the unit's first, a row's */
  if (ob >= rb || by >= p.sh) return;
  u8 *q = im.dst + ob;
  /* RGB8: the unit's phase in its 4-pixel group, whose words it loads */
  const u32 ph = C == 3 ? (u32)u % 3u : 0u, g = C == 3 ? (u32)u / 3u : 0u;
  const u8 *s = im.src + (C == 3 ? 12u * g : (u32)OB / 2u * (u32)u);
  const bool whole = C == 3 ? 4u * g + 4u <= (u32)p.sw : ob + OB <= rb;
  if (!whole) {
    for (int k = 0; k < rows; k++) {
      const int y = by + k * TY;
      if (y >= p.sh) break;
      const u8 *sr = im.src + (u64)y * sp;
      u8 *q0 = q + (u64)(2 * y) * dp;
      for (u32 o = 0; o < OB && ob + o < rb; o++) {
        const u32 d = ob + o; /* source byte C * (d / 2C) + d % C */
        q0[o] = q0[dp + o] = sr[C * (d / (2 * C)) + d % C];
      }
    }
    return;
  }
  u32 v[R][IW];
#pragma unroll
  for (int k = 0; k < R; k++) {
    if (k >= rows) break;
    const u8 *sr = s + (u64)min(by + k * TY, p.sh - 1) * sp;
    if (C == 3) {
#pragma unroll
      for (int i = 0; i < IW; i++) v[k][i] = __ldg((const u32 *)sr + i);
    } else {
      const uint2 w = __ldg((const uint2 *)sr);
      v[k][0] = w.x;
      v[k][1] = w.y;
    }
  }
  /* RGB8: pixels a0a1a2 a3b0b1 b2b3c0 c1c2c3 of words a, b, c, each twice,
   * are 6 words, phase ph's two of them from (a, b) or (b, c) */
  const u32 slo = C == 3 ? (ph == 0 ? 0x0210u : ph == 1 ? 0x5435u : 0x6543u) : 0u;
  const u32 shi = C == 3 ? (ph == 0 ? 0x4321u : ph == 1 ? 0x2432u : 0x7657u) : 0u;
#pragma unroll
  for (int k = 0; k < R; k++) {
    const int y = by + k * TY;
    if (k >= rows || y >= p.sh) break;
    u8 *q0 = q + (u64)(2 * y) * dp;
    const u32 *w = v[k];
    if (C == 3) {
      const u32 a = w[0], b = w[1], c = w[2 % IW];
      const uint2 o = make_uint2(__byte_perm(ph < 2 ? a : b, ph < 2 ? b : c, slo),
                                 __byte_perm(ph < 1 ? a : b, ph < 1 ? b : c, shi));
      *(uint2 *)q0 = o;
      *(uint2 *)(q0 + dp) = o;
    } else {
      const uint4 o = C == 1 ? make_uint4(__byte_perm(w[0], 0, 0x1100), __byte_perm(w[0], 0, 0x3322),
                                          __byte_perm(w[1], 0, 0x1100), __byte_perm(w[1], 0, 0x3322))
                             : make_uint4(w[0], w[0], w[1], w[1]);
      *(uint4 *)q0 = o;
      *(uint4 *)(q0 + dp) = o;
    }
  }
}
/* Nearest by exactly 3/2 on both axes (2 dw = 3 sw, 2 dh = 3 sh):
 * destination d is source (2d + 1) / 3 (nearest_index), so destination rows
 * 3k, 3k + 1 and 3k + 2 are source rows 2k, 2k + 1 and 2k + 1, and a row's
 * pixels repeat in the pattern 0, 1, 1. A thread writes one unit of
 * destination bytes (a warp's stores one contiguous stretch) to the three
 * rows of one source row pair. GRAY8 and RGB8: 8 bytes, each of its two
 * words one byte permutation of the two source words that hold its bytes
 * (they span at most 4 source bytes), whose offsets and selector it finds
 * first; a unit whose words would reach past the row's last source word
 * moves bytes. 4-byte pixels (RGBA8, GRAYF32): 4 pixels, one 16-byte store
 * of their source pixels' words (8-byte units took 1.08-1.28 of the general
 * walk's time). Rows: source 4-byte, destination 8-byte (4-byte pixels:
 * 16-byte) aligned. Tiles of TX units by TY row pairs. (H200: 2 row pairs
 * a thread took 1.06-1.10 of the time at 1440p and 4K.) */
template <int C>
__device__ __forceinline__ void resize_up32_nearest(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  const u32 rb = (u32)C * (u32)p.dw, sb = (u32)C * (u32)p.sw; /* row bytes */
  constexpr u32 UB = C == 4 ? 16u : 8u; /* unit bytes */
  int bx, by;
  tile_of((int)JET_RS_UP32N_UNITS(C, (u32)p.dw), TX, bx, by, TY);
  const u32 ob = UB * (u32)(bx + (int)threadIdx.x);
  const int y = by + (int)threadIdx.y; /* source row pair */
  if (ob >= rb || y >= p.sh / 2) return;
  const u8 *s0 = im.src + (u64)(2 * y) * sp;
  u8 *q = im.dst + (u64)(3 * y) * dp + ob;
  if constexpr (C == 4) {
    /* 4-byte pixels: 4 a unit, each its source pixel's word (indices past
     * the row's end, of a partial unit, clamped to its last pixel) */
    const u32 x = ob / 4u, n = min(4u, (u32)p.dw - x);
    u32 v[2][4];
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
      for (int i = 0; i < 4; i++)
        v[h][i] = __ldg((const u32 *)(s0 + (u64)h * sp) + (2u * min(x + i, (u32)p.dw - 1u) + 1u) / 3u);
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
      for (int r = h; r <= 2 * h; r++) {
        u32 *qr = (u32 *)(q + (u64)r * dp); /* rows 3y (h = 0), 3y + 1 and 3y + 2 (h = 1) */
        if (n == 4u) {
          *(uint4 *)qr = make_uint4(v[h][0], v[h][1], v[h][2], v[h][3]);
        } else {
#pragma unroll
          for (u32 i = 0; i < 4u; i++)
            if (i < n) qr[i] = v[h][i];
        }
      }
    return;
  }
  auto src_byte = [](u32 o) { /* of destination byte o */
    const u32 px = o / C;
    return C * ((2u * px + 1u) / 3u) + (o - px * C);
  };
  u32 ws[2], sel[2];
#pragma unroll
  for (int j = 0; j < 2; j++) {
    u32 lo = src_byte(ob + 4u * j); /* not always the word's lowest: pixels repeat */
#pragma unroll
    for (int i = 1; i < 4; i++) lo = min(lo, src_byte(ob + 4u * j + i));
    ws[j] = lo >> 2;
    sel[j] = 0;
#pragma unroll
    for (int i = 0; i < 4; i++) sel[j] |= (src_byte(ob + 4u * j + i) - 4u * ws[j]) << (4 * i);
  }
  if (ob + 8u > rb || 4u * ws[1] + 8u > sb) {
    for (u32 o = 0; o < 8u && ob + o < rb; o++) {
      const u32 i = src_byte(ob + o);
      q[o] = s0[i];
      q[dp + o] = q[2 * dp + o] = s0[sp + i];
    }
    return;
  }
  u32 v[2][4];
#pragma unroll
  for (int h = 0; h < 2; h++)
#pragma unroll
    for (int j = 0; j < 2; j++) {
      const u32 *sr = (const u32 *)(s0 + (u64)h * sp) + ws[j];
      v[h][2 * j] = __ldg(sr);
      v[h][2 * j + 1] = __ldg(sr + 1);
    }
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const uint2 o = make_uint2(__byte_perm(v[h][0], v[h][1], sel[0]), __byte_perm(v[h][2], v[h][3], sel[1]));
    *(uint2 *)(q + (u64)h * dp) = o;
    if (h) *(uint2 *)(q + 2 * dp) = o;
  }
}

#ifndef JET_COMPACT_KERNELS
RS_WALK_ENTRY(jet_resize_u8c1_up2_nearest, TX * TY, resize_up2_nearest<1>)
RS_WALK_ENTRY(jet_resize_u8c3_up2_nearest, TX * TY, resize_up2_nearest<3>)
RS_WALK_ENTRY(jet_resize_u8c4_up2_nearest, TX * TY, resize_up2_nearest<4>)
RS_WALK_ENTRY(jet_resize_u8c1_up32_nearest, TX * TY, resize_up32_nearest<1>)
RS_WALK_ENTRY(jet_resize_u8c3_up32_nearest, TX * TY, resize_up32_nearest<3>)
RS_WALK_ENTRY(jet_resize_u8c4_up32_nearest, TX * TY, resize_up32_nearest<4>)
#endif

/* Float bilinear enlarging (jet_resize_f32c{1,3}_up_linear): the walk of
 * resize_up, one pixel per thread, a source row's taps loaded one step before
 * they are summed. The formula is separable as written
 * (color_coeffs.h), so a source row's horizontal sums h = (ONE-ax)*p0 + ax*p1
 * are taken once, kept with their rounding error (hi + lo), and each
 * destination row of the walk is (ONE-ay)*h0 + ay*h1 of two of them, with the
 * same compensated products as resize_f32's four-term sum. */
template <int C>
__device__ __forceinline__ void resize_up_f32(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  constexpr int TW = TX * TY;
  __shared__ int xs[TW], xa[TW], ys[RU], ya[RU];
  const int rows = p.rows; /* 1..RU, uniform */
  int bx, by;
  tile_of(p.dw, TW, bx, by, rows);
  fill_tables<MODE_LINEAR, RU>(p, bx, by, TW, xs, xa, ys, ya, rows);
  __syncthreads();
  const int lx = threadIdx.y * TX + threadIdx.x, x = bx + lx;
  const int nr = min(rows, p.dh - by);
  if (x >= p.dw || nr <= 0) return;
  const float ONE = (float)JET_RESIZE_ONE;
  const int x0 = xs[lx] * C, x1 = min(xs[lx] + 1, p.sw - 1) * C;
  const float wx1 = (float)xa[lx], wx0 = ONE - wx1;
  const u8 *const src = im.src;
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  const int last = p.sh - 1;
  /* the taps of the walk's next source row, loaded one step before they
   * are summed */
  float na[C], nb[C];
  auto ld = [&](int j) {
    const float *row = (const float *)(src + (u64)j * sp);
#pragma unroll
    for (int c = 0; c < C; c++) {
      na[c] = __ldg(row + x0 + c);
      nb[c] = __ldg(row + x1 + c);
    }
  };
  auto hsum = [&](df *h) {
#pragma unroll
    for (int c = 0; c < C; c++) h[c] = df_lerp(wx0, na[c], wx1, nb[c]);
  };
  {
    const int jl = min(ys[nr - 1] + 1, last);
    const u8 *pf = src + (u64)ys[0] * sp + 4u * (u64)x0;
    for (int j = ys[0]; j <= jl; j++, pf += sp) asm volatile("prefetch.global.L2 [%0];" ::"l"(pf));
  }
  float *q = (float *)(im.dst + (u64)by * dp) + (u64)x * C;
  /* the rows of an enlarging walk step by 0 or 1: h0, h1 are the sums of
   * source rows cur and cur + 1 (clamped) */
  int cur = ys[0];
  df h0[C], h1[C];
  ld(cur);
  hsum(h0);
  ld(min(cur + 1, last));
  hsum(h1);
  ld(min(cur + 2, last));
#pragma unroll 1
  for (int r = 0; r < nr; r++, q = (float *)((u8 *)q + dp)) {
    if (ys[r] != cur) { /* == cur + 1 */
      cur++;
#pragma unroll
      for (int c = 0; c < C; c++) h0[c] = h1[c];
      hsum(h1);
      ld(min(cur + 2, last));
    }
    const float wy1 = (float)ya[r], wy0 = ONE - wy1;
#pragma unroll
    for (int c = 0; c < C; c++) q[c] = df_blend(h0[c], h1[c], wy0, wy1);
  }
}

#ifndef JET_COMPACT_KERNELS
extern "C" __global__ void __launch_bounds__(TX * TY, 4) jet_resize_f32c1_up_linear(jet__resize_params p) {
  jet_pdl_enter();
  resize_up_f32<1>(p);
}
extern "C" __global__ void __launch_bounds__(TX * TY, 4) jet_resize_f32c3_up_linear(jet__resize_params p) {
  jet_pdl_enter();
  resize_up_f32<3>(p);
}

/* GRAYF32 bilinear by exactly 2 on both axes (jet_resize_f32c1_up2_linear,
 * chosen by the launcher for 8-byte aligned source rows and 16-byte aligned
 * destination rows). As in resize_up2, destination column 2k takes source
 * columns k - 1 and k with weights ONE/4 and 3 ONE/4, column 2k + 1 columns k
 * and k + 1 with 3 ONE/4 and ONE/4 (indices clamped at the edges, where
 * the exact sums equal the clamped coordinates'), rows alike. A thread takes
 * 2 source columns (4 destination columns, one 16-byte store a row) and
 * walks p.rows source rows, 2 destination rows each, keeping three rows'
 * horizontal sums and loading the next row one step before its sums; the
 * sums are resize_up_f32's (df_lerp, df_blend). The stores are evict-first
 * (st.global.cs): the 4x larger output then leaves in L2 the source rows
 * that the next blocks read (H100: 11-15% less time at 720p to 4K, 69.4 ->
 * 61.4 us at 4K, CV-CUDA's time; the same hint on the other enlarging walks,
 * the filters and the colour conversions was level or slower). */
extern "C" __global__ void __launch_bounds__(JET_RS_UP2_TX) jet_resize_f32c1_up2_linear(jet__resize_params p) {
  jet_pdl_enter();
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.sw, 2 * JET_RS_UP2_TX, bx, by, p.rows);
  const int k = bx + 2 * (int)threadIdx.x, nr = min(p.rows, p.sh - by);
  if (k >= p.sw || nr <= 0) return;
  const float Q = (float)(JET_RESIZE_ONE / 4), T = (float)(3 * JET_RESIZE_ONE / 4);
  const int lastx = p.sw - 1, lasty = p.sh - 1;
  const bool two = k < lastx; /* source columns k and k + 1: 4 destination columns */
  const int kl = max(k - 1, 0), kr = min(k + 2, lastx);
  const u8 *const src = im.src;
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  /* v: source columns k - 1 .. k + 2 (clamped) of the next row */
  float v[4];
  auto ld = [&](int j) {
    const float *row = (const float *)(src + (u64)j * sp);
    if (two) {
      const float2 m = __ldg((const float2 *)(row + k));
      v[1] = m.x;
      v[2] = m.y;
    } else {
      v[1] = v[2] = __ldg(row + k);
    }
    v[0] = __ldg(row + kl);
    v[3] = __ldg(row + kr);
  };
  auto hsum = [&](df *h) {
    h[0] = df_lerp(Q, v[0], T, v[1]);
    h[1] = df_lerp(T, v[1], Q, v[2]);
    h[2] = df_lerp(Q, v[1], T, v[2]);
    h[3] = df_lerp(T, v[2], Q, v[3]);
  };
  auto store = [&](float *q, const df *h0, const df *h1, float w0, float w1) {
    const float o0 = df_blend(h0[0], h1[0], w0, w1), o1 = df_blend(h0[1], h1[1], w0, w1);
    if (two)
      __stcs((float4 *)q, make_float4(o0, o1, df_blend(h0[2], h1[2], w0, w1), df_blend(h0[3], h1[3], w0, w1)));
    else
      __stcs((float2 *)q, make_float2(o0, o1));
  };
  /* ha, hb, hc: the sums of source rows j - 1, j and j + 1 (clamped) */
  df ha[4], hb[4], hc[4];
  ld(max(by - 1, 0));
  hsum(ha);
  ld(by);
  hsum(hb);
  ld(min(by + 1, lasty));
  float *q = (float *)(im.dst + (u64)(2 * by) * dp) + 2 * k;
#pragma unroll 1
  for (int r = 0; r < nr; r++) {
    hsum(hc);
    ld(min(by + r + 2, lasty));
    store(q, ha, hb, Q, T);
    q = (float *)((u8 *)q + dp);
    store(q, hb, hc, T, Q);
    q = (float *)((u8 *)q + dp);
#pragma unroll
    for (int c = 0; c < 4; c++) {
      ha[c] = hb[c];
      hb[c] = hc[c];
    }
  }
}
#endif

#if !defined(JET_COMPACT_KERNELS) && !defined(JET_IMAGE_PTX)
/* The fractions of bilinear by exactly 3/2 (lin_coord): destination 3m + e
 * takes source pixels 2m - 1 + e and 2m + e with fraction UP32_F5, ONE/2 or
 * UP32_F1 for e = 0, 1, 2, on either axis. */
constexpr int UP32_F5 = (5 << JET_RESIZE_FRAC_BITS) / 6, UP32_F1 = (1 << JET_RESIZE_FRAC_BITS) / 6;

/* The x3/2 walks' rows (jet_resize_f32c1_up32_linear, resize_up32): p.rows
 * pairs J from by on, source rows 2J - 1 .. 2J + 2 (clamped) giving
 * destination rows 3J, 3J + 1 and 3J + 2 with row weights (ONE - F5, F5),
 * (ONE/2, ONE/2) and (ONE - F1, F1). ld(j, v) loads source row j's taps
 * into v[NV], hsum(v, h) takes their horizontal sums h[NH], store(h0, h1,
 * w0, w1) writes the next destination row. ha, hb hold the sums of rows
 * 2J - 1 and 2J, hc, hd those of 2J + 1 and 2J + 2, from va and vb, whose
 * next loads are issued a pair ahead. EARLY: both sums and both loads
 * before the pair's rows; else each sum just before its first row, so that
 * at most three rows' sums are live. */
template <bool EARLY, typename H, int NH, typename V, int NV, typename W, typename LD, typename HS, typename ST>
__device__ __forceinline__ void up32_walk(int j0, int nr, int lasty, W one, W f5, W f1, LD ld, HS hsum,
                                          ST store) {
  H ha[NH], hb[NH], hc[NH], hd[NH];
  V va[NV], vb[NV];
  ld(max(j0 - 1, 0), va);
  ld(j0, vb);
  hsum(va, ha);
  hsum(vb, hb);
  ld(min(j0 + 1, lasty), va);
  ld(min(j0 + 2, lasty), vb);
#pragma unroll 1
  for (int r = 0; r < nr; r++) {
    const int j = j0 + 2 * r;
    if (EARLY) {
      hsum(va, hc);
      hsum(vb, hd);
      ld(min(j + 3, lasty), va);
      ld(min(j + 4, lasty), vb);
      store(ha, hb, one - f5, f5);
      store(hb, hc, one / 2, one / 2);
    } else {
      store(ha, hb, one - f5, f5);
      hsum(va, hc);
      ld(min(j + 3, lasty), va);
      store(hb, hc, one / 2, one / 2);
      hsum(vb, hd);
      ld(min(j + 4, lasty), vb);
    }
    store(hc, hd, one - f1, f1);
#pragma unroll
    for (int c = 0; c < NH; c++) {
      ha[c] = hc[c];
      hb[c] = hd[c];
    }
  }
}

#endif

/* GRAYF32 bilinear by exactly 3/2 on both axes (jet_resize_f32c1_up32_linear,
 * chosen by the launcher for 16-byte aligned destination rows). lin_coord
 * there: destination 3m + e (e = 0, 1, 2) takes source pixels 2m - 1 + e and
 * 2m + e with fraction F5, ONE/2 or F1 (UP32_F5, UP32_F1);
 * as in the x2 walk, tap indices are clamped at the edges, where the exact
 * sums equal those of the clamped coordinates; rows alike. A thread takes 4
 * destination columns, one 16-byte store a row (3 or 6 columns a thread, 12
 * or 24 bytes apart, took 1.3-1.5x the general walk's time on an H100: a
 * warp's store then touches each 32-byte sector in 3 requests), whose taps
 * are 4 consecutive source pixels s0..s0+3 in one of three phases (e of its
 * first column): columns 0 and 3 always take taps (0, 1) and (2, 3), column 1
 * (0, 1) or (1, 2), column 2 (1, 2) or (2, 3). It walks p.rows pairs of
 * source rows, 3 destination rows each, keeping four rows' horizontal sums
 * and loading the next pair one step before its sums; the sums are
 * resize_up_f32's (df_lerp, df_blend), without its tables. Left out of the
 * PTX image, as the group kernels. */
#if !defined(JET_COMPACT_KERNELS) && !defined(JET_IMAGE_PTX)
extern "C" __global__ void __launch_bounds__(JET_RS_UP2_TX) jet_resize_f32c1_up32_linear(jet__resize_params p) {
  jet_pdl_enter();
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.dw, 4 * JET_RS_UP2_TX, bx, by, p.rows);
  const int d0 = bx + 4 * (int)threadIdx.x, nr = min(p.rows, p.sh / 2 - by);
  if (d0 >= p.dw || nr <= 0) return;
  const float ONE = (float)JET_RESIZE_ONE;
  const float F5 = (float)UP32_F5, F1 = (float)UP32_F1;
  const int e = d0 % 3, s0 = 2 * (d0 / 3) - 1 + e, lastx = p.sw - 1, lasty = p.sh - 1;
  const bool c1lo = e == 2, c2hi = e == 0;
  /* column i's weights: ONE - f and f, f by its phase (e + i) % 3 */
  float wa[4], wb[4];
  int xi[4];
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int ei = (e + i) % 3;
    wb[i] = ei == 0 ? F5 : ei == 1 ? ONE / 2 : F1;
    wa[i] = ONE - wb[i];
    xi[i] = min(max(s0 + i, 0), lastx);
  }
  const u8 *const src = im.src;
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  auto ld = [&](int j, float *v) {
    const float *row = (const float *)(src + (u64)j * sp);
#pragma unroll
    for (int i = 0; i < 4; i++) v[i] = __ldg(row + xi[i]);
  };
  auto hsum = [&](const float *v, df *h) {
    h[0] = df_lerp(wa[0], v[0], wb[0], v[1]);
    h[1] = df_lerp(wa[1], c1lo ? v[0] : v[1], wb[1], c1lo ? v[1] : v[2]);
    h[2] = df_lerp(wa[2], c2hi ? v[2] : v[1], wb[2], c2hi ? v[3] : v[2]);
    h[3] = df_lerp(wa[3], v[2], wb[3], v[3]);
  };
  const int n = min(4, p.dw - d0);
  float *q = (float *)(im.dst + (u64)(3 * by) * dp) + d0;
  auto store = [&](const df *h0, const df *h1, float w0, float w1) {
    float o[4];
#pragma unroll
    for (int c = 0; c < 4; c++) o[c] = df_blend(h0[c], h1[c], w0, w1);
    if (n == 4) {
      *(float4 *)q = make_float4(o[0], o[1], o[2], o[3]);
    } else {
#pragma unroll
      for (int c = 0; c < 3; c++)
        if (c < n) q[c] = o[c];
    }
    q = (float *)((u8 *)q + dp);
  };
  up32_walk<true, df, 4, float, 4>(2 * by, nr, lasty, ONE, F5, F1, ld, hsum, store);
}
#endif

/* GRAY8, RGB8 and RGBA8 bilinear by exactly 3/2 on both axes
 * (jet_resize_u8c{1,3,4}_up32_linear, chosen by the launcher for 4-byte
 * aligned source and destination rows, RGBA8 for 16-byte aligned destination
 * rows and large frames): jet_resize_f32c1_up32_linear's walk (4
 * destination pixels a thread, one word store a row and channel, taps
 * s0..s0+3 in one of three phases, pairs of source rows, 3 destination rows
 * a pair) with resize_up's integer sums: a row's horizontal sum h = (ONE - f)
 * * a + f * b by one DP2A a sample, and t = 4 * ((ONE - g) * h0 + g * h1 +
 * 2^21), whose byte 3 is the sample (color_coeffs.h: one rounding of the
 * exact Q22 sum; 4 * S < 2^32). Fixed weights and no tables: GRAY8 takes 40
 * registers and half the instructions a pixel, where the general walk
 * (resize_up) takes 61 registers and waited on memory with a third of the
 * SM's warps resident (ncu, 3840x2160 to 5760x3240: issue slots 44% busy,
 * achieved occupancy 34%). H100, against resize_up: GRAY8 10-25% less time
 * at 720p to 4K; RGB8 (2 pairs a walk) 13-15% less at 720p and 1080p, 1.5%
 * less at 1440p, 3% more at 4K. RGBA8: a tap's 4 channels from one word,
 * a row's taps 4 word loads, the sums dp2a_c4's, one 16-byte store a row
 * (64 registers).
 * Left out of the PTX image, as the f32 walk. */
#if !defined(JET_COMPACT_KERNELS) && !defined(JET_IMAGE_PTX)
template <int C>
__device__ __forceinline__ void resize_up32(const jet__resize_params &p) {
  constexpr int N = 4 * C; /* samples a thread and row */
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.dw, 4 * JET_RS_UP2_TX, bx, by, p.rows);
  const int d0 = bx + 4 * (int)threadIdx.x, nr = min(p.rows, p.sh / 2 - by);
  if (d0 >= p.dw || nr <= 0) return;
  constexpr u32 ONE = JET_RESIZE_ONE, F5 = UP32_F5, F1 = UP32_F1;
  const int e = d0 % 3, s0 = 2 * (d0 / 3) - 1 + e, lastx = p.sw - 1, lasty = p.sh - 1;
  /* pixel i blends taps a_i and a_i + 1 (of s0..s0+3, clamped) with weights
   * ONE - f and f, f by its phase (e + i) % 3; a_0 = 0, a_3 = 2 */
  u32 wgt[4];
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int ei = (e + i) % 3;
    const u32 f = ei == 0 ? F5 : ei == 1 ? ONE / 2 : F1;
    wgt[i] = (ONE - f) | f << 16;
  }
  const bool a1 = e != 2, a2 = e == 0; /* a_1 = 1, a_2 = 2 (else 0, 1) */
  const u32 sel01 = 0x10u | (a1 ? 0x2100u : 0x1000u), sel23 = (a2 ? 0x32u : 0x21u) | 0x3200u;
  const u8 *const src = im.src;
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  /* taps inside the row's whole words: C + 1 word loads and funnel shifts
   * (v: the taps' 4 C bytes); else (the row's first thread, its last ones)
   * bytes of clamped pixels */
  const u32 full = ((u32)C * (u32)p.sw) >> 2;
  /* 4-byte pixels: the C words of the taps, no shift */
  const bool inner = s0 >= 0 && ((u32)(C * s0) >> 2) + (C == 4 ? C - 1 : C) < full;
  const u32 k0 = inner ? (u32)(C * s0) >> 2 : 0u, sh = inner ? 8u * ((u32)(C * s0) & 3u) : 0u;
  int xi[4];
#pragma unroll
  for (int i = 0; i < 4; i++) xi[i] = C * min(max(s0 + i, 0), lastx);
  auto ld = [&](int j, u32 *v) {
    const u8 *row = src + (u64)j * sp;
    if (inner && C == 4) {
#pragma unroll
      for (int k = 0; k < C; k++) v[k] = __ldg((const u32 *)row + k0 + k);
    } else if (inner) {
      const u32 *w = (const u32 *)row + k0;
      u32 r[C + 1];
#pragma unroll
      for (int k = 0; k <= C; k++) r[k] = __ldg(w + k);
#pragma unroll
      for (int k = 0; k < C; k++) v[k] = __funnelshift_r(r[k], r[k + 1], sh);
    } else {
#pragma unroll
      for (int k = 0; k < C; k++) v[k] = 0u;
#pragma unroll
      for (int b = 0; b < N; b++) v[b / 4] |= (u32)__ldg(row + xi[b / C] + b % C) << (8 * (b % 4));
    }
  };
  /* h[C i + c]: pixel i's channel c */
  auto hsum = [&](const u32 *v, u32 *h) {
    if constexpr (C == 1) {
      const u32 t01 = __byte_perm(v[0], 0u, sel01), t23 = __byte_perm(v[0], 0u, sel23);
      h[0] = __dp2a_lo(wgt[0], t01, 0u);
      h[1] = __dp2a_hi(wgt[1], t01, 0u);
      h[2] = __dp2a_lo(wgt[2], t23, 0u);
      h[3] = __dp2a_hi(wgt[3], t23, 0u);
    } else if constexpr (C == 4) {
      const u32 X[4] = {v[0], a1 ? v[1] : v[0], a2 ? v[2] : v[1], v[2]};
      const u32 Y[4] = {v[1], a1 ? v[2] : v[1], a2 ? v[3] : v[2], v[3]};
#pragma unroll
      for (int i = 0; i < 4; i++) {
        h[4 * i] = h[4 * i + 1] = h[4 * i + 2] = h[4 * i + 3] = 0u;
        dp2a_c4(wgt[i], X[i], Y[i], &h[4 * i]);
      }
    } else {
      /* tap pixels as words (bytes 0-2), then each pixel's pair */
      const u32 P[4] = {v[0], __funnelshift_r(v[0], v[1], 24), __funnelshift_r(v[1], v[2], 16), v[2] >> 8};
      const u32 X[4] = {P[0], a1 ? P[1] : P[0], a2 ? P[2] : P[1], P[2]};
      const u32 Y[4] = {P[1], a1 ? P[2] : P[1], a2 ? P[3] : P[2], P[3]};
#pragma unroll
      for (int i = 0; i < 4; i++) {
        const u32 t01 = __byte_perm(X[i], Y[i], 0x5140u), t2 = __byte_perm(X[i], Y[i], 0x62u);
        h[3 * i] = __dp2a_lo(wgt[i], t01, 0u);
        h[3 * i + 1] = __dp2a_hi(wgt[i], t01, 0u);
        h[3 * i + 2] = __dp2a_lo(wgt[i], t2, 0u);
      }
    }
  };
  const int n = min(4, p.dw - d0) * C; /* bytes a row */
  u8 *q = im.dst + (u64)(3 * by) * dp + (u64)(C * d0);
  constexpr u32 RND4 = 4u << (2 * JET_RESIZE_FRAC_BITS - 1);
  auto store = [&](const u32 *h0, const u32 *h1, u32 w0, u32 w1) {
    u32 t[N], w[C];
#pragma unroll
    for (int c = 0; c < N; c++) t[c] = 4u * w0 * h0[c] + (4u * w1 * h1[c] + RND4);
#pragma unroll
    for (int k = 0; k < C; k++) w[k] = top_bytes(t[4 * k], t[4 * k + 1], t[4 * k + 2], t[4 * k + 3]);
    if (C == 4 && n == N) { /* the launcher checked 16-byte aligned rows */
      *(uint4 *)q = make_uint4(w[0], w[1], w[2], w[3]);
    } else if (n == N) {
#pragma unroll
      for (int k = 0; k < C; k++) ((u32 *)q)[k] = w[k];
    } else {
#pragma unroll
      for (int b = 0; b < N - 1; b++)
        if (b < n) q[b] = (u8)(w[b / 4] >> (8 * (b % 4)));
    }
    q += dp;
  };
  /* GRAY8 takes both sums and the loads first; RGB8 each sum just before
   * its first row (36 words of sums live at most: 72 registers, where the
   * GRAY8 order took 86 and was 5-15% slower) */
  up32_walk<C == 1, u32, N, u32, C>(2 * by, nr, lasty, ONE, F5, F1, ld, hsum, store);
}

RS_WALK_ENTRY(jet_resize_u8c1_up32_linear, JET_RS_UP2_TX, resize_up32<1>)
RS_WALK_ENTRY(jet_resize_u8c3_up32_linear, JET_RS_UP2_TX, resize_up32<3>)
RS_WALK_ENTRY(jet_resize_u8c4_up32_linear, JET_RS_UP2_TX, resize_up32<4>)
#endif

/* GRAYF32 by exactly 1/2 on both axes, bilinear or area
 * (jet_resize_f32c1_half, chosen by the launcher for 16-byte aligned source
 * rows and 8-byte aligned destination rows). Both are the mean of a 2 x 2
 * block: bilinear's x0 = 2d with ax = ONE/2 on both axes (color_coeffs.h),
 * so every weight is ONE^2/4; area's window is the block, D = 4. The sum is
 * taken without rounding error (three TwoSums, their errors added: Ogita,
 * Rump and Oishi's Sum2), as resize_f32's compensated sums, and scaled by
 * 1/4. A thread takes 2 destination pixels from one 16-byte load of each
 * source row: 2 loads instead of 8 and no products. H100 A/B against the
 * general kernels: bilinear 7-10% faster at 720p to 4K (NPP 0.86-0.95x ->
 * 0.97-1.00x), area 11-15% (1440p 1.22x -> 1.04x copy). Two rows a thread
 * were 1% slower. */
__device__ __forceinline__ float mean4(float a, float b, float c, float d) {
  float s1, e1, s2, e2, s, e3;
  two_sum(a, b, s1, e1);
  two_sum(c, d, s2, e2);
  two_sum(s1, s2, s, e3);
  return __fmul_rn(__fadd_rn(s, __fadd_rn(__fadd_rn(e1, e2), e3)), 0.25f);
}

#ifndef JET_COMPACT_KERNELS
extern "C" __global__ void __launch_bounds__(TX * TY) jet_resize_f32c1_half(jet__resize_params p) {
  jet_pdl_enter();
  const jet__resize_image &im = p.img[blockIdx.z];
  int bx, by;
  tile_of(p.dw, 2 * TX, bx, by, TY);
  const int x = bx + 2 * (int)threadIdx.x, y = by + (int)threadIdx.y;
  if (x >= p.dw || y >= p.dh) return;
  const u8 *r0 = im.src + (u64)(2 * y) * im.src_pitch + (u64)x * 8u, *r1 = r0 + im.src_pitch;
  float *q = (float *)(im.dst + (u64)y * im.dst_pitch) + x;
  if (x + 1 < p.dw) {
    const float4 a = __ldg((const float4 *)r0), b = __ldg((const float4 *)r1);
    *(float2 *)q = make_float2(mean4(a.x, a.y, b.x, b.y), mean4(a.z, a.w, b.z, b.w));
  } else { /* the row's last pixel alone: its 2 source pixels only */
    const float2 a = __ldg((const float2 *)r0), b = __ldg((const float2 *)r1);
    *q = mean4(a.x, a.y, b.x, b.y);
  }
}
#endif

/* Float bilinear (jet_resize_f32c{1,3}_linear): rows in pairs, the taps of
 * both loaded before either is summed (row tables past the image hold valid
 * rows), so that each thread has twice the loads in flight; the column's taps
 * and weight stay for the walk. Tap addresses are the top-left tap's plus a
 * step right and down (0 at the last column or row). Where every row weight
 * is 0 (p.rows_on_src: 1/3, 1/5, ... on the vertical axis) the row below is
 * not read: half the source rows from DRAM (its taps count as 0, so an
 * infinity or NaN there no longer reaches the result; jetrt/resize.h).
 * H200 A/B, GRAYF32 by 1/3: 0.85-0.92 of the time at 720p to 4K. */
template <int C>
__device__ __forceinline__ void resize_f32_linear(const jet__resize_params &p, const jet__resize_image &im,
                                                  const int *xs, const int *xa, const int *ys, const int *ya,
                                                  int bx, int by, int rows) {
  const float ONE = (float)JET_RESIZE_ONE;
  const int lx = threadIdx.x, x = bx + lx;
  const u8 *const col0 = im.src + (u64)xs[lx] * (4u * C);
  const u32 dxb = xs[lx] < p.sw - 1 ? 4u * C : 0u;
  const float ax = (float)xa[lx], bx1 = ONE - ax;
  const u64 sp = im.src_pitch, dp = im.dst_pitch;
  u8 *q = im.dst + (u64)(by + (int)threadIdx.y) * dp + (u64)x * (4u * C);
#pragma unroll 1
  for (int r = 0; r < rows; r += 2, q += 2 * TY * dp) {
    const int ly[2] = {(int)threadIdx.y + r * TY, (int)threadIdx.y + min(r + 1, rows - 1) * TY};
    if (by + ly[0] >= p.dh) break;
    float t[2][4][C];
#pragma unroll
    for (int k = 0; k < 2; k++) {
      if (k == 1 && rows == 1) break; /* uniform: no second row to load */
      const int y0 = ys[ly[k]];
      const u8 *r0 = col0 + (u64)(u32)y0 * sp, *r1 = r0 + (y1_of(p, y0) > y0 ? sp : 0);
      ldf<C>(r0, 0, t[k][0]);
      ldf<C>(r0 + dxb, 0, t[k][1]);
      ldf<C>(r1, 0, t[k][2]);
      ldf<C>(r1 + dxb, 0, t[k][3]);
    }
    if (p.rows_on_src) /* uniform: row y0 again (L1), its taps as 0 */
#pragma unroll
      for (int k = 0; k < 2; k++)
#pragma unroll
        for (int c = 0; c < C; c++) t[k][2][c] = t[k][3][c] = 0.0f;
#pragma unroll
    for (int k = 0; k < 2; k++) {
      if (k == 1 && (r + 1 >= rows || by + ly[1] >= p.dh)) break;
      const float ay = (float)ya[ly[k]], by1 = ONE - ay;
      /* integer weights (ONE - a) * (ONE - b) <= 2^22: exact in float */
      const float w00 = __fmul_rn(bx1, by1), w01 = __fmul_rn(ax, by1);
      const float w10 = __fmul_rn(bx1, ay), w11 = __fmul_rn(ax, ay);
      float *o = (float *)(q + (u64)k * TY * dp);
#pragma unroll
      for (int c = 0; c < C; c++) {
        df s = df_prod(w00, t[k][0][c]);
        df_add_prod(s, w01, t[k][1][c]);
        df_add_prod(s, w10, t[k][2][c]);
        df_add_prod(s, w11, t[k][3][c]);
        o[c] = __fmul_rn(df_value(s), 1.0f / (float)(1 << (2 * JET_RESIZE_FRAC_BITS)));
      }
    }
  }
}

template <int C, int MODE>
__device__ __forceinline__ void resize_f32(const jet__resize_params &p) {
  const jet__resize_image &im = p.img[blockIdx.z];
  __shared__ int xs[TX], xa[TX], ys[TH], ya[TH];
  const int rows = p.rows; /* as resize_u8 */
  int bx, by;
  tile_tables<MODE>(p, TX, rows, xs, xa, ys, ya, bx, by);
  const int lx = threadIdx.x, x = bx + lx;
  if (x >= p.dw) return;
  if constexpr (MODE == MODE_LINEAR) {
    resize_f32_linear<C>(p, im, xs, xa, ys, ya, bx, by, rows);
  } else {
#pragma unroll 1
    for (int r = 0; r < rows; r++) {
      const int ly = threadIdx.y + r * TY, y = by + ly;
      if (y >= p.dh) break;
      float v[C];
      if (MODE == MODE_NEAREST) {
        ldf<C>(im.src + (u64)ys[ly] * im.src_pitch, xs[lx], v);
      } else {
        const long long lox = (long long)x * p.rsw, hix = lox + p.rsw;
        const long long loy = (long long)y * p.rsh, hiy = loy + p.rsh;
        df s[C];
#pragma unroll
        for (int c = 0; c < C; c++) s[c].hi = s[c].lo = 0.0f;
        for (long long j = ys[ly]; j * p.rdh < hiy; j++) {
          const float wy = (float)area_w(j, p.rdh, loy, hiy);
          const u8 *row = im.src + (u64)j * im.src_pitch;
          df h[C];
#pragma unroll
          for (int c = 0; c < C; c++) h[c].hi = h[c].lo = 0.0f;
          for (long long i = xs[lx]; i * p.rdw < hix; i++) {
            const float wx = (float)area_w(i, p.rdw, lox, hix);
            float q[C];
            ldf<C>(row, (int)i, q);
#pragma unroll
            for (int c = 0; c < C; c++) df_add_prod(h[c], wx, q[c]);
          }
#pragma unroll
          for (int c = 0; c < C; c++) {
            df_add_prod(s[c], wy, h[c].hi);
            df_add_prod(s[c], wy, h[c].lo);
          }
        }
        const float D = (float)p.area_d;
#pragma unroll
        for (int c = 0; c < C; c++) v[c] = __fdiv_rn(df_value(s[c]), D);
      }
      float *q = (float *)(im.dst + (u64)y * im.dst_pitch) + (u64)x * C;
#pragma unroll
      for (int c = 0; c < C; c++) q[c] = v[c];
    }
  }
}

/* The 4-byte load path (RGBA8) is chosen once per launch (uniform), not per
 * tap. */
#define RESIZE_U8_BODY(C, G, MODE)        \
  {                                       \
    jet_pdl_enter();                      \
    if constexpr (C == 4) {               \
      if (p.src_vec)                      \
        resize_u8<C, G, MODE, true>(p);   \
      else                                \
        resize_u8<C, G, MODE, false>(p);  \
    } else {                              \
      resize_u8<C, G, MODE, false>(p);    \
    }                                     \
  }
#define RESIZE_U8(name, C, G, MODE) \
  extern "C" __global__ void __launch_bounds__(TX * TY) name(jet__resize_params p) RESIZE_U8_BODY(C, G, MODE)
/* Area: at most 64 registers (4 blocks per SM), which the window loops of
 * both paths fit without spilling (the default heuristic spilled). */
#define RESIZE_U8_AREA(name, C, G) \
  extern "C" __global__ void __launch_bounds__(TX * TY, 4) name(jet__resize_params p) RESIZE_U8_BODY(C, G, MODE_AREA)
/* RGBA8 fast paths, chosen by the launcher (lib/image/resize.c) when source
 * and destination rows are 4-byte aligned (area: integer factors, kx*ky <=
 * 256); separate kernels so that each gets its own register budget. */
extern "C" __global__ void __maxnreg__(32) jet_resize_u8c4v_nearest(jet__resize_params p) {
  jet_pdl_enter();
  resize_c4<MODE_NEAREST>(p);
}
extern "C" __global__ void __maxnreg__(32) jet_resize_u8c4v_linear(jet__resize_params p) {
  jet_pdl_enter();
  resize_c4<MODE_LINEAR>(p);
}
extern "C" __global__ void __maxnreg__(32) jet_resize_u8c4v_area_int(jet__resize_params p) {
  jet_pdl_enter();
  area_c4_int(p);
}
/* Area by integer factors 2 to 4 across (area_int), chosen by the launcher. */
extern "C" __global__ void __launch_bounds__(TX * TY) jet_resize_u8c1_area_int(jet__resize_params p) {
  jet_pdl_enter();
  area_int<1>(p);
}
extern "C" __global__ void __launch_bounds__(TX * TY) jet_resize_u8c3_area_int(jet__resize_params p) {
  jet_pdl_enter();
  area_int<3>(p);
}
#define RESIZE_F32(name, C, MODE) \
  extern "C" __global__ void __launch_bounds__(TX * TY) name(jet__resize_params p) { jet_pdl_enter(); resize_f32<C, MODE>(p); }

extern "C" __global__ void __launch_bounds__(TX * TY) jet_resize_u8c1_nearest(jet__resize_params p) {
  jet_pdl_enter();
  resize_u8c1<MODE_NEAREST>(p);
}
extern "C" __global__ void __launch_bounds__(TX * TY) jet_resize_u8c1_linear(jet__resize_params p) {
  jet_pdl_enter();
  resize_u8c1<MODE_LINEAR>(p);
}
RESIZE_U8_AREA(jet_resize_u8c1_area, 1, 4)
RESIZE_U8(jet_resize_u8c3_nearest, 3, 4, MODE_NEAREST)
RESIZE_U8(jet_resize_u8c3_linear, 3, 4, MODE_LINEAR)
/* RGB8 bilinear from aligned rows, above 1/2 across (the launcher's): taps
 * from words. Its own kernel, so that the byte kernel keeps 40 registers. */
extern "C" __global__ void __launch_bounds__(TX * TY) jet_resize_u8c3w_linear(jet__resize_params p) {
  jet_pdl_enter();
  resize_u8<3, 4, MODE_LINEAR, true>(p);
}
RESIZE_U8_AREA(jet_resize_u8c3_area, 3, 4)
RESIZE_U8(jet_resize_u8c4_nearest, 4, 1, MODE_NEAREST)
RESIZE_U8(jet_resize_u8c4_linear, 4, 1, MODE_LINEAR)
RESIZE_U8_AREA(jet_resize_u8c4_area, 4, 1)
RESIZE_F32(jet_resize_f32c1_nearest, 1, MODE_NEAREST)
RESIZE_F32(jet_resize_f32c1_linear, 1, MODE_LINEAR)
RESIZE_F32(jet_resize_f32c1_area, 1, MODE_AREA)
RESIZE_F32(jet_resize_f32c3_nearest, 3, MODE_NEAREST)
RESIZE_F32(jet_resize_f32c3_linear, 3, MODE_LINEAR)
RESIZE_F32(jet_resize_f32c3_area, 3, MODE_AREA)

/* ------------------------------------------------------------ remap */

/* The border rule of tests/ref (ref_border_index); -1 for constant outside. */
__device__ __forceinline__ int border_index(int i, int n, int border) {
  if ((unsigned)i < (unsigned)n) return i;
  if (border == 0) return i < 0 ? 0 : n - 1;
  if (border == 1) {
    if (n == 1) return 0;
    int per = 2 * (n - 1), t = i < 0 ? -i : i;
    t %= per;
    return t >= n ? per - t : t;
  }
  return -1;
}

/* color_coeffs.h: clamp (NaN goes to -LIMIT), then round half to even in 1/SUBPIX units. */
__device__ __forceinline__ int remap_fixed(float f) {
  float c = fminf(fmaxf(f, -JET_REMAP_COORD_LIMIT), JET_REMAP_COORD_LIMIT);
  return __float2int_rn(__fmul_rn(c, (float)JET_REMAP_SUBPIX));
}

/* The map entry at @m (8 bytes, 4-aligned; 8-aligned with p.map_vec). */
__device__ __forceinline__ float2 remap_entry(const jet__remap_params &p, const u8 *m) {
  if (p.map_vec) return __ldg((const float2 *)m);
  return make_float2(__ldg((const float *)m), __ldg((const float *)m + 1));
}

/* A tap's C samples (u32: 8-bit samples widened) and a CONSTANT border's. */
template <int C, bool VEC> __device__ __forceinline__ void remap_ld(const u8 *row, int x, float *v) {
  ldf<C>(row, x, v);
}
template <int C, bool VEC> __device__ __forceinline__ void remap_ld(const u8 *row, int x, u32 *v) {
  ld8<C, VEC>(row, x, v);
}
__device__ __forceinline__ void remap_border(const jet__remap_params &p, int c, float &v) {
  v = p.border_f[c];
}
__device__ __forceinline__ void remap_border(const jet__remap_params &p, int c, u32 &v) {
  v = (u32)p.border_u8[c];
}
/* An aligned RGBA8 tap as one word (remap_taps<1, true, 4>): its pixel, or a
 * CONSTANT border's four samples. */
struct px4 {
  u32 w;
};
template <int C, bool VEC> __device__ __forceinline__ void remap_ld(const u8 *row, int x, px4 *v) {
  v[0].w = __ldg((const u32 *)row + x);
}
__device__ __forceinline__ void remap_border(const jet__remap_params &p, int, px4 &v) {
  v.w = (u32)p.border_u8[0] | (u32)p.border_u8[1] << 8 | (u32)p.border_u8[2] << 16 | (u32)p.border_u8[3] << 24;
}

/* The four taps t[row][column] of the pixel whose top-left tap is (x0, y0):
 * ES-byte samples, T float for float samples and u32 for 8-bit ones. */
template <int C, bool VEC, int ES, typename T>
__device__ __forceinline__ void remap_taps(const jet__remap_params &p, int x0, int y0, T (&t)[2][2][C]) {
  /* all four inside the image (nearly every pixel of a usual map): one
   * address, the other taps at fixed offsets, no border rule; the per-tap
   * border indices and row addresses were half of the kernel's instructions
   * (ncu, H100) */
  if ((unsigned)x0 < (unsigned)(p.sw - 1) && (unsigned)y0 < (unsigned)(p.sh - 1)) {
    const u8 *q0 = p.src + (u64)(unsigned)y0 * p.src_pitch + (u64)(unsigned)x0 * (C * ES);
    const u8 *q1 = q0 + p.src_pitch;
    remap_ld<C, VEC>(q0, 0, t[0][0]);
    remap_ld<C, VEC>(q0, 1, t[0][1]);
    remap_ld<C, VEC>(q1, 0, t[1][0]);
    remap_ld<C, VEC>(q1, 1, t[1][1]);
  } else {
    const int xi[2] = {border_index(x0, p.sw, p.border), border_index(x0 + 1, p.sw, p.border)};
    const int yi[2] = {border_index(y0, p.sh, p.border), border_index(y0 + 1, p.sh, p.border)};
#pragma unroll
    for (int j = 0; j < 2; j++)
#pragma unroll
      for (int i = 0; i < 2; i++) {
        if (xi[i] < 0 || yi[j] < 0) {
#pragma unroll
          for (int c = 0; c < C; c++) remap_border(p, c, t[j][i][c]);
        } else {
          remap_ld<C, VEC>(p.src + (u64)yi[j] * p.src_pitch, xi[i], t[j][i]);
        }
      }
  }
}

/* The destination pixel at @d from its map entry @m. */
template <int C, int F32, bool VEC>
__device__ __forceinline__ void remap_px(const jet__remap_params &p, u8 *d, float2 m) {
  const float mx = m.x, my = m.y;
  const int X = remap_fixed(mx), Y = remap_fixed(my);
  const int x0 = X >> JET_REMAP_BITS, y0 = Y >> JET_REMAP_BITS;
  const int ax = X & (JET_REMAP_SUBPIX - 1), ay = Y & (JET_REMAP_SUBPIX - 1);
  if (F32) {
    float t[2][2][C];
    remap_taps<C, VEC, 4>(p, x0, y0, t);
    const float S = (float)JET_REMAP_SUBPIX, fx = (float)ax, fy = (float)ay;
    const float w00 = __fmul_rn(S - fx, S - fy), w01 = __fmul_rn(fx, S - fy);
    const float w10 = __fmul_rn(S - fx, fy), w11 = __fmul_rn(fx, fy);
    float *q = (float *)d;
#pragma unroll
    for (int c = 0; c < C; c++) {
      df s = {0.0f, 0.0f};
      df_add_prod(s, w00, t[0][0][c]);
      df_add_prod(s, w01, t[0][1][c]);
      df_add_prod(s, w10, t[1][0][c]);
      df_add_prod(s, w11, t[1][1][c]);
      q[c] = __fmul_rn(df_value(s), 1.0f / (float)(1 << (2 * JET_REMAP_BITS)));
    }
  } else if constexpr (C == 4 && VEC) {
    /* 4-byte aligned RGBA8: each tap one word; a row's two taps pair up
     * channel by channel (one byte permutation per two channels) and
     * (S - ux) * a + ux * b is a 2-way dot product; the vertical sum, scaled
     * by 2^14 with its rounding term, leaves the result in byte 3 ((v +
     * 2^9) < 2^18), and four of them pack with byte permutations: the same
     * integers as the per-channel sums below, in about half the
     * instructions */
    px4 tp[2][2][1];
    remap_taps<1, true, 4>(p, x0, y0, tp);
    const u32 t[2][2] = {{tp[0][0][0].w, tp[0][1][0].w}, {tp[1][0][0].w, tp[1][1][0].w}};
    const u32 S = JET_REMAP_SUBPIX, ux = (u32)ax, uy = (u32)ay;
    const u32 wgt = (S - ux) | ux << 16;
    u32 h[2][4] = {{0u, 0u, 0u, 0u}, {0u, 0u, 0u, 0u}};
    dp2a_c4(wgt, t[0][0], t[0][1], h[0]);
    dp2a_c4(wgt, t[1][0], t[1][1], h[1]);
    const u32 w = blend_c4(h[0], h[1], (S - uy) << 14, uy << 14, 1u << (2 * JET_REMAP_BITS - 1 + 14));
    if (p.dst_vec) {
      *(u32 *)d = w;
    } else {
#pragma unroll
      for (int c = 0; c < 4; c++) d[c] = (u8)(w >> (8 * c));
    }
  } else {
    u32 t[2][2][C];
    remap_taps<C, VEC, 1>(p, x0, y0, t);
    const u32 S = JET_REMAP_SUBPIX, ux = (u32)ax, uy = (u32)ay;
    u8 out[C];
#pragma unroll
    for (int c = 0; c < C; c++) {
      u32 v = (S - uy) * ((S - ux) * t[0][0][c] + ux * t[0][1][c]) +
              uy * ((S - ux) * t[1][0][c] + ux * t[1][1][c]);
      out[c] = (u8)((v + (1u << (2 * JET_REMAP_BITS - 1))) >> (2 * JET_REMAP_BITS));
    }
    st8<C, 1>(d, out, 1, p.dst_vec);
  }
}

/* One pixel per thread per row, ROWS rows TY apart; tiles as for resize. */
template <int C, int F32, bool VEC>
__device__ __forceinline__ void remap(const jet__remap_params &p) {
  u32 tile_x, tile_y;
  grid_tile(blockIdx.x, p.tiles[0], p.tiles[1], tile_x, tile_y);
  const int x = (int)tile_x * TX + threadIdx.x, by = (int)tile_y * TH;
  if (x >= p.dw) return;
  int y = by + threadIdx.y;
  if (y >= p.dh) return;
  /* the pixel's map entry and destination step by TY rows: one 64-bit add
   * per row, not a product */
  const u8 *mp = p.map + (u64)y * p.map_pitch + (u64)x * 8;
  u8 *dp = p.dst + (u64)y * p.dst_pitch + (u64)x * (C * (F32 ? 4 : 1));
  const u64 mstep = (u64)TY * p.map_pitch, dstep = (u64)TY * p.dst_pitch;
  if constexpr (C == 1 || (C == 4 && VEC)) {
    /* the next row's map entry in flight during this row's gathers (H100:
     * GRAY8 3.5-5% faster, aligned RGBA8 with its dot-product taps 5-9%;
     * RGBA8 with per-channel taps was 0-12% slower, and RGB8 keeps those) */
    float2 m = remap_entry(p, mp);
#pragma unroll 1
    for (int r = 0; r < ROWS; r++, y += TY, mp += mstep, dp += dstep) {
      const bool more = r + 1 < ROWS && y + TY < p.dh;
      const float2 next = more ? remap_entry(p, mp + mstep) : m;
      remap_px<C, F32, VEC>(p, dp, m);
      if (!more) break;
      m = next;
    }
  } else {
#pragma unroll 1
    for (int r = 0; r < ROWS && y < p.dh; r++, y += TY, mp += mstep, dp += dstep)
      remap_px<C, F32, VEC>(p, dp, remap_entry(p, mp));
  }
}

#define REMAP(name, C, F32)                                                         \
  extern "C" __global__ void __launch_bounds__(TX * TY) name(jet__remap_params p) { \
    jet_pdl_enter();                                                                \
    if constexpr (C == 4) {                                                         \
      if (p.src_vec)                                                                \
        remap<C, F32, true>(p);                                                     \
      else                                                                          \
        remap<C, F32, false>(p);                                                    \
    } else {                                                                        \
      remap<C, F32, false>(p);                                                      \
    }                                                                               \
  }

REMAP(jet_remap_u8c1, 1, 0)
REMAP(jet_remap_u8c3, 3, 0)
REMAP(jet_remap_u8c4, 4, 0)
REMAP(jet_remap_f32c1, 1, 1)
REMAP(jet_remap_f32c3, 3, 1)
