/* jet_dnn_preprocess against ref_dnn_preprocess on fresh random frames:
 * NV12 and RGBA8, letterbox on and off, RGB and BGR planes, every matrix and
 * range, created and padded wrapped layouts, poisoned outputs, float and half
 * outputs; and the bad-input statuses. */
#include <math.h>
#include <stdint.h>

#include "test_resize_util.h"

static void random_params(jet_dnn_params *p, ref_dnn_params *r, int letterbox, int bgr) {
  memset(p, 0, sizeof *p);
  p->matrix = (jet_color_matrix)(jt_rand() & 1);
  p->range = (jet_color_range)(jt_rand() & 1);
  p->letterbox = letterbox;
  p->bgr = bgr;
  for (int c = 0; c < 3; c++) {
    p->pad[c] = (float)jtr_uniform(0.0, 255.0);
    p->mean[c] = (float)jtr_uniform(0.0, 1.0);
    p->stddev[c] = (float)jtr_uniform(0.05, 1.0);
  }
  r->matrix = p->matrix;
  r->range = p->range;
  r->letterbox = p->letterbox;
  r->bgr = p->bgr;
  memcpy(r->pad, p->pad, sizeof r->pad);
  memcpy(r->mean, p->mean, sizeof r->mean);
  memcpy(r->stddev, p->stddev, sizeof r->stddev);
}

/* Half output against float output of the same call (@f32, from the GPU)
 * and against the reference (@ref, RGBF32P): every half is exactly
 * ref_f32_to_f16 of the GPU's float (the documented rule), and lies within the
 * float path's tolerance of the reference's float, 1e-5 * (1 + |ref|), plus
 * half a half-precision step at that magnitude (near zero that tolerance spans
 * many subnormal half steps, so a count of steps would not do). */
static int check_f16(const ref_image *h, const ref_image *f32, const ref_image *ref, char *why,
                     size_t n) {
  for (int c = 0; c < 3; c++)
    for (int y = 0; y < h->height; y++) {
      const uint16_t *g = (const uint16_t *)(h->data[c] + h->pitch[c] * (size_t)y);
      const float *a = (const float *)(f32->data[c] + f32->pitch[c] * (size_t)y);
      const float *r = (const float *)(ref->data[c] + ref->pitch[c] * (size_t)y);
      for (int x = 0; x < h->width; x++) {
        uint16_t want = ref_f32_to_f16(a[x]);
        if (g[x] != want) {
          snprintf(why, n, "plane %d (%d, %d): half 0x%04x, float %.9g rounds to 0x%04x", c, x, y,
                   g[x], (double)a[x], want);
          return 1;
        }
        double rv = r[x], tol = 1e-5 * (1.0 + fabs(rv));
        double allowed = tol + 0.5 * ref_f16_ulp(fabs(rv) + tol);
        if (fabs((double)ref_f16_to_f32(g[x]) - rv) > allowed) {
          snprintf(why, n, "plane %d (%d, %d): half 0x%04x (%.9g), reference %.9g, allowed %.3g", c,
                   x, y, g[x], (double)ref_f16_to_f32(g[x]), rv, allowed);
          return 1;
        }
      }
    }
  return 0;
}

static int dnn_case(jet_context ctx, jet_stream st, jet_format f, int sw, int sh, int dw, int dh,
                    int letterbox, int bgr, int which) {
  ref_image src, exp, got;
  CHECK(ref_image_alloc(&src, f, sw, sh, jt_rand() % 40) == 0);
  CHECK(ref_image_alloc(&exp, JET_FORMAT_RGBF32P, dw, dh, 0) == 0);
  CHECK(ref_image_alloc(&got, JET_FORMAT_RGBF32P, dw, dh, 0) == 0);
  ref_image_randomize(&src, jt_rand);
  jtr_image s, d;
  /* 0: created; 1: padded pitches, aligned; 2: odd source pitch and pointer */
  CHECK(jtr_make(ctx, &src, which == 0 ? -1 : which == 1 ? 64 : 13, which == 2 ? 1 : 0, 1, &s) == 0);
  CHECK(jtr_make(ctx, &exp, which == 0 ? -1 : which == 1 ? 12 : 4, which == 2 ? 4 : 0, 0, &d) == 0);
  CHECK(jtr_poison(&d) == 0);
  jet_dnn_params p;
  ref_dnn_params rp;
  random_params(&p, &rp, letterbox, bgr);
  jet_dnn_params keep = p;
  CHECK_OK(jet_dnn_preprocess(st, s.img, d.img, &p));
  memset(&p, 0x5A, sizeof p); /* the call copied what it needs */
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(ref_dnn_preprocess(&src, &exp, &rp) == 0);
  CHECK(jtr_fetch(&d, &got) == 0);
  char why[256];
  CHECK_MSG(!ref_image_compare(&got, &exp, 1e-5, why, sizeof why),
            "%s %dx%d -> %dx%d letterbox %d bgr %d matrix %d range %d layout %d: %s",
            jet_format_name(f), sw, sh, dw, dh, letterbox, bgr, (int)rp.matrix, (int)rp.range,
            which, why);
  /* the same call into half planes */
  ref_image h;
  jtr_image dh16;
  CHECK(ref_image_alloc(&h, JET_FORMAT_RGBF16P, dw, dh, 0) == 0);
  CHECK(jtr_make(ctx, &h, which == 0 ? -1 : which == 1 ? 6 : 2, which == 2 ? 2 : 0, 0, &dh16) == 0);
  CHECK(jtr_poison(&dh16) == 0);
  p = keep;
  CHECK_OK(jet_dnn_preprocess(st, s.img, dh16.img, &p));
  memset(&p, 0x5A, sizeof p);
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(jtr_fetch(&dh16, &h) == 0);
  CHECK_MSG(!check_f16(&h, &got, &exp, why, sizeof why),
            "F16: %s %dx%d -> %dx%d letterbox %d bgr %d matrix %d range %d layout %d: %s",
            jet_format_name(f), sw, sh, dw, dh, letterbox, bgr, (int)rp.matrix, (int)rp.range,
            which, why);
  jtr_free(&dh16);
  ref_image_free(&h);
  jtr_free(&s);
  jtr_free(&d);
  ref_image_free(&src);
  ref_image_free(&exp);
  ref_image_free(&got);
  return 0;
}

/* sw, sh, dw, dh; NV12 sources need even sizes. 30x18 -> 10x6 and 30x10 ->
 * 6x2 (odd factors 3 and 5 on both axes) take the one-tap path; 30x10 ->
 * 10x7 (3 across, and 10x3 letterboxed) and 14x6 -> 14x11 stretched (1
 * across) the two-tap path (columns on source columns, rows not); 18x10 ->
 * 40x33 and 40x24 -> 33x47 letterboxed start the content at an odd row (oy
 * 5 and 13). */
static const int small_pairs[][4] = {{2, 2, 1, 1},    {2, 2, 3, 2},    {18, 10, 40, 23},
                                     {18, 10, 2, 3},  {18, 10, 17, 9}, {40, 24, 9, 17},
                                     {2, 8, 5, 5},    {30, 18, 10, 6}, {30, 10, 6, 2},
                                     {30, 10, 10, 7}, {14, 6, 14, 11}, {18, 10, 40, 33},
                                     {40, 24, 33, 47}};

static int dnn_format(jet_format f) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  if (f == JET_FORMAT_RGBA8) {
    CHECK(dnn_case(ctx, st, f, 1, 1, 1, 1, 0, 0, 0) == 0);
    CHECK(dnn_case(ctx, st, f, 1, 1, 2, 3, 1, 1, 1) == 0);
    CHECK(dnn_case(ctx, st, f, 17, 9, 40, 23, 1, 0, 2) == 0);
  }
  int k = 0;
  for (size_t i = 0; i < sizeof small_pairs / sizeof small_pairs[0]; i++)
    for (int lb = 0; lb < 2; lb++)
      for (int bgr = 0; bgr < 2; bgr++, k++)
        CHECK(dnn_case(ctx, st, f, small_pairs[i][0], small_pairs[i][1], small_pairs[i][2],
                       small_pairs[i][3], lb, bgr, k % 3) == 0);
  /* camera frames to network inputs */
  CHECK(dnn_case(ctx, st, f, 1920, 1080, 640, 640, 1, 0, 0) == 0);
  CHECK(dnn_case(ctx, st, f, 1920, 1080, 640, 640, 0, 1, 1) == 0);
  CHECK(dnn_case(ctx, st, f, 1922, 1082, 641, 361, 1, 1, 2) == 0);
  CHECK(dnn_case(ctx, st, f, 3840, 2160, 1024, 576, 0, 0, 1) == 0);
  CHECK(dnn_case(ctx, st, f, 3840, 2160, 512, 512, 1, 1, 0) == 0);
  CHECK(dnn_case(ctx, st, f, 640, 360, 1920, 1080, 1, 0, 2) == 0); /* upscale */
  /* stretched to a square: columns on source columns (1 and 3 across), rows not */
  CHECK(dnn_case(ctx, st, f, 1280, 720, 1280, 1280, 0, 0, 1) == 0);
  CHECK(dnn_case(ctx, st, f, 3840, 2160, 1280, 1280, 0, 1, 2) == 0);
  /* Centres halfway between two source pixels. NV12 column centres
   * halfway between an even source column and the next (dnn.cu's
   * nv12_half: factors 2, 6, 10), with the rows so too or not: factor 2
   * from an even ox (a pixel pair's taps in one 4-byte load; with padded
   * columns, an odd content width and an odd destination width) and an odd
   * one, factors 6 and 10 (2-byte loads a pixel). NV12 column centres
   * halfway between columns 4j + 1 and 4j + 2 (factors 4 and 12: nv12_half's
   * QUAD), with rows from the table (factors 2 and 2.4 down, and 2.25 at
   * 2560x1440 -> 640x640 stretched) or halfway between an odd row and the
   * next (factors 4 and 12 down; letterboxed with padded rows, and with
   * padded columns from an odd ox); factor 8 (the general path). RGBA8 at
   * even factors both ways (2, 4, 6, 8, 12: coordinates computed in each
   * thread), and not. In every layout. */
  static const int half_pairs[][5] = {
      {20, 12, 10, 6, 0},  {20, 12, 10, 9, 0},    {22, 12, 15, 6, 1},          {20, 12, 13, 6, 1},
      {20, 12, 14, 10, 1}, {60, 12, 10, 6, 0},    {60, 36, 10, 9, 0},          {100, 20, 10, 4, 0},
      {40, 12, 10, 6, 0},  {1280, 720, 640, 640, 1}, {2560, 1440, 1280, 1280, 0}, {2560, 1440, 1280, 1280, 1},
      {3840, 2160, 640, 640, 0}, {3840, 2160, 640, 640, 1}, {2560, 1440, 640, 640, 1},
      {40, 24, 10, 6, 1},  {120, 72, 10, 6, 0},   {40, 24, 13, 6, 1},          {40, 20, 10, 10, 1},
      {40, 12, 10, 5, 0},  {40, 72, 10, 6, 0},    {80, 48, 10, 6, 0},          {2560, 1440, 640, 640, 0}};
  for (size_t i = 0; i < sizeof half_pairs / sizeof half_pairs[0]; i++)
    for (int which = 0; which < 3; which++)
      CHECK(dnn_case(ctx, st, f, half_pairs[i][0], half_pairs[i][1], half_pairs[i][2],
                     half_pairs[i][3], half_pairs[i][4], (int)(i + which) & 1, which) == 0);
  /* the benchmark's letterbox, and ratios whose row pairs do and do not
   * share a chroma row, in every layout. NV12 outputs of 2^20 pixels whose
   * rows' source rows overlap, where the aligned layouts take the kernels
   * that write two rows a thread (dnn.c's "_r2"): enlarged rows
   * letterboxed from an odd oy (279) into an odd height, so that one
   * thread's rows straddle the padding's edge and the last thread has one
   * row; rows downscaled by 6/5, whose pairs' source rows are one and two
   * apart; into an odd height at factors 1 and 2 across (_tx, _hx). */
  for (int which = 0; which < 3; which++) {
    CHECK(dnn_case(ctx, st, f, 3840, 2160, 1280, 1280, 1, which == 1, which) == 0);
    CHECK(dnn_case(ctx, st, f, 300, 200, 97, 131, which != 1, 0, which) == 0);
    CHECK(dnn_case(ctx, st, f, 640, 360, 1283, 1281, 1, which == 2, which) == 0);
    CHECK(dnn_case(ctx, st, f, 1536, 1536, 1280, 1280, 0, which == 0, which) == 0);
    if (which < 2) {
      CHECK(dnn_case(ctx, st, f, 1280, 720, 1280, 1283, 0, which, which) == 0);
      CHECK(dnn_case(ctx, st, f, 2560, 1440, 1280, 1283, 0, !which, which) == 0);
    }
  }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_dnn_preprocess_nv12) {
  REQUIRE_GPU();
  return dnn_format(JET_FORMAT_NV12);
}

TEST(gpu_dnn_preprocess_rgba8) {
  REQUIRE_GPU();
  return dnn_format(JET_FORMAT_RGBA8);
}

/* The letterbox rectangle itself: the padding (exact values) surrounds the
 * content exactly where ref_letterbox_rect says. */
TEST(gpu_dnn_preprocess_letterbox_pad_exact) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &st));
  static const int cases[][4] = {{1920, 1080, 640, 640}, {1080, 1920, 640, 640}, {4, 2, 3, 7}};
  for (int i = 0; i < 3; i++) {
    int sw = cases[i][0], sh = cases[i][1], dw = cases[i][2], dh = cases[i][3];
    ref_image src, got;
    CHECK(ref_image_alloc(&src, JET_FORMAT_RGBA8, sw, sh, 0) == 0);
    CHECK(ref_image_alloc(&got, JET_FORMAT_RGBF32P, dw, dh, 0) == 0);
    ref_image_randomize(&src, jt_rand);
    jtr_image s, d;
    CHECK(jtr_make(ctx, &src, -1, 0, 1, &s) == 0);
    CHECK(jtr_make(ctx, &got, -1, 0, 0, &d) == 0);
    CHECK(jtr_poison(&d) == 0);
    jet_dnn_params p;
    ref_dnn_params rp;
    random_params(&p, &rp, 1, (int)(jt_rand() & 1));
    CHECK_OK(jet_dnn_preprocess(st, s.img, d.img, &p));
    CHECK_OK(jet_stream_synchronize(st));
    CHECK(jtr_fetch(&d, &got) == 0);
    int ox, oy, cw, ch;
    ref_letterbox_rect(sw, sh, dw, dh, 1, &ox, &oy, &cw, &ch);
    CHECK(cw == dw || ch == dh);
    for (int c = 0; c < 3; c++) {
      int plane = p.bgr ? 2 - c : c;
      float pad = (float)(((double)p.pad[c] / 255.0 - p.mean[c]) / p.stddev[c]);
      for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++) {
          float v = ((const float *)(got.data[plane] + got.pitch[plane] * (size_t)y))[x];
          int inside = x >= ox && x < ox + cw && y >= oy && y < oy + ch;
          if (!inside) CHECK_MSG(v == pad, "(%d, %d) plane %d: %.9g, pad %.9g", x, y, plane, v, pad);
        }
    }
    jtr_free(&s);
    jtr_free(&d);
    ref_image_free(&src);
    ref_image_free(&got);
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ batches */

/* Whole planes of two host images of one format and size, byte for byte. */
static int same_bytes(const ref_image *a, const ref_image *b) {
  for (int i = 0; i < a->planes; i++)
    for (int y = 0; y < a->plane_h[i]; y++)
      if (memcmp(a->data[i] + a->pitch[i] * (size_t)y, b->data[i] + b->pitch[i] * (size_t)y,
                 a->row_bytes[i]))
        return 0;
  return 1;
}

/* @count frames of fresh random content through one jet_dnn_preprocess_batch
 * into @out (RGBF32P or RGBF16P), each destination in its own layout
 * (created, padded, odd pitch and offset, by index): every output is bit for
 * bit the single call's, and matches the reference (F32 within 1e-5; F16 by
 * check_f16 against a single F32 call). */
static int batch_case(jet_context ctx, jet_stream st, jet_format f, jet_format out, int count,
                      int sw, int sh, int dw, int dh, int letterbox) {
  enum { N = JET_IMAGE_BATCH_MAX };
  ref_image src[N], got[N], one[N], f32[N], exp;
  jtr_image s[N], d[N], d1[N], df[N];
  jet_image si[N], di[N];
  int f16 = out == JET_FORMAT_RGBF16P;
  CHECK(count <= N);
  CHECK(ref_image_alloc(&exp, JET_FORMAT_RGBF32P, dw, dh, 0) == 0);
  for (int i = 0; i < count; i++) {
    int which = i % 3;
    CHECK(ref_image_alloc(&src[i], f, sw, sh, jt_rand() % 40) == 0);
    ref_image_randomize(&src[i], jt_rand);
    CHECK(ref_image_alloc(&got[i], out, dw, dh, 0) == 0);
    CHECK(ref_image_alloc(&one[i], out, dw, dh, 0) == 0);
    CHECK(ref_image_alloc(&f32[i], JET_FORMAT_RGBF32P, dw, dh, 0) == 0);
    CHECK(jtr_make(ctx, &src[i], which == 0 ? -1 : which == 1 ? 64 : 13, which == 2 ? 1 : 0, 1,
                   &s[i]) == 0);
    CHECK(jtr_make(ctx, &got[i], which == 0 ? -1 : which == 1 ? 12 : 6,
                   which == 2 ? (size_t)got[i].elem_size : 0, 0, &d[i]) == 0);
    CHECK(jtr_make(ctx, &one[i], -1, 0, 0, &d1[i]) == 0);
    CHECK(jtr_make(ctx, &f32[i], -1, 0, 0, &df[i]) == 0);
    CHECK(jtr_poison(&d[i]) == 0);
    CHECK(jtr_poison(&d1[i]) == 0);
    CHECK(jtr_poison(&df[i]) == 0);
    si[i] = s[i].img;
    di[i] = d[i].img;
  }
  jet_dnn_params p;
  ref_dnn_params rp;
  random_params(&p, &rp, letterbox, (int)(jt_rand() & 1));
  jet_dnn_params keep = p;
  CHECK_OK(jet_dnn_preprocess_batch(st, si, di, count, &p));
  memset(&p, 0x5A, sizeof p);
  for (int i = 0; i < count; i++) {
    p = keep;
    CHECK_OK(jet_dnn_preprocess(st, s[i].img, d1[i].img, &p));
    CHECK_OK(jet_dnn_preprocess(st, s[i].img, df[i].img, &p));
  }
  CHECK_OK(jet_stream_synchronize(st));
  char why[256];
  for (int i = 0; i < count; i++) {
    CHECK(jtr_fetch(&d[i], &got[i]) == 0);
    CHECK(jtr_fetch(&d1[i], &one[i]) == 0);
    CHECK(jtr_fetch(&df[i], &f32[i]) == 0);
    CHECK_MSG(same_bytes(&got[i], &one[i]), "%s %dx%d -> %s %dx%d, batch of %d: image %d differs "
              "from its single call", jet_format_name(f), sw, sh, jet_format_name(out), dw, dh,
              count, i);
    CHECK(ref_dnn_preprocess(&src[i], &exp, &rp) == 0);
    int bad = f16 ? check_f16(&got[i], &f32[i], &exp, why, sizeof why)
                  : ref_image_compare(&got[i], &exp, 1e-5, why, sizeof why);
    CHECK_MSG(!bad, "%s %dx%d -> %s %dx%d letterbox %d, batch of %d, image %d: %s",
              jet_format_name(f), sw, sh, jet_format_name(out), dw, dh, letterbox, count, i, why);
  }
  for (int i = 0; i < count; i++) {
    jtr_free(&s[i]);
    jtr_free(&d[i]);
    jtr_free(&d1[i]);
    jtr_free(&df[i]);
    ref_image_free(&src[i]);
    ref_image_free(&got[i]);
    ref_image_free(&one[i]);
    ref_image_free(&f32[i]);
  }
  ref_image_free(&exp);
  return 0;
}

static int dnn_batches(jet_format f) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  static const int counts[] = {1, 2, 4};
  static const jet_format outs[] = {JET_FORMAT_RGBF32P, JET_FORMAT_RGBF16P};
  for (int o = 0; o < 2; o++)
    for (int c = 0; c < 3; c++)
      for (int lb = 0; lb < 2; lb++) {
        int n = counts[c];
        CHECK(batch_case(ctx, st, f, outs[o], n, 18, 10, 9, 17, lb) == 0);
        CHECK(batch_case(ctx, st, f, outs[o], n, 2, 2, 3, 2, lb) == 0);
        CHECK(batch_case(ctx, st, f, outs[o], n, 1922, 1082, 641, 361, lb) == 0);
        if (f == JET_FORMAT_RGBA8) CHECK(batch_case(ctx, st, f, outs[o], n, 17, 9, 40, 23, lb) == 0);
      }
  /* four cameras to the network input, and a full batch */
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF16P, 4, 1920, 1080, 640, 640, 1) == 0);
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF32P, 4, 1280, 720, 640, 640, 1) == 0);
  /* two aligned frames (created, padded): NV12 takes the halfway paths
   * (factors 2 and 4); two 1280x720 frames enlarged to 1280x1280, the
   * two-row kernels */
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF16P, 2, 1280, 720, 640, 640, 1) == 0);
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF32P, 2, 2560, 1440, 1280, 1280, 0) == 0);
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF16P, 2, 2560, 1440, 640, 640, 1) == 0);
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF32P, 2, 1280, 720, 1280, 1280, 0) == 0);
  CHECK(batch_case(ctx, st, f, JET_FORMAT_RGBF16P, JET_IMAGE_BATCH_MAX, 64, 36, 33, 31, 1) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_dnn_preprocess_batch_nv12) {
  REQUIRE_GPU();
  return dnn_batches(JET_FORMAT_NV12);
}

TEST(gpu_dnn_preprocess_batch_rgba8) {
  REQUIRE_GPU();
  return dnn_batches(JET_FORMAT_RGBA8);
}

/* ------------------------------------------------------------ bad input */

static jet_dnn_params good_params(void) {
  jet_dnn_params p = {JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED, 1, 0, {114, 114, 114},
                      {0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f}};
  return p;
}

TEST(badarg_dnn_null_handles) {
  int not_a_handle = 0;
  jet_image fake = (jet_image)(void *)&not_a_handle;
  jet_dnn_params p = good_params();
  CHECK_ST(jet_dnn_preprocess(NULL, NULL, NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess(NULL, fake, fake, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess(NULL, NULL, NULL, NULL), JET_STATUS_INVALID_HANDLE);
  jet_image none[2] = {NULL, NULL}, fakes[2] = {fake, fake};
  CHECK_ST(jet_dnn_preprocess_batch(NULL, NULL, none, 1, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_dnn_preprocess_batch(NULL, none, NULL, 1, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_dnn_preprocess_batch(NULL, none, none, 0, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_dnn_preprocess_batch(NULL, none, none, -1, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_dnn_preprocess_batch(NULL, none, none, JET_IMAGE_BATCH_MAX + 1, &p),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "count 17") != NULL);
  CHECK_ST(jet_dnn_preprocess_batch(NULL, none, none, 2, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess_batch(NULL, fakes, fakes, 2, NULL), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(gpu_badarg_dnn_preprocess) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_stream st, ost;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  CHECK_OK(jet_stream_create(other, NULL, &ost));
  jet_image nv, rgba, out, gray, rgbf, gone, foreign, out16;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 32, 16, &nv));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 32, 16, &rgba));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF32P, 8, 8, &out));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF16P, 8, 8, &out16));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, 32, 16, &gray));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF32, 8, 8, &rgbf));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF32P, 8, 8, &gone));
  CHECK_OK(jet_image_destroy(gone));
  CHECK_OK(jet_image_create(other, JET_FORMAT_RGBF32P, 8, 8, &foreign));
  jet_dnn_params p = good_params(), q;

  CHECK_OK(jet_dnn_preprocess(st, nv, out, &p));
  CHECK_OK(jet_dnn_preprocess(st, rgba, out, &p));
  CHECK_ST(jet_dnn_preprocess(NULL, nv, out, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess(ost, nv, out, &p), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_dnn_preprocess(st, NULL, out, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess(st, nv, NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess(st, nv, gone, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dnn_preprocess(st, nv, foreign, &p), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_dnn_preprocess(st, gray, out, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_dnn_preprocess(st, nv, rgbf, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_OK(jet_dnn_preprocess(st, nv, out16, &p));
  CHECK_OK(jet_dnn_preprocess(st, rgba, out16, &p));
  CHECK_ST(jet_dnn_preprocess(st, out16, out, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_dnn_preprocess(st, nv, out, NULL), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.matrix = (jet_color_matrix)2;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.range = (jet_color_range)-1;
  CHECK_ST(jet_dnn_preprocess(st, rgba, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.letterbox = 2;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.bgr = -1;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.stddev[1] = 0.0f;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.stddev[2] = NAN;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.mean[0] = INFINITY;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.pad[2] = NAN;
  CHECK_ST(jet_dnn_preprocess(st, nv, out, &q), JET_STATUS_INVALID_ARGUMENT);
  /* destination planes over the source's memory */
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(rgba, 0, &pi));
  jet_image_plane pl[3] = {{pi.ptr, 32}, {(char *)pi.ptr + 512, 32}, {(char *)pi.ptr + 1024, 32}};
  jet_image alias;
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGBF32P, 8, 8, pl, 3, JET_IMAGE_MEMORY_DEVICE, &alias));
  CHECK_ST(jet_dnn_preprocess(st, rgba, alias, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);

  /* batches */
  jet_image nv2, out2, out16b, small, rgba2;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 32, 16, &nv2));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 32, 16, &rgba2));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF32P, 8, 8, &out2));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF16P, 8, 8, &out16b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF32P, 8, 7, &small));
  {
    jet_image s2[2] = {nv, nv2}, d2[2] = {out, out2};
    CHECK_OK(jet_dnn_preprocess_batch(st, s2, d2, 2, &p));
    CHECK_OK(jet_dnn_preprocess_batch(st, s2, d2, 1, &p));
    jet_image h2[2] = {out16, out16b};
    CHECK_OK(jet_dnn_preprocess_batch(st, s2, h2, 2, &p));
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, d2, 0, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, d2, JET_IMAGE_BATCH_MAX + 1, &p),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_dnn_preprocess_batch(st, NULL, d2, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, NULL, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, d2, 2, NULL), JET_STATUS_INVALID_ARGUMENT);
    q = p;
    q.stddev[0] = 0.0f;
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, d2, 2, &q), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_dnn_preprocess_batch(NULL, s2, d2, 2, &p), JET_STATUS_INVALID_HANDLE);
    CHECK_ST(jet_dnn_preprocess_batch(ost, s2, d2, 2, &p), JET_STATUS_WRONG_CONTEXT);
    /* one source shape, one destination shape */
    jet_image mixed_src[2] = {nv, rgba}, mixed_dst[2] = {out, out16b}, sized[2] = {out, small};
    CHECK_ST(jet_dnn_preprocess_batch(st, mixed_src, d2, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "pair 1") != NULL);
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, mixed_dst, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, sized, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    jet_image odd_src[2] = {nv, nv2};
    jet_image bad_fmt[2] = {out, rgbf};
    CHECK_ST(jet_dnn_preprocess_batch(st, odd_src, bad_fmt, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
    jet_image gray_src[2] = {nv, gray};
    CHECK_ST(jet_dnn_preprocess_batch(st, gray_src, d2, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    /* handles */
    jet_image gone_dst[2] = {out, gone}, foreign_dst[2] = {out, foreign}, null_src[2] = {nv, NULL};
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, gone_dst, 2, &p), JET_STATUS_INVALID_HANDLE);
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, foreign_dst, 2, &p), JET_STATUS_WRONG_CONTEXT);
    CHECK_ST(jet_dnn_preprocess_batch(st, null_src, d2, 2, &p), JET_STATUS_INVALID_HANDLE);
    /* overlaps: one destination twice, a destination over another pair's source */
    jet_image twice[2] = {out, out};
    CHECK_ST(jet_dnn_preprocess_batch(st, s2, twice, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
    jet_image rs[2] = {rgba2, rgba}, over[2] = {alias, out};
    CHECK_ST(jet_dnn_preprocess_batch(st, rs, over, 2, &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
    jet_image same_src[2] = {nv, nv};
    CHECK_OK(jet_dnn_preprocess_batch(st, same_src, d2, 2, &p)); /* one frame read twice */
  }
  CHECK_OK(jet_stream_synchronize(st));
  CHECK_OK(jet_image_destroy(nv2));
  CHECK_OK(jet_image_destroy(rgba2));
  CHECK_OK(jet_image_destroy(out2));
  CHECK_OK(jet_image_destroy(out16b));
  CHECK_OK(jet_image_destroy(small));

  CHECK_OK(jet_image_destroy(alias));
  CHECK_OK(jet_image_destroy(nv));
  CHECK_OK(jet_image_destroy(rgba));
  CHECK_OK(jet_image_destroy(out));
  CHECK_OK(jet_image_destroy(out16));
  CHECK_OK(jet_image_destroy(gray));
  CHECK_OK(jet_image_destroy(rgbf));
  CHECK_OK(jet_image_destroy(foreign));
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_stream_destroy(ost));
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_OK(jet_context_destroy(other));
  return 0;
}
