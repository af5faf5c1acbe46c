/*
 * Which mechanism shares device memory between processes, per policy and
 * device (TEGRA.md: only event IPC works on L4T before Thor; memory goes
 * through VMM POSIX file descriptors there).
 */
#include "internal.h"

static const char tegra_hint[] =
    "CUDA memory IPC (cudaIpcGetMemHandle) is unsupported on Jetson (L4T) before Thor; jetrt "
    "shares memory there through VMM POSIX file descriptors: use JET_MEM_EXPORTABLE, "
    "JET_IMAGE_EXPORTABLE or JET_SHARED_EXPORTABLE (without _LEGACY)";

static const char vmm_hint[] =
    "sharing through file descriptors needs a device with virtual memory management and POSIX "
    "descriptor export (CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED and "
    "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED; Linux, CUDA 10.2 or later)";

const char *jet__ipc_mechanism_name(jet_ipc_mechanism mech) {
  switch (mech) {
    case JET_IPC_MECHANISM_NONE: return "none";
    case JET_IPC_MECHANISM_VMM_FD: return "VMM file descriptor";
    case JET_IPC_MECHANISM_LEGACY: return "legacy CUDA IPC handle";
  }
  return "unknown";
}

static int has_vmm_fd(const jet_platform_info *dev) {
  return dev->vmm_supported && dev->posix_fd_handles_supported;
}

static jet_status legacy_ok(const jet_platform_info *dev, const jet_policy *policy,
                            const char *fn) {
  if (!policy->memory_ipc_allowed)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "", "", 0,
        policy->kind == JET_PLATFORM_TEGRA
            ? tegra_hint
            : "use VMM file descriptors (JET_MEM_EXPORTABLE without _LEGACY) instead",
        "the %s%s platform policy does not allow CUDA memory IPC (cudaIpcGetMemHandle)",
        policy->name, policy->forced ? " (forced)" : "");
  if (!dev->ipc_event_supported)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "", "", 0,
        "CUDA IPC needs Linux and a device with unified addressing",
        "device %d (%s) reports no CUDA IPC support (cudaDevAttrIpcEventSupport is 0)",
        dev->device, dev->name);
  return JET_STATUS_OK;
}

static jet_status no_vmm(const jet_platform_info *dev, const jet_policy *policy, int choosing,
                         const char *fn) {
  return jet__error_native(
      JET_STATUS_UNSUPPORTED, fn, "", "", 0,
      policy->kind == JET_PLATFORM_TEGRA ? tegra_hint : vmm_hint,
      "device %d (%s) cannot export memory as a file descriptor (VMM %s, POSIX descriptor "
      "handles %s)%s",
      dev->device, dev->name, dev->vmm_supported ? "supported" : "unsupported",
      dev->posix_fd_handles_supported ? "supported" : "unsupported",
      !choosing                            ? ""
      : policy->kind == JET_PLATFORM_TEGRA ? "; a Tegra policy has no other mechanism"
                                           : "; legacy CUDA IPC is not available either");
}

jet_status jet__ipc_mechanism(const jet_platform_info *dev, const jet_policy *policy,
                              jet__ipc_request req, jet_ipc_mechanism *out, const char *fn) {
  *out = JET_IPC_MECHANISM_NONE;
  switch (req) {
    case JET__IPC_REQUEST_AUTO:
      if (has_vmm_fd(dev)) {
        *out = JET_IPC_MECHANISM_VMM_FD;
        return JET_STATUS_OK;
      }
      if (policy->kind == JET_PLATFORM_DESKTOP && policy->memory_ipc_allowed &&
          dev->ipc_event_supported) {
        *out = JET_IPC_MECHANISM_LEGACY;
        return JET_STATUS_OK;
      }
      return no_vmm(dev, policy, 1, fn);
    case JET__IPC_REQUEST_LEGACY:
      JET__TRY(legacy_ok(dev, policy, fn));
      *out = JET_IPC_MECHANISM_LEGACY;
      return JET_STATUS_OK;
  }
  return jet__error(JET_STATUS_INTERNAL, fn, "unknown IPC request %d", (int)req);
}

jet_status jet__ipc_mechanism_usable(const jet_platform_info *dev, const jet_policy *policy,
                                     jet_ipc_mechanism mech, const char *fn) {
  switch (mech) {
    case JET_IPC_MECHANISM_VMM_FD:
      return has_vmm_fd(dev) ? JET_STATUS_OK : no_vmm(dev, policy, 0, fn);
    case JET_IPC_MECHANISM_LEGACY:
      return legacy_ok(dev, policy, fn);
    case JET_IPC_MECHANISM_NONE:
      break;
  }
  return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "mechanism %d is not one memory is shared by",
                    (int)mech);
}

/* Pools (jetrt/pool.h) follow the policy's word on CUDA memory IPC: pool
 * export is CUDA's own IPC of device memory, which L4T does not support
 * before Thor (TEGRA.md), and the device must offer POSIX descriptors for
 * pools. VMM descriptors stay the way to share memory on Jetson. */
jet_status jet__ipc_pool_allowed(const jet_platform_info *dev, const jet_policy *policy,
                                 int pool_handle_types, const char *fn) {
  if (!policy->memory_ipc_allowed)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "", "", 0,
        policy->kind == JET_PLATFORM_TEGRA
            ? "CUDA memory IPC, pools included, is unsupported on Jetson (L4T) before Thor; "
              "share memory with JET_MEM_EXPORTABLE buffers (VMM file descriptors) instead"
            : "share memory with JET_MEM_EXPORTABLE buffers (VMM file descriptors) instead",
        "the %s%s platform policy does not allow CUDA memory IPC, so memory pools are not "
        "shared between processes",
        policy->name, policy->forced ? " (forced)" : "");
  if (!dev->memory_pools_supported)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d (%s) has no memory pools (cudaDevAttrMemoryPoolsSupported is 0)",
                      dev->device, dev->name);
  if (!(pool_handle_types & (int)cudaMemHandleTypePosixFileDescriptor))
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "", "", 0,
        "pool IPC needs Linux, CUDA 11.3 or later and a driver that offers POSIX descriptors "
        "for pools",
        "device %d (%s) offers no POSIX descriptor for pools "
        "(cudaDevAttrMemoryPoolSupportedHandleTypes is 0x%x)",
        dev->device, dev->name, (unsigned)pool_handle_types);
  return JET_STATUS_OK;
}
