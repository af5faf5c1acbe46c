/*
 * The policy table and its selection from device attributes (TEGRA.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct policy_row {
  jet_policy policy; /* reason and forced are filled at selection */
  const jet__platform_ops *ops;
} policy_row;

/* One row per named policy; reason, forced and the L2 fields are filled at
 * selection (l2_policy decides L2 persistence from the device, not the row). */
static const policy_row rows[] = {
    {{.name = "desktop", .kind = JET_PLATFORM_DESKTOP, .soc_sm = 0,
      .shared_backing = JET_SHARED_BACKING_DEVICE_STAGED, .host_register_allowed = 1,
      .managed_mode = JET_MANAGED_PREFETCH, .memory_ipc_allowed = 1, .event_ipc_allowed = 1,
      .cubin_match = JET_CUBIN_SAME_MAJOR, .pinned_cpu_reads_cached = 1,
      .egl_sync = JET_EGL_SYNC_HOST_WAIT, .managed_advice = 1, .managed_memory_allowed = 1,
      .peer_access_allowed = 1, .external_dmabuf = 0, .fp64_sums = 1},
     &jet__desktop_ops},
    /* Xavier and Orin: I/O coherent one way, so pinned memory is CPU-cached and
     * host registration works; managed memory cannot be touched by the CPU while
     * kernels run (concurrentManagedAccess == 0), so neither prefetch nor advice
     * (UM appendix); only event IPC works on L4T; Tegra has no peer-to-peer. */
    {{.name = "xavier", .kind = JET_PLATFORM_TEGRA, .soc_sm = 72,
      .shared_backing = JET_SHARED_BACKING_MAPPED_HOST, .host_register_allowed = 1,
      .managed_mode = JET_MANAGED_STREAM_ATTACH, .memory_ipc_allowed = 0, .event_ipc_allowed = 1,
      .cubin_match = JET_CUBIN_EXACT_SM, .pinned_cpu_reads_cached = 1,
      .egl_sync = JET_EGL_SYNC_CUDA_EVENT, .managed_advice = 0, .managed_memory_allowed = 1,
      .peer_access_allowed = 0, .external_dmabuf = 0},
     &jet__tegra_ops},
    {{.name = "orin", .kind = JET_PLATFORM_TEGRA, .soc_sm = 87,
      .shared_backing = JET_SHARED_BACKING_MAPPED_HOST, .host_register_allowed = 1,
      .managed_mode = JET_MANAGED_STREAM_ATTACH, .memory_ipc_allowed = 0, .event_ipc_allowed = 1,
      .cubin_match = JET_CUBIN_EXACT_SM, .pinned_cpu_reads_cached = 1,
      .egl_sync = JET_EGL_SYNC_CUDA_EVENT, .managed_advice = 0, .managed_memory_allowed = 1,
      .peer_access_allowed = 0, .external_dmabuf = 0},
     &jet__tegra_ops},
    /* Thor with CUDA 13: concurrent managed access, prefetch, advice and memory
     * IPC work; cuImportExternalMemory takes dma-buf "only on Tegra Jetson
     * platform starting with Thor series" (cuda.h). */
    {{.name = "thor", .kind = JET_PLATFORM_TEGRA, .soc_sm = 110,
      .shared_backing = JET_SHARED_BACKING_MAPPED_HOST, .host_register_allowed = 1,
      .managed_mode = JET_MANAGED_PREFETCH, .memory_ipc_allowed = 1, .event_ipc_allowed = 1,
      .cubin_match = JET_CUBIN_EXACT_SM, .pinned_cpu_reads_cached = 1,
      .egl_sync = JET_EGL_SYNC_CUDA_EVENT, .managed_advice = 1, .managed_memory_allowed = 1,
      .peer_access_allowed = 0, .external_dmabuf = 1},
     &jet__tegra_ops},
    /* Any other integrated GPU (Nano/TX1 5.3, TX2 6.2: not I/O coherent): the
     * conservative set. Not selectable by name. */
    {{.name = "tegra", .kind = JET_PLATFORM_TEGRA, .soc_sm = 0,
      .shared_backing = JET_SHARED_BACKING_MAPPED_HOST, .host_register_allowed = 0,
      .managed_mode = JET_MANAGED_STREAM_ATTACH, .memory_ipc_allowed = 0, .event_ipc_allowed = 0,
      .cubin_match = JET_CUBIN_EXACT_SM, .pinned_cpu_reads_cached = 0,
      .egl_sync = JET_EGL_SYNC_CUDA_EVENT, .managed_advice = 0, .managed_memory_allowed = 1,
      .peer_access_allowed = 0, .external_dmabuf = 0},
     &jet__tegra_ops},
};

enum { ROW_DESKTOP = 0, ROW_GENERIC_TEGRA = 4, N_NAMED = 4 };

/* A discrete GPU in a Tegra host (IGX Orin's dGPU, next to the iGPU): the
 * desktop policy, with the one thing the UM appendix says differs there.
 * Derived from the desktop row so that every other field follows it. */
static const char IGX_DGPU[] = "igx-dgpu";

static void make_igx_dgpu(jet_policy *p) {
  snprintf(p->name, sizeof p->name, "%s", IGX_DGPU);
  p->managed_memory_allowed = 0;
}

static int soc_row(int sm) {
  switch (sm) {
    case 72: return 1;
    case 87: return 2;
    case 101: /* Thor's SM before CUDA 13 renumbered it */
    case 110: return 3;
    default: return ROW_GENERIC_TEGRA;
  }
}

/* L2 persistence follows the device's attributes under every policy: a
 * forced policy must not promise a set-aside the hardware lacks, and Orin
 * (SM 8.7, 4 MB L2) reports a persisting maximum of its own. */
static void l2_policy(const jet_platform_info *dev, jet_policy *p) {
  int sm = dev->cc_major * 10 + dev->cc_minor;
  p->l2_persistence = 0;
  if (sm < 80)
    snprintf(p->l2_persistence_why, sizeof p->l2_persistence_why,
             "SM %d.%d: L2 persistence needs SM 8.0 or later", dev->cc_major, dev->cc_minor);
  else if (dev->persisting_l2_max == 0)
    snprintf(p->l2_persistence_why, sizeof p->l2_persistence_why,
             "the device reports persistingL2CacheMaxSize 0: no L2 set-aside");
  else {
    p->l2_persistence = 1;
    snprintf(p->l2_persistence_why, sizeof p->l2_persistence_why,
             "SM %d.%d with up to %zu KiB of %zu KiB L2 for persisting lines", dev->cc_major,
             dev->cc_minor, dev->persisting_l2_max >> 10, dev->l2_size >> 10);
  }
}

jet_status jet__platform_select(const jet_platform_info *dev, const char *request,
                                jet__platform *out, const char *fn) {
  int sm = dev->cc_major * 10 + dev->cc_minor;
  int row = -1;
  int forced = request && request[0] && strcmp(request, "auto") != 0;
  int igx = 0;
  if (forced) {
    for (int i = 0; i < N_NAMED; i++)
      if (strcmp(request, rows[i].policy.name) == 0) row = i;
    if (strcmp(request, IGX_DGPU) == 0) row = ROW_DESKTOP, igx = 1;
    if (row < 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "unknown platform \"%.32s\": expected desktop, xavier, orin, thor, "
                        "igx-dgpu or auto",
                        request);
  } else {
    row = dev->integrated ? soc_row(sm) : ROW_DESKTOP;
    igx = !dev->integrated && dev->tegra_host;
  }
  out->policy = rows[row].policy;
  out->ops = rows[row].ops;
  out->policy.forced = forced;
  jet_policy *p = &out->policy;
  l2_policy(dev, p);
  /* the row allows FP64 sums; the device decides whether they pay */
  p->fp64_sums = p->fp64_sums && dev->fp64_ratio >= 1 && dev->fp64_ratio <= 2;
  if (igx) make_igx_dgpu(p);
  if (forced)
    snprintf(p->reason, sizeof p->reason,
             "forced to %s by request; the device is %s SM %d.%d, so operations it lacks still fail",
             p->name, dev->integrated ? "an integrated" : "a discrete", dev->cc_major,
             dev->cc_minor);
  else if (igx)
    snprintf(p->reason, sizeof p->reason,
             "discrete GPU (integrated=0, SM %d.%d) in a Tegra host: device memory with staging "
             "copies, no managed memory (unsupported on a dGPU attached to Tegra)",
             dev->cc_major, dev->cc_minor);
  else if (!dev->integrated)
    snprintf(p->reason, sizeof p->reason,
             "discrete GPU (integrated=0, SM %d.%d): device memory with staging copies",
             dev->cc_major, dev->cc_minor);
  else if (row == ROW_GENERIC_TEGRA)
    snprintf(p->reason, sizeof p->reason,
             "integrated GPU with SM %d.%d, not a known Jetson SoC: conservative Tegra policy "
             "(no host registration, no memory IPC)",
             dev->cc_major, dev->cc_minor);
  else
    snprintf(p->reason, sizeof p->reason,
             "integrated GPU (integrated=1) with SM %d.%d: Jetson %s, zero-copy shared memory, "
             "exact-SM cubins",
             dev->cc_major, dev->cc_minor, p->name);
  return JET_STATUS_OK;
}

const char *jet__platform_request(const char *desc_request) {
  if (desc_request && desc_request[0]) return desc_request;
  const char *env = getenv("JET_PLATFORM");
  return (env && env[0]) ? env : NULL;
}
