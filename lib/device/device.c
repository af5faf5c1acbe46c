/*
 * Device enumeration and the platform report.
 */
#include <ctype.h>
#include <stdio.h>
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
      {&info->fp64_ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio},
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
  JET__TRY(attr(&info->pci_domain, cudaDevAttrPciDomainId, device, fn));
  JET__TRY(attr(&info->pci_bus, cudaDevAttrPciBusId, device, fn));
  JET__TRY(attr(&info->pci_device, cudaDevAttrPciDeviceId, device, fn));
  snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "%04x:%02x:%02x.0",
           (unsigned)info->pci_domain & 0xffffu, (unsigned)info->pci_bus & 0xffu,
           (unsigned)info->pci_device & 0xffu);
  /* An iGPU is a Tegra host by itself; a dGPU is one when it shares the
   * machine with an iGPU (IGX Orin) or the device tree says so. */
  int any_integrated = info->integrated;
  for (int d = 0; d < n && !any_integrated; d++) {
    int integ = 0;
    if (d != device && cudaDeviceGetAttribute(&integ, cudaDevAttrIntegrated, d) == cudaSuccess)
      any_integrated = integ;
  }
  info->tegra_host = jet__tegra_host_detect(any_integrated, "/proc/device-tree/compatible");
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

/* One hex field of a PCI bus id, ended by @stop (or the end of the string for '\0'). */
static int hex_field(const char **p, char stop, unsigned long max, unsigned long *out) {
  const char *s = *p;
  unsigned long v = 0;
  int digits = 0;
  while (isxdigit((unsigned char)*s)) {
    int c = tolower((unsigned char)*s);
    v = v * 16 + (unsigned long)(isdigit(c) ? c - '0' : c - 'a' + 10);
    if (v > max || ++digits > 8) return 0;
    s++;
  }
  if (!digits || *s != stop) return 0;
  *p = stop ? s + 1 : s;
  *out = v;
  return 1;
}

jet_status jet__pci_bus_id_parse(const char *text, int *domain, int *bus, int *device,
                                 const char *fn) {
  if (!text) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "pci_bus_id is NULL");
  /* domain:bus:device.function, or bus:device.function with domain 0 */
  int colons = 0;
  for (const char *c = text; *c; c++) colons += *c == ':';
  const char *p = text;
  unsigned long dom = 0, b, d, f;
  int ok = colons == 1 || colons == 2;
  if (ok && colons == 2) ok = hex_field(&p, ':', 0xffffffffUL, &dom);
  ok = ok && hex_field(&p, ':', 0xff, &b) && hex_field(&p, '.', 0x1f, &d) &&
       hex_field(&p, '\0', 0x7, &f);
  if (!ok)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "pci_bus_id \"%.40s\" is not [domain:]bus:device.function in hex "
                      "(e.g. 0000:01:00.0)",
                      text);
  *domain = (int)(dom & 0x7fffffffUL);
  *bus = (int)b;
  *device = (int)d;
  return JET_STATUS_OK;
}

jet_status jet__device_criteria_check(const jet_device_criteria *c, const char *fn) {
  if (!c) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "criteria is NULL");
  switch (c->pick) {
    case JET_DEVICE_PICK_FIRST_INTEGRATED:
    case JET_DEVICE_PICK_FIRST_DISCRETE:
    case JET_DEVICE_PICK_UUID: return JET_STATUS_OK;
    case JET_DEVICE_PICK_PCI_BUS_ID: {
      int dom, bus, dev;
      return jet__pci_bus_id_parse(c->pci_bus_id, &dom, &bus, &dev, fn);
    }
  }
  return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown device pick %d", (int)c->pick);
}

int jet__device_fits(const jet_platform_info *info, const jet_device_criteria *c) {
  switch (c->pick) {
    case JET_DEVICE_PICK_FIRST_INTEGRATED: return info->integrated != 0;
    case JET_DEVICE_PICK_FIRST_DISCRETE: return info->integrated == 0;
    case JET_DEVICE_PICK_UUID: return memcmp(info->uuid, c->uuid, sizeof info->uuid) == 0;
    case JET_DEVICE_PICK_PCI_BUS_ID: {
      int dom, bus, dev;
      if (jet__pci_bus_id_parse(c->pci_bus_id, &dom, &bus, &dev, "jet__device_fits") !=
          JET_STATUS_OK)
        return 0;
      return info->pci_domain == dom && info->pci_bus == bus && info->pci_device == dev;
    }
  }
  return 0;
}

jet_status jet_device_choose(const jet_device_criteria *criteria, int *device) {
  JET__ARG(device, "device is NULL");
  *device = -1;
  JET__TRY(jet__device_criteria_check(criteria, __func__));
  int n = 0;
  JET__TRY(jet_device_count(&n));
  if (n == 0)
    return jet__error(JET_STATUS_NO_DEVICE, __func__,
                      "no CUDA device is visible (check the driver and CUDA_VISIBLE_DEVICES)");
  char seen[384];
  size_t used = 0;
  seen[0] = '\0';
  for (int d = 0; d < n; d++) {
    jet_platform_info info;
    JET__TRY(query(d, &info, __func__));
    if (jet__device_fits(&info, criteria)) {
      *device = d;
      return JET_STATUS_OK;
    }
    if (used < sizeof seen) {
      int k = snprintf(seen + used, sizeof seen - used, "%s%d: %s %s %s", d ? "; " : "", d,
                       info.name, info.integrated ? "integrated" : "discrete", info.pci_bus_id);
      if (k > 0) used += (size_t)k;
    }
  }
  static const char *const what[] = {"an integrated GPU", "a discrete GPU", "that UUID",
                                     "that PCI bus id"};
  return jet__error(JET_STATUS_NO_DEVICE, __func__, "none of %d device(s) is %s (%s)", n,
                    what[criteria->pick], seen);
}
