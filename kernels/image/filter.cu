/*
 * filter: box and Gaussian filters (lib/image/filter.c launches them; the
 * arithmetic is in color_coeffs.h, the tile geometry in filter_params.h).
 *
 * One kernel per call, separable in shared memory. A block
 *  1. loads its tile plus halo into s_in with 16-byte loads; only tiles at the
 *     image edge resolve borders, element by element (index remapping);
 *  2. runs the horizontal pass over every s_in row into s_h (floats);
 *  3. runs the vertical pass from s_h, JET_FILTER_RV rows by 4 elements per
 *     thread, and stores the converted result.
 * Rows are treated as width * channels elements; a tap moves by the channel
 * count, so one code path serves every channel layout.
 *
 * 8-bit arithmetic is done in float without any rounding: Q8 products and
 * their sums are integers below 2^24, which float holds exactly, so the result
 * equals the integer rule bit for bit, and float FMAs are twice as fast as
 * integer ones. k = 3, 5, 7 have unrolled kernels that keep the windows in
 * registers; other sizes take a runtime-k kernel.
 */
#include "filter_params.h"

typedef unsigned char jf_u8;

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
    t %= p;
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

/* One source element (global element index ge of remapped row ry, -1 for a
 * constant row), through the border rule. */
template <typename T, int NC>
__device__ __forceinline__ T jf_load_elem(const char *__restrict__ src, size_t pitch, int ry, int ge,
                                          int rowlen, const jet__filter_params &p) {
  int px = ge >= 0 ? ge / NC : -((NC - 1 - ge) / NC);
  int c = ge - px * NC;
  int rx = (unsigned)ge < (unsigned)rowlen ? px : jf_border_index(px, p.width, p.border_mode);
  if (ry < 0 || rx < 0) return jf_border_sample<T>(p, c);
  return ((const T *)(src + (size_t)ry * pitch))[rx * NC + c];
}

/* Phase 1: s_in gets rows y0 - r .. y0 + th + r - 1 and elements
 * x0 - HP .. x0 + TW + HP - 1. */
template <typename T, int NC>
__device__ __forceinline__ void jf_load_tile(const char *__restrict__ src, size_t pitch, T *s_in, int x0,
                                             int y0, int r, int HP, int SW,
                                             const jet__filter_params &p) {
  const int VE = jf_traits<T>::VE;
  const int rowlen = p.width * NC, rows = p.tile_h + 2 * r, nv = SW / VE, total = rows * nv;
  for (int t = threadIdx.x; t < total; t += JET_FILTER_THREADS) {
    int rr = t / nv, v = t - rr * nv;
    int ry = jf_border_index(y0 - r + rr, p.height, p.border_mode);
    int ge0 = x0 - HP + v * VE;
    T *out = s_in + rr * SW + v * VE;
    if (ry >= 0 && p.vec_in && ge0 >= 0 && ge0 + VE <= rowlen) {
      *(uint4 *)out = __ldg((const uint4 *)(src + (size_t)ry * pitch + (size_t)ge0 * sizeof(T)));
    } else {
      /* edge tiles only: kept rolled up, it is rare and would bloat every kernel */
#pragma unroll 1
      for (int m = 0; m < VE; m++) out[m] = jf_load_elem<T, NC>(src, pitch, ry, ge0 + m, rowlen, p);
    }
  }
}

/* 8-bit output sample from a vertical sum (bias included), as a byte in the
 * low 8 bits. */
__device__ __forceinline__ unsigned jf_out8(float s, const jet__filter_params &p) {
  if (p.mode == JET_FILTER_MODE_GAUSS8)
    return __float_as_uint(__fmaf_rd(s, 1.0f / 65536.0f, 8388608.0f)); /* 2^23 + floor(s / 2^16) */
  unsigned n = __float_as_uint(__fadd_rn(s, 8388608.0f)) & 0x7FFFFFu;  /* s, an integer < 2^23 */
  return __umulhi(n, p.magic);
}

/* Store 4 consecutive output elements (global element gx of row y). */
template <typename T>
__device__ __forceinline__ void jf_store4(char *__restrict__ dst, size_t pitch, int y, int gx, int rowlen,
                                          float4 a, const jet__filter_params &p);
template <>
__device__ __forceinline__ void jf_store4<jf_u8>(char *__restrict__ dst, size_t pitch, int y, int gx,
                                                 int rowlen, float4 a, const jet__filter_params &p) {
  unsigned b0 = jf_out8(a.x, p), b1 = jf_out8(a.y, p), b2 = jf_out8(a.z, p), b3 = jf_out8(a.w, p);
  unsigned word = __byte_perm(__byte_perm(b0, b1, 0x0040u), __byte_perm(b2, b3, 0x0040u), 0x5410u);
  jf_u8 *row = (jf_u8 *)(dst + (size_t)y * pitch);
  if (p.vec_out && gx + 4 <= rowlen) {
    *(unsigned *)(row + gx) = word;
  } else {
#pragma unroll
    for (int m = 0; m < 4; m++)
      if (gx + m < rowlen) row[gx + m] = (jf_u8)(word >> (8 * m));
  }
}
template <>
__device__ __forceinline__ void jf_store4<float>(char *__restrict__ dst, size_t pitch, int y, int gx,
                                                 int rowlen, float4 a, const jet__filter_params &p) {
  a.x *= p.scale;
  a.y *= p.scale;
  a.z *= p.scale;
  a.w *= p.scale;
  float *row = (float *)(dst + (size_t)y * pitch);
  if (p.vec_out && gx + 4 <= rowlen) {
    *(float4 *)(row + gx) = a;
  } else {
    if (gx < rowlen) row[gx] = a.x;
    if (gx + 1 < rowlen) row[gx + 1] = a.y;
    if (gx + 2 < rowlen) row[gx + 2] = a.z;
    if (gx + 3 < rowlen) row[gx + 3] = a.w;
  }
}

__device__ __forceinline__ void jf_fma4(float4 &acc, float w, float4 v) {
  acc.x = fmaf(w, v.x, acc.x);
  acc.y = fmaf(w, v.y, acc.y);
  acc.z = fmaf(w, v.z, acc.z);
  acc.w = fmaf(w, v.w, acc.w);
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

  if (!K && threadIdx.x < 32) s_w[threadIdx.x] = p.w[threadIdx.x];
  jf_load_tile<T, NC>(src, spitch, s_in, x0, y0, r, HP, SW, p);
  __syncthreads();

  /* Horizontal pass. s_h row layout: float4 slot s holds elements
   * 4 * c4 .. 4 * c4 + 3 with c4 = (s % Q) * J + s / Q, so that both passes
   * touch shared memory without bank conflicts. */
  int Q, J;
  if (K) {
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
        jf_fma4(acc, s_w[i], v);
      }
      *(float4 *)(s_h + rr * TW + 4 * q) = acc;
    }
  }
  __syncthreads();

  /* Vertical pass and output. */
  const int nslot = TW / 4, ntask = nslot * (th / JET_FILTER_RV);
  const float4 *s_h4 = (const float4 *)s_h;
  for (int t = threadIdx.x; t < ntask; t += JET_FILTER_THREADS) {
    int g = t / nslot, s = t - g * nslot;
    int c4 = (s % Q) * J + s / Q;
    int gx = x0 + 4 * c4, yb = y0 + g * JET_FILTER_RV;
    if (gx >= rowlen || yb >= p.height) continue;
    float4 acc[JET_FILTER_RV];
#pragma unroll
    for (int o = 0; o < JET_FILTER_RV; o++) acc[o] = make_float4(p.bias, p.bias, p.bias, p.bias);
    const float4 *col = s_h4 + g * JET_FILTER_RV * nslot + s;
    if (K) {
#pragma unroll
      for (int jr = 0; jr < JET_FILTER_RV + (K ? K : 1) - 1; jr++) {
        float4 v = col[jr * nslot];
#pragma unroll
        for (int o = 0; o < JET_FILTER_RV; o++)
          if (jr - o >= 0 && jr - o < K) jf_fma4(acc[o], p.w[(jr - o) & 31], v);
      }
    } else {
      for (int i = 0; i < k; i++) {
        float wi = s_w[i];
#pragma unroll
        for (int o = 0; o < JET_FILTER_RV; o++) jf_fma4(acc[o], wi, col[(o + i) * nslot]);
      }
    }
#pragma unroll
    for (int o = 0; o < JET_FILTER_RV; o++)
      if (yb + o < p.height) jf_store4<T>(dst, dpitch, yb + o, gx, rowlen, acc[o], p);
  }
}

#define JF_KERNEL(name, T, NC, K)                                                              \
  extern "C" __global__ void __launch_bounds__(JET_FILTER_THREADS)                             \
      name(const char *__restrict__ src, size_t spitch, char *__restrict__ dst, size_t dpitch, \
           jet__filter_params p) {                                                             \
    jf_filter<T, NC, K>(src, spitch, dst, dpitch, p);                                          \
  }

/* jet_filter_<type><channels>_k<K>; k0 takes any size. */
#define JF_KERNELS(tn, T, NC)                 \
  JF_KERNEL(jet_filter_##tn##_k0, T, NC, 0)   \
  JF_KERNEL(jet_filter_##tn##_k3, T, NC, 3)   \
  JF_KERNEL(jet_filter_##tn##_k5, T, NC, 5)   \
  JF_KERNEL(jet_filter_##tn##_k7, T, NC, 7)

JF_KERNELS(u8c1, jf_u8, 1)
JF_KERNELS(u8c3, jf_u8, 3)
JF_KERNELS(u8c4, jf_u8, 4)
JF_KERNELS(f32c1, float, 1)
JF_KERNELS(f32c3, float, 3)
