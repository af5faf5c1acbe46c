/* Several GPUs on a GPU.
 *
 * One GPU is enough for gpu_devices_* and gpu_uva_*: enumeration and choice,
 * the igx-dgpu policy (forced, and detected through JET_TEGRA_HOST) refusing
 * managed memory, pointer queries and copies of a device to itself.
 * gpu_peer_* need two GPUs and report SKIPPED ("needs 2 GPUs") on one: peer
 * access, peer copies 1D/2D/3D with and without peer access, stream-ordered
 * copies across devices, pointer ownership, two contexts with their own
 * policies. Every copy moves fresh random data into poisoned memory and is
 * checked byte by byte on the CPU; failures print the case, offset and seed. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cuda_runtime_api.h>

#include "test.h"

#define POISON 0xa5

#define REQUIRE_TWO_GPUS()                                                              \
  do {                                                                                 \
    REQUIRE_GPU();                                                                     \
    int n_ = 0;                                                                        \
    if (jet_device_count(&n_) != JET_STATUS_OK || n_ < 2) {                             \
      fprintf(stderr, "SKIP: needs 2 GPUs; this machine has %d\n", n_);                 \
      return TEST_SKIP;                                                                \
    }                                                                                  \
  } while (0)

static long first_diff(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return (long)i;
  return -1;
}

static void *rnd_alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (p) jt_fill_random(p, n);
  return p;
}

static jet_status ctx_on(int device, const char *platform, jet_context *out) {
  jet_context_desc d = {device, 0, platform};
  return jet_context_create(out, &d);
}

static jet_status dev_buf(jet_context ctx, size_t bytes, jet_buffer *b, void **ptr) {
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, bytes, 0, 0};
  jet_status st = jet_buffer_create(ctx, &d, b);
  if (st == JET_STATUS_OK) st = jet_buffer_device_ptr(*b, ptr);
  return st;
}

/* Whether the two contexts may use peer access: both policies allow it and
 * the hardware says so. */
static int peer_possible(jet_context a, jet_context b) {
  int can = 0;
  return jet_peer_can_access(a, b, &can) == JET_STATUS_OK && can;
}

/* ------------------------------------------------------------ copy checks */

/* 1D: @n bytes from offset @soff of a device buffer of @sctx to offset @doff
 * of one of @dctx (which may be the same context), sync or on @stream. */
static int check_copy_1d(jet_context dctx, jet_context sctx, jet_stream stream, size_t n,
                         size_t soff, size_t doff, const char *label) {
  size_t ss = n + soff + 5, ds = n + doff + 7;
  jet_buffer sb = NULL, db = NULL;
  void *sp, *dp;
  unsigned char *src = rnd_alloc(ss), *got = malloc(ds), *want = malloc(ds);
  CHECK(src && got && want);
  CHECK_OK(dev_buf(sctx, ss, &sb, &sp));
  CHECK_OK(dev_buf(dctx, ds, &db, &dp));
  CHECK_OK(jet_memcpy(sctx, sp, src, ss));
  CHECK_OK(jet_memset(dctx, dp, POISON, ds));
  if (stream) {
    CHECK_OK(jet_peer_memcpy_async(stream, dctx, (char *)dp + doff, sctx, (char *)sp + soff, n));
    CHECK_OK(jet_stream_synchronize(stream));
  } else {
    CHECK_OK(jet_peer_memcpy(dctx, (char *)dp + doff, sctx, (char *)sp + soff, n));
  }
  CHECK_OK(jet_memcpy(dctx, got, dp, ds));
  memset(want, POISON, ds);
  memcpy(want + doff, src + soff, n);
  long d = first_diff(got, want, ds);
  CHECK_MSG(d < 0,
            "%s: %zu bytes, src offset %zu, dst offset %zu: byte %ld got 0x%02x want 0x%02x "
            "(%s)",
            label, n, soff, doff, d, got[d], want[d],
            (size_t)d >= doff && (size_t)d < doff + n ? "inside the copy" : "outside: overwritten");
  CHECK_OK(jet_buffer_destroy(sb));
  CHECK_OK(jet_buffer_destroy(db));
  free(src);
  free(got);
  free(want);
  return 0;
}

/* 3D (2D when depth == 1 and @use_2d): a region of @e at @spos of a
 * (spitch x srows x sdepth) device buffer of @sctx to @dpos of a
 * (dpitch x drows x ddepth) one of @dctx. CPU reference over the whole
 * destination, poison included. */
typedef struct box {
  size_t pitch, rows, depth;
} box;

static int check_copy_3d(jet_context dctx, jet_context sctx, jet_stream stream, box sbox,
                         box dbox, jet_pos spos, jet_pos dpos, jet_extent e, int use_2d,
                         const char *label) {
  size_t ss = sbox.pitch * sbox.rows * sbox.depth, ds = dbox.pitch * dbox.rows * dbox.depth;
  jet_buffer sb = NULL, db = NULL;
  void *sp, *dp;
  unsigned char *src = rnd_alloc(ss), *got = malloc(ds), *want = malloc(ds);
  CHECK(src && got && want);
  CHECK_OK(dev_buf(sctx, ss, &sb, &sp));
  CHECK_OK(dev_buf(dctx, ds, &db, &dp));
  CHECK_OK(jet_memcpy(sctx, sp, src, ss));
  CHECK_OK(jet_memset(dctx, dp, POISON, ds));
  if (use_2d) {
    char *d0 = (char *)dp + dpos.y * dbox.pitch + dpos.x_bytes;
    const char *s0 = (const char *)sp + spos.y * sbox.pitch + spos.x_bytes;
    if (stream)
      CHECK_OK(jet_peer_memcpy_2d_async(stream, dctx, d0, dbox.pitch, sctx, s0, sbox.pitch,
                                        e.width_bytes, e.height));
    else
      CHECK_OK(jet_peer_memcpy_2d(dctx, d0, dbox.pitch, sctx, s0, sbox.pitch, e.width_bytes,
                                  e.height));
  } else {
    jet_copy_3d p;
    memset(&p, 0, sizeof p);
    p.dst = (jet_pitched_ptr){dp, dbox.pitch, dbox.rows};
    p.dst_pos = dpos;
    p.src = (jet_pitched_ptr){sp, sbox.pitch, sbox.rows};
    p.src_pos = spos;
    p.extent = e;
    if (stream)
      CHECK_OK(jet_peer_memcpy_3d_async(stream, dctx, sctx, &p));
    else
      CHECK_OK(jet_peer_memcpy_3d(dctx, sctx, &p));
  }
  if (stream) CHECK_OK(jet_stream_synchronize(stream));
  CHECK_OK(jet_memcpy(dctx, got, dp, ds));
  memset(want, POISON, ds);
  for (size_t z = 0; z < e.depth; z++)
    for (size_t y = 0; y < e.height; y++)
      memcpy(want + ((dpos.z + z) * dbox.rows + dpos.y + y) * dbox.pitch + dpos.x_bytes,
             src + ((spos.z + z) * sbox.rows + spos.y + y) * sbox.pitch + spos.x_bytes,
             e.width_bytes);
  long d = first_diff(got, want, ds);
  if (d >= 0) {
    size_t off = (size_t)d;
    size_t z = off / (dbox.pitch * dbox.rows), y = off / dbox.pitch % dbox.rows,
           x = off % dbox.pitch;
    CHECK_MSG(0,
              "%s (%s): extent %zux%zux%zu, src pos (%zu,%zu,%zu) pitch %zu rows %zu, dst pos "
              "(%zu,%zu,%zu) pitch %zu rows %zu: dst byte (x %zu, y %zu, z %zu) got 0x%02x want "
              "0x%02x",
              label, use_2d ? "2D" : "3D", e.width_bytes, e.height, e.depth, spos.x_bytes,
              spos.y, spos.z, sbox.pitch, sbox.rows, dpos.x_bytes, dpos.y, dpos.z, dbox.pitch,
              dbox.rows, x, y, z, got[d], want[d]);
  }
  CHECK_OK(jet_buffer_destroy(sb));
  CHECK_OK(jet_buffer_destroy(db));
  free(src);
  free(got);
  free(want);
  return 0;
}

/* Every 1D, 2D and 3D case between @dctx and @sctx, sync and (when @stream)
 * async; odd sizes and offsets, fresh random ones too. */
static int copy_cases(jet_context dctx, jet_context sctx, jet_stream stream, const char *label) {
  static const size_t sizes[] = {1, 3, 4097, (1u << 20) + 77, (8u << 20) + 13};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    size_t soff = jt_rand() % 61, doff = jt_rand() % 67;
    if (check_copy_1d(dctx, sctx, NULL, sizes[i], soff, doff, label)) return 1;
    if (stream && check_copy_1d(dctx, sctx, stream, sizes[i], doff, soff, label)) return 1;
  }
  static const struct {
    box s, d;
    jet_pos sp, dp;
    jet_extent e;
  } cases[] = {
      {{1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}},
      {{3, 2, 1}, {5, 4, 1}, {0, 0, 0}, {2, 1, 0}, {3, 2, 1}},
      {{1031, 37, 1}, {1999, 41, 1}, {17, 3, 0}, {901, 2, 0}, {1001, 33, 1}},
      {{67, 13, 5}, {131, 17, 7}, {3, 2, 1}, {60, 1, 2}, {61, 11, 4}},
      {{4096 + 3, 9, 3}, {4096 + 128, 11, 3}, {0, 0, 0}, {64, 2, 0}, {4096 + 3, 9, 3}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const int is_2d = cases[i].e.depth == 1 && cases[i].s.depth == 1 && cases[i].d.depth == 1;
    for (int as_2d = 0; as_2d <= is_2d; as_2d++) {
      if (check_copy_3d(dctx, sctx, NULL, cases[i].s, cases[i].d, cases[i].sp, cases[i].dp,
                        cases[i].e, as_2d, label))
        return 1;
      if (stream && check_copy_3d(dctx, sctx, stream, cases[i].s, cases[i].d, cases[i].sp,
                                  cases[i].dp, cases[i].e, as_2d, label))
        return 1;
    }
  }
  /* a random region of a random box */
  box s = {1 + jt_rand() % 700, 1 + jt_rand() % 40, 1 + jt_rand() % 4};
  box d = {s.pitch + jt_rand() % 300, s.rows + jt_rand() % 9, s.depth + jt_rand() % 3};
  jet_extent e = {1 + jt_rand() % s.pitch, 1 + jt_rand() % s.rows, 1 + jt_rand() % s.depth};
  jet_pos sp = {jt_rand() % (s.pitch - e.width_bytes + 1), jt_rand() % (s.rows - e.height + 1),
                jt_rand() % (s.depth - e.depth + 1)};
  jet_pos dp = {jt_rand() % (d.pitch - e.width_bytes + 1), jt_rand() % (d.rows - e.height + 1),
                jt_rand() % (d.depth - e.depth + 1)};
  return check_copy_3d(dctx, sctx, stream, s, d, sp, dp, e, 0, label);
}

/* ------------------------------------------------------------ one GPU */

TEST(gpu_devices_enumerate_and_choose) {
  REQUIRE_GPU();
  int n = 0;
  CHECK_OK(jet_device_count(&n));
  CHECK(n >= 1);
  int first_int = -1, first_disc = -1;
  for (int d = 0; d < n; d++) {
    jet_platform_info info;
    CHECK_OK(jet_device_query(d, &info));
    CHECK(info.device == d);
    if (info.integrated && first_int < 0) first_int = d;
    if (!info.integrated && first_disc < 0) first_disc = d;
    char bus[32];
    CHECK(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, d) == cudaSuccess);
    /* cudaDeviceGetPCIBusId may write the domain with 4 or 8 digits */
    jet_device_criteria c;
    memset(&c, 0, sizeof c);
    c.pick = JET_DEVICE_PICK_PCI_BUS_ID;
    c.pci_bus_id = bus;
    int got = -1;
    CHECK_OK(jet_device_choose(&c, &got));
    CHECK_MSG(got == d, "device %d at %s (jetrt says %s): chose %d", d, bus, info.pci_bus_id,
              got);
    c.pci_bus_id = info.pci_bus_id;
    CHECK_OK(jet_device_choose(&c, &got));
    CHECK_MSG(got == d, "device %d by jetrt's own id %s: chose %d", d, info.pci_bus_id, got);
    c.pick = JET_DEVICE_PICK_UUID;
    memcpy(c.uuid, info.uuid, sizeof c.uuid);
    CHECK_OK(jet_device_choose(&c, &got));
    CHECK_MSG(got == d, "device %d by UUID: chose %d", d, got);
    /* one context per device, each reporting its own device */
    jet_context ctx;
    CHECK_OK(ctx_on(d, NULL, &ctx));
    jet_platform_info ci;
    CHECK_OK(jet_context_platform(ctx, &ci));
    CHECK_MSG(ci.device == d && memcmp(ci.uuid, info.uuid, 16) == 0, "context on %d reports %d",
              d, ci.device);
    CHECK_OK(jet_context_destroy(ctx));
  }
  jet_device_criteria c;
  memset(&c, 0, sizeof c);
  int got = -1;
  c.pick = JET_DEVICE_PICK_FIRST_INTEGRATED;
  CHECK_ST(jet_device_choose(&c, &got), first_int >= 0 ? JET_STATUS_OK : JET_STATUS_NO_DEVICE);
  CHECK(got == first_int);
  c.pick = JET_DEVICE_PICK_FIRST_DISCRETE;
  CHECK_ST(jet_device_choose(&c, &got), first_disc >= 0 ? JET_STATUS_OK : JET_STATUS_NO_DEVICE);
  CHECK(got == first_disc);
  c.pick = JET_DEVICE_PICK_PCI_BUS_ID;
  c.pci_bus_id = "fffe:fe:1f.7";
  CHECK_ST(jet_device_choose(&c, &got), JET_STATUS_NO_DEVICE);
  CHECK(got == -1 && strstr(jet_last_error()->message, "PCI bus id") != NULL);
  jet_context ctx = NULL;
  CHECK_ST(ctx_on(n, NULL, &ctx), JET_STATUS_INVALID_ARGUMENT);
  CHECK(ctx == NULL);
  return 0;
}

/* Save and restore one environment variable around a test. */
typedef struct saved_env {
  const char *name;
  char *value;
  int had;
} saved_env;

static saved_env env_save(const char *name) {
  const char *v = getenv(name);
  saved_env s = {name, v ? strdup(v) : NULL, v != NULL};
  return s;
}

static void env_restore(saved_env *s) {
  if (s->had) setenv(s->name, s->value, 1);
  else unsetenv(s->name);
  free(s->value);
}

static int managed_refused(jet_context ctx) {
  jet_buffer_desc d = {JET_MEMORY_MANAGED, 0, 4099, 0, 0};
  jet_buffer b = NULL;
  CHECK_ST(jet_buffer_create(ctx, &d, &b), JET_STATUS_UNSUPPORTED);
  CHECK(b == NULL);
  CHECK_MSG(strstr(jet_last_error()->hint,
                   "unified memory is unsupported on a discrete GPU attached to a Tegra host") != NULL,
            "hint: %s", jet_last_error()->hint);
  jet_shared sb = NULL;
  CHECK_ST(jet_shared_create(ctx, 4099, JET_SHARED_MANAGED, &sb), JET_STATUS_UNSUPPORTED);
  CHECK(sb == NULL);
  CHECK(strstr(jet_last_error()->hint, "discrete GPU attached to a Tegra host") != NULL);
  /* the rest still works: device memory and the default shared backing */
  void *p;
  CHECK_OK(dev_buf(ctx, 4099, &b, &p));
  CHECK_OK(jet_buffer_destroy(b));
  CHECK_OK(jet_shared_create(ctx, 4099, 0, &sb));
  jet_shared_info si;
  CHECK_OK(jet_shared_get_info(sb, &si));
  CHECK(si.backing == JET_SHARED_BACKING_DEVICE_STAGED);
  CHECK_OK(jet_shared_destroy(sb));
  return 0;
}

TEST(gpu_devices_igx_dgpu_policy_refuses_managed) {
  REQUIRE_GPU();
  /* forced by the descriptor */
  jet_context ctx;
  CHECK_OK(ctx_on(0, "igx-dgpu", &ctx));
  jet_policy pol;
  CHECK_OK(jet_context_policy(ctx, &pol));
  CHECK_MSG(strcmp(pol.name, "igx-dgpu") == 0 && pol.forced && !pol.managed_memory_allowed &&
                pol.kind == JET_PLATFORM_DESKTOP && pol.peer_access_allowed,
            "policy %s forced %d managed %d kind %d peer %d", pol.name, pol.forced,
            pol.managed_memory_allowed, (int)pol.kind, pol.peer_access_allowed);
  if (managed_refused(ctx)) return 1;
  CHECK_OK(jet_context_destroy(ctx));

  /* forced by JET_PLATFORM, and detected on a Tegra host (JET_TEGRA_HOST=1) */
  saved_env plat = env_save("JET_PLATFORM"), host = env_save("JET_TEGRA_HOST");
  setenv("JET_PLATFORM", "igx-dgpu", 1);
  int rc = 0;
  if (ctx_on(0, NULL, &ctx) != JET_STATUS_OK || jet_context_policy(ctx, &pol) != JET_STATUS_OK ||
      strcmp(pol.name, "igx-dgpu") != 0 || !pol.forced)
    rc = 1, fprintf(stderr, "JET_PLATFORM=igx-dgpu: %s\n", jet_last_error_string());
  else
    rc = managed_refused(ctx) || jet_context_destroy(ctx) != JET_STATUS_OK;
  unsetenv("JET_PLATFORM");
  setenv("JET_TEGRA_HOST", "1", 1);
  jet_platform_info info;
  if (!rc && (ctx_on(0, NULL, &ctx) != JET_STATUS_OK ||
              jet_context_policy(ctx, &pol) != JET_STATUS_OK ||
              jet_context_platform(ctx, &info) != JET_STATUS_OK))
    rc = 1, fprintf(stderr, "JET_TEGRA_HOST=1: %s\n", jet_last_error_string());
  else if (!rc) {
    if (!info.tegra_host) rc = 1, fprintf(stderr, "JET_TEGRA_HOST=1: tegra_host is 0\n");
    if (!info.integrated && (strcmp(pol.name, "igx-dgpu") != 0 || pol.forced))
      rc = 1, fprintf(stderr, "dGPU on a Tegra host got %s (forced %d)\n", pol.name, pol.forced);
    if (!rc && !info.integrated) rc = managed_refused(ctx);
    if (jet_context_destroy(ctx) != JET_STATUS_OK) rc = 1;
  }
  env_restore(&plat);
  env_restore(&host);
  return rc;
}

TEST(gpu_uva_pointer_query) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info info;
  jet_policy pol;
  CHECK_OK(jet_context_platform(ctx, &info));
  CHECK_OK(jet_context_policy(ctx, &pol));
  jet_buffer b, h;
  void *p;
  CHECK_OK(dev_buf(ctx, 10007, &b, &p));
  jet_pointer_info pi;
  CHECK_OK(jet_pointer_query(ctx, p, &pi));
  CHECK_MSG(pi.kind == JET_POINTER_DEVICE && pi.device == info.device && pi.device_ptr == p,
            "device buffer: kind %s device %d ptr %p (want %p)", jet_pointer_kind_name(pi.kind),
            pi.device, pi.device_ptr, p);
  /* a pointer inside the allocation has the same owner */
  CHECK_OK(jet_pointer_query(ctx, (char *)p + 10006, &pi));
  CHECK_MSG(pi.kind == JET_POINTER_DEVICE && pi.device == info.device,
            "inside the device buffer: kind %s device %d", jet_pointer_kind_name(pi.kind),
            pi.device);

  jet_buffer_desc hd = {JET_MEMORY_HOST_PINNED, 0, 333, 0, 0};
  CHECK_OK(jet_buffer_create(ctx, &hd, &h));
  void *hp;
  CHECK_OK(jet_buffer_host_ptr(h, &hp));
  CHECK_OK(jet_pointer_query(ctx, hp, &pi));
  CHECK_MSG(pi.kind == JET_POINTER_HOST && pi.host_ptr == hp, "pinned host: kind %s host %p want %p",
            jet_pointer_kind_name(pi.kind), pi.host_ptr, hp);
  CHECK_OK(jet_pointer_query(ctx, (char *)hp + 5, &pi));
  CHECK_MSG(pi.kind == JET_POINTER_HOST, "inside pinned host: kind %s",
            jet_pointer_kind_name(pi.kind));
  CHECK_OK(jet_buffer_destroy(h));

  if (info.managed_memory && pol.managed_memory_allowed) {
    jet_buffer_desc md = {JET_MEMORY_MANAGED, 0, 4096, 0, 0};
    CHECK_OK(jet_buffer_create(ctx, &md, &h));
    CHECK_OK(jet_buffer_host_ptr(h, &hp));
    CHECK_OK(jet_pointer_query(ctx, hp, &pi));
    CHECK_MSG(pi.kind == JET_POINTER_MANAGED, "managed: kind %s", jet_pointer_kind_name(pi.kind));
    CHECK_OK(jet_buffer_destroy(h));
  }

  char *plain = malloc(64);
  CHECK(plain);
  CHECK_OK(jet_pointer_query(ctx, plain, &pi));
  CHECK_MSG(pi.kind == JET_POINTER_UNREGISTERED && pi.device == -1,
            "malloc memory: kind %s device %d", jet_pointer_kind_name(pi.kind), pi.device);
  free(plain);
  CHECK_OK(jet_buffer_destroy(b));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* device -> self through the peer calls: one context, and two contexts of the
 * same device */
TEST(gpu_uva_self_copy) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_stream s;
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(a, &sd, &s));
  if (copy_cases(a, a, s, "device 0 -> itself")) return 1;
  if (copy_cases(b, a, s, "device 0 -> itself, two contexts")) return 1;
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(b));
  CHECK_OK(jet_context_destroy(a));
  return 0;
}

/* ------------------------------------------------------------ two GPUs */

TEST(gpu_peer_enable_disable) {
  REQUIRE_TWO_GPUS();
  jet_context c[2];
  CHECK_OK(ctx_on(0, NULL, &c[0]));
  CHECK_OK(ctx_on(1, NULL, &c[1]));
  jet_policy p0, p1;
  CHECK_OK(jet_context_policy(c[0], &p0));
  CHECK_OK(jet_context_policy(c[1], &p1));
  int allowed = p0.peer_access_allowed && p1.peer_access_allowed;
  for (int i = 0; i < 2; i++) {
    jet_context a = c[i], b = c[1 - i];
    int can = -1, raw = -1;
    CHECK_OK(jet_peer_can_access(a, b, &can));
    CHECK(cudaDeviceCanAccessPeer(&raw, i, 1 - i) == cudaSuccess);
    CHECK_MSG(can == (allowed && raw), "%d -> %d: jetrt says %d, CUDA %d, policy allows %d", i,
              1 - i, can, raw, allowed);
    if (!allowed) {
      CHECK_ST(jet_peer_enable(a, b), JET_STATUS_UNSUPPORTED);
      CHECK(strstr(jet_last_error()->hint, "Tegra has no peer-to-peer") != NULL);
      continue;
    }
    if (!can) {
      fprintf(stderr, "note: device %d cannot access device %d; checking the refusal only\n", i,
              1 - i);
      CHECK_ST(jet_peer_enable(a, b), JET_STATUS_UNSUPPORTED);
      continue;
    }
    CHECK_OK(jet_peer_enable(a, b));
    CHECK_OK(jet_peer_enable(a, b)); /* already enabled: fine */
    /* CUDA agrees it is on */
    CHECK(cudaSetDevice(i) == cudaSuccess);
    cudaError_t e = cudaDeviceEnablePeerAccess(1 - i, 0);
    (void)cudaGetLastError();
    CHECK_MSG(e == cudaErrorPeerAccessAlreadyEnabled, "raw enable after jetrt's: %s",
              cudaGetErrorName(e));
    /* copies work while it is on, both ways */
    if (check_copy_1d(b, a, NULL, 4097, 3, 5, "peer access on")) return 1;
    CHECK_OK(jet_peer_disable(a, b));
    CHECK_ST(jet_peer_disable(a, b), JET_STATUS_INVALID_STATE);
    CHECK(strcmp(jet_last_error()->native_name, "cudaErrorPeerAccessNotEnabled") == 0);
    CHECK_OK(jet_peer_enable(a, b));
    CHECK_OK(jet_peer_disable(a, b));
  }
  CHECK_OK(jet_context_destroy(c[0]));
  CHECK_OK(jet_context_destroy(c[1]));
  return 0;
}

static int peer_copies(int enable) {
  jet_context c[2];
  CHECK_OK(ctx_on(0, NULL, &c[0]));
  CHECK_OK(ctx_on(1, NULL, &c[1]));
  if (enable && !(peer_possible(c[0], c[1]) && peer_possible(c[1], c[0]))) {
    fprintf(stderr, "note: peer access not possible here (policy or topology); the copies run "
                    "staged\n");
    enable = 0;
  }
  if (enable) {
    CHECK_OK(jet_peer_enable(c[0], c[1]));
    CHECK_OK(jet_peer_enable(c[1], c[0]));
  }
  jet_stream s[2];
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(c[0], &sd, &s[0]));
  CHECK_OK(jet_stream_create(c[1], &sd, &s[1]));
  char label[64];
  for (int i = 0; i < 2; i++) {
    snprintf(label, sizeof label, "device %d -> %d, peer access %s", i, 1 - i,
             enable ? "on" : "off");
    /* async on the destination's stream, then on the source's */
    if (copy_cases(c[1 - i], c[i], s[1 - i], label)) return 1;
    if (check_copy_1d(c[1 - i], c[i], s[i], (1u << 20) + 3, 1, 2, label)) return 1;
  }
  CHECK_OK(jet_stream_destroy(s[0]));
  CHECK_OK(jet_stream_destroy(s[1]));
  if (enable) {
    CHECK_OK(jet_peer_disable(c[0], c[1]));
    CHECK_OK(jet_peer_disable(c[1], c[0]));
  }
  CHECK_OK(jet_context_destroy(c[0]));
  CHECK_OK(jet_context_destroy(c[1]));
  return 0;
}

TEST(gpu_peer_copy_staged) {
  REQUIRE_TWO_GPUS();
  return peer_copies(0);
}

TEST(gpu_peer_copy_with_access) {
  REQUIRE_TWO_GPUS();
  return peer_copies(1);
}

/* A ping-pong across devices ordered only by events: 0 -> 1 on device 1's
 * stream, device 0's stream waits for it (jet_peer_wait_event) and copies
 * 1 -> 0 back (2D, then 3D), nothing synchronised on the host in between. */
TEST(gpu_peer_async_ordered_by_events) {
  REQUIRE_TWO_GPUS();
  jet_context c[2];
  CHECK_OK(ctx_on(0, NULL, &c[0]));
  CHECK_OK(ctx_on(1, NULL, &c[1]));
  jet_stream s[2];
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(c[0], &sd, &s[0]));
  CHECK_OK(jet_stream_create(c[1], &sd, &s[1]));
  jet_event e[2];
  CHECK_OK(jet_event_create(c[0], 0, &e[0]));
  CHECK_OK(jet_event_create(c[1], 0, &e[1]));
  /* a rows x pitch image; large enough that an unordered copy would show */
  const size_t pitch = 4096 + 61, rows = 1031, n = pitch * rows;
  jet_buffer b0, b1, b2, b3;
  void *p0, *p1, *p2, *p3;
  CHECK_OK(dev_buf(c[0], n, &b0, &p0));
  CHECK_OK(dev_buf(c[1], n, &b1, &p1));
  CHECK_OK(dev_buf(c[0], n, &b2, &p2));
  CHECK_OK(dev_buf(c[1], n, &b3, &p3));
  unsigned char *src = rnd_alloc(n), *got = malloc(n);
  CHECK(src && got);
  CHECK_OK(jet_memcpy(c[0], p0, src, n));
  CHECK_OK(jet_memset(c[1], p1, POISON, n));
  CHECK_OK(jet_memset(c[0], p2, POISON, n));
  CHECK_OK(jet_memset(c[1], p3, POISON, n));
  /* the plain wait keeps to one context; the peer wait crosses devices */
  CHECK_ST(jet_stream_wait_event(s[0], e[1]), JET_STATUS_WRONG_CONTEXT);
  for (int round = 0; round < 3; round++) {
    CHECK_OK(jet_peer_memcpy_async(s[1], c[1], p1, c[0], p0, n));
    CHECK_OK(jet_event_record(e[1], s[1]));
    CHECK_OK(jet_peer_wait_event(s[0], e[1]));
    CHECK_OK(jet_peer_memcpy_2d_async(s[0], c[0], p2, pitch, c[1], p1, pitch, pitch, rows));
    CHECK_OK(jet_event_record(e[0], s[0]));
    CHECK_OK(jet_peer_wait_event(s[1], e[0]));
    jet_copy_3d p;
    memset(&p, 0, sizeof p);
    p.dst = (jet_pitched_ptr){p3, pitch, rows};
    p.src = (jet_pitched_ptr){p2, pitch, rows};
    p.extent = (jet_extent){pitch, rows, 1};
    CHECK_OK(jet_peer_memcpy_3d_async(s[1], c[1], c[0], &p));
    CHECK_OK(jet_stream_synchronize(s[1]));
    CHECK_OK(jet_memcpy(c[1], got, p3, n));
    long d = first_diff(got, src, n);
    CHECK_MSG(d < 0, "round %d: byte %ld (row %ld) got 0x%02x want 0x%02x", round, d,
              d / (long)pitch, got[d], src[d]);
    /* fresh data and poison for the next round */
    jt_fill_random(src, n);
    CHECK_OK(jet_memcpy(c[0], p0, src, n));
    CHECK_OK(jet_memset(c[1], p3, POISON, n));
  }
  /* a stream of a third context (device 0 again) is neither side's */
  jet_context other;
  CHECK_OK(ctx_on(0, NULL, &other));
  jet_stream so;
  CHECK_OK(jet_context_default_stream(other, JET_STREAM_LEGACY, &so));
  CHECK_ST(jet_peer_memcpy_async(so, c[1], p1, c[0], p0, n), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_context_destroy(other));
  free(src);
  free(got);
  CHECK_OK(jet_buffer_destroy(b0));
  CHECK_OK(jet_buffer_destroy(b1));
  CHECK_OK(jet_buffer_destroy(b2));
  CHECK_OK(jet_buffer_destroy(b3));
  CHECK_OK(jet_event_destroy(e[0]));
  CHECK_OK(jet_event_destroy(e[1]));
  CHECK_OK(jet_stream_destroy(s[0]));
  CHECK_OK(jet_stream_destroy(s[1]));
  CHECK_OK(jet_context_destroy(c[0]));
  CHECK_OK(jet_context_destroy(c[1]));
  return 0;
}

/* Buffers created in alternation on two contexts land on their own devices
 * (each call makes its context's device current), as CUDA itself reports. */
TEST(gpu_peer_pointer_owner) {
  REQUIRE_TWO_GPUS();
  jet_context c[2];
  CHECK_OK(ctx_on(0, NULL, &c[0]));
  CHECK_OK(ctx_on(1, NULL, &c[1]));
  enum { N = 6 };
  jet_buffer b[N];
  void *p[N];
  for (int i = 0; i < N; i++) CHECK_OK(dev_buf(c[i % 2], 1000 + (size_t)i * 77, &b[i], &p[i]));
  for (int i = 0; i < N; i++) {
    for (int via = 0; via < 2; via++) {
      jet_pointer_info pi;
      CHECK_OK(jet_pointer_query(c[via], (char *)p[i] + 999, &pi));
      CHECK_MSG(pi.kind == JET_POINTER_DEVICE && pi.device == i % 2,
                "buffer %d of context %d, asked through context %d: kind %s device %d", i, i % 2,
                via, jet_pointer_kind_name(pi.kind), pi.device);
    }
    struct cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, p[i]) == cudaSuccess);
    CHECK_MSG(a.device == i % 2, "CUDA says buffer %d is on device %d", i, a.device);
  }
  for (int i = 0; i < N; i++) CHECK_OK(jet_buffer_destroy(b[i]));
  CHECK_OK(jet_context_destroy(c[0]));
  CHECK_OK(jet_context_destroy(c[1]));
  return 0;
}

/* IGX Orin in miniature: device 0 as a dGPU in a Tegra host (forced igx-dgpu),
 * device 1 with the policy JET_PLATFORM or detection gives it. Each context
 * keeps its own policy, and copies between them still work. */
TEST(gpu_peer_independent_policies) {
  REQUIRE_TWO_GPUS();
  jet_context c[2];
  CHECK_OK(ctx_on(0, "igx-dgpu", &c[0]));
  CHECK_OK(ctx_on(1, NULL, &c[1]));
  jet_policy p0, p1;
  jet_platform_info i1;
  CHECK_OK(jet_context_policy(c[0], &p0));
  CHECK_OK(jet_context_policy(c[1], &p1));
  CHECK_OK(jet_context_platform(c[1], &i1));
  CHECK_MSG(strcmp(p0.name, "igx-dgpu") == 0 && !p0.managed_memory_allowed, "context 0: %s",
            p0.name);
  const char *env = getenv("JET_PLATFORM");
  int env_igx = env && strcmp(env, "igx-dgpu") == 0;
  CHECK_MSG(strcmp(p1.name, "igx-dgpu") != 0 || env_igx || i1.tegra_host,
            "context 1 took context 0's policy: %s", p1.name);
  CHECK_MSG(p1.managed_memory_allowed == (strcmp(p1.name, "igx-dgpu") != 0),
            "context 1 (%s): managed allowed %d", p1.name, p1.managed_memory_allowed);
  if (managed_refused(c[0])) return 1;
  if (p1.managed_memory_allowed && i1.managed_memory) {
    jet_buffer_desc md = {JET_MEMORY_MANAGED, 0, 4096, 0, 0};
    jet_buffer m;
    CHECK_OK(jet_buffer_create(c[1], &md, &m));
    CHECK_OK(jet_buffer_destroy(m));
  }
  if (check_copy_1d(c[1], c[0], NULL, 65537, 1, 3, "igx-dgpu -> other policy")) return 1;
  if (check_copy_1d(c[0], c[1], NULL, 65537, 2, 0, "other policy -> igx-dgpu")) return 1;
  CHECK_OK(jet_context_destroy(c[0]));
  CHECK_OK(jet_context_destroy(c[1]));
  return 0;
}
