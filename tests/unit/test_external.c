/* External memory and semaphores without a GPU: argument validation before
 * any CUDA call, the policy's refusals (dma-buf, NvSci), mapping ranges and
 * lifetime rules on fake handles. Every refused import must leave the
 * caller's descriptor open. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"
#include "../../lib/external/external_internal.h"
#include "../../lib/memory/memory_internal.h"

static int has(const char *s, const char *sub) { return s && strstr(s, sub) != NULL; }

static int fd_open(int fd) { return fcntl(fd, F_GETFD) >= 0; }

/* A descriptor number that is certainly closed. */
static int closed_fd(void) {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) close(fd);
  return fd;
}

TEST(external_memory_import_rejects_bad_arguments) {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  jet_external_memory m = (jet_external_memory)(uintptr_t)1;
  jet_external_memory_desc d = {JET_EXTERNAL_MEMORY_OPAQUE_FD, fd, NULL, 4096, 0};

  CHECK_ST(jet_external_memory_import(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_external_memory_import(NULL, NULL, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK(has(jet_last_error()->message, "desc"));

  /* Plain arguments come before the context: a NULL context is not reached. */
  static const struct {
    jet_external_memory_type type;
    int fd_kind; /* 0: open, 1: -1, 2: closed */
    int nvsci;
    size_t size;
    unsigned flags;
    const char *says;
  } bad[] = {
      {(jet_external_memory_type)0, 0, 0, 4096, 0, "unknown external memory type"},
      {(jet_external_memory_type)99, 0, 0, 4096, 0, "unknown external memory type"},
      {JET_EXTERNAL_MEMORY_OPAQUE_FD, 1, 0, 4096, 0, "fd is -1"},
      {JET_EXTERNAL_MEMORY_OPAQUE_FD, 2, 0, 4096, 0, "not open"},
      {JET_EXTERNAL_MEMORY_DMABUF_FD, 2, 0, 4096, 0, "not open"},
      {JET_EXTERNAL_MEMORY_OPAQUE_FD, 0, 0, 0, 0, "size is 0"},
      {JET_EXTERNAL_MEMORY_OPAQUE_FD, 0, 0, 4096, 0x10, "unknown external memory flags"},
      {JET_EXTERNAL_MEMORY_DMABUF_FD, 0, 0, 4096, JET_EXTERNAL_MEMORY_DEDICATED, "dma-buf"},
      {JET_EXTERNAL_MEMORY_NVSCIBUF, 0, 0, 4096, 0, "nvsci_object is NULL"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    jet_external_memory_desc b = {bad[i].type, fd, NULL, bad[i].size, bad[i].flags};
    if (bad[i].fd_kind == 1) b.fd = -1;
    if (bad[i].fd_kind == 2) b.fd = closed_fd();
    m = (jet_external_memory)(uintptr_t)1;
    jet_status st = jet_external_memory_import(NULL, &b, &m);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "row %zu: %s (%s)", i, jet_status_name(st),
              jet_last_error_string());
    CHECK_MSG(m == NULL, "row %zu: out not cleared", i);
    CHECK_MSG(has(jet_last_error()->message, bad[i].says), "row %zu: detail \"%s\" lacks \"%s\"",
              i, jet_last_error()->message, bad[i].says);
    CHECK_MSG(fd_open(fd), "row %zu closed the caller's descriptor", i);
  }

  /* A good description reaches the context check. */
  CHECK_ST(jet_external_memory_import(NULL, &d, &m), JET_STATUS_INVALID_HANDLE);
  int junk[64] = {0};
  CHECK_ST(jet_external_memory_import((jet_context)(void *)junk, &d, &m),
           JET_STATUS_INVALID_HANDLE);
  CHECK(fd_open(fd));
  close(fd);
  return 0;
}

/* dma-buf only where the policy has it (Thor); NvSci: not on desktop, and not
 * built in without its headers on Tegra. The descriptor stays the caller's. */
TEST(external_memory_import_policy_refusals) {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  int obj = 0;
  static const struct {
    const char *platform;
    jet_external_memory_type type;
    jet_status expect;
    const char *says;
  } rows[] = {
      {"desktop", JET_EXTERNAL_MEMORY_DMABUF_FD, JET_STATUS_UNSUPPORTED, "dma-buf"},
      {"xavier", JET_EXTERNAL_MEMORY_DMABUF_FD, JET_STATUS_UNSUPPORTED, "dma-buf"},
      {"orin", JET_EXTERNAL_MEMORY_DMABUF_FD, JET_STATUS_UNSUPPORTED, "dma-buf"},
      {"desktop", JET_EXTERNAL_MEMORY_NVSCIBUF, JET_STATUS_UNSUPPORTED, "Tegra"},
      {"orin", JET_EXTERNAL_MEMORY_NVSCIBUF, JET_STATUS_NOT_BUILT_IN, "NvSci headers"},
      {"thor", JET_EXTERNAL_MEMORY_NVSCIBUF, JET_STATUS_NOT_BUILT_IN, "NvSci headers"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    struct jet_context_s c;
    CHECK(jt_fake_context(&c, rows[i].platform));
    jet_external_memory_desc d = {rows[i].type, fd, &obj, 4096, 0};
    jet_external_memory m = (jet_external_memory)(uintptr_t)1;
    jet_status st = jet_external_memory_import(&c, &d, &m);
    CHECK_MSG(st == rows[i].expect, "row %zu (%s): %s, expected %s (%s)", i, rows[i].platform,
              jet_status_name(st), jet_status_name(rows[i].expect), jet_last_error_string());
    CHECK(m == NULL);
    const jet_error_info *e = jet_last_error();
    CHECK_MSG(has(e->message, rows[i].says) || has(e->hint, rows[i].says),
              "row %zu: detail \"%s\" lacks \"%s\"", i, jet_last_error_string(), rows[i].says);
    CHECK_MSG(e->hint[0] != '\0', "row %zu: no hint", i);
    CHECK(atomic_load(&c.live_objects) == 0);
    jt_fake_context_done(&c);
    CHECK(fd_open(fd));
  }
  close(fd);
  return 0;
}

/* Under the Thor policy a dma-buf is checked against its own size (a memfd
 * stands in: it has one too) before any driver call. */
TEST(external_memory_dmabuf_size_checked_first) {
  int fd = memfd_create("jet-test-dmabuf", MFD_CLOEXEC);
  CHECK(fd >= 0);
  CHECK(ftruncate(fd, 8192) == 0);
  CHECK(lseek(fd, 100, SEEK_SET) == 100);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "thor"));
  jet_external_memory_desc d = {JET_EXTERNAL_MEMORY_DMABUF_FD, fd, NULL, 8193, 0};
  jet_external_memory m = (jet_external_memory)(uintptr_t)1;
  CHECK_ST(jet_external_memory_import(&c, &d, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK(has(jet_last_error()->message, "8192"));
  CHECK_MSG(lseek(fd, 0, SEEK_CUR) == 100, "the descriptor's offset was not put back");
  CHECK(fd_open(fd));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  close(fd);
  return 0;
}

TEST(external_policy_dmabuf_only_on_thor) {
  static const struct {
    const char *name;
    int dmabuf;
  } rows[] = {{"desktop", 0}, {"xavier", 0}, {"orin", 0}, {"thor", 1}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    struct jet_context_s c;
    CHECK(jt_fake_context(&c, rows[i].name));
    CHECK_MSG(c.platform.policy.external_dmabuf == rows[i].dmabuf, "%s: external_dmabuf %d",
              rows[i].name, c.platform.policy.external_dmabuf);
    jt_fake_context_done(&c);
  }
  /* Auto-selected from the device: a Thor iGPU has it, an Orin iGPU and a dGPU do not. */
  static const struct {
    int integrated, major, minor, dmabuf;
  } devs[] = {{1, 11, 0, 1}, {1, 8, 7, 0}, {0, 9, 0, 0}, {0, 11, 0, 0}};
  for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++) {
    jet_platform_info info = jt_fake_device(devs[i].integrated, devs[i].major, devs[i].minor);
    jet__platform p;
    CHECK_OK(jet__platform_select(&info, NULL, &p, "test"));
    CHECK_MSG(p.policy.external_dmabuf == devs[i].dmabuf, "device row %zu (%s): %d", i,
              p.policy.name, p.policy.external_dmabuf);
  }
  return 0;
}

TEST(external_semaphore_import_rejects_bad_arguments) {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  jet_external_semaphore s = (jet_external_semaphore)(uintptr_t)1;
  jet_external_semaphore_desc d = {JET_EXTERNAL_SEMAPHORE_TIMELINE_FD, fd, NULL, 0};
  CHECK_ST(jet_external_semaphore_import(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_external_semaphore_import(NULL, NULL, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(s == NULL);
  static const struct {
    jet_external_semaphore_type type;
    int fd_kind;
    unsigned flags;
    const char *says;
  } bad[] = {
      {(jet_external_semaphore_type)0, 0, 0, "unknown external semaphore type"},
      {(jet_external_semaphore_type)7, 0, 0, "unknown external semaphore type"},
      {JET_EXTERNAL_SEMAPHORE_OPAQUE_FD, 1, 0, "fd is -1"},
      {JET_EXTERNAL_SEMAPHORE_TIMELINE_FD, 2, 0, "not open"},
      {JET_EXTERNAL_SEMAPHORE_TIMELINE_FD, 0, 1, "flags"},
      {JET_EXTERNAL_SEMAPHORE_NVSCISYNC, 0, 0, "nvsci_object is NULL"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    jet_external_semaphore_desc b = {bad[i].type, fd, NULL, bad[i].flags};
    if (bad[i].fd_kind == 1) b.fd = -1;
    if (bad[i].fd_kind == 2) b.fd = closed_fd();
    s = (jet_external_semaphore)(uintptr_t)1;
    jet_status st = jet_external_semaphore_import(NULL, &b, &s);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "row %zu: %s (%s)", i, jet_status_name(st),
              jet_last_error_string());
    CHECK(s == NULL);
    CHECK_MSG(has(jet_last_error()->message, bad[i].says), "row %zu: detail \"%s\" lacks \"%s\"",
              i, jet_last_error()->message, bad[i].says);
    CHECK(fd_open(fd));
  }
  CHECK_ST(jet_external_semaphore_import(NULL, &d, &s), JET_STATUS_INVALID_HANDLE);

  int obj = 0;
  jet_external_semaphore_desc sci = {JET_EXTERNAL_SEMAPHORE_NVSCISYNC, -1, &obj, 0};
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK_ST(jet_external_semaphore_import(&c, &sci, &s), JET_STATUS_UNSUPPORTED);
  jt_fake_context_done(&c);
  CHECK(jt_fake_context(&c, "orin"));
  CHECK_ST(jet_external_semaphore_import(&c, &sci, &s), JET_STATUS_NOT_BUILT_IN);
  CHECK(has(jet_last_error()->hint, "NvSci headers"));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  CHECK(fd_open(fd));
  close(fd);
  return 0;
}

/* A registered external memory of @size bytes that never met CUDA. */
static int fake_memory(struct jet_external_memory_s *m, struct jet_context_s *c, size_t size) {
  memset(m, 0, sizeof *m);
  m->type = JET_EXTERNAL_MEMORY_OPAQUE_FD;
  m->size = size;
  pthread_mutex_init(&m->lock, NULL);
  return jet__handle_register(&m->h, JET__H_EXTERNAL_MEMORY, c, "test") == JET_STATUS_OK;
}

static void fake_memory_done(struct jet_external_memory_s *m) {
  jet__handle_unregister(&m->h);
  pthread_mutex_destroy(&m->lock);
}

TEST(external_memory_map_rejects_bad_ranges) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  struct jet_external_memory_s m;
  CHECK(fake_memory(&m, &c, 1 << 20));
  jet_buffer b = (jet_buffer)(uintptr_t)1;

  CHECK_ST(jet_external_memory_map_buffer(&m, 0, 16, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_external_memory_map_buffer(NULL, 0, 16, &b), JET_STATUS_INVALID_HANDLE);
  CHECK(b == NULL);
  CHECK_ST(jet_external_memory_map_buffer(&m, 0, 0, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "size is 0"));
  CHECK_ST(jet_external_memory_map_buffer(&m, SIZE_MAX - 3, 16, &b), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_external_memory_map_buffer(&m, 1 << 20, 1, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "past the end"));
  CHECK_ST(jet_external_memory_map_buffer(&m, 4096, (1 << 20) - 4095, &b),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_external_memory_map_buffer(&m, (size_t)2 << 20, 16, &b),
           JET_STATUS_INVALID_ARGUMENT);

  jet_image im = (jet_image)(uintptr_t)1;
  CHECK_ST(jet_external_memory_map_image(&m, JET_FORMAT_RGBA8, 16, 16, NULL, NULL, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_external_memory_map_image(&m, (jet_format)9999, 16, 16, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(im == NULL);
  CHECK_ST(jet_external_memory_map_image(&m, JET_FORMAT_RGBA8, 0, 16, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  /* 1024 x 257 RGBA8 packed is 1 MiB + 4 KiB: past the end. */
  CHECK_ST(jet_external_memory_map_image(&m, JET_FORMAT_RGBA8, 1024, 257, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "past the end"));
  size_t off[3] = {(1 << 20) - 99, 0, 0}; /* 5x5 RGBA8 spans 100 bytes */
  CHECK_ST(jet_external_memory_map_image(&m, JET_FORMAT_RGBA8, 5, 5, NULL, off, &im),
           JET_STATUS_INVALID_ARGUMENT);
  /* NV12: the chroma plane placed past the end. */
  size_t off2[3] = {0, (1 << 20) - 10, 0};
  CHECK_ST(jet_external_memory_map_image(&m, JET_FORMAT_NV12, 64, 32, NULL, off2, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "plane 1"));
  size_t small_pitch[3] = {8, 0, 0};
  CHECK_ST(jet_external_memory_map_image(&m, JET_FORMAT_RGBA8, 5, 5, small_pitch, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);

  /* The internal array mapping checks its arguments too. */
  struct cudaChannelFormatDesc f;
  memset(&f, 0, sizeof f);
  f.x = 8;
  f.f = cudaChannelFormatKindUnsigned;
  cudaMipmappedArray_t arr = NULL;
  CHECK_ST(jet__external_memory_map_array(&m, 0, &f, jet__extent(16, 16, 0), 0, 0, &arr, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__external_memory_map_array(&m, 1 << 20, &f, jet__extent(16, 16, 0), 0, 1, &arr,
                                          "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__external_memory_map_array(&m, 0, NULL, jet__extent(16, 16, 0), 0, 1, &arr, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  m.via_driver = 1;
  CHECK_ST(jet__external_memory_map_array(&m, 0, &f, jet__extent(16, 16, 0), 0, 1, &arr, "test"),
           JET_STATUS_UNSUPPORTED);
  m.via_driver = 0;
  CHECK_ST(jet__external_memory_unmap_array(&m, (cudaMipmappedArray_t)(uintptr_t)8, "test"),
           JET_STATUS_INVALID_ARGUMENT);

  fake_memory_done(&m);
  CHECK_ST(jet_external_memory_map_buffer(&m, 0, 16, &b), JET_STATUS_INVALID_HANDLE);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/* Mapped objects belong to the memory: their own destroy is refused, a foreign
 * one cannot be unmapped through it, and the memory's destroy is refused while
 * mappings live. */
TEST(external_memory_mapping_lifetime_rules) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  struct jet_external_memory_s m;
  CHECK(fake_memory(&m, &c, 1 << 20));

  jet_external_memory_type t;
  size_t size = 0;
  int n = -1;
  CHECK_ST(jet_external_memory_get_info(&m, NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_external_memory_get_info(&m, &t, &size, &n));
  CHECK(t == JET_EXTERNAL_MEMORY_OPAQUE_FD && size == (1 << 20) && n == 0);

  /* A buffer lent by something else is no mapping of this memory. */
  static char backing[256];
  jet_buffer foreign = NULL;
  CHECK_OK(jet__buffer_borrow(&c, backing, sizeof backing, "a test", &foreign, "test"));
  CHECK_ST(jet_external_memory_unmap_buffer(&m, foreign), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "not a mapping"));
  CHECK_ST(jet_external_memory_unmap_buffer(&m, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_memory_unmap_buffer(NULL, foreign), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_memory_unmap_image(&m, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_memory_unmap_image(&m, (jet_image)(void *)foreign),
           JET_STATUS_INVALID_HANDLE);
  jet__buffer_release_borrowed(foreign);

  /* Live mappings refuse the destroy and change nothing. */
  jet__ext_mapping rec = {NULL, JET__EXT_MAP_BUFFER, NULL, NULL};
  m.maps = &rec;
  m.nmaps = 1;
  CHECK_ST(jet_external_memory_destroy(&m), JET_STATUS_INVALID_STATE);
  CHECK(has(jet_last_error()->message, "unmap them first"));
  CHECK_OK(jet_external_memory_get_info(&m, NULL, NULL, &n));
  CHECK(n == 1);
  m.maps = NULL;
  m.nmaps = 0;

  CHECK_OK(jet_external_memory_destroy(NULL));
  fake_memory_done(&m);
  CHECK_ST(jet_external_memory_destroy(&m), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_memory_get_info(&m, &t, NULL, NULL), JET_STATUS_INVALID_HANDLE);
  /* Another handle type is no external memory. */
  CHECK_ST(jet_external_memory_destroy((jet_external_memory)(void *)&c),
           JET_STATUS_INVALID_HANDLE);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(external_semaphore_signal_wait_validation) {
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK(jt_fake_context(&other, "desktop"));
  struct jet_external_semaphore_s bin, tl;
  memset(&bin, 0, sizeof bin);
  memset(&tl, 0, sizeof tl);
  bin.type = JET_EXTERNAL_SEMAPHORE_OPAQUE_FD;
  tl.type = JET_EXTERNAL_SEMAPHORE_TIMELINE_FD;
  CHECK_OK(jet__handle_register(&bin.h, JET__H_EXTERNAL_SEMAPHORE, &c, "test"));
  CHECK_OK(jet__handle_register(&tl.h, JET__H_EXTERNAL_SEMAPHORE, &c, "test"));
  jet_stream own = &c.default_streams[JET_STREAM_LEGACY];
  jet_stream foreign = &other.default_streams[JET_STREAM_LEGACY];

  /* A binary semaphore has no value. */
  CHECK_ST(jet_external_semaphore_signal(&bin, 5, own), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "pass 0"));
  CHECK_ST(jet_external_semaphore_wait(&bin, 1, own), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_external_semaphore_signal(NULL, 0, own), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_semaphore_wait(NULL, 0, own), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_semaphore_signal(&tl, 3, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_semaphore_wait(&tl, 3, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_semaphore_signal(&tl, 3, foreign), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_external_semaphore_wait(&bin, 0, foreign), JET_STATUS_WRONG_CONTEXT);
  /* A semaphore is no stream, and the other way round. */
  CHECK_ST(jet_external_semaphore_signal(&tl, 3, (jet_stream)(void *)&bin),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_semaphore_wait((jet_external_semaphore)(void *)own, 0, own),
           JET_STATUS_INVALID_HANDLE);

  CHECK_OK(jet_external_semaphore_destroy(NULL));
  jet__handle_unregister(&bin.h);
  jet__handle_unregister(&tl.h);
  CHECK_ST(jet_external_semaphore_signal(&tl, 3, own), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_semaphore_destroy(&bin), JET_STATUS_INVALID_HANDLE);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&other);
  jt_fake_context_done(&c);
  return 0;
}
