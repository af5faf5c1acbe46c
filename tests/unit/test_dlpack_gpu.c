/* DLPack on a GPU: export then import gives the same pointers and data, the
 * deleters run exactly once, exported memory outlives its jet_buffer (and
 * holds the context), and tensors made by "another framework" (raw CUDA
 * allocations with an owning deleter) import, work with jetrt operations and
 * are handed back at destroy. Data is fresh random (seed printed). */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"

#if JET_HAVE_DLPACK
#include "jetrt/dlpack.h"

#define CUDA_OK(call)                                                            \
  do {                                                                           \
    cudaError_t jt_e_ = (call);                                                  \
    CHECK_MSG(jt_e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(jt_e_)); \
  } while (0)

static long first_diff(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return (long)i;
  return -1;
}

#define CHECK_SAME(a, b, n, what)                                                                \
  do {                                                                                           \
    long jt_d_ = first_diff((a), (b), (n));                                                      \
    CHECK_MSG(jt_d_ < 0, "%s: first difference at byte %ld of %zu", (what), jt_d_, (size_t)(n)); \
  } while (0)

/* Counts the calls of jetrt's own deleter, which it then calls. */
static void (*jet_deleter)(DLManagedTensor *);
static int shim_calls;
static void shim_deleter(DLManagedTensor *t) {
  shim_calls++;
  jet_deleter(t);
}
static void shim(DLManagedTensor *t) {
  jet_deleter = t->deleter;
  t->deleter = shim_deleter;
}

static int check_tensor(const DLManagedTensor *m, int dev_type, int dev_id, int code, int bits,
                        int ndim, const int64_t *shape, const int64_t *strides) {
  const DLTensor *t = &m->dl_tensor;
  CHECK_MSG((int)t->device.device_type == dev_type && (int)t->device.device_id == dev_id,
            "device %d/%d, expected %d/%d", (int)t->device.device_type, (int)t->device.device_id,
            dev_type, dev_id);
  CHECK_MSG(t->dtype.code == code && t->dtype.bits == bits && t->dtype.lanes == 1, "dtype %u/%u/%u",
            (unsigned)t->dtype.code, (unsigned)t->dtype.bits, (unsigned)t->dtype.lanes);
  CHECK_MSG(t->ndim == ndim, "ndim %d, expected %d", (int)t->ndim, ndim);
  for (int i = 0; i < ndim; i++)
    CHECK_MSG(t->shape[i] == shape[i] && t->strides[i] == strides[i],
              "dim %d: shape %lld stride %lld, expected %lld %lld", i, (long long)t->shape[i],
              (long long)t->strides[i], (long long)shape[i], (long long)strides[i]);
  return 0;
}

static int round_trip_buffer(void) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  const size_t W = 129, H = 37;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, JET_MEM_PITCHED, W * 4, H, 0};
  jet_buffer b;
  CHECK_OK(jet_buffer_create(ctx, &d, &b));
  jet_buffer_info bi;
  CHECK_OK(jet_buffer_get_info(b, &bi));
  float *src = malloc(W * H * 4), *got = malloc(W * H * 4);
  CHECK(src && got);
  jt_fill_random(src, W * H * 4);
  CHECK_OK(jet_memcpy_2d(ctx, bi.device_ptr, bi.pitch, src, W * 4, W * 4, H));

  jet_dl_dtype f32 = {kDLFloat, 32, 1};
  DLManagedTensor *t1 = NULL, *t2 = NULL;
  CHECK_OK(jet_dlpack_export_buffer(b, &f32, &t1));
  CHECK_OK(jet_dlpack_export_buffer(b, &f32, &t2));
  int64_t shape[2] = {(int64_t)H, (int64_t)W}, strides[2] = {(int64_t)(bi.pitch / 4), 1};
  CHECK(check_tensor(t1, kDLCUDA, 0, kDLFloat, 32, 2, shape, strides) == 0);
  CHECK(t1->dl_tensor.data == bi.device_ptr && t1->dl_tensor.byte_offset == 0);
  shim_calls = 0;
  shim(t1);
  shim(t2);

  /* import one as a buffer, the other as a GRAYF32 image (format inferred) */
  jet_buffer ib;
  CHECK_OK(jet_dlpack_import_buffer(ctx, t1, &ib));
  jet_buffer_native_info ni;
  CHECK_OK(jet_buffer_native(ib, &ni));
  CHECK_MSG(ni.device_ptr == bi.device_ptr && ni.pitch == bi.pitch && ni.kind == JET_MEMORY_DEVICE,
            "imported %p pitch %zu, exported %p pitch %zu", ni.device_ptr, ni.pitch, bi.device_ptr,
            bi.pitch);
  jet_image im;
  CHECK_OK(jet_dlpack_import_image(ctx, t2, JET_FORMAT_NONE_, &im));
  jet_format fmt;
  jet_image_memory mem;
  int owned = 0;
  CHECK_OK(jet_image_get_format(im, &fmt));
  CHECK_OK(jet_image_get_memory(im, &mem, &owned));
  CHECK(fmt == JET_FORMAT_GRAYF32 && mem == JET_IMAGE_MEMORY_DEVICE && owned == 1);
  void *pp;
  size_t pitch;
  CHECK_OK(jet_image_plane_native(im, 0, &pp, &pitch));
  CHECK(pp == bi.device_ptr && pitch == bi.pitch);

  /* the original goes first: both imports still read the data */
  CHECK_OK(jet_buffer_destroy(b));
  memset(got, 0xCD, W * H * 4);
  CHECK_OK(jet_memcpy_2d(ctx, got, W * 4, ni.device_ptr, ni.pitch, W * 4, H));
  CHECK_SAME(got, src, W * H * 4, "buffer imported from an export, after the original's destroy");
  memset(got, 0xCD, W * H * 4);
  jet_image_plane hp = {got, W * 4};
  CHECK_OK(jet_image_download(im, &hp, 1));
  CHECK_SAME(got, src, W * H * 4, "image imported from an export");

  CHECK(shim_calls == 0);
  CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_buffer_destroy(ib));
  CHECK_MSG(shim_calls == 1, "deleter called %d times after the buffer's destroy", shim_calls);
  CHECK_OK(jet_image_destroy(im));
  CHECK_MSG(shim_calls == 2, "deleter called %d times after both destroys", shim_calls);
  free(src);
  free(got);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

static int round_trip_image(void) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  const int W = 37, H = 23;
  jet_image rgb, planar;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGB8, W, H, &rgb));
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_RGBF32P, W, H, &planar));
  size_t nb = (size_t)W * H * 3, nf = (size_t)W * H * 4;
  unsigned char *src = malloc(nb), *got = malloc(nb);
  float *pl[3], *gotf = malloc(nf);
  CHECK(src && got && gotf);
  jt_fill_random(src, nb);
  jet_image_plane hp = {src, (size_t)W * 3};
  CHECK_OK(jet_image_upload(rgb, &hp, 1));
  jet_image_plane hpp[3];
  for (int i = 0; i < 3; i++) {
    pl[i] = malloc(nf);
    CHECK(pl[i]);
    jt_fill_random(pl[i], nf);
    for (size_t k = 0; k < (size_t)W * H; k++) /* finite floats compare by bytes safely */
      pl[i][k] = (float)(jt_rand() % 100000) / 7.0f;
    hpp[i].ptr = pl[i];
    hpp[i].pitch = (size_t)W * 4;
  }
  CHECK_OK(jet_image_upload(planar, hpp, 3));

  /* RGB8 plane 0: [H, W, 3], strides [pitch, 3, 1], inferred back as RGB8 */
  void *p0;
  size_t s0;
  CHECK_OK(jet_image_plane_native(rgb, 0, &p0, &s0));
  DLManagedTensor *t = NULL;
  CHECK_OK(jet_dlpack_export_image(rgb, 0, &t));
  int64_t shape3[3] = {H, W, 3}, strides3[3] = {(int64_t)s0, 3, 1};
  CHECK(check_tensor(t, kDLCUDA, 0, kDLUInt, 8, 3, shape3, strides3) == 0);
  CHECK((char *)t->dl_tensor.data + t->dl_tensor.byte_offset == (char *)p0);
  shim_calls = 0;
  shim(t);
  jet_image back;
  CHECK_OK(jet_dlpack_import_image(ctx, t, JET_FORMAT_NONE_, &back));
  jet_format fmt;
  CHECK_OK(jet_image_get_format(back, &fmt));
  CHECK(fmt == JET_FORMAT_RGB8);
  void *bp;
  size_t bs;
  CHECK_OK(jet_image_plane_native(back, 0, &bp, &bs));
  CHECK(bp == p0 && bs == s0);
  memset(got, 0xCD, nb);
  jet_image_plane gp = {got, (size_t)W * 3};
  CHECK_OK(jet_image_download(back, &gp, 1));
  CHECK_SAME(got, src, nb, "RGB8 round trip");
  CHECK_OK(jet_image_destroy(back));
  CHECK(shim_calls == 1);

  /* RGBF32P plane 2: a byte offset into the allocation, imported as GRAYF32 */
  void *p2;
  size_t s2;
  CHECK_OK(jet_image_plane_native(planar, 2, &p2, &s2));
  CHECK_OK(jet_dlpack_export_image(planar, 2, &t));
  int64_t shape2[2] = {H, W}, strides2[2] = {(int64_t)(s2 / 4), 1};
  CHECK(check_tensor(t, kDLCUDA, 0, kDLFloat, 32, 2, shape2, strides2) == 0);
  CHECK_MSG(t->dl_tensor.byte_offset > 0 &&
                (char *)t->dl_tensor.data + t->dl_tensor.byte_offset == (char *)p2,
            "data %p + %llu, plane %p", t->dl_tensor.data,
            (unsigned long long)t->dl_tensor.byte_offset, p2);
  shim(t);
  CHECK_OK(jet_dlpack_import_image(ctx, t, JET_FORMAT_GRAYF32, &back));
  memset(gotf, 0xCD, nf);
  jet_image_plane gfp = {gotf, (size_t)W * 4};
  CHECK_OK(jet_image_download(back, &gfp, 1));
  CHECK_SAME(gotf, pl[2], nf, "RGBF32P plane 2 round trip");
  /* the image goes first this time */
  CHECK_OK(jet_image_destroy(planar));
  memset(gotf, 0xCD, nf);
  CHECK_OK(jet_image_download(back, &gfp, 1));
  CHECK_SAME(gotf, pl[2], nf, "plane 2 after its image's destroy");
  CHECK_OK(jet_image_destroy(back));
  CHECK(shim_calls == 2);

  /* NV12's UV plane: [H/2, W/2, 2] */
  jet_image nv;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_NV12, 64, 32, &nv));
  CHECK_OK(jet_dlpack_export_image(nv, 1, &t));
  size_t s1;
  void *p1;
  CHECK_OK(jet_image_plane_native(nv, 1, &p1, &s1));
  int64_t shuv[3] = {16, 32, 2}, stuv[3] = {(int64_t)s1, 2, 1};
  CHECK(check_tensor(t, kDLCUDA, 0, kDLUInt, 8, 3, shuv, stuv) == 0);
  t->deleter(t);
  CHECK_OK(jet_image_destroy(nv));
  CHECK_OK(jet_image_destroy(rgb));
  for (int i = 0; i < 3; i++) free(pl[i]);
  free(src);
  free(got);
  free(gotf);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ foreign tensors */

typedef struct foreign {
  DLManagedTensor m;
  int64_t shape[3], strides[3];
  int kind; /* 0 cudaMalloc, 1 cudaMallocManaged, 2 cudaHostAlloc */
  void *base;
} foreign;

static int foreign_deleted;
static cudaError_t foreign_free_status;

static void foreign_deleter(DLManagedTensor *self) {
  foreign *f = self->manager_ctx;
  foreign_free_status = f->kind == 2 ? cudaFreeHost(f->base) : cudaFree(f->base);
  foreign_deleted++;
  free(f);
}

static foreign *new_foreign(int kind, int dev_type, size_t bytes) {
  foreign *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  cudaError_t e = kind == 0   ? cudaMalloc(&f->base, bytes)
                  : kind == 1 ? cudaMallocManaged(&f->base, bytes, cudaMemAttachGlobal)
                              : cudaHostAlloc(&f->base, bytes, cudaHostAllocMapped);
  if (e != cudaSuccess) {
    fprintf(stderr, "allocation of kind %d: %s\n", kind, cudaGetErrorString(e));
    free(f);
    return NULL;
  }
  f->kind = kind;
  f->m.dl_tensor.data = f->base;
  f->m.dl_tensor.device.device_type = (DLDeviceType)dev_type;
  f->m.dl_tensor.device.device_id = 0;
  f->m.dl_tensor.shape = f->shape;
  f->m.dl_tensor.strides = f->strides;
  f->m.manager_ctx = f;
  f->m.deleter = foreign_deleter;
  return f;
}

static int foreign_tensors(void) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  const int W = 101, H = 53;
  const size_t pitch_el = 128; /* a pitched float image, as a framework might slice one */
  size_t bytes = pitch_el * 4 * H + 64;
  foreign *f = new_foreign(0, kDLCUDA, bytes);
  CHECK(f);
  f->m.dl_tensor.ndim = 2;
  f->m.dl_tensor.dtype.code = kDLFloat;
  f->m.dl_tensor.dtype.bits = 32;
  f->m.dl_tensor.dtype.lanes = 1;
  f->m.dl_tensor.byte_offset = 64;
  f->shape[0] = H;
  f->shape[1] = W;
  f->strides[0] = (int64_t)pitch_el;
  f->strides[1] = 1;
  float *src = malloc((size_t)W * H * 4), *got = malloc((size_t)W * H * 4),
        *want = malloc((size_t)W * H * 4);
  CHECK(src && got && want);
  for (size_t k = 0; k < (size_t)W * H; k++) src[k] = (float)(jt_rand() % 1000003) * 0.25f;
  CUDA_OK(cudaMemcpy2D((char *)f->base + 64, pitch_el * 4, src, (size_t)W * 4, (size_t)W * 4,
                       (size_t)H, cudaMemcpyHostToDevice));

  /* refusals first: the tensor stays ours */
  foreign_deleted = 0;
  jet_image im = NULL;
  f->m.dl_tensor.device.device_id = 1;
  CHECK_ST(jet_dlpack_import_image(ctx, &f->m, JET_FORMAT_GRAYF32, &im),
           JET_STATUS_INVALID_ARGUMENT);
  f->m.dl_tensor.device.device_id = 0;
  f->m.dl_tensor.device.device_type = kDLCUDAManaged;
  CHECK_ST(jet_dlpack_import_image(ctx, &f->m, JET_FORMAT_GRAYF32, &im),
           JET_STATUS_INVALID_ARGUMENT);
  f->m.dl_tensor.device.device_type = kDLCUDAHost;
  CHECK_ST(jet_dlpack_import_image(ctx, &f->m, JET_FORMAT_GRAYF32, &im),
           JET_STATUS_INVALID_ARGUMENT);
  f->m.dl_tensor.device.device_type = kDLCUDA;
  CHECK(foreign_deleted == 0 && im == NULL);

  /* imported, transposed by jetrt, compared with the CPU */
  CHECK_OK(jet_dlpack_import_image(ctx, &f->m, JET_FORMAT_GRAYF32, &im));
  void *pp;
  size_t pitch;
  CHECK_OK(jet_image_plane_native(im, 0, &pp, &pitch));
  CHECK(pp == (char *)f->base + 64 && pitch == pitch_el * 4);
  jet_image tr;
  CHECK_OK(jet_image_create(ctx, JET_FORMAT_GRAYF32, H, W, &tr));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_transpose(s, im, tr));
  CHECK_OK(jet_stream_synchronize(s));
  memset(got, 0xCD, (size_t)W * H * 4);
  jet_image_plane gp = {got, (size_t)H * 4};
  CHECK_OK(jet_image_download(tr, &gp, 1));
  for (int y = 0; y < W; y++)
    for (int x = 0; x < H; x++) want[(size_t)y * H + x] = src[(size_t)x * W + y];
  CHECK_SAME(got, want, (size_t)W * H * 4, "transpose of an imported tensor");
  CHECK(foreign_deleted == 0);
  CHECK_OK(jet_image_destroy(im));
  CHECK_MSG(foreign_deleted == 1 && foreign_free_status == cudaSuccess,
            "deleter calls %d, its cudaFree: %s", foreign_deleted,
            cudaGetErrorString(foreign_free_status));
  CHECK_OK(jet_image_destroy(tr));

  /* managed and pinned host tensors as buffers */
  if (pi.managed_memory) {
    f = new_foreign(1, kDLCUDAManaged, 4096);
    CHECK(f);
    f->m.dl_tensor.ndim = 1;
    f->m.dl_tensor.dtype.code = kDLInt;
    f->m.dl_tensor.dtype.bits = 32;
    f->m.dl_tensor.dtype.lanes = 1;
    f->shape[0] = 1024;
    f->m.dl_tensor.strides = NULL;
    jet_buffer b;
    CHECK_OK(jet_dlpack_import_buffer(ctx, &f->m, &b));
    jet_buffer_native_info ni;
    CHECK_OK(jet_buffer_native(b, &ni));
    CHECK(ni.kind == JET_MEMORY_MANAGED && ni.host_ptr == f->base && ni.device_ptr == f->base &&
          ni.size == 4096);
    CHECK_OK(jet_buffer_destroy(b));
    CHECK(foreign_deleted == 2 && foreign_free_status == cudaSuccess);
  }
  if (pi.can_map_host_memory) {
    f = new_foreign(2, kDLCUDAHost, (size_t)W * H * 4);
    CHECK(f);
    f->m.dl_tensor.ndim = 2;
    f->m.dl_tensor.dtype.code = kDLFloat;
    f->m.dl_tensor.dtype.bits = 32;
    f->m.dl_tensor.dtype.lanes = 1;
    f->shape[0] = H;
    f->shape[1] = W;
    f->strides[0] = W;
    f->strides[1] = 1;
    memcpy(f->base, src, (size_t)W * H * 4);
    int before = foreign_deleted;
    CHECK_OK(jet_dlpack_import_image(ctx, &f->m, JET_FORMAT_NONE_, &im));
    jet_image_memory mem;
    CHECK_OK(jet_image_get_memory(im, &mem, NULL));
    CHECK(mem == JET_IMAGE_MEMORY_MAPPED_HOST);
    memset(got, 0xCD, (size_t)W * H * 4);
    jet_image_plane gp2 = {got, (size_t)W * 4};
    CHECK_OK(jet_image_download(im, &gp2, 1));
    CHECK_SAME(got, src, (size_t)W * H * 4, "pinned host tensor as an image");
    CHECK_OK(jet_image_destroy(im));
    CHECK(foreign_deleted == before + 1 && foreign_free_status == cudaSuccess);
  }
  free(src);
  free(got);
  free(want);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* An export keeps its memory after the buffer is gone, and the context alive
 * until its deleter runs. */
static int export_outlives_buffer(void) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  size_t bytes = (size_t)1 << 20;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, bytes, 0, 0};
  jet_buffer b;
  CHECK_OK(jet_buffer_create(ctx, &d, &b));
  unsigned char *src = malloc(bytes), *got = malloc(bytes);
  CHECK(src && got);
  jt_fill_random(src, bytes);
  void *dp;
  CHECK_OK(jet_buffer_device_ptr(b, &dp));
  CHECK_OK(jet_memcpy(ctx, dp, src, bytes));
  DLManagedTensor *t = NULL;
  CHECK_OK(jet_dlpack_export_buffer(b, NULL, &t));
  CHECK_OK(jet_buffer_destroy(b));
  /* a new allocation must not land on the held memory */
  jet_buffer other;
  CHECK_OK(jet_buffer_create(ctx, &d, &other));
  void *op;
  CHECK_OK(jet_buffer_device_ptr(other, &op));
  CHECK(op != t->dl_tensor.data);
  CHECK_OK(jet_memset(ctx, op, 0x77, bytes));
  memset(got, 0xCD, bytes);
  CUDA_OK(cudaMemcpy(got, t->dl_tensor.data, bytes, cudaMemcpyDeviceToHost));
  CHECK_SAME(got, src, bytes, "exported memory after jet_buffer_destroy");
  CHECK_OK(jet_buffer_destroy(other));
  CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
  t->deleter(t);
  free(src);
  free(got);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Export, destroy, re-import, destroy, many times: nothing stays allocated. */
static int cycles(void) {
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  size_t bytes = (size_t)4 << 20, free0 = 0, free1 = 0, total = 0;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, bytes, 0, 0};
  for (int warm = 0; warm < 2; warm++) { /* the first round settles the allocator */
    /* cudaMemGetInfo, not jet_context_mem_info: a forced Tegra policy estimates
     * from /proc/meminfo, which would not see device memory leak */
    if (warm) CUDA_OK(cudaMemGetInfo(&free0, &total));
    for (int i = 0; i < 1000; i++) {
      jet_buffer b, back;
      DLManagedTensor *t = NULL;
      CHECK_OK(jet_buffer_create(ctx, &d, &b));
      CHECK_OK(jet_dlpack_export_buffer(b, NULL, &t));
      CHECK_OK(jet_buffer_destroy(b));
      CHECK_OK(jet_dlpack_import_buffer(ctx, t, &back));
      CHECK_OK(jet_buffer_destroy(back));
    }
  }
  CUDA_OK(cudaMemGetInfo(&free1, &total));
  CHECK_MSG(free1 + ((size_t)64 << 20) >= free0,
            "free device memory fell from %zu to %zu bytes over 1000 cycles of %zu bytes", free0,
            free1, bytes);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

#define DL_GPU_TEST(fn) \
  do {                  \
    REQUIRE_GPU();      \
    return fn();        \
  } while (0)
#else
#define DL_GPU_TEST(fn) SKIP("jetrt was built without a DLPack header")
#endif /* JET_HAVE_DLPACK */

TEST(gpu_dlpack_round_trip_buffer) { DL_GPU_TEST(round_trip_buffer); }
TEST(gpu_dlpack_round_trip_image) { DL_GPU_TEST(round_trip_image); }
TEST(gpu_dlpack_import_foreign_tensors) { DL_GPU_TEST(foreign_tensors); }
TEST(gpu_dlpack_export_outlives_buffer) { DL_GPU_TEST(export_outlives_buffer); }
TEST(gpu_dlpack_export_import_cycles_alone) { DL_GPU_TEST(cycles); }
