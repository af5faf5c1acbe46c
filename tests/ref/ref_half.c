/* IEEE 754 binary16 conversions and the half-precision DNN reference, by
 * integer arithmetic on the bit patterns (no compiler half type needed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_image.h"

uint16_t ref_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 255) return (uint16_t)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0u));
  if (e == 0) return sign; /* float zero or subnormal: below 2^-126, rounds to 0 */
  int ex = (int)e - 127;   /* value = mant * 2^(ex - 23), mant of 24 bits */
  if (ex > 15) return (uint16_t)(sign | 0x7c00u);
  uint32_t mant = m | 0x800000u;
  /* the half's unit in the last place is 2^(ex - 10), or 2^-24 for subnormals:
   * mant shifted right by s counts those units */
  int s = ex >= -14 ? 13 : -1 - ex;
  if (s > 25) return sign; /* below half of 2^-24 */
  uint32_t r = mant >> s, rem = mant & ((1u << s) - 1u), half = 1u << (s - 1);
  if (rem > half || (rem == half && (r & 1u))) r++;
  /* normal: r holds the implicit 1 (1024..2048), a carry to 2048 moves the
   * exponent up (to infinity past 65504); subnormal: r is the bit pattern
   * (1024 is the smallest normal) */
  uint32_t bits = ex >= -14 ? ((uint32_t)(ex + 14) << 10) + r : r;
  return (uint16_t)(sign | bits);
}

float ref_f16_to_f32(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return (float)((h & 0x8000u) ? -v : v);
}

double ref_f16_ulp(double x) {
  int e = 0;
  (void)frexp(fabs(x), &e); /* |x| in [2^(e-1), 2^e) */
  if (x == 0 || e - 1 < -14) return ldexp(1.0, -24);
  return ldexp(1.0, e - 1 - 10);
}

int ref_image_f32_to_f16(const ref_image *src, ref_image *dst) {
  if (src->format != JET_FORMAT_RGBF32P || dst->format != JET_FORMAT_RGBF16P ||
      src->width != dst->width || src->height != dst->height)
    return -1;
  for (int i = 0; i < 3; i++)
    for (int y = 0; y < src->height; y++) {
      const float *a = (const float *)(src->data[i] + src->pitch[i] * (size_t)y);
      uint16_t *b = (uint16_t *)(dst->data[i] + dst->pitch[i] * (size_t)y);
      for (int x = 0; x < src->width; x++) b[x] = ref_f32_to_f16(a[x]);
    }
  return 0;
}

int ref_dnn_preprocess_f16(const ref_image *src, ref_image *dst, const ref_dnn_params *p) {
  if (dst->format != JET_FORMAT_RGBF16P) return -1;
  ref_image f;
  if (ref_image_alloc(&f, JET_FORMAT_RGBF32P, dst->width, dst->height, 0) != 0) return -1;
  int rc = ref_dnn_preprocess(src, &f, p);
  if (rc == 0) rc = ref_image_f32_to_f16(&f, dst);
  ref_image_free(&f);
  return rc;
}
