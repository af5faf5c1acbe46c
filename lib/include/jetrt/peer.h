/*
 * jetrt/peer.h - several GPUs: peer access, copies between devices, and
 * unified-address queries (CUDA Programming Guide 3.2.7-3.2.8).
 *
 * Each device gets its own jet_context (jet_device_count, jet_device_choose,
 * jet_context_create with jet_context_desc.device), and each context its own
 * policy; every call makes its own context's device current, so contexts on
 * different devices can be used from one thread in any order.
 *
 * Peer access (jet_peer_enable) lets kernels and copies of one device read
 * and write memory of another directly, over NVLink or PCIe; it is one-way and
 * per device pair: enable both ways for both directions. Peer copies
 * (jet_peer_memcpy*) work with or without it: without, CUDA stages the data
 * through host memory. Tegra has no peer-to-peer: a Tegra policy refuses peer
 * access (policy.peer_access_allowed == 0) with a hint.
 *
 * Copies take the device memory of two contexts (a buffer's device_ptr or
 * any device allocation of those devices). Argument rules are jetrt/memory.h's:
 * zero sizes are INVALID_ARGUMENT, wrapping ranges OVERFLOW, and plain
 * arguments are checked before handles, so bad arguments read the same on
 * every machine.
 */
#ifndef JETRT_PEER_H
#define JETRT_PEER_H

#include <stddef.h>
#include "context.h"
#include "memory.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ access */

/**
 * jet_peer_can_access - whether @ctx's device can access @peer's device
 * memory directly (cudaDeviceCanAccessPeer).
 * @can: receives 1 or 0. It is 0 where either policy forbids peer access
 *       (Tegra), whatever the hardware says.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @can or two
 *         contexts of the same device (a device always reaches its own
 *         memory); JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_peer_can_access(jet_context ctx, jet_context peer, int *can);

/**
 * jet_peer_enable - let @ctx's device access @peer's device memory directly
 * (cudaDeviceEnablePeerAccess on @ctx's device). One way only.
 *
 * Enabling twice is not an error. Access is a property of the device pair,
 * not of the jetrt contexts: it stays until jet_peer_disable, also for other
 * contexts on the same devices.
 * @return JET_STATUS_OK (also when already enabled); JET_STATUS_INVALID_ARGUMENT
 *         for two contexts of the same device; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_UNSUPPORTED with a hint where a policy forbids it (Tegra)
 *         or the devices cannot reach each other (jet_peer_can_access is 0);
 *         JET_STATUS_OUT_OF_MEMORY when the hardware has no more peer
 *         mappings (cudaErrorTooManyPeers); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_peer_enable(jet_context ctx, jet_context peer);

/**
 * jet_peer_disable - undo jet_peer_enable(@ctx, @peer)
 * (cudaDeviceDisablePeerAccess). Peer copies still work afterwards, staged.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for two contexts of the
 *         same device; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         when access was not enabled; or a CUDA status.
 * Thread safety: safe from any thread; no kernel may be using @peer's memory
 * through the mapping.
 */
jet_status jet_peer_disable(jet_context ctx, jet_context peer);

/* ------------------------------------------------------------------ copies */

/**
 * jet_peer_memcpy - copy @bytes from @src, memory of @src_ctx's device, to
 * @dst, memory of @dst_ctx's device (cudaMemcpyPeer). The contexts may be the
 * same (a copy inside one device).
 *
 * Ordered after earlier work on both devices' legacy default streams, and
 * synchronous: the data is in place on return.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL pointer or zero
 *         @bytes; JET_STATUS_OVERFLOW when a range wraps the address space;
 *         JET_STATUS_INVALID_HANDLE for a bad context; or a CUDA status (e.g.
 *         INVALID_ARGUMENT for a pointer that is not memory of its device).
 * Thread safety: safe from any thread.
 */
jet_status jet_peer_memcpy(jet_context dst_ctx, void *dst, jet_context src_ctx, const void *src,
                           size_t bytes);

/**
 * jet_peer_memcpy_async - jet_peer_memcpy queued on @stream
 * (cudaMemcpyPeerAsync); returns before the copy is done.
 * @stream: a stream of @dst_ctx or of @src_ctx. Order the copy against work on
 *          the other device with events (jet_peer_wait_event).
 * @return as jet_peer_memcpy; JET_STATUS_INVALID_HANDLE for a bad @stream;
 *         JET_STATUS_WRONG_CONTEXT when @stream belongs to neither context.
 * Thread safety: safe from any thread.
 */
jet_status jet_peer_memcpy_async(jet_stream stream, jet_context dst_ctx, void *dst,
                                 jet_context src_ctx, const void *src, size_t bytes);

/**
 * jet_peer_memcpy_2d - copy @height rows of @width_bytes between devices:
 * from @src (rows @spitch apart) on @src_ctx's device to @dst (rows @dpitch
 * apart) on @dst_ctx's device (cudaMemcpy3DPeer with depth 1). Synchronous.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL pointer, a zero
 *         width or height, or a width larger than a pitch; JET_STATUS_OVERFLOW;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_peer_memcpy_2d(jet_context dst_ctx, void *dst, size_t dpitch, jet_context src_ctx,
                              const void *src, size_t spitch, size_t width_bytes, size_t height);

/** jet_peer_memcpy_2d_async - jet_peer_memcpy_2d queued on @stream, a stream
 *  of either context (cudaMemcpy3DPeerAsync). @return as jet_peer_memcpy_2d,
 *  plus those of jet_peer_memcpy_async for @stream. Thread safety: safe from any thread. */
jet_status jet_peer_memcpy_2d_async(jet_stream stream, jet_context dst_ctx, void *dst,
                                    size_t dpitch, jet_context src_ctx, const void *src,
                                    size_t spitch, size_t width_bytes, size_t height);

/**
 * jet_peer_memcpy_3d - copy a 3D region from @p->src, memory of @src_ctx's
 * device, to @p->dst, memory of @dst_ctx's device (cudaMemcpy3DPeer).
 * Synchronous. @p follows the rules of jet_copy_3d (jetrt/memory.h): each
 * side needs pos.x_bytes + extent.width_bytes <= pitch and pos.y +
 * extent.height <= rows.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @p or pointer,
 *         a zero extent or a region outside its pitch or rows;
 *         JET_STATUS_OVERFLOW; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_peer_memcpy_3d(jet_context dst_ctx, jet_context src_ctx, const jet_copy_3d *p);

/** jet_peer_memcpy_3d_async - jet_peer_memcpy_3d queued on @stream, a stream
 *  of either context (cudaMemcpy3DPeerAsync). @return as jet_peer_memcpy_3d,
 *  plus those of jet_peer_memcpy_async for @stream. Thread safety: safe from any thread. */
jet_status jet_peer_memcpy_3d_async(jet_stream stream, jet_context dst_ctx, jet_context src_ctx,
                                    const jet_copy_3d *p);

/**
 * jet_peer_wait_event - make @stream wait for @event, which may have been
 * recorded on a stream of another context and device (cudaStreamWaitEvent
 * across devices: Programming Guide, "Multi-Device System", stream and event
 * behavior). jet_stream_wait_event accepts only events of the stream's own
 * context. The event is recorded on its own device; record it before this
 * call, as with jet_stream_wait_event.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @stream or
 *         @event; or a CUDA status. Thread safety: safe from any thread.
 */
jet_status jet_peer_wait_event(jet_stream stream, jet_event event);

/* ------------------------------------------------------------------ addresses */

/** What memory a pointer points into (cudaPointerGetAttributes). */
typedef enum jet_pointer_kind {
  JET_POINTER_UNREGISTERED = 0, /**< ordinary host memory CUDA does not know */
  JET_POINTER_HOST = 1,         /**< pinned, mapped or registered host memory */
  JET_POINTER_DEVICE = 2,       /**< device memory */
  JET_POINTER_MANAGED = 3       /**< managed memory */
} jet_pointer_kind;

/** Where a pointer lives, under unified addressing. */
typedef struct jet_pointer_info {
  jet_pointer_kind kind;
  int device;        /**< owning device: the device of DEVICE memory, the device it was
                          allocated from for HOST and MANAGED; -1 for UNREGISTERED */
  void *device_ptr;  /**< the address the current device uses for it, NULL if none */
  void *host_ptr;    /**< the address the host uses for it, NULL if none (device memory) */
} jet_pointer_info;

/**
 * jet_pointer_query - which device owns @ptr and what memory it is.
 *
 * Works for any pointer, also one inside an allocation and one of another
 * device than @ctx's; @ctx only says which device the device_ptr alias is for.
 * @ctx: a live context (its device is made current).
 * @ptr: the address; not NULL.
 * @out: receives the answer.
 * @return JET_STATUS_OK (UNREGISTERED for plain host memory is an answer, not
 *         an error); JET_STATUS_INVALID_ARGUMENT for NULL @ptr or @out;
 *         JET_STATUS_INVALID_HANDLE for a bad @ctx; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_pointer_query(jet_context ctx, const void *ptr, jet_pointer_info *out);

/** jet_pointer_kind_name - "unregistered", "host", "device" or "managed";
 *  "unknown" for another value. Thread safety: safe from any thread. */
const char *jet_pointer_kind_name(jet_pointer_kind kind);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_PEER_H */
