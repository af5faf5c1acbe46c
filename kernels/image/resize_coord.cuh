/*
 * Bilinear source coordinates shared by resize.cu and dnn.cu (the build inlines
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

/* 32-bit coordinate arithmetic suffices for an axis of dn destination and sn
 * source pixels: 2*dn*sn < 2^32 and (2*dn) << FRAC < 2^32. */
__device__ __forceinline__ bool coord_fit32(int dn, int sn) {
  return (unsigned long long)(2u * (u32)dn) * (u32)sn < (1ull << 32) &&
         dn < (1 << (31 - JET_RESIZE_FRAC_BITS));
}

#endif
