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
 * warp as contiguous chunks: 24 lanes x 16 bytes where the rows are 16-byte
 * aligned, else 32 lanes x 3 words. Without args.vec, and for the last
 * partial group of a row, the same code moves single bytes.
 *
 * A batch (jet_convert_color_batch) is one launch: blockIdx.z picks the
 * image pair, whose plane pointers and pitches are args.img[blockIdx.z];
 * everything else is shared. A single conversion is a batch of one.
 *
 * GRAY8 destinations of the packed sources (Y420, P422, C3, C4) whose plane
 * 0 rows are 16-byte aligned on both sides have kernels of 16 pixels a
 * thread (jet_cc_*_g16, see cc_gray16; chosen by the launcher): one to four
 * 16-byte loads and one 16-byte store per row.
 *
 * Warps whose 128 pixels all lie inside the image with args.vec set take a
 * separate instantiation (FAST) with no byte paths and no per-lane tests.
 * Each thread loops over row groups (grid.y is sized by the host for about
 * two waves), so its setup is paid once for several rows; addresses are the
 * thread's column pointer plus row * pitch.
 *
 * Clamping: every 8-bit result of color_coeffs.h is clamp8(rshift_r(a, s)).
 * With t = a + 2^(s-1), that is the bits s..s+7 of min(max(t, 0), 2^(s+8)-1),
 * one min.s32.relu on sm_90 (__vimin_s32_relu, or fused with the add:
 * __viaddmin_s32_relu); for s = 16 the result is byte 2 of the clamped value,
 * which __byte_perm picks without a shift. RGB -> Y/GRAY needs no clamp (see
 * rgb_y) and uses two 16x8-bit dot products (dp2a); the 2x2 sums of a 4:2:0
 * destination are dp4a with one-hot byte selectors.
 */
#include "color_coeffs.h"
#include "pdl.cuh"

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

/* Planes of one image pair of a batch. */
struct cc_planes {
  const u8 *src[3];
  u8 *dst[3];
  u64 spitch[3];
  u64 dpitch[3];
};

#define CC_BATCH 16 /* JET_IMAGE_BATCH_MAX */

/* The coefficients, shared by the pairs of a batch: the first 120 bytes of
 * struct jet__cc_args in lib/image/color.c, field for field. */
struct cc_coef {
  int width, height;
  int vec;     /* 1: every plane of every pair meets the vector alignment of this kernel */
  u32 sel;     /* __byte_perm selector producing a destination pixel word */
  u32 rsel, gsel, bsel; /* byte offsets of R, G, B in a source pixel word */
  int uoff, voff, yoff; /* byte offsets of U, V, Y0 in a source chroma or YUYV word */
  int cy, cyoff, crv, cgu, cgv, cbu; /* YUV -> RGB; cyoff = 2^15 - cy * YOFF */
  int gy, gadd;                      /* YUV luma -> GRAY8 */
  int yr, yg, yb, yadd;              /* RGB -> Y or GRAY8 */
  int ur, ug, ub, vr, vg, vb, uvadd; /* 2x2 RGB sums -> U, V */
  int count;                         /* pairs in img (= gridDim.z) */
};

/* A kernel's parameters: the coefficients and the planes of NB pairs,
 * img[blockIdx.z] one pair's (the first count entries are set). The host
 * passes its jet__cc_args (img[16]) whatever NB; a launch copies the
 * kernel's own size from it. Every kernel has an NB = 16 entry for batches
 * (1656 bytes) and, in the cubins of full builds, an NB = 1 entry ("_1",
 * 216 bytes) for single images: the launch cost grows with the parameter size
 * (these 1440 bytes cost about 0.3 us per launch on an H100, 4-5% of a
 * 1080p conversion). */
template <int NB>
struct cc_args : cc_coef {
  cc_planes img[NB];
};
static_assert(sizeof(cc_coef) == 120 && sizeof(cc_args<1>) == 120 + 96 && sizeof(cc_args<CC_BATCH>) == 120 + 96 * CC_BATCH,
              "cc_args layout differs from lib/image/color.c");

enum { S_SP420, S_P420, S_Y420, S_P422, S_C3, S_C4, S_G };
enum { D_C4, D_C3, D_G, D_SP420, D_P420 };

#define CC_WARPS 8 /* blockDim.y; blockDim.x is 32 */
/* At most 32 registers, so that 8 blocks (2048 threads) fit an SM of sm_90;
 * lib/image/color.c sizes the grid for 8 resident blocks per SM. (Not
 * __launch_bounds__'s minimum block count: SMs with 1536 threads reject 8.) */
#define CC_MAX_REGS 32
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

/* byte I of w as an int: one LOP, SHF or PRMT */
template <int I>
__device__ __forceinline__ int byte_i(u32 w) {
  if constexpr (I == 0) return (int)(w & 0xFFu);
  else if constexpr (I == 3) return (int)(w >> 24);
  else return (int)__byte_perm(w, 0, 0x4440u | I);
}

/* clamp for a Q16 result: byte 2 of the return value is the 8-bit result */
__device__ __forceinline__ u32 clamp16(int t) { return (u32)__vimin_s32_relu(t, CC_MAX8); }

/* Bytes 2 of a, b, c, d packed into one word (a lowest). */
__device__ __forceinline__ u32 pack_b2(u32 a, u32 b, u32 c, u32 d) {
  return __byte_perm(__byte_perm(a, b, 0x0062), __byte_perm(c, d, 0x0062), 0x5410);
}

/* YUV -> RGB constants of a thread. The chroma part of each channel, with the
 * rounding and luma offset folded in, is computed once per chroma sample:
 *   R = y*cy + (v*crv + kr), kr = cyoff - 128*crv      (= y*cy + cyoff + crv*(v-128))
 *   G = y*cy + (u*ncgu + v*ncgv + kg), kg = cyoff + 128*(cgu + cgv)
 *   B = y*cy + (u*cbu + kb), kb = cyoff - 128*cbu
 * the same integers as color_coeffs.h's formula, so each pixel costs one
 * multiply and three add+clamp (VIADDMNMX) plus the byte packing. */
struct yuv_k {
  int cy, crv, ncgu, ncgv, cbu, kr, kg, kb;
  u32 sel;
};

__device__ __forceinline__ yuv_k mk_yuv_k(const cc_coef &a) {
  yuv_k k;
  k.cy = a.cy;
  k.crv = a.crv;
  k.ncgu = -a.cgu;
  k.ncgv = -a.cgv;
  k.cbu = a.cbu;
  k.kr = a.cyoff - 128 * a.crv;
  k.kg = a.cyoff + 128 * (a.cgu + a.cgv);
  k.kb = a.cyoff - 128 * a.cbu;
  k.sel = a.sel;
  return k;
}

struct chroma {
  int r, g, b;
};

__device__ __forceinline__ chroma mk_chroma(const yuv_k &k, int u, int v) {
  chroma c;
  c.r = v * k.crv + k.kr;
  c.g = u * k.ncgu + v * k.ncgv + k.kg;
  c.b = u * k.cbu + k.kb;
  return c;
}

/* One YUV pixel as a destination word (k.sel orders R, G, B; alpha 255 when ALPHA). */
template <bool ALPHA>
__device__ __forceinline__ u32 yuv_word(const yuv_k &k, int y, const chroma &c) {
  const int yy = y * k.cy;
  const u32 r = (u32)__viaddmin_s32_relu(yy, c.r, CC_MAX8);
  const u32 g = (u32)__viaddmin_s32_relu(yy, c.g, CC_MAX8);
  const u32 b = (u32)__viaddmin_s32_relu(yy, c.b, CC_MAX8);
  const u32 w = __byte_perm(__byte_perm(r, g, 0x0062), b, k.sel);
  return ALPHA ? (w | 0xFF000000u) : w;
}

/* GRAY8 of a YUV luma sample, as a clamped Q16 value */
__device__ __forceinline__ u32 luma_gray(const cc_coef &a, int y) { return clamp16(y * a.gy + a.gadd); }

/* RGB -> Y or GRAY8 of a pixel word (R, G, B at bytes rsel, gsel, bsel), as a
 * Q16 value whose byte 2 is the result: two 16x8-bit dot products with the
 * weights placed at the channels' bytes (weight 0 elsewhere). Every weight is
 * positive and below 2^16, and color_coeffs.h's rows sum to at most 65536 with
 * YOFF <= 16, so the sum lies in [0, 2^24): clamp8(rshift_r(..)) is byte 2. */
struct rgb_k {
  u32 wlo, whi; /* u16 weights of bytes 0, 1 and of bytes 2, 3 */
  u32 yadd;
};

__device__ __forceinline__ rgb_k mk_rgb_k(const cc_coef &a) {
  u32 w[4];
#pragma unroll
  for (u32 p = 0; p < 4; p++)
    w[p] = p == a.rsel ? (u32)a.yr : p == a.gsel ? (u32)a.yg : p == a.bsel ? (u32)a.yb : 0u;
  rgb_k k;
  k.wlo = w[0] | (w[1] << 16);
  k.whi = w[2] | (w[3] << 16);
  k.yadd = (u32)a.yadd;
  return k;
}

__device__ __forceinline__ u32 rgb_y(const rgb_k &k, u32 px) {
  return __dp2a_lo(k.wlo, px, __dp2a_hi(k.whi, px, k.yadd));
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

/* The RGB8 staging buffer: 384 bytes per warp and row, one per kernel
 * (both FAST instantiations of a kernel share it). */
template <int ROWS>
__device__ __forceinline__ u32 (*cc_stage())[ROWS][96] {
  __shared__ __align__(16) u32 stage[CC_WARPS][ROWS][96];
  return stage;
}

/* FAST: every lane of the warp converts 4 pixels with vector accesses
 * (args.vec set and the warp's 128 pixels inside the image), so the loads
 * and stores need no byte path and no per-lane tests. */
template <int S, int D, bool FAST, int NB>
__device__ __forceinline__ void cc_body(const cc_args<NB> &a) {
  constexpr int ROWS = (S == S_SP420 || S == S_P420 || D == D_SP420 || D == D_P420) ? 2 : 1;
  constexpr bool ALPHA = D == D_C4;
  constexpr bool YUV = S == S_SP420 || S == S_P420 || S == S_P422;
  constexpr bool RGBSRC = S == S_C3 || S == S_C4;
  constexpr int SBPP = S == S_P422 ? 2 : S == S_C3 ? 3 : S == S_C4 ? 4 : 1; /* plane 0 */
  constexpr int DBPP = D == D_C3 ? 3 : D == D_C4 ? 4 : 1;
  const int lane = threadIdx.x;
  const u32 wx0 = blockIdx.x * 128u; /* the warp's first pixel */
  const u32 x0 = wx0 + 4u * lane;    /* this thread's first pixel */
  const int n = FAST ? 4 : x0 < (u32)a.width ? min(4, a.width - (int)x0) : 0;
  const bool vec = FAST || a.vec != 0;
  const int nrows = a.height / ROWS; /* 4:2:0 heights are even */
  int ry = blockIdx.y * CC_WARPS + threadIdx.y;
  if (ry >= nrows) return; /* the whole warp: ry is the same in every lane */

  /* Per plane the thread's column (set up once) plus row * pitch per row:
   * one wide multiply-add per pointer and row, no per-row index math. */
  const int rstep = gridDim.y * CC_WARPS; /* row groups per iteration */
  const cc_planes &im = a.img[NB == 1 ? 0 : blockIdx.z];
  const u64 sp0 = im.spitch[0], dp0 = im.dpitch[0];
  const u8 *const s0c = im.src[0] + (u64)x0 * SBPP;
  const u8 *const s1c = S == S_SP420 ? im.src[1] + x0 : S == S_P420 ? im.src[1] + (x0 >> 1) : nullptr;
  const u8 *const s2c = S == S_P420 ? im.src[2] + (x0 >> 1) : nullptr;
  u8 *const d0c = im.dst[0] + (u64)x0 * DBPP;
  u8 *const d1c = D == D_SP420 ? im.dst[1] + x0 : D == D_P420 ? im.dst[1] + (x0 >> 1) : nullptr;
  u8 *const d2c = D == D_P420 ? im.dst[2] + (x0 >> 1) : nullptr;

  yuv_k yk;
  if constexpr (YUV && D != D_G) yk = mk_yuv_k(a);
  rgb_k rk;
  if constexpr (RGBSRC && (D == D_G || D == D_SP420 || D == D_P420)) rk = mk_rgb_k(a);
  /* source chroma selectors (NV12/NV21 pairs, YUYV/UYVY words) */
  const u32 usel = 0x4440u | (u32)a.uoff, vsel = 0x4440u | (u32)a.voff;
  const u32 ysel = 0x4440u | (u32)a.yoff;
  /* 2x2 sums of a 4:2:0 destination: dp4a with a one-hot byte selector */
  const u32 rone = 1u << (8 * a.rsel), gone = 1u << (8 * a.gsel), bone = 1u << (8 * a.bsel);
  /* FAST RGB8 rows go through shared memory and out as 24 lanes x 16 bytes
   * where the rows are 16-byte aligned (wx0 * 3 is a multiple of 384), else
   * as 32 lanes x 3 words */
  const bool al16 = (((unsigned long long)im.dst[0] | dp0) & 15u) == 0;

  for (; ry < nrows; ry += rstep) {
    const u8 *const s0 = s0c + (u64)(ry * ROWS) * sp0;
    u8 *const d0 = d0c + (u64)(ry * ROWS) * dp0;
    const u8 *s1 = nullptr, *s2 = nullptr;
    u8 *d1 = nullptr, *d2 = nullptr;
    if constexpr (S == S_SP420 || S == S_P420) s1 = s1c + (u64)ry * im.spitch[1];
    if constexpr (S == S_P420) s2 = s2c + (u64)ry * im.spitch[2];
    if constexpr (D == D_SP420 || D == D_P420) d1 = d1c + (u64)ry * im.dpitch[1];
    if constexpr (D == D_P420) d2 = d2c + (u64)ry * im.dpitch[2];
    /* destination pixel words (C4, C3), or Q16 values whose byte 2 is the grey/luma result (G, 4:2:0) */
    u32 d[ROWS][4];
    u32 sr[2] = {0, 0}, sg[2] = {0, 0}, sb[2] = {0, 0}; /* 2x2 sums for a 4:2:0 destination */
#pragma unroll
    for (int r = 0; r < ROWS; r++)
#pragma unroll
      for (int i = 0; i < 4; i++) d[r][i] = 0;

    if (n > 0) {
      if constexpr (S == S_SP420 || S == S_P420) {
        u32 yw[2], cw[2];
        ld<4>(s0, n, vec, &yw[0]);
        ld<4>(s0 + sp0, n, vec, &yw[1]);
        int u[2], v[2];
        if constexpr (S == S_SP420) {
          ld<4>(s1, n, vec, cw);
          u[0] = (int)__byte_perm(cw[0], 0, usel);
          v[0] = (int)__byte_perm(cw[0], 0, vsel);
          u[1] = (int)__byte_perm(cw[0], 0, usel + 2);
          v[1] = (int)__byte_perm(cw[0], 0, vsel + 2);
        } else {
          ld<2>(s1, n >> 1, vec, &cw[0]);
          ld<2>(s2, n >> 1, vec, &cw[1]);
          u[0] = byte_i<0>(cw[0]);
          u[1] = byte_i<1>(cw[0]);
          v[0] = byte_i<0>(cw[1]);
          v[1] = byte_i<1>(cw[1]);
        }
        const chroma c0 = mk_chroma(yk, u[0], v[0]), c1 = mk_chroma(yk, u[1], v[1]);
#pragma unroll
        for (int r = 0; r < 2; r++) {
          d[r][0] = yuv_word<ALPHA>(yk, byte_i<0>(yw[r]), c0);
          d[r][1] = yuv_word<ALPHA>(yk, byte_i<1>(yw[r]), c0);
          d[r][2] = yuv_word<ALPHA>(yk, byte_i<2>(yw[r]), c1);
          d[r][3] = yuv_word<ALPHA>(yk, byte_i<3>(yw[r]), c1);
        }
      } else if constexpr (S == S_Y420) {
        u32 yw;
        ld<4>(s0, n, vec, &yw);
        d[0][0] = luma_gray(a, byte_i<0>(yw));
        d[0][1] = luma_gray(a, byte_i<1>(yw));
        d[0][2] = luma_gray(a, byte_i<2>(yw));
        d[0][3] = luma_gray(a, byte_i<3>(yw));
      } else if constexpr (S == S_P422) {
        u32 pw[2];
        ld<8>(s0, 2 * n, vec, pw);
#pragma unroll
        for (int h = 0; h < 2; h++) {
          const int y0 = (int)__byte_perm(pw[h], 0, ysel), y1 = (int)__byte_perm(pw[h], 0, ysel + 2);
          if constexpr (D == D_G) {
            d[0][2 * h] = luma_gray(a, y0);
            d[0][2 * h + 1] = luma_gray(a, y1);
          } else {
            const chroma c =
                mk_chroma(yk, (int)__byte_perm(pw[h], 0, usel), (int)__byte_perm(pw[h], 0, vsel));
            d[0][2 * h] = yuv_word<ALPHA>(yk, y0, c);
            d[0][2 * h + 1] = yuv_word<ALPHA>(yk, y1, c);
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
            ld<12>(s0 + r * sp0, 3 * n, vec, raw);
            unpack3(raw, px);
          } else {
            ld<16>(s0 + r * sp0, 4 * n, vec, px);
          }
#pragma unroll
          for (int i = 0; i < 4; i++) {
            if constexpr (D == D_C4 || D == D_C3) {
              d[r][i] = __byte_perm(px[i], 0xFFFFFFFFu, a.sel);
            } else {
              d[r][i] = rgb_y(rk, px[i]);
              if constexpr (D == D_SP420 || D == D_P420) {
                sr[i >> 1] = __dp4a(px[i], rone, sr[i >> 1]);
                sg[i >> 1] = __dp4a(px[i], gone, sg[i >> 1]);
                sb[i >> 1] = __dp4a(px[i], bone, sb[i >> 1]);
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
      u32(*sw)[96] = cc_stage<ROWS>()[threadIdx.y];
      if constexpr (FAST) {
        /* every lane holds 4 pixels: stage the warp's 384 bytes per row, then
         * store them as consecutive words */
#pragma unroll
        for (int r = 0; r < ROWS; r++)
#pragma unroll
          for (int k = 0; k < 3; k++) sw[r][3 * lane + k] = o[r][k];
        __syncwarp();
        u8 *drow = d0 - 12 * lane; /* the warp's first pixel */
        if (al16) {
          if (lane < 24)
#pragma unroll
            for (int r = 0; r < ROWS; r++)
              ((uint4 *)(drow + r * dp0))[lane] = ((const uint4 *)sw[r])[lane];
        } else {
#pragma unroll
          for (int r = 0; r < ROWS; r++)
#pragma unroll
            for (int k = 0; k < 3; k++) ((u32 *)(drow + r * dp0))[lane + 32 * k] = sw[r][lane + 32 * k];
        }
        __syncwarp();
      } else if (vec) {
        /* the last warp of a row: stage its full groups (a prefix of its lanes)
         * and store them as consecutive words; a partial last group stores
         * its own bytes */
        const int nfull = min(32, max(0, (a.width - (int)wx0) >> 2));
#pragma unroll
        for (int r = 0; r < ROWS; r++)
          if (n == 4)
#pragma unroll
            for (int k = 0; k < 3; k++) sw[r][3 * lane + k] = o[r][k];
        __syncwarp();
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
          u32 *drow = (u32 *)(d0 - 12 * lane + r * dp0);
#pragma unroll
          for (int k = 0; k < 3; k++) {
            const int idx = lane + 32 * k;
            if (idx < 3 * nfull) drow[idx] = sw[r][idx];
          }
          if (n > 0 && n < 4) st<12>(d0 + r * dp0, 3 * n, false, o[r]);
        }
        __syncwarp();
      } else if (n > 0) {
#pragma unroll
        for (int r = 0; r < ROWS; r++) st<12>(d0 + r * dp0, 3 * n, false, o[r]);
      }
    } else if (n > 0) {
      if constexpr (D == D_C4) {
#pragma unroll
        for (int r = 0; r < ROWS; r++) st<16>(d0 + r * dp0, 4 * n, vec, d[r]);
      } else {
        /* G, or the Y plane of a 4:2:0 destination */
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
          const u32 g = pack_b2(d[r][0], d[r][1], d[r][2], d[r][3]);
          st<4>(d0 + r * dp0, n, vec, &g);
        }
        if constexpr (D == D_SP420 || D == D_P420) {
          u32 u[2], v[2];
#pragma unroll
          for (int j = 0; j < 2; j++) {
            u[j] = uv_of((int)sr[j], (int)sg[j], (int)sb[j], a.ur, a.ug, a.ub, a.uvadd);
            v[j] = uv_of((int)sr[j], (int)sg[j], (int)sb[j], a.vr, a.vg, a.vb, a.uvadd);
          }
          if constexpr (D == D_SP420) {
            const u32 w = u[0] | (v[0] << 8) | (u[1] << 16) | (v[1] << 24);
            st<4>(d1, n, vec, &w);
          } else {
            const u32 uw = u[0] | (u[1] << 8), vw = v[0] | (v[1] << 8);
            st<2>(d1, n >> 1, vec, &uw);
            st<2>(d2, n >> 1, vec, &vw);
          }
        }
      }
    }
  }
}

/* GRAY8 from a packed source (the Y plane of a 4:2:0 image, YUYV/UYVY,
 * RGB8, RGBA8) with plane 0 rows 16-byte aligned on both sides (the
 * launcher's test): 16 pixels a thread, SBPP 16-byte loads and one 16-byte
 * store per row instead of cc_body's 4 pixels and 4-byte accesses; warps of
 * 512 pixels, FAST where all of them lie inside the image. The same
 * integers as cc_body (luma_gray, rgb_y); a row's last partial chunk moves
 * bytes (ld, st). */
template <int S, bool FAST, int NB>
__device__ __forceinline__ void cc_gray16(const cc_args<NB> &a) {
  constexpr int SBPP = S == S_P422 ? 2 : S == S_C3 ? 3 : S == S_C4 ? 4 : 1; /* 16-byte loads a row */
  const int lane = threadIdx.x;
  const u32 x0 = blockIdx.x * 512u + 16u * lane; /* this thread's first pixel */
  const int n = FAST ? 16 : x0 < (u32)a.width ? min(16, a.width - (int)x0) : 0;
  int ry = blockIdx.y * CC_WARPS + threadIdx.y;
  if (n <= 0 || ry >= a.height) return;
  const int rstep = gridDim.y * CC_WARPS;
  const cc_planes &im = a.img[NB == 1 ? 0 : blockIdx.z];
  const u64 sp0 = im.spitch[0], dp0 = im.dpitch[0];
  const u8 *const s0c = im.src[0] + (u64)x0 * SBPP;
  u8 *const d0c = im.dst[0] + x0;
  rgb_k rk;
  if constexpr (S == S_C3 || S == S_C4) rk = mk_rgb_k(a);
  const u32 ysel = 0x4440u | (u32)a.yoff;
  for (; ry < a.height; ry += rstep) {
    const u8 *const s0 = s0c + (u64)ry * sp0;
    u32 w[4 * SBPP];
#pragma unroll
    for (int k = 0; k < SBPP; k++)
      ld<16>(s0 + 16 * k, FAST ? 16 : min(16, max(0, SBPP * n - 16 * k)), true, &w[4 * k]);
    u32 o[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      u32 g[4];
      if constexpr (S == S_Y420) {
        g[0] = luma_gray(a, byte_i<0>(w[j]));
        g[1] = luma_gray(a, byte_i<1>(w[j]));
        g[2] = luma_gray(a, byte_i<2>(w[j]));
        g[3] = luma_gray(a, byte_i<3>(w[j]));
      } else if constexpr (S == S_P422) {
#pragma unroll
        for (int i = 0; i < 4; i++)
          g[i] = luma_gray(a, (int)__byte_perm(w[2 * j + i / 2], 0, ysel + 2 * (i & 1)));
      } else if constexpr (S == S_C3) {
        u32 px[4];
        unpack3(&w[3 * j], px);
#pragma unroll
        for (int i = 0; i < 4; i++) g[i] = rgb_y(rk, px[i]);
      } else {
#pragma unroll
        for (int i = 0; i < 4; i++) g[i] = rgb_y(rk, w[4 * j + i]);
      }
      o[j] = pack_b2(g[0], g[1], g[2], g[3]);
    }
    st<16>(d0c + (u64)ry * dp0, n, true, o);
  }
}

/* RGBA8 sources get 40 registers: the 64 bytes of a row in flight spilled
 * at 32 */
#define CC_G16_ENTRY(name, S, NB)                                                                     \
  extern "C" __global__ void __maxnreg__(S == S_C4 ? 40 : CC_MAX_REGS) name(const cc_args<NB> a) { \
    jet_pdl_enter();                                                                                \
    if (blockIdx.x * 512u + 512u <= (unsigned)a.width)                                              \
      cc_gray16<S, true>(a);                                                                        \
    else                                                                                            \
      cc_gray16<S, false>(a);                                                                       \
  }

#define CC_ENTRY(name, S, D, NB)                                                    \
  extern "C" __global__ void __maxnreg__(CC_MAX_REGS) name(const cc_args<NB> a) { \
    jet_pdl_enter();                                                                \
    if (a.vec && blockIdx.x * 128u + 128u <= (unsigned)a.width)                      \
      cc_body<S, D, true>(a);                                                       \
    else                                                                            \
      cc_body<S, D, false>(a);                                                      \
  }
/* Compact builds and the PTX fallback image (JET_IMAGE_PTX) have the batch
 * entries alone; lib/image/image.c then launches those for single pairs. */
#if defined(JET_COMPACT_KERNELS) || defined(JET_IMAGE_PTX)
#define CC_KERNEL(name, S, D) CC_ENTRY(name, S, D, CC_BATCH)
#else
#define CC_KERNEL(name, S, D) CC_ENTRY(name, S, D, CC_BATCH) CC_ENTRY(name##_1, S, D, 1)
#endif
/* The 16-pixel GRAY8 kernels: not in compact builds (the launcher keeps
 * the 4-pixel ones there) */
#if defined(JET_COMPACT_KERNELS)
#define CC_G16_KERNEL(name, S)
#elif defined(JET_IMAGE_PTX)
#define CC_G16_KERNEL(name, S) CC_G16_ENTRY(name, S, CC_BATCH)
#else
#define CC_G16_KERNEL(name, S) CC_G16_ENTRY(name, S, CC_BATCH) CC_G16_ENTRY(name##_1, S, 1)
#endif

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
CC_G16_KERNEL(jet_cc_y420_g16, S_Y420)
CC_G16_KERNEL(jet_cc_p422_g16, S_P422)
CC_G16_KERNEL(jet_cc_c3_g16, S_C3)
CC_G16_KERNEL(jet_cc_c4_g16, S_C4)
