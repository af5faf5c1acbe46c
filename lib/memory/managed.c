/*
 * Managed memory hand-over between CPU and GPU: stream attach everywhere,
 * prefetch where the platform has it, and one call that picks per policy.
 */
#include <string.h>

#include "memory_internal.h"

static jet_status managed_args(jet_stream s, jet_buffer buf, const char *fn) {
  JET__TRY(jet__handle_check(s, JET__H_STREAM, fn, "stream"));
  JET__TRY(jet__buffer_check(buf, s->h.ctx, fn));
  if (buf->kind != JET_MEMORY_MANAGED)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "buf is not managed memory (kind %d); only JET_MEMORY_MANAGED buffers are "
                      "handed over",
                      (int)buf->kind);
  return JET_STATUS_OK;
}

static jet_status check_access(jet_processor a, const char *fn) {
  if (a == JET_PROCESSOR_GPU || a == JET_PROCESSOR_CPU) return JET_STATUS_OK;
  return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                    "access %d is not exactly one of JET_PROCESSOR_GPU or JET_PROCESSOR_CPU", (int)a);
}

static int can_prefetch(const struct jet_context_s *ctx) {
  jet__managed_rules r;
  jet__managed_rules_of(&ctx->info, &ctx->platform.policy, &r);
  return r.prefetch;
}

static jet_status attach(cudaStream_t cu, jet_buffer buf, unsigned flags, const char *fn) {
  /* Length 0: the whole allocation, the only length managed memory accepts. */
  cudaError_t e = cudaStreamAttachMemAsync(cu, buf->dev, 0, flags);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamAttachMemAsync", NULL, NULL);
  return JET_STATUS_OK;
}

static jet_status prefetch(const struct jet_context_s *ctx, cudaStream_t cu, jet_buffer buf,
                           jet_processor to, const char *fn) {
  struct cudaMemLocation loc;
  memset(&loc, 0, sizeof loc);
  if (to == JET_PROCESSOR_GPU) {
    loc.type = cudaMemLocationTypeDevice;
    loc.id = ctx->device;
  } else {
    loc.type = cudaMemLocationTypeHost;
  }
  cudaError_t e = cudaMemPrefetchAsync(buf->dev, buf->size, loc, 0, cu);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaMemPrefetchAsync", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet_managed_attach(jet_stream stream, jet_buffer buf, jet_attach_mode mode) {
  JET__TRY(managed_args(stream, buf, __func__));
  unsigned f;
  switch (mode) {
    case JET_ATTACH_GLOBAL: f = cudaMemAttachGlobal; break;
    case JET_ATTACH_HOST: f = cudaMemAttachHost; break;
    case JET_ATTACH_SINGLE: f = cudaMemAttachSingle; break;
    default:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__, "unknown attach mode %d", (int)mode);
  }
  if (mode == JET_ATTACH_SINGLE && stream->cu == cudaStreamLegacy)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "JET_ATTACH_SINGLE on the legacy default stream: CUDA forbids attaching "
                      "singly to the NULL stream, it is not one stream");
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  return attach(cu, buf, f, __func__);
}

jet_status jet_managed_prefetch(jet_stream stream, jet_buffer buf, jet_processor to) {
  JET__TRY(managed_args(stream, buf, __func__));
  JET__TRY(check_access(to, __func__));
  const struct jet_context_s *ctx = stream->h.ctx;
  if (ctx->platform.policy.managed_mode != JET_MANAGED_PREFETCH)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, __func__, "", "", 0,
        "cudaMemPrefetchAsync is unsupported on Tegra before Thor; use jet_managed_attach",
        "policy %s hands managed memory over by stream attach", ctx->platform.policy.name);
  if (!ctx->info.concurrent_managed_access)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, __func__, "", "", 0,
        "prefetch needs concurrentManagedAccess; use jet_managed_attach or "
        "jet_managed_make_available",
        "device %d has no concurrent managed access", ctx->device);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  return prefetch(ctx, cu, buf, to, __func__);
}

jet_status jet_managed_make_available(jet_stream stream, jet_buffer buf, jet_processor access) {
  JET__TRY(managed_args(stream, buf, __func__));
  JET__TRY(check_access(access, __func__));
  const struct jet_context_s *ctx = stream->h.ctx;
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  if (can_prefetch(ctx)) {
    JET__TRY(prefetch(ctx, cu, buf, access, __func__));
  } else {
    /* A default stream is not one stream CUDA can give memory to alone. */
    unsigned f = access == JET_PROCESSOR_CPU ? cudaMemAttachHost
                 : stream->is_default     ? cudaMemAttachGlobal
                                          : cudaMemAttachSingle;
    JET__TRY(attach(cu, buf, f, __func__));
  }
  /* The CPU may touch the data only once the stream's work on it is done,
   * and, without concurrent managed access, once the attach has taken effect. */
  if (access == JET_PROCESSOR_CPU) {
    cudaError_t e = cudaStreamSynchronize(cu);
    if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaStreamSynchronize", NULL, NULL);
  }
  return JET_STATUS_OK;
}
