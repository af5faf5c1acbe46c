/* jet_resize and jet_remap against the CPU references (tests/ref) on fresh
 * random images, with created and odd padded/shifted wrapped layouts and
 * poisoned outputs; and their bad-input statuses. */
#include <math.h>
#include <stdint.h>

#include "test_resize_util.h"
#include "internal.h"
#include "jetrt_kernels.h"

/* sw, sh, dw, dh: up- and down-scales, odd ratios, identity, 1x1, and odd
 * integer factors (1/3, 1/5: every row centre on a source row; 8-bit
 * bilinear takes the nearest kernels where both axes are such, and not
 * where one is 1/2; 1/2 on both axes takes the area kernels). */
static const int pairs[][4] = {
    {1, 1, 1, 1},     {1, 1, 2, 3},     {2, 3, 1, 1},       {2, 3, 17, 9},
    {17, 9, 2, 3},    {17, 9, 40, 23},  {40, 23, 17, 9},    {17, 9, 17, 9},
    {17, 9, 1, 1},    {17, 9, 5, 9},    {1921, 1081, 640, 361}, {640, 361, 1921, 1081},
    {3840, 2160, 1920, 1080}, {1920, 1080, 640, 360}, {1285, 1085, 257, 217},
    {1920, 1080, 640, 540}, {1921, 1081, 1921, 1081},
    /* 1/2 on both axes: 8-bit bilinear takes the area kernels from aligned rows */
    {34, 18, 17, 9},  {1922, 1082, 961, 541},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

/* The formats of the kernel-path sweeps (enlarging walks, area windows):
 * 1, 3 and 4 channels of 8 bits, a swapped order, and both float kinds. */
static const jet_format sweep_formats[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGB8,    JET_FORMAT_RGBA8,
                                           JET_FORMAT_BGR8,  JET_FORMAT_GRAYF32, JET_FORMAT_RGBF32};

static int is_float_format(jet_format f) {
  return f == JET_FORMAT_GRAYF32 || f == JET_FORMAT_RGBF32;
}

/* Layouts: 0 both created; 1 wrapped, padded, 4-byte aligned (vector
 * paths); 2 wrapped with odd pitches and shifted pointers (8-bit scalar
 * paths; float formats stay element-aligned); 3 wrapped, pitch = row bytes
 * (vector paths where the row is whole words, with no slack after a row). */
static void layout(int which, jet_format f, long *extra, size_t *shift, int dst) {
  int fl = is_float_format(f);
  switch (which) {
    case 0: *extra = -1; *shift = 0; break;
    case 1: *extra = dst ? 12 : 64; *shift = 0; break;
    case 3: *extra = 0; *shift = 0; break;
    default:
      *extra = dst ? 7 : 13;
      *shift = fl ? (dst ? 8 : 4) : (dst ? 3 : 1);
      break;
  }
}

/* A float's place on the integer line of floats: neighbours differ by 1,
 * -0 and 0 are both 0. */
static long long float_rank(float v) {
  int32_t i;
  memcpy(&i, &v, sizeof i);
  return i < 0 ? -(long long)(i & 0x7fffffff) : (long long)i;
}

/* Float elements of @got more than 1 ulp from @exp's (the reference's double
 * result rounded to float), and how many were compared. */
static size_t float_far(const ref_image *got, const ref_image *exp, size_t *total) {
  size_t far = 0;
  *total = 0;
  for (int i = 0; i < got->planes; i++)
    for (int y = 0; y < got->plane_h[i]; y++) {
      const float *g = (const float *)(got->data[i] + got->pitch[i] * (size_t)y);
      const float *e = (const float *)(exp->data[i] + exp->pitch[i] * (size_t)y);
      size_t count = got->row_bytes[i] / sizeof(float);
      for (size_t k = 0; k < count; k++) far += llabs(float_rank(g[k]) - float_rank(e[k])) > 1;
      *total += count;
    }
  return far;
}

/* One resize of a fresh random image against the reference. @between > 1
 * (float bilinear, the height divided by @between, an odd integer): after
 * the reference is taken, the source rows between those under destination
 * centres (weight 0, never read) are filled with NaN and infinities, so any
 * read of them shows. */
static int resize_case_on(jet_context ctx, jet_stream st, jet_format f, const int *pr,
                          jet_interp interp, int which, int between) {
  int sw = pr[0], sh = pr[1], dw = pr[2], dh = pr[3];
  const int bad_up = interp == JET_INTERP_AREA && (dw > sw || dh > sh);
  ref_image src, exp, got;
  CHECK(ref_image_alloc(&src, f, sw, sh, jt_rand() % 40) == 0);
  CHECK(ref_image_alloc(&exp, f, dw, dh, 0) == 0);
  CHECK(ref_image_alloc(&got, f, dw, dh, jt_rand() % 9) == 0);
  ref_image_randomize(&src, jt_rand);
  CHECK(ref_resize(&src, &exp, interp) == (bad_up ? -1 : 0));
  static const float nonfinite[] = {NAN, INFINITY, -INFINITY};
  for (int y = 0; between > 1 && y < sh; y++) {
    if (y % between == between / 2) continue; /* a centre row: (2d + 1) * between / 2 */
    float *row = (float *)(src.data[0] + src.pitch[0] * (size_t)y);
    for (size_t e = 0; e < src.row_bytes[0] / sizeof(float); e++) row[e] = nonfinite[jt_rand() % 3];
  }
  long se, de;
  size_t ss, ds;
  /* which 4: an aligned source (layout 1) into a shifted destination (2) */
  layout(which == 4 ? 1 : which, f, &se, &ss, 0);
  layout(which == 4 ? 2 : which, f, &de, &ds, 1);
  jtr_image s, d;
  CHECK(jtr_make(ctx, &src, se, ss, 1, &s) == 0);
  CHECK(jtr_make(ctx, &exp, de, ds, 0, &d) == 0);
  CHECK(jtr_poison(&d) == 0);
  if (bad_up) {
    CHECK_ST(jet_resize(st, s.img, d.img, interp), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "downscale") != NULL);
  } else {
    CHECK_OK(jet_resize(st, s.img, d.img, interp));
    CHECK_OK(jet_stream_synchronize(st));
    CHECK(jtr_fetch(&d, &got) == 0);
    double tol = is_float_format(f) ? (interp == JET_INTERP_AREA ? 1e-4 : 1e-5) : 0;
    char why[256];
    CHECK_MSG(!ref_image_compare(&got, &exp, tol, why, sizeof why),
              "%s %dx%d -> %dx%d interp %d layout %d: %s", jet_format_name(f), sw, sh, dw, dh,
              (int)interp, which, why);
    /* float bilinear and area: within 1 ulp of the rounded reference (the
     * compensated FP32 sums round the sum, area its quotient too; area's
     * FP64 sums round once), which plain FP32 sums miss wherever taps
     * cancel; 1 in 10^4 allowed for results far smaller than their taps */
    if (is_float_format(f) && interp != JET_INTERP_NEAREST) {
      size_t total = 0, far = float_far(&got, &exp, &total);
      CHECK_MSG(far <= total / 10000, "%s %dx%d -> %dx%d interp %d layout %d: %zu of %zu values over 1 ulp from the reference",
                jet_format_name(f), sw, sh, dw, dh, (int)interp, which, far, total);
    }
  }
  jtr_free(&s);
  jtr_free(&d);
  ref_image_free(&src);
  ref_image_free(&exp);
  ref_image_free(&got);
  return 0;
}

static int resize_case(jet_context ctx, jet_stream st, jet_format f, const int *pr,
                       jet_interp interp, int which) {
  return resize_case_on(ctx, st, f, pr, interp, which, 1);
}

/* Every pair and interpolation; small pairs in every layout, large ones in
 * one layout each (rotating, so each large pair meets all three). */
static int resize_format(jet_format f, int small_only) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  for (size_t i = 0; i < NPAIRS; i++) {
    int large = pairs[i][0] * pairs[i][1] > 100000 || pairs[i][2] * pairs[i][3] > 100000;
    if (large && small_only) continue;
    for (int m = 0; m < 3; m++) {
      jet_interp interp = (jet_interp)m;
      for (int which = 0; which < 3; which++) {
        if (large && which != (int)(i + (size_t)m) % 3) continue;
        if (resize_case(ctx, st, f, pairs[i], interp, which)) return 1;
      }
    }
  }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_resize_gray8) {
  REQUIRE_GPU();
  return resize_format(JET_FORMAT_GRAY8, 0);
}

TEST(gpu_resize_rgb8) {
  REQUIRE_GPU();
  return resize_format(JET_FORMAT_RGB8, 0);
}

TEST(gpu_resize_rgba8) {
  REQUIRE_GPU();
  return resize_format(JET_FORMAT_RGBA8, 0);
}

TEST(gpu_resize_grayf32) {
  REQUIRE_GPU();
  return resize_format(JET_FORMAT_GRAYF32, 0);
}

TEST(gpu_resize_rgbf32) {
  REQUIRE_GPU();
  return resize_format(JET_FORMAT_RGBF32, 0);
}

TEST(gpu_resize_bgr_formats) {
  REQUIRE_GPU();
  if (resize_format(JET_FORMAT_BGR8, 1)) return 1;
  return resize_format(JET_FORMAT_BGRA8, 1);
}

/* Area sums that need 64 bits: gcd 1 on both axes and sw * sh >= 2^32 / 511. */
TEST(gpu_resize_area_wide_sums) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int big[][4] = {{4099, 2053, 1000, 999}, {4099, 2053, 3, 2}};
  for (int i = 0; i < 2; i++) {
    CHECK(resize_case(ctx, st, JET_FORMAT_GRAY8, big[i], JET_INTERP_AREA, i) == 0);
    CHECK(resize_case(ctx, st, JET_FORMAT_RGBA8, big[i], JET_INTERP_AREA, 1 - i) == 0);
  }
  CHECK(resize_case(ctx, st, JET_FORMAT_GRAYF32, big[1], JET_INTERP_AREA, 0) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* The RGBA8 fast kernels (aligned rows): area by integer factors (power of
 * two and not, up to kx*ky = 256 and just past it), bilinear taps that are
 * and are not 8-byte pairs, and coordinates that need 64-bit arithmetic; in
 * every layout, so the aligned, 4-but-not-8-aligned and scalar paths meet
 * each case. */
TEST(gpu_resize_rgba8_fast_paths) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int cases[][5] = {
      {64, 48, 32, 24, JET_INTERP_AREA},     {96, 60, 32, 20, JET_INTERP_AREA},
      {128, 64, 32, 16, JET_INTERP_AREA},    {160, 96, 10, 6, JET_INTERP_AREA},
      {170, 102, 10, 6, JET_INTERP_AREA},    {90, 40, 30, 20, JET_INTERP_AREA},
      {35, 33, 35, 11, JET_INTERP_AREA},     {1922, 1082, 961, 541, JET_INTERP_AREA},
      {96, 64, 64, 40, JET_INTERP_LINEAR},   {97, 65, 33, 47, JET_INTERP_LINEAR},
      {96, 64, 64, 40, JET_INTERP_NEAREST},  {65536, 2, 40000, 1, JET_INTERP_LINEAR},
      {65536, 2, 40000, 1, JET_INTERP_NEAREST}, {1922, 1082, 961, 541, JET_INTERP_LINEAR},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int which = 0; which < 3; which++)
      CHECK(resize_case(ctx, st, JET_FORMAT_RGBA8, cases[i], (jet_interp)cases[i][4], which) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* The enlarging kernels (dw >= sw, dh >= sh; 8-bit from aligned source rows):
 * factors 2, 3/2, 4/3 and large ones, one axis only, identity, right edges
 * where the last group is partial or its window would pass the row's last
 * word, widths just under and over two 1024-pixel GRAY8 tiles, and tight
 * pitches; in every layout (2 takes the tiled kernels; 4 stores an aligned
 * source's result into a shifted destination). */
TEST(gpu_resize_enlarge_paths) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int cases[][4] = {
      {1, 1, 7, 5},    {3, 2, 6, 4},      {4, 3, 8, 6},     {5, 3, 10, 6},      {6, 4, 9, 6},
      {8, 4, 8, 11},   {9, 7, 12, 7},     {12, 5, 16, 5},   {13, 3, 1000, 4},   {4, 2, 4, 2},
      {7, 9, 29, 31},  {640, 360, 1280, 720}, {640, 361, 1920, 1081}, {1280, 720, 1920, 1080},
      {63, 45, 42, 30}, {41, 30, 31, 20}, {40, 26, 20, 13}, {9, 7, 5, 4}, {1921, 1081, 1281, 721},
      {1021, 13, 2047, 27}, {1050, 7, 2101, 15}, {30, 2, 61, 70},
      /* factor 2 on both axes (8-bit bilinear: the x2 kernels from aligned
       * rows, 4 GRAY8 or RGB8 pixels or 2 RGBA8 pixels a thread), with
       * partial last source words, odd sizes and a second tile (257) */
      {1, 1, 2, 2}, {2, 1, 4, 2}, {13, 5, 26, 10}, {7, 9, 14, 18}, {1023, 3, 2046, 6},
      /* (nearest: the x2 kernels from aligned rows, units of 8 GRAY8 pixels,
       * 2 4-byte pixels, 8 bytes of RGB8 destination in phases of 3; rows
       * ending in a partial unit or group, a second tile of blocks) */
      {4, 2, 8, 4}, {6, 1, 12, 2}, {11, 4, 22, 8}, {257, 9, 514, 18}, {961, 541, 1922, 1082},
      /* factor 3/2 on both axes (bilinear GRAYF32 into 16-byte aligned
       * rows, GRAY8 and RGB8 between 4-byte aligned ones, RGBA8 into 16-byte
       * aligned rows from 1920x1080 source pixels up, gpu_resize_rgba8_up32:
       * the x3/2 walks,
       * whose inner threads load whole words and edge threads bytes): 4
       * destination columns a thread in 3 phases,
       * the last thread's 1 to 3 where dw % 4 != 0, pairs of source rows,
       * tiles of 512 columns (513: a second tile of one) */
      {2, 2, 3, 3}, {6, 4, 9, 6}, {8, 2, 12, 3}, {4, 10, 6, 15}, {342, 4, 513, 6},
      /* (nearest: the x3/2 kernels, 8-byte destination units whose bytes
       * come from two source words, the last unit partial or reaching past
       * the row's last word) */
      {10, 6, 15, 9}, {22, 2, 33, 3}, {18, 4, 27, 6},
      {514, 6, 771, 9}, {1282, 722, 1923, 1083}, {2560, 1440, 3840, 2160},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t f = 0; f < sizeof sweep_formats / sizeof sweep_formats[0]; f++)
      for (int m = 0; m < 2; m++)
        for (int which = 0; which < 5; which++) {
          if (cases[i][2] * cases[i][3] > 100000 && (f + (size_t)m + (size_t)which) % 2) continue;
          CHECK(resize_case(ctx, st, sweep_formats[f], cases[i], (jet_interp)m, which) == 0);
        }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* RGBA8 bilinear by exactly 3/2 from frames of 1920x1080 source pixels up
 * (the x3/2 walk, resize_up32<4>): destination widths with 0, 3 and 2
 * columns in the last thread, in the layouts whose destination rows are
 * 16-byte aligned (0, and 3 where the packed row is) and in the shifted one
 * (4: the general walk); each against the reference byte for byte. */
TEST(gpu_resize_rgba8_up32) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int cases[][4] = {{1922, 1082, 2883, 1623}, {1924, 1090, 2886, 1635}, {2560, 1440, 3840, 2160}};
  static const int layouts[] = {0, 3, 4};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
      CHECK(resize_case(ctx, st, i % 2 ? JET_FORMAT_BGRA8 : JET_FORMAT_RGBA8, cases[i], JET_INTERP_LINEAR,
                        layouts[l]) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Under JET_KERNEL_PATH=ptx (the _ptx CTest runs), that the built-in resize
 * module came from its PTX image. */
static int expect_ptx_path(void) {
  const char *kp = getenv("JET_KERNEL_PATH");
  if (!kp || strcmp(kp, "ptx") != 0) return 0;
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_kernel_path path;
  CHECK_OK(jet__builtin_path(ctx, &jet__images_resize, &path, __func__));
  CHECK(path == JET_KERNEL_PATH_PTX);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Each of @n cases in every sweep format, with every interpolation from
 * @from to area, in every layout (0 to 4) that @skips (case, format,
 * interpolation, layout) does not leave out. */
static int interp_sweep(const int (*cases)[4], size_t n, jet_interp from,
                        int (*skips)(size_t i, size_t f, int m, int which)) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  for (size_t i = 0; i < n; i++)
    for (size_t f = 0; f < sizeof sweep_formats / sizeof sweep_formats[0]; f++)
      for (int m = (int)from; m <= JET_INTERP_AREA; m++)
        for (int which = 0; which < 5; which++) {
          if (cases[i][0] * cases[i][1] > 100000 && skips(i, f, m, which)) continue;
          CHECK(resize_case(ctx, st, sweep_formats[f], cases[i], (jet_interp)m, which) == 0);
        }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Float bilinear where the height is divided by an odd integer (1/3, 1/5,
 * the same height) and the width is not enlarged: every destination row's
 * centre lies on a source row's, and the rows between (weight 0) are not
 * read (resize_case_on fills them with NaN and infinities). Both float
 * formats, odd and exact widths, layouts 0-2. */
TEST(gpu_resize_float_rows_on_source) {
  REQUIRE_GPU();
  static const int cases[][4] = {
      {5, 3, 2, 1}, {17, 9, 5, 3}, {17, 9, 16, 9}, {40, 25, 13, 5}, {1921, 1083, 640, 361}, {1280, 720, 427, 240},
  };
  static const jet_format fs[] = {JET_FORMAT_GRAYF32, JET_FORMAT_RGBF32};
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t f = 0; f < 2; f++)
      for (int which = 0; which < 3; which++)
        CHECK(resize_case_on(ctx, st, fs[f], cases[i], JET_INTERP_LINEAR, which, cases[i][1] / cases[i][3]) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Large cases of gpu_resize_half: GRAYF32 in every layout, the others in
 * one or two, rotating */
static int half_skips(size_t i, size_t f, int m, int which) {
  (void)i;
  (void)m;
  return sweep_formats[f] != JET_FORMAT_GRAYF32 && (f + (size_t)which) % 3;
}

/* Exactly 1/2 on both axes, bilinear and area, every format in every layout:
 * GRAYF32 from 16-byte aligned source rows into 8-byte aligned destination
 * rows takes its own kernel (2 pixels a thread; odd widths end on a single
 * pixel), the other layouts and formats the general ones. */
TEST(gpu_resize_half) {
  REQUIRE_GPU();
  static const int cases[][4] = {
      {2, 2, 1, 1},     {4, 2, 2, 1},      {6, 2, 3, 1},         {34, 18, 17, 9},
      {130, 6, 65, 3},  {256, 34, 128, 17}, {1922, 1082, 961, 541}, {2560, 1440, 1280, 720},
  };
  return interp_sweep(cases, sizeof cases / sizeof cases[0], JET_INTERP_LINEAR, half_skips);
}

/* Area downscales whose windows meet at most 2 to 4 source pixels per axis
 * (the tabulated-weight kernels, area_k): factors 2/3, 3/4, 1/2 and 1/3,
 * arbitrary ratios under 2 (3 pixels) and under 3 (4 pixels), axes of
 * different window sizes (3 x 2 and 4 x 3 have their own kernels), odd and
 * large sizes; every pixel format in every layout. */
TEST(gpu_resize_area_windows) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int cases[][4] = {
      {3, 2, 2, 2},     {63, 45, 42, 30},  {44, 28, 33, 21}, {41, 30, 31, 20},  {51, 33, 17, 11},
      {40, 26, 20, 13}, {17, 9, 16, 8},    {2, 3, 1, 2},     {1921, 1081, 1281, 721},
      {1920, 1080, 1280, 720}, {2560, 1440, 1920, 1080}, {89, 40, 30, 14}, {25, 16, 9, 7},
      {1280, 720, 427, 240},
      /* 3 source pixels across and 2 down (k3x2), and the transpose (k3) */
      {41, 30, 27, 20}, {30, 41, 20, 27}, {1280, 720, 853, 480}, {1081, 1921, 721, 1281},
      {2560, 1440, 1707, 960},
      /* 4 across and 3 down (k4x3), and the transpose (k4) */
      {88, 30, 29, 10}, {30, 88, 10, 29}, {2560, 1440, 853, 480},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t f = 0; f < sizeof sweep_formats / sizeof sweep_formats[0]; f++)
      for (int which = 0; which < 4; which++) {
        if (cases[i][0] * cases[i][1] > 100000 && (f + (size_t)which + i) % 4) continue;
        CHECK(resize_case(ctx, st, sweep_formats[f], cases[i], JET_INTERP_AREA, which) == 0);
      }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  /* The _ptx run of this test (JET_KERNEL_PATH=ptx): the module came from its
   * PTX image, which has no area_k3x2 or area_k4x3, so the 3 x 2 cases took
   * area_k3 and the 4 x 3 ones area_k4. */
  return expect_ptx_path();
}

/* Large cases of gpu_resize_frac: two layouts each, rotating */
static int frac_skips(size_t i, size_t f, int m, int which) {
  return (f + (size_t)which + i + (size_t)m) % 5 > 1;
}

/* Nearest, bilinear and area by exactly 2/3 and 3/4 on both axes
 * (resize_frac from aligned rows, the general kernels from the others; RGB8
 * and RGBF32 nearest always the general ones): one group, a few
 * groups short of a whole unit of 4 at the right edge, odd counts of
 * groups, 1080p and 4K; near misses (one axis exact, or a width that is
 * not a multiple of 3) take the general kernels. Every format in every
 * layout; the large cases in two layouts each, rotating. */
TEST(gpu_resize_frac) {
  REQUIRE_GPU();
  static const int cases[][4] = {
      {3, 3, 2, 2},     {4, 4, 3, 3},     {9, 6, 6, 4},         {20, 12, 15, 9},
      {44, 28, 33, 21}, {63, 45, 42, 30}, {27, 12, 18, 9},      {9, 6, 6, 5},
      {10, 6, 7, 4},    {1923, 1083, 1282, 722}, {1920, 1080, 1440, 810}, {3840, 2160, 2880, 1620},
  };
  if (interp_sweep(cases, sizeof cases / sizeof cases[0], JET_INTERP_NEAREST, frac_skips)) return 1;
  /* the _ptx run (JET_KERNEL_PATH=ptx): the PTX image has no group kernels,
   * so every case took the general ones */
  return expect_ptx_path();
}

/* ------------------------------------------------------------ remap */

/* A map with in-range samples, exact sub-pixel ties, integers, far
 * out-of-range values, infinities and NaNs. @pitch in floats. */
static void make_map(float *m, size_t pitch, int dw, int dh, int sw, int sh) {
  for (int y = 0; y < dh; y++)
    for (int x = 0; x < dw; x++)
      for (int k = 0; k < 2; k++) {
        int n = k ? sh : sw;
        float v;
        switch (jt_rand() % 16) {
          case 0: v = NAN; break;
          case 1: v = (jt_rand() & 1) ? 1e7f : -3e9f; break;
          case 2: v = (jt_rand() & 1) ? INFINITY : -INFINITY; break;
          case 3: /* halfway between two 1/32 steps: rounds to even */
            v = (float)((int)(jt_rand() % (unsigned)(n + 4)) - 2 + (2 * (int)(jt_rand() % 32) + 1) / 64.0);
            break;
          case 4: v = (float)((int)(jt_rand() % (unsigned)(n + 2)) - 1); break;
          case 5: v = (float)jtr_uniform(-3.0 * n - 5, 3.0 * n + 5); break;
          default: v = (float)jtr_uniform(-2.0, n + 1.0); break;
        }
        m[(size_t)y * pitch + 2 * (size_t)x + (size_t)k] = v;
      }
}

static int remap_case(jet_context ctx, jet_stream st, jet_format f, int sw, int sh, int dw, int dh,
                      jet_border border, int which) {
  ref_image src, exp, got;
  CHECK(ref_image_alloc(&src, f, sw, sh, jt_rand() % 40) == 0);
  CHECK(ref_image_alloc(&exp, f, dw, dh, 0) == 0);
  CHECK(ref_image_alloc(&got, f, dw, dh, 0) == 0);
  ref_image_randomize(&src, jt_rand);
  long se, de;
  size_t ss, ds;
  /* which 4: an aligned source (layout 1) into a shifted destination (2) */
  layout(which == 4 ? 1 : which, f, &se, &ss, 0);
  layout(which == 4 ? 2 : which, f, &de, &ds, 1);
  jtr_image s, d;
  CHECK(jtr_make(ctx, &src, se, ss, 1, &s) == 0);
  CHECK(jtr_make(ctx, &exp, de, ds, 0, &d) == 0);
  CHECK(jtr_poison(&d) == 0);
  /* map pitch: packed (passed as 0), 8-aligned padded, or only 4-aligned */
  size_t extra_floats = which == 0 ? 0 : which == 1 ? 6 : 1;
  size_t pitch = (size_t)dw * 2 + extra_floats, bytes = pitch * (size_t)dh * sizeof(float);
  float *hmap = malloc(bytes), *dmap = NULL;
  CHECK(hmap);
  make_map(hmap, pitch, dw, dh, sw, sh);
  CHECK(cudaMalloc((void **)&dmap, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(dmap, hmap, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  double bv[4];
  for (int c = 0; c < 4; c++) bv[c] = jtr_uniform(-40.0, 300.0);
  CHECK_OK(jet_remap(st, s.img, d.img, dmap, which == 0 ? 0 : pitch * sizeof(float), border, bv));
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(ref_remap(&src, &exp, hmap, pitch * sizeof(float), border, bv) == 0);
  CHECK(jtr_fetch(&d, &got) == 0);
  char why[256];
  CHECK_MSG(!ref_image_compare(&got, &exp, is_float_format(f) ? 1e-5 : 0, why, sizeof why),
            "%s %dx%d -> %dx%d border %d layout %d: %s", jet_format_name(f), sw, sh, dw, dh,
            (int)border, which, why);
  CHECK(cudaFree(dmap) == cudaSuccess);
  free(hmap);
  jtr_free(&s);
  jtr_free(&d);
  ref_image_free(&src);
  ref_image_free(&exp);
  ref_image_free(&got);
  return 0;
}

static int remap_formats(const jet_format *fs, int nf, int large) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int sizes[][4] = {{1, 1, 1, 1}, {1, 1, 2, 3}, {2, 3, 17, 9}, {17, 9, 2, 3},
                                 {17, 9, 40, 23}, {2, 1, 9, 4}, {5, 7, 43, 5}, {3, 2, 6, 3}};
  for (int i = 0; i < nf; i++)
    for (int b = 0; b < 3; b++) {
      for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int which = 0; which < 3; which++)
          CHECK(remap_case(ctx, st, fs[i], sizes[z][0], sizes[z][1], sizes[z][2], sizes[z][3],
                           (jet_border)b, which) == 0);
      CHECK(remap_case(ctx, st, fs[i], 17, 9, 40, 23, (jet_border)b, 4) == 0);
      if (large)
        CHECK(remap_case(ctx, st, fs[i], 1921, 1081, 1920, 1080, (jet_border)b, (i + b) % 3) == 0);
    }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_remap_u8) {
  REQUIRE_GPU();
  static const jet_format big[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_RGBA8};
  static const jet_format small[] = {JET_FORMAT_BGR8, JET_FORMAT_BGRA8};
  if (remap_formats(big, 3, 1)) return 1;
  return remap_formats(small, 2, 0);
}

TEST(gpu_remap_f32) {
  REQUIRE_GPU();
  static const jet_format fs[] = {JET_FORMAT_GRAYF32, JET_FORMAT_RGBF32};
  return remap_formats(fs, 2, 1);
}

/* A lens-undistortion-like smooth map at 4K (the realistic access pattern). */
TEST(gpu_remap_undistort_4k) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  const int w = 3840, h = 2160;
  ref_image src, exp, got;
  CHECK(ref_image_alloc(&src, JET_FORMAT_RGBA8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&exp, JET_FORMAT_RGBA8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&got, JET_FORMAT_RGBA8, w, h, 0) == 0);
  ref_image_randomize(&src, jt_rand);
  jtr_image s, d;
  CHECK(jtr_make(ctx, &src, -1, 0, 1, &s) == 0);
  CHECK(jtr_make(ctx, &exp, -1, 0, 0, &d) == 0);
  CHECK(jtr_poison(&d) == 0);
  size_t bytes = (size_t)w * h * 2 * sizeof(float);
  float *hmap = malloc(bytes), *dmap = NULL;
  CHECK(hmap);
  double k1 = jtr_uniform(-0.3, 0.3), k2 = jtr_uniform(-0.1, 0.1), cx = w / 2.0, cy = h / 2.0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double nx = (x - cx) / cx, ny = (y - cy) / cx, r2 = nx * nx + ny * ny;
      double s2 = 1 + k1 * r2 + k2 * r2 * r2;
      hmap[((size_t)y * w + x) * 2] = (float)(cx + nx * s2 * cx);
      hmap[((size_t)y * w + x) * 2 + 1] = (float)(cy + ny * s2 * cx);
    }
  CHECK(cudaMalloc((void **)&dmap, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(dmap, hmap, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  double bv[4] = {0, 0, 0, 255};
  CHECK_OK(jet_remap(st, s.img, d.img, dmap, 0, JET_BORDER_CONSTANT, bv));
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(ref_remap(&src, &exp, hmap, (size_t)w * 8, JET_BORDER_CONSTANT, bv) == 0);
  CHECK(jtr_fetch(&d, &got) == 0);
  char why[256];
  CHECK_MSG(!ref_image_compare(&got, &exp, 0, why, sizeof why), "%s", why);
  CHECK(cudaFree(dmap) == cudaSuccess);
  free(hmap);
  jtr_free(&s);
  jtr_free(&d);
  ref_image_free(&src);
  ref_image_free(&exp);
  ref_image_free(&got);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ bad input */

TEST(badarg_resize_remap_null_handles) {
  int not_a_handle = 0;
  jet_image fake = (jet_image)(void *)&not_a_handle;
  float map[2] = {0, 0};
  CHECK_ST(jet_resize(NULL, NULL, NULL, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(NULL, fake, fake, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_remap(NULL, NULL, NULL, map, 0, JET_BORDER_CONSTANT, NULL),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_remap(NULL, fake, fake, map, 0, JET_BORDER_CONSTANT, NULL),
           JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(gpu_badarg_resize) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_stream st, ost, dead;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  CHECK_OK(jet_stream_create(other, NULL, &ost));
  CHECK_OK(jet_stream_create(ctx, NULL, &dead));
  CHECK_OK(jet_stream_destroy(dead));
  jet_image a, b, g, n12, g16, gone, foreign;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 17, 9, &b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, 17, 9, &g));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 18, 10, &n12));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY16, 17, 9, &g16));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 8, 8, &gone));
  CHECK_OK(jet_image_destroy(gone));
  CHECK_OK(jet_image_create(other, JET_FORMAT_RGBA8, 8, 8, &foreign));

  CHECK_OK(jet_resize(st, a, b, JET_INTERP_AREA));
  CHECK_ST(jet_resize(NULL, a, b, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(dead, a, b, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(ost, a, b, JET_INTERP_LINEAR), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_resize(st, NULL, b, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(st, a, NULL, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(st, gone, b, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(st, a, gone, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize(st, a, foreign, JET_INTERP_LINEAR), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_resize(st, a, g, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_resize(st, n12, n12, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_resize(st, g16, g16, JET_INTERP_NEAREST), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize(st, a, b, (jet_interp)3), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize(st, a, b, (jet_interp)-1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize(st, b, a, JET_INTERP_AREA), JET_STATUS_INVALID_ARGUMENT);
  /* the same memory as source and destination */
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(a, 0, &pi));
  jet_image_plane pl = {pi.ptr, pi.pitch};
  jet_image alias;
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGBA8, 32, 16, &pl, 1, JET_IMAGE_MEMORY_DEVICE, &alias));
  CHECK_ST(jet_resize(st, a, alias, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  CHECK_OK(jet_stream_synchronize(st));

  CHECK_OK(jet_image_destroy(alias));
  CHECK_OK(jet_image_destroy(a));
  CHECK_OK(jet_image_destroy(b));
  CHECK_OK(jet_image_destroy(g));
  CHECK_OK(jet_image_destroy(n12));
  CHECK_OK(jet_image_destroy(g16));
  CHECK_OK(jet_image_destroy(foreign));
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_stream_destroy(ost));
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_OK(jet_context_destroy(other));
  return 0;
}

TEST(gpu_badarg_remap) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_stream st, ost;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  CHECK_OK(jet_stream_create(other, NULL, &ost));
  jet_image a, b, f32, f32b, g, gone;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 16, 8, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 16, 8, &b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAYF32, 16, 8, &f32));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAYF32, 16, 8, &f32b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, 16, 8, &g));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 16, 8, &gone));
  CHECK_OK(jet_image_destroy(gone));
  float *map = NULL;
  size_t pitch = 16 * 8 + 8;
  CHECK(cudaMalloc((void **)&map, pitch * 8 + 16) == cudaSuccess);
  CHECK(cudaMemset(map, 0, pitch * 8 + 16) == cudaSuccess &&
        cudaDeviceSynchronize() == cudaSuccess); /* the legacy-stream memset is async */
  const double bv[4] = {1, 2, 3, 4}, nan_bv[4] = {NAN, 0, 0, 0};

  CHECK_OK(jet_remap(st, a, b, map, pitch, JET_BORDER_CONSTANT, bv));
  CHECK_OK(jet_remap(st, a, b, map, 0, JET_BORDER_REPLICATE, NULL));
  CHECK_ST(jet_remap(NULL, a, b, map, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_remap(ost, a, b, map, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_remap(st, gone, b, map, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_remap(st, a, gone, map, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_remap(st, a, g, map, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_remap(st, a, b, NULL, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_remap(st, a, b, map, 16 * 8 - 4, JET_BORDER_CONSTANT, bv),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_remap(st, a, b, map, pitch + 2, JET_BORDER_CONSTANT, bv),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_remap(st, a, b, (const float *)((char *)map + 2), pitch, JET_BORDER_CONSTANT, bv),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_remap(st, a, b, map, (SIZE_MAX / 4) & ~(size_t)7, JET_BORDER_CONSTANT, bv),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_remap(st, a, b, map, pitch, (jet_border)3, bv), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_remap(st, a, b, map, pitch, (jet_border)-1, bv), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_remap(st, a, b, map, pitch, JET_BORDER_CONSTANT, nan_bv),
           JET_STATUS_INVALID_ARGUMENT);
  /* NaN is a float value; unused by non-constant borders */
  CHECK_OK(jet_remap(st, f32, f32b, map, pitch, JET_BORDER_CONSTANT, nan_bv));
  CHECK_OK(jet_remap(st, a, b, map, pitch, JET_BORDER_REFLECT_101, nan_bv));
  /* a map inside the destination */
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(f32b, 0, &pi));
  CHECK_ST(jet_remap(st, f32, f32b, (const float *)pi.ptr, 0, JET_BORDER_CONSTANT, bv),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  /* ... inside the source is only read: fine */
  CHECK_OK(jet_image_get_plane(a, 0, &pi));
  CHECK_OK(jet_remap(st, f32, f32b, (const float *)pi.ptr, 0, JET_BORDER_CONSTANT, bv));
  /* src and dst the same memory */
  CHECK_OK(jet_image_get_plane(b, 0, &pi));
  jet_image_plane pl = {pi.ptr, pi.pitch};
  jet_image alias;
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGBA8, 16, 8, &pl, 1, JET_IMAGE_MEMORY_DEVICE, &alias));
  CHECK_ST(jet_remap(st, alias, b, map, pitch, JET_BORDER_CONSTANT, bv), JET_STATUS_INVALID_ARGUMENT);
  /* pageable host memory: only where the device reads it */
  jet_platform_info info;
  CHECK_OK(jet_context_platform(ctx, &info));
  float *host = calloc(pitch * 8, 1);
  CHECK(host);
  CHECK_ST(jet_remap(st, a, b, host, pitch, JET_BORDER_CONSTANT, bv),
           info.pageable_memory_access ? JET_STATUS_OK : JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_synchronize(st));
  free(host);

  CHECK(cudaFree(map) == cudaSuccess);
  CHECK_OK(jet_image_destroy(alias));
  CHECK_OK(jet_image_destroy(a));
  CHECK_OK(jet_image_destroy(b));
  CHECK_OK(jet_image_destroy(f32));
  CHECK_OK(jet_image_destroy(f32b));
  CHECK_OK(jet_image_destroy(g));
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_stream_destroy(ost));
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_OK(jet_context_destroy(other));
  return 0;
}
