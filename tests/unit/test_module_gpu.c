/* Kernel modules on a real GPU: each load path gives bit-identical output, the
 * NVRTC cache, forbid mode, the JIT log of broken PTX, launch arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "internal.h"
#include "../../lib/module/module_int.h"

/* CPU reference of kernels/test/pattern.cu: jet_test_pattern. */
static void ref_pattern(const uint32_t *in, uint32_t *ou, float *of, unsigned n, uint32_t seed) {
  for (unsigned i = 0; i < n; i++) {
    uint32_t v = in[i], x = v ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    ou[i] = x + i;
    float a = (float)(x & 0xffffffu);
    float b = (float)(v >> 8);
    float t1 = a * 5.9604645e-8f;
    float t2 = a + 1.0f;
    float t3 = b / t2;
    of[i] = t1 + t3;
  }
}

typedef struct run_buf {
  unsigned n;
  uint32_t seed;
  uint32_t *in, *ou;
  float *of;
  uint32_t *d_in, *d_ou;
  float *d_of;
} run_buf;

static int buf_init(run_buf *b, unsigned n) {
  memset(b, 0, sizeof *b);
  b->n = n;
  b->seed = jt_rand();
  b->in = malloc(n * sizeof *b->in);
  b->ou = malloc(n * sizeof *b->ou);
  b->of = malloc(n * sizeof *b->of);
  if (!b->in || !b->ou || !b->of) return 0;
  jt_fill_random(b->in, n * sizeof *b->in);
  return cudaMalloc((void **)&b->d_in, n * sizeof *b->in) == cudaSuccess &&
         cudaMalloc((void **)&b->d_ou, n * sizeof *b->ou) == cudaSuccess &&
         cudaMalloc((void **)&b->d_of, n * sizeof *b->of) == cudaSuccess &&
         cudaMemcpy(b->d_in, b->in, n * sizeof *b->in, cudaMemcpyHostToDevice) == cudaSuccess;
}

static void buf_free(run_buf *b) {
  cudaFree(b->d_in);
  cudaFree(b->d_ou);
  cudaFree(b->d_of);
  free(b->in);
  free(b->ou);
  free(b->of);
}

/* Launch jet_test_pattern from @m on @b (outputs poisoned first) and compare
 * bit for bit with the CPU. Returns 0 on a match. */
static int run_and_check(jet_context ctx, jet_module m, run_buf *b) {
  jet_kernel k;
  CHECK_OK(jet_module_kernel(m, "jet_test_pattern", &k));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &s));
  CHECK(cudaMemset(b->d_ou, 0xa5, b->n * sizeof *b->ou) == cudaSuccess);
  CHECK(cudaMemset(b->d_of, 0xa5, b->n * sizeof *b->of) == cudaSuccess);
  void *args[] = {&b->d_in, &b->d_ou, &b->d_of, &b->n, &b->seed};
  jet_dim3 grid = {(b->n + 127) / 128, 1, 1}, block = {128, 1, 1};
  CHECK_OK(jet_launch(s, k, grid, block, 0, args));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  uint32_t *gu = malloc(b->n * sizeof *gu);
  float *gf = malloc(b->n * sizeof *gf);
  CHECK(gu && gf);
  CHECK(cudaMemcpy(gu, b->d_ou, b->n * sizeof *gu, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(gf, b->d_of, b->n * sizeof *gf, cudaMemcpyDeviceToHost) == cudaSuccess);
  ref_pattern(b->in, b->ou, b->of, b->n, b->seed);
  int bad = 0;
  for (unsigned i = 0; i < b->n && bad < 5; i++)
    if (gu[i] != b->ou[i] || memcmp(&gf[i], &b->of[i], sizeof(float)) != 0) {
      fprintf(stderr, "  [%u] in %08x: gpu %08x %.9g, cpu %08x %.9g\n", i, b->in[i], gu[i],
              (double)gf[i], b->ou[i], (double)b->of[i]);
      bad++;
    }
  free(gu);
  free(gf);
  CHECK_MSG(bad == 0, "GPU output differs from the CPU reference");
  return 0;
}

static int make_tmpdir(char *buf, size_t cap) {
  snprintf(buf, cap, "/tmp/jet-kcache-XXXXXX");
  return mkdtemp(buf) != NULL;
}

static void rm_tree(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

TEST(gpu_module_paths_bit_identical) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  char dir[64];
  CHECK(make_tmpdir(dir, sizeof dir));
  run_buf b;
  CHECK(buf_init(&b, 100003));
  static const jet_kernel_path paths[] = {JET_KERNEL_PATH_CUBIN, JET_KERNEL_PATH_PTX,
                                          JET_KERNEL_PATH_NVRTC};
  int device_sm = ctx->info.cc_major * 10 + ctx->info.cc_minor;
  for (int p = 0; p < 3; p++) {
    jet_module_options o = {JET_MODULE_IGNORE_ENV, paths[p], dir};
    jet_module m = NULL;
    jet_status st = jet_module_load(ctx, &jet__images_pattern, &o, &m);
    if (paths[p] == JET_KERNEL_PATH_NVRTC && !jet__nvrtc_built_in()) {
      CHECK_ST(st, JET_STATUS_NOT_BUILT_IN);
      fprintf(stderr, "NVRTC not built in: path checked for NOT_BUILT_IN only\n");
      continue;
    }
    CHECK_MSG(st == JET_STATUS_OK, "path %d: %s", (int)paths[p], jet_last_error_string());
    jet_module_load_info info;
    CHECK_OK(jet_module_info(m, &info));
    fprintf(stderr, "path %d: %s load %.3f ms jit %.3f ms compile %.3f ms\n", (int)paths[p],
            info.image, info.load_ms, info.jit_ms, info.compile_ms);
    CHECK(info.path == paths[p]);
    CHECK(info.device_sm == device_sm);
    CHECK(strcmp(info.name, "pattern") == 0);
    CHECK(info.total_ms >= info.load_ms && info.load_ms > 0.0);
    if (paths[p] == JET_KERNEL_PATH_CUBIN) {
      char want[32];
      snprintf(want, sizeof want, "sm_%d cubin", info.image_sm);
      CHECK(strcmp(info.image, want) == 0);
      CHECK(info.image_sm / 10 == device_sm / 10 && info.image_sm <= device_sm);
      CHECK(info.jit_ms == 0.0 && info.compile_ms == 0.0);
    } else if (paths[p] == JET_KERNEL_PATH_PTX) {
      CHECK(strstr(info.image, "ptx") != NULL && info.image_sm <= device_sm);
      CHECK(info.compile_ms == 0.0);
    } else {
      CHECK(info.image_sm == device_sm && info.compile_ms > 0.0 && !info.cache_hit);
    }
    int r = run_and_check(ctx, m, &b);
    CHECK_OK(jet_module_destroy(m));
    CHECK_MSG(r == 0, "path %d", (int)paths[p]);
  }
  buf_free(&b);
  rm_tree(dir);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_module_auto_follows_policy) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_module m;
  jet_module_options o = {JET_MODULE_IGNORE_ENV, JET_KERNEL_PATH_AUTO, NULL};
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  jet_module_load_info info;
  CHECK_OK(jet_module_info(m, &info));
  int sm = info.device_sm;
  int have_exact = 0;
  for (size_t i = 0; i < jet__images_pattern.image_count; i++)
    if (jet__images_pattern.images[i].kind == JET_IMAGE_CUBIN && jet__images_pattern.images[i].sm == sm)
      have_exact = 1;
  if (have_exact) {
    CHECK(info.path == JET_KERNEL_PATH_CUBIN && info.image_sm == sm);
  } else {
    CHECK(info.path != JET_KERNEL_PATH_CUBIN || ctx->platform.policy.cubin_match == JET_CUBIN_SAME_MAJOR);
  }
  CHECK_OK(jet_module_destroy(m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_module_nvrtc_cache_hit_and_rebuild) {
  REQUIRE_GPU();
  if (!jet__nvrtc_built_in()) SKIP("NVRTC not built in");
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  char dir[64];
  CHECK(make_tmpdir(dir, sizeof dir));
  run_buf b;
  CHECK(buf_init(&b, 4099));
  jet_module_options o = {JET_MODULE_IGNORE_ENV, JET_KERNEL_PATH_NVRTC, dir};
  jet_module m;
  jet_module_load_info info;

  /* cold: compiled, written */
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(!info.cache_hit && info.compile_ms > 0.0);
  CHECK(info.cache_file[0] && strncmp(info.cache_file, dir, strlen(dir)) == 0);
  char file[512];
  snprintf(file, sizeof file, "%s", info.cache_file);
  struct stat st;
  CHECK(stat(file, &st) == 0 && st.st_size > 64);
  CHECK(run_and_check(ctx, m, &b) == 0);
  CHECK_OK(jet_module_destroy(m));

  /* warm: read from the cache, nothing compiled */
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(info.cache_hit && info.compile_ms == 0.0);
  CHECK(strcmp(info.cache_file, file) == 0);
  CHECK(strstr(info.image, "cached") != NULL);
  CHECK(run_and_check(ctx, m, &b) == 0);
  CHECK_OK(jet_module_destroy(m));

  /* a corrupted byte in the payload: detected, rebuilt, never loaded */
  FILE *f = fopen(file, "r+b");
  CHECK(f);
  long off = 64 + (long)(jt_rand() % (unsigned)(st.st_size - 64));
  CHECK(fseek(f, off, SEEK_SET) == 0);
  int c = fgetc(f);
  CHECK(c != EOF && fseek(f, off, SEEK_SET) == 0 && fputc(c ^ 0xff, f) != EOF && fclose(f) == 0);
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(!info.cache_hit && info.compile_ms > 0.0);
  CHECK(run_and_check(ctx, m, &b) == 0);
  CHECK_OK(jet_module_destroy(m));
  /* the rebuilt entry is good again */
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(info.cache_hit);
  CHECK_OK(jet_module_destroy(m));

  /* a foreign entry (valid file, another key) under the same name is rebuilt */
  jet__cache_key other = {0x1234, info.device_sm, 1, 0};
  unsigned char junk[256];
  jt_fill_random(junk, sizeof junk);
  CHECK_OK(jet__cache_write(file, &other, junk, sizeof junk, "t"));
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(!info.cache_hit && info.compile_ms > 0.0);
  CHECK(run_and_check(ctx, m, &b) == 0);
  CHECK_OK(jet_module_destroy(m));

  /* NO_CACHE: compiled, not read */
  o.flags |= JET_MODULE_NO_CACHE;
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &o, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(!info.cache_hit && info.cache_file[0] == '\0');
  CHECK_OK(jet_module_destroy(m));

  /* JET_CACHE_DIR is honoured when the options name no directory */
  char dir2[64];
  CHECK(make_tmpdir(dir2, sizeof dir2));
  setenv("JET_CACHE_DIR", dir2, 1);
  unsetenv("JET_KERNEL_PATH");
  unsetenv("JET_JIT");
  jet_module_options e = {0, JET_KERNEL_PATH_NVRTC, NULL};
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, &e, &m));
  CHECK_OK(jet_module_info(m, &info));
  CHECK(strncmp(info.cache_file, dir2, strlen(dir2)) == 0);
  CHECK_OK(jet_module_destroy(m));

  buf_free(&b);
  rm_tree(dir);
  rm_tree(dir2);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* A set holding only the pattern module's PTX, no source. */
static jet_kernel_image_set ptx_only(jet_kernel_image *img) {
  for (size_t i = 0; i < jet__images_pattern.image_count; i++)
    if (jet__images_pattern.images[i].kind == JET_IMAGE_PTX) *img = jet__images_pattern.images[i];
  jet_kernel_image_set s = {JET_KERNEL_IMAGE_SET_ABI, "pattern-ptx", img, 1, NULL, 0};
  return s;
}

TEST(gpu_module_forbid_with_only_ptx) {
  REQUIRE_GPU();
  jet_kernel_image img = {0, JET_IMAGE_CUBIN, NULL, 0};
  jet_kernel_image_set s = ptx_only(&img);
  CHECK(img.kind == JET_IMAGE_PTX);
  unsetenv("JET_KERNEL_PATH");
  unsetenv("JET_JIT");
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_module m = NULL;
  /* allowed: loads through the JIT */
  CHECK_OK(jet_module_load(ctx, &s, NULL, &m));
  CHECK_OK(jet_module_destroy(m));
  /* module flag */
  jet_module_options o = {JET_MODULE_NO_JIT, JET_KERNEL_PATH_AUTO, NULL};
  CHECK_ST(jet_module_load(ctx, &s, &o, &m), JET_STATUS_NO_KERNEL_IMAGE);
  CHECK(m == NULL);
  CHECK(strstr(jet_last_error()->message, "JIT forbidden (JET_MODULE_NO_JIT)") != NULL);
  CHECK(strstr(jet_last_error()->message, "compute_") != NULL);
  /* environment */
  setenv("JET_JIT", "forbid", 1);
  CHECK_ST(jet_module_load(ctx, &s, NULL, &m), JET_STATUS_NO_KERNEL_IMAGE);
  CHECK(strstr(jet_last_error()->message, "JET_JIT=forbid") != NULL);
  /* the environment is ignored on request */
  o.flags = JET_MODULE_IGNORE_ENV;
  CHECK_OK(jet_module_load(ctx, &s, &o, &m));
  CHECK_OK(jet_module_destroy(m));
  setenv("JET_JIT", "bogus", 1);
  CHECK_ST(jet_module_load(ctx, &s, NULL, &m), JET_STATUS_INVALID_ARGUMENT);
  unsetenv("JET_JIT");
  CHECK_OK(jet_context_destroy(ctx));
  /* context flag */
  CHECK_OK(jt_context(&ctx, JET_CONTEXT_NO_JIT));
  CHECK_ST(jet_module_load(ctx, &s, NULL, &m), JET_STATUS_NO_KERNEL_IMAGE);
  CHECK(strstr(jet_last_error()->message, "JET_CONTEXT_NO_JIT") != NULL);
  /* with cubins present, forbid mode still loads the pattern module's exact/compatible cubin */
  jet_module_load_info info;
  if (jet_module_load(ctx, &jet__images_pattern, NULL, &m) == JET_STATUS_OK) {
    CHECK_OK(jet_module_info(m, &info));
    CHECK(info.path == JET_KERNEL_PATH_CUBIN);
    CHECK_OK(jet_module_destroy(m));
  } else {
    CHECK(jet_last_error()->status == JET_STATUS_NO_KERNEL_IMAGE);
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_module_broken_ptx_reports_jit_log) {
  REQUIRE_GPU();
  /* %r1 is used without a .reg declaration: ptxas rejects it */
  static const char broken[] = ".version 7.0\n.target sm_75\n.address_size 64\n\n"
                               ".visible .entry broken_kernel()\n{\n  mov.u32 %r1, 1;\n  ret;\n}\n";
  jet_kernel_image img = {75, JET_IMAGE_PTX, broken, sizeof broken};
  jet_kernel_image_set s = {JET_KERNEL_IMAGE_SET_ABI, "broken", &img, 1, NULL, 0};
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_module_options o = {JET_MODULE_IGNORE_ENV, JET_KERNEL_PATH_PTX, NULL};
  jet_module m = NULL;
  CHECK_ST(jet_module_load(ctx, &s, &o, &m), JET_STATUS_JIT_FAILED);
  CHECK(m == NULL);
  const jet_error_info *e = jet_last_error();
  fprintf(stderr, "detail: %s\n", jet_last_error_string());
  CHECK(strcmp(e->native_call, "cuModuleLoadDataEx") == 0);
  const char *log = strstr(e->message, "JIT log: ");
  CHECK(log != NULL);
  log += strlen("JIT log: ");
  CHECK(strlen(log) > 10 && strcmp(log, "(empty)") != 0);
  /* the driver's ptxas names the offending line or symbol */
  CHECK(strstr(log, "r1") != NULL || strstr(log, "line") != NULL);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_module_kernel_lookup_and_occupancy) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_module m;
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, NULL, &m));
  jet_kernel k1, k2, k3 = NULL;
  CHECK_OK(jet_module_kernel(m, "jet_test_pattern", &k1));
  CHECK_OK(jet_module_kernel(m, "jet_test_pattern", &k2));
  CHECK(k1 == k2);
  CHECK_ST(jet_module_kernel(m, "no_such_kernel", &k3), JET_STATUS_INVALID_ARGUMENT);
  CHECK(k3 == NULL);
  CHECK(strstr(jet_last_error()->message, "no_such_kernel") != NULL);
  CHECK_ST(jet_module_kernel(m, "", &k3), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_kernel(m, NULL, &k3), JET_STATUS_INVALID_ARGUMENT);
  int block = 0, grid = 0;
  CHECK_OK(jet_kernel_suggest_block(k1, 0, &block, &grid));
  CHECK(block >= 32 && block <= 1024 && block % 32 == 0 && grid >= ctx->info.sm_count);
  CHECK_OK(jet_kernel_suggest_block(k1, 0, &block, NULL));
  CHECK_ST(jet_kernel_suggest_block(k1, 0, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  void *fn = NULL;
  CHECK_OK(jet_kernel_native(k1, &fn));
  CHECK(fn != NULL);
  CHECK_ST(jet_kernel_native(k1, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_module_load_info info;
  CHECK_ST(jet_module_info(m, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_module_info(m, &info));
  CHECK_OK(jet_module_destroy(m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_module_load_options) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_module m = (jet_module)(uintptr_t)1;
  CHECK_ST(jet_module_load(ctx, NULL, NULL, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK(m == NULL);
  jet_module_options o = {1u << 9, JET_KERNEL_PATH_AUTO, NULL};
  CHECK_ST(jet_module_load(ctx, &jet__images_pattern, &o, &m), JET_STATUS_INVALID_ARGUMENT);
  o = (jet_module_options){0, (jet_kernel_path)9, NULL};
  CHECK_ST(jet_module_load(ctx, &jet__images_pattern, &o, &m), JET_STATUS_INVALID_ARGUMENT);
  o = (jet_module_options){JET_MODULE_NO_JIT, JET_KERNEL_PATH_PTX, NULL};
  CHECK_ST(jet_module_load(ctx, &jet__images_pattern, &o, &m), JET_STATUS_INVALID_ARGUMENT);
  o = (jet_module_options){JET_MODULE_NO_JIT, JET_KERNEL_PATH_NVRTC, NULL};
  CHECK_ST(jet_module_load(ctx, &jet__images_pattern, &o, &m), JET_STATUS_INVALID_ARGUMENT);
  setenv("JET_KERNEL_PATH", "fastest", 1);
  CHECK_ST(jet_module_load(ctx, &jet__images_pattern, NULL, &m), JET_STATUS_INVALID_ARGUMENT);
  /* the environment override forces a path */
  setenv("JET_KERNEL_PATH", "ptx", 1);
  unsetenv("JET_JIT");
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, NULL, &m));
  jet_module_load_info info;
  CHECK_OK(jet_module_info(m, &info));
  CHECK(info.path == JET_KERNEL_PATH_PTX);
  CHECK_OK(jet_module_destroy(m));
  unsetenv("JET_KERNEL_PATH");
  jet_kernel_image_set wrong = jet__images_pattern;
  wrong.abi = 99;
  CHECK_ST(jet_module_load(ctx, &wrong, NULL, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_launch) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  jet_module m;
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, NULL, &m));
  jet_kernel k, empty;
  CHECK_OK(jet_module_kernel(m, "jet_test_pattern", &k));
  CHECK_OK(jet_module_kernel(m, "jet_test_empty", &empty));
  jet_stream s, s_other;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(other, JET_STREAM_LEGACY, &s_other));
  run_buf b;
  CHECK(buf_init(&b, 1000));
  void *args[] = {&b.d_in, &b.d_ou, &b.d_of, &b.n, &b.seed};
  void *args_hole[] = {&b.d_in, NULL, &b.d_of, &b.n, &b.seed};
  jet_dim3 one = {1, 1, 1}, zero_x = {0, 1, 1}, zero_z = {1, 1, 0}, huge = {2048, 1, 1},
           cube = {16, 16, 8};
  CHECK_ST(jet_launch(s, k, zero_x, one, 0, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch(s, k, one, zero_z, 0, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch(s, k, one, huge, 0, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch(s, k, one, cube, 0, args), JET_STATUS_INVALID_ARGUMENT); /* 2048 threads */
  CHECK_ST(jet_launch(s, k, one, one, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch(s, k, one, one, 0, args_hole), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "args[1]") != NULL);
  CHECK_ST(jet_launch(s, k, one, one, (size_t)1 << 33, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch(s, k, one, one, (size_t)16 << 20, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch(s_other, k, one, one, 0, args), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_launch(NULL, k, one, one, 0, args), JET_STATUS_INVALID_HANDLE);
  /* a kernel without parameters takes NULL args; launches on both default streams work */
  CHECK_OK(jet_launch(s, empty, one, one, 0, NULL));
  jet_stream legacy;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &legacy));
  CHECK_OK(jet_launch(legacy, empty, one, one, 0, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  buf_free(&b);
  CHECK_OK(jet_module_destroy(m));
  CHECK_OK(jet_context_destroy(other));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_module_destroyed) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_module m;
  CHECK_OK(jet_module_load(ctx, &jet__images_pattern, NULL, &m));
  jet_kernel k;
  CHECK_OK(jet_module_kernel(m, "jet_test_empty", &k));
  /* the context refuses to go while the module lives */
  CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_module_destroy(m));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &s));
  jet_dim3 one = {1, 1, 1};
  CHECK_ST(jet_launch(s, k, one, one, 0, NULL), JET_STATUS_INVALID_HANDLE);
  jet_module_load_info info;
  CHECK_ST(jet_module_info(m, &info), JET_STATUS_INVALID_HANDLE);
  jet_kernel k2;
  CHECK_ST(jet_module_kernel(m, "jet_test_empty", &k2), JET_STATUS_INVALID_HANDLE);
  int block;
  CHECK_ST(jet_kernel_suggest_block(k, 0, &block, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_module_destroy(m), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}
