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
 * A block of 32 x 8 threads writes 32 columns by 32 rows, one pixel per
 * thread in 4 rows 8 apart; the per-column and per-row bilinear coordinates
 * are computed once per block into shared memory. A warp stores 128 (float)
 * or 64 (half) contiguous bytes to each of the three planes.
 */
#include "color_coeffs.h"
#include "dnn_params.h"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define TX JET_DNN_TX
#define TY JET_DNN_TY
#define ROWS JET_DNN_ROWS
#define TH (TY * ROWS)

/* color_coeffs.h: bilinear source index and Q11 fraction of destination d
 * (the rule of resize.cu's, kept here so the two modules change apart).
 * @fit32: 2*dn*sn and 2*dn << FRAC fit 32 bits (uniform per launch), so the
 * 64-bit divisions (a long software sequence) reduce to 32-bit ones. */
__device__ __forceinline__ void lin_coord(int d, int dn, int sn, bool fit32, int &s0, int &frac) {
  long long n = (2LL * d + 1) * sn - dn, den = 2LL * dn;
  long long x0 = 0, ax = 0;
  if (n > 0) {
    if (fit32) {
      u32 un = (u32)n, ud = (u32)den, q = un / ud;
      x0 = q;
      ax = ((un - q * ud) << JET_RESIZE_FRAC_BITS) / ud;
    } else {
      x0 = n / den;
      ax = ((n % den) << JET_RESIZE_FRAC_BITS) / den;
    }
  }
  if (x0 >= sn - 1) {
    x0 = sn - 1;
    ax = 0;
  }
  s0 = (int)x0;
  frac = (int)ax;
}

__device__ __forceinline__ u16 half_rn(float f) {
  u16 h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}

/* The three channel values of pixel (x, y), to planes R, G, B (as mapped). */
template <bool F16>
__device__ __forceinline__ void store3(const jet__dnn_image &im, int x, int y, const float *out) {
#pragma unroll
  for (int c = 0; c < 3; c++) {
    u8 *row = im.dst[c] + (u64)y * im.dst_pitch[c];
    if (F16)
      ((u16 *)row)[x] = half_rn(out[c]);
    else
      ((float *)row)[x] = out[c];
  }
}

__device__ __forceinline__ bool coord_fit32(int dn, int sn) {
  return (unsigned long long)(2u * (u32)dn) * (u32)sn < (1ull << 32) &&
         dn < (1 << (31 - JET_RESIZE_FRAC_BITS));
}

__device__ __forceinline__ u32 rshift16_clamp8(int a) {
  int t = a + JET_CC_HALF;
  t = t < 0 ? 0 : t >> JET_CC_SHIFT;
  return (u32)(t > 255 ? 255 : t);
}

/* The 8-bit R, G, B of source pixel (x, y). */
template <bool NV12, bool VEC>
__device__ __forceinline__ void rgb_at(const jet__dnn_kparams &p, const jet__dnn_image &im, int x, int y, u32 *rgb) {
  if (NV12) {
    int Y = __ldg(im.src0 + (u64)y * im.src0_pitch + x);
    const u8 *uv = im.src1 + (u64)(y >> 1) * im.src1_pitch + (u64)(x >> 1) * 2;
    int uu = (int)__ldg(uv) - 128, vv = (int)__ldg(uv + 1) - 128;
    int yy = p.cy * (Y - p.yoff);
    rgb[0] = rshift16_clamp8(yy + p.crv * vv);
    rgb[1] = rshift16_clamp8(yy - p.cgu * uu - p.cgv * vv);
    rgb[2] = rshift16_clamp8(yy + p.cbu * uu);
  } else {
    const u8 *row = im.src0 + (u64)y * im.src0_pitch;
    if (VEC) {
      u32 w = __ldg((const u32 *)row + x);
      rgb[0] = w & 255u;
      rgb[1] = (w >> 8) & 255u;
      rgb[2] = (w >> 16) & 255u;
    } else {
      const u8 *q = row + (u64)x * 4;
      rgb[0] = __ldg(q);
      rgb[1] = __ldg(q + 1);
      rgb[2] = __ldg(q + 2);
    }
  }
}

/* NV12 rows with the per-pixel work trimmed: the constant parts of the
 * YUV -> RGB rule (offsets, rounding half) are folded into three per-launch
 * constants, the chroma terms of a source row pair are computed once when
 * both rows share a chroma row (warp-uniform: a warp covers one output row),
 * U and V come in one 16-bit load where the chroma plane allows, and row and
 * column addresses are formed once. Integer results are those of rgb_at. */
struct chroma_t {
  int r, g, b;
};

__device__ __forceinline__ chroma_t chroma_at(const jet__dnn_kparams &p, const u8 *crow, int cx, bool uv16,
                                              int kr, int kg, int kb) {
  int u, v;
  if (uv16) {
    const u32 w = __ldg((const unsigned short *)crow + cx);
    u = (int)(w & 255u);
    v = (int)(w >> 8);
  } else {
    u = __ldg(crow + 2 * cx);
    v = __ldg(crow + 2 * cx + 1);
  }
  chroma_t c;
  c.r = p.crv * v + kr;
  c.g = kg - p.cgu * u - p.cgv * v;
  c.b = p.cbu * u + kb;
  return c;
}

/* clamp8((t) >> SHIFT) with t already holding the rounding half: an arithmetic
 * shift keeps negatives negative, so the clamp gives rshift16_clamp8's value */
__device__ __forceinline__ u32 clamp_shift(int t) { return (u32)min(max(t >> JET_CC_SHIFT, 0), 255); }

__device__ __forceinline__ void tap_rgb(int yy, const chroma_t &c, u32 *rgb) {
  rgb[0] = clamp_shift(yy + c.r);
  rgb[1] = clamp_shift(yy + c.g);
  rgb[2] = clamp_shift(yy + c.b);
}

template <bool F16>
__device__ __forceinline__ void dnn_nv12_rows(const jet__dnn_kparams &p, const jet__dnn_image &im, int x, int by, int x0, u32 ax,
                                              const int *ys, const int *ya) {
  const u32 ONE = JET_RESIZE_ONE;
  const int x1 = min(x0 + 1, p.sw - 1), cx0 = x0 >> 1, cx1 = x1 >> 1;
  const bool uv16 = (((unsigned long long)im.src1 | im.src1_pitch) & 1) == 0;
  const int k0 = JET_CC_HALF - p.cy * p.yoff;
  const int kr = k0 - 128 * p.crv, kg = k0 + 128 * (p.cgu + p.cgv), kb = k0 - 128 * p.cbu;
  const u32 wx = ONE - ax;
#pragma unroll 1
  for (int r = 0; r < ROWS; r++) {
    const int ly = threadIdx.y + r * TY, y = by + ly;
    if (y >= p.dh) break;
    const int y0 = ys[ly];
    float out[3];
    if (x0 < 0 || y0 < 0) {
      out[0] = p.pad[0];
      out[1] = p.pad[1];
      out[2] = p.pad[2];
    } else {
      const int y1 = min(y0 + 1, p.sh - 1);
      const u32 ay = (u32)ya[ly], wy = ONE - ay;
      const u8 *r0 = im.src0 + (u64)y0 * im.src0_pitch, *r1 = im.src0 + (u64)y1 * im.src0_pitch;
      const u8 *c0 = im.src1 + (u64)(y0 >> 1) * im.src1_pitch;
      const int Y00 = __ldg(r0 + x0), Y01 = __ldg(r0 + x1), Y10 = __ldg(r1 + x0), Y11 = __ldg(r1 + x1);
      const chroma_t a0 = chroma_at(p, c0, cx0, uv16, kr, kg, kb);
      const chroma_t b0 = chroma_at(p, c0, cx1, uv16, kr, kg, kb);
      chroma_t a1 = a0, b1 = b0;
      if ((y0 >> 1) != (y1 >> 1)) {
        const u8 *c1 = c0 + im.src1_pitch;
        a1 = chroma_at(p, c1, cx0, uv16, kr, kg, kb);
        b1 = chroma_at(p, c1, cx1, uv16, kr, kg, kb);
      }
      u32 t00[3], t01[3], t10[3], t11[3];
      tap_rgb(p.cy * Y00, a0, t00);
      tap_rgb(p.cy * Y01, b0, t01);
      tap_rgb(p.cy * Y10, a1, t10);
      tap_rgb(p.cy * Y11, b1, t11);
#pragma unroll
      for (int c = 0; c < 3; c++) {
        const u32 s = wy * (wx * t00[c] + ax * t01[c]) + ay * (wx * t10[c] + ax * t11[c]);
        out[c] = __fmaf_rn(__uint2float_rn(s), p.scale[c], p.bias[c]);
      }
    }
    store3<F16>(im, x, y, out);
  }
}

template <bool NV12, bool VEC, bool F16>
__device__ __forceinline__ void dnn(const jet__dnn_kparams &p, const jet__dnn_image &im) {
  __shared__ int xs[TX], xa[TX], ys[TH], ya[TH];
  const int tiles_x = (p.dw + TX - 1) / TX;
  const int bx = (int)(blockIdx.x % (unsigned)tiles_x) * TX;
  const int by = (int)(blockIdx.x / (unsigned)tiles_x) * TH;
  const int tid = threadIdx.y * TX + threadIdx.x;
  const bool fx32 = coord_fit32(p.cw, p.sw), fy32 = coord_fit32(p.ch, p.sh);
  /* -1 marks columns and rows outside the content rectangle */
  for (int i = tid; i < TX + TH; i += TX * TY) {
    int col = i < TX;
    int d = col ? bx + i : by + (i - TX);
    int dn = col ? p.dw : p.dh, o = col ? p.ox : p.oy, cn = col ? p.cw : p.ch;
    int sn = col ? p.sw : p.sh;
    if (d >= dn) continue;
    int s = -1, f = 0;
    if (d >= o && d < o + cn) lin_coord(d - o, cn, sn, col ? fx32 : fy32, s, f);
    if (col) {
      xs[i] = s;
      xa[i] = f;
    } else {
      ys[i - TX] = s;
      ya[i - TX] = f;
    }
  }
  __syncthreads();
  const int lx = threadIdx.x, x = bx + lx;
  if (x >= p.dw) return;
  const u32 ONE = JET_RESIZE_ONE;
  if constexpr (NV12) {
    dnn_nv12_rows<F16>(p, im, x, by, xs[lx], (u32)xa[lx], ys, ya);
  } else {
#pragma unroll 1
    for (int r = 0; r < ROWS; r++) {
      const int ly = threadIdx.y + r * TY, y = by + ly;
      if (y >= p.dh) break;
      const int x0 = xs[lx], y0 = ys[ly];
      float out[3];
      if (x0 < 0 || y0 < 0) {
        out[0] = p.pad[0];
        out[1] = p.pad[1];
        out[2] = p.pad[2];
      } else {
        const int x1 = min(x0 + 1, p.sw - 1), y1 = min(y0 + 1, p.sh - 1);
        const u32 ax = (u32)xa[lx], ay = (u32)ya[ly];
        u32 t00[3], t01[3], t10[3], t11[3];
        rgb_at<NV12, VEC>(p, im, x0, y0, t00);
        rgb_at<NV12, VEC>(p, im, x1, y0, t01);
        rgb_at<NV12, VEC>(p, im, x0, y1, t10);
        rgb_at<NV12, VEC>(p, im, x1, y1, t11);
#pragma unroll
        for (int c = 0; c < 3; c++) {
          u32 s = (ONE - ay) * ((ONE - ax) * t00[c] + ax * t01[c]) +
                  ay * ((ONE - ax) * t10[c] + ax * t11[c]);
          out[c] = __fmaf_rn(__uint2float_rn(s), p.scale[c], p.bias[c]);
        }
      }
      store3<F16>(im, x, y, out);
    }
  }
}

/* The source path is chosen once per launch (uniform), not per tap; the
 * output type by the kernel's name. */
template <bool F16>
__device__ __forceinline__ void dnn_launch(const jet__dnn_kparams &p) {
  const jet__dnn_image &im = p.img[blockIdx.z];
  if (p.nv12)
    dnn<true, false, F16>(p, im);
  else if (p.src_vec)
    dnn<false, true, F16>(p, im);
  else
    dnn<false, false, F16>(p, im);
}

extern "C" __global__ void __launch_bounds__(TX * TY) jet_dnn_preprocess_kernel(const __grid_constant__ jet__dnn_kparams p) {
  dnn_launch<false>(p);
}

extern "C" __global__ void __launch_bounds__(TX * TY) jet_dnn_preprocess_f16_kernel(const __grid_constant__ jet__dnn_kparams p) {
  dnn_launch<true>(p);
}
