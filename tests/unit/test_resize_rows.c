/* The rows-per-thread rule of the bilinear enlarging walks
 * (jet__resize_rows_for), and the odd-factor test that lets 8-bit bilinear
 * and DNN preprocess read one tap row (jet__centres_on_source); host-only. */
#include "test.h"
#include "../../lib/image/image_internal.h"
#include "../ref/ref_image.h"

static unsigned long long waves_cost(unsigned long long tx, int dh, int row_mul, int rows, int count,
                                     unsigned long long slots, int prologue) {
  unsigned long long th = (unsigned long long)row_mul * (unsigned)rows;
  unsigned long long blocks = tx * ((dh + th - 1) / th) * (unsigned)count;
  return (blocks + slots - 1) / slots * (unsigned long long)(rows + prologue);
}

/* Worked by hand: GRAY8 bilinear x2 to 7680x4320 on 132 SMs with 4 blocks
 * each (tiles 1024 wide, so 8 across). 32 rows: 1080 blocks, 3 waves (the
 * third of 24 blocks), cost 108; 22 rows: 1576 blocks, 3 full-ish waves,
 * cost 78, the least. A 2560x1440 destination (3 tiles across) fits one
 * wave from 9 rows on (480 blocks; 8 rows: 540, two waves). */
TEST(resize_rows_whole_waves) {
  CHECK(jet__resize_rows_for(8, 4320, 1, 32, 1, 528, 4) == 22);
  CHECK(jet__resize_rows_for(3, 1440, 1, 32, 1, 528, 4) == 9);
  CHECK(jet__resize_rows_for(8, 4320, 1, 1, 1, 528, 4) == 1);
  /* four cameras: four times the blocks, so fewer waves fit and rows grow */
  CHECK(jet__resize_rows_for(3, 1440, 1, 32, 4, 528, 4) > 9);
  return 0;
}

/* Over a sweep of shapes: the least cost, and the most rows among equals. */
TEST(resize_rows_least_cost_most_rows) {
  static const int dhs[] = {1, 7, 240, 541, 1081, 2160, 4320, 65535};
  static const unsigned long long txs[] = {1, 3, 8, 61};
  static const unsigned long long slots[] = {1, 132, 396, 528, 1056};
  for (size_t a = 0; a < sizeof dhs / sizeof dhs[0]; a++)
    for (size_t b = 0; b < sizeof txs / sizeof txs[0]; b++)
      for (size_t c = 0; c < sizeof slots / sizeof slots[0]; c++)
        for (int count = 1; count <= 16; count *= 4)
          for (int mul = 1; mul <= 8; mul *= 8) {
            const int max = mul == 1 ? 32 : 4, pro = mul == 1 ? 4 : 1;
            int r = jet__resize_rows_for(txs[b], dhs[a], mul, max, count, slots[c], pro);
            CHECK(r >= 1 && r <= max);
            unsigned long long best = waves_cost(txs[b], dhs[a], mul, r, count, slots[c], pro);
            for (int o = 1; o <= max; o++) {
              unsigned long long k = waves_cost(txs[b], dhs[a], mul, o, count, slots[c], pro);
              CHECK(k >= best);
              if (o > r) CHECK(k > best);
            }
          }
  return 0;
}

/* Where jet__centres_on_source holds, the reference's coordinates give every
 * destination pixel weight 0 on its second tap (the kernels then skip that
 * tap); hand-picked axes of the sweep: 1080 -> 360 (k = 3) holds, 1440 ->
 * 360 (k = 4) and 1080 -> 640 do not. */
TEST(resize_centres_on_source) {
  CHECK(jet__centres_on_source(1080, 360));
  CHECK(jet__centres_on_source(1920, 640));
  CHECK(jet__centres_on_source(7, 7));
  CHECK(jet__centres_on_source(5, 1));
  CHECK(!jet__centres_on_source(1440, 360));
  CHECK(!jet__centres_on_source(1080, 640));
  CHECK(!jet__centres_on_source(720, 360));
  CHECK(!jet__centres_on_source(1, 2));
  int held = 0;
  for (int dn = 1; dn <= 40; dn++)
    for (int sn = 1; sn <= 200; sn++) {
      if (!jet__centres_on_source(sn, dn)) continue;
      held++;
      for (int d = 0; d < dn; d++) {
        int s0, s1, frac;
        ref_resize_coord(d, dn, sn, &s0, &s1, &frac);
        CHECK_MSG(frac == 0, "sn %d dn %d d %d: fraction %d", sn, dn, d, frac);
      }
    }
  CHECK(held > 100); /* the sweep met many odd factors */
  return 0;
}
