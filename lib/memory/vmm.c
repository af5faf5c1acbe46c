/*
 * Virtual memory management through the driver table (see vmm.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vmm.h"

static const char import_hint[] =
    "the descriptor must be one jet_ipc_export_* returned in some process "
    "(cuMemExportToShareableHandle, POSIX file descriptor), received through a Unix socket "
    "(SCM_RIGHTS); a descriptor number sent as plain data means nothing in another process";

static jet_status driver(const jet__driver_api **cu, const char *fn) { return jet__driver(cu, fn); }

jet_status jet__vmm_enter(int device, const char *fn) {
  cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaSetDevice", NULL, NULL);
  /* cudaSetDevice may leave the primary context uninitialised; cudaFree(0)
   * creates it and makes it current for the driver calls that follow. */
  e = cudaFree(NULL);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaFree", NULL,
                           "making device %d's primary context current: %s", device,
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

CUmemAllocationProp jet__vmm_prop(int device, unsigned handle_types) {
  CUmemAllocationProp p;
  memset(&p, 0, sizeof p);
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.requestedHandleTypes = (CUmemAllocationHandleType)handle_types;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

jet_status jet__vmm_granularity(const CUmemAllocationProp *prop, size_t *minimum,
                                size_t *recommended, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  size_t mn = 0, rec = 0;
  CUresult r = cu->cuMemGetAllocationGranularity(&mn, prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  if (r == CUDA_SUCCESS)
    r = cu->cuMemGetAllocationGranularity(&rec, prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemGetAllocationGranularity",
                         "the device may lack virtual memory management "
                         "(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED) or POSIX "
                         "descriptor export (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_"
                         "SUPPORTED)",
                         NULL);
  if (mn == 0 || rec == 0 || rec % mn)
    return jet__error(JET_STATUS_DRIVER_ERROR, fn,
                      "the driver reports granularities minimum %zu, recommended %zu: the "
                      "recommended one is not a multiple of the minimum",
                      mn, rec);
  if (minimum) *minimum = mn;
  if (recommended) *recommended = rec;
  return JET_STATUS_OK;
}

/* The granule of shared allocations on @device: the recommended granularity,
 * at least JET__VMM_MIN_SHARE_ALIGN, checked to be a multiple of the minimum. */
static jet_status share_granule(int device, size_t *granule, size_t *minimum, const char *fn) {
  CUmemAllocationProp prop = jet__vmm_prop(device, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  size_t mn = 0, rec = 0;
  JET__TRY(jet__vmm_granularity(&prop, &mn, &rec, fn));
  size_t g = rec;
  /* All three are powers of two on every GPU so far; a multiple of the
   * largest is then a multiple of each. Check rather than assume. */
  if (g < JET__VMM_MIN_SHARE_ALIGN) g = JET__VMM_MIN_SHARE_ALIGN;
  if (g % mn || g % JET__VMM_MIN_SHARE_ALIGN)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d: granularity %zu (minimum %zu) is not a multiple of %zu", device,
                      g, mn, JET__VMM_MIN_SHARE_ALIGN);
  *granule = g;
  if (minimum) *minimum = mn;
  return JET_STATUS_OK;
}

jet_status jet__vmm_share_size(int device, size_t bytes, size_t *out, const char *fn) {
  size_t g = 0;
  JET__TRY(share_granule(device, &g, NULL, fn));
  size_t t = 0;
  if (bytes == 0 || !jet__add_ok(bytes, g - 1, &t))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%zu bytes rounded up to %zu overflows size_t",
                      bytes, g);
  *out = t / g * g;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ steps */

jet_status jet__vmm_create(const CUmemAllocationProp *prop, size_t size,
                           CUmemGenericAllocationHandle *out, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUmemGenericAllocationHandle h = 0;
  CUresult r = cu->cuMemCreate(&h, size, prop, 0);
  if (r != CUDA_SUCCESS) {
    const char *hint = NULL;
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
      hint = "free device memory or ask for less (on Tegra the GPU shares DRAM with the CPU)";
    else if (r == CUDA_ERROR_NOT_SUPPORTED || r == CUDA_ERROR_INVALID_VALUE)
      hint = "shareable VMM memory needs CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED "
             "and, for descriptors, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_"
             "SUPPORTED";
    return jet__cu_error(r, fn, "cuMemCreate", hint, "%zu bytes on device %d (handle types 0x%x)",
                         size, prop->location.id, (unsigned)prop->requestedHandleTypes);
  }
  *out = h;
  return JET_STATUS_OK;
}

jet_status jet__vmm_release(CUmemGenericAllocationHandle h, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUresult r = cu->cuMemRelease(h);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuMemRelease", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet__vmm_reserve(size_t size, size_t align, CUdeviceptr *out, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUdeviceptr p = 0;
  CUresult r = cu->cuMemAddressReserve(&p, size, align, 0, 0);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemAddressReserve", NULL,
                         "reserving %zu bytes of GPU address space (alignment %zu)", size, align);
  *out = p;
  return JET_STATUS_OK;
}

jet_status jet__vmm_address_free(CUdeviceptr ptr, size_t size, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUresult r = cu->cuMemAddressFree(ptr, size);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemAddressFree", NULL, "%zu bytes at 0x%llx", size,
                         (unsigned long long)ptr);
  return JET_STATUS_OK;
}

jet_status jet__vmm_map_handle(CUdeviceptr ptr, size_t size, CUmemGenericAllocationHandle h,
                               const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUresult r = cu->cuMemMap(ptr, size, 0, h, 0);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemMap", NULL, "mapping %zu bytes at 0x%llx", size,
                         (unsigned long long)ptr);
  return JET_STATUS_OK;
}

jet_status jet__vmm_unmap(CUdeviceptr ptr, size_t size, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUresult r = cu->cuMemUnmap(ptr, size);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemUnmap", NULL, "%zu bytes at 0x%llx", size,
                         (unsigned long long)ptr);
  return JET_STATUS_OK;
}

jet_status jet__vmm_set_access_flags(CUdeviceptr ptr, size_t size, int device,
                                     CUmemAccess_flags flags, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUmemAccessDesc a;
  memset(&a, 0, sizeof a);
  a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  a.location.id = device;
  a.flags = flags;
  CUresult r = cu->cuMemSetAccess(ptr, size, &a, 1);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemSetAccess", NULL,
                         "%s access for device %d to %zu bytes at 0x%llx",
                         flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ? "read-write"
                         : flags == CU_MEM_ACCESS_FLAGS_PROT_READ    ? "read"
                                                                     : "no",
                         device, size, (unsigned long long)ptr);
  return JET_STATUS_OK;
}

jet_status jet__vmm_set_access(CUdeviceptr ptr, size_t size, int device, const char *fn) {
  return jet__vmm_set_access_flags(ptr, size, device, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, fn);
}

jet_status jet__vmm_export_fd_at(CUdeviceptr ptr, int *fd, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  *fd = -1;
  CUmemGenericAllocationHandle h = 0;
  CUresult r = cu->cuMemRetainAllocationHandle(&h, (void *)(uintptr_t)ptr);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemRetainAllocationHandle", NULL,
                         "no VMM allocation is mapped at 0x%llx", (unsigned long long)ptr);
  int out = -1;
  r = cu->cuMemExportToShareableHandle(&out, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  /* The retained reference goes whatever happened; the mapping keeps the memory. */
  CUresult rr = cu->cuMemRelease(h);
  if (r != CUDA_SUCCESS) {
    return jet__cu_error(r, fn, "cuMemExportToShareableHandle",
                         r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_NOT_SUPPORTED
                             ? "only memory created with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR "
                               "in its requested handle types can be exported as a descriptor"
                             : NULL,
                         NULL);
  }
  if (out < 0)
    return jet__error(JET_STATUS_DRIVER_ERROR, fn,
                      "cuMemExportToShareableHandle succeeded but gave descriptor %d", out);
  if (rr != CUDA_SUCCESS) {
    (void)close(out);
    return jet__cu_error(rr, fn, "cuMemRelease", NULL,
                         "releasing the handle retained for the export: %d", (int)rr);
  }
  /* A descriptor made by a library must not leak into programs the caller
   * execs; the caller can still pass it on with SCM_RIGHTS or dup2. */
  int flags = fcntl(out, F_GETFD);
  if (flags < 0 || fcntl(out, F_SETFD, flags | FD_CLOEXEC) < 0) {
    int err = errno;
    (void)close(out);
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "fcntl", strerror(err), err, NULL,
                             "setting FD_CLOEXEC on the exported descriptor failed");
  }
  *fd = out;
  return JET_STATUS_OK;
}

jet_status jet__vmm_import_handle(int fd, CUmemGenericAllocationHandle *out, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUmemGenericAllocationHandle h = 0;
  CUresult r = cu->cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)(unsigned)fd,
                                                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuMemImportFromShareableHandle", import_hint,
                         "importing descriptor %d: %s", fd,
                         r == CUDA_ERROR_INVALID_VALUE ? "not a CUDA memory descriptor"
                                                       : "the driver refused it");
  *out = h;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ whole mappings */

/* Reserve, map @h, set access; on failure undo what was done (the handle stays
 * the caller's). */
static jet_status map_whole(int device, size_t size, size_t align, CUmemGenericAllocationHandle h,
                            CUdeviceptr *out, const char *fn, const char *what) {
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  CUdeviceptr p = 0;
  JET__TRY(jet__vmm_reserve(size, align, &p, fn));
  jet_status st = jet__vmm_map_handle(p, size, h, fn);
  if (st != JET_STATUS_OK) {
    if (what && (st == JET_STATUS_INVALID_ARGUMENT || st == JET_STATUS_UNSUPPORTED)) {
      /* Driver 580 says CUDA_ERROR_NOT_SUPPORTED, older ones INVALID_VALUE: either
       * way the description does not fit the allocation. */
      const jet_error_info *e = jet_last_error();
      char call[64], name[64], msg[256];
      snprintf(call, sizeof call, "%s", e->native_call);
      snprintf(name, sizeof name, "%s", e->native_name);
      snprintf(msg, sizeof msg, "%s", e->message);
      st = jet__error_native(JET_STATUS_INVALID_ARGUMENT, fn, call, name, e->native_code, what,
                             "%s", msg);
    }
    (void)cu->cuMemAddressFree(p, size);
    return st;
  }
  st = jet__vmm_set_access(p, size, device, fn);
  if (st != JET_STATUS_OK) {
    (void)cu->cuMemUnmap(p, size);
    (void)cu->cuMemAddressFree(p, size);
    return st;
  }
  *out = p;
  return JET_STATUS_OK;
}

jet_status jet__vmm_alloc(int device, size_t bytes, jet__vmm_map *out, const char *fn) {
  memset(out, 0, sizeof *out);
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  size_t size = 0, g = 0;
  JET__TRY(share_granule(device, &g, NULL, fn));
  JET__TRY(jet__vmm_share_size(device, bytes, &size, fn));
  CUmemAllocationProp prop = jet__vmm_prop(device, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemGenericAllocationHandle h = 0;
  jet_status st = jet__vmm_create(&prop, size, &h, fn);
  if (st != JET_STATUS_OK) {
    if (st == JET_STATUS_OUT_OF_MEMORY)
      jet__error_set_hint("asked %zu bytes, rounded up to %zu (whole granules are shared)", bytes,
                          size);
    return st;
  }
  CUdeviceptr p = 0;
  st = map_whole(device, size, g, h, &p, fn, NULL);
  /* The mapping holds the memory from here on; releasing now means unmapping
   * alone frees it, whichever process unmaps last. */
  CUresult rr = cu->cuMemRelease(h);
  if (st != JET_STATUS_OK) return st;
  if (rr != CUDA_SUCCESS) {
    (void)cu->cuMemUnmap(p, size);
    (void)cu->cuMemAddressFree(p, size);
    return jet__cu_error(rr, fn, "cuMemRelease", NULL, NULL);
  }
  out->ptr = p;
  out->size = size;
  out->device = device;
  return JET_STATUS_OK;
}

jet_status jet__vmm_export_fd(const jet__vmm_map *m, int *fd, const char *fn) {
  return jet__vmm_export_fd_at(m->ptr, fd, fn);
}

jet_status jet__vmm_import_fd(int device, int fd, size_t size, jet__vmm_map *out,
                              const char *fn) {
  memset(out, 0, sizeof *out);
  const jet__driver_api *cu;
  JET__TRY(driver(&cu, fn));
  size_t g = 0, mn = 0;
  JET__TRY(share_granule(device, &g, &mn, fn));
  if (size == 0 || size % mn)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "declared size %zu is not a whole number of granules (%zu bytes) on device "
                      "%d",
                      size, mn, device);
  CUmemGenericAllocationHandle h = 0;
  JET__TRY(jet__vmm_import_handle(fd, &h, fn));
  CUdeviceptr p = 0;
  jet_status st =
      map_whole(device, size, g, h, &p, fn,
                "cuMemMap refuses a size larger than the allocation behind the descriptor: the "
                "declared size may not belong to this descriptor (a forged or mismatched "
                "description)");
  CUresult rr = cu->cuMemRelease(h);
  if (st != JET_STATUS_OK) return st;
  if (rr != CUDA_SUCCESS) {
    (void)cu->cuMemUnmap(p, size);
    (void)cu->cuMemAddressFree(p, size);
    return jet__cu_error(rr, fn, "cuMemRelease", NULL, NULL);
  }
  out->ptr = p;
  out->size = size;
  out->device = device;
  return JET_STATUS_OK;
}

jet_status jet__vmm_free(jet__vmm_map *m, const char *fn) {
  if (!m->ptr) return JET_STATUS_OK;
  CUdeviceptr p = m->ptr;
  size_t size = m->size;
  memset(m, 0, sizeof *m);
  JET__TRY(jet__vmm_unmap(p, size, fn));
  /* Only an unmapped range can be given back; after a failed unmap the
   * reservation is left rather than freed under a live mapping. */
  return jet__vmm_address_free(p, size, fn);
}
