/*
 * Device enumeration and the platform report.
 */
#include <string.h>

#include "internal.h"

static const char *no_device_hint(cudaError_t e) {
  if (e == cudaErrorInsufficientDriver)
    return "the NVIDIA driver is missing or older than the CUDA runtime linked into jetrt";
  if (e == cudaErrorNoDevice) return "no CUDA-capable GPU is visible (check CUDA_VISIBLE_DEVICES)";
  return NULL;
}

jet_status jet_device_count(int *count) {
  JET__ARG(count, "count is NULL");
  *count = 0;
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    /* Record why, but report "0 devices" as success: that is the answer. */
    jet__cuda_error(e, __func__, "cudaGetDeviceCount", no_device_hint(e), NULL);
    return JET_STATUS_OK;
  }
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaGetDeviceCount", NULL, NULL);
  *count = n;
  return JET_STATUS_OK;
}

static jet_status attr(int *v, enum cudaDeviceAttr a, int dev, const char *fn) {
  cudaError_t e = cudaDeviceGetAttribute(v, a, dev);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaDeviceGetAttribute", NULL, NULL);
  return JET_STATUS_OK;
}

static jet_status query(int device, jet_platform_info *info, const char *fn) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaGetDeviceCount", no_device_hint(e), NULL);
  if (device < 0 || device >= n)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "device index %d is outside 0..%d", device,
                      n - 1);
  memset(info, 0, sizeof *info);
  info->device = device;
  struct {
    int *dst;
    enum cudaDeviceAttr a;
  } const attrs[] = {
      {&info->cc_major, cudaDevAttrComputeCapabilityMajor},
      {&info->cc_minor, cudaDevAttrComputeCapabilityMinor},
      {&info->sm_count, cudaDevAttrMultiProcessorCount},
      {&info->integrated, cudaDevAttrIntegrated},
      {&info->can_map_host_memory, cudaDevAttrCanMapHostMemory},
      {&info->host_register_supported, cudaDevAttrHostRegisterSupported},
      {&info->managed_memory, cudaDevAttrManagedMemory},
      {&info->concurrent_managed_access, cudaDevAttrConcurrentManagedAccess},
      {&info->pageable_memory_access, cudaDevAttrPageableMemoryAccess},
      {&info->memory_pools_supported, cudaDevAttrMemoryPoolsSupported},
      {&info->ipc_event_supported, cudaDevAttrIpcEventSupport},
      {&info->async_engines, cudaDevAttrAsyncEngineCount},
      {&info->unified_addressing, cudaDevAttrUnifiedAddressing},
      {&info->stream_priorities_supported, cudaDevAttrStreamPrioritiesSupported},
  };
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    JET__TRY(attr(attrs[i].dst, attrs[i].a, device, fn));
  int l2 = 0, pl2 = 0;
  JET__TRY(attr(&l2, cudaDevAttrL2CacheSize, device, fn));
  JET__TRY(attr(&pl2, cudaDevAttrMaxPersistingL2CacheSize, device, fn));
  info->l2_size = (size_t)l2;
  info->persisting_l2_max = (size_t)pl2;
  /* Tegra before Xavier (SM 7.2) is not I/O coherent; a discrete GPU snoops over PCIe. */
  info->io_coherent = !info->integrated || info->cc_major * 10 + info->cc_minor >= 72;

  /* The runtime has no attribute for VMM or POSIX-fd export: ask the driver. */
  const jet__driver_api *cu;
  JET__TRY(jet__driver(&cu, fn));
  CUdevice cud = device; /* runtime and driver ordinals agree */
  CUresult r = cu->cuDeviceGetAttribute(&info->vmm_supported,
                                        CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, cud);
  if (r == CUDA_SUCCESS)
    r = cu->cuDeviceGetAttribute(&info->posix_fd_handles_supported,
                                 CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, cud);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuDeviceGetAttribute", NULL, NULL);

  /* The driver answers without creating a context, so the device's flags can
   * still be chosen by jet_context_create afterwards. */
  r = cu->cuDeviceGetName(info->name, (int)sizeof info->name, cud);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuDeviceGetName", NULL, NULL);
  r = cu->cuDeviceTotalMem(&info->total_memory, cud);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuDeviceTotalMem", NULL, NULL);
  CUuuid uuid;
  r = cu->cuDeviceGetUuid(&uuid, cud);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuDeviceGetUuid", NULL, NULL);
  _Static_assert(sizeof uuid.bytes == sizeof info->uuid, "CUuuid is 16 bytes");
  memcpy(info->uuid, uuid.bytes, sizeof info->uuid);
  e = cudaDriverGetVersion(&info->driver_version);
  if (e == cudaSuccess) e = cudaRuntimeGetVersion(&info->runtime_version);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaDriverGetVersion", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet_device_query(int device, jet_platform_info *info) {
  JET__ARG(info, "info is NULL");
  return query(device, info, __func__);
}

jet_status jet__device_query(int device, jet_platform_info *info, const char *fn) {
  return query(device, info, fn);
}
