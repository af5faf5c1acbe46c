/*
 * Desktop (discrete GPU) operations.
 */
#include "internal.h"

static jet_status desktop_mem_info(const jet__platform *p, const jet_platform_info *dev,
                                   size_t *free_bytes, size_t *total_bytes, const char *fn) {
  (void)p;
  (void)dev;
  cudaError_t e = cudaMemGetInfo(free_bytes, total_bytes);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaMemGetInfo", NULL, NULL);
  return JET_STATUS_OK;
}

const jet__platform_ops jet__desktop_ops = {desktop_mem_info};
