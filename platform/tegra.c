/*
 * Tegra (integrated GPU) operations.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

jet_status jet__meminfo_parse_text(const char *text, size_t len, size_t *free_bytes,
                                   size_t *total_bytes, const char *fn) {
  unsigned long long avail = 0, total = 0;
  int have_avail = 0, have_total = 0;
  size_t pos = 0;
  while (pos < len) {
    size_t end = pos;
    while (end < len && text[end] != '\n') end++;
    char line[128];
    size_t n = end - pos < sizeof line - 1 ? end - pos : sizeof line - 1;
    memcpy(line, text + pos, n);
    line[n] = '\0';
    unsigned long long kb;
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) avail = kb, have_avail = 1;
    else if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) total = kb, have_total = 1;
    pos = end + 1;
  }
  if (!have_avail || !have_total || avail > total || total > SIZE_MAX / 1024)
    return jet__error(JET_STATUS_IO_ERROR, fn, "meminfo lacks sane MemTotal/MemAvailable lines");
  *free_bytes = (size_t)avail * 1024;
  *total_bytes = (size_t)total * 1024;
  return JET_STATUS_OK;
}

jet_status jet__meminfo_parse(const char *path, size_t *free_bytes, size_t *total_bytes,
                              const char *fn) {
  FILE *f = fopen(path, "r");
  if (!f) return jet__error(JET_STATUS_IO_ERROR, fn, "cannot open %s", path);
  char buf[8192]; /* /proc/meminfo is about 1.5 KiB */
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return jet__meminfo_parse_text(buf, n, free_bytes, total_bytes, fn);
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
