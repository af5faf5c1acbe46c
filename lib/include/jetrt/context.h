/*
 * jetrt/context.h - devices, platform report, platform policy and contexts.
 *
 * A jet_context owns one CUDA device. Every other jetrt object is created from
 * a context and belongs to it; passing an object to a call on another context
 * fails with JET_STATUS_WRONG_CONTEXT.
 *
 * When a context is created, jetrt reads the device's attributes and picks a
 * platform policy: "desktop" for a discrete GPU, "xavier", "orin" or "thor"
 * (Tegra, parameterised by SoC) for an integrated one. The policy decides which
 * memory backs shared CPU+GPU buffers, whether host registration and memory IPC
 * are allowed, how managed memory is handed between CPU and GPU, and how kernel
 * images are matched. A discrete GPU in a Tegra host (the dGPU of an IGX Orin,
 * next to its iGPU) gets "igx-dgpu": the desktop policy without managed memory.
 * Each context has its own policy, from its own device: on an IGX Orin a
 * context on the iGPU gets "orin" and one on the dGPU "igx-dgpu". The
 * environment variable JET_PLATFORM (or
 * jet_context_desc.platform) forces a policy on any GPU, so Tegra code paths run
 * for real on a desktop GPU. A forced policy restricts; it never makes an
 * operation the hardware lacks appear to succeed.
 */
#ifndef JETRT_CONTEXT_H
#define JETRT_CONTEXT_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handles. Each is created from a context and belongs to it. */
typedef struct jet_context_s *jet_context;
typedef struct jet_stream_s *jet_stream;         /* jetrt/stream.h */
typedef struct jet_event_s *jet_event;           /* jetrt/stream.h */
typedef struct jet_buffer_s *jet_buffer;         /* jetrt/memory.h */
typedef struct jet_shared_s *jet_shared;         /* jetrt/shared.h */
typedef struct jet_graph_s *jet_graph;           /* jetrt/graph.h */
typedef struct jet_graph_exec_s *jet_graph_exec; /* jetrt/graph.h */

/** The default streams every context has (jet_context_default_stream). */
typedef enum jet_default_stream {
  JET_STREAM_LEGACY = 0,    /**< CUDA's legacy NULL stream: synchronises with other blocking streams */
  JET_STREAM_PER_THREAD = 1 /**< cudaStreamPerThread: one implicit stream per host thread */
} jet_default_stream;

/* ------------------------------------------------------------------ devices */

/**
 * jet_device_count - number of CUDA devices visible to this process.
 * @count: receives the count; 0 where there is no GPU or no driver.
 * @return JET_STATUS_OK (also when the count is 0: no driver or no device is
 *         not an error here, the detail still says why), or
 *         JET_STATUS_INVALID_ARGUMENT if @count is NULL, or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_device_count(int *count);

/** Everything jetrt reads about a device, from cudaDeviceGetAttribute and the driver. */
typedef struct jet_platform_info {
  int device;                      /**< CUDA device index */
  char name[256];                  /**< marketing name */
  int cc_major, cc_minor;          /**< compute capability */
  int sm_count;                    /**< multiprocessors */
  size_t total_memory;             /**< bytes of device memory (shared DRAM on Tegra) */
  int integrated;                  /**< 1: iGPU sharing DRAM with the CPU (Tegra) */
  int io_coherent;                 /**< 1: GPU snoops CPU caches (Tegra CC >= 7.2, or any dGPU over PCIe) */
  int can_map_host_memory;         /**< cudaDevAttrCanMapHostMemory */
  int host_register_supported;     /**< cudaDevAttrHostRegisterSupported */
  int managed_memory;              /**< cudaDevAttrManagedMemory */
  int concurrent_managed_access;   /**< CPU may touch managed memory while kernels run */
  int pageable_memory_access;      /**< GPU reads pageable host memory coherently */
  int memory_pools_supported;      /**< cudaMallocAsync pools */
  int vmm_supported;               /**< cuMemCreate / cuMemMap virtual memory management */
  int posix_fd_handles_supported;  /**< VMM memory exportable as a POSIX file descriptor */
  int ipc_event_supported;         /**< cudaDevAttrIpcEventSupport */
  size_t l2_size;                  /**< bytes of L2 */
  size_t persisting_l2_max;        /**< largest persisting-L2 carve-out in bytes, 0 if none */
  int async_engines;               /**< copy engines */
  int unified_addressing;          /**< host and device share one address space */
  int stream_priorities_supported; /**< cudaDevAttrStreamPrioritiesSupported */
  int driver_version;              /**< e.g. 13000 for 13.0; 0 when no driver */
  int runtime_version;             /**< version of the CUDA runtime linked in */
  unsigned char uuid[16];          /**< the device's UUID (cuDeviceGetUuid): tells GPUs apart
                                        across processes, e.g. in jetrt/ipc.h descriptions */
  int pci_domain, pci_bus, pci_device; /**< PCI location (cudaDevAttrPci*Id); 0 on an iGPU */
  char pci_bus_id[16];             /**< "dddd:bb:dd.0" (cudaDeviceGetPCIBusId form) */
  int tegra_host;                  /**< 1: the host is a Tegra SoC (this device or another
                                        one is integrated, the device tree says "nvidia,tegra",
                                        or JET_TEGRA_HOST=1); a discrete GPU in such a host
                                        (IGX Orin) gets the "igx-dgpu" policy */
  int fp64_ratio;                  /**< cudaDevAttrSingleToDoublePrecisionPerfRatio: how many
                                        times faster FP32 runs than FP64 (2 on H100 and H200) */
} jet_platform_info;

/**
 * jet_device_query - fill a platform report for a device without creating a context.
 * @device: CUDA device index, 0 <= device < jet_device_count().
 * @info: receives the report.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @info or an
 *         index out of range; JET_STATUS_NO_DEVICE where there is no GPU.
 * Thread safety: safe from any thread.
 */
jet_status jet_device_query(int device, jet_platform_info *info);

/** How jet_device_choose picks a device. */
typedef enum jet_device_pick {
  JET_DEVICE_PICK_FIRST_INTEGRATED = 0, /**< lowest index with integrated == 1 (Tegra iGPU) */
  JET_DEVICE_PICK_FIRST_DISCRETE = 1,   /**< lowest index with integrated == 0 */
  JET_DEVICE_PICK_UUID = 2,             /**< the device whose uuid equals jet_device_criteria.uuid */
  JET_DEVICE_PICK_PCI_BUS_ID = 3        /**< the device at jet_device_criteria.pci_bus_id */
} jet_device_pick;

/** What jet_device_choose looks for. Zero-initialise, then set what you need. */
typedef struct jet_device_criteria {
  jet_device_pick pick;
  unsigned char uuid[16];  /**< JET_DEVICE_PICK_UUID: as in jet_platform_info.uuid */
  const char *pci_bus_id;  /**< JET_DEVICE_PICK_PCI_BUS_ID: "domain:bus:device.function" or
                                "bus:device.function" in hex, as cudaDeviceGetPCIBusId and
                                nvidia-smi (8-digit domain) write it; the function is ignored */
} jet_device_criteria;

/**
 * jet_device_choose - the index of the first device that fits @criteria.
 *
 * Reads each device's report (jet_device_query) without creating a context;
 * pass the index to jet_context_desc.device.
 * @criteria: what to look for.
 * @device: receives the index; -1 on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arguments, an
 *         unknown pick or a PCI bus id that does not parse; JET_STATUS_NO_DEVICE
 *         where there is no GPU or no device fits (the detail lists what was
 *         seen); or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_device_choose(const jet_device_criteria *criteria, int *device);

/* ------------------------------------------------------------------ policy */

typedef enum jet_platform_kind {
  JET_PLATFORM_DESKTOP = 0, /**< discrete GPU with its own memory */
  JET_PLATFORM_TEGRA = 1    /**< integrated GPU sharing DRAM with the CPU */
} jet_platform_kind;

/** What memory backs a shared CPU+GPU buffer (see jetrt/shared.h). */
typedef enum jet_shared_backing {
  JET_SHARED_BACKING_MAPPED_HOST = 0,    /**< pinned, mapped host memory: zero-copy */
  JET_SHARED_BACKING_DEVICE_STAGED = 1,  /**< device memory plus a pinned staging copy */
  JET_SHARED_BACKING_MANAGED = 2         /**< managed memory handed over by stream attach or prefetch */
} jet_shared_backing;

/** How managed memory is moved between CPU and GPU. */
typedef enum jet_managed_mode {
  JET_MANAGED_PREFETCH = 0,     /**< cudaMemPrefetchAsync (desktop, Thor) */
  JET_MANAGED_STREAM_ATTACH = 1 /**< cudaStreamAttachMemAsync (Tegra before Thor) */
} jet_managed_mode;

/** How a precompiled cubin is matched to the device. */
typedef enum jet_cubin_match {
  JET_CUBIN_EXACT_SM = 0,   /**< only the device's exact SM (Tegra) */
  JET_CUBIN_SAME_MAJOR = 1  /**< same major, highest minor <= the device's (desktop) */
} jet_cubin_match;

/** How an EGLSync becomes something a CUDA stream can wait for (jetrt/egl.h). */
typedef enum jet_egl_sync_mode {
  JET_EGL_SYNC_HOST_WAIT = 0, /**< the host waits for the sync (desktop: the driver has no EGLSync events) */
  JET_EGL_SYNC_CUDA_EVENT = 1 /**< cudaEventCreateFromEGLSync: the GPU waits (Tegra iGPU) */
} jet_egl_sync_mode;

/** The platform policy in force on a context. */
typedef struct jet_policy {
  char name[16];                     /**< "desktop", "igx-dgpu", "xavier", "orin", "thor" or "tegra" */
  jet_platform_kind kind;
  int soc_sm;                        /**< SoC SM as 10*major+minor (72, 87, 110); 0 on desktop */
  int forced;                        /**< 1 when JET_PLATFORM or the descriptor chose it */
  jet_shared_backing shared_backing; /**< default backing of jet_shared buffers */
  int host_register_allowed;         /**< cudaHostRegister may be used */
  jet_managed_mode managed_mode;
  int memory_ipc_allowed;            /**< cudaIpcGetMemHandle may be used */
  int event_ipc_allowed;             /**< cudaIpcGetEventHandle may be used */
  jet_cubin_match cubin_match;
  int pinned_cpu_reads_cached;       /**< CPU reads of pinned host memory hit the CPU cache */
  jet_egl_sync_mode egl_sync;        /**< EGLSync -> CUDA event mechanism (jet_egl_sync_to_event) */
  char reason[256];                  /**< why this policy was chosen, in words */
  /** 1: L2 persistence (jetrt/l2.h: set-aside, access policy windows) may be
   *  used; decided from the device's attributes (persistingL2CacheMaxSize > 0
   *  and SM 8.0+), not from its name, so Orin (SM 8.7) has it. */
  int l2_persistence;
  char l2_persistence_why[160];      /**< why L2 persistence is or is not available */
  /** Managed-memory advice (jet_managed_advise: preferred location, accessed-by,
   *  read duplication) takes effect: 1 on desktop and Thor; 0 on Tegra before
   *  Thor, where CPU and GPU share one DRAM without concurrent managed access
   *  (UM appendix). Advice is also refused on any device whose
   *  concurrentManagedAccess is 0 (jetrt/memory.h says per call). */
  int managed_advice;
  /** Managed memory may be allocated at all: 0 for a discrete GPU attached to
   *  a Tegra host, where the UM appendix says unified memory is unsupported. */
  int managed_memory_allowed;
  int peer_access_allowed;           /**< peer access and peer copies between devices
                                          (jetrt/peer.h); 0 on Tegra, which has no peer-to-peer */
  int external_dmabuf;               /**< dma-buf descriptors import as external memory
                                          (jetrt/external.h; Jetson Thor and later) */
  /** jetrt's float image kernels may sum in FP64 where that is faster than
   *  their compensated FP32 sums (jetrt/resize.h: float area): 1 only under
   *  the desktop policies on a device whose FP64 runs at half the FP32 rate
   *  (fp64_ratio 2: data-centre GPUs); 0 under the Tegra policies, so that a
   *  forced one runs the FP32 kernels a Jetson runs. Results meet the same
   *  contract either way. */
  int fp64_sums;
} jet_policy;

/* ------------------------------------------------------------------ context */

/** Context flags; at most one JET_CONTEXT_SYNC_* flag. */
enum {
  JET_CONTEXT_MAP_HOST = 1u << 0,      /**< allow mapped (zero-copy) host memory (cudaDeviceMapHost) */
  JET_CONTEXT_SYNC_SPIN = 1u << 1,     /**< host threads spin while waiting: lowest latency, burns a core */
  JET_CONTEXT_SYNC_YIELD = 1u << 2,    /**< host threads yield while waiting */
  JET_CONTEXT_SYNC_BLOCKING = 1u << 3, /**< host threads sleep on a primitive while waiting: saves power */
  JET_CONTEXT_NO_JIT = 1u << 4         /**< kernel modules refuse PTX JIT and NVRTC (jetrt/module.h) */
};

/** Parameters of jet_context_create. Zero-initialise, then set what you need. */
typedef struct jet_context_desc {
  int device;            /**< CUDA device index */
  unsigned flags;        /**< JET_CONTEXT_* flags */
  const char *platform;  /**< NULL: JET_PLATFORM or auto-detect; else "desktop", "xavier", "orin",
                              "thor", or "igx-dgpu" (a discrete GPU in a Tegra host) */
} jet_context_desc;

/**
 * jet_context_create - open a CUDA device and choose its platform policy.
 *
 * Several contexts may share one device; they share its CUDA primary context,
 * so their flags must agree. CUDA must not be used before main() starts or after
 * it returns: create and destroy contexts inside main().
 * @out: receives the new context.
 * @desc: device, flags and optional forced platform; NULL means device 0,
 *        default flags, automatic platform.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, a bad
 *         device index, an unknown flag, two SYNC flags or an unknown platform
 *         name; JET_STATUS_NO_DEVICE where there is no GPU; JET_STATUS_INVALID_STATE
 *         when a live context of the device (or other CUDA use of it) has another
 *         SYNC flag; JET_STATUS_UNSUPPORTED for JET_CONTEXT_MAP_HOST on a device
 *         that cannot map host memory. @out is left NULL on failure.
 * Thread safety: safe from any thread.
 */
jet_status jet_context_create(jet_context *out, const jet_context_desc *desc);

/**
 * jet_context_destroy - release a context.
 *
 * Refused while objects created from it (buffers, streams, events, graphs)
 * are alive, so nothing is lost: destroy those first. Graphics-interop
 * registrations (jetrt/gl.h, jetrt/egl.h: registered GL objects and EGLImages,
 * EGLStream connections, presenters) are the exception: they do not block the
 * destroy; jetrt unregisters them (newest first) and reports each one in a
 * JET_LOG_WARN message starting "leak report:".
 * @ctx: the context, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a destroyed or foreign
 *         pointer; JET_STATUS_INVALID_STATE while objects remain (the detail
 *         says how many).
 * Thread safety: no other thread may use @ctx or its objects during the call.
 */
jet_status jet_context_destroy(jet_context ctx);

/**
 * jet_context_platform - the device report taken when @ctx was created.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @info, or
 *         JET_STATUS_INVALID_HANDLE. Thread safety: safe from any thread.
 */
jet_status jet_context_platform(jet_context ctx, jet_platform_info *info);

/**
 * jet_context_policy - the platform policy in force on @ctx and why.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @policy, or
 *         JET_STATUS_INVALID_HANDLE. Thread safety: safe from any thread.
 */
jet_status jet_context_policy(jet_context ctx, jet_policy *policy);

/**
 * jet_context_mem_info - free and total memory the GPU can allocate.
 *
 * On Tegra cudaMemGetInfo ignores memory the CPU can reclaim and swap; the
 * Tegra policy estimates free memory from /proc/meminfo as NVIDIA's Tegra note
 * advises, and falls back to cudaMemGetInfo where that file cannot be read.
 * @free_bytes, @total_bytes: receive the numbers; either may be NULL, not both.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT, JET_STATUS_INVALID_HANDLE
 *         or a CUDA status. Thread safety: safe from any thread.
 */
jet_status jet_context_mem_info(jet_context ctx, size_t *free_bytes, size_t *total_bytes);

/**
 * jet_context_synchronize - wait until all work on the context's device is done.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE or the first asynchronous
 *         error the device reported. Thread safety: safe from any thread.
 */
jet_status jet_context_synchronize(jet_context ctx);

/**
 * jet_context_default_stream - a handle for one of the context's default streams.
 *
 * The handle is owned by the context: it is valid until the context is
 * destroyed, and jet_stream_destroy refuses it. The per-thread stream handle is
 * one handle for all threads; each thread that uses it gets its own stream.
 * @kind: JET_STREAM_LEGACY or JET_STREAM_PER_THREAD.
 * @out: receives the handle.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @out or an unknown @kind.
 * Thread safety: safe from any thread.
 */
jet_status jet_context_default_stream(jet_context ctx, jet_default_stream kind, jet_stream *out);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_CONTEXT_H */
