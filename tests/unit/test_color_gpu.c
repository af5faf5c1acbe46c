/* jet_convert_color: every format pair, matrix and range against ref_convert
 * on fresh random images, on created images (vector path) and wrapped ones
 * with padded pitches (vector path) or odd pitches and offsets (byte path);
 * and the bad-input statuses, on the host where no CUDA call is involved. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"
#include "jetrt_kernels.h"
#include "../ref/ref_image.h"

static const jet_format conv_formats[] = {
    JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_BGR8, JET_FORMAT_RGBA8, JET_FORMAT_BGRA8,
    JET_FORMAT_NV12,  JET_FORMAT_NV21, JET_FORMAT_I420, JET_FORMAT_YUYV,  JET_FORMAT_UYVY};
#define N_CONV_FORMATS ((int)(sizeof conv_formats / sizeof conv_formats[0]))

static int pair_ok(jet_format s, jet_format d) {
  int ok = jet__image_formats_fit(JET__IMAGE_OP_CONVERT, s, 2, 2, d, 2, 2, "test") == JET_STATUS_OK;
  jet_clear_error();
  return ok;
}

static int legal(jet_format f, int w, int h) {
  jet_format_desc d;
  if (jet_format_info(f, &d) != JET_STATUS_OK) return 0;
  return !((d.sub_x && (w & 1)) || (d.sub_y && (h & 1)));
}

static int is_420(jet_format f) {
  return f == JET_FORMAT_NV12 || f == JET_FORMAT_NV21 || f == JET_FORMAT_I420;
}

static const char *mode_name(int mode) {
  return mode == 0   ? "created"
         : mode == 1 ? "wrapped, padded"
         : mode == 2 ? "wrapped, odd pitch and offset"
                     : "wrapped, pitch and offset 4 past a multiple of 16";
}

/* ------------------------------------------------------------ device images */

typedef struct dimg {
  jet_image img;
  int mode;
  void *mem; /* the wrapped allocation; NULL for a created image */
  size_t bytes;
  jet_format_desc d;
  size_t off[3], pitch[3], row[3];
  int ph[3];
} dimg;

/* mode 0: jet_image_create. mode 1: wrapped, every pitch padded by 16..64 bytes
 * past a multiple of 16 and planes 256-aligned (the vector path stays on).
 * mode 2: wrapped, pitches padded by 1..40 bytes and planes at odd offsets
 * (the byte path). mode 3: wrapped, pitches and plane offsets 4 bytes past a
 * multiple of 16 (4-byte vector accesses; RGB8 rows stored as words, not
 * 16-byte chunks). Wrapped memory is filled with 0xA5 first. */
static int dimg_make(jet_context ctx, jet_format f, int w, int h, int mode, dimg *o) {
  memset(o, 0, sizeof *o);
  o->mode = mode;
  CHECK_OK(jet_format_info(f, &o->d));
  if (mode == 0) {
    CHECK_OK(jet_image_create(ctx, f, w, h, &o->img));
    return 0;
  }
  size_t total = 0;
  for (int i = 0; i < o->d.planes; i++) {
    o->row[i] = (size_t)(i ? w >> o->d.sub_x : w) * (size_t)o->d.bytes_per_pixel[i];
    o->ph[i] = i ? h >> o->d.sub_y : h;
    if (mode == 1) {
      o->pitch[i] = (o->row[i] + 15) / 16 * 16 + 16 * (1 + jt_rand() % 4);
      o->off[i] = (total + 255) / 256 * 256;
    } else if (mode == 2) {
      o->pitch[i] = o->row[i] + 1 + jt_rand() % 40;
      o->off[i] = total + 1 + 2 * (jt_rand() % 4);
    } else { /* mode 3: 4-byte vector accesses, no 16-byte ones */
      o->pitch[i] = (o->row[i] + 15) / 16 * 16 + 4 + 16 * (jt_rand() % 3);
      o->off[i] = (total + 255) / 256 * 256 + 4;
    }
    total = o->off[i] + o->pitch[i] * (size_t)o->ph[i];
  }
  o->bytes = total + 16;
  CHECK(cudaMalloc(&o->mem, o->bytes) == cudaSuccess);
  CHECK(cudaMemset(o->mem, 0xA5, o->bytes) == cudaSuccess &&
        cudaDeviceSynchronize() == cudaSuccess); /* the legacy-stream memset is async */
  jet_image_plane p[3];
  for (int i = 0; i < o->d.planes; i++) {
    p[i].ptr = (char *)o->mem + o->off[i];
    p[i].pitch = o->pitch[i];
  }
  CHECK_OK(jet_image_wrap(ctx, f, w, h, p, o->d.planes, JET_IMAGE_MEMORY_DEVICE, &o->img));
  return 0;
}

static int dimg_free(dimg *o) {
  CHECK_OK(jet_image_destroy(o->img));
  if (o->mem) CHECK(cudaFree(o->mem) == cudaSuccess);
  memset(o, 0, sizeof *o);
  return 0;
}

/* Every byte of a wrapped allocation outside the pixel bytes is still 0xA5. */
static int dimg_padding_intact(const dimg *o) {
  if (!o->mem) return 0;
  unsigned char *host = malloc(o->bytes);
  unsigned char *pixel = calloc(o->bytes, 1);
  CHECK(host && pixel);
  CHECK(cudaMemcpy(host, o->mem, o->bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < o->d.planes; i++)
    for (int y = 0; y < o->ph[i]; y++) memset(pixel + o->off[i] + o->pitch[i] * (size_t)y, 1, o->row[i]);
  size_t bad = o->bytes;
  for (size_t b = 0; b < o->bytes && bad == o->bytes; b++)
    if (!pixel[b] && host[b] != 0xA5) bad = b;
  free(host);
  free(pixel);
  CHECK_MSG(bad == o->bytes, "byte %zu outside the pixels was written (%s)", bad, mode_name(o->mode));
  return 0;
}

/* ------------------------------------------------------------ one conversion */

/* Convert fresh random @sf data into a poisoned @df image and compare with
 * ref_convert bit for bit; wrapped destinations also keep their padding. */
static int run_case(jet_context ctx, jet_stream stream, jet_format sf, jet_format df, int w, int h,
                    jet_color_matrix m, jet_color_range r, int smode, int dmode) {
  dimg s, d;
  if (dimg_make(ctx, sf, w, h, smode, &s) || dimg_make(ctx, df, w, h, dmode, &d)) return 1;
  ref_image src, out, exp;
  CHECK(ref_image_alloc(&src, sf, w, h, jt_rand() % 9) == 0);
  CHECK(ref_image_alloc(&out, df, w, h, jt_rand() % 9) == 0);
  CHECK(ref_image_alloc(&exp, df, w, h, 0) == 0);
  ref_image_randomize(&src, jt_rand);
  jet_image_plane p[3];
  ref_image_planes(&src, p);
  CHECK_OK(jet_image_upload(s.img, p, src.planes));
  if (dmode == 0) { /* a wrapped destination is already 0xA5 */
    ref_image_poison(&out, 0xA5);
    ref_image_planes(&out, p);
    CHECK_OK(jet_image_upload(d.img, p, out.planes));
  }
  ref_image_poison(&out, 0x5A);
  ref_image_poison(&exp, 0x3C);
  CHECK(ref_convert(&src, &exp, m, r) == 0);

  CHECK_OK(jet_convert_color(stream, s.img, d.img, m, r));
  CHECK_OK(jet_stream_synchronize(stream));
  ref_image_planes(&out, p);
  CHECK_OK(jet_image_download(d.img, p, out.planes));

  char why[256];
  int bad = ref_image_compare(&out, &exp, 0, why, sizeof why);
  if (bad)
    fprintf(stderr, "%s -> %s %dx%d %s %s, source %s, destination %s: %s\n", jet_format_name(sf),
            jet_format_name(df), w, h, m == JET_COLOR_BT709 ? "BT.709" : "BT.601",
            r == JET_COLOR_RANGE_FULL ? "full" : "limited", mode_name(smode), mode_name(dmode),
            why);
  if (!bad && dimg_padding_intact(&d)) {
    fprintf(stderr, "  in %s -> %s %dx%d\n", jet_format_name(sf), jet_format_name(df), w, h);
    bad = 1;
  }
  ref_image_free(&src);
  ref_image_free(&out);
  ref_image_free(&exp);
  if (dimg_free(&s) || dimg_free(&d)) return 1;
  return bad;
}

static int pair_count(void) {
  int n = 0;
  for (int i = 0; i < N_CONV_FORMATS; i++)
    for (int j = 0; j < N_CONV_FORMATS; j++) n += pair_ok(conv_formats[i], conv_formats[j]);
  return n;
}

/* ------------------------------------------------------------ GPU tests */

/* Every pair x BT.601/BT.709 x limited/full at small sizes (tails of a warp's
 * 128 pixels and of a thread's 4 included), each with several memory modes. */
TEST(gpu_convert_color_every_pair_small) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream stream;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &stream));
  CHECK(pair_count() == 49); /* 25 from YUV, 4 into YUV, 20 among RGB/BGR/RGBA/BGRA/GRAY */
  static const int sizes[][2] = {{1, 1}, {2, 3}, {17, 9}, {2, 2}, {18, 10}, {130, 6}, {262, 4}};
  int runs = 0;
  for (int i = 0; i < N_CONV_FORMATS; i++)
    for (int j = 0; j < N_CONV_FORMATS; j++) {
      jet_format sf = conv_formats[i], df = conv_formats[j];
      if (!pair_ok(sf, df)) continue;
      /* ref_convert accepts exactly the same pairs */
      ref_image a, b;
      CHECK(ref_image_alloc(&a, sf, 2, 2, 0) == 0 && ref_image_alloc(&b, df, 2, 2, 0) == 0);
      ref_image_randomize(&a, jt_rand);
      CHECK(ref_convert(&a, &b, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED) == 0);
      ref_image_free(&a);
      ref_image_free(&b);
      for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int w = sizes[z][0], h = sizes[z][1];
        if (!legal(sf, w, h) || !legal(df, w, h)) continue;
        for (int mr = 0; mr < 4; mr++) {
          int dmode = (mr + (int)z) % 3, smode = (dmode + 1 + (int)(jt_rand() % 2)) % 3;
          if (run_case(ctx, stream, sf, df, w, h, (jet_color_matrix)(mr >> 1),
                       (jet_color_range)(mr & 1), smode, dmode))
            return 1;
          runs++;
        }
      }
    }
  CHECK(runs > 49 * 4 * 2);
  /* The _ptx run of this test (JET_KERNEL_PATH=ptx): the module really came
   * from its PTX image, which has no one-pair entries, so the single-pair
   * launches above took the batch entries (lib/image/image.c). */
  const char *kp = getenv("JET_KERNEL_PATH");
  if (kp && strcmp(kp, "ptx") == 0) {
    int found = 0;
    for (int i = 0; i < JET__BUILTIN_MAX && ctx->builtins[i].set; i++)
      if (ctx->builtins[i].set == &jet__images_color) {
        jet_module_load_info info;
        CHECK_OK(jet_module_info(ctx->builtins[i].mod, &info));
        CHECK(info.path == JET_KERNEL_PATH_PTX);
        found = 1;
      }
    CHECK(found);
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* 1920x1080 for every pair with a 4:2:0 side, 1921x1081 (1922x1081 where
 * 4:2:2 needs an even width) for the others; matrix, range and memory modes
 * drawn at random. */
TEST(gpu_convert_color_every_pair_hd) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream stream;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &stream));
  for (int i = 0; i < N_CONV_FORMATS; i++)
    for (int j = 0; j < N_CONV_FORMATS; j++) {
      jet_format sf = conv_formats[i], df = conv_formats[j];
      if (!pair_ok(sf, df)) continue;
      int w = 1921, h = 1081;
      if (is_420(sf) || is_420(df)) {
        w = 1920;
        h = 1080;
      } else if (!legal(sf, w, h) || !legal(df, w, h)) {
        w = 1922;
      }
      unsigned k = jt_rand();
      if (run_case(ctx, stream, sf, df, w, h, (jet_color_matrix)(k & 1),
                   (jet_color_range)((k >> 1) & 1), (int)((k >> 2) % 3), (int)((k >> 4) % 3)))
        return 1;
    }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* 3840x2160: one pair of each 4:2:0 kernel family, and NV12 -> RGB8 (the
 * benchmarked case) on every matrix and range. */
TEST(gpu_convert_color_4k) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream stream;
  CHECK_OK(jet_stream_create(ctx, NULL, &stream));
  static const jet_format pairs[][2] = {
      {JET_FORMAT_NV12, JET_FORMAT_RGB8},  {JET_FORMAT_NV12, JET_FORMAT_RGBA8},
      {JET_FORMAT_NV21, JET_FORMAT_BGR8},  {JET_FORMAT_I420, JET_FORMAT_BGRA8},
      {JET_FORMAT_I420, JET_FORMAT_GRAY8}, {JET_FORMAT_RGBA8, JET_FORMAT_NV12},
      {JET_FORMAT_RGB8, JET_FORMAT_I420},  {JET_FORMAT_UYVY, JET_FORMAT_RGB8}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    unsigned k = jt_rand();
    if (run_case(ctx, stream, pairs[p][0], pairs[p][1], 3840, 2160, (jet_color_matrix)(k & 1),
                 (jet_color_range)((k >> 1) & 1), (int)(p % 3), (int)((p + 1) % 3)))
      return 1;
  }
  for (int mr = 0; mr < 4; mr++)
    if (run_case(ctx, stream, JET_FORMAT_NV12, JET_FORMAT_RGB8, 3840, 2160,
                 (jet_color_matrix)(mr >> 1), (jet_color_range)(mr & 1), 0, mr == 3 ? 1 : 0))
      return 1;
  CHECK_OK(jet_stream_destroy(stream));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* RGB8/BGR8 destinations whose rows are 4- but not 16-byte aligned (the
 * word store path of full warps) and sources of every alignment class. */
TEST(gpu_convert_color_rgb8_word_aligned_rows) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream stream;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &stream));
  static const jet_format srcs[] = {JET_FORMAT_NV12, JET_FORMAT_NV21, JET_FORMAT_I420,
                                    JET_FORMAT_YUYV, JET_FORMAT_GRAY8, JET_FORMAT_RGB8,
                                    JET_FORMAT_BGRA8};
  static const int sizes[][2] = {{384, 4}, {1000, 6}, {1920, 1080}};
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++)
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      jet_format df = (i + z) & 1 ? JET_FORMAT_BGR8 : JET_FORMAT_RGB8;
      if (srcs[i] == df) df = JET_FORMAT_BGR8;
      unsigned k = jt_rand();
      if (run_case(ctx, stream, srcs[i], df, sizes[z][0], sizes[z][1], (jet_color_matrix)(k & 1),
                   (jet_color_range)((k >> 1) & 1), (k >> 2) & 1 ? 3 : 1, 3))
        return 1;
    }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* GRAY8 destinations from every packed source with plane 0 rows 16-byte
 * aligned on both sides (the 16-pixel kernels, color.cu: cc_gray16): widths
 * of whole and partial 16-pixel chunks and 512-pixel warps (FAST and not),
 * created and padded images; and the same with one side 4 bytes past a
 * multiple of 16, which takes the 4-pixel kernels. */
TEST(gpu_convert_color_gray8_wide_rows) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream stream;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &stream));
  static const jet_format srcs[] = {JET_FORMAT_NV12, JET_FORMAT_NV21, JET_FORMAT_I420,
                                    JET_FORMAT_YUYV, JET_FORMAT_UYVY, JET_FORMAT_RGB8,
                                    JET_FORMAT_BGR8, JET_FORMAT_RGBA8, JET_FORMAT_BGRA8};
  static const int widths[] = {16, 30, 512, 514, 1040, 1550};
  static const int modes[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {3, 1}, {1, 3}};
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++)
    for (size_t z = 0; z < sizeof widths / sizeof widths[0]; z++)
      for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        unsigned k = jt_rand();
        if (run_case(ctx, stream, srcs[i], JET_FORMAT_GRAY8, widths[z], 6 + 2 * (int)(k % 3),
                     (jet_color_matrix)(k >> 3 & 1), (jet_color_range)(k >> 4 & 1), modes[m][0],
                     modes[m][1]))
          return 1;
      }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Wide images: many blocks per row, so on a 132-SM H100 (the grid covers
 * about two waves of 8 blocks per SM) every thread loops over several row
 * groups, including a last iteration where only some warps have rows left. */
TEST(gpu_convert_color_row_loop) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream stream;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &stream));
  static const jet_format pairs[][2] = {
      {JET_FORMAT_NV12, JET_FORMAT_RGB8},  {JET_FORMAT_NV12, JET_FORMAT_RGBA8},
      {JET_FORMAT_YUYV, JET_FORMAT_RGBA8}, {JET_FORMAT_RGBA8, JET_FORMAT_NV12},
      {JET_FORMAT_RGBA8, JET_FORMAT_GRAY8}, {JET_FORMAT_RGB8, JET_FORMAT_I420},
      {JET_FORMAT_UYVY, JET_FORMAT_GRAY8}, {JET_FORMAT_I420, JET_FORMAT_BGR8}};
  static const int sizes[][2] = {{7680, 1250}, {16002, 418}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      unsigned k = jt_rand();
      if (run_case(ctx, stream, pairs[p][0], pairs[p][1], sizes[z][0], sizes[z][1],
                   (jet_color_matrix)(k & 1), (jet_color_range)((k >> 1) & 1), (int)(k >> 2) % 4,
                   (int)(k >> 4) % 4))
        return 1;
    }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Conversions queued back to back on a non-blocking stream with async copies:
 * NV12 -> RGBA8 -> I420 -> BGR8, checked at the end against the chained
 * references. */
TEST(gpu_convert_color_chained_on_stream) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream stream;
  CHECK_OK(jet_stream_create(ctx, &sd, &stream));
  const int w = 642, h = 362;
  jet_image a, b, c, d;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, w, h, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, w, h, &b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_I420, w, h, &c));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_BGR8, w, h, &d));
  ref_image ra, rb, rc, rd, out;
  CHECK(ref_image_alloc(&ra, JET_FORMAT_NV12, w, h, 3) == 0);
  CHECK(ref_image_alloc(&rb, JET_FORMAT_RGBA8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&rc, JET_FORMAT_I420, w, h, 0) == 0);
  CHECK(ref_image_alloc(&rd, JET_FORMAT_BGR8, w, h, 0) == 0);
  CHECK(ref_image_alloc(&out, JET_FORMAT_BGR8, w, h, 7) == 0);
  ref_image_randomize(&ra, jt_rand);
  ref_image_poison(&out, 0xA5);
  jet_image_plane p[3], q[3];
  ref_image_planes(&out, q);
  CHECK_OK(jet_image_upload(d, q, 1)); /* poison */
  ref_image_planes(&ra, p);
  CHECK_OK(jet_image_upload_async(a, p, 2, stream));
  CHECK_OK(jet_convert_color(stream, a, b, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED));
  CHECK_OK(jet_convert_color(stream, b, c, JET_COLOR_BT601, JET_COLOR_RANGE_FULL));
  CHECK_OK(jet_convert_color(stream, c, d, JET_COLOR_BT601, JET_COLOR_RANGE_FULL));
  CHECK_OK(jet_image_download_async(d, q, 1, stream));
  CHECK_OK(jet_stream_synchronize(stream));
  CHECK(ref_convert(&ra, &rb, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED) == 0);
  CHECK(ref_convert(&rb, &rc, JET_COLOR_BT601, JET_COLOR_RANGE_FULL) == 0);
  CHECK(ref_convert(&rc, &rd, JET_COLOR_BT601, JET_COLOR_RANGE_FULL) == 0);
  char why[256];
  CHECK_MSG(!ref_image_compare(&out, &rd, 0, why, sizeof why), "%s", why);
  ref_image_free(&ra);
  ref_image_free(&rb);
  ref_image_free(&rc);
  ref_image_free(&rd);
  ref_image_free(&out);
  CHECK_OK(jet_image_destroy(a));
  CHECK_OK(jet_image_destroy(b));
  CHECK_OK(jet_image_destroy(c));
  CHECK_OK(jet_image_destroy(d));
  CHECK_OK(jet_stream_destroy(stream));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Refusals that need live objects: destroyed images and streams, objects of
 * another context, aliasing wraps; the destination stays untouched. */
TEST(gpu_badarg_convert_color) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_stream s, os, dead;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(other, JET_STREAM_PER_THREAD, &os));
  CHECK_OK(jet_stream_create(ctx, NULL, &dead));
  jet_image nv12, rgba, rgb, gone, foreign, view;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 64, 32, &nv12));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &rgba));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGB8, 64, 32, &rgb));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, 64, 32, &gone));
  CHECK_OK(jet_image_create(other, JET_FORMAT_RGBA8, 64, 32, &foreign));
  /* an RGB8 view of rgba's memory */
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(rgba, 0, &pi));
  jet_image_plane vp = {pi.ptr, pi.pitch};
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGB8, 64, 32, &vp, 1, JET_IMAGE_MEMORY_DEVICE, &view));
  /* destroyed last, so that no later create can reuse their addresses */
  CHECK_OK(jet_image_destroy(gone));
  CHECK_OK(jet_stream_destroy(dead));

  /* poison rgba, then make sure no refused call wrote it */
  ref_image poison, back;
  CHECK(ref_image_alloc(&poison, JET_FORMAT_RGBA8, 64, 32, 0) == 0);
  CHECK(ref_image_alloc(&back, JET_FORMAT_RGBA8, 64, 32, 0) == 0);
  ref_image_randomize(&poison, jt_rand);
  jet_image_plane pp[1];
  ref_image_planes(&poison, pp);
  CHECK_OK(jet_image_upload(rgba, pp, 1));

  const jet_color_matrix m = JET_COLOR_BT601;
  const jet_color_range r = JET_COLOR_RANGE_LIMITED;
  CHECK_ST(jet_convert_color(s, gone, rgba, m, r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color(s, nv12, gone, m, r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color(dead, nv12, rgba, m, r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color(os, nv12, rgba, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_convert_color(s, nv12, foreign, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_convert_color(os, foreign, rgba, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_convert_color(s, view, rgba, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  CHECK_ST(jet_convert_color(s, rgba, rgba, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color(s, rgb, nv12, m, r), JET_STATUS_OK); /* a legal pair, for contrast */
  CHECK_ST(jet_convert_color(s, rgba, rgb, m, (jet_color_range)2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color(s, nv12, rgba, (jet_color_matrix)-1, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color(s, nv12, rgba, (jet_color_matrix)2, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color(s, rgba, nv12, m, r), JET_STATUS_OK);
  CHECK_ST(jet_convert_color(s, nv12, nv12, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
  CHECK_OK(jet_stream_synchronize(s));
  jet_image_plane bp[1];
  ref_image_planes(&back, bp);
  CHECK_OK(jet_image_download(rgba, bp, 1));
  char why[256];
  CHECK_MSG(!ref_image_compare(&back, &poison, 0, why, sizeof why), "%s", why);

  ref_image_free(&poison);
  ref_image_free(&back);
  CHECK_OK(jet_image_destroy(view));
  CHECK_OK(jet_image_destroy(nv12));
  CHECK_OK(jet_image_destroy(rgba));
  CHECK_OK(jet_image_destroy(rgb));
  CHECK_OK(jet_image_destroy(foreign));
  CHECK_OK(jet_context_destroy(other));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ host tests */


static int failed_in_convert(void) {
  return strcmp(jet_last_error()->function, "jet_convert_color") == 0;
}

TEST(badarg_convert_color_null_handles) {
  int junk[32] = {0};
  jet_image fake = (jet_image)(void *)junk;
  CHECK_ST(jet_convert_color(NULL, NULL, NULL, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  CHECK(failed_in_convert());
  CHECK_ST(jet_convert_color((jet_stream)(void *)junk, fake, fake, JET_COLOR_BT601,
                             JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  struct jet_image_s img;
  CHECK(jt_fake_image(&img, &c, JET_FORMAT_RGBA8, 16, 8, 0x100000));
  CHECK_ST(jet_convert_color(s, NULL, &img, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color(s, &img, NULL, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color(s, fake, &img, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  /* handles of the wrong type: a stream as an image, an image as a stream, a context */
  CHECK_ST(jet_convert_color(s, (jet_image)(void *)s, &img, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color((jet_stream)(void *)&img, &img, &img, JET_COLOR_BT601,
                             JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_convert_color((jet_stream)(void *)&c, &img, &img, JET_COLOR_BT601,
                             JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  jet__handle_unregister(&img.h);
  /* an image that is no longer registered */
  CHECK_ST(jet_convert_color(s, &img, &img, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED),
           JET_STATUS_INVALID_HANDLE);
  jt_fake_context_done(&c);
  return 0;
}

/* Every refusal that needs no GPU, on fake contexts and images: nothing here
 * may reach CUDA (a fake image's memory does not exist). */
TEST(badarg_convert_color_before_cuda) {
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop") && jt_fake_context(&other, "desktop"));
  jet_stream s, so;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(&other, JET_STREAM_PER_THREAD, &so));
  struct jet_image_s nv12, nv12b, rgb, bgr, rgba_small, gray, gray16, alias, foreign;
  CHECK(jt_fake_image(&nv12, &c, JET_FORMAT_NV12, 64, 32, 0x1000000));
  CHECK(jt_fake_image(&nv12b, &c, JET_FORMAT_NV12, 64, 32, 0x2000000));
  CHECK(jt_fake_image(&rgb, &c, JET_FORMAT_RGB8, 64, 32, 0x3000000));
  CHECK(jt_fake_image(&bgr, &c, JET_FORMAT_BGR8, 64, 32, 0x4000000));
  CHECK(jt_fake_image(&rgba_small, &c, JET_FORMAT_RGBA8, 32, 32, 0x5000000));
  CHECK(jt_fake_image(&gray, &c, JET_FORMAT_GRAY8, 64, 32, 0x6000000));
  CHECK(jt_fake_image(&gray16, &c, JET_FORMAT_GRAY16, 64, 32, 0x7000000));
  CHECK(jt_fake_image(&alias, &c, JET_FORMAT_RGBA8, 64, 32, 0x3000000 + 4096));
  CHECK(jt_fake_image(&foreign, &other, JET_FORMAT_RGBA8, 64, 32, 0x8000000));
  const jet_color_matrix m = JET_COLOR_BT709;
  const jet_color_range r = JET_COLOR_RANGE_FULL;

  /* pairs outside the list */
  struct jet_image_s *bad_pairs[][2] = {
      {&nv12, &nv12b}, /* YUV -> YUV */
      {&bgr, &nv12},   /* only RGB8 and RGBA8 feed the encoders */
      {&gray, &nv12},  /* GRAY8 -> NV12 */
      {&gray16, &rgb}, /* GRAY16 is no conversion format */
      {&rgb, &gray16},
  };
  for (size_t i = 0; i < sizeof bad_pairs / sizeof bad_pairs[0]; i++) {
    CHECK_ST(jet_convert_color(s, bad_pairs[i][0], bad_pairs[i][1], m, r), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
    CHECK(failed_in_convert());
  }
  /* same format both sides */
  struct jet_image_s rgb2;
  CHECK(jt_fake_image(&rgb2, &c, JET_FORMAT_RGB8, 64, 32, 0x9000000));
  CHECK_ST(jet_convert_color(s, &rgb, &rgb2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
  jet__handle_unregister(&rgb2.h);
  /* sizes differ */
  CHECK_ST(jet_convert_color(s, &rgb, &rgba_small, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "size mismatch", 13) == 0);
  /* overlapping memory */
  CHECK_ST(jet_convert_color(s, &rgb, &alias, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  /* contexts: image of another context, stream of another context */
  CHECK_ST(jet_convert_color(s, &rgb, &foreign, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_convert_color(so, &nv12, &rgb, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK(failed_in_convert());
  /* enums out of range, also where they do not matter (RGB8 -> BGR8) */
  CHECK_ST(jet_convert_color(s, &nv12, &rgb, (jet_color_matrix)2, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "matrix") != NULL);
  CHECK_ST(jet_convert_color(s, &nv12, &rgb, (jet_color_matrix)-1, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color(s, &nv12, &rgb, m, (jet_color_range)2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "range") != NULL);
  CHECK_ST(jet_convert_color(s, &rgb, &bgr, m, (jet_color_range)-7), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color(s, &rgb, &gray, (jet_color_matrix)5, r), JET_STATUS_INVALID_ARGUMENT);

  struct jet_image_s *all[] = {&nv12, &nv12b, &rgb, &bgr, &rgba_small, &gray, &gray16, &alias, &foreign};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) jet__handle_unregister(&all[i]->h);
  CHECK(atomic_load(&c.live_objects) == 0 && atomic_load(&other.live_objects) == 0);
  jt_fake_context_done(&c);
  jt_fake_context_done(&other);
  return 0;
}
