/* Shared buffers: argument checks (host), the backing tables (host), and on a
 * GPU every backing the device allows, under the default, desktop and orin
 * policies, with data checked against CPU-computed expectations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "internal.h"
#include "shared_ops.h"

#define CU_OK(call)                                                                 \
  do {                                                                              \
    cudaError_t cu_e_ = (call);                                                     \
    CHECK_MSG(cu_e_ == cudaSuccess, "%s returned %s", #call, cudaGetErrorName(cu_e_)); \
  } while (0)

/* ------------------------------------------------------------------ host */

TEST(badarg_shared_create) {
  jet_shared sb = (jet_shared)(uintptr_t)0x1;
  int bogus[16] = {0};
  CHECK_ST(jet_shared_create(NULL, 16, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_create(NULL, 0, 0, &sb), JET_STATUS_INVALID_ARGUMENT);
  CHECK(sb == NULL);
  CHECK_ST(jet_shared_create(NULL, SIZE_MAX, 0, &sb), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_shared_create(NULL, (size_t)PTRDIFF_MAX + 1, 0, &sb), JET_STATUS_OVERFLOW);
  static const unsigned conflicts[] = {
      JET_SHARED_ZERO_COPY | JET_SHARED_MANAGED, JET_SHARED_ZERO_COPY | JET_SHARED_STAGED,
      JET_SHARED_STAGED | JET_SHARED_MANAGED,
      JET_SHARED_ZERO_COPY | JET_SHARED_STAGED | JET_SHARED_MANAGED};
  for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++) {
    CHECK_ST(jet_shared_create(NULL, 16, conflicts[i], &sb), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "more than one backing") != NULL);
  }
  CHECK_ST(jet_shared_create(NULL, 16, 1u << 9, &sb), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_create(NULL, 16, 0, &sb), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_create((jet_context)bogus, 16, JET_SHARED_STAGED, &sb),
           JET_STATUS_INVALID_HANDLE);
  CHECK(sb == NULL);
  return 0;
}

TEST(badarg_shared_access) {
  int bogus[16] = {0};
  jet_shared fake = (jet_shared)bogus;
  void *p = (void *)(uintptr_t)0x1;
  CHECK_ST(jet_shared_begin_cpu(NULL, NULL, JET_ACCESS_READ, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_begin_gpu(NULL, NULL, JET_ACCESS_READ, NULL), JET_STATUS_INVALID_ARGUMENT);
  static const unsigned bad_access[] = {0u, 4u, JET_ACCESS_READ | 8u, ~0u};
  for (size_t i = 0; i < sizeof bad_access / sizeof bad_access[0]; i++) {
    p = (void *)(uintptr_t)0x1;
    CHECK_ST(jet_shared_begin_cpu(fake, NULL, bad_access[i], &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK(p == NULL);
    p = (void *)(uintptr_t)0x1;
    CHECK_ST(jet_shared_begin_gpu(fake, NULL, bad_access[i], &p), JET_STATUS_INVALID_ARGUMENT);
    CHECK(p == NULL);
  }
  CHECK_ST(jet_shared_begin_cpu(NULL, NULL, JET_ACCESS_READ, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_begin_gpu(NULL, NULL, JET_ACCESS_WRITE, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_begin_cpu(fake, NULL, JET_ACCESS_READ_WRITE, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_begin_gpu(fake, NULL, JET_ACCESS_READ_WRITE, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_end_cpu(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_end_gpu(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_end_cpu(fake, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_end_gpu(fake, NULL), JET_STATUS_INVALID_HANDLE);
  jet_shared_info info;
  CHECK_ST(jet_shared_get_info(NULL, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_get_info(fake, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_get_info(fake, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_shared_destroy(NULL));
  CHECK_ST(jet_shared_destroy(fake), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(shared_backing_tables_complete) {
  const jet__shared_ops *seen[3] = {NULL, NULL, NULL};
  for (int b = 0; b < 3; b++) {
    const jet__shared_ops *ops = jet__shared_ops_for((jet_shared_backing)b);
    CHECK_MSG(ops != NULL, "backing %d has no table", b);
    CHECK(ops->backing == (jet_shared_backing)b && ops->name && ops->name[0]);
    CHECK_MSG(ops->alloc && ops->release && ops->begin_cpu && ops->end_cpu && ops->begin_gpu &&
                  ops->end_gpu,
              "backing %d: a slot is empty", b);
    for (int j = 0; j < b; j++) CHECK(seen[j] != ops);
    seen[b] = ops;
  }
  CHECK(jet__shared_ops_for((jet_shared_backing)3) == NULL);
  CHECK(jet__shared_ops_for((jet_shared_backing)-1) == NULL);
  /* every policy's default backing has a table */
  static const char *const names[] = {"desktop", "xavier", "orin", "thor"};
  jet_platform_info dev = jt_fake_device(0, 9, 0);
  for (size_t i = 0; i < 4; i++) {
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, names[i], &p, "test"));
    CHECK_MSG(jet__shared_ops_for(p.policy.shared_backing) != NULL, "%s", names[i]);
  }
  return 0;
}

/* ------------------------------------------------------------------ GPU helpers */

/* A non-blocking stream: hand-overs between streams that do not order each
 * other are what the shared buffer's events must get right. */
static int make_stream(jet_context ctx, jet_stream *s) {
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING, 0};
  return jet_stream_create(ctx, &d, s) == JET_STATUS_OK;
}

static size_t first_diff(const unsigned char *a, const unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return i;
  return n;
}

#define CHECK_SAME(got, want, n)                                                        \
  do {                                                                                  \
    size_t at_ = first_diff((const unsigned char *)(got), (const unsigned char *)(want), (n)); \
    CHECK_MSG(at_ == (n), "byte %zu of %zu differs: got 0x%02x want 0x%02x", at_, (size_t)(n), \
              ((const unsigned char *)(got))[at_], ((const unsigned char *)(want))[at_]); \
  } while (0)

/* Copy the GPU view into @tmp through a poisoned device scratch buffer, on @sg. */
static int gpu_read_back(jet_shared sb, jet_stream sg, unsigned char *scratch, unsigned char *tmp,
                         size_t n) {
  void *d = NULL;
  CU_OK(cudaMemsetAsync(scratch, 0xA5, n, sg->cu));
  CHECK_OK(jet_shared_begin_gpu(sb, sg, JET_ACCESS_READ, &d));
  CHECK(d != NULL);
  CU_OK(cudaMemcpyAsync(scratch, d, n, cudaMemcpyDefault, sg->cu));
  CHECK_OK(jet_shared_end_gpu(sb, sg));
  CU_OK(cudaStreamSynchronize(sg->cu));
  memset(tmp, 0x5A, n);
  CU_OK(cudaMemcpy(tmp, scratch, n, cudaMemcpyDeviceToHost));
  return 0;
}

/* The CPU writes, the GPU transforms, the CPU checks, edits part, the GPU
 * reads, the CPU rewrites: every hand-over direction, with @sc for the CPU
 * accesses and @sg for the GPU ones. */
static int roundtrip(jet_shared sb, jet_stream sg, jet_stream sc) {
  jet_shared_info info;
  CHECK_OK(jet_shared_get_info(sb, &info));
  size_t n = info.bytes;
  CHECK(n >= 1024);
  unsigned char *expect = malloc(n), *tmp = malloc(n), *h = NULL, *scratch = NULL;
  void *d = NULL;
  CHECK(expect && tmp);
  CU_OK(cudaMalloc((void **)&scratch, n));
  CU_OK(cudaMemset(scratch, 0xA5, n));
  cudaStream_t cg = sg->cu;

  /* 1. The CPU fills the buffer (write-only: nothing is fetched). */
  CHECK_OK(jet_shared_begin_cpu(sb, sc, JET_ACCESS_WRITE, (void **)&h));
  CHECK(h != NULL);
  jt_fill_random(expect, n);
  memcpy(h, expect, n);
  CHECK_OK(jet_shared_end_cpu(sb, sc));

  /* 2. The GPU rotates it by k through scratch and overwrites [a, a+len) with v. */
  size_t k = 1 + jt_rand() % (n - 1), a = jt_rand() % (n / 2), len = 1 + jt_rand() % (n / 4);
  int v = (int)(jt_rand() & 0xff);
  CHECK_OK(jet_shared_begin_gpu(sb, sg, JET_ACCESS_READ_WRITE, &d));
  CHECK(d != NULL);
  CU_OK(cudaMemcpyAsync(scratch + k, d, n - k, cudaMemcpyDefault, cg));
  CU_OK(cudaMemcpyAsync(scratch, (unsigned char *)d + (n - k), k, cudaMemcpyDefault, cg));
  CU_OK(cudaMemsetAsync(scratch + a, v, len, cg));
  CU_OK(cudaMemcpyAsync(d, scratch, n, cudaMemcpyDefault, cg));
  CHECK_OK(jet_shared_end_gpu(sb, sg));
  for (size_t i = 0; i < n; i++) tmp[(i + k) % n] = expect[i];
  memset(tmp + a, v, len);
  memcpy(expect, tmp, n);

  /* 3. The CPU sees the GPU's result. */
  CHECK_OK(jet_shared_begin_cpu(sb, sc, JET_ACCESS_READ, (void **)&h));
  CHECK_SAME(h, expect, n);
  CHECK_OK(jet_shared_end_cpu(sb, sc));

  /* 4. The CPU edits part of it in place. */
  CHECK_OK(jet_shared_begin_cpu(sb, sc, JET_ACCESS_READ_WRITE, (void **)&h));
  CHECK_SAME(h, expect, n);
  size_t b = jt_rand() % (n / 2), blen = 1 + jt_rand() % (n / 2);
  unsigned char x = (unsigned char)(1 + jt_rand() % 255);
  for (size_t i = b; i < b + blen; i++) {
    h[i] ^= x;
    expect[i] ^= x;
  }
  CHECK_OK(jet_shared_end_cpu(sb, sc));

  /* 5. The GPU sees the edit. */
  if (gpu_read_back(sb, sg, scratch, tmp, n)) return 1;
  CHECK_SAME(tmp, expect, n);

  /* 6. After a read-only GPU access the CPU still reads the same data. */
  CHECK_OK(jet_shared_begin_cpu(sb, sc, JET_ACCESS_READ, (void **)&h));
  CHECK_SAME(h, expect, n);
  CHECK_OK(jet_shared_end_cpu(sb, sc));

  /* 7. A write-only rewrite reaches the GPU. */
  CHECK_OK(jet_shared_begin_cpu(sb, sc, JET_ACCESS_WRITE, (void **)&h));
  jt_fill_random(expect, n);
  memcpy(h, expect, n);
  CHECK_OK(jet_shared_end_cpu(sb, sc));
  if (gpu_read_back(sb, sg, scratch, tmp, n)) return 1;
  CHECK_SAME(tmp, expect, n);

  /* Staged copies only when data moved: uploads after 1, 4 and 7, one read-back at 3. */
  CHECK_OK(jet_shared_get_info(sb, &info));
  unsigned long long want = info.backing == JET_SHARED_BACKING_DEVICE_STAGED ? 4 : 0;
  CHECK_MSG(info.transfers == want, "%s: %llu transfers, expected %llu",
            jet__shared_ops_for(info.backing)->name, info.transfers, want);
  CHECK(info.open_cpu_access == 0 && info.open_gpu_access == 0);
  CU_OK(cudaFree(scratch));
  free(expect);
  free(tmp);
  return 0;
}

static size_t test_size(void) { return ((size_t)1 << 20) + 1 + jt_rand() % 65536; }

/* Create a buffer on a context with @platform forced (NULL: default), check
 * the backing is @want (-1: the policy's), and run the round trip. */
static int run_config(const char *platform, unsigned flags, int want, jet_default_stream cpu_kind,
                      int same_stream, int want_prefetch) {
  jet_context_desc desc = {0, 0, platform};
  jet_context ctx;
  CHECK_OK(jet_context_create(&ctx, &desc));
  jet_platform_info pi;
  jet_policy pol;
  CHECK_OK(jet_context_platform(ctx, &pi));
  CHECK_OK(jet_context_policy(ctx, &pol));
  jet_shared_backing backing = want < 0 ? pol.shared_backing : (jet_shared_backing)want;
  size_t n = test_size();
  jet_shared sb = NULL;
  jet_status st = jet_shared_create(ctx, n, flags, &sb);
  if ((backing == JET_SHARED_BACKING_MAPPED_HOST && !pi.can_map_host_memory) ||
      (backing == JET_SHARED_BACKING_MANAGED && !pi.managed_memory)) {
    CHECK_ST(st, JET_STATUS_UNSUPPORTED);
    CHECK(sb == NULL && jet_last_error()->hint[0] != '\0');
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the device lacks this backing (refused with UNSUPPORTED as it should)");
  }
  CHECK_OK(st);
  jet_shared_info info;
  CHECK_OK(jet_shared_get_info(sb, &info));
  CHECK_MSG(info.backing == backing, "policy %s flags 0x%x: backing %d, expected %d", pol.name,
            flags, (int)info.backing, (int)backing);
  CHECK(info.bytes == n && info.flags == flags && info.transfers == 0);
  CHECK(info.zero_copy == (backing == JET_SHARED_BACKING_MAPPED_HOST));
  if (backing == JET_SHARED_BACKING_MANAGED && want_prefetch >= 0)
    CHECK_MSG(sb->managed_prefetch == want_prefetch, "policy %s: managed hand-over by %s", pol.name,
              sb->managed_prefetch ? "prefetch" : "stream attach");
  jet_stream own = NULL;
  CHECK(make_stream(ctx, &own));
  jet_stream sc;
  CHECK_OK(jet_context_default_stream(ctx, cpu_kind, &sc));
  jet_stream sg = same_stream ? sc : own;
  fprintf(stderr, "policy %s, %s backing, %zu bytes, %s streams\n", pol.name,
          jet__shared_ops_for(backing)->name, n, same_stream ? "one" : "two");
  if (roundtrip(sb, sg, sc)) return 1;
  CHECK_OK(jet_shared_destroy(sb));
  CHECK_OK(jet_stream_destroy(own));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------------ GPU tests */

TEST(gpu_shared_default_policy_roundtrip) {
  REQUIRE_GPU();
  return run_config(NULL, 0, -1, JET_STREAM_LEGACY, 0, -1);
}

TEST(gpu_shared_orin_policy_is_zero_copy) {
  REQUIRE_GPU();
  return run_config("orin", 0, JET_SHARED_BACKING_MAPPED_HOST, JET_STREAM_PER_THREAD, 0, -1);
}

TEST(gpu_shared_desktop_policy_is_staged) {
  REQUIRE_GPU();
  return run_config("desktop", 0, JET_SHARED_BACKING_DEVICE_STAGED, JET_STREAM_LEGACY, 0, -1);
}

TEST(gpu_shared_zero_copy_flag_on_desktop_policy) {
  REQUIRE_GPU();
  return run_config("desktop", JET_SHARED_ZERO_COPY, JET_SHARED_BACKING_MAPPED_HOST,
                    JET_STREAM_LEGACY, 1, -1);
}

TEST(gpu_shared_staged_flag_on_orin_policy) {
  REQUIRE_GPU();
  return run_config("orin", JET_SHARED_STAGED, JET_SHARED_BACKING_DEVICE_STAGED,
                    JET_STREAM_PER_THREAD, 1, -1);
}

TEST(gpu_shared_staged_flag_default_policy) {
  REQUIRE_GPU();
  return run_config(NULL, JET_SHARED_STAGED, JET_SHARED_BACKING_DEVICE_STAGED, JET_STREAM_LEGACY,
                    0, -1);
}

TEST(gpu_shared_zero_copy_flag_default_policy) {
  REQUIRE_GPU();
  return run_config(NULL, JET_SHARED_ZERO_COPY, JET_SHARED_BACKING_MAPPED_HOST,
                    JET_STREAM_PER_THREAD, 0, -1);
}

TEST(gpu_shared_managed_flag_default_policy) {
  REQUIRE_GPU();
  return run_config(NULL, JET_SHARED_MANAGED, JET_SHARED_BACKING_MANAGED, JET_STREAM_LEGACY, 0, -1);
}

/* The Xavier/Orin hand-over (stream attach) for real on whatever GPU this is. */
TEST(gpu_shared_managed_attach_on_orin_policy) {
  REQUIRE_GPU();
  return run_config("orin", JET_SHARED_MANAGED, JET_SHARED_BACKING_MANAGED, JET_STREAM_LEGACY, 0,
                    0);
}

/* Attaching to the legacy stream must fall back to a global attach. */
TEST(gpu_shared_managed_attach_on_legacy_stream) {
  REQUIRE_GPU();
  return run_config("orin", JET_SHARED_MANAGED, JET_SHARED_BACKING_MANAGED, JET_STREAM_LEGACY, 1,
                    0);
}

TEST(gpu_shared_managed_attach_on_per_thread_stream) {
  REQUIRE_GPU();
  return run_config("xavier", JET_SHARED_MANAGED, JET_SHARED_BACKING_MANAGED,
                    JET_STREAM_PER_THREAD, 1, 0);
}

TEST(gpu_shared_managed_prefetch_on_desktop_policy) {
  REQUIRE_GPU();
  jet_platform_info pi;
  CHECK_OK(jet_device_query(0, &pi));
  /* prefetch needs concurrent managed access; without it attach is used */
  return run_config("desktop", JET_SHARED_MANAGED, JET_SHARED_BACKING_MANAGED, JET_STREAM_LEGACY,
                    0, pi.concurrent_managed_access ? 1 : 0);
}

TEST(gpu_shared_state_machine) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream L, P;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &P));
  size_t n = test_size();
  jet_shared sb;
  CHECK_OK(jet_shared_create(ctx, n, JET_SHARED_STAGED, &sb));
  unsigned char *want = malloc(n), *h;
  CHECK(want);
  jt_fill_random(want, n);
  CHECK_OK(jet_shared_begin_cpu(sb, L, JET_ACCESS_WRITE, (void **)&h));
  memcpy(h, want, n);
  CHECK_OK(jet_shared_end_cpu(sb, L));

  void *p, *q;
  jet_shared_info info;
  CHECK_ST(jet_shared_end_cpu(sb, L), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_shared_end_gpu(sb, L), JET_STATUS_INVALID_STATE);

  /* a CPU access is open */
  CHECK_OK(jet_shared_begin_cpu(sb, L, JET_ACCESS_READ_WRITE, &p));
  q = (void *)(uintptr_t)0x1;
  CHECK_ST(jet_shared_begin_cpu(sb, L, JET_ACCESS_READ, &q), JET_STATUS_INVALID_STATE);
  CHECK(q == NULL);
  CHECK_ST(jet_shared_begin_gpu(sb, L, JET_ACCESS_READ, &q), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_shared_end_gpu(sb, L), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_shared_end_cpu(sb, P), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_destroy(sb), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_shared_get_info(sb, &info));
  CHECK(info.open_cpu_access == JET_ACCESS_READ_WRITE && info.open_gpu_access == 0);
  CHECK_SAME(p, want, n);
  CHECK_OK(jet_shared_end_cpu(sb, L));
  CHECK_ST(jet_shared_end_cpu(sb, L), JET_STATUS_INVALID_STATE);

  /* a GPU access is open */
  CHECK_OK(jet_shared_begin_gpu(sb, P, JET_ACCESS_READ, &p));
  CHECK_ST(jet_shared_begin_cpu(sb, P, JET_ACCESS_READ, &q), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_shared_begin_gpu(sb, P, JET_ACCESS_READ, &q), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_shared_end_cpu(sb, P), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_shared_end_gpu(sb, L), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_destroy(sb), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_shared_get_info(sb, &info));
  CHECK(info.open_gpu_access == JET_ACCESS_READ && info.open_cpu_access == 0);
  CHECK_OK(jet_shared_end_gpu(sb, P));
  CHECK_ST(jet_shared_end_gpu(sb, P), JET_STATUS_INVALID_STATE);

  /* bad arguments on a live buffer open nothing */
  CHECK_ST(jet_shared_begin_cpu(sb, L, 0, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_begin_gpu(sb, L, 4, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_begin_cpu(sb, NULL, JET_ACCESS_READ, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_begin_gpu(sb, (jet_stream)sb, JET_ACCESS_READ, &p),
           JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_shared_get_info(sb, &info));
  CHECK(info.open_cpu_access == 0 && info.open_gpu_access == 0);

  /* none of the refused calls changed the contents */
  CHECK_OK(jet_shared_begin_cpu(sb, P, JET_ACCESS_READ, (void **)&h));
  CHECK_SAME(h, want, n);
  CHECK_OK(jet_shared_end_cpu(sb, P));
  CHECK_OK(jet_shared_destroy(sb));
  free(want);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_shared_destroyed_and_foreign) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_stream sa, sb_stream;
  CHECK_OK(jet_context_default_stream(a, JET_STREAM_LEGACY, &sa));
  CHECK_OK(jet_context_default_stream(b, JET_STREAM_LEGACY, &sb_stream));
  jet_shared sb = (jet_shared)(uintptr_t)0x1;
  CHECK_ST(jet_shared_create(a, 0, 0, &sb), JET_STATUS_INVALID_ARGUMENT);
  CHECK(sb == NULL);
  CHECK_ST(jet_shared_create(a, SIZE_MAX, 0, &sb), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_shared_create(a, 4096, JET_SHARED_MANAGED | JET_SHARED_ZERO_COPY, &sb),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_shared_create(a, 4096, 0, &sb));

  /* a stream of another context */
  void *p;
  CHECK_ST(jet_shared_begin_cpu(sb, sb_stream, JET_ACCESS_READ, &p), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_shared_begin_gpu(sb, sb_stream, JET_ACCESS_READ, &p), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_shared_begin_cpu(sb, sa, JET_ACCESS_READ, &p));
  CHECK_ST(jet_shared_end_cpu(sb, sb_stream), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_shared_end_cpu(sb, sa));

  /* the context refuses to go while the buffer lives */
  CHECK_ST(jet_context_destroy(a), JET_STATUS_INVALID_STATE);

  /* a destroyed buffer is detected, not used */
  CHECK_OK(jet_shared_destroy(sb));
  jet_shared_info info;
  CHECK_ST(jet_shared_get_info(sb, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_begin_cpu(sb, sa, JET_ACCESS_READ, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_begin_gpu(sb, sa, JET_ACCESS_READ, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_end_cpu(sb, sa), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_end_gpu(sb, sa), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_shared_destroy(sb), JET_STATUS_INVALID_HANDLE);

  CHECK_OK(jet_context_destroy(b));
  CHECK_OK(jet_context_destroy(a));
  /* a destroyed context */
  CHECK_ST(jet_shared_create(a, 4096, 0, &sb), JET_STATUS_INVALID_HANDLE);
  CHECK(sb == NULL);
  return 0;
}

TEST(gpu_shared_alloc_failure_reports_sizes) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  size_t ask = pi.total_memory * 4;
  CHECK(ask / 4 == pi.total_memory && ask <= (size_t)PTRDIFF_MAX);
  jet_shared sb = (jet_shared)(uintptr_t)0x1;
  CHECK_ST(jet_shared_create(ctx, ask, JET_SHARED_STAGED, &sb), JET_STATUS_OUT_OF_MEMORY);
  CHECK(sb == NULL);
  const jet_error_info *e = jet_last_error();
  char num[32];
  snprintf(num, sizeof num, "%zu", ask);
  CHECK_MSG(strcmp(e->native_call, "cudaMalloc") == 0, "native call %s", e->native_call);
  CHECK_MSG(strstr(e->message, num) && strstr(e->message, "free"), "message: %s", e->message);
  CHECK(strcmp(e->function, "jet_shared_create") == 0 && e->hint[0]);
  /* nothing is left behind: a normal buffer works and the context goes */
  CHECK_OK(jet_shared_create(ctx, 4096, JET_SHARED_STAGED, &sb));
  CHECK_OK(jet_shared_destroy(sb));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Create, use and destroy @count buffers of one backing. */
static int cycle(jet_context ctx, jet_stream L, unsigned kind, const unsigned char *dbytes,
                 int count) {
  for (int i = 0; i < count; i++) {
    size_t n = ((size_t)64 << 10) + jt_rand() % ((size_t)1 << 20);
    jet_shared sb;
    CHECK_OK(jet_shared_create(ctx, n, kind, &sb));
    void *p;
    unsigned char *h;
    CHECK_OK(jet_shared_begin_cpu(sb, L, JET_ACCESS_WRITE, (void **)&h));
    h[0] = (unsigned char)i;
    h[n - 1] = (unsigned char)~i;
    CHECK_OK(jet_shared_end_cpu(sb, L));
    CHECK_OK(jet_shared_begin_gpu(sb, L, JET_ACCESS_READ_WRITE, &p));
    CU_OK(cudaMemcpyAsync(p, dbytes + (i & 0xff), 1, cudaMemcpyDefault, cudaStreamLegacy));
    CHECK_OK(jet_shared_end_gpu(sb, L));
    if (i % 3 == 0) {
      CHECK_OK(jet_shared_begin_cpu(sb, L, JET_ACCESS_READ, (void **)&h));
      CHECK(h[0] == (unsigned char)(i & 0xff) && h[n - 1] == (unsigned char)~i);
      CHECK_OK(jet_shared_end_cpu(sb, L));
    }
    CHECK_OK(jet_shared_destroy(sb)); /* right after end_gpu: destroy waits */
  }
  return 0;
}

/* A leak grows with the number of buffers; the driver's own pools (page tables
 * for mapped and managed memory) grow at first and then level off. So each
 * backing is warmed up first and only a second window is measured. */
TEST(gpu_shared_leak_1000_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  unsigned kinds[3];
  int nk = 0;
  kinds[nk++] = JET_SHARED_STAGED;
  if (pi.can_map_host_memory) kinds[nk++] = JET_SHARED_ZERO_COPY;
  if (pi.managed_memory) kinds[nk++] = JET_SHARED_MANAGED;
  jet_stream L;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L));
  /* GPU writes come from device memory: bytes[v] == v */
  unsigned char bytes[256], *dbytes = NULL;
  for (int i = 0; i < 256; i++) bytes[i] = (unsigned char)i;
  CU_OK(cudaMalloc((void **)&dbytes, sizeof bytes));
  CU_OK(cudaMemcpy(dbytes, bytes, sizeof bytes, cudaMemcpyHostToDevice));
  int rc = 0;
  for (int k = 0; k < nk && rc == 0; k++) {
    size_t before = 0, after = 0;
    rc = cycle(ctx, L, kinds[k], dbytes, 300);
    if (rc) break;
    CU_OK(cudaDeviceSynchronize());
    CHECK_OK(jet_context_mem_info(ctx, &before, NULL));
    rc = cycle(ctx, L, kinds[k], dbytes, 1000);
    if (rc) break;
    CU_OK(cudaDeviceSynchronize());
    CHECK_OK(jet_context_mem_info(ctx, &after, NULL));
    fprintf(stderr, "backing flag 0x%x: free memory %zu -> %zu over 1000 buffers\n", kinds[k],
            before, after);
    /* Managed memory: the driver's UVM pools move free memory by tens of MiB
     * either way (on an H100: -88, -8, -56 MiB over three windows, and a raw
     * cudaMallocManaged loop without jetrt -48, +32, -16 MiB). Leaking these
     * buffers would lose about 560 MiB per 1000, far above either margin. */
    size_t margin = (size_t)(kinds[k] == JET_SHARED_MANAGED ? 160 : 16) << 20;
    if (after + margin < before) {
      fprintf(stderr, "free memory fell by %zu bytes after warm-up: a leak\n", before - after);
      rc = 1;
    }
  }
  CU_OK(cudaFree(dbytes));
  CHECK_OK(jet_context_destroy(ctx));
  return rc;
}
