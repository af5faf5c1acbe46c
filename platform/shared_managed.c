/*
 * Shared buffers backed by managed memory. On Tegra this is the GPU-cached
 * choice (the iGPU does not cache pinned memory). Hand-over follows the
 * policy: stream attach where the CPU may not touch managed memory while the
 * GPU runs (Xavier, Orin: concurrentManagedAccess == 0), prefetch where pages
 * migrate on demand (desktop, Thor).
 */
#include "shared_ops.h"

static jet_status managed_alloc(struct jet_shared_s *sb, const char *fn) {
  const struct jet_context_s *ctx = sb->h.ctx;
  JET__TRY(jet__policy_managed_check(&ctx->platform.policy, ctx->device, fn));
  if (!ctx->info.managed_memory)
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "", "", 0,
                             "create the buffer without JET_SHARED_MANAGED to get the "
                             "platform's default backing",
                             "device %d has no managed memory (cudaDevAttrManagedMemory == 0)",
                             ctx->device);
  /* Prefetching needs concurrent managed access; without it the CPU may touch
   * managed memory only once it is attached to the host, so stream attach is
   * the hand-over that stays legal whatever the policy prefers. */
  sb->managed_prefetch = ctx->platform.policy.managed_mode == JET_MANAGED_PREFETCH &&
                         ctx->info.concurrent_managed_access;
  void *p = NULL;
  cudaError_t e =
      cudaMallocManaged(&p, sb->bytes, sb->managed_prefetch ? cudaMemAttachGlobal : cudaMemAttachHost);
  if (e != cudaSuccess)
    return jet__shared_alloc_failed(sb, e, "cudaMallocManaged", "managed memory", fn);
  sb->host = sb->dev = p;
  return JET_STATUS_OK;
}

static void managed_release(struct jet_shared_s *sb) {
  (void)cudaFree(sb->host);
  sb->host = sb->dev = NULL;
}

static jet_status prefetch(struct jet_shared_s *sb, cudaStream_t s, enum cudaMemLocationType type,
                           int id, const char *fn) {
  struct cudaMemLocation loc;
  loc.type = type;
  loc.id = id;
  cudaError_t e = cudaMemPrefetchAsync(sb->host, sb->bytes, loc, 0, s);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaMemPrefetchAsync", NULL, NULL);
  return JET_STATUS_OK;
}

static jet_status attach(struct jet_shared_s *sb, cudaStream_t s, unsigned flags, const char *fn) {
  cudaError_t e = cudaStreamAttachMemAsync(s, sb->host, 0, flags);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamAttachMemAsync", NULL, NULL);
  return JET_STATUS_OK;
}

static jet_status managed_begin_cpu(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                                    const char *fn) {
  (void)access;
  if (sb->managed_prefetch)
    JET__TRY(prefetch(sb, s, cudaMemLocationTypeHost, 0, fn));
  else
    JET__TRY(attach(sb, s, cudaMemAttachHost, fn));
  cudaError_t e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, NULL);
  return JET_STATUS_OK;
}

static jet_status managed_begin_gpu(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                                    const char *fn) {
  (void)access;
  if (sb->managed_prefetch)
    return prefetch(sb, s, cudaMemLocationTypeDevice, sb->h.ctx->device, fn);
  /* Attaching singly to the legacy NULL stream is illegal: it is no one stream. */
  unsigned flags = (s == cudaStreamLegacy || s == NULL) ? cudaMemAttachGlobal : cudaMemAttachSingle;
  return attach(sb, s, flags, fn);
}

const jet__shared_ops jet__shared_managed_ops = {
    JET_SHARED_BACKING_MANAGED, "managed memory", managed_alloc, managed_release,
    managed_begin_cpu, jet__shared_noop, managed_begin_gpu, jet__shared_noop};
