/* Several GPUs without a GPU: the igx-dgpu policy and Tegra-host detection,
 * device choice (PCI bus ids, criteria), and argument validation of peer
 * access, peer copies and pointer queries on contexts that never touch CUDA. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"

#define CHECK_DETAIL(needle)                                                               \
  CHECK_MSG(strstr(jet_last_error_string(), (needle)) != NULL, "detail lacks \"%s\": %s", \
            (needle), jet_last_error_string())

/* ------------------------------------------------------------ policy */

TEST(peer_policy_igx_dgpu_from_attributes) {
  static const struct {
    int integrated, tegra_host;
    const char *request, *name;
    int managed, peer, forced;
  } rows[] = {
      {0, 0, NULL, "desktop", 1, 1, 0},
      {0, 1, NULL, "igx-dgpu", 0, 1, 0},     /* IGX Orin's dGPU */
      {0, 1, "auto", "igx-dgpu", 0, 1, 0},
      {1, 1, NULL, "orin", 1, 0, 0},         /* IGX Orin's iGPU (SM 8.7 below) */
      {0, 0, "igx-dgpu", "igx-dgpu", 0, 1, 1}, /* forced on a desktop GPU (the H100 path) */
      {0, 1, "desktop", "desktop", 1, 1, 1},
      {0, 0, "orin", "orin", 1, 0, 1},
      {0, 0, "xavier", "xavier", 1, 0, 1},
      {0, 0, "thor", "thor", 1, 0, 1},
  };
  jet_platform_info desk = jt_fake_device(0, 9, 0);
  jet__platform dp;
  CHECK_OK(jet__platform_select(&desk, NULL, &dp, "test"));
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_platform_info dev = jt_fake_device(rows[r].integrated, rows[r].integrated ? 8 : 9,
                                           rows[r].integrated ? 7 : 0);
    dev.tegra_host = rows[r].tegra_host;
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, rows[r].request, &p, "test"));
    CHECK_MSG(strcmp(p.policy.name, rows[r].name) == 0, "row %zu: got %s want %s", r,
              p.policy.name, rows[r].name);
    CHECK_MSG(p.policy.managed_memory_allowed == rows[r].managed, "row %zu: managed %d", r,
              p.policy.managed_memory_allowed);
    CHECK_MSG(p.policy.peer_access_allowed == rows[r].peer, "row %zu: peer %d", r,
              p.policy.peer_access_allowed);
    CHECK_MSG(p.policy.forced == rows[r].forced, "row %zu", r);
    CHECK_MSG(p.ops != NULL && p.ops->mem_info != NULL, "row %zu", r);
    if (strcmp(rows[r].name, "igx-dgpu") == 0) {
      /* Everything but the name, the managed refusal, forced and the reason is
       * the desktop policy: a dGPU with its own memory. */
      jet_policy a = p.policy, b = dp.policy;
      memset(a.name, 0, sizeof a.name);
      memset(b.name, 0, sizeof b.name);
      memset(a.reason, 0, sizeof a.reason);
      memset(b.reason, 0, sizeof b.reason);
      a.managed_memory_allowed = b.managed_memory_allowed = 0;
      a.forced = b.forced = 0;
      CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "row %zu: igx-dgpu differs from desktop", r);
      CHECK(p.ops == dp.ops);
      if (!rows[r].forced) CHECK(strstr(p.policy.reason, "Tegra host") != NULL);
    }
  }
  return 0;
}

TEST(peer_policy_managed_check) {
  jet_platform_info dev = jt_fake_device(0, 9, 0);
  jet__platform p;
  CHECK_OK(jet__platform_select(&dev, "igx-dgpu", &p, "test"));
  CHECK(!p.policy.managed_memory_allowed);
  CHECK_ST(jet__managed_refuse(&dev, &p.policy, "cudaMallocManaged", NULL, "test"),
           JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error()->hint, "discrete GPU attached to a Tegra host") != NULL);
  CHECK(strstr(jet_last_error()->hint, "UM appendix") != NULL);
  CHECK(strstr(jet_last_error()->message, "igx-dgpu (forced)") != NULL);
  CHECK_OK(jet__platform_select(&dev, NULL, &p, "test"));
  CHECK(p.policy.managed_memory_allowed);
  return 0;
}

/* A context on a fake igx-dgpu device refuses managed buffers before any CUDA call. */
TEST(peer_igx_dgpu_context_refuses_managed_buffer) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "igx-dgpu"));
  jet_buffer_desc d = {JET_MEMORY_MANAGED, 0, 4096, 0, 0};
  jet_buffer b = (jet_buffer)0x1;
  CHECK_ST(jet_buffer_create(&c, &d, &b), JET_STATUS_UNSUPPORTED);
  CHECK(b == NULL);
  CHECK(strstr(jet_last_error()->hint, "discrete GPU attached to a Tegra host") != NULL);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ Tegra host */

TEST(peer_compatible_names_tegra) {
  static const char igx[] = "nvidia,p3740-0002+p3701-0008\0nvidia,p3701-0008\0nvidia,tegra234";
  static const char orin[] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0";
  static const char rpi[] = "raspberrypi,4-model-b\0brcm,bcm2711\0";
  static const char notquite[] = "vendor,nvidia,tegra\0nvidia,teg\0";
  CHECK(jet__compatible_is_tegra(igx, sizeof igx - 1)); /* no final NUL */
  CHECK(jet__compatible_is_tegra(orin, sizeof orin - 1));
  CHECK(!jet__compatible_is_tegra(rpi, sizeof rpi - 1));
  CHECK(!jet__compatible_is_tegra(notquite, sizeof notquite - 1));
  CHECK(!jet__compatible_is_tegra("", 0));
  /* cut in the middle of the name */
  CHECK(!jet__compatible_is_tegra(orin, 40));
  return 0;
}

TEST(peer_tegra_host_detect_override) {
  char path[] = "/tmp/jet-compatible-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  static const char dt[] = "nvidia,p3740-0002+p3701-0008\0nvidia,tegra234\0";
  CHECK(write(fd, dt, sizeof dt - 1) == (ssize_t)(sizeof dt - 1));
  close(fd);
  const char *old = getenv("JET_TEGRA_HOST");
  char *saved = old ? strdup(old) : NULL;
  int ok = 1;
  unsetenv("JET_TEGRA_HOST");
  ok &= jet__tegra_host_detect(0, path) == 1;             /* device tree says Tegra */
  ok &= jet__tegra_host_detect(1, "/nonexistent/x") == 1; /* another device is an iGPU */
  ok &= jet__tegra_host_detect(0, "/nonexistent/x") == 0; /* a PC */
  ok &= jet__tegra_host_detect(0, NULL) == 0;
  setenv("JET_TEGRA_HOST", "0", 1);
  ok &= jet__tegra_host_detect(1, path) == 0;
  setenv("JET_TEGRA_HOST", "1", 1);
  ok &= jet__tegra_host_detect(0, "/nonexistent/x") == 1;
  setenv("JET_TEGRA_HOST", "maybe", 1); /* not an override: detect */
  ok &= jet__tegra_host_detect(0, "/nonexistent/x") == 0;
  if (saved) setenv("JET_TEGRA_HOST", saved, 1);
  else unsetenv("JET_TEGRA_HOST");
  free(saved);
  unlink(path);
  CHECK(ok);
  return 0;
}

/* ------------------------------------------------------------ device choice */

TEST(peer_pci_bus_id_parse) {
  static const struct {
    const char *text;
    int ok, domain, bus, device;
  } rows[] = {
      {"0000:01:00.0", 1, 0, 1, 0},
      {"00000000:C1:00.0", 1, 0, 0xc1, 0}, /* nvidia-smi's 8-digit domain */
      {"0001:ab:1f.7", 1, 1, 0xab, 0x1f},
      {"3b:00.0", 1, 0, 0x3b, 0},
      {"", 0, 0, 0, 0},
      {"0000:01:00", 0, 0, 0, 0},
      {"0000:01:00.8", 0, 0, 0, 0},   /* function > 7 */
      {"0000:100:00.0", 0, 0, 0, 0},  /* bus > ff */
      {"0000:01:20.0", 0, 0, 0, 0},   /* device > 1f */
      {"0000:01:00.0x", 0, 0, 0, 0},
      {"0:0:0:00.0", 0, 0, 0, 0},
      {"zz:00.0", 0, 0, 0, 0},
      {"000000000:01:00.0", 0, 0, 0, 0}, /* 9 digits */
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    int dom = -1, bus = -1, dev = -1;
    jet_status st = jet__pci_bus_id_parse(rows[r].text, &dom, &bus, &dev, "test");
    CHECK_MSG((st == JET_STATUS_OK) == rows[r].ok, "row %zu \"%s\": %s", r, rows[r].text,
              jet_status_name(st));
    if (rows[r].ok)
      CHECK_MSG(dom == rows[r].domain && bus == rows[r].bus && dev == rows[r].device,
                "row %zu: got %x:%x:%x", r, dom, bus, dev);
    else
      CHECK(strstr(jet_last_error()->message, "pci_bus_id") != NULL);
  }
  CHECK_ST(jet__pci_bus_id_parse(NULL, &(int){0}, &(int){0}, &(int){0}, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(peer_device_fits_criteria) {
  jet_platform_info igpu = jt_fake_device(1, 8, 7), dgpu = jt_fake_device(0, 8, 6);
  for (int i = 0; i < 16; i++) igpu.uuid[i] = (unsigned char)i, dgpu.uuid[i] = (unsigned char)(i + 1);
  dgpu.pci_domain = 5;
  dgpu.pci_bus = 0xc1;
  dgpu.pci_device = 0;
  jet_device_criteria c;
  memset(&c, 0, sizeof c);
  c.pick = JET_DEVICE_PICK_FIRST_INTEGRATED;
  CHECK_OK(jet__device_criteria_check(&c, "t"));
  CHECK(jet__device_fits(&igpu, &c) && !jet__device_fits(&dgpu, &c));
  c.pick = JET_DEVICE_PICK_FIRST_DISCRETE;
  CHECK(!jet__device_fits(&igpu, &c) && jet__device_fits(&dgpu, &c));
  c.pick = JET_DEVICE_PICK_UUID;
  memcpy(c.uuid, dgpu.uuid, 16);
  CHECK(!jet__device_fits(&igpu, &c) && jet__device_fits(&dgpu, &c));
  c.uuid[15] ^= 1;
  CHECK(!jet__device_fits(&dgpu, &c));
  c.pick = JET_DEVICE_PICK_PCI_BUS_ID;
  c.pci_bus_id = "0005:C1:00.0";
  CHECK_OK(jet__device_criteria_check(&c, "t"));
  CHECK(!jet__device_fits(&igpu, &c) && jet__device_fits(&dgpu, &c));
  c.pci_bus_id = "C1:00.0"; /* domain 0: not this one */
  CHECK(!jet__device_fits(&dgpu, &c));
  c.pci_bus_id = "nonsense";
  CHECK_ST(jet__device_criteria_check(&c, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(!jet__device_fits(&dgpu, &c));
  c.pick = (jet_device_pick)9;
  CHECK_ST(jet__device_criteria_check(&c, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__device_criteria_check(NULL, "t"), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(badarg_peer_device_choose) {
  int dev = 7;
  jet_device_criteria c;
  memset(&c, 0, sizeof c);
  CHECK_ST(jet_device_choose(&c, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_device_choose(NULL, &dev), JET_STATUS_INVALID_ARGUMENT);
  CHECK(dev == -1);
  c.pick = JET_DEVICE_PICK_PCI_BUS_ID;
  c.pci_bus_id = NULL;
  CHECK_ST(jet_device_choose(&c, &dev), JET_STATUS_INVALID_ARGUMENT);
  c.pci_bus_id = "01:00";
  CHECK_ST(jet_device_choose(&c, &dev), JET_STATUS_INVALID_ARGUMENT);
  c.pick = (jet_device_pick)-1;
  CHECK_ST(jet_device_choose(&c, &dev), JET_STATUS_INVALID_ARGUMENT);
  CHECK(dev == -1);
  if (!jt_have_gpu()) {
    /* A valid request on a machine without a GPU: no device fits. */
    c.pick = JET_DEVICE_PICK_FIRST_DISCRETE;
    CHECK_ST(jet_device_choose(&c, &dev), JET_STATUS_NO_DEVICE);
    CHECK(dev == -1);
  }
  jet_platform_info info;
  CHECK(jet_device_query(-1, &info) != JET_STATUS_OK);
  return 0;
}

/* ------------------------------------------------------------ peer access */

/* Two fake contexts "on" devices 0 and 1 (no GPU touched). */
static int fake_pair(struct jet_context_s *a, struct jet_context_s *b, const char *pa,
                     const char *pb) {
  if (!jt_fake_context(a, pa)) return 0;
  if (!jt_fake_context(b, pb)) {
    jt_fake_context_done(a);
    return 0;
  }
  b->device = 1;
  b->info.device = 1;
  return 1;
}

TEST(badarg_peer_access) {
  struct jet_context_s a, b;
  CHECK(fake_pair(&a, &b, NULL, NULL));
  int can = 5;
  CHECK_ST(jet_peer_can_access(&a, &b, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_can_access(&a, &a, &can), JET_STATUS_INVALID_ARGUMENT);
  CHECK(can == 0);
  CHECK_DETAIL("same context");
  CHECK_ST(jet_peer_enable(&a, &a), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_disable(&b, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_enable(NULL, &b), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_peer_enable(&a, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_peer_disable(NULL, &b), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_peer_can_access(&a, (jet_context)&can, &can), JET_STATUS_INVALID_HANDLE);

  /* two contexts of one device are not peers either */
  struct jet_context_s a2;
  CHECK(jt_fake_context(&a2, NULL));
  CHECK_ST(jet_peer_enable(&a, &a2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_DETAIL("both on device 0");
  jt_fake_context_done(&a2);

  /* a destroyed context */
  jt_fake_context_done(&b);
  CHECK_ST(jet_peer_enable(&a, &b), JET_STATUS_INVALID_HANDLE);
  jt_fake_context_done(&a);
  return 0;
}

/* Tegra has no peer-to-peer: a Tegra policy on either side refuses before CUDA. */
TEST(peer_tegra_policy_refuses_access) {
  static const char *const tegra[] = {"orin", "xavier", "thor"};
  for (int i = 0; i < 3; i++) {
    for (int side = 0; side < 2; side++) {
      struct jet_context_s a, b;
      CHECK(fake_pair(&a, &b, side ? tegra[i] : NULL, side ? NULL : tegra[i]));
      int can = 7;
      CHECK_OK(jet_peer_can_access(&a, &b, &can));
      CHECK_MSG(can == 0, "%s side %d: can %d", tegra[i], side, can);
      CHECK_ST(jet_peer_enable(&a, &b), JET_STATUS_UNSUPPORTED);
      CHECK(strstr(jet_last_error()->hint, "Tegra has no peer-to-peer") != NULL);
      CHECK_DETAIL(tegra[i]);
      jt_fake_context_done(&b);
      jt_fake_context_done(&a);
    }
  }
  return 0;
}

/* ------------------------------------------------------------ copies */

TEST(badarg_peer_copy_1d) {
  struct jet_context_s a, b;
  CHECK(fake_pair(&a, &b, NULL, NULL));
  char x[16], y[16];
  void *wrap = (void *)(uintptr_t)(SIZE_MAX - 7);
  CHECK_ST(jet_peer_memcpy(&a, NULL, &b, y, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy(&a, x, &b, NULL, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy(&a, x, &b, y, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy(&a, wrap, &b, y, 16), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_peer_memcpy(&a, x, &b, wrap, 16), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_peer_memcpy(NULL, x, &b, y, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_DETAIL("dst_ctx");
  CHECK_ST(jet_peer_memcpy(&a, x, NULL, y, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_DETAIL("src_ctx");

  jet_stream sa, sb;
  CHECK_OK(jet_context_default_stream(&a, JET_STREAM_LEGACY, &sa));
  CHECK_OK(jet_context_default_stream(&b, JET_STREAM_PER_THREAD, &sb));
  CHECK_ST(jet_peer_memcpy_async(sa, &a, x, &b, y, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_async(sa, &a, NULL, &b, y, 3), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_async(NULL, &a, x, &b, y, 3), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_peer_memcpy_async((jet_stream)&a, &a, x, &b, y, 3), JET_STATUS_INVALID_HANDLE);
  /* a stream of a third context is neither side's */
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  jet_stream sc;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &sc));
  CHECK_ST(jet_peer_memcpy_async(sc, &a, x, &b, y, 3), JET_STATUS_WRONG_CONTEXT);
  CHECK_DETAIL("neither dst_ctx");
  CHECK_ST(jet_peer_memcpy_2d_async(sc, &a, x, 4, &b, y, 4, 4, 2), JET_STATUS_WRONG_CONTEXT);
  jet_copy_3d p;
  memset(&p, 0, sizeof p);
  p.dst = (jet_pitched_ptr){x, 4, 2};
  p.src = (jet_pitched_ptr){y, 4, 2};
  p.extent = (jet_extent){4, 2, 2};
  CHECK_ST(jet_peer_memcpy_3d_async(sc, &a, &b, &p), JET_STATUS_WRONG_CONTEXT);
  jt_fake_context_done(&c);
  (void)sb;
  jt_fake_context_done(&b);
  jt_fake_context_done(&a);
  return 0;
}

TEST(badarg_peer_copy_regions) {
  struct jet_context_s a, b;
  CHECK(fake_pair(&a, &b, NULL, NULL));
  char x[64], y[64];
  /* 2D: NULL, empty, width above a pitch, overflow */
  CHECK_ST(jet_peer_memcpy_2d(&a, NULL, 8, &b, y, 8, 8, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_2d(&a, x, 8, &b, NULL, 8, 8, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_2d(&a, x, 8, &b, y, 8, 0, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_2d(&a, x, 8, &b, y, 8, 8, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_2d(&a, x, 7, &b, y, 8, 8, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_DETAIL("pitch");
  CHECK_ST(jet_peer_memcpy_2d(&a, x, 8, &b, y, 5, 8, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_2d(&a, x, SIZE_MAX / 2, &b, y, SIZE_MAX / 2, 8, 5),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_peer_memcpy_2d(NULL, x, 8, &b, y, 8, 8, 2), JET_STATUS_INVALID_HANDLE);

  /* 3D */
  jet_copy_3d p;
  memset(&p, 0, sizeof p);
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, NULL), JET_STATUS_INVALID_ARGUMENT);
  p.dst = (jet_pitched_ptr){x, 8, 4};
  p.src = (jet_pitched_ptr){y, 8, 4};
  p.extent = (jet_extent){3, 2, 2};
  p.dst_pos = (jet_pos){5, 2, 0};
  p.src_pos = (jet_pos){0, 0, 1};
  CHECK_ST(jet_peer_memcpy_3d(NULL, &b, &p), JET_STATUS_INVALID_HANDLE); /* args were fine */
  jet_copy_3d q = p;
  q.dst_pos.x_bytes = 6; /* 6 + 3 > pitch 8 */
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, &q), JET_STATUS_INVALID_ARGUMENT);
  CHECK_DETAIL("exceeds the pitch");
  q = p;
  q.src_pos.y = 3; /* 3 + 2 > 4 rows */
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, &q), JET_STATUS_INVALID_ARGUMENT);
  CHECK_DETAIL("rows per slice");
  q = p;
  q.extent.depth = 0;
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.src.ptr = NULL;
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, &q), JET_STATUS_INVALID_ARGUMENT);
  q = p;
  q.dst_pos.z = SIZE_MAX;
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, &q), JET_STATUS_OVERFLOW);
  q = p;
  q.src.rows = SIZE_MAX / 4;
  q.src_pos.z = 8;
  CHECK_ST(jet_peer_memcpy_3d(&a, &b, &q), JET_STATUS_OVERFLOW);
  jet_stream sa;
  CHECK_OK(jet_context_default_stream(&a, JET_STREAM_LEGACY, &sa));
  q = p;
  q.extent.width_bytes = 0;
  CHECK_ST(jet_peer_memcpy_3d_async(sa, &a, &b, &q), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_peer_memcpy_2d_async(sa, &a, x, 8, &b, y, 8, 9, 1), JET_STATUS_INVALID_ARGUMENT);
  jt_fake_context_done(&b);
  jt_fake_context_done(&a);
  return 0;
}

TEST(badarg_peer_wait_event_and_pointer_query) {
  struct jet_context_s a;
  CHECK(jt_fake_context(&a, NULL));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&a, JET_STREAM_LEGACY, &s));
  CHECK_ST(jet_peer_wait_event(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_peer_wait_event(s, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_DETAIL("event");
  CHECK_ST(jet_peer_wait_event(s, (jet_event)s), JET_STATUS_INVALID_HANDLE);

  jet_pointer_info pi;
  int x = 0;
  CHECK_ST(jet_pointer_query(&a, &x, NULL), JET_STATUS_INVALID_ARGUMENT);
  memset(&pi, 0x5a, sizeof pi);
  CHECK_ST(jet_pointer_query(&a, NULL, &pi), JET_STATUS_INVALID_ARGUMENT);
  CHECK(pi.device == -1 && pi.device_ptr == NULL && pi.host_ptr == NULL);
  CHECK_ST(jet_pointer_query(NULL, &x, &pi), JET_STATUS_INVALID_HANDLE);
  CHECK(strcmp(jet_pointer_kind_name(JET_POINTER_DEVICE), "device") == 0);
  CHECK(strcmp(jet_pointer_kind_name(JET_POINTER_MANAGED), "managed") == 0);
  CHECK(strcmp(jet_pointer_kind_name(JET_POINTER_HOST), "host") == 0);
  CHECK(strcmp(jet_pointer_kind_name(JET_POINTER_UNREGISTERED), "unregistered") == 0);
  CHECK(strcmp(jet_pointer_kind_name((jet_pointer_kind)42), "unknown") == 0);
  jt_fake_context_done(&a);
  return 0;
}
