/* Managed-memory advice on a GPU: each advice set and read back through the
 * range query, prefetch of whole buffers and of ranges, data written by the
 * CPU and checked by kernels (tests/kernels/managed_ops.cu) and the other way
 * round, and the Tegra stream-attach hand-over. Every test reads the policy in
 * force (the suite also runs with JET_PLATFORM=orin) and expects the
 * documented outcome: under Orin's policy, or on a device without concurrent
 * managed access, read-mostly is a no-op, location advice and prefetch are
 * refused with JET_STATUS_UNSUPPORTED, and queries report nothing set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "jet-tests_kernels.h"

#define MiB ((size_t)1 << 20)

typedef struct mctx {
  jet_context ctx;
  jet_platform_info pi;
  jet_policy pol;
  jet_stream s;
  jet_module mod;
  jet_kernel affine, xor_k;
  int prefetch_ok; /* what jetrt/memory.h documents, from public facts only */
  int advice_ok;
} mctx;

static void m_close(mctx *m) {
  if (m->s) jet_stream_destroy(m->s);
  if (m->mod) jet_module_destroy(m->mod);
  if (m->ctx) jet_context_destroy(m->ctx);
}

/* 0 on success, TEST_SKIP without managed memory, 1 on failure. */
static int m_open(mctx *m) {
  memset(m, 0, sizeof *m);
  CHECK_OK(jt_context(&m->ctx, 0));
  CHECK_OK(jet_context_platform(m->ctx, &m->pi));
  CHECK_OK(jet_context_policy(m->ctx, &m->pol));
  if (!m->pi.managed_memory || !m->pol.managed_memory_allowed) {
    m_close(m);
    return TEST_SKIP;
  }
  m->prefetch_ok = m->pol.managed_mode == JET_MANAGED_PREFETCH && m->pi.concurrent_managed_access;
  m->advice_ok = m->prefetch_ok && m->pol.managed_advice;
  fprintf(stderr, "policy %s%s, concurrentManagedAccess %d: prefetch %s, advice %s\n",
          m->pol.name, m->pol.forced ? " (forced)" : "", m->pi.concurrent_managed_access,
          m->prefetch_ok ? "allowed" : "refused", m->advice_ok ? "allowed" : "no-op/refused");
  CHECK_OK(jet_stream_create(m->ctx, NULL, &m->s));
  CHECK_OK(jet_module_load(m->ctx, &jt_images_managed_ops, NULL, &m->mod));
  CHECK_OK(jet_module_kernel(m->mod, "managed_affine", &m->affine));
  CHECK_OK(jet_module_kernel(m->mod, "managed_xor", &m->xor_k));
  return 0;
}

#define OPEN(m)                                                        \
  do {                                                                 \
    int rc_ = m_open(m);                                               \
    if (rc_ == TEST_SKIP) SKIP("no managed memory under this policy"); \
    if (rc_) return rc_;                                               \
  } while (0)

static jet_status managed(mctx *m, size_t bytes, unsigned flags, jet_buffer *b, unsigned **p) {
  jet_buffer_desc d = {JET_MEMORY_MANAGED, flags, bytes, 0, 0};
  jet_status st = jet_buffer_create(m->ctx, &d, b);
  if (st == JET_STATUS_OK) st = jet_buffer_host_ptr(*b, (void **)p);
  return st;
}

/* Offset into @p that is @a-aligned in the address space (a power of two). */
static size_t align_off(const void *p, size_t a) {
  uintptr_t u = (uintptr_t)p;
  return (size_t)(((u + a - 1) & ~(uintptr_t)(a - 1)) - u);
}

static jet_status launch_affine(mctx *m, jet_stream s, unsigned *in, unsigned *out, unsigned n,
                                unsigned a, unsigned b) {
  void *args[] = {&in, &out, &n, &a, &b};
  jet_dim3 grid = {(n + 255) / 256, 1, 1}, block = {256, 1, 1};
  return jet_launch(s, m->affine, grid, block, 0, args);
}

static jet_status launch_xor(mctx *m, jet_stream s, unsigned *p, unsigned n, unsigned key) {
  void *args[] = {&p, &n, &key};
  jet_dim3 grid = {(n + 255) / 256, 1, 1}, block = {256, 1, 1};
  return jet_launch(s, m->xor_k, grid, block, 0, args);
}

static int check_affine(const unsigned *in, const unsigned *out, size_t n, unsigned a, unsigned b,
                        const char *what) {
  for (size_t i = 0; i < n; i++)
    CHECK_MSG(out[i] == in[i] * a + b,
              "%s: n %zu, index %zu: expected %u (in %u * %u + %u), got %u (seed printed above)",
              what, n, i, in[i] * a + b, in[i], a, b, out[i]);
  return 0;
}

static int is_gpu(jet_managed_location l, int dev) {
  return l.processor == JET_PROCESSOR_GPU && l.device == dev;
}

static const char *loc_str(jet_managed_location l, char *buf, size_t n) {
  if (l.processor == JET_PROCESSOR_GPU) snprintf(buf, n, "GPU %d", l.device);
  else if (l.processor == JET_PROCESSOR_CPU) snprintf(buf, n, "CPU");
  else snprintf(buf, n, "none");
  return buf;
}

/* ------------------------------------------------------------ advice read back */

TEST(gpu_managed_advice_read_mostly_round_trip) {
  REQUIRE_GPU();
  mctx m;
  OPEN(&m);
  jet_buffer b;
  unsigned *p;
  size_t size = 8 * MiB + 4096 * 3 + 5; /* odd size: the tail page is partial */
  CHECK_OK(managed(&m, size, 0, &b, &p));
  size_t o = align_off(p, 2 * MiB);
  jet_managed_range_info ri;
  CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
  CHECK_MSG(ri.read_mostly == 0, "fresh buffer reads as read-mostly");

  CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE));
  CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
  CHECK_MSG(ri.read_mostly == m.advice_ok, "whole buffer: read_mostly %d, expected %d",
            ri.read_mostly, m.advice_ok);
  CHECK_OK(jet_managed_range_query(b, size - 1, 1, &ri));
  CHECK_MSG(ri.read_mostly == m.advice_ok, "last byte: read_mostly %d", ri.read_mostly);
  CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_UNSET_READ_MOSTLY, JET_PROCESSOR_NONE));
  CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
  CHECK_MSG(ri.read_mostly == 0, "after unset: read_mostly %d", ri.read_mostly);

  /* part of the buffer: the part reads as set, the whole as not */
  CHECK_OK(jet_managed_advise(b, o, 2 * MiB, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE));
  CHECK_OK(jet_managed_range_query(b, o, 2 * MiB, &ri));
  CHECK_MSG(ri.read_mostly == m.advice_ok, "range [%zu, +2 MiB): read_mostly %d", o,
            ri.read_mostly);
  CHECK_OK(jet_managed_range_query(b, o + 4096, 8192, &ri));
  CHECK_MSG(ri.read_mostly == m.advice_ok, "inner range: read_mostly %d", ri.read_mostly);
  CHECK_OK(jet_managed_range_query(b, o + 2 * MiB, 4096, &ri));
  CHECK_MSG(ri.read_mostly == 0, "page after the range: read_mostly %d", ri.read_mostly);
  CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
  CHECK_MSG(ri.read_mostly == 0, "whole buffer after a partial set: read_mostly %d",
            ri.read_mostly);
  CHECK_OK(jet_buffer_destroy(b));
  m_close(&m);
  return 0;
}

TEST(gpu_managed_advice_preferred_location_round_trip) {
  REQUIRE_GPU();
  mctx m;
  OPEN(&m);
  jet_buffer b;
  unsigned *p;
  size_t size = 6 * MiB + 12345;
  CHECK_OK(managed(&m, size, 0, &b, &p));
  size_t o = align_off(p, 2 * MiB);
  jet_managed_range_info ri;
  char t[32];
  CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
  CHECK_MSG(ri.preferred.processor == JET_PROCESSOR_NONE, "fresh: preferred %s",
            loc_str(ri.preferred, t, sizeof t));
  if (!m.advice_ok) {
    static const jet_processor w[] = {JET_PROCESSOR_GPU, JET_PROCESSOR_CPU};
    for (int i = 0; i < 2; i++) {
      CHECK_ST(jet_managed_advise(b, 0, size, JET_ADVISE_PREFERRED_LOCATION, w[i]),
               JET_STATUS_UNSUPPORTED);
      CHECK_MSG(jet_last_error()->hint[0] != '\0', "refusal without a hint");
    }
    CHECK_ST(jet_managed_advise(b, 0, size, JET_ADVISE_UNSET_PREFERRED_LOCATION,
                                JET_PROCESSOR_NONE),
             JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(ri.preferred.processor == JET_PROCESSOR_NONE, "after refusals: preferred %s",
              loc_str(ri.preferred, t, sizeof t));
  } else {
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_PREFERRED_LOCATION, JET_PROCESSOR_GPU));
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(is_gpu(ri.preferred, m.pi.device), "GPU: preferred %s",
              loc_str(ri.preferred, t, sizeof t));
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_PREFERRED_LOCATION, JET_PROCESSOR_CPU));
    CHECK_OK(jet_managed_range_query(b, 7, 100, &ri));
    CHECK_MSG(ri.preferred.processor == JET_PROCESSOR_CPU && ri.preferred.device == -1,
              "CPU: preferred %s", loc_str(ri.preferred, t, sizeof t));
    /* GPU on one aligned 2 MiB range: the range says GPU, the whole says none (mixed) */
    CHECK_OK(jet_managed_advise(b, o, 2 * MiB, JET_ADVISE_PREFERRED_LOCATION, JET_PROCESSOR_GPU));
    CHECK_OK(jet_managed_range_query(b, o, 2 * MiB, &ri));
    CHECK_MSG(is_gpu(ri.preferred, m.pi.device), "range: preferred %s",
              loc_str(ri.preferred, t, sizeof t));
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(ri.preferred.processor == JET_PROCESSOR_NONE, "mixed: preferred %s",
              loc_str(ri.preferred, t, sizeof t));
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_UNSET_PREFERRED_LOCATION,
                                JET_PROCESSOR_NONE));
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(ri.preferred.processor == JET_PROCESSOR_NONE, "unset: preferred %s",
              loc_str(ri.preferred, t, sizeof t));
  }
  CHECK_OK(jet_buffer_destroy(b));
  m_close(&m);
  return 0;
}

static int accessed_by_gpu(const jet_managed_range_info *ri, int dev) {
  for (int i = 0; i < ri->accessed_by_count; i++)
    if (is_gpu(ri->accessed_by[i], dev)) return 1;
  return 0;
}

TEST(gpu_managed_advice_accessed_by_round_trip) {
  REQUIRE_GPU();
  mctx m;
  OPEN(&m);
  jet_buffer b;
  unsigned *p;
  size_t size = 3 * MiB + 1;
  CHECK_OK(managed(&m, size, 0, &b, &p));
  jet_managed_range_info ri;
  CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
  CHECK_MSG(ri.accessed_by_count == 0, "fresh: %d accessed-by entries", ri.accessed_by_count);
  if (!m.advice_ok) {
    CHECK_ST(jet_managed_advise(b, 0, size, JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_GPU),
             JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet_managed_advise(b, 0, size, JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_CPU),
             JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet_managed_advise(b, 0, size, JET_ADVISE_UNSET_ACCESSED_BY, JET_PROCESSOR_GPU),
             JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(ri.accessed_by_count == 0, "after refusals: %d entries", ri.accessed_by_count);
  } else {
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_GPU));
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(accessed_by_gpu(&ri, m.pi.device), "GPU %d missing from %d accessed-by entries",
              m.pi.device, ri.accessed_by_count);
    CHECK_OK(jet_managed_range_query(b, size / 2, 1, &ri));
    CHECK_MSG(accessed_by_gpu(&ri, m.pi.device), "GPU missing on a one-byte range");
    /* The CPU: CUDA accepts it; whether the legacy list names it is not documented. */
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_CPU));
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK(accessed_by_gpu(&ri, m.pi.device));
    fprintf(stderr, "accessed-by after GPU and CPU: %d entries\n", ri.accessed_by_count);
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_UNSET_ACCESSED_BY, JET_PROCESSOR_CPU));
    CHECK_OK(jet_managed_advise(b, 0, size, JET_ADVISE_UNSET_ACCESSED_BY, JET_PROCESSOR_GPU));
    CHECK_OK(jet_managed_range_query(b, 0, size, &ri));
    CHECK_MSG(!accessed_by_gpu(&ri, m.pi.device) && ri.accessed_by_count == 0,
              "after unset: %d entries", ri.accessed_by_count);
  }
  CHECK_OK(jet_buffer_destroy(b));
  m_close(&m);
  return 0;
}

/* ------------------------------------------------------------ prefetch and data */

/* CPU writes, (prefetch or hand-over), kernel reads and writes, (prefetch or
 * hand-over back), CPU checks: at odd sizes, with read-mostly advice on the
 * input, and the input written again by the CPU between two kernels. */
TEST(gpu_managed_advice_prefetch_data_correctness) {
  REQUIRE_GPU();
  mctx m;
  OPEN(&m);
  static const size_t sizes[] = {1, 6, 4097, (1u << 20) + 1};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
    size_t n = sizes[z], bytes = n * sizeof(unsigned);
    jet_buffer bi, bo;
    unsigned *in, *out;
    CHECK_OK(managed(&m, bytes, 0, &bi, &in));
    CHECK_OK(managed(&m, bytes, 0, &bo, &out));
    jt_fill_random(in, bytes);
    memset(out, 0xa5, bytes);
    unsigned a = jt_rand() | 1u, c = jt_rand();
    CHECK_OK(jet_managed_advise(bi, 0, bytes, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE));
    if (m.prefetch_ok) {
      CHECK_OK(jet_managed_prefetch_range(m.s, bi, 0, bytes, JET_PROCESSOR_GPU));
      CHECK_OK(jet_managed_prefetch_range(m.s, bo, 0, bytes, JET_PROCESSOR_GPU));
      /* The attribute records the request; wait so the query cannot race it. */
      CHECK_OK(jet_stream_synchronize(m.s));
      jet_managed_range_info ri;
      char t[32];
      CHECK_OK(jet_managed_range_query(bo, 0, bytes, &ri));
      CHECK_MSG(is_gpu(ri.last_prefetch, m.pi.device), "n %zu: out last prefetch %s", n,
                loc_str(ri.last_prefetch, t, sizeof t));
    } else {
      CHECK_ST(jet_managed_prefetch_range(m.s, bi, 0, bytes, JET_PROCESSOR_GPU),
               JET_STATUS_UNSUPPORTED);
      CHECK_OK(jet_managed_make_available(m.s, bi, JET_PROCESSOR_GPU));
      CHECK_OK(jet_managed_make_available(m.s, bo, JET_PROCESSOR_GPU));
    }
    CHECK_OK(launch_affine(&m, m.s, in, out, (unsigned)n, a, c));
    if (m.prefetch_ok) {
      CHECK_OK(jet_managed_prefetch_range(m.s, bo, 0, bytes, JET_PROCESSOR_CPU));
      CHECK_OK(jet_stream_synchronize(m.s));
      jet_managed_range_info ri;
      char t[32];
      CHECK_OK(jet_managed_range_query(bo, 0, bytes, &ri));
      CHECK_MSG(ri.last_prefetch.processor == JET_PROCESSOR_CPU, "n %zu: out last prefetch %s",
                n, loc_str(ri.last_prefetch, t, sizeof t));
    } else {
      CHECK_OK(jet_managed_make_available(m.s, bo, JET_PROCESSOR_CPU));
      CHECK_OK(jet_managed_make_available(m.s, bi, JET_PROCESSOR_CPU));
    }
    if (check_affine(in, out, n, a, c, "first kernel")) return 1;

    /* The CPU writes the read-mostly input again: the GPU must see the new data. */
    jt_fill_random(in, bytes);
    memset(out, 0x5a, bytes);
    a = jt_rand() | 1u;
    c = jt_rand();
    CHECK_OK(jet_managed_make_available(m.s, bi, JET_PROCESSOR_GPU));
    CHECK_OK(jet_managed_make_available(m.s, bo, JET_PROCESSOR_GPU));
    CHECK_OK(launch_affine(&m, m.s, in, out, (unsigned)n, a, c));
    CHECK_OK(jet_managed_make_available(m.s, bo, JET_PROCESSOR_CPU));
    CHECK_OK(jet_managed_make_available(m.s, bi, JET_PROCESSOR_CPU));
    if (check_affine(in, out, n, a, c, "after the CPU rewrote the read-mostly input")) return 1;
    CHECK_OK(jet_buffer_destroy(bi));
    CHECK_OK(jet_buffer_destroy(bo));
  }
  m_close(&m);
  return 0;
}

/* Two aligned 2 MiB ranges prefetched to different places: each range reports
 * its own last prefetch location, the pair reports none; a kernel then changes
 * every element in place and the CPU checks them all. */
TEST(gpu_managed_advice_prefetch_ranges) {
  REQUIRE_GPU();
  mctx m;
  OPEN(&m);
  size_t bytes = 8 * MiB + 4 * 1001;
  jet_buffer b;
  unsigned *p;
  CHECK_OK(managed(&m, bytes, 0, &b, &p));
  size_t n = bytes / sizeof(unsigned);
  unsigned *ref = malloc(bytes);
  CHECK(ref);
  jt_fill_random(p, bytes);
  memcpy(ref, p, bytes);
  size_t o = align_off(p, 2 * MiB);
  jet_managed_range_info ri;
  char t[32];
  if (m.prefetch_ok) {
    CHECK_OK(jet_managed_prefetch_range(m.s, b, o, 2 * MiB, JET_PROCESSOR_GPU));
    CHECK_OK(jet_managed_prefetch_range(m.s, b, o + 2 * MiB, 2 * MiB, JET_PROCESSOR_CPU));
    CHECK_OK(jet_stream_synchronize(m.s));
    CHECK_OK(jet_managed_range_query(b, o, 2 * MiB, &ri));
    CHECK_MSG(is_gpu(ri.last_prefetch, m.pi.device), "first range: %s",
              loc_str(ri.last_prefetch, t, sizeof t));
    CHECK_OK(jet_managed_range_query(b, o + 2 * MiB, 2 * MiB, &ri));
    CHECK_MSG(ri.last_prefetch.processor == JET_PROCESSOR_CPU, "second range: %s",
              loc_str(ri.last_prefetch, t, sizeof t));
    CHECK_OK(jet_managed_range_query(b, o, 4 * MiB, &ri));
    CHECK_MSG(ri.last_prefetch.processor == JET_PROCESSOR_NONE, "both ranges: %s",
              loc_str(ri.last_prefetch, t, sizeof t));
  } else {
    CHECK_ST(jet_managed_prefetch_range(m.s, b, o, 2 * MiB, JET_PROCESSOR_GPU),
             JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet_managed_prefetch_range(m.s, b, o + 2 * MiB, 2 * MiB, JET_PROCESSOR_CPU),
             JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet_managed_prefetch(m.s, b, JET_PROCESSOR_GPU), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_managed_range_query(b, o, 2 * MiB, &ri));
    CHECK_MSG(ri.last_prefetch.processor == JET_PROCESSOR_NONE, "refused, yet last prefetch %s",
              loc_str(ri.last_prefetch, t, sizeof t));
  }
  CHECK_OK(jet_managed_make_available(m.s, b, JET_PROCESSOR_GPU));
  unsigned key = jt_rand() | 0x80000001u;
  CHECK_OK(launch_xor(&m, m.s, p, (unsigned)n, key));
  CHECK_OK(jet_managed_make_available(m.s, b, JET_PROCESSOR_CPU));
  for (size_t i = 0; i < n; i++)
    CHECK_MSG(p[i] == (ref[i] ^ key), "index %zu of %zu: expected %u, got %u (key %u)", i, n,
              ref[i] ^ key, p[i], key);
  free(ref);
  CHECK_OK(jet_buffer_destroy(b));
  m_close(&m);
  return 0;
}

/* ------------------------------------------------------------ stream attach */

/* The Tegra pattern, on every platform: allocate host-attached, the CPU fills,
 * attach to one stream, a kernel runs, attach back to the host, the CPU reads;
 * then global attach and the legacy stream. */
TEST(gpu_managed_advice_stream_attach_pattern) {
  REQUIRE_GPU();
  mctx m;
  OPEN(&m);
  static const size_t sizes[] = {1, 3 * 2, 65537};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
    size_t n = sizes[z], bytes = n * sizeof(unsigned);
    jet_buffer bi, bo;
    unsigned *in, *out;
    CHECK_OK(managed(&m, bytes, JET_MEM_ATTACH_HOST, &bi, &in));
    CHECK_OK(managed(&m, bytes, JET_MEM_ATTACH_HOST, &bo, &out));
    jt_fill_random(in, bytes);
    memset(out, 0xa5, bytes);
    unsigned a = jt_rand() | 1u, c = jt_rand();
    CHECK_OK(jet_managed_attach(m.s, bi, JET_ATTACH_SINGLE));
    CHECK_OK(jet_managed_attach(m.s, bo, JET_ATTACH_SINGLE));
    CHECK_OK(launch_affine(&m, m.s, in, out, (unsigned)n, a, c));
    CHECK_OK(jet_managed_attach(m.s, bo, JET_ATTACH_HOST));
    CHECK_OK(jet_managed_attach(m.s, bi, JET_ATTACH_HOST));
    CHECK_OK(jet_stream_synchronize(m.s));
    if (check_affine(in, out, n, a, c, "single-stream attach")) return 1;

    jet_stream legacy;
    CHECK_OK(jet_context_default_stream(m.ctx, JET_STREAM_LEGACY, &legacy));
    memset(out, 0x5a, bytes);
    CHECK_OK(jet_managed_attach(legacy, bi, JET_ATTACH_GLOBAL));
    CHECK_OK(jet_managed_attach(legacy, bo, JET_ATTACH_GLOBAL));
    CHECK_OK(launch_affine(&m, legacy, in, out, (unsigned)n, c, a));
    CHECK_OK(jet_stream_synchronize(legacy));
    CHECK_OK(jet_context_synchronize(m.ctx));
    if (check_affine(in, out, n, c, a, "global attach on the legacy stream")) return 1;
    CHECK_OK(jet_buffer_destroy(bi));
    CHECK_OK(jet_buffer_destroy(bo));
  }
  m_close(&m);
  return 0;
}

/* The refusal details name the policy and carry a hint, and a refused call
 * changes nothing the query can see: on a context forced to Orin's policy,
 * which refuses on every GPU, whatever JET_PLATFORM says. */
TEST(gpu_managed_advice_refusal_details) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_context_desc d = {0, 0, "orin"};
  CHECK_OK(jet_context_create(&ctx, &d));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  if (!pi.managed_memory) {
    jet_context_destroy(ctx);
    SKIP("the device has no managed memory");
  }
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_buffer b;
  jet_buffer_desc bd = {JET_MEMORY_MANAGED, 0, 4 * MiB, 0, 0};
  CHECK_OK(jet_buffer_create(ctx, &bd, &b));
  CHECK_ST(jet_managed_advise(b, 0, 4 * MiB, JET_ADVISE_PREFERRED_LOCATION, JET_PROCESSOR_GPU),
           JET_STATUS_UNSUPPORTED);
  const jet_error_info *e = jet_last_error();
  fprintf(stderr, "refusal: %s\n  hint: %s\n", e->message, e->hint);
  CHECK(strstr(e->message, "cudaMemAdvise") != NULL);
  CHECK(strstr(e->message, "orin") != NULL);
  CHECK(strstr(e->hint, "stream attach") != NULL);
  CHECK_ST(jet_managed_advise(b, 4096, 1, JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_CPU),
           JET_STATUS_UNSUPPORTED);
  CHECK_ST(jet_managed_prefetch_range(s, b, 0, 4096, JET_PROCESSOR_GPU), JET_STATUS_UNSUPPORTED);
  e = jet_last_error();
  CHECK(strstr(e->hint, "jet_managed_make_available") != NULL);
  CHECK_ST(jet_managed_prefetch(s, b, JET_PROCESSOR_CPU), JET_STATUS_UNSUPPORTED);
  /* read-mostly: OK and nothing set */
  CHECK_OK(jet_managed_advise(b, 0, 4 * MiB, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE));
  jet_managed_range_info ri;
  CHECK_OK(jet_managed_range_query(b, 0, 4 * MiB, &ri));
  CHECK_MSG(ri.read_mostly == 0 && ri.preferred.processor == JET_PROCESSOR_NONE &&
                ri.last_prefetch.processor == JET_PROCESSOR_NONE && ri.accessed_by_count == 0,
            "read_mostly %d, preferred %d, last prefetch %d, accessed-by %d", ri.read_mostly,
            (int)ri.preferred.processor, (int)ri.last_prefetch.processor, ri.accessed_by_count);
  /* the hand-over the refusal points to works */
  CHECK_OK(jet_managed_make_available(s, b, JET_PROCESSOR_GPU));
  CHECK_OK(jet_managed_make_available(s, b, JET_PROCESSOR_CPU));
  CHECK_OK(jet_buffer_destroy(b));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}
