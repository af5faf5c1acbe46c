/* Box and Gaussian filters (jet_filter_box, jet_filter_gaussian) against the
 * CPU reference on fresh random images, and their bad-input statuses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "../ref/ref_image.h"
#include "../../kernels/image/filter_params.h"

static const jet_format filter_formats[] = {JET_FORMAT_GRAY8,  JET_FORMAT_RGB8,    JET_FORMAT_BGR8,
                                            JET_FORMAT_RGBA8,  JET_FORMAT_BGRA8,   JET_FORMAT_GRAYF32,
                                            JET_FORMAT_RGBF32};
#define N_FORMATS (sizeof filter_formats / sizeof filter_formats[0])
static const jet_border borders[] = {JET_BORDER_REPLICATE, JET_BORDER_REFLECT_101,
                                     JET_BORDER_CONSTANT};
static const char *const border_names[] = {"replicate", "reflect-101", "constant"};

/* ------------------------------------------------------------ host-only */

TEST(badarg_filter_plain_arguments) {
  /* plain arguments are checked before any handle, so these need no GPU */
  static const int bad_k[] = {-3, 0, 1, 2, 4, 6, 30, 32, 33, 1001};
  for (size_t i = 0; i < sizeof bad_k / sizeof bad_k[0]; i++) {
    CHECK_ST(jet_filter_box(NULL, NULL, NULL, bad_k[i], JET_BORDER_REPLICATE, NULL),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, bad_k[i], 1.0, JET_BORDER_REPLICATE, NULL),
             JET_STATUS_INVALID_ARGUMENT);
  }
  CHECK_ST(jet_filter_box(NULL, NULL, NULL, 5, (jet_border)3, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_box(NULL, NULL, NULL, 5, (jet_border)-1, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, 5, 1.0, (jet_border)7, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, 5, NAN, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, 5, INFINITY, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, 5, -INFINITY, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, 5, 1e-300, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  /* good arguments: now the NULL images are reported */
  for (int k = JET_FILTER_KSIZE_MIN; k <= JET_FILTER_KSIZE_MAX; k += 2) {
    CHECK_ST(jet_filter_box(NULL, NULL, NULL, k, JET_BORDER_CONSTANT, NULL),
             JET_STATUS_INVALID_HANDLE);
    CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, k, 0.0, JET_BORDER_REFLECT_101, NULL),
             JET_STATUS_INVALID_HANDLE);
  }
  float bv[4] = {1, 2, 3, 4};
  CHECK_ST(jet_filter_gaussian(NULL, NULL, NULL, 31, -2.0, JET_BORDER_CONSTANT, bv),
           JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* The 8-bit box's reciprocal of k*k (filter_params.h: jet__filter_params.magic). */
static unsigned box_magic(unsigned k2) { return (unsigned)((0x100000000ull + k2 - 1) / k2); }

/* The 8-bit box divides by k*k with a multiply-high by box_magic; exact for
 * every sum the filter can produce. */
TEST(filter_box_division_exact) {
  for (unsigned k = JET_FILTER_KSIZE_MIN; k <= JET_FILTER_KSIZE_MAX; k += 2) {
    unsigned k2 = k * k, magic = box_magic(k2);
    for (unsigned n = 0; n <= k2 * 255 + k2 / 2; n++)
      CHECK_MSG((unsigned)(((unsigned long long)n * magic) >> 32) == n / k2, "k %u n %u", k, n);
  }
  return 0;
}

/* The unrolled 8-bit box kernels divide two 16-bit lanes of a word W = hi *
 * 2^16 + lo without unpacking the high one (filter.cu, jf_pack_box_lanes): the
 * quotients are byte 2 of umulhi(W, magic) and of umulhi(lo << 16, magic).
 * Exact for every pair of sums the filter can produce, k = 3, 5, 7. */
TEST(filter_box_packed_division_exact) {
  for (unsigned k = JET_FILTER_KSIZE_MIN; k <= JET_FILTER_FAST_KMAX; k += 2) {
    unsigned k2 = k * k, magic = box_magic(k2), top = k2 * 255 + k2 / 2;
    unsigned long long bad = 0;
    for (unsigned hi = 0; hi <= top; hi++) {
      for (unsigned lo = 0; lo <= top; lo++) {
        unsigned w = hi << 16 | lo;
        bad += (unsigned)(((unsigned long long)w * magic) >> 32) >> 16 != hi / k2;
      }
      bad += (unsigned)(((unsigned long long)(hi << 16) * magic) >> 32) >> 16 != hi / k2;
    }
    CHECK_MSG(bad == 0, "k %u: %llu lane pairs divided wrongly", k, bad);
  }
  return 0;
}

/* Every format and kernel size gets a tile that fits 48 KiB of shared memory
 * with at least one vertical group of rows (the rule of lib/image/filter.c). */
TEST(filter_tiles_fit_shared_memory) {
  static const int layouts[][2] = {{1, 1}, {3, 1}, {4, 1}, {1, 4}, {3, 4}}; /* channels, bytes */
  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (int k = JET_FILTER_KSIZE_MIN; k <= JET_FILTER_KSIZE_MAX; k += 2) {
      int nc = layouts[l][0], es = layouts[l][1], r = k / 2, th = JET_FILTER_TILE_H;
      CHECK(JET_FILTER_HP(r, nc, es) >= r * nc && JET_FILTER_HP(r, nc, es) * es % 16 == 0);
      if (k > JET_FILTER_FAST_KMAX) {
        int row = JET_FILTER_SW(r, nc, es) * es + JET_FILTER_TW(es) * 4;
        int fit = (JET_FILTER_SMEM_MAX - 128) / row - 2 * r;
        fit -= fit % JET_FILTER_RV;
        if (fit < th) th = fit;
      }
      CHECK_MSG(th >= JET_FILTER_RV && th % JET_FILTER_RV == 0, "k %d nc %d es %d th %d", k, nc,
                es, th);
      CHECK_MSG(JET_FILTER_SMEM(r, nc, es, th, 0) <= JET_FILTER_SMEM_MAX, "k %d nc %d es %d: %d bytes",
                k, nc, es, JET_FILTER_SMEM(r, nc, es, th, 0));
      if (es == 1) CHECK(JET_FILTER_SMEM(r, nc, es, th, 1) <= JET_FILTER_SMEM(r, nc, es, th, 0));
    }
  /* an s_h16 row holds the tile's 8-bit sums (4 per 8-byte word), and rows
   * 64 bytes off a 128-byte multiple apart: 4 rows' stores in 2 wavefronts */
  CHECK(JET_FILTER_H16_ROW * 4 >= JET_FILTER_TW(1) && JET_FILTER_H16_ROW * 8 % 128 == 64);
  return 0;
}

/* The rows per block of lib/image/filter.c: a whole number of vertical
 * groups, at most JET_FILTER_TILE_H, the horizontal pass (8 tasks a row) in
 * at most two rounds of the block, and the unrolled sizes fit the shared
 * memory with it. */
TEST(filter_tile_rows) {
  static const int layouts[][2] = {{1, 1}, {3, 1}, {4, 1}, {1, 4}, {3, 4}}; /* channels, bytes */
  for (int r = JET_FILTER_KSIZE_MIN / 2; r <= JET_FILTER_KSIZE_MAX / 2; r++) {
    int th = JET_FILTER_TILE_ROWS(r);
    CHECK_MSG(th >= JET_FILTER_RV && th % JET_FILTER_RV == 0 && th <= JET_FILTER_TILE_H, "r %d th %d",
              r, th);
    CHECK_MSG(8 * (th + 2 * r) <= 2 * JET_FILTER_THREADS, "r %d th %d", r, th);
    if (2 * r + 1 <= JET_FILTER_FAST_KMAX)
      for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
        CHECK_MSG(JET_FILTER_SMEM(r, layouts[l][0], layouts[l][1], th, 0) <= JET_FILTER_SMEM_MAX,
                  "r %d layout %zu", r, l);
  }
  CHECK(JET_FILTER_TILE_ROWS(2) == 60); /* 4K RGBA8 5x5: 2160 = 36 * 60, no partial tiles */
  /* the unrolled 8-bit kernels' tile heights (jet__wave_rows' range) */
  CHECK(JET_FILTER_FAST_TILE_MIN % JET_FILTER_RV == 0 && JET_FILTER_FAST_TILE_MAX % JET_FILTER_RV == 0);
  CHECK(JET_FILTER_FAST_TILE_MIN >= JET_FILTER_RV && JET_FILTER_FAST_TILE_MAX <= JET_FILTER_TILE_H);
  for (int r = 1; 2 * r + 1 <= JET_FILTER_FAST_KMAX; r++)
    for (int nc = 1; nc <= 4; nc++)
      CHECK_MSG(JET_FILTER_SMEM(r, nc, 1, JET_FILTER_FAST_TILE_MAX, 1) <= JET_FILTER_SMEM_MAX, "r %d nc %d",
                r, nc);
  return 0;
}

static float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The 8-bit vertical pass (filter.cu) sums integers below 2^24 as floats
 * whose bits are the integers (subnormal, then the lowest normal binade)
 * with fused multiply-adds by the taps: every such sum is exact, so the
 * result's bits are the integer sum. Checked with the sums the filters can
 * produce, high ones (across 2^23) included. */
TEST(filter_subnormal_sums_exact) {
  for (int k = JET_FILTER_KSIZE_MIN; k <= JET_FILTER_KSIZE_MAX; k += 2)
    for (int rep = 0; rep < 2000; rep++) {
      int box = rep & 1, q[JET_FILTER_KSIZE_MAX];
      double sigma = rep % 6 < 2 ? 0.0 : 0.05 + (double)(jt_rand() % 20000) / 1000.0;
      if (box)
        for (int i = 0; i < k; i++) q[i] = 1;
      else
        ref_gaussian_weights_q(k, sigma, q);
      uint32_t bias = box ? (uint32_t)(k * k / 2) : 1u << (2 * JET_GAUSS_BITS - 1);
      uint32_t hmax = box ? (uint32_t)k * 255u : 255u * JET_GAUSS_ONE;
      uint64_t want = bias;
      float acc = bits_float(bias);
      for (int j = 0; j < k; j++) {
        /* horizontal sums: at or near the top, or anywhere */
        uint32_t h = rep % 3 ? hmax - jt_rand() % (hmax / 8 + 1) : jt_rand() % (hmax + 1);
        want += (uint64_t)q[j] * h;
        acc = fmaf((float)q[j], bits_float(h), acc);
      }
      CHECK_MSG(want < (1u << 24), "k %d sum %llu", k, (unsigned long long)want);
      CHECK_MSG(float_bits(acc) == (uint32_t)want, "k %d box %d: %u, want %llu", k, box,
                float_bits(acc), (unsigned long long)want);
    }
  return 0;
}

/* ------------------------------------------------------------ device images */

/* A device image and its whole byte range [base, base + extent), which is
 * filled with 0xA5 (padding included) before every run. kind 0: created;
 * kind 1: wrapped, pitch = row bytes + an odd number of elements and the base
 * one element past a 256-byte boundary (no 16-byte alignment: scalar paths);
 * kind 2: wrapped, pitch = row bytes rounded to 16 plus 64 (vector paths). */
typedef struct dev_image {
  jet_image img;
  unsigned char *base;
  size_t pitch, row, extent;
  void *mem;
} dev_image;

static int dev_image_make(jet_context ctx, jet_format f, int w, int h, int kind, dev_image *d) {
  jet_format_desc fd;
  CHECK_OK(jet_format_info(f, &fd));
  memset(d, 0, sizeof *d);
  size_t es = (size_t)fd.elem_size;
  d->row = (size_t)w * (size_t)fd.bytes_per_pixel[0];
  if (kind == 0) {
    CHECK_OK(jet_image_create(ctx, f, w, h, &d->img));
    jet_image_plane_info pi;
    CHECK_OK(jet_image_get_plane(d->img, 0, &pi));
    d->base = pi.ptr;
    d->pitch = pi.pitch;
  } else {
    d->pitch = kind == 1 ? d->row + es * (1 + 2 * (jt_rand() % 8)) : (d->row + 15) / 16 * 16 + 64;
    size_t bytes = d->pitch * (size_t)h + 256;
    CHECK(cudaMalloc(&d->mem, bytes) == cudaSuccess);
    d->base = (unsigned char *)d->mem + (kind == 1 ? es : 0);
    jet_image_plane pl = {d->base, d->pitch};
    CHECK_OK(jet_image_wrap(ctx, f, w, h, &pl, 1, JET_IMAGE_MEMORY_DEVICE, &d->img));
  }
  d->extent = d->pitch * (size_t)(h - 1) + d->row;
  CHECK(cudaMemset(d->base, 0xA5, d->extent) == cudaSuccess &&
        cudaDeviceSynchronize() == cudaSuccess); /* the legacy-stream memset is async */
  return 0;
}

static int dev_image_free(dev_image *d) {
  CHECK_OK(jet_image_destroy(d->img));
  if (d->mem) CHECK(cudaFree(d->mem) == cudaSuccess);
  memset(d, 0, sizeof *d);
  return 0;
}

typedef struct fcase {
  jet_format f;
  int w, h, box, k;
  double sigma;
  jet_border border;
  int use_bv;
  float bv[4];
  int kin, kout; /* dev_image kinds */
  int stream;    /* 0: created stream, 1: per-thread default, 2: legacy default */
  int high;      /* 8-bit source samples 248..255: the largest sums */
} fcase;

static void describe(const fcase *c) {
  fprintf(stderr, "  case: %s %s %dx%d k %d sigma %g border %s value %s(%g %g %g %g) src kind %d dst kind %d stream %d high %d\n",
          c->box ? "box" : "gaussian", jet_format_name(c->f), c->w, c->h, c->k, c->sigma,
          border_names[c->border], c->use_bv ? "" : "NULL ", c->bv[0], c->bv[1], c->bv[2],
          c->bv[3], c->kin, c->kout, c->stream, c->high);
}

static float random_border_value(jet_format f) {
  jet_format_desc d;
  (void)jet_format_info(f, &d);
  if (d.elem == JET_ELEM_U8) /* halves in -10..270: rounding and clamping */
    return (float)((int)(jt_rand() % 561) - 20) * 0.5f;
  return (float)((double)(jt_rand() % 600001) / 1000.0 - 300.0);
}

static int run_case_inner(jet_context ctx, jet_stream *streams, const fcase *c) {
  ref_image src, want, got;
  CHECK(ref_image_alloc(&src, c->f, c->w, c->h, jt_rand() % 40) == 0);
  CHECK(ref_image_alloc(&want, c->f, c->w, c->h, 0) == 0);
  ref_image_randomize(&src, jt_rand);
  if (c->high && src.elem_size == 1)
    for (int y = 0; y < c->h; y++)
      for (size_t b = 0; b < (size_t)c->w * (size_t)src.channels; b++)
        src.data[0][(size_t)y * src.pitch[0] + b] |= 0xF8;
  ref_image_poison(&want, 0x5A);
  dev_image in, out;
  if (dev_image_make(ctx, c->f, c->w, c->h, c->kin, &in)) return 1;
  if (dev_image_make(ctx, c->f, c->w, c->h, c->kout, &out)) return 1;
  jet_image_plane hp;
  ref_image_planes(&src, &hp);
  CHECK_OK(jet_image_upload(in.img, &hp, 1));

  double bvd[4];
  for (int i = 0; i < 4; i++) bvd[i] = c->bv[i];
  const float *bv = c->use_bv ? c->bv : NULL;
  jet_stream s = streams[c->stream];
  if (c->box) {
    CHECK(ref_box_filter(&src, &want, c->k, c->border, c->use_bv ? bvd : NULL) == 0);
    CHECK_OK(jet_filter_box(s, in.img, out.img, c->k, c->border, bv));
  } else {
    CHECK(ref_gaussian_filter(&src, &want, c->k, c->sigma, c->border, c->use_bv ? bvd : NULL) == 0);
    CHECK_OK(jet_filter_gaussian(s, in.img, out.img, c->k, c->sigma, c->border, bv));
  }
  CHECK_OK(jet_stream_synchronize(s));

  /* the whole byte range, padding included: pixels as the reference says,
   * padding still poisoned */
  CHECK(ref_image_alloc(&got, c->f, c->w, c->h, out.pitch - out.row) == 0);
  CHECK(got.pitch[0] == out.pitch);
  CHECK(cudaMemcpy(got.data[0], out.base, out.extent, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int y = 0; y + 1 < c->h; y++)
    for (size_t b = out.row; b < out.pitch; b++)
      CHECK_MSG(got.data[0][(size_t)y * out.pitch + b] == 0xA5, "padding byte %zu of row %d written", b, y);
  char why[256];
  int bad = ref_image_compare(&got, &want, want.elem_size == 1 ? 0 : 1e-4, why, sizeof why);
  CHECK_MSG(!bad, "%s", why);
  /* the source is untouched */
  ref_image back;
  CHECK(ref_image_alloc(&back, c->f, c->w, c->h, 3) == 0);
  ref_image_planes(&back, &hp);
  CHECK_OK(jet_image_download(in.img, &hp, 1));
  CHECK_MSG(ref_image_compare(&back, &src, 0, why, sizeof why) == 0, "source changed: %s", why);
  ref_image_free(&back);

  if (dev_image_free(&in) || dev_image_free(&out)) return 1;
  ref_image_free(&src);
  ref_image_free(&want);
  ref_image_free(&got);
  return 0;
}

static int run_case(jet_context ctx, jet_stream *streams, const fcase *c) {
  if (run_case_inner(ctx, streams, c)) {
    describe(c);
    return 1;
  }
  return 0;
}

static int open_ctx(jet_context *ctx, jet_stream streams[3]) {
  CHECK_OK(jt_context(ctx, 0));
  jet_stream_desc sd;
  memset(&sd, 0, sizeof sd);
  sd.flags = JET_STREAM_NON_BLOCKING;
  CHECK_OK(jet_stream_create(*ctx, &sd, &streams[0]));
  CHECK_OK(jet_context_default_stream(*ctx, JET_STREAM_PER_THREAD, &streams[1]));
  CHECK_OK(jet_context_default_stream(*ctx, JET_STREAM_LEGACY, &streams[2]));
  return 0;
}

static int close_ctx(jet_context ctx, jet_stream streams[3]) {
  CHECK_OK(jet_stream_destroy(streams[0]));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

static double random_sigma(int i) {
  switch (i % 4) {
    case 0: return 0.0; /* derived */
    case 1: return -1.0; /* derived */
    default: return 0.2 + (double)(jt_rand() % 10000) / 1000.0;
  }
}

static void random_bv(fcase *c) {
  c->use_bv = jt_rand() % 5 != 0;
  for (int i = 0; i < 4; i++) c->bv[i] = random_border_value(c->f);
}

/* A case with a random border value. */
static fcase make_case(jet_format f, int w, int h, int box, int k, double sigma, jet_border border,
                       int kin, int kout) {
  fcase c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.w = w;
  c.h = h;
  c.box = box;
  c.k = k;
  c.sigma = sigma;
  c.border = border;
  random_bv(&c);
  c.kin = kin;
  c.kout = kout;
  return c;
}

/* Case @n of a sweep: a random sigma, and the image memory kinds and the
 * stream kind rotated by @n. */
static int sweep_case(jet_context ctx, jet_stream streams[3], jet_format f, int w, int h, int box,
                      int k, jet_border border, int n) {
  const double sigma = random_sigma(n);
  fcase c = make_case(f, w, h, box, k, sigma, border, n % 3, (n / 3) % 3);
  c.stream = n % 7 == 3 ? 1 : n % 11 == 5 ? 2 : 0;
  return run_case(ctx, streams, &c);
}

/* Every format, border and kernel size at small sizes, including windows
 * larger than the image, tiles crossing in both directions, every kind of
 * image memory and every stream kind. */
static int small_sweep(int box) {
  jet_context ctx;
  jet_stream streams[3];
  if (open_ctx(&ctx, streams)) return 1;
  static const int sizes[][2] = {{1, 1}, {2, 3}, {17, 9}, {130, 70}};
  static const int ks[] = {3, 5, 7, 9, 15, 31};
  int n = 0;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (size_t fi = 0; fi < N_FORMATS; fi++)
      for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
        for (int b = 0; b < 3; b++, n++)
          if (sweep_case(ctx, streams, filter_formats[fi], sizes[s][0], sizes[s][1], box, ks[ki],
                         borders[b], n))
            return 1;
  return close_ctx(ctx, streams);
}

TEST(gpu_filter_box_small_sizes) {
  REQUIRE_GPU();
  return small_sweep(1);
}

TEST(gpu_filter_gaussian_small_sizes) {
  REQUIRE_GPU();
  return small_sweep(0);
}

static int one(jet_format f, int w, int h, int box, int k, double sigma, jet_border border,
               int kin, int kout) {
  jet_context ctx;
  jet_stream streams[3];
  if (open_ctx(&ctx, streams)) return 1;
  fcase c = make_case(f, w, h, box, k, sigma, border, kin, kout);
  c.use_bv = 1;
  if (run_case(ctx, streams, &c)) return 1;
  return close_ctx(ctx, streams);
}

/* RGBA8 5x5 (the benchmarked case) at 1921x1081, both filters, every border. */
TEST(gpu_filter_rgba8_5x5_1921x1081) {
  REQUIRE_GPU();
  for (int b = 0; b < 3; b++) {
    if (one(JET_FORMAT_RGBA8, 1921, 1081, 1, 5, 0, borders[b], b % 3, (b + 1) % 3)) return 1;
    if (one(JET_FORMAT_RGBA8, 1921, 1081, 0, 5, b ? 1.7 : 0.0, borders[b], (b + 2) % 3, b % 3))
      return 1;
  }
  return 0;
}

/* Every format at 1921x1081 with the unrolled kernel sizes. */
TEST(gpu_filter_formats_1921x1081) {
  REQUIRE_GPU();
  for (size_t fi = 0; fi < N_FORMATS; fi++) {
    int n = (int)fi;
    if (one(filter_formats[fi], 1921, 1081, 1, 3, 0, borders[n % 3], n % 3, 0)) return 1;
    if (one(filter_formats[fi], 1921, 1081, 0, n & 1 ? 5 : 7, random_sigma(n + 2),
            borders[(n + 1) % 3], 0, (n + 1) % 3))
      return 1;
  }
  return 0;
}

/* The packed-integer unrolled 8-bit kernels: every 8-bit format, k 3, 5, 7,
 * both filters, at several tiles each way, with the largest sums (samples
 * 248..255) and plain random samples, the Gaussian with a centre tap of 256
 * (sigma 0.2), a wide one (sigma 12) and the derived sigma. */
TEST(gpu_filter_8bit_unrolled_sums) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream streams[3];
  if (open_ctx(&ctx, streams)) return 1;
  static const double sigmas[] = {0.2, 12.0, 0.0};
  int n = 0;
  for (size_t fi = 0; fi < N_FORMATS; fi++) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(filter_formats[fi], &d));
    if (d.elem != JET_ELEM_U8) continue;
    for (int k = 3; k <= JET_FILTER_FAST_KMAX; k += 2)
      for (int box = 0; box < 2; box++)
        for (int high = 0; high < 2; high++, n++) {
          fcase c = make_case(filter_formats[fi], 259, 131, box, k, sigmas[n % 3], borders[n % 3],
                              n % 3, (n + 1) % 3);
          c.high = high;
          if (run_case(ctx, streams, &c)) return 1;
        }
  }
  return close_ctx(ctx, streams);
}

/* Tiles that hold only the last one to NC elements of a row (a tile may
 * start inside a pixel), and rows one element past a whole tile: the halo
 * outside the row is copied from the row's elements the tile loaded.
 * Every format, border, unrolled and runtime kernel size. */
TEST(gpu_filter_last_pixel_tiles) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream streams[3];
  if (open_ctx(&ctx, streams)) return 1;
  static const int ks[] = {3, 5, 7, 9, 31};
  int n = 0;
  for (size_t fi = 0; fi < N_FORMATS; fi++) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(filter_formats[fi], &d));
    const int tw = JET_FILTER_TW(d.elem == JET_ELEM_U8 ? 1 : 4), nc = d.channels;
    for (int tiles = 1; tiles <= 2; tiles++)
      for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
        for (int b = 0; b < 3; b++, n++) /* the row ends 1 to nc elements into a tile */
          if (sweep_case(ctx, streams, filter_formats[fi], tiles * tw / nc + 1, 5 + n % 7, n & 1,
                         ks[ki], borders[b], n))
            return 1;
  }
  return close_ctx(ctx, streams);
}

/* Tiles whose halo ends exactly at a row's last pixel or at the image's last
 * row, and one pixel or row past it: the last tiles to take the border-free
 * load (filter.cu: jf_load_tile) and the first to be denied it, so a check
 * one pixel or row too generous reads the next row or past the image. A
 * tile's halo ends at element (bx + 1) * tw + hp; the image is 2 tiles plus
 * r rows high (or one row less), for each height the launch gives these
 * small images: the unrolled 8-bit kernels 12 rows under one wave
 * (test_resize_rows.c works the rule), 20 where residency is unknown, float
 * 24. Every format, k 3, 5, 7, both filters, every border. */
TEST(gpu_filter_tiles_fit_exactly) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream streams[3];
  if (open_ctx(&ctx, streams)) return 1;
  static const int ths[] = {JET_FILTER_FAST_TILE_MIN, JET_FILTER_FAST_TILE_H, JET_FILTER_FAST_TILE_H_F32};
  int n = 0;
  for (size_t fi = 0; fi < N_FORMATS; fi++) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(filter_formats[fi], &d));
    const int es = d.elem == JET_ELEM_U8 ? 1 : 4, tw = JET_FILTER_TW(es), nc = d.channels;
    for (int k = 3; k <= JET_FILTER_FAST_KMAX; k += 2) {
      const int r = k / 2, hp = JET_FILTER_HP(r, nc, es);
      int bx = 1; /* the first tile past the left edge whose halo ends a row of whole pixels */
      while (((bx + 1) * tw + hp) % nc) bx++;
      const int w = ((bx + 1) * tw + hp) / nc;
      for (size_t t = 0; t < sizeof ths / sizeof ths[0]; t++)
        for (int past = 0; past < 4; past++, n++) /* past & 1: a pixel short, & 2: a row short */
          if (sweep_case(ctx, streams, filter_formats[fi], w - (past & 1), 2 * ths[t] + r - (past >> 1),
                         n & 1, k, borders[n % 3], n))
            return 1;
    }
  }
  return close_ctx(ctx, streams);
}

/* The runtime-k kernel at 1921x1081. */
TEST(gpu_filter_runtime_k_1921x1081) {
  REQUIRE_GPU();
  if (one(JET_FORMAT_GRAY8, 1921, 1081, 0, 9, 0, JET_BORDER_REFLECT_101, 0, 2)) return 1;
  if (one(JET_FORMAT_GRAY8, 1921, 1081, 1, 15, 0, JET_BORDER_CONSTANT, 1, 0)) return 1;
  if (one(JET_FORMAT_GRAYF32, 1921, 1081, 0, 11, 2.5, JET_BORDER_REPLICATE, 2, 1)) return 1;
  if (one(JET_FORMAT_RGBA8, 1921, 1081, 0, 9, 3.0, JET_BORDER_CONSTANT, 0, 0)) return 1;
  return 0;
}

TEST(gpu_filter_box_rgba8_3840x2160) {
  REQUIRE_GPU();
  return one(JET_FORMAT_RGBA8, 3840, 2160, 1, 5, 0, JET_BORDER_CONSTANT, 2, 0);
}

TEST(gpu_filter_gaussian_rgba8_3840x2160) {
  REQUIRE_GPU();
  return one(JET_FORMAT_RGBA8, 3840, 2160, 0, 5, 0, JET_BORDER_REFLECT_101, 0, 2);
}

/* ------------------------------------------------------------ bad input on a GPU */

TEST(gpu_badarg_filter) {
  REQUIRE_GPU();
  jet_context ctx, other;
  jet_stream streams[3], foreign;
  if (open_ctx(&ctx, streams)) return 1;
  CHECK_OK(jt_context(&other, 0));
  jet_stream_desc sd;
  memset(&sd, 0, sizeof sd);
  CHECK_OK(jet_stream_create(other, &sd, &foreign));
  jet_stream s = streams[0];

  jet_image a, b, c16, nv, bgra, small, far;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY16, 64, 32, &c16));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 64, 32, &nv));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_BGRA8, 64, 32, &bgra));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 31, &small));
  CHECK_OK(jet_image_create(other, JET_FORMAT_RGBA8, 64, 32, &far));

  CHECK_OK(jet_filter_box(s, a, b, 3, JET_BORDER_REPLICATE, NULL));
  CHECK_OK(jet_filter_gaussian(s, a, b, 31, 0, JET_BORDER_CONSTANT, NULL));
  CHECK_ST(jet_filter_box(s, NULL, b, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_filter_box(s, a, NULL, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_filter_gaussian(NULL, a, b, 3, 0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_HANDLE);
  /* format and size mismatches */
  CHECK_ST(jet_filter_box(s, a, bgra, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_filter_gaussian(s, c16, c16, 3, 0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_filter_box(s, nv, nv, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "format mismatch") != NULL);
  CHECK_ST(jet_filter_box(s, a, small, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  /* in place and overlapping wraps */
  CHECK_ST(jet_filter_box(s, a, a, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_ARGUMENT);
  void *mem = NULL;
  CHECK(cudaMalloc(&mem, 64 * 4 * 40) == cudaSuccess);
  jet_image w1, w2;
  jet_image_plane p1 = {mem, 256}, p2 = {(char *)mem + 256 * 8, 256};
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGBA8, 64, 32, &p1, 1, JET_IMAGE_MEMORY_DEVICE, &w1));
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_RGBA8, 64, 32, &p2, 1, JET_IMAGE_MEMORY_DEVICE, &w2));
  CHECK_ST(jet_filter_gaussian(s, w1, w2, 5, 1.0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  /* other contexts */
  CHECK_ST(jet_filter_box(foreign, a, b, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_filter_box(s, a, far, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_filter_gaussian(s, far, b, 3, 0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_WRONG_CONTEXT);
  /* border values: NaN cannot be an 8-bit sample; ignored unless CONSTANT;
   * a float image takes it as it is */
  float nanv[4] = {1, NAN, 3, 4};
  CHECK_ST(jet_filter_box(s, a, b, 3, JET_BORDER_CONSTANT, nanv), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_filter_box(s, a, b, 3, JET_BORDER_REFLECT_101, nanv));
  jet_image f1, f2;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAYF32, 16, 16, &f1));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAYF32, 16, 16, &f2));
  float nan1[4] = {NAN, 0, 0, 0};
  CHECK_OK(jet_filter_box(s, f1, f2, 3, JET_BORDER_CONSTANT, nan1));
  /* bad plain arguments with live images */
  CHECK_ST(jet_filter_box(s, a, b, 4, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(s, a, b, 33, 0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_gaussian(s, a, b, 5, NAN, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_filter_box(s, a, b, 5, (jet_border)3, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_synchronize(s));

  /* destroyed handles */
  CHECK_OK(jet_image_destroy(b));
  CHECK_ST(jet_filter_box(s, a, b, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_filter_gaussian(s, b, a, 3, 0, JET_BORDER_REPLICATE, NULL),
           JET_STATUS_INVALID_HANDLE);
  jet_stream gone;
  CHECK_OK(jet_stream_create(ctx, &sd, &gone));
  CHECK_OK(jet_stream_destroy(gone));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &b));
  CHECK_ST(jet_filter_box(gone, a, b, 3, JET_BORDER_REPLICATE, NULL), JET_STATUS_INVALID_HANDLE);

  jet_image all[] = {a, b, c16, nv, bgra, small, w1, w2, f1, f2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK_OK(jet_image_destroy(all[i]));
  CHECK(cudaFree(mem) == cudaSuccess);
  CHECK_OK(jet_image_destroy(far));
  CHECK_OK(jet_stream_destroy(foreign));
  CHECK_OK(jet_context_destroy(other));
  return close_ctx(ctx, streams);
}
