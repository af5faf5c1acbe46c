/*
 * Driver API entry points fetched through the CUDA runtime, so that libjetrt
 * never links libcuda: the runtime already dlopens the driver.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static jet__driver_api api;
static cudaError_t load_err;
static const char *missing_sym;

static void load(void) {
  enum cudaDriverEntryPointQueryResult q;
  void *p;
#define JET__DRIVER_SYM(name, version, ret, params)                                          \
  p = NULL;                                                                                  \
  load_err = cudaGetDriverEntryPointByVersion(#name, &p, version, cudaEnableDefault, &q);    \
  if (load_err != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {                   \
    missing_sym = #name;                                                                     \
    memset(&api, 0, sizeof api);                                                             \
    return;                                                                                  \
  }                                                                                          \
  memcpy(&api.name, &p, sizeof p);
  JET__DRIVER_SYMS(JET__DRIVER_SYM)
#undef JET__DRIVER_SYM
}

jet_status jet__driver(const jet__driver_api **out, const char *fn) {
  pthread_once(&once, load);
  if (missing_sym) {
    if (load_err != cudaSuccess)
      return jet__cuda_error(load_err, fn, "cudaGetDriverEntryPointByVersion", NULL,
                             "driver entry point %s unavailable: %s", missing_sym,
                             cudaGetErrorString(load_err));
    return jet__error_native(JET_STATUS_DRIVER_ERROR, fn, "cudaGetDriverEntryPointByVersion",
                             "", 0, "update the NVIDIA driver",
                             "the installed driver does not provide %s", missing_sym);
  }
  *out = &api;
  return JET_STATUS_OK;
}

jet_status jet__cu_error(CUresult res, const char *fn, const char *call, const char *hint,
                         const char *fmt, ...) {
  const char *name = "CUDA_ERROR_UNKNOWN", *text = "unknown driver error";
  if (api.cuGetErrorName) api.cuGetErrorName(res, &name);
  if (api.cuGetErrorString) api.cuGetErrorString(res, &text);
  jet_status st;
  switch (res) {
    case CUDA_ERROR_OUT_OF_MEMORY: st = JET_STATUS_OUT_OF_MEMORY; break;
    case CUDA_ERROR_INVALID_VALUE: st = JET_STATUS_INVALID_ARGUMENT; break;
    case CUDA_ERROR_NOT_SUPPORTED: st = JET_STATUS_UNSUPPORTED; break;
    case CUDA_ERROR_NO_DEVICE: st = JET_STATUS_NO_DEVICE; break;
    case CUDA_ERROR_NOT_READY: st = JET_STATUS_NOT_READY; break;
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION: st = JET_STATUS_NO_KERNEL_IMAGE; break;
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    case CUDA_ERROR_JIT_COMPILATION_DISABLED: st = JET_STATUS_JIT_FAILED; break;
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED: st = JET_STATUS_DEVICE_FAULT; break;
    default: st = JET_STATUS_DRIVER_ERROR; break;
  }
  if (!fmt) return jet__error_native(st, fn, call, name, (int)res, hint, "%s", text);
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return jet__error_native(st, fn, call, name, (int)res, hint, "%s", msg);
}
