/* jet_convert_color_batch, jet_resize_batch and the filter batches: batches of 1, 2, 4 and
 * JET_IMAGE_BATCH_MAX pairs, each image with its own random content and its
 * own memory layout (created, wrapped with vector-aligned pitches, wrapped
 * with odd pitches and offsets), poisoned destinations, every result against
 * the CPU reference; and the refusals of bad batches, which must leave every
 * destination untouched. */
#include <math.h>
#include <stdint.h>

/* the shared helpers include some this file does not need */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "test_resize_util.h"
#pragma GCC diagnostic pop
#include "internal.h"
#include "../../lib/image/image_internal.h"

/* ------------------------------------------------------------ images */

/* A device image of @host's format and size. mode 0: jet_image_create.
 * mode 1: wrapped, every pitch a multiple of 16 plus 0..48 bytes of padding,
 * planes 256-aligned (the vector paths). mode 2: wrapped, pitches 1..40 bytes
 * past the row (rounded to the element size) and planes 1..4 elements past a
 * 256-byte boundary (byte or element paths). The pixels of @host are
 * uploaded when @upload; a destination is poisoned by the caller. */
static int bt_make(jet_context ctx, const ref_image *host, int mode, int upload, jtr_image *out) {
  memset(out, 0, sizeof *out);
  if (mode == 0) {
    CHECK_OK(jet_image_create(ctx, host->format, host->width, host->height, &out->img));
  } else {
    jet_image_plane planes[JET_IMAGE_MAX_PLANES];
    size_t offs[JET_IMAGE_MAX_PLANES], total = 0, e = (size_t)host->elem_size;
    for (int i = 0; i < host->planes; i++) {
      size_t row = host->row_bytes[i];
      if (mode == 1) {
        planes[i].pitch = (row + 15) / 16 * 16 + 16 * (jt_rand() % 4);
        offs[i] = (total + 255) / 256 * 256;
      } else {
        planes[i].pitch = (row + 1 + jt_rand() % 40 + e - 1) / e * e;
        offs[i] = (total + 255) / 256 * 256 + e * (1 + jt_rand() % 4);
      }
      total = offs[i] + planes[i].pitch * (size_t)host->plane_h[i];
    }
    CHECK(cudaMalloc(&out->mem, total + 256) == cudaSuccess);
    for (int i = 0; i < host->planes; i++) planes[i].ptr = (char *)out->mem + offs[i];
    CHECK_OK(jet_image_wrap(ctx, host->format, host->width, host->height, planes, host->planes,
                            JET_IMAGE_MEMORY_DEVICE, &out->img));
  }
  if (upload) {
    jet_image_plane hp[JET_IMAGE_MAX_PLANES];
    ref_image_planes(host, hp);
    CHECK_OK(jet_image_upload(out->img, hp, host->planes));
  }
  return 0;
}

static const char *mode_name(int mode) {
  return mode == 0 ? "created" : mode == 1 ? "wrapped, 16-byte pitches" : "wrapped, odd pitch and offset";
}

/* One batch of @count pairs: sources of @sf at @sw x @sh with fresh random
 * pixels, poisoned destinations of @df at @dw x @dh, every image in its own
 * layout (all in @force's when @force >= 0). @run queues the batch on @st
 * (the operation under test); @ref computes pair i's expected result. */
typedef jet_status (*bt_run_fn)(jet_stream st, const jet_image *s, const jet_image *d, int n,
                                const void *arg);
typedef int (*bt_ref_fn)(const ref_image *s, ref_image *d, const void *arg);

typedef struct bt_case {
  jet_format sf, df;
  int sw, sh, dw, dh;
  int count;
  int force; /* layout for every image, or -1 for a random one per image */
  double tol;
  bt_run_fn run;
  bt_ref_fn ref;
  const void *arg;
  const char *what;
} bt_case;

static int bt_batch(jet_context ctx, jet_stream st, const bt_case *c) {
  ref_image src[JET_IMAGE_BATCH_MAX], exp[JET_IMAGE_BATCH_MAX], got;
  jtr_image ds[JET_IMAGE_BATCH_MAX], dd[JET_IMAGE_BATCH_MAX];
  jet_image s[JET_IMAGE_BATCH_MAX], d[JET_IMAGE_BATCH_MAX];
  int smode[JET_IMAGE_BATCH_MAX], dmode[JET_IMAGE_BATCH_MAX];
  CHECK(c->count >= 1 && c->count <= JET_IMAGE_BATCH_MAX);
  for (int i = 0; i < c->count; i++) {
    smode[i] = c->force >= 0 ? c->force : (int)(jt_rand() % 3);
    dmode[i] = c->force >= 0 ? c->force : (int)(jt_rand() % 3);
    CHECK(ref_image_alloc(&src[i], c->sf, c->sw, c->sh, jt_rand() % 9) == 0);
    CHECK(ref_image_alloc(&exp[i], c->df, c->dw, c->dh, 0) == 0);
    ref_image_randomize(&src[i], jt_rand);
    ref_image_poison(&exp[i], 0x3C);
    CHECK(bt_make(ctx, &src[i], smode[i], 1, &ds[i]) == 0);
    CHECK(bt_make(ctx, &exp[i], dmode[i], 0, &dd[i]) == 0);
    CHECK(jtr_poison(&dd[i]) == 0);
    s[i] = ds[i].img;
    d[i] = dd[i].img;
  }
  CHECK_OK(c->run(st, s, d, c->count, c->arg));
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(ref_image_alloc(&got, c->df, c->dw, c->dh, jt_rand() % 9) == 0);
  for (int i = 0; i < c->count; i++) {
    CHECK(c->ref(&src[i], &exp[i], c->arg) == 0);
    ref_image_poison(&got, 0x5A);
    CHECK_MSG(jtr_fetch(&dd[i], &got) == 0, "%s, pair %d of %d", c->what, i, c->count);
    char why[256];
    CHECK_MSG(!ref_image_compare(&got, &exp[i], c->tol, why, sizeof why),
              "%s %s %dx%d -> %s %dx%d, pair %d of %d (source %s, destination %s): %s", c->what,
              jet_format_name(c->sf), c->sw, c->sh, jet_format_name(c->df), c->dw, c->dh, i,
              c->count, mode_name(smode[i]), mode_name(dmode[i]), why);
  }
  ref_image_free(&got);
  for (int i = 0; i < c->count; i++) {
    jtr_free(&ds[i]);
    jtr_free(&dd[i]);
    ref_image_free(&src[i]);
    ref_image_free(&exp[i]);
  }
  return 0;
}

static const int counts[] = {1, 2, 4, JET_IMAGE_BATCH_MAX};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

/* ------------------------------------------------------------ colour */

typedef struct cc_arg {
  jet_color_matrix m;
  jet_color_range r;
} cc_arg;

static jet_status cc_run(jet_stream st, const jet_image *s, const jet_image *d, int n,
                         const void *arg) {
  const cc_arg *a = arg;
  return jet_convert_color_batch(st, s, d, n, a->m, a->r);
}

static int cc_ref(const ref_image *s, ref_image *d, const void *arg) {
  const cc_arg *a = arg;
  return ref_convert(s, d, a->m, a->r);
}

static int pair_ok(jet_format s, jet_format d) {
  jet_status st = jet__image_formats_fit(JET__IMAGE_OP_CONVERT, s, 2, 2, d, 2, 2, "test");
  jet_clear_error();
  return st == JET_STATUS_OK;
}

/* A legal size near @w x @h for both formats (even sides where subsampled). */
static void legal_size(jet_format sf, jet_format df, int *w, int *h) {
  jet_format_desc a, b;
  if (jet_format_info(sf, &a) != JET_STATUS_OK || jet_format_info(df, &b) != JET_STATUS_OK) return;
  if ((a.sub_x || b.sub_x) && (*w & 1)) (*w)++;
  if ((a.sub_y || b.sub_y) && (*h & 1)) (*h)++;
}

static int cc_batch(jet_context ctx, jet_stream st, jet_format sf, jet_format df, int w, int h,
                    int count, int force) {
  legal_size(sf, df, &w, &h);
  unsigned k = jt_rand();
  cc_arg a = {(jet_color_matrix)(k & 1), (jet_color_range)((k >> 1) & 1)};
  bt_case c = {sf, df, w, h, w, h, count, force, 0.0, cc_run, cc_ref, &a,
               "jet_convert_color_batch"};
  return bt_batch(ctx, st, &c);
}

static const jet_format conv_formats[] = {
    JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_BGR8, JET_FORMAT_RGBA8, JET_FORMAT_BGRA8,
    JET_FORMAT_NV12,  JET_FORMAT_NV21, JET_FORMAT_I420, JET_FORMAT_YUYV,  JET_FORMAT_UYVY};
#define N_CONV ((int)(sizeof conv_formats / sizeof conv_formats[0]))

/* Every pair the conversion takes, batches of 2 and 3 with mixed layouts, at
 * a small size with partial warps and thread groups. */
TEST(gpu_convert_color_batch_every_pair) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &st));
  int pairs = 0;
  for (int i = 0; i < N_CONV; i++)
    for (int j = 0; j < N_CONV; j++) {
      if (!pair_ok(conv_formats[i], conv_formats[j])) continue;
      pairs++;
      CHECK(cc_batch(ctx, st, conv_formats[i], conv_formats[j], 131, 7, 2 + (pairs & 1), -1) == 0);
    }
  CHECK(pairs == 49);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* One pair of each kernel family, batches of 1, 2, 4 and 16 at 1x1 (2x2
 * where subsampled), 3x2 and 1921x1081 (even sides where subsampled); the
 * batches of 16 at 1921x1081 once in every layout, so that one launch's
 * single path (vector or byte) is exercised for a whole batch. */
TEST(gpu_convert_color_batch_sizes) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  static const jet_format fam[][2] = {
      {JET_FORMAT_NV12, JET_FORMAT_RGBA8}, {JET_FORMAT_NV21, JET_FORMAT_BGR8},
      {JET_FORMAT_I420, JET_FORMAT_RGB8},  {JET_FORMAT_I420, JET_FORMAT_GRAY8},
      {JET_FORMAT_YUYV, JET_FORMAT_BGRA8}, {JET_FORMAT_UYVY, JET_FORMAT_GRAY8},
      {JET_FORMAT_RGB8, JET_FORMAT_NV12},  {JET_FORMAT_RGBA8, JET_FORMAT_I420},
      {JET_FORMAT_BGRA8, JET_FORMAT_RGB8}, {JET_FORMAT_RGB8, JET_FORMAT_GRAY8},
      {JET_FORMAT_GRAY8, JET_FORMAT_RGBA8}, {JET_FORMAT_RGBA8, JET_FORMAT_BGRA8}};
  static const int sizes[][2] = {{1, 1}, {3, 2}, {1921, 1081}};
  for (size_t p = 0; p < sizeof fam / sizeof fam[0]; p++)
    for (int z = 0; z < 3; z++)
      for (int n = 0; n < NCOUNTS; n++) {
        int big = z == 2;
        /* large batches of 16 only for a third of the families, in turn */
        if (big && counts[n] == JET_IMAGE_BATCH_MAX && p % 3 != 0) continue;
        CHECK(cc_batch(ctx, st, fam[p][0], fam[p][1], sizes[z][0], sizes[z][1], counts[n], -1) == 0);
      }
  for (int mode = 0; mode < 3; mode++)
    CHECK(cc_batch(ctx, st, JET_FORMAT_NV12, JET_FORMAT_RGB8, 1921, 1081, JET_IMAGE_BATCH_MAX,
                   mode) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* The same batch as single conversions and as one batched call: the bytes
 * agree (and both agree with the reference, checked by the other tests). */
TEST(gpu_convert_color_batch_equals_single_calls) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &st));
  enum { N = 4, W = 642, H = 362 };
  ref_image src[N], a, b;
  jtr_image s[N], d1[N], d2[N];
  jet_image sv[N], dv[N];
  for (int i = 0; i < N; i++) {
    CHECK(ref_image_alloc(&src[i], JET_FORMAT_NV12, W, H, 0) == 0);
    ref_image_randomize(&src[i], jt_rand);
    CHECK(bt_make(ctx, &src[i], i % 3, 1, &s[i]) == 0);
    CHECK(ref_image_alloc(&a, JET_FORMAT_BGRA8, W, H, 0) == 0);
    CHECK(bt_make(ctx, &a, (i + 1) % 3, 0, &d1[i]) == 0);
    CHECK(bt_make(ctx, &a, (i + 2) % 3, 0, &d2[i]) == 0);
    ref_image_free(&a);
    CHECK(jtr_poison(&d1[i]) == 0 && jtr_poison(&d2[i]) == 0);
    sv[i] = s[i].img;
    dv[i] = d2[i].img;
  }
  for (int i = 0; i < N; i++)
    CHECK_OK(jet_convert_color(st, sv[i], d1[i].img, JET_COLOR_BT709, JET_COLOR_RANGE_FULL));
  CHECK_OK(jet_convert_color_batch(st, sv, dv, N, JET_COLOR_BT709, JET_COLOR_RANGE_FULL));
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(ref_image_alloc(&a, JET_FORMAT_BGRA8, W, H, 0) == 0);
  CHECK(ref_image_alloc(&b, JET_FORMAT_BGRA8, W, H, 0) == 0);
  for (int i = 0; i < N; i++) {
    CHECK(jtr_fetch(&d1[i], &a) == 0 && jtr_fetch(&d2[i], &b) == 0);
    char why[256];
    CHECK_MSG(!ref_image_compare(&a, &b, 0, why, sizeof why), "pair %d: %s", i, why);
    jtr_free(&s[i]);
    jtr_free(&d1[i]);
    jtr_free(&d2[i]);
    ref_image_free(&src[i]);
  }
  ref_image_free(&a);
  ref_image_free(&b);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ resize */

static jet_status rs_run(jet_stream st, const jet_image *s, const jet_image *d, int n,
                         const void *arg) {
  return jet_resize_batch(st, s, d, n, *(const jet_interp *)arg);
}

static int rs_ref(const ref_image *s, ref_image *d, const void *arg) {
  return ref_resize(s, d, *(const jet_interp *)arg);
}

static int is_float(jet_format f) { return f == JET_FORMAT_GRAYF32 || f == JET_FORMAT_RGBF32; }

static int rs_batch(jet_context ctx, jet_stream st, jet_format f, const int *pr, jet_interp interp,
                    int count, int force) {
  double tol = is_float(f) ? (interp == JET_INTERP_AREA ? 1e-4 : 1e-5) : 0.0;
  bt_case c = {f, f, pr[0], pr[1], pr[2], pr[3], count, force, tol, rs_run, rs_ref, &interp,
               interp == JET_INTERP_NEAREST  ? "jet_resize_batch nearest"
               : interp == JET_INTERP_LINEAR ? "jet_resize_batch linear"
                                             : "jet_resize_batch area"};
  return bt_batch(ctx, st, &c);
}

/* sw, sh, dw, dh: 1x1, 3x2, odd up- and downscales, the RGBA8 fast paths
 * (integer area factors, 2x2), non-integer area factors (1.5, and 4/3 of a
 * width whose 11 groups of 4 pixels end short of a unit) and 1921x1081. */
static const int rs_pairs[][4] = {
    {1, 1, 1, 1},          {3, 2, 1, 1},          {3, 2, 17, 9},        {17, 9, 3, 2},
    {1921, 1081, 640, 361}, {1920, 1080, 960, 540}, {1920, 1080, 1280, 720},
    {1921, 1081, 1921, 1081}, {641, 361, 1921, 1081}, {44, 28, 33, 21},
};
#define N_RS_PAIRS ((int)(sizeof rs_pairs / sizeof rs_pairs[0]))

static int rs_format(jet_format f) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  for (int p = 0; p < N_RS_PAIRS; p++) {
    const int *pr = rs_pairs[p];
    int large = pr[0] * pr[1] > 100000 || pr[2] * pr[3] > 100000;
    for (int m = 0; m < 3; m++) {
      jet_interp interp = (jet_interp)m;
      if (interp == JET_INTERP_AREA && (pr[2] > pr[0] || pr[3] > pr[1])) continue;
      for (int n = 0; n < NCOUNTS; n++) {
        /* large batches of 16 once per pair, on a rotating interpolation */
        if (large && counts[n] == JET_IMAGE_BATCH_MAX && (p + m) % 3 != 0) continue;
        CHECK(rs_batch(ctx, st, f, pr, interp, counts[n], -1) == 0);
      }
    }
  }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_resize_batch_rgba8) {
  REQUIRE_GPU();
  return rs_format(JET_FORMAT_RGBA8);
}

TEST(gpu_resize_batch_gray8_rgb8) {
  REQUIRE_GPU();
  if (rs_format(JET_FORMAT_GRAY8)) return 1;
  return rs_format(JET_FORMAT_RGB8);
}

TEST(gpu_resize_batch_float) {
  REQUIRE_GPU();
  if (rs_format(JET_FORMAT_GRAYF32)) return 1;
  if (rs_format(JET_FORMAT_RGBF32)) return 1;
  /* GRAYF32 by exactly 1/2 and 2 with every image created or 16-byte
   * pitched: the whole batch takes the 2 x 2 mean kernel or the x2 walk (odd
   * widths included) */
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int exact[][4] = {
      {34, 18, 17, 9}, {1920, 1080, 960, 540}, {17, 9, 34, 18}, {641, 361, 1282, 722}};
  for (int i = 0; i < 4; i++)
    for (int m = JET_INTERP_LINEAR; m <= (i < 2 ? JET_INTERP_AREA : JET_INTERP_LINEAR); m++)
      for (int force = 0; force < 2; force++)
        CHECK(rs_batch(ctx, st, JET_FORMAT_GRAYF32, exact[i], (jet_interp)m,
                       i & 1 ? 4 : JET_IMAGE_BATCH_MAX, force) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Batches of 16 in one layout each, so the whole launch takes the vector
 * (RGBA8 fast kernels) or the scalar path, for every interpolation. */
TEST(gpu_resize_batch_uniform_layouts) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  static const int pr[][4] = {{1920, 1080, 960, 540}, {1921, 1081, 1280, 721}};
  for (int mode = 0; mode < 3; mode++)
    for (int m = 0; m < 3; m++)
      CHECK(rs_batch(ctx, st, JET_FORMAT_BGRA8, pr[(mode + m) & 1], (jet_interp)m,
                     JET_IMAGE_BATCH_MAX, mode) == 0);
  /* nearest and bilinear by exactly 2 and 3/2 (the x2 and x3/2 kernels
   * where every pair is aligned), widths whose rows end in a partial unit */
  static const jet_format upf[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_BGRA8,
                                   JET_FORMAT_GRAYF32};
  static const int up[][4] = {{641, 361, 1282, 722}, {13, 7, 26, 14}, {642, 362, 963, 543}, {14, 6, 21, 9}};
  for (int mode = 0; mode < 3; mode++)
    for (int f = 0; f < 4; f++)
      for (int i = 0; i < 4; i += 2)
        for (int m = JET_INTERP_NEAREST; m <= JET_INTERP_LINEAR; m++)
          CHECK(rs_batch(ctx, st, upf[f], up[i + ((mode + f + m) & 1)], (jet_interp)m,
                         (mode + f + m) & 1 ? JET_IMAGE_BATCH_MAX : 4, mode) == 0);
  /* RGBA8 bilinear by 3/2: 16 pairs of 642x362 are over the 1920x1080
   * source pixels a launch from which the x3/2 walk takes it */
  for (int mode = 0; mode < 3; mode++)
    CHECK(rs_batch(ctx, st, JET_FORMAT_RGBA8, up[2], JET_INTERP_LINEAR, JET_IMAGE_BATCH_MAX, mode) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ refusals */

/* Fill @img with random bytes and keep a copy in @keep (allocated here). */
/* ------------------------------------------------------------ filters */

typedef struct fl_arg {
  int box, k;
  double sigma;
  jet_border border;
  float bv[4];
} fl_arg;

static jet_status fl_run(jet_stream st, const jet_image *s, const jet_image *d, int n,
                         const void *arg) {
  const fl_arg *a = arg;
  return a->box ? jet_filter_box_batch(st, s, d, n, a->k, a->border, a->bv)
                : jet_filter_gaussian_batch(st, s, d, n, a->k, a->sigma, a->border, a->bv);
}

static int fl_ref(const ref_image *s, ref_image *d, const void *arg) {
  const fl_arg *a = arg;
  double bv[4];
  for (int i = 0; i < 4; i++) bv[i] = a->bv[i];
  return a->box ? ref_box_filter(s, d, a->k, a->border, bv)
                : ref_gaussian_filter(s, d, a->k, a->sigma, a->border, bv);
}

/* Every filter format, k 3/5/7 (the unrolled kernels) and 9 (the runtime-k
 * one), every border, both filters, at 1x1, 3x2, 130x70 and 1921x1081, each
 * batch with random layouts per image (vector and scalar paths mixed). */
TEST(gpu_filter_batch) {
  REQUIRE_GPU();
  static const jet_format fs[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_RGBA8,
                                  JET_FORMAT_GRAYF32};
  static const int sizes[][2] = {{1, 1}, {3, 2}, {130, 70}, {1921, 1081}};
  static const int ks[] = {3, 5, 7, 9};
  static const jet_border bs[] = {JET_BORDER_REPLICATE, JET_BORDER_REFLECT_101,
                                  JET_BORDER_CONSTANT};
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  int n = 0;
  for (int f = 0; f < 4; f++)
    for (int z = 0; z < 4; z++)
      for (int k = 0; k < 4; k++, n++) {
        fl_arg a;
        memset(&a, 0, sizeof a);
        a.box = n % 2;
        a.k = ks[k];
        a.sigma = n % 3 == 0 ? 0.0 : 0.5 + (double)(jt_rand() % 3000) / 1000.0;
        a.border = bs[(n / 2) % 3];
        for (int c = 0; c < 4; c++)
          a.bv[c] = fs[f] == JET_FORMAT_GRAYF32 ? (float)(jt_rand() % 2000) / 7.0f
                                                : (float)(jt_rand() % 256);
        int count = counts[(n + k) % NCOUNTS];
        if (sizes[z][0] > 1000 && count == JET_IMAGE_BATCH_MAX) count = 4;
        bt_case c = {fs[f], fs[f], sizes[z][0], sizes[z][1], sizes[z][0], sizes[z][1], count, -1,
                     fs[f] == JET_FORMAT_GRAYF32 ? 1e-4 : 0.0, fl_run, fl_ref, &a,
                     a.box ? "jet_filter_box_batch" : "jet_filter_gaussian_batch"};
        CHECK(bt_batch(ctx, st, &c) == 0);
      }
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

static int poison_keep(jet_image img, ref_image *keep) {
  jet_format f;
  int w, h;
  CHECK_OK(jet_image_get_format(img, &f));
  CHECK_OK(jet_image_get_size(img, &w, &h));
  CHECK(ref_image_alloc(keep, f, w, h, 0) == 0);
  ref_image_randomize(keep, jt_rand);
  jet_image_plane p[JET_IMAGE_MAX_PLANES];
  ref_image_planes(keep, p);
  CHECK_OK(jet_image_upload(img, p, keep->planes));
  return 0;
}

static int unchanged(jet_image img, const ref_image *keep) {
  ref_image now;
  CHECK(ref_image_alloc(&now, keep->format, keep->width, keep->height, 0) == 0);
  jet_image_plane p[JET_IMAGE_MAX_PLANES];
  ref_image_planes(&now, p);
  CHECK_OK(jet_image_download(img, p, now.planes));
  char why[256];
  int bad = ref_image_compare(&now, keep, 0, why, sizeof why);
  ref_image_free(&now);
  CHECK_MSG(!bad, "a refused batch wrote a destination: %s", why);
  return 0;
}

/* Refusals of both batched calls: count 0 and past the maximum, NULL arrays
 * and entries, dead images, mixed sizes and formats, overlaps across pairs,
 * other contexts, bad enums; the destinations stay untouched. */
TEST(gpu_badarg_batch) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_stream st, ost;
  CHECK_OK(jet_stream_create(ctx, NULL, &st));
  CHECK_OK(jet_stream_create(other, NULL, &ost));
  enum { W = 64, H = 32 };
  jet_image s0, s1, s_small, s_rgb, d0, d1, d_small, gone, foreign, view, hview, half0, half1;
  jet_image big_d[2];
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W, H, &s0));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W, H, &s1));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W / 2, H, &s_small));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGB8, W, H, &s_rgb));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_BGRA8, W, H, &d0));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_BGRA8, W, H, &d1));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_BGRA8, W / 2, H, &d_small));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W / 2, H / 2, &half0));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W / 2, H / 2, &half1));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W, H, &big_d[0]));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, W, H, &big_d[1]));
  CHECK_OK(jet_image_create(other, JET_FORMAT_BGRA8, W, H, &foreign));
  /* BGRA8 and half-size RGBA8 views of s0's memory */
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(s0, 0, &pi));
  jet_image_plane vp = {pi.ptr, pi.pitch};
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_BGRA8, W, H, &vp, 1, JET_IMAGE_MEMORY_DEVICE, &view));
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGBA8, W / 2, H / 2, &vp, 1, JET_IMAGE_MEMORY_DEVICE,
                          &hview));
  /* destroyed after every create, so that no later one can reuse its address */
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_BGRA8, W, H, &gone));
  CHECK_OK(jet_image_destroy(gone));

  ref_image k0, k1, kh0, kh1;
  CHECK(poison_keep(d0, &k0) == 0 && poison_keep(d1, &k1) == 0);
  CHECK(poison_keep(half0, &kh0) == 0 && poison_keep(half1, &kh1) == 0);
  /* the view aliases s0, which the refused calls must not write either */
  ref_image ks0;
  CHECK(poison_keep(s0, &ks0) == 0);

  const jet_color_matrix m = JET_COLOR_BT601;
  const jet_color_range r = JET_COLOR_RANGE_FULL;
  jet_image src[JET_IMAGE_BATCH_MAX + 1], dst[JET_IMAGE_BATCH_MAX + 1];
  for (int i = 0; i <= JET_IMAGE_BATCH_MAX; i++) {
    src[i] = s0;
    dst[i] = d0;
  }
#define CC(s, d, n) jet_convert_color_batch(st, s, d, n, m, r)
  /* counts and arrays */
  jet_image ok_s[2] = {s0, s1}, ok_d[2] = {d0, d1};
  CHECK_ST(CC(ok_s, ok_d, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "count") != NULL);
  CHECK_ST(CC(ok_s, ok_d, -1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(CC(src, dst, JET_IMAGE_BATCH_MAX + 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "count") != NULL);
  CHECK_ST(CC(NULL, ok_d, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(CC(ok_s, NULL, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color_batch(NULL, ok_s, ok_d, 2, m, r), JET_STATUS_INVALID_HANDLE);
  /* NULL and dead entries, another context */
  jet_image null_s[2] = {s0, NULL}, dead_d[2] = {d0, gone}, for_d[2] = {d0, foreign};
  CHECK_ST(CC(null_s, ok_d, 2), JET_STATUS_INVALID_HANDLE);
  CHECK(strstr(jet_last_error()->message, "pair 1") != NULL);
  CHECK_ST(CC(ok_s, dead_d, 2), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(CC(ok_s, for_d, 2), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_convert_color_batch(ost, ok_s, ok_d, 2, m, r), JET_STATUS_WRONG_CONTEXT);
  /* mixed sizes and formats */
  jet_image mix_s[2] = {s0, s_small}, mix_d[2] = {d0, d_small}, fmt_s[2] = {s0, s_rgb};
  CHECK_ST(CC(mix_s, mix_d, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  CHECK(pair_ok(JET_FORMAT_RGB8, JET_FORMAT_BGRA8)); /* each pair alone is legal */
  CHECK_ST(CC(fmt_s, ok_d, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  /* overlaps across pairs: a destination over another pair's source, one
   * destination twice */
  jet_image ov_d[2] = {d0, view}, twice_d[2] = {d0, d0};
  CHECK_ST(CC(ok_s, ov_d, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  CHECK_ST(CC(ok_s, twice_d, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  CHECK_ST(CC(src, dst, JET_IMAGE_BATCH_MAX), JET_STATUS_INVALID_ARGUMENT); /* d0 sixteen times */
  /* enums */
  CHECK_ST(jet_convert_color_batch(st, ok_s, ok_d, 2, (jet_color_matrix)2, r),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color_batch(st, ok_s, ok_d, 2, m, (jet_color_range)-1),
           JET_STATUS_INVALID_ARGUMENT);

  /* the same for resize (RGBA8 -> RGBA8 half size) */
  jet_image rs_d[2] = {half0, half1};
  CHECK_ST(jet_resize_batch(st, ok_s, rs_d, 0, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(st, src, dst, JET_IMAGE_BATCH_MAX + 1, JET_INTERP_LINEAR),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(st, NULL, rs_d, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(st, ok_s, NULL, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(NULL, ok_s, rs_d, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize_batch(ost, ok_s, rs_d, 2, JET_INTERP_LINEAR), JET_STATUS_WRONG_CONTEXT);
  jet_image rs_mixd[2] = {half0, d_small}, rs_dead[2] = {half0, gone};
  CHECK_ST(jet_resize_batch(st, ok_s, rs_mixd, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "mismatch") != NULL);
  CHECK_ST(jet_resize_batch(st, mix_s, rs_d, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  CHECK_ST(jet_resize_batch(st, ok_s, rs_dead, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  jet_image rs_ov[2] = {half0, hview}, rs_twice[2] = {half0, half0};
  CHECK_ST(jet_resize_batch(st, ok_s, rs_twice, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  /* dst[1] a view over src[0] */
  CHECK_ST(jet_resize_batch(st, ok_s, rs_ov, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  CHECK_ST(jet_resize_batch(st, ok_s, rs_d, 2, (jet_interp)3), JET_STATUS_INVALID_ARGUMENT);
  jet_image up_s[2] = {half0, half1};
  CHECK_ST(jet_resize_batch(st, up_s, big_d, 2, JET_INTERP_AREA), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "downscale") != NULL);

  /* nothing was written */
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(unchanged(d0, &k0) == 0 && unchanged(d1, &k1) == 0);
  CHECK(unchanged(half0, &kh0) == 0 && unchanged(half1, &kh1) == 0);
  CHECK(unchanged(s0, &ks0) == 0);

  /* and the legal calls of the same images go through: the same source twice */
  jet_image same_s[2] = {s0, s0};
  CHECK_OK(CC(same_s, ok_d, 2));
  CHECK_OK(jet_resize_batch(st, same_s, rs_d, 2, JET_INTERP_AREA));
  CHECK_OK(jet_resize_batch(st, up_s, big_d, 2, JET_INTERP_LINEAR));
  CHECK_OK(jet_stream_synchronize(st));
#undef CC

  ref_image *keeps[] = {&k0, &k1, &kh0, &kh1, &ks0};
  for (size_t i = 0; i < sizeof keeps / sizeof keeps[0]; i++) ref_image_free(keeps[i]);
  jet_image all[] = {s0, s1, s_small, s_rgb, d0, d1, d_small, half0, half1, view, hview,
                     big_d[0], big_d[1]};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK_OK(jet_image_destroy(all[i]));
  CHECK_OK(jet_image_destroy(foreign));
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_stream_destroy(ost));
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_OK(jet_context_destroy(other));
  return 0;
}

/* ------------------------------------------------------------ host tests */

static int failed_in(const char *fn) { return strcmp(jet_last_error()->function, fn) == 0; }

/* The refusals of both batched calls on fake contexts and images: every one
 * is decided before any CUDA call (a fake image's memory does not exist). */
TEST(badarg_batch_before_cuda) {
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop") && jt_fake_context(&other, "desktop"));
  jet_stream s, so;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(&other, JET_STREAM_PER_THREAD, &so));
  enum { N = 6 };
  struct jet_image_s nv[N], rgba[N], nv21, nv_small, rgba_small, alias, foreign, quarter[2];
  for (int i = 0; i < N; i++) {
    CHECK(jt_fake_image(&nv[i], &c, JET_FORMAT_NV12, 64, 32, 0x1000000 + 0x100000 * (uintptr_t)i));
    CHECK(jt_fake_image(&rgba[i], &c, JET_FORMAT_RGBA8, 64, 32, 0x2000000 + 0x100000 * (uintptr_t)i));
  }
  CHECK(jt_fake_image(&nv21, &c, JET_FORMAT_NV21, 64, 32, 0x3000000));
  CHECK(jt_fake_image(&nv_small, &c, JET_FORMAT_NV12, 32, 32, 0x3100000));
  CHECK(jt_fake_image(&rgba_small, &c, JET_FORMAT_RGBA8, 32, 32, 0x3200000));
  CHECK(jt_fake_image(&alias, &c, JET_FORMAT_RGBA8, 64, 32, 0x1000000 + 0x100000 * 3 + 256));
  CHECK(jt_fake_image(&foreign, &other, JET_FORMAT_RGBA8, 64, 32, 0x3300000));
  CHECK(jt_fake_image(&quarter[0], &c, JET_FORMAT_RGBA8, 16, 8, 0x3400000));
  CHECK(jt_fake_image(&quarter[1], &c, JET_FORMAT_RGBA8, 16, 8, 0x3500000));
  jet_image qv[2] = {&quarter[0], &quarter[1]};
  jet_image sv[JET_IMAGE_BATCH_MAX + 1], dv[JET_IMAGE_BATCH_MAX + 1];
  for (int i = 0; i <= JET_IMAGE_BATCH_MAX; i++) {
    sv[i] = &nv[i % N];
    dv[i] = &rgba[i % N];
  }
  const jet_color_matrix m = JET_COLOR_BT709;
  const jet_color_range r = JET_COLOR_RANGE_LIMITED;
  const char *cc = "jet_convert_color_batch", *rs = "jet_resize_batch";

  /* count and arrays */
  int bad_counts[] = {0, -1, JET_IMAGE_BATCH_MAX + 1, 1 << 30};
  for (size_t i = 0; i < sizeof bad_counts / sizeof bad_counts[0]; i++) {
    CHECK_ST(jet_convert_color_batch(s, sv, dv, bad_counts[i], m, r), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "count") != NULL && failed_in(cc));
    CHECK_ST(jet_resize_batch(s, dv, dv, bad_counts[i], JET_INTERP_AREA), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "count") != NULL && failed_in(rs));
  }
  CHECK_ST(jet_convert_color_batch(s, NULL, dv, 2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color_batch(s, sv, NULL, 2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(s, NULL, dv, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(s, dv, NULL, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_convert_color_batch(NULL, sv, dv, 2, m, r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_resize_batch(NULL, dv, dv + 2, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_HANDLE);
  /* a NULL entry, another context */
  jet_image with_null[3] = {&nv[0], &nv[1], NULL};
  CHECK_ST(jet_convert_color_batch(s, with_null, dv, 3, m, r), JET_STATUS_INVALID_HANDLE);
  CHECK(strstr(jet_last_error()->message, "pair 2") != NULL && failed_in(cc));
  jet_image with_foreign[2] = {&rgba[0], &foreign};
  CHECK_ST(jet_convert_color_batch(s, sv, with_foreign, 2, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_convert_color_batch(so, sv, dv, 2, m, r), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_resize_batch(so, dv, dv + 1, 1, JET_INTERP_LINEAR), JET_STATUS_WRONG_CONTEXT);
  /* mixed formats (NV12 and NV21 each convert to RGBA8) and sizes */
  jet_image mixf[2] = {&nv[0], &nv21}, mixs[2] = {&nv[0], &nv_small}, mixd[2] = {&rgba[0], &rgba_small};
  CHECK_ST(jet_convert_color_batch(s, mixf, dv, 2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  CHECK_ST(jet_convert_color_batch(s, mixs, mixd, 2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  jet_image rs_src[2] = {&rgba[0], &rgba[1]}, rs_mixs[2] = {&rgba[0], &rgba_small};
  CHECK_ST(jet_resize_batch(s, rs_src, mixd, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(s, rs_mixs, qv, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  /* overlaps: a destination over another pair's source, a destination twice */
  jet_image cc_ov_s[2] = {&nv[3], &nv[4]}, cc_ov_d[2] = {&rgba[0], &alias};
  CHECK_ST(jet_convert_color_batch(s, cc_ov_s, cc_ov_d, 2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "dst[1] overlaps src[0]") != NULL);
  jet_image twice[2] = {&rgba[0], &rgba[0]};
  CHECK_ST(jet_convert_color_batch(s, sv, twice, 2, m, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "dst[0] overlaps dst[1]") != NULL);
  jet_image qtwice[2] = {&quarter[0], &quarter[0]};
  CHECK_ST(jet_resize_batch(s, rs_src, qtwice, 2, JET_INTERP_NEAREST), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL && failed_in(rs));
  /* the filter batches share the checks; a bad sigma or ksize is refused first */
  const char *fb = "jet_filter_box_batch", *fg = "jet_filter_gaussian_batch";
  jet_image fsrc[2] = {&rgba[0], &rgba[1]}, fdst[2] = {&rgba[2], &rgba[3]};
  CHECK_ST(jet_filter_box_batch(s, fsrc, fdst, 0, 5, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "count") != NULL && failed_in(fb));
  CHECK_ST(jet_filter_gaussian_batch(s, fsrc, NULL, 2, 5, 0.0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(failed_in(fg));
  CHECK_ST(jet_filter_gaussian_batch(s, fsrc, fdst, 2, 4, 0.0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "ksize") != NULL);
  CHECK_ST(jet_filter_gaussian_batch(s, fsrc, fdst, 2, 5, NAN, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  jet_image fmix[2] = {&rgba[2], &rgba_small};
  CHECK_ST(jet_filter_box_batch(s, fsrc, fmix, 2, 3, JET_BORDER_CONSTANT, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(failed_in(fb));
  jet_image fself[2] = {&rgba[2], &rgba[0]}; /* pair 1 writes pair 0's source */
  CHECK_ST(jet_filter_box_batch(s, fsrc, fself, 2, 3, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL && failed_in(fb));
  struct jet_image_s qalias; /* over rgba[0], the source of pair 0 */
  CHECK(jt_fake_image(&qalias, &c, JET_FORMAT_RGBA8, 16, 8, 0x2000000 + 512));
  jet_image rs_ov_d[2] = {&quarter[0], &qalias};
  CHECK_ST(jet_resize_batch(s, rs_src, rs_ov_d, 2, JET_INTERP_LINEAR), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "dst[1] overlaps src[0]") != NULL);
  /* enums, area enlarging */
  CHECK_ST(jet_convert_color_batch(s, sv, dv, 2, (jet_color_matrix)2, r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "matrix") != NULL && failed_in(cc));
  CHECK_ST(jet_convert_color_batch(s, sv, dv, 2, m, (jet_color_range)-1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "range") != NULL);
  CHECK_ST(jet_resize_batch(s, rs_src, qv, 2, (jet_interp)3), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_resize_batch(s, qv, rs_src, 2, JET_INTERP_AREA), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "downscale") != NULL && failed_in(rs));

  for (int i = 0; i < N; i++) {
    jet__handle_unregister(&nv[i].h);
    jet__handle_unregister(&rgba[i].h);
  }
  struct jet_image_s *rest[] = {&nv21, &nv_small, &rgba_small, &alias, &foreign,
                                &quarter[0], &quarter[1], &qalias};
  for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) jet__handle_unregister(&rest[i]->h);
  CHECK(atomic_load(&c.live_objects) == 0 && atomic_load(&other.live_objects) == 0);
  jt_fake_context_done(&c);
  jt_fake_context_done(&other);
  return 0;
}
