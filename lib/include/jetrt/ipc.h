/*
 * jetrt/ipc.h - sharing GPU memory between processes.
 *
 * A buffer, image or shared buffer created exportable (JET_MEM_EXPORTABLE,
 * JET_IMAGE_EXPORTABLE, JET_SHARED_EXPORTABLE) can be exported: the exporter
 * gets a description (jet_ipc_memory_desc, plain bytes) and, for the VMM
 * mechanism, a file descriptor. It sends both to another process (the
 * descriptor over a Unix-domain socket with SCM_RIGHTS), which imports them
 * as an ordinary jet_buffer, jet_image or jet_shared of its own context, on
 * the same GPU, and destroys that with the usual destroy call.
 *
 *   exporter                                    importer
 *   jet_buffer_desc d = {JET_MEMORY_DEVICE,
 *                        JET_MEM_EXPORTABLE, n};
 *   jet_buffer_create(ctx, &d, &buf);
 *   jet_ipc_memory_desc desc; int fd;
 *   jet_ipc_export_buffer(buf, &desc, &fd);
 *   send desc's bytes and fd (SCM_RIGHTS) --->  receive desc and fd
 *   close(fd);                                  jet_ipc_import_buffer(ctx, &desc, fd, &buf);
 *                                               close(fd);  (the import keeps the memory)
 *                                               ... use buf ...
 *                                               jet_buffer_destroy(buf);
 *
 * Mechanisms (jet_ipc_mechanism), chosen from the platform policy and the
 * device when the object is created, never by a build option:
 *  - JET_IPC_MECHANISM_VMM_FD: the memory is made with cuMemCreate as a
 *    shareable allocation and exported as a POSIX file descriptor
 *    (cuMemExportToShareableHandle). Used wherever the device supports it
 *    (jet_platform_info.vmm_supported and .posix_fd_handles_supported): every
 *    desktop GPU on Linux, and the only mechanism on Jetson.
 *  - JET_IPC_MECHANISM_LEGACY: cudaMalloc memory exported as a 64-byte
 *    cudaIpcMemHandle_t carried inside the description; no file descriptor.
 *    Forced with the *_EXPORTABLE_LEGACY flags (for old drivers and tests), or
 *    chosen by JET_*_EXPORTABLE under a desktop policy on a device without
 *    VMM descriptors. Needs jet_policy.memory_ipc_allowed and a device with
 *    CUDA IPC support (jet_platform_info.ipc_event_supported).
 *
 * Tegra facts: on Jetson (L4T) before Thor, CUDA memory IPC
 * (cudaIpcGetMemHandle) is unsupported; only event IPC works (jetrt/stream.h).
 * The Tegra policies therefore refuse the legacy mechanism with
 * JET_STATUS_UNSUPPORTED and a hint, and share memory through VMM file
 * descriptors, which L4T supports. The Thor policy allows legacy handles too
 * (CUDA 13), but JET_*_EXPORTABLE still chooses descriptors there.
 *
 * Sizes: exportable memory is allocated in whole granules, at least
 * JET_IPC_ALLOC_ALIGN bytes (2 MiB), so only whole allocations are ever
 * shared and no neighbouring data can leak (Programming Guide 3.2.9). The
 * description says both the allocation size and the data size.
 *
 * Lifetime:
 *  - VMM: the memory lives while any process has it mapped (an exported or
 *    imported object not yet destroyed) or any exported descriptor for it is
 *    still open anywhere. The exporter may destroy its object, close its
 *    descriptor, and the importer may import, close the received descriptor
 *    and destroy, in any order: the last one frees the memory. A descriptor
 *    that is never closed keeps the memory allocated, even after every object
 *    is destroyed: close yours (each import needs one open descriptor only
 *    during the jet_ipc_import_* call).
 *  - LEGACY: the exporter's object must outlive every import of it (CUDA says
 *    freeing it earlier is undefined behaviour): importers destroy first, and
 *    the processes must agree on that order themselves.
 * Nothing orders the data: make the writer's work complete (an interprocess
 * event, jetrt/stream.h, or a host wait plus a message) before the other
 * process reads.
 *
 * An imported object cannot be exported again; export from the process that
 * created it.
 */
#ifndef JETRT_IPC_H
#define JETRT_IPC_H

#include <stdint.h>
#include "context.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The description layout this header writes and reads. */
#define JET_IPC_DESC_VERSION 1u

/** Exportable allocations are whole multiples of this many bytes (2 MiB). */
#define JET_IPC_ALLOC_ALIGN ((uint64_t)2 << 20)

/** How memory is shared between processes. */
typedef enum jet_ipc_mechanism {
  JET_IPC_MECHANISM_NONE = 0,   /**< not exportable */
  JET_IPC_MECHANISM_VMM_FD = 1, /**< cuMemCreate memory exported as a POSIX file descriptor */
  JET_IPC_MECHANISM_LEGACY = 2  /**< cudaMalloc memory exported as a cudaIpcMemHandle_t */
} jet_ipc_mechanism;

/** What kind of object a description describes. */
typedef enum jet_ipc_object {
  JET_IPC_OBJECT_BUFFER = 1, /**< jet_buffer (JET_MEMORY_DEVICE) */
  JET_IPC_OBJECT_IMAGE = 2,  /**< jet_image */
  JET_IPC_OBJECT_SHARED = 3  /**< jet_shared (the device part; each process has its own CPU view) */
} jet_ipc_object;

/**
 * What the importing process needs, next to the file descriptor: send these
 * sizeof(jet_ipc_memory_desc) bytes as they are. Fixed layout (uint32_t and
 * uint64_t fields only, no padding), in the byte order of the machine, which
 * both processes share. Fields that do not apply to the object are 0, and
 * jet_ipc_import_* insists on it.
 */
typedef struct jet_ipc_memory_desc {
  uint32_t version;          /**< JET_IPC_DESC_VERSION */
  uint32_t mechanism;        /**< jet_ipc_mechanism: VMM_FD or LEGACY */
  uint32_t object;           /**< jet_ipc_object */
  uint32_t flags;            /**< the object's creation flags: JET_MEM_*, JET_IMAGE_* or JET_SHARED_* */
  uint32_t device_uuid[4];   /**< the exporting device's UUID (jet_platform_info.uuid), as bytes */
  uint64_t alloc_size;       /**< bytes of the allocation: a multiple of JET_IPC_ALLOC_ALIGN */
  uint64_t data_size;        /**< bytes of data from the start: <= alloc_size. Buffer: pitch *
                                  height * depth; image: end of the last plane; shared: its size */
  /* buffer (JET_IPC_OBJECT_BUFFER) */
  uint64_t width_bytes;      /**< bytes per row */
  uint64_t height;           /**< rows per slice, >= 1 */
  uint64_t depth;            /**< slices, >= 1 */
  uint64_t pitch;            /**< bytes from one row to the next, >= width_bytes */
  /* image (JET_IPC_OBJECT_IMAGE) */
  uint32_t format;           /**< jet_format */
  uint32_t width;            /**< pixels */
  uint32_t image_height;     /**< rows */
  uint32_t plane_count;      /**< the format's plane count */
  uint64_t plane_offset[3];  /**< per plane: bytes from the start of the allocation */
  uint64_t plane_pitch[3];   /**< per plane: bytes from one row to the next */
  /* mechanism LEGACY */
  uint32_t legacy_handle[16]; /**< the cudaIpcMemHandle_t's 64 bytes; 0 for VMM_FD */
} jet_ipc_memory_desc;

/**
 * jet_ipc_export_buffer - describe an exportable buffer for another process.
 *
 * @buf: a buffer created with JET_MEM_EXPORTABLE or JET_MEM_EXPORTABLE_LEGACY
 *       in this process (not an imported one).
 * @desc: receives the description (every field written; the unused ones 0).
 * @fd: receives a new file descriptor for the memory (VMM_FD; FD_CLOEXEC is
 *      set), owned by the caller, who closes it once it is sent; -1 for
 *      LEGACY, whose handle is inside @desc. Each call makes a new descriptor.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @desc or @fd,
 *         a buffer that is not exportable (the message names the flag to use)
 *         or an imported one; JET_STATUS_INVALID_HANDLE for a destroyed or
 *         foreign @buf; JET_STATUS_IO_ERROR when the descriptor cannot be set
 *         up; or a CUDA/driver status. On failure *@fd is -1.
 * Thread safety: safe from any thread.
 */
jet_status jet_ipc_export_buffer(jet_buffer buf, jet_ipc_memory_desc *desc, int *fd);

/**
 * jet_ipc_export_image - describe an exportable image (jet_image_create_ex
 * with JET_IMAGE_EXPORTABLE or JET_IMAGE_EXPORTABLE_LEGACY) for another process.
 * Arguments, @fd ownership and statuses as jet_ipc_export_buffer.
 * Thread safety: safe from any thread.
 */
jet_status jet_ipc_export_image(jet_image image, jet_ipc_memory_desc *desc, int *fd);

/**
 * jet_ipc_export_shared - describe an exportable shared buffer
 * (JET_SHARED_EXPORTABLE) for another process: its device part is shared; each
 * process keeps its own CPU view (staging copy). Allowed with an access open.
 * Arguments, @fd ownership and statuses as jet_ipc_export_buffer.
 * Thread safety: safe from any thread.
 */
jet_status jet_ipc_export_shared(jet_shared sb, jet_ipc_memory_desc *desc, int *fd);

/**
 * jet_ipc_import_buffer - map a buffer another process exported.
 *
 * Every field of @desc is checked before any CUDA call: version, enums,
 * flags, sizes against alloc_size without overflow, the device UUID against
 * @ctx's device. Then the memory is mapped into @ctx: VMM_FD imports @fd and
 * maps alloc_size bytes of it (a size larger than the real allocation fails
 * cleanly); LEGACY opens the handle (cudaIpcOpenMemHandle) and checks that the
 * allocation is as large as declared. The result is a JET_MEMORY_DEVICE
 * buffer with the exporter's extent and pitch; jet_buffer_destroy unmaps it.
 * @ctx: the importing context; its device must be the exporter's.
 * @desc: the description jet_ipc_export_buffer wrote, received as bytes.
 * @fd: the received descriptor (VMM_FD), or -1 (LEGACY). Never closed here:
 *      close it after the call, whatever it returned.
 * @out: receives the buffer; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @desc or
 *         @out, a malformed or forged description (unknown version, object,
 *         mechanism or flags; inconsistent sizes; an allocation larger than
 *         the one behind @fd), a UUID of another GPU, or an @fd that is not an
 *         open descriptor (or not -1 for LEGACY); JET_STATUS_INVALID_HANDLE for
 *         a bad @ctx; JET_STATUS_UNSUPPORTED with a hint where @ctx's policy or
 *         device cannot use the mechanism (LEGACY under a Tegra policy);
 *         JET_STATUS_OUT_OF_MEMORY; or a CUDA/driver status.
 * Thread safety: safe from any thread.
 */
jet_status jet_ipc_import_buffer(jet_context ctx, const jet_ipc_memory_desc *desc, int fd,
                                 jet_buffer *out);

/**
 * jet_ipc_import_image - map an image another process exported: same format,
 * size, plane offsets and pitches (checked with the rules of jetrt/image.h:
 * plane sizes, pitches >= row bytes and multiples of the element size, offsets
 * aligned to it, planes inside alloc_size and not overlapping).
 * jet_image_get_memory reports it as JET_IMAGE_MEMORY_DEVICE, owned;
 * jet_image_destroy unmaps it. Arguments and statuses as jet_ipc_import_buffer.
 * Thread safety: safe from any thread.
 */
jet_status jet_ipc_import_image(jet_context ctx, const jet_ipc_memory_desc *desc, int fd,
                                jet_image *out);

/**
 * jet_ipc_import_shared - map a shared buffer another process exported, as a
 * jet_shared of @ctx with the DEVICE_STAGED backing: its GPU view is the
 * shared memory, its CPU view a staging copy of this process. Every
 * jet_shared_begin_cpu with JET_ACCESS_READ copies the device memory in (the
 * other process may have written it), in both processes. Arguments and
 * statuses as jet_ipc_import_buffer, plus JET_STATUS_OUT_OF_MEMORY for the
 * staging copy. Thread safety: safe from any thread.
 */
jet_status jet_ipc_import_shared(jet_context ctx, const jet_ipc_memory_desc *desc, int fd,
                                 jet_shared *out);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_IPC_H */
