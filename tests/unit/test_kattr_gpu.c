/* Launch attributes, kernel attributes, module globals and L2 persistence on a
 * real GPU, against CPU references (kernels: tests/kernels/kattr_kernels.cu).
 * Every test runs under both policies (JET_PLATFORM=orin too): a feature the
 * device lacks (SM 9.0 clusters and PDL below SM 9.0, L2 persistence where the
 * policy says no) must be refused with UNSUPPORTED instead. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "internal.h"
#include "jet-tests_kernels.h"
#include "../../lib/l2/l2_internal.h"

#define KATTR_ARRAY_N 1021u
#define KATTR_COEFFS_N 16u
#define KATTR_NO_SM90 0xdead0090u

static uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

typedef struct kfix {
  jet_context ctx;
  jet_module mod;
  jet_stream s;
  jet_platform_info info;
  jet_policy pol;
  jet_module_load_info load;
  int sm;
} kfix;

static int kfix_open(kfix *f) {
  memset(f, 0, sizeof *f);
  CHECK_OK(jt_context(&f->ctx, 0));
  CHECK_OK(jet_context_platform(f->ctx, &f->info));
  CHECK_OK(jet_context_policy(f->ctx, &f->pol));
  CHECK_OK(jet_module_load(f->ctx, &jt_images_kattr_kernels, NULL, &f->mod));
  CHECK_OK(jet_module_info(f->mod, &f->load));
  /* blocking: the tests poison outputs with cudaMemset on the legacy stream,
   * which can return before the memset ran; kernels on f->s then follow it */
  jet_stream_desc d = {0, 0};
  CHECK_OK(jet_stream_create(f->ctx, &d, &f->s));
  f->sm = f->info.cc_major * 10 + f->info.cc_minor;
  fprintf(stderr, "device %s SM %d.%d, policy %s, module image %s; L2 persistence %d (%s)\n",
          f->info.name, f->info.cc_major, f->info.cc_minor, f->pol.name, f->load.image,
          f->pol.l2_persistence, f->pol.l2_persistence_why);
  return 0;
}

static int kfix_close(kfix *f) {
  CHECK_OK(jet_stream_destroy(f->s));
  CHECK_OK(jet_module_destroy(f->mod));
  CHECK_OK(jet_context_destroy(f->ctx));
  return 0;
}

static void *dev_alloc(size_t n) {
  void *p = NULL;
  return cudaMalloc(&p, n) == cudaSuccess ? p : NULL;
}

/* ------------------------------------------------------------ module globals */

/* Round trips through a __device__ array: write (whole and at an offset), a
 * kernel that updates it in place, read back; sync and on a stream. */
TEST(gpu_kattr_symbol_round_trip) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  void *addr = NULL;
  size_t size = 0;
  CHECK_OK(jet_module_symbol(f.mod, "kattr_array", &addr, &size));
  CHECK_MSG(addr != NULL && size == KATTR_ARRAY_N * 4, "addr %p size %zu", addr, size);
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_array_update", &k));
  uint32_t host[KATTR_ARRAY_N], expect[KATTR_ARRAY_N], got[KATTR_ARRAY_N];
  for (int pass = 0; pass < 2; pass++) {
    int async = pass == 1;
    jt_fill_random(host, sizeof host);
    uint32_t seed = jt_rand();
    if (async)
      CHECK_OK(jet_module_symbol_write_async(f.s, f.mod, "kattr_array", 0, host, sizeof host));
    else
      CHECK_OK(jet_module_symbol_write(f.mod, "kattr_array", 0, host, sizeof host));
    /* a part at an odd offset: 7 words at word 13 */
    uint32_t part[7];
    jt_fill_random(part, sizeof part);
    if (async)
      CHECK_OK(jet_module_symbol_write_async(f.s, f.mod, "kattr_array", 13 * 4, part, sizeof part));
    else
      CHECK_OK(jet_module_symbol_write(f.mod, "kattr_array", 13 * 4, part, sizeof part));
    memcpy(host + 13, part, sizeof part);
    void *args[] = {&seed};
    jet_dim3 grid = {(KATTR_ARRAY_N + 127) / 128, 1, 1}, block = {128, 1, 1};
    jet_stream ls;
    CHECK_OK(jet_context_default_stream(f.ctx, JET_STREAM_LEGACY, &ls));
    CHECK_OK(jet_launch(async ? f.s : ls, k, grid, block, 0, args));
    memset(got, 0xa5, sizeof got);
    if (async) {
      CHECK_OK(jet_module_symbol_read_async(f.s, f.mod, "kattr_array", 0, got, sizeof got));
      CHECK_OK(jet_stream_synchronize(f.s));
    } else {
      CHECK_OK(jet_module_symbol_read(f.mod, "kattr_array", 0, got, sizeof got));
    }
    for (uint32_t i = 0; i < KATTR_ARRAY_N; i++) expect[i] = host[i] * 3u + seed + i;
    for (uint32_t i = 0; i < KATTR_ARRAY_N; i++)
      CHECK_MSG(got[i] == expect[i], "%s pass: index %u: expected 0x%08x, got 0x%08x (seed 0x%08x)",
                async ? "stream" : "sync", i, expect[i], got[i], seed);
    /* a read at an offset: the last 5 words */
    uint32_t tail[5];
    memset(tail, 0xa5, sizeof tail);
    CHECK_OK(
        jet_module_symbol_read(f.mod, "kattr_array", (KATTR_ARRAY_N - 5) * 4, tail, sizeof tail));
    CHECK(memcmp(tail, expect + KATTR_ARRAY_N - 5, sizeof tail) == 0);
  }
  /* bad names, offsets and sizes */
  CHECK_ST(jet_module_symbol(f.mod, "kattr_no_such_global", &addr, &size),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "kattr_no_such_global") != NULL);
  CHECK_ST(jet_module_symbol_write(f.mod, "kattr_no_such_global", 0, host, 4),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_symbol_write(f.mod, "kattr_array", 4, host, sizeof host),
           JET_STATUS_OVERFLOW);
  CHECK(strstr(jet_last_error_string(), "4084") != NULL);
  CHECK_ST(jet_module_symbol_read(f.mod, "kattr_array", sizeof host + 4, got, 0),
           JET_STATUS_OVERFLOW);
  CHECK_OK(jet_module_symbol_read(f.mod, "kattr_array", sizeof host, got, 0));
  CHECK_ST(jet_module_symbol_read(f.mod, "kattr_array", SIZE_MAX, got, 2), JET_STATUS_OVERFLOW);
  /* a stream of another context */
  jet_context other;
  CHECK_OK(jt_context(&other, 0));
  jet_stream os;
  CHECK_OK(jet_context_default_stream(other, JET_STREAM_PER_THREAD, &os));
  CHECK_ST(jet_module_symbol_write_async(os, f.mod, "kattr_array", 0, host, 4),
           JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_context_destroy(other));
  /* a kernel is no global */
  CHECK_ST(jet_module_symbol(f.mod, "kattr_array_update", &addr, &size),
           JET_STATUS_INVALID_ARGUMENT);
  return kfix_close(&f);
}

/* A __constant__ table written through jetrt and read by a kernel. */
TEST(gpu_kattr_constant_read) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  size_t size = 0;
  CHECK_OK(jet_module_symbol(f.mod, "kattr_coeffs", NULL, &size));
  CHECK_MSG(size == KATTR_COEFFS_N * sizeof(float), "size %zu", size);
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_const_apply", &k));
  unsigned sizes[] = {1, 3, 100003};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
    unsigned n = sizes[t];
    float c[KATTR_COEFFS_N];
    for (unsigned i = 0; i < KATTR_COEFFS_N; i++) c[i] = (float)(jt_rand() % 2001) / 64.0f - 15.0f;
    CHECK_OK(jet_module_symbol_write_async(f.s, f.mod, "kattr_coeffs", 0, c, sizeof c));
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    CHECK(in && out);
    for (unsigned i = 0; i < n; i++) in[i] = (float)(int)(jt_rand() % 4001 - 2000) / 16.0f;
    float *din = dev_alloc(n * sizeof *in), *dout = dev_alloc(n * sizeof *out);
    CHECK(din && dout);
    CHECK(cudaMemcpy(din, in, n * sizeof *in, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemset(dout, 0xa5, n * sizeof *out) == cudaSuccess);
    void *args[] = {&din, &dout, &n};
    jet_dim3 grid = {(n + 255) / 256, 1, 1}, block = {256, 1, 1};
    CHECK_OK(jet_launch(f.s, k, grid, block, 0, args));
    CHECK_OK(jet_stream_synchronize(f.s));
    CHECK(cudaMemcpy(out, dout, n * sizeof *out, cudaMemcpyDeviceToHost) == cudaSuccess);
    float back[KATTR_COEFFS_N];
    CHECK_OK(jet_module_symbol_read(f.mod, "kattr_coeffs", 0, back, sizeof back));
    CHECK(memcmp(back, c, sizeof c) == 0);
    for (unsigned i = 0; i < n; i++) {
      /* inputs and coefficients are exact in few bits: fused or not, the same */
      float e = in[i] * c[i % KATTR_COEFFS_N] + c[(i + 5) % KATTR_COEFFS_N];
      CHECK_MSG(out[i] == e, "n %u index %u: expected %.9g, got %.9g", n, i, (double)e,
                (double)out[i]);
    }
    cudaFree(din);
    cudaFree(dout);
    free(in);
    free(out);
  }
  return kfix_close(&f);
}

/* ------------------------------------------------------------ cooperative launch */

static void ref_coop(uint32_t *a, uint32_t *b, unsigned n, unsigned rounds) {
  for (unsigned r = 0; r < rounds; r++) {
    const uint32_t *src = (r & 1u) ? b : a;
    uint32_t *dst = (r & 1u) ? a : b;
    for (unsigned i = 0; i < n; i++) {
      unsigned j = (unsigned)(((unsigned long long)i * 7u + 3u) % n);
      dst[i] = src[i] + hash32(src[j] + r);
    }
  }
}

TEST(gpu_kattr_cooperative_grid_sync) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_coop_rounds", &k));
  int coop = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0) == cudaSuccess);
  int per_sm = 0;
  CHECK_OK(jet_kernel_occupancy(k, 256, 0, &per_sm));
  CHECK_MSG(per_sm >= 1, "occupancy %d", per_sm);
  unsigned blocks = (unsigned)per_sm * (unsigned)f.info.sm_count;
  unsigned n = blocks * 256u * 3u + 17u, rounds = 5;
  uint32_t *a = malloc(n * 4), *b = malloc(n * 4), *got = malloc(n * 4);
  CHECK(a && b && got);
  jt_fill_random(a, n * 4);
  uint32_t *da = dev_alloc(n * 4), *db = dev_alloc(n * 4), *bar = dev_alloc(8);
  CHECK(da && db && bar);
  CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(db, 0xa5, n * 4) == cudaSuccess);
  CHECK(cudaMemset(bar, 0, 8) == cudaSuccess);
  void *args[] = {&da, &db, &n, &rounds, &bar};
  jet_launch_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.grid = (jet_dim3){blocks, 1, 1};
  cfg.block = (jet_dim3){256, 1, 1};
  cfg.flags = JET_LAUNCH_COOPERATIVE;
  if (!coop) {
    CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_UNSUPPORTED);
    return kfix_close(&f);
  }
  /* one block, an odd few, and every block that can be co-resident */
  unsigned grids[] = {1, 3, blocks};
  uint32_t *a0 = malloc(n * 4);
  CHECK(a0);
  memcpy(a0, a, n * 4);
  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
    memcpy(a, a0, n * 4);
    CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemset(db, 0xa5, n * 4) == cudaSuccess);
    CHECK(cudaMemset(bar, 0, 8) == cudaSuccess);
    cfg.grid.x = grids[g];
    CHECK_OK(jet_launch_ex(f.s, k, &cfg, args));
    CHECK_OK(jet_stream_synchronize(f.s));
    ref_coop(a, b, n, rounds);
    const uint32_t *want = (rounds & 1u) ? b : a;
    CHECK(cudaMemcpy(got, (rounds & 1u) ? db : da, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (unsigned i = 0; i < n; i++)
      CHECK_MSG(got[i] == want[i], "grid %u x 256 (co-resident max %u), n %u, %u rounds: index "
                "%u: expected 0x%08x, got 0x%08x", grids[g], blocks, n, rounds, i, want[i], got[i]);
  }
  free(a0);
  /* one block more than can be co-resident: refused before the launch (it
   * would hang in the barrier) */
  cfg.grid.x = blocks + 1;
  CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "co-resident") != NULL);
  CHECK_OK(jet_stream_synchronize(f.s));
  cudaFree(da);
  cudaFree(db);
  cudaFree(bar);
  free(a);
  free(b);
  free(got);
  return kfix_close(&f);
}

/* ------------------------------------------------------------ clusters */

TEST(gpu_kattr_cluster_dsmem) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_cluster_dsmem", &k));
  const unsigned csize = 4, nclusters = 25, bd = 128;
  unsigned blocks = csize * nclusters, n = blocks * bd;
  jet_launch_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.grid = (jet_dim3){blocks, 1, 1};
  cfg.block = (jet_dim3){bd, 1, 1};
  cfg.cluster = (jet_dim3){csize, 1, 1};
  int clusters = -1;
  uint32_t *in = malloc(n * 4), *out = malloc(n * 4), *info = malloc(blocks * 4);
  CHECK(in && out && info);
  uint32_t *din = dev_alloc(n * 4), *dout = dev_alloc(n * 4), *dinfo = dev_alloc(blocks * 4);
  CHECK(din && dout && dinfo);
  void *args[] = {&din, &dout, &dinfo};
  if (f.sm < 90) {
    CHECK_ST(jet_kernel_max_active_clusters(k, cfg.cluster, cfg.block, 0, &clusters),
             JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_UNSUPPORTED);
    CHECK(strstr(jet_last_error_string(), "SM 9.0") != NULL);
    return kfix_close(&f);
  }
  CHECK_OK(jet_kernel_max_active_clusters(k, cfg.cluster, cfg.block, 0, &clusters));
  CHECK_MSG(clusters >= 1 && (unsigned)clusters * csize <= (unsigned)f.info.sm_count * 32u,
            "max active clusters %d of %u blocks on %d SMs", clusters, csize, f.info.sm_count);
  jt_fill_random(in, n * 4);
  CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(dout, 0xa5, n * 4) == cudaSuccess);
  CHECK(cudaMemset(dinfo, 0xa5, blocks * 4) == cudaSuccess);
  CHECK_OK(jet_launch_ex(f.s, k, &cfg, args));
  CHECK_OK(jet_stream_synchronize(f.s));
  CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(info, dinfo, blocks * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK_MSG(info[0] != KATTR_NO_SM90, "the module image (%s) was built without SM 9.0 code",
            f.load.image);
  for (unsigned blk = 0; blk < blocks; blk++) {
    unsigned rank = blk % csize, peer = blk - rank + (rank + 1) % csize;
    CHECK_MSG(info[blk] == (rank | (csize << 16)), "block %u: rank/size 0x%08x, expected 0x%08x",
              blk, info[blk], rank | (csize << 16));
    for (unsigned t = 0; t < bd; t++) {
      uint32_t e = in[peer * bd + (bd - 1 - t)] + rank;
      CHECK_MSG(out[blk * bd + t] == e, "block %u thread %u: expected 0x%08x, got 0x%08x", blk, t,
                e, out[blk * bd + t]);
    }
  }
  /* refusals: not dividing the grid, above the portable size, with cooperative */
  cfg.cluster = (jet_dim3){3, 1, 1};
  CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_INVALID_ARGUMENT);
  cfg.grid.x = 16;
  cfg.cluster = (jet_dim3){16, 1, 1};
  CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_INVALID_ARGUMENT);
  cfg.cluster = (jet_dim3){2, 1, 1};
  cfg.flags = JET_LAUNCH_COOPERATIVE;
  CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_synchronize(f.s));
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dinfo);
  free(in);
  free(out);
  free(info);
  return kfix_close(&f);
}

/* ------------------------------------------------------------ programmatic dependent launch */

TEST(gpu_kattr_programmatic_dependent_launch) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  jet_kernel kp, ks;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_pdl_primary", &kp));
  CHECK_OK(jet_module_kernel(f.mod, "kattr_pdl_secondary", &ks));
  unsigned n = (1u << 20) + 3u, spin = 64;
  uint32_t *dbuf = dev_alloc((size_t)n * 4), *dout = dev_alloc((size_t)n * 4);
  uint32_t *out = malloc((size_t)n * 4);
  CHECK(dbuf && dout && out);
  jet_launch_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.grid = (jet_dim3){(n + 255) / 256, 1, 1};
  cfg.block = (jet_dim3){256, 1, 1};
  cfg.flags = JET_LAUNCH_PROGRAMMATIC;
  void *sargs[] = {&dbuf, &dout, &n};
  if (f.sm < 90) {
    CHECK_ST(jet_launch_ex(f.s, ks, &cfg, sargs), JET_STATUS_UNSUPPORTED);
    CHECK(strstr(jet_last_error_string(), "SM 9.0") != NULL);
    return kfix_close(&f);
  }
  for (int rep = 0; rep < 3; rep++) {
    uint32_t seed = jt_rand();
    CHECK(cudaMemset(dbuf, 0xa5, (size_t)n * 4) == cudaSuccess);
    CHECK(cudaMemset(dout, 0x5a, (size_t)n * 4) == cudaSuccess);
    void *pargs[] = {&dbuf, &n, &seed, &spin};
    CHECK_OK(jet_launch(f.s, kp, cfg.grid, cfg.block, 0, pargs));
    CHECK_OK(jet_launch_ex(f.s, ks, &cfg, sargs));
    CHECK_OK(jet_stream_synchronize(f.s));
    CHECK(cudaMemcpy(out, dout, (size_t)n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_MSG(out[0] != KATTR_NO_SM90, "the module image (%s) was built without SM 9.0 code",
              f.load.image);
    for (unsigned i = 0; i < n; i++) {
      uint32_t x = i ^ seed;
      for (unsigned j = 0; j < spin; j++) x = hash32(x);
      uint32_t e = x * 3u + 1u;
      CHECK_MSG(out[i] == e, "rep %d index %u: expected 0x%08x, got 0x%08x (seed 0x%08x)", rep, i,
                e, out[i], seed);
    }
  }
  cudaFree(dbuf);
  cudaFree(dout);
  free(out);
  return kfix_close(&f);
}

/* ------------------------------------------------------------ dynamic shared memory */

TEST(gpu_kattr_dynamic_shared_optin) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_dyn_smem", &k));
  jet_kernel_attrs at;
  CHECK_OK(jet_kernel_attributes(k, &at));
  fprintf(stderr, "kattr_dyn_smem: %d regs, %zu static smem, dyn limit %d, opt-in max %d\n",
          at.num_regs, at.static_shared_bytes, at.max_dynamic_shared_bytes,
          at.device_optin_shared_bytes);
  CHECK(at.max_dynamic_shared_bytes <= 48 * 1024);
  size_t bound = (size_t)at.device_optin_shared_bytes - at.static_shared_bytes;
  size_t bytes = bound < 96 * 1024 ? bound : 96 * 1024;
  bytes = bytes / 4 * 4 - 12; /* an odd number of words */
  if (bytes <= 48 * 1024) SKIP("device opt-in shared memory is not above 48 KiB");
  unsigned words = (unsigned)(bytes / 4), blocks = 5;
  size_t total = (size_t)words * blocks;
  uint32_t *in = malloc(total * 4), *out = malloc(total * 4);
  uint32_t *din = dev_alloc(total * 4), *dout = dev_alloc(total * 4);
  CHECK(in && out && din && dout);
  jt_fill_random(in, total * 4);
  CHECK(cudaMemcpy(din, in, total * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  void *args[] = {&din, &dout, &words};
  jet_dim3 grid = {blocks, 1, 1}, block = {256, 1, 1};
  /* refused without the opt-in, with the hint */
  CHECK_ST(jet_launch(f.s, k, grid, block, bytes, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "jet_kernel_set_max_dynamic_shared") != NULL);
  /* above the device's opt-in bound: refused */
  CHECK_ST(jet_kernel_set_max_dynamic_shared(k, bound + 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_kernel_set_max_dynamic_shared(k, bytes));
  CHECK_OK(jet_kernel_attributes(k, &at));
  CHECK_MSG((size_t)at.max_dynamic_shared_bytes == bytes, "limit %d, set %zu",
            at.max_dynamic_shared_bytes, bytes);
  for (int pass = 0; pass < 2; pass++) {
    CHECK(cudaMemset(dout, 0xa5, total * 4) == cudaSuccess);
    if (pass == 0) {
      CHECK_OK(jet_launch(f.s, k, grid, block, bytes, args));
    } else {
      jet_launch_config cfg;
      memset(&cfg, 0, sizeof cfg);
      cfg.grid = grid;
      cfg.block = block;
      cfg.shared_bytes = bytes;
      CHECK_OK(jet_launch_ex(f.s, k, &cfg, args));
    }
    CHECK_OK(jet_stream_synchronize(f.s));
    CHECK(cudaMemcpy(out, dout, total * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (unsigned b = 0; b < blocks; b++)
      for (unsigned j = 0; j < words; j++) {
        uint32_t e = (in[(size_t)b * words + (words - 1 - j)] ^ 0x5a5a5a5au) + b;
        CHECK_MSG(out[(size_t)b * words + j] == e, "pass %d, %zu shared bytes: block %u word %u: "
                  "expected 0x%08x, got 0x%08x", pass, bytes, b, j, e, out[(size_t)b * words + j]);
      }
  }
  /* occupancy with that much shared memory fits the SM's shared memory */
  int per_sm = -1, smem_sm = 0;
  CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0) ==
        cudaSuccess);
  CHECK_OK(jet_kernel_occupancy(k, 256, bytes, &per_sm));
  CHECK_MSG(per_sm >= 1 && (size_t)per_sm * bytes <= (size_t)smem_sm,
            "%d blocks of %zu shared bytes on an SM of %d", per_sm, bytes, smem_sm);
  /* carve-out: accepted in range, refused outside */
  CHECK_OK(jet_kernel_set_carveout(k, 100));
  CHECK_OK(jet_kernel_set_carveout(k, -1));
  CHECK_ST(jet_kernel_set_carveout(k, 101), JET_STATUS_INVALID_ARGUMENT);
  /* back to the default limit: refused again */
  CHECK_OK(jet_kernel_set_max_dynamic_shared(k, 0));
  CHECK_ST(jet_launch(f.s, k, grid, block, bytes, args), JET_STATUS_INVALID_ARGUMENT);
  cudaFree(din);
  cudaFree(dout);
  free(in);
  free(out);
  return kfix_close(&f);
}

/* ------------------------------------------------------------ occupancy, priority */

TEST(gpu_kattr_occupancy_and_attributes) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  int max_threads_sm = 0, max_blocks_sm = 0;
  CHECK(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceGetAttribute(&max_blocks_sm, cudaDevAttrMaxBlocksPerMultiprocessor, 0) ==
        cudaSuccess);
  const char *names[] = {"kattr_coop_rounds", "kattr_const_apply", "kattr_hot_stream"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    jet_kernel k;
    CHECK_OK(jet_module_kernel(f.mod, names[i], &k));
    jet_kernel_attrs at;
    CHECK_OK(jet_kernel_attributes(k, &at));
    CHECK_MSG(at.max_threads_per_block >= 64 && at.max_threads_per_block <= 1024 &&
                  at.num_regs >= 1 && at.num_regs <= 255 && at.binary_version >= 50,
              "%s: max threads %d, regs %d, binary %d", names[i], at.max_threads_per_block,
              at.num_regs, at.binary_version);
    unsigned sizes[] = {32, 96, 128, 256};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
      int per_sm = -1;
      CHECK_OK(jet_kernel_occupancy(k, sizes[j], 0, &per_sm));
      CHECK_MSG(per_sm >= 1 && per_sm <= max_blocks_sm &&
                    (unsigned)per_sm * sizes[j] <= (unsigned)max_threads_sm,
                "%s: %d blocks of %u threads per SM (limits %d blocks, %d threads)", names[i],
                per_sm, sizes[j], max_blocks_sm, max_threads_sm);
      /* registers bound it too */
      int regs_sm = 0;
      CHECK(cudaDeviceGetAttribute(&regs_sm, cudaDevAttrMaxRegistersPerMultiprocessor, 0) ==
            cudaSuccess);
      CHECK((long)per_sm * sizes[j] * at.num_regs <= (long)regs_sm);
    }
    int none = -1;
    CHECK_ST(jet_kernel_occupancy(k, (unsigned)at.max_threads_per_block + 1, 0, &none),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK(none == 0);
  }
  return kfix_close(&f);
}

TEST(gpu_kattr_launch_priority) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  int least = 0, greatest = 0;
  CHECK_OK(jet_stream_priority_range(f.ctx, &least, &greatest));
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_pdl_primary", &k));
  unsigned n = 4099, spin = 3;
  uint32_t seed = jt_rand();
  uint32_t *dbuf = dev_alloc(n * 4), *out = malloc(n * 4);
  CHECK(dbuf && out);
  CHECK(cudaMemset(dbuf, 0xa5, n * 4) == cudaSuccess);
  void *args[] = {&dbuf, &n, &seed, &spin};
  jet_launch_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.grid = (jet_dim3){(n + 127) / 128, 1, 1};
  cfg.block = (jet_dim3){128, 1, 1};
  cfg.flags = JET_LAUNCH_PRIORITY;
  cfg.priority = greatest;
  CHECK_OK(jet_launch_ex(f.s, k, &cfg, args));
  CHECK_OK(jet_stream_synchronize(f.s));
  CHECK(cudaMemcpy(out, dbuf, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (unsigned i = 0; i < n; i++) {
    uint32_t x = i ^ seed;
    for (unsigned j = 0; j < spin; j++) x = hash32(x);
    CHECK_MSG(out[i] == x, "index %u: expected 0x%08x, got 0x%08x", i, x, out[i]);
  }
  cfg.priority = greatest - 1;
  CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_INVALID_ARGUMENT);
  cfg.priority = least + 1;
  CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_launch_ex(f.s, k, NULL, args), JET_STATUS_INVALID_ARGUMENT);
  cudaFree(dbuf);
  free(out);
  return kfix_close(&f);
}

/* ------------------------------------------------------------ L2 persistence */

TEST(gpu_l2_set_aside_and_reset) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  jet_l2_info li;
  CHECK_OK(jet_l2_query(f.ctx, &li));
  fprintf(stderr, "L2 %zu bytes, persisting max %zu, set-aside %zu, max window %zu, supported %d\n",
          li.l2_bytes, li.persisting_max, li.set_aside, li.max_window_bytes, li.supported);
  CHECK(li.l2_bytes == f.info.l2_size && li.supported == f.pol.l2_persistence);
  if (!li.supported) {
    CHECK_ST(jet_l2_set_aside(f.ctx, 0, NULL), JET_STATUS_UNSUPPORTED);
    CHECK_ST(jet_l2_reset_persisting(f.ctx), JET_STATUS_UNSUPPORTED);
    return kfix_close(&f);
  }
  CHECK(li.persisting_max > 0 && li.persisting_max <= li.l2_bytes && li.max_window_bytes > 0);
  CHECK_ST(jet_l2_set_aside(f.ctx, li.persisting_max + 1, NULL), JET_STATUS_INVALID_ARGUMENT);
  size_t want = li.persisting_max / 2, granted = 0;
  jet_status st = jet_l2_set_aside(f.ctx, want, &granted);
  if (st == JET_STATUS_UNSUPPORTED) {
    /* MIG or MPS: the driver refuses the limit; say so and stop here */
    fprintf(stderr, "set-aside refused by the driver: %s\n", jet_last_error_string());
    SKIP("the driver refuses the persisting-L2 limit on this device (MIG or MPS)");
  }
  CHECK_OK(st);
  CHECK_MSG(granted > 0 && granted <= li.persisting_max, "asked %zu, granted %zu (max %zu)", want,
            granted, li.persisting_max);
  CHECK_OK(jet_l2_query(f.ctx, &li));
  CHECK_MSG(li.set_aside == granted, "query %zu, granted %zu", li.set_aside, granted);
  CHECK_OK(jet_l2_set_aside(f.ctx, li.persisting_max, &granted));
  CHECK_MSG(granted > 0 && granted <= li.persisting_max, "max: granted %zu", granted);
  CHECK_OK(jet_l2_reset_persisting(f.ctx));
  CHECK_OK(jet_l2_set_aside(f.ctx, 0, &granted));
  CHECK_MSG(granted == 0, "set-aside 0 reads back %zu", granted);
  return kfix_close(&f);
}

TEST(gpu_l2_stream_window_and_launch) {
  REQUIRE_GPU();
  kfix f;
  if (kfix_open(&f)) return 1;
  jet_l2_info li;
  CHECK_OK(jet_l2_query(f.ctx, &li));
  unsigned hot_n = 4096 + 7, n = (1u << 20) + 5;
  uint32_t *dhot = dev_alloc(hot_n * 4), *din = dev_alloc((size_t)n * 4),
           *dout = dev_alloc((size_t)n * 4);
  uint32_t *hot = malloc(hot_n * 4), *in = malloc((size_t)n * 4), *out = malloc((size_t)n * 4);
  CHECK(dhot && din && dout && hot && in && out);
  /* 16 KiB: a size the driver need not align */
  jet_access_policy win = {dhot, 16384, 0.75f, JET_ACCESS_PERSISTING, JET_ACCESS_STREAMING};
  if (!li.supported) {
    CHECK_ST(jet_l2_stream_set_window(f.s, &win), JET_STATUS_UNSUPPORTED);
    jet_kernel k;
    CHECK_OK(jet_module_kernel(f.mod, "kattr_hot_stream", &k));
    jet_launch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid = (jet_dim3){1, 1, 1};
    cfg.block = (jet_dim3){32, 1, 1};
    cfg.access_policy = &win;
    void *args[] = {&dhot, &hot_n, &din, &dout, &n};
    CHECK_ST(jet_launch_ex(f.s, k, &cfg, args), JET_STATUS_UNSUPPORTED);
    jet_graph g;
    jet_graph_node kn;
    CHECK_OK(jet_graph_create(f.ctx, &g));
    CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k, cfg.grid, cfg.block, 0, args, &kn));
    CHECK_ST(jet_graph_kernel_set_access_policy(g, kn, &win), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_graph_destroy(g));
    return kfix_close(&f);
  }
  /* set, read back, clear */
  CHECK_OK(jet_l2_stream_set_window(f.s, &win));
  jet_access_policy back;
  CHECK_OK(jet_l2_stream_window(f.s, &back));
  CHECK_MSG(back.base == win.base && back.bytes == win.bytes && back.hit_ratio == win.hit_ratio &&
                back.hit == win.hit && back.miss == win.miss,
            "read back %p %zu %g %d %d", back.base, back.bytes, (double)back.hit_ratio,
            (int)back.hit, (int)back.miss);
  /* refusals on a real stream */
  jet_access_policy bad = win;
  bad.bytes = li.max_window_bytes + 1;
  CHECK_ST(jet_l2_stream_set_window(f.s, &bad), JET_STATUS_INVALID_ARGUMENT);
  bad = win;
  bad.miss = JET_ACCESS_PERSISTING;
  CHECK_ST(jet_l2_stream_set_window(f.s, &bad), JET_STATUS_INVALID_ARGUMENT);
  jet_stream ls;
  CHECK_OK(jet_context_default_stream(f.ctx, JET_STREAM_LEGACY, &ls));
  CHECK_ST(jet_l2_stream_set_window(ls, &win), JET_STATUS_INVALID_ARGUMENT);
  /* the converter graph kernel nodes use, against the device's own limit */
  struct cudaAccessPolicyWindow w;
  CHECK_OK(jet__access_policy_native(&win, f.info.device, &w, "test"));
  CHECK(w.base_ptr == dhot && w.num_bytes == win.bytes && w.hitRatio == win.hit_ratio &&
        w.hitProp == cudaAccessPropertyPersisting && w.missProp == cudaAccessPropertyStreaming);
  bad = win;
  bad.bytes = li.max_window_bytes + 4096;
  CHECK_ST(jet__access_policy_native(&bad, f.info.device, &w, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  /* kernels run correctly with the stream's window and with a launch's window */
  jet_kernel k;
  CHECK_OK(jet_module_kernel(f.mod, "kattr_hot_stream", &k));
  jt_fill_random(hot, hot_n * 4);
  jt_fill_random(in, (size_t)n * 4);
  CHECK(cudaMemcpy(dhot, hot, hot_n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(din, in, (size_t)n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
  void *args[] = {&dhot, &hot_n, &din, &dout, &n};
  jet_dim3 grid = {(n + 255) / 256, 1, 1}, block = {256, 1, 1};
  for (int pass = 0; pass < 2; pass++) {
    CHECK(cudaMemset(dout, 0xa5, (size_t)n * 4) == cudaSuccess);
    if (pass == 0) {
      CHECK_OK(jet_launch(f.s, k, grid, block, 0, args));
    } else {
      CHECK_OK(jet_l2_stream_clear_window(f.s));
      CHECK_OK(jet_l2_stream_window(f.s, &back));
      CHECK_MSG(back.bytes == 0, "cleared window has %zu bytes", back.bytes);
      jet_launch_config cfg;
      memset(&cfg, 0, sizeof cfg);
      cfg.grid = grid;
      cfg.block = block;
      cfg.access_policy = &win;
      CHECK_OK(jet_launch_ex(f.s, k, &cfg, args));
    }
    CHECK_OK(jet_stream_synchronize(f.s));
    CHECK(cudaMemcpy(out, dout, (size_t)n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (unsigned i = 0; i < n; i++) {
      uint32_t e = in[i] + hot[hash32(i) % hot_n];
      CHECK_MSG(out[i] == e, "pass %d index %u: expected 0x%08x, got 0x%08x", pass, i, e, out[i]);
    }
  }
  /* a graph kernel node's window: set, read back, refusals, launches, clear */
  jet_graph g;
  jet_graph_node kn, mn;
  CHECK_OK(jet_graph_create(f.ctx, &g));
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k, grid, block, 0, args, &kn));
  jet_graph_memset ms = {dhot, 0, 1, 4, 1, 1};
  CHECK_OK(jet_graph_add_memset(g, NULL, 0, &ms, &mn));
  CHECK_OK(jet_graph_kernel_access_policy(g, kn, &back));
  CHECK_MSG(back.bytes == 0, "a new node has a %zu-byte window", back.bytes);
  CHECK_OK(jet_graph_kernel_set_access_policy(g, kn, &win));
  CHECK_OK(jet_graph_kernel_access_policy(g, kn, &back));
  CHECK_MSG(back.base == win.base && back.bytes == win.bytes && back.hit_ratio == win.hit_ratio &&
                back.hit == win.hit && back.miss == win.miss,
            "node read back %p %zu %g %d %d", back.base, back.bytes, (double)back.hit_ratio,
            (int)back.hit, (int)back.miss);
  CHECK_ST(jet_graph_kernel_set_access_policy(g, mn, &win), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_kernel_set_access_policy(g, mn + 1, &win), JET_STATUS_INVALID_ARGUMENT);
  bad = win;
  bad.bytes = li.max_window_bytes + 4096;
  CHECK_ST(jet_graph_kernel_set_access_policy(g, kn, &bad), JET_STATUS_INVALID_ARGUMENT);
  bad = win;
  bad.hit_ratio = 1.5f;
  CHECK_ST(jet_graph_kernel_set_access_policy(g, kn, &bad), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_kernel_access_policy(g, kn, &back)); /* refusals changed nothing */
  CHECK(back.bytes == win.bytes && back.base == win.base);
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  for (int rep = 0; rep < 2; rep++) {
    CHECK(cudaMemset(dout, 0xa5, (size_t)n * 4) == cudaSuccess);
    CHECK(cudaMemcpy(dhot, hot, hot_n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_OK(jet_graph_exec_launch(x, f.s));
    CHECK_OK(jet_stream_synchronize(f.s));
    CHECK(cudaMemcpy(out, dout, (size_t)n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    /* the memset node (no edge to the kernel) may run before or after it:
     * word 0 of hot reads as either value */
    for (unsigned i = 0; i < n; i++) {
      unsigned j = hash32(i) % hot_n;
      uint32_t e = in[i] + hot[j], e1 = in[i] + 1u;
      CHECK_MSG(out[i] == e || (j == 0 && out[i] == e1),
                "graph launch %d index %u: expected 0x%08x, got 0x%08x", rep, i, e, out[i]);
    }
  }
  jet_access_policy none;
  memset(&none, 0, sizeof none);
  CHECK_OK(jet_graph_kernel_set_access_policy(g, kn, &none));
  CHECK_OK(jet_graph_kernel_access_policy(g, kn, &back));
  CHECK_MSG(back.bytes == 0, "cleared node window has %zu bytes", back.bytes);
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));
  CHECK_OK(jet_l2_reset_persisting(f.ctx));
  cudaFree(dhot);
  cudaFree(din);
  cudaFree(dout);
  free(hot);
  free(in);
  free(out);
  return kfix_close(&f);
}
