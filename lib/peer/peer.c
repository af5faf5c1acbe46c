/*
 * Several GPUs: peer access between contexts, copies between their devices,
 * cross-device stream waits and pointer ownership queries.
 */
#include <string.h>

#include "../memory/memory_internal.h"
#include "../stream/stream_internal.h"

static const char TEGRA_P2P_HINT[] =
    "Tegra has no peer-to-peer access (CUDA for Tegra note); copy between the devices "
    "with jet_peer_memcpy, which stages through host memory";

/* Two live contexts of different devices. */
static jet_status pair(jet_context a, jet_context b, const char *fn) {
  JET__TRY(jet__handle_check(a, JET__H_CONTEXT, fn, "ctx"));
  JET__TRY(jet__handle_check(b, JET__H_CONTEXT, fn, "peer"));
  if (a->device == b->device)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "ctx and peer are both on device %d%s: peer access is between two devices, "
                      "and a device always reaches its own memory",
                      a->device, a == b ? " (the same context)" : "");
  return JET_STATUS_OK;
}

static jet_status policy_allows(jet_context a, jet_context b, const char *fn) {
  jet_context c = !a->platform.policy.peer_access_allowed ? a
                  : !b->platform.policy.peer_access_allowed ? b
                                                            : NULL;
  if (!c) return JET_STATUS_OK;
  return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "", "", 0, TEGRA_P2P_HINT,
                           "device %d: policy %s%s does not allow peer access", c->device,
                           c->platform.policy.name, c->platform.policy.forced ? " (forced)" : "");
}

static jet_status can_access(jet_context ctx, jet_context peer, int *can, const char *fn) {
  cudaError_t e = cudaDeviceCanAccessPeer(can, ctx->device, peer->device);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaDeviceCanAccessPeer", NULL, "device %d -> device %d: %s",
                           ctx->device, peer->device, cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_peer_can_access(jet_context ctx, jet_context peer, int *can) {
  JET__ARG(can, "can is NULL");
  *can = 0;
  JET__TRY(pair(ctx, peer, __func__));
  if (!ctx->platform.policy.peer_access_allowed || !peer->platform.policy.peer_access_allowed)
    return JET_STATUS_OK;
  return can_access(ctx, peer, can, __func__);
}

jet_status jet_peer_enable(jet_context ctx, jet_context peer) {
  JET__TRY(pair(ctx, peer, __func__));
  JET__TRY(policy_allows(ctx, peer, __func__));
  int can = 0;
  JET__TRY(can_access(ctx, peer, &can, __func__));
  if (!can)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, __func__, "cudaDeviceCanAccessPeer", "", 0,
        "the devices share no NVLink and no PCIe switch or root complex that allows peer "
        "traffic (see nvidia-smi topo -m); peer copies still work, staged through the host",
        "device %d (%s) cannot access device %d (%s) directly", ctx->device, ctx->info.name,
        peer->device, peer->info.name);
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaError_t e = cudaDeviceEnablePeerAccess(peer->device, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
    return JET_STATUS_OK;
  }
  if (e == cudaErrorTooManyPeers) {
    (void)cudaGetLastError();
    return jet__error_native(JET_STATUS_OUT_OF_MEMORY, __func__, "cudaDeviceEnablePeerAccess",
                             "cudaErrorTooManyPeers", (int)e,
                             "a device can map a limited number of peers (8 on most GPUs); "
                             "disable access to a device no longer needed",
                             "device %d -> device %d: %s", ctx->device, peer->device,
                             cudaGetErrorString(e));
  }
  if (e == cudaErrorPeerAccessUnsupported || e == cudaErrorInvalidDevice)
    return jet__cuda_error(e, __func__, "cudaDeviceEnablePeerAccess",
                           "the driver refuses peer access between these devices (check nvidia-smi "
                           "topo -m, IOMMU and ACS settings); peer copies still work, staged",
                           "device %d -> device %d: %s", ctx->device, peer->device,
                           cudaGetErrorString(e));
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaDeviceEnablePeerAccess", NULL,
                           "device %d -> device %d: %s", ctx->device, peer->device,
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_peer_disable(jet_context ctx, jet_context peer) {
  JET__TRY(pair(ctx, peer, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaError_t e = cudaDeviceDisablePeerAccess(peer->device);
  if (e == cudaErrorPeerAccessNotEnabled) {
    (void)cudaGetLastError();
    return jet__error_native(JET_STATUS_INVALID_STATE, __func__, "cudaDeviceDisablePeerAccess",
                             "cudaErrorPeerAccessNotEnabled", (int)e, NULL,
                             "access from device %d to device %d is not enabled", ctx->device,
                             peer->device);
  }
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaDeviceDisablePeerAccess", NULL,
                           "device %d -> device %d: %s", ctx->device, peer->device,
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ copies */

static jet_status check_1d(const void *p, size_t bytes, const char *what, const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is NULL", what);
  if (bytes == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "bytes is 0");
  size_t end;
  if (!jet__add_ok((size_t)(uintptr_t)p, bytes, &end))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s %p + %zu bytes wraps the address space", what,
                      p, bytes);
  return JET_STATUS_OK;
}

/* Where a copy runs: the stream (a stream of one of the two contexts, its
 * device current), or for a synchronous copy the destination's device. */
typedef struct where {
  cudaStream_t cu;
  int sync;
} where;

static jet_status contexts(jet_context dst_ctx, jet_context src_ctx, const char *fn) {
  JET__TRY(jet__handle_check(dst_ctx, JET__H_CONTEXT, fn, "dst_ctx"));
  return jet__handle_check(src_ctx, JET__H_CONTEXT, fn, "src_ctx");
}

static jet_status from_sync(jet_context dst_ctx, jet_context src_ctx, where *w, const char *fn) {
  JET__TRY(contexts(dst_ctx, src_ctx, fn));
  JET__TRY(jet__ctx_activate(dst_ctx, fn));
  w->cu = cudaStreamLegacy;
  w->sync = 1;
  return JET_STATUS_OK;
}

static jet_status from_stream(jet_stream s, jet_context dst_ctx, jet_context src_ctx, where *w,
                              const char *fn) {
  JET__TRY(contexts(dst_ctx, src_ctx, fn));
  JET__TRY(jet__handle_check(s, JET__H_STREAM, fn, "stream"));
  if (s->h.ctx != dst_ctx && s->h.ctx != src_ctx)
    return jet__error(JET_STATUS_WRONG_CONTEXT, fn,
                      "stream belongs to a context on device %d, neither dst_ctx (device %d) nor "
                      "src_ctx (device %d)",
                      s->h.ctx->device, dst_ctx->device, src_ctx->device);
  JET__TRY(jet__stream_enter(s, NULL, &w->cu, fn));
  w->sync = 0;
  return JET_STATUS_OK;
}

/* The synchronous peer copies are serialised with pending work on both
 * devices but, device to device, may return before the data lands: wait on
 * both devices' legacy streams, which the copy is ordered before. */
static jet_status finish(cudaError_t e, const char *call, const where *w, jet_context dst_ctx,
                         jet_context src_ctx, const char *fn) {
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, call, NULL, "device %d -> device %d: %s", src_ctx->device,
                           dst_ctx->device, cudaGetErrorString(e));
  if (!w->sync) return JET_STATUS_OK;
  jet_context order[2] = {dst_ctx, src_ctx};
  for (int i = 0; i < (dst_ctx->device == src_ctx->device ? 1 : 2); i++) {
    JET__TRY(jet__ctx_activate(order[i], fn));
    e = cudaStreamSynchronize(cudaStreamLegacy);
    if (e != cudaSuccess)
      return jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, "device %d: %s",
                             order[i]->device, cudaGetErrorString(e));
  }
  return JET_STATUS_OK;
}

static jet_status copy_1d(const where *w, jet_context dst_ctx, void *dst, jet_context src_ctx,
                          const void *src, size_t bytes, const char *fn) {
  if (w->sync)
    return finish(cudaMemcpyPeer(dst, dst_ctx->device, src, src_ctx->device, bytes),
                  "cudaMemcpyPeer", w, dst_ctx, src_ctx, fn);
  return finish(cudaMemcpyPeerAsync(dst, dst_ctx->device, src, src_ctx->device, bytes, w->cu),
                "cudaMemcpyPeerAsync", w, dst_ctx, src_ctx, fn);
}

jet_status jet_peer_memcpy(jet_context dst_ctx, void *dst, jet_context src_ctx, const void *src,
                           size_t bytes) {
  JET__TRY(check_1d(dst, bytes, "dst", __func__));
  JET__TRY(check_1d(src, bytes, "src", __func__));
  where w;
  JET__TRY(from_sync(dst_ctx, src_ctx, &w, __func__));
  return copy_1d(&w, dst_ctx, dst, src_ctx, src, bytes, __func__);
}

jet_status jet_peer_memcpy_async(jet_stream stream, jet_context dst_ctx, void *dst,
                                 jet_context src_ctx, const void *src, size_t bytes) {
  JET__TRY(check_1d(dst, bytes, "dst", __func__));
  JET__TRY(check_1d(src, bytes, "src", __func__));
  where w;
  JET__TRY(from_stream(stream, dst_ctx, src_ctx, &w, __func__));
  return copy_1d(&w, dst_ctx, dst, src_ctx, src, bytes, __func__);
}

/* Positions are folded into the pointers (as jet_memcpy_3d does), so CUDA
 * sees linear memory at position 0. */
static struct cudaPitchedPtr pitched(const jet_pitched_ptr *p, size_t offset) {
  return jet__pitched((char *)p->ptr + offset, p->pitch, p->pitch, p->rows);
}

static jet_status copy_3d(const where *w, jet_context dst_ctx, jet_context src_ctx,
                          const jet_copy_3d *p, size_t doff, size_t soff, const char *fn) {
  struct cudaMemcpy3DPeerParms m;
  memset(&m, 0, sizeof m);
  m.srcPtr = pitched(&p->src, soff);
  m.srcDevice = src_ctx->device;
  m.dstPtr = pitched(&p->dst, doff);
  m.dstDevice = dst_ctx->device;
  m.extent = jet__extent(p->extent.width_bytes, p->extent.height, p->extent.depth);
  if (w->sync)
    return finish(cudaMemcpy3DPeer(&m), "cudaMemcpy3DPeer", w, dst_ctx, src_ctx, fn);
  return finish(cudaMemcpy3DPeerAsync(&m, w->cu), "cudaMemcpy3DPeerAsync", w, dst_ctx, src_ctx,
                fn);
}

jet_status jet_peer_memcpy_2d(jet_context dst_ctx, void *dst, size_t dpitch, jet_context src_ctx,
                              const void *src, size_t spitch, size_t width_bytes, size_t height) {
  jet_copy_3d c = jet__copy_2d_as_3d(dst, dpitch, src, spitch, width_bytes, height);
  size_t doff, soff;
  JET__TRY(jet__copy_3d_check(&c, &doff, &soff, __func__));
  where w;
  JET__TRY(from_sync(dst_ctx, src_ctx, &w, __func__));
  return copy_3d(&w, dst_ctx, src_ctx, &c, doff, soff, __func__);
}

jet_status jet_peer_memcpy_2d_async(jet_stream stream, jet_context dst_ctx, void *dst,
                                    size_t dpitch, jet_context src_ctx, const void *src,
                                    size_t spitch, size_t width_bytes, size_t height) {
  jet_copy_3d c = jet__copy_2d_as_3d(dst, dpitch, src, spitch, width_bytes, height);
  size_t doff, soff;
  JET__TRY(jet__copy_3d_check(&c, &doff, &soff, __func__));
  where w;
  JET__TRY(from_stream(stream, dst_ctx, src_ctx, &w, __func__));
  return copy_3d(&w, dst_ctx, src_ctx, &c, doff, soff, __func__);
}

jet_status jet_peer_memcpy_3d(jet_context dst_ctx, jet_context src_ctx, const jet_copy_3d *p) {
  size_t doff, soff;
  JET__TRY(jet__copy_3d_check(p, &doff, &soff, __func__));
  where w;
  JET__TRY(from_sync(dst_ctx, src_ctx, &w, __func__));
  return copy_3d(&w, dst_ctx, src_ctx, p, doff, soff, __func__);
}

jet_status jet_peer_memcpy_3d_async(jet_stream stream, jet_context dst_ctx, jet_context src_ctx,
                                    const jet_copy_3d *p) {
  size_t doff, soff;
  JET__TRY(jet__copy_3d_check(p, &doff, &soff, __func__));
  where w;
  JET__TRY(from_stream(stream, dst_ctx, src_ctx, &w, __func__));
  return copy_3d(&w, dst_ctx, src_ctx, p, doff, soff, __func__);
}

jet_status jet_peer_wait_event(jet_stream stream, jet_event event) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__TRY(jet__handle_check(event, JET__H_EVENT, __func__, "event"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  cudaError_t e = cudaStreamWaitEvent(cu, event->cu, 0);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaStreamWaitEvent", NULL,
                           "stream of device %d waiting for an event of device %d: %s",
                           stream->h.ctx->device, event->h.ctx->device, cudaGetErrorString(e));
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ addresses */

const char *jet_pointer_kind_name(jet_pointer_kind kind) {
  switch (kind) {
    case JET_POINTER_UNREGISTERED: return "unregistered";
    case JET_POINTER_HOST: return "host";
    case JET_POINTER_DEVICE: return "device";
    case JET_POINTER_MANAGED: return "managed";
  }
  return "unknown";
}

jet_status jet_pointer_query(jet_context ctx, const void *ptr, jet_pointer_info *out) {
  JET__ARG(out, "out is NULL");
  memset(out, 0, sizeof *out);
  out->device = -1;
  JET__ARG(ptr, "ptr is NULL");
  JET__TRY(jet__ctx_enter(ctx, __func__));
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, ptr);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaPointerGetAttributes", NULL, "ptr %p: %s", ptr,
                           cudaGetErrorString(e));
  switch (a.type) {
    case cudaMemoryTypeHost: out->kind = JET_POINTER_HOST; break;
    case cudaMemoryTypeDevice: out->kind = JET_POINTER_DEVICE; break;
    case cudaMemoryTypeManaged: out->kind = JET_POINTER_MANAGED; break;
    default: out->kind = JET_POINTER_UNREGISTERED; break;
  }
  out->device = out->kind == JET_POINTER_UNREGISTERED || a.device < 0 ? -1 : a.device;
  out->device_ptr = a.devicePointer;
  out->host_ptr = a.hostPointer;
  return JET_STATUS_OK;
}
