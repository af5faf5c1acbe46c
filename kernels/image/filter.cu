/*
 * filter: box and Gaussian filters (lib/image/filter.c launches them; the
 * arithmetic is in color_coeffs.h, the tile geometry in filter_params.h).
 *
 * One kernel per call, separable in shared memory. A block
 *  1. loads its tile plus halo into s_in with 16-byte copies (cp.async);
 *     with aligned rows (not in compact builds) a thread keeps one vector
 *     of a row for all its rows, tiles inside the image without border
 *     checks; tiles at the image's left and right edges then copy the halo
 *     outside the row from the row's loaded elements (index remapping);
 *  2. runs the horizontal pass over every s_in row into s_h;
 *  3. runs the vertical pass from s_h, JET_FILTER_RV rows by 4 elements per
 *     thread, and stores the converted result.
 * Rows are treated as width * channels elements; a tap moves by the channel
 * count, so one code path serves every channel layout.
 *
 * 8-bit samples: the horizontal pass of the unrolled kernels works on packed
 * integers, two 16-bit lanes a 32-bit word (bytes 0 and 2, bytes 1 and 3):
 * one IMAD does a tap for two samples, and a lane never carries (Q8 taps sum
 * to 256: at most 255 * 256; box: at most 7 * 255); GRAY8 at k = 7 takes
 * a sample's taps by two DP4As instead (jf_hword_gray7). s_h keeps those packed
 * words (s_h16, 16-bit lanes), and the vertical pass takes two rows of a
 * sample per integer DP2A from them (jf_dp2a_rows; the box: running sums).
 * The runtime-k kernel's s_h has the sums H as plain integers, and its
 * vertical pass reads each H as a float bit for bit, that is H * 2^-149
 * (subnormal or, from 2^23, the lowest binade, where the spacing is still
 * 2^-149): every float sum of such values below 2^24 units is exact, so a
 * float FMA (subnormals kept: fma.rn.f32 without .ftz) does one integer tap
 * a sample at full rate and the result's bits are the integer sum S + bias
 * (< 2^24) with no conversion at either end. The DP2A pass ends in the same
 * bits, so one output conversion serves both: the Gaussian output
 * (S + 2^15) >> 16 is byte 2 of those bits. The box's running sums stay in
 * their packed lanes (s_h16's layout) and are divided there
 * (jf_pack_box_lanes). k = 3, 5, 7 have unrolled kernels that keep the windows in registers; other
 * sizes take a runtime-k kernel.
 */
#include "filter_params.h"
#include "pdl.cuh"
#include "sm_threads.cuh"

typedef unsigned char jf_u8;

/* Vertical box sums of 8-bit samples as running sums instead of the taps'
 * multiply-adds, divided in their packed lanes (jf_box_words): speed only,
 * left out of compact builds (the Gaussian path computes the same box
 * sums). */
#ifdef JET_COMPACT_KERNELS
#define JF_BOX_SUMS 0
#else
#define JF_BOX_SUMS 1
#endif

/* Per sample type: tile elements, elements per 16-byte vector, horizontal
 * outputs per thread (unrolled kernels). */
template <typename T> struct jf_traits;
template <> struct jf_traits<jf_u8> {
  static const int TW = 128, VE = 16, EPT = 16;
};
template <> struct jf_traits<float> {
  static const int TW = 64, VE = 4, EPT = 8;
};

__device__ __forceinline__ int jf_border_index(int i, int n, int mode) {
  if ((unsigned)i < (unsigned)n) return i;
  if (mode == 0) return i < 0 ? 0 : n - 1;
  if (mode == 1) {
    if (n == 1) return 0;
    int p = 2 * (n - 1), t = i < 0 ? -i : i;
    while (t >= p) t -= p; /* images narrower than the window only: no division in the code */
    return t >= n ? p - t : t;
  }
  return -1;
}

__device__ __forceinline__ float jf_byte_to_float(unsigned word, int b) {
  /* 0x4B000000 | byte is 2^23 + byte as a float */
  return __int_as_float((int)__byte_perm(word, 0x4B000000u, 0x7440u | (unsigned)b)) - 8388608.0f;
}

template <typename T> __device__ __forceinline__ T jf_border_sample(const jet__filter_params &p, int c);
template <> __device__ __forceinline__ jf_u8 jf_border_sample<jf_u8>(const jet__filter_params &p, int c) {
  return (jf_u8)(int)p.border[c];
}
template <> __device__ __forceinline__ float jf_border_sample<float>(const jet__filter_params &p, int c) {
  return p.border[c];
}

/* The channel of element ge of a row (ge may be negative). */
template <int NC> __device__ __forceinline__ int jf_chan(int ge) { return (ge % NC + NC) % NC; }

/* Phase 1 moves 16-byte vectors to shared memory with cp.async where the
 * GPU has it (SM 8.0 and newer), through registers elsewhere. On the H100
 * that took 4-20% off the float filters and 1% off the 8-bit ones (box and
 * Gaussian k 3-7, 720p-4K), against ld.global.nc. @l2_only (p.l2_only, set
 * for large images) takes cp.async.cg, which leaves L1 out: on the H200,
 * from 6 MB of source, 0.95-0.97 of .ca's time at 4K (RGB8, RGBA8,
 * GRAYF32), 0.98 at 1080p and 1440p; below that, and on the H100 for 8-bit
 * samples, .ca was 0-3% faster. */
__device__ __forceinline__ void jf_copy16(void *s, const void *g, bool l2_only) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  if (l2_only)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(g) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(g) : "memory");
#else
  *(uint4 *)s = __ldg((const uint4 *)g);
#endif
}
/* Every cp.async of this thread has landed (a no-op without them). */
__device__ __forceinline__ void jf_copy_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/* The VE elements of s_in at @out, row element ge0 on, one by one: those
 * inside the row (ry >= 0) from global memory, CONSTANT border samples for
 * the others (the other borders' are copied in after the load). For
 * unaligned rows, and aligned rows' vectors across the row's end: kept
 * rolled up, it is rare and would bloat every kernel. */
template <typename T, int NC>
__device__ __forceinline__ void jf_load_elems(T *out, const char *__restrict__ src, size_t pitch,
                                              int ry, int ge0, int rowlen, bool constant,
                                              const jet__filter_params &p) {
  const T *row = (const T *)(src + (size_t)(ry < 0 ? 0 : ry) * pitch);
#pragma unroll 1
  for (int m = 0; m < jf_traits<T>::VE; m++) {
    int ge = ge0 + m;
    if (ry >= 0 && (unsigned)ge < (unsigned)rowlen) out[m] = row[ge];
    else if (constant) out[m] = jf_border_sample<T>(p, jf_chan<NC>(ge));
  }
}

/* The CONSTANT border samples of a vector whose first element is row
 * element @ge0: 16 bytes, one 16-byte store a row. */
template <typename T, int NC>
__device__ __forceinline__ uint4 jf_border_vec(const jet__filter_params &p, int ge0) {
  const int VE = jf_traits<T>::VE;
  unsigned w[4] = {0u, 0u, 0u, 0u};
  int c = jf_chan<NC>(ge0);
#pragma unroll
  for (int m = 0; m < VE; m++) {
    const T e = jf_border_sample<T>(p, c);
    if constexpr (sizeof(T) == 1)
      w[m / 4] |= (unsigned)e << (8 * (m % 4));
    else
      w[m] = __float_as_uint(e);
    c = c == NC - 1 ? 0 : c + 1;
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

/* Phase 1: s_in gets rows y0 - r .. y0 + th + r - 1 and elements
 * x0 - HP .. x0 + TW + HP - 1. Elements inside the row come from global
 * memory, CONSTANT border samples from the parameters. With the other
 * borders, the elements outside the row (tiles at the left and right edges)
 * are then copied from the row's loaded elements in shared memory, in
 * parallel: a thread that read them from global memory one by one held its
 * whole block (and at one wave the whole grid) for 16 dependent loads. */
template <typename T, int NC>
__device__ __forceinline__ void jf_load_tile(const char *__restrict__ src, size_t pitch, T *s_in, int x0,
                                             int y0, int r, int HP, int SW,
                                             const jet__filter_params &p) {
  const int VE = jf_traits<T>::VE;
  const int rowlen = p.width * NC, rows = p.tile_h + 2 * r, nv = SW / VE, total = rows * nv;
  const bool constant = p.border_mode == 2; /* JET_BORDER_CONSTANT */
#ifndef JET_COMPACT_KERNELS /* speed only: 20 KB of the compact sm_87 cubin */
  if (p.vec_in) {
    /* A thread keeps its vector of a row and takes every per-th row (nv <=
     * 40: float RGB, k 31). */
    const int per = JET_FILTER_THREADS / nv, rr0 = threadIdx.x / nv, v = threadIdx.x - rr0 * nv;
    const int ge0 = x0 - HP + v * VE;
    if (x0 >= HP && x0 - HP + SW <= rowlen && y0 >= r && y0 + rows - r <= p.height) {
      /* The whole tile and halo inside the image (most blocks): no border
       * index or per-vector check. The general loop below took 45
       * instructions a vector, this one 6; with the vertical pass's fixed
       * slot a thread, 8-bit box and Gaussian k 3-7 took 0.975 of the time
       * on the H100. */
      if (rr0 < per) {
        const char *g = src + (size_t)(y0 - r + rr0) * pitch + (size_t)ge0 * sizeof(T);
        const size_t step = (size_t)per * pitch;
        /* the choice outside the loop: each loop keeps one copy instruction */
        if (p.l2_only) {
#pragma unroll 1
          for (int rr = rr0; rr < rows; rr += per, g += step) jf_copy16(s_in + rr * SW + v * VE, g, true);
        } else {
#pragma unroll 1
          for (int rr = rr0; rr < rows; rr += per, g += step) jf_copy16(s_in + rr * SW + v * VE, g, false);
        }
      }
      jf_copy_wait_all();
      return;
    }
    /* Edge tiles: the thread's vector lies inside the row, across its end
     * or outside it in every row; vectors outside need nothing but CONSTANT
     * samples (the copy below fills the others), and rows outside the image
     * (CONSTANT: ry < 0) are all border samples, one 16-byte store. The
     * general loop's 16-step element loop for each of them was 12% of the
     * instructions of GRAY8 5x5 at 4K (ncu); this loop took 8-bit box and
     * Gaussian k 3-7 to 0.978 of the time on the H100. */
    if (rr0 < per) {
      const bool inside = ge0 >= 0 && ge0 + VE <= rowlen;
      const bool outside = ge0 + VE <= 0 || ge0 >= rowlen;
      const uint4 bv = constant ? jf_border_vec<T, NC>(p, ge0) : make_uint4(0u, 0u, 0u, 0u);
#pragma unroll 1
      for (int rr = rr0; rr < rows; rr += per) {
        const int ry = jf_border_index(y0 - r + rr, p.height, p.border_mode);
        T *out = s_in + rr * SW + v * VE;
        if (ry >= 0 && inside)
          jf_copy16(out, src + (size_t)ry * pitch + (size_t)ge0 * sizeof(T), p.l2_only);
        else if (ry < 0 || outside) {
          if (constant) *(uint4 *)out = bv;
        } else {
          jf_load_elems<T, NC>(out, src, pitch, ry, ge0, rowlen, constant, p);
        }
      }
    }
  } else
#endif
  {
    for (int t = threadIdx.x; t < total; t += JET_FILTER_THREADS) {
      int rr = t / nv, v = t - rr * nv;
      int ry = jf_border_index(y0 - r + rr, p.height, p.border_mode);
      int ge0 = x0 - HP + v * VE;
      T *out = s_in + rr * SW + v * VE;
      if (ry >= 0 && p.vec_in && ge0 >= 0 && ge0 + VE <= rowlen)
        jf_copy16(out, src + (size_t)ry * pitch + (size_t)ge0 * sizeof(T), p.l2_only);
      else
        jf_load_elems<T, NC>(out, src, pitch, ry, ge0, rowlen, constant, p);
    }
  }
  jf_copy_wait_all();
  /* s_in positions below lo lie before the row, from hi on past its end */
  const int lo = HP > x0 ? HP - x0 : 0, hi = rowlen - x0 + HP < SW ? rowlen - x0 + HP : SW;
  if (constant || (lo == 0 && hi == SW)) return; /* the same in the whole block */
  __syncthreads();
  /* a warp a row: nout (the row's elements outside it) is at most SW */
  const int nout = lo + SW - hi;
#pragma unroll 1
  for (int rr = threadIdx.x / 32; rr < rows; rr += JET_FILTER_THREADS / 32) {
    T *row = s_in + rr * SW;
#pragma unroll 1
    for (int j = threadIdx.x % 32; j < nout; j += 32) {
      int pos = j < lo ? j : hi + j - lo, ge = x0 - HP + pos, c = jf_chan<NC>(ge);
      /* every element a stored output reads maps inside [lo, hi); the clamp
       * only keeps the others (never used) in the tile */
      int sp = jf_border_index((ge - c) / NC, p.width, p.border_mode) * NC + c + HP - x0;
      row[pos] = row[sp < lo ? lo : sp >= hi ? hi - 1 : sp];
    }
  }
}

/* Four 8-bit output samples from vertical sums whose float bits are the
 * integers S + bias (< 2^24): Gaussian (S + 2^15) >> 16 is byte 2 of each. */
__device__ __forceinline__ unsigned jf_pack_gauss(float4 a) {
  return __byte_perm(__byte_perm(__float_as_uint(a.x), __float_as_uint(a.y), 0x0062u),
                     __byte_perm(__float_as_uint(a.z), __float_as_uint(a.w), 0x0062u), 0x5410u);
}
/* ... box: (S + k*k/2) / (k*k) by the magic reciprocal */
__device__ __forceinline__ unsigned jf_pack_box(float4 a, unsigned magic) {
  unsigned b0 = __umulhi(__float_as_uint(a.x), magic), b1 = __umulhi(__float_as_uint(a.y), magic);
  unsigned b2 = __umulhi(__float_as_uint(a.z), magic), b3 = __umulhi(__float_as_uint(a.w), magic);
  return __byte_perm(__byte_perm(b0, b1, 0x0040u), __byte_perm(b2, b3, 0x0040u), 0x5410u);
}

/* Four output elements ready to store: 8-bit samples packed in a word,
 * floats scaled. */
template <typename T> struct jf_out4;
template <> struct jf_out4<jf_u8> {
  typedef unsigned type;
};
template <> struct jf_out4<float> {
  typedef float4 type;
};

/* The RV rows of a vertical task's sums as jf_out4 words; 8-bit samples
 * under one mode branch for all rows. For the float, runtime-k and compact
 * kernels: the unrolled 8-bit kernels of full builds convert in their own
 * branches (jf_box_words, jf_pack_gauss). */
template <typename T, int RV>
__device__ __forceinline__ void jf_convert_rows(const float4 *acc, typename jf_out4<T>::type *w,
                                                const jet__filter_params &p) {
  if constexpr (sizeof(T) == 1) {
    if (p.mode == JET_FILTER_MODE_GAUSS8) {
#pragma unroll
      for (int o = 0; o < RV; o++) w[o] = jf_pack_gauss(acc[o]);
    } else {
#pragma unroll
      for (int o = 0; o < RV; o++) w[o] = jf_pack_box(acc[o], p.magic);
    }
  } else {
#pragma unroll
    for (int o = 0; o < RV; o++)
      w[o] = make_float4(acc[o].x * p.scale, acc[o].y * p.scale, acc[o].z * p.scale,
                         acc[o].w * p.scale);
  }
}

/* The first min(@left, 4) elements of @w at @at, one at a time. */
__device__ __forceinline__ void jf_store_part(char *__restrict__ at, int left, unsigned w) {
#pragma unroll
  for (int m = 0; m < 4; m++)
    if (m < left) at[m] = (char)(w >> (8 * m));
}
__device__ __forceinline__ void jf_store_part(char *__restrict__ at, int left, float4 w) {
  float *out = (float *)at;
  out[0] = w.x;
  if (1 < left) out[1] = w.y;
  if (2 < left) out[2] = w.z;
  if (3 < left) out[3] = w.w;
}

/* Store a vertical task's RV rows of 4 output elements (@w, converted)
 * from @at on, of which @left (>= 1) are in the row and @rows_left (>= 1)
 * rows in the image. Whole tasks with aligned rows (all but the image's
 * last columns and rows) take one branch for all their rows: checks per
 * row (with the conversion, then done row by row) were a third of the
 * vertical pass's instructions. */
template <typename T, int RV>
__device__ __forceinline__ void jf_store_rows(char *__restrict__ at, size_t dpitch, int left,
                                              int rows_left, const typename jf_out4<T>::type *w,
                                              const jet__filter_params &p) {
  typedef typename jf_out4<T>::type W;
  const bool vec = p.vec_out && left >= 4;
  if (vec && rows_left >= RV) {
#pragma unroll
    for (int o = 0; o < RV; o++) *(W *)(at + o * dpitch) = w[o];
    return;
  }
#pragma unroll
  for (int o = 0; o < RV; o++, at += dpitch) {
    if (o >= rows_left) break;
    if (vec)
      *(W *)at = w[o];
    else
      jf_store_part(at, left, w[o]);
  }
}

/* Four box outputs from packed sums S + k*k/2 (s.x: samples 0 and 2 in
 * its low and high 16-bit lanes, s.y: samples 1 and 3), each the lane
 * divided by k*k with the magic reciprocal m = ceil(2^32 / (k*k)) as
 * jf_pack_box does, without unpacking the high lanes: for a word W = hi *
 * 2^16 + lo, byte 2 of umulhi(W, m) is floor(hi / (k*k)) (and for the low
 * lane, of umulhi(lo << 16, m)) for every pair of lanes up to 255 * k*k +
 * k*k/2, k = 3, 5, 7 (checked exhaustively). One instruction less per two
 * samples than unpacking both lanes. lo << 16 is a byte permutation: the
 * compiler makes a shift an IMAD, on the pipe the products already fill
 * (H100: 5x5 and 7x7 RGB8/RGBA8 at 1440p and 4K 0.986-0.994 of the time). */
__device__ __forceinline__ unsigned jf_pack_box_lanes(uint2 s, unsigned magic) {
  const unsigned q0 = __umulhi(__byte_perm(s.x, 0u, 0x1044u), magic),
                 q1 = __umulhi(__byte_perm(s.y, 0u, 0x1044u), magic);
  const unsigned q2 = __umulhi(s.x, magic), q3 = __umulhi(s.y, magic);
  return __byte_perm(__byte_perm(q0, q1, 0x0062u), __byte_perm(q2, q3, 0x0062u), 0x5410u);
}

/* The vertical box sums of 8-bit samples as packed integers, converted to
 * output words: the first row's K taps and the bias, then each next row
 * adds the row entering the window and subtracts the one leaving it, one
 * IADD3 per two samples (packed lanes), where the taps took K FFMAs a
 * sample. */
template <int K, int RV>
__device__ __forceinline__ void jf_box_words(const uint2 *col, int stride, unsigned bias,
                                             unsigned magic, unsigned *w) {
  /* packed pairs: a 16-bit lane holds at most 49 * 255 + 24 */
  const unsigned b2 = bias * 0x10001u;
  uint2 s = make_uint2(b2, b2);
#pragma unroll
  for (int j = 0; j < K; j++) {
    uint2 v = col[j * stride];
    s = make_uint2(s.x + v.x, s.y + v.y);
  }
  w[0] = jf_pack_box_lanes(s, magic);
#pragma unroll
  for (int o = 1; o < RV; o++) {
    uint2 in = col[(o + K - 1) * stride], out = col[(o - 1) * stride];
    s = make_uint2(s.x + in.x - out.x, s.y + in.y - out.y);
    w[o] = jf_pack_box_lanes(s, magic);
  }
}

/* The vertical taps of 8-bit samples as integers, two rows per instruction:
 * rows 2m and 2m + 1 of a sample (16-bit sums, one PRMT per sample pair
 * from the packed words) against the byte pair vpair[d + 1] = (w[d], w[d +
 * 1]) with d = 2m - o for output row o (a weight outside 0..K-1 is 0), by
 * one DP2A a sample, where the float taps took K FFMAs and an unpack. Every
 * weight is below 256 (filter.c copies the one filter with a tap of 256,
 * the identity); the sums (< 2^24) are the float path's bits. The x words
 * (samples 0 and 2) and the y words (1 and 3) take one pass each: with all
 * four at once, k = 7 spilled 16-24 bytes on sm_90 and its box ran 2-4%
 * slower; now RGB8 and RGBA8 spill 4 bytes there, one load a task. */
template <int K, int RV>
__device__ __forceinline__ void jf_dp2a_rows(const uint2 *col, int stride, unsigned bias,
                                             const unsigned *vpair, float4 *acc) {
  constexpr int NR = RV + K - 1;
  const unsigned *c32 = (const unsigned *)col;
  unsigned a[2][RV][2];
#pragma unroll
  for (int h = 0; h < 2; h++) {
#pragma unroll
    for (int o = 0; o < RV; o++) a[h][o][0] = a[h][o][1] = bias;
#pragma unroll
    for (int m = 0; 2 * m < NR; m++) {
      const unsigned u = c32[2 * (2 * m * stride) + h];
      const unsigned v = 2 * m + 1 < NR ? c32[2 * ((2 * m + 1) * stride) + h] : 0u;
      const unsigned lo = __byte_perm(u, v, 0x5410u), hi = __byte_perm(u, v, 0x7632u);
#pragma unroll
      for (int o = 0; o < RV; o++) {
        const int d = 2 * m - o;
        if (d < -1 || d >= K) continue;
        const unsigned w = vpair[d + 1];
        a[h][o][0] = __dp2a_lo(lo, w, a[h][o][0]);
        a[h][o][1] = __dp2a_lo(hi, w, a[h][o][1]);
      }
    }
  }
  /* h = 0: samples 0 and 2 (the x words), h = 1: samples 1 and 3 */
#pragma unroll
  for (int o = 0; o < RV; o++)
    acc[o] = make_float4(__uint_as_float(a[0][o][0]), __uint_as_float(a[1][o][0]),
                         __uint_as_float(a[0][o][1]), __uint_as_float(a[1][o][1]));
}

/* An integer float f (0 <= f < 2^23) as the float whose bits are f. */
__device__ __forceinline__ float jf_int_bits(float f) {
  return __uint_as_float(__float_as_uint(f + 8388608.0f) & 0x7FFFFFu);
}

/* a * b + c rounded once, subnormals kept whatever the compiler's -ftz. */
__device__ __forceinline__ float jf_fma_exact(float a, float b, float c) {
#ifdef __CUDA_ARCH__
  float d;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
  return d;
#else
  return fmaf(a, b, c);
#endif
}

/* acc += w * v; 8-bit samples: the integer sums as subnormal floats. */
template <typename T> __device__ __forceinline__ void jf_fma4(float4 &acc, float w, float4 v) {
  if (sizeof(T) == 1) {
    acc.x = jf_fma_exact(w, v.x, acc.x);
    acc.y = jf_fma_exact(w, v.y, acc.y);
    acc.z = jf_fma_exact(w, v.z, acc.z);
    acc.w = jf_fma_exact(w, v.w, acc.w);
  } else {
    acc.x = fmaf(w, v.x, acc.x);
    acc.y = fmaf(w, v.y, acc.y);
    acc.z = fmaf(w, v.z, acc.z);
    acc.w = fmaf(w, v.w, acc.w);
  }
}

/* Packed lanes of the 4 window bytes from byte offset o = 4a + b: L gets
 * bytes o and o + 2, H bytes o + 1 and o + 3, as 16-bit lanes. lo/hi hold
 * the window words split the same way (lo: bytes 0, 2; hi: bytes 1, 3). */
template <int O>
__device__ __forceinline__ void jf_lanes(const unsigned *lo, const unsigned *hi, unsigned &L,
                                         unsigned &H) {
  const int a = O >> 2, b = O & 3;
  if (b == 0) {
    L = lo[a];
    H = hi[a];
  } else if (b == 1) {
    L = hi[a];
    H = __byte_perm(lo[a], lo[a + 1], 0x5432u);
  } else if (b == 2) {
    L = __byte_perm(lo[a], lo[a + 1], 0x5432u);
    H = __byte_perm(hi[a], hi[a + 1], 0x5432u);
  } else {
    L = __byte_perm(hi[a], hi[a + 1], 0x5432u);
    H = lo[a + 1];
  }
}

/* Horizontal taps of output word J (4 samples) for taps I..K-1, packed.
 * (Box taps as plain three-input adds instead, half the instructions, were
 * no faster on the H100: they moved the work from the FMA pipe to the
 * integer ALU, the busier one.) */
template <int K, int NC, int HPc, int J, int I> struct jf_htaps {
  static __device__ __forceinline__ void run(const unsigned *lo, const unsigned *hi,
                                             const jet__filter_params &p, unsigned &aL,
                                             unsigned &aH) {
    unsigned L, H;
    jf_lanes<HPc + 4 * J + (I - K / 2) * NC>(lo, hi, L, H);
    const unsigned w = (unsigned)p.iw[I];
    aL += w * L;
    aH += w * H;
    jf_htaps<K, NC, HPc, J, I + 1>::run(lo, hi, p, aL, aH);
  }
};
template <int K, int NC, int HPc, int J> struct jf_htaps<K, NC, HPc, J, K> {
  static __device__ __forceinline__ void run(const unsigned *, const unsigned *,
                                             const jet__filter_params &, unsigned &, unsigned &) {}
};

/* Output word J of the 8-bit horizontal pass as s_h16 keeps it: samples 0
 * and 2 in the 16-bit lanes of x, 1 and 3 in those of y. */
template <int K, int NC, int HPc, int J>
__device__ __forceinline__ uint2 jf_hword(const unsigned *lo, const unsigned *hi,
                                          const jet__filter_params &p) {
  unsigned aL = 0u, aH = 0u;
  jf_htaps<K, NC, HPc, J, 0>::run(lo, hi, p, aL, aH);
  return make_uint2(aL, aH);
}

/* GRAY8 at k = 7: a sample's taps are consecutive bytes, so two DP4As take
 * them (w0: taps 0-3, w1: taps 4-6 and a zero), 2 instructions a sample on
 * the FMA-heavy pipe where the packed lanes took 3.5 IMADs; the sum is the
 * same integer. (At k = 3 and 5 that did not pay: H100 A/B 0.99-1.02 of the
 * time.) F: the window byte of the sample's first tap. */
template <int F> __device__ __forceinline__ unsigned jf_bytes4(const unsigned *w) {
  constexpr int m = F >> 2, a = F & 3;
  if (a == 0) return w[m];
  return __byte_perm(w[m], w[m + 1], 0x3210u + 0x1111u * a);
}
template <int F>
__device__ __forceinline__ unsigned jf_dp4a_k7(const unsigned *w, unsigned w0, unsigned w1) {
  return __dp4a(jf_bytes4<F + 4>(w), w1, __dp4a(jf_bytes4<F>(w), w0, 0u));
}
/* Output word J of the GRAY8 k = 7 horizontal pass in s_h16's layout. */
template <int HPc, int J>
__device__ __forceinline__ uint2 jf_hword_gray7(const unsigned *w, unsigned w0, unsigned w1) {
  constexpr int F = HPc + 4 * J - 3;
  const unsigned r0 = jf_dp4a_k7<F>(w, w0, w1), r1 = jf_dp4a_k7<F + 1>(w, w0, w1),
                 r2 = jf_dp4a_k7<F + 2>(w, w0, w1), r3 = jf_dp4a_k7<F + 3>(w, w0, w1);
  return make_uint2(__byte_perm(r0, r2, 0x5410u), __byte_perm(r1, r3, 0x5410u));
}

/* Horizontal window of the unrolled kernels: WIN elements from s_in as floats. */
template <typename T, int WIN> struct jf_window;
template <int WIN> struct jf_window<jf_u8, WIN> {
  unsigned w[WIN / 4];
  __device__ __forceinline__ void load(const jf_u8 *s) {
#pragma unroll
    for (int i = 0; i < WIN / 16; i++) {
      uint4 v = *(const uint4 *)(s + 16 * i);
      w[4 * i] = v.x;
      w[4 * i + 1] = v.y;
      w[4 * i + 2] = v.z;
      w[4 * i + 3] = v.w;
    }
  }
  __device__ __forceinline__ float at(int i) const { return jf_byte_to_float(w[i >> 2], i & 3); }
};
template <int WIN> struct jf_window<float, WIN> {
  float w[WIN];
  __device__ __forceinline__ void load(const float *s) {
#pragma unroll
    for (int i = 0; i < WIN / 4; i++) {
      float4 v = *(const float4 *)(s + 4 * i);
      w[4 * i] = v.x;
      w[4 * i + 1] = v.y;
      w[4 * i + 2] = v.z;
      w[4 * i + 3] = v.w;
    }
  }
  __device__ __forceinline__ float at(int i) const { return w[i]; }
};

/* The filter for k = K (unrolled) or, with K == 0, for k = p.ksize. */
template <typename T, int NC, int K>
__device__ __forceinline__ void jf_filter(const char *__restrict__ src, size_t spitch,
                                          char *__restrict__ dst, size_t dpitch,
                                          const jet__filter_params &p) {
  extern __shared__ __align__(16) unsigned char jf_smem[];
  const int TW = jf_traits<T>::TW, ES = (int)sizeof(T);
  const int r = K ? K / 2 : p.ksize / 2;
  const int k = K ? K : p.ksize;
  const int HP = JET_FILTER_HP(r, NC, ES), SW = JET_FILTER_SW(r, NC, ES);
  const int th = p.tile_h, rows = th + 2 * r, rowlen = p.width * NC;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * th;
  float *s_w = (float *)jf_smem;
  T *s_in = (T *)(jf_smem + 128);
  float *s_h = (float *)(jf_smem + 128 + rows * SW * ES);

  jet_pdl_enter();
  if (!K && threadIdx.x < 32) s_w[threadIdx.x] = p.w[threadIdx.x];
  jf_load_tile<T, NC>(src, spitch, s_in, x0, y0, r, HP, SW, p);
  __syncthreads();

  /* Horizontal pass. s_h row layout: float4 slot s holds elements
   * 4 * c4 .. 4 * c4 + 3 with c4 = (s % Q) * J + s / Q, so that both passes
   * touch shared memory without bank conflicts. */
  int Q, J;
  if constexpr (K != 0 && sizeof(T) == 1) {
    /* packed integer taps; s_h gets the sums as integers */
    const int EPT = jf_traits<T>::EPT, HPc = JET_FILTER_HP(K / 2, NC, 1), WIN = EPT + 2 * HPc;
    Q = TW / EPT;
    J = EPT / 4;
    /* GRAY8 k = 7: the taps as DP4A byte quadruples (vpair[d + 1]: taps d, d + 1) */
    const unsigned w0 = __byte_perm(p.vpair[1], p.vpair[3], 0x5410u),
                   w1 = __byte_perm(p.vpair[5], p.vpair[7], 0x5410u);
    for (int t = threadIdx.x; t < rows * (TW / EPT); t += JET_FILTER_THREADS) {
      int rr = t / (TW / EPT), q = t - rr * (TW / EPT);
      jf_window<T, WIN> win;
      win.load(s_in + rr * SW + q * EPT);
      uint2 *out = (uint2 *)s_h + rr * JET_FILTER_H16_ROW + q;
      if constexpr (NC == 1 && K == 7) {
        out[0 * (TW / EPT)] = jf_hword_gray7<HPc, 0>(win.w, w0, w1);
        out[1 * (TW / EPT)] = jf_hword_gray7<HPc, 1>(win.w, w0, w1);
        out[2 * (TW / EPT)] = jf_hword_gray7<HPc, 2>(win.w, w0, w1);
        out[3 * (TW / EPT)] = jf_hword_gray7<HPc, 3>(win.w, w0, w1);
      } else {
        unsigned lo[WIN / 4], hi[WIN / 4];
#pragma unroll
        for (int a = 0; a < WIN / 4; a++) {
          lo[a] = __byte_perm(win.w[a], 0u, 0x4240u);
          hi[a] = __byte_perm(win.w[a], 0u, 0x4341u);
        }
        out[0 * (TW / EPT)] = jf_hword<K, NC, HPc, 0>(lo, hi, p);
        out[1 * (TW / EPT)] = jf_hword<K, NC, HPc, 1>(lo, hi, p);
        out[2 * (TW / EPT)] = jf_hword<K, NC, HPc, 2>(lo, hi, p);
        out[3 * (TW / EPT)] = jf_hword<K, NC, HPc, 3>(lo, hi, p);
      }
    }
  } else if (K) {
    const int EPT = jf_traits<T>::EPT;
    const int R = K / 2, HPc = JET_FILTER_HP(K / 2, NC, ES), WIN = EPT + 2 * HPc;
    Q = TW / EPT;
    J = EPT / 4;
    for (int t = threadIdx.x; t < rows * (TW / EPT); t += JET_FILTER_THREADS) {
      int rr = t / (TW / EPT), q = t - rr * (TW / EPT);
      jf_window<T, WIN> win;
      win.load(s_in + rr * SW + q * EPT);
      float acc[EPT];
#pragma unroll
      for (int e = 0; e < EPT; e++) {
        acc[e] = 0.0f;
#pragma unroll
        for (int i = 0; i < K; i++) acc[e] = fmaf(p.w[i], win.at(HPc + e + (i - R) * NC), acc[e]);
      }
#pragma unroll
      for (int j = 0; j < EPT / 4; j++)
        *(float4 *)(s_h + rr * TW + 4 * (j * (TW / EPT) + q)) =
            make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]);
    }
  } else {
    Q = TW / 4;
    J = 1;
    for (int t = threadIdx.x; t < rows * (TW / 4); t += JET_FILTER_THREADS) {
      int rr = t / (TW / 4), q = t - rr * (TW / 4);
      float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      for (int i = 0; i < k; i++) {
        int off = HP + (i - r) * NC; /* the same in every thread */
        float4 v;
        if (ES == 1) {
          const unsigned *s32 = (const unsigned *)(s_in + rr * SW);
          int wi = q + (off >> 2);
          unsigned hi = (off & 3) ? s32[wi + 1] : 0u; /* past the row only when unused */
          unsigned word = __funnelshift_r(s32[wi], hi, (off & 3) * 8);
          v = make_float4(jf_byte_to_float(word, 0), jf_byte_to_float(word, 1),
                          jf_byte_to_float(word, 2), jf_byte_to_float(word, 3));
        } else {
          const float *s = (const float *)(s_in + rr * SW) + 4 * q + off;
          v = make_float4(s[0], s[1], s[2], s[3]);
        }
        jf_fma4<float>(acc, s_w[i], v);
      }
      if (ES == 1) /* acc: integers below 2^16, stored as such */
        acc = make_float4(jf_int_bits(acc.x), jf_int_bits(acc.y), jf_int_bits(acc.z),
                          jf_int_bits(acc.w));
      *(float4 *)(s_h + rr * TW + 4 * q) = acc;
    }
  }
  __syncthreads();

  /* Vertical pass and output. */
#ifdef JET_COMPACT_KERNELS
  /* float samples of the unrolled kernels: 2 rows in compact builds (4 took
   * 10 KB more of the compact sm_87 cubin; their tiles are multiples of 4) */
  const int RV = K != 0 && ES == 4 ? 2 : JET_FILTER_RV;
#else
  const int RV = JET_FILTER_RV;
#endif
  const int nslot = TW / 4;
  static_assert(JET_FILTER_THREADS % (TW / 4) == 0, "a thread keeps its slot");
  const float4 *s_h4 = (const float4 *)s_h;
  const float bias = ES == 1 ? __uint_as_float(p.ibias) : p.bias;
  /* a thread keeps its slot (column of 4 elements) for every task */
  const int s = threadIdx.x % nslot, gx = x0 + 4 * ((s % Q) * J + s / Q);
  if (gx >= rowlen) return;
  for (int g = threadIdx.x / nslot; g < th / RV; g += JET_FILTER_THREADS / nslot) {
    const int yb = y0 + g * RV;
    if (yb >= p.height) return;
    const float4 *col = s_h4 + g * RV * nslot + s;
    const uint2 *col16 = (const uint2 *)s_h + g * RV * JET_FILTER_H16_ROW + s;
    typename jf_out4<T>::type w[RV];
    if constexpr (K != 0 && sizeof(T) == 1 && JF_BOX_SUMS) {
      /* the two 8-bit modes, each to its own conversion */
      if (p.mode == JET_FILTER_MODE_BOX8) {
        jf_box_words<K, RV>(col16, JET_FILTER_H16_ROW, p.ibias, p.magic, w);
      } else {
        float4 acc[RV];
        jf_dp2a_rows<K, RV>(col16, JET_FILTER_H16_ROW, p.ibias, p.vpair, acc);
#pragma unroll
        for (int o = 0; o < RV; o++) w[o] = jf_pack_gauss(acc[o]);
      }
    } else {
      float4 acc[RV];
#pragma unroll
      for (int o = 0; o < RV; o++) acc[o] = make_float4(bias, bias, bias, bias);
      if (K && sizeof(T) == 1) {
        jf_dp2a_rows<K ? K : 1, RV>(col16, JET_FILTER_H16_ROW, p.ibias, p.vpair, acc);
      } else if (K) {
#pragma unroll
        for (int jr = 0; jr < RV + (K ? K : 1) - 1; jr++) {
          float4 v = col[jr * nslot];
#pragma unroll
          for (int o = 0; o < RV; o++)
            if (jr - o >= 0 && jr - o < K) jf_fma4<T>(acc[o], p.w[(jr - o) & 31], v);
        }
      } else {
        for (int i = 0; i < k; i++) {
          float wi = s_w[i];
#pragma unroll
          for (int o = 0; o < RV; o++) jf_fma4<T>(acc[o], wi, col[(o + i) * nslot]);
        }
      }
      jf_convert_rows<T, RV>(acc, w, p);
    }
    /* one address and one row count per task, not per row */
    jf_store_rows<T, RV>(dst + (size_t)yb * dpitch + (size_t)gx * ES, dpitch, rowlen - gx,
                         p.height - yb, w, p);
  }
}

/* MINB: blocks per SM the registers must allow (the unrolled kernels: a
 * full SM, 8 blocks on the H100, which measured faster than fewer blocks with
 * more registers; so did 256-thread blocks against 128-thread ones, 8-15% on
 * average). */
#define JF_FULL_SM (JET_SM_THREADS / JET_FILTER_THREADS)
#define JF_KERNEL(name, T, NC, K, MINB)                                                        \
  extern "C" __global__ void __launch_bounds__(JET_FILTER_THREADS, MINB)                       \
      name(const __grid_constant__ jet__filter_params p) {                                     \
    const jet__filter_image &im = p.img[blockIdx.z];                                           \
    jf_filter<T, NC, K>((const char *)im.src, im.spitch, (char *)im.dst, im.dpitch, p);         \
  }
/* jet_filter_<type><channels>_k<K>; k0 takes any size. */
#define JF_KERNELS(tn, T, NC)                 \
  JF_KERNEL(jet_filter_##tn##_k0, T, NC, 0, 1) \
  JF_KERNEL(jet_filter_##tn##_k3, T, NC, 3, JF_FULL_SM) \
  JF_KERNEL(jet_filter_##tn##_k5, T, NC, 5, JF_FULL_SM) \
  JF_KERNEL(jet_filter_##tn##_k7, T, NC, 7, JF_FULL_SM)

JF_KERNELS(u8c1, jf_u8, 1)
JF_KERNELS(u8c3, jf_u8, 3)
JF_KERNELS(u8c4, jf_u8, 4)
JF_KERNELS(f32c1, float, 1)
JF_KERNELS(f32c3, float, 3)
