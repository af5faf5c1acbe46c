/* DLPack exchange, host side: export of fake buffers (shape, strides, dtype,
 * device per memory kind), the memory kept alive by exports past destroy and
 * released exactly once, and every import refusal on fake tensors (checked
 * before any CUDA call), with the tensor's deleter never called on failure. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"
#include "../../lib/memory/memory_internal.h"

#if JET_HAVE_DLPACK
#include "jetrt/dlpack.h"

#define BAD ((void *)(uintptr_t)0x100000) /* never dereferenced */

static int has(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

/* A registered buffer that never touches a GPU, allocated so that
 * jet_buffer_destroy can free it; its "memory" is released through @cb. */
static jet_buffer fake_buf(struct jet_context_s *c, jet_memory_kind kind, size_t w, size_t pitch,
                           size_t h, size_t d, void (*cb)(void *), void *arg) {
  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->kind = b->requested = kind;
  b->dev = kind == JET_MEMORY_HOST_PINNED ? NULL : BAD;
  b->host =
      kind == JET_MEMORY_DEVICE ? NULL : (kind == JET_MEMORY_MANAGED ? BAD : (void *)0x200000);
  b->width = w;
  b->pitch = pitch;
  b->height = h;
  b->depth = d;
  b->size = pitch * h * d;
  b->mem = cb ? jet__alloc_external(-1, BAD, b->size, cb, arg)
              : jet__alloc_of(JET__ALLOC_NONE, -1, NULL, 0);
  if (jet__handle_register(&b->h, JET__H_BUFFER, c, "test") != JET_STATUS_OK) {
    free(b);
    return NULL;
  }
  return b;
}

static void count_call(void *arg) { ++*(int *)arg; }

static int t_export_bad_arguments(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  DLManagedTensor *t = (DLManagedTensor *)BAD;
  jet_buffer b = fake_buf(&c, JET_MEMORY_DEVICE, 100, 128, 3, 1, NULL, NULL);
  CHECK(b);
  CHECK_ST(jet_dlpack_export_buffer(b, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_dlpack_export_buffer(NULL, NULL, &t), JET_STATUS_INVALID_HANDLE);
  CHECK(t == NULL);
  CHECK_ST(jet_dlpack_export_buffer((jet_buffer)(void *)&c, NULL, &t), JET_STATUS_INVALID_HANDLE);
  jet_dl_dtype odd = {kDLInt, 12, 1}, nolanes = {kDLFloat, 32, 0}, f32 = {kDLFloat, 32, 1};
  CHECK_ST(jet_dlpack_export_buffer(b, &odd, &t), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "whole bytes"));
  CHECK_ST(jet_dlpack_export_buffer(b, &nolanes, &t), JET_STATUS_INVALID_ARGUMENT);
  /* 100-byte rows hold 25 floats, but a 128-byte pitch with 3-lane floats does not divide */
  jet_dl_dtype f32x3 = {kDLFloat, 32, 3};
  CHECK_ST(jet_dlpack_export_buffer(b, &f32x3, &t), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "does not divide"));
  CHECK(t == NULL);
  CHECK_OK(jet_dlpack_export_buffer(b, &f32, &t));
  t->deleter(t);
  CHECK_ST(jet_dlpack_export_image(NULL, 0, &t), JET_STATUS_INVALID_HANDLE);

  /* objects lent by another jetrt object are refused */
  jet_buffer lent;
  CHECK_OK(jet__buffer_borrow(&c, BAD, 4096, "a test lender", &lent, "test"));
  CHECK_ST(jet_dlpack_export_buffer(lent, NULL, &t), JET_STATUS_INVALID_STATE);
  CHECK(has(jet_last_error()->message, "a test lender"));
  jet__buffer_release_borrowed(lent);
  void *ptrs[1] = {BAD};
  jet_image img;
  CHECK_OK(
      jet__image_borrow(&c, JET_FORMAT_RGBA8, 16, 8, NULL, ptrs, "a test lender", &img, "test"));
  CHECK_ST(jet_dlpack_export_image(img, 0, &t), JET_STATUS_INVALID_STATE);
  jet__image_release_borrowed(img);
  CHECK_OK(jet_buffer_destroy(b));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

static int t_export_buffer_describes_rows(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  c.device = 3;
  static const struct {
    jet_memory_kind kind;
    size_t w, pitch, h, d;
    jet_dl_dtype dt;
    int dev_type, dev_id, ndim;
    int64_t shape[3], strides[3];
  } rows[] = {
      {JET_MEMORY_DEVICE, 4096, 4096, 1, 1, {kDLUInt, 8, 1}, kDLCUDA, 3, 1, {4096}, {1}},
      {JET_MEMORY_DEVICE, 400, 512, 7, 1, {kDLFloat, 32, 1}, kDLCUDA, 3, 2, {7, 100}, {128, 1}},
      {JET_MEMORY_DEVICE, 24, 32, 5, 3, {kDLUInt, 16, 2}, kDLCUDA, 3, 3, {3, 5, 6}, {40, 8, 1}},
      {JET_MEMORY_MANAGED, 64, 64, 2, 1, {kDLInt, 32, 1}, kDLCUDAManaged, 0, 2, {2, 16}, {16, 1}},
      {JET_MEMORY_HOST_MAPPED, 8, 8, 1, 1, {kDLFloat, 64, 1}, kDLCUDAHost, 0, 1, {1}, {1}},
      {JET_MEMORY_HOST_PINNED, 6, 6, 1, 1, {kDLUInt, 8, 1}, kDLCUDAHost, 0, 1, {6}, {1}},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_buffer b =
        fake_buf(&c, rows[r].kind, rows[r].w, rows[r].pitch, rows[r].h, rows[r].d, NULL, NULL);
    CHECK(b);
    DLManagedTensor *t = NULL;
    CHECK_OK(jet_dlpack_export_buffer(b, &rows[r].dt, &t));
    const DLTensor *x = &t->dl_tensor;
    CHECK_MSG(
        (int)x->device.device_type == rows[r].dev_type && x->device.device_id == rows[r].dev_id,
        "row %zu: device %d/%d", r, (int)x->device.device_type, (int)x->device.device_id);
    CHECK_MSG(x->data == (rows[r].kind == JET_MEMORY_DEVICE || rows[r].kind == JET_MEMORY_MANAGED
                              ? b->dev
                              : b->host) &&
                  x->byte_offset == 0,
              "row %zu: data %p offset %llu", r, x->data, (unsigned long long)x->byte_offset);
    CHECK_MSG(x->dtype.code == rows[r].dt.code && x->dtype.bits == rows[r].dt.bits &&
                  x->dtype.lanes == rows[r].dt.lanes,
              "row %zu: dtype", r);
    CHECK_MSG(x->ndim == rows[r].ndim && x->shape && x->strides, "row %zu: ndim %d", r,
              (int)x->ndim);
    for (int i = 0; i < x->ndim; i++)
      CHECK_MSG(x->shape[i] == rows[r].shape[i] && x->strides[i] == rows[r].strides[i],
                "row %zu dim %d: shape %lld stride %lld, expected %lld %lld", r, i,
                (long long)x->shape[i], (long long)x->strides[i], (long long)rows[r].shape[i],
                (long long)rows[r].strides[i]);
    CHECK(t->manager_ctx && t->deleter);
    CHECK(atomic_load(&c.live_objects) == 2); /* the buffer and the tensor */
    t->deleter(t);
    CHECK(atomic_load(&c.live_objects) == 1);
    CHECK_OK(jet_buffer_destroy(b));
  }
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/* The memory goes back once, after the last of the buffer and its tensors. */
static int t_export_keeps_memory_until_last_deleter(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  for (int order = 0; order < 3; order++) {
    int released = 0;
    jet_buffer b = fake_buf(&c, JET_MEMORY_DEVICE, 256, 256, 4, 1, count_call, &released);
    CHECK(b);
    DLManagedTensor *t1 = NULL, *t2 = NULL;
    CHECK_OK(jet_dlpack_export_buffer(b, NULL, &t1));
    CHECK_OK(jet_dlpack_export_buffer(b, NULL, &t2));
    CHECK(t1 != t2 && t1->dl_tensor.data == t2->dl_tensor.data);
    CHECK(atomic_load(&c.live_objects) == 3);
    if (order == 0) { /* buffer first: the tensors keep the memory */
      CHECK_OK(jet_buffer_destroy(b));
      CHECK_MSG(released == 0, "order %d: released %d after destroy", order, released);
      CHECK_ST(jet_buffer_get_info(b, &(jet_buffer_info){0}), JET_STATUS_INVALID_HANDLE);
      t2->deleter(t2);
      CHECK(released == 0);
      CHECK(atomic_load(&c.live_objects) == 1);
      t1->deleter(t1);
    } else if (order == 1) { /* tensors first: the buffer releases */
      t1->deleter(t1);
      t2->deleter(t2);
      CHECK(released == 0);
      CHECK_OK(jet_buffer_destroy(b));
    } else { /* interleaved */
      t1->deleter(t1);
      CHECK_OK(jet_buffer_destroy(b));
      CHECK(released == 0);
      t2->deleter(t2);
    }
    CHECK_MSG(released == 1, "order %d: memory released %d times", order, released);
    CHECK_MSG(atomic_load(&c.live_objects) == 0, "order %d: %d objects left", order,
              atomic_load(&c.live_objects));
  }
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ import refusals */

static int deleted;
static void count_deleter(DLManagedTensor *self) {
  (void)self;
  deleted++;
}

typedef struct fake_tensor {
  DLManagedTensor m;
  int64_t shape[4], strides[4];
} fake_tensor;

/* A valid-looking 2D float tensor on CUDA device @dev: [h, w] with row stride @rs. */
static void make_tensor(fake_tensor *f, int dev, int64_t h, int64_t w, int64_t rs) {
  memset(f, 0, sizeof *f);
  f->m.dl_tensor.data = BAD;
  f->m.dl_tensor.device.device_type = kDLCUDA;
  f->m.dl_tensor.device.device_id = dev;
  f->m.dl_tensor.ndim = 2;
  f->m.dl_tensor.dtype.code = kDLFloat;
  f->m.dl_tensor.dtype.bits = 32;
  f->m.dl_tensor.dtype.lanes = 1;
  f->shape[0] = h;
  f->shape[1] = w;
  f->strides[0] = rs;
  f->strides[1] = 1;
  f->m.dl_tensor.shape = f->shape;
  f->m.dl_tensor.strides = f->strides;
  f->m.deleter = count_deleter;
}

/* Every import of @f is refused with @st and a message naming @what. */
static int refused(struct jet_context_s *c, fake_tensor *f, jet_format fmt, int image,
                   jet_status st, const char *what, int line) {
  jet_buffer b = (jet_buffer)BAD;
  jet_image im = (jet_image)BAD;
  jet_status got =
      image ? jet_dlpack_import_image(c, &f->m, fmt, &im) : jet_dlpack_import_buffer(c, &f->m, &b);
  if (got != st || !has(jet_last_error()->message, what) || b != (image ? (jet_buffer)BAD : NULL) ||
      im != (image ? NULL : (jet_image)BAD) || deleted) {
    fprintf(stderr, "line %d: got %s (expected %s), deleted %d, detail: %s\n", line,
            jet_status_name(got), jet_status_name(st), deleted, jet_last_error_string());
    return 0;
  }
  return 1;
}

#define REFUSED(f, fmt, image, st, what) \
  CHECK(refused(&c, (f), (fmt), (image), (st), (what), __LINE__))

static int t_import_refuses_bad_tensors(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  deleted = 0;
  fake_tensor f;
  jet_buffer b = (jet_buffer)BAD;
  make_tensor(&f, 0, 4, 5, 8);
  CHECK_ST(jet_dlpack_import_buffer(&c, &f.m, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_dlpack_import_buffer(&c, NULL, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(b == NULL);
  CHECK_ST(jet_dlpack_import_buffer(NULL, &f.m, &b), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_dlpack_import_image((jet_context)BAD, &f.m, JET_FORMAT_NONE_, &(jet_image){0}),
           JET_STATUS_INVALID_HANDLE);

  for (int image = 0; image < 2; image++) {
    jet_format g = JET_FORMAT_GRAYF32;
    make_tensor(&f, 0, 4, 5, 8);
    f.m.dl_tensor.device.device_type = kDLCPU;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "jet_host_register");
    f.m.dl_tensor.device.device_type = kDLOpenCL;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "kDLOpenCL");
    f.m.dl_tensor.device.device_type = kDLROCM;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "device type 10");
    make_tensor(&f, 1, 4, 5, 8);
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "device 1, the context's device is 0");
    f.m.dl_tensor.device.device_type = kDLCUDAManaged;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "device_id 1");
    make_tensor(&f, 0, 4, 5, 8);
    f.m.dl_tensor.dtype.bits = 4;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "whole bytes");
    f.m.dl_tensor.dtype.bits = 32;
    f.m.dl_tensor.dtype.lanes = 0;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "lane");
    make_tensor(&f, 0, 4, 5, 8);
    f.m.dl_tensor.ndim = -1;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "ndim -1");
    f.m.dl_tensor.ndim = 9;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "ndim 9");
    make_tensor(&f, 0, 4, 5, 8);
    f.m.dl_tensor.shape = NULL;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "shape is NULL");
    make_tensor(&f, 0, 0, 5, 8);
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "never empty");
    make_tensor(&f, 0, 4, -5, 8);
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "shape[1] is -5");
    make_tensor(&f, 0, 4, 5, -8);
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "negative strides");
    make_tensor(&f, 0, INT64_MAX / 2, 5, 8);
    REFUSED(&f, g, image, JET_STATUS_OVERFLOW, "overflows");
    make_tensor(&f, 0, 4, 5, 8);
    f.m.dl_tensor.data = NULL;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "data pointer is NULL");
    f.m.dl_tensor.data = (char *)BAD + 2;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "not aligned");
    f.m.dl_tensor.data = BAD;
    f.m.dl_tensor.byte_offset = 6;
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, "not aligned");
    f.m.dl_tensor.data = (void *)(uintptr_t)(UINTPTR_MAX - 63);
    f.m.dl_tensor.byte_offset = 128;
    REFUSED(&f, g, image, JET_STATUS_OVERFLOW, "wraps");
    /* a row stride below the row */
    make_tensor(&f, 0, 4, 5, 4);
    REFUSED(&f, g, image, JET_STATUS_INVALID_ARGUMENT, image ? "row stride 4" : "strides");
  }

  /* buffers: 3D non-compact, 2D with a column stride */
  make_tensor(&f, 0, 4, 5, 8);
  f.m.dl_tensor.ndim = 3;
  f.shape[2] = 2;
  f.strides[0] = 20;
  f.strides[1] = 4;
  f.strides[2] = 1;
  REFUSED(&f, 0, 0, JET_STATUS_INVALID_ARGUMENT, "neither a compact");
  make_tensor(&f, 0, 4, 5, 10);
  f.strides[1] = 2;
  REFUSED(&f, 0, 0, JET_STATUS_INVALID_ARGUMENT, "neither a compact");

  /* images: format and layout */
  make_tensor(&f, 0, 4, 5, 8);
  REFUSED(&f, JET_FORMAT_GRAY8, 1, JET_STATUS_INVALID_ARGUMENT, "sample type");
  REFUSED(&f, JET_FORMAT_NV12, 1, JET_STATUS_INVALID_ARGUMENT, "each plane");
  REFUSED(&f, (jet_format)999, 1, JET_STATUS_INVALID_ARGUMENT, "unknown format 999");
  REFUSED(&f, JET_FORMAT_RGBF32, 1, JET_STATUS_INVALID_ARGUMENT, "[height, width, samples]");
  REFUSED(&f, JET_FORMAT_RGBF32P, 1, JET_STATUS_INVALID_ARGUMENT, "[3, height, width]");
  f.m.dl_tensor.dtype.code = kDLInt;
  REFUSED(&f, JET_FORMAT_NONE_, 1, JET_STATUS_INVALID_ARGUMENT, "pass the format");
  /* RGB float with a pixel stride that is not 3, and samples not packed */
  make_tensor(&f, 0, 4, 5, 20);
  f.m.dl_tensor.ndim = 3;
  f.shape[2] = 3;
  f.strides[1] = 4;
  f.strides[2] = 1;
  REFUSED(&f, JET_FORMAT_NONE_, 1, JET_STATUS_INVALID_ARGUMENT, "packed");
  f.strides[1] = 3;
  f.strides[2] = 2;
  REFUSED(&f, JET_FORMAT_RGBF32, 1, JET_STATUS_INVALID_ARGUMENT, "packed");
  /* RGB8 inferred needs uint8 */
  f.strides[2] = 1;
  f.m.dl_tensor.dtype.code = kDLUInt;
  f.m.dl_tensor.dtype.bits = 16;
  REFUSED(&f, JET_FORMAT_NONE_, 1, JET_STATUS_INVALID_ARGUMENT, "no image format fits");
  /* an image wider than an int */
  make_tensor(&f, 0, 1, (int64_t)1 << 32, (int64_t)1 << 32);
  REFUSED(&f, JET_FORMAT_GRAYF32, 1, JET_STATUS_INVALID_ARGUMENT, "larger than an image");
  /* RGBF32P planes that overlap */
  make_tensor(&f, 0, 4, 5, 5);
  f.m.dl_tensor.ndim = 3;
  f.shape[0] = 3;
  f.shape[1] = 4;
  f.shape[2] = 5;
  f.strides[0] = 10;
  f.strides[1] = 5;
  f.strides[2] = 1;
  REFUSED(&f, JET_FORMAT_RGBF32P, 1, JET_STATUS_INVALID_ARGUMENT, "overlap");
  /* RGBF16P: float16 samples only, [3, h, w] only, planes apart */
  REFUSED(&f, JET_FORMAT_RGBF16P, 1, JET_STATUS_INVALID_ARGUMENT, "float16");
  f.m.dl_tensor.dtype.bits = 16;
  REFUSED(&f, JET_FORMAT_RGBF16P, 1, JET_STATUS_INVALID_ARGUMENT, "overlap");
  REFUSED(&f, JET_FORMAT_RGBF32P, 1, JET_STATUS_INVALID_ARGUMENT, "float32");
  f.m.dl_tensor.ndim = 2;
  f.strides[0] = 5;
  REFUSED(&f, JET_FORMAT_RGBF16P, 1, JET_STATUS_INVALID_ARGUMENT, "RGBF16P takes a [3, height, width]");
  REFUSED(&f, JET_FORMAT_NONE_, 1, JET_STATUS_INVALID_ARGUMENT, "no image format fits");

  CHECK(deleted == 0);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/* A tensor that passes every host check reaches CUDA, which refuses it here
 * (no device, or not device memory): the tensor stays the caller's. */
static int t_import_failure_leaves_tensor_with_caller(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  deleted = 0;
  fake_tensor f;
  make_tensor(&f, 0, 4, 5, 8);
  jet_buffer b = (jet_buffer)BAD;
  CHECK(jet_dlpack_import_buffer(&c, &f.m, &b) != JET_STATUS_OK);
  CHECK(b == NULL && deleted == 0);
  jet_image im = (jet_image)BAD;
  CHECK(jet_dlpack_import_image(&c, &f.m, JET_FORMAT_NONE_, &im) != JET_STATUS_OK);
  CHECK(im == NULL && deleted == 0);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

static int t_versioned_per_header(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_buffer b = fake_buf(&c, JET_MEMORY_DEVICE, 64, 64, 1, 1, NULL, NULL);
  CHECK(b);
#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
  CHECK(jet_dlpack_versioned_supported() == 1);
  DLManagedTensorVersioned *t = NULL;
  CHECK_OK(jet_dlpack_export_buffer_versioned(b, NULL, &t));
  CHECK(t->version.major == DLPACK_MAJOR_VERSION && t->flags == 0);
  CHECK(t->dl_tensor.ndim == 1 && t->dl_tensor.shape[0] == 64 && t->dl_tensor.strides[0] == 1);
  /* refusals keep the tensor with the caller: call its deleter ourselves */
  jet_buffer out = (jet_buffer)BAD;
  t->version.major = DLPACK_MAJOR_VERSION + 1;
  CHECK_ST(jet_dlpack_import_buffer_versioned(&c, t, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL && has(jet_last_error()->message, "major version"));
  t->version.major = DLPACK_MAJOR_VERSION;
  t->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  CHECK_ST(jet_dlpack_import_buffer_versioned(&c, t, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "read-only"));
  CHECK(atomic_load(&c.live_objects) == 2);
  t->deleter(t);
#else
  CHECK(jet_dlpack_versioned_supported() == 0);
  struct DLManagedTensorVersioned *t = (struct DLManagedTensorVersioned *)BAD;
  jet_buffer out = (jet_buffer)BAD;
  CHECK_ST(jet_dlpack_export_buffer_versioned(b, NULL, &t), JET_STATUS_NOT_BUILT_IN);
  CHECK(t == NULL && has(jet_last_error()->message, "0.x"));
  CHECK_ST(jet_dlpack_import_buffer_versioned(&c, (struct DLManagedTensorVersioned *)BAD, &out),
           JET_STATUS_NOT_BUILT_IN);
  CHECK(out == NULL);
  jet_image im = (jet_image)BAD;
  CHECK_ST(jet_dlpack_import_image_versioned(&c, NULL, JET_FORMAT_NONE_, &im),
           JET_STATUS_NOT_BUILT_IN);
  CHECK_ST(jet_dlpack_export_image_versioned(NULL, 0, &t), JET_STATUS_NOT_BUILT_IN);
#endif
  CHECK_OK(jet_buffer_destroy(b));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

#define DL_TEST(fn) return fn()

#else /* built without a DLPack header: the calls say so */

#define JET_DLPACK_NO_HEADER
#include "jetrt/dlpack.h"

static int t_not_built_in(void) {
  jet_buffer b = (jet_buffer)(uintptr_t)0x1000;
  struct DLManagedTensor *t = (struct DLManagedTensor *)(uintptr_t)0x1000;
  CHECK(jet_dlpack_versioned_supported() == 0);
  CHECK_ST(jet_dlpack_export_buffer(NULL, NULL, &t), JET_STATUS_NOT_BUILT_IN);
  CHECK(t == NULL);
  CHECK_ST(jet_dlpack_import_buffer(NULL, NULL, &b), JET_STATUS_NOT_BUILT_IN);
  CHECK(b == NULL);
  return 0;
}

#define DL_TEST(fn) SKIP("jetrt was built without a DLPack header")

#endif /* JET_HAVE_DLPACK */

TEST(dlpack_export_bad_arguments) { DL_TEST(t_export_bad_arguments); }
TEST(dlpack_export_buffer_describes_rows) { DL_TEST(t_export_buffer_describes_rows); }
TEST(dlpack_export_keeps_memory_until_last_deleter) {
  DL_TEST(t_export_keeps_memory_until_last_deleter);
}
TEST(dlpack_import_refuses_bad_tensors) { DL_TEST(t_import_refuses_bad_tensors); }
TEST(dlpack_import_failure_leaves_tensor_with_caller) {
  DL_TEST(t_import_failure_leaves_tensor_with_caller);
}
TEST(dlpack_versioned_per_header) { DL_TEST(t_versioned_per_header); }

/* Without a DLPack header every call is JET_STATUS_NOT_BUILT_IN; with one, the
 * versioned calls follow the header's major version. */
TEST(dlpack_build_matches_header) {
#if JET_HAVE_DLPACK
#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
  CHECK(jet_dlpack_versioned_supported() == 1);
#else
  CHECK(jet_dlpack_versioned_supported() == 0);
#endif
  return 0;
#else
  return t_not_built_in();
#endif
}
