/*
 * jetrt/pool.h - stream-ordered allocation and memory pools.
 *
 * Stream-ordered buffers: jet_buffer_alloc_async allocates device memory in
 * the order of a stream (cudaMallocAsync, or cudaMallocFromPoolAsync from an
 * explicit pool) and jet_buffer_free_async gives it back in the order of a
 * stream (cudaFreeAsync). The result is an ordinary JET_MEMORY_DEVICE
 * jet_buffer: every buffer, copy and fill function takes it. Work on the
 * allocating stream may use it at once; work on another stream must be
 * ordered after the allocation (an event) first, and every use must be
 * ordered before the free.
 *
 * A pool (jet_mempool) keeps freed memory for later allocations instead of
 * giving it back to the system, up to its release threshold: at each
 * synchronisation (stream, event or device) the pool releases what it holds
 * beyond the threshold. Reuse policies say when memory freed on one stream may
 * serve an allocation on another (JET_MEMPOOL_REUSE_*). Statistics report
 * what the pool reserves from the system and what is allocated from it.
 *
 * Every device has a default pool, which cudaMallocAsync (a NULL pool) uses;
 * jet_mempool_get_default gives a handle on it, whose settings are the
 * device's, shared by the whole process.
 *
 * Sharing with other processes: a pool created with JET_MEMPOOL_EXPORTABLE
 * (POSIX file descriptor handles) is exported as a descriptor
 * (jet_mempool_export), sent to another process over a jet_channel
 * (jetrt/channel.h carries descriptors), and imported there
 * (jet_mempool_import). Single allocations are then shared by a plain-bytes
 * description (jet_mempool_export_pointer / jet_mempool_import_pointer).
 *
 *   exporter                                     importer
 *   jet_mempool_create(ctx, &{EXPORTABLE}, &p);
 *   jet_buffer_alloc_async(s, p, n, &buf);
 *   ... write buf, jet_stream_synchronize(s) ...
 *   jet_mempool_export(p, &fd);
 *   jet_mempool_export_pointer(buf, &pd);
 *   jet_channel_send(ch, T, &pd, sizeof pd,  ->  jet_channel_recv(ch, ..., &msg);
 *                    &fd, 1, ...); close(fd);    jet_mempool_import(ctx, msg.fds[0], &ip);
 *                                                close(msg.fds[0]);
 *                                                jet_mempool_import_pointer(ip, &pd, &b);
 *                                                ... read b ...
 *                                                jet_buffer_destroy(b);
 *                                                jet_mempool_destroy(ip);
 *   (after the importer said it is done)    <-   jet_channel_send(ch, DONE, ...)
 *   jet_buffer_destroy(buf);
 *
 * The importer must free its imported allocations before the exporter frees
 * them (CUDA's rule for pool pointers): the processes agree on that order
 * themselves, e.g. with a message as above.
 *
 * Which platforms share pools: the platform policy decides (platform/
 * ipc_mechanism.c), as it does for buffers (jetrt/ipc.h): a pool is exported
 * only where the policy allows CUDA memory IPC (jet_policy.memory_ipc_allowed:
 * the desktop and Thor policies) and the device reports POSIX descriptors for
 * pools (cudaDevAttrMemoryPoolSupportedHandleTypes). Jetson before Thor
 * (xavier, orin policies) refuses with JET_STATUS_UNSUPPORTED and a hint: share
 * memory there with JET_MEM_EXPORTABLE buffers, which use VMM descriptors.
 *
 * Thread safety: every function is safe from any thread unless it says
 * otherwise; a pool's settings are the pool's, so two threads changing one
 * setting race in the obvious way.
 */
#ifndef JETRT_POOL_H
#define JETRT_POOL_H

#include <stddef.h>
#include <stdint.h>
#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A memory pool of one device (cudaMemPool_t). */
typedef struct jet_mempool_s *jet_mempool;

/** How a device may access memory (pool or VMM mapping). Values are CUDA's. */
typedef enum jet_mem_access {
  JET_MEM_ACCESS_NONE = 0,      /**< not accessible */
  JET_MEM_ACCESS_READ = 1,      /**< read only */
  JET_MEM_ACCESS_READ_WRITE = 3 /**< read and write */
} jet_mem_access;

/** Pool creation flags (jet_mempool_desc.flags). */
enum {
  /** Allocations can be shared with other processes (POSIX file descriptor
   *  handles); refused where the platform policy or the device does not
   *  allow it (see above). */
  JET_MEMPOOL_EXPORTABLE = 1u << 0
};

/** Reuse policies (bits; CUDA turns all three on in a new pool). */
enum {
  /** cudaMemPoolReuseFollowEventDependencies: memory freed on stream A may
   *  serve stream B when B already waits (an event) for the free. */
  JET_MEMPOOL_REUSE_FOLLOW_EVENTS = 1u << 0,
  /** cudaMemPoolReuseAllowOpportunistic: memory whose free has already
   *  completed on the GPU may serve any stream. */
  JET_MEMPOOL_REUSE_OPPORTUNISTIC = 1u << 1,
  /** cudaMemPoolReuseAllowInternalDependencies: the allocating stream may be
   *  made to wait for a pending free on another stream. */
  JET_MEMPOOL_REUSE_INTERNAL_DEPS = 1u << 2,
  JET_MEMPOOL_REUSE_ALL = 7u
};

/** Parameters of jet_mempool_create. Zero-initialise, then set what you need. */
typedef struct jet_mempool_desc {
  unsigned flags;           /**< JET_MEMPOOL_* flags */
  unsigned reuse_off;       /**< JET_MEMPOOL_REUSE_* bits to turn off (0: CUDA's defaults, all on) */
  uint64_t release_threshold; /**< bytes the pool keeps reserved across synchronisations (0:
                                   release all at each one, CUDA's default; UINT64_MAX: keep all) */
  size_t max_size;          /**< largest size of the pool in bytes; 0: the system's default */
} jet_mempool_desc;

/** Usage of a pool (cudaMemPoolAttr*Mem*), in bytes. */
typedef struct jet_mempool_stats {
  uint64_t reserved_current; /**< reserved from the system now */
  uint64_t reserved_high;    /**< high watermark of reserved_current since creation or reset */
  uint64_t used_current;     /**< allocated from the pool to the application now */
  uint64_t used_high;        /**< high watermark of used_current since creation or reset */
} jet_mempool_stats;

/** What jet_mempool_export_pointer writes and jet_mempool_import_pointer
 *  reads: plain bytes to send as they are. */
typedef struct jet_mempool_ptr_desc {
  uint32_t version;          /**< JET_MEMPOOL_PTR_DESC_VERSION */
  uint32_t reserved;         /**< 0 */
  uint64_t bytes;            /**< the buffer's size */
  unsigned char data[64];    /**< cudaMemPoolPtrExportData */
} jet_mempool_ptr_desc;

/** The jet_mempool_ptr_desc layout this header writes and reads. */
#define JET_MEMPOOL_PTR_DESC_VERSION 1u

/* ------------------------------------------------------------------ stream-ordered buffers */

/**
 * jet_buffer_alloc_async - allocate a device buffer in stream order.
 *
 * cudaMallocFromPoolAsync from @pool, or cudaMallocAsync (the device's current
 * pool, normally its default one) when @pool is NULL. The buffer is a 1D
 * JET_MEMORY_DEVICE jet_buffer of @bytes; its memory is usable by work on
 * @stream queued after this call (other streams: order them after it).
 * Free it with jet_buffer_free_async (stream-ordered, no wait), or with
 * jet_buffer_destroy, which waits for the device first as cudaFree does.
 * @stream: a stream of the context the buffer will belong to (a default
 *          stream too).
 * @pool: a pool of the same context, created or default (not imported), or NULL.
 * @bytes: > 0.
 * @out: receives the buffer; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, zero
 *         @bytes or an imported @pool; JET_STATUS_INVALID_HANDLE for a bad
 *         @stream or @pool; JET_STATUS_WRONG_CONTEXT when they belong to
 *         different contexts; JET_STATUS_UNSUPPORTED where the device has no
 *         memory pools (cudaDevAttrMemoryPoolsSupported);
 *         JET_STATUS_OUT_OF_MEMORY (the detail says the bytes asked and the
 *         pool's reserved and used bytes); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_buffer_alloc_async(jet_stream stream, jet_mempool pool, size_t bytes,
                                  jet_buffer *out);

/**
 * jet_buffer_free_async - free a stream-ordered buffer in the order of @stream
 * (cudaFreeAsync) and release its handle.
 *
 * Returns at once; the memory goes back to its pool when @stream reaches the
 * free. Work on other streams that uses the buffer must be ordered before it
 * (an event that @stream waits for).
 * @buf: a buffer from jet_buffer_alloc_async or jet_mempool_import_pointer.
 * @stream: a stream of @buf's context.
 * @return JET_STATUS_OK (the handle is gone); JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_WRONG_CONTEXT; JET_STATUS_INVALID_ARGUMENT for a buffer
 *         not allocated in stream order (use jet_buffer_destroy); or the CUDA
 *         status of cudaFreeAsync, in which case the buffer stays alive.
 * Thread safety: no other thread may use @buf during or after the call.
 */
jet_status jet_buffer_free_async(jet_buffer buf, jet_stream stream);

/* ------------------------------------------------------------------ pools */

/**
 * jet_mempool_create - create a memory pool on @ctx's device (cudaMemPoolCreate)
 * and apply the descriptor's release threshold and reuse policies.
 * @desc: NULL for the defaults.
 * @out: receives the pool; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, unknown
 *         flags or reuse bits; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_UNSUPPORTED where the device has no memory pools, or for
 *         JET_MEMPOOL_EXPORTABLE where the policy or device cannot share pools
 *         (with a hint); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_mempool_create(jet_context ctx, const jet_mempool_desc *desc, jet_mempool *out);

/**
 * jet_mempool_get_default - a handle on the device's default pool
 * (cudaDeviceGetDefaultMemPool), the one jet_buffer_alloc_async uses with a
 * NULL pool (unless other code changed the device's current pool).
 *
 * Each call makes a new handle; jet_mempool_destroy releases the handle, never
 * the pool. Settings changed through it are the device's, for the whole
 * process.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED where the device
 *         has no memory pools; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_mempool_get_default(jet_context ctx, jet_mempool *out);

/**
 * jet_mempool_destroy - destroy a pool (cudaMemPoolDestroy), or release a
 * default pool's handle.
 *
 * Refused while buffers allocated from it (or imported through it) are
 * alive: free or destroy those first, so nothing is lost.
 * @pool: the pool, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         while buffers remain (the detail says how many); or a CUDA status
 *         (the handle is released all the same).
 * Thread safety: no other thread may use @pool during or after the call.
 */
jet_status jet_mempool_destroy(jet_mempool pool);

/**
 * jet_mempool_set_release_threshold - bytes the pool keeps reserved when a
 * synchronisation would release memory (cudaMemPoolAttrReleaseThreshold).
 * UINT64_MAX keeps everything: the setting that makes per-frame allocation
 * cheap.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for an imported pool; or a CUDA status.
 */
jet_status jet_mempool_set_release_threshold(jet_mempool pool, uint64_t bytes);

/** jet_mempool_get_release_threshold - the current threshold into *@bytes.
 *  @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @bytes;
 *  JET_STATUS_INVALID_HANDLE; or a CUDA status. */
jet_status jet_mempool_get_release_threshold(jet_mempool pool, uint64_t *bytes);

/**
 * jet_mempool_set_reuse - turn the reuse policies on (bits set in @reuse) or
 * off (bits clear): JET_MEMPOOL_REUSE_* (cudaMemPoolReuse*).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for unknown bits or an
 *         imported pool; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 */
jet_status jet_mempool_set_reuse(jet_mempool pool, unsigned reuse);

/** jet_mempool_get_reuse - the policies now on, as JET_MEMPOOL_REUSE_* bits.
 *  @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @reuse;
 *  JET_STATUS_INVALID_HANDLE; or a CUDA status. */
jet_status jet_mempool_get_reuse(jet_mempool pool, unsigned *reuse);

/**
 * jet_mempool_set_access - let device @device map the pool's memory
 * (cudaMemPoolSetAccess), for peers of the pool's device.
 *
 * The pool's own device always has read-write access: asking exactly that is
 * JET_STATUS_OK without a CUDA call, anything less is INVALID_ARGUMENT.
 * Another device needs a peer path to the pool's device
 * (cudaDeviceCanAccessPeer; never on Tegra).
 * @device: a CUDA device index.
 * @access: JET_MEM_ACCESS_NONE, _READ or _READ_WRITE.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for an unknown @access,
 *         a negative or absent @device, or a lower access for the pool's own
 *         device; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED when
 *         @device cannot reach the pool's device; or a CUDA status.
 */
jet_status jet_mempool_set_access(jet_mempool pool, int device, jet_mem_access access);

/**
 * jet_mempool_get_access - how device @device may access the pool's memory
 * (cudaMemPoolGetAccess); the pool's own device reads JET_MEM_ACCESS_READ_WRITE.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @access or a
 *         negative or absent @device; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 */
jet_status jet_mempool_get_access(jet_mempool pool, int device, jet_mem_access *access);

/**
 * jet_mempool_trim - release memory the pool holds unused down to
 * @keep_bytes reserved (cudaMemPoolTrimTo). Memory allocated from the pool,
 * and frees not yet reached by their stream, are never released: synchronise
 * first to trim those.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_INVALID_ARGUMENT for an imported pool; or a CUDA status.
 */
jet_status jet_mempool_trim(jet_mempool pool, size_t keep_bytes);

/**
 * jet_mempool_get_stats - reserved and used bytes, current and high
 * watermarks (cudaMemPoolAttrReservedMem*, cudaMemPoolAttrUsedMem*).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @stats;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 */
jet_status jet_mempool_get_stats(jet_mempool pool, jet_mempool_stats *stats);

/**
 * jet_mempool_reset_high_watermarks - restart the high watermarks
 * (reserved_high, used_high): CUDA resets them to zero, and they rise again
 * with the next use (drivers may report the current value at once).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 */
jet_status jet_mempool_reset_high_watermarks(jet_mempool pool);

/* ------------------------------------------------------------------ sharing pools */

/**
 * jet_mempool_export - a new file descriptor for an exportable pool
 * (cudaMemPoolExportToShareableHandle, POSIX descriptor), FD_CLOEXEC set,
 * owned by the caller, who sends it (jet_channel_send) and closes it.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @fd, a pool
 *         not created with JET_MEMPOOL_EXPORTABLE, a default or an imported
 *         pool; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED where the
 *         policy refuses (see above); JET_STATUS_IO_ERROR when the
 *         descriptor cannot be set up; or a CUDA status. *@fd is -1 on failure.
 */
jet_status jet_mempool_export(jet_mempool pool, int *fd);

/**
 * jet_mempool_import - open a pool another process exported
 * (cudaMemPoolImportFromShareableHandle). The imported pool allocates nothing
 * (jet_buffer_alloc_async refuses it); it imports pointers. @fd is never
 * closed: close it after the call.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out or an
 *         @fd that is not an open descriptor; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_UNSUPPORTED where the policy or device cannot share
 *         pools; or a CUDA status (a descriptor that is not a pool's).
 */
jet_status jet_mempool_import(jet_context ctx, int fd, jet_mempool *out);

/**
 * jet_mempool_export_pointer - describe a buffer allocated from an
 * exportable pool (cudaMemPoolExportPointer) for another process that has
 * imported the pool.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @desc or a
 *         buffer not allocated from an exportable pool;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 */
jet_status jet_mempool_export_pointer(jet_buffer buf, jet_mempool_ptr_desc *desc);

/**
 * jet_mempool_import_pointer - map an allocation of an imported pool
 * (cudaMemPoolImportPointer) as a JET_MEMORY_DEVICE buffer of desc->bytes.
 *
 * desc->bytes is checked against the range the driver reports for the
 * pointer (where it reports one: otherwise it is trusted). Destroy it
 * (or free it with jet_buffer_free_async) before the exporter frees its buffer.
 * @pool: a pool from jet_mempool_import.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @desc or @out,
 *         a pool that is not imported, a malformed description (version,
 *         reserved field, zero bytes, more bytes than the device has or than
 *         the allocation holds); JET_STATUS_INVALID_HANDLE; or a CUDA status.
 */
jet_status jet_mempool_import_pointer(jet_mempool pool, const jet_mempool_ptr_desc *desc,
                                      jet_buffer *out);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_POOL_H */
