/*
 * dnn: NV12 or RGBA8 -> planar float RGB (CHW) in one pass: bilinear resize
 * into the (letterboxed) content rectangle, YUV -> RGB of each tap, per-channel
 * normalisation, padding outside the rectangle (tests/ref/ref_image.h).
 *
 * A block of 32 x 8 threads writes 32 columns by 32 rows, one pixel per
 * thread in 4 rows 8 apart; the per-column and per-row bilinear coordinates
 * are computed once per block into shared memory. A warp stores 128
 * contiguous bytes to each of the three planes.
 */
#include "color_coeffs.h"
#include "resize_params.h"

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#define TX JET_RS_TX
#define TY JET_RS_TY
#define ROWS JET_RS_ROWS
#define TH (TY * ROWS)

/* color_coeffs.h: bilinear source index and Q11 fraction of destination d. */
__device__ __forceinline__ void lin_coord(int d, int dn, int sn, int &s0, int &frac) {
  long long n = (2LL * d + 1) * sn - dn, den = 2LL * dn;
  long long x0 = 0, ax = 0;
  if (n > 0) {
    x0 = n / den;
    ax = ((n % den) << JET_RESIZE_FRAC_BITS) / den;
  }
  if (x0 >= sn - 1) {
    x0 = sn - 1;
    ax = 0;
  }
  s0 = (int)x0;
  frac = (int)ax;
}

__device__ __forceinline__ u32 rshift16_clamp8(int a) {
  int t = a + JET_CC_HALF;
  t = t < 0 ? 0 : t >> JET_CC_SHIFT;
  return (u32)(t > 255 ? 255 : t);
}

/* The 8-bit R, G, B of source pixel (x, y). */
template <bool NV12, bool VEC>
__device__ __forceinline__ void rgb_at(const jet__dnn_params &p, int x, int y, u32 *rgb) {
  if (NV12) {
    int Y = __ldg(p.src0 + (u64)y * p.src0_pitch + x);
    const u8 *uv = p.src1 + (u64)(y >> 1) * p.src1_pitch + (u64)(x >> 1) * 2;
    int uu = (int)__ldg(uv) - 128, vv = (int)__ldg(uv + 1) - 128;
    int yy = p.cy * (Y - p.yoff);
    rgb[0] = rshift16_clamp8(yy + p.crv * vv);
    rgb[1] = rshift16_clamp8(yy - p.cgu * uu - p.cgv * vv);
    rgb[2] = rshift16_clamp8(yy + p.cbu * uu);
  } else {
    const u8 *row = p.src0 + (u64)y * p.src0_pitch;
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

template <bool NV12, bool VEC>
__device__ __forceinline__ void dnn(const jet__dnn_params &p) {
  __shared__ int xs[TX], xa[TX], ys[TH], ya[TH];
  const int tiles_x = (p.dw + TX - 1) / TX;
  const int bx = (int)(blockIdx.x % (unsigned)tiles_x) * TX;
  const int by = (int)(blockIdx.x / (unsigned)tiles_x) * TH;
  const int tid = threadIdx.y * TX + threadIdx.x;
  /* -1 marks columns and rows outside the content rectangle */
  for (int i = tid; i < TX + TH; i += TX * TY) {
    int col = i < TX;
    int d = col ? bx + i : by + (i - TX);
    int dn = col ? p.dw : p.dh, o = col ? p.ox : p.oy, cn = col ? p.cw : p.ch;
    int sn = col ? p.sw : p.sh;
    if (d >= dn) continue;
    int s = -1, f = 0;
    if (d >= o && d < o + cn) lin_coord(d - o, cn, sn, s, f);
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
      rgb_at<NV12, VEC>(p, x0, y0, t00);
      rgb_at<NV12, VEC>(p, x1, y0, t01);
      rgb_at<NV12, VEC>(p, x0, y1, t10);
      rgb_at<NV12, VEC>(p, x1, y1, t11);
#pragma unroll
      for (int c = 0; c < 3; c++) {
        u32 s = (ONE - ay) * ((ONE - ax) * t00[c] + ax * t01[c]) +
                ay * ((ONE - ax) * t10[c] + ax * t11[c]);
        out[c] = __fmaf_rn(__uint2float_rn(s), p.scale[c], p.bias[c]);
      }
    }
#pragma unroll
    for (int c = 0; c < 3; c++) *((float *)((u8 *)p.dst[c] + (u64)y * p.dst_pitch[c]) + x) = out[c];
  }
}

/* The source path is chosen once per launch (uniform), not per tap. */
extern "C" __global__ void __launch_bounds__(TX * TY) jet_dnn_preprocess_kernel(jet__dnn_params p) {
  if (p.nv12)
    dnn<true, false>(p);
  else if (p.src_vec)
    dnn<false, true>(p);
  else
    dnn<false, false>(p);
}
