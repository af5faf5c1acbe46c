/* Native interop on a GPU: jetrt work and raw CUDA calls interleaved on a
 * caller's wrapped stream and event (ordering checked against a CPU model),
 * native pointers used by raw cudaMemcpy, and DLPack round trips (same
 * pointers, same data, deleters run once, memory kept alive by exports). All
 * data is fresh random (seed printed); outputs are poisoned first. */
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "test.h"

#define CUDA_OK(call)                                                            \
  do {                                                                           \
    cudaError_t jt_e_ = (call);                                                  \
    CHECK_MSG(jt_e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(jt_e_)); \
  } while (0)

/* First differing byte of two arrays, or -1. */
static long first_diff(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return (long)i;
  return -1;
}

#define CHECK_SAME(a, b, n, what)                                                                \
  do {                                                                                           \
    long jt_d_ = first_diff((a), (b), (n));                                                      \
    CHECK_MSG(jt_d_ < 0, "%s: first difference at byte %ld of %zu: got 0x%02x, expected 0x%02x", \
              (what), jt_d_, (size_t)(n), jt_d_ < 0 ? 0 : ((const unsigned char *)(a))[jt_d_],   \
              jt_d_ < 0 ? 0 : ((const unsigned char *)(b))[jt_d_]);                              \
  } while (0)

/* ------------------------------------------------------------ wrapped stream */

/* Raw memset, jetrt transpose, raw memset, raw copy: all on the caller's
 * stream, each depending on the one before. A large memset first gives later
 * work time to overtake if the order were not kept. */
TEST(gpu_native_wrapped_stream_orders_with_raw_cuda) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  cudaStream_t us = NULL;
  CUDA_OK(cudaStreamCreateWithFlags(&us, cudaStreamNonBlocking));
  jet_stream ws;
  CHECK_OK(jet_stream_wrap(ctx, (void *)us, &ws));
  int wrapped = 0;
  void *n = NULL;
  CHECK_OK(jet_stream_is_wrapped(ws, &wrapped));
  CHECK_OK(jet_stream_native(ws, &n));
  CHECK(wrapped == 1 && n == (void *)us);

  const int W = 1237, H = 611;
  size_t bytes = (size_t)W * H;
  unsigned char *src = malloc(bytes), *expect = malloc(bytes), *got = NULL;
  CHECK(src && expect);
  CUDA_OK(cudaMallocHost((void **)&got, bytes));
  jt_fill_random(src, bytes);
  jet_image a, b;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, W, H, &a));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAY8, H, W, &b));
  jet_image_plane hp = {src, (size_t)W};
  CHECK_OK(jet_image_upload(a, &hp, 1));
  void *pa, *pb;
  size_t pitch_a, pitch_b;
  CHECK_OK(jet_image_plane_native(a, 0, &pa, &pitch_a));
  CHECK_OK(jet_image_plane_native(b, 0, &pb, &pitch_b));
  CUDA_OK(cudaMemset2D(pb, pitch_b, 0xCD, (size_t)H, (size_t)W)); /* poison */
  void *scratch = NULL;
  size_t scratch_bytes = (size_t)256 << 20;
  CUDA_OK(cudaMalloc(&scratch, scratch_bytes));

  int r0 = (int)(jt_rand() % (unsigned)H), r1 = r0 + 1 + (int)(jt_rand() % (unsigned)(H - r0));
  int c0 = (int)(jt_rand() % (unsigned)H), c1 = c0 + 1 + (int)(jt_rand() % (unsigned)(H - c0));
  unsigned char va = (unsigned char)(jt_rand() | 1), vb = (unsigned char)(va + 77);
  CUDA_OK(cudaMemsetAsync(scratch, 0x5A, scratch_bytes, us));
  CUDA_OK(cudaMemset2DAsync((char *)pa + (size_t)r0 * pitch_a, pitch_a, va, (size_t)W,
                            (size_t)(r1 - r0), us));
  CHECK_OK(jet_transpose(ws, a, b));
  /* columns c0..c1 of every row of b (b is H wide) */
  CUDA_OK(cudaMemset2DAsync((char *)pb + c0, pitch_b, vb, (size_t)(c1 - c0), (size_t)W, us));
  CUDA_OK(cudaMemcpy2DAsync(got, (size_t)H, pb, pitch_b, (size_t)H, (size_t)W,
                            cudaMemcpyDeviceToHost, us));
  CHECK_OK(jet_stream_synchronize(ws));

  for (int y = 0; y < W; y++)     /* rows of b */
    for (int x = 0; x < H; x++) { /* columns of b = rows of a */
      unsigned char v = (x >= r0 && x < r1) ? va : src[(size_t)x * W + y];
      if (x >= c0 && x < c1) v = vb;
      expect[(size_t)y * H + x] = v;
    }
  long d = first_diff(got, expect, bytes);
  CHECK_MSG(d < 0,
            "b(%ld, %ld) = 0x%02x, expected 0x%02x (rows %d..%d of a set to 0x%02x, columns "
            "%d..%d of b to 0x%02x): the stream's order was not kept",
            d < 0 ? 0 : d % H, d < 0 ? 0 : d / H, d < 0 ? 0 : got[d], d < 0 ? 0 : expect[d], r0, r1,
            va, c0, c1, vb);

  /* destroying the handle leaves the caller's stream alive */
  CHECK_OK(jet_stream_destroy(ws));
  CUDA_OK(cudaStreamQuery(us));
  CUDA_OK(cudaMemsetAsync(scratch, 0, 16, us));
  CUDA_OK(cudaStreamSynchronize(us));
  CUDA_OK(cudaStreamDestroy(us));
  CUDA_OK(cudaFree(scratch));
  CUDA_OK(cudaFreeHost(got));
  free(src);
  free(expect);
  CHECK_OK(jet_image_destroy(a));
  CHECK_OK(jet_image_destroy(b));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* A stream of another driver context is refused; the default streams too. */
TEST(gpu_native_wrap_refuses_foreign_streams) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream s = NULL;
  CHECK_ST(jet_stream_wrap(ctx, (void *)cudaStreamPerThread, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_wrap(ctx, NULL, &s), JET_STATUS_INVALID_ARGUMENT);
  /* a driver context of our own, current while we create a stream in it */
  void *fp = NULL;
  enum cudaDriverEntryPointQueryResult q;
#if CUDA_VERSION >= 13000 /* cuda.h's cuCtxCreate is cuCtxCreate_v4 */
  CUresult(CUDAAPI * ctx_create)(CUcontext *, CUctxCreateParams *, unsigned int, CUdevice) = NULL;
#define CTX_CREATE(pctx) ctx_create((pctx), NULL, 0, 0)
#define CTX_CREATE_ABI CUDA_VERSION
#else
  CUresult(CUDAAPI * ctx_create)(CUcontext *, unsigned int, CUdevice) = NULL;
#define CTX_CREATE(pctx) ctx_create((pctx), 0, 0)
#define CTX_CREATE_ABI 3020
#endif
  CUresult(CUDAAPI * ctx_destroy)(CUcontext) = NULL;
  CUresult(CUDAAPI * ctx_pop)(CUcontext *) = NULL;
  if (cudaGetDriverEntryPointByVersion("cuCtxCreate", &fp, CTX_CREATE_ABI, cudaEnableDefault, &q) ==
          cudaSuccess &&
      q == cudaDriverEntryPointSuccess)
    memcpy(&ctx_create, &fp, sizeof fp);
  if (cudaGetDriverEntryPointByVersion("cuCtxDestroy", &fp, 4000, cudaEnableDefault, &q) ==
          cudaSuccess &&
      q == cudaDriverEntryPointSuccess)
    memcpy(&ctx_destroy, &fp, sizeof fp);
  if (cudaGetDriverEntryPointByVersion("cuCtxPopCurrent", &fp, 4000, cudaEnableDefault, &q) ==
          cudaSuccess &&
      q == cudaDriverEntryPointSuccess)
    memcpy(&ctx_pop, &fp, sizeof fp);
  if (!ctx_create || !ctx_destroy || !ctx_pop) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the driver lacks cuCtxCreate, cuCtxDestroy or cuCtxPopCurrent");
  }
  CUcontext mine = NULL, popped = NULL;
  CHECK_MSG(CTX_CREATE(&mine) == CUDA_SUCCESS, "cuCtxCreate failed");
  cudaStream_t foreign = NULL;
  CUDA_OK(cudaStreamCreateWithFlags(&foreign, cudaStreamNonBlocking));
  CHECK(ctx_pop(&popped) == CUDA_SUCCESS && popped == mine);
  jet_status st = jet_stream_wrap(ctx, (void *)foreign, &s);
  const char *msg = jet_last_error()->message;
  int named = msg && strstr(msg, "primary") != NULL;
  (void)cudaStreamDestroy(foreign);
  (void)ctx_destroy(mine);
  CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT && named && s == NULL, "got %s: %s",
            jet_status_name(st), jet_last_error_string());
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ events */

TEST(gpu_native_events_cross_raw_and_jetrt) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  size_t bytes = (size_t)8 << 20, big = (size_t)256 << 20;
  jet_buffer buf, scratch_buf;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, bytes, 0, 0}, ds = {JET_MEMORY_DEVICE, 0, big, 0, 0};
  CHECK_OK(jet_buffer_create(ctx, &d, &buf));
  CHECK_OK(jet_buffer_create(ctx, &ds, &scratch_buf));
  jet_buffer_native_info bi, si;
  CHECK_OK(jet_buffer_native(buf, &bi));
  CHECK_OK(jet_buffer_native(scratch_buf, &si));
  CHECK(bi.device_ptr && !bi.host_ptr && bi.size == bytes && bi.kind == JET_MEMORY_DEVICE);
  unsigned char *host = NULL, *want = malloc(bytes);
  CHECK(want);
  CUDA_OK(cudaMallocHost((void **)&host, bytes));

  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream js;
  CHECK_OK(jet_stream_create(ctx, &sd, &js));
  cudaStream_t us;
  CUDA_OK(cudaStreamCreateWithFlags(&us, cudaStreamNonBlocking));
  cudaEvent_t ue;
  CUDA_OK(cudaEventCreate(&ue));
  jet_event we;
  CHECK_OK(jet_event_wrap(ctx, (void *)ue, JET_EVENT_TIMING, &we));
  void *p = NULL;
  int wrapped = 0;
  CHECK_OK(jet_event_native(we, &p));
  CHECK_OK(jet_event_is_wrapped(we, &wrapped));
  CHECK(p == (void *)ue && wrapped == 1);

  /* jetrt writes on its stream and records the caller's event; raw CUDA waits */
  unsigned char v1 = (unsigned char)(jt_rand() | 1);
  memset(host, 0xEE, bytes);
  CHECK_OK(jet_event_record(we, js));
  CHECK_OK(jet_memset_async(js, si.device_ptr, 0x33, big));
  CHECK_OK(jet_memset_async(js, bi.device_ptr, v1, bytes));
  CHECK_OK(jet_event_record(we, js));
  CUDA_OK(cudaStreamWaitEvent(us, ue, 0));
  CUDA_OK(cudaMemcpyAsync(host, bi.device_ptr, bytes, cudaMemcpyDeviceToHost, us));
  CUDA_OK(cudaStreamSynchronize(us));
  memset(want, v1, bytes);
  CHECK_SAME(host, want, bytes, "raw copy after waiting on the wrapped event");

  /* raw CUDA writes and records jetrt's own event; jetrt waits */
  jet_event je;
  CHECK_OK(jet_event_create(ctx, JET_EVENT_TIMING, &je));
  cudaEvent_t ce;
  CHECK_OK(jet_event_native(je, &p));
  ce = (cudaEvent_t)p;
  CHECK_OK(jet_event_is_wrapped(je, &wrapped));
  CHECK(wrapped == 0);
  unsigned char v2 = (unsigned char)(v1 + 101);
  memset(host, 0xEE, bytes);
  CUDA_OK(cudaMemsetAsync(si.device_ptr, 0x44, big, us));
  CUDA_OK(cudaMemsetAsync(bi.device_ptr, v2, bytes, us));
  CUDA_OK(cudaEventRecord(ce, us));
  CHECK_OK(jet_stream_wait_event(js, je));
  CHECK_OK(jet_memcpy_async(js, host, bi.device_ptr, bytes));
  CHECK_OK(jet_event_record(we, js));
  CHECK_OK(jet_stream_synchronize(js));
  memset(want, v2, bytes);
  CHECK_SAME(host, want, bytes, "jetrt copy after waiting on its event recorded by raw CUDA");
  /* timing across the two: je completed before we's last record */
  float ms = -1.0f;
  CHECK_OK(jet_event_elapsed_ms(je, we, &ms));
  CHECK_MSG(ms >= 0.0f, "elapsed %f ms", (double)ms);

  /* the wrapped event survives its handle */
  CHECK_OK(jet_event_destroy(we));
  CUDA_OK(cudaEventRecord(ue, us));
  CUDA_OK(cudaEventSynchronize(ue));
  CUDA_OK(cudaEventDestroy(ue));
  CHECK_OK(jet_event_destroy(je));
  CHECK_OK(jet_stream_destroy(js));
  CUDA_OK(cudaStreamDestroy(us));
  CUDA_OK(cudaFreeHost(host));
  free(want);
  CHECK_OK(jet_buffer_destroy(buf));
  CHECK_OK(jet_buffer_destroy(scratch_buf));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ pointers */

TEST(gpu_native_pointers_work_with_raw_cuda) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));

  /* the CUcontext is the primary context the runtime made current */
  void *cu = NULL;
  int dev = -1;
  CHECK_OK(jet_context_native(ctx, &cu, &dev));
  void *fp = NULL;
  enum cudaDriverEntryPointQueryResult q;
  CUDA_OK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fp, 4000, cudaEnableDefault, &q));
  CHECK(q == cudaDriverEntryPointSuccess && fp);
  CUresult(CUDAAPI * get_current)(CUcontext *);
  memcpy(&get_current, &fp, sizeof fp);
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaFree(NULL));
  CUcontext cur = NULL;
  CHECK(get_current(&cur) == CUDA_SUCCESS);
  CHECK_MSG(cu && cu == (void *)cur && dev == 0, "jetrt %p, runtime's %p, device %d", cu,
            (void *)cur, dev);

  /* pitched device buffer: raw 2D upload, jetrt 2D download */
  size_t w = 333, h = 17;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, JET_MEM_PITCHED, w, h, 0};
  jet_buffer b;
  CHECK_OK(jet_buffer_create(ctx, &d, &b));
  jet_buffer_native_info bi;
  CHECK_OK(jet_buffer_native(b, &bi));
  CHECK(bi.pitch >= w && bi.device == 0 && bi.device_ptr);
  unsigned char *src = malloc(w * h), *dst = malloc(w * h);
  CHECK(src && dst);
  jt_fill_random(src, w * h);
  memset(dst, 0xCD, w * h);
  CUDA_OK(cudaMemcpy2D(bi.device_ptr, bi.pitch, src, w, w, h, cudaMemcpyHostToDevice));
  CHECK_OK(jet_memcpy_2d(ctx, dst, w, bi.device_ptr, bi.pitch, w, h));
  CHECK_SAME(dst, src, w * h, "pitched buffer");
  CHECK_OK(jet_buffer_destroy(b));

  /* mapped host buffer: CPU writes through host_ptr, raw copy reads device_ptr */
  if (pi.can_map_host_memory) {
    jet_buffer_desc m = {JET_MEMORY_HOST_MAPPED, 0, w * h, 0, 0};
    CHECK_OK(jet_buffer_create(ctx, &m, &b));
    CHECK_OK(jet_buffer_native(b, &bi));
    CHECK(bi.host_ptr && bi.device_ptr && bi.kind == JET_MEMORY_HOST_MAPPED);
    memcpy(bi.host_ptr, src, w * h);
    memset(dst, 0xCD, w * h);
    CUDA_OK(cudaMemcpy(dst, bi.device_ptr, w * h, cudaMemcpyDeviceToHost));
    CHECK_SAME(dst, src, w * h, "mapped host buffer through its device pointer");
    CHECK_OK(jet_buffer_destroy(b));
  }
  if (pi.managed_memory) {
    jet_buffer_desc m = {JET_MEMORY_MANAGED, 0, 4096, 0, 0};
    CHECK_OK(jet_buffer_create(ctx, &m, &b));
    CHECK_OK(jet_buffer_native(b, &bi));
    CHECK(bi.host_ptr && bi.host_ptr == bi.device_ptr && bi.kind == JET_MEMORY_MANAGED);
    CHECK_OK(jet_buffer_destroy(b));
  }

  /* image planes: raw 2D upload of each NV12 plane, jetrt download */
  const int iw = 38, ih = 22;
  jet_image img;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, iw, ih, &img));
  unsigned char *y = malloc((size_t)iw * ih), *uv = malloc((size_t)iw * ih / 2);
  unsigned char *y2 = malloc((size_t)iw * ih), *uv2 = malloc((size_t)iw * ih / 2);
  CHECK(y && uv && y2 && uv2);
  jt_fill_random(y, (size_t)iw * ih);
  jt_fill_random(uv, (size_t)iw * ih / 2);
  memset(y2, 0xCD, (size_t)iw * ih);
  memset(uv2, 0xCD, (size_t)iw * ih / 2);
  void *p0, *p1;
  size_t s0, s1;
  CHECK_OK(jet_image_plane_native(img, 0, &p0, &s0));
  CHECK_OK(jet_image_plane_native(img, 1, &p1, &s1));
  CUDA_OK(cudaMemcpy2D(p0, s0, y, (size_t)iw, (size_t)iw, (size_t)ih, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy2D(p1, s1, uv, (size_t)iw, (size_t)iw, (size_t)ih / 2, cudaMemcpyHostToDevice));
  jet_image_plane hp[2] = {{y2, (size_t)iw}, {uv2, (size_t)iw}};
  CHECK_OK(jet_image_download(img, hp, 2));
  CHECK_SAME(y2, y, (size_t)iw * ih, "NV12 Y plane");
  CHECK_SAME(uv2, uv, (size_t)iw * ih / 2, "NV12 UV plane");
  CHECK_OK(jet_image_destroy(img));
  free(y);
  free(uv);
  free(y2);
  free(uv2);
  free(src);
  free(dst);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}
