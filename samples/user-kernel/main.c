/*
 * user-kernel: load a kernel embedded by jetrt_add_kernels, launch it and
 * check the result on the CPU.
 *
 * Usage: user-kernel [N]. Set JET_KERNEL_PATH=cubin|ptx|nvrtc to force a path,
 * JET_JIT=forbid to refuse JIT. Exit codes: 0 ok, 2 no CUDA device, 1 failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "jetrt.h"
#include "user-kernel_kernels.h" /* generated: declares jet_images_scale */

static int fail(const char *what) {
  fprintf(stderr, "user-kernel: %s: %s\n", what, jet_last_error_string());
  return 1;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1u << 20;
  if (n == 0) n = 1;
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "user-kernel: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  jet_context ctx;
  if (jet_context_create(&ctx, NULL) != JET_STATUS_OK) return fail("jet_context_create");

  jet_module mod;
  if (jet_module_load(ctx, &jet_images_scale, NULL, &mod) != JET_STATUS_OK)
    return fail("jet_module_load");
  jet_module_load_info info;
  jet_module_info(mod, &info);
  printf("module %s on sm_%d: %s (load %.2f ms, jit %.2f ms, compile %.2f ms)\n", info.name,
         info.device_sm, info.image, info.load_ms, info.jit_ms, info.compile_ms);

  jet_kernel k;
  if (jet_module_kernel(mod, "user_scale_add", &k) != JET_STATUS_OK) return fail("lookup");
  int block = 0;
  if (jet_kernel_suggest_block(k, 0, &block, NULL) != JET_STATUS_OK) return fail("occupancy");

  size_t bytes = (size_t)n * sizeof(float);
  float *hx = malloc(bytes), *hy = malloc(bytes), *ho = malloc(bytes);
  float *dx = NULL, *dy = NULL, *dout = NULL;
  if (!hx || !hy || !ho) return 1;
  for (unsigned i = 0; i < n; i++) {
    hx[i] = (float)(i % 1000) * 0.5f;
    hy[i] = (float)(i % 77);
  }
  if (cudaMalloc((void **)&dx, bytes) != cudaSuccess || cudaMalloc((void **)&dy, bytes) != cudaSuccess ||
      cudaMalloc((void **)&dout, bytes) != cudaSuccess) {
    fprintf(stderr, "user-kernel: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice);

  jet_stream s;
  jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s);
  float a = 3.0f;
  void *args[] = {&a, &dx, &dy, &dout, &n};
  jet_dim3 grid = {(n + (unsigned)block - 1) / (unsigned)block, 1, 1}, blk = {(unsigned)block, 1, 1};
  if (jet_launch(s, k, grid, blk, 0, args) != JET_STATUS_OK) return fail("jet_launch");
  if (cudaMemcpy(ho, dout, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "user-kernel: kernel or copy failed\n");
    return 1;
  }
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++)
    if (ho[i] != a * hx[i] + hy[i]) bad++;
  printf("%u elements, block %d: %s (%u mismatches)\n", n, block, bad ? "FAILED" : "ok", bad);

  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  free(hx);
  free(hy);
  free(ho);
  jet_module_destroy(mod);
  jet_context_destroy(ctx);
  return bad ? 1 : 0;
}
