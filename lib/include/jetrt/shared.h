/*
 * jetrt/shared.h - shared buffers: one allocation with a CPU view and a GPU view.
 *
 * A jet_shared buffer is handed back and forth between the CPU and the GPU
 * with begin/end pairs. The memory behind it is chosen by the platform policy
 * (jet_policy.shared_backing), so the same user code is right, and fast, on a
 * Jetson and on a desktop GPU:
 *
 *   jet_shared sb;                       jet_shared_create(ctx, bytes, 0, &sb);
 *   void *h;                             jet_shared_begin_cpu(sb, s, JET_ACCESS_WRITE, &h);
 *   ...fill h...                         jet_shared_end_cpu(sb, s);
 *   void *d;                             jet_shared_begin_gpu(sb, s, JET_ACCESS_READ_WRITE, &d);
 *   ...enqueue kernels using d on s...   jet_shared_end_gpu(sb, s);
 *                                        jet_shared_begin_cpu(sb, s, JET_ACCESS_READ, &h);
 *   ...read h...                         jet_shared_end_cpu(sb, s);
 *
 * Backings (jet_shared_backing, context.h):
 *  - JET_SHARED_BACKING_MAPPED_HOST (Tegra default, or JET_SHARED_ZERO_COPY):
 *    pinned host memory mapped into the GPU's address space. No copies at
 *    all; a hand-over to the CPU only waits for the GPU work.
 *  - JET_SHARED_BACKING_DEVICE_STAGED (desktop default, or JET_SHARED_STAGED):
 *    device memory plus a pinned staging copy on the host. begin_cpu with
 *    JET_ACCESS_READ copies device -> staging (skipped when the GPU has not
 *    written since the last copy); end_cpu after JET_ACCESS_WRITE copies
 *    staging -> device on the stream.
 *  - JET_SHARED_BACKING_MANAGED (JET_SHARED_MANAGED): managed memory. It is
 *    handed over with cudaStreamAttachMemAsync where the policy says so
 *    (Xavier, Orin) or where the device lacks concurrent managed access, and
 *    with cudaMemPrefetchAsync otherwise (desktop, Thor).
 *
 * What is slow, per platform:
 *  - Jetson (integrated GPU): the iGPU does not cache pinned host memory, so
 *    GPU reads of a MAPPED_HOST buffer go to DRAM every time: fine for data
 *    streamed once, slow for data a kernel reads repeatedly; use
 *    JET_SHARED_MANAGED (GPU-cached) for that. On Xavier and later (SM >= 7.2,
 *    I/O coherent) the CPU caches pinned memory; on older Tegra (Nano, TX1,
 *    TX2: jet_policy.pinned_cpu_reads_cached == 0) pinned memory is uncached
 *    for the CPU too and CPU reads of the host view are slow: read it once into
 *    ordinary memory. STAGED works but copies inside the same DRAM for nothing.
 *  - Desktop (discrete GPU): every GPU access to a MAPPED_HOST buffer crosses
 *    PCIe (good for data touched once by the GPU, bad otherwise). STAGED costs
 *    one PCIe copy of the whole buffer per hand-over in each direction that
 *    carries data. MANAGED migrates pages on prefetch.
 *
 * Rules: one access at a time per buffer (a CPU or a GPU access), ended on the
 * stream it was begun on. The GPU view may be used only between begin_gpu and
 * end_gpu, by work enqueued on that stream (or ordered after it by the user);
 * the CPU view only between begin_cpu and end_cpu. Hand-overs are not stream
 * capturable: begin an access before a capture starts and end it after the
 * graph has run.
 */
#ifndef JETRT_SHARED_H
#define JETRT_SHARED_H

#include <stddef.h>
#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How an access uses memory; combine with |. */
typedef enum jet_access {
  JET_ACCESS_READ = 1u << 0,  /**< the access reads the current contents */
  JET_ACCESS_WRITE = 1u << 1, /**< the access writes; WRITE alone discards the old contents */
  JET_ACCESS_READ_WRITE = (1u << 0) | (1u << 1)
} jet_access;

/** jet_shared_create flags; at most one backing flag (each forces a backing). */
enum {
  JET_SHARED_ZERO_COPY = 1u << 0, /**< force MAPPED_HOST: no copies; needs can_map_host_memory */
  JET_SHARED_STAGED = 1u << 1,    /**< force DEVICE_STAGED: device memory plus a staging copy */
  JET_SHARED_MANAGED = 1u << 2,   /**< force MANAGED: GPU-cached on Tegra; needs managed_memory */
  /** Another process can map the buffer (jetrt/ipc.h, jet_ipc_export_shared).
   *  Forces DEVICE_STAGED on every platform, with the device part in
   *  exportable memory (as JET_MEM_EXPORTABLE: VMM file descriptors where the
   *  device has them, which includes every Jetson), so the buffer behaves the
   *  same on Tegra and desktop; on Tegra the staging copies stay inside the
   *  one DRAM. Each process has its own staging copy, and every begin_cpu with
   *  JET_ACCESS_READ copies the device part in, since another process may have
   *  written it. May be combined with JET_SHARED_STAGED, not with the others. */
  JET_SHARED_EXPORTABLE = 1u << 3
};

/** What jet_shared_get_info reports. */
typedef struct jet_shared_info {
  size_t bytes;                   /**< size asked at creation */
  jet_shared_backing backing;     /**< the backing obtained */
  unsigned flags;                 /**< the creation flags */
  int zero_copy;                  /**< 1: the CPU and GPU views are the same memory, never copied */
  int cpu_view_cached;            /**< 1: CPU reads of the host view hit the CPU cache */
  unsigned long long transfers;   /**< whole-buffer copies made between the views so far */
  unsigned open_cpu_access;       /**< jet_access bits of the open CPU access; 0 when none */
  unsigned open_gpu_access;       /**< jet_access bits of the open GPU access; 0 when none */
} jet_shared_info;

/**
 * jet_shared_create - allocate a buffer with a CPU and a GPU view.
 *
 * The backing is ctx's policy default (jet_policy.shared_backing) unless a
 * flag forces one. The contents start unspecified.
 * @ctx: the owning context.
 * @bytes: size, > 0.
 * @flags: 0 or one JET_SHARED_* backing flag; JET_SHARED_EXPORTABLE alone or
 *         with JET_SHARED_STAGED.
 * @out: receives the buffer; left NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, zero
 *         @bytes, an unknown flag or two backing flags together (EXPORTABLE
 *         goes only with STAGED); JET_STATUS_OVERFLOW for @bytes >
 *         PTRDIFF_MAX; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_UNSUPPORTED when the device cannot map host memory
 *         (zero-copy), has no managed memory (the hint names an alternative)
 *         or its policy refuses it (igx-dgpu: a discrete GPU attached to Tegra)
 *         or has no mechanism for JET_SHARED_EXPORTABLE (see jetrt/ipc.h);
 *         JET_STATUS_OUT_OF_MEMORY with the bytes asked and the memory free in
 *         the detail; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_shared_create(jet_context ctx, size_t bytes, unsigned flags, jet_shared *out);

/**
 * jet_shared_destroy - release a shared buffer.
 *
 * Waits for the GPU work handed the buffer (up to the last end_gpu or staged
 * upload) before freeing, so it is safe right after jet_shared_end_gpu.
 * Refused while an access is open, because GPU work enqueued inside an open
 * GPU access is not tracked yet: end the access first.
 * @sb: the buffer, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a destroyed or foreign
 *         pointer; JET_STATUS_INVALID_STATE while an access is open (nothing is
 *         released); a CUDA status when waiting for the GPU failed (the
 *         buffer is released anyway, the device is then usually unusable).
 * Thread safety: no other call may use @sb during or after the call.
 */
jet_status jet_shared_destroy(jet_shared sb);

/**
 * jet_shared_get_info - size, backing and state of a buffer.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @info or
 *         JET_STATUS_INVALID_HANDLE. Thread safety: safe from any thread.
 */
jet_status jet_shared_get_info(jet_shared sb, jet_shared_info *info);

/**
 * jet_shared_begin_cpu - hand the buffer to the CPU.
 *
 * Waits until the GPU work of the last GPU access (on any stream) is complete.
 * Then, per backing: MAPPED_HOST does nothing more; DEVICE_STAGED with
 * JET_ACCESS_READ copies device -> staging on @stream and waits for it
 * (skipped when the GPU has not written since the last copy); MANAGED attaches
 * the memory to the host (stream attach) or prefetches it to the host, on
 * @stream, and waits. With JET_ACCESS_WRITE alone the old contents are not
 * fetched: bytes the CPU leaves unwritten are unspecified afterwards.
 * @stream: stream for any copy or attach; the same stream must end the access.
 * @access: JET_ACCESS_READ, JET_ACCESS_WRITE or both.
 * @host_ptr: receives the CPU view, valid until jet_shared_end_cpu; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @host_ptr or
 *         @access outside READ|WRITE or 0; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_WRONG_CONTEXT for a stream of another context;
 *         JET_STATUS_INVALID_STATE while an access is open or when @stream is
 *         capturing a graph; or a CUDA status (no access is opened then).
 * Thread safety: calls on one buffer are serialised; use one thread per access.
 */
jet_status jet_shared_begin_cpu(jet_shared sb, jet_stream stream, unsigned access, void **host_ptr);

/**
 * jet_shared_end_cpu - end the CPU access begun with jet_shared_begin_cpu.
 *
 * DEVICE_STAGED after a JET_ACCESS_WRITE access enqueues the staging ->
 * device copy on @stream and returns without waiting; the other backings need
 * no work. The host pointer must not be used afterwards.
 * @stream: the stream the access was begun on.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         when no CPU access is open or @stream is capturing;
 *         JET_STATUS_INVALID_ARGUMENT for another stream than begin's (the
 *         access stays open in both cases); or a CUDA status (the access is
 *         closed then, and the contents unspecified).
 * Thread safety: as jet_shared_begin_cpu.
 */
jet_status jet_shared_end_cpu(jet_shared sb, jet_stream stream);

/**
 * jet_shared_begin_gpu - hand the buffer to GPU work enqueued on @stream.
 *
 * Orders @stream after earlier GPU work on the buffer and any pending staged
 * upload (a stream wait, not a host wait). MANAGED attaches the memory to
 * @stream (to all streams for the legacy default stream) or prefetches it to
 * the device. Never waits on the host.
 * @stream: stream of the GPU work; the same stream must end the access.
 * @access: JET_ACCESS_READ, JET_ACCESS_WRITE or both: say WRITE whenever the
 *          GPU may write, or a staged CPU read will miss the writes.
 * @dev_ptr: receives the GPU view, valid until jet_shared_end_gpu; NULL on failure.
 * @return as jet_shared_begin_cpu.
 * Thread safety: as jet_shared_begin_cpu.
 */
jet_status jet_shared_begin_gpu(jet_shared sb, jet_stream stream, unsigned access, void **dev_ptr);

/**
 * jet_shared_end_gpu - end the GPU access: the work enqueued on @stream so far
 * is the work the next hand-over (or jet_shared_destroy) waits for. Does not
 * wait itself.
 * @stream: the stream the access was begun on.
 * @return as jet_shared_end_cpu, for a GPU access.
 * Thread safety: as jet_shared_begin_cpu.
 */
jet_status jet_shared_end_gpu(jet_shared sb, jet_stream stream);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_SHARED_H */
