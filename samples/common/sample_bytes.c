/* The byte counts of the benchmark samples (sample_bytes.h). */
#include <string.h>

#include "sample_bytes.h"

long jet_sample_rows_sampled(jet_interp interp, int dn, int sn, unsigned char *used) {
  memset(used, 0, (size_t)sn);
  for (int d = 0; d < dn; d++) {
    if (interp == JET_INTERP_NEAREST) {
      used[((2LL * d + 1) * sn) / (2LL * dn)] = 1;
    } else if (interp == JET_INTERP_AREA) {
      long long lo = (long long)d * sn, hi = (long long)(d + 1) * sn;
      for (long long i = lo / dn; i * dn < hi && i < sn; i++) used[i] = 1;
    } else { /* bilinear: both taps, unless a weight is zero */
      long long n = (2LL * d + 1) * sn - dn, den = 2LL * dn, x0 = 0, ax = 0;
      if (n > 0) {
        x0 = n / den;
        ax = n % den;
      }
      if (x0 >= sn - 1) {
        x0 = sn - 1;
        ax = 0;
      }
      used[x0] = 1;
      if (ax) used[x0 + 1] = 1;
    }
  }
  long c = 0;
  for (int i = 0; i < sn; i++) c += used[i];
  return c;
}
