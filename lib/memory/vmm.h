/*
 * Virtual memory management (cuMemCreate & co.): the one place in jetrt that
 * calls the VMM driver entry points. Two layers:
 *
 *  - steps, one driver call each with its error translated (handle, reserve,
 *    map, access, export, import), for callers that compose their own layouts
 *    (pools mapping several handles into one reservation);
 *  - whole operations on one mapping (jet__vmm_alloc, jet__vmm_import_fd,
 *    jet__vmm_export_fd, jet__vmm_free), which is what buffers, images and
 *    shared buffers use.
 *
 * Every function needs the device's CUDA context current on the calling
 * thread: jetrt uses the runtime's primary context, so call jet__vmm_enter
 * (cudaSetDevice + cudaFree(0)) first. Device numbers are runtime ordinals,
 * which the driver uses too.
 *
 * Lifetime: the physical memory of an allocation lives while any of these
 * holds it: a handle not yet released (cuMemRelease), a mapping in any process
 * not yet unmapped, an exported file descriptor not yet closed. The whole
 * operations release their handle right after mapping, so a mapping owns its
 * memory alone, and unmapping, releasing, closing descriptors and the
 * exporter's destruction are safe in any order.
 */
#ifndef JET_VMM_H
#define JET_VMM_H

#include "internal.h"

/* Allocations shared across processes are whole multiples of this, at least,
 * so that no neighbouring data can leak through them (Programming Guide 3.2.9). */
#define JET__VMM_MIN_SHARE_ALIGN ((size_t)2 << 20)

/* One mapping: [ptr, ptr + size) reserved, mapped and read-write for device. */
typedef struct jet__vmm_map {
  CUdeviceptr ptr;
  size_t size;
  int device;
} jet__vmm_map;

/* Make @device's primary context current so that driver calls see it. */
jet_status jet__vmm_enter(int device, const char *fn);

/* Properties of device memory on @device; @handle_types is a mask of
 * CUmemAllocationHandleType (0: not exportable). */
CUmemAllocationProp jet__vmm_prop(int device, unsigned handle_types);

/* The minimum and recommended granularities for @prop. */
jet_status jet__vmm_granularity(const CUmemAllocationProp *prop, size_t *minimum,
                                size_t *recommended, const char *fn);

/* The size to ask cuMemCreate for @bytes of shareable memory on @device: @bytes
 * rounded up to the recommended granularity, at least the minimum granularity
 * and JET__VMM_MIN_SHARE_ALIGN. OVERFLOW when it does not fit size_t. */
jet_status jet__vmm_share_size(int device, size_t bytes, size_t *out, const char *fn);

/* ---- steps */

/* cuMemCreate of @size bytes (a multiple of the minimum granularity). */
jet_status jet__vmm_create(const CUmemAllocationProp *prop, size_t size,
                           CUmemGenericAllocationHandle *out, const char *fn);
/* cuMemRelease; failures are recorded and returned. */
jet_status jet__vmm_release(CUmemGenericAllocationHandle h, const char *fn);
/* cuMemAddressReserve of @size bytes aligned to @align (0: default). */
jet_status jet__vmm_reserve(size_t size, size_t align, CUdeviceptr *out, const char *fn);
/* cuMemAddressFree of a whole reservation. */
jet_status jet__vmm_address_free(CUdeviceptr ptr, size_t size, const char *fn);
/* cuMemMap of @size bytes of @h (from offset 0) at @ptr. */
jet_status jet__vmm_map_handle(CUdeviceptr ptr, size_t size, CUmemGenericAllocationHandle h,
                               const char *fn);
/* cuMemUnmap of a whole mapping. */
jet_status jet__vmm_unmap(CUdeviceptr ptr, size_t size, const char *fn);
/* cuMemSetAccess: read-write for @device over a fully mapped range. */
jet_status jet__vmm_set_access(CUdeviceptr ptr, size_t size, int device, const char *fn);
/* cuMemSetAccess with @flags (CU_MEM_ACCESS_FLAGS_PROT_*) for @device. */
jet_status jet__vmm_set_access_flags(CUdeviceptr ptr, size_t size, int device,
                                     CUmemAccess_flags flags, const char *fn);
/* cuMemRetainAllocationHandle + cuMemExportToShareableHandle(POSIX fd) +
 * cuMemRelease: a new descriptor for the allocation mapped at @ptr, with
 * FD_CLOEXEC set; the caller owns it. */
jet_status jet__vmm_export_fd_at(CUdeviceptr ptr, int *fd, const char *fn);
/* cuMemImportFromShareableHandle(POSIX fd): a handle the caller releases. The
 * descriptor stays open and the caller's. */
jet_status jet__vmm_import_handle(int fd, CUmemGenericAllocationHandle *out, const char *fn);

/* ---- whole operations on one mapping */

/* Allocate shareable (POSIX fd) device memory for @bytes on @device: the size
 * from jet__vmm_share_size, reserved, mapped, read-write for @device, handle
 * released. On failure nothing is left allocated and @out is zeroed. */
jet_status jet__vmm_alloc(int device, size_t bytes, jet__vmm_map *out, const char *fn);

/* A new descriptor (FD_CLOEXEC, the caller's) for the memory of @m. */
jet_status jet__vmm_export_fd(const jet__vmm_map *m, int *fd, const char *fn);

/* Import @fd (from jet__vmm_export_fd in some process) and map @size bytes of
 * it, the size the exporter declared, read-write for @device. A @size that is
 * not a multiple of the minimum granularity is INVALID_ARGUMENT before any
 * driver call; one larger than the allocation fails in cuMemMap and is
 * INVALID_ARGUMENT with a hint. On failure nothing is left (handle released,
 * reservation freed). @fd is never closed. */
jet_status jet__vmm_import_fd(int device, int fd, size_t size, jet__vmm_map *out,
                              const char *fn);

/* Unmap @m and free its reservation (the memory goes when no other mapping,
 * handle or descriptor holds it). Does not wait for the device: work using the
 * range must be complete. After a failed unmap the reservation is left in
 * place. Zeroes @m either way. */
jet_status jet__vmm_free(jet__vmm_map *m, const char *fn);

#endif /* JET_VMM_H */
