/* Reductions and the GRAY8 histogram (jetrt/reduce.h) against ref_reduce /
 * ref_histogram on fresh random images: every format, sizes 1x1 to 4K,
 * padded and unaligned pitches with hostile padding, planted extremes,
 * device and mapped-host outputs, a work buffer reused across calls, the
 * synchronous variants, and bad input. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "../ref/ref_image.h"
#include "../../kernels/image/reduce_params.h"

static const jet_format red_formats[] = {JET_FORMAT_GRAY8, JET_FORMAT_GRAY16, JET_FORMAT_GRAYF32,
                                         JET_FORMAT_RGB8,  JET_FORMAT_BGR8,   JET_FORMAT_RGBA8,
                                         JET_FORMAT_BGRA8, JET_FORMAT_RGBF32};
#define N_RED_FORMATS ((int)(sizeof red_formats / sizeof red_formats[0]))

/* The documented float tolerance: 1e-6 of the sum of magnitudes. */
#define F32_SUM_TOL 1e-6

typedef struct gpu {
  jet_context ctx;
  jet_stream s;
  void *work; /* zero-filled once, reused by every call */
  size_t work_bytes;
  jet_reduce_result *dres; /* device */
  jet_reduce_result *hres; /* mapped host */
  uint32_t *dhist, *hhist;
} gpu;

static int gpu_open(gpu *g) {
  memset(g, 0, sizeof *g);
  CHECK_OK(jt_context(&g->ctx, JET_CONTEXT_MAP_HOST));
  CHECK_OK(jet_stream_create(g->ctx, NULL, &g->s));
  CHECK_OK(jet_reduce_work_size(g->ctx, &g->work_bytes));
  CHECK(g->work_bytes >= JET_RED_WORK_PARTIALS && g->work_bytes < (1u << 24));
  CHECK(cudaMalloc(&g->work, g->work_bytes) == cudaSuccess);
  CHECK(cudaMemset(g->work, 0, g->work_bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&g->dres, sizeof *g->dres) == cudaSuccess);
  CHECK(cudaMalloc((void **)&g->dhist, 1024) == cudaSuccess);
  CHECK(cudaHostAlloc((void **)&g->hres, sizeof *g->hres, cudaHostAllocMapped) == cudaSuccess);
  CHECK(cudaHostAlloc((void **)&g->hhist, 1024, cudaHostAllocMapped) == cudaSuccess);
  return 0;
}

/* The work buffer's tickets, accumulators and histogram bins (its first
 * JET_RED_WORK_PARTIALS bytes, reduce_params.h) are zero again. */
static int work_clean(gpu *g) {
  static unsigned char head[JET_RED_WORK_PARTIALS];
  CHECK(cudaMemcpy(head, g->work, sizeof head, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (size_t i = 0; i < sizeof head; i++) CHECK_MSG(head[i] == 0, "work byte %zu is %u", i, head[i]);
  return 0;
}

static int gpu_close(gpu *g) {
  if (work_clean(g)) return 1;
  CHECK(cudaFree(g->work) == cudaSuccess);
  CHECK(cudaFree(g->dres) == cudaSuccess);
  CHECK(cudaFree(g->dhist) == cudaSuccess);
  CHECK(cudaFreeHost(g->hres) == cudaSuccess);
  CHECK(cudaFreeHost(g->hhist) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(g->s));
  CHECK_OK(jet_context_destroy(g->ctx));
  return 0;
}

static double sum_abs(const ref_image *im, int c) {
  double s = 0;
  int nc = im->channels;
  for (int y = 0; y < im->height; y++) {
    const float *row = (const float *)(im->data[0] + im->pitch[0] * (size_t)y);
    for (int x = 0; x < im->width; x++) s += fabs((double)row[(size_t)x * (size_t)nc + (size_t)c]);
  }
  return s;
}

/* Compare a GPU result with the reference. */
static int check_result(const jet_reduce_result *r, const ref_image *im, const char *what) {
  ref_stats want;
  CHECK(ref_reduce(im, &want) == 0);
  jet_format_desc d;
  CHECK_OK(jet_format_info(im->format, &d));
  unsigned long long n = (unsigned long long)im->width * (unsigned long long)im->height;
  CHECK_MSG(r->channels == want.channels && r->count == n && r->reserved == 0,
            "%s %s %dx%d: channels %d count %llu", what, d.name, im->width, im->height,
            r->channels, r->count);
  for (int c = 0; c < 4; c++) {
    if (c >= want.channels) {
      CHECK_MSG(r->sum[c] == 0 && r->mean[c] == 0 && r->min[c] == 0 && r->max[c] == 0,
                "%s %s: unused channel %d not zero", what, d.name, c);
      continue;
    }
    CHECK_MSG(r->min[c] == want.min[c] && r->max[c] == want.max[c],
              "%s %s %dx%d ch %d: min/max %.9g/%.9g, want %.9g/%.9g", what, d.name, im->width,
              im->height, c, r->min[c], r->max[c], want.min[c], want.max[c]);
    if (d.elem != JET_ELEM_F32) {
      CHECK_MSG(r->sum[c] == want.sum[c] && r->mean[c] == want.mean[c],
                "%s %s %dx%d ch %d: sum %.17g mean %.17g, want %.17g %.17g", what, d.name,
                im->width, im->height, c, r->sum[c], r->mean[c], want.sum[c], want.mean[c]);
    } else {
      double tol = F32_SUM_TOL * sum_abs(im, c) + DBL_MIN;
      CHECK_MSG(fabs(r->sum[c] - want.sum[c]) <= tol &&
                    fabs(r->mean[c] - want.mean[c]) <= tol / (double)n,
                "%s %s %dx%d ch %d: sum %.17g mean %.17g, want %.17g %.17g (tol %.3g)", what,
                d.name, im->width, im->height, c, r->sum[c], r->mean[c], want.sum[c],
                want.mean[c], tol);
    }
  }
  return 0;
}

/* Put the format's extreme sample values at a few random places. */
static void plant_extremes(ref_image *im) {
  jet_format_desc d;
  jet_format_info(im->format, &d);
  int nc = d.channels;
  for (int k = 0; k < 8; k++) {
    int x = (int)(jt_rand() % (uint32_t)im->width), y = (int)(jt_rand() % (uint32_t)im->height);
    int c = (int)(jt_rand() % (uint32_t)nc);
    unsigned char *p = im->data[0] + im->pitch[0] * (size_t)y + (size_t)(x * nc + c) * (size_t)d.elem_size;
    int hi = k & 1;
    if (d.elem == JET_ELEM_U8) *p = hi ? 255 : 0;
    else if (d.elem == JET_ELEM_U16) { uint16_t v = hi ? 65535 : 0; memcpy(p, &v, 2); }
    else { float v = hi ? 3.0e30f : -2.5e30f; memcpy(p, &v, 4); }
  }
}

/* Upload @im into an image: created, or wrapped in memory whose padding
 * (and a leading offset) hold 0xFF bytes, which a reduction must not see. */
typedef struct dimg {
  jet_image img;
  void *mem;
} dimg;

static int upload(gpu *g, const ref_image *im, int wrapped, size_t extra, size_t offset, dimg *out) {
  memset(out, 0, sizeof *out);
  if (!wrapped) {
    CHECK_OK(jet_image_create(g->ctx, im->format, im->width, im->height, &out->img));
  } else {
    size_t pitch = im->row_bytes[0] + extra;
    CHECK(cudaMalloc(&out->mem, offset + pitch * (size_t)im->height) == cudaSuccess);
    CHECK(cudaMemset(out->mem, 0xFF, offset + pitch * (size_t)im->height) == cudaSuccess);
    jet_image_plane p = {(char *)out->mem + offset, pitch};
    CHECK_OK(jet_image_wrap(g->ctx, im->format, im->width, im->height, &p, 1,
                            JET_IMAGE_MEMORY_DEVICE, &out->img));
  }
  jet_image_plane p;
  ref_image_planes(im, &p);
  CHECK_OK(jet_image_upload(out->img, &p, 1));
  return 0;
}

static int dimg_free(dimg *d) {
  CHECK_OK(jet_image_destroy(d->img));
  if (d->mem) CHECK(cudaFree(d->mem) == cudaSuccess);
  return 0;
}

/* jet_reduce into device and into mapped host memory, both poisoned first. */
static int reduce_case(gpu *g, jet_format f, int w, int h, int wrapped, size_t extra,
                       size_t offset) {
  ref_image im;
  CHECK(ref_image_alloc(&im, f, w, h, jt_rand() % 13) == 0);
  ref_image_randomize(&im, jt_rand);
  if (jt_rand() & 1) plant_extremes(&im);
  dimg d;
  if (upload(g, &im, wrapped, extra, offset, &d)) return 1;
  jet_reduce_result got;
  CHECK(cudaMemset(g->dres, 0xA5, sizeof *g->dres) == cudaSuccess);
  memset(g->hres, 0xA5, sizeof *g->hres);
  CHECK_OK(jet_reduce(g->s, d.img, g->work, g->work_bytes, g->dres));
  CHECK_OK(jet_reduce(g->s, d.img, g->work, g->work_bytes, g->hres));
  CHECK_OK(jet_stream_synchronize(g->s));
  CHECK(cudaMemcpy(&got, g->dres, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  char what[96];
  snprintf(what, sizeof what, "device out (wrapped %d, extra %zu, offset %zu)", wrapped, extra, offset);
  if (check_result(&got, &im, what)) return 1;
  /* The same image twice: bit for bit the same answer. */
  CHECK_MSG(memcmp(&got, g->hres, sizeof got) == 0, "mapped-host result differs from device result");
  if (dimg_free(&d)) return 1;
  ref_image_free(&im);
  return 0;
}

TEST(gpu_reduce_formats_sizes) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  static const int sizes[][2] = {{1, 1}, {2, 3}, {17, 9}, {16, 4}, {5, 77}, {100, 3},
                                 {257, 129}, {1921, 1081}};
  for (int fi = 0; fi < N_RED_FORMATS; fi++)
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      if (reduce_case(&g, red_formats[fi], sizes[k][0], sizes[k][1], 0, 0, 0)) return 1;
  static const jet_format big[] = {JET_FORMAT_GRAYF32, JET_FORMAT_RGBA8, JET_FORMAT_RGB8,
                                   JET_FORMAT_GRAY16, JET_FORMAT_RGBF32};
  for (int fi = 0; fi < 5; fi++)
    if (reduce_case(&g, big[fi], 3840, 2160, 0, 0, 0)) return 1;
  return gpu_close(&g);
}

/* Padded pitches (aligned and not) and unaligned pointers: the scalar path
 * and the row tails; 0xFF padding must not reach min, max or sum. */
TEST(gpu_reduce_wrapped_pitches) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  static const int sizes[][2] = {{1, 1}, {17, 9}, {33, 40}, {1921, 1081}};
  for (int fi = 0; fi < N_RED_FORMATS; fi++) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(red_formats[fi], &d));
    size_t e = (size_t)d.elem_size;
    const size_t ex[][2] = {{64, 0}, {e, 0}, {12, e}, {64 + 4 * e, 16}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      for (size_t j = 0; j < 4; j++)
        if (reduce_case(&g, red_formats[fi], sizes[k][0], sizes[k][1], 1, ex[j][0], ex[j][1]))
          return 1;
  }
  if (reduce_case(&g, JET_FORMAT_GRAYF32, 3840, 2160, 1, 12, 4)) return 1;
  return gpu_close(&g);
}

/* Constant images: min == max, the sum is exact. */
TEST(gpu_reduce_constant_images) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  for (int fi = 0; fi < N_RED_FORMATS; fi++) {
    ref_image im;
    CHECK(ref_image_alloc(&im, red_formats[fi], 1000, 777, 0) == 0);
    if (im.elem_size == 4) {
      float v = (float)((int)(jt_rand() % 20001) - 10000) / 16.0f;
      for (int y = 0; y < im.height; y++)
        for (size_t i = 0; i < im.row_bytes[0] / 4; i++)
          memcpy(im.data[0] + im.pitch[0] * (size_t)y + 4 * i, &v, 4);
    } else {
      ref_image_poison(&im, (unsigned char)(1 + jt_rand() % 254)); /* every byte alike */
    }
    dimg d;
    if (upload(&g, &im, 0, 0, 0, &d)) return 1;
    memset(g.hres, 0x5A, sizeof *g.hres);
    CHECK_OK(jet_reduce(g.s, d.img, g.work, g.work_bytes, g.hres));
    CHECK_OK(jet_stream_synchronize(g.s));
    jet_reduce_result r = *g.hres;
    if (check_result(&r, &im, "constant")) return 1;
    for (int c = 0; c < r.channels; c++) CHECK(r.min[c] == r.max[c]);
    if (dimg_free(&d)) return 1;
    ref_image_free(&im);
  }
  return gpu_close(&g);
}

/* 8-bit images of all 255 but one 254 per channel, at sizes where threads
 * take several steps: the packed 16-bit lane sums reach their largest values,
 * and min sits at one random place. */
TEST(gpu_reduce_saturated_u8) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  static const jet_format fmts[] = {JET_FORMAT_GRAY8, JET_FORMAT_RGB8, JET_FORMAT_RGBA8,
                                    JET_FORMAT_BGRA8};
  static const int sizes[][2] = {{3840, 2160}, {1280, 720}, {4099, 1031}};
  for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      ref_image im;
      CHECK(ref_image_alloc(&im, fmts[fi], sizes[k][0], sizes[k][1], 0) == 0);
      ref_image_poison(&im, 0xFF);
      for (int c = 0; c < im.channels; c++) {
        int x = (int)(jt_rand() % (uint32_t)im.width), y = (int)(jt_rand() % (uint32_t)im.height);
        im.data[0][im.pitch[0] * (size_t)y + (size_t)(x * im.channels + c)] = 254;
      }
      dimg d;
      if (upload(&g, &im, 0, 0, 0, &d)) return 1;
      memset(g.hres, 0x5A, sizeof *g.hres);
      CHECK_OK(jet_reduce(g.s, d.img, g.work, g.work_bytes, g.hres));
      CHECK_OK(jet_stream_synchronize(g.s));
      jet_reduce_result r = *g.hres;
      if (check_result(&r, &im, "saturated")) return 1;
      for (int c = 0; c < r.channels; c++) CHECK(r.min[c] == 254.0 && r.max[c] == 255.0);
      if (dimg_free(&d)) return 1;
      ref_image_free(&im);
    }
  return gpu_close(&g);
}

static int hist_case(gpu *g, int w, int h, int wrapped, size_t extra, size_t offset, int flat) {
  ref_image im;
  CHECK(ref_image_alloc(&im, JET_FORMAT_GRAY8, w, h, jt_rand() % 7) == 0);
  if (flat) ref_image_poison(&im, (unsigned char)jt_rand());
  else ref_image_randomize(&im, jt_rand);
  uint32_t want[256], got[256];
  CHECK(ref_histogram(&im, want) == 0);
  dimg d;
  if (upload(g, &im, wrapped, extra, offset, &d)) return 1;
  CHECK(cudaMemset(g->dhist, 0xA5, 1024) == cudaSuccess);
  memset(g->hhist, 0xA5, 1024);
  CHECK_OK(jet_histogram(g->s, d.img, g->work, g->work_bytes, g->dhist));
  CHECK_OK(jet_histogram(g->s, d.img, g->work, g->work_bytes, g->hhist));
  CHECK_OK(jet_stream_synchronize(g->s));
  CHECK(cudaMemcpy(got, g->dhist, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  unsigned long long total = 0;
  for (int i = 0; i < 256; i++) {
    CHECK_MSG(got[i] == want[i] && g->hhist[i] == want[i],
              "%dx%d (wrapped %d, extra %zu, offset %zu, flat %d) bin %d: %u / %u, want %u", w,
              h, wrapped, extra, offset, flat, i, got[i], g->hhist[i], want[i]);
    total += got[i];
  }
  CHECK(total == (unsigned long long)w * (unsigned long long)h);
  if (dimg_free(&d)) return 1;
  ref_image_free(&im);
  return 0;
}

TEST(gpu_histogram_sizes_pitches) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  /* 1024x4 and 4111x129: one and several histogram blocks with partly used
   * steps of four chunks per thread; 1280x720: blocks of between 256 and
   * 1024 threads. */
  static const int sizes[][2] = {{1, 1},    {2, 3},      {17, 9},     {16, 2},      {33, 65},
                                 {1024, 4}, {4111, 129}, {1280, 720}, {1921, 1081}, {3840, 2160}};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int w = sizes[k][0], h = sizes[k][1];
    if (hist_case(&g, w, h, 0, 0, 0, 0)) return 1;
    if (hist_case(&g, w, h, 0, 0, 0, 1)) return 1;
    if (w < 3000) {
      if (hist_case(&g, w, h, 1, 64, 0, 0)) return 1;
      if (hist_case(&g, w, h, 1, 3, 1, 0)) return 1;
      if (hist_case(&g, w, h, 1, 17, 5, 1)) return 1;
    }
  }
  return gpu_close(&g);
}

/* One work buffer, reductions and histograms interleaved on one stream
 * without a wait, of images of different sizes (so grids differ): every
 * result right, the work buffer clean afterwards (gpu_close checks). */
TEST(gpu_reduce_work_reuse_interleaved) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  enum { N = 6 };
  ref_image im[N], gray[N];
  dimg d[N], dg[N];
  jet_reduce_result *res = NULL;
  uint32_t *hist = NULL;
  CHECK(cudaHostAlloc((void **)&res, N * sizeof *res, cudaHostAllocMapped) == cudaSuccess);
  CHECK(cudaHostAlloc((void **)&hist, N * 1024, cudaHostAllocMapped) == cudaSuccess);
  memset(res, 0xA5, N * sizeof *res);
  memset(hist, 0xA5, N * 1024);
  for (int i = 0; i < N; i++) {
    int w = 1 + (int)(jt_rand() % 2000), h = 1 + (int)(jt_rand() % 700);
    jet_format f = red_formats[jt_rand() % N_RED_FORMATS];
    CHECK(ref_image_alloc(&im[i], f, w, h, 0) == 0);
    CHECK(ref_image_alloc(&gray[i], JET_FORMAT_GRAY8, h, w, 0) == 0);
    ref_image_randomize(&im[i], jt_rand);
    ref_image_randomize(&gray[i], jt_rand);
    if (upload(&g, &im[i], 0, 0, 0, &d[i]) || upload(&g, &gray[i], 0, 0, 0, &dg[i])) return 1;
  }
  for (int i = 0; i < N; i++) {
    CHECK_OK(jet_reduce(g.s, d[i].img, g.work, g.work_bytes, &res[i]));
    CHECK_OK(jet_histogram(g.s, dg[i].img, g.work, g.work_bytes, hist + 256 * i));
  }
  CHECK_OK(jet_stream_synchronize(g.s));
  for (int i = 0; i < N; i++) {
    if (check_result(&res[i], &im[i], "interleaved")) return 1;
    uint32_t want[256];
    CHECK(ref_histogram(&gray[i], want) == 0);
    CHECK(memcmp(want, hist + 256 * i, sizeof want) == 0);
    if (dimg_free(&d[i]) || dimg_free(&dg[i])) return 1;
    ref_image_free(&im[i]);
    ref_image_free(&gray[i]);
  }
  CHECK(cudaFreeHost(res) == cudaSuccess);
  CHECK(cudaFreeHost(hist) == cudaSuccess);
  return gpu_close(&g);
}

TEST(gpu_reduce_sync_variants) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  for (int fi = 0; fi < N_RED_FORMATS; fi++) {
    ref_image im;
    CHECK(ref_image_alloc(&im, red_formats[fi], 641, 479, 0) == 0);
    ref_image_randomize(&im, jt_rand);
    dimg d;
    if (upload(&g, &im, 0, 0, 0, &d)) return 1;
    jet_reduce_result r;
    memset(&r, 0xA5, sizeof r);
    CHECK_OK(jet_reduce_sync(g.s, d.img, &r));
    if (check_result(&r, &im, "sync")) return 1;
    if (red_formats[fi] == JET_FORMAT_GRAY8) {
      uint32_t want[256], got[256];
      memset(got, 0xA5, sizeof got);
      CHECK_OK(jet_histogram_sync(g.s, d.img, got));
      CHECK(ref_histogram(&im, want) == 0);
      CHECK(memcmp(want, got, sizeof want) == 0);
    } else {
      uint32_t got[256];
      CHECK_ST(jet_histogram_sync(g.s, d.img, got), JET_STATUS_INVALID_ARGUMENT);
      CHECK(strstr(jet_last_error_string(), "format mismatch"));
    }
    if (dimg_free(&d)) return 1;
    ref_image_free(&im);
  }
  return gpu_close(&g);
}

/* ------------------------------------------------------------ bad input */

TEST(badarg_reduce_null_handles) {
  size_t n = 0;
  jet_reduce_result r;
  uint32_t hist[256];
  CHECK_ST(jet_reduce_work_size(NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_reduce(NULL, NULL, NULL, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_reduce(NULL, NULL, hist, sizeof hist, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_histogram(NULL, NULL, hist, sizeof hist, hist), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_reduce_sync(NULL, NULL, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_histogram_sync(NULL, NULL, hist), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(gpu_badarg_reduce) {
  REQUIRE_GPU();
  gpu g;
  if (gpu_open(&g)) return 1;
  jet_context other;
  jet_stream s_other;
  CHECK_OK(jt_context(&other, JET_CONTEXT_MAP_HOST)); /* one device: the flags must agree */
  CHECK_OK(jet_stream_create(other, NULL, &s_other));
  jet_image rgba, gray, nv12, dead;
  CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_RGBA8, 64, 32, &rgba));
  CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_GRAY8, 64, 32, &gray));
  CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_NV12, 64, 32, &nv12));
  CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_GRAY8, 64, 32, &dead));
  CHECK_OK(jet_image_destroy(dead));
  void *work = g.work;
  size_t wb = g.work_bytes;
  uint32_t host_hist[256];
  jet_reduce_result host_res;

  CHECK_ST(jet_reduce_work_size(g.ctx, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* good calls */
  CHECK_OK(jet_reduce(g.s, rgba, work, wb, g.dres));
  CHECK_OK(jet_histogram(g.s, gray, work, wb, g.dhist));
  CHECK_OK(jet_stream_synchronize(g.s));
  /* images and streams */
  CHECK_ST(jet_reduce(g.s, NULL, work, wb, g.dres), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_reduce(g.s, dead, work, wb, g.dres), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_histogram(g.s, dead, work, wb, g.dhist), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_reduce(NULL, rgba, work, wb, g.dres), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_reduce(s_other, rgba, work, wb, g.dres), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_histogram(s_other, gray, work, wb, g.dhist), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_reduce_sync(s_other, rgba, &host_res), JET_STATUS_WRONG_CONTEXT);
  /* formats */
  CHECK_ST(jet_reduce(g.s, nv12, work, wb, g.dres), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "format mismatch"));
  CHECK_ST(jet_histogram(g.s, rgba, work, wb, g.dhist), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "format mismatch"));
  CHECK_ST(jet_reduce_sync(g.s, nv12, &host_res), JET_STATUS_INVALID_ARGUMENT);
  /* work and output pointers */
  CHECK_ST(jet_reduce(g.s, rgba, NULL, wb, g.dres), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_reduce(g.s, rgba, work, wb, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_reduce(g.s, rgba, work, 0, g.dres), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_reduce(g.s, rgba, work, wb - 1, g.dres), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_reduce(g.s, rgba, (char *)work + 4, wb, g.dres), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_reduce(g.s, rgba, work, wb, (jet_reduce_result *)((char *)g.dres + 4)),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_histogram(g.s, gray, work, wb, (uint32_t *)((char *)g.dhist + 2)),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_histogram(g.s, gray, work, wb, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_reduce_sync(g.s, rgba, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_histogram_sync(g.s, gray, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* pageable host output, host work memory, memory of another context's allocation kind */
  jet_reduce_result *pageable = malloc(sizeof *pageable);
  CHECK(pageable);
  CHECK_ST(jet_reduce(g.s, rgba, work, wb, pageable), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_histogram(g.s, gray, work, wb, host_hist), JET_STATUS_INVALID_ARGUMENT);
  void *pinned_work = NULL;
  CHECK(cudaHostAlloc(&pinned_work, wb, cudaHostAllocMapped) == cudaSuccess);
  CHECK_ST(jet_reduce(g.s, rgba, pinned_work, wb, g.dres), JET_STATUS_INVALID_ARGUMENT);
  void *heap_work = malloc(wb);
  CHECK(heap_work);
  CHECK_ST(jet_reduce(g.s, rgba, heap_work, wb, g.dres), JET_STATUS_INVALID_ARGUMENT);
  /* nothing above reached the device: results still right */
  CHECK_OK(jet_reduce(g.s, rgba, work, wb, g.hres));
  CHECK_OK(jet_stream_synchronize(g.s));
  CHECK(g.hres->channels == 4 && g.hres->count == 64u * 32u);

  free(heap_work);
  free(pageable);
  CHECK(cudaFreeHost(pinned_work) == cudaSuccess);
  CHECK_OK(jet_image_destroy(rgba));
  CHECK_OK(jet_image_destroy(gray));
  CHECK_OK(jet_image_destroy(nv12));
  CHECK_OK(jet_stream_destroy(s_other));
  CHECK_OK(jet_context_destroy(other));
  return gpu_close(&g);
}
