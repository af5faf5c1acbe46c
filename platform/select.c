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

/* name, kind, soc, forced, shared backing, host register, managed, memory IPC, event IPC,
 * cubin match, pinned CPU reads cached, EGLSync -> event, reason, dma-buf import */
static const policy_row rows[] = {
    {{"desktop", JET_PLATFORM_DESKTOP, 0, 0, JET_SHARED_BACKING_DEVICE_STAGED, 1,
      JET_MANAGED_PREFETCH, 1, 1, JET_CUBIN_SAME_MAJOR, 1, JET_EGL_SYNC_HOST_WAIT, "", 0},
     &jet__desktop_ops},
    /* Xavier and Orin: I/O coherent one way, so pinned memory is CPU-cached and
     * host registration works; managed memory cannot be touched by the CPU while
     * kernels run (concurrentManagedAccess == 0) and prefetch is unsupported;
     * only event IPC works on L4T. */
    {{"xavier", JET_PLATFORM_TEGRA, 72, 0, JET_SHARED_BACKING_MAPPED_HOST, 1,
      JET_MANAGED_STREAM_ATTACH, 0, 1, JET_CUBIN_EXACT_SM, 1, JET_EGL_SYNC_CUDA_EVENT, "", 0},
     &jet__tegra_ops},
    {{"orin", JET_PLATFORM_TEGRA, 87, 0, JET_SHARED_BACKING_MAPPED_HOST, 1,
      JET_MANAGED_STREAM_ATTACH, 0, 1, JET_CUBIN_EXACT_SM, 1, JET_EGL_SYNC_CUDA_EVENT, "", 0},
     &jet__tegra_ops},
    /* Thor with CUDA 13: concurrent managed access, prefetch and memory IPC work;
     * cuImportExternalMemory takes dma-buf "only on Tegra Jetson platform
     * starting with Thor series" (cuda.h). */
    {{"thor", JET_PLATFORM_TEGRA, 110, 0, JET_SHARED_BACKING_MAPPED_HOST, 1,
      JET_MANAGED_PREFETCH, 1, 1, JET_CUBIN_EXACT_SM, 1, JET_EGL_SYNC_CUDA_EVENT, "", 1},
     &jet__tegra_ops},
    /* Any other integrated GPU (Nano/TX1 5.3, TX2 6.2: not I/O coherent): the
     * conservative set. Not selectable by name. */
    {{"tegra", JET_PLATFORM_TEGRA, 0, 0, JET_SHARED_BACKING_MAPPED_HOST, 0,
      JET_MANAGED_STREAM_ATTACH, 0, 0, JET_CUBIN_EXACT_SM, 0, JET_EGL_SYNC_CUDA_EVENT, "", 0},
     &jet__tegra_ops},
};

enum { ROW_DESKTOP = 0, ROW_GENERIC_TEGRA = 4, N_NAMED = 4 };

static int soc_row(int sm) {
  switch (sm) {
    case 72: return 1;
    case 87: return 2;
    case 101: /* Thor's SM before CUDA 13 renumbered it */
    case 110: return 3;
    default: return ROW_GENERIC_TEGRA;
  }
}

jet_status jet__platform_select(const jet_platform_info *dev, const char *request,
                                jet__platform *out, const char *fn) {
  int sm = dev->cc_major * 10 + dev->cc_minor;
  int row = -1;
  int forced = request && request[0] && strcmp(request, "auto") != 0;
  if (forced) {
    for (int i = 0; i < N_NAMED; i++)
      if (strcmp(request, rows[i].policy.name) == 0) row = i;
    if (row < 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "unknown platform \"%.32s\": expected desktop, xavier, orin, thor or auto",
                        request);
  } else {
    row = dev->integrated ? soc_row(sm) : ROW_DESKTOP;
  }
  out->policy = rows[row].policy;
  out->ops = rows[row].ops;
  out->policy.forced = forced;
  jet_policy *p = &out->policy;
  if (forced)
    snprintf(p->reason, sizeof p->reason,
             "forced to %s by request; the device is %s SM %d.%d, so operations it lacks still fail",
             p->name, dev->integrated ? "an integrated" : "a discrete", dev->cc_major,
             dev->cc_minor);
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
