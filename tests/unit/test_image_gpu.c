/* jet_image on a GPU: create, wrap, queries, upload/download round trips and
 * the bad-input statuses that need a live context. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "../../lib/image/image_internal.h"
#include "../ref/ref_image.h"

#define FOR_EACH_FORMAT(f) for (jet_format f = JET_FORMAT_GRAY8; f < JET_FORMAT_COUNT_; f++)

static const int sizes[][2] = {{1, 1}, {2, 3}, {17, 9}, {1921, 1081}, {3840, 2160},
                               /* even sizes so every subsampled format runs small too */
                               {2, 2}, {18, 10}};

static int legal(jet_format f, int w, int h) {
  jet_format_desc d;
  if (jet_format_info(f, &d) != JET_STATUS_OK) return 0;
  return !((d.sub_x && (w & 1)) || (d.sub_y && (h & 1)));
}

/* Upload fresh random data through padded host pitches, download into a
 * poisoned image with other padding, and compare the pixel bytes. */
static int round_trip(jet_image img, jet_format f, int w, int h, jet_stream stream, jet_context ctx) {
  ref_image src, dst;
  size_t pad_in = 1 + jt_rand() % 61, pad_out = jt_rand() % 17;
  CHECK(ref_image_alloc(&src, f, w, h, pad_in) == 0);
  CHECK(ref_image_alloc(&dst, f, w, h, pad_out) == 0);
  ref_image_randomize(&src, jt_rand);
  ref_image_poison(&dst, 0xA7);
  jet_image_plane in[3], out[3];
  ref_image_planes(&src, in);
  ref_image_planes(&dst, out);
  if (stream) {
    CHECK_OK(jet_image_upload_async(img, in, src.planes, stream));
    CHECK_OK(jet_image_download_async(img, out, dst.planes, stream));
    CHECK_OK(jet_context_synchronize(ctx));
  } else {
    CHECK_OK(jet_image_upload(img, in, src.planes));
    CHECK_OK(jet_image_download(img, out, dst.planes));
  }
  char why[256];
  int bad = ref_image_compare(&dst, &src, 0, why, sizeof why);
  ref_image_free(&src);
  ref_image_free(&dst);
  CHECK_MSG(!bad, "%s", why);
  return 0;
}

TEST(gpu_image_create_query_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  FOR_EACH_FORMAT(f) {
    jet_format_desc d;
    CHECK_OK(jet_format_info(f, &d));
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      int w = sizes[s][0], h = sizes[s][1];
      jet_image img = (jet_image)(uintptr_t)1;
      if (!legal(f, w, h)) {
        CHECK_ST(jet_image_create(ctx, f, w, h, &img), JET_STATUS_INVALID_ARGUMENT);
        CHECK(img == NULL);
        continue;
      }
      CHECK_OK(jet_image_create(ctx, f, w, h, &img));
      int qw = 0, qh = 0, n = 0, owned = 0;
      jet_format qf;
      jet_image_memory m;
      CHECK_OK(jet_image_get_size(img, &qw, &qh));
      CHECK_OK(jet_image_get_format(img, &qf));
      CHECK_OK(jet_image_get_plane_count(img, &n));
      CHECK_OK(jet_image_get_memory(img, &m, &owned));
      CHECK(qw == w && qh == h && qf == f && n == d.planes && m == JET_IMAGE_MEMORY_DEVICE && owned);
      for (int i = 0; i < n; i++) {
        jet_image_plane_info pi;
        CHECK_OK(jet_image_get_plane(img, i, &pi));
        CHECK(pi.ptr && (uintptr_t)pi.ptr % JET_IMAGE_PITCH_ALIGN == 0);
        CHECK(pi.pitch % JET_IMAGE_PITCH_ALIGN == 0 && pi.pitch >= pi.row_bytes);
        CHECK(pi.width == (i ? w >> d.sub_x : w) && pi.height == (i ? h >> d.sub_y : h));
        CHECK(pi.row_bytes == (size_t)pi.width * (size_t)d.bytes_per_pixel[i]);
        struct cudaPointerAttributes a;
        CHECK(cudaPointerGetAttributes(&a, pi.ptr) == cudaSuccess && a.type == cudaMemoryTypeDevice);
      }
      jet_image_plane_info pi;
      CHECK_ST(jet_image_get_plane(img, n, &pi), JET_STATUS_INVALID_ARGUMENT);
      CHECK_ST(jet_image_get_plane(img, -1, &pi), JET_STATUS_INVALID_ARGUMENT);
      if (round_trip(img, f, w, h, NULL, ctx)) {
        fprintf(stderr, "  %s %dx%d\n", d.name, w, h);
        return 1;
      }
      CHECK_OK(jet_image_destroy(img));
    }
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_image_async_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream streams[2];
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &streams[0]));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &streams[1]));
  static const jet_format fmts[] = {JET_FORMAT_NV12, JET_FORMAT_RGBA8, JET_FORMAT_RGBF32P,
                                    JET_FORMAT_YUYV, JET_FORMAT_GRAY16};
  for (int k = 0; k < 2; k++)
    for (int fi = 0; fi < 5; fi++) {
      int w = 1922, h = 1082;
      jet_image img;
      CHECK_OK(jet_image_create(ctx, fmts[fi], w, h, &img));
      if (round_trip(img, fmts[fi], w, h, streams[k], ctx)) return 1;
      CHECK_OK(jet_image_destroy(img));
    }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Wrapped device memory with padded pitches: the bytes land where the
 * pitches say (read back with plain cudaMemcpy2D, not through jetrt). */
TEST(gpu_image_wrap_device_memory) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  static const jet_format fmts[] = {JET_FORMAT_NV12, JET_FORMAT_I420, JET_FORMAT_GRAYF32,
                                    JET_FORMAT_RGB8, JET_FORMAT_UYVY};
  for (int fi = 0; fi < 5; fi++)
    for (int s = 0; s < 3; s++) {
      int w = s == 0 ? 18 : s == 1 ? 1920 : 3840, h = s == 0 ? 10 : s == 1 ? 1080 : 2160;
      jet_format_desc d;
      CHECK_OK(jet_format_info(fmts[fi], &d));
      size_t pitch[3], off[3], total = 0;
      for (int i = 0; i < d.planes; i++) {
        size_t row = (size_t)(i ? w >> d.sub_x : w) * (size_t)d.bytes_per_pixel[i];
        pitch[i] = row + (size_t)d.elem_size * (1 + jt_rand() % 40);
        off[i] = total;
        total += pitch[i] * (size_t)(i ? h >> d.sub_y : h) + (size_t)d.elem_size * (jt_rand() % 8);
      }
      void *mem = NULL;
      CHECK(cudaMalloc(&mem, total) == cudaSuccess);
      jet_image_plane planes[3];
      for (int i = 0; i < d.planes; i++) {
        planes[i].ptr = (char *)mem + off[i];
        planes[i].pitch = pitch[i];
      }
      jet_image img;
      CHECK_OK(jet_image_wrap(ctx, fmts[fi], w, h, planes, d.planes, JET_IMAGE_MEMORY_DEVICE, &img));
      jet_image_memory m;
      int owned = 1;
      CHECK_OK(jet_image_get_memory(img, &m, &owned));
      CHECK(m == JET_IMAGE_MEMORY_DEVICE && owned == 0);
      ref_image src, back;
      CHECK(ref_image_alloc(&src, fmts[fi], w, h, 3) == 0);
      CHECK(ref_image_alloc(&back, fmts[fi], w, h, 0) == 0);
      ref_image_randomize(&src, jt_rand);
      ref_image_poison(&back, 0x3C);
      jet_image_plane in[3];
      ref_image_planes(&src, in);
      CHECK_OK(jet_image_upload(img, in, d.planes));
      for (int i = 0; i < d.planes; i++) {
        jet_image_plane_info pi;
        CHECK_OK(jet_image_get_plane(img, i, &pi));
        CHECK(pi.ptr == planes[i].ptr && pi.pitch == pitch[i]);
        CHECK(cudaMemcpy2D(back.data[i], back.pitch[i], planes[i].ptr, pitch[i], back.row_bytes[i],
                           (size_t)back.plane_h[i], cudaMemcpyDeviceToHost) == cudaSuccess);
      }
      char why[256];
      CHECK_MSG(ref_image_compare(&back, &src, 0, why, sizeof why) == 0, "%s", why);
      ref_image_free(&src);
      ref_image_free(&back);
      CHECK_OK(jet_image_destroy(img));
      CHECK(cudaFree(mem) == cudaSuccess); /* the caller still owns it */
    }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Wrapped mapped host memory: an upload is visible to the CPU directly. */
TEST(gpu_image_wrap_mapped_host) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, JET_CONTEXT_MAP_HOST));
  int w = 1921, h = 1081;
  size_t pitch = (size_t)w * 4 + 64;
  void *host = NULL;
  CHECK(cudaHostAlloc(&host, pitch * (size_t)h, cudaHostAllocMapped) == cudaSuccess);
  jet_image_plane pl = {host, pitch};
  jet_image img;
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_BGRA8, w, h, &pl, 1, JET_IMAGE_MEMORY_MAPPED_HOST, &img));
  jet_image_memory m;
  CHECK_OK(jet_image_get_memory(img, &m, NULL));
  CHECK(m == JET_IMAGE_MEMORY_MAPPED_HOST);
  memset(host, 0xEE, pitch * (size_t)h);
  ref_image src;
  CHECK(ref_image_alloc(&src, JET_FORMAT_BGRA8, w, h, 20) == 0);
  ref_image_randomize(&src, jt_rand);
  jet_image_plane in[1];
  ref_image_planes(&src, in);
  CHECK_OK(jet_image_upload(img, in, 1));
  for (int y = 0; y < h; y++) {
    CHECK(memcmp((char *)host + pitch * (size_t)y, src.data[0] + src.pitch[0] * (size_t)y,
                 (size_t)w * 4) == 0);
    CHECK(((unsigned char *)host)[pitch * (size_t)y + (size_t)w * 4] == 0xEE); /* padding untouched */
  }
  ref_image_free(&src);
  CHECK_OK(jet_image_destroy(img));
  /* the same memory is host memory, not device memory */
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_BGRA8, w, h, &pl, 1, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(img == NULL);
  CHECK(cudaFreeHost(host) == cudaSuccess);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_image_create_and_wrap) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_image img;
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_RGBA8, 0, 4, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_RGBA8, 4, -1, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_NV12, 3, 4, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_I420, 4, 3, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_YUYV, 5, 4, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_NONE_, 4, 4, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, (jet_format)99, 4, 4, &img), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_RGBF32P, INT_MAX, INT_MAX, &img), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_RGBA8, 4, 4, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* far more than any GPU has */
  CHECK_ST(jet_image_create(ctx, JET_FORMAT_RGBF32, INT_MAX, 1 << 20, &img), JET_STATUS_OUT_OF_MEMORY);

  void *mem = NULL;
  CHECK(cudaMalloc(&mem, 1 << 20) == cudaSuccess);
  jet_image_plane nv[2] = {{mem, 256}, {(char *)mem + 256 * 64, 256}};
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, nv, 2, JET_IMAGE_MEMORY_DEVICE, &img));
  CHECK_OK(jet_image_destroy(img));
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, nv, 1, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, NULL, 2, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, nv, 2, (jet_image_memory)7, &img),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 63, nv, 2, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  jet_image_plane bad[2] = {nv[0], nv[1]};
  bad[1].ptr = (char *)mem + 256 * 63; /* chroma starts inside the luma plane */
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, bad, 2, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  bad[1] = nv[1];
  bad[0].pitch = 63; /* below the row bytes */
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, bad, 2, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  bad[0].pitch = 0;
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, bad, 2, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  bad[0] = nv[0];
  bad[1].ptr = NULL;
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_NV12, 64, 64, bad, 2, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  jet_image_plane f32 = {(char *)mem + 2, 256};
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 16, 16, &f32, 1, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  f32.ptr = mem;
  f32.pitch = 66;
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 16, 16, &f32, 1, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  /* device memory is not mapped host memory */
  f32.pitch = 64;
  CHECK(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 16, 16, &f32, 1, JET_IMAGE_MEMORY_MAPPED_HOST,
                       &img) != JET_STATUS_OK);
  CHECK(img == NULL);
  /* pageable memory is neither device nor (without HMM) shared memory */
  void *pageable = malloc(64 * 16);
  CHECK(pageable);
  jet_image_plane pg = {pageable, 64};
  CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 16, 16, &pg, 1, JET_IMAGE_MEMORY_DEVICE, &img),
           JET_STATUS_INVALID_ARGUMENT);
  jet_platform_info info;
  CHECK_OK(jet_context_platform(ctx, &info));
  if (!info.pageable_memory_access)
    CHECK_ST(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 16, 16, &pg, 1, JET_IMAGE_MEMORY_SHARED, &img),
             JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_GRAYF32, 16, 16, &f32, 1, JET_IMAGE_MEMORY_SHARED, &img));
  CHECK_OK(jet_image_destroy(img));
  free(pageable);
  CHECK(cudaFree(mem) == cudaSuccess);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_image_copies) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_image img;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_I420, 32, 16, &img));
  unsigned char *buf = malloc(32 * 16 * 2);
  CHECK(buf);
  jt_fill_random(buf, 32 * 16 * 2);
  jet_image_plane p[3] = {{buf, 0}, {buf + 32 * 16, 0}, {buf + 32 * 16 + 16 * 8, 0}};
  CHECK_OK(jet_image_upload(img, p, 3));
  CHECK_ST(jet_image_upload(img, p, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_upload(img, NULL, 3), JET_STATUS_INVALID_ARGUMENT);
  jet_image_plane q[3] = {p[0], p[1], p[2]};
  q[1].ptr = NULL;
  CHECK_ST(jet_image_download(img, q, 3), JET_STATUS_INVALID_ARGUMENT);
  q[1] = p[1];
  q[2].pitch = 15; /* below the 16-byte chroma row */
  CHECK_ST(jet_image_download(img, q, 3), JET_STATUS_INVALID_ARGUMENT);
  q[2].pitch = SIZE_MAX / 4;
  CHECK_ST(jet_image_download(img, q, 3), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_image_upload_async(img, p, 3, NULL), JET_STATUS_INVALID_HANDLE);
  /* a stream of another context */
  jet_context other;
  CHECK_OK(jt_context(&other, 0));
  jet_stream os;
  CHECK_OK(jet_context_default_stream(other, JET_STREAM_PER_THREAD, &os));
  CHECK_ST(jet_image_upload_async(img, p, 3, os), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_image_download_async(img, p, 3, os), JET_STATUS_WRONG_CONTEXT);
  /* contexts refuse to go while an image lives */
  CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_image_destroy(img));
  /* a destroyed image is refused everywhere */
  int w;
  jet_format f;
  CHECK_ST(jet_image_get_size(img, &w, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_format(img, &f), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_upload(img, p, 3), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_download(img, p, 3), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_destroy(img), JET_STATUS_INVALID_HANDLE);
  free(buf);
  CHECK_OK(jet_context_destroy(other));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* The operations' common check: contexts, format pairs and overlap. */
TEST(gpu_image_check_pair) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_image a, b, g, x, alias;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBA8, 64, 32, &b));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, 64, 32, &g));
  CHECK_OK(jet_image_create(other, JET_FORMAT_RGBA8, 64, 32, &x));
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(a, 0, &pi));
  /* a GRAY8 view of a's second half: overlaps a */
  jet_image_plane view = {(char *)pi.ptr + pi.pitch * 16, pi.pitch};
  CHECK_OK(jet_image_wrap(ctx, JET_FORMAT_GRAY8, 64, 16, &view, 1, JET_IMAGE_MEMORY_DEVICE, &alias));
  CHECK_OK(jet__image_check_pair(a, b, JET__IMAGE_OP_FILTER, "test"));
  CHECK_OK(jet__image_check_pair(a, g, JET__IMAGE_OP_CONVERT, "test"));
  CHECK_ST(jet__image_check_pair(a, g, JET__IMAGE_OP_FILTER, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strncmp(jet_last_error()->message, "format mismatch", 15) == 0);
  CHECK_ST(jet__image_check_pair(a, a, JET__IMAGE_OP_FILTER, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "overlap") != NULL);
  CHECK_ST(jet__image_check_pair(alias, g, JET__IMAGE_OP_RESIZE, "test"), JET_STATUS_OK);
  CHECK_ST(jet__image_check_pair(a, alias, JET__IMAGE_OP_CONVERT, "test"),
           JET_STATUS_INVALID_ARGUMENT); /* overlap (sizes differ too, but size is checked first) */
  CHECK_ST(jet__image_check_pair(a, x, JET__IMAGE_OP_FILTER, "test"), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet__image_check_pair(a, NULL, JET__IMAGE_OP_FILTER, "test"), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet__image_check_pair(g, NULL, JET__IMAGE_OP_HISTOGRAM, "test"));
  CHECK_ST(jet__image_check_pair(a, NULL, JET__IMAGE_OP_HISTOGRAM, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_image_destroy(alias));
  CHECK_OK(jet_image_destroy(a));
  CHECK_OK(jet_image_destroy(b));
  CHECK_OK(jet_image_destroy(g));
  CHECK_OK(jet_image_destroy(x));
  CHECK_OK(jet_context_destroy(other));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}
