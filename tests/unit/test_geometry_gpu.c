/* Transpose, flip and rotation (jetrt/geometry.h) against the CPU references
 * on fresh random images: every format x operation at small sizes, at
 * 1921x1081, a subset at 3840x2160, wrapped memory with padded and unaligned
 * pitches, poisoned outputs, and the bad-input statuses. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "../ref/ref_image.h"

typedef enum {
  OP_TRANSPOSE, OP_FLIP_H, OP_FLIP_V, OP_FLIP_BOTH, OP_ROT90, OP_ROT180, OP_ROT270, OP_COUNT
} gop;

static const char *const op_names[OP_COUNT] = {"transpose", "flip-h", "flip-v", "flip-both",
                                               "rot90", "rot180", "rot270"};

static const jet_format geo_formats[] = {JET_FORMAT_GRAY8, JET_FORMAT_GRAY16, JET_FORMAT_GRAYF32,
                                         JET_FORMAT_RGB8,  JET_FORMAT_BGR8,   JET_FORMAT_RGBA8,
                                         JET_FORMAT_BGRA8, JET_FORMAT_RGBF32};
#define N_GEO_FORMATS ((int)(sizeof geo_formats / sizeof geo_formats[0]))

static int swaps(gop o) { return o == OP_TRANSPOSE || o == OP_ROT90 || o == OP_ROT270; }

static jet_status gpu_op(jet_stream s, jet_image a, jet_image b, gop o) {
  switch (o) {
    case OP_TRANSPOSE: return jet_transpose(s, a, b);
    case OP_FLIP_H: return jet_flip_image(s, a, b, JET_FLIP_HORIZONTAL);
    case OP_FLIP_V: return jet_flip_image(s, a, b, JET_FLIP_VERTICAL);
    case OP_FLIP_BOTH: return jet_flip_image(s, a, b, JET_FLIP_BOTH);
    case OP_ROT90: return jet_rotate(s, a, b, JET_ROTATE_90);
    case OP_ROT180: return jet_rotate(s, a, b, JET_ROTATE_180);
    default: return jet_rotate(s, a, b, JET_ROTATE_270);
  }
}

static int ref_op(const ref_image *a, ref_image *b, gop o) {
  switch (o) {
    case OP_TRANSPOSE: return ref_transpose(a, b);
    case OP_FLIP_H: return ref_flip(a, b, JET_FLIP_HORIZONTAL);
    case OP_FLIP_V: return ref_flip(a, b, JET_FLIP_VERTICAL);
    case OP_FLIP_BOTH: return ref_flip(a, b, JET_FLIP_BOTH);
    case OP_ROT90: return ref_rotate(a, b, JET_ROTATE_90);
    case OP_ROT180: return ref_rotate(a, b, JET_ROTATE_180);
    default: return ref_rotate(a, b, JET_ROTATE_270);
  }
}

/* A device image, made by jet_image_create or wrapped around cudaMalloc memory
 * whose pitch has @extra bytes beyond the row and whose start is @offset
 * bytes into the allocation. */
typedef struct dimg {
  jet_image img;
  void *mem;    /* wrapped allocation or NULL */
  size_t bytes; /* of mem */
  size_t pitch;
} dimg;

static int dimg_make(dimg *d, jet_context ctx, jet_format f, int w, int h, int wrapped,
                     size_t extra, size_t offset) {
  memset(d, 0, sizeof *d);
  if (!wrapped) {
    CHECK_OK(jet_image_create(ctx, f, w, h, &d->img));
    return 0;
  }
  jet_format_desc fd;
  CHECK_OK(jet_format_info(f, &fd));
  d->pitch = (size_t)w * (size_t)fd.bytes_per_pixel[0] + extra;
  d->bytes = offset + d->pitch * (size_t)h;
  CHECK(cudaMalloc(&d->mem, d->bytes) == cudaSuccess);
  CHECK(cudaMemset(d->mem, 0xA5, d->bytes) == cudaSuccess);
  jet_image_plane p = {(char *)d->mem + offset, d->pitch};
  CHECK_OK(jet_image_wrap(ctx, f, w, h, &p, 1, JET_IMAGE_MEMORY_DEVICE, &d->img));
  return 0;
}

static int dimg_free(dimg *d) {
  CHECK_OK(jet_image_destroy(d->img));
  if (d->mem) CHECK(cudaFree(d->mem) == cudaSuccess);
  return 0;
}

/* For a wrapped destination: every byte outside the pixels (row padding and
 * the leading offset) still holds the 0xA5 poison. */
static int check_padding(const dimg *d, size_t offset, size_t row_bytes, int h) {
  if (!d->mem) return 0;
  unsigned char *all = malloc(d->bytes);
  CHECK(all);
  CHECK(cudaMemcpy(all, d->mem, d->bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (size_t i = 0; i < offset; i++) CHECK_MSG(all[i] == 0xA5, "byte %zu before the image", i);
  for (int y = 0; y < h; y++)
    for (size_t b = row_bytes; b < d->pitch; b++) {
      size_t i = offset + (size_t)y * d->pitch + b;
      if (all[i] != 0xA5) {
        free(all);
        CHECK_MSG(0, "padding byte %zu of row %d was written", b, y);
      }
    }
  free(all);
  return 0;
}

typedef struct case_opts {
  int wrapped;
  size_t src_extra, dst_extra, src_off, dst_off;
} case_opts;

/* One operation on fresh random data: poisoned destination, exact comparison. */
static int run_case(jet_context ctx, jet_stream s, jet_format f, int w, int h, gop o,
                    const case_opts *opt) {
  int dw = swaps(o) ? h : w, dh = swaps(o) ? w : h;
  ref_image src, want, got;
  CHECK(ref_image_alloc(&src, f, w, h, jt_rand() % 9) == 0);
  CHECK(ref_image_alloc(&want, f, dw, dh, 0) == 0);
  CHECK(ref_image_alloc(&got, f, dw, dh, jt_rand() % 9) == 0);
  ref_image_randomize(&src, jt_rand);
  CHECK(ref_op(&src, &want, o) == 0);

  dimg a, b;
  case_opts none = {0, 0, 0, 0, 0};
  if (!opt) opt = &none;
  if (dimg_make(&a, ctx, f, w, h, opt->wrapped, opt->src_extra, opt->src_off)) return 1;
  if (dimg_make(&b, ctx, f, dw, dh, opt->wrapped, opt->dst_extra, opt->dst_off)) return 1;
  jet_image_plane in, out;
  ref_image_planes(&src, &in);
  CHECK_OK(jet_image_upload(a.img, &in, 1));
  if (!opt->wrapped) { /* wrapped memory is poisoned by dimg_make (padding included) */
    ref_image poison;
    CHECK(ref_image_alloc(&poison, f, dw, dh, 0) == 0);
    ref_image_poison(&poison, 0xA5);
    jet_image_plane pp;
    ref_image_planes(&poison, &pp);
    CHECK_OK(jet_image_upload(b.img, &pp, 1));
    ref_image_free(&poison);
  }
  ref_image_poison(&got, 0x5A);
  CHECK_OK(gpu_op(s, a.img, b.img, o));
  CHECK_OK(jet_stream_synchronize(s));
  ref_image_planes(&got, &out);
  CHECK_OK(jet_image_download(b.img, &out, 1));
  char why[256];
  int bad = ref_image_compare(&got, &want, 0, why, sizeof why);
  if (bad)
    fprintf(stderr, "%s %s %dx%d (wrapped %d, pitch extra %zu/%zu, offset %zu/%zu): %s\n",
            op_names[o], jet_format_name(f), w, h, opt->wrapped, opt->src_extra, opt->dst_extra,
            opt->src_off, opt->dst_off, why);
  CHECK(!bad);
  if (check_padding(&b, opt->dst_off, got.row_bytes[0], dh)) {
    fprintf(stderr, "  %s %s %dx%d\n", op_names[o], jet_format_name(f), w, h);
    return 1;
  }
  if (dimg_free(&a) || dimg_free(&b)) return 1;
  ref_image_free(&src);
  ref_image_free(&want);
  ref_image_free(&got);
  return 0;
}

static int open_gpu(jet_context *ctx, jet_stream *s) {
  CHECK_OK(jt_context(ctx, 0));
  CHECK_OK(jet_stream_create(*ctx, NULL, s));
  return 0;
}

static int close_gpu(jet_context ctx, jet_stream s) {
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Every format x operation at small sizes, including tile and chunk edges
 * (16- and 48-byte rows, 32/64/128-pixel tiles plus one; sizes in multiples
 * of 4 for the word-wide 1- and 3-byte transposes, with 128x32 tiles). */
TEST(gpu_geometry_small_sizes) {
  REQUIRE_GPU();
  static const int sizes[][2] = {{1, 1},  {2, 3},    {17, 9},   {16, 3},  {64, 5},   {3, 1},
                                 {1, 37}, {33, 65},  {129, 7},  {7, 130}, {130, 131}, {48, 40},
                                 {256, 2}, {65, 257}, {4, 4},  {132, 36}, {128, 32}, {256, 100},
                                 {36, 260}};
  jet_context ctx;
  jet_stream s;
  if (open_gpu(&ctx, &s)) return 1;
  for (int fi = 0; fi < N_GEO_FORMATS; fi++)
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      for (int o = 0; o < OP_COUNT; o++)
        if (run_case(ctx, s, geo_formats[fi], sizes[k][0], sizes[k][1], (gop)o, NULL)) return 1;
  return close_gpu(ctx, s);
}

TEST(gpu_geometry_1921x1081) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream s;
  if (open_gpu(&ctx, &s)) return 1;
  for (int fi = 0; fi < N_GEO_FORMATS; fi++)
    for (int o = 0; o < OP_COUNT; o++)
      if (run_case(ctx, s, geo_formats[fi], 1921, 1081, (gop)o, NULL)) return 1;
  /* 1920 wide: the chunked flip path for every format */
  for (int fi = 0; fi < N_GEO_FORMATS; fi++)
    for (int o = OP_FLIP_H; o <= OP_ROT180; o++)
      if (o != OP_ROT90 && run_case(ctx, s, geo_formats[fi], 1920, 1081, (gop)o, NULL)) return 1;
  /* 1920x1080: the word-wide transposes of 1- and 3-byte pixels */
  static const gop swapping[] = {OP_TRANSPOSE, OP_ROT90, OP_ROT270};
  for (int fi = 0; fi < N_GEO_FORMATS; fi++)
    for (int o = 0; o < 3; o++)
      if (run_case(ctx, s, geo_formats[fi], 1920, 1080, swapping[o], NULL)) return 1;
  return close_gpu(ctx, s);
}

TEST(gpu_geometry_3840x2160) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream s;
  if (open_gpu(&ctx, &s)) return 1;
  static const jet_format all_ops[] = {JET_FORMAT_GRAY8, JET_FORMAT_GRAYF32, JET_FORMAT_RGBA8};
  for (int fi = 0; fi < 3; fi++)
    for (int o = 0; o < OP_COUNT; o++)
      if (run_case(ctx, s, all_ops[fi], 3840, 2160, (gop)o, NULL)) return 1;
  static const jet_format some_ops[] = {JET_FORMAT_RGB8, JET_FORMAT_RGBF32, JET_FORMAT_GRAY16};
  static const gop some[] = {OP_TRANSPOSE, OP_ROT180, OP_ROT270, OP_ROT90};
  for (int fi = 0; fi < 3; fi++)
    for (int o = 0; o < 4; o++) {
      if (some_ops[fi] == JET_FORMAT_RGBF32 && o) continue; /* 100 MB a side: keep the test short */
      if (run_case(ctx, s, some_ops[fi], 3840, 2160, some[o], NULL)) return 1;
    }
  return close_gpu(ctx, s);
}

/* Wrapped memory: pitches with 64 spare bytes (aligned fast paths), with one
 * element spare and pointers one element in (unaligned per-pixel paths);
 * the padding must stay poisoned. */
TEST(gpu_geometry_wrapped_pitches) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream s;
  if (open_gpu(&ctx, &s)) return 1;
  static const int sizes[][2] = {{17, 9}, {64, 33}, {132, 68}, {1921, 1081}};
  for (int fi = 0; fi < N_GEO_FORMATS; fi++) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(geo_formats[fi], &d));
    size_t e = (size_t)d.elem_size;
    const case_opts opts[] = {{1, 64, 64, 0, 0},
                              {1, e, 3 * e, e, 0},
                              {1, 64 + e, e, 0, 2 * e},
                              {1, 12, 76, 4 * e, 12}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      for (size_t oi = 0; oi < sizeof opts / sizeof opts[0]; oi++)
        for (int o = 0; o < OP_COUNT; o++) {
          if (sizes[k][0] > 1000 && oi > 1 && (o == OP_FLIP_V || o == OP_ROT90)) continue;
          /* pitches must stay multiples of the element size */
          if (opts[oi].src_extra % e || opts[oi].dst_extra % e) continue;
          if (run_case(ctx, s, geo_formats[fi], sizes[k][0], sizes[k][1], (gop)o, &opts[oi]))
            return 1;
        }
  }
  const case_opts big = {1, 64, 256 + 4, 0, 4};
  for (int o = 0; o < OP_COUNT; o++)
    if (run_case(ctx, s, JET_FORMAT_GRAYF32, 3840, 2160, (gop)o, &big)) return 1;
  return close_gpu(ctx, s);
}

/* ------------------------------------------------------------ bad input */

TEST(badarg_geometry_null_handles) {
  CHECK_ST(jet_transpose(NULL, NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_flip_image(NULL, NULL, NULL, JET_FLIP_BOTH), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_rotate(NULL, NULL, NULL, JET_ROTATE_90), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_rotate(NULL, NULL, NULL, JET_ROTATE_180), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_flip_image(NULL, NULL, NULL, (jet_flip)0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_flip_image(NULL, NULL, NULL, (jet_flip)4), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_rotate(NULL, NULL, NULL, (jet_rotation)0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_rotate(NULL, NULL, NULL, (jet_rotation)45), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_rotate(NULL, NULL, NULL, (jet_rotation)360), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(gpu_badarg_geometry) {
  REQUIRE_GPU();
  jet_context ctx, other;
  jet_stream s, s_other;
  if (open_gpu(&ctx, &s)) return 1;
  if (open_gpu(&other, &s_other)) return 1;
  jet_image a, b, sq, t, gray, nv12, dead, foreign;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 40, 24, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 40, 24, &b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 24, 40, &t));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 24, 24, &sq));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, 40, 24, &gray));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 40, 24, &nv12));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 40, 24, &dead));
  CHECK_OK(jet_image_destroy(dead));
  CHECK_OK(jet_image_create(other, JET_FORMAT_RGBA8, 40, 24, &foreign));

  /* the good calls work */
  CHECK_OK(jet_transpose(s, a, t));
  CHECK_OK(jet_flip_image(s, a, b, JET_FLIP_HORIZONTAL));
  CHECK_OK(jet_rotate(s, a, t, JET_ROTATE_270));
  CHECK_OK(jet_stream_synchronize(s));

  /* NULL and destroyed images, NULL stream */
  CHECK_ST(jet_transpose(s, NULL, t), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_transpose(s, a, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_transpose(NULL, a, t), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_flip_image(s, dead, b, JET_FLIP_VERTICAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_flip_image(s, a, dead, JET_FLIP_VERTICAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_rotate(s, dead, t, JET_ROTATE_90), JET_STATUS_INVALID_HANDLE);
  /* other contexts: destination image, stream */
  CHECK_ST(jet_flip_image(s, a, foreign, JET_FLIP_BOTH), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_flip_image(s_other, a, b, JET_FLIP_BOTH), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_transpose(s_other, a, t), JET_STATUS_WRONG_CONTEXT);
  /* format and size mismatch */
  CHECK_ST(jet_flip_image(s, a, gray, JET_FLIP_BOTH), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "format mismatch"));
  CHECK_ST(jet_flip_image(s, nv12, nv12, JET_FLIP_BOTH), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_transpose(s, a, b), JET_STATUS_INVALID_ARGUMENT); /* 40x24 -> 40x24 */
  CHECK(strstr(jet_last_error_string(), "size mismatch"));
  CHECK_ST(jet_rotate(s, a, b, JET_ROTATE_90), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_rotate(s, a, t, JET_ROTATE_180), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_flip_image(s, a, sq, JET_FLIP_VERTICAL), JET_STATUS_INVALID_ARGUMENT);
  /* in place and overlapping wrapped memory */
  CHECK_ST(jet_flip_image(s, a, a, JET_FLIP_HORIZONTAL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_transpose(s, sq, sq), JET_STATUS_INVALID_ARGUMENT);
  void *mem = NULL;
  CHECK(cudaMalloc(&mem, 64 * 64 * 4) == cudaSuccess);
  jet_image_plane p1 = {mem, 64 * 4}, p2 = {(char *)mem + 64 * 4 * 8, 64 * 4};
  jet_image w1, w2;
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 32, 32, &p1, 1, JET_IMAGE_MEMORY_DEVICE, &w1));
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 32, 32, &p2, 1, JET_IMAGE_MEMORY_DEVICE, &w2));
  CHECK_ST(jet_transpose(s, w1, w2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "overlap"));
  CHECK_ST(jet_rotate(s, w1, w2, JET_ROTATE_180), JET_STATUS_INVALID_ARGUMENT);
  /* bad enum values with good images */
  CHECK_ST(jet_flip_image(s, a, b, (jet_flip)0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_flip_image(s, a, b, (jet_flip)7), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_rotate(s, a, t, (jet_rotation)91), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_rotate(s, a, t, (jet_rotation)-90), JET_STATUS_INVALID_ARGUMENT);

  CHECK_OK(jet_image_destroy(w1));
  CHECK_OK(jet_image_destroy(w2));
  CHECK(cudaFree(mem) == cudaSuccess);
  jet_image imgs[] = {a, b, sq, t, gray, nv12};
  for (int i = 0; i < 6; i++) CHECK_OK(jet_image_destroy(imgs[i]));
  CHECK_OK(jet_image_destroy(foreign));
  if (close_gpu(other, s_other)) return 1;
  return close_gpu(ctx, s);
}
