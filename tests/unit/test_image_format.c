/* The format table, plane layout, validation and format-pair rules of
 * jet_image; all host-only (no CUDA call is reached). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test.h"
#include "../../lib/image/image_internal.h"
#include "../ref/ref_image.h"

#define FOR_EACH_FORMAT(f) for (jet_format f = JET_FORMAT_GRAY8; f < JET_FORMAT_COUNT_; f++)

static jet_format_desc info_of(jet_format f) {
  jet_format_desc d;
  memset(&d, 0, sizeof d);
  (void)jet_format_info(f, &d);
  return d;
}

TEST(image_format_table_consistent) {
  int count = 0;
  FOR_EACH_FORMAT(f) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(f, &d));
    count++;
    CHECK(strcmp(d.name, jet_format_name(f)) == 0);
    CHECK(d.description && d.description[0]);
    CHECK_MSG(d.planes >= 1 && d.planes <= JET_IMAGE_MAX_PLANES, "%s", d.name);
    int es = d.elem == JET_ELEM_U8 ? 1 : d.elem == JET_ELEM_U16 || d.elem == JET_ELEM_F16 ? 2 : 4;
    CHECK_MSG(d.elem >= JET_ELEM_U8 && d.elem <= JET_ELEM_F16, "%s", d.name);
    CHECK_MSG(d.elem_size == es, "%s", d.name);
    for (int i = 0; i < JET_IMAGE_MAX_PLANES; i++) {
      if (i < d.planes) {
        CHECK_MSG(d.bytes_per_pixel[i] > 0 && d.bytes_per_pixel[i] % es == 0, "%s plane %d", d.name, i);
      } else {
        CHECK_MSG(d.bytes_per_pixel[i] == 0, "%s plane %d", d.name, i);
      }
    }
    CHECK_MSG(d.channels >= 1 && d.channels <= 4, "%s", d.name);
    /* only the YUV formats are subsampled, and only they have chroma planes */
    int yuv = f == JET_FORMAT_NV12 || f == JET_FORMAT_NV21 || f == JET_FORMAT_I420 ||
              f == JET_FORMAT_YUYV || f == JET_FORMAT_UYVY;
    CHECK_MSG(yuv == (d.sub_x != 0), "%s", d.name);
    if (d.sub_y) CHECK(d.sub_x);
    /* a packed pixel's bytes are its channels' elements, 4:2:2 packs 2 samples per pixel */
    if (d.planes == 1 && !yuv) CHECK_MSG(d.bytes_per_pixel[0] == d.channels * es, "%s", d.name);
    FOR_EACH_FORMAT(g) if (g != f) CHECK(strcmp(jet_format_name(g), d.name) != 0);
  }
  CHECK(count == JET_FORMAT_COUNT_ - 1);
  CHECK(strcmp(jet_format_name(JET_FORMAT_NONE_), "UNKNOWN") == 0);
  CHECK(strcmp(jet_format_name(JET_FORMAT_COUNT_), "UNKNOWN") == 0);
  CHECK(strcmp(jet_format_name((jet_format)-3), "UNKNOWN") == 0);
  return 0;
}

TEST(badarg_format_info) {
  jet_format_desc d;
  CHECK_ST(jet_format_info(JET_FORMAT_NV12, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_format_info(JET_FORMAT_NONE_, &d), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_format_info(JET_FORMAT_COUNT_, &d), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_format_info((jet_format)1000, &d), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

/* Bytes of pixel data an image holds, from the definition of each format. */
static size_t payload_bytes(jet_format f, size_t w, size_t h) {
  jet_format_desc d = info_of(f);
  if (f == JET_FORMAT_NV12 || f == JET_FORMAT_NV21 || f == JET_FORMAT_I420) return w * h * 3 / 2;
  if (f == JET_FORMAT_YUYV || f == JET_FORMAT_UYVY) return w * h * 2;
  return w * h * (size_t)d.channels * (size_t)d.elem_size;
}

TEST(image_layout_geometry) {
  static const int sizes[][2] = {{2, 2}, {18, 10}, {1920, 1080}, {3840, 2160}, {1, 1}, {17, 9}};
  FOR_EACH_FORMAT(f) {
    jet_format_desc d = info_of(f);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int w = sizes[s][0], h = sizes[s][1];
      if ((d.sub_x && (w & 1)) || (d.sub_y && (h & 1))) continue;
      jet__image_layout l, tight;
      CHECK_OK(jet__image_layout_compute(f, w, h, NULL, JET_IMAGE_PITCH_ALIGN, &l, "test"));
      CHECK_OK(jet__image_layout_compute(f, w, h, NULL, (size_t)d.elem_size, &tight, "test"));
      CHECK(l.planes == d.planes && l.width == w && l.height == h);
      size_t payload = 0;
      void *ptrs[3] = {NULL, NULL, NULL};
      for (int i = 0; i < l.planes; i++) {
        const jet__plane_layout *p = &l.plane[i];
        CHECK(p->width == (i ? w >> d.sub_x : w) && p->height == (i ? h >> d.sub_y : h));
        CHECK(p->row_bytes == (size_t)p->width * (size_t)d.bytes_per_pixel[i]);
        CHECK(p->pitch >= p->row_bytes && p->pitch % JET_IMAGE_PITCH_ALIGN == 0 &&
              p->pitch - p->row_bytes < JET_IMAGE_PITCH_ALIGN);
        CHECK(p->offset % JET_IMAGE_PITCH_ALIGN == 0);
        CHECK(p->extent == p->pitch * (size_t)(p->height - 1) + p->row_bytes);
        CHECK(tight.plane[i].pitch == p->row_bytes);
        payload += p->row_bytes * (size_t)p->height;
        ptrs[i] = (char *)(uintptr_t)0x10000000u + p->offset;
      }
      CHECK_MSG(payload == payload_bytes(f, (size_t)w, (size_t)h), "%s %dx%d", d.name, w, h);
      CHECK(tight.total_bytes == payload_bytes(f, (size_t)w, (size_t)h));
      CHECK(l.total_bytes == l.plane[l.planes - 1].offset + l.plane[l.planes - 1].extent);
      CHECK_OK(jet__image_planes_check(&l, ptrs, "test"));
    }
  }
  return 0;
}

TEST(image_layout_rejects_bad_sizes) {
  jet__image_layout l;
  FOR_EACH_FORMAT(f) {
    CHECK_ST(jet__image_layout_compute(f, 0, 8, NULL, 256, &l, "test"), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet__image_layout_compute(f, 8, 0, NULL, 256, &l, "test"), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet__image_layout_compute(f, -2, 8, NULL, 256, &l, "test"), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet__image_layout_compute(f, 8, INT_MIN, NULL, 256, &l, "test"),
             JET_STATUS_INVALID_ARGUMENT);
  }
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_NONE_, 8, 8, NULL, 256, &l, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_COUNT_, 8, 8, NULL, 256, &l, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(image_layout_even_dimension_rules) {
  jet__image_layout l;
  static const int sizes[][2] = {{1, 1}, {3, 2}, {2, 3}, {17, 9}, {1921, 1081}, {1920, 1081}, {1921, 1080}};
  FOR_EACH_FORMAT(f) {
    jet_format_desc d = info_of(f);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int w = sizes[s][0], h = sizes[s][1];
      int is420 = f == JET_FORMAT_NV12 || f == JET_FORMAT_NV21 || f == JET_FORMAT_I420;
      int is422 = f == JET_FORMAT_YUYV || f == JET_FORMAT_UYVY;
      int legal = !((is420 || is422) && (w & 1)) && !(is420 && (h & 1));
      jet_status st = jet__image_layout_compute(f, w, h, NULL, 256, &l, "test");
      CHECK_MSG(st == (legal ? JET_STATUS_OK : JET_STATUS_INVALID_ARGUMENT), "%s %dx%d: %s", d.name,
                w, h, jet_status_name(st));
      if (!legal) CHECK(strstr(jet_last_error()->message, "even") != NULL);
    }
  }
  return 0;
}

TEST(image_layout_overflow) {
  jet__image_layout l;
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_RGBF32, INT_MAX, INT_MAX, NULL, 256, &l, "test"),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_RGBF32P, INT_MAX, INT_MAX, NULL, 256, &l, "test"),
           JET_STATUS_OVERFLOW);
  size_t huge[3] = {SIZE_MAX - 3, SIZE_MAX - 3, SIZE_MAX - 3};
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_GRAYF32, 16, 2, huge, 1, &l, "test"),
           JET_STATUS_OVERFLOW);
  size_t half[3] = {SIZE_MAX / 2 + 1, 0, 0};
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_GRAY8, 16, 3, half, 1, &l, "test"),
           JET_STATUS_OVERFLOW);
  /* a huge but representable image is fine (the layout only does arithmetic) */
  CHECK_OK(jet__image_layout_compute(JET_FORMAT_RGBF32, INT_MAX, 1024, NULL, 256, &l, "test"));
  return 0;
}

TEST(image_layout_pitch_rules) {
  jet__image_layout l;
  FOR_EACH_FORMAT(f) {
    jet_format_desc d = info_of(f);
    int w = 34, h = 10;
    size_t p[3];
    for (int i = 0; i < 3; i++) p[i] = (size_t)(i ? w >> d.sub_x : w) * (size_t)d.bytes_per_pixel[i];
    CHECK_OK(jet__image_layout_compute(f, w, h, p, 1, &l, "test"));
    for (int i = 0; i < d.planes; i++) {
      size_t q[3] = {p[0], p[1], p[2]};
      q[i] -= (size_t)d.elem_size; /* one element short */
      CHECK_MSG(jet__image_layout_compute(f, w, h, q, 1, &l, "test") == JET_STATUS_INVALID_ARGUMENT,
                "%s plane %d short pitch", d.name, i);
      q[i] = p[i] + (size_t)d.elem_size * 7;
      CHECK_OK(jet__image_layout_compute(f, w, h, q, 1, &l, "test"));
      CHECK(l.plane[i].pitch == q[i]);
      if (d.elem_size > 1) {
        q[i] = p[i] + 1; /* not a multiple of the element */
        CHECK_MSG(jet__image_layout_compute(f, w, h, q, 1, &l, "test") ==
                      JET_STATUS_INVALID_ARGUMENT,
                  "%s plane %d odd pitch", d.name, i);
      }
    }
  }
  return 0;
}

static jet__image_layout layout(jet_format f, int w, int h, size_t pitch) {
  jet__image_layout l;
  size_t p[3] = {pitch, pitch, pitch};
  memset(&l, 0, sizeof l);
  (void)jet__image_layout_compute(f, w, h, pitch ? p : NULL, 256, &l, "test");
  return l;
}

TEST(image_planes_check_pointers) {
  jet__image_layout nv = layout(JET_FORMAT_NV12, 64, 32, 128);
  uintptr_t base = 0x7f0000000000u;
  size_t y_extent = nv.plane[0].extent;
  void *ok[3] = {(void *)base, (void *)(base + y_extent), NULL};
  CHECK_OK(jet__image_planes_check(&nv, ok, "test")); /* touching is not overlapping */
  void *overlap[3] = {(void *)base, (void *)(base + y_extent - 1), NULL};
  CHECK_ST(jet__image_planes_check(&nv, overlap, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  void *before[3] = {(void *)(base + 64), (void *)(base + 64 - nv.plane[1].extent), NULL};
  CHECK_OK(jet__image_planes_check(&nv, before, "test"));
  before[1] = (char *)before[1] + 1;
  CHECK_ST(jet__image_planes_check(&nv, before, "test"), JET_STATUS_INVALID_ARGUMENT);
  void *null_uv[3] = {(void *)base, NULL, NULL};
  CHECK_ST(jet__image_planes_check(&nv, null_uv, "test"), JET_STATUS_INVALID_ARGUMENT);
  void *null_y[3] = {NULL, (void *)(base + y_extent), NULL};
  CHECK_ST(jet__image_planes_check(&nv, null_y, "test"), JET_STATUS_INVALID_ARGUMENT);

  jet__image_layout f = layout(JET_FORMAT_GRAYF32, 16, 4, 64);
  for (uintptr_t mis = 1; mis < 4; mis++) {
    void *p[3] = {(void *)(base + mis), NULL, NULL};
    CHECK_ST(jet__image_planes_check(&f, p, "test"), JET_STATUS_INVALID_ARGUMENT);
  }
  jet__image_layout g16 = layout(JET_FORMAT_GRAY16, 16, 4, 64);
  void *odd[3] = {(void *)(base + 1), NULL, NULL}, *even[3] = {(void *)(base + 2), NULL, NULL};
  CHECK_ST(jet__image_planes_check(&g16, odd, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet__image_planes_check(&g16, even, "test"));
  jet__image_layout rgb = layout(JET_FORMAT_RGB8, 16, 4, 49);
  void *any[3] = {(void *)(base + 3), NULL, NULL};
  CHECK_OK(jet__image_planes_check(&rgb, any, "test"));
  /* a plane running past the end of the address space */
  void *wrap[3] = {(void *)(UINTPTR_MAX - 63), NULL, NULL};
  CHECK_ST(jet__image_planes_check(&f, wrap, "test"), JET_STATUS_OVERFLOW);

  jet__image_layout i420 = layout(JET_FORMAT_I420, 32, 16, 64);
  void *p3[3] = {(void *)base, (void *)(base + 0x10000), (void *)(base + 0x10000 + 8)};
  CHECK_ST(jet__image_planes_check(&i420, p3, "test"), JET_STATUS_INVALID_ARGUMENT);
  p3[2] = (void *)(base + 0x20000);
  CHECK_OK(jet__image_planes_check(&i420, p3, "test"));
  return 0;
}

TEST(image_overlap_detection) {
  jet__image_layout a = layout(JET_FORMAT_RGBA8, 16, 8, 64), n = layout(JET_FORMAT_NV12, 16, 8, 32);
  uintptr_t base = 0x500000000u;
  size_t ea = a.plane[0].extent;
  void *pa[3] = {(void *)base, NULL, NULL};
  void *pb[3] = {(void *)(base + ea), NULL, NULL};
  CHECK(!jet__image_overlaps(&a, pa, &a, pb));
  CHECK(jet__image_overlaps(&a, pa, &a, pa));
  pb[0] = (void *)(base + ea - 1);
  CHECK(jet__image_overlaps(&a, pa, &a, pb));
  CHECK(jet__image_overlaps(&a, pb, &a, pa)); /* symmetric */
  /* second plane of a multi-plane image overlapping */
  void *pn[3] = {(void *)(base - 0x10000), (void *)(base + ea - 4), NULL};
  CHECK(jet__image_overlaps(&a, pa, &n, pn));
  CHECK(jet__image_overlaps(&n, pn, &a, pa));
  pn[1] = (void *)(base + ea);
  CHECK(!jet__image_overlaps(&a, pa, &n, pn));
  return 0;
}

static int in_list(jet_format f, const jet_format *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (list[i] == f) return 1;
  return 0;
}

/* Every conversion pair the issue lists, and nothing else, is accepted; the
 * CPU reference implements exactly the accepted pairs. */
TEST(image_convert_pairs) {
  static const jet_format yuv[] = {JET_FORMAT_NV12, JET_FORMAT_NV21, JET_FORMAT_I420,
                                   JET_FORMAT_YUYV, JET_FORMAT_UYVY};
  static const jet_format rgbg[] = {JET_FORMAT_RGBA8, JET_FORMAT_RGB8, JET_FORMAT_BGR8,
                                    JET_FORMAT_BGRA8, JET_FORMAT_GRAY8};
  static const jet_format enc_src[] = {JET_FORMAT_RGBA8, JET_FORMAT_RGB8};
  static const jet_format enc_dst[] = {JET_FORMAT_NV12, JET_FORMAT_I420};
  int accepted = 0;
  FOR_EACH_FORMAT(s) FOR_EACH_FORMAT(d) {
    int want = (in_list(s, yuv, 5) && in_list(d, rgbg, 5)) ||
               (in_list(s, enc_src, 2) && in_list(d, enc_dst, 2)) ||
               (in_list(s, rgbg, 5) && in_list(d, rgbg, 5) && s != d);
    jet_status st = jet__image_formats_fit(JET__IMAGE_OP_CONVERT, s, 4, 2, d, 4, 2, "test");
    CHECK_MSG(st == (want ? JET_STATUS_OK : JET_STATUS_INVALID_ARGUMENT), "%s -> %s: %s",
              jet_format_name(s), jet_format_name(d), jet_status_name(st));
    if (!want) CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
    accepted += want;
    ref_image a, b;
    CHECK(ref_image_alloc(&a, s, 4, 2, 0) == 0 && ref_image_alloc(&b, d, 4, 2, 0) == 0);
    ref_image_randomize(&a, jt_rand);
    int r = ref_convert(&a, &b, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED);
    ref_image_free(&a);
    ref_image_free(&b);
    CHECK_MSG((r == 0) == want, "reference and validation disagree on %s -> %s",
              jet_format_name(s), jet_format_name(d));
  }
  CHECK(accepted == 5 * 5 + 2 * 2 + 5 * 4);
  /* sizes must match; a subsampled side keeps its even rule elsewhere */
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_CONVERT, JET_FORMAT_NV12, 4, 2, JET_FORMAT_RGBA8,
                                  4, 4, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "size mismatch", 13) == 0);
  return 0;
}

TEST(image_op_format_rules) {
  static const jet_format pixel[] = {JET_FORMAT_GRAY8,   JET_FORMAT_RGB8,   JET_FORMAT_BGR8,
                                     JET_FORMAT_RGBA8,   JET_FORMAT_BGRA8,  JET_FORMAT_GRAYF32,
                                     JET_FORMAT_RGBF32};
  FOR_EACH_FORMAT(s) FOR_EACH_FORMAT(d) {
    int pix = s == d && in_list(s, pixel, 7);
    jet_format_desc ds = info_of(s);
    int packed = s == d && ds.planes == 1 && !ds.sub_x;
    struct {
      jet__image_op op;
      int want, dw, dh;
    } rows[] = {
        {JET__IMAGE_OP_RESIZE, pix, 6, 4},    {JET__IMAGE_OP_FILTER, pix, 8, 6},
        {JET__IMAGE_OP_REMAP, pix, 2, 2},     {JET__IMAGE_OP_FLIP, packed, 8, 6},
        {JET__IMAGE_OP_TRANSPOSE, packed, 6, 8},
        {JET__IMAGE_OP_DNN,
         (s == JET_FORMAT_NV12 || s == JET_FORMAT_RGBA8) &&
             (d == JET_FORMAT_RGBF32P || d == JET_FORMAT_RGBF16P),
         6, 4},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
      jet_status st = jet__image_formats_fit(rows[r].op, s, 8, 6, d, rows[r].dw, rows[r].dh, "test");
      CHECK_MSG(st == (rows[r].want ? JET_STATUS_OK : JET_STATUS_INVALID_ARGUMENT),
                "%s %s -> %s: %s", jet__image_op_name(rows[r].op), jet_format_name(s),
                jet_format_name(d), jet_status_name(st));
    }
  }
  FOR_EACH_FORMAT(s) {
    jet_format_desc ds = info_of(s);
    CHECK((jet__image_formats_fit(JET__IMAGE_OP_REDUCE, s, 8, 6, JET_FORMAT_NONE_, 0, 0, "t") ==
           JET_STATUS_OK) == (ds.planes == 1 && !ds.sub_x));
    CHECK((jet__image_formats_fit(JET__IMAGE_OP_HISTOGRAM, s, 8, 6, JET_FORMAT_NONE_, 0, 0, "t") ==
           JET_STATUS_OK) == (s == JET_FORMAT_GRAY8));
  }
  /* size relations */
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_FILTER, JET_FORMAT_RGBA8, 8, 6, JET_FORMAT_RGBA8, 8,
                                  7, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_TRANSPOSE, JET_FORMAT_GRAYF32, 8, 6,
                                  JET_FORMAT_GRAYF32, 8, 6, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "size mismatch", 13) == 0);
  CHECK_OK(jet__image_formats_fit(JET__IMAGE_OP_TRANSPOSE, JET_FORMAT_GRAYF32, 7, 7,
                                  JET_FORMAT_GRAYF32, 7, 7, "t"));
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_FLIP, JET_FORMAT_GRAY8, 8, 6, JET_FORMAT_GRAY8, 6,
                                  8, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_RESIZE, JET_FORMAT_NONE_, 8, 6, JET_FORMAT_GRAY8, 6,
                                  8, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_RESIZE, JET_FORMAT_GRAY8, 8, 6, JET_FORMAT_COUNT_, 6,
                                  8, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__image_formats_fit((jet__image_op)99, JET_FORMAT_GRAY8, 8, 6, JET_FORMAT_GRAY8, 8, 6,
                                  "t"),
           JET_STATUS_INTERNAL);
  return 0;
}

/* Public entry points refuse bad handles and arguments before touching CUDA. */
TEST(badarg_image_handles) {
  jet_image img = (jet_image)(uintptr_t)0x1234;
  CHECK_ST(jet_image_create(NULL, JET_FORMAT_RGBA8, 4, 4, &img), JET_STATUS_INVALID_HANDLE);
  CHECK(img == NULL);
  CHECK_ST(jet_image_create(NULL, JET_FORMAT_RGBA8, 4, 4, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_image_plane pl[1] = {{(void *)(uintptr_t)0x1000, 64}};
  CHECK_ST(jet_image_wrap(NULL, JET_FORMAT_GRAY8, 4, 4, pl, 1, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_wrap(NULL, JET_FORMAT_GRAY8, 4, 4, pl, 1, JET_IMAGE_MEMORY_DEVICE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  /* a pointer that was never a jet_image, and one of another type */
  int junk[16] = {0};
  jet_image fake = (jet_image)(void *)junk;
  int w, h, n;
  jet_format f;
  jet_image_memory m;
  jet_image_plane_info pi;
  CHECK_ST(jet_image_get_size(fake, &w, &h), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_size(NULL, &w, &h), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_format(fake, &f), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_memory(fake, &m, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_plane_count(fake, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_plane(fake, 0, &pi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_upload(fake, pl, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_download(NULL, pl, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_upload_async(fake, pl, 1, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_download_async(fake, pl, 1, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_destroy(fake), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_image_destroy(NULL));
  CHECK_ST(jet__image_check_pair(fake, fake, JET__IMAGE_OP_FILTER, "test"), JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* RGBF16P: appended (values are stable), planar half, 2-byte elements. */
TEST(image_format_rgbf16p) {
  CHECK(JET_FORMAT_RGBF16P == JET_FORMAT_UYVY + 1 && JET_FORMAT_RGBF16P == JET_FORMAT_COUNT_ - 1);
  CHECK(JET_ELEM_F16 == 4);
  jet_format_desc d = info_of(JET_FORMAT_RGBF16P);
  CHECK(strcmp(d.name, "RGBF16P") == 0 && d.planes == 3 && d.channels == 3);
  CHECK(d.elem == JET_ELEM_F16 && d.elem_size == 2);
  for (int i = 0; i < 3; i++) CHECK(d.bytes_per_pixel[i] == 2);
  jet__image_layout l;
  CHECK_OK(jet__image_layout_compute(JET_FORMAT_RGBF16P, 17, 9, NULL, JET_IMAGE_PITCH_ALIGN, &l, "t"));
  for (int i = 0; i < 3; i++)
    CHECK(l.plane[i].width == 17 && l.plane[i].height == 9 && l.plane[i].row_bytes == 34);
  size_t odd[3] = {35, 36, 36};
  CHECK_ST(jet__image_layout_compute(JET_FORMAT_RGBF16P, 17, 9, odd, 1, &l, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  /* operations other than the DNN preprocess refuse it */
  static const jet__image_op ops[] = {JET__IMAGE_OP_CONVERT, JET__IMAGE_OP_RESIZE,
                                      JET__IMAGE_OP_FILTER,  JET__IMAGE_OP_REMAP,
                                      JET__IMAGE_OP_FLIP,    JET__IMAGE_OP_TRANSPOSE};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    CHECK_ST(jet__image_formats_fit(ops[i], JET_FORMAT_RGBF16P, 8, 8, JET_FORMAT_RGBF16P, 8, 8, "t"),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
  }
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_REDUCE, JET_FORMAT_RGBF16P, 8, 8, JET_FORMAT_NONE_,
                                  0, 0, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
  CHECK_ST(jet__image_formats_fit(JET__IMAGE_OP_DNN, JET_FORMAT_RGBF16P, 8, 8, JET_FORMAT_RGBF32P,
                                  8, 8, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet__image_formats_fit(JET__IMAGE_OP_DNN, JET_FORMAT_NV12, 8, 8, JET_FORMAT_RGBF16P, 3,
                                  5, "t"));
  return 0;
}

/* The reference's float -> half conversion: known values, ties to even,
 * subnormals, overflow, specials; every half round-trips; random floats go
 * to the nearest half (checked against its neighbours in double). */
static float f_of(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

TEST(ref_half_conversion) {
  static const struct {
    float f;
    uint16_t h;
  } known[] = {
      {0.0f, 0x0000},          {1.0f, 0x3c00},          {-2.0f, 0xc000},
      {0.5f, 0x3800},          {65504.0f, 0x7bff},      {-65504.0f, 0xfbff},
      {65519.99f, 0x7bff},     {65520.0f, 0x7c00},      {1.0e6f, 0x7c00},
      {-1.0e30f, 0xfc00},      {0.1f, 0x2e66},          {0.333333343f, 0x3555},
      {6.103515625e-05f, 0x0400}, /* 2^-14, smallest normal */
      {6.0975551605224609e-05f, 0x03ff}, /* largest subnormal, 1023 * 2^-24 */
      {5.9604644775390625e-08f, 0x0001}, /* 2^-24 */
      {2.98023223876953125e-08f, 0x0000}, /* 2^-25: tie, to even 0 */
      {-2.98023223876953125e-08f, 0x8000},
      {2.9802326e-08f, 0x0001},  /* just above 2^-25 */
      {8.94069671630859375e-08f, 0x0002}, /* 3 * 2^-25: tie between 1 and 2, to 2 */
      {1.490116119384765625e-07f, 0x0002}, /* 5 * 2^-25: tie between 2 and 3, to 2 */
      {1.00048828125f, 0x3c00},  /* 1 + 2^-11: tie, to even 0x3c00 */
      {1.00146484375f, 0x3c02},  /* 1 + 3 * 2^-11: tie, to even 0x3c02 */
      {1.0005f, 0x3c01},         /* above the tie */
      {2047.0f, 0x67ff},         {2049.0f, 0x6800}, /* tie, to even 2048 */
      {2051.0f, 0x6802},         /* tie, to even 2052 */
      {1.0e-30f, 0x0000},        {-1.0e-40f, 0x8000}, /* float subnormal */
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    CHECK_MSG(ref_f32_to_f16(known[i].f) == known[i].h, "%.9g -> 0x%04x, want 0x%04x",
              (double)known[i].f, ref_f32_to_f16(known[i].f), known[i].h);
  CHECK(ref_f32_to_f16(f_of(0x3f801001u)) == 0x3c01); /* one float step above the tie */
  CHECK(ref_f32_to_f16(f_of(0x3f800fffu)) == 0x3c00); /* one below */
  CHECK(ref_f32_to_f16(-0.0f) == 0x8000);
  CHECK(ref_f32_to_f16(INFINITY) == 0x7c00 && ref_f32_to_f16(-INFINITY) == 0xfc00);
  uint16_t n = ref_f32_to_f16(NAN);
  CHECK((n & 0x7c00) == 0x7c00 && (n & 0x3ff) != 0);
  CHECK((ref_f32_to_f16(f_of(0x7f800001u)) & 0x3ff) != 0); /* a payload only in low bits */
  CHECK(isnan(ref_f16_to_f32(0x7e00)) && ref_f16_to_f32(0xfc00) == -INFINITY);
  CHECK(ref_f16_to_f32(0x0001) == 5.9604644775390625e-08f && ref_f16_to_f32(0x3c00) == 1.0f);
  /* the spacing of halves: 2^-10 on [1, 2), 2^-11 on [0.5, 1), 32 at the top,
   * 2^-24 among the subnormals and at 0 */
  CHECK(ref_f16_ulp(1.0) == 0x1p-10 && ref_f16_ulp(1.999) == 0x1p-10 && ref_f16_ulp(-0.75) == 0x1p-11);
  CHECK(ref_f16_ulp(65504.0) == 32.0 && ref_f16_ulp(0x1p-14) == 0x1p-24);
  CHECK(ref_f16_ulp(0x1p-15) == 0x1p-24 && ref_f16_ulp(0.0) == 0x1p-24);
  for (int h = 0x0400; h < 0x7c00; h += 97) /* the next half up is one ULP away */
    CHECK_MSG(ref_f16_to_f32((uint16_t)(h + 1)) - ref_f16_to_f32((uint16_t)h) ==
                  (float)ref_f16_ulp(ref_f16_to_f32((uint16_t)h)),
              "0x%04x", h);
  for (uint32_t h = 0; h < 65536; h++) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;
    CHECK_MSG(ref_f32_to_f16(ref_f16_to_f32((uint16_t)h)) == h, "0x%04x", h);
  }
  /* random floats over the half range and beyond: the result is the nearest
   * half, an even one on a tie (neighbours compared exactly in double) */
  for (int i = 0; i < 200000; i++) {
    uint32_t e = 100 + jt_rand() % 50; /* 2^-27 .. 2^22 */
    uint32_t bits = (jt_rand() & 0x80000000u) | (e << 23) | (jt_rand() & 0x7fffffu);
    if (i % 4 == 0) bits &= ~0x1fffu | (jt_rand() & 0x1000u); /* near a tie */
    float f = f_of(bits);
    uint16_t h = ref_f32_to_f16(f);
    double v = fabs((double)f), got = fabs((double)ref_f16_to_f32(h));
    uint16_t mag = h & 0x7fff;
    CHECK_MSG((h & 0x8000) == ((bits >> 16) & 0x8000), "%.9g sign", (double)f);
    if (mag == 0x7c00) {
      CHECK_MSG(v >= 65520.0, "%.9g -> inf", (double)f);
      continue;
    }
    double below = mag ? fabs((double)ref_f16_to_f32((uint16_t)(mag - 1))) : -1.0;
    double above = fabs((double)ref_f16_to_f32((uint16_t)(mag + 1)));
    if (mag + 1 == 0x7c00) above = 65536.0; /* where the next step would be */
    double d = fabs(v - got);
    CHECK_MSG(d <= fabs(v - above) && (mag == 0 || d <= fabs(v - below)),
              "%.9g -> 0x%04x (%.9g) not nearest", (double)f, h, got);
    if (d == fabs(v - above) || (mag && d == fabs(v - below)))
      CHECK_MSG((mag & 1) == 0, "%.9g -> 0x%04x: tie not to even", (double)f, h);
  }
  return 0;
}
