/* The CPU references checked against properties derived by hand from the
 * documented rules (tests/ref/ref_image.h, kernels/image/color_coeffs.h), on
 * fresh random images. Host only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../ref/ref_image.h"

static const jet_color_matrix matrices[2] = {JET_COLOR_BT601, JET_COLOR_BT709};
static const jet_color_range ranges[2] = {JET_COLOR_RANGE_LIMITED, JET_COLOR_RANGE_FULL};

static unsigned char *at(const ref_image *im, int plane, int x, int y, int bpp) {
  return im->data[plane] + im->pitch[plane] * (size_t)y + (size_t)x * (size_t)bpp;
}

static float *atf(const ref_image *im, int plane, int x, int y, int nc) {
  return (float *)(void *)at(im, plane, x, y, 4 * nc);
}

/* RGB -> 4:2:0 -> RGB on images whose 2x2 blocks are one colour loses only
 * quantisation: half a step of Y (255/219 in limited range) plus the chroma
 * steps times the largest chroma coefficient, plus the output rounding. */
TEST(ref_rgb_yuv420_round_trip) {
  int w = 64, h = 34;
  for (int mi = 0; mi < 2; mi++)
    for (int ri = 0; ri < 2; ri++) {
      ref_image rgb, nv, i4, back, back2;
      CHECK(ref_image_alloc(&rgb, JET_FORMAT_RGBA8, w, h, 12) == 0);
      CHECK(ref_image_alloc(&nv, JET_FORMAT_NV12, w, h, 5) == 0);
      CHECK(ref_image_alloc(&i4, JET_FORMAT_I420, w, h, 0) == 0);
      CHECK(ref_image_alloc(&back, JET_FORMAT_RGBA8, w, h, 0) == 0);
      CHECK(ref_image_alloc(&back2, JET_FORMAT_RGBA8, w, h, 3) == 0);
      for (int y = 0; y < h; y += 2)
        for (int x = 0; x < w; x += 2) {
          unsigned char c[4] = {(unsigned char)jt_rand(), (unsigned char)jt_rand(),
                                (unsigned char)jt_rand(), (unsigned char)jt_rand()};
          for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) memcpy(at(&rgb, 0, x + i, y + j, 4), c, 4);
        }
      CHECK(ref_convert(&rgb, &nv, matrices[mi], ranges[ri]) == 0);
      CHECK(ref_convert(&rgb, &i4, matrices[mi], ranges[ri]) == 0);
      CHECK(ref_convert(&nv, &back, matrices[mi], ranges[ri]) == 0);
      CHECK(ref_convert(&i4, &back2, matrices[mi], ranges[ri]) == 0);
      double ystep = ranges[ri] == JET_COLOR_RANGE_LIMITED ? 255.0 / 219 : 1.0;
      double cstep = ranges[ri] == JET_COLOR_RANGE_LIMITED ? 255.0 / 224 : 1.0;
      double bound = 0.5 * ystep + 0.5 * cstep * 2.0 * (1 - 0.0722) * 1.0 + 0.5 + 0.5;
      int worst = 0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          const unsigned char *a = at(&rgb, 0, x, y, 4), *b = at(&back, 0, x, y, 4);
          CHECK(memcmp(b, at(&back2, 0, x, y, 4), 4) == 0); /* NV12 and I420 carry the same data */
          CHECK(b[3] == 255);
          for (int c = 0; c < 3; c++) {
            int d = abs(a[c] - b[c]);
            if (d > worst) worst = d;
          }
        }
      CHECK_MSG(worst <= (int)bound, "matrix %d range %d: error %d > %g", mi, ri, worst, bound);
      ref_image_free(&rgb);
      ref_image_free(&nv);
      ref_image_free(&i4);
      ref_image_free(&back);
      ref_image_free(&back2);
    }
  return 0;
}

TEST(ref_grey_maps_to_itself_and_neutral_chroma) {
  for (int mi = 0; mi < 2; mi++)
    for (int v = 0; v < 256; v++) {
      int rgb[3];
      /* RGB -> GRAY of a grey pixel is the identity (weights sum to 2^16) */
      ref_image src, g;
      CHECK(ref_image_alloc(&src, JET_FORMAT_BGRA8, 2, 2, 0) == 0);
      CHECK(ref_image_alloc(&g, JET_FORMAT_GRAY8, 2, 2, 0) == 0);
      memset(src.block, v, src.pitch[0] * 2);
      CHECK(ref_convert(&src, &g, matrices[mi], JET_COLOR_RANGE_LIMITED) == 0);
      CHECK(*at(&g, 0, 1, 1, 1) == v);
      ref_image_free(&src);
      ref_image_free(&g);
      for (int ri = 0; ri < 2; ri++) {
        int u, vv;
        ref_rgb4_to_uv(4 * v, 4 * v, 4 * v, matrices[mi], ranges[ri], &u, &vv);
        CHECK(u == 128 && vv == 128);
        /* a neutral YUV pixel converts back to a grey */
        ref_yuv_to_rgb(ref_rgb_to_y(v, v, v, matrices[mi], ranges[ri]), 128, 128, matrices[mi],
                       ranges[ri], rgb);
        CHECK(rgb[0] == rgb[1] && rgb[1] == rgb[2]);
        CHECK_MSG(abs(rgb[0] - v) <= 1, "grey %d came back as %d", v, rgb[0]);
      }
    }
  /* range end points: black and white map to the ends of the Y range */
  for (int mi = 0; mi < 2; mi++) {
    CHECK(ref_rgb_to_y(0, 0, 0, matrices[mi], JET_COLOR_RANGE_LIMITED) == 16);
    CHECK(ref_rgb_to_y(255, 255, 255, matrices[mi], JET_COLOR_RANGE_LIMITED) == 235);
    CHECK(ref_rgb_to_y(0, 0, 0, matrices[mi], JET_COLOR_RANGE_FULL) == 0);
    CHECK(ref_rgb_to_y(255, 255, 255, matrices[mi], JET_COLOR_RANGE_FULL) == 255);
    int rgb[3];
    ref_yuv_to_rgb(16, 128, 128, matrices[mi], JET_COLOR_RANGE_LIMITED, rgb);
    CHECK(rgb[0] == 0 && rgb[1] == 0 && rgb[2] == 0);
    ref_yuv_to_rgb(235, 128, 128, matrices[mi], JET_COLOR_RANGE_LIMITED, rgb);
    CHECK(rgb[0] == 255 && rgb[1] == 255 && rgb[2] == 255);
  }
  return 0;
}

/* The same YUV samples stored as NV12, NV21, I420, YUYV and UYVY give the same
 * RGB; RGB8/BGR8/RGBA8/BGRA8/GRAY8 outputs agree channel by channel. */
TEST(ref_yuv_layouts_agree) {
  int w = 18, h = 10;
  ref_image nv12, nv21, i420, yuyv, uyvy;
  CHECK(ref_image_alloc(&nv12, JET_FORMAT_NV12, w, h, 7) == 0);
  CHECK(ref_image_alloc(&nv21, JET_FORMAT_NV21, w, h, 0) == 0);
  CHECK(ref_image_alloc(&i420, JET_FORMAT_I420, w, h, 3) == 0);
  CHECK(ref_image_alloc(&yuyv, JET_FORMAT_YUYV, w, h, 1) == 0);
  CHECK(ref_image_alloc(&uyvy, JET_FORMAT_UYVY, w, h, 0) == 0);
  ref_image_randomize(&nv12, jt_rand);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int Y = *at(&nv12, 0, x, y, 1);
      const unsigned char *c = at(&nv12, 1, x / 2, y / 2, 2);
      *at(&nv21, 0, x, y, 1) = (unsigned char)Y;
      *at(&i420, 0, x, y, 1) = (unsigned char)Y;
      at(&nv21, 1, x / 2, y / 2, 2)[0] = c[1];
      at(&nv21, 1, x / 2, y / 2, 2)[1] = c[0];
      *at(&i420, 1, x / 2, y / 2, 1) = c[0];
      *at(&i420, 2, x / 2, y / 2, 1) = c[1];
      unsigned char *p = at(&yuyv, 0, x & ~1, y, 2), *q = at(&uyvy, 0, x & ~1, y, 2);
      p[(x & 1) * 2] = (unsigned char)Y;
      p[1] = c[0];
      p[3] = c[1];
      q[1 + (x & 1) * 2] = (unsigned char)Y;
      q[0] = c[0];
      q[2] = c[1];
    }
  const ref_image *srcs[5] = {&nv12, &nv21, &i420, &yuyv, &uyvy};
  for (int mi = 0; mi < 2; mi++)
    for (int ri = 0; ri < 2; ri++) {
      ref_image ref, out, rgb, bgr, bgra, gray;
      CHECK(ref_image_alloc(&ref, JET_FORMAT_RGBA8, w, h, 0) == 0);
      CHECK(ref_image_alloc(&out, JET_FORMAT_RGBA8, w, h, 9) == 0);
      CHECK(ref_image_alloc(&rgb, JET_FORMAT_RGB8, w, h, 2) == 0);
      CHECK(ref_image_alloc(&bgr, JET_FORMAT_BGR8, w, h, 0) == 0);
      CHECK(ref_image_alloc(&bgra, JET_FORMAT_BGRA8, w, h, 0) == 0);
      CHECK(ref_image_alloc(&gray, JET_FORMAT_GRAY8, w, h, 0) == 0);
      CHECK(ref_convert(&nv12, &ref, matrices[mi], ranges[ri]) == 0);
      char why[256];
      for (int s = 1; s < 5; s++) {
        ref_image_poison(&out, 0xA5);
        CHECK(ref_convert(srcs[s], &out, matrices[mi], ranges[ri]) == 0);
        CHECK_MSG(ref_image_compare(&out, &ref, 0, why, sizeof why) == 0, "%s: %s",
                  jet_format_name(srcs[s]->format), why);
      }
      CHECK(ref_convert(&yuyv, &rgb, matrices[mi], ranges[ri]) == 0);
      CHECK(ref_convert(&uyvy, &bgr, matrices[mi], ranges[ri]) == 0);
      CHECK(ref_convert(&nv21, &bgra, matrices[mi], ranges[ri]) == 0);
      CHECK(ref_convert(&i420, &gray, matrices[mi], ranges[ri]) == 0);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          const unsigned char *r = at(&ref, 0, x, y, 4);
          const unsigned char *a = at(&rgb, 0, x, y, 3), *b = at(&bgr, 0, x, y, 3);
          const unsigned char *ba = at(&bgra, 0, x, y, 4);
          CHECK(r[3] == 255 && ba[3] == 255);
          for (int c = 0; c < 3; c++) CHECK(a[c] == r[c] && b[2 - c] == r[c] && ba[2 - c] == r[c]);
          /* GRAY8 from YUV is the luma expanded to full range: the value of a neutral pixel */
          int grey[3];
          ref_yuv_to_rgb(*at(&nv12, 0, x, y, 1), 128, 128, matrices[mi], ranges[ri], grey);
          CHECK(*at(&gray, 0, x, y, 1) == grey[0]);
        }
      ref_image_free(&ref);
      ref_image_free(&out);
      ref_image_free(&rgb);
      ref_image_free(&bgr);
      ref_image_free(&bgra);
      ref_image_free(&gray);
    }
  for (int s = 0; s < 5; s++) ref_image_free((ref_image *)srcs[s]);
  return 0;
}

TEST(ref_channel_reorders_round_trip) {
  int w = 17, h = 9;
  ref_image a, b, c, d;
  CHECK(ref_image_alloc(&a, JET_FORMAT_RGBA8, w, h, 3) == 0);
  CHECK(ref_image_alloc(&b, JET_FORMAT_BGRA8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&c, JET_FORMAT_RGBA8, w, h, 1) == 0);
  CHECK(ref_image_alloc(&d, JET_FORMAT_BGR8, w, h, 1) == 0);
  ref_image_randomize(&a, jt_rand);
  ref_image_poison(&c, 0x5A);
  CHECK(ref_convert(&a, &b, JET_COLOR_BT601, JET_COLOR_RANGE_FULL) == 0);
  CHECK(ref_convert(&b, &c, JET_COLOR_BT601, JET_COLOR_RANGE_FULL) == 0);
  char why[256];
  CHECK_MSG(ref_image_compare(&c, &a, 0, why, sizeof why) == 0, "%s", why);
  /* through a format without alpha: colour kept, alpha 255 */
  CHECK(ref_convert(&a, &d, JET_COLOR_BT709, JET_COLOR_RANGE_FULL) == 0);
  CHECK(ref_convert(&d, &c, JET_COLOR_BT709, JET_COLOR_RANGE_FULL) == 0);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      CHECK(memcmp(at(&c, 0, x, y, 4), at(&a, 0, x, y, 4), 3) == 0);
      CHECK(at(&c, 0, x, y, 4)[3] == 255);
    }
  ref_image_free(&a);
  ref_image_free(&b);
  ref_image_free(&c);
  ref_image_free(&d);
  return 0;
}

/* ------------------------------------------------------------ resize */

static int alloc_random(ref_image *im, jet_format f, int w, int h, size_t pad) {
  if (ref_image_alloc(im, f, w, h, pad)) return -1;
  ref_image_randomize(im, jt_rand);
  return 0;
}

static const jet_format resize_formats[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGBA8, JET_FORMAT_RGB8,
                                            JET_FORMAT_GRAYF32, JET_FORMAT_RGBF32};

TEST(ref_resize_nearest_integer_factor) {
  for (size_t fi = 0; fi < 5; fi++)
    for (int f = 1; f <= 4; f++) {
      int dw = 7, dh = 5;
      ref_image s, d;
      CHECK(alloc_random(&s, resize_formats[fi], dw * f, dh * f, 4) == 0);
      CHECK(ref_image_alloc(&d, resize_formats[fi], dw, dh, 0) == 0);
      ref_image_poison(&d, 0xEE);
      CHECK(ref_resize(&s, &d, JET_INTERP_NEAREST) == 0);
      size_t bpp = s.row_bytes[0] / (size_t)s.width;
      for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++)
          CHECK_MSG(memcmp(at(&d, 0, x, y, (int)bpp), at(&s, 0, f * x + f / 2, f * y + f / 2, (int)bpp),
                           bpp) == 0,
                    "factor %d (%d,%d)", f, x, y);
      ref_image_free(&s);
      ref_image_free(&d);
    }
  return 0;
}

TEST(ref_resize_same_size_is_identity) {
  static const jet_interp modes[3] = {JET_INTERP_NEAREST, JET_INTERP_LINEAR, JET_INTERP_AREA};
  for (size_t fi = 0; fi < 5; fi++)
    for (int m = 0; m < 3; m++) {
      ref_image s, d;
      CHECK(alloc_random(&s, resize_formats[fi], 19, 6, 1) == 0);
      CHECK(ref_image_alloc(&d, resize_formats[fi], 19, 6, 8) == 0);
      ref_image_poison(&d, 0x77);
      CHECK(ref_resize(&s, &d, modes[m]) == 0);
      char why[256];
      CHECK_MSG(ref_image_compare(&d, &s, 0, why, sizeof why) == 0, "mode %d: %s", m, why);
      ref_image_free(&s);
      ref_image_free(&d);
    }
  return 0;
}

/* Area downscale by an integer factor is the plain box mean, rounded half up;
 * bilinear 2x upscale of a row puts interior odd pixels at 1/4 between two
 * source pixels: (3a + b + 2) >> 2. */
TEST(ref_resize_area_and_bilinear_exact_cases) {
  for (int f = 2; f <= 3; f++) {
    ref_image s, d;
    CHECK(alloc_random(&s, JET_FORMAT_RGBA8, 8 * f, 3 * f, 0) == 0);
    CHECK(ref_image_alloc(&d, JET_FORMAT_RGBA8, 8, 3, 0) == 0);
    CHECK(ref_resize(&s, &d, JET_INTERP_AREA) == 0);
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 8; x++)
        for (int c = 0; c < 4; c++) {
          int sum = 0;
          for (int j = 0; j < f; j++)
            for (int i = 0; i < f; i++) sum += at(&s, 0, f * x + i, f * y + j, 4)[c];
          CHECK(at(&d, 0, x, y, 4)[c] == (2 * sum + f * f) / (2 * f * f));
        }
    ref_image_free(&s);
    ref_image_free(&d);
  }
  ref_image s, d;
  CHECK(alloc_random(&s, JET_FORMAT_GRAY8, 12, 3, 0) == 0);
  CHECK(ref_image_alloc(&d, JET_FORMAT_GRAY8, 24, 3, 0) == 0);
  CHECK(ref_resize(&s, &d, JET_INTERP_LINEAR) == 0);
  for (int y = 0; y < 3; y++)
    for (int k = 0; k + 1 < 12; k++) {
      int a = *at(&s, 0, k, y, 1), b = *at(&s, 0, k + 1, y, 1);
      CHECK(*at(&d, 0, 2 * k + 1, y, 1) == (3 * a + b + 2) >> 2);
      CHECK(*at(&d, 0, 2 * k + 2, y, 1) == (a + 3 * b + 2) >> 2);
    }
  CHECK(*at(&d, 0, 0, 0, 1) == *at(&s, 0, 0, 0, 1)); /* clamped at the edges */
  CHECK(*at(&d, 0, 23, 2, 1) == *at(&s, 0, 11, 2, 1));
  ref_image_free(&s);
  ref_image_free(&d);
  /* area is for downscaling only */
  CHECK(ref_image_alloc(&s, JET_FORMAT_GRAY8, 4, 4, 0) == 0 &&
        ref_image_alloc(&d, JET_FORMAT_GRAY8, 5, 4, 0) == 0);
  CHECK(ref_resize(&s, &d, JET_INTERP_AREA) == -1);
  ref_image_free(&s);
  ref_image_free(&d);
  return 0;
}

/* Any resize of a constant image is that constant; bilinear and area results
 * lie between the source minimum and maximum. */
TEST(ref_resize_constant_and_bounded) {
  static const int sizes[][4] = {{17, 9, 5, 3}, {5, 3, 17, 9}, {1, 1, 7, 2}, {33, 20, 32, 19}};
  for (size_t si = 0; si < 4; si++)
    for (int m = 0; m < 3; m++) {
      int sw = sizes[si][0], sh = sizes[si][1], dw = sizes[si][2], dh = sizes[si][3];
      if (m == JET_INTERP_AREA && (dw > sw || dh > sh)) continue;
      ref_image s, d;
      CHECK(ref_image_alloc(&s, JET_FORMAT_GRAY8, sw, sh, 0) == 0);
      CHECK(ref_image_alloc(&d, JET_FORMAT_GRAY8, dw, dh, 0) == 0);
      int v = (int)(jt_rand() & 255);
      ref_image_poison(&s, (unsigned char)v);
      CHECK(ref_resize(&s, &d, (jet_interp)m) == 0);
      for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++) CHECK(*at(&d, 0, x, y, 1) == v);
      ref_image_randomize(&s, jt_rand);
      int lo = 255, hi = 0;
      for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
          int p = *at(&s, 0, x, y, 1);
          lo = p < lo ? p : lo;
          hi = p > hi ? p : hi;
        }
      CHECK(ref_resize(&s, &d, (jet_interp)m) == 0);
      for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++) CHECK(*at(&d, 0, x, y, 1) >= lo && *at(&d, 0, x, y, 1) <= hi);
      ref_image_free(&s);
      ref_image_free(&d);
    }
  return 0;
}

/* ------------------------------------------------------------ filters */

TEST(ref_border_index_rules) {
  for (int n = 1; n <= 9; n++)
    for (int i = -3 * n - 5; i <= 4 * n + 5; i++) {
      int r = ref_border_index(i, n, JET_BORDER_REPLICATE);
      CHECK(r == (i < 0 ? 0 : i >= n ? n - 1 : i));
      int f = ref_border_index(i, n, JET_BORDER_REFLECT_101);
      CHECK(f >= 0 && f < n);
      CHECK(f == ref_border_index(-i, n, JET_BORDER_REFLECT_101)); /* mirror at 0 */
      CHECK(f == ref_border_index(2 * (n - 1) - i, n, JET_BORDER_REFLECT_101)); /* at n-1 */
      if (i >= 0 && i < n) CHECK(f == i && r == i);
      int c = ref_border_index(i, n, JET_BORDER_CONSTANT);
      CHECK(c == ((i >= 0 && i < n) ? i : -1));
    }
  /* reflect-101 does not repeat the edge pixel: dcb|abcd */
  CHECK(ref_border_index(-1, 4, JET_BORDER_REFLECT_101) == 1);
  CHECK(ref_border_index(4, 4, JET_BORDER_REFLECT_101) == 2);
  return 0;
}

TEST(ref_gaussian_weights) {
  for (int k = JET_FILTER_KSIZE_MIN; k <= JET_FILTER_KSIZE_MAX; k += 2)
    for (int s = 0; s < 3; s++) {
      double sigma = s == 0 ? 0.0 : s == 1 ? 0.5 + (jt_rand() % 1000) / 100.0 : -1.0;
      double w[JET_FILTER_KSIZE_MAX], sum = 0;
      int q[JET_FILTER_KSIZE_MAX], qsum = 0;
      ref_gaussian_weights(k, sigma, w);
      ref_gaussian_weights_q(k, sigma, q);
      for (int i = 0; i < k; i++) {
        sum += w[i];
        qsum += q[i];
        CHECK(w[i] > 0 && q[i] >= 0);
        CHECK(w[i] == w[k - 1 - i] && q[i] == q[k - 1 - i]);
        /* the centre absorbs the rounding, so only the others are monotone */
        if (i > 0 && i <= k / 2) CHECK(w[i] > w[i - 1] && (i == k / 2 || q[i] >= q[i - 1]));
        CHECK(fabs(q[i] - w[i] * JET_GAUSS_ONE) <= (i == k / 2 ? k : 0.5 + 1e-9));
      }
      CHECK(fabs(sum - 1.0) < 1e-12);
      CHECK(qsum == JET_GAUSS_ONE);
    }
  CHECK(ref_gaussian_sigma(3, 0) == 0.3 * (1 * 1.0 - 1) + 0.8);
  CHECK(fabs(ref_gaussian_sigma(31, -2) - (0.3 * 14 + 0.8)) < 1e-12);
  CHECK(ref_gaussian_sigma(5, 1.7) == 1.7);
  return 0;
}

/* Box and Gaussian of a constant image are that constant for every border
 * mode, except where a constant border of another value reaches the pixel. */
TEST(ref_filters_of_constant_image) {
  static const jet_format fmts[] = {JET_FORMAT_RGBA8, JET_FORMAT_GRAY8, JET_FORMAT_RGBF32};
  static const int ks[] = {3, 5, 31};
  for (int fi = 0; fi < 3; fi++)
    for (int ki = 0; ki < 3; ki++)
      for (int b = 0; b < 3; b++)
        for (int g = 0; g < 2; g++) {
          int k = ks[ki], r = k / 2, w = 40, h = 35;
          ref_image s, d;
          CHECK(ref_image_alloc(&s, fmts[fi], w, h, 4) == 0);
          CHECK(ref_image_alloc(&d, fmts[fi], w, h, 0) == 0);
          int fl = fmts[fi] == JET_FORMAT_RGBF32, nc = s.channels;
          double v = fl ? (double)(jt_rand() % 2000) / 8.0 - 100 : (double)(jt_rand() % 200 + 20);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              for (int c = 0; c < nc; c++) {
                if (fl)
                  atf(&s, 0, x, y, nc)[c] = (float)v;
                else
                  at(&s, 0, x, y, nc)[c] = (unsigned char)v;
              }
          double bv[4] = {v - 19, v - 19, v - 19, v - 19};
          ref_image_poison(&d, 0xCC);
          int rc = g ? ref_gaussian_filter(&s, &d, k, 0, (jet_border)b, bv)
                     : ref_box_filter(&s, &d, k, (jet_border)b, bv);
          CHECK(rc == 0);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
              int edge = x < r || y < r || x >= w - r || y >= h - r;
              double o = fl ? atf(&d, 0, x, y, nc)[0] : at(&d, 0, x, y, nc)[0];
              if (b != JET_BORDER_CONSTANT || !edge)
                CHECK_MSG(fabs(o - v) <= (fl ? 1e-4 * (1 + fabs(v)) : 0),
                          "k %d border %d gauss %d (%d,%d): %g vs %g", k, b, g, x, y, o, v);
              else if (x == 0 && y == 0)
                CHECK(o < v); /* the corner sees the darker border */
            }
          ref_image_free(&s);
          ref_image_free(&d);
        }
  return 0;
}

/* The 8-bit box filter is the window sum rounded; float and 8-bit versions of
 * a random image agree within the 8-bit rounding. */
TEST(ref_box_matches_window_sum) {
  ref_image s, d;
  int w = 23, h = 11, k = 5;
  CHECK(alloc_random(&s, JET_FORMAT_GRAY8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&d, JET_FORMAT_GRAY8, w, h, 0) == 0);
  double bv[4] = {7, 7, 7, 7};
  for (int b = 0; b < 3; b++) {
    CHECK(ref_box_filter(&s, &d, k, (jet_border)b, bv) == 0);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int sum = 0;
        for (int j = -2; j <= 2; j++)
          for (int i = -2; i <= 2; i++) {
            int xx = ref_border_index(x + i, w, (jet_border)b), yy = ref_border_index(y + j, h, (jet_border)b);
            sum += (xx < 0 || yy < 0) ? 7 : *at(&s, 0, xx, yy, 1);
          }
        CHECK(*at(&d, 0, x, y, 1) == (sum * 2 + 25) / 50);
      }
  }
  CHECK(ref_box_filter(&s, &d, 4, JET_BORDER_REPLICATE, bv) == -1);
  CHECK(ref_box_filter(&s, &d, 33, JET_BORDER_REPLICATE, bv) == -1);
  CHECK(ref_box_filter(&s, &d, 1, JET_BORDER_REPLICATE, bv) == -1);
  ref_image_free(&s);
  ref_image_free(&d);
  return 0;
}

/* ------------------------------------------------------------ remap */

TEST(ref_remap_shifts) {
  static const jet_format fmts[] = {JET_FORMAT_RGBA8, JET_FORMAT_GRAYF32};
  for (int fi = 0; fi < 2; fi++) {
    int w = 21, h = 13;
    ref_image s, d;
    CHECK(alloc_random(&s, fmts[fi], w, h, 4) == 0);
    CHECK(ref_image_alloc(&d, fmts[fi], w, h, 0) == 0);
    float *map = malloc(sizeof(float) * 2 * (size_t)w * (size_t)h);
    CHECK(map);
    size_t mp = sizeof(float) * 2 * (size_t)w;
    int fl = fmts[fi] == JET_FORMAT_GRAYF32, nc = s.channels;
    double bv[4] = {9, 9, 9, 9};
    /* identity, then an integer shift with a constant border */
    for (int t = 0; t < 3; t++) {
      int dx = t == 1 ? 3 : 0, dy = t == 1 ? -2 : 0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          map[2 * ((size_t)y * w + x)] = (float)(x + dx) + (t == 2 ? 0.5f : 0.0f);
          map[2 * ((size_t)y * w + x) + 1] = (float)(y + dy);
        }
      ref_image_poison(&d, 0x33);
      CHECK(ref_remap(&s, &d, map, mp, JET_BORDER_CONSTANT, bv) == 0);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          for (int c = 0; c < nc; c++) {
            int sx = x + dx, sy = y + dy, in = sx >= 0 && sx < w && sy >= 0 && sy < h;
            double o = fl ? atf(&d, 0, x, y, nc)[c] : at(&d, 0, x, y, nc)[c];
            if (t < 2) {
              double e = !in ? 9 : fl ? atf(&s, 0, sx, sy, nc)[c] : at(&s, 0, sx, sy, nc)[c];
              CHECK_MSG(o == e, "t %d (%d,%d): %g vs %g", t, x, y, o, e);
            } else if (!fl) {
              int a = at(&s, 0, x, y, nc)[c], b = x + 1 < w ? at(&s, 0, x + 1, y, nc)[c] : 9;
              CHECK(o == ((a + b + 1) >> 1)); /* half a pixel: weights 16/32 each */
            }
          }
    }
    /* NaN and far-away coordinates read the border */
    for (size_t i = 0; i < 2 * (size_t)w * (size_t)h; i++) map[i] = (i & 2) ? NAN : 1e30f;
    CHECK(ref_remap(&s, &d, map, mp, JET_BORDER_CONSTANT, bv) == 0);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        CHECK((fl ? atf(&d, 0, x, y, nc)[0] : at(&d, 0, x, y, nc)[0]) == 9);
    free(map);
    ref_image_free(&s);
    ref_image_free(&d);
  }
  return 0;
}

/* ------------------------------------------------------------ geometry */

static int same(const ref_image *a, const ref_image *b) {
  char why[256];
  int r = ref_image_compare(a, b, 0, why, sizeof why);
  if (r) fprintf(stderr, "%s\n", why);
  return r == 0;
}

TEST(ref_geometry_identities) {
  static const jet_format fmts[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_RGBA8,
                                    JET_FORMAT_GRAY16, JET_FORMAT_RGBF32};
  static const int sizes[][2] = {{1, 1}, {2, 3}, {17, 9}};
  for (int fi = 0; fi < 5; fi++)
    for (int si = 0; si < 3; si++) {
      int w = sizes[si][0], h = sizes[si][1];
      ref_image s, t, u, v, x;
      CHECK(alloc_random(&s, fmts[fi], w, h, 5) == 0);
      CHECK(ref_image_alloc(&t, fmts[fi], h, w, 0) == 0);
      CHECK(ref_image_alloc(&u, fmts[fi], w, h, 3) == 0);
      CHECK(ref_image_alloc(&v, fmts[fi], h, w, 1) == 0);
      CHECK(ref_image_alloc(&x, fmts[fi], w, h, 0) == 0);
      /* transpose twice */
      CHECK(ref_transpose(&s, &t) == 0 && ref_transpose(&t, &u) == 0 && same(&u, &s));
      /* rotate 90 four times; 90 then 270 */
      CHECK(ref_rotate(&s, &t, JET_ROTATE_90) == 0 && ref_rotate(&t, &x, JET_ROTATE_90) == 0);
      CHECK(ref_rotate(&x, &v, JET_ROTATE_90) == 0 && ref_rotate(&v, &u, JET_ROTATE_90) == 0);
      CHECK(same(&u, &s));
      CHECK(ref_rotate(&s, &t, JET_ROTATE_90) == 0 && ref_rotate(&t, &u, JET_ROTATE_270) == 0 &&
            same(&u, &s));
      /* 90 twice is 180 is a flip of both axes */
      CHECK(ref_rotate(&s, &t, JET_ROTATE_90) == 0 && ref_rotate(&t, &u, JET_ROTATE_90) == 0);
      CHECK(ref_rotate(&s, &x, JET_ROTATE_180) == 0 && same(&u, &x));
      CHECK(ref_flip(&s, &x, JET_FLIP_BOTH) == 0 && same(&u, &x));
      /* clockwise 90 = transpose then horizontal flip */
      CHECK(ref_rotate(&s, &t, JET_ROTATE_90) == 0 && ref_transpose(&s, &v) == 0);
      ref_image t2;
      CHECK(ref_image_alloc(&t2, fmts[fi], h, w, 0) == 0);
      CHECK(ref_flip(&v, &t2, JET_FLIP_HORIZONTAL) == 0 && same(&t2, &t));
      ref_image_free(&t2);
      /* flips are involutions and commute into BOTH */
      CHECK(ref_flip(&s, &x, JET_FLIP_HORIZONTAL) == 0 && ref_flip(&x, &u, JET_FLIP_HORIZONTAL) == 0 &&
            same(&u, &s));
      CHECK(ref_flip(&s, &x, JET_FLIP_HORIZONTAL) == 0 && ref_flip(&x, &u, JET_FLIP_VERTICAL) == 0);
      CHECK(ref_flip(&s, &x, JET_FLIP_BOTH) == 0 && same(&u, &x));
      /* transpose moves pixel (x, y) to (y, x) */
      CHECK(ref_transpose(&s, &t) == 0);
      size_t bpp = s.row_bytes[0] / (size_t)w;
      CHECK(memcmp(at(&t, 0, h - 1, 0, (int)bpp), at(&s, 0, 0, h - 1, (int)bpp), bpp) == 0);
      if (w > 1 || h > 1) CHECK(w == h || ref_transpose(&s, &u) == -1);
      ref_image_free(&s);
      ref_image_free(&t);
      ref_image_free(&u);
      ref_image_free(&v);
      ref_image_free(&x);
    }
  return 0;
}

/* ------------------------------------------------------------ reductions */

TEST(ref_reductions_match_direct_sums) {
  static const jet_format fmts[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGBA8, JET_FORMAT_GRAY16,
                                    JET_FORMAT_GRAYF32, JET_FORMAT_RGBF32};
  for (int fi = 0; fi < 5; fi++) {
    int w = 37, h = 19;
    ref_image s;
    CHECK(alloc_random(&s, fmts[fi], w, h, 6) == 0);
    ref_stats st;
    CHECK(ref_reduce(&s, &st) == 0);
    int nc = s.channels, es = s.elem_size;
    CHECK(st.channels == nc);
    for (int c = 0; c < nc; c++) {
      double sum = 0, lo = INFINITY, hi = -INFINITY;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          const unsigned char *p = at(&s, 0, x, y, nc * es) + (size_t)c * (size_t)es;
          double v = es == 1 ? *p : es == 2 ? *(const uint16_t *)(const void *)p : *(const float *)(const void *)p;
          sum += v;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
      CHECK_MSG(fabs(st.sum[c] - sum) <= 1e-9 * (1 + fabs(sum)), "%s c%d: %.17g vs %.17g",
                jet_format_name(fmts[fi]), c, st.sum[c], sum);
      CHECK(fabs(st.mean[c] - sum / (w * h)) <= 1e-9 * (1 + fabs(sum)));
      CHECK(st.min[c] == lo && st.max[c] == hi);
    }
    ref_image_free(&s);
  }
  ref_image g;
  CHECK(alloc_random(&g, JET_FORMAT_GRAY8, 1921, 17, 3) == 0);
  *at(&g, 0, 5, 5, 1) = 0;
  *at(&g, 0, 6, 5, 1) = 255;
  uint32_t hist[256];
  CHECK(ref_histogram(&g, hist) == 0);
  uint64_t total = 0;
  for (int i = 0; i < 256; i++) total += hist[i];
  CHECK(total == 1921u * 17u);
  CHECK(hist[0] >= 1 && hist[255] >= 1);
  int v = *at(&g, 0, 100, 3, 1);
  uint32_t count = 0;
  for (int y = 0; y < 17; y++)
    for (int x = 0; x < 1921; x++) count += *at(&g, 0, x, y, 1) == v;
  CHECK(hist[v] == count);
  ref_image_free(&g);
  ref_image r;
  CHECK(ref_image_alloc(&r, JET_FORMAT_RGBA8, 4, 4, 0) == 0);
  CHECK(ref_histogram(&r, hist) == -1);
  ref_image_free(&r);
  return 0;
}

/* ------------------------------------------------------------ DNN preprocess */

TEST(ref_dnn_preprocess_properties) {
  int w = 24, h = 16;
  ref_image rgba, nv, rgb, out;
  CHECK(alloc_random(&rgba, JET_FORMAT_RGBA8, w, h, 4) == 0);
  CHECK(alloc_random(&nv, JET_FORMAT_NV12, w, h, 2) == 0);
  CHECK(ref_image_alloc(&rgb, JET_FORMAT_RGB8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&out, JET_FORMAT_RGBF32P, w, h, 8) == 0);
  ref_dnn_params p;
  memset(&p, 0, sizeof p);
  p.matrix = JET_COLOR_BT709;
  p.range = JET_COLOR_RANGE_LIMITED;
  for (int c = 0; c < 3; c++) {
    p.mean[c] = 0.1f * (float)(c + 1);
    p.stddev[c] = 0.2f + 0.05f * (float)c;
    p.pad[c] = 114;
  }
  /* same size, no letterbox: each output is the normalised input pixel */
  for (int bgr = 0; bgr < 2; bgr++)
    for (int s = 0; s < 2; s++) {
      p.bgr = bgr;
      const ref_image *src = s ? &nv : &rgba;
      if (s) CHECK(ref_convert(&nv, &rgb, p.matrix, p.range) == 0);
      ref_image_poison(&out, 0xFF);
      CHECK(ref_dnn_preprocess(src, &out, &p) == 0);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          for (int c = 0; c < 3; c++) {
            int v = s ? at(&rgb, 0, x, y, 3)[c] : at(&rgba, 0, x, y, 4)[c];
            float e = (float)((v / 255.0 - p.mean[c]) / p.stddev[c]);
            float o = *(float *)(void *)at(&out, bgr ? 2 - c : c, x, y, 4);
            CHECK_MSG(fabsf(o - e) <= 1e-6f * (1 + fabsf(e)), "(%d,%d,%d) %g vs %g", x, y, c, o, e);
          }
    }
  /* letterbox a 2:1 source into a square: the content keeps the aspect and
   * is centred; the rest is the normalised pad */
  ref_image wide, sq;
  CHECK(alloc_random(&wide, JET_FORMAT_RGBA8, 40, 20, 0) == 0);
  CHECK(ref_image_alloc(&sq, JET_FORMAT_RGBF32P, 30, 30, 0) == 0);
  int ox, oy, cw, ch;
  ref_letterbox_rect(40, 20, 30, 30, 1, &ox, &oy, &cw, &ch);
  CHECK(cw == 30 && ch == 15 && ox == 0 && oy == (30 - 15) / 2);
  ref_letterbox_rect(20, 40, 30, 30, 1, &ox, &oy, &cw, &ch);
  CHECK(ch == 30 && cw == 15 && oy == 0 && ox == 7);
  ref_letterbox_rect(40, 20, 30, 30, 0, &ox, &oy, &cw, &ch);
  CHECK(cw == 30 && ch == 30 && ox == 0 && oy == 0);
  p.bgr = 0;
  p.letterbox = 1;
  CHECK(ref_dnn_preprocess(&wide, &sq, &p) == 0);
  for (int y = 0; y < 30; y++)
    for (int c = 0; c < 3; c++) {
      float o = *(float *)(void *)at(&sq, c, 3, y, 4);
      float padv = (float)((114 / 255.0 - p.mean[c]) / p.stddev[c]);
      int inside = y >= 7 && y < 22;
      if (!inside) CHECK(o == padv);
      else CHECK(o >= (0 - p.mean[c]) / p.stddev[c] - 1e-5f && o <= (1 - p.mean[c]) / p.stddev[c] + 1e-5f);
    }
  CHECK(ref_dnn_preprocess(&rgb, &out, &p) == -1); /* RGB8 is not a DNN source */
  ref_image_free(&wide);
  ref_image_free(&sq);
  ref_image_free(&rgba);
  ref_image_free(&nv);
  ref_image_free(&rgb);
  ref_image_free(&out);
  return 0;
}
