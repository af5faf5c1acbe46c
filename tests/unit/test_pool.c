/* Memory pools, stream-ordered buffers and the public VMM API, host side:
 * argument checks (they come before any CUDA call), handle checks, the
 * policy's word on sharing pools, and the refusals of fake contexts and
 * handles that are registered but never touch a GPU. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/memory/memory_internal.h"

#define BAD ((void *)(uintptr_t)0x1000) /* never dereferenced: checks fail first */

static int has(const char *hay, const char *needle) {
  return hay && strstr(hay, needle) != NULL;
}

static int fake_pool(struct jet_mempool_s *p, struct jet_context_s *c, int imported,
                     int exportable) {
  memset(p, 0, sizeof *p);
  p->is_default = 1; /* a destroy never reaches cudaMemPoolDestroy */
  p->imported = imported;
  p->exportable = exportable;
  atomic_init(&p->buffers, 0);
  return jet__handle_register(&p->h, JET__H_MEMPOOL, c, "test") == JET_STATUS_OK;
}

static int fake_stream(struct jet_stream_s *s, struct jet_context_s *c) {
  memset(s, 0, sizeof *s);
  return jet__handle_register(&s->h, JET__H_STREAM, c, "test") == JET_STATUS_OK;
}

static int fake_buf(struct jet_buffer_s *b, struct jet_context_s *c) {
  memset(b, 0, sizeof *b);
  b->kind = b->requested = JET_MEMORY_DEVICE;
  b->dev = BAD;
  b->width = b->pitch = b->size = 4096;
  b->height = b->depth = 1;
  return jet__handle_register(&b->h, JET__H_BUFFER, c, "test") == JET_STATUS_OK;
}

/* ------------------------------------------------------------ policy */

TEST(pool_ipc_policy_per_platform) {
  jet_platform_info dev = jt_fake_device(0, 9, 0);
  dev.memory_pools_supported = 1;
  static const struct {
    const char *name;
    int allowed;
  } rows[] = {{"desktop", 1}, {"xavier", 0}, {"orin", 0}, {"thor", 1}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, rows[i].name, &p, "test"));
    jet_status st = jet__ipc_pool_allowed(&dev, &p.policy, 1, "test");
    CHECK_MSG(st == (rows[i].allowed ? JET_STATUS_OK : JET_STATUS_UNSUPPORTED),
              "policy %s: %s (%s)", rows[i].name, jet_status_name(st), jet_last_error_string());
    if (!rows[i].allowed) {
      CHECK(has(jet_last_error()->hint, "JET_MEM_EXPORTABLE"));
      CHECK(has(jet_last_error()->message, rows[i].name));
    }
    /* no POSIX descriptor for pools: refused whatever the policy */
    CHECK_ST(jet__ipc_pool_allowed(&dev, &p.policy, 0, "test"), JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet__ipc_pool_allowed(&dev, &p.policy, 0x8 /* fabric only */, "test"),
             JET_STATUS_UNSUPPORTED);
  }
  jet__platform p;
  CHECK_OK(jet__platform_select(&dev, "desktop", &p, "test"));
  dev.memory_pools_supported = 0;
  CHECK_ST(jet__ipc_pool_allowed(&dev, &p.policy, 1, "test"), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "no memory pools"));
  return 0;
}

/* ------------------------------------------------------------ pools */

TEST(badarg_pool_create) {
  jet_mempool out = (jet_mempool)BAD;
  jet_mempool_desc d;
  memset(&d, 0, sizeof d);
  CHECK_ST(jet_mempool_create(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  d.flags = 1u << 5;
  CHECK_ST(jet_mempool_create(NULL, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK(has(jet_last_error()->message, "0x20"));
  d.flags = 0;
  d.reuse_off = 1u << 3;
  CHECK_ST(jet_mempool_create(NULL, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  d.reuse_off = 0;
  CHECK_ST(jet_mempool_create(NULL, &d, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_create((jet_context)BAD, NULL, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_get_default(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_default(NULL, &out), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  /* the fake device has no pools */
  CHECK_ST(jet_mempool_create(&c, NULL, &out), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "cudaDevAttrMemoryPoolsSupported"));
  CHECK_ST(jet_mempool_get_default(&c, &out), JET_STATUS_UNSUPPORTED);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);

  /* exportable under a Jetson policy: refused before any CUDA call */
  CHECK(jt_fake_context(&c, "orin"));
  c.info.memory_pools_supported = 1;
  d.flags = JET_MEMPOOL_EXPORTABLE;
  CHECK_ST(jet_mempool_create(&c, &d, &out), JET_STATUS_UNSUPPORTED);
  CHECK(out == NULL);
  CHECK(has(jet_last_error()->hint, "Jetson"));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(badarg_pool_functions) {
  uint64_t v;
  unsigned r;
  jet_mem_access a;
  jet_mempool_stats s;
  int bogus[16] = {0};
  jet_mempool bp = (jet_mempool)(void *)bogus;
  CHECK_OK(jet_mempool_destroy(NULL));
  CHECK_ST(jet_mempool_destroy(bp), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_set_release_threshold(NULL, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_get_release_threshold(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_release_threshold(bp, &v), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_set_reuse(NULL, 8), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_set_reuse(NULL, JET_MEMPOOL_REUSE_ALL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_get_reuse(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_reuse(bp, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_set_access(NULL, 0, (jet_mem_access)2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_set_access(NULL, -1, JET_MEM_ACCESS_READ), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_set_access(NULL, 0, JET_MEM_ACCESS_READ), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_get_access(NULL, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_access(NULL, -3, &a), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_access(bp, 0, &a), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_trim(NULL, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_get_stats(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_stats(bp, &s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_reset_high_watermarks(NULL), JET_STATUS_INVALID_HANDLE);

  /* a live handle of another type is not a pool */
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK_ST(jet_mempool_trim((jet_mempool)(void *)&c, 0), JET_STATUS_INVALID_HANDLE);
  CHECK(has(jet_last_error()->message, "jet_context"));

  /* imported pools are not configured or trimmed here; checked before CUDA */
  struct jet_mempool_s ip;
  CHECK(fake_pool(&ip, &c, 1, 0));
  CHECK_ST(jet_mempool_trim(&ip, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "imported"));
  CHECK_ST(jet_mempool_set_reuse(&ip, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_set_release_threshold(&ip, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_set_access(&ip, 1, JET_MEM_ACCESS_READ), JET_STATUS_INVALID_ARGUMENT);

  jet__handle_unregister(&ip.h);

  /* destroy refuses while buffers are alive, and keeps the handle */
  struct jet_mempool_s *hp = calloc(1, sizeof *hp);
  CHECK(hp && fake_pool(hp, &c, 0, 0));
  atomic_store(&hp->buffers, 2);
  CHECK_ST(jet_mempool_destroy(hp), JET_STATUS_INVALID_STATE);
  CHECK(has(jet_last_error()->message, "2 buffer(s)"));
  CHECK(atomic_load(&c.live_objects) == 1);
  atomic_store(&hp->buffers, 0);
  CHECK_OK(jet_mempool_destroy(hp)); /* a default-pool fake: no cudaMemPoolDestroy */
  CHECK(atomic_load(&c.live_objects) == 0);
  CHECK_ST(jet_mempool_destroy(hp), JET_STATUS_INVALID_HANDLE);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ stream-ordered buffers */

TEST(badarg_buffer_alloc_async) {
  jet_buffer out = (jet_buffer)BAD;
  CHECK_ST(jet_buffer_alloc_async(NULL, NULL, 64, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_buffer_alloc_async(NULL, NULL, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_ST(jet_buffer_alloc_async(NULL, NULL, 64, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_free_async(NULL, NULL), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK(jt_fake_context(&other, "desktop"));
  struct jet_stream_s s;
  struct jet_mempool_s p_other, p_imported;
  CHECK(fake_stream(&s, &c));
  CHECK(fake_pool(&p_other, &other, 0, 0));
  CHECK(fake_pool(&p_imported, &c, 1, 0));
  CHECK_ST(jet_buffer_alloc_async(&s, &p_other, 64, &out), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_buffer_alloc_async(&s, &p_imported, 64, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "imported"));
  /* the fake device has no pools */
  CHECK_ST(jet_buffer_alloc_async(&s, NULL, 64, &out), JET_STATUS_UNSUPPORTED);
  CHECK(out == NULL);

  /* a buffer not allocated in stream order is not freed in stream order */
  struct jet_buffer_s b;
  CHECK(fake_buf(&b, &c));
  CHECK_ST(jet_buffer_free_async(&b, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "jet_buffer_destroy"));
  /* nor exported as a pool pointer */
  jet_mempool_ptr_desc pd;
  CHECK_ST(jet_mempool_export_pointer(&b, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_export_pointer(&b, &pd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "JET_MEMPOOL_EXPORTABLE"));
  b.pool = &p_imported;
  CHECK_ST(jet_mempool_export_pointer(&b, &pd), JET_STATUS_INVALID_ARGUMENT);
  jet__handle_unregister(&b.h);

  jet__handle_unregister(&s.h);
  jet__handle_unregister(&p_other.h);
  jet__handle_unregister(&p_imported.h);
  CHECK(atomic_load(&c.live_objects) == 0 && atomic_load(&other.live_objects) == 0);
  jt_fake_context_done(&c);
  jt_fake_context_done(&other);
  return 0;
}

/* ------------------------------------------------------------ sharing pools */

TEST(badarg_pool_sharing) {
  int fd = 7;
  jet_mempool out = (jet_mempool)BAD;
  CHECK_ST(jet_mempool_export(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_export(NULL, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK(fd == -1);
  CHECK_ST(jet_mempool_import(NULL, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_import(NULL, -1, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_ST(jet_mempool_import(NULL, 0, &out), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  c.info.memory_pools_supported = 1;
  struct jet_mempool_s plain, imported, expo;
  CHECK(fake_pool(&plain, &c, 0, 0));
  CHECK(fake_pool(&imported, &c, 1, 0));
  CHECK(fake_pool(&expo, &c, 0, 1));
  CHECK_ST(jet_mempool_export(&plain, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "default")); /* fakes are default-pool handles */
  CHECK_ST(jet_mempool_export(&imported, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "imported"));
  /* an fd that is not open is refused before CUDA */
  CHECK_ST(jet_mempool_import(&c, 1000000, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "not an open descriptor"));

  /* pointer descriptions are checked field by field before CUDA */
  jet_mempool_ptr_desc d;
  memset(&d, 0, sizeof d);
  jet_buffer b = (jet_buffer)BAD;
  CHECK_ST(jet_mempool_import_pointer(&imported, NULL, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(b == NULL);
  CHECK_ST(jet_mempool_import_pointer(&imported, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_import_pointer(&imported, &d, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "version"));
  d.version = JET_MEMPOOL_PTR_DESC_VERSION;
  d.reserved = 1;
  CHECK_ST(jet_mempool_import_pointer(&imported, &d, &b), JET_STATUS_INVALID_ARGUMENT);
  d.reserved = 0;
  CHECK_ST(jet_mempool_import_pointer(&imported, &d, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "bytes 0"));
  d.bytes = 4096;
  CHECK_ST(jet_mempool_import_pointer(NULL, &d, &b), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_mempool_import_pointer(&plain, &d, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "jet_mempool_import"));
  d.bytes = c.info.total_memory + 1;
  CHECK_ST(jet_mempool_import_pointer(&imported, &d, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "forged"));
  jet__handle_unregister(&plain.h);
  jet__handle_unregister(&imported.h);
  jet__handle_unregister(&expo.h);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);

  /* under a Jetson policy an exportable pool (say, made before the policy
   * was forced) is not exported, and no pool is imported */
  CHECK(jt_fake_context(&c, "xavier"));
  c.info.memory_pools_supported = 1;
  CHECK(fake_pool(&expo, &c, 0, 1));
  expo.is_default = 0;
  CHECK_ST(jet_mempool_export(&expo, &fd), JET_STATUS_UNSUPPORTED);
  CHECK(fd == -1);
  CHECK_ST(jet_mempool_import(&c, 0, &out), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->hint, "VMM"));
  jet__handle_unregister(&expo.h);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ VMM */

TEST(badarg_vmm) {
  size_t a, b;
  void *p;
  jet_vmm_range r = (jet_vmm_range)BAD;
  jet_vmm_mem m = (jet_vmm_mem)BAD;
  jet_growable g = (jet_growable)BAD;
  jet_growable_info gi;
  jet_buffer buf;
  int bogus[16] = {0};
  CHECK_ST(jet_vmm_granularity(NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_vmm_granularity(NULL, &a, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_vmm_reserve(NULL, 1, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_vmm_reserve(NULL, 0, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(r == NULL);
  CHECK_ST(jet_vmm_reserve(NULL, 1 << 21, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_vmm_range_info(NULL, &p, &a, &b), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_vmm_free_range(NULL));
  CHECK_ST(jet_vmm_free_range((jet_vmm_range)(void *)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_vmm_mem_create(NULL, 1, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_vmm_mem_create(NULL, 0, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK_ST(jet_vmm_mem_size(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_vmm_mem_size(NULL, &a), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_vmm_mem_release(NULL));
  CHECK_ST(jet_vmm_mem_release((jet_vmm_mem)(void *)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_vmm_map(NULL, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_vmm_set_access(NULL, 0, 1, JET_MEM_ACCESS_NONE), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "JET_MEM_ACCESS_READ"));
  CHECK_ST(jet_vmm_set_access(NULL, 0, 0, JET_MEM_ACCESS_READ), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_vmm_set_access(NULL, 0, 1, JET_MEM_ACCESS_READ_WRITE), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_vmm_unmap(NULL, 0), JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_growable_create(NULL, 1, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_growable_create(NULL, 0, 0, &g), JET_STATUS_INVALID_ARGUMENT);
  CHECK(g == NULL);
  CHECK_ST(jet_growable_create(NULL, 10, 11, &g), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "exceed"));
  CHECK_ST(jet_growable_create(NULL, 10, 10, &g), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_growable_grow(NULL, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_growable_get_info(NULL, &gi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_growable_buffer(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_growable_buffer(NULL, &buf), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_growable_destroy(NULL));
  CHECK_ST(jet_growable_destroy((jet_growable)(void *)bogus), JET_STATUS_INVALID_HANDLE);

  /* a device without VMM: refused with the attribute's name, nothing made */
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "orin"));
  CHECK_ST(jet_vmm_granularity(&c, &a, &b), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "VIRTUAL_MEMORY_MANAGEMENT"));
  CHECK_ST(jet_vmm_reserve(&c, 1 << 21, &r), JET_STATUS_UNSUPPORTED);
  CHECK_ST(jet_vmm_mem_create(&c, 1 << 21, &m), JET_STATUS_UNSUPPORTED);
  CHECK_ST(jet_growable_create(&c, 1 << 21, 0, &g), JET_STATUS_UNSUPPORTED);
  CHECK(r == NULL && m == NULL && g == NULL);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}
