/*
 * jetrt/module.h - kernel images, modules, kernels and launches.
 *
 * A kernel module is one CUDA source file compiled at build time into a set of
 * images: a cubin per SM in the configured list, PTX for the lowest compute
 * capability, and the source text itself. The build embeds them as read-only
 * data in a jet_kernel_image_set (see cmake/JetrtKernels.cmake, function
 * jetrt_add_kernels, which does the same for your own .cu files).
 *
 * Loading a set on a context picks exactly one image, in this order:
 *  1. cubin: on the Tegra policy only the device's exact SM; on the desktop
 *     policy the same major version with the highest minor <= the device's.
 *  2. PTX: the highest compute capability <= the device's, JIT-compiled by the
 *     driver. Its error and info logs go into the error detail / the log.
 *  3. NVRTC: the embedded source compiled for the device's exact SM into a
 *     cubin, cached on disk (see "NVRTC cache" below).
 *  4. Otherwise JET_STATUS_NO_KERNEL_IMAGE, whose detail names the device's SM
 *     and every image present with the reason it was rejected.
 * When an image is chosen but the driver refuses it, the next candidate is
 * tried and the refusal is logged at JET_LOG_WARN.
 *
 * Deterministic deployments (NVIDIA's Tegra guidance) forbid run-time
 * compilation: JET_JIT=forbid in the environment, the context flag
 * JET_CONTEXT_NO_JIT or the module flag JET_MODULE_NO_JIT make steps 2 and 3
 * unavailable, so only an exact (Tegra) or compatible (desktop) cubin loads.
 *
 * Test override: JET_KERNEL_PATH=cubin|ptx|nvrtc (or jet_module_options.path)
 * allows only that path; "auto" or unset follows the order above.
 *
 * NVRTC cache: one file per (source hash, SM, NVRTC version, options) under
 * jet_module_options.cache_dir, else $JET_CACHE_DIR, else
 * $XDG_CACHE_HOME/jetrt, else $HOME/.cache/jetrt. Each entry carries a header
 * with a magic, its key, the payload length and an FNV-1a 64-bit checksum; an
 * entry that is corrupt, truncated or written for another key is rebuilt, never
 * loaded. Entries are written to a temporary file and renamed into place, so
 * concurrent processes never see half a file.
 */
#ifndef JETRT_MODULE_H
#define JETRT_MODULE_H

#include <stddef.h>
#include "context.h"
#include "l2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ images */

/** What an image holds. */
typedef enum jet_image_kind {
  JET_IMAGE_CUBIN = 0, /**< an ELF cubin for one SM */
  JET_IMAGE_PTX = 1    /**< PTX text; data is NUL-terminated and size counts the NUL */
} jet_image_kind;

/** One precompiled image. */
typedef struct jet_kernel_image {
  int sm;              /**< 10*major+minor: 87 for sm_87 (cubin) or compute_87 (PTX) */
  jet_image_kind kind;
  const void *data;    /**< the bytes; must stay valid while modules loaded from it live */
  size_t size;         /**< bytes at data; for PTX including the terminating NUL */
} jet_kernel_image;

/** Version of jet_kernel_image_set; a set made for another layout is refused. */
#define JET_KERNEL_IMAGE_SET_ABI 1

/**
 * All images of one module. jetrt_add_kernels(target SOURCES foo.cu ...)
 * generates one per source file, named jet_images_<basename of the file>, and
 * a header <target>_kernels.h declaring them:
 *
 *     #include "mytarget_kernels.h"   // extern const jet_kernel_image_set jet_images_foo;
 *     jet_module_load(ctx, &jet_images_foo, NULL, &mod);
 *
 * A hand-written table works too; every pointer must outlive the modules.
 */
typedef struct jet_kernel_image_set {
  int abi;                        /**< JET_KERNEL_IMAGE_SET_ABI */
  const char *name;               /**< module name for messages and the cache file, e.g. "pattern" */
  const jet_kernel_image *images; /**< may be NULL when image_count is 0 */
  size_t image_count;
  const char *source;             /**< NUL-terminated CUDA C++ for NVRTC, or NULL for none */
  size_t source_size;             /**< bytes at source, including the NUL; 0 when source is NULL */
} jet_kernel_image_set;

/* ------------------------------------------------------------------ modules */

typedef struct jet_module_s *jet_module;
typedef struct jet_kernel_s *jet_kernel;

/** The way a module was (or may be) loaded. */
typedef enum jet_kernel_path {
  JET_KERNEL_PATH_AUTO = 0,  /**< options only: follow JET_KERNEL_PATH, else cubin, PTX, NVRTC */
  JET_KERNEL_PATH_CUBIN = 1, /**< a precompiled cubin */
  JET_KERNEL_PATH_PTX = 2,   /**< embedded PTX, JIT-compiled by the driver */
  JET_KERNEL_PATH_NVRTC = 3  /**< embedded source compiled by NVRTC (or taken from its cache) */
} jet_kernel_path;

/** Module flags (jet_module_options.flags). */
enum {
  JET_MODULE_NO_JIT = 1u << 0,   /**< refuse PTX and NVRTC: deterministic mode */
  JET_MODULE_NO_CACHE = 1u << 1, /**< NVRTC: neither read nor write the disk cache */
  JET_MODULE_IGNORE_ENV = 1u << 2 /**< ignore JET_JIT, JET_KERNEL_PATH and JET_CACHE_DIR */
};

/** Parameters of jet_module_load. Zero-initialise, then set what you need. */
typedef struct jet_module_options {
  unsigned flags;         /**< JET_MODULE_* */
  jet_kernel_path path;   /**< force one path; JET_KERNEL_PATH_AUTO: no forcing */
  const char *cache_dir;  /**< NVRTC cache directory; NULL: JET_CACHE_DIR, XDG_CACHE_HOME, HOME */
} jet_module_options;

/**
 * jet_module_load - choose an image of @set for the context's device and load it.
 *
 * The module is loaded into the device's primary context (the one the CUDA
 * runtime uses), so its kernels run on the context's streams.
 * @ctx: the context.
 * @set: the images; must outlive the module (the generated tables are static).
 * @opt: NULL for defaults.
 * @out: receives the module; NULL on failure.
 * @return JET_STATUS_OK;
 *         JET_STATUS_INVALID_ARGUMENT for NULL @set or @out, a set with another
 *         abi, an image with NULL data, zero size or an unknown kind, unknown
 *         flags, or JET_MODULE_NO_JIT with a forced PTX or NVRTC path;
 *         JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_NO_KERNEL_IMAGE when no image fits (the detail lists the
 *         device's SM and each image with its reason; JIT forbidden is one);
 *         JET_STATUS_JIT_FAILED when the chosen PTX fails to JIT (the detail
 *         holds the driver's JIT error log);
 *         JET_STATUS_COMPILE_FAILED when NVRTC fails (the detail holds its log);
 *         JET_STATUS_NOT_BUILT_IN when NVRTC is forced but was left out of
 *         this build; or a driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_load(jet_context ctx, const jet_kernel_image_set *set,
                           const jet_module_options *opt, jet_module *out);

/**
 * jet_module_destroy - unload a module. Its kernel handles become invalid.
 * Work already launched from it must have finished (synchronise first).
 * @m: the module, or NULL (a no-op).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE or a driver status (the
 *         module is released from jetrt's side in every case).
 * Thread safety: no other thread may use @m or its kernels during the call.
 */
jet_status jet_module_destroy(jet_module m);

/** How a module was loaded (jet_module_info). */
typedef struct jet_module_load_info {
  char name[64];         /**< the set's name */
  jet_kernel_path path;  /**< CUBIN, PTX or NVRTC */
  int cache_hit;         /**< 1: NVRTC result read from the disk cache, not compiled */
  int image_sm;          /**< SM of the image loaded (for NVRTC: the device's SM) */
  char image[48];        /**< e.g. "sm_90 cubin", "compute_75 ptx", "nvrtc sm_90 (cached)" */
  int device_sm;         /**< the device's SM, 10*major+minor */
  double load_ms;        /**< cuModuleLoadDataEx, including any JIT */
  double jit_ms;         /**< of which the driver's PTX JIT (0 for cubins) */
  double compile_ms;     /**< NVRTC compilation (0 on a cache hit or another path) */
  double total_ms;       /**< the whole jet_module_load */
  char cache_file[512];  /**< NVRTC cache entry used or written; "" if none */
} jet_module_load_info;

/**
 * jet_module_info - report the path, image and timings of a loaded module.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @info.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_info(jet_module m, jet_module_load_info *info);

/* ------------------------------------------------------------------ kernels */

/**
 * jet_module_kernel - look up a kernel (an extern "C" __global__ function).
 *
 * The handle belongs to the module and stays valid until it is destroyed;
 * looking the same name up again returns the same handle.
 * @name: the function's name, e.g. "jet_test_pattern".
 * @out: receives the kernel; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL or empty @name
 *         or NULL @out; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         (native CUDA_ERROR_NOT_FOUND) when the module has no such kernel.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_kernel(jet_module m, const char *name, jet_kernel *out);

/** Launch dimensions. */
typedef struct jet_dim3 {
  unsigned x, y, z;
} jet_dim3;

/**
 * jet_launch - launch @kernel on @stream (cuLaunchKernel).
 * @stream: a stream of the kernel's context (a default stream works too).
 * @grid, @block: dimensions; every component >= 1; the block's thread count
 *        must not exceed the kernel's limit.
 * @shared_bytes: dynamic shared memory per block.
 * @args: pointers to each argument's value, as cuLaunchKernel takes them; NULL
 *        only for a kernel without parameters.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT
 *         when @stream belongs to another context; JET_STATUS_INVALID_ARGUMENT
 *         for a zero dimension, too many threads per block, too much shared
 *         memory, or NULL @args (or a NULL entry) for a kernel with parameters;
 *         or a driver status. Launch errors inside the kernel surface later,
 *         on synchronisation.
 * Thread safety: safe from any thread.
 */
jet_status jet_launch(jet_stream stream, jet_kernel kernel, jet_dim3 grid, jet_dim3 block,
                      size_t shared_bytes, void **args);

/**
 * jet_kernel_suggest_block - a block size reaching the best occupancy
 * (cuOccupancyMaxPotentialBlockSize).
 * @shared_bytes: dynamic shared memory each block will use.
 * @block_size: receives the suggested threads per block.
 * @min_grid: receives the least grid size that fills the device; may be NULL.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE,
 *         JET_STATUS_INVALID_ARGUMENT for NULL @block_size, or a driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_kernel_suggest_block(jet_kernel kernel, size_t shared_bytes, int *block_size,
                                    int *min_grid);

/**
 * jet_kernel_native - the driver's CUfunction, for interoperation.
 * @cu_function: receives the CUfunction as a void pointer; it stays valid
 *        while the module lives.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE or
 *         JET_STATUS_INVALID_ARGUMENT for NULL @cu_function.
 * Thread safety: safe from any thread.
 */
jet_status jet_kernel_native(jet_kernel kernel, void **cu_function);

/* ------------------------------------------------------------------ globals */

/**
 * jet_module_symbol - look up a module's __device__ or __constant__ variable
 * by name (cuModuleGetGlobal).
 *
 * Variables at namespace scope keep their plain names in C++ (no mangling);
 * those inside a namespace do not. The address is a device address of the
 * module's context, valid while the module lives; copy with
 * jet_module_symbol_write/read or pass it to kernels.
 * @name: the variable's name, e.g. "coeffs".
 * @dptr: receives the device address; may be NULL.
 * @bytes: receives the variable's size in bytes; may be NULL.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @m;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL or empty @name, or (native
 *         CUDA_ERROR_NOT_FOUND) when the module has no such variable; or a
 *         driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_symbol(jet_module m, const char *name, void **dptr, size_t *bytes);

/**
 * jet_module_symbol_write - copy @bytes from @src into the variable @name at
 * byte @offset, and wait until the copy is done (on CUDA's legacy stream, so
 * it also waits for earlier work there).
 * @src: host memory, or any memory the device can address (unified addressing).
 * @offset, @bytes: the range inside the variable; bytes 0 copies nothing but
 *        still checks the name and offset.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for an unknown or NULL name, or a NULL @src with non-zero @bytes;
 *         JET_STATUS_OVERFLOW when @offset + @bytes passes the end of the
 *         variable (the detail gives its size) or wraps size_t; or a CUDA
 *         status.
 * Thread safety: safe from any thread; concurrent writes to one variable race.
 */
jet_status jet_module_symbol_write(jet_module m, const char *name, size_t offset, const void *src,
                                   size_t bytes);

/**
 * jet_module_symbol_read - copy @bytes of the variable @name from byte
 * @offset into @dst and wait until the copy is done.
 * @return as jet_module_symbol_write, with @dst in the place of @src.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_symbol_read(jet_module m, const char *name, size_t offset, void *dst,
                                  size_t bytes);

/**
 * jet_module_symbol_write_async - jet_module_symbol_write ordered on @stream:
 * it returns once queued. @src must stay valid and unchanged until the stream
 * reaches the copy (pageable host memory is staged by CUDA before the call
 * returns; pinned memory is read when the copy runs).
 * @return as jet_module_symbol_write, plus JET_STATUS_INVALID_HANDLE for a bad
 *         @stream and JET_STATUS_WRONG_CONTEXT when @stream belongs to another
 *         context than @m.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_symbol_write_async(jet_stream stream, jet_module m, const char *name,
                                         size_t offset, const void *src, size_t bytes);

/**
 * jet_module_symbol_read_async - jet_module_symbol_read ordered on @stream.
 * @dst holds the data once the stream has reached the copy (synchronise on the
 * stream or an event recorded after it).
 * @return as jet_module_symbol_write_async.
 * Thread safety: safe from any thread.
 */
jet_status jet_module_symbol_read_async(jet_stream stream, jet_module m, const char *name,
                                        size_t offset, void *dst, size_t bytes);

/* ------------------------------------------------------------------ kernel attributes */

/** What the driver reports about a kernel (jet_kernel_attributes). */
typedef struct jet_kernel_attrs {
  int max_threads_per_block;   /**< largest block this kernel can launch with */
  int num_regs;                /**< registers per thread */
  size_t static_shared_bytes;  /**< __shared__ variables per block */
  size_t const_bytes;          /**< __constant__ memory the kernel uses */
  size_t local_bytes;          /**< local memory per thread */
  int max_dynamic_shared_bytes;/**< current dynamic shared memory limit per block */
  int preferred_carveout;      /**< preferred shared-memory carve-out in percent, -1: default */
  int ptx_version;             /**< 10*major+minor of the PTX it was compiled from */
  int binary_version;          /**< 10*major+minor of the binary (SM) */
  int device_optin_shared_bytes; /**< the device's opt-in maximum of shared memory per block */
} jet_kernel_attrs;

/**
 * jet_kernel_attributes - read @kernel's attributes (cuFuncGetAttribute).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @out; or a driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_kernel_attributes(jet_kernel kernel, jet_kernel_attrs *out);

/**
 * jet_kernel_set_max_dynamic_shared - opt @kernel in to @bytes of dynamic
 * shared memory per block (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
 * Without it a launch may use at most 48 KiB minus the kernel's static shared
 * memory. The setting belongs to the kernel in its module, for every stream.
 * @bytes: up to the device's opt-in maximum (cudaDevAttrMaxSharedMemoryPerBlockOptin)
 *        minus the kernel's static shared memory.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         when @bytes exceeds that bound (the detail gives it); or a driver status.
 * Thread safety: safe from any thread; do not race with launches that depend on it.
 */
jet_status jet_kernel_set_max_dynamic_shared(jet_kernel kernel, size_t bytes);

/**
 * jet_kernel_set_carveout - the preferred split of the unified L1/shared
 * memory for @kernel (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT): a
 * hint the driver may round or ignore.
 * @percent: 0..100 (percent of the maximum shared memory), or -1 for no preference.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for @percent outside -1..100; or a driver status.
 * Thread safety: as jet_kernel_set_max_dynamic_shared.
 */
jet_status jet_kernel_set_carveout(jet_kernel kernel, int percent);

/**
 * jet_kernel_occupancy - how many blocks of @block_threads threads using
 * @shared_bytes of dynamic shared memory fit on one multiprocessor at once
 * (cuOccupancyMaxActiveBlocksPerMultiprocessor).
 * @blocks_per_sm: receives the count; 0 when such a block cannot run at all.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @blocks_per_sm, @block_threads 0 or above the kernel's
 *         limit; or a driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_kernel_occupancy(jet_kernel kernel, unsigned block_threads, size_t shared_bytes,
                                int *blocks_per_sm);

/**
 * jet_kernel_max_active_clusters - how many clusters of @cluster blocks of
 * @block threads can be co-resident on the device (cuOccupancyMaxActiveClusters).
 * Needs SM 9.0 and cluster launch support.
 * @clusters: receives the count; 0 when such a cluster cannot be scheduled.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED
 *         below SM 9.0 or without cluster launch (the detail says which);
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @clusters, a zero dimension,
 *         too many threads, or more than 8 blocks per cluster (the portable
 *         maximum); or a driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_kernel_max_active_clusters(jet_kernel kernel, jet_dim3 cluster, jet_dim3 block,
                                          size_t shared_bytes, int *clusters);

/* ------------------------------------------------------------------ extended launch */

/** Launch flags (jet_launch_config.flags). */
enum {
  /** Cooperative launch: every block is resident at once, so blocks may wait
   *  for each other (cooperative_groups grid.sync(), or a hand-made grid
   *  barrier). Refused when the device lacks cooperative launch or the grid
   *  has more blocks than can be co-resident (jet_kernel_occupancy x SMs). */
  JET_LAUNCH_COOPERATIVE = 1u << 0,
  /** Programmatic dependent launch (SM 9.0+): the kernel may start before the
   *  previous kernel on the stream has finished, once every block of that one
   *  has run griddepcontrol.launch_dependents
   *  (cudaTriggerProgrammaticLaunchCompletion) or exited; it must wait with
   *  griddepcontrol.wait (cudaGridDependencySynchronize) before reading the
   *  previous kernel's results. */
  JET_LAUNCH_PROGRAMMATIC = 1u << 1,
  /** Use jet_launch_config.priority for this launch instead of the stream's. */
  JET_LAUNCH_PRIORITY = 1u << 2
};

/** An extended launch. Zero-initialise, then set what you need. */
typedef struct jet_launch_config {
  jet_dim3 grid, block;     /**< as for jet_launch; with a cluster, grid counts blocks */
  size_t shared_bytes;      /**< dynamic shared memory per block */
  unsigned flags;           /**< JET_LAUNCH_* */
  /** Thread-block cluster dimensions (SM 9.0+); {0, 0, 0}: no cluster. Each
   *  must divide the grid's; at most 8 blocks per cluster. */
  jet_dim3 cluster;
  int priority;             /**< with JET_LAUNCH_PRIORITY: in jet_stream_priority_range */
  /** An access policy window for this launch only (jetrt/l2.h); NULL: none
   *  (the stream's window, if any, applies). Refused where the policy says L2
   *  persistence is unsupported. */
  const jet_access_policy *access_policy;
} jet_launch_config;

/**
 * jet_launch_ex - launch @kernel with launch attributes (cuLaunchKernelEx).
 *
 * Every combination the device cannot run is refused before the launch, with
 * the reason in the detail: a cluster or programmatic launch below SM 9.0, a
 * cluster on a device without cluster launch, cluster dimensions that do not
 * divide the grid or exceed 8 blocks, a cluster that cannot be scheduled
 * (jet_kernel_max_active_clusters gives 0), a cooperative launch on a device
 * without it or with a grid larger than can be co-resident, a cooperative
 * launch with clusters (its co-residency cannot be checked beforehand), a
 * priority outside the device's range, an invalid access policy window.
 * The SM 9.0 checks follow the device, not the policy: JET_PLATFORM=orin on an
 * H100 still launches clusters, while a real Orin (SM 8.7) refuses them.
 * @stream: a stream of the kernel's context (a default stream works too).
 * @cfg: the launch; must not be NULL.
 * @args: as for jet_launch.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @cfg, unknown flags, the
 *         jet_launch argument errors, cluster dimensions that do not fit the
 *         grid, a cluster that cannot be scheduled, a cooperative grid too
 *         large, cooperative with clusters, a priority out of range or a bad
 *         window; JET_STATUS_UNSUPPORTED for an attribute the device (or
 *         policy) lacks; JET_STATUS_OVERFLOW for a window that wraps; or a
 *         driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_launch_ex(jet_stream stream, jet_kernel kernel, const jet_launch_config *cfg,
                         void **args);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_MODULE_H */
