/*
 * Tegra (integrated GPU) operations.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

jet_status jet__meminfo_parse(const char *path, size_t *free_bytes, size_t *total_bytes,
                              const char *fn) {
  FILE *f = fopen(path, "r");
  if (!f) return jet__error(JET_STATUS_IO_ERROR, fn, "cannot open %s", path);
  char line[256];
  unsigned long long avail = 0, total = 0;
  int have_avail = 0, have_total = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long kb;
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) avail = kb, have_avail = 1;
    else if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) total = kb, have_total = 1;
  }
  fclose(f);
  if (!have_avail || !have_total || avail > total || total > SIZE_MAX / 1024)
    return jet__error(JET_STATUS_IO_ERROR, fn, "%s lacks sane MemTotal/MemAvailable lines", path);
  *free_bytes = (size_t)avail * 1024;
  *total_bytes = (size_t)total * 1024;
  return JET_STATUS_OK;
}

/* cudaMemGetInfo on Tegra does not count memory the kernel could reclaim, so it
 * under-reports; NVIDIA's Tegra note estimates from /proc/meminfo instead. A
 * Tegra policy forced onto a discrete GPU keeps cudaMemGetInfo: host RAM says
 * nothing about a discrete card's memory. */
static jet_status tegra_mem_info(const jet__platform *p, const jet_platform_info *dev,
                                 size_t *free_bytes, size_t *total_bytes, const char *fn) {
  (void)p;
  if (dev->integrated &&
      jet__meminfo_parse("/proc/meminfo", free_bytes, total_bytes, fn) == JET_STATUS_OK)
    return JET_STATUS_OK;
  cudaError_t e = cudaMemGetInfo(free_bytes, total_bytes);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaMemGetInfo", NULL, NULL);
  return JET_STATUS_OK;
}

const jet__platform_ops jet__tegra_ops = {tegra_mem_info};
