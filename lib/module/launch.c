/*
 * Extended launches (cuLaunchKernelEx with launch attributes), kernel
 * attributes and occupancy queries.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "module_int.h"
#include "../l2/l2_internal.h"

#define ALL_LAUNCH_FLAGS (JET_LAUNCH_COOPERATIVE | JET_LAUNCH_PROGRAMMATIC | JET_LAUNCH_PRIORITY)
#define PORTABLE_CLUSTER_MAX 8

static jet_status need_sm90(const jet__launch_limits *lim, const char *what, const char *fn) {
  if (lim->sm >= 90) return JET_STATUS_OK;
  return jet__error(JET_STATUS_UNSUPPORTED, fn, "%s needs SM 9.0 or later; device %d is SM %d.%d",
                    what, lim->device, lim->sm / 10, lim->sm % 10);
}

static jet_status check_cluster(const jet__launch_limits *lim, jet_dim3 c, jet_dim3 grid,
                                const char *kernel, const char *fn) {
  JET__TRY(need_sm90(lim, "a thread-block cluster launch", fn));
  if (!lim->cluster_launch)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d does not support cluster launch (cudaDevAttrClusterLaunch 0)",
                      lim->device);
  if (!(c.x && c.y && c.z))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "cluster (%u, %u, %u) has a zero dimension; leave all three 0 for no "
                      "cluster",
                      c.x, c.y, c.z);
  uint64_t size = (uint64_t)c.x * c.y * c.z;
  if (size > PORTABLE_CLUSTER_MAX)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "cluster (%u, %u, %u) has %llu blocks; the portable maximum is %d", c.x,
                      c.y, c.z, (unsigned long long)size, PORTABLE_CLUSTER_MAX);
  if (grid.x % c.x || grid.y % c.y || grid.z % c.z)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "cluster (%u, %u, %u) does not divide grid (%u, %u, %u) of kernel '%s'",
                      c.x, c.y, c.z, grid.x, grid.y, grid.z, kernel);
  return JET_STATUS_OK;
}

jet_status jet__launch_attrs(const jet__launch_limits *lim, const jet_launch_config *cfg,
                             const char *kernel, CUlaunchAttribute *attrs, unsigned *count,
                             const char *fn) {
  *count = 0;
  memset(attrs, 0, sizeof *attrs * JET__LAUNCH_ATTRS_MAX);
  if (cfg->flags & ~ALL_LAUNCH_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown launch flags 0x%x",
                      cfg->flags & ~ALL_LAUNCH_FLAGS);
  unsigned n = 0;
  int cluster = cfg->cluster.x || cfg->cluster.y || cfg->cluster.z;
  if (cluster) {
    JET__TRY(check_cluster(lim, cfg->cluster, cfg->grid, kernel, fn));
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[n].value.clusterDim.x = cfg->cluster.x;
    attrs[n].value.clusterDim.y = cfg->cluster.y;
    attrs[n].value.clusterDim.z = cfg->cluster.z;
    n++;
  }
  if (cfg->flags & JET_LAUNCH_COOPERATIVE) {
    if (!lim->cooperative_launch)
      return jet__error(JET_STATUS_UNSUPPORTED, fn,
                        "device %d does not support cooperative launch "
                        "(cudaDevAttrCooperativeLaunch 0)",
                        lim->device);
    /* Co-residency is checked per block and SM; with clusters the scheduler
     * places whole clusters, which that check cannot promise. */
    if (cluster)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "jetrt does not combine a cooperative launch with clusters: the grid's "
                        "co-residency cannot be checked before the launch");
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attrs[n].value.cooperative = 1;
    n++;
  }
  if (cfg->flags & JET_LAUNCH_PROGRAMMATIC) {
    JET__TRY(need_sm90(lim, "programmatic dependent launch", fn));
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[n].value.programmaticStreamSerializationAllowed = 1;
    n++;
  }
  if (cfg->flags & JET_LAUNCH_PRIORITY) {
    /* Lower numbers are higher priorities: greatest <= priority <= least. */
    if (cfg->priority < lim->prio_greatest || cfg->priority > lim->prio_least)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "priority %d is outside the device's range [%d (highest), %d (lowest)]",
                        cfg->priority, lim->prio_greatest, lim->prio_least);
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    attrs[n].value.priority = cfg->priority;
    n++;
  }
  if (cfg->access_policy) {
    if (!lim->l2_persistence) {
      jet__error(JET_STATUS_UNSUPPORTED, fn, "an access policy window needs L2 persistence: %s",
                 lim->l2_why ? lim->l2_why : "unsupported");
      jet__error_set_hint("check jet_policy.l2_persistence");
      return JET_STATUS_UNSUPPORTED;
    }
    struct cudaAccessPolicyWindow w;
    JET__TRY(jet__access_policy_check(cfg->access_policy, lim->max_window, &w, fn));
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
    attrs[n].value.accessPolicyWindow.base_ptr = w.base_ptr;
    attrs[n].value.accessPolicyWindow.num_bytes = w.num_bytes;
    attrs[n].value.accessPolicyWindow.hitRatio = w.hitRatio;
    attrs[n].value.accessPolicyWindow.hitProp = (CUaccessProperty)w.hitProp;
    attrs[n].value.accessPolicyWindow.missProp = (CUaccessProperty)w.missProp;
    n++;
  }
  *count = n;
  return JET_STATUS_OK;
}

static jet_status dev_attr(int *v, enum cudaDeviceAttr a, int device, const char *name,
                           const char *fn) {
  cudaError_t e = cudaDeviceGetAttribute(v, a, device);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaDeviceGetAttribute", NULL, "%s", name);
  return JET_STATUS_OK;
}

static jet_status get_limits(const struct jet_context_s *ctx, jet__launch_limits *lim,
                             const char *fn) {
  memset(lim, 0, sizeof *lim);
  lim->device = ctx->device;
  lim->sm = ctx->info.cc_major * 10 + ctx->info.cc_minor;
  lim->l2_persistence = ctx->platform.policy.l2_persistence;
  lim->l2_why = ctx->platform.policy.l2_persistence_why;
  int w = 0;
  JET__TRY(dev_attr(&lim->cooperative_launch, cudaDevAttrCooperativeLaunch, ctx->device,
                    "cudaDevAttrCooperativeLaunch", fn));
  JET__TRY(dev_attr(&w, cudaDevAttrMaxAccessPolicyWindowSize, ctx->device,
                    "cudaDevAttrMaxAccessPolicyWindowSize", fn));
  lim->max_window = w > 0 ? (size_t)w : 0;
  if (lim->sm >= 90)
    JET__TRY(dev_attr(&lim->cluster_launch, cudaDevAttrClusterLaunch, ctx->device,
                      "cudaDevAttrClusterLaunch", fn));
  cudaError_t e = cudaDeviceGetStreamPriorityRange(&lim->prio_least, &lim->prio_greatest);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaDeviceGetStreamPriorityRange", NULL, NULL);
  return JET_STATUS_OK;
}

static jet_status occupancy(const jet__driver_api *api, const struct jet_kernel_s *k,
                            unsigned threads, size_t shared, int *out, const char *fn) {
  CUresult r = api->cuOccupancyMaxActiveBlocksPerMultiprocessor(out, k->fn, (int)threads, shared);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL,
                         "kernel '%s', %u threads, %zu shared bytes", k->name, threads, shared);
  return JET_STATUS_OK;
}

void jet__launch_config(CUlaunchConfig *lc, jet_dim3 grid, jet_dim3 block, size_t shared,
                        CUstream s, CUlaunchAttribute *attrs, unsigned n) {
  memset(lc, 0, sizeof *lc);
  lc->gridDimX = grid.x;
  lc->gridDimY = grid.y;
  lc->gridDimZ = grid.z;
  lc->blockDimX = block.x;
  lc->blockDimY = block.y;
  lc->blockDimZ = block.z;
  lc->sharedMemBytes = (unsigned)shared;
  lc->hStream = s;
  lc->attrs = n ? attrs : NULL;
  lc->numAttrs = n;
}

static jet_status active_clusters(const jet__driver_api *api, const struct jet_kernel_s *k,
                                  jet_dim3 cluster, jet_dim3 block, size_t shared, int *out,
                                  const char *fn) {
  CUlaunchAttribute a;
  memset(&a, 0, sizeof a);
  a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  a.value.clusterDim.x = cluster.x;
  a.value.clusterDim.y = cluster.y;
  a.value.clusterDim.z = cluster.z;
  CUlaunchConfig lc;
  jet__launch_config(&lc, cluster, block, shared, NULL, &a, 1);
  CUresult r = api->cuOccupancyMaxActiveClusters(out, k->fn, &lc);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuOccupancyMaxActiveClusters", NULL,
                         "kernel '%s', cluster (%u, %u, %u), block (%u, %u, %u), %zu shared bytes",
                         k->name, cluster.x, cluster.y, cluster.z, block.x, block.y, block.z,
                         shared);
  return JET_STATUS_OK;
}

jet_status jet_launch_ex(jet_stream stream, jet_kernel kernel, const jet_launch_config *cfg,
                         void **args) {
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  cudaStream_t s;
  JET__TRY(jet__stream_enter(stream, kernel->h.ctx, &s, __func__));
  JET__ARG(cfg, "cfg is NULL");
  JET__TRY(jet__launch_args_check(kernel, cfg->grid, cfg->block, cfg->shared_bytes, args,
                                  __func__));
  jet__launch_limits lim;
  JET__TRY(get_limits(kernel->h.ctx, &lim, __func__));
  CUlaunchAttribute attrs[JET__LAUNCH_ATTRS_MAX];
  unsigned n = 0;
  JET__TRY(jet__launch_attrs(&lim, cfg, kernel->name, attrs, &n, __func__));
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, __func__));
  unsigned threads = cfg->block.x * cfg->block.y * cfg->block.z;
  if (cfg->flags & JET_LAUNCH_COOPERATIVE) {
    int per_sm = 0;
    JET__TRY(occupancy(api, kernel, threads, cfg->shared_bytes, &per_sm, __func__));
    uint64_t blocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    uint64_t resident = (uint64_t)per_sm * (uint64_t)kernel->h.ctx->info.sm_count;
    if (blocks > resident) {
      jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                 "cooperative grid (%u, %u, %u) has %llu blocks; only %llu can be co-resident "
                 "(%d per SM of %u threads and %zu shared bytes x %d SMs) for kernel '%s'",
                 cfg->grid.x, cfg->grid.y, cfg->grid.z, (unsigned long long)blocks,
                 (unsigned long long)resident, per_sm, threads, cfg->shared_bytes,
                 kernel->h.ctx->info.sm_count, kernel->name);
      jet__error_set_hint("size the grid with jet_kernel_occupancy x the SM count");
      return JET_STATUS_INVALID_ARGUMENT;
    }
  }
  if (cfg->cluster.x) {
    int clusters = 0;
    JET__TRY(active_clusters(api, kernel, cfg->cluster, cfg->block, cfg->shared_bytes, &clusters,
                             __func__));
    if (clusters <= 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "a cluster (%u, %u, %u) of kernel '%s' with block (%u, %u, %u) and %zu "
                        "shared bytes cannot be scheduled (0 active clusters)",
                        cfg->cluster.x, cfg->cluster.y, cfg->cluster.z, kernel->name,
                        cfg->block.x, cfg->block.y, cfg->block.z, cfg->shared_bytes);
  }
  CUlaunchConfig lc;
  /* cudaStreamLegacy / cudaStreamPerThread equal CU_STREAM_LEGACY / CU_STREAM_PER_THREAD. */
  jet__launch_config(&lc, cfg->grid, cfg->block, cfg->shared_bytes, (CUstream)s, attrs, n);
  CUresult r = api->cuLaunchKernelEx(&lc, kernel->fn, args, NULL);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, __func__, "cuLaunchKernelEx", NULL,
                         "kernel '%s', grid (%u, %u, %u), block (%u, %u, %u), %zu shared bytes, "
                         "flags 0x%x, cluster (%u, %u, %u)",
                         kernel->name, cfg->grid.x, cfg->grid.y, cfg->grid.z, cfg->block.x,
                         cfg->block.y, cfg->block.z, cfg->shared_bytes, cfg->flags,
                         cfg->cluster.x, cfg->cluster.y, cfg->cluster.z);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ kernel attributes */

static jet_status func_attr(const jet__driver_api *api, const struct jet_kernel_s *k,
                            CUfunction_attribute a, const char *name, int *v, const char *fn) {
  CUresult r = api->cuFuncGetAttribute(v, a, k->fn);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuFuncGetAttribute", NULL, "%s of kernel '%s'", name, k->name);
  return JET_STATUS_OK;
}

static jet_status kernel_enter(jet_kernel k, const jet__driver_api **api, const char *fn) {
  JET__TRY(jet__handle_check(k, JET__H_KERNEL, fn, "kernel"));
  JET__TRY(jet__driver(api, fn));
  return jet__ctx_activate(k->h.ctx, fn);
}

jet_status jet_kernel_attributes(jet_kernel kernel, jet_kernel_attrs *out) {
  JET__ARG(out, "out is NULL");
  memset(out, 0, sizeof *out);
  const jet__driver_api *api;
  JET__TRY(kernel_enter(kernel, &api, __func__));
  int shared = 0, cnst = 0, local = 0;
#define A(id, dst) JET__TRY(func_attr(api, kernel, id, #id, dst, __func__))
  A(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out->max_threads_per_block);
  A(CU_FUNC_ATTRIBUTE_NUM_REGS, &out->num_regs);
  A(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &shared);
  A(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &cnst);
  A(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &local);
  A(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &out->max_dynamic_shared_bytes);
  A(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, &out->preferred_carveout);
  A(CU_FUNC_ATTRIBUTE_PTX_VERSION, &out->ptx_version);
  A(CU_FUNC_ATTRIBUTE_BINARY_VERSION, &out->binary_version);
#undef A
  out->static_shared_bytes = (size_t)(shared > 0 ? shared : 0);
  out->const_bytes = (size_t)(cnst > 0 ? cnst : 0);
  out->local_bytes = (size_t)(local > 0 ? local : 0);
  JET__TRY(dev_attr(&out->device_optin_shared_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                    kernel->h.ctx->device, "cudaDevAttrMaxSharedMemoryPerBlockOptin", __func__));
  return JET_STATUS_OK;
}

jet_status jet_kernel_set_max_dynamic_shared(jet_kernel kernel, size_t bytes) {
  const jet__driver_api *api;
  JET__TRY(kernel_enter(kernel, &api, __func__));
  int optin = 0, shared = 0;
  JET__TRY(dev_attr(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, kernel->h.ctx->device,
                    "cudaDevAttrMaxSharedMemoryPerBlockOptin", __func__));
  JET__TRY(func_attr(api, kernel, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                     "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES", &shared, __func__));
  size_t bound = optin > shared ? (size_t)(optin - shared) : 0;
  JET__ARG(bytes <= bound,
           "%zu bytes of dynamic shared memory exceed what kernel '%s' can opt in to: %zu (the "
           "device's opt-in maximum %d minus %d static shared bytes)",
           bytes, kernel->name, bound, optin, shared);
  CUresult r = api->cuFuncSetAttribute(kernel->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       (int)bytes);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, __func__, "cuFuncSetAttribute", NULL,
                         "MAX_DYNAMIC_SHARED_SIZE_BYTES = %zu on kernel '%s'", bytes, kernel->name);
  pthread_mutex_lock(&kernel->mod->lock);
  kernel->max_dyn_shared = (int)bytes;
  pthread_mutex_unlock(&kernel->mod->lock);
  return JET_STATUS_OK;
}

jet_status jet_kernel_set_carveout(jet_kernel kernel, int percent) {
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  JET__ARG(percent >= -1 && percent <= 100,
           "carve-out %d is outside -1 (no preference) .. 100 percent", percent);
  const jet__driver_api *api;
  JET__TRY(kernel_enter(kernel, &api, __func__));
  CUresult r = api->cuFuncSetAttribute(kernel->fn,
                                       CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, __func__, "cuFuncSetAttribute", NULL,
                         "PREFERRED_SHARED_MEMORY_CARVEOUT = %d on kernel '%s'", percent,
                         kernel->name);
  return JET_STATUS_OK;
}

jet_status jet_kernel_occupancy(jet_kernel kernel, unsigned block_threads, size_t shared_bytes,
                                int *blocks_per_sm) {
  JET__ARG(blocks_per_sm, "blocks_per_sm is NULL");
  *blocks_per_sm = 0;
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  JET__ARG(block_threads > 0 && block_threads <= (unsigned)kernel->max_threads,
           "block_threads %u is outside 1..%d for kernel '%s'", block_threads,
           kernel->max_threads, kernel->name);
  const jet__driver_api *api;
  JET__TRY(kernel_enter(kernel, &api, __func__));
  return occupancy(api, kernel, block_threads, shared_bytes, blocks_per_sm, __func__);
}

jet_status jet_kernel_max_active_clusters(jet_kernel kernel, jet_dim3 cluster, jet_dim3 block,
                                          size_t shared_bytes, int *clusters) {
  JET__ARG(clusters, "clusters is NULL");
  *clusters = 0;
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  const struct jet_context_s *ctx = kernel->h.ctx;
  jet__launch_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.device = ctx->device;
  lim.sm = ctx->info.cc_major * 10 + ctx->info.cc_minor;
  JET__TRY(need_sm90(&lim, "a thread-block cluster", __func__));
  JET__TRY(jet__ctx_activate(kernel->h.ctx, __func__));
  JET__TRY(dev_attr(&lim.cluster_launch, cudaDevAttrClusterLaunch, ctx->device,
                    "cudaDevAttrClusterLaunch", __func__));
  JET__TRY(check_cluster(&lim, cluster, cluster, kernel->name, __func__));
  JET__ARG(block.x && block.y && block.z, "block (%u, %u, %u) has a zero dimension", block.x,
           block.y, block.z);
  uint64_t threads = (uint64_t)block.x * block.y * block.z;
  JET__ARG(threads <= (uint64_t)kernel->max_threads,
           "block (%u, %u, %u) has %llu threads; kernel '%s' allows at most %d", block.x, block.y,
           block.z, (unsigned long long)threads, kernel->name, kernel->max_threads);
  JET__ARG(shared_bytes <= 0xffffffffu, "shared_bytes %zu does not fit the driver's 32 bits",
           shared_bytes);
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, __func__));
  return active_clusters(api, kernel, cluster, block, shared_bytes, clusters, __func__);
}
