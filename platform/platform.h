/*
 * Platform layer: the policy table and the few operations that differ between
 * a discrete GPU and Tegra. lib/ asks this layer; it never tests for Tegra itself.
 */
#ifndef JET_PLATFORM_H
#define JET_PLATFORM_H

#include <stddef.h>

#include "jetrt/context.h"
#include "jetrt/ipc.h"

struct jet__platform;

/* Operations that differ per platform. Every slot is filled for every platform. */
typedef struct jet__platform_ops {
  /* Free and total memory the GPU can allocate. */
  jet_status (*mem_info)(const struct jet__platform *p, const jet_platform_info *dev,
                         size_t *free_bytes, size_t *total_bytes, const char *fn);
} jet__platform_ops;

typedef struct jet__platform {
  jet_policy policy;
  const jet__platform_ops *ops;
} jet__platform;

/*
 * Choose the policy for @dev. @request is a platform name ("desktop", "xavier",
 * "orin", "thor", "igx-dgpu") that forces a policy, or NULL/"" (or "auto") to
 * detect from the device's attributes (a discrete GPU with dev->tegra_host set
 * gets "igx-dgpu"). Pure: reads no environment, touches no GPU.
 * Returns INVALID_ARGUMENT for an unknown name.
 */
jet_status jet__platform_select(const jet_platform_info *dev, const char *request,
                                jet__platform *out, const char *fn);

/* The request to use: @desc_request if set, else $JET_PLATFORM, else NULL. */
const char *jet__platform_request(const char *desc_request);

/* Parse a /proc/meminfo-format file into the Tegra estimate of free and total
 * memory (MemAvailable, MemTotal). Returns IO_ERROR where it cannot. */
jet_status jet__meminfo_parse(const char *path, size_t *free_bytes, size_t *total_bytes,
                              const char *fn);
/* The same over @len bytes of text (need not be NUL-terminated). */
jet_status jet__meminfo_parse_text(const char *text, size_t len, size_t *free_bytes,
                                   size_t *total_bytes, const char *fn);

/* ------------------------------------------------------------ memory IPC */

/* What an exportable allocation asks for: AUTO (JET_*_EXPORTABLE) lets the
 * platform choose, LEGACY (JET_*_EXPORTABLE_LEGACY) forces cudaIpcGetMemHandle. */
typedef enum jet__ipc_request {
  JET__IPC_REQUEST_AUTO = 1,
  JET__IPC_REQUEST_LEGACY = 2
} jet__ipc_request;

/*
 * The mechanism that exports memory made for @req on @dev under @policy. Pure:
 * no CUDA call, no environment.
 *  - AUTO: VMM POSIX descriptors wherever the device has them (vmm_supported
 *    and posix_fd_handles_supported), desktop included; else, under a desktop
 *    policy that allows memory IPC on a device with IPC support, the legacy
 *    handles; else UNSUPPORTED. A Tegra policy never falls back to legacy.
 *  - LEGACY: only where policy->memory_ipc_allowed (UNSUPPORTED with the L4T
 *    hint otherwise) and the device reports IPC support (ipc_event_supported).
 */
jet_status jet__ipc_mechanism(const jet_platform_info *dev, const jet_policy *policy,
                              jet__ipc_request req, jet_ipc_mechanism *out, const char *fn);

/* Whether a process under @policy on @dev may import memory exported with
 * @mech: the same conditions as choosing it. UNSUPPORTED with a hint if not;
 * INVALID_ARGUMENT for a value outside jet_ipc_mechanism or NONE. */
jet_status jet__ipc_mechanism_usable(const jet_platform_info *dev, const jet_policy *policy,
                                     jet_ipc_mechanism mech, const char *fn);

/* A name for @mech ("VMM file descriptor", "legacy CUDA IPC handle", ...). */
const char *jet__ipc_mechanism_name(jet_ipc_mechanism mech);

/* ------------------------------------------------------------ managed memory */

/* What managed memory may do under @policy on @dev (UM appendix). Pure: no
 * CUDA call, no environment. A forced policy restricts, never adds: each rule
 * needs both the policy and the device attribute. */
typedef struct jet__managed_rules {
  int allowed;        /* managed memory may be allocated (policy.managed_memory_allowed
                         and cudaDevAttrManagedMemory) */
  int concurrent;     /* the CPU may touch managed memory while kernels run:
                         cudaDevAttrConcurrentManagedAccess and a PREFETCH policy */
  int prefetch;       /* cudaMemPrefetchAsync may be used (as concurrent) */
  int advice;         /* cudaMemAdvise takes effect: concurrent and policy.managed_advice */
} jet__managed_rules;

void jet__managed_rules_of(const jet_platform_info *dev, const jet_policy *policy,
                           jet__managed_rules *out);

/* UNSUPPORTED for @what (e.g. "cudaMemPrefetchAsync") that the rules refuse,
 * saying whether the policy or the device refuses it, with @hint (NULL: the
 * UM appendix's explanation). */
jet_status jet__managed_refuse(const jet_platform_info *dev, const jet_policy *policy,
                               const char *what, const char *hint, const char *fn);
/* Whether memory pools may be shared with other processes (jetrt/pool.h)
 * under @policy on @dev, whose cudaDevAttrMemoryPoolSupportedHandleTypes is
 * @pool_handle_types. Pure. Needs policy->memory_ipc_allowed (UNSUPPORTED with
 * the L4T hint otherwise: Jetson before Thor), dev->memory_pools_supported and
 * the POSIX descriptor bit in @pool_handle_types. */
jet_status jet__ipc_pool_allowed(const jet_platform_info *dev, const jet_policy *policy,
                                 int pool_handle_types, const char *fn);

/* ------------------------------------------------------------ several GPUs */

/* Whether the host is a Tegra SoC (platform/tegra_host.c): JET_TEGRA_HOST "1"
 * or "0" decides; else 1 when @any_integrated (a visible CUDA device is an
 * iGPU), else whether the device-tree file @compatible_path (normally
 * /proc/device-tree/compatible) names an NVIDIA Tegra SoC. */
int jet__tegra_host_detect(int any_integrated, const char *compatible_path);

/* Pure: whether @len bytes of a device-tree "compatible" property (strings
 * separated by NULs) hold an entry starting with "nvidia,tegra". */
int jet__compatible_is_tegra(const char *text, size_t len);

extern const jet__platform_ops jet__desktop_ops;
extern const jet__platform_ops jet__tegra_ops;

#endif /* JET_PLATFORM_H */
