/* The lane-width rule of the 2D copy and fill kernels (jet__copy2d_lanes);
 * host-only. */
#include "test.h"
#include "../../lib/memory/memory_internal.h"

static unsigned long long idle(unsigned long long nv, unsigned lanes) {
  return (nv + lanes - 1) / lanes * lanes - nv;
}

/* Worked by hand: 3840 RGBA8 pixels (960 16-byte vectors) fill 15 blocks of
 * 64; 2560 (640) fill 5 of 128; 1280 GRAY8 bytes (80 vectors) 5 of 16; whole
 * multiples of 256 keep 256; one vector leaves 15 of 16 lanes idle, the least
 * possible. 1000 vectors leave 24 idle at 256 and at 128 (and 8 at 16): 16. */
TEST(copy2d_lanes_worked) {
  CHECK(jet__copy2d_lanes(960) == 64);
  CHECK(jet__copy2d_lanes(640) == 128);
  CHECK(jet__copy2d_lanes(80) == 16);
  CHECK(jet__copy2d_lanes(4096) == 256);
  CHECK(jet__copy2d_lanes(1) == 16);
  CHECK(jet__copy2d_lanes(1000) == 16);
  CHECK(jet__copy2d_lanes(1024 + 64) == 64);
  return 0;
}

/* Over a sweep of row widths: a power of two in 16..256, the fewest idle
 * lanes, the widest among equals. */
TEST(copy2d_lanes_fewest_idle_widest) {
  for (unsigned long long nv = 1; nv <= 5000; nv += (nv < 600 ? 1 : 7)) {
    unsigned b = jet__copy2d_lanes(nv);
    CHECK(b == 16 || b == 32 || b == 64 || b == 128 || b == 256);
    for (unsigned o = 16; o <= 256; o *= 2) {
      CHECK(idle(nv, o) >= idle(nv, b));
      if (o > b) CHECK(idle(nv, o) > idle(nv, b));
    }
  }
  CHECK(jet__copy2d_lanes(0x7fffffffull * 256) == 256);
  return 0;
}
