/*
 * jet-bench-load: module load time per path and jet_launch overhead.
 *
 * Load paths (each a median over many load+unload cycles of jetrt's "pattern"
 * module): cubin; PTX JIT with the driver's JIT cache disabled (cold) and warm;
 * NVRTC without its cache (cold) and from its disk cache. The driver reads its
 * cache settings once per process, so the cold and warm PTX runs happen in
 * child processes of this program (CUDA_CACHE_DISABLE=1, and a fresh
 * CUDA_CACHE_PATH). Launch overhead: batches of launches of an empty kernel
 * through jet_launch and through a raw cuLaunchKernel on the same CUfunction
 * and stream, timed on the host (submission cost) and with CUDA events.
 *
 * Usage: jet-bench-load [--runs N]   (default 50; NVRTC cold uses N/5, >= 3)
 * Prints a table and one summary line last. Exit: 0 ok, 2 no GPU, 1 failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "jetrt.h"

/* jetrt's own test module (kernels/test/pattern.cu), embedded in libjetrt. */
extern const jet_kernel_image_set jet__images_pattern;

typedef CUresult(CUDAAPI *launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                     unsigned, unsigned, CUstream, void **, void **);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct stats {
  double median, min, max;
  int n;
} stats;

static stats summarize(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  stats s = {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v[0], v[n - 1], n};
  return s;
}

static void emit(const char *key, stats s) {
  printf("RESULT %s %.6f %.6f %.6f %d\n", key, s.median, s.min, s.max, s.n);
  fflush(stdout);
}

static int fail(const char *what) {
  fprintf(stderr, "jet-bench-load: %s: %s\n", what, jet_last_error_string());
  return 1;
}

/* Load and unload @runs times on one path; emit the median of total_ms. */
static int bench_path(jet_context ctx, const char *key, jet_kernel_path path, unsigned flags,
                      const char *cache_dir, int runs, int warmup, int expect_hit) {
  double *v = calloc((size_t)runs, sizeof *v);
  if (!v) return 1;
  jet_module_options o = {flags | JET_MODULE_IGNORE_ENV, path, cache_dir};
  for (int i = -warmup; i < runs; i++) {
    jet_module m;
    if (jet_module_load(ctx, &jet__images_pattern, &o, &m) != JET_STATUS_OK) {
      free(v);
      return fail(key);
    }
    jet_module_load_info info;
    jet_module_info(m, &info);
    if (i >= 0) {
      v[i] = info.total_ms;
      if (expect_hit >= 0 && info.cache_hit != expect_hit) {
        fprintf(stderr, "jet-bench-load: %s: cache_hit %d, expected %d\n", key, info.cache_hit,
                expect_hit);
        jet_module_destroy(m);
        free(v);
        return 1;
      }
    }
    jet_module_destroy(m);
  }
  emit(key, summarize(v, runs));
  free(v);
  return 0;
}

static int bench_launch(jet_context ctx, int runs) {
  jet_module m;
  jet_module_options o = {JET_MODULE_IGNORE_ENV, JET_KERNEL_PATH_AUTO, NULL};
  if (jet_module_load(ctx, &jet__images_pattern, &o, &m) != JET_STATUS_OK) return fail("load");
  jet_kernel k;
  void *fnp = NULL;
  if (jet_module_kernel(m, "jet_test_empty", &k) != JET_STATUS_OK ||
      jet_kernel_native(k, &fnp) != JET_STATUS_OK)
    return fail("kernel");
  CUfunction fn = (CUfunction)fnp;
  void *p = NULL;
  enum cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 4000, cudaEnableDefault, &q) !=
          cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
    fprintf(stderr, "jet-bench-load: cuLaunchKernel entry point unavailable\n");
    return 1;
  }
  launch_fn raw;
  memcpy(&raw, &p, sizeof p);
  jet_stream s;
  jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s);
  cudaEvent_t e0, e1;
  if (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) return 1;
  enum { BATCH = 256 };
  jet_dim3 one = {1, 1, 1};
  double *host[2], *gpu[2];
  for (int w = 0; w < 2; w++) {
    host[w] = calloc((size_t)runs, sizeof(double));
    gpu[w] = calloc((size_t)runs, sizeof(double));
    if (!host[w] || !gpu[w]) return 1;
  }
  for (int r = -3; r < runs; r++) {
    for (int w = 0; w < 2; w++) { /* 0: jet_launch, 1: raw; interleaved against drift */
      cudaDeviceSynchronize();
      cudaEventRecord(e0, cudaStreamPerThread);
      double t0 = now_ms();
      for (int i = 0; i < BATCH; i++) {
        if (w == 0) {
          if (jet_launch(s, k, one, one, 0, NULL) != JET_STATUS_OK) return fail("jet_launch");
        } else if (raw(fn, 1, 1, 1, 1, 1, 1, 0, CU_STREAM_PER_THREAD, NULL, NULL) != CUDA_SUCCESS) {
          fprintf(stderr, "jet-bench-load: cuLaunchKernel failed\n");
          return 1;
        }
      }
      double t1 = now_ms();
      cudaEventRecord(e1, cudaStreamPerThread);
      if (cudaEventSynchronize(e1) != cudaSuccess) return 1;
      float ms = 0.0f;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r >= 0) {
        host[w][r] = (t1 - t0) * 1e3 / BATCH; /* microseconds per launch */
        gpu[w][r] = (double)ms * 1e3 / BATCH;
      }
    }
  }
  emit("launch_jet_host_us", summarize(host[0], runs));
  emit("launch_raw_host_us", summarize(host[1], runs));
  emit("launch_jet_event_us", summarize(gpu[0], runs));
  emit("launch_raw_event_us", summarize(gpu[1], runs));
  for (int w = 0; w < 2; w++) {
    free(host[w]);
    free(gpu[w]);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  jet_module_destroy(m);
  return 0;
}

static int child(const char *mode, int runs) {
  jet_context ctx;
  if (jet_context_create(&ctx, NULL) != JET_STATUS_OK) return fail("jet_context_create");
  int rc = 0;
  int nv_runs = runs / 5 < 3 ? 3 : runs / 5;
  if (strcmp(mode, "cold") == 0) {
    char dir[] = "/tmp/jet-bench-cache-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    rc = bench_path(ctx, "cubin", JET_KERNEL_PATH_CUBIN, 0, NULL, runs, 2, -1);
    if (!rc) rc = bench_path(ctx, "ptx_cold", JET_KERNEL_PATH_PTX, 0, NULL, runs, 1, -1);
    if (!rc)
      rc = bench_path(ctx, "nvrtc_cold", JET_KERNEL_PATH_NVRTC, JET_MODULE_NO_CACHE, NULL, nv_runs,
                      1, 0);
    if (!rc) rc = bench_path(ctx, "nvrtc_cached", JET_KERNEL_PATH_NVRTC, 0, dir, runs, 1, 1);
    if (!rc) rc = bench_launch(ctx, runs);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "jet-bench-load: could not remove %s\n", dir);
  } else {
    /* the first (warm-up) load fills the fresh driver cache */
    rc = bench_path(ctx, "ptx_warm", JET_KERNEL_PATH_PTX, 0, NULL, runs, 1, -1);
  }
  jet_context_destroy(ctx);
  return rc;
}

typedef struct result {
  char key[32];
  stats s;
} result;

static int run_child(const char *self, const char *env, const char *mode, int runs, result *out,
                     int *n, int cap) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "%s '%s' --child %s --runs %d", env, self, mode, runs);
  FILE *p = popen(cmd, "r");
  if (!p) return 1;
  char line[256];
  while (fgets(line, sizeof line, p)) {
    result r;
    if (*n < cap && sscanf(line, "RESULT %31s %lf %lf %lf %d", r.key, &r.s.median, &r.s.min,
                           &r.s.max, &r.s.n) == 5)
      out[(*n)++] = r;
  }
  int st = pclose(p);
  if (st != 0) fprintf(stderr, "jet-bench-load: child '%s' failed (status %d)\n", mode, st);
  return st != 0;
}

static const stats *find(const result *r, int n, const char *key) {
  for (int i = 0; i < n; i++)
    if (strcmp(r[i].key, key) == 0) return &r[i].s;
  return NULL;
}

int main(int argc, char **argv) {
  int runs = 50;
  const char *mode = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--child") == 0 && i + 1 < argc)
      mode = argv[++i];
    else {
      fprintf(stderr, "usage: jet-bench-load [--runs N]\n");
      return 1;
    }
  }
  if (runs < 3) runs = 3;
  if (mode) return child(mode, runs);

  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "jet-bench-load: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  jet_platform_info info;
  if (jet_device_query(0, &info) != JET_STATUS_OK) return fail("jet_device_query");
  char self[1024];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 1;
  self[len] = '\0';
  char warm_dir[] = "/tmp/jet-bench-jit-XXXXXX";
  if (!mkdtemp(warm_dir)) return 1;
  char warm_env[128];
  snprintf(warm_env, sizeof warm_env, "CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH='%s'", warm_dir);

  result res[32];
  int n = 0;
  int rc = run_child(self, "CUDA_CACHE_DISABLE=1", "cold", runs, res, &n, 32);
  if (!rc) rc = run_child(self, warm_env, "warm", runs, res, &n, 32);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", warm_dir);
  if (system(cmd) != 0) fprintf(stderr, "jet-bench-load: could not remove %s\n", warm_dir);
  if (rc) return 1;

  printf("device 0: %s, SM %d.%d, driver %d, runtime %d\n", info.name, info.cc_major,
         info.cc_minor, info.driver_version, info.runtime_version);
  printf("%-34s %10s %10s %10s %6s\n", "measurement", "median", "min", "max", "runs");
  static const struct {
    const char *key, *label;
  } rows[] = {
      {"cubin", "load cubin (ms)"},
      {"ptx_cold", "load PTX, JIT cache off (ms)"},
      {"ptx_warm", "load PTX, JIT cache warm (ms)"},
      {"nvrtc_cold", "load NVRTC, compile (ms)"},
      {"nvrtc_cached", "load NVRTC, disk cache hit (ms)"},
      {"launch_jet_host_us", "jet_launch submit (us/launch)"},
      {"launch_raw_host_us", "cuLaunchKernel submit (us/launch)"},
      {"launch_jet_event_us", "jet_launch, events (us/launch)"},
      {"launch_raw_event_us", "cuLaunchKernel, events (us/launch)"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const stats *s = find(res, n, rows[i].key);
    if (!s) {
      fprintf(stderr, "jet-bench-load: no result for %s\n", rows[i].key);
      return 1;
    }
    printf("%-34s %10.3f %10.3f %10.3f %6d\n", rows[i].label, s->median, s->min, s->max, s->n);
  }
  const stats *c = find(res, n, "cubin"), *pc = find(res, n, "ptx_cold"),
              *pw = find(res, n, "ptx_warm"), *nc = find(res, n, "nvrtc_cold"),
              *nh = find(res, n, "nvrtc_cached"), *lj = find(res, n, "launch_jet_host_us"),
              *lr = find(res, n, "launch_raw_host_us");
  printf("summary: sm_%d%d load cubin %.3f ms, ptx cold %.2f / warm %.3f ms, nvrtc cold %.1f / "
         "cached %.3f ms; jet_launch %.3f us vs cuLaunchKernel %.3f us (+%.3f us)\n",
         info.cc_major, info.cc_minor, c->median, pc->median, pw->median, nc->median, nh->median,
         lj->median, lr->median, lj->median - lr->median);
  return 0;
}
