/*
 * Status names and the per-thread error detail.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *jet_status_name(jet_status status) {
  switch (status) {
#define JET__NAME(name, value, text) \
  case JET_STATUS_##name:            \
    return "JET_STATUS_" #name;
    JET_STATUS_MAP(JET__NAME)
#undef JET__NAME
    default:
      return "JET_STATUS_UNKNOWN";
  }
}

const char *jet_status_string(jet_status status) {
  switch (status) {
#define JET__TEXT(name, value, text) \
  case JET_STATUS_##name:            \
    return text;
    JET_STATUS_MAP(JET__TEXT)
#undef JET__TEXT
    default:
      return "unknown status";
  }
}

typedef struct jet__error_slot {
  jet_error_info info;
  char function[64];
  char native_call[64];
  char native_name[64];
  char message[768];
  char hint[384];
  char line[1536];
} jet__error_slot;

static _Thread_local jet__error_slot tls_error;

static jet__error_slot *slot(void) {
  jet__error_slot *s = &tls_error;
  /* Point the public view at this thread's buffers every time: cheap, and right
   * even for a thread that has never failed. */
  s->info.function = s->function;
  s->info.native_call = s->native_call;
  s->info.native_name = s->native_name;
  s->info.message = s->message;
  s->info.hint = s->hint;
  return s;
}

static void copy_str(char *dst, size_t cap, const char *src) {
  if (!src) src = "";
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

const jet_error_info *jet_last_error(void) { return &slot()->info; }

void jet_clear_error(void) {
  jet__error_slot *s = slot();
  s->info.status = JET_STATUS_OK;
  s->info.native_code = 0;
  s->function[0] = s->native_call[0] = s->native_name[0] = '\0';
  s->message[0] = s->hint[0] = s->line[0] = '\0';
}

const char *jet_last_error_string(void) {
  jet__error_slot *s = slot();
  if (s->info.status == JET_STATUS_OK) return "";
  int n;
  if (s->native_call[0])
    n = snprintf(s->line, sizeof s->line, "%s: %s failed with %s (%d): %s", s->function,
                 s->native_call, s->native_name[0] ? s->native_name : "?", s->info.native_code,
                 s->message);
  else
    n = snprintf(s->line, sizeof s->line, "%s: %s: %s", s->function,
                 jet_status_name(s->info.status), s->message);
  if (s->hint[0] && n > 0 && (size_t)n < sizeof s->line) {
    /* A truncated summary line is acceptable; checking the result tells gcc -O2 so. */
    if (snprintf(s->line + n, sizeof s->line - (size_t)n, " (hint: %s)", s->hint) < 0)
      s->line[n] = '\0';
  }
  return s->line;
}

static jet_status record(jet_status st, const char *fn, const char *native_call,
                         const char *native_name, int native_code, const char *hint,
                         const char *fmt, va_list ap) {
  jet__error_slot *s = slot();
  s->info.status = st;
  s->info.native_code = native_code;
  copy_str(s->function, sizeof s->function, fn);
  copy_str(s->native_call, sizeof s->native_call, native_call);
  copy_str(s->native_name, sizeof s->native_name, native_name);
  copy_str(s->hint, sizeof s->hint, hint);
  if (fmt)
    vsnprintf(s->message, sizeof s->message, fmt, ap);
  else
    copy_str(s->message, sizeof s->message, jet_status_string(st));
  if (jet__log_enabled(JET_LOG_ERROR)) jet__log(JET_LOG_ERROR, "%s", jet_last_error_string());
  return st;
}

jet_status jet__error(jet_status st, const char *fn, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(st, fn, NULL, NULL, 0, NULL, fmt, ap);
  va_end(ap);
  return st;
}

jet_status jet__error_native(jet_status st, const char *fn, const char *native_call,
                             const char *native_name, int native_code, const char *hint,
                             const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(st, fn, native_call, native_name, native_code, hint, fmt, ap);
  va_end(ap);
  return st;
}

void jet__error_set_hint(const char *fmt, ...) {
  jet__error_slot *s = slot();
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->hint, sizeof s->hint, fmt, ap);
  va_end(ap);
}

jet_status jet__status_from_cuda(cudaError_t err) {
  switch (err) {
    case cudaSuccess:
      return JET_STATUS_OK;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorInvalidDevice:
      return JET_STATUS_INVALID_ARGUMENT;
    case cudaErrorMemoryAllocation:
      return JET_STATUS_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch:
      return JET_STATUS_NO_DEVICE;
    case cudaErrorNotSupported:
    case cudaErrorNotPermitted:
    case cudaErrorCallRequiresNewerDriver:
    case cudaErrorHostMemoryAlreadyRegistered:
      return err == cudaErrorHostMemoryAlreadyRegistered ? JET_STATUS_INVALID_STATE
                                                         : JET_STATUS_UNSUPPORTED;
    case cudaErrorNotReady:
      return JET_STATUS_NOT_READY;
    case cudaErrorSetOnActiveProcess:
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
    case cudaErrorStreamCaptureMerge:
    case cudaErrorStreamCaptureUnmatched:
    case cudaErrorStreamCaptureUnjoined:
    case cudaErrorStreamCaptureIsolation:
    case cudaErrorStreamCaptureImplicit:
    case cudaErrorStreamCaptureWrongThread:
    case cudaErrorCapturedEvent:
      return JET_STATUS_INVALID_STATE;
    case cudaErrorGraphExecUpdateFailure:
      return JET_STATUS_GRAPH_UPDATE_FAILED;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidKernelImage:
    case cudaErrorUnsupportedPtxVersion:
      return JET_STATUS_NO_KERNEL_IMAGE;
    case cudaErrorInvalidPtx:
    case cudaErrorJitCompilerNotFound:
    case cudaErrorJitCompilationDisabled:
      return JET_STATUS_JIT_FAILED;
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return JET_STATUS_DEVICE_FAULT;
    default:
      return JET_STATUS_CUDA_ERROR;
  }
}

jet_status jet__cuda_error(cudaError_t err, const char *fn, const char *call, const char *hint,
                           const char *fmt, ...) {
  jet_status st = jet__status_from_cuda(err);
  /* Non-sticky errors would otherwise resurface in an unrelated later call. */
  (void)cudaGetLastError();
  va_list ap;
  va_start(ap, fmt);
  if (fmt) {
    record(st, fn, call, cudaGetErrorName(err), (int)err, hint, fmt, ap);
  } else {
    jet__error_native(st, fn, call, cudaGetErrorName(err), (int)err, hint, "%s",
                      cudaGetErrorString(err));
  }
  va_end(ap);
  return st;
}
