/* Platform policy selection from device attributes (host only, table-driven),
 * the /proc/meminfo estimate, and contexts on a real GPU. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"
#include <cuda_runtime_api.h>

TEST(platform_select_from_attributes) {
  static const struct {
    int integrated, major, minor;
    const char *request, *name;
    jet_platform_kind kind;
    jet_shared_backing backing;
    int host_register, memory_ipc, event_ipc, forced;
    jet_managed_mode managed;
    jet_cubin_match cubin;
  } rows[] = {
      {0, 9, 0, NULL, "desktop", JET_PLATFORM_DESKTOP, JET_SHARED_BACKING_DEVICE_STAGED, 1, 1, 1, 0,
       JET_MANAGED_PREFETCH, JET_CUBIN_SAME_MAJOR},
      {0, 8, 9, "auto", "desktop", JET_PLATFORM_DESKTOP, JET_SHARED_BACKING_DEVICE_STAGED, 1, 1, 1, 0,
       JET_MANAGED_PREFETCH, JET_CUBIN_SAME_MAJOR},
      {0, 12, 0, "", "desktop", JET_PLATFORM_DESKTOP, JET_SHARED_BACKING_DEVICE_STAGED, 1, 1, 1, 0,
       JET_MANAGED_PREFETCH, JET_CUBIN_SAME_MAJOR},
      {1, 7, 2, NULL, "xavier", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 0, 1, 0,
       JET_MANAGED_STREAM_ATTACH, JET_CUBIN_EXACT_SM},
      {1, 8, 7, NULL, "orin", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 0, 1, 0,
       JET_MANAGED_STREAM_ATTACH, JET_CUBIN_EXACT_SM},
      {1, 11, 0, NULL, "thor", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 1, 1, 0,
       JET_MANAGED_PREFETCH, JET_CUBIN_EXACT_SM},
      {1, 10, 1, NULL, "thor", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 1, 1, 0,
       JET_MANAGED_PREFETCH, JET_CUBIN_EXACT_SM},
      /* TX2: not I/O coherent, so no host registration */
      {1, 6, 2, NULL, "tegra", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 0, 0, 0, 0,
       JET_MANAGED_STREAM_ATTACH, JET_CUBIN_EXACT_SM},
      /* forced policies on a desktop GPU */
      {0, 9, 0, "orin", "orin", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 0, 1, 1,
       JET_MANAGED_STREAM_ATTACH, JET_CUBIN_EXACT_SM},
      {0, 9, 0, "xavier", "xavier", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 0, 1, 1,
       JET_MANAGED_STREAM_ATTACH, JET_CUBIN_EXACT_SM},
      {0, 9, 0, "thor", "thor", JET_PLATFORM_TEGRA, JET_SHARED_BACKING_MAPPED_HOST, 1, 1, 1, 1,
       JET_MANAGED_PREFETCH, JET_CUBIN_EXACT_SM},
      /* and desktop forced on a Jetson */
      {1, 8, 7, "desktop", "desktop", JET_PLATFORM_DESKTOP, JET_SHARED_BACKING_DEVICE_STAGED, 1, 1, 1,
       1, JET_MANAGED_PREFETCH, JET_CUBIN_SAME_MAJOR},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_platform_info dev = jt_fake_device(rows[r].integrated, rows[r].major, rows[r].minor);
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, rows[r].request, &p, "test"));
    CHECK_MSG(strcmp(p.policy.name, rows[r].name) == 0, "row %zu: got %s want %s", r,
              p.policy.name, rows[r].name);
    CHECK_MSG(p.policy.kind == rows[r].kind, "row %zu", r);
    CHECK_MSG(p.policy.shared_backing == rows[r].backing, "row %zu", r);
    CHECK_MSG(p.policy.host_register_allowed == rows[r].host_register, "row %zu", r);
    CHECK_MSG(p.policy.memory_ipc_allowed == rows[r].memory_ipc, "row %zu", r);
    CHECK_MSG(p.policy.event_ipc_allowed == rows[r].event_ipc, "row %zu", r);
    CHECK_MSG(p.policy.forced == rows[r].forced, "row %zu", r);
    CHECK_MSG(p.policy.managed_mode == rows[r].managed, "row %zu", r);
    CHECK_MSG(p.policy.cubin_match == rows[r].cubin, "row %zu", r);
    /* EGLSync -> CUDA event: the driver has it on the iGPU only, so it follows the kind. */
    CHECK_MSG(p.policy.egl_sync == (rows[r].kind == JET_PLATFORM_TEGRA ? JET_EGL_SYNC_CUDA_EVENT
                                                                       : JET_EGL_SYNC_HOST_WAIT),
              "row %zu", r);
    CHECK_MSG(p.ops != NULL && p.ops->mem_info != NULL, "row %zu: ops table incomplete", r);
    CHECK_MSG(p.policy.reason[0] != '\0', "row %zu: no reason", r);
    if (rows[r].forced) CHECK(strstr(p.policy.reason, "forced") != NULL);
  }
  return 0;
}

/* FP64 float sums: the desktop rows allow them, the device's FP32/FP64
 * ratio decides (2: a data-centre GPU; 0: unknown; 64: GeForce), and a
 * Tegra policy, detected or forced, never takes them. */
TEST(platform_fp64_sums_follow_policy_and_ratio) {
  static const struct {
    int integrated, major, minor, ratio;
    const char *request;
    int fp64_sums;
  } rows[] = {
      {0, 9, 0, 2, NULL, 1},     {0, 8, 0, 2, "auto", 1},  {0, 9, 0, 1, NULL, 1},
      {0, 8, 9, 64, NULL, 0},    {0, 9, 0, 0, NULL, 0},    {0, 12, 0, 64, NULL, 0},
      {0, 9, 0, 3, NULL, 0},     {0, 9, 0, -2, NULL, 0},   {0, 9, 0, 2, "orin", 0},
      {0, 9, 0, 2, "thor", 0},   {0, 9, 0, 2, "xavier", 0}, {0, 9, 0, 2, "igx-dgpu", 1},
      {1, 8, 7, 64, NULL, 0},    {1, 8, 7, 2, NULL, 0},    {1, 8, 7, 2, "desktop", 1},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_platform_info dev = jt_fake_device(rows[r].integrated, rows[r].major, rows[r].minor);
    dev.fp64_ratio = rows[r].ratio;
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, rows[r].request, &p, "test"));
    CHECK_MSG(p.policy.fp64_sums == rows[r].fp64_sums, "row %zu (%s, ratio %d): fp64_sums %d", r,
              p.policy.name, rows[r].ratio, p.policy.fp64_sums);
  }
  return 0;
}

TEST(badarg_platform_unknown_name) {
  jet_platform_info dev = jt_fake_device(0, 9, 0);
  jet__platform p;
  CHECK_ST(jet__platform_select(&dev, "nano", &p, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "nano") != NULL);
  CHECK_ST(jet__platform_select(&dev, "tegra", &p, "test"), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(platform_request_prefers_descriptor_over_env) {
  setenv("JET_PLATFORM", "thor", 1);
  CHECK(strcmp(jet__platform_request(NULL), "thor") == 0);
  CHECK(strcmp(jet__platform_request(""), "thor") == 0);
  CHECK(strcmp(jet__platform_request("orin"), "orin") == 0);
  unsetenv("JET_PLATFORM");
  CHECK(jet__platform_request(NULL) == NULL);
  return 0;
}

TEST(meminfo_parse_estimates_free_memory) {
  char path[] = "/tmp/jet-meminfo-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  unsigned long long total_kb = 1000000 + jt_rand() % 1000000, avail_kb = jt_rand() % 1000000;
  FILE *f = fdopen(fd, "w");
  fprintf(f, "MemTotal:       %llu kB\nMemFree:          12345 kB\nMemAvailable:   %llu kB\n"
             "NvMapMemUsed:     5000 kB\n", total_kb, avail_kb);
  fclose(f);
  size_t fr = 0, tot = 0;
  CHECK_OK(jet__meminfo_parse(path, &fr, &tot, "test"));
  CHECK(fr == avail_kb * 1024 && tot == total_kb * 1024);
  f = fopen(path, "w");
  fprintf(f, "MemTotal: 100 kB\n"); /* no MemAvailable */
  fclose(f);
  CHECK_ST(jet__meminfo_parse(path, &fr, &tot, "test"), JET_STATUS_IO_ERROR);
  unlink(path);
  CHECK_ST(jet__meminfo_parse(path, &fr, &tot, "test"), JET_STATUS_IO_ERROR);
  return 0;
}

TEST(device_count_without_gpu_is_zero_not_error) {
  int n = -1;
  CHECK_OK(jet_device_count(&n));
  CHECK(n >= 0);
  if (n == 0) CHECK(jet_last_error()->native_call[0] != '\0'); /* says why */
  return 0;
}

TEST(badarg_context) {
  jet_context ctx = (jet_context)(uintptr_t)0x1;
  jet_context_desc d = {0, JET_CONTEXT_SYNC_SPIN | JET_CONTEXT_SYNC_BLOCKING, NULL};
  CHECK_ST(jet_context_create(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_context_create(&ctx, &d), JET_STATUS_INVALID_ARGUMENT);
  CHECK(ctx == NULL);
  d.flags = 1u << 20;
  CHECK_ST(jet_context_create(&ctx, &d), JET_STATUS_INVALID_ARGUMENT);
  d.flags = 0;
  d.device = -1;
  CHECK_ST(jet_context_create(&ctx, &d), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_context_destroy(NULL));
  int bogus[8] = {0};
  jet_platform_info info;
  jet_policy pol;
  size_t fr;
  CHECK_ST(jet_context_destroy((jet_context)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_context_platform(NULL, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_context_policy((jet_context)bogus, &pol), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_context_mem_info(NULL, &fr, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_context_synchronize(NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_device_query(0, NULL), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(gpu_context_report_matches_device) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info a, b;
  CHECK_OK(jet_context_platform(ctx, &a));
  CHECK_OK(jet_device_query(0, &b));
  CHECK(memcmp(&a, &b, sizeof a) == 0);
  CHECK(a.cc_major >= 5 && a.sm_count > 0 && a.total_memory > 0 && a.name[0]);
  CHECK(a.runtime_version >= 12000 && a.driver_version >= a.runtime_version / 1000 * 1000);
  jet_policy p;
  CHECK_OK(jet_context_policy(ctx, &p));
  const char *env = getenv("JET_PLATFORM");
  if (env && env[0]) {
    CHECK(strcmp(p.name, env) == 0 && p.forced);
  } else {
    CHECK(!p.forced);
    CHECK(p.kind == (a.integrated ? JET_PLATFORM_TEGRA : JET_PLATFORM_DESKTOP));
  }
  size_t fr = 0, tot = 0;
  CHECK_OK(jet_context_mem_info(ctx, &fr, &tot));
  CHECK(fr > 0 && fr <= tot);
  CHECK_OK(jet_context_synchronize(ctx));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_context_flags_and_bad_inputs) {
  REQUIRE_GPU();
  jet_context a, b, c = NULL;
  jet_context_desc d = {0, JET_CONTEXT_MAP_HOST | JET_CONTEXT_SYNC_BLOCKING, NULL};
  CHECK_OK(jet_context_create(&a, &d));
  /* A second context on the device with compatible flags shares it. */
  d.flags = JET_CONTEXT_MAP_HOST;
  CHECK_OK(jet_context_create(&b, &d));
  int n = 0;
  CHECK_OK(jet_device_count(&n));
  d.device = n; /* one past the last */
  CHECK_ST(jet_context_create(&c, &d), JET_STATUS_INVALID_ARGUMENT);
  CHECK(c == NULL);
  d.device = 0;
  d.platform = "jetson-nano";
  CHECK_ST(jet_context_create(&c, &d), JET_STATUS_INVALID_ARGUMENT);
  d.platform = "thor";
  CHECK_OK(jet_context_create(&c, &d));
  jet_policy p;
  CHECK_OK(jet_context_policy(c, &p));
  CHECK(strcmp(p.name, "thor") == 0 && p.forced == 1);
  CHECK_OK(jet_context_destroy(c));
  /* a live BLOCKING context: SPIN on the same device would change it underneath */
  jet_context_desc spin = {0, JET_CONTEXT_SYNC_SPIN, NULL};
  jet_context e = NULL;
  CHECK_ST(jet_context_create(&e, &spin), JET_STATUS_INVALID_STATE);
  CHECK(e == NULL);
  {
    /* b asked for no sync mode and must not have overwritten a's */
    unsigned have = 0;
    CHECK(cudaGetDeviceFlags(&have) == cudaSuccess);
    CHECK((have & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
  }
  CHECK_OK(jet_context_destroy(b));
  CHECK_OK(jet_context_destroy(a));
  /* destroyed handles are detected, not dereferenced */
  CHECK_ST(jet_context_destroy(a), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_context_policy(b, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_context_synchronize(c), JET_STATUS_INVALID_HANDLE);
  /* with every context gone, another sync mode is accepted */
  CHECK_OK(jet_context_create(&e, &spin));
  CHECK_OK(jet_context_destroy(e));
  return 0;
}

TEST(gpu_context_default_streams) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_stream la, pa, lb;
  CHECK_OK(jet_context_default_stream(a, JET_STREAM_LEGACY, &la));
  CHECK_OK(jet_context_default_stream(a, JET_STREAM_PER_THREAD, &pa));
  CHECK_OK(jet_context_default_stream(b, JET_STREAM_LEGACY, &lb));
  CHECK(la != pa && la != lb);
  CHECK_ST(jet_context_default_stream(a, (jet_default_stream)7, &la), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_context_default_stream(a, JET_STREAM_LEGACY, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* default streams do not keep their context alive */
  CHECK_OK(jet_context_destroy(a));
  CHECK_OK(jet_context_destroy(b));
  CHECK_ST(jet_context_default_stream(a, JET_STREAM_LEGACY, &la), JET_STATUS_INVALID_HANDLE);
  return 0;
}
