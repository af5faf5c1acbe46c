/*
 * The Unified Memory appendix per platform: what managed memory may do under a
 * policy on a device (TEGRA.md: no concurrent managed access and no prefetch on
 * Jetson before Thor; no unified memory on a discrete GPU of a Tegra host).
 * pageableMemoryAccess does not enter: the advice calls take cudaMallocManaged
 * buffers only, never pageable memory, where that attribute would matter.
 */
#include "internal.h"

void jet__managed_rules_of(const jet_platform_info *dev, const jet_policy *policy,
                           jet__managed_rules *out) {
  out->allowed = policy->managed_memory_allowed && dev->managed_memory;
  out->concurrent = out->allowed && dev->concurrent_managed_access &&
                    policy->managed_mode == JET_MANAGED_PREFETCH;
  out->prefetch = out->concurrent;
  out->advice = out->concurrent && policy->managed_advice;
}

jet_status jet__managed_refuse(const jet_platform_info *dev, const jet_policy *policy,
                               const char *what, const char *hint, const char *fn) {
  if (!policy->managed_memory_allowed)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "", "", 0,
        "unified memory is unsupported on a discrete GPU attached to a Tegra host (UM appendix); "
        "use device memory with copies, or mapped host memory",
        "the %s%s platform policy does not allow managed memory, so %s is refused",
        policy->name, policy->forced ? " (forced)" : "", what);
  if (!dev->managed_memory)
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "", "", 0, hint,
                             "device %d has no managed memory (cudaDevAttrManagedMemory == 0), "
                             "so %s is refused",
                             dev->device, what);
  if (policy->managed_mode != JET_MANAGED_PREFETCH || !policy->managed_advice)
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "", "", 0,
        hint ? hint
             : "Jetson before Thor has no concurrent managed access: CPU and GPU share one DRAM "
               "and managed memory is handed over by stream attach (jet_managed_attach, "
               "jet_managed_make_available)",
        "the %s%s platform policy refuses %s (Tegra before Thor: no prefetch, no memory advice)",
        policy->name, policy->forced ? " (forced)" : "", what);
  return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "", "", 0,
                           hint ? hint
                                : "without concurrent managed access the CPU and GPU take turns "
                                  "by stream attach (jet_managed_attach, "
                                  "jet_managed_make_available)",
                           "device %d has no concurrent managed access "
                           "(cudaDevAttrConcurrentManagedAccess == 0), so %s is refused",
                           dev->device, what);
}
