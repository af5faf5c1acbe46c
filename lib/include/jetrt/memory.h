/*
 * jetrt/memory.h - buffers of every memory kind, host registration, copies,
 * fills and managed-memory hand-over.
 *
 * Memory kinds (jet_memory_kind) and where reads are slow:
 *
 *  kind                 GPU access                          CPU access through host_ptr
 *  -------------------  ----------------------------------  ----------------------------------
 *  DEVICE               fast (device memory; on Tegra the   none (host_ptr is NULL): copy it
 *                       shared DRAM)
 *  HOST_PINNED          not through a pointer: copies only  cached, except: write-combined
 *                       (fast DMA)                          (always slow to read), and on
 *                                                           non-I/O-coherent Tegra (SM < 7.2)
 *                                                           pinned memory is uncached
 *  HOST_MAPPED          zero-copy through device_ptr. On a  as HOST_PINNED
 *                       discrete GPU every access crosses
 *                       PCIe: read each byte once, in
 *                       coalesced order. On Tegra it is the
 *                       same DRAM (no copy, but the iGPU does
 *                       not cache it)
 *  MANAGED              migrates to the GPU on demand or by   migrates back; on Tegra before Thor
 *                       prefetch                            (concurrentManagedAccess == 0) the
 *                                                           CPU must not touch it while kernels
 *                                                           that may use it run: see
 *                                                           jet_managed_make_available
 *  HOST_REGISTERED      as HOST_MAPPED                      user memory, cached as before
 *
 * jet_buffer_info reports both facts for a buffer: cpu_reads_uncached and
 * gpu_access_crosses_bus.
 *
 * Copies and fills take raw pointers, as the CUDA runtime does: a buffer's
 * device_ptr or host_ptr, or plain (pageable) host memory for copies. The
 * direction is inferred from the pointers (cudaMemcpyDefault, which needs the
 * unified addressing every 64-bit CUDA 13 platform has).
 *
 * Sizes: a size, width or height of 0 is JET_STATUS_INVALID_ARGUMENT
 * everywhere (a zero-sized copy is almost always a bug upstream); sizes whose
 * products or address ranges overflow are JET_STATUS_OVERFLOW. Plain
 * arguments are checked before the context or stream handle, so a bad
 * argument is reported the same way on every machine.
 */
#ifndef JETRT_MEMORY_H
#define JETRT_MEMORY_H

#include <stddef.h>
#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What memory backs a buffer. */
typedef enum jet_memory_kind {
  JET_MEMORY_DEVICE = 0,         /**< cudaMalloc, cudaMallocPitch or cudaMalloc3D */
  JET_MEMORY_HOST_PINNED = 1,    /**< cudaHostAlloc: page-locked host memory for fast copies */
  JET_MEMORY_HOST_MAPPED = 2,    /**< cudaHostAlloc(cudaHostAllocMapped): zero-copy */
  JET_MEMORY_MANAGED = 3,        /**< cudaMallocManaged: one pointer, migrated CPU <-> GPU */
  JET_MEMORY_HOST_REGISTERED = 4 /**< user memory pinned by jet_host_register (only there) */
} jet_memory_kind;

/** Buffer flags (jet_buffer_desc.flags); which go with which kind is listed per flag. */
enum {
  /** DEVICE only: rows padded for aligned access; cudaMallocPitch (depth 1) or
   *  cudaMalloc3D (depth > 1). Read the pitch from jet_buffer_info. */
  JET_MEM_PITCHED = 1u << 0,
  /** HOST_PINNED, HOST_MAPPED, HOST_REGISTERED: pinned for every CUDA context,
   *  not only the current device's (cudaHostAllocPortable). */
  JET_MEM_PORTABLE = 1u << 1,
  /** HOST_PINNED, HOST_MAPPED: write-combined (cudaHostAllocWriteCombined).
   *  Faster for the CPU to write and the GPU to read over PCIe; CPU reads
   *  are very slow. */
  JET_MEM_WRITE_COMBINED = 1u << 2,
  /** MANAGED: any stream may use it at first (cudaMemAttachGlobal); the default. */
  JET_MEM_ATTACH_GLOBAL = 1u << 3,
  /** MANAGED: host-attached at first (cudaMemAttachHost): the CPU may use it
   *  while kernels run, no kernel may until it is handed over. */
  JET_MEM_ATTACH_HOST = 1u << 4,
  /** DEVICE only: when device memory is short, allocate pinned mapped host
   *  memory instead (logged at JET_LOG_WARN); jet_buffer_info says which kind
   *  the buffer got. On Tegra both come from the same DRAM, so it rarely helps. */
  JET_MEM_FALLBACK_HOST = 1u << 5,
  /** DEVICE only: memory another process can map (jetrt/ipc.h,
   *  jet_ipc_export_buffer), by the mechanism the platform policy and the
   *  device allow: VMM file descriptors where the device has them (always
   *  under a Tegra policy), else legacy CUDA IPC under a desktop policy. The
   *  allocation is whole granules of at least JET_IPC_ALLOC_ALIGN (2 MiB).
   *  With JET_MEM_PITCHED the pitch is width_bytes rounded up to
   *  JET_MEM_EXPORTABLE_PITCH_ALIGN. Not with JET_MEM_FALLBACK_HOST. */
  JET_MEM_EXPORTABLE = 1u << 6,
  /** DEVICE only: as JET_MEM_EXPORTABLE, forcing the legacy mechanism
   *  (cudaMalloc + cudaIpcGetMemHandle) for old drivers and tests. Refused
   *  with JET_STATUS_UNSUPPORTED where the policy forbids memory IPC (Jetson
   *  before Thor). Not together with JET_MEM_EXPORTABLE. */
  JET_MEM_EXPORTABLE_LEGACY = 1u << 7
};

/** Row alignment of a JET_MEM_PITCHED | JET_MEM_EXPORTABLE(_LEGACY) buffer, in bytes. */
#define JET_MEM_EXPORTABLE_PITCH_ALIGN 512

/** Parameters of jet_buffer_create. Zero-initialise, then set what you need. */
typedef struct jet_buffer_desc {
  jet_memory_kind kind; /**< kind to allocate; not JET_MEMORY_HOST_REGISTERED */
  unsigned flags;       /**< JET_MEM_* flags */
  size_t width_bytes;   /**< bytes per row; for a 1D buffer the whole size. Must be > 0 */
  size_t height;        /**< rows; 0 means 1 */
  size_t depth;         /**< slices of height rows; 0 means 1 */
} jet_buffer_desc;

/** What a buffer is, as allocated. */
typedef struct jet_buffer_info {
  jet_memory_kind kind;           /**< kind obtained (not requested_kind after a fallback) */
  jet_memory_kind requested_kind; /**< kind asked for */
  unsigned flags;                 /**< flags as given */
  void *device_ptr;  /**< for kernels and copies; NULL for HOST_PINNED (use HOST_MAPPED) */
  void *host_ptr;    /**< pointer for the CPU; NULL for DEVICE */
  size_t width_bytes, height, depth; /**< extent as asked, height and depth at least 1 */
  size_t pitch;      /**< bytes from one row to the next: width_bytes unless PITCHED */
  size_t size;       /**< bytes: pitch * height * depth (bytes registered for HOST_REGISTERED) */
  int cpu_reads_uncached;     /**< 1: CPU reads of host_ptr bypass the CPU cache (write-combined,
                                   or pinned memory on a platform that does not cache it) */
  int gpu_access_crosses_bus; /**< 1: kernels reading device_ptr go over PCIe on every access
                                   (mapped or registered host memory on a discrete GPU) */
} jet_buffer_info;

/* ------------------------------------------------------------------ buffers */

/**
 * jet_buffer_create - allocate a buffer of one memory kind.
 *
 * Flags that do not go with the kind, or with each other (both ATTACH flags),
 * are refused. HOST_MAPPED needs a device that can map host memory
 * (jet_platform_info.can_map_host_memory); the runtime's contexts always map
 * host memory (cudaDeviceMapHost is implicit), so JET_CONTEXT_MAP_HOST is not
 * needed. MANAGED needs jet_platform_info.managed_memory and a policy that
 * allows it (policy.managed_memory_allowed: not "igx-dgpu", a discrete GPU
 * attached to Tegra, where unified memory is unsupported).
 *
 * When device memory runs out the detail says how many bytes were asked and
 * how many were free by the platform's estimate (jet_context_mem_info). With
 * JET_MEM_FALLBACK_HOST a failed device allocation is retried as HOST_MAPPED.
 * @ctx: the owning context.
 * @desc: kind, flags and extent.
 * @out: receives the buffer; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out or @desc,
 *         an unknown kind or flag, a flag that does not fit the kind or
 *         another flag, or a zero width; JET_STATUS_OVERFLOW when width * height * depth
 *         overflows; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_UNSUPPORTED when the device lacks the kind, or the
 *         policy or device has no mechanism for an EXPORTABLE flag (with a
 *         hint; see jetrt/ipc.h);
 *         JET_STATUS_OUT_OF_MEMORY (the detail has the asked and free bytes);
 *         or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_buffer_create(jet_context ctx, const jet_buffer_desc *desc, jet_buffer *out);

/**
 * jet_buffer_destroy - free a buffer (or unregister wrapped user memory).
 *
 * Frees at once, as cudaFree does: work still queued on a stream that uses
 * the buffer must be finished first. A failure of the native free call is
 * reported, but the handle is released all the same: the memory is then either
 * freed or held by a CUDA context that is no longer usable. Exportable and
 * imported buffers (jetrt/ipc.h) are unmapped after the device is idle; the
 * memory itself goes when no process maps it and no exported descriptor is
 * open (VMM), so destroying here does not disturb other processes.
 * Stream-ordered buffers (jetrt/pool.h) are freed after the device is idle
 * too (cudaFreeAsync, completed before the call returns); views another
 * object lends (jet_growable_buffer, mapped GL buffers) are refused with
 * JET_STATUS_INVALID_STATE.
 * @buf: the buffer, or NULL (a no-op).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE for a destroyed or foreign
 *         pointer, or the CUDA status of the free call.
 * Thread safety: no other thread may use @buf during or after the call.
 */
jet_status jet_buffer_destroy(jet_buffer buf);

/**
 * jet_buffer_get_info - kind obtained, pointers, extent and pitch of a buffer.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @info, or
 *         JET_STATUS_INVALID_HANDLE. Thread safety: safe from any thread.
 */
jet_status jet_buffer_get_info(jet_buffer buf, jet_buffer_info *info);

/**
 * jet_buffer_device_ptr - the pointer kernels and copies use.
 * @out: receives it; NULL for HOST_PINNED buffers, which kernels cannot address.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @out, or
 *         JET_STATUS_INVALID_HANDLE. Thread safety: safe from any thread.
 */
jet_status jet_buffer_device_ptr(jet_buffer buf, void **out);

/**
 * jet_buffer_host_ptr - the pointer the CPU uses.
 * @out: receives it; NULL for DEVICE buffers.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @out, or
 *         JET_STATUS_INVALID_HANDLE. Thread safety: safe from any thread.
 */
jet_status jet_buffer_host_ptr(jet_buffer buf, void **out);

/**
 * jet_host_register - pin and map existing user memory (cudaHostRegister).
 *
 * The result is a JET_MEMORY_HOST_REGISTERED buffer whose host_ptr is @ptr and
 * whose device_ptr is the mapped address (cudaHostGetDevicePointer), or NULL
 * where the device cannot map host memory. jet_buffer_destroy unregisters it
 * (cudaHostUnregister); the user memory itself stays the caller's and must
 * outlive the buffer. Refused on platforms that do not allow it:
 * non-I/O-coherent Tegra (policy.host_register_allowed == 0) or a device
 * without cudaDevAttrHostRegisterSupported.
 * @ctx: the owning context.
 * @ptr: start of the user memory.
 * @bytes: its length, > 0.
 * @flags: 0 or JET_MEM_PORTABLE.
 * @out: receives the buffer; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL @ptr or @out,
 *         zero @bytes or another flag; JET_STATUS_OVERFLOW when the range wraps
 *         the address space; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED
 *         with a hint where registration is not allowed; JET_STATUS_INVALID_STATE
 *         when (part of) the range is registered already; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_host_register(jet_context ctx, void *ptr, size_t bytes, unsigned flags,
                             jet_buffer *out);

/* ------------------------------------------------------------------ copies and fills */

/** A pitched 2D/3D region: row r of slice s starts at ptr + (s * rows + r) * pitch. */
typedef struct jet_pitched_ptr {
  void *ptr;    /**< base address (read only when it is a copy's source) */
  size_t pitch; /**< bytes from one row to the next */
  size_t rows;  /**< rows per slice: the slice pitch is pitch * rows */
} jet_pitched_ptr;

/** A position inside a jet_pitched_ptr: byte column, row, slice. */
typedef struct jet_pos {
  size_t x_bytes, y, z;
} jet_pos;

/** The size of a 3D region: bytes per row, rows, slices; each > 0. */
typedef struct jet_extent {
  size_t width_bytes, height, depth;
} jet_extent;

/** A 3D copy: extent bytes from src at src_pos to dst at dst_pos. Each side
 *  needs pos.x_bytes + extent.width_bytes <= pitch and pos.y + extent.height
 *  <= rows. Zero-initialise, then set what you need. */
typedef struct jet_copy_3d {
  jet_pitched_ptr dst;
  jet_pos dst_pos;
  jet_pitched_ptr src;
  jet_pos src_pos;
  jet_extent extent;
} jet_copy_3d;

/**
 * jet_memcpy - copy @bytes from @src to @dst; either may be device, managed,
 * pinned, mapped or pageable host memory.
 *
 * The synchronous copies and fills return when the data is in place (they
 * also wait for earlier work on CUDA's legacy default stream); the _async
 * variants only queue the work on a stream.
 * @ctx: the context whose device performs the copy.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL pointer or
 *         zero @bytes; JET_STATUS_OVERFLOW when a range wraps the address
 *         space; JET_STATUS_INVALID_HANDLE for a bad @ctx; or a CUDA status
 *         (e.g. INVALID_ARGUMENT for a pointer CUDA does not know).
 * Thread safety: safe from any thread.
 */
jet_status jet_memcpy(jet_context ctx, void *dst, const void *src, size_t bytes);

/**
 * jet_memcpy_async - jet_memcpy queued on @stream; returns before the copy is done.
 *
 * With pageable host memory the copy is staged and may be synchronous with
 * respect to the host; use pinned or mapped memory for real overlap.
 * @return as jet_memcpy; JET_STATUS_INVALID_HANDLE for a bad @stream.
 * Thread safety: safe from any thread.
 */
jet_status jet_memcpy_async(jet_stream stream, void *dst, const void *src, size_t bytes);

/**
 * jet_memcpy_2d - copy @height rows of @width_bytes from @src (rows @spitch
 * apart) to @dst (rows @dpitch apart).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL pointer, a zero
 *         width or height, or a width larger than a pitch; JET_STATUS_OVERFLOW
 *         when pitch * height overflows or wraps the address space;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status (a pitch above the
 *         device's limit is INVALID_ARGUMENT).
 * Thread safety: safe from any thread.
 */
jet_status jet_memcpy_2d(jet_context ctx, void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width_bytes, size_t height);

/** jet_memcpy_2d_async - jet_memcpy_2d queued on @stream. @return as jet_memcpy_2d.
 *  Thread safety: safe from any thread. */
jet_status jet_memcpy_2d_async(jet_stream stream, void *dst, size_t dpitch, const void *src,
                               size_t spitch, size_t width_bytes, size_t height);

/**
 * jet_memcpy_3d - copy a 3D region between pitched pointers (cudaMemcpy3D).
 * @p: the copy; see jet_copy_3d for the rules.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @p or pointer,
 *         a zero extent, or a region outside its pitch or rows;
 *         JET_STATUS_OVERFLOW when the region's span overflows;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_memcpy_3d(jet_context ctx, const jet_copy_3d *p);

/** jet_memcpy_3d_async - jet_memcpy_3d queued on @stream. @return as jet_memcpy_3d.
 *  Thread safety: safe from any thread. */
jet_status jet_memcpy_3d_async(jet_stream stream, const jet_copy_3d *p);

/**
 * jet_memset - set @bytes bytes at @dst to @value. @dst must be device-accessible:
 * device, managed, or a mapped buffer's device_ptr.
 * @value: the byte, -128..255 (-1 and 255 both fill with 0xff); any other
 *         value is refused rather than truncated.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL @dst, zero
 *         @bytes or @value out of range; JET_STATUS_OVERFLOW;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_memset(jet_context ctx, void *dst, int value, size_t bytes);

/** jet_memset_async - jet_memset queued on @stream. @return as jet_memset.
 *  Thread safety: safe from any thread. */
jet_status jet_memset_async(jet_stream stream, void *dst, int value, size_t bytes);

/**
 * jet_memset_2d - set @height rows of @width_bytes bytes, rows @pitch apart.
 * @return as jet_memset, plus JET_STATUS_INVALID_ARGUMENT for @width_bytes >
 *         @pitch or a zero height. Thread safety: safe from any thread.
 */
jet_status jet_memset_2d(jet_context ctx, void *dst, size_t pitch, int value, size_t width_bytes,
                         size_t height);

/** jet_memset_2d_async - jet_memset_2d queued on @stream. @return as jet_memset_2d.
 *  Thread safety: safe from any thread. */
jet_status jet_memset_2d_async(jet_stream stream, void *dst, size_t pitch, int value,
                               size_t width_bytes, size_t height);

/**
 * jet_memset_3d - set a 3D region starting at @dst.ptr (cudaMemset3D); offset
 * dst.ptr yourself to start elsewhere. Needs @extent.width_bytes <= dst.pitch
 * and @extent.height <= dst.rows.
 * @return as jet_memset_2d. Thread safety: safe from any thread.
 */
jet_status jet_memset_3d(jet_context ctx, jet_pitched_ptr dst, int value, jet_extent extent);

/** jet_memset_3d_async - jet_memset_3d queued on @stream. @return as jet_memset_3d.
 *  Thread safety: safe from any thread. */
jet_status jet_memset_3d_async(jet_stream stream, jet_pitched_ptr dst, int value,
                               jet_extent extent);

/* ------------------------------------------------------------------ managed memory */

/** Who is about to use managed memory. */
typedef enum jet_processor {
  JET_PROCESSOR_NONE = 0, /**< none: advice without a location; "none or mixed" in a query */
  JET_PROCESSOR_GPU = 1, /**< kernels and copies on the stream */
  JET_PROCESSOR_CPU = 2  /**< the host, through host_ptr */
} jet_processor;

/** Stream association of managed memory (cudaStreamAttachMemAsync flags). */
typedef enum jet_attach_mode {
  JET_ATTACH_GLOBAL = 0, /**< any stream may use it; with concurrentManagedAccess == 0
                              the CPU may not touch it while any kernel runs */
  JET_ATTACH_HOST = 1,   /**< no kernel may use it; the CPU may, at any time */
  JET_ATTACH_SINGLE = 2  /**< only @stream may use it; the CPU may touch it whenever
                              that stream is idle. Not on the legacy default stream */
} jet_attach_mode;

/**
 * jet_managed_attach - change which streams may use a managed buffer, in
 * stream order (cudaStreamAttachMemAsync on the whole allocation).
 *
 * Works on every platform; it is how managed memory is handed between CPU and
 * GPU on Tegra before Thor.
 * @stream: the stream the change is ordered on (and, for SINGLE, the one
 *          stream allowed to use the buffer).
 * @buf: a JET_MEMORY_MANAGED buffer of the stream's context.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @stream or @buf;
 *         JET_STATUS_WRONG_CONTEXT when they belong to different contexts;
 *         JET_STATUS_INVALID_ARGUMENT for a buffer that is not managed, an
 *         unknown mode, or SINGLE on the legacy default stream; or a CUDA status.
 * Thread safety: safe from any thread; order it against other users of the
 * buffer yourself (events, synchronisation).
 */
jet_status jet_managed_attach(jet_stream stream, jet_buffer buf, jet_attach_mode mode);

/**
 * jet_managed_prefetch - migrate a whole managed buffer to the GPU or the CPU
 * in stream order (cudaMemPrefetchAsync).
 *
 * Refused where the platform lacks it: Tegra before Thor
 * (policy.managed_mode == JET_MANAGED_STREAM_ATTACH) and any device without
 * concurrent managed access. Use jet_managed_make_available to be portable.
 * @to: JET_PROCESSOR_GPU (the context's device) or JET_PROCESSOR_CPU.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         JET_STATUS_INVALID_ARGUMENT for a buffer that is not managed or a
 *         @to that is not exactly one of GPU or CPU; JET_STATUS_UNSUPPORTED with
 *         a hint where prefetch is unavailable; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_managed_prefetch(jet_stream stream, jet_buffer buf, jet_processor to);

/**
 * jet_managed_make_available - hand a managed buffer to the GPU (work on
 * @stream) or to the CPU, the way the platform policy says.
 *
 * JET_MANAGED_PREFETCH platforms (desktop, Thor) with concurrent managed
 * access: prefetch to the device or to the host. Otherwise (Tegra before
 * Thor): stream attach, SINGLE to @stream for the GPU (GLOBAL when @stream is
 * a default stream, which cannot own memory alone), HOST for the CPU.
 *
 * JET_PROCESSOR_GPU returns at once: the hand-over is ordered before later work
 * on @stream. JET_PROCESSOR_CPU waits for @stream, so on return the CPU may read
 * and write the buffer, and sees everything @stream wrote; it stays the CPU's
 * until handed back to the GPU (with concurrentManagedAccess == 0 a kernel
 * touching it before then is undefined behaviour).
 * @access: JET_PROCESSOR_GPU or JET_PROCESSOR_CPU, exactly one.
 * @return as jet_managed_attach, JET_STATUS_INVALID_ARGUMENT for a bad
 *         @access, or the error of the stream synchronisation.
 * Thread safety: safe from any thread; JET_PROCESSOR_CPU blocks the caller.
 */
jet_status jet_managed_make_available(jet_stream stream, jet_buffer buf, jet_processor access);

/* ------------------------------------------------------------------ managed memory advice */

/*
 * Advice, range prefetch and range queries on a range of a managed buffer
 * (Unified Memory appendix). A range is @offset and @bytes inside the buffer:
 * @bytes > 0 and @offset + @bytes <= the buffer's size. CUDA applies advice
 * and prefetch to whole pages, so a range that shares a page with its
 * neighbour also affects the neighbour's bytes in that page.
 *
 * The rules per platform (jet_policy.managed_advice, managed_mode,
 * managed_memory_allowed, and the device's cudaDevAttrConcurrentManagedAccess;
 * a forced policy such as JET_PLATFORM=orin restricts a desktop GPU the same way):
 *
 *  call                           desktop, Thor (concurrent   Tegra before Thor, or a device
 *                                 managed access)             without concurrent managed access
 *  -----------------------------  --------------------------  --------------------------------
 *  advise READ_MOSTLY, UNSET_...  cudaMemAdvise               no-op, JET_STATUS_OK: a pure
 *                                                             hint; CUDA never read-duplicates
 *                                                             there; the query reports 0
 *  advise PREFERRED_LOCATION,     cudaMemAdvise               JET_STATUS_UNSUPPORTED, hint:
 *  ACCESSED_BY and their UNSETs                               CUDA refuses a GPU location
 *                                                             there, and with one DRAM a CPU
 *                                                             location changes nothing
 *  jet_managed_prefetch_range     cudaMemPrefetchAsync        JET_STATUS_UNSUPPORTED, hint:
 *                                                             jet_managed_make_available
 *                                                             hands over by stream attach
 *  jet_managed_range_query        cudaMemRangeGetAttributes   the same (reports nothing set)
 *  jet_managed_attach             cudaStreamAttachMemAsync    the same: the Tegra hand-over
 *
 * Where the policy forbids managed memory (a discrete GPU on a Tegra host) no
 * managed buffer exists, so these calls never reach one.
 */

/** Advice for a range of managed memory (cudaMemAdvise). */
typedef enum jet_managed_advice {
  JET_ADVISE_READ_MOSTLY = 1,              /**< mostly read: processors may keep read-only copies */
  JET_ADVISE_UNSET_READ_MOSTLY = 2,        /**< undo READ_MOSTLY (collapses the copies) */
  JET_ADVISE_PREFERRED_LOCATION = 3,       /**< keep the pages at @where when possible */
  JET_ADVISE_UNSET_PREFERRED_LOCATION = 4, /**< no preferred location */
  JET_ADVISE_ACCESSED_BY = 5,              /**< keep the pages mapped for @where: fewer faults */
  JET_ADVISE_UNSET_ACCESSED_BY = 6         /**< undo ACCESSED_BY for @where */
} jet_managed_advice;

/**
 * jet_managed_advise - give CUDA advice about a range of a managed buffer.
 *
 * Not stream ordered: it takes effect for later accesses and prefetches.
 * Per platform see the table above: on Tegra before Thor READ_MOSTLY and
 * UNSET_READ_MOSTLY succeed and do nothing; the location advice is refused.
 * @buf: a JET_MEMORY_MANAGED buffer.
 * @offset, @bytes: the range inside @buf.
 * @advice: what to advise.
 * @where: PREFERRED_LOCATION, ACCESSED_BY and UNSET_ACCESSED_BY: JET_PROCESSOR_GPU
 *         (the buffer context's device) or JET_PROCESSOR_CPU. The others take no
 *         location: JET_PROCESSOR_NONE.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @buf;
 *         JET_STATUS_INVALID_ARGUMENT for a buffer that is not managed, zero
 *         @bytes, a range past the buffer's end, an unknown @advice, or a
 *         @where that does not fit the advice; JET_STATUS_OVERFLOW when
 *         @offset + @bytes overflows; JET_STATUS_UNSUPPORTED with a hint for
 *         location advice where the platform has no effect for it; or a CUDA
 *         status.
 * Thread safety: safe from any thread; advice on overlapping ranges from two
 * threads at once ends as one of the two.
 */
jet_status jet_managed_advise(jet_buffer buf, size_t offset, size_t bytes,
                              jet_managed_advice advice, jet_processor where);

/**
 * jet_managed_prefetch_range - migrate a range of a managed buffer to the GPU
 * or the CPU in stream order (cudaMemPrefetchAsync); jet_managed_prefetch on
 * part of a buffer.
 *
 * Refused where prefetch is unsupported (Tegra before Thor, or no concurrent
 * managed access): it is not translated, because the portable hand-over,
 * jet_managed_make_available, works on whole buffers and may block.
 * @stream: the stream the migration is ordered on; of the buffer's context.
 * @to: JET_PROCESSOR_GPU (the context's device) or JET_PROCESSOR_CPU.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         JET_STATUS_INVALID_ARGUMENT as for jet_managed_advise, or a @to that
 *         is not GPU or CPU; JET_STATUS_OVERFLOW; JET_STATUS_UNSUPPORTED with a
 *         hint where prefetch is unavailable; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_managed_prefetch_range(jet_stream stream, jet_buffer buf, size_t offset,
                                      size_t bytes, jet_processor to);

/** A location a range query reports. */
typedef struct jet_managed_location {
  jet_processor processor; /**< GPU, CPU, or NONE: none, or not the same for every page */
  int device;              /**< CUDA device index when processor is GPU, else -1 */
} jet_managed_location;

/** Most entries jet_managed_range_info.accessed_by holds. */
#define JET_MANAGED_ACCESSED_BY_MAX 8

/** What jet_managed_range_query reports about a range. */
typedef struct jet_managed_range_info {
  int read_mostly;                     /**< 1: every page of the range is READ_MOSTLY */
  jet_managed_location preferred;      /**< preferred location shared by every page */
  jet_managed_location last_prefetch;  /**< where every page was last prefetched (asked,
                                            not necessarily done); NONE if never */
  int accessed_by_count;               /**< valid entries of accessed_by */
  jet_managed_location accessed_by[JET_MANAGED_ACCESSED_BY_MAX]; /**< processors with
                                            ACCESSED_BY on the whole range */
} jet_managed_range_info;

/**
 * jet_managed_range_query - read the advice and last prefetch location of a
 * range of a managed buffer (cudaMemRangeGetAttributes).
 *
 * Works on every platform that has managed memory; where advice is a no-op or
 * refused (Tegra before Thor) it reports nothing set.
 * @info: receives the attributes.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @info, a buffer that is not managed, zero @bytes or a
 *         range past the end; JET_STATUS_OVERFLOW; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_managed_range_query(jet_buffer buf, size_t offset, size_t bytes,
                                   jet_managed_range_info *info);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_MEMORY_H */
