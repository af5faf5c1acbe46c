/*
 * Shared buffers backed by pinned, mapped host memory (zero-copy): the Tegra
 * default. The CPU and the GPU address the same DRAM, so hand-overs only order
 * work; shared.c already waits for the GPU before a CPU access.
 */
#include "shared_ops.h"

static jet_status mapped_alloc(struct jet_shared_s *sb, const char *fn) {
  const struct jet_context_s *ctx = sb->h.ctx;
  if (!ctx->info.can_map_host_memory)
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "", "", 0,
                             "create the buffer with JET_SHARED_STAGED (device memory plus a "
                             "staging copy) instead",
                             "zero-copy needs mapped host memory, and device %d cannot map host "
                             "memory (cudaDevAttrCanMapHostMemory == 0)",
                             ctx->device);
  void *h = NULL, *d = NULL;
  cudaError_t e = cudaHostAlloc(&h, sb->bytes, cudaHostAllocMapped);
  if (e != cudaSuccess)
    return jet__shared_alloc_failed(sb, e, "cudaHostAlloc", "mapped host memory", fn);
  e = cudaHostGetDevicePointer(&d, h, 0);
  if (e != cudaSuccess) {
    (void)cudaFreeHost(h);
    return jet__cuda_error(e, fn, "cudaHostGetDevicePointer",
                           "create the context with JET_CONTEXT_MAP_HOST before other CUDA use "
                           "of the device",
                           NULL);
  }
  sb->host = h;
  sb->dev = d;
  return JET_STATUS_OK;
}

static void mapped_release(struct jet_shared_s *sb) {
  (void)cudaFreeHost(sb->host);
  sb->host = sb->dev = NULL;
}

jet_status jet__shared_noop(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                            const char *fn) {
  (void)sb;
  (void)s;
  (void)access;
  (void)fn;
  return JET_STATUS_OK;
}

const jet__shared_ops jet__shared_mapped_ops = {
    JET_SHARED_BACKING_MAPPED_HOST, "mapped host (zero-copy)", mapped_alloc, mapped_release,
    jet__shared_noop, jet__shared_noop, jet__shared_noop, jet__shared_noop};
