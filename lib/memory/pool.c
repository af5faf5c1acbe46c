/*
 * Stream-ordered buffers and memory pools (jetrt/pool.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memory_internal.h"

#define POOL_FLAGS JET_MEMPOOL_EXPORTABLE

_Static_assert(sizeof(((jet_mempool_ptr_desc *)0)->data) == sizeof(struct cudaMemPoolPtrExportData),
               "the description holds a cudaMemPoolPtrExportData");
_Static_assert(sizeof(jet_mempool_ptr_desc) == 80, "jet_mempool_ptr_desc has no padding");

static const struct {
  unsigned bit;
  enum cudaMemPoolAttr attr;
} reuse_attrs[] = {
    {JET_MEMPOOL_REUSE_FOLLOW_EVENTS, cudaMemPoolReuseFollowEventDependencies},
    {JET_MEMPOOL_REUSE_OPPORTUNISTIC, cudaMemPoolReuseAllowOpportunistic},
    {JET_MEMPOOL_REUSE_INTERNAL_DEPS, cudaMemPoolReuseAllowInternalDependencies},
};

static jet_status pools_supported(const struct jet_context_s *ctx, const char *fn) {
  if (!ctx->info.memory_pools_supported)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d (%s) has no memory pools (cudaDevAttrMemoryPoolsSupported is 0)",
                      ctx->device, ctx->info.name);
  return JET_STATUS_OK;
}

/* Validate @pool and make its device current. */
static jet_status pool_enter(jet_mempool pool, const char *fn) {
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, fn, "pool"));
  return jet__ctx_activate(pool->h.ctx, fn);
}

static jet_status not_imported(jet_mempool pool, const char *what, const char *fn) {
  if (pool->imported)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the pool was imported from another process: %s belongs to the exporting "
                      "process",
                      what);
  return JET_STATUS_OK;
}

static jet_status set_attr(jet_mempool pool, enum cudaMemPoolAttr attr, void *v, const char *what,
                           const char *fn) {
  cudaError_t e = cudaMemPoolSetAttribute(pool->pool, attr, v);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaMemPoolSetAttribute", NULL, "setting %s: %s", what,
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

static jet_status get_attr(jet_mempool pool, enum cudaMemPoolAttr attr, void *v, const char *what,
                           const char *fn) {
  cudaError_t e = cudaMemPoolGetAttribute(pool->pool, attr, v);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaMemPoolGetAttribute", NULL, "reading %s: %s", what,
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

static jet_status apply_reuse(jet_mempool pool, unsigned reuse, const char *fn) {
  for (size_t i = 0; i < sizeof reuse_attrs / sizeof reuse_attrs[0]; i++) {
    int on = (reuse & reuse_attrs[i].bit) != 0;
    JET__TRY(set_attr(pool, reuse_attrs[i].attr, &on, "a reuse policy", fn));
  }
  return JET_STATUS_OK;
}

static jet_status apply_threshold(jet_mempool pool, uint64_t bytes, const char *fn) {
  cuuint64_t v = bytes;
  return set_attr(pool, cudaMemPoolAttrReleaseThreshold, &v, "the release threshold", fn);
}

/* Register a filled-in pool; on failure destroy what it owns. */
static jet_status pool_register(struct jet_context_s *ctx, struct jet_mempool_s *p,
                                jet_mempool *out, const char *fn) {
  atomic_init(&p->buffers, 0);
  jet_status st = jet__handle_register(&p->h, JET__H_MEMPOOL, ctx, fn);
  if (st != JET_STATUS_OK) {
    if (!p->is_default) (void)cudaMemPoolDestroy(p->pool);
    free(p);
    return st;
  }
  *out = p;
  return JET_STATUS_OK;
}

static jet_status pool_handle_types(const struct jet_context_s *ctx, int *types, const char *fn) {
  *types = 0;
  cudaError_t e = cudaDeviceGetAttribute(types, cudaDevAttrMemoryPoolSupportedHandleTypes,
                                         ctx->device);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaDeviceGetAttribute",
                           "drivers before CUDA 11.3 do not know "
                           "cudaDevAttrMemoryPoolSupportedHandleTypes",
                           NULL);
  return JET_STATUS_OK;
}

jet_status jet_mempool_create(jet_context ctx, const jet_mempool_desc *desc, jet_mempool *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  jet_mempool_desc d;
  memset(&d, 0, sizeof d);
  if (desc) d = *desc;
  JET__ARG(!(d.flags & ~POOL_FLAGS), "unknown pool flags 0x%x", d.flags & ~POOL_FLAGS);
  JET__ARG(!(d.reuse_off & ~JET_MEMPOOL_REUSE_ALL), "unknown reuse bits 0x%x in reuse_off",
           d.reuse_off & ~JET_MEMPOOL_REUSE_ALL);
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(pools_supported(ctx, __func__));
  /* the policy first, so that a refusal reads the same on every machine */
  if (d.flags & JET_MEMPOOL_EXPORTABLE)
    JET__TRY(jet__ipc_pool_allowed(&ctx->info, &ctx->platform.policy, 1, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  if (d.flags & JET_MEMPOOL_EXPORTABLE) {
    int types = 0;
    JET__TRY(pool_handle_types(ctx, &types, __func__));
    JET__TRY(jet__ipc_pool_allowed(&ctx->info, &ctx->platform.policy, types, __func__));
  }

  struct cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = (d.flags & JET_MEMPOOL_EXPORTABLE) ? cudaMemHandleTypePosixFileDescriptor
                                                         : cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = ctx->device;
  props.maxSize = d.max_size;
  struct jet_mempool_s *p = calloc(1, sizeof *p);
  if (!p) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a pool");
  cudaError_t e = cudaMemPoolCreate(&p->pool, &props);
  if (e != cudaSuccess) {
    free(p);
    return jet__cuda_error(e, __func__, "cudaMemPoolCreate",
                           e == cudaErrorNotSupported ? "the device or driver lacks this kind of pool"
                                                      : NULL,
                           "pool on device %d (handle types 0x%x, max size %zu): %s", ctx->device,
                           (unsigned)props.handleTypes, d.max_size, cudaGetErrorString(e));
  }
  p->exportable = (d.flags & JET_MEMPOOL_EXPORTABLE) != 0;
  jet_status st = apply_reuse(p, JET_MEMPOOL_REUSE_ALL & ~d.reuse_off, __func__);
  if (st == JET_STATUS_OK && d.release_threshold)
    st = apply_threshold(p, d.release_threshold, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaMemPoolDestroy(p->pool);
    free(p);
    return st;
  }
  return pool_register(ctx, p, out, __func__);
}

jet_status jet_mempool_get_default(jet_context ctx, jet_mempool *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(pools_supported(ctx, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaMemPool_t mp = NULL;
  cudaError_t e = cudaDeviceGetDefaultMemPool(&mp, ctx->device);
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaDeviceGetDefaultMemPool", NULL, NULL);
  struct jet_mempool_s *p = calloc(1, sizeof *p);
  if (!p) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a pool");
  p->pool = mp;
  p->is_default = 1;
  return pool_register(ctx, p, out, __func__);
}

jet_status jet_mempool_destroy(jet_mempool pool) {
  if (!pool) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  int n = atomic_load(&pool->buffers);
  if (n > 0)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d buffer(s) allocated from or imported through the pool are alive: free "
                      "or destroy them first",
                      n);
  (void)jet__ctx_activate(pool->h.ctx, __func__);
  cudaMemPool_t mp = pool->pool;
  int owned = !pool->is_default;
  jet__handle_unregister(&pool->h);
  free(pool);
  if (owned) {
    cudaError_t e = cudaMemPoolDestroy(mp);
    if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaMemPoolDestroy", NULL, NULL);
  }
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ settings */

jet_status jet_mempool_set_release_threshold(jet_mempool pool, uint64_t bytes) {
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  JET__TRY(not_imported(pool, "its release threshold", __func__));
  JET__TRY(jet__ctx_activate(pool->h.ctx, __func__));
  return apply_threshold(pool, bytes, __func__);
}

jet_status jet_mempool_get_release_threshold(jet_mempool pool, uint64_t *bytes) {
  JET__ARG(bytes, "bytes is NULL");
  *bytes = 0;
  JET__TRY(pool_enter(pool, __func__));
  cuuint64_t v = 0;
  JET__TRY(get_attr(pool, cudaMemPoolAttrReleaseThreshold, &v, "the release threshold", __func__));
  *bytes = v;
  return JET_STATUS_OK;
}

jet_status jet_mempool_set_reuse(jet_mempool pool, unsigned reuse) {
  JET__ARG(!(reuse & ~JET_MEMPOOL_REUSE_ALL), "unknown reuse bits 0x%x",
           reuse & ~JET_MEMPOOL_REUSE_ALL);
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  JET__TRY(not_imported(pool, "its reuse policy", __func__));
  JET__TRY(jet__ctx_activate(pool->h.ctx, __func__));
  return apply_reuse(pool, reuse, __func__);
}

jet_status jet_mempool_get_reuse(jet_mempool pool, unsigned *reuse) {
  JET__ARG(reuse, "reuse is NULL");
  *reuse = 0;
  JET__TRY(pool_enter(pool, __func__));
  unsigned r = 0;
  for (size_t i = 0; i < sizeof reuse_attrs / sizeof reuse_attrs[0]; i++) {
    int on = 0;
    JET__TRY(get_attr(pool, reuse_attrs[i].attr, &on, "a reuse policy", __func__));
    if (on) r |= reuse_attrs[i].bit;
  }
  *reuse = r;
  return JET_STATUS_OK;
}

static int access_ok(jet_mem_access a) {
  return a == JET_MEM_ACCESS_NONE || a == JET_MEM_ACCESS_READ || a == JET_MEM_ACCESS_READ_WRITE;
}

static jet_status check_device(int device, const char *fn) {
  if (device < 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "device %d is negative", device);
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaGetDeviceCount", NULL, NULL);
  if (device >= n)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "device %d does not exist: this process sees %d device(s)", device, n);
  return JET_STATUS_OK;
}

jet_status jet_mempool_set_access(jet_mempool pool, int device, jet_mem_access access) {
  JET__ARG(access_ok(access), "access %d is not a jet_mem_access", (int)access);
  JET__ARG(device >= 0, "device %d is negative", device);
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  JET__TRY(not_imported(pool, "its access list", __func__));
  JET__TRY(jet__ctx_activate(pool->h.ctx, __func__));
  int own = pool->h.ctx->device;
  if (device == own) {
    if (access != JET_MEM_ACCESS_READ_WRITE)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "device %d owns the pool and always has read-write access to it", own);
    return JET_STATUS_OK;
  }
  JET__TRY(check_device(device, __func__));
  int can = 0;
  cudaError_t e = cudaDeviceCanAccessPeer(&can, device, own);
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaDeviceCanAccessPeer", NULL, NULL);
  if (!can)
    return jet__error_native(JET_STATUS_UNSUPPORTED, __func__, "", "", 0,
                             pool->h.ctx->platform.policy.kind == JET_PLATFORM_TEGRA
                                 ? "peer-to-peer access is unsupported on Tegra"
                                 : "the devices have no peer path (PCIe topology, IOMMU or "
                                   "different GPU families)",
                             "device %d cannot access device %d's memory "
                             "(cudaDeviceCanAccessPeer is 0)",
                             device, own);
  struct cudaMemAccessDesc a;
  memset(&a, 0, sizeof a);
  a.location.type = cudaMemLocationTypeDevice;
  a.location.id = device;
  a.flags = (enum cudaMemAccessFlags)access;
  e = cudaMemPoolSetAccess(pool->pool, &a, 1);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemPoolSetAccess", NULL,
                           "access %d for device %d to a pool of device %d: %s", (int)access,
                           device, own, cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_mempool_get_access(jet_mempool pool, int device, jet_mem_access *access) {
  JET__ARG(access, "access is NULL");
  *access = JET_MEM_ACCESS_NONE;
  JET__ARG(device >= 0, "device %d is negative", device);
  JET__TRY(pool_enter(pool, __func__));
  JET__TRY(check_device(device, __func__));
  struct cudaMemLocation loc;
  memset(&loc, 0, sizeof loc);
  loc.type = cudaMemLocationTypeDevice;
  loc.id = device;
  enum cudaMemAccessFlags f = cudaMemAccessFlagsProtNone;
  cudaError_t e = cudaMemPoolGetAccess(&f, pool->pool, &loc);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemPoolGetAccess", NULL, "device %d: %s", device,
                           cudaGetErrorString(e));
  *access = (jet_mem_access)f;
  return JET_STATUS_OK;
}

jet_status jet_mempool_trim(jet_mempool pool, size_t keep_bytes) {
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  JET__TRY(not_imported(pool, "trimming", __func__));
  JET__TRY(jet__ctx_activate(pool->h.ctx, __func__));
  cudaError_t e = cudaMemPoolTrimTo(pool->pool, keep_bytes);
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaMemPoolTrimTo", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet_mempool_get_stats(jet_mempool pool, jet_mempool_stats *stats) {
  JET__ARG(stats, "stats is NULL");
  memset(stats, 0, sizeof *stats);
  JET__TRY(pool_enter(pool, __func__));
  cuuint64_t v[4] = {0, 0, 0, 0};
  JET__TRY(get_attr(pool, cudaMemPoolAttrReservedMemCurrent, &v[0], "reserved bytes", __func__));
  JET__TRY(get_attr(pool, cudaMemPoolAttrReservedMemHigh, &v[1], "reserved high", __func__));
  JET__TRY(get_attr(pool, cudaMemPoolAttrUsedMemCurrent, &v[2], "used bytes", __func__));
  JET__TRY(get_attr(pool, cudaMemPoolAttrUsedMemHigh, &v[3], "used high", __func__));
  stats->reserved_current = v[0];
  stats->reserved_high = v[1];
  stats->used_current = v[2];
  stats->used_high = v[3];
  return JET_STATUS_OK;
}

jet_status jet_mempool_reset_high_watermarks(jet_mempool pool) {
  JET__TRY(pool_enter(pool, __func__));
  cuuint64_t zero = 0;
  JET__TRY(set_attr(pool, cudaMemPoolAttrReservedMemHigh, &zero, "reserved high", __func__));
  zero = 0;
  return set_attr(pool, cudaMemPoolAttrUsedMemHigh, &zero, "used high", __func__);
}

/* ------------------------------------------------------------ stream-ordered buffers */

/* A 1D device buffer of @bytes at @p owned as a stream-ordered allocation,
 * counted in @pool (may be NULL). On failure the memory is freed. */
static jet_status async_buffer(struct jet_context_s *ctx, void *p, size_t bytes,
                               struct jet_mempool_s *pool, jet_buffer *out, const char *fn) {
  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) {
    jet__alloc a = jet__alloc_of(JET__ALLOC_CUDA_ASYNC, ctx->device, p, bytes);
    (void)jet__alloc_release(&a, fn);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a buffer");
  }
  b->kind = b->requested = JET_MEMORY_DEVICE;
  b->dev = p;
  b->width = b->pitch = b->size = bytes;
  b->height = b->depth = 1;
  b->mem = jet__alloc_of(JET__ALLOC_CUDA_ASYNC, ctx->device, p, bytes);
  b->pool = pool;
  JET__TRY(jet__buffer_register(ctx, b, out, fn));
  if (pool) atomic_fetch_add(&pool->buffers, 1);
  return JET_STATUS_OK;
}

jet_status jet_buffer_alloc_async(jet_stream stream, jet_mempool pool, size_t bytes,
                                  jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(bytes > 0, "bytes is 0");
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  struct jet_context_s *ctx = stream->h.ctx;
  if (pool) {
    JET__TRY(jet__handle_check_in(pool, JET__H_MEMPOOL, ctx, __func__, "pool"));
    if (pool->imported)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "an imported pool allocates nothing: allocate in the exporting process "
                        "and import the pointer (jet_mempool_import_pointer)");
  }
  JET__TRY(pools_supported(ctx, __func__));
  cudaStream_t s;
  JET__TRY(jet__stream_enter(stream, ctx, &s, __func__));
  void *p = NULL;
  cudaError_t e = pool ? cudaMallocFromPoolAsync(&p, bytes, pool->pool, s)
                       : cudaMallocAsync(&p, bytes, s);
  if (e != cudaSuccess) {
    const char *call = pool ? "cudaMallocFromPoolAsync" : "cudaMallocAsync";
    jet_mempool_stats st;
    memset(&st, 0, sizeof st);
    int have = pool && jet_mempool_get_stats(pool, &st) == JET_STATUS_OK;
    const char *hint =
        e == cudaErrorMemoryAllocation
            ? (ctx->platform.policy.kind == JET_PLATFORM_TEGRA
                   ? "CPU and GPU share DRAM here: free host memory too, trim pools, or ask for less"
                   : "free device memory, trim pools (jet_mempool_trim), or ask for less")
            : NULL;
    if (have)
      return jet__cuda_error(e, __func__, call, hint,
                             "asked %zu bytes; the pool reserves %llu bytes and has %llu in use",
                             bytes, (unsigned long long)st.reserved_current,
                             (unsigned long long)st.used_current);
    return jet__cuda_error(e, __func__, call, hint, "asked %zu bytes of device %d's %s pool",
                           bytes, ctx->device, pool ? "given" : "current");
  }
  return async_buffer(ctx, p, bytes, pool, out, __func__);
}

jet_status jet_buffer_free_async(jet_buffer buf, jet_stream stream) {
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  if (buf->mem.origin != JET__ALLOC_CUDA_ASYNC)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "the buffer was not allocated in stream order (jet_buffer_alloc_async or "
                      "jet_mempool_import_pointer): free it with jet_buffer_destroy");
  cudaStream_t s;
  JET__TRY(jet__stream_enter(stream, buf->h.ctx, &s, __func__));
  cudaError_t e = cudaFreeAsync(buf->dev, s);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaFreeAsync", NULL,
                           "%zu bytes at %p; the buffer stays alive: %s", buf->size, buf->dev,
                           cudaGetErrorString(e));
  struct jet_mempool_s *pool = buf->pool;
  jet__handle_unregister(&buf->h);
  free(buf);
  jet__mempool_buffer_gone(pool);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ sharing */

jet_status jet_mempool_export(jet_mempool pool, int *fd) {
  JET__ARG(fd, "fd is NULL");
  *fd = -1;
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  if (pool->imported || pool->is_default || !pool->exportable)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "only a pool created with JET_MEMPOOL_EXPORTABLE in this process is "
                      "exported; this one is %s",
                      pool->imported ? "imported" : pool->is_default ? "the device's default"
                                                                     : "not exportable");
  struct jet_context_s *ctx = pool->h.ctx;
  JET__TRY(jet__ipc_pool_allowed(&ctx->info, &ctx->platform.policy, 1, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  int h = -1;
  cudaError_t e =
      cudaMemPoolExportToShareableHandle(&h, pool->pool, cudaMemHandleTypePosixFileDescriptor, 0);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemPoolExportToShareableHandle", NULL, NULL);
  if (h < 0)
    return jet__error(JET_STATUS_DRIVER_ERROR, __func__,
                      "cudaMemPoolExportToShareableHandle succeeded but gave descriptor %d", h);
  int flags = fcntl(h, F_GETFD);
  if (flags < 0 || fcntl(h, F_SETFD, flags | FD_CLOEXEC) < 0) {
    int err = errno;
    (void)close(h);
    return jet__error_native(JET_STATUS_IO_ERROR, __func__, "fcntl", strerror(err), err, NULL,
                             "setting FD_CLOEXEC on the exported pool descriptor failed");
  }
  *fd = h;
  return JET_STATUS_OK;
}

jet_status jet_mempool_import(jet_context ctx, int fd, jet_mempool *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(fd >= 0, "fd %d is not a descriptor", fd);
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(jet__ipc_pool_allowed(&ctx->info, &ctx->platform.policy, 1, __func__));
  if (fcntl(fd, F_GETFD) < 0) {
    int err = errno;
    return jet__error_native(JET_STATUS_INVALID_ARGUMENT, __func__, "fcntl", strerror(err), err,
                             "pass the descriptor as received through the channel (SCM_RIGHTS)",
                             "fd %d is not an open descriptor in this process", fd);
  }
  JET__TRY(jet__ctx_activate(ctx, __func__));
  int types = 0;
  JET__TRY(pool_handle_types(ctx, &types, __func__));
  JET__TRY(jet__ipc_pool_allowed(&ctx->info, &ctx->platform.policy, types, __func__));
  cudaMemPool_t mp = NULL;
  cudaError_t e = cudaMemPoolImportFromShareableHandle(
      &mp, (void *)(uintptr_t)(unsigned)fd, cudaMemHandleTypePosixFileDescriptor, 0);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemPoolImportFromShareableHandle",
                           "the descriptor must come from jet_mempool_export in a process on the "
                           "same GPU, received through a Unix socket",
                           "importing descriptor %d: %s", fd, cudaGetErrorString(e));
  struct jet_mempool_s *p = calloc(1, sizeof *p);
  if (!p) {
    (void)cudaMemPoolDestroy(mp);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a pool");
  }
  p->pool = mp;
  p->imported = 1;
  return pool_register(ctx, p, out, __func__);
}

jet_status jet_mempool_export_pointer(jet_buffer buf, jet_mempool_ptr_desc *desc) {
  JET__ARG(desc, "desc is NULL");
  memset(desc, 0, sizeof *desc);
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  if (!buf->pool || !buf->pool->exportable || buf->pool->imported)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "the buffer was not allocated from a JET_MEMPOOL_EXPORTABLE pool of this "
                      "process");
  JET__TRY(jet__ctx_activate(buf->h.ctx, __func__));
  struct cudaMemPoolPtrExportData data;
  memset(&data, 0, sizeof data);
  cudaError_t e = cudaMemPoolExportPointer(&data, buf->dev);
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaMemPoolExportPointer", NULL, NULL);
  desc->version = JET_MEMPOOL_PTR_DESC_VERSION;
  desc->bytes = buf->size;
  memcpy(desc->data, &data, sizeof data);
  return JET_STATUS_OK;
}

jet_status jet_mempool_import_pointer(jet_mempool pool, const jet_mempool_ptr_desc *desc,
                                      jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  JET__ARG(desc->version == JET_MEMPOOL_PTR_DESC_VERSION,
           "description version %u; this jetrt reads version %u", desc->version,
           JET_MEMPOOL_PTR_DESC_VERSION);
  JET__ARG(desc->reserved == 0, "the reserved field is %u, not 0", desc->reserved);
  JET__ARG(desc->bytes > 0 && desc->bytes <= SIZE_MAX, "bytes %llu is not a buffer size",
           (unsigned long long)desc->bytes);
  JET__TRY(jet__handle_check(pool, JET__H_MEMPOOL, __func__, "pool"));
  if (!pool->imported)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "pointers are imported through a pool from jet_mempool_import");
  struct jet_context_s *ctx = pool->h.ctx;
  if (desc->bytes > ctx->info.total_memory)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "the description declares %llu bytes, more than device %d's %zu (a forged "
                      "or corrupted description)",
                      (unsigned long long)desc->bytes, ctx->device, ctx->info.total_memory);
  const jet__driver_api *cu;
  JET__TRY(jet__driver(&cu, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  struct cudaMemPoolPtrExportData data;
  memcpy(&data, desc->data, sizeof data);
  void *p = NULL;
  cudaError_t e = cudaMemPoolImportPointer(&p, pool->pool, &data);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemPoolImportPointer",
                           "the allocation must be alive in the exporting process and come from "
                           "the pool this one was imported from",
                           NULL);
  size_t bytes = (size_t)desc->bytes;
  /* The export data do not carry the size: check the declared one against
   * the range the driver reports around the pointer (a pool may report the
   * allocation or the chunk it lies in, so only the end matters). */
  CUdeviceptr base = 0, at = (CUdeviceptr)(uintptr_t)p;
  size_t real = 0;
  CUresult r = cu->cuMemGetAddressRange(&base, &real, at);
  jet_status st = JET_STATUS_OK;
  if (r != CUDA_SUCCESS) {
    jet__log(JET_LOG_DEBUG, "%s: cuMemGetAddressRange gave %d for the imported pointer; its "
                            "declared size of %zu bytes is not checked",
             __func__, (int)r, bytes);
  } else if (at < base || at - base >= real || real - (size_t)(at - base) < bytes) {
    st = jet__error_native(JET_STATUS_INVALID_ARGUMENT, __func__, "", "", 0,
                           "the description does not belong to this allocation (forged or "
                           "mismatched)",
                           "declared %zu bytes, but the allocation ends %zu bytes after the "
                           "pointer",
                           bytes, at >= base && at - base < real ? real - (size_t)(at - base) : 0);
  }
  if (st != JET_STATUS_OK) {
    jet__alloc a = jet__alloc_of(JET__ALLOC_CUDA_ASYNC, ctx->device, p, bytes);
    (void)jet__alloc_release(&a, __func__);
    return st;
  }
  return async_buffer(ctx, p, bytes, pool, out, __func__);
}
