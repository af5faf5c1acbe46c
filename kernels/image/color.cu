/*
 * color: colour conversion kernels (jet_convert_color, lib/image/color.c).
 *
 * The arithmetic is color_coeffs.h's; the host fills cc_args with the
 * coefficients of the chosen matrix and range and with __byte_perm selectors
 * for the channel orders, so one kernel serves a family of format pairs:
 *
 *   source kinds  SP420 (NV12, NV21)  P420 (I420)  Y420 (the Y plane of a
 *                 4:2:0 image, for GRAY8 output)  P422 (YUYV, UYVY)
 *                 C3 (RGB8, BGR8)  C4 (RGBA8, BGRA8)  G (GRAY8)
 *   dest kinds    C4  C3  G  SP420 (NV12)  P420 (I420)
 *
 * Thread layout: blocks of 32 x 8 threads, one warp per row segment. Each
 * thread converts 4 horizontally adjacent pixels of ROWS rows (2 for a 4:2:0
 * source or destination, so one chroma read or write serves a 2x2 block, else
 * 1); a warp covers 128 pixels. With args.vec set (every plane pointer and
 * pitch aligned for it, checked on the host) a thread's 4 pixels move as one
 * access per plane and row: 4 bytes of Y or GRAY, 16 bytes of RGBA, 8 bytes
 * of YUYV, 4 bytes of NV12 chroma, 2 bytes of each I420 chroma plane. RGB8
 * outputs (12 bytes per thread) are staged in shared memory and stored by the
 * warp as contiguous 4-byte words, so every store instruction writes 128
 * contiguous bytes. Without args.vec, and for the last partial group of a
 * row, the same code moves single bytes.
 *
 * Clamping: every 8-bit result of color_coeffs.h is clamp8(rshift_r(a, s)).
 * With t = a + 2^(s-1), that is the bits s..s+7 of min(max(t, 0), 2^(s+8)-1),
 * one min.s32.relu on sm_90 (__vimin_s32_relu); for s = 16 the result is byte 2
 * of the clamped value, which __byte_perm picks without a shift.
 */
#include "color_coeffs.h"

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

/* Mirrors struct jet__cc_args in lib/image/color.c field for field. */
struct cc_args {
  const u8 *src[3];
  u8 *dst[3];
  u64 spitch[3];
  u64 dpitch[3];
  int width, height;
  int vec;     /* 1: every plane meets the vector alignment of this kernel */
  u32 sel;     /* __byte_perm selector producing a destination pixel word */
  u32 rsel, gsel, bsel; /* byte offsets of R, G, B in a source pixel word */
  int uoff, voff, yoff; /* byte offsets of U, V, Y0 in a source chroma or YUYV word */
  int cy, cyoff, crv, cgu, cgv, cbu; /* YUV -> RGB; cyoff = 2^15 - cy * YOFF */
  int gy, gadd;                      /* YUV luma -> GRAY8 */
  int yr, yg, yb, yadd;              /* RGB -> Y or GRAY8 */
  int ur, ug, ub, vr, vg, vb, uvadd; /* 2x2 RGB sums -> U, V */
  int unused_;                       /* explicit tail padding */
};
static_assert(sizeof(cc_args) == 216, "cc_args layout differs from lib/image/color.c");

enum { S_SP420, S_P420, S_Y420, S_P422, S_C3, S_C4, S_G };
enum { D_C4, D_C3, D_G, D_SP420, D_P420 };

#define CC_WARPS 8 /* blockDim.y; blockDim.x is 32 */
#define CC_MAX8 0xFFFFFF   /* (256 << 16) - 1 */
#define CC_MAX8_UV ((256 << JET_CC_CHROMA_SHIFT) - 1)

/* ------------------------------------------------------------ memory */

/* NB bytes at p; all of them with one access when vec and nb == NB, else the
 * first nb bytes one by one (the rest reads as 0). */
template <int NB>
__device__ __forceinline__ void ld(const u8 *p, int nb, bool vec, u32 *o) {
  if (vec && nb == NB) {
    if constexpr (NB == 2) {
      o[0] = __ldg((const unsigned short *)p);
    } else if constexpr (NB == 4) {
      o[0] = __ldg((const u32 *)p);
    } else if constexpr (NB == 8) {
      uint2 v = __ldg((const uint2 *)p);
      o[0] = v.x;
      o[1] = v.y;
    } else if constexpr (NB == 12) {
      o[0] = __ldg((const u32 *)p);
      o[1] = __ldg((const u32 *)p + 1);
      o[2] = __ldg((const u32 *)p + 2);
    } else {
      uint4 v = __ldg((const uint4 *)p);
      o[0] = v.x;
      o[1] = v.y;
      o[2] = v.z;
      o[3] = v.w;
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < (NB + 3) / 4; k++) o[k] = 0;
#pragma unroll
  for (int i = 0; i < NB; i++)
    if (i < nb) o[i >> 2] |= (u32)p[i] << (8 * (i & 3));
}

template <int NB>
__device__ __forceinline__ void st(u8 *p, int nb, bool vec, const u32 *o) {
  if (vec && nb == NB) {
    if constexpr (NB == 2) {
      *(unsigned short *)p = (unsigned short)o[0];
    } else if constexpr (NB == 4) {
      *(u32 *)p = o[0];
    } else if constexpr (NB == 12) {
      ((u32 *)p)[0] = o[0];
      ((u32 *)p)[1] = o[1];
      ((u32 *)p)[2] = o[2];
    } else {
      *(uint4 *)p = make_uint4(o[0], o[1], o[2], o[3]);
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < NB; i++)
    if (i < nb) p[i] = (u8)(o[i >> 2] >> (8 * (i & 3)));
}

/* ------------------------------------------------------------ arithmetic */

__device__ __forceinline__ int byte_at(u32 w, u32 k) { return (int)__byte_perm(w, 0, 0x4440u | k); }

/* clamp for a Q16 result: byte 2 of the return value is the 8-bit result */
__device__ __forceinline__ u32 clamp16(int t) { return (u32)__vimin_s32_relu(t, CC_MAX8); }

/* Bytes 2 of a, b, c, d packed into one word (a lowest). */
__device__ __forceinline__ u32 pack_b2(u32 a, u32 b, u32 c, u32 d) {
  return __byte_perm(__byte_perm(a, b, 0x0062), __byte_perm(c, d, 0x0062), 0x5410);
}

struct chroma {
  int r, g, b;
};

__device__ __forceinline__ chroma mk_chroma(const cc_args &a, int u, int v) {
  const int uu = u - 128, vv = v - 128;
  chroma c;
  c.r = a.crv * vv;
  c.g = -a.cgu * uu - a.cgv * vv;
  c.b = a.cbu * uu;
  return c;
}

/* One YUV pixel as a destination word (a.sel orders R, G, B; alpha 255 when ALPHA). */
template <bool ALPHA>
__device__ __forceinline__ u32 yuv_word(const cc_args &a, int y, const chroma &c) {
  const int yy = y * a.cy + a.cyoff;
  const u32 rg = __byte_perm(clamp16(yy + c.r), clamp16(yy + c.g), 0x0062);
  const u32 w = __byte_perm(rg, clamp16(yy + c.b), a.sel);
  return ALPHA ? (w | 0xFF000000u) : w;
}

/* GRAY8 of a YUV luma sample, as a clamped Q16 value */
__device__ __forceinline__ u32 luma_gray(const cc_args &a, int y) { return clamp16(y * a.gy + a.gadd); }

/* Y (or GRAY8) of an RGB-family pixel word, as a clamped Q16 value */
__device__ __forceinline__ u32 rgb_y(const cc_args &a, int r, int g, int b) {
  return clamp16(r * a.yr + g * a.yg + b * a.yb + a.yadd);
}

__device__ __forceinline__ u32 uv_of(int sr, int sg, int sb, int kr, int kg, int kb, int add) {
  return (u32)__vimin_s32_relu(sr * kr + sg * kg + sb * kb + add, CC_MAX8_UV) >> JET_CC_CHROMA_SHIFT;
}

/* 12 bytes of packed 3-byte pixels -> 4 words with the pixel in bytes 0..2 */
__device__ __forceinline__ void unpack3(const u32 *i, u32 *s) {
  s[0] = i[0];
  s[1] = __byte_perm(i[0], i[1], 0x0543);
  s[2] = __byte_perm(i[1], i[2], 0x0432);
  s[3] = __byte_perm(i[2], 0, 0x0321);
}

/* 4 words with the pixel in bytes 0..2 -> 12 packed bytes */
__device__ __forceinline__ void pack3(const u32 *d, u32 *o) {
  o[0] = __byte_perm(d[0], d[1], 0x4210);
  o[1] = __byte_perm(d[1], d[2], 0x5421);
  o[2] = __byte_perm(d[2], d[3], 0x6542);
}

/* ------------------------------------------------------------ the kernel body */

template <int S, int D>
__device__ __forceinline__ void cc_body(const cc_args &a) {
  constexpr int ROWS = (S == S_SP420 || S == S_P420 || D == D_SP420 || D == D_P420) ? 2 : 1;
  constexpr bool ALPHA = D == D_C4;
  constexpr int SBPP = S == S_P422 ? 2 : S == S_C3 ? 3 : S == S_C4 ? 4 : 1; /* plane 0 */
  constexpr int DBPP = D == D_C3 ? 3 : D == D_C4 ? 4 : 1;
  const int lane = threadIdx.x;
  const u32 wx0 = blockIdx.x * 128u; /* the warp's first pixel */
  const u32 x0 = wx0 + 4u * lane;    /* this thread's first pixel */
  const int n = x0 < (u32)a.width ? min(4, a.width - (int)x0) : 0;
  const bool vec = a.vec != 0;
  const int nrows = a.height / ROWS; /* 4:2:0 heights are even */

  for (int ry = blockIdx.y * CC_WARPS + threadIdx.y; ry < nrows; ry += gridDim.y * CC_WARPS) {
    const int y = ry * ROWS;
    /* destination pixel words (C4, C3), or clamped Q16 grey/luma values (G, 4:2:0) */
    u32 d[ROWS][4] = {};
    int sr[2] = {0, 0}, sg[2] = {0, 0}, sb[2] = {0, 0}; /* 2x2 sums for a 4:2:0 destination */

    if (n > 0) {
      const u8 *s0 = a.src[0] + (u64)y * a.spitch[0] + (u64)x0 * SBPP;
      if constexpr (S == S_SP420 || S == S_P420) {
        u32 yw[2], cw[2];
        ld<4>(s0, n, vec, &yw[0]);
        ld<4>(s0 + a.spitch[0], n, vec, &yw[1]);
        int u[2], v[2];
        if constexpr (S == S_SP420) {
          ld<4>(a.src[1] + (u64)(y >> 1) * a.spitch[1] + x0, n, vec, cw);
          u[0] = byte_at(cw[0], a.uoff);
          v[0] = byte_at(cw[0], a.voff);
          u[1] = byte_at(cw[0], a.uoff + 2);
          v[1] = byte_at(cw[0], a.voff + 2);
        } else {
          ld<2>(a.src[1] + (u64)(y >> 1) * a.spitch[1] + (x0 >> 1), n >> 1, vec, &cw[0]);
          ld<2>(a.src[2] + (u64)(y >> 1) * a.spitch[2] + (x0 >> 1), n >> 1, vec, &cw[1]);
          u[0] = cw[0] & 0xFF;
          u[1] = (cw[0] >> 8) & 0xFF;
          v[0] = cw[1] & 0xFF;
          v[1] = (cw[1] >> 8) & 0xFF;
        }
        const chroma c0 = mk_chroma(a, u[0], v[0]), c1 = mk_chroma(a, u[1], v[1]);
#pragma unroll
        for (int r = 0; r < 2; r++)
#pragma unroll
          for (int i = 0; i < 4; i++)
            d[r][i] = yuv_word<ALPHA>(a, (yw[r] >> (8 * i)) & 0xFF, i < 2 ? c0 : c1);
      } else if constexpr (S == S_Y420) {
        u32 yw;
        ld<4>(s0, n, vec, &yw);
#pragma unroll
        for (int i = 0; i < 4; i++) d[0][i] = luma_gray(a, (yw >> (8 * i)) & 0xFF);
      } else if constexpr (S == S_P422) {
        u32 pw[2];
        ld<8>(s0, 2 * n, vec, pw);
#pragma unroll
        for (int h = 0; h < 2; h++) {
          const int y0 = byte_at(pw[h], a.yoff), y1 = byte_at(pw[h], a.yoff + 2);
          if constexpr (D == D_G) {
            d[0][2 * h] = luma_gray(a, y0);
            d[0][2 * h + 1] = luma_gray(a, y1);
          } else {
            const chroma c = mk_chroma(a, byte_at(pw[h], a.uoff), byte_at(pw[h], a.voff));
            d[0][2 * h] = yuv_word<ALPHA>(a, y0, c);
            d[0][2 * h + 1] = yuv_word<ALPHA>(a, y1, c);
          }
        }
      } else if constexpr (S == S_G) {
        u32 gw;
        ld<4>(s0, n, vec, &gw);
#pragma unroll
        for (int i = 0; i < 4; i++) d[0][i] = __byte_perm(gw, 0xFFFFFFFFu, 0x4000u + 0x111u * i);
      } else { /* C3, C4 */
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
          u32 px[4];
          if constexpr (S == S_C3) {
            u32 raw[3];
            ld<12>(s0 + (u64)r * a.spitch[0], 3 * n, vec, raw);
            unpack3(raw, px);
          } else {
            ld<16>(s0 + (u64)r * a.spitch[0], 4 * n, vec, px);
          }
#pragma unroll
          for (int i = 0; i < 4; i++) {
            if constexpr (D == D_C4 || D == D_C3) {
              d[r][i] = __byte_perm(px[i], 0xFFFFFFFFu, a.sel);
            } else {
              const int R = byte_at(px[i], a.rsel), G = byte_at(px[i], a.gsel),
                        B = byte_at(px[i], a.bsel);
              d[r][i] = rgb_y(a, R, G, B);
              if constexpr (D == D_SP420 || D == D_P420) {
                sr[i >> 1] += R;
                sg[i >> 1] += G;
                sb[i >> 1] += B;
              }
            }
          }
        }
      }
    }

    if constexpr (D == D_C3) {
      u32 o[ROWS][3];
#pragma unroll
      for (int r = 0; r < ROWS; r++) pack3(d[r], o[r]);
      __shared__ u32 stage[CC_WARPS][ROWS][96];
      if (vec) {
        /* Stage the warp's full groups (a prefix of its lanes) and store them as
         * consecutive words; a partial last group stores its own bytes. */
        const int nfull = min(32, max(0, (a.width - (int)wx0) >> 2));
#pragma unroll
        for (int r = 0; r < ROWS; r++)
          if (n == 4)
#pragma unroll
            for (int k = 0; k < 3; k++) stage[threadIdx.y][r][3 * lane + k] = o[r][k];
        __syncwarp();
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
          u32 *drow = (u32 *)(a.dst[0] + (u64)(y + r) * a.dpitch[0] + (u64)wx0 * 3);
#pragma unroll
          for (int k = 0; k < 3; k++) {
            const int idx = lane + 32 * k;
            if (idx < 3 * nfull) drow[idx] = stage[threadIdx.y][r][idx];
          }
          if (n > 0 && n < 4) st<12>(a.dst[0] + (u64)(y + r) * a.dpitch[0] + (u64)x0 * 3, 3 * n, false, o[r]);
        }
        __syncwarp();
      } else if (n > 0) {
#pragma unroll
        for (int r = 0; r < ROWS; r++)
          st<12>(a.dst[0] + (u64)(y + r) * a.dpitch[0] + (u64)x0 * 3, 3 * n, false, o[r]);
      }
    } else if (n > 0) {
      u8 *d0 = a.dst[0] + (u64)y * a.dpitch[0] + (u64)x0 * DBPP;
      if constexpr (D == D_C4) {
#pragma unroll
        for (int r = 0; r < ROWS; r++) st<16>(d0 + (u64)r * a.dpitch[0], 4 * n, vec, d[r]);
      } else {
        /* G, or the Y plane of a 4:2:0 destination */
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
          const u32 g = pack_b2(d[r][0], d[r][1], d[r][2], d[r][3]);
          st<4>(d0 + (u64)r * a.dpitch[0], n, vec, &g);
        }
        if constexpr (D == D_SP420 || D == D_P420) {
          u32 u[2], v[2];
#pragma unroll
          for (int j = 0; j < 2; j++) {
            u[j] = uv_of(sr[j], sg[j], sb[j], a.ur, a.ug, a.ub, a.uvadd);
            v[j] = uv_of(sr[j], sg[j], sb[j], a.vr, a.vg, a.vb, a.uvadd);
          }
          if constexpr (D == D_SP420) {
            const u32 w = u[0] | (v[0] << 8) | (u[1] << 16) | (v[1] << 24);
            st<4>(a.dst[1] + (u64)(y >> 1) * a.dpitch[1] + x0, n, vec, &w);
          } else {
            const u32 uw = u[0] | (u[1] << 8), vw = v[0] | (v[1] << 8);
            st<2>(a.dst[1] + (u64)(y >> 1) * a.dpitch[1] + (x0 >> 1), n >> 1, vec, &uw);
            st<2>(a.dst[2] + (u64)(y >> 1) * a.dpitch[2] + (x0 >> 1), n >> 1, vec, &vw);
          }
        }
      }
    }
  }
}

#define CC_KERNEL(name, S, D)                                                        \
  extern "C" __global__ void __launch_bounds__(32 * CC_WARPS) name(const cc_args a) { \
    cc_body<S, D>(a);                                                                \
  }

CC_KERNEL(jet_cc_sp420_c4, S_SP420, D_C4)
CC_KERNEL(jet_cc_sp420_c3, S_SP420, D_C3)
CC_KERNEL(jet_cc_p420_c4, S_P420, D_C4)
CC_KERNEL(jet_cc_p420_c3, S_P420, D_C3)
CC_KERNEL(jet_cc_y420_g, S_Y420, D_G)
CC_KERNEL(jet_cc_p422_c4, S_P422, D_C4)
CC_KERNEL(jet_cc_p422_c3, S_P422, D_C3)
CC_KERNEL(jet_cc_p422_g, S_P422, D_G)
CC_KERNEL(jet_cc_c3_c4, S_C3, D_C4)
CC_KERNEL(jet_cc_c3_c3, S_C3, D_C3)
CC_KERNEL(jet_cc_c3_g, S_C3, D_G)
CC_KERNEL(jet_cc_c4_c4, S_C4, D_C4)
CC_KERNEL(jet_cc_c4_c3, S_C4, D_C3)
CC_KERNEL(jet_cc_c4_g, S_C4, D_G)
CC_KERNEL(jet_cc_g_c4, S_G, D_C4)
CC_KERNEL(jet_cc_g_c3, S_G, D_C3)
CC_KERNEL(jet_cc_c3_sp420, S_C3, D_SP420)
CC_KERNEL(jet_cc_c3_p420, S_C3, D_P420)
CC_KERNEL(jet_cc_c4_sp420, S_C4, D_SP420)
CC_KERNEL(jet_cc_c4_p420, S_C4, D_P420)
