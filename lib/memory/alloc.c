/*
 * Owned memory and its release, export and import (see alloc.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

_Static_assert(sizeof(cudaIpcMemHandle_t) == 64, "cudaIpcMemHandle_t is 64 bytes");

jet__alloc jet__alloc_of(jet__alloc_origin origin, int device, void *ptr, size_t size) {
  jet__alloc a;
  memset(&a, 0, sizeof a);
  a.origin = origin;
  a.exportable = JET_IPC_MECHANISM_NONE;
  a.device = device;
  a.ptr = ptr;
  a.size = size;
  return a;
}

jet_status jet__alloc_device(int device, size_t bytes, jet_ipc_mechanism mech, jet__alloc *out,
                             const char *fn) {
  memset(out, 0, sizeof *out);
  out->device = device;
  if (mech == JET_IPC_MECHANISM_VMM_FD) {
    JET__TRY(jet__vmm_enter(device, fn));
    jet__vmm_map m = {0, 0, 0};
    JET__TRY(jet__vmm_alloc(device, bytes, &m, fn));
    out->origin = JET__ALLOC_VMM;
    out->exportable = mech;
    out->vmm = m;
    out->ptr = (void *)(uintptr_t)m.ptr;
    out->size = m.size;
    return JET_STATUS_OK;
  }
  if (mech != JET_IPC_MECHANISM_NONE && mech != JET_IPC_MECHANISM_LEGACY)
    return jet__error(JET_STATUS_INTERNAL, fn, "unknown IPC mechanism %d", (int)mech);
  size_t size = bytes;
  if (mech == JET_IPC_MECHANISM_LEGACY) {
    size_t t;
    if (!jet__add_ok(bytes, JET__VMM_MIN_SHARE_ALIGN - 1, &t))
      return jet__error(JET_STATUS_OVERFLOW, fn, "%zu bytes rounded up to %zu overflows size_t",
                        bytes, JET__VMM_MIN_SHARE_ALIGN);
    size = t / JET__VMM_MIN_SHARE_ALIGN * JET__VMM_MIN_SHARE_ALIGN;
  }
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, size);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaMalloc", NULL,
                           "asked %zu bytes of device memory (%zu allocated for %s)", bytes, size,
                           jet__ipc_mechanism_name(mech));
  out->origin = JET__ALLOC_CUDA;
  out->exportable = mech;
  out->ptr = p;
  out->size = size;
  return JET_STATUS_OK;
}

/* cudaFree waits for the device before freeing; unmapping does not, and a
 * kernel still using the range would fault. The release goes on even when the
 * wait reports an earlier error: the context is then unusable anyway. */
static jet_status wait_idle(const char *fn) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaDeviceSynchronize", NULL,
                           "waiting for the device before unmapping: %s", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet__alloc_release(jet__alloc *a, const char *fn) {
  jet__alloc r = *a;
  memset(a, 0, sizeof *a);
  cudaError_t e = cudaSuccess;
  const char *call = NULL;
  jet_status waited = JET_STATUS_OK;
  switch (r.origin) {
    case JET__ALLOC_NONE:
      return JET_STATUS_OK;
    case JET__ALLOC_CUDA:
      call = "cudaFree";
      e = cudaFree(r.ptr);
      break;
    case JET__ALLOC_CUDA_HOST:
      call = "cudaFreeHost";
      e = cudaFreeHost(r.ptr);
      break;
    case JET__ALLOC_HOST_REGISTERED:
      call = "cudaHostUnregister";
      e = cudaHostUnregister(r.ptr);
      break;
    case JET__ALLOC_IPC_OPENED:
      waited = wait_idle(fn);
      call = "cudaIpcCloseMemHandle";
      e = cudaIpcCloseMemHandle(r.ptr);
      break;
    case JET__ALLOC_EXTERNAL:
      if (r.release_cb) r.release_cb(r.release_arg);
      return JET_STATUS_OK;
    case JET__ALLOC_CUDA_ASYNC:
      /* A stream-ordered free with nothing left to order against: the device
       * is idle first (as cudaFree would be), and the free has completed
       * when this returns, so the pool's statistics already show it. */
      waited = wait_idle(fn);
      call = "cudaFreeAsync";
      e = cudaFreeAsync(r.ptr, cudaStreamLegacy);
      if (e == cudaSuccess) {
        call = "cudaStreamSynchronize";
        e = cudaStreamSynchronize(cudaStreamLegacy);
      }
      break;
    case JET__ALLOC_VMM: {
      waited = wait_idle(fn);
      jet_status fs = jet__vmm_free(&r.vmm, fn);
      /* the status of the failure the detail describes: the last one */
      return fs != JET_STATUS_OK ? fs : waited;
    }
  }
  if (e != cudaSuccess) return jet__cuda_error(e, fn, call, NULL, NULL);
  if (waited != JET_STATUS_OK) return waited;
  if (!call)
    return jet__error(JET_STATUS_INTERNAL, fn, "unknown allocation origin %d", (int)r.origin);
  return JET_STATUS_OK;
}

jet_status jet__alloc_export(const jet__alloc *a, int *fd, unsigned char legacy[64],
                             const char *fn) {
  *fd = -1;
  memset(legacy, 0, 64);
  if (a->imported)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the object was imported from another process; export it from the process "
                      "that created it");
  switch (a->exportable) {
    case JET_IPC_MECHANISM_VMM_FD:
      if (a->origin != JET__ALLOC_VMM) break;
      JET__TRY(jet__vmm_enter(a->device, fn));
      return jet__vmm_export_fd(&a->vmm, fd, fn);
    case JET_IPC_MECHANISM_LEGACY: {
      if (a->origin != JET__ALLOC_CUDA) break;
      cudaError_t e = cudaSetDevice(a->device);
      if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaSetDevice", NULL, NULL);
      cudaIpcMemHandle_t h;
      e = cudaIpcGetMemHandle(&h, a->ptr);
      if (e != cudaSuccess)
        return jet__cuda_error(e, fn, "cudaIpcGetMemHandle",
                               "legacy CUDA IPC needs Linux, a device with unified addressing and "
                               "a platform that supports it (not Jetson before Thor)",
                               NULL);
      memcpy(legacy, &h, sizeof h);
      return JET_STATUS_OK;
    }
    case JET_IPC_MECHANISM_NONE:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "the memory is not exportable");
  }
  return jet__error(JET_STATUS_INTERNAL, fn, "exportable by %s but allocated with origin %d",
                    jet__ipc_mechanism_name(a->exportable), (int)a->origin);
}

static jet_status import_legacy(int device, const unsigned char legacy[64], size_t size,
                                jet__alloc *out, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(jet__driver(&cu, fn));
  cudaIpcMemHandle_t h;
  memcpy(&h, legacy, sizeof h);
  void *p = NULL;
  cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaIpcOpenMemHandle",
                           "CUDA opens a memory handle only in a process other than the exporter, "
                           "on the exporter's device, while the exported memory is alive",
                           NULL);
  /* The handle does not carry the allocation's size: ask the driver how large
   * the opened allocation is before trusting the declared one. */
  CUdeviceptr base = 0;
  size_t real = 0;
  CUresult r = cu->cuMemGetAddressRange(&base, &real, (CUdeviceptr)(uintptr_t)p);
  if (r != CUDA_SUCCESS) {
    (void)cudaIpcCloseMemHandle(p);
    return jet__cu_error(r, fn, "cuMemGetAddressRange", NULL,
                         "size of the opened legacy allocation");
  }
  if (base != (CUdeviceptr)(uintptr_t)p || real < size) {
    (void)cudaIpcCloseMemHandle(p);
    return jet__error_native(JET_STATUS_INVALID_ARGUMENT, fn, "", "", 0,
                             "the description does not belong to this handle (forged or "
                             "mismatched)",
                             "declared allocation of %zu bytes, but the handle opens %zu bytes "
                             "(at offset %lld of its allocation)",
                             size, real,
                             (long long)((CUdeviceptr)(uintptr_t)p - base));
  }
  out->origin = JET__ALLOC_IPC_OPENED;
  out->ptr = p;
  out->size = size;
  out->device = device;
  return JET_STATUS_OK;
}

jet_status jet__alloc_import(int device, jet_ipc_mechanism mech, int fd,
                             const unsigned char legacy[64], size_t size, jet__alloc *out,
                             const char *fn) {
  memset(out, 0, sizeof *out);
  switch (mech) {
    case JET_IPC_MECHANISM_VMM_FD: {
      JET__TRY(jet__vmm_enter(device, fn));
      jet__vmm_map m = {0, 0, 0};
      JET__TRY(jet__vmm_import_fd(device, fd, size, &m, fn));
      out->origin = JET__ALLOC_VMM;
      out->vmm = m;
      out->ptr = (void *)(uintptr_t)m.ptr;
      out->size = m.size;
      out->device = device;
      break;
    }
    case JET_IPC_MECHANISM_LEGACY: {
      cudaError_t e = cudaSetDevice(device);
      if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaSetDevice", NULL, NULL);
      JET__TRY(import_legacy(device, legacy, size, out, fn));
      break;
    }
    default:
      return jet__error(JET_STATUS_INTERNAL, fn, "import by mechanism %d", (int)mech);
  }
  out->exportable = JET_IPC_MECHANISM_NONE;
  out->imported = 1;
  return JET_STATUS_OK;
}

jet__alloc jet__alloc_external(int device, void *ptr, size_t size, void (*cb)(void *arg),
                               void *arg) {
  jet__alloc a = jet__alloc_of(JET__ALLOC_EXTERNAL, device, ptr, size);
  a.release_cb = cb;
  a.release_arg = arg;
  return a;
}

static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;

jet_status jet__alloc_hold_add(jet__alloc_hold **slot, struct jet_context_s *ctx,
                               jet__alloc_hold **out, const char *fn) {
  pthread_mutex_lock(&hold_lock);
  jet__alloc_hold *h = *slot;
  if (!h) {
    h = calloc(1, sizeof *h);
    if (!h) {
      pthread_mutex_unlock(&hold_lock);
      return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for an export record");
    }
    atomic_init(&h->refs, 1);
    h->mem = jet__alloc_of(JET__ALLOC_NONE, -1, NULL, 0);
    h->ctx = ctx;
    *slot = h;
  }
  atomic_fetch_add(&h->refs, 1);
  pthread_mutex_unlock(&hold_lock);
  atomic_fetch_add(&ctx->live_objects, 1);
  *out = h;
  return JET_STATUS_OK;
}

static void hold_free(jet__alloc_hold *h, const char *fn) {
  if (h->mem.origin != JET__ALLOC_NONE) {
    /* Released even when the device cannot be made current, as buffers are:
     * the addresses are unified, and the memory must not stay held. */
    jet_status st = jet__ctx_activate(h->ctx, fn);
    jet_status rs = jet__alloc_release(&h->mem, fn);
    if (st == JET_STATUS_OK) st = rs;
    if (st != JET_STATUS_OK)
      jet__log(JET_LOG_ERROR, "%s: releasing memory that outlived its object: %s", fn,
               jet_last_error_string());
  }
  free(h);
}

void jet__alloc_hold_drop(jet__alloc_hold *h) {
  if (!h) return;
  struct jet_context_s *ctx = h->ctx;
  if (atomic_fetch_sub(&h->refs, 1) == 1) hold_free(h, __func__);
  atomic_fetch_sub(&ctx->live_objects, 1);
}

jet_status jet__alloc_object_release(jet__alloc_hold *hold, jet__alloc *mem, const char *fn) {
  if (!hold) return jet__alloc_release(mem, fn);
  /* Publish the memory before letting go: the last holder reads it after its
   * own decrement, which is ordered after this one. */
  hold->mem = *mem;
  *mem = jet__alloc_of(JET__ALLOC_NONE, -1, NULL, 0);
  if (atomic_fetch_sub(&hold->refs, 1) != 1) return JET_STATUS_OK;
  jet__alloc r = hold->mem;
  free(hold);
  return jet__alloc_release(&r, fn);
}
