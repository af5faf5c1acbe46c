/*
 * Module globals: __device__ and __constant__ variables looked up by name and
 * copied to and from, synchronously or on a stream.
 */
#include <stdint.h>
#include <string.h>

#include "module_int.h"

static jet_status lookup(jet_module m, const char *name, CUdeviceptr *dptr, size_t *bytes,
                         const char *fn) {
  if (!name || !name[0])
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "symbol name is NULL or empty");
  size_t len = strlen(name);
  if (len >= 1024)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "symbol name is %zu characters long", len);
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, fn));
  JET__TRY(jet__ctx_activate(m->h.ctx, fn));
  CUresult r = api->cuModuleGetGlobal(dptr, bytes, m->cu, name);
  if (r == CUDA_ERROR_NOT_FOUND)
    return jet__error_native(JET_STATUS_INVALID_ARGUMENT, fn, "cuModuleGetGlobal",
                             "CUDA_ERROR_NOT_FOUND", (int)r,
                             "only __device__ and __constant__ variables at namespace scope "
                             "are found by their plain name",
                             "module '%s' has no global '%s'", m->info.name, name);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuModuleGetGlobal", NULL, "module '%s', global '%s'",
                         m->info.name, name);
  return JET_STATUS_OK;
}

jet_status jet_module_symbol(jet_module m, const char *name, void **dptr, size_t *bytes) {
  if (dptr) *dptr = NULL;
  if (bytes) *bytes = 0;
  JET__TRY(jet__handle_check(m, JET__H_MODULE, __func__, "module"));
  CUdeviceptr p = 0;
  size_t n = 0;
  JET__TRY(lookup(m, name, &p, &n, __func__));
  if (dptr) *dptr = (void *)(uintptr_t)p;
  if (bytes) *bytes = n;
  return JET_STATUS_OK;
}

/* One path for the four copies: @to_symbol picks the direction; @async 0
 * means synchronous on the legacy stream (@stream unused). */
static jet_status symbol_copy(int async, jet_stream stream, jet_module m, const char *name,
                              size_t offset, void *host, size_t bytes, int to_symbol,
                              const char *fn) {
  JET__TRY(jet__handle_check(m, JET__H_MODULE, fn, "module"));
  cudaStream_t cu = cudaStreamLegacy;
  if (async) JET__TRY(jet__stream_enter(stream, m->h.ctx, &cu, fn));
  if (!m->h.ctx->info.unified_addressing)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d lacks unified addressing, which symbol copies need",
                      m->h.ctx->device);
  if (!host && bytes)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is NULL", to_symbol ? "src" : "dst");
  size_t end;
  if (!jet__add_ok(offset, bytes, &end))
    return jet__error(JET_STATUS_OVERFLOW, fn, "offset %zu + %zu bytes overflows size_t", offset,
                      bytes);
  if (host && !jet__add_ok((size_t)(uintptr_t)host, bytes, &end))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%s %p + %zu bytes wraps the address space",
                      to_symbol ? "src" : "dst", host, bytes);
  CUdeviceptr p = 0;
  size_t size = 0;
  JET__TRY(lookup(m, name, &p, &size, fn));
  if (offset > size || bytes > size - offset)
    return jet__error(JET_STATUS_OVERFLOW, fn,
                      "offset %zu + %zu bytes passes the end of global '%s' (%zu bytes) in "
                      "module '%s'",
                      offset, bytes, name, size, m->info.name);
  if (bytes == 0) return JET_STATUS_OK;
  void *dev = (void *)(uintptr_t)(p + offset);
  cudaError_t e = to_symbol ? cudaMemcpyAsync(dev, host, bytes, cudaMemcpyDefault, cu)
                            : cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDefault, cu);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaMemcpyAsync", NULL, "%zu bytes %s global '%s' + %zu",
                           bytes, to_symbol ? "to" : "from", name, offset);
  if (!async) {
    e = cudaStreamSynchronize(cu);
    if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, NULL);
  }
  return JET_STATUS_OK;
}

jet_status jet_module_symbol_write(jet_module m, const char *name, size_t offset, const void *src,
                                   size_t bytes) {
  return symbol_copy(0, NULL, m, name, offset, (void *)(uintptr_t)src, bytes, 1, __func__);
}

jet_status jet_module_symbol_read(jet_module m, const char *name, size_t offset, void *dst,
                                  size_t bytes) {
  return symbol_copy(0, NULL, m, name, offset, dst, bytes, 0, __func__);
}

jet_status jet_module_symbol_write_async(jet_stream stream, jet_module m, const char *name,
                                         size_t offset, const void *src, size_t bytes) {
  return symbol_copy(1, stream, m, name, offset, (void *)(uintptr_t)src, bytes, 1, __func__);
}

jet_status jet_module_symbol_read_async(jet_stream stream, jet_module m, const char *name,
                                        size_t offset, void *dst, size_t bytes) {
  return symbol_copy(1, stream, m, name, offset, dst, bytes, 0, __func__);
}
