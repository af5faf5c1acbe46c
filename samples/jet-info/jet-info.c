/*
 * jet-info: the platform report, the policy in force and why.
 *
 * Exit codes: 0 report printed; 2 no CUDA device or driver (the reason is
 * printed); 1 any other failure.
 * Options: --device N (default: all devices), --platform NAME (force a policy,
 * like JET_PLATFORM).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetrt.h"

enum { EXIT_NO_DEVICE = 2 };

static const char *yn(int v) { return v ? "yes" : "no"; }

static void print_mib(const char *label, size_t bytes) {
  printf("  %-28s %.1f MiB\n", label, (double)bytes / (1024.0 * 1024.0));
}

static const char *backing_name(jet_shared_backing b) {
  switch (b) {
    case JET_SHARED_BACKING_MAPPED_HOST: return "mapped pinned host memory (zero-copy)";
    case JET_SHARED_BACKING_DEVICE_STAGED: return "device memory + pinned staging copy";
    case JET_SHARED_BACKING_MANAGED: return "managed memory";
  }
  return "?";
}

static int report(int device, const char *platform) {
  jet_context ctx = NULL;
  jet_context_desc desc = {device, 0, platform};
  if (jet_context_create(&ctx, &desc) != JET_STATUS_OK) {
    fprintf(stderr, "jet-info: device %d: %s\n", device, jet_last_error_string());
    return 1;
  }
  jet_platform_info i;
  jet_policy p;
  size_t free_b = 0, total_b = 0;
  if (jet_context_platform(ctx, &i) != JET_STATUS_OK || jet_context_policy(ctx, &p) != JET_STATUS_OK ||
      jet_context_mem_info(ctx, &free_b, &total_b) != JET_STATUS_OK) {
    fprintf(stderr, "jet-info: device %d: %s\n", device, jet_last_error_string());
    jet_context_destroy(ctx);
    return 1;
  }
  printf("device %d: %s\n", i.device, i.name);
  printf("  %-28s %d.%d (sm_%d%d), %d SMs\n", "compute capability", i.cc_major, i.cc_minor,
         i.cc_major, i.cc_minor, i.sm_count);
  print_mib("memory total", i.total_memory);
  print_mib("memory free (policy)", free_b);
  printf("  %-28s %s\n", "integrated (shares DRAM)", yn(i.integrated));
  printf("  %-28s %s\n", "I/O coherent", yn(i.io_coherent));
  printf("  %-28s %s\n", "can map host memory", yn(i.can_map_host_memory));
  printf("  %-28s %s\n", "host register supported", yn(i.host_register_supported));
  printf("  %-28s %s\n", "managed memory", yn(i.managed_memory));
  printf("  %-28s %s\n", "concurrent managed access", yn(i.concurrent_managed_access));
  printf("  %-28s %s\n", "pageable memory access", yn(i.pageable_memory_access));
  printf("  %-28s %s\n", "memory pools", yn(i.memory_pools_supported));
  printf("  %-28s %s\n", "VMM (cuMemCreate)", yn(i.vmm_supported));
  printf("  %-28s %s\n", "VMM POSIX fd export", yn(i.posix_fd_handles_supported));
  printf("  %-28s %s\n", "IPC events", yn(i.ipc_event_supported));
  print_mib("L2 cache", i.l2_size);
  print_mib("persisting L2 max", i.persisting_l2_max);
  printf("  %-28s %d\n", "async copy engines", i.async_engines);
  printf("  %-28s %s\n", "unified addressing", yn(i.unified_addressing));
  printf("  %-28s %d\n", "FP32 / FP64 throughput", i.fp64_ratio);
  const unsigned char *u = i.uuid;
  printf("  %-28s GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\n",
         "UUID", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
         u[13], u[14], u[15]);
  printf("  %-28s %d.%d / %d.%d\n", "driver / runtime", i.driver_version / 1000,
         (i.driver_version % 1000) / 10, i.runtime_version / 1000, (i.runtime_version % 1000) / 10);
  printf("policy: %s%s\n", p.name, p.forced ? " (forced)" : "");
  printf("  why: %s\n", p.reason);
  printf("  %-28s %s\n", "shared buffers", backing_name(p.shared_backing));
  printf("  %-28s %s\n", "host registration", p.host_register_allowed ? "allowed" : "refused");
  printf("  %-28s %s\n", "managed memory hand-over",
         p.managed_mode == JET_MANAGED_PREFETCH ? "prefetch" : "stream attach");
  printf("  %-28s %s\n", "managed memory advice",
         p.managed_advice ? "in effect" : "read-mostly a no-op, location advice refused");
  printf("  %-28s %s\n", "managed memory", p.managed_memory_allowed ? "allowed" : "refused");
  printf("  %-28s %s\n", "memory IPC", p.memory_ipc_allowed ? "allowed" : "refused (use VMM fds)");
  printf("  %-28s %s\n", "event IPC", p.event_ipc_allowed ? "allowed" : "refused");
  printf("  %-28s %s\n", "cubin matching",
         p.cubin_match == JET_CUBIN_EXACT_SM ? "exact SM only" : "same major, minor <= device");
  printf("  %-28s %s\n", "CPU reads of pinned memory",
         p.pinned_cpu_reads_cached ? "cached (fast)" : "uncached (slow: copy out first)");
  printf("  %-28s %s\n", "EGLSync -> CUDA event",
         p.egl_sync == JET_EGL_SYNC_CUDA_EVENT ? "cudaEventCreateFromEGLSync" : "host wait");
  printf("  %-28s %s\n", "float image sums", p.fp64_sums ? "FP64" : "compensated FP32");
  jet_context_destroy(ctx);
  return 0;
}

int main(int argc, char **argv) {
  int only = -1;
  const char *platform = NULL;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--device") == 0 && a + 1 < argc) only = atoi(argv[++a]);
    else if (strcmp(argv[a], "--platform") == 0 && a + 1 < argc) platform = argv[++a];
    else {
      fprintf(stderr, "usage: jet-info [--device N] [--platform desktop|xavier|orin|thor]\n");
      return 1;
    }
  }
  printf("jetrt %s\n", jet_version_string());
  int n = 0;
  if (jet_device_count(&n) != JET_STATUS_OK) {
    fprintf(stderr, "jet-info: %s\n", jet_last_error_string());
    return 1;
  }
  if (n == 0) {
    const jet_error_info *e = jet_last_error();
    printf("no CUDA device: %s%s%s\n", e->message[0] ? e->message : "none found",
           e->hint[0] ? " - " : "", e->hint);
    return EXIT_NO_DEVICE;
  }
  if (only >= n) {
    fprintf(stderr, "jet-info: device %d does not exist (%d found)\n", only, n);
    return 1;
  }
  int rc = 0;
  for (int d = 0; d < n; d++)
    if (only < 0 || only == d) rc |= report(d, platform);
  return rc;
}
