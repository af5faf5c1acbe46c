/*
 * jetrt/external.h - memory and semaphores other APIs export, used by CUDA
 * (Programming Guide 3.2.14, "External Resource Interoperability").
 *
 * Another API (Vulkan, a CUDA process through VMM file descriptors, NvSci on
 * Jetson, a Linux driver through dma-buf) allocates memory or a semaphore and
 * exports it as an OS handle; jetrt imports it into a context:
 *
 *  - jet_external_memory: an imported memory object. Map parts of it as a
 *    jet_buffer (jet_external_memory_map_buffer) or a jet_image
 *    (jet_external_memory_map_image), with no copy. Mipmapped CUDA arrays over
 *    it come later with jet_array.
 *  - jet_external_semaphore: an imported binary or timeline semaphore that
 *    jetrt streams signal and wait for (jet_external_semaphore_signal / _wait),
 *    ordering CUDA work against the other API's work without a host round trip.
 *
 * Handle types and where they work:
 *
 *  type                            exporters                              where
 *  ------------------------------  -------------------------------------  ---------------------------
 *  JET_EXTERNAL_MEMORY_OPAQUE_FD   Vulkan (VK_KHR_external_memory_fd,     desktop and Jetson
 *                                  OPAQUE_FD), OpenGL (EXT_memory_object
 *                                  _fd), CUDA VMM (cuMemExportToShare-
 *                                  ableHandle, POSIX fd) where the
 *                                  driver accepts it
 *  JET_EXTERNAL_MEMORY_DMABUF_FD   Linux drivers (V4L2, DRM, NvBufSurface) Jetson Thor and later only
 *                                                                         (policy external_dmabuf)
 *  JET_EXTERNAL_MEMORY_NVSCIBUF    NvSciBuf objects                        Jetson / DRIVE, and only in
 *                                                                         a build with NvSci headers
 *  JET_EXTERNAL_SEMAPHORE_OPAQUE_FD   binary semaphores (Vulkan OPAQUE_FD) desktop and Jetson
 *  JET_EXTERNAL_SEMAPHORE_TIMELINE_FD timeline semaphores (Vulkan 1.2      desktop and Jetson
 *                                     VK_SEMAPHORE_TYPE_TIMELINE, OPAQUE_FD)
 *
 * Descriptor ownership: when an import succeeds the descriptor is consumed
 * (jetrt closes it; CUDA keeps a duplicate of its own until the imported
 * object is destroyed); the caller must not close it, read it or pass it on
 * afterwards. When an import fails, the descriptor is still the caller's and
 * still open, even where the driver would have closed what it was handed
 * (CUDA is given a duplicate; one corner aside: see
 * jet_external_memory_import's OUT_OF_MEMORY): close it, or retry with it.
 * Export a fresh descriptor for each import.
 *
 * Lifetime of mappings: the jet_buffer and jet_image a mapping hands out
 * belong to the external memory. jet_buffer_destroy / jet_image_destroy refuse
 * them (INVALID_STATE); give them back with jet_external_memory_unmap_buffer /
 * _unmap_image. jet_external_memory_destroy is refused (INVALID_STATE) while
 * any mapping is live, so no mapped object outlives the memory it points into.
 * Mappings are not counted as live objects of the context; the external memory
 * is, so jet_context_destroy is refused while it lives.
 *
 * Coherence: the other API's writes are visible to CUDA only after the CUDA
 * work is ordered after them (wait on an external semaphore the exporter
 * signals, or a host-side wait on the exporter), and CUDA's writes reach the
 * exporter only after it waits for a semaphore CUDA signalled.
 */
#ifndef JETRT_EXTERNAL_H
#define JETRT_EXTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "context.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_external_memory_s *jet_external_memory;
typedef struct jet_external_semaphore_s *jet_external_semaphore;

/** What kind of OS handle an external memory object is imported from. */
typedef enum jet_external_memory_type {
  JET_EXTERNAL_MEMORY_OPAQUE_FD = 1, /**< opaque POSIX file descriptor (cudaExternalMemoryHandleTypeOpaqueFd) */
  JET_EXTERNAL_MEMORY_DMABUF_FD = 2, /**< Linux dma-buf descriptor (CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD):
                                          Jetson Thor and later only */
  JET_EXTERNAL_MEMORY_NVSCIBUF = 3   /**< an NvSciBufObj (cudaExternalMemoryHandleTypeNvSciBuf) */
} jet_external_memory_type;

/** jet_external_memory_desc flags. */
enum {
  /** The memory is a dedicated allocation (Vulkan: allocated with
   *  VkMemoryDedicatedAllocateInfo); cudaExternalMemoryDedicated. Not for dma-buf. */
  JET_EXTERNAL_MEMORY_DEDICATED = 1u << 0
};

/** Parameters of jet_external_memory_import. Zero-initialise, then set what you need. */
typedef struct jet_external_memory_desc {
  jet_external_memory_type type;
  int fd;             /**< OPAQUE_FD, DMABUF_FD: the descriptor; CUDA's after a successful import */
  void *nvsci_object; /**< NVSCIBUF: the NvSciBufObj */
  size_t size;        /**< bytes of the whole memory object, > 0 (Vulkan: VkMemoryAllocateInfo.allocationSize) */
  unsigned flags;     /**< JET_EXTERNAL_MEMORY_* flags */
} jet_external_memory_desc;

/**
 * jet_external_memory_import - import memory another API exported.
 *
 * @ctx: the context whose device the memory is on. For Vulkan memory the
 *       VkPhysicalDevice's deviceUUID must equal jet_platform_info.uuid.
 * @desc: handle type, handle, size and flags.
 * @out: receives the external memory; NULL on failure.
 * @return JET_STATUS_OK (then @desc->fd is consumed); JET_STATUS_INVALID_ARGUMENT
 *         for NULL @desc / @out, an unknown type or flag, a negative or closed
 *         descriptor, a NULL nvsci_object, size 0, DEDICATED with dma-buf, a
 *         size beyond a dma-buf's own (lseek to its end), or a
 *         handle the driver does not accept as memory of this device (with the
 *         driver's code in the detail); JET_STATUS_INVALID_HANDLE for a bad
 *         @ctx; JET_STATUS_UNSUPPORTED for dma-buf where the policy has no
 *         dma-buf import (before Thor, and desktop GPUs) and for NvSciBuf
 *         outside Tegra; JET_STATUS_NOT_BUILT_IN for NvSciBuf on Tegra in a
 *         build without NvSci headers; JET_STATUS_OUT_OF_MEMORY;
 *         JET_STATUS_IO_ERROR when no duplicate descriptor can be made
 *         (EMFILE); or a CUDA status. On any failure @desc->fd is still the
 *         caller's, except an OUT_OF_MEMORY whose hint says the descriptor was
 *         imported and closed again (no room to register the handle).
 * Thread safety: safe from any thread.
 */
jet_status jet_external_memory_import(jet_context ctx, const jet_external_memory_desc *desc,
                                      jet_external_memory *out);

/**
 * jet_external_memory_destroy - release an imported memory object
 * (cudaDestroyExternalMemory), which also closes the descriptor CUDA owns.
 * The exporter's memory stays where the exporter keeps it.
 * @mem: the external memory, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         while buffers, images or arrays mapped from it are live (nothing
 *         changes: unmap them first); or the CUDA status of the destroy (the
 *         handle is released anyway).
 * Thread safety: no other thread may use @mem during or after the call.
 */
jet_status jet_external_memory_destroy(jet_external_memory mem);

/**
 * jet_external_memory_get_info - the imported type and size, and the number
 * of live mappings.
 * @type, @size, @mappings: receive them; any may be NULL, not all.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE or
 *         JET_STATUS_INVALID_ARGUMENT (all NULL).
 * Thread safety: safe from any thread.
 */
jet_status jet_external_memory_get_info(jet_external_memory mem, jet_external_memory_type *type,
                                        size_t *size, int *mappings);

/**
 * jet_external_memory_map_buffer - map bytes [@offset, @offset + @size) of the
 * memory as a jet_buffer (kind JET_MEMORY_DEVICE, 1D, no copy) through
 * cudaExternalMemoryGetMappedBuffer.
 *
 * Each call makes a new mapping, even of a range mapped already (CUDA may give
 * another address for the same bytes: writes through one address are then
 * only guaranteed visible through the other after the kernel ends).
 * @offset, @size: the range; @size > 0, the end at most the imported size.
 *        Both must meet the exporter's alignment (Vulkan: the buffer's
 *        VkMemoryRequirements.alignment); the driver refuses others.
 * @out: receives the buffer; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT (NULL @out, @size 0, the
 *         range past the end, or a range the driver refuses); OVERFLOW (the end
 *         overflows); INVALID_HANDLE; OUT_OF_MEMORY; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_external_memory_map_buffer(jet_external_memory mem, size_t offset, size_t size,
                                          jet_buffer *out);

/**
 * jet_external_memory_map_image - describe part of the memory as a jet_image
 * (pitched planes, no copy).
 *
 * One CUDA mapping covers bytes [0, end of the last plane rounded up to
 * 64 KiB, or the imported size where that is less), so plane offsets need
 * only the image's own alignment (element size), not the exporter's.
 * Use it for linear (not tiled) layouts only: Vulkan images with
 * VK_IMAGE_TILING_OPTIMAL are not pitched memory.
 * @format, @width, @height: the image, as for jet_image_wrap.
 * @pitches: per-plane pitch, or NULL for tightly packed rows.
 * @offsets: per-plane byte offset into the memory, or NULL for planes one
 *           after another from offset 0 (each at the previous offset + pitch * rows).
 * @out: receives the image; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT (NULL @out, jet_image_wrap's
 *         rules, a plane past the imported size, or a mapping the driver
 *         refuses); INVALID_HANDLE; OUT_OF_MEMORY; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_external_memory_map_image(jet_external_memory mem, jet_format format, int width,
                                         int height, const size_t *pitches, const size_t *offsets,
                                         jet_image *out);

/**
 * jet_external_memory_unmap_buffer - give back a buffer
 * jet_external_memory_map_buffer made (frees the mapping with cudaFree, which
 * waits for work using it). @buf is invalid afterwards.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE (@mem or @buf);
 *         JET_STATUS_INVALID_ARGUMENT when @buf is not a mapping of @mem; or the
 *         CUDA status of the free (the mapping is given up anyway).
 * Thread safety: safe from any thread; @buf must not be in use.
 */
jet_status jet_external_memory_unmap_buffer(jet_external_memory mem, jet_buffer buf);

/**
 * jet_external_memory_unmap_image - as jet_external_memory_unmap_buffer, for
 * an image jet_external_memory_map_image made.
 */
jet_status jet_external_memory_unmap_image(jet_external_memory mem, jet_image image);

/* ------------------------------------------------------------------ semaphores */

/** What kind of OS handle an external semaphore is imported from. */
typedef enum jet_external_semaphore_type {
  JET_EXTERNAL_SEMAPHORE_OPAQUE_FD = 1,   /**< binary semaphore, opaque fd (cudaExternalSemaphoreHandleTypeOpaqueFd) */
  JET_EXTERNAL_SEMAPHORE_TIMELINE_FD = 2, /**< timeline semaphore, opaque fd
                                               (cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd) */
  JET_EXTERNAL_SEMAPHORE_NVSCISYNC = 3    /**< an NvSciSyncObj (cudaExternalSemaphoreHandleTypeNvSciSync) */
} jet_external_semaphore_type;

/** Parameters of jet_external_semaphore_import. Zero-initialise, then set what you need. */
typedef struct jet_external_semaphore_desc {
  jet_external_semaphore_type type;
  int fd;             /**< OPAQUE_FD, TIMELINE_FD: the descriptor; CUDA's after a successful import */
  void *nvsci_object; /**< NVSCISYNC: the NvSciSyncObj */
  unsigned flags;     /**< none yet: 0 */
} jet_external_semaphore_desc;

/**
 * jet_external_semaphore_import - import a semaphore another API exported.
 * @ctx, @out: as for jet_external_memory_import.
 * @desc: handle type and handle.
 * @return JET_STATUS_OK (then @desc->fd is consumed); INVALID_ARGUMENT (NULL,
 *         unknown type, a flag, a negative or closed descriptor, a NULL
 *         nvsci_object, or a handle the driver refuses); INVALID_HANDLE;
 *         UNSUPPORTED (NvSciSync outside Tegra); NOT_BUILT_IN (NvSciSync on
 *         Tegra without NvSci headers in the build); OUT_OF_MEMORY; IO_ERROR
 *         (no duplicate descriptor); or a CUDA status. On any failure
 *         @desc->fd is still the caller's, with the same exception as
 *         jet_external_memory_import.
 * Thread safety: safe from any thread.
 */
jet_status jet_external_semaphore_import(jet_context ctx, const jet_external_semaphore_desc *desc,
                                         jet_external_semaphore *out);

/**
 * jet_external_semaphore_destroy - release an imported semaphore
 * (cudaDestroyExternalSemaphore). Signals and waits queued on streams must
 * have completed: synchronise those streams first (a wait the exporter never
 * satisfies would otherwise never end).
 * @sem: the semaphore, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; or the CUDA status (the
 *         handle is released anyway).
 * Thread safety: no other thread may use @sem during or after the call.
 */
jet_status jet_external_semaphore_destroy(jet_external_semaphore sem);

/**
 * jet_external_semaphore_signal - queue a signal of @sem on @stream
 * (cudaSignalExternalSemaphoresAsync): it happens when the work queued on
 * @stream before it is complete.
 * @value: timeline semaphores: the value the semaphore is set to (must exceed
 *         its current value, as Vulkan requires); binary and NvSciSync: 0.
 * @return JET_STATUS_OK; INVALID_HANDLE (@sem or @stream); WRONG_CONTEXT;
 *         INVALID_ARGUMENT (a non-zero @value for a binary semaphore); or a
 *         CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_external_semaphore_signal(jet_external_semaphore sem, uint64_t value,
                                         jet_stream stream);

/**
 * jet_external_semaphore_wait - make work queued on @stream after this call
 * wait until @sem is signalled (cudaWaitExternalSemaphoresAsync); the host
 * does not wait.
 * @value: timeline semaphores: the value to reach (the wait ends when the
 *         semaphore's value is >= @value); binary and NvSciSync: 0. A binary
 *         semaphore's signal is consumed by the wait (one signal, one wait).
 * @return as jet_external_semaphore_signal.
 * Thread safety: safe from any thread.
 */
jet_status jet_external_semaphore_wait(jet_external_semaphore sem, uint64_t value,
                                       jet_stream stream);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_EXTERNAL_H */
