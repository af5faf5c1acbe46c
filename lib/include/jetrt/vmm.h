/*
 * jetrt/vmm.h - virtual memory management: address ranges, physical
 * allocations, mappings, and a growable buffer that keeps its address.
 *
 * The CUDA driver's VMM calls (cuMemAddressReserve, cuMemCreate, cuMemMap,
 * cuMemSetAccess, cuMemUnmap, cuMemRelease, cuMemAddressFree), through the
 * same code the exportable buffers of jetrt/ipc.h use:
 *
 *   size_t gmin, grec;
 *   jet_vmm_granularity(ctx, &gmin, &grec);
 *   jet_vmm_range r;  jet_vmm_reserve(ctx, 64 * grec, &r);    address space only
 *   jet_vmm_mem m;    jet_vmm_mem_create(ctx, 2 * grec, &m);  physical memory
 *   jet_vmm_map(r, 0, m);                                     m at offset 0 of r
 *   jet_vmm_set_access(r, 0, 2 * grec, JET_MEM_ACCESS_READ_WRITE);
 *   jet_vmm_mem_release(m);       the mapping keeps the memory from here on
 *   ... kernels use the range's base address ...
 *   jet_vmm_unmap(r, 0);          the memory goes with its last mapping
 *   jet_vmm_free_range(r);
 *
 * Sizes and offsets are whole multiples of the device's minimum granularity
 * (jet_vmm_granularity); anything else is JET_STATUS_INVALID_ARGUMENT naming
 * the granularity, before any driver call. A mapping is always a whole
 * physical allocation; ranges of several mappings are set accessible in one
 * call. Nothing here waits for the device: work that uses a range must be
 * complete before it is unmapped.
 *
 * A jet_growable is a device buffer whose address never changes: it reserves
 * max_bytes of address space up front and maps more physical memory as it
 * grows. Growing past the reservation is refused (JET_STATUS_OVERFLOW), never
 * done by moving the data. jet_growable_buffer gives a jet_buffer view for
 * the copy and fill functions.
 *
 * Devices need VMM support (jet_platform_info.vmm_supported, every CUDA 13
 * GPU including Jetson): JET_STATUS_UNSUPPORTED otherwise.
 *
 * Thread safety: every function is safe from any thread, except that one
 * range or growable buffer must not be changed (map, unmap, grow, destroy) by
 * two threads at once.
 */
#ifndef JETRT_VMM_H
#define JETRT_VMM_H

#include <stddef.h>
#include "context.h"
#include "pool.h" /* jet_mem_access */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_vmm_range_s *jet_vmm_range; /**< reserved device address space */
typedef struct jet_vmm_mem_s *jet_vmm_mem;     /**< a physical allocation (cuMemCreate) */
typedef struct jet_growable_s *jet_growable;   /**< a device buffer that grows in place */

/**
 * jet_vmm_granularity - the minimum and recommended granularity of device
 * memory on @ctx's device (cuMemGetAllocationGranularity). Either out pointer
 * may be NULL, not both.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for two NULL pointers;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED without VMM; or a
 *         driver status.
 */
jet_status jet_vmm_granularity(jet_context ctx, size_t *minimum, size_t *recommended);

/**
 * jet_vmm_reserve - reserve @bytes of device address space
 * (cuMemAddressReserve), aligned to the recommended granularity. No memory
 * backs it until jet_vmm_map.
 * @bytes: > 0, a multiple of the minimum granularity.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, zero or
 *         unaligned @bytes; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED
 *         without VMM; or a driver status.
 */
jet_status jet_vmm_reserve(jet_context ctx, size_t bytes, jet_vmm_range *out);

/** jet_vmm_range_info - the range's base address and size, and how many
 *  bytes of it are mapped now. Out pointers may be NULL.
 *  @return JET_STATUS_OK or JET_STATUS_INVALID_HANDLE. */
jet_status jet_vmm_range_info(jet_vmm_range range, void **base, size_t *bytes,
                              size_t *mapped_bytes);

/**
 * jet_vmm_free_range - give the address space back (cuMemAddressFree).
 * Refused while any of it is mapped: unmap first.
 * @range: the range, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         while mappings remain (the detail says how many); or a driver status
 *         (the handle is released all the same).
 */
jet_status jet_vmm_free_range(jet_vmm_range range);

/**
 * jet_vmm_mem_create - allocate @bytes of physical device memory
 * (cuMemCreate, pinned, on @ctx's device, not exportable).
 * @bytes: > 0, a multiple of the minimum granularity.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, zero or
 *         unaligned @bytes; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED
 *         without VMM; JET_STATUS_OUT_OF_MEMORY; or a driver status.
 */
jet_status jet_vmm_mem_create(jet_context ctx, size_t bytes, jet_vmm_mem *out);

/** jet_vmm_mem_size - the allocation's size into *@bytes.
 *  @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT or JET_STATUS_INVALID_HANDLE. */
jet_status jet_vmm_mem_size(jet_vmm_mem mem, size_t *bytes);

/**
 * jet_vmm_mem_release - release the handle (cuMemRelease). Mappings of the
 * memory keep it until they are unmapped; unmapped memory is freed now.
 * @mem: the allocation, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; or a driver status (the
 *         handle is released all the same).
 */
jet_status jet_vmm_mem_release(jet_vmm_mem mem);

/**
 * jet_vmm_map - map the whole of @mem at @offset of @range (cuMemMap). The new
 * mapping is not accessible until jet_vmm_set_access.
 * @offset: a multiple of the minimum granularity; the mapping must fit the
 *          range and not overlap another mapping.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for an unaligned offset,
 *         a mapping past the end of the range or overlapping another;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_WRONG_CONTEXT when @range and
 *         @mem belong to different contexts; or a driver status.
 */
jet_status jet_vmm_map(jet_vmm_range range, size_t offset, jet_vmm_mem mem);

/**
 * jet_vmm_set_access - set how the range's device may access @bytes at
 * @offset (cuMemSetAccess); every byte of it must be mapped.
 * @access: JET_MEM_ACCESS_READ or JET_MEM_ACCESS_READ_WRITE.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for another @access, an
 *         unaligned or zero extent, or one not wholly mapped;
 *         JET_STATUS_INVALID_HANDLE; or a driver status.
 */
jet_status jet_vmm_set_access(jet_vmm_range range, size_t offset, size_t bytes,
                              jet_mem_access access);

/**
 * jet_vmm_unmap - unmap the mapping that starts at @offset (cuMemUnmap).
 * Does not wait for the device.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT when no mapping starts
 *         at @offset; JET_STATUS_INVALID_HANDLE; or a driver status (the
 *         mapping is then kept).
 */
jet_status jet_vmm_unmap(jet_vmm_range range, size_t offset);

/* ------------------------------------------------------------------ growable buffer */

/** What a growable buffer is now. */
typedef struct jet_growable_info {
  void *device_ptr;   /**< its address: the same for its whole life */
  size_t size;        /**< bytes mapped and read-write now (>= what was asked) */
  size_t capacity;    /**< bytes reserved: the most it can grow to */
  size_t granularity; /**< it grows in multiples of this many bytes */
} jet_growable_info;

/**
 * jet_growable_create - reserve @max_bytes of address space (rounded up to
 * the recommended granularity) and map at least @initial_bytes of it.
 * @initial_bytes: 0 maps nothing yet; at most @max_bytes.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, zero
 *         @max_bytes or @initial_bytes > @max_bytes; JET_STATUS_OVERFLOW when
 *         the rounding overflows; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_UNSUPPORTED without VMM; JET_STATUS_OUT_OF_MEMORY; or a
 *         driver status. Nothing is left allocated on failure.
 */
jet_status jet_growable_create(jet_context ctx, size_t max_bytes, size_t initial_bytes,
                               jet_growable *out);

/**
 * jet_growable_grow - make at least @bytes usable, mapping more physical
 * memory after what is mapped (one allocation per call). The address and the
 * data already there stay. Smaller sizes are a no-op (it never shrinks).
 * @return JET_STATUS_OK; JET_STATUS_OVERFLOW when @bytes exceeds the
 *         capacity (nothing changes: the buffer never moves);
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_OUT_OF_MEMORY; or a driver
 *         status (nothing changes).
 */
jet_status jet_growable_grow(jet_growable g, size_t bytes);

/** jet_growable_get_info - address, size, capacity and granularity.
 *  @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @info or
 *  JET_STATUS_INVALID_HANDLE. */
jet_status jet_growable_get_info(jet_growable g, jet_growable_info *info);

/**
 * jet_growable_buffer - a JET_MEMORY_DEVICE jet_buffer view of the mapped
 * part, for copies and fills. The view belongs to @g: its size follows
 * jet_growable_grow, jet_buffer_destroy refuses it, and it goes with @g.
 * Each call returns the same view.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out;
 *         JET_STATUS_INVALID_STATE while nothing is mapped;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_OUT_OF_MEMORY.
 */
jet_status jet_growable_buffer(jet_growable g, jet_buffer *out);

/**
 * jet_growable_destroy - wait for the device, unmap everything, free the
 * reservation and the view.
 * @g: the buffer, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; or the first driver
 *         status (the handle is released all the same).
 * Thread safety: no other thread may use @g or its view during or after the call.
 */
jet_status jet_growable_destroy(jet_growable g);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_VMM_H */
