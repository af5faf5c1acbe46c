/* Pools, stream-ordered buffers and VMM on a GPU: fresh random data through
 * stream-ordered buffers and a kernel, checked against a CPU reference in
 * poisoned host memory; pool statistics, trimming and settings; a pool shared
 * with a child process over a jet_channel (or refused where the policy
 * refuses it); VMM mappings with data; a growable buffer that keeps its
 * address; and a long leak check. Every failure prints the seed, index,
 * expected and got values. */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "jet-tests_kernels.h"

#define MIB ((size_t)1 << 20)

/* ------------------------------------------------------------ helpers */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void pattern(uint64_t seed, unsigned char *p, size_t n) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t v = splitmix(&s);
    size_t k = n - i < 8 ? n - i : 8;
    memcpy(p + i, &v, k);
  }
}

static uint64_t new_seed(void) { return ((uint64_t)jt_rand() << 32) | jt_rand(); }

/* First byte where @got and @want differ, or -1. */
static long first_diff(const unsigned char *got, const unsigned char *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) return (long)i;
  return -1;
}

/* Read @n bytes at device address @dev into poisoned host memory and compare
 * with @want. */
static int read_check(jet_context ctx, const void *dev, const unsigned char *want, size_t n,
                      const char *what, uint64_t seed) {
  unsigned char *got = malloc(n);
  CHECK(got);
  jt_fill_random(got, n);
  jet_status st = jet_memcpy(ctx, got, dev, n);
  if (st != JET_STATUS_OK) {
    fprintf(stderr, "%s: reading %zu bytes: %s\n", what, n, jet_last_error_string());
    free(got);
    return 1;
  }
  long d = first_diff(got, want, n);
  if (d >= 0)
    fprintf(stderr, "%s (seed %016llx): first difference at byte %ld of %zu: got 0x%02x, "
                    "expected 0x%02x\n",
            what, (unsigned long long)seed, d, n, got[d], want[d]);
  free(got);
  return d >= 0;
}

static jet_status load_kernel(jet_context ctx, jet_module *m, jet_kernel *k) {
  jet_status st = jet_module_load(ctx, &jt_images_pool_kernels, NULL, m);
  if (st == JET_STATUS_OK) st = jet_module_kernel(*m, "pool_xor_add", k);
  return st;
}

/* CPU reference of pool_xor_add on the first n/4 words of @p. */
static void ref_xor_add(unsigned char *p, size_t bytes, uint32_t key) {
  size_t n = bytes / 4;
  for (size_t i = 0; i < n; i++) {
    uint32_t w;
    memcpy(&w, p + 4 * i, 4);
    w = (w ^ key) + (uint32_t)i;
    memcpy(p + 4 * i, &w, 4);
  }
}

static jet_status launch_xor_add(jet_stream s, jet_kernel k, void *dev, size_t bytes,
                                 uint32_t key) {
  unsigned long long n = bytes / 4;
  if (!n) return JET_STATUS_OK;
  void *args[] = {&dev, &n, &key};
  jet_dim3 grid = {(unsigned)((n + 255) / 256), 1, 1}, block = {256, 1, 1};
  return jet_launch(s, k, grid, block, 0, args);
}

static int pools_here(jet_context ctx) {
  jet_platform_info pi;
  if (jet_context_platform(ctx, &pi) != JET_STATUS_OK) return 0;
  return pi.memory_pools_supported;
}

/* ------------------------------------------------------------ stream-ordered buffers */

/* Upload random data, run the kernel, read back: through @pool (NULL: the
 * device's current pool) at sizes from 1 byte to 8 MiB and odd ones. */
static int round_trip(jet_stream s, jet_kernel k, jet_mempool pool,
                      const char *label) {
  static const size_t sizes[] = {1, 3, 4, 4099, 65536 + 7, 3 * MIB + 5, 8 * MIB};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    size_t n = sizes[i];
    uint64_t seed = new_seed();
    uint32_t key = jt_rand();
    unsigned char *host = malloc(n), *want = malloc(n);
    CHECK(host && want);
    pattern(seed, host, n);
    memcpy(want, host, n);
    ref_xor_add(want, n, key);
    jet_buffer b;
    CHECK_OK(jet_buffer_alloc_async(s, pool, n, &b));
    jet_buffer_info bi;
    CHECK_OK(jet_buffer_get_info(b, &bi));
    CHECK(bi.kind == JET_MEMORY_DEVICE && bi.size == n && bi.device_ptr && !bi.host_ptr);
    CHECK_OK(jet_memset_async(s, bi.device_ptr, 0xA5, n)); /* poison first */
    CHECK_OK(jet_memcpy_async(s, bi.device_ptr, host, n));
    CHECK_OK(launch_xor_add(s, k, bi.device_ptr, n, key));
    unsigned char *got = malloc(n);
    CHECK(got);
    jt_fill_random(got, n);
    CHECK_OK(jet_memcpy_async(s, got, bi.device_ptr, n));
    CHECK_OK(jet_stream_synchronize(s));
    long d = first_diff(got, want, n);
    CHECK_MSG(d < 0, "%s, %zu bytes, seed %016llx, key %08x: byte %ld got 0x%02x expected 0x%02x",
              label, n, (unsigned long long)seed, key, d, d >= 0 ? got[d] : 0,
              d >= 0 ? want[d] : 0);
    /* half the buffers go back in stream order, half by the plain destroy */
    if (i % 2)
      CHECK_OK(jet_buffer_free_async(b, s));
    else
      CHECK_OK(jet_buffer_destroy(b));
    free(host);
    free(want);
    free(got);
  }
  CHECK_OK(jet_stream_synchronize(s));
  return 0;
}

TEST(gpu_pool_alloc_async_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (!pools_here(ctx)) {
    jet_stream L;
    jet_buffer b;
    CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L));
    CHECK_ST(jet_buffer_alloc_async(L, NULL, 64, &b), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the device has no memory pools (refusal checked)");
  }
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_module m;
  jet_kernel k;
  CHECK_OK(load_kernel(ctx, &m, &k));
  if (round_trip(s, k, NULL, "current pool")) return 1;
  jet_mempool p, def;
  jet_mempool_desc d;
  memset(&d, 0, sizeof d);
  d.release_threshold = 64 * MIB;
  CHECK_OK(jet_mempool_create(ctx, &d, &p));
  if (round_trip(s, k, p, "explicit pool")) return 1;
  CHECK_OK(jet_mempool_get_default(ctx, &def));
  if (round_trip(s, k, def, "default pool handle")) return 1;
  /* the per-thread default stream allocates too */
  jet_stream pt;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &pt));
  if (round_trip(pt, k, p, "explicit pool, per-thread stream")) return 1;

  /* a buffer of another stream's order: allocate on s, use and free on s2
   * after an event */
  jet_stream s2;
  jet_event ev;
  CHECK_OK(jet_stream_create(ctx, NULL, &s2));
  CHECK_OK(jet_event_create(ctx, 0, &ev));
  jet_buffer b;
  void *dp;
  CHECK_OK(jet_buffer_alloc_async(s, p, 5 * MIB + 3, &b));
  CHECK_OK(jet_buffer_device_ptr(b, &dp));
  CHECK_OK(jet_event_record(ev, s));
  CHECK_OK(jet_stream_wait_event(s2, ev));
  CHECK_OK(jet_memset_async(s2, dp, 0x3C, 5 * MIB + 3));
  unsigned char *want = malloc(5 * MIB + 3);
  CHECK(want);
  memset(want, 0x3C, 5 * MIB + 3);
  CHECK_OK(jet_stream_synchronize(s2));
  if (read_check(ctx, dp, want, 5 * MIB + 3, "memset on a second stream", 0)) return 1;
  CHECK_OK(jet_buffer_free_async(b, s2));
  free(want);

  /* misuse: wrong contexts, destroyed handles, the pool in use */
  jet_context other;
  CHECK_OK(jt_context(&other, 0));
  jet_stream so;
  CHECK_OK(jet_stream_create(other, NULL, &so));
  CHECK_ST(jet_buffer_alloc_async(so, p, 64, &b), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_buffer_alloc_async(s, p, 64, &b));
  CHECK_ST(jet_buffer_free_async(b, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_mempool_destroy(p), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_buffer_free_async(b, s));
  CHECK_ST(jet_buffer_free_async(b, s), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_stream_synchronize(s2));
  CHECK_OK(jet_stream_destroy(so));
  CHECK_OK(jet_context_destroy(other));

  CHECK_OK(jet_event_destroy(ev));
  CHECK_OK(jet_stream_destroy(s2));
  CHECK_OK(jet_mempool_destroy(def));
  CHECK_OK(jet_mempool_destroy(p));
  CHECK_OK(jet_module_destroy(m));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx)); /* nothing left alive */
  return 0;
}

/* ------------------------------------------------------------ statistics, trim, settings */

static int stats_of(jet_mempool p, jet_mempool_stats *st, const char *when) {
  jet_status r = jet_mempool_get_stats(p, st);
  if (r != JET_STATUS_OK) {
    fprintf(stderr, "%s: %s\n", when, jet_last_error_string());
    return 1;
  }
  fprintf(stderr, "  %-34s reserved %10llu (high %10llu)  used %10llu (high %10llu)\n", when,
          (unsigned long long)st->reserved_current, (unsigned long long)st->reserved_high,
          (unsigned long long)st->used_current, (unsigned long long)st->used_high);
  return 0;
}

TEST(gpu_pool_stats_trim_settings) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (!pools_here(ctx)) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the device has no memory pools");
  }
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_mempool p;
  jet_mempool_desc d;
  memset(&d, 0, sizeof d);
  d.release_threshold = UINT64_MAX;
  CHECK_OK(jet_mempool_create(ctx, &d, &p));
  jet_mempool_stats s0, s1, s2, s3, s4, s5;
  if (stats_of(p, &s0, "new pool")) return 1;
  CHECK(s0.used_current == 0 && s0.reserved_current == 0);

  /* sizes with a random part, so no constant can pass by chance */
  size_t sz[3];
  jet_buffer b[3];
  uint64_t total = 0;
  for (int i = 0; i < 3; i++) {
    sz[i] = 4 * MIB + (jt_rand() % MIB) + 1;
    total += sz[i];
    CHECK_OK(jet_buffer_alloc_async(s, p, sz[i], &b[i]));
  }
  CHECK_OK(jet_stream_synchronize(s));
  if (stats_of(p, &s1, "three buffers")) return 1;
  CHECK_MSG(s1.used_current >= total, "used %llu < %llu allocated",
            (unsigned long long)s1.used_current, (unsigned long long)total);
  CHECK(s1.reserved_current >= s1.used_current);
  CHECK(s1.used_high >= s1.used_current && s1.reserved_high >= s1.reserved_current);

  CHECK_OK(jet_buffer_free_async(b[0], s));
  CHECK_OK(jet_buffer_free_async(b[1], s));
  CHECK_OK(jet_stream_synchronize(s));
  if (stats_of(p, &s2, "one buffer left")) return 1;
  CHECK_MSG(s2.used_current + sz[0] + sz[1] <= s1.used_current,
            "used fell from %llu to %llu after freeing %zu + %zu bytes",
            (unsigned long long)s1.used_current, (unsigned long long)s2.used_current, sz[0],
            sz[1]);
  CHECK(s2.used_current >= sz[2]);
  CHECK(s2.used_high == s1.used_high);
  /* the threshold keeps what was freed reserved */
  CHECK_MSG(s2.reserved_current == s1.reserved_current, "reserved %llu -> %llu",
            (unsigned long long)s1.reserved_current, (unsigned long long)s2.reserved_current);

  CHECK_OK(jet_mempool_reset_high_watermarks(p));
  if (stats_of(p, &s3, "high watermarks reset")) return 1;
  /* CUDA resets to zero; drivers may report the current value at once */
  CHECK(s3.used_high < s1.used_high);
  CHECK(s3.used_high == 0 || s3.used_high == s3.used_current);
  CHECK(s3.reserved_high == 0 || s3.reserved_high == s3.reserved_current);
  {
    jet_buffer extra;
    jet_mempool_stats se;
    CHECK_OK(jet_buffer_alloc_async(s, p, MIB + 1, &extra));
    CHECK_OK(jet_stream_synchronize(s));
    if (stats_of(p, &se, "one more buffer")) return 1;
    CHECK(se.used_current >= s3.used_current + MIB + 1 && se.used_high >= se.used_current);
    CHECK_OK(jet_buffer_free_async(extra, s));
    CHECK_OK(jet_stream_synchronize(s));
  }

  /* trim keeps what is in use (chunks the last buffer shares stay) */
  CHECK_OK(jet_mempool_trim(p, 0));
  if (stats_of(p, &s4, "trimmed, one buffer alive")) return 1;
  CHECK_MSG(s4.reserved_current <= s3.reserved_current && s4.reserved_current >= s4.used_current &&
                s4.used_current >= sz[2],
            "reserved %llu -> %llu with %llu used", (unsigned long long)s3.reserved_current,
            (unsigned long long)s4.reserved_current, (unsigned long long)s4.used_current);
  CHECK_OK(jet_buffer_destroy(b[2]));
  if (stats_of(p, &s5, "all freed")) return 1;
  CHECK(s5.used_current == 0);
  CHECK_OK(jet_mempool_trim(p, 0));
  if (stats_of(p, &s5, "all freed, trimmed")) return 1;
  CHECK(s5.reserved_current == 0);

  /* settings read back as written */
  uint64_t thr = 0;
  CHECK_OK(jet_mempool_get_release_threshold(p, &thr));
  CHECK(thr == UINT64_MAX);
  uint64_t want_thr = (uint64_t)(jt_rand() % 1024) * MIB;
  CHECK_OK(jet_mempool_set_release_threshold(p, want_thr));
  CHECK_OK(jet_mempool_get_release_threshold(p, &thr));
  CHECK_MSG(thr == want_thr, "threshold %llu, expected %llu", (unsigned long long)thr,
            (unsigned long long)want_thr);
  unsigned reuse = 99;
  CHECK_OK(jet_mempool_get_reuse(p, &reuse));
  CHECK_MSG(reuse == JET_MEMPOOL_REUSE_ALL, "a new pool's reuse is 0x%x", reuse);
  for (unsigned r = 0; r <= JET_MEMPOOL_REUSE_ALL; r++) {
    CHECK_OK(jet_mempool_set_reuse(p, r));
    CHECK_OK(jet_mempool_get_reuse(p, &reuse));
    CHECK_MSG(reuse == r, "reuse 0x%x read back as 0x%x", r, reuse);
  }
  jet_mempool q;
  d.release_threshold = 0;
  d.reuse_off = JET_MEMPOOL_REUSE_OPPORTUNISTIC;
  CHECK_OK(jet_mempool_create(ctx, &d, &q));
  CHECK_OK(jet_mempool_get_reuse(q, &reuse));
  CHECK(reuse == (JET_MEMPOOL_REUSE_ALL & ~JET_MEMPOOL_REUSE_OPPORTUNISTIC));

  /* access: the own device reads and writes; others must exist and reach it */
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  jet_mem_access acc = JET_MEM_ACCESS_NONE;
  CHECK_OK(jet_mempool_get_access(p, pi.device, &acc));
  CHECK_MSG(acc == JET_MEM_ACCESS_READ_WRITE, "own device access %d", (int)acc);
  CHECK_OK(jet_mempool_set_access(p, pi.device, JET_MEM_ACCESS_READ_WRITE));
  CHECK_ST(jet_mempool_set_access(p, pi.device, JET_MEM_ACCESS_READ),
           JET_STATUS_INVALID_ARGUMENT);
  int n = 0;
  CHECK_OK(jet_device_count(&n));
  CHECK_ST(jet_mempool_set_access(p, n, JET_MEM_ACCESS_READ_WRITE), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_mempool_get_access(p, n, &acc), JET_STATUS_INVALID_ARGUMENT);
  for (int dev = 0; dev < n; dev++) {
    if (dev == pi.device) continue;
    int can = 0;
    CHECK(cudaDeviceCanAccessPeer(&can, dev, pi.device) == cudaSuccess);
    jet_status st = jet_mempool_set_access(p, dev, JET_MEM_ACCESS_READ_WRITE);
    CHECK_MSG(st == (can ? JET_STATUS_OK : JET_STATUS_UNSUPPORTED), "device %d (peer %d): %s",
              dev, can, jet_last_error_string());
    CHECK_OK(jet_mempool_get_access(p, dev, &acc));
    CHECK(acc == (can ? JET_MEM_ACCESS_READ_WRITE : JET_MEM_ACCESS_NONE));
  }
  if (n < 2) fprintf(stderr, "  one device: peer access to the pool not exercised\n");

  /* the default pool's statistics are readable through its handle */
  jet_mempool def;
  CHECK_OK(jet_mempool_get_default(ctx, &def));
  jet_mempool_stats ds;
  if (stats_of(def, &ds, "device default pool")) return 1;
  CHECK(ds.reserved_current >= ds.used_current);
  CHECK_ST(jet_mempool_export(def, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_mempool_destroy(def));

  CHECK_OK(jet_mempool_destroy(q));
  CHECK_OK(jet_mempool_destroy(p));
  CHECK_ST(jet_mempool_trim(p, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ pool shared with a child */

enum { MSG_POOL = 1, MSG_DONE = 2 };

typedef struct pool_msg {
  jet_mempool_ptr_desc ptr;
  uint64_t seed;      /* the exporter's data */
  uint64_t seed_back; /* what the child writes back */
} pool_msg;

typedef struct pool_reply {
  int ok;
  char why[480];
} pool_reply;

static int child_reply(jet_channel ch, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int child_reply(jet_channel ch, int ok, const char *fmt, ...) {
  pool_reply r;
  memset(&r, 0, sizeof r);
  r.ok = ok;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r.why, sizeof r.why, fmt, ap);
  va_end(ap);
  (void)jet_channel_send(ch, MSG_DONE, &r, sizeof r, NULL, 0, 10000);
  return ok ? 0 : 1;
}

/* Receives the channel's address over the harness socket, connects, imports
 * the pool and the pointer, checks the exporter's data, writes its own,
 * frees everything and says so. */
CHILD(pool_importer) {
  char path[108];
  memset(path, 0, sizeof path);
  if (!jt_recv_msg(sock, path, sizeof path, NULL, 60)) return 2;
  jet_channel_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.path = path;
  jet_channel ch;
  if (jet_channel_connect(&cd, 10000, &ch) != JET_STATUS_OK) {
    fprintf(stderr, "child: connect: %s\n", jet_last_error_string());
    return 3;
  }
  pool_msg m;
  jet_channel_msg in;
  memset(&in, 0, sizeof in);
  in.payload = (unsigned char *)&m;
  in.capacity = sizeof m;
  if (jet_channel_recv(ch, 60000, &in) != JET_STATUS_OK || in.type != MSG_POOL ||
      in.len != sizeof m || in.nfds != 1) {
    fprintf(stderr, "child: recv: %s (type %u, len %zu, nfds %d)\n", jet_last_error_string(),
            in.type, in.len, in.nfds);
    for (int i = 0; i < in.nfds; i++) close(in.fds[i]);
    jet_channel_close(ch);
    return 4;
  }
  int rc = 1;
  jet_context ctx = NULL;
  jet_mempool ip = NULL;
  jet_buffer b = NULL;
  size_t n = (size_t)m.ptr.bytes;
  unsigned char *want = malloc(n), *got = malloc(n);
  if (!want || !got) {
    rc = child_reply(ch, 0, "child: no host memory for %zu bytes", n);
    goto out;
  }
  if (jt_context(&ctx, 0) != JET_STATUS_OK) {
    rc = child_reply(ch, 0, "child: context: %s", jet_last_error_string());
    goto out;
  }
  jet_status st = jet_mempool_import(ctx, in.fds[0], &ip);
  close(in.fds[0]);
  if (st != JET_STATUS_OK) {
    rc = child_reply(ch, 0, "child: jet_mempool_import: %s", jet_last_error_string());
    goto out;
  }
  if (jet_mempool_import_pointer(ip, &m.ptr, &b) != JET_STATUS_OK) {
    rc = child_reply(ch, 0, "child: jet_mempool_import_pointer: %s", jet_last_error_string());
    goto out;
  }
  void *dp = NULL;
  (void)jet_buffer_device_ptr(b, &dp);
  pattern(m.seed, want, n);
  jt_fill_random(got, n);
  if (jet_memcpy(ctx, got, dp, n) != JET_STATUS_OK) {
    rc = child_reply(ch, 0, "child: reading: %s", jet_last_error_string());
    goto out;
  }
  long d = first_diff(got, want, n);
  if (d >= 0) {
    rc = child_reply(ch, 0,
                     "child: imported data differ (seed %016llx): byte %ld of %zu got 0x%02x "
                     "expected 0x%02x",
                     (unsigned long long)m.seed, d, n, got[d], want[d]);
    goto out;
  }
  pattern(m.seed_back, want, n);
  if (jet_memcpy(ctx, dp, want, n) != JET_STATUS_OK) {
    rc = child_reply(ch, 0, "child: writing: %s", jet_last_error_string());
    goto out;
  }
  /* the importer frees first (CUDA's rule), then reports */
  st = jet_buffer_destroy(b);
  b = NULL;
  if (st == JET_STATUS_OK) st = jet_mempool_destroy(ip);
  ip = NULL;
  if (st != JET_STATUS_OK) {
    rc = child_reply(ch, 0, "child: freeing: %s", jet_last_error_string());
    goto out;
  }
  rc = child_reply(ch, 1, "child: read %zu bytes, wrote %zu bytes", n, n);
out:
  (void)jet_buffer_destroy(b);
  (void)jet_mempool_destroy(ip);
  if (ctx) (void)jet_context_destroy(ctx);
  free(want);
  free(got);
  jet_channel_close(ch);
  return rc;
}

TEST(gpu_pool_export_to_child) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_policy pol;
  jet_platform_info pi;
  CHECK_OK(jet_context_policy(ctx, &pol));
  CHECK_OK(jet_context_platform(ctx, &pi));
  jet_mempool p = NULL;
  jet_mempool_desc d;
  memset(&d, 0, sizeof d);
  d.flags = JET_MEMPOOL_EXPORTABLE;
  jet_status st = jet_mempool_create(ctx, &d, &p);
  if (!pol.memory_ipc_allowed || !pi.memory_pools_supported) {
    /* Jetson before Thor: refused by the policy, with the way that works */
    CHECK_ST(st, JET_STATUS_UNSUPPORTED);
    CHECK(p == NULL);
    fprintf(stderr, "  policy %s refuses pool IPC: %s\n", pol.name, jet_last_error_string());
    if (pi.memory_pools_supported) {
      jet_buffer_desc bd = {JET_MEMORY_DEVICE, JET_MEM_EXPORTABLE, 4096, 0, 0};
      jet_buffer vb;
      if (pi.vmm_supported && pi.posix_fd_handles_supported) {
        CHECK_OK(jet_buffer_create(ctx, &bd, &vb)); /* the hint's way does work */
        CHECK_OK(jet_buffer_destroy(vb));
      }
    }
    CHECK_OK(jet_context_destroy(ctx));
    return 0;
  }
  int types = 0;
  CHECK(cudaDeviceGetAttribute(&types, cudaDevAttrMemoryPoolSupportedHandleTypes, pi.device) ==
        cudaSuccess);
  if (!(types & cudaMemHandleTypePosixFileDescriptor)) {
    CHECK_ST(st, JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the driver offers no POSIX descriptor for pools (refusal checked)");
  }
  CHECK_OK(st);

  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  size_t n = 3 * MIB + 5 + (jt_rand() % 4096);
  uint64_t seed = new_seed(), seed_back = new_seed();
  unsigned char *data = malloc(n);
  CHECK(data);
  pattern(seed, data, n);
  jet_buffer b;
  void *dp;
  CHECK_OK(jet_buffer_alloc_async(s, p, n, &b));
  CHECK_OK(jet_buffer_device_ptr(b, &dp));
  CHECK_OK(jet_memcpy_async(s, dp, data, n));
  CHECK_OK(jet_stream_synchronize(s));

  /* a plain pool's buffer is not exported */
  jet_mempool plain;
  jet_buffer pb;
  jet_mempool_ptr_desc pd;
  CHECK_OK(jet_mempool_create(ctx, NULL, &plain));
  CHECK_OK(jet_buffer_alloc_async(s, plain, 64, &pb));
  CHECK_ST(jet_mempool_export_pointer(pb, &pd), JET_STATUS_INVALID_ARGUMENT);
  int bad_fd = -1;
  CHECK_ST(jet_mempool_export(plain, &bad_fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(bad_fd == -1);
  CHECK_OK(jet_buffer_free_async(pb, s));

  /* the channel the descriptor travels on */
  char path[108];
  snprintf(path, sizeof path, "@jetrt-pool-test-%d-%08x", (int)getpid(), jt_rand());
  jet_channel_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.path = path;
  jet_channel l, ch;
  CHECK_OK(jet_channel_listen(&cd, &l));
  int sv[2];
  CHECK(jt_socketpair(sv));
  pid_t pid;
  CHECK(jt_spawn_child("pool_importer", sv[1], &pid));
  close(sv[1]);
  CHECK(jt_send_msg(sv[0], path, sizeof path, -1));
  st = jet_channel_accept(l, 60000, &ch);
  if (st != JET_STATUS_OK) {
    fprintf(stderr, "accept: %s\n", jet_last_error_string());
    kill(pid, SIGKILL);
    (void)jt_wait_child(pid, 10);
    return 1;
  }
  pool_msg m;
  memset(&m, 0, sizeof m);
  m.seed = seed;
  m.seed_back = seed_back;
  int fd = -1;
  CHECK_OK(jet_mempool_export(p, &fd));
  CHECK_OK(jet_mempool_export_pointer(b, &m.ptr));
  CHECK(m.ptr.bytes == n && m.ptr.version == JET_MEMPOOL_PTR_DESC_VERSION);
  CHECK_OK(jet_channel_send(ch, MSG_POOL, &m, sizeof m, &fd, 1, 10000));
  close(fd);
  pool_reply r;
  memset(&r, 0, sizeof r);
  jet_channel_msg in;
  memset(&in, 0, sizeof in);
  in.payload = (unsigned char *)&r;
  in.capacity = sizeof r;
  st = jet_channel_recv(ch, 120000, &in);
  int code = jt_wait_child(pid, 60);
  CHECK_MSG(st == JET_STATUS_OK && in.type == MSG_DONE && in.len == sizeof r,
            "no report from the child (exit %d): %s", code, jet_last_error_string());
  fprintf(stderr, "  %s\n", r.why);
  CHECK_MSG(r.ok, "%s", r.why);
  CHECK_MSG(code == 0, "child exit status %d", code);

  /* what the child wrote is in this process's buffer */
  unsigned char *back = malloc(n);
  CHECK(back);
  pattern(seed_back, back, n);
  if (read_check(ctx, dp, back, n, "data the child wrote", seed_back)) return 1;

  CHECK_OK(jet_buffer_free_async(b, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_channel_close(ch));
  CHECK_OK(jet_channel_close(l));
  close(sv[0]);
  free(data);
  free(back);
  CHECK_OK(jet_mempool_destroy(plain));
  CHECK_OK(jet_mempool_destroy(p));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ VMM */

TEST(gpu_vmm_map_access_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  if (!pi.vmm_supported) {
    size_t g;
    CHECK_ST(jet_vmm_granularity(ctx, &g, NULL), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no VMM on this device (refusal checked)");
  }
  size_t gmin = 0, grec = 0;
  CHECK_OK(jet_vmm_granularity(ctx, &gmin, &grec));
  fprintf(stderr, "  granularity: minimum %zu, recommended %zu\n", gmin, grec);
  CHECK(gmin > 0 && grec >= gmin && grec % gmin == 0);
  jet_vmm_range r;
  jet_vmm_mem m1, m2;
  if (gmin > 1) CHECK_ST(jet_vmm_reserve(ctx, gmin + 1, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_vmm_reserve(ctx, 4 * grec, &r));
  void *base;
  size_t rs, mapped;
  CHECK_OK(jet_vmm_range_info(r, &base, &rs, &mapped));
  CHECK(base && rs == 4 * grec && mapped == 0);
  CHECK_OK(jet_vmm_mem_create(ctx, 2 * grec, &m1));
  CHECK_OK(jet_vmm_mem_create(ctx, grec, &m2));
  jet_vmm_mem m_bad;
  if (gmin > 1) CHECK_ST(jet_vmm_mem_create(ctx, gmin - 1, &m_bad), JET_STATUS_INVALID_ARGUMENT);
  /* m1 at 0, a hole at 2g, m2 at 3g */
  CHECK_OK(jet_vmm_map(r, 0, m1));
  CHECK_ST(jet_vmm_map(r, grec, m2), JET_STATUS_INVALID_ARGUMENT); /* overlaps m1 */
  CHECK_ST(jet_vmm_map(r, 4 * grec, m2), JET_STATUS_INVALID_ARGUMENT); /* past the end */
  if (gmin > 1) CHECK_ST(jet_vmm_map(r, 3 * grec + 1, m2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_vmm_map(r, 3 * grec, m2));
  CHECK_OK(jet_vmm_range_info(r, NULL, NULL, &mapped));
  CHECK(mapped == 3 * grec);
  CHECK_ST(jet_vmm_set_access(r, 0, 4 * grec, JET_MEM_ACCESS_READ_WRITE),
           JET_STATUS_INVALID_ARGUMENT); /* the hole */
  CHECK(strstr(jet_last_error()->message, "not mapped") != NULL);
  CHECK_OK(jet_vmm_set_access(r, 0, 2 * grec, JET_MEM_ACCESS_READ_WRITE));
  CHECK_OK(jet_vmm_set_access(r, 3 * grec, grec, JET_MEM_ACCESS_READ_WRITE));
  /* the handles may go: the mappings keep the memory */
  CHECK_OK(jet_vmm_mem_release(m1));
  CHECK_OK(jet_vmm_mem_release(m2));

  uint64_t seed = new_seed();
  size_t n1 = 2 * grec - 3, n2 = grec;
  unsigned char *a = malloc(n1), *b = malloc(n2);
  CHECK(a && b);
  pattern(seed, a, n1);
  pattern(seed ^ 0x5555, b, n2);
  unsigned char *p1 = base, *p2 = (unsigned char *)base + 3 * grec;
  CHECK_OK(jet_memcpy(ctx, p1, a, n1));
  CHECK_OK(jet_memcpy(ctx, p2, b, n2));
  /* a kernel over the first mapping, then read back */
  jet_module mod;
  jet_kernel k;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  CHECK_OK(load_kernel(ctx, &mod, &k));
  uint32_t key = jt_rand();
  CHECK_OK(launch_xor_add(s, k, p1, n1, key));
  CHECK_OK(jet_stream_synchronize(s));
  ref_xor_add(a, n1, key);
  if (read_check(ctx, p1, a, n1, "first mapping after the kernel", seed)) return 1;
  if (read_check(ctx, p2, b, n2, "second mapping", seed)) return 1;
  /* read-only access still reads */
  CHECK_OK(jet_vmm_set_access(r, 3 * grec, grec, JET_MEM_ACCESS_READ));
  if (read_check(ctx, p2, b, n2, "second mapping, read-only", seed)) return 1;

  CHECK_ST(jet_vmm_free_range(r), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_vmm_unmap(r, grec), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_vmm_unmap(r, 3 * grec));
  CHECK_OK(jet_vmm_unmap(r, 0));
  CHECK_ST(jet_vmm_unmap(r, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_vmm_range_info(r, NULL, NULL, &mapped));
  CHECK(mapped == 0);
  CHECK_OK(jet_vmm_free_range(r));
  CHECK_ST(jet_vmm_range_info(r, NULL, NULL, NULL), JET_STATUS_INVALID_HANDLE);
  free(a);
  free(b);
  CHECK_OK(jet_module_destroy(mod));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_vmm_growable_keeps_address) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  if (!pi.vmm_supported) {
    jet_growable g;
    CHECK_ST(jet_growable_create(ctx, MIB, 0, &g), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no VMM on this device (refusal checked)");
  }
  jet_growable g;
  size_t max = 64 * MIB + 1, initial = MIB + 3;
  CHECK_OK(jet_growable_create(ctx, max, initial, &g));
  jet_growable_info gi;
  CHECK_OK(jet_growable_get_info(g, &gi));
  fprintf(stderr, "  growable: %p, size %zu, capacity %zu, granularity %zu\n", gi.device_ptr,
          gi.size, gi.capacity, gi.granularity);
  CHECK(gi.device_ptr && gi.size >= initial && gi.capacity >= max);
  void *addr = gi.device_ptr;
  jet_buffer view, view2;
  CHECK_OK(jet_growable_buffer(g, &view));
  CHECK_OK(jet_growable_buffer(g, &view2));
  CHECK(view == view2);
  CHECK_ST(jet_buffer_destroy(view), JET_STATUS_INVALID_STATE);

  unsigned char *want = malloc(gi.capacity);
  CHECK(want);
  uint64_t seed = new_seed();
  pattern(seed, want, gi.capacity);
  size_t filled = initial;
  CHECK_OK(jet_memcpy(ctx, addr, want, filled));
  const size_t steps[] = {5 * MIB + 7, 17 * MIB, 17 * MIB - 5 /* no-op */, 40 * MIB + 1, max};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    CHECK_OK(jet_growable_grow(g, steps[i]));
    CHECK_OK(jet_growable_get_info(g, &gi));
    CHECK_MSG(gi.device_ptr == addr, "grow to %zu moved the buffer from %p to %p", steps[i],
              addr, gi.device_ptr);
    CHECK_MSG(gi.size >= steps[i] && gi.size % gi.granularity == 0, "size %zu after grow to %zu",
              gi.size, steps[i]);
    jet_buffer_info bi;
    CHECK_OK(jet_buffer_get_info(view, &bi));
    CHECK(bi.device_ptr == addr && bi.size == gi.size);
    /* old data kept, new part written through the view */
    if (read_check(ctx, addr, want, filled, "data before the grow", seed)) return 1;
    size_t end = steps[i] > filled ? steps[i] : filled;
    if (end > filled) {
      CHECK_OK(jet_memcpy(ctx, (unsigned char *)bi.device_ptr + filled, want + filled,
                          end - filled));
      filled = end;
    }
  }
  CHECK_OK(jet_growable_get_info(g, &gi));
  size_t before = gi.size;
  CHECK_ST(jet_growable_grow(g, gi.capacity + 1), JET_STATUS_OVERFLOW);
  CHECK(strstr(jet_last_error()->message, "reserved") != NULL);
  CHECK_OK(jet_growable_get_info(g, &gi));
  CHECK(gi.device_ptr == addr && gi.size == before);
  if (read_check(ctx, addr, want, filled, "everything written", seed)) return 1;
  /* a kernel over the whole buffer */
  jet_stream s;
  jet_module mod;
  jet_kernel k;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  CHECK_OK(load_kernel(ctx, &mod, &k));
  uint32_t key = jt_rand();
  CHECK_OK(launch_xor_add(s, k, addr, filled, key));
  CHECK_OK(jet_stream_synchronize(s));
  ref_xor_add(want, filled, key);
  if (read_check(ctx, addr, want, filled, "after the kernel", seed)) return 1;

  /* created empty, the view waits for the first grow */
  jet_growable e;
  jet_buffer ev;
  CHECK_OK(jet_growable_create(ctx, 3 * MIB, 0, &e));
  CHECK_ST(jet_growable_buffer(e, &ev), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_growable_grow(e, 1));
  CHECK_OK(jet_growable_buffer(e, &ev));
  CHECK_OK(jet_growable_destroy(e));

  free(want);
  CHECK_OK(jet_module_destroy(mod));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_growable_destroy(g));
  CHECK_ST(jet_buffer_get_info(view, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ leaks */

TEST(gpu_pool_vmm_cycles_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  if (!pi.memory_pools_supported || !pi.vmm_supported) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("needs memory pools and VMM");
  }
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_mempool def;
  CHECK_OK(jet_mempool_get_default(ctx, &def));
  /* warm up the runtime's own allocations, then measure */
  {
    jet_mempool p;
    jet_buffer b;
    jet_growable g;
    CHECK_OK(jet_mempool_create(ctx, NULL, &p));
    CHECK_OK(jet_buffer_alloc_async(s, p, MIB, &b));
    CHECK_OK(jet_buffer_free_async(b, s));
    CHECK_OK(jet_stream_synchronize(s));
    CHECK_OK(jet_mempool_destroy(p));
    CHECK_OK(jet_growable_create(ctx, 8 * MIB, MIB, &g));
    CHECK_OK(jet_growable_destroy(g));
  }
  CHECK_OK(jet_mempool_trim(def, 0));
  size_t free0 = 0, free1 = 0;
  CHECK_OK(jet_context_mem_info(ctx, &free0, NULL));
  int fds0 = jt_count_fds();

  jet_mempool p;
  jet_mempool_desc d;
  memset(&d, 0, sizeof d);
  d.release_threshold = UINT64_MAX;
  CHECK_OK(jet_mempool_create(ctx, &d, &p));
  const int cycles = 3000;
  for (int i = 0; i < cycles; i++) {
    jet_buffer b[3];
    for (int j = 0; j < 3; j++) {
      size_t n = 1 + jt_rand() % (8 * MIB);
      jet_status st = jet_buffer_alloc_async(s, (i + j) % 4 ? p : NULL, n, &b[j]);
      CHECK_MSG(st == JET_STATUS_OK, "cycle %d buffer %d (%zu bytes): %s", i, j, n,
                jet_last_error_string());
      void *dp;
      CHECK_OK(jet_buffer_device_ptr(b[j], &dp));
      CHECK_OK(jet_memset_async(s, dp, j, n < 4096 ? n : 4096));
    }
    CHECK_OK(jet_buffer_free_async(b[0], s));
    CHECK_OK(jet_buffer_free_async(b[2], s));
    if (i % 64 == 0)
      CHECK_OK(jet_buffer_destroy(b[1]));
    else
      CHECK_OK(jet_buffer_free_async(b[1], s));
  }
  CHECK_OK(jet_stream_synchronize(s));
  jet_mempool_stats ps;
  CHECK_OK(jet_mempool_get_stats(p, &ps));
  CHECK_MSG(ps.used_current == 0, "%llu bytes still used after %d cycles",
            (unsigned long long)ps.used_current, cycles);
  CHECK_OK(jet_mempool_destroy(p));

  for (int i = 0; i < 300; i++) {
    jet_growable g;
    CHECK_OK(jet_growable_create(ctx, 32 * MIB, jt_rand() % (4 * MIB), &g));
    for (int j = 1; j <= 4; j++) CHECK_OK(jet_growable_grow(g, (size_t)j * 7 * MIB));
    jet_buffer v;
    CHECK_OK(jet_growable_buffer(g, &v));
    CHECK_OK(jet_growable_destroy(g));

    size_t grec;
    CHECK_OK(jet_vmm_granularity(ctx, NULL, &grec));
    jet_vmm_range r;
    jet_vmm_mem m;
    CHECK_OK(jet_vmm_reserve(ctx, 2 * grec, &r));
    CHECK_OK(jet_vmm_mem_create(ctx, grec, &m));
    CHECK_OK(jet_vmm_map(r, grec, m));
    CHECK_OK(jet_vmm_set_access(r, grec, grec, JET_MEM_ACCESS_READ_WRITE));
    CHECK_OK(jet_vmm_mem_release(m));
    CHECK_OK(jet_vmm_unmap(r, grec));
    CHECK_OK(jet_vmm_free_range(r));
  }
  CHECK_OK(jet_context_synchronize(ctx));
  CHECK_OK(jet_mempool_trim(def, 0));
  CHECK_OK(jet_context_mem_info(ctx, &free1, NULL));
  int fds1 = jt_count_fds();
  long long lost = (long long)free0 - (long long)free1;
  fprintf(stderr, "  free device memory %zu -> %zu (%lld bytes lost), fds %d -> %d\n", free0,
          free1, lost, fds0, fds1);
  /* other processes share the GPU: allow a little drift, not a leak of cycles */
  CHECK_MSG(lost < (long long)(64 * MIB), "%lld bytes of device memory lost over the cycles",
            lost);
  CHECK_MSG(fds1 <= fds0, "descriptors %d -> %d", fds0, fds1);
  CHECK_OK(jet_mempool_destroy(def));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx)); /* refused if any object were left alive */
  return 0;
}
