/*
 * Source coordinates shared by resize.cu and dnn.cu (the build inlines
 * this file into their NVRTC sources). Include after color_coeffs.h and after
 * `typedef unsigned int u32;`.
 */
#ifndef JET_RESIZE_COORD_CUH
#define JET_RESIZE_COORD_CUH

/* color_coeffs.h: bilinear source index and Q11 fraction of destination d.
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

/* n / d, exactly, for n < 2^32 and d >= 2 with inv = floor(2^32 / d): the
 * estimate umulhi(n, inv) is q or q - 1 (inv > 2^32/d - 1 and n < 2^32), so
 * one correction step gives q; a few instructions instead of a division.
 * d = 1 takes inv = 2^32 - 1 (the host's jet__div_inv_recip): the estimate
 * is n - 1 for n >= 1, 0 for n = 0, and the step gives n. */
__device__ __forceinline__ u32 div_inv(u32 n, u32 d, u32 inv) {
  const u32 q = __umulhi(n, inv);
  return q + (n - q * d >= d ? 1u : 0u);
}

/* The tile (@col, @row) of block @b of a 1-D grid in row-major tile order,
 * @tiles tiles across, @inv their div_inv reciprocal. */
__device__ __forceinline__ void grid_tile(u32 b, u32 tiles, u32 inv, u32 &col, u32 &row) {
  row = div_inv(b, tiles, inv);
  col = b - row * tiles;
}

/* lin_coord of an axis where it fits 32 bits, with inv = floor(2^32 /
 * (2 * dn)): (2d+1)*sn < 2*dn*sn < 2^32, so n is a 32-bit difference and its
 * two divisions by 2 * dn are div_inv (same integers). */
__device__ __forceinline__ void lin_coord_inv(int d, int dn, int sn, u32 inv, int &s0, int &frac) {
  const u32 a = (2u * (u32)d + 1u) * (u32)sn, ud = 2u * (u32)dn;
  u32 x0 = 0, ax = 0;
  if (a > (u32)dn) {
    const u32 un = a - (u32)dn;
    x0 = div_inv(un, ud, inv);
    ax = div_inv((un - x0 * ud) << JET_RESIZE_FRAC_BITS, ud, inv);
  }
  if (x0 >= (u32)sn - 1u) {
    x0 = (u32)sn - 1u;
    ax = 0;
  }
  s0 = (int)x0;
  frac = (int)ax;
}

/* 32-bit coordinate arithmetic suffices for an axis of dn destination and sn
 * source pixels: 2*dn*sn < 2^32 and (2*dn) << FRAC < 2^32. */
__device__ __forceinline__ bool coord_fit32(int dn, int sn) {
  return (unsigned long long)(2u * (u32)dn) * (u32)sn < (1ull << 32) &&
         dn < (1 << (31 - JET_RESIZE_FRAC_BITS));
}

#endif
