/*
 * External semaphores: import, signal and wait on streams, destroy.
 */
#include <stdlib.h>
#include <string.h>

#include "external_internal.h"

static const char *type_name(jet_external_semaphore_type t) {
  switch (t) {
    case JET_EXTERNAL_SEMAPHORE_OPAQUE_FD: return "binary (opaque fd)";
    case JET_EXTERNAL_SEMAPHORE_TIMELINE_FD: return "timeline";
    case JET_EXTERNAL_SEMAPHORE_NVSCISYNC: return "NvSciSync";
  }
  return "unknown";
}

static const char import_hint[] =
    "the descriptor must come from the exporter's semaphore fd export (Vulkan "
    "vkGetSemaphoreFdKHR with VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, created with "
    "VkExportSemaphoreCreateInfo on this GPU), the type must match how it was created "
    "(VK_SEMAPHORE_TYPE_TIMELINE: TIMELINE_FD; binary: OPAQUE_FD), and a descriptor is "
    "imported once";

jet_status jet_external_semaphore_import(jet_context ctx, const jet_external_semaphore_desc *desc,
                                         jet_external_semaphore *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  jet_external_semaphore_desc d = *desc;
  switch (d.type) {
    case JET_EXTERNAL_SEMAPHORE_OPAQUE_FD:
    case JET_EXTERNAL_SEMAPHORE_TIMELINE_FD:
      JET__TRY(jet__external_fd_check(d.fd, __func__));
      break;
    case JET_EXTERNAL_SEMAPHORE_NVSCISYNC:
      JET__ARG(d.nvsci_object, "nvsci_object is NULL");
      break;
    default:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "unknown external semaphore type %d", (int)d.type);
  }
  JET__ARG(d.flags == 0, "unknown external semaphore flags 0x%x", d.flags);
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  if (d.type == JET_EXTERNAL_SEMAPHORE_NVSCISYNC)
    return jet__external_nvsci_refused(ctx, "NvSciSync", __func__);
  JET__TRY(jet__ctx_activate(ctx, __func__));

  struct jet_external_semaphore_s *s = calloc(1, sizeof *s);
  if (!s)
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a semaphore");
  s->type = d.type;
  int dup; /* CUDA gets a duplicate: a refused import may close what it was given */
  jet_status st = jet__external_fd_dup(d.fd, &dup, __func__);
  if (st != JET_STATUS_OK) {
    free(s);
    return st;
  }
  struct cudaExternalSemaphoreHandleDesc hd;
  memset(&hd, 0, sizeof hd);
  hd.type = d.type == JET_EXTERNAL_SEMAPHORE_TIMELINE_FD
                ? cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd
                : cudaExternalSemaphoreHandleTypeOpaqueFd;
  hd.handle.fd = dup;
  cudaError_t e = cudaImportExternalSemaphore(&s->rt, &hd);
  jet__external_fd_settle(d.fd, dup, e == cudaSuccess);
  if (e != cudaSuccess) {
    free(s);
    int refused = e == cudaErrorInvalidValue || e == cudaErrorInvalidResourceHandle ||
                  e == cudaErrorOperatingSystem || e == cudaErrorUnknown;
    if (!refused)
      return jet__cuda_error(e, __func__, "cudaImportExternalSemaphore", import_hint,
                             "%s semaphore descriptor %d", type_name(d.type), d.fd);
    (void)cudaGetLastError();
    return jet__error_native(JET_STATUS_INVALID_ARGUMENT, __func__, "cudaImportExternalSemaphore",
                             cudaGetErrorName(e), (int)e, import_hint,
                             "the driver refused %s semaphore descriptor %d: %s",
                             type_name(d.type), d.fd, cudaGetErrorString(e));
  }
  st = jet__handle_register(&s->h, JET__H_EXTERNAL_SEMAPHORE, ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaDestroyExternalSemaphore(s->rt);
    free(s);
    jet__error_set_hint("the descriptor was imported and is closed again: export a new one");
    return st;
  }
  *out = s;
  return JET_STATUS_OK;
}

jet_status jet_external_semaphore_destroy(jet_external_semaphore sem) {
  if (!sem) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(sem, JET__H_EXTERNAL_SEMAPHORE, __func__, "sem"));
  jet_status st = jet__ctx_activate(sem->h.ctx, __func__);
  cudaError_t e = cudaDestroyExternalSemaphore(sem->rt);
  if (e != cudaSuccess && st == JET_STATUS_OK)
    st = jet__cuda_error(e, __func__, "cudaDestroyExternalSemaphore", NULL, NULL);
  jet__handle_unregister(&sem->h);
  free(sem);
  return st;
}

/* Checks shared by signal and wait; on success *@cu is @stream's CUDA stream. */
static jet_status prepare(jet_external_semaphore sem, uint64_t value, jet_stream stream,
                          cudaStream_t *cu, const char *fn) {
  JET__TRY(jet__handle_check(sem, JET__H_EXTERNAL_SEMAPHORE, fn, "sem"));
  if (sem->type != JET_EXTERNAL_SEMAPHORE_TIMELINE_FD && value != 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "value %llu given for a %s semaphore, which has no value: pass 0",
                      (unsigned long long)value, type_name(sem->type));
  return jet__stream_enter(stream, sem->h.ctx, cu, fn);
}

jet_status jet_external_semaphore_signal(jet_external_semaphore sem, uint64_t value,
                                         jet_stream stream) {
  cudaStream_t cu;
  JET__TRY(prepare(sem, value, stream, &cu, __func__));
  struct cudaExternalSemaphoreSignalParams p;
  memset(&p, 0, sizeof p);
  p.params.fence.value = value;
  cudaError_t e = cudaSignalExternalSemaphoresAsync(&sem->rt, &p, 1, cu);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaSignalExternalSemaphoresAsync",
                           sem->type == JET_EXTERNAL_SEMAPHORE_TIMELINE_FD
                               ? "a timeline value must exceed the semaphore's current value"
                               : NULL,
                           "%s semaphore, value %llu", type_name(sem->type),
                           (unsigned long long)value);
  return JET_STATUS_OK;
}

jet_status jet_external_semaphore_wait(jet_external_semaphore sem, uint64_t value,
                                       jet_stream stream) {
  cudaStream_t cu;
  JET__TRY(prepare(sem, value, stream, &cu, __func__));
  struct cudaExternalSemaphoreWaitParams p;
  memset(&p, 0, sizeof p);
  p.params.fence.value = value;
  cudaError_t e = cudaWaitExternalSemaphoresAsync(&sem->rt, &p, 1, cu);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaWaitExternalSemaphoresAsync", NULL,
                           "%s semaphore, value %llu", type_name(sem->type),
                           (unsigned long long)value);
  return JET_STATUS_OK;
}
