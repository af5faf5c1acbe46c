/* The whole-waves rule of the bilinear enlarging walks and the 8-bit filter
 * tiles (jet__wave_rows), and the odd-factor test that lets 8-bit bilinear
 * and DNN preprocess read one tap row (jet__centres_on_source); host-only. */
#include "test.h"
#include "../../lib/image/image_internal.h"
#include "../../kernels/image/filter_params.h"
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
  CHECK(jet__wave_rows(8, 4320, 1, 1, 32, 1, 528, 4) == 22);
  CHECK(jet__wave_rows(3, 1440, 1, 1, 32, 1, 528, 4) == 9);
  CHECK(jet__wave_rows(8, 4320, 1, 1, 1, 1, 528, 4) == 1);
  /* four cameras: four times the blocks, so fewer waves fit and rows grow */
  CHECK(jet__wave_rows(3, 1440, 1, 1, 32, 4, 528, 4) > 9);
  return 0;
}

/* The 8-bit filters' tile heights (lib/image/filter.c) on an H100 (132 SMs,
 * 8 blocks each), worked by hand: 3840x2160 RGBA8 (120 tiles across) takes
 * 32 rows, 68 tiles down, 8160 blocks in 8 waves, cost 8 x (8 + 2) = 80 (28
 * rows: 9 waves x 9 = 81); 2560x1440 GRAY8 (20 across) 28 rows, 1040 blocks
 * in one wave, cost 9 (32 rows: 10; 24 rows: 2 waves x 8); 1280x720 GRAY8
 * (10 across) fits one wave at every height, so the shortest, 12 rows. */
static int filter_rows(unsigned long long tx, int h) {
  return JET_FILTER_RV * jet__wave_rows(tx, h, JET_FILTER_RV, JET_FILTER_FAST_TILE_MIN / JET_FILTER_RV,
                                        JET_FILTER_FAST_TILE_MAX / JET_FILTER_RV, 1, 1056,
                                        JET_FILTER_FAST_TILE_PROLOGUE);
}
TEST(filter_tile_rows_whole_waves) {
  CHECK(filter_rows(120, 2160) == 32);
  CHECK(filter_rows(20, 1440) == 28);
  CHECK(filter_rows(10, 720) == 12);
  return 0;
}

/* Over a sweep of shapes: the least cost, and the most rows among equals. */
TEST(resize_rows_least_cost_most_rows) {
  static const int dhs[] = {1, 7, 240, 541, 1081, 2160, 4320, 65535};
  static const unsigned long long txs[] = {1, 3, 8, 61};
  static const unsigned long long slots[] = {1, 132, 396, 528, 1056};
  /* row_mul, min_rows, max_rows, prologue: the resize walks, the 8-bit
   * filter tiles (filter_params.h), a tile of 8-row groups */
  static const int uses[][4] = {{1, 1, 32, 4},
                                {JET_FILTER_RV, JET_FILTER_FAST_TILE_MIN / JET_FILTER_RV,
                                 JET_FILTER_FAST_TILE_MAX / JET_FILTER_RV, JET_FILTER_FAST_TILE_PROLOGUE},
                                {8, 1, 4, 1}};
  for (size_t a = 0; a < sizeof dhs / sizeof dhs[0]; a++)
    for (size_t b = 0; b < sizeof txs / sizeof txs[0]; b++)
      for (size_t c = 0; c < sizeof slots / sizeof slots[0]; c++)
        for (int count = 1; count <= 16; count *= 4)
          for (size_t u = 0; u < sizeof uses / sizeof uses[0]; u++) {
            const int mul = uses[u][0], min = uses[u][1], max = uses[u][2], pro = uses[u][3];
            int r = jet__wave_rows(txs[b], dhs[a], mul, min, max, count, slots[c], pro);
            CHECK(r >= min && r <= max);
            unsigned long long best = waves_cost(txs[b], dhs[a], mul, r, count, slots[c], pro);
            for (int o = min; o <= max; o++) {
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
